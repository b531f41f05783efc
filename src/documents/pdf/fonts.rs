//! The font of the PDF: DejaVu Sans, regular and bold (the `dejavu`
//! crate), read once, with the tables to measure a text and to tell which
//! characters it can draw; what it cannot draw becomes "�".

use std::sync::OnceLock;

use krilla::text::Font;
use skrifa::instance::{LocationRef, Size};
use skrifa::MetadataProvider;

/// DejaVu Sans, regular and bold, with the tables to measure text.
pub(super) struct Faces {
    pub(super) regular: Face,
    pub(super) bold: Face,
}

pub(super) struct Face {
    pub(super) font: Font,
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
    pub(super) fn glyph(&self, c: char) -> Option<skrifa::GlyphId> {
        self.charmap.map(c).filter(|g| g.to_u32() != 0)
    }

    /// The advance of `c` at size 1 (the character must have a glyph).
    pub(super) fn advance(&self, c: char) -> f32 {
        self.glyph(c)
            .and_then(|g| self.metrics.advance_width(g))
            .map_or(0.0, |w| w / self.units_per_em)
    }

    pub(super) fn width(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.advance(c)).sum::<f32>() * size
    }

    /// `text` with what cannot be drawn replaced: controls become spaces,
    /// private-use and unknown characters "�" (or "?").
    pub(super) fn drawable(&self, text: &str) -> String {
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

pub(super) fn faces() -> Option<&'static Faces> {
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

#[cfg(test)]
mod tests {
    use crate::documents::pdf::fonts::faces;

    #[test]
    fn what_the_font_cannot_draw_is_replaced() {
        let face = &faces().unwrap().regular;
        assert_eq!(face.drawable("a\tb\u{E000}c"), "a b\u{FFFD}c");
    }
}
