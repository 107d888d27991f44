//! Sharing data (the standard's chapter on key-value management and synchronization):
//! put, commit, fence and get, answered from the datastore where it holds the value and
//! asked of the server (GETNB, and REFRESH_CACHE of a 5.0 server) where not.

use std::time::Duration;

use parking_lot::RwLock;
use pmix_sys::*;

use super::{Client, Done, MAX_TIMEOUT_SECS, TIMEOUT_GRACE, status_result, trace_client};
use crate::codec::BufferType;
use crate::datastore::{ClientStore, GetQuals, Lookup};
use crate::values::{Info, Kval, PStr, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

impl Client {
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
    pub(super) fn commit_payload(&self) -> Vec<u8> {
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

    pub(super) fn fence_payload(&self, procs: &[Proc], info: &[Info]) -> Vec<u8> {
        let procs = if procs.is_empty() {
            vec![Proc::new(self.me.nspace.clone(), PMIX_RANK_WILDCARD)]
        } else {
            procs.to_vec()
        };
        let mut p = Pack::cmd(self.mode, cmd::FENCENB);
        p.procs_always(&procs).infos(info);
        p.into_bytes()
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
    pub(super) fn lookup_local(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Lookup {
        self.store.read().get(proc, key, q)
    }

    /// A key of another process of my namespace, looked up in the modex segment (what
    /// local processes committed, as the server would send it; the latest values). Not for
    /// a refresh, my own rank (my puts are held here), a special rank, a reserved key, or a
    /// key of another realm.
    pub(super) fn lookup_modex(&self, proc: &Proc, key: &[u8], q: &GetQuals) -> Option<Value> {
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

    pub(super) fn getnb_payload(
        &self,
        proc: &Proc,
        key: Option<&[u8]>,
        info: &[Info],
        reserved_own: bool,
    ) -> Vec<u8> {
        let mut info = info.to_vec();
        if reserved_own && !info.iter().any(|i| i.is(PMIX_IMMEDIATE)) {
            info.push(Info::new(PMIX_IMMEDIATE.to_bytes(), Value::Bool(true)));
        }
        let mut p = Pack::cmd(self.mode, cmd::GETNB);
        p.string(Some(proc.nspace.as_bytes()))
            .rank(proc.rank)
            .infos(&info);
        // No key is sent as no string at all, as OpenPMIx's client does: its 5.0.11 server
        // takes a packed NULL string for a key given and crashes on it.
        if key.is_some() {
            p.string(key);
        }
        p.into_bytes()
    }

    /// What to ask the server for a Get its data here could not answer, and whether that is
    /// a refresh: a 5.0 server answers a refreshing Get with command 33 (a namespace and a
    /// rank: everything it holds of the process), any other Get with GETNB.
    pub(super) fn get_request(
        &self,
        proc: &Proc,
        key: &[u8],
        info: &[Info],
        q: &GetQuals,
    ) -> (Vec<u8>, bool) {
        if q.refresh && self.server_v5 {
            let mut p = Pack::cmd(self.mode, cmd::REFRESH_CACHE);
            p.string(Some(proc.nspace.as_bytes())).rank(proc.rank);
            return (p.into_bytes(), true);
        }
        let reserved_own = key.starts_with(b"pmix.") && proc.nspace == self.me.nspace;
        (
            self.getnb_payload(proc, Some(key), info, reserved_own),
            false,
        )
    }

    /// Stores the server's answer to [`Client::get_request`].
    pub(super) fn ingest_reply(
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
    pub(super) fn ingest_refresh_reply(
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

    pub(super) fn ingest_get_reply(
        mode: BufferType,
        store: &RwLock<ClientStore>,
        reply: &[u8],
    ) -> Result<()> {
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

    /// `proc`, with this process's namespace for an empty one.
    pub fn normalize<'a>(&self, proc: &'a Proc) -> std::borrow::Cow<'a, Proc> {
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

    pub(super) fn get_inner(&self, proc: &Proc, key: &[u8], info: &[Info]) -> Result<Value> {
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

    /// `PMIx_Get` without a key: all that is known of one process, as a data array of
    /// infos (what OpenPMIx 5.0's client answers; see `docs/notes/datastore.md`). The data
    /// the process shared (its puts for itself; for a peer what a fence, a Get or its node's
    /// modex segment brought), then its job data (`pmix.pdata`), each key once. A peer of
    /// whose shared data nothing is held is asked of the server first, unless
    /// `PMIX_OPTIONAL`. The data a client holds of a peer is not kept by scope: with
    /// `PMIX_DATA_SCOPE` `LOCAL` or `REMOTE` a peer's data is `NotFound`, as 5.0.11's
    /// client answers it with `PMIX_OPTIONAL`.
    ///
    /// # Errors
    /// `BadParam` for a rank that names no one process (WILDCARD, UNDEF, ...); `NotFound`
    /// when nothing is known; the server's status or `Unreach` from the request.
    pub fn get_all(&self, proc: &Proc, info: &[Info]) -> Result<Value> {
        let proc = self.normalize(proc).into_owned();
        if proc.rank >= PMIX_RANK_VALID {
            return Err(Error::BadParam);
        }
        let q = GetQuals::parse(info);
        let mine = proc == self.me;
        if !mine && matches!(q.scope, Some(PMIX_LOCAL | PMIX_REMOTE)) {
            return Err(Error::NotFound);
        }
        let mut held = self.all_held(&proc);
        if held.0.is_empty() && !mine && !q.optional && self.conn.is_some() {
            let info: Vec<Info> = info
                .iter()
                .filter(|i| !i.is(PMIX_DATA_SCOPE))
                .cloned()
                .collect();
            let reply = self.request(self.getnb_payload(&proc, None, &info, false), None)?;
            Self::ingest_get_reply(self.mode, &self.store, &reply)?;
            held = self.all_held(&proc);
        }
        let (shared, job) = held;
        let mut seen = std::collections::HashSet::new();
        let all: Vec<Kval> = shared
            .into_iter()
            .chain(job)
            .filter(|kv| seen.insert(kv.key.clone()))
            .collect();
        if all.is_empty() {
            return Err(Error::NotFound);
        }
        Ok(Value::info_array(all))
    }

    /// What [`Client::get_all`] finds held: the shared data (store, then the modex
    /// segment), and the job data.
    fn all_held(&self, proc: &Proc) -> (Vec<Kval>, Vec<Kval>) {
        let (mut shared, job) = self.store.read().all_of(proc);
        if proc.nspace == self.me.nspace
            && proc.rank != self.me.rank
            && let Some(seg) = self.modex.as_ref().and_then(|m| m.all(proc.rank))
        {
            shared.extend(seg);
        }
        (shared, job)
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
}
