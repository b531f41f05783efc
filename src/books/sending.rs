//! Sending by mail, as acts of a company's books: the owner's mail settings
//! and texts, an issued invoice sent to its customer (one invoice per
//! message, the customer's format attached as stored), a test mail, a
//! notice to a person whose two-factor sign-in was reset, and the
//! sends of an invoice as its page and `invoice sends` show them. Each act
//! composes the message once and writes it to the mail outbox
//! (`outbox::mail`) in its own transaction, with its audit row; the worker
//! delivers it. Sending raises no event (the contract has none) and books
//! nothing.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::customers::{self, Customer, EinvoiceFormat};
use crate::books::invoices::documents as invoice_documents;
use crate::books::invoices::{stored_by_number, Stored};
use crate::documents::Format;
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::outbox::mail::delivery::{self, MailPurpose, MailState};
use crate::outbox::mail::message::{self, Attachment, Letter};
use crate::outbox::mail::settings::{self, Settings, View};
use crate::outbox::mail::templates::{self, Purpose, Template};
use crate::rules::locale::{self, Lang};
use crate::store::db::Tx;
use crate::store::sealed::SealingKey;
use crate::store::tenant::Tenant;

/// Stores the company's mail settings (the password sealed under `key`).
///
/// Fails only on a storage error.
pub fn set_settings(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    checked: &Settings,
    key: &SealingKey,
) -> Result<View> {
    let view = settings::save(tx, &tenant.company_id, checked, key)?;
    audit::record(
        tx,
        tenant,
        actor,
        Act::MailSettingsChanged,
        &tenant.company_id,
    )?;
    Ok(view)
}

/// The company's mail settings as every surface shows them, if any.
///
/// Fails only on a storage error.
pub fn mail_settings(conn: &Connection, company_id: &str) -> Result<Option<View>> {
    settings::view(conn, company_id)
}

/// The company's texts for `purpose` in `lang`: its own, else the shipped.
///
/// Fails only on a storage error.
pub fn template(
    conn: &Connection,
    company_id: &str,
    purpose: Purpose,
    lang: Lang,
) -> Result<Template> {
    let own = conn
        .prepare_cached(
            "SELECT subject, body FROM mail_templates WHERE company_id = ?1 AND purpose = ?2 AND language = ?3",
        )?
        .query_row(params![company_id, purpose, lang.code()], |r| {
            Ok(Template {
                subject: r.get(0)?,
                body: r.get(1)?,
            })
        })
        .optional()?;
    Ok(own.unwrap_or_else(|| templates::shipped(purpose, lang)))
}

/// Stores the company's own texts for `purpose` in `lang`.
///
/// Fails with `Invalid` as `templates::check` does.
pub fn set_template(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    purpose: Purpose,
    lang: Lang,
    texts: &Template,
) -> Result<Template> {
    templates::check(purpose, texts)?;
    tx.execute(
        "INSERT INTO mail_templates (company_id, purpose, language, subject, body) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (company_id, purpose, language) DO UPDATE SET subject = excluded.subject, body = excluded.body",
        params![tenant.company_id, purpose, lang.code(), texts.subject, texts.body],
    )?;
    audit::record(
        tx,
        tenant,
        actor,
        Act::MailTemplateChanged,
        &tenant.company_id,
    )?;
    Ok(texts.clone())
}

/// One send as every surface shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Send {
    pub id: String,
    pub purpose: MailPurpose,
    pub state: MailState,
    pub to: String,
    pub subject: String,
    pub attempts: i64,
    /// The server's last reply (`250 2.0.0 Ok: queued as …`, `451`, …).
    pub smtp_reply: Option<String>,
    pub last_error: Option<String>,
    pub message_id: String,
    pub created_at: String,
    pub sent_at: Option<String>,
    pub next_attempt_at: Option<String>,
}

const SEND_COLUMNS: &str =
    "id, purpose, state, recipient, subject, attempts, smtp_reply, last_error, message_id,
     created_at, sent_at, next_attempt_at";

fn send_from_row(r: &rusqlite::Row) -> rusqlite::Result<Send> {
    let purpose: String = r.get(1)?;
    let state: String = r.get(2)?;
    let bad = |what: &str, text: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("mails.{what} {text:?} cannot be read").into(),
        )
    };
    Ok(Send {
        id: r.get(0)?,
        purpose: MailPurpose::parse(&purpose).ok_or_else(|| bad("purpose", &purpose))?,
        state: MailState::parse(&state).ok_or_else(|| bad("state", &state))?,
        to: r.get(3)?,
        subject: r.get(4)?,
        attempts: r.get(5)?,
        smtp_reply: r.get(6)?,
        last_error: r.get(7)?,
        message_id: r.get(8)?,
        created_at: r.get(9)?,
        sent_at: r.get(10)?,
        next_attempt_at: r.get(11)?,
    })
}

/// One send of the tenant by its id.
///
/// Fails with `NotFound` for an id the tenant does not have.
pub fn get_send(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Send> {
    conn.prepare_cached(&format!(
        "SELECT {SEND_COLUMNS} FROM mails WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(
        params![id, tenant.company_id, tenant.environment],
        send_from_row,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Mail, id.to_string())))
}

/// The sends of the invoice `number` (and of its reminders), oldest first.
///
/// Fails with `NotFound` for a number the tenant does not have.
pub fn sends(conn: &Connection, tenant: &Tenant, number: &str) -> Result<Vec<Send>> {
    let invoice = stored_by_number(conn, tenant, number)?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {SEND_COLUMNS} FROM mails WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq"
    ))?;
    let rows = stmt.query_map(
        params![invoice.id, tenant.company_id, tenant.environment],
        send_from_row,
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The latest test mail of the tenant, if any.
///
/// Fails only on a storage error.
pub fn last_test(conn: &Connection, tenant: &Tenant) -> Result<Option<Send>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {SEND_COLUMNS} FROM mails WHERE purpose = 'test' AND company_id = ?1 AND environment = ?2
             ORDER BY seq DESC LIMIT 1"
        ))?
        .query_row(params![tenant.company_id, tenant.environment], send_from_row)
        .optional()?)
}

/// The language kontor writes to `customer` in: its own, else German for
/// a customer in a German-speaking country and English elsewhere.
pub fn language_of(customer: &Customer) -> Lang {
    customer
        .language
        .unwrap_or_else(|| Lang::of_seller(customer.country.as_str()))
}

/// Where mail for `customer` goes: `to` when given, else its invoice
/// e-mail address, else its e-mail address.
///
/// Fails with `Invalid` naming `to` for an address that cannot be read,
/// and `Refused` when there is none.
pub fn recipient(customer: &Customer, to: Option<&str>) -> Result<String> {
    let chosen = to
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .or_else(|| customer.invoice_email.clone())
        .or_else(|| customer.email.clone())
        .ok_or_else(|| {
            Error::refused(crate::error::said::Mail::NoAddress {
                customer: customer.name.clone(),
            })
        })?;
    Ok(message::address("to", &chosen)?.to_string())
}

/// The payment reference an invoice asks a payer to quote.
pub(crate) fn payment_reference(invoice: &Stored) -> String {
    invoice.number.clone()
}

/// The attachments of an invoice's mail: the customer's XML e-invoice
/// when it was written at issue (with the PDF when `pdf_with_xml`), else
/// the Factur-X PDF; each as stored.
///
/// Fails with `WrongState` for an invoice without documents.
pub(crate) fn attachments(
    conn: &Connection,
    tenant: &Tenant,
    invoice: &Stored,
    customer: &Customer,
    pdf_with_xml: bool,
) -> Result<Vec<Attachment>> {
    let (has, _) = invoice_documents::formats(conn, tenant, &invoice.id)?;
    let xml = match customer.einvoice {
        EinvoiceFormat::Facturx => None,
        EinvoiceFormat::Xrechnung => Some(Format::XRechnung),
        EinvoiceFormat::Peppol => Some(Format::Peppol),
    }
    .filter(|f| has.contains(f));
    let mut formats = Vec::new();
    if let Some(x) = xml {
        formats.push(x);
    }
    if xml.is_none() || pdf_with_xml {
        formats.push(Format::FacturX);
    }
    formats
        .into_iter()
        .map(|format| {
            let stored = invoice_documents::get(conn, tenant, &invoice.number, format)?;
            Ok(Attachment {
                file_name: invoice_documents::file_name(&invoice.number, format),
                media_type: format.media_type().to_string(),
                bytes: stored.content,
            })
        })
        .collect()
}

/// Sends the issued invoice `number` to its customer (or `to`): composes
/// the message from the company's texts in the customer's language with the
/// stored documents attached, and writes it to the mail outbox. Returns the
/// send, `queued`.
///
/// Fails with `NotFound` for an unknown number, `Refused` when the company
/// has no mail settings or the customer no address, `Invalid` naming `to`
/// for an unreadable address, and `WrongState` for an invoice without
/// documents.
pub fn send_invoice(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    number: &str,
    to: Option<&str>,
) -> Result<Send> {
    let invoice = stored_by_number(tx, tenant, number)?;
    let company = company::get(tx, &tenant.company_id)?;
    let customer = customers::get(tx, tenant, &invoice.customer_id)?;
    let to = recipient(&customer, to)?;
    let (sender, pdf_with_xml) = settings::sender(tx, &tenant.company_id)?;
    let lang = language_of(&customer);
    let values = [
        ("number", invoice.number.clone()),
        (
            "amountDue",
            locale::amount(lang, invoice.outstanding, &invoice.currency),
        ),
        ("dueOn", locale::date(lang, invoice.due_on)),
        ("paymentReference", payment_reference(&invoice)),
        ("company", company.seller_name().to_string()),
        ("customer", invoice.buyer.clone()),
    ];
    let (subject, body) = template(tx, &tenant.company_id, Purpose::Invoice, lang)?.fill(&values);
    let letter = Letter {
        to,
        subject,
        body,
        attachments: attachments(tx, tenant, &invoice, &customer, pdf_with_xml)?,
    };
    let id = delivery::enqueue(
        tx,
        tenant,
        MailPurpose::Invoice,
        Some(&invoice.id),
        &sender,
        &letter,
    )?;
    audit::record(tx, tenant, actor, Act::InvoiceSent, &invoice.id)?;
    get_send(tx, tenant, &id)
}

/// Sends a test mail through the company's settings to `to` (default: the
/// sender's own address), to see that they work.
///
/// Fails with `Refused` when the company has no mail settings, and
/// `Invalid` naming `to` for an unreadable address.
pub fn send_test(tx: &Tx, tenant: &Tenant, actor: &Actor, to: Option<&str>) -> Result<Send> {
    let (sender, _) = settings::sender(tx, &tenant.company_id)?;
    let company = company::get(tx, &tenant.company_id)?;
    let to = match to.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => message::address("to", t)?.to_string(),
        None => sender.address.clone(),
    };
    let lang = Lang::of_seller(company.country.as_str());
    let subject = format!(
        "{} – {}",
        lang.pick("Test mail from kontor", "Testnachricht von kontor"),
        company.seller_name()
    );
    let body = lang
        .pick(
            "This message shows that the mail settings of the company work.",
            "Diese Nachricht zeigt, dass die E-Mail-Einstellungen der Firma funktionieren.",
        )
        .to_string();
    let letter = Letter {
        to,
        subject,
        body,
        attachments: Vec::new(),
    };
    let id = delivery::enqueue(tx, tenant, MailPurpose::Test, None, &sender, &letter)?;
    audit::record(tx, tenant, actor, Act::MailTestSent, &id)?;
    get_send(tx, tenant, &id)
}

/// Tells a person of the company by mail that their two-factor sign-in was
/// reset, through the company's mail settings, in `lang`; nothing when the
/// company has no mail settings. Returns the mail's id when one was written
/// (the worker delivers it as it does every mail).
///
/// Fails only on a storage error or a message that cannot be composed (an
/// address that cannot be read).
pub fn notify_two_factor_reset(
    tx: &Tx,
    tenant: &Tenant,
    to: &str,
    lang: Lang,
) -> Result<Option<String>> {
    let sender = match settings::sender(tx, &tenant.company_id) {
        Ok((sender, _)) => sender,
        Err(Error::Refused(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let company = company::get(tx, &tenant.company_id)?;
    let subject = format!(
        "{} – {}",
        lang.pick(
            "Your two-factor sign-in was reset",
            "Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt"
        ),
        company.seller_name()
    );
    let body = lang
        .pick(
            "Your authenticator app, passkeys and recovery codes for kontor were removed, and your sessions ended. You now sign in with your password alone; where your company requires two factors, you will be asked to set one up again.\n\nIf you did not ask for this, tell the company's owner at once.",
            "Ihre Authenticator-App, Passkeys und Wiederherstellungscodes für kontor wurden entfernt, und Ihre Sitzungen wurden beendet. Sie melden sich jetzt mit Ihrem Passwort allein an; wo Ihre Firma zwei Faktoren verlangt, werden Sie gebeten, erneut einen einzurichten.\n\nWenn Sie das nicht veranlasst haben, sagen Sie es sofort dem Inhaber der Firma.",
        )
        .to_string();
    let letter = Letter {
        to: to.to_string(),
        subject,
        body,
        attachments: Vec::new(),
    };
    let id = delivery::enqueue(tx, tenant, MailPurpose::Notice, None, &sender, &letter)?;
    Ok(Some(id))
}
