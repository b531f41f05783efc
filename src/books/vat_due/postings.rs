//! The ledger lines of VAT falling due, pure: a sale's revenue moving from
//! its key marked not received to its plain key with its tax from "not
//! due" to output tax, a bill's input tax from "deductible later" to
//! deductible. Amounts signed: a negative one moves back.

use crate::books::ledger::{Account, Posting};
use crate::books::vat_due::register::Side;
use crate::rules::cash_vat;

/// The lines that make `base` and `tax` of `key` (a plain tax key) due.
pub fn to_due(side: Side, key: &str, base: i64, tax: i64) -> Vec<Posting> {
    match side {
        Side::Sale => vec![
            Posting::debit(Account::Revenue, base).of(&cash_vat::not_received(key)),
            Posting::credit(Account::Revenue, base).of(key),
            Posting::debit(Account::OutputTaxNotDue, tax).of(key),
            Posting::credit(Account::OutputTax, tax).of(key),
        ],
        Side::Purchase => vec![
            Posting::debit(Account::InputTax, tax).of(key),
            Posting::credit(Account::InputTaxLater, tax).of(key),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sale_moves_its_base_between_keys_and_its_tax_between_accounts() {
        let lines = to_due(Side::Sale, "S:19", 50_000, 9_500);
        let got: Vec<(Account, &str, i64, i64)> = lines
            .iter()
            .map(|p| (p.account, p.detail.as_str(), p.debit, p.credit))
            .collect();
        assert_eq!(
            got,
            vec![
                (Account::Revenue, "S:19:IST", 50_000, 0),
                (Account::Revenue, "S:19", 0, 50_000),
                (Account::OutputTaxNotDue, "S:19", 9_500, 0),
                (Account::OutputTax, "S:19", 0, 9_500),
            ]
        );
        // Back again: the other sides.
        let back = to_due(Side::Purchase, "S:7", 0, -700);
        assert_eq!((back[0].debit, back[0].credit), (0, 700));
        assert_eq!((back[1].debit, back[1].credit), (700, 0));
    }
}
