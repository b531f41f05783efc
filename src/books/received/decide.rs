//! A person's decision on a received bill: book it (its purchase entered
//! with lines and amounts per tax key, the supplier matched or created
//! with the document's particulars, `purchase.recorded` raised), or refuse
//! it with a reason (kept, never booked); and marking a supplier trusted,
//! so its valid e-invoices are booked as they arrive.

use rusqlite::{params, OptionalExtension};

use super::bill::{self, BillState, BillView};
use super::booking::{self, particulars};
use super::checks::{self, Decision, SupplierChoice};
use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::purchases::{self, Entry};
use crate::books::suppliers;
use crate::documents::{Category, TypeCode};
use crate::error::said::{Received, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::outbox::events::{self, EventKind as Event};
use crate::rules::cash_vat;
use crate::rules::iso::Currency;
use crate::rules::money::Decimal;
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The longest reason a person gives for refusing a bill.
pub const MAX_REASON: usize = 500;

fn state(tx: &Tx, tenant: &Tenant, id: &str) -> Result<BillState> {
    tx.prepare_cached(
        "SELECT state FROM bills WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| {
        r.get::<_, String>(0)
    })
    .optional()?
    .and_then(|s| BillState::parse(&s))
    .ok_or_else(|| Error::not_found(Said::Record(Record::Bill, id.to_string())))
}

fn undecided(tx: &Tx, tenant: &Tenant, id: &str) -> Result<()> {
    match state(tx, tenant, id)? {
        BillState::Received => Ok(()),
        BillState::Booked => Err(Error::wrong_state(Received::BookedAlready {
            id: id.to_string(),
        })),
        BillState::Refused => Err(Error::wrong_state(Received::RefusedKept {
            id: id.to_string(),
        })),
    }
}

/// Books a received bill: its purchase (the bill's id) with the document's
/// lines and amounts per tax key, dated on the document's issue date and
/// due on its due date (the issue date when it names none), at `rate` book
/// units per unit of its currency (none for the book currency), a VAT
/// category the document writes outside EN 16931's list (or leaves out at
/// a zero rate) under the `category` a person names for it; the supplier
/// matched by VAT id, electronic address, IBAN or name, else created;
/// recorded as `bill.booked` by `actor`. A document worth nothing is
/// booked without an entry. Its due date and cash discount are those its
/// payment terms state. A bill with warnings (`checks::warnings`) is
/// booked only as the person's `decision` says: despite them, and under
/// the supplier found or a new one when the seller's name differs.
///
/// Fails with `NotFound` for an unknown bill, `WrongState` for one booked
/// or refused, and `Refused` for warnings not accepted, a supplier not
/// chosen where the names differ (or chosen needlessly), closed books, a missing or pointless rate,
/// a missing, needless or unfit category, amounts that point in opposite
/// directions, or a document of the same supplier and number booked
/// before.
pub fn book(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    rate: Option<Decimal>,
    category: Option<&Category>,
    decision: &Decision,
) -> Result<BillView> {
    undecided(tx, tenant, id)?;
    let received = bill::document(tx, tenant, id)?;
    let doc = &received.document;
    let company = company::get(tx, &tenant.company_id)?;
    let currency = Currency::parse("currency", &doc.currency)?;
    let mut verdict = Violations::new();
    let warnings = checks::warnings(tx, tenant, &company, &received)?;
    verdict.take(checks::decided(&warnings, decision))?;
    // Booked on its date, or on the first open day when that lies in
    // closed books (the checks before booking warn of an old date).
    let posted = verdict.take(purchases::posting_date(
        tx,
        tenant,
        &company,
        doc.issued_on,
        None,
        true,
    ))?;
    let rate = verdict.take(crate::rules::money::fixed_rate(
        &currency,
        &company.currency,
        rate,
    ))?;
    verdict.finish()?;
    let Some(rate) = rate else {
        return Err(Error::internal("a bill passed its verdict without a rate"));
    };
    let seller = particulars(&received, &company.country);
    let supplier_id = match decision.supplier {
        Some(SupplierChoice::New) => suppliers::new_supplier(tx, tenant, &seller)?,
        _ => suppliers::supplier_from(tx, tenant, &seller)?,
    };
    // Its lines go where the supplier's earlier lines went.
    let account = purchases::proposed_account(tx, tenant, &supplier_id)?;
    let plan = booking::plan(
        doc,
        company.country.as_str(),
        rate,
        currency.exponent(),
        company.currency.exponent(),
        category,
        &account,
    )?;
    // Two bills received before their supplier was known can turn out to
    // be one supplier's: the second is a duplicate of the first.
    let earlier: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM purchases WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3
               AND document_number = ?4",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, supplier_id, doc.number],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(earlier) = earlier {
        return Err(Error::refused(Received::Duplicate {
            seller: doc.seller.known_as().to_string(),
            number: doc.number.clone(),
            earlier,
        }));
    }
    let (due, discount) = checks::kept(&received.payment_terms, doc.issued_on);
    let nothing_owed = plan.is_zero();
    let entry = Entry {
        id,
        supplier_id: &supplier_id,
        supplier_name: doc.seller.known_as(),
        kind: plan.kind,
        number: &doc.number,
        date: doc.issued_on,
        posted: posted.unwrap_or(doc.issued_on),
        due,
        currency: &currency,
        rate,
        net: plan.net,
        tax: plan.tax,
        gross_book: plan.gross_book,
        parts: plan.parts,
        lines: plan.lines,
        payment_reference: doc.payment_reference.as_deref(),
        payee_iban: doc.transfer.as_ref().map(|t| t.iban.as_str()),
        discount,
        // The e-invoice says so: its note of § 14 (4) no. 6a UStG, and a
        // prepayment invoice (UNTDID 1001 code 386).
        supplier_cash_basis: doc
            .notes
            .iter()
            .any(|n| n.text.contains(cash_vat::STATEMENT)),
        down_payment: doc.type_code == TypeCode::Other(386),
    };
    if nothing_owed {
        // Nothing is owed: no purchase and no entry, the event says so.
        events::raise(tx, tenant, Event::PurchaseRecorded, id, entry.recorded())?;
    } else {
        purchases::enter(tx, tenant, &entry)?;
    }
    tx.execute(
        "UPDATE bills SET state = 'booked', supplier_id = ?1, decided_at = ?2
         WHERE id = ?3 AND company_id = ?4 AND environment = ?5",
        params![
            supplier_id,
            clock::now(),
            id,
            tenant.company_id,
            tenant.environment
        ],
    )?;
    audit::record(tx, tenant, actor, Act::BillBooked, id)?;
    bill::with_checks(tx, tenant, &company, bill::get(tx, tenant, id)?, &received)
}

/// Refuses a received bill with the person's reason: it stays kept and
/// shown, and is never booked; recorded as `bill.refused` by `actor`.
///
/// Fails with `NotFound` for an unknown bill, `WrongState` for one booked
/// or refused, and `Invalid` naming `reason` when it is missing or longer
/// than 500 characters.
pub fn refuse(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, reason: &str) -> Result<BillView> {
    let reason = text::required("reason", Some(reason), MAX_REASON)?;
    undecided(tx, tenant, id)?;
    tx.execute(
        "UPDATE bills SET state = 'refused', refused_reason = ?1, decided_at = ?2
         WHERE id = ?3 AND company_id = ?4 AND environment = ?5",
        params![
            reason,
            clock::now(),
            id,
            tenant.company_id,
            tenant.environment
        ],
    )?;
    audit::record(tx, tenant, actor, Act::BillRefused, id)?;
    bill::get(tx, tenant, id)
}

/// Marks the partner `supplier_id` a trusted supplier (its valid
/// e-invoices are booked as they arrive), or no longer; recorded as
/// `supplier.trusted` by `actor`.
///
/// Fails with `NotFound` when the tenant has no such partner.
pub fn trust(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    supplier_id: &str,
    trusted: bool,
) -> Result<()> {
    let changed = tx.execute(
        "UPDATE customers SET trusted_supplier = ?1, is_supplier = 1
         WHERE id = ?2 AND company_id = ?3 AND environment = ?4",
        params![trusted, supplier_id, tenant.company_id, tenant.environment],
    )?;
    if changed == 0 {
        return Err(Error::not_found(Said::Record(
            Record::Customer,
            supplier_id.to_string(),
        )));
    }
    audit::record(tx, tenant, actor, Act::SupplierTrusted, supplier_id)
}
