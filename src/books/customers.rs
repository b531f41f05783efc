//! Customers (business partners: customers and suppliers) of one tenant: the
//! checks of a new customer, numbering (`K10001`… per company and
//! environment), agreed terms, the buyer's particulars a person sets
//! (address, VAT id, buyer reference, electronic address, e-invoice format),
//! the list with its search, and the wire form every surface shows. Every
//! query is bound to a `Tenant`; a customer of another company or
//! environment does not exist here. Finding the partner a bill's supplier
//! is, or making it, is `books::suppliers`'.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company::{self, Company};
use crate::books::numbering;
use crate::error::said::{Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::bank::Iban;
use crate::rules::eas::ElectronicAddress;
use crate::rules::iso::{CountryCode, Currency};
use crate::rules::locale::Lang;
use crate::rules::text::Patch;
use crate::rules::{text, vat_ids};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

/// The numbering series of business partners (`K10001`, `K10002`, …).
const PARTNER_SERIES: &str = "customer";
const FIRST_PARTNER_NUMBER: i64 = 10001;
/// The longest search text.
pub const MAX_SEARCH: usize = 200;
/// The longest texts of a customer's particulars (characters), and the
/// lengths of its ISO codes.
pub const MAX_NAME: usize = 200;
pub const MAX_STREET: usize = 200;
pub const MAX_POSTAL_CODE: usize = 20;
pub const MAX_CITY: usize = 100;
pub const MAX_COUNTRY: usize = 2;
pub const MAX_VAT_ID: usize = 30;
pub const MAX_CURRENCY: usize = 3;
pub const MAX_EMAIL: usize = 254;
pub const MAX_CONTACT: usize = 200;
pub const MAX_PHONE: usize = 50;
pub const MAX_BUYER_REFERENCE: usize = 200;

stored_enum! {
    /// The e-invoice format a customer receives besides the readable PDF.
    pub enum EinvoiceFormat {
        /// Factur-X: the PDF with its CII embedded (every invoice has it).
        Facturx = "facturx",
        /// XRechnung 3.0 (CII), as German public buyers ask for it.
        Xrechnung = "xrechnung",
        /// Peppol BIS Billing 3.0 (UBL).
        Peppol = "peppol",
    }
}

impl EinvoiceFormat {
    /// Reads a format name in any case.
    ///
    /// Fails with `Invalid` naming the field `einvoice` for another name.
    pub fn read(text: &str) -> Result<EinvoiceFormat> {
        EinvoiceFormat::parse(&text.trim().to_ascii_lowercase())
            .ok_or_else(|| Error::invalid("einvoice", EinvoiceFormat::not_one_of(text)))
    }
}

/// A new customer as a caller gives it: text as given, nothing checked.
#[derive(Debug, Default, Clone)]
pub struct CustomerInput {
    pub name: Option<String>,
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub country: Option<String>,
    pub vat_id: Option<String>,
    pub currency: Option<String>,
    pub email: Option<String>,
    pub contact: Option<String>,
    pub phone: Option<String>,
}

/// A checked new customer, ready to insert (the books' suppliers fill
/// one in themselves from what a bill names).
#[derive(Debug, Clone)]
pub struct NewCustomer {
    pub(crate) name: String,
    pub(crate) contact: Option<String>,
    pub(crate) email: Option<String>,
    pub(crate) phone: Option<String>,
    pub(crate) street: String,
    pub(crate) postal_code: String,
    pub(crate) city: String,
    pub(crate) country: CountryCode,
    pub(crate) vat_id: Option<String>,
    pub(crate) currency: Option<Currency>,
    pub(crate) is_customer: bool,
    pub(crate) is_supplier: bool,
}

impl NewCustomer {
    /// Checks a new customer: name, street, postal code and city are
    /// required; `country` defaults to the company's own; country and
    /// currency must be ISO codes, `email` shaped like an address; the VAT id
    /// is kept upper case without spaces and checked only at issue.
    ///
    /// Fails with `Invalid` naming every field that is missing, too long or malformed.
    pub fn check(input: CustomerInput, company: &Company) -> Result<NewCustomer> {
        let mut v = Violations::new();
        let name = v.take(text::required("name", input.name.as_deref(), MAX_NAME))?;
        let street = v.take(text::required(
            "street",
            input.street.as_deref(),
            MAX_STREET,
        ))?;
        let postal_code = v.take(text::required(
            "postalCode",
            input.postal_code.as_deref(),
            MAX_POSTAL_CODE,
        ))?;
        let city = v.take(text::required("city", input.city.as_deref(), MAX_CITY))?;
        let country = match v.take(text::optional(
            "country",
            input.country.as_deref(),
            MAX_COUNTRY,
        ))? {
            Some(Some(c)) => v.take(CountryCode::parse("country", &c))?,
            Some(None) => Some(company.country.clone()),
            None => None,
        };
        let vat_id = v
            .take(text::optional("vatId", input.vat_id.as_deref(), MAX_VAT_ID))?
            .flatten()
            .map(|id| vat_ids::normalise(&id));
        let currency = match v.take(text::optional(
            "currency",
            input.currency.as_deref(),
            MAX_CURRENCY,
        ))? {
            Some(Some(c)) => v.take(Currency::parse("currency", &c))?,
            _ => None,
        };
        let email = v
            .take(text::optional("email", input.email.as_deref(), MAX_EMAIL))?
            .flatten();
        if email.as_deref().is_some_and(|e| !text::email_shaped(e)) {
            v.invalid("email", Input::NotEmail);
        }
        let contact = v
            .take(text::optional(
                "contact",
                input.contact.as_deref(),
                MAX_CONTACT,
            ))?
            .flatten();
        let phone = v
            .take(text::optional("phone", input.phone.as_deref(), MAX_PHONE))?
            .flatten();
        v.finish()?;
        match (name, street, postal_code, city, country) {
            (Some(name), Some(street), Some(postal_code), Some(city), Some(country)) => {
                Ok(NewCustomer {
                    name,
                    contact,
                    email,
                    phone,
                    street,
                    postal_code,
                    city,
                    country,
                    vat_id,
                    currency,
                    is_customer: true,
                    is_supplier: false,
                })
            }
            _ => Err(Error::internal("a checked customer lacks a field")),
        }
    }
}

/// Inserts a customer with the tenant's next partner number and returns its
/// id; recorded as `customer.created` by `actor`.
///
/// Fails only on a storage error.
pub fn create(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewCustomer) -> Result<String> {
    let id = insert(tx, tenant, new)?;
    audit::record(tx, tenant, actor, Act::CustomerCreated, &id)?;
    Ok(id)
}

/// Inserts a partner with the tenant's next partner number; returns its id.
/// Part of an act: creating a customer, or recording a bill of a new supplier.
pub(crate) fn insert(tx: &Tx, tenant: &Tenant, new: &NewCustomer) -> Result<String> {
    let seq = numbering::take(tx, tenant, PARTNER_SERIES, FIRST_PARTNER_NUMBER)?;
    let id = ids::new_id("cus");
    tx.prepare_cached(
        "INSERT INTO customers (id, company_id, environment, number, name, contact, email, phone, street,
             postal_code, city, country, vat_id, currency, is_customer, is_supplier, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        format!("K{seq}"),
        new.name,
        new.contact,
        new.email,
        new.phone,
        new.street,
        new.postal_code,
        new.city,
        new.country,
        new.vat_id,
        new.currency,
        new.is_customer,
        new.is_supplier,
        clock::now()
    ])?;
    Ok(id)
}

const COLUMNS: &str =
    "id, number, name, contact, email, phone, street, postal_code, city, country, vat_id,
     currency, is_customer, is_supplier, archived, created_at, payment_days,
     buyer_reference, electronic_address, einvoice_format, iban, invoice_email, consumer, language";

/// A customer in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: String,
    pub number: String,
    pub name: String,
    pub contact: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub street: String,
    pub postal_code: String,
    pub city: String,
    pub country: CountryCode,
    pub vat_id: Option<String>,
    pub currency: Option<Currency>,
    pub customer: bool,
    pub supplier: bool,
    pub archived: bool,
    /// The customer's agreed payment days (none: the company's or the country's apply).
    pub payment_days: Option<i64>,
    pub created_at: String,
    /// The reference the buyer asks every invoice to carry (BT-10; a
    /// Leitweg-ID for German public buyers); a draft may name its own.
    pub buyer_reference: Option<String>,
    /// The buyer's electronic address (BT-49).
    pub electronic_address: Option<ElectronicAddress>,
    /// The e-invoice format the customer receives (default facturx).
    pub einvoice: EinvoiceFormat,
    /// The partner's bank account, compact: what its payments come from or
    /// go to.
    pub iban: Option<Iban>,
    /// Where invoices are sent (none: `email`).
    pub invoice_email: Option<String>,
    /// A consumer rather than a business (default interest and the flat sum
    /// of §288 BGB differ).
    pub consumer: bool,
    /// The language of what kontor sends the partner (`de`, `en`; none: by
    /// its country).
    #[serde(serialize_with = "language_code")]
    pub language: Option<Lang>,
}

fn language_code<S: serde::Serializer>(
    lang: &Option<Lang>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match lang {
        Some(lang) => s.serialize_str(lang.code()),
        None => s.serialize_none(),
    }
}

fn from_row(row: &rusqlite::Row) -> rusqlite::Result<Customer> {
    let r = Row::new(row, "customers");
    Ok(Customer {
        id: r.get(0)?,
        number: r.get(1)?,
        name: r.get(2)?,
        contact: r.get(3)?,
        email: r.get(4)?,
        phone: r.get(5)?,
        street: r.get(6)?,
        postal_code: r.get(7)?,
        city: r.get(8)?,
        country: r.get(9)?,
        vat_id: r.get(10)?,
        currency: r.get(11)?,
        customer: r.get(12)?,
        supplier: r.get(13)?,
        archived: r.get(14)?,
        payment_days: r.get(16)?,
        created_at: r.get(15)?,
        buyer_reference: r.get(17)?,
        electronic_address: r.get(18)?,
        einvoice: r.get(19)?,
        iban: r.get(20)?,
        invoice_email: r.get(21)?,
        consumer: r.get(22)?,
        language: r
            .get::<Option<String>>(23)?
            .as_deref()
            .and_then(Lang::from_code),
    })
}

/// One customer of the tenant in its wire form.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Customer> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Customer, id.to_string())))
}

/// The name of a customer of the tenant.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn name_of(conn: &Connection, tenant: &Tenant, id: &str) -> Result<String> {
    conn.prepare_cached(
        "SELECT name FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| {
        r.get(0)
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Customer, id.to_string())))
}

/// The customer's agreed payment days, if any.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn payment_days(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT payment_days FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| {
        r.get(0)
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Customer, id.to_string())))
}

/// Sets the customer's agreed payment days (0–365); documents issued from
/// now on use them. Recorded as `customer.changed` by `actor`.
///
/// Fails with `NotFound` for an unknown customer and `Invalid` for days outside 0–365.
pub fn set_terms(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, days: i64) -> Result<Customer> {
    write_terms(tx, tenant, id, days)?;
    audit::record(tx, tenant, actor, Act::CustomerChanged, id)?;
    get(tx, tenant, id)
}

/// Writes the customer's agreed payment days, checked.
///
/// Fails with `NotFound` for an unknown customer and `Invalid` for days outside 0–365.
fn write_terms(tx: &Tx, tenant: &Tenant, id: &str, days: i64) -> Result<()> {
    company::check_payment_days(days)?;
    let changed = tx.execute(
        "UPDATE customers SET payment_days = ?4 WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        params![id, tenant.company_id, tenant.environment, days],
    )?;
    if changed == 0 {
        return Err(Error::not_found(Said::Record(
            Record::Customer,
            id.to_string(),
        )));
    }
    Ok(())
}

/// A change of a customer's master data and buyer's particulars as a
/// person gives it, field by field: left out (unchanged), cleared, or a
/// value as written. Name, street, postal code, city and country cannot be
/// cleared (a customer has them); an electronic address is `SCHEME:VALUE`.
#[derive(Debug, Default, Clone)]
pub struct CustomerChangeInput {
    pub name: Option<String>,
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub country: Option<String>,
    pub vat_id: Patch<String>,
    pub buyer_reference: Patch<String>,
    pub electronic_address: Patch<String>,
    pub einvoice: Option<String>,
    pub iban: Patch<String>,
    pub invoice_email: Patch<String>,
    pub consumer: Option<bool>,
    /// `de` or `en`; cleared: by the partner's country.
    pub language: Patch<String>,
    /// The partner's e-mail address, contact person and phone.
    pub email: Patch<String>,
    pub contact: Patch<String>,
    pub phone: Patch<String>,
}

/// A checked change of a customer.
#[derive(Debug, Default, Clone)]
pub struct CustomerChange {
    name: Option<String>,
    street: Option<String>,
    postal_code: Option<String>,
    city: Option<String>,
    country: Option<CountryCode>,
    vat_id: Patch<String>,
    buyer_reference: Patch<String>,
    electronic_address: Patch<ElectronicAddress>,
    einvoice: Option<EinvoiceFormat>,
    iban: Patch<Iban>,
    invoice_email: Patch<String>,
    consumer: Option<bool>,
    language: Patch<Lang>,
    email: Patch<String>,
    contact: Patch<String>,
    phone: Patch<String>,
    /// Agreed payment days set in the same act (a screen's one form).
    payment_days: Option<i64>,
}

impl CustomerChange {
    /// The change with the customer's agreed payment days set too (`None`:
    /// they stay), so a form of both is one act with one audit row.
    pub fn with_terms(self, payment_days: Option<i64>) -> CustomerChange {
        CustomerChange {
            payment_days,
            ..self
        }
    }

    /// Checks a person's change of `current`: texts as at creation (name
    /// and street 200 characters, postal code 20, city 100), the country an
    /// ISO code, a buyer reference of at most 200 characters, an electronic
    /// address with a scheme of the EAS list, the format facturx, xrechnung
    /// or peppol, an IBAN with its check digits, an invoice e-mail address
    /// shaped like one, a language `de` or `en`. A VAT id given here is compacted and checked at once by
    /// its own prefix's country (an id without a letter prefix by the
    /// customer's country, as changed); unlike one created through the API.
    ///
    /// Fails with `Invalid` naming every field that is malformed or blank,
    /// and with `Refused` (a sentence) for a VAT id that fails its check.
    pub fn check(input: CustomerChangeInput, current: &Customer) -> Result<CustomerChange> {
        let mut v = Violations::new();
        let mut required =
            |field: &str, given: Option<&str>, max: usize| -> Result<Option<String>> {
                match given {
                    None => Ok(None),
                    Some(text) => Ok(v.take(text::required(field, Some(text), max))?),
                }
            };
        let name = required("name", input.name.as_deref(), MAX_NAME)?;
        let street = required("street", input.street.as_deref(), MAX_STREET)?;
        let postal_code = required("postalCode", input.postal_code.as_deref(), MAX_POSTAL_CODE)?;
        let city = required("city", input.city.as_deref(), MAX_CITY)?;
        let country = match input.country.as_deref() {
            Some(c) => v.take(CountryCode::parse("country", c))?,
            None => None,
        };
        let vat_id = match v
            .take(input.vat_id.text("vatId", MAX_VAT_ID))?
            .unwrap_or_default()
        {
            Patch::Value(id) => {
                let id = vat_ids::normalise(&id);
                let country = country.as_ref().unwrap_or(&current.country);
                if let Err(refusal) = vat_ids::check_by_prefix(country.as_str(), &id) {
                    v.refuse(refusal);
                }
                Patch::Value(id)
            }
            other => other,
        };
        let buyer_reference = v
            .take(
                input
                    .buyer_reference
                    .text("buyerReference", MAX_BUYER_REFERENCE),
            )?
            .unwrap_or_default();
        let electronic_address = v
            .take(
                input
                    .electronic_address
                    .read(|t| ElectronicAddress::parse("electronicAddress", t)),
            )?
            .unwrap_or_default();
        let einvoice = match input.einvoice.as_deref() {
            Some(format) => v.take(EinvoiceFormat::read(format))?,
            None => None,
        };
        let iban = v
            .take(input.iban.read(|t| Iban::parse("iban", t)))?
            .unwrap_or_default();
        let invoice_email = v
            .take(input.invoice_email.text("invoiceEmail", 254))?
            .unwrap_or_default();
        if matches!(&invoice_email, Patch::Value(e) if !text::email_shaped(e)) {
            v.invalid("invoiceEmail", Input::NotEmail);
        }
        let email = v
            .take(input.email.text("email", MAX_EMAIL))?
            .unwrap_or_default();
        if matches!(&email, Patch::Value(e) if !text::email_shaped(e)) {
            v.invalid("email", Input::NotEmail);
        }
        let contact = v
            .take(input.contact.text("contact", MAX_CONTACT))?
            .unwrap_or_default();
        let phone = v
            .take(input.phone.text("phone", MAX_PHONE))?
            .unwrap_or_default();
        let language = v
            .take(input.language.read(|t| {
                Lang::from_code(t)
                    .filter(|_| matches!(t.trim(), "de" | "en"))
                    .ok_or_else(|| {
                        Error::invalid("language", crate::error::not_one_of(&Lang::CODES, t))
                    })
            }))?
            .unwrap_or_default();
        v.finish()?;
        Ok(CustomerChange {
            name,
            street,
            postal_code,
            city,
            country,
            vat_id,
            buyer_reference,
            electronic_address,
            einvoice,
            iban,
            invoice_email,
            consumer: input.consumer,
            language,
            email,
            contact,
            phone,
            payment_days: None,
        })
    }
}

/// Changes a customer of the tenant: what the change names is set or
/// cleared (its agreed payment days too, when it carries them), the rest
/// stays. Documents issued before keep what they said; open drafts take the
/// new values when they are issued. Recorded as `customer.changed` by `actor`.
///
/// Fails with `NotFound` when the tenant has no customer with this id, and
/// `Invalid` for payment days outside 0–365.
pub fn change(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    change: CustomerChange,
) -> Result<Customer> {
    let mut c = get(tx, tenant, id)?;
    let set = |value: Option<String>, current: &mut String| {
        if let Some(value) = value {
            *current = value;
        }
    };
    set(change.name, &mut c.name);
    set(change.street, &mut c.street);
    set(change.postal_code, &mut c.postal_code);
    set(change.city, &mut c.city);
    if let Some(country) = change.country {
        c.country = country;
    }
    change.vat_id.apply(&mut c.vat_id);
    change.buyer_reference.apply(&mut c.buyer_reference);
    change.electronic_address.apply(&mut c.electronic_address);
    if let Some(format) = change.einvoice {
        c.einvoice = format;
    }
    change.iban.apply(&mut c.iban);
    change.invoice_email.apply(&mut c.invoice_email);
    if let Some(consumer) = change.consumer {
        c.consumer = consumer;
    }
    change.language.apply(&mut c.language);
    change.email.apply(&mut c.email);
    change.contact.apply(&mut c.contact);
    change.phone.apply(&mut c.phone);
    tx.prepare_cached(
        "UPDATE customers SET name = ?4, street = ?5, postal_code = ?6, city = ?7, country = ?8,
             vat_id = ?9, buyer_reference = ?10, electronic_address = ?11, einvoice_format = ?12,
             iban = ?13, invoice_email = ?14, consumer = ?15, language = ?16,
             email = ?17, contact = ?18, phone = ?19
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        c.name,
        c.street,
        c.postal_code,
        c.city,
        c.country,
        c.vat_id,
        c.buyer_reference,
        c.electronic_address,
        c.einvoice,
        c.iban,
        c.invoice_email,
        c.consumer,
        c.language.map(Lang::code),
        c.email,
        c.contact,
        c.phone
    ])?;
    if let Some(days) = change.payment_days {
        write_terms(tx, tenant, id, days)?;
    }
    audit::record(tx, tenant, actor, Act::CustomerChanged, id)?;
    get(tx, tenant, id)
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`, as a prefix.
fn prefix_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The text as one FTS5 phrase (a trigram index matches it as a substring).
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// How often the tenant's partners have changed (the data file's triggers
/// count every insert, update and delete of a customers row, by any
/// process): equal counts in two snapshots mean the same customers.
///
/// Fails only on a storage error.
pub fn changes(conn: &Connection, tenant: &Tenant) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT coalesce((SELECT value FROM customer_changes
                              WHERE company_id = ?1 AND environment = ?2), 0)",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |r| r.get(0))?)
}

/// A page of the tenant's customers, newest first, optionally only those
/// matching `search` (trimmed; at most 200 characters, none of them a
/// control character; blank means no search): three characters or more match anywhere in name, number, e-mail
/// or city (case folded, through the trigram index); one or two match the
/// start of name or number.
///
/// Fails with `Invalid` naming the field `search` for a longer text or a
/// control character.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    search: Option<&str>,
    paging: Paging,
) -> Result<Page<Customer>> {
    list_side(conn, tenant, Side::All, search, paging)
}

/// Which partners a list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Every partner (the API's list).
    All,
    /// Partners made as customers or with an invoice drafted for them.
    Customers,
    /// Partners who sent a bill (or were made as suppliers).
    Suppliers,
}

/// Like `list`, of one side's partners; a partner who is both is in both.
///
/// Fails as `list` fails.
pub fn list_side(
    conn: &Connection,
    tenant: &Tenant,
    side: Side,
    search: Option<&str>,
    paging: Paging,
) -> Result<Page<Customer>> {
    let tenant_filter = match side {
        Side::All => "company_id = ?1 AND environment = ?2",
        Side::Customers => {
            "company_id = ?1 AND environment = ?2 AND (is_customer = 1 OR id IN
                (SELECT customer_id FROM drafts WHERE company_id = ?1 AND environment = ?2))"
        }
        Side::Suppliers => "company_id = ?1 AND environment = ?2 AND is_supplier = 1",
    };
    const SUBSTRING: &str =
        "AND seq IN (SELECT rowid FROM customers_fts WHERE customers_fts MATCH ?3)";
    const PREFIX: &str = "AND (name LIKE ?3 ESCAPE '\\' OR number LIKE ?3 ESCAPE '\\')";
    let search = search.filter(|s| !s.trim().is_empty());
    let search = text::optional("search", search, MAX_SEARCH)?;
    let (filter, pattern) = match search.as_deref() {
        None => (format!("{tenant_filter} AND ?3 IS NULL"), None),
        Some(text) if text.chars().count() >= 3 => {
            (format!("{tenant_filter} {SUBSTRING}"), Some(phrase(text)))
        }
        Some(text) => (
            format!("{tenant_filter} {PREFIX}"),
            Some(prefix_pattern(text)),
        ),
    };
    let total: i64 = match pattern {
        // Every partner row takes exactly one number of the partner sequence in
        // its own transaction, and no partner is ever deleted, so the sequence
        // counts them: no need to walk the index on every page.
        None if side == Side::All => {
            numbering::peek(conn, tenant, PARTNER_SERIES, FIRST_PARTNER_NUMBER)?
                - FIRST_PARTNER_NUMBER
        }
        _ => conn
            .prepare_cached(&format!("SELECT count(*) FROM customers WHERE {filter}"))?
            .query_row(
                params![tenant.company_id, tenant.environment, pattern],
                |r| r.get(0),
            )?,
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM customers WHERE {filter} ORDER BY seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
    ))?;
    let data = stmt
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                pattern,
                paging.offset()
            ],
            from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}
