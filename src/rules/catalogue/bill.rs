//! Bills and supplier credits recorded (`Bill`).

use crate::error::said::Bill;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(bill: &Bill, r: Reader) -> String {
    match (bill, r.lang) {
        (Bill::PostedBeforeDate { posted, date }, Lang::En) => format!(
            "{} lies before the document date {}; a bill is booked on or after its date",
            r.date(*posted),
            r.date(*date)
        ),
        (Bill::PostedBeforeDate { posted, date }, Lang::De) => format!(
            "{} liegt vor dem Belegdatum {}; eine Eingangsrechnung wird an oder nach ihrem Datum gebucht",
            r.date(*posted),
            r.date(*date)
        ),
        (Bill::NotPositiveOrCredit, _) => r
            .pick(
                "is positive minor units up to 10^15 (a credit is recorded with the kind credit)",
                "ist eine positive Zahl von Untereinheiten bis 10^15 (eine Gutschrift wird mit der Art Gutschrift erfasst)",
            )
            .into(),
        (Bill::NoAmount, _) => r
            .pick(
                "and tax are both zero; a purchase document needs an amount",
                "und Steuer sind beide null; ein Einkaufsbeleg braucht einen Betrag",
            )
            .into(),
        (Bill::NotPositiveMinor, _) => r
            .pick(
                "is positive minor units up to 10^15",
                "ist eine positive Zahl von Untereinheiten bis 10^15",
            )
            .into(),
        (Bill::LineRateMissing, _) => r
            .pick(
                "is missing: a bill split over lines names each line's rate (or the bill's)",
                "fehlt: Eine auf Positionen aufgeteilte Eingangsrechnung nennt den Steuersatz jeder Position (oder den der Rechnung)",
            )
            .into(),
        (Bill::LinesNetDiffer { net, lines }, Lang::En) => format!(
            "is {}, but the lines add up to {}",
            r.amount(net),
            r.amount(lines)
        ),
        (Bill::LinesNetDiffer { net, lines }, Lang::De) => format!(
            "ist {}, aber die Positionen ergeben {}",
            r.amount(net),
            r.amount(lines)
        ),
        (Bill::LinesTaxDiffer { tax, lines }, Lang::En) => format!(
            "is {}, but the lines' VAT adds up to {}",
            r.amount(tax),
            r.amount(lines)
        ),
        (Bill::LinesTaxDiffer { tax, lines }, Lang::De) => format!(
            "ist {}, aber die Umsatzsteuer der Positionen ergibt {}",
            r.amount(tax),
            r.amount(lines)
        ),
        (Bill::ReverseChargeTax, _) => r
            .pick(
                "is 0 under the reverse charge: the supplier charges no VAT, the company owes it",
                "ist 0 bei Umkehr der Steuerschuld: Der Lieferant berechnet keine Umsatzsteuer, die Firma schuldet sie",
            )
            .into(),
        (Bill::DueBeforeDate { due, date }, Lang::En) => format!(
            "{} lies before the document date {}",
            r.date(*due),
            r.date(*date)
        ),
        (Bill::DueBeforeDate { due, date }, Lang::De) => format!(
            "{} liegt vor dem Belegdatum {}",
            r.date(*due),
            r.date(*date)
        ),
        (Bill::YearBack { date, posted }, Lang::En) => format!(
            "{} lies more than a year back; confirm that the bill is booked now (its posting date {})",
            r.date(*date),
            r.date(*posted)
        ),
        (Bill::YearBack { date, posted }, Lang::De) => format!(
            "{} liegt mehr als ein Jahr zurück; bestätigen Sie, dass die Eingangsrechnung jetzt gebucht wird (ihr Buchungstag {})",
            r.date(*date),
            r.date(*posted)
        ),
        (Bill::PostedInClosedBooks { posted, through }, Lang::En) => format!(
            "{} lies in closed books (closed through {}); a bill is booked in an open period",
            r.date(*posted),
            r.date(*through)
        ),
        (Bill::PostedInClosedBooks { posted, through }, Lang::De) => format!(
            "{} liegt in abgeschlossenen Büchern (abgeschlossen bis {}); eine Eingangsrechnung wird in einem offenen Zeitraum gebucht",
            r.date(*posted),
            r.date(*through)
        ),
        (
            Bill::Duplicate {
                supplier,
                number,
                earlier,
            },
            Lang::En,
        ) => format!("{supplier}'s document {number} is already recorded as {earlier}."),
        (
            Bill::Duplicate {
                supplier,
                number,
                earlier,
            },
            Lang::De,
        ) => format!("Der Beleg {number} von {supplier} ist schon als {earlier} erfasst."),
        (Bill::EmptyFile, _) => r.pick("is an empty file", "ist eine leere Datei").into(),
        (Bill::ReceiptTooLarge { mb }, Lang::En) => {
            format!("is larger than {mb} MB, the most a receipt may be")
        }
        (Bill::ReceiptTooLarge { mb }, Lang::De) => {
            format!("ist größer als {mb} MB, das Höchste, was ein Beleg sein darf")
        }
        (Bill::ReceiptKind, _) => r
            .pick(
                "is no PDF, JPEG or PNG file; a receipt is kept as one of these",
                "ist keine PDF-, JPEG- oder PNG-Datei; ein Beleg wird als eine davon aufbewahrt",
            )
            .into(),
        (Bill::ReceiptKept { bill, file }, Lang::En) => {
            format!("{bill} has its receipt already ({file}); a receipt is kept as it is.")
        }
        (Bill::ReceiptKept { bill, file }, Lang::De) => format!(
            "{bill} hat seinen Beleg schon ({file}); ein Beleg wird aufbewahrt, wie er ist."
        ),
        (Bill::CameAsEinvoice { bill }, Lang::En) => {
            format!("{bill} came as an e-invoice; its file is kept as its receipt.")
        }
        (Bill::CameAsEinvoice { bill }, Lang::De) => format!(
            "{bill} kam als E-Rechnung; ihre Datei wird als ihr Beleg aufbewahrt."
        ),
        (Bill::SameFile { before }, Lang::En) => {
            format!("is the same file as the one kept for {before}")
        }
        (Bill::SameFile { before }, Lang::De) => {
            format!("ist dieselbe Datei wie die für {before} aufbewahrte")
        }
        (Bill::HasReceipt { bill }, Lang::En) => format!("{bill} has its receipt already."),
        (Bill::HasReceipt { bill }, Lang::De) => format!("{bill} hat seinen Beleg schon."),
        (Bill::WorthNothing { rate, currency }, Lang::En) => format!(
            "At the rate {rate} the document is worth nothing in the book currency {currency}."
        ),
        (Bill::WorthNothing { rate, currency }, Lang::De) => format!(
            "Zum Kurs {rate} ist der Beleg in der Buchwährung {currency} nichts wert."
        ),
    }
}
