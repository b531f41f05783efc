//! Rules that hold whatever the records say: exact money and its rounding,
//! the ISO country and currency tables, the seller country's number formats,
//! payment terms and sentences, the unit and VAT exemption code lists, and the shapes and check digits of EU VAT
//! ids. Pure functions; no storage, no surface.

pub mod iso;
pub mod jurisdiction;
pub mod locale;
pub mod money;
pub mod text;
pub mod units;
pub mod vat_ids;
pub mod vatex;
