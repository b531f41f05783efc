//! What reading a bank statement file finds wrong (`FileFault`): the
//! predicate of "The file F …" / "Die Datei F …", and the clauses a line,
//! a balance or a booking of the file is refused with. The formats' own
//! names (camt's elements, MT940's fields) stay as the formats write them.

use crate::error::said::FileFault;
use crate::error::Lang;

use super::reader::Reader;

/// The fault in the reader's words.
pub fn text(fault: &FileFault, r: Reader) -> String {
    let q = |t: &str| r.quoted(t);
    let de = r.lang == Lang::De;
    match fault {
        FileFault::XmlLine { line, fault } if de => {
            format!("kann in Zeile {line} nicht gelesen werden: {}", text(fault, r))
        }
        FileFault::XmlLine { line, fault } => {
            format!("cannot be read at line {line}: {}", text(fault, r))
        }
        FileFault::Mt940Balance { tag, line, fault } if de => format!(
            "hat in Zeile {line} einen Saldo :{tag}:, der nicht gelesen werden kann: {}",
            text(fault, r)
        ),
        FileFault::Mt940Balance { tag, line, fault } => format!(
            "has a :{tag}: balance on line {line} that cannot be read: {}",
            text(fault, r)
        ),
        FileFault::Mt940Booking { line, fault } if de => format!(
            "hat in Zeile {line} eine Buchung :61:, die nicht gelesen werden kann: {}",
            text(fault, r)
        ),
        FileFault::Mt940Booking { line, fault } => format!(
            "has a :61: line on line {line} that cannot be read: {}",
            text(fault, r)
        ),
        FileFault::NotAmount { text, currency } if de => {
            format!("{} ist kein Betrag in {currency}", q(text))
        }
        FileFault::NotAmount { text, currency } => {
            format!("{} is not an amount of {currency}", q(text))
        }
        FileFault::NotDate { text } if de => format!("{} ist kein Datum", q(text)),
        FileFault::NotDate { text } => format!("{} is not a date", q(text)),
        FileFault::NoIsoCurrency { code } if de => {
            format!("{} ist keine Währung nach ISO 4217", q(code))
        }
        FileFault::NoIsoCurrency { code } => format!("{} is no ISO 4217 currency", q(code)),
        FileFault::AccountCurrency { code } if de => format!(
            "die Währung des Kontos {} ist keine Währung nach ISO 4217",
            q(code)
        ),
        FileFault::AccountCurrency { code } => format!(
            "the account's currency {} is no ISO 4217 currency",
            q(code)
        ),
        FileFault::CreditDebit { got } if de => {
            format!("CdtDbtInd ist {}, weder CRDT noch DBIT", q(got))
        }
        FileFault::CreditDebit { got } => {
            format!("CdtDbtInd is {}, neither CRDT nor DBIT", q(got))
        }
        FileFault::TooDeep { max } if de => {
            format!("ihre Elemente sind tiefer als {max} Ebenen verschachtelt")
        }
        FileFault::TooDeep { max } => format!("its elements nest deeper than {max}"),
        FileFault::NotUtf8 { at } if de => format!("ist kein UTF-8 (ab Byte {at})"),
        FileFault::NotUtf8 { at } => format!("is not UTF-8 (at byte {at})"),
        FileFault::NotXml { detail } if de => format!("sie ist kein wohlgeformtes XML ({detail})"),
        FileFault::NotXml { detail } => format!("it is not well-formed XML ({detail})"),
        FileFault::Entity { name } if de => format!(
            "sie verwendet die Entität &{name};, die in XML nicht definiert ist und die kontor nicht auflöst"
        ),
        FileFault::Entity { name } => format!(
            "it names the entity &{name};, which XML does not define and kontor does not expand"
        ),
        FileFault::CharacterReference { detail } if de => {
            format!("eine Zeichenreferenz ist falsch ({detail})")
        }
        FileFault::CharacterReference { detail } => {
            format!("a character reference is wrong ({detail})")
        }
        FileFault::TextTooLong { max } if de => {
            format!("ein Element enthält mehr als {max} Zeichen Text")
        }
        FileFault::TextTooLong { max } => {
            format!("an element holds more than {max} characters of text")
        }
        FileFault::Truncated { line, inside } if de => format!(
            "endet, bevor ihre Elemente geschlossen sind (in Zeile {line}, innerhalb von {inside}): sie ist wohl abgeschnitten"
        ),
        FileFault::Truncated { line, inside } => format!(
            "ends before its elements are closed (at line {line}, inside {inside}): it looks truncated"
        ),
        FileFault::NotCamt { root, namespace } if de => format!(
            "ist XML, aber keine Nachricht camt.052, camt.053 oder camt.054 der Versionen .001.02 bis .001.13 \
             (ihr Wurzelelement ist {} im Namensraum {})",
            q(root),
            q(namespace)
        ),
        FileFault::NotCamt { root, namespace } => format!(
            "is XML but no camt.052, camt.053 or camt.054 message of versions .001.02 to .001.13 \
             (its root is {} in the namespace {})",
            q(root),
            q(namespace)
        ),
        FileFault::NotZip { detail } if de => {
            format!("ist kein lesbares ZIP-Archiv ({detail})")
        }
        FileFault::NotZip { detail } => format!("is no ZIP archive that can be read ({detail})"),
        FileFault::TooManyMembers { count, max } if de => {
            format!("enthält {count} Dateien; kontor liest höchstens {max}")
        }
        FileFault::TooManyMembers { count, max } => {
            format!("holds {count} members; kontor reads at most {max}")
        }
        FileFault::MemberUnreadable { number, detail } if de => format!(
            "enthält eine Datei (Nummer {number}), die nicht gelesen werden kann ({detail})"
        ),
        FileFault::MemberUnreadable { number, detail } => {
            format!("has a member (number {number}) that cannot be read ({detail})")
        }
        FileFault::NotDecompressed { detail } if de => {
            format!("kann nicht entpackt werden ({detail})")
        }
        FileFault::NotDecompressed { detail } => format!("cannot be decompressed ({detail})"),
        FileFault::MemberTooLarge { mb } if de => format!(
            "ist entpackt größer als {mb} MB; mehr liest kontor von einer Auszugsdatei nicht"
        ),
        FileFault::MemberTooLarge { mb } => format!(
            "is larger than {mb} MB once decompressed, the most kontor reads of one statement file"
        ),
        FileFault::ZipTooLarge { mb } if de => format!(
            "enthält entpackt mehr als {mb} MB; mehr liest kontor von einem ZIP nicht"
        ),
        FileFault::ZipTooLarge { mb } => format!(
            "holds more than {mb} MB once decompressed, the most kontor reads of one ZIP"
        ),
        FileFault::FieldTooLong { max, line } if de => {
            format!("hat in Zeile {line} ein Feld, das länger als {max} Zeichen ist")
        }
        FileFault::FieldTooLong { max, line } => {
            format!("has a field longer than {max} characters at line {line}")
        }
        FileFault::NoDecimalComma { line, amount } if de => format!(
            "hat in Zeile {line} eine Buchung :61:, deren Betrag {} kein Dezimalkomma hat",
            q(amount)
        ),
        FileFault::NoDecimalComma { line, amount } => format!(
            "has a :61: line on line {line} whose amount {} has no decimal comma",
            q(amount)
        ),
        FileFault::NoAccountField { line } if de => {
            format!("hat einen Auszug (:20: in Zeile {line}) ohne Kontobezeichnung :25:")
        }
        FileFault::NoAccountField { line } => {
            format!("has a statement (:20: on line {line}) without its :25: account")
        }
        FileFault::NoBalance { line } if de => format!(
            "hat einen Auszug (:20: in Zeile {line}) ohne Anfangs- oder Schlusssaldo"
        ),
        FileFault::NoBalance { line } => format!(
            "has a statement (:20: on line {line}) without an opening or closing balance"
        ),
        FileFault::NoCurrency => r
            .pick(
                "an amount names no currency (Ccy)",
                "ein Betrag nennt keine Währung (Ccy)",
            )
            .into(),
        FileFault::BalanceIncomplete => r
            .pick(
                "a balance (Bal) lacks its amount or CdtDbtInd",
                "einem Saldo (Bal) fehlt sein Betrag oder CdtDbtInd",
            )
            .into(),
        FileFault::NoAccount => r
            .pick(
                "a statement names no account (Acct/Id)",
                "ein Auszug nennt kein Konto (Acct/Id)",
            )
            .into(),
        FileFault::NoStatementId => r
            .pick(
                "a statement has no Id",
                "ein Auszug hat keine Id",
            )
            .into(),
        FileFault::EntryNoAmount => r
            .pick(
                "an entry (Ntry) has no amount",
                "ein Umsatz (Ntry) hat keinen Betrag",
            )
            .into(),
        FileFault::EntryNoSign => r
            .pick(
                "an entry (Ntry) has no CdtDbtInd",
                "ein Umsatz (Ntry) hat kein CdtDbtInd",
            )
            .into(),
        FileFault::Dtd => r
            .pick(
                "it declares a DTD (<!DOCTYPE>), which a statement never has; kontor reads none",
                "sie deklariert eine DTD (<!DOCTYPE>), die ein Auszug nie hat; kontor liest keine DTD",
            )
            .into(),
        FileFault::NoElement => r
            .pick(
                "holds no XML element",
                "enthält kein XML-Element",
            )
            .into(),
        FileFault::Encrypted => r
            .pick(
                "is encrypted; kontor reads no encrypted member",
                "ist verschlüsselt; kontor liest keine verschlüsselte Datei",
            )
            .into(),
        FileFault::ZipInZip => r
            .pick(
                "is itself a ZIP; kontor reads no ZIP inside a ZIP",
                "ist selbst ein ZIP; kontor liest kein ZIP in einem ZIP",
            )
            .into(),
        FileFault::NoSign => r
            .pick(
                "it starts with neither C nor D",
                "er beginnt weder mit C noch mit D",
            )
            .into(),
        FileFault::NoBalanceDate => r
            .pick(
                "no date YYMMDD after the mark",
                "kein Datum JJMMTT nach dem Kennzeichen",
            )
            .into(),
        FileFault::NoBalanceCurrency => r
            .pick(
                "no currency",
                "keine Währung",
            )
            .into(),
        FileFault::NoBalanceIsoCurrency => r
            .pick(
                "no ISO 4217 currency after the date",
                "keine ISO-4217-Währung nach dem Datum",
            )
            .into(),
        FileFault::NoValueDate => r
            .pick(
                "it does not start with a value date YYMMDD",
                "sie beginnt nicht mit einem Valutadatum JJMMTT",
            )
            .into(),
        FileFault::ValueDate => r
            .pick(
                "the value date",
                "das Valutadatum",
            )
            .into(),
        FileFault::ValueDateNoDay => r
            .pick(
                "the value date YYMMDD is no day",
                "das Valutadatum JJMMTT ist kein gültiger Tag",
            )
            .into(),
        FileFault::BookingDate => r
            .pick(
                "the booking date",
                "das Buchungsdatum",
            )
            .into(),
        FileFault::BookingDateNoDay => r
            .pick(
                "the booking date MMDD is no day",
                "das Buchungsdatum MMTT ist kein gültiger Tag",
            )
            .into(),
        FileFault::NoMark => r
            .pick(
                "no mark C, D, RC or RD after the dates",
                "kein Kennzeichen C, D, RC oder RD nach den Datumsangaben",
            )
            .into(),
        FileFault::NoTypeAfterAmount => r
            .pick(
                "no transaction type after the amount",
                "kein Buchungsschlüssel nach dem Betrag",
            )
            .into(),
        FileFault::NoType => r
            .pick(
                "no transaction type (N, F or S and three characters) after the amount",
                "kein Buchungsschlüssel (N, F oder S und drei Zeichen) nach dem Betrag",
            )
            .into(),
        FileFault::NotMt940 => r
            .pick(
                "is no MT940 statement: it has no :20: field",
                "ist kein MT940-Auszug: sie hat kein Feld :20:",
            )
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::error::said::{Bank, FileFault};
    use crate::error::{Lang, Said};
    use crate::rules::catalogue::reader::Reader;

    fn said(file: &str, fault: FileFault, lang: Lang) -> String {
        Said::from(Bank::FileUnreadable {
            file: file.into(),
            fault,
        })
        .text(Reader::screens(lang))
    }

    #[test]
    fn a_files_fault_is_worded_in_both_languages() {
        let balance = || FileFault::Mt940Balance {
            tag: "60F".into(),
            line: 4,
            fault: Box::new(FileFault::NotAmount {
                text: "12x".into(),
                currency: "EUR".into(),
            }),
        };
        assert_eq!(
            said("a.sta", balance(), Lang::En),
            "The file a.sta has a :60F: balance on line 4 that cannot be read: \"12x\" is not an amount of EUR"
        );
        assert_eq!(
            said("a.sta", balance(), Lang::De),
            "Die Datei a.sta hat in Zeile 4 einen Saldo :60F:, der nicht gelesen werden kann: „12x“ ist kein Betrag in EUR"
        );
        assert_eq!(
            said("z.zip/b.xml", FileFault::ZipInZip, Lang::De),
            "Die Datei z.zip/b.xml ist selbst ein ZIP; kontor liest kein ZIP in einem ZIP"
        );
        assert_eq!(
            said(
                "z.zip",
                FileFault::TooManyMembers {
                    count: 1200,
                    max: 1000
                },
                Lang::De
            ),
            "Die Datei z.zip enthält 1200 Dateien; kontor liest höchstens 1000"
        );
    }
}
