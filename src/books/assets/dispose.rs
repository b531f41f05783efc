//! An asset leaving the books, sold or scrapped, on a day: its depreciation
//! of that fiscal year up to and including the month it leaves (R 7.4 (8)
//! EStR; `dep_…`), its remaining value out (`dsp_…`, on the account of a
//! book gain when the proceeds cover it, else of a loss), and for a sale,
//! which is invoiced as a supply like any other, the proceeds moved from
//! the revenue of the invoice that sold it to the proceeds of asset sales
//! within the same tax key (`sal_…`), so the VAT return and the EC sales
//! list stay as the invoice made them. A pooled asset stays in its pool
//! (§ 6 (2a) sentence 3 EStG): only its proceeds move.

use jiff::civil::Date;
use rusqlite::{params, OptionalExtension};

use super::run::keep;
use super::stored::{self, year_of, Asset};
use crate::books::audit::{self, Act, Actor};
use crate::books::ledger::{self, Account, Posting};
use crate::error::said::{self, Input, Record, Sum};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::locale;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// A disposal as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct DisposalInput {
    /// `YYYY-MM-DD`.
    pub on: Option<String>,
    /// What it was sold for, net, minor units of the book currency.
    pub proceeds: Option<i64>,
    /// The invoice that sold it, by id or number.
    pub invoice: Option<String>,
}

/// A checked disposal.
#[derive(Debug, Clone)]
pub struct Disposal {
    on: Date,
    proceeds: Option<i64>,
    invoice: Option<String>,
}

impl Disposal {
    /// Checks a disposal: a day, proceeds above nothing, and a sale names
    /// the invoice that sold the asset.
    ///
    /// Fails with `Invalid` naming each bad field.
    pub fn check(input: DisposalInput) -> Result<Disposal> {
        let mut v = Violations::new();
        let on = match input.on.as_deref().map(str::trim) {
            None | Some("") => {
                v.invalid("on", Input::Missing);
                None
            }
            Some(t) => v.take(clock::parse_date("on", t))?,
        };
        if let Some(p) = input.proceeds {
            if p <= 0 {
                v.invalid(
                    "proceeds",
                    said::Asset::NotAboveNothing {
                        got: Sum {
                            minor: p,
                            currency: "EUR".into(),
                        },
                    },
                );
            }
        }
        let invoice = input
            .invoice
            .map(|i| i.trim().to_string())
            .filter(|i| !i.is_empty());
        if input.proceeds.is_some() && invoice.is_none() {
            v.invalid("invoice", said::Asset::ProceedsNeedInvoice);
        }
        v.finish()?;
        let Some(on) = on else {
            return Err(Error::internal("a checked disposal lacks its day"));
        };
        Ok(Disposal {
            on,
            proceeds: input.proceeds,
            invoice,
        })
    }
}

/// The invoice that sold an asset: its id and number, the tax key under
/// which most of its revenue stands, and that revenue less what earlier
/// sales of assets took from it.
struct Sale {
    invoice: String,
    key: String,
    left: i64,
}

/// The tenant's invoice named by `named` (id or number).
///
/// Fails with `NotFound` for an invoice the tenant does not have, `Refused`
/// for a credit note or one with no revenue left.
fn sale_of(tx: &Tx, tenant: &Tenant, named: &str) -> Result<Sale> {
    let found: Option<(String, String, String)> = tx
        .prepare_cached(
            "SELECT id, number, document_type FROM invoices
             WHERE (id = ?1 OR number = ?1) AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![named, tenant.company_id, tenant.environment], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let Some((id, number, kind)) = found else {
        return Err(Error::not_found(Said::Record(
            Record::Invoice,
            named.to_string(),
        )));
    };
    if kind != "INVOICE" {
        return Err(Error::refused_at(
            "invoice",
            said::Asset::SaleByCreditNote { number },
        ));
    }
    let mut stmt = tx.prepare_cached(
        "SELECT detail, sum(credit) - sum(debit) FROM journal
         WHERE entry = ?1 AND company_id = ?2 AND environment = ?3 AND account = 'revenue'
         GROUP BY detail ORDER BY 2 DESC, detail LIMIT 1",
    )?;
    let largest: Option<(String, i64)> = stmt
        .query_row(params![id, tenant.company_id, tenant.environment], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let Some((key, revenue)) = largest else {
        return Err(Error::refused_at(
            "invoice",
            said::Asset::NoRevenue { number },
        ));
    };
    let taken: i64 = tx
        .prepare_cached(
            "SELECT coalesce(sum(proceeds), 0) FROM assets
             WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![id, tenant.company_id, tenant.environment], |r| {
            r.get(0)
        })?;
    Ok(Sale {
        invoice: id,
        key,
        left: revenue - taken,
    })
}

/// The asset `id` leaves the books on the disposal's day. Recorded as
/// `asset.disposed` by `actor`.
///
/// Fails with `NotFound` for an asset or invoice the tenant does not have;
/// `Refused` for an asset already disposed of, a day before its
/// acquisition, closed books on that day, an earlier year's depreciation
/// not yet posted, proceeds above the invoice's revenue left, or books kept
/// in another currency than the euro.
pub fn dispose(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, d: &Disposal) -> Result<Asset> {
    let currency = stored::euro_books(tx, tenant)?;
    let asset = stored::stored(tx, tenant, id)?;
    if let Some(day) = asset.disposed_on {
        return Err(Error::refused(said::Asset::Disposed {
            asset: format!("{} ({})", asset.name, asset.id),
            on: day,
        }));
    }
    if d.on < asset.acquired_on {
        return Err(Error::refused_at(
            "on",
            said::Asset::BeforeAcquisition {
                acquired: asset.acquired_on,
            },
        ));
    }
    ledger::check_open(tx, tenant, d.on)?;
    let start = stored::fiscal_start(tx, tenant)?;
    let year = year_of(start, d.on);
    let posted = stored::posted(tx, tenant)?;
    stored::earlier_years_posted(&asset, start, &posted, year)?;
    let sale = match &d.invoice {
        Some(named) => {
            let sale = sale_of(tx, tenant, named)?;
            let proceeds = d.proceeds.unwrap_or(sale.left);
            if proceeds <= 0 || proceeds > sale.left {
                return Err(Error::refused_at(
                    "proceeds",
                    said::Asset::ProceedsAboveRevenue {
                        left: locale::sum(sale.left.max(0), &currency),
                        key: sale.key.clone(),
                    },
                ));
            }
            Some((sale, proceeds))
        }
        None => None,
    };
    // Its depreciation up to the month it leaves, less what a run of that
    // year posted already (a pool keeps its own course).
    let mut depreciated = stored::posted_total(&posted, &asset.id);
    if !asset.pooled() {
        let gone = stored::Stored {
            disposed_on: Some(d.on),
            ..asset.clone()
        };
        let due = gone.plan().accumulated(start, d.on).min(asset.cost) - depreciated;
        if due != 0 {
            let entry = ids::new_id("dep");
            ledger::post(
                tx,
                tenant,
                &entry,
                d.on,
                &[
                    Posting::debit(Account::Depreciation, due)
                        .of(&asset.id)
                        .on(&asset.depreciation_account),
                    Posting::credit(Account::FixedAssets, due)
                        .of(&asset.id)
                        .on(&asset.account),
                ],
            )?;
            keep(tx, tenant, &entry, &asset.id, year, due, d.on)?;
            depreciated += due;
        }
    }
    let remaining = if asset.pooled() {
        0
    } else {
        asset.cost - depreciated
    };
    let gain = sale.as_ref().is_some_and(|(_, p)| *p >= remaining);
    let disposal = ids::new_id("dsp");
    if remaining != 0 {
        let account = match (gain, asset.class.intangible) {
            (true, false) => "asset_disposal_gain",
            (true, true) => "asset_disposal_gain_intangible",
            (false, false) => "asset_disposal_loss",
            (false, true) => "asset_disposal_loss_intangible",
        };
        ledger::post(
            tx,
            tenant,
            &disposal,
            d.on,
            &[
                Posting::debit(Account::AssetDisposals, remaining)
                    .of(&asset.id)
                    .on(account),
                Posting::credit(Account::FixedAssets, remaining)
                    .of(&asset.id)
                    .on(&asset.account),
            ],
        )?;
    }
    let sale_entry = match &sale {
        Some((s, proceeds)) => {
            let entry = ids::new_id("sal");
            // The key of revenue not yet received (taxed on payments) is its rate's too.
            let at_19 = crate::rules::cash_vat::received(&s.key) == "S:19";
            let account = match (gain, at_19) {
                (true, true) => "asset_sale_gain_19",
                (true, false) => "asset_sale_gain",
                (false, true) => "asset_sale_loss_19",
                (false, false) => "asset_sale_loss",
            };
            ledger::post(
                tx,
                tenant,
                &entry,
                d.on,
                &[
                    Posting::debit(Account::Revenue, *proceeds).of(&s.key),
                    Posting::credit(Account::AssetSales, *proceeds)
                        .of(&s.key)
                        .on(account),
                ],
            )?;
            Some(entry)
        }
        None => None,
    };
    tx.prepare_cached(
        "UPDATE assets SET disposed_on = ?4, disposal_entry = ?5, proceeds = ?6, invoice_id = ?7, sale_entry = ?8
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![
        asset.id,
        tenant.company_id,
        tenant.environment,
        d.on,
        disposal,
        sale.as_ref().map(|(_, p)| *p),
        sale.as_ref().map(|(s, _)| s.invoice.clone()),
        sale_entry
    ])?;
    audit::record(tx, tenant, actor, Act::AssetDisposed, &asset.id)?;
    let s = stored::stored(tx, tenant, &asset.id)?;
    Ok(Asset::of(&s, &stored::posted(tx, tenant)?, &currency))
}
