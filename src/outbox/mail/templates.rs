//! The subject and body of a company's mails, per purpose (an invoice, a
//! reminder) and language (German, English): the shipped texts, the
//! placeholders each purpose offers, and the filling. A company's own
//! texts are stored in `mail_templates` and checked when saved.

use crate::rules::locale::Lang;
use crate::rules::placeholders;

crate::stored_enum! {
    /// What a company's own texts are for.
    pub enum Purpose {
        Invoice = "invoice",
        Reminder = "reminder",
    }
}

/// Longest subject, longest body.
pub const SUBJECT_MAX: usize = 200;
pub const BODY_MAX: usize = 10_000;

impl Purpose {
    /// The placeholders its texts may use.
    pub fn placeholders(self) -> &'static [&'static str] {
        match self {
            Purpose::Invoice => &[
                "number",
                "amountDue",
                "dueOn",
                "paymentReference",
                "company",
                "customer",
            ],
            Purpose::Reminder => &[
                "number",
                "title",
                "total",
                "newDueOn",
                "paymentReference",
                "company",
                "customer",
            ],
        }
    }
}

/// A subject and a body, with placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub subject: String,
    pub body: String,
}

impl Template {
    /// The texts with `values` filled in.
    pub fn fill(&self, values: &[(&str, String)]) -> (String, String) {
        (
            placeholders::fill(&self.subject, values),
            placeholders::fill(&self.body, values),
        )
    }
}

/// The shipped texts of `purpose` in `lang`.
pub fn shipped(purpose: Purpose, lang: Lang) -> Template {
    let (subject, body) = match (purpose, lang) {
        (Purpose::Invoice, Lang::De) => (
            "Rechnung {number} von {company}",
            "Sehr geehrte Damen und Herren,\n\n\
             anbei erhalten Sie unsere Rechnung {number} über {amountDue}, \
             zahlbar bis zum {dueOn}.\n\
             Bitte geben Sie bei der Zahlung als Verwendungszweck {paymentReference} an.\n\n\
             Mit freundlichen Grüßen\n{company}",
        ),
        (Purpose::Invoice, Lang::En) => (
            "Invoice {number} from {company}",
            "Dear Sir or Madam,\n\n\
             please find attached our invoice {number} for {amountDue}, \
             due on {dueOn}.\n\
             Please quote {paymentReference} as the payment reference.\n\n\
             Kind regards\n{company}",
        ),
        (Purpose::Reminder, Lang::De) => (
            "{title} zu Rechnung {number}",
            "Sehr geehrte Damen und Herren,\n\n\
             anbei erhalten Sie unser Schreiben „{title}“ zu unserer Rechnung {number}. \
             Bitte zahlen Sie {total} bis zum {newDueOn} \
             mit dem Verwendungszweck {paymentReference}.\n\n\
             Mit freundlichen Grüßen\n{company}",
        ),
        (Purpose::Reminder, Lang::En) => (
            "{title}: invoice {number}",
            "Dear Sir or Madam,\n\n\
             please find attached our letter \"{title}\" about our invoice {number}. \
             Please pay {total} by {newDueOn}, quoting {paymentReference}.\n\n\
             Kind regards\n{company}",
        ),
    };
    Template {
        subject: subject.into(),
        body: body.into(),
    }
}

/// Checks a company's own texts for `purpose`.
///
/// Fails with `Invalid` naming `subject` or `body`: empty, too long, a
/// line break in the subject, or an unknown placeholder.
pub fn check(purpose: Purpose, template: &Template) -> crate::error::Result<()> {
    use crate::error::said::{Input, Mail};
    use crate::error::Error;
    let known = purpose.placeholders();
    if template.subject.trim().is_empty() {
        return Err(Error::invalid("subject", Input::Empty));
    }
    if template.subject.chars().count() > SUBJECT_MAX {
        return Err(Error::invalid(
            "subject",
            Input::TooLong { max: SUBJECT_MAX },
        ));
    }
    if template.subject.chars().any(char::is_control) {
        return Err(Error::invalid("subject", Mail::SubjectOneLine));
    }
    if template.body.trim().is_empty() {
        return Err(Error::invalid("body", Input::Empty));
    }
    if template.body.chars().count() > BODY_MAX {
        return Err(Error::invalid("body", Input::TooLong { max: BODY_MAX }));
    }
    placeholders::check("subject", &template.subject, known)?;
    placeholders::check("body", &template.body, known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_texts_check_and_fill_in_both_languages() {
        for purpose in [Purpose::Invoice, Purpose::Reminder] {
            for lang in [Lang::De, Lang::En] {
                check(purpose, &shipped(purpose, lang)).unwrap();
            }
        }
        let values = [
            ("number", "RE-2026-00007".to_string()),
            ("amountDue", "1.190,00 €".to_string()),
            ("dueOn", "07.12.2026".to_string()),
            ("paymentReference", "RF18RE202600007".to_string()),
            ("company", "Nordlicht GmbH".to_string()),
            ("customer", "Kunde KG".to_string()),
        ];
        let (subject, body) = shipped(Purpose::Invoice, Lang::De).fill(&values);
        assert_eq!(subject, "Rechnung RE-2026-00007 von Nordlicht GmbH");
        assert!(
            body.contains("über 1.190,00 €, zahlbar bis zum 07.12.2026"),
            "{body}"
        );
        assert!(body.contains("Verwendungszweck RF18RE202600007"), "{body}");
        let (subject, body) = shipped(Purpose::Invoice, Lang::En).fill(&values);
        assert_eq!(subject, "Invoice RE-2026-00007 from Nordlicht GmbH");
        assert!(body.contains("for 1.190,00 €, due on 07.12.2026"), "{body}");
    }

    #[test]
    fn an_own_text_with_an_unknown_placeholder_or_two_lines_is_refused() {
        let t = Template {
            subject: "Rechnung {nummer}".into(),
            body: "x".into(),
        };
        let e = check(Purpose::Invoice, &t).unwrap_err().to_string();
        assert!(e.contains("{nummer}"), "{e}");
        let t = Template {
            subject: "a\nb".into(),
            body: "x".into(),
        };
        assert!(check(Purpose::Invoice, &t).is_err());
        // {title} belongs to reminders only.
        let t = Template {
            subject: "{title}".into(),
            body: "x".into(),
        };
        assert!(check(Purpose::Invoice, &t).is_err());
        assert!(check(Purpose::Reminder, &t).is_ok());
    }
}
