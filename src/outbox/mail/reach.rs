//! Where mail may go: the SMTP server a company names is checked as a
//! webhook target is (`outbox::address`), so that one company's owner
//! cannot make the mail worker knock on this machine or its network (a
//! loopback port, a private host, the cloud's metadata address) and read
//! the answer in the send log. A host written as an address is checked
//! when the settings are saved; every host is checked again when a mail
//! is sent, against each address its name resolves to, and the connection
//! goes to the address that was checked (a name cannot resolve to
//! something else between the check and the connection).
//!
//! Whoever runs kontor may allow exceptions (`serve --mail-allow`): a
//! range of addresses (`10.0.0.0/8`, `::1/128`), one address, or a host
//! name (the company's own relay, `relay.internal`), whose addresses are
//! then not checked.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use crate::error::{Error, Result};
use crate::outbox::address::{self, Policy};

/// One exception the operator allows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Allowed {
    /// Every address within `bits` leading bits of the address.
    Range(IpAddr, u8),
    /// A host name, lowercase, without a trailing dot.
    Host(String),
}

/// The exceptions to the public-address rule for SMTP servers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailAllow {
    allowed: Vec<Allowed>,
}

fn bare(host: &str) -> String {
    let h = host.trim().trim_start_matches('[').trim_end_matches(']');
    h.strip_suffix('.').unwrap_or(h).to_ascii_lowercase()
}

fn within(ip: IpAddr, base: IpAddr, bits: u8) -> bool {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    match (ip, base) {
        (IpAddr::V4(a), IpAddr::V4(b)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(a) & mask == u32::from(b) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(b)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(a) & mask == u128::from(b) & mask
        }
        _ => false,
    }
}

impl MailAllow {
    /// Nothing allowed beyond public addresses.
    pub fn none() -> MailAllow {
        MailAllow::default()
    }

    /// Reads `--mail-allow` values: `ADDRESS/BITS`, `ADDRESS` or a host name.
    ///
    /// Fails with `Invalid` naming `mailAllow` for a value that is none of these.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<MailAllow> {
        let mut allowed = Vec::new();
        for value in values {
            let value = value.as_ref().trim();
            let entry = match value.split_once('/') {
                Some((ip, bits)) => {
                    let ip: IpAddr = bare(ip).parse().map_err(|_| {
                        Error::invalid("mailAllow", format!("{value:?} is no address range"))
                    })?;
                    let most = if ip.is_ipv4() { 32 } else { 128 };
                    match bits.parse::<u8>() {
                        Ok(b) if b <= most => Allowed::Range(ip, b),
                        _ => {
                            return Err(Error::invalid(
                                "mailAllow",
                                format!("{value:?}: the prefix length is 0 to {most}"),
                            ))
                        }
                    }
                }
                None => match bare(value).parse::<IpAddr>() {
                    Ok(ip) => Allowed::Range(ip, if ip.is_ipv4() { 32 } else { 128 }),
                    Err(_) => {
                        let host = bare(value);
                        let ok = !host.is_empty()
                            && host.len() <= 253
                            && host
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || ".-".contains(c));
                        if !ok {
                            return Err(Error::invalid(
                                "mailAllow",
                                format!("{value:?} is no address, range or host name"),
                            ));
                        }
                        Allowed::Host(host)
                    }
                },
            };
            allowed.push(entry);
        }
        Ok(MailAllow { allowed })
    }

    /// Whether the operator allows `host` by its name.
    fn names(&self, host: &str) -> bool {
        let host = bare(host);
        self.allowed
            .iter()
            .any(|a| matches!(a, Allowed::Host(h) if *h == host))
    }

    /// Whether the operator allows the address `ip`.
    fn covers(&self, ip: IpAddr) -> bool {
        self.allowed
            .iter()
            .any(|a| matches!(a, Allowed::Range(base, bits) if within(ip, *base, *bits)))
    }

    /// Why mail may not go to `ip`, if it may not.
    fn problem(&self, ip: IpAddr) -> Option<String> {
        if self.covers(ip) {
            return None;
        }
        address::address_problem(ip, Policy::default())
    }

    /// Checks a host as saved in the settings: a host given as an address
    /// (or `localhost`) must be public or allowed; a name is checked when
    /// mail is sent, against what it resolves to then.
    ///
    /// Fails with `Invalid` naming `host` and the kind of address.
    pub fn check_host(&self, host: &str) -> Result<()> {
        if self.names(host) {
            return Ok(());
        }
        let h = bare(host);
        let literal = if h == "localhost" || h.ends_with(".localhost") {
            Some(IpAddr::from([127, 0, 0, 1]))
        } else {
            h.parse::<IpAddr>()
                .ok()
                .or_else(|| address::numeric_ipv4(&h).map(IpAddr::V4))
        };
        match literal.and_then(|ip| self.problem(ip)) {
            Some(why) => Err(Error::invalid("host", refusal(&why))),
            None => Ok(()),
        }
    }

    /// The address to connect to for `host` and `port`: the first the name
    /// resolves to, when every one it resolves to is public or allowed.
    ///
    /// Fails with a sentence when the name does not resolve or resolves to
    /// an address mail may not go to.
    pub fn resolve(&self, host: &str, port: u16) -> std::result::Result<SocketAddr, String> {
        let h = bare(host);
        let addresses: Vec<SocketAddr> = match h.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => (h.as_str(), port)
                .to_socket_addrs()
                .map_err(|e| format!("{h} cannot be resolved: {e}"))?
                .collect(),
        };
        let Some(first) = addresses.first().copied() else {
            return Err(format!("{h} resolves to no address"));
        };
        if self.names(&h) {
            return Ok(first);
        }
        for a in &addresses {
            if let Some(why) = self.problem(a.ip()) {
                let shown = if h.parse::<IpAddr>().is_ok() {
                    why
                } else {
                    format!("{h} resolves to {why}")
                };
                return Err(refusal(&shown));
            }
        }
        Ok(first)
    }
}

fn refusal(why: &str) -> String {
    format!(
        "{why}: mail goes only to servers on public addresses, unless whoever runs this kontor \
         allows this one"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_addresses_and_names_are_read() {
        let allow = MailAllow::parse(&["10.0.0.0/8", "::1", "Relay.Internal."]).unwrap();
        assert!(allow.covers("10.1.2.3".parse().unwrap()));
        assert!(allow.covers("::ffff:10.1.2.3".parse().unwrap()));
        assert!(!allow.covers("11.0.0.1".parse().unwrap()));
        assert!(allow.covers("::1".parse().unwrap()));
        assert!(!allow.covers("127.0.0.1".parse().unwrap()));
        assert!(allow.names("relay.internal"));
        for bad in ["10.0.0.0/33", "x/8", "a b", ""] {
            assert!(MailAllow::parse(&[bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn special_addresses_are_refused_unless_allowed() {
        let none = MailAllow::none();
        for host in [
            "127.0.0.1",
            "localhost",
            "169.254.169.254",
            "10.0.0.5",
            "192.168.1.1",
            "[fd00::1]",
            "[::1]",
            "2130706433",
        ] {
            assert!(none.check_host(host).is_err(), "{host}");
            assert!(none.resolve(host, 25).is_err(), "{host}");
        }
        assert!(none.check_host("smtp.example.com").is_ok());
        assert!(none.check_host("192.0.2.1").is_err());
        assert!(none.resolve("8.8.8.8", 587).is_ok());
        let loopback = MailAllow::parse(&["127.0.0.0/8"]).unwrap();
        assert!(loopback.check_host("localhost").is_ok());
        assert_eq!(
            loopback.resolve("127.0.0.1", 2525).unwrap(),
            "127.0.0.1:2525".parse().unwrap()
        );
    }
}
