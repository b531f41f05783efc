//! The lines of a draft: a line as a caller gives it and its check (a
//! description, a quantity, a unit price, a unit, and its tax: a rate of
//! the seller country's tax, named taxes, or a zero-rated VAT category with
//! the exemption's reason; a small business's line is exempt), a line as
//! shown, the lines read in order, and the acts that add, change and remove
//! a line of an open draft.

use rusqlite::{params, Connection, OptionalExtension, ToSql};
use serde::{Deserialize, Serialize};

use super::stored::open;
use crate::books::audit::{self, Act, Actor};
use crate::books::company::Company;
use crate::documents::Category;
use crate::error::said::{Draft, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::jurisdiction;
use crate::rules::money::{self, Decimal, Tax};
use crate::rules::text;
use crate::rules::{units, vatex};
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

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
                v.invalid("quantity", Input::Missing);
                None
            }
            Some(q) => v.take(Decimal::parse("quantity", q))?,
        };
        if quantity.is_some_and(|q| q.is_negative() || q.is_zero()) {
            v.invalid("quantity", Draft::QuantityNotPositive);
        }
        let unit_price = match input.unit_price_minor {
            None => {
                v.invalid("unitPriceMinor", Input::Missing);
                None
            }
            Some(p) if !(0..=money::MAX_AMOUNT).contains(&p) => {
                v.invalid("unitPriceMinor", Draft::PriceOutOfRange);
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
                    Draft::NotUnit {
                        got: code.to_string(),
                    },
                );
                None
            }
        };
        let vat_category = match input.vat_category.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) => v.take(Category::named("vatCategory", code))?,
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
                        Draft::NotVatex {
                            got: code.to_string(),
                        },
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
                v.refused("taxRatePercent", Draft::SmallBusinessRate);
            }
            if vat_category.as_ref().is_some_and(|c| !c.zero_rated()) {
                v.refused("vatCategory", Draft::SmallBusinessCategory);
            }
        }
        let (vat_category, exemption_reason) = match vat_category {
            None if small_business && !charged => (
                Some(Category::E),
                exemption_reason.or_else(|| Some(SMALL_BUSINESS_REASON.to_string())),
            ),
            other => (other, exemption_reason),
        };
        let zero_rated = vat_category.as_ref().is_some_and(|c| c.zero_rated());
        // The category as a refusal names it ('' for none).
        let category = || {
            vat_category
                .as_ref()
                .map(Category::code)
                .unwrap_or_default()
                .to_string()
        };
        if (exemption_reason.is_some() || exemption_code.is_some())
            && vat_category.as_ref().is_some_and(|c| !c.zero_rated())
        {
            v.invalid("exemptionReason", Draft::ReasonWithoutZeroRated);
        }
        let tax_rate_percent = match (&input.tax_rate_percent, &input.taxes) {
            // A zero-rated category without a rate: its rate is 0.
            (None, None) if zero_rated => Some("0".to_string()),
            _ => input.tax_rate_percent,
        };
        let taxes =
            match (tax_rate_percent, input.taxes) {
                (Some(_), Some(_)) => {
                    v.invalid("taxRatePercent", Draft::RateAndTaxes);
                    Vec::new()
                }
                (Some(rate), None) => {
                    let name = jurisdiction::tax_name(company.country.as_str());
                    match v.take(Decimal::parse("taxRatePercent", &rate))? {
                        Some(rate) if !rate.is_zero() && zero_rated => {
                            v.invalid(
                                "taxRatePercent",
                                Draft::RateWithZeroRated {
                                    rate: rate.to_string(),
                                    category: category(),
                                },
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
                                        Draft::ReasonNeeded {
                                            category: category(),
                                        },
                                    );
                                    Vec::new()
                                }
                            }
                        }
                        Some(rate) if rate.is_zero() => {
                            v.refused(
                                "taxRatePercent",
                                Draft::ZeroWithoutReason {
                                    tax: name.to_string(),
                                },
                            );
                            Vec::new()
                        }
                        Some(rate) => v
                            .take(Tax::new(name, rate, None).map_err(|_| {
                                Error::invalid("taxRatePercent", Draft::RateOutOfRange)
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
                                v.invalid(format!("{at}.ratePercent"), Input::Missing);
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
                                    Draft::TaxTwice {
                                        tax: tax.name.clone(),
                                    },
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

pub(super) fn insert_line(tx: &Tx, draft_id: &str, line: &NewDraftLine) -> Result<()> {
    write_line(
        tx,
        "INSERT INTO draft_lines (draft_id, description, quantity, unit_price, taxes, unit, vat_category, exemption_code)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        &draft_id,
        line,
    )
}

/// Runs `sql` with `key` as ?1 and the line's columns as ?2 to ?8
/// (description, quantity, unit price, taxes, unit, VAT category,
/// exemption code): the one place a line's columns are written.
fn write_line(tx: &Tx, sql: &str, key: &dyn ToSql, line: &NewDraftLine) -> Result<()> {
    tx.prepare_cached(sql)?.execute(params![
        key,
        line.description,
        line.quantity,
        line.unit_price,
        encode_taxes(&line.taxes)?,
        line.unit,
        line.vat_category.as_ref().map(Category::code),
        line.exemption_code
    ])?;
    Ok(())
}

/// Adds a line to an open draft. A line may come without a tax decision;
/// issuing refuses it then. Recorded as `draft.line.added` by `actor`.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued
/// one, and `Refused` for a draft already holding 200 lines.
pub fn add_line(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    line: &NewDraftLine,
) -> Result<()> {
    open(tx, tenant, id)?;
    let lines: i64 = tx
        .prepare_cached("SELECT count(*) FROM draft_lines WHERE draft_id = ?1")?
        .query_row([id], |r| r.get(0))?;
    if lines >= MAX_LINES as i64 {
        return Err(Error::bad_request(Draft::Full { max: MAX_LINES }));
    }
    insert_line(tx, id, line)?;
    audit::record(tx, tenant, actor, Act::DraftLineAdded, id)
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
    row.ok_or_else(|| {
        Error::not_found(Said::RecordOf(
            Record::DraftLine,
            number.to_string(),
            Record::Draft,
            id.to_string(),
        ))
    })
}

/// Replaces line `number` (from 1, in the order the lines are shown) of an
/// open draft with a checked line; the line keeps its place. Recorded as
/// `draft.line.changed` by `actor`.
///
/// Fails with `NotFound` for an unknown draft or line, and `WrongState` for
/// an issued draft.
pub fn change_line(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    number: usize,
    line: &NewDraftLine,
) -> Result<()> {
    open(tx, tenant, id)?;
    let seq = line_row(tx, id, number)?;
    write_line(
        tx,
        "UPDATE draft_lines SET description = ?2, quantity = ?3, unit_price = ?4, taxes = ?5, unit = ?6,
             vat_category = ?7, exemption_code = ?8
         WHERE seq = ?1",
        &seq,
        line,
    )?;
    audit::record(tx, tenant, actor, Act::DraftLineChanged, id)
}

/// Removes line `number` (from 1) of an open draft; the lines after it move
/// up. Recorded as `draft.line.removed` by `actor`.
///
/// Fails with `NotFound` for an unknown draft or line, and `WrongState` for
/// an issued draft.
pub fn remove_line(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, number: usize) -> Result<()> {
    open(tx, tenant, id)?;
    let seq = line_row(tx, id, number)?;
    tx.prepare_cached("DELETE FROM draft_lines WHERE seq = ?1")?
        .execute([seq])?;
    audit::record(tx, tenant, actor, Act::DraftLineRemoved, id)
}
