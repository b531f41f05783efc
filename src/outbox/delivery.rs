//! The webhook outbox on the worker loop every outbox shares
//! (`outbox::dispatch`): what it claims (the due head delivery of each
//! endpoint, leased until recorded), how it sends (a blocking ureq agent)
//! and how it records each attempt; at most one request is in flight per
//! endpoint, and a slow or hanging receiver holds back only its own
//! endpoint. Every attempt resolves
//! the host afresh, checks every address and connects only to checked ones;
//! proxies from the environment are ignored and redirects are followed by
//! hand under the same rules. Schedule: 30 s, 5 min, 30 min, 2 h, 5 h, 10 h,
//! 10 h (±20 %), then FAILED.

use std::collections::HashSet;
use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use jiff::{SignedDuration, Timestamp};
use rusqlite::params;
use sha2::Sha256;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::error::Result;
use crate::outbox::address::{self, Policy, Refusal};
use crate::outbox::dispatch::{self, Outbox, Worker};
use crate::outbox::events::DeliveryState;
use crate::rules::catalogue::Reader;
use crate::store::clock;
use crate::store::db::Db;

/// Delays after attempt 1, 2, … 7; the eighth failure is final.
const SCHEDULE: [i64; 7] = [30, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
/// Attempts in all.
pub const MAX_ATTEMPTS: i64 = 8;
/// How long a claimed delivery is held before another worker may take it.
const LEASE: SignedDuration = SignedDuration::from_secs(90);
/// Senders running at once (each holds one endpoint's one request).
pub const SENDERS: usize = 32;
/// Most of an answer read.
const MAX_ANSWER: u64 = 64 * 1024;
/// How long one attempt may take, redirects included.
const ATTEMPT_LIMIT: Duration = Duration::from_secs(15);
/// Redirects followed before an attempt fails.
const MAX_REDIRECTS: usize = 3;

/// The resolver the agent connects through: it resolves once and hands on only
/// addresses the policy allows.
#[derive(Debug)]
struct GuardedResolver {
    policy: Policy,
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &hyper::Uri,
        _config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> std::result::Result<ResolvedSocketAddrs, ureq::Error> {
        let authority = uri.authority().ok_or(ureq::Error::HostNotFound)?;
        let port = authority
            .port_u16()
            .unwrap_or(if uri.scheme_str() == Some("http") {
                80
            } else {
                443
            });
        let wait = Duration::from_secs(5).min(*timeout.after);
        let addrs = address::resolve_checked(authority.host(), port, self.policy, wait).map_err(
            |reason| {
                ureq::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    reason,
                ))
            },
        )?;
        let mut out = self.empty();
        for a in addrs.into_iter().take(16) {
            out.push(a);
        }
        Ok(out)
    }
}

/// A blocking agent that ignores proxy settings, follows no redirect, keeps
/// no connection (every attempt resolves and connects afresh), and gives up
/// after 5 s resolving, 5 s connecting or 15 s in all.
pub fn agent(policy: Policy) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .proxy(None)
        .max_redirects(0)
        .http_status_as_error(false)
        .max_idle_connections(0)
        .max_idle_connections_per_host(0)
        .timeout_resolve(Some(Duration::from_secs(5)))
        .timeout_connect(Some(Duration::from_secs(5)))
        .timeout_global(Some(Duration::from_secs(15)))
        .user_agent("SERVICE-Webhooks/1")
        .build();
    ureq::Agent::with_parts(
        config,
        DefaultConnector::default(),
        GuardedResolver { policy },
    )
}

/// `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret.
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!(
        "t={timestamp},v1={}",
        hex::encode(mac.finalize().into_bytes())
    )
}

/// One claimed delivery, with what sending it needs.
#[derive(Debug, Clone)]
pub struct Job {
    pub delivery_id: String,
    pub endpoint_id: String,
    pub attempt: i64,
    pub url: String,
    pub secret: String,
    pub event_id: String,
    pub kind: String,
    pub body: String,
}

/// What one attempt came to.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub job: Job,
    pub started_at: String,
    pub status: Option<u16>,
    pub error: Option<String>,
    pub answer: String,
    pub duration_ms: i64,
    pub retry_after: Option<i64>,
}

impl Outcome {
    fn delivered(&self) -> bool {
        self.error.is_none() && self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// The next URL of a redirect, resolved against the current one (absolute,
/// scheme-relative, absolute-path or relative-path references).
fn redirect_target(current: &str, location: &str) -> Option<String> {
    let location = location.trim();
    // A reference with a scheme (RFC 3986: letter, then letters, digits,
    // `+-.`, then `:`) is absolute, whatever the scheme: the same rules as
    // the original decide about it (`file:///etc/passwd` is refused there).
    let scheme = location.split_once(':').map(|(s, _)| s);
    if scheme.is_some_and(|s| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    }) {
        return Some(location.to_string());
    }
    let uri: hyper::Uri = current.parse().ok()?;
    let scheme = uri.scheme_str()?;
    let base = format!("{scheme}://{}", uri.authority()?);
    if let Some(rest) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{rest}"));
    }
    if location.starts_with('/') {
        return Some(format!("{base}{location}"));
    }
    let path = uri.path();
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{base}{dir}{location}"))
}

/// Sends one attempt of `job`, following up to three redirects by hand.
pub fn send(agent: &ureq::Agent, policy: Policy, job: Job) -> Outcome {
    let started = Instant::now();
    let started_at = clock::now();
    let mut url = job.url.clone();
    let mut result = (None, Some(String::from("no attempt")), String::new(), None);
    for hop in 0..=MAX_REDIRECTS + 1 {
        if hop > MAX_REDIRECTS {
            result = (
                result.0,
                Some(format!("more than {MAX_REDIRECTS} redirects")),
                result.2,
                None,
            );
            break;
        }
        if let Err(refusal) = address::check_url(&url, policy) {
            let reason = match refusal {
                Refusal::Unreadable(said) | Refusal::Forbidden(said) => said.text(Reader::CONSOLE),
            };
            result = (
                None,
                Some(format!("refused target {url}: {reason}")),
                String::new(),
                None,
            );
            break;
        }
        let Some(left) = ATTEMPT_LIMIT
            .checked_sub(started.elapsed())
            .filter(|l| !l.is_zero())
        else {
            result = (
                result.0,
                Some(format!("no answer within {} s", ATTEMPT_LIMIT.as_secs())),
                result.2,
                None,
            );
            break;
        };
        let timestamp = Timestamp::now().as_second();
        let response = agent
            .post(&url)
            .config()
            .timeout_global(Some(left))
            .build()
            .header("Content-Type", "application/json; charset=utf-8")
            .header(
                "SERVICE-Signature",
                signature(&job.secret, timestamp, job.body.as_bytes()),
            )
            .header("SERVICE-Event-Id", &job.event_id)
            .header("SERVICE-Event", &job.kind)
            .header("SERVICE-Delivery", &job.delivery_id)
            .header("SERVICE-Attempt", job.attempt.to_string())
            .header("Idempotency-Key", &job.event_id)
            .send(job.body.as_bytes());
        let mut response = match response {
            Ok(r) => r,
            Err(e) => {
                result = (None, Some(e.to_string()), String::new(), None);
                break;
            }
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let location = header("location");
        let retry_after = header("retry-after")
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|s| *s >= 0);
        let mut answer = Vec::new();
        let read = response
            .body_mut()
            .as_reader()
            .take(MAX_ANSWER)
            .read_to_end(&mut answer);
        let first_kib = String::from_utf8_lossy(&answer[..answer.len().min(1024)]).to_string();
        if (300..400).contains(&status) {
            match location.and_then(|l| redirect_target(&url, &l)) {
                Some(next) => {
                    url = next;
                    result = (Some(status), None, first_kib, None);
                    continue;
                }
                None => {
                    result = (
                        Some(status),
                        Some("redirect without a usable Location".into()),
                        first_kib,
                        None,
                    );
                    break;
                }
            }
        }
        let error = match read {
            Err(e) => Some(format!("reading the answer failed: {e}")),
            Ok(_) if !(200..300).contains(&status) => Some(format!("answered {status}")),
            Ok(_) => None,
        };
        let retry_after = if status == 429 || status == 503 {
            retry_after
        } else {
            None
        };
        result = (Some(status), error, first_kib, retry_after);
        break;
    }
    let (status, error, answer, retry_after) = result;
    Outcome {
        job,
        started_at,
        status,
        error,
        answer,
        duration_ms: started.elapsed().as_millis() as i64,
        retry_after,
    }
}

/// ±20 % of `seconds`, in milliseconds, from the OS random source.
fn jittered_ms(seconds: i64) -> i64 {
    let r = crate::store::ids::random_bytes(2);
    let spread = (u16::from_le_bytes([r[0], r[1]]) % 401) as i64; // 0..=400 → 80.0 % … 120.0 %
    seconds * (800 + spread)
}

/// When the attempt after `attempt` (1-based) is due, given the receiver's Retry-After.
fn next_attempt(now: Timestamp, attempt: i64, retry_after: Option<i64>) -> Timestamp {
    let scheduled = SCHEDULE[(attempt as usize - 1).min(SCHEDULE.len() - 1)];
    let delay_ms = match retry_after {
        // Honoured up to twice the schedule, and never sooner than it, so a
        // receiver answering `Retry-After: 0` cannot burn the attempts in seconds.
        Some(asked) => asked.clamp(scheduled, 2 * scheduled) * 1000,
        None => jittered_ms(scheduled),
    };
    now + SignedDuration::from_millis(delay_ms)
}

/// Claims up to `room` (at least one) due head deliveries of endpoints not in `busy`.
///
/// Fails only on a storage error.
pub fn claim(db: &Db, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Job>> {
    let now_text = clock::format_instant(now);
    let lease = clock::format_instant(now + LEASE);
    db.write(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT d.id, d.endpoint_id, d.attempts, w.url, w.secret, ev.id, ev.kind, ev.body
             FROM (SELECT endpoint_id, min(seq) AS seq FROM deliveries WHERE state = 'PENDING' GROUP BY endpoint_id) h
             JOIN deliveries d ON d.seq = h.seq
             JOIN webhook_endpoints w ON w.id = d.endpoint_id
             JOIN events ev ON ev.id = d.event_id
             WHERE w.enabled = 1 AND d.next_attempt_at <= ?1 AND (d.lease_until IS NULL OR d.lease_until < ?1)
             ORDER BY d.next_attempt_at, d.seq",
        )?;
        let candidates = stmt
            .query_map([&now_text], |r| {
                Ok(Job {
                    delivery_id: r.get(0)?,
                    endpoint_id: r.get(1)?,
                    attempt: r.get::<_, i64>(2)? + 1,
                    url: r.get(3)?,
                    secret: r.get(4)?,
                    event_id: r.get(5)?,
                    kind: r.get(6)?,
                    body: r.get(7)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let jobs: Vec<Job> = candidates.into_iter().filter(|j| !busy.contains(&j.endpoint_id)).take(room).collect();
        let mut lease_stmt = tx.prepare_cached("UPDATE deliveries SET lease_until = ?2 WHERE id = ?1")?;
        for job in &jobs {
            lease_stmt.execute(params![job.delivery_id, lease])?;
        }
        Ok(jobs)
    })
}

/// Records finished attempts in one transaction and schedules what follows.
///
/// Fails only on a storage error.
pub fn record(db: &Db, now: Timestamp, outcomes: &[Outcome]) -> Result<()> {
    if outcomes.is_empty() {
        return Ok(());
    }
    let now_text = clock::format_instant(now);
    let recorded = db.write(|tx| {
        let mut attempt = tx.prepare_cached(
            "INSERT INTO delivery_attempts (delivery_id, attempt, started_at, status, duration_ms, error, response)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut update = tx.prepare_cached(
            "UPDATE deliveries SET state = ?2, attempts = ?3, last_status = ?4, last_error = ?5, next_attempt_at = ?6,
                 delivered_at = ?7, lease_until = NULL
             WHERE id = ?1 AND state = ?8",
        )?;
        let mut states = Vec::with_capacity(outcomes.len());
        for o in outcomes {
            let j = &o.job;
            attempt.execute(params![j.delivery_id, j.attempt, o.started_at, o.status, o.duration_ms, o.error, o.answer])?;
            let (state, next, delivered) = if o.delivered() {
                (DeliveryState::Delivered, None, Some(now_text.clone()))
            } else if j.attempt >= MAX_ATTEMPTS {
                (DeliveryState::Failed, None, None)
            } else {
                (DeliveryState::Pending, Some(clock::format_instant(next_attempt(now, j.attempt, o.retry_after))), None)
            };
            update.execute(params![
                j.delivery_id,
                state,
                j.attempt,
                o.status,
                o.error,
                next,
                delivered,
                DeliveryState::Pending
            ])?;
            states.push(state);
        }
        Ok(states)
    })?;
    for state in recorded {
        let outcome = match state {
            DeliveryState::Delivered => "delivered",
            DeliveryState::Failed => "failed",
            _ => "retrying",
        };
        metrics::counter!("kontor_webhook_attempts_total", "outcome" => outcome).increment(1);
    }
    Ok(())
}

/// The deliveries due at `now` across every company (pending, their next
/// attempt come), and the due time of the one waiting longest.
///
/// Fails only on a storage error.
pub fn backlog(conn: &rusqlite::Connection, now: Timestamp) -> Result<dispatch::Backlog> {
    dispatch::backlog(conn, "deliveries", DeliveryState::Pending.as_str(), now)
}

/// The webhook outbox as the worker loop (`dispatch`) sees it: its lanes
/// are endpoints; an attempt is one signed request (redirects followed by
/// hand); its schedule is `SCHEDULE`.
pub struct Webhooks {
    db: Arc<Db>,
    policy: Policy,
    agent: ureq::Agent,
}

impl Webhooks {
    pub fn new(db: Arc<Db>, policy: Policy) -> Webhooks {
        Webhooks {
            agent: agent(policy),
            db,
            policy,
        }
    }
}

impl Outbox for Webhooks {
    type Job = Job;
    type Done = Outcome;
    const NAME: &'static str = "kontor-send";
    const SENDERS: usize = SENDERS;

    fn lane(job: &Job) -> &str {
        &job.endpoint_id
    }
    fn job(done: &Outcome) -> &Job {
        &done.job
    }
    fn succeeded(done: &Outcome) -> bool {
        done.delivered()
    }
    fn failed(job: Job) -> Outcome {
        Outcome {
            job,
            started_at: clock::now(),
            status: None,
            error: Some("the sender failed".into()),
            answer: String::new(),
            duration_ms: 0,
            retry_after: None,
        }
    }
    fn release_leases(&self) -> Result<usize> {
        dispatch::release_leases(&self.db, "deliveries")
    }
    fn claim(&self, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Job>> {
        claim(&self.db, now, room, busy)
    }
    fn send(&self, job: &Job) -> Outcome {
        send(&self.agent, self.policy, job.clone())
    }
    fn record(&self, now: Timestamp, done: &[Outcome]) -> Result<()> {
        record(&self.db, now, done)
    }
}

/// Starts the webhook worker over `db`, woken by the events this process
/// writes (the console's come at the next poll).
///
/// Fails on a storage error, or when its thread cannot start.
pub fn start(db: Arc<Db>, policy: Policy) -> Result<Worker<Webhooks>> {
    let worker = Worker::start(Webhooks::new(db.clone(), policy))?;
    let waker = worker.waker();
    db.on_events(Box::new(move || waker.wake()));
    Ok(worker)
}
