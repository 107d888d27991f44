//! Job management and reporting (the PMIx standard's chapter of that name):
//! `PMIx_Allocation_request`, `PMIx_Job_control`, `PMIx_Process_monitor` and `PMIx_Log`, each
//! with its `_nb` form, and OpenPMIx 5.0's `PMIx_Session_control`.

use core::ffi::c_void;

use pmix_sys::*;

use crate::{callback, convert, entry, lifecycle, ptr};

use super::common::{infos, infos_blocking, procs, wait};

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
        match lifecycle::server_only() {
            // A server process logs itself: `pmix_core`'s `server/log.rs`.
            Some(s) => wait(|done| s.log(d, dirs, done)),
            None => wait(|done| c.log_nb(&d, &dirs, done)),
        }
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
        let done = callback::op("PMIx_Log_nb", cbfunc, cbdata);
        match lifecycle::server_only() {
            // A server process logs itself: `pmix_core`'s `server/log.rs`.
            Some(s) => s.log(d, dirs, done),
            None => c.log_nb(&d, &dirs, done),
        }
    })
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
        unsafe {
            infos_blocking(results, nresults, |done| match lifecycle::server_only() {
                // A server process hands it to its own host (OpenPMIx 5.0's rule).
                Some(s) => s.job_control_for_self(&t, &d, done),
                None => c.job_control_nb(&t, &d, done),
            })
        }
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
        let done = callback::info("PMIx_Job_control_nb", cbfunc, cbdata);
        match lifecycle::server_only() {
            // A server process hands it to its own host (OpenPMIx 5.0's rule).
            Some(s) => s.job_control_for_self(&t, &d, done),
            None => c.job_control_nb(&t, &d, done),
        }
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
