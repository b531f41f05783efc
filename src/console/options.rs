//! Where the console's options meet the books' fields: a refused field named
//! as the option that gives it, an option given or cleared (`--clear`) read
//! as the books' `Patch`, and the payment options several commands share read
//! into the books' input. A leaf: it names no other file of the console but
//! the command line (`args`).

use crate::books::settlement::PaymentInput;
use crate::console::args::PaymentArgs;
use crate::error::Violations;
use crate::rules::text::{camel_to, Patch};

/// How a refusal names a field: as the option that gives it (`--postal-code`).
pub fn option(field: &str) -> String {
    // A line of a draft or a bill (`lines[0]`, `lines[0].account`) is
    // named as a person counts lines.
    if let Some(n) = field
        .strip_prefix("lines[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        return format!("Line {}", n + 1);
    }
    let field = field.split('[').next().unwrap_or(field);
    let field = match field {
        "unitPriceMinor" => "unitPrice",
        "taxRatePercent" => "taxRate",
        "taxes" => "tax",
        "customerId" => "customer",
        "password" => "passwordStdin",
        "stages" => return "The stages".into(),
        "as" => return "--as".into(),
        other => other,
    };
    format!("--{}", camel_to(field, '-'))
}

/// An option that may be given or cleared (`--clear`), as a `Patch` of the books' `field`.
pub fn patch(
    v: &mut Violations,
    field: &str,
    value: &Option<String>,
    cleared: bool,
) -> Patch<String> {
    match (value, cleared) {
        (Some(_), true) => {
            v.invalid(field, "is given and cleared at once; do one or the other");
            Patch::Absent
        }
        (Some(value), false) => Patch::Value(value.clone()),
        (None, true) => Patch::Null,
        (None, false) => Patch::Absent,
    }
}

impl PaymentArgs {
    /// The payment as given, for the books to check.
    pub fn input(&self) -> PaymentInput {
        PaymentInput {
            amount: Some(self.amount),
            on: self.on.clone(),
            method: self.method.clone(),
            reference: self.reference.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::console::options::option;

    #[test]
    fn fields_are_named_as_options() {
        assert_eq!(option("postalCode"), "--postal-code");
        assert_eq!(option("unitPriceMinor"), "--unit-price");
        assert_eq!(option("taxes[1].ratePercent"), "--tax");
        assert_eq!(option("asOf"), "--as-of");
        assert_eq!(option("lines[0]"), "Line 1");
    }
}
