//! The layout of a reminder's letter, on the invoice's sheet: the same
//! letterhead, address window, footer and payment block (bank details,
//! the invoice number as payment reference, the EPC QR code of the total),
//! with the reminder's particulars (its date, the invoice's number, date
//! and original due date), its title and text, and the table of what it
//! claims: the amount open, the reminder fees, default interest with its
//! period and rate, the flat sum of §288 (5) BGB, the total and the new
//! due date.

use super::fonts::Faces;
use super::layout::{Sheet, LEAD, LEFT, RIGHT, TEXT};
use super::page::{mm, Op};
use crate::documents::reminder::Reminder;
use crate::documents::Document;
use crate::rules::locale::{self, Lang};

/// The document the sheet draws from: the invoice, owing the reminder's
/// total, with the reminder's payment sentence and date.
pub(super) fn sheet_document(r: &Reminder) -> Document {
    let mut doc = r.invoice.clone();
    doc.due = r.total();
    doc.issued_on = r.on;
    let total = super::figures::money(&doc, r.total(), r.lang);
    let due = locale::date(r.lang, r.new_due);
    doc.payment_terms = Some(match r.lang {
        Lang::De => format!("Bitte überweisen Sie {total} bis zum {due}."),
        Lang::En => format!("Please transfer {total} by {due}."),
    });
    doc
}

/// The pages of `r`, drawn from `doc` (`sheet_document(r)`).
pub(super) fn lay_out(r: &Reminder, doc: &Document, faces: &Faces) -> Vec<Vec<Op>> {
    let lang = r.lang;
    let mut s = Sheet::begin(doc, lang, faces);
    s.letterhead();
    s.address_window();
    particulars(&mut s, r);
    // Title and text.
    let mut y = mm(107.0);
    for line in s.wrap(&r.title, 14.0, true, RIGHT - LEFT, 2) {
        s.text(LEFT, y, 14.0, true, &line);
        y += 17.0;
    }
    s.y = y + 2.0;
    for paragraph in r.text.split('\n') {
        let lines = s.wrap(paragraph, TEXT, false, RIGHT - LEFT, 30);
        if lines.is_empty() || paragraph.trim().is_empty() {
            s.y += LEAD / 2.0;
            continue;
        }
        for line in lines {
            s.need(LEAD);
            s.text(LEFT, s.y + TEXT, TEXT, false, &line);
            s.y += LEAD;
        }
    }
    s.y += 8.0;
    claim(&mut s, r);
    s.payment();
    s.finish()
}

/// The reminder's date and the invoice's particulars, right of the address.
fn particulars(s: &mut Sheet, r: &Reminder) {
    let lang = r.lang;
    let inv = &r.invoice;
    let mut rows: Vec<(String, String)> = vec![
        (s.t("Date", "Datum").into(), locale::date(lang, r.on)),
        (
            s.t("Invoice number", "Rechnungsnummer").into(),
            inv.number.clone(),
        ),
        (
            s.t("Invoice date", "Rechnungsdatum").into(),
            locale::date(lang, inv.issued_on),
        ),
    ];
    if let Some(due) = inv.due_on {
        rows.push((s.t("Due date", "Fällig am").into(), locale::date(lang, due)));
    }
    if let Some(v) = &inv.buyer.vat_id {
        rows.push((s.t("Your VAT ID", "Ihre USt-IdNr.").into(), v.clone()));
    }
    let label_x = mm(112.0);
    let value_x = mm(146.0);
    let mut y = mm(52.0);
    for (label, value) in rows {
        s.text_fit(label_x, y, 8.5, false, &label, value_x - label_x - 4.0);
        s.text_fit(value_x, y, 8.5, false, &value, RIGHT - value_x);
        y += 10.0;
    }
}

/// The table of what the reminder claims.
fn claim(s: &mut Sheet, r: &Reminder) {
    let lang = r.lang;
    let inv = &r.invoice;
    let mut rows: Vec<(String, String, bool)> = Vec::new();
    let due = inv
        .due_on
        .map(|d| locale::date(lang, d))
        .unwrap_or_default();
    rows.push((
        match lang {
            Lang::De => format!(
                "Offener Betrag der Rechnung {} (fällig am {due})",
                inv.number
            ),
            Lang::En => format!("Amount open of invoice {} (due on {due})", inv.number),
        },
        s.money(r.open),
        false,
    ));
    if r.fee > 0 {
        rows.push((
            s.t("Reminder fees", "Mahngebühren").into(),
            s.money(r.fee),
            false,
        ));
    }
    if let Some(i) = &r.interest {
        let percent = format!("{} %", locale::decimal(lang, &i.percent));
        let (from, through) = (locale::date(lang, i.from), locale::date(lang, i.through));
        let label = match lang {
            Lang::De => format!(
                "Verzugszinsen {from} – {through} ({} Tage, {percent} p. a., {} Prozentpunkte über dem Basiszinssatz, § 288 BGB)",
                i.days, i.points
            ),
            Lang::En => format!(
                "Default interest {from} – {through} ({} days, {percent} a year, {} points above the base rate, § 288 BGB)",
                i.days, i.points
            ),
        };
        rows.push((label, s.money(i.amount), false));
    }
    if let Some(flat) = r.flat_sum {
        rows.push((
            s.t(
                "Flat sum for default (§ 288 (5) BGB)",
                "Verzugspauschale (§ 288 Abs. 5 BGB)",
            )
            .into(),
            s.money(flat),
            false,
        ));
    }
    rows.push((
        s.t("Total to pay", "Gesamtbetrag").into(),
        s.money(r.total()),
        true,
    ));
    rows.push((
        s.t("Please pay by", "Zahlbar bis").into(),
        locale::date(lang, r.new_due),
        true,
    ));
    let value_left = RIGHT - mm(35.0);
    let label_width = value_left - LEFT - 8.0;
    let height: f32 = rows
        .iter()
        .map(|(label, _, bold)| {
            LEAD * s.wrap(label, TEXT, *bold, label_width, 3).len().max(1) as f32
        })
        .sum();
    s.need(height + 12.0);
    s.rule(LEFT, s.y, RIGHT - LEFT, 0.6, 0);
    s.y += 4.0;
    let last = rows.len() - 2;
    for (n, (label, value, bold)) in rows.into_iter().enumerate() {
        if n == last {
            s.rule(LEFT, s.y + 1.0, RIGHT - LEFT, 0.4, 0);
            s.y += 4.0;
        }
        let lines = s.wrap(&label, TEXT, bold, label_width, 3);
        let top = s.y + TEXT;
        for (i, line) in lines.iter().enumerate() {
            s.text(LEFT, top + LEAD * i as f32, TEXT, bold, line);
        }
        s.text_right(RIGHT, top, TEXT, bold, &value);
        s.y += LEAD * lines.len().max(1) as f32;
    }
    s.y += 10.0;
}
