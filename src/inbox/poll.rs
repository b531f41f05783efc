//! Polling the mailbox: every message of the folder is fetched, each file
//! it carries handed to the books' `received::receive` (in a transaction
//! of its own, recorded as the system's act, the channel naming the
//! message's Message-ID), and the message moved to `kontor/done` when an
//! e-invoice was in it (received now, or a duplicate of one received
//! before) or to `kontor/refused` when none was. A message whose files
//! could not be stored stays where it is for the next poll. The poller
//! polls at start and then every interval, on a thread of its own, until
//! it is stopped; each poll is counted, and the time of the last one that
//! reached the mailbox kept, for the server's metrics.

use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use super::address::MailboxAddress;
use super::message;
use super::session::{ImapSession, DONE, REFUSED};
use crate::books::audit::Actor;
use crate::books::received::{self, Channel, Incoming};
use crate::books::tenancy;
use crate::error::{Error, Result};
use crate::store::db::Db;
use crate::store::tenant::Environment;

/// A mailbox to poll and the books its e-invoices go to.
#[derive(Clone)]
pub struct Mailbox {
    pub address: MailboxAddress,
    pub password: String,
    pub ca_file: Option<PathBuf>,
    /// The company (its id) whose bills these are.
    pub company: String,
    pub environment: Environment,
    pub interval: Duration,
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mailbox({} for {})", self.address.shown(), self.company)
    }
}

/// What one poll did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Polled {
    pub messages: usize,
    /// Bills kept from the messages' files.
    pub received: usize,
    pub done: usize,
    pub refused: usize,
    /// Messages left for the next poll.
    pub left: usize,
}

/// Polls the mailbox once.
///
/// Fails with `Refused` when the mailbox cannot be reached, logged into or
/// opened, and on a storage error before any message is handled.
pub fn poll(db: &Db, mailbox: &Mailbox) -> Result<Polled> {
    // The company must exist before anything is fetched.
    db.read(|conn| tenancy::tenant(conn, &mailbox.company, mailbox.environment).map(|_| ()))?;
    let mut session = ImapSession::open(
        &mailbox.address,
        &mailbox.password,
        mailbox.ca_file.as_deref(),
    )?;
    let mut polled = Polled::default();
    for uid in session.messages()? {
        polled.messages += 1;
        let Some(raw) = session.fetch(uid)? else {
            // Too large to be an e-invoice's message.
            session.file(uid, REFUSED)?;
            polled.refused += 1;
            continue;
        };
        let message = message::parse(&raw);
        let mut invoices = 0;
        let mut failed = false;
        for file in &message.files {
            let receipt = db.write(|tx| {
                let t = tenancy::tenant(tx, &mailbox.company, mailbox.environment)?;
                received::receive(
                    tx,
                    &t,
                    &Actor::System,
                    &Incoming {
                        file_name: &file.name,
                        bytes: &file.bytes,
                        channel: Channel::Mailbox,
                        channel_ref: message.id.as_deref(),
                    },
                )
            });
            match receipt {
                Ok(r) if r.state == "received" => {
                    invoices += 1;
                    polled.received += 1;
                }
                Ok(r) if r.state == "duplicate" => invoices += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "a mailbox message's file could not be stored; it stays for the next poll");
                    failed = true;
                }
            }
        }
        if failed {
            polled.left += 1;
            continue;
        }
        if invoices > 0 {
            session.file(uid, DONE)?;
            polled.done += 1;
        } else {
            session.file(uid, REFUSED)?;
            polled.refused += 1;
        }
    }
    session.close();
    Ok(polled)
}

/// The poller's thread.
pub struct Poller {
    stop: mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Poller {
    /// Starts polling `mailbox` into `db`: at once, then every interval.
    ///
    /// Fails only when the thread cannot be started.
    pub fn start(db: Arc<Db>, mailbox: Mailbox) -> Result<Poller> {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("kontor-inbox".into())
            .spawn(move || loop {
                match poll(&db, &mailbox) {
                    Ok(p) => {
                        tracing::info!(
                            mailbox = %mailbox.address.shown(),
                            messages = p.messages,
                            received = p.received,
                            done = p.done,
                            refused = p.refused,
                            left = p.left,
                            "mailbox polled"
                        );
                        metrics::counter!("kontor_inbox_polls_total", "outcome" => "polled")
                            .increment(1);
                        metrics::gauge!("kontor_inbox_last_poll_timestamp_seconds")
                            .set(jiff::Timestamp::now().as_millisecond() as f64 / 1000.0);
                    }
                    Err(e) => {
                        tracing::warn!(mailbox = %mailbox.address.shown(), error = %e, "mailbox not polled");
                        metrics::counter!("kontor_inbox_polls_total", "outcome" => "failed")
                            .increment(1);
                    }
                }
                match stopped.recv_timeout(mailbox.interval) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            })
            .map_err(Error::internal)?;
        Ok(Poller {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops polling after the poll under way, if any.
    pub fn stop(&mut self) {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop();
    }
}
