//! A discount (Skonto) with its tax: what a settlement books when a person
//! lets the rest of a partial payment go as a discount granted on an
//! invoice or received on a bill. A discount lowers what was supplied and
//! so its VAT (§ 17 UStG); the postings here say by how much, per tax key,
//! from the document's own ledger entry. Pure: the settlement act reads
//! the entry and posts what this returns.

use crate::books::ledger::{Account, Posting};
use crate::books::report::Side;
use crate::rules::money;

/// What one tax key of a document added to its personal account, as the
/// document's own entry posted it (book currency).
struct KeyShare {
    key: String,
    /// Revenue (an invoice) or expense (a bill).
    base: i64,
    /// Output tax (an invoice) or input tax (a bill, with the tax of a
    /// reverse charge).
    tax: i64,
    /// The output tax a bill's reverse charge self-assessed.
    reverse: i64,
}

impl KeyShare {
    /// What the key added to the receivable or payable.
    fn gross(&self) -> i64 {
        self.base + self.tax - self.reverse
    }
}

/// The postings of a discount of `amount` (book currency) on a document on
/// `side`, except its personal account's: a discount reduces what was
/// supplied, so its tax too (§ 17 UStG). The amount is split over the tax
/// keys of the document's own entry `own` in proportion to what each added
/// to the personal account (a key that took off, such as a negative line of
/// a received bill, takes its part off too; the rest of the rounding on the
/// largest); each part is booked to `account` with its key, less the tax
/// it holds in the proportion the key's own tax bore to its gross, taken
/// off output tax (an invoice) or input tax (a bill). On a bill's reverse
/// charge the part is net, and the tax self-assessed on it, in the same
/// proportion, comes off both input and output tax. The tax so follows
/// what the document charged, whatever its rate (several taxes on a line,
/// a bill typed as two totals). An invoice's lines without a key are of
/// before keys were kept and read as `S:19`, the stated default. A document
/// whose entry adds nothing keyed books the whole amount to `account`
/// without a key.
pub fn postings(
    side: Side,
    own: &[(Account, String, i64, i64)],
    account: Account,
    amount: i64,
) -> Vec<Posting> {
    let mut shares: Vec<KeyShare> = Vec::new();
    for (acc, key, debit, credit) in own {
        let (base, tax, reverse) = match (side, acc) {
            (Side::Receivable, Account::Revenue) => (credit - debit, 0, 0),
            (Side::Receivable, Account::OutputTax) => (0, credit - debit, 0),
            (Side::Payable, Account::Expenses) => (debit - credit, 0, 0),
            (Side::Payable, Account::InputTax) => (0, debit - credit, 0),
            (Side::Payable, Account::OutputTax) => (0, 0, credit - debit),
            _ => continue,
        };
        // A bill's lines without a key are of a bill typed as two totals,
        // at a rate nobody named: they keep it.
        let key = if key.is_empty() && side == Side::Receivable {
            "S:19"
        } else {
            key.as_str()
        };
        match shares.iter_mut().find(|s| s.key == key) {
            Some(s) => {
                s.base += base;
                s.tax += tax;
                s.reverse += reverse;
            }
            None => shares.push(KeyShare {
                key: key.to_string(),
                base,
                tax,
                reverse,
            }),
        }
    }
    shares.retain(|s| s.gross() != 0);
    let whole: i64 = shares.iter().map(KeyShare::gross).sum();
    let largest = (0..shares.len()).max_by_key(|i| (shares[*i].gross(), std::cmp::Reverse(*i)));
    let Some(largest) = largest.filter(|_| whole > 0) else {
        return vec![match side {
            Side::Receivable => Posting::debit(account, amount),
            Side::Payable => Posting::credit(account, amount),
        }];
    };
    let mut parts: Vec<i64> = shares
        .iter()
        .map(|s| money::share_of(amount, s.gross(), whole))
        .collect();
    parts[largest] += amount - parts.iter().sum::<i64>();
    let mut postings = Vec::with_capacity(shares.len() * 3);
    for (share, part) in shares.iter().zip(parts) {
        let key = share.key.as_str();
        let held = |of: i64| money::in_proportion(part, of, share.gross());
        match side {
            Side::Receivable => {
                let tax = held(share.tax);
                postings.push(Posting::debit(account, part - tax).of(key));
                postings.push(Posting::debit(Account::OutputTax, tax).of(key));
            }
            Side::Payable => {
                // Input tax includes a reverse charge's, which the output
                // tax self-assessed balances.
                let (input, output) = (held(share.tax), held(share.reverse));
                postings.push(Posting::credit(account, part - input + output).of(key));
                postings.push(Posting::credit(Account::InputTax, input).of(key));
                postings.push(Posting::debit(Account::OutputTax, output).of(key));
            }
        }
    }
    postings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(account: Account, key: &str, debit: i64, credit: i64) -> (Account, String, i64, i64) {
        (account, key.to_string(), debit, credit)
    }

    /// (account, key, signed amount: debit positive) of each posting made.
    fn made(postings: &[Posting]) -> Vec<(Account, String, i64)> {
        postings
            .iter()
            .filter(|p| p.debit != 0 || p.credit != 0)
            .map(|p| (p.account, p.detail.clone(), p.debit - p.credit))
            .collect()
    }

    #[test]
    fn a_discount_on_an_invoice_at_two_rates_takes_its_tax_back_per_rate() {
        // 100.00 at 19 % and 100.00 at 7 %: 226.00; a discount of 4.52 (2 %).
        let own = [
            line(Account::Receivables, "cus_a", 22_600, 0),
            line(Account::Revenue, "S:19", 0, 10_000),
            line(Account::OutputTax, "S:19", 0, 1_900),
            line(Account::Revenue, "S:7", 0, 10_000),
            line(Account::OutputTax, "S:7", 0, 700),
        ];
        let p = postings(Side::Receivable, &own, Account::DiscountsGranted, 452);
        // 452 × 119 / 226 = 238; the rest, 214, on the 7 %.
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsGranted, "S:19".into(), 200),
                (Account::OutputTax, "S:19".into(), 38),
                (Account::DiscountsGranted, "S:7".into(), 200),
                (Account::OutputTax, "S:7".into(), 14),
            ]
        );
    }

    #[test]
    fn a_discount_on_a_bill_takes_back_input_tax_and_on_a_reverse_charge_both_taxes() {
        let own = [
            line(Account::Expenses, "S:19", 10_000, 0),
            line(Account::InputTax, "S:19", 1_900, 0),
            line(Account::Payables, "sup_a", 0, 11_900),
        ];
        let p = postings(Side::Payable, &own, Account::DiscountsReceived, 238);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsReceived, "S:19".into(), -200),
                (Account::InputTax, "S:19".into(), -38)
            ]
        );
        let own = [
            line(Account::Expenses, "AE:19:EU", 20_000, 0),
            line(Account::InputTax, "AE:19:EU", 3_800, 0),
            line(Account::OutputTax, "AE:19:EU", 0, 3_800),
            line(Account::Payables, "sup_a", 0, 20_000),
        ];
        let p = postings(Side::Payable, &own, Account::DiscountsReceived, 400);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsReceived, "AE:19:EU".into(), -400),
                (Account::InputTax, "AE:19:EU".into(), -76),
                (Account::OutputTax, "AE:19:EU".into(), 76),
            ]
        );
    }

    #[test]
    fn a_tax_free_key_keeps_the_whole_discount_and_an_old_entry_reads_as_19_percent() {
        let own = [
            line(Account::Revenue, "K:0", 0, 50_000),
            line(Account::Receivables, "cus_a", 50_000, 0),
        ];
        let p = postings(Side::Receivable, &own, Account::DiscountsGranted, 1_000);
        assert_eq!(
            made(&p),
            vec![(Account::DiscountsGranted, "K:0".into(), 1_000)]
        );
        let own = [
            line(Account::Revenue, "", 0, 10_000),
            line(Account::OutputTax, "", 0, 1_900),
        ];
        let p = postings(Side::Receivable, &own, Account::DiscountsGranted, 119);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsGranted, "S:19".into(), 100),
                (Account::OutputTax, "S:19".into(), 19)
            ]
        );
        // A bill typed as two totals (100.00 + 7.00, no rate named): the
        // tax in the bill's own proportion, the key left as it was.
        let own = [
            line(Account::Expenses, "", 10_000, 0),
            line(Account::InputTax, "", 700, 0),
        ];
        let p = postings(Side::Payable, &own, Account::DiscountsReceived, 476);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsReceived, String::new(), -445),
                (Account::InputTax, String::new(), -31)
            ]
        );
        // A bill typed 100.00 + 1.00 at a rate of 19: the tax it bore, not 19 %.
        let own = [
            line(Account::Expenses, "S:19", 10_000, 0),
            line(Account::InputTax, "S:19", 100, 0),
        ];
        let p = postings(Side::Payable, &own, Account::DiscountsReceived, 10_099);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsReceived, "S:19".into(), -9_999),
                (Account::InputTax, "S:19".into(), -100)
            ]
        );
        // Nothing keyed to split over: the whole amount, no key.
        let p = postings(Side::Payable, &[], Account::DiscountsReceived, 500);
        assert_eq!(
            made(&p),
            vec![(Account::DiscountsReceived, String::new(), -500)]
        );
    }

    #[test]
    fn two_taxes_on_one_line_and_a_negative_line_of_a_bill_take_their_own_part() {
        // 100.00 with 9 % and 9 % (one key, 18.00 tax): 11.80 off takes 1.80.
        let own = [
            line(Account::Revenue, "S:9", 0, 10_000),
            line(Account::OutputTax, "S:9", 0, 1_800),
        ];
        let p = postings(Side::Receivable, &own, Account::DiscountsGranted, 1_180);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsGranted, "S:9".into(), 1_000),
                (Account::OutputTax, "S:9".into(), 180)
            ]
        );
        // A bill of 100.00 + 7.00 at 7 % and a deposit of -20.00 - 3.80 at
        // 19 % returned (83.20): 1.66 off is 2.14 at 7 % and -0.48 at 19 %.
        let own = [
            line(Account::Expenses, "S:7", 10_000, 0),
            line(Account::InputTax, "S:7", 700, 0),
            line(Account::Expenses, "S:19", 0, 2_000),
            line(Account::InputTax, "S:19", 0, 380),
        ];
        let p = postings(Side::Payable, &own, Account::DiscountsReceived, 166);
        assert_eq!(
            made(&p),
            vec![
                (Account::DiscountsReceived, "S:7".into(), -200),
                (Account::InputTax, "S:7".into(), -14),
                (Account::DiscountsReceived, "S:19".into(), 40),
                (Account::InputTax, "S:19".into(), 8),
            ]
        );
        let sum: i64 = made(&p).iter().map(|m| m.2).sum();
        assert_eq!(sum, -166, "the parts add up to the discount");
    }
}
