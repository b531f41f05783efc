//! A page of a list: the bounded request (`page` from 0, `size` 1–100) and
//! the envelope every collection answers with, `{data, page, size, total,
//! more}`; and the one `LIMIT` every page query uses. One rule for every
//! surface (REST's `page`/`size`, the agent tools' `limit`/`cursor`, the
//! screens): out-of-range values are bounded, not refused, as the
//! contract says of REST (`api.md`, Endpoints, rule 5).

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
    /// A page request bounded by the one rule: `page` from 0 to
    /// `MAX_PAGE`, `size` from 1 to `MAX_SIZE`, `DEFAULT_SIZE` when none is given.
    pub fn bounded(page: Option<i64>, size: Option<i64>) -> Paging {
        Paging {
            page: page.unwrap_or(0).clamp(0, MAX_PAGE),
            size: size.unwrap_or(DEFAULT_SIZE).clamp(1, MAX_SIZE),
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_bounded_and_the_limit_is_the_largest_size() {
        let p = Paging::bounded(None, None);
        assert_eq!((p.page, p.size), (0, DEFAULT_SIZE));
        let p = Paging::bounded(Some(-3), Some(0));
        assert_eq!((p.page, p.size), (0, 1));
        let p = Paging::bounded(Some(i64::MAX), Some(500));
        assert_eq!((p.page, p.size), (MAX_PAGE, MAX_SIZE));
        assert_eq!(PAGE_LIMIT_SQL, format!("LIMIT {MAX_SIZE}"));
    }
}
