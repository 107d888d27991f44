//! Gets and direct modex: COMMIT, GETNB (answered from the registered job data and the
//! modex store, held until the data arrives or the request times out, or asked of the host
//! for processes of other servers), the prefetch of peers' data for "hash" clients, and
//! `PMIx_server_dmodex_request` for other servers.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use pmix_sys::*;

use super::{Peer, Shared, State};
use crate::codec::BufferType;
use crate::datastore::blob_of;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor, TimerId};
use crate::values::info_flag as flag;
use crate::values::{Info, Kval, PStr, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

#[derive(Debug)]
pub(super) struct PendingGet {
    pub(super) conn: ConnId,
    pub(super) tag: u32,
    pub(super) requester: Proc,
    pub(super) target: Proc,
    pub(super) key: Option<PStr>,
    pub(super) timer: Option<TimerId>,
    pub(super) id: u64,
}

/// Bytes of other processes' data the first GETNB reply to a "hash" client may carry besides
/// the process asked for; each later reply that carries some may carry twice as much, up to
/// [`PREFETCH_MAX`] (see `Shared::prefetch_peers`). A client that Gets a few neighbours is
/// not sent the whole job; one that Gets every peer asks about log2(job data / 4 KiB) times.
pub(super) const PREFETCH_FIRST: usize = 4 << 10;

pub(super) const PREFETCH_MAX: usize = 256 << 10;

/// The get room's state.
#[derive(Default)]
pub(super) struct Gets {
    /// GETNB requests waiting for their data.
    pub(super) pending: Vec<PendingGet>,
    /// The id of the last pending get.
    pub(super) next: u64,
    /// Requests for local data on behalf of other servers (`PMIx_server_dmodex_request`).
    pub(super) dmodex_waiters: Vec<(Proc, crate::host::Done<Vec<u8>>)>,
    /// Per connection, per local process: the number of that process's latest COMMIT whose
    /// data the connection was sent in a GETNB reply (see `try_get`).
    pub(super) modex_sent: HashMap<ConnId, HashMap<Proc, u64>>,
    /// Per "hash" connection: the bytes of peers' data its next GETNB reply may carry.
    pub(super) prefetch_window: HashMap<ConnId, usize>,
}

impl Shared {
    /// The number of GETNB requests (a client's or tool's `PMIx_Get` of data it does not
    /// hold) this server has received: a diagnostic, and how tests see that a Get was
    /// answered without the server.
    pub fn get_requests(&self) -> u64 {
        self.get_requests.load(Ordering::Relaxed)
    }

    /// The server process's own `PMIx_Get` without a key (PRRTE asks it for its clients'
    /// data when a connect spans nodes), as OpenPMIx's server answers it: with a scope of
    /// LOCAL, REMOTE or GLOBAL, the data the process committed (or its node sent) seen in
    /// that scope ([`crate::datastore::ModexStore::scoped`]); without one, the process's
    /// job data. Empty when nothing is held.
    pub fn proc_data(&self, proc: &Proc, scope: Option<pmix_scope_t>) -> Vec<Kval> {
        let st = self.state.lock();
        match scope {
            Some(s @ (PMIX_LOCAL | PMIX_REMOTE | PMIX_GLOBAL)) => st.modex.scoped(proc, s),
            _ => st
                .jobs
                .get(&proc.nspace)
                .map(|j| j.rank_info(proc.rank))
                .unwrap_or_default(),
        }
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
            st.get.dmodex_waiters.push((proc.clone(), done));
        }
    }

    /// Whether `p` runs on this node: a registered client, or a rank its job places here
    /// that has not ended (a host may register its clients one by one, after the first
    /// already ask for the others' data).
    pub(super) fn runs_here(st: &State, p: &Proc) -> bool {
        st.clients.contains_key(p)
            || (st
                .jobs
                .get(&p.nspace)
                .is_some_and(|j| j.local_ranks().contains(&p.rank))
                && !st.ended.contains(p))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn get(
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
        let gid = st.get.next;
        st.get.next += 1;
        let timer = timeout.map(|t| {
            let me = self.arc();
            r.schedule(Duration::from_secs(t), move |r| me.expire_get(r, gid))
        });
        st.get.pending.push(PendingGet {
            conn: id,
            tag,
            requester: requester.clone(),
            target,
            key,
            timer,
            id: gid,
        });
    }

    pub(super) fn expire_get(&self, r: &mut Reactor, gid: u64) {
        let g = {
            let mut st = self.state.lock();
            let Some(pos) = st.get.pending.iter().position(|g| g.id == gid) else {
                return;
            };
            let g = st.get.pending.remove(pos);
            let mode = st.peers.get(&g.conn).map(|p| p.mode).unwrap_or_default();
            (g, mode)
        };
        Self::reply_status(r, g.0.conn, g.0.tag, g.1, PMIX_ERR_TIMEOUT);
    }

    /// Answers a get if it can be answered now (found, or definitely absent); false when
    /// the data may still come: from a local process that has not committed yet, or, with
    /// `ask_host`, from the host's direct modex for a process of another node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn try_get(
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
                    .get
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
            st.get
                .modex_sent
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
    pub(super) fn prefetch_peers(
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
        let sent = st.get.modex_sent.entry(id).or_default();
        let window = st.get.prefetch_window.entry(id).or_insert(PREFETCH_FIRST);
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

    pub(super) fn retry_gets(&self, r: &mut Reactor) {
        let pending = std::mem::take(&mut self.state.lock().get.pending);
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
        self.state.lock().get.pending.extend(keep);
    }

    pub(super) fn serve_dmodex_waiters(&self) {
        let ready: Vec<(Proc, crate::host::Done<Vec<u8>>, Vec<u8>)> = {
            let mut st = self.state.lock();
            let waiters = std::mem::take(&mut st.get.dmodex_waiters);
            let mut ready = Vec::new();
            for (p, d) in waiters {
                if st.modex.has(&p) {
                    let blob = st.modex.dmodex_answer(&p);
                    ready.push((p, d, blob));
                } else {
                    st.get.dmodex_waiters.push((p, d));
                }
            }
            ready
        };
        for (_, d, blob) in ready {
            d(Ok(blob));
        }
    }

    /// The command COMMIT: `PMIx_Commit`.
    pub(super) fn on_commit(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
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
        Ok(())
    }

    /// The command GETNB: `PMIx_Get` of data the requester does not hold.
    pub(super) fn on_get(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let me = &peer.proc;
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
        Ok(())
    }
}
