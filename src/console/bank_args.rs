//! The command line of the bank: `bank account`, `bank import` and the
//! acts on statement lines, as clap reads them. Nothing here checks a value
//! beyond its type; the books do.

use std::path::PathBuf;

use clap::Subcommand;

use crate::console::mode::Mode;

#[derive(Subcommand, Debug)]
pub enum BankCommand {
    /// The company's bank accounts: add one, list them.
    #[command(subcommand)]
    Account(BankAccountCommand),
    /// Import statement files: camt.052/053/054 (.02 to .13) as .xml, a .zip
    /// of them, MT940 (.sta, .mt940, .txt); each file its own transaction.
    Import {
        #[arg(long)]
        company: String,
        #[command(flatten)]
        mode: Mode,
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// The statement lines, newest first: unmatched, suggested, settled,
    /// ignored or preliminary.
    Lines {
        #[arg(long)]
        company: String,
        #[arg(long)]
        state: Option<String>,
        /// Part of the counterparty's name or IBAN, the remittance or the end-to-end id.
        #[arg(long)]
        search: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// One line with its suggestions and what it settled.
    Line { line: String },
    /// Settle the documents of a line's suggestion (1: the best).
    Confirm {
        line: String,
        #[arg(long, default_value_t = 1)]
        suggestion: usize,
        /// What the documents still owe after a partial or fee-reduced
        /// payment: open, fees or discount; credit keeps what the line pays
        /// beyond them as the customer's credit. Default: discount for a
        /// cash discount taken in time, else open.
        #[arg(long)]
        difference: Option<String>,
    },
    /// Split a line over documents: `--to NUMBER=MINOR` for each.
    Split {
        line: String,
        #[arg(long = "to", num_args = 1.., required = true, value_name = "NUMBER=MINOR")]
        to: Vec<String>,
        /// What the documents still owe after their parts: open (the
        /// default), fees or discount; credit keeps what the line has left
        /// as the customer's credit.
        #[arg(long)]
        difference: Option<String>,
    },
    /// Book what a line has left to an account: fees, interest, tax,
    /// transfer, other, or (money in) credit, the customer's credit.
    Book {
        line: String,
        #[arg(long)]
        account: String,
        /// Minor units (default: all the line has left).
        #[arg(long)]
        amount: Option<i64>,
    },
    /// Ignore a line that settles nothing, with the reason.
    Ignore {
        line: String,
        #[arg(long)]
        reason: String,
    },
    /// Undo what a line did by counter-postings (or take back an ignore).
    Undo { line: String },
    /// How much less than open a payment may be to be fee-reduced rather than partial.
    Tolerance {
        #[arg(long)]
        company: String,
        /// Minor units.
        #[arg(long, allow_hyphen_values = true)]
        amount: i64,
    },
}

#[derive(Subcommand, Debug)]
pub enum BankAccountCommand {
    /// Add a bank account: by IBAN, or by bank code and account number for
    /// an account no IBAN expresses.
    Add {
        #[arg(long)]
        company: String,
        #[command(flatten)]
        mode: Mode,
        #[arg(long)]
        iban: Option<String>,
        /// BANKCODE/NUMBER.
        #[arg(long)]
        account: Option<String>,
        #[arg(long)]
        bic: Option<String>,
        #[arg(long)]
        name: Option<String>,
        /// Default: the company's currency.
        #[arg(long)]
        currency: Option<String>,
    },
    /// The company's bank accounts.
    List {
        #[arg(long)]
        company: String,
        #[command(flatten)]
        mode: Mode,
    },
}
