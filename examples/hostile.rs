//! Hostile load: the server in its own process (the real `kontor demo`, with
//! its default limits) while this program, on loopback only, opens
//!
//! - 10,000 idle connections that never send a byte,
//! - 1,000 slow uploads declaring 1,000,000-byte bodies and sending 100 bytes
//!   a second (half with a valid key, half with an unknown one),
//! - 100 short-bodied requests declaring 100 bytes and sending 10,
//!
//! while a fresh client calls `GET /v1/me` once a second. It checks that
//! every such call answers 200 in under 1 s, that the server's RSS stays under
//! 300 MB, and that the server closes every hostile connection within its
//! deadlines (10 s for a request head, 30 s for a body, 2 s of lingering
//! after an early answer), and prints the figures.
//!
//!   cargo run --release --example hostile
//!
//! It stops by itself after at most 75 s and exits 1 when a check fails.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "support/process.rs"]
mod process;
use process::ServerProcess;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const IDLE: usize = 10_000;
const UPLOADS: usize = 1_000;
const SHORT: usize = 100;
/// Keys for the uploads with a valid key (each key's budget is 240 a minute).
const UPLOAD_KEYS: usize = 4;
/// The server's deadlines at their defaults, and the slack allowed on top.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
const BODY_DEADLINE: Duration = Duration::from_secs(30);
const LINGER: Duration = Duration::from_secs(2);
const SLACK: Duration = Duration::from_secs(3);
const RUN_AT_MOST: Duration = Duration::from_secs(75);
const RSS_LIMIT_MB: f64 = 300.0;

/// What became of one hostile connection.
#[derive(Clone, Debug)]
struct Fate {
    group: &'static str,
    /// The status of the answer, if one came.
    status: Option<u16>,
    /// When the server closed it, counted from its connect; `None`: still open.
    closed_after: Option<Duration>,
    /// How long the server may take to close it.
    deadline: Duration,
}

fn main() -> ExitCode {
    if let Some(code) = process::run_as_kontor() {
        return code;
    }
    process::raise_file_limit();
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("hostile.db");
    let data_arg = data.to_str().expect("a UTF-8 path");
    let server = ServerProcess::start(&["demo", "--listen", "127.0.0.1:0", "--data", data_arg]);
    let company = server
        .banner
        .iter()
        .find_map(|l| l.split('(').nth(1)?.split(',').next().map(str::to_string))
        .filter(|id| id.starts_with("org_"))
        .expect("the demo printed its company");
    let keys = (0..=UPLOAD_KEYS)
        .map(|_| {
            let key = process::console(&[
                "key",
                "create",
                "--company",
                &company,
                "--name",
                "hostile",
                "--environment",
                "production",
                "--scopes",
                "all",
                "--data",
                data_arg,
            ]);
            key["secret"].as_str().expect("secret").to_string()
        })
        .collect::<Vec<_>>();
    println!(
        "server pid {} on {}; {IDLE} idle connections, {UPLOADS} slow uploads, {SHORT} short bodies",
        server.child.id(),
        server.addr
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let started = Instant::now();
    let (fates, calls, peak_rss) = runtime.block_on(attack(&server, &keys));
    let took = started.elapsed();
    let checks = report(&fates, &calls, peak_rss, server.rss_mb().1, took);
    server.stop();
    if checks {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The whole attack; returns the hostile connections' fates, the `/me`
/// calls (status, latency) and the highest RSS seen while it ran.
async fn attack(server: &ServerProcess, keys: &[String]) -> (Vec<Fate>, Vec<(u16, Duration)>, f64) {
    let addr = server.addr;
    let fates = Arc::new(Mutex::new(Vec::new()));
    // The fresh client, once a second, and the server's RSS beside it.
    let pid = server.child.id();
    let monitor = {
        let me_key = keys[0].clone();
        tokio::spawn(async move {
            let mut calls = Vec::new();
            let mut peak = 0.0f64;
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            let until = Instant::now() + BODY_DEADLINE + LINGER + SLACK + Duration::from_secs(5);
            while Instant::now() < until {
                tick.tick().await;
                calls.push(me(addr, &me_key).await);
                peak = peak.max(process::memory_mb(pid).0);
            }
            (calls, peak)
        })
    };
    let mut tasks = Vec::new();
    // Slow uploads and short bodies first (they are the ones holding memory),
    // then the idle connections, opened 200 at a time.
    for i in 0..UPLOADS {
        let valid = i % 2 == 0;
        let key = if valid {
            keys[1 + (i / 2) % UPLOAD_KEYS].clone()
        } else {
            format!("svc_live_{:0>40}", i)
        };
        let fates = fates.clone();
        tasks.push(tokio::spawn(async move {
            let deadline = if valid {
                BODY_DEADLINE + LINGER
            } else {
                LINGER
            };
            let group = if valid {
                "slow upload, valid key"
            } else {
                "slow upload, unknown key"
            };
            let fate = slow_upload(addr, &key, i, 1_000_000, 100, group, deadline).await;
            fates.lock().unwrap().push(fate);
        }));
    }
    for i in 0..SHORT {
        let key = keys[1 + i % UPLOAD_KEYS].clone();
        let fates = fates.clone();
        tasks.push(tokio::spawn(async move {
            let fate = short_body(addr, &key, i).await;
            fates.lock().unwrap().push(fate);
        }));
    }
    let idle_gate = Arc::new(tokio::sync::Semaphore::new(200));
    for _ in 0..IDLE {
        let fates = fates.clone();
        let gate = idle_gate.clone();
        let permit = gate.acquire_owned().await.expect("gate");
        tasks.push(tokio::spawn(async move {
            let fate = idle(addr, permit).await;
            fates.lock().unwrap().push(fate);
        }));
    }
    // Every task ends by itself (closed, or its own deadline passed).
    let all = async {
        for t in tasks {
            let _ = t.await;
        }
    };
    let _ = tokio::time::timeout(RUN_AT_MOST, all).await;
    let (calls, peak) = monitor.await.expect("monitor");
    let fates = fates.lock().unwrap().clone();
    (fates, calls, peak)
}

/// An idle connection: connected, then silent until the server closes it.
async fn idle(addr: SocketAddr, permit: tokio::sync::OwnedSemaphorePermit) -> Fate {
    let deadline = HEAD_DEADLINE;
    let stream = TcpStream::connect(addr).await;
    // Counted from the handshake's end: a connection waiting in the kernel's
    // queue for its accept is the server's to time out too.
    let connected = Instant::now();
    drop(permit);
    let mut fate = Fate {
        group: "idle",
        status: None,
        closed_after: None,
        deadline,
    };
    let Ok(mut stream) = stream else {
        fate.group = "idle, connect failed";
        return fate;
    };
    let mut buf = [0u8; 512];
    let waited = tokio::time::timeout(deadline + SLACK + SLACK, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => fate.status = fate.status.or(status_of(&buf[..n])),
            }
        }
    })
    .await;
    if waited.is_ok() {
        fate.closed_after = Some(connected.elapsed());
    }
    fate
}

/// A request whose body trickles: `per_second` bytes a second of `length`
/// declared, until the server answers and closes.
async fn slow_upload(
    addr: SocketAddr,
    key: &str,
    i: usize,
    length: usize,
    per_second: usize,
    group: &'static str,
    deadline: Duration,
) -> Fate {
    let connected = Instant::now();
    let mut fate = Fate {
        group,
        status: None,
        closed_after: None,
        deadline,
    };
    let Ok(stream) = TcpStream::connect(addr).await else {
        fate.group = "upload, connect failed";
        return fate;
    };
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "POST /v1/customers HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: hostile-{i}\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n"
    );
    let trickle = async move {
        if writer.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let chunk = vec![b' '; per_second];
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            if writer.write_all(&chunk).await.is_err() {
                return;
            }
        }
    };
    let trickling = tokio::spawn(trickle);
    let mut buf = vec![0u8; 4096];
    let waited = tokio::time::timeout(deadline + SLACK + SLACK, async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => fate.status = fate.status.or(status_of(&buf[..n])),
            }
        }
    })
    .await;
    trickling.abort();
    if waited.is_ok() {
        fate.closed_after = Some(connected.elapsed());
    }
    fate
}

/// A request that declares 100 bytes of body and sends 10.
async fn short_body(addr: SocketAddr, key: &str, i: usize) -> Fate {
    let connected = Instant::now();
    let mut fate = Fate {
        group: "short body",
        status: None,
        closed_after: None,
        deadline: BODY_DEADLINE + LINGER,
    };
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        fate.group = "short body, connect failed";
        return fate;
    };
    let request = format!(
        "POST /v1/customers HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: short-{i}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"name\":\"X"
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return fate;
    }
    let mut buf = vec![0u8; 4096];
    let waited = tokio::time::timeout(fate.deadline + SLACK + SLACK, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => fate.status = fate.status.or(status_of(&buf[..n])),
            }
        }
    })
    .await;
    if waited.is_ok() {
        fate.closed_after = Some(connected.elapsed());
    }
    fate
}

/// One call of `GET /v1/me` on a fresh connection: its status (0 when it
/// failed or took over 5 s) and how long it took.
async fn me(addr: SocketAddr, key: &str) -> (u16, Duration) {
    let started = Instant::now();
    let call = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let request = format!(
            "GET /v1/me HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.ok()?;
        status_of(&answer)
    };
    let status = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .ok()
        .flatten()
        .unwrap_or(0);
    (status, started.elapsed())
}

/// The status code of an HTTP/1.1 answer's first bytes.
fn status_of(bytes: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(bytes.get(..12)?).ok()?;
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// Prints the figures; returns whether every check held.
fn report(
    fates: &[Fate],
    calls: &[(u16, Duration)],
    peak_seen: f64,
    peak_hwm: f64,
    took: Duration,
) -> bool {
    let mut ok = true;
    let mut groups: BTreeMap<&str, Vec<&Fate>> = BTreeMap::new();
    for f in fates {
        groups.entry(f.group).or_default().push(f);
    }
    println!("\nhostile connections (closed by the server: p50 / max after connecting):");
    for (group, list) in &groups {
        let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
        for f in list {
            let s = f.status.map_or("no answer".to_string(), |s| s.to_string());
            *statuses.entry(s).or_default() += 1;
        }
        let mut closed: Vec<Duration> = list.iter().filter_map(|f| f.closed_after).collect();
        closed.sort();
        let open = list.len() - closed.len();
        let late = list
            .iter()
            .filter(|f| f.closed_after.is_none_or(|c| c > f.deadline + SLACK))
            .count();
        let pick = |q: f64| {
            closed
                .get(((closed.len() as f64 - 1.0) * q).round() as usize)
                .map_or("-".to_string(), |d| format!("{:.1} s", d.as_secs_f64()))
        };
        println!(
            "  {group:<26} {:>6}  answers {statuses:?}  closed p50 {} max {}  still open {open}  past deadline {late}",
            list.len(),
            pick(0.5),
            pick(1.0),
        );
        if late > 0 || group.contains("failed") {
            ok = false;
        }
    }
    let expected = IDLE + UPLOADS + SHORT;
    if fates.len() != expected {
        println!("  only {} of {expected} connections reported", fates.len());
        ok = false;
    }
    let mut latencies: Vec<Duration> = calls.iter().map(|c| c.1).collect();
    latencies.sort();
    let failed = calls.iter().filter(|c| c.0 != 200).count();
    let slow = calls
        .iter()
        .filter(|c| c.1 >= Duration::from_secs(1))
        .count();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "\nGET /v1/me once a second, fresh connection: {} calls, p50 {:.1} ms, max {:.1} ms, not 200: {failed}, 1 s or slower: {slow}",
        calls.len(),
        ms(latencies.get(latencies.len() / 2)),
        ms(latencies.last()),
    );
    if failed > 0 || slow > 0 || calls.is_empty() {
        ok = false;
    }
    println!(
        "server RSS: highest seen {peak_seen:.1} MB, peak (VmHWM) {peak_hwm:.1} MB (limit {RSS_LIMIT_MB} MB)"
    );
    if peak_hwm >= RSS_LIMIT_MB {
        ok = false;
    }
    println!("took {:.1} s", took.as_secs_f64());
    println!(
        "{}",
        if ok {
            "all checks held"
        } else {
            "A CHECK FAILED"
        }
    );
    ok
}
