//! Text that fits its place. A particular — a name, an address, an e-mail
//! address, an IBAN — is never cut: `words` breaks a text between its
//! words only, `parts` between the parts of a line such as "street ·
//! postcode city · country" first and between words inside a part only
//! when the part is wider than the line; `shrink_words`, `shrink_parts` and
//! `shrink_line` take the largest size, down to a least one, at which the
//! text fits so. Only what fits at no size is cut: `fit` (an ellipsis) and
//! `wrap` (lines between words, inside a word too wide for a line, up to a
//! number of lines), measured with the font's advances.

use super::fonts::Face;

/// The step by which a text shrinks to fit, in points.
const STEP: f32 = 0.25;

/// The sizes from `size` down to `least`, largest first.
pub(super) fn sizes(size: f32, least: f32) -> impl Iterator<Item = f32> {
    (0u16..)
        .map(move |k| size - STEP * f32::from(k))
        .take_while(move |s| *s >= least - 0.001)
}

/// `text` cut to `width` at `size`, ending in "…" when cut.
pub(super) fn fit(face: &Face, text: &str, size: f32, width: f32) -> String {
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

/// The largest size from `size` down to `least` at which `text` fits
/// `width` on one line, with the text; at `least` cut with an ellipsis
/// when it fits at no size.
pub(super) fn shrink_line(
    face: &Face,
    text: &str,
    size: f32,
    least: f32,
    width: f32,
) -> (f32, String) {
    let text = face.drawable(text);
    match sizes(size, least).find(|s| face.width(&text, *s) <= width) {
        Some(s) => (s, text),
        None => (least, fit(face, &text, least, width)),
    }
}

/// `text` broken between words into lines of at most `width` at `size`;
/// `None` when a word is wider than a line or more than `max_lines` lines
/// are needed. An empty text is no line.
pub(super) fn words(
    face: &Face,
    text: &str,
    size: f32,
    width: f32,
    max_lines: usize,
) -> Option<Vec<String>> {
    let text = face.drawable(text);
    let mut lines = Vec::new();
    fill(face, text.split_whitespace(), " ", size, width, &mut lines)?;
    (lines.len() <= max_lines).then_some(lines)
}

/// The parts of a line (`parts`, joined by `sep`) broken into lines of at
/// most `width` at `size`: between parts where it can, between the words
/// of a part wider than a line; `None` when a word is wider than a line
/// or more than `max_lines` lines are needed.
pub(super) fn parts(
    face: &Face,
    parts: &[String],
    sep: &str,
    size: f32,
    width: f32,
    max_lines: usize,
) -> Option<Vec<String>> {
    let parts: Vec<String> = parts
        .iter()
        .map(|p| {
            face.drawable(p)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect();
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in &parts {
        let joined = joined(&line, sep, part);
        if face.width(&joined, size) <= width {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if face.width(part, size) <= width {
            line = part.clone();
            continue;
        }
        // A part wider than a line: between its words, the last line open
        // for the next part.
        let mut broken = Vec::new();
        fill(face, part.split(' '), " ", size, width, &mut broken)?;
        line = broken.pop().unwrap_or_default();
        lines.extend(broken);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    (lines.len() <= max_lines).then_some(lines)
}

/// `part` after `line`, `sep` between them when the line holds anything.
fn joined(line: &str, sep: &str, part: &str) -> String {
    if line.is_empty() {
        part.to_string()
    } else {
        format!("{line}{sep}{part}")
    }
}

/// Appends `units` joined by `sep` as lines of at most `width`; `None`
/// when a unit alone is wider.
fn fill<'t>(
    face: &Face,
    units: impl Iterator<Item = &'t str>,
    sep: &str,
    size: f32,
    width: f32,
    lines: &mut Vec<String>,
) -> Option<()> {
    let mut line = String::new();
    for unit in units {
        if face.width(unit, size) > width {
            return None;
        }
        let joined = joined(&line, sep, unit);
        if face.width(&joined, size) <= width {
            line = joined;
        } else {
            lines.push(std::mem::replace(&mut line, unit.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Some(())
}

/// The largest size from `size` down to `least` at which `text` breaks
/// between words into at most `max_lines` lines of `width`, with the
/// lines; when it does at no size, `wrap` at `least`.
pub(super) fn shrink_words(
    face: &Face,
    text: &str,
    size: f32,
    least: f32,
    width: f32,
    max_lines: usize,
) -> (f32, Vec<String>) {
    sizes(size, least)
        .find_map(|s| words(face, text, s, width, max_lines).map(|l| (s, l)))
        .unwrap_or_else(|| (least, wrap(face, text, least, width, max_lines)))
}

/// `shrink_words` for the parts of a line joined by `sep` (`parts`).
pub(super) fn shrink_parts(
    face: &Face,
    list: &[String],
    sep: &str,
    size: f32,
    least: f32,
    width: f32,
    max_lines: usize,
) -> (f32, Vec<String>) {
    sizes(size, least)
        .find_map(|s| parts(face, list, sep, s, width, max_lines).map(|l| (s, l)))
        .unwrap_or_else(|| {
            let text = list.join(sep);
            (least, wrap(face, &text, least, width, max_lines))
        })
}
/// `text` broken into lines of at most `width` at `size`, between words
/// where it can and inside a word that is wider than a line; at most
/// `max_lines` (at least one), the last ending in "…" when text is left.
pub(super) fn wrap(
    face: &Face,
    text: &str,
    size: f32,
    width: f32,
    max_lines: usize,
) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use crate::documents::pdf::fonts::faces;
    use crate::documents::pdf::text::{fit, wrap};

    #[test]
    fn long_texts_wrap_or_are_cut() {
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
    }
}
