//! The HTTP surface: the REST API under `/v1` (described by its OpenAPI
//! document), the agent-protocol server at `/mcp`, and the screens under
//! `/`. Each only translates: it reads its wire format into the books'
//! typed input, calls the books, and renders the answer or the refusal.
//!
//! The arrows inside point one way. `server` is the top (the process: accept
//! loop, workers, shutdown) and nothing imports it; `intake` below it takes
//! one request within its limits and hands it to its surface; the surfaces
//! (`rest`, `mcp`, `screens`, `openapi`, `health`) and the metrics page
//! (`exporter`) import the kernel `app` (the
//! server's state, the answer, `in_store`) and, for the API, `admission`
//! (key → plan → budget), never each other; `error`, `fields`, `query`,
//! `multipart`, `kept_pages` and `connections` are leaves.
//!
//! - `server.rs`: the top: hyper HTTP/1.1 on a tokio runtime of its own.
//!   `Config`, `Server::start` (tests) and `run_until_signal` (`serve`,
//!   `demo`); the `App` built from the `Config`; the workers started
//!   (webhooks, mail, the inbox) and stopped; the accept loop (`serve`:
//!   connections within their cap, the header deadline, each request to
//!   `intake::respond`); graceful shutdown; the background tasks (key uses
//!   written each second, purges each hour). Knows no route and no rule.
//! - `health.rs`: `GET /healthz` (alive, touches nothing) and `GET
//!   /readyz` (the data file's checks of `store::health` within 2 s, one at a
//!   time; the workers' pulses), 200 or 503 with the reasons; no key, no
//!   company.
//! - `exporter.rs`: the metrics page on `--metrics-listen` only: the
//!   Prometheus recorder installed once per process (`install`), every
//!   metric described in one list, `note_request` (a request counted by
//!   surface and status class, its time), the gauges read at scrape time
//!   (the outboxes' backlog, the data file's and WAL's size, the workers)
//!   and its own small accept loop (`serve`).
//! - `intake.rs`: one request from the socket to its surface: `Limits` (the
//!   connections, the header and body deadlines, the readers' semaphore),
//!   `respond` (the answer made hyper's response, the log line) and `answer`,
//!   the one place a request is handed to its surface: `/openapi.json`,
//!   `health` (`/healthz`, `/readyz`; `/metrics` is not found here), the
//!   screens (`visit_screens`: the client's address, the form body within
//!   its limit, into a `Visit`) or the API (`call_api`: the agent server's
//!   own checks, the key, plan and budget before a byte of the body, the
//!   body with `http_body_util::Limited`, then `serve_api` on a pooled
//!   connection through the kernel's `in_store_where`); the lingering close
//!   after an early answer.
//! - `app.rs`: the kernel: what every surface shares and nothing that
//!   belongs to one of them. `App` (the state of one server, with the
//!   screens' `ScreenConfig` and the `KeptPages`), `Request` (an API
//!   request's head and body), `Answer` (what every surface answers with),
//!   `json_bytes`, `refusal` with `rate_headers`, `snapshot` (one read
//!   transaction per reading request), `in_store` / `in_store_where` (a
//!   request's synchronous work on a pooled connection within its company's
//!   share, on a blocking thread), `log_line` and `MAX_BODY`. Imports no
//!   surface.
//! - `admission.rs`: the first three checks every request of `/v1` and
//!   `/mcp` passes (key, plan, rate budget): `admit_kept` from the keys kept
//!   in memory (a `Gate`), `admit_stored` from the data file on a key's first
//!   use, and `with_key_confirmed`, which runs a handler in the request's
//!   snapshot after `confirm` (the kept key still holds); a refusal is a
//!   `Turned`. Synchronous; REST and the agent server both use it.
//! - `connections.rs`: the open connections and their cap: idle or busy, the
//!   oldest idle shed past the cap less the reserve, a new one closed at once
//!   only when every one is busy.
//! - `error.rs`: the one mapping from an `Error` to the outside: the HTTP
//!   status, the stable `code`, the REST body `{fehler, code}`, the agent
//!   protocol's JSON-RPC errors (`RpcFault`) and a tool's `{code, fehler}`.
//!   Nothing else in `http` writes a status for an error.
//! - `fields.rs`: `JsonFields`: a JSON object's fields (a REST body, a tool's
//!   arguments) read by name and JSON type into the books' input, unknown
//!   ones and a repeated key refused. Checks JSON types only. An input
//!   both surfaces take (a new transaction) is read once, the surface's
//!   `Naming` (camelCase, snake_case) a parameter.
//! - `multipart.rs`: a `multipart/form-data` body taken apart, bounded (the
//!   screens' uploads: received e-invoices, bank statements).
//! - `query.rs`: the query string (`Query`: parameters by name, booleans,
//!   paging within bounds) and percent-decoding and -encoding; the screens
//!   read their forms with it too.
//! - `kept_pages.rs`: `KeptPages`: pages of customers kept as the bytes of
//!   their answer with the count of partner changes they were read at,
//!   answered only while that count is unchanged; at most `MAX_BYTES`.
//! - `openapi.rs`: `GET /openapi.json`, no key: `openapi.json` beside it (the
//!   OpenAPI 3.1 description of `/v1`), compiled in; `tests/it/openapi.rs`
//!   keeps that document equal to the route table and validates real answers
//!   against it.
//! - `rest/`: the REST API; `mcp/`: the agent-protocol server; `screens/`:
//!   the screens.

pub mod admission;
pub mod app;
pub mod connections;
pub mod error;
pub mod exporter;
pub mod fields;
pub mod health;
pub mod intake;
pub mod kept_pages;
pub mod mcp;
pub mod multipart;
pub mod openapi;
pub mod query;
pub mod rest;
pub mod screens;
pub mod server;
