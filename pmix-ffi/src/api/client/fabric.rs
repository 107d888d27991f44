//! Fabric support (the PMIx standard's "Fabric Support Definitions" chapter):
//! `PMIx_Fabric_register`, `PMIx_Fabric_update` and `PMIx_Fabric_deregister`, each with its
//! `_nb` form.

use core::ffi::c_void;

use pmix_core::{Error, Info, Result, Value};
use pmix_sys::*;

use crate::callback::{self, CbData};
use crate::{convert, entry, lifecycle, ptr};

use super::common::{infos, wait};

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
