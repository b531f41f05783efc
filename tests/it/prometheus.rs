//! A real Prometheus (Debian's `prometheus`, installed by
//! `tests/prometheus/install.sh`) scrapes `kontor serve --metrics-listen`
//! on loopback every second, and PromQL through its HTTP API finds what the
//! test caused: requests by surface and status class, a budget refusal
//! (429), an idempotent replay, the webhook outbox's depth rising while the
//! receiver hangs and falling once it answers, the attempts delivered, the
//! latency histogram; Debian's `promtool check metrics` accepts the page.
//! Every wait is bounded; the test stops what it starts. The figures are
//! printed.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::health::{get, serve_with_metrics};
use crate::support::receiver::Receiver;
use crate::support::{unique, DataFile};

/// The longest any one wait of this test takes (a webhook's retry, should
/// the held attempt run out, comes within this too).
const WAIT: Duration = Duration::from_secs(90);

/// One series of a query's answer: its labels and value.
type Series = Vec<(BTreeMap<String, String>, f64)>;

/// A Prometheus server on a free loopback port with its own temporary
/// storage, scraping `target` every second; killed when dropped.
struct Prometheus {
    child: Child,
    addr: SocketAddr,
    dir: tempfile::TempDir,
    agent: ureq::Agent,
}

impl Prometheus {
    fn start(target: SocketAddr) -> Prometheus {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n\
                 scrape_configs:\n  - job_name: kontor\n    scrape_interval: 1s\n    \
                 scrape_timeout: 1s\n    static_configs:\n      - targets: ['{target}']\n"
            ),
        )
        .unwrap();
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let log = std::fs::File::create(dir.path().join("prometheus.log")).unwrap();
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("tsdb").display()
            ))
            .arg(format!("--web.listen-address={addr}"))
            .arg("--log.level=warn")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("start Debian's prometheus (tests/prometheus/install.sh installs it)");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(10)))
            .build()
            .into();
        let mut prometheus = Prometheus {
            child,
            addr,
            dir,
            agent,
        };
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(Some(status)) = prometheus.child.try_wait() {
                panic!("prometheus ended ({status}): {}", prometheus.log());
            }
            let ready = prometheus
                .agent
                .get(&format!("http://{addr}/-/ready"))
                .call()
                .is_ok_and(|r| r.status() == 200);
            if ready {
                return prometheus;
            }
            assert!(
                Instant::now() < deadline,
                "prometheus not ready within {WAIT:?}: {}",
                prometheus.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("prometheus.log")).unwrap_or_default()
    }

    /// The instant vector `promql` evaluates to now.
    fn query(&self, promql: &str) -> Series {
        let mut response = self
            .agent
            .get(&format!("http://{}/api/v1/query", self.addr))
            .query("query", promql)
            .call()
            .expect("query prometheus");
        let body: Value = response.body_mut().read_json().expect("JSON answer");
        assert_eq!(body["status"], json!("success"), "{promql}: {body}");
        body["data"]["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{promql}: {body}"))
            .iter()
            .map(|series| {
                let labels = series["metric"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect();
                let value = series["value"][1].as_str().unwrap().parse().unwrap();
                (labels, value)
            })
            .collect()
    }

    /// Queries `promql` until `holds` of its answer (each scrape brings the
    /// page anew), within `WAIT`; returns that answer, printed.
    fn until(&self, what: &str, promql: &str, holds: impl Fn(&Series) -> bool) -> Series {
        let deadline = Instant::now() + WAIT;
        loop {
            let series = self.query(promql);
            if holds(&series) {
                println!("{what}: {promql} = {}", shown(&series));
                return series;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: {promql} = {} after {WAIT:?}",
                shown(&series)
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shown(series: &Series) -> String {
    let parts: Vec<String> = series
        .iter()
        .map(|(labels, value)| {
            let labels: Vec<String> = labels
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "job" | "instance" | "__name__"))
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{{{}}} {value}", labels.join(","))
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// The one value of a single-series answer (none for an empty one).
fn value(series: &Series) -> Option<f64> {
    match series.as_slice() {
        [(_, v)] => Some(*v),
        _ => None,
    }
}

/// The value of the series whose `label` is `is`.
fn by(series: &Series, label: &str, is: &str) -> Option<f64> {
    series
        .iter()
        .find(|(labels, _)| labels.get(label).map(String::as_str) == Some(is))
        .map(|(_, v)| *v)
}

#[test]
fn a_real_prometheus_scrapes_what_the_test_caused() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let spent = data.key(&company, "production", "all");
    let key = data.key(&company, "production", "all");
    let (_server, c, metrics) = serve_with_metrics(&data.path, &["--webhook-allow-loopback"]);
    let prometheus = Prometheus::start(metrics);
    prometheus.until("scraping", r#"up{job="kontor"}"#, |s| value(s) == Some(1.0));

    // Requests of every surface: REST answered and refused, the agent
    // server, a screen.
    for _ in 0..5 {
        assert_eq!(c.get(&spent, "/v1/me").status, 200);
    }
    for _ in 0..2 {
        assert_eq!(c.get("svc_live_unknown", "/v1/me").status, 401);
    }
    let auth = format!("Bearer {spent}");
    let listed = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        Some(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
    );
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    let screen = c.send("GET", "/login", &[], None).status;
    assert_eq!(screen, 200);
    // The key's budget (240) spent until the first 429.
    let mut answered = 5;
    let mut refused = 0;
    for _ in 0..500 {
        match c.get(&spent, "/v1/me").status {
            200 => answered += 1,
            429 => {
                refused += 1;
                break;
            }
            other => panic!("answered {other}"),
        }
    }
    assert_eq!(refused, 1, "the budget ran dry within 500 requests");
    println!("caused: rest 2xx {answered}, rest 4xx {} (2 × 401, 1 × 429), agent 2xx 1, screens {screen}", 2 + refused);

    let classes = prometheus.until(
        "requests by status class",
        r#"sum by (status) (kontor_http_requests_total{surface="rest"})"#,
        |s| by(s, "status", "2xx") == Some(answered as f64) && by(s, "status", "4xx") == Some(3.0),
    );
    assert_eq!(by(&classes, "status", "5xx"), Some(0.0));
    prometheus.until(
        "the agent server's",
        r#"sum by (status) (kontor_http_requests_total{surface="agent"})"#,
        |s| by(s, "status", "2xx") == Some(1.0),
    );
    prometheus.until(
        "the screens'",
        r#"sum by (status) (kontor_http_requests_total{surface="screens"})"#,
        |s| by(s, "status", "2xx") == Some(1.0),
    );
    prometheus.until("budget refusals", "kontor_budget_refusals_total", |s| {
        by(s, "surface", "rest") == Some(1.0) && by(s, "surface", "agent") == Some(0.0)
    });

    // An idempotent replay (another key: the first one's budget is spent).
    let idem = unique();
    let body = json!({"name": "Kunde", "street": "Hauptstraße 1", "postalCode": "10115", "city": "Berlin"});
    let first = c.post(&key, "/v1/customers", &idem, &body);
    let again = c.post(&key, "/v1/customers", &idem, &body);
    assert_eq!((first.status, again.status), (201, 201));
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    prometheus.until(
        "idempotent replays",
        "kontor_idempotent_replays_total",
        |s| value(s) == Some(1.0),
    );

    // The webhook outbox: a receiver that hangs holds back its endpoint's
    // deliveries; they are due and wait, and the depth rises.
    let receiver = Receiver::start();
    receiver.hold("/hook");
    let endpoint = c.post(
        &key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": receiver.url("/hook"), "events": ["invoice.issued"]}),
    );
    assert_eq!(endpoint.status, 201, "{:?}", endpoint.body);
    let customer = first.body.clone();
    let issue = || {
        let draft = c.draft(&key, &customer);
        data.line(&draft, 10_000, "19", false);
        data.ok(&["draft", "issue", &draft]);
    };
    issue();
    let held = receiver.wait_for("/hook", 1, WAIT);
    assert_eq!(held.len(), 1, "the first delivery reached the receiver");
    for _ in 0..3 {
        issue();
    }
    prometheus.until(
        "while the receiver hangs",
        "kontor_webhook_outbox_depth",
        |s| value(s).is_some_and(|depth| depth >= 3.0),
    );
    prometheus.until(
        "the oldest due delivery waits",
        "kontor_webhook_outbox_oldest_due_age_seconds",
        |s| value(s).is_some_and(|age| age > 0.0),
    );
    receiver.release("/hook");
    prometheus.until("once it answers", "kontor_webhook_outbox_depth", |s| {
        value(s) == Some(0.0)
    });
    prometheus.until(
        "attempts by outcome",
        "kontor_webhook_attempts_total",
        |s| by(s, "outcome", "delivered") == Some(4.0) && by(s, "outcome", "failed") == Some(0.0),
    );
    let peak = prometheus.until(
        "the depth's peak",
        "max_over_time(kontor_webhook_outbox_depth[10m])",
        |s| value(s).is_some_and(|peak| peak >= 3.0),
    );
    assert_eq!(receiver.received("/hook").len(), 4);

    // Latency: one count per answered request, quantiles from the buckets.
    prometheus.until(
        "every REST request timed",
        r#"sum(kontor_http_requests_total{surface="rest"}) - sum(kontor_http_request_duration_seconds_count{surface="rest"})"#,
        |s| value(s) == Some(0.0),
    );
    let median = prometheus.until(
        "the REST median",
        r#"histogram_quantile(0.5, sum by (le) (kontor_http_request_duration_seconds_bucket{surface="rest"}))"#,
        |s| value(s).is_some_and(|q| q.is_finite() && q > 0.0),
    );
    prometheus.until("the WAL", "kontor_wal_bytes", |s| {
        value(s).is_some_and(|bytes| bytes > 0.0)
    });
    prometheus.until("the workers", "kontor_worker_running", |s| {
        by(s, "worker", "webhook") == Some(1.0) && by(s, "worker", "mail") == Some(1.0)
    });
    prometheus.until("mail outbox", "kontor_mail_outbox_depth", |s| {
        value(s) == Some(0.0)
    });

    // Debian's promtool accepts the page as it is now, every metric on it.
    let (status, _, page) = get(&format!("http://{metrics}/metrics"));
    assert_eq!(status, 200);
    let mut promtool = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run promtool (Debian's prometheus package)");
    promtool
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let checked = promtool.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
    println!(
        "promtool check metrics: {} on {} lines ({} metrics) {said}",
        checked.status,
        page.lines().count(),
        page.lines().filter(|l| l.starts_with("# TYPE ")).count()
    );
    assert!(
        checked.status.success() && said.trim().is_empty(),
        "{said}\n{page}"
    );
    // No label names a company, a key or a person.
    assert!(!page.contains(&company) && !page.contains("key_") && !page.contains("Erste"));
    println!(
        "figures: depth peak {:?}, REST median {:?} s",
        value(&peak),
        value(&median)
    );
}
