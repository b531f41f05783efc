//! The page as a list of drawing operations: what the layout makes of a
//! document and the rendering draws. An A4 page in points (`f32`), from
//! its top left corner, y growing downwards.

/// The page's width (A4).
pub(super) const PAGE_W: f32 = 595.28;
/// The page's height (A4).
pub(super) const PAGE_H: f32 = 841.89;

/// Millimetres in points.
pub(super) const fn mm(v: f32) -> f32 {
    v * 72.0 / 25.4
}

/// One thing drawn on a page.
pub(super) enum Op {
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
