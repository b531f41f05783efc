//! `kontor company create | show | set | plan | workflow` (and `mail`,
//! `mail-text`, in `sending`): a company, its
//! seller's particulars, default payment days, plan and workflow. Each prints
//! the company with its particulars.

use crate::access::people::Capability;
use crate::books::audit::Actor;
use crate::books::company::{self, Company, CompanyInput, NewCompany};
use crate::books::export::numbers;
use crate::books::export::settings::{self, SettingsChange, SettingsInput};
use crate::books::particulars::{ParticularsChange, ParticularsInput};
use crate::books::tax_methods::{self, MethodsInput};
use crate::books::tenancy;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::acts::sending;
use crate::console::args::{
    CompanyClear, CompanyCommand, CompanyCreateArgs, DatevArgs, ParticularsArgs, TaxMethodArgs,
};
use crate::console::options::patch;
use crate::error::{Error, Result, Violations};
use crate::store::db::{Db, Tx};
use crate::store::sealed::SealingKey;
use crate::store::tenant::Tenant;

/// Runs a `company` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not change the company's settings.
pub fn run(
    db: &Db,
    cmd: &CompanyCommand,
    acting: Option<&str>,
    key: &dyn Fn() -> Result<SealingKey>,
) -> Result<()> {
    let mut warning = None;
    let company = match cmd {
        CompanyCommand::Mail(args) => return sending::mail(db, &key()?, args, acting),
        CompanyCommand::MailText(args) => return sending::mail_text(db, args, acting),
        CompanyCommand::Create(args) => create(db, args, acting)?,
        CompanyCommand::Show { company: id } => {
            no_actor(acting, "`company show` only reads")?;
            db.read(|conn| company::get(conn, id))?
        }
        CompanyCommand::Set {
            company: id,
            particulars,
            payment_days,
            datev,
            tax,
            clear,
        } => {
            let (company, said) = set(
                db,
                acting,
                id,
                particulars,
                *payment_days,
                (datev, tax),
                clear,
            )?;
            warning = said;
            company
        }
        CompanyCommand::AccountNumber {
            company: id,
            partner,
            side,
            number,
            mode,
        } => {
            let side = numbers::PartnerRole::parse("side", side)?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, id, mode.environment())?;
                let actor = actor(tx, acting, id, Capability::ManageSettings)?;
                numbers::change(tx, &t, &actor, partner, side, *number)
            })?);
            return Ok(());
        }
        CompanyCommand::AccountNumbers { company: id, mode } => {
            no_actor(acting, "`company account-numbers` only reads")?;
            print(&db.read(|conn| {
                let t = tenancy::tenant(conn, id, mode.environment())?;
                numbers::list(conn, &t)
            })?);
            return Ok(());
        }
        CompanyCommand::Plan { company: id, plan } => {
            change_settings(db, acting, id, |tx, books, actor| {
                company::set_plan(tx, books, actor, plan)
            })?
        }
        CompanyCommand::Workflow {
            company: id,
            stages,
        } => change_settings(db, acting, id, |tx, books, actor| {
            company::set_workflow(tx, books, actor, stages)
        })?,
    };
    let (settings, methods, history) = db.read(|conn| {
        Ok((
            settings::get(conn, &company.id)?,
            tax_methods::on(conn, &company.id, company.today())?,
            tax_methods::history(conn, &company.id)?,
        ))
    })?;
    let mut shown = serde_json::to_value(company.view()).unwrap_or_default();
    if let Some(map) = shown.as_object_mut() {
        map.insert(
            "datev".into(),
            serde_json::to_value(&settings).unwrap_or_default(),
        );
        map.insert(
            "taxMethods".into(),
            serde_json::json!({ "today": methods, "changes": history }),
        );
        if let Some(warning) = warning {
            map.insert("warning".into(), warning.into());
        }
    }
    print(&shown);
    Ok(())
}

/// `company create`: a new company (no one acts for it yet).
fn create(db: &Db, args: &CompanyCreateArgs, acting: Option<&str>) -> Result<Company> {
    let new = NewCompany::check(CompanyInput {
        name: Some(args.name.clone()),
        country: Some(args.country.clone()),
        currency: Some(args.currency.clone()),
        plan: args.plan.clone(),
        invoice_prefix: args.invoice_prefix.clone(),
        payment_days: args.payment_days,
        timezone: args.timezone.clone(),
        particulars: args.particulars.input(&[])?,
    })?;
    no_actor(acting, "a new company has no people yet")?;
    db.write(|tx| company::create(tx, new))
}

/// `company set`: the particulars, default payment days, DATEV settings and
/// tax methods given, each change recorded as its own act; with a warning
/// the tax methods' change gave.
fn set(
    db: &Db,
    acting: Option<&str>,
    id: &str,
    particulars: &ParticularsArgs,
    payment_days: Option<i64>,
    (datev, tax): (&DatevArgs, &TaxMethodArgs),
    clear: &[CompanyClear],
) -> Result<(Company, Option<String>)> {
    let input = particulars.input(clear)?;
    let methods = MethodsInput {
        vat_method: tax.vat_method.clone(),
        ist_reason: tax.ist_reason.clone(),
        profit_method: tax.profit_method.clone(),
        return_period: tax.vat_period.clone(),
        extension: tax.vat_extension.clone(),
        from: tax.from.clone(),
    };
    let datev = SettingsChange::check(datev.input(clear)?)?;
    let days = match (payment_days, clear.contains(&CompanyClear::PaymentDays)) {
        (Some(_), true) => {
            return Err(Error::invalid(
                "paymentDays",
                "is given and cleared at once; do one or the other",
            ))
        }
        (Some(days), false) => Some(Some(days)),
        (None, true) => Some(None),
        (None, false) => None,
    };
    db.write(|tx| {
        let current = company::get(tx, id)?;
        let actor = actor(tx, acting, id, Capability::ManageSettings)?;
        let change = ParticularsChange::check(input, &current.country)?;
        let books = company_books(id);
        let mut company = current;
        if !change.is_empty() {
            company = company::set_particulars(tx, &books, &actor, change)?;
        }
        if let Some(days) = days {
            company = company::set_payment_days(tx, &books, &actor, days)?;
        }
        if !datev.is_empty() {
            settings::set(tx, &books, &actor, datev)?;
        }
        let mut warning = None;
        if !methods.is_empty() {
            warning = tax_methods::set(tx, &books, &actor, &company, &methods)?.warning;
        }
        Ok((company, warning))
    })
}

/// One change of a company's settings (`plan`, `workflow`) by a person who
/// may change them (or the system), in the company's live books.
fn change_settings(
    db: &Db,
    acting: Option<&str>,
    id: &str,
    change: impl FnOnce(&Tx, &Tenant, &Actor) -> Result<Company>,
) -> Result<Company> {
    db.write(|tx| {
        let company_id = company::get(tx, id)?.id;
        let actor = actor(tx, acting, &company_id, Capability::ManageSettings)?;
        change(tx, &company_books(&company_id), &actor)
    })
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
            legal_form: p("legalForm", &self.legal_form, CompanyClear::LegalForm),
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

impl DatevArgs {
    /// The DATEV settings as given, the numbers named in `clear` cleared.
    ///
    /// Fails with `Invalid` for a number both given and cleared.
    fn input(&self, clear: &[CompanyClear]) -> Result<SettingsInput> {
        let mut v = Violations::new();
        let input = SettingsInput {
            chart: self.chart.clone(),
            datev_adviser: patch(
                &mut v,
                "datevAdviser",
                &self.datev_adviser,
                clear.contains(&CompanyClear::DatevAdviser),
            ),
            datev_client: patch(
                &mut v,
                "datevClient",
                &self.datev_client,
                clear.contains(&CompanyClear::DatevClient),
            ),
            fiscal_year_start: self.fiscal_year_start.clone(),
        };
        v.finish()?;
        Ok(input)
    }
}
