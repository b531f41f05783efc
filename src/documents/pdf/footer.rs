//! The footer's columns laid out (`Footer::lay_out`): the seller's
//! particulars in columns side by side, each particular broken between
//! words only. In one row at the largest size from 7 pt down to 6 pt, and
//! at it the fewest lines: every column takes the narrowest width that
//! holds it in that many lines (at least one line a particular, at most
//! six of 7 pt in all), and the width left over is shared out evenly.
//! When they fit no row, the columns stand in two rows (the first two
//! above the others) from 7 pt down to 5.5 pt, and the footer grows
//! upwards. Only particulars that fit at no size are broken inside a word
//! and cut, in two rows of equal columns at the least size.

use super::fonts::Face;
use super::text::{sizes, words, wrap};

/// The footer's size and lead at their largest.
const SIZE: f32 = 7.0;
const LEAD: f32 = 8.4;
/// The least size in one row, and in two.
const LEAST_ONE_ROW: f32 = 6.0;
const LEAST: f32 = 5.5;
/// The height of a row: six lines at the largest size.
const ROW_HEIGHT: f32 = LEAD * 6.0;
/// From the first line's baseline to the sixth's at the largest size.
pub(super) const ROW_SPAN: f32 = LEAD * 5.0;
/// The space between two columns.
pub(super) const GAP: f32 = 8.0;

/// The footer as drawn: its size and lead, and each column's left edge,
/// the line it starts at (from the footer's first), and its lines.
#[derive(Default)]
pub(super) struct Footer {
    pub(super) size: f32,
    pub(super) lead: f32,
    pub(super) columns: Vec<(f32, usize, Vec<String>)>,
}

impl Footer {
    /// `columns` (each a list of particulars) laid out from `left` over
    /// `width` in `face`.
    pub(super) fn lay_out(face: &Face, columns: &[Vec<String>], left: f32, width: f32) -> Footer {
        if let Some(footer) = sizes(SIZE, LEAST_ONE_ROW).find_map(|size| {
            let row = row(face, columns, size, left, width)?;
            Some(Footer::of_rows(size, vec![row]))
        }) {
            return footer;
        }
        let half = columns.len().div_ceil(2);
        let (upper, lower) = columns.split_at(half.min(columns.len()));
        if let Some(footer) = sizes(SIZE, LEAST).find_map(|size| {
            let rows = vec![
                row(face, upper, size, left, width)?,
                row(face, lower, size, left, width)?,
            ];
            Some(Footer::of_rows(size, rows))
        }) {
            return footer;
        }
        // What fits at no size: equal columns at the least size, a word
        // wider than its column broken, what is left over cut.
        let lead = LEAST * LEAD / SIZE;
        let most = ((ROW_HEIGHT + 0.01) / lead) as usize;
        let equal = |columns: &[Vec<String>]| -> Vec<(f32, Vec<String>)> {
            let n = columns.len().max(1) as f32;
            let w = (width - GAP * (n - 1.0)) / n;
            columns
                .iter()
                .enumerate()
                .map(|(i, column)| {
                    let mut lines = Vec::new();
                    for item in column {
                        let left = most.saturating_sub(lines.len());
                        if left == 0 {
                            break;
                        }
                        lines.extend(wrap(face, item, LEAST, w, left));
                    }
                    (left + (w + GAP) * i as f32, lines)
                })
                .collect()
        };
        Footer::of_rows(LEAST, vec![equal(upper), equal(lower)])
    }

    /// The footer of `rows` at `size`, a line apart.
    fn of_rows(size: f32, rows: Vec<Vec<(f32, Vec<String>)>>) -> Footer {
        let mut columns = Vec::new();
        let mut first = 0;
        for row in rows {
            let tallest = row.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
            if tallest == 0 {
                continue;
            }
            for (x, lines) in row {
                columns.push((x, first, lines));
            }
            first += tallest + 1;
        }
        Footer {
            size,
            lead: size * LEAD / SIZE,
            columns,
        }
    }

    /// The height from the first line's baseline to the last's.
    pub(super) fn height(&self) -> f32 {
        let lines = self
            .columns
            .iter()
            .map(|(_, first, lines)| first + lines.len())
            .max()
            .unwrap_or(1);
        self.lead * lines.saturating_sub(1) as f32
    }
}

/// `columns` in one row from `left` over `width` at `size`, in the fewest
/// lines (at most six of 7 pt); `None` when they do not fit.
fn row(
    face: &Face,
    columns: &[Vec<String>],
    size: f32,
    left: f32,
    width: f32,
) -> Option<Vec<(f32, Vec<String>)>> {
    let n = columns.len().max(1) as f32;
    let room = width - GAP * (n - 1.0);
    let lead = size * LEAD / SIZE;
    let most = ((ROW_HEIGHT + 0.01) / lead) as usize;
    (1..=most).find_map(|lines| {
        let need: Vec<f32> = columns
            .iter()
            .map(|c| narrowest(face, c, size, room, lines.max(c.len()).min(most)))
            .collect::<Option<_>>()?;
        let total: f32 = need.iter().sum();
        if total > room {
            return None;
        }
        let extra = (room - total) / n;
        let mut x = left;
        let mut laid = Vec::with_capacity(columns.len());
        for (column, w) in columns.iter().zip(need) {
            let w = w + extra;
            // A column wider than its narrowest takes no more lines.
            laid.push((x, column_lines(face, column, size, w)?));
            x += w + GAP;
        }
        Some(laid)
    })
}

/// The particulars of a column in lines of `width` at `size`, each broken
/// between words; `None` when a word is wider than the column.
fn column_lines(face: &Face, column: &[String], size: f32, width: f32) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    for item in column {
        lines.extend(words(face, item, size, width, usize::MAX)?);
    }
    Some(lines)
}

/// The narrowest width up to `room` at which `column` takes at most
/// `lines` lines at `size`; `None` when it takes more even at `room`.
fn narrowest(face: &Face, column: &[String], size: f32, room: f32, lines: usize) -> Option<f32> {
    let holds = |w: f32| column_lines(face, column, size, w).is_some_and(|l| l.len() <= lines);
    if !holds(room) {
        return None;
    }
    // The line count only falls as the width grows: halve the interval.
    let widest_word = column
        .iter()
        .flat_map(|item| item.split_whitespace())
        .map(|w| face.width(&face.drawable(w), size))
        .fold(0.0f32, f32::max);
    let (mut low, mut high) = (widest_word, room);
    if holds(low) {
        return Some(low);
    }
    for _ in 0..24 {
        let mid = (low + high) / 2.0;
        if holds(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

#[cfg(test)]
mod tests {
    use crate::documents::pdf::fonts::faces;
    use crate::documents::pdf::footer::{Footer, GAP};

    fn column(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_long_address_widens_its_column_and_no_word_is_broken() {
        let face = &faces().unwrap().regular;
        let columns = vec![
            column(&[
                "Nordlicht Werkstatt GmbH",
                "Stresemannstraße 48",
                "22769 Hamburg",
            ]),
            column(&["HRB 171234, Amtsgericht Hamburg"]),
            column(&["USt-IdNr. DE815739245"]),
            column(&[
                "Tel. +49 40 3861 2240",
                "forderungsmanagement.rechnungseingang@nordlicht-werkstatt.de",
            ]),
        ];
        let footer = Footer::lay_out(face, &columns, 70.0, 467.0);
        let words: Vec<&str> = columns
            .iter()
            .flatten()
            .flat_map(|i| i.split_whitespace())
            .collect();
        assert_eq!(footer.columns.len(), 4);
        for (i, (x, first, lines)) in footer.columns.iter().enumerate() {
            assert_eq!(*first, 0, "one row");
            let end = footer
                .columns
                .get(i + 1)
                .map_or(70.0 + 467.0, |(next, _, _)| next - GAP);
            for line in lines {
                assert!(x + face.width(line, footer.size) <= end + 0.01, "{line}");
                assert!(line.split(' ').all(|w| words.contains(&w)), "{line}");
            }
        }
        assert!(footer.size >= 6.0, "{}", footer.size);
    }

    #[test]
    fn particulars_too_long_for_one_row_take_two() {
        let face = &faces().unwrap().regular;
        let long =
            "Nordlicht Werkstatt für Dach-, Fassaden- und Holzbau Hamburg-Altona GmbH & Co. KG";
        let columns = vec![
            column(&[long, "Große Elbstraße am Altonaer Fischmarkt 275a, Aufgang B"]),
            column(&["HRA 123456, Amtsgericht Hamburg; persönlich haftende Gesellschafterin: Nordlicht Verwaltungsgesellschaft mbH"]),
            column(&["E-Rechnung: elektronische-rechnungen@nordlicht-werkstatt-altona.de"]),
            column(&["rechnungseingang.forderungen@nordlicht-werkstatt-altona.de"]),
        ];
        let footer = Footer::lay_out(face, &columns, 70.0, 467.0);
        let starts: Vec<usize> = footer.columns.iter().map(|c| c.1).collect();
        assert_eq!(starts[0], 0);
        assert!(starts[2] > 0 && starts[2] == starts[3], "{starts:?}");
        for (_, _, lines) in &footer.columns {
            assert!(lines.iter().all(|l| !l.contains('…')), "{lines:?}");
        }
        assert!(footer.columns[3].2.contains(&columns[3][0]));
    }
}
