//! The mail outbox and its worker. An act writes the composed message as a
//! `mails` row in its own transaction (`enqueue`); plain worker threads
//! send what is due on the loop every outbox shares (`outbox::dispatch`):
//! the oldest due mail of each company is claimed (a lease a restart
//! releases), at most one per company in flight; each attempt reads the company's settings as they are then, opens the
//! password, sends the stored bytes unchanged and is recorded with the
//! server's reply. A 4xx reply, a time-out or a connection that fails is
//! tried again (1 min, 5 min, 30 min, 2 h, 6 h, 12 h; seven attempts in
//! all); a 5xx reply fails the mail at once. A hanging server holds back
//! only its own company's mail, for the time limit of one attempt.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use rusqlite::params;

use crate::error::Result;
use crate::outbox::dispatch::{self, Outbox};
use crate::outbox::mail::message::{self, Letter, Sender};
use crate::outbox::mail::reach::MailAllow;
use crate::outbox::mail::settings;
use crate::outbox::mail::transport::{self, Outcome};
use crate::store::clock;
use crate::store::db::{Db, Tx};
use crate::store::ids;
use crate::store::sealed::SealingKey;
use crate::store::tenant::Tenant;

/// Delays after attempt 1, 2, … 6; the seventh failure is final.
const SCHEDULE: [i64; 6] = [60, 300, 1_800, 7_200, 21_600, 43_200];
/// Attempts in all.
pub const MAX_ATTEMPTS: i64 = 7;
/// How long a claimed mail is held before another worker may take it: more
/// than an attempt may take.
const LEASE: SignedDuration = SignedDuration::from_secs(300);
/// Senders running at once (each holds one company's one attempt).
pub const SENDERS: usize = 16;
/// Longest a step of an attempt may take (connecting, each reply).
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

crate::stored_enum! {
    /// Where a mail stands.
    pub enum MailState {
        Queued = "queued",
        Sent = "sent",
        Failed = "failed",
    }
}

crate::stored_enum! {
    /// What a mail carries.
    pub enum MailPurpose {
        Invoice = "invoice",
        Reminder = "reminder",
        Test = "test",
        /// A notice to a person of the company (their two-factor sign-in reset).
        Notice = "notice",
    }
}

/// Composes `letter` from `sender` now and writes it to the outbox in the
/// act's transaction, due now; returns the mail's id.
///
/// Fails with `Invalid` naming `from` or `to` for an address that is no
/// address (`message::compose`), else only on a storage error.
pub fn enqueue(
    tx: &Tx,
    tenant: &Tenant,
    purpose: MailPurpose,
    invoice_id: Option<&str>,
    sender: &Sender,
    letter: &Letter,
) -> Result<String> {
    let composed = message::compose(sender, letter, Timestamp::now())?;
    let (recipient, subject) = (&letter.to, &letter.subject);
    let id = ids::new_id("mal_");
    let now = clock::now();
    let to = serde_json::to_string(&composed.envelope_to).map_err(crate::error::Error::internal)?;
    tx.execute(
        "INSERT INTO mails (id, company_id, environment, purpose, invoice_id, recipient, envelope_from,
             envelope_to, subject, message, message_id, state, attempts, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'queued', 0, ?12, ?12)",
        params![
            id,
            tenant.company_id,
            tenant.environment,
            purpose,
            invoice_id,
            recipient,
            composed.envelope_from,
            to,
            subject,
            composed.raw,
            composed.message_id,
            now
        ],
    )?;
    Ok(id)
}

/// One claimed mail, with what sending it needs.
#[derive(Debug, Clone)]
pub struct Job {
    pub mail_id: String,
    pub company_id: String,
    pub attempt: i64,
    pub envelope_from: String,
    pub envelope_to: Vec<String>,
    pub raw: Vec<u8>,
}

/// What one attempt came to.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub job: Job,
    pub started_at: String,
    pub duration_ms: i64,
    pub outcome: Outcome,
}

/// Sends one attempt of `job` through its company's settings as they are now.
pub fn send(db: &Db, key: &SealingKey, allow: &MailAllow, limit: Duration, job: Job) -> Attempt {
    let started = Instant::now();
    let started_at = clock::now();
    let server = db.read(|conn| settings::server(conn, &job.company_id, key));
    let outcome = match server {
        Ok((server, _)) => transport::send(
            &server,
            allow,
            &job.envelope_from,
            &job.envelope_to,
            &job.raw,
            limit,
        ),
        Err(e) => Outcome::Temporary {
            reply: None,
            error: e.sentence(),
        },
    };
    Attempt {
        job,
        started_at,
        duration_ms: started.elapsed().as_millis() as i64,
        outcome,
    }
}

/// Claims up to `room` (at least one) due mails, the oldest of each company not in `busy`.
///
/// Fails only on a storage error.
pub fn claim(db: &Db, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Job>> {
    let now_text = clock::format_instant(now);
    let lease = clock::format_instant(now + LEASE);
    db.write(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT m.id, m.company_id, m.attempts, m.envelope_from, m.envelope_to
             FROM (SELECT company_id, min(seq) AS seq FROM mails WHERE state = 'queued' GROUP BY company_id) h
             JOIN mails m ON m.seq = h.seq
             WHERE m.next_attempt_at <= ?1 AND (m.lease_until IS NULL OR m.lease_until < ?1)
             ORDER BY m.next_attempt_at, m.seq",
        )?;
        let candidates = stmt
            .query_map([&now_text], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut lease_stmt = tx.prepare_cached("UPDATE mails SET lease_until = ?2 WHERE id = ?1")?;
        let mut body = tx.prepare_cached("SELECT message FROM mails WHERE id = ?1")?;
        let mut jobs = Vec::new();
        for (id, company_id, attempts, from, to) in candidates {
            if jobs.len() >= room || busy.contains(&company_id) {
                continue;
            }
            let envelope_to: Vec<String> = serde_json::from_str(&to).unwrap_or_default();
            let raw: Vec<u8> = body.query_row([&id], |r| r.get(0))?;
            lease_stmt.execute(params![id, lease])?;
            jobs.push(Job {
                mail_id: id,
                company_id,
                attempt: attempts + 1,
                envelope_from: from,
                envelope_to,
                raw,
            });
        }
        Ok(jobs)
    })
}

/// When the attempt after `attempt` (1-based) is due.
fn next_attempt(now: Timestamp, attempt: i64) -> Timestamp {
    let delay = SCHEDULE[(attempt as usize - 1).min(SCHEDULE.len() - 1)];
    now + SignedDuration::from_secs(delay)
}

/// Records finished attempts in one transaction and schedules what follows.
///
/// Fails only on a storage error.
pub fn record(db: &Db, now: Timestamp, attempts: &[Attempt]) -> Result<()> {
    if attempts.is_empty() {
        return Ok(());
    }
    let now_text = clock::format_instant(now);
    let recorded = db.write(|tx| {
        let mut log = tx.prepare_cached(
            "INSERT OR REPLACE INTO mail_attempts (mail_id, attempt, started_at, duration_ms, smtp_reply, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut update = tx.prepare_cached(
            "UPDATE mails SET state = ?2, attempts = ?3, smtp_reply = ?4, last_error = ?5,
                 next_attempt_at = ?6, sent_at = ?7, lease_until = NULL
             WHERE id = ?1 AND state = 'queued'",
        )?;
        let mut states = Vec::with_capacity(attempts.len());
        for a in attempts {
            let j = &a.job;
            let (state, reply, error, next, sent) = match &a.outcome {
                Outcome::Sent { reply } => {
                    (MailState::Sent, Some(reply.clone()), None, None, Some(now_text.clone()))
                }
                Outcome::Permanent { reply, error } => {
                    (MailState::Failed, Some(reply.clone()), Some(error.clone()), None, None)
                }
                Outcome::Temporary { reply, error } => {
                    if j.attempt >= MAX_ATTEMPTS {
                        (MailState::Failed, reply.clone(), Some(error.clone()), None, None)
                    } else {
                        (
                            MailState::Queued,
                            reply.clone(),
                            Some(error.clone()),
                            Some(clock::format_instant(next_attempt(now, j.attempt))),
                            None,
                        )
                    }
                }
            };
            log.execute(params![j.mail_id, j.attempt, a.started_at, a.duration_ms, reply, error])?;
            update.execute(params![j.mail_id, state, j.attempt, reply, error, next, sent])?;
            states.push(state);
        }
        Ok(states)
    })?;
    for state in recorded {
        let outcome = match state {
            MailState::Sent => "sent",
            MailState::Failed => "failed",
            MailState::Queued => "retrying",
        };
        metrics::counter!("kontor_mail_attempts_total", "outcome" => outcome).increment(1);
    }
    Ok(())
}

/// The mail due at `now` across every company (queued, its next attempt
/// come), and the due time of the one waiting longest.
///
/// Fails only on a storage error.
pub fn backlog(conn: &rusqlite::Connection, now: Timestamp) -> Result<dispatch::Backlog> {
    dispatch::backlog(conn, "mails", MailState::Queued.as_str(), now)
}

/// The mail outbox as the worker loop (`dispatch`) sees it: its lanes are
/// companies; an attempt reads the company's settings as they are then
/// and sends the stored bytes, each step limited to `limit`; its schedule
/// is `SCHEDULE` (a 5xx reply fails at once).
pub struct Mails {
    db: Arc<Db>,
    key: Arc<SealingKey>,
    allow: Arc<MailAllow>,
    limit: Duration,
}

impl Mails {
    pub fn new(db: Arc<Db>, key: Arc<SealingKey>, allow: Arc<MailAllow>, limit: Duration) -> Mails {
        Mails {
            db,
            key,
            allow,
            limit,
        }
    }
}

impl Outbox for Mails {
    type Job = Job;
    type Done = Attempt;
    const NAME: &'static str = "kontor-mail";
    const SENDERS: usize = SENDERS;

    fn lane(job: &Job) -> &str {
        &job.company_id
    }
    fn job(done: &Attempt) -> &Job {
        &done.job
    }
    fn succeeded(done: &Attempt) -> bool {
        matches!(done.outcome, Outcome::Sent { .. })
    }
    fn failed(job: Job) -> Attempt {
        Attempt {
            job,
            started_at: clock::now(),
            duration_ms: 0,
            outcome: Outcome::Temporary {
                reply: None,
                error: "the sender failed".into(),
            },
        }
    }
    fn release_leases(&self) -> Result<usize> {
        dispatch::release_leases(&self.db, "mails")
    }
    fn claim(&self, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Job>> {
        claim(&self.db, now, room, busy)
    }
    fn send(&self, job: &Job) -> Attempt {
        send(&self.db, &self.key, &self.allow, self.limit, job.clone())
    }
    fn record(&self, now: Timestamp, done: &[Attempt]) -> Result<()> {
        record(&self.db, now, done)
    }
}
