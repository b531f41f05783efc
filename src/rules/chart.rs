//! The chart of accounts kontor keeps, on either of DATEV's standard charts
//! (SKR03, SKR04): every account the books post to and the accounts a
//! small company's costs go to, each with its number in both charts, its
//! German and English name, its kind, and the line of the statements its
//! balance is shown under (the balance sheet by § 266 HGB in the short form
//! small companies may use, § 266 (1) sentence 3; the profit and loss by
//! the nature-of-expense method, § 275 (2) HGB). One table, read by the
//! ledger's reports and the DATEV export alike (`rules::skr` says which
//! account a ledger line lands on). Pure data and lookups: no storage.
//!
//! Sources, per account (`source`): the DATEV charts as Odoo transcribes
//! them (odoo/odoo, addons/l10n_de/data/template/account.account-de_skr03.csv
//! and -de_skr04.csv @05a629cd, each number read with its name and its HGB
//! tag), cross-read with kivitendo's SKR03 (sql/Germany-DATEV-SKR03EU-chart.sql
//! @0d1bb510) for which accounts are DATEV *Automatikkonten*, and the
//! statutes for the lines: § 266 (2), (3) HGB and § 275 (2) HGB in their
//! wording after BilRUG; discounts granted reduce revenue (§ 277 (1) HGB),
//! discounts received the cost of what was bought (§ 255 (1) sentence 3
//! HGB), so both are shown under the line of what they reduce.

use crate::error::{Error, Result};

/// A DATEV standard chart of accounts (*Standardkontenrahmen*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chart {
    Skr03,
    Skr04,
}

impl Chart {
    pub const ALL: [Chart; 2] = [Chart::Skr03, Chart::Skr04];

    /// The stored and shown spelling: `skr03`, `skr04`.
    pub fn as_str(self) -> &'static str {
        match self {
            Chart::Skr03 => "skr03",
            Chart::Skr04 => "skr04",
        }
    }

    /// The chart a person names (`skr03`, `SKR04`, …).
    ///
    /// Fails with `Invalid` naming `field` for anything else.
    pub fn parse(field: &str, text: &str) -> Result<Chart> {
        match text.trim().to_ascii_lowercase().as_str() {
            "skr03" | "03" => Ok(Chart::Skr03),
            "skr04" | "04" => Ok(Chart::Skr04),
            _ => Err(Error::invalid(
                field,
                crate::error::not_one_of(&Chart::ALL.map(Chart::as_str), text),
            )),
        }
    }

    /// The value of the EXTF header's field 27 (`SKR`): `03` or `04`.
    pub fn datev_code(self) -> &'static str {
        match self {
            Chart::Skr03 => "03",
            Chart::Skr04 => "04",
        }
    }

    /// The first bank account's number; a company's further bank accounts
    /// take the numbers after it (1201, 1202, … in SKR03).
    pub fn first_bank(self) -> u32 {
        match self {
            Chart::Skr03 => 1200,
            Chart::Skr04 => 1800,
        }
    }
}

/// What an account is, by where its balance stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Asset,
    Liability,
    Equity,
    Revenue,
    Expense,
    /// Input and output tax and the tax office: shown as an asset while the
    /// tax office owes, as a liability while it is owed.
    Tax,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Asset,
        Kind::Liability,
        Kind::Equity,
        Kind::Revenue,
        Kind::Expense,
        Kind::Tax,
    ];

    /// The stored and console spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Asset => "asset",
            Kind::Liability => "liability",
            Kind::Equity => "equity",
            Kind::Revenue => "revenue",
            Kind::Expense => "expense",
            Kind::Tax => "tax",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text.trim())
    }

    /// Whether the account belongs to the profit and loss (else the balance sheet).
    pub fn in_profit_and_loss(self) -> bool {
        matches!(self, Kind::Revenue | Kind::Expense)
    }
}

/// Which statement a line belongs to, and on which side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Statement {
    /// § 266 (2) HGB, Aktivseite.
    Assets,
    /// § 266 (3) HGB, Passivseite.
    EquityAndLiabilities,
    /// § 275 (2) HGB.
    ProfitAndLoss,
}

/// A line of the statements: § 266 HGB (the letters and Roman numerals a
/// small company shows, § 266 (1) sentence 3) and § 275 (2) HGB (its
/// numbers; 5 and 6 split into their a and b, as the statute does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    // § 266 (2) HGB
    IntangibleAssets,
    TangibleAssets,
    FinancialAssets,
    Inventories,
    Receivables,
    Securities,
    Cash,
    PrepaidExpenses,
    // § 266 (3) HGB
    SubscribedCapital,
    CapitalReserve,
    RevenueReserves,
    ProfitCarriedForward,
    /// A.V, the year's result: worked out from the profit and loss.
    NetIncome,
    Provisions,
    Liabilities,
    DeferredIncome,
    // § 275 (2) HGB
    Revenue,
    OtherOperatingIncome,
    Materials,
    PurchasedServices,
    Wages,
    SocialSecurity,
    Depreciation,
    OtherOperatingExpenses,
    InterestIncome,
    InterestExpenses,
    IncomeTaxes,
    OtherTaxes,
}

impl Line {
    /// Every line, in the statutes' order.
    pub const ALL: [Line; 28] = [
        Line::IntangibleAssets,
        Line::TangibleAssets,
        Line::FinancialAssets,
        Line::Inventories,
        Line::Receivables,
        Line::Securities,
        Line::Cash,
        Line::PrepaidExpenses,
        Line::SubscribedCapital,
        Line::CapitalReserve,
        Line::RevenueReserves,
        Line::ProfitCarriedForward,
        Line::NetIncome,
        Line::Provisions,
        Line::Liabilities,
        Line::DeferredIncome,
        Line::Revenue,
        Line::OtherOperatingIncome,
        Line::Materials,
        Line::PurchasedServices,
        Line::Wages,
        Line::SocialSecurity,
        Line::Depreciation,
        Line::OtherOperatingExpenses,
        Line::InterestIncome,
        Line::InterestExpenses,
        Line::IncomeTaxes,
        Line::OtherTaxes,
    ];

    /// The line's code in its statute: `A.II` (§ 266), `5a` (§ 275 (2)).
    pub fn code(self) -> &'static str {
        self.facts().0
    }

    /// The statute's wording.
    pub fn name_de(self) -> &'static str {
        self.facts().1
    }

    /// An English wording.
    pub fn name_en(self) -> &'static str {
        self.facts().2
    }

    pub fn statement(self) -> Statement {
        self.facts().3
    }

    /// The stored and console spelling: the statement and the code
    /// (`assets:A.II`, `equity:C`, `pl:5a`).
    pub fn key(self) -> String {
        let prefix = match self.statement() {
            Statement::Assets => "assets",
            Statement::EquityAndLiabilities => "equity",
            Statement::ProfitAndLoss => "pl",
        };
        format!("{prefix}:{}", self.code())
    }

    /// The line a key names.
    pub fn parse(text: &str) -> Option<Line> {
        Line::ALL.into_iter().find(|l| l.key() == text.trim())
    }

    fn facts(self) -> (&'static str, &'static str, &'static str, Statement) {
        use Statement::*;
        match self {
            Line::IntangibleAssets => ("A.I", "Immaterielle Vermögensgegenstände", "Intangible assets", Assets),
            Line::TangibleAssets => ("A.II", "Sachanlagen", "Tangible fixed assets", Assets),
            Line::FinancialAssets => ("A.III", "Finanzanlagen", "Financial assets", Assets),
            Line::Inventories => ("B.I", "Vorräte", "Inventories", Assets),
            Line::Receivables => (
                "B.II",
                "Forderungen und sonstige Vermögensgegenstände",
                "Receivables and other assets",
                Assets,
            ),
            Line::Securities => ("B.III", "Wertpapiere", "Securities", Assets),
            Line::Cash => (
                "B.IV",
                "Kassenbestand, Bundesbankguthaben, Guthaben bei Kreditinstituten und Schecks",
                "Cash on hand, bank balances and cheques",
                Assets,
            ),
            Line::PrepaidExpenses => ("C", "Rechnungsabgrenzungsposten", "Prepaid expenses", Assets),
            Line::SubscribedCapital => ("A.I", "Gezeichnetes Kapital", "Subscribed capital", EquityAndLiabilities),
            Line::CapitalReserve => ("A.II", "Kapitalrücklage", "Capital reserve", EquityAndLiabilities),
            Line::RevenueReserves => ("A.III", "Gewinnrücklagen", "Revenue reserves", EquityAndLiabilities),
            Line::ProfitCarriedForward => (
                "A.IV",
                "Gewinnvortrag/Verlustvortrag",
                "Profit or loss carried forward",
                EquityAndLiabilities,
            ),
            Line::NetIncome => (
                "A.V",
                "Jahresüberschuss/Jahresfehlbetrag",
                "Net income or loss for the year",
                EquityAndLiabilities,
            ),
            Line::Provisions => ("B", "Rückstellungen", "Provisions", EquityAndLiabilities),
            Line::Liabilities => ("C", "Verbindlichkeiten", "Liabilities", EquityAndLiabilities),
            Line::DeferredIncome => ("D", "Rechnungsabgrenzungsposten", "Deferred income", EquityAndLiabilities),
            Line::Revenue => ("1", "Umsatzerlöse", "Revenue", ProfitAndLoss),
            Line::OtherOperatingIncome => ("4", "sonstige betriebliche Erträge", "Other operating income", ProfitAndLoss),
            Line::Materials => (
                "5a",
                "Aufwendungen für Roh-, Hilfs- und Betriebsstoffe und für bezogene Waren",
                "Cost of raw materials, supplies and goods bought",
                ProfitAndLoss,
            ),
            Line::PurchasedServices => (
                "5b",
                "Aufwendungen für bezogene Leistungen",
                "Cost of services bought",
                ProfitAndLoss,
            ),
            Line::Wages => ("6a", "Löhne und Gehälter", "Wages and salaries", ProfitAndLoss),
            Line::SocialSecurity => (
                "6b",
                "soziale Abgaben und Aufwendungen für Altersversorgung und für Unterstützung",
                "Social security, pensions and other benefits",
                ProfitAndLoss,
            ),
            Line::Depreciation => (
                "7a",
                "Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen",
                "Depreciation of intangible and tangible fixed assets",
                ProfitAndLoss,
            ),
            Line::OtherOperatingExpenses => (
                "8",
                "sonstige betriebliche Aufwendungen",
                "Other operating expenses",
                ProfitAndLoss,
            ),
            Line::InterestIncome => (
                "11",
                "sonstige Zinsen und ähnliche Erträge",
                "Other interest and similar income",
                ProfitAndLoss,
            ),
            Line::InterestExpenses => ("13", "Zinsen und ähnliche Aufwendungen", "Interest and similar expenses", ProfitAndLoss),
            Line::IncomeTaxes => ("14", "Steuern vom Einkommen und vom Ertrag", "Taxes on income", ProfitAndLoss),
            Line::OtherTaxes => ("16", "sonstige Steuern", "Other taxes", ProfitAndLoss),
        }
    }
}

/// An account of the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    /// Its name in kontor, the same on both charts: what a bill line and the
    /// ledger name.
    pub key: &'static str,
    pub skr03: u32,
    pub skr04: u32,
    /// DATEV's name (SKR03's wording where the two differ).
    pub name_de: &'static str,
    pub name_en: &'static str,
    pub kind: Kind,
    /// The line its balance is shown under; for an asset, liability or tax
    /// account the line of its usual side (`Kind::Tax`, the bank and money
    /// in transit change sides with their balance).
    pub line: Line,
    /// Whether a person may put a bill's cost on it (the curated accounts of
    /// what a small company buys).
    pub for_costs: bool,
    pub source: &'static str,
}

impl Account {
    pub fn number(&self, chart: Chart) -> u32 {
        match chart {
            Chart::Skr03 => self.skr03,
            Chart::Skr04 => self.skr04,
        }
    }

    pub fn name(&self, english: bool) -> &'static str {
        if english {
            self.name_en
        } else {
            self.name_de
        }
    }
}

/// Odoo's transcription of the DATEV charts, read for number, name and
/// HGB tag: odoo/odoo addons/l10n_de/data/template/account.account-de_skr03.csv
/// and -de_skr04.csv @05a629cd.
const ODOO: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv @05a629cd";
/// The same, and kivitendo's SKR03 for the account's tax treatment
/// (kivitendo/kivitendo-erp sql/Germany-DATEV-SKR03EU-chart.sql @0d1bb510).
const ODOO_KIVI: &str =
    "odoo/odoo l10n_de @05a629cd; kivitendo-erp Germany-DATEV-SKR03EU-chart.sql @0d1bb510";
/// The accounts named by the ledger's table before (see `rules::skr`'s
/// sources there, each read again in Odoo's files).
const LEDGER: &str =
    "rules::skr (odoo/odoo l10n_de @05a629cd, @bd6873f0, @dbd5b3b3; issue 21's pinned numbers)";
/// The accounts of tax not yet due or not yet deductible, each read with
/// its number and name in Odoo's charts: odoo/odoo,
/// addons/l10n_de/data/template/account.account-de_skr03.csv @05a629cd
/// (1760 "Umsatzsteuer nicht fällig", 1761 "… 7 %", 1766 "… 19 %", 1548
/// "Vorsteuer in Folgeperiode/im Folgejahr abziehbar") and
/// account.account-de_skr04.csv @05a629cd (3810, 3811, 3816, 1434 under the
/// same names); DATEV books a sale of a client taxed on payments received
/// on them (DATEV Hilfe-Dokument 1080673). SKR03 1767 / SKR04 3817 are not
/// these: they hold the VAT of supplies taxable in another member state.
const NOT_DUE: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv @05a629cd; DATEV Hilfe-Dokument 1080673";
/// SKR03 0800 "Gezeichnetes Kapital": not in Odoo @05a629cd (0799 → 0809);
/// named by the current SKR03 account list of a public extraction script
/// and a public bookkeeping guide; SKR04 2900 in Odoo.
const CAPITAL: &str = "SKR04 2900: odoo/odoo @05a629cd; SKR03 0800: current SKR03 account extract (public repository file) and the OpenAccountants germany-bookkeeping guide";

/// SKR03 0860 "Gewinnvortrag vor Verwendung": in DATEV's SKR03 as the
/// OpenAccountants guide and a partial transcription of DATEV's printed
/// chart list it (Odoo @05a629cd has only 0865/0867); SKR04 2970 in Odoo
/// @05a629cd, tagged A.IV.
const CARRIED: &str = "SKR04 2970: odoo/odoo @05a629cd; SKR03 0860: OpenAccountants germany-bookkeeping guide and a DATEV SKR03 transcription";

/// The fixed assets' accounts, each read with its number, name and HGB tag
/// in Odoo's charts (odoo/odoo addons/l10n_de/data/template/
/// account.account-de_skr03.csv and -de_skr04.csv @05a629cd) and, for the
/// asset accounts and their depreciation, Odoo's asset models of the same
/// commit (account.asset-de_skr03.csv, account.asset-de_skr04.csv: 0420/0650
/// Büroeinrichtung with 4830/6220, 0320/0520 Pkw with 4832/6222, 0027/0135
/// EDV-Software with 4822/6200, 0480/0670 GWG, 0485/0675 Sammelposten).
const ASSETS: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv and account.asset-de_skr03.csv / -de_skr04.csv @05a629cd";

use Kind::{Asset, Equity, Expense, Liability, Revenue as Income, Tax};
use Line as L;

#[allow(clippy::too_many_arguments)] // one per column of the table below
const fn account(
    key: &'static str,
    skr03: u32,
    skr04: u32,
    name_de: &'static str,
    name_en: &'static str,
    kind: Kind,
    line: Line,
    for_costs: bool,
    source: &'static str,
) -> Account {
    Account {
        key,
        skr03,
        skr04,
        name_de,
        name_en,
        kind,
        line,
        for_costs,
        source,
    }
}

/// The standard accounts, by kind: every account the ledger's table names,
/// and the costs a person may choose for a bill's line (`for_costs`).
#[rustfmt::skip]
pub const ACCOUNTS: &[Account] = &[
    // Revenue, per VAT rate and category (§ 275 (2) no. 1 HGB).
    account("revenue_19", 8400, 4400, "Erlöse 19 % USt", "Revenue at 19 % VAT", Income, L::Revenue, false, LEDGER),
    account("revenue_7", 8300, 4300, "Erlöse 7 % USt", "Revenue at 7 % VAT", Income, L::Revenue, false, LEDGER),
    account("revenue_eu_supply", 8125, 4125, "Steuerfreie innergemeinschaftliche Lieferungen nach § 4 Nr. 1b UStG", "Tax-free intra-community supplies", Income, L::Revenue, false, LEDGER),
    account("revenue_export", 8120, 4120, "Steuerfreie Umsätze nach § 4 Nr. 1a UStG (Ausfuhr)", "Tax-free exports", Income, L::Revenue, false, LEDGER),
    account("revenue_eu_service", 8336, 4336, "Erlöse aus im anderen EU-Land steuerpflichtigen sonstigen Leistungen, für die der Leistungsempfänger die Umsatzsteuer schuldet", "Services taxable in another member state, the recipient owing the VAT", Income, L::Revenue, false, LEDGER),
    account("revenue_reverse_charge", 8337, 4337, "Erlöse aus Leistungen, für die der Leistungsempfänger die Umsatzsteuer nach § 13b UStG schuldet", "Supplies whose recipient owes the VAT (§ 13b UStG)", Income, L::Revenue, false, LEDGER),
    account("revenue_small_business", 8195, 4185, "Erlöse als Kleinunternehmer nach § 19 Abs. 1 UStG", "Revenue of a small business (§ 19 UStG)", Income, L::Revenue, false, LEDGER),
    account("revenue_exempt", 8100, 4100, "Steuerfreie Umsätze § 4 Nr. 8 ff. UStG", "Tax-exempt revenue (§ 4 no. 8 ff. UStG)", Income, L::Revenue, false, LEDGER),
    account("revenue_not_taxable", 8338, 4338, "Erlöse aus im Drittland steuerbaren Leistungen, im Inland nicht steuerbare Umsätze", "Revenue not taxable in Germany", Income, L::Revenue, false, LEDGER),
    account("revenue", 8200, 4200, "Erlöse", "Revenue", Income, L::Revenue, false, LEDGER),
    // Discounts granted reduce revenue (§ 277 (1) HGB).
    account("discounts_granted_19", 8736, 4736, "Gewährte Skonti 19 % USt", "Cash discounts granted, 19 % VAT", Income, L::Revenue, false, LEDGER),
    account("discounts_granted_7", 8731, 4731, "Gewährte Skonti 7 % USt", "Cash discounts granted, 7 % VAT", Income, L::Revenue, false, LEDGER),
    account("discounts_granted_eu_supply", 8743, 4743, "Gewährte Skonti aus steuerfreien innergemeinschaftlichen Lieferungen § 4 Nr. 1b UStG", "Cash discounts granted on intra-community supplies", Income, L::Revenue, false, LEDGER),
    account("discounts_granted_eu_service", 8742, 4742, "Gewährte Skonti aus Erlösen aus im anderen EU-Land steuerpflichtigen sonstigen Leistungen, für die der Leistungsempfänger die Umsatzsteuer schuldet", "Cash discounts granted on services taxable in another member state", Income, L::Revenue, false, LEDGER),
    account("discounts_granted_reverse_charge", 8741, 4741, "Gewährte Skonti aus Leistungen, für die der Leistungsempfänger die Umsatzsteuer nach § 13b UStG schuldet", "Cash discounts granted on supplies under § 13b UStG", Income, L::Revenue, false, LEDGER),
    account("discounts_granted", 8730, 4730, "Gewährte Skonti", "Cash discounts granted", Income, L::Revenue, false, LEDGER),
    // Other income.
    account("interest_income", 2650, 7100, "Sonstige Zinsen und ähnliche Erträge", "Other interest and similar income", Income, L::InterestIncome, false, LEDGER),
    // Discounts received reduce the cost of what was bought (§ 255 (1) sentence 3 HGB).
    account("discounts_received_19", 3736, 5736, "Erhaltene Skonti 19 % Vorsteuer", "Cash discounts received, 19 % input VAT", Expense, L::Materials, false, LEDGER),
    account("discounts_received_7", 3731, 5731, "Erhaltene Skonti 7 % Vorsteuer", "Cash discounts received, 7 % input VAT", Expense, L::Materials, false, LEDGER),
    account("discounts_received_reverse_charge", 3151, 5951, "Erhaltene Skonti aus Leistungen, für die als Leistungsempfänger die Steuer nach § 13b UStG geschuldet wird 19 % Vorsteuer und 19 % Umsatzsteuer", "Cash discounts received on services under § 13b UStG, 19 %", Expense, L::Materials, false, LEDGER),
    account("discounts_received", 3730, 5730, "Erhaltene Skonti", "Cash discounts received", Expense, L::Materials, false, LEDGER),
    // The costs a person puts a bill's line on (§ 275 (2) nos. 5–8, 13, 14, 16 HGB).
    account("goods", 3200, 5200, "Wareneingang", "Goods and materials bought", Expense, L::Materials, true, ODOO),
    account("services", 3100, 5900, "Fremdleistungen", "Services bought", Expense, L::PurchasedServices, true, ODOO),
    account("services_eu_reverse_charge", 3123, 5923, "Sonstige Leistungen eines im anderen EU-Land ansässigen Unternehmers 19 % Vorsteuer und 19 % Umsatzsteuer", "Services of a business in another member state, 19 % input and output VAT", Expense, L::OtherOperatingExpenses, false, LEDGER),
    account("wages", 4110, 6010, "Löhne", "Wages", Expense, L::Wages, true, ODOO_KIVI),
    account("salaries", 4120, 6020, "Gehälter", "Salaries", Expense, L::Wages, true, ODOO_KIVI),
    account("social_security", 4130, 6110, "Gesetzliche soziale Aufwendungen", "Statutory social security (employer)", Expense, L::SocialSecurity, true, ODOO),
    account("depreciation", 4830, 6220, "Abschreibungen auf Sachanlagen (ohne AfA auf Kfz und Gebäude)", "Depreciation of tangible assets (not vehicles and buildings)", Expense, L::Depreciation, false, ODOO),
    account("low_value_assets", 4855, 6260, "Sofortabschreibung geringwertiger Wirtschaftsgüter", "Low-value assets written off at once (§ 6 (2) EStG)", Expense, L::Depreciation, true, ODOO_KIVI),
    // The depreciation of the fixed assets the register keeps (§ 275 (2)
    // no. 7a HGB): intangibles, vehicles, low-value assets once capitalised,
    // the pool.
    account("depreciation_intangibles", 4822, 6200, "Abschreibungen auf immaterielle Vermögensgegenstände", "Amortisation of intangible assets", Expense, L::Depreciation, false, ASSETS),
    account("depreciation_vehicles", 4832, 6222, "Abschreibungen auf Kfz", "Depreciation of vehicles", Expense, L::Depreciation, false, ASSETS),
    account("low_value_assets_capitalised", 4860, 6262, "Abschreibungen auf aktivierte, geringwertige Wirtschaftsgüter", "Depreciation of capitalised low-value assets (§ 6 (2) EStG)", Expense, L::Depreciation, false, ASSETS),
    account("pool_depreciation", 4862, 6264, "Abschreibungen auf den Sammelposten Wirtschaftsgüter", "Depreciation of the asset pool (§ 6 (2a) EStG)", Expense, L::Depreciation, false, ASSETS),
    // An asset leaving the books: its remaining value, and what it was sold
    // for, each on the account of a book gain (§ 275 (2) no. 4 HGB) or loss
    // (no. 8). A sale at 19 % on DATEV's automatic accounts.
    account("asset_disposal_gain", 2315, 4855, "Anlagenabgänge Sachanlagen (Restbuchwert bei Buchgewinn)", "Disposals of tangible assets (book value, at a gain)", Income, L::OtherOperatingIncome, false, ASSETS),
    account("asset_disposal_gain_intangible", 2316, 4856, "Anlagenabgänge immaterielle Vermögensgegenstände (Restbuchwert bei Buchgewinn)", "Disposals of intangible assets (book value, at a gain)", Income, L::OtherOperatingIncome, false, ASSETS),
    account("asset_disposal_loss", 2310, 6895, "Anlagenabgänge Sachanlagen (Restbuchwert bei Buchverlust)", "Disposals of tangible assets (book value, at a loss)", Expense, L::OtherOperatingExpenses, false, ASSETS),
    account("asset_disposal_loss_intangible", 2311, 6896, "Anlagenabgänge immaterielle Vermögensgegenstände (Restbuchwert bei Buchverlust)", "Disposals of intangible assets (book value, at a loss)", Expense, L::OtherOperatingExpenses, false, ASSETS),
    account("asset_sale_gain_19", 8820, 4845, "Erlöse aus Verkäufen Sachanlagevermögen 19 % USt (bei Buchgewinn)", "Proceeds of asset sales at 19 % VAT (at a gain)", Income, L::OtherOperatingIncome, false, ASSETS),
    account("asset_sale_gain", 8829, 4849, "Erlöse aus Verkäufen Sachanlagevermögen (bei Buchgewinn)", "Proceeds of asset sales (at a gain)", Income, L::OtherOperatingIncome, false, ASSETS),
    account("asset_sale_loss_19", 8801, 6885, "Erlöse aus Verkäufen Sachanlagevermögen 19 % USt (bei Buchverlust)", "Proceeds of asset sales at 19 % VAT (at a loss)", Income, L::OtherOperatingExpenses, false, ASSETS),
    account("asset_sale_loss", 8800, 6889, "Erlöse aus Verkäufen Sachanlagevermögen (bei Buchverlust)", "Proceeds of asset sales (at a loss)", Income, L::OtherOperatingExpenses, false, ASSETS),
    account("rent", 4210, 6310, "Miete (unbewegliche Wirtschaftsgüter)", "Rent of premises", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("heating", 4230, 6320, "Heizung", "Heating", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("energy", 4240, 6325, "Gas, Strom, Wasser", "Gas, electricity, water", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("cleaning", 4250, 6330, "Reinigung", "Cleaning", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("premises_maintenance", 4260, 6335, "Instandhaltung betrieblicher Räume", "Maintenance of premises", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("insurance", 4360, 6400, "Versicherungen", "Insurance", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("contributions", 4380, 6420, "Beiträge", "Contributions and membership fees", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("vehicle_insurance", 4520, 6520, "Kfz-Versicherungen", "Vehicle insurance", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("vehicle_costs", 4530, 6530, "Laufende Kfz-Betriebskosten", "Running vehicle costs", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("vehicle_repairs", 4540, 6540, "Kfz-Reparaturen", "Vehicle repairs", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("vehicle_leasing", 4570, 6560, "Mietleasing Kfz", "Vehicle leasing", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("advertising", 4600, 6600, "Werbekosten", "Advertising", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("gifts", 4630, 6610, "Geschenke abzugsfähig ohne § 37b EStG", "Gifts, deductible", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("gifts_nondeductible", 4635, 6620, "Geschenke nicht abzugsfähig ohne § 37b EStG", "Gifts, not deductible", Expense, L::OtherOperatingExpenses, true, ODOO),
    // Entertainment: 70 % deductible, 30 % not (§ 4 (5) no. 2 EStG); a
    // line on `entertainment` is split so. Its input VAT stays wholly
    // deductible (§ 15 (1a) sentence 2 UStG).
    account("entertainment", 4650, 6640, "Bewirtungskosten", "Business entertainment (70 % deductible)", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("entertainment_nondeductible", 4654, 6644, "Nicht abzugsfähige Bewirtungskosten", "Business entertainment, not deductible (30 %)", Expense, L::OtherOperatingExpenses, false, ODOO_KIVI),
    account("travel_employees", 4660, 6650, "Reisekosten Arbeitnehmer", "Travel of employees", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("travel_owner", 4670, 6670, "Reisekosten Unternehmer", "Travel of the owner", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("repairs", 4805, 6470, "Reparaturen und Instandhaltung von anderen Anlagen und Betriebs- und Geschäftsausstattung", "Repairs of equipment", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("it_maintenance", 4806, 6495, "Wartungskosten für Hard- und Software", "Maintenance of hardware and software", Expense, L::OtherOperatingExpenses, true, ODOO_KIVI),
    account("postage", 4910, 6800, "Porto", "Postage", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("telephone", 4920, 6805, "Telefon", "Telephone", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("internet", 4925, 6810, "Telefax und Internetkosten", "Internet", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("office_supplies", 4930, 6815, "Bürobedarf", "Office supplies", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("books", 4940, 6820, "Zeitschriften, Bücher (Fachliteratur)", "Books and journals", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("training", 4945, 6821, "Fortbildungskosten", "Training", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("legal_advice", 4950, 6825, "Rechts- und Beratungskosten", "Legal and consulting fees", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("bookkeeping", 4955, 6830, "Buchführungskosten", "Bookkeeping", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("closing_audit", 4957, 6827, "Abschluss- und Prüfungskosten", "Year-end closing and audit", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("equipment_rental", 4960, 6835, "Mieten für Einrichtungen (bewegliche Wirtschaftsgüter)", "Rental of equipment", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("software", 4964, 6837, "Aufwendungen für die zeitlich befristete Überlassung von Rechten (Lizenzen, Konzessionen)", "Software and subscriptions (licences)", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("bank_charges", 4970, 6855, "Nebenkosten des Geldverkehrs", "Bank charges", Expense, L::OtherOperatingExpenses, true, LEDGER),
    account("tools", 4985, 6845, "Werkzeuge und Kleingeräte", "Tools and small equipment", Expense, L::OtherOperatingExpenses, true, ODOO),
    account("other_expenses", 4900, 6300, "Sonstige betriebliche Aufwendungen", "Other operating expenses", Expense, L::OtherOperatingExpenses, true, LEDGER),
    account("interest_expense", 2100, 7300, "Zinsen und ähnliche Aufwendungen", "Interest and similar expenses", Expense, L::InterestExpenses, true, LEDGER),
    account("trade_tax", 4320, 7610, "Gewerbesteuer", "Trade tax", Expense, L::IncomeTaxes, true, ODOO_KIVI),
    account("vehicle_tax", 4510, 7685, "Kfz-Steuer", "Vehicle tax", Expense, L::OtherTaxes, true, ODOO),
    account("other_taxes", 4340, 7650, "Sonstige Betriebssteuern", "Other operating taxes", Expense, L::OtherTaxes, true, ODOO_KIVI),
    // Taxes (§ 266: B.II while owed to the company, C while it owes).
    account("output_tax_19", 1776, 3806, "Umsatzsteuer 19 %", "Output VAT 19 %", Tax, L::Liabilities, false, LEDGER),
    account("output_tax_7", 1771, 3801, "Umsatzsteuer 7 %", "Output VAT 7 %", Tax, L::Liabilities, false, LEDGER),
    account("output_tax_reverse_charge_19", 1787, 3837, "Umsatzsteuer nach § 13b UStG 19 %", "Output VAT under § 13b UStG, 19 %", Tax, L::Liabilities, false, LEDGER),
    account("output_tax_reverse_charge", 1785, 3835, "Umsatzsteuer nach § 13b UStG", "Output VAT under § 13b UStG", Tax, L::Liabilities, false, LEDGER),
    account("output_tax", 1770, 3800, "Umsatzsteuer", "Output VAT", Tax, L::Liabilities, false, LEDGER),
    account("input_tax_19", 1576, 1406, "Abziehbare Vorsteuer 19 %", "Input VAT 19 %", Tax, L::Receivables, false, LEDGER),
    account("input_tax_7", 1571, 1401, "Abziehbare Vorsteuer 7 %", "Input VAT 7 %", Tax, L::Receivables, false, LEDGER),
    account("input_tax_reverse_charge_19", 1577, 1407, "Abziehbare Vorsteuer nach § 13b UStG 19 %", "Input VAT under § 13b UStG, 19 %", Tax, L::Receivables, false, LEDGER),
    account("input_tax_reverse_charge", 1578, 1408, "Abziehbare Vorsteuer nach § 13b UStG", "Input VAT under § 13b UStG", Tax, L::Receivables, false, LEDGER),
    account("input_tax", 1570, 1400, "Abziehbare Vorsteuer", "Input VAT", Tax, L::Receivables, false, LEDGER),
    // Output tax of sales taxed on payments received, not yet due until the
    // money comes in (§ 13 (1) no. 1 b UStG), and input tax deductible only
    // once a bill is paid (§ 15 (1) sentence 1 no. 1 UStG).
    account("output_tax_not_due_19", 1766, 3816, "Umsatzsteuer nicht fällig 19 %", "Output VAT not yet due, 19 %", Tax, L::Liabilities, false, NOT_DUE),
    account("output_tax_not_due_7", 1761, 3811, "Umsatzsteuer nicht fällig 7 %", "Output VAT not yet due, 7 %", Tax, L::Liabilities, false, NOT_DUE),
    account("output_tax_not_due", 1760, 3810, "Umsatzsteuer nicht fällig", "Output VAT not yet due", Tax, L::Liabilities, false, NOT_DUE),
    account("input_tax_later", 1548, 1434, "Vorsteuer in Folgeperiode/im Folgejahr abziehbar", "Input VAT deductible later (once paid)", Tax, L::Receivables, false, NOT_DUE),
    account("vat_prepayments", 1780, 3820, "Umsatzsteuer-Vorauszahlungen", "VAT paid to or refunded by the tax office", Tax, L::Liabilities, false, LEDGER),
    // Fixed assets (§ 266 (2) A.I, A.II HGB): the accounts the register's
    // classes stand on (`rules::afa`), low-value assets and the pool.
    account("asset_software", 27, 135, "EDV-Software", "Software", Asset, L::IntangibleAssets, false, ASSETS),
    account("asset_cars", 320, 520, "Pkw", "Cars", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_trucks", 350, 540, "Lkw", "Lorries", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_other_transport", 380, 560, "Sonstige Transportmittel", "Other means of transport", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_business_equipment", 410, 635, "Geschäftsausstattung", "Office and business equipment", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_office_furniture", 420, 650, "Büroeinrichtung", "Office furniture and fittings", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_shop_fittings", 430, 640, "Ladeneinrichtung", "Shop fittings", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_low_value", 480, 670, "Geringwertige Wirtschaftsgüter", "Low-value assets (§ 6 (2) EStG)", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_pool", 485, 675, "Wirtschaftsgüter (Sammelposten)", "Asset pool (§ 6 (2a) EStG)", Asset, L::TangibleAssets, false, ASSETS),
    account("asset_other_equipment", 490, 690, "Sonstige Betriebs- und Geschäftsausstattung", "Other operating and office equipment", Asset, L::TangibleAssets, false, ASSETS),
    // Assets and liabilities.
    account("receivables", 1400, 1200, "Forderungen aus Lieferungen und Leistungen", "Trade receivables", Asset, L::Receivables, false, LEDGER),
    account("bank", 1200, 1800, "Bank", "Bank", Asset, L::Cash, false, LEDGER),
    account("money_in_transit", 1360, 1460, "Geldtransit", "Money in transit", Asset, L::Cash, false, LEDGER),
    account("transitory_items", 1590, 1370, "Durchlaufende Posten", "Transitory items", Asset, L::Receivables, false, LEDGER),
    account("payables", 1600, 3300, "Verbindlichkeiten aus Lieferungen und Leistungen", "Trade payables", Liability, L::Liabilities, false, LEDGER),
    account("other_liabilities", 1700, 3500, "Sonstige Verbindlichkeiten", "Other liabilities", Liability, L::Liabilities, false, LEDGER),
    // A.IV: the results of earlier fiscal years, until they are allotted.
    account("profit_carried_forward", 860, 2970, "Gewinnvortrag vor Verwendung", "Profit carried forward", Equity, L::ProfitCarriedForward, false, CARRIED),
    account("subscribed_capital", 800, 2900, "Gezeichnetes Kapital", "Subscribed capital", Equity, L::SubscribedCapital, false, CAPITAL),
];

/// The standard account of this key.
pub fn standard(key: &str) -> Option<&'static Account> {
    ACCOUNTS.iter().find(|a| a.key == key)
}

/// The standard account of `number` on `chart`, if any.
pub fn standard_numbered(chart: Chart, number: u32) -> Option<&'static Account> {
    ACCOUNTS.iter().find(|a| a.number(chart) == number)
}

/// The numbers a company's own account of `kind` may take on `chart`: the
/// chart's classes for that kind, G/L accounts of four digits (DATEV's
/// class layout: SKR03 class 0 fixed assets and capital, 1 financial
/// accounts, 3 goods, 4 operating expenses, 8 revenue; SKR04 class 0 fixed
/// assets, 1 current assets, 2 equity, 3 liabilities, 4 operating income, 5
/// and 6 operating expenses, 7 other income and expenses), and the income
/// accounts DATEV keeps among the expenses for an asset's disposal (SKR03
/// 2315–2318, the book value at a gain; SKR04 6880–6892, the proceeds at a
/// loss).
pub fn own_range(chart: Chart, kind: Kind) -> &'static [std::ops::RangeInclusive<u32>] {
    match (chart, kind) {
        (Chart::Skr03, Kind::Asset) => &[10..=999, 1000..=1599],
        (Chart::Skr03, Kind::Liability) => &[1600..=1799],
        (Chart::Skr03, Kind::Equity) => &[800..=999],
        (Chart::Skr03, Kind::Revenue) => &[8000..=8999, 2600..=2749, 2315..=2318],
        (Chart::Skr03, Kind::Expense) => &[3000..=3999, 4000..=4999, 2000..=2399],
        (Chart::Skr03, Kind::Tax) => &[1500..=1599, 1700..=1799],
        (Chart::Skr04, Kind::Asset) => &[100..=1999],
        (Chart::Skr04, Kind::Liability) => &[3000..=3999],
        (Chart::Skr04, Kind::Equity) => &[2000..=2999],
        (Chart::Skr04, Kind::Revenue) => &[4000..=4999, 7000..=7299, 6880..=6892],
        (Chart::Skr04, Kind::Expense) => &[5000..=6999, 7300..=7999],
        (Chart::Skr04, Kind::Tax) => &[1400..=1499, 3800..=3899],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_account_has_its_key_once_a_number_on_both_charts_and_a_source() {
        for (i, a) in ACCOUNTS.iter().enumerate() {
            assert!(
                ACCOUNTS[..i].iter().all(|b| b.key != a.key),
                "{} twice",
                a.key
            );
            assert!(
                (1..10_000).contains(&a.skr03) && (1..10_000).contains(&a.skr04),
                "{}",
                a.key
            );
            assert!(!a.name_de.is_empty() && !a.name_en.is_empty() && !a.source.is_empty());
            // One number is one account on each chart.
            for chart in Chart::ALL {
                assert!(
                    ACCOUNTS[..i]
                        .iter()
                        .all(|b| b.number(chart) != a.number(chart)),
                    "{} shares {} on {chart:?}",
                    a.key,
                    a.number(chart)
                );
            }
            // A cost's line is in the profit and loss; a balance's in the balance sheet.
            assert_eq!(
                a.kind.in_profit_and_loss(),
                a.line.statement() == Statement::ProfitAndLoss,
                "{}",
                a.key
            );
        }
    }

    #[test]
    fn about_forty_accounts_are_offered_for_costs_entertainment_split_70_30() {
        let offered = ACCOUNTS.iter().filter(|a| a.for_costs).count();
        assert!((40..=50).contains(&offered), "{offered}");
        assert!(ACCOUNTS
            .iter()
            .filter(|a| a.for_costs)
            .all(|a| a.kind == Kind::Expense));
        let e = standard("entertainment").unwrap();
        assert_eq!((e.skr03, e.skr04), (4650, 6640));
        let n = standard("entertainment_nondeductible").unwrap();
        assert_eq!((n.skr03, n.skr04, n.for_costs), (4654, 6644, false));
        assert_eq!(standard_numbered(Chart::Skr04, 6310).unwrap().key, "rent");
    }

    #[test]
    fn lines_read_back_from_their_keys_in_the_statutes_order() {
        for l in Line::ALL {
            assert_eq!(Line::parse(&l.key()), Some(l));
        }
        assert_eq!(Line::Materials.key(), "pl:5a");
        assert_eq!(Line::Cash.key(), "assets:B.IV");
        assert_eq!(Line::Liabilities.key(), "equity:C");
        assert!(Line::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_standard_accounts_lie_in_the_ranges_own_accounts_of_their_kind_may_take() {
        for a in ACCOUNTS.iter().filter(|a| a.kind != Kind::Tax) {
            for chart in Chart::ALL {
                let n = a.number(chart);
                assert!(
                    own_range(chart, a.kind).iter().any(|r| r.contains(&n)),
                    "{} {n} on {chart:?}",
                    a.key
                );
            }
        }
    }
}
