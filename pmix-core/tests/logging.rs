//! Logging in the server (`server/log.rs`): clients' `PMIx_Log` of standard error with a
//! help file and topic, written once by a gateway server with its repeats folded into a
//! report; texts not to fold written each once, even when the host hands every log back to
//! the server as PRRTE's does; what the host is given; a server that is no gateway.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use pmix_core::Result;
use pmix_core::client::Client;
use pmix_core::host::{Done, Host, Upcall};
use pmix_core::server::{self, ServerConfig, Shared};
use pmix_core::{Info, PStr, Proc, Value};
use pmix_sys::*;

fn key(k: &core::ffi::CStr) -> PStr {
    PStr::from(k.to_bytes())
}

fn text(k: &core::ffi::CStr, s: &str) -> Info {
    Info::new(key(k), Value::String(Some(PStr::from(s))))
}

/// A log the host was given: source, data, directives.
type Logged = (Proc, Vec<Info>, Vec<Info>);

/// A host with a `log` upcall that records what it is given and, when `relay` is set, hands
/// every log back to the server's `PMIx_Log_nb` as PRRTE's master does (with `PMIX_LOG_ONCE`
/// added), unless it carries "noloop" (PRRTE's own directive).
struct LogHost {
    relay: bool,
    server: OnceLock<Weak<Shared>>,
    got: Mutex<Vec<Logged>>,
}

impl Host for LogHost {
    fn provides(&self, upcall: Upcall) -> bool {
        upcall == Upcall::Log
    }

    fn log(&self, proc: &Proc, data: &[Info], directives: &[Info], done: Done<()>) {
        self.got
            .lock()
            .unwrap()
            .push((proc.clone(), data.to_vec(), directives.to_vec()));
        done(Ok(()));
        if !self.relay || directives.iter().any(|d| d.key == "noloop") {
            return;
        }
        let Some(s) = self.server.get().and_then(Weak::upgrade) else {
            return;
        };
        let mut dirs = directives.to_vec();
        dirs.push(Info::new(key(PMIX_LOG_ONCE), Value::Bool(true)));
        dirs.push(Info::new(PStr::from("noloop"), Value::Bool(true)));
        let data = data.to_vec();
        // as PRRTE does, from another thread
        std::thread::spawn(move || {
            let _ = s.log(data, dirs, Box::new(|_| {}));
        });
    }
}

type Written = Arc<Mutex<Vec<(Proc, pmix_iof_channel_t, String)>>>;

/// A server (gateway or not) with job "ns" of `n` ranks, each connected, and what its log
/// output hook receives.
fn setup(
    n: u32,
    gateway: bool,
    relay: bool,
) -> (server::Server, Arc<LogHost>, Vec<Client>, Written) {
    let host = Arc::new(LogHost {
        relay,
        server: OnceLock::new(),
        got: Mutex::new(Vec::new()),
    });
    let cfg = ServerConfig {
        id: Proc::new("log-server", 0),
        gateway,
        ..ServerConfig::default()
    };
    let s = server::start(host.clone(), cfg).expect("server");
    let _ = host.server.set(Arc::downgrade(&s));
    let written: Written = Arc::default();
    let w = written.clone();
    s.set_log_output(Box::new(move |_, source, channel, t| {
        w.lock().unwrap().push((
            source.clone(),
            channel,
            String::from_utf8_lossy(t).into_owned(),
        ));
    }));
    let info = vec![
        Info::new(key(PMIX_JOB_SIZE), Value::Uint32(n)),
        Info::new(key(PMIX_LOCAL_SIZE), Value::Uint32(n)),
    ];
    s.register_nspace(&PStr::from("ns"), n, &info)
        .expect("register");
    let (uid, gid) = pmix_core::wire::own_ids();
    let clients = (0..n)
        .map(|r| {
            let p = Proc::new("ns", r);
            s.register_client(&p, uid, gid).expect("client");
            let vars = s.setup_fork(&p);
            let env = pmix_core::client::ClientEnv::from_env(|k| {
                vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
            })
            .expect("env")
            .expect("not a singleton");
            Client::connect(Some(env)).expect("connect")
        })
        .collect();
    (s, host, clients, written)
}

fn log(c: &Client, data: Vec<Info>, dirs: Vec<Info>) -> Result<()> {
    let (tx, rx) = mpsc::channel();
    c.log_nb(
        &data,
        &dirs,
        Box::new(move |r| {
            let _ = tx.send(r);
        }),
    )?;
    rx.recv_timeout(Duration::from_secs(10))
        .expect("log answered")
}

fn help(c: &Client, topic: &str, t: &str, fold: bool) -> Result<()> {
    let mut dirs = vec![
        text(PMIX_LOG_KEY, "help-test.txt"),
        text(PMIX_LOG_VAL, topic),
    ];
    if !fold {
        dirs.push(Info::new(key(PMIX_LOG_AGG), Value::Bool(false)));
    }
    log(c, vec![text(PMIX_LOG_STDERR, t)], dirs)
}

/// Waits until the relays the host started are done (they are logged on the server's
/// progress thread; a last log through it comes after them).
fn settle(written: &Written, want: usize) {
    for _ in 0..200 {
        if written.lock().unwrap().len() >= want {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
}

#[test]
fn a_gateway_writes_each_text_once_and_folds_repeats_of_a_help_message() {
    let (s, host, clients, written) = setup(3, true, true);
    for (r, c) in clients.iter().enumerate() {
        help(c, "topic-a", &format!("help from {r}\n"), true).expect("folded log");
        help(c, "topic-b", &format!("unfolded from {r}\n"), false).expect("unfolded log");
    }
    settle(&written, 4);
    let texts: Vec<String> = written
        .lock()
        .unwrap()
        .iter()
        .map(|w| w.2.clone())
        .collect();
    assert_eq!(
        texts,
        [
            "help from 0\n",
            "unfolded from 0\n",
            "unfolded from 1\n",
            "unfolded from 2\n"
        ],
        "each text once, the repeats of topic-a not at all"
    );
    for (source, channel, t) in written.lock().unwrap().iter() {
        assert_eq!(*channel, PMIX_FWD_STDERR_CHANNEL);
        let rank: u32 = t.trim_end().rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(
            *source,
            Proc::new("ns", rank),
            "written as its client's output"
        );
    }
    // The host was given the logs that were not repeats, each with its source.
    let got = host.got.lock().unwrap().clone();
    let from_clients: Vec<_> = got.iter().filter(|g| g.0.nspace == "ns").collect();
    assert_eq!(from_clients.len(), 4, "{got:?}");
    for (p, _, dirs) in &from_clients {
        let src = dirs.iter().find(|d| d.key == key(PMIX_LOG_SOURCE));
        assert_eq!(src.map(|d| &d.value), Some(&Value::Proc(p.clone())));
        assert!(dirs.iter().any(|d| d.key == key(PMIX_LOG_TIMESTAMP)));
    }
    for c in &clients {
        c.finalize().unwrap();
    }
    // The repeats not reported yet are reported at finalize.
    s.finalize();
    let last = written.lock().unwrap().last().cloned().unwrap();
    assert_eq!(last.0, Proc::new("log-server", 0));
    assert_eq!(
        last.2,
        "2 more processes have sent help message help-test.txt / topic-a\n"
    );
}

#[test]
fn repeats_are_reported_within_five_seconds() {
    let (s, _host, clients, written) = setup(2, true, false);
    help(&clients[0], "topic-*", "first\n", true).unwrap();
    // a `*` matches any rest of the name, as OpenPMIx's
    help(&clients[1], "topic-x", "second\n", true).unwrap();
    let mut report = None;
    for _ in 0..70 {
        std::thread::sleep(Duration::from_millis(100));
        report = written.lock().unwrap().get(1).cloned();
        if report.is_some() {
            break;
        }
    }
    assert_eq!(
        report.map(|r| r.2).as_deref(),
        Some("1 more process has sent help message help-test.txt / topic-*\n")
    );
    for c in &clients {
        c.finalize().unwrap();
    }
    s.finalize();
    assert_eq!(
        written.lock().unwrap().len(),
        2,
        "nothing left to report at finalize"
    );
}

#[test]
fn a_server_that_is_no_gateway_gives_logs_to_its_host_or_refuses_them() {
    let (s, host, clients, written) = setup(2, false, false);
    help(&clients[0], "topic-a", "one\n", true).unwrap();
    help(&clients[1], "topic-a", "two\n", true).unwrap();
    assert!(
        written.lock().unwrap().is_empty(),
        "not written by the server"
    );
    let got = host.got.lock().unwrap().clone();
    assert_eq!(got.len(), 1, "the repeat is folded here too: {got:?}");
    assert_eq!(got[0].1, vec![text(PMIX_LOG_STDERR, "one\n")]);
    for c in &clients {
        c.finalize().unwrap();
    }
    s.finalize();
    // No host log upcall and no gateway: nothing can take a log.
    let (s, _host, clients, _written) = setup(1, false, false);
    let no_log = server::start(
        Arc::new(pmix_core::host::NoHost),
        ServerConfig {
            id: Proc::new("plain", 0),
            ..ServerConfig::default()
        },
    )
    .unwrap();
    let (tx, rx) = mpsc::channel();
    no_log
        .log(
            vec![text(PMIX_LOG_STDERR, "x\n")],
            Vec::new(),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )
        .unwrap();
    let r = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(r.map_err(|e| e.status()), Err(PMIX_ERR_NOT_SUPPORTED));
    // and an empty log is bad input
    assert!(
        no_log
            .log(Vec::new(), Vec::new(), Box::new(|_| {}))
            .is_err()
    );
    no_log.finalize();
    for c in &clients {
        c.finalize().unwrap();
    }
    s.finalize();
}
