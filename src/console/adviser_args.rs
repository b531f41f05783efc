//! The command line of what the tax adviser and the tax office get: the
//! DATEV settings and tax methods `company set` takes, `export datev | gobd` and
//! `vat return | ec-sales`, as clap reads them. Nothing here checks a value
//! beyond its type; the books do.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::console::mode::Mode;

/// What the tax adviser's DATEV import needs, as `company set` takes it.
#[derive(Args, Debug, Clone)]
pub struct DatevArgs {
    /// The chart of accounts the adviser books in: skr03 or skr04.
    #[arg(long)]
    pub chart: Option<String>,
    /// The DATEV adviser number (Beraternummer, 1001–9999999).
    #[arg(long)]
    pub datev_adviser: Option<String>,
    /// The DATEV client number (Mandantennummer, 1–99999).
    #[arg(long)]
    pub datev_client: Option<String>,
    /// The first day of the fiscal year, MM-DD (default 01-01).
    #[arg(long)]
    pub fiscal_year_start: Option<String>,
}

/// The company's tax methods, as `company set` takes them; they hold from
/// `--from` (else the first day they may).
#[derive(Args, Debug, Clone)]
pub struct TaxMethodArgs {
    /// VAT on invoices issued (soll, the default) or on payments received (ist).
    #[arg(long)]
    pub vat_method: Option<String>,
    /// With ist, the ground of § 20 UStG: turnover, no-bookkeeping or freelance.
    #[arg(long)]
    pub ist_reason: Option<String>,
    /// Profit by balance sheet (balance, the default) or cash-basis statement (euer).
    #[arg(long)]
    pub profit_method: Option<String>,
    /// The VAT return's period: monthly or quarterly.
    #[arg(long)]
    pub vat_period: Option<String>,
    /// The one-month extension of the VAT return (Dauerfristverlängerung): yes or no.
    #[arg(long)]
    pub vat_extension: Option<String>,
    /// The first day the methods hold, YYYY-MM-DD: a VAT return period's first day.
    #[arg(long)]
    pub from: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum ExportCommand {
    /// The DATEV export (EXTF): a ZIP with the bookings and the partners of
    /// a period, final when the books are closed through its end.
    Datev {
        #[arg(long)]
        company: String,
        #[arg(long)]
        from: String,
        #[arg(long)]
        to: String,
        /// The ZIP file to write.
        #[arg(long)]
        out: PathBuf,
        /// Add the documents, named by Belegfeld 1: the issued invoices' and
        /// the received files of the bills booked in the period.
        #[arg(long)]
        documents: bool,
        #[command(flatten)]
        mode: Mode,
    },
    /// The GoBD data medium of a fiscal year: CSV files, index.xml and the
    /// documents, into a new folder.
    Gobd {
        #[arg(long)]
        company: String,
        /// The calendar year the fiscal year starts in.
        #[arg(long)]
        year: i16,
        /// The folder to write (it must not exist yet, or be empty).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum VatCommand {
    /// The VAT return's figures (Umsatzsteuer-Voranmeldung) of a month or
    /// quarter, each with its postings.
    Return(VatPeriodArgs),
    /// The EC sales list (Zusammenfassende Meldung) of a month or quarter.
    EcSales(VatPeriodArgs),
}

/// The company and the period both `vat` commands read the figures of.
#[derive(Args, Debug)]
pub struct VatPeriodArgs {
    #[arg(long)]
    pub company: String,
    /// 2026-10 or 2026-Q4.
    #[arg(long)]
    pub period: String,
    #[command(flatten)]
    pub mode: Mode,
}
