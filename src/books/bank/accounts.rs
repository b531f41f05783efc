//! The company's bank accounts: each with its IBAN (or, for an account no
//! IBAN expresses, its bank code and account number), BIC, name and
//! currency, and each its own ledger detail under `bank` (the account's id),
//! so the trial balance shows them one by one and the balance sheet sums
//! them. A statement belongs to the account it names, by IBAN or by the bank
//! code and account number a German IBAN holds.

use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::particulars;
use crate::error::said::{Bank, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::bank::{AccountId, Bic, Iban};
use crate::rules::iso::Currency;
use crate::rules::text::{self, Patch};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};

/// Longest name of an account.
pub const MAX_NAME: usize = 100;

/// A bank account as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct BankAccountInput {
    pub iban: Option<String>,
    /// `BANKCODE/NUMBER`, for an account no IBAN expresses.
    pub account: Option<String>,
    pub bic: Option<String>,
    pub name: Option<String>,
    /// Default: the company's currency.
    pub currency: Option<String>,
}

/// A checked bank account, not yet stored.
#[derive(Debug, Clone)]
pub struct NewBankAccount {
    iban: Option<Iban>,
    national: Option<(String, String)>,
    bic: Option<Bic>,
    name: Option<String>,
    currency: Option<Currency>,
}

impl NewBankAccount {
    /// Checks an account: exactly one of an IBAN or a bank code and account
    /// number (digits, `/` between), a BIC, a name of at most 100
    /// characters, an ISO 4217 currency.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed.
    pub fn check(input: BankAccountInput) -> Result<NewBankAccount> {
        let mut v = Violations::new();
        let iban = match input.iban.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(t) => v.take(Iban::parse("iban", t))?,
            None => None,
        };
        let national = match input.account.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(t) => match AccountId::read(t) {
                AccountId::National { bank_code, number } => Some((bank_code, number)),
                _ => {
                    v.invalid("account", Bank::NotNationalAccount { got: t.to_string() });
                    None
                }
            },
            None => None,
        };
        match (&input.iban, &input.account) {
            (None, None) => v.invalid("iban", Bank::IbanMissing),
            (Some(_), Some(_)) => v.invalid("account", Bank::AccountBesideIban),
            _ => {}
        }
        let bic = match input.bic.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(t) => v.take(Bic::parse("bic", t))?,
            None => None,
        };
        let name = v
            .take(text::optional("name", input.name.as_deref(), MAX_NAME))?
            .flatten();
        let currency = match input.currency.as_deref() {
            Some(t) => v.take(Currency::parse("currency", t))?,
            None => None,
        };
        v.finish()?;
        Ok(NewBankAccount {
            iban,
            national,
            bic,
            name,
            currency,
        })
    }
}

/// A bank account of the company.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BankAccount {
    pub id: String,
    pub iban: Option<Iban>,
    pub bank_code: Option<String>,
    pub account_number: Option<String>,
    pub bic: Option<Bic>,
    pub name: String,
    pub currency: Currency,
    pub created_at: String,
}

impl BankAccount {
    /// The account as a statement names it.
    pub fn account_id(&self) -> AccountId {
        match (&self.iban, &self.bank_code, &self.account_number) {
            (Some(iban), _, _) => AccountId::Iban(iban.clone()),
            (None, Some(code), Some(number)) => AccountId::National {
                bank_code: code.clone(),
                number: number.clone(),
            },
            _ => AccountId::Other(self.id.clone()),
        }
    }

    /// The account as a person reads it: the IBAN in groups, else `code/number`.
    pub fn shown(&self) -> String {
        self.account_id().shown()
    }
}

const COLUMNS: &str = "id, iban, bank_code, account_number, bic, name, currency, created_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<BankAccount> {
    let r = Row::new(row, "bank_accounts");
    Ok(BankAccount {
        id: r.get(0)?,
        iban: r.get(1)?,
        bank_code: r.get(2)?,
        account_number: r.get(3)?,
        bic: r.get(4)?,
        name: r.get(5)?,
        currency: r.get(6)?,
        created_at: r.get(7)?,
    })
}

/// Adds a bank account to the company. Its name defaults to the bank
/// account's IBAN (or number), its currency to the company's. Recorded as
/// `bank.account_added`.
///
/// Fails with `Refused` when the company already has the account (the same
/// IBAN, or the same bank code and number).
pub fn add(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    account: NewBankAccount,
) -> Result<BankAccount> {
    let company = company::get(tx, &tenant.company_id)?;
    let company_currency = company.currency.clone();
    let (bank_code, number) = match (&account.iban, &account.national) {
        (Some(iban), _) => iban
            .german_parts()
            .map(|(c, n)| (Some(c.to_string()), Some(n.to_string())))
            .unwrap_or((None, None)),
        (None, Some((c, n))) => (Some(c.clone()), Some(n.clone())),
        (None, None) => (None, None),
    };
    let wanted = match (&account.iban, &bank_code, &number) {
        (Some(iban), _, _) => AccountId::Iban(iban.clone()),
        (None, Some(c), Some(n)) => AccountId::National {
            bank_code: c.clone(),
            number: n.clone(),
        },
        _ => return Err(Error::invalid("iban", Input::Missing)),
    };
    if let Some(known) = find(tx, tenant, &wanted)? {
        return Err(Error::refused_at(
            if account.iban.is_some() {
                "iban"
            } else {
                "account"
            },
            Bank::KnownAccount {
                account: known.shown(),
                id: known.id.clone(),
            },
        ));
    }
    let view = BankAccount {
        id: ids::new_id("bac"),
        name: account.name.clone().unwrap_or_else(|| wanted.shown()),
        iban: account.iban,
        bank_code,
        account_number: number,
        bic: account.bic,
        currency: account.currency.unwrap_or(company_currency),
        created_at: clock::now(),
    };
    tx.prepare_cached(
        "INSERT INTO bank_accounts (id, company_id, environment, iban, bank_code, account_number, bic, name,
             currency, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        view.id,
        tenant.company_id,
        tenant.environment,
        view.iban,
        view.iban.is_none().then_some(&view.bank_code),
        view.iban.is_none().then_some(&view.account_number),
        view.bic,
        view.name,
        view.currency,
        view.created_at
    ])?;
    audit::record(tx, tenant, actor, Act::BankAccountAdded, &view.id)?;
    on_invoices_if_none(tx, tenant, actor, &company, &view)?;
    Ok(view)
}

/// The IBAN on a company's invoices is one of its bank accounts: a company
/// whose particulars name no IBAN yet takes the first account added with
/// one (and its BIC) as the account its invoices name, recorded as a change
/// of its particulars by the same actor. A company that already names one
/// keeps it (adding that IBAN as an account is how a person makes its
/// statements importable); a sandbox account never changes the particulars.
fn on_invoices_if_none(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    company: &company::Company,
    view: &BankAccount,
) -> Result<()> {
    let (Environment::Production, None, Some(iban)) =
        (tenant.environment, &company.particulars.iban, &view.iban)
    else {
        return Ok(());
    };
    let input = particulars::ParticularsInput {
        iban: Patch::Value(iban.as_str().to_string()),
        bic: match &view.bic {
            Some(bic) if company.particulars.bic.is_none() => {
                Patch::Value(bic.as_str().to_string())
            }
            _ => Patch::Absent,
        },
        ..Default::default()
    };
    let change = particulars::ParticularsChange::check(input, &company.country)?;
    company::set_particulars(tx, tenant, actor, change)?;
    Ok(())
}

/// The company's bank accounts, in the order they were added.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant) -> Result<Vec<BankAccount>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bank_accounts WHERE company_id = ?1 AND environment = ?2 ORDER BY seq"
    ))?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The bank account `id` of the tenant.
///
/// Fails with `NotFound` for another company's or an unknown id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<BankAccount> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bank_accounts WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], from_row)
    .map_err(|e| match e {
        rusqlite::Error::QueryReturnedNoRows => {
            Error::not_found(Said::Record(Record::BankAccount, id.to_string()))
        }
        other => other.into(),
    })
}

/// The company's account a statement names, if it has it: by IBAN, or by
/// the bank code and account number (a German IBAN holds both).
///
/// Fails only on a storage error.
pub fn find(
    conn: &Connection,
    tenant: &Tenant,
    account: &AccountId,
) -> Result<Option<BankAccount>> {
    Ok(list(conn, tenant)?.into_iter().find(|a| {
        a.account_id().same_account(account)
            || matches!((&a.bank_code, &a.account_number), (Some(c), Some(n))
                if AccountId::National { bank_code: c.clone(), number: n.clone() }.same_account(account))
    }))
}

/// The company's fee tolerance: how much less than open a payment may be to
/// be called fee-reduced rather than partial (minor units of its currency).
///
/// Fails only on a storage error.
pub fn fee_tolerance(conn: &Connection, company_id: &str) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT fee_tolerance FROM companies WHERE id = ?1")?
        .query_row(params![company_id], |r| r.get(0))?)
}

/// Sets the company's fee tolerance; recorded as
/// `bank.fee_tolerance_changed` in the books `tenant` (the live books for
/// the console, the books viewed on the screens).
///
/// Fails with `Invalid` naming `amount` for a negative amount or one above
/// 10^15.
pub fn set_fee_tolerance(tx: &Tx, tenant: &Tenant, actor: &Actor, minor: i64) -> Result<()> {
    if !(0..=crate::rules::money::MAX_AMOUNT).contains(&minor) {
        return Err(Error::invalid("amount", Bank::ToleranceRange));
    }
    tx.prepare_cached("UPDATE companies SET fee_tolerance = ?2 WHERE id = ?1")?
        .execute(params![tenant.company_id, minor])?;
    audit::record(
        tx,
        tenant,
        actor,
        Act::BankFeeToleranceChanged,
        &tenant.company_id,
    )
}
