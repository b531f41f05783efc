//! What a REST handler is given and gives back: the `Call` (one
//! authenticated, permitted request with its connection, key, query and
//! body, and the idempotent creation every POST goes through) and the
//! `Reply` (status, serialised body, extra headers). Every resource's file
//! and the route table read this file; it names none of them.

use hyper::Method;
use rusqlite::Connection;
use serde::Serialize;

use crate::access::idempotency::{self, Outcome};
use crate::access::keys::AuthedKey;
use crate::books::audit::Actor;
use crate::error::said::Access;
use crate::error::{Error, Result};
use crate::http::app::{json_bytes, App};
use crate::http::fields::{self, JsonFields};
use crate::http::query::Query;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// A handler's successful result, its body already serialised.
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    pub replayed: bool,
    /// Headers besides the JSON default (a file's type, name and ETag).
    pub headers: Vec<(&'static str, String)>,
}

impl Reply {
    pub fn ok(body: &impl Serialize) -> Reply {
        Reply::json(json_bytes(body))
    }

    /// 200 with JSON bytes made before.
    pub fn json(body: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            body,
            replayed: false,
            headers: Vec::new(),
        }
    }

    /// A file: its bytes as they are, with its content type and `headers`.
    pub fn file(
        content_type: &'static str,
        body: Vec<u8>,
        mut headers: Vec<(&'static str, String)>,
    ) -> Reply {
        headers.push(("Content-Type", content_type.to_string()));
        Reply {
            status: 200,
            body,
            replayed: false,
            headers,
        }
    }
}

impl<T: Serialize> From<Outcome<T>> for Reply {
    fn from(o: Outcome<T>) -> Reply {
        Reply {
            status: o.status,
            body: json_bytes(&o.body),
            replayed: o.replayed,
            headers: Vec::new(),
        }
    }
}

/// One authenticated, permitted call, handed to a resource's handler.
pub struct Call<'a> {
    pub app: &'a App,
    /// The request's read connection; for a GET, inside one read transaction,
    /// so every read of the handler sees one snapshot.
    pub conn: &'a Connection,
    pub key: &'a AuthedKey,
    pub method: &'a Method,
    pub path: &'a str,
    pub query: &'a Query,
    pub body: &'a [u8],
    pub(super) idempotency_key: Option<&'a str>,
    /// Whether the Idempotency-Key header came more than once.
    pub(super) idempotency_key_repeated: bool,
}

impl Call<'_> {
    pub fn tenant(&self) -> &Tenant {
        &self.key.tenant
    }

    /// Creates a record once per Idempotency-Key: 201 with the record read
    /// back, or the replay of the first answer. `create` writes in the key's
    /// company as the key (its actor) and returns the new id; `read` reads
    /// it back in the key's company.
    ///
    /// Fails with what `create` or `read` fail with, or `IdempotencyConflict`.
    pub fn create_once<T: Serialize>(
        &self,
        key: &str,
        fingerprint: &str,
        create: impl FnOnce(&Tx, &Tenant, &Actor) -> Result<String>,
        read: impl Fn(&Connection, &Tenant, &str) -> Result<T>,
    ) -> Result<Reply> {
        self.act_once(key, fingerprint, 201, create, read)
    }

    /// Like `create_once`, answering `status` (202 for work accepted).
    ///
    /// Fails with what `create` or `read` fail with, or `IdempotencyConflict`.
    pub fn act_once<T: Serialize>(
        &self,
        key: &str,
        fingerprint: &str,
        status: u16,
        create: impl FnOnce(&Tx, &Tenant, &Actor) -> Result<String>,
        read: impl Fn(&Connection, &Tenant, &str) -> Result<T>,
    ) -> Result<Reply> {
        let tenant = self.tenant();
        let actor = self.key.actor();
        let outcome = idempotency::run(
            &self.app.db,
            self.conn,
            tenant,
            key,
            fingerprint,
            |tx| Ok((status, create(tx, tenant, &actor)?)),
            |conn, id| read(conn, tenant, id),
        )?;
        Ok(Reply::from(outcome))
    }

    /// The request's checked Idempotency-Key.
    ///
    /// Fails with `Invalid` for a missing, repeated or overlong key.
    pub fn idempotency_key(&self) -> Result<&str> {
        if self.idempotency_key_repeated {
            return Err(Error::bad_request(Access::IdempotencyKeyRepeated));
        }
        idempotency::check_key(self.idempotency_key)
    }

    /// For a POST: the checked Idempotency-Key, the request's fingerprint and the body's fields.
    ///
    /// Fails with `Invalid` for a missing, repeated or overlong key or an unreadable body.
    pub fn idempotent_body(&self) -> Result<(&str, String, JsonFields)> {
        let key = self.idempotency_key()?;
        let parsed = fields::parse_json(self.body)?;
        let fingerprint = idempotency::fingerprint(self.method.as_str(), self.path, &parsed);
        Ok((key, fingerprint, JsonFields::object(parsed)?))
    }
}
