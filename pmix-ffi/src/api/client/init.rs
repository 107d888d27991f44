//! Client initialization and finalization (the PMIx standard's chapter of that name):
//! `PMIx_Init`, `PMIx_Finalize`, `PMIx_Initialized` and `PMIx_Progress`. (`PMIx_Get_version`,
//! of the same chapter, is with the other strings in `api/strings.rs`.)

use core::ffi::c_int;

use pmix_core::Error;
use pmix_sys::*;

use crate::{convert, entry, lifecycle};

use super::common::infos;

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

/// See PMIx Standard v5, `PMIx_Progress`: nothing to do, the progress thread runs on its
/// own.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Progress() {
    entry::guard("PMIx_Progress", (), || ())
}
