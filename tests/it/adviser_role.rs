//! The tax adviser's role: invited like the others, reads everything, makes
//! and downloads the DATEV and GoBD exports (each kept and downloadable
//! again from the list of exports made), and may do nothing else: every
//! form of the screens' route table posted as an adviser is refused with
//! nothing changed. A person who may not fill in the DATEV settings is told
//! who can.

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::support::screens::{invoice, person, Office};

/// Every table's rows as text, but the sessions' (a visit touches its own)
/// and a key's last use.
fn snapshot(conn: &Connection) -> BTreeMap<String, Vec<String>> {
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name NOT LIKE '%fts%' AND name <> 'sessions' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|t| t.unwrap())
        .collect();
    tables
        .into_iter()
        .map(|t| {
            // An API key's last use is written behind, by the usage flush,
            // whenever it runs: not a change any form made.
            let columns: Vec<String> = conn
                .prepare(&format!("SELECT name FROM pragma_table_info('{t}')"))
                .unwrap()
                .query_map([], |r| r.get::<_, String>(0))
                .unwrap()
                .map(|c| c.unwrap())
                .filter(|c| !(t == "api_keys" && c == "last_used_at"))
                .map(|c| format!("\"{c}\""))
                .collect();
            let mut stmt = conn
                .prepare(&format!("SELECT {} FROM \"{t}\"", columns.join(", ")))
                .unwrap();
            let n = stmt.column_count();
            let rows = stmt
                .query_map([], |r| {
                    Ok((0..n)
                        .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                        .collect::<Vec<_>>()
                        .join("|"))
                })
                .unwrap()
                .map(|r| r.unwrap())
                .collect();
            (t, rows)
        })
        .collect()
}

/// The POST routes of the signed-in screens, read from the route table
/// (`route` in src/http/screens/mod.rs), each variable segment named `x1`.
fn post_routes() -> Vec<String> {
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http/screens/mod.rs"),
    )
    .unwrap();
    let table = &source[source.find("fn route(ctx: &Ctx)").expect("the route table")..];
    let mut routes = Vec::new();
    for line in table.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((pattern, guard)) = rest.split_once(']') else {
            continue;
        };
        if !guard.trim_start().starts_with("if post") {
            continue;
        }
        let path: Vec<String> = pattern
            .split(',')
            .map(|s| s.trim())
            .map(
                |s| match s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                    Some(literal) => literal.to_string(),
                    None => "x1".to_string(),
                },
            )
            .collect();
        routes.push(format!("/{}", path.join("/")));
    }
    routes
}

#[test]
fn an_adviser_exports_and_downloads_again_and_is_refused_every_other_form() {
    let office = Office::new();
    invoice(&office, &office.a, "Kunde Müller KG", 10_000, "2026-10-05");
    person(&office.data, &office.a, "kanzlei@steuer.de", "adviser");
    office.data.ok(&[
        "company",
        "set",
        &office.a,
        "--datev-adviser",
        "29098",
        "--datev-client",
        "55003",
    ]);
    let mut adviser = office.signed_in("kanzlei@steuer.de");

    // Reads everything.
    for page in [
        "/dashboard",
        "/invoices",
        "/customers",
        "/books",
        "/books/trial-balance",
        "/books/vat?period=2026-10",
        "/bank",
        "/bills",
    ] {
        assert_eq!(adviser.get(page).status, 200, "{page}");
    }
    // Told who sets the DATEV settings, not sent there.
    let page = adviser.get("/books/export");
    assert!(
        !page.body.contains("href=\"/settings/datev\""),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("set by the company&#39;s owner: owner (owner@alpha.de)")
            || page
                .body
                .contains("set by the company's owner: owner (owner@alpha.de)"),
        "{}",
        page.body
    );

    // Makes both exports.
    let datev = adviser.act(
        "/books/export",
        "/books/export/datev",
        &[("from", "2026-10-01"), ("to", "2026-10-31")],
    );
    assert_eq!(datev.status, 200, "{}", datev.body);
    assert!(datev.raw.starts_with(b"PK"));
    let gobd = adviser.act("/books/export", "/books/export/gobd", &[("year", "2026")]);
    assert_eq!(gobd.status, 200, "{}", gobd.body);
    assert_eq!(gobd.header("content-type"), Some("application/zip"));
    let mut medium = zip::ZipArchive::new(std::io::Cursor::new(gobd.raw.clone())).unwrap();
    assert!(medium.by_name("index.xml").is_ok());

    // Both listed, each downloadable again, byte for byte.
    let page = adviser.get("/books/export");
    let links: Vec<String> = page
        .body
        .match_indices("href=\"/books/exports/")
        .map(|(at, _)| {
            let rest = &page.body[at + 6..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect();
    assert_eq!(links.len(), 2, "{}", page.body);
    let again: Vec<Vec<u8>> = links.iter().map(|l| adviser.get(l).raw).collect();
    assert!(again.contains(&datev.raw) && again.contains(&gobd.raw));
    // A viewer sees the list but downloads nothing; another company's file is not found.
    let mut viewer = office.signed_in("viewer@alpha.de");
    assert_eq!(viewer.get(&links[0]).status, 403);
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&links[0]).status, 404);

    // Every other form of the screens is refused, and nothing changes.
    let allowed = [
        "/books/export/datev",
        "/books/export/gobd",
        "/logout",
        "/session/company",
        "/session/environment",
        "/session/language",
    ];
    // A person's own account (their second factors) is theirs, whatever their role.
    let own = |r: &str| r.starts_with("/account/");
    let routes = post_routes();
    assert!(routes.len() > 40, "the route table was read: {routes:?}");
    let before = snapshot(&office.db());
    let token = adviser.get("/dashboard").csrf();
    let mut refused = 0;
    for route in routes
        .iter()
        .filter(|r| !allowed.contains(&r.as_str()) && !own(r))
    {
        let answer = adviser.post(
            route,
            &[("csrf", &token), ("name", "Neu"), ("amount", "1,00")],
        );
        assert_eq!(answer.status, 403, "{route}: {}", answer.body);
        refused += 1;
    }
    assert_eq!(
        snapshot(&office.db()),
        before,
        "a refused form changed nothing"
    );
    println!("adviser: {refused} forms of the route table refused with 403, nothing changed; 2 exports made and downloaded again");
}
