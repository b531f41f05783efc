//! The first three checks of decisions §2 (key → plan → rate budget) that
//! every request to `/v1` and `/mcp` passes before its surface reads it:
//! from the keys kept in memory (`admit_kept`), or, on a key's first use,
//! from the data file (`admit_stored`); then, in the request's snapshot, the
//! key confirmed (`with_key_confirmed`). A refusal is answered with the
//! rate headers when the key was known. Synchronous.

use rusqlite::Connection;

use crate::access::budget::Allowance;
use crate::access::keys::{self, AuthedKey, Lookup};
use crate::error::Error;
use crate::http::app::{rate_headers, refusal, snapshot, Answer, App, Request};
use crate::rules::locale::Lang;

/// A request whose key passed the first three checks, with its bucket's allowance.
pub struct Admitted {
    pub key: AuthedKey,
    pub allowance: Allowance,
}

/// A request turned away by the first three checks, with the key's id and
/// bucket when it had a valid key, and the language its answer is in.
pub struct Turned {
    pub error: Error,
    pub key: Option<(String, Allowance)>,
    pub lang: Lang,
}

impl Turned {
    /// The REST answer to this refusal (with the rate headers when a key was known).
    pub fn answer(self) -> Answer {
        match self.key {
            Some((key_id, allowance)) => refusal(
                &self.error,
                self.lang,
                rate_headers(&allowance),
                Some(key_id),
            ),
            None => refusal(&self.error, self.lang, Vec::new(), None),
        }
    }
}

/// What the keys kept in memory say of a request.
pub enum Gate {
    /// The kept key passed the first three checks.
    Passed(Admitted),
    /// Refused without asking the data file.
    Turned(Turned),
    /// The key is not kept: `admit_stored` must read it.
    Unknown,
}

/// The `Authorization` value of a request: none when the header came twice
/// (two keys are no readable key, the contract's one answer for that).
fn authorization(req: &Request) -> Option<&str> {
    if req.repeated.contains(&"authorization") {
        None
    } else {
        req.authorization.as_deref()
    }
}

/// The first three checks of decisions §2 (key, plan, rate budget) from the
/// keys kept in memory, without touching the data file. Shared by REST and
/// the agent server; `confirm` completes the key check in the request's
/// snapshot.
pub fn admit_kept(app: &App, req: &Request) -> Gate {
    match app.keys.lookup(authorization(req)) {
        // A plan kept as lacking the API may have changed since: the data
        // file decides (the plan's refusal takes no token, so no budget
        // stops a flood of them; they are cheap reads).
        Lookup::Known(key) if !key.plan.includes_api() => Gate::Unknown,
        Lookup::Known(key) => match pass(app, req, *key) {
            Ok(admitted) => Gate::Passed(admitted),
            Err(turned) => Gate::Turned(turned),
        },
        Lookup::Refused => Gate::Turned(keyless(req, Error::Unauthenticated)),
        Lookup::Unknown => Gate::Unknown,
    }
}

/// The first three checks with the key read from the data file (and kept).
///
/// Fails with `Unauthenticated`, `PlanRequired` or `RateLimited` (the last two
/// with the key and its rate headers, so the answer can carry them).
pub fn admit_stored(
    app: &App,
    conn: &Connection,
    req: &Request,
) -> std::result::Result<Admitted, Turned> {
    let key = load(app, conn, req)?;
    pass(app, req, key)
}

/// A refusal before a key is known, in the request's language.
fn keyless(req: &Request, error: Error) -> Turned {
    Turned {
        error,
        key: None,
        lang: req.lang,
    }
}

/// The request's key read from the data file.
///
/// Fails with `Unauthenticated` (or a storage error), as `Turned`.
fn load(app: &App, conn: &Connection, req: &Request) -> std::result::Result<AuthedKey, Turned> {
    app.keys
        .load(conn, authorization(req))
        .map_err(|e| keyless(req, e))
}

/// The plan and the rate budget of an authenticated key; notes its use.
fn pass(app: &App, req: &Request, mut key: AuthedKey) -> std::result::Result<Admitted, Turned> {
    keys::note_use(&app.usage, &mut key);
    if !key.plan.includes_api() {
        let allowance = app.limiter.check(&key.id, false);
        return Err(Turned {
            error: Error::PlanRequired,
            key: Some((key.id, allowance)),
            lang: req.lang,
        });
    }
    let allowance = app.limiter.check(&key.id, true);
    if !allowance.allowed {
        let wait_seconds = allowance.retry_after_seconds;
        return Err(Turned {
            error: Error::RateLimited { wait_seconds },
            key: Some((key.id, allowance)),
            lang: req.lang,
        });
    }
    Ok(Admitted { key, allowance })
}

/// In the request's snapshot: the kept key still holds when the keys'
/// generation has not moved; when it has, the key is read afresh and must
/// still be usable and its company on the plan (its token is spent already).
///
/// Fails with `Unauthenticated` or `PlanRequired` when it no longer is.
pub fn confirm(
    app: &App,
    conn: &Connection,
    req: &Request,
    admitted: Admitted,
) -> std::result::Result<Admitted, Turned> {
    let current = app.keys.current(conn).map_err(|e| keyless(req, e))?;
    if current {
        return Ok(admitted);
    }
    let mut key = load(app, conn, req)?;
    key.last_used_at = admitted.key.last_used_at;
    if !key.plan.includes_api() {
        return Err(Turned {
            error: Error::PlanRequired,
            key: Some((key.id, admitted.allowance)),
            lang: req.lang,
        });
    }
    Ok(Admitted {
        key,
        allowance: admitted.allowance,
    })
}

/// Runs the part of an admitted request that touches the data file on
/// `conn` (taken within the company's share): one snapshot when it only
/// `reads`, the key confirmed in it, then `handler`. `refused` renders a
/// refusal of the key.
pub fn with_key_confirmed(
    app: &App,
    conn: &Connection,
    req: &Request,
    admitted: Admitted,
    reads: bool,
    refused: fn(Turned) -> Answer,
    handler: impl FnOnce(&Connection, Admitted) -> Answer,
) -> Answer {
    let _snapshot = match snapshot(conn, reads) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            return refusal(
                &e,
                req.lang,
                rate_headers(&admitted.allowance),
                Some(admitted.key.id),
            )
        }
    };
    match confirm(app, conn, req, admitted) {
        Ok(admitted) => handler(conn, admitted),
        Err(turned) => refused(turned),
    }
}
