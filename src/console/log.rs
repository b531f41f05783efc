//! The server's log: one line per event on stderr, written by a background
//! thread so a request never waits for the terminal or a pipe. Lossless: when
//! the buffer (128,000 lines) is full, the writer of the next line waits.

use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};

/// Starts the log; the lines still buffered are written when the returned
/// guard is dropped, so keep it until the server has stopped.
pub fn start() -> WorkerGuard {
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("kontor-log")
        .finish(std::io::stderr());
    // A second start (a test running several servers) keeps the first log.
    let _ = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_target(false)
        .with_ansi(false)
        .try_init();
    guard
}
