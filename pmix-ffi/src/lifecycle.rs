//! Whether the library is initialized, and the answers given while it is not.
//!
//! The client, server and tool roles do not exist yet, so the library is never initialized:
//! operations that need a session answer `PMIX_ERR_INIT`, as the reference does before init.

use core::ffi::c_void;

use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::entry;

/// Whether `PMIx_Init`, `PMIx_server_init` or `PMIx_tool_init` has succeeded.
pub(crate) fn initialized() -> bool {
    false
}

/// `Err(Error::Init)` unless the library is initialized.
pub(crate) fn require_init() -> Result<()> {
    if initialized() {
        Ok(())
    } else {
        Err(Error::Init)
    }
}

/// Environment variables through which a server tells a client where to connect.
const SERVER_URI_VARS: &[&str] = &[
    "PMIX_SERVER_URI41",
    "PMIX_SERVER_URI4",
    "PMIX_SERVER_URI3",
    "PMIX_SERVER_URI21",
    "PMIX_SERVER_URI2",
];

/// `PMIx_Init` without a client role: unreachable when no server is named, unsupported when
/// one is.
pub(crate) fn client_init(
    _proc: *mut pmix_proc_t,
    _info: *mut pmix_info_t,
    _ninfo: usize,
) -> Result<()> {
    if SERVER_URI_VARS
        .iter()
        .any(|v| std::env::var_os(v).is_some())
    {
        Err(Error::NotSupported)
    } else {
        Err(Error::Unreach)
    }
}

/// For void functions that report through an operation callback: calls `cbfunc` (if given)
/// with `status`, inside the panic guard.
pub(crate) fn op_callback(
    export: &str,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
    status: pmix_status_t,
) {
    entry::guard(export, (), || {
        if let Some(f) = cbfunc {
            // SAFETY: the caller supplied this callback for exactly this use.
            unsafe { f(status, cbdata) };
        }
    })
}
