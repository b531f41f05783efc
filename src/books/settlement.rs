//! Settlement: the one act by which an open document comes to owe less,
//! for sales and purchases alike. Money in against an invoice, money out
//! against a bill, and a supplier's credit applied to a bill of the same
//! supplier all pass through `settle`: the checks (not more than is owed,
//! not before the document, in date order, not in closed books), the book
//! amount, the document's new balance, the open items, the ledger entry and
//! the record of the settlement with its events, in the caller's transaction.
//! A bank line settles through the same act: its payment names the line and
//! posts against that bank account's ledger detail; the difference a person
//! books settles without money. What a bank line settled, and a payment a
//! person recorded by hand and takes back with a reason
//! (`reverse_payment`), is undone by the one counter-posting (`reverse`),
//! never deleted; the payment's row is `books::payments`'. Every act that
//! changes what a document owes has the bank lines whose suggestions name
//! it computed again (`bank::suggest::refresh`), the import's own
//! payments once at its end.

use jiff::civil::Date;
use rusqlite::params;

use crate::books::audit::{self, Act, Actor};
use crate::books::bank::suggest;
use crate::books::company::{self, Company};
use crate::books::document_kinds::{DocumentType, PurchaseKind};
use crate::books::invoices::{self, Move};
use crate::books::ledger::{self, Account, Posting};
use crate::books::payments::{self, Reversal};
use crate::books::purchases;
use crate::books::report::{self, Side, NEVER_DUE};
use crate::books::settling;
use crate::books::vat_due;
use crate::error::said::{Input, Settle, Settling};
use crate::error::{Error, Result, Violations};
use crate::outbox::events::{self, EventKind as Event, Fields};
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::rules::money::{self, Decimal, Money};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

// A payment's record is `books::payments`'; a settlement's callers know it here.
pub use crate::books::payments::{
    invoice_payments, CreditInput, CreditRequest, CreditView, Direction, Method, PaymentView,
    TargetKind,
};

/// A payment as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct PaymentInput {
    /// Minor units of the document's currency.
    pub amount: Option<i64>,
    /// The payment date (default today in the company's time zone).
    pub on: Option<String>,
    /// `bank` (the default), `cash`, `card` or `other`.
    pub method: Option<String>,
    pub reference: Option<String>,
}

/// A checked payment.
#[derive(Debug, Clone)]
pub struct NewPayment {
    amount: i64,
    on: Option<Date>,
    method: Method,
    reference: Option<String>,
    bank: Option<BankSource>,
}

/// Where a payment from a bank line came from.
#[derive(Debug, Clone)]
pub struct BankSource {
    /// The company's bank account: the bank posting's ledger detail.
    pub account_id: String,
    pub line_id: String,
    /// The line's currency: it settles documents owed in it only.
    pub currency: Currency,
    /// The statement file, when the import settled it (a certain match).
    pub import: Option<String>,
}

/// The longest reference of a payment (characters).
pub const MAX_REFERENCE: usize = 200;

impl NewPayment {
    /// Checks a payment: a positive amount, a date `YYYY-MM-DD`, a method,
    /// a reference of at most 200 characters (blank is none).
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed.
    pub fn check(input: PaymentInput) -> Result<NewPayment> {
        let mut v = Violations::new();
        let amount = match input.amount {
            None => {
                v.invalid("amount", Input::Missing);
                0
            }
            Some(a) if a <= 0 || a > money::MAX_AMOUNT => {
                v.invalid("amount", Settle::NotPositiveMinor);
                0
            }
            Some(a) => a,
        };
        let on = match input.on.as_deref() {
            Some(d) => v.take(clock::parse_date("on", d))?,
            None => None,
        };
        let method = match input.method.as_deref() {
            None => Method::Bank,
            Some(m) => Method::parse(m.trim()).unwrap_or_else(|| {
                v.invalid("method", Method::not_one_of(m));
                Method::Bank
            }),
        };
        let reference = input.reference.filter(|r| !r.trim().is_empty());
        let reference = v
            .take(text::optional(
                "reference",
                reference.as_deref(),
                MAX_REFERENCE,
            ))?
            .flatten();
        v.finish()?;
        Ok(NewPayment {
            amount,
            on,
            method,
            reference,
            bank: None,
        })
    }

    /// A payment from a bank line: method `bank`, the line's amount for
    /// the document and its booking day, posted against its bank account.
    pub fn from_bank(
        amount: i64,
        on: Date,
        reference: Option<String>,
        source: BankSource,
    ) -> NewPayment {
        let reference = reference.map(|r| r.chars().take(MAX_REFERENCE).collect());
        NewPayment {
            amount,
            on: Some(on),
            method: Method::Bank,
            reference,
            bank: Some(source),
        }
    }

    /// The act the audit names: the import's own for its certain matches.
    fn act(&self, person: Act) -> Act {
        match &self.bank {
            Some(BankSource {
                import: Some(_), ..
            }) => Act::PaymentImported,
            _ => person,
        }
    }

    /// Whether the bank import settles it (a certain match): the import
    /// computes the suggestions its settlements touch once, at its end.
    fn imported(&self) -> bool {
        self.bank.as_ref().is_some_and(|b| b.import.is_some())
    }

    /// The bank posting's ledger detail: the bank account, or '' for money
    /// not tied to one.
    fn detail(&self) -> &str {
        self.bank.as_ref().map_or("", |b| b.account_id.as_str())
    }
}

/// An open document as a settlement sees it.
struct Open {
    side: Side,
    id: String,
    /// How a person names it (its number, or the bill's id).
    label: String,
    /// The customer or supplier it is owed by or to.
    partner_id: String,
    currency: Currency,
    rate: Decimal,
    date: Date,
    due_on: Date,
    outstanding: i64,
    outstanding_book: i64,
}

/// How a document is settled.
enum How<'a> {
    Money(&'a NewPayment),
    /// By a supplier's credit (open, negative), in the book currency.
    Credit(&'a Open),
    /// Without money: the difference a person books to an account (a fee,
    /// a discount), as the ledger entry named.
    Difference(Account, &'a str),
    /// By a customer's credit (money a bank line paid before the invoice's
    /// date), as the ledger entry named: money received, for the VAT due
    /// with it too.
    CustomerCredit(&'a str),
}

/// What a settlement made.
struct Settled {
    id: String,
    cleared: bool,
    /// The payment, when money moved.
    payment: Option<PaymentView>,
}

/// Refuses a settlement of `doc` dated `on` before the document or before
/// an earlier settlement of it.
fn check_date(
    tx: &Tx,
    tenant: &Tenant,
    doc: &Open,
    on: Date,
    what: Settling,
    verdict: &mut Violations,
) -> Result<()> {
    let dated = settling::Dated {
        id: &doc.id,
        label: &doc.label,
        date: doc.date,
    };
    settling::check_date(tx, tenant, dated, on, what, verdict)
}

/// The book amount of settling `amount` of a document: the whole open book
/// amount when it clears the document, else the converted amount (never all of it).
///
/// Fails with `Refused` for an amount that is worth nothing in the book currency.
fn book_amount(doc: &Open, amount: i64, company: &Company) -> Result<i64> {
    if amount == doc.outstanding {
        return Ok(doc.outstanding_book);
    }
    let converted = money::convert(
        amount,
        doc.rate,
        doc.currency.exponent(),
        company.currency.exponent(),
    )?
    .clamp(0, (doc.outstanding_book - 1).max(0));
    if converted == 0 {
        return Err(Error::refused(Settle::TooSmallForBookCurrency));
    }
    Ok(converted)
}

/// The one settlement act: `doc` comes to owe `amount` less on `on`.
fn settle(
    tx: &Tx,
    tenant: &Tenant,
    company: &Company,
    doc: &Open,
    amount: i64,
    on: Date,
    how: How,
) -> Result<Settled> {
    let mut verdict = Violations::new();
    settling::check_amount(
        &doc.label,
        doc.outstanding,
        amount,
        &doc.currency,
        &mut verdict,
    );
    let what = match how {
        How::Money(_) => Settling::Payment,
        How::Credit(_) => Settling::CreditApplication,
        How::Difference(..) => Settling::Settlement,
        How::CustomerCredit(_) => Settling::CreditApplication,
    };
    if let How::Money(NewPayment {
        bank: Some(line), ..
    }) = &how
    {
        settling::check_currency(
            &line.line_id,
            &line.currency,
            &doc.label,
            &doc.currency,
            &mut verdict,
        );
    }
    check_date(tx, tenant, doc, on, what, &mut verdict)?;
    if let How::Credit(credit) = &how {
        check_date(tx, tenant, credit, on, what, &mut verdict)?;
    }
    verdict.take(ledger::check_open(tx, tenant, on))?;
    verdict.finish()?;
    let amount_book = book_amount(doc, amount, company)?;
    let cleared = amount == doc.outstanding;
    move_balance(tx, tenant, doc, -amount, -amount_book, on)?;
    report::change(
        tx,
        tenant,
        doc.side,
        on,
        doc.due_on,
        -amount_book,
        if cleared { -1 } else { 0 },
    )?;
    let settling = vat_due::Settling {
        side: doc.side,
        document: &doc.id,
        entry: "",
        payment: None,
        amount: amount_book,
        clears: cleared,
        on,
    };
    let (id, payment, postings) = match how {
        How::Money(payment) => {
            let view = write_payment(tx, tenant, doc, payment, amount_book, on)?;
            let bank = payment.detail();
            let mut postings = match doc.side {
                Side::Receivable => vec![
                    Posting::debit(Account::Bank, amount_book).of(bank),
                    Posting::credit(Account::Receivables, amount_book).of(&doc.partner_id),
                ],
                Side::Payable => vec![
                    Posting::debit(Account::Payables, amount_book).of(&doc.partner_id),
                    Posting::credit(Account::Bank, amount_book).of(bank),
                ],
            };
            // What of the document's VAT waited for this money.
            let paid = vat_due::Settling {
                entry: &view.id,
                payment: Some(&view.id),
                ..settling
            };
            postings.extend(vat_due::money(tx, tenant, &paid)?);
            (view.id.clone(), Some(view), postings)
        }
        How::Difference(account, entry) => {
            let differing = vat_due::Settling { entry, ..settling };
            let mut postings = vat_due::difference(tx, tenant, &differing, account)?;
            postings.push(match doc.side {
                Side::Receivable => {
                    Posting::credit(Account::Receivables, amount_book).of(&doc.partner_id)
                }
                Side::Payable => Posting::debit(Account::Payables, amount_book).of(&doc.partner_id),
            });
            (entry.to_string(), None, postings)
        }
        How::CustomerCredit(entry) => {
            let mut postings = vec![
                Posting::debit(Account::CustomerCredits, amount_book),
                Posting::credit(Account::Receivables, amount_book).of(&doc.partner_id),
            ];
            // The credit was money received: what of the invoice's VAT
            // waited for money falls due with it.
            let paid = vat_due::Settling { entry, ..settling };
            postings.extend(vat_due::money(tx, tenant, &paid)?);
            (entry.to_string(), None, postings)
        }
        How::Credit(credit) => {
            // The credit has that much less left: its negative balance rises.
            move_balance(tx, tenant, credit, amount, amount_book, on)?;
            report::change(tx, tenant, Side::Payable, on, NEVER_DUE, amount_book, 0)?;
            let id = ids::new_id("cra");
            tx.prepare_cached(
                "INSERT INTO credit_applications (id, company_id, environment, credit_id, bill_id, currency,
                     amount, amount_book, applied_on, recorded_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                id,
                tenant.company_id,
                tenant.environment,
                credit.id,
                doc.id,
                doc.currency,
                amount,
                amount_book,
                on,
                clock::now()
            ])?;
            let mut postings = vec![
                Posting::debit(Account::Payables, amount_book).of(&doc.partner_id),
                Posting::credit(Account::Payables, amount_book).of(&credit.partner_id),
            ];
            // A credit applied pays the bill and is paid back itself.
            let paid = vat_due::Settling {
                entry: &id,
                ..settling
            };
            let used = vat_due::Settling {
                document: &credit.id,
                clears: credit.outstanding + amount == 0,
                ..paid
            };
            postings.extend(vat_due::money(tx, tenant, &paid)?);
            postings.extend(vat_due::money(tx, tenant, &used)?);
            (id, None, postings)
        }
    };
    ledger::post(tx, tenant, &id, on, &postings)?;
    Ok(Settled {
        id,
        cleared,
        payment,
    })
}

/// Settles `doc` by money, on the payment's date or today in the company's
/// time zone; returns what `settle` made and the date.
fn pay(
    tx: &Tx,
    tenant: &Tenant,
    company: &Company,
    doc: &Open,
    payment: &NewPayment,
) -> Result<(Settled, Date)> {
    let on = payment.on.unwrap_or_else(|| company.today());
    let settled = settle(
        tx,
        tenant,
        company,
        doc,
        payment.amount,
        on,
        How::Money(payment),
    )?;
    Ok((settled, on))
}

/// Moves what a document owes by `delta` (and its book amount by
/// `delta_book`); the day it reaches zero is its `paid_on`, and it has none
/// while anything is owed (a reversal reopens it).
fn move_balance(
    tx: &Tx,
    tenant: &Tenant,
    doc: &Open,
    delta: i64,
    delta_book: i64,
    on: Date,
) -> Result<()> {
    let sql = match doc.side {
        Side::Receivable => {
            "UPDATE invoices SET outstanding = outstanding + ?2, outstanding_book = outstanding_book + ?3,
                 paid_on = CASE WHEN outstanding + ?2 = 0 THEN ?4 ELSE NULL END
             WHERE id = ?1 AND company_id = ?5 AND environment = ?6"
        }
        Side::Payable => {
            "UPDATE purchases SET outstanding = outstanding + ?2, outstanding_book = outstanding_book + ?3,
                 paid_on = CASE WHEN outstanding + ?2 = 0 THEN ?4 ELSE NULL END
             WHERE id = ?1 AND company_id = ?5 AND environment = ?6"
        }
    };
    tx.prepare_cached(sql)?.execute(params![
        doc.id,
        delta,
        delta_book,
        on,
        tenant.company_id,
        tenant.environment
    ])?;
    Ok(())
}

/// Writes the payment and its `payment.recorded` event; returns the payment.
fn write_payment(
    tx: &Tx,
    tenant: &Tenant,
    doc: &Open,
    p: &NewPayment,
    amount_book: i64,
    on: Date,
) -> Result<PaymentView> {
    let (direction, kind) = match doc.side {
        Side::Receivable => (Direction::In, TargetKind::Invoice),
        Side::Payable => (Direction::Out, TargetKind::Purchase),
    };
    let view = PaymentView {
        id: ids::new_id("pay"),
        direction,
        target_kind: kind,
        target_id: doc.id.clone(),
        amount: Money::new(p.amount, &doc.currency),
        method: p.method,
        reference: p.reference.clone(),
        paid_on: on,
        reversed_on: None,
        reversal_reason: None,
    };
    let line = p.bank.as_ref().map(|b| b.line_id.as_str());
    payments::insert(tx, tenant, &view, amount_book, line)?;
    let mut f = Fields::new();
    f.insert("amountMinor", p.amount.to_string());
    f.insert("direction", direction.as_str().to_string());
    f.insert("method", p.method.as_str().to_string());
    f.insert("reference", p.reference.clone().unwrap_or_default());
    f.insert("targetId", doc.id.clone());
    f.insert("targetKind", kind.as_str().to_string());
    events::raise(tx, tenant, Event::PaymentRecorded, &view.id, f)?;
    Ok(view)
}

/// The payment a settlement by money made.
///
/// Fails with `Internal` when it made none, which `How::Money` never does.
fn payment_of(settled: Settled) -> Result<PaymentView> {
    settled
        .payment
        .ok_or_else(|| Error::internal("a payment was settled without its record"))
}

/// Records money in against the invoice `number`: partial payments are
/// allowed, more than is outstanding is not. Raises `payment.recorded` and,
/// when the payment clears the invoice, `invoice.paid`. Returns the payment
/// and the invoice's id. Recorded as `payment.recorded` on the invoice by
/// `actor`.
///
/// Fails with `NotFound` for an unknown number, `WrongState` for a
/// correction, a cancelled or a fully paid invoice, and `Refused` as `settle`
/// refuses.
pub fn pay_invoice(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    number: &str,
    payment: &NewPayment,
) -> Result<(PaymentView, String)> {
    let company = company::get(tx, &tenant.company_id)?;
    let invoice = invoices::stored_by_number(tx, tenant, number)?;
    settling::invoice_takes_money(
        number,
        invoice.document_type == DocumentType::Correction,
        invoice.cancelled_by_id.is_some(),
        invoice.outstanding,
    )?;
    let doc = open_invoice(&invoice);
    let (settled, on) = pay(tx, tenant, &company, &doc, payment)?;
    let mut invoice = invoice;
    if settled.cleared {
        // The invoice as `settle` left it: nothing owed since `on`.
        invoice.outstanding = 0;
        invoice.outstanding_book = 0;
        invoice.paid_on = Some(on);
        cleared_invoice(tx, tenant, &company, &invoice, on)?;
    }
    audit::record(
        tx,
        tenant,
        actor,
        payment.act(Act::PaymentRecorded),
        &invoice.id,
    )?;
    if !payment.imported() {
        suggest::refresh_one(tx, tenant, &invoice.id)?;
    }
    Ok((payment_of(settled)?, invoice.id))
}

/// An invoice as a settlement sees it.
fn open_invoice(invoice: &invoices::Stored) -> Open {
    Open {
        side: Side::Receivable,
        id: invoice.id.clone(),
        label: invoice.number.clone(),
        partner_id: invoice.customer_id.clone(),
        currency: invoice.currency.clone(),
        rate: invoice.rate,
        date: invoice.issued_on,
        due_on: invoice.due_on,
        outstanding: invoice.outstanding,
        outstanding_book: invoice.outstanding_book,
    }
}

/// A document of the tenant by its kind and id, as a settlement sees it.
fn open_document(tx: &Tx, tenant: &Tenant, kind: TargetKind, id: &str) -> Result<Open> {
    match kind {
        TargetKind::Invoice => Ok(open_invoice(&invoices::stored_by_id(tx, tenant, id)?)),
        TargetKind::Purchase => Ok(open_purchase(tx, tenant, id)?.0),
    }
}

/// Raises `invoice.paid` for an invoice a settlement cleared (`paid`, as it
/// stands after the settlement).
fn cleared_invoice(
    tx: &Tx,
    tenant: &Tenant,
    company: &Company,
    paid: &invoices::Stored,
    on: Date,
) -> Result<()> {
    invoices::count(tx, tenant, Move::Paid)?;
    let mut f = paid.event_fields(company.today());
    f.insert("paidOn", on.to_string());
    events::raise(tx, tenant, Event::InvoicePaid, &paid.id, f)?;
    Ok(())
}

/// Settles `amount` of a document without money, to `account` (a fee or a
/// discount: the difference of a partial or fee-reduced payment a person
/// books), as the ledger entry `entry`. Raises `invoice.paid` when it
/// clears an invoice; recorded as `difference.booked` on the document.
///
/// Fails with `NotFound` for an unknown document, `WrongState` for one
/// that owes nothing, and `Refused` as `settle` refuses.
#[allow(clippy::too_many_arguments)]
pub fn settle_difference(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    kind: TargetKind,
    id: &str,
    amount: i64,
    on: Date,
    account: Account,
    entry: &str,
) -> Result<()> {
    let doc = open_document(tx, tenant, kind, id)?;
    let how = How::Difference(account, entry);
    without_money(
        tx,
        tenant,
        actor,
        &doc,
        amount,
        on,
        (how, Act::DifferenceBooked),
    )
}

/// Applies `amount` of a customer's credit to the invoice `id` on `on`, as
/// the ledger entry `entry`: the money a bank line paid before the
/// invoice's date, kept as the customer's credit, now settles it
/// (customer credits to receivables). Raises `invoice.paid` when it clears
/// the invoice; recorded as `invoice.credit_applied`.
///
/// Fails as `settle_difference` fails.
pub fn apply_customer_credit(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    amount: i64,
    on: Date,
    entry: &str,
) -> Result<()> {
    let doc = open_document(tx, tenant, TargetKind::Invoice, id)?;
    let how = How::CustomerCredit(entry);
    without_money(
        tx,
        tenant,
        actor,
        &doc,
        amount,
        on,
        (how, Act::InvoiceCreditApplied),
    )
}

/// Settles `amount` of `doc` without money moving now, as `how` says,
/// recorded as `act`.
fn without_money(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    doc: &Open,
    amount: i64,
    on: Date,
    (how, act): (How, Act),
) -> Result<()> {
    let company = company::get(tx, &tenant.company_id)?;
    if doc.outstanding <= 0 {
        return Err(Error::wrong_state(Settle::OwesNothing {
            document: doc.label.clone(),
        }));
    }
    let settled = settle(tx, tenant, &company, doc, amount, on, how)?;
    if settled.cleared && doc.side == Side::Receivable {
        let invoice = invoices::stored_by_id(tx, tenant, &doc.id)?;
        cleared_invoice(tx, tenant, &company, &invoice, on)?;
    }
    audit::record(tx, tenant, actor, act, &doc.id)?;
    suggest::refresh_one(tx, tenant, &doc.id)
}

/// Who takes a settlement back, which decides the payments it may take.
#[derive(Debug, Clone, Copy)]
pub enum Undoing<'a> {
    /// A bank line undone, or a returned direct debit: its own payments.
    BankLine,
    /// A person taking back a payment recorded by hand, for a reason.
    Person { reason: &'a str },
}

/// Undoes a settlement of a document by a counter-posting dated `on` (the
/// entry `entry` mirrors the ledger entry `original`): the document owes
/// `amount` more again (reopened if it was paid), the open items follow,
/// and a payment (`original` is its id) is marked reversed, never deleted,
/// with the person's reason. A bank line takes back only payments from a
/// bank line, a person only those recorded by hand, on or after the
/// payment's day. Raises no event. Recorded as `settlement.reversed` on
/// the document.
///
/// Fails with `NotFound` for an unknown document, payment or entry,
/// `WrongState` for a payment already reversed, or one the other way
/// (`by`) must take back, and `Refused` for a person's day before the
/// payment or a day in closed books.
#[allow(clippy::too_many_arguments)]
pub fn reverse(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    kind: TargetKind,
    id: &str,
    original: &str,
    amount: i64,
    on: Date,
    entry: &str,
    by: Undoing,
) -> Result<()> {
    let mut verdict = Violations::new();
    // A payment's entry is the payment; a difference's is the bank line's settlement.
    let payment = if original.starts_with("pay_") {
        Some(payments::recorded(tx, tenant, original)?)
    } else {
        None
    };
    if let Some(payment) = &payment {
        if let Some(day) = payment.view.reversed_on {
            return Err(Error::wrong_state(Settle::Reversed {
                payment: original.to_string(),
                on: day,
            }));
        }
        match (by, &payment.bank_line_id) {
            (Undoing::BankLine, None) => {
                return Err(Error::wrong_state(Settle::NotFromBankLine {
                    payment: original.to_string(),
                }))
            }
            (Undoing::Person { .. }, Some(line)) => {
                return Err(Error::wrong_state(Settle::FromBankLine {
                    payment: original.to_string(),
                    line: line.to_string(),
                }))
            }
            (Undoing::Person { .. }, None) if on < payment.view.paid_on => verdict.refused(
                "on",
                Settle::ReversalBeforePayment {
                    on,
                    payment: original.to_string(),
                    paid_on: payment.view.paid_on,
                },
            ),
            _ => {}
        }
    }
    verdict.take(ledger::check_open(tx, tenant, on))?;
    verdict.finish()?;
    if payment.is_some() {
        let reason = match by {
            Undoing::Person { reason } => Some(reason),
            Undoing::BankLine => None,
        };
        payments::mark_reversed(tx, tenant, original, on, reason)?;
    }
    let mirror = ledger::entry_lines(tx, tenant, original)?;
    let doc = open_document(tx, tenant, kind, id)?;
    // What the entry took off the receivable (or payable) in the book currency.
    let amount_book: i64 = match doc.side {
        Side::Receivable => mirror
            .iter()
            .filter(|m| m.0 == Account::Receivables)
            .map(|m| m.3)
            .sum(),
        Side::Payable => mirror
            .iter()
            .filter(|m| m.0 == Account::Payables)
            .map(|m| m.2)
            .sum(),
    };
    if mirror.is_empty() || amount_book == 0 {
        return Err(Error::not_found(Settle::NoLedgerEntry {
            entry: original.to_string(),
            document: doc.label.clone(),
        }));
    }
    let reopened = doc.outstanding == 0;
    move_balance(tx, tenant, &doc, amount, amount_book, on)?;
    report::change(
        tx,
        tenant,
        doc.side,
        on,
        doc.due_on,
        amount_book,
        if reopened { 1 } else { 0 },
    )?;
    if reopened && kind == TargetKind::Invoice {
        invoices::count(tx, tenant, Move::Reopened)?;
    }
    // The counter-lines, with the VAT the original moved moved back.
    let postings = vat_due::reversing(tx, tenant, original, entry, on, &mirror)?;
    ledger::post(tx, tenant, entry, on, &postings)?;
    audit::record(tx, tenant, actor, Act::SettlementReversed, id)?;
    suggest::refresh_one(tx, tenant, id)
}

/// Takes back a payment a person recorded by hand (money in against an
/// invoice, out against a bill) through `reverse`, by a counter-posting
/// dated the day asked for or today in the company's time zone, keeping the
/// reason on the payment. Returns the payment as it stands after.
///
/// Fails with `NotFound` for an unknown payment (another company's too),
/// `WrongState` for one reversed already or settled from a bank line (that
/// line is undone instead), `Refused` for a day before the payment or in
/// closed books.
pub fn reverse_payment(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    request: &Reversal,
) -> Result<PaymentView> {
    let company = company::get(tx, &tenant.company_id)?;
    let payment = payments::recorded(tx, tenant, id)?.view;
    let on = request.on().unwrap_or_else(|| company.today());
    reverse(
        tx,
        tenant,
        actor,
        payment.target_kind,
        &payment.target_id,
        id,
        payment.amount.minor,
        on,
        &ids::new_id("rev"),
        Undoing::Person {
            reason: request.reason(),
        },
    )?;
    Ok(payments::recorded(tx, tenant, id)?.view)
}

/// A bill or credit of the tenant as a settlement sees it.
fn open_purchase(tx: &Tx, tenant: &Tenant, id: &str) -> Result<(Open, PurchaseKind, String)> {
    let p = purchases::stored(tx, tenant, id)?;
    let open = Open {
        side: Side::Payable,
        id: p.view.id.clone(),
        label: p.view.id.clone(),
        partner_id: p.view.supplier_id.clone(),
        currency: p.view.currency.clone(),
        rate: p.rate,
        date: p.view.document_date,
        due_on: match p.kind {
            PurchaseKind::Bill => p.view.due_on,
            PurchaseKind::Credit => NEVER_DUE,
        },
        outstanding: p.outstanding,
        outstanding_book: p.outstanding_book,
    };
    Ok((open, p.kind, p.view.supplier_id))
}

/// Records money out against a bill: partial payments allowed, more than is
/// outstanding refused. Raises `payment.recorded`; recorded as `bill.paid`
/// by `actor`.
///
/// Fails with `NotFound` for an unknown purchase, `WrongState` for a credit
/// or a bill paid in full, and `Refused` as `settle` refuses.
pub fn pay_bill(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    payment: &NewPayment,
) -> Result<PaymentView> {
    let company = company::get(tx, &tenant.company_id)?;
    let (doc, kind, _) = open_purchase(tx, tenant, id)?;
    settling::bill_takes_money(id, kind == PurchaseKind::Credit, doc.outstanding)?;
    let (settled, _) = pay(tx, tenant, &company, &doc, payment)?;
    audit::record(tx, tenant, actor, payment.act(Act::BillPaid), id)?;
    if !payment.imported() {
        suggest::refresh_one(tx, tenant, id)?;
    }
    payment_of(settled)
}

/// Whether the purchase `id`, of `kind`, can take part in applying a credit
/// as the `wanted` kind (the credit, or the bill it goes to): of that kind,
/// with something left.
///
/// Fails with `WrongState` saying which: a bill where a credit was named or
/// the other way round, a credit used up, a bill paid in full.
fn open_as(id: &str, kind: PurchaseKind, wanted: PurchaseKind, outstanding: i64) -> Result<()> {
    let id = id.to_string();
    let refusal = match (wanted, kind == wanted, outstanding == 0) {
        (_, true, false) => return Ok(()),
        (PurchaseKind::Credit, false, _) => Settle::BillNotCredit { id },
        (PurchaseKind::Credit, true, true) => Settle::CreditUsedUp { id },
        (PurchaseKind::Bill, false, _) => Settle::CreditNotBill { id },
        (PurchaseKind::Bill, true, true) => Settle::PaidInFull { number: id },
    };
    Err(Error::wrong_state(refusal))
}

/// Applies a supplier's credit to a bill of the same supplier: the bill owes
/// less and the credit has less left; no money moves, so no payment is
/// recorded and no event raised. Both must be in the book currency (kontor
/// books no exchange differences). The amount defaults to as much as both
/// allow. Recorded as `bill.credit_applied` on the bill by `actor`.
///
/// Fails with `NotFound` for an unknown credit or bill, `WrongState` when the
/// credit is not a credit or is used up, or the bill is not a bill or is
/// paid, and `Refused` for another supplier, another currency, more than
/// either allows, or as `settle` refuses.
pub fn apply_credit(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    credit_id: &str,
    bill_id: &str,
    request: &CreditRequest,
) -> Result<CreditView> {
    let company = company::get(tx, &tenant.company_id)?;
    let (credit, credit_kind, credit_supplier) = open_purchase(tx, tenant, credit_id)?;
    let (bill, bill_kind, bill_supplier) = open_purchase(tx, tenant, bill_id)?;
    open_as(
        credit_id,
        credit_kind,
        PurchaseKind::Credit,
        credit.outstanding,
    )?;
    open_as(bill_id, bill_kind, PurchaseKind::Bill, bill.outstanding)?;
    let left = -credit.outstanding;
    let amount = request.amount.unwrap_or(left.min(bill.outstanding));
    let mut verdict = Violations::new();
    if credit_supplier != bill_supplier {
        verdict.refuse(Settle::DifferentSuppliers {
            credit: credit_id.to_string(),
            bill: bill_id.to_string(),
        });
    }
    if credit.currency != company.currency || bill.currency != company.currency {
        verdict.refuse(Settle::CreditsInBookCurrency {
            currency: company.currency.as_str().to_string(),
        });
    }
    if amount > left {
        verdict.refuse(Settle::MoreThanCreditLeft {
            amount: locale::sum(amount, &credit.currency),
            left: locale::sum(left, &credit.currency),
            credit: credit_id.to_string(),
        });
    }
    verdict.finish()?;
    let on = request.on.unwrap_or_else(|| company.today());
    let settled = settle(
        tx,
        tenant,
        &company,
        &bill,
        amount,
        on,
        How::Credit(&credit),
    )?;
    audit::record(tx, tenant, actor, Act::BillCreditApplied, bill_id)?;
    suggest::refresh_one(tx, tenant, bill_id)?;
    Ok(CreditView {
        id: settled.id,
        credit_id: credit_id.to_string(),
        bill_id: bill_id.to_string(),
        amount: Money::new(amount, &bill.currency),
        applied_on: on,
    })
}
