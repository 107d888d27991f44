//! The client API of `pmix.h`. Until the client role exists, every call that needs a
//! session answers `PMIX_ERR_INIT`, as the reference does before `PMIx_Init`.

#![allow(unused_variables)]

use core::ffi::{c_char, c_int, c_void};

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_Init`.
///
/// # Returns
/// `PMIX_ERR_UNREACH` when no server is named in the environment (the reference's answer
/// without a server); `PMIX_ERR_NOT_SUPPORTED` when one is, since the client role is not
/// implemented yet.
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
        crate::lifecycle::client_init(proc_, info, ninfo)
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
    entry::status("PMIx_Finalize", || Ok(()))
}

/// See PMIx Standard v5, `PMIx_Initialized`: 1 when initialized, else 0.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Initialized() -> c_int {
    entry::guard("PMIx_Initialized", 0, || {
        c_int::from(crate::lifecycle::initialized())
    })
}

/// See PMIx Standard v5, `PMIx_Abort`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Abort(
    status: c_int,
    msg: *const c_char,
    procs: *mut pmix_proc_t,
    nprocs: usize,
) -> pmix_status_t {
    entry::status("PMIx_Abort", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Put`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Put(
    scope: pmix_scope_t,
    key: *const c_char,
    val: *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Put", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Commit`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Commit() -> pmix_status_t {
    entry::status("PMIx_Commit", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fence`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fence(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Fence", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fence_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fence_nb(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fence_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Get`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    val: *mut *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Get", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Get_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_nb(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_value_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Get_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Publish`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish(info: *const pmix_info_t, ninfo: usize) -> pmix_status_t {
    entry::status("PMIx_Publish", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Publish_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Publish_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Lookup`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup(
    data: *mut pmix_pdata_t,
    ndata: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Lookup", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Lookup_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_lookup_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Lookup_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Unpublish`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Unpublish_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Spawn`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Spawn(
    job_info: *const pmix_info_t,
    ninfo: usize,
    apps: *const pmix_app_t,
    napps: usize,
    nspace: *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Spawn", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Spawn_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Spawn_nb(
    job_info: *const pmix_info_t,
    ninfo: usize,
    apps: *const pmix_app_t,
    napps: usize,
    cbfunc: pmix_spawn_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Spawn_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Connect`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Connect(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Connect", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Connect_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Connect_nb(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Connect_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Disconnect`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disconnect(
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Disconnect", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Disconnect_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disconnect_nb(
    ranges: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Disconnect_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Resolve_peers`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Resolve_peers(
    nodename: *const c_char,
    nspace: *const c_char,
    procs: *mut *mut pmix_proc_t,
    nprocs: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Resolve_peers", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Resolve_nodes`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Resolve_nodes(
    nspace: *const c_char,
    nodelist: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Resolve_nodes", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Log`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Log(
    data: *const pmix_info_t,
    ndata: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
) -> pmix_status_t {
    entry::status("PMIx_Log", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Log_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Log_nb(
    data: *const pmix_info_t,
    ndata: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Log_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Allocation_request`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Allocation_request(
    directive: pmix_alloc_directive_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Allocation_request", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Allocation_request_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Allocation_request_nb(
    directive: pmix_alloc_directive_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Allocation_request_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Job_control`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_control(
    targets: *const pmix_proc_t,
    ntargets: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Job_control", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Job_control_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_control_nb(
    targets: *const pmix_proc_t,
    ntargets: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Job_control_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Process_monitor`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Process_monitor(
    monitor: *const pmix_info_t,
    error: pmix_status_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Process_monitor", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Process_monitor_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Process_monitor_nb(
    monitor: *const pmix_info_t,
    error: pmix_status_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Process_monitor_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Get_credential`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential(
    info: *const pmix_info_t,
    ninfo: usize,
    credential: *mut pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Get_credential_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_credential_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Validate_credential`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Validate_credential", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Validate_credential_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential_nb(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_validation_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_Validate_credential_nb",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_Group_construct`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_construct(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_construct", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_construct_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_construct_nb(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_construct_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_invite`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_invite(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresult: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_invite", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_invite_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_invite_nb(
    grp: *const c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_invite_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_join`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_join(
    grp: *const c_char,
    leader: *const pmix_proc_t,
    opt: pmix_group_opt_t,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresult: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_join", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_join_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_join_nb(
    grp: *const c_char,
    leader: *const pmix_proc_t,
    opt: pmix_group_opt_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_join_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_leave`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_leave(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_leave", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_leave_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_leave_nb(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_leave_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_destruct`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_destruct(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Group_destruct", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Group_destruct_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Group_destruct_nb(
    grp: *const c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Group_destruct_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Register_event_handler`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Register_event_handler(
    codes: *mut pmix_status_t,
    ncodes: usize,
    info: *mut pmix_info_t,
    ninfo: usize,
    evhdlr: pmix_notification_fn_t,
    cbfunc: pmix_hdlr_reg_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_Register_event_handler",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_Deregister_event_handler`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Deregister_event_handler(
    evhdlr_ref: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status(
        "PMIx_Deregister_event_handler",
        crate::lifecycle::require_init,
    )
}

/// See PMIx Standard v5, `PMIx_Notify_event`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Notify_event(
    status: pmix_status_t,
    source: *const pmix_proc_t,
    range: pmix_data_range_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Notify_event", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_register`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_register(
    fabric: *mut pmix_fabric_t,
    directives: *const pmix_info_t,
    ndirs: usize,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_register", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_register_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_register_nb(
    fabric: *mut pmix_fabric_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_register_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_update`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_update(fabric: *mut pmix_fabric_t) -> pmix_status_t {
    entry::status("PMIx_Fabric_update", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_update_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_update_nb(
    fabric: *mut pmix_fabric_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_update_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_deregister`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_deregister(fabric: *mut pmix_fabric_t) -> pmix_status_t {
    entry::status("PMIx_Fabric_deregister", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Fabric_deregister_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Fabric_deregister_nb(
    fabric: *mut pmix_fabric_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Fabric_deregister_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Compute_distances`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    distances: *mut *mut pmix_device_distance_t,
    ndist: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Compute_distances_nb`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances_nb(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_device_dist_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances_nb", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_Progress`. The library progresses on its own thread; this
/// does nothing.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Progress() {
    entry::guard("PMIx_Progress", (), || ())
}

/// See PMIx Standard v5, `PMIx_Store_internal`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Store_internal(
    proc_: *const pmix_proc_t,
    key: *const c_char,
    val: *mut pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Store_internal", crate::lifecycle::require_init)
}
