//! The server's log: one line per event on stderr (`tracing`), as text or
//! as one JSON object per line (`--log-format json`: `timestamp`, `level`,
//! `message` and the event's own fields, for journald and log collectors),
//! collected in memory and written by a background thread in batches, at
//! least every 50 ms, so a request neither waits for the terminal or a pipe
//! nor wakes a thread for each line. Lossless: when 8 MiB wait unwritten,
//! the writer of the next line waits for room.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::console::args::LogFormat;

/// How much may wait unwritten before a writer waits.
const ROOM: usize = 8 << 20;
/// Past this much waiting, the writing thread is woken before its turn.
const EARLY: usize = 256 << 10;
/// How long lines wait at most.
const EVERY: Duration = Duration::from_millis(50);

struct Shared {
    waiting: Mutex<Vec<u8>>,
    /// Signalled to wake the writing thread, and by it when room was made.
    wake: Condvar,
    room: Condvar,
    stop: AtomicBool,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A handle the log's lines are written through.
#[derive(Clone)]
struct Lines(Arc<Shared>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut waiting = self.0.lock();
        while waiting.len() >= ROOM && !self.0.stop.load(Ordering::Relaxed) {
            waiting = self.0.room.wait(waiting).unwrap_or_else(|p| p.into_inner());
        }
        waiting.extend_from_slice(buf);
        if waiting.len() >= EARLY {
            self.0.wake.notify_one();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keeps the log's writing thread; dropping it writes what still waits.
pub struct Guard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts the log in `format`; keep the guard until the server has stopped.
pub fn start(format: LogFormat) -> Guard {
    let shared = Arc::new(Shared {
        waiting: Mutex::new(Vec::new()),
        wake: Condvar::new(),
        room: Condvar::new(),
        stop: AtomicBool::new(false),
    });
    let writer = shared.clone();
    let thread = std::thread::Builder::new()
        .name("kontor-log".into())
        .spawn(move || write_out(&writer))
        .ok();
    // Without its thread (none could be started) the log writes straight to
    // stderr rather than collecting lines nobody writes.
    let lines = thread.as_ref().map(|_| Lines(shared.clone()));
    let writer = move || -> Box<dyn Write> {
        match &lines {
            Some(lines) => Box::new(lines.clone()),
            None => Box::new(std::io::stderr()),
        }
    };
    let fmt = tracing_subscriber::fmt()
        .with_target(false)
        .with_ansi(false)
        .with_writer(writer);
    // A second start (a test running several servers) keeps the first log.
    let _ = match format {
        LogFormat::Text => fmt.try_init(),
        LogFormat::Json => {
            crate::http::app::LOG_FIELDS.store(true, Ordering::Relaxed);
            fmt.json()
                .flatten_event(true)
                .with_current_span(false)
                .with_span_list(false)
                .try_init()
        }
    };
    Guard { shared, thread }
}

/// The writing thread: every `EVERY` (or sooner when much waits), writes
/// what waits to stderr; ends after writing the rest once stopped.
fn write_out(shared: &Shared) {
    let mut batch = Vec::new();
    loop {
        let stopping = {
            let mut waiting = shared.lock();
            if waiting.len() < EARLY && !shared.stop.load(Ordering::SeqCst) {
                waiting = shared
                    .wake
                    .wait_timeout(waiting, EVERY)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            std::mem::swap(&mut *waiting, &mut batch);
            shared.stop.load(Ordering::SeqCst)
        };
        shared.room.notify_all();
        if !batch.is_empty() {
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(&batch);
            let _ = stderr.flush();
            batch.clear();
        }
        if stopping && shared.lock().is_empty() {
            return;
        }
    }
}
