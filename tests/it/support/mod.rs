//! Test support: a fresh temporary data file, the console run as a real
//! process, the server started in-process on port 0, and a small HTTP client;
//! `screens` holds the browser and the office the screens' tests use;
//! `extf` reads DATEV EXTF files back, built from the published column lists;
//! `trial` reads a trial balance back by ledger account;
//! the servers a test talks to: `receiver` (webhooks), `smtp_server` (a
//! real aiosmtpd), `dovecot` (a real IMAP server), `vies_stand_in` (the EU VAT register); and
//! `einvoice_figures`, a received e-invoice's figures read with XPath alone.

pub mod dovecot;
pub mod einvoice_figures;
pub mod extf;
pub mod fill;
pub mod receiver;
pub mod screens;
pub mod small_disk;
pub mod smtp_server;
pub mod statements;
pub mod trial;
pub mod vies_stand_in;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;

use kontor::http::server::{Config, Server};
use serde_json::{json, Value};

/// A fresh data file in a temporary directory, removed at the end.
pub struct DataFile {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl DataFile {
    pub fn new() -> DataFile {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("kontor.db");
        DataFile { _dir: dir, path }
    }

    /// A data file named `name` in `dir`, removed with it at the end.
    pub fn in_dir(dir: tempfile::TempDir, name: &str) -> DataFile {
        let path = dir.path().join(name);
        DataFile { _dir: dir, path }
    }

    /// Runs `kontor <args> --data <file>` and returns exit success, stdout JSON and stderr.
    pub fn console(&self, args: &[&str]) -> (bool, Value, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_kontor"))
            .args(args)
            .arg("--data")
            .arg(&self.path)
            .output()
            .expect("run kontor");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        (
            out.status.success(),
            json,
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    }

    /// Like `console`, but the command must succeed; returns its JSON.
    pub fn ok(&self, args: &[&str]) -> Value {
        let (ok, json, stderr) = self.console(args);
        assert!(ok, "kontor {args:?} failed: {stderr}");
        json
    }

    /// Adds a line of one unit at `price` minor units and `rate` % of the
    /// country's tax to a draft (of the sandbox when `sandbox`).
    pub fn line(&self, draft: &str, price: i64, rate: &str, sandbox: bool) {
        let price = price.to_string();
        let mut args = vec![
            "draft",
            "line",
            draft,
            "--description",
            "Arbeit",
            "--quantity",
            "1",
        ];
        args.extend(["--unit-price", &price, "--tax-rate", rate]);
        if sandbox {
            args.push("--sandbox");
        }
        self.ok(&args);
    }

    /// A German company with the particulars an invoice needs (§14 UStG,
    /// EN 16931 and XRechnung's seller rules).
    pub fn company(&self, name: &str, plan: &str) -> String {
        let c = self.ok(&[
            "company",
            "create",
            "--name",
            name,
            "--country",
            "DE",
            "--currency",
            "EUR",
            "--plan",
            plan,
        ]
        .into_iter()
        .chain(SELLER.iter().copied())
        .collect::<Vec<_>>());
        c["id"].as_str().unwrap().to_string()
    }

    pub fn key(&self, company: &str, environment: &str, scopes: &str) -> String {
        let k = self.ok(&[
            "key",
            "create",
            "--company",
            company,
            "--name",
            "test key",
            "--environment",
            environment,
            "--scopes",
            scopes,
        ]);
        k["secret"].as_str().unwrap().to_string()
    }
}

/// An Enterprise company with a live and a test key holding every scope, and a server.
pub struct World {
    pub data: DataFile,
    pub server: Server,
    pub company: String,
    pub live: String,
    pub test: String,
}

impl World {
    pub fn new() -> World {
        World::configured(|_| {})
    }

    /// A world whose server allows loopback webhooks; `deliver` runs the
    /// background worker (else tests drive deliveries with `deliver_due`).
    pub fn webhooks(deliver: bool) -> World {
        World::configured(|c| {
            c.webhook_allow_loopback = true;
            c.deliver = deliver;
        })
    }

    pub fn configured(adjust: impl Fn(&mut Config)) -> World {
        let data = DataFile::new();
        let company = data.company("Erste GmbH", "ENTERPRISE");
        let live = data.key(&company, "production", "all");
        let test = data.key(&company, "sandbox", "all");
        let server = start_configured(&data, &adjust);
        World {
            data,
            server,
            company,
            live,
            test,
        }
    }

    pub fn client(&self) -> Client {
        Client {
            addr: self.server.addr,
        }
    }
}

pub fn start(data: &DataFile) -> Server {
    start_configured(data, &|_| {})
}

pub fn start_configured(data: &DataFile, adjust: &dyn Fn(&mut Config)) -> Server {
    let mut config = Config::new(&data.path, "127.0.0.1:0".parse().unwrap());
    config.log_requests = false;
    config.deliver = false;
    // Tests send due mail by hand and ask no VAT register but their own.
    config.mail = false;
    config.vat_register = kontor::outbox::vat_register::Service::Off;
    // The tests' SMTP servers listen on loopback, which the operator allows.
    config.mail_allow = kontor::outbox::mail::reach::MailAllow::parse(&["127.0.0.1"]).unwrap();
    adjust(&mut config);
    Server::start(config).expect("server starts")
}

/// An answer: status, the headers we look at, and the JSON body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// The body read as JSON (null when it is not JSON).
    pub body: Value,
    /// The body's bytes.
    pub raw: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    /// Asserts a refusal's status and code, and that the body is exactly `{fehler, code}`
    /// (plus `wartesekunden` on 429).
    #[track_caller]
    pub fn refused(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.code()),
            (status, code),
            "answer: {:?}",
            self.body
        );
        assert!(self.body["fehler"].as_str().is_some_and(|s| !s.is_empty()));
        let keys = self.body.as_object().unwrap().len();
        assert_eq!(
            keys,
            if status == 429 { 3 } else { 2 },
            "body: {}",
            self.body
        );
    }
}

#[derive(Clone, Copy)]
pub struct Client {
    pub addr: SocketAddr,
}

impl Client {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Sends a request with the given headers and raw body.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Answer {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .allow_non_standard_methods(true)
            .build()
            .into();
        let mut builder = ureq::http::Request::builder()
            .method(method)
            .uri(self.url(path));
        for (n, v) in headers {
            builder = builder.header(*n, *v);
        }
        let result = match body {
            Some(b) => agent.run(builder.body(b.to_vec()).unwrap()),
            None => agent.run(builder.body(()).unwrap()),
        };
        let mut response = result.expect("request sent");
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let raw = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap_or_default();
        let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            body,
            raw,
        }
    }

    pub fn get(&self, key: &str, path: &str) -> Answer {
        let auth = format!("Bearer {key}");
        self.send("GET", path, &[("Authorization", &auth)], None)
    }

    pub fn post(&self, key: &str, path: &str, idempotency_key: &str, body: &Value) -> Answer {
        let auth = format!("Bearer {key}");
        let bytes = serde_json::to_vec(body).unwrap();
        self.send(
            "POST",
            path,
            &[
                ("Authorization", &auth),
                ("Idempotency-Key", idempotency_key),
                ("Content-Type", "application/json"),
            ],
            Some(&bytes),
        )
    }

    /// Like `post`, but a 503 (the company's share of connections was full
    /// for 100 ms: nothing was done) is sent again, as a client following
    /// `Retry-After` would, at most 50 times.
    pub fn post_until_served(
        &self,
        key: &str,
        path: &str,
        idempotency_key: &str,
        body: &Value,
    ) -> Answer {
        for _ in 0..50 {
            let answer = self.post(key, path, idempotency_key, body);
            if answer.status != 503 {
                return answer;
            }
            assert_eq!(answer.code(), "AUSGELASTET", "{:?}", answer.body);
            assert_eq!(answer.header("Retry-After"), Some("1"));
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("still busy after 50 tries");
    }

    pub fn patch(&self, key: &str, path: &str, body: &Value) -> Answer {
        let auth = format!("Bearer {key}");
        let bytes = serde_json::to_vec(body).unwrap();
        self.send(
            "PATCH",
            path,
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            Some(&bytes),
        )
    }

    /// A draft for `customer` through the API; returns its id.
    pub fn draft(&self, key: &str, customer: &Value) -> String {
        let a = self.post(
            key,
            "/v1/invoices/drafts",
            &unique(),
            &json!({"customerId": customer["id"]}),
        );
        assert_eq!(a.status, 201, "{:?}", a.body);
        a.body["id"].as_str().unwrap().to_string()
    }

    /// Creates a customer and returns it.
    pub fn customer(&self, key: &str, name: &str) -> Value {
        let a = self.post(
            key,
            "/v1/customers",
            &unique(),
            &json!({
                "name": name, "street": "Hauptstraße 1", "postalCode": "10115", "city": "Berlin"
            }),
        );
        assert_eq!(a.status, 201, "{:?}", a.body);
        a.body
    }

    /// Creates a transaction and returns it.
    pub fn transaction(&self, key: &str, body: Value) -> Value {
        let a = self.post(key, "/v1/transactions", &unique(), &body);
        assert_eq!(a.status, 201, "{:?}", a.body);
        a.body
    }
}

/// A fresh Idempotency-Key.
pub fn unique() -> String {
    kontor::store::ids::new_id("idem")
}

impl Client {
    /// Calls an agent tool (revision 2025-11-25) and returns the JSON-RPC result.
    pub fn tool(&self, key: &str, tool: &str, arguments: Value) -> Value {
        let auth = format!("Bearer {key}");
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        let bytes = serde_json::to_vec(&body).unwrap();
        let a = self.send(
            "POST",
            "/mcp",
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
            Some(&bytes),
        );
        assert_eq!(a.status, 200, "{:?}", a.body);
        a.body["result"].clone()
    }

    /// Calls an agent tool that must refuse; returns its `{code, fehler}`.
    #[track_caller]
    pub fn tool_refusal(&self, key: &str, tool: &str, arguments: Value) -> Value {
        let result = self.tool(key, tool, arguments);
        assert_eq!(result["isError"], json!(true), "{result}");
        result["structuredContent"].clone()
    }
}

/// The seller's particulars of the test companies (`company create` flags).
pub const SELLER: &[&str] = &[
    "--legal-name",
    "Test Handel GmbH",
    "--street",
    "Hafenstraße 1",
    "--postal-code",
    "20457",
    "--city",
    "Hamburg",
    "--vat-id",
    "DE136695976",
    "--tax-number",
    "22/815/08154",
    "--registration",
    "HRB 12345, Amtsgericht Hamburg",
    "--managing-directors",
    "Erika Muster",
    "--contact-name",
    "Erika Muster",
    "--contact-phone",
    "+49 40 1234567",
    "--contact-email",
    "buchhaltung@test-handel.example",
    "--electronic-address",
    "9930:DE136695976",
    "--iban",
    "DE02120300000000202051",
    "--bic",
    "BYLADEM1001",
];
