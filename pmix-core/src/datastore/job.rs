//! A server's registration of one namespace, and the job data it hands to clients.

use pmix_sys::*;

use super::keys;
use super::realm::{JobData, as_u32, kval, parse_rank_list, rank_list_string};
use crate::regex::{parse_node_map, parse_proc_map};
use crate::values::*;
use crate::{Error, Result};

/// A server's registration of one namespace (from `PMIx_server_register_nspace`).
///
/// The per-rank data is kept encoded (`JobData::compact`: the job-data segment, in the heap),
/// not as decoded key lists: it is what the server sends, and at 10,000 ranks it takes a
/// tenth of the memory. The job part (job-level keys, node, app and session arrays) stays
/// decoded.
#[derive(Debug, Clone)]
pub struct JobRecord {
    pub nspace: PStr,
    /// The number of ranks of the job on this server's node, as registered.
    pub nlocalprocs: u32,
    /// The name of this server's node: the node whose ranks are local.
    pub my_hostname: PStr,
    data: JobData,
    node_map: Option<Vec<u8>>,
    proc_map: Option<Vec<u8>>,
    /// [`JobRecord::local_ranks`], computed when the registration changes (collectives
    /// consult it on every arrival).
    local: Vec<u32>,
    /// The number of ranks with data.
    nranks: usize,
    /// `data` holds its per-rank data in a segment that says the whole job (its bytes are
    /// the segment and the REQ reply of its buffer type).
    compact: bool,
}

/// The buffer type the server keeps a job's per-rank data in: the default of both libraries
/// (a peer of the other type gets the data re-encoded).
const STORE_MODE: crate::codec::BufferType = crate::codec::BufferType::NonDesc;

impl JobRecord {
    /// Parses the host's info array.
    ///
    /// * plain keys are job-level (unknown keys too);
    /// * `PMIX_PROC_DATA` arrays: `PMIX_RANK` (PROC_RANK, UINT32 or any integer type) and the
    ///   rank's keys;
    /// * `PMIX_NODE_MAP` / `PMIX_PROC_MAP` (REGEX or STRING): expanded into `pmix.nlist`,
    ///   `pmix.num.nodes`, `pmix.job.size`, one node array per node (`pmix.hname`,
    ///   `pmix.nodeid` = position in the map, `pmix.lpeers`, `pmix.local.size`,
    ///   `pmix.lldr`) and per-rank `pmix.hname`, `pmix.nodeid` and `pmix.lrank`, each only
    ///   where the host gave no value;
    /// * `PMIX_SESSION_INFO_ARRAY` / `PMIX_NODE_INFO_ARRAY` / `PMIX_APP_INFO_ARRAY`: realm
    ///   arrays (a node array names its node with `PMIX_HOSTNAME` and/or `PMIX_NODEID`);
    /// * `PMIX_JOB_INFO_ARRAY`: flattened into job-level keys.
    ///
    /// # Errors
    /// `TypeMismatch` for a special entry of the wrong type; `BadParam` for a proc array
    /// without rank, a node array naming no node, a malformed map, or a process map whose
    /// node count differs from the node map's; `NoMem` for a map beyond the parser's limits.
    pub fn from_register(
        nspace: &PStr,
        nlocalprocs: u32,
        info: &[Info],
        my_hostname: &PStr,
    ) -> Result<JobRecord> {
        Self::from_register_iter(
            nspace,
            nlocalprocs,
            info.iter().cloned().map(Ok),
            my_hostname,
        )
    }

    /// [`JobRecord::from_register`] from infos made one at a time (the host's C array
    /// converted as it is read), each taken apart as it comes: a large job is never held
    /// converted and copied at once. An `Err` item ends the registration with that error.
    ///
    /// # Errors
    /// As [`JobRecord::from_register`], and the first `Err` of `info`.
    pub fn from_register_iter(
        nspace: &PStr,
        nlocalprocs: u32,
        info: impl IntoIterator<Item = Result<Info>>,
        my_hostname: &PStr,
    ) -> Result<JobRecord> {
        let mut data = JobData::default();
        data.complete = true;
        let mut r = JobRecord {
            nspace: nspace.clone(),
            nlocalprocs,
            my_hostname: my_hostname.clone(),
            data,
            node_map: None,
            proc_map: None,
            local: Vec::new(),
            nranks: 0,
            compact: false,
        };
        r.apply(&mut info.into_iter())?;
        Ok(r)
    }

    /// Adds information to the registration (the same forms as
    /// [`JobRecord::from_register`]; values replace those of the same key). On error the
    /// record is unchanged.
    ///
    /// # Errors
    /// As [`JobRecord::from_register`].
    pub fn add_info(&mut self, info: &[Info]) -> Result<()> {
        let mut next = self.clone();
        next.apply(&mut info.iter().cloned().map(Ok))?;
        *self = next;
        Ok(())
    }

    /// Adds `info` to the record, then encodes the per-rank data (on error the record is
    /// partly changed).
    /// (Not generic: one copy of the code for every caller's iterator.)
    fn apply(&mut self, info: &mut dyn Iterator<Item = Result<Info>>) -> Result<()> {
        let mut maps_changed = false;
        for i in info {
            let i = i?;
            let k = i.key.as_bytes();
            if k == keys::NODE_MAP {
                self.node_map = Some(map_bytes(&i.value)?);
                maps_changed = true;
            } else if k == keys::PROC_MAP {
                self.proc_map = Some(map_bytes(&i.value)?);
                maps_changed = true;
            } else {
                self.data.add_entry(i.key, i.value, 0)?;
            }
        }
        if maps_changed {
            self.expand_maps()?;
        }
        self.local = self.find_local_ranks();
        self.nranks = self.data.rank_ids().count();
        // Kept decoded (and sent as before) if it cannot be encoded.
        self.compact = self.data.compact(STORE_MODE).is_ok();
        Ok(())
    }

    /// Derives node and per-rank data from the node and process maps.
    fn expand_maps(&mut self) -> Result<()> {
        let Some(nmap) = &self.node_map else {
            return Ok(());
        };
        let nodes = parse_node_map(nmap)?;
        let ppn = match &self.proc_map {
            Some(p) => Some(parse_proc_map(p)?),
            None => None,
        };
        if ppn.as_ref().is_some_and(|p| p.len() != nodes.len()) {
            return Err(Error::BadParam);
        }
        let d = &mut self.data;
        let mut list = Vec::new();
        for (i, name) in nodes.iter().enumerate() {
            if i > 0 {
                list.push(b',');
            }
            list.extend_from_slice(name.as_bytes());
        }
        d.kv.insert_if_absent(keys::NODE_LIST, Value::String(Some(PStr::from(list))));
        d.kv.insert_if_absent(
            keys::NUM_NODES,
            Value::Uint32(u32::try_from(nodes.len()).map_err(|_| Error::NoMem)?),
        );
        let mut total: u64 = 0;
        for (i, name) in nodes.iter().enumerate() {
            // A node the host described keeps its id; others are numbered by position.
            let existing = d.node_by_name(name.as_bytes()).and_then(|n| n.nodeid);
            let position = u32::try_from(i).map_err(|_| Error::NoMem)?;
            let nodeid = existing.or_else(|| d.node_by_id(position).is_none().then_some(position));
            let idx = d.node_index(Some(name), nodeid);
            let nodeid = d.nodes.get(idx).and_then(|n| n.nodeid);
            let Some(ranks) = ppn.as_ref().and_then(|p| p.get(i)) else {
                continue;
            };
            let mut ranks = ranks.clone();
            ranks.sort_unstable();
            ranks.dedup();
            total += ranks.len() as u64;
            if let Some(node) = d.nodes.get_mut(idx) {
                let size = u32::try_from(ranks.len()).map_err(|_| Error::NoMem)?;
                node.kv
                    .insert_if_absent(keys::LOCAL_SIZE, Value::Uint32(size));
                if let Some(&first) = ranks.first() {
                    node.kv.insert_if_absent(
                        keys::LOCAL_PEERS,
                        Value::String(Some(rank_list_string(&ranks))),
                    );
                    node.kv
                        .insert_if_absent(keys::LOCALLDR, Value::ProcRank(first));
                }
            }
            for (lrank, &r) in ranks.iter().enumerate() {
                d.materialize(r);
                let kv = d.ranks.entry(r).or_default();
                kv.insert_if_absent(keys::HOSTNAME, Value::String(Some(name.clone())));
                if let Some(id) = nodeid {
                    kv.insert_if_absent(keys::NODEID, Value::Uint32(id));
                }
                if let Ok(lr) = u16::try_from(lrank) {
                    kv.insert_if_absent(keys::LOCAL_RANK, Value::Uint16(lr));
                }
            }
        }
        // A per-rank PMIX_NODEID the host gave that names another node of the map than the
        // one the process map puts the rank on contradicts the host's own maps (Slurm 22.05
        // registers its own node's id for every rank of the job): the maps win, so that a
        // peer on another node never looks local (`docs/notes/datastore.md`).
        for (i, name) in nodes.iter().enumerate() {
            let (Some(ranks), Some(id)) = (
                ppn.as_ref().and_then(|p| p.get(i)),
                d.node_by_name(name.as_bytes()).and_then(|n| n.nodeid),
            ) else {
                continue;
            };
            for &r in ranks {
                let given = d
                    .rank_value(r, keys::NODEID)
                    .and_then(|v| v.as_u64())
                    .and_then(|v| u32::try_from(v).ok());
                let elsewhere = given.is_some_and(|v| {
                    v != id
                        && d.node_by_id(v)
                            .and_then(|n| n.hostname.as_ref())
                            .is_some_and(|h| h != name)
                });
                if elsewhere {
                    d.materialize(r);
                    d.ranks
                        .entry(r)
                        .or_default()
                        .insert(PStr::from(keys::NODEID), Value::Uint32(id));
                }
            }
        }
        if ppn.is_some() {
            if let Ok(total) = u32::try_from(total) {
                d.kv.insert_if_absent(keys::JOB_SIZE, Value::Uint32(total));
            }
        }
        Ok(())
    }

    /// The KVALs of the hash REQ reply (after the nspace): job-level KVALs, qualified
    /// values, `pmix.ssn.arr` per session, `pmix.node.arr` per node, `pmix.app.arr` per app,
    /// and one `pmix.pdata` (`PMIX_RANK` first, `PMIX_INFO_ARRAY_END` on the last element) per
    /// rank that has data. The node and process maps themselves are not sent (the reference
    /// sends what it expanded from them).
    pub fn req_reply(&self) -> Vec<Kval> {
        self.data.to_kvals()
    }

    /// The session, node and app arrays of [`JobRecord::req_reply`]: all a "ds21" client's
    /// REQ reply carries after the nspace (it reads the rest from the shared store), as the
    /// reference's `pmix_gds_hash_fetch_arrays` sends them.
    pub fn realm_arrays(&self) -> Vec<Kval> {
        let d = &self.data;
        let mut out = Vec::with_capacity(d.sessions.len() + d.nodes.len() + d.apps.len());
        out.extend(
            d.sessions
                .iter()
                .map(|s| kval(keys::SESSION_INFO_ARRAY, s.to_array())),
        );
        out.extend(
            d.nodes
                .iter()
                .map(|n| kval(keys::NODE_INFO_ARRAY, n.to_array())),
        );
        out.extend(
            d.apps
                .iter()
                .map(|a| kval(keys::APP_INFO_ARRAY, a.to_array())),
        );
        out
    }

    /// What a "ds21" store holds at rank WILDCARD (the reference's `_store_job_info`): the
    /// job-level keys, then the keys of this server's node (not its name, id or aliases)
    /// that the job level lacks.
    pub fn store_wildcard(&self) -> Vec<Kval> {
        let d = &self.data;
        let mut out = d.kv.to_vec();
        if let Some(items) = d
            .node_by_name(self.my_hostname.as_bytes())
            .map(super::realm::NodeData::to_array)
            .as_ref()
            .and_then(super::realm::info_items)
        {
            for i in items {
                let k = i.key.as_bytes();
                if !keys::names_a_node(k) && !d.kv.contains(k) {
                    out.push(kval(k, i.value.clone()));
                }
            }
        }
        out
    }

    /// Each rank with data, in rank order, with its keys (as [`JobRecord::rank_info`]).
    pub fn rank_lists(&self) -> impl Iterator<Item = (u32, Vec<Kval>)> + '_ {
        self.data.rank_ids().map(|r| (r, self.data.rank_list(r)))
    }

    /// The job-data segment (see `datastore::segment`) of generation `generation` in buffer
    /// type `mode`: the same KVAL stream as [`JobRecord::req_reply`], with a rank index.
    ///
    /// # Errors
    /// `NoMem` when the job data exceeds what the segment's 32-bit offsets address.
    pub fn segment(&self, mode: crate::codec::BufferType, generation: u64) -> Result<Vec<u8>> {
        if let Some(b) = self.segment_bytes(mode) {
            let mut c = std::io::Cursor::new(Vec::with_capacity(b.len()));
            super::segment::write_bytes(&mut c, b, generation)?;
            return Ok(c.into_inner());
        }
        super::segment::build(
            mode,
            generation,
            &self.data.job_part_kvals(),
            self.data.rank_kvals(),
        )
    }

    /// Writes the job-data segment (as [`JobRecord::segment`]) to the new file `path`,
    /// readable by its owner only, encoding one KVAL at a time.
    ///
    /// # Errors
    /// As [`JobRecord::segment`]; `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when the
    /// file cannot be created or written.
    pub fn write_segment(
        &self,
        path: &std::path::Path,
        mode: crate::codec::BufferType,
        generation: u64,
    ) -> Result<()> {
        let f = super::segment::create(path)?;
        let mut w = std::io::BufWriter::with_capacity(64 * 1024, f);
        if let Some(b) = self.segment_bytes(mode) {
            return super::segment::write_bytes(&mut w, b, generation);
        }
        super::segment::write(
            &mut w,
            mode,
            generation,
            &self.data.job_part_kvals(),
            self.data.rank_kvals(),
        )
    }

    /// Packs the KVALs of [`JobRecord::req_reply`] into `p`, one at a time.
    pub fn pack_req_reply(&self, p: &mut crate::wire::msg::Pack) {
        if let Some(b) = self.segment_bytes(p.mode()) {
            p.raw(super::segment::stream(b));
            return;
        }
        for kv in self.data.job_part_kvals() {
            p.kval(&kv);
        }
        for (_, kv) in self.data.rank_kvals() {
            p.kval(&kv);
        }
    }

    /// The job data for a GETNB of rank WILDCARD from another namespace, as the KVALs of a
    /// WILDCARD blob (the same content as [`JobRecord::req_reply`]).
    pub fn wildcard_kvals(&self) -> Vec<Kval> {
        self.data.to_kvals()
    }

    /// The segment holding the job's per-rank data, when it says the whole job.
    pub(crate) fn shared_segment(&self) -> Option<std::sync::Arc<super::segment::Segment>> {
        self.segment_bytes(STORE_MODE)?;
        self.data.mapped.clone()
    }

    /// The encoded job data (a segment of generation 0) when it is in buffer type `mode`.
    fn segment_bytes(&self, mode: crate::codec::BufferType) -> Option<&[u8]> {
        if !self.compact {
            return None;
        }
        self.data.segment_bytes(mode)
    }

    /// `pmix.job.size`, else the number of ranks with data.
    pub fn job_size(&self) -> u32 {
        self.data
            .kv
            .get(keys::JOB_SIZE)
            .and_then(as_u32)
            .unwrap_or_else(|| u32::try_from(self.nranks).unwrap_or(u32::MAX))
    }

    /// The ranks on this server's node: the `pmix.lpeers` of the node named `my_hostname`;
    /// else the ranks whose `pmix.hname` is `my_hostname`; else a job-level `pmix.lpeers`;
    /// else ranks `0..nlocalprocs`.
    pub fn local_ranks(&self) -> &[u32] {
        &self.local
    }

    fn find_local_ranks(&self) -> Vec<u32> {
        let d = &self.data;
        let me = self.my_hostname.as_bytes();
        if let Some(v) = self.node_peers(me) {
            return v;
        }
        let by_host = self.ranks_named(me);
        if !by_host.is_empty() {
            return by_host;
        }
        if let Some(v) =
            d.kv.get(keys::LOCAL_PEERS)
                .and_then(Value::as_str)
                .and_then(|s| parse_rank_list(s.as_bytes()))
        {
            return v;
        }
        (0..self.nlocalprocs).collect()
    }

    /// The KVALs registered for one rank (its `PMIX_PROC_DATA` and what the maps gave it).
    pub fn rank_info(&self, rank: u32) -> Vec<Kval> {
        self.data.rank_list(rank)
    }

    /// The `pmix.pdata` array of one rank, as in the REQ reply; `None` when it has no data.
    pub fn proc_data(&self, rank: u32) -> Option<Value> {
        self.data.proc_array(rank)
    }

    /// A registered value: for WILDCARD the job level, then this node's array, then the
    /// job's session; for a rank, its data.
    pub fn get(&self, rank: u32, key: &[u8]) -> Option<Value> {
        let d = &self.data;
        if rank == PMIX_RANK_WILDCARD {
            d.kv.get(key)
                .cloned()
                .or_else(|| {
                    d.node_by_name(self.my_hostname.as_bytes())
                        .and_then(|n| n.get(key))
                })
                .or_else(|| d.session(None).and_then(|s| s.kv.get(key)).cloned())
        } else {
            d.rank_value(rank, key).map(std::borrow::Cow::into_owned)
        }
    }

    /// A value registered for app `appnum` (its `PMIX_APP_INFO_ARRAY`).
    pub fn app_get(&self, appnum: u32, key: &[u8]) -> Option<Value> {
        self.data.app(appnum).and_then(|a| a.kv.get(key).cloned())
    }

    /// The ranks on the node `node` (a host name or alias): that node's `pmix.lpeers`, else
    /// the ranks whose `pmix.hname` it is. What a 5.0 client's `PMIx_Resolve_peers` asks.
    pub fn ranks_on(&self, node: &[u8]) -> Vec<u32> {
        self.node_peers(node)
            .unwrap_or_else(|| self.ranks_named(node))
    }

    /// The `pmix.lpeers` of the node named `node`, when it has one.
    fn node_peers(&self, node: &[u8]) -> Option<Vec<u32>> {
        self.data
            .node_by_name(node)
            .and_then(|n| n.kv.get(keys::LOCAL_PEERS))
            .and_then(Value::as_str)
            .and_then(|s| parse_rank_list(s.as_bytes()))
    }

    /// The ranks whose `pmix.hname` is `node`.
    fn ranks_named(&self, node: &[u8]) -> Vec<u32> {
        let d = &self.data;
        d.rank_ids()
            .filter(|&r| {
                d.rank_value(r, keys::HOSTNAME)
                    .as_deref()
                    .and_then(Value::as_str)
                    .is_some_and(|h| h.as_bytes() == node)
            })
            .collect()
    }

    /// The nodes of the job, in order: those of its node map, else of its `pmix.nlist`, else
    /// its ranks' host names. What a 5.0 client's `PMIx_Resolve_nodes` asks.
    pub fn nodes(&self) -> Vec<PStr> {
        let mapped = self.node_names();
        if !mapped.is_empty() {
            return mapped;
        }
        if let Some(list) = self
            .get(PMIX_RANK_WILDCARD, keys::NODE_LIST)
            .as_ref()
            .and_then(Value::as_str)
        {
            return list
                .as_bytes()
                .split(|&b| b == b',')
                .filter(|n| !n.is_empty())
                .map(PStr::from)
                .collect();
        }
        let d = &self.data;
        let mut out: Vec<PStr> = Vec::new();
        for r in d.rank_ids() {
            if let Some(h) = d
                .rank_value(r, keys::HOSTNAME)
                .as_deref()
                .and_then(Value::as_str)
                && !out.contains(h)
            {
                out.push(h.clone());
            }
        }
        out
    }

    /// The node names of the node map, in order (empty without a map).
    pub fn node_names(&self) -> Vec<PStr> {
        self.node_map
            .as_deref()
            .and_then(|m| parse_node_map(m).ok())
            .unwrap_or_default()
    }
}

/// The text of a node or process map given as REGEX or STRING.
fn map_bytes(v: &Value) -> Result<Vec<u8>> {
    match v {
        Value::Regex(b) => Ok(b.clone()),
        Value::String(Some(s)) => Ok(s.as_bytes().to_vec()),
        _ => Err(Error::TypeMismatch),
    }
}
