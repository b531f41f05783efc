//! Where mail may go: an SMTP host on a loopback, private, link-local
//! (the cloud's metadata address) or unique-local address is refused when
//! the settings are saved, on the screen and on the console, unless the
//! operator allows it; a name that resolves to one is refused when the mail
//! is sent; and a remote that does not speak SMTP has its answer kept out
//! of the send log.

use std::io::{Read, Write};
use std::net::TcpListener;

use jiff::Timestamp;
use kontor::outbox::mail::reach::MailAllow;

use crate::support::screens::{test_mail_line, Office};
use crate::support::smtp_server::{Security, SmtpServer};

const REFUSED: &str = "mail goes only to servers on public addresses";

fn settings_rows(office: &Office) -> i64 {
    office.count("SELECT count(*) FROM mail_settings")
}

#[test]
fn a_host_on_a_special_address_is_refused_on_the_screen_and_the_console_unless_allowed() {
    let office = Office::configured(|c| c.mail_allow = MailAllow::none());
    let mut owner = office.signed_in("owner@alpha.de");
    for (host, port, kind) in [
        ("127.0.0.1", "22", "loopback"),
        ("localhost", "25", "loopback"),
        ("169.254.169.254", "80", "link-local"),
        ("10.1.2.3", "587", "private"),
        ("[fd00::25]", "587", "unique-local"),
    ] {
        let form = owner.get("/settings/mail");
        let refused = owner.post(
            "/settings/mail",
            &[
                ("csrf", &form.csrf()),
                ("security", "starttls"),
                ("host", host),
                ("port", port),
                ("from", "rechnung@alpha.example"),
                ("pdfWithXml", "yes"),
            ],
        );
        assert_eq!(refused.status, 400, "{host}: {}", refused.body);
        assert!(
            refused.body.contains(REFUSED) && refused.body.contains(kind),
            "{host}: {}",
            refused.body
        );
    }
    assert_eq!(settings_rows(&office), 0, "nothing refused is stored");

    let mail = |host: &str, allow: Option<&str>| {
        let mut args = vec![
            "company",
            "mail",
            "--company",
            office.a.as_str(),
            "--host",
            host,
            "--security",
            "starttls",
            "--from",
            "rechnung@alpha.example",
        ];
        if let Some(a) = allow {
            args.extend(["--mail-allow", a]);
        }
        office.data.console(&args)
    };
    let (ok, _, said) = mail("10.0.0.5", None);
    assert!(!ok);
    assert!(said.contains(REFUSED) && said.contains("private"), "{said}");
    assert_eq!(settings_rows(&office), 0);
    let (ok, _, said) = mail("10.0.0.5", Some("10.0.0.0/8"));
    assert!(ok, "{said}");
    // A public host needs no allowance.
    let (ok, _, said) = mail("smtp.example.org", None);
    assert!(ok, "{said}");
    assert_eq!(settings_rows(&office), 1);
}

#[test]
fn a_name_resolving_to_loopback_is_refused_when_the_mail_is_sent() {
    let smtp = SmtpServer::start(Security::None, false);
    let office = Office::configured(|c| c.mail_allow = MailAllow::none());
    // The console (whoever runs kontor) allowed loopback for the settings;
    // the server was started without it.
    let port = smtp.port.to_string();
    office.data.ok(&[
        "company",
        "mail",
        "--company",
        &office.a,
        "--host",
        "localhost",
        "--mail-allow",
        "127.0.0.0/8",
        "--mail-allow",
        "::1",
        "--port",
        &port,
        "--security",
        "none",
        "--from",
        "rechnung@alpha.example",
        "--test-to",
        "owner@alpha.example",
    ]);
    assert_eq!(office.server.send_due_mail(Timestamp::now()).unwrap(), 1);
    let line = test_mail_line(&mut office.signed_in("owner@alpha.de"));
    assert!(
        line.contains("failed") && line.contains("localhost resolves to") && line.contains(REFUSED),
        "{line}"
    );
    assert!(smtp.taken().is_empty(), "nothing reached the server");
}

#[test]
fn a_remote_that_does_not_speak_smtp_is_not_quoted_in_the_send_log() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let remote = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream
            .write_all(
                b"HTTP/1.1 400 Bad Request\r\nServer: instance-metadata-7f3a\r\n\
                  Content-Length: 21\r\n\r\niam/security-creds/x\n",
            )
            .unwrap();
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest);
    });
    // The operator allows the loopback address: the worker reaches it.
    let office = Office::configured(|c| c.mail_allow = MailAllow::parse(&["127.0.0.1"]).unwrap());
    let data = &office.data;
    let port = port.to_string();
    data.ok(&[
        "company",
        "mail",
        "--company",
        &office.a,
        "--host",
        "127.0.0.1",
        "--mail-allow",
        "127.0.0.1",
        "--port",
        &port,
        "--security",
        "none",
        "--from",
        "rechnung@alpha.example",
        "--test-to",
        "owner@alpha.example",
    ]);
    assert_eq!(office.server.send_due_mail(Timestamp::now()).unwrap(), 1);
    remote.join().unwrap();
    let line = test_mail_line(&mut office.signed_in("owner@alpha.de"));
    assert!(line.contains("no SMTP reply"), "{line}");
    for secret in ["instance-metadata", "security-creds", "HTTP/1.1", "400 Bad"] {
        assert!(!line.contains(secret), "{secret} in {line}");
    }
}
