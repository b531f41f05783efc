//! Who performed which act on a company's books: the product's history.
//! Every act that changes something writes its own audit row, in its own
//! transaction, beside its events: the act (an `Act`, stored as its
//! `customer.created`-style name), who did it (an `Actor`: a person of the
//! screens or of the console's `--as`, an API key of REST or the agent
//! tools, or the system, the console without `--as`) and the record it
//! concerns. No surface writes an audit row; a new surface cannot forget
//! one. Event bodies stay as the contract defines them.
//!
//! The rule every act follows: it takes `actor: &Actor` right after the
//! tenant, `act(tx, tenant, actor, …)`, and calls `record` before it
//! returns. An act on the whole company (its settings, people, keys) takes
//! the tenant it is recorded in: the books the person is viewing, the live
//! books for the console. The exceptions: joining by invitation and
//! resetting a password by link name their actor themselves (the link's
//! person acts); the operator's acts across kontor take no tenant
//! (`people::disable`, `people::set_password`: `(tx, actor, …)`, recorded in
//! the live books of every company of the person); creating a company
//! records nothing (nobody acts for it yet). The outbox names no books, so
//! its acts on webhook endpoints are `books::webhooks`'.

use rusqlite::{params, Connection};
use serde::Serialize;

use crate::error::Result;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// An act as the audit names it. The stored names are the history's:
    /// a name, once written, stays.
    pub enum Act {
        CustomerCreated = "customer.created",
        CustomerChanged = "customer.changed",
        JobCreated = "job.created",
        JobChanged = "job.changed",
        JobMoved = "job.moved",
        JobNoted = "job.noted",
        DraftCreated = "draft.created",
        DraftLineAdded = "draft.line.added",
        DraftLineChanged = "draft.line.changed",
        DraftLineRemoved = "draft.line.removed",
        DraftReferencesSet = "draft.references.set",
        /// The draft's side of issuing; the invoice's is `InvoiceIssued`.
        DraftIssued = "draft.issued",
        InvoiceIssued = "invoice.issued",
        InvoiceCancelled = "invoice.cancelled",
        /// The credit note of a cancellation, issued.
        CorrectionIssued = "correction.issued",
        PaymentRecorded = "payment.recorded",
        BillRecorded = "bill.recorded",
        BillPaid = "bill.paid",
        BillCreditApplied = "bill.credit_applied",
        /// A received e-invoice kept as a bill to decide on.
        BillReceived = "bill.received",
        /// A received bill booked: its purchase entered in the books.
        BillBooked = "bill.booked",
        /// A received bill refused: kept, never booked.
        BillRefused = "bill.refused",
        /// A supplier marked trusted (its valid e-invoices are booked as
        /// they arrive), or no longer.
        SupplierTrusted = "supplier.trusted",
        BooksClosed = "books.closed",
        KeyCreated = "key.created",
        KeyRevoked = "key.revoked",
        WebhookRegistered = "webhook.registered",
        WebhookDisabled = "webhook.disabled",
        WebhookRedelivered = "webhook.redelivered",
        UserAdded = "user.added",
        UserInvited = "user.invited",
        UserJoined = "user.joined",
        UserRoleChanged = "user.role_changed",
        UserDisabled = "user.disabled",
        UserEnabled = "user.enabled",
        UserResetLinkMade = "user.reset_link_made",
        UserPasswordReset = "user.password_reset",
        UserPasswordSet = "user.password_set",
        CompanyChanged = "company.changed",
        CompanyPaymentDaysChanged = "company.payment_days_changed",
        CompanyPlanChanged = "company.plan_changed",
        CompanyWorkflowChanged = "company.workflow_changed",
        BankAccountAdded = "bank.account_added",
        BankFeeToleranceChanged = "bank.fee_tolerance_changed",
        BankFileImported = "bank.file_imported",
        /// A payment the import settled from a bank line (a certain match).
        PaymentImported = "payment.imported",
        /// What a bank line left open of a document, settled without money.
        DifferenceBooked = "difference.booked",
        /// A customer's credit (money a bank line paid before the invoice's
        /// date) applied to the invoice.
        InvoiceCreditApplied = "invoice.credit_applied",
        /// A settlement undone by a counter-posting: a bank line's, or a
        /// payment recorded by hand that a person took back.
        SettlementReversed = "settlement.reversed",
        BankLineConfirmed = "bank.line_confirmed",
        BankLineSplit = "bank.line_split",
        BankLineBooked = "bank.line_booked",
        BankLineIgnored = "bank.line_ignored",
        BankLineUndone = "bank.line_undone",
        /// A returned direct debit took back what its original line settled.
        BankLineReturned = "bank.line_returned",
        MailSettingsChanged = "mail.settings_changed",
        MailTemplateChanged = "mail.template_changed",
        MailTestSent = "mail.test_sent",
        /// An invoice written to the mail outbox (the mail's own state says
        /// whether it went).
        InvoiceSent = "invoice.sent",
        DunningLevelsChanged = "dunning.levels_changed",
        BaseRateAdded = "dunning.base_rate_added",
        ReminderSent = "reminder.sent",
        /// The chart of accounts, DATEV numbers or fiscal year changed.
        CompanyDatevChanged = "company.datev_changed",
        TaxMethodsChanged = "company.tax_methods_changed",
        /// A partner's personal account number given or changed by a person.
        AccountNumberChanged = "account_number.changed",
        /// The books exported for the tax adviser (DATEV).
        ExportedDatev = "export.datev",
        /// The books exported for a tax audit (GoBD).
        ExportedGobd = "export.gobd",
        /// A company's own account added to its chart, or removed.
        AccountAdded = "account.added",
        AccountRemoved = "account.removed",
        /// A bill's receipt attached.
        ReceiptAttached = "bill.receipt_attached",
        /// A plain PDF or image kept to be typed as a bill.
        ReceiptReceived = "receipt.received",
        /// A fixed asset recorded in the register.
        AssetRecorded = "asset.recorded",
        /// A fixed asset left the books, sold or scrapped.
        AssetDisposed = "asset.disposed",
        /// A fiscal year's depreciation posted (the year names it).
        AssetsDepreciated = "books.depreciated",
        /// A fiscal year's choices of the low-value rule and the pool.
        DepreciationRuleSet = "books.depreciation_rule_set",
        /// A person's authenticator app confirmed by its first code, or removed.
        UserTwoFactorAppOn = "user.two_factor_app_on",
        UserTwoFactorAppOff = "user.two_factor_app_off",
        /// A person's passkey registered, or removed.
        UserPasskeyAdded = "user.passkey_added",
        UserPasskeyRemoved = "user.passkey_removed",
        /// A person's recovery codes made anew (the earlier ones void).
        UserRecoveryCodesMade = "user.recovery_codes_made",
        /// A recovery code taken at sign-in in place of a second factor.
        UserRecoveryCodeUsed = "user.recovery_code_used",
        /// A person's second factors reset by an owner or the operator.
        UserTwoFactorReset = "user.two_factor_reset",
        /// The company's requirement of two factors set or lifted.
        CompanyTwoFactorChanged = "company.two_factor_changed",
    }
}

/// Who acted.
#[derive(Debug, Clone)]
pub enum Actor {
    /// A person (their id and e-mail address): on the screens, or named by
    /// the console's `--as`.
    Person { id: String, email: String },
    /// An API key (its id and name): REST and the agent tools.
    Key { id: String, name: String },
    /// The console without `--as` (the operator).
    System,
}

impl Actor {
    /// How a record names the actor: a person by e-mail address, a key by
    /// its name, the system as `system`.
    pub fn name(&self) -> &str {
        match self {
            Actor::Person { email, .. } => email,
            Actor::Key { name, .. } => name,
            Actor::System => "system",
        }
    }

    /// The person's id, for a person.
    pub fn person_id(&self) -> Option<&str> {
        match self {
            Actor::Person { id, .. } => Some(id),
            Actor::Key { .. } | Actor::System => None,
        }
    }

    /// The key's id, for a key.
    pub fn key_id(&self) -> Option<&str> {
        match self {
            Actor::Key { id, .. } => Some(id),
            Actor::Person { .. } | Actor::System => None,
        }
    }
}

/// One act in the history of a record.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// A person's e-mail address, a key's name, or `system`.
    pub actor: String,
    /// The person's name as their account holds it now, when a person
    /// acted and has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person: Option<String>,
    /// The key that acted, when a key did.
    pub key_id: Option<String>,
    pub act: Act,
    pub subject: String,
    pub at: String,
}

/// Records that `actor` performed `act` on the record `subject`, inside
/// the act's transaction: called by the acts themselves, never by a surface.
/// A person's row names them by id and e-mail address, a key's by id and
/// name, the system's as `system`.
///
/// Fails only on a storage error.
pub fn record(tx: &Tx, tenant: &Tenant, actor: &Actor, act: Act, subject: &str) -> Result<()> {
    let name = actor.name();
    tx.prepare_cached(
        "INSERT INTO audit (company_id, environment, user_id, key_id, actor, act, subject, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        tenant.company_id,
        tenant.environment,
        actor.person_id(),
        actor.key_id(),
        name,
        act,
        subject,
        clock::now()
    ])?;
    Ok(())
}

/// The history of one record of the tenant, oldest first.
///
/// Fails only on a storage error (or a stored act this binary does not know).
pub fn history(conn: &Connection, tenant: &Tenant, subject: &str) -> Result<Vec<Entry>> {
    history_of(conn, tenant, &[subject])
}

/// The history of several records of the tenant together (an invoice and
/// the draft it was issued from), oldest first.
///
/// Fails only on a storage error (or a stored act this binary does not know).
pub fn history_of(conn: &Connection, tenant: &Tenant, subjects: &[&str]) -> Result<Vec<Entry>> {
    if subjects.is_empty() {
        return Ok(Vec::new());
    }
    let places: Vec<String> = (0..subjects.len()).map(|i| format!("?{}", i + 3)).collect();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT CAST(a.seq AS TEXT), a.actor, a.key_id, a.act, a.subject, a.at,
                nullif(trim(u.name), '')
         FROM audit a LEFT JOIN users u ON u.id = a.user_id
         WHERE a.company_id = ?1 AND a.environment = ?2 AND a.subject IN ({}) ORDER BY a.seq",
        places.join(", ")
    ))?;
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&tenant.company_id, &tenant.environment];
    values.extend(subjects.iter().map(|s| s as &dyn rusqlite::ToSql));
    let rows = stmt.query_map(values.as_slice(), |row| {
        let r = Row::new(row, "audit");
        Ok(Entry {
            actor: r.get(1)?,
            person: r.get(6)?,
            key_id: r.get(2)?,
            act: r.get(3)?,
            subject: r.get(4)?,
            at: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
