//! The tool API of `pmix_tool.h`. Until the tool role exists, every call that needs a
//! session answers `PMIX_ERR_INIT`, as the reference does before `PMIx_tool_init`.

#![allow(unused_variables)]

use core::ffi::c_void;

use pmix_sys::*;

use crate::entry;

/// See PMIx Standard v5, `PMIx_tool_init`.
///
/// NOT IMPLEMENTED YET: returns `PMIX_ERR_BAD_PARAM` for a NULL `proc_` (as the reference
/// does) and otherwise `PMIX_ERR_NOT_SUPPORTED` until the tool role exists.
///
/// # Safety
/// `proc_` is NULL or writable; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_init(
    proc_: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_init", || {
        if proc_.is_null() {
            return Err(pmix_core::Error::BadParam);
        }
        Err(pmix_core::Error::NotSupported)
    })
}

/// See PMIx Standard v5, `PMIx_tool_finalize`. Finalizing a tool that is not initialized
/// succeeds and does nothing, as in the reference.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_finalize() -> pmix_status_t {
    entry::status("PMIx_tool_finalize", || Ok(()))
}

/// See PMIx Standard v5, `PMIx_tool_attach_to_server`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_attach_to_server(
    myproc: *mut pmix_proc_t,
    server: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_attach_to_server", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_tool_disconnect`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_disconnect(server: *const pmix_proc_t) -> pmix_status_t {
    entry::status("PMIx_tool_disconnect", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_tool_get_servers`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_get_servers(
    servers: *mut *mut pmix_proc_t,
    nservers: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_get_servers", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_tool_set_server`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_set_server(
    server: *const pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_set_server", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_IOF_pull`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_pull(
    procs: *const pmix_proc_t,
    nprocs: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    channel: pmix_iof_channel_t,
    cbfunc: pmix_iof_cbfunc_t,
    regcbfunc: pmix_hdlr_reg_cbfunc_t,
    regcbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_IOF_pull", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_IOF_deregister`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_deregister(
    iofhdlr: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_IOF_deregister", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_IOF_push`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_push(
    targets: *const pmix_proc_t,
    ntargets: usize,
    bo: *mut pmix_byte_object_t,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_IOF_push", crate::lifecycle::require_init)
}

/// See PMIx Standard v5, `PMIx_tool_connect_to_server`.
///
/// Not available yet: the library cannot be initialized until the client, server and tool
/// roles exist, so this returns `PMIX_ERR_INIT` as the reference does before initialization.
///
/// # Safety
/// Pointer arguments are NULL or valid for the call (none is dereferenced yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_connect_to_server(
    proc_: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status(
        "PMIx_tool_connect_to_server",
        crate::lifecycle::require_init,
    )
}
