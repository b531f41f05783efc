//! The statement of a fiscal year: its form and the refusals, the money
//! the year saw placed on the form's lines (payments split over their
//! documents, bank lines booked to an account, the VAT paid to the tax
//! office by the ten-day rule), the assets' depreciation and remaining
//! values from the register, the sums and the profit; and the shape of
//! its answer.

use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::civil::Date;
use rusqlite::Connection;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::flows::{self, Moved, Place, Reading};
use super::turn;
use crate::books::assets;
use crate::books::company;
use crate::books::export::settings;
use crate::books::ledger::{self, Account};
use crate::books::tax_methods::{self, methods::ProfitMethod};
use crate::error::said::Methods;
use crate::error::{Error, Result, Violations};
use crate::rules::afa;
use crate::rules::euer::{self, Form, Kennzahl, Side};
use crate::rules::money::minor_text;
use crate::store::tenant::Tenant;

/// A payment (or a year's depreciation) behind a figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    pub date: Date,
    /// The invoice's number, the bill's id, the bank line's id, or the
    /// asset's id (its depreciation, its remaining value, the money not
    /// yet assigned it took up).
    pub document: Arc<str>,
    /// Minor units of the euro: what counts on the line (a payment taken
    /// back negative); in `unassigned`, money in positive, out negative.
    pub amount: i64,
}

impl Serialize for Posting {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Posting", 3)?;
        st.serialize_field("date", &self.date)?;
        st.serialize_field("document", &*self.document)?;
        st.serialize_field("amount", &minor_text(self.amount, 2, '.'))?;
        st.end()
    }
}

/// One figure of the statement on its line.
#[derive(Debug, Clone)]
pub struct Figure {
    /// The line as the answer names it: `15`, `63:175`.
    pub key: String,
    pub line: u16,
    pub kz: &'static Kennzahl,
    pub amount: i64,
    /// In date order; none for the sums.
    pub postings: Vec<Posting>,
}

/// The statement of a fiscal year.
#[derive(Debug, Clone)]
pub struct Statement {
    /// The calendar year the fiscal year starts in.
    pub year: i32,
    pub from: Date,
    pub to: Date,
    /// The form whose lines it uses (the year the fiscal year ends in).
    pub form: &'static Form,
    /// Whether the books are closed through `final_through`.
    pub is_final: bool,
    /// The year's last day, or the tenth day after it when a VAT
    /// prepayment paid then would still count to the year.
    pub final_through: Date,
    /// The figures with something behind them, and the two sums, in the
    /// form's order.
    pub figures: Vec<Figure>,
    pub income: i64,
    pub expenses: i64,
    /// Income less expenses.
    pub profit: i64,
    /// Money moved in the year that stands on no line: bank lines booked
    /// to "other" or kept as a customer's credit (and the assets that took
    /// such money up, positive), costs that are no business expense.
    pub unassigned: Vec<Posting>,
}

impl Statement {
    /// The figure on `key`, if the statement has one.
    pub fn figure(&self, key: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.key == key)
    }

    /// How many postings stand behind the lines.
    pub fn postings(&self) -> usize {
        self.figures.iter().map(|f| f.postings.len()).sum()
    }
}

/// The answer's shape: `{"year", "from", "to", "final", "lines": {"15":
/// "12345.67", …}, "profit", "postings": {"15": [{"date", "document",
/// "amount"}, …]}, "unassigned": [...]}`, amounts as decimal strings with
/// cents.
impl Serialize for Statement {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        struct Lines<'a>(&'a [Figure]);
        impl Serialize for Lines<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for f in self.0 {
                    m.serialize_entry(&f.key, &minor_text(f.amount, 2, '.'))?;
                }
                m.end()
            }
        }
        struct Behind<'a>(&'a [Figure]);
        impl Serialize for Behind<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(None)?;
                for f in self.0.iter().filter(|f| !f.postings.is_empty()) {
                    m.serialize_entry(&f.key, &f.postings)?;
                }
                m.end()
            }
        }
        let mut st = s.serialize_struct("Statement", 8)?;
        st.serialize_field("year", &self.year)?;
        st.serialize_field("from", &self.from)?;
        st.serialize_field("to", &self.to)?;
        st.serialize_field("final", &self.is_final)?;
        st.serialize_field("lines", &Lines(&self.figures))?;
        st.serialize_field("profit", &minor_text(self.profit, 2, '.'))?;
        st.serialize_field("postings", &Behind(&self.figures))?;
        st.serialize_field("unassigned", &self.unassigned)?;
        st.end()
    }
}

/// The first and last day of the fiscal year that starts in `year`.
///
/// Fails with `Invalid` naming `year` outside 1900–9998.
fn bounds(conn: &Connection, company_id: &str, year: i32) -> Result<(Date, Date)> {
    let start = settings::get(conn, company_id)?.fiscal_year_start;
    assets::year_bounds(start, year)
}

/// The figure a year's depreciation of an asset goes to.
fn depreciation_kz(method: &str, class: &str) -> &'static str {
    match method {
        "low_value" => euer::LOW_VALUE,
        "pool" => euer::POOL,
        _ if afa::class_of(class).is_some_and(|c| c.intangible) => euer::DEPRECIATION_INTANGIBLE,
        _ => euer::DEPRECIATION,
    }
}

/// The cash-basis profit statement of the tenant's fiscal year that starts
/// in `year`.
///
/// Fails with `Invalid` naming `year` outside 1900–9998; `Refused`, with a
/// sentence, for a year whose Anlage EÜR kontor does not know, a company
/// whose profit method in that year is the balance sheet, and books not
/// kept in euro.
pub fn statement(conn: &Connection, tenant: &Tenant, year: i32) -> Result<Statement> {
    let company = company::get(conn, &tenant.company_id)?;
    let (first, last) = bounds(conn, &tenant.company_id, year)?;
    let form_year = i32::from(last.year());
    let mut v = Violations::new();
    let form = euer::form(form_year);
    if form.is_none() {
        v.refuse(Methods::FormUnknown {
            known: euer::known_years(),
            form_year,
            year,
        });
    }
    let methods = tax_methods::on(conn, &tenant.company_id, first)?;
    if methods.profit_method != ProfitMethod::Euer {
        v.refuse(Methods::BalanceSheetCompany {
            company: company.name.clone(),
            year,
        });
    }
    if company.currency.as_str() != "EUR" {
        v.refuse(Methods::NotEuro {
            company: company.name.clone(),
            currency: company.currency.as_str().to_string(),
        });
    }
    v.finish()?;
    let Some(form) = form else {
        return Err(Error::internal("a known form went missing"));
    };
    let reading = Reading::of(conn, &tenant.company_id, company.particulars.small_business)?;
    let start_turn = turn::into(conn, &tenant.company_id, first)?;
    let next = last.tomorrow().unwrap_or(last);
    let end_turn = turn::into(conn, &tenant.company_id, next)?;
    let final_through = if end_turn.due { end_turn.through } else { last };

    let mut moved: Vec<Moved> = Vec::new();
    flows::payments(conn, tenant, &reading, first, last, &mut moved)?;
    for b in flows::bookings(conn, tenant, first, end_turn.through)? {
        let paid_to_office = b.account == Account::TaxOffice && b.outgoing;
        let counts = if paid_to_office {
            ((first..=last).contains(&b.date) && !start_turn.counts_back(b.date))
                || end_turn.counts_back(b.date)
        } else {
            (first..=last).contains(&b.date)
        };
        if counts {
            moved.extend(flows::place_booking(&reading, &b));
        }
    }
    moved.extend(flows::assigned_to_assets(conn, tenant, first, last)?);
    for row in assets::register(conn, tenant, year)?.assets {
        let f = &row.figures;
        let document: Arc<str> = row.asset.as_str().into();
        let left = row.disposed_on.filter(|d| (first..=last).contains(d));
        if f.depreciation != 0 {
            moved.push(Moved {
                place: Place::Kz(depreciation_kz(row.method, row.class)),
                date: left.unwrap_or(last),
                document: document.clone(),
                amount: f.depreciation,
            });
        }
        if f.disposal_value != 0 {
            moved.push(Moved {
                place: Place::Kz(euer::REMAINING_VALUE),
                date: left.unwrap_or(last),
                document,
                amount: f.disposal_value,
            });
        }
    }

    let mut by_kz: BTreeMap<&'static str, Vec<Posting>> = BTreeMap::new();
    let mut unassigned = Vec::new();
    for m in moved {
        let posting = Posting {
            date: m.date,
            document: m.document,
            amount: m.amount,
        };
        match m.place {
            Place::Kz(kz) => by_kz.entry(kz).or_default().push(posting),
            Place::Outside => unassigned.push(posting),
            Place::Capitalised => {}
        }
    }
    unassigned.sort_by(|a, b| (a.date, &a.document).cmp(&(b.date, &b.document)));
    let mut figures = Vec::new();
    let (mut income, mut expenses) = (0i64, 0i64);
    for kz in euer::KENNZAHLEN {
        let (Some(key), Some(line)) = (form.key(kz), form.line(kz.kz)) else {
            continue;
        };
        let (amount, postings) = match kz.side {
            Side::IncomeSum => (income, Vec::new()),
            Side::ExpenseSum => (expenses, Vec::new()),
            _ => {
                let Some(mut postings) = by_kz.remove(kz.kz) else {
                    continue;
                };
                postings.sort_by(|a, b| (a.date, &a.document).cmp(&(b.date, &b.document)));
                let amount: i64 = postings.iter().map(|p| p.amount).sum();
                match kz.side {
                    Side::Income => income += amount,
                    Side::Expense => expenses += amount,
                    _ => {}
                }
                (amount, postings)
            }
        };
        figures.push(Figure {
            key,
            line,
            kz,
            amount,
            postings,
        });
    }
    Ok(Statement {
        year,
        from: first,
        to: last,
        form,
        is_final: ledger::is_final(conn, tenant, final_through)?,
        final_through,
        figures,
        income,
        expenses,
        profit: income - expenses,
        unassigned,
    })
}
