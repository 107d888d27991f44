//! Process groups (the PMIx standard's "Process Sets and Groups" chapter):
//! `PMIx_Group_construct`, `_invite`, `_join`, `_leave` and `_destruct`, each with its `_nb`
//! form.

use core::ffi::{c_char, c_void};

use pmix_core::{Error, Info, Result};
use pmix_sys::*;

use crate::{callback, convert, entry, lifecycle, ptr};

use super::common::{infos, procs, wait};

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
