//! A request to the screens as the server read it (`Visit`, and the form
//! its body sends), and what the
//! screens read of a request and set on an answer: the client's address
//! (through trusted proxies only), cookies by name, the `Set-Cookie` value
//! of the session's and the forms' cookies, and whether a form post comes
//! from a page of this service (`Origin`).

use std::net::IpAddr;

use hyper::Method;

use crate::http::app::ScreenConfig;
use crate::http::query::Query;

/// The cookie that carries a session's id.
pub const SESSION_COOKIE: &str = "kontor_session";
/// The cookie that carries the sign-in form's token (before any session).
pub const LOGIN_COOKIE: &str = "kontor_login";
/// The cookie that carries a sign-in's step awaiting its second factor.
pub const STEP_COOKIE: &str = "kontor_step";
/// The largest form body the screens read.
pub const MAX_FORM: usize = 64 * 1024;
/// The address that takes received e-invoices (the Bills screen's upload).
pub const RECEIVED_UPLOAD: &str = "/bills/received";
/// The address that takes bank statement files (the Bank screen's upload).
pub const STATEMENT_UPLOAD: &str = "/bank/import";
/// The only addresses a multipart upload is read for, with the largest body
/// each takes: a few received e-invoices of up to 20 MB each; a ZIP of
/// statements (200 MB) and the form around it.
const UPLOADS: [(&str, usize); 2] = [
    (RECEIVED_UPLOAD, 64 * 1024 * 1024),
    (STATEMENT_UPLOAD, 200 * 1024 * 1024 + 64 * 1024),
];

/// The largest body the screens read for a request: a multipart upload to
/// one of `UPLOADS` its own limit, any other form `MAX_FORM`.
pub fn body_limit(method: &Method, path: &str, content_type: Option<&str>) -> usize {
    let upload = UPLOADS
        .iter()
        .find(|(at, _)| *at == path)
        .map(|(_, limit)| *limit)
        .or_else(|| receipt_upload(path).then_some(RECEIPT_UPLOAD_LIMIT));
    match upload {
        Some(limit)
            if method == Method::POST && crate::http::multipart::is_multipart(content_type) =>
        {
            limit
        }
        _ => MAX_FORM,
    }
}

/// A bill's receipt is uploaded with the new bill (`/bills`) or to the
/// bill (`/bills/{id}/receipt`): up to a megabyte past the 20 MB a receipt
/// may be, so that a receipt a little too large is refused beside its
/// field, and the form around it.
const RECEIPT_UPLOAD_LIMIT: usize = 21 * 1024 * 1024 + 64 * 1024;

fn receipt_upload(path: &str) -> bool {
    path == "/bills"
        || path
            .strip_prefix("/bills/")
            .and_then(|rest| rest.strip_suffix("/receipt"))
            .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// A request to the screens, as the server read it.
pub struct Visit {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub cookie: Option<String>,
    pub origin: Option<String>,
    pub host: Option<String>,
    pub accept_language: Option<String>,
    pub content_type: Option<String>,
    /// The client's address (the peer, or what a trusted proxy says).
    pub client: IpAddr,
    /// The body (a form), empty when there is none; `None` when too large.
    pub body: Option<Vec<u8>>,
}

impl Visit {
    /// The body's fields, as a form sent them; none when the body is no
    /// form (not UTF-8, a broken escape) or there is none.
    pub fn form(&self) -> Query {
        self.body
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|b| Query::parse(b).ok())
            .unwrap_or_default()
    }
}

/// The client's address: the peer's, or, when the peer is a trusted proxy,
/// the last address of `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_address(peer: IpAddr, forwarded: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let Some(forwarded) = forwarded else {
        return peer;
    };
    let mut client = peer;
    for hop in forwarded.rsplit(',') {
        match hop.trim().parse::<IpAddr>() {
            Ok(address) => {
                client = address;
                if !trusted.contains(&address) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// A cookie's value from the `Cookie` header.
pub fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?.split(';').find_map(|pair| {
        let (n, v) = pair.trim().split_once('=')?;
        (n == name).then_some(v)
    })
}

/// A `Set-Cookie` value: `HttpOnly; SameSite=Strict`, `Secure` when served
/// over https, gone at once when `value` is empty.
pub fn set_cookie(config: &ScreenConfig, name: &str, value: &str, path: &str) -> String {
    let mut c = format!("{name}={value}; HttpOnly; SameSite=Strict; Path={path}");
    if value.is_empty() {
        c.push_str("; Max-Age=0");
    }
    if config.secure {
        c.push_str("; Secure");
    }
    c
}

/// The origin (`scheme://host[:port]`, lower case) of a public URL.
pub fn origin_of(url: &str) -> Option<String> {
    let uri = url.parse::<hyper::Uri>().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?.as_str().to_ascii_lowercase();
    Some(format!("{scheme}://{authority}"))
}

/// Whether a form post comes from a page of this service: an `Origin`
/// header, when the browser sends one, must name the host the request was
/// sent to or a public URL's origin (`null` never does).
pub fn same_origin(config: &ScreenConfig, visit: &Visit) -> bool {
    let Some(origin) = visit.origin.as_deref() else {
        return true;
    };
    if config
        .public_origins
        .iter()
        .any(|o| o.eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = visit.host.as_deref() else {
        return false;
    };
    let named = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    named.is_some_and(|named| named.eq_ignore_ascii_case(host))
}

#[cfg(test)]
mod tests {
    use crate::http::screens::visit::*;

    #[test]
    fn the_client_address_comes_from_a_trusted_proxy_only() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let peer: IpAddr = "192.0.2.7".parse().unwrap();
        let header = Some("198.51.100.1, 203.0.113.9");
        assert_eq!(client_address(peer, header, &[proxy]), peer);
        assert_eq!(
            client_address(proxy, header, &[proxy]),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(proxy, None, &[proxy]), proxy);
        assert_eq!(client_address(proxy, Some("nonsense"), &[proxy]), proxy);
        assert_eq!(client_address(proxy, header, &[]), proxy);
    }

    #[test]
    fn public_urls_give_their_origins() {
        assert_eq!(
            origin_of("https://Books.Example.com/").as_deref(),
            Some("https://books.example.com")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("not a url"), None);
    }

    #[test]
    fn cookies_are_read_by_name() {
        let h = Some("a=1; kontor_session=abc; b=2");
        assert_eq!(cookie(h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(h, "kontor"), None);
    }
}
