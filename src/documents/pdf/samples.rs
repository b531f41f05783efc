//! The sample documents of the PDF's tests, beside the mixed invoice of
//! `documents::samples`: a credit note, 200 lines over pages, yen, US
//! dollars from a Dutch seller, reverse charge to Austria, Bahraini dinars
//! (no XML); and the CII a sample embeds.

use jiff::civil::Date;

use crate::documents::samples::mixed;
use crate::documents::{
    cii, verdict, AccountingTax, Address, Breakdown, Category, Document, Format, Line, Preceding,
    Transfer, TypeCode,
};
use crate::rules::money::{line_net, percent_of, Decimal};

fn d(s: &str) -> Decimal {
    Decimal::parse("x", s).unwrap()
}

/// Sets the breakdown and totals of `doc` from its lines (category S).
fn total(doc: &mut Document) {
    let mut breakdown: Vec<Breakdown> = Vec::new();
    for line in &doc.lines {
        match breakdown
            .iter_mut()
            .find(|b| b.category == line.category && b.rate == line.rate)
        {
            Some(b) => b.base += line.net,
            None => breakdown.push(Breakdown {
                category: line.category.clone(),
                rate: line.rate,
                base: line.net,
                amount: 0,
                reason: None,
                reason_code: None,
            }),
        }
    }
    for b in &mut breakdown {
        b.amount = percent_of(b.base, b.rate).unwrap();
    }
    doc.net = breakdown.iter().map(|b| b.base).sum();
    doc.line_total = doc.net;
    doc.tax = breakdown.iter().map(|b| b.amount).sum();
    doc.gross = doc.net + doc.tax;
    doc.due = doc.gross - doc.paid;
    doc.breakdown = breakdown;
}

pub(super) fn credit() -> Document {
    let mut doc = mixed();
    doc.type_code = TypeCode::CreditNote;
    doc.number = "GS-2026-0001".into();
    doc.preceding = Some(Preceding {
        number: "RE-2026-0001".into(),
        issued_on: Some(Date::constant(2026, 11, 23)),
    });
    doc.transfer = None;
    doc.payment_reference = None;
    doc.payment_terms = None;
    doc
}

/// 200 lines, 19 % and 7 %, some descriptions long enough to wrap.
pub(super) fn long() -> Document {
    let mut doc = mixed();
    doc.number = "RE-2026-0200".into();
    let template = doc.lines[0].clone();
    doc.lines = (1..=200)
        .map(|n| {
            let quantity = d(&format!("{}.{}", n % 7 + 1, n % 4 * 25));
            let price = 1000 + 37 * n;
            let name = if n % 9 == 0 {
                format!(
                    "Leistung {n}: Wartung und Pflege der Anlage einschließlich \
                     Anfahrt, Material und Entsorgung nach Aufwand"
                )
            } else {
                format!("Artikel {n}")
            };
            Line {
                id: n.to_string(),
                name,
                quantity,
                unit: if n % 5 == 0 { "HUR" } else { "C62" }.into(),
                price: Decimal::from_minor(price, 2),
                net: line_net(quantity, price).unwrap(),
                category: Category::S,
                rate: d(if n % 3 == 0 { "7" } else { "19" }),
                ..template.clone()
            }
        })
        .collect();
    total(&mut doc);
    doc.payment_terms = Some("Zahlbar bis 07.12.2026 ohne Abzug.".into());
    doc
}

/// A German seller's invoice in yen (no minor unit), VAT also in EUR.
pub(super) fn jpy() -> Document {
    let mut doc = mixed();
    doc.number = "RE-2026-0002".into();
    doc.currency = "JPY".into();
    doc.exponent = 0;
    for line in &mut doc.lines {
        let minor = line.price.to_minor(2).unwrap() * 2;
        line.price = Decimal::from_minor(minor, 0);
        line.net = line_net(line.quantity, minor).unwrap();
    }
    total(&mut doc);
    doc.accounting_tax = Some(AccountingTax {
        currency: "EUR".into(),
        exponent: 2,
        amount: 23_174,
    });
    doc
}

/// A Dutch seller's invoice in US dollars: English, no QR code.
pub(super) fn usd() -> Document {
    let mut doc = mixed();
    doc.number = "INV-2026-0042".into();
    doc.currency = "USD".into();
    doc.seller.address = Address {
        street: Some("Keizersgracht 1".into()),
        postal_code: Some("1015 CJ".into()),
        city: Some("Amsterdam".into()),
        country: "NL".into(),
        ..Address::default()
    };
    doc.seller.name = "Noorderlicht B.V.".into();
    doc.seller.vat_id = Some("NL000099998B57".into());
    doc.seller.tax_number = None;
    doc.seller.registration = Some("KvK 12345678".into());
    doc.seller.legal_info = Some("Directors: A. de Vries".into());
    doc.buyer.address.country = "BE".into();
    doc.buyer.vat_id = Some("BE0123456749".into());
    doc.notes.clear();
    for line in &mut doc.lines {
        line.rate = d("21");
    }
    total(&mut doc);
    doc.accounting_tax = Some(AccountingTax {
        currency: "EUR".into(),
        exponent: 2,
        amount: 24_000,
    });
    doc.payment_terms = Some("Payment due by 7 December 2026.".into());
    doc.transfer = Some(Transfer {
        iban: "NL91ABNA0417164300".into(),
        bic: Some("ABNANL2A".into()),
        account_holder: None,
    });
    doc
}

/// Reverse charge to an Austrian business: the reason is printed.
pub(super) fn reverse_charge() -> Document {
    let mut doc = mixed();
    doc.number = "RE-2026-0004".into();
    doc.buyer.vat_id = Some("ATU13585627".into());
    doc.buyer.address = Address {
        street: Some("Ring 1".into()),
        postal_code: Some("1010".into()),
        city: Some("Wien".into()),
        country: "AT".into(),
        ..Address::default()
    };
    for line in &mut doc.lines {
        line.category = Category::AE;
        line.rate = d("0");
    }
    total(&mut doc);
    doc.breakdown[0].reason = Some("Steuerschuldnerschaft des Leistungsempfängers".into());
    doc.breakdown[0].reason_code = Some("VATEX-EU-AE".into());
    doc
}

/// A Bahraini-dinar invoice (three decimals): no EN 16931 XML.
pub(super) fn plain() -> Document {
    let mut doc = mixed();
    doc.number = "RE-2026-0003".into();
    doc.currency = "BHD".into();
    doc.exponent = 3;
    for line in &mut doc.lines {
        let minor = line.price.to_minor(2).unwrap() * 10;
        line.price = Decimal::from_minor(minor, 3);
        line.net = line_net(line.quantity, minor).unwrap();
    }
    total(&mut doc);
    doc
}

pub(super) fn xml(doc: &Document) -> Vec<u8> {
    let findings = verdict::check(doc, &[Format::FacturX, Format::Cii]);
    assert!(findings.is_empty(), "{}: {findings:?}", doc.number);
    cii::write(doc, cii::Guideline::En16931).unwrap()
}
