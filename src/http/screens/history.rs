//! The history of a record on its page: who did what and when, from the
//! audit rows the books' acts write (whoever acted: a person by name, an
//! API key, the console), each act named in the person's language and each
//! time in the company's time zone.

use maud::{html, Markup};

use super::context::Ctx;
use crate::books::audit::{Act, Entry};
use crate::books::company;
use crate::error::Result;
use crate::rules::locale::{self, Lang};
use crate::store::clock;

/// An act's name for a person; an act no record's page shows by its code.
pub fn act_name(lang: Lang, act: Act) -> String {
    let (en, de) = match act {
        Act::CustomerCreated | Act::JobCreated => ("created", "angelegt"),
        Act::CustomerChanged | Act::JobChanged => ("changed", "geändert"),
        Act::JobMoved => ("moved to another stage", "in eine andere Phase verschoben"),
        Act::JobNoted => ("note added", "Notiz hinzugefügt"),
        Act::DraftCreated => ("draft created", "Entwurf angelegt"),
        Act::DraftLineAdded => ("line added", "Position hinzugefügt"),
        Act::DraftLineChanged => ("line changed", "Position geändert"),
        Act::DraftLineRemoved => ("line removed", "Position entfernt"),
        Act::DraftReferencesSet => ("references set", "Referenzen gesetzt"),
        Act::DraftIssued | Act::InvoiceIssued => ("issued", "ausgestellt"),
        Act::PaymentRecorded => ("payment recorded", "Zahlung erfasst"),
        Act::InvoiceCancelled => ("cancelled", "storniert"),
        Act::CorrectionIssued => (
            "issued as the credit note of a cancellation",
            "als Stornorechnung ausgestellt",
        ),
        Act::BillRecorded => ("recorded", "erfasst"),
        Act::BillPaid => ("payment recorded", "Zahlung erfasst"),
        Act::PaymentImported => (
            "payment imported from the bank",
            "Zahlung aus dem Kontoauszug übernommen",
        ),
        Act::DifferenceBooked => ("difference booked", "Differenz ausgebucht"),
        Act::InvoiceCreditApplied => (
            "customer's credit applied",
            "Guthaben des Kunden verrechnet",
        ),
        Act::SettlementReversed => ("settlement undone", "Zahlung rückgängig gemacht"),
        Act::BillCreditApplied => (
            "supplier's credit applied",
            "Gutschrift des Lieferanten verrechnet",
        ),
        Act::BillReceived => ("received as an e-invoice", "als E-Rechnung empfangen"),
        Act::BillBooked => ("booked", "gebucht"),
        Act::BillRefused => ("refused", "abgelehnt"),
        Act::SupplierTrusted => (
            "trust as a supplier changed",
            "Vertrauen als Lieferant geändert",
        ),
        Act::UserAdded => ("added", "hinzugefügt"),
        Act::UserJoined => ("joined by invitation", "über Einladung beigetreten"),
        Act::UserRoleChanged => ("role changed", "Rolle geändert"),
        Act::UserDisabled => ("disabled", "gesperrt"),
        Act::UserEnabled => ("enabled again", "wieder freigegeben"),
        Act::UserResetLinkMade => ("reset link made", "Link zum Zurücksetzen erstellt"),
        Act::UserPasswordReset => ("password reset by link", "Passwort über Link neu gesetzt"),
        Act::UserPasswordSet => ("password set", "Passwort gesetzt"),
        Act::UserTwoFactorAppOn => (
            "authenticator app turned on",
            "Authenticator-App eingeschaltet",
        ),
        Act::UserTwoFactorAppOff => ("authenticator app removed", "Authenticator-App entfernt"),
        Act::UserPasskeyAdded => ("passkey registered", "Passkey registriert"),
        Act::UserPasskeyRemoved => ("passkey removed", "Passkey entfernt"),
        Act::UserRecoveryCodesMade => (
            "new recovery codes made",
            "neue Wiederherstellungscodes erstellt",
        ),
        Act::UserRecoveryCodeUsed => (
            "signed in with a recovery code",
            "mit einem Wiederherstellungscode angemeldet",
        ),
        Act::UserTwoFactorReset => (
            "two-factor sign-in reset",
            "Zwei-Faktor-Anmeldung zurückgesetzt",
        ),
        Act::InvoiceSent => ("sent by e-mail", "per E-Mail versandt"),
        Act::ReminderSent => ("reminder sent", "Mahnung versandt"),
        Act::AccountNumberChanged => ("DATEV account number given", "DATEV-Kontonummer vergeben"),
        // Acts on records without a history of their own (the books, a
        // key, an endpoint, an invitation, the company) by their code.
        Act::BooksClosed
        | Act::KeyCreated
        | Act::KeyRevoked
        | Act::WebhookRegistered
        | Act::WebhookDisabled
        | Act::WebhookRedelivered
        | Act::UserInvited
        | Act::CompanyChanged
        | Act::CompanyTwoFactorChanged
        | Act::CompanyPaymentDaysChanged
        | Act::CompanyPlanChanged
        | Act::CompanyWorkflowChanged
        | Act::BankAccountAdded
        | Act::BankFeeToleranceChanged
        | Act::BankFileImported
        | Act::BankLineConfirmed
        | Act::BankLineSplit
        | Act::BankLineBooked
        | Act::BankLineIgnored
        | Act::BankLineUndone
        | Act::BankLineReturned => return act.as_str().to_string(),
        Act::MailSettingsChanged
        | Act::MailTemplateChanged
        | Act::MailTestSent
        | Act::DunningLevelsChanged
        | Act::BaseRateAdded => return act.as_str().to_string(),
        Act::TaxMethodsChanged => ("tax methods changed", "Steuerliche Methoden geändert"),
        Act::CompanyDatevChanged | Act::ExportedDatev | Act::ExportedGobd => {
            return act.as_str().to_string()
        }
        Act::AccountAdded => ("account added", "Konto angelegt"),
        Act::AccountRemoved => ("account removed", "Konto entfernt"),
        Act::ReceiptAttached => ("receipt attached", "Beleg angehängt"),
        Act::ReceiptReceived => ("receipt received", "Beleg empfangen"),
        Act::AssetRecorded => (
            "recorded in the register",
            "ins Anlagenverzeichnis aufgenommen",
        ),
        Act::AssetDisposed => ("left the books", "aus den Büchern abgegangen"),
        Act::AssetsDepreciated | Act::DepreciationRuleSet => return act.as_str().to_string(),
    };
    lang.pick(en, de).to_string()
}

/// Who acted, for a person: a person by name (their e-mail address beside
/// it on hover), else by the address; an API key by its name; `system`.
fn actor_name(lang: Lang, entry: &Entry) -> Markup {
    match (&entry.key_id, &entry.person) {
        (Some(_), _) => html! { (lang.pick("API key ", "API-Schlüssel ")) (entry.actor) },
        (None, Some(name)) => html! { span title=(entry.actor) { (name) } },
        (None, None) => html! { (entry.actor) },
    }
}

/// A moment of the audit (RFC 3339) as a person reads it in `zone`:
/// `23.11.2026, 14:05` or `23 Nov 2026, 14:05`.
pub fn when(lang: Lang, zone: &jiff::tz::TimeZone, at: &str) -> String {
    match at.parse::<jiff::Timestamp>() {
        Ok(ts) => {
            let local = ts.to_zoned(zone.clone());
            format!(
                "{}, {:02}:{:02}",
                locale::date(lang, local.date()),
                local.hour(),
                local.minute()
            )
        }
        Err(_) => at.to_string(),
    }
}

/// The time zone of the company being viewed, for `when`.
///
/// Fails only on a storage error.
pub fn zone(ctx: &Ctx) -> Result<jiff::tz::TimeZone> {
    let company = company::get(ctx.conn, &ctx.session.tenant.company_id)?;
    clock::zone(&company.timezone)
}

/// The history section of a record's page, oldest act first.
///
/// Fails only on a storage error (reading the company's time zone).
pub fn section(ctx: &Ctx, entries: &[Entry]) -> Result<Markup> {
    let lang = ctx.lang;
    let zone = zone(ctx)?;
    Ok(html! {
        section aria-labelledby="history-heading" {
            h2 #history-heading { (lang.pick("History", "Verlauf")) }
            @if entries.is_empty() {
                p { (lang.pick("No act recorded yet.", "Noch keine Handlung erfasst.")) }
            } @else {
                ul.history {
                    @for entry in entries {
                        li { (when(lang, &zone, &entry.at)) " · " (actor_name(lang, entry)) " · " (act_name(lang, entry.act)) }
                    }
                }
            }
        }
    })
}
