//! The VAT return's figures (*Umsatzsteuer-Voranmeldung*) and the EC sales
//! list (*Zusammenfassende Meldung*) of a month or quarter, read from the
//! ledger alone: each figure from the postings with its tax key, every
//! figure's postings listed behind it. Transmission to the tax office
//! (ELSTER) is not kontor's: it needs the taxpayer's certificate.

pub mod ec_sales;
pub mod figures;
pub mod filing;
pub mod period;
