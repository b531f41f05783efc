//! The open connections of a server and their cap. A connection is idle
//! between requests and busy while one is answered. Past the soft limit
//! (the cap less a reserve) a new connection sheds the oldest idle ones, so a
//! fresh client is still served when idle connections pile up; only when
//! every connection up to the cap is busy is a new one closed at once.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Notify;

/// Every open connection, and the limits they are kept to.
pub struct Connections {
    open: Mutex<Open>,
    next: AtomicU64,
    /// The most connections open at once.
    cap: usize,
    /// Connections kept free for new clients: past `cap - reserve`, idle ones are shed.
    reserve: usize,
    /// Connections shed or refused since the start.
    pub shed: AtomicU64,
}

/// The connections, with the idle ones in the order they became idle, so
/// registering one costs a logarithm of their number, not a walk of them.
#[derive(Default)]
struct Open {
    entries: HashMap<u64, Entry>,
    /// Connections not told to close.
    staying: usize,
    /// The idle connections not told to close, oldest first.
    idle: BTreeSet<(Instant, u64)>,
}

struct Entry {
    busy: usize,
    idle_since: Instant,
    closing: bool,
    close: Arc<Notify>,
}

/// One registered connection; dropping it unregisters it.
pub struct Ticket {
    id: u64,
    owner: Arc<Connections>,
    /// Notified when the connection is to be closed (shed).
    pub close: Arc<Notify>,
}

/// A request in flight on a connection; dropping it makes the connection idle.
pub struct Busy {
    id: u64,
    owner: Arc<Connections>,
}

impl Connections {
    pub fn new(cap: usize, reserve: usize) -> Arc<Connections> {
        Arc::new(Connections {
            open: Mutex::new(Open::default()),
            next: AtomicU64::new(0),
            cap: cap.max(1),
            reserve: reserve.min(cap.saturating_sub(1)),
            shed: AtomicU64::new(0),
        })
    }

    /// How many connections are open (those being closed included).
    pub fn count(&self) -> usize {
        self.lock().entries.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a new connection. Past the soft limit the oldest idle
    /// connections are told to close, as many as make room; `None` when
    /// every connection up to the cap is busy (the new one is to be closed).
    pub fn open(self: &Arc<Self>) -> Option<Ticket> {
        let mut guard = self.lock();
        let open = &mut *guard;
        let soft = self.cap - self.reserve;
        while open.staying >= soft {
            let Some(oldest) = open.idle.pop_first() else {
                break;
            };
            if let Some(e) = open.entries.get_mut(&oldest.1) {
                e.closing = true;
                e.close.notify_one();
                open.staying -= 1;
                self.shed.fetch_add(1, Ordering::Relaxed);
            }
        }
        if open.staying >= self.cap {
            self.shed.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let close = Arc::new(Notify::new());
        let now = Instant::now();
        open.entries.insert(
            id,
            Entry {
                busy: 0,
                idle_since: now,
                closing: false,
                close: close.clone(),
            },
        );
        open.idle.insert((now, id));
        open.staying += 1;
        Some(Ticket {
            id,
            owner: self.clone(),
            close,
        })
    }
}

impl Ticket {
    /// Marks a request in flight until the guard is dropped.
    pub fn busy(&self) -> Busy {
        let mut guard = self.owner.lock();
        let open = &mut *guard;
        if let Some(e) = open.entries.get_mut(&self.id) {
            if e.busy == 0 {
                open.idle.remove(&(e.idle_since, self.id));
            }
            e.busy += 1;
        }
        Busy {
            id: self.id,
            owner: self.owner.clone(),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut guard = self.owner.lock();
        let open = &mut *guard;
        if let Some(e) = open.entries.remove(&self.id) {
            if !e.closing {
                open.staying -= 1;
                open.idle.remove(&(e.idle_since, self.id));
            }
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut guard = self.owner.lock();
        let open = &mut *guard;
        if let Some(e) = open.entries.get_mut(&self.id) {
            e.busy = e.busy.saturating_sub(1);
            if e.busy == 0 {
                e.idle_since = Instant::now();
                if !e.closing {
                    open.idle.insert((e.idle_since, self.id));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_soft_limit_the_oldest_idle_connections_are_shed() {
        let c = Connections::new(4, 1);
        let first = c.open().unwrap();
        let second = c.open().unwrap();
        let third = c.open().unwrap();
        let _working = third.busy();
        // The soft limit (3) is reached: the oldest idle one, `first`, goes.
        let fourth = c.open().unwrap();
        assert_eq!(c.shed.load(Ordering::Relaxed), 1);
        let closing: Vec<bool> = [&first, &second, &third, &fourth]
            .iter()
            .map(|t| c.lock().entries[&t.id].closing)
            .collect();
        assert_eq!(closing, [true, false, false, false]);
        drop(first);
        // All busy up to the cap: a new connection is refused.
        let _b2 = second.busy();
        let _b4 = fourth.busy();
        let fifth = c.open().unwrap();
        let _b5 = fifth.busy();
        assert!(c.open().is_none());
        assert_eq!(c.count(), 4);
    }
}
