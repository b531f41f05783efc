//! One language per answer: a refusal of REST and of an agent tool is
//! worded in German when `Accept-Language` asks for it and in English
//! otherwise, with the same code (the contract) and the same status; the
//! fields keep their wire names.

use serde_json::{json, Value};

use crate::support::{unique, Answer, Client, World};

/// Sends `method path` with a JSON body and `Accept-Language: lang` (none
/// when `lang` is empty).
fn ask(
    c: &Client,
    key: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    lang: &str,
) -> Answer {
    let auth = format!("Bearer {key}");
    let idempotency = unique();
    let mut headers = vec![("Authorization", auth.as_str())];
    if !lang.is_empty() {
        headers.push(("Accept-Language", lang));
    }
    let bytes = body.map(|b| serde_json::to_vec(b).unwrap());
    if bytes.is_some() {
        headers.push(("Idempotency-Key", idempotency.as_str()));
        headers.push(("Content-Type", "application/json"));
    }
    c.send(method, path, &headers, bytes.as_deref())
}

/// The same request in English (no header, then `en-GB`) and in German
/// (`de-DE,de;q=0.9`): the same status and code, and the two sentences.
#[track_caller]
fn both(
    c: &Client,
    key: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String, String, String) {
    let plain = ask(c, key, method, path, body, "");
    let english = ask(c, key, method, path, body, "en-GB,en;q=0.9");
    let german = ask(c, key, method, path, body, "de-DE,de;q=0.9,en;q=0.5");
    for answer in [&english, &german] {
        assert_eq!(
            (answer.status, answer.code()),
            (plain.status, plain.code()),
            "{:?} / {:?}",
            plain.body,
            answer.body
        );
        answer.refused(plain.status, plain.code());
    }
    let fehler = |a: &Answer| a.body["fehler"].as_str().unwrap().to_string();
    assert_eq!(fehler(&plain), fehler(&english));
    (
        plain.status,
        plain.code().to_string(),
        fehler(&plain),
        fehler(&german),
    )
}

#[test]
fn a_rest_refusal_is_german_when_asked_and_keeps_its_code() {
    let w = World::new();
    let c = w.client();
    // An unreadable input: the field keeps its wire name.
    let (status, code, en, de) = both(
        &c,
        &w.live,
        "POST",
        "/v1/transactions",
        Some(&json!({"description": "ohne Titel"})),
    );
    assert_eq!((status, code.as_str()), (400, "ANFRAGE"));
    assert_eq!(en, "The field title is missing.");
    assert_eq!(de, "Das Feld title fehlt.");
    // A rule of the books.
    let (status, code, en, de) = both(
        &c,
        &w.live,
        "POST",
        "/v1/transactions",
        Some(&json!({"title": "Dach", "stage": "NIRGENDS"})),
    );
    assert_eq!((status, code.as_str()), (409, "ABGELEHNT"));
    assert!(
        en.contains("which is not in the company's workflow"),
        "{en}"
    );
    assert!(
        de.contains("nennt NIRGENDS, das nicht im Ablauf der Firma steht"),
        "{de}"
    );
    // A record of no one's.
    let (status, code, en, de) = both(&c, &w.live, "GET", "/v1/customers/cus_unknown", None);
    assert_eq!((status, code.as_str()), (404, "NICHT_GEFUNDEN"));
    assert_eq!(en, "Customer cus_unknown was not found.");
    assert_eq!(de, "Kunde cus_unknown wurde nicht gefunden.");
    // No key at all: the first check answers in the asked language too.
    let (status, code, en, de) = both(&c, "kontor_nokey", "GET", "/v1/customers", None);
    assert_eq!((status, code.as_str()), (401, "UNAUTHENTICATED"));
    assert!(en.starts_with("The API key is missing"), "{en}");
    assert!(de.starts_with("Der API-Schlüssel fehlt"), "{de}");
    // An address that answers another method.
    let (status, code, _, de) = both(&c, &w.live, "DELETE", "/v1/customers", None);
    assert_eq!((status, code.as_str()), (405, "ANFRAGE"));
    assert!(
        de.starts_with("Diese Adresse beantwortet diese Methode nicht"),
        "{de}"
    );
    // A query parameter missing, which takes one of a few values.
    let (status, code, en, de) = both(
        &c,
        &w.live,
        "GET",
        "/v1/invoices/inv_unknown/document",
        None,
    );
    assert_eq!((status, code.as_str()), (400, "ANFRAGE"));
    assert!(en.contains("is missing; give "), "{en}");
    assert!(
        de.contains(" fehlt; geben Sie ") && de.contains(" oder "),
        "{de}"
    );
    // The Idempotency-Key header twice.
    let twice = |lang: &str| {
        let auth = format!("Bearer {}", w.live);
        c.send(
            "POST",
            "/v1/transactions",
            &[
                ("Authorization", auth.as_str()),
                ("Accept-Language", lang),
                ("Idempotency-Key", "a"),
                ("Idempotency-Key", "b"),
                ("Content-Type", "application/json"),
            ],
            Some(br#"{"title": "Dach"}"#),
        )
    };
    let (english, german) = (twice("en"), twice("de"));
    german.refused(400, "ANFRAGE");
    assert_eq!(
        english.body["fehler"],
        json!("The Idempotency-Key header is sent more than once; send one.")
    );
    assert_eq!(
        german.body["fehler"],
        json!("Der Header Idempotency-Key wurde mehrfach gesendet; senden Sie ihn einmal.")
    );
}

#[test]
fn an_agent_tools_refusal_is_german_when_asked_and_keeps_its_code() {
    let w = World::new();
    let c = w.client();
    let call = |lang: &str, arguments: Value| -> Value {
        let auth = format!("Bearer {}", w.live);
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": "create_transaction", "arguments": arguments}});
        let bytes = serde_json::to_vec(&body).unwrap();
        let mut headers = vec![
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        if !lang.is_empty() {
            headers.push(("Accept-Language", lang));
        }
        let a = c.send("POST", "/mcp", &headers, Some(&bytes));
        assert_eq!(a.status, 200, "{:?}", a.body);
        let result = a.body["result"].clone();
        assert_eq!(result["isError"], json!(true), "{result}");
        result["structuredContent"].clone()
    };
    let missing = json!({"description": "ohne Titel", "idempotency_key": unique()});
    let en = call("", missing.clone());
    let de = call("de", missing);
    assert_eq!(en["code"], json!("ANFRAGE"));
    assert_eq!(de["code"], en["code"]);
    assert_eq!(en["fehler"], json!("The argument title is missing."));
    assert_eq!(de["fehler"], json!("Das Argument title fehlt."));
    let outside = json!({"title": "Dach", "stage": "NIRGENDS", "idempotency_key": unique()});
    let de = call("de-AT", outside);
    assert_eq!(de["code"], json!("ABGELEHNT"));
    let fehler = de["fehler"].as_str().unwrap();
    assert!(fehler.contains("nicht im Ablauf der Firma"), "{fehler}");
}
