//! The helpers the client families share: C arrays of procs and infos read into the
//! core's types, and the blocking forms built on the `_nb` calls (`wait`, `infos_blocking`).

use pmix_core::{Error, Info, Proc, Result};
use pmix_sys::*;

use crate::{callback, convert, ptr};

/// # Safety
/// `p` is NULL or a valid proc.
pub(super) unsafe fn opt_proc(p: *const pmix_proc_t) -> Result<Option<Proc>> {
    // SAFETY: forwarded contract.
    match unsafe { p.as_ref() } {
        Some(p) => Ok(Some(convert::proc_from_c(p)?)),
        None => Ok(None),
    }
}

/// # Safety
/// `(p, n)` is a valid array.
pub(super) unsafe fn procs(p: *const pmix_proc_t, n: usize) -> Result<Vec<Proc>> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(p, n) }?
        .iter()
        .map(convert::proc_from_c)
        .collect()
}

/// # Safety
/// `(p, n)` is a valid array of valid infos.
pub(super) unsafe fn infos(p: *const pmix_info_t, n: usize) -> Result<Vec<Info>> {
    // SAFETY: forwarded contract.
    unsafe { convert::infos_from_c(p, n) }
}

/// Runs an `_nb` call and waits for its completion (the blocking forms).
pub(super) fn wait<T: Send + 'static>(
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

/// A blocking call answered by a status and infos: fills `results` and returns the status.
///
/// # Safety
/// `results`, `nresults` NULL or writable.
pub(super) unsafe fn infos_blocking(
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
