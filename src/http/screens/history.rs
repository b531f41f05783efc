//! The history of a record on its page: who did what and when, from the
//! audit rows the screens and the console write, each act named in the
//! person's language and each time in the company's time zone.

use maud::{html, Markup};

use super::context::Ctx;
use crate::books::audit::Entry;
use crate::books::company;
use crate::error::Result;
use crate::rules::locale::{self, Lang};
use crate::store::clock;

/// An act's name for a person; an act this table does not know by its code.
pub fn act_name(lang: Lang, act: &str) -> String {
    let (en, de) = match act {
        "customer.created" => ("created", "angelegt"),
        "customer.changed" => ("changed", "geändert"),
        "job.moved" => ("moved to another stage", "in eine andere Phase verschoben"),
        "job.noted" => ("note added", "Notiz hinzugefügt"),
        "draft.created" => ("draft created", "Entwurf angelegt"),
        "draft.line.added" => ("line added", "Position hinzugefügt"),
        "draft.line.changed" => ("line changed", "Position geändert"),
        "draft.line.removed" => ("line removed", "Position entfernt"),
        "draft.references.set" => ("references set", "Referenzen gesetzt"),
        "draft.issued" | "invoice.issued" => ("issued", "ausgestellt"),
        "payment.recorded" => ("payment recorded", "Zahlung erfasst"),
        "invoice.cancelled" => ("cancelled", "storniert"),
        "correction.issued" => (
            "issued as the credit note of a cancellation",
            "als Stornorechnung ausgestellt",
        ),
        "bill.recorded" => ("recorded", "erfasst"),
        "bill.paid" => ("payment recorded", "Zahlung erfasst"),
        "bill.credit_applied" => (
            "supplier's credit applied",
            "Gutschrift des Lieferanten verrechnet",
        ),
        "user.added" => ("added", "hinzugefügt"),
        "user.joined" => ("joined by invitation", "über Einladung beigetreten"),
        "user.role_changed" => ("role changed", "Rolle geändert"),
        "user.disabled" => ("disabled", "gesperrt"),
        "user.enabled" => ("enabled again", "wieder freigegeben"),
        "user.reset_link_made" => ("reset link made", "Link zum Zurücksetzen erstellt"),
        "user.password_reset" => ("password reset by link", "Passwort über Link neu gesetzt"),
        "user.password_set" => ("password set", "Passwort gesetzt"),
        other => return other.to_string(),
    };
    lang.pick(en, de).to_string()
}

/// Who acted, for a person: an e-mail address, `system`, or an API key by
/// its name.
fn actor_name(lang: Lang, entry: &Entry) -> String {
    match entry.key_id {
        Some(_) => format!("{}{}", lang.pick("API key ", "API-Schlüssel "), entry.actor),
        None => entry.actor.clone(),
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
                        li { (when(lang, &zone, &entry.at)) " · " (actor_name(lang, entry)) " · " (act_name(lang, &entry.act)) }
                    }
                }
            }
        }
    })
}
