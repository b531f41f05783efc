//! One session with the mailbox: connect (TLS through rustls with the web
//! PKI's roots, or a CA file's; plain only to a loopback address), log in,
//! select the folder, list its messages by UID, fetch one message's bytes
//! (bounded), and move it to `kontor/done` or `kontor/refused`, created
//! when missing with the server's own hierarchy delimiter. IMAP MOVE is
//! used where the server offers it, else copy, flag deleted and expunge
//! that one message. Every network wait is bounded by a timeout.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use super::address::MailboxAddress;
use crate::error::{Error, Result};

/// How long one network operation may take.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The largest message kontor fetches (an e-invoice is at most 20 MB,
/// base64 in a mail makes a third more).
pub const MAX_MESSAGE: u32 = 30 * 1024 * 1024;

/// The folders handled messages move to, under `kontor`.
pub const DONE: &str = "done";
pub const REFUSED: &str = "refused";

/// A byte stream to the server, with or without TLS.
pub enum Wire {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.read(buf),
            Wire::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.write(buf),
            Wire::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Wire::Plain(s) => s.flush(),
            Wire::Tls(s) => s.flush(),
        }
    }
}

/// A logged-in session on the selected folder.
pub struct ImapSession {
    imap: imap::Session<Wire>,
    delimiter: String,
    can_move: bool,
    /// The time limit of every network wait.
    limit: Duration,
}

fn failed(what: &str, e: impl std::fmt::Display) -> Error {
    Error::refused(format!("The mailbox {what}: {e}."))
}

/// What an IMAP command's failure says: `what` the server answered, or,
/// for a wait the time limit ended, `waited` (the step it did not answer)
/// with the limit, not the socket's "Resource temporarily unavailable".
fn unanswered(what: &str, waited: &str, e: imap::Error, limit: Duration) -> Error {
    // The IMAP client names its I/O error as a `cause`, not a `source`.
    let timed_out = match &e {
        imap::Error::Io(io) => crate::error::is_time_out(io),
        other => crate::error::is_time_out(other),
    };
    if timed_out {
        failed(waited, format!("no answer within {} s", limit.as_secs()))
    } else {
        failed(what, e)
    }
}

impl ImapSession {
    /// Connects, logs in and selects the address's folder.
    ///
    /// Fails with `Refused` saying what went wrong: the host cannot be
    /// reached, the TLS handshake or the CA file fails, the login is
    /// refused, or the folder does not exist.
    pub fn open(
        address: &MailboxAddress,
        password: &str,
        ca_file: Option<&Path>,
    ) -> Result<ImapSession> {
        ImapSession::open_within(address, password, ca_file, TIMEOUT)
    }

    /// `open` with `limit` on every network wait of the session.
    fn open_within(
        address: &MailboxAddress,
        password: &str,
        ca_file: Option<&Path>,
        limit: Duration,
    ) -> Result<ImapSession> {
        let target = (address.host.as_str(), address.port)
            .to_socket_addrs()
            .map_err(|e| failed("host cannot be resolved", e))?
            .next()
            .ok_or_else(|| failed("host cannot be resolved", "no address"))?;
        let tcp = TcpStream::connect_timeout(&target, limit)
            .map_err(|e| failed("server cannot be reached", e))?;
        tcp.set_read_timeout(Some(limit))
            .and_then(|_| tcp.set_write_timeout(Some(limit)))
            .map_err(|e| failed("connection cannot be set up", e))?;
        let wire = if address.tls {
            let config = tls_config(ca_file)?;
            let name = ServerName::try_from(address.host.clone())
                .map_err(|e| failed("host name is not valid for TLS", e))?;
            let connection = ClientConnection::new(Arc::new(config), name)
                .map_err(|e| failed("TLS cannot start", e))?;
            Wire::Tls(Box::new(StreamOwned::new(connection, tcp)))
        } else {
            Wire::Plain(tcp)
        };
        let mut client = imap::Client::new(wire);
        client
            .read_greeting()
            .map_err(|e| unanswered("server did not greet", "server did not greet", e, limit))?;
        let mut imap = client.login(&address.user, password).map_err(|(e, _)| {
            unanswered(
                &format!("refused the login of {}", address.user),
                &format!("did not answer the login of {}", address.user),
                e,
                limit,
            )
        })?;
        let can_move = imap
            .capabilities()
            .map(|c| c.has_str("MOVE"))
            .unwrap_or(false);
        let delimiter = imap
            .list(Some(""), Some("\"\""))
            .ok()
            .and_then(|names| names.iter().find_map(|n| n.delimiter().map(str::to_string)))
            .unwrap_or_else(|| "/".to_string());
        imap.select(&address.folder).map_err(|e| {
            unanswered(
                &format!("folder {} cannot be opened", address.folder),
                &format!("did not open the folder {}", address.folder),
                e,
                limit,
            )
        })?;
        Ok(ImapSession {
            imap,
            delimiter,
            can_move,
            limit,
        })
    }

    /// The UIDs of the folder's messages, oldest first.
    ///
    /// Fails with `Refused` when the server does not answer.
    pub fn messages(&mut self) -> Result<Vec<u32>> {
        let mut uids: Vec<u32> = self
            .imap
            .uid_search("ALL")
            .map_err(|e| {
                unanswered(
                    "cannot be searched",
                    "did not answer the search",
                    e,
                    self.limit,
                )
            })?
            .into_iter()
            .collect();
        uids.sort_unstable();
        Ok(uids)
    }

    /// A message's bytes as sent; `None` when it is larger than
    /// `MAX_MESSAGE` (it is not fetched) or gone.
    ///
    /// Fails with `Refused` when the server does not answer.
    pub fn fetch(&mut self, uid: u32) -> Result<Option<Vec<u8>>> {
        let limit = self.limit;
        let mut read = |items: &str| {
            self.imap.uid_fetch(uid.to_string(), items).map_err(|e| {
                unanswered(
                    "cannot be read",
                    "did not answer the reading of a message",
                    e,
                    limit,
                )
            })
        };
        let sizes = read("RFC822.SIZE")?;
        let size = sizes.iter().find_map(|f| f.size);
        if size.is_none_or(|s| s > MAX_MESSAGE) {
            return Ok(None);
        }
        let fetched = read("BODY.PEEK[]")?;
        Ok(fetched.iter().find_map(|f| f.body().map(<[u8]>::to_vec)))
    }

    /// Moves a message to `kontor/<folder>`, creating it when missing.
    ///
    /// Fails with `Refused` when the server refuses to move it.
    pub fn file(&mut self, uid: u32, folder: &str) -> Result<()> {
        let target = format!("kontor{}{folder}", self.delimiter);
        if self.imap.create("kontor").is_err() {
            // It exists already (or the server makes parents itself).
        }
        let _ = self.imap.create(&target);
        let set = uid.to_string();
        if self.can_move {
            self.imap.uid_mv(&set, &target).map_err(|e| {
                unanswered(
                    &format!("refused to move a message to {target}"),
                    &format!("did not answer the move of a message to {target}"),
                    e,
                    self.limit,
                )
            })?;
        } else {
            self.imap.uid_copy(&set, &target).map_err(|e| {
                unanswered(
                    &format!("refused to copy a message to {target}"),
                    &format!("did not answer the copy of a message to {target}"),
                    e,
                    self.limit,
                )
            })?;
            self.imap
                .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                .map_err(|e| {
                    unanswered(
                        "refused to flag a moved message",
                        "did not answer the flagging of a moved message",
                        e,
                        self.limit,
                    )
                })?;
            self.imap.uid_expunge(&set).map_err(|e| {
                unanswered(
                    "refused to expunge a moved message",
                    "did not answer the expunging of a moved message",
                    e,
                    self.limit,
                )
            })?;
        }
        Ok(())
    }

    /// Logs out; a server that hangs up first is no fault.
    pub fn close(mut self) {
        let _ = self.imap.logout();
    }
}

/// TLS with the web PKI's roots, or with the certificates of `ca_file`.
fn tls_config(ca_file: Option<&Path>) -> Result<ClientConfig> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(path) => {
            let certificates = CertificateDer::pem_file_iter(path)
                .map_err(|e| failed(&format!("CA file {} cannot be read", path.display()), e))?;
            for certificate in certificates {
                let certificate = certificate
                    .map_err(|e| failed(&format!("CA file {} is not PEM", path.display()), e))?;
                roots.add(certificate).map_err(|e| {
                    failed(
                        &format!("CA file {} holds an unusable certificate", path.display()),
                        e,
                    )
                })?;
            }
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| failed("TLS cannot be configured", e))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::TcpListener;

    use super::*;

    /// What a session with a 1 s limit says of a server that takes the
    /// connection, writes `said` and then says nothing for 3 s.
    fn refusal_of_a_server_that_stops_after(said: &'static [u8]) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            stream.write_all(said).unwrap();
            std::thread::sleep(Duration::from_secs(3));
        });
        let address = MailboxAddress::parse(&format!("imap://kontor@127.0.0.1:{port}")).unwrap();
        match ImapSession::open_within(&address, "secret", None, Duration::from_secs(1)) {
            Ok(_) => panic!("a silent server gave a session"),
            Err(e) => e.sentence(),
        }
    }

    #[test]
    fn a_server_that_never_greets_is_told_as_no_answer_within_the_limit() {
        // A session that waited for the server would end "IO error: …",
        // not timed out.
        assert_eq!(
            refusal_of_a_server_that_stops_after(b""),
            "The mailbox server did not greet: no answer within 1 s."
        );
    }

    #[test]
    fn a_login_never_answered_is_told_as_unanswered_not_refused() {
        assert_eq!(
            refusal_of_a_server_that_stops_after(b"* OK IMAP4rev1 ready\r\n"),
            "The mailbox did not answer the login of kontor: no answer within 1 s."
        );
    }
}
