//! Sending the reminders a run proposes: each is recorded on its invoice
//! (level, day, the amounts stated, its PDF) and mailed to the customer
//! like an invoice, the reminder's PDF attached, all in one transaction
//! with an audit row per reminder. What a person unticked stays out.

use jiff::civil::Date;
use rusqlite::params;
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::dunning::ladder::Proposal;
use crate::books::dunning::run::{self, Candidate, ProposalView};
use crate::books::invoices::documents as invoice_documents;
use crate::books::sending::{self, Send};
use crate::documents::pdf;
use crate::documents::reminder::{Reminder, StatedInterest};
use crate::error::said::Dunning;
use crate::error::{Error, Result};
use crate::outbox::mail::delivery::{self, MailPurpose};
use crate::outbox::mail::message::{Attachment, Letter};
use crate::outbox::mail::settings;
use crate::outbox::mail::templates::Purpose;
use crate::rules::locale;
use crate::rules::placeholders;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// One reminder sent.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sent {
    pub id: String,
    #[serde(flatten)]
    pub proposal: ProposalView,
    pub send: Send,
}

/// The letter of a proposal in the customer's language.
fn letter(tx: &Tx, tenant: &Tenant, c: &Candidate, p: &Proposal) -> Result<Reminder> {
    let lang = sending::language_of(&c.customer);
    let company = company::get(tx, &tenant.company_id)?;
    let invoice = invoice_documents::letter_model(tx, tenant, &c.invoice.id)?;
    let interest = p.interest.as_ref().map(|i| StatedInterest {
        from: i.from,
        through: i.through,
        days: i.days,
        percent: i
            .percent_now()
            .unwrap_or_else(|| crate::rules::money::Decimal::from_int(0)),
        points: c.case.debtor.points(),
        amount: i.amount,
    });
    let currency = &c.invoice.currency;
    let values = [
        ("number", c.invoice.number.clone()),
        ("issuedOn", locale::date(lang, c.invoice.issued_on)),
        ("dueOn", locale::date(lang, c.invoice.due_on)),
        ("open", locale::amount(lang, p.open, currency)),
        ("total", locale::amount(lang, p.total(), currency)),
        ("newDueOn", locale::date(lang, p.new_due)),
        (
            "defaultFrom",
            c.invoice
                .due_on
                .tomorrow()
                .map(|d| locale::date(lang, d))
                .unwrap_or_default(),
        ),
        ("company", company.seller_name().to_string()),
        ("customer", c.invoice.buyer.clone()),
    ];
    Ok(Reminder {
        invoice,
        lang,
        level: p.level.level,
        title: lang.pick(&p.level.title.0, &p.level.title.1).to_string(),
        text: placeholders::fill(lang.pick(&p.level.text.0, &p.level.text.1), &values),
        on: p.on,
        open: p.open,
        fee: p.fee,
        interest,
        flat_sum: p.flat_sum,
        new_due: p.new_due,
    })
}

/// Records and mails every reminder the run on `on` proposes, except those
/// of the invoices numbered in `except`; returns them.
///
/// Fails with `Refused` when the company has no mail settings, or naming
/// each invoice whose customer has no e-mail address (untick it, or give
/// the customer one); nothing is recorded then.
pub fn send(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    on: Date,
    except: &[String],
) -> Result<Vec<Sent>> {
    let (sender, _) = settings::sender(tx, &tenant.company_id)?;
    let chosen: Vec<(Candidate, Proposal)> = run::proposals(tx, tenant, on)?
        .into_iter()
        .filter(|(c, _)| !except.iter().any(|n| n == &c.invoice.number))
        .collect();
    let mut missing = Vec::new();
    for (c, _) in &chosen {
        if let Err(e) = sending::recipient(&c.customer, None) {
            missing.push((c.invoice.number.clone(), e.violations().to_vec()));
        }
    }
    if !missing.is_empty() {
        return Err(Error::refused(Dunning::NoneSent { missing }));
    }
    let mut sent = Vec::with_capacity(chosen.len());
    for (c, p) in &chosen {
        let reminder = letter(tx, tenant, c, p)?;
        let document = pdf::write_reminder(&reminder).map_err(Error::internal)?;
        let lang = reminder.lang;
        let to = sending::recipient(&c.customer, None)?;
        let values = [
            ("number", c.invoice.number.clone()),
            ("title", reminder.title.clone()),
            (
                "total",
                locale::amount(lang, p.total(), &c.invoice.currency),
            ),
            ("newDueOn", locale::date(lang, p.new_due)),
            ("paymentReference", sending::payment_reference(&c.invoice)),
            (
                "company",
                company::get(tx, &tenant.company_id)?
                    .seller_name()
                    .to_string(),
            ),
            ("customer", c.invoice.buyer.clone()),
        ];
        let (subject, body) =
            sending::template(tx, &tenant.company_id, Purpose::Reminder, lang)?.fill(&values);
        let file_stem: String = c
            .invoice
            .number
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() || "._-".contains(ch) {
                    ch
                } else {
                    '-'
                }
            })
            .collect();
        let letter = Letter {
            to,
            subject,
            body,
            attachments: vec![Attachment {
                file_name: format!(
                    "{file_stem}-{}-{}.pdf",
                    lang.pick("reminder", "mahnung"),
                    p.level.level
                ),
                media_type: "application/pdf".into(),
                bytes: document.clone(),
            }],
        };
        let mail_id = delivery::enqueue(
            tx,
            tenant,
            MailPurpose::Reminder,
            Some(&c.invoice.id),
            &sender,
            &letter,
        )?;
        let id = ids::new_id("rem_");
        let interest = p.interest.as_ref();
        tx.execute(
            "INSERT INTO reminders (id, company_id, environment, invoice_id, level, on_day, open, fee, interest,
                 interest_from, interest_through, interest_percent, flat_sum, new_due, mail_id, document, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                id,
                tenant.company_id,
                tenant.environment,
                c.invoice.id,
                p.level.level,
                p.on,
                p.open,
                p.fee,
                interest.map_or(0, |i| i.amount),
                interest.map(|i| i.from),
                interest.map(|i| i.through),
                interest.and_then(|i| i.percent_now()),
                p.flat_sum,
                p.new_due,
                mail_id,
                document,
                clock::now()
            ],
        )?;
        audit::record(tx, tenant, actor, Act::ReminderSent, &c.invoice.id)?;
        sent.push(Sent {
            id,
            proposal: run::view(c, p),
            send: sending::get_send(tx, tenant, &mail_id)?,
        });
    }
    Ok(sent)
}
