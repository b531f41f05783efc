//! The drafts' forms, described once: every field of a draft's forms
//! with its label, limit and hint, the names of their choices, and the
//! books' names of fields the forms name otherwise; and how a person reads
//! a draft's kind, a VAT category and a rate.

use crate::books::customers;
use crate::books::drafts::DraftKind;
use crate::documents::Category;
use crate::http::screens::form::{Form, FormField};
use crate::rules::locale::{self, Lang};
use crate::rules::money::Decimal;

// The limits below are those `books::drafts` checks (a description of at
// most 500 characters, references and a reason for no VAT of at most 200),
// written here as numbers while that file names none of them.

/// The search among the company's customers for a new draft.
pub const SEARCH: FormField = FormField::text(
    "search",
    "Search customers",
    "Kunden suchen",
    customers::MAX_SEARCH,
)
.kind("search")
.hint(
    "Name, number, e-mail or city",
    "Name, Nummer, E-Mail oder Ort",
);

/// A line's text fields (its unit and VAT category are choices).
pub const DESCRIPTION: FormField =
    FormField::text("description", "Description", "Beschreibung", 500).required();
pub const QUANTITY: FormField = FormField::text("quantity", "Quantity", "Menge", 30)
    .required()
    .hint("Such as 2 or 1.5", "Etwa 2 oder 1,5");
/// Its hint names the draft's currency.
pub const UNIT_PRICE: FormField =
    FormField::amount("unitPrice", "Unit price (net)", "Einzelpreis (netto)").required();
pub const TAX_RATE: FormField = FormField::text("taxRate", "VAT rate in %", "USt-Satz in %", 12)
    .hint(
        "Such as 19 or 7; empty for a category without VAT",
        "Etwa 19 oder 7; leer bei einer Kategorie ohne Umsatzsteuer",
    );
pub const EXEMPTION_REASON: FormField = FormField::text(
    "exemptionReason",
    "Reason for no VAT",
    "Grund der Steuerbefreiung",
    200,
)
.hint(
    "Why no VAT is charged, for Z, E, AE, K, G and O",
    "Warum keine Umsatzsteuer berechnet wird, bei Z, E, AE, K, G und O",
);
pub const EXEMPTION_CODE: FormField =
    FormField::text("exemptionCode", "VATEX code", "VATEX-Code", 30).hint(
        "Optional, such as VATEX-EU-AE",
        "Freiwillig, etwa VATEX-EU-AE",
    );

/// The draft's references, as `draft set` sets them; the buyer
/// reference's hint names the customer's own.
pub const BUYER_REFERENCE: FormField =
    FormField::text("buyerReference", "Buyer reference", "Käuferreferenz", 200);
pub const ORDER_REFERENCE: FormField =
    FormField::text("orderReference", "Order reference", "Bestellnummer", 200);
pub const PERIOD_FROM: FormField =
    FormField::date("periodFrom", "Period from", "Leistungszeitraum von").hint(
        "The first and the last day of the service; both or neither",
        "Erster und letzter Tag der Leistung; beide oder keiner",
    );
pub const PERIOD_TO: FormField = FormField::date("periodTo", "Period to", "Leistungszeitraum bis");

/// The options, as `draft issue` takes them; the rate's hint
/// names both currencies.
pub const DELIVERED_ON: FormField = FormField::date("deliveredOn", "Delivery date", "Lieferdatum")
    .hint("Empty: the issue date", "Leer: das Ausstellungsdatum");
pub const RATE: FormField = FormField::text("rate", "Exchange rate", "Wechselkurs", 20).required();

/// Every form of the drafts' screens: their labels, and the books' names
/// of fields after the API's draft line (`unitPriceMinor`,
/// `taxRatePercent`) or the console (`period`).
pub const DRAFT: Form = Form::new(&[
    SEARCH,
    DESCRIPTION,
    QUANTITY,
    UNIT_PRICE,
    TAX_RATE,
    EXEMPTION_REASON,
    EXEMPTION_CODE,
    BUYER_REFERENCE,
    ORDER_REFERENCE,
    PERIOD_FROM,
    PERIOD_TO,
    DELIVERED_ON,
    RATE,
])
.naming(&[
    ("customerId", "Customer", "Kunde"),
    ("unit", "Unit", "Einheit"),
    ("vatCategory", "VAT category", "USt-Kategorie"),
])
.renaming(&[
    ("unitPriceMinor", "unitPrice"),
    ("taxRatePercent", "taxRate"),
    ("taxes", "taxRate"),
    ("period", "periodFrom"),
]);

/// How a person reads a draft's kind.
pub fn kind_name(lang: Lang, kind: DraftKind) -> &'static str {
    match kind {
        DraftKind::Invoice => lang.pick("Invoice", "Rechnung"),
        DraftKind::Quote => lang.pick("Quote", "Angebot"),
    }
}

/// The VAT categories a line may name, with how a person reads them.
pub fn category_name(lang: Lang, category: &Category) -> &'static str {
    match category {
        Category::S => lang.pick("S – standard rate", "S – Regelsteuersatz"),
        Category::Z => lang.pick("Z – zero rated", "Z – Nullsatz"),
        Category::E => lang.pick("E – exempt", "E – steuerbefreit"),
        Category::AE => lang.pick(
            "AE – reverse charge",
            "AE – Steuerschuldnerschaft des Leistungsempfängers",
        ),
        Category::K => lang.pick(
            "K – intra-community supply",
            "K – innergemeinschaftliche Lieferung",
        ),
        Category::G => lang.pick("G – export outside the EU", "G – Ausfuhr"),
        Category::O => lang.pick("O – outside the scope of VAT", "O – nicht steuerbar"),
        Category::L => lang.pick("L – Canary Islands (IGIC)", "L – Kanarische Inseln (IGIC)"),
        Category::M => lang.pick(
            "M – Ceuta and Melilla (IPSI)",
            "M – Ceuta und Melilla (IPSI)",
        ),
        Category::B => lang.pick("B – split payment (Italy)", "B – Split Payment (Italien)"),
        // A draft's line names a listed category only.
        Category::Unlisted(_) => {
            lang.pick("not on EN 16931's list", "nicht in der Liste der EN 16931")
        }
    }
}

/// A rate as a person reads it (`19 %` in German, `19%` in English).
pub fn percent(lang: Lang, rate: &Decimal) -> String {
    match lang {
        Lang::De => format!("{}\u{a0}%", locale::decimal(lang, rate)),
        Lang::En => format!("{}%", locale::decimal(lang, rate)),
    }
}
