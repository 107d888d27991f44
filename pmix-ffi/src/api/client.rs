//! The client API of `pmix.h`, over the core's client role (`pmix_core::client`).
//!
//! Blocking calls wait on the caller's thread; made from inside a callback of this library
//! (on its progress thread) they return `PMIX_ERR_WOULD_BLOCK` instead of deadlocking.
//! Callbacks of the `_nb` forms run on the progress thread.

#![allow(unused_variables)]

use core::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

use pmix_core::events::{Event, Next};
use pmix_core::{Error, Info, PStr, Proc, Result, Value};
use pmix_sys::*;

use crate::callback::{self, CbData};
use crate::{convert, entry, lifecycle, ptr};

/// # Safety
/// `p` is NULL or a valid proc.
unsafe fn opt_proc(p: *const pmix_proc_t) -> Result<Option<Proc>> {
    // SAFETY: forwarded contract.
    match unsafe { p.as_ref() } {
        Some(p) => Ok(Some(convert::proc_from_c(p)?)),
        None => Ok(None),
    }
}

/// # Safety
/// `(p, n)` is a valid array.
unsafe fn procs(p: *const pmix_proc_t, n: usize) -> Result<Vec<Proc>> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(p, n) }?
        .iter()
        .map(convert::proc_from_c)
        .collect()
}

/// # Safety
/// `(p, n)` is a valid array of valid infos.
unsafe fn infos(p: *const pmix_info_t, n: usize) -> Result<Vec<Info>> {
    // SAFETY: forwarded contract.
    unsafe { convert::infos_from_c(p, n) }
}

/// See PMIx Standard v5, `PMIx_Init`.
///
/// Connects to the server named by `PMIX_SERVER_URI41` (or the older variables) with the
/// identity in `PMIX_NAMESPACE`/`PMIX_RANK`. Without a server it returns `PMIX_ERR_UNREACH`
/// and leaves the process initialized as a singleton, as the reference does. Calls nest:
/// each needs its `PMIx_Finalize`.
///
/// # Safety
/// `proc_` is NULL or writable; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Init(
    proc_: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Init", || {
        // SAFETY: per this function's contract. Info the library cannot read is ignored,
        // as the reference reads only the keys it knows.
        let info = unsafe { infos(info, ninfo) }.unwrap_or_default();
        let (me, singleton) = lifecycle::client_init(&info)?;
        // SAFETY: per this function's contract.
        if let Some(p) = unsafe { proc_.as_mut() } {
            *p = convert::proc_to_c(&me);
        }
        if singleton {
            Err(Error::Unreach)
        } else {
            Ok(())
        }
    })
}

/// See PMIx Standard v5, `PMIx_Finalize`.
///
/// Finalizing a library that is not initialized succeeds and does nothing, as in the reference.
///
/// # Safety
/// `(info, ninfo)` is a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Finalize(info: *const pmix_info_t, ninfo: usize) -> pmix_status_t {
    entry::status("PMIx_Finalize", lifecycle::client_finalize)
}

/// See PMIx Standard v5, `PMIx_Initialized`: 1 when initialized, else 0.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Initialized() -> c_int {
    entry::guard("PMIx_Initialized", 0, || {
        c_int::from(lifecycle::initialized())
    })
}

/// See PMIx Standard v5, `PMIx_Abort`: asks the host to terminate `procs` (NULL: the whole
/// job) and waits for its answer.
///
/// # Safety
/// `msg` is NULL or a C string; `(procs, nprocs)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Abort(
    status: c_int,
    msg: *const c_char,
    procs: *mut pmix_proc_t,
    nprocs: usize,
) -> pmix_status_t {
    entry::status("PMIx_Abort", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (msg, procs) = unsafe { (ptr::opt_pstr(msg), self::procs(procs, nprocs)?) };
        c.abort(status, msg.as_ref().map(PStr::as_bytes), &procs)
    })
}

/// See PMIx Standard v5, `PMIx_Put`: stored locally until `PMIx_Commit`.
///
/// # Safety
/// `key` is a C string; `val` a valid value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Put(
    scope: pmix_scope_t,
    key: *const c_char,
    val: *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Put", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let v = unsafe { convert::value_from_c(ptr::req(val)?) }?;
        c.put(scope, key, v)
    })
}

/// See PMIx Standard v5, `PMIx_Commit`: sends the values put since the last commit.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Commit() -> pmix_status_t {
    entry::status("PMIx_Commit", || lifecycle::client()?.commit())
}

/// See PMIx Standard v5, `PMIx_Fence`. NULL procs means every process of the caller's
/// namespace; `PMIX_COLLECT_DATA` and `PMIX_TIMEOUT` are honoured.
///
/// # Safety
/// `(procs, nprocs)` and `(info, ninfo)` are valid arrays.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fence(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Fence", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        c.fence(&p, &i)
    })
}

/// See PMIx Standard v5, `PMIx_Fence_nb`.
///
/// # Safety
/// As for `PMIx_Fence`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fence_nb(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fence_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        c.fence_nb(&p, &i, callback::op("PMIx_Fence_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Get`. Data this process holds (job, node, app and session
/// information; data received through a fence) is answered on the caller's thread.
/// `*val` is always a new value, even with `PMIX_GET_STATIC_VALUES` or
/// `PMIX_GET_POINTER_VALUES`: the reference 4.2 allocates one in both cases (measured), and a
/// caller written for it frees what it gets.
///
/// Ownership: `*val` is a libc-allocated value; release with `PMIX_VALUE_RELEASE`.
///
/// # Safety
/// `proc_` is NULL or valid; `key` NULL or a C string; `(info, ninfo)` valid; `val` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    val: *mut *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Get", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(val) }?;
        // SAFETY: per this function's contract.
        let (p, k, i) = unsafe { (opt_proc(proc_)?, ptr::opt_pstr(key), infos(info, ninfo)?) };
        let p = p.unwrap_or_else(|| c.me.clone());
        let k = k.ok_or(Error::BadParam)?;
        let v = c.get(&p, k.as_bytes(), &i)?;
        let cv = convert::value_to_c(&v)?;
        let b = crate::alloc::calloc::<pmix_value_t>(1)?;
        // SAFETY: fresh allocation of one value.
        unsafe { b.write(cv) };
        *out = b;
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Get_nb`. The value handed to `cbfunc` is released when it
/// returns.
///
/// # Safety
/// As for `PMIx_Get`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_nb(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_value_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Get_nb", || {
        let c = lifecycle::client()?;
        if cbfunc.is_none() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let (p, k, i) = unsafe { (opt_proc(proc_)?, ptr::opt_pstr(key), infos(info, ninfo)?) };
        let p = p.unwrap_or_else(|| c.me.clone());
        let k = k.ok_or(Error::BadParam)?;
        c.get_nb(
            &p,
            k.as_bytes(),
            &i,
            callback::value("PMIx_Get_nb", cbfunc, cbdata),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Publish`.
///
/// # Safety
/// `(info, ninfo)` is a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish(info: *const pmix_info_t, ninfo: usize) -> pmix_status_t {
    entry::status("PMIx_Publish", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        c.publish(&i)
    })
}

/// See PMIx Standard v5, `PMIx_Publish_nb`.
///
/// # Safety
/// As for `PMIx_Publish`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Publish_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        c.publish_nb(&i, callback::op("PMIx_Publish_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Lookup`: fills the proc and value of each element of `data`
/// whose key was found (`PMIX_WAIT` waits for keys not yet published).
///
/// # Safety
/// `(data, ndata)` is a valid, writable array; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup(
    data: *mut pmix_pdata_t,
    ndata: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Lookup", || {
        let c = lifecycle::client()?;
        if data.is_null() || ndata == 0 {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let slots = unsafe { core::slice::from_raw_parts_mut(data, ndata) };
        let keys: Vec<Vec<u8>> = slots
            .iter()
            .map(|d| ptr::fixed_str(&d.key).map(PStr::into_bytes))
            .collect::<Result<_>>()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let found = c.lookup(&keys, &i)?;
        let mut any = false;
        for f in found {
            if let Some(slot) = slots
                .iter_mut()
                .find(|d| ptr::fixed_str(&d.key).is_ok_and(|k| k == f.key))
            {
                slot.proc = convert::proc_to_c(&f.proc);
                // SAFETY: the caller's slot holds a valid (usually empty) value.
                unsafe { convert::value_destruct(&mut slot.value) };
                slot.value = convert::value_to_c(&f.value)?;
                any = true;
            }
        }
        if any { Ok(()) } else { Err(Error::NotFound) }
    })
}

/// See PMIx Standard v5, `PMIx_Lookup_nb`.
///
/// # Safety
/// `keys` is a NULL-terminated array of C strings; `(info, ninfo)` valid; `cbfunc` is
/// called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_lookup_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Lookup_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        if k.is_empty() {
            return Err(Error::BadParam);
        }
        c.lookup_nb(&k, &i, callback::lookup("PMIx_Lookup_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Unpublish` (NULL keys: everything this process published).
///
/// # Safety
/// `keys` is NULL or a NULL-terminated array of C strings; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        c.unpublish(&k, &i)
    })
}

/// See PMIx Standard v5, `PMIx_Unpublish_nb`.
///
/// # Safety
/// As for `PMIx_Unpublish`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        c.unpublish_nb(&k, &i, callback::op("PMIx_Unpublish_nb", cbfunc, cbdata))
    })
}

/// # Safety
/// `(apps, napps)` is a valid array of valid apps.
unsafe fn apps(apps: *const pmix_app_t, napps: usize) -> Result<Vec<pmix_core::App>> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(apps, napps) }?
        .iter()
        // SAFETY: forwarded contract.
        .map(|a| unsafe { convert::app_from_c(a) })
        .collect()
}

/// See PMIx Standard v5, `PMIx_Spawn`: the host starts the job; its namespace is written
/// to `nspace` (at least `PMIX_MAX_NSLEN + 1` bytes) when given.
///
/// # Safety
/// The arrays are valid; `nspace` is NULL or has room for a namespace.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Spawn(
    job_info: *const pmix_info_t,
    ninfo: usize,
    apps: *const pmix_app_t,
    napps: usize,
    nspace: *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Spawn", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (i, a) = unsafe { (infos(job_info, ninfo)?, self::apps(apps, napps)?) };
        if a.is_empty() {
            return Err(Error::BadParam);
        }
        let ns = c.spawn(&i, &a)?;
        if !nspace.is_null() {
            // SAFETY: the caller gives room for PMIX_MAX_NSLEN + 1 bytes.
            let buf = unsafe { core::slice::from_raw_parts_mut(nspace, PMIX_MAX_NSLEN + 1) };
            ptr::load_fixed(buf, ns.as_bytes());
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Spawn_nb`.
///
/// # Safety
/// As for `PMIx_Spawn`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Spawn_nb(
    job_info: *const pmix_info_t,
    ninfo: usize,
    apps: *const pmix_app_t,
    napps: usize,
    cbfunc: pmix_spawn_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Spawn_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (i, a) = unsafe { (infos(job_info, ninfo)?, self::apps(apps, napps)?) };
        if a.is_empty() {
            return Err(Error::BadParam);
        }
        c.spawn_nb(&i, &a, callback::spawn("PMIx_Spawn_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Connect`.
///
/// # Safety
/// `(procs, nprocs)` and `(info, ninfo)` are valid arrays.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Connect(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Connect", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        c.connect_procs(&p, &i)
    })
}

/// See PMIx Standard v5, `PMIx_Connect_nb`.
///
/// # Safety
/// As for `PMIx_Connect`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Connect_nb(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Connect_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        c.connect_procs_nb(&p, &i, callback::op("PMIx_Connect_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Disconnect`.
///
/// # Safety
/// `(procs, nprocs)` and `(info, ninfo)` are valid arrays.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disconnect(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Disconnect", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        c.disconnect_procs(&p, &i)
    })
}

/// See PMIx Standard v5, `PMIx_Disconnect_nb`.
///
/// # Safety
/// As for `PMIx_Disconnect`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disconnect_nb(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Disconnect_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (p, i) = unsafe { (self::procs(procs, nprocs)?, infos(info, ninfo)?) };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        c.disconnect_procs_nb(&p, &i, callback::op("PMIx_Disconnect_nb", cbfunc, cbdata))
    })
}

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

/// Runs an `_nb` call and waits for its completion (the blocking forms).
fn wait<T: Send + 'static>(
    start: impl FnOnce(Box<dyn FnOnce(Result<T>) + Send>) -> Result<()>,
) -> Result<T> {
    if pmix_core::progress::on_progress_thread() {
        return Err(Error::WouldBlock);
    }
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    start(Box::new(move |r| {
        let _ = tx.send(r);
    }))?;
    rx.recv().map_err(|_| Error::Unreach)?
}

/// See PMIx Standard v5, `PMIx_Log`.
///
/// # Safety
/// `(data, ndata)` and `(directives, ndirs)` are valid arrays.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Log(
    data: *const pmix_info_t,
    ndata: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
) -> pmix_status_t {
    entry::status("PMIx_Log", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (d, dirs) = unsafe { (infos(data, ndata)?, infos(directives, ndirs)?) };
        wait(|done| c.log_nb(&d, &dirs, done))
    })
}

/// See PMIx Standard v5, `PMIx_Log_nb`.
///
/// # Safety
/// As for `PMIx_Log`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Log_nb(
    data: *const pmix_info_t,
    ndata: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Log_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (d, dirs) = unsafe { (infos(data, ndata)?, infos(directives, ndirs)?) };
        c.log_nb(&d, &dirs, callback::op("PMIx_Log_nb", cbfunc, cbdata))
    })
}

/// A blocking call answered by a status and infos: fills `results` and returns the status.
///
/// # Safety
/// `results`, `nresults` NULL or writable.
unsafe fn infos_blocking(
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
    start: impl FnOnce(callback::InfoDone) -> Result<()>,
) -> Result<pmix_status_t> {
    // SAFETY: forwarded contract.
    unsafe { callback::clear_results(results, nresults) };
    let (status, out) = wait(start)?;
    if !out.is_empty() {
        // SAFETY: forwarded contract.
        unsafe { callback::put_results(&out, results, nresults) }?;
    }
    Ok(status)
}

/// See PMIx Standard v5, `PMIx_Allocation_request`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `(info, ninfo)` valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Allocation_request(
    directive: pmix_alloc_directive_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Allocation_request", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        // SAFETY: per this function's contract.
        unsafe { infos_blocking(results, nresults, |d| c.allocation_nb(directive, &i, d)) }
    })
}

/// See PMIx Standard v5, `PMIx_Allocation_request_nb`.
///
/// # Safety
/// `(info, ninfo)` valid; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Allocation_request_nb(
    directive: pmix_alloc_directive_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Allocation_request_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        c.allocation_nb(
            directive,
            &i,
            callback::info("PMIx_Allocation_request_nb", cbfunc, cbdata),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Job_control`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// The arrays are valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_control(
    targets: *const pmix_proc_t,
    ntargets: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Job_control", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (t, d) = unsafe { (procs(targets, ntargets)?, infos(directives, ndirs)?) };
        // SAFETY: per this function's contract.
        unsafe { infos_blocking(results, nresults, |done| c.job_control_nb(&t, &d, done)) }
    })
}

/// See PMIx Standard v5, `PMIx_Job_control_nb`.
///
/// # Safety
/// The arrays are valid; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_control_nb(
    targets: *const pmix_proc_t,
    ntargets: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Job_control_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (t, d) = unsafe { (procs(targets, ntargets)?, infos(directives, ndirs)?) };
        c.job_control_nb(
            &t,
            &d,
            callback::info("PMIx_Job_control_nb", cbfunc, cbdata),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Process_monitor`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `monitor` valid; `(directives, ndirs)` valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Process_monitor(
    monitor: *const pmix_info_t,
    error: pmix_status_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Process_monitor", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let m = unsafe { convert::info_from_c(ptr::req(monitor)?) }?;
        // SAFETY: per this function's contract.
        let d = unsafe { infos(directives, ndirs) }?;
        // SAFETY: per this function's contract.
        unsafe { infos_blocking(results, nresults, |done| c.monitor_nb(&m, error, &d, done)) }
    })
}

/// See PMIx Standard v5, `PMIx_Process_monitor_nb`. `PMIX_SEND_HEARTBEAT` sends a heartbeat
/// (no answer from the server; `cbfunc` reports that it was sent).
///
/// # Safety
/// As for `PMIx_Process_monitor`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Process_monitor_nb(
    monitor: *const pmix_info_t,
    error: pmix_status_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Process_monitor_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let m = unsafe { convert::info_from_c(ptr::req(monitor)?) }?;
        // SAFETY: per this function's contract.
        let d = unsafe { infos(directives, ndirs) }?;
        c.monitor_nb(
            &m,
            error,
            &d,
            callback::info("PMIx_Process_monitor_nb", cbfunc, cbdata),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Get_credential`: the host's credential for this process.
///
/// Ownership: `credential->bytes` is libc-allocated; release with `PMIX_BYTE_OBJECT_DESTRUCT`.
///
/// # Safety
/// `(info, ninfo)` valid; `credential` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential(
    info: *const pmix_info_t,
    ninfo: usize,
    credential: *mut pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(credential) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let (cred, _) = wait(|d| c.get_credential_nb(&i, d))?;
        *out = convert::bo_to_c(&cred)?;
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Get_credential_nb`.
///
/// # Safety
/// `(info, ninfo)` valid; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_credential_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let d = CbData(cbdata);
        c.get_credential_nb(
            &i,
            Box::new(move |r| {
                let d = d;
                entry::guard("PMIx_Get_credential_nb", (), || {
                    let (status, cred, extra) = match r {
                        Ok((c, i)) => (PMIX_SUCCESS, c, i),
                        Err(e) => (e.status(), Vec::new(), Vec::new()),
                    };
                    let Ok(mut bo) = convert::bo_to_c(&cred) else {
                        return;
                    };
                    let arr = convert::infos_to_c(&extra).unwrap_or(core::ptr::null_mut());
                    let n = if arr.is_null() { 0 } else { extra.len() };
                    // SAFETY: the caller's callback; our memory lives until it returns.
                    unsafe { f(status, &mut bo, arr, n, d.0) };
                    // SAFETY: built above.
                    unsafe {
                        convert::bo_destruct(&mut bo);
                        convert::array_free(arr.cast(), n, PMIX_INFO);
                    }
                })
            }),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Validate_credential`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `cred` valid; `(info, ninfo)` valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Validate_credential", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let cr = unsafe { convert::bo_from_c(ptr::req(cred)?) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        // SAFETY: per this function's contract.
        unsafe { infos_blocking(results, nresults, |d| c.validate_credential_nb(&cr, &i, d)) }
    })
}

/// See PMIx Standard v5, `PMIx_Validate_credential_nb`.
///
/// # Safety
/// As for `PMIx_Validate_credential`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential_nb(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_validation_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Validate_credential_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let cr = unsafe { convert::bo_from_c(ptr::req(cred)?) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let d = CbData(cbdata);
        c.validate_credential_nb(
            &cr,
            &i,
            Box::new(move |r| {
                let d = d;
                entry::guard("PMIx_Validate_credential_nb", (), || {
                    let (status, extra) = match r {
                        Ok(x) => x,
                        Err(e) => (e.status(), Vec::new()),
                    };
                    let arr = convert::infos_to_c(&extra).unwrap_or(core::ptr::null_mut());
                    let n = if arr.is_null() { 0 } else { extra.len() };
                    // SAFETY: the caller's callback; our memory lives until it returns.
                    unsafe { f(status, arr, n, d.0) };
                    // SAFETY: built above.
                    unsafe { convert::array_free(arr.cast(), n, PMIX_INFO) };
                })
            }),
        )
    })
}

/// # Safety
/// `grp` is a C string.
unsafe fn grp_name(grp: *const c_char) -> Result<Vec<u8>> {
    // SAFETY: forwarded contract.
    Ok(unsafe { ptr::cstr(grp) }?.to_bytes().to_vec())
}

/// See PMIx Standard v5, `PMIx_Group_construct`: collective over `procs`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `grp` a C string; the arrays valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_construct(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_construct", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, p, d) = unsafe {
            (
                grp_name(grp)?,
                self::procs(procs, nprocs)?,
                infos(directives, ndirs)?,
            )
        };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        unsafe { callback::clear_results(results, nresults) };
        let out = wait(|done| c.group_nb(true, &g, &p, &d, done))?;
        // SAFETY: per this function's contract.
        unsafe { callback::put_results(&out, results, nresults) }
    })
}

/// See PMIx Standard v5, `PMIx_Group_construct_nb`.
///
/// # Safety
/// As for `PMIx_Group_construct`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_construct_nb(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_construct_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, p, d) = unsafe {
            (
                grp_name(grp)?,
                self::procs(procs, nprocs)?,
                infos(info, ninfo)?,
            )
        };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        let cb = callback::info("PMIx_Group_construct_nb", cbfunc, cbdata);
        c.group_nb(
            true,
            &g,
            &p,
            &d,
            Box::new(move |r| cb(r.map(|i| (PMIX_SUCCESS, i)))),
        )
    })
}

/// Runs a blocking group step on a thread of its own and reports through an info callback
/// (the `_nb` forms may be called from inside an event handler, where waiting is impossible).
fn group_in_thread(
    export: &'static str,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
    work: impl FnOnce() -> Result<Vec<Info>> + Send + 'static,
) -> Result<()> {
    let cb = callback::info(export, cbfunc, cbdata);
    std::thread::Builder::new()
        .name("pmix-group".into())
        .spawn(move || cb(work().map(|i| (PMIX_SUCCESS, i))))
        .map_err(|_| Error::NoMem)?;
    Ok(())
}

/// See PMIx Standard v5, `PMIx_Group_invite`: the leader invites `procs`
/// (`PMIX_GROUP_INVITED` events), waits for their answers (`PMIX_TIMEOUT` bounds the wait)
/// and completes the group with those who accepted (`PMIX_GROUP_CONSTRUCT_COMPLETE`, with
/// `PMIX_GROUP_MEMBERSHIP`, which is also the result).
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `grp` a C string; the arrays valid; `results`, `nresult` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_invite(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresult: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_invite", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, p, i) = unsafe {
            (
                grp_name(grp)?,
                self::procs(procs, nprocs)?,
                infos(info, ninfo)?,
            )
        };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        unsafe { callback::clear_results(results, nresult) };
        let out = c.group_invite(&g, &p, &i)?;
        // SAFETY: per this function's contract.
        unsafe { callback::put_results(&out, results, nresult) }
    })
}

/// See PMIx Standard v5, `PMIx_Group_invite_nb`: as `PMIx_Group_invite`, answered through
/// `cbfunc`.
///
/// # Safety
/// As for `PMIx_Group_invite`; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_invite_nb(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_invite_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, p, i) = unsafe {
            (
                grp_name(grp)?,
                self::procs(procs, nprocs)?,
                infos(info, ninfo)?,
            )
        };
        if p.is_empty() {
            return Err(Error::BadParam);
        }
        group_in_thread("PMIx_Group_invite_nb", cbfunc, cbdata, move || {
            c.group_invite(&g, &p, &i)
        })
    })
}

/// See PMIx Standard v5, `PMIx_Group_join`: answers `leader`'s invitation
/// (`PMIX_GROUP_ACCEPT` or `PMIX_GROUP_DECLINE`); when accepting, waits for the group to be
/// complete and returns its membership.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `grp` a C string; `leader` valid; `(info, ninfo)` valid; `results`, `nresult` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_join(
    grp: *const c_char,
    leader: *const pmix_proc_t,
    opt: pmix_group_opt_t,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresult: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_join", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, l, i) = unsafe {
            (
                grp_name(grp)?,
                convert::proc_from_c(ptr::req(leader)?)?,
                infos(info, ninfo)?,
            )
        };
        // SAFETY: per this function's contract.
        unsafe { callback::clear_results(results, nresult) };
        let out = c.group_join(&g, &l, opt == PMIX_GROUP_ACCEPT, &i)?;
        // SAFETY: per this function's contract.
        unsafe { callback::put_results(&out, results, nresult) }
    })
}

/// See PMIx Standard v5, `PMIx_Group_join_nb`: as `PMIx_Group_join`, answered through
/// `cbfunc` (which may be NULL: the usual call from inside the `PMIX_GROUP_INVITED` handler).
///
/// # Safety
/// As for `PMIx_Group_join`; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_join_nb(
    grp: *const c_char,
    leader: *const pmix_proc_t,
    opt: pmix_group_opt_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_join_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, l, i) = unsafe {
            (
                grp_name(grp)?,
                convert::proc_from_c(ptr::req(leader)?)?,
                infos(info, ninfo)?,
            )
        };
        let accept = opt == PMIX_GROUP_ACCEPT;
        group_in_thread("PMIx_Group_join_nb", cbfunc, cbdata, move || {
            c.group_join(&g, &l, accept, &i)
        })
    })
}

/// See PMIx Standard v5, `PMIx_Group_leave`. A 4.2 server answers `PMIX_ERR_NOT_SUPPORTED`.
///
/// # Safety
/// `grp` a C string; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_leave(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_leave", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, i) = unsafe { (grp_name(grp)?, infos(info, ninfo)?) };
        wait(|d| c.group_leave_nb(&g, &i, d))
    })
}

/// See PMIx Standard v5, `PMIx_Group_leave_nb`.
///
/// # Safety
/// As for `PMIx_Group_leave`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_leave_nb(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_leave_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, i) = unsafe { (grp_name(grp)?, infos(info, ninfo)?) };
        c.group_leave_nb(&g, &i, callback::op("PMIx_Group_leave_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Group_destruct`: collective over the group's members.
///
/// # Safety
/// `grp` a C string; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_destruct(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_destruct", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, i) = unsafe { (grp_name(grp)?, infos(info, ninfo)?) };
        wait(|d| c.group_nb(false, &g, &[], &i, d)).map(|_| ())
    })
}

/// See PMIx Standard v5, `PMIx_Group_destruct_nb`.
///
/// # Safety
/// As for `PMIx_Group_destruct`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_destruct_nb(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_destruct_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (g, i) = unsafe { (grp_name(grp)?, infos(info, ninfo)?) };
        let cb = callback::op("PMIx_Group_destruct_nb", cbfunc, cbdata);
        c.group_nb(false, &g, &[], &i, Box::new(move |r| cb(r.map(|_| ()))))
    })
}

// ---- events -------------------------------------------------------------------------

/// The continuation handed to a C event handler: `cbdata` of the handler's callback.
struct HandlerNext {
    next: Next,
}

unsafe extern "C" fn event_continue(
    status: pmix_status_t,
    results: *mut pmix_info_t,
    nresults: usize,
    cbfunc: pmix_op_cbfunc_t,
    thiscbdata: *mut c_void,
    notification_cbdata: *mut c_void,
) {
    entry::guard("event handler callback", (), || {
        if notification_cbdata.is_null() {
            return;
        }
        // SAFETY: made by `c_handler` with Box::into_raw; the handler calls this once.
        let n = unsafe { Box::from_raw(notification_cbdata.cast::<HandlerNext>()) };
        // SAFETY: the handler passes a valid array of its results.
        let res = unsafe { infos(results, nresults) }.unwrap_or_default();
        if let Some(f) = cbfunc {
            // SAFETY: the handler's own completion, called once as the standard says.
            unsafe { f(PMIX_SUCCESS, thiscbdata) };
        }
        n.next.call(status, res);
    })
}

/// Wraps a C event handler for the core's registry. `ret_obj` is the registration's
/// `PMIX_EVENT_RETURN_OBJECT`: handed back to the handler with every event, as the last
/// info, as the standard says.
fn c_handler(f: pmix_notification_fn_t, ret_obj: Option<usize>) -> pmix_core::events::Handler {
    Arc::new(move |id: usize, ev: &Event, results: &[Info], next: Next| {
        entry::guard("event handler", (), || {
            let Some(f) = f else {
                next.call(PMIX_SUCCESS, Vec::new());
                return;
            };
            let src = convert::proc_to_c(&ev.source);
            let mut evinfo = ev.info.clone();
            if let Some(p) = ret_obj {
                evinfo.push(Info::new(
                    PMIX_EVENT_RETURN_OBJECT.to_bytes(),
                    pmix_core::Value::Pointer(p),
                ));
            }
            let info = convert::infos_to_c(&evinfo).unwrap_or(core::ptr::null_mut());
            let ninfo = if info.is_null() { 0 } else { evinfo.len() };
            let res = convert::infos_to_c(results).unwrap_or(core::ptr::null_mut());
            let nres = if res.is_null() { 0 } else { results.len() };
            let nb = Box::into_raw(Box::new(HandlerNext { next })).cast::<c_void>();
            // SAFETY: the registered handler; every pointer lives until it returns.
            unsafe {
                f(
                    id,
                    ev.code,
                    &src,
                    info,
                    ninfo,
                    res,
                    nres,
                    Some(event_continue),
                    nb,
                )
            };
            // SAFETY: built above; the standard says the handler copies what it keeps.
            unsafe {
                convert::array_free(info.cast(), ninfo, PMIX_INFO);
                convert::array_free(res.cast(), nres, PMIX_INFO);
            }
        })
    })
}

/// See PMIx Standard v5, `PMIx_Register_event_handler`. Without `cbfunc` the registration
/// id is returned (as a non-negative status), as the reference does.
///
/// # Safety
/// `(codes, ncodes)` and `(info, ninfo)` are valid arrays; `evhdlr` stays callable until
/// deregistered.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Register_event_handler(
    codes: *mut pmix_status_t,
    ncodes: usize,
    info: *mut pmix_info_t,
    ninfo: usize,
    evhdlr: pmix_notification_fn_t,
    cbfunc: pmix_hdlr_reg_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_Register_event_handler", || {
        lifecycle::require_init()?;
        if evhdlr.is_none() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let codes = unsafe { ptr::slice(codes, ncodes) }?.to_vec();
        // SAFETY: per this function's contract.
        let mut i = unsafe { infos(info, ninfo) }?;
        // The return object is this process's pointer: kept for the handler, not sent.
        let ret_obj = i
            .iter()
            .find(|x| x.is(PMIX_EVENT_RETURN_OBJECT))
            .and_then(|x| match x.value {
                pmix_core::Value::Pointer(p) => Some(p),
                _ => None,
            });
        i.retain(|x| !x.is(PMIX_EVENT_RETURN_OBJECT));
        let handler = c_handler(evhdlr, ret_obj);
        if let Ok(s) = lifecycle::server() {
            let id = s.events.register(&codes, &i, handler);
            if let Some(f) = cbfunc {
                let d = CbData(cbdata);
                std::thread::spawn(move || {
                    let d = d;
                    // SAFETY: the caller's callback with its cbdata.
                    entry::guard("PMIx_Register_event_handler", (), || unsafe {
                        f(PMIX_SUCCESS, id, d.0)
                    });
                });
                return Ok(PMIX_SUCCESS);
            }
            return Ok(id as pmix_status_t);
        }
        let c = lifecycle::client()?;
        let id = c.events.register(&codes, &i, handler);
        match cbfunc {
            Some(f) => {
                let d = CbData(cbdata);
                c.register_events_nb(
                    &codes,
                    &i,
                    Box::new(move |r| {
                        let d = d;
                        let st = match r {
                            Ok(()) => PMIX_SUCCESS,
                            Err(e) => e.status(),
                        };
                        // SAFETY: the caller's callback with its cbdata.
                        entry::guard("PMIx_Register_event_handler", (), || unsafe {
                            f(st, id, d.0)
                        });
                    }),
                )?;
                Ok(PMIX_SUCCESS)
            }
            None => {
                wait(|d| c.register_events_nb(&codes, &i, d))?;
                Ok(id as pmix_status_t)
            }
        }
    })
}

/// See PMIx Standard v5, `PMIx_Deregister_event_handler`.
///
/// # Safety
/// `cbfunc` is NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Deregister_event_handler(
    evhdlr_ref: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Deregister_event_handler", || {
        if let Ok(s) = lifecycle::server() {
            s.events.deregister(evhdlr_ref);
            if cbfunc.is_some() {
                let cb = callback::op("PMIx_Deregister_event_handler", cbfunc, cbdata);
                s.post(move || cb(Ok(())))?;
            }
            return Ok(());
        }
        let c = lifecycle::client()?;
        // An id that names no handler is not an error: the reference completes it with
        // success (Open MPI's and OpenPMIx's examples deregister ids they never got).
        if let Some(codes) = c.events.codes_of(evhdlr_ref) {
            c.events.deregister(evhdlr_ref);
            c.deregister_events(&codes)?;
        }
        if cbfunc.is_some() {
            let cb = callback::op("PMIx_Deregister_event_handler", cbfunc, cbdata);
            c.post(move || cb(Ok(())))?;
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Notify_event`. From a client the server relays the event to
/// the processes in range; from a server it goes to its clients in range.
///
/// # Safety
/// `source` NULL or valid; `(info, ninfo)` valid; `cbfunc` NULL or called once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Notify_event(
    status: pmix_status_t,
    source: *const pmix_proc_t,
    range: pmix_data_range_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Notify_event", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let (src, i) = unsafe { (opt_proc(source)?, infos(info, ninfo)?) };
        let done = callback::op("PMIx_Notify_event", cbfunc, cbdata);
        if let Ok(s) = lifecycle::server() {
            let ev = Event {
                code: status,
                source: src.unwrap_or_else(|| s.cfg.id.clone()),
                range,
                info: i,
            };
            s.notify(ev)?;
            if cbfunc.is_some() {
                std::thread::spawn(move || done(Ok(())));
            }
            return Ok(());
        }
        let c = lifecycle::client()?;
        c.notify_nb(status, src, range, &i, done)
    })
}

// ---- fabric, distances, progress, store ---------------------------------------------

/// A fabric object of the caller's, written when its answer arrives.
#[derive(Debug, Clone, Copy)]
struct FabricPtr(*mut pmix_fabric_t);

// SAFETY: the caller keeps the object valid, and does not touch it, until the operation
// completes (the standard's contract for the non-blocking fabric calls).
unsafe impl Send for FabricPtr {}

impl FabricPtr {
    /// Hands `infos` to the object, releasing the array it held when `replace` is set (an
    /// update; a registration takes an object that holds nothing yet).
    ///
    /// # Safety
    /// The pointer is valid and nothing else uses the object now.
    unsafe fn store(self, infos: &[Info], replace: bool) -> Result<()> {
        let arr = if infos.is_empty() {
            core::ptr::null_mut()
        } else {
            convert::infos_to_c(infos)?
        };
        // SAFETY: per this function's contract.
        let f = unsafe { &mut *self.0 };
        if replace {
            // SAFETY: the array this library gave the object (libc-allocated, ninfo long).
            unsafe { convert::array_free(f.info.cast(), f.ninfo, PMIX_INFO) };
        }
        f.info = arr;
        f.ninfo = infos.len();
        Ok(())
    }
}

/// Starts a fabric request: to the host's `fabric` upcall in a server process, as the
/// reference's server does for an update (the reference sends a registration to its fabric
/// plugins, which Debian's build lacks); otherwise to this process's server, which hands it
/// to its host. `done` gets the answer's status and information.
fn fabric_start(
    op: pmix_fabric_operation_t,
    directives: Vec<Info>,
    index: usize,
    done: callback::InfoDone,
) -> Result<()> {
    use pmix_core::host::{Host, Upcall};
    if let Ok((server, host)) = lifecycle::server_host() {
        if !host.provides(Upcall::Fabric) {
            return Err(Error::NotSupported);
        }
        let dirs = if op == PMIX_FABRIC_UPDATE_INFO {
            vec![Info::new(
                PMIX_FABRIC_INDEX.to_bytes(),
                Value::Size(index as u64),
            )]
        } else {
            directives
        };
        host.fabric(
            &server.cfg.id,
            op,
            &dirs,
            Box::new(move |r| done(r.map(|i| (PMIX_SUCCESS, i)))),
        );
        return Ok(());
    }
    let c = lifecycle::client()?;
    if op == PMIX_FABRIC_UPDATE_INFO {
        c.fabric_update_nb(index, done)
    } else {
        c.fabric_register_nb(&directives, done)
    }
}

/// A fabric request whose answer fills `fabric`; `done` gets the final status.
///
/// # Safety
/// `fabric` is valid and left alone by the caller until `done` runs.
unsafe fn fabric_request(
    fabric: *mut pmix_fabric_t,
    op: pmix_fabric_operation_t,
    directives: Vec<Info>,
    done: impl FnOnce(pmix_status_t) + Send + 'static,
) -> Result<()> {
    // SAFETY: per this function's contract.
    let index = unsafe { ptr::req(fabric) }?.index;
    let f = FabricPtr(fabric);
    fabric_start(
        op,
        directives,
        index,
        Box::new(move |r| {
            let f = f;
            let status = match r {
                Ok((PMIX_SUCCESS, infos)) => {
                    // SAFETY: per this function's contract.
                    match unsafe { f.store(&infos, op == PMIX_FABRIC_UPDATE_INFO) } {
                        Ok(()) => PMIX_SUCCESS,
                        Err(e) => e.status(),
                    }
                }
                Ok((status, _)) => status,
                Err(e) => e.status(),
            };
            done(status);
        }),
    )
}

/// The blocking form of `fabric_request`.
///
/// # Safety
/// `fabric` is valid for the call.
unsafe fn fabric_blocking(
    fabric: *mut pmix_fabric_t,
    op: pmix_fabric_operation_t,
    directives: Vec<Info>,
) -> Result<pmix_status_t> {
    // SAFETY: per this function's contract; the call waits for the answer.
    wait(|d| unsafe { fabric_request(fabric, op, directives, move |s| d(Ok(s))) })
}

/// The completion of a non-blocking fabric call: the caller's callback, if any.
fn fabric_done(
    export: &'static str,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> impl FnOnce(pmix_status_t) + Send + 'static {
    let d = CbData(cbdata);
    move |status| {
        let d = d;
        entry::guard(export, (), || {
            if let Some(f) = cbfunc {
                // SAFETY: the caller's callback with its cbdata.
                unsafe { f(status, d.0) };
            }
        })
    }
}

/// See PMIx Standard v5, `PMIx_Fabric_register`: asks the server (and through it the host's
/// `fabric` upcall) about the fabric `directives` name, and stores the answer in
/// `fabric->info` / `fabric->ninfo`. The index stays the caller's to set, as with the
/// reference. `PMIX_ERR_NOT_SUPPORTED` when the host has no fabric upcall.
///
/// Ownership: `fabric->info` is libc-allocated; `PMIx_Fabric_deregister` releases it.
///
/// # Safety
/// `fabric` valid (constructed); `(directives, ndirs)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_register(
    fabric: *mut pmix_fabric_t,
    directives: *const pmix_info_t,
    ndirs: usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Fabric_register", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let d = unsafe { infos(directives, ndirs) }?;
        // SAFETY: per this function's contract.
        unsafe { fabric_blocking(fabric, PMIX_FABRIC_REQUEST_INFO, d) }
    })
}

/// See PMIx Standard v5, `PMIx_Fabric_register_nb`: as `PMIx_Fabric_register`, completed
/// through `cbfunc` (on the progress thread) with the answer's own status. (The reference
/// 4.2.2 passes `PMIX_SUCCESS` to `cbfunc` whatever the server answered.)
///
/// # Safety
/// As for `PMIx_Fabric_register`, with `fabric` left alone until `cbfunc` runs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_register_nb(
    fabric: *mut pmix_fabric_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_register_nb", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let d = unsafe { infos(directives, ndirs) }?;
        let done = fabric_done("PMIx_Fabric_register_nb", cbfunc, cbdata);
        // SAFETY: per this function's contract.
        unsafe { fabric_request(fabric, PMIX_FABRIC_REQUEST_INFO, d, done) }
    })
}

/// See PMIx Standard v5, `PMIx_Fabric_update`: asks again about the fabric of
/// `fabric->index` (the host gets it as `PMIX_FABRIC_INDEX`) and replaces `fabric->info`
/// with the answer. On an error the object is left as it was.
///
/// # Safety
/// `fabric` valid, its `info` this library's or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_update(fabric: *mut pmix_fabric_t) -> pmix_status_t {
    entry::status_code("PMIx_Fabric_update", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        unsafe { fabric_blocking(fabric, PMIX_FABRIC_UPDATE_INFO, Vec::new()) }
    })
}

/// See PMIx Standard v5, `PMIx_Fabric_update_nb`: as `PMIx_Fabric_update`, completed
/// through `cbfunc` with the answer's own status.
///
/// # Safety
/// As for `PMIx_Fabric_update`, with `fabric` left alone until `cbfunc` runs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_update_nb(
    fabric: *mut pmix_fabric_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_update_nb", || {
        lifecycle::require_init()?;
        let done = fabric_done("PMIx_Fabric_update_nb", cbfunc, cbdata);
        // SAFETY: per this function's contract.
        unsafe { fabric_request(fabric, PMIX_FABRIC_UPDATE_INFO, Vec::new(), done) }
    })
}

/// Releases what a registration stored in `fabric`: `info` becomes NULL and `ninfo` 0 (the
/// reference leaves `ninfo` as it was).
///
/// # Safety
/// `fabric` valid, its `info` this library's or NULL.
unsafe fn fabric_release(fabric: *mut pmix_fabric_t) -> Result<()> {
    // SAFETY: per this function's contract.
    let f = unsafe { ptr::req_mut(fabric) }?;
    // SAFETY: the array this library gave the object (libc-allocated, ninfo long).
    unsafe { convert::array_free(f.info.cast(), f.ninfo, PMIX_INFO) };
    f.info = core::ptr::null_mut();
    f.ninfo = 0;
    Ok(())
}

/// See PMIx Standard v5, `PMIx_Fabric_deregister`: releases the information a registration
/// stored in `fabric`. Nothing is sent: the server keeps no registration.
///
/// # Safety
/// As for `PMIx_Fabric_update`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_deregister(fabric: *mut pmix_fabric_t) -> pmix_status_t {
    entry::status("PMIx_Fabric_deregister", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        unsafe { fabric_release(fabric) }
    })
}

/// See PMIx Standard v5, `PMIx_Fabric_deregister_nb`: as `PMIx_Fabric_deregister`, done at
/// once: returns `PMIX_OPERATION_SUCCEEDED` and does not call `cbfunc`, as the reference.
///
/// # Safety
/// As for `PMIx_Fabric_update`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_deregister_nb(
    fabric: *mut pmix_fabric_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_Fabric_deregister_nb", || {
        let _ = (cbfunc, cbdata);
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        unsafe { fabric_release(fabric) }?;
        Ok(PMIX_OPERATION_SUCCEEDED)
    })
}

/// A distance request as the caller gave it: its cpuset (None: the process's own binding)
/// and directives. `topo` must be NULL (this machine's) or name hwloc: the distances are
/// always those of this machine, which is the topology `PMIx_Load_topology` gives.
struct DistanceRequest {
    cpuset: Option<pmix_core::values::Cpuset>,
    directives: Vec<Info>,
}

impl DistanceRequest {
    /// # Safety
    /// `topo` and `cpuset` NULL or valid; `(info, ninfo)` valid.
    unsafe fn from_c(
        topo: *const pmix_topology_t,
        cpuset: *const pmix_cpuset_t,
        info: *const pmix_info_t,
        ninfo: usize,
    ) -> Result<DistanceRequest> {
        // SAFETY: per this function's contract.
        if let Some(t) = unsafe { topo.as_ref() } {
            if t.source.is_null() {
                return Err(Error::BadParam);
            }
            // SAFETY: checked non-NULL; a C string per the contract.
            let tsrc = unsafe { core::ffi::CStr::from_ptr(t.source) }.to_bytes();
            if !pmix_core::topology::is_hwloc_source(tsrc) {
                return Err(Error::Status(
                    pmix_core::topology::PMIX_ERR_TAKE_NEXT_OPTION,
                ));
            }
        }
        // SAFETY: per this function's contract.
        let cpuset = match unsafe { cpuset.as_ref() } {
            Some(c) => Some(crate::hwloc::cpuset_from_c(c)?),
            None => None,
        };
        Ok(DistanceRequest {
            cpuset,
            // SAFETY: per this function's contract.
            directives: unsafe { infos(info, ninfo) }?,
        })
    }

    /// The distances computed here with hwloc, as the reference does.
    fn compute(&self) -> Result<Vec<pmix_core::values::DeviceDistance>> {
        use pmix_core::topology;
        let own;
        let cs = match &self.cpuset {
            Some(c) => c,
            None => {
                own = topology::own_cpuset()?;
                &own
            }
        };
        let (types, ids) = topology::distance_selection(&self.directives);
        let host = pmix_core::net::local_hostname().to_string();
        topology::local()?.device_distances(cs, types, &ids, &host)
    }

    /// The server to ask instead, as the reference's client does: when this process
    /// cannot load a topology and has a server.
    fn server_to_ask() -> Option<Arc<pmix_core::client::Client>> {
        if pmix_core::topology::local().is_ok() {
            return None;
        }
        lifecycle::client().ok().filter(|c| c.connected())
    }
}

fn distances_to_c(d: &[pmix_core::values::DeviceDistance]) -> Result<*mut pmix_device_distance_t> {
    let items: Vec<Value> = d
        .iter()
        .map(|x| Value::DeviceDist(Box::new(x.clone())))
        .collect();
    Ok(convert::array_to_c(&items, PMIX_DEVICE_DIST)?.cast())
}

/// See PMIx Standard v5, `PMIx_Compute_distances`: the distance from the CPUs of `cpuset`
/// to each network, OpenFabrics, GPU and coprocessor device of this machine (or those of
/// `PMIX_DEVICE_TYPE` / `PMIX_DEVICE_ID`), with the reference's measure. A NULL `topo` means
/// this machine's, a NULL `cpuset` this process's binding, as with the reference. A process
/// that cannot load a topology asks its server, as the reference's client does.
///
/// Ownership: `*distances` is libc-allocated; release with `PMIX_DEVICE_DIST_FREE`.
///
/// # Safety
/// `topo`, `cpuset` NULL or valid; `(info, ninfo)` valid; `distances`, `ndist` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    distances: *mut *mut pmix_device_distance_t,
    ndist: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let (out, n) = unsafe { (ptr::req_mut(distances)?, ptr::req_mut(ndist)?) };
        // SAFETY: per this function's contract.
        let req = unsafe { DistanceRequest::from_c(topo, cpuset, info, ninfo) }?;
        let d = match DistanceRequest::server_to_ask() {
            Some(c) => {
                wait(|done| c.compute_distances_nb(req.cpuset.as_ref(), &req.directives, done))?
            }
            None => req.compute()?,
        };
        *out = distances_to_c(&d)?;
        *n = d.len();
        Ok(())
    })
}

struct DistArray {
    ptr: *mut pmix_device_distance_t,
    n: usize,
}

unsafe extern "C" fn release_dists(cbdata: *mut c_void) {
    entry::guard("release_fn", (), || {
        if cbdata.is_null() {
            return;
        }
        // SAFETY: made below with Box::into_raw, released once.
        let a = unsafe { Box::from_raw(cbdata.cast::<DistArray>()) };
        // SAFETY: built by distances_to_c.
        unsafe { convert::array_free(a.ptr.cast(), a.n, PMIX_DEVICE_DIST) };
    })
}

/// See PMIx Standard v5, `PMIx_Compute_distances_nb`: as `PMIx_Compute_distances`, the
/// answer through `cbfunc` (on the progress thread); the array lives until its release
/// function is called.
///
/// # Safety
/// As for `PMIx_Compute_distances`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances_nb(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_device_dist_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let req = unsafe { DistanceRequest::from_c(topo, cpuset, info, ninfo) }?;
        let d = CbData(cbdata);
        let answer = move |r: Result<Vec<pmix_core::values::DeviceDistance>>| {
            let d = d;
            entry::guard("PMIx_Compute_distances_nb", (), || {
                let (status, ptr, n) = match r.and_then(|v| Ok((distances_to_c(&v)?, v.len()))) {
                    Ok((p, n)) => (PMIX_SUCCESS, p, n),
                    Err(e) => (e.status(), core::ptr::null_mut(), 0),
                };
                let rel = Box::into_raw(Box::new(DistArray { ptr, n })).cast::<c_void>();
                // SAFETY: the caller's callback; the array lives until release_dists runs.
                unsafe { f(status, ptr, n, d.0, Some(release_dists), rel) };
            })
        };
        // The callback runs on the progress thread, never inside this call: the server's
        // answer arrives there; one computed here is posted there.
        match DistanceRequest::server_to_ask() {
            Some(server) => {
                server.compute_distances_nb(req.cpuset.as_ref(), &req.directives, Box::new(answer))
            }
            None => {
                let r = req.compute();
                c.post(move || answer(r))
            }
        }
    })
}

/// See PMIx Standard v5, `PMIx_Progress`: nothing to do, the progress thread runs on its
/// own.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Progress() {
    entry::guard("PMIx_Progress", (), || ())
}

/// See PMIx Standard v5, `PMIx_Store_internal`: stores a value for `proc_` in this process
/// only.
///
/// # Safety
/// `proc_` valid; `key` a C string; `val` a valid value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Store_internal(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    val: *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Store_internal", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let p = convert::proc_from_c(unsafe { ptr::req(proc_) }?)?;
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let v = unsafe { convert::value_from_c(ptr::req(val)?) }?;
        c.store_internal(&p, key, v)
    })
}

/// Asks the host to act on a session (pause, resume, terminate, ... as `directives` say).
///
/// See OpenPMIx 5.0's `PMIx_Session_control`. No host can be asked yet: the request would go
/// to the host module's `session_control` slot, which a host built against the 4.2 headers
/// does not have (its module ends 8 bytes before it), and nothing tells the two apart, so
/// this library never reads that slot; OpenPMIx 5.0.11 does the same (docs/notes/abi-5.0.md).
///
/// # Returns
/// `PMIX_ERR_INIT` before init; otherwise `PMIX_ERR_NOT_SUPPORTED`, returned when `cbfunc` is
/// NULL, else given to `cbfunc` on the progress thread (the call itself then returns
/// `PMIX_SUCCESS`), as 5.0.11 answers.
///
/// # Safety
/// `(directives, ndirs)` is a valid array (not read); `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Session_control(
    session_id: u32,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_Session_control", || {
        lifecycle::require_init()?;
        if cbfunc.is_none() {
            return Ok(PMIX_ERR_NOT_SUPPORTED);
        }
        let cb = callback::info("PMIx_Session_control", cbfunc, cbdata);
        let answer = move || cb(Ok((PMIX_ERR_NOT_SUPPORTED, Vec::new())));
        match lifecycle::server() {
            Ok(s) => s.post(answer)?,
            Err(_) => lifecycle::client()?.post(answer)?,
        }
        Ok(PMIX_SUCCESS)
    })
}
