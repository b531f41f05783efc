//! A trial balance read back by ledger account: its rows are the chart's
//! accounts (by number), each with the ledger accounts and details its
//! postings came from; a test of an act asks what the act posted to a
//! ledger account (and tax key or bank account) across every chart account.

use serde_json::Value;

/// The (debit, credit) each detail of `tb` holds, for every row whose
/// ledger account is `ledger` and whose detail `detail` accepts.
fn summed(tb: &Value, ledger: &str, detail: &dyn Fn(&str) -> bool) -> Option<(i64, i64)> {
    let mut found = None;
    for row in tb["accounts"]
        .as_array()
        .expect("a trial balance's accounts")
    {
        for d in row["details"].as_array().into_iter().flatten() {
            if d["ledger"] == ledger && detail(d["detail"].as_str().unwrap_or("")) {
                let (debit, credit) = found.unwrap_or((0, 0));
                found = Some((
                    debit + d["debit"].as_i64().unwrap(),
                    credit + d["credit"].as_i64().unwrap(),
                ));
            }
        }
    }
    found
}

/// Everything posted to the ledger account `ledger`: (debit, credit);
/// none when nothing was.
pub fn ledger(tb: &Value, ledger: &str) -> Option<(i64, i64)> {
    summed(tb, ledger, &|_| true)
}

/// What was posted to `ledger` under the detail `detail` (a tax key, a
/// bank account's id).
pub fn detail(tb: &Value, ledger: &str, detail: &str) -> Option<(i64, i64)> {
    summed(tb, ledger, &|d| d == detail)
}

/// The row of the chart account `key` (`rent`, `revenue_19`).
pub fn row<'a>(tb: &'a Value, key: &str) -> Option<&'a Value> {
    tb["accounts"]
        .as_array()
        .expect("a trial balance's accounts")
        .iter()
        .find(|a| a["account"] == key)
}
