//! A server's store of committed (Put/Commit) data, per process and scope, and what of it
//! goes to other servers.
//!
//! What goes between servers, fence contributions ([`ModexStore::fence_contribution`]) and
//! direct-modex answers ([`ModexStore::dmodex_answer`]), is in OpenPMIx's inter-server
//! formats, so that the servers of one job may be of either library.

use std::borrow::Cow;
use std::collections::HashMap;

use pmix_sys::*;

use super::segment::{ModexWriter, blob_kvals, modex_blob};
use super::{pack_kvals, read_kvals, read_one};
use crate::codec::{BufferType, Decoder, Encoder};
use crate::values::*;
use crate::{Error, Result};

/// Flags of a fence contribution (OpenPMIx's `PMIX_GDS_COLLECT_BIT`, `_KEYMAP_BIT`).
const FENCE_COLLECT_BIT: u8 = 0x01;
const FENCE_KEYMAP_BIT: u8 = 0x02;

/// A server's store of committed (Put/Commit) data, per proc and scope.
///
/// Where a namespace has a modex segment ([`ModexStore::attach`]), its local processes'
/// LOCAL and GLOBAL values live only in their blobs there, which their local peers read:
/// this store keeps their keys, scopes and commit numbers, and reads the values back from
/// the blob when it must answer with them (a reference client's GETNB, a fence
/// contribution, the host's direct modex). A process whose blob cannot be published (no
/// slot for its rank, a full segment) keeps its values here.
#[derive(Debug, Default)]
pub struct ModexStore {
    procs: HashMap<Proc, ProcModex>,
    /// COMMITs received here, from every process: numbers each one (store-wide, so a
    /// process removed and seen again never reuses a number a requester was told about).
    seq: u64,
    /// The modex segments, by namespace.
    segments: HashMap<PStr, ModexWriter>,
    /// Changes of any process's data (COMMITs and data from other nodes), numbered.
    changes: u64,
}

#[derive(Debug, Default, Clone)]
struct ProcModex {
    /// Every key of the process, in the order of its first COMMIT (or arrival from another
    /// node), with its values for local and for remote requesters.
    entries: Vec<Entry>,
    /// Positions in `entries`, ordered by key (binary-searched).
    by_key: Vec<u32>,
    /// The process committed to this server (it is local); otherwise its data came from
    /// another node, and is all any requester here may see.
    committed_here: bool,
    /// The store-wide number of the process's latest COMMIT.
    commits: u64,
    /// Its local values are in its blob in the namespace's modex segment (`Vals::Seg`).
    in_segment: bool,
    /// The store-wide number of the latest change of its data ([`ModexStore::changed_since`]).
    changed: u64,
}

#[derive(Debug, Clone)]
struct Entry {
    key: PStr,
    vals: Vals,
    /// The number of the COMMIT that last set the local value (0: none did).
    stamp: u64,
}

/// A key's value for local requesters (LOCAL and GLOBAL puts) and for remote ones (REMOTE
/// and GLOBAL puts). A value that serves both (a GLOBAL put, which a 4.2 client sends in
/// its LOCAL and in its REMOTE buffer) is held once: a modex's values would otherwise be
/// held twice for every local process.
#[derive(Debug, Clone)]
enum Vals {
    Both(Value),
    Apart {
        local: Option<Value>,
        remote: Option<Value>,
    },
    /// The local value is in the process's blob in the modex segment; with `global` it is
    /// the remote value too, else the remote value (if any) is `remote`.
    Seg {
        global: bool,
        remote: Option<Value>,
    },
}

impl Vals {
    /// The local value (`None` for one in the segment: see [`ProcModex::restore`]).
    fn local(&self) -> Option<&Value> {
        match self {
            Vals::Both(v) => Some(v),
            Vals::Apart { local, .. } => local.as_ref(),
            Vals::Seg { .. } => None,
        }
    }

    fn has_local(&self) -> bool {
        matches!(self, Vals::Seg { .. }) || self.local().is_some()
    }

    fn remote(&self) -> Option<&Value> {
        match self {
            Vals::Both(v) => Some(v),
            Vals::Apart { remote, .. } | Vals::Seg { remote, .. } => remote.as_ref(),
        }
    }

    /// Sets the local value, the remote one, or both.
    fn set(&mut self, local: bool, remote: bool, v: Value) {
        let old = std::mem::replace(
            self,
            Vals::Apart {
                local: None,
                remote: None,
            },
        );
        *self = match (old, local, remote) {
            (_, true, true) => Vals::Both(v),
            (Vals::Both(o), true, false) => Vals::Apart {
                local: Some(v),
                remote: Some(o),
            },
            (Vals::Both(o), false, true) => Vals::Apart {
                local: Some(o),
                remote: Some(v),
            },
            (Vals::Apart { remote: r, .. }, true, false) => Vals::Apart {
                local: Some(v),
                remote: r,
            },
            (Vals::Apart { local: l, .. }, false, true) => Vals::Apart {
                local: l,
                remote: Some(v),
            },
            (o, false, false) => o,
            // The process's values are restored from its blob before they change.
            (Vals::Seg { .. }, _, _) => {
                debug_assert!(false, "a value of a process in the segment set in place");
                Vals::Apart {
                    local: local.then(|| v.clone()),
                    remote: remote.then_some(v),
                }
            }
        };
        // A 4.2 client sends a GLOBAL put twice, in its LOCAL and its REMOTE buffer.
        if let Vals::Apart {
            local: Some(l),
            remote: Some(r),
        } = self
            && l == r
        {
            let v = std::mem::replace(l, Value::Undef);
            *self = Vals::Both(v);
        }
    }
}

impl ProcModex {
    /// Where `key` is in `by_key`: `Ok(i)` when present, `Err(i)` where it would go.
    fn search(&self, key: &[u8]) -> std::result::Result<usize, usize> {
        self.by_key.binary_search_by(|&i| {
            self.entries
                .get(i as usize)
                .map_or(&[][..], |e| e.key.as_bytes())
                .cmp(key)
        })
    }

    /// Sets `key`'s local and/or remote value; `stamp` is the COMMIT setting a local value.
    fn set(&mut self, key: PStr, local: bool, remote: bool, v: Value, stamp: u64) {
        if !local && !remote {
            return;
        }
        let e = match self.search(key.as_bytes()) {
            Ok(i) => {
                let at = self.by_key[i] as usize;
                &mut self.entries[at]
            }
            Err(i) => {
                // More than 2^32 keys of one process do not fit in memory anyway.
                let at = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
                self.by_key.insert(i, at);
                self.entries.push(Entry {
                    key,
                    vals: Vals::Apart {
                        local: None,
                        remote: None,
                    },
                    stamp: 0,
                });
                let last = self.entries.len() - 1;
                &mut self.entries[last]
            }
        };
        e.vals.set(local, remote, v);
        if local {
            e.stamp = stamp;
        }
    }

    fn entry(&self, key: &[u8]) -> Option<&Entry> {
        let i = self.search(key).ok()?;
        self.entries.get(*self.by_key.get(i)? as usize)
    }

    /// The local (`local == true`) or remote values, in first-commit order.
    fn list(&self, local: bool) -> Vec<Kval> {
        self.entries
            .iter()
            .filter_map(|e| {
                let v = if local {
                    e.vals.local()
                } else {
                    e.vals.remote()
                };
                v.map(|v| Kval {
                    key: e.key.clone(),
                    value: v.clone(),
                })
            })
            .collect()
    }
}

impl ProcModex {
    /// The local values, the most recently committed first (values of one COMMIT in
    /// first-commit order).
    fn newest_first(&self) -> Vec<(&PStr, &Value)> {
        let mut v: Vec<(u64, &PStr, &Value)> = self
            .entries
            .iter()
            .filter_map(|e| e.vals.local().map(|v| (e.stamp, &e.key, v)))
            .collect();
        // Stable: the values of one COMMIT keep their order.
        v.sort_by_key(|e| std::cmp::Reverse(e.0));
        v.into_iter().map(|(_, k, v)| (k, v)).collect()
    }
}

impl ProcModex {
    /// Whether the process has any value a local requester sees.
    fn has_local(&self) -> bool {
        self.entries.iter().any(|e| e.vals.has_local())
    }

    /// Takes the local values back from the rank's blob in `w`: the process then holds
    /// them here again.
    fn restore(&mut self, w: &ModexWriter, rank: u32) {
        if !self.in_segment {
            return;
        }
        let blob = w.blob(rank).unwrap_or_default();
        let mut values: HashMap<PStr, Value> = blob_kvals(&blob)
            .unwrap_or_default()
            .into_iter()
            .map(|kv| (kv.key, kv.value))
            .collect();
        for e in &mut self.entries {
            if let Vals::Seg { global, remote } = &mut e.vals {
                let local = values.remove(&e.key);
                e.vals = match (local, *global) {
                    (Some(l), true) => Vals::Both(l),
                    (local, _) => Vals::Apart {
                        local,
                        remote: remote.take(),
                    },
                };
            }
        }
        self.in_segment = false;
    }

    /// Publishes the local values as the rank's blob in `w` and drops them here; false (the
    /// values stay here) when there is nothing to publish or the segment cannot take it.
    fn move_to_segment(&mut self, w: &mut ModexWriter, rank: u32) -> bool {
        if self.in_segment || !self.has_local() {
            return self.in_segment;
        }
        if !w.publish(rank, &modex_blob(self.newest_first())) {
            return false;
        }
        for e in &mut self.entries {
            e.vals = match std::mem::replace(
                &mut e.vals,
                Vals::Seg {
                    global: false,
                    remote: None,
                },
            ) {
                Vals::Both(_) => Vals::Seg {
                    global: true,
                    remote: None,
                },
                Vals::Apart {
                    local: Some(_),
                    remote,
                } => Vals::Seg {
                    global: false,
                    remote,
                },
                other => other,
            };
        }
        self.in_segment = true;
        true
    }
}

impl ModexStore {
    /// An empty store.
    pub fn new() -> ModexStore {
        ModexStore::default()
    }

    /// One COMMIT request's (scope, BUFFER) pair: `scope` is `PMIX_LOCAL`, `PMIX_REMOTE` or
    /// `PMIX_GLOBAL`, `kvals` the KVALs of the buffer. LOCAL and GLOBAL values serve local
    /// requesters; REMOTE and GLOBAL values are what goes to other nodes (fence contribution,
    /// direct modex). Values replace earlier ones of the same key and scope. Other scopes
    /// store nothing, but any call marks the process as having committed (so a bare COMMIT
    /// can be recorded with an empty `kvals`).
    pub fn commit(&mut self, proc: &Proc, scope: pmix_scope_t, kvals: Vec<Kval>) {
        self.commit_all(proc, vec![(scope, kvals)]);
    }

    /// A whole COMMIT request: its (scope, BUFFER) pairs in order, each as
    /// [`ModexStore::commit`]. Where the namespace has a modex segment, the process's new
    /// local view is published there before this returns (local peers read it as soon as
    /// the COMMIT is answered).
    pub fn commit_all(&mut self, proc: &Proc, parts: Vec<(pmix_scope_t, Vec<Kval>)>) {
        let segment = self.segments.get_mut(&proc.nspace);
        let e = self.procs.entry(proc.clone()).or_default();
        if let Some(w) = &segment {
            e.restore(w, proc.rank);
        }
        e.committed_here = true;
        self.changes += 1;
        e.changed = self.changes;
        for (scope, kvals) in parts {
            self.seq += 1;
            e.commits = self.seq;
            let local = matches!(scope, PMIX_LOCAL | PMIX_GLOBAL);
            let remote = matches!(scope, PMIX_REMOTE | PMIX_GLOBAL);
            for kv in kvals {
                e.set(kv.key, local, remote, kv.value, e.commits);
            }
        }
        if let Some(w) = segment {
            e.move_to_segment(w, proc.rank);
        }
    }

    /// Keeps the local values of `nspace`'s processes in its modex segment `w` from now on
    /// (those committed so far are published now).
    pub(crate) fn attach(&mut self, nspace: &PStr, mut w: ModexWriter) {
        for (p, e) in self.procs.iter_mut() {
            if p.nspace == *nspace && e.committed_here {
                e.move_to_segment(&mut w, p.rank);
            }
        }
        self.segments.insert(nspace.clone(), w);
    }

    /// Takes the values of `nspace`'s processes back from its modex segment, and returns
    /// the segment's writer (to retire it).
    pub(crate) fn detach(&mut self, nspace: &PStr) -> Option<ModexWriter> {
        let w = self.segments.remove(nspace)?;
        for (p, e) in self.procs.iter_mut() {
            if p.nspace == *nspace {
                e.restore(&w, p.rank);
            }
        }
        Some(w)
    }

    /// The path and generation of `nspace`'s modex segment, if it has one.
    pub(crate) fn segment_name(&self, nspace: &PStr) -> Option<(std::path::PathBuf, u64)> {
        self.segments.get(nspace).map(ModexWriter::name)
    }

    /// Whether any namespace has a modex segment.
    pub(crate) fn has_segments(&self) -> bool {
        !self.segments.is_empty()
    }

    /// Every modex segment's writer, the values taken back first (at finalize).
    pub(crate) fn detach_all(&mut self) -> Vec<ModexWriter> {
        let names: Vec<PStr> = self.segments.keys().cloned().collect();
        names.iter().filter_map(|n| self.detach(n)).collect()
    }

    /// The process's data with its local values in hand (read back from its blob when it
    /// is in the segment).
    fn view(&self, proc: &Proc) -> Option<Cow<'_, ProcModex>> {
        let e = self.procs.get(proc)?;
        if !e.in_segment {
            return Some(Cow::Borrowed(e));
        }
        let mut e = e.clone();
        match self.segments.get(&proc.nspace) {
            Some(w) => e.restore(w, proc.rank),
            None => debug_assert!(false, "a process in a segment the store does not have"),
        }
        Some(Cow::Owned(e))
    }

    /// What a server's own `PMIx_Get` without a key sees of `proc` in `scope`, as
    /// OpenPMIx's server answers it: `LOCAL` its LOCAL and GLOBAL values, `REMOTE` its
    /// REMOTE and GLOBAL ones (for a process of another node, what its node sent, which has
    /// no local values), `GLOBAL` the two lists one after the other (a GLOBAL value twice,
    /// as the reference gives it). Empty when nothing is held.
    pub fn scoped(&self, proc: &Proc, scope: pmix_scope_t) -> Vec<Kval> {
        let Some(e) = self.view(proc) else {
            return Vec::new();
        };
        let local = || {
            if e.committed_here {
                e.list(true)
            } else {
                Vec::new()
            }
        };
        match scope {
            PMIX_LOCAL => local(),
            PMIX_REMOTE => e.list(false),
            _ => {
                let mut v = local();
                v.extend(e.list(false));
                v
            }
        }
    }

    /// The number of the latest change of any process's data (see
    /// [`ModexStore::changed_since`]).
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// The processes of `nspace` whose data changed after change number `since`, each with
    /// the values a local requester sees of it (as [`ModexStore::kvals`] with `local`).
    pub(crate) fn changed_since(&self, nspace: &PStr, since: u64) -> Vec<(u32, Vec<Kval>)> {
        let mut out: Vec<(u32, Vec<Kval>)> = self
            .procs
            .iter()
            .filter(|(p, e)| p.nspace == *nspace && e.changed > since)
            .filter_map(|(p, _)| Some((p.rank, self.kvals(p, true)?)))
            .collect();
        out.sort_unstable_by_key(|x| x.0);
        out
    }

    /// Whether the process committed anything (or its data arrived from another node).
    pub fn has(&self, proc: &Proc) -> bool {
        self.procs.contains_key(proc)
    }

    /// Whether `proc` committed here and `key` is not among its keys in any scope: the key
    /// may still come with a later commit. (A key it committed in a scope the requester may
    /// not see is known to be absent for that requester.)
    pub fn may_commit_later(&self, proc: &Proc, key: &[u8]) -> bool {
        self.procs
            .get(proc)
            .is_some_and(|e| e.committed_here && e.entry(key).is_none())
    }

    /// The values of `proc` visible to a requester that is local (`local == true`) or
    /// remote: a local process's LOCAL+GLOBAL or REMOTE+GLOBAL values; for a process of
    /// another node, what its node sent. `None` when nothing is known of the process.
    pub fn kvals(&self, proc: &Proc, local: bool) -> Option<Vec<Kval>> {
        let e = self.view(proc)?;
        Some(e.list(e.committed_here && local))
    }

    /// For a local requester of a process that committed here: the number of its latest
    /// COMMIT, and the number of the COMMIT that last set `key` (`None` if none did).
    /// `None` for a process that did not commit here.
    pub fn local_stamps(&self, proc: &Proc, key: &[u8]) -> Option<(u64, Option<u64>)> {
        let e = self.procs.get(proc).filter(|e| e.committed_here)?;
        let stamp = e.entry(key).filter(|x| x.vals.has_local());
        Some((e.commits, stamp.map(|x| x.stamp)))
    }

    /// The LOCAL and GLOBAL values of a process that committed here, set by a COMMIT
    /// numbered above `since` (see [`ModexStore::local_stamps`]).
    pub fn local_since(&self, proc: &Proc, since: u64) -> Vec<Kval> {
        let Some(e) = self.view(proc).filter(|e| e.committed_here) else {
            return Vec::new();
        };
        e.entries
            .iter()
            .filter(|x| x.stamp > since)
            .filter_map(|x| {
                x.vals.local().map(|v| Kval {
                    key: x.key.clone(),
                    value: v.clone(),
                })
            })
            .collect()
    }

    /// The answer to another server's direct-modex request for `proc` (what the host's
    /// `direct_modex` carries back): its REMOTE and GLOBAL values as a sequence of
    /// `PACK(KVAL)`, in the v41 codec, non-described: OpenPMIx's inter-server format
    /// (`_dmodex_req` answering, `_process_dmdx_reply` reading), so that either library's
    /// server may be on the other end. A process that committed nothing gives no bytes.
    pub fn dmodex_answer(&self, proc: &Proc) -> Vec<u8> {
        let mut e = Encoder::new(BufferType::NonDesc);
        if let Some(m) = self.view(proc) {
            pack_kvals(&mut e, &m.list(false));
        }
        e.into_bytes()
    }

    /// Stores another server's direct-modex answer for `proc` (see
    /// [`ModexStore::dmodex_answer`]) as data of another node. A process that committed
    /// here keeps its own view (its REMOTE+GLOBAL values are merged, never shown to local
    /// requesters). On error nothing is stored.
    ///
    /// # Errors
    /// The decoder's errors for a blob that is not a sequence of KVALs.
    pub fn absorb_dmodex(&mut self, proc: &Proc, blob: &[u8]) -> Result<()> {
        let kvals = read_kvals(&mut Decoder::new(BufferType::NonDesc, blob), true)?;
        self.store_remote(vec![(proc.clone(), kvals)]);
        Ok(())
    }

    /// Stores processes' data as data of another node (see [`ModexStore::absorb_dmodex`]).
    fn store_remote(&mut self, parsed: Vec<(Proc, Vec<Kval>)>) {
        for (proc, kvals) in parsed {
            let segment = self.segments.get_mut(&proc.nspace);
            let e = self.procs.entry(proc.clone()).or_default();
            let was_in_segment = e.in_segment;
            if let Some(w) = &segment {
                e.restore(w, proc.rank);
            }
            self.changes += 1;
            e.changed = self.changes;
            for kv in kvals {
                e.set(kv.key, false, true, kv.value, 0);
            }
            if let (Some(w), true) = (segment, was_in_segment) {
                e.move_to_segment(w, proc.rank);
            }
        }
    }

    /// The fence contribution of the given local processes in OpenPMIx's inter-server
    /// format (what its server hands the host's `fence_nb`, and reads back from every
    /// node's: `_collect_data` and `pmix_gds_base_store_modex` in the reference), so that a
    /// host can carry it between our servers and the reference's on other nodes:
    ///
    /// `BYTE_OBJECT` { `BYTE` flags (0x1 collected; 0x2 key map, which we never write but
    /// read), then per process with data `BYTE_OBJECT` { `PROC_RANK` rank relative to the
    /// fence's namespaces, `KVAL`* } }.
    ///
    /// `rel_rank` gives a process's relative rank (its rank plus the sizes of the fence's
    /// namespaces before its own); a process it cannot place is left out.
    pub fn fence_contribution(
        &self,
        procs: &[Proc],
        rel_rank: impl Fn(&Proc) -> Option<u32>,
    ) -> Vec<u8> {
        let mut bucket = Encoder::new(BufferType::NonDesc);
        let _ = bucket.pack(PMIX_BYTE, &[Value::Byte(FENCE_COLLECT_BIT)]);
        for p in procs {
            let Some(m) = self.view(p) else { continue };
            let kvals = m.list(false);
            let Some(rel) = rel_rank(p).filter(|_| !kvals.is_empty()) else {
                continue;
            };
            let mut one = Encoder::new(BufferType::NonDesc);
            if one.pack(PMIX_PROC_RANK, &[Value::ProcRank(rel)]).is_err() {
                continue;
            }
            pack_kvals(&mut one, &kvals);
            let _ = bucket.pack(PMIX_BYTE_OBJECT, &[Value::ByteObject(one.into_bytes())]);
        }
        let mut e = Encoder::new(BufferType::NonDesc);
        let _ = e.pack(PMIX_BYTE_OBJECT, &[Value::ByteObject(bucket.into_bytes())]);
        e.into_bytes()
    }

    /// Stores every process's data from what a host's `fence_nb` returned: the nodes'
    /// contributions in the format of [`ModexStore::fence_contribution`], one after the
    /// other, in either key format (OpenPMIx servers write a key map when it is smaller).
    /// `proc_of` turns a relative rank back into a process. Processes that committed here keep
    /// their own view, as in [`ModexStore::absorb`]. On error nothing is stored.
    ///
    /// # Errors
    /// The decoder's errors, or `UnpackFailure` for a key index past the key map or a rank
    /// `proc_of` cannot place.
    pub fn absorb_fence(
        &mut self,
        blob: &[u8],
        proc_of: impl Fn(u32) -> Option<Proc>,
    ) -> Result<()> {
        let mut parsed = Vec::new();
        let mut d = Decoder::new(BufferType::NonDesc, blob);
        while !d.remaining().is_empty() {
            let Value::ByteObject(bucket) = read_one(&mut d, PMIX_BYTE_OBJECT)? else {
                return Err(Error::UnpackFailure);
            };
            let mut b = Decoder::new(BufferType::NonDesc, &bucket);
            if b.remaining().is_empty() {
                continue;
            }
            let Value::Byte(flags) = read_one(&mut b, PMIX_BYTE)? else {
                return Err(Error::UnpackFailure);
            };
            let mut keys = Vec::new();
            if flags & FENCE_KEYMAP_BIT != 0 && !b.remaining().is_empty() {
                let n = read_one(&mut b, PMIX_UINT32)?
                    .as_u64()
                    .ok_or(Error::UnpackFailure)?;
                let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
                // The key names come in one pack of `n` strings.
                for v in b.unpack(PMIX_STRING, n)?.values {
                    match v {
                        Value::String(Some(k)) => keys.push(k),
                        _ => return Err(Error::UnpackFailure),
                    }
                }
                if keys.len() != n {
                    return Err(Error::UnpackFailure);
                }
            }
            while !b.remaining().is_empty() {
                let Value::ByteObject(one) = read_one(&mut b, PMIX_BYTE_OBJECT)? else {
                    return Err(Error::UnpackFailure);
                };
                let mut o = Decoder::new(BufferType::NonDesc, &one);
                let Value::ProcRank(rel) = read_one(&mut o, PMIX_PROC_RANK)? else {
                    return Err(Error::UnpackFailure);
                };
                let proc = proc_of(rel).ok_or(Error::UnpackFailure)?;
                let kvals = if flags & FENCE_KEYMAP_BIT != 0 {
                    let mut kv = Vec::new();
                    while !o.remaining().is_empty() {
                        let i = read_one(&mut o, PMIX_UINT32)?
                            .as_u64()
                            .and_then(|i| usize::try_from(i).ok())
                            .ok_or(Error::UnpackFailure)?;
                        let key = keys.get(i).cloned().ok_or(Error::UnpackFailure)?;
                        let value = read_one(&mut o, PMIX_VALUE)?;
                        kv.push(Kval { key, value });
                    }
                    kv
                } else {
                    read_kvals(&mut o, true)?
                };
                parsed.push((proc, kvals));
            }
        }
        self.store_remote(parsed);
        Ok(())
    }

    /// How many values of `proc` the store itself holds (tests).
    #[cfg(test)]
    pub(crate) fn values_held(&self, proc: &Proc) -> usize {
        self.procs.get(proc).map_or(0, |e| {
            e.entries
                .iter()
                .map(|x| match &x.vals {
                    Vals::Both(_) => 1,
                    Vals::Apart { local, remote } => {
                        usize::from(local.is_some()) + usize::from(remote.is_some())
                    }
                    Vals::Seg { remote, .. } => usize::from(remote.is_some()),
                })
                .sum()
        })
    }

    /// The blob of `proc` in its namespace's segment (tests).
    #[cfg(test)]
    pub(crate) fn segment_blob(&self, proc: &Proc) -> Option<Vec<u8>> {
        self.segments.get(&proc.nspace)?.blob(proc.rank)
    }

    /// Forgets a process.
    pub fn remove(&mut self, proc: &Proc) {
        self.procs.remove(proc);
    }

    /// Forgets every process of a namespace.
    pub fn remove_nspace(&mut self, nspace: &PStr) {
        self.procs.retain(|p, _| p.nspace != *nspace);
    }
}
