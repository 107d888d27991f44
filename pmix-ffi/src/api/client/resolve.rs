//! `PMIx_Resolve_peers` and `PMIx_Resolve_nodes`, of the PMIx standard's "Query
//! Operations" chapter: answered from the job's data. `PMIx_Query_info` is in `api/query.rs`.

use core::ffi::c_char;

use pmix_core::{Error, Info, Proc, Value};
use pmix_sys::*;

use crate::{convert, entry, lifecycle, ptr};

/// See PMIx Standard v5, `PMIx_Resolve_peers`: the ranks of `nspace` (NULL: every known
/// namespace is not supported; the caller's own) on `nodename` (NULL: this node).
///
/// Ownership: `*procs` is a libc-allocated array; release with `PMIX_PROC_FREE`.
///
/// # Safety
/// `nodename`, `nspace` are NULL or C strings; `procs`, `nprocs` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Resolve_peers(
    nodename: *const c_char,
    nspace: *const c_char,
    procs: *mut *mut pmix_proc_t,
    nprocs: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Resolve_peers", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (out, n) = unsafe { (ptr::req_mut(procs)?, ptr::req_mut(nprocs)?) };
        // SAFETY: per this function's contract.
        let (node, ns) = unsafe { (ptr::opt_pstr(nodename), ptr::opt_pstr(nspace)) };
        let ns = ns.unwrap_or_else(|| c.me.nspace.clone());
        let ranks: Vec<u32> = match node {
            None => c.local_peers(&ns).ok_or(Error::NotFound)?,
            Some(node) => {
                // The ranks on another node come from the node's local peers.
                let q = [
                    Info::new(PMIX_NODE_INFO.to_bytes(), Value::Bool(true)),
                    Info::new(PMIX_HOSTNAME.to_bytes(), Value::String(Some(node))),
                ];
                let v = c.get(
                    &Proc::new(ns.clone(), PMIX_RANK_WILDCARD),
                    PMIX_LOCAL_PEERS.to_bytes(),
                    &q,
                )?;
                let s = v.as_str().ok_or(Error::NotFound)?.to_string();
                s.split(',').filter_map(|r| r.trim().parse().ok()).collect()
            }
        };
        let arr = crate::alloc::calloc::<pmix_proc_t>(ranks.len())?;
        for (i, r) in ranks.iter().enumerate() {
            // SAFETY: arr holds ranks.len() procs.
            unsafe {
                arr.add(i)
                    .write(convert::proc_to_c(&Proc::new(ns.clone(), *r)))
            };
        }
        *out = arr;
        *n = ranks.len();
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Resolve_nodes`: the comma-separated nodes of `nspace`.
///
/// Ownership: `*nodelist` is a libc-allocated string; release with `free`.
///
/// # Safety
/// `nspace` is NULL or a C string; `nodelist` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Resolve_nodes(
    nspace: *const c_char,
    nodelist: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Resolve_nodes", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(nodelist) }?;
        // SAFETY: per this function's contract.
        let ns = unsafe { ptr::opt_pstr(nspace) }.unwrap_or_else(|| c.me.nspace.clone());
        let v = c.get(
            &Proc::new(ns, PMIX_RANK_WILDCARD),
            PMIX_NODE_LIST.to_bytes(),
            &[],
        )?;
        let s = v.as_str().ok_or(Error::NotFound)?;
        *out = crate::alloc::cstring(s.as_bytes())?;
        Ok(())
    })
}
