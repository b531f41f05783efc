//! Bank accounts, statements and their lines (`Bank`).

use crate::error::said::Bank;
use crate::error::{Lang, Violation};

use super::reader::Reader;
use crate::rules::iso::Currency;

/// The message in the reader's words.
pub fn text(bank: &Bank, r: Reader) -> String {
    match (bank, r.lang) {
        (Bank::LineDay(said), Lang::En) => format!("The line's booking day {}", said.text(r)),
        (Bank::LineDay(said), Lang::De) => format!("Der Buchungstag der Zeile {}", said.text(r)),
        (Bank::LineAmount(said), Lang::En) => format!("The amount {}", said.text(r)),
        (Bank::LineAmount(said), Lang::De) => format!("Der Betrag {}", said.text(r)),
        (Bank::Names(said), Lang::En) => format!("names {}", said.text(r)),
        (Bank::Names(said), Lang::De) => format!("nennt, was es nicht gibt: {}", said.text(r)),
        (Bank::NoDocument { number, bill }, Lang::En) => format!(
            "{number}, which is no {} of the company",
            if *bill {
                "bill"
            } else {
                "invoice that takes payments"
            }
        ),
        (Bank::FileSeenBefore { before, on }, Lang::En) => format!(
            "The same file was imported before (as {before}{}); nothing of it was imported again.",
            on.map(|d| format!(", on {}", r.date(d))).unwrap_or_default()
        ),
        (Bank::FileSeenBefore { before, on }, Lang::De) => format!(
            "Dieselbe Datei wurde schon importiert (als {before}{}); nichts davon wurde noch einmal importiert.",
            on.map(|d| format!(", am {}", r.date(d))).unwrap_or_default()
        ),
        (
            Bank::StatementSeenBefore {
                statement,
                sequence,
                account,
            },
            Lang::En,
        ) => format!(
            "The statement {statement} ({}) of {account} was imported before; its lines were not imported again.",
            sequence.as_deref().unwrap_or("no sequence number")
        ),
        (
            Bank::StatementSeenBefore {
                statement,
                sequence,
                account,
            },
            Lang::De,
        ) => format!(
            "Der Auszug {statement} ({}) von {account} wurde schon importiert; seine Buchungen wurden nicht noch einmal importiert.",
            sequence.as_deref().unwrap_or("ohne Auszugsnummer")
        ),
        (
            Bank::ChainBreaks {
                account,
                statement,
                opening,
                closing,
            },
            Lang::En,
        ) => format!(
            "The balance chain of {account} breaks at the statement {statement}: it opens with {}, but the statement before closed with {}.",
            r.amount(opening),
            r.amount(closing)
        ),
        (
            Bank::ChainBreaks {
                account,
                statement,
                opening,
                closing,
            },
            Lang::De,
        ) => format!(
            "Die Saldenfolge von {account} reißt beim Auszug {statement}: Er beginnt mit {}, der Auszug davor schloss aber mit {}.",
            r.amount(opening),
            r.amount(closing)
        ),
        // Both languages put the parts in the same order.
        (
            Bank::EntryRepeats {
                lines,
                on,
                amount,
                reference,
                statement,
                earlier,
            },
            _,
        ) => {
            let what = match lines {
                1 => r.pick("The line", "Die Buchung").to_string(),
                n => match r.lang {
                    Lang::En => format!("The {n} lines of the entry"),
                    Lang::De => format!("Die {n} Buchungen des Umsatzes"),
                },
            };
            let day = match on {
                Some(d) => format!("{} {}", r.pick("of", "vom"), r.date(*d)),
                None => r.pick("undated", "ohne Datum").to_string(),
            };
            let reference = reference
                .as_deref()
                .map(|x| format!(", {} {x},", r.pick("reference", "Referenz")))
                .unwrap_or_default();
            let verb = match (*lines == 1, r.lang) {
                (true, Lang::En) => "repeats",
                (false, Lang::En) => "repeat",
                (true, Lang::De) => "wiederholt",
                (false, Lang::De) => "wiederholen",
            };
            let repeated = match earlier {
                Some([line, before, file]) => match r.lang {
                    Lang::En => format!("the line {line} of the statement {before} (file {file})"),
                    Lang::De => format!("die Buchung {line} des Auszugs {before} (Datei {file})"),
                },
                None => r
                    .pick("an entry imported before", "einen schon importierten Umsatz")
                    .to_string(),
            };
            format!(
                "{what} {day} {} {}{reference} {} {statement} {verb} {repeated}; {}",
                r.pick("over", "über"),
                r.amount(amount),
                r.pick("in the statement", "im Auszug"),
                r.pick("not imported again.", "nicht noch einmal importiert.")
            )
        }
        (
            Bank::DetailActedOn {
                entry,
                account,
                count,
                statement,
            },
            Lang::En,
        ) => format!(
            "The entry {entry} of {account} was acted on already (settled, in part, or ignored); the {count} transactions \
             the statement {statement} details it by were not imported (they would offer that money again)."
        ),
        (
            Bank::DetailActedOn {
                entry,
                account,
                count,
                statement,
            },
            Lang::De,
        ) => format!(
            "Der Umsatz {entry} von {account} ist schon bearbeitet (ausgeglichen, zum Teil oder ignoriert); die {count} \
             Einzelumsätze, in die ihn der Auszug {statement} aufschlüsselt, wurden nicht importiert (sie böten dieses Geld noch einmal an)."
        ),
        (Bank::FileUnreadable { file, fault }, Lang::En) => {
            format!("The file {file} {}", super::statement::text(fault, r))
        }
        (Bank::FileUnreadable { file, fault }, Lang::De) => {
            format!("Die Datei {file} {}", super::statement::text(fault, r))
        }
        (Bank::FileEmpty { file }, Lang::En) => format!("The file {file} is empty."),
        (Bank::FileEmpty { file }, Lang::De) => format!("Die Datei {file} ist leer."),
        (Bank::FileNoStatement { file }, Lang::En) => format!(
            "The file {file} is neither camt XML, a ZIP of camt files, nor MT940."
        ),
        (Bank::FileNoStatement { file }, Lang::De) => format!(
            "Die Datei {file} ist weder camt-XML noch ein ZIP mit camt-Dateien noch MT940."
        ),
        (Bank::FileTooLarge { file, mb, zip }, Lang::En) => format!(
            "The file {file} is larger than {mb} MB, the most kontor reads of one {}.",
            if *zip { "ZIP" } else { "statement file" }
        ),
        (Bank::FileTooLarge { file, mb, zip }, Lang::De) => format!(
            "Die Datei {file} ist größer als {mb} MB, das Höchste, was kontor {} liest.",
            if *zip { "von einem ZIP" } else { "von einer Auszugsdatei" }
        ),
        (Bank::NotOurAccount { file, account }, Lang::En) if r.on_screens() => format!(
            "The file {file} holds a statement of the account {account}, which is none of the company's bank accounts; add it first under Bank accounts."
        ),
        (Bank::NotOurAccount { file, account }, Lang::En) => format!(
            "The file {file} holds a statement of the account {account}, which is none of the company's bank accounts; add it first (kontor bank account add)."
        ),
        (Bank::NotOurAccount { file, account }, Lang::De) if r.on_screens() => format!(
            "Die Datei {file} enthält einen Auszug des Kontos {account}, das keines der Bankkonten der Firma ist; legen Sie es zuerst unter Bankkonten an."
        ),
        (Bank::NotOurAccount { file, account }, Lang::De) => format!(
            "Die Datei {file} enthält einen Auszug des Kontos {account}, das keines der Bankkonten der Firma ist; legen Sie es zuerst an (kontor bank account add)."
        ),
        (
            Bank::StatementCurrency {
                file,
                currency,
                account,
                kept,
            },
            Lang::En,
        ) => format!(
            "The file {file} holds a statement in {currency} of the account {account}, which is kept in {kept}."
        ),
        (
            Bank::StatementCurrency {
                file,
                currency,
                account,
                kept,
            },
            Lang::De,
        ) => format!(
            "Die Datei {file} enthält einen Auszug in {currency} des Kontos {account}, das in {kept} geführt wird."
        ),
        (
            Bank::EntryCurrency {
                file,
                amount,
                statement,
                account,
                kept,
            },
            Lang::En,
        ) => format!(
            "The file {file} holds an entry of {} in the statement {statement} of the account {account}, which is kept in {kept}.",
            r.amount(amount)
        ),
        (
            Bank::EntryCurrency {
                file,
                amount,
                statement,
                account,
                kept,
            },
            Lang::De,
        ) => format!(
            "Die Datei {file} enthält eine Buchung über {} im Auszug {statement} des Kontos {account}, das in {kept} geführt wird.",
            r.amount(amount)
        ),
        (Bank::NotNationalAccount { got }, Lang::En) => format!(
            "is BANKCODE/NUMBER in digits, such as 50880050/0194774600888, not {}",
            r.quoted(got)
        ),
        (Bank::NotNationalAccount { got }, Lang::De) => format!(
            "ist BANKLEITZAHL/KONTONUMMER in Ziffern, etwa 50880050/0194774600888, nicht {}",
            r.quoted(got)
        ),
        (Bank::IbanMissing, _) if r.on_screens() => r
            .pick(
                "is missing; give the IBAN, or the bank code and account number for an account no IBAN expresses",
                "fehlt; geben Sie die IBAN an, oder Bankleitzahl und Kontonummer für ein Konto, das keine IBAN ausdrückt",
            )
            .into(),
        (Bank::IbanMissing, _) => r
            .pick(
                "is missing; give the IBAN, or --account BANKCODE/NUMBER for an account no IBAN expresses",
                "fehlt; geben Sie die IBAN an, oder --account BANKLEITZAHL/KONTONUMMER für ein Konto, das keine IBAN ausdrückt",
            )
            .into(),
        (Bank::AccountBesideIban, _) => r
            .pick(
                "is given beside an IBAN; give one of them",
                "ist neben einer IBAN angegeben; geben Sie eines davon an",
            )
            .into(),
        (Bank::KnownAccount { account, id }, Lang::En) => {
            format!("is the account {account} the company already has ({id})")
        }
        (Bank::KnownAccount { account, id }, Lang::De) => {
            format!("ist das Konto {account}, das die Firma schon hat ({id})")
        }
        (Bank::ToleranceRange, _) => r
            .pick(
                "must be 0 or a positive number of minor units, at most 10^15",
                "muss 0 oder eine positive Zahl von Untereinheiten sein, höchstens 10^15",
            )
            .into(),
        (Bank::Preliminary { id }, Lang::En) => format!(
            "The line {id} is preliminary (not yet booked by the bank); it settles nothing."
        ),
        (Bank::Preliminary { id }, Lang::De) => format!(
            "Die Zeile {id} ist vorläufig (von der Bank noch nicht gebucht); sie gleicht nichts aus."
        ),
        (Bank::SettledUndoFirst { id }, Lang::En) => {
            format!("The line {id} is settled; undo it first.")
        }
        (Bank::SettledUndoFirst { id }, Lang::De) => {
            format!("Die Zeile {id} ist ausgeglichen; machen Sie das zuerst rückgängig.")
        }
        (Bank::IgnoredUndoFirst { id }, Lang::En) => {
            format!("The line {id} is ignored; undo that first.")
        }
        (Bank::IgnoredUndoFirst { id }, Lang::De) => {
            format!("Die Zeile {id} ist ignoriert; machen Sie das zuerst rückgängig.")
        }
        (Bank::NoSuchSuggestion { n, id, count: 0 }, Lang::En) => {
            format!("is {n}, but the line {id} has no suggestion; split or book it")
        }
        (Bank::NoSuchSuggestion { n, id, count: 0 }, Lang::De) => format!(
            "ist {n}, aber die Zeile {id} hat keinen Vorschlag; teilen oder buchen Sie sie"
        ),
        (Bank::NoSuchSuggestion { n, id, count }, Lang::En) => {
            format!("is {n}, but the line {id} has suggestions 1 to {count}")
        }
        (Bank::NoSuchSuggestion { n, id, count }, Lang::De) => {
            format!("ist {n}, aber die Zeile {id} hat die Vorschläge 1 bis {count}")
        }
        (Bank::TwoSuppliers { number, a, b }, Lang::En) => format!(
            "{number} is the number of bills of two suppliers ({a}, {b}); name the bill by its id."
        ),
        (Bank::TwoSuppliers { number, a, b }, Lang::De) => format!(
            "{number} ist die Nummer von Eingangsrechnungen zweier Lieferanten ({a}, {b}); nennen Sie die Eingangsrechnung bei ihrer Kennung."
        ),
        (Bank::SplitMissing, _) => r
            .pick(
                "is missing; name at least one document and its amount",
                "fehlt; nennen Sie mindestens einen Beleg und seinen Betrag",
            )
            .into(),
        (Bank::PositiveAmount, _) => r
            .pick("must be a positive amount", "muss ein positiver Betrag sein")
            .into(),
        (
            Bank::PartAboveOpen {
                number,
                amount,
                open,
            },
            Lang::En,
        ) => format!(
            "gives {number} {}, more than the {} it still owes",
            r.amount(amount),
            r.amount(open)
        ),
        (
            Bank::PartAboveOpen {
                number,
                amount,
                open,
            },
            Lang::De,
        ) => format!(
            "gibt {number} {}, mehr als die {}, die noch offen sind",
            r.amount(amount),
            r.amount(open)
        ),
        (Bank::SplitAboveLeft { total, left }, Lang::En) => format!(
            "adds up to {}, more than the {} the line has left",
            r.amount(total),
            r.amount(left)
        ),
        (Bank::SplitAboveLeft { total, left }, Lang::De) => format!(
            "ergibt {}, mehr als die {}, die der Zeile bleiben",
            r.amount(total),
            r.amount(left)
        ),
        (Bank::PartlySettled { id }, Lang::En) => format!(
            "The line {id} settled part of its amount already; undo that before ignoring it."
        ),
        (Bank::PartlySettled { id }, Lang::De) => format!(
            "Die Zeile {id} hat schon einen Teil ihres Betrags ausgeglichen; machen Sie das rückgängig, bevor Sie sie ignorieren."
        ),
        (Bank::LeftToSettle { id, left, total }, Lang::En) => format!(
            "The line {id} has {} left to settle; the documents named take {}.",
            r.amount(left),
            r.amount(total)
        ),
        (Bank::LeftToSettle { id, left, total }, Lang::De) => format!(
            "Der Zeile {id} bleiben {} auszugleichen; die genannten Belege nehmen {}.",
            r.amount(left),
            r.amount(total)
        ),
        (Bank::NotBookAccount { got, money_in }, Lang::En) => format!(
            "is fees, interest, tax, transfer or other{}, not {}",
            if *money_in { " (or credit)" } else { "" },
            r.quoted(got)
        ),
        (Bank::NotBookAccount { got, money_in }, Lang::De) => format!(
            "ist fees, interest, tax, transfer oder other{}, nicht {}",
            if *money_in { " (oder credit)" } else { "" },
            r.quoted(got)
        ),
        (Bank::CreditForMoneyIn, _) => r
            .pick(
                "is credit, which is for money in; what a payment out leaves is booked to an account",
                "ist Guthaben, das nur für Geldeingänge gilt; was eine Zahlung nach außen übrig lässt, wird auf ein Konto gebucht",
            )
            .into(),
        (Bank::NamedTwice { number }, Lang::En) => format!("names {number} a second time"),
        (Bank::NamedTwice { number }, Lang::De) => format!("nennt {number} ein zweites Mal"),
        (Bank::AboveLeftToBook { id }, Lang::En) => {
            format!("is more than the line {id} has left to book, or not positive")
        }
        (Bank::AboveLeftToBook { id }, Lang::De) => {
            format!("ist mehr, als der Zeile {id} zu buchen bleibt, oder nicht positiv")
        }
        (
            Bank::LineCurrencyBooks {
                id,
                currency,
                books,
            },
            Lang::En,
        ) => format!(
            "The bank line {id} is in {currency}; the books are kept in {books}, and kontor converts no bank money."
        ),
        (
            Bank::LineCurrencyBooks {
                id,
                currency,
                books,
            },
            Lang::De,
        ) => format!(
            "Die Bankzeile {id} ist in {currency}; die Bücher werden in {books} geführt, und kontor rechnet kein Bankgeld um."
        ),
        (Bank::NothingToUndo { id }, Lang::En) => {
            format!("The line {id} settled nothing that could be undone.")
        }
        (Bank::NothingToUndo { id }, Lang::De) => {
            format!("Die Zeile {id} hat nichts ausgeglichen, das rückgängig gemacht werden könnte.")
        }
        (Bank::ReturnedDebit { id }, Lang::En) => format!(
            "The line {id} is a returned direct debit; what it took back stays taken back."
        ),
        (Bank::ReturnedDebit { id }, Lang::De) => format!(
            "Die Zeile {id} ist eine zurückgegebene Lastschrift; was sie zurückgenommen hat, bleibt zurückgenommen."
        ),
        (Bank::WasReturned { id, payment, on }, Lang::En) => format!(
            "The line {id} was returned: a returned direct debit took its payment {payment} back on {}.",
            r.date(*on)
        ),
        (Bank::WasReturned { id, payment, on }, Lang::De) => format!(
            "Die Zeile {id} wurde zurückgegeben: Eine zurückgegebene Lastschrift hat ihre Zahlung {payment} am {} zurückgenommen.",
            r.date(*on)
        ),
        (Bank::NoDocument { number, bill }, Lang::De) => format!(
            "{number} ist {}",
            if *bill {
                "keine Eingangsrechnung der Firma"
            } else {
                "keine Rechnung der Firma, die Zahlungen annimmt"
            }
        ),
        (
            Bank::Reason {
                code,
                numbers,
                difference,
                iban,
                reference,
                stored,
            },
            _,
        ) => {
            let reference = reference.as_deref().map(|x| format!(" {x}")).unwrap_or_default();
            let d = r.amount(difference);
            reason(code.as_deref(), numbers, &d, iban, &reference, r).unwrap_or_else(|| stored.clone())
        }
        (Bank::ReturnKept { line, why }, Lang::En) => format!(
            "The returned direct debit {line} could not take back what its original line settled: {}",
            because(why, r)
        ),
        (Bank::ReturnKept { line, why }, Lang::De) => format!(
            "Die zurückgegebene Lastschrift {line} konnte nicht zurücknehmen, was ihre ursprüngliche Bankzeile ausgeglichen hat: {}",
            because(why, r)
        ),
        (Bank::NotSuggested { reason, line, why }, Lang::En) => format!(
            "{} The line {line} is not suggested: {}",
            reason.text(r),
            because(why, r)
        ),
        (Bank::NotSuggested { reason, line, why }, Lang::De) => format!(
            "{} Die Bankzeile {line} wird nicht vorgeschlagen: {}",
            reason.text(r),
            because(why, r)
        ),
        (Bank::NotSettled { reason, line, why }, Lang::En) => format!(
            "{} The line {line} could not be settled at import and is not suggested: {}",
            reason.text(r),
            because(why, r)
        ),
        (Bank::NotSettled { reason, line, why }, Lang::De) => format!(
            "{} Die Bankzeile {line} konnte beim Import nicht ausgeglichen werden und wird nicht vorgeschlagen: {}",
            reason.text(r),
            because(why, r)
        ),
        (Bank::PaysMore { reason, line, more }, Lang::En) => format!(
            "{} The line {line} pays {} more than that; keep it as the customer's credit or book it.",
            reason.text(r),
            r.amount(more)
        ),
        (Bank::PaysMore { reason, line, more }, Lang::De) => format!(
            "{} Die Bankzeile {line} zahlt {} mehr, als offen war; behalten Sie den Rest als Guthaben des Kunden oder buchen Sie ihn.",
            reason.text(r),
            r.amount(more)
        ),
        (Bank::Rounded { written, read }, Lang::En) => format!(
            "The amount {written} has more decimals than {} has ({}); it was read as {}.",
            read.currency,
            decimals(&read.currency),
            r.amount(read)
        ),
        (Bank::Rounded { written, read }, Lang::De) => format!(
            "Der Betrag {written} hat mehr Nachkommastellen, als {} hat ({}); er wurde als {} gelesen.",
            read.currency,
            decimals(&read.currency),
            r.amount(read)
        ),
        (Bank::LastOfMonth { written, read }, Lang::En) => format!(
            "The line's date {written} names a day its month does not have (30/360 interest days); \
             it was read as {}, the month's last day.",
            r.date(*read)
        ),
        (Bank::LastOfMonth { written, read }, Lang::De) => format!(
            "Das Datum {written} des Umsatzes nennt einen Tag, den es in diesem Monat nicht gibt (Zinstage nach 30/360); \
             es wurde als letzter Tag des Monats gelesen ({}).",
            r.date(*read)
        ),
        (Bank::BalanceRemark { tag, line, remark }, Lang::En) => {
            format!("The :{tag}: balance on line {line}: {}", remark.text(r))
        }
        (Bank::BalanceRemark { tag, line, remark }, Lang::De) => {
            format!("Der Saldo :{tag}: in Zeile {line} der Datei: {}", remark.text(r))
        }
        (
            Bank::EntryRemark {
                amount,
                reference,
                statement,
                remark,
            },
            _,
        ) => format!(
            "{} {}{} {} {statement}: {}",
            r.pick("The entry over", "Der Umsatz über"),
            r.amount(amount),
            reference
                .as_deref()
                .map(|x| format!(" ({} {x})", r.pick("reference", "Referenz")))
                .unwrap_or_default(),
            r.pick("in the statement", "im Auszug"),
            remark.text(r)
        ),
        (Bank::StatementRemark { statement, remark }, _) => format!(
            "{} {statement}: {}",
            r.pick("The statement", "Der Auszug"),
            remark.text(r)
        ),
    }
}

/// The number of decimals of the currency `code` (2 for one kontor does
/// not know).
fn decimals(code: &str) -> u8 {
    Currency::parse("currency", code).map_or(2, |c| c.exponent())
}

/// The violations that refused an act, in the reader's words, fields named
/// as the reader's surface names them.
fn because(why: &[Violation], r: Reader) -> String {
    r.sentences(why, &|f| r.the_field(f))
}

/// Why the ladder matched a line, from its reason's code
/// (`books::bank::matching::Reason::code`): `numbers` the documents',
/// `d` the difference to what they owe, `reference` the creditor
/// reference with a space before it (or nothing); `None` for an unknown
/// code.
fn reason(
    code: Option<&str>,
    numbers: &str,
    d: &str,
    iban: &str,
    reference: &str,
    r: Reader,
) -> Option<String> {
    let (en, de) = match code? {
        "creditorReference" => (
            format!("The creditor reference{reference} is the one of {numbers}."),
            format!("Die Gläubigerreferenz{reference} ist die von {numbers}."),
        ),
        "number" => (
            format!("The remittance names {numbers} and the amount is its open amount."),
            format!("Der Verwendungszweck nennt {numbers}, und der Betrag ist der offene Betrag."),
        ),
        "combined" => (
            format!("The remittance names {numbers} and the amount is their open sum."),
            format!("Der Verwendungszweck nennt {numbers}, und der Betrag ist ihre offene Summe."),
        ),
        "knownIban" => (
            format!("The IBAN {iban} is known for the partner of {numbers}, and the amount is what is open."),
            format!("Die IBAN {iban} ist vom Partner von {numbers} bekannt, und der Betrag ist der offene Betrag."),
        ),
        "feeReduced" => (
            format!("The remittance names {numbers}; the amount is {d} less than open, within the fee tolerance."),
            format!("Der Verwendungszweck nennt {numbers}; der Betrag ist {d} geringer als offen, innerhalb der Gebührentoleranz."),
        ),
        "partial" => (
            format!("The remittance names {numbers}; the amount is {d} less than open (a partial payment)."),
            format!("Der Verwendungszweck nennt {numbers}; der Betrag ist {d} geringer als offen (eine Teilzahlung)."),
        ),
        "overpaid" => (
            format!("The remittance names {numbers}; the amount is {d} more than open (an overpayment)."),
            format!("Der Verwendungszweck nennt {numbers}; der Betrag ist {d} höher als offen (eine Überzahlung)."),
        ),
        "oneOfSeveral" => (
            format!("The remittance names several numbers; the amount is the open amount of {numbers}."),
            format!("Der Verwendungszweck nennt mehrere Nummern; der Betrag ist der offene Betrag von {numbers}."),
        ),
        "nameAlike" => (
            format!("The payer's name is alike the partner of {numbers}, and the amount is its open amount."),
            format!("Der Name des Zahlers ähnelt dem Partner von {numbers}, und der Betrag ist dessen offener Betrag."),
        ),
        "cashDiscount" => (
            format!("The remittance names {numbers}; the amount is its open amount less its cash discount of {d}, paid within the discount's period."),
            format!("Der Verwendungszweck nennt {numbers}; der Betrag ist der offene Betrag abzüglich {d} Skonto, gezahlt innerhalb der Skontofrist."),
        ),
        _ => return None,
    };
    Some(match r.lang {
        Lang::En => en,
        Lang::De => de,
    })
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use crate::error::said::{Bank, Sum};
    use crate::error::{Lang, Said, Violation};
    use crate::rules::catalogue::reader::Reader;

    fn said(bank: Bank, lang: Lang) -> String {
        Said::from(bank).text(Reader::screens(lang))
    }

    fn sum(minor: i64) -> Sum {
        Sum {
            minor,
            currency: "EUR".into(),
        }
    }

    fn reason() -> Box<Said> {
        Box::new(Said::from(Bank::Reason {
            code: Some("number".into()),
            numbers: "RE2026-00017".into(),
            difference: sum(0),
            iban: String::new(),
            reference: None,
            stored: "stored".into(),
        }))
    }

    #[test]
    fn an_imports_notes_are_worded_in_both_languages() {
        let why = vec![Violation::whole(Said::English("closed".into()))];
        let cases = [
            (
                Bank::ReturnKept {
                    line: "bln_1".into(),
                    why: why.clone(),
                },
                "Die zurückgegebene Lastschrift bln_1 konnte nicht zurücknehmen, was ihre ursprüngliche Bankzeile ausgeglichen hat: closed.",
            ),
            (
                Bank::NotSuggested {
                    reason: reason(),
                    line: "bln_1".into(),
                    why: why.clone(),
                },
                "Der Verwendungszweck nennt RE2026-00017, und der Betrag ist der offene Betrag. Die Bankzeile bln_1 wird nicht vorgeschlagen: closed.",
            ),
            (
                Bank::NotSettled {
                    reason: reason(),
                    line: "bln_1".into(),
                    why,
                },
                "Der Verwendungszweck nennt RE2026-00017, und der Betrag ist der offene Betrag. Die Bankzeile bln_1 konnte beim Import nicht ausgeglichen werden und wird nicht vorgeschlagen: closed.",
            ),
            (
                Bank::StatementRemark {
                    statement: "S-1".into(),
                    remark: Box::new(
                        Bank::BalanceRemark {
                            tag: "60F".into(),
                            line: 3,
                            remark: Box::new(
                                Bank::Rounded {
                                    written: "1000,005".into(),
                                    read: sum(100_001),
                                }
                                .into(),
                            ),
                        }
                        .into(),
                    ),
                },
                "Der Auszug S-1: Der Saldo :60F: in Zeile 3 der Datei: Der Betrag 1000,005 hat mehr Nachkommastellen, als EUR hat (2); er wurde als 1.000,01\u{a0}€ gelesen.",
            ),
            (
                Bank::EntryRemark {
                    amount: sum(-450),
                    reference: Some("NONREF".into()),
                    statement: "S-1".into(),
                    remark: Box::new(
                        Bank::LastOfMonth {
                            written: "260230".into(),
                            read: date(2026, 2, 28),
                        }
                        .into(),
                    ),
                },
                "Der Umsatz über -4,50\u{a0}€ (Referenz NONREF) im Auszug S-1: Das Datum 260230 des Umsatzes nennt einen Tag, den es in diesem Monat nicht gibt (Zinstage nach 30/360); es wurde als letzter Tag des Monats gelesen (28.02.2026).",
            ),
        ];
        let english = [
            "The returned direct debit bln_1 could not take back what its original line settled: closed.",
            "The remittance names RE2026-00017 and the amount is its open amount. The line bln_1 is not suggested: closed.",
            "The remittance names RE2026-00017 and the amount is its open amount. The line bln_1 could not be settled at import and is not suggested: closed.",
            "The statement S-1: The :60F: balance on line 3: The amount 1000,005 has more decimals than EUR has (2); it was read as €1,000.01.",
            "The entry over -€4.50 (reference NONREF) in the statement S-1: The line's date 260230 names a day its month does not have (30/360 interest days); it was read as 28 Feb 2026, the month's last day.",
        ];
        for ((bank, german), english) in cases.into_iter().zip(english) {
            assert_eq!(said(bank.clone(), Lang::De), german);
            assert_eq!(said(bank, Lang::En), english);
        }
    }

    #[test]
    fn a_creditor_reference_matched_is_named() {
        let with = |reference: Option<&str>, lang| {
            said(
                Bank::Reason {
                    code: Some("creditorReference".into()),
                    numbers: "RE2026-00017".into(),
                    difference: sum(0),
                    iban: String::new(),
                    reference: reference.map(str::to_string),
                    stored: "stored".into(),
                },
                lang,
            )
        };
        assert_eq!(
            with(Some("RF18RE202600017"), Lang::En),
            "The creditor reference RF18RE202600017 is the one of RE2026-00017."
        );
        assert_eq!(
            with(None, Lang::De),
            "Die Gläubigerreferenz ist die von RE2026-00017."
        );
        // A suggestion kept before codes were says its stored sentence.
        assert_eq!(
            said(
                Bank::Reason {
                    code: None,
                    numbers: String::new(),
                    difference: sum(0),
                    iban: String::new(),
                    reference: None,
                    stored: "As it was kept.".into(),
                },
                Lang::De
            ),
            "As it was kept."
        );
    }
}
