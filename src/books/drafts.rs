//! Drafts of invoices and quotes and their lines: checked input, creation
//! (empty, as the API makes them, or whole with lines, as an agent does), and
//! the draft's wire form, whose number, dates and payment sentence are
//! suggestions computed now from the seller's country and the customer's
//! agreed terms; they become final only when the draft is issued
//! (`invoices::issue`). A draft also carries what its invoice will say of
//! the buyer's order (`References`: a buyer reference of its own or else the
//! customer's, an order reference, a delivery period), set by a person while
//! it is a draft. While it is a draft its lines can be added, changed and
//! removed, and its figures (`figures`, the list's totals) are computed as
//! issuing it now would freeze them. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use jiff::ToSpan;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::books::company::{self, Company};
use crate::books::customers;
use crate::books::numbering;
use crate::documents::Category;
use crate::error::{Error, Result, Violations};
use crate::rules::iso::Currency;
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::rules::money::{self, Decimal, Tax};
use crate::rules::text::{self, Patch};
use crate::rules::{units, vatex};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::page::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// An invoice draft (booked when issued) or a quote (never booked).
    pub enum DocumentType {
        Invoice = "INVOICE",
        Quote = "QUOTE",
    }
}

stored_enum! {
    /// Where a draft stands: open, or issued as an invoice.
    pub enum DraftState {
        Draft = "DRAFT",
        Issued = "ISSUED",
    }
}

/// The reason a small business's invoice states (§19 UStG).
pub const SMALL_BUSINESS_REASON: &str = "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.";

/// The most lines one draft holds.
pub const MAX_LINES: usize = 200;
const MAX_DESCRIPTION: usize = 500;

/// A line of a draft, as shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftLine {
    pub description: String,
    pub quantity: Decimal,
    /// UN/ECE Recommendation 20 unit code.
    pub unit: String,
    pub unit_price_minor: i64,
    pub taxes: Vec<Tax>,
    /// The line's VAT category (S, Z, E, AE, K, G, O, L, M); none: S for
    /// a rate above 0, undecided for a zero rate.
    #[serde(serialize_with = "category_code")]
    pub vat_category: Option<Category>,
    /// The VATEX code of the exemption.
    pub exemption_code: Option<String>,
}

fn category_code<S: serde::Serializer>(
    category: &Option<Category>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match category {
        Some(c) => s.serialize_str(c.code()),
        None => s.serialize_none(),
    }
}

/// A draft in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    pub id: String,
    pub number: String,
    pub document_type: DocumentType,
    pub customer_id: String,
    pub customer: String,
    pub currency: Currency,
    pub issued_on: Date,
    pub due_on: Date,
    pub payment_sentence: String,
    pub state: DraftState,
    pub lines: Vec<DraftLine>,
    pub created_at: String,
    /// The buyer reference its invoice will carry (BT-10): the draft's own,
    /// else the customer's as it is now.
    pub buyer_reference: Option<String>,
    /// The buyer's order reference (BT-13).
    pub order_reference: Option<String>,
    /// The invoicing (delivery) period (BG-14).
    pub period: Option<Period>,
}

/// A period of days, both ends included, `from` ≤ `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub from: Date,
    pub to: Date,
}

impl Period {
    /// Reads `FROM..TO`, two ISO dates, the first not after the second.
    ///
    /// Fails with `Invalid` naming `field` when it is not two dates so
    /// joined, a date is not one, or the period ends before it starts.
    pub fn parse(field: &str, text: &str) -> Result<Period> {
        let Some((from, to)) = text.trim().split_once("..") else {
            return Err(Error::invalid(
                field,
                format!(
                    "takes FROM..TO, two ISO dates such as 2026-11-01..2026-11-30, not {text:?}"
                ),
            ));
        };
        let from = clock::parse_date(field, from.trim())?;
        let to = clock::parse_date(field, to.trim())?;
        if from > to {
            return Err(Error::invalid(
                field,
                format!("ends on {to}, before it starts on {from}"),
            ));
        }
        Ok(Period { from, to })
    }
}

/// What a draft's invoice will say of the buyer's order, as it stands now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct References {
    /// The draft's own buyer reference, else the customer's (BT-10).
    pub buyer_reference: Option<String>,
    /// The buyer's order reference (BT-13).
    pub order_reference: Option<String>,
    /// The invoicing (delivery) period (BG-14).
    pub period: Option<Period>,
}

/// A draft as stored.
pub(crate) struct Stored {
    pub id: String,
    pub document_type: DocumentType,
    pub customer_id: String,
    pub currency: Currency,
    pub state: DraftState,
    pub invoice_id: Option<String>,
    pub created_at: String,
    /// The draft's own buyer reference (none: the customer's applies).
    pub buyer_reference: Option<String>,
    pub order_reference: Option<String>,
    pub period: Option<Period>,
}

/// A draft of the tenant as stored.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub(crate) fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(
        "SELECT id, document_type, customer_id, currency, state, created_at, invoice_id,
             buyer_reference, order_reference, period_start, period_end FROM drafts
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "drafts");
        let period = match (r.get::<Option<Date>>(9)?, r.get::<Option<Date>>(10)?) {
            (Some(from), Some(to)) => Some(Period { from, to }),
            _ => None,
        };
        Ok(Stored {
            id: r.get(0)?,
            document_type: r.get(1)?,
            customer_id: r.get(2)?,
            currency: r.get(3)?,
            state: r.get(4)?,
            invoice_id: r.get(6)?,
            created_at: r.get(5)?,
            buyer_reference: r.get(7)?,
            order_reference: r.get(8)?,
            period,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Draft {id}")))
}

/// A draft of the tenant that is still open.
///
/// Fails with `NotFound` for an unknown draft and `WrongState` for an issued one.
pub(crate) fn open(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    let draft = stored(conn, tenant, id)?;
    if draft.state != DraftState::Draft {
        return Err(Error::wrong_state(format!("Draft {id} is already issued.")));
    }
    Ok(draft)
}

/// The payment days that apply to a customer: agreed, else the company's, else the country's.
fn payment_days(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    customer_id: &str,
) -> Result<i64> {
    let agreed = customers::payment_days(conn, tenant, customer_id)?;
    Ok(agreed
        .or(company.payment_days)
        .unwrap_or_else(|| jurisdiction::default_payment_days(company.country.as_str())))
}

/// The due date of a document issued on `issued_on` to `customer_id`.
///
/// Fails with `Refused` for a date beyond the calendar.
pub(crate) fn due_date(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    customer_id: &str,
    issued_on: Date,
) -> Result<Date> {
    let days = payment_days(conn, tenant, company, customer_id)?;
    issued_on
        .checked_add(days.days())
        .map_err(|_| Error::refused("The due date lies beyond the calendar."))
}

/// The number the next issue of this type would take today.
fn next_number(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    kind: DocumentType,
    today: Date,
) -> Result<String> {
    let year = today.year();
    let country = company.country.as_str();
    Ok(match kind {
        DocumentType::Invoice => {
            let series = jurisdiction::series(country, DocumentKind::Invoice, year);
            let seq = numbering::peek(conn, tenant, &series, 1)?;
            jurisdiction::document_number(
                country,
                &company.invoice_prefix,
                DocumentKind::Invoice,
                year,
                seq,
            )
        }
        DocumentType::Quote => {
            let seq = numbering::peek(conn, tenant, &format!("quote:{year}"), 1)?;
            format!("Q{year}-{seq:05}")
        }
    })
}

/// A tax as stored on a draft line.
#[derive(Serialize, Deserialize)]
struct StoredTax {
    name: String,
    rate: String,
    reason: Option<String>,
}

fn encode_taxes(taxes: &[Tax]) -> Result<String> {
    let stored: Vec<StoredTax> = taxes
        .iter()
        .map(|t| StoredTax {
            name: t.name.clone(),
            rate: t.rate.to_string(),
            reason: t.reason.clone(),
        })
        .collect();
    serde_json::to_string(&stored).map_err(Error::internal)
}

/// A rule's refusal as an unreadable input (the violations kept).
fn unreadable(e: Error) -> Error {
    match e {
        Error::Refused(violations) => Error::Invalid(violations),
        other => other,
    }
}

/// The lines of a draft, in order.
///
/// Fails with `Internal` naming the draft when a stored line cannot be read.
pub(crate) fn lines(conn: &Connection, draft_id: &str) -> Result<Vec<DraftLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT draft_id, description, quantity, unit_price, taxes, unit, vat_category, exemption_code
         FROM draft_lines WHERE draft_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([draft_id], |row| {
        let r = Row::new(row, "draft_lines");
        Ok((
            (
                r.get::<String>(1)?,
                r.get::<Decimal>(2)?,
                r.get::<i64>(3)?,
                r.get::<String>(4)?,
            ),
            (
                r.get::<String>(5)?,
                r.get::<Option<String>>(6)?,
                r.get::<Option<String>>(7)?,
            ),
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let ((description, quantity, unit_price_minor, taxes), (unit, category, exemption_code)) =
            row?;
        let vat_category = match category.as_deref() {
            None => None,
            Some(code) => Some(Category::read(code).ok_or_else(|| {
                Error::internal(format!(
                    "draft_lines of {draft_id}: VAT category {code:?} cannot be read"
                ))
            })?),
        };
        let unreadable = |e: &dyn std::fmt::Display| {
            Error::internal(format!(
                "draft_lines of {draft_id}: taxes cannot be read ({e})"
            ))
        };
        let stored: Vec<StoredTax> = serde_json::from_str(&taxes).map_err(|e| unreadable(&e))?;
        let taxes = stored
            .into_iter()
            .map(|t| {
                let rate = Decimal::parse("rate", &t.rate).map_err(|e| unreadable(&e))?;
                Ok(Tax {
                    name: t.name,
                    rate,
                    reason: t.reason,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        out.push(DraftLine {
            description,
            quantity,
            unit,
            unit_price_minor,
            taxes,
            vat_category,
            exemption_code,
        })
    }
    Ok(out)
}

/// A draft of the tenant in its wire form, with the suggestions computed today.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<DraftView> {
    let draft = stored(conn, tenant, id)?;
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    // An issued draft shows what its issue made final.
    let issued: Option<(String, Date, Date)> = match &draft.invoice_id {
        Some(invoice_id) => Some(
            conn.prepare_cached(
                "SELECT id, number, issued_on, due_on FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            )?
            .query_row(params![invoice_id, tenant.company_id, tenant.environment], |row| {
                let r = Row::new(row, "invoices");
                Ok((r.get(1)?, r.get(2)?, r.get(3)?))
            })?,
        ),
        None => None,
    };
    let (number, issued_on, due) = match issued {
        Some(final_figures) => final_figures,
        None => (
            next_number(conn, tenant, &company, draft.document_type, today)?,
            today,
            due_date(conn, tenant, &company, &draft.customer_id, today)?,
        ),
    };
    let customer = customers::get(conn, tenant, &draft.customer_id)?;
    Ok(DraftView {
        id: draft.id.clone(),
        number,
        document_type: draft.document_type,
        customer: customer.name,
        customer_id: draft.customer_id,
        currency: draft.currency,
        issued_on,
        due_on: due,
        payment_sentence: jurisdiction::payment_sentence(company.country.as_str(), due),
        state: draft.state,
        lines: lines(conn, id)?,
        created_at: draft.created_at,
        buyer_reference: draft.buyer_reference.or(customer.buyer_reference),
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// What the draft's invoice would say of the buyer's order if it were
/// issued now: the draft's own buyer reference, else its customer's.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn references(conn: &Connection, tenant: &Tenant, id: &str) -> Result<References> {
    let draft = stored(conn, tenant, id)?;
    let buyer_reference = match draft.buyer_reference {
        Some(own) => Some(own),
        None => customers::get(conn, tenant, &draft.customer_id)?.buyer_reference,
    };
    Ok(References {
        buyer_reference,
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// The draft's own references, as a person set them (no buyer reference:
/// the customer's applies).
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn own_references(conn: &Connection, tenant: &Tenant, id: &str) -> Result<References> {
    let draft = stored(conn, tenant, id)?;
    Ok(References {
        buyer_reference: draft.buyer_reference,
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// A change of a draft's references as a person gives it, field by field:
/// left out (unchanged), cleared, or a value as written (the period as
/// `FROM..TO`). A cleared buyer reference means the customer's applies.
#[derive(Debug, Default, Clone)]
pub struct ReferencesInput {
    pub buyer_reference: Patch<String>,
    pub order_reference: Patch<String>,
    pub period: Patch<String>,
}

/// A checked change of a draft's references.
#[derive(Debug, Default, Clone)]
pub struct ReferencesChange {
    buyer_reference: Patch<String>,
    order_reference: Patch<String>,
    period: Patch<Period>,
}

impl ReferencesChange {
    /// Whether the change leaves every reference as it is.
    pub fn is_empty(&self) -> bool {
        matches!(self.buyer_reference, Patch::Absent)
            && matches!(self.order_reference, Patch::Absent)
            && matches!(self.period, Patch::Absent)
    }

    /// Checks the references: each reference 1–200 printable characters,
    /// the period two ISO dates `FROM..TO` with FROM not after TO.
    ///
    /// Fails with `Invalid` naming every field that is blank, too long or malformed.
    pub fn check(input: ReferencesInput) -> Result<ReferencesChange> {
        let mut v = Violations::new();
        let buyer_reference = v
            .take(input.buyer_reference.text("buyerReference", 200))?
            .unwrap_or_default();
        let order_reference = v
            .take(input.order_reference.text("orderReference", 200))?
            .unwrap_or_default();
        let period = v
            .take(input.period.read(|t| Period::parse("period", t)))?
            .unwrap_or_default();
        v.finish()?;
        Ok(ReferencesChange {
            buyer_reference,
            order_reference,
            period,
        })
    }
}

/// Sets or clears a draft's buyer reference, order reference and period.
///
/// Fails with `NotFound` for an unknown draft and `WrongState` for an issued one.
pub fn set_references(tx: &Tx, tenant: &Tenant, id: &str, change: ReferencesChange) -> Result<()> {
    let mut draft = open(tx, tenant, id)?;
    change.buyer_reference.apply(&mut draft.buyer_reference);
    change.order_reference.apply(&mut draft.order_reference);
    change.period.apply(&mut draft.period);
    tx.prepare_cached(
        "UPDATE drafts SET buyer_reference = ?4, order_reference = ?5, period_start = ?6, period_end = ?7
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        draft.buyer_reference,
        draft.order_reference,
        draft.period.map(|p| p.from),
        draft.period.map(|p| p.to)
    ])?;
    Ok(())
}

/// A draft line as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct DraftLineInput {
    pub description: Option<String>,
    /// An exact decimal, as written.
    pub quantity: Option<String>,
    pub unit_price_minor: Option<i64>,
    /// The rate of the seller country's sales tax, in percent.
    pub tax_rate_percent: Option<String>,
    /// Named taxes instead of a rate.
    pub taxes: Option<Vec<TaxInput>>,
    /// UN/ECE Recommendation 20 unit code (default C62, "one").
    pub unit: Option<String>,
    /// The VAT category code.
    pub vat_category: Option<String>,
    /// Why nothing is charged, for a zero-rated category.
    pub exemption_reason: Option<String>,
    /// The VATEX code of the exemption.
    pub exemption_code: Option<String>,
}

/// A named tax of a line as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct TaxInput {
    pub name: Option<String>,
    pub rate_percent: Option<String>,
    pub reason: Option<String>,
}

/// A checked draft line.
#[derive(Debug, Clone)]
pub struct NewDraftLine {
    description: String,
    quantity: Decimal,
    unit: String,
    unit_price: i64,
    taxes: Vec<Tax>,
    vat_category: Option<Category>,
    exemption_code: Option<String>,
}

impl NewDraftLine {
    /// Checks a line: a description of 1–500 characters, a quantity above 0
    /// (an exact decimal), a unit price of 0 to 10^15 minor units, and its tax:
    /// a rate of the seller country's tax (named after `company`'s country),
    /// or named taxes (each named once), or none yet (issuing refuses it then).
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed,
    /// and `Refused` for a zero rate without the seller's reason.
    pub fn check(input: DraftLineInput, company: &Company) -> Result<NewDraftLine> {
        let mut v = Violations::new();
        let description = v.take(text::required(
            "description",
            input.description.as_deref(),
            MAX_DESCRIPTION,
        ))?;
        let quantity = match input.quantity.as_deref() {
            None => {
                v.invalid("quantity", "is missing");
                None
            }
            Some(q) => v.take(Decimal::parse("quantity", q))?,
        };
        if quantity.is_some_and(|q| q.is_negative() || q.is_zero()) {
            v.invalid("quantity", "must be greater than zero");
        }
        let unit_price = match input.unit_price_minor {
            None => {
                v.invalid("unitPriceMinor", "is missing");
                None
            }
            Some(p) if !(0..=money::MAX_AMOUNT).contains(&p) => {
                v.invalid("unitPriceMinor", "must be between 0 and 10^15 minor units");
                None
            }
            Some(p) => Some(p),
        };
        let unit = match input.unit.as_deref().map(str::trim) {
            None | Some("") => Some("C62".to_string()),
            Some(code) if units::known(code) => Some(code.to_string()),
            Some(code) => {
                v.invalid(
                    "unit",
                    format!("{code:?} is not a UN/ECE Recommendation 20 unit code (e.g. C62, HUR, KGM, MTR)"),
                );
                None
            }
        };
        let vat_category = match input.vat_category.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => match Category::read(&code.to_ascii_uppercase()) {
                Some(c) => Some(c),
                None => {
                    v.invalid(
                        "vatCategory",
                        format!("{code:?} is not a VAT category: S, Z, E, AE, K, G, O, L or M"),
                    );
                    None
                }
            },
        };
        let exemption_reason = v
            .take(text::optional(
                "exemptionReason",
                input
                    .exemption_reason
                    .as_deref()
                    .filter(|r| !r.trim().is_empty()),
                200,
            ))?
            .flatten();
        let exemption_code = match input.exemption_code.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => {
                let code = code.to_ascii_uppercase();
                if vatex::known(&code) {
                    Some(code)
                } else {
                    v.invalid(
                        "exemptionCode",
                        format!("{code:?} is not a VATEX code (e.g. VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G)"),
                    );
                    None
                }
            }
        };
        // A small business (§19 UStG) charges no VAT: a line without a
        // category is exempt (E) with the reason the invoice must state.
        let small_business = company.particulars.small_business;
        let charged = input
            .tax_rate_percent
            .as_deref()
            .is_some_and(|r| Decimal::parse("taxRatePercent", r).is_ok_and(|r| !r.is_zero()))
            || input.taxes.is_some();
        if small_business {
            if charged {
                v.refused(
                    "taxRatePercent",
                    "is not given by a small business (§19 UStG), which charges no VAT; leave the rate out",
                );
            }
            if vat_category.is_some_and(|c| !c.zero_rated()) {
                v.refused(
                    "vatCategory",
                    "charges VAT, which a small business (§19 UStG) does not; leave it out (E applies)",
                );
            }
        }
        let (vat_category, exemption_reason) = match vat_category {
            None if small_business && !charged => (
                Some(Category::E),
                exemption_reason.or_else(|| Some(SMALL_BUSINESS_REASON.to_string())),
            ),
            other => (other, exemption_reason),
        };
        let zero_rated = vat_category.is_some_and(|c| c.zero_rated());
        if (exemption_reason.is_some() || exemption_code.is_some())
            && vat_category.is_some_and(|c| !c.zero_rated())
        {
            v.invalid(
                "exemptionReason",
                "goes only with a zero-rated category (Z, E, AE, K, G or O)",
            );
        }
        let tax_rate_percent = match (&input.tax_rate_percent, &input.taxes) {
            // A zero-rated category without a rate: its rate is 0.
            (None, None) if zero_rated => Some("0".to_string()),
            _ => input.tax_rate_percent,
        };
        let taxes = match (tax_rate_percent, input.taxes) {
            (Some(_), Some(_)) => {
                v.invalid(
                    "taxRatePercent",
                    "excludes the named taxes; give a rate or named taxes, not both",
                );
                Vec::new()
            }
            (Some(rate), None) => {
                let name = jurisdiction::tax_name(company.country.as_str());
                match v.take(Decimal::parse("taxRatePercent", &rate))? {
                    Some(rate) if !rate.is_zero() && zero_rated => {
                        v.invalid(
                            "taxRatePercent",
                            format!(
                                "is {rate}, but category {} charges no VAT; its rate is 0",
                                vat_category.map(|c| c.code()).unwrap_or_default()
                            ),
                        );
                        Vec::new()
                    }
                    Some(rate) if rate.is_zero() && zero_rated => {
                        // The reason kept on the tax: the person's text,
                        // else the VATEX code, else (Z, which never writes
                        // one) the category's name.
                        let reason = exemption_reason
                            .clone()
                            .or_else(|| exemption_code.clone())
                            .or_else(|| {
                                (vat_category == Some(Category::Z))
                                    .then(|| "Zero rated (category Z)".to_string())
                            });
                        match reason {
                            Some(reason) => v
                                .take(Tax::new(name, rate, Some(&reason)))?
                                .into_iter()
                                .collect(),
                            None => {
                                v.refused(
                                    "exemptionReason",
                                    format!(
                                        "is needed: category {} needs the reason for the exemption, as a text or a VATEX code",
                                        vat_category.map(|c| c.code()).unwrap_or_default()
                                    ),
                                );
                                Vec::new()
                            }
                        }
                    }
                    Some(rate) if rate.is_zero() => {
                        v.refused(
                            "taxRatePercent",
                            format!("is 0: {name} at 0 % needs the seller's reason why nothing is charged; give it a VAT category (Z, E, AE, K, G or O) with the exemption's reason or VATEX code, or a named tax with its reason"),
                        );
                        Vec::new()
                    }
                    Some(rate) => v
                        .take(Tax::new(name, rate, None).map_err(|_| {
                            Error::invalid("taxRatePercent", "must lie between 0 and 100 percent")
                        }))?
                        .into_iter()
                        .collect(),
                    None => Vec::new(),
                }
            }
            (None, Some(listed)) => {
                let mut taxes: Vec<Tax> = Vec::new();
                for (i, t) in listed.into_iter().enumerate() {
                    let at = format!("taxes[{i}]");
                    let rate = match t.rate_percent.as_deref() {
                        None => {
                            v.invalid(format!("{at}.ratePercent"), "is missing");
                            None
                        }
                        Some(r) => {
                            v.take(Decimal::parse("ratePercent", r).map_err(|e| e.under(&at)))?
                        }
                    };
                    let Some(rate) = rate else { continue };
                    let name = t.name.unwrap_or_default();
                    if let Some(tax) = v.take(
                        Tax::new(&name, rate, t.reason.as_deref()).map_err(|e| e.under(&at)),
                    )? {
                        if taxes.iter().any(|known| known.name == tax.name) {
                            v.invalid(
                                "taxes",
                                format!("names the tax {} twice on one line", tax.name),
                            );
                        }
                        taxes.push(tax);
                    }
                }
                taxes
            }
            (None, None) => Vec::new(),
        };
        if let (Some(quantity), Some(price)) = (quantity, unit_price) {
            v.take(money::line_net(quantity, price))?;
        }
        v.finish()?;
        match (description, quantity, unit_price, unit) {
            (Some(description), Some(quantity), Some(unit_price), Some(unit)) => Ok(NewDraftLine {
                description,
                quantity,
                unit,
                unit_price,
                taxes,
                vat_category,
                exemption_code,
            }),
            _ => Err(Error::internal("a checked line lacks a field")),
        }
    }

    /// Whether the line states its tax.
    pub fn has_tax(&self) -> bool {
        !self.taxes.is_empty()
    }
}

/// A new draft as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct DraftInput {
    pub customer_id: Option<String>,
}

/// A checked new draft: a customer, and lines when it is made whole.
#[derive(Debug, Clone)]
pub struct NewDraft {
    customer_id: String,
    kind: DocumentType,
    lines: Vec<NewDraftLine>,
}

impl NewDraft {
    /// An empty draft for a customer (the API's and a person's way: lines follow).
    ///
    /// Fails with `Invalid` naming `customerId` when it is missing.
    pub fn empty(input: DraftInput, kind: DocumentType) -> Result<NewDraft> {
        let customer_id = text::required("customerId", input.customer_id.as_deref(), 100)?;
        Ok(NewDraft {
            customer_id,
            kind,
            lines: Vec::new(),
        })
    }

    /// A draft made whole in one act, as a program makes it: 1 to 200 lines,
    /// and since no person will add the tax later, every line states it.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed
    /// (line fields under `lines[n]`), and `Refused` as a line does.
    pub fn whole(
        input: DraftInput,
        kind: DocumentType,
        lines: Vec<DraftLineInput>,
        company: &Company,
    ) -> Result<NewDraft> {
        let mut v = Violations::new();
        let customer_id = v.take(text::required(
            "customerId",
            input.customer_id.as_deref(),
            100,
        ))?;
        if lines.is_empty() || lines.len() > MAX_LINES {
            v.invalid("lines", format!("needs 1 to {MAX_LINES} lines"));
        }
        let mut checked = Vec::with_capacity(lines.len());
        for (n, line) in lines.into_iter().enumerate().take(MAX_LINES) {
            let at = format!("lines[{n}]");
            // Whatever is wrong with a line of an input made whole, the input
            // cannot be used as it is: each is an unreadable field (400).
            let line =
                v.take(NewDraftLine::check(line, company).map_err(|e| unreadable(e).under(&at)))?;
            match line {
                Some(line) if !line.has_tax() => v.invalid(
                    at,
                    "states no tax: give a rate or named taxes (kontor decides no rate, and no person adds one to a draft made whole)",
                ),
                Some(line) => checked.push(line),
                None => {}
            }
        }
        v.finish()?;
        Ok(NewDraft {
            customer_id: customer_id.unwrap_or_default(),
            kind,
            lines: checked,
        })
    }
}

/// Creates a draft for a customer of the tenant, in the customer's currency
/// (else the company's), with its lines. Returns its id.
///
/// Fails with `NotFound` for a customer the tenant does not have.
pub fn create(tx: &Tx, tenant: &Tenant, new: &NewDraft) -> Result<String> {
    let customer = customers::get(tx, tenant, &new.customer_id)?;
    let company = company::get(tx, &tenant.company_id)?;
    let id = ids::new_id("drf");
    tx.prepare_cached(
        "INSERT INTO drafts (id, company_id, environment, document_type, customer_id, currency, state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        new.kind,
        new.customer_id,
        customer.currency.unwrap_or(company.currency),
        DraftState::Draft,
        clock::now()
    ])?;
    for line in &new.lines {
        insert_line(tx, &id, line)?;
    }
    Ok(id)
}

fn insert_line(tx: &Tx, draft_id: &str, line: &NewDraftLine) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO draft_lines (draft_id, description, quantity, unit_price, taxes, unit, vat_category, exemption_code)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        draft_id,
        line.description,
        line.quantity,
        line.unit_price,
        encode_taxes(&line.taxes)?,
        line.unit,
        line.vat_category.map(|c| c.code()),
        line.exemption_code
    ])?;
    Ok(())
}

/// Adds a line to an open draft. A line may come without a tax decision;
/// issuing refuses it then.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued
/// one, and `Refused` for a draft already holding 200 lines.
pub fn add_line(tx: &Tx, tenant: &Tenant, id: &str, line: &NewDraftLine) -> Result<()> {
    open(tx, tenant, id)?;
    let lines: i64 = tx
        .prepare_cached("SELECT count(*) FROM draft_lines WHERE draft_id = ?1")?
        .query_row([id], |r| r.get(0))?;
    if lines >= MAX_LINES as i64 {
        return Err(Error::bad_request(format!(
            "A draft holds at most {MAX_LINES} lines."
        )));
    }
    insert_line(tx, id, line)
}

/// Marks a draft issued as `invoice_id` (in the issuing act's transaction).
///
/// Fails only on a storage error.
pub(crate) fn mark_issued(tx: &Tx, tenant: &Tenant, id: &str, invoice_id: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE drafts SET state = ?5, invoice_id = ?2 WHERE id = ?1 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![id, invoice_id, tenant.company_id, tenant.environment, DraftState::Issued])?;
    Ok(())
}
/// A line's one VAT as issuing freezes it (and a preview shows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineVat {
    pub category: Category,
    pub rate: Decimal,
    /// The tax's name, as the line gave it.
    pub name: String,
    /// Why nothing is charged (the person's text; for Z kept, never written).
    pub reason: Option<String>,
    pub code: Option<String>,
}

/// The VAT of a line: `None` when it has no single VAT with a category (a
/// seller outside the EU with several taxes, whose documents then carry no
/// XML). Fails, with what is wrong, for a line without a tax decision, and
/// for a seller in the EU: several taxes, or a zero rate without a category
/// (kontor never infers AE or K from the buyer).
pub(crate) fn line_vat(
    line: &DraftLine,
    eu_seller: bool,
) -> std::result::Result<Option<LineVat>, String> {
    let tax = match line.taxes.as_slice() {
        [] => return Err("has no tax decision; give it a rate or a tax with its reason".into()),
        [tax] => tax,
        several if eu_seller => {
            return Err(format!(
                "carries {} taxes; a seller in the EU charges exactly one VAT per line",
                several.len()
            ))
        }
        _ => return Ok(None),
    };
    let category = match line.vat_category {
        Some(category) => category,
        None if !tax.rate.is_zero() => Category::S,
        None if eu_seller => {
            return Err(format!(
                "has {} at 0 % without a VAT category; give it one (Z, E, AE, K, G or O): kontor does not decide it",
                tax.name
            ))
        }
        None => return Ok(None),
    };
    if category == Category::S && tax.rate.is_zero() {
        return Err("is category S at 0 %; a zero rate needs category Z, E, AE, K, G or O".into());
    }
    Ok(Some(LineVat {
        category,
        rate: tax.rate,
        name: tax.name.clone(),
        reason: tax.reason.clone(),
        code: line.exemption_code.clone(),
    }))
}

/// The lines as the totals take them, each with its VAT's category (so
/// taxes of different categories are totalled apart), as issuing totals them.
pub(crate) fn money_lines(lines: &[DraftLine], vats: &[Option<LineVat>]) -> Vec<money::Line> {
    lines
        .iter()
        .zip(vats.iter().chain(std::iter::repeat(&None)))
        .map(|(l, vat)| money::Line {
            quantity: l.quantity,
            unit_price: l.unit_price_minor,
            taxes: l.taxes.clone(),
            category: vat.as_ref().map(|v| v.category.code()),
        })
        .collect()
}

/// A draft's figures as issuing it now would freeze them: each line's net,
/// the taxes per name, rate and category on the summed nets, net, tax and
/// gross; and each line's VAT, or what keeps it from having one.
#[derive(Debug, Clone)]
pub struct Figures {
    pub currency: Currency,
    pub lines: Vec<DraftLine>,
    /// Per line: its one VAT (`None` where the documents carry no VAT
    /// category), or why issuing would refuse the line.
    pub vats: Vec<std::result::Result<Option<LineVat>, String>>,
    pub totals: money::Totals,
}

impl Figures {
    /// What keeps the lines from being issued as they stand: (line number
    /// from 1, what is wrong), empty when each has its tax.
    pub fn undecided(&self) -> Vec<(usize, &str)> {
        self.vats
            .iter()
            .enumerate()
            .filter_map(|(n, vat)| vat.as_ref().err().map(|why| (n + 1, why.as_str())))
            .collect()
    }
}

/// The figures of an open draft of the tenant (see `Figures`); a line
/// without a tax decision counts its net and no tax.
///
/// Fails with `NotFound` for an unknown draft, and with `Refused` when the
/// total exceeds the largest bookable amount.
pub fn figures(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Figures> {
    let draft = stored(conn, tenant, id)?;
    let company = company::get(conn, &tenant.company_id)?;
    figures_of(conn, &company, &draft)
}

fn figures_of(conn: &Connection, company: &Company, draft: &Stored) -> Result<Figures> {
    let lines = lines(conn, &draft.id)?;
    let eu_seller = jurisdiction::in_eu(company.country.as_str());
    let vats: Vec<_> = lines.iter().map(|l| line_vat(l, eu_seller)).collect();
    let known: Vec<Option<LineVat>> = vats.iter().map(|v| v.clone().unwrap_or(None)).collect();
    let totals = money::totals(&money_lines(&lines, &known))?;
    Ok(Figures {
        currency: draft.currency.clone(),
        lines,
        vats,
        totals,
    })
}

/// An open draft in a list: whom it is for and what it comes to now.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftSummary {
    pub id: String,
    pub document_type: DocumentType,
    pub customer_id: String,
    pub customer: String,
    pub currency: Currency,
    pub lines: usize,
    pub net: Option<i64>,
    /// The total as issuing it now would make it; none when it exceeds what
    /// kontor books.
    pub gross: Option<i64>,
    pub created_at: String,
}

/// A page of the tenant's open drafts (invoices and quotes), newest first,
/// each with its customer and its figures as they stand.
///
/// Fails only on a storage error or an unreadable stored line.
pub fn list(conn: &Connection, tenant: &Tenant, paging: Paging) -> Result<Page<DraftSummary>> {
    let company = company::get(conn, &tenant.company_id)?;
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM drafts WHERE company_id = ?1 AND environment = ?2 AND state = ?3",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, DraftState::Draft],
            |r| r.get(0),
        )?;
    let ids: Vec<(String, String)> = conn
        .prepare_cached(&format!(
            "SELECT d.id, c.name FROM drafts d
             JOIN customers c ON c.id = d.customer_id AND c.company_id = d.company_id AND c.environment = d.environment
             WHERE d.company_id = ?1 AND d.environment = ?2 AND d.state = ?3
             ORDER BY d.created_at DESC, d.seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
        ))?
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                DraftState::Draft,
                paging.offset()
            ],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<_>>()?;
    let mut data = Vec::with_capacity(ids.len());
    for (id, customer) in ids {
        let draft = stored(conn, tenant, &id)?;
        let figures = match figures_of(conn, &company, &draft) {
            Ok(f) => Some(f),
            Err(Error::Refused(_)) => None,
            Err(e) => return Err(e),
        };
        data.push(DraftSummary {
            lines: match &figures {
                Some(f) => f.lines.len(),
                None => lines(conn, &id)?.len(),
            },
            net: figures.as_ref().map(|f| f.totals.net),
            gross: figures.as_ref().map(|f| f.totals.gross),
            id: draft.id,
            document_type: draft.document_type,
            customer_id: draft.customer_id,
            customer,
            currency: draft.currency,
            created_at: draft.created_at,
        });
    }
    Ok(paging.envelope(data, total))
}

/// The stored row of line `number` (from 1) of a draft.
///
/// Fails with `NotFound` when the draft has no such line.
fn line_row(tx: &Tx, id: &str, number: usize) -> Result<i64> {
    let offset = number.checked_sub(1).and_then(|n| i64::try_from(n).ok());
    let row = match offset {
        Some(offset) => tx
            .prepare_cached(
                "SELECT seq FROM draft_lines WHERE draft_id = ?1 ORDER BY seq LIMIT 1 OFFSET ?2",
            )?
            .query_row(params![id, offset], |r| r.get(0))
            .optional()?,
        None => None,
    };
    row.ok_or_else(|| Error::not_found(format!("Line {number} of draft {id}")))
}

/// Replaces line `number` (from 1, in the order the lines are shown) of an
/// open draft with a checked line; the line keeps its place.
///
/// Fails with `NotFound` for an unknown draft or line, and `WrongState` for
/// an issued draft.
pub fn change_line(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    number: usize,
    line: &NewDraftLine,
) -> Result<()> {
    open(tx, tenant, id)?;
    let seq = line_row(tx, id, number)?;
    tx.prepare_cached(
        "UPDATE draft_lines SET description = ?2, quantity = ?3, unit_price = ?4, taxes = ?5, unit = ?6,
             vat_category = ?7, exemption_code = ?8
         WHERE seq = ?1",
    )?
    .execute(params![
        seq,
        line.description,
        line.quantity,
        line.unit_price,
        encode_taxes(&line.taxes)?,
        line.unit,
        line.vat_category.map(|c| c.code()),
        line.exemption_code
    ])?;
    Ok(())
}

/// Removes line `number` (from 1) of an open draft; the lines after it move up.
///
/// Fails with `NotFound` for an unknown draft or line, and `WrongState` for
/// an issued draft.
pub fn remove_line(tx: &Tx, tenant: &Tenant, id: &str, number: usize) -> Result<()> {
    open(tx, tenant, id)?;
    let seq = line_row(tx, id, number)?;
    tx.prepare_cached("DELETE FROM draft_lines WHERE seq = ?1")?
        .execute([seq])?;
    Ok(())
}
