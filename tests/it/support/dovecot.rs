//! A real IMAP server for the mailbox tests: Debian's dovecot (installed
//! by `.ci/install-dovecot.sh`), started in the foreground on a free
//! loopback port with its own config, users and mail in a temporary
//! folder, as the current user (as root, the package's own unprivileged
//! users run its processes), and stopped when dropped.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DOVECOT: &str = "/usr/sbin/dovecot";

pub struct Dovecot {
    dir: tempfile::TempDir,
    child: Child,
    pub port: u16,
    pub user: String,
    pub password: String,
}

impl Dovecot {
    /// Starts a server with one user and an empty INBOX.
    pub fn start() -> Dovecot {
        assert!(
            Path::new(DOVECOT).exists(),
            "dovecot is missing: run .ci/install-dovecot.sh (it installs Debian's dovecot-imapd)"
        );
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let port = free_port();
        let me = whoami();
        let (internal, login, mail_user) = if me == "root" {
            ("dovecot", "dovenull", "dovecot")
        } else {
            (me.as_str(), me.as_str(), me.as_str())
        };
        for sub in ["run", "state", "mail"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        let (user, password) = ("kontor".to_string(), "geheim-1234".to_string());
        std::fs::write(root.join("passwd"), format!("{user}:{{PLAIN}}{password}\n")).unwrap();
        let r = root.display();
        let config = format!(
            "protocols = imap
listen = 127.0.0.1
base_dir = {r}/run
state_dir = {r}/state
log_path = {r}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {internal}
default_login_user = {login}
first_valid_uid = 0
first_valid_gid = 0
mail_location = maildir:{r}/mail/%u
namespace inbox {{
  inbox = yes
  separator = /
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {r}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_user} home={r}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"
        );
        std::fs::write(root.join("dovecot.conf"), config).unwrap();
        if me == "root" {
            let status = Command::new("chown")
                .args(["-R", mail_user, &root.join("mail").display().to_string()])
                .status()
                .unwrap();
            assert!(status.success());
            Command::new("chmod")
                .args(["755", &r.to_string()])
                .status()
                .unwrap();
        }
        let child = Command::new(DOVECOT)
            .args(["-F", "-c", &root.join("dovecot.conf").display().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("dovecot starts");
        let server = Dovecot {
            dir,
            child,
            port,
            user,
            password,
        };
        server.wait_until_listening();
        server
    }

    fn wait_until_listening(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("dovecot did not listen: {}", self.log());
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
    }

    pub fn url(&self, folder: &str) -> String {
        format!("imap://{}@127.0.0.1:{}/{folder}", self.user, self.port)
    }

    fn session(&self) -> imap::Session<std::net::TcpStream> {
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut client = imap::Client::new(stream);
        client.read_greeting().unwrap();
        client
            .login(&self.user, &self.password)
            .map_err(|(e, _)| e)
            .unwrap()
    }

    /// Puts a message into `folder`.
    pub fn deliver(&self, folder: &str, message: &[u8]) {
        let mut s = self.session();
        s.append(folder, message).finish().unwrap();
        s.logout().ok();
    }

    /// How many messages `folder` holds (0 when it does not exist).
    pub fn count(&self, folder: &str) -> usize {
        let mut s = self.session();
        let n = s.examine(folder).map(|m| m.exists as usize).unwrap_or(0);
        s.logout().ok();
        n
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        // SIGTERM lets the master stop its children; then reap it.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn whoami() -> String {
    let uid = unsafe { libc::getuid() };
    if uid == 0 {
        return "root".into();
    }
    std::env::var("USER").unwrap_or_else(|_| {
        String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_string()
    })
}

#[test]
fn the_test_server_serves_the_mailbox_session() {
    use kontor::inbox::address::MailboxAddress;
    use kontor::inbox::session::{ImapSession, DONE};
    let server = Dovecot::start();
    server.deliver(
        "INBOX",
        b"From: a@example.com\r\nSubject: one\r\n\r\nbody one\r\n",
    );
    server.deliver(
        "INBOX",
        b"From: a@example.com\r\nSubject: two\r\n\r\nbody two\r\n",
    );
    let address = MailboxAddress::parse(&server.url("INBOX")).unwrap();
    let mut session = ImapSession::open(&address, &server.password, None).unwrap();
    let uids = session.messages().unwrap();
    assert_eq!(uids.len(), 2);
    let body = session.fetch(uids[0]).unwrap().unwrap();
    assert!(String::from_utf8_lossy(&body).contains("body one"));
    session.file(uids[0], DONE).unwrap();
    session.close();
    assert_eq!((server.count("INBOX"), server.count("kontor/done")), (1, 1));
    let wrong = ImapSession::open(&address, "wrong", None).err().unwrap();
    assert!(wrong.to_string().contains("refused the login"), "{wrong}");
}
