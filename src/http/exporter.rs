//! The metrics page, `GET /metrics` in the Prometheus text format (0.0.4),
//! served only on its own address (`serve --metrics-listen`), never on the
//! public port. The `metrics` facade's Prometheus recorder is installed once
//! per process (a second server in one process shares it) and every metric
//! is described here, in one list, with its help text; each layer counts
//! where the thing happens (`kontor_webhook_attempts_total` in the outbox,
//! `kontor_pool_waits_total` in the store), and the requests are counted
//! here for `intake`. The outboxes' backlog, the data file's and WAL's size
//! and the workers' pulses are read when the page is asked for. No label
//! carries a company, a key, a person or a document.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::error::{Error, Result};
use crate::http::app::{in_store, App};
use crate::outbox::dispatch::Backlog;
use crate::outbox::{delivery, mail};

/// The page's one address.
pub const PATH: &str = "/metrics";

/// The surfaces a request is counted under.
pub const SURFACES: [&str; 4] = ["rest", "agent", "screens", "other"];

/// Buckets of a request's time, in seconds: from a kept page (a fraction of
/// a millisecond) to a large import (seconds).
const REQUEST_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Buckets of a wait for a pooled connection, in seconds: at most 100 ms.
const WAIT_BUCKETS: [f64; 8] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/// Connections to the page open at once; more are closed at once.
const MAX_CONNECTIONS: usize = 32;
/// How often the recorder folds what it gathered (histograms' samples), so
/// a page nobody asks for does not grow.
const UPKEEP: Duration = Duration::from_secs(5);

static RECORDER: Mutex<Option<PrometheusHandle>> = Mutex::new(None);

/// The process's recorder: installed and every metric described at the
/// first call, the same one after.
///
/// Fails when another recorder was installed in this process.
pub fn install() -> Result<PrometheusHandle> {
    let mut installed = RECORDER.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(handle) = installed.as_ref() {
        return Ok(handle.clone());
    }
    let cannot = |e: &dyn std::fmt::Display| Error::internal(format!("cannot record metrics: {e}"));
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("kontor_http_request_duration_seconds".into()),
            &REQUEST_BUCKETS,
        )
        .and_then(|b| {
            b.set_buckets_for_metric(
                Matcher::Full("kontor_pool_wait_seconds".into()),
                &WAIT_BUCKETS,
            )
        })
        .map_err(|e| cannot(&e))?
        .build_recorder();
    let handle = recorder.handle();
    metrics::set_global_recorder(recorder).map_err(|e| cannot(&e))?;
    describe();
    *installed = Some(handle.clone());
    Ok(handle)
}

/// Every metric with its help text; the counters of fixed labels start at
/// zero, so a rate over them is defined before the first event.
fn describe() {
    describe_gauge!(
        "kontor_build_info",
        "Always 1; its labels name the kontor version and the schema version it writes."
    );
    metrics::gauge!(
        "kontor_build_info",
        "version" => env!("CARGO_PKG_VERSION"),
        "schema" => crate::store::db::SCHEMA_VERSION.to_string()
    )
    .set(1.0);
    describe_counter!(
        "kontor_http_requests_total",
        "Requests answered on the public port, by surface (rest, agent, screens, other) and status class."
    );
    for surface in SURFACES {
        for status in ["2xx", "3xx", "4xx", "5xx"] {
            metrics::counter!("kontor_http_requests_total", "surface" => surface, "status" => status)
                .increment(0);
        }
    }
    describe_histogram!(
        "kontor_http_request_duration_seconds",
        Unit::Seconds,
        "Time from a request's head to its answer, by surface."
    );
    describe_counter!(
        "kontor_budget_refusals_total",
        "Requests of the API refused because their key's rate budget was used up (429), by surface."
    );
    for surface in ["rest", "agent"] {
        metrics::counter!("kontor_budget_refusals_total", "surface" => surface).increment(0);
    }
    describe_counter!(
        "kontor_idempotent_replays_total",
        "Creates answered from the record an earlier request with the same Idempotency-Key made."
    );
    metrics::counter!("kontor_idempotent_replays_total").increment(0);
    describe_gauge!(
        "kontor_webhook_outbox_depth",
        "Webhook deliveries due now across companies (pending, their next attempt come), read at scrape time."
    );
    describe_gauge!(
        "kontor_webhook_outbox_oldest_due_age_seconds",
        Unit::Seconds,
        "How long the longest-waiting due webhook delivery has been due (0 when none is)."
    );
    describe_counter!(
        "kontor_webhook_attempts_total",
        "Webhook delivery attempts recorded, by outcome: delivered, retrying (another attempt is scheduled) or failed (the last)."
    );
    describe_gauge!(
        "kontor_mail_outbox_depth",
        "Mails due now across companies (queued, their next attempt come), read at scrape time."
    );
    describe_gauge!(
        "kontor_mail_outbox_oldest_due_age_seconds",
        Unit::Seconds,
        "How long the longest-waiting due mail has been due (0 when none is)."
    );
    describe_counter!(
        "kontor_mail_attempts_total",
        "Mail sending attempts recorded, by outcome: sent, retrying (another attempt is scheduled) or failed (for good)."
    );
    for outcome in ["delivered", "retrying", "failed"] {
        metrics::counter!("kontor_webhook_attempts_total", "outcome" => outcome).increment(0);
    }
    for outcome in ["sent", "retrying", "failed"] {
        metrics::counter!("kontor_mail_attempts_total", "outcome" => outcome).increment(0);
    }
    describe_counter!(
        "kontor_inbox_polls_total",
        "Polls of the mailbox of received e-invoices (serve --inbox), by outcome: polled or failed."
    );
    describe_gauge!(
        "kontor_inbox_last_poll_timestamp_seconds",
        Unit::Seconds,
        "When the mailbox was last polled to the end (Unix time); absent until the first such poll."
    );
    describe_gauge!(
        "kontor_data_file_bytes",
        Unit::Bytes,
        "Size of the data file, read at scrape time."
    );
    describe_gauge!(
        "kontor_wal_bytes",
        Unit::Bytes,
        "Size of the data file's write-ahead log (DATA-wal), read at scrape time."
    );
    describe_counter!(
        "kontor_pool_waits_total",
        "Requests that found no pooled connection (or none of their company's share) free at once and waited."
    );
    describe_histogram!(
        "kontor_pool_wait_seconds",
        Unit::Seconds,
        "How long a request that waited took to get its pooled connection."
    );
    describe_counter!(
        "kontor_pool_busy_total",
        "Requests refused with 503 because no pooled connection came free within 100 ms."
    );
    metrics::counter!("kontor_pool_waits_total").increment(0);
    metrics::counter!("kontor_pool_busy_total").increment(0);
    describe_gauge!(
        "kontor_worker_running",
        "1 while a worker's loop runs (webhook, mail), 0 when it is not running."
    );
}

/// Counts one answered request of `surface` with `status`, and its time.
pub fn note_request(surface: &'static str, status: StatusCode, took: Duration) {
    let class = match status.as_u16() {
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        500..=599 => "5xx",
        _ => "1xx",
    };
    metrics::counter!("kontor_http_requests_total", "surface" => surface, "status" => class)
        .increment(1);
    metrics::histogram!("kontor_http_request_duration_seconds", "surface" => surface)
        .record(took.as_secs_f64());
    if status == StatusCode::TOO_MANY_REQUESTS && (surface == "rest" || surface == "agent") {
        metrics::counter!("kontor_budget_refusals_total", "surface" => surface).increment(1);
    }
}

/// Serves the page on `listener` until the task is ended, the recorder
/// folded every `UPKEEP`.
pub async fn serve(listener: TcpListener, app: Arc<App>, handle: PrometheusHandle, data: PathBuf) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(10));
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut upkeep = tokio::time::interval(UPKEEP);
    let page = Arc::new((app, handle, data));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let Ok(permit) = open.clone().try_acquire_owned() else {
                    continue;
                };
                let page = page.clone();
                let service = service_fn(move |req| {
                    let page = page.clone();
                    async move { Ok::<_, Infallible>(answer(&page, req).await) }
                });
                let connection = http.serve_connection(TokioIo::new(stream), service);
                tokio::spawn(async move {
                    let _ = connection.await;
                    drop(permit);
                });
            }
            _ = upkeep.tick() => page.1.run_upkeep(),
        }
    }
}

type Page = (Arc<App>, PrometheusHandle, PathBuf);

async fn answer(page: &Page, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let (status, body) = if req.uri().path() != PATH {
        (
            StatusCode::NOT_FOUND,
            "Only /metrics is served here.\n".to_string(),
        )
    } else if req.method() != Method::GET && req.method() != Method::HEAD {
        (
            StatusCode::METHOD_NOT_ALLOWED,
            "/metrics answers GET and HEAD.\n".to_string(),
        )
    } else {
        (StatusCode::OK, render(page).await)
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    let kind = if status == StatusCode::OK {
        "text/plain; version=0.0.4; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if status == StatusCode::METHOD_NOT_ALLOWED {
        headers.insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
    }
    response
}

/// The page: the gauges read now, then everything recorded.
async fn render(page: &Page) -> String {
    let (app, handle, data) = page;
    let now = jiff::Timestamp::now();
    let backlogs = in_store(app, true, None, move |conn| {
        Ok::<_, Error>((
            delivery::backlog(conn, now)?,
            mail::delivery::backlog(conn, now)?,
        ))
    })
    .await;
    match backlogs {
        Ok(Ok((webhooks, mails))) => {
            show_backlog(
                "kontor_webhook_outbox_depth",
                "kontor_webhook_outbox_oldest_due_age_seconds",
                webhooks,
                now,
            );
            show_backlog(
                "kontor_mail_outbox_depth",
                "kontor_mail_outbox_oldest_due_age_seconds",
                mails,
                now,
            );
        }
        // The gauges keep what the last page read.
        Ok(Err(e)) | Err(e) => tracing::warn!("metrics: cannot read the outboxes' backlog: {e}"),
    }
    metrics::gauge!("kontor_data_file_bytes").set(size(data) as f64);
    metrics::gauge!("kontor_wal_bytes").set(size(&wal_of(data)) as f64);
    if let Some(workers) = app.readiness.workers.get() {
        for worker in workers {
            let running = worker.pulse.as_ref().is_some_and(|p| p.running());
            metrics::gauge!("kontor_worker_running", "worker" => worker.what).set(if running {
                1.0
            } else {
                0.0
            });
        }
    }
    handle.run_upkeep();
    handle.render()
}

/// Sets an outbox's two gauges, `depth` and `age`, from its backlog.
fn show_backlog(depth: &'static str, age: &'static str, backlog: Backlog, now: jiff::Timestamp) {
    let waited = backlog
        .oldest_due
        .map_or(0.0, |due| now.duration_since(due).as_secs_f64().max(0.0));
    metrics::gauge!(depth).set(backlog.due as f64);
    metrics::gauge!(age).set(waited);
}

/// The size of a file, 0 when there is none.
fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The WAL beside a data file: its path with `-wal` appended.
fn wal_of(data: &Path) -> PathBuf {
    let mut wal = data.as_os_str().to_owned();
    wal.push("-wal");
    PathBuf::from(wal)
}
