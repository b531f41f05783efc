//! The layout of a cash-basis profit statement, on the invoice's sheet (the
//! same letterhead and footer with the company's particulars, "Seite x von
//! y"): its title and fiscal year, the company's tax number, final or
//! preliminary, the table of the form's lines (line, Kennzahl, label,
//! amount in euro) with the sums and the profit, a note of money on no
//! line and of the form's source, and behind it the payments of each line.

use super::fonts::Faces;
use super::layout::{Sheet, LEAD, LEFT, RIGHT, TEXT};
use super::page::{mm, Op};
use crate::documents::euer::Statement;
use crate::documents::{Contact, Document, Party, TypeCode};
use crate::rules::locale::{self, Lang};

/// The table's columns: right edge of the line, left of the Kz and the
/// label, right edge of the amount.
const COL_LINE_RIGHT: f32 = LEFT + 30.0;
const COL_KZ: f32 = LEFT + 40.0;
const COL_LABEL: f32 = LEFT + 72.0;
const LABEL_WIDTH: f32 = RIGHT - mm(32.0) - COL_LABEL;

/// The behind-list's columns.
const COL_DOCUMENT: f32 = LEFT + 62.0;

/// The document the sheet draws its letterhead and footer from: the
/// company as the seller, the statement's title and date, nothing to pay.
pub(super) fn sheet_document(s: &Statement) -> Document {
    Document {
        type_code: TypeCode::Invoice,
        number: s.title(),
        issued_on: s.made_on,
        specification: None,
        currency: "EUR".into(),
        exponent: 2,
        accounting_tax: None,
        due_on: None,
        payment_terms: None,
        buyer_reference: None,
        order_reference: None,
        contract_reference: None,
        project_reference: None,
        preceding: None,
        delivered_on: None,
        deliver_to: None,
        period: None,
        notes: Vec::new(),
        seller: s.company.clone(),
        buyer: Party {
            contact: Contact::default(),
            ..Party::default()
        },
        tax_representative: None,
        payee: None,
        payment_means: None,
        payment_reference: None,
        transfer: None,
        card: None,
        direct_debit: None,
        lines: Vec::new(),
        allowances: Vec::new(),
        breakdown: Vec::new(),
        attachments: Vec::new(),
        line_total: 0,
        allowance_total: 0,
        charge_total: 0,
        net: 0,
        tax: 0,
        gross: 0,
        paid: 0,
        rounding: 0,
        due: 0,
    }
}

/// The pages of `s`, drawn from `doc` (`sheet_document(s)`).
pub(super) fn lay_out(s: &Statement, doc: &Document, faces: &Faces) -> Vec<Vec<Op>> {
    let lang = s.lang;
    let title = s.title();
    let mut sheet = Sheet::begin(doc, lang, faces).headed(&title);
    sheet.letterhead();
    head(&mut sheet, s, &title);
    table(&mut sheet, s);
    notes(&mut sheet, s);
    behind(&mut sheet, s);
    sheet.finish()
}

/// The title, the year, the tax number and whether it is final.
fn head(sheet: &mut Sheet, s: &Statement, title: &str) {
    let lang = s.lang;
    let mut y = mm(52.0);
    sheet.text(LEFT, y, 15.0, true, title);
    y += 16.0;
    let period = format!(
        "{} {} – {}",
        sheet.t("Fiscal year", "Wirtschaftsjahr"),
        locale::date(lang, s.from),
        locale::date(lang, s.to)
    );
    let basis = match lang {
        Lang::De => format!(
            "Gewinnermittlung nach § 4 Abs. 3 EStG · Zeilen und Kennzahlen der Anlage EÜR {}",
            s.form
        ),
        Lang::En => format!(
            "Profit by § 4 (3) EStG · lines and Kennzahlen of the Anlage EÜR {}",
            s.form
        ),
    };
    for text in [period, basis] {
        for line in sheet.wrap(&text, TEXT, false, RIGHT - LEFT, 2) {
            sheet.text(LEFT, y, TEXT, false, &line);
            y += LEAD;
        }
    }
    if let Some(n) = s.company.tax_number.clone() {
        let text = format!("{} {n}", sheet.t("Tax number", "Steuernummer"));
        sheet.text(LEFT, y, TEXT, false, &text);
        y += LEAD;
    }
    let made = format!(
        "{} {}",
        sheet.t("Made on", "Erstellt am"),
        locale::date(lang, s.made_on)
    );
    sheet.text(LEFT, y, TEXT, false, &made);
    y += LEAD;
    let state = if s.is_final {
        sheet.t(
            "Final: the books are closed through the year's end.",
            "Endgültig: die Bücher sind bis zum Ende des Jahres abgeschlossen.",
        )
    } else {
        sheet.t(
            "Preliminary: the books of the year are still open; figures may change.",
            "Vorläufig: die Bücher des Jahres sind noch offen; die Zahlen können sich ändern.",
        )
    };
    for line in sheet.wrap(state, TEXT, true, RIGHT - LEFT, 2) {
        sheet.text(LEFT, y, TEXT, true, &line);
        y += LEAD;
    }
    sheet.y = y + 6.0;
}

fn table_head(sheet: &mut Sheet) {
    let y = sheet.y + TEXT;
    let line = sheet.t("Line", "Zeile").to_string();
    sheet.text_right(COL_LINE_RIGHT, y, 8.0, true, &line);
    sheet.text(COL_KZ, y, 8.0, true, "Kz");
    let label = sheet.t("Figure", "Bezeichnung").to_string();
    sheet.text(COL_LABEL, y, 8.0, true, &label);
    let amount = sheet.t("Amount EUR", "Betrag EUR").to_string();
    sheet.text_right(RIGHT, y, 8.0, true, &amount);
    sheet.rule(LEFT, y + 3.5, RIGHT - LEFT, 0.6, 0);
    sheet.y = y + 7.5;
}

/// Each line of the form with its amount, the sums ruled off, the profit.
fn table(sheet: &mut Sheet, s: &Statement) {
    let lang = s.lang;
    sheet.need(40.0);
    table_head(sheet);
    for row in &s.rows {
        let label = sheet.wrap(&row.label, TEXT, row.sum, LABEL_WIDTH, 4);
        let height = LEAD * label.len().max(1) as f32 + 2.0;
        sheet.need(height + if row.sum { 4.0 } else { 0.0 });
        if row.sum {
            sheet.rule(LEFT, sheet.y, RIGHT - LEFT, 0.4, 0);
            sheet.y += 3.0;
        }
        let y = sheet.y + TEXT;
        sheet.text_right(COL_LINE_RIGHT, y, TEXT, row.sum, &row.line);
        sheet.text(COL_KZ, y, TEXT, row.sum, &row.kz);
        for (i, text) in label.iter().enumerate() {
            sheet.text(COL_LABEL, y + LEAD * i as f32, TEXT, row.sum, text);
        }
        let amount = locale::number(lang, row.amount, 2);
        sheet.text_right(RIGHT, y, TEXT, row.sum, &amount);
        sheet.y += height;
        if row.sum {
            sheet.y += 4.0;
        }
    }
    sheet.need(LEAD + 8.0);
    sheet.rule(LEFT, sheet.y, RIGHT - LEFT, 0.8, 0);
    sheet.y += 3.0;
    let y = sheet.y + TEXT;
    let label = if s.profit < 0 {
        sheet.t(
            "Loss (total income less total expenses)",
            "Verlust (Summe Betriebseinnahmen abzüglich Summe Betriebsausgaben)",
        )
    } else {
        sheet.t(
            "Profit (total income less total expenses)",
            "Gewinn (Summe Betriebseinnahmen abzüglich Summe Betriebsausgaben)",
        )
    }
    .to_string();
    sheet.text_fit(COL_KZ, y, TEXT, true, &label, RIGHT - mm(32.0) - COL_KZ);
    let amount = locale::number(lang, s.profit, 2);
    sheet.text_right(RIGHT, y, TEXT, true, &amount);
    sheet.y += LEAD + 10.0;
}

/// What stands on no line, and where the form's lines come from.
fn notes(sheet: &mut Sheet, s: &Statement) {
    let lang = s.lang;
    let mut texts = Vec::new();
    if s.unassigned != 0 {
        let amount = locale::number(lang, s.unassigned, 2);
        texts.push(match lang {
            Lang::De => format!(
                "Auf keiner Zeile: {amount} EUR Geld, das keinem Beleg zugeordnet ist (Bankumsätze unter „Sonstiges“, Guthaben von Kunden) oder keine Betriebsausgabe ist (Gewerbesteuer); die Liste steht in kontor unter Bücher → EÜR."
            ),
            Lang::En => format!(
                "On no line: {amount} EUR of money not assigned to a document (bank lines booked to \"other\", customers' credits) or that is no business expense (trade tax); kontor lists it under Books → EÜR."
            ),
        });
    }
    texts.push(
        sheet
            .t(
                "kontor fills the figures it can read from the books; the form's other lines (private use, the home office, allowances) are the taxpayer's to add. The line numbers follow public transcriptions of the form, which is to be compared before filing.",
                "kontor füllt die Zahlen, die es aus den Büchern lesen kann; die übrigen Zeilen des Vordrucks (Entnahmen, Arbeitszimmer, Pauschalen) ergänzt der Steuerpflichtige. Die Zeilennummern folgen öffentlichen Abschriften des Vordrucks, der vor der Übermittlung zu vergleichen ist.",
            )
            .to_string(),
    );
    for text in texts {
        for line in sheet.wrap(&text, 8.0, false, RIGHT - LEFT, 8) {
            sheet.need(10.0);
            sheet.text(LEFT, sheet.y + 8.0, 8.0, false, &line);
            sheet.y += 10.0;
        }
        sheet.y += 4.0;
    }
}

/// The payments behind each line, or the sentence saying where they are.
fn behind(sheet: &mut Sheet, s: &Statement) {
    let lang = s.lang;
    sheet.y += 6.0;
    sheet.need(LEAD * 3.0);
    let heading = sheet
        .t(
            "The payments behind the lines",
            "Die Zahlungen hinter den Zeilen",
        )
        .to_string();
    sheet.text(LEFT, sheet.y + 11.0, 11.0, true, &heading);
    sheet.y += 18.0;
    let Some(groups) = &s.behind else {
        let text = match lang {
            Lang::De => format!(
                "{} Buchungen stehen hinter den Zeilen; zu viele für dieses Dokument. kontor zeigt sie unter Bücher → EÜR und mit kontor books euer.",
                s.behind_count
            ),
            Lang::En => format!(
                "{} postings stand behind the lines, too many for this document; kontor shows them under Books → EÜR and by kontor books euer.",
                s.behind_count
            ),
        };
        for line in sheet.wrap(&text, TEXT, false, RIGHT - LEFT, 4) {
            sheet.text(LEFT, sheet.y + TEXT, TEXT, false, &line);
            sheet.y += LEAD;
        }
        return;
    };
    for group in groups {
        sheet.need(LEAD * 3.0);
        let title = format!(
            "{} {} · {}",
            sheet.t("Line", "Zeile"),
            group.line,
            group.label
        );
        sheet.text_fit(LEFT, sheet.y + TEXT, TEXT, true, &title, RIGHT - LEFT);
        sheet.y += LEAD + 2.0;
        for e in &group.entries {
            sheet.need(LEAD);
            let y = sheet.y + 8.0;
            sheet.text(LEFT + 8.0, y, 8.0, false, &locale::date(lang, e.date));
            sheet.text_fit(
                COL_DOCUMENT,
                y,
                8.0,
                false,
                &e.document,
                RIGHT - mm(32.0) - COL_DOCUMENT,
            );
            sheet.text_right(RIGHT, y, 8.0, false, &locale::number(lang, e.amount, 2));
            sheet.y += 10.0;
        }
        sheet.y += 6.0;
    }
}
