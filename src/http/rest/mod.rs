//! The REST API under `/v1`: the route table, the order of checks of
//! decisions §2 after the key's admission (path → scopes → readable
//! request → record → rules), and the one place where a handler's `Result`
//! becomes an answer. Each resource's handlers live in a file of their own
//! and only translate: query string or body → the books' input type → one
//! books call → JSON; an act is given the key as who acts, and the books
//! record it in the audit. Synchronous: the server calls `handle` with the
//! body already read. No file here names another surface or the server.
//!
//! Here: `route` (`match (method, segments)` with slice patterns, a known
//! path with another method answering 405 with its `Allow` list), the
//! `Operation` each route needs, `bounded` (which reads may run on the
//! worker that received them), and `handle`, which runs a request through
//! `admission::with_key_confirmed`.
//!
//! - `call.rs`: what a handler is given and gives back: `Call` (one
//!   authenticated, permitted request with its connection, key, query and
//!   body; `create_once` / `act_once`, the idempotent creation every POST
//!   goes through; the checked Idempotency-Key) and `Reply` (status, body,
//!   extra headers). Every resource's file and the route table read it; it
//!   names none of them.
//! - `customers.rs`: `/v1/customers`: the list with its search (a kept page
//!   when nothing but paging is asked), one customer, creation.
//! - `transactions.rs`: `/v1/transactions`: the list with its filters, one
//!   transaction, creation, partial updates.
//! - `drafts.rs`: `POST /v1/invoices/drafts`: a draft from `{customerId}`.
//! - `invoices.rs`: `/v1/invoices`: the list, one document by its number,
//!   and its stored e-invoice files.
//! - `reports.rs`: `/v1/reports/outstanding`.
//! - `webhooks.rs`: `/v1/webhooks`: registering, listing and disabling
//!   endpoints, the event kinds, the delivery log, redelivery.

mod call;
mod customers;
mod drafts;
mod invoices;
mod reports;
mod transactions;
mod webhooks;

use hyper::{Method, StatusCode};
use rusqlite::Connection;

use crate::access::keys::AuthedKey;
use crate::access::scopes::Operation;
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::http::admission::{self, Admitted, Turned};
use crate::http::app::{rate_headers, refusal, Answer, App, Request};
use crate::http::query::{percent_decode, Query};
use call::{Call, Reply};

/// Every address of the API, with the ids its path carries.
#[derive(Debug)]
enum Route<'a> {
    Me,
    ListCustomers,
    GetCustomer(&'a str),
    CreateCustomer,
    ListTransactions,
    GetTransaction(&'a str),
    CreateTransaction,
    UpdateTransaction(&'a str),
    ListInvoices,
    GetInvoice(&'a str),
    InvoiceDocument(&'a str),
    CreateDraft,
    OutstandingReport,
    ListWebhooks,
    WebhookEvents,
    CreateWebhook,
    DisableWebhook(&'a str),
    WebhookDeliveries(&'a str),
    Redeliver(&'a str, &'a str),
}

impl Route<'_> {
    fn operation(&self) -> Operation {
        match self {
            Route::Me => Operation::Me,
            Route::ListCustomers => Operation::ListCustomers,
            Route::GetCustomer(_) => Operation::GetCustomer,
            Route::CreateCustomer => Operation::CreateCustomer,
            Route::ListTransactions => Operation::ListTransactions,
            Route::GetTransaction(_) => Operation::GetTransaction,
            Route::CreateTransaction => Operation::CreateTransaction,
            Route::UpdateTransaction(_) => Operation::UpdateTransaction,
            Route::ListInvoices => Operation::ListInvoices,
            Route::GetInvoice(_) | Route::InvoiceDocument(_) => Operation::GetInvoice,
            Route::CreateDraft => Operation::CreateDraft,
            Route::OutstandingReport => Operation::OutstandingReport,
            Route::ListWebhooks
            | Route::WebhookEvents
            | Route::CreateWebhook
            | Route::DisableWebhook(_)
            | Route::WebhookDeliveries(_)
            | Route::Redeliver(..) => Operation::ManageWebhooks,
        }
    }
}

/// The deepest page of a list read on the worker that received it: beyond
/// it, skipping the rows before the page is work that grows with the data.
const BOUNDED_PAGES: i64 = 40;

/// Whether a request is a read whose cost does not grow with the books: the
/// key's identity, one record by its id or number, the webhook endpoints
/// and event kinds, and the first pages of the customers, transactions and
/// invoices without a search or a filter. Such a read may run on the worker
/// that received it (when the company's share and a connection are free at
/// once); searches, filters, deep pages, reports and documents always go to
/// the blocking pool, so they never hold a worker.
pub fn bounded(req: &Request) -> bool {
    if req.method != Method::GET {
        return false;
    }
    let segments: Vec<&str> = req.path.split('/').skip(1).collect();
    let Ok(query) = Query::parse(&req.query) else {
        return false;
    };
    match route(&req.method, &segments) {
        Ok(
            Route::Me
            | Route::GetCustomer(_)
            | Route::GetTransaction(_)
            | Route::GetInvoice(_)
            | Route::ListWebhooks
            | Route::WebhookEvents,
        ) => true,
        Ok(Route::ListCustomers | Route::ListTransactions | Route::ListInvoices) => {
            query.only_paging()
                && query
                    .paging()
                    .is_ok_and(|paging| paging.page < BOUNDED_PAGES)
        }
        _ => false,
    }
}

/// The route a method and path name, if any: the one route table.
fn matched<'a>(method: &Method, segments: &[&'a str]) -> Option<Route<'a>> {
    use Method as M;
    Some(match (method, segments) {
        (&M::GET, ["v1", "me"]) => Route::Me,
        (&M::GET, ["v1", "customers"]) => Route::ListCustomers,
        (&M::POST, ["v1", "customers"]) => Route::CreateCustomer,
        (&M::GET, ["v1", "customers", id]) => Route::GetCustomer(id),
        (&M::GET, ["v1", "transactions"]) => Route::ListTransactions,
        (&M::POST, ["v1", "transactions"]) => Route::CreateTransaction,
        (&M::GET, ["v1", "transactions", id]) => Route::GetTransaction(id),
        (&M::PATCH, ["v1", "transactions", id]) => Route::UpdateTransaction(id),
        (&M::GET, ["v1", "invoices"]) => Route::ListInvoices,
        (&M::POST, ["v1", "invoices", "drafts"]) => Route::CreateDraft,
        (&M::GET, ["v1", "invoices", number]) if *number != "drafts" => Route::GetInvoice(number),
        (&M::GET, ["v1", "invoices", number, "document"]) => Route::InvoiceDocument(number),
        (&M::GET, ["v1", "reports", "outstanding"]) => Route::OutstandingReport,
        (&M::GET, ["v1", "webhooks"]) => Route::ListWebhooks,
        (&M::POST, ["v1", "webhooks"]) => Route::CreateWebhook,
        (&M::GET, ["v1", "webhooks", "events"]) => Route::WebhookEvents,
        (&M::DELETE, ["v1", "webhooks", id]) if *id != "events" => Route::DisableWebhook(id),
        (&M::GET, ["v1", "webhooks", id, "deliveries"]) => Route::WebhookDeliveries(id),
        (&M::POST, ["v1", "webhooks", id, "deliveries", delivery, "redeliver"]) => {
            Route::Redeliver(id, delivery)
        }
        _ => return None,
    })
}

/// The methods a route may use, in the order `Allow` names them.
const METHODS: [Method; 4] = [Method::GET, Method::POST, Method::PATCH, Method::DELETE];

/// The route of a request; a known path asked with another method answers
/// 405 with the `Allow` list the route table itself gives for the path.
///
/// Fails with `NotFound` for an unknown path, `MethodNotAllowed` for a
/// known path and another method.
fn route<'a>(method: &Method, segments: &[&'a str]) -> Result<Route<'a>> {
    if let Some(route) = matched(method, segments) {
        return Ok(route);
    }
    let allowed: Vec<&str> = METHODS
        .iter()
        .filter(|m| matched(m, segments).is_some())
        .map(Method::as_str)
        .collect();
    if allowed.is_empty() {
        return Err(Error::not_found(Said::Record(
            Record::Address,
            String::new(),
        )));
    }
    Err(Error::MethodNotAllowed(allowed.join(", ").into()))
}

fn dispatch(call: &Call, route: Route) -> Result<Reply> {
    match route {
        Route::Me => Ok(Reply::ok(&call.key.identity())),
        Route::ListCustomers => customers::list(call),
        Route::GetCustomer(id) => customers::get(call, id),
        Route::CreateCustomer => customers::create(call),
        Route::ListTransactions => transactions::list(call),
        Route::GetTransaction(id) => transactions::get(call, id),
        Route::CreateTransaction => transactions::create(call),
        Route::UpdateTransaction(id) => transactions::update(call, id),
        Route::ListInvoices => invoices::list(call),
        Route::GetInvoice(number) => invoices::get(call, number),
        Route::InvoiceDocument(number) => invoices::document(call, number),
        Route::CreateDraft => drafts::create(call),
        Route::OutstandingReport => reports::outstanding(call),
        Route::ListWebhooks => webhooks::list(call),
        Route::WebhookEvents => webhooks::events(),
        Route::CreateWebhook => webhooks::create(call),
        Route::DisableWebhook(id) => webhooks::disable(call, id),
        Route::WebhookDeliveries(id) => webhooks::deliveries(call, id),
        Route::Redeliver(id, delivery) => webhooks::redeliver(call, id, delivery),
    }
}

/// Runs one admitted REST request on `conn`: its snapshot (a GET reads in
/// one), the key confirmed, the route, the answer. A request that may write
/// waits for the writer: call it on a blocking thread then.
pub fn handle(app: &App, conn: &Connection, req: &Request, admitted: Admitted) -> Answer {
    let reads = req.method == Method::GET;
    admission::with_key_confirmed(
        app,
        conn,
        req,
        admitted,
        reads,
        Turned::answer,
        |conn, admitted| {
            let Admitted { key, allowance } = admitted;
            let mut headers = rate_headers(&allowance);
            match handle_admitted(app, conn, req, &key) {
                Ok(reply) => {
                    if reply.replayed {
                        headers.push(("Idempotent-Replayed", "true".into()));
                    }
                    headers.extend(reply.headers);
                    Answer {
                        status: StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK),
                        headers,
                        body: reply.body,
                        key_id: Some(key.id),
                    }
                }
                Err(error) => refusal(&error, req.lang, headers, Some(key.id)),
            }
        },
    )
}

fn handle_admitted(app: &App, conn: &Connection, req: &Request, key: &AuthedKey) -> Result<Reply> {
    let decoded: Vec<String> = req
        .path
        .split('/')
        .skip(1)
        .map(|s| {
            percent_decode(s, false)
                .ok_or_else(|| Error::not_found(Said::Record(Record::Address, String::new())))
        })
        .collect::<Result<_>>()?;
    let segments: Vec<&str> = decoded.iter().map(String::as_str).collect();
    let route = route(&req.method, &segments)?;
    if !route.operation().allowed_for(&key.scopes) {
        return Err(Error::Forbidden);
    }
    let body = req.body.as_deref().ok_or(Error::PayloadTooLarge)?;
    let query = Query::parse(&req.query)?;
    let call = Call {
        app,
        conn,
        key,
        method: &req.method,
        path: &req.path,
        query: &query,
        body,
        idempotency_key: req.idempotency_key.as_deref(),
        idempotency_key_repeated: req.repeated.contains(&"idempotency-key"),
    };
    dispatch(&call, route)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(path: &str, query: &str) -> Request {
        Request {
            method: Method::GET,
            path: path.into(),
            query: query.into(),
            authorization: None,
            idempotency_key: None,
            repeated: Vec::new(),
            body: Some(Vec::new()),
            lang: crate::rules::locale::Lang::En,
        }
    }

    #[test]
    fn only_reads_whose_cost_does_not_grow_with_the_books_are_bounded() {
        for (path, query) in [
            ("/v1/me", ""),
            ("/v1/customers", ""),
            ("/v1/customers", "size=25&page=3"),
            ("/v1/customers/cus_1", ""),
            ("/v1/transactions", "page=39"),
            ("/v1/invoices/RE-1", ""),
            ("/v1/webhooks", ""),
            ("/v1/webhooks/events", ""),
        ] {
            assert!(bounded(&get(path, query)), "{path}?{query}");
        }
        for (path, query) in [
            ("/v1/customers", "search=M%C3%BCller"),
            ("/v1/customers", "page=40"),
            ("/v1/customers", "page=x"),
            ("/v1/transactions", "stage=open"),
            ("/v1/invoices", "status=OPEN"),
            ("/v1/invoices/RE-1/document", "format=pdf"),
            ("/v1/reports/outstanding", ""),
            ("/v1/webhooks/wh_1/deliveries", ""),
            ("/v1/nothing", ""),
            ("/v1/customers", "x=%zz"),
        ] {
            assert!(!bounded(&get(path, query)), "{path}?{query}");
        }
        let mut post = get("/v1/customers", "");
        post.method = Method::POST;
        assert!(!bounded(&post));
    }
}
