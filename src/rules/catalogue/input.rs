//! What was typed or sent (`Input`): a text's length and characters, an
//! e-mail address's shape, a choice among values, numbers, amounts and
//! dates as a person types them or a program sends them. Each is a
//! predicate on the field that the surface names before it.

use crate::error::said::{Figure, Input};
use crate::error::Lang;

use super::reader::Reader;

/// The predicate in the reader's words.
pub fn text(input: &Input, r: Reader) -> String {
    let de = r.lang == Lang::De;
    let write_like = |example: &str| match r.lang {
        Lang::En => format!("write it like {example}"),
        Lang::De => format!("schreiben Sie etwa {example}"),
    };
    // "an amount" / "a number", as the subject's complement.
    let a = |figure: Figure| match (figure, r.lang) {
        (Figure::Amount, Lang::En) => "an amount",
        (Figure::Number, Lang::En) => "a number",
        (Figure::Amount, Lang::De) => "kein Betrag",
        (Figure::Number, Lang::De) => "keine Zahl",
    };
    let is_not = |figure: Figure| match r.lang {
        Lang::En => format!("is not {}", a(figure)),
        Lang::De => format!("ist {}", a(figure)),
    };
    match input {
        Input::Missing => r.pick("is missing", "fehlt").into(),
        Input::Empty => r.pick("must not be empty", "darf nicht leer sein").into(),
        Input::TooLong { max } => match r.lang {
            Lang::En => format!("is longer than {max} characters"),
            Lang::De => format!("ist länger als {max} Zeichen"),
        },
        Input::ControlCharacter => r
            .pick("contains a control character", "enthält ein Steuerzeichen")
            .into(),
        Input::NotEmail => r
            .pick("is not an e-mail address", "ist keine E-Mail-Adresse")
            .into(),
        Input::NotDate => r
            .pick(
                "must be a date in the form YYYY-MM-DD",
                "muss ein Datum der Form JJJJ-MM-TT sein",
            )
            .into(),
        Input::DateOutOfRange { from, to } => match r.lang {
            Lang::En => format!("must lie between the years {from} and {to}"),
            Lang::De => format!("muss zwischen den Jahren {from} und {to} liegen"),
        },
        Input::NotInstant => r
            .pick(
                "must be an ISO 8601 instant such as 2026-12-31T23:00:00Z",
                "muss ein Zeitpunkt nach ISO 8601 sein, etwa 2026-12-31T23:00:00Z",
            )
            .into(),
        Input::NotOneOf { values, got } => match r.lang {
            Lang::En => format!("is {}, not {}", r.listed(values), r.quoted(got)),
            Lang::De => format!("ist {}, nicht {}", r.listed(values), r.quoted(got)),
        },
        Input::NotCurrency { got } => match r.lang {
            Lang::En => format!(
                "must be an ISO 4217 currency code such as EUR; {} is not one",
                r.quoted(got)
            ),
            Lang::De => format!(
                "muss ein Währungscode nach ISO 4217 sein, etwa EUR; {} ist keiner",
                r.quoted(got)
            ),
        },
        Input::NotDecimal { got } => match r.lang {
            Lang::En => format!(
                "must be a decimal number such as 19 or 5.5, not {}",
                r.quoted(got)
            ),
            Lang::De => format!(
                "muss eine Dezimalzahl wie 19 oder 5.5 sein, nicht {}",
                r.quoted(got)
            ),
        },
        Input::TooManyPlaces { places } => match r.lang {
            Lang::En => format!("has more than {places} decimal places"),
            Lang::De => format!("hat mehr als {places} Nachkommastellen"),
        },
        Input::TooLarge => r.pick("is too large", "ist zu groß").into(),
        Input::AmountTooLarge => r
            .pick(
                "is larger than any amount kontor keeps",
                "ist größer als jeder Betrag, den kontor führt",
            )
            .into(),
        Input::OtherNotation {
            figure,
            notation,
            example,
        } => {
            let rule = match (r.lang, notation, figure) {
                (Lang::En, Lang::De, f) => format!(
                    "in German {} the decimal separator is a comma and the point groups thousands",
                    plural(*f, r.lang)
                ),
                (Lang::En, Lang::En, f) => format!(
                    "in English {} the decimal separator is a point and the comma groups thousands",
                    plural(*f, r.lang)
                ),
                (Lang::De, Lang::De, f) => format!(
                    "in deutschen {} ist das Komma das Dezimaltrennzeichen und der Punkt trennt die Tausender",
                    plural(*f, r.lang)
                ),
                (Lang::De, Lang::En, f) => format!(
                    "in englischen {} ist der Punkt das Dezimaltrennzeichen und das Komma trennt die Tausender",
                    plural(*f, r.lang)
                ),
            };
            match r.lang {
                Lang::En => format!("cannot be read: {rule} ({})", write_like(example)),
                Lang::De => format!("ist nicht lesbar: {rule} ({})", write_like(example)),
            }
        }
        Input::NotAFigureChar {
            figure,
            bad,
            example,
        } => match r.lang {
            Lang::En => format!(
                "{}: {} is neither a digit nor a separator ({})",
                is_not(*figure),
                r.quoted_char(*bad),
                write_like(example)
            ),
            Lang::De => format!(
                "{}: {} ist weder eine Ziffer noch ein Trennzeichen ({})",
                is_not(*figure),
                r.quoted_char(*bad),
                write_like(example)
            ),
        },
        Input::DecimalSeparatorTwice {
            figure,
            separator,
            example,
        } => match r.lang {
            Lang::En => format!(
                "{}: the decimal separator {} comes once, after the thousands ({})",
                is_not(*figure),
                r.quoted_char(*separator),
                write_like(example)
            ),
            Lang::De => format!(
                "{}: das Dezimaltrennzeichen {} steht einmal, nach den Tausendern ({})",
                is_not(*figure),
                r.quoted_char(*separator),
                write_like(example)
            ),
        },
        Input::NotAFigure { figure, example } => {
            format!("{} ({})", is_not(*figure), write_like(example))
        }
        Input::EndsWithSeparator { example } => match r.lang {
            Lang::En => format!("ends with a decimal separator ({})", write_like(example)),
            Lang::De => format!("endet mit einem Dezimaltrennzeichen ({})", write_like(example)),
        },
        Input::TwoReadings { separator, example } => match r.lang {
            Lang::En => format!(
                "could mean two amounts; write the decimals with {} (like {example}) or leave out the thousands separator",
                r.quoted_char(*separator)
            ),
            Lang::De => format!(
                "kann zwei Beträge meinen; schreiben Sie die Nachkommastellen mit {} (etwa {example}) oder lassen Sie das Tausendertrennzeichen weg",
                r.quoted_char(*separator)
            ),
        },
        Input::NoMinorUnit { currency } => match r.lang {
            Lang::En => format!("has decimals, but {currency} has no minor unit"),
            Lang::De => format!("hat Nachkommastellen, aber {currency} hat keine Untereinheit"),
        },
        Input::MoreDecimalsThanCurrency {
            places,
            currency,
            has,
        } if de => format!("hat {places} Nachkommastellen, aber {currency} hat {has}"),
        Input::MoreDecimalsThanCurrency {
            places,
            currency,
            has,
        } => format!("has {places} decimal places, but {currency} has {has}"),
        Input::NotPercentage => r
            .pick("is a percentage from 0 to 100", "ist ein Prozentsatz von 0 bis 100")
            .into(),
        Input::Negative => r
            .pick("must not be negative", "darf nicht negativ sein")
            .into(),
        Input::AfterTo { from, to } if r.on_screens() => match r.lang {
            Lang::En => format!(
                "lies after the last day ({} > {})",
                r.date(*from),
                r.date(*to)
            ),
            Lang::De => format!(
                "liegt nach dem letzten Tag ({} > {})",
                r.date(*from),
                r.date(*to)
            ),
        },
        Input::AfterTo { from, to } => match r.lang {
            Lang::En => format!("lies after to ({} > {})", r.date(*from), r.date(*to)),
            Lang::De => format!("liegt nach to ({} > {})", r.date(*from), r.date(*to)),
        },
        Input::AfterAsOf { from, as_of } => match r.lang {
            Lang::En => format!(
                "lies after the day the balance is drawn up ({} > {})",
                r.date(*from),
                r.date(*as_of)
            ),
            Lang::De => format!(
                "liegt nach dem Tag, an dem die Bilanz gezogen wird ({} > {})",
                r.date(*from),
                r.date(*as_of)
            ),
        },
        Input::WholeDays => r
            .pick("is a whole number of days", "ist eine ganze Zahl von Tagen")
            .into(),
        Input::NumberRange { from, to, got } => match r.lang {
            Lang::En => format!("is a number from {from} to {to}, not {}", r.quoted(got)),
            Lang::De => format!("ist eine Zahl von {from} bis {to}, nicht {}", r.quoted(got)),
        },
        Input::NotVatPeriod { got } => match r.lang {
            Lang::En => format!(
                "is a month (2026-10) or a quarter (2026-Q4), not {}",
                r.quoted(got)
            ),
            Lang::De => format!(
                "ist ein Monat (2026-10) oder ein Quartal (2026-Q4), nicht {}",
                r.quoted(got)
            ),
        },
        Input::LargerThanKib { kib } => match r.lang {
            Lang::En => format!("is larger than {kib} KiB"),
            Lang::De => format!("ist größer als {kib} KiB"),
        },
        Input::NotHost { got } => match r.lang {
            Lang::En => format!("is not a host name or address: {}", r.quoted(got)),
            Lang::De => format!("ist kein Hostname und keine Adresse: {}", r.quoted(got)),
        },
        Input::PasswordsDiffer => r
            .pick("differs from the password", "weicht vom Passwort ab")
            .into(),
        Input::NotWholeNumber { got } => match r.lang {
            Lang::En => format!("is a whole number, not {}", r.quoted(got)),
            Lang::De => format!("ist eine ganze Zahl, nicht {}", r.quoted(got)),
        },
        Input::NotYear { got } => match r.lang {
            Lang::En => format!("is a year such as 2026, not {}", r.quoted(got)),
            Lang::De => format!("ist ein Jahr wie 2026, nicht {}", r.quoted(got)),
        },
        Input::MissingOneOf { values } => match r.lang {
            Lang::En => format!("is missing; give {}", r.listed(values)),
            Lang::De => format!("fehlt; geben Sie {} an", r.listed(values)),
        },
        Input::NotVatCategory { got } => match r.lang {
            Lang::En => format!(
                "{got:?} is not a VAT category: S, Z, E, AE, K, G, O, L or M"
            ),
            Lang::De => format!(
                "{} ist keine USt-Kategorie: S, Z, E, AE, K, G, O, L oder M",
                r.quoted(got)
            ),
        },
        Input::YearRange { got } => match r.lang {
            Lang::En => format!("is a year from 1900 to 9998, not {got}"),
            Lang::De => format!("ist ein Jahr von 1900 bis 9998, nicht {got}"),
        },
        Input::NoStatementFile => r
            .pick(
                "is missing; choose at least one statement file",
                "fehlt; wählen Sie mindestens eine Auszugsdatei",
            )
            .into(),
        Input::NoEinvoiceFile => r
            .pick(
                "are missing: choose one or more e-invoices to receive",
                "fehlen: Wählen Sie eine oder mehrere E-Rechnungen zum Empfangen",
            )
            .into(),
        Input::NoReceiptFile => r
            .pick(
                "is missing: choose the file of the bill",
                "fehlt: Wählen Sie die Datei der Eingangsrechnung",
            )
            .into(),
        Input::FiveDigits => r
            .pick("is a number of five digits", "ist eine Zahl aus fünf Ziffern")
            .into(),
        Input::PeriodDayMissing => r
            .pick(
                "is missing: a period has its first and its last day",
                "fehlt: Ein Zeitraum hat seinen ersten und seinen letzten Tag",
            )
            .into(),
        Input::NotTimeZone { got } => match r.lang {
            Lang::En => format!("names {}, which is not a known time zone", r.quoted(got)),
            Lang::De => format!("nennt {}, keine bekannte Zeitzone", r.quoted(got)),
        },
    }
}

/// "amounts" / "numbers" in the reader's language.
fn plural(figure: Figure, lang: Lang) -> &'static str {
    match (figure, lang) {
        (Figure::Amount, Lang::En) => "amounts",
        (Figure::Number, Lang::En) => "numbers",
        (Figure::Amount, Lang::De) => "Beträgen",
        (Figure::Number, Lang::De) => "Zahlen",
    }
}
