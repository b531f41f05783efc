//! The OpenAPI document: served at /openapi.json without a key; it names
//! exactly the routes the router knows (read from the route table itself and
//! probed on a live server); and real answers of every operation, successes
//! and refusals, validate against its schemas and headers.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use crate::support::{unique, Answer, Client, DataFile, World};

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The document as the server serves it.
fn served(c: &Client) -> Value {
    let a = c.send("GET", "/openapi.json", &[], None);
    assert_eq!(a.status, 200, "{:?}", a.body);
    a.body
}

/// A path template with its parameters made anonymous: `/customers/{}`.
fn anonymous(template: &str) -> String {
    template
        .split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// (METHOD, anonymous path) of every operation of the document.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.insert((method.to_ascii_uppercase(), anonymous(path)));
        }
    }
    ops
}

/// (METHOD, anonymous path) of every arm of the route table in
/// `src/http/rest/mod.rs`, read from its source: `(&M::GET, ["v1", "customers", id])`.
fn routed() -> BTreeSet<(String, String)> {
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/http/rest/mod.rs"))
            .unwrap();
    let table = source
        .split("fn matched<'a>")
        .nth(1)
        .and_then(|s| s.split("\n}\n").next())
        .expect("the route table");
    let mut routes = BTreeSet::new();
    for arm in table.split("(&M::").skip(1) {
        let method = arm.split(',').next().unwrap().trim().to_string();
        let inside = arm
            .split_once('[')
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(inside, _)| inside)
            .unwrap();
        let segments: Vec<String> = inside
            .split(',')
            .map(|s| s.trim())
            .map(|s| match s.strip_prefix('"') {
                Some(literal) => literal.trim_end_matches('"').to_string(),
                None => "{}".to_string(),
            })
            .collect();
        assert_eq!(segments[0], "v1", "a route outside /v1: {arm}");
        routes.insert((method, format!("/{}", segments[1..].join("/"))));
    }
    assert!(
        routes.len() >= 18,
        "the route table was not read: {routes:?}"
    );
    routes
}

/// A concrete path for a template, its parameters filled with `probe`.
fn concrete(template: &str, probe: &str) -> String {
    let path: Vec<&str> = template
        .split('/')
        .map(|s| if s.starts_with('{') { probe } else { s })
        .collect();
    format!("/v1{}", path.join("/"))
}

#[test]
fn the_document_is_served_without_a_key_and_is_the_compiled_one() {
    let w = World::new();
    let c = w.client();
    let a = c.send("GET", "/openapi.json", &[], None);
    assert_eq!(a.status, 200);
    assert_eq!(a.header("Content-Type"), Some("application/json"));
    assert_eq!(a.header("Cache-Control"), Some("no-store"));
    assert!(a.header("RateLimit-Limit").is_none());
    let compiled: Value = serde_json::from_str(kontor::http::openapi::DOCUMENT).unwrap();
    assert_eq!(a.body, compiled);
    assert_eq!(a.body["openapi"], json!("3.1.0"));
    assert_eq!(a.body["servers"][0]["url"], json!("/v1"));
    // A key does not change it, nor does a bad one.
    let auth = format!("Bearer {}", w.live);
    let keyed = c.send("GET", "/openapi.json", &[("Authorization", &auth)], None);
    assert_eq!(keyed.body, compiled);
    let bad = c.send(
        "GET",
        "/openapi.json",
        &[("Authorization", "Bearer svc_live_nothing")],
        None,
    );
    assert_eq!(bad.status, 200);
    // Other methods: 405 naming the ones it answers.
    let a = c.send("POST", "/openapi.json", &[], Some(b"{}"));
    a.refused(405, "ANFRAGE");
    assert_eq!(a.header("Allow"), Some("GET, HEAD"));
    // Every operation needs the Bearer key, and every POST the Idempotency-Key.
    let doc = compiled;
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        json!("bearer")
    );
    assert_eq!(doc["security"], json!([{"bearer": []}]));
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let names: Vec<&str> = op["parameters"]
                .as_array()
                .map(|ps| ps.iter().filter_map(|p| p["$ref"].as_str()).collect())
                .unwrap_or_default();
            assert_eq!(
                names.contains(&"#/components/parameters/IdempotencyKey"),
                method == "post",
                "{method} {path}"
            );
        }
    }
}

#[test]
fn the_document_names_exactly_the_routes_of_the_router() {
    let w = World::webhooks(false);
    let c = w.client();
    let doc = served(&c);
    let documented = documented(&doc);
    assert_eq!(
        documented,
        routed(),
        "the document and the route table differ"
    );
    // Probed on the server: every documented operation is routed (neither an
    // unknown address nor a wrong method), and every other method on a
    // documented path answers 405 naming exactly the documented methods.
    let auth = format!("Bearer {}", w.live);
    let paths: BTreeSet<&String> = documented.iter().map(|(_, p)| p).collect();
    for path in paths {
        let allowed: BTreeSet<&str> = documented
            .iter()
            .filter(|(_, p)| p == path)
            .map(|(m, _)| m.as_str())
            .collect();
        for method in METHODS {
            let a = c.send(
                method,
                &concrete(path, "probe"),
                &[("Authorization", &auth), ("Idempotency-Key", &unique())],
                Some(b"{}"),
            );
            if allowed.contains(method) {
                assert!(
                    a.status != 405
                        && !(a.status == 404
                            && a.body["fehler"] == json!("This address was not found.")),
                    "{method} {path}: {a:?}"
                );
            } else {
                a.refused(405, "ANFRAGE");
                let allow: BTreeSet<&str> = a.header("Allow").unwrap().split(", ").collect();
                assert_eq!(allow, allowed, "{method} {path}");
            }
        }
    }
    // An address outside the table is unknown.
    c.get(&w.live, "/v1/quotes").refused(404, "NICHT_GEFUNDEN");
}

/// The document and a validator for its parts.
struct Contract {
    doc: Value,
    /// Every (operationId, status) an answer was checked against.
    checked: BTreeSet<(String, u16)>,
}

impl Contract {
    fn new(doc: Value) -> Contract {
        Contract {
            doc,
            checked: BTreeSet::new(),
        }
    }

    /// Follows a `$ref` within the document.
    fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v["$ref"].as_str() {
            Some(r) => self
                .doc
                .pointer(r.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("{r}")),
            None => v,
        }
    }

    /// Validates `instance` against `schema`, a part of the document whose
    /// `$ref`s point into the document's components.
    #[track_caller]
    fn validate(&self, schema: &Value, instance: &Value, what: &str) {
        let mut root: Map<String, Value> = schema.as_object().unwrap().clone();
        root.insert("components".into(), self.doc["components"].clone());
        let root = Value::Object(root);
        let validator = jsonschema::draft202012::new(&root).expect("a valid schema");
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:?}\n{instance}");
    }

    /// Checks a real answer of `method template` against the documented
    /// response for its status: the body schema and the headers.
    #[track_caller]
    fn check(&mut self, method: &str, template: &str, a: &Answer) {
        let op = &self.doc["paths"][template][method.to_ascii_lowercase()];
        assert!(op.is_object(), "{method} {template} is not documented");
        let status = a.status.to_string();
        let response = op["responses"].get(&status).unwrap_or_else(|| {
            panic!("{method} {template}: status {status} is not documented: {a:?}")
        });
        let id = op["operationId"].as_str().unwrap().to_string();
        self.response(response, a, &format!("{method} {template} {status}"));
        self.checked.insert((id, a.status));
    }

    /// Checks an answer against a response object of the document.
    #[track_caller]
    fn response(&self, response: &Value, a: &Answer, what: &str) {
        let response = self.resolve(response).clone();
        let content = response["content"].as_object().cloned().unwrap_or_default();
        if content.contains_key("application/json") {
            assert_eq!(a.header("Content-Type"), Some("application/json"), "{what}");
            let schema = &response["content"]["application/json"]["schema"];
            self.validate(schema, &a.body, what);
        } else {
            // A file: its type is one the document names.
            let kind = a.header("Content-Type").unwrap_or_default();
            assert!(content.contains_key(kind), "{what}: content type {kind:?}");
            assert!(!a.raw.is_empty(), "{what}: an empty file");
        }
        for (name, header) in response["headers"].as_object().into_iter().flatten() {
            let header = self.resolve(header).clone();
            match a.header(name) {
                None => assert!(
                    header["required"] != json!(true),
                    "{what}: header {name} missing: {a:?}"
                ),
                Some(value) => {
                    let schema = &header["schema"];
                    let value = if schema["type"] == json!("integer") {
                        value
                            .parse::<i64>()
                            .map(Value::from)
                            .unwrap_or_else(|_| json!(value))
                    } else {
                        json!(value)
                    };
                    self.validate(schema, &value, &format!("{what} header {name}"));
                }
            }
        }
    }

    /// Checks an answer against one of the document's shared responses.
    #[track_caller]
    fn shared(&self, name: &str, a: &Answer) {
        let response = self.doc["components"]["responses"][name].clone();
        assert!(response.is_object(), "{name}");
        self.response(&response, a, name);
    }
}

fn send_json(
    c: &Client,
    method: &str,
    key: &str,
    path: &str,
    idem: Option<&str>,
    body: &Value,
) -> Answer {
    let auth = format!("Bearer {key}");
    let mut headers = vec![("Authorization", auth.as_str())];
    if let Some(idem) = idem {
        headers.push(("Idempotency-Key", idem));
    }
    c.send(
        method,
        path,
        &headers,
        Some(&serde_json::to_vec(body).unwrap()),
    )
}

#[test]
fn real_answers_match_the_document() {
    let w = World::webhooks(false);
    let c = w.client();
    let mut k = Contract::new(served(&c));
    let key = w.live.as_str();

    k.check("GET", "/me", &c.get(key, "/v1/me"));

    // Customers.
    let body = json!({"name": "Nord GmbH", "street": "Kai 1", "postalCode": "20457", "city": "Hamburg",
                      "country": "de", "email": "info@nord.example", "vatId": "de 123456789",
                      "currency": "eur", "contact": "Frau Nord", "phone": "+49 40 1"});
    let created = c.post(key, "/v1/customers", "cust-1", &body);
    k.check("POST", "/customers", &created);
    let replay = c.post(key, "/v1/customers", "cust-1", &body);
    assert_eq!(replay.header("Idempotent-Replayed"), Some("true"));
    k.check("POST", "/customers", &replay);
    let conflict = c.post(
        key,
        "/v1/customers",
        "cust-1",
        &json!({"name": "Other", "street": "S", "postalCode": "1", "city": "B"}),
    );
    conflict.refused(409, "IDEMPOTENZ_KONFLIKT");
    k.check("POST", "/customers", &conflict);
    let minimal = c.customer(key, "Süd AG");
    let id = created.body["id"].as_str().unwrap();
    k.check(
        "GET",
        "/customers/{id}",
        &c.get(key, &format!("/v1/customers/{id}")),
    );
    k.check(
        "GET",
        "/customers",
        &c.get(key, "/v1/customers?search=nord&page=0&size=10"),
    );
    k.check(
        "GET",
        "/customers",
        &c.get(key, "/v1/customers?page=-5&size=1000&unknown=1"),
    );
    let missing = c.get(key, "/v1/customers/cus_nothing");
    missing.refused(404, "NICHT_GEFUNDEN");
    k.check("GET", "/customers/{id}", &missing);
    let bad = c.get(key, "/v1/customers?size=ten");
    bad.refused(400, "ANFRAGE");
    k.check("GET", "/customers", &bad);
    let unknown_field = c.post(
        key,
        "/v1/customers",
        &unique(),
        &json!({"name": "X", "street": "S", "postalCode": "1", "city": "B", "fax": "1"}),
    );
    unknown_field.refused(400, "ANFRAGE");
    k.check("POST", "/customers", &unknown_field);
    let no_idem = send_json(&c, "POST", key, "/v1/customers", None, &body);
    no_idem.refused(400, "ANFRAGE");
    k.check("POST", "/customers", &no_idem);
    let no_key = c.send("GET", "/v1/customers", &[], None);
    no_key.refused(401, "UNAUTHENTICATED");
    k.check("GET", "/customers", &no_key);

    // Transactions.
    let t = c.post(key, "/v1/transactions", &unique(), &json!({"title": "Dach", "customerId": id, "dueOn": "2026-12-01", "description": "Neu decken"}));
    k.check("POST", "/transactions", &t);
    let bare = c.post(
        key,
        "/v1/transactions",
        &unique(),
        &json!({"title": "Ohne Kunde"}),
    );
    k.check("POST", "/transactions", &bare);
    let tid = t.body["id"].as_str().unwrap();
    k.check(
        "GET",
        "/transactions/{id}",
        &c.get(key, &format!("/v1/transactions/{tid}")),
    );
    k.check(
        "GET",
        "/transactions",
        &c.get(
            key,
            "/v1/transactions?period=2026&includeArchived=1&search=dach&stage=NEU",
        ),
    );
    let stage = c.post(
        key,
        "/v1/transactions",
        &unique(),
        &json!({"title": "X", "stage": "NIRGENDS"}),
    );
    stage.refused(409, "ABGELEHNT");
    k.check("POST", "/transactions", &stage);
    let nobody = c.post(
        key,
        "/v1/transactions",
        &unique(),
        &json!({"title": "X", "customerId": "cus_nothing"}),
    );
    nobody.refused(404, "NICHT_GEFUNDEN");
    k.check("POST", "/transactions", &nobody);
    let patched = c.patch(
        key,
        &format!("/v1/transactions/{tid}"),
        &json!({"stage": "IN_ARBEIT", "customerId": "none", "dueOn": null}),
    );
    assert_eq!(patched.status, 200, "{:?}", patched.body);
    k.check("PATCH", "/transactions/{id}", &patched);
    k.check(
        "PATCH",
        "/transactions/{id}",
        &c.patch(
            key,
            &format!("/v1/transactions/{tid}"),
            &json!({"archived": true}),
        ),
    );
    let archived = c.patch(
        key,
        &format!("/v1/transactions/{tid}"),
        &json!({"title": "Anders"}),
    );
    archived.refused(409, "FALSCHER_ZUSTAND");
    k.check("PATCH", "/transactions/{id}", &archived);
    let cleared = c.patch(
        key,
        &format!("/v1/transactions/{tid}"),
        &json!({"title": null}),
    );
    cleared.refused(400, "ANFRAGE");
    k.check("PATCH", "/transactions/{id}", &cleared);
    let gone = c.patch(key, "/v1/transactions/txn_nothing", &json!({}));
    gone.refused(404, "NICHT_GEFUNDEN");
    k.check("PATCH", "/transactions/{id}", &gone);
    let period = c.get(key, "/v1/transactions?period=2026-Q5");
    period.refused(400, "ANFRAGE");
    k.check("GET", "/transactions", &period);

    // Webhooks: an endpoint registered before the act sees its event.
    let hook = c.post(
        key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "http://127.0.0.1:9/hook", "events": ["*"], "description": "Test"}),
    );
    k.check("POST", "/webhooks", &hook);
    assert!(hook.body["secret"].is_string());
    let whk = hook.body["id"].as_str().unwrap().to_string();
    let public = c.post(
        key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "https://10.0.0.1/hook", "events": ["invoice.paid"]}),
    );
    public.refused(409, "ABGELEHNT");
    k.check("POST", "/webhooks", &public);
    let kind = c.post(
        key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "https://hooks.example.com/", "events": ["invoice.lost"]}),
    );
    kind.refused(400, "ANFRAGE");
    k.check("POST", "/webhooks", &kind);

    // Drafts, issued invoices and the report.
    let draft = c.post(
        key,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": minimal["id"]}),
    );
    k.check("POST", "/invoices/drafts", &draft);
    let no_customer = c.post(
        key,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": "cus_nothing"}),
    );
    no_customer.refused(404, "NICHT_GEFUNDEN");
    k.check("POST", "/invoices/drafts", &no_customer);
    let did = draft.body["id"].as_str().unwrap();
    w.data.line(did, 10000, "19", false);
    let number = w.data.ok(&["draft", "issue", did])["number"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &number,
        "--amount",
        "1000",
    ]);
    let other = c.draft(key, &minimal);
    w.data.line(&other, 5000, "19", false);
    let cancelled = w.data.ok(&["draft", "issue", &other])["number"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        &cancelled,
        "--reason",
        "Doppelt",
    ]);
    k.check("GET", "/invoices", &c.get(key, "/v1/invoices"));
    k.check(
        "GET",
        "/invoices",
        &c.get(
            key,
            "/v1/invoices?status=OPEN&from=2000-01-01&to=2199-12-31",
        ),
    );
    k.check(
        "GET",
        "/invoices",
        &c.get(key, "/v1/invoices?status=whatever"),
    );
    k.check(
        "GET",
        "/invoices/{number}",
        &c.get(key, &format!("/v1/invoices/{number}")),
    );
    let correction = c.get(key, "/v1/invoices?size=1").body["data"][0]["number"]
        .as_str()
        .unwrap()
        .to_string();
    k.check(
        "GET",
        "/invoices/{number}",
        &c.get(key, &format!("/v1/invoices/{correction}")),
    );
    k.check(
        "GET",
        "/invoices/{number}",
        &c.get(key, &format!("/v1/invoices/{cancelled}")),
    );
    // The documents stored at issue: files as documented; a format the
    // invoice lacks, an unknown format and an unknown number refused.
    for format in ["facturx", "cii"] {
        k.check(
            "GET",
            "/invoices/{number}/document",
            &c.get(
                key,
                &format!("/v1/invoices/{number}/document?format={format}"),
            ),
        );
    }
    let lacking = c.get(
        key,
        &format!("/v1/invoices/{number}/document?format=peppol"),
    );
    lacking.refused(409, "FALSCHER_ZUSTAND");
    k.check("GET", "/invoices/{number}/document", &lacking);
    let unknown = c.get(key, &format!("/v1/invoices/{number}/document?format=pdf"));
    unknown.refused(400, "ANFRAGE");
    k.check("GET", "/invoices/{number}/document", &unknown);
    let nowhere = c.get(key, "/v1/invoices/RE1900-99999/document?format=cii");
    nowhere.refused(404, "NICHT_GEFUNDEN");
    k.check("GET", "/invoices/{number}/document", &nowhere);
    let no_invoice = c.get(key, "/v1/invoices/RE1900-99999");
    no_invoice.refused(404, "NICHT_GEFUNDEN");
    k.check("GET", "/invoices/{number}", &no_invoice);
    let replayed_draft = c.post(
        key,
        "/v1/invoices/drafts",
        "draft-replay",
        &json!({"customerId": minimal["id"]}),
    );
    k.check("POST", "/invoices/drafts", &replayed_draft);
    k.check(
        "GET",
        "/reports/outstanding",
        &c.get(key, "/v1/reports/outstanding"),
    );
    k.check(
        "GET",
        "/reports/outstanding",
        &c.get(key, "/v1/reports/outstanding?asOf=2000-01-01"),
    );
    let as_of = c.get(key, "/v1/reports/outstanding?asOf=yesterday");
    as_of.refused(400, "ANFRAGE");
    k.check("GET", "/reports/outstanding", &as_of);

    // The endpoint's log, redelivery, disabling.
    k.check("GET", "/webhooks", &c.get(key, "/v1/webhooks"));
    k.check(
        "GET",
        "/webhooks/events",
        &c.get(key, "/v1/webhooks/events"),
    );
    let log = c.get(key, &format!("/v1/webhooks/{whk}/deliveries"));
    k.check("GET", "/webhooks/{id}/deliveries", &log);
    let dlv = log.body["data"][0]["id"]
        .as_str()
        .expect("a delivery")
        .to_string();
    let redeliver = format!("/v1/webhooks/{whk}/deliveries/{dlv}/redeliver");
    let again = send_json(&c, "POST", key, &redeliver, Some("again-1"), &json!({}));
    k.check(
        "POST",
        "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        &again,
    );
    let auth = format!("Bearer {key}");
    let empty = c.send(
        "POST",
        &redeliver,
        &[("Authorization", &auth), ("Idempotency-Key", "again-1")],
        None,
    );
    assert_eq!(empty.header("Idempotent-Replayed"), Some("true"));
    k.check(
        "POST",
        "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        &empty,
    );
    let nothing = send_json(
        &c,
        "POST",
        key,
        &format!("/v1/webhooks/{whk}/deliveries/dlv_nothing/redeliver"),
        Some(&unique()),
        &json!({}),
    );
    nothing.refused(404, "NICHT_GEFUNDEN");
    k.check(
        "POST",
        "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        &nothing,
    );
    let disabled = c.send(
        "DELETE",
        &format!("/v1/webhooks/{whk}"),
        &[("Authorization", &auth)],
        None,
    );
    k.check("DELETE", "/webhooks/{id}", &disabled);
    let refused = send_json(&c, "POST", key, &redeliver, Some(&unique()), &json!({}));
    refused.refused(409, "FALSCHER_ZUSTAND");
    k.check(
        "POST",
        "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        &refused,
    );
    let none = c.send(
        "DELETE",
        "/v1/webhooks/whk_nothing",
        &[("Authorization", &auth)],
        None,
    );
    none.refused(404, "NICHT_GEFUNDEN");
    k.check("DELETE", "/webhooks/{id}", &none);
    let no_log = c.get(key, "/v1/webhooks/whk_nothing/deliveries");
    no_log.refused(404, "NICHT_GEFUNDEN");
    k.check("GET", "/webhooks/{id}/deliveries", &no_log);

    // 403: a key without the scope, and a company without the plan.
    let narrow = w.data.key(&w.company, "production", "customers:read");
    let scope = c.get(&narrow, "/v1/transactions");
    scope.refused(403, "KEINE_BERECHTIGUNG");
    k.check("GET", "/transactions", &scope);
    let starter = w.data.company("Klein GmbH", "STARTER");
    let small = w.data.key(&starter, "production", "all");
    let plan = c.get(&small, "/v1/me");
    plan.refused(403, "PLAN_ERFORDERLICH");
    k.check("GET", "/me", &plan);

    // 405 and 413.
    let wrong = c.send("PUT", "/v1/customers", &[("Authorization", &auth)], None);
    wrong.refused(405, "ANFRAGE");
    k.shared("MethodNotAllowed", &wrong);
    let big = format!(
        r#"{{"name":"{}","street":"S","postalCode":"1","city":"B"}}"#,
        "a".repeat(1024 * 1024)
    );
    let large = c.send(
        "POST",
        "/v1/customers",
        &[("Authorization", &auth), ("Idempotency-Key", "big")],
        Some(big.as_bytes()),
    );
    large.refused(413, "ANFRAGE");
    k.check("POST", "/customers", &large);

    // The sandbox key sees its own empty books, in the same shapes.
    k.check("GET", "/invoices", &c.get(&w.test, "/v1/invoices"));
    k.check("GET", "/me", &c.get(&w.test, "/v1/me"));

    // Every operation had a success checked.
    let operations: BTreeSet<String> = k.doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .map(|op| op["operationId"].as_str().unwrap().to_string())
        .collect();
    let succeeded: BTreeSet<String> = k
        .checked
        .iter()
        .filter(|(_, status)| (200..300).contains(status))
        .map(|(id, _)| id.clone())
        .collect();
    assert_eq!(operations, succeeded);
}

#[test]
fn a_dry_budget_answers_429_as_documented() {
    let data = DataFile::new();
    let company = data.company("Eilig GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    let server = crate::support::start(&data);
    let c = Client { addr: server.addr };
    let mut k = Contract::new(served(&c));
    let a = loop {
        let a = c.get(&key, "/v1/me");
        if a.status == 429 {
            break a;
        }
        k.check("GET", "/me", &a);
    };
    a.refused(429, "ZU_VIELE_ANFRAGEN");
    k.check("GET", "/me", &a);
    assert!(a.header("Retry-After").is_some());
}

#[test]
fn the_checker_refuses_what_the_document_does_not_allow() {
    let w = World::new();
    let c = w.client();
    let k = Contract::new(served(&c));
    let customer = c.customer(&w.live, "Echt GmbH");
    let schema = json!({"$ref": "#/components/schemas/Customer"});
    k.validate(&schema, &customer, "a real customer");
    let refused = |instance: Value| {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            k.validate(&schema, &instance, "a changed customer")
        }));
        assert!(outcome.is_err(), "accepted: {instance}");
    };
    let mut extra = customer.clone();
    extra["fax"] = json!("1");
    refused(extra);
    let mut missing = customer.clone();
    missing.as_object_mut().unwrap().remove("createdAt");
    refused(missing);
    let mut typed = customer.clone();
    typed["archived"] = json!("no");
    refused(typed);
    // An error body with a code its status does not have.
    let error = json!({"$ref": "#/components/schemas/NotFoundError"});
    let outcome = std::panic::catch_unwind(|| {
        k.validate(
            &error,
            &json!({"fehler": "x", "code": "ABGELEHNT"}),
            "a 404",
        )
    });
    assert!(outcome.is_err());
}

/// Defects found while describing the API. A text field's length and
/// characters are checked as sent: white space around it counts toward the
/// limit, and a control character is refused even where trimming would have
/// removed it (before, `"\rName"` and 200 characters plus a space were
/// accepted although the document refuses them).
#[test]
fn text_is_checked_as_sent() {
    let w = World::new();
    let c = w.client();
    let long = format!("{} ", "a".repeat(200));
    for name in [long.as_str(), "\rNord", "Nord\u{85}"] {
        let a = c.post(
            &w.live,
            "/v1/customers",
            &unique(),
            &json!({"name": name, "street": "S", "postalCode": "1", "city": "B"}),
        );
        a.refused(400, "ANFRAGE");
    }
    let t = c.transaction(&w.live, json!({"title": "Dach"}));
    let path = format!("/v1/transactions/{}", t["id"].as_str().unwrap());
    c.patch(&w.live, &path, &json!({"description": "\u{b}Neu"}))
        .refused(400, "ANFRAGE");
    // Nothing changed; white space inside the limit is still trimmed.
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(0));
    assert_eq!(c.get(&w.live, &path).body, t);
    let ok = c.customer(&w.live, &format!(" {} ", "b".repeat(198)));
    assert_eq!(ok["name"], json!("b".repeat(198)));
}

/// A REST body of `null` is no JSON object: PATCH and redeliver took it for
/// `{}` and answered 200/202, where the document (and the README: "JSON
/// objects only") refuse it.
#[test]
fn a_null_body_is_refused() {
    let w = World::webhooks(false);
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let t = c.transaction(&w.live, json!({"title": "Dach"}));
    let path = format!("/v1/transactions/{}", t["id"].as_str().unwrap());
    let a = c.send("PATCH", &path, &[("Authorization", &auth)], Some(b"null"));
    a.refused(400, "ANFRAGE");
    assert_eq!(c.get(&w.live, &path).body, t);
    // Redelivery takes an empty body or {}, not null.
    let hook = c.post(
        &w.live,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "http://127.0.0.1:9/hook", "events": ["*"]}),
    );
    let whk = hook.body["id"].as_str().unwrap();
    let customer = c.customer(&w.live, "Kunde");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 1000, "19", false);
    w.data.ok(&["draft", "issue", &draft]);
    let log = c.get(&w.live, &format!("/v1/webhooks/{whk}/deliveries"));
    let dlv = log.body["data"][0]["id"].as_str().unwrap();
    let redeliver = format!("/v1/webhooks/{whk}/deliveries/{dlv}/redeliver");
    let a = c.send(
        "POST",
        &redeliver,
        &[("Authorization", &auth), ("Idempotency-Key", "null-body")],
        Some(b"null"),
    );
    a.refused(400, "ANFRAGE");
    let after = c.get(&w.live, &format!("/v1/webhooks/{whk}/deliveries"));
    assert_eq!(after.body["total"], log.body["total"]);
    let a = c.send(
        "POST",
        &redeliver,
        &[("Authorization", &auth), ("Idempotency-Key", "null-body")],
        Some(b"{}"),
    );
    assert_eq!(a.status, 202, "{:?}", a.body);
    // Creates refuse null as before (the fields are missing).
    c.send(
        "POST",
        "/v1/customers",
        &[
            ("Authorization", &auth),
            ("Idempotency-Key", "null-customer"),
        ],
        Some(b"null"),
    )
    .refused(400, "ANFRAGE");
}

/// `text` as one value of a query string: every byte but the unreserved
/// ones percent-encoded.
fn query_value(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Every text parameter of a query is described as the server reads it:
/// for values at each edge (control characters, white space alone, 200
/// characters, days that do not exist, leap days, the bounds of the years),
/// the document admits a value exactly when the server does not refuse it
/// with 400. schemathesis found `search=%10`, `search=%1E`,
/// `asOf=1925-11-31` and `to=2076-09-31` admitted by the document and
/// refused by the server.
#[test]
fn query_parameters_admit_exactly_what_the_server_reads() {
    let w = World::new();
    let c = w.client();
    let k = Contract::new(served(&c));
    let long = "a".repeat(200);
    let longer = "a".repeat(201);
    let blank = " ".repeat(300);
    let wide = format!("{}\u{1F600}", "ä".repeat(199));
    let probes: Vec<&str> = vec![
        // Free text.
        "",
        "Nord",
        "Müller GmbH & Co. KG",
        "a\tb\nc",
        " ",
        "\t",
        "\u{b}",
        "\r\n",
        "\u{85}",
        "\u{a0}\u{3000}",
        &blank,
        "\u{10}",
        "Nord\u{1e}",
        "\u{1c}",
        "\u{7f}",
        "a\u{9f}",
        "\u{feff}",
        &long,
        &longer,
        &wide,
        // Booleans.
        "true",
        "FALSE",
        "1",
        "0",
        "yes",
        // Periods.
        "2026",
        "0000",
        "0001",
        "2026-q1",
        "2026-Q4",
        "2026-Q5",
        "2026-00",
        "2026-12",
        "2026-13",
        "2026-1",
        // Days.
        "2026-11-21",
        "1900-01-01",
        "1899-12-31",
        "2199-12-31",
        "2200-01-01",
        "1925-11-31",
        "2076-09-31",
        "2026-02-28",
        "2026-02-29",
        "2024-02-29",
        "2000-02-29",
        "1900-02-29",
        "2100-02-29",
        "2026-04-30",
        "2026-06-31",
        "2026-12-32",
        "2026-1-01",
        " 2026-01-01",
        "20260101",
    ];
    let mut seen = 0;
    for (path, item) in k.doc["paths"].as_object().unwrap() {
        let Some(parameters) = item["get"]["parameters"].as_array() else {
            continue;
        };
        if path.contains('{') {
            continue;
        }
        for parameter in parameters {
            let parameter = k.resolve(parameter);
            let schema = &parameter["schema"];
            if parameter["in"] != json!("query") || schema["type"] != json!("string") {
                continue;
            }
            let name = parameter["name"].as_str().unwrap();
            let mut root = schema.as_object().unwrap().clone();
            root.insert("components".into(), k.doc["components"].clone());
            let validator = jsonschema::draft202012::new(&Value::Object(root)).unwrap();
            // A key of its own, so the probes stay within a key's budget.
            let key = w.data.key(&w.company, "production", "all");
            for probe in &probes {
                let admitted = validator.is_valid(&json!(probe));
                let a = c.get(&key, &format!("/v1{path}?{name}={}", query_value(probe)));
                assert_eq!(
                    a.status != 400,
                    admitted,
                    "GET {path}?{name}={probe:?}: the document {} it, the server answers {} {}",
                    if admitted { "admits" } else { "refuses" },
                    a.status,
                    a.body
                );
                if !admitted {
                    a.refused(400, "ANFRAGE");
                }
            }
            seen += 1;
        }
    }
    // Customers' search; transactions' stage, search, includeArchived,
    // period, from and to; invoices' status, from and to; the report's asOf.
    assert_eq!(seen, 11, "the query parameters were not all read");
}
