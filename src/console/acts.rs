//! The console's commands, each read into the books' input types and run as
//! one call of the books in one transaction, its result printed as JSON (in
//! the API's shape where the API has one). Every act writes its audit row in
//! the same transaction, naming the person `--as` names (an enabled person
//! of the company whose role allows the act) or else the system; a command
//! that only reads refuses `--as`.

use rusqlite::Connection;
use serde_json::json;

use super::args::*;
use super::print;
use crate::access::keys::{self, KeyInput, NewKey};
use crate::access::links;
use crate::access::people::{self, Capability};
use crate::books::audit::{self, Actor};
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

/// Who a console act in `company_id` is recorded as: the person `--as`
/// names, else the system.
///
/// Fails with `Refused` naming `as` when `--as` names no enabled person of
/// the company or one whose role may not do `what`.
fn actor(
    conn: &Connection,
    acting: Option<&str>,
    company_id: &str,
    what: Capability,
) -> Result<Actor> {
    match acting {
        Some(email) => people::acting(conn, company_id, email, what),
        None => Ok(Actor::System),
    }
}

/// Refuses `--as` on a command that is no act within one company.
///
/// Fails with `Invalid` naming `as`.
pub fn no_actor(acting: Option<&str>, why: &str) -> Result<()> {
    match acting {
        Some(_) => Err(Error::invalid("as", format!("names who acts, but {why}"))),
        None => Ok(()),
    }
}

/// Records a company-wide act (settings, keys, people) in the company's
/// live books' audit.
fn record_company_act(
    tx: &Tx,
    company_id: &str,
    actor: &Actor,
    act: &str,
    subject: &str,
) -> Result<()> {
    let tenant = Tenant::new(company_id, Environment::Production);
    audit::record(tx, &tenant, actor, act, subject)
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

/// `company create | show | set | plan | workflow`
pub fn company(db: &Db, cmd: &CompanyCommand, acting: Option<&str>) -> Result<()> {
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
            no_actor(acting, "a new company has no people yet")?;
            db.write(|tx| company::create(tx, new))?
        }
        CompanyCommand::Show { company: id } => {
            no_actor(acting, "`company show` only reads")?;
            db.read(|conn| company::get(conn, id))?
        }
        CompanyCommand::Set {
            company: id,
            particulars,
            payment_days,
            clear,
        } => {
            let input = particulars.input(clear)?;
            let days = match (payment_days, clear.contains(&CompanyClear::PaymentDays)) {
                (Some(_), true) => {
                    return Err(Error::invalid(
                        "paymentDays",
                        "is given and cleared at once; do one or the other",
                    ))
                }
                (Some(days), false) => Some(Some(*days)),
                (None, true) => Some(None),
                (None, false) => None,
            };
            db.write(|tx| {
                let current = company::get(tx, id)?;
                let actor = actor(tx, acting, id, Capability::ManageSettings)?;
                let change = ParticularsChange::check(input, &current.country)?;
                let mut company = current;
                if !change.is_empty() {
                    company = company::set_particulars(tx, id, change)?;
                    record_company_act(tx, id, &actor, "company.changed", id)?;
                }
                if let Some(days) = days {
                    company = company::set_payment_days(tx, id, days)?;
                    record_company_act(tx, id, &actor, "company.payment_days_changed", id)?;
                }
                Ok(company)
            })?
        }
        CompanyCommand::Plan { company: id, plan } => db.write(|tx| {
            let actor = actor(
                tx,
                acting,
                &company::get(tx, id)?.id,
                Capability::ManageSettings,
            )?;
            let company = company::set_plan(tx, id, plan)?;
            record_company_act(tx, id, &actor, "company.plan_changed", id)?;
            Ok(company)
        })?,
        CompanyCommand::Workflow {
            company: id,
            stages,
        } => db.write(|tx| {
            let actor = actor(
                tx,
                acting,
                &company::get(tx, id)?.id,
                Capability::ManageSettings,
            )?;
            let company = company::set_workflow(tx, id, stages)?;
            record_company_act(tx, id, &actor, "company.workflow_changed", id)?;
            Ok(company)
        })?,
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

/// Records an act on a person in every company they belong to (an act
/// of the operator across kontor).
fn record_everywhere(tx: &Tx, user_id: &str, act: &str) -> Result<()> {
    for company_id in people::company_ids(tx, user_id)? {
        record_company_act(tx, &company_id, &Actor::System, act, user_id)?;
    }
    Ok(())
}

/// `user create | list | disable | enable | role | password | reset`
pub fn user(db: &Db, cmd: &UserCommand, acting: Option<&str>) -> Result<()> {
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
            print(&db.write(|tx| {
                company::get(tx, company)?;
                let actor = actor(tx, acting, company, Capability::ManageUsers)?;
                let member = people::add(tx, &new)?;
                record_company_act(tx, company, &actor, "user.added", &member.id)?;
                Ok(member)
            })?);
        }
        UserCommand::List { company } => {
            no_actor(acting, "`user list` only reads")?;
            print(&db.read(|conn| people::list(conn, company))?)
        }
        UserCommand::Disable {
            email,
            company: Some(company),
        } => print(&db.write(|tx| {
            company::get(tx, company)?;
            let actor = actor(tx, acting, company, Capability::ManageUsers)?;
            let member = people::member_by_email(tx, company, email)?;
            let member = people::disable_in(tx, company, &member.id)?;
            record_company_act(tx, company, &actor, "user.disabled", &member.id)?;
            Ok(member)
        })?),
        UserCommand::Disable {
            email,
            company: None,
        } => {
            no_actor(
                acting,
                "`user disable` without --company acts across kontor; name the company",
            )?;
            let person = db.write(|tx| {
                let person = people::disable(tx, email)?;
                record_everywhere(tx, &person.id, "user.disabled")?;
                Ok(person)
            })?;
            print(&json!({ "id": person.id, "email": person.email, "disabled": true }));
        }
        UserCommand::Enable { email, company } => print(&db.write(|tx| {
            company::get(tx, company)?;
            let actor = actor(tx, acting, company, Capability::ManageUsers)?;
            let member = people::member_by_email(tx, company, email)?;
            let member = people::enable_in(tx, company, &member.id)?;
            record_company_act(tx, company, &actor, "user.enabled", &member.id)?;
            Ok(member)
        })?),
        UserCommand::Role {
            company,
            email,
            role,
        } => {
            let role = people::Role::read(role)?;
            print(&db.write(|tx| {
                company::get(tx, company)?;
                let actor = actor(tx, acting, company, Capability::ManageUsers)?;
                let member = people::member_by_email(tx, company, email)?;
                let member = people::set_role(tx, company, &member.id, role)?;
                record_company_act(tx, company, &actor, "user.role_changed", &member.id)?;
                Ok(member)
            })?)
        }
        UserCommand::Password { email, .. } => {
            no_actor(
                acting,
                "`user password` acts across kontor; use `user reset --company` to act as an owner",
            )?;
            let password = password_from_stdin()?;
            let person = db.write(|tx| {
                let person = people::set_password(tx, email, &password)?;
                record_everywhere(tx, &person.id, "user.password_set")?;
                Ok(person)
            })?;
            print(&json!({ "id": person.id, "email": person.email, "passwordChanged": true }));
        }
        UserCommand::Reset {
            company,
            email,
            public_url,
        } => {
            let base = match public_url {
                Some(url) => Some(crate::http::screens::origin_of(url).ok_or_else(|| {
                    Error::invalid(
                        "publicUrl",
                        "is not an address such as https://books.example.com",
                    )
                })?),
                None => None,
            };
            let made = db.write(|tx| {
                company::get(tx, company)?;
                let actor = actor(tx, acting, company, Capability::ManageUsers)?;
                let member = people::member_by_email(tx, company, email)?;
                let made = links::reset(tx, company, &member.id, &actor, jiff::Timestamp::now())?;
                record_company_act(tx, company, &actor, "user.reset_link_made", &member.id)?;
                Ok(made)
            })?;
            let path = crate::http::screens::link_path(made.kind, &made.token);
            let mut out = json!({
                "email": made.email,
                "path": path,
                "expiresAt": made.expires_at,
            });
            if let Some(base) = base {
                out["url"] = json!(format!("{base}{path}"));
            }
            print(&out);
        }
    }
    Ok(())
}

/// `key create | list | revoke`
pub fn key(db: &Db, cmd: &KeyCommand, acting: Option<&str>) -> Result<()> {
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
            db.write(|tx| {
                company::get(tx, company)?;
                let actor = actor(tx, acting, company, Capability::ManageDevelopers)?;
                let key = keys::create(tx, new)?;
                let id = key["id"].as_str().unwrap_or_default();
                record_company_act(tx, company, &actor, "key.created", id)?;
                Ok(key)
            })?
        }
        KeyCommand::List { company } => {
            no_actor(acting, "`key list` only reads")?;
            db.read(|conn| keys::list(conn, company))?
        }
        KeyCommand::Revoke { key } => db.write(|tx| {
            let revoked = keys::revoke(tx, key)?;
            let company = revoked["companyId"].as_str().unwrap_or_default();
            let actor = actor(tx, acting, company, Capability::ManageDevelopers)?;
            record_company_act(tx, company, &actor, "key.revoked", key)?;
            Ok(revoked)
        })?,
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

/// The acts on the books; each is one transaction, with its audit row.
pub fn act(db: &Db, command: &Command, acting: Option<&str>) -> Result<()> {
    // Records `act` on `subject` in the tenant's audit, as the person who acts.
    let done = |tx: &Tx, t: &Tenant, what: Capability, act: &str, subject: &str| -> Result<()> {
        let actor = actor(tx, acting, &t.company_id, what)?;
        audit::record(tx, t, &actor, act, subject)
    };
    let acts =
        |tx: &Tx, t: &Tenant, act: &str, subject: &str| done(tx, t, Capability::Act, act, subject);
    match command {
        Command::Customer(CustomerCommand::Terms {
            customer,
            payment_days,
            mode,
        }) => print(&db.write(|tx| {
            let t = company::owner(tx, Owned::Customer, customer, mode.environment())?;
            let changed = customers::set_terms(tx, &t, customer, *payment_days)?;
            acts(tx, &t, "customer.changed", customer)?;
            Ok(changed)
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
                let changed = customers::change(tx, &t, customer, change)?;
                acts(tx, &t, "customer.changed", customer)?;
                Ok(changed)
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
                // Without a change, `draft set` only shows the draft.
                if !change.is_empty() {
                    drafts::set_references(tx, &t, draft, change)?;
                    acts(tx, &t, "draft.references.set", draft)?;
                }
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
                acts(tx, &t, "draft.created", &id)?;
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
                acts(tx, &t, "draft.line.added", draft)?;
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
                acts(tx, &t, "draft.issued", draft)?;
                acts(tx, &t, "invoice.issued", &id)?;
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
                acts(tx, &t, "payment.recorded", &invoice_id)?;
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
                acts(tx, &t, "invoice.cancelled", &original)?;
                acts(tx, &t, "correction.issued", &correction)?;
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
            no_actor(acting, "`invoice document` only reads")?;
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
                acts(tx, &t, "bill.recorded", &id)?;
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
                acts(tx, &t, "bill.paid", purchase)?;
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
                acts(tx, &t, "bill.credit_applied", bill)?;
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
            let closed = ledger::close(tx, &t, through)?;
            acts(tx, &t, "books.closed", through)?;
            Ok(closed)
        })?),
        Command::Books(BooksCommand::TrialBalance {
            company,
            as_of,
            mode,
        }) => print(&db.read(|conn| {
            no_actor(acting, "`books trial-balance` only reads")?;
            let t = company::tenant(conn, company, mode.environment())?;
            ledger::trial_balance(conn, &t, as_of.as_deref())
        })?),
        Command::Webhook(WebhookCommand::Deliveries {
            company,
            endpoint,
            page,
            mode,
        }) => print(&db.read(|conn| {
            no_actor(acting, "`webhook deliveries` only reads")?;
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
                done(
                    tx,
                    &t,
                    Capability::ManageDevelopers,
                    "webhook.redelivered",
                    &id,
                )?;
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
