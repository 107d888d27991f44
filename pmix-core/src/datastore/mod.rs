//! The datastore: what a process knows about namespaces and processes, and the rules by
//! which `PMIx_Get` finds a value in it (the reference's "gds/hash" component).
//!
//! * [`ClientStore`]: everything a client or tool holds: the job data of each namespace
//!   (from the REQ reply, GETNB replies, spawn and connect replies) organised by realm
//!   (session, job, app, node, proc), and the data of processes (own puts, modex data
//!   fetched from the server, `PMIx_Store_internal`). [`ClientStore::get`] applies the
//!   retrieval rules and says whether an absent value is absent for good
//!   ([`Lookup::NotFound`]) or worth asking the server for ([`Lookup::Missing`]).
//! * [`JobRecord`]: a server's registration of one namespace
//!   (`PMIx_server_register_nspace`), with the node and process maps expanded, and the job
//!   data it sends to hash clients.
//! * [`ModexStore`]: a server's store of committed data (Put/Commit), per process and scope,
//!   and the fence contribution format exchanged between our servers.
//!
//! Wire forms are those of `openpmix-wire-protocol.md` sections 2.3-2.5 and 6; the retrieval
//! rules as implemented, and where they differ from the standard and the reference, are in
//! `docs/notes/datastore.md`. Decoding treats its input as hostile: errors, never panics.

mod client;
pub(crate) mod ds21;
pub mod gds;
mod job;
pub(crate) mod keys;
mod modex;
mod realm;
#[allow(unsafe_code)]
pub(crate) mod segment;

#[cfg(test)]
mod tests;

use std::time::Duration;

use pmix_sys::*;

use crate::codec::{BufferType, Decoder, Encoder};
use crate::values::*;
use crate::{Error, Result};

pub use client::ClientStore;
pub use job::JobRecord;
pub use modex::ModexStore;
#[cfg(test)]
pub(crate) use realm::info_array as realm_info_array;

/// Which node a node-realm Get asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeSel {
    /// The caller's own node (or, for a Get naming a real rank with `PMIX_NODE_INFO`, the
    /// node of that rank).
    Own,
    /// The node of this name (`PMIX_HOSTNAME`).
    Name(PStr),
    /// The node of this id (`PMIX_NODEID`).
    Id(u32),
}

/// Qualifiers of a Get, parsed from its info array.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetQuals {
    /// `PMIX_OPTIONAL`: never ask the server.
    pub optional: bool,
    /// `PMIX_IMMEDIATE`: the server must not wait for the data.
    pub immediate: bool,
    /// `PMIX_GET_REFRESH_CACHE`: ask the server again for a non-reserved key.
    pub refresh: bool,
    /// `PMIX_TIMEOUT` (seconds); `None` when absent, zero or negative (wait forever).
    pub timeout: Option<Duration>,
    /// `PMIX_DATA_SCOPE`.
    pub scope: Option<pmix_scope_t>,
    /// `PMIX_SESSION_ID`: the session asked about (with `session_info`), or the session of
    /// the target namespace. The session realm itself is selected by `session_info`.
    pub session: Option<u32>,
    /// The node asked about: `Some` when `PMIX_NODE_INFO` is set (`Own` unless a node is
    /// named) or when `PMIX_HOSTNAME` / `PMIX_NODEID` name one (the first of them wins).
    pub node: Option<NodeSel>,
    /// The app asked about: `Some` when `PMIX_APP_INFO` is set or `PMIX_APPNUM` is given;
    /// the inner value is the app number (`None`: the target's own app).
    pub app: Option<Option<u32>>,
    /// `PMIX_GET_STATIC_VALUES`.
    pub static_values: bool,
    /// `PMIX_GET_POINTER_VALUES`.
    pub pointer_values: bool,
    /// `PMIX_SESSION_INFO` was set: the key is looked up in the session realm.
    pub session_info: bool,
    /// `PMIX_NODE_INFO` was set: the key is looked up in the node realm (without it, only
    /// node-realm keys are, and only for WILDCARD/UNDEF ranks or as a fallback).
    pub node_info: bool,
    /// `PMIX_APP_INFO` was set: the key is looked up in the app realm.
    pub app_info: bool,
    /// The infos that are not Get directives (possible qualifiers of qualified values).
    pub qualifiers: Vec<Info>,
}

impl GetQuals {
    /// The qualifiers in a Get's info array. Values of the wrong type are ignored; a flag
    /// given without a value (`PMIX_UNDEF`) counts as true.
    pub fn parse(info: &[Info]) -> GetQuals {
        let mut q = GetQuals::default();
        let mut node_sel: Option<NodeSel> = None;
        let mut appnum: Option<u32> = None;
        for i in info {
            let k = i.key.as_bytes();
            let flag = || i.value.as_bool().unwrap_or(false);
            if k == keys::OPTIONAL {
                q.optional = flag();
            } else if k == keys::IMMEDIATE {
                q.immediate = flag();
            } else if k == keys::REFRESH {
                q.refresh = flag();
            } else if k == keys::TIMEOUT {
                q.timeout = match i.value {
                    Value::Int(s) | Value::Int32(s) => u64::try_from(s).ok(),
                    ref v => v.as_u64(),
                }
                .filter(|&s| s > 0)
                .map(Duration::from_secs);
            } else if k == keys::DATA_SCOPE {
                q.scope = match i.value {
                    Value::Scope(s) => Some(s),
                    ref v => v.as_u64().and_then(|s| pmix_scope_t::try_from(s).ok()),
                };
            } else if k == keys::SESSION_INFO {
                q.session_info = flag();
            } else if k == keys::SESSION_ID {
                q.session = realm::as_u32(&i.value);
            } else if k == keys::NODE_INFO {
                q.node_info = flag();
            } else if k == keys::HOSTNAME {
                if node_sel.is_none() {
                    node_sel = i.value.as_str().cloned().map(NodeSel::Name);
                }
            } else if k == keys::NODEID {
                if node_sel.is_none() {
                    node_sel = realm::as_u32(&i.value).map(NodeSel::Id);
                }
            } else if k == keys::APP_INFO {
                q.app_info = flag();
            } else if k == keys::APPNUM {
                appnum = realm::as_u32(&i.value);
            } else if k == keys::STATIC_VALUES {
                q.static_values = flag();
            } else if k == keys::POINTER_VALUES {
                q.pointer_values = flag();
            } else if k == keys::JOB_INFO || k == keys::PROC_INFO {
                // The job realm is the default for WILDCARD, the proc realm for a rank.
            } else {
                q.qualifiers.push(i.clone());
            }
        }
        q.node = node_sel.or(q.node_info.then_some(NodeSel::Own));
        q.app = (q.app_info || appnum.is_some()).then_some(appnum);
        q
    }
}

/// The answer of the local store to a Get.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// The value.
    Found(Value),
    /// Definitely absent; don't ask the server (`PMIX_ERR_NOT_FOUND`).
    NotFound,
    /// Not held here; the server may have it.
    Missing,
}

/// The content of one GETNB reply BYTE_OBJECT: `PACK(PROC)` then one `PACK(KVAL)` per value,
/// in `mode`. Values the codec cannot pack (a topology that cannot be exported) are left out.
pub fn blob_of(mode: BufferType, proc: &Proc, kvals: &[Kval]) -> Vec<u8> {
    let mut e = Encoder::new(mode);
    // A PROC always packs.
    let _ = e.pack(PMIX_PROC, &[Value::Proc(proc.clone())]);
    pack_kvals(&mut e, kvals);
    e.into_bytes()
}

/// One `PACK(KVAL, 1)` per value; values that cannot be packed are left out (a failed pack
/// appends nothing).
pub(crate) fn pack_kvals(e: &mut Encoder, kvals: &[Kval]) {
    for kv in kvals {
        let _ = e.pack(PMIX_KVAL, &[Value::Kval(Box::new(kv.clone()))]);
    }
}

/// Reads `PACK(KVAL)`s to the end of the data. As in the reference, running out of data ends
/// the list (a truncated last KVAL is dropped); with `strict`, bytes left over that do not
/// form a KVAL are an error.
pub(crate) fn read_kvals(d: &mut Decoder<'_>, strict: bool) -> Result<Vec<Kval>> {
    let mut out = Vec::new();
    while !d.remaining().is_empty() {
        match d.unpack(PMIX_KVAL, usize::MAX) {
            Ok(u) => {
                for v in u.values {
                    match v {
                        Value::Kval(kv) => out.push(*kv),
                        _ => return Err(Error::UnpackFailure),
                    }
                }
            }
            Err(Error::ReadPastEnd) if !strict => break,
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

pub(crate) fn read_one(d: &mut Decoder<'_>, ty: pmix_data_type_t) -> Result<Value> {
    let u = d.unpack(ty, 1)?;
    if u.more {
        return Err(Error::UnpackFailure);
    }
    u.values.into_iter().next().ok_or(Error::UnpackFailure)
}

/// `PACK(PROC)` then `PACK(KVAL)*`: a GETNB reply blob.
pub(crate) fn decode_proc_blob(mode: BufferType, blob: &[u8]) -> Result<(Proc, Vec<Kval>)> {
    let mut d = Decoder::new(mode, blob);
    let Value::Proc(proc) = read_one(&mut d, PMIX_PROC)? else {
        return Err(Error::UnpackFailure);
    };
    let kvals = read_kvals(&mut d, false)?;
    Ok((proc, kvals))
}

/// `PACK(PROC_RANK)` then `PACK(KVAL)*`: the content of a `pmix.pblob`.
pub(crate) fn decode_rank_blob(mode: BufferType, blob: &[u8]) -> Result<(u32, Vec<Kval>)> {
    let mut d = Decoder::new(mode, blob);
    let Value::ProcRank(rank) = read_one(&mut d, PMIX_PROC_RANK)? else {
        return Err(Error::UnpackFailure);
    };
    let kvals = read_kvals(&mut d, false)?;
    Ok((rank, kvals))
}

/// Whether `rank` names one process (not WILDCARD, UNDEF or another special rank).
pub(crate) fn is_real_rank(rank: pmix_rank_t) -> bool {
    rank < PMIX_RANK_VALID
}
