//! The company's tax methods and the EÜR drawn up by them (`Methods`).
//! The laws named: § 20 UStG (VAT on payments received), § 238, § 242 HGB
//! (who draws up a balance sheet), § 4 (1), (3) and § 5 EStG (how profit is
//! determined).

use crate::error::said::{Methods, PeriodUnit};
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(methods: &Methods, r: Reader) -> String {
    match (methods, r.lang) {
        (Methods::NotYesNo { got }, Lang::En) => format!("is yes or no, not {}", r.quoted(got)),
        (Methods::NotYesNo { got }, Lang::De) => {
            format!("ist ja oder nein, nicht {}", r.quoted(got))
        }
        (Methods::NothingGiven, _) => r
            .pick(
                "or another tax method is to be given (VAT method, profit method, VAT period, extension)",
                "oder eine andere Besteuerungsart ist anzugeben (Umsatzsteuer, Gewinnermittlung, Voranmeldungszeitraum, Dauerfristverlängerung)",
            )
            .into(),
        (Methods::NotGerman { company, country }, Lang::En) => format!(
            "VAT on payments received and the EÜR are methods of German tax law; {company} is a company in {country}."
        ),
        (Methods::NotGerman { company, country }, Lang::De) => format!(
            "Ist-Versteuerung und EÜR sind Verfahren des deutschen Steuerrechts; {company} ist ein Unternehmen in {country}."
        ),
        (Methods::IstNeedsGround, _) => r
            .pick(
                "VAT on payments received needs the ground of § 20 sentence 1 UStG the tax office allowed it on: turnover (at most € 800,000 last year), no-bookkeeping (exempt under § 148 AO) or freelance.",
                "Die Ist-Versteuerung braucht den Grund nach § 20 Satz 1 UStG, auf den das Finanzamt sie gestattet hat: Umsatz (im Vorjahr höchstens 800.000 €), keine Buchführungspflicht (Befreiung nach § 148 AO) oder freiberufliche Tätigkeit.",
            )
            .into(),
        (Methods::GroundWithoutIst, _) => r
            .pick(
                "A ground of § 20 UStG goes with VAT on payments received only; the VAT method is on invoices issued.",
                "Ein Grund nach § 20 UStG gehört nur zur Ist-Versteuerung; die Firma versteuert ihre Umsätze nach vereinbarten Entgelten (Soll-Versteuerung).",
            )
            .into(),
        (Methods::EuerNeedsLegalForm, _) => r
            .pick(
                "The EÜR depends on the legal form: set the company's legal form first.",
                "Die EÜR hängt von der Rechtsform ab: Legen Sie zuerst die Rechtsform des Unternehmens fest.",
            )
            .into(),
        (Methods::FormNeedsBalanceSheet { form }, Lang::En) => format!(
            "A {form} must draw up a balance sheet (§ 238, § 242 HGB): it is a merchant by its form and cannot determine its profit by the EÜR."
        ),
        (Methods::FormNeedsBalanceSheet { form }, Lang::De) => format!(
            "Eine {form} muss eine Bilanz aufstellen (§ 238, § 242 HGB): Sie ist Kaufmann kraft Rechtsform und kann ihren Gewinn nicht durch die EÜR ermitteln."
        ),
        (Methods::FormChangeWhileEuer { form }, Lang::En) => format!(
            "A {form} must draw up a balance sheet (§ 238, § 242 HGB), and the company determines its profit by the EÜR: change the profit method first."
        ),
        (Methods::FormChangeWhileEuer { form }, Lang::De) => format!(
            "Eine {form} muss eine Bilanz aufstellen (§ 238, § 242 HGB), und das Unternehmen ermittelt seinen Gewinn durch die EÜR: Ändern Sie zuerst die Gewinnermittlung."
        ),
        (Methods::NotPeriodStart { unit, from }, Lang::En) => format!(
            "The methods may hold from {}, not from {}.",
            match unit {
                PeriodUnit::YearProfit => "a fiscal year's first day (the profit method changes)",
                PeriodUnit::QuarterPeriodChanges => "a quarter's first day (the VAT period changes)",
                PeriodUnit::Quarter => "a quarter's first day (the VAT return is quarterly)",
                PeriodUnit::Month => "a month's first day (the VAT return is monthly)",
            },
            r.date(*from)
        ),
        (Methods::NotPeriodStart { unit, from }, Lang::De) => format!(
            "Die Verfahren können ab {} gelten, nicht ab {}.",
            match unit {
                PeriodUnit::YearProfit => {
                    "dem ersten Tag eines Wirtschaftsjahres (die Gewinnermittlung ändert sich)"
                }
                PeriodUnit::QuarterPeriodChanges => {
                    "dem ersten Tag eines Quartals (der Voranmeldungszeitraum ändert sich)"
                }
                PeriodUnit::Quarter => {
                    "dem ersten Tag eines Quartals (die Voranmeldung ist vierteljährlich)"
                }
                PeriodUnit::Month => "dem ersten Tag eines Monats (die Voranmeldung ist monatlich)",
            },
            r.date(*from)
        ),
        (Methods::ChangeClosed { through }, Lang::En) => format!(
            "The books are closed through {}; the methods may change from a day after it.",
            r.date(*through)
        ),
        (Methods::ChangeClosed { through }, Lang::De) => format!(
            "Die Bücher sind bis {} abgeschlossen; die Verfahren können sich ab einem Tag danach ändern.",
            r.date(*through)
        ),
        (Methods::EntriesAfter { last, from }, Lang::En) => format!(
            "The books hold entries or bank lines dated up to {last}: a change from {from} would change what they were taxed by. Choose the first day of a period after {last}.",
            last = r.date(*last),
            from = r.date(*from)
        ),
        (Methods::EntriesAfter { last, from }, Lang::De) => format!(
            "Die Bücher enthalten Buchungen oder Bankzeilen bis zum {last}: Eine Änderung ab {from} würde ändern, wonach sie versteuert wurden. Wählen Sie den ersten Tag eines Zeitraums nach dem {last}.",
            last = r.date(*last),
            from = r.date(*from)
        ),
        (Methods::YearRange { got }, Lang::En) => {
            format!("is a year such as 2026, not {}", r.quoted(got))
        }
        (Methods::YearRange { got }, Lang::De) => {
            format!("ist ein Jahr wie 2026, nicht {}", r.quoted(got))
        }
        (
            Methods::FormUnknown {
                known,
                form_year,
                year,
            },
            Lang::En,
        ) => format!(
            "kontor knows the Anlage EÜR of {} only; the lines of the form of {form_year} it does not know, so it draws up no EÜR for {year} rather than guess them.",
            all(known, r)
        ),
        (
            Methods::FormUnknown {
                known,
                form_year,
                year,
            },
            Lang::De,
        ) => format!(
            "kontor kennt die Anlage EÜR nur für {}; die Zeilen des Vordrucks {form_year} kennt es nicht und stellt daher für {year} keine EÜR auf, statt sie zu raten.",
            all(known, r)
        ),
        (Methods::BalanceSheetCompany { company, year }, Lang::En) => format!(
            "{company} determines its profit by the balance sheet in {year} (§ 4 (1), § 5 EStG), not by the EÜR (§ 4 (3) EStG): its statements are the profit and loss and the balance sheet. A company that may use the EÜR sets it as its profit method ({}).",
            if r.on_screens() {
                "Settings → Tax methods"
            } else {
                "`company set --profit-method euer`"
            }
        ),
        (Methods::BalanceSheetCompany { company, year }, Lang::De) => format!(
            "{company} ermittelt den Gewinn {year} durch Betriebsvermögensvergleich (§ 4 Abs. 1, § 5 EStG), nicht durch die EÜR (§ 4 Abs. 3 EStG): Seine Abschlüsse sind die Gewinn- und Verlustrechnung und die Bilanz. Ein Unternehmen, das die EÜR nutzen darf, wählt sie als Gewinnermittlung ({}).",
            if r.on_screens() {
                "Einstellungen → Steuerliche Angaben"
            } else {
                "`company set --profit-method euer`"
            }
        ),
        (Methods::NotEuro { company, currency }, Lang::En) => format!(
            "The EÜR is drawn up in euro; the books of {company} are kept in {currency}."
        ),
        (Methods::NotEuro { company, currency }, Lang::De) => format!(
            "Die EÜR wird in Euro aufgestellt; die Bücher von {company} werden in {currency} geführt."
        ),
    }
}

/// Years as a sentence names them all: `2025 and 2026` / `2025 und 2026`.
fn all(years: &[i32], r: Reader) -> String {
    let years: Vec<String> = years.iter().map(i32::to_string).collect();
    match years.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {} {last}", rest.join(", "), r.pick("and", "und")),
        None => String::new(),
    }
}
