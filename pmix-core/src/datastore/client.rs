//! What a client (or tool) process knows: the job data of each namespace and the data of
//! processes, and the retrieval rules of `PMIx_Get` over them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use pmix_sys::*;

use super::keys::{self, KeyRealm};
use super::realm::{JobData, KvList, NodeData, as_u32, parse_rank_list};
use super::{GetQuals, Lookup, NodeSel, decode_proc_blob, is_real_rank};
use crate::Result;
use crate::codec::BufferType;
use crate::values::*;

/// Everything a client (or tool) process knows: job data of each namespace, and data of
/// procs.
///
/// Job data (what the server sends in the REQ reply, WILDCARD GETNB blobs, spawn and connect
/// replies) is kept once per namespace behind an `Arc`, so cloning the store (to publish a
/// snapshot) copies only the per-process data. Data of processes (own puts, modex data from
/// GETNB replies, `PMIx_Store_internal`) is kept apart from the server-provided per-rank
/// job data; a Get of a rank looks at the former first.
#[derive(Debug, Default, Clone)]
pub struct ClientStore {
    me: Proc,
    fallback_hostname: Option<PStr>,
    nspaces: HashMap<PStr, Namespace>,
}

#[derive(Debug, Default, Clone)]
struct Namespace {
    job: Arc<JobData>,
    peers: HashMap<u32, KvList>,
}

/// The node a node-realm lookup is about.
#[derive(Debug, Clone, Copy)]
enum Target<'a> {
    Own,
    Name(&'a [u8]),
    Id(u32),
}

/// The node of a process, as its data names it.
#[derive(Debug, Clone)]
enum ProcNode {
    Own,
    Name(PStr),
    Id(u32),
}

impl ProcNode {
    fn target(&self) -> Target<'_> {
        match self {
            ProcNode::Own => Target::Own,
            ProcNode::Name(n) => Target::Name(n.as_bytes()),
            ProcNode::Id(id) => Target::Id(*id),
        }
    }
}

impl ClientStore {
    /// An empty store for the process `me`.
    pub fn new(me: Proc) -> ClientStore {
        ClientStore {
            me,
            ..ClientStore::default()
        }
    }

    /// The process this store belongs to.
    pub fn me(&self) -> &Proc {
        &self.me
    }

    /// Changes the identity of the owner (a tool learns its id in the handshake).
    pub fn set_me(&mut self, me: Proc) {
        self.me = me;
    }

    /// The host name to use for "my node" when the job data does not name one (the
    /// hostname in my own proc data, or the job-level `pmix.hname`, take precedence).
    pub fn set_my_hostname(&mut self, hostname: Option<PStr>) {
        self.fallback_hostname = hostname;
    }

    /// The name of the node this process runs on, as the job data gives it.
    pub fn my_hostname(&self) -> Option<&PStr> {
        self.my_value(keys::HOSTNAME)
            .and_then(Value::as_str)
            .or(self.fallback_hostname.as_ref())
    }

    /// The "hash" REQ reply after its nspace string: the KVAL packs, already unpacked.
    /// Handles `pmix.pblob` (BYTE_OBJECT of `PACK(PROC_RANK)` + `PACK(KVAL)*`, decoded with
    /// `mode`), `pmix.pdata`, `pmix.ssn.arr`, `pmix.node.arr`, `pmix.app.arr`,
    /// `pmix.job.arr` (flattened), `PMIX_QUALIFIED_VALUE`, ignores `pmix.mblob`, and stores
    /// anything else at rank WILDCARD. Merges with job data already held and marks it
    /// complete. On error nothing is changed.
    ///
    /// # Errors
    /// The decoder's errors for a damaged `pmix.pblob`; `TypeMismatch` for a special entry
    /// of the wrong type; `BadParam` for a node array naming no node, a proc array naming no
    /// rank, or a malformed qualified value.
    pub fn ingest_job(&mut self, mode: BufferType, nspace: &PStr, kvals: Vec<Kval>) -> Result<()> {
        let mut job = self
            .nspaces
            .get(nspace)
            .map(|n| (*n.job).clone())
            .unwrap_or_default();
        for kv in kvals {
            job.add_kval(mode, kv)?;
        }
        job.complete = true;
        self.nspaces.entry(nspace.clone()).or_default().job = Arc::new(job);
        Ok(())
    }

    /// The job data of `nspace` in a mapped segment (gds "rsshm"): the job part is decoded
    /// and merged as [`ClientStore::ingest_job`] does; the per-rank data stays in the
    /// segment and is decoded when a Get asks for a rank, except mine, which is copied to
    /// the heap. Marks the job data complete. On error nothing is changed.
    ///
    /// # Errors
    /// As [`ClientStore::ingest_job`], for the job part.
    pub(crate) fn ingest_segment(
        &mut self,
        nspace: &PStr,
        seg: Arc<super::segment::Segment>,
    ) -> Result<()> {
        let mode = seg.mode();
        let mut job = self
            .nspaces
            .get(nspace)
            .map(|n| (*n.job).clone())
            .unwrap_or_default();
        // One KVAL at a time, so that a node array's decoded form is dropped before the
        // next one is read.
        let part = seg.job_part();
        let mut d = crate::codec::Decoder::new(mode, part);
        while !d.remaining().is_empty() {
            let start = d.position();
            let Value::Kval(kv) = super::read_one(&mut d, PMIX_KVAL)? else {
                return Err(crate::Error::UnpackFailure);
            };
            if kv.key.as_bytes() == keys::NODE_INFO_ARRAY {
                let len = d.position() - start;
                job.add_mapped_node_array(&kv.value, &seg, start, len)?;
            } else {
                job.add_kval(mode, *kv)?;
            }
        }
        job.mapped = Some(seg);
        if *nspace == self.me.nspace {
            job.materialize(self.me.rank);
            // My node's data is asked for often: keep it decoded.
            let me = job.ranks.get(&self.me.rank);
            let name = me
                .and_then(|kv| kv.get(keys::HOSTNAME))
                .or_else(|| job.kv.get(keys::HOSTNAME))
                .and_then(Value::as_str)
                .or(self.fallback_hostname.as_ref())
                .map(|h| h.as_bytes().to_vec());
            let id = me
                .and_then(|kv| kv.get(keys::NODEID))
                .or_else(|| job.kv.get(keys::NODEID))
                .and_then(as_u32);
            let own = job
                .node_position(name.as_deref(), id)
                .or_else(|| (job.nodes.len() == 1).then_some(0));
            if let Some(idx) = own {
                job.materialize_node(idx);
            }
        }
        job.complete = true;
        self.nspaces.entry(nspace.clone()).or_default().job = Arc::new(job);
        Ok(())
    }

    /// One GETNB reply byte-object: `PACK(PROC)` then `PACK(KVAL)*`. A rank of WILDCARD
    /// carries job data (as [`ClientStore::ingest_job`]); UNDEF stands for my rank.
    ///
    /// # Errors
    /// The decoder's errors when the blob does not start with a PROC or holds a damaged
    /// KVAL; those of [`ClientStore::ingest_job`] for job data.
    pub fn ingest_blob(&mut self, mode: BufferType, blob: &[u8]) -> Result<()> {
        let (proc, kvals) = decode_proc_blob(mode, blob)?;
        match proc.rank {
            PMIX_RANK_WILDCARD => self.ingest_job(mode, &proc.nspace, kvals),
            rank => {
                let rank = if rank == PMIX_RANK_UNDEF {
                    self.me.rank
                } else {
                    rank
                };
                for kv in kvals {
                    self.store_rank(&proc.nspace, rank, kv.key, kv.value);
                }
                Ok(())
            }
        }
    }

    /// Data of one proc (own puts for local Get, `PMIx_Store_internal`, data from a connect
    /// or spawn reply). A rank of WILDCARD stores job-level data (not marking the job data
    /// complete); UNDEF stands for my rank.
    pub fn store(&mut self, proc: &Proc, key: PStr, value: Value) {
        match proc.rank {
            PMIX_RANK_WILDCARD => {
                let ns = self.nspaces.entry(proc.nspace.clone()).or_default();
                let job = Arc::make_mut(&mut ns.job);
                if job.add_entry(key.clone(), value.clone(), 0).is_err() {
                    job.kv.insert(key, value);
                }
            }
            PMIX_RANK_UNDEF => {
                let rank = self.me.rank;
                self.store_rank(&proc.nspace, rank, key, value);
            }
            rank => self.store_rank(&proc.nspace, rank, key, value),
        }
    }

    fn store_rank(&mut self, nspace: &PStr, rank: u32, key: PStr, value: Value) {
        let ns = self.nspaces.entry(nspace.clone()).or_default();
        if key.as_bytes() == keys::QUALIFIED_VALUE {
            Arc::make_mut(&mut ns.job).add_rank_kv(rank, key, value);
        } else {
            ns.peers.entry(rank).or_default().insert(key, value);
        }
    }

    /// Forgets everything about a namespace.
    pub fn remove_nspace(&mut self, nspace: &PStr) {
        self.nspaces.remove(nspace);
    }

    /// Whether the job data of `nspace` is held.
    pub fn has_job(&self, nspace: &PStr) -> bool {
        self.nspaces.get(nspace).is_some_and(|n| n.job.complete)
    }

    /// `pmix.job.size` of `nspace`.
    pub fn job_size(&self, nspace: &PStr) -> Option<u32> {
        self.nspaces
            .get(nspace)
            .and_then(|n| n.job.kv.get(keys::JOB_SIZE))
            .and_then(as_u32)
    }

    /// The ranks of `nspace` on my node, from its `pmix.lpeers` ("0,1,2"): the one of my
    /// node's array, else the job-level one.
    pub fn local_peers(&self, nspace: &PStr) -> Option<Vec<u32>> {
        let ns = self.nspaces.get(nspace)?;
        let job = &*ns.job;
        let v = self
            .own_node(nspace, job)
            .and_then(|n| n.get(keys::LOCAL_PEERS))
            .or_else(|| job.kv.get(keys::LOCAL_PEERS).cloned())?;
        parse_rank_list(v.as_str()?.as_bytes())
    }

    /// All that is held of one process (`PMIx_Get` without a key): the data it shared
    /// (what this process put, or received of a peer through a fence or a Get), and its own
    /// job data (`pmix.pdata`).
    pub fn all_of(&self, proc: &Proc) -> (Vec<Kval>, Vec<Kval>) {
        let Some(ns) = self.nspaces.get(&proc.nspace) else {
            return (Vec::new(), Vec::new());
        };
        let shared = ns
            .peers
            .get(&proc.rank)
            .map(KvList::to_vec)
            .unwrap_or_default();
        (shared, ns.job.rank_items(proc.rank))
    }

    /// Applies the retrieval rules (see `docs/notes/datastore.md`).
    ///
    /// `proc.rank` may be WILDCARD (job realm, or the session, node or app realm with the
    /// qualifiers or for keys of those realms), UNDEF (job level first, then the lowest rank
    /// holding the key), or a rank (its data; then, for reserved keys of the node, app, job
    /// and session realms, the realm's value).
    ///
    /// An absent value is [`Lookup::NotFound`] when `PMIX_OPTIONAL` is given, or when the key
    /// is reserved and the namespace's job data is held; otherwise [`Lookup::Missing`].
    /// `PMIX_GET_REFRESH_CACHE` makes every non-reserved key `Missing`.
    pub fn get(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Lookup {
        let reserved = keys::is_reserved(key);
        if q.refresh && !reserved {
            return Lookup::Missing;
        }
        match self.find(proc, key, q) {
            Ok(v) => Lookup::Found(v),
            Err(_) if q.optional => Lookup::NotFound,
            Err(held) if reserved && held => Lookup::NotFound,
            Err(_) => Lookup::Missing,
        }
    }

    /// The value, or whether the data that would hold it is held (complete).
    fn find(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Result<Value, bool> {
        if q.session_info {
            return self.find_session(proc, key, q);
        }
        let Some(ns) = self.nspaces.get(&proc.nspace) else {
            return Err(false);
        };
        let job = &*ns.job;
        let held = job.complete;
        let kr = keys::realm(key);

        if !is_real_rank(proc.rank) {
            if q.node_info || (!q.app_info && kr == KeyRealm::Node) {
                let target = match &q.node {
                    Some(NodeSel::Name(n)) => Target::Name(n.as_bytes()),
                    Some(NodeSel::Id(id)) => Target::Id(*id),
                    Some(NodeSel::Own) | None => Target::Own,
                };
                if let Some(v) = self.node_value(&proc.nspace, job, target, key) {
                    return Ok(v);
                }
                if !(kr == KeyRealm::Node && self.is_my_node(target)) {
                    return Err(held);
                }
                // The caller's node: its keys may also sit at job level (older servers,
                // and the minimal REQ reply).
            } else if q.app_info || kr == KeyRealm::App {
                let named = matches!(q.app, Some(Some(_)));
                let appnum = q
                    .app
                    .flatten()
                    .unwrap_or_else(|| self.default_appnum(&proc.nspace));
                if key == keys::APPNUM {
                    return Ok(Value::Uint32(appnum));
                }
                if let Some(v) = job.app(appnum).and_then(|a| a.kv.get(key)) {
                    return Ok(v.clone());
                }
                if named {
                    return Err(held);
                }
            }
            if let Some(v) = job
                .kv
                .get(key)
                .map(Cow::Borrowed)
                .or_else(|| job.qualified(PMIX_RANK_WILDCARD, key, &q.qualifiers))
            {
                return Ok(v.into_owned());
            }
            if kr == KeyRealm::Session {
                if let Some(v) = job.session(None).and_then(|s| s.kv.get(key)) {
                    return Ok(v.clone());
                }
            }
            if proc.rank == PMIX_RANK_UNDEF {
                if let Some(v) = any_rank(ns, key) {
                    return Ok(v.into_owned());
                }
            }
            return Err(held);
        }

        // A real rank.
        if q.node_info {
            let of_proc;
            let target = match &q.node {
                Some(NodeSel::Name(n)) => Target::Name(n.as_bytes()),
                Some(NodeSel::Id(id)) => Target::Id(*id),
                Some(NodeSel::Own) | None => {
                    of_proc = self.proc_node(ns, proc).ok_or(held)?;
                    of_proc.target()
                }
            };
            return self
                .node_value(&proc.nspace, job, target, key)
                .or_else(|| {
                    (kr == KeyRealm::Node && self.is_my_node(target))
                        .then(|| job.kv.get(key).cloned())
                        .flatten()
                })
                .ok_or(held);
        }
        if q.app_info {
            let appnum = match q.app.flatten() {
                Some(n) => n,
                None => self.proc_appnum(ns, proc).ok_or(held)?,
            };
            if key == keys::APPNUM {
                return Ok(Value::Uint32(appnum));
            }
            return job
                .app(appnum)
                .and_then(|a| a.kv.get(key))
                .cloned()
                .ok_or(held);
        }
        if let Some(v) = ns
            .peers
            .get(&proc.rank)
            .and_then(|p| p.get(key))
            .map(Cow::Borrowed)
            .or_else(|| job.rank_value(proc.rank, key))
            .or_else(|| job.qualified(proc.rank, key, &q.qualifiers))
        {
            return Ok(v.into_owned());
        }
        // A reserved key the rank's data lacks: the value of the key's own realm.
        let realm_value = match kr {
            KeyRealm::Node if !keys::names_a_node(key) => self
                .node_value(&proc.nspace, job, Target::Own, key)
                .or_else(|| job.kv.get(key).cloned()),
            KeyRealm::App => {
                let appnum = self
                    .proc_appnum(ns, proc)
                    .or_else(|| (job.apps.len() <= 1).then_some(0));
                appnum
                    .and_then(|n| job.app(n))
                    .and_then(|a| a.kv.get(key))
                    .or_else(|| job.kv.get(key))
                    .cloned()
            }
            KeyRealm::Job => job.kv.get(key).cloned(),
            KeyRealm::Session => job
                .kv
                .get(key)
                .or_else(|| job.session(None).and_then(|s| s.kv.get(key)))
                .cloned(),
            _ => None,
        };
        realm_value.ok_or(held)
    }

    /// A session-realm lookup (`PMIX_SESSION_INFO`): the target namespace's session, or the
    /// one `PMIX_SESSION_ID` names.
    fn find_session(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Result<Value, bool> {
        let target = self
            .nspaces
            .get(&proc.nspace)
            .or_else(|| self.nspaces.get(&self.me.nspace))
            .map(|n| &*n.job);
        let own_sid = target.and_then(JobData::session_id);
        let sid = q.session.or(own_sid);
        if key == keys::SESSION_ID {
            if let Some(s) = sid {
                return Ok(Value::Uint32(s));
            }
        }
        let mut held = false;
        if q.session.is_none() || q.session == own_sid {
            if let Some(job) = target {
                held = job.complete;
                if let Some(v) = job.session(None).and_then(|s| s.kv.get(key)) {
                    return Ok(v.clone());
                }
                // Session keys a server put at job level (pmix.univ.size in the minimal
                // REQ reply).
                if keys::realm(key) == KeyRealm::Session {
                    if let Some(v) = job.kv.get(key) {
                        return Ok(v.clone());
                    }
                }
            }
        }
        if let Some(id) = sid {
            for ns in self.nspaces.values() {
                if let Some(s) = ns.job.session(Some(id)) {
                    held |= ns.job.complete;
                    if let Some(v) = s.kv.get(key) {
                        return Ok(v.clone());
                    }
                }
            }
        }
        Err(held)
    }

    /// The value of `key` on a node of `job`, the node's identity included. When the job
    /// has no data on the node, only the node's name or id (as the request gives it, or as
    /// mine for my node) are known.
    fn node_value(
        &self,
        nspace: &PStr,
        job: &JobData,
        target: Target<'_>,
        key: &[u8],
    ) -> Option<Value> {
        let node = match target {
            Target::Own => self.own_node(nspace, job),
            Target::Name(n) => job.node_by_name(n),
            Target::Id(id) => job.node_by_id(id),
        };
        node.and_then(|n| n.get(key)).or_else(|| match target {
            Target::Own if key == keys::HOSTNAME => {
                self.my_hostname().map(|h| Value::String(Some(h.clone())))
            }
            Target::Own if key == keys::NODEID => self.my_nodeid().map(Value::Uint32),
            Target::Name(n) if key == keys::HOSTNAME => Some(Value::String(Some(PStr::from(n)))),
            Target::Id(id) if key == keys::NODEID => Some(Value::Uint32(id)),
            _ => None,
        })
    }

    /// Whether `target` is the caller's node.
    fn is_my_node(&self, target: Target<'_>) -> bool {
        match target {
            Target::Own => true,
            Target::Name(n) => self.my_hostname().is_some_and(|h| h.as_bytes() == n),
            Target::Id(id) => self.my_nodeid() == Some(id),
        }
    }

    /// My node among the nodes of `job`: by my hostname, else by my node id, else the only
    /// node of my own job.
    fn own_node<'a>(&self, nspace: &PStr, job: &'a JobData) -> Option<&'a NodeData> {
        if let Some(n) = self
            .my_hostname()
            .and_then(|h| job.node_by_name(h.as_bytes()))
        {
            return Some(n);
        }
        if let Some(n) = self.my_nodeid().and_then(|id| job.node_by_id(id)) {
            return Some(n);
        }
        if job.nodes.len() == 1 && *nspace == self.me.nspace {
            return job.nodes.first();
        }
        None
    }

    /// The node of a process, from its data.
    fn proc_node(&self, ns: &Namespace, proc: &Proc) -> Option<ProcNode> {
        let data = |key: &[u8]| {
            ns.peers
                .get(&proc.rank)
                .and_then(|p| p.get(key))
                .map(Cow::Borrowed)
                .or_else(|| ns.job.rank_value(proc.rank, key))
        };
        if let Some(h) = data(keys::HOSTNAME).and_then(|v| v.as_str().cloned()) {
            return Some(ProcNode::Name(h));
        }
        if let Some(id) = data(keys::NODEID).and_then(|v| as_u32(&v)) {
            return Some(ProcNode::Id(id));
        }
        (*proc == self.me).then_some(ProcNode::Own)
    }

    /// The app number of a process, from its data (mine also from job level).
    fn proc_appnum(&self, ns: &Namespace, proc: &Proc) -> Option<u32> {
        ns.peers
            .get(&proc.rank)
            .and_then(|p| p.get(keys::APPNUM))
            .map(Cow::Borrowed)
            .or_else(|| ns.job.rank_value(proc.rank, keys::APPNUM))
            .and_then(|v| as_u32(&v))
            .or_else(|| (*proc == self.me).then(|| self.my_appnum()).flatten())
    }

    /// The app a WILDCARD app-realm Get is about: mine in my namespace, else app 0.
    fn default_appnum(&self, nspace: &PStr) -> u32 {
        if *nspace == self.me.nspace {
            self.my_appnum().unwrap_or(0)
        } else {
            0
        }
    }

    /// A value of my own process: my data, my rank's job data, then my job's job level.
    /// (My rank's job data is always held in the heap: [`ClientStore::ingest_segment`]
    /// copies it there.)
    fn my_value(&self, key: &[u8]) -> Option<&Value> {
        let ns = self.nspaces.get(&self.me.nspace)?;
        ns.peers
            .get(&self.me.rank)
            .and_then(|p| p.get(key))
            .or_else(|| ns.job.ranks.get(&self.me.rank).and_then(|kv| kv.get(key)))
            .or_else(|| ns.job.kv.get(key))
    }

    fn my_nodeid(&self) -> Option<u32> {
        self.my_value(keys::NODEID).and_then(as_u32)
    }

    fn my_appnum(&self) -> Option<u32> {
        self.my_value(keys::APPNUM).and_then(as_u32)
    }
}

/// The value of `key` of the lowest rank holding it: process data first, then the ranks'
/// job data.
fn any_rank<'a>(ns: &'a Namespace, key: &[u8]) -> Option<Cow<'a, Value>> {
    ns.peers
        .iter()
        .filter_map(|(r, kv)| kv.get(key).map(|v| (*r, v)))
        .min_by_key(|(r, _)| *r)
        .map(|(_, v)| Cow::Borrowed(v))
        .or_else(|| ns.job.any_rank_value(key).map(|(_, v)| v))
}
