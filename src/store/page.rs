//! A page of a list: the bounded request (`page` from 0, `size` 1–100) and
//! the envelope every collection answers with, `{data, page, size, total,
//! more}`; and the one `LIMIT` every page query uses.

use serde::Serialize;

pub const DEFAULT_SIZE: i64 = 25;
pub const MAX_SIZE: i64 = 100;
/// Pages beyond this are bounded to it (the offset stays far from overflow).
pub const MAX_PAGE: i64 = 10_000_000;

/// A bounded page request.
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub page: i64,
    pub size: i64,
}

/// `LIMIT` of every page query. A constant, because a bound LIMIT makes SQLite
/// prepare the statement again on every run; the rows past `size` are never read.
pub const PAGE_LIMIT_SQL: &str = "LIMIT 100";

impl Paging {
    pub fn offset(self) -> i64 {
        self.page * self.size
    }

    /// The page envelope around `data`, given the total count.
    pub fn envelope<T>(self, data: Vec<T>, total: i64) -> Page<T> {
        Page {
            data,
            page: self.page,
            size: self.size,
            total,
            more: self.offset() + self.size < total,
        }
    }
}

/// The envelope of every collection: `{data, page, size, total, more}`.
#[derive(Debug, Serialize)]
pub struct Page<T> {
    pub data: Vec<T>,
    pub page: i64,
    pub size: i64,
    pub total: i64,
    pub more: bool,
}
