//! The layer rule, checked on the source: surfaces (`console`, `http`) on
//! top, `access`, `books` and `outbox` in the middle, `rules` and `store`
//! below, `error` under all; every `crate::` and `super::` path of every file
//! under `src/` (inline paths, `use` lists and `pub use` alike) must point
//! along an allowed edge. The README's architecture section lists the same
//! table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Which top-level module may name which: (from, the modules it may name
/// besides itself).
const ALLOWED: &[(&str, &[&str])] = &[
    (
        "console",
        &[
            "http",
            "access",
            "books",
            "outbox",
            "inbox",
            "documents",
            "rules",
            "store",
            "error",
        ],
    ),
    (
        "http",
        &[
            "access",
            "books",
            "outbox",
            "documents",
            "rules",
            "store",
            "error",
        ],
    ),
    // The plan check reads the company a key belongs to.
    ("access", &["books", "rules", "store", "error"]),
    // Acts raise their events in the outbox, in their own transaction.
    // Issuing writes and checks an invoice's documents.
    ("books", &["outbox", "documents", "rules", "store", "error"]),
    // The documents are written from a model; they read no storage.
    ("documents", &["rules", "error"]),
    ("outbox", &["rules", "store", "error"]),
    // The mailbox hands what it fetches to the books' receiving act.
    ("inbox", &["books", "documents", "rules", "store", "error"]),
    ("rules", &["error"]),
    ("store", &["error"]),
    ("error", &[]),
];

/// The macro `stored_enum!` is exported at the crate root but lives in `store`.
fn top_of(name: &str) -> &str {
    match name {
        "stored_enum" => "store",
        other => other,
    }
}

/// The text of a Rust file without its comments and the contents of its
/// string and character literals (so neither can fake or hide a path).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && {
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            chars.get(j) == Some(&'"')
        } {
            // A raw string: r"…", r#"…"#.
            let mut hashes = 0;
            i += 1;
            while chars[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            'raw: while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break 'raw;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\''
            && (chars.get(i + 2) == Some(&'\'')
                || (next == Some('\\') && chars.get(i + 3) == Some(&'\'')))
        {
            // A character literal ('x', '\n'); a lifetime has no closing quote.
            i += if next == Some('\\') { 4 } else { 3 };
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn identifier_at(chars: &[char], mut i: usize) -> (String, usize) {
    let mut name = String::new();
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        name.push(chars[i]);
        i += 1;
    }
    (name, i)
}

fn skip_space(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    i
}

/// The first names of the items of a `{…}` group starting at `i` (just past `{`).
fn group_heads(chars: &[char], mut i: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 1;
    let mut expect_head = true;
    while i < chars.len() && depth > 0 {
        let c = chars[i];
        if c == '{' {
            depth += 1;
            i += 1;
        } else if c == '}' {
            depth -= 1;
            i += 1;
        } else if c == ',' && depth == 1 {
            expect_head = true;
            i += 1;
        } else if expect_head && depth == 1 && (c.is_alphanumeric() || c == '_') {
            let (name, end) = identifier_at(chars, i);
            heads.push(name);
            expect_head = false;
            i = end;
        } else {
            if !c.is_whitespace() && depth == 1 {
                expect_head = false;
            }
            i += 1;
        }
    }
    heads
}

/// Every top-level module a file's code names, resolving `super::` against
/// the module it stands in (the file's, and any inline `mod x { … }` around it).
fn named_tops(module: &[String], code: &str) -> BTreeSet<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tops = BTreeSet::new();
    // Inline modules open around the current position: (name, brace depth inside).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => {
                depth += 1;
                i += 1;
                continue;
            }
            '}' => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {}
        }
        let boundary = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        let (word, end) = identifier_at(&chars, i);
        if word.is_empty() {
            i += 1;
            continue;
        }
        if boundary && word == "mod" {
            let start = skip_space(&chars, end);
            let (name, after) = identifier_at(&chars, start);
            let brace = skip_space(&chars, after);
            if !name.is_empty() && chars.get(brace) == Some(&'{') {
                depth += 1;
                inline.push((name, depth));
                i = brace + 1;
                continue;
            }
        }
        if !boundary || (word != "crate" && word != "super") {
            i = end;
            continue;
        }
        // Walk the leading `super::`s (or the one `crate::`).
        let mut base: Vec<String> = module.to_vec();
        base.extend(inline.iter().map(|(name, _)| name.clone()));
        let mut j = i;
        let mut rooted = false;
        loop {
            let (w, e) = identifier_at(&chars, j);
            let after = skip_space(&chars, e);
            let has_sep = chars.get(after) == Some(&':') && chars.get(after + 1) == Some(&':');
            match w.as_str() {
                "crate" if j == i && has_sep => {
                    base.clear();
                    rooted = true;
                }
                "super" if has_sep => {
                    base.pop();
                    rooted = base.is_empty();
                }
                _ => break,
            }
            j = skip_space(&chars, after + 2);
        }
        if j == i {
            i = end;
            continue;
        }
        if !rooted && !base.is_empty() {
            tops.insert(base[0].clone());
        } else if chars.get(j) == Some(&'{') {
            tops.extend(group_heads(&chars, j + 1));
        } else {
            let (name, _) = identifier_at(&chars, j);
            if !name.is_empty() {
                tops.insert(name);
            }
        }
        i = j.max(end);
    }
    tops
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`books/invoices/mod.rs` → books, invoices).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// The edges of `src` that break the rule, as sentences.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in files {
        let module = module_of(src, &file);
        let Some(from) = module.first() else {
            continue; // lib.rs and main.rs declare and start everything.
        };
        let allowed = ALLOWED
            .iter()
            .find(|(m, _)| m == from)
            .unwrap_or_else(|| panic!("{} is in no layer; add it to ALLOWED", file.display()))
            .1;
        let code = code_only(&std::fs::read_to_string(&file).expect("a readable file"));
        for to in named_tops(&module, &code) {
            let to = top_of(&to);
            if to != from && !allowed.contains(&to) {
                wrong.push(format!(
                    "{} ({from}) names {to}, which {from} may not name",
                    file.strip_prefix(src).unwrap_or(&file).display()
                ));
            }
        }
    }
    wrong
}

#[test]
fn arrows_point_down_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let wrong = violations(&src);
    assert!(
        wrong.is_empty(),
        "edges against the layer rule:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_every_spelling_of_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("books/mod.rs", "pub mod a;\npub mod deep;\n");
    write("books/a.rs", "use crate::{rules::x, http::rest::Call};\n");
    write("books/deep/mod.rs", "pub mod b;\n");
    write(
        "books/deep/b.rs",
        "fn f() { let _ = super::super::super::console::run; }\n// crate::http in a comment\nconst S: &str = \"crate::http in a string\";\n",
    );
    write(
        "outbox/c.rs",
        "pub use crate::books::x;\nfn g() -> crate::store::Y { todo() }\n",
    );
    write("store/d.rs", "use super::e;\nuse super::super::http;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::clock;\n}\n");
    let mut found = violations(src);
    found.sort();
    assert_eq!(
        found,
        vec![
            "books/a.rs (books) names http, which books may not name".to_string(),
            "books/deep/b.rs (books) names console, which books may not name".to_string(),
            "outbox/c.rs (outbox) names books, which outbox may not name".to_string(),
            "store/d.rs (store) names http, which store may not name".to_string(),
        ]
    );
}
