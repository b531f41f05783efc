//! Text that fits its place: cut to a width with an ellipsis (`fit`), or
//! broken into lines between words, and inside a word too wide for a line,
//! up to a number of lines (`wrap`), measured with the font's advances.

use super::fonts::Face;

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
