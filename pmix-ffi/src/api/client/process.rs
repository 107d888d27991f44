//! Process management (the PMIx standard's chapter of that name): `PMIx_Abort`,
//! `PMIx_Spawn`/`_nb`, `PMIx_Connect`/`_nb` and `PMIx_Disconnect`/`_nb`. The chapter's
//! device distances are in `distances.rs`, its topology and cpuset calls in `api/topology.rs`.

use core::ffi::{c_char, c_int, c_void};

use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::{callback, convert, entry, lifecycle, ptr};

use super::common::{infos, procs};

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
/// to `nspace` (at least `PMIX_MAX_NSLEN + 1` bytes) when given. A launcher tool connected
/// to no server (`PMIX_LAUNCHER` with `PMIX_TOOL_DO_NOT_CONNECT`) starts the processes
/// itself, as clients of its own server, under the namespace `<its namespace>:<n>`.
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
        let ns = match lifecycle::server_only() {
            // A launcher tool connected to nobody starts the processes itself.
            None if let Some((s, me)) = lifecycle::unconnected_listening_tool() => {
                super::forkexec::spawn(&s, &me, &i, &a)?
            }
            // A server process spawns through its own host (OpenPMIx 5.0's rule).
            Some(s) => {
                let (tx, rx) = std::sync::mpsc::channel();
                s.spawn_for_self(
                    &i,
                    &a,
                    Box::new(move |r| {
                        let _ = tx.send(r);
                    }),
                )?;
                rx.recv().map_err(|_| Error::Unreach)??
            }
            None => c.spawn(&i, &a)?,
        };
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
        let done = callback::spawn("PMIx_Spawn_nb", cbfunc, cbdata);
        match lifecycle::server_only() {
            // A launcher tool connected to nobody starts the processes itself, then answers
            // from its server's progress thread.
            None if let Some((s, me)) = lifecycle::unconnected_listening_tool() => {
                let r = super::forkexec::spawn(&s, &me, &i, &a);
                s.post(move || done(r))
            }
            // A server process spawns through its own host (OpenPMIx 5.0's rule).
            Some(s) => s.spawn_for_self(&i, &a, done),
            None => c.spawn_nb(&i, &a, done),
        }
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
