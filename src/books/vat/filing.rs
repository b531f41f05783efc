//! The VAT return and the EC sales list of a tenant's books for a period,
//! read from the journal alone: every revenue, tax and expense line of the
//! period with its tax key goes to `figures`, and every sale to a business
//! in another member state to `ec_sales` with the buyer's VAT id. Final
//! when the books are closed through the period's last day. Reads only.

use std::collections::HashMap;

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::ledger;
use crate::books::vat::ec_sales::{self, Supply, SupplyKind};
use crate::books::vat::figures::{self, Behind, DocumentRef, Figures, Posting};
use crate::books::vat::period::Period;
use crate::books::vat_due::register::{self, Side};
use crate::error::{Error, Result};
use crate::rules::skr;
use crate::store::db::ReadSnapshot;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The VAT return of a period.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VatReturn {
    pub period: String,
    pub from: Date,
    pub to: Date,
    /// Whether the books are closed through `to` (else the figures may change).
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Each Kz as on the form: bases in whole euros, taxes with cents.
    pub kz: std::collections::BTreeMap<&'static str, String>,
    /// The tax of Kz 81 and 86 as the form computes it from the bases.
    pub tax: std::collections::BTreeMap<&'static str, String>,
    /// The output tax the books hold for Kz 81 and 86.
    pub booked_tax: std::collections::BTreeMap<&'static str, String>,
    /// The form's tax less the booked one, per Kz.
    pub difference: std::collections::BTreeMap<&'static str, String>,
    /// The postings behind each Kz.
    pub postings: std::collections::BTreeMap<&'static str, Vec<Behind>>,
}

/// The EC sales list of a period.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EcSales {
    pub period: String,
    pub from: Date,
    pub to: Date,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub rows: Vec<ec_sales::Row>,
}

/// The tenant's journal lines with a tax key's meaning (revenue, the taxes,
/// expenses) posted in `from..=to` that feed a figure (`figures::feeds`),
/// in order. The others (revenue not yet received, tax not yet due, a
/// bill's expense) are most of a month's lines and are passed over before
/// they are copied out.
fn keyed_lines(conn: &Connection, tenant: &Tenant, from: Date, to: Date) -> Result<Vec<Posting>> {
    let accounts = skr::KEYED.map(|a| format!("'{a}'")).join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT entry, posted_on, account, detail, debit, credit FROM journal
         WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
             AND account IN ({accounts})
         ORDER BY posted_on, seq"
    ))?;
    let mut rows = stmt.query(params![tenant.company_id, tenant.environment, from, to])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        // A line whose account or key is not text is read below and refused there.
        let text = |i: usize| row.get_ref(i).ok().and_then(|v| v.as_str().ok());
        if let (Some(account), Some(key)) = (text(2), text(3)) {
            if !figures::feeds(account, key) {
                continue;
            }
        }
        let r = Row::new(row, "journal");
        out.push(Posting {
            entry: r.get(0)?,
            date: r.get(1)?,
            account: r.get(2)?,
            key: r.get(3)?,
            debit: r.get(4)?,
            credit: r.get(5)?,
        });
    }
    Ok(out)
}

/// The VAT return's figures of `period` in the tenant's books, read in one
/// snapshot.
///
/// Fails only on a storage error.
pub fn vat_return(conn: &Connection, tenant: &Tenant, period: &Period) -> Result<VatReturn> {
    let _snapshot = ReadSnapshot::unless_within(conn)?;
    let lines = keyed_lines(conn, tenant, period.from, period.to)?;
    let Figures {
        kz,
        mut postings,
        tax,
        booked_tax,
        difference,
    } = figures::figures(&lines);
    let mut entries: Vec<&str> = postings
        .values()
        .flatten()
        .map(|b| b.entry.as_str())
        .collect();
    entries.sort_unstable();
    entries.dedup();
    let known = named(conn, tenant, &entries)?;
    for behind in postings.values_mut().flatten() {
        (behind.document, behind.payment) = known.get(&behind.entry).cloned().unwrap_or_default();
    }
    Ok(VatReturn {
        period: period.label.clone(),
        from: period.from,
        to: period.to,
        is_final: ledger::is_final(conn, tenant, period.to)?,
        kz,
        tax,
        booked_tax,
        difference,
        postings,
    })
}

/// The document and the payment named behind a ledger entry.
type Named = (Option<DocumentRef>, Option<String>);

/// The document and the payment behind each of the ledger entries
/// `entries`: where an entry moved VAT that waited for the money, the
/// document and payment its first move names; else the entry's own
/// document (itself, or what it settled) and no payment. Looked up for all the entries at once
/// (a month of a busy year names thousands).
///
/// Fails only on a storage error.
fn named(conn: &Connection, tenant: &Tenant, entries: &[&str]) -> Result<HashMap<String, Named>> {
    // The first VAT move of each entry: (the document's kind, its id, the payment).
    let moved: HashMap<String, (&'static str, String, Option<String>)> =
        register::first_of_entries(conn, tenant, entries)?
            .into_iter()
            .map(|(entry, m)| {
                let kind = match m.side {
                    Side::Sale => "invoice",
                    Side::Purchase => "purchase",
                };
                (entry, (kind, m.document, m.payment))
            })
            .collect();
    let mut out: HashMap<String, Named> = HashMap::with_capacity(entries.len());
    // The documents the moves name.
    for kind in ["invoice", "purchase"] {
        let ids: Vec<&str> = moved
            .values()
            .filter(|m| m.0 == kind)
            .map(|m| m.1.as_str())
            .collect();
        let names = documents_named(conn, tenant, kind, &ids)?;
        for (entry, m) in moved.iter().filter(|(_, m)| m.0 == kind) {
            out.insert(entry.clone(), (names.get(&m.1).cloned(), m.2.clone()));
        }
    }
    // The rest: an invoice or a bill posts as itself; any other entry
    // belongs to the document `settled_document` finds.
    let mut rest: Vec<&str> = entries
        .iter()
        .copied()
        .filter(|e| !moved.contains_key(*e))
        .collect();
    for kind in ["invoice", "purchase"] {
        let names = documents_named(conn, tenant, kind, &rest)?;
        rest.retain(|e| !names.contains_key(*e));
        out.extend(names.into_iter().map(|(id, d)| (id, (Some(d), None))));
    }
    for entry in rest {
        out.insert(
            entry.to_string(),
            (settled_document(conn, tenant, entry)?, None),
        );
    }
    Ok(out)
}

/// The document an entry that is no invoice or bill belongs to: a
/// payment, a credit applied, a bank line's settlement (a discount, a
/// difference) and the entry that undid one belong to the document they
/// settled; an asset's sale to the invoice that sold it. (An invoice or a
/// bill posts as itself; `named` finds those first.)
///
/// Fails only on a storage error.
fn settled_document(
    conn: &Connection,
    tenant: &Tenant,
    entry: &str,
) -> Result<Option<DocumentRef>> {
    let found: Option<(String, String)> = conn
        .prepare_cached(
            "SELECT target_kind, target_id FROM bank_settlements
             WHERE (id = ?1 OR undone_by = ?1) AND company_id = ?2 AND environment = ?3 AND target_id IS NOT NULL
             UNION ALL
             SELECT CASE WHEN invoice_id IS NULL THEN 'purchase' ELSE 'invoice' END, coalesce(invoice_id, purchase_id)
             FROM payments WHERE id = ?1 AND company_id = ?2 AND environment = ?3
             UNION ALL
             SELECT 'purchase', bill_id FROM credit_applications WHERE id = ?1 AND company_id = ?2 AND environment = ?3
             UNION ALL
             SELECT 'invoice', invoice_id FROM assets
             WHERE sale_entry = ?1 AND company_id = ?2 AND environment = ?3 AND invoice_id IS NOT NULL
             LIMIT 1",
        )?
        .query_row(params![entry, tenant.company_id, tenant.environment], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let Some((kind, id)) = found else {
        return Ok(None);
    };
    Ok(documents_named(conn, tenant, &kind, &[&id])?.remove(&id))
}

/// The invoices (`kind` `invoice`) or purchases among `ids` as a figure's
/// posting names them, by id; an id of none is left out.
///
/// Fails only on a storage error.
fn documents_named(
    conn: &Connection,
    tenant: &Tenant,
    kind: &str,
    ids: &[&str],
) -> Result<HashMap<String, DocumentRef>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = if kind == "invoice" {
        "SELECT id, CASE document_type WHEN 'CORRECTION' THEN 'creditNote' ELSE 'invoice' END, number FROM invoices
         WHERE id IN (SELECT value FROM json_each(?1)) AND company_id = ?2 AND environment = ?3"
    } else {
        "SELECT id, CASE kind WHEN 'credit' THEN 'supplierCredit' ELSE 'bill' END, document_number FROM purchases
         WHERE id IN (SELECT value FROM json_each(?1)) AND company_id = ?2 AND environment = ?3"
    };
    let list = serde_json::to_string(ids).map_err(Error::internal)?;
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params![list, tenant.company_id, tenant.environment], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get(2)?))
    })?;
    let mut out = HashMap::with_capacity(ids.len());
    for row in rows {
        let (id, kind, number) = row?;
        let kind = match kind.as_str() {
            "creditNote" => "creditNote",
            "supplierCredit" => "supplierCredit",
            "bill" => "bill",
            _ => "invoice",
        };
        out.insert(id.clone(), DocumentRef { kind, id, number });
    }
    Ok(out)
}

/// The EC sales list of `period` in the tenant's books: the sales to
/// businesses in other member states per buyer VAT id (as the invoice
/// names it) and kind, less the discounts granted on them in the period
/// (under the VAT id of the invoice discounted; an undone discount, whose
/// entry names no invoice, under the customer's).
///
/// Fails only on a storage error.
pub fn ec_sales_list(conn: &Connection, tenant: &Tenant, period: &Period) -> Result<EcSales> {
    let _snapshot = ReadSnapshot::unless_within(conn)?;
    let mut stmt = conn.prepare_cached(
        "SELECT j.detail, j.debit, j.credit, coalesce(i.buyer_vat_id, ''), j.posted_on, j.seq FROM journal j
         JOIN invoices i ON i.id = j.entry AND i.company_id = j.company_id AND i.environment = j.environment
         WHERE j.company_id = ?1 AND j.environment = ?2 AND j.posted_on BETWEEN ?3 AND ?4
             AND j.account = 'revenue'
         UNION ALL
         SELECT j.detail, j.debit, j.credit,
                coalesce((SELECT i.buyer_vat_id FROM bank_settlements s
                          JOIN invoices i ON i.id = s.target_id AND i.company_id = s.company_id AND i.environment = s.environment
                          WHERE s.id = j.entry AND s.company_id = j.company_id AND s.environment = j.environment
                              AND s.target_kind = 'invoice'), c.vat_id, ''),
                j.posted_on, j.seq
         FROM journal j
         JOIN journal r ON r.entry = j.entry AND r.company_id = j.company_id AND r.environment = j.environment
             AND r.account = 'receivables'
         JOIN customers c ON c.id = r.detail AND c.company_id = j.company_id AND c.environment = j.environment
         WHERE j.company_id = ?1 AND j.environment = ?2 AND j.posted_on BETWEEN ?3 AND ?4
             AND j.account = 'discounts_granted'
         ORDER BY 5, 6",
    )?;
    let rows = stmt.query_map(
        params![
            tenant.company_id,
            tenant.environment,
            period.from,
            period.to
        ],
        |row| {
            let r = Row::new(row, "journal");
            Ok((
                r.get::<String>(0)?,
                r.get::<i64>(1)?,
                r.get::<i64>(2)?,
                r.get::<String>(3)?,
            ))
        },
    )?;
    let mut supplies = Vec::new();
    for row in rows {
        let (key, debit, credit, vat_id) = row?;
        let Some(kind) = SupplyKind::of_key(&key) else {
            continue;
        };
        supplies.push(Supply {
            vat_id,
            kind,
            base: credit - debit,
        });
    }
    Ok(EcSales {
        period: period.label.clone(),
        from: period.from,
        to: period.to,
        is_final: ledger::is_final(conn, tenant, period.to)?,
        rows: ec_sales::rows(&supplies),
    })
}
