//! The VAT register at issue, against a local stand-in of the EU VIES REST
//! service: a valid id issues and keeps the answer with its consultation
//! number (shown on the invoice's page and in the console's JSON); an
//! invalid one refuses and numbers nothing; a busy member state
//! (MS_UNAVAILABLE) and a register that never answers let the issue proceed
//! and record "not reachable"; `off` asks no one.

use std::time::Duration;

use kontor::outbox::vat_register::Service;
use serde_json::json;

use crate::support::screens::Office;
use crate::support::vies_stand_in::{Reply, ViesStandIn};

/// A draft of 500.00 EUR for a new customer of company A with `vat_id`.
fn draft_for(office: &Office, name: &str, vat_id: &str) -> String {
    let customer = office.api().customer(&office.key_a, name);
    office.data.ok(&[
        "customer",
        "set",
        customer["id"].as_str().unwrap(),
        "--vat-id",
        vat_id,
    ]);
    let draft = office.api().draft(&office.key_a, &customer);
    office.data.line(&draft, 50_000, "19", false);
    draft
}

#[test]
fn the_register_valid_invalid_busy_hanging_and_off() {
    let vies = ViesStandIn::start();
    vies.script("ATU13585627", Reply::Invalid);
    vies.script("NL004495445B01", Reply::Unavailable);
    vies.script("BE0428759497", Reply::Hang);
    let root = vies.root.clone();
    let office = Office::configured(move |c| {
        c.vat_register = Service::Vies(root.clone());
        c.vat_register_timeout = Duration::from_secs(1);
    });
    let register = ["--vat-register", &vies.root, "--vat-register-timeout", "1"];
    let issue = |draft: &str| {
        let mut args = vec!["draft", "issue", draft];
        args.extend(register);
        office.data.console(&args)
    };

    // Valid (Greece is EL): the answer kept, with its consultation number.
    let valid = draft_for(&office, "Pelatis AE", "EL094259216");
    let (ok, invoice, stderr) = issue(&valid);
    assert!(ok, "{stderr}");
    assert_eq!(invoice["number"], "2026-00001");
    let check = &invoice["vatCheck"];
    assert_eq!(check["outcome"], "VALID");
    assert_eq!(check["register"], "VIES");
    assert_eq!(check["vatId"], "EL094259216");
    assert_eq!(check["consultationNumber"], "WAPIAAAA094259216");
    assert_eq!(check["name"], "KUNDE REGISTRIERT SARL");
    assert_eq!(check["address"], "1 RUE DU REGISTRE 75001 PARIS");
    assert_eq!(
        vies.requests()[0],
        json!({"countryCode": "EL", "vatNumber": "094259216",
               "requesterMemberStateCode": "DE", "requesterNumber": "136695976"})
    );

    // Invalid: refused naming the id and the register's answer; nothing numbered.
    let invalid = draft_for(&office, "Kunde Wien GmbH", "ATU13585627");
    let (ok, _, stderr) = issue(&invalid);
    assert!(!ok);
    assert!(
        stderr.contains("ATU13585627") && stderr.contains("not valid") && stderr.contains("VIES"),
        "{stderr}"
    );
    let (_, draft, _) = office
        .data
        .console(&["draft", "issue", &invalid, "--vat-register", "off"]);
    // The same draft issues with the register off: it took the next number, so none was used.
    assert_eq!(draft["number"], "2026-00002");
    assert_eq!(draft["vatCheck"]["outcome"], "OFF");
    assert_eq!(draft["vatCheck"]["register"], "OFF");

    // A busy member state: the issue proceeds, the invoice says not reachable.
    let busy = draft_for(&office, "Klant BV", "NL004495445B01");
    let (ok, invoice, stderr) = issue(&busy);
    assert!(ok, "{stderr}");
    assert_eq!(invoice["vatCheck"]["outcome"], "UNREACHABLE");
    assert_eq!(invoice["vatCheck"]["detail"], "MS_UNAVAILABLE");
    let busy_number = invoice["number"].as_str().unwrap().to_string();

    // A register that never answers: the issue waits its time limit, then proceeds.
    let hanging = draft_for(&office, "Klant Brussel NV", "BE0428759497");
    let (ok, invoice, stderr) = issue(&hanging);
    assert!(ok, "{stderr}");
    assert_eq!(invoice["vatCheck"]["outcome"], "UNREACHABLE");
    assert!(
        invoice["vatCheck"]["detail"]
            .as_str()
            .unwrap()
            .contains("no answer within 1 s"),
        "{invoice}"
    );

    // A customer without a VAT id: nothing asked, the invoice as the API shows it.
    let asked = vies.requests().len();
    let plain = office.api().customer(&office.key_a, "Ohne USt-IdNr.");
    let draft = office.api().draft(&office.key_a, &plain);
    office.data.line(&draft, 10_000, "19", false);
    let (ok, invoice, _) = issue(&draft);
    assert!(ok);
    assert!(invoice.get("vatCheck").is_none());
    assert_eq!(vies.requests().len(), asked);

    // The screens: the invoice's page shows the answer; issuing on the
    // screen asks the register the server was started with.
    let mut browser = office.signed_in("owner@alpha.de");
    let page = browser.get("/invoices/2026-00001");
    assert!(page.body.contains("id=\"vat-check\""), "{}", page.body);
    assert!(
        page.body.contains("WAPIAAAA094259216") && page.body.contains("KUNDE REGISTRIERT SARL")
    );
    // Issued with the register off, the box says one thing: nothing was
    // asked (no register named, no moment of asking).
    let off = browser.get("/invoices/2026-00002");
    let check = off
        .body
        .split("id=\"vat-check\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", off.body));
    let check = &check[..check.find("</dl>").unwrap()];
    assert!(
        check.contains("not asked: the VAT register was switched off at issue"),
        "{check}"
    );
    assert!(
        !check.contains("OFF") && !check.contains("Asked at"),
        "{check}"
    );
    let page = browser.get(&format!("/invoices/{busy_number}"));
    assert!(
        page.body.contains("register not reachable") && page.body.contains("MS_UNAVAILABLE"),
        "{}",
        page.body
    );
    let refused = draft_for(&office, "Zweiter Wiener", "ATU13585627");
    let confirm = browser.get(&format!("/drafts/{refused}/issue"));
    let answer = browser.post(
        &format!("/drafts/{refused}/issue"),
        &[("csrf", &confirm.csrf()), ("deliveredOn", ""), ("rate", "")],
    );
    assert_eq!(answer.status, 409, "{}", answer.body);
    assert!(answer.body.contains("ATU13585627") && answer.body.contains("not valid"));
}
