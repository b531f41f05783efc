//! The arithmetic of the VAT return (*Umsatzsteuer-Voranmeldung*) over the
//! postings of a period that carry a tax key: which *Kennzahl* (Kz) each
//! posting feeds, the bases in whole euros with the cents dropped toward
//! zero (also for a negative base), the tax of Kz 81 and 86 as the form
//! computes it from those bases beside the tax the books hold, and the
//! remaining amount (Kz 83). A Kz whose postings net to zero is left out;
//! revenue not yet received and tax not yet due (VAT on payments received)
//! feed none. Pure functions over postings in euro cents.

use std::collections::BTreeMap;

use jiff::civil::Date;
use serde::Serialize;

use crate::rules::cash_vat;

/// A journal line with a tax key, as the ledger holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    pub entry: String,
    pub date: Date,
    /// `revenue`, `output_tax`, `input_tax`, `expenses`,
    /// `discounts_granted` (counted as revenue), `discounts_received`
    /// (counted as expenses) or `asset_sales` (counted as revenue).
    pub account: String,
    /// The tax key; `''` on lines from before the ledger carried one (read
    /// as `S:19`, the stated default).
    pub key: String,
    pub debit: i64,
    pub credit: i64,
}

/// A posting behind a figure, its amount signed the way the figure counts
/// it (cents), and the document behind its entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Behind {
    pub entry: String,
    pub date: Date,
    pub account: String,
    pub key: String,
    pub amount: i64,
    /// The invoice, credit note, bill or supplier credit the entry belongs
    /// to (a discount's and a settlement's too); none for an entry of no
    /// document.
    pub document: Option<DocumentRef>,
    /// The payment whose money made the VAT due (taxed on payments
    /// received: a payment, or the payment a reversal took back); left out
    /// where none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment: Option<String>,
}

/// A document as a figure's posting names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentRef {
    /// `invoice`, `creditNote` (a correction issued), `bill` or
    /// `supplierCredit`.
    pub kind: &'static str,
    pub id: String,
    /// The invoice's number, or the supplier's document number of a bill.
    pub number: String,
}

/// The return's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// Each Kz as the form shows it: bases whole euros (`"12345"`), taxes
    /// with cents (`"123.45"`).
    pub kz: BTreeMap<&'static str, String>,
    /// The postings behind each Kz.
    pub postings: BTreeMap<&'static str, Vec<Behind>>,
    /// The tax of Kz 81 and 86 as the form computes it from the bases.
    pub tax: BTreeMap<&'static str, String>,
    /// The output tax the books hold for the postings of Kz 81 and 86.
    pub booked_tax: BTreeMap<&'static str, String>,
    /// Computed less booked tax, per Kz.
    pub difference: BTreeMap<&'static str, String>,
}

/// Which side a Kz counts: the credit of sales and output tax, the debit
/// of purchases and input tax.
#[derive(Clone, Copy)]
enum Counts {
    Credit,
    Debit,
}

/// Whether a figure is a base (whole euros) or a tax (cents).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    Base,
    Tax,
}

/// The Kz a posting feeds, if any; the booked tax of Kz 81/86 is read as
/// the pseudo-figures `81T` and `86T`.
fn kz_of(account: &str, key: &str) -> Option<(&'static str, Counts, Shown)> {
    // Revenue (or its discount) of a sale taxed on payments received whose
    // money has not come in is in no figure: it enters with the payment.
    if cash_vat::is_not_received(key) {
        return None;
    }
    // A discount with its key changes the base of its supply or purchase;
    // one without (booked before discounts carried their tax) changes none.
    let account = match account {
        "discounts_granted" | "discounts_received" if key.is_empty() => return None,
        "discounts_granted" => "revenue",
        "discounts_received" => "expenses",
        // An asset's proceeds moved off the revenue of the invoice that
        // sold it, within its key: the pair nets to nothing.
        "asset_sales" => "revenue",
        other => other,
    };
    let key = if key.is_empty() { "S:19" } else { key };
    let mut parts = key.split(':');
    let category = parts.next().unwrap_or("");
    let rate = parts.next().unwrap_or("");
    let eu = parts.next() == Some("EU");
    // A rate is written without trailing zeros; read `19.0` as `19` all the same.
    let rate = if rate.contains('.') {
        rate.trim_end_matches('0').trim_end_matches('.')
    } else {
        rate
    };
    let rate_is = |r: &str| rate == r;
    use Counts::*;
    use Shown::*;
    match (account, category) {
        ("revenue", "S") if rate_is("19") => Some(("81", Credit, Base)),
        ("revenue", "S") if rate_is("7") => Some(("86", Credit, Base)),
        ("revenue", "S") => Some(("35", Credit, Base)),
        ("revenue", "K") => Some(("41", Credit, Base)),
        ("revenue", "G") => Some(("43", Credit, Base)),
        ("revenue", "AE") if eu => Some(("21", Credit, Base)),
        ("revenue", "AE") => Some(("60", Credit, Base)),
        ("revenue", "O" | "L" | "M") => Some(("45", Credit, Base)),
        ("revenue", "E") => Some(("48", Credit, Base)),
        ("revenue", "Z") => Some(("87", Credit, Base)),
        ("output_tax", "S") if rate_is("19") => Some(("81T", Credit, Tax)),
        ("output_tax", "S") if rate_is("7") => Some(("86T", Credit, Tax)),
        ("output_tax", "S") => Some(("36", Credit, Tax)),
        ("output_tax", "AE") if eu => Some(("47", Credit, Tax)),
        ("output_tax", "AE") => Some(("85", Credit, Tax)),
        ("expenses", "AE") if eu => Some(("46", Debit, Base)),
        ("expenses", "AE") => Some(("84", Debit, Base)),
        ("input_tax", "AE") => Some(("67", Debit, Tax)),
        ("input_tax", _) => Some(("66", Debit, Tax)),
        _ => None,
    }
}

/// Whether a line of `account` with tax key `key` feeds any figure; the
/// others `figures` passes over, so a reader may leave them out.
pub fn feeds(account: &str, key: &str) -> bool {
    kz_of(account, key).is_some()
}

/// Cents as euros with two decimals: `-1234.5` → `"-1234.50"`.
pub fn euros(cents: i64) -> String {
    crate::rules::money::minor_text(cents, 2, '.')
}

/// Whole euros of `cents`, the cents dropped toward zero.
pub fn whole_euros(cents: i64) -> i64 {
    cents / 100
}

/// The figures of `postings` (every posting of the period with a tax key).
pub fn figures(postings: &[Posting]) -> Figures {
    let mut sums: BTreeMap<&'static str, (i64, Shown)> = BTreeMap::new();
    let mut behind: BTreeMap<&'static str, Vec<Behind>> = BTreeMap::new();
    for p in postings {
        let Some((kz, counts, shown)) = kz_of(&p.account, &p.key) else {
            continue;
        };
        let amount = match counts {
            Counts::Credit => p.credit - p.debit,
            Counts::Debit => p.debit - p.credit,
        };
        sums.entry(kz).or_insert((0, shown)).0 += amount;
        behind.entry(kz).or_default().push(Behind {
            entry: p.entry.clone(),
            date: p.date,
            account: p.account.clone(),
            key: p.key.clone(),
            amount,
            document: None,
            payment: None,
        });
    }
    let mut out = Figures::default();
    let sum = |kz: &str| sums.get(kz).map_or(0, |s| s.0);
    // The tax of Kz 81 and 86 on the whole-euro bases: 19 % and 7 % of
    // whole euros are exact in cents.
    let computed = |kz: &str, rate: i64| whole_euros(sum(kz)) * rate;
    let tax81 = computed("81", 19);
    let tax86 = computed("86", 7);
    for (kz, tax, booked) in [("81", tax81, "81T"), ("86", tax86, "86T")] {
        if sum(kz) != 0 || sum(booked) != 0 {
            out.tax.insert(kz, euros(tax));
            out.booked_tax.insert(kz, euros(sum(booked)));
            out.difference.insert(kz, euros(tax - sum(booked)));
        }
    }
    for (kz, (total, shown)) in &sums {
        if kz.ends_with('T') || *total == 0 {
            continue;
        }
        let shown = match shown {
            Shown::Base => whole_euros(*total).to_string(),
            Shown::Tax => euros(*total),
        };
        out.kz.insert(kz, shown);
        if let Some(b) = behind.remove(kz) {
            out.postings.insert(kz, b);
        }
    }
    let remaining = tax81 + tax86 + sum("36") + sum("47") + sum("85") - sum("66") - sum("67");
    out.kz.insert("83", euros(remaining));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(entry: &str, account: &str, key: &str, debit: i64, credit: i64) -> Posting {
        Posting {
            entry: entry.into(),
            date: Date::constant(2026, 10, 15),
            account: account.into(),
            key: key.into(),
            debit,
            credit,
        }
    }

    #[test]
    fn bases_are_whole_euros_cut_toward_zero_and_taxes_keep_their_cents() {
        let f = figures(&[
            p("a", "revenue", "S:19", 0, 1_234_599),
            p("a", "output_tax", "S:19", 0, 234_574),
            p("b", "revenue", "S:7", 0, 10_050),
            p("b", "output_tax", "S:7", 0, 704),
            p("c", "input_tax", "S:19", 12_345, 0),
        ]);
        assert_eq!(f.kz["81"], "12345");
        assert_eq!(f.kz["86"], "100");
        assert_eq!(f.kz["66"], "123.45");
        // 12345 × 19 % = 2345.55, booked 2345.74: the form's tax is the computed one.
        assert_eq!(f.tax["81"], "2345.55");
        assert_eq!(f.booked_tax["81"], "2345.74");
        assert_eq!(f.difference["81"], "-0.19");
        assert_eq!(f.tax["86"], "7.00");
        // 2345.55 + 7.00 − 123.45
        assert_eq!(f.kz["83"], "2229.10");
    }

    #[test]
    fn a_negative_base_drops_its_cents_toward_zero() {
        let f = figures(&[
            p("cn", "revenue", "S:19", 12_399, 0),
            p("cn", "output_tax", "S:19", 2_356, 0),
        ]);
        assert_eq!(f.kz["81"], "-123");
        assert_eq!(f.tax["81"], "-23.37");
        assert_eq!(f.kz["83"], "-23.37");
    }

    #[test]
    fn each_category_feeds_its_kz() {
        let f = figures(&[
            p("1", "revenue", "K:0", 0, 100_000),
            p("2", "revenue", "G:0", 0, 200_000),
            p("3", "revenue", "AE:0:EU", 0, 300_000),
            p("4", "revenue", "AE:0", 0, 400_000),
            p("5", "revenue", "O:0", 0, 500_000),
            p("6", "expenses", "AE:19:EU", 50_000, 0),
            p("6", "input_tax", "AE:19:EU", 9_500, 0),
            p("6", "output_tax", "AE:19:EU", 0, 9_500),
            p("7", "expenses", "AE:19", 20_000, 0),
            p("7", "input_tax", "AE:19", 3_800, 0),
            p("7", "output_tax", "AE:19", 0, 3_800),
            p("8", "expenses", "S:19", 10_000, 0),
        ]);
        assert_eq!(f.kz["41"], "1000");
        assert_eq!(f.kz["43"], "2000");
        assert_eq!(f.kz["21"], "3000");
        assert_eq!(f.kz["60"], "4000");
        assert_eq!(f.kz["45"], "5000");
        assert_eq!(f.kz["46"], "500");
        assert_eq!(f.kz["47"], "95.00");
        assert_eq!(f.kz["84"], "200");
        assert_eq!(f.kz["85"], "38.00");
        assert_eq!(f.kz["67"], "133.00");
        assert_eq!(f.kz["83"], "0.00");
        assert!(
            !f.kz.contains_key("66"),
            "a bill's expense is no figure, its input tax would be"
        );
        assert_eq!(f.postings["47"].len(), 1);
        assert_eq!(f.postings["67"].len(), 2);
    }

    #[test]
    fn a_kz_whose_postings_net_to_zero_is_left_out() {
        let f = figures(&[
            p("inv", "revenue", "K:0", 0, 10_000),
            p("cn", "revenue", "K:0", 10_000, 0),
        ]);
        assert!(!f.kz.contains_key("41"));
        assert!(!f.postings.contains_key("41"));
        assert_eq!(f.kz.keys().copied().collect::<Vec<_>>(), vec!["83"]);
    }

    #[test]
    fn lines_without_a_key_count_as_19_percent() {
        let f = figures(&[
            p("old", "revenue", "", 0, 10_000),
            p("old", "output_tax", "", 0, 1_900),
        ]);
        assert_eq!(f.kz["81"], "100");
        assert_eq!(f.difference["81"], "0.00");
    }

    #[test]
    fn a_discount_with_its_key_lowers_its_base_and_one_without_counts_nowhere() {
        let f = figures(&[
            p("inv", "revenue", "S:19", 0, 10_000),
            p("inv", "output_tax", "S:19", 0, 1_900),
            p("sk", "discounts_granted", "S:19", 200, 0),
            p("sk", "output_tax", "S:19", 38, 0),
            p("eu", "revenue", "K:0", 0, 50_000),
            p("eusk", "discounts_granted", "K:0", 1_000, 0),
            p("bill", "expenses", "AE:19:EU", 20_000, 0),
            p("bill", "input_tax", "AE:19:EU", 3_800, 0),
            p("bill", "output_tax", "AE:19:EU", 0, 3_800),
            p("bsk", "discounts_received", "AE:19:EU", 0, 400),
            p("bsk", "input_tax", "AE:19:EU", 0, 76),
            p("bsk", "output_tax", "AE:19:EU", 76, 0),
            p("old", "discounts_granted", "", 500, 0),
        ]);
        assert_eq!(f.kz["81"], "98");
        assert_eq!(f.booked_tax["81"], "18.62");
        assert_eq!(f.kz["41"], "490");
        assert_eq!(f.kz["46"], "196");
        assert_eq!(f.kz["47"], "37.24");
        assert_eq!(f.kz["67"], "37.24");
        assert!(f.postings.values().flatten().all(|b| b.entry != "old"));
    }

    #[test]
    fn revenue_not_yet_received_and_tax_not_yet_due_are_in_no_figure() {
        let f = figures(&[
            p("inv", "revenue", "S:19:IST", 0, 10_000),
            p("inv", "output_tax_not_due", "S:19", 0, 1_900),
            p("pay", "revenue", "S:19:IST", 5_000, 0),
            p("pay", "revenue", "S:19", 0, 5_000),
            p("pay", "output_tax_not_due", "S:19", 950, 0),
            p("pay", "output_tax", "S:19", 0, 950),
            p("sk", "discounts_granted", "S:19:IST", 100, 0),
        ]);
        assert_eq!(f.kz["81"], "50");
        assert_eq!(f.booked_tax["81"], "9.50");
        assert!(f.postings["81"].iter().all(|b| b.entry == "pay"));
    }

    #[test]
    fn euros_are_written_with_two_decimals() {
        assert_eq!(euros(0), "0.00");
        assert_eq!(euros(-5), "-0.05");
        assert_eq!(whole_euros(-199), -1);
    }
}
