//! A webhook receiver that checks what kontor sends, as a receiver should:
//!
//!   WEBHOOK_SECRET=whsec_… cargo run --example receiver -- 127.0.0.1:9000
//!
//! It verifies `SERVICE-Signature` against the raw body before parsing it,
//! rejects a timestamp more than 300 s away in either direction, compares
//! signatures in constant time, and handles each event id once (a repeat is
//! acknowledged and ignored: delivery is at least once).

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use hmac::{Hmac, Mac};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use sha2::Sha256;

const TOLERANCE_SECONDS: i64 = 300;

/// Why a request was not accepted.
#[derive(Debug, PartialEq)]
enum Rejection {
    MalformedSignature,
    StaleTimestamp,
    WrongSignature,
}

/// Checks `t=<unix>,v1=<hex>` against the raw body with the whole secret as key.
fn verify(secret: &str, header: &str, body: &[u8], now: i64) -> Result<(), Rejection> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", v)) => {
                signatures.push(hex::decode(v).map_err(|_| Rejection::MalformedSignature)?)
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(Rejection::MalformedSignature)?;
    if signatures.is_empty() {
        return Err(Rejection::MalformedSignature);
    }
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(Rejection::StaleTimestamp);
    }
    for signature in signatures {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
        mac.update(format!("{timestamp}.").as_bytes());
        mac.update(body);
        // verify_slice compares in constant time.
        if mac.verify_slice(&signature).is_ok() {
            return Ok(());
        }
    }
    Err(Rejection::WrongSignature)
}

async fn handle(
    secret: Arc<String>,
    seen: Arc<Mutex<HashSet<String>>>,
    req: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let answer = |status: StatusCode, text: &str| {
        let mut r = Response::new(Full::new(Bytes::from(text.to_string())));
        *r.status_mut() = status;
        r
    };
    let header = req
        .headers()
        .get("SERVICE-Signature")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = match Limited::new(req.into_body(), 1024 * 1024).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return answer(StatusCode::PAYLOAD_TOO_LARGE, "too large"),
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let Some(header) = header else {
        return answer(StatusCode::BAD_REQUEST, "missing signature");
    };
    if let Err(why) = verify(&secret, &header, &body, now) {
        eprintln!("rejected: {why:?}");
        return answer(StatusCode::BAD_REQUEST, "bad signature");
    }
    // Only now is the body trusted enough to parse.
    let event: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => return answer(StatusCode::BAD_REQUEST, "not JSON"),
    };
    let id = event["id"].as_str().unwrap_or_default().to_string();
    if !seen
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id.clone())
    {
        println!("{id}: seen before, acknowledged again");
        return answer(StatusCode::OK, "duplicate");
    }
    println!(
        "{id}: {} {}",
        event["event"].as_str().unwrap_or("?"),
        String::from_utf8_lossy(&body)
    );
    answer(StatusCode::OK, "ok")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9000".into());
    let secret = Arc::new(std::env::var("WEBHOOK_SECRET").unwrap_or_default());
    if secret.is_empty() {
        eprintln!("set WEBHOOK_SECRET to the endpoint's signing secret (whsec_…)");
        std::process::exit(2);
    }
    let seen = Arc::new(Mutex::new(HashSet::new()));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("receiving webhooks on http://{addr}/ (register it with `kontor serve --webhook-allow-loopback`)");
    loop {
        let (stream, _) = listener.accept().await?;
        let (secret, seen) = (secret.clone(), seen.clone());
        tokio::spawn(async move {
            let service = service_fn(move |req| {
                let (secret, seen) = (secret.clone(), seen.clone());
                async move { Ok::<_, Infallible>(handle(secret, seen, req).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(body);
        format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn signatures_are_checked_on_the_raw_body_within_five_minutes() {
        let (secret, body, now) = (
            "whsec_abc",
            br#"{"event":"invoice.paid","id":"evt_1"}"#,
            1_763_702_400,
        );
        assert_eq!(verify(secret, &sign(secret, now, body), body, now), Ok(()));
        assert_eq!(
            verify(secret, &sign(secret, now - 300, body), body, now),
            Ok(())
        );
        assert_eq!(
            verify(secret, &sign(secret, now - 301, body), body, now),
            Err(Rejection::StaleTimestamp)
        );
        assert_eq!(
            verify(secret, &sign(secret, now + 301, body), body, now),
            Err(Rejection::StaleTimestamp)
        );
        assert_eq!(
            verify("whsec_other", &sign(secret, now, body), body, now),
            Err(Rejection::WrongSignature)
        );
        let altered = br#"{"event":"invoice.paid","id":"evt_2"}"#;
        assert_eq!(
            verify(secret, &sign(secret, now, body), altered, now),
            Err(Rejection::WrongSignature)
        );
        assert_eq!(
            verify(secret, "t=abc,v1=00", body, now),
            Err(Rejection::MalformedSignature)
        );
    }
}
