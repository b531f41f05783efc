//! The one worker loop every outbox runs on: plain threads, no async. A
//! dispatcher thread releases the leases an earlier process held, then goes
//! round: record what the senders finished, claim what is due for the free
//! senders (at most one job per lane in flight: an endpoint, a company),
//! hand it out, and wait for a finished job, a wake-up or the next poll
//! (work written by another process, the console). Stopping stops the
//! claiming; the jobs in flight finish and are recorded before the
//! dispatcher ends. A sender that panics reports a failed attempt, so the
//! dispatcher hears back about every job it handed out.
//!
//! Each outbox (`delivery` for webhooks, `mail::delivery` for mail)
//! supplies only what is its own through `Outbox`: what it claims, how it
//! sends, how it records (and so its retry policy). `run_due` drives the
//! same claim, send and record synchronously, for tests and tools. A
//! running worker shows its `Pulse`: whether its dispatcher still runs and
//! when it last went round (the server's readiness reads it).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use jiff::Timestamp;

use rusqlite::Connection;

use crate::error::Result;
use crate::store::clock;
use crate::store::db::Db;

/// How long the dispatcher waits for a finished job or a wake-up before it
/// looks for due work again (work another process wrote).
pub const POLL: Duration = Duration::from_millis(250);

/// What an outbox supplies to the worker loop.
pub trait Outbox: Send + Sync + 'static {
    /// A claimed piece of work (leased until recorded).
    type Job: Send + 'static;
    /// What one attempt at a job came to.
    type Done: Send + 'static;
    /// The threads' names start so: `kontor-send`, `kontor-mail`.
    const NAME: &'static str;
    /// Senders running at once.
    const SENDERS: usize;

    /// The lane a job holds back while in flight (its endpoint, its company).
    fn lane(job: &Self::Job) -> &str;
    /// The job an attempt was made at.
    fn job(done: &Self::Done) -> &Self::Job;
    /// Whether the attempt succeeded (so the lane's next job may be due now).
    fn succeeded(done: &Self::Done) -> bool;
    /// A failed attempt for a sender that panicked.
    fn failed(job: Self::Job) -> Self::Done;

    /// Releases every lease: whatever an earlier process held it no longer sends.
    ///
    /// Fails only on a storage error.
    fn release_leases(&self) -> Result<usize>;
    /// Claims up to `room` (at least one) due jobs of lanes not in `busy`,
    /// leasing them.
    ///
    /// Fails only on a storage error.
    fn claim(&self, now: Timestamp, room: usize, busy: &HashSet<String>) -> Result<Vec<Self::Job>>;
    /// Makes one attempt at `job`.
    fn send(&self, job: &Self::Job) -> Self::Done;
    /// Records finished attempts in one transaction and schedules what follows.
    ///
    /// Fails only on a storage error.
    fn record(&self, now: Timestamp, done: &[Self::Done]) -> Result<()>;
}

/// Releases every lease in an outbox's `table` (its `lease_until` column):
/// whatever an earlier process held it no longer sends. An outbox's
/// `release_leases` for a starting server.
///
/// Fails only on a storage error.
pub fn release_leases(db: &Db, table: &str) -> Result<usize> {
    db.write(|tx| {
        Ok(tx.execute(
            &format!("UPDATE {table} SET lease_until = NULL WHERE lease_until IS NOT NULL"),
            [],
        )?)
    })
}

/// What an outbox holds due at an instant: the jobs whose next attempt
/// has come (in flight or waiting), across companies, and the due time of
/// the one waiting longest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    pub due: u64,
    pub oldest_due: Option<Timestamp>,
}

/// The backlog at `now` of an outbox's `table`, whose rows wait in `state`
/// until their `next_attempt_at`. An outbox's own `backlog` names both; the
/// state is spelled into the SQL, so a partial index on it serves the count.
///
/// Fails only on a storage error.
pub fn backlog(
    conn: &Connection,
    table: &str,
    state: &'static str,
    now: Timestamp,
) -> Result<Backlog> {
    let (due, oldest): (i64, Option<String>) = conn
        .prepare_cached(&format!(
            "SELECT count(*), min(next_attempt_at) FROM {table}
             WHERE state = '{state}' AND next_attempt_at <= ?1"
        ))?
        .query_row([clock::format_instant(now)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(Backlog {
        due: due.max(0) as u64,
        oldest_due: oldest.and_then(|text| text.parse().ok()),
    })
}

/// `send`, with a panic turned into a failed attempt.
fn attempt<O: Outbox>(outbox: &O, job: O::Job) -> O::Done {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| outbox.send(&job))) {
        Ok(done) => done,
        Err(_) => O::failed(job),
    }
}

/// Sends every job due at `now`, lane by lane, until none is due; returns
/// the attempts made. A job that failed is not due again at `now`; one that
/// succeeded makes its lane's next job due.
///
/// Fails only on a storage error.
pub fn run_due<O: Outbox>(outbox: &O, now: Timestamp) -> Result<usize> {
    let mut made = 0;
    loop {
        let jobs = outbox.claim(now, O::SENDERS, &HashSet::new())?;
        if jobs.is_empty() {
            return Ok(made);
        }
        made += jobs.len();
        let done: Vec<O::Done> = std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|job| s.spawn(|| attempt(outbox, job)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        outbox.record(now, &done)?;
        if !done.iter().any(O::succeeded) {
            return Ok(made);
        }
    }
}

enum Message<D> {
    Done(Box<D>),
    Wake,
}

/// Asks a running worker to look for due work now rather than at the next poll.
pub struct Waker<D>(Sender<Message<D>>);

impl<D> Clone for Waker<D> {
    fn clone(&self) -> Self {
        Waker(self.0.clone())
    }
}

impl<D> Waker<D> {
    pub fn wake(&self) {
        let _ = self.0.send(Message::Wake);
    }
}

/// What a worker shows of itself: whether its dispatcher runs, and when
/// it last went round (it goes round at least every `POLL` unless a claim
/// or a record waits on the data file).
#[derive(Clone, Default)]
pub struct Pulse(Arc<PulseState>);

#[derive(Default)]
struct PulseState {
    running: AtomicBool,
    /// Milliseconds since the Unix epoch of the last round.
    last_round_ms: AtomicI64,
}

impl Pulse {
    /// Whether the dispatcher runs (started and not ended, nor panicked).
    pub fn running(&self) -> bool {
        self.0.running.load(Ordering::SeqCst)
    }

    /// How long ago the dispatcher last went round.
    pub fn since_last_round(&self) -> Duration {
        let ms = Timestamp::now().as_millisecond() - self.0.last_round_ms.load(Ordering::SeqCst);
        Duration::from_millis(ms.max(0) as u64)
    }

    fn beat(&self) {
        self.0
            .last_round_ms
            .store(Timestamp::now().as_millisecond(), Ordering::SeqCst);
    }
}

/// Marks the pulse stopped when the dispatcher ends, also by a panic.
struct Running(Pulse);

impl Drop for Running {
    fn drop(&mut self) {
        self.0 .0.running.store(false, Ordering::SeqCst);
    }
}

/// A running worker: the dispatcher and its senders.
pub struct Worker<O: Outbox> {
    stop: Arc<AtomicBool>,
    waker: Waker<O::Done>,
    pulse: Pulse,
    dispatcher: Option<JoinHandle<()>>,
}

impl<O: Outbox> Worker<O> {
    /// Releases old leases, then starts the dispatcher and the senders.
    ///
    /// Fails on a storage error, or when the dispatcher thread cannot start.
    pub fn start(outbox: O) -> Result<Worker<O>> {
        outbox.release_leases()?;
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<Message<O::Done>>();
        let pulse = Pulse::default();
        pulse.0.running.store(true, Ordering::SeqCst);
        pulse.beat();
        let dispatcher = {
            let stop = stop.clone();
            let tx = tx.clone();
            let running = Running(pulse.clone());
            std::thread::Builder::new()
                .name(format!("{}-dispatch", O::NAME))
                .spawn(move || dispatch(Arc::new(outbox), &stop, tx, rx, running))
                .map_err(crate::error::Error::internal)?
        };
        Ok(Worker {
            stop,
            waker: Waker(tx),
            pulse,
            dispatcher: Some(dispatcher),
        })
    }

    /// The worker's pulse, to be read from another thread.
    pub fn pulse(&self) -> Pulse {
        self.pulse.clone()
    }

    /// A handle that wakes the dispatcher (from another thread, a listener).
    pub fn waker(&self) -> Waker<O::Done> {
        self.waker.clone()
    }

    /// Looks for due work now rather than at the next poll.
    pub fn wake(&self) {
        self.waker.wake();
    }

    /// Stops claiming, lets the jobs in flight finish and records them.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.waker.wake();
        if let Some(d) = self.dispatcher.take() {
            let _ = d.join();
        }
    }
}

impl<O: Outbox> Drop for Worker<O> {
    fn drop(&mut self) {
        self.stop();
    }
}

fn dispatch<O: Outbox>(
    outbox: Arc<O>,
    stop: &AtomicBool,
    done: Sender<Message<O::Done>>,
    inbox: Receiver<Message<O::Done>>,
    running: Running,
) {
    let (jobs_tx, jobs_rx) = mpsc::channel::<O::Job>();
    let jobs_rx = Arc::new(Mutex::new(jobs_rx));
    let senders: Vec<JoinHandle<()>> = (0..O::SENDERS)
        .filter_map(|i| {
            let jobs = jobs_rx.clone();
            let done = done.clone();
            let outbox = outbox.clone();
            std::thread::Builder::new()
                .name(format!("{}-{i}", O::NAME))
                .spawn(move || loop {
                    let job = match jobs.lock().map(|rx| rx.recv()) {
                        Ok(Ok(job)) => job,
                        _ => return,
                    };
                    if done
                        .send(Message::Done(Box::new(attempt(&*outbox, job))))
                        .is_err()
                    {
                        return;
                    }
                })
                .ok()
        })
        .collect();
    if senders.len() < O::SENDERS {
        tracing::error!(
            "only {} of {} {} sender threads started",
            senders.len(),
            O::SENDERS,
            O::NAME
        );
    }
    let mut busy: HashSet<String> = HashSet::new();
    let mut finished: Vec<O::Done> = Vec::new();
    loop {
        running.0.beat();
        let stopping = stop.load(Ordering::SeqCst);
        if !finished.is_empty() {
            // What cannot be recorded now is kept and recorded next time round.
            match outbox.record(Timestamp::now(), &finished) {
                Ok(()) => finished.clear(),
                Err(e) => tracing::error!("{}: cannot record attempts yet: {e}", O::NAME),
            }
        }
        if stopping && busy.is_empty() {
            break;
        }
        let room = senders.len().saturating_sub(busy.len());
        if !stopping && room > 0 {
            match outbox.claim(Timestamp::now(), room, &busy) {
                Ok(jobs) => {
                    for job in jobs {
                        busy.insert(O::lane(&job).to_string());
                        let _ = jobs_tx.send(job);
                    }
                }
                Err(e) => tracing::error!("{}: cannot claim: {e}", O::NAME),
            }
        }
        match inbox.recv_timeout(POLL) {
            Ok(message) => {
                let mut take = |m: Message<O::Done>| {
                    if let Message::Done(d) = m {
                        busy.remove(O::lane(O::job(&d)));
                        finished.push(*d);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// An outbox in memory: jobs named `lane/n`, each failing its first
    /// `fails` attempts, each attempt taking `slow`.
    struct Fake {
        due: Mutex<Vec<(String, u32)>>,
        recorded: Mutex<Vec<(String, bool)>>,
        sent: AtomicUsize,
        fails: u32,
        slow: Duration,
        released: AtomicUsize,
    }

    fn fake(jobs: &[&str], fails: u32, slow: Duration) -> Arc<Fake> {
        Arc::new(Fake {
            due: Mutex::new(jobs.iter().map(|j| (j.to_string(), 0)).collect()),
            recorded: Mutex::new(Vec::new()),
            sent: AtomicUsize::new(0),
            fails,
            slow,
            released: AtomicUsize::new(0),
        })
    }

    impl Outbox for Arc<Fake> {
        type Job = (String, u32);
        type Done = ((String, u32), bool);
        const NAME: &'static str = "test";
        const SENDERS: usize = 4;

        fn lane(job: &Self::Job) -> &str {
            job.0.split('/').next().unwrap_or("")
        }
        fn job(done: &Self::Done) -> &Self::Job {
            &done.0
        }
        fn succeeded(done: &Self::Done) -> bool {
            done.1
        }
        fn failed(job: Self::Job) -> Self::Done {
            (job, false)
        }
        fn release_leases(&self) -> Result<usize> {
            self.released.fetch_add(1, Ordering::SeqCst);
            Ok(0)
        }
        fn claim(
            &self,
            _now: Timestamp,
            room: usize,
            busy: &HashSet<String>,
        ) -> Result<Vec<Self::Job>> {
            let mut due = self.due.lock().unwrap();
            let mut out: Vec<Self::Job> = Vec::new();
            let mut i = 0;
            while i < due.len() && out.len() < room {
                let lane = Self::lane(&due[i]).to_string();
                if busy.contains(&lane) || out.iter().any(|j| Self::lane(j) == lane) {
                    i += 1;
                } else {
                    out.push(due.remove(i));
                }
            }
            Ok(out)
        }
        fn send(&self, job: &Self::Job) -> Self::Done {
            std::thread::sleep(self.slow);
            self.sent.fetch_add(1, Ordering::SeqCst);
            if job.0.contains("panic") {
                panic!("a sender's panic");
            }
            (job.clone(), job.1 >= self.fails)
        }
        fn record(&self, _now: Timestamp, done: &[Self::Done]) -> Result<()> {
            let mut recorded = self.recorded.lock().unwrap();
            for ((name, tries), ok) in done {
                recorded.push((name.clone(), *ok));
                // A failed job is due again (the outbox's own schedule says
                // when; here at once), at its lane's head.
                if !ok {
                    self.due
                        .lock()
                        .unwrap()
                        .insert(0, (name.clone(), tries + 1));
                }
            }
            Ok(())
        }
    }

    fn recorded(f: &Fake) -> Vec<(String, bool)> {
        f.recorded.lock().unwrap().clone()
    }

    #[test]
    fn run_due_keeps_each_lanes_order_and_ends_a_round_in_which_nothing_succeeded() {
        let f = fake(&["a/1", "a/2", "b/1"], 1, Duration::ZERO);
        // Round one: the heads a/1 and b/1 fail; nothing succeeded, so the run ends.
        assert_eq!(run_due(&f, Timestamp::now()).unwrap(), 2);
        assert_eq!(recorded(&f), [("a/1".into(), false), ("b/1".into(), false)]);
        // The next run retries them; each success makes its lane's next due.
        assert_eq!(run_due(&f, Timestamp::now()).unwrap(), 3);
        assert_eq!(
            recorded(&f)[2..],
            [
                ("b/1".into(), true),
                ("a/1".into(), true),
                ("a/2".into(), false)
            ]
        );
    }

    #[test]
    fn a_panicking_sender_reports_a_failed_attempt() {
        let f = fake(&["panic/1"], 0, Duration::ZERO);
        assert_eq!(run_due(&f, Timestamp::now()).unwrap(), 1);
        assert_eq!(recorded(&f), [("panic/1".into(), false)]);
    }

    #[test]
    fn a_worker_releases_leases_first_sends_every_lane_and_wakes_at_once() {
        let f = fake(&["a/1", "b/1", "c/1"], 0, Duration::ZERO);
        let worker = Worker::start(f.clone()).unwrap();
        assert_eq!(f.released.load(Ordering::SeqCst), 1);
        while recorded(&f).len() < 3 {
            std::thread::yield_now();
        }
        // New work and a wake-up: sent without waiting for the poll.
        f.due.lock().unwrap().push(("d/1".into(), 0));
        worker.wake();
        while recorded(&f).len() < 4 {
            std::thread::yield_now();
        }
        let mut names: Vec<String> = recorded(&f).into_iter().map(|r| r.0).collect();
        names.sort();
        assert_eq!(names, ["a/1", "b/1", "c/1", "d/1"]);
    }

    #[test]
    fn a_workers_pulse_beats_while_it_runs_and_stops_with_it() {
        let f = fake(&[], 0, Duration::ZERO);
        let mut worker = Worker::start(f.clone()).unwrap();
        let pulse = worker.pulse();
        assert!(pulse.running());
        assert!(pulse.since_last_round() < Duration::from_secs(60));
        worker.stop();
        assert!(!pulse.running());
    }

    #[test]
    fn a_stopped_worker_claims_nothing_more_and_records_its_jobs_in_flight() {
        let f = fake(&["a/1", "a/2", "a/3"], 0, Duration::from_millis(200));
        let mut worker = Worker::start(f.clone()).unwrap();
        // a/1 is in flight (one job per lane); stop before it is answered.
        while f.due.lock().unwrap().len() == 3 {
            std::thread::yield_now();
        }
        worker.stop();
        // a/1 was answered and recorded; a/2 and a/3 were never claimed.
        assert_eq!(recorded(&f), [("a/1".into(), true)]);
        assert_eq!(f.sent.load(Ordering::SeqCst), 1);
        assert_eq!(f.due.lock().unwrap().len(), 2);
    }
}
