//! The key file that seals the SMTP passwords, unusable or missing: the
//! server starts and serves everything else; saving a password and sending
//! mail are refused with a sentence that names the key file.

use jiff::Timestamp;
use serde_json::json;

use crate::support::screens::{person, test_mail_line, Browser, PASSWORD};
use crate::support::{start_configured, Client, DataFile};

fn mail_settings(data: &DataFile, company: &str) {
    let file = data.path.with_file_name("pw.txt");
    std::fs::write(&file, "geheim\n").unwrap();
    data.ok(&[
        "company",
        "mail",
        "--company",
        company,
        "--host",
        "smtp.example.org",
        "--security",
        "starttls",
        "--from",
        "rechnung@schluessel.example",
        "--user",
        "rechnung",
        "--password-file",
        file.to_str().unwrap(),
    ]);
}

#[test]
fn an_unusable_key_file_refuses_mail_with_a_sentence_and_the_rest_serves() {
    let data = DataFile::new();
    let company = data.company("Schlüssel GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    person(&data, &company, "owner@schluessel.de", "owner");
    mail_settings(&data, &company);
    // The key file becomes unreadable: a folder where the file was.
    let key_file = kontor::store::sealed::key_path(&data.path);
    std::fs::rename(&key_file, data.path.with_file_name("saved.key")).unwrap();
    std::fs::create_dir(&key_file).unwrap();

    let server = start_configured(&data, &|_| {});
    let api = Client { addr: server.addr };
    assert_eq!(api.customer(&key, "Kunde")["name"], "Kunde");
    assert_eq!(api.get(&key, "/v1/customers").status, 200);

    let mut owner = Browser::at(server.addr);
    owner
        .login("owner@schluessel.de", PASSWORD)
        .redirects_to("/dashboard");
    let form = owner.get("/settings/mail");
    assert_eq!(form.status, 200);
    let refused = owner.post(
        "/settings/mail",
        &[
            ("csrf", &form.csrf()),
            ("security", "starttls"),
            ("host", "smtp.example.org"),
            ("from", "rechnung@schluessel.example"),
            ("user", "neu"),
            ("password", "neues-geheimnis"),
            ("pdfWithXml", "yes"),
        ],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("kontor.db.key") && refused.body.contains("cannot be used"),
        "{}",
        refused.body
    );
    assert!(!refused.body.contains("neues-geheimnis"));
    // A test mail through the stored settings: refused when sent, with the sentence.
    let form = owner.get("/settings/mail");
    let queued = owner.post("/settings/mail/test", &[("csrf", &form.csrf()), ("to", "")]);
    assert_eq!(queued.status, 303);
    server.send_due_mail(Timestamp::now()).unwrap();
    let line = test_mail_line(&mut owner);
    assert!(
        line.contains("kontor.db.key") && line.contains("cannot be used"),
        "{line}"
    );
    server.stop();

    // Missing altogether: a new key is made, and the stored password cannot
    // be opened with it: said so, and the rest serves.
    std::fs::remove_dir(&key_file).unwrap();
    let server = start_configured(&data, &|_| {});
    let api = Client { addr: server.addr };
    assert_eq!(
        api.post(
            &key,
            "/v1/customers",
            "k-2",
            &json!({"name": "Zwei", "street": "Kai 1", "postalCode": "20457", "city": "Hamburg"})
        )
        .status,
        201
    );
    let mut owner = Browser::at(server.addr);
    owner
        .login("owner@schluessel.de", PASSWORD)
        .redirects_to("/dashboard");
    // The test mail's next attempt, a minute on.
    let later = Timestamp::now() + jiff::SignedDuration::from_secs(120);
    assert_eq!(server.send_due_mail(later).unwrap(), 1);
    let line = test_mail_line(&mut owner);
    assert!(
        line.contains("cannot be opened with the key file"),
        "{line}"
    );
    server.stop();
}
