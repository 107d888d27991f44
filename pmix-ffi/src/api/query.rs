//! query (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::c_void;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Query_info`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_info(queries: *mut pmix_query_t, nqueries: usize, results: *mut *mut pmix_info_t, nresults: *mut usize) -> pmix_status_t {
    entry::status("PMIx_Query_info", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Query_info_nb`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_info_nb(queries: *mut pmix_query_t, nqueries: usize, cbfunc: pmix_info_cbfunc_t, cbdata: *mut c_void) -> pmix_status_t {
    entry::status("PMIx_Query_info_nb", || Err(pmix_core::Error::NotSupported))
}
