//! regex (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::c_char;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_generate_regex`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_generate_regex(input: *const c_char, regex: *mut *mut c_char) -> pmix_status_t {
    entry::status("PMIx_generate_regex", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_generate_ppn`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_generate_ppn(input: *const c_char, ppn: *mut *mut c_char) -> pmix_status_t {
    entry::status("PMIx_generate_ppn", || Err(pmix_core::Error::NotSupported))
}
