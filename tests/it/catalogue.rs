//! Every refusal kontor makes is a message of the catalogue, worded in
//! German and English (`error::Said`, `src/rules/catalogue/`), except in
//! the files listed here, which still refuse with an English sentence
//! (`Said::English`, made from a text): the test finds each constructor of a
//! refusal (`Error::invalid`, `Error::refused`, `Violations::refuse`, an
//! EN 16931 finding's `f.add`, …) whose message is a string literal or a
//! `format!`, outside what is compiled for tests alone, and fails on such a
//! file that is not listed, and on a listed file that has none any more (so
//! the list shrinks as messages move into the catalogue). The console's own
//! files word their refusals for the console alone and are not counted.
//! A sentence made earlier and handed over in a variable (a `String` turns
//! into `Said::English`) is not seen here; docs/reference.md ("Still in one
//! language") names where that happens.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files that still refuse with English sentences, and how many such
/// refusals each makes.
const ENGLISH_ONLY: &[(&str, usize)] = &[
    ("src/documents/read/check.rs", 8),
    ("src/documents/verdict.rs", 48),
    ("src/http/mcp/tools.rs", 1),
    ("src/http/server.rs", 3),
    ("src/inbox/session.rs", 1),
    ("src/outbox/mail/reach.rs", 3),
    ("src/store/backups.rs", 4),
    ("src/store/db.rs", 1),
    ("src/store/lock.rs", 1),
    ("src/store/migrations/mod.rs", 2),
    ("src/store/sealed.rs", 1),
];

/// The constructors of a refusal and which argument is the message.
const CONSTRUCTORS: &[(&str, usize)] = &[
    ("Error::invalid(", 1),
    ("Error::refused_at(", 1),
    ("Error::refused(", 0),
    ("Error::bad_request(", 0),
    ("Error::wrong_state(", 0),
    ("Error::not_found(", 0),
    ("Violation::at(", 1),
    ("Violation::whole(", 0),
    (".invalid(", 1),
    (".refused(", 1),
    (".refuse(", 0),
    ("f.add(", 2),
];

/// The text of a file without its comments and without what is compiled
/// for tests alone: an item after `#[cfg(test)]` that is one line (a `use`,
/// a `mod x;`) is left out, and a module opened there (`mod tests {`),
/// which closes every file that has one, is cut with the rest of the file.
fn code_of(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            match lines.next() {
                Some(item) if item.contains('{') => break,
                _ => continue,
            }
        }
        kept.push_str(line);
        kept.push('\n');
    }
    let text = kept.as_str();
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(chars[i]);
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    out.push(ch);
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The arguments of the call whose `(` ends at `from`, split at the top
/// level's commas.
fn arguments(code: &str, from: usize) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for c in code[from..].chars() {
        if in_string {
            args.last_mut().unwrap().push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                args.last_mut().unwrap().push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                args.last_mut().unwrap().push(c);
            }
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => {
                depth -= 1;
                args.last_mut().unwrap().push(c);
            }
            ',' if depth == 0 => args.push(String::new()),
            _ => args.last_mut().unwrap().push(c),
        }
    }
    args
}

/// Whether a message argument is an English text rather than a message of
/// the catalogue.
fn is_text(arg: &str) -> bool {
    let arg = arg.trim();
    arg.starts_with('"')
        || arg.starts_with("format!")
        || arg.starts_with("&format!")
        || arg.starts_with("String::from")
}

/// How many refusals of `code` are made from a text.
fn english_refusals(code: &str) -> usize {
    let mut count = 0;
    for (name, message) in CONSTRUCTORS {
        let mut at = 0;
        while let Some(found) = code[at..].find(name) {
            let start = at + found;
            at = start + name.len();
            // `.invalid(` must not count `Error::invalid(` twice.
            if name.starts_with('.') && code[..start].ends_with("Error") {
                continue;
            }
            if arguments(code, at)
                .get(*message)
                .is_some_and(|a| is_text(a))
            {
                count += 1;
            }
        }
    }
    count
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

/// The files of `src/` (but the console's and test files) that refuse
/// with an English text, and how many times.
fn english_only(src: &Path) -> BTreeMap<String, usize> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found = BTreeMap::new();
    for file in files {
        let name = file
            .strip_prefix(src.parent().unwrap())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if name.starts_with("src/console/") || name.ends_with("/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable file");
        let count = english_refusals(&code_of(&text));
        if count > 0 {
            found.insert(name, count);
        }
    }
    found
}

#[test]
fn every_refusal_outside_the_listed_files_is_a_message_of_the_catalogue() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = english_only(&src);
    let listed: BTreeMap<String, usize> = ENGLISH_ONLY
        .iter()
        .map(|(f, n)| (f.to_string(), *n))
        .collect();
    let mut wrong = Vec::new();
    for (file, count) in &found {
        match listed.get(file) {
            None => wrong.push(format!(
                "{file}: {count} refusal(s) from an English text, not in ENGLISH_ONLY"
            )),
            Some(n) if n < count => wrong.push(format!(
                "{file}: {count} refusal(s) from an English text, ENGLISH_ONLY says {n}"
            )),
            _ => {}
        }
    }
    for (file, n) in &listed {
        match found.get(file) {
            None => wrong.push(format!(
                "{file}: listed in ENGLISH_ONLY, but all its refusals are in the catalogue now"
            )),
            Some(count) if count < n => wrong.push(format!(
                "{file}: ENGLISH_ONLY says {n}, but only {count} are left"
            )),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_count_sees_literals_and_format_but_not_messages() {
    let code = code_of(
        "#[cfg(test)]\nuse super::Breakdown;\nfn f() {\n    v.invalid(\"amount\", Input::Missing);\n    \
         f.add(\"BR-02\", Figures, \"the invoice number is missing\");\n    v.invalid(format!(\"to[{i}]\"), \"is missing\");\n    \
         Error::refused(format!(\"{} is, not (x)\", a));\n    Error::invalid(\"x\", Said::English(s));\n    \
         // Error::refused(\"a comment\")\n    verdict.refuse(Settle::TooSmall);\n}\n#[cfg(test)]\nmod tests { Error::refused(\"t\"); }\n",
    );
    assert_eq!(english_refusals(&code), 3);
}
