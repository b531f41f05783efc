//! `kontor purchase record | receipt | pay | apply-credit`: incoming bills
//! and a supplier's credits (with a receipt and a posting date), a bill's
//! receipt attached afterwards, money out against a bill, and a credit set
//! against a bill of the same supplier. Each prints the purchases it changed. The
//! received e-invoices' commands (`receive`, `show`, `list`, `book`,
//! `refuse`, `original`, `trust`) are `received`'s.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::purchases::{self, CostLineInput, NewPurchase, PurchaseInput};
use crate::books::receipts;
use crate::books::received::{Channel, Incoming};
use crate::books::settlement::{self, CreditInput, CreditRequest, NewPayment};
use crate::books::tenancy;
use crate::books::tenancy::Owned;
use crate::console::acting::{actor, print};
use crate::console::acts::received;
use crate::console::args::{Mode, PurchaseCommand, PurchaseRecordArgs};
use crate::error::{Error, Result};
use crate::store::db::Db;

/// Runs a `purchase` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &PurchaseCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        PurchaseCommand::Record(args) => record_bill(db, acting, args),
        PurchaseCommand::Receipt {
            purchase,
            file,
            mode,
        } => {
            let (name, bytes) = receipt_file(file)?;
            print(&db.write(|tx| {
                let t = tenancy::owner(tx, Owned::Purchase, purchase, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                let receipt = receipts::attach(tx, &t, &actor, purchase, &incoming(&name, &bytes))?;
                Ok(json!({ "receipt": receipt, "purchase": purchases::get(tx, &t, purchase)? }))
            })?);
            Ok(())
        }
        PurchaseCommand::Pay {
            purchase,
            payment,
            mode,
        } => {
            let payment = NewPayment::check(payment.input())?;
            pay(db, acting, purchase, &payment, *mode)
        }
        PurchaseCommand::ApplyCredit {
            credit,
            bill,
            amount,
            on,
            mode,
        } => {
            let request = CreditRequest::check(CreditInput {
                amount: *amount,
                on: on.clone(),
            })?;
            apply_credit(db, acting, credit, bill, &request, *mode)
        }
        received_command => received::run(db, received_command, acting),
    }
}

/// `purchase record`: prints the recorded bill or credit.
fn record_bill(db: &Db, acting: Option<&str>, args: &PurchaseRecordArgs) -> Result<()> {
    let new = NewPurchase::check(args.input()?)?;
    let receipt = match &args.receipt {
        Some(path) => {
            let (name, bytes) = receipt_file(path)?;
            receipts::check(&bytes)?;
            Some((name, bytes))
        }
        None => None,
    };
    print(&db.write(|tx| {
        let t = tenancy::tenant(tx, &args.company, args.mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let id = purchases::record(tx, &t, &actor, &new)?;
        let kept = match &receipt {
            Some((name, bytes)) => Some(receipts::attach(
                tx,
                &t,
                &actor,
                &id,
                &incoming(name, bytes),
            )?),
            None => None,
        };
        let mut shown = serde_json::to_value(purchases::get(tx, &t, &id)?)
            .map_err(|e| Error::internal(format!("a purchase as JSON: {e}")))?;
        shown["receipt"] = json!(kept);
        Ok(shown)
    })?);
    Ok(())
}

/// A receipt's file: its name and bytes, at most a byte past the largest
/// receipt read (a larger one is refused by its size alone).
///
/// Fails with `Invalid` naming `receipt` for a file that cannot be read.
fn receipt_file(path: &std::path::Path) -> Result<(String, Vec<u8>)> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| {
        Error::invalid("receipt", format!("{} cannot be read: {e}", path.display()))
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(receipts::MAX_RECEIPT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "receipt".to_string());
    Ok((name, bytes))
}

/// A receipt typed at the console.
fn incoming<'a>(name: &'a str, bytes: &'a [u8]) -> Incoming<'a> {
    Incoming {
        file_name: name,
        bytes,
        channel: Channel::Console,
        channel_ref: None,
    }
}

/// `purchase pay`: prints the payment and the bill as it stands after it.
fn pay(
    db: &Db,
    acting: Option<&str>,
    purchase: &str,
    payment: &NewPayment,
    mode: Mode,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::owner(tx, Owned::Purchase, purchase, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let paid = settlement::pay_bill(tx, &t, &actor, purchase, payment)?;
        Ok(json!({ "payment": paid, "purchase": purchases::get(tx, &t, purchase)? }))
    })?);
    Ok(())
}

/// `purchase apply-credit`: prints the application, the credit and the bill.
fn apply_credit(
    db: &Db,
    acting: Option<&str>,
    credit: &str,
    bill: &str,
    request: &CreditRequest,
    mode: Mode,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::owner(tx, Owned::Purchase, credit, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let applied = settlement::apply_credit(tx, &t, &actor, credit, bill, request)?;
        Ok(json!({
            "application": applied,
            "credit": purchases::get(tx, &t, credit)?,
            "bill": purchases::get(tx, &t, bill)?,
        }))
    })?);
    Ok(())
}

impl PurchaseRecordArgs {
    /// The bill or credit as given, for the books to check.
    ///
    /// Fails with `Invalid` for a `--line` not written `ACCOUNT=NET[:RATE]`.
    fn input(&self) -> Result<PurchaseInput> {
        let mut lines = Vec::with_capacity(self.line.len());
        for (i, line) in self.line.iter().enumerate() {
            let malformed = || {
                Error::invalid(
                    format!("lines[{i}]"),
                    format!("{line:?} is not ACCOUNT=NET[:RATE], e.g. rent=120000:19"),
                )
            };
            let (account, rest) = line.split_once('=').ok_or_else(malformed)?;
            let (net, rate) = match rest.split_once(':') {
                Some((net, rate)) => (net, Some(rate.trim().to_string())),
                None => (rest, None),
            };
            let net = net.trim().parse::<i64>().map_err(|_| malformed())?;
            lines.push(CostLineInput {
                account: account.trim().to_string(),
                net,
                rate,
            });
        }
        Ok(PurchaseInput {
            supplier: Some(self.supplier.clone()),
            supplier_vat_id: self.supplier_vat_id.clone(),
            document_number: Some(self.document_number.clone()),
            date: Some(self.date.clone()),
            due: Some(self.due.clone()),
            currency: Some(self.currency.clone()),
            net: self.net,
            tax: self.tax,
            kind: self.kind.clone(),
            rate: self.rate.clone(),
            tax_rate: self.tax_rate.clone(),
            reverse_charge: self.reverse_charge,
            supplier_cash_basis: self.supplier_cash_basis,
            down_payment: self.down_payment,
            account: self.account.clone(),
            lines,
            posted: self.posted.clone(),
            // The console books as told: the screens ask about an old date.
            confirmed_old: true,
        })
    }
}
