//! Recording an asset in the register: its name, class, acquisition day and
//! cost (net where the input VAT is deductible), from a bill's line or on
//! its own. The method follows the class, the cost and the choices of the
//! fiscal year of acquisition (`rules::afa::method_of`); the one-year life
//! is the person's choice for a digital asset. The entry (`ast_…`) puts the
//! cost on the chart account of its class and takes it from the bill line's
//! expense account, on the bill's posting day, or, for an asset recorded on
//! its own, from the money not yet assigned (*Durchlaufende Posten*,
//! suspense: what a bank line booked as `other` stands on), on the day of
//! acquisition.

use jiff::civil::Date;
use rusqlite::{params, OptionalExtension};

use super::choices::rule_of;
use super::stored::{self, year_of, Asset};
use crate::books::audit::{self, Act, Actor};
use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger::{self, Account, Posting};
use crate::books::purchases;
use crate::error::said::{self, Input, Sum};
use crate::error::{Error, Result, Violations};
use crate::rules::afa::{self, Class};
use crate::rules::locale;
use crate::rules::money;
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// The longest name of an asset (characters).
pub const MAX_NAME: usize = 200;

/// An asset as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct AssetInput {
    pub name: Option<String>,
    /// A class's key (`office_furniture`).
    pub class: Option<String>,
    /// `YYYY-MM-DD`; from a bill, its document date unless given.
    pub acquired: Option<String>,
    /// Minor units; from a bill, what its line has left unless given.
    pub cost: Option<i64>,
    /// A useful life of its own, in months.
    pub life_months: Option<i64>,
    /// The one-year life of a digital asset, in full in the year bought.
    pub one_year: bool,
    /// The bill (`pur_…`) and its line's position, from 1.
    pub from_bill: Option<String>,
    pub line: Option<i64>,
}

/// A checked asset, ready to be recorded.
#[derive(Debug, Clone)]
pub struct NewAsset {
    name: String,
    class: &'static Class,
    acquired: Option<Date>,
    cost: Option<i64>,
    life_months: Option<u32>,
    one_year: bool,
    from: Option<(String, u32)>,
}

impl NewAsset {
    /// Checks an asset as given: a name, a class of the table, a day, a
    /// cost above nothing, a useful life of 1 to 1,200 months (the class's
    /// otherwise; the class `other` needs one), the one-year life only for
    /// a digital class, and a bill with its line or neither.
    ///
    /// Fails with `Invalid` naming each bad field.
    pub fn check(input: AssetInput) -> Result<NewAsset> {
        let mut v = Violations::new();
        let name = v.take(text::required("name", input.name.as_deref(), MAX_NAME))?;
        let class = match input.class.as_deref() {
            None | Some("") => {
                v.invalid("class", Input::Missing);
                None
            }
            Some(c) => v.take(afa::parse_class("class", c))?,
        };
        let acquired = match input.acquired.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t) => v.take(clock::parse_date("acquired", t))?,
        };
        if let Some(cost) = input.cost {
            if cost <= 0 {
                v.invalid(
                    "cost",
                    said::Asset::NotAboveNothing {
                        got: Sum {
                            minor: cost,
                            currency: "EUR".into(),
                        },
                    },
                );
            }
        }
        let life_months = match input.life_months {
            None => None,
            Some(0) => {
                v.invalid("lifeMonths", said::Asset::NoLife);
                None
            }
            Some(m) if m < 0 || m > i64::from(afa::MAX_LIFE_MONTHS) => {
                v.invalid(
                    "lifeMonths",
                    said::Asset::LifeRange {
                        max: afa::MAX_LIFE_MONTHS,
                        got: m,
                    },
                );
                None
            }
            Some(m) => u32::try_from(m).ok(),
        };
        if let Some(class) = class {
            if input.one_year && !class.digital {
                v.invalid(
                    "oneYear",
                    said::Asset::OneYearNotForClass {
                        class: class.name_en.to_string(),
                        key: class.key.to_string(),
                    },
                );
            }
            if class.life_months.is_none() && input.life_months.is_none() && !input.one_year {
                v.invalid(
                    "lifeMonths",
                    said::Asset::LifeNeeded {
                        class: class.key.to_string(),
                    },
                );
            }
        }
        let from = match (input.from_bill.as_deref().map(str::trim), input.line) {
            (None | Some(""), None) => None,
            (None | Some(""), Some(_)) => {
                v.invalid("fromBill", said::Asset::BillNeeded);
                None
            }
            (Some(bill), Some(n)) => match u32::try_from(n) {
                Ok(n) if n >= 1 => Some((bill.to_string(), n)),
                _ => {
                    v.invalid("line", said::Asset::NotPosition { got: n });
                    None
                }
            },
            (Some(_), None) => {
                v.invalid("line", said::Asset::LineNeeded);
                None
            }
        };
        if from.is_none() && input.from_bill.is_none() && input.line.is_none() {
            if acquired.is_none() && input.acquired.is_none() {
                v.invalid("acquired", Input::Missing);
            }
            if input.cost.is_none() {
                v.invalid("cost", Input::Missing);
            }
        }
        v.finish()?;
        let (Some(name), Some(class)) = (name, class) else {
            return Err(Error::internal("a checked asset lacks a field"));
        };
        Ok(NewAsset {
            name,
            class,
            acquired,
            cost: input.cost,
            life_months,
            one_year: input.one_year,
            from,
        })
    }
}

/// A bill's line an asset is recorded from: its net in the book currency
/// (what is left of it once the assets already recorded from it are taken
/// off), the account its cost went to, the bill's dates.
struct FromLine {
    purchase_id: String,
    position: u32,
    left: i64,
    account: String,
    document_date: Date,
    posted_on: Date,
}

/// The line `position` of the tenant's bill `bill`.
///
/// Fails with `NotFound` for a bill the tenant does not have, `Refused`
/// for a supplier's credit, a line the bill does not have, a line on
/// entertainment, or one with nothing left.
fn from_line(tx: &Tx, tenant: &Tenant, bill: &str, position: u32) -> Result<FromLine> {
    let purchase = purchases::stored(tx, tenant, bill)?;
    if purchase.kind != PurchaseKind::Bill {
        return Err(Error::refused_at(
            "fromBill",
            said::Asset::ByCredit {
                bill: bill.to_string(),
            },
        ));
    }
    let line: Option<(i64, String)> = tx
        .prepare_cached(
            "SELECT net, account FROM purchase_lines WHERE purchase_id = ?1 AND seq = ?2",
        )?
        .query_row(params![purchase.view.id, i64::from(position) - 1], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let Some((net, account)) = line else {
        return Err(Error::refused_at(
            "line",
            said::Asset::NoLine {
                bill: bill.to_string(),
                position: i64::from(position),
            },
        ));
    };
    if account == "entertainment" {
        return Err(Error::refused_at("line", said::Asset::Entertainment));
    }
    let bill_exp = purchase.view.currency.exponent();
    let currency = crate::books::company::get(tx, &tenant.company_id)?.currency;
    let net_book = money::convert(net, purchase.rate, bill_exp, currency.exponent())?;
    let taken: i64 = tx
        .prepare_cached(
            "SELECT coalesce(sum(cost), 0) FROM assets
             WHERE purchase_id = ?1 AND purchase_line = ?2 AND company_id = ?3 AND environment = ?4",
        )?
        .query_row(
            params![
                purchase.view.id,
                position,
                tenant.company_id,
                tenant.environment
            ],
            |r| r.get(0),
        )?;
    let left = net_book - taken;
    if left <= 0 {
        return Err(Error::refused_at(
            "line",
            said::Asset::LineTaken {
                bill: bill.to_string(),
                net: locale::sum(net_book, &currency),
            },
        ));
    }
    Ok(FromLine {
        purchase_id: purchase.view.id,
        position,
        left,
        account,
        document_date: purchase.view.document_date,
        posted_on: purchase.view.posted_on,
    })
}

/// Records an asset: its row, its entry (`ast_…`) and `asset.recorded`
/// by `actor`.
///
/// Fails with `NotFound` for a bill the tenant does not have; `Refused` for
/// books kept in another currency than the euro, a bill line that cannot
/// be an asset, a cost above what the line has left, or closed books on
/// the entry's day or through the end of the fiscal year of acquisition.
pub fn record(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewAsset) -> Result<Asset> {
    let currency = stored::euro_books(tx, tenant)?;
    let line = match &new.from {
        Some((bill, position)) => Some(from_line(tx, tenant, bill, *position)?),
        None => None,
    };
    let (acquired, cost, posted_on) = match &line {
        Some(l) => {
            let cost = new.cost.unwrap_or(l.left);
            if cost > l.left {
                return Err(Error::refused_at(
                    "cost",
                    said::Asset::AboveLineLeft {
                        left: locale::sum(l.left, &currency),
                        position: l.position,
                    },
                ));
            }
            (new.acquired.unwrap_or(l.document_date), cost, l.posted_on)
        }
        None => match (new.acquired, new.cost) {
            (Some(day), Some(cost)) => (day, cost, day),
            _ => return Err(Error::internal("a checked asset lacks its day or cost")),
        },
    };
    ledger::check_open(tx, tenant, posted_on)?;
    let start = stored::fiscal_start(tx, tenant)?;
    let first_year = year_of(start, acquired);
    let (_, first_year_end) = stored::year_bounds(start, first_year)?;
    if let Some(through) = ledger::closed_through(tx, tenant)? {
        if through >= first_year_end {
            return Err(Error::refused(said::Asset::FirstYearClosed {
                through,
                year: first_year,
                acquired,
            }));
        }
    }
    let choice = rule_of(tx, tenant, first_year)?;
    let method = afa::method_of(new.class, cost, new.one_year, choice.rule());
    let life_months = new
        .life_months
        .or(new.class.life_months)
        .unwrap_or(12)
        .max(1);
    let account = method.account(new.class);
    let depreciation_account = method.depreciation_account(new.class);
    let id = ids::new_id("ast");
    tx.prepare_cached(
        "INSERT INTO assets (id, company_id, environment, name, class, acquired_on, cost, method, life_months,
             account, depreciation_account, purchase_id, purchase_line, posted_on, recorded_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        new.name,
        new.class.key,
        acquired,
        cost,
        method.as_str(),
        life_months,
        account,
        depreciation_account,
        line.as_ref().map(|l| l.purchase_id.clone()),
        line.as_ref().map(|l| l.position),
        posted_on,
        clock::now()
    ])?;
    let contra = match &line {
        // Off the line's expense, without its tax key: the input VAT and
        // the VAT return's figures stay as the bill booked them.
        Some(l) => Posting::credit(Account::Expenses, cost).on(&l.account),
        None => Posting::credit(Account::Suspense, cost),
    };
    ledger::post(
        tx,
        tenant,
        &id,
        posted_on,
        &[
            Posting::debit(Account::FixedAssets, cost)
                .of(&id)
                .on(account),
            contra,
        ],
    )?;
    audit::record(tx, tenant, actor, Act::AssetRecorded, &id)?;
    let s = stored::stored(tx, tenant, &id)?;
    Ok(Asset::of(&s, &stored::posted(tx, tenant)?, &currency))
}
