//! `kontor draft create | line | set | issue`: an invoice's or a quote's
//! draft, its lines and references, and issuing it under its final number.
//! Each prints the draft, or, once issued, the invoice.

use crate::access::people::Capability;
use crate::books::company::{self};
use crate::books::drafts::{
    self, DraftInput, DraftKind, DraftLineInput, NewDraft, NewDraftLine, ReferencesChange,
    ReferencesInput, TaxInput,
};
use crate::books::invoices::issue::{self, IssueInput, IssueOptions};
use crate::books::invoices::{self, vat_check};
use crate::books::tenancy;
use crate::books::tenancy::Owned;
use crate::console::acting::{actor, books_of, print};
use crate::console::args::{DraftClear, DraftCommand, DraftLineArgs, DraftSetArgs, Mode};
use crate::console::options::patch;
use crate::error::{Error, Result, Violations};
use crate::outbox::vat_register::Register;
use crate::store::db::Db;

/// Runs a `draft` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the draft's books.
pub fn run(db: &Db, cmd: &DraftCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        DraftCommand::Create {
            company,
            customer,
            quote,
            mode,
        } => {
            let kind = if *quote {
                DraftKind::Quote
            } else {
                DraftKind::Invoice
            };
            let input = DraftInput {
                customer_id: Some(customer.clone()),
            };
            create(db, acting, company, NewDraft::empty(input, kind)?, *mode)
        }
        DraftCommand::Line(args) => line(db, acting, args),
        DraftCommand::Set(args) => set(db, acting, args),
        DraftCommand::Issue {
            draft,
            on,
            delivered_on,
            rate,
            register,
            mode,
        } => {
            let options = IssueOptions::check(IssueInput {
                on: on.clone(),
                delivered_on: delivered_on.clone(),
                rate: rate.clone(),
            })?;
            issue(db, acting, draft, options, &register.register()?, *mode)
        }
    }
}

/// `draft create`: an empty draft for a customer of `company`.
fn create(db: &Db, acting: Option<&str>, company: &str, new: NewDraft, mode: Mode) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::tenant(tx, company, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let id = drafts::create(tx, &t, &actor, &new)?;
        drafts::get(tx, &t, &id)
    })?);
    Ok(())
}

/// `draft line`: a line added to the draft.
fn line(db: &Db, acting: Option<&str>, args: &DraftLineArgs) -> Result<()> {
    let input = args.input()?;
    let draft = &args.draft;
    print(&db.write(|tx| {
        let t = tenancy::owner(tx, Owned::Draft, draft, args.mode.environment())?;
        let line = NewDraftLine::check(input, &company::get(tx, &t.company_id)?)?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        drafts::add_line(tx, &t, &actor, draft, &line)?;
        drafts::get(tx, &t, draft)
    })?);
    Ok(())
}

/// `draft set`: the draft's references; without a change, only the draft shown.
fn set(db: &Db, acting: Option<&str>, args: &DraftSetArgs) -> Result<()> {
    let change = ReferencesChange::check(args.input()?)?;
    let draft = &args.draft;
    print(&db.write(|tx| {
        let environment = args.mode.environment();
        let t = books_of(tx, &args.company, Owned::Draft, draft, environment)?;
        // Without a change, `draft set` only shows the draft.
        if !change.is_empty() {
            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
            drafts::set_references(tx, &t, &actor, draft, change)?;
        }
        drafts::get(tx, &t, draft)
    })?);
    Ok(())
}

/// `draft issue`: the VAT register asked (before the issue's
/// transaction), the draft issued; prints the invoice as the API shows it,
/// with the register's answer (`vatCheck`) when one was kept.
fn issue(
    db: &Db,
    acting: Option<&str>,
    draft: &str,
    options: IssueOptions,
    register: &Register,
    mode: Mode,
) -> Result<()> {
    let asked = db.read(|conn| {
        let t = tenancy::owner(conn, Owned::Draft, draft, mode.environment())?;
        vat_check::ask(conn, &t, draft, register)
    })?;
    let options = options.with_register(asked);
    print(&db.write(|tx| {
        let t = tenancy::owner(tx, Owned::Draft, draft, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let id = issue::issue(tx, &t, &actor, draft, &options)?;
        let mut shown = serde_json::to_value(invoices::get_by_id(tx, &t, &id)?)
            .map_err(crate::error::Error::internal)?;
        // The invoice as the API shows it; with the register's answer when
        // one was kept (a customer with an EU VAT id).
        if let Some(check) = vat_check::of_invoice(tx, &t, &id)? {
            shown["vatCheck"] =
                serde_json::to_value(check).map_err(crate::error::Error::internal)?;
        }
        Ok(shown)
    })?);
    Ok(())
}

impl DraftLineArgs {
    /// The line as given, its taxes read from `--tax`.
    ///
    /// Fails with `Invalid` naming `taxes` for a `--tax` without a rate.
    fn input(&self) -> Result<DraftLineInput> {
        let taxes = if self.tax.is_empty() {
            None
        } else {
            Some(
                self.tax
                    .iter()
                    .map(|t| named_tax(t))
                    .collect::<Result<Vec<_>>>()?,
            )
        };
        Ok(DraftLineInput {
            description: Some(self.description.clone()),
            quantity: Some(self.quantity.clone()),
            unit_price_minor: Some(self.unit_price),
            tax_rate_percent: self.tax_rate.clone(),
            taxes,
            unit: self.unit.clone(),
            vat_category: self.vat_category.clone(),
            exemption_reason: self.exemption_reason.clone(),
            exemption_code: self.exemption_code.clone(),
        })
    }
}

impl DraftSetArgs {
    /// The references as given, those named by `--clear` cleared.
    ///
    /// Fails with `Invalid` for a value both given and cleared.
    fn input(&self) -> Result<ReferencesInput> {
        let mut v = Violations::new();
        let cleared = |what| self.clear.contains(&what);
        let input = ReferencesInput {
            buyer_reference: patch(
                &mut v,
                "buyerReference",
                &self.buyer_reference,
                cleared(DraftClear::BuyerReference),
            ),
            order_reference: patch(
                &mut v,
                "orderReference",
                &self.order_reference,
                cleared(DraftClear::OrderReference),
            ),
            period: patch(&mut v, "period", &self.period, cleared(DraftClear::Period)),
        };
        v.finish()?;
        Ok(input)
    }
}

/// Reads `NAME:RATE[:REASON]`.
fn named_tax(text: &str) -> Result<TaxInput> {
    let mut parts = text.splitn(3, ':');
    let (name, rate, reason) = (parts.next(), parts.next(), parts.next());
    match rate {
        Some(rate) => Ok(TaxInput {
            name: name.map(str::to_string),
            rate_percent: Some(rate.to_string()),
            reason: reason.map(str::to_string),
        }),
        None => Err(Error::invalid(
            "taxes",
            format!("takes NAME:RATE or NAME:RATE:REASON, not {text:?}"),
        )),
    }
}
