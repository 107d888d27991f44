//! attributes (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::c_char;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Register_attributes`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Register_attributes(function: *mut c_char, attrs: *mut *mut c_char) -> pmix_status_t {
    entry::status("PMIx_Register_attributes", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Get_attribute_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_attribute_string(attribute: *const c_char) -> *const c_char {
    entry::guard("PMIx_Get_attribute_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Get_attribute_name`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_attribute_name(attrstring: *const c_char) -> *const c_char {
    entry::guard("PMIx_Get_attribute_name", core::ptr::null(), core::ptr::null)
}
