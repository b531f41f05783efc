//! The DATEV standard charts of accounts SKR03 and SKR04 as data: one table
//! saying, for each of kontor's ledger accounts and each tax key its lines
//! carry, which account number a German tax adviser expects, whether that
//! account carries the tax automatically (an *Automatikkonto*: DATEV splits
//! the tax out of the gross amount booked on it) or needs a BU-Schlüssel
//! beside it, and where the number comes from. Personal accounts (customers
//! 10000–69999, suppliers 70000–99999) and the company's bank accounts
//! (1200/1800 and the numbers after) are numbered per company by the books;
//! here are only their ranges. Pure data and lookups: no storage.
//!
//! Ledger accounts and tax keys are named by their stored spellings
//! (`revenue`, `S:19`, …; see the ledger's second dimension), so the table
//! is read the same way the journal is.

use crate::rules::chart;

pub use chart::Chart;

/// How many bank accounts a company may number from `first_bank` on.
pub const BANK_ACCOUNTS: u32 = 50;

/// Customers' personal accounts (*Debitoren*), five digits with the
/// G/L account length 4.
pub const CUSTOMERS: std::ops::RangeInclusive<u32> = 10_000..=69_999;
/// Suppliers' personal accounts (*Kreditoren*).
pub const SUPPLIERS: std::ops::RangeInclusive<u32> = 70_000..=99_999;

/// The G/L account length (*Sachkontenlänge*) of both charts as kontor
/// exports them.
pub const GL_LENGTH: u8 = 4;

/// How DATEV treats the tax of what is booked on an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tax {
    /// The account has nothing to do with VAT (or is itself a tax account):
    /// the amount is booked as it is.
    None,
    /// An *Automatikkonto*: DATEV books the gross amount and splits out the
    /// tax at this rate (percent) itself onto its own tax account(s). A rate
    /// of 0 means the account is tied to a tax-free line of the VAT return.
    Automatic(u32),
    /// An *Automatikkonto* of reverse charge received: DATEV books the net
    /// amount and adds input tax and output tax at this rate (percent),
    /// each computed from the net.
    ReverseCharge(u32),
    /// An ordinary account booked with this BU-Schlüssel (tax key) beside
    /// it: DATEV splits out the tax at `rate` percent.
    Key { bu: &'static str, rate: u32 },
}

/// One row of the table: where `ledger` lines with tax key `key` land.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The ledger account's stored name.
    pub ledger: &'static str,
    /// The tax key (`S:19`, `AE:0:EU`, …); `*` for every key no other row
    /// of the account names, `''` for lines without a key (books from
    /// before the ledger carried one), `§19` for a small business's
    /// tax-exempt revenue.
    pub key: &'static str,
    /// The chart's account it lands on (`rules::chart`).
    pub account: &'static str,
    pub tax: Tax,
    /// Where the numbers come from.
    pub source: &'static str,
}

impl Row {
    /// The chart's account the row lands on.
    pub fn account(&self) -> &'static chart::Account {
        match chart::standard(self.account) {
            Some(a) => a,
            // Every row names an account of the chart: a test says so.
            None => &chart::ACCOUNTS[0],
        }
    }

    pub fn number(&self, chart: Chart) -> u32 {
        self.account().number(chart)
    }
}

/// The pinned numbers (issue 21, "Pinned details": revenue,
/// output and input tax per rate, bank).
const PINNED: &str = "kontor issue 21 (pinned); DATEV SKR03/SKR04";
/// Odoo's transcription of the DATEV charts: odoo/odoo,
/// addons/l10n_de/data/template/account.account-de_skr03.csv and
/// account.account-de_skr04.csv (commit 05a629cd), read for each number.
/// Checked again line by line against those files: SKR04 1370, 1401,
/// 1406, 1407, 1408, 3300, 3500, 4125, 4185, 4200, 4300,
/// 4336, 4337, 4338, 4400, 4730, 5730, 5923, 6300, 6855, 7100, 7300 and
/// SKR03 3123, 3730, 4900, 4970, 8100, 8120, 8125, 8730, each under the
/// name given here. SKR03 1570, 1577, 1578, 1590, 1600, 1700, 1770, 1780,
/// 1785, 1787 and 2100 read again, under the same names, in Odoo's older
/// SKR03 file (addons/l10n_de_skr03/data/account.account.template.csv
/// @0dbe60e4).
const ODOO: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv @05a629cd";
/// The discount accounts by tax key, each read with its name and tax in
/// Odoo's charts at later commits: odoo/odoo,
/// addons/l10n_de/data/template/account.account-de_skr03.csv @bd6873f0
/// (8736 and 3736 with the 19 % taxes, 8731 and 3731 with the 7 % ones,
/// 8741, 8742, 8743, 3151) and account.account-de_skr04.csv @dbd5b3b3
/// (4736, 4731, 4741, 4742, 4743, 5736, 5731, 5951). A `*` or '' line is
/// the plain 8730/4730, 3730/5730 above.
const SKONTI: &str =
    "odoo/odoo l10n_de account.account-de_skr03.csv @bd6873f0 / -de_skr04.csv @dbd5b3b3";
/// The money-in-transit account 1360/1460 "Geldtransit": no chart file
/// found has it. Odoo's SKR03 and SKR04 files @05a629cd go from 1357 to
/// 1370 and from 1457 to 1480; Odoo's older SKR03 file
/// (addons/l10n_de_skr03/data/account.account.template.csv @0dbe60e4)
/// also goes from 1357 to 1370 and gives SKR03 1460 to doubtful
/// receivables; a text search of a public code index found "Geldtransit"
/// in no chart file (GnuCash's, Odoo's or another's). The pair
/// is named by a public bookkeeping guide only (wohnmeta.de, "Wie buche
/// ich das Konto 1360/1460 Geldtransit SKR 03/04"). Unverified against a
/// chart file.
const TRANSIT: &str = "unverified against a chart file (not in Odoo @05a629cd nor @0dbe60e4): wohnmeta.de guide to 1360/1460 Geldtransit SKR 03/04";
/// Trade receivables as one account (lines without a partner): SKR04 1200
/// is in Odoo's SKR04 file @05a629cd. SKR03 1400 "Forderungen aus
/// Lieferungen u.Leistung" (a receivable account) is in Odoo's older SKR03
/// file, addons/l10n_de_skr03/data/account.account.template.csv @0dbe60e4
/// (beside 1401 and 1410 of the same name), and in GnuCash's
/// data/accounts/de_DE/acctchrt_skr03.gnucash-xea @15d3eb48 ("1400 Ford.
/// a. Lieferungen und Leistungen", RECEIVABLE); Odoo's newer file @05a629cd
/// names 1400 "Verrechnungskonto Ist-Versteuerung" and 1401 the trade
/// receivables. 1400 is kept, as the two older files have it; personal
/// accounts carry every line that names its customer, so only old lines
/// without one land here.
const RECEIVABLES: &str = "SKR04 1200: odoo/odoo @05a629cd; SKR03 1400: odoo/odoo l10n_de_skr03 account.account.template.csv @0dbe60e4 and Gnucash/gnucash acctchrt_skr03.gnucash-xea @15d3eb48 (Odoo @05a629cd names 1401)";
/// The fixed assets' accounts, read in Odoo's charts and asset models
/// (`rules::chart`'s sources for them); 8820/4845 carry 19 % output tax
/// automatically there.
const ASSETS: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv @05a629cd";
/// The accounts of tax not yet due (SKR03 1760/1761/1766, SKR04
/// 3810/3811/3816) and input tax deductible later (SKR03 1548, SKR04 1434):
/// `rules::chart`'s sources.
const NOT_DUE: &str = "odoo/odoo l10n_de account.account-de_skr03.csv / -de_skr04.csv @05a629cd; DATEV Hilfe-Dokument 1080673";
/// DATEV's BU-Schlüssel for input tax (8 = 7 %, 9 = 19 %) and the lifting
/// of the automatic (40), as the DATEV tax key list documents them
/// (DATEV Hilfe-Dokument 1008613; ledermann/datev's sample booking
/// `1200;4940;"8"` books 7 % input tax with key 8).
const BU_KEYS: &str =
    "DATEV Steuerschlüssel (Dok. 1008613); ledermann/datev examples/EXTF_Buchungsstapel.csv";

/// The table. Lookups take the first row of the account whose key equals
/// the line's key, else the account's `*` row.
#[rustfmt::skip]
pub const TABLE: &[Row] = &[
    // Revenue per VAT rate and category.
    Row { ledger: "revenue", key: "S:19", account: "revenue_19", tax: Tax::Automatic(19), source: PINNED },
    Row { ledger: "revenue", key: "S:7", account: "revenue_7", tax: Tax::Automatic(7), source: PINNED },
    Row { ledger: "revenue", key: "K:0", account: "revenue_eu_supply", tax: Tax::Automatic(0), source: PINNED },
    Row { ledger: "revenue", key: "G:0", account: "revenue_export", tax: Tax::Automatic(0), source: PINNED },
    Row { ledger: "revenue", key: "AE:0:EU", account: "revenue_eu_service", tax: Tax::Automatic(0), source: PINNED },
    Row { ledger: "revenue", key: "AE:0", account: "revenue_reverse_charge", tax: Tax::Automatic(0), source: ODOO },
    Row { ledger: "revenue", key: "§19", account: "revenue_small_business", tax: Tax::None, source: ODOO },
    Row { ledger: "revenue", key: "E:0", account: "revenue_exempt", tax: Tax::Automatic(0), source: ODOO },
    Row { ledger: "revenue", key: "O:0", account: "revenue_not_taxable", tax: Tax::Automatic(0), source: ODOO },
    Row { ledger: "revenue", key: "L:0", account: "revenue_not_taxable", tax: Tax::Automatic(0), source: ODOO },
    Row { ledger: "revenue", key: "M:0", account: "revenue_not_taxable", tax: Tax::Automatic(0), source: ODOO },
    // Old lines without a key: revenue at 19 % (the stated default).
    Row { ledger: "revenue", key: "", account: "revenue_19", tax: Tax::Automatic(19), source: PINNED },
    // Any other key (another rate, Z): the plain revenue account, its tax
    // booked on its own.
    Row { ledger: "revenue", key: "*", account: "revenue", tax: Tax::None, source: ODOO },
    // Output tax per rate; of reverse charge received (§ 13b).
    Row { ledger: "output_tax", key: "S:19", account: "output_tax_19", tax: Tax::None, source: PINNED },
    Row { ledger: "output_tax", key: "S:7", account: "output_tax_7", tax: Tax::None, source: PINNED },
    Row { ledger: "output_tax", key: "AE:19:EU", account: "output_tax_reverse_charge_19", tax: Tax::None, source: ODOO },
    Row { ledger: "output_tax", key: "AE:19", account: "output_tax_reverse_charge_19", tax: Tax::None, source: ODOO },
    Row { ledger: "output_tax", key: "AE:*", account: "output_tax_reverse_charge", tax: Tax::None, source: ODOO },
    Row { ledger: "output_tax", key: "", account: "output_tax_19", tax: Tax::None, source: PINNED },
    Row { ledger: "output_tax", key: "*", account: "output_tax", tax: Tax::None, source: ODOO },
    // Output tax of sales taxed on payments received, not yet due, per rate
    // (`rules::chart`'s sources for them).
    Row { ledger: "output_tax_not_due", key: "S:19", account: "output_tax_not_due_19", tax: Tax::None, source: NOT_DUE },
    Row { ledger: "output_tax_not_due", key: "S:7", account: "output_tax_not_due_7", tax: Tax::None, source: NOT_DUE },
    Row { ledger: "output_tax_not_due", key: "*", account: "output_tax_not_due", tax: Tax::None, source: NOT_DUE },
    // Input tax deductible once the bill is paid: one account for every rate.
    Row { ledger: "input_tax_later", key: "*", account: "input_tax_later", tax: Tax::None, source: NOT_DUE },
    // Input tax per rate; of reverse charge received.
    Row { ledger: "input_tax", key: "S:19", account: "input_tax_19", tax: Tax::None, source: PINNED },
    Row { ledger: "input_tax", key: "S:7", account: "input_tax_7", tax: Tax::None, source: PINNED },
    Row { ledger: "input_tax", key: "AE:19:EU", account: "input_tax_reverse_charge_19", tax: Tax::None, source: ODOO },
    Row { ledger: "input_tax", key: "AE:19", account: "input_tax_reverse_charge_19", tax: Tax::None, source: ODOO },
    Row { ledger: "input_tax", key: "AE:*", account: "input_tax_reverse_charge", tax: Tax::None, source: ODOO },
    // A bill typed as two totals names no rate: its input tax goes on the
    // general account, never on the 19 % one (issue 31).
    Row { ledger: "input_tax", key: "", account: "input_tax", tax: Tax::None, source: ODOO },
    Row { ledger: "input_tax", key: "*", account: "input_tax", tax: Tax::None, source: ODOO },
    // Expenses: the other operating expenses, with the input tax key.
    Row { ledger: "expenses", key: "S:19", account: "other_expenses", tax: Tax::Key { bu: "9", rate: 19 }, source: BU_KEYS },
    Row { ledger: "expenses", key: "S:7", account: "other_expenses", tax: Tax::Key { bu: "8", rate: 7 }, source: BU_KEYS },
    // A service bought from a business in another member state (§ 13b
    // Abs. 1 UStG): DATEV books the net amount and both taxes itself.
    Row { ledger: "expenses", key: "AE:19:EU", account: "services_eu_reverse_charge", tax: Tax::ReverseCharge(19), source: ODOO },
    // Two totals: the cost without a tax key, its tax on its own.
    Row { ledger: "expenses", key: "", account: "other_expenses", tax: Tax::None, source: ODOO },
    Row { ledger: "expenses", key: "*", account: "other_expenses", tax: Tax::None, source: ODOO },
    // Accounts without a tax key.
    Row { ledger: "receivables", key: "", account: "receivables", tax: Tax::None, source: RECEIVABLES },
    Row { ledger: "payables", key: "", account: "payables", tax: Tax::None, source: ODOO },
    Row { ledger: "bank", key: "", account: "bank", tax: Tax::None, source: PINNED },
    Row { ledger: "equity", key: "", account: "subscribed_capital", tax: Tax::None, source: ODOO },
    Row { ledger: "fees", key: "", account: "bank_charges", tax: Tax::None, source: ODOO },
    Row { ledger: "interest_income", key: "", account: "interest_income", tax: Tax::None, source: ODOO },
    Row { ledger: "interest_expense", key: "", account: "interest_expense", tax: Tax::None, source: ODOO },
    // Discounts with their tax (§ 17 UStG): the discount's part of each
    // tax key of the invoice or bill, on the automatic account of its
    // rate; lines without a key (booked before discounts carried their
    // tax) and other keys on the plain accounts.
    Row { ledger: "discounts_granted", key: "S:19", account: "discounts_granted_19", tax: Tax::Automatic(19), source: SKONTI },
    Row { ledger: "discounts_granted", key: "S:7", account: "discounts_granted_7", tax: Tax::Automatic(7), source: SKONTI },
    Row { ledger: "discounts_granted", key: "K:0", account: "discounts_granted_eu_supply", tax: Tax::Automatic(0), source: SKONTI },
    Row { ledger: "discounts_granted", key: "AE:0:EU", account: "discounts_granted_eu_service", tax: Tax::Automatic(0), source: SKONTI },
    Row { ledger: "discounts_granted", key: "AE:0", account: "discounts_granted_reverse_charge", tax: Tax::Automatic(0), source: SKONTI },
    Row { ledger: "discounts_granted", key: "*", account: "discounts_granted", tax: Tax::None, source: ODOO },
    Row { ledger: "discounts_received", key: "S:19", account: "discounts_received_19", tax: Tax::Automatic(19), source: SKONTI },
    Row { ledger: "discounts_received", key: "S:7", account: "discounts_received_7", tax: Tax::Automatic(7), source: SKONTI },
    Row { ledger: "discounts_received", key: "AE:19:EU", account: "discounts_received_reverse_charge", tax: Tax::ReverseCharge(19), source: SKONTI },
    Row { ledger: "discounts_received", key: "AE:19", account: "discounts_received_reverse_charge", tax: Tax::ReverseCharge(19), source: SKONTI },
    Row { ledger: "discounts_received", key: "*", account: "discounts_received", tax: Tax::None, source: ODOO },
    Row { ledger: "customer_credits", key: "", account: "other_liabilities", tax: Tax::None, source: ODOO },
    Row { ledger: "tax_office", key: "", account: "vat_prepayments", tax: Tax::None, source: ODOO },
    Row { ledger: "transfer", key: "", account: "money_in_transit", tax: Tax::None, source: TRANSIT },
    Row { ledger: "suspense", key: "", account: "transitory_items", tax: Tax::None, source: ODOO },
    // Fixed assets: each line names the chart account of its class, its
    // depreciation, its disposal (`books::assets`); these rows are where a
    // line without one would land. A sale's proceeds keep their tax key:
    // at 19 % on DATEV's automatic account of that rate.
    Row { ledger: "fixed_assets", key: "", account: "asset_other_equipment", tax: Tax::None, source: ASSETS },
    Row { ledger: "depreciation", key: "", account: "depreciation", tax: Tax::None, source: ASSETS },
    Row { ledger: "asset_disposals", key: "", account: "asset_disposal_loss", tax: Tax::None, source: ASSETS },
    Row { ledger: "asset_sales", key: "S:19", account: "asset_sale_gain_19", tax: Tax::Automatic(19), source: ASSETS },
    Row { ledger: "asset_sales", key: "*", account: "asset_sale_gain", tax: Tax::None, source: ASSETS },
];

/// The BU-Schlüssel that books an amount on an *Automatikkonto* without its
/// automatic tax (*Aufhebung der Automatik*): used when the booked tax is
/// not the one DATEV would split out of the gross amount.
pub const BU_NO_AUTOMATIC: &str = "40";

/// The ledger accounts whose detail is a tax key.
pub const KEYED: [&str; 9] = [
    "revenue",
    "output_tax",
    "input_tax",
    "expenses",
    "discounts_granted",
    "discounts_received",
    "asset_sales",
    "output_tax_not_due",
    "input_tax_later",
];

/// The BU-Schlüssel of output tax at a key's rate (`3` at 19 %, `2` at
/// 7 %): what a payment of a client taxed on payments received carries so
/// that DATEV moves the tax of that rate from "not due" to due (DATEV
/// Hilfe-Dokument 1080673: an imported payment needs the BU-Schlüssel; the
/// keys as DATEV's tax key list numbers them, Dok. 1008613). Other keys
/// have none.
pub fn receipt_bu(key: &str) -> Option<&'static str> {
    match normalised(key).as_str() {
        "S:19" => Some("3"),
        "S:7" => Some("2"),
        _ => None,
    }
}

/// Whether `ledger`'s detail is a tax key.
pub fn keyed(ledger: &str) -> bool {
    KEYED.contains(&ledger)
}

/// The row where a line of `ledger` with tax key `key` lands (the detail
/// of every other account is not looked at). A small business's
/// tax-exempt revenue (`E:…`) lands on its own account.
///
/// `None` only for a ledger account the table does not know.
pub fn row(ledger: &str, key: &str, small_business: bool) -> Option<&'static Row> {
    let of_account = || TABLE.iter().filter(move |r| r.ledger == ledger);
    if !keyed(ledger) {
        return of_account().next();
    }
    let key = normalised(key);
    if small_business && ledger == "revenue" && key.starts_with("E:") {
        return of_account().find(|r| r.key == "§19");
    }
    let category = key.split(':').next().unwrap_or("");
    of_account()
        .find(|r| r.key == key)
        .or_else(|| {
            // A category's own catch-all (`AE:*`).
            of_account().find(|r| r.key.strip_suffix(":*") == Some(category) && !key.is_empty())
        })
        .or_else(|| {
            // Categories whose rate does not matter for the account.
            let zero_rated = format!("{category}:0");
            match category {
                "K" | "G" | "E" | "O" | "L" | "M" => of_account().find(|r| r.key == zero_rated),
                _ => None,
            }
        })
        .or_else(|| of_account().find(|r| r.key == "*"))
}

/// A tax key as the table spells it: the rate without trailing zeros
/// (`S:19.0` → `S:19`), without the mark of revenue not yet received
/// (`S:19:IST` lands where `S:19` does), the rest as it is.
fn normalised(key: &str) -> String {
    let key = crate::rules::cash_vat::received(key);
    let mut parts: Vec<String> = key.split(':').map(str::to_string).collect();
    if let Some(rate) = parts.get_mut(1) {
        if rate.contains('.') {
            let trimmed = rate.trim_end_matches('0').trim_end_matches('.');
            *rate = if trimmed.is_empty() {
                "0".into()
            } else {
                trimmed.into()
            };
        }
    }
    parts.join(":")
}

/// The lowest number of `range` that `used` does not hold, if any.
pub fn next_free(range: std::ops::RangeInclusive<u32>, used: &[u32]) -> Option<u32> {
    let mut taken: Vec<u32> = used.iter().copied().filter(|n| range.contains(n)).collect();
    taken.sort_unstable();
    taken.dedup();
    let mut candidate = *range.start();
    for n in taken {
        if n > candidate {
            break;
        }
        candidate = n + 1;
    }
    range.contains(&candidate).then_some(candidate)
}

/// Whether `number` is a customer's personal account.
pub fn is_customer_account(number: u32) -> bool {
    CUSTOMERS.contains(&number)
}

/// Whether `number` is a supplier's personal account.
pub fn is_supplier_account(number: u32) -> bool {
    SUPPLIERS.contains(&number)
}

/// Whether `number` is a bank account number of `chart` (the first bank
/// account's number and the `BANK_ACCOUNTS - 1` after it).
pub fn is_bank_account(chart: Chart, number: u32) -> bool {
    (chart.first_bank()..chart.first_bank() + BANK_ACCOUNTS).contains(&number)
}

/// The tax DATEV computes on `net` at `rate` percent (reverse charge):
/// `net × rate / 100`, rounded half away from zero.
pub fn tax_on_net(net: i64, rate: u32) -> i64 {
    let numerator = net as i128 * rate as i128;
    let rounded = if numerator >= 0 {
        (numerator + 50) / 100
    } else {
        (numerator - 50) / 100
    };
    rounded as i64
}

/// The tax DATEV splits out of `gross` (minor units) at `rate` percent, as
/// its automatic does: `gross × rate / (100 + rate)`, rounded half away
/// from zero.
pub fn tax_in_gross(gross: i64, rate: u32) -> i64 {
    let numerator = gross as i128 * rate as i128;
    let denominator = 100 + rate as i128;
    let half = denominator / 2;
    let rounded = if numerator >= 0 {
        (numerator + half) / denominator
    } else {
        (numerator - half) / denominator
    };
    rounded as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(chart: Chart, ledger: &str, key: &str) -> u32 {
        row(ledger, key, false).expect("a row").number(chart)
    }

    /// Each (ledger account, key) lands on its (SKR03, SKR04) numbers.
    fn lands(rows: &[(&str, &str, u32, u32)]) {
        for (ledger, key, skr03, skr04) in rows {
            assert_eq!(number(Chart::Skr03, ledger, key), *skr03, "{ledger} {key}");
            assert_eq!(number(Chart::Skr04, ledger, key), *skr04, "{ledger} {key}");
        }
    }

    #[test]
    fn the_pinned_accounts_are_the_tables() {
        lands(&[
            ("revenue", "S:19", 8400, 4400),
            ("revenue", "S:7", 8300, 4300),
            ("revenue", "K:0", 8125, 4125),
            ("revenue", "G:0", 8120, 4120),
            ("revenue", "AE:0:EU", 8336, 4336),
            ("output_tax", "S:19", 1776, 3806),
            ("output_tax", "S:7", 1771, 3801),
            ("input_tax", "S:19", 1576, 1406),
            ("input_tax", "S:7", 1571, 1401),
            ("bank", "", 1200, 1800),
        ]);
    }

    #[test]
    fn every_ledger_account_and_key_lands_on_exactly_one_account() {
        let accounts = [
            "receivables",
            "bank",
            "input_tax",
            "payables",
            "output_tax",
            "revenue",
            "expenses",
            "equity",
            "fees",
            "interest_income",
            "interest_expense",
            "discounts_granted",
            "discounts_received",
            "customer_credits",
            "tax_office",
            "transfer",
            "suspense",
            "fixed_assets",
            "depreciation",
            "asset_disposals",
            "asset_sales",
            "output_tax_not_due",
            "input_tax_later",
        ];
        let keys = [
            "", "S:19", "S:7", "S:5.5", "S:19.00", "K:0", "G:0", "AE:0:EU", "AE:0", "E:0", "Z:0",
            "O:0", "L:0", "M:0", "AE:19:EU", "AE:7:EU", "AE:19",
        ];
        for account in accounts {
            for key in keys {
                for small in [false, true] {
                    let found = row(account, key, small);
                    assert!(found.is_some(), "{account} {key:?} lands nowhere");
                    let found = found.unwrap();
                    for chart in Chart::ALL {
                        let n = found.number(chart);
                        assert!(
                            (1..10_000).contains(&n),
                            "{account} {key}: {n} is a G/L account"
                        );
                    }
                }
            }
        }
        assert!(row("unknown", "", false).is_none());
    }

    #[test]
    fn a_discount_lands_on_the_discount_account_of_its_key() {
        lands(&[
            ("discounts_granted", "S:19", 8736, 4736),
            ("discounts_granted", "S:7", 8731, 4731),
            ("discounts_granted", "K:0", 8743, 4743),
            ("discounts_granted", "AE:0:EU", 8742, 4742),
            ("discounts_granted", "", 8730, 4730),
            ("discounts_granted", "S:5.5", 8730, 4730),
            ("discounts_received", "S:19", 3736, 5736),
            ("discounts_received", "S:7", 3731, 5731),
            ("discounts_received", "AE:19:EU", 3151, 5951),
            ("discounts_received", "", 3730, 5730),
        ]);
    }

    #[test]
    fn tax_not_yet_due_has_its_own_accounts_and_unpaid_revenue_lands_with_its_rate() {
        lands(&[
            ("output_tax_not_due", "S:19", 1766, 3816),
            ("output_tax_not_due", "S:7", 1761, 3811),
            ("output_tax_not_due", "S:5.5", 1760, 3810),
            ("input_tax_later", "S:19", 1548, 1434),
            ("revenue", "S:19:IST", 8400, 4400),
            ("revenue", "S:7:IST", 8300, 4300),
            ("discounts_granted", "S:19:IST", 8736, 4736),
        ]);
        assert_eq!(receipt_bu("S:19"), Some("3"));
        assert_eq!(receipt_bu("S:7.0"), Some("2"));
        assert_eq!(receipt_bu("G:0"), None);
    }

    #[test]
    fn the_empty_key_of_old_lines_maps_to_the_stated_defaults() {
        assert_eq!(number(Chart::Skr03, "revenue", ""), 8400);
        assert_eq!(number(Chart::Skr04, "output_tax", ""), 3806);
        // A bill typed as two totals: the general input tax account, the
        // cost without a key.
        assert_eq!(number(Chart::Skr03, "input_tax", ""), 1570);
        assert_eq!(number(Chart::Skr04, "input_tax", ""), 1400);
        assert_eq!(row("expenses", "", false).unwrap().tax, Tax::None);
    }

    #[test]
    fn keys_without_their_own_row_fall_back_by_category_then_to_the_catch_all() {
        assert_eq!(number(Chart::Skr03, "revenue", "S:19.0"), 8400);
        assert_eq!(number(Chart::Skr03, "revenue", "S:5.5"), 8200);
        assert_eq!(number(Chart::Skr03, "output_tax", "AE:7:EU"), 1785);
        assert_eq!(number(Chart::Skr04, "input_tax", "AE:7"), 1408);
        assert_eq!(number(Chart::Skr03, "expenses", "AE:7:EU"), 4900);
        assert_eq!(number(Chart::Skr03, "revenue", "K:19"), 8125);
        assert_eq!(
            row("revenue", "E:0", true).unwrap().number(Chart::Skr03),
            8195
        );
        assert_eq!(
            row("revenue", "E:0", false).unwrap().number(Chart::Skr04),
            4100
        );
    }

    #[test]
    fn every_row_names_its_source_and_an_account_of_the_chart() {
        for r in TABLE {
            assert!(!r.source.is_empty());
            assert!(
                chart::standard(r.account).is_some(),
                "{} {}: {}",
                r.ledger,
                r.key,
                r.account
            );
        }
    }

    #[test]
    fn the_next_free_number_fills_the_lowest_gap() {
        assert_eq!(next_free(CUSTOMERS, &[]), Some(10_000));
        assert_eq!(
            next_free(CUSTOMERS, &[10_001, 10_000, 10_003, 70_000]),
            Some(10_002)
        );
        assert_eq!(next_free(SUPPLIERS, &[10_000]), Some(70_000));
        assert_eq!(next_free(1200..=1201, &[1200, 1201]), None);
    }

    #[test]
    fn personal_and_bank_ranges() {
        assert!(is_customer_account(10_000) && is_customer_account(69_999));
        assert!(!is_customer_account(70_000) && is_supplier_account(70_000));
        assert!(is_supplier_account(99_999) && !is_supplier_account(100_000));
        assert!(is_bank_account(Chart::Skr03, 1201) && !is_bank_account(Chart::Skr03, 1800));
        assert!(is_bank_account(Chart::Skr04, 1800));
    }

    #[test]
    fn the_automatic_splits_the_tax_the_way_the_invoice_computed_it() {
        assert_eq!(tax_in_gross(11_900, 19), 1_900);
        assert_eq!(tax_in_gross(10_700, 7), 700);
        assert_eq!(tax_in_gross(-11_900, 19), -1_900);
        // Net 0.03 at 19 % is 0.01 tax (0.0057 rounded); gross 0.04.
        assert_eq!(tax_in_gross(4, 19), 1);
        // Every net with its rounded tax comes back the same from the gross.
        for net in 0..20_000i64 {
            for rate in [7u32, 19] {
                let tax = (net * rate as i64 + 50) / 100;
                assert_eq!(tax_in_gross(net + tax, rate), tax, "net {net} at {rate}");
            }
        }
    }

    #[test]
    fn charts_are_read_as_people_write_them() {
        assert_eq!(Chart::parse("chart", "SKR03").unwrap(), Chart::Skr03);
        assert_eq!(Chart::parse("chart", " skr04 ").unwrap().datev_code(), "04");
        assert!(Chart::parse("chart", "skr14").is_err());
    }
}
