//! The VAT register at issue: before the transaction, the
//! register (`outbox::vat_register`) is asked about the VAT id of the
//! draft's customer, with the seller's own VAT id as requester (`ask`);
//! the issue then refuses an id the register says is not valid, and keeps
//! any other answer with the invoice (`keep`): valid with the name and
//! address as registered and the consultation number, "not reachable"
//! with the reason, or "not asked" when the register is off. The invoice's
//! page and the console show it (`of_invoice`).

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company;
use crate::books::customers;
use crate::books::drafts;
use crate::error::Result;
use crate::outbox::vat_register::{self, Answer, Question, Register};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The register's answer about one VAT id, on its way to an issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub vat_id: String,
    pub answer: Answer,
    pub at: String,
}

/// Asks `register` about the VAT id of the customer of the draft
/// `draft_id`; none when the customer has no VAT id of an EU member state
/// or Northern Ireland. A read: call it before the transaction.
///
/// Fails with `NotFound` for a draft the tenant does not have.
pub fn ask(
    conn: &Connection,
    tenant: &Tenant,
    draft_id: &str,
    register: &Register,
) -> Result<Option<Asked>> {
    let draft = drafts::get(conn, tenant, draft_id)?;
    let customer = customers::get(conn, tenant, &draft.customer_id)?;
    let Some(vat_id) = customer
        .vat_id
        .clone()
        .filter(|v| vat_register::in_register(v))
    else {
        return Ok(None);
    };
    let company = company::get(conn, &tenant.company_id)?;
    let question = Question {
        vat_id: vat_id.clone(),
        requester: company.particulars.vat_id.clone(),
        name: customer.name.clone(),
        city: customer.city.clone(),
        postal_code: Some(customer.postal_code.clone()),
        street: Some(customer.street.clone()),
    };
    let answer = register.ask(&question, company.today());
    Ok(Some(Asked {
        vat_id,
        answer,
        at: clock::now(),
    }))
}

/// The sentence refusing an issue, when the register says the id is not valid.
pub(crate) fn refusal(asked: &Asked) -> Option<String> {
    match &asked.answer {
        Answer::Invalid { register, reason } => Some(format!(
            "The VAT register ({}) answers that the customer's VAT id {} is not valid ({reason}); correct the customer's VAT id or ask the customer.",
            register.as_str(),
            asked.vat_id
        )),
        _ => None,
    }
}

/// Keeps the register's answer with the invoice `invoice_id`.
///
/// Fails only on a storage error.
pub(crate) fn keep(tx: &Tx, tenant: &Tenant, invoice_id: &str, asked: &Asked) -> Result<()> {
    let (register, outcome, name, address, consultation, requested_at, detail) = match &asked.answer
    {
        Answer::Valid {
            register,
            name,
            address,
            consultation,
            requested_at,
            detail,
        } => (
            register.as_str(),
            "VALID",
            name.clone(),
            address.clone(),
            consultation.clone(),
            if requested_at.is_empty() {
                asked.at.clone()
            } else {
                requested_at.clone()
            },
            detail.clone(),
        ),
        Answer::Unreachable { register, reason } => (
            register.as_str(),
            "UNREACHABLE",
            None,
            None,
            None,
            asked.at.clone(),
            Some(reason.clone()),
        ),
        Answer::Off => ("OFF", "OFF", None, None, None, asked.at.clone(), None),
        // An invalid id refused the issue; nothing to keep.
        Answer::Invalid { .. } => return Ok(()),
    };
    tx.execute(
        "INSERT INTO vat_checks (invoice_id, company_id, environment, vat_id, register, outcome, name, address,
             consultation, requested_at, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            invoice_id,
            tenant.company_id,
            tenant.environment,
            asked.vat_id,
            register,
            outcome,
            name,
            address,
            consultation,
            requested_at,
            detail
        ],
    )?;
    Ok(())
}

/// What the register said at issue, as the invoice shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct VatCheck {
    pub vat_id: String,
    /// `VIES`, `EVATR`, or `OFF` (not asked).
    pub register: String,
    /// `VALID`, `UNREACHABLE` (register not reachable) or `OFF` (not asked).
    pub outcome: String,
    /// The name and address as registered, when the register gives them.
    pub name: Option<String>,
    pub address: Option<String>,
    /// The register's consultation number (VIES `requestIdentifier`).
    pub consultation_number: Option<String>,
    pub requested_at: String,
    /// Why the register was not reachable, or eVatR's per-field results.
    pub detail: Option<String>,
}

impl VatCheck {
    /// Whether a register was asked (it was off: nothing was).
    pub fn asked(&self) -> bool {
        self.outcome != "OFF"
    }

    /// The answer in a few words for a person.
    pub fn summary(&self, lang: crate::rules::locale::Lang) -> String {
        match self.outcome.as_str() {
            "VALID" => lang.pick("valid", "gültig").to_string(),
            "UNREACHABLE" => lang
                .pick("register not reachable", "Register nicht erreichbar")
                .to_string(),
            _ => lang
                .pick(
                    "not asked: the VAT register was switched off at issue",
                    "nicht abgefragt: die Abfrage war bei Ausstellung abgeschaltet",
                )
                .to_string(),
        }
    }
}

/// The register's answer kept with the invoice `invoice_id`, if any.
///
/// Fails only on a storage error.
pub fn of_invoice(
    conn: &Connection,
    tenant: &Tenant,
    invoice_id: &str,
) -> Result<Option<VatCheck>> {
    Ok(conn
        .prepare_cached(
            "SELECT vat_id, register, outcome, name, address, consultation, requested_at, detail
             FROM vat_checks WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(
            params![invoice_id, tenant.company_id, tenant.environment],
            |r| {
                Ok(VatCheck {
                    vat_id: r.get(0)?,
                    register: r.get(1)?,
                    outcome: r.get(2)?,
                    name: r.get(3)?,
                    address: r.get(4)?,
                    consultation_number: r.get(5)?,
                    requested_at: r.get(6)?,
                    detail: r.get(7)?,
                })
            },
        )
        .optional()?)
}
