//! A company's tax methods with the day from which each holds: VAT on
//! invoices issued or on payments received (with the ground of § 20 UStG
//! claimed), profit by balance sheet or by the EÜR, the VAT return's period
//! and its one-month extension (the rules in `methods`). Only an
//! owner sets them (Settings and `company set`). A change holds from the
//! first day of a VAT return period (of a quarter when the period itself
//! changes, of a fiscal year when the profit method does); earlier periods
//! keep theirs. That day may lie in the past only while the company's books
//! hold nothing dated on or after it (no entry, no bank line), so no return
//! already worked out changes. A company without a row owes VAT on invoices
//! issued, draws up a balance sheet and files monthly without the extension.
//!
//! - `methods.rs`: the legal form and whether it may choose the EÜR
//!   (§ 238, § 241a HGB), VAT on invoices or on payments with the grounds of
//!   § 20 UStG, the profit method, the VAT return's period and its due day
//!   with or without the extension (§ 18 UStG, § 46 UStDV).

pub mod methods;

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company::Company;
use crate::books::export::settings;
use crate::books::ledger;
use crate::books::vat_due::switch;
use crate::error::said::{self, PeriodUnit};
use crate::error::{Result, Said, Violations};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};
use methods::{EuerAllowed, IstReason, ProfitMethod, ReturnPeriod, VatMethod};

/// The methods that hold from a day on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Methods {
    /// The first day they hold; none for the defaults of a company that never set any.
    pub from: Option<Date>,
    pub vat_method: VatMethod,
    /// With `IST`: the ground of § 20 sentence 1 UStG claimed.
    pub ist_reason: Option<IstReason>,
    pub profit_method: ProfitMethod,
    pub return_period: ReturnPeriod,
    /// The one-month extension of the VAT return (*Dauerfristverlängerung*).
    pub extension: bool,
}

impl Methods {
    /// What a company that never set its methods has.
    pub const DEFAULT: Methods = Methods {
        from: None,
        vat_method: VatMethod::Soll,
        ist_reason: None,
        profit_method: ProfitMethod::Balance,
        return_period: ReturnPeriod::Monthly,
        extension: false,
    };

    /// Whether VAT on domestic supplies is owed when the customer pays.
    pub fn is_ist(&self) -> bool {
        self.vat_method == VatMethod::Ist
    }
}

const COLUMNS: &str = "valid_from, vat_method, ist_reason, profit_method, return_period, extension";

fn from_row(row: &rusqlite::Row) -> rusqlite::Result<Methods> {
    let r = Row::new(row, "tax_methods");
    Ok(Methods {
        from: Some(r.get(0)?),
        vat_method: r.get(1)?,
        ist_reason: r.get(2)?,
        profit_method: r.get(3)?,
        return_period: r.get(4)?,
        extension: r.get(5)?,
    })
}

/// Every change of the company's methods, the earliest first.
///
/// Fails only on a storage error.
pub fn history(conn: &Connection, company_id: &str) -> Result<Vec<Methods>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM tax_methods WHERE company_id = ?1 ORDER BY valid_from"
    ))?;
    let rows = stmt.query_map(params![company_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The methods that hold on `day`.
///
/// Fails only on a storage error.
pub fn on(conn: &Connection, company_id: &str, day: Date) -> Result<Methods> {
    Ok(history(conn, company_id)?
        .into_iter()
        .rev()
        .find(|m| m.from.is_some_and(|from| from <= day))
        .unwrap_or(Methods::DEFAULT))
}

/// The days from which the company owes VAT on invoices again after owing
/// it on payments received, the earliest first: on each, what its sales
/// issued before have not due falls due (`switch`).
///
/// Fails only on a storage error.
pub fn soll_starts(conn: &Connection, company_id: &str) -> Result<Vec<Date>> {
    let mut before = VatMethod::Soll;
    let mut out = Vec::new();
    for m in history(conn, company_id)? {
        if m.vat_method == VatMethod::Soll && before == VatMethod::Ist {
            out.extend(m.from);
        }
        before = m.vat_method;
    }
    Ok(out)
}

/// The methods as a person gives them: each a value's key in any case, or
/// absent (it stays as it holds on the day the change holds from).
#[derive(Debug, Default, Clone)]
pub struct MethodsInput {
    /// `soll` or `ist`.
    pub vat_method: Option<String>,
    /// `turnover`, `no-bookkeeping` or `freelance`.
    pub ist_reason: Option<String>,
    /// `balance` or `euer`.
    pub profit_method: Option<String>,
    /// `monthly` or `quarterly`.
    pub return_period: Option<String>,
    /// `yes` or `no`.
    pub extension: Option<String>,
    /// `YYYY-MM-DD`; absent: the first day the change may hold from.
    pub from: Option<String>,
}

impl MethodsInput {
    /// Whether the input names no method at all.
    pub fn is_empty(&self) -> bool {
        self.vat_method.is_none()
            && self.ist_reason.is_none()
            && self.profit_method.is_none()
            && self.return_period.is_none()
            && self.extension.is_none()
            && self.from.is_none()
    }
}

/// A change made: the methods and a warning the person should read.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub methods: Methods,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// The given values read, or `Invalid` naming each one that is not a value.
struct Given {
    vat_method: Option<VatMethod>,
    ist_reason: Option<IstReason>,
    profit_method: Option<ProfitMethod>,
    return_period: Option<ReturnPeriod>,
    extension: Option<bool>,
    from: Option<Date>,
}

/// A value of `text` read by `parse`, or its violation noted.
fn value<T>(
    v: &mut Violations,
    field: &str,
    text: Option<&str>,
    parse: fn(&str) -> Option<T>,
    not_one_of: fn(&str) -> Said,
) -> Result<Option<T>> {
    match text {
        None => Ok(None),
        Some(t) => Ok(v.take(methods::read(field, t, parse, not_one_of))?),
    }
}

fn given(input: &MethodsInput) -> Result<Given> {
    let mut v = Violations::new();
    let vat_method = value(
        &mut v,
        "vatMethod",
        input.vat_method.as_deref(),
        VatMethod::parse,
        VatMethod::not_one_of,
    )?;
    let ist_reason = value(
        &mut v,
        "istReason",
        input.ist_reason.as_deref(),
        IstReason::parse,
        IstReason::not_one_of,
    )?;
    let profit_method = value(
        &mut v,
        "profitMethod",
        input.profit_method.as_deref(),
        ProfitMethod::parse,
        ProfitMethod::not_one_of,
    )?;
    let return_period = value(
        &mut v,
        "vatPeriod",
        input.return_period.as_deref(),
        ReturnPeriod::parse,
        ReturnPeriod::not_one_of,
    )?;
    let extension = match input
        .extension
        .as_deref()
        .map(|t| t.trim().to_ascii_lowercase())
    {
        None => None,
        Some(t) if t == "yes" => Some(true),
        Some(t) if t == "no" => Some(false),
        Some(t) => {
            v.invalid(
                "vatExtension",
                said::Methods::NotYesNo { got: t.to_string() },
            );
            None
        }
    };
    let from = match input.from.as_deref() {
        Some(t) => v.take(clock::parse_date("from", t))?,
        None => None,
    };
    if input.is_empty() {
        v.invalid("vatMethod", said::Methods::NothingGiven);
    }
    v.finish()?;
    Ok(Given {
        vat_method,
        ist_reason,
        profit_method,
        return_period,
        extension,
        from,
    })
}

/// The last day anything is dated in the company's books, live or test: an
/// entry of the ledger or a bank line.
fn last_dated(conn: &Connection, company_id: &str) -> Result<Option<Date>> {
    let mut last: Option<Date> = None;
    for environment in [Environment::Production, Environment::Sandbox] {
        let tenant = Tenant::new(company_id, environment);
        let days: (Option<Date>, Option<Date>) = conn
            .prepare_cached(
                "SELECT (SELECT MAX(posted_on) FROM journal
                         WHERE company_id = ?1 AND environment = ?2),
                        (SELECT MAX(COALESCE(booked_on, value_on)) FROM bank_lines
                         WHERE company_id = ?1 AND environment = ?2)",
            )?
            .query_row(params![tenant.company_id, tenant.environment], |r| {
                let r = Row::new(r, "journal");
                Ok((r.get(0)?, r.get(1)?))
            })?;
        last = last.max(days.0).max(days.1);
    }
    Ok(last)
}

/// Sets the company's methods from a day on. Recorded as
/// `company.tax_methods_changed` by `actor`, the subject the day.
///
/// Fails with `Invalid` naming a field that is not one of its values or a
/// day; `Refused`, with a sentence, when: a company outside Germany asks for
/// VAT on payments or the EÜR; VAT on payments lacks its ground; the EÜR is
/// asked without a legal form or for one that must draw up a balance
/// sheet; the day is not the first of a VAT return period (of a quarter
/// when the period changes, of a fiscal year when the profit method does);
/// it lies in books already closed, or in the past while the books hold
/// something dated on or after it.
pub fn set(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    company: &Company,
    input: &MethodsInput,
) -> Result<Changed> {
    let given = given(input)?;
    let today = company.today();
    let fiscal = settings::get(tx, &company.id)?.fiscal_year_start;
    let now = on(tx, &company.id, today)?;
    // What changes is read against what holds today; the day it holds from
    // is then checked against the rules of that change.
    let next_of = |base: &Methods, from: Date| {
        let vat_method = given.vat_method.unwrap_or(base.vat_method);
        Methods {
            from: Some(from),
            vat_method,
            ist_reason: match vat_method {
                VatMethod::Soll => None,
                VatMethod::Ist => given.ist_reason.or(base.ist_reason),
            },
            profit_method: given.profit_method.unwrap_or(base.profit_method),
            return_period: given.return_period.unwrap_or(base.return_period),
            extension: given.extension.unwrap_or(base.extension),
        }
    };
    let last = last_dated(tx, &company.id)?;
    let closed = ledger::closed_through(tx, tenant)?;
    // The first day of the period `day` lies in, as the change counts
    // periods: fiscal years when the profit method changes, quarters when
    // the return period does, else the return's own periods.
    let first_of = |m: &Methods, day: Date, base: &Methods| -> Date {
        if m.profit_method != base.profit_method {
            fiscal.year_of(day)
        } else if m.return_period != base.return_period {
            ReturnPeriod::Quarterly.start_of(day)
        } else {
            m.return_period.start_of(day)
        }
    };
    let from = match given.from {
        Some(from) => from,
        // Without a day: the current period's first day while the books
        // hold nothing dated in it, else the next period's.
        None => {
            let probe = next_of(&now, today);
            let current = first_of(&probe, today, &now);
            let open = last.is_none_or(|l| l < current) && closed.is_none_or(|c| c < current);
            if open {
                current
            } else {
                let after = if probe.profit_method != now.profit_method {
                    fiscal.end_of(fiscal.year_of(today))
                } else if probe.return_period != now.return_period {
                    ReturnPeriod::Quarterly.end_of(today)
                } else {
                    probe.return_period.end_of(today)
                };
                let next = after.tomorrow().unwrap_or(after);
                first_of(&probe, next, &now)
            }
        }
    };
    // What is not named stays as it holds on that day (a change already
    // set from that very day included); the kind of day wanted is judged
    // against what held the day before.
    let base = on(tx, &company.id, from)?;
    let before = on(tx, &company.id, from.yesterday().unwrap_or(from))?;
    let next = next_of(&base, from);
    let mut warning = None;
    let mut v = Violations::new();
    let german = company.country.as_str() == "DE";
    if !german && (next.vat_method == VatMethod::Ist || next.profit_method == ProfitMethod::Euer) {
        v.refuse(said::Methods::NotGerman {
            company: company.name.clone(),
            country: company.country.as_str().to_string(),
        });
    }
    if next.vat_method == VatMethod::Ist && next.ist_reason.is_none() {
        v.refuse(said::Methods::IstNeedsGround);
    }
    if given.ist_reason.is_some() && next.vat_method == VatMethod::Soll {
        v.refuse(said::Methods::GroundWithoutIst);
    }
    if next.profit_method == ProfitMethod::Euer {
        match company.particulars.legal_form {
            None => v.refuse(said::Methods::EuerNeedsLegalForm),
            Some(form) => match form.euer() {
                EuerAllowed::No => v.refuse(said::Methods::FormNeedsBalanceSheet {
                    form: form.name().to_string(),
                }),
                EuerAllowed::WithWarning => {
                    warning = Some(format!(
                        "A registered trader ({}) may use the EÜR only while its turnover stays at most € 800,000 and its profit at most € 80,000 in two years running (§ 241a HGB, § 141 AO).",
                        form.name()
                    ))
                }
                EuerAllowed::Yes => {}
            },
        }
    }
    if first_of(&next, from, &before) != from {
        let unit = if next.profit_method != before.profit_method {
            PeriodUnit::YearProfit
        } else if next.return_period != before.return_period {
            PeriodUnit::QuarterPeriodChanges
        } else if next.return_period == ReturnPeriod::Quarterly {
            PeriodUnit::Quarter
        } else {
            PeriodUnit::Month
        };
        v.refuse(said::Methods::NotPeriodStart { unit, from });
    }
    if let Some(through) = closed.filter(|c| *c >= from) {
        v.refuse(said::Methods::ChangeClosed { through });
    } else if let Some(last) = last.filter(|l| *l >= from && from <= today) {
        v.refuse(said::Methods::EntriesAfter { last, from });
    }
    v.finish()?;
    tx.prepare_cached(
        "INSERT INTO tax_methods (company_id, valid_from, vat_method, ist_reason, profit_method,
                                  return_period, extension, set_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (company_id, valid_from) DO UPDATE SET
             vat_method = excluded.vat_method, ist_reason = excluded.ist_reason,
             profit_method = excluded.profit_method, return_period = excluded.return_period,
             extension = excluded.extension, set_at = excluded.set_at",
    )?
    .execute(params![
        company.id,
        from,
        next.vat_method,
        next.ist_reason,
        next.profit_method,
        next.return_period,
        next.extension,
        clock::now()
    ])?;
    audit::record(tx, tenant, actor, Act::TaxMethodsChanged, &from.to_string())?;
    // Taxed on invoices again from a day on: what was not yet due falls due
    // then (and no longer where the day moved away).
    switch::reconcile_all(tx, &company.id, &soll_starts(tx, &company.id)?)?;
    Ok(Changed {
        methods: next,
        warning,
    })
}
