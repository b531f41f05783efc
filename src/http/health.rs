//! Health on the public port, no key: `GET /healthz` (the process answers;
//! it touches nothing) and `GET /readyz` (the data file answers and takes a
//! write, its schema is current, the webhook and mail workers run), 200 or
//! 503 with the reason in sentences. Neither names a company or reads one.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use hyper::{Method, StatusCode};
use serde_json::{json, Map, Value};

use crate::error::Error;
use crate::http::app::{in_store, json_bytes, refusal, Answer, App, Watched};
use crate::rules::locale::Lang;
use crate::store::health;

pub const ALIVE: &str = "/healthz";
pub const READY: &str = "/readyz";

/// How long the data file's checks may take before the answer says so.
const DATA_LIMIT: Duration = Duration::from_secs(2);
/// A worker that has not gone round for this long is taken for stuck.
const STALLED: Duration = Duration::from_secs(60);

/// Whether `path` is one of the health addresses.
pub fn owns(path: &str) -> bool {
    path == ALIVE || path == READY
}

/// The answer to a health address; only GET and HEAD are answered.
pub async fn answer(app: &Arc<App>, method: &Method, path: &str, lang: Lang) -> Answer {
    if method != Method::GET && method != Method::HEAD {
        return refusal(
            &Error::MethodNotAllowed("GET, HEAD".into()),
            lang,
            Vec::new(),
            None,
        );
    }
    if path == ALIVE {
        return plain(StatusCode::OK, json!({"alive": true}));
    }
    ready(app).await
}

fn plain(status: StatusCode, body: Value) -> Answer {
    Answer {
        status,
        headers: Vec::new(),
        body: json_bytes(&body),
        key_id: None,
    }
}

/// Every check by name, with what is wrong (none when it passed).
type Checks = Vec<(&'static str, Option<String>)>;

/// `GET /readyz`: the data file's checks, then the workers'.
async fn ready(app: &Arc<App>) -> Answer {
    let mut checks = data_checks(app).await;
    checks.extend(worker_checks(app));
    let reasons: Vec<&str> = checks.iter().filter_map(|(_, p)| p.as_deref()).collect();
    let shown: Map<String, Value> = checks
        .iter()
        .map(|(name, problem)| (name.to_string(), json!(problem.as_deref().unwrap_or("ok"))))
        .collect();
    let was_ready = app
        .readiness
        .was_ready
        .swap(reasons.is_empty(), Ordering::SeqCst);
    if reasons.is_empty() {
        if !was_ready {
            tracing::info!("ready again");
        }
        plain(StatusCode::OK, json!({"ready": true, "checks": shown}))
    } else {
        let reason = reasons.join(" ");
        if was_ready {
            tracing::warn!("not ready: {reason}");
        }
        plain(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"ready": false, "reason": reason, "checks": shown}),
        )
    }
}

/// Clears `probing` when the data file's checks end, or are never run.
struct Probing(Arc<App>);

impl Drop for Probing {
    fn drop(&mut self) {
        self.0.readiness.probing.store(false, Ordering::SeqCst);
    }
}

/// The data file under its path, its schema on a pooled connection, and a
/// write through the writer; within `DATA_LIMIT`, one check at a time.
async fn data_checks(app: &Arc<App>) -> Checks {
    let all = |problem: String| -> Checks {
        vec![
            ("dataFile", Some(problem.clone())),
            ("schema", Some(problem.clone())),
            ("write", Some(problem)),
        ]
    };
    if app.readiness.probing.swap(true, Ordering::SeqCst) {
        return all("The data file's last check has not finished yet.".into());
    }
    let probing = Probing(app.clone());
    let checker = app.clone();
    let job = in_store(app, false, None, move |conn| {
        let _probing = probing;
        let probe = &checker.readiness.file;
        let moved = probe.moved();
        let file = match &moved {
            Some(sentence) => Some(sentence.clone()),
            None => Some(probe.unwritable().join(" ")).filter(|s| !s.is_empty()),
        };
        let schema = match health::schema_problem(conn) {
            Ok(problem) => problem,
            Err(e) => Some(format!("The data file does not answer: {}.", detail(&e))),
        };
        // Nothing is written to a file that is gone or replaced.
        let write = match moved {
            Some(_) => Some("Not tried: the data file is not the one kontor opened.".into()),
            None => health::write_probe(&checker.db)
                .err()
                .map(|e| format!("The data file takes no write: {}.", detail(&e))),
        };
        vec![("dataFile", file), ("schema", schema), ("write", write)]
    });
    match tokio::time::timeout(DATA_LIMIT, job).await {
        Ok(Ok(checks)) => checks,
        Ok(Err(Error::Busy)) => {
            all("No pooled connection to the data file came free within 100 ms.".into())
        }
        Ok(Err(e)) => all(format!("The data file does not answer: {}.", detail(&e))),
        Err(_) => all(format!(
            "The data file did not answer within {} s.",
            DATA_LIMIT.as_secs()
        )),
    }
}

/// What a storage error says: SQLite's own words (`database or disk is
/// full`), which name no company and no path.
fn detail(e: &Error) -> String {
    match e {
        Error::Internal(detail) => detail.clone(),
        Error::StorageFull => "its disk is full".into(),
        other => other.sentence(),
    }
}

/// Each worker the server should run: started, its dispatcher alive and
/// going round.
fn worker_checks(app: &App) -> Checks {
    let Some(workers) = app.readiness.workers.get() else {
        return vec![("workers", Some("The workers have not started yet.".into()))];
    };
    workers
        .iter()
        .map(|Watched { check, what, pulse }| {
            let problem = match pulse {
                None => Some(format!("The {what} worker is not running.")),
                Some(p) if !p.running() => Some(format!("The {what} worker has stopped.")),
                Some(p) if p.since_last_round() > STALLED => Some(format!(
                    "The {what} worker has not gone round for {} s.",
                    p.since_last_round().as_secs()
                )),
                Some(_) => None,
            };
            (*check, problem)
        })
        .collect()
}
