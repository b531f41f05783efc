//! The Drafts screen over HTTP, as a browser uses it: a draft made for a
//! customer, lines typed in German and in English (and refused with what was
//! typed kept), changed and removed, references set, the figures and the
//! PDF preview (marked as a draft, no number, no XML, embeddable only by
//! kontor's own pages), the confirmation naming the next number and the
//! issue taking it, as the API then shows it; a viewer refused every act,
//! another company's draft not found, the audit naming the person.

use serde_json::Value;

use crate::support::screens::{people_audit, Browser, Office, ENGLISH, GERMAN};

/// The draft as the console shows it (`draft set` without a change prints it).
fn draft_view(office: &Office, id: &str) -> Value {
    office.data.ok(&["draft", "set", id])
}

/// A customer of company A through the API.
fn customer(office: &Office, name: &str) -> Value {
    office.api().customer(&office.key_a, name)
}

/// Makes a draft for `customer` on the screens; returns its id.
fn new_draft(browser: &mut Browser, customer: &Value) -> String {
    let id = customer["id"].as_str().unwrap();
    let page = browser.act("/drafts/new", "/drafts", &[("customerId", id)]);
    assert_eq!(page.status, 303, "{}", page.body);
    let location = page.header("location").unwrap();
    let draft = location
        .strip_prefix("/drafts/")
        .and_then(|rest| rest.strip_suffix("?done=created"))
        .unwrap_or_else(|| panic!("{location}"));
    assert!(draft.starts_with("drf_"), "{draft}");
    draft.to_string()
}

/// A line's form as a person fills it.
fn line<'a>(
    description: &'a str,
    quantity: &'a str,
    unit: &'a str,
    price: &'a str,
    rate: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("description", description),
        ("quantity", quantity),
        ("unit", unit),
        ("unitPrice", price),
        ("taxRate", rate),
        ("vatCategory", ""),
        ("exemptionReason", ""),
        ("exemptionCode", ""),
    ]
}

/// Adds a line on the draft's page; it must be added.
fn add_line(browser: &mut Browser, draft: &str, form: &[(&str, &str)]) {
    let page = browser.act(
        &format!("/drafts/{draft}"),
        &format!("/drafts/{draft}/lines"),
        form,
    );
    page.redirects_to(&format!("/drafts/{draft}?done=line-added#lines"));
    let added = browser.get(&format!("/drafts/{draft}?done=line-added"));
    // Said in the page's language, which the browser asks for.
    let notice = if browser.language == GERMAN {
        "Die Position ist hinzugefügt."
    } else {
        "The line is added."
    };
    assert!(added.body.contains(notice), "{}", added.body);
}

/// The text between `<tr id="{id}">` and its end, for a figure of the page.
fn row<'a>(body: &'a str, id: &str) -> &'a str {
    let at = body
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} in {body}"));
    let rest = &body[at..];
    &rest[..rest.find("</tr>").unwrap()]
}

/// An amount in English notation, as the page writes euros.
fn euros(minor: i64) -> String {
    let whole = (minor / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("€{grouped}.{:02}", minor % 100)
}

/// The text of a PDF's pages.
fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).expect("its text")
}

#[test]
fn a_draft_is_made_filled_in_both_notations_previewed_and_issued() {
    let office = Office::new();
    let nordwind = customer(&office, "Nordwind KG");
    let mut person = office.signed_in("accountant@alpha.de");
    let list = person.get("/drafts");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("<title>Drafts · kontor</title>"));
    assert!(list.body.contains("href=\"/drafts\" aria-current=\"page\""));
    // A partner without a city (a supplier a bill named) is offered by
    // name and number alone, without empty parentheses.
    office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Holzhandel Meier KG",
        "--document-number",
        "HM-1",
        "--date",
        "2026-01-05",
        "--due",
        "2026-01-19",
        "--currency",
        "EUR",
        "--net",
        "10000",
        "--tax",
        "1900",
    ]);
    let n = nordwind["number"].as_str().unwrap();
    let new = person.get("/drafts/new");
    assert!(
        new.body
            .contains(&format!(">Nordwind KG ({n}, Berlin)</option>")),
        "{}",
        new.body
    );
    let found = person.get("/drafts/new?search=Holzhandel");
    assert!(!found.body.contains(", )"), "{}", found.body);

    let draft = new_draft(&mut person, &nordwind);
    // Typed in German, then in English: the same price both times.
    person.language = GERMAN;
    add_line(
        &mut person,
        &draft,
        &line("Beratung", "1,5", "HUR", "1.234,56", "19"),
    );
    person.language = ENGLISH;
    add_line(
        &mut person,
        &draft,
        &line("Licence", "2", "C62", "1,234.56", "7"),
    );
    let view = draft_view(&office, &draft);
    let lines = view["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["quantity"], "1.5");
    assert_eq!(lines[0]["unit"], "HUR");
    assert_eq!(lines[0]["unitPriceMinor"], 123_456);
    assert_eq!(lines[0]["taxes"][0]["rate"], "19");
    assert_eq!(lines[1]["quantity"], "2");
    assert_eq!(lines[1]["unitPriceMinor"], 123_456);
    assert_eq!(lines[1]["taxes"][0]["rate"], "7");

    // The page: the lines in the person's notation, the figures, the preview.
    let page = person.get(&format!("/drafts/{draft}"));
    assert_eq!(page.status, 200);
    assert!(page
        .body
        .contains("<title>Draft for Nordwind KG · kontor</title>"));
    assert!(page.body.contains("1.5") && page.body.contains("€1,234.56"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(
        csp.contains("object-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert!(!csp.contains("script-src"), "{csp}");
    let preview_path = format!("/drafts/{draft}/preview.pdf");
    assert!(page.body.contains(&format!(
        "<object class=\"preview\" data=\"{preview_path}\""
    )));
    // One link to the preview, not a second inside the embedded object.
    assert_eq!(
        page.body.matches("Open the preview (PDF)").count(),
        1,
        "{}",
        page.body
    );
    assert_eq!(
        page.body
            .matches(&format!("href=\"{preview_path}\""))
            .count(),
        1
    );
    let german = {
        person.language = GERMAN;
        let p = person.get(&format!("/drafts/{draft}"));
        person.language = ENGLISH;
        p
    };
    assert!(german.body.contains("1,5") && german.body.contains("1.234,56\u{a0}€"));

    // The preview: a PDF marked as a draft, without the number or any XML.
    let next = view["number"].as_str().unwrap().to_string();
    let pdf = person.get(&preview_path);
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(
        pdf.header("content-security-policy"),
        Some("frame-ancestors 'self'")
    );
    assert_eq!(pdf.header("x-frame-options"), Some("SAMEORIGIN"));
    assert!(pdf.raw.starts_with(b"%PDF-"));
    let text = pdf_text(&pdf.raw);
    assert!(text.contains("ENTWURF / DRAFT"), "{text}");
    assert!(text.contains("Rechnungsentwurf"), "{text}");
    assert!(
        text.contains("Nordwind KG") && text.contains("Beratung"),
        "{text}"
    );
    assert!(!text.contains(&next), "no invoice number: {text}");
    let bytes = String::from_utf8_lossy(&pdf.raw);
    assert!(
        !bytes.contains("factur-x.xml") && !bytes.contains("fx:DocumentType"),
        "a preview is no Factur-X"
    );
    assert_eq!(office.count("SELECT count(*) FROM invoice_documents"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM counters WHERE series <> 'customer'"),
        0
    );

    // The confirmation names the number the issue would take, and its figures.
    let confirm = person.get(&format!("/drafts/{draft}/issue"));
    assert_eq!(confirm.status, 200);
    assert!(confirm
        .body
        .contains("<title>Issue the invoice? · kontor</title>"));
    assert!(
        confirm
            .body
            .contains(&format!("id=\"next-number\">{next}<")),
        "{}",
        confirm.body
    );
    assert!(confirm.body.contains("This cannot be undone"));
    let issued = person.post(
        &format!("/drafts/{draft}/issue"),
        &[("csrf", &confirm.csrf()), ("deliveredOn", "")],
    );
    // Issued, the person lands on the invoice's page, which says so.
    issued.redirects_to(&format!("/invoices/{next}?done=issued"));
    let landed = person.get(&format!("/invoices/{next}?done=issued"));
    assert_eq!(landed.status, 200);
    assert!(
        landed.body.contains(&format!(
            "<p class=\"notice\" role=\"status\">The invoice is issued with the number {next}.</p>"
        )),
        "{}",
        landed.body
    );
    assert!(
        landed
            .body
            .contains(&format!("<title>Invoice {next} · kontor</title>")),
        "{}",
        landed.body
    );
    // The draft names its invoice and links it.
    let result = person.get(&format!("/drafts/{draft}"));
    assert!(result.body.contains(&format!(
        "This draft was issued as invoice <strong id=\"invoice-number\">{next}</strong>"
    )));
    assert!(result.body.contains(&format!("href=\"/invoices/{next}\"")));

    // The API shows the invoice with the figures the draft's page showed.
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/invoices/{next}"));
    assert_eq!(api.status, 200, "{:?}", api.body);
    assert_eq!(api.body["buyer"], "Nordwind KG");
    let minor = |field: &str| api.body[field]["minor"].as_i64().unwrap();
    // 1.5 × 1,234.56 = 1,851.84 at 19 %; 2 × 1,234.56 = 2,469.12 at 7 %.
    assert_eq!(minor("net"), 185_184 + 246_912);
    assert!(row(&page.body, "figure-net").contains(&euros(minor("net"))));
    assert!(row(&page.body, "figure-tax").contains(&euros(minor("tax"))));
    assert!(row(&page.body, "figure-gross").contains(&euros(minor("gross"))));
    assert!(row(&confirm.body, "figure-gross").contains(&euros(minor("gross"))));
    assert!(confirm.body.contains(&euros(minor("gross"))));
    // Its stored documents are the real ones, Factur-X with its XML.
    assert!(office.count("SELECT count(*) FROM invoice_documents WHERE format = 'facturx'") == 1);

    assert_eq!(
        people_audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "draft.created".into()),
            ("accountant@alpha.de".into(), "draft.line.added".into()),
            ("accountant@alpha.de".into(), "draft.line.added".into()),
            ("accountant@alpha.de".into(), "draft.issued".into()),
            ("accountant@alpha.de".into(), "invoice.issued".into()),
        ]
    );
    // Issued, the draft is read-only and out of the list of open drafts.
    assert!(!result.body.contains("Add line"));
    assert!(!person.get("/drafts").body.contains("Nordwind KG"));
    assert_eq!(person.get(&preview_path).status, 409);
    // An issued draft's lines and references are not changed any more.
    let form = line("Late", "1", "C62", "1.00", "19");
    for (to, form) in [
        (format!("/drafts/{draft}/lines"), form.clone()),
        (format!("/drafts/{draft}/lines/1"), form.clone()),
        (format!("/drafts/{draft}/lines/1/remove"), vec![]),
        (
            format!("/drafts/{draft}/references"),
            vec![("orderReference", "PO-9")],
        ),
    ] {
        let refused = person.act("/drafts", &to, &form);
        assert_eq!(refused.status, 409, "{to}: {}", refused.body);
    }
    // Issuing sent again (a second click) issues nothing more and leads to
    // the invoice; the draft names it.
    person
        .post(
            &format!("/drafts/{draft}/issue"),
            &[("csrf", &confirm.csrf()), ("deliveredOn", "")],
        )
        .redirects_to(&format!("/invoices/{next}"));
    assert!(person
        .get(&format!("/drafts/{draft}"))
        .body
        .contains(&format!(
            "This draft was issued as invoice <strong id=\"invoice-number\">{next}</strong>"
        )));
    assert_eq!(
        office.count(&format!(
            "SELECT count(*) FROM draft_lines WHERE draft_id = '{draft}' AND description <> 'Late'"
        )),
        2
    );
    assert_eq!(office.count("SELECT count(*) FROM draft_lines"), 2);
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 1);
    assert_eq!(people_audit(&office, &office.a).len(), 5);
}

#[test]
fn a_refused_line_keeps_what_was_typed_and_says_what_to_fix_beside_the_field() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let mut person = office.signed_in("owner@alpha.de");
    let draft = new_draft(&mut person, &kunde);
    person.language = GERMAN;
    // The English notation on a German page, and a quantity that is no number.
    let refused = person.act(
        &format!("/drafts/{draft}"),
        &format!("/drafts/{draft}/lines"),
        &line("Beratung", "zwei", "HUR", "12.50", "19"),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("Es wurde nichts gespeichert."));
    assert!(refused.body.contains("value=\"12.50\""));
    assert!(refused.body.contains("value=\"zwei\""));
    assert!(refused.body.contains("value=\"Beratung\""));
    let error = |body: &str, field: &str| -> String {
        let at = body
            .find(&format!("id=\"field-{field}-error\""))
            .unwrap_or_else(|| panic!("no error beside {field}: {body}"));
        let rest = &body[at..];
        rest[rest.find('>').unwrap() + 1..rest.find("</p>").unwrap()].to_string()
    };
    // Said in German, as the page is.
    assert!(
        error(&refused.body, "unitPrice")
            .contains("in deutschen Beträgen ist das Komma das Dezimaltrennzeichen"),
        "{}",
        refused.body
    );
    assert!(error(&refused.body, "quantity").contains("ist keine Zahl"));
    assert!(refused.body.contains("aria-invalid=\"true\""));
    // A zero rate without its category: a rule of the books, beside the rate.
    let zero = person.act(
        &format!("/drafts/{draft}"),
        &format!("/drafts/{draft}/lines"),
        &line("Export", "1", "C62", "100,00", "0"),
    );
    assert_eq!(zero.status, 409, "{}", zero.body);
    assert!(error(&zero.body, "taxRate").contains("braucht den Grund des Verkäufers"));
    assert!(zero.body.contains("value=\"100,00\""));
    // In English, the German decimal comma is refused likewise.
    person.language = ENGLISH;
    let comma = person.act(
        &format!("/drafts/{draft}"),
        &format!("/drafts/{draft}/lines"),
        &line("Advice", "1,5", "HUR", "12.50", "19"),
    );
    assert_eq!(comma.status, 400);
    assert!(error(&comma.body, "quantity")
        .contains("in English numbers the decimal separator is a point"));
    assert!(comma.body.contains("value=\"1,5\""));
    assert_eq!(office.count("SELECT count(*) FROM draft_lines"), 0);
    assert_eq!(
        people_audit(&office, &office.a),
        [("owner@alpha.de".into(), "draft.created".into())]
    );
}

#[test]
fn lines_are_changed_and_removed_and_references_set_as_draft_set_does() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let mut person = office.signed_in("accountant@alpha.de");
    let draft = new_draft(&mut person, &kunde);
    person.language = GERMAN;
    add_line(
        &mut person,
        &draft,
        &line("Eins", "1,5", "HUR", "10,00", "19"),
    );
    add_line(&mut person, &draft, &line("Zwei", "2", "C62", "20,00", "7"));
    add_line(
        &mut person,
        &draft,
        &line("Drei", "3", "C62", "30,00", "19"),
    );

    // The change form shows the stored line in the person's notation.
    let form = person.get(&format!("/drafts/{draft}/lines/1"));
    assert_eq!(form.status, 200);
    assert!(form.body.contains("value=\"1,5\"") && form.body.contains("value=\"10,00\""));
    assert!(form.body.contains("<option value=\"HUR\" selected"));
    let refused = person.post(
        &format!("/drafts/{draft}/lines/1"),
        &[
            ("csrf", &form.csrf()),
            ("description", ""),
            ("quantity", "2,5"),
            ("unit", "HUR"),
            ("unitPrice", "12,00"),
            ("taxRate", "19"),
        ],
    );
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("value=\"2,5\""));
    assert!(refused.body.contains("id=\"field-description-error\""));
    let changed = person.post(
        &format!("/drafts/{draft}/lines/1"),
        &[
            ("csrf", &form.csrf()),
            ("description", "Eins, länger"),
            ("quantity", "2,5"),
            ("unit", "HUR"),
            ("unitPrice", "12,00"),
            ("taxRate", "19"),
            ("vatCategory", ""),
        ],
    );
    changed.redirects_to(&format!("/drafts/{draft}?done=line-changed#lines"));
    person
        .act(
            &format!("/drafts/{draft}"),
            &format!("/drafts/{draft}/lines/2/remove"),
            &[],
        )
        .redirects_to(&format!("/drafts/{draft}?done=line-removed#lines"));
    let view = draft_view(&office, &draft);
    let lines = view["lines"].as_array().unwrap();
    let described: Vec<&str> = lines
        .iter()
        .map(|l| l["description"].as_str().unwrap())
        .collect();
    assert_eq!(described, ["Eins, länger", "Drei"]);
    assert_eq!(lines[0]["quantity"], "2.5");
    assert_eq!(lines[0]["unitPriceMinor"], 1_200);
    // A line the draft does not have is not found.
    assert_eq!(person.get(&format!("/drafts/{draft}/lines/3")).status, 404);
    assert_eq!(person.get(&format!("/drafts/{draft}/lines/0")).status, 404);
    let gone = person.act(
        &format!("/drafts/{draft}"),
        &format!("/drafts/{draft}/lines/7/remove"),
        &[],
    );
    assert_eq!(gone.status, 404);

    // References: set, refused with what was typed, cleared.
    let references = |person: &mut Browser, form: &[(&str, &str)]| {
        person.act(
            &format!("/drafts/{draft}"),
            &format!("/drafts/{draft}/references"),
            form,
        )
    };
    let backwards = references(
        &mut person,
        &[
            ("buyerReference", "04011000-1234512345-06"),
            ("orderReference", "PO-7"),
            ("periodFrom", "2026-02-28"),
            ("periodTo", "2026-02-01"),
        ],
    );
    assert_eq!(backwards.status, 400, "{}", backwards.body);
    assert!(backwards.body.contains("id=\"field-periodFrom-error\""));
    assert!(backwards.body.contains("value=\"PO-7\""));
    references(
        &mut person,
        &[
            ("buyerReference", "04011000-1234512345-06"),
            ("orderReference", "PO-7"),
            ("periodFrom", "2026-02-01"),
            ("periodTo", "2026-02-28"),
        ],
    )
    .redirects_to(&format!("/drafts/{draft}?done=references"));
    let view = draft_view(&office, &draft);
    assert_eq!(view["buyerReference"], "04011000-1234512345-06");
    assert_eq!(view["orderReference"], "PO-7");
    assert_eq!(
        view["period"],
        serde_json::json!({"from": "2026-02-01", "to": "2026-02-28"})
    );
    let half = references(
        &mut person,
        &[
            ("buyerReference", "04011000-1234512345-06"),
            ("orderReference", ""),
            ("periodFrom", ""),
            ("periodTo", "2026-02-28"),
        ],
    );
    assert_eq!(half.status, 400);
    assert!(half.body.contains("id=\"field-periodFrom-error\""));
    references(
        &mut person,
        &[
            ("buyerReference", ""),
            ("orderReference", ""),
            ("periodFrom", ""),
            ("periodTo", ""),
        ],
    )
    .redirects_to(&format!("/drafts/{draft}?done=references"));
    let view = draft_view(&office, &draft);
    assert!(view["orderReference"].is_null() && view["period"].is_null());

    let acts: Vec<String> = people_audit(&office, &office.a)
        .into_iter()
        .map(|(who, act)| {
            assert_eq!(who, "accountant@alpha.de");
            act
        })
        .collect();
    assert_eq!(
        acts,
        [
            "draft.created",
            "draft.line.added",
            "draft.line.added",
            "draft.line.added",
            "draft.line.changed",
            "draft.line.removed",
            "draft.references.set",
            "draft.references.set",
        ]
    );
}

#[test]
fn a_refusal_of_the_verdict_is_shown_on_the_confirmation_and_nothing_is_numbered() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let mut person = office.signed_in("owner@alpha.de");
    let draft = new_draft(&mut person, &kunde);
    // No tax decision on one line; reverse charge to a buyer without a VAT id on another.
    add_line(&mut person, &draft, &line("Open", "1", "C62", "100.00", ""));
    let mut reverse = line("Reverse", "1", "C62", "200.00", "");
    reverse[5] = ("vatCategory", "AE");
    reverse[6] = ("exemptionReason", "Reverse charge");
    add_line(&mut person, &draft, &reverse);
    let page = person.get(&format!("/drafts/{draft}"));
    assert!(page.body.contains("Issuing would refuse these lines"));
    assert!(page.body.contains("The preview appears once"));
    assert_eq!(
        person.get(&format!("/drafts/{draft}/preview.pdf")).status,
        409
    );
    let refused = person.act(
        &format!("/drafts/{draft}/issue"),
        &format!("/drafts/{draft}/issue"),
        &[("deliveredOn", "")],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("no number was taken"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("Line 1: (Open) has no tax decision"),
        "{}",
        refused.body
    );
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 0);

    // With the open line decided, the e-invoice rules speak: reverse charge needs the buyer's VAT id.
    let form = person.get(&format!("/drafts/{draft}/lines/1"));
    person
        .post(
            &format!("/drafts/{draft}/lines/1"),
            &[
                ("csrf", &form.csrf()),
                ("description", "Open"),
                ("quantity", "1"),
                ("unit", "C62"),
                ("unitPrice", "100.00"),
                ("taxRate", "19"),
            ],
        )
        .redirects_to(&format!("/drafts/{draft}?done=line-changed#lines"));
    let next = draft_view(&office, &draft)["number"]
        .as_str()
        .unwrap()
        .to_string();
    let refused = person.act(
        &format!("/drafts/{draft}/issue"),
        &format!("/drafts/{draft}/issue"),
        &[("deliveredOn", "")],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("BR-AE"), "{}", refused.body);
    assert!(refused
        .body
        .contains(&format!("id=\"next-number\">{next}<")));
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 0);
    assert_eq!(office.count("SELECT count(*) FROM events"), 0);
    assert_eq!(
        draft_view(&office, &draft)["number"],
        next.as_str(),
        "no number used"
    );
    assert!(!people_audit(&office, &office.a)
        .iter()
        .any(|(_, act)| act == "draft.issued"));
}

#[test]
fn a_viewer_sees_drafts_and_is_refused_every_act() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let draft = new_draft(&mut accountant, &kunde);
    add_line(
        &mut accountant,
        &draft,
        &line("Work", "1", "C62", "100.00", "19"),
    );
    let audit_before = people_audit(&office, &office.a);

    let mut viewer = office.signed_in("viewer@alpha.de");
    let list = viewer.get("/drafts");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("Kunde AG") && !list.body.contains("New draft"));
    let page = viewer.get(&format!("/drafts/{draft}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Work"));
    assert!(!page.body.contains("Add line") && !page.body.contains("Issue…"));
    assert!(!page.body.contains("/remove"));
    assert_eq!(
        viewer.get(&format!("/drafts/{draft}/preview.pdf")).status,
        200
    );
    for path in [
        "/drafts/new".to_string(),
        format!("/drafts/{draft}/issue"),
        format!("/drafts/{draft}/lines/1"),
    ] {
        let refused = viewer.get(&path);
        assert_eq!(refused.status, 403, "{path}");
        assert!(refused.body.contains("nothing was done"), "{path}");
    }
    let id = kunde["id"].as_str().unwrap();
    let work = line("Other", "1", "C62", "1.00", "19");
    for (to, form) in [
        ("/drafts".to_string(), vec![("customerId", id)]),
        (format!("/drafts/{draft}/lines"), work.clone()),
        (format!("/drafts/{draft}/lines/1"), work.clone()),
        (format!("/drafts/{draft}/lines/1/remove"), vec![]),
        (
            format!("/drafts/{draft}/references"),
            vec![("orderReference", "PO-1")],
        ),
        (format!("/drafts/{draft}/issue"), vec![("deliveredOn", "")]),
    ] {
        let refused = viewer.act("/drafts", &to, &form);
        assert_eq!(refused.status, 403, "{to}");
    }
    assert_eq!(office.count("SELECT count(*) FROM drafts"), 1);
    assert_eq!(office.count("SELECT count(*) FROM draft_lines"), 1);
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 0);
    assert_eq!(people_audit(&office, &office.a), audit_before);
}

#[test]
fn another_companys_draft_is_not_found() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let mut alpha = office.signed_in("owner@alpha.de");
    let draft = new_draft(&mut alpha, &kunde);
    add_line(
        &mut alpha,
        &draft,
        &line("Work", "1", "C62", "100.00", "19"),
    );

    let mut beta = office.signed_in("owner@beta.de");
    assert!(!beta.get("/drafts").body.contains("Kunde AG"));
    for path in [
        format!("/drafts/{draft}"),
        format!("/drafts/{draft}/preview.pdf"),
        format!("/drafts/{draft}/issue"),
        format!("/drafts/{draft}/lines/1"),
    ] {
        assert_eq!(beta.get(&path).status, 404, "{path}");
    }
    let id = kunde["id"].as_str().unwrap();
    let work = line("Other", "1", "C62", "1.00", "19");
    for (to, form) in [
        ("/drafts".to_string(), vec![("customerId", id)]),
        (format!("/drafts/{draft}/lines"), work.clone()),
        (format!("/drafts/{draft}/lines/1"), work.clone()),
        (format!("/drafts/{draft}/lines/1/remove"), vec![]),
        (
            format!("/drafts/{draft}/references"),
            vec![("orderReference", "PO-1")],
        ),
        (format!("/drafts/{draft}/issue"), vec![("deliveredOn", "")]),
    ] {
        assert_eq!(beta.act("/drafts", &to, &form).status, 404, "{to}");
    }
    assert_eq!(office.count("SELECT count(*) FROM drafts"), 1);
    assert_eq!(office.count("SELECT count(*) FROM draft_lines"), 1);
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 0);
    // Its test data is another environment: not found there either.
    let token = alpha.get("/dashboard").csrf();
    let switched = alpha.post(
        "/session/environment",
        &[("csrf", &token), ("environment", "test")],
    );
    assert_eq!(switched.status, 303);
    assert!(alpha.get("/dashboard").body.contains("Test data"));
    assert_eq!(alpha.get(&format!("/drafts/{draft}")).status, 404);
}

#[test]
fn the_list_of_drafts_is_paged_with_customer_total_and_day() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    for _ in 0..26 {
        office.api().draft(&office.key_a, &kunde);
    }
    let newest = office.api().draft(&office.key_a, &kunde);
    office.data.line(&newest, 10_000, "19", false);
    let mut person = office.signed_in("accountant@alpha.de");
    let first = person.get("/drafts");
    assert!(
        first.body.contains("Page 1 of 2 (27 drafts)"),
        "{}",
        first.body
    );
    assert!(first.body.contains("rel=\"next\""));
    assert!(
        first.body.contains("€119.00"),
        "the newest first, with its total"
    );
    let second = person.get("/drafts?page=1");
    assert!(second.body.contains("Page 2 of 2"));
    assert_eq!(second.body.matches("href=\"/drafts/drf_").count(), 2);
}

#[test]
fn an_agents_quote_is_listed_but_neither_previewed_nor_issued_as_an_invoice() {
    let office = Office::new();
    let kunde = customer(&office, "Kunde AG");
    let quote = office.api().tool(
        &office.key_a,
        "create_quote_draft",
        serde_json::json!({"customer_id": kunde["id"], "lines": [
            {"description": "Angebot", "quantity": "2.5", "unit_price_minor": 1000, "tax_rate_percent": "19"}
        ]}),
    );
    let id = quote["structuredContent"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut person = office.signed_in("owner@alpha.de");
    let list = person.get("/drafts");
    assert!(list.body.contains("Quote"), "{}", list.body);
    // 2.5 × €10.00 = €25.00, and 19 % VAT on it.
    assert!(list.body.contains("€29.75"), "{}", list.body);
    let page = person.get(&format!("/drafts/{id}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("A quote is not issued as an invoice."));
    assert!(!page.body.contains("Issue…") && !page.body.contains("<object"));
    assert_eq!(person.get(&format!("/drafts/{id}/preview.pdf")).status, 409);
    let refused = person.act(
        &format!("/drafts/{id}/issue"),
        &format!("/drafts/{id}/issue"),
        &[("deliveredOn", "")],
    );
    assert_eq!(refused.status, 409);
    assert!(refused.body.contains("A quote is not issued as an invoice"));
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 0);
}
