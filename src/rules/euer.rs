//! The Anlage EÜR, the form of the cash-basis profit statement (§ 4 (3)
//! EStG, § 60 (4) EStDV), as data: each figure kontor fills by its
//! Kennzahl (Kz), which stays the same from year to year, with its label,
//! and per year of the form the line (*Zeile*) each Kz stands on, which
//! moves every year; which Kz a cost of the chart of accounts goes to, and
//! a revenue by its tax key. Pure data and lookups: no storage.
//!
//! The forms kontor knows, and where their numbers come from (none was
//! read in the BMF's own PDF, which could not be opened when they were
//! written down; they rest on public transcriptions that agree with each
//! other, and must be checked against the form before they are relied on):
//!
//! - 2025: the BMF letter of 29 August 2025 (IV C 6 – S 2142/00023/010/001)
//!   published the form. The line numbers are those of a public
//!   repository's transcription of the form (Kontovia's EÜR 2025 line
//!   list), the Kennzahlen and labels those of another
//!   (bl4ckh4nd/billme, packages/desktop-services/src/eur/lines-2025.json
//!   @4b4d0af5); the two agree by order and label. The income block is
//!   lines 12–23 and the expense block lines 24–75 as haufe.de's
//!   commentary on the 2024 form has them.
//! - 2026: the BMF letter of 1 September 2026 (IV C 6 –
//!   S 2142/00024/010/001), reported, not read. The lines are the 2025
//!   ones moved as the same transcription reports the change: a new line
//!   27 (a reserve for livestock valuation), goods from line 27 to 29, and
//!   every other line from 29 on one line down; the income lines 12–23
//!   unchanged. A public bookkeeping guide (OpenAccountants, quoting the
//!   2026 instructions) has entertainment on line 64, as this gives.
//!
//! Which Kz a cost goes to is kontor's reading of the form's labels, not a
//! source's: `EXPENSES` below, an own account by its HGB line
//! (`of_line`). Trade tax goes to none: it is no business expense (§ 4
//! (5b) EStG), and the form's line for it was not established.

use crate::rules::chart::Line;

/// Where a figure stands on the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A business income (*Betriebseinnahme*), in the income sum.
    Income,
    /// A business expense, in the expense sum.
    Expense,
    /// The part of a limited expense that may not be deducted, in the
    /// column beside its line and in no sum (§ 4 (5) EStG).
    NotDeductible,
    /// The sum of the income (Kz 159).
    IncomeSum,
    /// The sum of the expenses (Kz 199).
    ExpenseSum,
}

/// A figure of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kennzahl {
    pub kz: &'static str,
    pub side: Side,
    pub name_de: &'static str,
    pub name_en: &'static str,
}

impl Kennzahl {
    pub fn name(&self, english: bool) -> &'static str {
        if english {
            self.name_en
        } else {
            self.name_de
        }
    }
}

const fn kz(
    kz: &'static str,
    side: Side,
    name_de: &'static str,
    name_en: &'static str,
) -> Kennzahl {
    Kennzahl {
        kz,
        side,
        name_de,
        name_en,
    }
}

/// A small business's income (§ 19 UStG).
pub const SMALL_BUSINESS: &str = "111";
/// Income subject to VAT, net.
pub const TAXABLE: &str = "112";
/// Income free of VAT or not taxable here (interest, exports, § 13b).
pub const TAX_FREE: &str = "103";
/// The VAT received with the income.
pub const VAT_RECEIVED: &str = "140";
/// VAT the tax office refunded.
pub const VAT_REFUNDED: &str = "141";
/// What fixed assets were sold for.
pub const ASSET_SALES: &str = "102";
pub const INCOME_SUM: &str = "159";
/// Depreciation of movable assets (straight-line, one year).
pub const DEPRECIATION: &str = "130";
/// Depreciation of intangible assets.
pub const DEPRECIATION_INTANGIBLE: &str = "131";
/// Low-value assets written off at once (§ 6 (2) EStG).
pub const LOW_VALUE: &str = "132";
/// The pool's fifth (§ 6 (2a) EStG).
pub const POOL: &str = "137";
/// The remaining value of assets that left.
pub const REMAINING_VALUE: &str = "135";
/// The input VAT paid with the expenses.
pub const INPUT_VAT: &str = "185";
/// VAT paid to the tax office.
pub const VAT_PAID: &str = "186";
/// Every other expense deductible without limit.
pub const OTHER_EXPENSES: &str = "183";
/// Interest not on loans for fixed assets.
pub const OTHER_INTEREST: &str = "234";
pub const EXPENSE_SUM: &str = "199";

/// The figures kontor fills, in the form's order.
#[rustfmt::skip]
pub const KENNZAHLEN: &[Kennzahl] = &[
    kz(SMALL_BUSINESS, Side::Income, "Betriebseinnahmen als umsatzsteuerlicher Kleinunternehmer (§ 19 Abs. 1 UStG)", "Income of a small business (§ 19 (1) UStG)"),
    kz(TAXABLE, Side::Income, "Umsatzsteuerpflichtige Betriebseinnahmen", "Income subject to VAT (net)"),
    kz(TAX_FREE, Side::Income, "Umsatzsteuerfreie, nicht umsatzsteuerbare Betriebseinnahmen", "Income free of VAT or not taxable here"),
    kz(VAT_RECEIVED, Side::Income, "Vereinnahmte Umsatzsteuer", "VAT received"),
    kz(VAT_REFUNDED, Side::Income, "Vom Finanzamt erstattete Umsatzsteuer", "VAT refunded by the tax office"),
    kz(ASSET_SALES, Side::Income, "Veräußerung oder Entnahme von Anlagevermögen", "Fixed assets sold"),
    kz(INCOME_SUM, Side::IncomeSum, "Summe Betriebseinnahmen", "Total income"),
    kz("100", Side::Expense, "Waren, Rohstoffe und Hilfsstoffe einschließlich der Nebenkosten", "Goods, raw materials and supplies"),
    kz("110", Side::Expense, "Bezogene Fremdleistungen", "Services bought"),
    kz("120", Side::Expense, "Ausgaben für eigenes Personal", "Staff"),
    kz(DEPRECIATION_INTANGIBLE, Side::Expense, "AfA auf immaterielle Wirtschaftsgüter", "Depreciation of intangible assets"),
    kz(DEPRECIATION, Side::Expense, "AfA auf bewegliche Wirtschaftsgüter", "Depreciation of movable assets"),
    kz(LOW_VALUE, Side::Expense, "Aufwendungen für geringwertige Wirtschaftsgüter nach § 6 Abs. 2 EStG", "Low-value assets (§ 6 (2) EStG)"),
    kz(POOL, Side::Expense, "Auflösung Sammelposten nach § 6 Abs. 2a EStG", "The pool's part (§ 6 (2a) EStG)"),
    kz(REMAINING_VALUE, Side::Expense, "Restbuchwert der im Kalenderjahr ausgeschiedenen Anlagegüter", "Remaining value of assets that left"),
    kz("150", Side::Expense, "Miete/Pacht für Geschäftsräume und betrieblich genutzte Grundstücke", "Rent of business premises"),
    kz("151", Side::Expense, "Sonstige Aufwendungen für betrieblich genutzte Grundstücke", "Other costs of business premises"),
    kz("280", Side::Expense, "Aufwendungen für Telekommunikation", "Telecommunication"),
    kz("221", Side::Expense, "Übernachtungs- und Reisenebenkosten bei Geschäftsreisen des Steuerpflichtigen", "The owner's business travel"),
    kz("281", Side::Expense, "Fortbildungskosten", "Training"),
    kz("194", Side::Expense, "Kosten für Rechts- und Steuerberatung, Buchführung", "Legal and tax advice, bookkeeping"),
    kz("222", Side::Expense, "Miete/Leasing für bewegliche Wirtschaftsgüter (ohne Kraftfahrzeuge)", "Rent and leasing of movable assets (not vehicles)"),
    kz("225", Side::Expense, "Erhaltungsaufwendungen für bewegliche Wirtschaftsgüter", "Repairs of movable assets"),
    kz("223", Side::Expense, "Beiträge, Gebühren, Abgaben und Versicherungen", "Contributions, fees and insurance"),
    kz("228", Side::Expense, "Laufende EDV-Kosten", "Running IT costs"),
    kz("229", Side::Expense, "Arbeitsmittel", "Working materials"),
    kz("224", Side::Expense, "Werbekosten", "Advertising"),
    kz(OTHER_INTEREST, Side::Expense, "Übrige Schuldzinsen", "Other interest"),
    kz(INPUT_VAT, Side::Expense, "Gezahlte Vorsteuerbeträge", "Input VAT paid"),
    kz(VAT_PAID, Side::Expense, "An das Finanzamt gezahlte Umsatzsteuer", "VAT paid to the tax office"),
    kz(OTHER_EXPENSES, Side::Expense, "Übrige unbeschränkt abziehbare Betriebsausgaben", "Other expenses deductible without limit"),
    kz("164", Side::Expense, "Geschenke (abziehbar)", "Gifts (deductible)"),
    kz("174", Side::NotDeductible, "Geschenke (nicht abziehbar)", "Gifts (not deductible)"),
    kz("165", Side::Expense, "Bewirtungsaufwendungen (abziehbar)", "Business entertainment (deductible)"),
    kz("175", Side::NotDeductible, "Bewirtungsaufwendungen (nicht abziehbar)", "Business entertainment (not deductible)"),
    kz("144", Side::Expense, "Leasingkosten für Kraftfahrzeuge", "Vehicle leasing"),
    kz("145", Side::Expense, "Steuern, Versicherungen und Maut für Kraftfahrzeuge", "Vehicle taxes, insurance and tolls"),
    kz("146", Side::Expense, "Sonstige tatsächliche Kraftfahrzeugkosten", "Other vehicle costs"),
    kz(EXPENSE_SUM, Side::ExpenseSum, "Summe Betriebsausgaben", "Total expenses"),
];

/// The Kz `code` of the form.
pub fn kennzahl(code: &str) -> Option<&'static Kennzahl> {
    KENNZAHLEN.iter().find(|k| k.kz == code)
}

/// One year's form: the line each Kz stands on.
#[derive(Debug)]
pub struct Form {
    pub year: i32,
    /// (Kz, line).
    pub lines: &'static [(&'static str, u16)],
    /// Where the line numbers come from.
    pub source: &'static str,
}

impl Form {
    /// The line `kz` stands on this year.
    pub fn line(&self, kz: &str) -> Option<u16> {
        self.lines.iter().find(|(k, _)| *k == kz).map(|(_, l)| *l)
    }

    /// The key a figure is named by: its line; the part of a line that may
    /// not be deducted `line:kz` (`63:175`).
    pub fn key(&self, kz: &Kennzahl) -> Option<String> {
        let line = self.line(kz.kz)?;
        Some(match kz.side {
            Side::NotDeductible => format!("{line}:{}", kz.kz),
            _ => line.to_string(),
        })
    }
}

const SOURCE_2025: &str = "Anlage EÜR 2025 (BMF-Schreiben vom 29.08.2025, IV C 6 - S 2142/00023/010/001): lines per Kontovia's transcription of the form, Kennzahlen per bl4ckh4nd/billme lines-2025.json @4b4d0af5; not checked against the BMF's PDF";
const SOURCE_2026: &str = "Anlage EÜR 2026 (BMF-Schreiben vom 01.09.2026, IV C 6 - S 2142/00024/010/001, reported): the 2025 lines moved as Kontovia's transcription reports (new line 27; goods 27 to 29; lines from 29 on one down), entertainment on line 64 per the OpenAccountants guide; not checked against the BMF's PDF";

#[rustfmt::skip]
const LINES_2025: &[(&str, u16)] = &[
    ("111", 12), ("112", 15), ("103", 16), ("140", 17), ("141", 18), ("102", 19), ("159", 23),
    ("100", 27), ("110", 29), ("120", 30), ("131", 32), ("130", 33), ("132", 36), ("137", 37),
    ("135", 38), ("150", 39), ("151", 41), ("280", 43), ("221", 44), ("281", 45), ("194", 46),
    ("222", 47), ("225", 48), ("223", 49), ("228", 50), ("229", 51), ("224", 54), ("234", 56),
    ("185", 57), ("186", 58), ("183", 60), ("164", 62), ("174", 62), ("165", 63), ("175", 63),
    ("144", 68), ("145", 69), ("146", 70), ("199", 75),
];

#[rustfmt::skip]
const LINES_2026: &[(&str, u16)] = &[
    ("111", 12), ("112", 15), ("103", 16), ("140", 17), ("141", 18), ("102", 19), ("159", 23),
    ("100", 29), ("110", 30), ("120", 31), ("131", 33), ("130", 34), ("132", 37), ("137", 38),
    ("135", 39), ("150", 40), ("151", 42), ("280", 44), ("221", 45), ("281", 46), ("194", 47),
    ("222", 48), ("225", 49), ("223", 50), ("228", 51), ("229", 52), ("224", 55), ("234", 57),
    ("185", 58), ("186", 59), ("183", 61), ("164", 63), ("174", 63), ("165", 64), ("175", 64),
    ("144", 69), ("145", 70), ("146", 71), ("199", 76),
];

/// The forms kontor knows.
pub const FORMS: &[Form] = &[
    Form {
        year: 2025,
        lines: LINES_2025,
        source: SOURCE_2025,
    },
    Form {
        year: 2026,
        lines: LINES_2026,
        source: SOURCE_2026,
    },
];

/// The form of `year`, if kontor knows it.
pub fn form(year: i32) -> Option<&'static Form> {
    FORMS.iter().find(|f| f.year == year)
}

/// The years whose forms kontor knows, in order; a refusal lists them in
/// its reader's words (`Methods::FormUnknown`).
pub fn known_years() -> Vec<i32> {
    FORMS.iter().map(|f| f.year).collect()
}

/// Where the standard accounts of the chart a cost may go to land on the
/// form: (chart key, Kz); `None` for a cost that is no business expense.
#[rustfmt::skip]
pub const EXPENSES: &[(&str, Option<&str>)] = &[
    ("goods", Some("100")),
    ("services", Some("110")),
    ("services_eu_reverse_charge", Some("110")),
    ("wages", Some("120")),
    ("salaries", Some("120")),
    ("social_security", Some("120")),
    ("depreciation", Some(DEPRECIATION)),
    ("depreciation_vehicles", Some(DEPRECIATION)),
    ("depreciation_intangibles", Some(DEPRECIATION_INTANGIBLE)),
    ("low_value_assets", Some(LOW_VALUE)),
    ("low_value_assets_capitalised", Some(LOW_VALUE)),
    ("pool_depreciation", Some(POOL)),
    ("asset_disposal_loss", Some(REMAINING_VALUE)),
    ("asset_disposal_loss_intangible", Some(REMAINING_VALUE)),
    ("rent", Some("150")),
    ("heating", Some("151")),
    ("energy", Some("151")),
    ("cleaning", Some("151")),
    ("premises_maintenance", Some("151")),
    ("insurance", Some("223")),
    ("contributions", Some("223")),
    ("vehicle_insurance", Some("145")),
    ("vehicle_tax", Some("145")),
    ("vehicle_costs", Some("146")),
    ("vehicle_repairs", Some("146")),
    ("vehicle_leasing", Some("144")),
    ("advertising", Some("224")),
    ("gifts", Some("164")),
    ("gifts_nondeductible", Some("174")),
    ("entertainment", Some("165")),
    ("entertainment_nondeductible", Some("175")),
    ("travel_owner", Some("221")),
    ("travel_employees", Some(OTHER_EXPENSES)),
    ("repairs", Some("225")),
    ("it_maintenance", Some("228")),
    ("software", Some("228")),
    ("postage", Some("229")),
    ("office_supplies", Some("229")),
    ("books", Some("229")),
    ("tools", Some("229")),
    ("telephone", Some("280")),
    ("internet", Some("280")),
    ("training", Some("281")),
    ("legal_advice", Some("194")),
    ("bookkeeping", Some("194")),
    ("closing_audit", Some("194")),
    ("equipment_rental", Some("222")),
    ("bank_charges", Some(OTHER_EXPENSES)),
    ("other_expenses", Some(OTHER_EXPENSES)),
    ("interest_expense", Some(OTHER_INTEREST)),
    ("other_taxes", Some(OTHER_EXPENSES)),
    ("trade_tax", None),
];

/// Where a cost on the chart's standard account `key` lands: `Some(None)`
/// for one that is no business expense, `None` for a key the table does
/// not name.
pub fn expense(key: &str) -> Option<Option<&'static str>> {
    EXPENSES.iter().find(|(k, _)| *k == key).map(|(_, kz)| *kz)
}

/// Where a cost on a company's own expense account lands, by the HGB line
/// its balance is shown under; `None` for taxes on income.
pub fn of_line(line: Line) -> Option<&'static str> {
    match line {
        Line::Materials => Some("100"),
        Line::PurchasedServices => Some("110"),
        Line::Wages | Line::SocialSecurity => Some("120"),
        Line::Depreciation => Some(DEPRECIATION),
        Line::InterestExpenses => Some(OTHER_INTEREST),
        Line::IncomeTaxes => None,
        _ => Some(OTHER_EXPENSES),
    }
}

/// Where a revenue with tax key `key` (`S:19`, `K:0`, …; '' on lines from
/// before the ledger kept keys, taxed at 19 %) lands: a small business's
/// all on its own line; else taxed at a rate above nothing, or free of VAT
/// and not taxable here (exempt, zero-rated, intra-community, exports,
/// the reverse charge, supplies abroad).
pub fn revenue(key: &str, small_business: bool) -> &'static str {
    if small_business {
        return SMALL_BUSINESS;
    }
    if key.is_empty() {
        return TAXABLE;
    }
    let mut parts = key.split(':');
    let category = parts.next().unwrap_or("");
    let rate = parts.next().unwrap_or("0");
    let zero = rate.chars().all(|c| c == '0' || c == '.');
    if category == "S" && !zero {
        TAXABLE
    } else {
        TAX_FREE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chart;

    #[test]
    fn every_form_places_every_figure_once_and_keeps_the_forms_order() {
        for form in FORMS {
            for k in KENNZAHLEN {
                assert!(form.line(k.kz).is_some(), "{} {}", form.year, k.kz);
            }
            assert_eq!(form.lines.len(), KENNZAHLEN.len(), "{}", form.year);
            let lines: Vec<u16> = KENNZAHLEN
                .iter()
                .map(|k| form.line(k.kz).unwrap())
                .collect();
            assert!(
                lines.windows(2).all(|w| w[0] <= w[1]),
                "{} {lines:?}",
                form.year
            );
            // One figure a line, but for the two columns of a limited expense.
            for w in KENNZAHLEN.windows(2) {
                let same = form.line(w[0].kz) == form.line(w[1].kz);
                assert_eq!(
                    same,
                    w[1].side == Side::NotDeductible,
                    "{} {}",
                    form.year,
                    w[1].kz
                );
            }
        }
    }

    #[test]
    fn the_2026_form_moves_the_expenses_from_line_29_on_and_goods_to_29() {
        let (a, b) = (form(2025).unwrap(), form(2026).unwrap());
        for k in KENNZAHLEN {
            let (old, new) = (a.line(k.kz).unwrap(), b.line(k.kz).unwrap());
            let want = match old {
                27 => 29,
                l if l >= 29 => l + 1,
                l => l,
            };
            assert_eq!(new, want, "{}", k.kz);
        }
        assert_eq!(b.line("165"), Some(64));
        assert_eq!(b.key(kennzahl("175").unwrap()).as_deref(), Some("64:175"));
        assert!(form(2024).is_none() && form(2027).is_none());
        assert_eq!(known_years(), [2025, 2026]);
    }

    #[test]
    fn every_cost_a_bill_may_take_lands_somewhere_named() {
        for a in chart::ACCOUNTS.iter().filter(|a| a.for_costs) {
            let kz = expense(a.key).unwrap_or_else(|| panic!("{} lands nowhere", a.key));
            if let Some(kz) = kz {
                assert!(kennzahl(kz).is_some(), "{}: {kz}", a.key);
            }
        }
        for (key, _) in EXPENSES {
            assert!(chart::standard(key).is_some(), "{key}");
        }
        assert_eq!(expense("trade_tax"), Some(None));
        assert_eq!(expense("revenue_19"), None);
    }

    #[test]
    fn revenue_is_taxable_only_at_a_rate() {
        assert_eq!(revenue("S:19", false), TAXABLE);
        assert_eq!(revenue("S:7", false), TAXABLE);
        assert_eq!(revenue("S:0", false), TAX_FREE);
        assert_eq!(revenue("S:0.00", false), TAX_FREE);
        assert_eq!(revenue("", false), TAXABLE);
        for free in ["K:0", "G:0", "AE:0:EU", "AE:0", "E:0", "Z:0", "O:0"] {
            assert_eq!(revenue(free, false), TAX_FREE, "{free}");
        }
        assert_eq!(revenue("S:19", true), SMALL_BUSINESS);
    }
}
