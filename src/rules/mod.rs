//! Rules that hold whatever the records say: exact money and its rounding,
//! the ISO country and currency tables, the seller country's number formats,
//! payment terms and sentences, the unit and VAT exemption code lists, the
//! shapes and check digits of EU VAT ids, IBANs, BICs and ISO 11649 creditor
//! references, the electronic address schemes of e-invoices, the default
//! interest and flat sum a reminder states, the texts with placeholders an
//! owner writes, the DATEV charts of accounts, and how amounts, dates,
//! countries and units read in German and English. Pure functions: no
//! storage, no clock, no surface.
//!
//! - `money.rs`: exact decimals (`Decimal`), amounts in minor units, rounding
//!   half away from zero, line nets and tax totals, conversion at a rate,
//!   `fixed_rate`, `apportion` (largest remainder); no floating point.
//! - `iso.rs`: ISO 3166-1 countries and ISO 4217 currencies with their
//!   exponents (`CountryCode`, `Currency`).
//! - `stored_text.rs`: `stored_text!`, the one macro that gives a checked
//!   text type (a country or currency code, an IBAN, a BIC) its stored and
//!   shown form and a strict read. (Enums stored as text are
//!   `stored_enum!`'s, in `store::row`.)
//! - `jurisdiction.rs`: per seller country: number series and formats,
//!   default payment days, the payment sentence, the tax's name, EU
//!   membership.
//! - `text.rs`: a text field's rules (bounded, no control characters,
//!   trimmed), an e-mail address's shape, `Patch` for partial updates, and
//!   `camel_to`, the one camelCase-to-flag converter.
//! - `locale.rs`: `Lang` (`Lang::pick(en, de)`, `Lang::of_seller`: a seller's
//!   documents in German in the German-speaking countries); amounts and
//!   dates in German and English, typed amounts, quantities and rates read
//!   back exactly; the one formatter of the screens and the documents.
//! - `countries.rs`: a country's name in English or German as an address
//!   line writes it (`countries::name`).
//! - `units.rs`: the UN/ECE Recommendation 20/21 unit codes EN 16931 accepts
//!   (`known`, the list itself in the data file `units.txt`), and the
//!   common ones' names in English and German.
//! - `vatex.rs`: the VATEX exemption codes EN 16931 accepts.
//! - `eas.rs`: the EAS code list of electronic addresses (the list in
//!   `eas.txt`).
//! - `bank.rs`: IBANs (registry lengths, mod 97), BICs, a German IBAN from
//!   bank code and account number, and `AccountId`, an account as a
//!   statement names it.
//! - `creditor_reference.rs`: the ISO 11649 creditor reference (`RF…`): an
//!   invoice number's, and a payer's checked.
//! - `default_interest.rs`: §288 BGB default interest over the §247 base-rate
//!   table (shipped, with an owner's rows laid over it), split where the rate
//!   changes and rounded per segment; the €40 flat sum.
//! - `placeholders.rs`: texts an owner writes with `{placeholders}`: checked
//!   when saved, filled when used.
//! - `chart.rs`: the chart of accounts kontor keeps on SKR03 or SKR04
//!   (`Chart`): every account with both numbers, its German and English
//!   name, its kind and its line of the HGB statements (§ 266, § 275 (2)),
//!   the costs offered for a bill's lines, and the ranges a company's own
//!   accounts may take; each with its source.
//! - `skr.rs`: where each ledger account and tax key lands on the chart,
//!   automatic or with its BU-Schlüssel (the DATEV export's table), and
//!   the ranges of personal and bank accounts.
//! - `fiscal_year.rs`: the first day of a company's fiscal year
//!   (`FiscalYearStart`) and the fiscal year a day lies in.
//! - `afa.rs`: fixed assets' depreciation (*AfA*): the classes of the
//!   official depreciation table a small company needs, each with its
//!   useful life, accounts and source; which method an asset takes (§ 7 (1),
//!   § 6 (2), § 6 (2a) EStG, the one-year life of digital assets) and what
//!   it writes off through a day and in a fiscal year.
//! - `cash_vat.rs`: VAT that falls due with the payment (§ 13 (1) no. 1 b,
//!   § 20 UStG): the tax keys that follow the money, the mark of revenue
//!   not yet received, a settlement split over a document's keys, and the
//!   day the amended § 15 (1) and § 14 (4) no. 6a UStG apply from.
//! - `euer.rs`: the Anlage EÜR of the cash-basis profit statement: its
//!   figures by Kennzahl with their labels, the line each stands on in
//!   each year's form kontor knows (with the sources), which Kz a cost of
//!   the chart and a revenue by its tax key go to.
//! - `vat_ids/`: VAT ids, judged by their own prefix.
//! - `catalogue/`: the words of every message (`error::Said`) in German and
//!   English, and of an error as a whole, for a reader's language and surface.

pub mod afa;
pub mod bank;
pub mod cash_vat;
pub mod catalogue;
pub mod chart;
pub mod countries;
pub mod creditor_reference;
pub mod default_interest;
pub mod eas;
pub mod euer;
pub mod fiscal_year;
pub mod iso;
pub mod jurisdiction;
pub mod locale;
pub mod money;
pub mod placeholders;
pub mod skr;
mod stored_text;
pub mod text;
pub mod units;
pub mod vat_ids;
pub mod vatex;
