//! Where webhooks may go: the rules for an endpoint's URL (https, port 443, no
//! userinfo, a public host) and for every address a delivery connects to
//! (no loopback, private, link-local, CGNAT, unique-local, multicast,
//! unspecified, documentation or reserved range, in IPv4 or IPv6, including
//! IPv4-mapped, IPv4-compatible, 6to4 and NAT64 forms), and numeric host
//! spellings such as `2130706433` or `0x7f.1`. `--webhook-allow-loopback`
//! relaxes exactly one thing: loopback addresses, with http or https, on any
//! port. This module decides; the worker's resolver and the registration ask.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use hyper::Uri;

use crate::error::said::Webhook;
use crate::error::Said;

/// Whether loopback targets are allowed (development and tests only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Policy {
    pub allow_loopback: bool,
}

/// A URL that passed the shape rules: scheme, host and port.
#[derive(Debug, Clone)]
pub struct Target {
    pub uri: Uri,
    pub host: String,
    pub port: u16,
}

/// Why a URL or an address may not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a URL at all (400).
    Unreadable(Said),
    /// A URL the rules forbid (409), with the reason.
    Forbidden(Said),
}

fn forbidden(reason: Webhook) -> Refusal {
    Refusal::Forbidden(Said::from(reason))
}

fn unreadable(reason: Webhook) -> Refusal {
    Refusal::Unreadable(Said::from(reason))
}

/// Reads a host spelled the way `inet_aton` accepts it: one to four parts,
/// each decimal, `0x` hex or `0`-led octal, the last part filling the
/// remaining bytes (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`).
pub fn numeric_ipv4(host: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let mut values = Vec::with_capacity(parts.len());
    for p in &parts {
        let lower = p.to_ascii_lowercase();
        let value = if let Some(hex) = lower.strip_prefix("0x") {
            if hex.is_empty() {
                0
            } else {
                u64::from_str_radix(hex, 16).ok()?
            }
        } else if lower.len() > 1 && lower.starts_with('0') {
            u64::from_str_radix(&lower[1..], 8).ok()?
        } else {
            lower.parse::<u64>().ok()?
        };
        values.push(value);
    }
    let (last, front) = values.split_last()?;
    if front.iter().any(|v| *v > 255) {
        return None;
    }
    let remaining_bytes = 4 - front.len() as u32;
    if *last >= 1u64 << (8 * remaining_bytes) {
        return None;
    }
    let mut n: u64 = 0;
    for (i, v) in front.iter().enumerate() {
        n |= v << (8 * (3 - i as u32));
    }
    Some(Ipv4Addr::from((n | last) as u32))
}

fn v4_range(ip: Ipv4Addr, base: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 {
        0
    } else {
        u32::MAX << (32 - bits)
    };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(base)) & mask)
}

/// Why an IPv4 address is not public, if it is not.
fn v4_problem(ip: Ipv4Addr, policy: Policy) -> Option<&'static str> {
    const RANGES: &[([u8; 4], u32, &str)] = &[
        ([0, 0, 0, 0], 8, "in 0.0.0.0/8 (this network)"),
        ([10, 0, 0, 0], 8, "private (10.0.0.0/8)"),
        (
            [100, 64, 0, 0],
            10,
            "shared address space (CGNAT, 100.64.0.0/10)",
        ),
        ([127, 0, 0, 0], 8, "loopback"),
        ([169, 254, 0, 0], 16, "link-local (169.254.0.0/16)"),
        ([172, 16, 0, 0], 12, "private (172.16.0.0/12)"),
        (
            [192, 0, 0, 0],
            24,
            "IETF protocol assignments (192.0.0.0/24)",
        ),
        ([192, 0, 2, 0], 24, "documentation (192.0.2.0/24)"),
        ([192, 88, 99, 0], 24, "6to4 relay anycast (192.88.99.0/24)"),
        ([192, 168, 0, 0], 16, "private (192.168.0.0/16)"),
        ([198, 18, 0, 0], 15, "benchmarking (198.18.0.0/15)"),
        ([198, 51, 100, 0], 24, "documentation (198.51.100.0/24)"),
        ([203, 0, 113, 0], 24, "documentation (203.0.113.0/24)"),
        ([224, 0, 0, 0], 4, "multicast"),
        (
            [240, 0, 0, 0],
            4,
            "reserved (240.0.0.0/4, broadcast included)",
        ),
    ];
    let (_, _, why) = RANGES
        .iter()
        .find(|(base, bits, _)| v4_range(ip, *base, *bits))?;
    if *why == "loopback" && policy.allow_loopback {
        return None;
    }
    Some(why)
}

/// Why an IPv6 address is not public, if it is not (embedded IPv4 checked as IPv4).
fn v6_problem(ip: Ipv6Addr, policy: Policy) -> Option<&'static str> {
    let s = ip.segments();
    let embedded = |hi: usize| {
        Ipv4Addr::new(
            (s[hi] >> 8) as u8,
            s[hi] as u8,
            (s[hi + 1] >> 8) as u8,
            s[hi + 1] as u8,
        )
    };
    if ip.is_unspecified() {
        return Some("unspecified (::)");
    }
    if ip.is_loopback() {
        return (!policy.allow_loopback).then_some("loopback (::1)");
    }
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible)
    if s[0..5] == [0, 0, 0, 0, 0] && (s[5] == 0xffff || s[5] == 0) {
        return v4_problem(embedded(6), policy).or(if s[5] == 0 {
            Some("IPv4-compatible (::/96)")
        } else {
            None
        });
    }
    // 64:ff9b::/96 NAT64 carries an IPv4 address
    if s[0..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return v4_problem(embedded(6), Policy::default())
            .map(|_| "NAT64 form of a non-public IPv4 address");
    }
    // 2002::/16 6to4 carries an IPv4 address in bits 16–48
    if s[0] == 0x2002 {
        return v4_problem(embedded(1), Policy::default())
            .map(|_| "6to4 form of a non-public IPv4 address");
    }
    const RANGES: &[(u16, u16, &str)] = &[
        (0x0100, 0xffff, "discard-only (100::/64)"),
        (0x0064, 0xffff, "local-use NAT64 (64:ff9b:1::/48)"),
        (0xfc00, 0xfe00, "unique-local (fc00::/7)"),
        (0xfe80, 0xffc0, "link-local (fe80::/10)"),
        (0xfec0, 0xffc0, "site-local (fec0::/10)"),
        (0xff00, 0xff00, "multicast (ff00::/8)"),
    ];
    if let Some((_, _, why)) = RANGES.iter().find(|(base, mask, _)| s[0] & mask == *base) {
        return Some(why);
    }
    if s[0] == 0x2001 && s[1] == 0x0db8 {
        return Some("documentation (2001:db8::/32)");
    }
    if s[0] == 0x2001 && s[1] == 0 {
        return Some("Teredo (2001::/32)");
    }
    if s[0] == 0x2001 && matches!(s[1] & 0xfff0, 0x0010 | 0x0020) {
        return Some("ORCHID (2001:10::/28, 2001:20::/28)");
    }
    if s[0] == 0x2001 && s[1] == 0x0002 && s[2] == 0 {
        return Some("benchmarking (2001:2::/48)");
    }
    if s[0] & 0xe000 != 0x2000 {
        return Some("outside global unicast (2000::/3)");
    }
    None
}

/// Why `ip` may not be connected to, if it may not.
pub fn address_problem(ip: IpAddr, policy: Policy) -> Option<String> {
    let why = match ip {
        IpAddr::V4(v4) => v4_problem(v4, policy),
        IpAddr::V6(v6) => v6_problem(v6, policy),
    };
    why.map(|w| format!("{ip} is {w}"))
}

/// Whether `ip` is a loopback address in any spelling.
fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// The literal address of a host, when the host is one (bracketed IPv6, dotted or numeric IPv4).
fn literal(host: &str) -> Option<IpAddr> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    if let Some(v6) = bare {
        return v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    numeric_ipv4(host).map(IpAddr::V4)
}

/// Checks a URL's shape: absolute http(s), a host, https on port 443 (or,
/// with `allow_loopback`, http or https on any port to a loopback host), no
/// userinfo, and a literal or numeric host that is public.
///
/// Fails with `Unreadable` for something that is not an absolute URL and
/// `Forbidden` naming the rule it breaks.
pub fn check_url(text: &str, policy: Policy) -> Result<Target, Refusal> {
    let text = text.trim();
    let uri: Uri = text.parse().map_err(|_| {
        unreadable(Webhook::NotUrl {
            got: text.to_string(),
        })
    })?;
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Err(unreadable(Webhook::NotAbsolute {
            got: text.to_string(),
        }));
    };
    if authority.as_str().contains('@') {
        return Err(forbidden(Webhook::Credentials));
    }
    let host = authority.host().to_ascii_lowercase();
    if host.is_empty() {
        return Err(unreadable(Webhook::NoHost {
            got: text.to_string(),
        }));
    }
    if host.contains('%') {
        // `[fe80::1%25eth0]`: a zone id names an interface of this machine.
        return Err(forbidden(Webhook::ZoneId { host }));
    }
    let literal = literal(&host);
    // A name's trailing dot (the root) changes nothing: `localhost.` is localhost.
    let name = host.strip_suffix('.').unwrap_or(&host);
    let loopback_name = name == "localhost" || name.ends_with(".localhost");
    let loopback = literal.is_some_and(is_loopback) || loopback_name;
    let scheme = scheme.to_ascii_lowercase();
    let port = authority
        .port_u16()
        .unwrap_or(if scheme == "http" { 80 } else { 443 });
    if !(scheme == "https" || (scheme == "http" && policy.allow_loopback && loopback)) {
        if scheme != "http" && scheme != "https" {
            return Err(unreadable(Webhook::NotHttp {
                got: text.to_string(),
            }));
        }
        return Err(forbidden(Webhook::HttpsOnly));
    }
    if port != 443 && !(policy.allow_loopback && loopback) {
        return Err(forbidden(Webhook::Port443 { port }));
    }
    if loopback_name && !policy.allow_loopback {
        return Err(forbidden(Webhook::LoopbackName { host }));
    }
    if let Some(ip) = literal {
        if let Some(problem) = address_problem(ip, policy) {
            return Err(forbidden(Webhook::HostNotPublic { problem }));
        }
    } else if host.starts_with(|c: char| c.is_ascii_digit())
        && host
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == '.' || c == 'x')
    {
        return Err(forbidden(Webhook::NumericHost { host }));
    }
    Ok(Target { uri, host, port })
}

/// Resolves `host:port` (within `timeout`) and checks every address.
///
/// Fails with a sentence naming the first non-public address, or saying the
/// name did not resolve.
pub fn resolve_checked(
    host: &str,
    port: u16,
    policy: Policy,
    timeout: Duration,
) -> Result<Vec<SocketAddr>, String> {
    let name = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let lookup = format!(
        "{}:{port}",
        if name.contains(':') {
            format!("[{name}]")
        } else {
            name.clone()
        }
    );
    let spawned = std::thread::Builder::new()
        .name("kontor-resolve".into())
        .spawn(move || {
            let _ = tx.send(lookup.to_socket_addrs().map(|a| a.collect::<Vec<_>>()));
        });
    if spawned.is_err() {
        return Err(format!(
            "cannot resolve {host} now: no thread for the lookup"
        ));
    }
    let addrs = match rx.recv_timeout(timeout) {
        Ok(Ok(addrs)) if !addrs.is_empty() => addrs,
        Ok(_) => return Err(format!("{host} did not resolve")),
        Err(_) => {
            return Err(format!(
                "resolving {host} took longer than {} s",
                timeout.as_secs()
            ))
        }
    };
    for addr in &addrs {
        if let Some(problem) = address_problem(addr.ip(), policy) {
            return Err(format!("refused: {host} resolves to {problem}"));
        }
    }
    Ok(addrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_spellings_read_like_inet_aton() {
        assert_eq!(
            numeric_ipv4("2130706433"),
            Some(Ipv4Addr::new(127, 0, 0, 1))
        );
        assert_eq!(numeric_ipv4("0x7f.1"), Some(Ipv4Addr::new(127, 0, 0, 1)));
        assert_eq!(
            numeric_ipv4("0177.0.0.1"),
            Some(Ipv4Addr::new(127, 0, 0, 1))
        );
        assert_eq!(numeric_ipv4("127.1"), Some(Ipv4Addr::new(127, 0, 0, 1)));
        assert_eq!(numeric_ipv4("10.0.258"), Some(Ipv4Addr::new(10, 0, 1, 2)));
        assert_eq!(
            numeric_ipv4("93.184.216.34"),
            Some(Ipv4Addr::new(93, 184, 216, 34))
        );
        assert_eq!(numeric_ipv4("example.com"), None);
        assert_eq!(numeric_ipv4("256.1.1.1"), None);
        assert_eq!(numeric_ipv4("1.2.3.4.5"), None);
    }

    #[test]
    fn public_addresses_pass_and_others_do_not() {
        let p = Policy::default();
        for ok in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "2a00:1450:4001:81b::200e",
        ] {
            assert_eq!(address_problem(ok.parse().unwrap(), p), None, "{ok}");
        }
        for bad in [
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "::127.0.0.1",
            "fd00::1",
            "fe80::1",
            "ff02::1",
            "::",
            "::1",
            "2001:db8::1",
            "100::1",
        ] {
            assert!(address_problem(bad.parse().unwrap(), p).is_some(), "{bad}");
        }
        let loopback = Policy {
            allow_loopback: true,
        };
        assert_eq!(
            address_problem("127.0.0.1".parse().unwrap(), loopback),
            None
        );
        assert_eq!(address_problem("::1".parse().unwrap(), loopback), None);
        assert!(address_problem("10.0.0.1".parse().unwrap(), loopback).is_some());
    }
}
