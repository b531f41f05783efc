//! The codemap against the source tree, by the rule `ARCHITECTURE.md`
//! states under "How the codemap names paths".
//!
//! In `ARCHITECTURE.md`, every backticked span starting with `src/`
//! (outside fenced code blocks) names a path that exists, a folder when it
//! ends in `/` and a file otherwise; the spans of the walk (the section
//! whose heading starts `## A walk`) are checked on their own, so a step
//! that names a moved file fails as the walk's. Every folder under `src/`
//! is named by a span of the Codemap section (from its heading to the next
//! `## ` heading).
//!
//! And every `.rs` file under `src/` is named somewhere: in
//! `ARCHITECTURE.md` by a span giving its whole path, or in its folder's
//! codemap by a span giving its file name (`discount.rs`), where an `N`
//! stands for a number (`to_N.rs` names `to_2.rs` and `to_15.rs`). A
//! folder's codemap is the `//!` at the top of its `mod.rs`, or, for a
//! folder without one, of the file that declares its modules beside it
//! (`x.rs` for `x/`); for `src/` itself it is `src/lib.rs`'s. A folder's
//! `mod.rs` and `src/lib.rs` are the codemap and count as named. A file
//! name a codemap gives (a span ending `.rs` without a `/`) must name a
//! file of its folder.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::path::{Component, Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    let path = root().join("ARCHITECTURE.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The backticked spans of `text`, outside fenced code blocks, each with
/// its line number (from 1).
fn spans(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Between the 1st and 2nd backtick, the 3rd and 4th, …
        for span in line.split('`').skip(1).step_by(2) {
            found.push((n + 1, span.to_string()));
        }
    }
    found
}

/// The backticked spans of `text` that start with `src/`, outside fenced
/// code blocks, each with its line number (from 1).
fn named_paths(text: &str) -> Vec<(usize, String)> {
    spans(text)
        .into_iter()
        .filter(|(_, span)| span.starts_with("src/"))
        .collect()
}

/// The lines (from 1) of the section of `text` whose `## ` heading starts
/// with `heading`: from that heading to the line before the next `## `
/// heading, or to the end.
fn section_lines(text: &str, heading: &str) -> Option<RangeInclusive<usize>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(heading))?;
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with("## "))
        .map_or(lines.len(), |i| start + 1 + i);
    Some(start + 1..=end)
}

/// The Codemap section of `text`: from its `## Codemap` heading to the
/// next `## ` heading.
fn codemap(text: &str) -> String {
    let lines =
        section_lines(text, "## Codemap").expect("ARCHITECTURE.md has a `## Codemap` section");
    text.lines()
        .enumerate()
        .filter(|(n, _)| lines.contains(&(n + 1)))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

/// The lines of the walk of `text`: the section whose heading starts
/// `## A walk`.
fn walk_lines(text: &str) -> RangeInclusive<usize> {
    section_lines(text, "## A walk").expect("ARCHITECTURE.md has a `## A walk` section")
}

/// The spans of `text` naming a path that does not exist under `root` as
/// named (a folder for a span ending in `/`, a file otherwise), each with
/// its line and as "line N: `span` (why)".
fn wrong_paths(root: &Path, text: &str) -> Vec<(usize, String)> {
    let mut wrong = Vec::new();
    for (line, span) in named_paths(text) {
        let normal = Path::new(span.trim_end_matches('/'))
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
            && !span.contains("//");
        let path = root.join(&span);
        let problem = if !normal {
            Some("not a plain path")
        } else if span.ends_with('/') {
            (!path.is_dir()).then_some("no such folder")
        } else {
            (!path.is_file()).then_some("no such file")
        };
        if let Some(problem) = problem {
            wrong.push((line, format!("line {line}: `{span}` ({problem})")));
        }
    }
    wrong
}

/// The wrong paths of `text` inside its walk (`true`) or outside it.
fn wrong_paths_in_walk(root: &Path, text: &str, in_walk: bool) -> Vec<String> {
    let walk = walk_lines(text);
    wrong_paths(root, text)
        .into_iter()
        .filter(|(line, _)| walk.contains(line) == in_walk)
        .map(|(_, wrong)| wrong)
        .collect()
}

/// A path under `root` as the codemap writes it: relative, with `/`.
fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("under the root")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every folder under `dir`, as `src/…/` paths relative to `root`.
fn folders(root: &Path, dir: &Path, into: &mut BTreeSet<String>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            into.insert(format!("{}/", relative(root, &path)));
            folders(root, &path, into);
        }
    }
}

/// The folders under `root`'s `src/` that no span of `text`'s Codemap
/// section names.
fn unnamed_folders(root: &Path, text: &str) -> Vec<String> {
    let mut all = BTreeSet::new();
    folders(root, &root.join("src"), &mut all);
    let named: BTreeSet<String> = named_paths(&codemap(text))
        .into_iter()
        .map(|(_, span)| span)
        .collect();
    all.into_iter().filter(|f| !named.contains(f)).collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, into: &mut BTreeSet<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.insert(path);
        }
    }
}

/// The codemap of the folder `dir` under `root`: `src/lib.rs` for `src/`,
/// else its `mod.rs`, else the file beside it that declares its modules
/// (`x.rs` for `x/`); none when there is none of them.
fn codemap_of(root: &Path, dir: &Path) -> Option<PathBuf> {
    let candidates = if dir == root.join("src") {
        vec![dir.join("lib.rs")]
    } else {
        vec![dir.join("mod.rs"), dir.with_extension("rs")]
    };
    candidates.into_iter().find(|p| p.is_file())
}

/// The `//!` lines at the top of the file `path`, without their `//!`.
fn inner_doc(path: &Path) -> String {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map_while(|l| l.trim_start().strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect()
}

/// Whether the codemap's `pattern` names the file `name`: the same, but
/// that an `N` of the pattern stands for one or more digits.
fn names(pattern: &str, name: &str) -> bool {
    let name = name.as_bytes();
    let mut at = 0;
    for &p in pattern.as_bytes() {
        if p == b'N' {
            let digits = name[at..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return false;
            }
            at += digits;
        } else if name.get(at) == Some(&p) {
            at += 1;
        } else {
            return false;
        }
    }
    at == name.len()
}

/// The spans of a codemap that give a file name (`discount.rs`,
/// `to_N.rs`): ending `.rs`, without a `/` or a space.
fn file_names(doc: &str) -> Vec<String> {
    spans(doc)
        .into_iter()
        .map(|(_, span)| span)
        .filter(|s| s.ends_with(".rs") && !s.contains('/') && !s.contains(' '))
        .collect()
}

/// The `.rs` files under `root`'s `src/` that are named nowhere: by no
/// span of `text` giving their whole path, and by no file name of their
/// folder's codemap (whose own file counts as named).
fn unnamed_files(root: &Path, text: &str) -> Vec<String> {
    let whole: BTreeSet<String> = named_paths(text).into_iter().map(|(_, s)| s).collect();
    let mut all = BTreeSet::new();
    rust_files(&root.join("src"), &mut all);
    let mut unnamed = Vec::new();
    for file in all {
        let path = relative(root, &file);
        if whole.contains(&path) {
            continue;
        }
        let folder = file.parent().expect("a file in a folder");
        let map = codemap_of(root, folder);
        if map.as_deref() == Some(file.as_path()) {
            continue;
        }
        let name = file.file_name().expect("a file name").to_string_lossy();
        let listed = map.is_some_and(|map| {
            file_names(&inner_doc(&map))
                .iter()
                .any(|pattern| names(pattern, &name))
        });
        if !listed {
            unnamed.push(path);
        }
    }
    unnamed
}

/// The file names the codemaps under `root`'s `src/` give that name no
/// file of their folder, each as "`codemap`: `name`".
fn stale_names(root: &Path) -> Vec<String> {
    let mut dirs = BTreeSet::new();
    folders(root, &root.join("src"), &mut dirs);
    let mut stale = Vec::new();
    let all = std::iter::once(root.join("src")).chain(dirs.iter().map(|d| root.join(d)));
    for dir in all {
        let Some(map) = codemap_of(root, &dir) else {
            continue;
        };
        let mut here = BTreeSet::new();
        for entry in std::fs::read_dir(&dir).expect("a readable folder") {
            let path = entry.expect("a readable folder entry").path();
            if path.is_file() {
                here.insert(
                    path.file_name()
                        .expect("a name")
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
        for pattern in file_names(&inner_doc(&map)) {
            if !here.iter().any(|name| names(&pattern, name)) {
                stale.push(format!("{}: `{pattern}`", relative(root, &map)));
            }
        }
    }
    stale
}

#[test]
fn every_src_path_the_architecture_names_exists() {
    let text = architecture();
    assert!(
        named_paths(&text).len() > 20,
        "ARCHITECTURE.md names its files as backticked `src/…` paths"
    );
    let wrong = wrong_paths_in_walk(root(), &text, false);
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md names paths that are not in the tree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_path_of_the_walk_exists() {
    let text = architecture();
    let walk = walk_lines(&text);
    let steps = named_paths(&text)
        .into_iter()
        .filter(|(line, _)| walk.contains(line))
        .count();
    assert!(
        steps > 10,
        "the walk names each step's file as a `src/…` path"
    );
    let wrong = wrong_paths_in_walk(root(), &text, true);
    assert!(
        wrong.is_empty(),
        "the walk of ARCHITECTURE.md names paths that are not in the tree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_codemap_names_every_folder_of_src() {
    let unnamed = unnamed_folders(root(), &architecture());
    assert!(
        unnamed.is_empty(),
        "the codemap of ARCHITECTURE.md names none of these folders of src/ (each wants a `### ` heading):\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn every_file_of_src_is_named_somewhere() {
    let unnamed = unnamed_files(root(), &architecture());
    assert!(
        unnamed.is_empty(),
        "these files of src/ are named nowhere (name each in the `//!` of its folder's mod.rs, or src/lib.rs, by its file name in backticks):\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn every_file_a_folder_lists_is_there() {
    let stale = stale_names(root());
    assert!(
        stale.is_empty(),
        "these codemaps name files their folder does not hold:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_checks_catch_a_stale_codemap() {
    let text = architecture();
    // A file that is not there, a file named as a folder, a folder as a
    // file, a path climbing out: each is caught, with its line.
    let doctored = format!(
        "{text}\n- `src/http/nowhere.rs`\n- `src/http/server.rs/`\n- `src/http`\n- `src/../Cargo.toml`\n"
    );
    let wrong: Vec<String> = wrong_paths(root(), &doctored)
        .into_iter()
        .map(|(_, w)| w)
        .collect();
    assert_eq!(wrong.len(), 4, "{wrong:#?}");
    assert!(wrong[0].contains("`src/http/nowhere.rs` (no such file)"));
    assert!(wrong[1].contains("(no such folder)"));
    assert!(wrong[2].contains("`src/http` (no such file)"));
    assert!(wrong[3].contains("(not a plain path)"));
    // A span in a fenced block is code, not a name.
    assert!(named_paths("```\n`src/nowhere.rs`\n```\n").is_empty());
    // A folder named only outside the codemap, or nowhere, is missing.
    let item = "- `src/http/mcp/`:";
    assert!(text.contains(item));
    let without = text.replace(item, "- The agent server:");
    assert_eq!(unnamed_folders(root(), &without), ["src/http/mcp/"]);
}

#[test]
fn the_checks_catch_a_missing_path_of_the_walk() {
    let text = "# A\n\n## Codemap\n\n- `src/http/server.rs`\n\n## A walk: one request\n\n\
                1. `src/http/server.rs`: there\n2. `src/http/gone.rs`: moved away\n\n\
                ## Tests\n\n- `src/books/nowhere.rs`\n";
    // The walk's missing path is the walk's, the other the document's.
    assert_eq!(
        wrong_paths_in_walk(root(), text, true),
        ["line 10: `src/http/gone.rs` (no such file)"]
    );
    assert_eq!(
        wrong_paths_in_walk(root(), text, false),
        ["line 14: `src/books/nowhere.rs` (no such file)"]
    );
    // The real walk: a step's file renamed is caught as the walk's.
    let real = architecture();
    let step = "`src/books/invoices/vat_check.rs`";
    let walk = walk_lines(&real);
    let at = real
        .lines()
        .position(|l| l.contains(step))
        .filter(|n| walk.contains(&(n + 1)));
    assert!(at.is_some(), "the walk names {step}");
    let renamed = real.replace(step, "`src/books/invoices/vat_checks.rs`");
    let wrong = wrong_paths_in_walk(root(), &renamed, true);
    assert!(
        !wrong.is_empty()
            && wrong
                .iter()
                .all(|w| w.contains("vat_checks.rs` (no such file)")),
        "{wrong:#?}"
    );
}

#[test]
fn the_checks_catch_a_file_named_nowhere() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // `src/` is mapped by lib.rs: it names main.rs and inbox.rs, a file
    // that is gone, and error.rs only inside a fenced block.
    write(
        "src/lib.rs",
        "//! The crate.\n//!\n//! - `main.rs`: the binary.\n//! - `inbox.rs`: the mailbox.\n//! - `gone.rs`: moved away.\n//!\n//! ```text\n//! `error.rs`\n//! ```\npub mod books;\n",
    );
    write("src/main.rs", "fn main() {}\n");
    write("src/error.rs", "pub struct Error;\n");
    // A folder with a mod.rs: one file by name, steps by a pattern, one
    // file by its whole path in the document, the others nowhere.
    write(
        "src/books/mod.rs",
        "//! The books.\n//!\n//! - `ledger.rs`: the ledger.\n//! - `to_N.rs`: the steps.\n",
    );
    write("src/books/ledger.rs", "");
    write("src/books/to_2.rs", "");
    write("src/books/to_15.rs", "");
    write("src/books/to_x.rs", "");
    write("src/books/discount.rs", "");
    write("src/books/webhooks.rs", "");
    // A folder without a mod.rs, mapped by the file beside it.
    write(
        "src/inbox.rs",
        "//! The mailbox: `poll.rs`, polling.\npub mod poll;\n",
    );
    write("src/inbox/poll.rs", "");
    write("src/inbox/session.rs", "");
    // A folder whose mod.rs lists nothing.
    write("src/documents/mod.rs", "//! The documents.\n");
    write(
        "src/documents/read/mod.rs",
        "//! Reading.\n#[cfg(test)]\nmod tests;\n",
    );
    write("src/documents/read/tests.rs", "");
    // The document names one file whole, and one by its bare name only.
    let text = "## Codemap\n\n- `src/books/discount.rs`\n- `webhooks.rs`\n";
    assert_eq!(
        unnamed_files(root, text),
        [
            "src/books/to_x.rs",
            "src/books/webhooks.rs",
            "src/documents/read/tests.rs",
            "src/error.rs",
            "src/inbox/session.rs",
        ]
    );
    // A codemap naming a file its folder does not hold.
    assert_eq!(stale_names(root), ["src/lib.rs: `gone.rs`"]);
    // The pattern: `N` is one or more digits, nothing else.
    assert!(names("to_N.rs", "to_2.rs") && names("to_N.rs", "to_15.rs"));
    assert!(!names("to_N.rs", "to_.rs") && !names("to_N.rs", "to_2x.rs"));
    assert!(!names("to_N.rs", "to_2.rs.bak") && names("mod.rs", "mod.rs"));
}
