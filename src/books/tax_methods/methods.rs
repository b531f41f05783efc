//! A company's tax methods as rules, pure: its legal form and whether that
//! form must draw up a balance sheet, when it owes VAT (on invoices issued,
//! *Soll*, or on payments received, *Ist*) and the ground of § 20 UStG it
//! claims for the latter, how it determines its profit (balance sheet or the
//! cash-basis statement, *EÜR*), how often it files its VAT return and
//! whether it has the one-month extension, as values stored as text and
//! the rules they carry; no storage of their own.
//!
//! The rules and their sources:
//!
//! - Who must keep books and draw up a balance sheet: every merchant
//!   (§ 238 (1), § 242 HGB); the commercial companies are merchants by their
//!   form (§ 6 HGB with § 13 (3) GmbHG for the GmbH and the UG
//!   (haftungsbeschränkt), § 3 (1) AktG for the AG, § 105, § 161 HGB for the
//!   OHG, KG and GmbH & Co. KG), so they cannot choose the EÜR. A registered
//!   sole trader (e. K.) is a merchant too but is freed from it below
//!   € 800,000 turnover and € 80,000 profit in two years running
//!   (§ 241a HGB; § 141 AO for the tax books): allowed, with a warning. A sole
//!   proprietor not registered (a small trader or a freelancer), a GbR and a
//!   partnership of freelancers (PartG) keep no commercial books and may
//!   determine their profit by § 4 (3) EStG.
//! - VAT on payments received (§ 20 sentence 1 UStG, as amended by the
//!   Wachstumschancengesetz, BGBl. 2024 I Nr. 108): allowed by the tax office
//!   on one of three grounds a company may claim: a total turnover of at most
//!   € 800,000 in the previous year (no. 1), an exemption from keeping books
//!   under § 148 AO (no. 2), or freelance work (§ 18 (1) no. 1 EStG) without
//!   a duty to keep books (no. 3). kontor records the ground chosen; the
//!   tax office's permission is the company's to hold.
//! - The VAT return period (§ 18 (1), (2) UStG): monthly or quarterly; the
//!   one-month extension (*Dauerfristverlängerung*, §§ 46–48 UStDV) moves each
//!   return's due day by one month.

use jiff::civil::Date;

use crate::error::{Error, Result, Said};
use crate::stored_enum;

stored_enum! {
    /// A company's legal form, as the register or the tax office knows it.
    pub enum LegalForm {
        /// A sole proprietor not in the commercial register: a small trader
        /// or a freelancer (*Einzelunternehmen*, *Freiberufler*).
        SoleProprietor = "SOLE_PROPRIETOR",
        /// A registered sole trader (*eingetragener Kaufmann*, e. K.).
        RegisteredTrader = "REGISTERED_TRADER",
        /// A civil-law partnership (*GbR*).
        Gbr = "GBR",
        /// A partnership of freelancers (*PartG*, *PartG mbB*).
        PartG = "PARTG",
        /// A general partnership (*OHG*).
        Ohg = "OHG",
        /// A limited partnership (*KG*).
        Kg = "KG",
        /// A limited partnership with a GmbH as its general partner.
        GmbhCoKg = "GMBH_CO_KG",
        /// A private limited company (*GmbH*).
        Gmbh = "GMBH",
        /// A GmbH of small capital (*UG (haftungsbeschränkt)*).
        Ug = "UG",
        /// A public limited company (*AG*).
        Ag = "AG",
    }
}

/// Whether a legal form may determine its profit by the EÜR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EuerAllowed {
    Yes,
    /// Only below the thresholds of § 241a HGB and § 141 AO.
    WithWarning,
    /// A merchant by its form: its books end in a balance sheet.
    No,
}

impl LegalForm {
    /// Reads a legal form in any case, `-` and `_` alike.
    ///
    /// Fails with `Invalid` naming `field` for an unknown form.
    pub fn read(field: &str, text: &str) -> Result<LegalForm> {
        read(field, text, LegalForm::parse, LegalForm::not_one_of)
    }

    /// Whether the form may determine its profit by § 4 (3) EStG.
    pub fn euer(self) -> EuerAllowed {
        use LegalForm::*;
        match self {
            SoleProprietor | Gbr | PartG => EuerAllowed::Yes,
            RegisteredTrader => EuerAllowed::WithWarning,
            Ohg | Kg | GmbhCoKg | Gmbh | Ug | Ag => EuerAllowed::No,
        }
    }

    /// The form's name as the register writes it.
    pub fn name(self) -> &'static str {
        use LegalForm::*;
        match self {
            SoleProprietor => "Einzelunternehmen",
            RegisteredTrader => "e. K.",
            Gbr => "GbR",
            PartG => "PartG",
            Ohg => "OHG",
            Kg => "KG",
            GmbhCoKg => "GmbH & Co. KG",
            Gmbh => "GmbH",
            Ug => "UG (haftungsbeschränkt)",
            Ag => "AG",
        }
    }
}

stored_enum! {
    /// When a company owes VAT on a domestic supply.
    pub enum VatMethod {
        /// When it invoices (*Sollversteuerung*, § 13 (1) no. 1 a UStG).
        Soll = "SOLL",
        /// When the customer pays (*Istversteuerung*, § 13 (1) no. 1 b, § 20 UStG).
        Ist = "IST",
    }
}

stored_enum! {
    /// The ground of § 20 sentence 1 UStG a company claims for VAT on payments received.
    pub enum IstReason {
        /// No. 1: a total turnover of at most € 800,000 in the previous year.
        Turnover = "TURNOVER",
        /// No. 2: exempt from keeping books under § 148 AO.
        NoBookkeeping = "NO_BOOKKEEPING",
        /// No. 3: freelance work (§ 18 (1) no. 1 EStG) without a duty to keep books.
        Freelance = "FREELANCE",
    }
}

stored_enum! {
    /// How a company determines its profit.
    pub enum ProfitMethod {
        /// By comparing balance sheets (§ 4 (1), § 5 EStG).
        Balance = "BALANCE",
        /// By the cash-basis statement (§ 4 (3) EStG, the Anlage EÜR).
        Euer = "EUER",
    }
}

stored_enum! {
    /// How often a company files its VAT return (§ 18 (1), (2) UStG).
    pub enum ReturnPeriod {
        Monthly = "MONTHLY",
        Quarterly = "QUARTERLY",
    }
}

/// Reads an enum's value in any case (`-` for `_`), or refuses naming `field`.
pub fn read<T>(
    field: &str,
    text: &str,
    parse: fn(&str) -> Option<T>,
    not_one_of: fn(&str) -> Said,
) -> Result<T> {
    parse(&text.trim().to_ascii_uppercase().replace('-', "_"))
        .ok_or_else(|| Error::invalid(field, not_one_of(text)))
}

impl ReturnPeriod {
    /// The first day of the return period `day` falls in.
    pub fn start_of(self, day: Date) -> Date {
        let month = match self {
            ReturnPeriod::Monthly => day.month(),
            ReturnPeriod::Quarterly => (day.month() - 1) / 3 * 3 + 1,
        };
        day.with().month(month).day(1).build().unwrap_or(day)
    }

    /// The first day of the return period after the one `day` falls in.
    pub fn next_start(self, day: Date) -> Date {
        let months = match self {
            ReturnPeriod::Monthly => 1,
            ReturnPeriod::Quarterly => 3,
        };
        let start = self.start_of(day);
        start
            .checked_add(jiff::Span::new().months(months))
            .unwrap_or(start)
    }

    /// The last day of the return period `day` falls in.
    pub fn end_of(self, day: Date) -> Date {
        let next = self.next_start(day);
        next.yesterday().unwrap_or(next)
    }
}

/// The statutory due day of the return (and its prepayment) of the period
/// ending `period_end`: the 10th day after it (§ 18 (1) sentence 1 UStG),
/// one month later with the extension (§ 46 UStDV). A due day on a weekend
/// or holiday moves (§ 108 (3) AO), which the ten-day rule ignores (BFH
/// 27.06.2018, X R 44/16), so it is not moved here.
pub fn return_due(period_end: Date, extension: bool) -> Date {
    let months = if extension { 2 } else { 1 };
    let first = period_end
        .first_of_month()
        .checked_add(jiff::Span::new().months(months))
        .unwrap_or(period_end);
    first.with().day(10).build().unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn periods_start_and_end_on_their_months() {
        let q = ReturnPeriod::Quarterly;
        assert_eq!(q.start_of(date(2026, 11, 28)), date(2026, 10, 1));
        assert_eq!(q.next_start(date(2026, 11, 28)), date(2027, 1, 1));
        assert_eq!(q.end_of(date(2026, 2, 3)), date(2026, 3, 31));
        let m = ReturnPeriod::Monthly;
        assert_eq!(m.start_of(date(2026, 2, 28)), date(2026, 2, 1));
        assert_eq!(m.end_of(date(2028, 2, 3)), date(2028, 2, 29));
    }

    #[test]
    fn a_return_is_due_on_the_tenth_and_a_month_later_with_the_extension() {
        assert_eq!(return_due(date(2026, 12, 31), false), date(2027, 1, 10));
        assert_eq!(return_due(date(2026, 12, 31), true), date(2027, 2, 10));
        assert_eq!(return_due(date(2026, 11, 30), false), date(2026, 12, 10));
    }

    #[test]
    fn only_the_forms_that_are_not_merchants_by_form_may_choose_the_euer() {
        assert_eq!(LegalForm::Gmbh.euer(), EuerAllowed::No);
        assert_eq!(LegalForm::GmbhCoKg.euer(), EuerAllowed::No);
        assert_eq!(LegalForm::RegisteredTrader.euer(), EuerAllowed::WithWarning);
        assert_eq!(LegalForm::SoleProprietor.euer(), EuerAllowed::Yes);
        assert_eq!(
            LegalForm::read("legalForm", "gmbh-co-kg").unwrap(),
            LegalForm::GmbhCoKg
        );
        assert!(LegalForm::read("legalForm", "Ltd").is_err());
    }
}
