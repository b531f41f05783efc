//! Fixed assets' depreciation (*Absetzung für Abnutzung*, AfA) as rules
//! and arithmetic, pure: the classes of the official depreciation table a
//! small company needs (each with its useful life, the chart accounts its
//! cost and its depreciation go to, and its source), which method an asset
//! takes, and what it writes off through the end of a day and within a
//! fiscal year. The books keep the assets and post; the statements, the
//! register and the cash-basis statement read a year's figure here.
//!
//! The rules and their sources:
//!
//! - Straight-line, month by month (§ 7 (1) sentences 1 and 4 EStG): the
//!   cost spread evenly over the useful life in months; the month of
//!   acquisition counts in full, the months before it in that year not. The
//!   depreciation through a month is the cost × months elapsed ÷ months of
//!   life, rounded to the cent (half away from zero), so the years add up
//!   to the cost exactly. A disposal ends it with its month (R 7.4 (8)
//!   EStR: in the year of disposal, the months up to it).
//! - One year, in full in the year of acquisition: the digital assets
//!   (computer hardware and its peripherals, operating and application
//!   software), BMF-Schreiben of 26 February 2021 and of 22 February 2022
//!   (IV C 3 - S 2190/21/10002 :025), a choice per asset.
//! - A low-value asset (*geringwertiges Wirtschaftsgut*, § 6 (2) EStG):
//!   movable, with a cost of at most € 800 net, written off in full in the
//!   fiscal year of its acquisition, when the company applies the rule for
//!   that year (the default).
//! - The pool (*Sammelposten*, § 6 (2a) EStG): when the company chooses it
//!   for a fiscal year, every movable asset of that year costing more than
//!   € 250 and at most € 1,000 goes into the year's pool, written off by one
//!   fifth in that year and each of the four after it, whatever becomes of
//!   the asset (§ 6 (2a) sentence 3: a disposal does not reduce the pool);
//!   one costing € 250 or less is written off at once (sentence 4). The
//!   pool then replaces the € 800 rule above € 250 for that year.

use jiff::civil::Date;

use crate::error::{Error, Result};
use crate::rules::fiscal_year::FiscalYearStart;

/// The cost up to which a movable asset is a low-value asset, € 800 in
/// cents (§ 6 (2) sentence 1 EStG).
pub const LOW_VALUE_LIMIT: i64 = 80_000;
/// The cost above which an asset goes into the pool, € 250 in cents
/// (§ 6 (2a) sentence 1 EStG).
pub const POOL_FLOOR: i64 = 25_000;
/// The cost up to which an asset goes into the pool, € 1,000 in cents.
pub const POOL_CEILING: i64 = 100_000;
/// The fiscal years a pool is written off over, a fifth each (§ 6 (2a)
/// sentence 2 EStG).
pub const POOL_YEARS: i32 = 5;
/// The longest useful life kontor takes, in months (100 years).
pub const MAX_LIFE_MONTHS: u32 = 1_200;

/// The official table: *AfA-Tabelle für die allgemein verwendbaren
/// Anlagegüter* (AfA-Tabelle AV), BMF-Schreiben of 15 December 2000
/// (BStBl. I S. 1532), for assets acquired after 31 December 2000. Its
/// entries are read from public transcriptions of the table (the
/// OpenAccountants germany-bookkeeping guide, urbs.de's AfA-Tabelle AV):
/// the BMF's own PDF could not be opened when they were written down.
const AFA_AV: &str = "AfA-Tabelle AV, BMF-Schreiben vom 15.12.2000 (BStBl. I S. 1532)";
/// The one-year life of digital assets.
const DIGITAL: &str = "BMF-Schreiben vom 26.02.2021 und vom 22.02.2022 (IV C 3 - S 2190/21/10002 :025): Computerhardware und Software, Nutzungsdauer ein Jahr";
/// No table entry: the person estimates the useful life.
const ESTIMATED: &str = "§ 7 Abs. 1 Satz 2 EStG: betriebsgewöhnliche Nutzungsdauer, geschätzt";

/// A class of assets: an entry of the depreciation table, or the digital
/// assets, or an asset whose life the person estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    /// Its name in kontor (`office_furniture`).
    pub key: &'static str,
    /// Its place in the table (*Fundstelle*, `6.15`); '' for none.
    pub reference: &'static str,
    pub name_de: &'static str,
    pub name_en: &'static str,
    /// The useful life the table gives, in months; none where the person
    /// gives it.
    pub life_months: Option<u32>,
    /// The chart account its cost stands on (`rules::chart`).
    pub account: &'static str,
    /// The chart account its depreciation goes to.
    pub depreciation: &'static str,
    /// Computer hardware or software: the one-year life may be chosen.
    pub digital: bool,
    /// Immaterial (software): neither a low-value asset nor pooled, both
    /// being for movable assets.
    pub intangible: bool,
    pub source: &'static str,
}

#[allow(clippy::too_many_arguments)] // one per column of the table below
const fn class(
    key: &'static str,
    reference: &'static str,
    name_de: &'static str,
    name_en: &'static str,
    years: u32,
    account: &'static str,
    depreciation: &'static str,
    digital: bool,
) -> Class {
    Class {
        key,
        reference,
        name_de,
        name_en,
        life_months: Some(years * 12),
        account,
        depreciation,
        digital,
        intangible: false,
        source: AFA_AV,
    }
}

/// The classes, by the table's order.
#[rustfmt::skip]
pub const CLASSES: &[Class] = &[
    class("cars", "4.2.1", "Personenkraftwagen und Kombiwagen", "Cars and estate cars", 6, "asset_cars", "depreciation_vehicles", false),
    class("trucks", "4.2.3", "Lastkraftwagen, Sattelschlepper, Kipper", "Lorries, tractor units, tippers", 9, "asset_trucks", "depreciation_vehicles", false),
    class("trailers", "4.2.6", "Anhänger, Auflieger und Wechselaufbauten", "Trailers, semi-trailers and swap bodies", 11, "asset_other_transport", "depreciation", false),
    class("phone_systems", "6.13.1", "Fernsprechnebenstellenanlagen", "Telephone systems", 10, "asset_business_equipment", "depreciation", false),
    class("communication_devices", "6.13.2.1", "Kommunikationsendgeräte allgemein", "Communication terminals", 8, "asset_business_equipment", "depreciation", false),
    class("mobile_phones", "6.13.2.2", "Mobilfunkendgeräte", "Mobile phones", 5, "asset_business_equipment", "depreciation", false),
    class("franking_machines", "6.14.1", "Adressier-, Kuvertier- und Frankiermaschinen", "Addressing, enveloping and franking machines", 8, "asset_business_equipment", "depreciation", false),
    class("computers", "6.14.3.2", "Workstations, Personalcomputer, Notebooks und deren Peripheriegeräte", "Workstations, personal computers, notebooks and their peripherals", 3, "asset_business_equipment", "depreciation", true),
    class("audio_devices", "6.14.4", "Audiogeräte (Diktiergeräte u. Ä.)", "Audio devices (dictation machines and the like)", 7, "asset_business_equipment", "depreciation", false),
    class("cash_registers", "6.14.7", "Registrierkassen", "Cash registers", 6, "asset_business_equipment", "depreciation", false),
    class("copiers", "6.14.10", "Vervielfältigungsgeräte", "Copiers", 7, "asset_business_equipment", "depreciation", false),
    class("shredders", "6.14.13", "Aktenvernichter", "Shredders", 8, "asset_business_equipment", "depreciation", false),
    class("office_furniture", "6.15", "Büromöbel", "Office furniture", 13, "asset_office_furniture", "depreciation", false),
    class("sales_counters", "6.16", "Verkaufstheken", "Sales counters", 10, "asset_shop_fittings", "depreciation", false),
    class("market_stalls", "6.17", "Verkaufsbuden, Verkaufsstände", "Market stalls and booths", 8, "asset_shop_fittings", "depreciation", false),
    class("safes", "6.19.2", "Tresore", "Safes", 23, "asset_office_furniture", "depreciation", false),
    class("carpets", "6.19.4.1", "Teppiche (normale)", "Carpets (ordinary)", 8, "asset_office_furniture", "depreciation", false),
    Class {
        key: "software",
        reference: "",
        name_de: "Betriebs- und Anwendersoftware",
        name_en: "Operating and application software",
        life_months: Some(12),
        account: "asset_software",
        depreciation: "depreciation_intangibles",
        digital: true,
        intangible: true,
        source: DIGITAL,
    },
    Class {
        key: "other",
        reference: "",
        name_de: "Sonstige Betriebs- und Geschäftsausstattung (Nutzungsdauer geschätzt)",
        name_en: "Other equipment (useful life estimated)",
        life_months: None,
        account: "asset_other_equipment",
        depreciation: "depreciation",
        digital: false,
        intangible: false,
        source: ESTIMATED,
    },
];

/// The class of this key.
pub fn class_of(key: &str) -> Option<&'static Class> {
    CLASSES.iter().find(|c| c.key == key.trim())
}

/// The class a person names.
///
/// Fails with `Invalid` naming `field` for a key no class has.
pub fn parse_class(field: &str, text: &str) -> Result<&'static Class> {
    class_of(text).ok_or_else(|| {
        let keys: Vec<&str> = CLASSES.iter().map(|c| c.key).collect();
        Error::invalid(field, crate::error::not_one_of(&keys, text))
    })
}

/// How an asset is written off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Month by month over its useful life (§ 7 (1) EStG).
    StraightLine,
    /// In full in the fiscal year of acquisition: a digital asset's one-year
    /// life (BMF-Schreiben of 22 February 2022).
    OneYear,
    /// In full in the fiscal year of acquisition: a low-value asset (§ 6 (2)
    /// EStG), or one of € 250 or less in a pool year (§ 6 (2a) sentence 4).
    LowValue,
    /// A fifth in each of five fiscal years from that of acquisition (§ 6
    /// (2a) EStG).
    Pool,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::StraightLine,
        Method::OneYear,
        Method::LowValue,
        Method::Pool,
    ];

    /// The stored and console spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::StraightLine => "straight_line",
            Method::OneYear => "one_year",
            Method::LowValue => "low_value",
            Method::Pool => "pool",
        }
    }

    pub fn parse(text: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == text)
    }

    /// The chart account an asset of `class` under this method stands on.
    pub fn account(self, class: &Class) -> &'static str {
        match self {
            Method::LowValue => "asset_low_value",
            Method::Pool => "asset_pool",
            Method::StraightLine | Method::OneYear => class.account,
        }
    }

    /// The chart account its depreciation goes to.
    pub fn depreciation_account(self, class: &Class) -> &'static str {
        match self {
            Method::LowValue => "low_value_assets_capitalised",
            Method::Pool => "pool_depreciation",
            Method::StraightLine | Method::OneYear => class.depreciation,
        }
    }
}

/// A company's choices for a fiscal year: the low-value rule (§ 6 (2)
/// EStG, applied unless the company says otherwise) and the pool (§ 6 (2a)
/// EStG, only when chosen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YearRule {
    pub low_value: bool,
    pub pool: bool,
}

impl Default for YearRule {
    fn default() -> YearRule {
        YearRule {
            low_value: true,
            pool: false,
        }
    }
}

/// The method an asset of `class` costing `cost` (minor units of euro,
/// net where the input VAT is deductible) takes in a fiscal year under
/// `rule`; `one_year` is the person's choice of the one-year life for a
/// digital asset, which stands before the rest.
pub fn method_of(class: &Class, cost: i64, one_year: bool, rule: YearRule) -> Method {
    if one_year && class.digital {
        return Method::OneYear;
    }
    if class.intangible {
        return Method::StraightLine;
    }
    if rule.pool {
        if cost <= POOL_FLOOR && rule.low_value {
            return Method::LowValue;
        }
        if cost > POOL_FLOOR && cost <= POOL_CEILING {
            return Method::Pool;
        }
        return Method::StraightLine;
    }
    if rule.low_value && cost <= LOW_VALUE_LIMIT {
        return Method::LowValue;
    }
    Method::StraightLine
}

/// What an asset's depreciation is worked out from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Minor units.
    pub cost: i64,
    pub acquired: Date,
    pub method: Method,
    /// The useful life in months (straight-line only).
    pub life_months: u32,
    /// The day it left the company, if it did.
    pub disposed: Option<Date>,
}

/// `value × numerator ÷ denominator`, rounded half away from zero.
fn share(value: i64, numerator: i64, denominator: i64) -> i64 {
    if denominator <= 0 {
        return value;
    }
    let n = value as i128 * numerator as i128;
    let d = denominator as i128;
    let rounded = if n >= 0 {
        (2 * n + d) / (2 * d)
    } else {
        -((-2 * n + d) / (2 * d))
    };
    rounded as i64
}

fn month_number(day: Date) -> i64 {
    i64::from(day.year()) * 12 + i64::from(day.month())
}

impl Plan {
    /// The depreciation through the end of `day`, fiscal years starting on
    /// `start`: nothing before the day of acquisition.
    pub fn accumulated(&self, start: FiscalYearStart, day: Date) -> i64 {
        if day < self.acquired {
            return 0;
        }
        match self.method {
            Method::OneYear | Method::LowValue => self.cost,
            Method::StraightLine => {
                let end = match self.disposed {
                    Some(d) if d < day => d,
                    _ => day,
                };
                let life = i64::from(self.life_months.max(1));
                let months = (month_number(end) - month_number(self.acquired) + 1).clamp(0, life);
                share(self.cost, months, life)
            }
            Method::Pool => {
                let first = start.year_of(self.acquired);
                let this = start.year_of(day);
                let mut years = i32::from(this.year()) - i32::from(first.year());
                if day == start.end_of(this) {
                    years += 1;
                }
                let years = years.clamp(0, POOL_YEARS);
                share(self.cost, i64::from(years), i64::from(POOL_YEARS))
            }
        }
    }

    /// The depreciation that falls in the fiscal year starting on `first`.
    pub fn in_year(&self, start: FiscalYearStart, first: Date) -> i64 {
        let before = first.yesterday().map_or(0, |d| self.accumulated(start, d));
        self.accumulated(start, start.end_of(first)) - before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JAN: FiscalYearStart = FiscalYearStart::JANUARY_FIRST;

    fn plan(cost: i64, acquired: Date, method: Method, life_months: u32) -> Plan {
        Plan {
            cost,
            acquired,
            method,
            life_months,
            disposed: None,
        }
    }

    fn year(y: i16) -> Date {
        Date::new(y, 1, 1).unwrap()
    }

    #[test]
    fn a_desk_bought_in_march_writes_off_ten_twelfths_of_a_thirteenth_first() {
        let desk = plan(
            130_000,
            Date::constant(2026, 3, 17),
            Method::StraightLine,
            156,
        );
        // 1,300 / 13 × 10 / 12 = 83.33.
        assert_eq!(desk.in_year(JAN, year(2026)), 8_333);
        assert_eq!(desk.in_year(JAN, year(2027)), 10_000);
        // The years add up to the cost exactly; nothing after the last month.
        let total: i64 = (2026..=2040).map(|y| desk.in_year(JAN, year(y))).sum();
        assert_eq!(total, 130_000);
        assert_eq!(desk.in_year(JAN, year(2039)), 1_667);
        assert_eq!(desk.in_year(JAN, year(2040)), 0);
        assert_eq!(desk.in_year(JAN, year(2025)), 0);
    }

    #[test]
    fn one_year_and_low_value_assets_go_in_full_in_the_year_of_acquisition() {
        let laptop = plan(120_000, Date::constant(2026, 11, 30), Method::OneYear, 36);
        assert_eq!(laptop.in_year(JAN, year(2026)), 120_000);
        assert_eq!(laptop.in_year(JAN, year(2027)), 0);
        let chair = plan(60_000, Date::constant(2026, 5, 2), Method::LowValue, 156);
        assert_eq!(chair.in_year(JAN, year(2026)), 60_000);
        // A fiscal year from July: the chair's year is 2025/26.
        let july = FiscalYearStart::parse("f", "07-01").unwrap();
        assert_eq!(chair.in_year(july, Date::constant(2025, 7, 1)), 60_000);
        assert_eq!(chair.in_year(july, Date::constant(2026, 7, 1)), 0);
    }

    #[test]
    fn a_pool_is_written_off_by_fifths_over_five_fiscal_years() {
        let shelf = plan(90_001, Date::constant(2026, 12, 31), Method::Pool, 156);
        let years: Vec<i64> = (2026..=2031).map(|y| shelf.in_year(JAN, year(y))).collect();
        assert_eq!(years, vec![18_000, 18_000, 18_001, 18_000, 18_000, 0]);
        // A disposal does not reduce it.
        let sold = Plan {
            disposed: Some(Date::constant(2027, 3, 1)),
            ..shelf
        };
        assert_eq!(sold.in_year(JAN, year(2028)), 18_001);
    }

    #[test]
    fn a_disposal_ends_straight_line_depreciation_with_its_month() {
        let car = Plan {
            disposed: Some(Date::constant(2027, 4, 10)),
            ..plan(
                3_600_000,
                Date::constant(2026, 1, 5),
                Method::StraightLine,
                72,
            )
        };
        assert_eq!(car.in_year(JAN, year(2026)), 600_000);
        // January to April: four months of 50,000.
        assert_eq!(car.in_year(JAN, year(2027)), 200_000);
        assert_eq!(car.in_year(JAN, year(2028)), 0);
    }

    #[test]
    fn the_method_follows_the_cost_and_the_years_choices() {
        let furniture = class_of("office_furniture").unwrap();
        let computers = class_of("computers").unwrap();
        let software = class_of("software").unwrap();
        let default = YearRule::default();
        let pool = YearRule {
            low_value: true,
            pool: true,
        };
        assert_eq!(
            method_of(furniture, 60_000, false, default),
            Method::LowValue
        );
        assert_eq!(
            method_of(furniture, 80_000, false, default),
            Method::LowValue
        );
        assert_eq!(
            method_of(furniture, 80_001, false, default),
            Method::StraightLine
        );
        assert_eq!(method_of(furniture, 25_000, false, pool), Method::LowValue);
        assert_eq!(method_of(furniture, 25_001, false, pool), Method::Pool);
        assert_eq!(method_of(furniture, 60_000, false, pool), Method::Pool);
        assert_eq!(method_of(furniture, 100_000, false, pool), Method::Pool);
        assert_eq!(
            method_of(furniture, 100_001, false, pool),
            Method::StraightLine
        );
        let neither = YearRule {
            low_value: false,
            pool: false,
        };
        assert_eq!(
            method_of(furniture, 10_000, false, neither),
            Method::StraightLine
        );
        assert_eq!(
            method_of(computers, 120_000, true, default),
            Method::OneYear
        );
        assert_eq!(
            method_of(furniture, 120_000, true, default),
            Method::StraightLine
        );
        assert_eq!(
            method_of(software, 50_000, false, pool),
            Method::StraightLine
        );
        assert_eq!(Method::LowValue.account(furniture), "asset_low_value");
        assert_eq!(
            Method::Pool.depreciation_account(furniture),
            "pool_depreciation"
        );
    }

    #[test]
    fn every_class_names_accounts_of_the_chart_and_a_source() {
        for (i, c) in CLASSES.iter().enumerate() {
            assert!(CLASSES[..i].iter().all(|d| d.key != c.key), "{}", c.key);
            for key in [c.account, c.depreciation] {
                let a = crate::rules::chart::standard(key).unwrap_or_else(|| panic!("{key}"));
                assert!(!a.kind.in_profit_and_loss() || key == c.depreciation);
            }
            assert!(!c.source.is_empty() && !c.name_de.is_empty() && !c.name_en.is_empty());
            assert!(c.life_months.is_none_or(|m| m > 0 && m <= MAX_LIFE_MONTHS));
        }
        for m in Method::ALL {
            assert_eq!(Method::parse(m.as_str()), Some(m));
            for c in CLASSES {
                assert!(crate::rules::chart::standard(m.account(c)).is_some());
                assert!(crate::rules::chart::standard(m.depreciation_account(c)).is_some());
            }
        }
        assert_eq!(class_of("office_furniture").unwrap().life_months, Some(156));
        assert!(parse_class("class", "spaceship").is_err());
    }
}
