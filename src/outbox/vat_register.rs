//! The VAT register asked when an invoice is issued: the EU's VIES REST
//! service, or for a German seller the BZSt's eVatR REST service, or none
//! (`off`, a machine without internet). One blocking request through ureq
//! with a time limit; the answer is `Valid` (with the name and address as
//! registered and the consultation number the register gives when the
//! seller's own VAT id is the requester), `Invalid` (the register says the
//! id is not valid: the issue is refused), `Unreachable` (busy, down, a
//! time-out, a network error: the issue proceeds and says so) or `Off`.
//! Answers that say valid or invalid are kept for the rest of the day per
//! id and requester, so issuing a batch asks once.
//!
//! VIES: `POST {root}/check-vat-number` with `{countryCode, vatNumber,
//! requesterMemberStateCode, requesterNumber}`; the answer's `valid`,
//! `requestIdentifier`, `name`, `address`, `requestDate`, or
//! `errorWrappers[].error`. Greece is EL and Northern Ireland XI, as the
//! ids' own prefixes are. eVatR: `POST {root}/abfrage` with
//! `{anfragendeUstid, angefragteUstid, firmenname, ort, plz, strasse}`
//! (the seller's German id and the customer's id, name and place for the
//! qualified check); the answer's `status` (`evatr-0000` valid), `id`,
//! `anfrageZeitpunkt` and the per-field results `ergFirmenname`, `ergOrt`,
//! `ergPlz`, `ergStrasse` (A matches, B does not, C not asked, D not given).
//! It cannot check German ids, which go to VIES.

use std::collections::HashMap;
use std::io::Read;
use std::sync::Mutex;
use std::time::Duration;

use jiff::civil::Date;
use serde::Serialize;
use serde_json::{json, Value};

/// The EU's VIES REST service.
pub const VIES_ROOT: &str = "https://ec.europa.eu/taxation_customs/vies/rest-api";
/// The BZSt's eVatR REST service.
pub const EVATR_ROOT: &str = "https://api.evatr.vies.bzst.de/app/v1";
/// The time limit of one question, by default.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);
/// Most bytes of an answer read.
const MAX_ANSWER: u64 = 64 * 1024;
/// Longest name or address kept.
const TEXT_MAX: usize = 500;

/// The prefixes VIES answers for: the 27 member states (Greece EL) and XI.
const VIES_STATES: [&str; 28] = [
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "XI",
];

/// Whether the register knows ids with the prefix of `vat_id`.
pub fn in_register(vat_id: &str) -> bool {
    vat_id.get(..2).is_some_and(|p| VIES_STATES.contains(&p))
}

/// Which service is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// VIES at this root.
    Vies(String),
    /// eVatR at this root for a German seller's questions about non-German
    /// ids; VIES at the second root for everything else.
    Evatr(String, String),
    Off,
}

impl Service {
    /// Reads `--vat-register`: `off`, a VIES root URL, `evatr` (the BZSt's
    /// root) or `evatr=URL`; each with `http://` or `https://`.
    ///
    /// Fails with a sentence naming what is accepted.
    pub fn read(text: &str) -> std::result::Result<Service, String> {
        let t = text.trim().trim_end_matches('/');
        let url = |u: &str| -> std::result::Result<String, String> {
            if (u.starts_with("https://") || u.starts_with("http://")) && u.len() > 8 {
                Ok(u.trim_end_matches('/').to_string())
            } else {
                Err(format!(
                    "--vat-register is off, evatr, evatr=URL or the URL of the VIES REST service, not {text:?}"
                ))
            }
        };
        match t {
            "off" => Ok(Service::Off),
            "evatr" => Ok(Service::Evatr(EVATR_ROOT.into(), VIES_ROOT.into())),
            _ => match t.strip_prefix("evatr=") {
                Some(u) => Ok(Service::Evatr(url(u)?, VIES_ROOT.into())),
                None => Ok(Service::Vies(url(t)?)),
            },
        }
    }
}

impl Default for Service {
    fn default() -> Service {
        Service::Vies(VIES_ROOT.into())
    }
}

/// Which register answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Which {
    Vies,
    Evatr,
}

impl Which {
    pub fn as_str(self) -> &'static str {
        match self {
            Which::Vies => "VIES",
            Which::Evatr => "EVATR",
        }
    }
}

/// What is asked.
#[derive(Debug, Clone, Default)]
pub struct Question {
    /// The customer's VAT id, compact, with its prefix.
    pub vat_id: String,
    /// The seller's own VAT id, compact, if it has one.
    pub requester: Option<String>,
    /// The customer's name and place, for eVatR's qualified check.
    pub name: String,
    pub city: String,
    pub postal_code: Option<String>,
    pub street: Option<String>,
}

/// The register's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Valid {
        register: Which,
        name: Option<String>,
        address: Option<String>,
        consultation: Option<String>,
        requested_at: String,
        /// eVatR's per-field results, in words.
        detail: Option<String>,
    },
    Invalid {
        register: Which,
        /// The register's own code or word.
        reason: String,
    },
    Unreachable {
        register: Which,
        reason: String,
    },
    Off,
}

/// A register client with its day cache.
pub struct Register {
    service: Service,
    agent: ureq::Agent,
    limit: Duration,
    cache: Mutex<HashMap<(String, String, Date), Answer>>,
}

impl Register {
    /// A client of `service`, each question limited to `limit`.
    pub fn new(service: Service, limit: Duration) -> Register {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(limit))
            .user_agent("kontor")
            .build();
        Register {
            service,
            agent: ureq::Agent::new_with_config(config),
            limit,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The register that asks no one.
    pub fn off() -> Register {
        Register::new(Service::Off, TIME_LIMIT)
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    /// Asks about `q` on `today`; a valid or invalid answer given today
    /// for the same id and requester is given again without asking.
    pub fn ask(&self, q: &Question, today: Date) -> Answer {
        let key = (
            q.vat_id.clone(),
            q.requester.clone().unwrap_or_default(),
            today,
        );
        if let Some(kept) = self.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return kept;
        }
        let answer = match &self.service {
            Service::Off => Answer::Off,
            Service::Vies(root) => self.vies(root, q),
            Service::Evatr(root, vies) => {
                let german_seller = q.requester.as_deref().is_some_and(|r| r.starts_with("DE"));
                if german_seller && !q.vat_id.starts_with("DE") {
                    self.evatr(root, q)
                } else {
                    self.vies(vies, q)
                }
            }
        };
        if matches!(answer, Answer::Valid { .. } | Answer::Invalid { .. }) {
            if let Ok(mut c) = self.cache.lock() {
                c.retain(|(_, _, day), _| *day == today);
                c.insert(key, answer.clone());
            }
        }
        answer
    }

    /// POSTs `body` to `url`; the answer's status and JSON, or why not.
    fn post(&self, url: &str, body: &Value) -> std::result::Result<(u16, Value), String> {
        let response = self
            .agent
            .post(url)
            .header("Accept", "application/json")
            .send_json(body);
        let mut response = match response {
            Ok(r) => r,
            Err(ureq::Error::Timeout(_)) => {
                return Err(format!("no answer within {} s", self.limit.as_secs()))
            }
            Err(e) => return Err(format!("not reachable: {e}")),
        };
        let status = response.status().as_u16();
        let mut bytes = Vec::new();
        response
            .body_mut()
            .as_reader()
            .take(MAX_ANSWER)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("the answer could not be read: {e}"))?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|_| format!("answered {status} without JSON"))?;
        Ok((status, value))
    }

    fn vies(&self, root: &str, q: &Question) -> Answer {
        let unreachable = |reason: String| Answer::Unreachable {
            register: Which::Vies,
            reason,
        };
        let (country, number) = split(&q.vat_id);
        let (req_country, req_number) = q
            .requester
            .as_deref()
            .filter(|r| in_register(r))
            .map_or(("", ""), split);
        let mut body = json!({"countryCode": country, "vatNumber": number});
        if !req_country.is_empty() {
            body["requesterMemberStateCode"] = json!(req_country);
            body["requesterNumber"] = json!(req_number);
        }
        let (status, value) = match self.post(&format!("{root}/check-vat-number"), &body) {
            Ok(v) => v,
            Err(reason) => return unreachable(reason),
        };
        if let Some(error) = value
            .get("errorWrappers")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
            .and_then(|e| e.get("error"))
            .and_then(Value::as_str)
        {
            let code = bounded(error);
            return match code.as_str() {
                "INVALID_INPUT" => Answer::Invalid {
                    register: Which::Vies,
                    reason: code,
                },
                _ => unreachable(code),
            };
        }
        match value.get("valid").and_then(Value::as_bool) {
            Some(true) => Answer::Valid {
                register: Which::Vies,
                name: text_of(&value, "name"),
                address: text_of(&value, "address"),
                consultation: text_of(&value, "requestIdentifier"),
                requested_at: text_of(&value, "requestDate").unwrap_or_default(),
                detail: None,
            },
            Some(false) => Answer::Invalid {
                register: Which::Vies,
                reason: "the register has the id as not valid (valid: false)".into(),
            },
            None => unreachable(format!("answered {status} without valid")),
        }
    }

    fn evatr(&self, root: &str, q: &Question) -> Answer {
        let body = json!({
            "anfragendeUstid": q.requester.clone().unwrap_or_default(),
            "angefragteUstid": q.vat_id,
            "firmenname": q.name,
            "ort": q.city,
            "plz": q.postal_code.clone().unwrap_or_default(),
            "strasse": q.street.clone().unwrap_or_default(),
        });
        let unreachable = |reason: String| Answer::Unreachable {
            register: Which::Evatr,
            reason,
        };
        let (status, value) = match self.post(&format!("{root}/abfrage"), &body) {
            Ok(v) => v,
            Err(reason) => return unreachable(reason),
        };
        let Some(code) = value.get("status").and_then(Value::as_str).map(bounded) else {
            return unreachable(format!("answered {status} without a status"));
        };
        match code.as_str() {
            "evatr-0000" | "evatr-0003" | "evatr-2008" => {
                let fields = [
                    ("ergFirmenname", "name"),
                    ("ergOrt", "place"),
                    ("ergPlz", "postal code"),
                    ("ergStrasse", "street"),
                ];
                let detail: Vec<String> = fields
                    .iter()
                    .filter_map(|(key, word)| {
                        let r = value.get(key)?.as_str()?;
                        let meaning = match r {
                            "A" => "matches",
                            "B" => "does not match",
                            "C" => "not asked",
                            "D" => "not given by the member state",
                            _ => return None,
                        };
                        Some(format!("{word} {meaning}"))
                    })
                    .collect();
                Answer::Valid {
                    register: Which::Evatr,
                    name: None,
                    address: None,
                    consultation: text_of(&value, "id"),
                    requested_at: text_of(&value, "anfrageZeitpunkt").unwrap_or_default(),
                    detail: Some(format!("{code}: {}", detail.join(", "))),
                }
            }
            "evatr-2001" | "evatr-2002" | "evatr-2006" | "evatr-0005" | "evatr-0012" => {
                Answer::Invalid {
                    register: Which::Evatr,
                    reason: code,
                }
            }
            _ => unreachable(code),
        }
    }
}

/// `DE123` → ("DE", "123").
fn split(vat_id: &str) -> (&str, &str) {
    if vat_id.len() >= 2 && vat_id.is_char_boundary(2) {
        vat_id.split_at(2)
    } else {
        ("", vat_id)
    }
}

/// A text cut to its bound, with control characters as spaces.
fn bounded(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(TEXT_MAX)
        .collect::<String>()
        .trim()
        .to_string()
}

/// A field's text; VIES's "---" (not given) is none.
fn text_of(value: &Value, key: &str) -> Option<String> {
    let t = bounded(value.get(key)?.as_str()?);
    (!t.is_empty() && t != "---").then_some(t)
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;

    /// A one-route HTTP stand-in: answers every request with `body`, or
    /// never when `body` is empty; counts requests and keeps the last body.
    fn stand_in(body: &'static str) -> (String, Arc<AtomicUsize>, Arc<Mutex<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let count = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(Mutex::new(String::new()));
        let (c, l) = (count.clone(), last.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let mut out = stream.try_clone().unwrap();
                let mut reader = BufReader::new(stream);
                let mut length = 0;
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    line.clear();
                }
                let mut buf = vec![0; length];
                let _ = reader.read_exact(&mut buf);
                *l.lock().unwrap() = String::from_utf8_lossy(&buf).into();
                c.fetch_add(1, Ordering::SeqCst);
                if body.is_empty() {
                    std::thread::sleep(Duration::from_secs(3));
                    continue;
                }
                let _ = write!(
                    out,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        (url, count, last)
    }

    fn question(id: &str) -> Question {
        Question {
            vat_id: id.into(),
            requester: Some("DE136695976".into()),
            name: "Kunde SA".into(),
            city: "Paris".into(),
            ..Question::default()
        }
    }

    const TODAY: Date = Date::constant(2026, 11, 25);

    #[test]
    fn vies_valid_with_consultation_number_asked_once_a_day() {
        let (url, count, last) = stand_in(
            r#"{"countryCode":"EL","vatNumber":"094259216","requestDate":"2026-11-25T10:00:00.000Z","valid":true,"requestIdentifier":"WAPIAAAAZ1234","name":"KUNDE AE","address":"ODOS 1\nATHINA"}"#,
        );
        let r = Register::new(Service::Vies(url), Duration::from_secs(5));
        let a = r.ask(&question("EL094259216"), TODAY);
        assert_eq!(
            a,
            Answer::Valid {
                register: Which::Vies,
                name: Some("KUNDE AE".into()),
                address: Some("ODOS 1 ATHINA".into()),
                consultation: Some("WAPIAAAAZ1234".into()),
                requested_at: "2026-11-25T10:00:00.000Z".into(),
                detail: None,
            }
        );
        let sent: Value = serde_json::from_str(&last.lock().unwrap()).unwrap();
        assert_eq!(
            sent,
            json!({"countryCode": "EL", "vatNumber": "094259216",
                   "requesterMemberStateCode": "DE", "requesterNumber": "136695976"})
        );
        assert_eq!(r.ask(&question("EL094259216"), TODAY), a);
        assert_eq!(count.load(Ordering::SeqCst), 1, "the day's answer is kept");
        r.ask(&question("EL094259216"), TODAY.tomorrow().unwrap());
        assert_eq!(count.load(Ordering::SeqCst), 2, "a new day asks again");
    }

    #[test]
    fn vies_invalid_busy_and_hanging() {
        let (url, _, _) = stand_in(r#"{"valid":false,"name":"---","address":"---"}"#);
        let a = Register::new(Service::Vies(url), Duration::from_secs(5))
            .ask(&question("FR40303265045"), TODAY);
        assert!(
            matches!(
                a,
                Answer::Invalid {
                    register: Which::Vies,
                    ..
                }
            ),
            "{a:?}"
        );
        let (url, count, _) = stand_in(
            r#"{"actionSucceed":false,"errorWrappers":[{"error":"MS_UNAVAILABLE","message":"x"}]}"#,
        );
        let r = Register::new(Service::Vies(url), Duration::from_secs(5));
        let a = r.ask(&question("FR40303265045"), TODAY);
        assert_eq!(
            a,
            Answer::Unreachable {
                register: Which::Vies,
                reason: "MS_UNAVAILABLE".into()
            }
        );
        r.ask(&question("FR40303265045"), TODAY);
        assert_eq!(count.load(Ordering::SeqCst), 2, "a busy answer is not kept");
        let (url, _, _) = stand_in("");
        // The stand-in holds its answer 3 s and then hangs up: a request
        // that waited for it would end "not reachable", not timed out.
        let a = Register::new(Service::Vies(url), Duration::from_millis(500))
            .ask(&question("FR40303265045"), TODAY);
        assert!(
            matches!(&a, Answer::Unreachable { reason, .. } if reason.starts_with("no answer within")),
            "{a:?}"
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let a = Register::new(
            Service::Vies(format!("http://127.0.0.1:{port}")),
            Duration::from_secs(2),
        )
        .ask(&question("FR40303265045"), TODAY);
        assert!(matches!(a, Answer::Unreachable { .. }), "{a:?}");
        assert_eq!(
            Register::off().ask(&question("FR40303265045"), TODAY),
            Answer::Off
        );
    }

    #[test]
    fn evatr_for_a_german_seller_and_vies_for_german_ids() {
        let (url, _, last) = stand_in(
            r#"{"id":"8f3c","anfrageZeitpunkt":"2026-11-25T10:00:00Z","status":"evatr-0000","ergFirmenname":"A","ergOrt":"B","ergPlz":"C","ergStrasse":"C"}"#,
        );
        let r = Register::new(
            Service::Evatr(url, "http://127.0.0.1:9".into()),
            Duration::from_secs(5),
        );
        let a = r.ask(&question("FR40303265045"), TODAY);
        let Answer::Valid {
            register,
            consultation,
            detail,
            ..
        } = a
        else {
            panic!("{a:?}")
        };
        assert_eq!(
            (register, consultation.as_deref()),
            (Which::Evatr, Some("8f3c"))
        );
        assert_eq!(
            detail.as_deref(),
            Some("evatr-0000: name matches, place does not match, postal code not asked, street not asked")
        );
        let sent: Value = serde_json::from_str(&last.lock().unwrap()).unwrap();
        assert_eq!(sent["anfragendeUstid"], "DE136695976");
        assert_eq!(sent["angefragteUstid"], "FR40303265045");
        assert_eq!(
            (sent["firmenname"].as_str(), sent["ort"].as_str()),
            (Some("Kunde SA"), Some("Paris"))
        );
        // A German id goes to VIES (nothing listens there: unreachable).
        let a = r.ask(&question("DE136695976"), TODAY);
        assert!(
            matches!(
                a,
                Answer::Unreachable {
                    register: Which::Vies,
                    ..
                }
            ),
            "{a:?}"
        );
        let (url, _, _) = stand_in(r#"{"status":"evatr-2001"}"#);
        let r = Register::new(
            Service::Evatr(url, VIES_ROOT.into()),
            Duration::from_secs(5),
        );
        assert!(matches!(
            r.ask(&question("FR40303265045"), TODAY),
            Answer::Invalid { .. }
        ));
    }

    #[test]
    fn the_option_reads_off_urls_and_evatr() {
        assert_eq!(Service::read("off"), Ok(Service::Off));
        assert_eq!(
            Service::read("http://127.0.0.1:9/vies/"),
            Ok(Service::Vies("http://127.0.0.1:9/vies".into()))
        );
        assert_eq!(
            Service::read("evatr"),
            Ok(Service::Evatr(EVATR_ROOT.into(), VIES_ROOT.into()))
        );
        assert!(Service::read("ftp://x").is_err());
        assert!(in_register("EL094259216") && in_register("XI123456782") && !in_register("GB123"));
    }
}
