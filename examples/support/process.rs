//! The server as its own process, for the load programs: the program runs
//! itself as `kontor …` (this binary with the console's arguments), so the
//! server's memory and file limits are its own.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// When this process was started as `… kontor <args>`, runs the console
/// with those arguments and returns its exit code.
pub fn run_as_kontor() -> Option<ExitCode> {
    use clap::Parser;
    let args: Vec<String> = std::env::args().collect();
    (args.get(1).map(String::as_str) == Some("kontor"))
        .then(|| kontor::console::run(kontor::console::Cli::parse_from(&args[1..])))
}

/// Runs the console (`kontor <args>`) to its end; returns its stdout as JSON.
pub fn console(args: &[&str]) -> serde_json::Value {
    let out = Command::new(std::env::current_exe().expect("own path"))
        .arg("kontor")
        .args(args)
        .output()
        .expect("console");
    assert!(
        out.status.success(),
        "kontor {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("console JSON")
}

/// A server process.
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
    /// Everything it printed on stdout before it served.
    pub banner: Vec<String>,
}

impl ServerProcess {
    /// Starts `kontor <args>` and waits (at most 60 s) for the address it
    /// serves on. Its output is read to the end (and dropped), so it never
    /// waits on a full pipe.
    pub fn start(args: &[&str]) -> ServerProcess {
        let mut child = Command::new(std::env::current_exe().expect("own path"))
            .arg("kontor")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server");
        let (lines, seen) = mpsc::channel::<String>();
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        for stream in [Box::new(stdout) as Box<dyn Read + Send>, Box::new(stderr)] {
            let lines = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = lines.send(line);
                }
            });
        }
        let until = Instant::now() + Duration::from_secs(60);
        let mut banner = Vec::new();
        let addr = loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = seen
                .recv_timeout(left)
                .expect("the server printed its address");
            let found = line
                .split("http://")
                .nth(1)
                .and_then(|rest| rest.split("/v1").next())
                .and_then(|a| a.parse::<SocketAddr>().ok());
            banner.push(line);
            if let Some(addr) = found {
                break addr;
            }
        };
        // Later lines are dropped as they come.
        std::thread::spawn(move || for _ in seen {});
        ServerProcess {
            child,
            addr,
            banner,
        }
    }

    /// The server's resident memory now (VmRSS) and at its peak (VmHWM), in MB.
    pub fn rss_mb(&self) -> (f64, f64) {
        memory_mb(self.child.id())
    }

    /// Stops the server as an operator would (SIGTERM), killing it after 40 s.
    pub fn stop(mut self) {
        // SAFETY: kill only sends a signal to the child this program started.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let until = Instant::now() + Duration::from_secs(40);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The resident memory of process `pid` now (VmRSS) and at its peak
/// (VmHWM), in MB (1,000,000 bytes).
pub fn memory_mb(pid: u32) -> (f64, f64) {
    let mut status = String::new();
    let _ = std::fs::File::open(format!("/proc/{pid}/status"))
        .and_then(|mut f| f.read_to_string(&mut status));
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb * 1024.0 / 1_000_000.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Raises this process's open-files limit to its hard limit.
pub fn raise_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
