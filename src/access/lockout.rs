//! Failed sign-ins and the waits they earn: 5 failures for one (account,
//! client address) within 15 minutes make that pair wait 15 minutes; 20
//! failures from one client address make the address wait likewise. Kept in
//! memory (a restart forgets them), bounded, and pruned as it goes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window failures are counted in, and the wait they earn.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Failures of one account from one address that earn a wait.
pub const PER_PAIR: usize = 5;
/// Failures from one address (any accounts) that earn a wait.
pub const PER_ADDRESS: usize = 20;
/// Pairs and addresses kept at most; past it the stale ones go first, then all.
const MAX_KEPT: usize = 100_000;

#[derive(Default)]
struct Failures {
    pairs: HashMap<(String, IpAddr), Vec<Instant>>,
    addresses: HashMap<IpAddr, Vec<Instant>>,
}

/// The failed sign-ins of one server.
#[derive(Default)]
pub struct Lockout {
    failures: Mutex<Failures>,
}

/// How long is still to wait, if the `failures` (oldest first) earn a wait.
fn wait_of(failures: &[Instant], limit: usize, now: Instant) -> Option<Duration> {
    let recent: Vec<&Instant> = failures
        .iter()
        .filter(|at| now.duration_since(**at) < WINDOW)
        .collect();
    if recent.len() < limit {
        return None;
    }
    let last = recent.last()?;
    WINDOW.checked_sub(now.duration_since(**last))
}

fn prune(list: &mut Vec<Instant>, now: Instant) {
    list.retain(|at| now.duration_since(*at) < WINDOW);
}

impl Lockout {
    /// How long `account` (an e-mail address, as typed) must still wait from
    /// `address`, if at all.
    pub fn wait(&self, account: &str, address: IpAddr, now: Instant) -> Option<Duration> {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let pair = failures
            .pairs
            .get(&(account.trim().to_lowercase(), address))
            .and_then(|f| wait_of(f, PER_PAIR, now));
        let whole = failures
            .addresses
            .get(&address)
            .and_then(|f| wait_of(f, PER_ADDRESS, now));
        pair.max(whole)
    }

    /// Notes a failed sign-in.
    pub fn fail(&self, account: &str, address: IpAddr, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.pairs.len() + failures.addresses.len() > MAX_KEPT {
            failures.pairs.retain(|_, f| {
                prune(f, now);
                !f.is_empty()
            });
            failures.addresses.retain(|_, f| {
                prune(f, now);
                !f.is_empty()
            });
            if failures.pairs.len() + failures.addresses.len() > MAX_KEPT {
                *failures = Failures::default();
            }
        }
        let pair = failures
            .pairs
            .entry((account.trim().to_lowercase(), address))
            .or_default();
        prune(pair, now);
        pair.push(now);
        let whole = failures.addresses.entry(address).or_default();
        prune(whole, now);
        whole.push(now);
    }

    /// Forgets every failure of an account, from any address (its password
    /// was just reset through a link its owner made).
    pub fn forget_account(&self, account: &str) {
        let account = account.trim().to_lowercase();
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.pairs.retain(|(a, _), _| *a != account);
    }

    /// Forgets the failures of a pair after a successful sign-in.
    pub fn succeed(&self, account: &str, address: IpAddr) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures
            .pairs
            .remove(&(account.trim().to_lowercase(), address));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_of_a_pair_and_twenty_of_an_address_earn_a_wait() {
        let lockout = Lockout::default();
        let t0 = Instant::now();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        for i in 0..4 {
            lockout.fail("Ann@x.de", a, t0 + Duration::from_secs(i));
        }
        assert_eq!(
            lockout.wait("ann@x.de", a, t0 + Duration::from_secs(5)),
            None
        );
        lockout.fail("ann@x.de", a, t0 + Duration::from_secs(5));
        let at = t0 + Duration::from_secs(6);
        assert_eq!(
            lockout.wait("ann@x.de", a, at),
            Some(WINDOW - Duration::from_secs(1))
        );
        // Another address, or another account, is not held.
        assert_eq!(lockout.wait("ann@x.de", b, at), None);
        assert_eq!(lockout.wait("bob@x.de", a, at), None);
        // The wait ends 15 minutes after the last failure.
        assert!(lockout
            .wait("ann@x.de", a, t0 + Duration::from_secs(5) + WINDOW)
            .is_none());
        // Twenty failures from one address, over many accounts, hold the address.
        for i in 0..20 {
            lockout.fail(&format!("p{i}@x.de"), b, t0 + Duration::from_secs(10));
        }
        assert!(lockout
            .wait("someone@x.de", b, t0 + Duration::from_secs(11))
            .is_some());
        lockout.succeed("ann@x.de", a);
        assert_eq!(lockout.wait("ann@x.de", a, at), None);
        // A reset forgets the account's failures from every address.
        for i in 0..5 {
            lockout.fail("ann@x.de", a, t0 + Duration::from_secs(20 + i));
        }
        assert!(lockout
            .wait("ann@x.de", a, t0 + Duration::from_secs(30))
            .is_some());
        lockout.forget_account("Ann@X.de ");
        assert_eq!(
            lockout.wait("ann@x.de", a, t0 + Duration::from_secs(30)),
            None
        );
    }
}
