//! The console's commands, each read into the books' input types and run as
//! one call of the books in one transaction, its result printed as JSON (in
//! the API's shape where the API has one).

use serde_json::json;

use super::args::*;
use super::print;
use crate::access::keys::{self, KeyInput, NewKey};
use crate::access::people;
use crate::books::company::{
    self, CompanyInput, NewCompany, Owned, ParticularsChange, ParticularsInput,
};
use crate::books::customers::{self, CustomerChange, CustomerChangeInput};
use crate::books::drafts::{
    self, DocumentType, DraftInput, DraftLineInput, NewDraft, NewDraftLine, ReferencesChange,
    ReferencesInput, TaxInput,
};
use crate::books::invoices;
use crate::books::invoices::cancel::{self, CancelInput, Cancellation};
use crate::books::invoices::documents as invoice_documents;
use crate::books::invoices::issue::{self, IssueInput, IssueOptions};
use crate::books::ledger;
use crate::books::purchases::{self, NewPurchase, PurchaseInput};
use crate::books::settlement::{self, CreditInput, CreditRequest, NewPayment, PaymentInput};
use crate::documents::Format;
use crate::error::{Error, Result, Violations};
use crate::outbox::endpoints;
use crate::rules::text::Patch;
use crate::store::db::{Db, Tx};
use crate::store::page::Paging;
use crate::store::tenant::{Environment, Tenant};

/// An option that may be given or cleared (`--clear`), as a `Patch` of the books' `field`.
fn patch(v: &mut Violations, field: &str, value: &Option<String>, cleared: bool) -> Patch<String> {
    match (value, cleared) {
        (Some(_), true) => {
            v.invalid(field, "is given and cleared at once; do one or the other");
            Patch::Absent
        }
        (Some(value), false) => Patch::Value(value.clone()),
        (None, true) => Patch::Null,
        (None, false) => Patch::Absent,
    }
}

impl ParticularsArgs {
    /// The particulars as given, those named in `clear` cleared.
    ///
    /// Fails with `Invalid` for a value both given and cleared.
    fn input(&self, clear: &[CompanyClear]) -> Result<ParticularsInput> {
        let mut v = Violations::new();
        let mut p = |field: &str, value: &Option<String>, what: CompanyClear| {
            patch(&mut v, field, value, clear.contains(&what))
        };
        let input = ParticularsInput {
            legal_name: p("legalName", &self.legal_name, CompanyClear::LegalName),
            street: p("street", &self.street, CompanyClear::Street),
            postal_code: p("postalCode", &self.postal_code, CompanyClear::PostalCode),
            city: p("city", &self.city, CompanyClear::City),
            vat_id: p("vatId", &self.vat_id, CompanyClear::VatId),
            tax_number: p("taxNumber", &self.tax_number, CompanyClear::TaxNumber),
            registration: p(
                "registration",
                &self.registration,
                CompanyClear::Registration,
            ),
            contact_name: p("contactName", &self.contact_name, CompanyClear::ContactName),
            contact_phone: p(
                "contactPhone",
                &self.contact_phone,
                CompanyClear::ContactPhone,
            ),
            contact_email: p(
                "contactEmail",
                &self.contact_email,
                CompanyClear::ContactEmail,
            ),
            electronic_address: p(
                "electronicAddress",
                &self.electronic_address,
                CompanyClear::ElectronicAddress,
            ),
            iban: p("iban", &self.iban, CompanyClear::Iban),
            bic: p("bic", &self.bic, CompanyClear::Bic),
            account_holder: p(
                "accountHolder",
                &self.account_holder,
                CompanyClear::AccountHolder,
            ),
            managing_directors: p(
                "managingDirectors",
                &self.managing_directors,
                CompanyClear::ManagingDirectors,
            ),
            small_business: match (self.small_business, self.no_small_business) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
        };
        v.finish()?;
        Ok(input)
    }
}

/// The books a person's act on a record names: the record's own, or, with
/// `--company`, that company's (where a record of another company is not found).
///
/// Fails with `NotFound` for an unknown company or record.
fn books_of(
    tx: &Tx,
    company: &Option<String>,
    what: Owned,
    id: &str,
    environment: Environment,
) -> Result<Tenant> {
    match company {
        Some(company) => company::tenant(tx, company, environment),
        None => company::owner(tx, what, id, environment),
    }
}

/// `company create | plan | workflow`
pub fn company(db: &Db, cmd: &CompanyCommand) -> Result<()> {
    let company = match cmd {
        CompanyCommand::Create {
            name,
            country,
            currency,
            plan,
            invoice_prefix,
            payment_days,
            timezone,
            particulars,
        } => {
            let new = NewCompany::check(CompanyInput {
                name: Some(name.clone()),
                country: Some(country.clone()),
                currency: Some(currency.clone()),
                plan: plan.clone(),
                invoice_prefix: invoice_prefix.clone(),
                payment_days: *payment_days,
                timezone: timezone.clone(),
                particulars: particulars.input(&[])?,
            })?;
            db.write(|tx| company::create(tx, new))?
        }
        CompanyCommand::Show { company: id } => db.read(|conn| company::get(conn, id))?,
        CompanyCommand::Set {
            company: id,
            particulars,
            clear,
        } => {
            let input = particulars.input(clear)?;
            db.write(|tx| {
                let country = company::get(tx, id)?.country;
                let change = ParticularsChange::check(input, &country)?;
                company::set_particulars(tx, id, change)
            })?
        }
        CompanyCommand::Plan { company: id, plan } => {
            db.write(|tx| company::set_plan(tx, id, plan))?
        }
        CompanyCommand::Workflow {
            company: id,
            stages,
        } => db.write(|tx| company::set_workflow(tx, id, stages))?,
    };
    print(&company.view());
    Ok(())
}

/// The first line of standard input, without its line ending.
///
/// Fails with `Invalid` naming `password` when nothing can be read.
fn password_from_stdin() -> Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|_| Error::invalid("password", "cannot be read from standard input"))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// `user create | list | disable | password`
pub fn user(db: &Db, cmd: &UserCommand) -> Result<()> {
    match cmd {
        UserCommand::Create {
            company,
            email,
            name,
            role,
            password_stdin,
        } => {
            let password = password_stdin.then(password_from_stdin).transpose()?;
            let new = people::NewMember::check(people::UserInput {
                company_id: Some(company.clone()),
                email: Some(email.clone()),
                name: Some(name.clone()),
                role: Some(role.clone()),
                password,
            })?;
            print(&db.write(|tx| people::add(tx, &new))?);
        }
        UserCommand::List { company } => print(&db.read(|conn| people::list(conn, company))?),
        UserCommand::Disable { email } => {
            let person = db.write(|tx| people::disable(tx, email))?;
            print(&json!({ "id": person.id, "email": person.email, "disabled": true }));
        }
        UserCommand::Password { email, .. } => {
            let password = password_from_stdin()?;
            let person = db.write(|tx| people::set_password(tx, email, &password))?;
            print(&json!({ "id": person.id, "email": person.email, "passwordChanged": true }));
        }
    }
    Ok(())
}

/// `key create | list | revoke`
pub fn key(db: &Db, cmd: &KeyCommand) -> Result<()> {
    let out = match cmd {
        KeyCommand::Create {
            company,
            name,
            environment,
            scopes,
            expires_at,
        } => {
            let new = NewKey::check(KeyInput {
                company_id: Some(company.clone()),
                name: Some(name.clone()),
                environment: Some(environment.clone()),
                scopes: Some(scopes.clone()),
                expires_at: expires_at.clone(),
            })?;
            db.write(|tx| keys::create(tx, new))?
        }
        KeyCommand::List { company } => db.read(|conn| keys::list(conn, company))?,
        KeyCommand::Revoke { key } => db.write(|tx| keys::revoke(tx, key))?,
    };
    print(&out);
    Ok(())
}

impl PaymentArgs {
    fn input(&self) -> PaymentInput {
        PaymentInput {
            amount: Some(self.amount),
            on: self.on.clone(),
            method: self.method.clone(),
            reference: self.reference.clone(),
        }
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

/// The acts on the books; each is one transaction.
pub fn act(db: &Db, command: &Command) -> Result<()> {
    match command {
        Command::Customer(CustomerCommand::Terms {
            customer,
            payment_days,
            mode,
        }) => print(&db.write(|tx| {
            let t = company::owner(tx, Owned::Customer, customer, mode.environment())?;
            customers::set_terms(tx, &t, customer, *payment_days)
        })?),
        Command::Customer(CustomerCommand::Set(args)) => {
            let CustomerSetArgs {
                customer,
                company,
                name,
                street,
                postal_code,
                city,
                country,
                vat_id,
                buyer_reference,
                electronic_address,
                einvoice,
                clear,
                mode,
            } = args.as_ref();
            let mut v = Violations::new();
            let cleared = |what| clear.contains(&what);
            let input = CustomerChangeInput {
                name: name.clone(),
                street: street.clone(),
                postal_code: postal_code.clone(),
                city: city.clone(),
                country: country.clone(),
                vat_id: patch(&mut v, "vatId", vat_id, cleared(CustomerClear::VatId)),
                buyer_reference: patch(
                    &mut v,
                    "buyerReference",
                    buyer_reference,
                    cleared(CustomerClear::BuyerReference),
                ),
                electronic_address: patch(
                    &mut v,
                    "electronicAddress",
                    electronic_address,
                    cleared(CustomerClear::ElectronicAddress),
                ),
                einvoice: einvoice.clone(),
            };
            v.finish()?;
            print(&db.write(|tx| {
                let t = books_of(tx, company, Owned::Customer, customer, mode.environment())?;
                let current = customers::get(tx, &t, customer)?;
                let change = CustomerChange::check(input, &current)?;
                customers::change(tx, &t, customer, change)
            })?)
        }
        Command::Draft(DraftCommand::Set {
            draft,
            company,
            buyer_reference,
            order_reference,
            period,
            clear,
            mode,
        }) => {
            let mut v = Violations::new();
            let cleared = |what| clear.contains(&what);
            let input = ReferencesInput {
                buyer_reference: patch(
                    &mut v,
                    "buyerReference",
                    buyer_reference,
                    cleared(DraftClear::BuyerReference),
                ),
                order_reference: patch(
                    &mut v,
                    "orderReference",
                    order_reference,
                    cleared(DraftClear::OrderReference),
                ),
                period: patch(&mut v, "period", period, cleared(DraftClear::Period)),
            };
            v.finish()?;
            let change = ReferencesChange::check(input)?;
            print(&db.write(|tx| {
                let t = books_of(tx, company, Owned::Draft, draft, mode.environment())?;
                drafts::set_references(tx, &t, draft, change)?;
                drafts::get(tx, &t, draft)
            })?)
        }
        Command::Draft(DraftCommand::Create {
            company,
            customer,
            quote,
            mode,
        }) => {
            let kind = if *quote {
                DocumentType::Quote
            } else {
                DocumentType::Invoice
            };
            let input = DraftInput {
                customer_id: Some(customer.clone()),
            };
            let new = NewDraft::empty(input, kind)?;
            print(&db.write(|tx| {
                let t = company::tenant(tx, company, mode.environment())?;
                let id = drafts::create(tx, &t, &new)?;
                drafts::get(tx, &t, &id)
            })?)
        }
        Command::Draft(DraftCommand::Line {
            draft,
            description,
            quantity,
            unit_price,
            tax_rate,
            tax,
            unit,
            vat_category,
            exemption_reason,
            exemption_code,
            mode,
        }) => {
            let taxes = if tax.is_empty() {
                None
            } else {
                Some(
                    tax.iter()
                        .map(|t| named_tax(t))
                        .collect::<Result<Vec<_>>>()?,
                )
            };
            let input = DraftLineInput {
                description: Some(description.clone()),
                quantity: Some(quantity.clone()),
                unit_price_minor: Some(*unit_price),
                tax_rate_percent: tax_rate.clone(),
                taxes,
                unit: unit.clone(),
                vat_category: vat_category.clone(),
                exemption_reason: exemption_reason.clone(),
                exemption_code: exemption_code.clone(),
            };
            print(&db.write(|tx| {
                let t = company::owner(tx, Owned::Draft, draft, mode.environment())?;
                let line = NewDraftLine::check(input, &company::get(tx, &t.company_id)?)?;
                drafts::add_line(tx, &t, draft, &line)?;
                drafts::get(tx, &t, draft)
            })?)
        }
        Command::Draft(DraftCommand::Issue {
            draft,
            on,
            delivered_on,
            rate,
            mode,
        }) => {
            let options = IssueOptions::check(IssueInput {
                on: on.clone(),
                delivered_on: delivered_on.clone(),
                rate: rate.clone(),
            })?;
            print(&db.write(|tx| {
                let t = company::owner(tx, Owned::Draft, draft, mode.environment())?;
                let id = issue::issue(tx, &t, draft, &options)?;
                invoices::get_by_id(tx, &t, &id)
            })?)
        }
        Command::Payment(PaymentCommand::Record {
            company,
            invoice,
            payment,
            mode,
        }) => {
            let payment = NewPayment::check(payment.input())?;
            print(&db.write(|tx| {
                let t = company::tenant(tx, company, mode.environment())?;
                let (paid, invoice_id) = settlement::pay_invoice(tx, &t, invoice, &payment)?;
                Ok(json!({ "payment": paid, "invoice": invoices::get_by_id(tx, &t, &invoice_id)? }))
            })?)
        }
        Command::Invoice(InvoiceCommand::Cancel {
            company,
            number,
            reason,
            on,
            mode,
        }) => {
            let request = Cancellation::check(CancelInput {
                reason: Some(reason.clone()),
                on: on.clone(),
            })?;
            print(&db.write(|tx| {
                let t = company::tenant(tx, company, mode.environment())?;
                let (original, correction) = cancel::cancel(tx, &t, number, &request)?;
                Ok(json!({
                    "cancelled": invoices::get_by_id(tx, &t, &original)?,
                    "correction": invoices::get_by_id(tx, &t, &correction)?,
                }))
            })?)
        }
        Command::Invoice(InvoiceCommand::Document {
            company,
            number,
            format,
            out,
            mode,
        }) => {
            let format = Format::named(Some(format))?;
            let document = db.read(|conn| {
                let t = company::tenant(conn, company, mode.environment())?;
                invoice_documents::get(conn, &t, number, format)
            })?;
            let written = if out == "-" {
                std::io::Write::write_all(&mut std::io::stdout().lock(), &document.content)
            } else {
                std::fs::write(out, &document.content)
            };
            written.map_err(|e| Error::refused(format!("{out} cannot be written: {e}.")))?;
            if out != "-" {
                print(&json!({
                    "number": number,
                    "format": format.as_str(),
                    "file": out,
                    "bytes": document.content.len(),
                    "sha256": document.sha256,
                }));
            }
        }
        Command::Purchase(PurchaseCommand::Record {
            company,
            supplier,
            supplier_vat_id,
            document_number,
            date,
            due,
            currency,
            net,
            tax,
            kind,
            rate,
            mode,
        }) => {
            let new = NewPurchase::check(PurchaseInput {
                supplier: Some(supplier.clone()),
                supplier_vat_id: supplier_vat_id.clone(),
                document_number: Some(document_number.clone()),
                date: Some(date.clone()),
                due: Some(due.clone()),
                currency: Some(currency.clone()),
                net: Some(*net),
                tax: Some(*tax),
                kind: kind.clone(),
                rate: rate.clone(),
            })?;
            print(&db.write(|tx| {
                let t = company::tenant(tx, company, mode.environment())?;
                let id = purchases::record(tx, &t, &new)?;
                purchases::get(tx, &t, &id)
            })?)
        }
        Command::Purchase(PurchaseCommand::Pay {
            purchase,
            payment,
            mode,
        }) => {
            let payment = NewPayment::check(payment.input())?;
            print(&db.write(|tx| {
                let t = company::owner(tx, Owned::Purchase, purchase, mode.environment())?;
                let paid = settlement::pay_bill(tx, &t, purchase, &payment)?;
                Ok(json!({ "payment": paid, "purchase": purchases::get(tx, &t, purchase)? }))
            })?)
        }
        Command::Purchase(PurchaseCommand::ApplyCredit {
            credit,
            bill,
            amount,
            on,
            mode,
        }) => {
            let request = CreditRequest::check(CreditInput {
                amount: *amount,
                on: on.clone(),
            })?;
            print(&db.write(|tx| {
                let t = company::owner(tx, Owned::Purchase, credit, mode.environment())?;
                let applied = settlement::apply_credit(tx, &t, credit, bill, &request)?;
                Ok(json!({
                    "application": applied,
                    "credit": purchases::get(tx, &t, credit)?,
                    "bill": purchases::get(tx, &t, bill)?,
                }))
            })?)
        }
        Command::Books(BooksCommand::Close {
            company,
            through,
            mode,
        }) => print(&db.write(|tx| {
            let t = company::tenant(tx, company, mode.environment())?;
            ledger::close(tx, &t, through)
        })?),
        Command::Books(BooksCommand::TrialBalance {
            company,
            as_of,
            mode,
        }) => print(&db.read(|conn| {
            let t = company::tenant(conn, company, mode.environment())?;
            ledger::trial_balance(conn, &t, as_of.as_deref())
        })?),
        Command::Webhook(WebhookCommand::Deliveries {
            company,
            endpoint,
            page,
            mode,
        }) => print(&db.read(|conn| {
            let t = company::tenant(conn, company, mode.environment())?;
            let paging = Paging {
                page: (*page).max(0),
                size: 100,
            };
            endpoints::deliveries(conn, &t, endpoint.as_deref(), paging)
        })?),
        Command::Webhook(WebhookCommand::Redeliver { delivery, mode }) => {
            print(&db.write(|tx| {
                let t = company::owner(tx, Owned::Delivery, delivery, mode.environment())?;
                let id = endpoints::redeliver(tx, &t, delivery)?;
                endpoints::delivery(tx, &t, &id)
            })?)
        }
        Command::Serve(_)
        | Command::Demo(_)
        | Command::Company(_)
        | Command::Key(_)
        | Command::User(_)
        | Command::VatId(_)
        | Command::Backup { .. } => return Err(Error::internal("not an act on the books")),
    }
    Ok(())
}
