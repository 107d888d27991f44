//! Publish and lookup (`PMIx_Publish`, `PMIx_Lookup`): what a published datum holds, who
//! may see it (range and access lists), and lookups that wait for keys. The data lives in
//! the session's `State`; the host's upcalls use these rules on it.

use std::time::Instant;

use pmix_core::host::Done;
use pmix_core::values::{Info, PStr, Pdata, Proc, Value};
use pmix_sys::*;

use crate::job::{find, int_of};

/// A datum published with `PMIx_Publish`.
#[derive(Debug, Clone)]
pub struct Published {
    pub key: PStr,
    pub value: Value,
    pub publisher: Proc,
    pub range: pmix_data_range_t,
    pub persistence: pmix_persistence_t,
    /// `PMIX_ACCESS_USERIDS` and `PMIX_ACCESS_GRPIDS` of the publish: when either is given,
    /// only those users and groups' members may look the data up.
    pub readers: Option<(Vec<u32>, Vec<u32>)>,
}

/// A lookup waiting (`PMIX_WAIT`) for keys to be published.
pub struct HeldLookup {
    pub requester: Proc,
    /// The requester's verified uid and gid.
    pub ids: Option<(u32, u32)>,
    pub keys: Vec<PStr>,
    pub range: pmix_data_range_t,
    /// Answer once this many keys are found.
    pub nwait: usize,
    pub deadline: Option<Instant>,
    pub done: Done<Vec<Pdata>>,
}

/// Keys a publish, lookup or unpublish request carries as directives, not data.
pub const DIRECTIVES: [&std::ffi::CStr; 9] = [
    PMIX_RANGE,
    PMIX_PERSISTENCE,
    PMIX_USERID,
    PMIX_GRPID,
    PMIX_TIMEOUT,
    PMIX_WAIT,
    PMIX_ACCESS_PERMISSIONS,
    PMIX_ACCESS_USERIDS,
    PMIX_ACCESS_GRPIDS,
];

/// The ids a publish's `PMIX_ACCESS_USERIDS` (or `_GRPIDS`) names: an array of ids, or one.
fn id_list(info: &[Info], k: &std::ffi::CStr) -> Option<Vec<u32>> {
    let v = find(info, k)?;
    let one = |v: &Value| v.as_u64().and_then(|x| u32::try_from(x).ok());
    Some(match v {
        Value::DataArray(a) => a.items.iter().filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    })
}

/// Who may read data published with `info`: `None` for anyone in range.
pub fn readers_of(info: &[Info]) -> Option<(Vec<u32>, Vec<u32>)> {
    let users = id_list(info, PMIX_ACCESS_USERIDS);
    let groups = id_list(info, PMIX_ACCESS_GRPIDS);
    if users.is_none() && groups.is_none() {
        return None;
    }
    Some((users.unwrap_or_default(), groups.unwrap_or_default()))
}

pub fn range_of(info: &[Info], default: pmix_data_range_t) -> pmix_data_range_t {
    match find(info, PMIX_RANGE) {
        Some(Value::DataRange(r)) => *r,
        Some(v) => int_of(v).map_or(default, |x| x as pmix_data_range_t),
        None => default,
    }
}

/// Whether a requester with verified ids `ids` may read `d` (its `PMIX_ACCESS_USERIDS`
/// and `_GRPIDS`; a requester whose ids are not known reads only unrestricted data).
fn readable(d: &Published, ids: Option<(u32, u32)>) -> bool {
    let Some((users, groups)) = &d.readers else {
        return true;
    };
    ids.is_some_and(|(u, g)| {
        users.contains(&u)
            || groups
                .iter()
                .any(|&x| x == g || pmix_core::security::in_group(u, x))
    })
}

/// Whether `who` may see `d` when looking within `range`.
pub fn visible(d: &Published, who: &Proc, range: pmix_data_range_t) -> bool {
    let by = |r: pmix_data_range_t| match r {
        PMIX_RANGE_PROC_LOCAL => d.publisher == *who,
        PMIX_RANGE_NAMESPACE => d.publisher.nspace == who.nspace,
        // One session on one node: every other range is everyone.
        _ => true,
    };
    by(d.range) && by(range)
}

/// The data of `published` under `keys` that `who` (with verified ids `ids`) can see.
pub fn lookup_in(
    published: &[Published],
    who: &Proc,
    ids: Option<(u32, u32)>,
    keys: &[PStr],
    range: pmix_data_range_t,
) -> Vec<Pdata> {
    keys.iter()
        .filter_map(|k| {
            published
                .iter()
                .find(|d| &d.key == k && visible(d, who, range) && readable(d, ids))
                .map(|d| Pdata {
                    proc: d.publisher.clone(),
                    key: d.key.clone(),
                    value: d.value.clone(),
                })
        })
        .collect()
}
