//! The layout of a document's pages (`Sheet`): the letterhead, the buyer's
//! address in the window of a DIN 5008 form B letter, the particulars, the
//! title, the lines table (paginated, its head repeated), the VAT breakdown
//! with exemption reasons, the totals, the notes, the payment sentence with
//! the bank details and the EPC QR code, and on every page the footer with
//! the seller's particulars and "Seite x von y". A draft's preview is laid
//! out the same, titled as a draft, without number, payment reference or
//! QR code, with `DRAFT_MARK` across every page.

use super::figures::{line_rate, money, money_in};
use super::fonts::{Face, Faces};
use super::footer::{Footer, ROW_SPAN};
use super::page::{mm, Op, PAGE_H, PAGE_W};
use super::qr::{epc_payload, qr_modules, qr_rects};
use super::text::{fit, shrink_line, shrink_parts, shrink_words, sizes, words, wrap};
use crate::documents::{Breakdown, Category, Document, Party, TypeCode};
use crate::rules::countries;
use crate::rules::jurisdiction;
use crate::rules::locale::{self, Lang};
use crate::rules::text::in_fours;
use crate::rules::units;

/// The words across every page of a draft's preview.
pub const DRAFT_MARK: &str = "ENTWURF / DRAFT";

pub(super) const LEFT: f32 = mm(25.0);
pub(super) const RIGHT: f32 = PAGE_W - mm(20.0);
/// Where a continuation page's body starts.
const BODY_TOP: f32 = mm(32.0);
/// Below this the footer begins (a footer taller than a row of six lines
/// moves this, the page number and the rule up by what it needs more).
const BODY_BOTTOM: f32 = PAGE_H - mm(38.0);
const PAGE_NUMBER_Y: f32 = PAGE_H - mm(33.0);
const FOOTER_RULE_Y: f32 = PAGE_H - mm(30.0);
/// The baseline of the footer's first line.
const FOOTER_TOP: f32 = PAGE_H - mm(26.5);

/// The contact's width at the top right, unless a value needs more.
const CONTACT_WIDTH: f32 = mm(58.0);

pub(super) const TEXT: f32 = 9.0;
pub(super) const LEAD: f32 = 11.5;

/// The lines table's columns: right edges of the figures, left edges of texts.
const COL_POS_RIGHT: f32 = LEFT + 16.0;
const COL_DESC: f32 = LEFT + 24.0;
const COL_QTY_RIGHT: f32 = RIGHT - 232.0;
const COL_UNIT: f32 = RIGHT - 228.0;
const COL_PRICE_RIGHT: f32 = RIGHT - 118.0;
const COL_RATE_RIGHT: f32 = RIGHT - 80.0;
const COL_NET_RIGHT: f32 = RIGHT;
const DESC_WIDTH: f32 = COL_QTY_RIGHT - 52.0 - COL_DESC;
const UNIT_WIDTH: f32 = COL_PRICE_RIGHT - 66.0 - COL_UNIT;

/// Most lines one invoice line's description takes.
const DESC_MAX_LINES: usize = 12;

/// The EPC QR code's size, quiet zone included, and its caption.
const QR_SIZE: f32 = mm(32.0);
const QR_CAPTION: f32 = 10.0;

/// Lays the document out into pages of operations.
pub(super) struct Sheet<'a> {
    doc: &'a Document,
    lang: Lang,
    faces: &'a Faces,
    pages: Vec<Vec<Op>>,
    /// Where the next section starts.
    pub(super) y: f32,
    /// Whether a new page repeats the lines table's head.
    in_table: bool,
    /// A draft's preview: no number, no payment reference, marked as a draft.
    draft: bool,
    /// The footer of every page, laid out before the body.
    footer: Footer,
    /// How far a tall footer moves the body's end, the page number and
    /// the footer's rule up.
    raise: f32,
    /// The title a continuation page's head names, for a sheet that is no
    /// invoice (a statement); none: the document's own.
    heading: Option<String>,
}

impl<'a> Sheet<'a> {
    /// The pages of `doc` in `lang`: `has_xml` when the PDF carries the CII
    /// (else the title says it is no EN 16931 e-invoice), `draft` for a
    /// draft's preview.
    pub(super) fn lay_out(
        doc: &'a Document,
        has_xml: bool,
        draft: bool,
        lang: Lang,
        faces: &'a Faces,
    ) -> Vec<Vec<Op>> {
        let mut s = Sheet::begin(doc, lang, faces);
        s.draft = draft;
        s.letterhead();
        s.address_window();
        s.particulars();
        s.title(has_xml);
        s.lines_table();
        s.breakdown();
        s.totals();
        s.notes();
        s.payment();
        s.finish()
    }

    /// An empty first page for `doc` in `lang`, for a layout to fill
    /// section by section (the invoice's above, a reminder's).
    pub(super) fn begin(doc: &'a Document, lang: Lang, faces: &'a Faces) -> Sheet<'a> {
        let mut sheet = Sheet {
            doc,
            lang,
            faces,
            pages: vec![Vec::new()],
            y: 0.0,
            in_table: false,
            draft: false,
            footer: Footer::default(),
            raise: 0.0,
            heading: None,
        };
        sheet.footer = Footer::lay_out(&faces.regular, &sheet.footer_columns(), LEFT, RIGHT - LEFT);
        sheet.raise = (sheet.footer.height() - ROW_SPAN).max(0.0);
        sheet
    }

    /// The English or the German text, in the document's language.
    pub(super) fn t<'b>(&self, en: &'b str, de: &'b str) -> &'b str {
        self.lang.pick(en, de)
    }

    pub(super) fn face(&self, bold: bool) -> &'a Face {
        if bold {
            &self.faces.bold
        } else {
            &self.faces.regular
        }
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// Text at (x, y); returns its width.
    pub(super) fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, text: &str) -> f32 {
        let text = self.face(bold).drawable(text);
        let width = self.face(bold).width(&text, size);
        if !text.trim().is_empty() {
            self.ops().push(Op::Text {
                x,
                y,
                size,
                bold,
                text,
            });
        }
        width
    }

    /// Text ending at `right`.
    pub(super) fn text_right(&mut self, right: f32, y: f32, size: f32, bold: bool, text: &str) {
        let text = self.face(bold).drawable(text);
        let width = self.face(bold).width(&text, size);
        self.text(right - width, y, size, bold, &text);
    }

    /// Text in `width`: smaller, down to four fifths of `size`, when it is
    /// wider; cut with an ellipsis only when it fits at no such size.
    pub(super) fn text_fit(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        text: &str,
        width: f32,
    ) {
        let (size, fitted) = shrink_line(self.face(bold), text, size, size * 0.8, width);
        self.text(x, y, size, bold, &fitted);
    }

    pub(super) fn rule(&mut self, x: f32, y: f32, w: f32, thickness: f32, grey: u8) {
        self.ops().push(Op::Rects {
            rects: vec![[x, y, w, thickness]],
            grey,
        });
    }

    pub(super) fn wrap(
        &self,
        text: &str,
        size: f32,
        bold: bool,
        width: f32,
        max_lines: usize,
    ) -> Vec<String> {
        wrap(self.face(bold), text, size, width, max_lines)
    }

    /// Makes room for `height` below the cursor, starting a page if needed.
    pub(super) fn need(&mut self, height: f32) {
        if self.y + height > BODY_BOTTOM - self.raise {
            self.pages.push(Vec::new());
            self.running_head();
            if self.in_table {
                self.table_head();
            }
        }
    }

    /// The sheet with `heading` as its continuation pages' title.
    pub(super) fn headed(mut self, heading: &str) -> Sheet<'a> {
        self.heading = Some(heading.to_string());
        self
    }

    fn title_text(&self) -> String {
        if let Some(heading) = &self.heading {
            return heading.clone();
        }
        if self.draft {
            return self.t("Invoice draft", "Rechnungsentwurf").to_string();
        }
        let word = if self.doc.type_code.is_credit() {
            self.t("Credit note", "Rechnungskorrektur")
        } else {
            self.t("Invoice", "Rechnung")
        };
        format!("{word} {}", self.doc.number)
    }

    /// The head of a continuation page: the seller and the document.
    fn running_head(&mut self) {
        let name = self.doc.seller.name.clone();
        let title = self.title_text();
        let half = (RIGHT - LEFT) / 2.0 - 6.0;
        self.text_fit(LEFT, mm(18.0), 9.0, true, &name, half);
        let title = fit(self.face(false), &title, 9.0, half);
        self.text_right(RIGHT, mm(18.0), 9.0, false, &title);
        self.rule(LEFT, mm(21.0), RIGHT - LEFT, 0.5, 160);
        self.y = BODY_TOP;
    }

    /// The seller's name and address, top left, and its contact, top
    /// right: the contact at the largest size from 8 pt down to 6.5 pt at
    /// which it fits 58 mm, wider when a value needs it (up to half the
    /// line); the name beside it between words in up to three lines, from
    /// 15 pt down to 10 pt; the address below in up to two lines, broken
    /// between its parts, from 8.5 pt down to 7 pt.
    pub(super) fn letterhead(&mut self) {
        let seller = &self.doc.seller;
        let face = self.face(false);
        let c = &seller.contact;
        let contact: Vec<String> = [c.name.as_deref(), c.phone.as_deref(), c.email.as_deref()]
            .into_iter()
            .flatten()
            .map(|v| face.drawable(v))
            .collect();
        let widest = |size: f32| {
            contact
                .iter()
                .map(|v| face.width(v, size))
                .fold(0.0f32, f32::max)
        };
        let size = sizes(8.0, 6.5)
            .find(|s| widest(*s) <= CONTACT_WIDTH)
            .unwrap_or(6.5);
        let room = widest(size).clamp(CONTACT_WIDTH, (RIGHT - LEFT) / 2.0);
        let mut y = mm(15.0);
        let mut contact_bottom = 0.0f32;
        for value in &contact {
            let (size, value) = shrink_line(face, value, size, 5.0, room);
            self.text_right(RIGHT, y, size, false, &value);
            contact_bottom = y;
            y += size * 1.25;
        }
        let width = RIGHT - LEFT - room - mm(4.0);
        let (size, name) = shrink_words(self.face(true), &seller.name, 15.0, 10.0, width, 3);
        let mut y = mm(18.0);
        for line in &name {
            self.text(LEFT, y, size, true, line);
            y += size * 17.0 / 15.0;
        }
        // Below the contact the address takes the whole line.
        let y = y - 2.0;
        let width = if y - 8.5 > contact_bottom + 2.0 {
            RIGHT - LEFT
        } else {
            width
        };
        let parts = address_parts(seller, self.lang, true);
        let (size, lines) = shrink_parts(face, &parts, " · ", 8.5, 7.0, width, 2);
        for (i, line) in lines.iter().enumerate() {
            self.text(LEFT, y + 10.0 * i as f32, size, false, line);
        }
    }

    /// The buyer's address in the window of a DIN 5008 form B letter (45 mm
    /// from the top, 20 mm from the left, 85 × 45 mm), under the seller's
    /// return line.
    /// The return line (its country only for a buyer abroad, as a letter
    /// is addressed) is broken between its parts into up to three lines
    /// (the last on the rule) at the largest size from 6.5 pt down to 5 pt
    /// that holds it; the address takes up to six lines of 10 pt, each
    /// of its parts broken between words, and more lines of a size down to
    /// 8 pt when it needs them.
    pub(super) fn address_window(&mut self) {
        let width = mm(80.0);
        let face = self.face(false);
        let seller = &self.doc.seller;
        let abroad = self.doc.buyer.address.country != seller.address.country;
        let mut back = vec![seller.name.clone()];
        back.extend(address_parts(seller, self.lang, abroad));
        let (size, back) = shrink_parts(face, &back, " · ", 6.5, 5.0, width, 3);
        let mut y = mm(59.5) - size * 1.15 * (back.len().max(1) - 1) as f32;
        let mut w = 0.0f32;
        for line in &back {
            w = w.max(self.text(LEFT, y, size, false, line));
            y += size * 1.15;
        }
        self.rule(LEFT, mm(60.3), w.min(width), 0.3, 0);
        let buyer = &self.doc.buyer;
        let mut parts = vec![buyer.name.clone()];
        parts.extend(buyer.address.street.clone());
        let city = [
            buyer.address.postal_code.as_deref(),
            buyer.address.city.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
        if !city.is_empty() {
            parts.push(city);
        }
        if buyer.address.country != self.doc.seller.address.country {
            parts.push(countries::name(&buyer.address.country, self.lang).to_uppercase());
        }
        // Six lines of 10 pt, 12 pt apart.
        let height = 6.0 * 12.0;
        let fitted = sizes(10.0, 8.0).find_map(|size| {
            let lead = size * 1.2;
            let most = ((height + 0.01) / lead) as usize;
            let mut lines = Vec::new();
            for part in &parts {
                lines.extend(words(face, part, size, width, most)?);
            }
            (lines.len() <= most).then_some((size, lead, lines))
        });
        let (size, lead, lines) = fitted.unwrap_or_else(|| {
            // What fits at no size: each part in at most two lines, cut.
            let lines = parts
                .iter()
                .flat_map(|p| wrap(face, p, 8.0, width, 2))
                .take(7)
                .collect();
            (8.0, 9.6, lines)
        });
        let mut y = mm(66.5);
        for line in &lines {
            self.text(LEFT, y, size, false, line);
            y += lead;
        }
    }

    /// Number, dates and references, right of the address window.
    fn particulars(&mut self) {
        let doc = self.doc;
        let lang = self.lang;
        let mut rows: Vec<(&str, String)> = Vec::new();
        let number_label = if doc.type_code.is_credit() {
            self.t("Credit note number", "Korrekturnummer")
        } else {
            self.t("Invoice number", "Rechnungsnummer")
        };
        let number = if self.draft {
            self.t("given at issue", "bei Ausstellung").to_string()
        } else {
            doc.number.clone()
        };
        rows.push((number_label, number));
        rows.push((self.t("Date", "Datum"), locale::date(lang, doc.issued_on)));
        if let Some(day) = doc.delivered_on {
            rows.push((
                self.t("Delivery date", "Lieferdatum"),
                locale::date(lang, day),
            ));
        }
        if let Some(period) = doc.period {
            let end = |day: Option<jiff::civil::Date>| day.map(|d| locale::date(lang, d));
            rows.push((
                self.t("Service period", "Leistungszeitraum"),
                format!(
                    "{} – {}",
                    end(period.from).unwrap_or_default(),
                    end(period.to).unwrap_or_default()
                ),
            ));
        }
        if let Some(due) = doc.due_on {
            if doc.type_code == TypeCode::Invoice {
                rows.push((self.t("Due date", "Fällig am"), locale::date(lang, due)));
            }
        }
        if let Some(r) = &doc.buyer_reference {
            rows.push((self.t("Your reference", "Ihre Referenz"), r.clone()));
        }
        if let Some(r) = &doc.order_reference {
            rows.push((self.t("Your order", "Ihre Bestellung"), r.clone()));
        }
        if let Some(v) = &doc.buyer.vat_id {
            rows.push((self.t("Your VAT ID", "Ihre USt-IdNr."), v.clone()));
        }
        let label_x = mm(112.0);
        let value_x = mm(146.0);
        let width = RIGHT - value_x;
        let mut y = mm(52.0);
        for (label, value) in rows {
            let (size, lines) = shrink_words(self.face(false), &value, 8.5, 7.0, width, 2);
            if y + 10.0 * lines.len() as f32 > mm(98.0) {
                break;
            }
            self.text_fit(label_x, y, 8.5, false, label, value_x - label_x - 4.0);
            for line in lines {
                self.text(value_x, y, size, false, &line);
                y += 10.0;
            }
        }
    }

    fn title(&mut self, has_xml: bool) {
        let title = self.title_text();
        let mut y = mm(107.0);
        for line in self.wrap(&title, 14.0, true, RIGHT - LEFT, 2) {
            self.text(LEFT, y, 14.0, true, &line);
            y += 17.0;
        }
        if let (TypeCode::CreditNote, Some(p)) = (self.doc.type_code, &self.doc.preceding) {
            let text = match (self.lang, p.issued_on) {
                (Lang::De, Some(day)) => format!(
                    "zu Rechnung {} vom {}",
                    p.number,
                    locale::date(self.lang, day)
                ),
                (Lang::De, None) => format!("zu Rechnung {}", p.number),
                (Lang::En, Some(day)) => format!(
                    "for invoice {} of {}",
                    p.number,
                    locale::date(self.lang, day)
                ),
                (Lang::En, None) => format!("for invoice {}", p.number),
            };
            self.text_fit(LEFT, y - 3.0, 10.0, false, &text, RIGHT - LEFT);
            y += 12.0;
        }
        if self.draft {
            let text = self.t(
                "DRAFT – not an invoice. The invoice number is given only when it is issued.",
                "ENTWURF – keine Rechnung. Die Rechnungsnummer wird erst bei der Ausstellung vergeben.",
            );
            for line in self.wrap(text, TEXT, true, RIGHT - LEFT, 3) {
                self.text(LEFT, y - 3.0, TEXT, true, &line);
                y += 12.0;
            }
        } else if !has_xml {
            let text = self.t(
                "This invoice is not an EN 16931 e-invoice.",
                "Diese Rechnung ist keine E-Rechnung nach EN 16931.",
            );
            self.text(LEFT, y - 3.0, TEXT, false, text);
            y += 12.0;
        }
        self.y = y + 4.0;
    }

    fn table_head(&mut self) {
        let y = self.y + TEXT;
        let currency = self.doc.currency.clone();
        self.text(LEFT, y, 8.0, true, self.t("No.", "Pos."));
        self.text(
            COL_DESC,
            y,
            8.0,
            true,
            self.t("Description", "Beschreibung"),
        );
        self.text_right(COL_QTY_RIGHT, y, 8.0, true, self.t("Quantity", "Menge"));
        self.text(COL_UNIT, y, 8.0, true, self.t("Unit", "Einheit"));
        let price = format!("{} {currency}", self.t("Unit price", "Einzelpreis"));
        self.text_right(COL_PRICE_RIGHT, y, 8.0, true, &price);
        let rate = self.t("VAT", "USt").to_string();
        self.text_right(COL_RATE_RIGHT, y, 8.0, true, &rate);
        let net = format!("{} {currency}", self.t("Net", "Netto"));
        self.text_right(COL_NET_RIGHT, y, 8.0, true, &net);
        self.rule(LEFT, y + 3.5, RIGHT - LEFT, 0.6, 0);
        self.y = y + 3.5 + 4.0;
    }

    fn lines_table(&mut self) {
        self.need(40.0);
        self.table_head();
        self.in_table = true;
        let exponent = self.doc.exponent;
        for (n, line) in self.doc.lines.iter().enumerate() {
            let desc = self.wrap(&line.name, TEXT, false, DESC_WIDTH, DESC_MAX_LINES);
            let height = LEAD * desc.len().max(1) as f32 + 2.0;
            self.need(height);
            let y = self.y + TEXT;
            self.text_right(COL_POS_RIGHT, y, TEXT, false, &(n + 1).to_string());
            for (i, text) in desc.iter().enumerate() {
                self.text(COL_DESC, y + LEAD * i as f32, TEXT, false, text);
            }
            let quantity = locale::decimal(self.lang, &line.quantity);
            self.text_right(COL_QTY_RIGHT, y, TEXT, false, &quantity);
            let unit = units::name(&line.unit, self.lang);
            self.text_fit(COL_UNIT, y, TEXT, false, unit, UNIT_WIDTH);
            let price = match line.price.to_minor(exponent) {
                Some(minor) => locale::number(self.lang, minor, exponent),
                None => locale::decimal(self.lang, &line.price),
            };
            self.text_right(COL_PRICE_RIGHT, y, TEXT, false, &price);
            let rate = line_rate(&line.category, &line.rate.to_string(), self.lang);
            self.text_right(COL_RATE_RIGHT, y, TEXT, false, &rate);
            let net = locale::number(self.lang, line.net, exponent);
            self.text_right(COL_NET_RIGHT, y, TEXT, false, &net);
            self.y += height;
        }
        self.in_table = false;
        self.rule(LEFT, self.y + 1.0, RIGHT - LEFT, 0.4, 0);
        self.y += 8.0;
    }

    /// One row per (category, rate), with the reason of an exemption.
    fn breakdown(&mut self) {
        let rows: Vec<(String, Vec<String>, &Breakdown)> = self
            .doc
            .breakdown
            .iter()
            .map(|b| {
                let label = self.category_label(b);
                let reason = match (&b.reason, &b.reason_code) {
                    (Some(r), Some(c)) => format!("{r} ({c})"),
                    (Some(r), None) => r.clone(),
                    (None, Some(c)) => c.clone(),
                    (None, None) => String::new(),
                };
                let reason = if reason.is_empty() {
                    Vec::new()
                } else {
                    let text = format!("{}: {reason}", self.t("Reason", "Grund"));
                    self.wrap(&text, 8.0, false, RIGHT - LEFT - 80.0, 4)
                };
                (label, reason, b)
            })
            .collect();
        let height: f32 = 14.0
            + rows
                .iter()
                .map(|(_, r, _)| LEAD + 9.5 * r.len() as f32)
                .sum::<f32>();
        self.need(height.min(BODY_BOTTOM - self.raise - BODY_TOP));
        let y = self.y + 8.0;
        let heading = self.t("VAT breakdown", "Umsatzsteuer").to_string();
        self.text(LEFT, y, 8.0, true, &heading);
        self.text_right(RIGHT - 160.0, y, 8.0, true, self.t("Rate", "Satz"));
        self.text_right(RIGHT - 80.0, y, 8.0, true, self.t("Net", "Netto"));
        let tax = self.t("Tax", "Steuer").to_string();
        self.text_right(COL_NET_RIGHT, y, 8.0, true, &tax);
        self.y = y + 4.0;
        for (label, reason, b) in rows {
            self.need(LEAD + 9.5 * reason.len() as f32);
            let y = self.y + TEXT;
            self.text_fit(LEFT, y, TEXT, false, &label, RIGHT - 200.0 - LEFT);
            let rate = format!("{} %", locale::decimal(self.lang, &b.rate));
            let rate = if self.lang == Lang::En {
                rate.replace(" %", "%")
            } else {
                rate
            };
            self.text_right(RIGHT - 160.0, y, TEXT, false, &rate);
            let base = self.money(b.base);
            self.text_right(RIGHT - 80.0, y, TEXT, false, &base);
            let amount = self.money(b.amount);
            self.text_right(COL_NET_RIGHT, y, TEXT, false, &amount);
            self.y += LEAD;
            for line in reason {
                self.text(LEFT, self.y + 7.0, 8.0, false, &line);
                self.y += 9.5;
            }
        }
        self.y += 6.0;
    }

    fn category_label(&self, b: &Breakdown) -> String {
        let tax = match self.lang {
            Lang::De => jurisdiction::tax_name(&self.doc.seller.address.country),
            Lang::En => "VAT",
        };
        let word = match &b.category {
            Category::S => self.t("standard rate", "Normalsatz"),
            Category::Z => self.t("zero rated", "Nullsatz"),
            Category::E => self.t("exempt", "steuerfrei"),
            Category::AE => self.t(
                "reverse charge",
                "Steuerschuldnerschaft des Leistungsempfängers",
            ),
            Category::K => self.t("intra-community supply", "innergemeinschaftliche Lieferung"),
            Category::G => self.t("export outside the EU", "Ausfuhrlieferung"),
            Category::O => self.t("outside the scope of VAT", "nicht steuerbar"),
            Category::L => "IGIC",
            Category::M => "IPSI",
            Category::B => self.t("split payment", "Split Payment"),
            // Only a received document carries one; kontor writes none.
            Category::Unlisted(_) => self.t(
                "category not on EN 16931's list",
                "Kategorie außerhalb der EN 16931",
            ),
        };
        if matches!(b.category, Category::S) && !b.rate.is_zero() {
            // The rate stands in its own column; reduced rates are not named.
            format!("{tax} ({})", b.category.code())
        } else {
            format!("{tax}: {word} ({})", b.category.code())
        }
    }

    pub(super) fn money(&self, minor: i64) -> String {
        money(self.doc, minor, self.lang)
    }

    fn totals(&mut self) {
        let doc = self.doc;
        let mut rows: Vec<(String, String, bool)> = Vec::new();
        rows.push((
            self.t("Total net", "Summe netto").into(),
            self.money(doc.net),
            false,
        ));
        let tax = match self.lang {
            Lang::De => jurisdiction::tax_name(&doc.seller.address.country),
            Lang::En => "VAT",
        };
        rows.push((
            format!("{} {tax}", self.t("Total", "Summe")),
            self.money(doc.tax),
            false,
        ));
        rows.push((
            self.t("Total amount", "Gesamtbetrag").into(),
            self.money(doc.gross),
            true,
        ));
        if doc.paid != 0 {
            rows.push((
                self.t("Paid", "Bereits gezahlt").into(),
                self.money(doc.paid),
                false,
            ));
        }
        let due_label = if doc.type_code.is_credit() {
            self.t("Amount credited", "Korrekturbetrag")
        } else {
            self.t("Amount due", "Zu zahlen")
        };
        rows.push((due_label.into(), self.money(doc.due), true));
        if let Some(acc) = &doc.accounting_tax {
            rows.push((
                format!("{tax} {} {}", self.t("in", "in"), acc.currency),
                money_in(&acc.currency, acc.exponent, acc.amount, self.lang),
                false,
            ));
        }
        self.need(LEAD * rows.len() as f32 + 8.0);
        let label_right = RIGHT - mm(35.0);
        for (label, value, bold) in rows {
            let y = self.y + TEXT;
            let label = fit(self.face(bold), &label, TEXT, mm(70.0));
            self.text_right(label_right, y, TEXT, bold, &label);
            self.text_right(RIGHT, y, TEXT, bold, &value);
            self.y += LEAD;
        }
        self.y += 8.0;
    }

    fn notes(&mut self) {
        for note in &self.doc.notes {
            // The registration note repeats the footer's particulars.
            if note.subject.as_deref() == Some("REG") {
                continue;
            }
            for line in self.wrap(&note.text, TEXT, false, RIGHT - LEFT, 20) {
                self.need(LEAD);
                self.text(LEFT, self.y + TEXT, TEXT, false, &line);
                self.y += LEAD;
            }
            self.y += 4.0;
        }
    }

    /// The payment sentence, the bank details and the EPC QR code.
    pub(super) fn payment(&mut self) {
        let doc = self.doc;
        // A draft is not paid: no QR code, no payment reference.
        let qr = epc_payload(doc)
            .filter(|_| !self.draft)
            .and_then(|p| qr_modules(&p));
        let width = if qr.is_some() {
            RIGHT - LEFT - QR_SIZE - mm(8.0)
        } else {
            RIGHT - LEFT
        };
        let mut lines: Vec<(String, bool)> = Vec::new();
        if let Some(terms) = &doc.payment_terms {
            for l in self.wrap(terms, TEXT, false, width, 6) {
                lines.push((l, false));
            }
        }
        if let (TypeCode::Invoice, Some(t)) = (doc.type_code, &doc.transfer) {
            lines.push((String::new(), false));
            lines.push((self.t("Bank details", "Bankverbindung").into(), true));
            let holder = t.account_holder.as_deref().unwrap_or(&doc.seller.name);
            let holder = format!("{}: {holder}", self.t("Account holder", "Kontoinhaber"));
            lines.extend(
                self.wrap(&holder, TEXT, false, width, 2)
                    .into_iter()
                    .map(|l| (l, false)),
            );
            lines.push((format!("IBAN: {}", in_fours(&t.iban)), false));
            if let Some(bic) = &t.bic {
                lines.push((format!("BIC: {bic}"), false));
            }
            if !self.draft {
                let reference = match doc.creditor_reference() {
                    Some(rf) => in_fours(rf),
                    None => doc.remittance().to_string(),
                };
                let purpose = format!(
                    "{}: {reference}",
                    self.t("Payment reference", "Verwendungszweck")
                );
                lines.extend(
                    self.wrap(&purpose, TEXT, false, width, 2)
                        .into_iter()
                        .map(|l| (l, false)),
                );
            }
        }
        let text_height = LEAD * lines.len() as f32;
        let qr_height = if qr.is_some() {
            QR_SIZE + QR_CAPTION + 4.0
        } else {
            0.0
        };
        self.need(text_height.max(qr_height) + 4.0);
        let top = self.y;
        for (line, bold) in &lines {
            self.text(LEFT, self.y + TEXT, TEXT, *bold, line);
            self.y += LEAD;
        }
        if let Some((count, dark)) = qr {
            let x0 = RIGHT - QR_SIZE;
            let module = QR_SIZE / (count + 8) as f32;
            self.ops().push(Op::Qr {
                x: x0 + 4.0 * module,
                y: top + 4.0 * module,
                module,
                rects: qr_rects(count, &dark),
            });
            let caption = self.t("Scan to pay", "Mit Banking-App scannen").to_string();
            // Under the code's middle, or ending at the margin when wider.
            let w = self.face(false).width(&caption, 7.5);
            let x = (x0 + (QR_SIZE - w) / 2.0).min(RIGHT - w);
            self.text(x, top + QR_SIZE + 6.0, 7.5, false, &caption);
        }
        self.y = self.y.max(top + qr_height);
    }

    /// The footer and page numbers on every page.
    pub(super) fn finish(mut self) -> Vec<Vec<Op>> {
        let footer = std::mem::take(&mut self.footer);
        let raise = self.raise;
        let pages = std::mem::take(&mut self.pages);
        let total = pages.len();
        let mut done = Vec::with_capacity(total);
        for (n, mut ops) in pages.into_iter().enumerate() {
            if self.draft {
                // Under everything else, so the page stays readable.
                ops.insert(
                    0,
                    Op::Mark {
                        x: LEFT + mm(10.0),
                        y: PAGE_H - mm(75.0),
                        size: 56.0,
                        text: self.face(true).drawable(DRAFT_MARK),
                    },
                );
            }
            self.pages = vec![ops];
            let label = match self.lang {
                Lang::De => format!("Seite {} von {total}", n + 1),
                Lang::En => format!("Page {} of {total}", n + 1),
            };
            self.text_right(RIGHT, PAGE_NUMBER_Y - raise, 7.5, false, &label);
            self.rule(LEFT, FOOTER_RULE_Y - raise, RIGHT - LEFT, 0.4, 120);
            for (x, first, lines) in &footer.columns {
                for (j, line) in lines.iter().enumerate() {
                    let y = FOOTER_TOP - raise + footer.lead * (first + j) as f32;
                    self.text(*x, y, footer.size, false, line);
                }
            }
            done.append(&mut self.pages);
        }
        done
    }

    /// The seller's particulars (§14 Abs. 4 UStG, §35a GmbHG) in up to four
    /// columns: address, registration and management, tax ids, contact.
    fn footer_columns(&self) -> Vec<Vec<String>> {
        let s = &self.doc.seller;
        let mut address = vec![s.name.clone()];
        address.extend(s.address.street.clone());
        let city = [s.address.postal_code.as_deref(), s.address.city.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        if !city.is_empty() {
            address.push(city);
        }
        address.push(countries::name(&s.address.country, self.lang).to_string());
        let mut legal = Vec::new();
        if let Some(r) = &s.registration {
            legal.push(r.clone());
        }
        if let Some(info) = &s.legal_info {
            legal.extend(
                info.split(';')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty()),
            );
        }
        let mut tax = Vec::new();
        if let Some(v) = &s.vat_id {
            tax.push(format!("{} {v}", self.t("VAT ID", "USt-IdNr.")));
        }
        if let Some(n) = &s.tax_number {
            tax.push(format!("{} {n}", self.t("Tax number", "Steuernummer")));
        }
        if let Some(e) = &s.electronic_address {
            tax.push(format!(
                "{}: {}",
                self.t("E-invoices", "E-Rechnung"),
                e.value
            ));
        }
        let mut contact = Vec::new();
        let c = &s.contact;
        if let Some(n) = &c.name {
            contact.push(n.clone());
        }
        if let Some(p) = &c.phone {
            contact.push(format!("{} {p}", self.t("Phone", "Tel.")));
        }
        if let Some(e) = &c.email {
            contact.push(e.clone());
        }
        [address, legal, tax, contact]
            .into_iter()
            .filter(|c| !c.is_empty())
            .collect()
    }
}

/// The parts of an address on one line: street, postal code and city, and
/// the country when `country`.
fn address_parts(party: &Party, lang: Lang, country: bool) -> Vec<String> {
    let a = &party.address;
    let city = [a.postal_code.as_deref(), a.city.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    [a.street.clone(), (!city.is_empty()).then_some(city)]
        .into_iter()
        .flatten()
        .chain(country.then(|| countries::name(&a.country, lang).to_string()))
        .collect()
}
