//! The seller's country rules: invoice number formats, default payment days,
//! the payment sentence and the tax's name. (EU VAT ids: `vat_ids`.)
//!
//! Countries are ISO 3166-1 alpha-2 codes in upper case ("DE"). A country
//! without a rule of its own takes the default: numbers `{prefix}{year}-{seq:05}`,
//! 30 payment days, an English payment sentence and the tax named "VAT".

use jiff::civil::Date;

/// Which numbering sequence a document takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Invoice,
    Correction,
}

/// The counter series name for a document of `kind` issued in `year` by a seller in `country`:
/// "invoice:{year}" for invoices everywhere and for corrections everywhere except ES;
/// in ES corrections have their own series "correction:{year}".
pub fn series(country: &str, kind: DocumentKind, year: i16) -> String {
    match (country, kind) {
        ("ES", DocumentKind::Correction) => format!("correction:{year}"),
        _ => format!("invoice:{year}"),
    }
}

/// The Spanish invoice series letter used when the company set no prefix.
const SPANISH_DEFAULT_SERIES: &str = "A";

/// The document number for sequence value `seq` (1, 2, …):
/// IT `{prefix}{seq}/{year}`; ES `{prefix or "A"}-{year}-{seq:05}` for invoices and
/// `R-{year}-{seq:05}` for corrections; everywhere else `{prefix}{year}-{seq:05}`.
pub fn document_number(
    country: &str,
    prefix: &str,
    kind: DocumentKind,
    year: i16,
    seq: i64,
) -> String {
    match (country, kind) {
        ("IT", _) => format!("{prefix}{seq}/{year}"),
        ("ES", DocumentKind::Invoice) => {
            let series_letter = if prefix.is_empty() {
                SPANISH_DEFAULT_SERIES
            } else {
                prefix
            };
            format!("{series_letter}-{year}-{seq:05}")
        }
        ("ES", DocumentKind::Correction) => format!("R-{year}-{seq:05}"),
        _ => format!("{prefix}{year}-{seq:05}"),
    }
}

/// Default payment days of the seller's country: DE, AT 14; everything else 30.
pub fn default_payment_days(country: &str) -> i64 {
    match country {
        "DE" | "AT" => 14,
        _ => 30,
    }
}

/// The payment sentence for a due date, in the seller's country's language
/// and date format (English with "5 March 2026" outside DE, AT, CH, FR, IT, ES, NL).
pub fn payment_sentence(country: &str, due: Date) -> String {
    let (day, month, year) = (due.day(), due.month(), due.year());
    match country {
        "DE" | "AT" => format!("Zahlbar bis {day:02}.{month:02}.{year:04} ohne Abzug."),
        "CH" => format!("Zahlbar bis {day:02}.{month:02}.{year:04} netto."),
        "FR" => format!(
            "Date d'échéance : {day:02}/{month:02}/{year:04}. \
             Pénalités de retard : trois fois le taux d'intérêt légal. \
             Indemnité forfaitaire pour frais de recouvrement : 40 €."
        ),
        "IT" => format!("Pagamento entro il {day:02}/{month:02}/{year:04}."),
        "ES" => format!("Vencimiento: {day:02}/{month:02}/{year:04}."),
        "NL" => format!("Te betalen vóór {day:02}-{month:02}-{year:04}."),
        _ => format!("Payment due by {day} {} {year}.", english_month(month)),
    }
}

/// English month names, January first.
const ENGLISH_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The English name of `month` (1 = January); empty outside 1..=12, which a
/// `Date` never gives.
fn english_month(month: i8) -> &'static str {
    usize::try_from(month)
        .ok()
        .and_then(|number| number.checked_sub(1))
        .and_then(|index| ENGLISH_MONTHS.get(index))
        .copied()
        .unwrap_or_default()
}

/// The name under which the country's sales tax is totalled when a line gives only a rate:
/// DE, AT "USt"; CH "MWST"; FR "TVA"; IT, ES "IVA"; NL "BTW"; anything else "VAT".
pub fn tax_name(country: &str) -> &'static str {
    match country {
        "DE" | "AT" => "USt",
        "CH" => "MWST",
        "FR" => "TVA",
        "IT" | "ES" => "IVA",
        "NL" => "BTW",
        _ => "VAT",
    }
}

/// The 27 member states of the EU, by ISO code.
const EU: [&str; 27] = [
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// Whether a seller in `country` charges EU VAT, so that each invoice line
/// carries exactly one VAT with its category.
pub fn in_eu(country: &str) -> bool {
    EU.contains(&country)
}

/// The VAT rates of a country (percent), the standard one first, as a bill
/// typed as two totals is read: Germany's 19 and 7 % (§ 12 (1), (2) UStG),
/// Austria's, France's and the Netherlands' reduced rates beside their
/// standard ones; any other member state its standard rate.
pub fn vat_rates(country: &str) -> Vec<&'static str> {
    match country {
        "DE" => vec!["19", "7"],
        "AT" => vec!["20", "13", "10"],
        "FR" => vec!["20", "10", "5.5", "2.1"],
        "NL" => vec!["21", "9"],
        other => standard_vat_rate(other).into_iter().collect(),
    }
}

/// The standard VAT rate of an EU member state (percent), as of 2025: what
/// a buyer self-assesses on a reverse charge received. `None` outside the
/// EU.
pub fn standard_vat_rate(country: &str) -> Option<&'static str> {
    Some(match country {
        "AT" => "20",
        "BE" => "21",
        "BG" => "20",
        "CY" => "19",
        "CZ" => "21",
        "DE" => "19",
        "DK" => "25",
        "EE" => "24",
        "ES" => "21",
        "FI" => "25.5",
        "FR" => "20",
        "GR" => "24",
        "HR" => "25",
        "HU" => "27",
        "IE" => "23",
        "IT" => "22",
        "LT" => "21",
        "LU" => "17",
        "LV" => "21",
        "MT" => "18",
        "NL" => "21",
        "PL" => "23",
        "PT" => "23",
        "RO" => "21",
        "SE" => "25",
        "SI" => "22",
        "SK" => "23",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;
    use DocumentKind::{Correction, Invoice};

    #[test]
    fn document_numbers_per_jurisdiction() {
        let cases: &[(&str, &str, DocumentKind, i16, i64, &str)] = &[
            ("DE", "", Invoice, 2026, 1, "2026-00001"),
            ("DE", "RE-", Invoice, 2026, 42, "RE-2026-00042"),
            ("DE", "RE-", Correction, 2026, 43, "RE-2026-00043"),
            ("DE", "", Correction, 2026, 2, "2026-00002"),
            ("DE", "", Invoice, 2026, 123_456, "2026-123456"),
            ("AT", "", Invoice, 2026, 7, "2026-00007"),
            ("AT", "R", Correction, 2026, 8, "R2026-00008"),
            ("CH", "", Invoice, 2026, 3, "2026-00003"),
            ("CH", "RG", Correction, 2026, 4, "RG2026-00004"),
            ("FR", "", Invoice, 2026, 5, "2026-00005"),
            ("FR", "F", Correction, 2026, 6, "F2026-00006"),
            ("NL", "", Invoice, 2026, 9, "2026-00009"),
            ("NL", "INV", Correction, 2026, 10, "INV2026-00010"),
            ("IT", "", Invoice, 2026, 7, "7/2026"),
            ("IT", "FT", Invoice, 2026, 123, "FT123/2026"),
            ("IT", "", Correction, 2026, 8, "8/2026"),
            ("IT", "FT", Correction, 2026, 124, "FT124/2026"),
            ("ES", "", Invoice, 2026, 5, "A-2026-00005"),
            ("ES", "F", Invoice, 2026, 5, "F-2026-00005"),
            ("ES", "", Correction, 2026, 2, "R-2026-00002"),
            ("ES", "F", Correction, 2026, 2, "R-2026-00002"),
            ("US", "", Invoice, 2026, 1, "2026-00001"),
            ("US", "INV-", Invoice, 2026, 12, "INV-2026-00012"),
            ("US", "INV-", Correction, 2026, 13, "INV-2026-00013"),
        ];
        for &(country, prefix, kind, year, seq, expected) in cases {
            assert_eq!(
                document_number(country, prefix, kind, year, seq),
                expected,
                "{country} {prefix:?} {kind:?} {seq}"
            );
        }
    }

    #[test]
    fn series_per_jurisdiction() {
        let cases: &[(&str, DocumentKind, &str)] = &[
            ("ES", Invoice, "invoice:2026"),
            ("ES", Correction, "correction:2026"),
            ("DE", Invoice, "invoice:2026"),
            ("DE", Correction, "invoice:2026"),
            ("AT", Correction, "invoice:2026"),
            ("CH", Correction, "invoice:2026"),
            ("FR", Correction, "invoice:2026"),
            ("IT", Correction, "invoice:2026"),
            ("NL", Correction, "invoice:2026"),
            ("US", Invoice, "invoice:2026"),
            ("US", Correction, "invoice:2026"),
        ];
        for &(country, kind, expected) in cases {
            assert_eq!(series(country, kind, 2026), expected, "{country} {kind:?}");
        }
    }

    #[test]
    fn default_payment_days_per_jurisdiction() {
        let cases = [
            ("DE", 14),
            ("AT", 14),
            ("CH", 30),
            ("FR", 30),
            ("IT", 30),
            ("ES", 30),
            ("NL", 30),
            ("US", 30),
        ];
        for (country, days) in cases {
            assert_eq!(default_payment_days(country), days, "{country}");
        }
    }

    #[test]
    fn payment_sentences_per_jurisdiction() {
        let single_digits = date(2026, 3, 5);
        let double_digits = date(2026, 12, 24);
        let cases = [
            ("DE", single_digits, "Zahlbar bis 05.03.2026 ohne Abzug."),
            ("DE", double_digits, "Zahlbar bis 24.12.2026 ohne Abzug."),
            ("AT", single_digits, "Zahlbar bis 05.03.2026 ohne Abzug."),
            ("CH", single_digits, "Zahlbar bis 05.03.2026 netto."),
            ("CH", double_digits, "Zahlbar bis 24.12.2026 netto."),
            (
                "FR",
                single_digits,
                "Date d'échéance : 05/03/2026. Pénalités de retard : trois fois le taux \
                 d'intérêt légal. Indemnité forfaitaire pour frais de recouvrement : 40 €.",
            ),
            ("IT", single_digits, "Pagamento entro il 05/03/2026."),
            ("IT", double_digits, "Pagamento entro il 24/12/2026."),
            ("ES", single_digits, "Vencimiento: 05/03/2026."),
            ("ES", double_digits, "Vencimiento: 24/12/2026."),
            ("NL", single_digits, "Te betalen vóór 05-03-2026."),
            ("NL", double_digits, "Te betalen vóór 24-12-2026."),
            ("US", single_digits, "Payment due by 5 March 2026."),
            ("US", double_digits, "Payment due by 24 December 2026."),
            ("US", date(2027, 1, 1), "Payment due by 1 January 2027."),
        ];
        for (country, due, expected) in cases {
            assert_eq!(payment_sentence(country, due), expected, "{country} {due}");
        }
    }

    #[test]
    fn english_month_names_cover_the_year() {
        assert_eq!(english_month(1), "January");
        assert_eq!(english_month(12), "December");
        assert_eq!(english_month(0), "");
        assert_eq!(english_month(13), "");
        assert_eq!(english_month(-1), "");
    }

    #[test]
    fn tax_names_per_jurisdiction() {
        let cases = [
            ("DE", "USt"),
            ("AT", "USt"),
            ("CH", "MWST"),
            ("FR", "TVA"),
            ("IT", "IVA"),
            ("ES", "IVA"),
            ("NL", "BTW"),
            ("US", "VAT"),
            ("GB", "VAT"),
        ];
        for (country, name) in cases {
            assert_eq!(tax_name(country), name, "{country}");
        }
    }
}
