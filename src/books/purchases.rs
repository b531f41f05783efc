//! Purchases: incoming bills and supplier credits recorded by a person. Each
//! is one act with its ledger entry (expenses + input tax / payables), its
//! change to the open payables and its event. Money paid against a bill and
//! credits applied to bills are settlements (`books::settlement`). Every
//! query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::chart_accounts;
use crate::books::company;
use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger;
pub(crate) use crate::books::purchase_entry::{enter, Entry, EntryLine, Part};
use crate::books::suppliers;
use crate::error::said::{Bill, Input, Record, Sum};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::chart;
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::locale;
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
    /// The account of the chart the bill's one line goes to (a cost
    /// account's key or number); none: the account of the supplier's last
    /// bill, else the other operating expenses.
    pub account: Option<String>,
    /// The bill split over lines, each on its account at its rate; `net`
    /// and `tax`, when given, must be what the lines add up to.
    pub lines: Vec<CostLineInput>,
    /// The day the bill is booked (`YYYY-MM-DD`); none: the document date,
    /// or the first open day when the document date lies in closed books.
    pub posted: Option<String>,
    /// A person confirmed a document date more than a year back (the
    /// screens ask; the console and the API book as told).
    pub confirmed_old: bool,
    /// The supplier taxes on payments received (its invoice says
    /// "Versteuerung nach vereinnahmten Entgelten"): from 2028 the input
    /// tax is deductible only as the bill is paid.
    pub supplier_cash_basis: bool,
    /// The bill asks for a down payment: its input tax counts when paid.
    pub down_payment: bool,
}

/// One line of a typed bill: the account its cost goes to, its net in
/// minor units, its VAT rate (none: the bill's `tax_rate`).
#[derive(Debug, Default, Clone)]
pub struct CostLineInput {
    pub account: String,
    pub net: i64,
    pub rate: Option<String>,
}

/// A checked line of a typed bill (its account checked against the chart
/// when the bill is recorded).
#[derive(Debug, Clone)]
struct CostLine {
    /// As named; none: suggested.
    account: Option<String>,
    net: i64,
    rate: Option<Decimal>,
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
    lines: Vec<CostLine>,
    posted: Option<Date>,
    confirmed_old: bool,
    supplier_cash_basis: bool,
    down_payment: bool,
}

/// What a purchase says of its VAT.
#[derive(Debug, Clone, PartialEq)]
enum Taxed {
    /// Two totals: no rate, no tax key.
    Totals,
    /// The VAT at this rate (percent) charged on the bill.
    Rate(Decimal),
    /// Lines at rates of their own, each line's VAT on its net.
    Lines,
    /// The reverse charge at this rate: the company owes the tax.
    ReverseCharge(Decimal),
}

/// The rate of the reverse charge when a bill names none (Germany's).
const REVERSE_CHARGE_RATE: i64 = 19;

/// The longest supplier's name and document number of a purchase (characters).
pub const MAX_SUPPLIER: usize = 200;
pub const MAX_DOCUMENT_NUMBER: usize = 100;

/// An amount of the document for a refusal: in its currency, or in minor
/// units when the currency did not read.
fn sum_of(minor: i64, currency: Option<&Currency>) -> Sum {
    match currency {
        Some(c) => locale::sum(minor, c),
        None => Sum {
            minor,
            currency: String::new(),
        },
    }
}

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
                    v.invalid(field, Input::Missing);
                    Ok(None)
                }
                Some(d) => v.take(clock::parse_date(field, d)),
            }
        };
        let date = date_of("date", input.date.as_deref())?;
        let due = date_of("due", input.due.as_deref())?;
        let posted = match input.posted.as_deref().filter(|p| !p.trim().is_empty()) {
            Some(p) => v.take(clock::parse_date("posted", p))?,
            None => None,
        };
        if let (Some(date), Some(posted)) = (date, posted) {
            if posted < date {
                v.refused("posted", Bill::PostedBeforeDate { posted, date });
            }
        }
        let currency = match input.currency.as_deref() {
            None => {
                v.invalid("currency", Input::Missing);
                None
            }
            Some(c) => v.take(Currency::parse("currency", c))?,
        };
        let mut amount = |field: &str, value: Option<i64>| match value {
            None => {
                v.invalid(field, Input::Missing);
                0
            }
            Some(a) if !(0..=money::MAX_AMOUNT).contains(&a) => {
                v.invalid(field, Bill::NotPositiveOrCredit);
                0
            }
            Some(a) => a,
        };
        let split = !input.lines.is_empty();
        let net = if split && input.net.is_none() {
            0
        } else {
            amount("net", input.net)
        };
        let tax = if split && input.tax.is_none() {
            0
        } else {
            amount("tax", input.tax)
        };
        if !split && input.net.is_some() && input.tax.is_some() && net + tax == 0 {
            v.invalid("net", Bill::NoAmount);
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
                    v.invalid("taxRate", Input::NotPercentage);
                    None
                }
                d => d,
            },
            None => None,
        };
        // The lines of a split bill, each at its rate (else the bill's).
        let mut lines = Vec::with_capacity(input.lines.len());
        for (i, l) in input.lines.iter().enumerate() {
            if l.account.trim().is_empty() {
                v.invalid(format!("lines[{i}].account"), Input::Missing);
            }
            if !(1..=money::MAX_AMOUNT).contains(&l.net) {
                v.invalid(format!("lines[{i}].net"), Bill::NotPositiveMinor);
            }
            let rate = match l.rate.as_deref() {
                Some(r) => match v.take(Decimal::parse(&format!("lines[{i}].rate"), r))? {
                    Some(d)
                        if d.is_negative() || money::percent_of(100_000_000, d)? > 100_000_000 =>
                    {
                        v.invalid(format!("lines[{i}].rate"), Input::NotPercentage);
                        None
                    }
                    d => d,
                },
                None => tax_rate,
            };
            if rate.is_none() && !input.reverse_charge {
                v.invalid(format!("lines[{i}].rate"), Bill::LineRateMissing);
            }
            lines.push(CostLine {
                account: Some(l.account.trim().to_string()),
                net: l.net,
                rate,
            });
        }
        let (net, tax) = if split {
            let net_sum: i64 = lines.iter().map(|l| l.net).sum();
            let mut tax_sum = 0;
            if !input.reverse_charge {
                let mut rates: Vec<Decimal> = lines.iter().filter_map(|l| l.rate).collect();
                rates.sort_by_key(|r| r.to_string());
                rates.dedup();
                for r in rates {
                    let base: i64 = lines
                        .iter()
                        .filter(|l| l.rate == Some(r))
                        .map(|l| l.net)
                        .sum();
                    tax_sum += money::percent_of(base, r)?;
                }
            }
            if input.net.is_some_and(|n| n != net_sum) {
                v.refused(
                    "net",
                    Bill::LinesNetDiffer {
                        net: sum_of(net, currency.as_ref()),
                        lines: sum_of(net_sum, currency.as_ref()),
                    },
                );
            }
            if input.tax.is_some_and(|t| t != tax_sum) && !input.reverse_charge {
                v.refused(
                    "tax",
                    Bill::LinesTaxDiffer {
                        tax: sum_of(tax, currency.as_ref()),
                        lines: sum_of(tax_sum, currency.as_ref()),
                    },
                );
            }
            (net_sum, tax_sum)
        } else {
            lines.push(CostLine {
                account: input
                    .account
                    .as_deref()
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_string),
                net,
                rate: tax_rate,
            });
            (net, tax)
        };
        let taxed = match (input.reverse_charge, tax_rate) {
            (false, _) if split => Taxed::Lines,
            (true, rate) => {
                if input.tax.is_some_and(|t| t != 0) {
                    v.refused("tax", Bill::ReverseChargeTax);
                }
                Taxed::ReverseCharge(rate.unwrap_or(Decimal::from_int(REVERSE_CHARGE_RATE)))
            }
            (false, Some(rate)) => Taxed::Rate(rate),
            (false, None) => Taxed::Totals,
        };
        if let (Some(date), Some(due)) = (date, due) {
            if due < date {
                v.refused("due", Bill::DueBeforeDate { due, date });
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
                    lines,
                    posted,
                    confirmed_old: input.confirmed_old,
                    supplier_cash_basis: input.supplier_cash_basis,
                    down_payment: input.down_payment,
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
    /// The day it is booked: its entry's date, which decides its VAT period.
    pub posted_on: Date,
    pub due_on: Date,
    pub currency: Currency,
    pub net: Money,
    pub tax: Money,
    pub gross: Money,
    pub outstanding: Money,
    pub paid_on: Option<Date>,
    pub recorded_at: String,
    /// The last day the supplier's cash discount may be taken (a received
    /// e-invoice's payment terms), and its percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discount_until: Option<Date>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discount_percent: Option<Decimal>,
    /// The supplier taxes on payments received (shown when it does).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub supplier_cash_basis: bool,
    /// A down payment (shown when it is one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub down_payment: bool,
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
                p.net, p.tax, p.gross, p.outstanding, p.paid_on, p.recorded_at, p.rate, p.outstanding_book,
                p.posted_on, p.discount_until, p.discount_percent, p.supplier_cash_basis, p.down_payment
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
                posted_on: r.get(16)?,
                due_on: r.get(6)?,
                net: money(8)?,
                tax: money(9)?,
                gross: money(10)?,
                outstanding: money(11)?,
                paid_on: r.get(12)?,
                recorded_at: r.get(13)?,
                discount_until: r.get(17)?,
                discount_percent: r.get(18)?,
                supplier_cash_basis: r.get(19)?,
                down_payment: r.get(20)?,
                currency: currency.clone(),
            },
            kind,
            rate: r.get(14)?,
            outstanding: r.get(11)?,
            outstanding_book: r.get(15)?,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Purchase, id.to_string())))
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

/// How far back a document date may lie before a person is asked to
/// confirm it (the screens ask).
const OLD_AFTER_DAYS: i32 = 365;

/// The day a bill dated `date` is booked: `posted` when given (never in
/// closed books), else the document date, or the first open day when the
/// document date lies in closed books (a late bill goes into the first
/// open period and its VAT return; the closed one stays as filed).
///
/// Fails with `Refused` naming `posted` for a day in closed books, and
/// naming `date` for a document date more than a year before today that
/// nobody `confirmed`.
pub fn posting_date(
    conn: &Connection,
    tenant: &Tenant,
    company: &company::Company,
    date: Date,
    posted: Option<Date>,
    confirmed: bool,
) -> Result<Date> {
    let today = company.today();
    if !confirmed && date < today.saturating_sub(jiff::Span::new().days(OLD_AFTER_DAYS)) {
        return Err(Error::refused_at(
            "date",
            Bill::YearBack {
                date,
                posted: posted.unwrap_or(date.max(first_open_day(conn, tenant)?.unwrap_or(date))),
            },
        ));
    }
    match posted {
        Some(p) => match ledger::closed_through(conn, tenant)? {
            Some(through) if p <= through => Err(Error::refused_at(
                "posted",
                Bill::PostedInClosedBooks { posted: p, through },
            )),
            _ => Ok(p),
        },
        None => Ok(match first_open_day(conn, tenant)? {
            Some(open) if date < open => open,
            _ => date,
        }),
    }
}

/// The first day after closed books, if any are closed.
fn first_open_day(conn: &Connection, tenant: &Tenant) -> Result<Option<Date>> {
    Ok(ledger::closed_through(conn, tenant)?.and_then(|through| through.tomorrow().ok()))
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
    let posted = verdict.take(posting_date(
        tx,
        tenant,
        &company,
        new.date,
        new.posted,
        new.confirmed_old,
    ))?;
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
        verdict.refuse(Bill::Duplicate {
            supplier: supplier.to_string(),
            number: number.to_string(),
            earlier,
        });
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
                verdict.refuse(Bill::WorthNothing {
                    rate: rate.to_string(),
                    currency: company.currency.as_str().to_string(),
                });
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
    // Each line's account: as named, else the supplier's last, else the
    // other operating expenses.
    let known = suppliers::supplier_named(tx, tenant, supplier)?;
    let suggested = match &known {
        Some(id) => proposed_account(tx, tenant, id)?,
        None => OTHER_EXPENSES.to_string(),
    };
    let mut verdict = Violations::new();
    let mut accounts = Vec::with_capacity(new.lines.len());
    for (i, line) in new.lines.iter().enumerate() {
        let field = if new.lines.len() == 1 && new.taxed != Taxed::Lines {
            "account".to_string()
        } else {
            format!("lines[{i}].account")
        };
        accounts.push(match &line.account {
            Some(named) => verdict
                .take(chart_accounts::cost_account(
                    tx,
                    &tenant.company_id,
                    &field,
                    named,
                ))?
                .unwrap_or_default(),
            None => suggested.clone(),
        });
    }
    verdict.finish()?;
    // Two totals whose tax is one of the country's rates on the net, to the
    // cent, are a bill at that rate.
    let taxed = match &new.taxed {
        Taxed::Totals if new.tax != 0 => jurisdiction::vat_rates(company.country.as_str())
            .into_iter()
            .filter_map(|r| Decimal::parse("rate", r).ok())
            .find(|r| money::percent_of(new.net, *r).ok() == Some(new.tax))
            .map_or(Taxed::Totals, Taxed::Rate),
        other => other.clone(),
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
    let (exp, book_exp) = (new.currency.exponent(), company.currency.exponent());
    let lines: Vec<(String, i64, Option<Decimal>)> = new
        .lines
        .iter()
        .zip(&accounts)
        .map(|(l, a)| (a.clone(), sign * l.net, l.rate))
        .collect();
    let parts = typed_parts(
        &taxed,
        new.supplier_vat_id.as_deref(),
        company.country.as_str(),
        &lines,
        tax,
        (rate, exp, book_exp),
        net_book,
        tax_book,
    )?;
    let entry_lines = parts
        .iter()
        .flat_map(|p| {
            p.lines.iter().map(|(account, net)| EntryLine {
                line_id: String::new(),
                description: chart::standard(account)
                    .map_or_else(|| account.clone(), |a| a.name_de.to_string()),
                quantity: Decimal::from_int(1),
                unit: "C62".to_string(),
                unit_price: Decimal::from_minor(*net, exp),
                net: *net,
                category: p.vat.as_ref().map(|v| v.0.clone()).unwrap_or_default(),
                rate: p.vat.as_ref().map(|v| v.1).unwrap_or(Decimal::from_int(0)),
                account: account.clone(),
            })
        })
        .enumerate()
        .map(|(n, mut l)| {
            l.line_id = (n + 1).to_string();
            l
        })
        .collect();
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
            posted: posted.unwrap_or(new.date),
            due: new.due,
            currency: &new.currency,
            rate,
            net,
            tax,
            gross_book,
            parts,
            lines: entry_lines,
            payment_reference: None,
            payee_iban: None,
            discount: None,
            supplier_cash_basis: new.supplier_cash_basis,
            down_payment: new.down_payment,
        },
    )?;
    audit::record(tx, tenant, actor, Act::BillRecorded, &id)?;
    Ok(id)
}

/// The account proposed for a supplier's next bill line: that of its last
/// bill line with one, else the other operating expenses.
///
/// Fails only on a storage error.
pub(crate) fn proposed_account(
    conn: &Connection,
    tenant: &Tenant,
    supplier_id: &str,
) -> Result<String> {
    let last: Option<String> = conn
        .prepare_cached(
            "SELECT l.account FROM purchase_lines l JOIN purchases p ON p.id = l.purchase_id
             WHERE p.company_id = ?1 AND p.environment = ?2 AND p.supplier_id = ?3 AND l.account <> ''
             ORDER BY p.seq DESC, l.seq LIMIT 1",
        )?
        .query_row(params![tenant.company_id, tenant.environment, supplier_id], |r| r.get(0))
        .optional()?;
    Ok(last.unwrap_or_else(|| OTHER_EXPENSES.to_string()))
}

/// The tax keys of a typed bill, each with its lines' costs on the
/// chart's accounts. A bill typed as two totals names no rate: its expense
/// and input tax carry no tax key (and go on the general accounts). A rate
/// files a line under `S:rate` (`E:0` for 0). Under the reverse charge the
/// supplier charged nothing, and the company owes the tax on the net and
/// deducts it again: both taxes under `AE:rate`, with `:EU` for a supplier
/// in another member state (its VAT id's prefix says where). `lines` are
/// (account, net signed as booked, rate); `tax` the bill's VAT as booked
/// (for one key), else each key's VAT is its rate on its lines' nets. The
/// book amounts of each key are split over its lines in proportion to
/// their nets (the rest to the largest), and a line on entertainment into
/// its 70 % deductible and 30 % non-deductible parts (§ 4 (5) no. 2 EStG).
#[allow(clippy::too_many_arguments)]
fn typed_parts(
    taxed: &Taxed,
    supplier_vat_id: Option<&str>,
    country: &str,
    lines: &[(String, i64, Option<Decimal>)],
    tax: i64,
    (rate, exp, book_exp): (Decimal, u8, u8),
    net_book: i64,
    tax_book: i64,
) -> Result<Vec<Part>> {
    let from_eu = supplier_vat_id.is_some_and(|id| {
        let prefix = id.trim().get(..2).unwrap_or("").to_ascii_uppercase();
        let prefix = if prefix == "EL" {
            "GR".to_string()
        } else {
            prefix
        };
        prefix != country && jurisdiction::in_eu(&prefix)
    });
    let key_of = |line_rate: Option<Decimal>| -> (String, Option<(String, Decimal)>) {
        let keyed = |r: Decimal| {
            let category = if r.is_zero() { "E" } else { "S" };
            (
                ledger::tax_key(category, &r, false),
                Some((category.to_string(), r)),
            )
        };
        match (taxed, line_rate) {
            (Taxed::ReverseCharge(r), line) => {
                let r = line.unwrap_or(*r);
                (
                    ledger::tax_key("AE", &r, from_eu),
                    Some(("AE".to_string(), r)),
                )
            }
            (Taxed::Rate(r), _) => keyed(*r),
            (Taxed::Lines, Some(r)) => keyed(r),
            (Taxed::Totals, _) | (Taxed::Lines, None) => (String::new(), None),
        }
    };
    // The keys in the order their lines come, each with its lines.
    type Keyed = (String, Option<(String, Decimal)>, Vec<(String, i64)>);
    let mut keys: Vec<Keyed> = Vec::new();
    for (account, net, line_rate) in lines {
        let (key, vat) = key_of(*line_rate);
        match keys.iter_mut().find(|k| k.0 == key) {
            Some(k) => k.2.push((account.clone(), *net)),
            None => keys.push((key, vat, vec![(account.clone(), *net)])),
        }
    }
    let mut documented: Vec<(String, i64, i64)> = Vec::with_capacity(keys.len());
    for (key, vat, key_lines) in &keys {
        let base: i64 = key_lines.iter().map(|l| l.1).sum();
        let key_tax = match (taxed, vat) {
            (Taxed::Lines, Some((_, r))) => money::percent_of(base, *r)?,
            (Taxed::ReverseCharge(_), _) => 0,
            _ => tax,
        };
        documented.push((key.clone(), base, key_tax));
    }
    let booked = ledger::split_by_key(&documented, rate, exp, book_exp, net_book, tax_book)?;
    let mut parts = Vec::with_capacity(keys.len());
    for ((key, vat, key_lines), ((_, base, amount), (_, base_book, amount_book))) in
        keys.into_iter().zip(documented.into_iter().zip(booked))
    {
        let reverse_book = match &vat {
            Some((c, r)) if c == "AE" => money::percent_of(base_book, *r)?,
            _ => 0,
        };
        parts.push(part(
            key,
            vat,
            key_lines,
            (base, amount),
            (base_book, amount_book),
            reverse_book,
        )?);
    }
    Ok(parts)
}

/// One tax key's part of a purchase: its `lines` (account, net), its base
/// and VAT as `stated` and in the `book` currency, its reverse charge's
/// VAT; the book base split over the lines' accounts by `costs`.
///
/// Fails only as `costs` fails.
pub(crate) fn part(
    key: String,
    vat: Option<(String, Decimal)>,
    lines: Vec<(String, i64)>,
    (base, amount): (i64, i64),
    (base_book, amount_book): (i64, i64),
    reverse_book: i64,
) -> Result<Part> {
    Ok(Part {
        costs: costs(&lines, base_book)?,
        lines,
        key,
        vat,
        base,
        amount,
        base_book,
        amount_book,
        reverse_book,
    })
}

/// `base_book` split over `lines` (account, net) in proportion to their
/// nets, the rest of the rounding to the largest; a line on entertainment
/// into its deductible 70 % and its non-deductible 30 % (§ 4 (5) no. 2
/// EStG), each on its own account. Accounts repeated are summed.
fn costs(lines: &[(String, i64)], base_book: i64) -> Result<Vec<(String, i64)>> {
    let whole: i64 = lines.iter().map(|l| l.1).sum();
    let largest = (0..lines.len())
        .max_by_key(|i| (lines[*i].1.abs(), std::cmp::Reverse(*i)))
        .unwrap_or(0);
    let mut shares: Vec<i64> = lines
        .iter()
        .map(|(_, net)| {
            if whole == 0 {
                0
            } else {
                money::in_proportion(base_book, *net, whole)
            }
        })
        .collect();
    let rest = base_book - shares.iter().sum::<i64>();
    if let Some(share) = shares.get_mut(largest) {
        *share += rest;
    }
    let mut out: Vec<(String, i64)> = Vec::with_capacity(lines.len() + 1);
    let mut add = |account: &str, amount: i64| match out.iter_mut().find(|o| o.0 == account) {
        Some(o) => o.1 += amount,
        None => out.push((account.to_string(), amount)),
    };
    for ((account, _), share) in lines.iter().zip(shares) {
        if account == ENTERTAINMENT {
            let not_deductible = money::percent_of(share, Decimal::from_int(30))?;
            add(ENTERTAINMENT, share - not_deductible);
            add(ENTERTAINMENT_NOT_DEDUCTIBLE, not_deductible);
        } else {
            add(account, share);
        }
    }
    Ok(out)
}

/// The entertainment account a bill's line names, and where its
/// non-deductible 30 % goes (§ 4 (5) no. 2 EStG).
const ENTERTAINMENT: &str = "entertainment";
/// Where a cost goes that names no account and whose supplier has none.
const OTHER_EXPENSES: &str = "other_expenses";
const ENTERTAINMENT_NOT_DEDUCTIBLE: &str = "entertainment_nondeductible";
