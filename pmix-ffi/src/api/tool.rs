//! The tool API of `pmix_tool.h`: a tool is a client of the server it finds
//! (`pmix_core::tool`), so once initialized it uses the client role for everything else.

#![allow(unused_variables)]

use core::ffi::c_void;

use pmix_sys::*;

use crate::{convert, entry, lifecycle, ptr};

/// See PMIx Standard v5, `PMIx_tool_init`.
///
/// Finds a server the standard's way: `PMIX_SERVER_URI`/`PMIX_TCP_URI` (or `file:<path>`),
/// `PMIX_TOOL_ATTACHMENT_FILE`, the system server (`PMIX_CONNECT_TO_SYSTEM`,
/// `_SYSTEM_FIRST`), a server by pid (`PMIX_SERVER_PIDINFO`) or namespace
/// (`PMIX_SERVER_NSPACE`), the server that started this process (its environment), then any
/// live server of this host in the system tmpdir's rendezvous files (stale files are skipped,
/// never removed). Retries per `PMIX_CONNECT_MAX_RETRIES`/`_RETRY_DELAY`. With
/// `PMIX_TOOL_DO_NOT_CONNECT`, or `PMIX_TOOL_CONNECT_OPTIONAL` when no server answers, the
/// tool is initialized without a server. Identity: `PMIX_TOOL_NSPACE`/`_RANK`, else assigned
/// by the server. One server at a time (see `PMIx_tool_attach_to_server`).
/// A tool started by an initiator (`PMIX_LAUNCHER_RNDZ_URI` or `PMIX_LAUNCHER_RNDZ_FILE` in
/// the environment) also connects to it, records it as `PMIX_PARENT_ID` and returns only
/// once released (the release's `PMIX_LAUNCH_DIRECTIVES` are kept under that key;
/// `PMIX_ERR_UNREACH` if the initiator cannot be reached or goes away first); with
/// `PMIX_KEEPALIVE_PIPE` the end of that pipe raises a local `PMIX_ERR_JOB_TERMINATED`.
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
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(proc_) }?;
        // SAFETY: per this function's contract.
        let info = unsafe { convert::infos_from_c(info, ninfo) }?;
        let me = lifecycle::tool_init(&info)?;
        *out = convert::proc_to_c(&me);
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_tool_finalize`. Finalizing a tool that is not initialized
/// succeeds and does nothing, as in the reference.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_finalize() -> pmix_status_t {
    entry::status("PMIx_tool_finalize", lifecycle::client_finalize)
}

/// See PMIx Standard v5, `PMIx_tool_attach_to_server`: connects a tool that has no server
/// (initialized with `PMIX_TOOL_DO_NOT_CONNECT`, or an optional connection that failed) to
/// the server `info` names, the way `PMIx_tool_init` finds one. A tool may be connected to
/// several servers; requests go to the primary one, which the new connection becomes if the
/// tool had none or `PMIX_PRIMARY_SERVER` is true (see `PMIx_tool_set_server`).
///
/// # Safety
/// `myproc` and `server` NULL or writable; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_attach_to_server(
    myproc: *mut pmix_proc_t,
    server: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_attach_to_server", || {
        lifecycle::client()?;
        // SAFETY: per this function's contract.
        let info = unsafe { convert::infos_from_c(info, ninfo) }?;
        let (me, srv) = lifecycle::tool_attach(&info)?;
        // SAFETY: per this function's contract.
        unsafe {
            if let Some(p) = myproc.as_mut() {
                *p = convert::proc_to_c(&me);
            }
            if let Some(p) = server.as_mut() {
                *p = convert::proc_to_c(&srv);
            }
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_tool_disconnect`: ends the connection to `server`.
///
/// # Safety
/// `server` is a valid proc.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_disconnect(server: *const pmix_proc_t) -> pmix_status_t {
    entry::status("PMIx_tool_disconnect", || {
        lifecycle::client()?;
        // SAFETY: per this function's contract.
        let s = convert::proc_from_c(unsafe { ptr::req(server) }?)?;
        lifecycle::tool_disconnect(&s)
    })
}

/// See PMIx Standard v5, `PMIx_tool_get_servers`: the servers this tool is connected to,
/// the primary first.
///
/// Ownership: `*servers` is libc-allocated; release with `PMIX_PROC_FREE`.
///
/// # Safety
/// `servers` and `nservers` are writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_get_servers(
    servers: *mut *mut pmix_proc_t,
    nservers: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_get_servers", || {
        lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (out, n) = unsafe { (ptr::req_mut(servers)?, ptr::req_mut(nservers)?) };
        let list: Vec<pmix_core::Proc> = lifecycle::connections()
            .iter()
            .map(|c| c.server.clone())
            .collect();
        let arr = crate::alloc::calloc::<pmix_proc_t>(list.len())?;
        for (i, p) in list.iter().enumerate() {
            // SAFETY: arr holds list.len() procs.
            unsafe { arr.add(i).write(convert::proc_to_c(p)) };
        }
        *out = arr;
        *n = list.len();
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_tool_set_server`: makes `server`, one this tool is connected
/// to, the primary server; `PMIX_ERR_UNREACH` for any other (as the reference).
///
/// # Safety
/// `server` is a valid proc; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_set_server(
    server: *const pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_tool_set_server", || {
        lifecycle::client()?;
        // SAFETY: per this function's contract.
        let s = convert::proc_from_c(unsafe { ptr::req(server) }?)?;
        lifecycle::tool_set_primary(&s)
    })
}

/// The handler a C caller registers for forwarded output.
fn c_iof_handler(f: pmix_iof_cbfunc_t) -> Option<pmix_core::client::IofHandler> {
    let f = f?;
    Some(std::sync::Arc::new(
        move |hdlr: usize,
              src: &pmix_core::Proc,
              channel,
              data: &[u8],
              info: &[pmix_core::Info]| {
            entry::guard("PMIx_IOF_pull handler", (), || {
                let mut source = convert::proc_to_c(src);
                // A view of our bytes, not a copy: the handler does not own the payload
                // (the reference frees it after the handler returns), so it may read it
                // during the call only, as with the reference.
                let mut bo = pmix_byte_object_t {
                    bytes: if data.is_empty() {
                        core::ptr::null_mut()
                    } else {
                        data.as_ptr().cast_mut().cast()
                    },
                    size: data.len(),
                };
                let arr = convert::infos_to_c(info).unwrap_or(core::ptr::null_mut());
                let n = if arr.is_null() { 0 } else { info.len() };
                // SAFETY: the registered handler; our memory lives until it returns.
                unsafe { f(hdlr, channel, &mut source, &mut bo, arr, n) };
                // SAFETY: built above.
                unsafe { convert::array_free(arr.cast(), n, PMIX_INFO) };
            })
        },
    ))
}

/// The offset of local time from UTC at `secs`, from `localtime_r` (for IOF timestamps).
pub(crate) fn utc_offset(secs: i64) -> i64 {
    let t = secs as libc::time_t;
    // SAFETY: tm is plain data; localtime_r fills it from a valid time_t and is
    // thread-safe.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            0
        } else {
            tm.tm_gmtoff
        }
    }
}

/// See PMIx Standard v5, `PMIx_IOF_pull`: forwards the output of `procs` on `channel` to
/// `cbfunc`, or, when `cbfunc` is NULL, writes it to this process's stdout/stderr. The
/// output attributes among `directives` (`PMIX_IOF_TAG_OUTPUT`, `_TIMESTAMP_OUTPUT`,
/// `_XML_OUTPUT`, `_RANK_OUTPUT`, `_OUTPUT_TO_FILE`, `_OUTPUT_TO_DIRECTORY`,
/// `_FILE_PATTERN`, `_FILE_ONLY`, `_MERGE_STDERR_STDOUT`, `_OUTPUT_RAW`,
/// `_BUFFERING_SIZE/TIME`) are applied here; `PMIX_IOF_REDIRECT`/`_COPY` and
/// `PMIX_IOF_CACHE_SIZE`/`_DROP_*` go to the server. With `regcbfunc` the registration
/// completes through it (with the handler id); without, the call blocks and returns the
/// handler id.
///
/// # Returns
/// The handler id (blocking form), `PMIX_SUCCESS` (with `regcbfunc`), `PMIX_ERR_INIT`,
/// `PMIX_ERR_BAD_PARAM` (no procs), `PMIX_ERR_NOT_SUPPORTED` (the stdin channel), or the
/// server's refusal.
///
/// # Safety
/// The arrays are valid; `cbfunc` NULL or callable until deregistered; `regcbfunc` NULL or
/// called once with `regcbdata`.
///
/// Threading: `cbfunc` runs in arrival order on the library's event thread, with no lock
/// of the library held, never on the progress thread (so a handler that blocks cannot stall
/// the replies the process waits for) and never at the same time as an event handler. The
/// handler does not own the payload: it may read it during the call only.
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
    entry::status_code("PMIx_IOF_pull", || {
        let c = lifecycle::client()?;
        pmix_core::iof::set_utc_offset(utc_offset);
        // SAFETY: per this function's contract.
        let procs: Vec<pmix_core::Proc> = unsafe { ptr::slice(procs, nprocs) }?
            .iter()
            .map(convert::proc_from_c)
            .collect::<pmix_core::Result<_>>()?;
        // SAFETY: per this function's contract.
        let dirs = unsafe { convert::infos_from_c(directives, ndirs) }?;
        let handler = c_iof_handler(cbfunc);
        let Some(reg) = regcbfunc else {
            let got = c.iof_pull(&procs, &dirs, channel, handler)?;
            return Ok(got as pmix_status_t);
        };
        let d = crate::callback::CbData(regcbdata);
        std::thread::Builder::new()
            .name("pmix-iof-pull".into())
            .spawn(move || {
                let d = d;
                let (st, got) = match c.iof_pull(&procs, &dirs, channel, handler) {
                    Ok(got) => (PMIX_SUCCESS, got),
                    Err(e) => (e.status(), 0),
                };
                // SAFETY: the caller's registration callback with its cbdata.
                entry::guard("PMIx_IOF_pull", (), || unsafe { reg(st, got, d.0) });
            })
            .map_err(|_| pmix_core::Error::NoMem)?;
        Ok(PMIX_SUCCESS)
    })
}

/// See PMIx Standard v5, `PMIx_IOF_deregister`.
///
/// # Safety
/// `(directives, ndirs)` valid; `cbfunc` NULL (the call blocks) or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_deregister(
    iofhdlr: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_IOF_deregister", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let dirs = unsafe { convert::infos_from_c(directives, ndirs) }?;
        if cbfunc.is_none() {
            return c.iof_deregister(iofhdlr, &dirs);
        }
        let done = crate::callback::op("PMIx_IOF_deregister", cbfunc, cbdata);
        std::thread::Builder::new()
            .name("pmix-iof-dereg".into())
            .spawn(move || done(c.iof_deregister(iofhdlr, &dirs)))
            .map_err(|_| pmix_core::Error::NoMem)?;
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_IOF_push`: `bo` for the stdin of `targets`; a NULL `bo`,
/// one of no bytes, or `PMIX_IOF_COMPLETE` signals the end of input (the host decides; the
/// reference's launchers and pmixrun read all three so). With `PMIX_IOF_PUSH_STDIN` the
/// library reads this process's own stdin and pushes it until end of file, then signals
/// the end of input; the call completes once that reader runs.
///
/// In a server process (not the client of another server), a NULL `bo` without
/// `PMIX_IOF_PUSH_STDIN` is answered `PMIX_OPERATION_SUCCEEDED` at once and `cbfunc` is not
/// called, as OpenPMIx 5.0 does (PRRTE's prterun ends its stdin so); with
/// `PMIX_IOF_PUSH_STDIN` its stdin goes to its own host's `push_stdin` upcall.
///
/// # Safety
/// The arrays are valid; `bo` NULL or valid; `cbfunc` NULL (the call blocks) or called once.
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
    entry::status_code("PMIx_IOF_push", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let targets: Vec<pmix_core::Proc> = unsafe { ptr::slice(targets, ntargets) }?
            .iter()
            .map(convert::proc_from_c)
            .collect::<pmix_core::Result<_>>()?;
        // SAFETY: per this function's contract.
        let dirs = unsafe { convert::infos_from_c(directives, ndirs) }?;
        if pmix_core::values::info_flag(&dirs, PMIX_IOF_PUSH_STDIN) {
            match lifecycle::server_only() {
                // A server process hands its stdin to its own host (OpenPMIx 5.0's rule).
                Some(s) => s.push_stdin_for_self(&targets, &dirs)?,
                None => c.iof_push_stdin(&targets, &dirs)?,
            }
            if cbfunc.is_some() {
                let done = crate::callback::op("PMIx_IOF_push", cbfunc, cbdata);
                c.post(move || done(Ok(())))?;
            }
            return Ok(PMIX_SUCCESS);
        }
        if bo.is_null() && lifecycle::server_only().is_some() {
            // A server process's directives without data act here and now, as OpenPMIx's:
            // PMIX_IOF_COMPLETE ends a collection of stdin (none runs on this path), and
            // nothing goes to another server.
            return Ok(PMIX_OPERATION_SUCCEEDED);
        }
        // SAFETY: per this function's contract.
        let data = match unsafe { bo.as_ref() } {
            // SAFETY: per this function's contract.
            Some(b) => Some(unsafe { convert::bo_from_c(b) }?),
            None => None,
        };
        if cbfunc.is_none() {
            if pmix_core::progress::on_progress_thread() {
                return Err(pmix_core::Error::WouldBlock);
            }
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            c.iof_push(
                &targets,
                data.as_deref(),
                &dirs,
                Box::new(move |r| {
                    let _ = tx.send(r);
                }),
            )?;
            rx.recv().map_err(|_| pmix_core::Error::Unreach)??;
            return Ok(PMIX_SUCCESS);
        }
        c.iof_push(
            &targets,
            data.as_deref(),
            &dirs,
            crate::callback::op("PMIx_IOF_push", cbfunc, cbdata),
        )
        .map(|()| PMIX_SUCCESS)
    })
}

/// See PMIx Standard v5, `PMIx_tool_connect_to_server` (deprecated): as
/// `PMIx_tool_attach_to_server` without the server's identity.
///
/// # Safety
/// `proc_` NULL or writable; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_connect_to_server(
    proc_: *mut pmix_proc_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    // SAFETY: forwarded contract.
    unsafe { PMIx_tool_attach_to_server(proc_, core::ptr::null_mut(), info, ninfo) }
}

/// Whether this process has a live connection to a server (a tool's primary server, or a
/// client's own).
///
/// See OpenPMIx 5.0's `PMIx_tool_is_connected`.
///
/// # Safety
/// No arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_is_connected() -> bool {
    entry::guard("PMIx_tool_is_connected", false, || {
        lifecycle::client().is_ok_and(|c| c.connected())
    })
}

/// Gives this process's server a host: the tools that connect to a listening tool (a
/// launcher's or a scheduler's, `PMIx_tool_init` with `PMIX_LAUNCHER` or
/// `PMIX_SERVER_SCHEDULER`) are served through `module`'s upcalls from now on. Called before
/// the tool listens, the module waits for it; in a server process it replaces the host's.
///
/// See OpenPMIx 5.0's `PMIx_tool_set_server_module`. As there, the module's slots up to
/// `fabric` are copied (the call is a 5.0 one, so the module has them all); the new
/// `session_control` is never called (`docs/notes/abi-5.0.md`).
///
/// # Returns
/// `PMIX_ERR_BAD_PARAM` for a NULL `module` (the reference would read through it);
/// otherwise `PMIX_SUCCESS`.
///
/// # Safety
/// `module` is NULL or a valid host module.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_tool_set_server_module(
    module: *mut pmix_server_module_t,
) -> pmix_status_t {
    entry::status("PMIx_tool_set_server_module", || {
        if module.is_null() {
            return Err(pmix_core::Error::BadParam);
        }
        // SAFETY: per this function's contract, a valid module (of 232 bytes).
        let m = unsafe { crate::host::CHost::copy_module(module) };
        lifecycle::set_tool_module(m);
        Ok(())
    })
}
