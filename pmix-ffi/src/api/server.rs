//! The server API of `pmix_server.h`, over the core's server role (`pmix_core::server`).
//!
//! Completions are posted to the server's progress thread, as the reference runs them on
//! its own: a host that waits for a callback after the call returns never misses it, and a
//! callback never runs inside the host's call.

#![allow(unused_variables)]

use core::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

use pmix_core::server::ServerConfig;
use pmix_core::{Error, Info, PStr, Result, Value};
use pmix_sys::*;

use crate::callback::{self, CbData};
use crate::host::CHost;
use crate::{alloc, convert, entry, lifecycle, ptr};

/// # Safety
/// `(p, n)` is a valid array of valid infos.
unsafe fn infos(p: *const pmix_info_t, n: usize) -> Result<Vec<Info>> {
    // SAFETY: forwarded contract.
    unsafe { convert::infos_from_c(p, n) }
}

/// Calls an operation callback on the server's progress thread. Without a callback the
/// operation is done on return, and the status says so as OpenPMIx 4.2.2 and 5.0.11 say it:
/// `PMIX_OPERATION_SUCCEEDED`.
fn op_later(
    server: &pmix_core::server::Server,
    export: &'static str,
    f: pmix_op_cbfunc_t,
    d: *mut c_void,
    r: Result<()>,
) -> Result<pmix_status_t> {
    if f.is_none() {
        return r.map(|()| PMIX_OPERATION_SUCCEEDED);
    }
    let cb = callback::op(export, f, d);
    server.post(move || cb(r)).map(|()| PMIX_SUCCESS)
}

/// See PMIx Standard v5, `PMIx_server_init`.
///
/// Listens on 127.0.0.1 (port `PMIX_TCP_IPV4_PORT`, else ephemeral) and serves clients and
/// tools with OpenPMIx's protocol. Honours `PMIX_SERVER_NSPACE`, `PMIX_SERVER_RANK`,
/// `PMIX_SERVER_TMPDIR`, `PMIX_SYSTEM_TMPDIR`, `PMIX_HOSTNAME`, and writes the rendezvous
/// files of `PMIX_SERVER_TOOL_SUPPORT`, `PMIX_SERVER_SESSION_SUPPORT`,
/// `PMIX_SERVER_SYSTEM_SUPPORT` and `PMIX_LAUNCHER_RENDEZVOUS_FILE` in the reference's
/// format (owner-only; removed by `PMIx_server_finalize`). A server started by an
/// initiator (`PMIX_LAUNCHER_RNDZ_URI` or `PMIX_LAUNCHER_RNDZ_FILE` in the environment)
/// connects to it and returns only once released (`PMIX_ERR_UNREACH` if the initiator
/// cannot be reached or goes away first), as the reference does.
///
/// # Safety
/// `module` is NULL or a valid module; `(info, ninfo)` a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_init(
    module: *mut pmix_server_module_t,
    info: *mut pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_server_init", || {
        // SAFETY: per this function's contract.
        let info = unsafe { infos(info, ninfo) }?;
        // SAFETY: per this function's contract.
        let host = Arc::new(unsafe { CHost::from_ptr(module) });
        let cfg = ServerConfig::from_info(&info)?;
        let flag = |k: &core::ffi::CStr| pmix_core::values::info_flag(&info, k);
        // Output the host delivers is also written here, to this process's stdout and
        // stderr, unless a tool that launched this server outputs it or the host says not to
        // (OpenPMIx's rule; PRRTE's prterun relies on it to print its job's output).
        let launched_by_tool = std::env::var_os("PMIX_LAUNCHER_RNDZ_URI").is_some()
            || std::env::var_os("PMIX_KEEPALIVE_PIPE").is_some();
        let local = info
            .iter()
            .find(|i| i.is(PMIX_IOF_LOCAL_OUTPUT))
            .map_or(!launched_by_tool, |_| flag(PMIX_IOF_LOCAL_OUTPUT));
        LOCAL_OUTPUT.store(local, core::sync::atomic::Ordering::Relaxed);
        if lifecycle::server().is_ok() {
            return Err(Error::Status(PMIX_ERR_INIT));
        }
        let server = pmix_core::server::start(host.clone(), cfg)?;
        server.set_log_output(Box::new(log_output));
        match server.report_uri() {
            Ok(Some((fd, text))) => {
                // SAFETY: the host handed us this descriptor (PMIX_TCP_REPORT_URI) to write
                // the URI to and close, as OpenPMIx does.
                unsafe {
                    libc::write(fd, text.as_ptr().cast(), text.len());
                    libc::close(fd);
                }
            }
            Ok(None) => {}
            Err(e) => {
                server.finalize();
                return Err(e);
            }
        }
        if let Err(e) = lifecycle::set_server(server.clone(), host) {
            // (a listening tool's process already has a server)
            server.finalize();
            return Err(e);
        }
        // Started by an initiator: wait for its release here, as the reference does.
        if let Err(e) = lifecycle::server_rendezvous() {
            if let Some(s) = lifecycle::take_server() {
                s.finalize();
            }
            return Err(e);
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_server_finalize`: closes every connection and stops the
/// progress thread. `PMIX_ERR_INIT` when no server is initialized, as in the reference.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_finalize() -> pmix_status_t {
    entry::status("PMIx_server_finalize", || {
        let s = lifecycle::take_server().ok_or(Error::Init)?;
        s.finalize();
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_server_register_nspace`: the job's information, served to
/// its clients in the reply to their first request.
///
/// # Safety
/// `nspace` a C string; `(info, ninfo)` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_nspace(
    nspace: *const c_char,
    nlocalprocs: c_int,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_register_nspace", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        let ns = PStr::from(unsafe { ptr::cstr(nspace) }?.to_bytes());
        if ns.is_empty() || ns.len() > PMIX_MAX_NSLEN {
            return Err(Error::BadParam);
        }
        // Converted one info at a time as the server takes them in (a large job's array is
        // never held converted whole).
        // SAFETY: per this function's contract.
        let info = unsafe { ptr::slice(info, ninfo) }?;
        // SAFETY: per this function's contract, every element is a valid info.
        let info = info.iter().map(|i| unsafe { convert::info_from_c(i) });
        let r = s.register_nspace_iter(&ns, u32::try_from(nlocalprocs.max(0)).unwrap_or(0), info);
        // The host's own PMIx_Get reads the job record's data (shared, not copied).
        if r.is_ok()
            && let Ok(c) = lifecycle::client()
        {
            let _ = s.share_job(&ns, &c);
        }
        op_later(&s, "PMIx_server_register_nspace", cbfunc, cbdata, r)
    })
}

/// See PMIx Standard v5, `PMIx_server_deregister_nspace`.
///
/// # Safety
/// `nspace` a C string; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_nspace(
    nspace: *const c_char,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) {
    let st = entry::status_code("PMIx_server_deregister_nspace", || {
        let (s, host) = lifecycle::server_host()?;
        // SAFETY: per this function's contract.
        let ns = PStr::from(unsafe { ptr::cstr(nspace) }?.to_bytes());
        s.deregister_nspace(&ns);
        host.forget_nspace(&ns);
        if let Ok(c) = lifecycle::client() {
            c.forget_job(&ns);
        }
        op_later(&s, "PMIx_server_deregister_nspace", cbfunc, cbdata, Ok(()))
    });
    if st != PMIX_SUCCESS && st != PMIX_OPERATION_SUCCEEDED {
        lifecycle::op_callback("PMIx_server_deregister_nspace", cbfunc, cbdata, st);
    }
}

/// See PMIx Standard v5, `PMIx_server_register_client`: the uid and gid its handshake
/// must carry, and the host's object passed back in upcalls about it.
///
/// # Safety
/// `proc_` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_client(
    proc_: *const pmix_proc_t,
    uid: libc::uid_t,
    gid: libc::gid_t,
    server_object: *mut c_void,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_register_client", || {
        let (s, host) = lifecycle::server_host()?;
        // SAFETY: per this function's contract.
        let p = convert::proc_from_c(unsafe { ptr::req(proc_) }?)?;
        host.set_server_object(&p, server_object);
        let r = s.register_client(&p, uid, gid);
        op_later(&s, "PMIx_server_register_client", cbfunc, cbdata, r)
    })
}

/// See PMIx Standard v5, `PMIx_server_deregister_client`.
///
/// # Safety
/// `proc_` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_client(
    proc_: *const pmix_proc_t,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) {
    let st = entry::status_code("PMIx_server_deregister_client", || {
        let (s, host) = lifecycle::server_host()?;
        // SAFETY: per this function's contract.
        let p = convert::proc_from_c(unsafe { ptr::req(proc_) }?)?;
        s.deregister_client(&p);
        host.forget_client(&p);
        op_later(&s, "PMIx_server_deregister_client", cbfunc, cbdata, Ok(()))
    });
    if st != PMIX_SUCCESS && st != PMIX_OPERATION_SUCCEEDED {
        lifecycle::op_callback("PMIx_server_deregister_client", cbfunc, cbdata, st);
    }
}

/// Sets `name=value` in a malloc'd, NULL-terminated environment array, replacing an
/// existing entry (like `pmix_setenv` with overwrite).
///
/// # Safety
/// `*env` is NULL or a malloc'd NULL-terminated array of malloc'd strings.
unsafe fn setenv(env: &mut *mut *mut c_char, name: &str, value: &str) -> Result<()> {
    let entry = format!("{name}={value}");
    let prefix = format!("{name}=");
    let mut n = 0;
    if !env.is_null() {
        // SAFETY: NULL-terminated per the contract.
        while !unsafe { *env.add(n) }.is_null() {
            // SAFETY: each element is a C string.
            let s = unsafe { core::ffi::CStr::from_ptr(*env.add(n)) };
            if s.to_bytes().starts_with(prefix.as_bytes()) {
                let new = alloc::cstring(entry.as_bytes())?;
                // SAFETY: replacing a malloc'd element with another.
                unsafe {
                    libc::free((*env.add(n)).cast());
                    *env.add(n) = new;
                }
                return Ok(());
            }
            n += 1;
        }
    }
    // SAFETY: growing the malloc'd array by one slot (plus the terminator).
    let grown =
        unsafe { libc::realloc((*env).cast(), (n + 2) * core::mem::size_of::<*mut c_char>()) }
            .cast::<*mut c_char>();
    if grown.is_null() {
        return Err(Error::NoMem);
    }
    let new = alloc::cstring(entry.as_bytes())?;
    // SAFETY: `grown` has n + 2 slots.
    unsafe {
        *grown.add(n) = new;
        *grown.add(n + 1) = core::ptr::null_mut();
    }
    *env = grown;
    Ok(())
}

/// See PMIx Standard v5, `PMIx_server_setup_fork`: adds to `*env` what a client needs to
/// reach this server (`PMIX_NAMESPACE`, `PMIX_RANK`, `PMIX_SERVER_URI41` to `URI2`,
/// `PMIX_SECURITY_MODE`, `PMIX_BFROP_BUFFER_TYPE`, `PMIX_GDS_MODULE=hash`, tmpdirs,
/// `PMIX_HOSTNAME`, `PMIX_VERSION`).
///
/// # Safety
/// `proc_` valid; `env` points to NULL or a malloc'd NULL-terminated array (as built by
/// the `pmix_argv_*` helpers).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_fork(
    proc_: *const pmix_proc_t,
    env: *mut *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_server_setup_fork", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        let p = convert::proc_from_c(unsafe { ptr::req(proc_) }?)?;
        // SAFETY: per this function's contract.
        let env = unsafe { ptr::req_mut(env) }?;
        for (k, v) in s.setup_fork(&p) {
            // SAFETY: per this function's contract.
            unsafe { setenv(env, &k, &v) }?;
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_server_dmodex_request`: the committed data of a local
/// process, for another server; answered once the process has committed.
///
/// # Safety
/// `proc_` valid; `cbfunc` called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_dmodex_request(
    proc_: *const pmix_proc_t,
    cbfunc: pmix_dmodex_response_fn_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_server_dmodex_request", || {
        let s = lifecycle::server()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let p = convert::proc_from_c(unsafe { ptr::req(proc_) }?)?;
        let d = CbData(cbdata);
        let s2 = s.clone();
        s.dmodex_request(
            &p,
            Box::new(move |r| {
                let d = d;
                let _ = s2.post(move || {
                    let d = d;
                    entry::guard("PMIx_server_dmodex_request", (), || {
                        let (st, mut data) = match r {
                            Ok(b) => (PMIX_SUCCESS, b),
                            Err(e) => (e.status(), Vec::new()),
                        };
                        // SAFETY: the caller's callback; the data lives until it returns.
                        unsafe { f(st, data.as_mut_ptr().cast(), data.len(), d.0) };
                    })
                });
            }),
        );
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_server_setup_application`: network and programming-model
/// information for a job about to launch, delivered through `cbfunc`. We have no fabric
/// plugins; with `PMIX_SETUP_APP_ENVARS` the answer is the envars OpenPMIx 5.0.11 harvests
/// (`pmix_core::pmdl`), and a job set up so for Open MPI has its processes get Open MPI's
/// variables from `PMIx_server_setup_fork`.
///
/// # Safety
/// `nspace` a C string; `(info, ninfo)` valid; `cbfunc` called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_application(
    nspace: *const c_char,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_setup_application_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_server_setup_application", || {
        // A launcher tool (PRRTE's prun) prepares its application as a server does: the
        // callback comes from the tool's progress thread then. Neither: PMIX_ERR_INIT.
        let role = match lifecycle::server() {
            Ok(s) => Ok(s),
            Err(e) => Err(lifecycle::client().map_err(|_| e)?),
        };
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let ns = PStr::from(unsafe { ptr::cstr(nspace) }?.to_bytes());
        // SAFETY: per this function's contract.
        let info = unsafe { infos(info, ninfo) }?;
        let d = CbData(cbdata);
        type Job = Box<dyn FnOnce() + Send>;
        type Poster = Box<dyn FnOnce(Job) -> Result<(), Error>>;
        let (post, envars): (Poster, _) = match role {
            Ok(s) => {
                let envars = s.setup_application(&ns, &info);
                (Box::new(move |job| s.post(job)), envars)
            }
            Err(tool) => {
                let envars = pmix_core::pmdl::harvest_envars(&info);
                (Box::new(move |job| tool.post(job)), envars)
            }
        };
        post(Box::new(move || {
            let d = d;
            entry::guard("PMIx_server_setup_application", (), || {
                // SAFETY: the caller's callback and data.
                unsafe { callback::setup_application_done(f, d.0, &envars) }
            })
        }))
    })
}

/// See PMIx Standard v5, `PMIx_server_setup_local_support`: nothing to prepare on this
/// node without fabric plugins; completes through `cbfunc`.
///
/// # Safety
/// `nspace` a C string; `(info, ninfo)` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_setup_local_support(
    nspace: *const c_char,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_setup_local_support", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        unsafe { ptr::cstr(nspace) }?;
        op_later(
            &s,
            "PMIx_server_setup_local_support",
            cbfunc,
            cbdata,
            Ok(()),
        )
    })
}

/// Whether delivered output is also written to this process's stdout and stderr
/// (`PMIx_server_init`: `PMIX_IOF_LOCAL_OUTPUT`, by default unless a tool launched us).
static LOCAL_OUTPUT: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// The host name and pid of a process, as this server process knows them (its job data, and
/// the `PMIX_PROC_PID` its host stored with `PMIx_Store_internal`, as PRRTE does), for
/// `PMIX_IOF_TAG_DETAILED_OUTPUT`; "unknown" for what it does not know, as OpenPMIx writes.
fn host_and_pid(p: &pmix_core::Proc) -> (String, String) {
    let optional = [pmix_core::Info::new(
        PMIX_OPTIONAL.to_bytes(),
        pmix_core::Value::Bool(true),
    )];
    let lookup = |key: &core::ffi::CStr| {
        lifecycle::client()
            .ok()
            .and_then(|c| c.get(p, key.to_bytes(), &optional).ok())
    };
    let host = match lookup(PMIX_HOSTNAME) {
        Some(pmix_core::Value::String(Some(h))) => h.to_string(),
        _ => "unknown".to_string(),
    };
    let pid = lookup(PMIX_PROC_PID)
        .and_then(|v| v.as_u64())
        .map_or_else(|| "unknown".to_string(), |n| n.to_string());
    (host, pid)
}

/// Where a gateway server writes the standard output and error its clients log (and its
/// own help messages): as `PMIx_server_IOF_deliver` of the source would.
fn log_output(
    s: &pmix_core::server::Shared,
    source: &pmix_core::Proc,
    channel: pmix_iof_channel_t,
    text: &[u8],
) {
    if LOCAL_OUTPUT.load(core::sync::atomic::Ordering::Relaxed) {
        s.iof_write_local(source, channel, text, &[], &host_and_pid);
    }
    let _ = s.iof_deliver(source, channel, text, &[]);
}

/// See PMIx Standard v5, `PMIx_server_IOF_deliver`: forwards output of `source` to the
/// connected tools.
///
/// With `cbfunc`, the bytes are not copied: the host keeps them until its callback (the
/// standard's contract), so they are written to the tools from where they are, and the
/// callback runs once they are written (or copied into the connection's queue when a tool
/// does not keep up). Without `cbfunc` they are copied at once.
///
/// # Safety
/// `source` and `bo` valid; `(info, ninfo)` valid; `cbfunc` NULL or called once; with
/// `cbfunc`, `bo`'s bytes stay valid and unchanged until it is called.
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
    entry::status_code("PMIx_server_IOF_deliver", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        let src = convert::proc_from_c(unsafe { ptr::req(source) }?)?;
        // SAFETY: per this function's contract.
        let bo = unsafe { ptr::req(bo) }?;
        // SAFETY: per this function's contract; (NULL, n > 0) is rejected.
        let data = unsafe { ptr::slice(bo.bytes.cast::<u8>(), bo.size) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        if LOCAL_OUTPUT.load(core::sync::atomic::Ordering::Relaxed) {
            s.iof_write_local(&src, channel, data, &i, &host_and_pid);
        }
        if cbfunc.is_none() {
            // done on return: said as the references say it
            return s
                .iof_deliver_shared(&src, channel, Arc::new(data.to_vec()), &i)
                .map(|()| PMIX_OPERATION_SUCCEEDED);
        }
        let lent = Arc::new(LentBytes {
            ptr: data.as_ptr(),
            len: data.len(),
            release: std::sync::Mutex::new(None),
        });
        s.iof_deliver_shared(&src, channel, lent.clone(), &i)?;
        // Armed only now: on failure the host gets the status and no callback. Whoever
        // drops the bytes last (the progress thread, or this thread if it is done already)
        // posts the callback to the progress thread.
        let cb = callback::op("PMIx_server_IOF_deliver", cbfunc, cbdata);
        let server = s.clone();
        let release: Box<dyn FnOnce() + Send> = Box::new(move || {
            let _ = server.post(move || cb(Ok(())));
        });
        if let Ok(mut slot) = lent.release.lock() {
            *slot = Some(release);
        }
        Ok(PMIX_SUCCESS)
    })
}

/// Output bytes the host lends to `PMIx_server_IOF_deliver` until its callback.
struct LentBytes {
    ptr: *const u8,
    len: usize,
    /// Posts the host's callback; set once the delivery is accepted.
    release: std::sync::Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

// SAFETY: the bytes are only read, and the host keeps them valid and unchanged until the
// callback, which runs only after the last reference is gone (`Drop`).
unsafe impl Send for LentBytes {}
// SAFETY: as for Send: shared read-only access to bytes the host keeps alive.
unsafe impl Sync for LentBytes {}

impl AsRef<[u8]> for LentBytes {
    fn as_ref(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: non-NULL (checked by `ptr::slice` for a length above 0) and valid for
        // `len` bytes until the host's callback, which comes after the last use (Drop).
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for LentBytes {
    fn drop(&mut self) {
        let release = match self.release.get_mut() {
            Ok(slot) => slot.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(release) = release {
            release();
        }
    }
}

/// See PMIx Standard v5, `PMIx_server_collect_inventory`: this node's inventory. Without
/// fabric or device plugins it is empty, delivered through `cbfunc`.
///
/// # Safety
/// `(directives, ndirs)` valid; `cbfunc` called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_collect_inventory(
    directives: *mut pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_server_collect_inventory", || {
        let s = lifecycle::server()?;
        cbfunc.ok_or(Error::BadParam)?;
        let cb = callback::info("PMIx_server_collect_inventory", cbfunc, cbdata);
        s.post(move || cb(Ok((PMIX_SUCCESS, Vec::new()))))
    })
}

/// See PMIx Standard v5, `PMIx_server_deliver_inventory`: accepted and completed (nothing
/// consumes inventory without fabric plugins).
///
/// # Safety
/// The arrays are valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deliver_inventory(
    info: *mut pmix_info_t,
    ninfo: usize,
    directives: *mut pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_deliver_inventory", || {
        let s = lifecycle::server()?;
        op_later(&s, "PMIx_server_deliver_inventory", cbfunc, cbdata, Ok(()))
    })
}

/// See PMIx Standard v5, `PMIx_server_define_process_set`: announces the set to the local
/// clients with a `PMIX_PROCESS_SET_DEFINE` event.
///
/// # Safety
/// `(members, nmembers)` valid; `pset_name` a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_define_process_set(
    members: *const pmix_proc_t,
    nmembers: usize,
    pset_name: *const c_char,
) -> pmix_status_t {
    entry::status("PMIx_server_define_process_set", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        let name = PStr::from(unsafe { ptr::cstr(pset_name) }?.to_bytes());
        // SAFETY: per this function's contract.
        let members: Vec<Value> = unsafe { ptr::slice(members, nmembers) }?
            .iter()
            .map(|p| convert::proc_from_c(p).map(Value::Proc))
            .collect::<Result<_>>()?;
        let info = vec![
            Info::new(PMIX_PSET_NAME.to_bytes(), Value::String(Some(name))),
            Info::new(
                PMIX_PSET_MEMBERS.to_bytes(),
                Value::DataArray(Box::new(pmix_core::DataArray {
                    ty: PMIX_PROC,
                    items: members,
                })),
            ),
        ];
        s.notify(pmix_core::events::Event {
            code: PMIX_PROCESS_SET_DEFINE,
            source: s.cfg.id.clone(),
            range: PMIX_RANGE_LOCAL,
            info,
        })
    })
}

/// See PMIx Standard v5, `PMIx_server_delete_process_set`: announces the deletion with a
/// `PMIX_PROCESS_SET_DELETE` event.
///
/// # Safety
/// `pset_name` a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_delete_process_set(pset_name: *mut c_char) -> pmix_status_t {
    entry::status("PMIx_server_delete_process_set", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        let name = PStr::from(unsafe { ptr::cstr(pset_name) }?.to_bytes());
        s.notify(pmix_core::events::Event {
            code: PMIX_PROCESS_SET_DELETE,
            source: s.cfg.id.clone(),
            range: PMIX_RANGE_LOCAL,
            info: vec![Info::new(
                PMIX_PSET_NAME.to_bytes(),
                Value::String(Some(name)),
            )],
        })
    })
}

/// See PMIx Standard v5, `PMIx_server_register_resources`: accepted and completed.
///
/// # Safety
/// `(info, ninfo)` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_register_resources(
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_register_resources", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        unsafe { infos(info, ninfo) }?;
        op_later(&s, "PMIx_server_register_resources", cbfunc, cbdata, Ok(()))
    })
}

/// See PMIx Standard v5, `PMIx_server_deregister_resources`: accepted and completed.
///
/// # Safety
/// `(info, ninfo)` valid; `cbfunc` NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_deregister_resources(
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_server_deregister_resources", || {
        let s = lifecycle::server()?;
        // SAFETY: per this function's contract.
        unsafe { infos(info, ninfo) }?;
        op_later(
            &s,
            "PMIx_server_deregister_resources",
            cbfunc,
            cbdata,
            Ok(()),
        )
    })
}
