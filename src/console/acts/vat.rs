//! `kontor vat return | ec-sales`: the VAT return's figures of a month or
//! quarter with the postings behind each Kz, and the EC sales list's rows.
//! Both only read.

use crate::books::tenancy;
use crate::books::vat::filing;
use crate::books::vat::period::Period;
use crate::console::acting::{no_actor, print};
use crate::console::args::VatCommand;
use crate::error::Result;
use crate::store::db::Db;

/// Runs a `vat` command.
///
/// Fails with `Invalid` naming `period` for an unreadable period, and with
/// `NotFound` for an unknown company.
pub fn run(db: &Db, cmd: &VatCommand, acting: Option<&str>) -> Result<()> {
    no_actor(acting, "the VAT figures are only read")?;
    match cmd {
        VatCommand::Return {
            company: id,
            period,
            mode,
        } => {
            let period = Period::parse("period", period)?;
            print(&db.read(|conn| {
                let t = tenancy::tenant(conn, id, mode.environment())?;
                filing::vat_return(conn, &t, &period)
            })?);
        }
        VatCommand::EcSales {
            company: id,
            period,
            mode,
        } => {
            let period = Period::parse("period", period)?;
            print(&db.read(|conn| {
                let t = tenancy::tenant(conn, id, mode.environment())?;
                filing::ec_sales_list(conn, &t, &period)
            })?);
        }
    }
    Ok(())
}
