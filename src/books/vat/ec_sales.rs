//! The EC sales list (*Zusammenfassende Meldung*): per customer VAT id and
//! kind, the sum of the intra-community supplies of goods (`L`), of the
//! services taxed in the customer's state (`S`) and of triangular
//! transactions (`D`) in a period, in whole euros with the cents dropped.

use std::collections::BTreeMap;

use serde::Serialize;

/// What was supplied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum SupplyKind {
    /// Goods (*Lieferungen*), § 4 Nr. 1b UStG.
    #[serde(rename = "L")]
    Goods,
    /// Services taxed in the other state (§ 3a Abs. 2 UStG).
    #[serde(rename = "S")]
    Services,
    /// Triangular transactions (§ 25b UStG).
    #[serde(rename = "D")]
    Triangular,
}

impl SupplyKind {
    /// The kind of a sale with tax key `key`, if it belongs on the list.
    pub fn of_key(key: &str) -> Option<SupplyKind> {
        let mut parts = key.split(':');
        let category = parts.next()?;
        let _rate = parts.next();
        let eu = parts.next() == Some("EU");
        match category {
            "K" => Some(SupplyKind::Goods),
            "AE" if eu => Some(SupplyKind::Services),
            _ => None,
        }
    }
}

/// One supply as the ledger holds it: the customer's VAT id, the kind and
/// the base in cents (a credit note negative).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supply {
    pub vat_id: String,
    pub kind: SupplyKind,
    pub base: i64,
}

/// One row of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// The customer's VAT id with its country prefix (`FR12345678901`).
    pub vat_id: String,
    /// The prefix (`EL` for Greece, as on the id).
    pub country: String,
    /// Whole euros, cents dropped toward zero.
    pub amount: String,
    pub kind: SupplyKind,
}

/// The rows of `supplies`: summed per VAT id and kind, a sum of nothing
/// left out, ordered by VAT id then kind.
pub fn rows(supplies: &[Supply]) -> Vec<Row> {
    let mut sums: BTreeMap<(String, SupplyKind), i64> = BTreeMap::new();
    for s in supplies {
        let id: String = s
            .vat_id
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase();
        *sums.entry((id, s.kind)).or_insert(0) += s.base;
    }
    sums.into_iter()
        .filter(|(_, cents)| cents / 100 != 0)
        .map(|((vat_id, kind), cents)| Row {
            country: vat_id.chars().take(2).collect(),
            vat_id,
            amount: (cents / 100).to_string(),
            kind,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(vat_id: &str, kind: SupplyKind, base: i64) -> Supply {
        Supply {
            vat_id: vat_id.into(),
            kind,
            base,
        }
    }

    #[test]
    fn supplies_sum_per_vat_id_and_kind_in_whole_euros() {
        let rows = rows(&[
            s("FR12345678901", SupplyKind::Goods, 100_099),
            s("fr 12345678901", SupplyKind::Goods, 50_000),
            s("FR12345678901", SupplyKind::Services, 20_050),
            s("ATU12345678", SupplyKind::Services, 99),
            s("EL123456789", SupplyKind::Goods, -30_000),
        ]);
        let got: Vec<(&str, &str, &str, SupplyKind)> = rows
            .iter()
            .map(|r| {
                (
                    r.vat_id.as_str(),
                    r.country.as_str(),
                    r.amount.as_str(),
                    r.kind,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("EL123456789", "EL", "-300", SupplyKind::Goods),
                ("FR12345678901", "FR", "1500", SupplyKind::Goods),
                ("FR12345678901", "FR", "200", SupplyKind::Services),
            ]
        );
        assert_eq!(serde_json::to_value(&rows[1]).unwrap()["kind"], "L");
    }

    #[test]
    fn only_intra_community_keys_belong_on_the_list() {
        assert_eq!(SupplyKind::of_key("K:0"), Some(SupplyKind::Goods));
        assert_eq!(SupplyKind::of_key("AE:0:EU"), Some(SupplyKind::Services));
        assert_eq!(SupplyKind::of_key("AE:0"), None);
        assert_eq!(SupplyKind::of_key("G:0"), None);
        assert_eq!(SupplyKind::of_key("S:19"), None);
    }
}
