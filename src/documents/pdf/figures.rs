//! How the page writes its figures: an amount of the document's currency
//! or another, a line's VAT rate, and an IBAN in groups of four, in the
//! document's language by `rules::locale`.

use crate::documents::{Category, Document};
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};

/// A line's VAT: its rate, with the category when it is not the standard one.
pub(super) fn line_rate(category: &Category, rate: &str, lang: Lang) -> String {
    let shown = crate::rules::money::Decimal::parse("rate", rate)
        .map_or_else(|_| rate.to_string(), |d| locale::decimal(lang, &d));
    let percent = match lang {
        Lang::De => format!("{shown} %"),
        Lang::En => format!("{shown}%"),
    };
    match category {
        Category::S => percent,
        other => format!("{} {percent}", other.code()),
    }
}

/// An amount of the document's currency for a person.
pub(super) fn money(doc: &Document, minor: i64, lang: Lang) -> String {
    money_in(&doc.currency, doc.exponent, minor, lang)
}

/// `minor` units of `currency` (with `exponent` decimals) for a person.
pub(super) fn money_in(currency: &str, exponent: u8, minor: i64, lang: Lang) -> String {
    match Currency::parse("currency", currency) {
        Ok(c) if c.exponent() == exponent => locale::amount(lang, minor, &c),
        _ => format!("{}\u{a0}{currency}", locale::number(lang, minor, exponent)),
    }
}

#[cfg(test)]
mod tests {
    use crate::documents::pdf::figures::{line_rate, money};
    use crate::documents::pdf::samples::{jpy, plain};
    use crate::documents::samples::mixed;
    use crate::documents::Category;
    use crate::rules::locale::Lang;

    #[test]
    fn figures_are_written_in_the_documents_language() {
        assert_eq!(line_rate(&Category::S, "5.5", Lang::De), "5,5 %");
        assert_eq!(line_rate(&Category::AE, "0", Lang::En), "AE 0%");
        assert_eq!(money(&mixed(), 148297, Lang::De), "1.482,97\u{a0}€");
        assert_eq!(money(&jpy(), 1234, Lang::En), "¥1,234");
        assert_eq!(money(&plain(), 1234, Lang::De), "1,234\u{a0}BHD");
    }
}
