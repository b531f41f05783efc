//! The company, its particulars, its workflow and its customers
//! (`Company`); the jobs (`Job`).

use crate::error::said::{Company, Job};
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(company: &Company, r: Reader) -> String {
    match (company, r.lang) {
        (Company::NotStageKey { got }, Lang::En) => format!(
            "holds {}, which is not a stage key; use upper-case letters, digits and _ (such as IN_ARBEIT)",
            r.quoted(got)
        ),
        (Company::NotStageKey { got }, Lang::De) => format!(
            "enthält {}, keinen Phasenschlüssel; verwenden Sie Großbuchstaben, Ziffern und _ (etwa IN_ARBEIT)",
            r.quoted(got)
        ),
        (Company::PaymentDaysRange, _) => r
            .pick("must be between 0 and 365", "muss zwischen 0 und 365 liegen")
            .into(),
        (Company::PrefixShape, _) => r
            .pick(
                "has at most 10 letters, digits or '-'",
                "hat höchstens 10 Buchstaben, Ziffern oder ‚-‘",
            )
            .into(),
        (Company::PrefixR, _) => r
            .pick(
                "cannot be R in Spain: the series R is the corrections' own",
                "kann in Spanien nicht R sein: Die Serie R gehört den Korrekturen",
            )
            .into(),
        (Company::NotInWorkflow { stage, workflow }, Lang::En) => format!(
            "names {stage}, which is not in the company's workflow ({})",
            workflow.join(", ")
        ),
        (Company::NotInWorkflow { stage, workflow }, Lang::De) => format!(
            "nennt {stage}, das nicht im Ablauf der Firma steht ({})",
            workflow.join(", ")
        ),
        (Company::StageCount, _) => r
            .pick("needs 1 to 30 stages", "braucht 1 bis 30 Phasen")
            .into(),
        (Company::StageTwice { stage }, Lang::En) => format!("lists the stage {stage} twice"),
        (Company::StageTwice { stage }, Lang::De) => format!("nennt die Phase {stage} zweimal"),
        (Company::NotPhone, _) => r
            .pick(
                "is not a telephone number: it has fewer than three digits",
                "ist keine Telefonnummer: Sie hat weniger als drei Ziffern",
            )
            .into(),
    }
}

/// A job's message in the reader's words.
pub fn job(job: &Job, r: Reader) -> String {
    match job {
        Job::NotPeriod => r
            .pick(
                "must be YYYY, YYYY-Qn or YYYY-MM",
                "muss JJJJ, JJJJ-Qn oder JJJJ-MM sein",
            )
            .into(),
        Job::CannotClear => r
            .pick("cannot be cleared", "kann nicht geleert werden")
            .into(),
        Job::NoneWithCustomer => r
            .pick(
                "says none while customerId names a customer",
                "sagt none, während customerId einen Kunden nennt",
            )
            .into(),
        Job::OnlyNone => r
            .pick(
                "accepts only \"none\"; name a customer with customerId",
                "nimmt nur „none“; einen Kunden nennt customerId",
            )
            .into(),
        Job::Archived => r
            .pick(
                "The transaction is archived; set archived to false before changing anything else.",
                "Der Vorgang ist archiviert; setzen Sie archived auf false, bevor Sie etwas anderes ändern.",
            )
            .into(),
    }
}
