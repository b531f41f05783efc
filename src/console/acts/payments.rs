//! `kontor payment record | reverse`: money in against an invoice, and a
//! payment recorded by hand (an invoice's or a bill's) taken back by a
//! counter-posting; each printed with the payment and its document as they
//! stand after it.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::invoices;
use crate::books::payments::{Reversal, ReversalInput};
use crate::books::purchases;
use crate::books::settlement::{self, NewPayment, TargetKind};
use crate::books::tenancy::{self, Owned};
use crate::console::acting::{actor, books_of, print};
use crate::console::args::PaymentCommand;
use crate::error::Result;
use crate::store::db::Db;

/// Runs a `payment` command.
///
/// Fails as the books refuse the payment or its reversal, or with
/// `Refused` naming `as` when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &PaymentCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        PaymentCommand::Record {
            company,
            invoice,
            payment,
            mode,
        } => {
            let payment = NewPayment::check(payment.input())?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, company, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                let (paid, invoice_id) =
                    settlement::pay_invoice(tx, &t, &actor, invoice, &payment)?;
                Ok(json!({ "payment": paid, "invoice": invoices::get_by_id(tx, &t, &invoice_id)? }))
            })?);
        }
        PaymentCommand::Reverse {
            payment,
            company,
            on,
            reason,
            mode,
        } => {
            let request = Reversal::check(ReversalInput {
                reason: reason.clone(),
                on: on.clone(),
            })?;
            print(&db.write(|tx| {
                let t = books_of(tx, company, Owned::Payment, payment, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                let reversed = settlement::reverse_payment(tx, &t, &actor, payment, &request)?;
                Ok(match reversed.target_kind {
                    TargetKind::Invoice => json!({
                        "payment": reversed,
                        "invoice": invoices::get_by_id(tx, &t, &reversed.target_id)?,
                    }),
                    TargetKind::Purchase => json!({
                        "payment": reversed,
                        "purchase": purchases::get(tx, &t, &reversed.target_id)?,
                    }),
                })
            })?);
        }
    }
    Ok(())
}
