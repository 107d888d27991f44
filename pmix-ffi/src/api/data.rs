//! data (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::c_void;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Data_pack`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_pack(target: *const pmix_proc_t, buffer: *mut pmix_data_buffer_t, src: *mut c_void, num_vals: i32, r#type: pmix_data_type_t) -> pmix_status_t {
    entry::status("PMIx_Data_pack", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_unpack`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_unpack(source: *const pmix_proc_t, buffer: *mut pmix_data_buffer_t, dest: *mut c_void, max_num_values: *mut i32, r#type: pmix_data_type_t) -> pmix_status_t {
    entry::status("PMIx_Data_unpack", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_copy`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_copy(dest: *mut *mut c_void, src: *mut c_void, r#type: pmix_data_type_t) -> pmix_status_t {
    entry::status("PMIx_Data_copy", || Err(pmix_core::Error::NotSupported))
}


/// See PMIx Standard v5, `PMIx_Data_copy_payload`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_copy_payload(dest: *mut pmix_data_buffer_t, src: *mut pmix_data_buffer_t) -> pmix_status_t {
    entry::status("PMIx_Data_copy_payload", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_unload`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_unload(buffer: *mut pmix_data_buffer_t, payload: *mut pmix_byte_object_t) -> pmix_status_t {
    entry::status("PMIx_Data_unload", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_load`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_load(buffer: *mut pmix_data_buffer_t, payload: *mut pmix_byte_object_t) -> pmix_status_t {
    entry::status("PMIx_Data_load", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_embed`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_embed(buffer: *mut pmix_data_buffer_t, payload: *const pmix_byte_object_t) -> pmix_status_t {
    entry::status("PMIx_Data_embed", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Data_compress`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_compress(inbytes: *const u8, size: usize, outbytes: *mut *mut u8, nbytes: *mut usize) -> bool {
    entry::guard("PMIx_Data_compress", false, || false)
}

/// See PMIx Standard v5, `PMIx_Data_decompress`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_decompress(inbytes: *const u8, size: usize, outbytes: *mut *mut u8, nbytes: *mut usize) -> bool {
    entry::guard("PMIx_Data_decompress", false, || false)
}
