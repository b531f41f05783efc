//! The seller's particulars an invoice carries (`Particulars`: address,
//! VAT id, registration, contact, bank account, electronic address,
//! small-business status), as a person gives them (`ParticularsInput`)
//! and checked (`ParticularsChange`): each field left out, cleared or set.
//! The company they belong to stores and changes them (`company`).

use serde::Serialize;

use crate::books::tax_methods::methods::LegalForm;
use crate::error::said::{Company, Input};
use crate::error::{Result, Violations};
use crate::rules::bank::{Bic, Iban};
use crate::rules::eas::ElectronicAddress;
use crate::rules::iso::CountryCode;
use crate::rules::text::{self, Patch};
use crate::rules::vat_ids;

/// The seller's particulars: what §14 UStG and §35a GmbHG ask an invoice
/// and a business letter to say of the seller, and what EN 16931 carries of
/// it (BG-4 seller, BG-6 contact, BG-16/17 payment instructions). Each is
/// absent until a person sets it; whether an invoice may be issued without
/// one is for the issue to decide.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Particulars {
    /// The registered name (BT-27), when it differs from the company's name.
    pub legal_name: Option<String>,
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    /// Compact, upper case; passes the check of its own prefix's country.
    pub vat_id: Option<String>,
    /// The tax office's number (Steuernummer, BT-32).
    pub tax_number: Option<String>,
    /// The register entry, such as `HRB 12345, Amtsgericht Hamburg` (BT-30, §35a GmbHG).
    pub registration: Option<String>,
    pub contact_name: Option<String>,
    pub contact_phone: Option<String>,
    pub contact_email: Option<String>,
    /// The seller's electronic address (BT-34).
    pub electronic_address: Option<ElectronicAddress>,
    /// Compact and upper case; `Iban::grouped` is the printed form.
    pub iban: Option<Iban>,
    pub bic: Option<Bic>,
    /// The account holder's name (BT-85), at most 70 characters as a SEPA transfer carries it.
    pub account_holder: Option<String>,
    /// The managing directors, as the business letter names them (§35a GmbHG).
    pub managing_directors: Option<String>,
    /// §19 UStG: the seller charges no VAT, and its invoices say so.
    pub small_business: bool,
    /// The legal form: whether the company may determine its profit by the EÜR.
    pub legal_form: Option<LegalForm>,
}

/// The seller's particulars as a person gives them, field by field: left
/// out (unchanged), cleared, or a value as written.
#[derive(Debug, Default, Clone)]
pub struct ParticularsInput {
    pub legal_name: Patch<String>,
    pub street: Patch<String>,
    pub postal_code: Patch<String>,
    pub city: Patch<String>,
    pub vat_id: Patch<String>,
    pub tax_number: Patch<String>,
    pub registration: Patch<String>,
    pub contact_name: Patch<String>,
    pub contact_phone: Patch<String>,
    pub contact_email: Patch<String>,
    /// `SCHEME:VALUE`.
    pub electronic_address: Patch<String>,
    pub iban: Patch<String>,
    pub bic: Patch<String>,
    pub account_holder: Patch<String>,
    pub managing_directors: Patch<String>,
    pub small_business: Option<bool>,
    /// A legal form's key (`GMBH`, `SOLE_PROPRIETOR`, …).
    pub legal_form: Patch<String>,
}

/// A checked change of the seller's particulars.
#[derive(Debug, Default, Clone)]
pub struct ParticularsChange {
    legal_name: Patch<String>,
    street: Patch<String>,
    postal_code: Patch<String>,
    city: Patch<String>,
    vat_id: Patch<String>,
    tax_number: Patch<String>,
    registration: Patch<String>,
    contact_name: Patch<String>,
    contact_phone: Patch<String>,
    contact_email: Patch<String>,
    electronic_address: Patch<ElectronicAddress>,
    iban: Patch<Iban>,
    bic: Patch<Bic>,
    account_holder: Patch<String>,
    managing_directors: Patch<String>,
    small_business: Option<bool>,
    legal_form: Patch<LegalForm>,
}

/// The longest texts of the seller's particulars (characters).
pub const MAX_LEGAL_NAME: usize = 200;
pub const MAX_STREET: usize = 200;
pub const MAX_POSTAL_CODE: usize = 20;
pub const MAX_CITY: usize = 100;
pub const MAX_VAT_ID: usize = 30;
pub const MAX_TAX_NUMBER: usize = 30;
pub const MAX_REGISTRATION: usize = 200;
pub const MAX_CONTACT_NAME: usize = 200;
pub const MAX_CONTACT_PHONE: usize = 50;
pub const MAX_CONTACT_EMAIL: usize = 254;
pub const MAX_ACCOUNT_HOLDER: usize = 70;
pub const MAX_MANAGING_DIRECTORS: usize = 500;

impl ParticularsChange {
    /// Checks a change of the particulars of a seller in `country`: texts
    /// trimmed, printable and bounded (names, street, registration and
    /// contact name 200 characters, postal code 20, city 100, tax number 30,
    /// phone 50 with three digits at least, e-mail 254 and shaped like one,
    /// account holder 70, managing directors 500); the VAT id compacted and
    /// checked by its own prefix's country (an id without a letter prefix by
    /// `country`); the IBAN by its country's length and check digits; the BIC
    /// by its format; the electronic address by the EAS code list.
    ///
    /// Fails with `Invalid` naming every field that is malformed or blank,
    /// and with `Refused` (a sentence) for a VAT id that fails its check.
    pub fn check(input: ParticularsInput, country: &CountryCode) -> Result<ParticularsChange> {
        let mut v = Violations::new();
        let mut text = |field: &str, given: &Patch<String>, max: usize| -> Result<Patch<String>> {
            Ok(v.take(given.text(field, max))?.unwrap_or_default())
        };
        let legal_name = text("legalName", &input.legal_name, MAX_LEGAL_NAME)?;
        let street = text("street", &input.street, MAX_STREET)?;
        let postal_code = text("postalCode", &input.postal_code, MAX_POSTAL_CODE)?;
        let city = text("city", &input.city, MAX_CITY)?;
        let vat_id = text("vatId", &input.vat_id, MAX_VAT_ID)?;
        let tax_number = text("taxNumber", &input.tax_number, MAX_TAX_NUMBER)?;
        let registration = text("registration", &input.registration, MAX_REGISTRATION)?;
        let contact_name = text("contactName", &input.contact_name, MAX_CONTACT_NAME)?;
        let contact_phone = text("contactPhone", &input.contact_phone, MAX_CONTACT_PHONE)?;
        let contact_email = text("contactEmail", &input.contact_email, MAX_CONTACT_EMAIL)?;
        let account_holder = text("accountHolder", &input.account_holder, MAX_ACCOUNT_HOLDER)?;
        let managing_directors = text(
            "managingDirectors",
            &input.managing_directors,
            MAX_MANAGING_DIRECTORS,
        )?;
        // As XRechnung reads a telephone number (BR-DE-27): three digits at least.
        if let Patch::Value(phone) = &contact_phone {
            if phone.chars().filter(char::is_ascii_digit).count() < 3 {
                v.invalid("contactPhone", Company::NotPhone);
            }
        }
        if let Patch::Value(email) = &contact_email {
            if !text::email_shaped(email) {
                v.invalid("contactEmail", Input::NotEmail);
            }
        }
        let vat_id = match vat_id {
            Patch::Value(id) => {
                let id = vat_ids::normalise(&id);
                if let Err(refusal) = vat_ids::check_by_prefix(country.as_str(), &id) {
                    v.refuse(refusal);
                }
                Patch::Value(id)
            }
            other => other,
        };
        let electronic_address = v
            .take(
                input
                    .electronic_address
                    .read(|t| ElectronicAddress::parse("electronicAddress", t)),
            )?
            .unwrap_or_default();
        let iban = v
            .take(input.iban.read(|t| Iban::parse("iban", t)))?
            .unwrap_or_default();
        let bic = v
            .take(input.bic.read(|t| Bic::parse("bic", t)))?
            .unwrap_or_default();
        let legal_form = v
            .take(input.legal_form.read(|t| LegalForm::read("legalForm", t)))?
            .unwrap_or_default();
        v.finish()?;
        Ok(ParticularsChange {
            legal_name,
            street,
            postal_code,
            city,
            vat_id,
            tax_number,
            registration,
            contact_name,
            contact_phone,
            contact_email,
            electronic_address,
            iban,
            bic,
            account_holder,
            managing_directors,
            small_business: input.small_business,
            legal_form,
        })
    }

    /// Whether the change names no particular at all.
    pub fn is_empty(&self) -> bool {
        self.legal_name.is_absent()
            && self.street.is_absent()
            && self.postal_code.is_absent()
            && self.city.is_absent()
            && self.vat_id.is_absent()
            && self.tax_number.is_absent()
            && self.registration.is_absent()
            && self.contact_name.is_absent()
            && self.contact_phone.is_absent()
            && self.contact_email.is_absent()
            && self.electronic_address.is_absent()
            && self.iban.is_absent()
            && self.bic.is_absent()
            && self.account_holder.is_absent()
            && self.managing_directors.is_absent()
            && self.small_business.is_none()
            && self.legal_form.is_absent()
    }

    /// The particulars with this change applied.
    pub(crate) fn applied_to(self, current: &Particulars) -> Particulars {
        let mut p = current.clone();
        self.legal_name.apply(&mut p.legal_name);
        self.street.apply(&mut p.street);
        self.postal_code.apply(&mut p.postal_code);
        self.city.apply(&mut p.city);
        self.vat_id.apply(&mut p.vat_id);
        self.tax_number.apply(&mut p.tax_number);
        self.registration.apply(&mut p.registration);
        self.contact_name.apply(&mut p.contact_name);
        self.contact_phone.apply(&mut p.contact_phone);
        self.contact_email.apply(&mut p.contact_email);
        self.electronic_address.apply(&mut p.electronic_address);
        self.iban.apply(&mut p.iban);
        self.bic.apply(&mut p.bic);
        self.account_holder.apply(&mut p.account_holder);
        self.managing_directors.apply(&mut p.managing_directors);
        self.legal_form.apply(&mut p.legal_form);
        if let Some(small) = self.small_business {
            p.small_business = small;
        }
        p
    }
}
