//! What a page handler of a signed-in screen is given (`Ctx`): the server,
//! the request's connection (inside one read snapshot for a GET), the
//! visit, its session and language, the query and the form; and what it
//! asks of them: the person acting, whether their role may do a thing, what
//! a field was typed as (a yes-or-no field too), the list's paging, the
//! sentence confirming what an act just did, and the write of an act that
//! has no form.

use rusqlite::Connection;

use crate::access::people::Capability;
use crate::access::sessions::Session;
use crate::books::audit::Actor;
use crate::error::{Error, Result};
use crate::http::app::App;
use crate::http::multipart::Part;
use crate::http::query::Query;
use crate::http::screens::visit::Visit;
use crate::rules::locale::Lang;
use crate::rules::text::Patch;
use crate::store::db::Tx;
use crate::store::paging::{Paging, DEFAULT_SIZE};

/// What a page handler has: the server, the request, its session, its language.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub conn: &'a Connection,
    pub visit: &'a Visit,
    pub session: &'a Session,
    pub lang: Lang,
    pub query: Query,
    pub form: Query,
    /// The files of a multipart upload (none for any other form).
    pub files: Vec<Part>,
}

impl Ctx<'_> {
    /// The person acting, as every books act takes them for its audit row.
    pub fn actor(&self) -> Actor {
        Actor::Person {
            id: self.session.person.id.clone(),
            email: self.session.person.email.clone(),
        }
    }

    /// Whether the session's role may do `what`.
    pub fn may(&self, what: Capability) -> bool {
        self.session.role.may(what)
    }

    /// Refuses unless the session's role may act on the books.
    ///
    /// Fails with `Forbidden`.
    pub fn must(&self, what: Capability) -> Result<()> {
        if self.may(what) {
            Ok(())
        } else {
            Err(Error::Forbidden)
        }
    }

    /// What the form sent for `field`, as typed (empty when not sent): what
    /// a refused form shows again.
    pub fn typed(&self, field: &str) -> String {
        self.form.sent(field).unwrap_or("").to_string()
    }

    /// A field of a change as the form sent it: not sent, it stays as it
    /// is; sent empty, it is cleared; else its text, trimmed.
    pub fn patch(&self, field: &str) -> Patch<String> {
        match self.form.sent(field).map(str::trim) {
            None => Patch::Absent,
            Some("") => Patch::Null,
            Some(text) => Patch::Value(text.to_string()),
        }
    }

    /// A yes-or-no field as the form sent it (`Form::yes_no`): `yes` ticked,
    /// `no` left unticked, `None` when the form had no such field.
    pub fn yes_no(&self, field: &str) -> Option<bool> {
        let sent = self.form.all(field);
        if sent.contains(&"yes") {
            Some(true)
        } else if sent.contains(&"no") {
            Some(false)
        } else {
            None
        }
    }

    /// The page of a list the query asks for (`page`, `size`); the first
    /// page of the usual size when it does not read.
    pub fn paging(&self) -> Paging {
        self.query.paging().unwrap_or(Paging {
            page: 0,
            size: DEFAULT_SIZE,
        })
    }

    /// The sentence that confirms what was just done: the query's `key`
    /// (an act sends the person back with it, as `?done=saved`) looked up
    /// among `notices`, each that value and the sentence in English and in
    /// German; `None` for no value or another.
    pub fn notice(
        &self,
        key: &str,
        notices: &[(&str, &'static str, &'static str)],
    ) -> Option<&'static str> {
        let done = self.query.get(key)?;
        let (_, en, de) = notices.iter().find(|(value, ..)| *value == done)?;
        Some(self.lang.pick(en, de))
    }

    /// An act without a form to show a refusal beside (a button): the
    /// books' act (which records its audit row), run in one transaction.
    ///
    /// Fails with what `act` fails with; the screens answer it with a page
    /// of its own.
    pub fn write<T>(&self, act: impl FnOnce(&Tx) -> Result<T>) -> Result<T> {
        self.app.db.write(act)
    }
}
