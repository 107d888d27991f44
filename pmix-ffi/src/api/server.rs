//! The server API of `pmix_server.h`. Until the server role exists, every call that needs
//! an initialized server answers `PMIX_ERR_INIT`, as the reference does before
//! `PMIx_server_init`.

#![allow(unused_variables)]

use core::ffi::{c_char, c_int, c_void};

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_server_init`.
///
/// NOT IMPLEMENTED YET: returns `PMIX_ERR_NOT_SUPPORTED` until the server role exists.
///
/// # Safety
/// `module` is NULL or a valid module; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_init(
    module: *mut pmix_server_module_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_server_init", || Err(pmix_core::Error::NotSupported))
}

/// See PMIx Standard v5, `PMIx_server_finalize`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_finalize() -> pmix_status_t {
    entry::status("PMIx_server_finalize", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_server_register_nspace`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_nspace(
    nspace: *const c_char,
    nlocalprocs: c_int,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_register_nspace",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_deregister_nspace`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so `cbfunc` (if any) is called with `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_nspace(
    nspace: *const c_char,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) {
    crate::lifecycle::op_callback(
        "PMIx_server_deregister_nspace",
        cbfunc,
        cbdata,
        PMIX_ERR_INIT,
    )
}

/// See PMIx Standard v5, `PMIx_server_register_client`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_client(
    proc_: *const pmix_proc_t,
    uid: libc::uid_t,
    gid: libc::gid_t,
    server_object: *mut c_void,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_register_client",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_deregister_client`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so `cbfunc` (if any) is called with `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_client(
    proc_: *const pmix_proc_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) {
    crate::lifecycle::op_callback(
        "PMIx_server_deregister_client",
        cbfunc,
        cbdata,
        PMIX_ERR_INIT,
    )
}

/// See PMIx Standard v5, `PMIx_server_setup_fork`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_fork(
    proc_: *const pmix_proc_t,
    env: *mut *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_server_setup_fork", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_server_dmodex_request`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_dmodex_request(
    proc_: *const pmix_proc_t,
    cbfunc: pmix_dmodex_response_fn_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_server_dmodex_request", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_server_setup_application`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_application(
    nspace: *const c_char,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_setup_application_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_setup_application",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_setup_local_support`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_local_support(
    nspace: *const c_char,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_setup_local_support",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_IOF_deliver`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_IOF_deliver(
    source: *const pmix_proc_t,
    channel: pmix_iof_channel_t,
    bo: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_server_IOF_deliver", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_server_collect_inventory`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_collect_inventory(
    directives: *mut pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_collect_inventory",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_deliver_inventory`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deliver_inventory(
    info: *mut pmix_info_t,
    ninfo: usize,
    directives: *mut pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_deliver_inventory",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_define_process_set`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_define_process_set(
    members: *const pmix_proc_t,
    nmembers: usize,
    pset_name: *const c_char,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_define_process_set",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_delete_process_set`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_delete_process_set(pset_name: *mut c_char) -> pmix_status_t {
    entry::status(
        "PMIx_server_delete_process_set",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_register_resources`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_resources(
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_register_resources",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_server_deregister_resources`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_resources(
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_server_deregister_resources",
        crate::lifecycle::require_init,
    )
}
