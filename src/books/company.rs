//! Companies: their master data, plan, time zone and workflow, created and
//! changed only by the console. The API reads a company through its key and
//! never changes it. This module owns the plan check's source and the
//! workflow's stage keys; it does not know about keys or requests.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::rules::iso::{CountryCode, Currency};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;

/// A company's plan. Only Enterprise includes the API, webhooks and the agent server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Starter,
    Professional,
    Enterprise,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Starter => "STARTER",
            Plan::Professional => "PROFESSIONAL",
            Plan::Enterprise => "ENTERPRISE",
        }
    }

    /// Reads a plan name in any case.
    ///
    /// Fails with `BadRequest` for an unknown plan.
    pub fn parse(text: &str) -> Result<Plan> {
        match text.to_ascii_uppercase().as_str() {
            "STARTER" => Ok(Plan::Starter),
            "PROFESSIONAL" => Ok(Plan::Professional),
            "ENTERPRISE" => Ok(Plan::Enterprise),
            _ => Err(Error::bad_request(format!(
                "{text} is not a plan; use STARTER, PROFESSIONAL or ENTERPRISE."
            ))),
        }
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
    /// Fails with `BadRequest` when the text is not a well-formed stage key.
    pub fn parse(text: &str) -> Result<StageKey> {
        let ok = (1..=40).contains(&text.len())
            && text.starts_with(|c: char| c.is_ascii_uppercase())
            && text
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if ok {
            Ok(StageKey(text.to_string()))
        } else {
            Err(Error::bad_request(format!(
                "{text:?} is not a stage key; use upper-case letters, digits and _ (such as IN_ARBEIT)."
            )))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The workflow every new company starts with.
pub const DEFAULT_WORKFLOW: [&str; 3] = ["NEU", "IN_ARBEIT", "ERLEDIGT"];

/// A company as the domain needs it.
#[derive(Debug, Clone)]
pub struct Company {
    pub id: String,
    pub name: String,
    pub country: String,
    pub currency: String,
    pub plan: Plan,
    pub invoice_prefix: String,
    pub payment_days: Option<i64>,
    pub timezone: String,
    pub workflow: Vec<String>,
    pub created_at: String,
}

/// What `company create` asks for.
pub struct NewCompany {
    pub name: String,
    pub country: CountryCode,
    pub currency: Currency,
    pub plan: Plan,
    pub invoice_prefix: String,
    pub payment_days: Option<i64>,
    pub timezone: Option<String>,
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

const COMPANY_COLUMNS: &str =
    "id, name, country, currency, plan, invoice_prefix, payment_days, timezone, workflow, created_at";

fn company_from_row(row: &rusqlite::Row) -> rusqlite::Result<Company> {
    let plan: String = row.get(4)?;
    let workflow: String = row.get(8)?;
    Ok(Company {
        id: row.get(0)?,
        name: row.get(1)?,
        country: row.get(2)?,
        currency: row.get(3)?,
        plan: Plan::parse(&plan).unwrap_or(Plan::Starter),
        invoice_prefix: row.get(5)?,
        payment_days: row.get(6)?,
        timezone: row.get(7)?,
        workflow: workflow.split(',').map(str::to_string).collect(),
        created_at: row.get(9)?,
    })
}

impl Company {
    /// The company's JSON form as the console prints it.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "name": self.name,
            "country": self.country,
            "currency": self.currency,
            "plan": self.plan.as_str(),
            "invoicePrefix": self.invoice_prefix,
            "paymentDays": self.payment_days,
            "timezone": self.timezone,
            "workflow": self.workflow,
            "createdAt": self.created_at,
        })
    }

    /// The workflow's first stage: where a new transaction starts.
    pub fn first_stage(&self) -> &str {
        self.workflow
            .first()
            .map(String::as_str)
            .unwrap_or(DEFAULT_WORKFLOW[0])
    }

    /// Today's date in the company's time zone.
    pub fn today(&self) -> jiff::civil::Date {
        clock::today_in(&self.timezone)
    }
}

/// Agreed payment days, a company's or a customer's, are 0 to 365.
///
/// Fails with `BadRequest` outside that range.
pub fn check_payment_days(days: i64) -> Result<()> {
    if (0..=365).contains(&days) {
        Ok(())
    } else {
        Err(Error::bad_request(
            "Payment days must be between 0 and 365.",
        ))
    }
}

/// Creates a company with the default workflow.
///
/// Fails with `BadRequest` for an empty name, payment days outside 0–365 or an
/// unknown time zone.
pub fn create(tx: &Tx, new: NewCompany) -> Result<Company> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(Error::bad_request(
            "A company needs a name of 1 to 200 characters.",
        ));
    }
    if let Some(days) = new.payment_days {
        check_payment_days(days)?;
    }
    let timezone = new
        .timezone
        .unwrap_or_else(|| default_timezone(new.country.as_str()).to_string());
    clock::zone(&timezone)?;
    let prefix = new.invoice_prefix.trim();
    if prefix.chars().count() > 10
        || !prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return Err(Error::bad_request(
            "An invoice prefix has at most 10 letters, digits or '-'.",
        ));
    }
    if new.country.as_str() == "ES" && prefix.eq_ignore_ascii_case("R") {
        return Err(Error::bad_request(
            "In Spain the series R is the corrections' own; choose another invoice prefix.",
        ));
    }
    let id = ids::new_id("org");
    tx.execute(
        "INSERT INTO companies (id, name, country, currency, plan, invoice_prefix, payment_days, timezone, workflow, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            id,
            name,
            new.country.as_str(),
            new.currency.as_str(),
            new.plan.as_str(),
            prefix,
            new.payment_days,
            timezone,
            DEFAULT_WORKFLOW.join(","),
            clock::now()
        ],
    )?;
    get(tx, &id)
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
    .ok_or_else(|| Error::not_found(format!("Company {id}")))
}

/// Changes a company's plan.
///
/// Fails with `NotFound` for an unknown company.
pub fn set_plan(tx: &Tx, id: &str, plan: Plan) -> Result<Company> {
    let changed = tx.execute(
        "UPDATE companies SET plan = ?2 WHERE id = ?1",
        params![id, plan.as_str()],
    )?;
    if changed == 0 {
        return Err(Error::not_found(format!("Company {id}")));
    }
    get(tx, id)
}

/// Replaces a company's workflow; the first stage is where new transactions start.
/// Transactions already in a stage that is no longer listed keep it.
///
/// Fails with `BadRequest` for no stages, a malformed or repeated stage key,
/// and with `NotFound` for an unknown company.
pub fn set_workflow(tx: &Tx, id: &str, stages: &[String]) -> Result<Company> {
    if stages.is_empty() || stages.len() > 30 {
        return Err(Error::bad_request("A workflow needs 1 to 30 stages."));
    }
    let mut keys: Vec<String> = Vec::with_capacity(stages.len());
    for stage in stages {
        let key = StageKey::parse(stage)?;
        if keys.iter().any(|k| k == key.as_str()) {
            return Err(Error::bad_request(format!(
                "The stage {} is listed twice.",
                key.as_str()
            )));
        }
        keys.push(key.as_str().to_string());
    }
    let changed = tx.execute(
        "UPDATE companies SET workflow = ?2 WHERE id = ?1",
        params![id, keys.join(",")],
    )?;
    if changed == 0 {
        return Err(Error::not_found(format!("Company {id}")));
    }
    get(tx, id)
}
