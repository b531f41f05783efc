//! The EPC QR code (GiroCode) of a EUR invoice: the EPC069-12 payload of
//! a SEPA credit transfer of the amount due, the code's modules (error
//! correction M), and the few rectangles that draw its dark modules.

use crate::documents::{Document, TypeCode};
use crate::rules::money::minor_text;

/// The largest amount an EPC QR code carries: 999,999,999.99 EUR.
const EPC_MAX: i64 = 99_999_999_999;

/// The EPC069-12 (version 002) payload of a SEPA credit transfer of the
/// amount due: only for a EUR invoice with an IBAN and an amount due above
/// 0 and at most 999,999,999.99; the remittance is the invoice's creditor
/// reference, structured (field 10), when it has one, else its number,
/// unstructured (field 11).
pub fn epc_payload(doc: &Document) -> Option<String> {
    let transfer = doc.transfer.as_ref()?;
    let iban: String = transfer
        .iban
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if doc.type_code != TypeCode::Invoice
        || doc.currency != "EUR"
        || doc.exponent != 2
        || doc.due <= 0
        || doc.due > EPC_MAX
        || iban.is_empty()
    {
        return None;
    }
    let one_line = |text: &str, max: usize| -> String {
        text.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect::<String>()
            .trim()
            .chars()
            .take(max)
            .collect()
    };
    let name = one_line(
        transfer
            .account_holder
            .as_deref()
            .unwrap_or(&doc.seller.name),
        70,
    );
    let bic = transfer
        .bic
        .as_deref()
        .map(|b| one_line(b, 11))
        .unwrap_or_default();
    Some(
        [
            "BCD".to_string(),
            "002".into(),
            "1".into(),
            "SCT".into(),
            bic,
            name,
            iban,
            format!("EUR{}", minor_text(doc.due, 2, '.')),
            String::new(),
            doc.creditor_reference()
                .map(|r| one_line(r, 35))
                .unwrap_or_default(),
            match doc.creditor_reference() {
                Some(_) => String::new(),
                None => one_line(doc.remittance(), 140),
            },
        ]
        .join("\n"),
    )
}

/// The dark modules of a `count` × `count` QR code as few rectangles
/// (column, row, width, height): each grows right, then down, over dark
/// modules no other rectangle covers.
pub(super) fn qr_rects(count: usize, dark: &[bool]) -> Vec<[u16; 4]> {
    let at = |col: usize, row: usize| dark.get(row * count + col).copied().unwrap_or(false);
    let mut covered = vec![false; count * count];
    let mut rects = Vec::new();
    for row in 0..count {
        for col in 0..count {
            if !at(col, row) || covered[row * count + col] {
                continue;
            }
            let mut end = col;
            while end < count && at(end, row) && !covered[row * count + end] {
                end += 1;
            }
            let mut bottom = row + 1;
            while bottom < count
                && (col..end).all(|c| at(c, bottom) && !covered[bottom * count + c])
            {
                bottom += 1;
            }
            for r in row..bottom {
                for c in col..end {
                    covered[r * count + c] = true;
                }
            }
            let n = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
            rects.push([n(col), n(row), n(end - col), n(bottom - row)]);
        }
    }
    rects
}

/// The QR code's modules (error correction M): its width and dark flags,
/// row by row.
pub(super) fn qr_modules(payload: &str) -> Option<(usize, Vec<bool>)> {
    let code =
        qrcode::QrCode::with_error_correction_level(payload.as_bytes(), qrcode::EcLevel::M).ok()?;
    let width = code.width();
    let dark = code
        .to_colors()
        .into_iter()
        .map(|c| c == qrcode::Color::Dark)
        .collect();
    Some((width, dark))
}

#[cfg(test)]
mod tests {
    use crate::documents::pdf::qr::{epc_payload, qr_modules};
    use crate::documents::pdf::samples::{credit, jpy, usd};
    use crate::documents::samples::mixed;

    #[test]
    fn the_epc_qr_code_carries_the_transfer() {
        assert_eq!(
            epc_payload(&mixed()).unwrap(),
            "BCD\n002\n1\nSCT\nBYLADEM1001\nNordlicht GmbH\nDE02120300000000202051\n\
             EUR1482.97\n\n\nRE-2026-0001"
        );
        assert_eq!(epc_payload(&credit()), None, "nothing to pay");
        assert_eq!(epc_payload(&jpy()), None, "not EUR");
        assert_eq!(epc_payload(&usd()), None, "not EUR");
        let mut doc = mixed();
        doc.due = 0;
        assert_eq!(epc_payload(&doc), None, "nothing due");
        doc.due = 99_999_999_999;
        assert!(epc_payload(&doc).unwrap().contains("\nEUR999999999.99\n"));
        doc.due = 100_000_000_000;
        assert_eq!(epc_payload(&doc), None, "above the EPC maximum");
        doc.due = 1;
        doc.transfer = None;
        assert_eq!(epc_payload(&doc), None, "no IBAN");
    }

    #[test]
    fn a_creditor_reference_is_the_structured_remittance() {
        let mut doc = mixed();
        doc.payment_reference = Some("RF40RE20260001".into());
        assert_eq!(
            epc_payload(&doc).unwrap(),
            "BCD\n002\n1\nSCT\nBYLADEM1001\nNordlicht GmbH\nDE02120300000000202051\n\
             EUR1482.97\n\nRF40RE20260001\n"
        );
        let cii = String::from_utf8(
            crate::documents::cii::write(&doc, crate::documents::cii::Guideline::En16931).unwrap(),
        )
        .unwrap();
        assert!(
            cii.contains("<ram:PaymentReference>RF40RE20260001</ram:PaymentReference>"),
            "{cii}"
        );
        let ubl = String::from_utf8(crate::documents::ubl::write(&doc).unwrap()).unwrap();
        assert!(
            ubl.contains("<cbc:PaymentID>RF40RE20260001</cbc:PaymentID>"),
            "{ubl}"
        );
        let mut doc = mixed();
        doc.transfer.as_mut().unwrap().account_holder = Some("N".repeat(100));
        let payload = epc_payload(&doc).unwrap();
        assert_eq!(payload.lines().nth(5).unwrap().len(), 70);
        assert!(qr_modules(&payload).is_some());
    }
}
