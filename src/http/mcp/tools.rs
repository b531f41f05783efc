//! The sixteen tools: their table (name, annotations, the `Operation` of the
//! access table they need, schemas), and for each the translation of its
//! snake_case arguments into the books' input types, one books call (an act
//! given the key as who acts, which the books record in the audit), and the
//! result. Business refusals are tool results with `isError: true` and
//! `{code, fehler}`, fields named as the tool's arguments; protocol faults
//! are `RpcFault`s. No rule lives here.

use rusqlite::Connection;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::schemas;
use crate::access::idempotency;
use crate::access::keys::AuthedKey;
use crate::access::scopes::{Operation, Scope};
use crate::books::audit::Actor;
use crate::books::company;
use crate::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft, TaxInput};
use crate::books::invoices::{self, Status};
use crate::books::report::{self, Side};
use crate::books::transactions::{self, NewNote, NewTransaction, NoteInput};
use crate::books::vat::filing;
use crate::books::vat::period::Period;
use crate::books::{attention, customers, statements};
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::App;
use crate::http::error::RpcFault;
use crate::http::fields::{self, JsonFields, Naming};
use crate::rules::locale::Lang;
use crate::rules::text;
use crate::store::db::Tx;
use crate::store::paging::{Page, Paging};
use crate::store::tenant::Tenant;

/// The deepest offset a cursor may name.
const MAX_OFFSET: i64 = 1_000_000_000;

/// What a tool runs with: the server, the request's read connection, the key.
pub struct Context<'a> {
    pub app: &'a App,
    pub conn: &'a Connection,
    pub key: &'a AuthedKey,
    /// The language of a refusal's sentence, by the POST's `Accept-Language`.
    pub lang: Lang,
}

impl Context<'_> {
    fn tenant(&self) -> &Tenant {
        &self.key.tenant
    }
}

/// One tool: its wire definition and what it runs.
struct Tool {
    name: &'static str,
    /// Reads only; creates are additive (never destructive).
    read_only: bool,
    title: &'static str,
    description: &'static str,
    operation: Operation,
    input: fn() -> Value,
    output: fn() -> Value,
    run: fn(&Context, JsonFields) -> Result<Value>,
    /// Arguments whose names differ from the books' field names: (books, argument).
    renames: &'static [(&'static str, &'static str)],
}

impl Tool {
    fn definition(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": (self.input)(),
            "outputSchema": (self.output)(),
            "annotations": if self.read_only {
                json!({ "title": self.title, "readOnlyHint": true, "openWorldHint": false })
            } else {
                json!({ "title": self.title, "readOnlyHint": false, "destructiveHint": false, "openWorldHint": false })
            },
        })
    }

    /// How a refusal names a field: as this tool's argument (snake_case).
    fn argument(&self, lang: Lang, field: &str) -> String {
        let field = self
            .renames
            .iter()
            .find(|(books, _)| *books == field)
            .map_or(field, |(_, argument)| argument);
        let argument = text::camel_to(field, '_');
        match lang {
            Lang::En => format!("The argument {argument}"),
            Lang::De => format!("Das Argument {argument}"),
        }
    }
}

/// Whether the tool of this name may write (a create).
pub fn writes(name: &str) -> bool {
    TOOLS.iter().any(|t| t.name == name && !t.read_only)
}

/// The definitions of the tools a key holding `scopes` may call.
pub fn list(scopes: &[Scope]) -> Vec<Value> {
    TOOLS
        .iter()
        .filter(|t| t.operation.allowed_for(scopes))
        .map(Tool::definition)
        .collect()
}

/// Calls the tool `params.name` with `params.arguments`.
///
/// Fails with a fault for a tool the key may not call or unknown to it,
/// arguments that are not an object, or an internal error; any other refusal
/// is a tool result with `isError`.
pub fn call(c: &Context, params: &Value) -> std::result::Result<Value, RpcFault> {
    let name = params["name"].as_str().unwrap_or("");
    let tool = TOOLS
        .iter()
        .find(|t| t.name == name && t.operation.allowed_for(&c.key.scopes))
        .ok_or_else(|| RpcFault::InvalidParams(format!("Unknown tool: {name}")))?;
    let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
    if !arguments.is_object() {
        return Err(RpcFault::InvalidParams(
            "arguments must be an object".into(),
        ));
    }
    let fields = JsonFields::from_value(arguments).map_err(RpcFault::from)?;
    match (tool.run)(c, fields) {
        Ok(value) => Ok(json!({
            "content": [{ "type": "text", "text": value.to_string() }],
            "structuredContent": value,
            "isError": false,
        })),
        Err(e @ Error::Internal(_)) => Err(RpcFault::from(e)),
        Err(e) => {
            let refusal = e.tool_refusal(c.lang, &|field| tool.argument(c.lang, field));
            let text = format!(
                "{}: {}",
                refusal["code"].as_str().unwrap_or(""),
                refusal["fehler"].as_str().unwrap_or("")
            );
            Ok(json!({
                "content": [{ "type": "text", "text": text }],
                "structuredContent": refusal,
                "isError": true,
            }))
        }
    }
}

fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A required argument (an id, a period), trimmed.
///
/// Fails with `Invalid` naming it when it is missing.
fn id(f: &mut JsonFields, name: &str) -> Result<String> {
    f.text(name)?
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::invalid(name, Input::Missing))
}

/// The optional `idempotency_key` of a create, trimmed.
///
/// Fails with `Invalid` when it is not a string.
fn idempotency_key(f: &mut JsonFields) -> Result<Option<String>> {
    Ok(f.text("idempotency_key")?.map(|k| k.trim().to_string()))
}

/// `limit` and the opaque `cursor` as a page; a limit out of range is
/// bounded as every surface bounds a page's size (`Paging::bounded`).
///
/// Fails with `Invalid` for an unreadable limit or cursor.
fn paging(f: &mut JsonFields) -> Result<Paging> {
    let limit = Paging::bounded(None, f.int("limit")?).size;
    let offset = match f.text("cursor")? {
        None => 0,
        Some(c) => c
            .strip_prefix('o')
            .filter(|hex| hex.len() <= 16)
            .and_then(|hex| i64::from_str_radix(hex, 16).ok())
            .filter(|o| (0..=MAX_OFFSET).contains(o) && o % limit == 0)
            .ok_or_else(|| {
                Error::invalid(
                    "cursor",
                    "is not one this server gave out (with this limit)",
                )
            })?,
    };
    Ok(Paging {
        page: offset / limit,
        size: limit,
    })
}

fn next_cursor(offset: i64, size: i64, total: i64) -> Option<String> {
    (offset + size < total).then(|| format!("o{:x}", offset + size))
}

/// A list's answer: its items, the cursor of the next page (or null), the total.
fn list_answer<T: Serialize>(page: Page<T>) -> Value {
    let next = next_cursor(page.page * page.size, page.size, page.total);
    json!({ "items": page.data, "next_cursor": next, "total": page.total })
}

fn get_customer(c: &Context, mut f: JsonFields) -> Result<Value> {
    let id = id(&mut f, "customer_id")?;
    f.finish()?;
    Ok(to_value(&customers::get(c.conn, c.tenant(), &id)?))
}

fn search_customers(c: &Context, mut f: JsonFields) -> Result<Value> {
    let query = f.text("query")?;
    let paging = paging(&mut f)?;
    f.finish()?;
    Ok(list_answer(customers::list(
        c.conn,
        c.tenant(),
        query.as_deref(),
        paging,
    )?))
}

fn get_invoice(c: &Context, mut f: JsonFields) -> Result<Value> {
    let number = id(&mut f, "number")?;
    f.finish()?;
    Ok(to_value(&invoices::get(c.conn, c.tenant(), &number)?))
}

fn list_invoices(c: &Context, mut f: JsonFields) -> Result<Value> {
    // The schema names the two statuses; a tool refuses what REST ignores.
    let status = match f.text("status")? {
        None => None,
        Some(s) => Some(Status::named(&s).ok_or_else(|| {
            Error::invalid("status", crate::error::not_one_of(&["OPEN", "PAID"], &s))
        })?),
    };
    let input = invoices::FilterInput {
        status,
        from: f.text("from")?,
        to: f.text("to")?,
        search: None,
    };
    let paging = paging(&mut f)?;
    f.finish()?;
    let filter = invoices::Filter::check(input)?;
    Ok(list_answer(invoices::list(
        c.conn,
        c.tenant(),
        filter,
        paging,
    )?))
}

fn get_transaction(c: &Context, mut f: JsonFields) -> Result<Value> {
    let id = id(&mut f, "transaction_id")?;
    f.finish()?;
    Ok(to_value(&transactions::get_with_notes(
        c.conn,
        c.tenant(),
        &id,
    )?))
}

fn list_transactions(c: &Context, mut f: JsonFields) -> Result<Value> {
    let input = transactions::FilterInput {
        stage: f.text("stage")?,
        search: f.text("search")?,
        include_archived: f.bool("include_archived")?,
        period: f.text("period")?,
        from: f.text("from")?,
        to: f.text("to")?,
    };
    let paging = paging(&mut f)?;
    f.finish()?;
    let filter = transactions::Filter::check(input)?;
    Ok(list_answer(transactions::list(
        c.conn,
        c.tenant(),
        &filter,
        paging,
    )?))
}

fn open_list(c: &Context, mut f: JsonFields, side: Side) -> Result<Value> {
    let as_of = f.text("as_of")?;
    let paging = paging(&mut f)?;
    f.finish()?;
    let list = report::open_documents(
        c.conn,
        c.tenant(),
        side,
        as_of.as_deref(),
        paging.size,
        paging.offset(),
    )?;
    let next = next_cursor(paging.offset(), paging.size, list.total);
    let mut answer = to_value(&list);
    answer["next_cursor"] = json!(next);
    Ok(answer)
}

fn list_receivables(c: &Context, f: JsonFields) -> Result<Value> {
    open_list(c, f, Side::Receivable)
}

fn list_payables(c: &Context, f: JsonFields) -> Result<Value> {
    open_list(c, f, Side::Payable)
}

fn get_profit_and_loss(c: &Context, mut f: JsonFields) -> Result<Value> {
    let (from, to) = (f.text("from")?, f.text("to")?);
    let compare = f.bool("compare")?.unwrap_or(false);
    f.finish()?;
    Ok(to_value(&statements::profit_and_loss(
        c.conn,
        c.tenant(),
        from.as_deref(),
        to.as_deref(),
        compare,
    )?))
}

fn get_balance_sheet(c: &Context, mut f: JsonFields) -> Result<Value> {
    let as_of = f.text("as_of")?;
    let compare = f.bool("compare")?.unwrap_or(false);
    f.finish()?;
    Ok(to_value(&statements::balance_sheet(
        c.conn,
        c.tenant(),
        as_of.as_deref(),
        compare,
    )?))
}

fn get_vat_return(c: &Context, mut f: JsonFields) -> Result<Value> {
    let period = id(&mut f, "period")?;
    f.finish()?;
    let period = Period::parse("period", &period)?;
    let r = filing::vat_return(c.conn, c.tenant(), &period)?;
    Ok(json!({
        "period": r.period,
        "from": r.from,
        "to": r.to,
        "is_final": r.is_final,
        "kz": r.kz,
        "tax": r.tax,
        "booked_tax": r.booked_tax,
        "difference": r.difference,
        "postings": r.postings,
    }))
}

fn get_business_attention(c: &Context, f: JsonFields) -> Result<Value> {
    f.finish()?;
    Ok(to_value(&attention::list(c.conn, c.tenant())?))
}

/// A create's arguments without its `idempotency_key`: what its fingerprint covers.
fn fingerprint_of(f: &JsonFields) -> Value {
    let mut args = f.snapshot();
    if let Some(map) = args.as_object_mut() {
        map.remove("idempotency_key");
    }
    args
}

/// Runs `create` once per `idempotency_key` (when given), as REST does for
/// a POST: it writes in the key's company as the key (its actor) and
/// returns the new id, which `read` reads back in the key's company.
fn create_once<T: Serialize>(
    c: &Context,
    tool: &str,
    key: Option<String>,
    arguments: Value,
    create: impl FnOnce(&Tx, &Tenant, &Actor) -> Result<String>,
    read: impl Fn(&Connection, &Tenant, &str) -> Result<T>,
) -> Result<Value> {
    let tenant = c.tenant();
    let actor = c.key.actor();
    let create = |tx: &Tx| create(tx, tenant, &actor);
    let read = |conn: &Connection, id: &str| read(conn, tenant, id);
    match key {
        Some(key) => {
            let key = idempotency::check_key(Some(&key))?.to_string();
            let fingerprint = idempotency::fingerprint("tools/call", tool, &arguments);
            let outcome = idempotency::run(
                &c.app.db,
                c.conn,
                tenant,
                &key,
                &fingerprint,
                |tx| Ok((201, create(tx)?)),
                read,
            )?;
            Ok(to_value(&outcome.body))
        }
        None => {
            let body = c.app.db.write(|tx| {
                let id = create(tx)?;
                read(tx, &id)
            })?;
            Ok(to_value(&body))
        }
    }
}

/// One named tax of a draft line's `taxes`.
fn tax_input(value: Value) -> Result<TaxInput> {
    let mut f = JsonFields::from_value(value)?;
    let tax = TaxInput {
        name: f.text("name")?,
        rate_percent: f.number_text("rate_percent")?,
        reason: f.text("reason")?,
    };
    f.finish()?;
    Ok(tax)
}

/// One of a draft tool's `lines`.
fn line_input(value: Value) -> Result<DraftLineInput> {
    let mut f = JsonFields::from_value(value)?;
    let taxes = match f.array("taxes")? {
        None => None,
        Some(taxes) => Some(
            taxes
                .into_iter()
                .enumerate()
                .map(|(i, t)| tax_input(t).map_err(|e| e.under(&format!("taxes[{i}]"))))
                .collect::<Result<Vec<_>>>()?,
        ),
    };
    let line = DraftLineInput {
        description: f.text("description")?,
        quantity: f.number_text("quantity")?,
        unit_price_minor: f.int("unit_price_minor")?,
        tax_rate_percent: f.number_text("tax_rate_percent")?,
        taxes,
        unit: f.text("unit")?,
        vat_category: f.text("vat_category")?,
        exemption_reason: f.text("exemption_reason")?,
        exemption_code: f.text("exemption_code")?,
    };
    f.finish()?;
    Ok(line)
}

/// The `lines` of a draft tool as the books' line input.
///
/// Fails with `Invalid` naming a line's argument of the wrong type.
fn draft_lines(items: Vec<Value>) -> Result<Vec<DraftLineInput>> {
    items
        .into_iter()
        .enumerate()
        .map(|(n, item)| line_input(item).map_err(|e| e.under(&format!("lines[{n}]"))))
        .collect()
}

fn create_draft(c: &Context, mut f: JsonFields, kind: DraftKind, tool: &str) -> Result<Value> {
    let arguments = fingerprint_of(&f);
    let key = idempotency_key(&mut f)?;
    let input = DraftInput {
        customer_id: f.text("customer_id")?,
    };
    let lines = draft_lines(f.array("lines")?.unwrap_or_default())?;
    f.finish()?;
    let company = company::get(c.conn, &c.tenant().company_id)?;
    let new = NewDraft::whole(input, kind, lines, &company)?;
    create_once(
        c,
        tool,
        key,
        arguments,
        |tx, tenant, actor| drafts::create(tx, tenant, actor, &new),
        drafts::get,
    )
}

fn create_invoice_draft(c: &Context, f: JsonFields) -> Result<Value> {
    create_draft(c, f, DraftKind::Invoice, "create_invoice_draft")
}

fn create_quote_draft(c: &Context, f: JsonFields) -> Result<Value> {
    create_draft(c, f, DraftKind::Quote, "create_quote_draft")
}

fn create_transaction(c: &Context, mut f: JsonFields) -> Result<Value> {
    let arguments = fingerprint_of(&f);
    let key = idempotency_key(&mut f)?;
    let input = fields::transaction_input(&mut f, Naming::Snake)?;
    f.finish()?;
    let new = NewTransaction::check(input)?;
    create_once(
        c,
        "create_transaction",
        key,
        arguments,
        |tx, tenant, actor| transactions::create(tx, tenant, actor, &new),
        transactions::get,
    )
}

fn add_transaction_note(c: &Context, mut f: JsonFields) -> Result<Value> {
    let arguments = fingerprint_of(&f);
    let key = idempotency_key(&mut f)?;
    let input = NoteInput {
        transaction_id: f.text("transaction_id")?,
        text: f.text("text")?,
    };
    f.finish()?;
    let note = NewNote::check(input)?;
    let author = c.key.name.as_str();
    let made = create_once(
        c,
        "add_transaction_note",
        key,
        arguments,
        |tx, tenant, actor| transactions::add_note(tx, tenant, actor, &note, author),
        transactions::note,
    )?;
    let transaction = transactions::get_with_notes(c.conn, c.tenant(), note.transaction_id())?;
    Ok(json!({ "note": made, "transaction": transaction }))
}

const NO_RENAMES: &[(&str, &str)] = &[];

const TOOLS: &[Tool] = &[
    Tool {
        read_only: true,
        name: "get_customer",
        title: "Get a customer",
        description: "One customer (or supplier) of the company by its id (cus_…), with all master data.",
        operation: Operation::GetCustomer,
        input: || schemas::by_id("customer_id", "The customer's id, e.g. cus_4f9K…"),
        output: schemas::any_object,
        run: get_customer,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "search_customers",
        title: "Search customers",
        description: "The company's customers and suppliers, newest first; `query` matches name, number, e-mail or city.",
        operation: Operation::ListCustomers,
        input: || {
            let mut p = Map::new();
            p.insert("query".into(), json!({ "type": "string", "description": "Text in name, number (K10001), e-mail or city." }));
            schemas::object(schemas::paged(p), &[])
        },
        output: schemas::list_output,
        run: search_customers,
        renames: &[("search", "query")],
    },
    Tool {
        read_only: true,
        name: "get_invoice",
        title: "Get an invoice",
        description: "One issued invoice or correction by its number, with lines, taxes, payment state and the payment sentence.",
        operation: Operation::GetInvoice,
        input: || schemas::by_id("number", "The invoice number as printed, e.g. RE2026-00001"),
        output: schemas::any_object,
        run: get_invoice,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "list_invoices",
        title: "List invoices",
        description: "Issued invoices and corrections, newest first; `status` OPEN (something outstanding) or PAID; `from`/`to` are issue dates.",
        operation: Operation::ListInvoices,
        input: || {
            let mut p = schemas::dates(&["from", "to"]);
            p.insert("status".into(), json!({ "type": "string", "enum": ["OPEN", "PAID"] }));
            schemas::object(schemas::paged(p), &[])
        },
        output: schemas::list_output,
        run: list_invoices,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "get_transaction",
        title: "Get a transaction",
        description: "One transaction (a job with a workflow stage) by its id (txn_…), with its notes.",
        operation: Operation::GetTransaction,
        input: || schemas::by_id("transaction_id", "The transaction's id, e.g. txn_8dQ…"),
        output: schemas::any_object,
        run: get_transaction,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "list_transactions",
        title: "List transactions",
        description: "Transactions, newest first; filter by `stage`, free-text `search`, `period` (YYYY, YYYY-Qn, YYYY-MM) or `from`/`to` start dates; archived ones only with `include_archived`.",
        operation: Operation::ListTransactions,
        input: || {
            let mut p = schemas::strings(&["stage", "search", "period"]);
            p.extend(schemas::dates(&["from", "to"]));
            p.insert("include_archived".into(), json!({ "type": "boolean" }));
            schemas::object(schemas::paged(p), &[])
        },
        output: schemas::list_output,
        run: list_transactions,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "list_receivables",
        title: "List receivables",
        description: "Invoices open at the end of `as_of` (default today), earliest due first, with the totals outstanding, due and overdue in the book currency.",
        operation: Operation::OutstandingReport,
        input: || schemas::object(schemas::paged(schemas::dates(&["as_of"])), &[]),
        output: schemas::list_output,
        run: list_receivables,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "list_payables",
        title: "List payables",
        description: "Bills open at the end of `as_of` (default today), earliest due first, with the totals outstanding, due and overdue in the book currency.",
        operation: Operation::OutstandingReport,
        input: || schemas::object(schemas::paged(schemas::dates(&["as_of"])), &[]),
        output: schemas::list_output,
        run: list_payables,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "get_profit_and_loss",
        title: "Profit and loss",
        description: "The profit and loss by § 275 (2) HGB for `from`..`to` (default: this fiscal year to today): each line (revenue, other operating income, materials, services bought, personnel, depreciation, other operating expenses, interest, taxes) with its accounts of the company's chart (SKR03/SKR04) and their numbers, `revenue`, `expenses` and the `result`; with `compare`, the previous year's same period beside each figure (`previous`); `is_final` when the whole period lies in closed books.",
        operation: Operation::OutstandingReport,
        input: || schemas::object(Value::Object(schemas::with_compare(schemas::dates(&["from", "to"]))), &[]),
        output: schemas::any_object,
        run: get_profit_and_loss,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "get_balance_sheet",
        title: "Balance sheet",
        description: "The balance sheet by § 266 HGB (the short form) at the end of `as_of` (default today): `assets` and `equity_and_liabilities`, each line with its accounts of the company's chart and their numbers, the year's `result` (A.V); with `compare`, the same day a year earlier beside each figure; it always balances; `is_final` when the books are closed through `as_of`.",
        operation: Operation::OutstandingReport,
        input: || schemas::object(Value::Object(schemas::with_compare(schemas::dates(&["as_of"]))), &[]),
        output: schemas::any_object,
        run: get_balance_sheet,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "get_vat_return",
        title: "VAT return",
        description: "The figures of the VAT return (Umsatzsteuer-Voranmeldung) of `period` (`YYYY-MM` or `YYYY-Qn`) as the form has them: each Kz (`kz`; bases in whole euros, taxes with cents, `83` what remains to pay), the tax of Kz 81 and 86 computed from their bases beside the output tax booked (`tax`, `booked_tax`, `difference`), and the postings behind each Kz with their document and, for a company taxed on payments received, the payment that made the VAT due; `is_final` when the books are closed through the period's last day. kontor computes the figures; filing them through ELSTER is done there.",
        operation: Operation::OutstandingReport,
        input: || {
            schemas::object(
                json!({"period": {"type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2]|[Qq][1-4])$",
                                  "description": "The return's period: a month `2026-10` or a quarter `2026-Q4`."}}),
                &["period"],
            )
        },
        output: schemas::any_object,
        run: get_vat_return,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: true,
        name: "get_business_attention",
        title: "What needs attention",
        description: "Most urgent first: overdue invoices, bills due within 7 days or overdue, drafts older than 14 days, transactions past their due date outside the last stage, bank lines unmatched or suggested for more than 3 days, failing webhook endpoints.",
        operation: Operation::OutstandingReport,
        input: || schemas::object(json!({}), &[]),
        output: schemas::any_object,
        run: get_business_attention,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: false,
        name: "create_invoice_draft",
        title: "Create an invoice draft",
        description: "A draft invoice for a customer with its lines; every line states its tax (a rate, or named taxes with the seller's reason for a zero rate). Number, dates and payment terms come from the seller's country and the customer's terms. A person issues it in the product.",
        operation: Operation::CreateDraft,
        input: schemas::draft,
        output: schemas::any_object,
        run: create_invoice_draft,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: false,
        name: "create_quote_draft",
        title: "Create a quote draft",
        description: "A draft quote for a customer with its lines, numbered in the quotes' own series. Lines as for create_invoice_draft.",
        operation: Operation::CreateDraft,
        input: schemas::draft,
        output: schemas::any_object,
        run: create_quote_draft,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: false,
        name: "create_transaction",
        title: "Create a transaction",
        description: "A transaction (a job) with a title; optionally a customer, description, due date and a stage of the company's workflow (else its first stage).",
        operation: Operation::CreateTransaction,
        input: || {
            let mut p = schemas::strings(&["title", "customer_id", "description", "stage"]);
            p.extend(schemas::dates(&["due_on"]));
            schemas::object(Value::Object(schemas::with_idempotency_key(p)), &["title"])
        },
        output: schemas::any_object,
        run: create_transaction,
        renames: NO_RENAMES,
    },
    Tool {
        read_only: false,
        name: "add_transaction_note",
        title: "Add a note to a transaction",
        description: "Adds a note (authored by this key's name) to a transaction and answers the note and the transaction with all its notes.",
        operation: Operation::AddTransactionNote,
        input: || {
            let mut p = schemas::strings(&["transaction_id"]);
            p.insert("text".into(), json!({ "type": "string", "maxLength": 5000 }));
            schemas::object(Value::Object(schemas::with_idempotency_key(p)), &["transaction_id", "text"])
        },
        output: schemas::any_object,
        run: add_transaction_note,
        renames: NO_RENAMES,
    },
];
