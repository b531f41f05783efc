//! `kontor vat return | ec-sales`: the VAT return's figures of a month or
//! quarter with the postings behind each Kz, and the EC sales list's rows.
//! Both only read.

use rusqlite::Connection;

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
    let (VatCommand::Return(args) | VatCommand::EcSales(args)) = cmd;
    let period = Period::parse("period", &args.period)?;
    let tenant = |conn: &Connection| tenancy::tenant(conn, &args.company, args.mode.environment());
    match cmd {
        VatCommand::Return(_) => {
            print(&db.read(|conn| filing::vat_return(conn, &tenant(conn)?, &period))?)
        }
        VatCommand::EcSales(_) => {
            print(&db.read(|conn| filing::ec_sales_list(conn, &tenant(conn)?, &period))?)
        }
    }
    Ok(())
}
