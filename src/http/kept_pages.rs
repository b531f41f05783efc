//! Pages of customers kept in memory as the bytes of their answer, each with
//! the count of changes to its company's partners it was read at
//! (`customers::changes`). A request reads that count in its own snapshot
//! and answers the kept bytes only when the count is the same, so it never
//! answers anything the data file no longer says, whichever process wrote;
//! otherwise it reads the page afresh and keeps that. Kept pages take at most
//! `MAX_BYTES`; past that they are all let go and kept anew.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::store::tenant::Tenant;

/// The most bytes of kept pages.
const MAX_BYTES: usize = 16 * 1024 * 1024;

/// Which page: company, environment, page number and size.
type Which = (String, &'static str, i64, i64);

/// The kept pages of one server.
pub struct KeptPages {
    on: bool,
    pages: Mutex<Pages>,
}

#[derive(Default)]
struct Pages {
    by_page: HashMap<Which, (i64, Vec<u8>)>,
    bytes: usize,
}

impl KeptPages {
    /// Pages kept (`on`) or every page read afresh.
    pub fn new(on: bool) -> KeptPages {
        KeptPages {
            on,
            pages: Mutex::new(Pages::default()),
        }
    }

    fn which(tenant: &Tenant, page: i64, size: i64) -> Which {
        (
            tenant.company_id.clone(),
            tenant.environment.as_str(),
            page,
            size,
        )
    }

    /// The bytes of the page kept at `changes`, if any.
    pub fn get(&self, tenant: &Tenant, page: i64, size: i64, changes: i64) -> Option<Vec<u8>> {
        if !self.on {
            return None;
        }
        let pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        match pages.by_page.get(&Self::which(tenant, page, size)) {
            Some((kept_at, body)) if *kept_at == changes => Some(body.clone()),
            _ => None,
        }
    }

    /// Keeps the bytes of a page read at `changes`.
    pub fn keep(&self, tenant: &Tenant, page: i64, size: i64, changes: i64, body: &[u8]) {
        if !self.on || body.len() > MAX_BYTES {
            return;
        }
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        if pages.bytes + body.len() > MAX_BYTES {
            pages.by_page.clear();
            pages.bytes = 0;
        }
        let replaced = pages
            .by_page
            .insert(Self::which(tenant, page, size), (changes, body.to_vec()));
        pages.bytes += body.len();
        if let Some((_, old)) = replaced {
            pages.bytes -= old.len();
        }
    }
}
