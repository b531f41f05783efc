//! `kontor customer terms | set`: a customer's agreed payment days, address
//! and buyer's particulars. Each prints the customer.

use crate::access::people::Capability;
use crate::books::customers::{self, CustomerChange, CustomerChangeInput};
use crate::books::tenancy;
use crate::books::tenancy::Owned;
use crate::console::acting::{actor, books_of, print};
use crate::console::args::{CustomerClear, CustomerCommand, CustomerSetArgs, Mode};
use crate::console::options::patch;
use crate::error::{Result, Violations};
use crate::store::db::Db;

/// Runs a `customer` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the customer's books.
pub fn run(db: &Db, cmd: &CustomerCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        CustomerCommand::Terms {
            customer,
            payment_days,
            mode,
        } => terms(db, acting, customer, *payment_days, *mode),
        CustomerCommand::Set(args) => set(db, acting, args),
    }
}

/// `customer terms`: the customer's agreed payment days.
fn terms(
    db: &Db,
    acting: Option<&str>,
    customer: &str,
    payment_days: i64,
    mode: Mode,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::owner(tx, Owned::Customer, customer, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        customers::set_terms(tx, &t, &actor, customer, payment_days)
    })?);
    Ok(())
}

/// `customer set`: the customer's address and buyer's particulars.
fn set(db: &Db, acting: Option<&str>, args: &CustomerSetArgs) -> Result<()> {
    let input = args.input()?;
    let customer = &args.customer;
    print(&db.write(|tx| {
        let environment = args.mode.environment();
        let t = books_of(tx, &args.company, Owned::Customer, customer, environment)?;
        let current = customers::get(tx, &t, customer)?;
        let change = CustomerChange::check(input, &current)?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        customers::change(tx, &t, &actor, customer, change)
    })?);
    Ok(())
}

impl CustomerSetArgs {
    /// The change as given, the values named by `--clear` cleared.
    ///
    /// Fails with `Invalid` for a value both given and cleared.
    fn input(&self) -> Result<CustomerChangeInput> {
        let mut v = Violations::new();
        let cleared = |what| self.clear.contains(&what);
        let input = CustomerChangeInput {
            name: self.name.clone(),
            street: self.street.clone(),
            postal_code: self.postal_code.clone(),
            city: self.city.clone(),
            country: self.country.clone(),
            vat_id: patch(&mut v, "vatId", &self.vat_id, cleared(CustomerClear::VatId)),
            buyer_reference: patch(
                &mut v,
                "buyerReference",
                &self.buyer_reference,
                cleared(CustomerClear::BuyerReference),
            ),
            electronic_address: patch(
                &mut v,
                "electronicAddress",
                &self.electronic_address,
                cleared(CustomerClear::ElectronicAddress),
            ),
            einvoice: self.einvoice.clone(),
            iban: patch(&mut v, "iban", &self.iban, cleared(CustomerClear::Iban)),
            invoice_email: patch(
                &mut v,
                "invoiceEmail",
                &self.invoice_email,
                cleared(CustomerClear::InvoiceEmail),
            ),
            consumer: self.consumer,
            language: patch(
                &mut v,
                "language",
                &self.language,
                cleared(CustomerClear::Language),
            ),
            ..CustomerChangeInput::default()
        };
        v.finish()?;
        Ok(input)
    }
}
