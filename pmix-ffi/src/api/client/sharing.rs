//! Data access and sharing, and synchronization (the PMIx standard's chapters "Data Access
//! and Sharing" and "Synchronization"): `PMIx_Put`, `PMIx_Commit`, `PMIx_Get`/`_nb`,
//! `PMIx_Store_internal` and `PMIx_Fence`/`_nb`.

use core::ffi::{c_char, c_void};

use pmix_core::{Error, Value};
use pmix_sys::*;

use crate::{callback, convert, entry, lifecycle, ptr};

use super::common::{infos, opt_proc, procs};

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

/// This library's version as `PMIX_VERSION_NUMERIC` gives it: 0x00MMmmrr (5.0.11:
/// 0x0005000b, as `PMIX_NUMERIC_VERSION` in `pmix_version.h`).
const NUMERIC_VERSION: u32 = {
    const fn num(s: &str) -> u32 {
        let b = s.as_bytes();
        let mut n = 0;
        let mut i = 0;
        while i < b.len() {
            n = n * 10 + (b[i] - b'0') as u32;
            i += 1;
        }
        n
    }
    (num(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (num(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | num(env!("CARGO_PKG_VERSION_PATCH"))
};

/// What `PMIx_Get` answers without a lookup, as OpenPMIx 5.0's does (PRRTE relies on the first
/// two): the caller's own identity for `PMIX_PROCID` with no process named, the library's
/// numeric version for `PMIX_VERSION_NUMERIC`, and the caller's rank for `PMIX_RANK` of its
/// own namespace (or an empty one) with `PMIX_RANK_INVALID`.
fn own_answer(me: &pmix_core::Proc, p: Option<&pmix_core::Proc>, key: &[u8]) -> Option<Value> {
    if p.is_none() && key == PMIX_PROCID.to_bytes() {
        return Some(Value::Proc(me.clone()));
    }
    if key == PMIX_VERSION_NUMERIC.to_bytes() {
        return Some(Value::Uint32(NUMERIC_VERSION));
    }
    if let Some(p) = p
        && p.rank == PMIX_RANK_INVALID
        && (p.nspace.is_empty() || p.nspace == me.nspace)
        && key == PMIX_RANK.to_bytes()
    {
        return Some(Value::ProcRank(me.rank));
    }
    None
}

/// The process a `PMIx_Get` without a key asks about: no process, or a rank that names no
/// one process (WILDCARD, ...), is `BadParam`, as with OpenPMIx.
fn one_proc(p: Option<pmix_core::Proc>) -> Result<pmix_core::Proc, Error> {
    p.filter(|p| p.rank < PMIX_RANK_VALID)
        .ok_or(Error::BadParam)
}

/// `PMIx_Get` without a key (of [`one_proc`]): all of one process's data, as a data array
/// of infos. A server process (not also the client of another server) answers from what its
/// clients committed, as OpenPMIx's server does (PRRTE asks it so when a connect spans
/// nodes); a client from what it holds, asking its server if need be
/// (`pmix_core::client::Client::get_all`).
fn get_all(
    c: &pmix_core::client::Client,
    p: &pmix_core::Proc,
    info: &[pmix_core::Info],
) -> Result<Value, Error> {
    if let Some(s) = lifecycle::server_only()
        && *p != c.me
    {
        let scope = pmix_core::datastore::GetQuals::parse(info).scope;
        let all = s.proc_data(&c.normalize(p), scope);
        if all.is_empty() {
            return Err(Error::NotFound);
        }
        return Ok(Value::info_array(all));
    }
    c.get_all(p, info)
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
        let v = match k {
            None => get_all(&c, &one_proc(p)?, &i)?,
            Some(k) => match own_answer(&c.me, p.as_ref(), k.as_bytes()) {
                Some(v) => v,
                None => c.get(&p.unwrap_or_else(|| c.me.clone()), k.as_bytes(), &i)?,
            },
        };
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
        let Some(k) = k else {
            let p = one_proc(p)?;
            let done = callback::value("PMIx_Get_nb", cbfunc, cbdata);
            // May wait for the server: answered on a thread of its own.
            std::thread::spawn(move || done(get_all(&c, &p, &i)));
            return Ok(());
        };
        let done = callback::value("PMIx_Get_nb", cbfunc, cbdata);
        if let Some(v) = own_answer(&c.me, p.as_ref(), k.as_bytes()) {
            // Answered on another thread, as every non-blocking completion.
            std::thread::spawn(move || done(Ok(v)));
            return Ok(());
        }
        c.get_nb(&p.unwrap_or_else(|| c.me.clone()), k.as_bytes(), &i, done)
    })
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
