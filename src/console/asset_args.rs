//! The command line of fixed assets: `asset add | list | show | dispose`,
//! as clap reads them. Nothing here checks a value beyond its type; the
//! books do.

use clap::Subcommand;

use crate::console::mode::Mode;

#[derive(Subcommand, Debug)]
pub enum AssetCommand {
    /// Record an asset in the register: from a bill's line, or on its own
    /// (its cost then taken from the money not yet assigned).
    Add {
        #[arg(long)]
        company: String,
        #[arg(long)]
        name: String,
        /// Its class of the depreciation table (office_furniture, computers,
        /// software, cars, …; `asset classes` lists them).
        #[arg(long)]
        class: String,
        /// The day it was acquired (default: the bill's date).
        #[arg(long)]
        acquired: Option<String>,
        /// Its cost in minor units, net where the input VAT is deductible
        /// (default: what the bill's line has left).
        #[arg(long)]
        cost: Option<i64>,
        /// The bill it was bought with (pur_…).
        #[arg(long)]
        from_bill: Option<String>,
        /// Which of the bill's lines, from 1.
        #[arg(long)]
        line: Option<i64>,
        /// A useful life of its own, in months (else the class's).
        #[arg(long)]
        life_months: Option<i64>,
        /// Computer hardware or software: written off in full in the year
        /// bought (BMF-Schreiben of 22 February 2022).
        #[arg(long)]
        one_year: bool,
        #[command(flatten)]
        mode: Mode,
    },
    /// Every asset of the company with its book value.
    List {
        #[arg(long)]
        company: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// One asset.
    Show {
        asset: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// The classes of the depreciation table, with their useful lives and
    /// accounts.
    Classes,
    /// An asset leaves the books, sold or scrapped.
    Dispose {
        asset: String,
        /// The day it leaves.
        #[arg(long)]
        on: String,
        /// What it was sold for, net, in minor units (default: the revenue
        /// the invoice has left).
        #[arg(long)]
        proceeds: Option<i64>,
        /// The invoice that sold it (its id or number).
        #[arg(long)]
        invoice: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
}
