//! Who may use the pooled connections: a request first takes a permit of its
//! company's share (one company and environment holds at most half of the
//! connections at once), then a permit of the pool, both waited for without
//! holding a thread. A request that gets neither within 100 ms is told the
//! server is busy. So a blocking thread is only ever given a request that
//! has a connection waiting for it, and one company's burst of slow reads
//! can neither take every connection nor queue up the threads the others
//! need.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::{Error, Result};
use crate::store::tenant::{Environment, Tenant};

/// How long a request waits for its share and a connection before it is
/// told the server is busy.
pub const WAIT: Duration = Duration::from_millis(100);

/// The shares of the pool's connections.
pub struct Shares {
    tenants: Mutex<HashMap<(String, Environment), Arc<Semaphore>>>,
    pool: Arc<Semaphore>,
    /// The most one tenant may hold.
    limit: usize,
    enabled: AtomicBool,
}

/// The right to one pooled connection, within a tenant's share; dropping it
/// gives both back.
pub struct Admission {
    _tenant: Option<OwnedSemaphorePermit>,
    _pool: OwnedSemaphorePermit,
}

impl Shares {
    /// Shares of a pool of `pool` connections: at most half each (at least one).
    pub fn new(pool: usize) -> Shares {
        Shares {
            tenants: Mutex::new(HashMap::new()),
            pool: Arc::new(Semaphore::new(pool.max(1))),
            limit: (pool / 2).max(1),
            enabled: AtomicBool::new(true),
        }
    }

    /// Turns the per-tenant limit on or off (off: a tenant may hold every
    /// connection; the pool's own limit stays).
    pub fn enable(&self, on: bool) {
        self.enabled.store(on, Ordering::SeqCst);
    }

    /// The semaphore of `tenant`'s share, when shares are on.
    fn share_of(&self, tenant: Option<&Tenant>) -> Option<Arc<Semaphore>> {
        let tenant = tenant.filter(|_| self.enabled.load(Ordering::SeqCst))?;
        let mut tenants = self.tenants.lock().unwrap_or_else(|p| p.into_inner());
        let share = tenants
            .entry((tenant.company_id.clone(), tenant.environment))
            .or_insert_with(|| Arc::new(Semaphore::new(self.limit)));
        Some(share.clone())
    }

    /// Waits (at most `WAIT` in all) for a permit of `tenant`'s share (none
    /// for a request of nobody known yet) and then one of the pool. A wait
    /// is counted (`kontor_pool_waits_total`), with how long it took or
    /// that it ran out.
    ///
    /// Fails with `Busy` when either does not come in time.
    pub async fn admit(&self, tenant: Option<&Tenant>) -> Result<Admission> {
        if let Some(admission) = self.try_admit(tenant) {
            return Ok(admission);
        }
        metrics::counter!("kontor_pool_waits_total").increment(1);
        let started = std::time::Instant::now();
        let waited = self.wait_for(tenant).await;
        match &waited {
            Ok(_) => metrics::histogram!("kontor_pool_wait_seconds")
                .record(started.elapsed().as_secs_f64()),
            Err(Error::Busy) => metrics::counter!("kontor_pool_busy_total").increment(1),
            Err(_) => {}
        }
        waited
    }

    /// `admit`'s wait for both permits, `WAIT` at most.
    async fn wait_for(&self, tenant: Option<&Tenant>) -> Result<Admission> {
        let deadline = tokio::time::Instant::now() + WAIT;
        let tenant = match self.share_of(tenant) {
            Some(share) => Some(
                tokio::time::timeout_at(deadline, share.acquire_owned())
                    .await
                    .map_err(|_| Error::Busy)?
                    .map_err(Error::internal)?,
            ),
            None => None,
        };
        let pool = tokio::time::timeout_at(deadline, self.pool.clone().acquire_owned())
            .await
            .map_err(|_| Error::Busy)?
            .map_err(Error::internal)?;
        Ok(Admission {
            _tenant: tenant,
            _pool: pool,
        })
    }

    /// The permits at once, if both are free now.
    pub fn try_admit(&self, tenant: Option<&Tenant>) -> Option<Admission> {
        let tenant = match self.share_of(tenant) {
            Some(share) => Some(share.try_acquire_owned().ok()?),
            None => None,
        };
        let pool = self.pool.clone().try_acquire_owned().ok()?;
        Some(Admission {
            _tenant: tenant,
            _pool: pool,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_tenant_holds_at_most_half_and_waits_then_is_busy() {
        let shares = Shares::new(4);
        let a = Tenant::new("org_a", Environment::Production);
        let b = Tenant::new("org_b", Environment::Production);
        let first = shares.admit(Some(&a)).await.unwrap();
        let _second = shares.admit(Some(&a)).await.unwrap();
        let started = std::time::Instant::now();
        assert!(matches!(shares.admit(Some(&a)).await, Err(Error::Busy)));
        assert!(started.elapsed() >= WAIT);
        assert!(shares.try_admit(Some(&a)).is_none());
        // Another tenant, or the same in the other environment, has its own
        // share, within the pool (4).
        let _other = shares.admit(Some(&b)).await.unwrap();
        let sandbox = Tenant::new("org_a", Environment::Sandbox);
        let _sandboxed = shares.admit(Some(&sandbox)).await.unwrap();
        // The pool is full now: even a fresh tenant waits, then is busy.
        let c = Tenant::new("org_c", Environment::Production);
        assert!(matches!(shares.admit(Some(&c)).await, Err(Error::Busy)));
        // A permit given back within the wait goes to the waiter.
        let giving_back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(first);
        });
        let late = shares.admit(Some(&c)).await;
        assert!(late.is_ok());
        giving_back.await.unwrap();
        assert!(shares.try_admit(Some(&a)).is_none());
    }

    #[tokio::test]
    async fn without_shares_one_tenant_may_take_the_whole_pool() {
        let shares = Shares::new(4);
        shares.enable(false);
        let a = Tenant::new("org_a", Environment::Production);
        let all: Vec<_> = (0..4)
            .map(|_| shares.try_admit(Some(&a)).unwrap())
            .collect();
        assert!(shares.try_admit(Some(&a)).is_none());
        drop(all);
        assert!(shares.try_admit(None).is_some());
    }
}
