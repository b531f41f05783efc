//! Payments, credits and settlements of invoices and bills (`Settle`).

use crate::error::said::{Settle, Settling};
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(settle: &Settle, r: Reader) -> String {
    let what = |w: Settling| match (w, r.lang) {
        (Settling::Payment, Lang::En) => "payment",
        (Settling::CreditApplication, Lang::En) => "credit application",
        (Settling::Settlement, Lang::En) => "settlement",
        (Settling::Payment, Lang::De) => "Zahlung",
        (Settling::CreditApplication, Lang::De) => "Gutschriftsverrechnung",
        (Settling::Settlement, Lang::De) => "Ausgleich",
    };
    match (settle, r.lang) {
        (Settle::NotPositiveMinor, _) => r
            .pick(
                "must be a positive number of minor units (at most 10^15)",
                "muss eine positive Zahl von Untereinheiten sein (höchstens 10^15)",
            )
            .into(),
        (
            Settle::AdvanceCurrency {
                line,
                document,
                books,
                currency,
            },
            Lang::En,
        ) => format!(
            "The bank line {line} pays {document} before its date; money paid in advance is kept as the customer's credit in the book currency {books}, and the line is in {currency}."
        ),
        (
            Settle::AdvanceCurrency {
                line,
                document,
                books,
                currency,
            },
            Lang::De,
        ) => format!(
            "Die Bankzeile {line} zahlt {document} vor deren Datum; im Voraus gezahltes Geld wird als Guthaben des Kunden in der Buchwährung {books} geführt, und die Zeile ist in {currency}."
        ),
        (
            Settle::BeforeDocument {
                on,
                what: w,
                document,
                dated,
            },
            Lang::En,
        ) => format!(
            "is {}: a {} cannot precede {document}, dated {}",
            r.date(*on),
            what(*w),
            r.date(*dated)
        ),
        (
            Settle::BeforeDocument {
                on,
                what: w,
                document,
                dated,
            },
            Lang::De,
        ) => format!(
            "ist der {}: {} kann nicht vor {document} vom {} liegen",
            r.date(*on),
            match w {
                Settling::Payment => "Eine Zahlung",
                Settling::CreditApplication => "Eine Gutschriftsverrechnung",
                Settling::Settlement => "Ein Ausgleich",
            },
            r.date(*dated)
        ),
        (Settle::AfterLastSettled { on, document, last }, Lang::En) => format!(
            "is {}: {document} was settled on {}, and settlements are recorded in date order",
            r.date(*on),
            r.date(*last)
        ),
        (Settle::AfterLastSettled { on, document, last }, Lang::De) => format!(
            "ist der {}: {document} wurde am {} ausgeglichen, und Ausgleiche werden in der Reihenfolge ihrer Tage gebucht",
            r.date(*on),
            r.date(*last)
        ),
        (Settle::TooSmallForBookCurrency, _) => r
            .pick(
                "The payment is too small to be booked in the book currency.",
                "Die Zahlung ist zu klein, um in der Buchwährung gebucht zu werden.",
            )
            .into(),
        (
            Settle::Overpaid {
                amount,
                outstanding,
                document,
            },
            Lang::En,
        ) => format!(
            "is {}, more than the {} outstanding on {document}; overpayments are refused",
            r.amount(amount),
            r.amount(outstanding)
        ),
        (
            Settle::Overpaid {
                amount,
                outstanding,
                document,
            },
            Lang::De,
        ) => format!(
            "ist {}, mehr als die {}, die auf {document} offen sind; Überzahlungen werden abgelehnt",
            r.amount(amount),
            r.amount(outstanding)
        ),
        (
            Settle::LineCurrency {
                line,
                line_currency,
                document,
                currency,
            },
            Lang::En,
        ) => format!(
            "The bank line {line} is in {line_currency}; {document} is owed in {currency}, and kontor converts no bank money."
        ),
        (
            Settle::LineCurrency {
                line,
                line_currency,
                document,
                currency,
            },
            Lang::De,
        ) => format!(
            "Die Bankzeile {line} ist in {line_currency}; {document} wird in {currency} geschuldet, und kontor rechnet kein Bankgeld um."
        ),
        (Settle::Correction { number }, Lang::En) => {
            format!("{number} is a correction document; it takes no payments.")
        }
        (Settle::Correction { number }, Lang::De) => {
            format!("{number} ist ein Korrekturbeleg; er nimmt keine Zahlungen an.")
        }
        (Settle::Cancelled { number }, Lang::En) => {
            format!("{number} is cancelled; it takes no payments.")
        }
        (Settle::Cancelled { number }, Lang::De) => {
            format!("{number} ist storniert; sie nimmt keine Zahlungen an.")
        }
        (Settle::PaidInFull { number }, Lang::En) => format!("{number} is paid in full."),
        (Settle::PaidInFull { number }, Lang::De) => format!("{number} ist voll bezahlt."),
        (Settle::OwesNothing { document }, Lang::En) => format!("{document} owes nothing."),
        (Settle::OwesNothing { document }, Lang::De) => {
            format!("Auf {document} ist nichts offen.")
        }
        (Settle::Reversed { payment, on }, Lang::En) => format!(
            "The payment {payment} was reversed on {} already.",
            r.date(*on)
        ),
        (Settle::Reversed { payment, on }, Lang::De) => format!(
            "Die Zahlung {payment} wurde schon am {} zurückgenommen.",
            r.date(*on)
        ),
        (Settle::NotFromBankLine { payment }, Lang::En) => {
            format!("The payment {payment} was not made from a bank line.")
        }
        (Settle::NotFromBankLine { payment }, Lang::De) => {
            format!("Die Zahlung {payment} kam nicht aus einer Bankzeile.")
        }
        (Settle::FromBankLine { payment, line }, Lang::En) if r.on_screens() => format!(
            "The payment {payment} was settled from the bank line {line}; it is taken back by undoing that line on its page in Bank."
        ),
        (Settle::FromBankLine { payment, line }, Lang::En) => format!(
            "The payment {payment} was settled from the bank line {line}; \
             it is taken back by undoing that line (`bank undo {line}`)."
        ),
        (Settle::FromBankLine { payment, line }, Lang::De) if r.on_screens() => format!(
            "Die Zahlung {payment} kam aus der Bankzeile {line}; sie wird zurückgenommen, indem diese Zeile auf ihrer Seite unter Bank rückgängig gemacht wird."
        ),
        (Settle::FromBankLine { payment, line }, Lang::De) => format!(
            "Die Zahlung {payment} kam aus der Bankzeile {line}; sie wird zurückgenommen, indem diese Zeile rückgängig gemacht wird (`bank undo {line}`)."
        ),
        (
            Settle::ReversalBeforePayment {
                on,
                payment,
                paid_on,
            },
            Lang::En,
        ) => format!(
            "is {}: a reversal cannot precede the payment {payment}, made on {}",
            r.date(*on),
            r.date(*paid_on)
        ),
        (
            Settle::ReversalBeforePayment {
                on,
                payment,
                paid_on,
            },
            Lang::De,
        ) => format!(
            "ist der {}: Eine Rücknahme kann nicht vor der Zahlung {payment} vom {} liegen",
            r.date(*on),
            r.date(*paid_on)
        ),
        (Settle::CreditNotPaid { id }, Lang::En) => format!(
            "{id} is a supplier credit; it is applied to the supplier's bills, not paid."
        ),
        (Settle::CreditNotPaid { id }, Lang::De) => format!(
            "{id} ist eine Gutschrift des Lieferanten; sie wird mit seinen Eingangsrechnungen verrechnet, nicht bezahlt."
        ),
        (Settle::BillNotCredit { id }, Lang::En) => {
            format!("{id} is a bill, not a supplier credit.")
        }
        (Settle::BillNotCredit { id }, Lang::De) => {
            format!("{id} ist eine Eingangsrechnung, keine Gutschrift des Lieferanten.")
        }
        (Settle::CreditUsedUp { id }, Lang::En) => format!("The credit {id} is used up."),
        (Settle::CreditUsedUp { id }, Lang::De) => {
            format!("Die Gutschrift {id} ist aufgebraucht.")
        }
        (Settle::CreditNotBill { id }, Lang::En) => {
            format!("{id} is a supplier credit, not a bill.")
        }
        (Settle::CreditNotBill { id }, Lang::De) => {
            format!("{id} ist eine Gutschrift des Lieferanten, keine Eingangsrechnung.")
        }
        (Settle::DifferentSuppliers { credit, bill }, Lang::En) => {
            format!("The credit {credit} and the bill {bill} are of different suppliers.")
        }
        (Settle::DifferentSuppliers { credit, bill }, Lang::De) => format!(
            "Die Gutschrift {credit} und die Eingangsrechnung {bill} sind von verschiedenen Lieferanten."
        ),
        (Settle::CreditsInBookCurrency { currency }, Lang::En) => format!(
            "Credits are applied in the book currency {currency} only; kontor books no exchange differences."
        ),
        (Settle::CreditsInBookCurrency { currency }, Lang::De) => format!(
            "Gutschriften werden nur in der Buchwährung {currency} verrechnet; kontor bucht keine Kursdifferenzen."
        ),
        (Settle::MoreThanCreditLeft { amount, left, credit }, Lang::En) => format!(
            "{} is more than the {} left on the credit {credit}.",
            r.amount(amount),
            r.amount(left)
        ),
        (Settle::MoreThanCreditLeft { amount, left, credit }, Lang::De) => format!(
            "{} ist mehr als die {}, die auf der Gutschrift {credit} übrig sind.",
            r.amount(amount),
            r.amount(left)
        ),
        (Settle::NoLedgerEntry { entry, document }, Lang::En) => {
            format!("The ledger entry {entry} of {document}")
        }
        (Settle::NoLedgerEntry { entry, document }, Lang::De) => {
            format!("Die Buchung {entry} von {document}")
        }
    }
}
