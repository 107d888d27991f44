//! Job records and the shared job data: `PMIx_server_register_nspace` and what follows
//! from it (`setup_fork`, the job-data and modex segments of our clients, the ds21 store
//! of reference 4.2 clients, the packed REQ reply of the others), and the commands that
//! read the registered data (REQ, REFRESH_CACHE, RESOLVE_PEERS, RESOLVE_NODE).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pmix_sys::*;

use super::{Peer, Shared, State};
use crate::codec::BufferType;
use crate::datastore::JobRecord;
use crate::datastore::gds::{
    GDS_SHM, MSEG_GEN_KEY, MSEG_PATH_KEY, REQ_INLINE, SEG_GEN_KEY, SEG_PATH_KEY,
};
use crate::net::local_hostname;
use crate::progress::{ConnId, Reactor};
use crate::values::{Info, Kval, PStr, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

/// Forgets (and unlinks) the segments of `nspace`; clients that mapped them keep their
/// mappings. The directory goes with the last segment.
pub(super) fn drop_segments(st: &mut State, nspace: &PStr) {
    if let Some(w) = st.modex.detach(nspace) {
        w.retire();
    }
    if let Some(s) = st.share.ds21.as_mut() {
        s.remove(nspace);
    }
    st.share.ds21_replies.retain(|(ns, _), _| ns != nspace);
    st.share.segments.retain(|(ns, _), f| {
        if ns == nspace {
            let _ = std::fs::remove_file(&f.path);
            false
        } else {
            true
        }
    });
    if st.share.segments.is_empty() && !st.modex.has_segments() {
        if let Some(d) = st.share.dir.take() {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// The name of this process's segment directory.
pub(super) fn segment_dir_name(pid: u32) -> String {
    format!("pmix-rsshm.{pid}")
}

/// Removes the segment directories under `tmpdir` that servers of user `uid` left when they
/// died without finalizing (named for a pid that no longer runs; the same rule as stale
/// rendezvous files).
pub(super) fn remove_stale_segment_dirs(tmpdir: &std::path::Path, uid: u32) {
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

/// The number of the last segment written in this process (generations name the files).
pub(super) static SEGMENT_GEN: AtomicU64 = AtomicU64::new(0);

/// A job-data segment this server wrote.
#[derive(Debug, Clone)]
pub(super) struct SegmentFile {
    pub(super) path: std::path::PathBuf,
    pub(super) generation: u64,
}

/// How the job data is handed to peers: the jobs room's state.
#[derive(Default)]
pub(super) struct Shares {
    /// The packed answer to REQ (the job data), by namespace and buffer type; dropped when
    /// the namespace is registered again or deregistered.
    pub(super) req_replies: HashMap<(PStr, BufferType), Arc<Vec<u8>>>,
    /// The job-data segments written for "rsshm" peers, by namespace and buffer type;
    /// unlinked when the namespace is registered again or deregistered, and at finalize.
    pub(super) segments: HashMap<(PStr, BufferType), SegmentFile>,
    /// The private directory holding the segments, once created.
    pub(super) dir: Option<std::path::PathBuf>,
    /// The ds21 store for reference clients, once a client was set up with it.
    pub(super) ds21: Option<crate::datastore::ds21::Store>,
    /// The ds21 store could not be made (or is not offered): not tried again.
    pub(super) ds21_off: bool,
    /// The packed answer to a "ds21" peer's REQ, by namespace and buffer type.
    pub(super) ds21_replies: HashMap<(PStr, BufferType), Arc<Vec<u8>>>,
}

impl Shared {
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
        let ompi = crate::pmdl::job_is_ompi(&job);
        let mut st = self.state.lock();
        st.share.req_replies.retain(|(ns, _), _| ns != nspace);
        drop_segments(&mut st, nspace);
        st.jobs.insert(nspace.clone(), job);
        if ompi {
            st.ompi_jobs.insert(nspace.clone());
        }
        drop(st);
        let me = self.arc();
        self.progress.post(move |r| me.retry_gets(r))?;
        Ok(())
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

    /// Whether the host registered the namespace `nspace` (and has not deregistered it).
    pub fn has_nspace(&self, nspace: &PStr) -> bool {
        self.state.lock().jobs.contains_key(nspace)
    }

    /// `PMIx_server_deregister_nspace`: forgets the job, its clients and their data.
    pub fn deregister_nspace(&self, nspace: &PStr) {
        trace!("server: deregister {nspace}");
        let mut st = self.state.lock();
        st.jobs.remove(nspace);
        st.share.req_replies.retain(|(ns, _), _| ns != nspace);
        drop_segments(&mut st, nspace);
        st.clients.retain(|p, _| &p.nspace != nspace);
        st.dead.retain(|p| &p.nspace != nspace);
        st.ended.retain(|p| &p.nspace != nspace);
        st.modex.remove_nspace(nspace);
        st.iof.job_deregistered(nspace);
        st.ompi_jobs.remove(nspace);
        drop(st);
        self.local_out.lock().remove_nspace(nspace);
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
                [
                    self.cfg.rsshm.then_some(GDS_SHM),
                    ds21.as_ref().map(|_| crate::datastore::ds21::NAME),
                    Some("hash"),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(","),
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
        let st = self.state.lock();
        if st.ompi_jobs.contains(&proc.nspace)
            && let Some(job) = st.jobs.get(&proc.nspace)
        {
            env.extend(crate::pmdl::ompi_fork_env(job, proc.rank));
        }
        env
    }

    /// `PMIx_server_setup_application`: the envars `PMIX_SETUP_APP_ENVARS` asks for
    /// (`crate::pmdl::harvest_envars`); a job set up so for Open MPI has its processes get
    /// Open MPI's variables from `setup_fork`, as OpenPMIx's `ompi` component does.
    pub fn setup_application(&self, nspace: &PStr, info: &[Info]) -> Vec<Info> {
        if info.iter().any(|i| i.is(PMIX_SETUP_APP_ENVARS)) && crate::pmdl::is_ompi(info) {
            self.state.lock().ompi_jobs.insert(nspace.clone());
        }
        crate::pmdl::harvest_envars(info)
    }

    /// Makes our ds21 store of `nspace` for its reference clients, once per namespace: the
    /// store's directory and first initial file, the namespace's lock file, and its job
    /// data (written whole now, before any of its clients runs, so that nobody reads it
    /// while it is written and a failure is known before a client is told of the store).
    /// The directory, or `None` when the store is not offered (switched off, the namespace
    /// not registered, or a file that cannot be made or written): the client then uses
    /// "hash".
    pub(super) fn ds21_prepare(&self, nspace: &PStr) -> Option<std::path::PathBuf> {
        use crate::datastore::ds21::{Sizes, Store};
        static DIRS: AtomicU64 = AtomicU64::new(0);
        let mut st = self.state.lock();
        let st = &mut *st;
        if !self.cfg.ds21 || st.share.ds21_off {
            return None;
        }
        let job = st.jobs.get(nspace)?;
        let n = job.nlocalprocs.max(job.local_ranks().len() as u32);
        // A lock per client initialization (a client that initializes again takes another).
        let nlocks = n.saturating_mul(2).saturating_add(8).min(1 << 20);
        if st.share.ds21.is_none() {
            let Some(sizes) = Sizes::from_env(|k| std::env::var(k).ok()) else {
                st.share.ds21_off = true;
                return None;
            };
            let tmp = std::path::PathBuf::from(self.cfg.tmpdir.to_string());
            remove_stale_segment_dirs(&tmp, crate::wire::own_ids().0);
            // One per server: several servers of one process each have their own store.
            let n = DIRS.fetch_add(1, Ordering::Relaxed);
            let d = tmp.join(format!("{}.ds21.{n}", segment_dir_name(std::process::id())));
            if let Err(e) = crate::rendezvous::private_dir(&d) {
                trace!("server: no ds21 directory {}: {e}", d.display());
                st.share.ds21_off = true;
                return None;
            }
            st.share.ds21 = Some(Store::new(d, sizes));
        }
        let store = st.share.ds21.as_mut()?;
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

    /// Appends to the ds21 store what the processes of `nspaces` committed here (and what
    /// other nodes sent of them) since it was last appended, for the namespaces a reference
    /// client reads it of: its Gets after a fence then find the data there instead of
    /// asking (the reference's server stores committed data there at commit and at fence).
    /// Called as a fence completes, before its replies go out. Clients whose locks are not
    /// had within `DS21_WAIT` (one stopped inside a read) leave it for the next fence: until
    /// then their Gets ask the server, as ever.
    pub(super) fn ds21_append_modex<'a>(&self, nspaces: impl IntoIterator<Item = &'a PStr>) {
        const DS21_WAIT: std::time::Duration = std::time::Duration::from_millis(20);
        let mut st = self.state.lock();
        let st = &mut *st;
        let Some(store) = st.share.ds21.as_mut() else {
            return;
        };
        let now = st.modex.changes();
        for ns in nspaces {
            let Some(mark) = store.appended_mark(ns).filter(|&m| m < now) else {
                continue;
            };
            let changed = st.modex.changed_since(ns, mark);
            match store.append(ns, &changed, DS21_WAIT) {
                Ok(true) => store.set_appended_mark(ns, now),
                Ok(false) => trace!("server: ds21 store of {ns} busy: modex not appended"),
                Err(e) => {
                    trace!("server: ds21 store of {ns}: modex not appended: {e}");
                    store.set_appended_mark(ns, now);
                }
            }
        }
    }

    /// The REQ reply of a "ds21" peer of `nspace` in buffer type `mode`: the nspace and the
    /// realm arrays (the rest is in the store, written when its first client was set up);
    /// `None` when the namespace is not registered.
    pub(super) fn ds21_reply(&self, nspace: &PStr, mode: BufferType) -> Option<Arc<Vec<u8>>> {
        let mut st = self.state.lock();
        let st = &mut *st;
        let job = st.jobs.get(nspace)?;
        if let Some(store) = st.share.ds21.as_mut() {
            store.note_reader(nspace);
        }
        let reply = st
            .share
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

    /// The job-data segment of `nspace` in buffer type `mode`, written on first use; `None`
    /// when the namespace is not registered or the segment cannot be written (the peer
    /// then gets the job data inline).
    pub(super) fn segment(&self, nspace: &PStr, mode: BufferType) -> Option<SegmentFile> {
        let mut st = self.state.lock();
        let st = &mut *st;
        let key = (nspace.clone(), mode);
        if let Some(f) = st.share.segments.get(&key) {
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
            if st.share.segments.is_empty() && !st.modex.has_segments() {
                st.share.dir = None;
            }
            return None;
        }
        let f = SegmentFile { path, generation };
        st.share.segments.insert(key, f.clone());
        Some(f)
    }

    /// The private directory of the segments, created on first use (after removing those
    /// dead servers left).
    pub(super) fn segment_dir(&self, st: &mut State) -> Option<std::path::PathBuf> {
        if let Some(d) = &st.share.dir {
            return Some(d.clone());
        }
        let tmp = std::path::PathBuf::from(self.cfg.tmpdir.to_string());
        remove_stale_segment_dirs(&tmp, crate::wire::own_ids().0);
        let d = tmp.join(segment_dir_name(std::process::id()));
        if let Err(e) = crate::rendezvous::private_dir(&d) {
            trace!("server: no segment directory {}: {e}", d.display());
            return None;
        }
        st.share.dir = Some(d.clone());
        Some(d)
    }

    /// The modex segment of `nspace` (its path and generation), created on first use with
    /// what the namespace's local processes have committed so far; `None` when the
    /// namespace is not registered or the file cannot be made (peers then ask the server).
    pub(super) fn modex_segment(&self, nspace: &PStr) -> Option<(std::path::PathBuf, u64)> {
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
                if st.share.segments.is_empty() && !st.modex.has_segments() {
                    st.share.dir = None;
                }
                return None;
            }
        };
        // What the namespace's local processes committed so far moves there now; the store
        // owns the segment from here (retired and unlinked with the job-data segments).
        st.modex.attach(nspace, writer);
        Some((path, generation))
    }

    /// The processes of `ns` (none: of every namespace registered here) on `node`, from
    /// the registered job data. `PMIX_ERR_NOT_FOUND` for a namespace not registered here.
    pub(super) fn resolve_peers(&self, node: &PStr, ns: Option<&PStr>) -> Result<Vec<Proc>> {
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
    pub(super) fn resolve_nodes(&self, ns: Option<&PStr>) -> Result<Vec<Vec<u8>>> {
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

    /// The command REQ: the job data a client asks for at `PMIx_Init`.
    pub(super) fn on_req(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
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
                    value: Value::String(Some(PStr::from(seg.path.as_os_str().as_encoded_bytes()))),
                });
                p.kval(&Kval {
                    key: PStr::from(SEG_GEN_KEY),
                    value: Value::Uint64(seg.generation),
                });
                if let Some((path, generation)) = self.modex_segment(&me.nspace) {
                    p.kval(&Kval {
                        key: PStr::from(MSEG_PATH_KEY),
                        value: Value::String(Some(PStr::from(path.as_os_str().as_encoded_bytes()))),
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
                    st.share
                        .req_replies
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
        Ok(())
    }

    /// The command REFRESH_CACHE: a 5.0 client's `PMIx_Get` with `PMIX_GET_REFRESH_CACHE`.
    pub(super) fn on_refresh_cache(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
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
        Ok(())
    }

    /// The command RESOLVE_PEERS: a 5.0 client's `PMIx_Resolve_peers`.
    pub(super) fn on_resolve_peers(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        // A node (none: this one) and a namespace (none: every one known here).
        let node = u.string()?.unwrap_or_else(local_hostname);
        let ns = u.string()?;
        let procs = self.resolve_peers(&node, ns.as_ref())?;
        let mut p = Pack::new(mode);
        p.status(PMIX_SUCCESS).procs(&procs);
        Self::reply(r, id, tag, p.into_bytes());
        Ok(())
    }

    /// The command RESOLVE_NODE: a 5.0 client's `PMIx_Resolve_nodes`.
    pub(super) fn on_resolve_node(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let ns = u.string()?;
        let nodes = self.resolve_nodes(ns.as_ref())?;
        let mut p = Pack::new(mode);
        p.status(PMIX_SUCCESS)
            .string(Some(nodes.join(&b","[..]).as_slice()));
        Self::reply(r, id, tag, p.into_bytes());
        Ok(())
    }
}
