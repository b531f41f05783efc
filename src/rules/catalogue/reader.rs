//! Who reads a message (`Reader`): in which language, on which surface;
//! and how that reader's text writes an amount, a day, a text as sent, a
//! list of values and a field's name.

use jiff::civil::Date;

use crate::error::said::Sum;
use crate::error::{Lang, Violation};
use crate::rules::iso::Currency;
use crate::rules::locale;

/// Where a message is read: how it writes amounts and dates, and where it
/// points a person for what it asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// The screens: amounts and dates in the person's notation; an act is
    /// pointed to by the screen that does it.
    Screens,
    /// REST and the agent tools: amounts with their currency code, dates
    /// `YYYY-MM-DD`; an act by the console's command, as the operator runs it.
    Api,
    /// The console: as the API.
    Console,
}

/// Who reads a message: in which language, on which surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reader {
    pub lang: Lang,
    pub surface: Surface,
}

impl Reader {
    /// The console's reader: English.
    pub const CONSOLE: Reader = Reader {
        lang: Lang::En,
        surface: Surface::Console,
    };

    /// A person on the screens, in `lang`.
    pub const fn screens(lang: Lang) -> Reader {
        Reader {
            lang,
            surface: Surface::Screens,
        }
    }

    /// A program on REST or the agent server, answered in `lang`.
    pub const fn api(lang: Lang) -> Reader {
        Reader {
            lang,
            surface: Surface::Api,
        }
    }

    /// The English or the German text.
    pub fn pick<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        self.lang.pick(en, de)
    }

    /// Whether the reader is on the screens.
    pub fn on_screens(self) -> bool {
        self.surface == Surface::Screens
    }

    /// An amount: `1.234,56 €` / `€1,234.56` on the screens, `1,234.56 EUR`
    /// (in the reader's notation) elsewhere.
    pub fn amount(self, sum: &Sum) -> String {
        match Currency::parse("currency", &sum.currency) {
            Ok(currency) if self.on_screens() => locale::amount(self.lang, sum.minor, &currency),
            Ok(currency) => format!(
                "{} {}",
                locale::number(self.lang, sum.minor, currency.exponent()),
                currency.as_str()
            ),
            Err(_) if sum.currency.is_empty() => sum.minor.to_string(),
            Err(_) => format!("{} {}", sum.minor, sum.currency),
        }
    }

    /// A day: `23.11.2026` / `23 Nov 2026` on the screens, `2026-11-23` elsewhere.
    pub fn date(self, day: Date) -> String {
        if self.on_screens() {
            locale::date(self.lang, day)
        } else {
            day.to_string()
        }
    }

    /// A decimal as a program writes it (`5.5`): in the person's notation
    /// on the screens (`5,5`), as it is elsewhere.
    pub fn decimal(self, text: &str) -> String {
        match crate::rules::money::Decimal::parse("decimal", text) {
            Ok(d) if self.on_screens() => locale::decimal(self.lang, &d),
            _ => text.to_string(),
        }
    }

    /// A text as sent, quoted: `"x"` in English, `„x“` in German.
    pub fn quoted(self, text: &str) -> String {
        match self.lang {
            Lang::En => format!("{text:?}"),
            Lang::De => format!("„{text}“"),
        }
    }

    /// A character quoted: `'x'` in English, `‚x‘` in German.
    pub fn quoted_char(self, c: char) -> String {
        match self.lang {
            Lang::En => format!("{c:?}"),
            Lang::De => format!("‚{c}‘"),
        }
    }

    /// Values as a sentence lists them: `a, b or c` / `a, b oder c`.
    pub fn listed(self, values: &[String]) -> String {
        match values {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {} {last}", rest.join(", "), self.pick("or", "oder")),
        }
    }

    /// Violations in sentences one after another, fields named by `name`
    /// (`Violation::sentence`).
    pub fn sentences(self, violations: &[Violation], name: &dyn Fn(&str) -> String) -> String {
        violations
            .iter()
            .map(|v| v.sentence(self, name))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// How a refusal names a field unless its surface names it otherwise:
    /// `The field postalCode` / `Das Feld postalCode`.
    pub fn the_field(self, field: &str) -> String {
        match self.lang {
            Lang::En => format!("The field {field}"),
            Lang::De => format!("Das Feld {field}"),
        }
    }
}
