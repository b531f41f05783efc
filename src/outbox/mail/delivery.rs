//! The mail outbox and its worker. An act writes the composed message as a
//! `mails` row in its own transaction (`enqueue`); plain worker threads
//! send what is due, as the webhook worker does: a dispatcher claims the
//! oldest due mail of each company (a lease a restart releases), at most
//! one per company in flight, and hands it to a pool of senders; each
//! attempt reads the company's settings as they are then, opens the
//! password, sends the stored bytes unchanged and is recorded with the
//! server's reply. A 4xx reply, a time-out or a connection that fails is
//! tried again (1 min, 5 min, 30 min, 2 h, 6 h, 12 h; seven attempts in
//! all); a 5xx reply fails the mail at once. A hanging server holds back
//! only its own company's mail, for the time limit of one attempt.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use rusqlite::params;

use crate::error::Result;
use crate::outbox::mail::message::Composed;
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
    }
}

/// Writes `composed` to the outbox in the act's transaction, due now;
/// returns the mail's id.
///
/// Fails only on a storage error.
pub fn enqueue(
    tx: &Tx,
    tenant: &Tenant,
    purpose: MailPurpose,
    invoice_id: Option<&str>,
    recipient: &str,
    subject: &str,
    composed: &Composed,
) -> Result<String> {
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
pub fn send(db: &Db, key: &SealingKey, limit: Duration, job: Job) -> Attempt {
    let started = Instant::now();
    let started_at = clock::now();
    let server = db.read(|conn| settings::server(conn, &job.company_id, key));
    let outcome = match server {
        Ok((server, _)) => transport::send(
            &server,
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

/// `send`, with a panic turned into a failed attempt, so the dispatcher
/// hears back about every job it handed out.
fn sent_or_failed(db: &Db, key: &SealingKey, limit: Duration, job: Job) -> Attempt {
    let copy = job.clone();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| send(db, key, limit, job)))
        .unwrap_or_else(|_| Attempt {
            job: copy,
            started_at: clock::now(),
            duration_ms: 0,
            outcome: Outcome::Temporary {
                reply: None,
                error: "the sender failed".into(),
            },
        })
}

/// Releases every lease (a starting server: whatever an earlier process
/// held it no longer sends).
///
/// Fails only on a storage error.
pub fn release_leases(db: &Db) -> Result<usize> {
    db.write(|tx| {
        Ok(tx.execute(
            "UPDATE mails SET lease_until = NULL WHERE lease_until IS NOT NULL",
            [],
        )?)
    })
}

/// Claims up to `room` due mails, the oldest of each company not in `busy`.
///
/// Fails only on a storage error.
pub fn claim(db: &Db, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Job>> {
    if room == 0 {
        return Ok(Vec::new());
    }
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
    db.write(|tx| {
        let mut log = tx.prepare_cached(
            "INSERT OR REPLACE INTO mail_attempts (mail_id, attempt, started_at, duration_ms, smtp_reply, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut update = tx.prepare_cached(
            "UPDATE mails SET state = ?2, attempts = ?3, smtp_reply = ?4, last_error = ?5,
                 next_attempt_at = ?6, sent_at = ?7, lease_until = NULL
             WHERE id = ?1 AND state = 'queued'",
        )?;
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
        }
        Ok(())
    })
}

/// Sends every mail due at `now`, company by company, until none is due;
/// returns the attempts made. For tests and tools: it drives the same
/// claim, send and record as the worker, synchronously, each company's
/// mail on its own thread.
///
/// Fails only on a storage error.
pub fn run_due(db: &Db, key: &SealingKey, limit: Duration, now: Timestamp) -> Result<usize> {
    let mut made = 0;
    loop {
        let jobs = claim(db, now, SENDERS, &HashSet::new())?;
        if jobs.is_empty() {
            return Ok(made);
        }
        made += jobs.len();
        let attempts: Vec<Attempt> = std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|job| s.spawn(|| sent_or_failed(db, key, limit, job)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        record(db, now, &attempts)?;
        // A mail tried and not sent is not due again at `now`; a sent one
        // makes its company's next mail the oldest.
        if attempts
            .iter()
            .all(|a| !matches!(a.outcome, Outcome::Sent { .. }))
        {
            return Ok(made);
        }
    }
}

enum Message {
    Done(Box<Attempt>),
    Wake,
}

/// The running mail worker: a dispatcher and `SENDERS` sender threads.
pub struct Worker {
    stop: Arc<AtomicBool>,
    wake: Sender<Message>,
    dispatcher: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the dispatcher and the senders over `db`, releasing old
    /// leases first; each attempt's steps are limited to `limit`.
    ///
    /// Fails only on a storage error.
    pub fn start(db: Arc<Db>, key: Arc<SealingKey>, limit: Duration) -> Result<Worker> {
        release_leases(&db)?;
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<Message>();
        let dispatcher = {
            let stop = stop.clone();
            let tx = tx.clone();
            std::thread::Builder::new()
                .name("kontor-mail".into())
                .spawn(move || dispatch(db, key, limit, &stop, tx, rx))
                .map_err(crate::error::Error::internal)?
        };
        Ok(Worker {
            stop,
            wake: tx,
            dispatcher: Some(dispatcher),
        })
    }

    /// Looks for due mail now rather than at the next poll.
    pub fn wake(&self) {
        let _ = self.wake.send(Message::Wake);
    }

    /// Stops claiming, lets the attempts in flight finish and records them.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.wake.send(Message::Wake);
        if let Some(d) = self.dispatcher.take() {
            let _ = d.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

fn dispatch(
    db: Arc<Db>,
    key: Arc<SealingKey>,
    limit: Duration,
    stop: &AtomicBool,
    done: Sender<Message>,
    inbox: Receiver<Message>,
) {
    let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
    let jobs_rx = Arc::new(Mutex::new(jobs_rx));
    let senders: Vec<JoinHandle<()>> = (0..SENDERS)
        .filter_map(|i| {
            let jobs = jobs_rx.clone();
            let done = done.clone();
            let db = db.clone();
            let key = key.clone();
            std::thread::Builder::new()
                .name(format!("kontor-mail-{i}"))
                .spawn(move || loop {
                    let job = match jobs.lock().map(|rx| rx.recv()) {
                        Ok(Ok(job)) => job,
                        _ => return,
                    };
                    let attempt = sent_or_failed(&db, &key, limit, job);
                    if done.send(Message::Done(Box::new(attempt))).is_err() {
                        return;
                    }
                })
                .ok()
        })
        .collect();
    if senders.len() < SENDERS {
        tracing::error!(
            "only {} of {SENDERS} mail sender threads started",
            senders.len()
        );
    }
    let mut busy: HashSet<String> = HashSet::new();
    let mut finished: Vec<Attempt> = Vec::new();
    loop {
        let stopping = stop.load(Ordering::SeqCst);
        if !finished.is_empty() {
            match record(&db, Timestamp::now(), &finished) {
                Ok(()) => finished.clear(),
                Err(e) => tracing::error!("cannot record mail attempts yet: {e}"),
            }
        }
        if stopping && busy.is_empty() {
            break;
        }
        if !stopping {
            match claim(
                &db,
                Timestamp::now(),
                senders.len().saturating_sub(busy.len()),
                &busy,
            ) {
                Ok(jobs) => {
                    for job in jobs {
                        busy.insert(job.company_id.clone());
                        let _ = jobs_tx.send(job);
                    }
                }
                Err(e) => tracing::error!("cannot claim mail: {e}"),
            }
        }
        // Wait for a finished attempt, a wake-up, or the next poll (mail
        // written by the console in another process).
        match inbox.recv_timeout(Duration::from_millis(250)) {
            Ok(message) => {
                let mut take = |m: Message| {
                    if let Message::Done(a) = m {
                        busy.remove(&a.job.company_id);
                        finished.push(*a);
                    }
                };
                take(message);
                while let Ok(more) = inbox.try_recv() {
                    take(more);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    drop(jobs_tx);
    for s in senders {
        let _ = s.join();
    }
}
