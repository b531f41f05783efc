//! A stand-in for the EU VIES REST service on 127.0.0.1, port 0: `POST
//! /check-vat-number` with the documented request, answered as the test
//! scripted the number asked about: valid (with a consultation number,
//! name and address: the default), invalid, the error MS_UNAVAILABLE, or
//! no answer at all. Every request is kept.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

/// How the stand-in answers about one number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Valid,
    Invalid,
    Unavailable,
    Hang,
}

#[derive(Clone)]
pub struct ViesStandIn {
    /// The service's root, for `--vat-register`.
    pub root: String,
    requests: Arc<Mutex<Vec<Value>>>,
    script: Arc<Mutex<HashMap<String, Reply>>>,
}

/// The answer to a request body.
fn answer(request: &Value, reply: Reply) -> Option<Value> {
    let number = request["vatNumber"].as_str().unwrap_or("");
    let country = request["countryCode"].as_str().unwrap_or("");
    match reply {
        Reply::Invalid => Some(json!({
            "countryCode": country, "vatNumber": number, "requestDate": "2026-11-25T09:00:00.000Z",
            "valid": false, "requestIdentifier": "", "name": "---", "address": "---"
        })),
        Reply::Unavailable => Some(json!({
            "actionSucceed": false,
            "errorWrappers": [{"error": "MS_UNAVAILABLE", "message": "The member state service is unavailable"}]
        })),
        Reply::Hang => None,
        Reply::Valid => Some(json!({
            "countryCode": country, "vatNumber": number, "requestDate": "2026-11-25T09:00:00.000Z",
            "valid": true, "requestIdentifier": format!("WAPIAAAA{number}"),
            "name": "KUNDE REGISTRIERT SARL", "address": "1 RUE DU REGISTRE\n75001 PARIS"
        })),
    }
}

impl ViesStandIn {
    pub fn start() -> ViesStandIn {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let root = format!("http://{}", listener.local_addr().unwrap());
        let requests: Arc<Mutex<Vec<Value>>> = Arc::default();
        let script: Arc<Mutex<HashMap<String, Reply>>> = Arc::default();
        let kept = requests.clone();
        let scripted = script.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let kept = kept.clone();
                let scripted = scripted.clone();
                std::thread::spawn(move || {
                    let mut out = stream.try_clone().unwrap();
                    let mut reader = BufReader::new(stream);
                    let mut first = String::new();
                    if reader.read_line(&mut first).is_err() {
                        return;
                    }
                    let mut length = 0;
                    let mut line = String::new();
                    while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                        line.clear();
                    }
                    let mut body = vec![0; length.min(64 * 1024)];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    kept.lock().unwrap().push(request.clone());
                    let (status, reply) = if !first.starts_with("POST /check-vat-number ") {
                        ("404 Not Found", Some(json!({"error": "no such route"})))
                    } else {
                        let number = format!(
                            "{}{}",
                            request["countryCode"].as_str().unwrap_or(""),
                            request["vatNumber"].as_str().unwrap_or("")
                        );
                        let reply = scripted.lock().unwrap().get(&number).copied();
                        ("200 OK", answer(&request, reply.unwrap_or(Reply::Valid)))
                    };
                    let Some(reply) = reply else {
                        std::thread::sleep(Duration::from_secs(30));
                        return;
                    };
                    let text = reply.to_string();
                    let _ = write!(
                        out,
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                        text.len()
                    );
                });
            }
        });
        ViesStandIn {
            root,
            requests,
            script,
        }
    }

    /// Answers `reply` about `vat_id` (with its prefix, as VIES spells it).
    pub fn script(&self, vat_id: &str, reply: Reply) {
        self.script.lock().unwrap().insert(vat_id.into(), reply);
    }

    /// The request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}
