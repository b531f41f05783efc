//! Acts record their own audit: one act, a new invoice draft, performed
//! through every surface (the console without and with `--as`, a screen,
//! REST and an agent tool) writes exactly one audit row, naming who acted:
//! the system, the person, the API key. A replayed request writes none, a
//! draft's history names the key that made it, and no file of the surfaces
//! writes an audit row itself.

use serde_json::{json, Value};

use crate::support::screens::Office;
use crate::support::unique;

/// One audit row: (person's id, key's id, actor, act, subject).
type Row = (Option<String>, Option<String>, String, String, String);

/// The audit rows of every company written after row `after`, oldest first.
fn rows_after(office: &Office, after: i64) -> Vec<Row> {
    office
        .db()
        .prepare(
            "SELECT user_id, key_id, actor, act, subject FROM audit WHERE seq > ?1 ORDER BY seq",
        )
        .unwrap()
        .query_map([after], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The last audit row's number so far.
fn last_row(office: &Office) -> i64 {
    office.count("SELECT coalesce(max(seq), 0) FROM audit")
}

/// The id of the person with this e-mail address.
fn person_id(office: &Office, email: &str) -> String {
    office
        .db()
        .query_row("SELECT id FROM users WHERE email = ?1", [email], |r| {
            r.get(0)
        })
        .unwrap()
}

/// A customer of company A, made through the API before the act watched.
fn customer(office: &Office) -> String {
    let made = office.api().customer(&office.key_a, "Nordwind KG");
    made["id"].as_str().unwrap().to_string()
}

/// A key of company A named `name`, made by the console: (id, secret).
fn key(office: &Office, name: &str) -> (String, String) {
    let made = office.data.ok(&[
        "key",
        "create",
        "--company",
        &office.a,
        "--name",
        name,
        "--environment",
        "production",
        "--scopes",
        "all",
    ]);
    let text = |f: &str| made[f].as_str().unwrap().to_string();
    (text("id"), text("secret"))
}

/// The one row a new draft writes: `draft.created` on the draft.
fn created(user: Option<&str>, key: Option<&str>, actor: &str, draft: &str) -> Vec<Row> {
    vec![(
        user.map(str::to_string),
        key.map(str::to_string),
        actor.to_string(),
        "draft.created".to_string(),
        draft.to_string(),
    )]
}

fn id_of(record: &Value) -> String {
    record["id"].as_str().unwrap().to_string()
}

#[test]
fn a_draft_made_by_the_console_without_as_names_the_system_once() {
    let office = Office::new();
    let customer = customer(&office);
    let before = last_row(&office);
    let draft = office.data.ok(&[
        "draft",
        "create",
        "--company",
        &office.a,
        "--customer",
        &customer,
    ]);
    assert_eq!(
        rows_after(&office, before),
        created(None, None, "system", &id_of(&draft))
    );
}

#[test]
fn a_draft_made_by_the_console_with_as_names_the_person_once() {
    let office = Office::new();
    let customer = customer(&office);
    let before = last_row(&office);
    let draft = office.data.ok(&[
        "draft",
        "create",
        "--company",
        &office.a,
        "--customer",
        &customer,
        "--as",
        "accountant@alpha.de",
    ]);
    let accountant = person_id(&office, "accountant@alpha.de");
    assert_eq!(
        rows_after(&office, before),
        created(
            Some(&accountant),
            None,
            "accountant@alpha.de",
            &id_of(&draft)
        )
    );
}

#[test]
fn a_draft_made_on_the_screens_names_the_person_once() {
    let office = Office::new();
    let customer = customer(&office);
    let mut owner = office.signed_in("owner@alpha.de");
    let before = last_row(&office);
    let page = owner.act("/drafts/new", "/drafts", &[("customerId", &customer)]);
    let location = page.redirects_to_prefix("/drafts/drf_");
    let draft = location
        .strip_prefix("/drafts/")
        .and_then(|rest| rest.strip_suffix("?done=created"))
        .unwrap();
    let owner_id = person_id(&office, "owner@alpha.de");
    assert_eq!(
        rows_after(&office, before),
        created(Some(&owner_id), None, "owner@alpha.de", draft)
    );
}

#[test]
fn a_draft_made_through_rest_names_the_key_once_and_its_replay_writes_none() {
    let office = Office::new();
    let customer = customer(&office);
    let (key_id, secret) = key(&office, "Buchhaltungsrobot");
    let before = last_row(&office);
    let idempotency_key = unique();
    let body = json!({"customerId": customer});
    let api = office.api();
    let made = api.post(&secret, "/v1/invoices/drafts", &idempotency_key, &body);
    assert_eq!(made.status, 201, "{:?}", made.body);
    let draft = id_of(&made.body);
    let once = created(None, Some(&key_id), "Buchhaltungsrobot", &draft);
    assert_eq!(rows_after(&office, before), once);
    // The same request again is answered from the first: no second act.
    let replayed = api.post(&secret, "/v1/invoices/drafts", &idempotency_key, &body);
    assert_eq!(replayed.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(rows_after(&office, before), once);
    // The draft's history on the screens names the key.
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get(&format!("/drafts/{draft}"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains(" · API key Buchhaltungsrobot · draft created</li>"),
        "{}",
        page.body
    );
}

#[test]
fn a_draft_made_by_an_agent_tool_names_the_key_once() {
    let office = Office::new();
    let customer = customer(&office);
    let (key_id, secret) = key(&office, "Assistenz");
    let before = last_row(&office);
    let result = office.api().tool(
        &secret,
        "create_invoice_draft",
        json!({"customer_id": customer, "lines": [
            {"description": "Montage", "quantity": 1, "unit_price_minor": 8000, "tax_rate_percent": 19}
        ]}),
    );
    assert_eq!(result["isError"], json!(false), "{result}");
    let draft = id_of(&result["structuredContent"]);
    assert_eq!(
        rows_after(&office, before),
        created(None, Some(&key_id), "Assistenz", &draft)
    );
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path, text));
        }
    }
}

#[test]
fn no_surface_writes_an_audit_row() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for surface in ["http", "console"] {
        sources(&src.join(surface), &mut files);
    }
    assert!(files.len() > 40, "the surfaces' files were read");
    let writing: Vec<String> = files
        .iter()
        .filter(|(_, text)| text.contains("audit::record") || text.contains("INTO audit"))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert_eq!(writing, Vec::<String>::new(), "the acts write the audit");
}
