//! The shape of the source, checked on it. The layer rule: surfaces
//! (`console`, `http`) on top, `access`, `books`, `outbox` and `documents`
//! in the middle, `rules` and `store` below, `error` under all; every
//! `crate::` and `super::` path of every file under `src/` (inline paths,
//! `use` lists and `pub use` alike) must point along an allowed edge.
//! ARCHITECTURE.md lists the same table. Between files: no file names
//! another that names it back, directly or around a ring (a parent naming a
//! child through `child::x` counts, as does a child naming its parent
//! through `super::x`), and no file of the screens, REST or the agent server
//! names the server, the top of `http`. And no file holds more than 1,000
//! lines outside its test modules.

use std::collections::{BTreeMap, BTreeSet};
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
            "inbox",
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
/// string and character literals (so neither can fake or hide a path or a
/// brace); their line breaks stay, so each line of the code is the file's.
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
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
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
            out.push('"');
            'raw: while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break 'raw;
                }
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push('"');
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push('"');
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

/// Reads a path from `i` on (`a::b`, `a::{b, c::{d, e}}`, `a::*`), its
/// segments following `prefix`; adds every whole path it spells to `out` and
/// returns where it ends.
fn read_path(chars: &[char], i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    let mut i = skip_space(chars, i);
    loop {
        match chars.get(i) {
            Some('{') => return read_group(chars, i + 1, &path, out),
            Some('*') => {
                out.push(path);
                return i + 1;
            }
            _ => {}
        }
        let (name, end) = identifier_at(chars, i);
        if name.is_empty() {
            out.push(path);
            return i;
        }
        path.push(name);
        let after = skip_space(chars, end);
        if chars.get(after) == Some(&':') && chars.get(after + 1) == Some(&':') {
            i = skip_space(chars, after + 2);
        } else {
            out.push(path);
            return end;
        }
    }
}

/// Reads the items of a `{…}` group from `i` (just past `{`), each a path
/// following `prefix`; returns where the group ends.
fn read_group(
    chars: &[char],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        i = skip_space(chars, i);
        match chars.get(i) {
            None => return i,
            Some('}') => return i + 1,
            Some(c) if c.is_alphanumeric() || matches!(c, '_' | '{' | '*') => {
                i = read_path(chars, i, prefix.to_vec(), out);
                // What follows the item's path (`as name`) up to its end.
                while chars.get(i).is_some_and(|c| *c != ',' && *c != '}') {
                    i += 1;
                }
            }
            Some(_) => i += 1,
        }
    }
}

/// Every path a file's code spells from the crate's root, from `self::` or
/// `super::`, or from the name of a child module (`bills::list` where
/// `is_module` says `bills` is one), as the whole path from the crate's root
/// (`use` groups spelled out); `super::` resolves against the module it
/// stands in (the file's, and any inline `mod x { … }` around it).
fn named_paths(
    module: &[String],
    code: &str,
    is_module: &dyn Fn(&[String]) -> bool,
) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut paths = Vec::new();
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
        let boundary =
            i == 0 || !(chars[i - 1].is_alphanumeric() || matches!(chars[i - 1], '_' | ':' | '.'));
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
        let separated = |at: usize| {
            let after = skip_space(&chars, at);
            (chars.get(after) == Some(&':') && chars.get(after + 1) == Some(&':'))
                .then_some(after + 2)
        };
        if !boundary || separated(end).is_none() {
            i = end;
            continue;
        }
        // Walk the leading `crate::` or `self::`, or the `super::`s.
        let mut base: Vec<String> = module.to_vec();
        base.extend(inline.iter().map(|(name, _)| name.clone()));
        let mut j = i;
        loop {
            let (w, e) = identifier_at(&chars, j);
            let Some(next) = separated(e) else {
                break;
            };
            match w.as_str() {
                "crate" if j == i => base.clear(),
                "self" if j == i => {}
                "super" => {
                    base.pop();
                }
                _ => break,
            }
            j = skip_space(&chars, next);
        }
        if j == i {
            // A bare path: only the name of a child module starts one.
            let mut child = base.clone();
            child.push(word);
            if !is_module(&child) {
                i = end;
                continue;
            }
        }
        i = read_path(&chars, j, base, &mut paths).max(end);
    }
    paths
}

/// Every top-level module a file's code names.
fn named_tops(module: &[String], code: &str) -> BTreeSet<String> {
    named_paths(module, code, &|_| false)
        .into_iter()
        .filter_map(|path| path.into_iter().next())
        .collect()
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
    let mut wrong = Vec::new();
    for file in sources(src) {
        let Some(from) = file.module.first() else {
            continue; // lib.rs and main.rs declare and start everything.
        };
        let allowed = ALLOWED
            .iter()
            .find(|(m, _)| m == from)
            .unwrap_or_else(|| panic!("{} is in no layer; add it to ALLOWED", file.path))
            .1;
        for to in named_tops(&file.module, &file.code) {
            let to = top_of(&to);
            if to != from && !allowed.contains(&to) {
                wrong.push(format!(
                    "{} ({from}) names {to}, which {from} may not name",
                    file.path
                ));
            }
        }
    }
    wrong
}

/// A file of `src/`: its module path, its path under `src/` and its code.
struct SourceFile {
    module: Vec<String>,
    path: String,
    code: String,
}

/// Every file of `src`, in the order of their paths.
fn sources(src: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    files
        .iter()
        .map(|file| SourceFile {
            module: module_of(src, file),
            path: file
                .strip_prefix(src)
                .expect("under src")
                .to_string_lossy()
                .into_owned(),
            code: code_only(&std::fs::read_to_string(file).expect("a readable file")),
        })
        .collect()
}

/// Which files each file names (by module path): every path it spells,
/// resolved to the longest of its prefixes that is a file's module. lib.rs
/// and main.rs, which declare and start everything, are left out.
fn file_graph(files: &[SourceFile]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .filter(|f| !f.module.is_empty())
        .map(|f| f.module.clone())
        .collect();
    let is_module = |path: &[String]| modules.contains(path);
    let mut graph = BTreeMap::new();
    for file in files.iter().filter(|f| !f.module.is_empty()) {
        let mut named = BTreeSet::new();
        for path in named_paths(&file.module, &file.code, &is_module) {
            let file_named = (1..=path.len())
                .rev()
                .map(|k| &path[..k])
                .find(|prefix| modules.contains(*prefix));
            if let Some(to) = file_named.filter(|to| *to != file.module.as_slice()) {
                named.insert(to.to_vec());
            }
        }
        graph.insert(file.module.clone(), named);
    }
    graph
}

/// Tarjan's walk for the strongly connected components of a graph of
/// numbered nodes.
struct Components<'g> {
    next: &'g [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
    counter: usize,
    found: Vec<Vec<usize>>,
}

impl Components<'_> {
    fn of(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut walk = Components {
            next,
            index: vec![None; next.len()],
            low: vec![0; next.len()],
            stack: Vec::new(),
            on_stack: vec![false; next.len()],
            counter: 0,
            found: Vec::new(),
        };
        for v in 0..next.len() {
            if walk.index[v].is_none() {
                walk.visit(v);
            }
        }
        walk.found
    }

    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        let next = self.next;
        for &w in &next[v] {
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                Some(_) => {}
            }
        }
        if self.index[v] == Some(self.low[v]) {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.found.push(component);
        }
    }
}

/// The circles among the files of `src` (files that name each other,
/// directly or around a ring), each as its files and then each file's edges
/// inside it.
fn circles(src: &Path) -> Vec<String> {
    let files = sources(src);
    let graph = file_graph(&files);
    let path_of: BTreeMap<&[String], &str> = files
        .iter()
        .map(|f| (f.module.as_slice(), f.path.as_str()))
        .collect();
    let nodes: Vec<&Vec<String>> = graph.keys().collect();
    let number: BTreeMap<&Vec<String>, usize> =
        nodes.iter().enumerate().map(|(n, m)| (*m, n)).collect();
    let next: Vec<Vec<usize>> = nodes
        .iter()
        .map(|m| graph[*m].iter().map(|to| number[to]).collect())
        .collect();
    let mut found: Vec<String> = Components::of(&next)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let inside: BTreeSet<&Vec<String>> = component.iter().map(|n| nodes[*n]).collect();
            let names: Vec<&str> = inside.iter().map(|m| path_of[m.as_slice()]).collect();
            let mut text = format!("{} files: {}", names.len(), names.join(", "));
            for from in &inside {
                let to: Vec<&str> = graph[*from]
                    .iter()
                    .filter(|to| inside.contains(to))
                    .map(|to| path_of[to.as_slice()])
                    .collect();
                text.push_str(&format!(
                    "\n    {} -> {}",
                    path_of[from.as_slice()],
                    to.join(", ")
                ));
            }
            text
        })
        .collect();
    found.sort();
    found
}

/// The files of the screens, REST and the agent server (`http/screens`,
/// `http/rest`, `http/mcp`) that name the server (`http/server.rs` or a file
/// inside it), as sentences.
fn surfaces_naming_the_server(src: &Path) -> Vec<String> {
    let files = sources(src);
    let graph = file_graph(&files);
    let path_of: BTreeMap<&[String], &str> = files
        .iter()
        .map(|f| (f.module.as_slice(), f.path.as_str()))
        .collect();
    let within = |module: &[String], path: &[&str]| {
        module.len() >= path.len() && module.iter().zip(path).all(|(m, p)| m == p)
    };
    let mut found = Vec::new();
    for (from, named) in &graph {
        let surface = [["http", "screens"], ["http", "rest"], ["http", "mcp"]]
            .iter()
            .any(|s| within(from, s));
        for to in named
            .iter()
            .filter(|to| surface && within(to, &["http", "server"]))
        {
            found.push(format!(
                "{} names {}",
                path_of[from.as_slice()],
                path_of[to.as_slice()]
            ));
        }
    }
    found
}

/// The files of `src` with more than `limit` lines outside their test
/// modules, as sentences (a test module kept in a file of its own counts
/// nothing).
fn long_files(src: &Path, limit: usize) -> Vec<String> {
    let files = sources(src);
    let counted: Vec<(&SourceFile, usize, Vec<String>)> = files
        .iter()
        .map(|f| {
            let (lines, test_files) = lines_outside_tests(&f.code);
            (f, lines, test_files)
        })
        .collect();
    let test_files: BTreeSet<Vec<String>> = counted
        .iter()
        .flat_map(|(f, _, names)| {
            names.iter().map(|name| {
                let mut module = f.module.clone();
                module.push(name.clone());
                module
            })
        })
        .collect();
    counted
        .iter()
        .filter(|(f, lines, _)| *lines > limit && !test_files.contains(&f.module))
        .map(|(f, lines, _)| format!("{}: {lines} lines outside its test modules", f.path))
        .collect()
}

/// The lines of a file's code outside its `#[cfg(test)]` modules (counted
/// from the attribute to the module's closing brace), and the names of the
/// test modules it declares as files of their own (`#[cfg(test)] mod tests;`).
fn lines_outside_tests(code: &str) -> (usize, Vec<String>) {
    const MARK: &str = "#[cfg(test)]";
    let chars: Vec<char> = code.chars().collect();
    let mark: Vec<char> = MARK.chars().collect();
    let mut in_tests = 0;
    let mut test_files = Vec::new();
    let mut i = 0;
    while i + mark.len() <= chars.len() {
        if chars[i..i + mark.len()] != mark[..] {
            i += 1;
            continue;
        }
        let start = i;
        i += mark.len();
        // Further attributes, a visibility, then `mod name`.
        let mut j = skip_space(&chars, i);
        while chars.get(j) == Some(&'#') {
            while chars.get(j).is_some_and(|c| *c != ']') {
                j += 1;
            }
            j = skip_space(&chars, j + 1);
        }
        let (mut word, mut end) = identifier_at(&chars, j);
        if word == "pub" {
            j = skip_space(&chars, end);
            if chars.get(j) == Some(&'(') {
                while chars.get(j).is_some_and(|c| *c != ')') {
                    j += 1;
                }
                j += 1;
            }
            (word, end) = identifier_at(&chars, skip_space(&chars, j));
        }
        if word != "mod" {
            continue;
        }
        let (name, after) = identifier_at(&chars, skip_space(&chars, end));
        let open = skip_space(&chars, after);
        match chars.get(open) {
            Some(';') => test_files.push(name),
            Some('{') => {
                let mut depth = 0;
                let mut close = open;
                while close < chars.len() {
                    match chars[close] {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    close += 1;
                }
                let close = close.min(chars.len() - 1);
                in_tests += chars[start..=close].iter().filter(|c| **c == '\n').count() + 1;
                i = close + 1;
            }
            _ => {}
        }
    }
    (code.lines().count().saturating_sub(in_tests), test_files)
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

#[test]
fn the_circle_check_finds_pairs_rings_and_parents_named_back() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod pair;\npub mod ring;\npub mod parent;\npub mod router;\n",
    );
    // Two files naming each other, one through a `use` group.
    write("pair/mod.rs", "pub mod x;\npub mod y;\n");
    write("pair/x.rs", "use crate::pair::{self, y::Thing};\n");
    write("pair/y.rs", "pub fn f() {\n    super::x::g()\n}\n");
    // Three files around a ring.
    write(
        "ring/mod.rs",
        "pub mod one;\npub mod three;\npub mod two;\n",
    );
    write("ring/one.rs", "use crate::ring::two;\n");
    write(
        "ring/two.rs",
        "pub fn f() -> crate::ring::three::T {\n    crate::ring::three::T::default()\n}\n",
    );
    write("ring/three.rs", "use super::{one::X};\n");
    // A parent naming its child by a bare path; the child names the parent.
    write(
        "parent/mod.rs",
        "pub mod kid;\npub struct Shared;\npub fn run() {\n    kid::go()\n}\n",
    );
    write("parent/kid.rs", "use super::Shared;\npub fn go() {}\n");
    // A parent that only routes to its children, which share a leaf: no
    // circle (nor do a comment, a string or the leaf's test module count).
    write(
        "router/mod.rs",
        "pub mod a;\npub mod b;\npub mod leaf;\npub fn route(n: u8) {\n    if n == 0 { a::run() } else { b::run() }\n}\n",
    );
    write(
        "router/a.rs",
        "use super::leaf::Shared;\npub fn run() {}\n// super::route in a comment\n",
    );
    write(
        "router/b.rs",
        "use crate::router::leaf;\npub fn run() {\n    let _ = \"super::route\";\n}\n",
    );
    write(
        "router/leaf.rs",
        "pub struct Shared;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    );
    assert_eq!(
        circles(src),
        vec![
            "2 files: pair/x.rs, pair/y.rs\n    pair/x.rs -> pair/y.rs\n    pair/y.rs -> pair/x.rs"
                .to_string(),
            "2 files: parent/mod.rs, parent/kid.rs\n    parent/mod.rs -> parent/kid.rs\n    parent/kid.rs -> parent/mod.rs"
                .to_string(),
            "3 files: ring/one.rs, ring/three.rs, ring/two.rs\n    ring/one.rs -> ring/two.rs\n    ring/three.rs -> ring/one.rs\n    ring/two.rs -> ring/three.rs"
                .to_string(),
        ]
    );
}

#[test]
fn the_line_count_leaves_out_test_modules() {
    let code = code_only(concat!(
        "//! A file.\n",
        "fn a() {}\n",
        "\n",
        "#[cfg(test)]\n",
        "mod tests {\n",
        "    #[test]\n",
        "    fn t() {\n",
        "        let _ = \"}\n",
        "\";\n",
        "    }\n",
        "}\n",
        "/* A comment\n",
        "over two lines. */\n",
        "#[cfg(test)]\n",
        "#[path = \"x.rs\"]\n",
        "mod more;\n",
    ));
    // 16 lines, of which the 8 of `tests`.
    assert_eq!(lines_outside_tests(&code), (8, vec!["more".to_string()]));
}

#[test]
fn no_file_names_another_that_names_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src);
    assert!(
        found.is_empty(),
        "files that name each other, directly or around a ring (a parent naming a child \
         through `child::x` counts, as does a child naming its parent through `super::x`):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_screen_rest_or_agent_file_names_the_server() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = surfaces_naming_the_server(&src);
    assert!(
        found.is_empty(),
        "the server is the top of http; nothing under it names it:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_holds_more_than_a_thousand_lines_outside_its_tests() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = long_files(&src, 1000);
    assert!(
        found.is_empty(),
        "files longer than 1,000 lines outside their test modules:\n{}",
        found.join("\n")
    );
}
