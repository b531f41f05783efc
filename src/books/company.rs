//! Companies: their master data, plan, time zone and workflow, and the
//! seller's particulars they keep (`books::particulars`), created and
//! changed only by a person (the console or the owner's settings screen).
//! The API reads a company through its key and never changes it. This
//! module owns the plan check's source and the workflow's stage keys.

use jiff::tz::TimeZone;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::particulars::{Particulars, ParticularsChange, ParticularsInput};
use crate::books::tax_methods::methods::EuerAllowed;
use crate::error::said::{self, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::iso::{CountryCode, Currency};
use crate::rules::text::{self};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// A company's plan. Only Enterprise includes the API, webhooks and the agent server.
    pub enum Plan {
        Starter = "STARTER",
        Professional = "PROFESSIONAL",
        Enterprise = "ENTERPRISE",
    }
}

impl Plan {
    /// Reads a plan name in any case.
    ///
    /// Fails with `Invalid` naming the field `plan` for an unknown plan.
    pub fn read(text: &str) -> Result<Plan> {
        Plan::parse(&text.trim().to_ascii_uppercase())
            .ok_or_else(|| Error::invalid("plan", Plan::not_one_of(text)))
    }

    /// Whether this plan includes the API, the webhooks and the agent server.
    pub fn includes_api(self) -> bool {
        self == Plan::Enterprise
    }
}

/// A stage key of a workflow: 1 to 40 of `A-Z`, `0-9`, `_`, starting with a letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageKey(String);

impl StageKey {
    /// Fails with `Invalid` naming the field `stages` when the text is not a well-formed stage key.
    pub fn parse(text: &str) -> Result<StageKey> {
        let ok = (1..=40).contains(&text.len())
            && text.starts_with(|c: char| c.is_ascii_uppercase())
            && text
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if ok {
            Ok(StageKey(text.to_string()))
        } else {
            Err(Error::invalid(
                "stages",
                Said::from(said::Company::NotStageKey {
                    got: text.to_string(),
                }),
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The workflow every new company starts with.
pub const DEFAULT_WORKFLOW: [&str; 3] = ["NEU", "IN_ARBEIT", "ERLEDIGT"];

/// A company as the books need it.
#[derive(Debug, Clone)]
pub struct Company {
    pub id: String,
    pub name: String,
    pub country: CountryCode,
    /// The book currency.
    pub currency: Currency,
    pub plan: Plan,
    pub invoice_prefix: String,
    pub payment_days: Option<i64>,
    pub timezone: String,
    zone: TimeZone,
    pub workflow: Vec<String>,
    pub created_at: String,
    /// The seller's particulars, as far as a person has set them.
    pub particulars: Particulars,
}

impl Company {
    /// The seller's name on a document: the registered name, else the company's name.
    pub fn seller_name(&self) -> &str {
        self.particulars.legal_name.as_deref().unwrap_or(&self.name)
    }
}

/// A company as the console prints it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyView<'a> {
    id: &'a str,
    name: &'a str,
    country: &'a CountryCode,
    currency: &'a Currency,
    plan: Plan,
    invoice_prefix: &'a str,
    payment_days: Option<i64>,
    timezone: &'a str,
    workflow: &'a [String],
    created_at: &'a str,
    particulars: &'a Particulars,
}

/// What a person gives to create a company, as given.
#[derive(Debug, Default, Clone)]
pub struct CompanyInput {
    pub name: Option<String>,
    pub country: Option<String>,
    pub currency: Option<String>,
    pub plan: Option<String>,
    pub invoice_prefix: Option<String>,
    pub payment_days: Option<i64>,
    pub timezone: Option<String>,
    /// The seller's particulars, those given (a clear means nothing here).
    pub particulars: ParticularsInput,
}

/// A checked new company.
#[derive(Debug, Clone)]
pub struct NewCompany {
    pub name: String,
    pub country: CountryCode,
    pub currency: Currency,
    pub plan: Plan,
    pub invoice_prefix: String,
    pub payment_days: Option<i64>,
    pub timezone: String,
    pub particulars: ParticularsChange,
}

/// The time zone a company of this country gets unless it names one.
fn default_timezone(country: &str) -> &'static str {
    match country {
        "DE" => "Europe/Berlin",
        "AT" => "Europe/Vienna",
        "CH" => "Europe/Zurich",
        "FR" => "Europe/Paris",
        "IT" => "Europe/Rome",
        "ES" => "Europe/Madrid",
        "NL" => "Europe/Amsterdam",
        "BE" => "Europe/Brussels",
        "LU" => "Europe/Luxembourg",
        "GB" => "Europe/London",
        "IE" => "Europe/Dublin",
        "PL" => "Europe/Warsaw",
        "PT" => "Europe/Lisbon",
        "SE" => "Europe/Stockholm",
        "DK" => "Europe/Copenhagen",
        "NO" => "Europe/Oslo",
        "FI" => "Europe/Helsinki",
        "CZ" => "Europe/Prague",
        "US" => "America/New_York",
        "JP" => "Asia/Tokyo",
        _ => "UTC",
    }
}

/// Agreed payment days, a company's or a customer's, are 0 to 365.
///
/// Fails with `Invalid` naming the field `paymentDays` outside that range.
pub fn check_payment_days(days: i64) -> Result<i64> {
    if (0..=365).contains(&days) {
        Ok(days)
    } else {
        Err(Error::invalid(
            "paymentDays",
            said::Company::PaymentDaysRange,
        ))
    }
}

impl NewCompany {
    /// Checks a new company: a name of 1–200 characters, an ISO country and
    /// currency, a plan (default STARTER), an invoice prefix of at most 10
    /// letters, digits or '-' (in ES not `R`, the corrections' series),
    /// payment days 0–365, a known time zone (default the country's), and
    /// the particulars as `ParticularsChange::check` checks them.
    ///
    /// Fails with `Invalid` naming every field that is not so, and with
    /// `Refused` for a VAT id that fails its check.
    pub fn check(input: CompanyInput) -> Result<NewCompany> {
        let mut v = Violations::new();
        let name = v.take(text::required("name", input.name.as_deref(), 200))?;
        let country = v.take(match input.country.as_deref() {
            Some(c) => CountryCode::parse("country", c),
            None => Err(Error::invalid("country", Input::Missing)),
        })?;
        let currency = v.take(match input.currency.as_deref() {
            Some(c) => Currency::parse("currency", c),
            None => Err(Error::invalid("currency", Input::Missing)),
        })?;
        let plan = v
            .take(input.plan.as_deref().map_or(Ok(Plan::Starter), Plan::read))?
            .unwrap_or(Plan::Starter);
        let prefix = input.invoice_prefix.unwrap_or_default().trim().to_string();
        if prefix.chars().count() > 10
            || !prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            v.invalid("invoicePrefix", said::Company::PrefixShape);
        }
        if country.as_ref().is_some_and(|c| c.as_str() == "ES") && prefix.eq_ignore_ascii_case("R")
        {
            v.invalid("invoicePrefix", said::Company::PrefixR);
        }
        let payment_days = match input.payment_days {
            Some(days) => v.take(check_payment_days(days))?,
            None => None,
        };
        let timezone = input.timezone.or_else(|| {
            country
                .as_ref()
                .map(|c| default_timezone(c.as_str()).to_string())
        });
        if let Some(zone) = &timezone {
            v.take(clock::zone(zone))?;
        }
        let particulars = match &country {
            Some(country) => v.take(ParticularsChange::check(input.particulars, country))?,
            None => None,
        };
        v.finish()?;
        match (name, country, currency, timezone, particulars) {
            (Some(name), Some(country), Some(currency), Some(timezone), Some(particulars)) => {
                Ok(NewCompany {
                    name,
                    country,
                    currency,
                    plan,
                    invoice_prefix: prefix,
                    payment_days,
                    timezone,
                    particulars,
                })
            }
            _ => Err(Error::internal("a checked company lacks a field")),
        }
    }
}

const COMPANY_COLUMNS: &str =
    "id, name, country, currency, plan, invoice_prefix, payment_days, timezone, workflow, created_at,
     legal_name, street, postal_code, city, vat_id, tax_number, registration, contact_name,
     contact_phone, contact_email, electronic_address, iban, bic, account_holder,
     managing_directors, small_business, legal_form";

fn company_from_row(row: &rusqlite::Row) -> rusqlite::Result<Company> {
    let r = Row::new(row, "companies");
    let Workflow(workflow) = r.get(8)?;
    let Zone(zone) = r.get(7)?;
    Ok(Company {
        id: r.get(0)?,
        name: r.get(1)?,
        country: r.get(2)?,
        currency: r.get(3)?,
        plan: r.get(4)?,
        invoice_prefix: r.get(5)?,
        payment_days: r.get(6)?,
        timezone: r.get(7)?,
        zone,
        workflow,
        created_at: r.get(9)?,
        particulars: Particulars {
            legal_name: r.get(10)?,
            street: r.get(11)?,
            postal_code: r.get(12)?,
            city: r.get(13)?,
            vat_id: r.get(14)?,
            tax_number: r.get(15)?,
            registration: r.get(16)?,
            contact_name: r.get(17)?,
            contact_phone: r.get(18)?,
            contact_email: r.get(19)?,
            electronic_address: r.get(20)?,
            iban: r.get(21)?,
            bic: r.get(22)?,
            account_holder: r.get(23)?,
            managing_directors: r.get(24)?,
            small_business: r.get(25)?,
            legal_form: r.get(26)?,
        },
    })
}

/// A stored workflow: stage keys joined by `,`, at least one. A key that is
/// not one, or none at all, is unreadable.
struct Workflow(Vec<String>);

impl rusqlite::types::FromSql for Workflow {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        value
            .as_str()?
            .split(',')
            .map(|stage| {
                StageKey::parse(stage)
                    .map(|k| k.as_str().to_string())
                    .map_err(|_| {
                        rusqlite::types::FromSqlError::Other(
                            format!("{stage:?} is not a stage key").into(),
                        )
                    })
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(Workflow)
    }
}

/// A stored time zone name, read as the zone it names; a name the database
/// does not know is unreadable.
struct Zone(TimeZone);

impl rusqlite::types::FromSql for Zone {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        TimeZone::get(value.as_str()?)
            .map(Zone)
            .map_err(|e| rusqlite::types::FromSqlError::Other(Box::new(e)))
    }
}

impl Company {
    /// The company as the console prints it.
    pub fn view(&self) -> CompanyView<'_> {
        CompanyView {
            id: &self.id,
            name: &self.name,
            country: &self.country,
            currency: &self.currency,
            plan: self.plan,
            invoice_prefix: &self.invoice_prefix,
            payment_days: self.payment_days,
            timezone: &self.timezone,
            workflow: &self.workflow,
            created_at: &self.created_at,
            particulars: &self.particulars,
        }
    }

    /// The workflow's first stage: where a new transaction starts. (A
    /// workflow has at least one stage: `set_workflow` and the reader see to it.)
    pub fn first_stage(&self) -> &str {
        &self.workflow[0]
    }

    /// The workflow's last stage: where a transaction is done.
    pub fn last_stage(&self) -> &str {
        &self.workflow[self.workflow.len() - 1]
    }

    /// Today's date in the company's time zone.
    pub fn today(&self) -> jiff::civil::Date {
        clock::today_in(&self.zone)
    }

    /// The day a stored instant (`createdAt`, …) falls on in the company's
    /// time zone; `None` for a text that is not an instant.
    pub fn date_of(&self, instant: &str) -> Option<jiff::civil::Date> {
        let at: jiff::Timestamp = instant.parse().ok()?;
        Some(at.to_zoned(self.zone.clone()).date())
    }

    /// Refuses a stage outside the company's workflow.
    ///
    /// Fails with `Refused` naming the field `stage` and the workflow.
    pub fn check_stage(&self, stage: &str) -> Result<()> {
        if self.workflow.iter().any(|s| s == stage) {
            Ok(())
        } else {
            Err(Error::refused_at(
                "stage",
                said::Company::NotInWorkflow {
                    stage: stage.to_string(),
                    workflow: self.workflow.clone(),
                },
            ))
        }
    }
}

/// Creates a company with the default workflow and the particulars given.
///
/// Fails only on a storage error (the input is checked).
pub fn create(tx: &Tx, new: NewCompany) -> Result<Company> {
    let id = ids::new_id("org");
    tx.execute(
        "INSERT INTO companies (id, name, country, currency, plan, invoice_prefix, payment_days, timezone, workflow, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            id,
            new.name,
            new.country,
            new.currency,
            new.plan,
            new.invoice_prefix,
            new.payment_days,
            new.timezone,
            DEFAULT_WORKFLOW.join(","),
            clock::now()
        ],
    )?;
    let particulars = new.particulars.applied_to(&Particulars::default());
    write_particulars(tx, &id, &particulars)?;
    get(tx, &id)
}

/// Changes the seller's particulars of the tenant's company: what the
/// change names is set or cleared, the rest stays. Documents issued before
/// keep what they said. Recorded as `company.changed` by `actor` in the
/// tenant's books.
///
/// Fails with `NotFound` for an unknown company; `Refused` for a legal form
/// that must draw up a balance sheet while the company determines its profit
/// by the EÜR (today or from a day set for later).
pub fn set_particulars(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    change: ParticularsChange,
) -> Result<Company> {
    let id = tenant.company_id.as_str();
    let company = get(tx, id)?;
    let particulars = change.applied_to(&company.particulars);
    if let Some(form) = particulars
        .legal_form
        .filter(|f| f.euer() == EuerAllowed::No)
    {
        // The methods that hold today and any set for later (`tax_methods`).
        let euer: bool = tx
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM tax_methods
                 WHERE company_id = ?1 AND profit_method = 'EUER'
                   AND valid_from >= COALESCE((SELECT MAX(valid_from) FROM tax_methods
                                               WHERE company_id = ?1 AND valid_from <= ?2), ''))",
            )?
            .query_row(params![id, company.today()], |r| r.get(0))?;
        if euer {
            return Err(Error::refused(said::Methods::FormChangeWhileEuer {
                form: form.name().to_string(),
            }));
        }
    }
    write_particulars(tx, id, &particulars)?;
    audit::record(tx, tenant, actor, Act::CompanyChanged, id)?;
    get(tx, id)
}

fn write_particulars(tx: &Tx, id: &str, p: &Particulars) -> Result<()> {
    tx.prepare_cached(
        "UPDATE companies SET legal_name = ?2, street = ?3, postal_code = ?4, city = ?5,
             vat_id = ?6, tax_number = ?7, registration = ?8, contact_name = ?9,
             contact_phone = ?10, contact_email = ?11, electronic_address = ?12, iban = ?13,
             bic = ?14, account_holder = ?15, managing_directors = ?16, small_business = ?17,
             legal_form = ?18
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        p.legal_name,
        p.street,
        p.postal_code,
        p.city,
        p.vat_id,
        p.tax_number,
        p.registration,
        p.contact_name,
        p.contact_phone,
        p.contact_email,
        p.electronic_address,
        p.iban,
        p.bic,
        p.account_holder,
        p.managing_directors,
        p.small_business,
        p.legal_form
    ])?;
    Ok(())
}

/// Reads a company by id.
///
/// Fails with `NotFound` when there is none.
pub fn get(conn: &Connection, id: &str) -> Result<Company> {
    conn.prepare_cached(&format!(
        "SELECT {COMPANY_COLUMNS} FROM companies WHERE id = ?1"
    ))?
    .query_row([id], company_from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Company, id.to_string())))
}

/// Changes the plan of the tenant's company. Recorded as
/// `company.plan_changed` by `actor` in the tenant's books.
///
/// Fails with `Invalid` for an unknown plan and `NotFound` for an unknown company.
pub fn set_plan(tx: &Tx, tenant: &Tenant, actor: &Actor, plan: &str) -> Result<Company> {
    let plan = Plan::read(plan)?;
    set_one(tx, tenant, actor, "plan", &plan, Act::CompanyPlanChanged)
}

/// Sets one column of the tenant's company to `value` and records `act`;
/// returns the company as it is now. The company's setters' one write.
///
/// Fails with `NotFound` for an unknown company.
fn set_one(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    column: &str,
    value: &dyn rusqlite::ToSql,
    act: Act,
) -> Result<Company> {
    let id = tenant.company_id.as_str();
    let changed = tx.execute(
        &format!("UPDATE companies SET {column} = ?2 WHERE id = ?1"),
        params![id, value],
    )?;
    if changed == 0 {
        return Err(Error::not_found(Said::Record(
            Record::Company,
            id.to_string(),
        )));
    }
    audit::record(tx, tenant, actor, act, id)?;
    get(tx, id)
}

/// Sets the default payment days (0–365) of the tenant's company, or clears
/// them so the country's apply; documents issued from now on use them where
/// the customer has no agreed days of their own. Recorded as
/// `company.payment_days_changed` by `actor` in the tenant's books.
///
/// Fails with `Invalid` naming `paymentDays` outside 0–365, and `NotFound`
/// for an unknown company.
pub fn set_payment_days(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    days: Option<i64>,
) -> Result<Company> {
    let days = days.map(check_payment_days).transpose()?;
    set_one(
        tx,
        tenant,
        actor,
        "payment_days",
        &days,
        Act::CompanyPaymentDaysChanged,
    )
}

/// Replaces the workflow of the tenant's company; the first stage is where
/// new transactions start. Transactions already in a stage that is no
/// longer listed keep it. Recorded as `company.workflow_changed` by `actor`
/// in the tenant's books.
///
/// Fails with `Invalid` for no stages, a malformed or repeated stage key,
/// and with `NotFound` for an unknown company.
pub fn set_workflow(tx: &Tx, tenant: &Tenant, actor: &Actor, stages: &[String]) -> Result<Company> {
    if stages.is_empty() || stages.len() > 30 {
        return Err(Error::invalid("stages", said::Company::StageCount));
    }
    let mut keys: Vec<String> = Vec::with_capacity(stages.len());
    for stage in stages {
        let key = StageKey::parse(stage)?;
        if keys.iter().any(|k| k == key.as_str()) {
            return Err(Error::invalid(
                "stages",
                said::Company::StageTwice {
                    stage: key.as_str().to_string(),
                },
            ));
        }
        keys.push(key.as_str().to_string());
    }
    set_one(
        tx,
        tenant,
        actor,
        "workflow",
        &keys.join(","),
        Act::CompanyWorkflowChanged,
    )
}
