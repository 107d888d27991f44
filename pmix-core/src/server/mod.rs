//! The server role: a TCP listener on loopback, the handshake, and every client command
//! of the protocol, answered from the server's own stores or through the [`Host`].
//!
//! Threads: the progress thread owns the connections, reads their handshakes (non-blocking,
//! with a deadline, so a slow or hostile peer stalls nothing) and runs [`Shared::dispatch`].
//! The state lives behind one mutex that is
//! never held while the host or a user callback runs: host answers come back through
//! `Done` callbacks that post to the progress thread.
//!
//! Deliberate differences from the reference (see `docs/notes/server.md` and
//! `docs/security.md`): a connection's uid and gid come from the kernel, never from its
//! claim, a tool needs the host's approval, and every request that acts reaches the host
//! with the verified ids; a client that dies
//! fails the collectives it was part of at once instead of leaving them hanging; malformed
//! requests close the offending connection and nothing else.
//!
//! The rooms: `conn` (connections, the handshake, finalize, a lost peer), `jobs` (job
//! records and shared job data), `collective` (fence, connect, groups), `get` (gets and
//! direct modex), `publish`, `jobctl` (spawn, job control, allocation and the other
//! requests the host answers), `events`, `iof`, `tools` (tool handshake, attach,
//! rendezvous files). [`Shared::dispatch`] sends each command to its room.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::Mutex;
use pmix_sys::*;

use crate::codec::BufferType;
use crate::datastore::{JobRecord, ModexStore};
use crate::events::Registry;
use crate::host::{Host, Upcall};
use crate::net::Listener;
use crate::net::local_hostname;
use crate::progress::{ConnId, Message, Progress, Reactor, TimerId};
use crate::values::{Info, Kval, PStr, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::wire::{PeerKind, ServerUri, cmd};
use crate::{Error, Result};
use collective::Collectives;
use conn::ClientReg;
use events::CachedEvent;
use get::Gets;
use iof::Forwarding;
use jobs::Shares;
pub use log::LogOutput;

/// What `PMIx_server_init` was given.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The server's own identity (`PMIX_SERVER_NSPACE`/`RANK`; default "pmix-server" and
    /// the pid).
    pub id: Proc,
    pub tmpdir: PStr,
    pub system_tmpdir: PStr,
    pub hostname: PStr,
    /// Port to listen on (`PMIX_TCP_IPV4_PORT`); 0 = ephemeral.
    pub port: u16,
    /// Take each connection's uid and gid from the kernel (`crate::security`). Off only
    /// where peers are no real sockets (the fuzz target): the claimed ids are then used.
    pub check_peer_uid: bool,
    /// Offer our own clients and tools a Unix socket beside TCP (`crate::net`; off with
    /// `PMIX_RS_UNIX=0` in the environment).
    pub unix_socket: bool,
    /// Rendezvous files for tools (`PMIX_SERVER_TOOL_SUPPORT`, `_SESSION_SUPPORT`,
    /// `_SYSTEM_SUPPORT`) and the file named by `PMIX_LAUNCHER_RENDEZVOUS_FILE`.
    pub tool_support: bool,
    pub session_support: bool,
    pub system_support: bool,
    pub rendezvous_file: Option<std::path::PathBuf>,
    /// Where to report the server's URI once it listens (`PMIX_TCP_REPORT_URI`, or OpenPMIx's
    /// MCA parameter `ptl_base_report_uri`): "-" stdout, "+" stderr, a number a pipe's file
    /// descriptor, anything else a file (`Shared::report_uri`).
    pub report_uri: Option<String>,
    /// What is kept of output no tool has pulled yet (`PMIX_IOF_CACHE_SIZE`,
    /// `PMIX_IOF_DROP_OLDEST`/`_NEWEST` given to `PMIx_server_init`).
    pub iof_cache: crate::iof::CachePolicy,
    /// Offer reference 4.2 clients OpenPMIx's shared-memory job-data store (gds "ds21",
    /// `crate::datastore::ds21`); off with `PMIX_RS_DS21=0` in the environment, or when the
    /// MCA parameter `gds` leaves it out.
    pub ds21: bool,
    /// Offer our clients the mapped job-data segment (gds "rsshm"); off when the MCA
    /// parameter `gds` leaves it out. ("hash" is always offered.)
    pub rsshm: bool,
    /// `PMIX_SERVER_GATEWAY`: this server writes the standard output and error its clients
    /// log, where their delivered output goes (`log.rs`).
    pub gateway: bool,
    /// The server of a tool that accepts connections (a launcher's or a scheduler's,
    /// `PMIx_tool_init`): while its host has no `tool_connected`, it accepts a tool of its own
    /// user that brings its own identity (a launcher it started, connecting back), as the
    /// reference does. Other tools are refused, as by any server without that upcall.
    pub own_user_tools: bool,
}

pub use crate::pmdl::mca_param;

/// Whether the MCA component selection `list` (the value of a framework's parameter:
/// `a,b` includes those, `^a,b` excludes those) lets component `name` in.
pub fn mca_selects(list: Option<&str>, name: &str) -> bool {
    let Some(list) = list.map(str::trim).filter(|l| !l.is_empty()) else {
        return true;
    };
    let (exclude, names) = match list.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, list),
    };
    names.split(',').any(|n| n.trim() == name) != exclude
}

impl ServerConfig {
    /// The configuration `info` asks for (`PMIx_server_init`'s, and a listening tool's): the
    /// identity (`PMIX_SERVER_NSPACE`/`RANK`), directories, host name, gateway, rendezvous
    /// files (`PMIX_SERVER_*_SUPPORT`, `PMIX_LAUNCHER_RENDEZVOUS_FILE` or that variable), the
    /// URI report, the port (`PMIX_ERR_BAD_PARAM` past 65535), the output cache; the rest as
    /// `default()`.
    pub fn from_info(info: &[Info]) -> Result<ServerConfig> {
        use crate::values::{info_flag, info_value};
        let string = |k: &core::ffi::CStr| info_value(info, k).and_then(|v| v.as_str().cloned());
        let number = |k: &core::ffi::CStr| info_value(info, k).and_then(Value::as_u64);
        let mut cfg = ServerConfig::default();
        if let Some(ns) = string(PMIX_SERVER_NSPACE) {
            cfg.id.nspace = ns;
        }
        if let Some(r) = number(PMIX_SERVER_RANK) {
            cfg.id.rank = r as u32;
        }
        if let Some(t) = string(PMIX_SERVER_TMPDIR) {
            cfg.tmpdir = t;
        }
        if let Some(t) = string(PMIX_SYSTEM_TMPDIR) {
            cfg.system_tmpdir = t;
        }
        if let Some(h) = string(PMIX_HOSTNAME) {
            cfg.hostname = h;
        }
        cfg.gateway = info_flag(info, PMIX_SERVER_GATEWAY);
        cfg.tool_support = info_flag(info, PMIX_SERVER_TOOL_SUPPORT);
        cfg.session_support = info_flag(info, PMIX_SERVER_SESSION_SUPPORT);
        cfg.system_support = info_flag(info, PMIX_SERVER_SYSTEM_SUPPORT);
        cfg.iof_cache = crate::iof::CachePolicy::from_info(cfg.iof_cache, info);
        cfg.rendezvous_file = string(PMIX_LAUNCHER_RENDEZVOUS_FILE)
            .map(|p| p.to_string())
            .or_else(|| std::env::var("PMIX_LAUNCHER_RENDEZVOUS_FILE").ok())
            .map(std::path::PathBuf::from);
        if let Some(u) = string(PMIX_TCP_REPORT_URI) {
            cfg.report_uri = Some(u.to_string());
        }
        if let Some(p) = number(PMIX_TCP_IPV4_PORT) {
            cfg.port = u16::try_from(p).map_err(|_| Error::BadParam)?;
        }
        Ok(cfg)
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        let tmp = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".into());
        // The components of the gds framework the clients are offered, as with OpenPMIx
        // (`PMIX_MCA_gds=hash` in the environment, say).
        let gds = mca_param("gds");
        ServerConfig {
            id: Proc::new("pmix-server", std::process::id()),
            tmpdir: tmp.clone().into(),
            system_tmpdir: tmp.into(),
            hostname: local_hostname(),
            port: 0,
            check_peer_uid: true,
            unix_socket: crate::net::unix_enabled(),
            tool_support: false,
            session_support: false,
            system_support: false,
            rendezvous_file: None,
            report_uri: mca_param("ptl_base_report_uri")
                .or_else(|| mca_param("ptl_tcp_report_uri")),
            iof_cache: crate::iof::DEFAULT_CACHE,
            ds21: std::env::var("PMIX_RS_DS21").map_or(true, |v| v.trim() != "0")
                && mca_selects(gds.as_deref(), crate::datastore::ds21::NAME),
            rsshm: mca_selects(gds.as_deref(), crate::datastore::gds::GDS_SHM),
            gateway: false,
            own_user_tools: false,
        }
    }
}

/// Puts the requester's verified `PMIX_USERID` and `PMIX_GRPID` in `info`, in place of any
/// the request carried: the host decides on them (the reference hands publish, lookup and
/// unpublish a `PMIX_USERID`, and Open MPI's data server refuses requests without one; we
/// give both to every upcall that acts, `docs/security.md`).
fn push_requester(info: &mut Vec<Info>, ids: crate::security::PeerIds) {
    info.retain(|i| !i.is(PMIX_USERID) && !i.is(PMIX_GRPID));
    info.push(Info::new(PMIX_USERID.to_bytes(), Value::Uint32(ids.uid)));
    info.push(Info::new(PMIX_GRPID.to_bytes(), Value::Uint32(ids.gid)));
}

/// `info` with the requester's verified ids (`push_requester`).
fn requester_info(peer: &Peer, mut info: Vec<Info>) -> Vec<Info> {
    push_requester(&mut info, peer.ids);
    info
}

#[derive(Debug, Clone)]
struct Peer {
    proc: Proc,
    mode: BufferType,
    kind: PeerKind,
    /// The peer declared gds "rsshm": its job data comes as a segment to map.
    shm: bool,
    /// The peer declared gds "ds21" (a reference 4.2 client that mapped our ds21 store):
    /// its REQ reply carries only the realm arrays.
    ds21: bool,
    /// Its uid and gid, verified at the handshake: what the host is told of every request.
    ids: crate::security::PeerIds,
    /// It announced OpenPMIx 5 or later: its group destruct names the members and its group
    /// construct reply carries them.
    v5: bool,
    finalized: bool,
    /// Event codes registered; `None` inside = a default handler.
    codes: Vec<Option<pmix_status_t>>,
}

/// The server's state, behind one mutex (`Shared::state`). What belongs to one room is
/// that room's own type.
#[derive(Default)]
struct State {
    jobs: HashMap<PStr, JobRecord>,
    clients: HashMap<Proc, ClientReg>,
    peers: HashMap<ConnId, Peer>,
    next_index: u32,
    modex: ModexStore,
    /// Processes whose connection dropped before they finalized.
    dead: HashSet<Proc>,
    /// Clients that finalized or were deregistered: no longer expected in collectives over
    /// their job.
    ended: HashSet<Proc>,
    /// Paths to remove when a connection ends (`PMIX_REGISTER_CLEANUP*`).
    cleanups: Vec<(ConnId, crate::cleanup::Cleanup)>,
    /// Collectives in progress and the groups constructed (`collective`).
    coll: Collectives,
    /// Gets waiting for data, direct-modex requests, what was sent to whom (`get`).
    get: Gets,
    /// Output forwarding registrations and the output no one wanted yet (`iof`).
    iof: Forwarding,
    /// Events clients and tools notified, for peers that register for them later.
    event_cache: VecDeque<CachedEvent>,
    /// The job data as it is handed to peers: packed replies, segments, ds21 (`jobs`).
    share: Shares,
    /// Jobs set up for Open MPI (`setup_application` with `PMIX_SETUP_APP_ENVARS` and the
    /// "ompi" personality): their processes get Open MPI's variables (`crate::pmdl`).
    ompi_jobs: HashSet<PStr>,
}

/// State shared by the API threads, the progress thread and handshake threads.
pub struct Shared {
    progress: Progress,
    host: Arc<dyn Host>,
    pub cfg: ServerConfig,
    pub uri: ServerUri,
    state: Mutex<State>,
    /// The rendezvous files written at start, removed at finalize.
    rendezvous: Mutex<Vec<std::path::PathBuf>>,
    /// The server process's own event handlers.
    pub events: Arc<Registry>,
    /// GETNB requests received (see [`Shared::get_requests`]).
    get_requests: AtomicU64,
    /// The `HANDSHAKE_WAIT` timer of each connection whose handshake is not done: cancelled
    /// when it is (it used to run its 10 s for every connection: a burst of connections
    /// kept thousands of timers, and their memory, alive).
    handshake_timers: Mutex<HashMap<ConnId, TimerId>>,
    /// The server process's own copy of delivered output (see [`Shared::iof_write_local`]).
    local_out: Mutex<iof::LocalOut>,
    /// Help messages seen and logs handed to the host (`log.rs`).
    logging: Mutex<log::LogState>,
    /// Where a gateway writes logged output ([`Shared::set_log_output`]).
    log_output: std::sync::OnceLock<log::LogOutput>,
    me: Weak<Shared>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("uri", &self.uri).finish()
    }
}

/// An initialized server.
pub type Server = Arc<Shared>;

fn status_of(r: &Result<()>) -> pmix_status_t {
    match r {
        Ok(()) => PMIX_SUCCESS,
        Err(e) => e.status(),
    }
}

/// Whether `PMIX_TRACE_SERVER` asks for a line on stderr per request (a debugging aid).
fn trace_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PMIX_TRACE_SERVER").is_some())
}

/// Writes a trace line to stderr, or appends it to the file `PMIX_TRACE_SERVER` names when
/// it is an absolute path (hosts such as slurmstepd close their stderr).
fn trace_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    match std::env::var("PMIX_TRACE_SERVER") {
        Ok(p) if p.starts_with('/') => {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
            {
                let _ = writeln!(f, "[{}] {line}", std::process::id());
            }
        }
        _ => eprintln!("{line}"),
    }
}

macro_rules! trace {
    ($($t:tt)*) => {
        if $crate::server::trace_enabled() {
            $crate::server::trace_line(format_args!($($t)*));
        }
    };
}

mod collective;
mod conn;
mod events;
mod get;
mod iof;
mod jobctl;
mod jobs;
mod log;
mod publish;
mod tools;

/// Starts a server: binds the listener, starts the progress thread.
pub fn start(host: Arc<dyn Host>, cfg: ServerConfig) -> Result<Server> {
    let listener = Listener::tcp(cfg.port).map_err(|_| Error::Unreach)?;
    let addr = listener.tcp_addr().ok_or(Error::Unreach)?;
    // Our own clients and tools may come through a Unix socket instead (announced by
    // `setup_fork` and the rendezvous files, where reference peers do not look). Without
    // one, everybody uses TCP.
    let unix = cfg
        .unix_socket
        .then(crate::net::fresh_unix_name)
        .and_then(|name| Some((Listener::unix(&name).ok()?, name)));
    let uri = ServerUri {
        nspace: cfg.id.nspace.clone(),
        rank: cfg.id.rank,
        addr,
        unix: unix.as_ref().map(|(_, name)| name.clone()),
    };
    let progress = Progress::start_polling(
        "pmix-server",
        crate::progress::poll_window(crate::progress::SERVER_POLL_US),
    )?;
    let shared = Arc::new_cyclic(|me| Shared {
        progress,
        host,
        cfg,
        uri,
        state: Mutex::new(State::default()),
        rendezvous: Mutex::new(Vec::new()),
        get_requests: AtomicU64::new(0),
        handshake_timers: Mutex::new(HashMap::new()),
        local_out: Mutex::new(iof::LocalOut::default()),
        logging: Mutex::new(log::LogState::default()),
        log_output: std::sync::OnceLock::new(),
        events: Arc::new(Registry::default()),
        me: me.clone(),
    });
    let weak = Arc::downgrade(&shared);
    shared
        .progress
        .call(Some(Duration::from_secs(30)), move |r, done| {
            let res = [Some(listener), unix.map(|(l, _)| l)]
                .into_iter()
                .flatten()
                .try_for_each(|l| {
                    let weak = weak.clone();
                    r.add_listener(
                        l,
                        Box::new(move |r, stream| {
                            if let Some(s) = weak.upgrade() {
                                s.accept(r, stream);
                            }
                        }),
                    )
                });
            done.complete(res);
        })??;
    shared.write_rendezvous()?;
    Ok(shared)
}

impl Shared {
    fn arc(&self) -> Arc<Shared> {
        self.me.upgrade().expect("server alive while in use")
    }

    /// Processes remembered as ended or dead (a diagnostic: what a persistent launcher's
    /// server keeps between jobs; zero once every job it ran was deregistered).
    pub fn remembered_procs(&self) -> usize {
        let st = self.state.lock();
        st.ended.len() + st.dead.len()
    }

    /// Timers pending on the progress thread, and handshakes not done (a diagnostic: both
    /// settle to what the server's own work needs once its connections are established).
    pub fn pending_timers(&self) -> (usize, usize) {
        let timers = self
            .progress
            .call(Some(Duration::from_secs(5)), |r, done| {
                done.complete(r.pending_timers())
            })
            .unwrap_or(usize::MAX);
        (timers, self.handshake_timers.lock().len())
    }

    /// Runs `f` on the progress thread (completions of the host-facing API).
    pub fn post(&self, f: impl FnOnce() + Send + 'static) -> Result<()> {
        self.progress.post(move |_| f())
    }

    /// Whether `proc` is a registered local client.
    pub fn is_local(&self, proc: &Proc) -> bool {
        self.state.lock().clients.contains_key(proc)
    }

    /// Stops the listener, the connections and the progress thread.
    pub fn finalize(&self) {
        self.report_repeats(false);
        for p in std::mem::take(&mut *self.rendezvous.lock()) {
            let _ = std::fs::remove_file(p);
        }
        {
            let mut st = self.state.lock();
            for (_, f) in st.share.segments.drain() {
                let _ = std::fs::remove_file(f.path);
            }
            for w in st.modex.detach_all() {
                w.retire();
            }
            if let Some(d) = st.share.dir.take() {
                let _ = std::fs::remove_dir(d);
            }
            if let Some(mut s) = st.share.ds21.take() {
                s.remove_all();
            }
        }
        let _ = self.progress.call(Some(Duration::from_secs(5)), |r, done| {
            r.stop();
            done.complete(());
        });
    }

    fn reply(r: &mut Reactor, id: ConnId, tag: u32, payload: Vec<u8>) {
        let _ = r.send(id, crate::wire::server_frame(tag, &payload));
    }

    /// [`Shared::reply`] with a cached payload: shared by the connections it goes to, not
    /// copied into each one's output queue.
    fn reply_shared(r: &mut Reactor, id: ConnId, tag: u32, payload: Arc<Vec<u8>>) {
        let head = crate::wire::server_frame_header(tag, payload.len());
        let _ = r.send_shared(id, head, payload);
    }

    fn reply_status(r: &mut Reactor, id: ConnId, tag: u32, mode: BufferType, s: pmix_status_t) {
        let mut p = Pack::new(mode);
        p.status(s);
        Self::reply(r, id, tag, p.into_bytes());
    }

    fn reply_infos(
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        mode: BufferType,
        res: Result<Vec<Info>>,
    ) {
        let mut p = Pack::new(mode);
        match res {
            Ok(infos) => p.status(PMIX_SUCCESS).infos(&infos),
            Err(e) => p.status(e.status()).size(0),
        };
        Self::reply(r, id, tag, p.into_bytes());
    }

    /// Posts the host's answer back to the progress thread.
    fn later<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Arc<Shared>, &mut Reactor, Result<T>) + Send + 'static,
    ) -> crate::host::Done<T> {
        let me = self.arc();
        Box::new(move |res| {
            let me2 = me.clone();
            let _ = me.progress.post(move |r| f(&me2, r, res));
        })
    }

    /// `Err(NotSupported)` unless the host provides `upcall`: a request it cannot serve is
    /// answered so, before anything is asked of it.
    fn require(&self, upcall: Upcall) -> Result<()> {
        if self.host.provides(upcall) {
            Ok(())
        } else {
            Err(Error::NotSupported)
        }
    }

    /// The host's `Done` for a request answered by a status alone (request `tag` of `id`).
    fn status_done(&self, id: ConnId, tag: u32, mode: BufferType) -> crate::host::Done<()> {
        self.later(move |_, r, res: Result<()>| {
            Self::reply_status(r, id, tag, mode, status_of(&res));
        })
    }

    /// The host's `Done` for a request answered by a status and infos.
    fn infos_done(&self, id: ConnId, tag: u32, mode: BufferType) -> crate::host::Done<Vec<Info>> {
        self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res))
    }

    fn dispatch(&self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        // A connection closed for a bad request may still have messages queued: drop them.
        if !r.is_open(id) {
            return;
        }
        let Some(peer) = self.state.lock().peers.get(&id).cloned() else {
            return;
        };
        if msg.tag < crate::wire::TAG_DYNAMIC && msg.tag != u32::MAX {
            // Heartbeats and forwarded output need no answer.
            return;
        }
        let mode = peer.mode;
        let mut u = Unpack::new(mode, msg.payload);
        let Ok(c) = u.cmd() else {
            r.close(id, Error::UnpackFailure);
            return;
        };
        trace!("server: cmd {c} tag {} from {:?}", msg.tag, peer.proc);
        let res = self.command(r, id, msg.tag, &peer, c, &mut u);
        trace!("server: cmd {c} -> {res:?}");
        if let Err(e) = res {
            if matches!(
                e,
                Error::UnpackFailure | Error::ReadPastEnd | Error::UnknownDataType(_)
            ) {
                // A peer that sends what it cannot have packed is broken or hostile.
                r.close(id, Error::UnpackFailure);
            } else {
                Self::reply_status(r, id, msg.tag, mode, e.status());
            }
        }
    }

    /// One command of a peer: a table from the command to the room that answers it.
    fn command(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        c: u8,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        match c {
            cmd::REQ => self.on_req(r, id, tag, peer, u),
            cmd::COMMIT => self.on_commit(r, id, tag, peer, u),
            cmd::FENCENB => self.on_fence(r, id, tag, peer, u),
            cmd::GETNB => self.on_get(r, id, tag, peer, u),
            cmd::FINALIZE => self.on_finalize(r, id, tag, peer, u),
            cmd::ABORT => self.on_abort(r, id, tag, peer, u),
            cmd::PUBLISHNB => self.on_publish(r, id, tag, peer, u),
            cmd::LOOKUPNB => self.on_lookup(r, id, tag, peer, u),
            cmd::UNPUBLISHNB => self.on_unpublish(r, id, tag, peer, u),
            cmd::SPAWNNB => self.on_spawn(r, id, tag, peer, u),
            cmd::CONNECTNB | cmd::DISCONNECTNB => self.on_connect(r, id, tag, peer, c, u),
            cmd::GROUP_CONSTRUCT => self.on_group_construct(r, id, tag, peer, u),
            cmd::GROUP_DESTRUCT => self.on_group_destruct(r, id, tag, peer, u),
            cmd::GROUP_LEAVE => Err(Error::NotSupported),
            cmd::NOTIFY => self.on_notify(r, id, tag, peer, u),
            cmd::REGEVENTS => self.on_register_events(r, id, tag, peer, u),
            cmd::DEREGEVENTS => self.on_deregister_events(r, id, tag, peer, u),
            cmd::QUERY => self.on_query(r, id, tag, peer, u),
            cmd::LOG => self.on_log(r, id, tag, peer, u),
            cmd::ALLOC => self.on_allocate(r, id, tag, peer, u),
            cmd::JOB_CONTROL => self.on_job_control(r, id, tag, peer, u),
            cmd::MONITOR => self.on_monitor(r, id, tag, peer, u),
            cmd::GET_CREDENTIAL => self.on_get_credential(r, id, tag, peer, u),
            cmd::VALIDATE_CRED => self.on_validate_credential(r, id, tag, peer, u),
            cmd::IOF_PULL => self.on_iof_pull(r, id, tag, peer, u),
            cmd::IOF_PUSH => self.on_iof_push(r, id, tag, peer, u),
            cmd::IOF_DEREG => self.on_iof_deregister(r, id, tag, peer, u),
            cmd::FABRIC_REGISTER | cmd::FABRIC_UPDATE => self.on_fabric(r, id, tag, peer, c, u),
            cmd::COMPUTE_DEVICE_DISTANCES => self.on_device_distances(r, id, tag, peer, u),
            cmd::REFRESH_CACHE => self.on_refresh_cache(r, id, tag, peer, u),
            cmd::RESOLVE_PEERS => self.on_resolve_peers(r, id, tag, peer, u),
            cmd::RESOLVE_NODE => self.on_resolve_node(r, id, tag, peer, u),
            _ => Err(Error::NotSupported),
        }
    }
}

/// The address a server listens on (for tests).
pub fn listen_addr(s: &Server) -> SocketAddr {
    s.uri.addr
}

/// Status of a unit result (for the FFI).
pub fn status(r: &Result<()>) -> pmix_status_t {
    status_of(r)
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn f<T: Send + Sync>() {}
    f::<Shared>();
    let _ = Kval {
        key: PStr::new(),
        value: Value::Bool(true),
    };
}
