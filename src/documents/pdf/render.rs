//! The PDF/A-3b, written by krilla from the pages' operations: the glyphs
//! of the embedded font (subset), the rectangles in their greys, a draft's
//! mark, the QR code; the metadata (title, language, the issue date as the
//! creation date, never the clock) and, for a Factur-X, the CII embedded as
//! `factur-x.xml` (AFRelationship Alternative). krilla checks PDF/A-3b as
//! it writes.

use jiff::civil::Date;
use krilla::color::rgb;
use krilla::configure::{Archival, ConfigurationBuilder, PdfVersion, Validator};
use krilla::embed::{AssociationKind, EmbeddedFile, MimeType};
use krilla::geom::{PathBuilder, Point, Rect, Transform};
use krilla::metadata::{DateTime, Metadata};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{GlyphId, KrillaGlyph};
use krilla::SerializeSettings;

use super::fonts::{Face, Faces};
use super::page::{Op, PAGE_H, PAGE_W};
use super::xmp::XML_NAME;
use crate::documents::Document;
use crate::rules::locale::Lang;

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

pub(super) fn render(
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
