//! Purchases: incoming bills and supplier credits recorded by a person. Each
//! is one act with its ledger entry (expenses + input tax / payables), its
//! change to the open payables and its event. Money paid against a bill and
//! credits applied to bills are settlements (`books::settlement`). Every
//! query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger::{self, Account, Posting};
use crate::books::report::open_items::{self, Side, NEVER_DUE};
use crate::books::suppliers;
use crate::error::{Error, Result, Violations};
use crate::outbox::events::{self, EventKind as Event, Fields};
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::money::{self, Decimal, Money};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// A purchase document as a person gives it. Amounts are positive minor
/// units; a credit books them negated.
#[derive(Debug, Default, Clone)]
pub struct PurchaseInput {
    pub supplier: Option<String>,
    pub supplier_vat_id: Option<String>,
    pub document_number: Option<String>,
    pub date: Option<String>,
    pub due: Option<String>,
    pub currency: Option<String>,
    pub net: Option<i64>,
    pub tax: Option<i64>,
    /// `bill` (the default) or `credit`.
    pub kind: Option<String>,
    /// Book-currency units per unit of the document's currency.
    pub rate: Option<String>,
    /// The VAT rate in percent the bill charges (`19`, `7`, `0`); none: the
    /// bill is two totals, and its lines carry no tax key.
    pub tax_rate: Option<String>,
    /// A service bought under the reverse charge (§ 13b UStG, category AE):
    /// the supplier charges no VAT (`tax` is 0) and the company owes it at
    /// `tax_rate` (19 when none is given) and deducts it again.
    pub reverse_charge: bool,
}

/// A checked purchase document.
#[derive(Debug, Clone)]
pub struct NewPurchase {
    supplier: String,
    supplier_vat_id: Option<String>,
    document_number: String,
    date: Date,
    due: Date,
    currency: Currency,
    net: i64,
    tax: i64,
    kind: PurchaseKind,
    rate: Option<Decimal>,
    taxed: Taxed,
}

/// What a purchase says of its VAT.
#[derive(Debug, Clone)]
enum Taxed {
    /// Two totals: no rate, no tax key.
    Totals,
    /// The VAT at this rate (percent) charged on the bill.
    Rate(Decimal),
    /// The reverse charge at this rate: the company owes the tax.
    ReverseCharge(Decimal),
}

/// The rate of the reverse charge when a bill names none (Germany's).
const REVERSE_CHARGE_RATE: i64 = 19;

/// The longest supplier's name and document number of a purchase (characters).
pub const MAX_SUPPLIER: usize = 200;
pub const MAX_DOCUMENT_NUMBER: usize = 100;

impl NewPurchase {
    /// Checks a purchase document: the supplier's name (at most 200
    /// characters, as a customer's), its VAT id (30), the document number
    /// (100), dates `YYYY-MM-DD` with the due date not before the document
    /// date, an ISO currency, net and tax from 0 to 10^15 not both 0, the
    /// kind, the rate an exact decimal.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed,
    /// and `Refused` for a due date before the document date.
    pub fn check(input: PurchaseInput) -> Result<NewPurchase> {
        let mut v = Violations::new();
        let supplier = v.take(text::required(
            "supplier",
            input.supplier.as_deref(),
            MAX_SUPPLIER,
        ))?;
        let supplier_vat_id = v
            .take(text::optional(
                "supplierVatId",
                input.supplier_vat_id.as_deref(),
                30,
            ))?
            .flatten();
        let document_number = v.take(text::required(
            "documentNumber",
            input.document_number.as_deref(),
            MAX_DOCUMENT_NUMBER,
        ))?;
        let mut date_of = |field: &str, value: Option<&str>| -> Result<Option<Date>> {
            match value {
                None => {
                    v.invalid(field, "is missing");
                    Ok(None)
                }
                Some(d) => v.take(clock::parse_date(field, d)),
            }
        };
        let date = date_of("date", input.date.as_deref())?;
        let due = date_of("due", input.due.as_deref())?;
        let currency = match input.currency.as_deref() {
            None => {
                v.invalid("currency", "is missing");
                None
            }
            Some(c) => v.take(Currency::parse("currency", c))?,
        };
        let mut amount = |field: &str, value: Option<i64>| match value {
            None => {
                v.invalid(field, "is missing");
                0
            }
            Some(a) if !(0..=money::MAX_AMOUNT).contains(&a) => {
                v.invalid(
                    field,
                    "is positive minor units up to 10^15 (a credit is recorded with the kind credit)",
                );
                0
            }
            Some(a) => a,
        };
        let net = amount("net", input.net);
        let tax = amount("tax", input.tax);
        if input.net.is_some() && input.tax.is_some() && net + tax == 0 {
            v.invalid(
                "net",
                "and tax are both zero; a purchase document needs an amount",
            );
        }
        let kind = match input.kind.as_deref() {
            None => PurchaseKind::Bill,
            Some(k) => PurchaseKind::parse(k.trim()).unwrap_or_else(|| {
                v.invalid("kind", PurchaseKind::not_one_of(k));
                PurchaseKind::Bill
            }),
        };
        let rate = match input.rate.as_deref() {
            Some(r) => v.take(Decimal::parse("rate", r))?,
            None => None,
        };
        let tax_rate = match input.tax_rate.as_deref() {
            Some(r) => match v.take(Decimal::parse("taxRate", r))? {
                // d × 10^8 / 100 is exact for the six fraction digits a rate has.
                Some(d) if d.is_negative() || money::percent_of(100_000_000, d)? > 100_000_000 => {
                    v.invalid("taxRate", "is a percentage from 0 to 100");
                    None
                }
                d => d,
            },
            None => None,
        };
        let taxed = match (input.reverse_charge, tax_rate) {
            (true, rate) => {
                if input.tax.is_some_and(|t| t != 0) {
                    v.refused(
                        "tax",
                        "is 0 under the reverse charge: the supplier charges no VAT, the company owes it",
                    );
                }
                Taxed::ReverseCharge(rate.unwrap_or(Decimal::from_int(REVERSE_CHARGE_RATE)))
            }
            (false, Some(rate)) => Taxed::Rate(rate),
            (false, None) => Taxed::Totals,
        };
        if let (Some(date), Some(due)) = (date, due) {
            if due < date {
                v.refused("due", format!("{due} lies before the document date {date}"));
            }
        }
        v.finish()?;
        match (supplier, document_number, date, due, currency) {
            (Some(supplier), Some(document_number), Some(date), Some(due), Some(currency)) => {
                Ok(NewPurchase {
                    supplier,
                    supplier_vat_id,
                    document_number,
                    date,
                    due,
                    currency,
                    net,
                    tax,
                    kind,
                    rate,
                    taxed,
                })
            }
            _ => Err(Error::internal("a checked purchase lacks a field")),
        }
    }
}

/// A purchase in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseView {
    pub id: String,
    pub kind: PurchaseKind,
    pub supplier_id: String,
    pub supplier: String,
    pub document_number: String,
    pub document_date: Date,
    pub due_on: Date,
    pub currency: Currency,
    pub net: Money,
    pub tax: Money,
    pub gross: Money,
    pub outstanding: Money,
    pub paid_on: Option<Date>,
    pub recorded_at: String,
}

/// A purchase as stored.
pub(crate) struct Stored {
    pub view: PurchaseView,
    pub kind: PurchaseKind,
    pub rate: Decimal,
    pub outstanding: i64,
    pub outstanding_book: i64,
}

/// A purchase of the tenant as stored.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub(crate) fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(
        "SELECT p.id, p.kind, p.supplier_id, c.name, p.document_number, p.document_date, p.due_on, p.currency,
                p.net, p.tax, p.gross, p.outstanding, p.paid_on, p.recorded_at, p.rate, p.outstanding_book
         FROM purchases p JOIN customers c ON c.id = p.supplier_id
         WHERE p.id = ?1 AND p.company_id = ?2 AND p.environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "purchases");
        let currency: Currency = r.get(7)?;
        let money = |i: usize| -> rusqlite::Result<Money> { Ok(Money::new(r.get(i)?, &currency)) };
        let kind: PurchaseKind = r.get(1)?;
        Ok(Stored {
            view: PurchaseView {
                id: r.get(0)?,
                kind,
                supplier_id: r.get(2)?,
                supplier: r.get(3)?,
                document_number: r.get(4)?,
                document_date: r.get(5)?,
                due_on: r.get(6)?,
                net: money(8)?,
                tax: money(9)?,
                gross: money(10)?,
                outstanding: money(11)?,
                paid_on: r.get(12)?,
                recorded_at: r.get(13)?,
                currency: currency.clone(),
            },
            kind,
            rate: r.get(14)?,
            outstanding: r.get(11)?,
            outstanding_book: r.get(15)?,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Purchase {id}")))
}

/// A purchase of the tenant in its wire form.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<PurchaseView> {
    Ok(stored(conn, tenant, id)?.view)
}

/// The supplier's credits that still have something left, oldest first:
/// what may be applied to one of its bills.
///
/// Fails only on a storage error.
pub fn open_credits(
    conn: &Connection,
    tenant: &Tenant,
    supplier_id: &str,
) -> Result<Vec<PurchaseView>> {
    let ids = conn
        .prepare_cached(
            "SELECT id FROM purchases WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3
                 AND kind = 'credit' AND outstanding <> 0
             ORDER BY seq",
        )?
        .query_map(
            params![tenant.company_id, tenant.environment, supplier_id],
            |r| r.get::<_, String>(0),
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    ids.iter().map(|id| get(conn, tenant, id)).collect()
}

/// The tenant's purchases, newest first, a page at a time.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant, paging: Paging) -> Result<Page<PurchaseView>> {
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM purchases WHERE company_id = ?1 AND environment = ?2",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |r| r.get(0))?;
    let ids = conn
        .prepare_cached(&format!(
            "SELECT id FROM purchases WHERE company_id = ?1 AND environment = ?2
             ORDER BY seq DESC {PAGE_LIMIT_SQL} OFFSET ?3"
        ))?
        .query_map(
            params![tenant.company_id, tenant.environment, paging.offset()],
            |r| r.get::<_, String>(0),
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let data = ids
        .iter()
        .map(|id| get(conn, tenant, id))
        .collect::<Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// Records a purchase document; creates the supplier partner when new. Posts
/// expenses + input tax / payables, opens the payable and raises
/// `purchase.recorded`. Returns its id; recorded as `bill.recorded` by
/// `actor` (a supplier partner it creates is part of the act).
///
/// Fails with `Refused` for a document recorded before, closed books, a
/// missing rate, or a document worth nothing in the book currency.
pub fn record(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewPurchase) -> Result<String> {
    let company = company::get(tx, &tenant.company_id)?;
    let (supplier, number) = (new.supplier.as_str(), new.document_number.as_str());
    let mut verdict = Violations::new();
    verdict.take(ledger::check_open(tx, tenant, new.date))?;
    let rate = verdict.take(crate::rules::money::fixed_rate(
        &new.currency,
        &company.currency,
        new.rate,
    ))?;
    let earlier: Option<String> = match suppliers::supplier_named(tx, tenant, supplier)? {
        None => None,
        Some(supplier_id) => tx
            .prepare_cached(
                "SELECT id FROM purchases
                 WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3 AND document_number = ?4",
            )?
            .query_row(
                params![tenant.company_id, tenant.environment, supplier_id, number],
                |r| r.get(0),
            )
            .optional()?,
    };
    if let Some(earlier) = earlier {
        verdict.refuse(format!(
            "{supplier}'s document {number} is already recorded as {earlier}."
        ));
    }
    let sign = if new.kind == PurchaseKind::Credit {
        -1
    } else {
        1
    };
    let (net, tax) = (sign * new.net, sign * new.tax);
    let gross = net + tax;
    let (exp, book_exp) = (new.currency.exponent(), company.currency.exponent());
    let book = match rate {
        Some(rate) => {
            let gross_book = verdict.take(money::convert(gross, rate, exp, book_exp))?;
            let tax_book = verdict.take(money::convert(tax, rate, exp, book_exp))?;
            if gross_book == Some(0) {
                verdict.refuse(format!(
                    "At the rate {rate} the document is worth nothing in the book currency {}.",
                    company.currency
                ));
            }
            gross_book.zip(tax_book)
        }
        None => None,
    };
    verdict.finish()?;
    let (Some(rate), Some((gross_book, tax_book))) = (rate, book) else {
        return Err(Error::internal(
            "a purchase passed its verdict without figures",
        ));
    };
    let supplier_id = suppliers::supplier(
        tx,
        tenant,
        supplier,
        new.supplier_vat_id.as_deref(),
        &company.country,
    )?;
    let id = ids::new_id("pur");
    let net_book = gross_book - tax_book;
    enter(
        tx,
        tenant,
        &Entry {
            id: &id,
            supplier_id: &supplier_id,
            supplier_name: supplier,
            kind: new.kind,
            number,
            date: new.date,
            due: new.due,
            currency: &new.currency,
            rate,
            net,
            tax,
            gross_book,
            parts: vec![typed_part(
                new,
                company.country.as_str(),
                net,
                tax,
                net_book,
                tax_book,
            )?],
            lines: Vec::new(),
            payment_reference: None,
            payee_iban: None,
        },
    )?;
    audit::record(tx, tenant, actor, Act::BillRecorded, &id)?;
    Ok(id)
}

/// The one tax key of a typed bill. A bill typed as two totals names no
/// rate: its expense and input tax carry no tax key. A rate files them
/// under `S:rate` (`E:0` for 0). Under the reverse charge the supplier
/// charged nothing, and the company owes the tax on the net and deducts it
/// again: both taxes under `AE:rate`, with `:EU` for a supplier in another
/// member state (its VAT id's prefix says where).
fn typed_part(
    new: &NewPurchase,
    country: &str,
    net: i64,
    tax: i64,
    net_book: i64,
    tax_book: i64,
) -> Result<Part> {
    let (key, vat, reverse_book) = match &new.taxed {
        Taxed::Totals => (String::new(), None, 0),
        Taxed::Rate(r) => {
            let category = if r.is_zero() { "E" } else { "S" };
            (
                ledger::tax_key(category, r, false),
                Some((category.to_string(), *r)),
                0,
            )
        }
        Taxed::ReverseCharge(r) => {
            let from_eu = new.supplier_vat_id.as_deref().is_some_and(|id| {
                let prefix = id.trim().get(..2).unwrap_or("").to_ascii_uppercase();
                let prefix = if prefix == "EL" {
                    "GR".to_string()
                } else {
                    prefix
                };
                prefix != country && jurisdiction::in_eu(&prefix)
            });
            let due = money::percent_of(net_book, *r)?;
            (
                ledger::tax_key("AE", r, from_eu),
                Some(("AE".to_string(), *r)),
                due,
            )
        }
    };
    Ok(Part {
        key,
        vat,
        base: net,
        amount: tax,
        base_book: net_book,
        amount_book: tax_book,
        reverse_book,
    })
}

/// One tax key of a purchase: its base and VAT as the document states them
/// and in the book currency, signed as the purchase is (a credit negative),
/// and the VAT a reverse charge received self-assesses (input and output
/// tax alike, in the book currency).
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// `S:19`, `AE:19:EU`, …; '' for a typed bill.
    pub key: String,
    pub vat: Option<(String, Decimal)>,
    pub base: i64,
    pub amount: i64,
    pub base_book: i64,
    pub amount_book: i64,
    pub reverse_book: i64,
}

/// One line of a received bill, as its document states it.
#[derive(Debug, Clone)]
pub(crate) struct EntryLine {
    pub line_id: String,
    pub description: String,
    pub quantity: Decimal,
    pub unit: String,
    pub unit_price: Decimal,
    pub net: i64,
    pub category: String,
    pub rate: Decimal,
}

/// A purchase ready to be entered in the books: its figures signed as
/// booked (a credit negative), per tax key, with its lines.
pub(crate) struct Entry<'a> {
    pub id: &'a str,
    pub supplier_id: &'a str,
    pub supplier_name: &'a str,
    pub kind: PurchaseKind,
    pub number: &'a str,
    pub date: Date,
    pub due: Date,
    pub currency: &'a Currency,
    pub rate: Decimal,
    pub net: i64,
    pub tax: i64,
    pub gross_book: i64,
    pub parts: Vec<Part>,
    pub lines: Vec<EntryLine>,
    pub payment_reference: Option<&'a str>,
    pub payee_iban: Option<&'a str>,
}

impl Entry<'_> {
    /// The body of `purchase.recorded` for this purchase, as the purchase
    /// itself states it (an issued invoice builds its own likewise).
    pub(crate) fn recorded(&self) -> Fields {
        let mut f = Fields::new();
        f.insert("currency", self.currency.to_string());
        f.insert("documentDate", self.date.to_string());
        f.insert("documentNumber", self.number.to_string());
        f.insert("dueDate", self.due.to_string());
        f.insert("grossMinor", (self.net + self.tax).to_string());
        f.insert("kind", self.kind.as_str().to_string());
        f.insert("netMinor", self.net.to_string());
        f.insert("purchaseId", self.id.to_string());
        f.insert("supplierId", self.supplier_id.to_string());
        f.insert("supplierName", self.supplier_name.to_string());
        f.insert("taxMinor", self.tax.to_string());
        f
    }
}

/// Enters a purchase: its row, its lines and amounts per tax key, the
/// ledger entry (per key expenses + input tax, a reverse charge's VAT as
/// input and output tax / payables of the supplier), the open payable
/// (a credit is never due) and `purchase.recorded`. Part of an act: typed
/// (`record`) or received (`books::received`).
///
/// Fails with `Internal` when the parts do not add up to the total, and on
/// a storage error.
pub(crate) fn enter(tx: &Tx, tenant: &Tenant, e: &Entry) -> Result<()> {
    let gross = e.net + e.tax;
    tx.prepare_cached(
        "INSERT INTO purchases (id, company_id, environment, supplier_id, kind, document_number, document_date, due_on,
             currency, rate, net, tax, gross, gross_book, outstanding, outstanding_book, recorded_at,
             payment_reference, payee_iban)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?13, ?14, ?15, ?16, ?17)",
    )?
    .execute(params![
        e.id,
        tenant.company_id,
        tenant.environment,
        e.supplier_id,
        e.kind,
        e.number,
        e.date,
        e.due,
        e.currency,
        e.rate,
        e.net,
        e.tax,
        gross,
        e.gross_book,
        clock::now(),
        e.payment_reference,
        e.payee_iban
    ])?;
    let mut postings = Vec::with_capacity(e.parts.len() * 3 + 1);
    for (n, part) in e.parts.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO purchase_taxes (purchase_id, seq, tax_key, vat_category, vat_rate, base, amount,
                 base_book, amount_book, reverse_book)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(params![
            e.id,
            n as i64,
            part.key,
            part.vat.as_ref().map(|v| v.0.clone()),
            part.vat.as_ref().map(|v| v.1),
            part.base,
            part.amount,
            part.base_book,
            part.amount_book,
            part.reverse_book
        ])?;
        postings.push(Posting::debit(Account::Expenses, part.base_book).of(&part.key));
        postings.push(
            Posting::debit(Account::InputTax, part.amount_book + part.reverse_book).of(&part.key),
        );
        if part.reverse_book != 0 {
            postings.push(Posting::credit(Account::OutputTax, part.reverse_book).of(&part.key));
        }
    }
    postings.push(Posting::credit(Account::Payables, e.gross_book).of(e.supplier_id));
    for (n, line) in e.lines.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO purchase_lines (purchase_id, seq, line_id, description, quantity, unit, unit_price,
                 net, vat_category, vat_rate)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(params![
            e.id,
            n as i64,
            line.line_id,
            line.description,
            line.quantity.to_string(),
            line.unit,
            line.unit_price.to_string(),
            line.net,
            line.category,
            line.rate
        ])?;
    }
    ledger::post(tx, tenant, e.id, e.date, &postings)?;
    // A supplier's credit lowers the payables but is never due and is not an
    // open document of its own.
    let (due, documents) = match e.kind {
        PurchaseKind::Bill => (e.due, 1),
        PurchaseKind::Credit => (NEVER_DUE, 0),
    };
    open_items::change(
        tx,
        tenant,
        Side::Payable,
        e.date,
        due,
        e.gross_book,
        documents,
    )?;
    events::raise(tx, tenant, Event::PurchaseRecorded, e.id, e.recorded())?;
    Ok(())
}
