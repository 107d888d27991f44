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

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::Mutex;
use pmix_sys::*;

use crate::codec::BufferType;
use crate::datastore::gds::{
    GDS_SHM, MSEG_GEN_KEY, MSEG_PATH_KEY, REQ_INLINE, SEG_GEN_KEY, SEG_PATH_KEY,
};
use crate::datastore::{JobRecord, ModexStore, blob_of};
use crate::events::{Event, Registry};
use crate::host::{Host, Upcall};
use crate::net::local_hostname;
use crate::net::{self, Listener, Stream};
use crate::progress::{ConnHandler, ConnId, Message, Progress, Reactor, SharedBytes, TimerId};
use crate::values::{Info, Kval, PStr, Pdata, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::wire::{
    Frame, Framing, Hello, PeerKind, ServerUri, ToolReply, WireFraming, cmd, handshake,
};
use crate::{Error, Result};

/// How long a peer may take to send its handshake.
/// How deep below the tmpdirs a server looks for stale rendezvous files of its user: the
/// files themselves and one level of session directories.
const STALE_SEARCH_DEPTH: usize = 1;

const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);

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
    /// What is kept of output no tool has pulled yet (`PMIX_IOF_CACHE_SIZE`,
    /// `PMIX_IOF_DROP_OLDEST`/`_NEWEST` given to `PMIx_server_init`).
    pub iof_cache: crate::iof::CachePolicy,
    /// Offer reference 4.2 clients OpenPMIx's shared-memory job-data store (gds "ds21",
    /// `crate::datastore::ds21`); off with `PMIX_RS_DS21=0` in the environment.
    pub ds21: bool,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        let tmp = std::env::var("TMPDIR").unwrap_or_else(|_| "/tmp".into());
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
            iof_cache: crate::iof::DEFAULT_CACHE,
            ds21: std::env::var("PMIX_RS_DS21").map_or(true, |v| v.trim() != "0"),
        }
    }
}

/// Forgets (and unlinks) the segments of `nspace`; clients that mapped them keep their
/// mappings. The directory goes with the last segment.
fn drop_segments(st: &mut State, nspace: &PStr) {
    if let Some(w) = st.modex.detach(nspace) {
        w.retire();
    }
    if let Some(s) = st.ds21.as_mut() {
        s.remove(nspace);
    }
    st.ds21_replies.retain(|(ns, _), _| ns != nspace);
    st.segments.retain(|(ns, _), f| {
        if ns == nspace {
            let _ = std::fs::remove_file(&f.path);
            false
        } else {
            true
        }
    });
    if st.segments.is_empty() && !st.modex.has_segments() {
        if let Some(d) = st.segment_dir.take() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// The name of this process's segment directory.
fn segment_dir_name(pid: u32) -> String {
    format!("pmix-rsshm.{pid}")
}

/// Removes the segment directories under `tmpdir` that servers of user `uid` left when they
/// died without finalizing (named for a pid that no longer runs; the same rule as stale
/// rendezvous files).
fn remove_stale_segment_dirs(tmpdir: &std::path::Path, uid: u32) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(tmpdir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("pmix-rsshm."))
            // "<pid>" (segments) or "<pid>.ds21.<n>" (a ds21 store)
            .and_then(|p| p.split('.').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        if m.is_dir()
            && m.uid() == uid
            && pid != std::process::id()
            && !crate::rendezvous::alive(pid)
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Creates `d` with owner-only permissions, or accepts it if it exists as a directory of
/// ours that only we can enter.
fn private_dir(d: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    match std::fs::DirBuilder::new().mode(0o700).create(d) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let m = std::fs::symlink_metadata(d)?;
            let (uid, _) = crate::wire::own_ids();
            if m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0 {
                Ok(())
            } else {
                Err(e)
            }
        }
        Err(e) => Err(e),
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

/// The namespaces of a fence, in the order the fence names them, with their sizes: the
/// reference numbers the processes of a fence's data across them (a process's relative
/// rank is its rank plus the sizes of the namespaces before its own), and so do we, so that
/// servers of both libraries read each other's fence data. A namespace whose size is not
/// known here (not registered, or a group) places none of its processes.
struct FenceRanks(Vec<(PStr, Option<u32>)>);

impl FenceRanks {
    fn of(st: &State, procs: &[Proc]) -> FenceRanks {
        let mut v: Vec<(PStr, Option<u32>)> = Vec::new();
        for p in procs {
            if !v.iter().any(|(ns, _)| *ns == p.nspace) {
                let size = st.jobs.get(&p.nspace).map(JobRecord::job_size);
                v.push((p.nspace.clone(), size));
            }
        }
        FenceRanks(v)
    }

    fn relative(&self, p: &Proc) -> Option<u32> {
        let mut base = 0u32;
        for (ns, size) in &self.0 {
            if *ns == p.nspace {
                return base
                    .checked_add(p.rank)
                    .filter(|&r| size.is_some_and(|s| p.rank < s) && r < u32::MAX);
            }
            base = base.checked_add((*size)?)?;
        }
        None
    }

    fn proc_of(&self, mut rel: u32) -> Option<Proc> {
        for (ns, size) in &self.0 {
            let size = (*size)?;
            if rel < size {
                return Some(Proc::new(ns.clone(), rel));
            }
            rel -= size;
        }
        None
    }
}

/// `info` with the requester's verified ids (`push_requester`).
fn requester_info(peer: &Peer, mut info: Vec<Info>) -> Vec<Info> {
    push_requester(&mut info, peer.ids);
    info
}

#[derive(Debug, Clone, Copy)]
struct ClientReg {
    uid: u32,
    gid: u32,
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

/// The kind of a collective operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum CollKind {
    Fence,
    Connect,
    Disconnect,
    GroupConstruct,
    GroupDestruct,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct CollKey {
    kind: CollKind,
    /// The group id (groups), empty otherwise.
    id: Vec<u8>,
    procs: Vec<Proc>,
}

#[derive(Debug)]
struct Collective {
    /// Local participants still expected.
    expected: BTreeSet<Proc>,
    /// Local participants that arrived: their connection and request tag.
    arrived: Vec<(ConnId, u32, Proc)>,
    info: Vec<Info>,
    collect: bool,
    timer: Option<TimerId>,
}

/// How many notified events the server keeps for late registrations (the reference keeps
/// 512).
const EVENT_CACHE: usize = 512;

/// An event a client or tool notified, and the processes it was sent to.
#[derive(Debug)]
struct CachedEvent {
    ev: Event,
    sent_to: HashSet<Proc>,
}

#[derive(Debug)]
struct PendingGet {
    conn: ConnId,
    tag: u32,
    requester: Proc,
    target: Proc,
    key: Option<PStr>,
    timer: Option<TimerId>,
    id: u64,
}

/// One `PMIx_IOF_pull` registration.
#[derive(Debug, Clone)]
struct IofPull {
    conn: ConnId,
    procs: Vec<Proc>,
    channels: pmix_iof_channel_t,
    /// The requester's id, sent back with each delivery.
    local_ref: usize,
    /// Our id, which the requester uses to deregister.
    refid: usize,
    /// `PMIX_IOF_REDIRECT`: the host stops writing this output itself while the
    /// registration lasts (the default, `PMIX_IOF_COPY`, lets it go on).
    redirect: bool,
}

impl IofPull {
    fn wants(&self, source: &Proc, channel: pmix_iof_channel_t) -> bool {
        self.channels & channel != 0
            && self.procs.iter().any(|q| {
                q.nspace == source.nspace && (q.rank == PMIX_RANK_WILDCARD || q.rank == source.rank)
            })
    }
}

/// A tag-2 message: `PROC source, IOF_CHANNEL, SIZE refid, SIZE ninfo, INFO[], BYTE_OBJECT`.
fn iof_frame(
    mode: BufferType,
    source: &Proc,
    channel: pmix_iof_channel_t,
    local_ref: usize,
    info: &[Info],
    data: &[u8],
) -> Vec<u8> {
    let mut v = iof_head(mode, source, channel, local_ref, info, data.len());
    v.extend_from_slice(data);
    v
}

/// The bytes of a tag-2 message that come before its `data_len` bytes of output (frame
/// header included), so that the output goes out from where it is.
fn iof_head(
    mode: BufferType,
    source: &Proc,
    channel: pmix_iof_channel_t,
    local_ref: usize,
    info: &[Info],
    data_len: usize,
) -> Vec<u8> {
    let mut p = Pack::new(mode);
    p.proc(source)
        .one(PMIX_IOF_CHANNEL, Value::IofChannel(channel))
        .size(local_ref)
        .infos(info)
        .bytes_head(data_len);
    let packed = p.into_bytes();
    let mut v = Vec::with_capacity(crate::wire::HEADER_LEN + packed.len());
    v.extend_from_slice(&crate::wire::frame_head(
        0,
        crate::wire::TAG_IOF,
        packed.len() + data_len,
    ));
    v.extend_from_slice(&packed);
    v
}

#[derive(Default)]
struct State {
    jobs: HashMap<PStr, JobRecord>,
    clients: HashMap<Proc, ClientReg>,
    peers: HashMap<ConnId, Peer>,
    next_index: u32,
    modex: ModexStore,
    collectives: HashMap<CollKey, Collective>,
    gets: Vec<PendingGet>,
    next_get: u64,
    /// Processes whose connection dropped before they finalized.
    dead: HashSet<Proc>,
    /// Clients that finalized or were deregistered: no longer expected in collectives over
    /// their job.
    ended: HashSet<Proc>,
    /// Requests for local data on behalf of other servers (`PMIx_server_dmodex_request`).
    dmodex_waiters: Vec<(Proc, crate::host::Done<Vec<u8>>)>,
    /// Per connection, per local process: the number of that process's latest COMMIT whose
    /// data the connection was sent in a GETNB reply (see `try_get`).
    modex_sent: HashMap<ConnId, HashMap<Proc, u64>>,
    /// Per "hash" connection: the bytes of peers' data its next GETNB reply may carry.
    prefetch_window: HashMap<ConnId, usize>,
    /// Paths to remove when a connection ends (`PMIX_REGISTER_CLEANUP*`).
    cleanups: Vec<(ConnId, crate::cleanup::Cleanup)>,
    /// Output forwarding registrations (`PMIx_IOF_pull` of clients and tools).
    iof_pulls: Vec<IofPull>,
    /// Events clients and tools notified, for peers that register for them later.
    event_cache: VecDeque<CachedEvent>,
    next_iof: usize,
    /// Output that arrived while no registration wanted it.
    iof_cache: crate::iof::IofCache,
    /// Members of the groups constructed here, by group id.
    groups: HashMap<Vec<u8>, Vec<Proc>>,
    /// The packed answer to REQ (the job data), by namespace and buffer type; dropped when
    /// the namespace is registered again or deregistered.
    req_replies: HashMap<(PStr, BufferType), Arc<Vec<u8>>>,
    /// The job-data segments written for "rsshm" peers, by namespace and buffer type;
    /// unlinked when the namespace is registered again or deregistered, and at finalize.
    segments: HashMap<(PStr, BufferType), SegmentFile>,
    /// The private directory holding the segments, once created.
    segment_dir: Option<std::path::PathBuf>,
    /// The ds21 store for reference clients, once a client was set up with it.
    ds21: Option<crate::datastore::ds21::Store>,
    /// The ds21 store could not be made (or is not offered): not tried again.
    ds21_off: bool,
    /// The packed answer to a "ds21" peer's REQ, by namespace and buffer type.
    ds21_replies: HashMap<(PStr, BufferType), Arc<Vec<u8>>>,
}

/// The number of the last segment written in this process (generations name the files).
static SEGMENT_GEN: AtomicU64 = AtomicU64::new(0);

/// A job-data segment this server wrote.
#[derive(Debug, Clone)]
struct SegmentFile {
    path: std::path::PathBuf,
    generation: u64,
}

/// Bytes of other processes' data the first GETNB reply to a "hash" client may carry besides
/// the process asked for; each later reply that carries some may carry twice as much, up to
/// [`PREFETCH_MAX`] (see `Shared::prefetch_peers`). A client that Gets a few neighbours is
/// not sent the whole job; one that Gets every peer asks about log2(job data / 4 KiB) times.
const PREFETCH_FIRST: usize = 4 << 10;
const PREFETCH_MAX: usize = 256 << 10;

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
    me: Weak<Shared>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("uri", &self.uri).finish()
    }
}

/// An initialized server.
pub type Server = Arc<Shared>;

use crate::values::info_flag as flag;

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
        if trace_enabled() {
            trace_line(format_args!($($t)*));
        }
    };
}

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

    // ---- API of the host ------------------------------------------------------------

    /// `PMIx_server_register_nspace`.
    pub fn register_nspace(&self, nspace: &PStr, nlocal: u32, info: &[Info]) -> Result<()> {
        trace!("server: register {nspace} nlocal {nlocal}: {info:?}");
        self.register_nspace_iter(nspace, nlocal, info.iter().cloned().map(Ok))
    }

    /// `PMIx_server_register_nspace` with the infos made one at a time (as the C API
    /// converts the host's array): each is taken apart as it comes, so a large job's
    /// registration is never held whole in two forms. The first `Err` ends the registration
    /// with that error.
    pub fn register_nspace_iter(
        &self,
        nspace: &PStr,
        nlocal: u32,
        info: impl IntoIterator<Item = Result<Info>>,
    ) -> Result<()> {
        trace!("server: register {nspace} nlocal {nlocal}");
        let job = JobRecord::from_register_iter(nspace, nlocal, info, &self.cfg.hostname)?;
        let mut st = self.state.lock();
        st.req_replies.retain(|(ns, _), _| ns != nspace);
        drop_segments(&mut st, nspace);
        st.jobs.insert(nspace.clone(), job);
        drop(st);
        let me = self.arc();
        self.progress.post(move |r| me.retry_gets(r))?;
        Ok(())
    }

    /// The number of GETNB requests (a client's or tool's `PMIx_Get` of data it does not
    /// hold) this server has received: a diagnostic, and how tests see that a Get was
    /// answered without the server.
    pub fn get_requests(&self) -> u64 {
        self.get_requests.load(Ordering::Relaxed)
    }

    /// The job data of a registered namespace, as its clients receive it.
    pub fn job_kvals(&self, nspace: &PStr) -> Option<Vec<Kval>> {
        self.state.lock().jobs.get(nspace).map(JobRecord::req_reply)
    }

    /// Gives the job data of a registered namespace to `client` (the server process's own
    /// client role, which answers the host's `PMIx_Get`): the per-rank data as the job
    /// record's encoded segment, shared rather than decoded into a second copy; the job
    /// part decoded, as a client of ours takes it from a mapped segment.
    ///
    /// # Errors
    /// `NotFound` for a namespace not registered; the store's errors for damaged data.
    pub fn share_job(&self, nspace: &PStr, client: &crate::client::Client) -> Result<()> {
        let seg = {
            let st = self.state.lock();
            let job = st.jobs.get(nspace).ok_or(Error::NotFound)?;
            job.shared_segment()
        };
        match seg {
            Some(seg) => client.ingest_job_segment(nspace, seg),
            None => {
                let kvals = self.job_kvals(nspace).ok_or(Error::NotFound)?;
                client.ingest_job(nspace, kvals)
            }
        }
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

    /// `PMIx_server_deregister_nspace`: forgets the job, its clients and their data.
    pub fn deregister_nspace(&self, nspace: &PStr) {
        let mut st = self.state.lock();
        st.jobs.remove(nspace);
        st.req_replies.retain(|(ns, _), _| ns != nspace);
        drop_segments(&mut st, nspace);
        st.clients.retain(|p, _| &p.nspace != nspace);
        st.dead.retain(|p| &p.nspace != nspace);
        st.ended.retain(|p| &p.nspace != nspace);
        st.modex.remove_nspace(nspace);
        st.iof_cache.remove_nspace(nspace);
    }

    /// `PMIx_server_register_client`.
    pub fn register_client(&self, proc: &Proc, uid: u32, gid: u32) -> Result<()> {
        let mut st = self.state.lock();
        st.dead.remove(proc);
        st.ended.remove(proc);
        st.clients.insert(proc.clone(), ClientReg { uid, gid });
        Ok(())
    }

    /// `PMIx_server_deregister_client`.
    pub fn deregister_client(&self, proc: &Proc) {
        let mut st = self.state.lock();
        st.clients.remove(proc);
        if st.jobs.contains_key(&proc.nspace) {
            st.ended.insert(proc.clone());
        }
    }

    /// `PMIx_server_setup_fork`: the environment a client needs (section 4).
    pub fn setup_fork(&self, proc: &Proc) -> Vec<(String, String)> {
        let ds21 = self.ds21_prepare(&proc.nspace);
        let uri = self.uri.to_uri();
        let mut env: Vec<(String, String)> = vec![
            ("PMIX_NAMESPACE".into(), proc.nspace.to_string()),
            ("PMIX_RANK".into(), proc.rank.to_string()),
        ];
        for v in crate::wire::uri::URI_VARS {
            env.push((v.into(), uri.clone()));
        }
        if let Some(unix) = &self.uri.unix {
            env.push((crate::net::UNIX_ENV.into(), unix.clone()));
        }
        env.extend([
            ("PMIX_SECURITY_MODE".into(), "native".into()),
            (
                "PMIX_BFROP_BUFFER_TYPE".into(),
                "PMIX_BFROP_BUFFER_NON_DESC".into(),
            ),
            // Our clients pick "rsshm" (the mapped job-data segment). A reference 4.2 client
            // picks "ds21" when the list names it and it could attach our ds21 store (its
            // directory named below), else "hash" (protocol notes, section 4); 5.0 clients
            // know no "ds21" and pick "hash".
            (
                "PMIX_GDS_MODULE".into(),
                if ds21.is_some() {
                    format!("{GDS_SHM},{},hash", crate::datastore::ds21::NAME)
                } else {
                    format!("{GDS_SHM},hash")
                },
            ),
            ("PMIX_SERVER_TMPDIR".into(), self.cfg.tmpdir.to_string()),
            (
                "PMIX_SYSTEM_TMPDIR".into(),
                self.cfg.system_tmpdir.to_string(),
            ),
            ("PMIX_HOSTNAME".into(), self.cfg.hostname.to_string()),
            ("PMIX_VERSION".into(), crate::wire::VERSION.into()),
        ]);
        if let Some(dir) = ds21 {
            env.push((
                crate::datastore::ds21::BASE_PATH_ENV.into(),
                dir.to_string_lossy().into_owned(),
            ));
        }
        env
    }

    /// Makes our ds21 store of `nspace` for its reference clients, once per namespace: the
    /// store's directory and first initial file, the namespace's lock file, and its job
    /// data (written whole now, before any of its clients runs, so that nobody reads it
    /// while it is written and a failure is known before a client is told of the store).
    /// The directory, or `None` when the store is not offered (switched off, the namespace
    /// not registered, or a file that cannot be made or written): the client then uses
    /// "hash".
    fn ds21_prepare(&self, nspace: &PStr) -> Option<std::path::PathBuf> {
        use crate::datastore::ds21::{Sizes, Store};
        static DIRS: AtomicU64 = AtomicU64::new(0);
        let mut st = self.state.lock();
        let st = &mut *st;
        if !self.cfg.ds21 || st.ds21_off {
            return None;
        }
        let job = st.jobs.get(nspace)?;
        let n = job.nlocalprocs.max(job.local_ranks().len() as u32);
        // A lock per client initialization (a client that initializes again takes another).
        let nlocks = n.saturating_mul(2).saturating_add(8).min(1 << 20);
        if st.ds21.is_none() {
            let Some(sizes) = Sizes::from_env(|k| std::env::var(k).ok()) else {
                st.ds21_off = true;
                return None;
            };
            let tmp = std::path::PathBuf::from(self.cfg.tmpdir.to_string());
            remove_stale_segment_dirs(&tmp, crate::wire::own_ids().0);
            // One per server: several servers of one process each have their own store.
            let n = DIRS.fetch_add(1, Ordering::Relaxed);
            let d = tmp.join(format!("{}.ds21.{n}", segment_dir_name(std::process::id())));
            if let Err(e) = private_dir(&d) {
                trace!("server: no ds21 directory {}: {e}", d.display());
                st.ds21_off = true;
                return None;
            }
            st.ds21 = Some(Store::new(d, sizes));
        }
        let store = st.ds21.as_mut()?;
        if store.written(nspace) {
            return store.prepared(nspace).then(|| store.dir().to_path_buf());
        }
        // The buffer type our environment gives clients (PMIX_BFROP_BUFFER_TYPE).
        let res = store.prepare(nspace, nlocks).and_then(|()| {
            store.write(
                nspace,
                BufferType::NonDesc,
                &job.store_wildcard(),
                job.rank_lists(),
            )
        });
        match res {
            Ok(()) => Some(store.dir().to_path_buf()),
            Err(e) => {
                trace!("server: no ds21 store for {nspace}: {e}");
                // Its files go; not tried again until the namespace is registered again.
                store.remove(nspace);
                store.mark_failed(nspace);
                None
            }
        }
    }

    /// The REQ reply of a "ds21" peer of `nspace` in buffer type `mode`: the nspace and the
    /// realm arrays (the rest is in the store, written when its first client was set up);
    /// `None` when the namespace is not registered.
    fn ds21_reply(&self, nspace: &PStr, mode: BufferType) -> Option<Arc<Vec<u8>>> {
        let mut st = self.state.lock();
        let st = &mut *st;
        let job = st.jobs.get(nspace)?;
        let reply = st
            .ds21_replies
            .entry((nspace.clone(), mode))
            .or_insert_with(|| {
                let mut p = Pack::new(mode);
                p.string(Some(nspace.as_bytes()));
                for kv in job.realm_arrays() {
                    p.kval(&kv);
                }
                Arc::new(p.into_bytes())
            });
        Some(reply.clone())
    }

    /// `PMIx_server_dmodex_request`: the committed data of a local process, for another
    /// server. Waits until the process has committed.
    pub fn dmodex_request(&self, proc: &Proc, done: crate::host::Done<Vec<u8>>) {
        let mut st = self.state.lock();
        if st.modex.has(proc) {
            let blob = st.modex.dmodex_answer(proc);
            drop(st);
            done(Ok(blob));
        } else if !Self::runs_here(&st, proc) {
            drop(st);
            done(Err(Error::NotFound));
        } else {
            st.dmodex_waiters.push((proc.clone(), done));
        }
    }

    /// Whether `p` runs on this node: a registered client, or a rank its job places here
    /// that has not ended (a host may register its clients one by one, after the first
    /// already ask for the others' data).
    fn runs_here(st: &State, p: &Proc) -> bool {
        st.clients.contains_key(p)
            || (st
                .jobs
                .get(&p.nspace)
                .is_some_and(|j| j.local_ranks().contains(&p.rank))
                && !st.ended.contains(p))
    }

    /// `PMIx_Notify_event` by the host: to the local clients in range that want it.
    pub fn notify(&self, ev: Event) -> Result<()> {
        let me = self.arc();
        self.progress.post(move |r| {
            me.relay_event(r, &ev, None);
        })
    }

    /// `PMIx_server_IOF_deliver`: output of `source` to the peers that pulled it
    /// (`PMIx_IOF_pull`), each with its own reference id. Output nobody has pulled is
    /// cached (per [`ServerConfig::iof_cache`]) for the first registration that wants it;
    /// `PMIX_IOF_COMPLETE` in `info` marks the end of the stream and is cached too.
    #[doc(alias = "PMIx_server_IOF_deliver")]
    pub fn iof_deliver(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: &[u8],
        info: &[Info],
    ) -> Result<()> {
        self.iof_deliver_shared(source, channel, Arc::new(data.to_vec()), info)
    }

    /// [`Server::iof_deliver`] of bytes the caller shares instead of lending: they are
    /// written to each tool from where they are (no copy), and `data` is dropped once every
    /// connection has written them (or has gone), or at once when nobody wants them (then
    /// cached as a copy).
    pub fn iof_deliver_shared(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: SharedBytes,
        info: &[Info],
    ) -> Result<()> {
        let me = self.arc();
        let (source, info) = (source.clone(), info.to_vec());
        self.progress.post(move |r| {
            let bytes: &[u8] = (*data).as_ref();
            let targets: Vec<(ConnId, BufferType, usize)> = {
                let mut st = me.state.lock();
                let st = &mut *st;
                let targets: Vec<_> = st
                    .iof_pulls
                    .iter()
                    .filter(|p| p.wants(&source, channel))
                    .filter_map(|p| Some((p.conn, st.peers.get(&p.conn)?.mode, p.local_ref)))
                    .collect();
                // Cached for a later pull only while the namespace is registered: what
                // arrives after its deregistration (the host's last reads race it) would
                // stay cached for ever.
                if targets.is_empty() && st.jobs.contains_key(&source.nspace) {
                    let complete = crate::iof::is_complete(&info);
                    st.iof_cache
                        .add(me.cfg.iof_cache, &source, channel, bytes, complete);
                }
                targets
            };
            for (id, mode, local_ref) in targets {
                let head = iof_head(mode, &source, channel, local_ref, &info, bytes.len());
                let _ = r.send_shared(id, head, data.clone());
            }
        })
    }

    /// Whether a tool holds `source`'s output on `channel` with `PMIX_IOF_REDIRECT`, so
    /// that the host should not write it to its usual place.
    pub fn iof_redirected(&self, source: &Proc, channel: pmix_iof_channel_t) -> bool {
        self.state
            .lock()
            .iof_pulls
            .iter()
            .any(|p| p.redirect && p.wants(source, channel))
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
        for p in std::mem::take(&mut *self.rendezvous.lock()) {
            let _ = std::fs::remove_file(p);
        }
        {
            let mut st = self.state.lock();
            for (_, f) in st.segments.drain() {
                let _ = std::fs::remove_file(f.path);
            }
            for w in st.modex.detach_all() {
                w.retire();
            }
            if let Some(d) = st.segment_dir.take() {
                let _ = std::fs::remove_dir(d);
            }
            if let Some(mut s) = st.ds21.take() {
                s.remove_all();
            }
        }
        let _ = self.progress.call(Some(Duration::from_secs(5)), |r, done| {
            r.stop();
            done.complete(());
        });
    }

    /// Writes the rendezvous files the configuration asks for.
    fn write_rendezvous(&self) -> Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let path = |p: &PStr| std::path::PathBuf::from(std::ffi::OsStr::from_bytes(p.as_bytes()));
        let mut files = crate::rendezvous::server_files(
            &path(&self.cfg.tmpdir),
            &path(&self.cfg.system_tmpdir),
            &self.cfg.hostname.to_string(),
            &self.cfg.id.nspace.to_string(),
            self.cfg.tool_support,
            self.cfg.session_support,
            self.cfg.system_support,
        );
        files.extend(self.cfg.rendezvous_file.clone());
        let (uid, gid) = crate::wire::own_ids();
        if !files.is_empty() {
            // Files of this user's servers that died without cleaning up (SIGKILL): tools
            // skip them, but they would accumulate. Only same-uid files with a dead pid go.
            let host = self.cfg.hostname.to_string();
            let mut dirs = vec![path(&self.cfg.system_tmpdir)];
            if self.cfg.tmpdir != self.cfg.system_tmpdir {
                dirs.push(path(&self.cfg.tmpdir));
            }
            for d in dirs {
                crate::rendezvous::remove_stale(&d, STALE_SEARCH_DEPTH, &host, uid);
            }
        }
        let text = crate::rendezvous::render(
            &self.uri.to_uri(),
            crate::wire::VERSION,
            std::process::id(),
            uid,
            gid,
            self.uri.unix.as_deref(),
        );
        for f in files {
            crate::rendezvous::write(&f, &text)?;
            self.rendezvous.lock().push(f);
        }
        Ok(())
    }

    // ---- handshake ------------------------------------------------------------------

    /// A new connection: its handshake is read on the progress thread, like every other
    /// message (a thread per connection made a burst of connections a burst of threads).
    /// A peer that has not completed its handshake within `HANDSHAKE_WAIT` is dropped.
    fn accept(self: &Arc<Self>, r: &mut Reactor, stream: Stream) {
        let peer = stream.peer();
        let phase = Arc::new(AtomicU8::new(HELLO));
        let handler = Box::new(HelloConn {
            server: self.clone(),
            peer,
            phase: phase.clone(),
        });
        let Ok(id) = r.add_connection(stream, Box::new(HelloFraming), handler) else {
            return;
        };
        let me = Arc::downgrade(self);
        let t = r.schedule(HANDSHAKE_WAIT, move |r| {
            if let Some(me) = me.upgrade() {
                me.handshake_timers.lock().remove(&id);
            }
            // Still waiting for the hello, or for the host to name a tool.
            match phase.swap(DONE, Ordering::SeqCst) {
                HELLO => Self::refuse(r, id, None),
                HOST => Self::refuse(r, id, Some(PMIX_ERR_TIMEOUT)),
                _ => {}
            }
        });
        self.handshake_timers.lock().insert(id, t);
    }

    /// The handshake of `id` is over (answered, refused, or the connection closed): its
    /// timer goes.
    fn handshake_over(&self, r: &mut Reactor, id: ConnId) {
        let t = self.handshake_timers.lock().remove(&id);
        if let Some(t) = t {
            r.cancel(t);
        }
    }

    /// Answers a handshake that failed with `status` (if any) and closes the connection.
    fn refuse(r: &mut Reactor, id: ConnId, status: Option<pmix_status_t>) {
        if let Some(s) = status {
            let _ = r.send(id, (s as u32).to_be_bytes().to_vec());
        }
        r.close(id, Error::Unreach);
    }

    fn handshake(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        body: &[u8],
        peer: net::Peer,
        phase: &Arc<AtomicU8>,
    ) {
        let Ok(hello) = Hello::parse(body) else {
            return Self::refuse(r, id, None);
        };
        if !matches!(hello.bfrops.as_bytes(), b"v41" | b"v4") {
            return Self::refuse(r, id, None);
        }
        // What the peer claims: its native credential; a tool's stated ids stand in for a
        // tool without one. `psec` "none" claims nothing.
        let claimed = match hello.psec.as_bytes() {
            b"native" => match handshake::parse_native_cred(&hello.cred) {
                Some(ids) => Some(ids),
                None if hello.kind.is_tool() => Some((hello.uid, hello.gid)),
                None => return Self::refuse(r, id, None),
            },
            b"none" => None,
            _ => return Self::refuse(r, id, None),
        };
        // Who the peer is, from the kernel (`security`): a claim that contradicts it is
        // refused, and what the server acts on is never the claim. (Only the fuzz target,
        // whose peers are no sockets, turns this off.)
        let ids = if self.cfg.check_peer_uid {
            match crate::security::verify(&peer, claimed) {
                Ok(ids) => ids,
                Err(e) => return Self::refuse(r, id, Some(e.status())),
            }
        } else {
            let (uid, gid) = claimed.unwrap_or((hello.uid, hello.gid));
            crate::security::PeerIds { uid, gid }
        };
        if hello.kind.is_tool() {
            return self.tool_handshake(r, id, hello, ids, phase);
        }
        let Some(proc) = hello.id.clone() else {
            return Self::refuse(r, id, None);
        };
        let index = {
            let mut st = self.state.lock();
            let Some(reg) = st.clients.get(&proc).copied() else {
                drop(st);
                return Self::refuse(r, id, None);
            };
            if !st.jobs.contains_key(&proc.nspace) {
                drop(st);
                return Self::refuse(r, id, None);
            }
            // A client is the user it was registered as (the host said which), whatever
            // it claims.
            if reg.uid != ids.uid || reg.gid != ids.gid {
                drop(st);
                return Self::refuse(r, id, Some(PMIX_ERR_INVALID_CRED));
            }
            st.next_index += 1;
            st.next_index - 1
        };
        phase.store(DONE, Ordering::SeqCst);
        self.handshake_over(r, id);
        let mut reply = (PMIX_SUCCESS as u32).to_be_bytes().to_vec();
        reply.extend_from_slice(&index.to_be_bytes());
        if r.send(id, reply).is_err() {
            return;
        }
        self.attach(r, id, proc, &hello, ids);
    }

    /// A tool's handshake: the host approves and names the tool (`tool_connected`, given
    /// the tool's verified uid and gid), possibly later and from another thread; the answer
    /// comes back to the progress thread. A host without that upcall has approved no tool:
    /// every tool is refused (the standard's rule; the reference accepts a tool that names
    /// itself, `docs/security.md`).
    fn tool_handshake(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        hello: Hello,
        ids: crate::security::PeerIds,
        phase: &Arc<AtomicU8>,
    ) {
        if !self.host.provides(Upcall::ToolConnected) {
            phase.store(DONE, Ordering::SeqCst);
            return Self::refuse(r, id, Some(PMIX_ERR_NOT_SUPPORTED));
        }
        let mut info = hello.info.clone();
        info.push(Info::new(
            PMIX_VERSION_INFO.to_bytes(),
            Value::String(Some(hello.version.clone())),
        ));
        push_requester(&mut info, ids);
        if let Some(id) = &hello.id {
            info.push(Info::new(
                PMIX_NSPACE.to_bytes(),
                Value::String(Some(id.nspace.clone())),
            ));
            info.push(Info::new(PMIX_RANK.to_bytes(), Value::ProcRank(id.rank)));
        }
        phase.store(HOST, Ordering::SeqCst);
        let (me, phase) = (self.clone(), phase.clone());
        self.host.tool_connected(
            &info,
            Box::new(move |assigned| {
                let server = me.clone();
                let _ = server.progress.post(move |r| {
                    // Not if the connection timed out, or closed, in the meantime.
                    if phase
                        .compare_exchange(HOST, DONE, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok()
                    {
                        me.tool_answer(r, id, hello, ids, assigned);
                    }
                });
            }),
        );
    }

    fn tool_answer(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        hello: Hello,
        ids: crate::security::PeerIds,
        assigned: Result<Proc>,
    ) {
        self.handshake_over(r, id);
        let proc = match assigned {
            Ok(p) => p,
            Err(e) => return Self::refuse(r, id, Some(e.status())),
        };
        let reply = ToolReply {
            status: PMIX_SUCCESS,
            assigned: hello.kind.needs_id().then(|| proc.clone()),
            server: self.cfg.id.clone(),
            cred_status: PMIX_SUCCESS,
        };
        if r.send(id, reply.encode()).is_err() {
            return;
        }
        if r.read_closed(id) {
            // The tool can send no request: answered, it is done (once the answer is out).
            return r.close(id, Error::Unreach);
        }
        self.attach(r, id, proc, &hello, ids);
    }

    /// A connection that passed its handshake becomes a peer, `proc` with the verified
    /// `ids`: the wire's framing and the request dispatcher take it over.
    fn attach(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        proc: Proc,
        hello: &Hello,
        ids: crate::security::PeerIds,
    ) {
        let (mode, kind) = (hello.buffer_type, hello.kind);
        // The peer declared gds "rsshm": its job data comes as a segment to map.
        let shm = hello.gds.as_bytes() == GDS_SHM.as_bytes();
        let ds21 = hello.gds.as_bytes() == crate::datastore::ds21::NAME.as_bytes();
        trace!("server: {proc:?} attached, gds {}", hello.gds);
        let handler = Box::new(PeerConn {
            server: self.clone(),
        });
        if r.rebind(id, Box::new(WireFraming::default()), handler)
            .is_err()
        {
            return;
        }
        let mut st = self.state.lock();
        // A rank that connects again (after a fork, or a restart) is alive again.
        st.dead.remove(&proc);
        st.ended.remove(&proc);
        st.peers.insert(
            id,
            Peer {
                proc: proc.clone(),
                mode,
                kind,
                shm,
                ds21,
                ids,
                v5: crate::wire::is_v5(hello.version.as_bytes()),
                finalized: false,
                codes: Vec::new(),
            },
        );
        drop(st);
        if !kind.is_tool() && self.host.provides(Upcall::ClientConnected) {
            self.host.client_connected(&proc, &[], Box::new(|_| {}));
        }
    }

    // ---- dispatch -------------------------------------------------------------------

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

    /// The job-data segment of `nspace` in buffer type `mode`, written on first use; `None`
    /// when the namespace is not registered or the segment cannot be written (the peer
    /// then gets the job data inline).
    fn segment(&self, nspace: &PStr, mode: BufferType) -> Option<SegmentFile> {
        let mut st = self.state.lock();
        let st = &mut *st;
        let key = (nspace.clone(), mode);
        if let Some(f) = st.segments.get(&key) {
            return Some(f.clone());
        }
        st.jobs.get(nspace)?;
        let dir = self.segment_dir(st)?;
        let job = st.jobs.get(nspace)?;
        // Unique in the process: several servers of one process share its directory.
        let generation = SEGMENT_GEN.fetch_add(1, Ordering::Relaxed) + 1;
        let path = dir.join(format!("job.{generation}"));
        if let Err(e) = job.write_segment(&path, mode, generation) {
            trace!("server: segment {} not written: {e}", path.display());
            let _ = std::fs::remove_file(&path);
            // Made again (or found again) at the next attempt.
            if st.segments.is_empty() && !st.modex.has_segments() {
                st.segment_dir = None;
            }
            return None;
        }
        let f = SegmentFile { path, generation };
        st.segments.insert(key, f.clone());
        Some(f)
    }

    /// The private directory of the segments, created on first use (after removing those
    /// dead servers left).
    fn segment_dir(&self, st: &mut State) -> Option<std::path::PathBuf> {
        if let Some(d) = &st.segment_dir {
            return Some(d.clone());
        }
        let tmp = std::path::PathBuf::from(self.cfg.tmpdir.to_string());
        remove_stale_segment_dirs(&tmp, crate::wire::own_ids().0);
        let d = tmp.join(segment_dir_name(std::process::id()));
        if let Err(e) = private_dir(&d) {
            trace!("server: no segment directory {}: {e}", d.display());
            return None;
        }
        st.segment_dir = Some(d.clone());
        Some(d)
    }

    /// The modex segment of `nspace` (its path and generation), created on first use with
    /// what the namespace's local processes have committed so far; `None` when the
    /// namespace is not registered or the file cannot be made (peers then ask the server).
    fn modex_segment(&self, nspace: &PStr) -> Option<(std::path::PathBuf, u64)> {
        use crate::datastore::segment::{MODEX_LEN, MODEX_MAX_SLOTS, ModexWriter};
        let mut st = self.state.lock();
        let st = &mut *st;
        if let Some(name) = st.modex.segment_name(nspace) {
            return Some(name);
        }
        let job = st.jobs.get(nspace)?;
        let top = job.local_ranks().iter().map(|&r| r as usize + 1).max();
        let nslots = (job.job_size() as usize)
            .max(top.unwrap_or(0))
            .min(MODEX_MAX_SLOTS);
        let dir = self.segment_dir(st)?;
        let generation = SEGMENT_GEN.fetch_add(1, Ordering::Relaxed) + 1;
        let path = dir.join(format!("modex.{generation}"));
        let writer = match ModexWriter::create(&path, generation, nslots, MODEX_LEN) {
            Ok(w) => w,
            Err(e) => {
                trace!("server: modex segment {} not made: {e}", path.display());
                let _ = std::fs::remove_file(&path);
                if st.segments.is_empty() && !st.modex.has_segments() {
                    st.segment_dir = None;
                }
                return None;
            }
        };
        // What the namespace's local processes committed so far moves there now; the store
        // owns the segment from here (retired and unlinked with the job-data segments).
        st.modex.attach(nspace, writer);
        Some((path, generation))
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

    fn command(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        c: u8,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        match c {
            cmd::REQ => {
                // An "rsshm" peer gets a reference to the segment, unless it asks for the
                // inline form (it could not map the segment) or the segment cannot be
                // written.
                let inline = !u.at_end() && u.string()?.is_some_and(|s| s.as_bytes() == REQ_INLINE);
                if peer.shm && !inline {
                    if let Some(seg) = self.segment(&me.nspace, mode) {
                        let mut p = Pack::new(mode);
                        p.string(Some(me.nspace.as_bytes()));
                        p.kval(&Kval {
                            key: PStr::from(SEG_PATH_KEY),
                            value: Value::String(Some(PStr::from(
                                seg.path.as_os_str().as_encoded_bytes(),
                            ))),
                        });
                        p.kval(&Kval {
                            key: PStr::from(SEG_GEN_KEY),
                            value: Value::Uint64(seg.generation),
                        });
                        if let Some((path, generation)) = self.modex_segment(&me.nspace) {
                            p.kval(&Kval {
                                key: PStr::from(MSEG_PATH_KEY),
                                value: Value::String(Some(PStr::from(
                                    path.as_os_str().as_encoded_bytes(),
                                ))),
                            });
                            p.kval(&Kval {
                                key: PStr::from(MSEG_GEN_KEY),
                                value: Value::Uint64(generation),
                            });
                        }
                        Self::reply(r, id, tag, p.into_bytes());
                        return Ok(());
                    }
                }
                if peer.ds21 {
                    if let Some(payload) = self.ds21_reply(&me.nspace, mode) {
                        Self::reply_shared(r, id, tag, payload);
                        return Ok(());
                    }
                }
                // Every rank of a job gets the same reply: packed once per job and buffer
                // type (a 1000-rank job's is about 100 kB, packed for each of 1000 ranks).
                let cached = {
                    let mut st = self.state.lock();
                    let st = &mut *st;
                    match st.jobs.get(&me.nspace) {
                        Some(job) => Some(
                            st.req_replies
                                .entry((me.nspace.clone(), mode))
                                .or_insert_with(|| {
                                    let mut p = Pack::new(mode);
                                    p.string(Some(me.nspace.as_bytes()));
                                    job.pack_req_reply(&mut p);
                                    Arc::new(p.into_bytes())
                                })
                                .clone(),
                        ),
                        None => None,
                    }
                };
                match cached {
                    Some(payload) => {
                        Self::reply_shared(r, id, tag, payload);
                    }
                    None => {
                        let mut p = Pack::new(mode);
                        p.string(Some(me.nspace.as_bytes()));
                        Self::reply(r, id, tag, p.into_bytes());
                    }
                }
            }
            cmd::COMMIT => {
                let mut parts = Vec::new();
                while !u.at_end() {
                    let scope = match u.one(PMIX_SCOPE)? {
                        Value::Scope(s) => s,
                        _ => return Err(Error::UnpackFailure),
                    };
                    let (bt, raw) = u.buffer()?;
                    let mut inner = Unpack::new(bt, raw);
                    parts.push((scope, inner.kvals_to_end()?));
                }
                // Local peers read the new values from the modex segment once this COMMIT
                // is answered (before this connection's fence contribution).
                self.state.lock().modex.commit_all(me, parts);
                Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
                self.retry_gets(r);
                self.serve_dmodex_waiters();
            }
            cmd::FENCENB => {
                let procs = u.procs()?;
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                let collect = flag(&info, PMIX_COLLECT_DATA);
                self.collective(
                    r,
                    id,
                    tag,
                    me,
                    CollKind::Fence,
                    Vec::new(),
                    procs,
                    info,
                    collect,
                )?;
            }
            cmd::GETNB => {
                let ns = u.string()?.unwrap_or_default();
                let rank = u.rank()?;
                let info = u.infos()?;
                let key = if u.at_end() {
                    None
                } else {
                    u.string().ok().flatten()
                };
                trace!("server: get {ns}:{rank} key {key:?} for {me:?}");
                self.get_requests.fetch_add(1, Ordering::Relaxed);
                self.get(r, id, tag, me, Proc::new(ns, rank), key, info);
            }
            cmd::FINALIZE => {
                if let Some(p) = self.state.lock().peers.get_mut(&id) {
                    p.finalized = true;
                }
                // The reply waits for the host, as the reference's does: a client exits as
                // soon as it is answered, and a host such as mpirun must have recorded the
                // finalize before it sees the exit (else: "exiting improperly").
                if !peer.kind.is_tool() && self.host.provides(Upcall::ClientFinalized) {
                    let done = self.later(move |_, r, _res: Result<()>| {
                        Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
                    });
                    self.host.client_finalized(me, done);
                } else {
                    Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
                }
            }
            cmd::ABORT => {
                let status = u.status()?;
                let msg = u.string()?;
                let procs = u.procs()?;
                if !self.host.provides(Upcall::Abort) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<()>| {
                    Self::reply_status(r, id, tag, mode, status_of(&res));
                });
                self.host
                    .abort(me, status, msg.as_ref().map(PStr::as_bytes), &procs, done);
            }
            cmd::PUBLISHNB => {
                // The uid the request states is not used: the verified one is.
                let _claimed_uid = u.u32()?;
                let info = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::Publish) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<()>| {
                    Self::reply_status(r, id, tag, mode, status_of(&res));
                });
                self.host.publish(me, &info, done);
            }
            cmd::LOOKUPNB => {
                let _claimed_uid = u.u32()?;
                let n = u.size()?;
                let keys = u.strings(n)?;
                let info = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::Lookup) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<Vec<Pdata>>| {
                    let mut p = Pack::new(mode);
                    match res {
                        Ok(d) => p.status(PMIX_SUCCESS).pdata(&d),
                        Err(e) => p.status(e.status()),
                    };
                    Self::reply(r, id, tag, p.into_bytes());
                });
                self.host.lookup(me, &keys, &info, done);
            }
            cmd::UNPUBLISHNB => {
                let _claimed_uid = u.u32()?;
                let n = u.size()?;
                let keys = u.strings(n)?;
                let info = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::Unpublish) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<()>| {
                    Self::reply_status(r, id, tag, mode, status_of(&res));
                });
                self.host.unpublish(me, &keys, &info, done);
            }
            cmd::SPAWNNB => {
                let info = requester_info(peer, u.infos()?);
                let apps = u.apps()?;
                if !self.host.provides(Upcall::Spawn) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |s: &Arc<Shared>, r, res: Result<Vec<u8>>| {
                    let mut p = Pack::new(mode);
                    match res {
                        Ok(ns) => {
                            p.status(PMIX_SUCCESS).string(Some(&ns));
                            if let Some(job) = s.state.lock().jobs.get(&PStr::from(ns)) {
                                for kv in job.req_reply() {
                                    p.kval(&kv);
                                }
                            }
                        }
                        Err(e) => {
                            p.status(e.status()).string(None);
                        }
                    }
                    Self::reply(r, id, tag, p.into_bytes());
                });
                self.host.spawn(me, &info, &apps, done);
            }
            cmd::CONNECTNB | cmd::DISCONNECTNB => {
                let procs = u.procs()?;
                trace!(
                    "server: connect/disconnect {c} of {procs:?} by {me:?}; known jobs {:?}",
                    self.state.lock().jobs.keys().collect::<Vec<_>>()
                );
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                let kind = if c == cmd::CONNECTNB {
                    CollKind::Connect
                } else {
                    CollKind::Disconnect
                };
                self.collective(r, id, tag, me, kind, Vec::new(), procs, info, false)?;
            }
            cmd::GROUP_CONSTRUCT => {
                let grp = u.string()?.unwrap_or_default().into_bytes();
                let procs = u.procs()?;
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                self.collective(
                    r,
                    id,
                    tag,
                    me,
                    CollKind::GroupConstruct,
                    grp,
                    procs,
                    info,
                    false,
                )?;
            }
            cmd::GROUP_DESTRUCT => {
                let grp = u.string()?.unwrap_or_default().into_bytes();
                if peer.v5 {
                    // The members it knows of; the server's own record decides.
                    let _ = u.procs()?;
                }
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                // The members are those that construct the group; destruct is collective
                // over the same set, which each member names only by the group id.
                self.collective(
                    r,
                    id,
                    tag,
                    me,
                    CollKind::GroupDestruct,
                    grp,
                    Vec::new(),
                    info,
                    false,
                )?;
            }
            cmd::GROUP_LEAVE => return Err(Error::NotSupported),
            cmd::NOTIFY => {
                let code = u.status()?;
                let range = u.range()?;
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                let ev = Event {
                    code,
                    source: me.clone(),
                    range,
                    info,
                };
                if code == PMIX_GROUP_CONSTRUCT_COMPLETE {
                    self.learn_group(&ev.info);
                }
                let sent_to = self.relay_event(r, &ev, Some(id));
                // Kept for processes that register for it later (a debugger's release may
                // come before its target registered for it), as the reference does, unless
                // the notifier said not to.
                if range != PMIX_RANGE_LOCAL && !flag(&ev.info, PMIX_EVENT_DO_NOT_CACHE) {
                    let mut st = self.state.lock();
                    if st.event_cache.len() >= EVENT_CACHE {
                        st.event_cache.pop_front();
                    }
                    st.event_cache.push_back(CachedEvent {
                        ev: ev.clone(),
                        sent_to: sent_to.into_iter().collect(),
                    });
                }
                Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
                if range != PMIX_RANGE_LOCAL && self.host.provides(Upcall::NotifyEvent) {
                    self.host
                        .notify_event(code, me, range, &ev.info, Box::new(|_| {}));
                }
            }
            cmd::REGEVENTS => {
                let n = u.size()?;
                let codes: Vec<pmix_status_t> = if n > 0 {
                    u.values(PMIX_STATUS, n)?
                        .into_iter()
                        .filter_map(|v| match v {
                            Value::Status(s) => Some(s),
                            _ => None,
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                if let Some(p) = self.state.lock().peers.get_mut(&id) {
                    if codes.is_empty() {
                        p.codes.push(None);
                    } else {
                        p.codes.extend(codes.iter().map(|&c| Some(c)));
                    }
                }
                Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
                // Cached events of these codes that this process has not had yet (only for
                // specific codes: a default handler registered now must not see old errors).
                let late: Vec<Event> = {
                    let mut st = self.state.lock();
                    st.event_cache
                        .iter_mut()
                        .filter(|c| {
                            codes.contains(&c.ev.code)
                                && c.ev.source != *me
                                && Self::in_range(&c.ev, me)
                                && !c.sent_to.contains(me)
                        })
                        .map(|c| {
                            c.sent_to.insert(me.clone());
                            c.ev.clone()
                        })
                        .collect()
                };
                for ev in late {
                    Self::send_event(r, id, mode, &ev);
                }
                if self.host.provides(Upcall::RegisterEvents) {
                    self.host.register_events(&codes, &info, Box::new(|_| {}));
                }
            }
            cmd::DEREGEVENTS => {
                let mut codes = Vec::new();
                while !u.at_end() {
                    codes.push(u.status()?);
                }
                if let Some(p) = self.state.lock().peers.get_mut(&id) {
                    for c in &codes {
                        let target = if *c == crate::wire::cmd::DEFAULT_HANDLER_CODE {
                            None
                        } else {
                            Some(*c)
                        };
                        if let Some(pos) = p.codes.iter().position(|x| *x == target) {
                            p.codes.remove(pos);
                        }
                    }
                }
                if self.host.provides(Upcall::DeregisterEvents) {
                    self.host.deregister_events(&codes, Box::new(|_| {}));
                }
            }
            cmd::QUERY => {
                let queries = u.queries()?;
                if !self.host.provides(Upcall::Query) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res));
                self.host.query(me, &queries, done);
            }
            cmd::LOG => {
                let _time = u.one(PMIX_TIME)?;
                let data = u.infos()?;
                let dirs = requester_info(peer, if u.at_end() { Vec::new() } else { u.infos()? });
                if !self.host.provides(Upcall::Log) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<()>| {
                    Self::reply_status(r, id, tag, mode, status_of(&res));
                });
                self.host.log(me, &data, &dirs, done);
            }
            cmd::ALLOC => {
                let directive = match u.one(PMIX_ALLOC_DIRECTIVE)? {
                    Value::AllocDirective(d) => d,
                    _ => return Err(Error::UnpackFailure),
                };
                let info = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::Allocate) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res));
                self.host.allocate(me, directive, &info, done);
            }
            cmd::JOB_CONTROL => {
                let targets = u.procs()?;
                let dirs = u.infos()?;
                // Cleanup registrations are the server's own business (done when the
                // requester ends); the rest goes to the host.
                let (cleanup, dirs) = crate::cleanup::Cleanup::split(&dirs);
                if !cleanup.is_empty() {
                    self.state.lock().cleanups.push((id, cleanup));
                    if dirs.is_empty() {
                        Self::reply_infos(r, id, tag, mode, Ok(Vec::new()));
                        return Ok(());
                    }
                }
                if !self.host.provides(Upcall::JobControl) {
                    return Err(Error::NotSupported);
                }
                let dirs = requester_info(peer, dirs);
                let done = self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res));
                self.host.job_control(me, &targets, &dirs, done);
            }
            cmd::MONITOR => {
                let monitor = match u.one(PMIX_INFO)? {
                    Value::Info(i) => *i,
                    _ => return Err(Error::UnpackFailure),
                };
                let error = u.status()?;
                let dirs = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::Monitor) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res));
                self.host.monitor(me, &monitor, error, &dirs, done);
            }
            cmd::GET_CREDENTIAL => {
                let dirs = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::GetCredential) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<crate::host::Credential>| {
                    let mut p = Pack::new(mode);
                    match res {
                        Ok(c) => p.status(PMIX_SUCCESS).bytes(&c.cred).infos(&c.info),
                        Err(e) => p.status(e.status()),
                    };
                    Self::reply(r, id, tag, p.into_bytes());
                });
                self.host.get_credential(me, &dirs, done);
            }
            cmd::VALIDATE_CRED => {
                let cred = u.bytes()?;
                let dirs = requester_info(peer, u.infos()?);
                if !self.host.provides(Upcall::ValidateCredential) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<crate::host::Validation>| {
                    Self::reply_infos(r, id, tag, mode, res.map(|v| v.info));
                });
                self.host.validate_credential(me, &cred, &dirs, done);
            }
            cmd::IOF_PULL => {
                let procs = u.procs()?;
                let dirs = u.infos()?;
                let channels = match u.one(PMIX_IOF_CHANNEL)? {
                    Value::IofChannel(c) => c,
                    _ => return Err(Error::UnpackFailure),
                };
                let local_ref = u.size()?;
                // The registration is ours to serve (PMIx_server_IOF_deliver); the host is
                // told so that it starts forwarding, when it wants to know. Cached output
                // it wants goes first, in the same step, so that nothing delivered later
                // overtakes it (the requester accepts output before the reply).
                let pull = IofPull {
                    conn: id,
                    procs: procs.clone(),
                    channels,
                    local_ref,
                    refid: 0,
                    redirect: flag(&dirs, PMIX_IOF_REDIRECT) && !flag(&dirs, PMIX_IOF_COPY),
                };
                let policy = crate::iof::CachePolicy::from_info(self.cfg.iof_cache, &dirs);
                let (refid, cached) = {
                    let mut st = self.state.lock();
                    st.next_iof += 1;
                    let refid = st.next_iof;
                    let cached = st.iof_cache.take_matching(|p, ch| pull.wants(p, ch));
                    st.iof_pulls.push(IofPull { refid, ..pull });
                    (refid, cached)
                };
                let done_info = [Info::new(PMIX_IOF_COMPLETE.to_bytes(), Value::Bool(true))];
                for (source, channel, stream) in cached {
                    let complete = stream.complete;
                    for chunk in stream.take(policy) {
                        let _ = r.send(
                            id,
                            iof_frame(mode, &source, channel, local_ref, &[], &chunk),
                        );
                    }
                    if complete {
                        let _ = r.send(
                            id,
                            iof_frame(mode, &source, channel, local_ref, &done_info, &[]),
                        );
                    }
                }
                let finish = move |r: &mut Reactor, res: Result<()>| {
                    let mut p = Pack::new(mode);
                    p.status(status_of(&res));
                    if res.is_ok() {
                        p.size(refid);
                    }
                    Self::reply(r, id, tag, p.into_bytes());
                };
                if self.host.provides(Upcall::IofPull) {
                    let done = self.later(move |s, r, res: Result<()>| {
                        if res.is_err() {
                            s.state.lock().iof_pulls.retain(|p| p.refid != refid);
                        }
                        finish(r, res)
                    });
                    let dirs = requester_info(peer, dirs);
                    self.host.iof_pull(&procs, &dirs, channels, done);
                } else {
                    finish(r, Ok(()));
                }
            }
            cmd::IOF_PUSH => {
                let targets = u.procs()?;
                let dirs = requester_info(peer, u.infos()?);
                let data = if u.at_end() { None } else { Some(u.bytes()?) };
                if !self.host.provides(Upcall::PushStdin) {
                    return Err(Error::NotSupported);
                }
                let done = self.later(move |_, r, res: Result<()>| {
                    Self::reply_status(r, id, tag, mode, status_of(&res));
                });
                self.host
                    .push_stdin(me, &targets, &dirs, data.as_deref(), done);
            }
            cmd::IOF_DEREG => {
                let _dirs = u.infos()?;
                let refid = u.size()?;
                let found = {
                    let mut st = self.state.lock();
                    let before = st.iof_pulls.len();
                    st.iof_pulls.retain(|p| !(p.conn == id && p.refid == refid));
                    st.iof_pulls.len() != before
                };
                let status = if found {
                    PMIX_SUCCESS
                } else {
                    PMIX_ERR_NOT_FOUND
                };
                Self::reply_status(r, id, tag, mode, status);
            }
            cmd::FABRIC_REGISTER | cmd::FABRIC_UPDATE if self.host.provides(Upcall::Fabric) => {
                // A registration carries the requester's directives; an update the index of
                // the fabric, which the host gets as PMIX_FABRIC_INDEX (as from the reference).
                let (op, dirs) = if c == cmd::FABRIC_REGISTER {
                    (PMIX_FABRIC_REQUEST_INFO, u.infos()?)
                } else {
                    let index =
                        Info::new(PMIX_FABRIC_INDEX.to_bytes(), Value::Size(u.size()? as u64));
                    (PMIX_FABRIC_UPDATE_INFO, vec![index])
                };
                let dirs = requester_info(peer, dirs);
                let done = self.later(move |_, r, res| Self::reply_infos(r, id, tag, mode, res));
                self.host.fabric(me, op, &dirs, done);
            }
            cmd::FABRIC_REGISTER | cmd::FABRIC_UPDATE => {
                Self::reply_infos(r, id, tag, mode, Err(Error::NotSupported));
            }
            cmd::COMPUTE_DEVICE_DISTANCES => {
                let topo = u.one(PMIX_TOPO)?;
                let cpuset = u.one(PMIX_PROC_CPUSET)?;
                let dirs = u.infos()?;
                let mut p = Pack::new(mode);
                match self.device_distances(me, &topo, &cpuset, &dirs) {
                    Ok(d) => {
                        p.status(PMIX_SUCCESS).size(d.len()).many(
                            PMIX_DEVICE_DIST,
                            d.into_iter()
                                .map(|x| Value::DeviceDist(Box::new(x)))
                                .collect(),
                        );
                    }
                    Err(e) => {
                        p.status(e.status());
                    }
                }
                Self::reply(r, id, tag, p.into_bytes());
            }
            cmd::REFRESH_CACHE => {
                // A 5.0 client's PMIx_Get with PMIX_GET_REFRESH_CACHE: everything held here
                // of one process, its registered data and what it committed.
                let ns = u.string()?.ok_or(Error::BadParam)?;
                let rank = u.rank()?;
                let target = Proc::new(ns, rank);
                let kvals = {
                    let st = self.state.lock();
                    let job = st.jobs.get(&target.nspace).ok_or(Error::NotFound)?;
                    let mut kvals = job.rank_info(rank);
                    kvals.extend(st.modex.kvals(&target, true).unwrap_or_default());
                    kvals
                };
                let mut p = Pack::new(mode);
                p.status(PMIX_SUCCESS);
                for kv in &kvals {
                    p.kval(kv);
                }
                Self::reply(r, id, tag, p.into_bytes());
            }
            cmd::RESOLVE_PEERS => {
                // A node (none: this one) and a namespace (none: every one known here).
                let node = u.string()?.unwrap_or_else(local_hostname);
                let ns = u.string()?;
                let procs = self.resolve_peers(&node, ns.as_ref())?;
                let mut p = Pack::new(mode);
                p.status(PMIX_SUCCESS).procs(&procs);
                Self::reply(r, id, tag, p.into_bytes());
            }
            cmd::RESOLVE_NODE => {
                let ns = u.string()?;
                let nodes = self.resolve_nodes(ns.as_ref())?;
                let mut p = Pack::new(mode);
                p.status(PMIX_SUCCESS)
                    .string(Some(nodes.join(&b","[..]).as_slice()));
                Self::reply(r, id, tag, p.into_bytes());
            }
            _ => return Err(Error::NotSupported),
        }
        Ok(())
    }

    /// The processes of `ns` (none: of every namespace registered here) on `node`, from
    /// the registered job data. `PMIX_ERR_NOT_FOUND` for a namespace not registered here.
    fn resolve_peers(&self, node: &PStr, ns: Option<&PStr>) -> Result<Vec<Proc>> {
        let st = self.state.lock();
        if ns.is_some_and(|n| !st.jobs.contains_key(n)) {
            return Err(Error::NotFound);
        }
        let mut out = Vec::new();
        for (name, job) in &st.jobs {
            if ns.is_none_or(|n| n == name) {
                out.extend(
                    job.ranks_on(node.as_bytes())
                        .into_iter()
                        .map(|r| Proc::new(name.clone(), r)),
                );
            }
        }
        out.sort();
        Ok(out)
    }

    /// The nodes of `ns` (none: of every namespace registered here), each named once.
    fn resolve_nodes(&self, ns: Option<&PStr>) -> Result<Vec<Vec<u8>>> {
        let st = self.state.lock();
        if ns.is_some_and(|n| !st.jobs.contains_key(n)) {
            return Err(Error::NotFound);
        }
        let mut out: Vec<Vec<u8>> = Vec::new();
        let mut names: Vec<&PStr> = st
            .jobs
            .keys()
            .filter(|n| ns.is_none_or(|x| x == *n))
            .collect();
        names.sort();
        for name in names {
            for node in st.jobs[name].nodes() {
                if !out.iter().any(|o| o == node.as_bytes()) {
                    out.push(node.as_bytes().to_vec());
                }
            }
        }
        Ok(out)
    }

    /// The answer to a client's COMPUTE_DEVICE_DISTANCES (sent by a client that cannot load
    /// a topology itself): in the topology the request carries, or this machine's, from the
    /// CPUs of its cpuset, or else those of the binding the host registered for the
    /// requester (`PMIX_CPUSET`), or else the whole machine (an unbound process).
    fn device_distances(
        &self,
        me: &Proc,
        topo: &Value,
        cpuset: &Value,
        dirs: &[Info],
    ) -> Result<Vec<crate::values::DeviceDistance>> {
        use crate::topology::{self, LocalTopology};
        use crate::values::TopologyData;
        let Value::ProcCpuset(cs) = cpuset else {
            return Err(Error::BadParam);
        };
        let mut cs = (**cs).clone();
        if cs.bitmap.is_none() {
            let registered = self
                .state
                .lock()
                .jobs
                .get(&me.nspace)
                .and_then(|j| j.get(me.rank, PMIX_CPUSET.to_bytes()));
            if let Some(Value::String(Some(s))) = registered {
                cs = topology::parse_cpuset_string(s.as_bytes())?;
            }
        }
        let (types, ids) = topology::distance_selection(dirs);
        let host = local_hostname().to_string();
        if let Value::Topo(t) = topo
            && let TopologyData::Xml(xml) = &t.data
        {
            let xml = std::str::from_utf8(xml).map_err(|_| Error::BadParam)?;
            LocalTopology::from_xml(xml)?.device_distances(&cs, types, &ids, &host)
        } else {
            topology::local()?.device_distances(&cs, types, &ids, &host)
        }
    }

    /// Records a group that clients formed among themselves by invitation: the reference's
    /// clients do it with events alone (`PMIX_GROUP_INVITED`, `_INVITE_ACCEPTED`, then
    /// `PMIX_GROUP_CONSTRUCT_COMPLETE` from the leader with the group's id and its members as
    /// the custom range) and then fence over `{id, WILDCARD}`, which must name the members.
    /// A group constructed through the server already is kept as it is.
    fn learn_group(&self, info: &[Info]) {
        let Some(Value::String(Some(id))) =
            info.iter().find(|i| i.is(PMIX_GROUP_ID)).map(|i| &i.value)
        else {
            return;
        };
        let members = info
            .iter()
            .find(|i| i.is(PMIX_EVENT_CUSTOM_RANGE))
            .map_or_else(Vec::new, |i| i.value.procs());
        if !members.is_empty() {
            self.state
                .lock()
                .groups
                .entry(id.as_bytes().to_vec())
                .or_insert(members);
        }
    }

    // ---- collectives ----------------------------------------------------------------

    /// The local participants of a collective over `procs`, and whether every
    /// participant is local.
    fn local_participants(st: &State, procs: &[Proc]) -> (BTreeSet<Proc>, bool) {
        let mut local = BTreeSet::new();
        let mut all_local = true;
        // A group's name stands for its members (`{grp, WILDCARD}` in a fence).
        let expanded: Vec<Proc> = procs
            .iter()
            .flat_map(|p| match st.groups.get(p.nspace.as_bytes()) {
                Some(members)
                    if p.rank == PMIX_RANK_WILDCARD && !st.jobs.contains_key(&p.nspace) =>
                {
                    members.clone()
                }
                _ => vec![p.clone()],
            })
            .collect();
        // The local ranks of a registered job are its ranks on this node whether or not
        // they have been registered as clients yet (a host may register and fork them one
        // by one while the first already take part in a collective), and a rank that died
        // stays one after the host deregistered it (the collective then fails below
        // instead of completing without it); of any other namespace, the clients
        // registered here.
        for p in &expanded {
            let job = st.jobs.get(&p.nspace);
            if p.rank == PMIX_RANK_WILDCARD {
                let mut mine: BTreeSet<Proc> = st
                    .clients
                    .keys()
                    .filter(|c| c.nspace == p.nspace)
                    .cloned()
                    .collect();
                if let Some(j) = job {
                    mine.extend(
                        j.local_ranks()
                            .iter()
                            .map(|&r| Proc::new(p.nspace.clone(), r))
                            .filter(|q| !st.ended.contains(q) || st.dead.contains(q)),
                    );
                }
                if job.map(|j| j.job_size() as usize) != Some(mine.len()) {
                    all_local = false;
                }
                local.extend(mine);
            } else if st.clients.contains_key(p)
                || (job.is_some_and(|j| j.local_ranks().contains(&p.rank))
                    && (!st.ended.contains(p) || st.dead.contains(p)))
            {
                local.insert(p.clone());
            } else {
                all_local = false;
            }
        }
        (local, all_local)
    }

    #[allow(clippy::too_many_arguments)]
    fn collective(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        me: &Proc,
        kind: CollKind,
        grp: Vec<u8>,
        procs: Vec<Proc>,
        info: Vec<Info>,
        collect: bool,
    ) -> Result<()> {
        let mut sorted = procs.clone();
        sorted.sort();
        sorted.dedup();
        let key = CollKey {
            kind,
            id: grp,
            procs: if matches!(kind, CollKind::GroupConstruct | CollKind::GroupDestruct) {
                Vec::new()
            } else {
                sorted.clone()
            },
        };
        let timeout = info
            .iter()
            .find(|i| i.is(PMIX_TIMEOUT))
            .and_then(|i| i.value.as_u64())
            .filter(|&t| t > 0)
            // Larger deadlines overflow `Instant` (a panic on the progress thread).
            .map(|t| t.min(u64::from(u32::MAX)));
        let mode = self
            .state
            .lock()
            .peers
            .get(&id)
            .map(|p| p.mode)
            .unwrap_or_default();
        let (complete, participants) = {
            let mut st = self.state.lock();
            // A group is destructed by its members, who name it only by its id.
            let participants = if kind == CollKind::GroupDestruct {
                st.groups
                    .get(&key.id)
                    .cloned()
                    .unwrap_or_else(|| vec![me.clone()])
            } else if sorted.is_empty() {
                vec![me.clone()]
            } else {
                sorted.clone()
            };
            // The local participants are found once, by the first arrival (each later one
            // used to find them again: O(N) per arrival, O(N²) per fence of N local ranks).
            // A participant that already died fails the collective at once; one that dies
            // later fails the collective it is expected in (`Shared::lost`), so a
            // collective that exists has no dead participant.
            if !st.collectives.contains_key(&key) {
                let (expected, _) = Self::local_participants(&st, &participants);
                if expected.iter().any(|p| st.dead.contains(p)) {
                    drop(st);
                    Self::reply_status(r, id, tag, mode, PMIX_ERR_PARTIAL_SUCCESS);
                    return Ok(());
                }
                st.collectives.insert(
                    key.clone(),
                    Collective {
                        expected,
                        arrived: Vec::new(),
                        info: info.clone(),
                        collect,
                        timer: None,
                    },
                );
            }
            let c = st
                .collectives
                .get_mut(&key)
                .expect("inserted above or by an earlier arrival");
            c.collect |= collect;
            c.arrived.push((id, tag, me.clone()));
            c.expected.remove(me);
            if c.timer.is_none()
                && let Some(t) = timeout
            {
                let me2 = self.arc();
                let k2 = key.clone();
                c.timer = Some(r.schedule(Duration::from_secs(t), move |r| {
                    me2.fail_collective(r, &k2, PMIX_ERR_TIMEOUT);
                }));
            }
            (c.expected.is_empty(), participants)
        };
        if complete {
            self.complete_collective(r, key, participants);
        }
        Ok(())
    }

    fn fail_collective(&self, r: &mut Reactor, key: &CollKey, status: pmix_status_t) {
        let Some(c) = self.state.lock().collectives.remove(key) else {
            return;
        };
        let forms = self.forms(c.arrived.iter().map(|a| a.0));
        for ((conn, tag, _), (mode, _)) in c.arrived.iter().zip(forms) {
            Self::reply_status(r, *conn, *tag, mode, status);
        }
        if let Some(t) = c.timer {
            r.cancel(t);
        }
    }

    /// For each of the connections `ids`: the buffer type it packs in, and whether it
    /// announced OpenPMIx 5 or later (the form of its group replies).
    fn forms(&self, ids: impl Iterator<Item = ConnId>) -> Vec<(BufferType, bool)> {
        let st = self.state.lock();
        ids.map(|i| st.peers.get(&i).map(|p| (p.mode, p.v5)).unwrap_or_default())
            .collect()
    }

    fn complete_collective(&self, r: &mut Reactor, key: CollKey, procs: Vec<Proc>) {
        let (c, all_local, contribution, ranks) = {
            let mut st = self.state.lock();
            let Some(c) = st.collectives.remove(&key) else {
                return;
            };
            let (_, all_local) = Self::local_participants(&st, &procs);
            // Only a collective the host takes part in can bring other nodes' data back.
            let ranks = if all_local {
                FenceRanks(Vec::new())
            } else {
                FenceRanks::of(&st, &procs)
            };
            // Only the host's fence carries it: a fence of local processes only answers
            // with a status, and their data stays here for GETNB. It is in the reference's
            // inter-server format, so that other nodes' servers may be either library.
            let contribution = if c.collect && !all_local {
                let local: Vec<Proc> = c.arrived.iter().map(|a| a.2.clone()).collect();
                st.modex.fence_contribution(&local, |p| ranks.relative(p))
            } else {
                Vec::new()
            };
            (c, all_local, contribution, ranks)
        };
        if let Some(t) = c.timer {
            r.cancel(t);
        }
        let arrived = c.arrived;
        let procs_for_reply = procs.clone();
        let group_id = key.id.clone();
        let finish = move |s: &Arc<Shared>,
                           r: &mut Reactor,
                           res: Result<(Vec<u8>, Option<u64>)>,
                           kind: CollKind| {
            let ctx = res.as_ref().ok().and_then(|x| x.1);
            let status = match &res {
                Ok((blob, _)) => {
                    if !blob.is_empty() {
                        let r = s
                            .state
                            .lock()
                            .modex
                            .absorb_fence(blob, |rel| ranks.proc_of(rel));
                        trace!(
                            "server: fence data of {} bytes from the host: {r:?}",
                            blob.len()
                        );
                    }
                    PMIX_SUCCESS
                }
                Err(e) => e.status(),
            };
            let forms = s.forms(arrived.iter().map(|a| a.0));
            for ((conn, tag, who), (mode, v5)) in arrived.iter().zip(forms) {
                let mut p = Pack::new(mode);
                p.status(status);
                if status == PMIX_SUCCESS {
                    match kind {
                        CollKind::Connect => {
                            // The job data of every other namespace of the connection.
                            let st = s.state.lock();
                            let mut seen = BTreeSet::new();
                            for pr in &procs_for_reply {
                                if pr.nspace != who.nspace
                                    && seen.insert(pr.nspace.clone())
                                    && let Some(job) = st.jobs.get(&pr.nspace)
                                {
                                    trace!(
                                        "server: connect reply to {who:?} carries {}",
                                        pr.nspace
                                    );
                                    let mut inner = Pack::new(mode);
                                    inner.string(Some(pr.nspace.as_bytes()));
                                    for kv in job.req_reply() {
                                        inner.kval(&kv);
                                    }
                                    p.bytes(&inner.into_bytes());
                                }
                            }
                        }
                        CollKind::GroupConstruct | CollKind::GroupDestruct => {
                            // A 5.0 peer reads the final membership first.
                            if v5 && kind == CollKind::GroupConstruct {
                                p.procs(&procs_for_reply);
                            }
                            if let Some(c) = ctx {
                                p.size(c as usize);
                            }
                        }
                        _ => {}
                    }
                }
                Self::reply(r, *conn, *tag, p.into_bytes());
            }
            if status == PMIX_SUCCESS {
                match kind {
                    CollKind::GroupConstruct => {
                        s.state
                            .lock()
                            .groups
                            .insert(group_id.clone(), procs_for_reply.clone());
                    }
                    CollKind::GroupDestruct => {
                        s.state.lock().groups.remove(&group_id);
                    }
                    _ => {}
                }
                s.retry_gets(r);
            }
        };
        let kind = key.kind;
        let needs_host = !all_local;
        match kind {
            CollKind::Fence if needs_host && self.host.provides(Upcall::FenceNb) => {
                let done = self.later(move |s, r, res: Result<Vec<u8>>| {
                    finish(s, r, res.map(|b| (b, None)), kind)
                });
                self.host.fence_nb(&procs, &c.info, contribution, done);
            }
            CollKind::Connect if self.host.provides(Upcall::Connect) => {
                let done = self.later(move |s, r, res: Result<()>| {
                    finish(s, r, res.map(|()| (Vec::new(), None)), kind)
                });
                self.host.connect(&procs, &c.info, done);
            }
            CollKind::Disconnect if self.host.provides(Upcall::Disconnect) => {
                let done = self.later(move |s, r, res: Result<()>| {
                    finish(s, r, res.map(|()| (Vec::new(), None)), kind)
                });
                self.host.disconnect(&procs, &c.info, done);
            }
            CollKind::GroupConstruct | CollKind::GroupDestruct
                if self.host.provides(Upcall::Group) =>
            {
                let op = if kind == CollKind::GroupConstruct {
                    PMIX_GROUP_CONSTRUCT
                } else {
                    PMIX_GROUP_DESTRUCT
                };
                let done = self.later(move |s, r, res: Result<Vec<Info>>| {
                    let res = res.map(|infos| {
                        let ctx = infos
                            .iter()
                            .find(|i| i.is(PMIX_GROUP_CONTEXT_ID))
                            .and_then(|i| i.value.as_u64());
                        (Vec::new(), ctx)
                    });
                    finish(s, r, res, kind)
                });
                self.host.group(op, &key.id, &procs, &c.info, done);
            }
            _ if needs_host && kind != CollKind::Disconnect => {
                finish(&self.arc(), r, Err(Error::NotSupported), kind);
            }
            _ => finish(&self.arc(), r, Ok((Vec::new(), None)), kind),
        }
    }

    // ---- get ------------------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn get(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        requester: &Proc,
        target: Proc,
        key: Option<PStr>,
        info: Vec<Info>,
    ) {
        let immediate = flag(&info, PMIX_IMMEDIATE);
        let timeout = info
            .iter()
            .find(|i| i.is(PMIX_TIMEOUT))
            .and_then(|i| i.value.as_u64())
            .filter(|&t| t > 0)
            // Larger deadlines overflow `Instant` (a panic on the progress thread).
            .map(|t| t.min(u64::from(u32::MAX)));
        let dmodex = !immediate && self.host.provides(Upcall::DirectModex);
        if self.try_get(
            r,
            id,
            tag,
            requester,
            &target,
            key.as_ref(),
            immediate,
            dmodex,
        ) {
            return;
        }
        // Not available yet: ask the host for a remote process, else wait.
        let remote = {
            let st = self.state.lock();
            target.rank != PMIX_RANK_WILDCARD
                && !Self::runs_here(&st, &target)
                && st.jobs.contains_key(&target.nspace)
        };
        if remote && self.host.provides(Upcall::DirectModex) {
            let requester = requester.clone();
            let t2 = target.clone();
            let done = self.later(move |s, r, res: Result<Vec<u8>>| match res {
                Ok(blob) => {
                    let a = s.state.lock().modex.absorb_dmodex(&t2, &blob);
                    trace!(
                        "server: dmodex of {t2:?}: {} bytes, absorb {a:?}",
                        blob.len()
                    );
                    if !s.try_get(r, id, tag, &requester, &t2, key.as_ref(), true, false) {
                        let mode = s
                            .state
                            .lock()
                            .peers
                            .get(&id)
                            .map(|p| p.mode)
                            .unwrap_or_default();
                        Self::reply_status(r, id, tag, mode, PMIX_ERR_NOT_FOUND);
                    }
                }
                Err(e) => {
                    trace!("server: dmodex failed: {e:?}");
                    let mode = s
                        .state
                        .lock()
                        .peers
                        .get(&id)
                        .map(|p| p.mode)
                        .unwrap_or_default();
                    Self::reply_status(r, id, tag, mode, e.status());
                }
            });
            self.host.direct_modex(&target, &info, done);
            return;
        }
        let mut st = self.state.lock();
        let gid = st.next_get;
        st.next_get += 1;
        let timer = timeout.map(|t| {
            let me = self.arc();
            r.schedule(Duration::from_secs(t), move |r| me.expire_get(r, gid))
        });
        st.gets.push(PendingGet {
            conn: id,
            tag,
            requester: requester.clone(),
            target,
            key,
            timer,
            id: gid,
        });
    }

    fn expire_get(&self, r: &mut Reactor, gid: u64) {
        let g = {
            let mut st = self.state.lock();
            let Some(pos) = st.gets.iter().position(|g| g.id == gid) else {
                return;
            };
            let g = st.gets.remove(pos);
            let mode = st.peers.get(&g.conn).map(|p| p.mode).unwrap_or_default();
            (g, mode)
        };
        Self::reply_status(r, g.0.conn, g.0.tag, g.1, PMIX_ERR_TIMEOUT);
    }

    /// Answers a get if it can be answered now (found, or definitely absent); false when
    /// the data may still come: from a local process that has not committed yet, or, with
    /// `ask_host`, from the host's direct modex for a process of another node.
    #[allow(clippy::too_many_arguments)]
    fn try_get(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        requester: &Proc,
        target: &Proc,
        key: Option<&PStr>,
        immediate: bool,
        ask_host: bool,
    ) -> bool {
        let mut guard = self.state.lock();
        let st = &mut *guard;
        let Some(peer) = st.peers.get(&id) else {
            return true;
        };
        let mode = peer.mode;
        let Some(job) = st.jobs.get(&target.nspace) else {
            if immediate || st.dead.iter().any(|d| d.nspace == target.nspace) {
                drop(guard);
                Self::reply_status(r, id, tag, mode, PMIX_ERR_NOT_FOUND);
                return true;
            }
            return false;
        };
        let mut blobs = Vec::new();
        if target.rank == PMIX_RANK_WILDCARD || target.nspace != requester.nspace {
            blobs.push(blob_of(
                mode,
                &Proc::new(target.nspace.clone(), PMIX_RANK_WILDCARD),
                &job.req_reply(),
            ));
        }
        let mut found = target.rank == PMIX_RANK_WILDCARD;
        let mut sent_upto = None;
        if target.rank != PMIX_RANK_WILDCARD {
            let local_requester = st.clients.contains_key(requester) || peer.kind.is_tool();
            // A local process's data is sent once per connection: a later GETNB for a key
            // it committed since gets only what it committed since (the reply used to
            // carry all of its data, every time). A request for a key that connection was
            // already sent (a client that dropped it, or refreshes) gets everything again.
            let stamps = key
                .filter(|_| local_requester)
                .and_then(|k| st.modex.local_stamps(target, k.as_bytes()));
            let since = stamps.and_then(|(_, stamp)| {
                let last = st
                    .modex_sent
                    .get(&id)
                    .and_then(|m| m.get(target))
                    .copied()?;
                stamp.filter(|&s| s > last).map(|_| last)
            });
            sent_upto = stamps.map(|(latest, _)| latest);
            let (kvals, has_committed) = match since {
                Some(last) => (st.modex.local_since(target, last), true),
                None => {
                    let mut kvals: Vec<Kval> = job.rank_info(target.rank);
                    let committed = st.modex.kvals(target, local_requester);
                    let has = committed.is_some();
                    if let Some(mut c) = committed {
                        kvals.append(&mut c);
                    }
                    (kvals, has)
                }
            };
            let has_key = match key {
                Some(k) => kvals.iter().any(|kv| &kv.key == k),
                None => !kvals.is_empty(),
            };
            let reserved = key.is_some_and(|k| k.as_bytes().starts_with(b"pmix."));
            // A local process that committed, but not this key: it may commit it later, and
            // the request waits for that as with the reference (session scenario "threads").
            let later = !has_key
                && key.is_some_and(|k| {
                    st.clients.contains_key(target)
                        && !st.ended.contains(target)
                        && st.modex.may_commit_later(target, k.as_bytes())
                });
            if target.rank == PMIX_RANK_UNDEF && kvals.is_empty() {
                // No process has rank UNDEF: what a client asks of it (node data by
                // hostname, say) is not here. A reference ds21 client told SUCCESS without
                // data looks it up in its store, whose lookup of rank UNDEF locks a mutex it
                // already holds (OpenPMIx 4.2.2 `_dstore_fetch` via `_get_univ_size`): it
                // hangs. The reference server answers NOT_FOUND.
                drop(guard);
                Self::reply_status(r, id, tag, mode, PMIX_ERR_NOT_FOUND);
                return true;
            }
            if has_key || reserved || (has_committed && !later) {
                found = true;
            }
            if !kvals.is_empty() {
                blobs.push(blob_of(mode, target, &kvals));
            }
            if !found {
                let waiting_on_local = Self::runs_here(st, target)
                    && !st.dead.contains(target)
                    && !st.ended.contains(target);
                if !immediate && !waiting_on_local && ask_host && !Self::runs_here(st, target) {
                    return false;
                }
                if immediate || !waiting_on_local {
                    let status = if st.dead.contains(target) {
                        PMIX_ERR_LOST_CONNECTION
                    } else {
                        PMIX_ERR_NOT_FOUND
                    };
                    drop(guard);
                    Self::reply_status(r, id, tag, mode, status);
                    return true;
                }
                return false;
            }
        }
        if let Some(n) = sent_upto {
            st.modex_sent
                .entry(id)
                .or_default()
                .insert(target.clone(), n);
        }
        // A "hash" client (a reference client, or ours without the segments) keeps what a
        // reply carries and asks again only for what it lacks: its peers' data rides along
        // with the first answer, so that the Gets that follow a fence stay in the client
        // (under the reference server such clients read its shared store instead).
        let prefetch = !peer.shm
            && !peer.kind.is_tool()
            && key.is_some()
            && target.rank != PMIX_RANK_WILDCARD
            && target.nspace == requester.nspace
            && !key.is_some_and(|k| k.as_bytes().starts_with(b"pmix."));
        if prefetch {
            Self::prefetch_peers(st, id, requester, target, &mut blobs, mode);
        }
        drop(guard);
        let mut p = Pack::new(mode);
        p.status(PMIX_SUCCESS);
        for b in blobs {
            p.bytes(&b);
        }
        Self::reply(r, id, tag, p.into_bytes());
        true
    }

    /// Adds to a GETNB reply the committed data of `target`'s namespace peers that the
    /// connection `id` was not sent yet, in rank order after `target`, up to the
    /// connection's window (which then doubles), and records them as sent (as
    /// [`Shared::try_get`] records a requested one). Their job data is not repeated: the
    /// client has it from its job's data.
    fn prefetch_peers(
        st: &mut State,
        id: ConnId,
        requester: &Proc,
        target: &Proc,
        blobs: &mut Vec<Vec<u8>>,
        mode: BufferType,
    ) {
        let Some(job) = st.jobs.get(&target.nspace) else {
            return;
        };
        let size = job.job_size();
        let local_requester = st.clients.contains_key(requester);
        let sent = st.modex_sent.entry(id).or_default();
        let window = st.prefetch_window.entry(id).or_insert(PREFETCH_FIRST);
        let mut budget = *window;
        let mut carried = false;
        for i in 1..size {
            let rank = (target.rank + i) % size;
            if rank == requester.rank {
                continue;
            }
            let p = Proc::new(target.nspace.clone(), rank);
            if sent.contains_key(&p) {
                continue;
            }
            let Some(committed) = st.modex.kvals(&p, local_requester) else {
                continue;
            };
            if committed.is_empty() {
                continue;
            }
            let b = blob_of(mode, &p, &committed);
            if b.len() > budget {
                break;
            }
            budget -= b.len();
            blobs.push(b);
            carried = true;
            let stamp = st
                .modex
                .local_stamps(&p, b"")
                .map_or(0, |(latest, _)| latest);
            sent.insert(p, stamp);
        }
        if carried {
            *window = (*window * 2).min(PREFETCH_MAX);
        }
    }

    fn retry_gets(&self, r: &mut Reactor) {
        let pending = std::mem::take(&mut self.state.lock().gets);
        let mut keep = Vec::new();
        for g in pending {
            if self.try_get(
                r,
                g.conn,
                g.tag,
                &g.requester,
                &g.target,
                g.key.as_ref(),
                false,
                false,
            ) {
                if let Some(t) = g.timer {
                    r.cancel(t);
                }
            } else {
                keep.push(g);
            }
        }
        self.state.lock().gets.extend(keep);
    }

    fn serve_dmodex_waiters(&self) {
        let ready: Vec<(Proc, crate::host::Done<Vec<u8>>, Vec<u8>)> = {
            let mut st = self.state.lock();
            let waiters = std::mem::take(&mut st.dmodex_waiters);
            let mut ready = Vec::new();
            for (p, d) in waiters {
                if st.modex.has(&p) {
                    let blob = st.modex.dmodex_answer(&p);
                    ready.push((p, d, blob));
                } else {
                    st.dmodex_waiters.push((p, d));
                }
            }
            ready
        };
        for (_, d, blob) in ready {
            d(Ok(blob));
        }
    }

    // ---- events ---------------------------------------------------------------------

    fn in_range(ev: &Event, target: &Proc) -> bool {
        // Targets named with PMIX_EVENT_CUSTOM_RANGE restrict any range but the process's
        // own, as in the reference (a debugger daemon releases its target's processes with
        // PMIX_RANGE_LOCAL and the target namespace as custom range).
        let custom = ev.range != PMIX_RANGE_PROC_LOCAL
            && ev.info.iter().any(|i| i.is(PMIX_EVENT_CUSTOM_RANGE));
        match ev.range {
            PMIX_RANGE_PROC_LOCAL => false,
            _ if custom => Self::in_custom_range(ev, target),
            PMIX_RANGE_NAMESPACE => target.nspace == ev.source.nspace,
            PMIX_RANGE_CUSTOM => Self::in_custom_range(ev, target),
            _ => true,
        }
    }

    fn in_custom_range(ev: &Event, target: &Proc) -> bool {
        {
            ev.info
                .iter()
                .filter(|i| i.is(PMIX_EVENT_CUSTOM_RANGE))
                .any(|i| match &i.value {
                    Value::Proc(p) => {
                        p.nspace == target.nspace
                            && (p.rank == PMIX_RANK_WILDCARD || p.rank == target.rank)
                    }
                    Value::DataArray(d) => d.items.iter().any(|v| match v {
                        Value::Proc(p) => {
                            p.nspace == target.nspace
                                && (p.rank == PMIX_RANK_WILDCARD || p.rank == target.rank)
                        }
                        _ => false,
                    }),
                    _ => false,
                })
        }
    }

    /// Sends `ev` to every connected peer in range that registered for it, except its
    /// source connection.
    /// Sends `ev` to the peers in its range that registered for it (not back to `from`);
    /// returns who got it.
    fn relay_event(&self, r: &mut Reactor, ev: &Event, from: Option<ConnId>) -> Vec<Proc> {
        let non_default = flag(&ev.info, PMIX_EVENT_NON_DEFAULT);
        let targets: Vec<(ConnId, BufferType, Proc)> = {
            let st = self.state.lock();
            st.peers
                .iter()
                .filter(|(id, p)| Some(**id) != from && !p.finalized)
                .filter(|(_, p)| Self::in_range(ev, &p.proc))
                .filter(|(_, p)| {
                    p.codes.contains(&Some(ev.code)) || (!non_default && p.codes.contains(&None))
                })
                .map(|(id, p)| (*id, p.mode, p.proc.clone()))
                .collect()
        };
        let mut sent = Vec::with_capacity(targets.len());
        for (id, mode, proc) in targets {
            Self::send_event(r, id, mode, ev);
            sent.push(proc);
        }
        sent
    }

    fn send_event(r: &mut Reactor, id: ConnId, mode: BufferType, ev: &Event) {
        let mut p = Pack::cmd(mode, cmd::NOTIFY);
        p.status(ev.code)
            .proc(&ev.source)
            .infos(&ev.info)
            .range(ev.range);
        let _ = r.send(
            id,
            crate::wire::server_frame(crate::wire::TAG_NOTIFY, &p.into_bytes()),
        );
    }

    // ---- connection loss ------------------------------------------------------------

    fn lost(&self, r: &mut Reactor, id: ConnId) {
        let Some(peer) = self.state.lock().peers.remove(&id) else {
            return;
        };
        {
            let mut st = self.state.lock();
            st.modex_sent.remove(&id);
            st.prefetch_window.remove(&id);
        }
        // Pending gets and output registrations of this connection are dropped; what it
        // asked to have removed is removed, as its own uid could.
        let cleanups = {
            let mut st = self.state.lock();
            st.gets.retain(|g| g.conn != id);
            st.iof_pulls.retain(|p| p.conn != id);
            let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut st.cleanups)
                .into_iter()
                .partition(|(c, _)| *c == id);
            st.cleanups = others;
            let uid = st.clients.get(&peer.proc).map(|c| c.uid);
            (mine, uid)
        };
        if let (mine, Some(uid)) = cleanups {
            for (_, c) in mine {
                c.run(uid);
            }
        }
        if peer.kind.is_tool() {
            // Tools take part in no collective of a job: nothing to record.
            self.host.tool_gone(&peer.proc);
            return;
        }
        if peer.finalized {
            // (As below: a namespace deregistered meanwhile keeps no record; it used to keep
            // one per job in a persistent launcher, which deregisters before the close.)
            let mut st = self.state.lock();
            if st.jobs.contains_key(&peer.proc.nspace) {
                st.ended.insert(peer.proc.clone());
            }
            drop(st);
            // Gets waiting for what it would have committed are answered now.
            self.retry_gets(r);
            return;
        }
        // A client that died: fail every collective that waits for it, and tell the host
        // and the server's own handlers.
        let keys: Vec<CollKey> = {
            let mut st = self.state.lock();
            // (A process of a namespace deregistered meanwhile is nobody's concern now.)
            if st.jobs.contains_key(&peer.proc.nspace) {
                st.dead.insert(peer.proc.clone());
            }
            st.collectives
                .iter()
                .filter(|(_, c)| {
                    c.expected.contains(&peer.proc) || c.arrived.iter().any(|a| a.0 == id)
                })
                .map(|(k, _)| k.clone())
                .collect()
        };
        for k in keys {
            self.fail_collective(r, &k, PMIX_ERR_PARTIAL_SUCCESS);
        }
        self.retry_gets(r);
        let ev = Event {
            code: PMIX_ERR_LOST_CONNECTION,
            source: peer.proc.clone(),
            range: PMIX_RANGE_RM,
            info: vec![Info::new(
                PMIX_EVENT_AFFECTED_PROC.to_bytes(),
                Value::Proc(peer.proc.clone()),
            )],
        };
        if self.host.provides(Upcall::NotifyEvent) {
            self.host
                .notify_event(ev.code, &ev.source, ev.range, &ev.info, Box::new(|_| {}));
        }
        self.events.deliver(ev, None);
    }
}

struct PeerConn {
    server: Arc<Shared>,
}

/// Phases of a connection's handshake (`HelloConn`): waiting for the hello, waiting for the
/// host to name a tool, over (answered, refused, timed out or closed).
const HELLO: u8 = 0;
const HOST: u8 = 1;
const DONE: u8 = 2;

/// Splits the handshake off a new connection: the 16-byte header and the body it announces.
struct HelloFraming;

impl Framing for HelloFraming {
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>> {
        let Some(h) = buf.first_chunk::<16>() else {
            return Ok(None);
        };
        let n = Hello::body_len(h)?;
        Ok((buf.len() >= 16 + n).then_some(Frame {
            len: 16 + n,
            tag: 0,
            payload: 16..16 + n,
        }))
    }
}

/// A connection whose handshake is not done: its one message is the hello.
struct HelloConn {
    server: Arc<Shared>,
    /// Who connected, to look up the socket's owner.
    peer: net::Peer,
    phase: Arc<AtomicU8>,
}

impl ConnHandler for HelloConn {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        if self.phase.load(Ordering::SeqCst) != HELLO {
            // Bytes before the handshake's answer: not the protocol.
            self.phase.store(DONE, Ordering::SeqCst);
            return Shared::refuse(r, id, None);
        }
        self.server
            .handshake(r, id, msg.payload, self.peer, &self.phase);
    }
    fn on_closed(&mut self, r: &mut Reactor, id: ConnId, _why: Error) {
        self.phase.store(DONE, Ordering::SeqCst);
        self.server.handshake_over(r, id);
    }
    /// A tool that sent its handshake and shut down its sending side while the host names
    /// it still gets its answer (`tool_answer` then closes the connection).
    fn on_read_closed(&mut self, _r: &mut Reactor, _id: ConnId) -> bool {
        self.phase.load(Ordering::SeqCst) == HOST
    }
}

impl ConnHandler for PeerConn {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        self.server.dispatch(r, id, msg);
    }
    fn on_closed(&mut self, r: &mut Reactor, id: ConnId, _why: Error) {
        self.server.lost(r, id);
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

#[cfg(test)]
mod fence_rank_tests {
    use super::*;

    #[test]
    fn relative_ranks_count_across_the_fences_namespaces() {
        let r = FenceRanks(vec![
            (PStr::from("a"), Some(4)),
            (PStr::from("b"), Some(2)),
            (PStr::from("g"), None),
        ]);
        assert_eq!(r.relative(&Proc::new("a", 3)), Some(3));
        assert_eq!(r.relative(&Proc::new("b", 1)), Some(5));
        assert_eq!(r.proc_of(5), Some(Proc::new("b", 1)));
        assert_eq!(r.proc_of(0), Some(Proc::new("a", 0)));
        // Past a namespace's size, of a namespace not in the fence, or after one of unknown
        // size: not placed.
        assert_eq!(r.relative(&Proc::new("a", 4)), None);
        assert_eq!(r.relative(&Proc::new("c", 0)), None);
        assert_eq!(r.relative(&Proc::new("g", 0)), None);
        assert_eq!(r.proc_of(6), None);
        for rel in 0..6 {
            let p = r.proc_of(rel).unwrap();
            assert_eq!(r.relative(&p), Some(rel));
        }
    }
}
