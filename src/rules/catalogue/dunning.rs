//! Reminders, their ladder and the base-rate table (`Dunning`); mail sent
//! to customers (`Mail`).

use crate::error::said::{Dunning, Input, Mail};
use crate::error::{Lang, Said};

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(dunning: &Dunning, r: Reader) -> String {
    match (dunning, r.lang) {
        (Dunning::BaseRateDue { next }, Lang::En) if r.on_screens() => format!(
            "The base-rate table has no row for {}, when the Deutsche Bundesbank publishes the next base rate; add it under Base rate below before stating interest after that day.",
            r.date(*next)
        ),
        (Dunning::BaseRateDue { next }, Lang::En) => format!(
            "The base-rate table has no row for {}, when the Deutsche Bundesbank publishes the next base rate; add it with kontor dunning base-rate or in Reminders before stating interest after that day.",
            r.date(*next)
        ),
        (Dunning::BaseRateDue { next }, Lang::De) if r.on_screens() => format!(
            "Die Basiszinstabelle hat keine Zeile für den {}, an dem die Deutsche Bundesbank den nächsten Basiszinssatz veröffentlicht; ergänzen Sie sie unten unter Basiszinssatz, bevor Zinsen nach diesem Tag ausgewiesen werden.",
            r.date(*next)
        ),
        (Dunning::BaseRateDue { next }, Lang::De) => format!(
            "Die Basiszinstabelle hat keine Zeile für den {}, an dem die Deutsche Bundesbank den nächsten Basiszinssatz veröffentlicht; ergänzen Sie sie mit kontor dunning base-rate oder unter Mahnungen, bevor Zinsen nach diesem Tag ausgewiesen werden.",
            r.date(*next)
        ),
        (Dunning::NoBaseRate { from }, Lang::En) if r.on_screens() => format!(
            "The base-rate table has no rate for {}; add one on the Reminders screen under Base rate.",
            r.date(*from)
        ),
        (Dunning::NoBaseRate { from }, Lang::En) => format!(
            "The base-rate table has no rate for {}; add one with kontor dunning base-rate.",
            r.date(*from)
        ),
        (Dunning::NoBaseRate { from }, Lang::De) if r.on_screens() => format!(
            "Die Basiszinstabelle hat keinen Satz für den {}; ergänzen Sie einen unter Mahnungen bei Basiszinssatz.",
            r.date(*from)
        ),
        (Dunning::NoBaseRate { from }, Lang::De) => format!(
            "Die Basiszinstabelle hat keinen Satz für den {}; ergänzen Sie einen mit kontor dunning base-rate.",
            r.date(*from)
        ),
        (Dunning::LevelCount { max }, Lang::En) => format!("must be 1 to {max} levels"),
        (Dunning::LevelCount { max }, Lang::De) => format!("müssen 1 bis {max} Stufen sein"),
        (Dunning::LevelMustBe { level }, Lang::En) => format!("must be {level}"),
        (Dunning::LevelMustBe { level }, Lang::De) => format!("muss {level} sein"),
        (Dunning::DaysRange, _) => r.pick("must be 1 to 365", "muss 1 bis 365 sein").into(),
        (Dunning::PayDaysRange, _) => r.pick("must be 1 to 90", "muss 1 bis 90 sein").into(),
        (Dunning::NotLevel { max, got }, Lang::En) => {
            format!("is a level from 1 to {max}, not {}", r.quoted(got))
        }
        (Dunning::NotLevel { max, got }, Lang::De) => {
            format!("ist eine Stufe von 1 bis {max}, nicht {}", r.quoted(got))
        }
        (Dunning::NotWholeDays { got }, Lang::En) => {
            format!("is a whole number of days, not {}", r.quoted(got))
        }
        (Dunning::NotWholeDays { got }, Lang::De) => {
            format!("ist eine ganze Zahl von Tagen, nicht {}", r.quoted(got))
        }
        (Dunning::RateRange, _) => r
            .pick("is a rate from -10 to 30", "ist ein Satz von -10 bis 30")
            .into(),
        (Dunning::NoneSent { missing }, _) => {
            let each: Vec<String> = missing
                .iter()
                .map(|(number, why)| {
                    format!("{number}: {}", r.sentences(why, &|f| r.the_field(f)))
                })
                .collect();
            format!(
                "{} {}",
                r.pick("No reminder was sent.", "Es wurde keine Mahnung versandt."),
                each.join(" ")
            )
        }
    }
}

/// A mail's message in the reader's words.
pub fn mail(mail: &Mail, r: Reader) -> String {
    match (mail, r.lang) {
        (Mail::NoAddress { customer }, Lang::En) => format!(
            "{customer} has no e-mail address; give one to send to, or set the customer's invoice e-mail."
        ),
        (Mail::NoAddress { customer }, Lang::De) => format!(
            "{customer} hat keine E-Mail-Adresse; geben Sie eine an, oder tragen Sie beim Kunden die E-Mail-Adresse für Rechnungen ein."
        ),
        (Mail::NoneOnlyLoopback, Lang::En) if !r.on_screens() => {
            "none is only for a relay on this machine (localhost, 127.0.0.1 or ::1); use tls or starttls"
                .into()
        }
        (Mail::NoneOnlyLoopback, _) => format!(
            "{} {} {} {}",
            r.quoted("none"),
            r.pick(
                "is only for a relay on this machine (localhost, 127.0.0.1 or ::1); use",
                "gilt nur für einen Relay-Server auf diesem Rechner (localhost, 127.0.0.1 oder ::1); nehmen Sie"
            ),
            r.listed(&[r.quoted("tls"), r.quoted("starttls")]),
            ""
        )
        .trim_end()
        .to_string(),
        (Mail::NoSettings, _) if r.on_screens() => r
            .pick(
                "The company has no mail settings yet; the owner sets them under Settings, Mail.",
                "Die Firma hat noch keine E-Mail-Einstellungen; der Inhaber legt sie unter Einstellungen, E-Mail fest.",
            )
            .into(),
        (Mail::NoSettings, _) => r
            .pick(
                "The company has no mail settings yet; the owner sets them in Settings or with kontor company mail.",
                "Die Firma hat noch keine E-Mail-Einstellungen; der Inhaber legt sie in den Einstellungen oder mit kontor company mail fest.",
            )
            .into(),
        (Mail::SecurityMissing { values }, _) => Said::from(Input::MissingOneOf {
            values: values.clone(),
        })
        .text(r),
        (Mail::NotPort { got }, Lang::En) => {
            format!("is a port from 1 to 65535, not {}", r.quoted(got))
        }
        (Mail::NotPort { got }, Lang::De) => {
            format!("ist ein Port von 1 bis 65535, nicht {}", r.quoted(got))
        }
        (Mail::PasswordNeedsUser, _) => r
            .pick(
                "needs a user to log in with",
                "braucht einen Benutzer, mit dem angemeldet wird",
            )
            .into(),
        (Mail::SubjectOneLine, _) => r
            .pick("must be one line", "muss eine Zeile sein")
            .into(),
        (Mail::NotAddress { got }, Lang::En) => format!(
            "is not an e-mail address such as name@example.com: {}",
            r.quoted(got)
        ),
        (Mail::NotAddress { got }, Lang::De) => format!(
            "ist keine E-Mail-Adresse wie name@example.com: {}",
            r.quoted(got)
        ),
        (Mail::NoMediaType { got }, Lang::En) => {
            format!("has no media type: {}", r.quoted(got))
        }
        (Mail::NoMediaType { got }, Lang::De) => {
            format!("hat keinen Medientyp: {}", r.quoted(got))
        }
        (Mail::CannotWrite { why }, Lang::En) => format!("cannot be written to: {why}"),
        (Mail::CannotWrite { why }, Lang::De) => {
            format!("kann nicht angeschrieben werden: {why}")
        }
        (Mail::NoPem, _) => r
            .pick(
                "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                "enthält kein PEM-Zertifikat (-----BEGIN CERTIFICATE-----)",
            )
            .into(),
    }
}
