//! Rules that hold whatever the records say: exact money and its rounding,
//! the ISO country and currency tables, the seller country's number formats,
//! payment terms and sentences, the unit and VAT exemption code lists, the
//! shapes and check digits of EU VAT ids, IBANs, BICs and ISO 11649 creditor
//! references, the electronic address schemes of e-invoices, the default
//! interest and flat sum a reminder states, the texts with placeholders an
//! owner writes, and the DATEV charts of accounts SKR03 and SKR04 (`skr`).
//! Pure functions; no storage, no surface.

pub mod bank;
pub mod countries;
pub mod creditor_reference;
pub mod default_interest;
pub mod eas;
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
