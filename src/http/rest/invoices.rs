//! `/v1/invoices`: the list of issued documents (`status`, `from`, `to`) and
//! one document by its number, and the e-invoice files stored at issue.

use super::call::{Call, Reply};
use crate::books::invoices::{self, documents, Filter, FilterInput, Status};
use crate::documents::Format;
use crate::error::Result;

/// GET /v1/invoices; an unreadable `status` means no status filter (api.md §4).
pub fn list(call: &Call) -> Result<Reply> {
    let q = call.query;
    let paging = q.paging()?;
    let filter = Filter::check(FilterInput {
        status: q.get("status").and_then(Status::named),
        from: q.get("from").map(str::to_string),
        to: q.get("to").map(str::to_string),
        search: None,
    })?;
    Ok(Reply::ok(&invoices::list(
        call.conn,
        call.tenant(),
        filter,
        paging,
    )?))
}

/// GET /v1/invoices/{number}; the router has percent-decoded the segment, so
/// a number with `/` arrives whole (`RE%2F2026%2F7` → `RE/2026/7`).
pub fn get(call: &Call, number: &str) -> Result<Reply> {
    Ok(Reply::ok(&invoices::get(call.conn, call.tenant(), number)?))
}

/// GET /v1/invoices/{number}/document?format=facturx|cii|xrechnung|peppol:
/// the file stored at issue, unchanged, its SHA-256 as the ETag.
pub fn document(call: &Call, number: &str) -> Result<Reply> {
    let format = Format::named(call.query.get("format"))?;
    let stored = documents::get(call.conn, call.tenant(), number, format)?;
    Ok(Reply::file(
        format.media_type(),
        stored.content,
        vec![
            (
                "Content-Disposition",
                format!(
                    "attachment; filename=\"{}\"",
                    documents::file_name(number, format)
                ),
            ),
            ("ETag", format!("\"{}\"", stored.sha256)),
        ],
    ))
}
