//! A draft's figures as issuing it now would freeze them: each line's one
//! VAT (or what keeps issuing from taking the line), the lines as the
//! totals take them, and the totals.

use rusqlite::Connection;

use super::lines::{lines, DraftLine};
use super::stored::{stored, Stored};
use crate::books::company::{self, Company};
use crate::documents::Category;
use crate::error::said::Draft;
use crate::error::{Result, Said};
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::money::{self, Decimal};
use crate::store::tenant::Tenant;

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
) -> std::result::Result<Option<LineVat>, Said> {
    let tax = match line.taxes.as_slice() {
        [] => return Err(Draft::NoTaxDecision.into()),
        [tax] => tax,
        several if eu_seller => {
            return Err(Draft::SeveralTaxes {
                count: several.len(),
            }
            .into())
        }
        _ => return Ok(None),
    };
    let category = match &line.vat_category {
        Some(category) => category.clone(),
        None if !tax.rate.is_zero() => Category::S,
        None if eu_seller => {
            return Err(Draft::ZeroWithoutCategory {
                tax: tax.name.clone(),
            }
            .into())
        }
        None => return Ok(None),
    };
    if category == Category::S && tax.rate.is_zero() {
        return Err(Draft::StandardAtZero.into());
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
            category: vat.as_ref().and_then(|v| v.category.listed_code()),
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
    pub vats: Vec<std::result::Result<Option<LineVat>, Said>>,
    pub totals: money::Totals,
}

impl Figures {
    /// What keeps the lines from being issued as they stand: (line number
    /// from 1, what is wrong), empty when each has its tax.
    pub fn undecided(&self) -> Vec<(usize, &Said)> {
        self.vats
            .iter()
            .enumerate()
            .filter_map(|(n, vat)| vat.as_ref().err().map(|why| (n + 1, why)))
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

pub(super) fn figures_of(conn: &Connection, company: &Company, draft: &Stored) -> Result<Figures> {
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
