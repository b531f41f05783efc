//! The codemap of `ARCHITECTURE.md` against the source tree, by the rule the
//! document states under "How the codemap names paths": every backticked
//! span starting with `src/` (outside fenced code blocks) names a path that
//! exists, a folder when it ends in `/` and a file otherwise; and every
//! folder under `src/` is named by a span of the Codemap section (from its
//! heading to the next `## ` heading).

use std::collections::BTreeSet;
use std::path::{Component, Path};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    let path = root().join("ARCHITECTURE.md");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The backticked spans of `text` that start with `src/`, outside fenced
/// code blocks, each with its line number (from 1).
fn named_paths(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
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
            if span.starts_with("src/") {
                named.push((n + 1, span.to_string()));
            }
        }
    }
    named
}

/// The Codemap section of `text`: from its `## Codemap` heading to the next
/// `## ` heading.
fn codemap(text: &str) -> &str {
    let start = text
        .find("\n## Codemap\n")
        .expect("ARCHITECTURE.md has a `## Codemap` section");
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The spans of `text` naming a path that does not exist under `root` as
/// named (a folder for a span ending in `/`, a file otherwise), each as
/// "line N: `span` (why)".
fn wrong_paths(root: &Path, text: &str) -> Vec<String> {
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
            wrong.push(format!("line {line}: `{span}` ({problem})"));
        }
    }
    wrong
}

/// Every folder under `dir`, as `src/…/` paths relative to `root`.
fn folders(root: &Path, dir: &Path, into: &mut BTreeSet<String>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            into.insert(format!("{relative}/"));
            folders(root, &path, into);
        }
    }
}

/// The folders under `root`'s `src/` that no span of `text`'s Codemap
/// section names.
fn unnamed_folders(root: &Path, text: &str) -> Vec<String> {
    let mut all = BTreeSet::new();
    folders(root, &root.join("src"), &mut all);
    let named: BTreeSet<String> = named_paths(codemap(text))
        .into_iter()
        .map(|(_, span)| span)
        .collect();
    all.into_iter().filter(|f| !named.contains(f)).collect()
}

#[test]
fn every_src_path_the_architecture_names_exists() {
    let text = architecture();
    assert!(
        named_paths(&text).len() > 20,
        "ARCHITECTURE.md names its files as backticked `src/…` paths"
    );
    let wrong = wrong_paths(root(), &text);
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md names paths that are not in the tree:\n{}",
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
fn the_checks_catch_a_stale_codemap() {
    let text = architecture();
    // A file that is not there, a file named as a folder, a folder as a
    // file, a path climbing out: each is caught, with its line.
    let doctored = format!(
        "{text}\n- `src/http/nowhere.rs`\n- `src/http/server.rs/`\n- `src/http`\n- `src/../Cargo.toml`\n"
    );
    let wrong = wrong_paths(root(), &doctored);
    assert_eq!(wrong.len(), 4, "{wrong:#?}");
    assert!(wrong[0].contains("`src/http/nowhere.rs` (no such file)"));
    assert!(wrong[1].contains("(no such folder)"));
    assert!(wrong[2].contains("`src/http` (no such file)"));
    assert!(wrong[3].contains("(not a plain path)"));
    // A span in a fenced block is code, not a name.
    assert!(named_paths("```\n`src/nowhere.rs`\n```\n").is_empty());
    // A folder named only outside the codemap, or nowhere, is missing.
    let heading = "### `src/http/mcp/`";
    assert!(text.contains(heading));
    let without = text.replace(heading, "### The agent server");
    assert_eq!(unnamed_folders(root(), &without), ["src/http/mcp/"]);
}
