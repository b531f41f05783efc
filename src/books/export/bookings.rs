//! From one ledger entry to DATEV bookings: each journal line lands on the
//! account of the chosen chart (`rules::skr`), a tax line is folded into
//! the line it belongs to when that account carries the tax (an
//! *Automatikkonto* or a BU-Schlüssel) and DATEV would compute the same
//! tax from the booked amount, and the entry's legs are paired so that one
//! booking stands for one posting pair: the personal account against each
//! revenue (the invoice), the bank against the personal account (the
//! payment), the bank against the fees (the bank line). A payment of a
//! client taxed on payments received leaves out the VAT it brought due
//! (DATEV moves it itself) and is booked per rate with the rate's
//! BU-Schlüssel (`receipt`, `by_rate`). Pure functions.

use crate::documents::datev::DebitCredit;
use crate::error::{Error, Result};
use crate::rules::cash_vat;
use crate::rules::skr::{self, Chart, Tax, BU_NO_AUTOMATIC};

/// A journal line as the ledger holds it.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    /// The ledger account's stored name.
    pub account: &'a str,
    /// The line's detail: the tax key, the partner's or bank account's id.
    pub detail: &'a str,
    /// The chart account a person chose for it ('' when the ledger
    /// account and detail decide).
    pub chart: &'a str,
    pub debit: i64,
    pub credit: i64,
}

/// What an entry's line became on the chart: `amount` (debit positive) on
/// `account`, with a BU-Schlüssel when it needs one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    pub account: u32,
    pub amount: i64,
    pub bu: Option<&'static str>,
    /// Which leg is the booking's `Konto` when two compete: the bank (0),
    /// a personal account (1), anything else (2).
    pub rank: u8,
}

/// One booking: `amount` on `account` on `side`, against `contra`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub account: u32,
    pub contra: u32,
    pub amount: i64,
    pub side: DebitCredit,
    pub bu: Option<&'static str>,
}

/// The numbers a company gave its partners and bank accounts.
pub trait Numbers {
    /// The personal or bank account number of the line's detail (the
    /// partner's id on receivables and payables, the bank account's id on
    /// bank); `None` when the detail names none.
    fn number(&self, account: &str, detail: &str) -> Option<u32>;

    /// The number of the chart account a line names (a standard account's
    /// key, an own account's number); `None` when the chart has none.
    fn charted(&self, key: &str) -> Option<u32>;
}

/// The legs of one entry on `chart`.
///
/// Fails with `Internal` naming the account when the table does not know a
/// ledger account (every account the books post to is in it; a test says
/// so).
pub fn legs(
    chart: Chart,
    small_business: bool,
    lines: &[Line<'_>],
    numbers: &impl Numbers,
) -> Result<Vec<Leg>> {
    let mut used = vec![false; lines.len()];
    let mut legs: Vec<Leg> = Vec::with_capacity(lines.len());
    // The base lines first, those of one account and key together, each
    // group taking its tax lines where DATEV would compute the same tax
    // from every line's amount.
    for (i, line) in lines.iter().enumerate() {
        // Revenue and a discount granted carry output tax; expenses and a
        // discount received input tax (and a reverse charge's output tax).
        let sale = match line.account {
            "revenue" | "discounts_granted" | "asset_sales" => true,
            "expenses" | "discounts_received" => false,
            _ => continue,
        };
        if used[i] {
            continue;
        }
        let group: Vec<usize> = (i..lines.len())
            .filter(|j| {
                !used[*j] && lines[*j].account == line.account && lines[*j].detail == line.detail
            })
            .collect();
        let row = row_of(line, small_business)?;
        // A sale's tax not yet due folds like its tax due: DATEV books a
        // client taxed on payments received on "not due" itself.
        let key = cash_vat::received(line.detail);
        let taxes: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(j, t)| {
                !used[*j]
                    && cash_vat::received(t.detail) == key
                    && if sale {
                        t.account == "output_tax" || t.account == "output_tax_not_due"
                    } else {
                        t.account == "input_tax" || t.account == "output_tax"
                    }
            })
            .map(|(j, _)| j)
            .collect();
        let tax_of = |accounts: &[&str]| -> i64 {
            taxes
                .iter()
                .filter(|j| accounts.contains(&lines[**j].account))
                .map(|j| lines[*j].debit - lines[*j].credit)
                .sum()
        };
        let (input, output) = (
            tax_of(&["input_tax"]),
            tax_of(&["output_tax", "output_tax_not_due"]),
        );
        let (own, other) = if sale {
            (output, input)
        } else {
            (input, output)
        };
        let bases: Vec<i64> = group
            .iter()
            .map(|j| lines[*j].debit - lines[*j].credit)
            .collect();
        // Each line's share of the tax as DATEV computes it; one line
        // takes the whole.
        let shares = |rate: u32| -> Vec<i64> {
            match bases.as_slice() {
                [_] => vec![own],
                _ => bases.iter().map(|b| skr::tax_on_net(*b, rate)).collect(),
            }
        };
        // Per line: (amount, BU-Schlüssel), and whether the taxes folded.
        let (booked, folded): (Vec<(i64, Option<&'static str>)>, bool) = match row.tax {
            Tax::Automatic(rate) | Tax::Key { rate, .. } if rate > 0 => {
                let t = shares(rate);
                let fits = other == 0
                    && t.iter().sum::<i64>() == own
                    && bases
                        .iter()
                        .zip(&t)
                        .all(|(b, t)| skr::tax_in_gross(b + t, rate) == *t);
                let bu = match row.tax {
                    Tax::Key { bu, .. } => Some(bu),
                    _ => None,
                };
                if fits {
                    (
                        bases.iter().zip(&t).map(|(b, t)| (b + t, bu)).collect(),
                        true,
                    )
                } else {
                    let lifted = bu.is_none().then_some(BU_NO_AUTOMATIC);
                    (bases.iter().map(|b| (*b, lifted)).collect(), false)
                }
            }
            Tax::ReverseCharge(rate) => {
                let due: i64 = bases.iter().map(|b| skr::tax_on_net(*b, rate)).sum();
                if input == due && output == -due {
                    (bases.iter().map(|b| (*b, None)).collect(), true)
                } else {
                    (
                        bases.iter().map(|b| (*b, Some(BU_NO_AUTOMATIC))).collect(),
                        false,
                    )
                }
            }
            Tax::Automatic(_) | Tax::Key { .. } | Tax::None => {
                (bases.iter().map(|b| (*b, None)).collect(), false)
            }
        };
        if folded {
            for j in &taxes {
                used[*j] = true;
            }
        }
        for (j, (amount, bu)) in group.iter().zip(booked) {
            used[*j] = true;
            // A cost on the account a person chose for it; a reverse
            // charge keeps DATEV's § 13b account, which its return reads.
            let chosen = match row.tax {
                Tax::ReverseCharge(_) => None,
                _ => Some(lines[*j].chart)
                    .filter(|c| !c.is_empty())
                    .and_then(|c| numbers.charted(c)),
            };
            legs.push(Leg {
                account: chosen.unwrap_or_else(|| row.number(chart)),
                amount,
                bu,
                rank: 2,
            });
        }
    }
    for (i, line) in lines.iter().enumerate() {
        if used[i] {
            continue;
        }
        let row = row_of(line, small_business)?;
        let own = match line.account {
            "receivables" | "payables" | "bank" if !line.detail.is_empty() => {
                numbers.number(line.account, line.detail)
            }
            // A line on the account a person or an act chose (a fixed
            // asset's class, its depreciation, its disposal).
            _ => Some(line.chart)
                .filter(|c| !c.is_empty())
                .and_then(|c| numbers.charted(c)),
        };
        let rank = match line.account {
            "bank" => 0,
            "receivables" | "payables" => 1,
            _ => 2,
        };
        legs.push(Leg {
            account: own.unwrap_or_else(|| row.number(chart)),
            amount: line.debit - line.credit,
            bu: None,
            rank,
        });
    }
    // Legs on the same account with the same key are one.
    let mut merged: Vec<Leg> = Vec::with_capacity(legs.len());
    for leg in legs {
        match merged
            .iter_mut()
            .find(|m| m.account == leg.account && m.bu == leg.bu)
        {
            Some(m) => m.amount += leg.amount,
            None => merged.push(leg),
        }
    }
    merged.retain(|l| l.amount != 0);
    Ok(merged)
}

/// What a payment of a client taxed on payments received brought due: an
/// entry with a bank line (or a customer's credit applied: money received
/// before) whose revenue lines move from the key marked not received to
/// the plain key and whose tax moves from "not due" to output tax. DATEV makes that move itself from the payment's BU-Schlüssel
/// (Hilfe-Dokument 1080673), so those lines are left out here; returned
/// are the other lines and, per plain key, the gross the payment brought
/// due (positive for money in). An entry without such lines comes back
/// whole, with no keys.
pub fn receipt<'a>(lines: &[Line<'a>]) -> (Vec<Line<'a>>, Vec<(String, i64)>) {
    let moves = |l: &Line<'_>| matches!(l.account, "revenue" | "output_tax" | "output_tax_not_due");
    let money = |l: &Line<'_>| matches!(l.account, "bank" | "customer_credits");
    if !lines.iter().any(money) || !lines.iter().any(moves) {
        return (lines.to_vec(), Vec::new());
    }
    let mut keys: Vec<(String, i64)> = Vec::new();
    for l in lines.iter().filter(|l| moves(l)) {
        let due = match l.account {
            "revenue" => !cash_vat::is_not_received(l.detail),
            other => other == "output_tax",
        };
        if !due {
            continue;
        }
        let key = cash_vat::received(l.detail);
        let amount = l.credit - l.debit;
        match keys.iter_mut().find(|k| k.0 == key) {
            Some(k) => k.1 += amount,
            None => keys.push((key.to_string(), amount)),
        }
    }
    keys.retain(|k| k.1 != 0);
    let kept = lines.iter().filter(|l| !moves(l)).cloned().collect();
    (kept, keys)
}

/// The payment's booking split by rate: out of the booking between the
/// bank and a personal account, each key's gross with the BU-Schlüssel of
/// its rate (`skr::receipt_bu`); what is left, and a key without one,
/// stays on the booking as it was. Other bookings are kept as they are.
pub fn by_rate(pairs: Vec<Pair>, keys: &[(String, i64)]) -> Vec<Pair> {
    if keys.is_empty() {
        return pairs;
    }
    let mut out = Vec::with_capacity(pairs.len() + keys.len());
    let mut split = false;
    for pair in pairs {
        if split || pair.bu.is_some() {
            out.push(pair);
            continue;
        }
        split = true;
        let mut left = pair.amount;
        for (key, gross) in keys {
            let Some(bu) = skr::receipt_bu(key) else {
                continue;
            };
            let amount = gross.abs().min(left);
            if amount > 0 {
                out.push(Pair {
                    amount,
                    bu: Some(bu),
                    ..pair
                });
                left -= amount;
            }
        }
        if left > 0 {
            out.push(Pair {
                amount: left,
                ..pair
            });
        }
    }
    out
}

fn row_of(line: &Line<'_>, small_business: bool) -> Result<&'static skr::Row> {
    let key = if skr::keyed(line.account) {
        line.detail
    } else {
        ""
    };
    skr::row(line.account, key, small_business).ok_or_else(|| {
        Error::internal(format!(
            "the ledger account {} has no place in the charts of accounts",
            line.account
        ))
    })
}

/// The bookings of one entry's legs: when one side has a single leg, it is
/// every booking's `account` and each leg of the other side its `contra`;
/// else legs of equal amounts pair first and the rest pair largest first,
/// split where they differ. The amounts of the bookings add up to the
/// entry's on every account.
pub fn pairs(legs: &[Leg]) -> Vec<Pair> {
    let debits: Vec<Leg> = legs.iter().copied().filter(|l| l.amount > 0).collect();
    let credits: Vec<Leg> = legs.iter().copied().filter(|l| l.amount < 0).collect();
    let mut out = Vec::new();
    let booking = |anchor: &Leg, other: &Leg, amount: i64| Pair {
        account: anchor.account,
        contra: other.account,
        amount,
        side: if anchor.amount > 0 {
            DebitCredit::Debit
        } else {
            DebitCredit::Credit
        },
        bu: other.bu.or(anchor.bu),
    };
    if debits.len() == 1 && credits.len() == 1 {
        let (d, c) = (&debits[0], &credits[0]);
        let (anchor, other) = if c.rank < d.rank { (c, d) } else { (d, c) };
        out.push(booking(anchor, other, d.amount.min(-c.amount)));
        return out;
    }
    if debits.len() == 1 || credits.len() == 1 {
        let (anchor, others) = if debits.len() == 1 {
            (&debits[0], &credits)
        } else {
            (&credits[0], &debits)
        };
        for other in others {
            out.push(booking(anchor, other, other.amount.abs()));
        }
        return out;
    }
    let mut debits: Vec<(Leg, i64)> = debits.into_iter().map(|l| (l, l.amount)).collect();
    let mut credits: Vec<(Leg, i64)> = credits.into_iter().map(|l| (l, -l.amount)).collect();
    for d in debits.iter_mut() {
        if let Some(c) = credits.iter_mut().find(|c| c.1 == d.1 && c.1 > 0) {
            let (anchor, other) = if c.0.rank < d.0.rank {
                (&c.0, &d.0)
            } else {
                (&d.0, &c.0)
            };
            out.push(booking(anchor, other, d.1));
            c.1 = 0;
            d.1 = 0;
        }
    }
    debits.sort_by_key(|d| std::cmp::Reverse(d.1));
    credits.sort_by_key(|c| std::cmp::Reverse(c.1));
    let (mut i, mut j) = (0, 0);
    while i < debits.len() && j < credits.len() {
        if debits[i].1 == 0 {
            i += 1;
            continue;
        }
        if credits[j].1 == 0 {
            j += 1;
            continue;
        }
        let amount = debits[i].1.min(credits[j].1);
        let (d, c) = (debits[i].0, credits[j].0);
        let (anchor, other) = if c.rank < d.rank { (&c, &d) } else { (&d, &c) };
        out.push(booking(anchor, other, amount));
        debits[i].1 -= amount;
        credits[j].1 -= amount;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed;

    impl Numbers for Fixed {
        fn number(&self, account: &str, detail: &str) -> Option<u32> {
            match (account, detail) {
                ("receivables", "cus_a") => Some(10_000),
                ("payables", "cus_s") => Some(70_000),
                ("bank", "bac_1") => Some(1200),
                ("bank", "bac_2") => Some(1201),
                _ => None,
            }
        }

        fn charted(&self, key: &str) -> Option<u32> {
            crate::rules::chart::standard(key).map(|a| a.number(Chart::Skr03))
        }
    }

    fn line<'a>(account: &'a str, detail: &'a str, debit: i64, credit: i64) -> Line<'a> {
        Line {
            account,
            detail,
            chart: "",
            debit,
            credit,
        }
    }

    fn on<'a>(chart: &'a str, detail: &'a str, debit: i64) -> Line<'a> {
        Line {
            chart,
            ..line("expenses", detail, debit, 0)
        }
    }

    fn bookings(chart: Chart, lines: &[Line<'_>]) -> Vec<Pair> {
        pairs(&legs(chart, false, lines, &Fixed).unwrap())
    }

    /// Every account's total over the bookings, debit positive.
    fn totals(pairs: &[Pair]) -> std::collections::BTreeMap<u32, i64> {
        let mut out = std::collections::BTreeMap::new();
        for p in pairs {
            let signed = if p.side == DebitCredit::Debit {
                p.amount
            } else {
                -p.amount
            };
            *out.entry(p.account).or_insert(0) += signed;
            *out.entry(p.contra).or_insert(0) -= signed;
        }
        out.retain(|_, v| *v != 0);
        out
    }

    #[test]
    fn an_invoice_at_two_rates_is_one_gross_booking_per_rate_on_the_automatic_accounts() {
        let lines = [
            line("receivables", "cus_a", 22_600, 0),
            line("revenue", "S:19", 0, 10_000),
            line("output_tax", "S:19", 0, 1_900),
            line("revenue", "S:7", 0, 10_000),
            line("output_tax", "S:7", 0, 700),
        ];
        let b = bookings(Chart::Skr03, &lines);
        assert_eq!(
            b,
            vec![
                Pair {
                    account: 10_000,
                    contra: 8400,
                    amount: 11_900,
                    side: DebitCredit::Debit,
                    bu: None
                },
                Pair {
                    account: 10_000,
                    contra: 8300,
                    amount: 10_700,
                    side: DebitCredit::Debit,
                    bu: None
                },
            ]
        );
        let b4 = bookings(Chart::Skr04, &lines);
        assert_eq!((b4[0].contra, b4[1].contra), (4400, 4300));
    }

    #[test]
    fn a_credit_note_books_the_other_way() {
        let lines = [
            line("receivables", "cus_a", 0, 11_900),
            line("revenue", "S:19", 10_000, 0),
            line("output_tax", "S:19", 1_900, 0),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 10_000,
                contra: 8400,
                amount: 11_900,
                side: DebitCredit::Credit,
                bu: None
            }]
        );
    }

    #[test]
    fn a_payment_is_the_bank_against_the_personal_account() {
        let lines = [
            line("bank", "bac_2", 5_000, 0),
            line("receivables", "cus_a", 0, 5_000),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 1201,
                contra: 10_000,
                amount: 5_000,
                side: DebitCredit::Debit,
                bu: None
            }]
        );
        // Money not tied to a bank account lands on the first bank number.
        let lines = [
            line("bank", "", 5_000, 0),
            line("receivables", "cus_a", 0, 5_000),
        ];
        assert_eq!(bookings(Chart::Skr04, &lines)[0].account, 1800);
    }

    #[test]
    fn a_bill_at_19_percent_is_the_gross_with_bu_9_on_the_expense_account() {
        let lines = [
            line("expenses", "S:19", 20_000, 0),
            line("input_tax", "S:19", 3_800, 0),
            line("payables", "cus_s", 0, 23_800),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 70_000,
                contra: 4900,
                amount: 23_800,
                side: DebitCredit::Credit,
                bu: Some("9")
            }]
        );
    }

    #[test]
    fn a_reverse_charge_service_bought_is_the_net_on_the_automatic_account() {
        let lines = [
            line("expenses", "AE:19:EU", 50_000, 0),
            line("input_tax", "AE:19:EU", 9_500, 0),
            line("output_tax", "AE:19:EU", 0, 9_500),
            line("payables", "cus_s", 0, 50_000),
        ];
        assert_eq!(
            bookings(Chart::Skr04, &lines),
            vec![Pair {
                account: 70_000,
                contra: 5923,
                amount: 50_000,
                side: DebitCredit::Credit,
                bu: None
            }]
        );
    }

    #[test]
    fn a_tax_datev_would_not_compute_is_booked_on_its_own() {
        // 19 % of 100.00 is 19.00, but the bill says 18.50.
        let lines = [
            line("expenses", "S:19", 10_000, 0),
            line("input_tax", "S:19", 1_850, 0),
            line("payables", "cus_s", 0, 11_850),
        ];
        let b = bookings(Chart::Skr03, &lines);
        assert_eq!(
            b,
            vec![
                Pair {
                    account: 70_000,
                    contra: 4900,
                    amount: 10_000,
                    side: DebitCredit::Credit,
                    bu: None
                },
                Pair {
                    account: 70_000,
                    contra: 1576,
                    amount: 1_850,
                    side: DebitCredit::Credit,
                    bu: None
                },
            ]
        );
        // On an automatic revenue account the automatic is lifted (BU 40).
        let lines = [
            line("receivables", "cus_a", 11_800, 0),
            line("revenue", "S:19", 0, 10_000),
            line("output_tax", "S:19", 0, 1_800),
        ];
        let b = bookings(Chart::Skr03, &lines);
        assert_eq!(b[0].bu, Some("40"));
        assert_eq!(b[1].contra, 1776);
    }

    #[test]
    fn tax_free_sales_are_booked_on_their_own_accounts() {
        let lines = [
            line("receivables", "cus_a", 30_000, 0),
            line("revenue", "K:0", 0, 10_000),
            line("revenue", "G:0", 0, 10_000),
            line("revenue", "AE:0:EU", 0, 10_000),
        ];
        let contras: Vec<u32> = bookings(Chart::Skr03, &lines)
            .iter()
            .map(|p| p.contra)
            .collect();
        assert_eq!(contras, vec![8125, 8120, 8336]);
    }

    #[test]
    fn a_bank_fee_and_a_transfer_pair_with_the_bank() {
        let lines = [line("fees", "", 250, 0), line("bank", "bac_1", 0, 250)];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 1200,
                contra: 4970,
                amount: 250,
                side: DebitCredit::Credit,
                bu: None
            }]
        );
    }

    #[test]
    fn a_credit_applied_on_the_same_personal_account_books_nothing() {
        let lines = [
            line("payables", "cus_s", 1_000, 0),
            line("payables", "cus_s", 0, 1_000),
        ];
        assert!(bookings(Chart::Skr03, &lines).is_empty());
    }

    #[test]
    fn entries_with_several_legs_on_both_sides_pair_exactly_and_keep_every_total() {
        let legs = [
            Leg {
                account: 1200,
                amount: 7_000,
                bu: None,
                rank: 0,
            },
            Leg {
                account: 4970,
                amount: 300,
                bu: None,
                rank: 2,
            },
            Leg {
                account: 1201,
                amount: 2_700,
                bu: None,
                rank: 0,
            },
            Leg {
                account: 10_000,
                amount: -6_000,
                bu: None,
                rank: 1,
            },
            Leg {
                account: 10_001,
                amount: -4_000,
                bu: None,
                rank: 1,
            },
        ];
        let p = pairs(&legs);
        let mut expected = std::collections::BTreeMap::new();
        for l in legs {
            expected.insert(l.account, l.amount);
        }
        assert_eq!(totals(&p), expected);
        assert!(p.iter().all(|b| b.amount > 0 && b.account != b.contra));
    }

    #[test]
    fn a_discount_is_its_gross_on_the_automatic_discount_account_of_its_rate() {
        // 2.38 granted on an invoice at 19 %: 2.00 and 0.38 output tax back.
        let lines = [
            line("discounts_granted", "S:19", 200, 0),
            line("output_tax", "S:19", 38, 0),
            line("receivables", "cus_a", 0, 238),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 10_000,
                contra: 8736,
                amount: 238,
                side: DebitCredit::Credit,
                bu: None
            }]
        );
        // 1.07 received on a bill at 7 %, 0.07 input tax back.
        let lines = [
            line("payables", "cus_s", 107, 0),
            line("discounts_received", "S:7", 0, 100),
            line("input_tax", "S:7", 0, 7),
        ];
        assert_eq!(
            bookings(Chart::Skr04, &lines),
            vec![Pair {
                account: 70_000,
                contra: 5731,
                amount: 107,
                side: DebitCredit::Debit,
                bu: None
            }]
        );
        // Of a reverse-charge service: the net, both taxes DATEV's own.
        let lines = [
            line("payables", "cus_s", 400, 0),
            line("discounts_received", "AE:19:EU", 0, 400),
            line("input_tax", "AE:19:EU", 0, 76),
            line("output_tax", "AE:19:EU", 76, 0),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 70_000,
                contra: 3151,
                amount: 400,
                side: DebitCredit::Debit,
                bu: None
            }]
        );
        // A discount booked before discounts carried their tax: the plain account.
        let lines = [
            line("discounts_granted", "", 238, 0),
            line("receivables", "cus_a", 0, 238),
        ];
        assert_eq!(bookings(Chart::Skr03, &lines)[0].contra, 8730);
    }

    #[test]
    fn a_bill_split_over_accounts_is_one_gross_booking_per_account_each_with_its_key() {
        // Rent 1,000.00 and office supplies 200.00 at 19 %, one input tax
        // line of 228.00; entertainment 100.00 split 70/30, 19.00 tax.
        let lines = [
            on("rent", "S:19", 100_000),
            on("office_supplies", "S:19", 20_000),
            on("entertainment", "S:19", 7_000),
            on("entertainment_nondeductible", "S:19", 3_000),
            line("input_tax", "S:19", 24_700, 0),
            line("payables", "cus_s", 0, 154_700),
        ];
        let b = bookings(Chart::Skr03, &lines);
        let got: Vec<(u32, i64, Option<&str>)> =
            b.iter().map(|p| (p.contra, p.amount, p.bu)).collect();
        assert_eq!(
            got,
            vec![
                (4210, 119_000, Some("9")),
                (4930, 23_800, Some("9")),
                (4650, 8_330, Some("9")),
                (4654, 3_570, Some("9")),
            ]
        );
        assert!(b
            .iter()
            .all(|p| p.account == 70_000 && p.side == DebitCredit::Credit));
    }

    #[test]
    fn a_bill_of_two_totals_is_its_cost_and_the_general_input_tax() {
        let lines = [
            on("rent", "", 10_000),
            line("input_tax", "", 1_300, 0),
            line("payables", "cus_s", 0, 11_300),
        ];
        let got: Vec<(u32, i64, Option<&str>)> = bookings(Chart::Skr03, &lines)
            .iter()
            .map(|p| (p.contra, p.amount, p.bu))
            .collect();
        assert_eq!(got, vec![(4210, 10_000, None), (1570, 1_300, None)]);
    }

    #[test]
    fn lines_whose_taxes_datev_would_compute_otherwise_keep_their_tax_apart() {
        // 0.05 + 0.05 at 19 %: DATEV computes 0.01 each, the bill 0.02 on
        // 0.10 — equal; but 0.03 + 0.03 gives 0.01 each and the bill 0.01.
        let lines = [
            on("rent", "S:19", 3),
            on("office_supplies", "S:19", 3),
            line("input_tax", "S:19", 1, 0),
            line("payables", "cus_s", 0, 7),
        ];
        let got: Vec<(u32, i64, Option<&str>)> = bookings(Chart::Skr03, &lines)
            .iter()
            .map(|p| (p.contra, p.amount, p.bu))
            .collect();
        assert_eq!(got, vec![(4210, 3, None), (4930, 3, None), (1576, 1, None)]);
    }

    #[test]
    fn an_asset_is_booked_on_its_classs_account_and_its_sale_moves_revenue_without_tax() {
        let on = |account: &'static str, chart: &'static str, debit: i64, credit: i64| Line {
            account,
            detail: "ast_1",
            chart,
            debit,
            credit,
        };
        // A desk off the office supplies the bill booked it on.
        let lines = [
            on("fixed_assets", "asset_office_furniture", 130_000, 0),
            Line {
                chart: "office_supplies",
                ..line("expenses", "", 0, 130_000)
            },
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 420,
                contra: 4930,
                amount: 130_000,
                side: DebitCredit::Debit,
                bu: None
            }]
        );
        // A year's depreciation.
        let lines = [
            on("depreciation", "depreciation", 8_333, 0),
            on("fixed_assets", "asset_office_furniture", 0, 8_333),
        ];
        let b = bookings(Chart::Skr03, &lines);
        assert_eq!((b[0].account, b[0].contra, b[0].amount), (4830, 420, 8_333));
        // Proceeds off the 19 % revenue: both automatic accounts, so the
        // automatic is lifted and no tax moves.
        let lines = [
            line("revenue", "S:19", 50_000, 0),
            Line {
                chart: "asset_sale_gain_19",
                ..line("asset_sales", "S:19", 0, 50_000)
            },
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 8400,
                contra: 8820,
                amount: 50_000,
                side: DebitCredit::Debit,
                bu: Some("40")
            }]
        );
    }

    #[test]
    fn a_sale_taxed_on_payments_is_booked_as_ever_and_its_payment_per_rate_with_its_bu_key() {
        // The invoice: revenue not yet received and its tax not yet due fold
        // into the gross on the automatic accounts, as an invoice taxed on issue.
        let lines = [
            line("receivables", "cus_a", 22_600, 0),
            line("revenue", "S:19:IST", 0, 10_000),
            line("output_tax_not_due", "S:19", 0, 1_900),
            line("revenue", "S:7:IST", 0, 10_000),
            line("output_tax_not_due", "S:7", 0, 700),
        ];
        let got: Vec<(u32, u32, i64, Option<&str>)> = bookings(Chart::Skr03, &lines)
            .iter()
            .map(|p| (p.account, p.contra, p.amount, p.bu))
            .collect();
        assert_eq!(
            got,
            vec![(10_000, 8400, 11_900, None), (10_000, 8300, 10_700, None)]
        );
        // Half of it paid: 59.50 at 19 % (50.00 + 9.50) and 53.50 at 7 %
        // (50.00 + 3.50) brought due; DATEV moves the tax itself.
        let paid = [
            line("bank", "bac_1", 11_300, 0),
            line("receivables", "cus_a", 0, 11_300),
            line("revenue", "S:19:IST", 5_000, 0),
            line("revenue", "S:19", 0, 5_000),
            line("output_tax_not_due", "S:19", 950, 0),
            line("output_tax", "S:19", 0, 950),
            line("revenue", "S:7:IST", 5_000, 0),
            line("revenue", "S:7", 0, 5_000),
            line("output_tax_not_due", "S:7", 350, 0),
            line("output_tax", "S:7", 0, 350),
        ];
        let (kept, keys) = receipt(&paid);
        assert_eq!(kept.len(), 2);
        assert_eq!(keys, vec![("S:19".into(), 5_950), ("S:7".into(), 5_350)]);
        let split = by_rate(
            pairs(&legs(Chart::Skr03, false, &kept, &Fixed).unwrap()),
            &keys,
        );
        let got: Vec<(u32, u32, i64, Option<&str>)> = split
            .iter()
            .map(|p| (p.account, p.contra, p.amount, p.bu))
            .collect();
        assert_eq!(
            got,
            vec![
                (1200, 10_000, 5_950, Some("3")),
                (1200, 10_000, 5_350, Some("2"))
            ]
        );
        assert!(split.iter().all(|p| p.side == DebitCredit::Debit));
        // A customer's credit applied is booked as the payment it is.
        let applied = [
            line("customer_credits", "", 11_900, 0),
            line("receivables", "cus_a", 0, 11_900),
            line("revenue", "S:19:IST", 10_000, 0),
            line("revenue", "S:19", 0, 10_000),
            line("output_tax_not_due", "S:19", 1_900, 0),
            line("output_tax", "S:19", 0, 1_900),
        ];
        let (kept, keys) = receipt(&applied);
        let split = by_rate(
            pairs(&legs(Chart::Skr03, false, &kept, &Fixed).unwrap()),
            &keys,
        );
        let got: Vec<(u32, u32, i64, Option<&str>)> = split
            .iter()
            .map(|p| (p.account, p.contra, p.amount, p.bu))
            .collect();
        assert_eq!(got, vec![(10_000, 1700, 11_900, Some("3"))]);
        // An entry without money (a discount) keeps all its lines.
        let discount = [
            line("discounts_granted", "S:19:IST", 200, 0),
            line("output_tax_not_due", "S:19", 38, 0),
            line("receivables", "cus_a", 0, 238),
        ];
        assert_eq!(receipt(&discount).0.len(), 3);
        assert_eq!(
            bookings(Chart::Skr04, &discount),
            vec![Pair {
                account: 10_000,
                contra: 4736,
                amount: 238,
                side: DebitCredit::Credit,
                bu: None
            }]
        );
    }

    #[test]
    fn old_lines_without_a_key_use_the_default_accounts() {
        let lines = [
            line("receivables", "", 11_900, 0),
            line("revenue", "", 0, 10_000),
            line("output_tax", "", 0, 1_900),
        ];
        assert_eq!(
            bookings(Chart::Skr03, &lines),
            vec![Pair {
                account: 1400,
                contra: 8400,
                amount: 11_900,
                side: DebitCredit::Debit,
                bu: None
            }]
        );
    }
}
