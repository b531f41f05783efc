//! The `facturx` document: the PDF/A-3b invoice a person reads, with the
//! `cii` document embedded as `factur-x.xml` (AFRelationship Alternative)
//! and the Factur-X XMP extension schema (profile EN 16931). Without XML
//! (a currency with more than two decimals, or a document EN 16931 cannot
//! carry) it is a plain PDF/A-3b that says it is no EN 16931 e-invoice.
//!
//! The page: letterhead, the buyer's address in the window of a DIN 5008
//! form B letter, the invoice's particulars, the lines (paginated, the
//! table head repeated, "Seite x von y"), the VAT breakdown with exemption
//! reasons, the totals, the payment sentence and bank details with an EPC
//! QR code (GiroCode) for a EUR invoice, and the seller's §14 UStG / §35a
//! GmbHG particulars in the footer of every page. German for a seller in a
//! German-speaking country, English otherwise; amounts and dates come from
//! `rules::locale`.
//!
//! krilla lays out the pages, subsets and embeds DejaVu Sans and checks
//! PDF/A-3b as it writes; since it cannot write the Factur-X extension
//! schema, lopdf then puts it into krilla's XMP packet. The output depends
//! on the document alone (dates come from the issue date, never the clock),
//! so the same invoice gives the same bytes. Coordinates are `f32` points;
//! amounts stay integers until `rules::locale` writes them.

use std::sync::OnceLock;

use jiff::civil::Date;
use krilla::color::rgb;
use krilla::configure::{Archival, ConfigurationBuilder, PdfVersion, Validator};
use krilla::embed::{AssociationKind, EmbeddedFile, MimeType};
use krilla::geom::{PathBuilder, Point, Rect, Transform};
use krilla::metadata::{DateTime, Metadata};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::SerializeSettings;
use skrifa::instance::{LocationRef, Size};
use skrifa::MetadataProvider;

use super::{Breakdown, Category, Document, TypeCode};
use crate::rules::countries;
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::locale::{self, Lang};
use crate::rules::units;

/// The name the embedded CII carries, as Factur-X requires.
pub const XML_NAME: &str = "factur-x.xml";
/// The namespace of the Factur-X XMP properties (Factur-X 1.0).
const FX_NAMESPACE: &str = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
/// `fx:ConformanceLevel` of an EN 16931 (comfort) Factur-X.
const FX_CONFORMANCE: &str = "EN 16931";

/// Writes the PDF of `doc`, embedding `cii` (the `cii` document's bytes,
/// unchanged) when given, in the seller country's language.
///
/// Fails when krilla refuses the document (a PDF/A rule it checks) or the
/// written PDF cannot be read back to set its metadata; neither happens for
/// a document the verdict accepts, whatever its texts hold: long texts wrap
/// or end in an ellipsis, characters the font lacks are drawn as "�".
pub fn write(doc: &Document, cii: Option<&[u8]>) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let lang = Lang::of_seller(&doc.seller.address.country);
    let pages = Sheet::lay_out(doc, cii.is_some(), false, lang, faces);
    let pdf = render(doc, cii, &doc.number, lang, faces, &pages)?;
    with_xmp(&pdf, cii.is_some())
}

/// Writes the preview of a draft: the page `write` would lay out for `doc`,
/// but titled as a draft, without a number (`doc.number` is not shown),
/// the payment reference or the EPC QR code, with "ENTWURF / DRAFT" across
/// every page, and as a plain PDF/A-3b: no XML embedded and no Factur-X
/// metadata, so no program takes it for an e-invoice.
///
/// Fails as `write` does.
pub fn write_draft(doc: &Document) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let lang = Lang::of_seller(&doc.seller.address.country);
    let pages = Sheet::lay_out(doc, false, true, lang, faces);
    let title = lang.pick("Invoice draft", "Rechnungsentwurf");
    let pdf = render(doc, None, title, lang, faces, &pages)?;
    with_xmp(&pdf, false)
}

/// The words across every page of a draft's preview.
pub const DRAFT_MARK: &str = "ENTWURF / DRAFT";

// -- the font ------------------------------------------------------------------

/// DejaVu Sans, regular and bold, with the tables to measure text.
struct Faces {
    regular: Face,
    bold: Face,
}

struct Face {
    font: Font,
    charmap: skrifa::charmap::Charmap<'static>,
    metrics: skrifa::metrics::GlyphMetrics<'static>,
    units_per_em: f32,
}

impl Face {
    fn new(data: &'static [u8]) -> Option<Face> {
        let font_ref = skrifa::FontRef::new(data).ok()?;
        let metrics = font_ref.glyph_metrics(Size::unscaled(), LocationRef::default());
        Some(Face {
            font: Font::new(data.into(), 0)?,
            charmap: font_ref.charmap(),
            units_per_em: f32::from(
                font_ref
                    .metrics(Size::unscaled(), LocationRef::default())
                    .units_per_em,
            ),
            metrics,
        })
    }

    /// The glyph of `c`, if the font has one (never .notdef).
    fn glyph(&self, c: char) -> Option<skrifa::GlyphId> {
        self.charmap.map(c).filter(|g| g.to_u32() != 0)
    }

    /// The advance of `c` at size 1 (the character must have a glyph).
    fn advance(&self, c: char) -> f32 {
        self.glyph(c)
            .and_then(|g| self.metrics.advance_width(g))
            .map_or(0.0, |w| w / self.units_per_em)
    }

    fn width(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.advance(c)).sum::<f32>() * size
    }

    /// `text` with what cannot be drawn replaced: controls become spaces,
    /// private-use and unknown characters "�" (or "?").
    fn drawable(&self, text: &str) -> String {
        text.chars()
            .map(|c| {
                if c.is_control() {
                    ' '
                } else if is_private_use(c) || self.glyph(c).is_none() {
                    if self.glyph('\u{FFFD}').is_some() {
                        '\u{FFFD}'
                    } else {
                        '?'
                    }
                } else {
                    c
                }
            })
            .collect()
    }
}

fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

fn faces() -> Option<&'static Faces> {
    static FACES: OnceLock<Option<Faces>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            Some(Faces {
                regular: Face::new(dejavu::sans::regular())?,
                bold: Face::new(dejavu::sans::bold())?,
            })
        })
        .as_ref()
}

// -- the page as a list of drawing operations ------------------------------------

const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;

const fn mm(v: f32) -> f32 {
    v * 72.0 / 25.4
}

const LEFT: f32 = mm(25.0);
const RIGHT: f32 = PAGE_W - mm(20.0);
/// Where a continuation page's body starts.
const BODY_TOP: f32 = mm(32.0);
/// Below this the footer begins.
const BODY_BOTTOM: f32 = PAGE_H - mm(38.0);
const PAGE_NUMBER_Y: f32 = PAGE_H - mm(33.0);
const FOOTER_RULE_Y: f32 = PAGE_H - mm(30.0);
const FOOTER_TOP: f32 = PAGE_H - mm(26.5);
const FOOTER_SIZE: f32 = 7.0;
const FOOTER_LEAD: f32 = 8.4;
const FOOTER_LINES: usize = 6;

const TEXT: f32 = 9.0;
const LEAD: f32 = 11.5;

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

enum Op {
    /// Text with its baseline starting at (x, y).
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        text: String,
    },
    /// Filled rectangles (x, y, w, h) in one grey (0 black, 255 white).
    Rects { rects: Vec<[f32; 4]>, grey: u8 },
    /// Large light text across the page, rising at 35° from (x, y).
    Mark {
        x: f32,
        y: f32,
        size: f32,
        text: String,
    },
    /// A QR code's dark modules as rectangles in module units, from (x, y).
    Qr {
        x: f32,
        y: f32,
        module: f32,
        rects: Vec<[u16; 4]>,
    },
}

/// Lays the document out into pages of operations.
struct Sheet<'a> {
    doc: &'a Document,
    lang: Lang,
    faces: &'a Faces,
    pages: Vec<Vec<Op>>,
    y: f32,
    /// Whether a new page repeats the lines table's head.
    in_table: bool,
    /// A draft's preview: no number, no payment reference, marked as a draft.
    draft: bool,
}

impl<'a> Sheet<'a> {
    fn lay_out(
        doc: &'a Document,
        has_xml: bool,
        draft: bool,
        lang: Lang,
        faces: &'a Faces,
    ) -> Vec<Vec<Op>> {
        let mut s = Sheet {
            doc,
            lang,
            faces,
            pages: vec![Vec::new()],
            y: 0.0,
            in_table: false,
            draft,
        };
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

    fn t<'b>(&self, de: &'b str, en: &'b str) -> &'b str {
        self.lang.pick(en, de)
    }

    fn face(&self, bold: bool) -> &'a Face {
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
    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, text: &str) -> f32 {
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
    fn text_right(&mut self, right: f32, y: f32, size: f32, bold: bool, text: &str) {
        let text = self.face(bold).drawable(text);
        let width = self.face(bold).width(&text, size);
        self.text(right - width, y, size, bold, &text);
    }

    /// Text cut to `width` with an ellipsis.
    fn text_fit(&mut self, x: f32, y: f32, size: f32, bold: bool, text: &str, width: f32) {
        let fitted = fit(self.face(bold), text, size, width);
        self.text(x, y, size, bold, &fitted);
    }

    fn rule(&mut self, x: f32, y: f32, w: f32, thickness: f32, grey: u8) {
        self.ops().push(Op::Rects {
            rects: vec![[x, y, w, thickness]],
            grey,
        });
    }

    fn wrap(&self, text: &str, size: f32, bold: bool, width: f32, max_lines: usize) -> Vec<String> {
        wrap(self.face(bold), text, size, width, max_lines)
    }

    /// Makes room for `height` below the cursor, starting a page if needed.
    fn need(&mut self, height: f32) {
        if self.y + height > BODY_BOTTOM {
            self.pages.push(Vec::new());
            self.running_head();
            if self.in_table {
                self.table_head();
            }
        }
    }

    fn title_text(&self) -> String {
        if self.draft {
            return self.t("Rechnungsentwurf", "Invoice draft").to_string();
        }
        let word = match self.doc.type_code {
            TypeCode::Invoice => self.t("Rechnung", "Invoice"),
            TypeCode::CreditNote => self.t("Rechnungskorrektur", "Credit note"),
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

    fn letterhead(&mut self) {
        let seller = &self.doc.seller;
        let width = RIGHT - LEFT - mm(60.0);
        let name = self.wrap(&seller.name, 15.0, true, width, 2);
        let mut y = mm(18.0);
        for line in &name {
            self.text(LEFT, y, 15.0, true, line);
            y += 17.0;
        }
        let address = one_line_address(seller, self.lang);
        self.text_fit(LEFT, y - 2.0, 8.5, false, &address, width);
        // Contact, top right.
        let c = &seller.contact;
        let mut y = mm(15.0);
        for value in [c.name.as_deref(), c.phone.as_deref(), c.email.as_deref()]
            .into_iter()
            .flatten()
        {
            let value = fit(self.face(false), value, 8.0, mm(58.0));
            self.text_right(RIGHT, y, 8.0, false, &value);
            y += 10.0;
        }
    }

    /// The buyer's address in the window of a DIN 5008 form B letter (45 mm
    /// from the top, 20 mm from the left, 85 × 45 mm), under the seller's
    /// return line.
    fn address_window(&mut self) {
        let width = mm(80.0);
        let back = one_line_address(&self.doc.seller, self.lang);
        let back = format!("{} · {back}", self.doc.seller.name);
        let back = fit(self.face(false), &back, 6.5, width);
        let w = self.text(LEFT, mm(59.5), 6.5, false, &back);
        self.rule(LEFT, mm(60.3), w.min(width), 0.3, 0);
        let buyer = &self.doc.buyer;
        let mut lines = self.wrap(&buyer.name, 10.0, false, width, 2);
        if let Some(street) = &buyer.address.street {
            lines.extend(self.wrap(street, 10.0, false, width, 1));
        }
        let city = [
            buyer.address.postal_code.as_deref(),
            buyer.address.city.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
        if !city.is_empty() {
            lines.extend(self.wrap(&city, 10.0, false, width, 1));
        }
        if buyer.address.country != self.doc.seller.address.country {
            lines.push(countries::name(&buyer.address.country, self.lang).to_uppercase());
        }
        let mut y = mm(66.5);
        for line in lines.iter().take(6) {
            self.text(LEFT, y, 10.0, false, line);
            y += 12.0;
        }
    }

    /// Number, dates and references, right of the address window.
    fn particulars(&mut self) {
        let doc = self.doc;
        let lang = self.lang;
        let mut rows: Vec<(&str, String)> = Vec::new();
        let number_label = match doc.type_code {
            TypeCode::Invoice => self.t("Rechnungsnummer", "Invoice number"),
            TypeCode::CreditNote => self.t("Korrekturnummer", "Credit note number"),
        };
        let number = if self.draft {
            self.t("bei Ausstellung", "given at issue").to_string()
        } else {
            doc.number.clone()
        };
        rows.push((number_label, number));
        rows.push((self.t("Datum", "Date"), locale::date(lang, doc.issued_on)));
        if let Some(day) = doc.delivered_on {
            rows.push((
                self.t("Lieferdatum", "Delivery date"),
                locale::date(lang, day),
            ));
        }
        if let Some((from, to)) = doc.period {
            rows.push((
                self.t("Leistungszeitraum", "Service period"),
                format!("{} – {}", locale::date(lang, from), locale::date(lang, to)),
            ));
        }
        if let Some(due) = doc.due_on {
            if doc.type_code == TypeCode::Invoice {
                rows.push((self.t("Fällig am", "Due date"), locale::date(lang, due)));
            }
        }
        if let Some(r) = &doc.buyer_reference {
            rows.push((self.t("Ihre Referenz", "Your reference"), r.clone()));
        }
        if let Some(r) = &doc.order_reference {
            rows.push((self.t("Ihre Bestellung", "Your order"), r.clone()));
        }
        if let Some(v) = &doc.buyer.vat_id {
            rows.push((self.t("Ihre USt-IdNr.", "Your VAT ID"), v.clone()));
        }
        let label_x = mm(112.0);
        let value_x = mm(146.0);
        let width = RIGHT - value_x;
        let mut y = mm(52.0);
        for (label, value) in rows {
            let lines = self.wrap(&value, 8.5, false, width, 2);
            if y + 10.0 * lines.len() as f32 > mm(98.0) {
                break;
            }
            self.text_fit(label_x, y, 8.5, false, label, value_x - label_x - 4.0);
            for line in lines {
                self.text(value_x, y, 8.5, false, &line);
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
            let text = match self.lang {
                Lang::De => format!(
                    "zu Rechnung {} vom {}",
                    p.number,
                    locale::date(self.lang, p.issued_on)
                ),
                Lang::En => format!(
                    "for invoice {} of {}",
                    p.number,
                    locale::date(self.lang, p.issued_on)
                ),
            };
            self.text_fit(LEFT, y - 3.0, 10.0, false, &text, RIGHT - LEFT);
            y += 12.0;
        }
        if self.draft {
            let text = self.t(
                "ENTWURF – keine Rechnung. Die Rechnungsnummer wird erst bei der Ausstellung vergeben.",
                "DRAFT – not an invoice. The invoice number is given only when it is issued.",
            );
            for line in self.wrap(text, TEXT, true, RIGHT - LEFT, 3) {
                self.text(LEFT, y - 3.0, TEXT, true, &line);
                y += 12.0;
            }
        } else if !has_xml {
            let text = self.t(
                "Diese Rechnung ist keine E-Rechnung nach EN 16931.",
                "This invoice is not an EN 16931 e-invoice.",
            );
            self.text(LEFT, y - 3.0, TEXT, false, text);
            y += 12.0;
        }
        self.y = y + 4.0;
    }

    fn table_head(&mut self) {
        let y = self.y + TEXT;
        let currency = self.doc.currency.clone();
        self.text(LEFT, y, 8.0, true, self.t("Pos.", "No."));
        self.text(
            COL_DESC,
            y,
            8.0,
            true,
            self.t("Beschreibung", "Description"),
        );
        self.text_right(COL_QTY_RIGHT, y, 8.0, true, self.t("Menge", "Quantity"));
        self.text(COL_UNIT, y, 8.0, true, self.t("Einheit", "Unit"));
        let price = format!("{} {currency}", self.t("Einzelpreis", "Unit price"));
        self.text_right(COL_PRICE_RIGHT, y, 8.0, true, &price);
        let rate = self.t("USt", "VAT").to_string();
        self.text_right(COL_RATE_RIGHT, y, 8.0, true, &rate);
        let net = format!("{} {currency}", self.t("Netto", "Net"));
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
            let price = locale::number(self.lang, line.price, exponent);
            self.text_right(COL_PRICE_RIGHT, y, TEXT, false, &price);
            let rate = line_rate(line.category, &line.rate.to_string(), self.lang);
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
                    let text = format!("{}: {reason}", self.t("Grund", "Reason"));
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
        self.need(height.min(BODY_BOTTOM - BODY_TOP));
        let y = self.y + 8.0;
        let heading = self.t("Umsatzsteuer", "VAT breakdown").to_string();
        self.text(LEFT, y, 8.0, true, &heading);
        self.text_right(RIGHT - 160.0, y, 8.0, true, self.t("Satz", "Rate"));
        self.text_right(RIGHT - 80.0, y, 8.0, true, self.t("Netto", "Net"));
        let tax = self.t("Steuer", "Tax").to_string();
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
        let word = match b.category {
            Category::S => self.t("Normalsatz", "standard rate"),
            Category::Z => self.t("Nullsatz", "zero rated"),
            Category::E => self.t("steuerfrei", "exempt"),
            Category::AE => self.t(
                "Steuerschuldnerschaft des Leistungsempfängers",
                "reverse charge",
            ),
            Category::K => self.t("innergemeinschaftliche Lieferung", "intra-community supply"),
            Category::G => self.t("Ausfuhrlieferung", "export outside the EU"),
            Category::O => self.t("nicht steuerbar", "outside the scope of VAT"),
            Category::L => "IGIC",
            Category::M => "IPSI",
        };
        if matches!(b.category, Category::S) && !b.rate.is_zero() {
            // The rate stands in its own column; reduced rates are not named.
            format!("{tax} ({})", b.category.code())
        } else {
            format!("{tax}: {word} ({})", b.category.code())
        }
    }

    fn money(&self, minor: i64) -> String {
        money(self.doc, minor, self.lang)
    }

    fn totals(&mut self) {
        let doc = self.doc;
        let mut rows: Vec<(String, String, bool)> = Vec::new();
        rows.push((
            self.t("Summe netto", "Total net").into(),
            self.money(doc.net),
            false,
        ));
        let tax = match self.lang {
            Lang::De => jurisdiction::tax_name(&doc.seller.address.country),
            Lang::En => "VAT",
        };
        rows.push((
            format!("{} {tax}", self.t("Summe", "Total")),
            self.money(doc.tax),
            false,
        ));
        rows.push((
            self.t("Gesamtbetrag", "Total amount").into(),
            self.money(doc.gross),
            true,
        ));
        if doc.paid != 0 {
            rows.push((
                self.t("Bereits gezahlt", "Paid").into(),
                self.money(doc.paid),
                false,
            ));
        }
        let due_label = match doc.type_code {
            TypeCode::Invoice => self.t("Zu zahlen", "Amount due"),
            TypeCode::CreditNote => self.t("Korrekturbetrag", "Amount credited"),
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
            if note.subject == Some("REG") {
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
    fn payment(&mut self) {
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
            lines.push((self.t("Bankverbindung", "Bank details").into(), true));
            let holder = t.account_holder.as_deref().unwrap_or(&doc.seller.name);
            let holder = format!("{}: {holder}", self.t("Kontoinhaber", "Account holder"));
            lines.extend(
                self.wrap(&holder, TEXT, false, width, 2)
                    .into_iter()
                    .map(|l| (l, false)),
            );
            lines.push((format!("IBAN: {}", iban_grouped(&t.iban)), false));
            if let Some(bic) = &t.bic {
                lines.push((format!("BIC: {bic}"), false));
            }
            if !self.draft {
                let purpose = format!(
                    "{}: {}",
                    self.t("Verwendungszweck", "Payment reference"),
                    doc.number
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
            let caption = self.t("Mit Banking-App scannen", "Scan to pay").to_string();
            let w = self.face(false).width(&caption, 7.5);
            self.text(
                x0 + (QR_SIZE - w) / 2.0,
                top + QR_SIZE + 6.0,
                7.5,
                false,
                &caption,
            );
        }
        self.y = self.y.max(top + qr_height);
    }

    /// The footer and page numbers on every page.
    fn finish(mut self) -> Vec<Vec<Op>> {
        let columns = self.footer_columns();
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
            self.text_right(RIGHT, PAGE_NUMBER_Y, 7.5, false, &label);
            self.rule(LEFT, FOOTER_RULE_Y, RIGHT - LEFT, 0.4, 120);
            let col_width = (RIGHT - LEFT) / columns.len().max(1) as f32;
            for (i, lines) in columns.iter().enumerate() {
                let x = LEFT + col_width * i as f32;
                for (j, line) in lines.iter().enumerate() {
                    let y = FOOTER_TOP + FOOTER_LEAD * j as f32;
                    self.text(x, y, FOOTER_SIZE, false, line);
                }
            }
            done.append(&mut self.pages);
        }
        done
    }

    /// The seller's particulars (§14 Abs. 4 UStG, §35a GmbHG) in four
    /// columns: address, registration and management, tax ids, contact.
    fn footer_columns(&self) -> Vec<Vec<String>> {
        let s = &self.doc.seller;
        let width = (RIGHT - LEFT) / 4.0 - 6.0;
        let column = |items: Vec<String>| -> Vec<String> {
            let mut lines = Vec::new();
            for item in items {
                let left = FOOTER_LINES.saturating_sub(lines.len());
                if left == 0 {
                    break;
                }
                lines.extend(self.wrap(&item, FOOTER_SIZE, false, width, left));
            }
            lines
        };
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
            tax.push(format!("{} {v}", self.t("USt-IdNr.", "VAT ID")));
        }
        if let Some(n) = &s.tax_number {
            tax.push(format!("{} {n}", self.t("Steuernummer", "Tax number")));
        }
        if let Some(e) = &s.electronic_address {
            tax.push(format!(
                "{}: {}",
                self.t("E-Rechnung", "E-invoices"),
                e.value
            ));
        }
        let mut contact = Vec::new();
        let c = &s.contact;
        if let Some(n) = &c.name {
            contact.push(n.clone());
        }
        if let Some(p) = &c.phone {
            contact.push(format!("{} {p}", self.t("Tel.", "Phone")));
        }
        if let Some(e) = &c.email {
            contact.push(e.clone());
        }
        [address, legal, tax, contact]
            .into_iter()
            .map(column)
            .filter(|c| !c.is_empty())
            .collect()
    }
}

// -- texts ---------------------------------------------------------------------

/// `text` cut to `width` at `size`, ending in "…" when cut.
fn fit(face: &Face, text: &str, size: f32, width: f32) -> String {
    let text = face.drawable(text);
    if face.width(&text, size) <= width {
        return text;
    }
    let ellipsis = face.advance('…') * size;
    let mut out = String::new();
    let mut used = 0.0;
    for c in text.chars() {
        let w = face.advance(c) * size;
        if used + w + ellipsis > width {
            break;
        }
        used += w;
        out.push(c);
    }
    let mut out = out.trim_end().to_string();
    out.push('…');
    out
}

/// `text` broken into lines of at most `width` at `size`, between words
/// where it can and inside a word that is wider than a line; at most
/// `max_lines` (at least one), the last ending in "…" when text is left.
fn wrap(face: &Face, text: &str, size: f32, width: f32, max_lines: usize) -> Vec<String> {
    let text = face.drawable(text);
    let max_lines = max_lines.max(1);
    let space = face.advance(' ') * size;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut used = 0.0f32;
    let mut cut = false;
    'words: for word in text.split_whitespace() {
        let w = face.width(word, size);
        if !line.is_empty() && used + space + w <= width {
            line.push(' ');
            line.push_str(word);
            used += space + w;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            used = 0.0;
            if lines.len() == max_lines {
                cut = true;
                break;
            }
        }
        if w <= width {
            line.push_str(word);
            used = w;
            continue;
        }
        // A word wider than the line: break it between characters.
        for c in word.chars() {
            let cw = face.advance(c) * size;
            if used + cw > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0.0;
                if lines.len() == max_lines {
                    cut = true;
                    break 'words;
                }
            }
            line.push(c);
            used += cw;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if cut {
        if let Some(last) = lines.last_mut() {
            let with_more = format!("{last} …");
            *last = fit(face, &with_more, size, width);
            if !last.ends_with('…') {
                last.push('…');
            }
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// "Street · postal code city · country" on one line.
fn one_line_address(party: &super::Party, lang: Lang) -> String {
    let a = &party.address;
    let city = [a.postal_code.as_deref(), a.city.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    [a.street.clone(), (!city.is_empty()).then_some(city)]
        .into_iter()
        .flatten()
        .chain(std::iter::once(
            countries::name(&a.country, lang).to_string(),
        ))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A line's VAT: its rate, with the category when it is not the standard one.
fn line_rate(category: Category, rate: &str, lang: Lang) -> String {
    let shown = crate::rules::money::Decimal::parse("rate", rate)
        .map_or_else(|_| rate.to_string(), |d| locale::decimal(lang, &d));
    let percent = match lang {
        Lang::De => format!("{shown} %"),
        Lang::En => format!("{shown}%"),
    };
    match category {
        Category::S => percent,
        other => format!("{} {percent}", other.code()),
    }
}

/// An amount of the document's currency for a person.
fn money(doc: &Document, minor: i64, lang: Lang) -> String {
    money_in(&doc.currency, doc.exponent, minor, lang)
}

/// `minor` units of `currency` (with `exponent` decimals) for a person.
fn money_in(currency: &str, exponent: u8, minor: i64, lang: Lang) -> String {
    match Currency::parse("currency", currency) {
        Ok(c) if c.exponent() == exponent => locale::amount(lang, minor, &c),
        _ => format!("{}\u{a0}{currency}", locale::number(lang, minor, exponent)),
    }
}

/// An IBAN in groups of four, as printed.
fn iban_grouped(iban: &str) -> String {
    let compact: Vec<char> = iban.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .chunks(4)
        .map(|g| g.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

// -- the EPC QR code -------------------------------------------------------------

/// The largest amount an EPC QR code carries: 999,999,999.99 EUR.
const EPC_MAX: i64 = 99_999_999_999;

/// The EPC069-12 (version 002) payload of a SEPA credit transfer of the
/// amount due: only for a EUR invoice with an IBAN and an amount due above
/// 0 and at most 999,999,999.99; the remittance is the invoice number,
/// unstructured.
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
            format!("EUR{}", super::amount_text(doc.due, 2)),
            String::new(),
            String::new(),
            one_line(&doc.number, 140),
        ]
        .join("\n"),
    )
}

/// The dark modules of a `count` × `count` QR code as few rectangles
/// (column, row, width, height): each grows right, then down, over dark
/// modules no other rectangle covers.
fn qr_rects(count: usize, dark: &[bool]) -> Vec<[u16; 4]> {
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
fn qr_modules(payload: &str) -> Option<(usize, Vec<bool>)> {
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

// -- writing -----------------------------------------------------------------------

fn pdf_date(date: Date) -> DateTime {
    DateTime::new(u16::try_from(date.year()).unwrap_or(2000))
        .month(u8::try_from(date.month()).unwrap_or(1))
        .day(u8::try_from(date.day()).unwrap_or(1))
        .hour(0)
        .minute(0)
        .second(0)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}

fn render(
    doc: &Document,
    cii: Option<&[u8]>,
    title: &str,
    lang: Lang,
    faces: &Faces,
    pages: &[Vec<Op>],
) -> std::io::Result<Vec<u8>> {
    let configuration = ConfigurationBuilder::new()
        .with_version(PdfVersion::Pdf17)
        .set_validator(Validator::A(Archival::A3_B))
        .finish()
        .map_err(|e| std::io::Error::other(format!("PDF configuration: {e:?}")))?;
    let settings = SerializeSettings {
        configuration,
        enable_tagging: false,
        ..SerializeSettings::default()
    };
    let mut pdf = krilla::Document::new_with(settings);
    let size =
        PageSettings::from_wh(PAGE_W, PAGE_H).ok_or_else(|| std::io::Error::other("page size"))?;
    for ops in pages {
        let mut page = pdf.start_page_with(size.clone());
        let mut surface = page.surface();
        // The fill is set only when it changes.
        let mut grey_now: Option<u8> = None;
        let mut set_grey = |surface: &mut krilla::surface::Surface, grey: u8| {
            if grey_now != Some(grey) {
                surface.set_fill(Some(fill(grey)));
                grey_now = Some(grey);
            }
        };
        for op in ops {
            match op {
                Op::Text {
                    x,
                    y,
                    size,
                    bold,
                    text,
                } => {
                    let face = if *bold { &faces.bold } else { &faces.regular };
                    let glyphs = glyphs(face, text);
                    set_grey(&mut surface, 0);
                    surface.draw_glyphs(
                        Point::from_xy(*x, *y),
                        &glyphs,
                        face.font.clone(),
                        text,
                        *size,
                        false,
                    );
                }
                Op::Rects { rects, grey } => {
                    let mut builder = PathBuilder::new();
                    for [x, y, w, h] in rects {
                        if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                            builder.push_rect(rect);
                        }
                    }
                    if let Some(path) = builder.finish() {
                        set_grey(&mut surface, *grey);
                        surface.draw_path(&path);
                    }
                }
                Op::Mark { x, y, size, text } => {
                    let glyphs = glyphs(&faces.bold, text);
                    set_grey(&mut surface, 225);
                    // Rising at 35°: y grows downwards on the page.
                    let (sin, cos) = (-35f32).to_radians().sin_cos();
                    surface.push_transform(&Transform::from_row(cos, sin, -sin, cos, *x, *y));
                    surface.draw_glyphs(
                        Point::from_xy(0.0, 0.0),
                        &glyphs,
                        faces.bold.font.clone(),
                        text,
                        *size,
                        false,
                    );
                    surface.pop();
                }
                Op::Qr {
                    x,
                    y,
                    module,
                    rects,
                } => {
                    let mut builder = PathBuilder::new();
                    for [c, r, w, h] in rects {
                        let rect = Rect::from_xywh(
                            f32::from(*c),
                            f32::from(*r),
                            f32::from(*w),
                            f32::from(*h),
                        );
                        if let Some(rect) = rect {
                            builder.push_rect(rect);
                        }
                    }
                    if let Some(path) = builder.finish() {
                        set_grey(&mut surface, 0);
                        surface.push_transform(&Transform::from_row(
                            *module, 0.0, 0.0, *module, *x, *y,
                        ));
                        surface.draw_path(&path);
                        surface.pop();
                    }
                }
            }
        }
        surface.finish();
        page.finish();
    }
    let date = pdf_date(doc.issued_on);
    pdf.set_metadata(
        Metadata::new()
            .title(title.chars().take(200).collect())
            .language(lang.code().to_string())
            .creator("kontor".into())
            .creation_date(date)
            .document_id(format!("{}/{}", doc.seller.name, doc.number)),
    );
    if let Some(xml) = cii {
        pdf.embed_file(EmbeddedFile {
            path: XML_NAME.into(),
            mime_type: MimeType::new("text/xml"),
            description: Some("Factur-X invoice data (UN/CEFACT CII, EN 16931)".into()),
            association_kind: AssociationKind::Alternative,
            data: xml.to_vec().into(),
            modification_date: Some(date),
            compress: Some(true),
            location: None,
        })
        .ok_or_else(|| std::io::Error::other("the XML could not be attached"))?;
    }
    pdf.finish()
        .map_err(|e| std::io::Error::other(format!("PDF/A-3b: {e:?}")))
}

fn fill(grey: u8) -> Fill {
    Fill {
        paint: rgb::Color::new(grey, grey, grey).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

/// The glyphs of a drawable text, one per character, with their advances.
fn glyphs(face: &Face, text: &str) -> Vec<KrillaGlyph> {
    text.char_indices()
        .filter_map(|(i, c)| {
            let glyph = face.glyph(c)?;
            Some(KrillaGlyph::new(
                GlyphId::new(glyph.to_u32()),
                face.advance(c),
                0.0,
                0.0,
                0.0,
                i..i + c.len_utf8(),
                None,
            ))
        })
        .collect()
}

// -- the Factur-X XMP ---------------------------------------------------------------

/// The PDF/A extension schema declaring the fx: properties (Factur-X 1.0).
fn fx_schema() -> String {
    let property = |name: &str, description: &str| {
        format!(
            "<rdf:li rdf:parseType=\"Resource\">\
             <pdfaProperty:name>{name}</pdfaProperty:name>\
             <pdfaProperty:valueType>Text</pdfaProperty:valueType>\
             <pdfaProperty:category>external</pdfaProperty:category>\
             <pdfaProperty:description>{description}</pdfaProperty:description>\
             </rdf:li>"
        )
    };
    format!(
        "<rdf:li rdf:parseType=\"Resource\" \
         xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\" \
         xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\
         <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>\
         <pdfaSchema:namespaceURI>{FX_NAMESPACE}</pdfaSchema:namespaceURI>\
         <pdfaSchema:prefix>fx</pdfaSchema:prefix>\
         <pdfaSchema:property><rdf:Seq>{}{}{}{}</rdf:Seq></pdfaSchema:property>\
         </rdf:li>",
        property("DocumentFileName", "The name of the embedded XML document"),
        property(
            "DocumentType",
            "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER"
        ),
        property(
            "Version",
            "The actual version of the standard applying to the embedded XML document"
        ),
        property(
            "ConformanceLevel",
            "The conformance level of the embedded XML document"
        ),
    )
}

/// The fx: properties of this document.
fn fx_description() -> String {
    format!(
        "<rdf:Description rdf:about=\"\" xmlns:fx=\"{FX_NAMESPACE}\">\
         <fx:DocumentType>INVOICE</fx:DocumentType>\
         <fx:DocumentFileName>{XML_NAME}</fx:DocumentFileName>\
         <fx:Version>1.0</fx:Version>\
         <fx:ConformanceLevel>{FX_CONFORMANCE}</fx:ConformanceLevel>\
         </rdf:Description>"
    )
}

/// krilla's XMP packet as kontor writes it: without the Paged-Text page
/// count (optional, and unknown to pikepdf's PDF/A check) and, for a
/// Factur-X, with the Factur-X schema added to its PDF/A extension schemas
/// and the fx: properties beside its own; `None` when the packet does not
/// have the shape krilla writes.
fn xmp_packet(xmp: &str, facturx: bool) -> Option<String> {
    let mut out = xmp.replacen(" xmlns:xmpTPg=\"http://ns.adobe.com/xap/1.0/t/pg/\"", "", 1);
    if let (Some(start), Some(end)) = (out.find("<xmpTPg:NPages>"), out.find("</xmpTPg:NPages>")) {
        if start < end {
            out.replace_range(start..end + "</xmpTPg:NPages>".len(), "");
        }
    }
    if !facturx {
        return Some(out);
    }
    let schemas_end = out.find("</pdfaExtension:schemas>")?;
    let bag_end = out[..schemas_end].rfind("</rdf:Bag>")?;
    out.insert_str(bag_end, &fx_schema());
    let rdf_end = out.rfind("</rdf:RDF>")?;
    out.insert_str(rdf_end, &fx_description());
    Some(out)
}

/// Replaces the catalog's /Metadata stream of krilla's PDF with kontor's
/// packet (`xmp_packet`).
fn with_xmp(pdf: &[u8], facturx: bool) -> std::io::Result<Vec<u8>> {
    let bad = |what: &str| std::io::Error::other(format!("XMP: {what}"));
    let mut document =
        lopdf::Document::load_mem(pdf).map_err(|e| bad(&format!("reading the PDF: {e}")))?;
    let meta_id = document
        .catalog()
        .and_then(|c| c.get(b"Metadata"))
        .and_then(|m| m.as_reference())
        .map_err(|e| bad(&format!("no metadata: {e}")))?;
    let stream = document
        .get_object_mut(meta_id)
        .and_then(|o| o.as_stream_mut())
        .map_err(|e| bad(&format!("no metadata stream: {e}")))?;
    let xmp = std::str::from_utf8(&stream.content).map_err(|_| bad("not UTF-8"))?;
    let xmp = xmp_packet(xmp, facturx).ok_or_else(|| bad("unexpected packet"))?;
    stream.set_content(xmp.into_bytes());
    let mut out = Vec::with_capacity(pdf.len() + 4096);
    document
        .save_to(&mut out)
        .map_err(|e| bad(&format!("writing the PDF: {e}")))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use jiff::civil::Date;

    use super::super::samples::mixed;
    use super::super::{
        cii, verdict, AccountingTax, Breakdown, Category, Document, Format, Line, Preceding,
        TypeCode,
    };
    use super::*;
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
                    category: line.category,
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
        doc.tax = breakdown.iter().map(|b| b.amount).sum();
        doc.gross = doc.net + doc.tax;
        doc.due = doc.gross - doc.paid;
        doc.breakdown = breakdown;
    }

    fn credit() -> Document {
        let mut doc = mixed();
        doc.type_code = TypeCode::CreditNote;
        doc.number = "GS-2026-0001".into();
        doc.preceding = Some(Preceding {
            number: "RE-2026-0001".into(),
            issued_on: Date::constant(2026, 11, 23),
        });
        doc.transfer = None;
        doc.payment_terms = None;
        doc
    }

    /// 200 lines, 19 % and 7 %, some descriptions long enough to wrap.
    fn long() -> Document {
        let mut doc = mixed();
        doc.number = "RE-2026-0200".into();
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
                    name,
                    quantity,
                    unit: if n % 5 == 0 { "HUR" } else { "C62" }.into(),
                    price,
                    net: line_net(quantity, price).unwrap(),
                    category: Category::S,
                    rate: d(if n % 3 == 0 { "7" } else { "19" }),
                }
            })
            .collect();
        total(&mut doc);
        doc.payment_terms = Some("Zahlbar bis 07.12.2026 ohne Abzug.".into());
        doc
    }

    /// A German seller's invoice in yen (no minor unit), VAT also in EUR.
    fn jpy() -> Document {
        let mut doc = mixed();
        doc.number = "RE-2026-0002".into();
        doc.currency = "JPY".into();
        doc.exponent = 0;
        for line in &mut doc.lines {
            line.price *= 2;
            line.net = line_net(line.quantity, line.price).unwrap();
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
    fn usd() -> Document {
        let mut doc = mixed();
        doc.number = "INV-2026-0042".into();
        doc.currency = "USD".into();
        doc.seller.address = super::super::Address {
            street: Some("Keizersgracht 1".into()),
            postal_code: Some("1015 CJ".into()),
            city: Some("Amsterdam".into()),
            country: "NL".into(),
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
        doc.transfer = Some(super::super::Transfer {
            iban: "NL91ABNA0417164300".into(),
            bic: Some("ABNANL2A".into()),
            account_holder: None,
        });
        doc
    }

    /// Reverse charge to an Austrian business: the reason is printed.
    fn reverse_charge() -> Document {
        let mut doc = mixed();
        doc.number = "RE-2026-0004".into();
        doc.buyer.vat_id = Some("ATU13585627".into());
        doc.buyer.address = super::super::Address {
            street: Some("Ring 1".into()),
            postal_code: Some("1010".into()),
            city: Some("Wien".into()),
            country: "AT".into(),
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
    fn plain() -> Document {
        let mut doc = mixed();
        doc.number = "RE-2026-0003".into();
        doc.currency = "BHD".into();
        doc.exponent = 3;
        for line in &mut doc.lines {
            line.price *= 10;
            line.net = line_net(line.quantity, line.price).unwrap();
        }
        total(&mut doc);
        doc
    }

    fn xml(doc: &Document) -> Vec<u8> {
        let findings = verdict::check(doc, &[Format::FacturX, Format::Cii]);
        assert!(findings.is_empty(), "{}: {findings:?}", doc.number);
        cii::write(doc, cii::Guideline::En16931).unwrap()
    }

    /// The CPU time this thread has used, in milliseconds: the machine may
    /// be shared, so wall time alone overstates the cost.
    fn thread_cpu_ms() -> f64 {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
    }

    fn pages(pdf: &[u8]) -> usize {
        lopdf::Document::load_mem(pdf).unwrap().get_pages().len()
    }

    fn contains(hay: &[u8], needle: &[u8]) -> bool {
        hay.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn an_invoice_is_a_deterministic_facturx_pdf() {
        let doc = mixed();
        let cii = xml(&doc);
        let a = write(&doc, Some(&cii)).unwrap();
        let b = write(&doc, Some(&cii)).unwrap();
        assert!(a.starts_with(b"%PDF-1.7"));
        assert!(a == b, "the same invoice gives the same bytes");
        assert!(contains(&a, b"/AF"));
        assert!(contains(&a, b"/AFRelationship/Alternative"));
        assert!(contains(&a, b"factur-x.xml"));
        assert!(contains(
            &a,
            b"<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>"
        ));
        assert!(contains(&a, b"<pdfaid:part>3</pdfaid:part>"));
        assert_eq!(pages(&a), 1);
    }

    #[test]
    fn a_draft_preview_is_a_plain_pdf_a_marked_as_a_draft_without_number_or_qr() {
        let doc = mixed();
        let a = write_draft(&doc).unwrap();
        assert!(a.starts_with(b"%PDF-1.7"));
        assert!(a == write_draft(&doc).unwrap(), "deterministic");
        assert!(contains(&a, b"<pdfaid:part>3</pdfaid:part>"));
        assert!(!contains(&a, b"factur-x.xml") && !contains(&a, b"fx:"));
        assert!(!contains(&a, b"/AF"));
        let pdf = lopdf::Document::load_mem(&a).unwrap();
        let text = pdf.extract_text(&[1]).unwrap();
        assert!(text.contains(DRAFT_MARK), "{text}");
        assert!(text.contains("Rechnungsentwurf"), "{text}");
        assert!(text.contains("keine Rechnung"), "{text}");
        assert!(!text.contains(&doc.number), "{text}");
        assert!(!text.contains("Verwendungszweck"), "{text}");
        assert!(!text.contains("Mit Banking-App scannen"), "{text}");
        // The invoice itself carries its number and its QR code.
        let invoice = write(&doc, None).unwrap();
        let text = lopdf::Document::load_mem(&invoice)
            .unwrap()
            .extract_text(&[1])
            .unwrap();
        assert!(text.contains(&doc.number) && text.contains("Mit Banking-App scannen"));
        assert!(!text.contains(DRAFT_MARK));
    }

    #[test]
    fn without_xml_it_is_a_plain_pdf_a_that_says_so() {
        let doc = plain();
        let pdf = write(&doc, None).unwrap();
        assert!(pdf.starts_with(b"%PDF-1.7"));
        assert!(!contains(&pdf, b"factur-x.xml"));
        assert!(!contains(&pdf, b"fx:"));
        assert!(!contains(&pdf, b"xmpTPg"));
        assert!(contains(&pdf, b"<pdfaid:part>3</pdfaid:part>"));
    }

    #[test]
    fn two_hundred_lines_run_over_pages() {
        let doc = long();
        let cii = xml(&doc);
        let pdf = write(&doc, Some(&cii)).unwrap();
        assert!(pages(&pdf) >= 4, "{} pages", pages(&pdf));
    }

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
        let mut doc = mixed();
        doc.transfer.as_mut().unwrap().account_holder = Some("N".repeat(100));
        let payload = epc_payload(&doc).unwrap();
        assert_eq!(payload.lines().nth(5).unwrap().len(), 70);
        assert!(qr_modules(&payload).is_some());
    }

    #[test]
    fn texts_are_laid_out_in_the_sellers_language() {
        assert_eq!(line_rate(Category::S, "5.5", Lang::De), "5,5 %");
        assert_eq!(line_rate(Category::AE, "0", Lang::En), "AE 0%");
        assert_eq!(
            iban_grouped("DE02120300000000202051"),
            "DE02 1203 0000 0000 2020 51"
        );
        assert_eq!(money(&mixed(), 148297, Lang::De), "1.482,97\u{a0}€");
        assert_eq!(money(&jpy(), 1234, Lang::En), "¥1,234");
        assert_eq!(money(&plain(), 1234, Lang::De), "1,234\u{a0}BHD");
    }

    #[test]
    fn long_and_odd_texts_wrap_or_are_cut() {
        let face = &faces().unwrap().regular;
        let lines = wrap(face, &"Wort ".repeat(500), 9.0, 100.0, 3);
        assert_eq!(lines.len(), 3);
        assert!(lines[2].ends_with('…'));
        assert!(lines.iter().all(|l| face.width(l, 9.0) <= 100.0));
        let lines = wrap(face, &"x".repeat(300), 9.0, 100.0, 50);
        assert!(lines.len() > 3);
        assert!(lines.iter().all(|l| face.width(l, 9.0) <= 100.0));
        assert_eq!(fit(face, "kurz", 9.0, 100.0), "kurz");
        assert!(fit(face, &"lang".repeat(99), 9.0, 100.0).ends_with('…'));
        assert_eq!(face.drawable("a\tb\u{E000}c"), "a b\u{FFFD}c");

        let mut doc = mixed();
        let odd = "Ω😀漢字\u{0}\u{7}\r\n\u{E000}\u{200B}e\u{301} ".repeat(3);
        doc.seller.name = format!("{odd}{}", "Nordlicht ".repeat(2000));
        doc.seller.legal_info = Some(format!("{odd};").repeat(200));
        doc.buyer.name = "B".repeat(5000);
        doc.buyer.address.street = Some(odd.clone());
        doc.buyer_reference = Some("R".repeat(1000));
        doc.lines[0].name = format!("{odd}{}", "Beschreibung ".repeat(3000));
        doc.lines[1].name = String::new();
        doc.payment_terms = Some(odd.repeat(100));
        doc.number = format!("{odd}{}", "9".repeat(300));
        write(&doc, None).unwrap();
        doc.transfer.as_mut().unwrap().account_holder = Some(odd.clone());
        write(&doc, Some(b"<x/>")).unwrap();
    }

    /// With KONTOR_SAMPLES=DIR, writes the sample PDFs (and the CII each
    /// embeds, as `<stem>.cii.xml`) for tests/interop/einvoice.sh, a page
    /// image source, and the time one PDF takes.
    #[test]
    fn samples() {
        let samples: [(&str, Document, bool); 7] = [
            ("mixed", mixed(), true),
            ("reverse-charge", reverse_charge(), true),
            ("credit", credit(), true),
            ("lines200", long(), true),
            ("jpy", jpy(), true),
            ("usd", usd(), true),
            ("plain", plain(), false),
        ];
        let dir = std::env::var("KONTOR_SAMPLES").ok();
        for (stem, doc, with_xml) in &samples {
            let cii = with_xml.then(|| xml(doc));
            let pdf = write(doc, cii.as_deref()).unwrap();
            assert!(pdf.starts_with(b"%PDF"));
            assert_eq!(contains(&pdf, b"/AF"), *with_xml, "{stem}");
            assert_eq!(pdf, write(doc, cii.as_deref()).unwrap(), "{stem}");
            let Some(dir) = &dir else { continue };
            std::fs::write(format!("{dir}/{stem}.pdf"), &pdf).unwrap();
            if let Some(cii) = &cii {
                std::fs::write(format!("{dir}/{stem}.cii.xml"), cii).unwrap();
            }
            let runs = 100;
            let started = Instant::now();
            let cpu = thread_cpu_ms();
            for _ in 0..runs {
                write(doc, cii.as_deref()).unwrap();
            }
            println!(
                "{stem}: {} pages, {} bytes, {:.2} ms per PDF ({:.2} ms CPU)",
                pages(&pdf),
                pdf.len(),
                started.elapsed().as_secs_f64() * 1000.0 / runs as f64,
                (thread_cpu_ms() - cpu) / runs as f64
            );
        }
    }
}
