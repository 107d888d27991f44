//! Arbitrary bytes fed to the server's message handling: the connection handshake and every
//! command, over real TCP connections to servers running in this process.
//!
//! Two servers start once (one with no host upcalls, one with a test host whose upcalls all
//! answer at once), each with the job "fz" (2 ranks, both registered with this process's
//! uid/gid). Each input is one connection; its first byte picks how the connection starts
//! and which server gets it, the rest is the raw stream or a list of frames (format in
//! `server_input.rs`).
//!
//! Checks, beyond "nothing panics" (libfuzzer-sys turns a panic on any thread, the server's
//! progress thread included, into an abort that reports the input):
//! * after the input is written and the write side shut, the server must close the
//!   connection within `LIMIT` (it has read everything; a stuck handshake fails here);
//! * a valid handshake gets a success reply;
//! * a task posted to the server's progress thread runs within `LIMIT` (it is alive);
//! * every `PMIX_FUZZ_HEALTH_EVERY` inputs (default 256; 1 to check after each input when
//!   reproducing), a well-formed client fz:1 on each server gets its REQ answered with the
//!   job data and its FINALIZE acknowledged, and the process holds no more file
//!   descriptors than after start-up.
//!
//! Run with `RUSTC_BOOTSTRAP=1 cargo fuzz run server` from this directory; seeds in
//! `corpus/server` come from `cargo run --example server_seeds`.
#![no_main]

mod server_input;

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use pmix_core::codec::BufferType;
use pmix_core::host::{Credential, Done, Host, ModexData, NoHost, Upcall, Validation};
use pmix_core::server::{self, Server, ServerConfig};
use pmix_core::wire::msg::{Pack, Unpack};
use pmix_core::wire::{Hello, PeerKind, cmd, handshake::native_cred};
use pmix_core::{App, Info, PStr, Pdata, Proc, Query, Value};
use pmix_sys::*;

use server_input::{Mode, Start, parse_frames, wire_frames};

const NSPACE: &str = "fz";
/// How long the server may take to finish with a connection, or to answer.
const LIMIT: Duration = Duration::from_secs(2);
/// Slack for descriptors libFuzzer itself may hold open for a moment.
const FD_SLACK: usize = 8;

struct Fixture {
    /// [NoHost, TestHost].
    servers: [Server; 2],
    uid: u32,
    gid: u32,
    fds_at_start: usize,
    inputs: AtomicU64,
    every: u64,
}

static FIXTURE: OnceLock<Fixture> = OnceLock::new();

fn fixture() -> &'static Fixture {
    FIXTURE.get_or_init(|| {
        let (uid, gid) = pmix_core::wire::own_ids();
        let start = |host: Arc<dyn Host>, name: &str| {
            let cfg = ServerConfig {
                id: Proc::new(name, 0),
                // The kernel-owner check scans /proc/net/tcp, which holds every socket the
                // fuzzer leaves in TIME_WAIT; it is not input-driven, and slows each input.
                check_peer_uid: false,
                ..ServerConfig::default()
            };
            let s = server::start(host, cfg).expect("server starts");
            s.register_nspace(&PStr::from(NSPACE), 2, &job_info())
                .expect("register fz");
            for r in 0..2 {
                s.register_client(&Proc::new(NSPACE, r), uid, gid)
                    .expect("register client");
            }
            s
        };
        let servers = [
            start(Arc::new(NoHost), "fzsrv-nohost"),
            start(Arc::new(TestHost), "fzsrv-host"),
        ];
        for s in &servers {
            health(s, uid, gid);
        }
        let every = std::env::var("PMIX_FUZZ_HEALTH_EVERY")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n| n > 0)
            .unwrap_or(256);
        Fixture {
            servers,
            uid,
            gid,
            fds_at_start: open_fds(),
            inputs: AtomicU64::new(0),
            every,
        }
    })
}

fn job_info() -> Vec<Info> {
    let host = pmix_core::net::local_hostname();
    let nmap = pmix_core::regex::node_map_of(std::slice::from_ref(&host)).expect("node map");
    let pmap = pmix_core::regex::proc_map_of(&[vec![0, 1]]).expect("proc map");
    vec![
        Info::new(PMIX_JOB_SIZE.to_bytes(), Value::Uint32(2)),
        Info::new(PMIX_UNIV_SIZE.to_bytes(), Value::Uint32(2)),
        Info::new(PMIX_LOCAL_SIZE.to_bytes(), Value::Uint32(2)),
        Info::new(
            PMIX_NODE_MAP.to_bytes(),
            Value::String(Some(PStr::from(nmap))),
        ),
        Info::new(
            PMIX_PROC_MAP.to_bytes(),
            Value::String(Some(PStr::from(pmap))),
        ),
    ]
}

fn hello(kind: PeerKind, id: Option<Proc>, mode: BufferType, uid: u32, gid: u32) -> Vec<u8> {
    Hello {
        psec: "native".into(),
        cred: native_cred(uid, gid),
        kind,
        uid,
        gid,
        id,
        version: pmix_core::wire::VERSION.into(),
        bfrops: "v41".into(),
        buffer_type: mode,
        gds: "hash".into(),
        info: Vec::new(),
    }
    .encode()
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, Iterator::count)
}

/// Writes `bytes` on a new connection and reads until the server closes. Panics when the
/// server keeps the connection open longer than `LIMIT` after it could have read
/// everything. Like a real peer, it sends nothing after its first `hello` bytes until it
/// has `reply` bytes of answer (or the server closed): a tool's handshake waits for the
/// host. (A tool that half-closes right after its handshake is answered too; that case is
/// tested in pmix-core/tests/session.rs.)
fn session(addr: SocketAddr, bytes: &[u8], hello: usize, reply: usize) -> Vec<u8> {
    let s = TcpStream::connect(addr).expect("connect to the server");
    let _ = s.set_nodelay(true);
    s.set_nonblocking(true).expect("non-blocking");
    let mut got = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut off = 0;
    let mut eof = false;
    let mut deadline = Instant::now() + LIMIT;
    // Write while draining, so that neither side can block the other.
    while (off < bytes.len() || got.len() < reply) && !eof {
        let mut moved = false;
        let end = if got.len() >= reply {
            bytes.len()
        } else {
            hello.min(bytes.len())
        };
        match (&s).write(&bytes[off..end]) {
            Ok(n) => {
                off += n;
                moved = n > 0;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => moved = true,
            // The server closed or reset: nothing more will be read.
            Err(_) => break,
        }
        match (&s).read(&mut buf) {
            Ok(0) => eof = true,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                moved = true;
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => {}
            Err(_) => eof = true,
        }
        if moved {
            deadline = Instant::now() + LIMIT;
        } else if Instant::now() > deadline {
            panic!(
                "the server read nothing for {LIMIT:?} ({off} of {} bytes written)",
                bytes.len()
            );
        } else {
            std::thread::sleep(Duration::from_micros(20));
        }
    }
    let _ = s.shutdown(Shutdown::Write);
    let _ = s.set_nonblocking(false);
    let deadline = Instant::now() + LIMIT;
    while !eof {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            panic!(
                "the server kept the connection open {LIMIT:?} after the peer closed \
                 ({} bytes written, {} received)",
                bytes.len(),
                got.len()
            );
        }
        let _ = s.set_read_timeout(Some(left));
        match (&s).read(&mut buf) {
            Ok(0) => eof = true,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // Reset: the server closed with unread data.
            Err(_) => eof = true,
        }
    }
    got
}

/// Waits until a task posted to the server's progress thread has run.
fn barrier(s: &Server) {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    s.post(move || {
        let _ = tx.send(());
    })
    .expect("the server's progress thread is gone");
    rx.recv_timeout(LIMIT)
        .expect("the server's progress thread did not run a task within the limit");
}

/// Reads one frame (header and payload) before `deadline`.
fn read_frame(s: &mut TcpStream, deadline: Instant) -> (u32, Vec<u8>) {
    let mut read = |n: usize| {
        let mut v = vec![0u8; n];
        let mut at = 0;
        while at < n {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "health check: no answer within {LIMIT:?}");
            let _ = s.set_read_timeout(Some(left));
            match s.read(&mut v[at..]) {
                Ok(0) => panic!("health check: the server closed the connection"),
                Ok(k) => at += k,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) => panic!("health check: read failed: {e}"),
            }
        }
        v
    };
    let h = read(16);
    let tag = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
    let n = u32::from_be_bytes([h[8], h[9], h[10], h[11]]) as usize;
    assert!(n < 1 << 20, "health check: absurd reply length {n}");
    (tag, read(n))
}

/// A well-formed client fz:1: handshake, REQ (the reply must start with the nspace),
/// FINALIZE (acknowledged), close (the server must close too).
fn health(s: &Server, uid: u32, gid: u32) {
    let deadline = Instant::now() + LIMIT;
    let mode = BufferType::NonDesc;
    let mut c = TcpStream::connect(s.uri.addr).expect("health check: connect");
    let _ = c.set_nodelay(true);
    let mut out = hello(
        PeerKind::SimpleClient,
        Some(Proc::new(NSPACE, 1)),
        mode,
        uid,
        gid,
    );
    out.extend(pmix_core::wire::frame(
        0,
        101,
        &Pack::cmd(mode, cmd::REQ).into_bytes(),
    ));
    c.write_all(&out).expect("health check: write");
    let mut ack = [0u8; 8];
    let _ = c.set_read_timeout(Some(LIMIT));
    c.read_exact(&mut ack)
        .expect("health check: no handshake reply");
    assert_eq!(&ack[..4], &[0; 4], "health check: handshake refused");
    let (tag, payload) = read_frame(&mut c, deadline);
    assert_eq!(tag, 101, "health check: REQ reply with the wrong tag");
    let ns = Unpack::new(mode, &payload).string();
    assert!(
        matches!(&ns, Ok(Some(n)) if n.as_bytes() == NSPACE.as_bytes()),
        "health check: REQ reply does not start with the nspace: {ns:?}"
    );
    c.write_all(&pmix_core::wire::frame(
        0,
        102,
        &Pack::cmd(mode, cmd::FINALIZE).into_bytes(),
    ))
    .expect("health check: write");
    let (tag, payload) = read_frame(&mut c, deadline);
    assert_eq!(tag, 102, "health check: FINALIZE reply with the wrong tag");
    assert!(
        matches!(Unpack::new(mode, &payload).status(), Ok(PMIX_SUCCESS)),
        "health check: FINALIZE not acknowledged"
    );
    drop(c);
    barrier(s);
}

fuzz_target!(|data: &[u8]| {
    let fx = fixture();
    let Some((&m, rest)) = data.split_first() else {
        return;
    };
    let mode = Mode::from_byte(m);
    let srv = &fx.servers[usize::from(mode.test_host)];
    let fz0 = Proc::new(NSPACE, 0);
    let stream = match mode.start {
        Start::Raw => rest.to_vec(),
        Start::Client => hello(
            PeerKind::SimpleClient,
            Some(fz0.clone()),
            mode.buffer,
            fx.uid,
            fx.gid,
        ),
        Start::ToolGivenId => {
            let id = if mode.tool_claims_client_id {
                fz0.clone()
            } else {
                Proc::new("fztool", 0)
            };
            hello(PeerKind::ToolGivenId, Some(id), mode.buffer, fx.uid, fx.gid)
        }
        Start::ToolNeedsId => hello(PeerKind::ToolNeedsId, None, mode.buffer, fx.uid, fx.gid),
    };
    // A valid handshake is accepted; a tool's only by a host with a tool_connected upcall
    // to approve it (docs/security.md).
    let accepted = match mode.start {
        Start::Raw => None,
        Start::Client => Some(8),
        Start::ToolGivenId => mode.test_host.then_some(4 + 256 + 4 + 4),
        Start::ToolNeedsId => mode.test_host.then_some(4 + 2 * (256 + 4) + 4),
    };
    let mut stream = stream;
    let hello_len = stream.len();
    if mode.start != Start::Raw {
        stream.extend(wire_frames(mode.buffer, &parse_frames(rest)));
    }
    let got = session(srv.uri.addr, &stream, hello_len, accepted.unwrap_or(0));
    if let Some(n) = accepted {
        assert!(
            got.len() >= n && got[..4] == [0; 4],
            "a valid handshake was refused: {:?}",
            &got[..got.len().min(8)]
        );
    }
    barrier(srv);
    // The connection dropped without FINALIZE marks fz:0 dead; registering it again
    // revives it, so that every input starts from the same state.
    let _ = srv.register_client(&fz0, fx.uid, fx.gid);
    let _ = srv.register_client(&Proc::new(NSPACE, 1), fx.uid, fx.gid);
    let n = fx.inputs.fetch_add(1, Ordering::Relaxed) + 1;
    if n % fx.every == 0 {
        for s in &fx.servers {
            health(s, fx.uid, fx.gid);
        }
        let fds = open_fds();
        assert!(
            fds <= fx.fds_at_start + FD_SLACK,
            "file descriptors leak: {} open, {} after start-up",
            fds,
            fx.fds_at_start
        );
    }
});

/// A host whose upcalls all answer at once, so that the server's completion paths run.
struct TestHost;

impl Host for TestHost {
    fn provides(&self, _upcall: Upcall) -> bool {
        true
    }
    fn client_connected(&self, _proc: &Proc, _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn client_finalized(&self, _proc: &Proc, done: Done<()>) {
        done(Ok(()))
    }
    fn abort(
        &self,
        _proc: &Proc,
        _status: pmix_status_t,
        _msg: Option<&[u8]>,
        _procs: &[Proc],
        done: Done<()>,
    ) {
        done(Ok(()))
    }
    fn fence_nb(&self, _procs: &[Proc], _info: &[Info], data: Vec<u8>, done: Done<ModexData>) {
        // The collective result is the local contribution, as on a one-node job.
        done(Ok(data))
    }
    fn direct_modex(&self, _proc: &Proc, _info: &[Info], done: Done<ModexData>) {
        done(Err(pmix_core::Error::NotFound))
    }
    fn publish(&self, _proc: &Proc, _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn lookup(&self, proc: &Proc, keys: &[Vec<u8>], _info: &[Info], done: Done<Vec<Pdata>>) {
        let d = keys
            .iter()
            .take(4)
            .map(|k| Pdata {
                proc: proc.clone(),
                key: PStr::from(k.as_slice()),
                value: Value::Uint32(1),
            })
            .collect();
        done(Ok(d))
    }
    fn unpublish(&self, _proc: &Proc, _keys: &[Vec<u8>], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn spawn(&self, _proc: &Proc, _job_info: &[Info], apps: &[App], done: Done<Vec<u8>>) {
        if apps.is_empty() {
            done(Err(pmix_core::Error::BadParam))
        } else {
            done(Ok(NSPACE.as_bytes().to_vec()))
        }
    }
    fn connect(&self, _procs: &[Proc], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn disconnect(&self, _procs: &[Proc], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn register_events(&self, _codes: &[pmix_status_t], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn deregister_events(&self, _codes: &[pmix_status_t], done: Done<()>) {
        done(Ok(()))
    }
    fn notify_event(
        &self,
        _code: pmix_status_t,
        _source: &Proc,
        _range: pmix_data_range_t,
        _info: &[Info],
        done: Done<()>,
    ) {
        done(Ok(()))
    }
    fn query(&self, _proc: &Proc, queries: &[Query], done: Done<Vec<Info>>) {
        let n = queries.iter().map(|q| q.keys.len()).sum::<usize>();
        done(Ok(vec![Info::new(
            PMIX_QUERY_NUM_PSETS.to_bytes(),
            Value::Size(n as u64),
        )]))
    }
    fn tool_connected(&self, info: &[Info], done: Done<Proc>) {
        let ns = info
            .iter()
            .find(|i| i.key.as_bytes() == PMIX_NSPACE.to_bytes())
            .and_then(|i| i.value.as_str().cloned());
        let rank = info
            .iter()
            .find(|i| i.key.as_bytes() == PMIX_RANK.to_bytes())
            .and_then(|i| i.value.as_u64());
        done(Ok(Proc::new(
            ns.unwrap_or_else(|| PStr::from("fztool")),
            rank.map_or(0, |r| r as u32),
        )))
    }
    fn log(&self, _proc: &Proc, _data: &[Info], _directives: &[Info], done: Done<()>) {
        done(Ok(()))
    }
    fn allocate(
        &self,
        _proc: &Proc,
        _directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Ok(info.to_vec()))
    }
    fn job_control(
        &self,
        _proc: &Proc,
        _targets: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Ok(directives.to_vec()))
    }
    fn monitor(
        &self,
        _proc: &Proc,
        monitor: &Info,
        _error: pmix_status_t,
        _directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Ok(vec![monitor.clone()]))
    }
    fn get_credential(&self, _proc: &Proc, directives: &[Info], done: Done<Credential>) {
        done(Ok(Credential {
            cred: b"fuzz-cred".to_vec(),
            info: directives.to_vec(),
        }))
    }
    fn validate_credential(
        &self,
        _proc: &Proc,
        cred: &[u8],
        directives: &[Info],
        done: Done<Validation>,
    ) {
        if cred == b"fuzz-cred" {
            done(Ok(Validation {
                info: directives.to_vec(),
            }))
        } else {
            done(Err(pmix_core::Error::NotFound))
        }
    }
    fn iof_pull(
        &self,
        _procs: &[Proc],
        _directives: &[Info],
        _channels: pmix_iof_channel_t,
        done: Done<()>,
    ) {
        done(Ok(()))
    }
    fn push_stdin(
        &self,
        _source: &Proc,
        _targets: &[Proc],
        _directives: &[Info],
        _data: Option<&[u8]>,
        done: Done<()>,
    ) {
        done(Ok(()))
    }
    fn group(
        &self,
        _op: pmix_group_operation_t,
        _grp: &[u8],
        _procs: &[Proc],
        _directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Ok(vec![Info::new(
            PMIX_GROUP_CONTEXT_ID.to_bytes(),
            Value::Size(7),
        )]))
    }
    fn fabric(
        &self,
        _requestor: &Proc,
        _op: pmix_fabric_operation_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Ok(directives.to_vec()))
    }
}
