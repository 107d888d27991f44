//! The client role: one connection to the local server, the datastore of what this process
//! knows, and every client request of the protocol (section 2).
//!
//! Threads: API calls run on the caller's thread. `get` of data held locally is answered
//! there from the datastore (a read lock, no hop to the progress thread). Everything that
//! talks to the server goes through the [`Requester`] on the progress thread; blocking calls
//! wait for their reply there, and refuse (`WouldBlock`) when made on the progress thread
//! itself (from inside a callback). Callbacks of non-blocking calls and event handlers run on
//! the progress thread with no lock of ours held.
//!
//! The rooms, one per chapter of the standard: `sharing`, `publish`, `process`, `events`, `job`, `security`, `fabric`, `groups`, `iof`. This file
//! holds the connection (connect, the handshake, requests and replies) and finalize.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use pmix_sys::*;

use crate::codec::BufferType;
use crate::datastore::ClientStore;
use crate::datastore::gds::{
    GDS_SHM, MSEG_GEN_KEY, MSEG_PATH_KEY, REQ_INLINE, SEG_GEN_KEY, SEG_PATH_KEY,
};
use crate::events::{Event, Pump, Registry};
use crate::net::Stream;
use crate::progress::{Progress, Reactor};
use crate::requester::{Reply, Requester};
use crate::values::{Info, Kval, PStr, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::wire::{Hello, PeerKind, ServerUri, cmd};
use crate::{Error, Result};
use iof::{IofTable, deliver_iof};

pub use iof::IofHandler;

mod events;
mod fabric;
mod groups;
mod iof;
mod job;
mod process;
mod publish;
mod security;
mod sharing;

/// How long `finalize` waits for the server's answer (the reference's 2 s).
const FINALIZE_WAIT: Duration = Duration::from_secs(2);

/// How much longer than `PMIX_TIMEOUT` a client waits for the server's own answer: the
/// server (or its host) applies the timeout and answers as the reference does; the client's
/// limit only covers a server that ignores it.
const TIMEOUT_GRACE: Duration = Duration::from_secs(1);

/// The longest `PMIX_TIMEOUT` honoured (about 136 years); larger values would overflow the
/// clock arithmetic.
const MAX_TIMEOUT_SECS: u64 = u32::MAX as u64;

/// How long the handshake may take.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(30);

/// Callback of a non-blocking request: runs on the progress thread.
pub type Done<T> = Box<dyn FnOnce(Result<T>) + Send>;

/// Where a client finds its server, from the environment `PMIx_server_setup_fork` made.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientEnv {
    pub me: Proc,
    pub uri: ServerUri,
    pub mode: BufferType,
    /// The server offered gds "rsshm" (`PMIX_GDS_MODULE` names it): the client declares it
    /// and maps the job-data segment the server names.
    pub gds_shm: bool,
    /// The server announced OpenPMIx 5 or later (`PMIX_VERSION`, which its
    /// `PMIx_server_setup_fork` sets): group messages carry the membership.
    pub server_v5: bool,
}

impl ClientEnv {
    /// Reads the environment: `None` when no namespace is set (a singleton), an error when
    /// it is set but incomplete.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<ClientEnv>> {
        let Some(ns) = get("PMIX_NAMESPACE") else {
            return Ok(None);
        };
        let rank: u32 = get("PMIX_RANK")
            .ok_or(Error::BadParam)?
            .trim()
            .parse()
            .map_err(|_| Error::BadParam)?;
        let uri = crate::wire::uri::URI_VARS
            .iter()
            .find_map(|v| get(v))
            .ok_or(Error::Unreach)?;
        Ok(Some(ClientEnv {
            me: Proc::new(ns, rank),
            uri: ServerUri::parse(&uri)?.with_unix(get(crate::net::UNIX_ENV)),
            mode: BufferType::from_env_value(
                get(crate::codec::BUFFER_TYPE_ENV)
                    .as_deref()
                    .map(str::as_bytes),
            ),
            gds_shm: get("PMIX_GDS_MODULE")
                .is_some_and(|l| l.split(',').any(|g| g.trim() == GDS_SHM)),
            server_v5: get("PMIX_VERSION").is_some_and(|v| crate::wire::is_v5(v.as_bytes())),
        }))
    }
}

/// An initialized client.
pub struct Client {
    pub me: Proc,
    pub server: Proc,
    mode: BufferType,
    conn: Option<Requester>,
    store: Arc<RwLock<ClientStore>>,
    puts: Mutex<Vec<(pmix_scope_t, Kval)>>,
    pub events: Arc<Registry>,
    pump: Pump,
    iof: Arc<Mutex<IofTable>>,
    finalized: AtomicBool,
    /// The modex segment of my namespace ("rsshm"): local peers' committed data, read on
    /// the caller's thread before asking the server.
    modex: Option<crate::datastore::segment::ModexReader>,
    /// Connected through the server's Unix socket (not TCP).
    unix: bool,
    /// The server announced OpenPMIx 5 or later ([`ClientEnv::server_v5`]): group messages
    /// carry the membership, and a refreshing `PMIx_Get` is its own command.
    server_v5: bool,
    /// The groups this process constructed, with their members: a server of OpenPMIx's 5
    /// generation keeps no record of them, and its group destruct wants them named.
    groups: Arc<Mutex<std::collections::HashMap<Vec<u8>, Vec<Proc>>>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("me", &self.me).finish()
    }
}

/// Connects and performs the client handshake; returns the socket.
fn handshake(env: &ClientEnv) -> Result<Stream> {
    let mut s = Stream::connect(&env.uri, HANDSHAKE_WAIT).map_err(|_| Error::Unreach)?;
    s.set_read_timeout(Some(HANDSHAKE_WAIT)).ok();
    let mut hello = Hello::ours(
        PeerKind::SimpleClient,
        Some(env.me.clone()),
        env.mode,
        Vec::new(),
    );
    if env.gds_shm {
        hello = hello.with_gds(GDS_SHM);
    }
    s.write_all(&hello.encode()).map_err(|_| Error::Unreach)?;
    let mut st = [0u8; 4];
    s.read_exact(&mut st).map_err(|_| Error::Unreach)?;
    let status = i32::from_be_bytes(st);
    if status != PMIX_SUCCESS {
        return Err(Error::from_status(status).unwrap_or(Error::Unreach));
    }
    let mut idx = [0u8; 4];
    s.read_exact(&mut idx).map_err(|_| Error::Unreach)?;
    s.set_read_timeout(None).ok();
    Ok(s)
}

/// The requests and replies of a client's connection to its server, on a progress thread
/// of its own.
fn requester(sock: Stream) -> Result<Requester> {
    let progress = Arc::new(Progress::start_polling(
        "pmix-progress",
        crate::progress::poll_window(crate::progress::CLIENT_POLL_US),
    )?);
    Requester::start(
        progress,
        sock,
        Box::new(crate::wire::WireFraming::default()),
        crate::wire::peer_frame,
    )
}

/// How long a singleton waits for a system server's answer before it runs unconnected.
const SYSTEM_SERVER_WAIT: Duration = Duration::from_secs(5);

/// The system server a singleton `me` connects to, as OpenPMIx's clients (4.2 and 5.0) find
/// one: `pmix.sys.<host>` in the system tmpdir (`$PMIX_SYSTEM_TMPDIR`, else `$TMPDIR`, ...,
/// else `/tmp`, as a tool looks), and a
/// handshake with flag 9 naming `me`, its pid and command line. A 5.0 server (or ours) takes
/// it as a client when its host registered `me`'s namespace, and closes the connection
/// otherwise; a 4.2 server answers as to a tool. `None`: no such server, or it did not take
/// us. **Difference:** only a file owned by root or by this process's user is believed (the
/// reference reads any file there, so in a shared `/tmp` another user could plant one and
/// receive what the singleton puts).
fn system_server(me: &Proc) -> Option<(Stream, Proc)> {
    let dir = crate::rendezvous::system_tmpdir(&[]);
    let path = dir.join(format!("pmix.sys.{}", crate::net::local_hostname()));
    if !crate::rendezvous::made_by_root_self_or(&path, None) {
        return None;
    }
    let found = crate::rendezvous::read(&path).ok()?;
    let uri = found.server_uri().ok()?;
    let mut s = Stream::connect(&uri, SYSTEM_SERVER_WAIT).ok()?;
    s.set_read_timeout(Some(SYSTEM_SERVER_WAIT)).ok();
    let hello = Hello::ours(
        PeerKind::SingletonClient,
        Some(me.clone()),
        BufferType::from_env_value(None),
        crate::wire::handshake::own_process_info(),
    );
    s.write_all(&hello.encode()).ok()?;
    let mut st = [0u8; 4];
    s.read_exact(&mut st).ok()?;
    if i32::from_be_bytes(st) != PMIX_SUCCESS {
        return None;
    }
    // A 5.0 server (and ours) answers flag 9 as a client's handshake: the status and our
    // index (network order: its first byte is 0). A 4.2 server answers as a tool's: the
    // status, then its own namespace (never empty), rank and credential status.
    let mut b = [0u8; 4];
    s.read_exact(&mut b).ok()?;
    if b[0] != 0 {
        let rest = crate::wire::handshake::ToolReply::rest_len(PeerKind::SingletonClient);
        let mut tail = vec![0u8; rest - b.len()];
        s.read_exact(&mut tail).ok()?;
    }
    s.set_read_timeout(None).ok();
    Some((s, Proc::new(uri.nspace.clone(), uri.rank)))
}

/// A segment's path and generation from a pair of REQ reply KVALs with these keys.
fn seg_pair<'a>(
    path: &'a Kval,
    generation: &Kval,
    keys: (&[u8], &[u8]),
) -> Option<(&'a [u8], u64)> {
    match (path, generation) {
        (
            Kval {
                key: pk,
                value: Value::String(Some(p)),
            },
            Kval {
                key: gk,
                value: Value::Uint64(g),
            },
        ) if pk.as_bytes() == keys.0 && gk.as_bytes() == keys.1 => Some((p.as_bytes(), *g)),
        _ => None,
    }
}

/// A segment named by a REQ reply: its path and generation.
type SegRef<'a> = (&'a [u8], u64);

/// The segments a REQ reply names instead of carrying the job data ("rsshm" peers): the
/// job-data segment's path and generation, and the modex segment's when the server made
/// one.
fn segment_ref(kvals: &[Kval]) -> Option<(SegRef<'_>, Option<SegRef<'_>>)> {
    match kvals {
        [p, g] => Some((seg_pair(p, g, (SEG_PATH_KEY, SEG_GEN_KEY))?, None)),
        [p, g, mp, mg] => Some((
            seg_pair(p, g, (SEG_PATH_KEY, SEG_GEN_KEY))?,
            Some(seg_pair(mp, mg, (MSEG_PATH_KEY, MSEG_GEN_KEY))?),
        )),
        _ => None,
    }
}

fn status_result(s: pmix_status_t) -> Result<()> {
    match s {
        PMIX_SUCCESS | PMIX_OPERATION_SUCCEEDED => Ok(()),
        e => Err(Error::from_status(e).unwrap_or(Error::Status(e))),
    }
}

/// Reads a reply that is a status followed by `SIZE n` and n infos (query, job control,
/// ...). The infos may be absent after an error.
fn status_infos(mode: BufferType, reply: &[u8]) -> Result<(pmix_status_t, Vec<Info>)> {
    if reply.is_empty() {
        return Err(Error::Unreach);
    }
    let mut u = Unpack::new(mode, reply);
    let st = u.status()?;
    let infos = if u.at_end() {
        Vec::new()
    } else {
        u.infos().unwrap_or_default()
    };
    Ok((st, infos))
}

impl Client {
    /// Connects to the server named by `env`, or sets up a singleton when `env` is `None`.
    pub fn connect(env: Option<ClientEnv>) -> Result<Client> {
        let Some(env) = env else {
            let mut client = Client::singleton();
            if let Some((sock, server)) = system_server(&client.me) {
                // a server that took us and then cannot be served leaves us unconnected
                let _ = client.attach(sock, server);
            }
            return Ok(client);
        };
        let sock = handshake(&env)?;
        let mut client = Client::start(
            sock,
            env.me.clone(),
            Proc::new(env.uri.nspace.clone(), env.uri.rank),
            env.mode,
            env.gds_shm,
            true,
        )?;
        client.server_v5 = env.server_v5;
        Ok(client)
    }

    /// Takes over a connection whose handshake is done (a client's or a tool's), asks for
    /// the job data and returns the connected role.
    pub fn adopt(sock: Stream, me: Proc, server: Proc, mode: BufferType) -> Result<Client> {
        Client::start(sock, me, server, mode, false, false)
    }

    /// [`Client::adopt`]; `shm`: the handshake declared gds "rsshm", so the REQ reply may
    /// name a segment to map instead of carrying the job data. `own_ns`: the REQ reply must
    /// be for `me`'s namespace (a client's). A tool that named itself may be answered for
    /// the namespace its server's host put it in (a host's `tool_connected` can give the
    /// tool another identity): OpenPMIx's tools take that job data, and so do ours.
    fn start(
        sock: Stream,
        me: Proc,
        server: Proc,
        mode: BufferType,
        shm: bool,
        own_ns: bool,
    ) -> Result<Client> {
        let unix = sock.is_unix();
        let conn = requester(sock)?;
        let events = Arc::new(Registry::default());
        let store = Arc::new(RwLock::new(ClientStore::new(me.clone())));
        let mut client = Client {
            me,
            server,
            mode,
            conn: Some(conn),
            store,
            puts: Mutex::new(Vec::new()),
            pump: Pump::start(events.clone()),
            events,
            iof: Arc::new(Mutex::new(IofTable::default())),
            finalized: AtomicBool::new(false),
            modex: None,
            unix,
            server_v5: false,
            groups: Arc::default(),
        };
        client.install_event_receiver();
        // The job data.
        let reply = client.request(Pack::cmd(mode, cmd::REQ).into_bytes(), None)?;
        let mut u = Unpack::new(mode, &reply);
        // A reply that is only a status is an error from the server.
        let ns = match u.string() {
            Ok(Some(ns)) => ns,
            _ => {
                let mut u = Unpack::new(mode, &reply);
                return Err(u
                    .status()
                    .ok()
                    .and_then(Error::from_status)
                    .unwrap_or(Error::UnpackFailure));
            }
        };
        if own_ns && ns != client.me.nspace {
            return Err(Error::UnpackFailure);
        }
        let kvals = u.kvals_to_end()?;
        match segment_ref(&kvals).filter(|_| shm) {
            Some(((path, generation), modex)) => {
                client.ingest_segment(&ns, path, generation)?;
                // Without the modex segment, every first Get of a peer's key asks the server.
                client.modex = modex.and_then(|(path, generation)| {
                    use std::os::unix::ffi::OsStrExt;
                    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
                    crate::datastore::segment::ModexReader::open(path, generation).ok()
                });
            }
            None => client.store.write().ingest_job(mode, &ns, kvals)?,
        }
        Ok(client)
    }

    /// Maps the job-data segment the server named and takes the job data from it; when it
    /// cannot be mapped (another user's file, removed, damaged), asks the server for the
    /// job data inline, as a "hash" client receives it.
    fn ingest_segment(&self, ns: &PStr, path: &[u8], generation: u64) -> Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let path = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
        let mapped = crate::datastore::segment::Segment::open(path, generation, self.mode)
            .and_then(|seg| self.store.write().ingest_segment(ns, Arc::new(seg)));
        if mapped.is_ok() {
            return Ok(());
        }
        let mut p = Pack::cmd(self.mode, cmd::REQ);
        p.string(Some(REQ_INLINE));
        let reply = self.request(p.into_bytes(), None)?;
        let mut u = Unpack::new(self.mode, &reply);
        if u.string()?.as_ref() != Some(ns) {
            return Err(Error::UnpackFailure);
        }
        let kvals = u.kvals_to_end()?;
        if segment_ref(&kvals).is_some() {
            return Err(Error::UnpackFailure);
        }
        self.store.write().ingest_job(self.mode, ns, kvals)
    }

    /// A process without a server: it knows only itself.
    fn singleton() -> Client {
        let host = crate::net::local_hostname();
        let me = Proc::new(format!("singleton.{}.{}", host, std::process::id()), 0);
        let mut store = ClientStore::new(me.clone());
        let kv = |k: &core::ffi::CStr, v: Value| Kval {
            key: PStr::from(k.to_bytes()),
            value: v,
        };
        let job = vec![
            kv(PMIX_JOB_SIZE, Value::Uint32(1)),
            kv(PMIX_UNIV_SIZE, Value::Uint32(1)),
            kv(PMIX_MAX_PROCS, Value::Uint32(1)),
            kv(PMIX_LOCAL_SIZE, Value::Uint32(1)),
            kv(PMIX_NODE_SIZE, Value::Uint32(1)),
            kv(PMIX_LOCAL_PEERS, Value::String(Some("0".into()))),
            kv(PMIX_LOCALLDR, Value::ProcRank(0)),
            kv(PMIX_NUM_NODES, Value::Uint32(1)),
            kv(PMIX_NODE_LIST, Value::String(Some(host.clone()))),
            kv(PMIX_HOSTNAME, Value::String(Some(host))),
            kv(PMIX_NODEID, Value::Uint32(0)),
            kv(PMIX_APPNUM, Value::Uint32(0)),
            kv(PMIX_JOBID, Value::String(Some(me.nspace.clone()))),
        ];
        let _ = store.ingest_job(BufferType::NonDesc, &me.nspace.clone(), job);
        for (k, v) in [
            (PMIX_RANK, Value::ProcRank(0)),
            (PMIX_LOCAL_RANK, Value::Uint16(0)),
            (PMIX_NODE_RANK, Value::Uint16(0)),
            (PMIX_APP_RANK, Value::ProcRank(0)),
            (PMIX_GLOBAL_RANK, Value::ProcRank(0)),
            (PMIX_PROCID, Value::Proc(me.clone())),
        ] {
            store.store(&me, PStr::from(k.to_bytes()), v);
        }
        let events = Arc::new(Registry::default());
        Client {
            server: Proc::new("", PMIX_RANK_UNDEF),
            me,
            mode: BufferType::NonDesc,
            conn: None,
            store: Arc::new(RwLock::new(store)),
            puts: Mutex::new(Vec::new()),
            pump: Pump::start(events.clone()),
            events,
            iof: Arc::new(Mutex::new(IofTable::default())),
            finalized: AtomicBool::new(false),
            modex: None,
            unix: false,
            server_v5: false,
            groups: Arc::default(),
        }
    }

    /// Gives a singleton the connection to the system server that took it (handshake
    /// flag 9): from then on it is a client of its own namespace there, and keeps the job
    /// data it made for itself, as OpenPMIx 5.0.11's connected singletons do.
    fn attach(&mut self, sock: Stream, server: Proc) -> Result<()> {
        self.conn = Some(requester(sock)?);
        self.server = server;
        self.install_event_receiver();
        Ok(())
    }

    /// The client side of a server process: no connection, only what the process stores
    /// (`PMIx_Store_internal`) and the job data its server registers, so that `PMIx_Get`
    /// works in the host as it does with the reference.
    pub fn local(me: Proc) -> Client {
        let events = Arc::new(Registry::default());
        Client {
            server: me.clone(),
            store: Arc::new(RwLock::new(ClientStore::new(me.clone()))),
            me,
            mode: BufferType::NonDesc,
            conn: None,
            puts: Mutex::new(Vec::new()),
            pump: Pump::start(events.clone()),
            events,
            iof: Arc::new(Mutex::new(IofTable::default())),
            finalized: AtomicBool::new(false),
            modex: None,
            unix: false,
            server_v5: false,
            groups: Arc::default(),
        }
    }

    /// Whether this client reached its server through the server's Unix socket.
    pub fn via_unix_socket(&self) -> bool {
        self.unix
    }

    /// Adds a namespace's job data (a server process learning what its host registered).
    pub fn ingest_job(&self, nspace: &PStr, kvals: Vec<Kval>) -> Result<()> {
        self.store
            .write()
            .ingest_job(BufferType::NonDesc, nspace, kvals)
    }

    /// Adds a namespace's job data held in a segment (the server process's own role
    /// sharing its job record's encoded data, `Server::share_job`).
    pub(crate) fn ingest_job_segment(
        &self,
        nspace: &PStr,
        seg: Arc<crate::datastore::segment::Segment>,
    ) -> Result<()> {
        self.store.write().ingest_segment(nspace, seg)
    }

    /// Forgets a namespace.
    pub fn forget_job(&self, nspace: &PStr) {
        self.store.write().remove_nspace(nspace);
    }

    /// Whether the process runs without a server.
    pub fn is_singleton(&self) -> bool {
        self.conn.is_none()
    }

    /// Whether the connection to the server is up (never after `finalize`).
    pub fn connected(&self) -> bool {
        !self.finalized.load(Ordering::SeqCst)
            && self.conn.as_ref().is_some_and(Requester::connected)
    }

    /// The connection for a request: `Unreach` without one, or after `finalize` (a tool
    /// whose primary server was disconnected).
    fn conn(&self) -> Result<&Requester> {
        if self.finalized.load(Ordering::SeqCst) {
            return Err(Error::Unreach);
        }
        self.conn.as_ref().ok_or(Error::Unreach)
    }

    /// Sends one request as it is given (a command byte and its payload, packed in this
    /// connection's buffer type, [`Client::buffer_type`]) and returns the server's reply:
    /// for tests that speak the protocol's commands directly.
    #[doc(hidden)]
    pub fn request_raw(&self, payload: Vec<u8>) -> Result<Vec<u8>> {
        self.request(payload, None)
    }

    /// The buffer type this connection packs in.
    #[doc(hidden)]
    pub fn buffer_type(&self) -> BufferType {
        self.mode
    }

    fn request(&self, payload: Vec<u8>, timeout: Option<Duration>) -> Result<Vec<u8>> {
        let reply = self.conn()?.request(payload, timeout)?;
        if reply.is_empty() {
            return Err(Error::Unreach);
        }
        Ok(reply)
    }

    fn request_nb(
        &self,
        payload: Vec<u8>,
        done: impl FnOnce(Reply) + Send + 'static,
    ) -> Result<()> {
        self.conn()?.request_nb(
            payload,
            Box::new(move |_r: &mut Reactor, reply: Reply| {
                done(reply.and_then(|b| {
                    if b.is_empty() {
                        Err(Error::Unreach)
                    } else {
                        Ok(b)
                    }
                }))
            }),
        )
    }

    /// Runs `f` on the progress thread, or, for a singleton without one, on a thread of its
    /// own: never inside the caller's call, where a callback that takes a lock the caller
    /// holds around the call would deadlock (the reference never calls back from inside a
    /// non-blocking call either).
    pub fn post(&self, f: impl FnOnce() + Send + 'static) -> Result<()> {
        match &self.conn {
            Some(c) => c.progress().post(move |_| f()),
            // Without a thread, an error: the caller then expects no callback.
            None => std::thread::Builder::new()
                .name("pmix-callback".into())
                .spawn(f)
                .map(drop)
                .map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE)),
        }
    }

    fn install_event_receiver(&self) {
        let Some(conn) = &self.conn else { return };
        let events = self.pump.clone();
        let mode = self.mode;
        let iof = self.iof.clone();
        let store = self.store.clone();
        conn.on_unsolicited(Box::new(move |_r, msg| {
            if msg.tag == crate::wire::TAG_IOF {
                deliver_iof(&events, &iof, &store, mode, msg.payload);
                return;
            }
            if msg.tag != crate::wire::TAG_NOTIFY {
                return;
            }
            let mut u = Unpack::new(mode, msg.payload);
            let parsed = (|| -> Result<Event> {
                if u.cmd()? != cmd::NOTIFY {
                    return Err(Error::UnpackFailure);
                }
                let code = u.status()?;
                let source = u.proc()?;
                let info = u.infos()?;
                let range = u.range().unwrap_or(PMIX_RANGE_UNDEF);
                Ok(Event {
                    code,
                    source,
                    range,
                    info,
                })
            })();
            if let Ok(ev) = parsed {
                events.send(ev);
            }
        }));
        let events = self.pump.clone();
        let server = self.server.clone();
        conn.on_lost(move |_r, _why| {
            events.send_if_handled(Event {
                code: PMIX_ERR_LOST_CONNECTION,
                source: server,
                range: PMIX_RANGE_PROC_LOCAL,
                info: Vec::new(),
            });
        });
    }

    fn timeout_of(info: &[Info]) -> Option<Duration> {
        info.iter()
            .find(|i| i.is(PMIX_TIMEOUT))
            .and_then(|i| i.value.as_u64())
            .filter(|&t| t > 0)
            .map(|t| Duration::from_secs(t.min(MAX_TIMEOUT_SECS)) + TIMEOUT_GRACE)
    }

    /// A request answered by a status alone, blocking.
    fn status_request(&self, payload: Vec<u8>, timeout: Option<Duration>) -> Result<()> {
        let reply = self.request(payload, timeout)?;
        status_result(Unpack::new(self.mode, &reply).status()?)
    }

    /// A request answered by a status alone, non-blocking.
    fn status_request_nb(&self, payload: Vec<u8>, done: Done<()>) -> Result<()> {
        let mode = self.mode;
        self.request_nb(payload, move |r| {
            done(r.and_then(|b| status_result(Unpack::new(mode, &b).status()?)))
        })
    }

    /// A request answered by a status and infos, blocking.
    fn infos_request(
        &self,
        payload: Vec<u8>,
        timeout: Option<Duration>,
    ) -> Result<(pmix_status_t, Vec<Info>)> {
        let reply = self.request(payload, timeout)?;
        status_infos(self.mode, &reply)
    }

    /// A request answered by a status and infos, non-blocking.
    fn infos_request_nb(
        &self,
        payload: Vec<u8>,
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mode = self.mode;
        self.request_nb(payload, move |r| {
            done(r.and_then(|b| status_infos(mode, &b)))
        })
    }

    /// `PMIx_Finalize`: tells the server (waiting at most 2 s) and closes the connection.
    pub fn finalize(&self) -> Result<()> {
        if self.finalized.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        if let Some(conn) = &self.conn {
            if conn.connected() {
                let _ = conn.request(
                    Pack::cmd(self.mode, cmd::FINALIZE).into_bytes(),
                    Some(FINALIZE_WAIT),
                );
            }
            conn.close();
        }
        Ok(())
    }

    /// The ranks of `nspace` on this node (`PMIx_Resolve_peers` for the local node).
    pub fn local_peers(&self, nspace: &PStr) -> Option<Vec<u32>> {
        self.store.read().local_peers(nspace)
    }

    /// The buffer type of the connection (for callers building payloads).
    pub fn mode(&self) -> BufferType {
        self.mode
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(c) = &self.conn {
            c.close();
        }
    }
}

/// Whether `PMIX_TRACE_CLIENT` asks for a line on stderr per Get (a debugging aid). Read
/// once: looking the environment up on every Get cost about as much as the Get itself.
fn trace_client() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PMIX_TRACE_CLIENT").is_some())
}

/// Messages that expect no reply still need a tag; the reference uses the next request
/// tag. Any tag at or above 100 that the server will not answer works; we use a fixed one
/// the requester never hands out (it wraps before `u32::MAX`).
fn next_oneway_tag() -> u32 {
    u32::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_selects_the_first_uri_and_the_buffer_type() {
        let vars = [
            ("PMIX_NAMESPACE", "ns"),
            ("PMIX_RANK", "3"),
            ("PMIX_SERVER_URI4", "b.1;tcp4://127.0.0.1:2"),
            ("PMIX_SERVER_URI41", "a.1;tcp4://127.0.0.1:1"),
            ("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_FULLY_DESC"),
        ];
        let get = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        };
        let e = ClientEnv::from_env(get).unwrap().unwrap();
        assert_eq!(e.me, Proc::new("ns", 3));
        assert_eq!(e.uri.nspace, "a");
        assert_eq!(e.mode, BufferType::FullyDesc);
        assert_eq!(ClientEnv::from_env(|_| None).unwrap(), None);
        let no_rank = |k: &str| (k == "PMIX_NAMESPACE").then(|| "ns".to_string());
        assert!(ClientEnv::from_env(no_rank).is_err());
    }
}
