//! A webhook receiver for tests: HTTP/1.1 on 127.0.0.1, port 0, recording
//! every request and answering from a script per path (status, headers, a
//! delay before answering), or holding a path's answers until the test
//! releases them (a receiver that hangs as long as a test needs it to).

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One request as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
            .unwrap_or("")
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// How to answer one request.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub delay: Duration,
}

impl Answer {
    pub fn status(status: u16) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    pub fn redirect(location: &str) -> Answer {
        Answer {
            status: 307,
            headers: vec![("Location".into(), location.into())],
            delay: Duration::ZERO,
        }
    }

    pub fn slow(delay: Duration) -> Answer {
        Answer {
            status: 200,
            headers: Vec::new(),
            delay,
        }
    }
}

#[derive(Default)]
struct State {
    received: Vec<Received>,
    scripts: HashMap<String, VecDeque<Answer>>,
    always: HashMap<String, Answer>,
    /// Paths whose answers wait until released.
    held: std::collections::HashSet<String>,
}

/// The longest a held answer waits before it is given anyway.
const MAX_HOLD: Duration = Duration::from_secs(60);

/// The receiver; it stops with the test process.
#[derive(Clone)]
pub struct Receiver {
    pub addr: SocketAddr,
    state: Arc<(Mutex<State>, Condvar)>,
}

impl Receiver {
    pub fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = shared.clone();
                std::thread::spawn(move || serve(stream, shared));
            }
        });
        Receiver { addr, state }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Answers the next requests to `path` in this order, then 200.
    pub fn script(&self, path: &str, answers: Vec<Answer>) {
        self.state
            .0
            .lock()
            .unwrap()
            .scripts
            .insert(path.into(), answers.into());
    }

    /// Answers every request to `path` this way.
    pub fn always(&self, path: &str, answer: Answer) {
        self.state
            .0
            .lock()
            .unwrap()
            .always
            .insert(path.into(), answer);
    }

    /// Holds every answer to `path` (received and recorded, not answered)
    /// until `release`, a minute at most.
    pub fn hold(&self, path: &str) {
        self.state.0.lock().unwrap().held.insert(path.into());
    }

    /// Answers what waits on `path` and what comes later at once.
    pub fn release(&self, path: &str) {
        let (lock, cv) = &*self.state;
        lock.lock().unwrap().held.remove(path);
        cv.notify_all();
    }

    pub fn received(&self, path: &str) -> Vec<Received> {
        self.state
            .0
            .lock()
            .unwrap()
            .received
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    /// Waits (at most `limit`) until `path` has received `count` requests.
    pub fn wait_for(&self, path: &str, count: usize, limit: Duration) -> Vec<Received> {
        let deadline = Instant::now() + limit;
        let (lock, cv) = &*self.state;
        let mut st = lock.lock().unwrap();
        loop {
            let got: Vec<Received> = st
                .received
                .iter()
                .filter(|r| r.path == path)
                .cloned()
                .collect();
            if got.len() >= count || Instant::now() >= deadline {
                return got;
            }
            st = cv.wait_timeout(st, deadline - Instant::now()).unwrap().0;
        }
    }
}

fn serve(stream: TcpStream, state: Arc<(Mutex<State>, Condvar)>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        let mut headers = HashMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((n, v)) = h.split_once(':') {
                headers.insert(n.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        let length: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let answer = {
            let (lock, cv) = &*state;
            let mut st = lock.lock().unwrap();
            st.received.push(Received {
                path: path.clone(),
                headers,
                body,
                at: Instant::now(),
            });
            cv.notify_all();
            let scripted = st.scripts.get_mut(&path).and_then(VecDeque::pop_front);
            let answer = scripted
                .or_else(|| st.always.get(&path).cloned())
                .unwrap_or(Answer::status(200));
            let until = Instant::now() + MAX_HOLD;
            while st.held.contains(&path) && Instant::now() < until {
                st = cv.wait_timeout(st, until - Instant::now()).unwrap().0;
            }
            answer
        };
        std::thread::sleep(answer.delay);
        let mut out = format!("HTTP/1.1 {} X\r\nContent-Length: 2\r\n", answer.status);
        for (n, v) in &answer.headers {
            out.push_str(&format!("{n}: {v}\r\n"));
        }
        out.push_str("\r\nok");
        if writer.write_all(out.as_bytes()).is_err() {
            return;
        }
    }
}
