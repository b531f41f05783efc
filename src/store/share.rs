//! A company's share of the pooled connections: one company and environment
//! holds at most half of them at once, so its slow reads cannot take every
//! connection from the others. A request past its share waits a little for
//! one of its own to finish, then is told the server is busy.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::store::tenant::{Environment, Tenant};

/// How many connections each tenant holds now.
pub struct Shares {
    held: Mutex<HashMap<(String, Environment), usize>>,
    freed: Condvar,
    /// The most one tenant may hold.
    limit: usize,
    enabled: AtomicBool,
}

/// One connection held by a tenant; dropping it gives the slot back.
pub struct Share<'a> {
    shares: &'a Shares,
    tenant: (String, Environment),
}

impl Shares {
    /// Shares of a pool of `pool` connections: at most half each (at least one).
    pub fn new(pool: usize) -> Shares {
        Shares {
            held: Mutex::new(HashMap::new()),
            freed: Condvar::new(),
            limit: (pool / 2).max(1),
            enabled: AtomicBool::new(true),
        }
    }

    /// Turns the limit on or off (off: a tenant may hold every connection).
    pub fn enable(&self, on: bool) {
        self.enabled.store(on, Ordering::SeqCst);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, Environment), usize>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a slot of `tenant`'s share, waiting until `deadline` for one.
    ///
    /// Fails with `Busy` when the tenant's share stays full until then.
    pub fn take(&self, tenant: &Tenant, deadline: Instant) -> Result<Share<'_>> {
        let key = (tenant.company_id.clone(), tenant.environment);
        let mut held = self.lock();
        loop {
            let now_held = held.get(&key).copied().unwrap_or(0);
            if !self.enabled.load(Ordering::SeqCst) || now_held < self.limit {
                held.insert(key.clone(), now_held + 1);
                return Ok(Share {
                    shares: self,
                    tenant: key,
                });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Error::Busy);
            }
            held = self
                .freed
                .wait_timeout(held, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for Share<'_> {
    fn drop(&mut self) {
        let mut held = self.shares.lock();
        if let Some(n) = held.get_mut(&self.tenant) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.tenant);
            }
        }
        self.shares.freed.notify_all();
    }
}

/// How long a request waits for a connection, or a slot of its share, before
/// it is told the server is busy.
pub const WAIT: Duration = Duration::from_millis(100);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tenant_holds_at_most_half_and_waits_then_is_busy() {
        let shares = Shares::new(4);
        let a = Tenant::new("org_a", Environment::Production);
        let b = Tenant::new("org_b", Environment::Production);
        let soon = || Instant::now() + Duration::from_millis(20);
        let first = shares.take(&a, soon()).unwrap();
        let _second = shares.take(&a, soon()).unwrap();
        assert!(matches!(shares.take(&a, soon()), Err(Error::Busy)));
        // Another tenant, or the same in the other environment, has its own share.
        let _other = shares.take(&b, soon()).unwrap();
        let sandbox = Tenant::new("org_a", Environment::Sandbox);
        let _sandboxed = shares.take(&sandbox, soon()).unwrap();
        drop(first);
        assert!(shares.take(&a, soon()).is_ok());
        shares.enable(false);
        let _many: Vec<_> = (0..5).map(|_| shares.take(&a, soon()).unwrap()).collect();
    }
}
