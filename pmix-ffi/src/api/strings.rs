//! strings (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::{c_char, c_void};

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Error_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Error_string(status: pmix_status_t) -> *const c_char {
    entry::guard("PMIx_Error_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Proc_state_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_state_string(state: pmix_proc_state_t) -> *const c_char {
    entry::guard("PMIx_Proc_state_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Scope_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Scope_string(scope: pmix_scope_t) -> *const c_char {
    entry::guard("PMIx_Scope_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Persistence_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Persistence_string(persist: pmix_persistence_t) -> *const c_char {
    entry::guard("PMIx_Persistence_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Data_range_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_range_string(range: pmix_data_range_t) -> *const c_char {
    entry::guard("PMIx_Data_range_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Data_type_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_type_string(r#type: pmix_data_type_t) -> *const c_char {
    entry::guard("PMIx_Data_type_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Alloc_directive_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Alloc_directive_string(directive: pmix_alloc_directive_t) -> *const c_char {
    entry::guard("PMIx_Alloc_directive_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_IOF_channel_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_channel_string(channel: pmix_iof_channel_t) -> *const c_char {
    entry::guard("PMIx_IOF_channel_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Job_state_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_state_string(state: pmix_job_state_t) -> *const c_char {
    entry::guard("PMIx_Job_state_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Link_state_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Link_state_string(state: pmix_link_state_t) -> *const c_char {
    entry::guard("PMIx_Link_state_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Device_type_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_type_string(r#type: pmix_device_type_t) -> *const c_char {
    entry::guard("PMIx_Device_type_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Value_comparison_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_comparison_string(cmp: pmix_value_cmp_t) -> *const c_char {
    entry::guard("PMIx_Value_comparison_string", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Info_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_string(info: *const pmix_info_t) -> *mut c_char {
    entry::guard("PMIx_Info_string", core::ptr::null_mut(), core::ptr::null_mut)
}

/// See PMIx Standard v5, `PMIx_Value_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_string(value: *const pmix_value_t) -> *mut c_char {
    entry::guard("PMIx_Value_string", core::ptr::null_mut(), core::ptr::null_mut)
}

/// See PMIx Standard v5, `PMIx_Info_directives_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_directives_string(directives: pmix_info_directives_t) -> *mut c_char {
    entry::guard("PMIx_Info_directives_string", core::ptr::null_mut(), core::ptr::null_mut)
}

/// See PMIx Standard v5, `PMIx_Get_version`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_version() -> *const c_char {
    entry::guard("PMIx_Get_version", core::ptr::null(), core::ptr::null)
}

/// See PMIx Standard v5, `PMIx_Data_print`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_print(output: *mut *mut c_char, prefix: *mut c_char, src: *mut c_void, r#type: pmix_data_type_t) -> pmix_status_t {
    entry::status("PMIx_Data_print", || Err(pmix_core::Error::NotSupported))
}
