//! A draft line's form: its fields shown (a stored line in the person's
//! notation, or what a refused form had typed, with the common units and
//! the VAT categories as choices) and read into the books' input in the
//! draft's currency.

use maud::{html, Markup};

use super::fields::{
    category_name, DESCRIPTION, DRAFT, EXEMPTION_CODE, EXEMPTION_REASON, QUANTITY, TAX_RATE,
    UNIT_PRICE,
};
use crate::books::drafts::{DraftLine, DraftLineInput};
use crate::documents::Category;
use crate::error::Error;
use crate::http::screens::context::Ctx;
use crate::http::screens::form::{choice, Problems, Reading};
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};

/// The common units a line offers, with how a person reads them.
const UNITS: &[(&str, &str, &str)] = &[
    ("C62", "piece (C62)", "Stück (C62)"),
    ("HUR", "hour (HUR)", "Stunde (HUR)"),
    ("DAY", "day (DAY)", "Tag (DAY)"),
    ("WEE", "week (WEE)", "Woche (WEE)"),
    ("MON", "month (MON)", "Monat (MON)"),
    ("ANN", "year (ANN)", "Jahr (ANN)"),
    ("LS", "lump sum (LS)", "pauschal (LS)"),
    ("SET", "set (SET)", "Satz (SET)"),
    ("KGM", "kilogram (KGM)", "Kilogramm (KGM)"),
    ("MTR", "metre (MTR)", "Meter (MTR)"),
    ("MTK", "square metre (MTK)", "Quadratmeter (MTK)"),
    ("LTR", "litre (LTR)", "Liter (LTR)"),
    ("KWH", "kilowatt hour (KWH)", "Kilowattstunde (KWH)"),
    ("KMT", "kilometre (KMT)", "Kilometer (KMT)"),
];

/// How a person reads a unit: its name where the list has one, else its code.
pub fn unit_label(lang: Lang, code: &str) -> String {
    UNITS
        .iter()
        .find(|(c, _, _)| *c == code)
        .map_or(code, |(_, en, de)| lang.pick(en, de))
        .to_string()
}

/// The values a line's form shows for a stored line, in the person's notation.
pub fn stored_line(lang: Lang, line: &DraftLine, currency: &Currency, field: &str) -> String {
    let single = match line.taxes.as_slice() {
        [tax] => Some(tax),
        _ => None,
    };
    match field {
        "description" => line.description.clone(),
        "quantity" => locale::decimal(lang, &line.quantity),
        "unit" => line.unit.clone(),
        "unitPrice" => locale::number(lang, line.unit_price_minor, currency.exponent()),
        "taxRate" => single.map_or(String::new(), |t| locale::decimal(lang, &t.rate)),
        "vatCategory" => line
            .vat_category
            .as_ref()
            .map(|c| c.code().to_string())
            .unwrap_or_default(),
        "exemptionCode" => line.exemption_code.clone().unwrap_or_default(),
        // The reason as the person wrote it: not the code or the stand-in
        // the books keep for a zero-rated line without one.
        "exemptionReason" => single
            .and_then(|t| t.reason.clone())
            .filter(|r| Some(r) != line.exemption_code.as_ref() && r != "Zero rated (category Z)")
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The fields of a line, filled with `value`.
pub fn line_fields(
    ctx: &Ctx,
    currency: &Currency,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let (description, quantity, price, rate, reason, code) = (
        value("description"),
        value("quantity"),
        value("unitPrice"),
        value("taxRate"),
        value("exemptionReason"),
        value("exemptionCode"),
    );
    let unit = value("unit");
    let unit = if unit.is_empty() {
        "C62".to_string()
    } else {
        unit
    };
    let mut units: Vec<(String, String)> = UNITS
        .iter()
        .map(|(code, en, de)| (code.to_string(), lang.pick(en, de).to_string()))
        .collect();
    if !UNITS.iter().any(|(code, _, _)| *code == unit) {
        units.push((unit.clone(), unit.clone()));
    }
    let mut categories = vec![(
        String::new(),
        lang.pick("By the rate (S above 0 %)", "Nach dem Satz (S über 0 %)")
            .to_string(),
    )];
    categories.extend(
        Category::ALL
            .iter()
            .map(|c| (c.code().to_string(), category_name(lang, c).to_string())),
    );
    let example = locale::number(lang, 123_456, currency.exponent().min(2));
    html! {
        (DESCRIPTION.render(lang, &description, problems))
        (QUANTITY.render(lang, &quantity, problems))
        (choice(lang, "unit", &DRAFT.label(lang, "unit"), &units, &unit, None, problems))
        (UNIT_PRICE.render_hinted(lang, &price, Some(match lang {
            Lang::En => format!("In {}, such as {example}", currency.as_str()),
            Lang::De => format!("In {}, etwa {example}", currency.as_str()),
        }), problems))
        (TAX_RATE.render(lang, &rate, problems))
        (choice(lang, "vatCategory", &DRAFT.label(lang, "vatCategory"), &categories, &value("vatCategory"), None, problems))
        (EXEMPTION_REASON.render(lang, &reason, problems))
        (EXEMPTION_CODE.render(lang, &code, problems))
    }
}

/// Reads a line's form into the books' input, in the draft's currency; a
/// field that does not read is noted and a stand-in goes to the books, so
/// every other field's problem is said at once too.
pub fn read_line<'c>(ctx: &'c Ctx, currency: &Currency) -> (DraftLineInput, Reading<'c>) {
    let mut read = Reading::of(ctx);
    let optional = |name: &str| {
        let t = ctx.form.sent(name).unwrap_or("").trim();
        (!t.is_empty()).then(|| t.to_string())
    };
    let quantity = read
        .decimal("quantity")
        .map_or_else(|| "1".to_string(), |q| q.to_string());
    let unit_price = match read.amount("unitPrice", currency) {
        Some(p) if p < 0 => {
            read.note(Error::invalid(
                "unitPrice",
                crate::error::said::Input::Negative,
            ));
            0
        }
        Some(p) => p,
        None => 0,
    };
    let tax_rate = read.optional_decimal("taxRate").map(|r| r.to_string());
    let input = DraftLineInput {
        description: ctx.form.get("description").map(str::to_string),
        quantity: Some(quantity),
        unit_price_minor: Some(unit_price),
        tax_rate_percent: tax_rate,
        taxes: None,
        unit: optional("unit"),
        vat_category: optional("vatCategory"),
        exemption_reason: optional("exemptionReason"),
        exemption_code: optional("exemptionCode"),
    };
    (input, read)
}
