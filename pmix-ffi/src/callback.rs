//! Completions of non-blocking calls: each wraps a C callback and its `cbdata` into a Rust
//! closure that the core runs (on the progress thread) once the answer is known. The C
//! callback runs inside the panic guard, and the memory it is handed is libc-allocated and
//! released after it returns (or, for info arrays, by the release function it is given).

use core::ffi::{c_char, c_void};

use pmix_core::{Info, PStr, Pdata, Result, Value};
use pmix_sys::*;

use crate::{convert, entry};

/// The completion of a call answered by a status and infos.
pub(crate) type InfoDone = Box<dyn FnOnce(Result<(pmix_status_t, Vec<Info>)>) + Send>;

/// A C callback's opaque argument, carried to the thread that answers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CbData(pub(crate) *mut c_void);

// SAFETY: `cbdata` is an opaque token the caller gave us to hand back to its own callback;
// the PMIx API lets that callback run on the library's progress thread.
unsafe impl Send for CbData {}

fn status_of<T>(r: &Result<T>) -> pmix_status_t {
    match r {
        Ok(_) => PMIX_SUCCESS,
        Err(e) => e.status(),
    }
}

/// A completion that calls an operation callback with the status.
pub(crate) fn op(
    export: &'static str,
    f: pmix_op_cbfunc_t,
    d: *mut c_void,
) -> Box<dyn FnOnce(Result<()>) + Send> {
    let d = CbData(d);
    Box::new(move |r| {
        let d = d;
        entry::guard(export, (), || {
            if let Some(f) = f {
                // SAFETY: the caller gave this callback and cbdata for this completion.
                unsafe { f(status_of(&r), d.0) };
            }
        })
    })
}

struct InfoArray {
    ptr: *mut pmix_info_t,
    n: usize,
}

unsafe extern "C" fn release_infos(cbdata: *mut c_void) {
    entry::guard("release_fn", (), || {
        if cbdata.is_null() {
            return;
        }
        // SAFETY: made by `info` below with Box::into_raw, released once.
        let a = unsafe { Box::from_raw(cbdata.cast::<InfoArray>()) };
        // SAFETY: the array was built by infos_to_c.
        unsafe { convert::array_free(a.ptr.cast(), a.n, PMIX_INFO) };
    })
}

/// The op-callback form of [`release_infos`] (`pmix_setup_application_cbfunc_t` hands the
/// host a `pmix_op_cbfunc_t` to release the array with).
unsafe extern "C" fn release_infos_op(_status: pmix_status_t, cbdata: *mut c_void) {
    // SAFETY: per release_infos.
    unsafe { release_infos(cbdata) }
}

/// Calls a setup-application callback with `infos`, which stay valid until the host calls
/// the release callback it is given.
///
/// # Safety
/// `f` is the host's callback and `d` its data.
pub(crate) unsafe fn setup_application_done(
    f: unsafe extern "C" fn(
        pmix_status_t,
        *mut pmix_info_t,
        usize,
        *mut c_void,
        pmix_op_cbfunc_t,
        *mut c_void,
    ),
    d: *mut c_void,
    infos: &[pmix_core::Info],
) {
    let (status, ptr, n, release, rel): (_, _, _, pmix_op_cbfunc_t, _) =
        match convert::infos_to_c(infos) {
            Ok(ptr) if !infos.is_empty() => {
                let n = infos.len();
                let rel = Box::into_raw(Box::new(InfoArray { ptr, n })).cast::<c_void>();
                (PMIX_SUCCESS, ptr, n, Some(release_infos_op), rel)
            }
            Ok(_) => (
                PMIX_SUCCESS,
                core::ptr::null_mut(),
                0,
                None,
                core::ptr::null_mut(),
            ),
            Err(e) => (
                e.status(),
                core::ptr::null_mut(),
                0,
                None,
                core::ptr::null_mut(),
            ),
        };
    // SAFETY: the host's callback; an array lives until release_infos_op runs.
    unsafe { f(status, ptr, n, d, release, rel) };
}

/// A completion that calls an info callback with a status and results. The results stay
/// valid until the callee calls the release function it is given.
pub(crate) fn info(export: &'static str, f: pmix_info_cbfunc_t, d: *mut c_void) -> InfoDone {
    let d = CbData(d);
    Box::new(move |r| {
        let d = d;
        entry::guard(export, (), || {
            let Some(f) = f else { return };
            let (status, infos) = match r {
                Ok((s, i)) => (s, i),
                Err(e) => (e.status(), Vec::new()),
            };
            let (ptr, n, status) = match convert::infos_to_c(&infos) {
                Ok(p) => (p, infos.len(), status),
                Err(e) => (core::ptr::null_mut(), 0, e.status()),
            };
            let rel = Box::into_raw(Box::new(InfoArray { ptr, n })).cast::<c_void>();
            // SAFETY: the caller's callback; the array lives until release_infos runs.
            unsafe { f(status, ptr, n, d.0, Some(release_infos), rel) };
        })
    })
}

/// A completion that calls a value callback; the value is released after it returns.
pub(crate) fn value(
    export: &'static str,
    f: pmix_value_cbfunc_t,
    d: *mut c_void,
) -> Box<dyn FnOnce(Result<Value>) + Send> {
    let d = CbData(d);
    Box::new(move |r| {
        let d = d;
        entry::guard(export, (), || {
            let Some(f) = f else { return };
            match r.and_then(|v| convert::value_to_c(&v)) {
                Ok(mut cv) => {
                    // SAFETY: the caller's callback; the value is ours until it returns.
                    unsafe { f(PMIX_SUCCESS, &mut cv, d.0) };
                    // SAFETY: built by value_to_c.
                    unsafe { convert::value_destruct(&mut cv) };
                }
                // SAFETY: the caller's callback.
                Err(e) => unsafe { f(e.status(), core::ptr::null_mut(), d.0) },
            }
        })
    })
}

/// A completion that calls a lookup callback with the published data found.
pub(crate) fn lookup(
    export: &'static str,
    f: pmix_lookup_cbfunc_t,
    d: *mut c_void,
) -> Box<dyn FnOnce(Result<Vec<Pdata>>) + Send> {
    let d = CbData(d);
    Box::new(move |r| {
        let d = d;
        entry::guard(export, (), || {
            let Some(f) = f else { return };
            let (status, data) = match r {
                Ok(v) => (PMIX_SUCCESS, v),
                Err(e) => (e.status(), Vec::new()),
            };
            let items: Vec<Value> = data
                .into_iter()
                .map(|p| Value::Pdata(Box::new(p)))
                .collect();
            match convert::array_to_c(&items, PMIX_PDATA) {
                Ok(arr) => {
                    // SAFETY: the caller's callback; the array is ours until it returns.
                    unsafe { f(status, arr.cast(), items.len(), d.0) };
                    // SAFETY: built by array_to_c.
                    unsafe { convert::array_free(arr, items.len(), PMIX_PDATA) };
                }
                // SAFETY: the caller's callback.
                Err(e) => unsafe { f(e.status(), core::ptr::null_mut(), 0, d.0) },
            }
        })
    })
}

/// A completion that calls a spawn callback with the new namespace.
pub(crate) fn spawn(
    export: &'static str,
    f: pmix_spawn_cbfunc_t,
    d: *mut c_void,
) -> Box<dyn FnOnce(Result<PStr>) + Send> {
    let d = CbData(d);
    Box::new(move |r| {
        let d = d;
        entry::guard(export, (), || {
            let Some(f) = f else { return };
            match r {
                Ok(ns) => {
                    let mut buf = [0 as c_char; PMIX_MAX_NSLEN + 1];
                    crate::ptr::load_fixed(&mut buf, ns.as_bytes());
                    // SAFETY: the caller's callback; the string lives until it returns.
                    unsafe { f(PMIX_SUCCESS, buf.as_mut_ptr(), d.0) };
                }
                // SAFETY: the caller's callback.
                Err(e) => unsafe { f(e.status(), core::ptr::null_mut(), d.0) },
            }
        })
    })
}

/// Copies infos into a caller's out-parameters (`*results`, `*nresults`), libc-allocated.
///
/// # Safety
/// `results` and `nresults` are NULL or writable.
pub(crate) unsafe fn put_results(
    infos: &[Info],
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> Result<()> {
    if results.is_null() || nresults.is_null() {
        return Ok(());
    }
    let arr = convert::infos_to_c(infos)?;
    // SAFETY: checked non-NULL; writable per the contract.
    unsafe {
        *results = arr;
        *nresults = infos.len();
    }
    Ok(())
}

/// Clears out-parameters before a call fills them.
///
/// # Safety
/// As for `put_results`.
pub(crate) unsafe fn clear_results(results: *mut *mut pmix_info_t, nresults: *mut usize) {
    // SAFETY: checked non-NULL.
    unsafe {
        if !results.is_null() {
            *results = core::ptr::null_mut();
        }
        if !nresults.is_null() {
            *nresults = 0;
        }
    }
}

/// A NUL-terminated `char**` list as byte strings (NULL is empty).
///
/// # Safety
/// `p` is NULL or a NULL-terminated array of C strings.
pub(crate) unsafe fn keys(p: *mut *mut c_char) -> Vec<Vec<u8>> {
    // SAFETY: forwarded contract.
    unsafe { crate::ptr::argv(p) }
        .into_iter()
        .map(PStr::into_bytes)
        .collect()
}
