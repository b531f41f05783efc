//! VAT that falls due with the payment, as rules, pure: which tax keys of
//! a sale follow the money under VAT on payments received (*Ist-
//! Versteuerung*), how the ledger marks the revenue of such a sale that has
//! not been paid yet, how a settlement's amount is split over a document's
//! tax keys and what of each key's base and tax it moves, and the days from
//! which the amended § 15 (1) and § 14 (4) UStG apply. No storage.
//!
//! The rules and their sources:
//!
//! - With VAT on payments received the tax of a supply arises at the end of
//!   the return period in which the consideration is received (§ 13 (1)
//!   no. 1 b, § 20 UStG). DATEV shows taxable and tax-free *domestic*
//!   supplies in the return only with the payment (DATEV Hilfe-Dokument
//!   1080673 "Ist-Versteuerung", 25.07.2024): the keys of categories `S`
//!   (Kz 81, 86, 35/36), `Z` (Kz 87), `G` (Kz 43) and `E` (Kz 48) follow the
//!   payment. An intra-community supply (`K`, Kz 41) and a service taxed in
//!   the customer's state (`AE…:EU`, Kz 21) are reported for the period of
//!   the supply or its invoice (§ 18b UStG); a supply whose recipient owes
//!   the tax (`AE`, Kz 60) is taxed with the recipient on the invoice
//!   (§ 13b (2) UStG); a supply not taxable in Germany (`O`, `L`, `M`,
//!   Kz 45) raises no German tax at all: these follow the supply.
//! - A payment is split over the document's tax keys in proportion to their
//!   gross by the largest-remainder rule (`money::apportion`), so the parts
//!   add up to the payment; each part holds tax in the key's own proportion
//!   of tax to gross. What a key still has not due caps what moves, so
//!   nothing moves twice; the settlement that clears the document moves
//!   what is left.
//! - Input tax on a bill of a supplier taxed on payments received is
//!   deductible only as far as it is paid, for invoices issued after
//!   31 December 2027 (§ 15 (1) sentence 1 no. 1 UStG as amended by the
//!   Jahressteuergesetz 2024, Art. 27, BGBl. 2024 I Nr. 387; § 27 (41)
//!   UStG); input tax on a down payment is deductible once paid (§ 15 (1)
//!   sentence 1 no. 1 sentence 3 UStG).
//! - From the same day an invoice of a company taxed on payments received
//!   states "Versteuerung nach vereinnahmten Entgelten" (§ 14 (4) sentence 1
//!   no. 6a UStG, Jahressteuergesetz 2024, Art. 27).

use jiff::civil::Date;

use crate::rules::money;

/// The mark a revenue or discount line's tax key carries while the money
/// of a sale taxed on payments received has not come in (`S:19:IST`).
const NOT_RECEIVED: &str = ":IST";

/// The first day the amended § 15 (1) and § 14 (4) no. 6a UStG apply: an
/// invoice issued on or after it (§ 27 (41) UStG).
pub const AMENDED_FROM: Date = Date::constant(2028, 1, 1);

/// The statement an invoice of a company taxed on payments received
/// carries (§ 14 (4) sentence 1 no. 6a UStG), in the statute's words.
pub const STATEMENT: &str = "Versteuerung nach vereinnahmten Entgelten";

/// The VAT category of a tax key (`S` of `S:19`).
fn category(key: &str) -> &str {
    key.split(':').next().unwrap_or("")
}

/// Whether the tax of a sale with tax key `key` falls due with the payment
/// when the company is taxed on payments received.
pub fn follows_payment(key: &str) -> bool {
    matches!(category(key), "S" | "Z" | "G" | "E")
}

/// The key of the revenue of `key` not yet received.
pub fn not_received(key: &str) -> String {
    format!("{key}{NOT_RECEIVED}")
}

/// Whether `key` marks revenue not yet received.
pub fn is_not_received(key: &str) -> bool {
    key.ends_with(NOT_RECEIVED)
}

/// The tax key without the mark of revenue not yet received.
pub fn received(key: &str) -> &str {
    key.strip_suffix(NOT_RECEIVED).unwrap_or(key)
}

/// Whether an invoice a company issues on `day` states that it is taxed on
/// payments received, when it is.
pub fn states_cash_basis(day: Date) -> bool {
    day >= AMENDED_FROM
}

/// Whether the input tax of a bill of a supplier taxed on payments
/// received, issued on `day`, waits for the payment.
pub fn supplier_basis_applies(day: Date) -> bool {
    day >= AMENDED_FROM
}

/// One tax key of a document: its base and tax (book currency) as issued,
/// or what of them is not due yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub key: String,
    pub base: i64,
    pub tax: i64,
}

impl Share {
    pub fn gross(&self) -> i64 {
        self.base + self.tax
    }
}

/// What a settlement does to one key: its part of the amount, and the base
/// and tax that fall due (a payment) or never will (a discount, a fee).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub key: String,
    pub part: i64,
    pub base: i64,
    pub tax: i64,
}

/// Splits `amount` (book currency, not negative) over the keys of
/// `issued` by their gross (keys of no positive gross take no part) and
/// moves, per key, what `open` still has not due: everything when the
/// settlement `clears` the document, else the tax in the key's own
/// proportion of tax to gross and the rest of its part as base, each no
/// more than is open. Keys nothing is open of move nothing.
pub fn split(amount: i64, issued: &[Share], open: &[Share], clears: bool) -> Vec<Moved> {
    let weights: Vec<i64> = issued.iter().map(|s| s.gross().max(0)).collect();
    let parts = money::apportion(amount, &weights);
    issued
        .iter()
        .zip(parts)
        .map(|(share, part)| {
            let left = open
                .iter()
                .find(|o| o.key == share.key)
                .map_or((0, 0), |o| (o.base, o.tax));
            let (base, tax) = if clears {
                left
            } else {
                let tax =
                    money::in_proportion(part, share.tax, share.gross()).clamp(0, left.1.max(0));
                let base = (part - tax).clamp(0, left.0.max(0));
                (base, tax)
            };
            Moved {
                key: share.key.clone(),
                part,
                base,
                tax,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(key: &str, base: i64, tax: i64) -> Share {
        Share {
            key: key.into(),
            base,
            tax,
        }
    }

    #[test]
    fn domestic_supplies_follow_the_payment_and_cross_border_ones_the_supply() {
        for key in ["S:19", "S:7", "S:5.5", "Z:0", "G:0", "E:0"] {
            assert!(follows_payment(key), "{key}");
        }
        for key in ["K:0", "AE:0:EU", "AE:0", "O:0", "L:0", "M:0", ""] {
            assert!(!follows_payment(key), "{key}");
        }
        assert_eq!(not_received("S:19"), "S:19:IST");
        assert!(is_not_received("S:7:IST") && !is_not_received("S:7"));
        assert_eq!(received("S:19:IST"), "S:19");
        assert_eq!(received("K:0"), "K:0");
    }

    #[test]
    fn half_a_payment_moves_half_of_each_rate() {
        // 1,000.00 + 190.00 at 19 % and 500.00 + 35.00 at 7 %: 1,725.00.
        let issued = [share("S:19", 100_000, 19_000), share("S:7", 50_000, 3_500)];
        let moved = split(86_250, &issued, &issued, false);
        // 862.50 × 1,190 / 1,725 = 595.00 and 267.50; 595 × 190 / 1,190 = 95.00,
        // 267.50 × 35 / 535 = 17.50.
        assert_eq!(
            moved,
            vec![
                Moved {
                    key: "S:19".into(),
                    part: 59_500,
                    base: 50_000,
                    tax: 9_500
                },
                Moved {
                    key: "S:7".into(),
                    part: 26_750,
                    base: 25_000,
                    tax: 1_750
                },
            ]
        );
        let sum: i64 = moved.iter().map(|m| m.part).sum();
        assert_eq!(sum, 86_250, "the parts add up to the payment");
    }

    #[test]
    fn the_clearing_settlement_takes_what_is_left_and_nothing_moves_twice() {
        let issued = [share("S:19", 1_000, 190)];
        // 1/3 of 11.90 is 3.97 (tax 0.63 of it); two thirds left.
        let first = split(397, &issued, &issued, false);
        assert_eq!((first[0].base, first[0].tax), (334, 63));
        let open = [share("S:19", 666, 127)];
        let last = split(793, &issued, &open, true);
        assert_eq!((last[0].base, last[0].tax), (666, 127));
        // What is already due cannot move again.
        let none = [share("S:19", 0, 0)];
        let again = split(500, &issued, &none, false);
        assert_eq!((again[0].base, again[0].tax), (0, 0));
        assert_eq!(again[0].part, 500);
    }

    #[test]
    fn a_key_that_follows_the_supply_takes_its_part_and_moves_nothing() {
        let issued = [share("S:19", 10_000, 1_900), share("K:0", 10_000, 0)];
        let open = [share("S:19", 10_000, 1_900)];
        let moved = split(21_900, &issued, &open, true);
        assert_eq!(moved[1].part, 10_000);
        assert_eq!((moved[1].base, moved[1].tax), (0, 0));
        assert_eq!((moved[0].base, moved[0].tax), (10_000, 1_900));
    }

    #[test]
    fn the_amended_rules_apply_to_invoices_from_2028() {
        assert!(!states_cash_basis(Date::constant(2027, 12, 31)));
        assert!(states_cash_basis(Date::constant(2028, 1, 1)));
        assert!(!supplier_basis_applies(Date::constant(2027, 12, 31)));
        assert!(supplier_basis_applies(Date::constant(2028, 1, 2)));
    }
}
