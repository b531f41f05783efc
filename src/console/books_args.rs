//! The command line of the books' statements, fixed assets' year and chart
//! of accounts: `books close | trial-balance | profit-and-loss |
//! balance-sheet | depreciate | assets | depreciation-rule` and
//! `account list | add | remove`, as clap reads them. Nothing here checks a
//! value beyond its type; the books do.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::console::mode::Mode;

#[derive(Subcommand, Debug)]
pub enum BooksCommand {
    /// Close the books through a date; later acts dated on or before it are refused.
    Close {
        #[arg(long)]
        company: String,
        #[arg(long)]
        through: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// The trial balance (Summen- und Saldenliste) by account number: each
    /// account's opening balance, its debit and credit of the period and
    /// of the fiscal year, and its balance; whether they balance.
    TrialBalance {
        #[arg(long)]
        company: String,
        #[arg(long)]
        as_of: Option<String>,
        /// The period's first day (default the first of --as-of's month).
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// The profit and loss by § 275 (2) HGB, each line with its accounts.
    ProfitAndLoss {
        #[arg(long)]
        company: String,
        /// Default the fiscal year's first day.
        #[arg(long)]
        from: Option<String>,
        /// Default today.
        #[arg(long)]
        to: Option<String>,
        /// The previous year's same period beside each figure.
        #[arg(long)]
        compare: bool,
        #[command(flatten)]
        mode: Mode,
    },
    /// The cash-basis profit statement (EÜR, § 4 (3) EStG) of a fiscal year
    /// on the lines of its Anlage EÜR, each with the payments behind it.
    Euer {
        #[arg(long)]
        company: String,
        /// The calendar year the fiscal year starts in.
        #[arg(long)]
        year: i32,
        /// Also write the statement as a PDF to this file (it must not
        /// exist yet).
        #[arg(long)]
        pdf: Option<PathBuf>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Post a fiscal year's depreciation of the fixed assets, once per
    /// asset and year (running it again posts only for assets recorded
    /// since).
    Depreciate {
        #[command(flatten)]
        of: FiscalYear,
    },
    /// The register of fixed assets (Anlagenspiegel) of a fiscal year: cost,
    /// additions, disposals, depreciation and book values per asset and
    /// class.
    Assets {
        #[command(flatten)]
        of: FiscalYear,
    },
    /// A fiscal year's choices of the low-value rule (§ 6 (2) EStG) and the
    /// pool (§ 6 (2a) EStG); without either, shows them.
    DepreciationRule {
        #[command(flatten)]
        of: FiscalYear,
        /// Keep the pool of € 250.01 to € 1,000 for the year: yes or no.
        #[arg(long)]
        pool: Option<String>,
        /// Write off assets of at most € 800 at once: yes or no.
        #[arg(long)]
        low_value: Option<String>,
    },
    /// The balance sheet by § 266 HGB (the short form), each line with its
    /// accounts.
    BalanceSheet {
        #[arg(long)]
        company: String,
        /// The day whose end it shows (also `--to`); default today.
        #[arg(long, visible_alias = "to")]
        as_of: Option<String>,
        /// The same day a year earlier beside each figure.
        #[arg(long)]
        compare: bool,
        #[command(flatten)]
        mode: Mode,
    },
}

/// A company's fiscal year, as the fixed assets' commands name it.
#[derive(Args, Debug)]
pub struct FiscalYear {
    #[arg(long)]
    pub company: String,
    /// The calendar year the fiscal year starts in.
    #[arg(long)]
    pub year: i32,
    #[command(flatten)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum AccountCommand {
    /// Every account of the company's chart, standard and own, by number.
    List {
        #[arg(long)]
        company: String,
    },
    /// Add an account of the company's own within the chart's ranges.
    Add {
        #[arg(long)]
        company: String,
        /// The G/L account number (four digits at most).
        #[arg(long)]
        number: String,
        #[arg(long)]
        name_de: String,
        #[arg(long)]
        name_en: String,
        /// asset, liability, equity, revenue, expense or tax.
        #[arg(long)]
        kind: String,
        /// The HGB line its balance is shown under (pl:8, assets:B.II, …).
        #[arg(long)]
        line: String,
    },
    /// Remove an account of the company's own with nothing posted to it.
    Remove {
        #[arg(long)]
        company: String,
        #[arg(long)]
        number: String,
    },
}
