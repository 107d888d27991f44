//! info_list (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::{c_char, c_void};

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Info_list_start`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_start() -> *mut c_void {
    entry::guard("PMIx_Info_list_start", core::ptr::null_mut(), core::ptr::null_mut)
}

/// See PMIx Standard v5, `PMIx_Info_list_add`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_add(ptr: *mut c_void, key: *const c_char, value: *const c_void, r#type: pmix_data_type_t) -> pmix_status_t {
    entry::status("PMIx_Info_list_add", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Info_list_insert`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_insert(ptr: *mut c_void, info: *mut pmix_info_t) -> pmix_status_t {
    entry::status("PMIx_Info_list_insert", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Info_list_xfer`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_xfer(ptr: *mut c_void, info: *const pmix_info_t) -> pmix_status_t {
    entry::status("PMIx_Info_list_xfer", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Info_list_convert`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_convert(ptr: *mut c_void, par: *mut pmix_data_array_t) -> pmix_status_t {
    entry::status("PMIx_Info_list_convert", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Info_list_release`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_release(ptr: *mut c_void) {
    entry::guard("PMIx_Info_list_release", (), || ())
}
