//! The client role: one connection to the local server, the datastore of what this process
//! knows, and every client request of the protocol (section 2).
//!
//! Threads: API calls run on the caller's thread. `get` of data held locally is answered
//! there from the datastore (a read lock, no hop to the progress thread). Everything that
//! talks to the server goes through the [`Requester`] on the progress thread; blocking calls
//! wait for their reply there, and refuse (`WouldBlock`) when made on the progress thread
//! itself (from inside a callback). Callbacks of non-blocking calls and event handlers run on
//! the progress thread with no lock of ours held.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use pmix_sys::*;

use crate::codec::BufferType;
use crate::datastore::gds::{
    GDS_SHM, MSEG_GEN_KEY, MSEG_PATH_KEY, REQ_INLINE, SEG_GEN_KEY, SEG_PATH_KEY,
};
use crate::datastore::{ClientStore, GetQuals, Lookup};
use crate::events::{Event, Pump, Registry};
use crate::net::Stream;
use crate::progress::{Progress, Reactor};
use crate::requester::{Reply, Requester};
use crate::values::{App, Info, Kval, PStr, Pdata, Proc, Query, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::wire::{Hello, PeerKind, ServerUri, cmd};
use crate::{Error, Result};

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

/// Receives forwarded output: the registration id, the source, the channel, the bytes
/// (formatted per the registration's attributes) and the attributes that came with them
/// (`PMIX_IOF_COMPLETE` marks the end of a stream; it comes with no bytes).
pub type IofHandler = Arc<dyn Fn(usize, &Proc, pmix_iof_channel_t, &[u8], &[Info]) + Send + Sync>;

/// The IOF registrations of this process, by the id the caller knows.
#[derive(Default)]
struct IofTable {
    next: usize,
    regs: std::collections::HashMap<usize, Arc<IofReg>>,
}

/// One `PMIx_IOF_pull` of this process.
struct IofReg {
    id: usize,
    /// The caller's handler; `None`: this library writes the output to its own
    /// stdout/stderr.
    handler: Option<IofHandler>,
    flags: crate::iof::IofFlags,
    /// The server's id for the registration (0 until it has answered).
    remote: std::sync::atomic::AtomicUsize,
    out: Mutex<IofOut>,
}

/// Output state of a registration; only the event thread touches it.
#[derive(Default)]
struct IofOut {
    lines: std::collections::HashMap<(Proc, pmix_iof_channel_t), crate::iof::LineState>,
    /// Open output files (`None`: it could not be opened; said once).
    files: std::collections::HashMap<std::path::PathBuf, Option<std::fs::File>>,
    /// Formatted output held back by `PMIX_IOF_BUFFERING_SIZE`, in arrival order.
    pending: Vec<(Proc, pmix_iof_channel_t, Vec<u8>)>,
    pending_bytes: usize,
    /// A `PMIX_IOF_BUFFERING_TIME` flush is due.
    timer_armed: bool,
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
            return Ok(Client::singleton());
        };
        let sock = handshake(&env)?;
        let mut client = Client::start(
            sock,
            env.me.clone(),
            Proc::new(env.uri.nspace.clone(), env.uri.rank),
            env.mode,
            env.gds_shm,
        )?;
        client.server_v5 = env.server_v5;
        Ok(client)
    }

    /// Takes over a connection whose handshake is done (a client's or a tool's), asks for
    /// the job data and returns the connected role.
    pub fn adopt(sock: Stream, me: Proc, server: Proc, mode: BufferType) -> Result<Client> {
        Client::start(sock, me, server, mode, false)
    }

    /// [`Client::adopt`]; `shm`: the handshake declared gds "rsshm", so the REQ reply may
    /// name a segment to map instead of carrying the job data.
    fn start(sock: Stream, me: Proc, server: Proc, mode: BufferType, shm: bool) -> Result<Client> {
        let unix = sock.is_unix();
        let progress = Arc::new(Progress::start_polling(
            "pmix-progress",
            crate::progress::poll_window(crate::progress::CLIENT_POLL_US),
        )?);
        let conn = Requester::start(
            progress,
            sock,
            Box::new(crate::wire::WireFraming::default()),
            crate::wire::peer_frame,
        )?;
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
        if ns != client.me.nspace {
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

    // ---- data -------------------------------------------------------------------------

    /// `PMIx_Put`: kept locally (visible to this process's own `get` at once) until
    /// `commit` sends it.
    pub fn put(&self, scope: pmix_scope_t, key: PStr, value: Value) -> Result<()> {
        if key.is_empty() || key.len() > crate::codec::MAX_KEY_LEN {
            return Err(Error::BadParam);
        }
        self.store
            .write()
            .store(&self.me, key.clone(), value.clone());
        self.puts.lock().push((scope, Kval { key, value }));
        Ok(())
    }

    /// `PMIx_Store_internal`.
    pub fn store_internal(&self, proc: &Proc, key: PStr, value: Value) -> Result<()> {
        self.store.write().store(proc, key, value);
        Ok(())
    }

    /// The COMMIT request: LOCAL+GLOBAL values for local peers, REMOTE+GLOBAL for remote
    /// ones (the reference sends GLOBAL values in both buffers; section 2.4).
    fn commit_payload(&self) -> Vec<u8> {
        let puts = std::mem::take(&mut *self.puts.lock());
        let mut p = Pack::cmd(self.mode, cmd::COMMIT);
        for (scope, want) in [
            (PMIX_LOCAL, [PMIX_LOCAL, PMIX_GLOBAL]),
            (PMIX_REMOTE, [PMIX_REMOTE, PMIX_GLOBAL]),
        ] {
            let mut inner = Pack::new(self.mode);
            let mut any = false;
            for (s, kv) in &puts {
                let s = if *s == PMIX_SCOPE_UNDEF {
                    PMIX_GLOBAL
                } else {
                    *s
                };
                if want.contains(&s) {
                    inner.kval(kv);
                    any = true;
                }
            }
            if any {
                p.one(PMIX_SCOPE, Value::Scope(scope));
                p.buffer(self.mode, &inner.into_bytes());
            }
        }
        p.into_bytes()
    }

    /// `PMIx_Commit`.
    pub fn commit(&self) -> Result<()> {
        if self.is_singleton() {
            self.puts.lock().clear();
            return Ok(());
        }
        let reply = self.request(self.commit_payload(), None)?;
        status_result(Unpack::new(self.mode, &reply).status()?)
    }

    fn fence_payload(&self, procs: &[Proc], info: &[Info]) -> Vec<u8> {
        let procs = if procs.is_empty() {
            vec![Proc::new(self.me.nspace.clone(), PMIX_RANK_WILDCARD)]
        } else {
            procs.to_vec()
        };
        let mut p = Pack::cmd(self.mode, cmd::FENCENB);
        p.procs_always(&procs).infos(info);
        p.into_bytes()
    }

    fn timeout_of(info: &[Info]) -> Option<Duration> {
        info.iter()
            .find(|i| i.is(PMIX_TIMEOUT))
            .and_then(|i| i.value.as_u64())
            .filter(|&t| t > 0)
            .map(|t| Duration::from_secs(t.min(MAX_TIMEOUT_SECS)) + TIMEOUT_GRACE)
    }

    /// `PMIx_Fence`.
    pub fn fence(&self, procs: &[Proc], info: &[Info]) -> Result<()> {
        if self.is_singleton() {
            return Ok(());
        }
        let reply = self.request(self.fence_payload(procs, info), Self::timeout_of(info))?;
        status_result(Unpack::new(self.mode, &reply).status()?)
    }

    /// `PMIx_Fence_nb`.
    pub fn fence_nb(&self, procs: &[Proc], info: &[Info], done: Done<()>) -> Result<()> {
        if self.is_singleton() {
            return self.post(move || done(Ok(())));
        }
        let mode = self.mode;
        self.request_nb(self.fence_payload(procs, info), move |r| {
            done(r.and_then(|b| status_result(Unpack::new(mode, &b).status()?)))
        })
    }

    /// Looks `key` up in what this process holds.
    fn lookup_local(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Lookup {
        self.store.read().get(proc, key, q)
    }

    /// A key of another process of my namespace, looked up in the modex segment (what
    /// local processes committed, as the server would send it; the latest values). Not for
    /// a refresh, my own rank (my puts are held here), a special rank, a reserved key, or a
    /// key of another realm.
    fn lookup_modex(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Option<Value> {
        let seg = self.modex.as_ref()?;
        let plain = !q.refresh
            && !q.node_info
            && !q.app_info
            && !q.session_info
            && q.node.is_none()
            && q.app.is_none()
            && proc.rank < PMIX_RANK_VALID
            && proc.rank != self.me.rank
            && !crate::datastore::keys::is_reserved(key)
            && proc.nspace == self.me.nspace;
        if !plain {
            return None;
        }
        seg.find(proc.rank, key)
    }

    fn getnb_payload(&self, proc: &Proc, key: &[u8], info: &[Info], reserved_own: bool) -> Vec<u8> {
        let mut info = info.to_vec();
        if reserved_own && !info.iter().any(|i| i.is(PMIX_IMMEDIATE)) {
            info.push(Info::new(PMIX_IMMEDIATE.to_bytes(), Value::Bool(true)));
        }
        let mut p = Pack::cmd(self.mode, cmd::GETNB);
        p.string(Some(proc.nspace.as_bytes()))
            .rank(proc.rank)
            .infos(&info)
            .string(Some(key));
        p.into_bytes()
    }

    /// What to ask the server for a Get its data here could not answer, and whether that is
    /// a refresh: a 5.0 server answers a refreshing Get with command 33 (a namespace and a
    /// rank: everything it holds of the process), any other Get with GETNB.
    fn get_request(&self, proc: &Proc, key: &[u8], info: &[Info], q: &GetQuals) -> (Vec<u8>, bool) {
        if q.refresh && self.server_v5 {
            let mut p = Pack::cmd(self.mode, cmd::REFRESH_CACHE);
            p.string(Some(proc.nspace.as_bytes())).rank(proc.rank);
            return (p.into_bytes(), true);
        }
        let reserved_own = key.starts_with(b"pmix.") && proc.nspace == self.me.nspace;
        (self.getnb_payload(proc, key, info, reserved_own), false)
    }

    /// Stores the server's answer to [`Client::get_request`].
    fn ingest_reply(
        mode: BufferType,
        store: &RwLock<ClientStore>,
        proc: &Proc,
        reply: &[u8],
        refresh: bool,
    ) -> Result<()> {
        if refresh {
            Self::ingest_refresh_reply(mode, store, proc, reply)
        } else {
            Self::ingest_get_reply(mode, store, reply)
        }
    }

    /// Its reply: a status, then KVALs of the process, which replace what was held. The
    /// status is not read: OpenPMIx 5.0.11's server leaves it unset (garbage such as 32650
    /// was seen), and its own client ignores it too; the lookup that follows decides.
    fn ingest_refresh_reply(
        mode: BufferType,
        store: &RwLock<ClientStore>,
        proc: &Proc,
        reply: &[u8],
    ) -> Result<()> {
        let mut u = Unpack::new(mode, reply);
        let _unreliable = u.status()?;
        let kvals = u.kvals_to_end()?;
        let mut s = store.write();
        for kv in kvals {
            s.store(proc, kv.key, kv.value);
        }
        Ok(())
    }

    fn ingest_get_reply(mode: BufferType, store: &RwLock<ClientStore>, reply: &[u8]) -> Result<()> {
        let mut u = Unpack::new(mode, reply);
        status_result(u.status()?)?;
        let mut blobs = Vec::new();
        while !u.at_end() {
            blobs.push(u.bytes()?);
        }
        let mut s = store.write();
        for b in blobs {
            s.ingest_blob(mode, &b)?;
        }
        Ok(())
    }

    fn normalize<'a>(&self, proc: &'a Proc) -> std::borrow::Cow<'a, Proc> {
        if proc.nspace.is_empty() {
            let mut p = proc.clone();
            p.nspace = self.me.nspace.clone();
            std::borrow::Cow::Owned(p)
        } else {
            std::borrow::Cow::Borrowed(proc)
        }
    }

    /// `PMIx_Get`: local data on the caller's thread; otherwise one GETNB to the server.
    pub fn get(&self, proc: &Proc, key: &[u8], info: &[Info]) -> Result<Value> {
        let r = self.get_inner(proc, key, info);
        if trace_client() {
            eprintln!(
                "client {:?}: get {:?} {} {:?} -> {:?}",
                self.me,
                proc,
                String::from_utf8_lossy(key),
                info.iter().map(|i| i.key.to_string()).collect::<Vec<_>>(),
                r
            );
        }
        r
    }

    fn get_inner(&self, proc: &Proc, key: &[u8], info: &[Info]) -> Result<Value> {
        let proc = self.normalize(proc);
        let q = GetQuals::parse(info);
        // A local peer's committed key: the modex segment has its latest value (what this
        // process fetched earlier may be older).
        if let Some(v) = self.lookup_modex(&proc, key, &q) {
            return Ok(v);
        }
        match self.lookup_local(&proc, key, &q) {
            Lookup::Found(v) => return Ok(v),
            Lookup::NotFound => return Err(Error::NotFound),
            Lookup::Missing => {}
        }
        if q.optional || self.conn.is_none() {
            return Err(Error::NotFound);
        }
        let (payload, refresh) = self.get_request(&proc, key, info, &q);
        // (A refresh from a 5.0 server waits as long as the server takes.)
        let timeout = q
            .timeout
            .filter(|_| !refresh)
            .map(|t| t.min(Duration::from_secs(MAX_TIMEOUT_SECS)) + TIMEOUT_GRACE);
        let reply = self.request(payload, timeout)?;
        Self::ingest_reply(self.mode, &self.store, &proc, &reply, refresh)?;
        let q2 = GetQuals {
            refresh: false,
            ..q
        };
        match self.lookup_local(&proc, key, &q2) {
            Lookup::Found(v) => Ok(v),
            _ => Err(Error::NotFound),
        }
    }

    /// `PMIx_Get_nb`: `done` runs on the progress thread.
    pub fn get_nb(&self, proc: &Proc, key: &[u8], info: &[Info], done: Done<Value>) -> Result<()> {
        let proc = self.normalize(proc).into_owned();
        let q = GetQuals::parse(info);
        if let Some(v) = self.lookup_modex(&proc, key, &q) {
            return self.post(move || done(Ok(v)));
        }
        match self.lookup_local(&proc, key, &q) {
            Lookup::Found(v) => return self.post(move || done(Ok(v))),
            Lookup::NotFound => return self.post(move || done(Err(Error::NotFound))),
            Lookup::Missing => {}
        }
        if q.optional || self.conn.is_none() {
            return self.post(move || done(Err(Error::NotFound)));
        }
        let (payload, refresh) = self.get_request(&proc, key, info, &q);
        let (mode, store, key) = (self.mode, self.store.clone(), key.to_vec());
        self.request_nb(payload, move |r| {
            let res = r
                .and_then(|b| Self::ingest_reply(mode, &store, &proc, &b, refresh))
                .and_then(|()| {
                    let q2 = GetQuals {
                        refresh: false,
                        ..q
                    };
                    match store.read().get(&proc, &key, &q2) {
                        Lookup::Found(v) => Ok(v),
                        _ => Err(Error::NotFound),
                    }
                });
            done(res)
        })
    }

    // ---- publish / lookup -----------------------------------------------------------

    fn publish_payload(&self, info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::PUBLISHNB);
        p.u32(crate::wire::own_ids().0).infos(info);
        p.into_bytes()
    }

    fn keys_payload(&self, c: u8, keys: &[Vec<u8>], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, c);
        p.u32(crate::wire::own_ids().0).size(keys.len());
        for k in keys {
            p.string(Some(k));
        }
        p.infos(info);
        p.into_bytes()
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

    pub fn publish(&self, info: &[Info]) -> Result<()> {
        self.status_request(self.publish_payload(info), Self::timeout_of(info))
    }
    pub fn publish_nb(&self, info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.publish_payload(info), done)
    }

    fn parse_lookup(mode: BufferType, b: &[u8]) -> Result<Vec<Pdata>> {
        let mut u = Unpack::new(mode, b);
        status_result(u.status()?)?;
        if u.at_end() {
            return Ok(Vec::new());
        }
        u.pdata()
    }

    pub fn lookup(&self, keys: &[Vec<u8>], info: &[Info]) -> Result<Vec<Pdata>> {
        let reply = self.request(
            self.keys_payload(cmd::LOOKUPNB, keys, info),
            Self::timeout_of(info),
        )?;
        Self::parse_lookup(self.mode, &reply)
    }
    pub fn lookup_nb(&self, keys: &[Vec<u8>], info: &[Info], done: Done<Vec<Pdata>>) -> Result<()> {
        let mode = self.mode;
        self.request_nb(self.keys_payload(cmd::LOOKUPNB, keys, info), move |r| {
            done(r.and_then(|b| Self::parse_lookup(mode, &b)))
        })
    }
    pub fn unpublish(&self, keys: &[Vec<u8>], info: &[Info]) -> Result<()> {
        self.status_request(
            self.keys_payload(cmd::UNPUBLISHNB, keys, info),
            Self::timeout_of(info),
        )
    }
    pub fn unpublish_nb(&self, keys: &[Vec<u8>], info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.keys_payload(cmd::UNPUBLISHNB, keys, info), done)
    }

    // ---- jobs -----------------------------------------------------------------------

    fn spawn_payload(&self, job_info: &[Info], apps: &[App]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::SPAWNNB);
        p.infos(job_info).apps(apps);
        p.into_bytes()
    }

    fn parse_spawn(mode: BufferType, store: &RwLock<ClientStore>, b: &[u8]) -> Result<PStr> {
        let mut u = Unpack::new(mode, b);
        let st = u.status()?;
        let ns = if u.at_end() { None } else { u.string()? };
        status_result(st)?;
        let ns = ns.ok_or(Error::UnpackFailure)?;
        let kvals = u.kvals_to_end().unwrap_or_default();
        if !kvals.is_empty() {
            let _ = store.write().ingest_job(mode, &ns, kvals);
        }
        Ok(ns)
    }

    pub fn spawn(&self, job_info: &[Info], apps: &[App]) -> Result<PStr> {
        let reply = self.request(
            self.spawn_payload(job_info, apps),
            Self::timeout_of(job_info),
        )?;
        Self::parse_spawn(self.mode, &self.store, &reply)
    }
    pub fn spawn_nb(&self, job_info: &[Info], apps: &[App], done: Done<PStr>) -> Result<()> {
        let (mode, store) = (self.mode, self.store.clone());
        self.request_nb(self.spawn_payload(job_info, apps), move |r| {
            done(r.and_then(|b| Self::parse_spawn(mode, &store, &b)))
        })
    }

    fn procs_payload(&self, c: u8, procs: &[Proc], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, c);
        p.procs_always(procs).infos(info);
        p.into_bytes()
    }

    fn parse_connect(mode: BufferType, store: &RwLock<ClientStore>, b: &[u8]) -> Result<()> {
        let mut u = Unpack::new(mode, b);
        status_result(u.status()?)?;
        while !u.at_end() {
            let blob = u.bytes()?;
            let mut bu = Unpack::new(mode, &blob);
            if let Some(ns) = bu.string()? {
                let kvals = bu.kvals_to_end()?;
                let r = store.write().ingest_job(mode, &ns, kvals.clone());
                if trace_client() {
                    eprintln!("client: connect data of {ns}: {r:?}: {kvals:?}");
                }
                r?;
            }
        }
        Ok(())
    }

    pub fn connect_procs(&self, procs: &[Proc], info: &[Info]) -> Result<()> {
        let reply = self.request(
            self.procs_payload(cmd::CONNECTNB, procs, info),
            Self::timeout_of(info),
        )?;
        Self::parse_connect(self.mode, &self.store, &reply)
    }
    pub fn connect_procs_nb(&self, procs: &[Proc], info: &[Info], done: Done<()>) -> Result<()> {
        let (mode, store) = (self.mode, self.store.clone());
        self.request_nb(self.procs_payload(cmd::CONNECTNB, procs, info), move |r| {
            done(r.and_then(|b| Self::parse_connect(mode, &store, &b)))
        })
    }
    pub fn disconnect_procs(&self, procs: &[Proc], info: &[Info]) -> Result<()> {
        self.status_request(
            self.procs_payload(cmd::DISCONNECTNB, procs, info),
            Self::timeout_of(info),
        )
    }
    pub fn disconnect_procs_nb(&self, procs: &[Proc], info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.procs_payload(cmd::DISCONNECTNB, procs, info), done)
    }

    /// `PMIx_Abort`: tells the server and waits for its answer (the host usually kills us).
    pub fn abort(&self, status: i32, msg: Option<&[u8]>, procs: &[Proc]) -> Result<()> {
        if self.is_singleton() {
            return Ok(());
        }
        let mut p = Pack::cmd(self.mode, cmd::ABORT);
        p.status(status).string(msg).procs(procs);
        let _ = self.request(p.into_bytes(), None)?;
        Ok(())
    }

    // ---- events ---------------------------------------------------------------------

    fn regevents_payload(&self, codes: &[pmix_status_t], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::REGEVENTS);
        p.size(codes.len())
            .many(
                PMIX_STATUS,
                codes.iter().map(|&c| Value::Status(c)).collect(),
            )
            .infos(info);
        p.into_bytes()
    }

    /// Tells the server which codes this process wants (`PMIx_Register_event_handler`).
    /// `done` runs on the progress thread.
    pub fn register_events_nb(
        &self,
        codes: &[pmix_status_t],
        info: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        if self.is_singleton() {
            return self.post(move || done(Ok(())));
        }
        self.status_request_nb(self.regevents_payload(codes, info), done)
    }

    /// Tells the server a handler for `codes` is gone (no reply; section 2.1).
    pub fn deregister_events(&self, codes: &[pmix_status_t]) -> Result<()> {
        let Some(conn) = &self.conn else {
            return Ok(());
        };
        let mut p = Pack::cmd(self.mode, cmd::DEREGEVENTS);
        if codes.is_empty() {
            p.status(cmd::DEFAULT_HANDLER_CODE);
        }
        for &c in codes {
            p.status(c);
        }
        let payload = p.into_bytes();
        conn.post(move |r, req| {
            let _ = req.send_oneway(r, next_oneway_tag(), &payload);
        })
    }

    fn notify_payload(
        &self,
        code: pmix_status_t,
        range: pmix_data_range_t,
        info: &[Info],
    ) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::NOTIFY);
        p.status(code).range(range).infos(info);
        p.into_bytes()
    }

    /// `PMIx_Notify_event` from this process: local handlers see it when the range is
    /// `PMIX_RANGE_PROC_LOCAL`; otherwise the server relays it.
    pub fn notify_nb(
        &self,
        code: pmix_status_t,
        source: Option<Proc>,
        range: pmix_data_range_t,
        info: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        if range == PMIX_RANGE_PROC_LOCAL || self.is_singleton() {
            let ev = Event {
                code,
                source: source.unwrap_or_else(|| self.me.clone()),
                range,
                info: info.to_vec(),
            };
            self.pump.send(ev);
            return self.post(move || done(Ok(())));
        }
        // The reference also runs this process's own handlers for wider ranges (the
        // server never sends an event back to its source).
        let ev = Event {
            code,
            source: source.unwrap_or_else(|| self.me.clone()),
            range,
            info: info.to_vec(),
        };
        self.pump.send(ev);
        self.status_request_nb(self.notify_payload(code, range, info), done)
    }

    // ---- queries and the rest -------------------------------------------------------

    fn query_payload(&self, queries: &[Query]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::QUERY);
        p.queries(queries);
        p.into_bytes()
    }
    pub fn query_nb(
        &self,
        queries: &[Query],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        self.infos_request_nb(self.query_payload(queries), done)
    }
    pub fn query(&self, queries: &[Query]) -> Result<(pmix_status_t, Vec<Info>)> {
        self.infos_request(self.query_payload(queries), None)
    }

    fn log_payload(&self, data: &[Info], directives: &[Info]) -> Vec<u8> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let mut p = Pack::cmd(self.mode, cmd::LOG);
        p.one(PMIX_TIME, Value::Time(now))
            .infos(data)
            .infos(directives);
        p.into_bytes()
    }
    pub fn log_nb(&self, data: &[Info], directives: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.log_payload(data, directives), done)
    }

    pub fn allocation_nb(
        &self,
        directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::ALLOC);
        p.one(PMIX_ALLOC_DIRECTIVE, Value::AllocDirective(directive))
            .infos(info);
        self.infos_request_nb(p.into_bytes(), done)
    }

    pub fn job_control_nb(
        &self,
        targets: &[Proc],
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::JOB_CONTROL);
        p.procs(targets).infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    /// `PMIx_Process_monitor`; a heartbeat (`PMIX_SEND_HEARTBEAT`) is a tag-1 message
    /// with no reply.
    pub fn monitor_nb(
        &self,
        monitor: &Info,
        error: pmix_status_t,
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        if monitor.is(PMIX_SEND_HEARTBEAT) {
            let conn = self.conn()?.clone();
            return conn.post(move |r, req| {
                let res = req.send_oneway(r, crate::wire::TAG_HEARTBEAT, &[]);
                done(res.map(|()| (PMIX_SUCCESS, Vec::new())));
            });
        }
        let mut p = Pack::cmd(self.mode, cmd::MONITOR);
        p.one(PMIX_INFO, Value::Info(Box::new(monitor.clone())))
            .status(error)
            .infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    pub fn get_credential_nb(
        &self,
        directives: &[Info],
        done: Done<(Vec<u8>, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::GET_CREDENTIAL);
        p.infos(directives);
        let mode = self.mode;
        self.request_nb(p.into_bytes(), move |r| {
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                let cred = u.bytes()?;
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                Ok((cred, info))
            }))
        })
    }

    pub fn validate_credential_nb(
        &self,
        cred: &[u8],
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::VALIDATE_CRED);
        p.bytes(cred).infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    /// `PMIx_Group_construct`/`destruct`. The construct reply is a status, from a 5.0 server
    /// the final membership, and unless the server ran in "hybrid" mode a context id; the
    /// results are, as OpenPMIx 5.0 gives them, the group id, the membership and the context
    /// id. A 5.0 server's destruct wants the members named: a group this process did not
    /// construct is `PMIX_ERR_NOT_FOUND` there, as with OpenPMIx 5.0.
    pub fn group_nb(
        &self,
        construct: bool,
        grp: &[u8],
        procs: &[Proc],
        info: &[Info],
        done: Done<Vec<Info>>,
    ) -> Result<()> {
        let v5 = self.server_v5;
        let mut p = Pack::cmd(
            self.mode,
            if construct {
                cmd::GROUP_CONSTRUCT
            } else {
                cmd::GROUP_DESTRUCT
            },
        );
        p.string(Some(grp));
        if construct {
            p.procs_always(procs);
        } else if v5 {
            let members = self.groups.lock().get(grp).cloned();
            p.procs_always(&members.ok_or(Error::NotFound)?);
        }
        p.infos(info);
        let mode = self.mode;
        let known = self.groups.clone();
        let (grp, mut asked) = (grp.to_vec(), procs.to_vec());
        self.request_nb(p.into_bytes(), move |r| {
            if !construct {
                known.lock().remove(&grp);
            }
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                if !construct {
                    return Ok(Vec::new());
                }
                // A 5.0 server whose host named no membership sends none: the members are
                // then those asked for (OpenPMIx 5.0's client fails there).
                let mut members = if v5 && !u.at_end() {
                    u.procs()?
                } else {
                    Vec::new()
                };
                if members.is_empty() {
                    asked.sort();
                    asked.dedup();
                    members = asked;
                }
                let mut out = vec![Info::new(
                    PMIX_GROUP_ID.to_bytes(),
                    Value::String(Some(PStr::from(&grp[..]))),
                )];
                if !members.is_empty() {
                    out.push(Info::new(
                        PMIX_GROUP_MEMBERSHIP.to_bytes(),
                        Value::proc_array(members.clone()),
                    ));
                }
                if !u.at_end()
                    && let Ok(ctx) = u.size()
                    && ctx != 0
                {
                    out.push(Info::new(
                        PMIX_GROUP_CONTEXT_ID.to_bytes(),
                        Value::Size(ctx as u64),
                    ));
                }
                known.lock().insert(grp, members);
                Ok(out)
            }))
        })
    }

    /// Registers a temporary handler for `codes` whose events carry `PMIX_GROUP_ID = grp`;
    /// they arrive on the returned channel. It goes first in its chain and always passes the
    /// event on, so the application's own handlers for these codes still see it, even one
    /// that never calls back. The caller drops it with [`Self::drop_group_events`].
    fn group_events(
        &self,
        codes: &[pmix_status_t],
        grp: &[u8],
    ) -> Result<(usize, crossbeam_channel::Receiver<Event>)> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let want = grp.to_vec();
        let id = self.events.register(
            codes,
            &[Info::new(
                PMIX_EVENT_HDLR_FIRST.to_bytes(),
                Value::Bool(true),
            )],
            Arc::new(move |_, ev: &Event, _, next: crate::events::Next| {
                let ours = ev.info.iter().any(|i| {
                    i.is(PMIX_GROUP_ID) && i.value.as_str().is_some_and(|g| g.as_bytes() == want)
                });
                if ours {
                    let _ = tx.send(ev.clone());
                }
                next.call(PMIX_SUCCESS, Vec::new());
            }),
        );
        if !self.is_singleton() {
            self.register_events_nb(codes, &[], Box::new(|_| {}))?;
        }
        Ok((id, rx))
    }

    /// The server counts registrations per code, so this one's codes are released whether or
    /// not another handler names them too.
    fn drop_group_events(&self, id: usize, codes: &[pmix_status_t]) {
        self.events.deregister(id);
        let _ = self.deregister_events(codes);
    }

    /// An event for the processes of `to` only.
    fn notify_procs(&self, code: pmix_status_t, to: &[Proc], mut info: Vec<Info>) -> Result<()> {
        info.push(Info::new(
            PMIX_EVENT_CUSTOM_RANGE.to_bytes(),
            Value::proc_array(to.iter().cloned()),
        ));
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.status_request_nb(
            self.notify_payload(code, PMIX_RANGE_CUSTOM, &info),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )?;
        rx.recv().map_err(|_| Error::Unreach)?
    }

    /// `PMIx_Group_invite` (the leader), over events as the reference's 4.2 clients do it, so
    /// that either library's server sees the same traffic: `PMIX_GROUP_INVITED` to the
    /// invitees, then a wait until each answers (`PMIX_GROUP_INVITE_ACCEPTED`/`DECLINED`,
    /// through `PMIx_Group_join`) or `PMIX_TIMEOUT` passes, then `PMIX_GROUP_CONSTRUCT_COMPLETE`
    /// with the members as its custom range (servers learn the group from it, for fences over
    /// `{grp, WILDCARD}` and the destruct) and as `PMIX_GROUP_MEMBERSHIP`. Returns the
    /// membership. No group construct reaches the host, so `PMIX_GROUP_ASSIGN_CONTEXT_ID` gets
    /// no id here, as with the reference. Blocking; refused on the progress and event threads.
    pub fn group_invite(&self, grp: &[u8], procs: &[Proc], info: &[Info]) -> Result<Vec<Info>> {
        if crate::progress::on_progress_thread() || crate::events::on_event_thread() {
            return Err(Error::WouldBlock);
        }
        let codes = [PMIX_GROUP_INVITE_ACCEPTED, PMIX_GROUP_INVITE_DECLINED];
        let (hid, rx) = self.group_events(&codes, grp)?;
        let gid = Info::new(
            PMIX_GROUP_ID.to_bytes(),
            Value::String(Some(PStr::from(grp))),
        );
        let result = (|| {
            let leader = vec![
                gid.clone(),
                Info::new(PMIX_GROUP_LEADER.to_bytes(), Value::Proc(self.me.clone())),
            ];
            // The leader may name itself among the procs; it is a member without asking.
            let invited: Vec<Proc> = procs.iter().filter(|p| **p != self.me).cloned().collect();
            self.notify_procs(PMIX_GROUP_INVITED, &invited, leader)?;
            let deadline = Self::timeout_of(info).map(|t| std::time::Instant::now() + t);
            let mut pending: Vec<Proc> = invited;
            let mut members = vec![self.me.clone()];
            while !pending.is_empty() {
                let ev = match deadline {
                    Some(d) => rx.recv_deadline(d).map_err(|_| Error::Timeout)?,
                    None => rx.recv().map_err(|_| Error::Unreach)?,
                };
                if let Some(pos) = pending.iter().position(|p| *p == ev.source) {
                    let p = pending.remove(pos);
                    if ev.code == PMIX_GROUP_INVITE_ACCEPTED {
                        members.push(p);
                    }
                }
            }
            let membership = Info::new(
                PMIX_GROUP_MEMBERSHIP.to_bytes(),
                Value::proc_array(members.iter().cloned()),
            );
            // The whole membership is the range (the server skips the leader, the source),
            // and default handlers are not bothered, as with the reference.
            self.notify_procs(
                PMIX_GROUP_CONSTRUCT_COMPLETE,
                &members,
                vec![
                    gid.clone(),
                    Info::new(PMIX_EVENT_NON_DEFAULT.to_bytes(), Value::Bool(true)),
                    membership.clone(),
                ],
            )?;
            Ok(vec![membership])
        })();
        self.drop_group_events(hid, &codes);
        result
    }

    /// `PMIx_Group_join` (an invited process): answers the `leader`'s invitation and, when
    /// accepting, waits for the leader's `PMIX_GROUP_CONSTRUCT_COMPLETE` (`PMIX_TIMEOUT`
    /// bounds the wait); returns the membership it names.
    pub fn group_join(
        &self,
        grp: &[u8],
        leader: &Proc,
        accept: bool,
        info: &[Info],
    ) -> Result<Vec<Info>> {
        if crate::progress::on_progress_thread() || crate::events::on_event_thread() {
            return Err(Error::WouldBlock);
        }
        let codes = [PMIX_GROUP_CONSTRUCT_COMPLETE];
        let (hid, rx) = self.group_events(&codes, grp)?;
        let gid = Info::new(
            PMIX_GROUP_ID.to_bytes(),
            Value::String(Some(PStr::from(grp))),
        );
        let result = (|| {
            let code = if accept {
                PMIX_GROUP_INVITE_ACCEPTED
            } else {
                PMIX_GROUP_INVITE_DECLINED
            };
            self.notify_procs(code, std::slice::from_ref(leader), vec![gid])?;
            if !accept {
                return Ok(Vec::new());
            }
            let deadline = Self::timeout_of(info).map(|t| std::time::Instant::now() + t);
            let ev = loop {
                let ev = match deadline {
                    Some(d) => rx.recv_deadline(d).map_err(|_| Error::Timeout)?,
                    None => rx.recv().map_err(|_| Error::Unreach)?,
                };
                if ev.source == *leader {
                    break ev;
                }
            };
            Ok(vec![Self::membership_of(&ev.info)])
        })();
        self.drop_group_events(hid, &codes);
        result
    }

    /// The membership a `PMIX_GROUP_CONSTRUCT_COMPLETE` names: its `PMIX_GROUP_MEMBERSHIP`
    /// (ours), else its custom range (the reference's leader sends only that).
    fn membership_of(info: &[Info]) -> Info {
        let named = info
            .iter()
            .find(|i| i.is(PMIX_GROUP_MEMBERSHIP))
            .or_else(|| info.iter().find(|i| i.is(PMIX_EVENT_CUSTOM_RANGE)));
        let members = named.map_or_else(Vec::new, |i| i.value.procs());
        Info::new(PMIX_GROUP_MEMBERSHIP.to_bytes(), Value::proc_array(members))
    }

    pub fn group_leave_nb(&self, grp: &[u8], info: &[Info], done: Done<()>) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::GROUP_LEAVE);
        p.string(Some(grp)).infos(info);
        self.status_request_nb(p.into_bytes(), done)
    }

    pub fn fabric_register_nb(
        &self,
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::FABRIC_REGISTER);
        p.infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    pub fn fabric_update_nb(
        &self,
        index: usize,
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::FABRIC_UPDATE);
        p.size(index);
        self.infos_request_nb(p.into_bytes(), done)
    }

    /// Asks the server for the distances from the CPUs of `cpuset` (None: the binding the
    /// server knows for this process) to the devices `directives` select, in the server's
    /// topology: what `PMIx_Compute_distances` does, as the reference's client does, when
    /// this process cannot load a topology of its own.
    pub fn compute_distances_nb(
        &self,
        cpuset: Option<&crate::values::Cpuset>,
        directives: &[Info],
        done: Done<Vec<crate::values::DeviceDistance>>,
    ) -> Result<()> {
        use crate::values::{Cpuset, Topology, TopologyData};
        let hwloc = || Some(PStr::from("hwloc"));
        let cpuset = cpuset.cloned().unwrap_or(Cpuset {
            source: hwloc(),
            bitmap: None,
        });
        let mut p = Pack::cmd(self.mode, cmd::COMPUTE_DEVICE_DISTANCES);
        // No topology: the server is to use its own.
        p.one(
            PMIX_TOPO,
            Value::Topo(Box::new(Topology {
                source: hwloc(),
                data: TopologyData::None,
            })),
        )
        .one(PMIX_PROC_CPUSET, Value::ProcCpuset(Box::new(cpuset)))
        .infos(directives);
        let mode = self.mode;
        self.request_nb(p.into_bytes(), move |r| {
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                if u.at_end() {
                    return Ok(Vec::new());
                }
                let n = u.size()?;
                if n == 0 {
                    return Ok(Vec::new());
                }
                Ok(u.values(PMIX_DEVICE_DIST, n)?
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::DeviceDist(d) => Some(*d),
                        _ => None,
                    })
                    .collect())
            }))
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

    /// `PMIx_IOF_pull`: asks the server to forward the output of `procs` on `channels` to
    /// `handler` (or, without one, to this process's own stdout/stderr), formatted per the
    /// output attributes among `directives` ([`crate::iof::IofFlags`]); returns the id to
    /// deregister it with. Output the server had cached may arrive before this returns.
    #[doc(alias = "PMIx_IOF_pull")]
    pub fn iof_pull(
        &self,
        procs: &[Proc],
        directives: &[Info],
        channels: pmix_iof_channel_t,
        handler: Option<IofHandler>,
    ) -> Result<usize> {
        if channels & PMIX_FWD_STDIN_CHANNEL != 0 {
            return Err(Error::NotSupported);
        }
        if procs.is_empty() {
            return Err(Error::BadParam);
        }
        let reg = {
            let mut t = self.iof.lock();
            t.next += 1;
            let reg = Arc::new(IofReg {
                id: t.next,
                handler,
                flags: crate::iof::IofFlags::from_info(directives),
                remote: std::sync::atomic::AtomicUsize::new(0),
                out: Mutex::new(IofOut::default()),
            });
            t.regs.insert(reg.id, reg.clone());
            reg
        };
        let mut p = Pack::cmd(self.mode, cmd::IOF_PULL);
        p.procs_always(procs)
            .infos(directives)
            .one(PMIX_IOF_CHANNEL, Value::IofChannel(channels))
            .size(reg.id);
        let answer = (|| {
            let reply = self.request(p.into_bytes(), None)?;
            let mut u = Unpack::new(self.mode, &reply);
            status_result(u.status()?)?;
            Ok(if u.at_end() { 0 } else { u.size()? })
        })();
        match answer {
            Ok(remote) => {
                reg.remote
                    .store(remote, std::sync::atomic::Ordering::SeqCst);
                Ok(reg.id)
            }
            Err(e) => {
                self.iof.lock().regs.remove(&reg.id);
                Err(e)
            }
        }
    }

    /// `PMIx_IOF_deregister`: output held back by `PMIX_IOF_BUFFERING_SIZE` is delivered
    /// first.
    #[doc(alias = "PMIx_IOF_deregister")]
    pub fn iof_deregister(&self, id: usize, directives: &[Info]) -> Result<()> {
        let reg = self.iof.lock().regs.remove(&id).ok_or(Error::BadParam)?;
        let remote = reg.remote.load(std::sync::atomic::Ordering::SeqCst);
        let flushed = reg.clone();
        self.pump.run(move || {
            let pending = flush_pending(&flushed);
            hand_out(&flushed, pending);
        });
        let mut p = Pack::cmd(self.mode, cmd::IOF_DEREG);
        p.infos(directives).size(remote);
        self.status_request(p.into_bytes(), None)
    }

    /// `PMIx_IOF_push`: data for the stdin of `targets` (`None`: end of input).
    #[doc(alias = "PMIx_IOF_push")]
    pub fn iof_push(
        &self,
        targets: &[Proc],
        data: Option<&[u8]>,
        directives: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::IOF_PUSH);
        p.procs(targets).infos(directives);
        if let Some(d) = data {
            p.bytes(d);
        }
        self.status_request_nb(p.into_bytes(), done)
    }

    /// `PMIx_IOF_push` with `PMIX_IOF_PUSH_STDIN`: a thread reads this process's stdin and
    /// pushes it to `targets`, one request at a time (so nothing is reordered and a slow
    /// reader slows the pushes), then marks the end of input (`PMIX_IOF_COMPLETE`) at end
    /// of file. Returns once the thread runs.
    pub fn iof_push_stdin(self: &Arc<Self>, targets: &[Proc], directives: &[Info]) -> Result<()> {
        let me = self.clone();
        let targets = targets.to_vec();
        let dirs: Vec<Info> = directives
            .iter()
            .filter(|i| !i.is(PMIX_IOF_PUSH_STDIN))
            .cloned()
            .collect();
        std::thread::Builder::new()
            .name("pmix-iof-stdin".into())
            .spawn(move || {
                use std::io::Read as _;
                let mut buf = vec![0u8; 64 * 1024];
                let mut input = std::io::stdin();
                let push = |data: Option<&[u8]>, dirs: &[Info]| -> Result<()> {
                    let (tx, rx) = std::sync::mpsc::sync_channel(1);
                    me.iof_push(
                        &targets,
                        data,
                        dirs,
                        Box::new(move |r| {
                            let _ = tx.send(r);
                        }),
                    )?;
                    rx.recv().map_err(|_| Error::Unreach)?
                };
                loop {
                    let n = match input.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => break,
                    };
                    if push(Some(&buf[..n]), &dirs).is_err() {
                        return;
                    }
                }
                let mut end = dirs.clone();
                end.push(Info::new(PMIX_IOF_COMPLETE.to_bytes(), Value::Bool(true)));
                let _ = push(None, &end);
            })
            .map_err(|_| Error::NoMem)?;
        Ok(())
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

/// A tag-2 message: `PROC source, IOF_CHANNEL, SIZE refid, SIZE ninfo, INFO[], BYTE_OBJECT`
/// (section 7.2). Output is formatted and handed out on the event thread, never on the
/// progress thread: a handler that blocks (the Python bindings' handlers wait for the
/// interpreter lock, which the main thread may hold while it waits in PMIx) must not stall
/// the replies the process waits for. A registration's output keeps its arrival order. An
/// id with no registration writes the bytes as they are to this process's own stdout or
/// stderr.
fn deliver_iof(
    pump: &Pump,
    iof: &Mutex<IofTable>,
    store: &Arc<RwLock<ClientStore>>,
    mode: BufferType,
    payload: &[u8],
) {
    type Chunk<'a> = (Proc, pmix_iof_channel_t, usize, Vec<Info>, &'a [u8]);
    let parsed = (|| -> Result<Chunk<'_>> {
        let mut u = Unpack::new(mode, payload);
        let source = u.proc()?;
        let channel = match u.one(PMIX_IOF_CHANNEL)? {
            Value::IofChannel(c) => c,
            _ => return Err(Error::UnpackFailure),
        };
        let refid = u.size()?;
        let info = u.infos()?;
        let data = if u.at_end() { &[][..] } else { u.bytes_ref()? };
        Ok((source, channel, refid, info, data))
    })();
    let Ok((source, channel, refid, info, data)) = parsed else {
        return;
    };
    let (reg, retired) = {
        let t = iof.lock();
        (t.regs.get(&refid).cloned(), refid != 0 && refid <= t.next)
    };
    // The message is borrowed from the connection's input buffer; the event thread needs
    // its own copy.
    let data = spare_copy(data);
    let Some(reg) = reg else {
        // Output for a registration already withdrawn is dropped; output sent with no
        // registration of ours (id 0) is written as the reference does.
        if !retired {
            pump.run(move || {
                write_own(channel, &data);
                give_spare(data);
            });
        }
        return;
    };
    let digits = if reg.flags.to_files() {
        crate::iof::rank_digits(store.read().job_size(&source.nspace).unwrap_or(0))
    } else {
        1
    };
    let pump2 = pump.clone();
    pump.run(move || {
        let complete = crate::iof::is_complete(&info);
        let mut ready = Vec::new();
        let mut arm = None;
        {
            let mut out = reg.out.lock();
            let out = &mut *out;
            let st = out.lines.entry((source.clone(), channel)).or_default();
            let mut bytes = if reg.flags.decorates() {
                let mut bytes = Vec::new();
                st.push(&reg.flags, &source, channel, &data, &mut bytes);
                give_spare(data);
                bytes
            } else {
                // Undecorated output passes as it is.
                data
            };
            if complete {
                st.finish(&reg.flags, &source, channel, &mut bytes);
                out.lines.remove(&(source.clone(), channel));
            }
            if let Some(path) = crate::iof::output_path(&reg.flags, &source, channel, digits) {
                write_file(out, path, &bytes);
            }
            let copy = !(reg.flags.to_files() && reg.flags.file_only);
            if copy && !bytes.is_empty() {
                out.pending_bytes += bytes.len();
                out.pending.push((source.clone(), channel, bytes));
            }
            if complete || out.pending_bytes >= reg.flags.buffering_size {
                ready = std::mem::take(&mut out.pending);
                out.pending_bytes = 0;
            } else if !out.pending.is_empty() && !out.timer_armed {
                if let Some(t) = reg.flags.buffering_time {
                    out.timer_armed = true;
                    arm = Some(t);
                }
            }
        }
        hand_out(&reg, grouped(ready));
        if complete {
            hand_out(&reg, vec![(source, channel, Vec::new(), info)]);
        }
        if let Some(t) = arm {
            // The flush runs on the event thread too, after what is queued there by then.
            let reg = reg.clone();
            let _ = std::thread::Builder::new()
                .name("pmix-iof-flush".into())
                .spawn(move || {
                    std::thread::sleep(t);
                    pump2.run(move || {
                        let pending = flush_pending(&reg);
                        hand_out(&reg, pending);
                    });
                });
        }
    });
}

type Delivery = (Proc, pmix_iof_channel_t, Vec<u8>, Vec<Info>);

/// Takes the output a registration holds back.
fn flush_pending(reg: &IofReg) -> Vec<Delivery> {
    let mut out = reg.out.lock();
    out.timer_armed = false;
    out.pending_bytes = 0;
    grouped(std::mem::take(&mut out.pending))
}

/// Held-back output as deliveries: consecutive pieces of one source and channel become one.
fn grouped(pending: Vec<(Proc, pmix_iof_channel_t, Vec<u8>)>) -> Vec<Delivery> {
    let mut v: Vec<Delivery> = Vec::new();
    for (s, c, b) in pending {
        match v.last_mut() {
            Some(last) if last.0 == s && last.1 == c => {
                last.2.extend_from_slice(&b);
                give_spare(b);
            }
            _ => v.push((s, c, b, Vec::new())),
        }
    }
    v
}

/// Gives output to the registration's handler, or writes it to our own stdout/stderr (no
/// lock held: the handler may call back into the library).
fn hand_out(reg: &IofReg, items: Vec<Delivery>) {
    for (source, channel, bytes, info) in items {
        match &reg.handler {
            Some(h) => h(reg.id, &source, channel, &bytes, &info),
            None if reg.flags.merge => write_own(PMIX_FWD_STDOUT_CHANNEL, &bytes),
            None => write_own(channel, &bytes),
        }
        give_spare(bytes);
    }
}

/// Buffers that carried forwarded output to the event thread, kept for the next messages.
/// A fresh 64 KiB allocation per message, freed on the event thread, made glibc return the
/// pages to the kernel and fault them in again for the next one: page faults and page
/// clearing took about a sixth of a tool's progress thread in a stream of output.
static IOF_SPARES: Mutex<Vec<Vec<u8>>> = parking_lot::const_mutex(Vec::new());
/// At most this many spare buffers, of at most `SPARE_CAPACITY` bytes each, are kept.
const SPARES: usize = 32;
const SPARE_CAPACITY: usize = 256 << 10;

/// `data` copied into a spare buffer (or a new one).
fn spare_copy(data: &[u8]) -> Vec<u8> {
    let mut v = IOF_SPARES.lock().pop().unwrap_or_default();
    v.extend_from_slice(data);
    v
}

/// Keeps `v` for a later [`spare_copy`], if there is room and it is not too large.
fn give_spare(mut v: Vec<u8>) {
    if v.capacity() == 0 || v.capacity() > SPARE_CAPACITY {
        return;
    }
    v.clear();
    let mut spares = IOF_SPARES.lock();
    if spares.len() < SPARES {
        spares.push(v);
    }
}

fn write_own(channel: pmix_iof_channel_t, data: &[u8]) {
    use std::io::Write as _;
    if data.is_empty() {
        return;
    }
    if channel & PMIX_FWD_STDOUT_CHANNEL == 0 {
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(data);
        let _ = e.flush();
    } else {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(data);
        let _ = o.flush();
    }
}

fn write_file(out: &mut IofOut, path: std::path::PathBuf, data: &[u8]) {
    use std::io::Write as _;
    let f = out
        .files
        .entry(path)
        .or_insert_with_key(|p| match crate::iof::create_output_file(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("pmix: cannot create the output file {}: {e}", p.display());
                None
            }
        });
    if let Some(f) = f
        && !data.is_empty()
    {
        let _ = f.write_all(data);
    }
}

/// Messages that expect no reply still need a tag; the reference uses the next request
/// tag. Any tag at or above 100 that the server will not answer works; we use a fixed one
/// the requester never hands out (it wraps before `u32::MAX`).
/// Whether `PMIX_TRACE_CLIENT` asks for a line on stderr per Get (a debugging aid). Read
/// once: looking the environment up on every Get cost about as much as the Get itself.
fn trace_client() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PMIX_TRACE_CLIENT").is_some())
}

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
