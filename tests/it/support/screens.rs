//! The screens as a browser uses them, for the tests of the screens: a
//! browser keeping its cookies and not following redirects (`Browser`), the
//! page it got (`Page`), and an office of two companies with their people
//! and a server (`Office`), with the console and audit reads those tests share.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use kontor::http::server::{Config, Server};
use rusqlite::Connection;
use serde_json::Value;

use crate::support::{start_configured, Client, DataFile};

pub(crate) const PASSWORD: &str = "correct horse battery";

/// A page as the browser got it.
#[derive(Debug)]
pub(crate) struct Page {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
    /// The body's bytes (a downloaded document, a PDF).
    pub(crate) raw: Vec<u8>,
}

impl Page {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn cookies_set(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The form token of the page.
    pub(crate) fn csrf(&self) -> String {
        let at = self
            .body
            .find("name=\"csrf\" value=\"")
            .unwrap_or_else(|| panic!("no form token in {}", self.body));
        let rest = &self.body[at + "name=\"csrf\" value=\"".len()..];
        rest[..rest.find('"').unwrap()].to_string()
    }

    #[track_caller]
    pub(crate) fn redirects_to(&self, location: &str) {
        assert_eq!(self.status, 303, "{}", self.body);
        assert_eq!(self.header("location"), Some(location));
    }
}

/// The `Accept-Language` of a browser set to German, and to English.
pub const GERMAN: &str = "de-DE,de;q=0.9";
pub const ENGLISH: &str = "en-GB,en;q=0.9";

/// A browser: a cookie jar, a language, the headers a browser sends.
pub(crate) struct Browser {
    addr: std::net::SocketAddr,
    pub(crate) cookies: BTreeMap<String, String>,
    pub(crate) language: &'static str,
    pub(crate) origin: Option<String>,
    pub(crate) forwarded_for: Option<String>,
    /// Where requests go instead of `http://addr` (a proxy's
    /// `https://localhost:port`), with the PEM root certificate to trust.
    pub(crate) through: Option<(String, Vec<u8>)>,
}

impl Browser {
    fn new(server: &Server) -> Browser {
        Browser::at(server.addr)
    }

    /// A browser of the server at `addr` (one running in another process).
    pub(crate) fn at(addr: std::net::SocketAddr) -> Browser {
        Browser {
            addr,
            cookies: BTreeMap::new(),
            language: ENGLISH,
            origin: None,
            forwarded_for: None,
            through: None,
        }
    }

    fn send(&mut self, method: &str, path: &str, form: Option<&[(&str, &str)]>) -> Page {
        let body = form.map(|form| {
            let pairs: Vec<String> = form
                .iter()
                .map(|(n, v)| format!("{}={}", encode(n), encode(v)))
                .collect();
            (
                "application/x-www-form-urlencoded".to_string(),
                pairs.join("&").into_bytes(),
            )
        });
        self.send_body(method, path, body)
    }

    /// Posts a multipart form of `fields` and `files` (name, bytes) under
    /// the field name `files`, as a browser uploads them.
    pub(crate) fn upload(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        files: &[(&str, &[u8])],
    ) -> Page {
        let boundary = "kontorTestBoundary7MA4YWxkTrZu0gW";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
        }
        for (file_name, bytes) in files {
            body.extend(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes());
            body.extend_from_slice(bytes);
            body.extend(b"\r\n");
        }
        body.extend(format!("--{boundary}--\r\n").as_bytes());
        self.send_body(
            "POST",
            path,
            Some((format!("multipart/form-data; boundary={boundary}"), body)),
        )
    }

    fn send_body(&mut self, method: &str, path: &str, body: Option<(String, Vec<u8>)>) -> Page {
        let mut config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0);
        let base = match &self.through {
            Some((base, root)) => {
                let root = ureq::tls::Certificate::from_pem(root).expect("a PEM certificate");
                config = config.tls_config(
                    ureq::tls::TlsConfig::builder()
                        .root_certs(ureq::tls::RootCerts::new_with_certs(&[root]))
                        .build(),
                );
                base.clone()
            }
            None => format!("http://{}", self.addr),
        };
        let agent: ureq::Agent = config.build().into();
        let mut builder = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{base}{path}"))
            .header("Accept-Language", self.language);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            builder = builder.header("Cookie", jar.join("; "));
        }
        if let Some(origin) = &self.origin {
            builder = builder.header("Origin", origin);
        }
        if let Some(forwarded) = &self.forwarded_for {
            builder = builder.header("X-Forwarded-For", forwarded);
        }
        let result = match body {
            Some((content_type, body)) => agent.run(
                builder
                    .header("Content-Type", content_type)
                    .body(body)
                    .unwrap(),
            ),
            None => agent.run(builder.body(()).unwrap()),
        };
        let mut response = result.expect("request sent");
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let raw = response.body_mut().read_to_vec().unwrap_or_default();
        let page = Page {
            status: response.status().as_u16(),
            body: String::from_utf8_lossy(&raw).into_owned(),
            raw,
            headers,
        };
        for set in page.cookies_set() {
            let pair = set.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || set.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        page
    }

    pub(crate) fn get(&mut self, path: &str) -> Page {
        self.send("GET", path, None)
    }

    pub(crate) fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        self.send("POST", path, Some(form))
    }

    /// Opens the sign-in page and signs in.
    pub(crate) fn login(&mut self, email: &str, password: &str) -> Page {
        let token = self.get("/login").csrf();
        self.post(
            "/login",
            &[("csrf", &token), ("email", email), ("password", password)],
        )
    }

    /// Posts a form of `page_path` with that page's token.
    pub(crate) fn act(&mut self, page_path: &str, to: &str, form: &[(&str, &str)]) -> Page {
        let token = self.get(page_path).csrf();
        let mut fields = vec![("csrf", token.as_str())];
        fields.extend_from_slice(form);
        self.post(to, &fields)
    }

    pub(crate) fn session(&self) -> Option<String> {
        self.cookies.get("kontor_session").cloned()
    }
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Runs the console with `stdin` on its standard input; the command must succeed.
pub(crate) fn console_with_stdin(data: &DataFile, args: &[&str], stdin: &str) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(args)
        .arg("--data")
        .arg(&data.path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "kontor {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A person added to a company by the console.
pub(crate) fn person(data: &DataFile, company: &str, email: &str, role: &str) -> Value {
    console_with_stdin(
        data,
        &[
            "user",
            "create",
            "--company",
            company,
            "--email",
            email,
            "--name",
            email.split('@').next().unwrap(),
            "--role",
            role,
            "--password-stdin",
        ],
        &format!("{PASSWORD}\n"),
    )
}

/// Two companies, A with an owner, an accountant and a viewer, B with its
/// owner; a server.
pub(crate) struct Office {
    pub(crate) data: DataFile,
    pub(crate) server: Server,
    pub(crate) a: String,
    pub(crate) b: String,
    pub(crate) key_a: String,
}

impl Office {
    pub(crate) fn new() -> Office {
        Office::configured(|_| {})
    }

    pub(crate) fn configured(adjust: impl Fn(&mut Config)) -> Office {
        let data = DataFile::new();
        let a = data.company("Alpha GmbH", "ENTERPRISE");
        let b = data.company("Beta GmbH", "ENTERPRISE");
        person(&data, &a, "owner@alpha.de", "owner");
        person(&data, &a, "accountant@alpha.de", "accountant");
        person(&data, &a, "viewer@alpha.de", "viewer");
        person(&data, &b, "owner@beta.de", "owner");
        let key_a = data.key(&a, "production", "all");
        let server = start_configured(&data, &adjust);
        Office {
            data,
            server,
            a,
            b,
            key_a,
        }
    }

    pub(crate) fn browser(&self) -> Browser {
        Browser::new(&self.server)
    }

    pub(crate) fn signed_in(&self, email: &str) -> Browser {
        let mut browser = self.browser();
        browser.login(email, PASSWORD).redirects_to("/dashboard");
        browser
    }

    pub(crate) fn db(&self) -> Connection {
        Connection::open(&self.data.path).unwrap()
    }

    pub(crate) fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).unwrap()
    }

    pub(crate) fn api(&self) -> Client {
        Client {
            addr: self.server.addr,
        }
    }
}

/// The audit rows that people of company `company` wrote, as (actor, act),
/// oldest first (the console's rows name the system or `--as`).
pub(crate) fn people_audit(office: &Office, company: &str) -> Vec<(String, String)> {
    office
        .db()
        .prepare("SELECT actor, act FROM audit WHERE company_id = ?1 AND user_id IS NOT NULL ORDER BY seq")
        .unwrap()
        .query_map([company], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

impl Page {
    #[track_caller]
    pub(crate) fn redirects_to_prefix(&self, prefix: &str) -> String {
        assert_eq!(self.status, 303, "{}", self.body);
        let location = self.header("location").unwrap().to_string();
        assert!(location.starts_with(prefix), "{location}");
        location
    }
}

/// Issues an invoice of `net` minor units at 19 % for a new customer of
/// `company`, dated `on` (so due 14 days later); returns its number.
pub(crate) fn invoice(office: &Office, company: &str, name: &str, net: i64, on: &str) -> String {
    let key = office.data.key(company, "production", "all");
    let customer = office.api().customer(&key, name);
    let draft = office.api().draft(&key, &customer);
    office.data.line(&draft, net, "19", false);
    let issued = office.data.ok(&["draft", "issue", &draft, "--on", on]);
    issued["number"].as_str().unwrap().to_string()
}

/// The last test mail's line on the mail settings page: its state and, when
/// it failed, the reason.
pub(crate) fn test_mail_line(browser: &mut Browser) -> String {
    let page = browser.get("/settings/mail");
    let start = page
        .body
        .find("id=\"test-state\"")
        .expect("the page shows the test mail");
    let end = page.body[start..].find("</p>").unwrap() + start;
    page.body[start..end].to_string()
}
