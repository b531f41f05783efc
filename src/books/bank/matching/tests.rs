//! The ladder's rungs one by one, on a handful of open items.

use jiff::civil::date;

use super::*;

fn item(number: &str, partner: &str, open: i64) -> Item {
    Item {
        kind: if open > 0 { TargetKind::Invoice } else { TargetKind::Purchase },
        id: format!("id-{number}"),
        number: number.into(),
        partner: partner.into(),
        partner_name: match partner {
            "c1" => "Bäckerei Sonnenschein KG".into(),
            "c2" => "Hansen & Söhne OHG".into(),
            "s1" => "Holz Meier GmbH".into(),
            other => format!("Partner {other}"),
        },
        open,
        currency: "EUR".into(),
        reference: CreditorReference::of_number(number).map(|r| r.as_str().to_string()),
        dated: date(2026, 11, 1),
    }
}

fn ladder() -> Ladder {
    Ladder::new(
        vec![
            item("RE2026-00017", "c1", 119_000),
            item("RE2026-00023", "c2", 47_600),
            item("RE2026-00031", "c1", 11_900),
            item("RE2026-00032", "c1", 23_800),
            item("RE2026-00033", "c2", 5_950),
            item("RE2026-00017-2", "c2", 1_000),
            item("LF-58207", "s1", -59_500),
            item("0815", "s1", -10_000),
        ],
        [("DE60430609671122334455".to_string(), "c1".to_string())],
        300,
    )
}

fn credit(amount: i64, remittance: &str) -> LineFacts {
    LineFacts { amount, currency: "EUR".into(), remittance: remittance.into(), ..LineFacts::default() }
}

fn numbers(l: &Ladder, p: &Proposal) -> Vec<(String, i64)> {
    p.allocations.iter().map(|(i, a)| (l.items()[*i].number.clone(), *a)).collect()
}

fn certain(l: &mut Ladder, line: &LineFacts) -> (Vec<(String, i64)>, Reason) {
    match l.place(line) {
        Outcome::Certain(p) => (numbers(l, &p), p.reason),
        other => panic!("not certain: {other:?}"),
    }
}

fn suggested(l: &mut Ladder, line: &LineFacts) -> Vec<(Vec<(String, i64)>, Reason)> {
    match l.place(line) {
        Outcome::Suggested(list) => list.iter().map(|p| (numbers(l, p), p.reason.clone())).collect(),
        other => panic!("not suggested: {other:?}"),
    }
}

fn n(number: &str, amount: i64) -> Vec<(String, i64)> {
    vec![(number.to_string(), amount)]
}

#[test]
fn numbers_are_cut_into_segments_with_their_glue() {
    let s = segments("RE-2026-00017 Kd-Nr.10023 re2026");
    let shown: Vec<(&str, bool)> = s.iter().map(|(t, g)| (t.as_str(), *g)).collect();
    assert_eq!(
        shown,
        [("RE", false), ("2026", false), ("00017", false), ("KD", false), ("NR", false), ("10023", false), ("RE", false), ("2026", true)]
    );
    assert_eq!(keys(&segments("RE2026-00017")), ("RE|2026|17".into(), "RE202600017".into()));
    assert_eq!(unpadded("000"), "0");
}

#[test]
fn a_creditor_reference_is_certain() {
    let mut l = ladder();
    let mut line = credit(47_600, "");
    line.creditor_references = vec!["RF13RE202600023".into()];
    assert_eq!(certain(&mut l, &line), (n("RE2026-00023", 47_600), Reason::CreditorReference("RF13RE202600023".into())));
    // Now paid: the same reference again finds nothing open.
    assert_eq!(l.place(&line), Outcome::Unmatched);
    // A reference that fails its check digits is no reference.
    let mut wrong = credit(119_000, "");
    wrong.creditor_references = vec!["RF14RE202600017".into()];
    assert_eq!(l.place(&wrong), Outcome::Unmatched);
}

#[test]
fn a_number_with_spaces_dashes_case_and_zeros_and_the_open_amount_is_certain() {
    for text in ["RE-2026-00017 Kd-Nr. 10023", "re 2026 00017", "Rechnung RE202600017", "RE2026-17", "RE2026/017."] {
        let mut l = ladder();
        assert_eq!(certain(&mut l, &credit(119_000, text)), (n("RE2026-00017", 119_000), Reason::Number), "{text}");
    }
    // Inside a longer token it is not named.
    for text in ["XRE2026-00017", "RE2026-000171", "RE2026-00017A"] {
        let mut l = ladder();
        assert_eq!(l.place(&credit(119_000, text)), Outcome::Unmatched, "{text}");
    }
    // A number inside another named number does not count.
    let mut l = ladder();
    assert_eq!(certain(&mut l, &credit(1_000, "RE2026-00017-2")), (n("RE2026-00017-2", 1_000), Reason::Number));
    // The end-to-end id is read too.
    let mut l = ladder();
    let mut line = credit(11_900, "Wartung November");
    line.end_to_end_id = Some("RE2026-00031".into());
    assert_eq!(certain(&mut l, &line), (n("RE2026-00031", 11_900), Reason::Number));
}

#[test]
fn several_numbers_and_their_sum_are_certain() {
    let mut l = ladder();
    let (found, reason) = certain(&mut l, &credit(35_700, "RE2026-00031, RE2026-00032"));
    assert_eq!(found, [("RE2026-00031".to_string(), 11_900), ("RE2026-00032".to_string(), 23_800)]);
    assert_eq!(reason, Reason::Combined);
}

#[test]
fn a_bill_is_paid_by_a_debit_and_never_by_a_credit() {
    let mut l = ladder();
    assert_eq!(l.place(&credit(59_500, "LF-58207")), Outcome::Unmatched);
    assert_eq!(certain(&mut l, &credit(-59_500, "Rechnung LF-58207 vom 03.11.2026")), (n("LF-58207", 59_500), Reason::Number));
    assert_eq!(certain(&mut l, &credit(-10_000, "Beleg 815")), (n("0815", 10_000), Reason::Number));
    // Another currency is never matched.
    let mut usd = credit(-10_000, "LF-58207");
    usd.currency = "USD".into();
    assert_eq!(l.place(&usd), Outcome::Unmatched);
}

#[test]
fn partial_fee_reduced_and_overpaid_are_suggested_with_the_difference() {
    let mut l = ladder();
    let s = suggested(&mut l, &credit(100_000, "RE2026-00017"));
    assert_eq!(s, [(n("RE2026-00017", 100_000), Reason::Partial(19_000))]);
    let s = suggested(&mut l, &credit(118_750, "RE2026-00017"));
    assert_eq!(s, [(n("RE2026-00017", 118_750), Reason::FeeReduced(250))]);
    let s = suggested(&mut l, &credit(120_000, "RE2026-00017"));
    assert_eq!(s, [(n("RE2026-00017", 119_000), Reason::Overpaid(1_000))]);
    // Suggestions do not lower what is open.
    assert_eq!(certain(&mut l, &credit(119_000, "RE2026-00017")).1, Reason::Number);
    let money = |m: i64| format!("{}.{:02} EUR", m / 100, m % 100);
    let items = [l.items().iter().find(|i| i.number == "RE2026-00017").unwrap()];
    assert_eq!(
        Reason::Partial(19_000).sentence(&items, &money),
        "The remittance names RE2026-00017; the amount is 190.00 EUR less than open (a partial payment)."
    );
}

#[test]
fn a_known_iban_suggests_one_item_or_a_sum_of_up_to_four() {
    let mut l = ladder();
    let mut line = credit(23_800, "Danke");
    line.iban = Some("DE60430609671122334455".into());
    let iban = Reason::KnownIban("DE60430609671122334455".into());
    assert_eq!(suggested(&mut l, &line), [(n("RE2026-00032", 23_800), iban.clone())]);
    line.amount = 119_000 + 11_900 + 23_800;
    let s = suggested(&mut l, &line);
    assert_eq!(s[0].0.len(), 3);
    assert_eq!(s[0].1, iban);
    line.amount = 5;
    assert_eq!(l.place(&line), Outcome::Unmatched);
}

#[test]
fn a_name_alike_and_the_open_amount_is_suggested_and_a_stranger_is_unmatched() {
    let mut l = ladder();
    let mut line = credit(47_600, "Zahlung");
    line.name = Some("HANSEN UND SOEHNE".into());
    assert_eq!(suggested(&mut l, &line), [(n("RE2026-00023", 47_600), Reason::NameAlike)]);
    line.name = Some("Unbekannt GmbH".into());
    assert_eq!(l.place(&line), Outcome::Unmatched);
    line.name = Some("GmbH".into());
    assert_eq!(l.place(&line), Outcome::Unmatched);
}

#[test]
fn a_line_pays_at_most_its_amount_and_an_item_at_most_its_open_amount() {
    let mut l = ladder();
    let mut line = credit(50_000, "");
    line.creditor_references = vec!["RF13RE202600023".into()];
    let (found, _) = certain(&mut l, &line);
    assert_eq!(found, n("RE2026-00023", 47_600));
    let mut l = ladder();
    line.amount = 40_000;
    assert_eq!(certain(&mut l, &line).0, n("RE2026-00023", 40_000));
    assert_eq!(l.items().iter().find(|i| i.number == "RE2026-00023").unwrap().open, 7_600);
}
