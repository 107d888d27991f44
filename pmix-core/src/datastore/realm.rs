//! The data of one namespace, organised by realm (job, session, node, app, proc), shared by
//! the client store and the server's job records.
//!
//! Node, app and session data arrive as `DATA_ARRAY`s of `INFO` (`pmix.node.arr`,
//! `pmix.app.arr`, `pmix.ssn.arr`); the element that names the node (`pmix.hname`,
//! `pmix.nodeid`), the app (`pmix.appnum`) or the session (`pmix.session.id`) is taken out
//! and kept as the entry's identity, everything else is the entry's key-value list. Arrays
//! naming an entry already held are merged into it.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use pmix_sys::*;

use super::keys;
use crate::codec::BufferType;
use crate::values::*;
use crate::{Error, Result};

/// Keys and values in insertion order. Inserting a key already present replaces its value
/// in place. Lists of up to `INDEX_FROM` keys (a rank's data: about ten) are searched in
/// order; longer ones get a hash index. Hashing and an index per rank made up a third of a
/// client's cost of ingesting a 1000-rank job.
#[derive(Debug, Clone, Default)]
pub(crate) struct KvList {
    items: Vec<Kval>,
    /// Empty until the list is longer than `INDEX_FROM`.
    index: HashMap<Vec<u8>, usize>,
}

/// Length from which a `KvList` keeps a hash index.
const INDEX_FROM: usize = 16;

impl KvList {
    fn position(&self, key: &[u8]) -> Option<usize> {
        if self.index.is_empty() {
            self.items.iter().position(|kv| kv.key.as_bytes() == key)
        } else {
            self.index.get(key).copied()
        }
    }

    pub(crate) fn get(&self, key: &[u8]) -> Option<&Value> {
        let i = self.position(key)?;
        self.items.get(i).map(|kv| &kv.value)
    }

    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        self.position(key).is_some()
    }

    pub(crate) fn insert(&mut self, key: PStr, value: Value) {
        if let Some(kv) = self
            .position(key.as_bytes())
            .and_then(|i| self.items.get_mut(i))
        {
            kv.value = value;
            return;
        }
        if !self.index.is_empty() {
            self.index.insert(key.as_bytes().to_vec(), self.items.len());
        }
        self.items.push(Kval { key, value });
        if self.index.is_empty() && self.items.len() > INDEX_FROM {
            self.index = self
                .items
                .iter()
                .enumerate()
                .map(|(i, kv)| (kv.key.as_bytes().to_vec(), i))
                .collect();
        }
    }

    /// Room for `n` more keys.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.items.reserve(n);
    }

    /// Inserts unless the key is present; whether it inserted.
    pub(crate) fn insert_if_absent(&mut self, key: &[u8], value: Value) -> bool {
        if self.contains(key) {
            return false;
        }
        self.insert(PStr::from(key), value);
        true
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Kval> {
        self.items.iter()
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn to_vec(&self) -> Vec<Kval> {
        self.items.clone()
    }
}

/// A `pmix.node.arr` KVAL left in a mapped segment: its place in the segment's job part.
#[derive(Debug, Clone)]
pub(crate) struct MappedArray {
    seg: Arc<super::segment::Segment>,
    off: usize,
    len: usize,
}

impl MappedArray {
    /// The value of the last info named `key`.
    fn value(&self, key: &[u8]) -> Option<Value> {
        let bytes = self
            .seg
            .job_part()
            .get(self.off..self.off.checked_add(self.len)?)?;
        crate::codec::Decoder::new(self.seg.mode(), bytes)
            .find_in_info_array(key)
            .ok()
            .flatten()
    }

    /// The infos of the array; `None` when they do not decode.
    fn items(&self) -> Option<Vec<Info>> {
        let bytes = self
            .seg
            .job_part()
            .get(self.off..self.off.checked_add(self.len)?)?;
        packed_info_array(self.seg.mode(), bytes, None)
    }
}

/// The data of one node.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeData {
    pub(crate) hostname: Option<PStr>,
    pub(crate) nodeid: Option<u32>,
    /// The node's other names (`pmix.alias`, comma separated), also kept in `kv`.
    pub(crate) aliases: Vec<PStr>,
    /// Everything but the hostname and node id.
    pub(crate) kv: KvList,
    /// The node's array left in a mapped segment (then `kv` is empty): decoded when a Get
    /// asks for one of its keys.
    pub(crate) mapped: Option<MappedArray>,
}

impl NodeData {
    /// The node's value for `key`, its identity included.
    pub(crate) fn get(&self, key: &[u8]) -> Option<Value> {
        if let Some(v) = self.kv.get(key) {
            return Some(v.clone());
        }
        if let Some(m) = &self.mapped {
            if key != keys::HOSTNAME && key != keys::NODEID {
                if let Some(v) = m.value(key) {
                    return Some(v);
                }
            }
        }
        if key == keys::HOSTNAME {
            return self.hostname.clone().map(|h| Value::String(Some(h)));
        }
        if key == keys::NODEID {
            return self.nodeid.map(Value::Uint32);
        }
        None
    }

    /// Copies the mapped array's data into `kv` (once).
    fn materialize(&mut self) {
        let Some(m) = self.mapped.take() else {
            return;
        };
        for i in m.items().unwrap_or_default() {
            let k = i.key.as_bytes();
            if k != keys::HOSTNAME && k != keys::NODEID {
                self.kv.insert(i.key, i.value);
            }
        }
    }

    /// The `pmix.node.arr` value describing this node: hostname, node id, then the rest.
    pub(crate) fn to_array(&self) -> Value {
        let mut node = self.clone();
        node.materialize();
        let mut items = Vec::with_capacity(node.kv.len() + 2);
        if let Some(h) = &node.hostname {
            items.push(Info::new(
                PStr::from(keys::HOSTNAME),
                Value::String(Some(h.clone())),
            ));
        }
        if let Some(id) = node.nodeid {
            items.push(Info::new(PStr::from(keys::NODEID), Value::Uint32(id)));
        }
        items.extend(
            node.kv
                .iter()
                .map(|kv| Info::new(kv.key.clone(), kv.value.clone())),
        );
        info_array(items)
    }
}

/// The data of one application.
#[derive(Debug, Clone, Default)]
pub(crate) struct AppData {
    pub(crate) appnum: u32,
    pub(crate) kv: KvList,
}

impl AppData {
    pub(crate) fn to_array(&self) -> Value {
        let mut items = Vec::with_capacity(self.kv.len() + 1);
        items.push(Info::new(
            PStr::from(keys::APPNUM),
            Value::Uint32(self.appnum),
        ));
        items.extend(
            self.kv
                .iter()
                .map(|kv| Info::new(kv.key.clone(), kv.value.clone())),
        );
        info_array(items)
    }
}

/// The data of one session.
#[derive(Debug, Clone, Default)]
pub(crate) struct SessionData {
    /// `None` when no id was given, or the reference's "no session" id `UINT32_MAX`.
    pub(crate) id: Option<u32>,
    /// The raw id as given (kept so that an array re-emitted carries the same value).
    pub(crate) raw_id: Option<u32>,
    pub(crate) kv: KvList,
}

impl SessionData {
    pub(crate) fn to_array(&self) -> Value {
        let mut items = Vec::with_capacity(self.kv.len() + 1);
        if let Some(id) = self.raw_id {
            items.push(Info::new(PStr::from(keys::SESSION_ID), Value::Uint32(id)));
        }
        items.extend(
            self.kv
                .iter()
                .map(|kv| Info::new(kv.key.clone(), kv.value.clone())),
        );
        info_array(items)
    }
}

/// A value stored with qualifiers (`PMIX_QUALIFIED_VALUE`: a `DATA_ARRAY` of `INFO` whose
/// first element is the key and value, the others the qualifiers).
#[derive(Debug, Clone)]
pub(crate) struct Qualified {
    pub(crate) key: PStr,
    pub(crate) value: Value,
    pub(crate) quals: Vec<Info>,
    /// The value as received, for re-emission.
    pub(crate) raw: Value,
}

impl Qualified {
    pub(crate) fn parse(v: &Value) -> Option<Qualified> {
        let mut items = info_items(v)?;
        let first = items.next()?;
        Some(Qualified {
            key: first.key.clone(),
            value: first.value.clone(),
            quals: items.cloned().collect(),
            raw: v.clone(),
        })
    }

    /// Whether a Get of `key` whose info holds `given` selects this value: every qualifier
    /// must be among the given infos with an equal value.
    pub(crate) fn matches(&self, key: &[u8], given: &[Info]) -> bool {
        self.key.as_bytes() == key
            && self
                .quals
                .iter()
                .all(|q| given.iter().any(|g| g.key == q.key && g.value == q.value))
    }
}

/// Everything known about one namespace from the server: job-level data, realms, and the
/// data of each rank the server provided.
#[derive(Debug, Clone, Default)]
pub(crate) struct JobData {
    /// The job data of the namespace was received as a whole (REQ reply, a WILDCARD GETNB
    /// blob, a spawn or connect reply, or a server registration), so an absent reserved key
    /// is absent for good.
    pub(crate) complete: bool,
    /// Job-level (rank WILDCARD) keys.
    pub(crate) kv: KvList,
    /// Data of each rank provided with the job data (`pmix.pblob`, `pmix.pdata`).
    pub(crate) ranks: BTreeMap<u32, KvList>,
    pub(crate) nodes: Vec<NodeData>,
    node_by_name: HashMap<Vec<u8>, usize>,
    /// Names up to their first dot (the reference strips domains unless told not to).
    node_by_short: HashMap<Vec<u8>, usize>,
    node_by_id: HashMap<u32, usize>,
    pub(crate) apps: Vec<AppData>,
    app_by_num: HashMap<u32, usize>,
    pub(crate) sessions: Vec<SessionData>,
    /// Qualified values, with the rank they belong to (WILDCARD for job level).
    pub(crate) qualified: Vec<(u32, Qualified)>,
    /// Per-rank data left in a mapped job-data segment (gds "rsshm"): a rank's
    /// `pmix.pdata` is decoded when a Get asks for it. A rank present in `ranks` is wholly
    /// there (its mapped data was copied in before anything was added to it).
    pub(crate) mapped: Option<Arc<super::segment::Segment>>,
}

/// Deepest nesting of `pmix.job.arr` flattened.
const MAX_FLATTEN: usize = 4;

impl JobData {
    // ---- lookups

    pub(crate) fn node_by_name(&self, name: &[u8]) -> Option<&NodeData> {
        self.node_by_name
            .get(name)
            .or_else(|| self.node_by_short.get(short_name(name)))
            .and_then(|&i| self.nodes.get(i))
    }

    /// Indexes a name (host name or alias) of node `idx`.
    fn index_name(&mut self, name: &[u8], idx: usize) {
        self.node_by_name.entry(name.to_vec()).or_insert(idx);
        self.node_by_short
            .entry(short_name(name).to_vec())
            .or_insert(idx);
    }

    pub(crate) fn node_by_id(&self, id: u32) -> Option<&NodeData> {
        self.node_by_id.get(&id).and_then(|&i| self.nodes.get(i))
    }

    pub(crate) fn app(&self, appnum: u32) -> Option<&AppData> {
        self.app_by_num.get(&appnum).and_then(|&i| self.apps.get(i))
    }

    /// The session with id `id`, or for `None` the job's own session (the first one given).
    pub(crate) fn session(&self, id: Option<u32>) -> Option<&SessionData> {
        match id {
            None => self.sessions.first(),
            Some(id) => self.sessions.iter().find(|s| s.id == Some(id)),
        }
    }

    /// The id of the job's session, from its session array or a job-level
    /// `pmix.session.id`.
    pub(crate) fn session_id(&self) -> Option<u32> {
        self.sessions.first().and_then(|s| s.id).or_else(|| {
            self.kv
                .get(keys::SESSION_ID)
                .and_then(as_u32)
                .filter(|&id| id != u32::MAX)
        })
    }

    /// The value of `key` for `rank` among the qualified values that `given` selects.
    pub(crate) fn qualified(
        &self,
        rank: u32,
        key: &[u8],
        given: &[Info],
    ) -> Option<Cow<'_, Value>> {
        if let Some(v) = self
            .qualified
            .iter()
            .find(|(r, q)| *r == rank && q.matches(key, given))
            .map(|(_, q)| &q.value)
        {
            return Some(Cow::Borrowed(v));
        }
        if self.ranks.contains_key(&rank) {
            return None;
        }
        // Most ranks have no qualified value: look before decoding the whole array.
        self.mapped_find(rank, keys::QUALIFIED_VALUE)?;
        self.mapped_items(rank)?.into_iter().find_map(|i| {
            (i.key.as_bytes() == keys::QUALIFIED_VALUE)
                .then(|| Qualified::parse(&i.value))
                .flatten()
                .filter(|q| q.matches(key, given))
                .map(|q| Cow::Owned(q.value))
        })
    }

    /// The value of `key` in the data of `rank`: what is held in the heap, else what the
    /// mapped segment has for a rank not copied to the heap.
    pub(crate) fn rank_value(&self, rank: u32, key: &[u8]) -> Option<Cow<'_, Value>> {
        match self.ranks.get(&rank) {
            Some(kv) => kv.get(key).map(Cow::Borrowed),
            None => self.mapped_value(rank, key).map(Cow::Owned),
        }
    }

    /// The value of `key` of the lowest rank holding it.
    pub(crate) fn any_rank_value(&self, key: &[u8]) -> Option<(u32, Cow<'_, Value>)> {
        let held = self
            .ranks
            .iter()
            .find_map(|(r, kv)| kv.get(key).map(|v| (*r, Cow::Borrowed(v))));
        let Some(seg) = &self.mapped else {
            return held;
        };
        if key == keys::RANK || key == keys::QUALIFIED_VALUE {
            return held;
        }
        let l = seg.layout();
        let bytes = seg.bytes();
        let limit = held.as_ref().map_or(u32::MAX, |(r, _)| *r);
        for i in 0..l.ranks() {
            let Some((r, kv)) = l.nth(bytes, i) else {
                break;
            };
            if r >= limit {
                break;
            }
            if self.ranks.contains_key(&r) {
                continue;
            }
            let found = crate::codec::Decoder::new(seg.mode(), kv)
                .find_in_info_array(key)
                .ok()
                .flatten();
            if let Some(v) = found {
                return Some((r, Cow::Owned(v)));
            }
        }
        held
    }

    /// The infos of the mapped `pmix.pdata` of `rank` (`pmix.rank` included).
    fn mapped_items(&self, rank: u32) -> Option<Vec<Info>> {
        let seg = self.mapped.as_ref()?;
        decode_pdata(seg.mode(), seg.rank(rank)?)
    }

    /// The value of `key` in the mapped data of `rank` (not `pmix.rank` or a qualified
    /// value, which the heap form keeps apart too).
    fn mapped_value(&self, rank: u32, key: &[u8]) -> Option<Value> {
        if key == keys::RANK || key == keys::QUALIFIED_VALUE {
            return None;
        }
        self.mapped_find(rank, key)
    }

    /// The last info named `key` in the mapped `pmix.pdata` of `rank`.
    fn mapped_find(&self, rank: u32, key: &[u8]) -> Option<Value> {
        let seg = self.mapped.as_ref()?;
        crate::codec::Decoder::new(seg.mode(), seg.rank(rank)?)
            .find_in_info_array(key)
            .ok()
            .flatten()
    }

    /// Every key of `rank`'s own job data (its `pmix.pdata`, not `pmix.rank` or qualified
    /// values), in the order held.
    pub(crate) fn rank_items(&self, rank: u32) -> Vec<Kval> {
        if let Some(kv) = self.ranks.get(&rank) {
            return kv.to_vec();
        }
        self.mapped_items(rank)
            .unwrap_or_default()
            .into_iter()
            .filter(|i| i.key.as_bytes() != keys::RANK && i.key.as_bytes() != keys::QUALIFIED_VALUE)
            .map(|i| Kval {
                key: i.key,
                value: i.value,
            })
            .collect()
    }

    /// Copies the mapped data of `rank` into the heap (once), so that data added to the
    /// rank merges with it.
    pub(crate) fn materialize(&mut self, rank: u32) {
        if self.ranks.contains_key(&rank) {
            return;
        }
        let Some(items) = self.mapped_items(rank) else {
            return;
        };
        let mut list = KvList::default();
        list.reserve(items.len());
        for i in items {
            let k = i.key.as_bytes();
            if k == keys::RANK {
                continue;
            }
            if k == keys::QUALIFIED_VALUE {
                if let Some(q) = Qualified::parse(&i.value) {
                    self.qualified.push((rank, q));
                }
                continue;
            }
            list.insert(i.key, i.value);
        }
        self.ranks.insert(rank, list);
    }

    // ---- ingestion

    /// One KVAL of job data as a hash client receives it (REQ reply, WILDCARD GETNB blob,
    /// spawn and connect replies). `mode` decodes the per-rank blobs.
    pub(crate) fn add_kval(&mut self, mode: BufferType, kv: Kval) -> Result<()> {
        let key = kv.key.as_bytes();
        if key == keys::PROC_BLOB {
            let Value::ByteObject(bytes) = &kv.value else {
                return Err(Error::TypeMismatch);
            };
            let (rank, kvals) = super::decode_rank_blob(mode, bytes)?;
            self.add_rank_kvals(rank, kvals);
            Ok(())
        } else if key == keys::MAP_BLOB {
            // Legacy layout of peers before 3.1; the maps it carries arrive elsewhere too.
            Ok(())
        } else {
            self.add_entry(kv.key, kv.value, 0)
        }
    }

    /// One entry of job data in its `INFO`/`KVAL` form: the special arrays, qualified values,
    /// flattened `pmix.job.arr`, anything else as a job-level key.
    pub(crate) fn add_entry(&mut self, key: PStr, value: Value, depth: usize) -> Result<()> {
        let k = key.as_bytes();
        if k == keys::PROC_DATA {
            self.add_proc_array(value)
        } else if k == keys::NODE_INFO_ARRAY {
            self.add_node_array(&value)
        } else if k == keys::APP_INFO_ARRAY {
            self.add_app_array(&value)
        } else if k == keys::SESSION_INFO_ARRAY {
            self.add_session_array(&value)
        } else if k == keys::QUALIFIED_VALUE {
            let q = Qualified::parse(&value).ok_or(Error::BadParam)?;
            self.qualified.push((PMIX_RANK_WILDCARD, q));
            Ok(())
        } else if k == keys::JOB_INFO_ARRAY && depth < MAX_FLATTEN {
            let items: Vec<Info> = info_items(&value)
                .ok_or(Error::TypeMismatch)?
                .cloned()
                .collect();
            items
                .into_iter()
                .try_for_each(|i| self.add_entry(i.key, i.value, depth + 1))
        } else {
            self.kv.insert(key, value);
            Ok(())
        }
    }

    /// Data of one rank. Qualified values are kept apart; everything else replaces what the
    /// rank had under the same key.
    pub(crate) fn add_rank_kvals(&mut self, rank: u32, kvals: Vec<Kval>) {
        for kv in kvals {
            self.add_rank_kv(rank, kv.key, kv.value);
        }
    }

    pub(crate) fn add_rank_kv(&mut self, rank: u32, key: PStr, value: Value) {
        self.materialize(rank);
        if key.as_bytes() == keys::QUALIFIED_VALUE {
            if let Some(q) = Qualified::parse(&value) {
                self.qualified.push((rank, q));
            }
            return;
        }
        self.ranks.entry(rank).or_default().insert(key, value);
    }

    /// A `pmix.pdata` array: `pmix.rank` (any integer type) first, then the rank's keys.
    /// Takes the array apart rather than copying its keys and values.
    pub(crate) fn add_proc_array(&mut self, v: Value) -> Result<()> {
        let (rank, n) = {
            let items = info_items(&v).ok_or(Error::TypeMismatch)?;
            let rank = items
                .clone()
                .find(|i| i.key.as_bytes() == keys::RANK)
                .and_then(|i| as_u32(&i.value))
                .ok_or(Error::BadParam)?;
            let n = items
                .filter(|i| !matches!(i.key.as_bytes(), keys::RANK | keys::QUALIFIED_VALUE))
                .count();
            (rank, n)
        };
        let Value::DataArray(a) = v else {
            return Err(Error::TypeMismatch);
        };
        self.materialize(rank);
        // The rank's list is made only if it gets a key, as `add_rank_kv` does.
        let mut list = (n > 0).then(|| {
            let l = self.ranks.entry(rank).or_default();
            l.reserve(n);
            l
        });
        for item in a.items {
            let Value::Info(i) = item else { continue };
            let Info { key, value, .. } = *i;
            let k = key.as_bytes();
            if k == keys::RANK {
                continue;
            }
            if k == keys::QUALIFIED_VALUE {
                if let Some(q) = Qualified::parse(&value) {
                    self.qualified.push((rank, q));
                }
                continue;
            }
            if let Some(l) = list.as_mut() {
                l.insert(key, value);
            }
        }
        Ok(())
    }

    /// A `pmix.node.arr` array, identified by `pmix.hname` and/or `pmix.nodeid`.
    pub(crate) fn add_node_array(&mut self, v: &Value) -> Result<()> {
        let items: Vec<&Info> = info_items(v).ok_or(Error::TypeMismatch)?.collect();
        let mut hostname = None;
        let mut nodeid = None;
        for i in &items {
            let k = i.key.as_bytes();
            if k == keys::HOSTNAME && hostname.is_none() {
                hostname = i.value.as_str().cloned();
            } else if k == keys::NODEID && nodeid.is_none() {
                nodeid = as_u32(&i.value);
            }
        }
        if hostname.is_none() && nodeid.is_none() {
            return Err(Error::BadParam);
        }
        let idx = self.node_index(hostname.as_ref(), nodeid);
        if let Some(n) = self.nodes.get_mut(idx) {
            n.materialize();
        }
        for i in items {
            let k = i.key.as_bytes();
            if k == keys::HOSTNAME || k == keys::NODEID {
                continue;
            }
            if k == keys::HOSTNAME_ALIASES {
                let aliases = i.value.as_str().map(split_list).unwrap_or_default();
                for a in &aliases {
                    self.index_name(a.as_bytes(), idx);
                }
                if let Some(n) = self.nodes.get_mut(idx) {
                    n.aliases.extend(aliases);
                }
            }
            if let Some(n) = self.nodes.get_mut(idx) {
                n.kv.insert(i.key.clone(), i.value.clone());
            }
        }
        Ok(())
    }

    /// A `pmix.node.arr` KVAL of a mapped segment, decoded as `v`, at `off..off + len` of
    /// the segment's job part. A node not yet known keeps only its identity (name, id,
    /// aliases) and the array's place; one already known merges the array as
    /// [`JobData::add_node_array`] does.
    pub(crate) fn add_mapped_node_array(
        &mut self,
        v: &Value,
        seg: &Arc<super::segment::Segment>,
        off: usize,
        len: usize,
    ) -> Result<()> {
        let items = info_items(v).ok_or(Error::TypeMismatch)?;
        let mut hostname = None;
        let mut nodeid = None;
        let mut aliases = Vec::new();
        for i in items {
            let k = i.key.as_bytes();
            if k == keys::HOSTNAME && hostname.is_none() {
                hostname = i.value.as_str().cloned();
            } else if k == keys::NODEID && nodeid.is_none() {
                nodeid = as_u32(&i.value);
            } else if k == keys::HOSTNAME_ALIASES {
                aliases.extend(i.value.as_str().map(split_list).unwrap_or_default());
            }
        }
        let known = hostname
            .as_ref()
            .and_then(|h| self.node_by_name.get(h.as_bytes()))
            .or_else(|| nodeid.and_then(|id| self.node_by_id.get(&id)))
            .is_some();
        if known || (hostname.is_none() && nodeid.is_none()) {
            return self.add_node_array(v);
        }
        let idx = self.node_index(hostname.as_ref(), nodeid);
        for a in &aliases {
            self.index_name(a.as_bytes(), idx);
        }
        if let Some(n) = self.nodes.get_mut(idx) {
            n.aliases = aliases;
            n.mapped = Some(MappedArray {
                seg: seg.clone(),
                off,
                len,
            });
        }
        Ok(())
    }

    /// Copies the mapped array of node `idx` into the heap (the caller's own node, asked
    /// about most).
    pub(crate) fn materialize_node(&mut self, idx: usize) {
        if let Some(n) = self.nodes.get_mut(idx) {
            n.materialize();
        }
    }

    /// The position of a node in `nodes`.
    pub(crate) fn node_position(&self, name: Option<&[u8]>, id: Option<u32>) -> Option<usize> {
        name.and_then(|n| {
            self.node_by_name
                .get(n)
                .or_else(|| self.node_by_short.get(short_name(n)))
        })
        .or_else(|| id.and_then(|id| self.node_by_id.get(&id)))
        .copied()
    }

    /// The index of the node with this name or id, created when unknown; fills in whichever
    /// of name and id the node lacked.
    pub(crate) fn node_index(&mut self, hostname: Option<&PStr>, nodeid: Option<u32>) -> usize {
        let found = hostname
            .and_then(|h| self.node_by_name.get(h.as_bytes()).copied())
            .or_else(|| nodeid.and_then(|id| self.node_by_id.get(&id).copied()));
        let idx = match found {
            Some(i) => i,
            None => {
                self.nodes.push(NodeData::default());
                self.nodes.len() - 1
            }
        };
        let (mut name_new, mut id_new) = (false, false);
        if let Some(n) = self.nodes.get_mut(idx) {
            if let (None, Some(h)) = (&n.hostname, hostname) {
                n.hostname = Some(h.clone());
                name_new = true;
            }
            if let (None, Some(id)) = (n.nodeid, nodeid) {
                n.nodeid = Some(id);
                id_new = true;
            }
        }
        if let (true, Some(h)) = (name_new, hostname) {
            self.index_name(h.as_bytes(), idx);
        }
        if let (true, Some(id)) = (id_new, nodeid) {
            self.node_by_id.entry(id).or_insert(idx);
        }
        idx
    }

    /// A `pmix.app.arr` array, identified by `pmix.appnum` (app 0 when absent).
    pub(crate) fn add_app_array(&mut self, v: &Value) -> Result<()> {
        let items: Vec<&Info> = info_items(v).ok_or(Error::TypeMismatch)?.collect();
        let appnum = items
            .iter()
            .find(|i| i.key.as_bytes() == keys::APPNUM)
            .and_then(|i| as_u32(&i.value))
            .unwrap_or(0);
        let idx = self.app_index(appnum);
        if let Some(app) = self.apps.get_mut(idx) {
            for i in items {
                if i.key.as_bytes() != keys::APPNUM {
                    app.kv.insert(i.key.clone(), i.value.clone());
                }
            }
        }
        Ok(())
    }

    pub(crate) fn app_index(&mut self, appnum: u32) -> usize {
        if let Some(&i) = self.app_by_num.get(&appnum) {
            return i;
        }
        self.apps.push(AppData {
            appnum,
            kv: KvList::default(),
        });
        let i = self.apps.len() - 1;
        self.app_by_num.insert(appnum, i);
        i
    }

    /// A `pmix.ssn.arr` array, identified by `pmix.session.id` (`UINT32_MAX` or absent: no
    /// id).
    pub(crate) fn add_session_array(&mut self, v: &Value) -> Result<()> {
        let items: Vec<&Info> = info_items(v).ok_or(Error::TypeMismatch)?.collect();
        let raw_id = items
            .iter()
            .find(|i| i.key.as_bytes() == keys::SESSION_ID)
            .and_then(|i| as_u32(&i.value));
        let id = raw_id.filter(|&id| id != u32::MAX);
        let idx = match self.sessions.iter().position(|s| s.id == id) {
            Some(i) => i,
            None => {
                self.sessions.push(SessionData {
                    id,
                    raw_id,
                    kv: KvList::default(),
                });
                self.sessions.len() - 1
            }
        };
        if let Some(s) = self.sessions.get_mut(idx) {
            for i in items {
                if i.key.as_bytes() != keys::SESSION_ID {
                    s.kv.insert(i.key.clone(), i.value.clone());
                }
            }
        }
        Ok(())
    }

    // ---- emission

    /// The job data as the KVALs of a hash client's REQ reply: job-level keys, qualified
    /// values, session arrays, node arrays, app arrays, then one `pmix.pdata` per rank.
    pub(crate) fn to_kvals(&self) -> Vec<Kval> {
        let mut out = self.job_part_kvals();
        out.extend(self.rank_kvals().map(|(_, kv)| kv));
        out
    }

    /// The part of [`JobData::to_kvals`] before the per-rank arrays.
    pub(crate) fn job_part_kvals(&self) -> Vec<Kval> {
        let mut out = Vec::with_capacity(
            self.kv.len() + self.sessions.len() + self.nodes.len() + self.apps.len(),
        );
        out.extend(self.kv.iter().cloned());
        for (rank, q) in &self.qualified {
            if *rank == PMIX_RANK_WILDCARD {
                out.push(kval(keys::QUALIFIED_VALUE, q.raw.clone()));
            }
        }
        for s in &self.sessions {
            out.push(kval(keys::SESSION_INFO_ARRAY, s.to_array()));
        }
        for n in &self.nodes {
            out.push(kval(keys::NODE_INFO_ARRAY, n.to_array()));
        }
        for a in &self.apps {
            out.push(kval(keys::APP_INFO_ARRAY, a.to_array()));
        }
        out
    }

    /// Each rank's `pmix.pdata` KVAL with its rank, in rank order, built one at a time (a
    /// large job's are encoded without all being copied at once).
    pub(crate) fn rank_kvals(&self) -> impl Iterator<Item = (u32, Kval)> + '_ {
        self.rank_ids().filter_map(|rank| {
            self.proc_array(rank)
                .map(|v| (rank, kval(keys::PROC_DATA, v)))
        })
    }

    /// The ranks with data, held or mapped, in increasing order.
    pub(crate) fn rank_ids(&self) -> impl Iterator<Item = u32> + '_ {
        let mut held = self.ranks.keys().copied().peekable();
        let mut mapped = self
            .mapped
            .as_ref()
            .map(|s| {
                let (l, b) = (*s.layout(), s.bytes());
                (0..l.ranks()).map_while(move |i| l.nth(b, i).map(|(r, _)| r))
            })
            .into_iter()
            .flatten()
            .peekable();
        std::iter::from_fn(move || match (held.peek(), mapped.peek()) {
            (Some(&h), Some(&m)) if m < h => mapped.next(),
            (Some(&h), Some(&m)) if m == h => {
                mapped.next();
                held.next()
            }
            (Some(_), _) => held.next(),
            (None, _) => mapped.next(),
        })
    }

    /// The keys of `rank` (not `pmix.rank`; qualified values apart), held or mapped.
    pub(crate) fn rank_list(&self, rank: u32) -> Vec<Kval> {
        if let Some(kv) = self.ranks.get(&rank) {
            return kv.to_vec();
        }
        self.mapped_items(rank)
            .unwrap_or_default()
            .into_iter()
            .filter(|i| !matches!(i.key.as_bytes(), keys::RANK | keys::QUALIFIED_VALUE))
            .map(|i| Kval {
                key: i.key,
                value: i.value,
            })
            .collect()
    }

    /// Moves the per-rank data into a segment in the heap, encoded in `mode` (a rank's few
    /// keys take about a tenth of the memory there that they take decoded); lookups then
    /// read it as they read a mapped segment, and data added to a rank copies that rank's
    /// data back first. The segment is the job-data segment a server publishes, generation
    /// 0 (see [`JobData::segment_bytes`]).
    ///
    /// # Errors
    /// As `segment::build`; the data is then unchanged.
    pub(crate) fn compact(&mut self, mode: BufferType) -> Result<()> {
        let bytes = super::segment::build(mode, 0, &self.job_part_kvals(), self.rank_kvals())?;
        let seg = super::segment::Segment::from_bytes(bytes)?;
        self.ranks = BTreeMap::new();
        self.qualified.retain(|(r, _)| *r == PMIX_RANK_WILDCARD);
        self.mapped = Some(Arc::new(seg));
        Ok(())
    }

    /// The bytes of the segment [`JobData::compact`] made, when it is in buffer type `mode`
    /// and no rank's data was copied back to the heap. The caller knows whether the job
    /// part changed since.
    pub(crate) fn segment_bytes(&self, mode: BufferType) -> Option<&[u8]> {
        let seg = self.mapped.as_ref()?;
        (self.ranks.is_empty() && seg.mode() == mode).then(|| seg.bytes())
    }

    /// The `pmix.pdata` array of `rank`: `pmix.rank` (PROC_RANK) first, then its keys and
    /// qualified values; `None` when the rank has no data.
    pub(crate) fn proc_array(&self, rank: u32) -> Option<Value> {
        if !self.ranks.contains_key(&rank) {
            if let Some(items) = self.mapped_items(rank) {
                return Some(info_array(items));
            }
        }
        let kv = self.ranks.get(&rank);
        let quals = self.qualified.iter().filter(|(r, _)| *r == rank);
        let n = kv.map_or(0, KvList::len) + quals.clone().count();
        if n == 0 {
            return None;
        }
        let mut items = Vec::with_capacity(n + 1);
        items.push(Info::new(PStr::from(keys::RANK), Value::ProcRank(rank)));
        if let Some(kv) = kv {
            items.extend(
                kv.iter()
                    .map(|kv| Info::new(kv.key.clone(), kv.value.clone())),
            );
        }
        items.extend(
            quals.map(|(_, q)| Info::new(PStr::from(keys::QUALIFIED_VALUE), q.raw.clone())),
        );
        Some(info_array(items))
    }
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The infos of one packed `pmix.pdata` KVAL; `None` when it does not decode to one.
pub(crate) fn decode_pdata(mode: BufferType, kv: &[u8]) -> Option<Vec<Info>> {
    packed_info_array(mode, kv, Some(keys::PROC_DATA))
}

/// The infos of one packed KVAL whose value is a data array of infos (and whose key is
/// `key`, when given); `None` when it does not decode to one.
fn packed_info_array(mode: BufferType, bytes: &[u8], key: Option<&[u8]>) -> Option<Vec<Info>> {
    let mut d = crate::codec::Decoder::new(mode, bytes);
    let Ok(Value::Kval(kv)) = super::read_one(&mut d, PMIX_KVAL) else {
        return None;
    };
    if key.is_some_and(|k| kv.key.as_bytes() != k) {
        return None;
    }
    let Value::DataArray(a) = kv.value else {
        return None;
    };
    Some(
        a.items
            .into_iter()
            .filter_map(|i| match i {
                Value::Info(i) => Some(*i),
                _ => None,
            })
            .collect(),
    )
}

pub(crate) fn kval(key: &[u8], value: Value) -> Kval {
    Kval {
        key: PStr::from(key),
        value,
    }
}

/// The infos of a `DATA_ARRAY` of `INFO` (or of `VALUE`s holding infos); `None` for any other
/// value.
pub(crate) fn info_items(v: &Value) -> Option<impl Iterator<Item = &Info> + Clone> {
    let Value::DataArray(a) = v else {
        return None;
    };
    if a.ty != PMIX_INFO && a.ty != PMIX_VALUE {
        return None;
    }
    Some(a.items.iter().filter_map(|i| match i {
        Value::Info(info) => Some(&**info),
        _ => None,
    }))
}

/// A `DATA_ARRAY` of `INFO` with `PMIX_INFO_ARRAY_END` on the last element, as the
/// reference builds them.
pub(crate) fn info_array(mut items: Vec<Info>) -> Value {
    if let Some(last) = items.last_mut() {
        last.flags |= PMIX_INFO_ARRAY_END;
    }
    Value::DataArray(Box::new(DataArray {
        ty: PMIX_INFO,
        items: items
            .into_iter()
            .map(|i| Value::Info(Box::new(i)))
            .collect(),
    }))
}

/// An integer value as `u32`, if it is one and fits.
pub(crate) fn as_u32(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|x| u32::try_from(x).ok())
}

/// The host name up to its first dot.
fn short_name(name: &[u8]) -> &[u8] {
    name.split(|&c| c == b'.').next().unwrap_or(name)
}

/// The non-empty items of a comma-separated list.
pub(crate) fn split_list(s: &PStr) -> Vec<PStr> {
    s.as_bytes()
        .split(|&c| c == b',')
        .map(<[u8]>::trim_ascii)
        .filter(|x| !x.is_empty())
        .map(PStr::from)
        .collect()
}

/// Most ranks a rank list ("0,2-5") may expand to.
const MAX_LIST_RANKS: u64 = 1 << 24;

/// The ranks of a comma-separated list of ranks and ranges `a-b`; `None` when malformed or
/// beyond `MAX_LIST_RANKS`.
pub(crate) fn parse_rank_list(s: &[u8]) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for item in s.split(|&c| c == b',').map(<[u8]>::trim_ascii) {
        if item.is_empty() {
            continue;
        }
        let num = |b: &[u8]| -> Option<u32> { core::str::from_utf8(b).ok()?.trim().parse().ok() };
        let (lo, hi) = match item.iter().position(|&c| c == b'-') {
            Some(p) => (num(item.get(..p)?)?, num(item.get(p + 1..)?)?),
            None => {
                let r = num(item)?;
                (r, r)
            }
        };
        if hi < lo {
            return None;
        }
        total += u64::from(hi - lo) + 1;
        if total > MAX_LIST_RANKS {
            return None;
        }
        out.extend(lo..=hi);
    }
    Some(out)
}

/// A rank list as the reference writes `pmix.lpeers`: "0,1,2".
pub(crate) fn rank_list_string(ranks: &[u32]) -> PStr {
    let mut s = String::new();
    for (i, r) in ranks.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&r.to_string());
    }
    PStr::from(s)
}
