//! kontor behind a real TLS proxy: Debian's Caddy with its internal CA in
//! front (installed by tests/ops/install.sh), kontor serving with
//! `--public-url https://localhost:PORT --trusted-proxy 127.0.0.1`. Through
//! it over HTTPS: the screens sign in with Secure cookies and
//! Strict-Transport-Security; the client's address is the one Caddy states,
//! never one a client writes into X-Forwarded-For itself (the lockout of
//! failed sign-ins counts them as one address); the agent server takes the
//! public URL's Origin and refuses another; the API answers.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::screens::{Browser, Office, PASSWORD};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Caddy {
    child: Child,
    root: PathBuf,
}

impl Caddy {
    /// Caddy on `https_port` with its internal CA, passing to `upstream`.
    fn start(dir: &Path, https_port: u16, upstream: SocketAddr) -> Caddy {
        let storage = dir.join("caddy");
        let caddyfile = dir.join("Caddyfile");
        std::fs::write(
            &caddyfile,
            format!(
                "{{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port {}\n\thttps_port {https_port}\n\tstorage file_system {}\n}}\n\nlocalhost:{https_port} {{\n\ttls internal\n\treverse_proxy {upstream}\n}}\n",
                free_port(),
                storage.display()
            ),
        )
        .unwrap();
        let child = Command::new("caddy")
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(&caddyfile)
            .env("HOME", dir)
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("caddy (tests/ops/install.sh installs it)");
        let root = storage.join("pki/authorities/local/root.crt");
        let deadline = Instant::now() + Duration::from_secs(30);
        while !(root.exists() && TcpStream::connect(("127.0.0.1", https_port)).is_ok()) {
            assert!(Instant::now() < deadline, "caddy did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Caddy { child, root }
    }
}

impl Drop for Caddy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_screens_and_the_api_work_through_caddy_over_https() {
    let dir = tempfile::tempdir().unwrap();
    let https_port = free_port();
    let public = format!("https://localhost:{https_port}");
    let office = Office::configured(|c| {
        c.public_urls = vec![public.clone()];
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    });
    let caddy = Caddy::start(dir.path(), https_port, office.server.addr);
    let root = std::fs::read(&caddy.root).unwrap();
    let browser = || {
        let mut b = Browser::at(office.server.addr);
        b.through = Some((public.clone(), root.clone()));
        b.origin = Some(public.clone());
        b
    };

    // The screens: Secure cookies, HSTS, a sign-in through the proxy.
    let mut owner = browser();
    let login = owner.get("/login");
    assert_eq!(login.status, 200);
    assert_eq!(
        login.header("strict-transport-security"),
        Some("max-age=31536000")
    );
    assert!(
        login.cookies_set().iter().all(|c| c.contains("Secure")),
        "{:?}",
        login.cookies_set()
    );
    owner
        .login("owner@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
    let dashboard = owner.get("/dashboard");
    assert_eq!(dashboard.status, 200);
    assert!(dashboard.body.contains("Alpha GmbH"));

    // A client writing its own X-Forwarded-For: Caddy states the real
    // address, so five failures under five made-up addresses are five
    // failures of one client, which then waits, whatever it claims.
    let mut guesser = browser();
    for i in 1..=5 {
        guesser.forwarded_for = Some(format!("203.0.113.{i}"));
        let failed = guesser.login("accountant@alpha.de", "wrong password");
        assert_eq!(failed.status, 401, "{}", failed.body);
    }
    guesser.forwarded_for = Some("198.51.100.7".into());
    let waits = guesser.login("accountant@alpha.de", PASSWORD);
    assert!(
        waits.body.contains("Too many failed sign-ins"),
        "{} {}",
        waits.status,
        waits.body
    );

    // The agent server: the public URL's Origin is taken, another refused.
    let mcp = |origin: &str| {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .tls_config(
                ureq::tls::TlsConfig::builder()
                    .root_certs(ureq::tls::RootCerts::new_with_certs(&[
                        ureq::tls::Certificate::from_pem(&root).unwrap(),
                    ]))
                    .build(),
            )
            .build()
            .into();
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let mut answer = agent
            .post(format!("{public}/mcp"))
            .header("Authorization", format!("Bearer {}", office.key_a))
            .header("Origin", origin)
            .header("MCP-Protocol-Version", "2025-11-25")
            .header("Accept", "application/json, text/event-stream")
            .send_json(&body)
            .unwrap();
        let status = answer.status().as_u16();
        let hsts = answer.headers().get("strict-transport-security").is_some();
        let text = answer.body_mut().read_to_string().unwrap_or_default();
        (status, hsts, text)
    };
    let (status, hsts, text) = mcp(&public);
    assert_eq!(status, 200, "{text}");
    assert!(hsts);
    assert!(text.contains("create_transaction"), "{text}");
    let (status, _, text) = mcp("https://evil.example");
    assert_eq!(status, 403, "{text}");

    // The API over the proxy.
    let mut api = browser();
    api.origin = None;
    let me = api.get("/v1/me");
    assert_eq!(me.status, 401, "no key, no answer: {}", me.body);
    println!(
        "caddy {}: screens signed in over https with Secure cookies and HSTS; spoofed X-Forwarded-For ignored; agent Origin {public} taken, another refused",
        String::from_utf8_lossy(&Command::new("caddy").arg("version").output().unwrap().stdout).trim()
    );
}
