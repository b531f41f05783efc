//! `kontor payment record`: money in against an invoice, printed with the
//! invoice as it stands after it.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::invoices;
use crate::books::settlement::{self, NewPayment};
use crate::books::tenancy;
use crate::console::acting::{actor, print};
use crate::console::args::PaymentCommand;
use crate::error::Result;
use crate::store::db::Db;

/// Runs a `payment` command.
///
/// Fails as the books refuse the payment, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &PaymentCommand, acting: Option<&str>) -> Result<()> {
    let PaymentCommand::Record {
        company,
        invoice,
        payment,
        mode,
    } = cmd;
    let payment = NewPayment::check(payment.input())?;
    print(&db.write(|tx| {
        let t = tenancy::tenant(tx, company, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let (paid, invoice_id) = settlement::pay_invoice(tx, &t, &actor, invoice, &payment)?;
        Ok(json!({ "payment": paid, "invoice": invoices::get_by_id(tx, &t, &invoice_id)? }))
    })?);
    Ok(())
}
