//! Drafts of invoices and quotes, and their lines (`Draft`).

use crate::error::said::Draft;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(draft: &Draft, r: Reader) -> String {
    match (draft, r.lang) {
        (Draft::LineCount { max }, Lang::En) => format!("needs 1 to {max} lines"),
        (Draft::LineCount { max }, Lang::De) => format!("braucht 1 bis {max} Positionen"),
        (Draft::NoTax, _) => r
            .pick(
                "states no tax: give a rate or named taxes (kontor decides no rate, and no person adds one to a draft made whole)",
                "nennt keine Steuer: Geben Sie einen Steuersatz oder benannte Steuern an (kontor bestimmt keinen Satz, und niemand ergänzt ihn in einem ganz übergebenen Entwurf)",
            )
            .into(),
        (Draft::QuantityNotPositive, _) => r
            .pick("must be greater than zero", "muss größer als null sein")
            .into(),
        (Draft::PriceOutOfRange, _) => r
            .pick(
                "must be between 0 and 10^15 minor units",
                "muss zwischen 0 und 10^15 Untereinheiten liegen",
            )
            .into(),
        (Draft::NotUnit { got }, Lang::En) => format!(
            "{} is not a UN/ECE Recommendation 20 unit code (e.g. C62, HUR, KGM, MTR)",
            r.quoted(got)
        ),
        (Draft::NotUnit { got }, Lang::De) => format!(
            "{} ist kein Einheitencode der UN/ECE-Empfehlung 20 (etwa C62, HUR, KGM, MTR)",
            r.quoted(got)
        ),
        (Draft::NotVatex { got }, Lang::En) => format!(
            "{} is not a VATEX code (e.g. VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G)",
            r.quoted(got)
        ),
        (Draft::NotVatex { got }, Lang::De) => format!(
            "{} ist kein VATEX-Code (etwa VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G)",
            r.quoted(got)
        ),
        (Draft::SmallBusinessRate, _) => r
            .pick(
                "is not given by a small business (§19 UStG), which charges no VAT; leave the rate out",
                "wird von einem Kleinunternehmer (§19 UStG) nicht angegeben, er berechnet keine Umsatzsteuer; lassen Sie den Steuersatz weg",
            )
            .into(),
        (Draft::SmallBusinessCategory, _) => r
            .pick(
                "charges VAT, which a small business (§19 UStG) does not; leave it out (E applies)",
                "berechnet Umsatzsteuer, was ein Kleinunternehmer (§19 UStG) nicht tut; lassen Sie sie weg (es gilt E)",
            )
            .into(),
        (Draft::ReasonWithoutZeroRated, _) => r
            .pick(
                "goes only with a zero-rated category (Z, E, AE, K, G or O)",
                "gehört nur zu einer Kategorie ohne Steuer (Z, E, AE, K, G oder O)",
            )
            .into(),
        (Draft::RateAndTaxes, _) => r
            .pick(
                "excludes the named taxes; give a rate or named taxes, not both",
                "schließt die benannten Steuern aus; geben Sie einen Steuersatz oder benannte Steuern an, nicht beides",
            )
            .into(),
        (Draft::RateWithZeroRated { rate, category }, Lang::En) => format!(
            "is {}, but category {category} charges no VAT; its rate is 0",
            r.decimal(rate)
        ),
        (Draft::RateWithZeroRated { rate, category }, Lang::De) => format!(
            "ist {}, aber die Kategorie {category} berechnet keine Umsatzsteuer; ihr Satz ist 0",
            r.decimal(rate)
        ),
        (Draft::ReasonNeeded { category }, Lang::En) => format!(
            "is needed: category {category} needs the reason for the exemption, as a text or a VATEX code"
        ),
        (Draft::ReasonNeeded { category }, Lang::De) => format!(
            "wird gebraucht: Die Kategorie {category} braucht den Grund der Befreiung, als Text oder VATEX-Code"
        ),
        (Draft::ZeroWithoutReason { tax }, Lang::En) => format!(
            "is 0: {tax} at 0 % needs the seller's reason why nothing is charged; give it a VAT category (Z, E, AE, K, G or O) with the exemption's reason or VATEX code, or a named tax with its reason"
        ),
        (Draft::ZeroWithoutReason { tax }, Lang::De) => format!(
            "ist 0: {tax} zu 0 % braucht den Grund des Verkäufers, warum nichts berechnet wird; geben Sie eine Umsatzsteuer-Kategorie (Z, E, AE, K, G oder O) mit dem Grund der Befreiung oder dem VATEX-Code an, oder eine benannte Steuer mit ihrem Grund"
        ),
        (Draft::RateOutOfRange, _) => r
            .pick(
                "must lie between 0 and 100 percent",
                "muss zwischen 0 und 100 Prozent liegen",
            )
            .into(),
        (Draft::TaxTwice { tax }, Lang::En) => format!("names the tax {tax} twice on one line"),
        (Draft::TaxTwice { tax }, Lang::De) => {
            format!("nennt die Steuer {tax} zweimal in einer Position")
        }
        (Draft::Full { max }, Lang::En) => format!("A draft holds at most {max} lines."),
        (Draft::Full { max }, Lang::De) => {
            format!("Ein Entwurf hat höchstens {max} Positionen.")
        }
        (Draft::DueBeyondCalendar, _) => r
            .pick(
                "The due date lies beyond the calendar.",
                "Das Fälligkeitsdatum liegt jenseits des Kalenders.",
            )
            .into(),
        (Draft::NotPeriod { got }, Lang::En) => format!(
            "takes FROM..TO, two ISO dates such as 2026-11-01..2026-11-30, not {}",
            r.quoted(got)
        ),
        (Draft::NotPeriod { got }, Lang::De) => format!(
            "nimmt VON..BIS, zwei ISO-Daten wie 2026-11-01..2026-11-30, nicht {}",
            r.quoted(got)
        ),
        (Draft::PeriodBackwards { from, to }, Lang::En) => format!(
            "ends on {}, before it starts on {}",
            r.date(*to),
            r.date(*from)
        ),
        (Draft::PeriodBackwards { from, to }, Lang::De) => format!(
            "endet am {}, bevor er am {} beginnt",
            r.date(*to),
            r.date(*from)
        ),
        (Draft::Issued { id }, Lang::En) => format!("Draft {id} is already issued."),
        (Draft::Issued { id }, Lang::De) => format!("Der Entwurf {id} ist schon ausgestellt."),
        (Draft::NoTaxDecision, _) => r
            .pick(
                "has no tax decision; give it a rate or a tax with its reason",
                "hat keine Steuerentscheidung; geben Sie einen Steuersatz oder eine Steuer mit ihrem Grund an",
            )
            .into(),
        (Draft::SeveralTaxes { count }, Lang::En) => {
            format!("carries {count} taxes; a seller in the EU charges exactly one VAT per line")
        }
        (Draft::SeveralTaxes { count }, Lang::De) => format!(
            "trägt {count} Steuern; ein Verkäufer in der EU berechnet genau eine Umsatzsteuer je Position"
        ),
        (Draft::ZeroWithoutCategory { tax }, Lang::En) => format!(
            "has {tax} at 0 % without a VAT category; give it one (Z, E, AE, K, G or O): kontor does not decide it"
        ),
        (Draft::ZeroWithoutCategory { tax }, Lang::De) => format!(
            "hat {tax} zu 0 % ohne Umsatzsteuer-Kategorie; geben Sie ihr eine (Z, E, AE, K, G oder O): kontor entscheidet sie nicht"
        ),
        (Draft::StandardAtZero, _) => r
            .pick(
                "is category S at 0 %; a zero rate needs category Z, E, AE, K, G or O",
                "ist Kategorie S zu 0 %; ein Satz von null braucht die Kategorie Z, E, AE, K, G oder O",
            )
            .into(),
        (Draft::SmallBusinessCharges { rate }, Lang::En) => format!(
            "charges {} % VAT, which a small business (§19 UStG) does not; change the line",
            r.decimal(rate)
        ),
        (Draft::SmallBusinessCharges { rate }, Lang::De) => format!(
            "berechnet {} % Umsatzsteuer, was ein Kleinunternehmer (§19 UStG) nicht tut; ändern Sie die Position",
            r.decimal(rate)
        ),
        (Draft::Line {
            description,
            problem,
        }, _) => format!("({description}) {}", problem.text(r)),
        (Draft::ReasonClash { category, rate }, Lang::En) => format!(
            "differs in its tax name or exemption from another line of category {category} at {} %; one category and rate carry one reason",
            r.decimal(rate)
        ),
        (Draft::ReasonClash { category, rate }, Lang::De) => format!(
            "unterscheidet sich in Steuername oder Befreiung von einer anderen Position der Kategorie {category} zu {} %; eine Kategorie und ein Satz tragen einen Grund",
            r.decimal(rate)
        ),
        (Draft::QuoteNotIssued, _) => r
            .pick(
                "A quote is not issued as an invoice; create an invoice draft for the customer.",
                "Ein Angebot wird nicht als Rechnung ausgestellt; legen Sie einen Rechnungsentwurf für den Kunden an.",
            )
            .into(),
        (Draft::QuoteNotPreviewed, _) => r
            .pick(
                "A quote is not issued as an invoice, so it has no invoice to preview.",
                "Ein Angebot wird nicht als Rechnung ausgestellt, also hat es keine Rechnung zur Vorschau.",
            )
            .into(),
        (Draft::NoLines { id }, Lang::En) => format!("Draft {id} has no lines."),
        (Draft::NoLines { id }, Lang::De) => format!("Der Entwurf {id} hat keine Positionen."),
        (Draft::VatIdChanged, _) => r
            .pick(
                "The customer's VAT id changed while the VAT register was asked; issue again.",
                "Die USt-IdNr. des Kunden hat sich geändert, während das Register gefragt wurde; stellen Sie erneut aus.",
            )
            .into(),
        (Draft::VatIdUnusable { reason }, Lang::En) => format!(
            "The customer's VAT id cannot be used on an invoice: {}",
            reason.text(r)
        ),
        (Draft::VatIdUnusable { reason }, Lang::De) => format!(
            "Die USt-IdNr. des Kunden kann auf einer Rechnung nicht verwendet werden: {}",
            reason.text(r)
        ),
        (Draft::NotPositiveTotal, _) => r
            .pick(
                "An invoice's total must be greater than zero; a reduction is a correction.",
                "Der Gesamtbetrag einer Rechnung muss größer als null sein; eine Minderung ist eine Korrektur.",
            )
            .into(),
        (Draft::WorthNothing { rate, currency }, Lang::En) => format!(
            "At the rate {} the invoice is worth nothing in the book currency {currency}.",
            r.decimal(rate)
        ),
        (Draft::WorthNothing { rate, currency }, Lang::De) => format!(
            "Zum Kurs {} ist die Rechnung in der Buchwährung {currency} nichts wert.",
            r.decimal(rate)
        ),
        (Draft::CorrectionNotCancelled { number }, Lang::En) => {
            format!("{number} is itself a correction; it cannot be cancelled.")
        }
        (Draft::CorrectionNotCancelled { number }, Lang::De) => {
            format!("{number} ist selbst eine Korrektur; sie kann nicht storniert werden.")
        }
        (Draft::CancelledAlready { number }, Lang::En) => format!("{number} is already cancelled."),
        (Draft::CancelledAlready { number }, Lang::De) => format!("{number} ist schon storniert."),
        (Draft::HasPayments { number, payments }, Lang::En) => format!(
            "{number} has {payments} payment(s) recorded; an invoice with payments cannot be cancelled in full."
        ),
        (Draft::HasPayments { number, payments }, Lang::De) => format!(
            "Zu {number} sind {payments} Zahlung(en) erfasst; eine Rechnung mit Zahlungen kann nicht ganz storniert werden."
        ),
        (
            Draft::CancelBeforeIssue {
                on,
                number,
                issued,
            },
            Lang::En,
        ) => format!(
            "A cancellation dated {} cannot precede {number}, issued {}.",
            r.date(*on),
            r.date(*issued)
        ),
        (
            Draft::CancelBeforeIssue {
                on,
                number,
                issued,
            },
            Lang::De,
        ) => format!(
            "Eine Stornierung vom {} kann nicht vor {number} liegen, ausgestellt am {}.",
            r.date(*on),
            r.date(*issued)
        ),
    }
}
