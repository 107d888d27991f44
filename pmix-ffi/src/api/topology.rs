//! topology (placeholder signatures; filled in by their own change)

#![allow(unused_variables)]

use core::ffi::c_char;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Load_topology`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Load_topology(topo: *mut pmix_topology_t) -> pmix_status_t {
    entry::status("PMIx_Load_topology", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Topology_destruct`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Topology_destruct(topo: *mut pmix_topology_t) {
    entry::guard("PMIx_Topology_destruct", (), || ())
}

/// See PMIx Standard v5, `PMIx_Parse_cpuset_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Parse_cpuset_string(cpuset_string: *const c_char, cpuset: *mut pmix_cpuset_t) -> pmix_status_t {
    entry::status("PMIx_Parse_cpuset_string", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Get_cpuset`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_cpuset(cpuset: *mut pmix_cpuset_t, ref_: pmix_bind_envelope_t) -> pmix_status_t {
    entry::status("PMIx_Get_cpuset", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_Cpuset_destruct`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Cpuset_destruct(cpuset: *mut pmix_cpuset_t) {
    entry::guard("PMIx_Cpuset_destruct", (), || ())
}

/// See PMIx Standard v5, `PMIx_Get_relative_locality`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_relative_locality(locality1: *const c_char, locality2: *const c_char, locality: *mut pmix_locality_t) -> pmix_status_t {
    entry::status("PMIx_Get_relative_locality", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_server_generate_locality_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_generate_locality_string(cpuset: *const pmix_cpuset_t, locality: *mut *mut c_char) -> pmix_status_t {
    entry::status("PMIx_server_generate_locality_string", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_server_generate_cpuset_string`.
///
/// NOT IMPLEMENTED YET.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_generate_cpuset_string(cpuset: *const pmix_cpuset_t, cpuset_string: *mut *mut c_char) -> pmix_status_t {
    entry::status("PMIx_server_generate_cpuset_string", || Err(pmix_core::Error::NotSupported))
}
