//! Our client and our server in one process, through the core API only: job data, put/commit/
//! fence/get, forwarded output (pull, deliver, deregister), timeouts, and a client whose
//! connection dies in a fence.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pmix_core::client::{Client, ClientEnv};
use pmix_core::host::NoHost;
use pmix_core::server::{self, ServerConfig};
use pmix_core::{Info, PStr, Proc, Value};
use pmix_sys::*;

fn key(k: &core::ffi::CStr) -> PStr {
    PStr::from(k.to_bytes())
}

/// A server that is finalized when the test drops it (its job-data segments go with it).
struct TestServer(server::Server);

impl std::ops::Deref for TestServer {
    type Target = server::Server;
    fn deref(&self) -> &server::Server {
        &self.0
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.0.finalize();
    }
}

/// The configuration of the tests' servers: the default, with server id "test-server".0.
fn test_config() -> ServerConfig {
    ServerConfig {
        id: Proc::new("test-server", 0),
        ..ServerConfig::default()
    }
}

/// A server with job "ns" of `n` local ranks, and the environment of each rank.
fn job(n: u32) -> (TestServer, Vec<ClientEnv>) {
    job_with(n, test_config())
}

/// [`job`] on a server configured as `cfg`.
fn job_with(n: u32, cfg: ServerConfig) -> (TestServer, Vec<ClientEnv>) {
    let s = job_unregistered(n, cfg);
    let envs = (0..n).map(|r| register_rank(&s, r)).collect();
    (s, envs)
}

/// A server configured as `cfg` with job "ns" of `n` local ranks registered, but none of its
/// ranks yet: [`register_rank`] registers one (as a host that registers and forks its
/// clients one by one does).
fn job_unregistered(n: u32, cfg: ServerConfig) -> TestServer {
    let s = TestServer(server::start(Arc::new(NoHost), cfg).expect("server"));
    let ns = PStr::from("ns");
    let info = vec![
        Info::new(key(PMIX_JOB_SIZE), Value::Uint32(n)),
        Info::new(key(PMIX_LOCAL_SIZE), Value::Uint32(n)),
        Info::new(
            key(PMIX_LOCAL_PEERS),
            Value::String(Some(
                (0..n)
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
                    .into(),
            )),
        ),
    ];
    s.register_nspace(&ns, n, &info).expect("register");
    s
}

/// Registers rank `r` of job "ns" as a client of `s` and gives the environment it connects with.
fn register_rank(s: &TestServer, r: u32) -> ClientEnv {
    let (uid, gid) = pmix_core::wire::own_ids();
    let p = Proc::new("ns", r);
    s.register_client(&p, uid, gid).expect("client");
    let vars = s.setup_fork(&p);
    ClientEnv::from_env(|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
        .expect("env")
        .expect("not a singleton")
}

/// `PMIX_JOB_SIZE` of job "ns", as `c` gets it.
fn wildcard_job_size(c: &Client) -> Option<u64> {
    c.get(
        &Proc::new("ns", PMIX_RANK_WILDCARD),
        PMIX_JOB_SIZE.to_bytes(),
        &[],
    )
    .expect("job size")
    .as_u64()
}

#[test]
fn fence_and_get_between_two_clients() {
    let (_s, envs) = job(2);
    let clients: Vec<Arc<Client>> = envs
        .into_iter()
        .map(|e| Arc::new(Client::connect(Some(e)).expect("connect")))
        .collect();
    let size = clients[0]
        .get(
            &Proc::new("ns", PMIX_RANK_WILDCARD),
            PMIX_JOB_SIZE.to_bytes(),
            &[],
        )
        .expect("job size");
    assert_eq!(size.as_u64(), Some(2));
    let want = vec![Value::Uint32(100), Value::Uint32(101)];
    assert_eq!(exchange(&clients), [want.clone(), want]);
    for c in &clients {
        c.finalize().unwrap();
    }
}

/// Each client (one thread each) puts "k" = 100 + its rank, commits, and joins one
/// collecting fence; then every client gets "k" of every rank. Returns, per client, the
/// values by rank.
fn exchange(clients: &[Arc<Client>]) -> Vec<Vec<Value>> {
    let n = clients.len() as u32;
    let collect = [Info::new(key(PMIX_COLLECT_DATA), Value::Bool(true))];
    let threads: Vec<_> = clients
        .iter()
        .cloned()
        .map(|c| {
            let collect = collect.clone();
            std::thread::spawn(move || {
                let r = c.me.rank;
                c.put(PMIX_GLOBAL, "k".into(), Value::Uint32(100 + r))
                    .unwrap();
                c.commit().unwrap();
                c.fence(&[], &collect).unwrap();
                (0..n)
                    .map(|p| c.get(&Proc::new("ns", p), b"k", &[]).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// "hash" clients (as reference clients are under our server: they cannot read its
/// segments) get their peers' data with their first Get after a collecting fence: 8 clients
/// that each Get every peer's key ask the server once each, not 7 times (the reference's
/// clients read its shared store; before, our server answered each Get alone). A key a
/// peer commits after that is still fetched from the server, and only once.
#[test]
fn hash_clients_get_their_peers_data_with_the_first_answer() {
    let (s, envs) = job(8);
    let clients: Vec<Arc<Client>> = envs
        .into_iter()
        .map(|mut e| {
            e.gds_shm = false;
            Arc::new(Client::connect(Some(e)).expect("connect"))
        })
        .collect();
    let n = s.get_requests();
    let want: Vec<Value> = (0..8).map(|r| Value::Uint32(100 + r)).collect();
    assert_eq!(exchange(&clients), vec![want; 8]);
    assert_eq!(s.get_requests() - n, 8, "one GETNB per client");
    // A key committed after the fence is not in the clients' hands: one request brings it,
    // and the rest of that peer's data is not sent again.
    clients[3]
        .put(PMIX_GLOBAL, "late".into(), Value::Uint32(7))
        .unwrap();
    clients[3].commit().unwrap();
    fence_all(&clients);
    let n = s.get_requests();
    let p3 = Proc::new("ns", 3);
    assert_eq!(clients[0].get(&p3, b"late", &[]), Ok(Value::Uint32(7)));
    assert_eq!(clients[0].get(&p3, b"late", &[]), Ok(Value::Uint32(7)));
    assert_eq!(clients[0].get(&p3, b"k", &[]), Ok(Value::Uint32(103)));
    assert_eq!(s.get_requests() - n, 1);
    for c in &clients {
        c.finalize().unwrap();
    }
}

/// A persistent launcher deregisters each job when its processes are reaped, usually before
/// its server sees their connections close: nothing of the job may stay behind (the server
/// kept one "ended" record per process, for namespaces nobody would deregister again: the
/// growth of a 10,000-job soak of pmixrun, bench/soak.sh), nor any timer.
#[test]
fn jobs_deregistered_before_their_connections_close_leave_nothing() {
    let s = TestServer(
        server::start(
            Arc::new(NoHost),
            ServerConfig {
                id: Proc::new("soak-server", 0),
                ..ServerConfig::default()
            },
        )
        .expect("server"),
    );
    let (uid, gid) = pmix_core::wire::own_ids();
    for j in 0..100 {
        let ns = PStr::from(format!("job{j}").as_str());
        let info = vec![Info::new(key(PMIX_JOB_SIZE), Value::Uint32(1))];
        s.register_nspace(&ns, 1, &info).expect("register");
        let p = Proc::new(ns.clone(), 0);
        s.register_client(&p, uid, gid).expect("client");
        let vars = s.setup_fork(&p);
        let env =
            ClientEnv::from_env(|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
                .expect("env")
                .expect("not a singleton");
        let c = Client::connect(Some(env)).expect("connect");
        c.finalize().unwrap();
        // Deregistered at once, and the client gone: the close may be seen before or after.
        s.deregister_nspace(&ns);
        drop(c);
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while s.remembered_procs() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(s.remembered_procs(), 0);
    // No handshake timer outlives its handshake (each ran its 10 s, and a burst of
    // connections kept thousands of them, and their memory, alive in a persistent pmixrun).
    assert_eq!(s.pending_timers(), (0, 0));
}

/// Our clients reach our server through the Unix socket it names in `setup_fork`; one that
/// cannot (a name nobody listens on, or none named) uses TCP, and clients of both kinds
/// exchange data in one fence. A server configured without the socket names none.
#[test]
fn clients_take_the_unix_socket_when_offered_and_tcp_otherwise() {
    let (_s, mut envs) = job(3);
    assert!(
        envs.iter().all(|e| e.uri.unix.is_some()),
        "setup_fork names the socket"
    );
    envs[1].uri.unix = Some(pmix_core::net::fresh_unix_name());
    envs[2].uri.unix = None;
    let clients: Vec<Arc<Client>> = envs
        .into_iter()
        .map(|e| Arc::new(Client::connect(Some(e)).expect("connect")))
        .collect();
    let via: Vec<bool> = clients.iter().map(|c| c.via_unix_socket()).collect();
    assert_eq!(via, [true, false, false]);
    let want: Vec<Value> = (0..3).map(|r| Value::Uint32(100 + r)).collect();
    for got in exchange(&clients) {
        assert_eq!(got, want);
    }
    for c in &clients {
        c.finalize().unwrap();
    }
    let (_s, envs) = job_with(
        1,
        ServerConfig {
            id: Proc::new("test-server-tcp", 0),
            unix_socket: false,
            ..ServerConfig::default()
        },
    );
    assert_eq!(envs[0].uri.unix, None);
    let c = Client::connect(envs.into_iter().next()).expect("connect");
    assert!(!c.via_unix_socket());
    c.finalize().unwrap();
}

/// Direct modex over several rounds: the server sends a connection only what a peer
/// committed since its last reply, and the client ends up with the same values as when
/// every reply carried everything: a key updated in a later commit is seen updated, keys
/// not asked for arrive with the one asked for, and a refresh of a key already sent gets it.
#[test]
fn direct_modex_rounds_see_every_update() {
    let (_s, envs) = job(2);
    let clients: Vec<Arc<Client>> = envs
        .into_iter()
        .map(|e| Arc::new(Client::connect(Some(e)).expect("connect")))
        .collect();
    let threads: Vec<_> = clients
        .iter()
        .cloned()
        .map(|c| {
            std::thread::spawn(move || {
                let r = c.me.rank;
                let peer = Proc::new("ns", 1 - r);
                let v = |x: u32| Value::Uint32(1000 * (r + 1) + x);
                let pv = |x: u32| Value::Uint32(1000 * (2 - r) + x);
                let mut seen = Vec::new();
                for round in 1..=3u32 {
                    c.put(PMIX_GLOBAL, "a".into(), v(round)).unwrap();
                    c.put(PMIX_LOCAL, format!("k{round}").as_str().into(), v(round))
                        .unwrap();
                    c.commit().unwrap();
                    c.fence(&[], &[]).unwrap();
                    // The fresh key: one GETNB; then "a", updated by the same commit.
                    seen.push(c.get(&peer, format!("k{round}").as_bytes(), &[]).unwrap());
                    seen.push(c.get(&peer, b"a", &[]).unwrap());
                    c.fence(&[], &[]).unwrap();
                }
                // Keys of earlier rounds are still there; a refresh asks the server again.
                seen.push(c.get(&peer, b"k1", &[]).unwrap());
                let refresh = [Info::new(key(PMIX_GET_REFRESH_CACHE), Value::Bool(true))];
                seen.push(c.get(&peer, b"k2", &refresh).unwrap());
                seen.push(c.get(&peer, b"a", &refresh).unwrap());
                let want = vec![
                    pv(1),
                    pv(1),
                    pv(2),
                    pv(2),
                    pv(3),
                    pv(3),
                    pv(1),
                    pv(2),
                    pv(3),
                ];
                (seen, want)
            })
        })
        .collect();
    for t in threads {
        let (seen, want) = t.join().unwrap();
        assert_eq!(seen, want);
    }
    for c in &clients {
        c.finalize().unwrap();
    }
}

#[test]
fn pulled_output_arrives_in_order_until_deregistered() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    type Seen = Arc<Mutex<Vec<(u32, u16, Vec<u8>)>>>;
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    let id = c
        .iof_pull(
            &[Proc::new("ns", PMIX_RANK_WILDCARD)],
            &[],
            PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL,
            Some(Arc::new(move |_, src, ch, data, _| {
                sink.lock().unwrap().push((src.rank, ch, data.to_vec()))
            })),
        )
        .expect("pull");
    for i in 0..100u32 {
        let ch = if i % 2 == 0 {
            PMIX_FWD_STDOUT_CHANNEL
        } else {
            PMIX_FWD_STDERR_CHANNEL
        };
        s.iof_deliver(
            &Proc::new("ns", i % 3),
            ch,
            format!("line {i}\n").as_bytes(),
            &[],
        )
        .unwrap();
    }
    // Output of another job, or on a channel not pulled, is not delivered.
    s.iof_deliver(&Proc::new("other", 0), PMIX_FWD_STDOUT_CHANNEL, b"x", &[])
        .unwrap();
    s.iof_deliver(&Proc::new("ns", 0), PMIX_FWD_STDDIAG_CHANNEL, b"y", &[])
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while seen.lock().unwrap().len() < 100 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    {
        let got = seen.lock().unwrap();
        assert_eq!(got.len(), 100);
        for (i, (rank, ch, data)) in got.iter().enumerate() {
            assert_eq!(*rank, i as u32 % 3);
            assert_eq!(data, format!("line {i}\n").as_bytes());
            let want = if i % 2 == 0 {
                PMIX_FWD_STDOUT_CHANNEL
            } else {
                PMIX_FWD_STDERR_CHANNEL
            };
            assert_eq!(*ch, want);
        }
    }
    c.iof_deregister(id, &[]).expect("deregister");
    assert!(c.iof_deregister(id, &[]).is_err());
    s.iof_deliver(&Proc::new("ns", 0), PMIX_FWD_STDOUT_CHANNEL, b"late", &[])
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(seen.lock().unwrap().len(), 100);
    c.finalize().unwrap();
}

#[test]
fn get_and_fence_honour_timeouts_and_a_dead_peer_fails_the_fence() {
    let (_s, envs) = job(3);
    let a = Client::connect(Some(envs[0].clone())).expect("connect");
    let b = Client::connect(Some(envs[1].clone())).expect("connect");
    // Rank 2 never connects. A get of its data and a fence with it time out.
    let t1 = [Info::new(key(PMIX_TIMEOUT), Value::Int(1))];
    let t0 = Instant::now();
    let e = a.get(&Proc::new("ns", 2), b"nothing", &t1).unwrap_err();
    assert_eq!(e.status(), PMIX_ERR_TIMEOUT);
    assert!(t0.elapsed() < Duration::from_secs(4));
    let t0 = Instant::now();
    let e = a.fence(&[], &t1).unwrap_err();
    assert_eq!(e.status(), PMIX_ERR_TIMEOUT);
    assert!(t0.elapsed() < Duration::from_secs(4));
    // Rank 1 waits in a fence over ranks 0 and 1; rank 0's connection dies.
    let pair = [Proc::new("ns", 0), Proc::new("ns", 1)];
    let waiter = std::thread::spawn(move || {
        let t0 = Instant::now();
        let r = b.fence(&pair, &[]);
        (r, t0.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    drop(a);
    let (r, took) = waiter.join().unwrap();
    // The reference's answer in this case (measured by ctests/faults).
    assert_eq!(r.unwrap_err().status(), PMIX_ERR_PARTIAL_SUCCESS);
    assert!(took < Duration::from_secs(5));
}

/// A rank that died stays a participant its collectives wait for in vain, also once the host
/// has reaped and deregistered it: a fence over the job fails at once (ctests/twonode "die",
/// where the host's deregistration sometimes came before the survivor's fence, which then
/// completed without the dead rank and told everyone SUCCESS).
#[test]
fn a_dead_rank_deregistered_by_the_host_still_fails_the_jobs_fence() {
    let (s, envs) = job(2);
    let a = Client::connect(Some(envs[0].clone())).expect("connect");
    let b = Client::connect(Some(envs[1].clone())).expect("connect");
    a.put(PMIX_GLOBAL, "k".into(), Value::Uint32(1)).unwrap();
    a.commit().unwrap();
    drop(a);
    std::thread::sleep(Duration::from_millis(300));
    s.deregister_client(&Proc::new("ns", 0));
    let t1 = [Info::new(key(PMIX_TIMEOUT), Value::Int(5))];
    let t0 = Instant::now();
    let r = b.fence(&[], &t1);
    assert_eq!(r.unwrap_err().status(), PMIX_ERR_PARTIAL_SUCCESS);
    assert!(t0.elapsed() < Duration::from_secs(2));
}

/// The host may reap and deregister a killed rank before the progress thread has seen its
/// connection close; a survivor's fence in between must not take the rank as one that
/// finalized and complete without it (ctests/twonode "die", about 1 run in 40 under load).
#[test]
fn a_rank_deregistered_before_its_connection_closes_still_fails_the_fence() {
    let (s, envs) = job(2);
    let a = Client::connect(Some(envs[0].clone())).expect("connect");
    let b = Client::connect(Some(envs[1].clone())).expect("connect");
    // Rank 0's connection is still open (its close not yet seen) when the host deregisters it.
    s.deregister_client(&Proc::new("ns", 0));
    let t1 = [Info::new(key(PMIX_TIMEOUT), Value::Int(5))];
    let t0 = Instant::now();
    let r = b.fence(&[], &t1);
    assert_eq!(r.unwrap_err().status(), PMIX_ERR_PARTIAL_SUCCESS);
    assert!(t0.elapsed() < Duration::from_secs(2));
    drop(a);
}

/// A get of a key a local peer has not committed waits for the commit that brings it, even
/// when the peer committed other keys before (as the reference's server does), and is
/// answered NOT_FOUND once the peer has finalized without it.
#[test]
fn a_get_waits_for_a_later_commit_until_the_peer_finalizes() {
    let (_s, envs) = job(2);
    let a = Arc::new(Client::connect(Some(envs[0].clone())).expect("connect"));
    let b = Arc::new(Client::connect(Some(envs[1].clone())).expect("connect"));
    a.put(PMIX_GLOBAL, "early".into(), Value::Uint32(1))
        .unwrap();
    a.commit().unwrap();
    let rank0 = Proc::new("ns", 0);
    // (A bound, so that a get left waiting fails the test instead of hanging it.)
    let bound = [Info::new(key(PMIX_TIMEOUT), Value::Int(10))];
    let asker = |b: &Arc<Client>, k: &'static [u8]| {
        let (b, p, t) = (b.clone(), rank0.clone(), bound.clone());
        std::thread::spawn(move || b.get(&p, k, &t))
    };
    let late = asker(&b, b"late");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!late.is_finished(), "the get did not wait for the commit");
    a.put(PMIX_GLOBAL, "late".into(), Value::Uint32(2)).unwrap();
    a.commit().unwrap();
    assert_eq!(late.join().unwrap().unwrap(), Value::Uint32(2));
    let never = asker(&b, b"never");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!never.is_finished(), "the get did not wait for the peer");
    let t0 = Instant::now();
    a.finalize().unwrap();
    let r = never.join().unwrap();
    assert_eq!(r.unwrap_err().status(), PMIX_ERR_NOT_FOUND);
    assert!(t0.elapsed() < Duration::from_secs(5));
    b.finalize().unwrap();
}

/// Names every tool "tools" rank 0, answering from another thread once `go` is sent (the
/// way a resource manager answers after asking the rest of its system).
struct LateToolHost {
    go: Mutex<Option<std::sync::mpsc::Receiver<()>>>,
}

impl pmix_core::host::Host for LateToolHost {
    fn provides(&self, upcall: pmix_core::host::Upcall) -> bool {
        upcall == pmix_core::host::Upcall::ToolConnected
    }
    fn tool_connected(&self, _info: &[Info], done: pmix_core::host::Done<Proc>) {
        let go = self.go.lock().unwrap().take().expect("one tool");
        std::thread::spawn(move || {
            go.recv().expect("go");
            done(Ok(Proc::new("tools", 0)));
        });
    }
}

#[test]
fn handshakes_are_not_held_up_by_a_stalled_peer_or_a_host_answering_later() {
    use std::io::{Read, Write};
    let (go_tx, go_rx) = std::sync::mpsc::channel();
    let host = Arc::new(LateToolHost {
        go: Mutex::new(Some(go_rx)),
    });
    let cfg = ServerConfig {
        id: Proc::new("test-server", 0),
        ..ServerConfig::default()
    };
    let s = TestServer(server::start(host, cfg).expect("server"));
    let ns = PStr::from("ns");
    s.register_nspace(&ns, 1, &[Info::new(key(PMIX_JOB_SIZE), Value::Uint32(1))])
        .expect("register");
    let (uid, gid) = pmix_core::wire::own_ids();
    let p = Proc::new("ns", 0);
    s.register_client(&p, uid, gid).expect("client");
    let vars = s.setup_fork(&p);
    let env = ClientEnv::from_env(|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
        .expect("env")
        .expect("not a singleton");
    // A peer that sent 10 bytes of a handshake header and nothing more, another that sent
    // nothing at all: both stay connected, unanswered.
    let mut partial = std::net::TcpStream::connect(env.uri.addr).expect("connect");
    partial.write_all(&[0xff; 10]).expect("write");
    let _silent = std::net::TcpStream::connect(env.uri.addr).expect("connect");
    // A tool whose identity the host gives later, from another thread (through the Unix
    // socket the server names: the partial peers above hold TCP connections).
    let uri = s.uri.clone();
    assert!(uri.unix.is_some());
    let tool = std::thread::spawn(move || {
        pmix_core::tool::connect(&uri, pmix_core::wire::PeerKind::ToolNeedsId, None, vec![])
            .map(|c| (c.me.clone(), c.via_unix_socket()))
    });
    // Meanwhile a client completes its handshake and gets its job data.
    let c = Client::connect(Some(env)).expect("client connects while the others wait");
    assert_eq!(wildcard_job_size(&c), Some(1));
    // The host answers; the tool gets the identity it was given.
    go_tx.send(()).expect("go");
    assert_eq!(
        tool.join().unwrap().expect("tool"),
        (Proc::new("tools", 0), true)
    );
    // The partial handshake is still unanswered (the server only drops it at its deadline).
    partial.set_nonblocking(true).expect("non-blocking");
    let mut b = [0u8; 4];
    assert_eq!(
        partial.read(&mut b).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock)
    );
    c.finalize().expect("finalize");
}

/// Names the tools "tools" 0, 1, ... at once.
struct ToolHost {
    next: Mutex<u32>,
}

impl pmix_core::host::Host for ToolHost {
    fn provides(&self, upcall: pmix_core::host::Upcall) -> bool {
        upcall == pmix_core::host::Upcall::ToolConnected
    }
    fn tool_connected(&self, _info: &[Info], done: pmix_core::host::Done<Proc>) {
        let mut n = self.next.lock().unwrap();
        *n += 1;
        done(Ok(Proc::new("tools", *n - 1)));
    }
}

/// When a tool's connection ends, finalized or not, the server's own handlers get
/// `PMIX_ERR_LOST_CONNECTION` from it, as with OpenPMIx 4.2.2 and 5.0.11: PRRTE ends the
/// tool's job on that event (without it, prterun never exited after a tool attached).
#[test]
fn the_server_learns_that_a_tool_left_finalized_or_not() {
    let host = Arc::new(ToolHost {
        next: Mutex::new(0),
    });
    let cfg = ServerConfig {
        id: Proc::new("test-server", 0),
        ..ServerConfig::default()
    };
    let s = server::start(host, cfg).expect("server");
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = Mutex::new(tx);
    s.events.register(
        &[PMIX_ERR_LOST_CONNECTION],
        &[],
        Arc::new(move |_, ev: &pmix_core::events::Event, _: &[Info], next| {
            let affected = ev
                .info
                .iter()
                .find(|i| i.is(PMIX_EVENT_AFFECTED_PROC))
                .map(|i| i.value.clone());
            let _ = tx
                .lock()
                .unwrap()
                .send((ev.code, ev.source.clone(), ev.range, affected));
            next.call(PMIX_SUCCESS, Vec::new());
        }),
    );
    let connect = || {
        pmix_core::tool::connect(&s.uri, pmix_core::wire::PeerKind::ToolNeedsId, None, vec![])
            .expect("tool")
    };
    let finalized = connect();
    assert_eq!(finalized.me, Proc::new("tools", 0));
    finalized.finalize().expect("finalize");
    drop(finalized);
    let dropped = connect();
    assert_eq!(dropped.me, Proc::new("tools", 1));
    drop(dropped);
    for rank in 0..2 {
        let (code, source, range, affected) = rx
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("no event for tool {rank}"));
        assert_eq!(code, PMIX_ERR_LOST_CONNECTION);
        assert_eq!(source, Proc::new("tools", rank));
        assert_eq!(range, PMIX_RANGE_PROC_LOCAL);
        assert_eq!(affected, Some(Value::Proc(Proc::new("tools", rank))));
    }
}

/// A tool that sends its handshake and shuts down its sending side, then waits, still gets
/// its answer once the host has named it (a real peer may half-close; the reference's
/// server answers it too); the server closes the connection after the answer.
#[test]
fn a_tool_that_half_closes_after_its_handshake_is_answered() {
    use pmix_core::codec::BufferType;
    use pmix_core::wire::{Hello, PeerKind, ToolReply};
    use std::io::{Read, Write};
    let (go_tx, go_rx) = std::sync::mpsc::channel();
    let host = Arc::new(LateToolHost {
        go: Mutex::new(Some(go_rx)),
    });
    let cfg = ServerConfig {
        id: Proc::new("test-server", 0),
        ..ServerConfig::default()
    };
    let s = server::start(host, cfg).expect("server");
    let (uid, gid) = pmix_core::wire::own_ids();
    let hello = Hello {
        psec: "native".into(),
        cred: pmix_core::wire::handshake::native_cred(uid, gid),
        kind: PeerKind::ToolNeedsId,
        uid,
        gid,
        id: None,
        version: pmix_core::wire::VERSION.into(),
        bfrops: "v41".into(),
        buffer_type: BufferType::NonDesc,
        gds: "hash".into(),
        info: Vec::new(),
    };
    let mut sock = std::net::TcpStream::connect(s.uri.addr).expect("connect");
    sock.write_all(&hello.encode()).expect("send the handshake");
    sock.shutdown(std::net::Shutdown::Write)
        .expect("half-close");
    // Let the server see the end of file before the host answers (the case that matters):
    // nothing may arrive meanwhile, and the connection must not be dropped.
    std::thread::sleep(Duration::from_millis(300));
    sock.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut b = [0u8; 1];
    let early = sock.read(&mut b);
    assert!(
        matches!(&early, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock
            || e.kind() == std::io::ErrorKind::TimedOut),
        "before the host answered: {early:?}"
    );
    go_tx.send(()).expect("go");
    sock.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut got = Vec::new();
    sock.read_to_end(&mut got).expect("read the answer");
    assert!(got.len() >= 4, "no answer: {got:?}");
    let status = i32::from_be_bytes(got[..4].try_into().unwrap());
    assert_eq!(status, PMIX_SUCCESS);
    let reply = ToolReply::parse_rest(status, PeerKind::ToolNeedsId, &got[4..]).expect("reply");
    assert_eq!(reply.assigned, Some(Proc::new("tools", 0)));
    assert_eq!(reply.server, Proc::new("test-server", 0));
    assert_eq!(got.len(), 4 + ToolReply::rest_len(PeerKind::ToolNeedsId));
}

/// A host may register and fork a job's clients one by one: a fence over the job that the
/// first rank enters before the second is even registered must wait for the second (it is
/// one of the job's local ranks), not complete without it.
#[test]
fn a_fence_waits_for_local_ranks_not_yet_registered() {
    let s = job_unregistered(2, test_config());
    let c0 = Arc::new(Client::connect(Some(register_rank(&s, 0))).expect("connect 0"));
    let (tx, rx) = std::sync::mpsc::channel();
    let first = {
        let c0 = c0.clone();
        std::thread::spawn(move || {
            let r = c0.fence(&[], &[]);
            let _ = tx.send(());
            r
        })
    };
    // Rank 1 does not exist yet: rank 0's fence must still be waiting.
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "the fence completed without rank 1"
    );
    let c1 = Client::connect(Some(register_rank(&s, 1))).expect("connect 1");
    c1.fence(&[], &[]).expect("fence of rank 1");
    first.join().unwrap().expect("fence of rank 0");
    c1.finalize().unwrap();
    c0.finalize().unwrap();
}

/// The same for data: a Get of a local rank not registered yet, and the host's direct-modex
/// request for it (another node asking), wait for it to register and commit instead of
/// answering NOT_FOUND at once (ctests/twonode, "nofence-1by1").
#[test]
fn a_get_and_a_dmodex_request_wait_for_local_ranks_not_yet_registered() {
    let s = job_unregistered(2, test_config());
    let c0 = Arc::new(Client::connect(Some(register_rank(&s, 0))).expect("connect 0"));
    let rank1 = Proc::new("ns", 1);
    let get = {
        let (c0, p) = (c0.clone(), rank1.clone());
        let bound = [Info::new(key(PMIX_TIMEOUT), Value::Int(10))];
        std::thread::spawn(move || c0.get(&p, b"k", &bound))
    };
    let (tx, rx) = std::sync::mpsc::channel();
    s.dmodex_request(
        &rank1,
        Box::new(move |r| {
            let _ = tx.send(r);
        }),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(!get.is_finished(), "the get did not wait for rank 1");
    assert!(
        rx.try_recv().is_err(),
        "the dmodex request did not wait for rank 1"
    );
    let c1 = Client::connect(Some(register_rank(&s, 1))).expect("connect 1");
    c1.put(PMIX_GLOBAL, "k".into(), Value::Uint32(7)).unwrap();
    c1.commit().unwrap();
    assert_eq!(get.join().unwrap().unwrap(), Value::Uint32(7));
    let blob = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("dmodex answer")
        .expect("dmodex data");
    assert!(!blob.is_empty());
    c1.finalize().unwrap();
    c0.finalize().unwrap();
}

type Got = Arc<Mutex<Vec<(u32, u16, Vec<u8>, bool)>>>;

/// A handler that records (rank, channel, bytes, end of stream).
fn recorder() -> (Got, pmix_core::client::IofHandler) {
    let got: Got = Arc::default();
    let sink = got.clone();
    let h: pmix_core::client::IofHandler = Arc::new(move |_, src, ch, data, info| {
        let end = pmix_core::iof::is_complete(info);
        sink.lock()
            .unwrap()
            .push((src.rank, ch, data.to_vec(), end));
    });
    (got, h)
}

fn wait_for(got: &Got, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while got.lock().unwrap().len() < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits (at most 10 s) until the last recorded delivery is an end of stream.
fn wait_for_end(got: &Got) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !got.lock().unwrap().last().is_some_and(|x| x.3) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn complete() -> Vec<Info> {
    vec![Info::new(key(PMIX_IOF_COMPLETE), Value::Bool(true))]
}

#[test]
fn output_before_the_pull_is_cached_and_replayed_once() {
    let (s, envs) = job(2);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    let out = PMIX_FWD_STDOUT_CHANNEL;
    for i in 0..5 {
        s.iof_deliver(&Proc::new("ns", 1), out, format!("{i}").as_bytes(), &[])
            .unwrap();
    }
    s.iof_deliver(&Proc::new("ns", 1), out, b"", &complete())
        .unwrap();
    // Make sure the deliveries ran before the pull (they are posted in order).
    s.iof_deliver(&Proc::new("other", 0), out, b"z", &[])
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let (got, h) = recorder();
    let id = c
        .iof_pull(
            &[Proc::new("ns", PMIX_RANK_WILDCARD)],
            &[Info::new(key(PMIX_IOF_CACHE_SIZE), Value::Uint32(3))],
            out,
            Some(h),
        )
        .expect("pull");
    // The replayed bytes and the end mark may come in one call or several.
    wait_for_end(&got);
    {
        let g = got.lock().unwrap();
        // The cache of 3 bytes for this pull keeps the first ones (drop newest).
        let bytes: Vec<u8> = g.iter().flat_map(|x| x.2.clone()).collect();
        assert_eq!(bytes, b"012");
        assert!(g.last().unwrap().3, "the end of the stream is replayed");
    }
    // The cache was consumed: a second pull gets nothing of it.
    let (got2, h2) = recorder();
    let id2 = c
        .iof_pull(&[Proc::new("ns", 1)], &[], out, Some(h2))
        .expect("pull");
    std::thread::sleep(Duration::from_millis(100));
    assert!(got2.lock().unwrap().is_empty());
    c.iof_deregister(id, &[]).unwrap();
    c.iof_deregister(id2, &[]).unwrap();
    c.finalize().unwrap();
}

/// Output of a namespace the server does not know (never registered, or deregistered
/// before the host's last delivery) is not cached: no later pull replays it, and a
/// long-lived host does not pile it up.
#[test]
fn output_of_an_unknown_namespace_is_not_cached() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    let out = PMIX_FWD_STDOUT_CHANNEL;
    s.register_nspace(&PStr::from("gone"), 1, &[]).unwrap();
    s.deregister_nspace(&PStr::from("gone"));
    for ns in ["gone", "never"] {
        s.iof_deliver(&Proc::new(ns, 0), out, b"late", &complete())
            .unwrap();
    }
    // Known, for comparison: this one is cached and replayed.
    s.iof_deliver(&Proc::new("ns", 0), out, b"kept", &complete())
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let (got, h) = recorder();
    let all = [
        Proc::new("gone", PMIX_RANK_WILDCARD),
        Proc::new("never", PMIX_RANK_WILDCARD),
        Proc::new("ns", PMIX_RANK_WILDCARD),
    ];
    let id = c.iof_pull(&all, &[], out, Some(h)).expect("pull");
    wait_for_end(&got);
    std::thread::sleep(Duration::from_millis(100));
    {
        let g = got.lock().unwrap();
        let bytes: Vec<u8> = g.iter().flat_map(|x| x.2.clone()).collect();
        assert_eq!(bytes, b"kept");
    }
    c.iof_deregister(id, &[]).unwrap();
    c.finalize().unwrap();
}

#[test]
fn redirect_is_visible_to_the_host_while_registered() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    let src = Proc::new("ns", 0);
    assert!(!s.iof_redirected(&src, PMIX_FWD_STDOUT_CHANNEL));
    let (_got, h) = recorder();
    let id = c
        .iof_pull(
            &[Proc::new("ns", 0)],
            &[Info::new(key(PMIX_IOF_REDIRECT), Value::Bool(true))],
            PMIX_FWD_STDOUT_CHANNEL,
            Some(h.clone()),
        )
        .expect("pull");
    assert!(s.iof_redirected(&src, PMIX_FWD_STDOUT_CHANNEL));
    assert!(!s.iof_redirected(&src, PMIX_FWD_STDERR_CHANNEL));
    assert!(!s.iof_redirected(&Proc::new("ns", 1), PMIX_FWD_STDOUT_CHANNEL));
    // A copy does not redirect.
    let id2 = c
        .iof_pull(
            &[Proc::new("ns", 0)],
            &[Info::new(key(PMIX_IOF_COPY), Value::Bool(true))],
            PMIX_FWD_STDERR_CHANNEL,
            Some(h),
        )
        .expect("pull");
    assert!(!s.iof_redirected(&src, PMIX_FWD_STDERR_CHANNEL));
    c.iof_deregister(id, &[]).unwrap();
    assert!(!s.iof_redirected(&src, PMIX_FWD_STDOUT_CHANNEL));
    c.iof_deregister(id2, &[]).unwrap();
    c.finalize().unwrap();
}

#[test]
fn buffering_size_groups_output_and_the_end_flushes_it() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    let (got, h) = recorder();
    let id = c
        .iof_pull(
            &[Proc::new("ns", 0)],
            &[
                Info::new(key(PMIX_IOF_BUFFERING_SIZE), Value::Uint32(40)),
                Info::new(key(PMIX_IOF_TAG_OUTPUT), Value::Bool(true)),
            ],
            PMIX_FWD_STDOUT_CHANNEL,
            Some(h),
        )
        .expect("pull");
    let src = Proc::new("ns", 0);
    for part in ["a\n", "b\n", "c\n", "d"] {
        s.iof_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, part.as_bytes(), &[])
            .unwrap();
    }
    s.iof_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, b"", &complete())
        .unwrap();
    wait_for(&got, 3);
    std::thread::sleep(Duration::from_millis(100));
    let g = got.lock().unwrap();
    // A tagged line is 18 bytes: a and b wait, c brings 54 >= 40 and the three go in one
    // call; "d" waits for the end of the stream, which flushes it (with its newline) before
    // the end mark.
    let chunks: Vec<String> = g
        .iter()
        .map(|x| String::from_utf8(x.2.clone()).unwrap())
        .collect();
    assert_eq!(
        chunks,
        vec![
            "[ns,0]<stdout>: a\n[ns,0]<stdout>: b\n[ns,0]<stdout>: c\n",
            "[ns,0]<stdout>: d\n",
            ""
        ]
    );
    assert!(g.last().unwrap().3);
    drop(g);
    c.iof_deregister(id, &[]).unwrap();
    c.finalize().unwrap();
}

#[test]
fn buffering_time_delivers_what_the_size_holds_back() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    let (got, h) = recorder();
    let id = c
        .iof_pull(
            &[Proc::new("ns", 0)],
            &[
                Info::new(key(PMIX_IOF_BUFFERING_SIZE), Value::Uint32(1 << 20)),
                Info::new(key(PMIX_IOF_BUFFERING_TIME), Value::Uint32(1)),
            ],
            PMIX_FWD_STDOUT_CHANNEL,
            Some(h),
        )
        .expect("pull");
    let start = Instant::now();
    s.iof_deliver(&Proc::new("ns", 0), PMIX_FWD_STDOUT_CHANNEL, b"x", &[])
        .unwrap();
    s.iof_deliver(&Proc::new("ns", 0), PMIX_FWD_STDOUT_CHANNEL, b"y", &[])
        .unwrap();
    wait_for(&got, 1);
    assert!(start.elapsed() >= Duration::from_secs(1));
    assert_eq!(got.lock().unwrap()[0].2, b"xy");
    c.iof_deregister(id, &[]).unwrap();
    c.finalize().unwrap();
}

/// An event a client notified reaches a process that registers for its code only later,
/// once (as with the reference; a debugger's release can come before its target registered
/// for it), but not one notified with `PMIX_EVENT_DO_NOT_CACHE`.
#[test]
fn a_late_registration_gets_the_cached_event_once() {
    let (_s, envs) = job(2);
    let clients: Vec<Client> = envs
        .into_iter()
        .map(|e| Client::connect(Some(e)).expect("connect"))
        .collect();
    let wait = |f: &dyn Fn(pmix_core::host::Done<()>) -> pmix_core::Result<()>| {
        let (tx, rx) = std::sync::mpsc::channel();
        f(Box::new(move |r| {
            let _ = tx.send(r);
        }))
        .unwrap();
        rx.recv_timeout(Duration::from_secs(10)).unwrap().unwrap();
    };
    let cached = PMIX_EXTERNAL_ERR_BASE - 11;
    let uncached = PMIX_EXTERNAL_ERR_BASE - 12;
    wait(&|d| clients[0].notify_nb(cached, None, PMIX_RANGE_NAMESPACE, &[], d));
    let no_cache = [Info::new(key(PMIX_EVENT_DO_NOT_CACHE), Value::Bool(true))];
    wait(&|d| clients[0].notify_nb(uncached, None, PMIX_RANGE_NAMESPACE, &no_cache, d));

    let seen: Arc<Mutex<Vec<pmix_status_t>>> = Arc::default();
    let register = |codes: Vec<pmix_status_t>| {
        let s = seen.clone();
        clients[1].events.register(
            &codes,
            &[],
            Arc::new(move |_, ev: &pmix_core::events::Event, _: &[Info], next| {
                s.lock().unwrap().push(ev.code);
                next.call(PMIX_SUCCESS, Vec::new());
            }),
        );
        wait(&|d| clients[1].register_events_nb(&codes, &[], d));
    };
    register(vec![cached, uncached]);
    let deadline = Instant::now() + Duration::from_secs(5);
    while seen.lock().unwrap().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    // A second registration of the same code does not bring it again; the uncached event
    // never comes. (The round trip of the registration orders anything the server sent.)
    register(vec![cached]);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(*seen.lock().unwrap(), vec![cached]);
    for c in &clients {
        c.finalize().unwrap();
    }
}

/// A handler without output attributes runs on the event thread, never on the progress
/// thread (a handler that blocks must not stall replies), before and after other jobs went
/// through that thread, and in arrival order.
#[test]
fn output_handlers_run_on_the_event_thread_in_arrival_order() {
    let (s, envs) = job(1);
    let c = Client::connect(Some(envs[0].clone())).expect("connect");
    type Seen = Arc<Mutex<Vec<(Vec<u8>, bool, bool)>>>;
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    let out = PMIX_FWD_STDOUT_CHANNEL;
    let src = Proc::new("ns", 0);
    c.iof_pull(
        std::slice::from_ref(&src),
        &[],
        out,
        Some(Arc::new(move |_, _, _, data, _| {
            sink.lock().unwrap().push((
                data.to_vec(),
                pmix_core::progress::on_progress_thread(),
                pmix_core::events::on_event_thread(),
            ))
        })),
    )
    .expect("pull");
    // A second registration, withdrawn: its flush is the first job of the event thread.
    let (_, h) = recorder();
    let other = c
        .iof_pull(std::slice::from_ref(&src), &[], out, Some(h))
        .expect("pull");
    let wait = |n: usize| {
        let deadline = Instant::now() + Duration::from_secs(10);
        while seen.lock().unwrap().len() < n && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    for b in [&b"a"[..], b"b"] {
        s.iof_deliver(&src, out, b, &[]).unwrap();
    }
    wait(2);
    c.iof_deregister(other, &[]).expect("deregister");
    for b in [&b"c"[..], b"d"] {
        s.iof_deliver(&src, out, b, &[]).unwrap();
    }
    wait(4);
    let got = seen.lock().unwrap().clone();
    let want = |b: &[u8], progress: bool| (b.to_vec(), progress, !progress);
    assert_eq!(
        got,
        vec![
            want(b"a", false),
            want(b"b", false),
            want(b"c", false),
            want(b"d", false)
        ]
    );
    c.finalize().unwrap();
}

/// The lines of this process's memory map that name `path`.
fn mappings_of(path: &std::path::Path) -> usize {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("maps");
    let p = path.to_str().expect("utf-8 path");
    maps.lines().filter(|l| l.contains(p)).count()
}

/// The job-data segment files in `dir`.
fn segment_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    files_named(dir, "job.")
}

/// The files in `dir` whose names start with `prefix`.
fn files_named(dir: &std::path::Path, prefix: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn job_data_comes_from_a_mapped_segment_or_inline_with_the_same_answers() {
    let tmp = std::env::temp_dir().join(format!("pmix-session-seg.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp).unwrap();
    let host = pmix_core::net::local_hostname();
    let cfg = ServerConfig {
        id: Proc::new("seg-server", 0),
        tmpdir: tmp.to_str().unwrap().into(),
        system_tmpdir: tmp.to_str().unwrap().into(),
        ..ServerConfig::default()
    };
    let s = server::start(Arc::new(NoHost), cfg).expect("server");
    let ns = PStr::from("ns");
    let nodes = [host.clone(), PStr::from("remote-node")];
    let nmap = pmix_core::regex::node_map_of(&nodes).unwrap();
    let pmap = pmix_core::regex::proc_map_of(&[vec![0, 1, 2, 3], vec![4, 5, 6, 7]]).unwrap();
    let arr = |items: Vec<Info>| {
        Value::DataArray(Box::new(pmix_core::DataArray {
            ty: PMIX_INFO,
            items: items
                .into_iter()
                .map(|i| Value::Info(Box::new(i)))
                .collect(),
        }))
    };
    let mut info = vec![
        Info::new(key(PMIX_UNIV_SIZE), Value::Uint32(8)),
        Info::new(key(PMIX_NODE_MAP), Value::Regex(nmap)),
        Info::new(key(PMIX_PROC_MAP), Value::Regex(pmap)),
        Info::new(key(PMIX_JOBID), Value::String(Some("job-1".into()))),
        Info::new(
            key(PMIX_APP_INFO_ARRAY),
            arr(vec![
                Info::new(key(PMIX_APPNUM), Value::Uint32(0)),
                Info::new(key(PMIX_APP_SIZE), Value::Uint32(8)),
            ]),
        ),
        Info::new(
            key(PMIX_SESSION_INFO_ARRAY),
            arr(vec![
                Info::new(key(PMIX_SESSION_ID), Value::Uint32(3)),
                Info::new(key(PMIX_MAX_PROCS), Value::Uint32(64)),
            ]),
        ),
        Info::new(
            key(PMIX_NODE_INFO_ARRAY),
            arr(vec![
                Info::new(
                    key(PMIX_HOSTNAME),
                    Value::String(Some("remote-node".into())),
                ),
                Info::new(key(PMIX_NODE_SIZE), Value::Uint32(16)),
            ]),
        ),
    ];
    for r in 0..8u32 {
        info.push(Info::new(
            key(PMIX_PROC_DATA),
            arr(vec![
                Info::new(key(PMIX_RANK), Value::ProcRank(r)),
                Info::new(key(PMIX_APPNUM), Value::Uint32(0)),
                Info::new("host.rank.key", Value::Uint64(100 + u64::from(r))),
            ]),
        ));
    }
    s.register_nspace(&ns, 4, &info).expect("register");
    let (uid, gid) = pmix_core::wire::own_ids();
    let env_of = |r: u32, gds: Option<&str>| {
        let p = Proc::new("ns", r);
        s.register_client(&p, uid, gid).expect("client");
        let vars = s.setup_fork(&p);
        let gds_var = vars.iter().find(|(n, _)| n == "PMIX_GDS_MODULE").unwrap();
        // Reference 4.2 clients are offered our ds21 store beside it.
        assert_eq!(gds_var.1, "rsshm,ds21,hash");
        let ds21 = vars
            .iter()
            .find(|(n, _)| n == "PMIX_DSTORE_21_BASE_PATH")
            .unwrap();
        assert!(std::path::Path::new(&ds21.1).join("smlockseg-ns").exists());
        ClientEnv::from_env(|k| match (k, gds) {
            ("PMIX_GDS_MODULE", Some(g)) => Some(g.to_string()),
            _ => vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
        })
        .expect("env")
        .expect("not a singleton")
    };
    let segdir = tmp.join(format!("pmix-rsshm.{}", std::process::id()));
    // A directory a dead server of this user left is removed; a live one's stays.
    let dead = (3_000_000..4_000_000u32)
        .find(|p| !std::path::Path::new(&format!("/proc/{p}")).exists())
        .unwrap();
    let stale = tmp.join(format!("pmix-rsshm.{dead}"));
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("job.1"), b"old").unwrap();
    let live = tmp.join("pmix-rsshm.1");
    std::fs::create_dir(&live).unwrap();

    // Rank 0 maps the segment the server writes on its first REQ.
    let e0 = env_of(0, None);
    assert!(e0.gds_shm);
    let c0 = Client::connect(Some(e0)).expect("connect mapped");
    let files = segment_files(&segdir);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(!stale.exists() && live.exists());
    let mode = std::fs::metadata(&segdir).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o077,
        0
    );
    assert_eq!(mappings_of(&files[0]), 1);
    // Rank 1 declares "hash": the job data inline, nothing mapped.
    let e1 = env_of(1, Some("hash"));
    assert!(!e1.gds_shm);
    let c1 = Client::connect(Some(e1)).expect("connect inline");
    assert_eq!(mappings_of(&files[0]), 1);
    // Rank 2 finds the segment gone and asks for the job data inline.
    std::fs::remove_file(&files[0]).unwrap();
    let c2 = Client::connect(Some(env_of(2, None))).expect("connect after fallback");
    assert_eq!(segment_files(&segdir), Vec::<std::path::PathBuf>::new());

    let w = PMIX_RANK_WILDCARD;
    let opt = Info::new(key(PMIX_OPTIONAL), Value::Bool(true));
    let mut asks: Vec<(u32, Vec<u8>, Vec<Info>)> = Vec::new();
    for k in [
        key(PMIX_JOB_SIZE),
        key(PMIX_UNIV_SIZE),
        key(PMIX_JOBID),
        key(PMIX_LOCAL_PEERS),
        key(PMIX_NODE_LIST),
        key(PMIX_APP_SIZE),
        key(PMIX_HOSTNAME),
        key(PMIX_NODEID),
        key(PMIX_LOCAL_RANK),
        key(PMIX_APPNUM),
        PStr::from("host.rank.key"),
    ] {
        for r in [w, PMIX_RANK_UNDEF, 0, 3, 4, 7] {
            asks.push((r, k.as_bytes().to_vec(), vec![opt.clone()]));
        }
    }
    let node_info = Info::new(key(PMIX_NODE_INFO), Value::Bool(true));
    for r in [w, 5] {
        asks.push((
            r,
            key(PMIX_LOCAL_PEERS).as_bytes().to_vec(),
            vec![node_info.clone(), opt.clone()],
        ));
    }
    asks.push((
        w,
        key(PMIX_NODE_SIZE).as_bytes().to_vec(),
        vec![
            node_info.clone(),
            Info::new(
                key(PMIX_HOSTNAME),
                Value::String(Some("remote-node".into())),
            ),
        ],
    ));
    asks.push((
        w,
        key(PMIX_MAX_PROCS).as_bytes().to_vec(),
        vec![Info::new(key(PMIX_SESSION_INFO), Value::Bool(true))],
    ));
    asks.push((
        w,
        key(PMIX_APP_SIZE).as_bytes().to_vec(),
        vec![Info::new(key(PMIX_APP_INFO), Value::Bool(true))],
    ));
    for (r, k, i) in &asks {
        let p = Proc::new("ns", *r);
        let a = c0.get(&p, k, i);
        let b = c1.get(&p, k, i);
        let c = c2.get(&p, k, i);
        assert_eq!(
            a,
            b,
            "mapped vs inline: {p:?} {}",
            String::from_utf8_lossy(k)
        );
        assert_eq!(
            c,
            b,
            "fallback vs inline: {p:?} {}",
            String::from_utf8_lossy(k)
        );
    }
    // Spelled out: every realm answers, mapped.
    let get = |r: u32, k: &[u8], i: &[Info]| c0.get(&Proc::new("ns", r), k, i).expect("get");
    assert_eq!(get(w, key(PMIX_JOB_SIZE).as_bytes(), &[]).as_u64(), Some(8));
    assert_eq!(get(7, b"host.rank.key", &[]).as_u64(), Some(107));
    assert_eq!(
        get(5, key(PMIX_HOSTNAME).as_bytes(), &[]),
        Value::String(Some("remote-node".into()))
    );
    assert_eq!(
        get(2, key(PMIX_LOCAL_RANK).as_bytes(), &[]).as_u64(),
        Some(2)
    );
    assert_eq!(
        get(
            w,
            key(PMIX_MAX_PROCS).as_bytes(),
            &[Info::new(key(PMIX_SESSION_INFO), Value::Bool(true))]
        )
        .as_u64(),
        Some(64)
    );
    assert_eq!(
        get(
            w,
            key(PMIX_NODE_SIZE).as_bytes(),
            &[
                node_info,
                Info::new(
                    key(PMIX_HOSTNAME),
                    Value::String(Some("remote-node".into()))
                )
            ]
        )
        .as_u64(),
        Some(16)
    );
    for c in [c0, c1, c2] {
        c.finalize().unwrap();
    }
    // Re-registering replaces the segment; the server's finalize removes it and its
    // directory.
    s.register_nspace(&ns, 4, &info).expect("register again");
    let c3 = Client::connect(Some(env_of(3, None))).expect("connect to the new segment");
    let files = segment_files(&segdir);
    assert_eq!(files.len(), 1);
    assert_eq!(mappings_of(&files[0]), 1);
    c3.finalize().unwrap();
    drop(c3);
    assert_eq!(mappings_of(&files[0]), 0);
    s.finalize();
    assert!(!segdir.exists());
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Fences all `clients` at once (no data collection).
fn fence_all(clients: &[Arc<Client>]) {
    let threads: Vec<_> = clients
        .iter()
        .cloned()
        .map(|c| std::thread::spawn(move || c.fence(&[], &[]).unwrap()))
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

/// Local peers' committed data from the modex segment: after put, commit and a fence, an
/// "rsshm" client reads a peer's LOCAL and GLOBAL keys without asking the server; a key
/// committed again is read at its new value after the next fence; a refresh, a REMOTE-only
/// key and a "hash" client (as a reference client would be) still ask the server; a
/// retired segment sends Gets back to the server; the files go at finalize.
#[test]
fn local_peers_committed_data_is_read_from_the_modex_segment() {
    let tmp = std::env::temp_dir().join(format!("pmix-session-modex.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir(&tmp).unwrap();
    let cfg = ServerConfig {
        id: Proc::new("modex-server", 0),
        tmpdir: tmp.to_str().unwrap().into(),
        system_tmpdir: tmp.to_str().unwrap().into(),
        ..ServerConfig::default()
    };
    let s = server::start(Arc::new(NoHost), cfg).expect("server");
    let ns = PStr::from("ns");
    let info = vec![
        Info::new(key(PMIX_JOB_SIZE), Value::Uint32(3)),
        Info::new(key(PMIX_LOCAL_SIZE), Value::Uint32(3)),
        Info::new(key(PMIX_LOCAL_PEERS), Value::String(Some("0,1,2".into()))),
    ];
    s.register_nspace(&ns, 3, &info).expect("register");
    let (uid, gid) = pmix_core::wire::own_ids();
    let env_of = |r: u32, gds: Option<&str>| {
        let p = Proc::new("ns", r);
        s.register_client(&p, uid, gid).expect("client");
        let vars = s.setup_fork(&p);
        ClientEnv::from_env(|k| match (k, gds) {
            ("PMIX_GDS_MODULE", Some(g)) => Some(g.to_string()),
            _ => vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
        })
        .expect("env")
        .expect("not a singleton")
    };
    // Ranks 0 and 1 map the segments; rank 2 declares "hash", as a reference client does.
    let clients: Vec<Arc<Client>> = [(0, None), (1, None), (2, Some("hash"))]
        .into_iter()
        .map(|(r, g)| Arc::new(Client::connect(Some(env_of(r, g))).expect("connect")))
        .collect();
    let segdir = tmp.join(format!("pmix-rsshm.{}", std::process::id()));
    let mfiles = files_named(&segdir, "modex.");
    assert_eq!(mfiles.len(), 1, "{mfiles:?}");
    let perm = std::fs::metadata(&mfiles[0]).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&perm) & 0o777,
        0o400
    );
    // The server's mapping and the two "rsshm" clients' (all in this process).
    assert_eq!(mappings_of(&mfiles[0]), 3);

    for c in &clients {
        let r = c.me.rank;
        c.put(PMIX_GLOBAL, "g".into(), Value::Uint32(100 + r))
            .unwrap();
        c.put(PMIX_LOCAL, "l".into(), Value::Uint32(200 + r))
            .unwrap();
        c.put(PMIX_REMOTE, "r".into(), Value::Uint32(300 + r))
            .unwrap();
        c.commit().unwrap();
    }
    fence_all(&clients);
    let (c0, c2) = (&clients[0], &clients[2]);
    let p1 = Proc::new("ns", 1);
    let n = s.get_requests();
    assert_eq!(c0.get(&p1, b"g", &[]), Ok(Value::Uint32(101)));
    assert_eq!(c0.get(&p1, b"l", &[]), Ok(Value::Uint32(201)));
    // The "hash" client's data is in the segment too.
    assert_eq!(
        c0.get(&Proc::new("ns", 2), b"g", &[]),
        Ok(Value::Uint32(102))
    );
    // Non-blocking, and with PMIX_OPTIONAL: also from the segment.
    let (tx, rx) = std::sync::mpsc::channel();
    c0.get_nb(&p1, b"l", &[], Box::new(move |v| tx.send(v).unwrap()))
        .unwrap();
    assert_eq!(rx.recv().unwrap(), Ok(Value::Uint32(201)));
    let opt = [Info::new(key(PMIX_OPTIONAL), Value::Bool(true))];
    assert_eq!(c0.get(&p1, b"g", &opt), Ok(Value::Uint32(101)));
    assert_eq!(s.get_requests(), n, "answered from the modex segment");
    // A REMOTE-only key is not for local peers: the server says so.
    assert_eq!(c0.get(&p1, b"r", &[]), Err(pmix_core::Error::NotFound));
    assert_eq!(s.get_requests(), n + 1);
    // The "hash" client asks the server, and gets the same values.
    assert_eq!(c2.get(&p1, b"g", &[]), Ok(Value::Uint32(101)));
    assert_eq!(c2.get(&p1, b"l", &[]), Ok(Value::Uint32(201)));
    assert_eq!(s.get_requests(), n + 2);

    // Committed again: the new value after the next fence, still without the server.
    fence_all(&clients);
    clients[1]
        .put(PMIX_GLOBAL, "g".into(), Value::Uint32(1101))
        .unwrap();
    clients[1].commit().unwrap();
    fence_all(&clients);
    let n = s.get_requests();
    assert_eq!(c0.get(&p1, b"g", &[]), Ok(Value::Uint32(1101)));
    assert_eq!(c0.get(&p1, b"l", &[]), Ok(Value::Uint32(201)));
    assert_eq!(s.get_requests(), n);
    // A refresh goes to the server.
    let refresh = [Info::new(key(PMIX_GET_REFRESH_CACHE), Value::Bool(true))];
    assert_eq!(c0.get(&p1, b"g", &refresh), Ok(Value::Uint32(1101)));
    assert_eq!(s.get_requests(), n + 1);
    // The "hash" client sees the new value too (a refresh: it holds the old one).
    assert_eq!(c2.get(&p1, b"g", &refresh), Ok(Value::Uint32(1101)));

    // Registering the namespace again retires the segment: Gets of keys not held go to
    // the server (rank 1 reads rank 0's keys for the first time), which still has them.
    s.register_nspace(&ns, 3, &info).expect("register again");
    assert_eq!(files_named(&segdir, "modex.").len(), 0);
    let c1 = &clients[1];
    let p0 = Proc::new("ns", 0);
    let n = s.get_requests();
    assert_eq!(c1.get(&p0, b"l", &[]), Ok(Value::Uint32(200)));
    assert_eq!(s.get_requests(), n + 1);
    for c in &clients {
        c.finalize().unwrap();
    }
    drop(clients);
    s.finalize();
    assert!(!segdir.exists());
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A client that cannot load a topology asks the server for its device distances
/// (COMPUTE_DEVICE_DISTANCES): the server answers with its own topology's, the same as the
/// client would compute here, for the whole machine, for a given cpuset and device type,
/// and an error for a device that does not exist.
#[test]
fn the_server_computes_device_distances_for_a_client() {
    use pmix_core::topology;
    use pmix_core::values::{Cpuset, DeviceDistance};
    let (_s, envs) = job(1);
    let c = Client::connect(Some(envs.into_iter().next().unwrap())).expect("connect");
    let ask = |cpuset: Option<&Cpuset>, dirs: &[Info]| {
        let (tx, rx) = std::sync::mpsc::channel();
        c.compute_distances_nb(
            cpuset,
            dirs,
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )
        .expect("sent");
        rx.recv_timeout(Duration::from_secs(20)).expect("answered")
    };
    let host = pmix_core::net::local_hostname().to_string();
    let here = |cs: &Cpuset, types, ids: &[PStr]| -> pmix_core::Result<Vec<DeviceDistance>> {
        topology::local()?.device_distances(cs, types, ids, &host)
    };
    let machine = Cpuset {
        source: Some(PStr::from("hwloc")),
        bitmap: None,
    };
    assert_eq!(ask(None, &[]), here(&machine, 0, &[]));
    let own = topology::own_cpuset().expect("binding");
    let network = [Info::new(
        key(PMIX_DEVICE_TYPE),
        Value::DevType(PMIX_DEVTYPE_NETWORK),
    )];
    assert_eq!(
        ask(Some(&own), &network),
        here(&own, PMIX_DEVTYPE_NETWORK, &[])
    );
    let nothing = [Info::new(
        key(PMIX_DEVICE_ID),
        Value::String(Some(PStr::from("no-such-device"))),
    )];
    let got = ask(None, &nothing);
    assert!(got.is_err(), "{got:?}");
    assert_eq!(got, here(&machine, 0, &[PStr::from("no-such-device")]));
    c.finalize().unwrap();
}

/// The commands an OpenPMIx 5.0 client sends for `PMIx_Resolve_peers` (37: a node, none for
/// the server's own, and a namespace, none for every one) and `PMIx_Resolve_nodes` (38: a
/// namespace): answered from the registered job data, `PMIX_ERR_NOT_FOUND` for a namespace
/// the server does not know.
#[test]
fn resolve_commands_of_5_0_clients_are_answered_from_the_job_data() {
    use pmix_core::wire::cmd;
    use pmix_core::wire::msg::{Pack, Unpack};
    let s = TestServer(server::start(Arc::new(NoHost), test_config()).expect("server"));
    let ns = PStr::from("ns");
    let here = pmix_core::net::local_hostname();
    // Ranks 0 and 2 here, 1 and 3 on node "other".
    let rank = |r: u32, host: &PStr| {
        Value::DataArray(Box::new(pmix_core::values::DataArray {
            ty: PMIX_INFO,
            items: vec![
                Value::Info(Box::new(Info::new(key(PMIX_RANK), Value::ProcRank(r)))),
                Value::Info(Box::new(Info::new(
                    key(PMIX_HOSTNAME),
                    Value::String(Some(host.clone())),
                ))),
            ],
        }))
    };
    let other = PStr::from("other");
    let mut info = vec![Info::new(key(PMIX_JOB_SIZE), Value::Uint32(4))];
    for r in 0..4 {
        let host = if r % 2 == 0 { &here } else { &other };
        info.push(Info::new(key(PMIX_PROC_DATA), rank(r, host)));
    }
    s.register_nspace(&ns, 2, &info).expect("register");
    let env = register_rank(&s, 0);
    let c = Client::connect(Some(env)).expect("connect");
    let mode = c.buffer_type();
    let peers = |node: Option<&str>, nspace: Option<&str>| {
        let mut p = Pack::cmd(mode, cmd::RESOLVE_PEERS);
        p.string(node.map(str::as_bytes))
            .string(nspace.map(str::as_bytes));
        let reply = c.request_raw(p.into_bytes()).expect("reply");
        let mut u = Unpack::new(mode, &reply);
        let status = u.status().expect("status");
        let procs = if status == PMIX_SUCCESS {
            u.procs().expect("procs")
        } else {
            Vec::new()
        };
        (status, procs)
    };
    let ranks = |v: Vec<u32>| {
        v.into_iter()
            .map(|r| Proc::new("ns", r))
            .collect::<Vec<_>>()
    };
    assert_eq!(peers(None, Some("ns")), (PMIX_SUCCESS, ranks(vec![0, 2])));
    assert_eq!(
        peers(Some(here.to_string().as_str()), Some("ns")),
        (PMIX_SUCCESS, ranks(vec![0, 2]))
    );
    assert_eq!(
        peers(Some("other"), None),
        (PMIX_SUCCESS, ranks(vec![1, 3]))
    );
    assert_eq!(
        peers(Some("nowhere"), Some("ns")),
        (PMIX_SUCCESS, Vec::new())
    );
    assert_eq!(peers(None, Some("no-such-ns")).0, PMIX_ERR_NOT_FOUND);
    let nodes = |nspace: Option<&str>| {
        let mut p = Pack::cmd(mode, cmd::RESOLVE_NODE);
        p.string(nspace.map(str::as_bytes));
        let reply = c.request_raw(p.into_bytes()).expect("reply");
        let mut u = Unpack::new(mode, &reply);
        let status = u.status().expect("status");
        let list = if status == PMIX_SUCCESS {
            u.string().expect("list").map(|s| s.to_string())
        } else {
            None
        };
        (status, list)
    };
    assert_eq!(
        nodes(Some("ns")),
        (PMIX_SUCCESS, Some(format!("{here},other")))
    );
    assert_eq!(nodes(Some("no-such-ns")).0, PMIX_ERR_NOT_FOUND);
    c.finalize().expect("finalize");
}

/// Command 33, which an OpenPMIx 5.0 client sends for a `PMIx_Get` with
/// `PMIX_GET_REFRESH_CACHE` (a namespace and a rank): a status, then every KVAL the server
/// holds of that process, its committed data among them; `PMIX_ERR_NOT_FOUND` for a
/// namespace the server does not know.
#[test]
fn refresh_cache_requests_of_5_0_clients_get_the_processes_data() {
    use pmix_core::wire::cmd;
    use pmix_core::wire::msg::{Pack, Unpack};
    let (_s, envs) = job(2);
    let clients: Vec<Arc<Client>> = envs
        .into_iter()
        .map(|e| Arc::new(Client::connect(Some(e)).expect("connect")))
        .collect();
    assert_eq!(exchange(&clients).len(), 2);
    let c = &clients[1];
    let mode = c.buffer_type();
    let refresh = |ns: &str, rank: u32| {
        let mut p = Pack::cmd(mode, cmd::REFRESH_CACHE);
        p.string(Some(ns.as_bytes())).rank(rank);
        let reply = c.request_raw(p.into_bytes()).expect("reply");
        let mut u = Unpack::new(mode, &reply);
        let status = u.status().expect("status");
        (status, u.kvals_to_end().expect("kvals"))
    };
    let (status, kvals) = refresh("ns", 0);
    assert_eq!(status, PMIX_SUCCESS);
    let k = kvals.iter().find(|kv| kv.key.as_bytes() == b"k");
    assert_eq!(
        k.map(|kv| &kv.value),
        Some(&Value::Uint32(100)),
        "{kvals:?}"
    );
    assert_eq!(refresh("no-such-ns", 0).0, PMIX_ERR_NOT_FOUND);
    for c in &clients {
        c.finalize().unwrap();
    }
}

/// Counts the connect and disconnect upcalls it gets, and completes each at once.
#[derive(Default)]
struct ConnectCountingHost {
    calls: Mutex<Vec<&'static str>>,
}

impl pmix_core::host::Host for ConnectCountingHost {
    fn provides(&self, upcall: pmix_core::host::Upcall) -> bool {
        use pmix_core::host::Upcall;
        matches!(upcall, Upcall::Connect | Upcall::Disconnect)
    }
    fn connect(&self, _procs: &[Proc], _info: &[Info], done: pmix_core::host::Done<()>) {
        self.calls.lock().unwrap().push("connect");
        done(Ok(()))
    }
    fn disconnect(&self, _procs: &[Proc], _info: &[Info], done: pmix_core::host::Done<()>) {
        self.calls.lock().unwrap().push("disconnect");
        done(Ok(()))
    }
}

/// Job "ns" of `size` ranks, of which ranks 0..local run here, on a server with `host`; the
/// local ranks connect and then disconnect (all of "ns"), one thread each. Returns what the
/// host was asked.
fn connect_all_of_ns(host: Arc<ConnectCountingHost>, size: u32, local: u32) -> Vec<&'static str> {
    let s = TestServer(server::start(host.clone(), test_config()).expect("server"));
    let peers = (0..local)
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let info = vec![
        Info::new(key(PMIX_JOB_SIZE), Value::Uint32(size)),
        Info::new(key(PMIX_LOCAL_SIZE), Value::Uint32(local)),
        Info::new(key(PMIX_LOCAL_PEERS), Value::String(Some(peers.into()))),
    ];
    s.register_nspace(&PStr::from("ns"), local, &info)
        .expect("register");
    let clients: Vec<Arc<Client>> = (0..local)
        .map(|r| Arc::new(Client::connect(Some(register_rank(&s, r))).expect("connect")))
        .collect();
    let threads: Vec<_> = clients
        .iter()
        .cloned()
        .map(|c| {
            let all = [Proc::new("ns", PMIX_RANK_WILDCARD)];
            std::thread::spawn(move || {
                c.connect_procs(&all, &[])?;
                c.disconnect_procs(&all, &[])
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap().expect("connect and disconnect succeed");
    }
    for c in &clients {
        c.finalize().unwrap();
    }
    host.calls.lock().unwrap().clone()
}

#[test]
fn a_connect_of_local_clients_only_completes_without_the_host() {
    // As OpenPMIx 4.2 and 5.0 do (their trackers' "local" flag): PRRTE's connect upcall,
    // called needlessly, asked for every participant's data and logged an unpack error.
    let host = Arc::new(ConnectCountingHost::default());
    assert_eq!(connect_all_of_ns(host, 2, 2), Vec::<&str>::new());
    // With a rank on another node, the host is asked, once for both local clients.
    let host = Arc::new(ConnectCountingHost::default());
    assert_eq!(connect_all_of_ns(host, 3, 2), ["connect", "disconnect"]);
}

/// The MCA parameter `gds` selects the job-data components the clients are offered, as
/// OpenPMIx's `PMIX_MCA_gds` does (`make prrte`'s mca-pmix-* compare it under prterun):
/// "hash" alone, or an exclusion; "hash" is always there. A client offered "hash" only
/// still gets its job data.
#[test]
fn the_gds_parameter_selects_what_clients_are_offered() {
    use pmix_core::server::mca_selects;
    assert!(mca_selects(None, "rsshm"));
    assert!(mca_selects(Some(""), "ds21"));
    assert!(mca_selects(Some("hash"), "hash"));
    assert!(!mca_selects(Some("hash"), "rsshm"));
    assert!(mca_selects(Some("ds21, hash"), "ds21"));
    assert!(!mca_selects(Some("^rsshm,ds21"), "ds21"));
    assert!(mca_selects(Some("^rsshm"), "ds21"));
    let gds_of = |cfg: ServerConfig| {
        let s = job_unregistered(1, cfg);
        let env = register_rank(&s, 0);
        let gds = s
            .setup_fork(&Proc::new("ns", 0))
            .into_iter()
            .find(|(k, _)| k == "PMIX_GDS_MODULE")
            .map(|(_, v)| v);
        let c = Client::connect(Some(env)).expect("client");
        assert_eq!(wildcard_job_size(&c), Some(1));
        c.finalize().unwrap();
        gds
    };
    let hash_only = ServerConfig {
        rsshm: false,
        ds21: false,
        ..test_config()
    };
    assert_eq!(gds_of(hash_only).as_deref(), Some("hash"));
    let all = ServerConfig {
        rsshm: true,
        ds21: false,
        ..test_config()
    };
    assert_eq!(gds_of(all).as_deref(), Some("rsshm,hash"));
}

/// What a server process writes of its jobs' output to files (`PMIX_OUTPUT_TO_FILE` given at
/// registration, as PRRTE's `--output file=`) stays in one file per rank and channel, tagged
/// as registered, not copied to the terminal; one job ending leaves the other's files open
/// (they used to be closed, and then truncated at the next write).
#[test]
fn local_output_to_files_survives_another_job_ending() {
    let s = TestServer(server::start(Arc::new(NoHost), test_config()).expect("server"));
    let dir = std::env::temp_dir().join(format!("pmix-localout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let base = dir.join("o");
    for ns in ["a", "b"] {
        s.register_nspace(
            &PStr::from(ns),
            1,
            &[
                Info::new(key(PMIX_JOB_SIZE), Value::Uint32(1)),
                Info::new(key(PMIX_IOF_TAG_OUTPUT), Value::Bool(true)),
                Info::new(
                    key(PMIX_OUTPUT_TO_FILE),
                    Value::String(Some(PStr::from(base.to_str().unwrap()))),
                ),
            ],
        )
        .expect("register");
    }
    let out = PMIX_FWD_STDOUT_CHANNEL;
    let none = |_: &Proc| (String::new(), String::new());
    s.iof_write_local(&Proc::new("a", 0), out, b"a1\n", &[], &none);
    s.iof_write_local(&Proc::new("b", 0), out, b"b1\n", &[], &none);
    s.deregister_nspace(&PStr::from("a"));
    s.iof_write_local(&Proc::new("b", 0), out, b"b2\n", &[], &none);
    let read = |ns: &str| std::fs::read_to_string(dir.join(format!("o.{ns}.0.out"))).unwrap();
    assert_eq!(read("a"), "[a,0]<stdout>: a1\n");
    assert_eq!(read("b"), "[b,0]<stdout>: b1\n[b,0]<stdout>: b2\n");
    let _ = std::fs::remove_dir_all(&dir);
}
