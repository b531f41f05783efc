//! Fixed assets and their depreciation (`Asset`).

use crate::error::said::Asset;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(asset: &Asset, r: Reader) -> String {
    match (asset, r.lang) {
        (Asset::NotYesNo { got }, Lang::En) => format!("is yes or no, not {}", r.quoted(got)),
        (Asset::NotYesNo { got }, Lang::De) => format!("ist yes oder no, nicht {}", r.quoted(got)),
        (Asset::NoChoice, _) => r
            .pick(
                "or the low-value rule is to be given (yes or no)",
                "oder die Regel für geringwertige Wirtschaftsgüter ist anzugeben (yes oder no)",
            )
            .into(),
        (Asset::ChoicesClosed { through, year }, Lang::En) => format!(
            "The books are closed through {}; the choices of {year} cannot change.",
            r.date(*through)
        ),
        (Asset::ChoicesClosed { through, year }, Lang::De) => format!(
            "Die Bücher sind bis {} abgeschlossen; die Wahl für {year} kann sich nicht ändern.",
            r.date(*through)
        ),
        (Asset::ChoicesUsed { year, assets }, Lang::En) => format!(
            "The choices of {year} cannot change: {} recorded in it would be written off otherwise.",
            assets.join(", ")
        ),
        (Asset::ChoicesUsed { year, assets }, Lang::De) => format!(
            "Die Wahl für {year} kann sich nicht ändern: {}, darin erfasst, würde sonst anders abgeschrieben.",
            assets.join(", ")
        ),
        (Asset::NotAboveNothing { got }, Lang::En) => {
            format!("is an amount above nothing, not {}", r.amount(got))
        }
        (Asset::NotAboveNothing { got }, Lang::De) => {
            format!("ist ein Betrag über null, nicht {}", r.amount(got))
        }
        (Asset::ProceedsNeedInvoice, _) => r
            .pick(
                "is needed with the proceeds: a sale is invoiced as a supply like any other (§ 14 UStG), and its revenue moves to the proceeds of asset sales",
                "wird mit dem Erlös gebraucht: Ein Verkauf wird wie jede Lieferung in Rechnung gestellt (§ 14 UStG), und sein Erlös geht auf die Erlöse aus Anlagenverkäufen",
            )
            .into(),
        (Asset::SaleByCreditNote { number }, Lang::En) => {
            format!("names {number}, a credit note: an asset is sold by an invoice")
        }
        (Asset::SaleByCreditNote { number }, Lang::De) => format!(
            "nennt {number}, eine Stornorechnung: Ein Anlagegut wird mit einer Rechnung verkauft"
        ),
        (Asset::NoRevenue { number }, Lang::En) => {
            format!("names {number}, which booked no revenue")
        }
        (Asset::NoRevenue { number }, Lang::De) => {
            format!("nennt {number}, die keinen Erlös gebucht hat")
        }
        (Asset::Disposed { asset, on }, Lang::En) => {
            format!("{asset} left the books on {} already.", r.date(*on))
        }
        (Asset::Disposed { asset, on }, Lang::De) => {
            format!("{asset} ist schon am {} aus den Büchern gegangen.", r.date(*on))
        }
        (Asset::BeforeAcquisition { acquired }, Lang::En) => format!(
            "lies before the asset's acquisition on {}: an asset leaves the books after it came",
            r.date(*acquired)
        ),
        (Asset::BeforeAcquisition { acquired }, Lang::De) => format!(
            "liegt vor der Anschaffung des Anlageguts am {}: Ein Anlagegut verlässt die Bücher nach seinem Zugang",
            r.date(*acquired)
        ),
        (Asset::ProceedsAboveRevenue { left, key }, Lang::En) => format!(
            "are more than the {} of revenue the invoice has left under {key}",
            r.amount(left)
        ),
        (Asset::ProceedsAboveRevenue { left, key }, Lang::De) => format!(
            "sind mehr als die {} Erlös, die der Rechnung unter {key} bleiben",
            r.amount(left)
        ),
        (Asset::NoLife, _) => r
            .pick(
                "is at least 1: an asset used for no time at all is no fixed asset but an expense",
                "ist mindestens 1: Ein Gut, das gar keine Zeit genutzt wird, ist kein Anlagegut, sondern Aufwand",
            )
            .into(),
        (Asset::LifeRange { max, got }, Lang::En) => {
            format!("is a number of months from 1 to {max}, not {got}")
        }
        (Asset::LifeRange { max, got }, Lang::De) => {
            format!("ist eine Zahl von Monaten von 1 bis {max}, nicht {got}")
        }
        (Asset::OneYearNotForClass { class, key }, Lang::En) => format!(
            "is for computer hardware and software (BMF-Schreiben of 22 February 2022); {class} ({key}) is neither"
        ),
        (Asset::OneYearNotForClass { class, key }, Lang::De) => format!(
            "gilt für Computerhardware und Software (BMF-Schreiben vom 22. Februar 2022); {class} ({key}) ist keines davon"
        ),
        (Asset::LifeNeeded { class }, Lang::En) => {
            format!("is needed for the class {class}: the table gives it no useful life")
        }
        (Asset::LifeNeeded { class }, Lang::De) => format!(
            "wird für die Klasse {class} gebraucht: Die Tabelle gibt ihr keine Nutzungsdauer"
        ),
        (Asset::BillNeeded, _) => r
            .pick(
                "is needed with the line: the bill the line is of",
                "wird mit der Position gebraucht: die Eingangsrechnung der Position",
            )
            .into(),
        (Asset::NotPosition { got }, Lang::En) => {
            format!("is a line's position from 1, not {got}")
        }
        (Asset::NotPosition { got }, Lang::De) => {
            format!("ist die Nummer einer Position ab 1, nicht {got}")
        }
        (Asset::LineNeeded, _) => r
            .pick(
                "is needed with the bill: which of its lines",
                "wird mit der Eingangsrechnung gebraucht: welche ihrer Positionen",
            )
            .into(),
        (Asset::ByCredit { bill }, Lang::En) => {
            format!("names {bill}, a supplier's credit: an asset is acquired by a bill")
        }
        (Asset::ByCredit { bill }, Lang::De) => format!(
            "nennt {bill}, eine Gutschrift des Lieferanten: Ein Anlagegut wird mit einer Eingangsrechnung angeschafft"
        ),
        (Asset::NoLine { bill, position }, Lang::En) => {
            format!("names no line of the bill {bill} (line {position})")
        }
        (Asset::NoLine { bill, position }, Lang::De) => {
            format!("nennt keine Position der Eingangsrechnung {bill} (Position {position})")
        }
        (Asset::Entertainment, _) => r
            .pick(
                "is business entertainment, split 70/30 in the books; no asset is bought so",
                "ist eine Bewirtung, in den Büchern 70/30 geteilt; so wird kein Anlagegut gekauft",
            )
            .into(),
        (Asset::LineTaken { bill, net }, Lang::En) => format!(
            "of the bill {bill} has nothing left to record: its net of {} is taken by the assets recorded from it",
            r.amount(net)
        ),
        (Asset::LineTaken { bill, net }, Lang::De) => format!(
            "der Eingangsrechnung {bill} hat nichts mehr zu erfassen: Ihr Netto von {} ist von den aus ihr erfassten Anlagegütern genommen",
            r.amount(net)
        ),
        (Asset::AboveLineLeft { left, position }, Lang::En) => format!(
            "is more than the {} the bill's line {position} has left",
            r.amount(left)
        ),
        (Asset::AboveLineLeft { left, position }, Lang::De) => format!(
            "ist mehr als die {}, die der Position {position} der Eingangsrechnung bleiben",
            r.amount(left)
        ),
        (
            Asset::FirstYearClosed {
                through,
                year,
                acquired,
            },
            Lang::En,
        ) => format!(
            "The books are closed through {}, so the depreciation of {year}, the first year of an asset acquired on {}, could not be posted; an asset is recorded before its first year is closed.",
            r.date(*through),
            r.date(*acquired)
        ),
        (
            Asset::FirstYearClosed {
                through,
                year,
                acquired,
            },
            Lang::De,
        ) => format!(
            "Die Bücher sind bis {} abgeschlossen, also könnte die Abschreibung für {year}, das erste Jahr eines am {} angeschafften Anlageguts, nicht gebucht werden; ein Anlagegut wird erfasst, bevor sein erstes Jahr abgeschlossen ist.",
            r.date(*through),
            r.date(*acquired)
        ),
        (Asset::YearNotBegun { year, first }, Lang::En) => format!(
            "The fiscal year {year} begins on {}; its depreciation is posted once it has begun.",
            r.date(*first)
        ),
        (Asset::YearNotBegun { year, first }, Lang::De) => format!(
            "Das Geschäftsjahr {year} beginnt am {}; seine Abschreibung wird gebucht, sobald es begonnen hat.",
            r.date(*first)
        ),
        (Asset::DepreciationClosed { through, year, last }, Lang::En) => format!(
            "The books are closed through {}; the depreciation of {year}, dated {}, cannot be posted.",
            r.date(*through),
            r.date(*last)
        ),
        (Asset::DepreciationClosed { through, year, last }, Lang::De) => format!(
            "Die Bücher sind bis {} abgeschlossen; die Abschreibung für {year} zum {} kann nicht gebucht werden.",
            r.date(*through),
            r.date(*last)
        ),
        (Asset::NotEuro { currency }, Lang::En) => format!(
            "The fixed assets follow German tax law (§§ 6, 7 EStG), which counts in euro; the books are kept in {currency}."
        ),
        (Asset::NotEuro { currency }, Lang::De) => format!(
            "Das Anlagevermögen folgt dem deutschen Steuerrecht (§§ 6, 7 EStG), das in Euro rechnet; die Bücher werden in {currency} geführt."
        ),
        (Asset::EarlierYear { year, asset }, Lang::En) if r.on_screens() => format!(
            "The depreciation of {year} is not posted for {asset}; post it first (Post the depreciation of {year}, under Fixed assets)."
        ),
        (Asset::EarlierYear { year, asset }, Lang::En) => format!(
            "The depreciation of {year} is not posted for {asset}; post it first (books depreciate --year {year})."
        ),
        (Asset::EarlierYear { year, asset }, Lang::De) if r.on_screens() => format!(
            "Die Abschreibung für {year} ist für {asset} nicht gebucht; buchen Sie sie zuerst (Abschreibungen buchen für {year}, unter Anlagevermögen)."
        ),
        (Asset::EarlierYear { year, asset }, Lang::De) => format!(
            "Die Abschreibung für {year} ist für {asset} nicht gebucht; buchen Sie sie zuerst (books depreciate --year {year})."
        ),
    }
}
