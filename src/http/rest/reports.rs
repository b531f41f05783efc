//! `/v1/reports/outstanding`: open receivables and payables as of a day.

use super::call::{Call, Reply};
use crate::books::report;
use crate::error::Result;

/// GET /v1/reports/outstanding (`asOf`, default today in the company's time zone)
pub fn outstanding(call: &Call) -> Result<Reply> {
    let as_of = call.query.get("asOf");
    Ok(Reply::ok(&report::outstanding(
        call.conn,
        call.tenant(),
        as_of,
    )?))
}
