//! The host's C server module (`pmix_server_module_t`) as a [`pmix_core::host::Host`].
//!
//! Each upcall converts its Rust arguments to C, calls the host's function with one of the
//! trampolines below as `cbfunc` and a boxed [`Call`] as `cbdata`, and maps the return value
//! the way `pmix_server.h` defines it:
//!
//! * `PMIX_SUCCESS`: the host accepted the request and will call `cbfunc` exactly once, now or
//!   later, from any thread. The trampoline converts the result, calls `done` and frees the
//!   `Call`.
//! * `PMIX_OPERATION_SUCCEEDED`: done with success; `cbfunc` will not be called, so `done`
//!   is called (with the default value) and the `Call` freed before returning.
//! * any other status: done with that error, likewise.
//!
//! The host may keep pointers to the arguments until it calls `cbfunc` (a fence's `procs` and
//! `data`, for one), so the C copies live in the `Call` ([`Keep`]) and are released only when
//! the callback has fired. A host that calls `cbfunc` *and* returns something other than
//! `PMIX_SUCCESS` breaks the contract of `pmix_server.h` (the reference would release its
//! caddy twice as well).
//!
//! `tool_connected` and `log` return `void` in `pmix_server.h` 4.2: they always answer
//! through their callback.
//!
//! Results handed to a trampoline belong to the host and are copied, never freed, except
//! through the `release_fn` that `pmix_modex_cbfunc_t` and `pmix_info_cbfunc_t` provide,
//! which is called exactly once after the copy (even when `cbdata` is NULL or the conversion
//! fails). That includes the credential of `pmix_credential_cbfunc_t`: `pmix_common.h` says
//! its ownership passes to the receiver, but the host's allocator is unknown to us and the
//! reference server copies it too ("they may not hold it for us") without freeing it.
//!
//! `listener` is not part of the `Host` trait (the library always listens itself); only
//! `provides(Upcall::Listener)` reports it.
//!
//! `server_object`: `client_connected(2)`, `client_finalized` and `abort` hand back the
//! pointer the host gave to `PMIx_server_register_client`. The trait does not carry it, so
//! `CHost` keeps a table filled by the server API (`set_server_object`, `forget_client`,
//! `forget_nspace`); an unregistered client gets NULL.

// Not wired to `PMIx_server_init` yet (api/server.rs); the tests use every part.
#![allow(dead_code)]

use core::ffi::{c_char, c_void};
use core::ptr::null_mut;
use std::collections::HashMap;
use std::sync::Mutex;

use pmix_core::host::{Credential, Done, Host, ModexData, Upcall, Validation};
use pmix_core::values::{App, Info, Pdata, Proc, Query, Value};
use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::convert::{self, Zeroable};
use crate::{entry, ptr};

// SAFETY: `pmix_server_module_t` is a repr(C) struct of `Option<extern "C" fn>` fields, for
// which all-zero bytes are `None`.
unsafe impl Zeroable for pmix_server_module_t {}

/// A host's `server_object`, kept to be handed back to its upcalls.
#[derive(Clone, Copy)]
struct ServerObject(*mut c_void);

// SAFETY: the pointer is opaque to this library: it is never dereferenced here, only handed
// back to the host's own upcalls, from whichever thread calls them.
unsafe impl Send for ServerObject {}

/// The upcalls of a C host.
pub(crate) struct CHost {
    /// Replaced whole by `PMIx_tool_set_server_module` in a tool that serves others; read by
    /// copying it out (the lock is never held while the host runs).
    module: Mutex<pmix_server_module_t>,
    objects: Mutex<HashMap<Proc, ServerObject>>,
}

impl CHost {
    /// A host with a copy of `module`'s function pointers.
    pub(crate) fn new(module: &pmix_server_module_t) -> CHost {
        CHost {
            module: Mutex::new(*module),
            objects: Mutex::new(HashMap::new()),
        }
    }

    /// A copy of `*module`'s first `PMIX_SERVER_MODULE_4_SIZE` bytes (see `from_ptr`); NULL
    /// gives a module without upcalls.
    ///
    /// # Safety
    /// As `from_ptr`.
    pub(crate) unsafe fn copy_module(module: *const pmix_server_module_t) -> pmix_server_module_t {
        let mut m = pmix_server_module_t::zeroed();
        if !module.is_null() {
            // SAFETY: the caller's module has at least PMIX_SERVER_MODULE_4_SIZE bytes, and
            // `m` has more; all-zero or copied function pointers are valid Options.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    module.cast::<u8>(),
                    (&mut m as *mut pmix_server_module_t).cast::<u8>(),
                    PMIX_SERVER_MODULE_4_SIZE,
                )
            };
        }
        m
    }

    /// Replaces the upcalls (`PMIx_tool_set_server_module`): upcalls made from now on go to
    /// `module`'s functions.
    pub(crate) fn replace_module(&self, module: pmix_server_module_t) {
        *self.module.lock().unwrap_or_else(|e| e.into_inner()) = module;
    }

    /// The current upcalls.
    fn module(&self) -> pmix_server_module_t {
        // Plain data: a panic elsewhere cannot leave it inconsistent.
        *self.module.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A host with a copy of `*module`'s first `PMIX_SERVER_MODULE_4_SIZE` bytes, the slots
    /// every host has (one built against OpenPMIx 4.2's headers passes a 224-byte module,
    /// one built against 5.0's a 232-byte one whose `session_control` this library never
    /// calls); NULL gives a host without upcalls.
    ///
    /// # Safety
    /// `module` is NULL or points to a valid module of at least 224 bytes.
    pub(crate) unsafe fn from_ptr(module: *const pmix_server_module_t) -> CHost {
        // SAFETY: per this function's contract.
        CHost::new(&unsafe { Self::copy_module(module) })
    }

    /// Records the `server_object` given to `PMIx_server_register_client` for `proc`.
    pub(crate) fn set_server_object(&self, proc: &Proc, object: *mut c_void) {
        self.table().insert(proc.clone(), ServerObject(object));
    }

    /// Forgets the `server_object` of `proc` (`PMIx_server_deregister_client`).
    pub(crate) fn forget_client(&self, proc: &Proc) {
        self.table().remove(proc);
    }

    /// Forgets the `server_object`s of a namespace (`PMIx_server_deregister_nspace`).
    pub(crate) fn forget_nspace(&self, nspace: &PStr) {
        self.table().retain(|p, _| p.nspace != *nspace);
    }

    fn server_object(&self, proc: &Proc) -> *mut c_void {
        self.table().get(proc).map_or(null_mut(), |o| o.0)
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<Proc, ServerObject>> {
        // The table holds plain data: a panic while it was locked leaves it consistent.
        self.objects.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one upcall: converts the arguments into a new `Keep` with `prepare`, calls the
    /// host with `invoke(arguments, cbdata)` and acts on its return value.
    fn upcall<T: Default, A>(
        &self,
        done: Done<T>,
        prepare: impl FnOnce(&mut Keep) -> Result<A>,
        invoke: impl FnOnce(A, *mut c_void) -> pmix_status_t,
    ) {
        let mut keep = Keep::default();
        let args = match prepare(&mut keep) {
            Ok(a) => a,
            Err(e) => return done(Err(e)),
        };
        let cbdata = Call::into_cbdata(done, keep);
        let rc = invoke(args, cbdata);
        // SAFETY: `cbdata` comes from `Call::<T>::into_cbdata`; per pmix_server.h the host
        // calls back with it only when it returned PMIX_SUCCESS.
        unsafe { settle::<T>(cbdata, rc) };
    }
}

/// Acts on the return value of an upcall: nothing for `PMIX_SUCCESS` (the callback will
/// come), otherwise completes the call now.
///
/// # Safety
/// `cbdata` comes from `Call::<T>::into_cbdata`, and unless `rc` is `PMIX_SUCCESS` the host
/// has not called and will not call back with it.
unsafe fn settle<T: Default>(cbdata: *mut c_void, rc: pmix_status_t) {
    if rc == PMIX_SUCCESS {
        return;
    }
    // SAFETY: forwarded contract: the call is still ours.
    if let Some(call) = unsafe { Call::<T>::take(cbdata) } {
        (*call).finish(if rc == PMIX_OPERATION_SUCCEEDED {
            Ok(T::default())
        } else {
            Err(error(rc))
        });
    }
}

/// The error for a status other than `PMIX_SUCCESS`.
fn error(status: pmix_status_t) -> Error {
    Error::from_status(status).unwrap_or(Error::Status(status))
}

/// Whether a callback status means success (some hosts answer `PMIX_OPERATION_SUCCEEDED`
/// through the callback too).
fn succeeded(status: pmix_status_t) -> bool {
    status == PMIX_SUCCESS || status == PMIX_OPERATION_SUCCEEDED
}

fn status_result(status: pmix_status_t) -> Result<()> {
    if succeeded(status) {
        Ok(())
    } else {
        Err(error(status))
    }
}

// ---------------------------------------------------------------------------------------
// Argument storage and the cbdata

/// The C copies of an upcall's arguments. The buffers are Rust `Vec`s (C reads them and never
/// frees them) or libc arrays built by `convert` (released on drop); their heap addresses do
/// not change when the `Keep` moves.
#[derive(Default)]
struct Keep {
    procs: Vec<Vec<pmix_proc_t>>,
    arrays: Vec<CArray>,
    bytes: Vec<Vec<u8>>,
    argvs: Vec<Vec<*mut c_char>>,
    codes: Vec<Vec<pmix_status_t>>,
    bos: Vec<Vec<pmix_byte_object_t>>,
}

impl Keep {
    /// One process name (a requestor or source), on the heap.
    fn proc(&mut self, p: &Proc) -> *mut pmix_proc_t {
        self.procs(core::slice::from_ref(p)).0
    }

    /// An array of process names; NULL for none.
    fn procs(&mut self, ps: &[Proc]) -> (*mut pmix_proc_t, usize) {
        if ps.is_empty() {
            return (null_mut(), 0);
        }
        let mut v: Vec<pmix_proc_t> = ps.iter().map(convert::proc_to_c).collect();
        let p = v.as_mut_ptr();
        self.procs.push(v);
        (p, ps.len())
    }

    /// A libc array of `items` as elements of type `ty`; NULL for none.
    fn array(&mut self, items: &[Value], ty: pmix_data_type_t) -> Result<(*mut c_void, usize)> {
        let p = convert::array_to_c(items, ty)?;
        self.arrays.push(CArray {
            ptr: p,
            n: items.len(),
            ty,
        });
        Ok((p, items.len()))
    }

    fn infos(&mut self, infos: &[Info]) -> Result<(*mut pmix_info_t, usize)> {
        let items: Vec<Value> = infos
            .iter()
            .map(|i| Value::Info(Box::new(i.clone())))
            .collect();
        let (p, n) = self.array(&items, PMIX_INFO)?;
        Ok((p.cast(), n))
    }

    fn apps(&mut self, apps: &[App]) -> Result<(*mut pmix_app_t, usize)> {
        let items: Vec<Value> = apps
            .iter()
            .map(|a| Value::App(Box::new(a.clone())))
            .collect();
        let (p, n) = self.array(&items, PMIX_APP)?;
        Ok((p.cast(), n))
    }

    fn queries(&mut self, queries: &[Query]) -> Result<(*mut pmix_query_t, usize)> {
        let items: Vec<Value> = queries
            .iter()
            .map(|q| Value::Query(Box::new(q.clone())))
            .collect();
        let (p, n) = self.array(&items, PMIX_QUERY)?;
        Ok((p.cast(), n))
    }

    /// A NUL-terminated copy of `s` (cut at an interior NUL, as C reads it).
    fn cstring(&mut self, s: &[u8]) -> *mut c_char {
        let mut v = Vec::with_capacity(s.len() + 1);
        v.extend_from_slice(s);
        v.push(0);
        let p = v.as_mut_ptr().cast();
        self.bytes.push(v);
        p
    }

    /// A NULL-terminated `char **` of `list` (never NULL itself).
    fn argv(&mut self, list: &[Vec<u8>]) -> *mut *mut c_char {
        let mut v: Vec<*mut c_char> = list.iter().map(|s| self.cstring(s)).collect();
        v.push(null_mut());
        let p = v.as_mut_ptr();
        self.argvs.push(v);
        p
    }

    /// A byte buffer; NULL for none.
    fn data(&mut self, mut d: Vec<u8>) -> (*mut c_char, usize) {
        if d.is_empty() {
            return (null_mut(), 0);
        }
        let (p, n) = (d.as_mut_ptr().cast(), d.len());
        self.bytes.push(d);
        (p, n)
    }

    fn codes(&mut self, codes: &[pmix_status_t]) -> (*mut pmix_status_t, usize) {
        if codes.is_empty() {
            return (null_mut(), 0);
        }
        let mut v = codes.to_vec();
        let p = v.as_mut_ptr();
        self.codes.push(v);
        (p, codes.len())
    }

    /// A byte object on the heap, its bytes in this `Keep` too.
    fn bo(&mut self, b: &[u8]) -> *mut pmix_byte_object_t {
        let (bytes, size) = self.data(b.to_vec());
        let mut v = vec![pmix_byte_object_t { bytes, size }];
        let p = v.as_mut_ptr();
        self.bos.push(v);
        p
    }
}

/// A libc array built by `convert::array_to_c`, released on drop.
struct CArray {
    ptr: *mut c_void,
    n: usize,
    ty: pmix_data_type_t,
}

impl Drop for CArray {
    fn drop(&mut self) {
        // SAFETY: `ptr` is NULL or an array of `n` elements of type `ty` built by
        // `convert::array_to_c` and owned here (persistent flags included, hence the clear);
        // the host no longer uses it, its callback having fired.
        unsafe {
            convert::clear_persistent(self.ptr, self.n, self.ty);
            convert::array_free(self.ptr, self.n, self.ty);
        }
    }
}

/// What an upcall's `cbdata` points to: the completion and the C arguments.
struct Call<T> {
    done: Done<T>,
    keep: Keep,
}

impl<T> Call<T> {
    fn into_cbdata(done: Done<T>, keep: Keep) -> *mut c_void {
        Box::into_raw(Box::new(Call { done, keep })).cast()
    }

    /// Takes back the call behind `cbdata` (`None` for NULL).
    ///
    /// # Safety
    /// `cbdata` is NULL or comes from `Call::<T>::into_cbdata` and was not taken before.
    unsafe fn take(cbdata: *mut c_void) -> Option<Box<Call<T>>> {
        if cbdata.is_null() {
            None
        } else {
            // SAFETY: forwarded contract: a live Box<Call<T>> that nobody else owns.
            Some(unsafe { Box::from_raw(cbdata.cast::<Call<T>>()) })
        }
    }

    /// Releases the arguments and calls `done`.
    fn finish(self, r: Result<T>) {
        let Call { done, keep } = self;
        drop(keep);
        done(r);
    }
}

// ---------------------------------------------------------------------------------------
// Trampolines (the `cbfunc`s given to the host)

/// A host's `release_fn(release_cbdata)`: the data it handed a callback is its own again.
/// Called once, on the release thread ([`Release::later`]), never inside the callback that
/// handed it: Slurm's mpi/pmix calls `cbfunc` holding the lock its `release_fn` takes, so a
/// release from inside the callback deadlocked every cross-node fence (the reference, too,
/// releases later, from its progress thread).
struct Release(pmix_release_cbfunc_t, *mut c_void);

// SAFETY: a function pointer and an opaque argument that the host gave us to call once, from
// any thread of ours (the reference calls it from its progress thread).
unsafe impl Send for Release {}

impl Release {
    /// Hands the release to the release thread (started on first use), which calls it after
    /// the callback has returned. If no thread can start, the data is never released: a
    /// leak, rather than a deadlock inside the host.
    fn later(self) {
        if self.0.is_none() {
            return;
        }
        static QUEUE: std::sync::OnceLock<Option<std::sync::mpsc::Sender<Release>>> =
            std::sync::OnceLock::new();
        let queue = QUEUE.get_or_init(|| {
            let (tx, rx) = std::sync::mpsc::channel::<Release>();
            std::thread::Builder::new()
                .name("pmix-release".into())
                .spawn(move || {
                    for r in rx {
                        r.now();
                    }
                })
                .ok()
                .map(|_| tx)
        });
        // (`Release` has no destructor: one that is not sent is simply never called.)
        if let Some(tx) = queue {
            let _ = tx.send(self);
        }
    }

    /// Calls the release function (on the release thread), guarded: a panic stays here.
    fn now(self) {
        if let Some(f) = self.0 {
            entry::guard("release", (), || {
                // SAFETY: the host gave this function and argument to be called once when we
                // are done with its data; we are (the data was copied in the callback).
                unsafe { f(self.1) };
            });
        }
    }
}

/// The common body of the trampolines: takes the call behind `cbdata` (none for NULL),
/// converts the host's result with `convert` (a panic there gives `PMIX_ERROR`), hands the
/// host's data back ([`Release::later`]: after this callback returns), and completes the
/// call. A panic in `done` stops here too.
///
/// # Safety
/// `cbdata` is NULL or comes from `Call::<T>::into_cbdata` and was not taken before.
unsafe fn complete<T>(
    what: &str,
    cbdata: *mut c_void,
    release: Release,
    convert: impl FnOnce() -> Result<T>,
) {
    entry::guard(what, (), || {
        // SAFETY: forwarded contract.
        let call = unsafe { Call::<T>::take(cbdata) };
        let r = match call {
            Some(_) => entry::guard(what, Err(Error::Status(PMIX_ERROR)), convert),
            None => Err(Error::BadParam),
        };
        release.later();
        if let Some(call) = call {
            (*call).finish(r);
        }
    })
}

/// `pmix_op_cbfunc_t`.
unsafe extern "C" fn op_cb(status: pmix_status_t, cbdata: *mut c_void) {
    // SAFETY: the host calls back once with the cbdata of the upcall that took `op_cb`,
    // which is a Call<()>.
    unsafe {
        complete::<()>("op callback", cbdata, Release(None, null_mut()), || {
            status_result(status)
        })
    }
}

/// `pmix_modex_cbfunc_t`: the data is copied, then released through `release_fn`.
unsafe extern "C" fn modex_cb(
    status: pmix_status_t,
    data: *const c_char,
    ndata: usize,
    cbdata: *mut c_void,
    release_fn: pmix_release_cbfunc_t,
    release_cbdata: *mut c_void,
) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes `(data, ndata)` as a valid array for the callback.
        Ok(unsafe { ptr::slice(data.cast::<u8>(), ndata) }?.to_vec())
    };
    // SAFETY: the cbdata of fence_nb and direct_modex is a Call<ModexData>.
    unsafe {
        complete::<ModexData>(
            "modex callback",
            cbdata,
            Release(release_fn, release_cbdata),
            convert,
        )
    }
}

/// `pmix_info_cbfunc_t`: the infos are copied, then released through `release_fn`.
unsafe extern "C" fn info_cb(
    status: pmix_status_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbdata: *mut c_void,
    release_fn: pmix_release_cbfunc_t,
    release_cbdata: *mut c_void,
) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes `(info, ninfo)` as a valid array for the callback.
        unsafe { convert::infos_from_c(info, ninfo) }
    };
    // SAFETY: the cbdata of every upcall taking `info_cb` is a Call<Vec<Info>>.
    unsafe {
        complete::<Vec<Info>>(
            "info callback",
            cbdata,
            Release(release_fn, release_cbdata),
            convert,
        )
    }
}

/// `pmix_lookup_cbfunc_t`: the published data is copied (the host keeps ownership).
unsafe extern "C" fn lookup_cb(
    status: pmix_status_t,
    data: *mut pmix_pdata_t,
    ndata: usize,
    cbdata: *mut c_void,
) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes `(data, ndata)` as a valid array for the callback.
        unsafe { convert::array_from_c(data.cast(), ndata, PMIX_PDATA) }?
            .into_iter()
            .map(|v| match v {
                Value::Pdata(p) => Ok(*p),
                _ => Err(Error::TypeMismatch),
            })
            .collect::<Result<Vec<Pdata>>>()
    };
    // SAFETY: the cbdata of lookup is a Call<Vec<Pdata>>.
    unsafe {
        complete::<Vec<Pdata>>(
            "lookup callback",
            cbdata,
            Release(None, null_mut()),
            convert,
        )
    }
}

/// The bytes of a namespace handed to a callback: a C string, or a `pmix_nspace_t` buffer
/// (read up to `PMIX_MAX_NSLEN` bytes). NULL gives the empty name (the reference packs it as
/// a NULL string).
///
/// # Safety
/// `p` is NULL, a C string, or a `pmix_nspace_t` buffer.
unsafe fn nspace_bytes(p: *const c_char) -> Vec<u8> {
    let mut out = Vec::new();
    if p.is_null() {
        return out;
    }
    for i in 0..PMIX_MAX_NSLEN {
        // SAFETY: reading stops at the terminator, or at the end of a pmix_nspace_t buffer.
        let c = unsafe { *p.add(i) } as u8;
        if c == 0 {
            break;
        }
        out.push(c);
    }
    out
}

/// `pmix_spawn_cbfunc_t`: the new namespace is copied.
unsafe extern "C" fn spawn_cb(status: pmix_status_t, nspace: *mut c_char, cbdata: *mut c_void) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes NULL or a namespace string valid for the callback.
        Ok(unsafe { nspace_bytes(nspace) })
    };
    // SAFETY: the cbdata of spawn is a Call<Vec<u8>>.
    unsafe { complete::<Vec<u8>>("spawn callback", cbdata, Release(None, null_mut()), convert) }
}

/// `pmix_tool_connection_cbfunc_t`: the identity given to the tool. A NULL `proc` with a
/// success status is `PMIX_ERR_BAD_PARAM`.
unsafe extern "C" fn tool_cb(status: pmix_status_t, proc: *mut pmix_proc_t, cbdata: *mut c_void) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes NULL or a valid process name for the callback.
        convert::proc_from_c(unsafe { ptr::req(proc) }?)
    };
    // SAFETY: the cbdata of tool_connected is a Call<Proc>.
    unsafe { complete::<Proc>("tool callback", cbdata, Release(None, null_mut()), convert) }
}

/// `pmix_credential_cbfunc_t`: the credential and infos are copied, not freed (see the
/// module documentation). A NULL credential with a success status is `PMIX_ERR_BAD_PARAM`.
unsafe extern "C" fn credential_cb(
    status: pmix_status_t,
    credential: *mut pmix_byte_object_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbdata: *mut c_void,
) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes NULL or a valid byte object, and a valid info array, for
        // the callback.
        unsafe {
            Ok(Credential {
                cred: convert::bo_from_c(ptr::req(credential)?)?,
                info: convert::infos_from_c(info, ninfo)?,
            })
        }
    };
    // SAFETY: the cbdata of get_credential is a Call<Credential>.
    unsafe {
        complete::<Credential>(
            "credential callback",
            cbdata,
            Release(None, null_mut()),
            convert,
        )
    }
}

/// `pmix_validation_cbfunc_t`: the infos are copied (the host keeps ownership).
unsafe extern "C" fn validation_cb(
    status: pmix_status_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbdata: *mut c_void,
) {
    let convert = || {
        status_result(status)?;
        // SAFETY: the host passes a valid info array for the callback.
        let info = unsafe { convert::infos_from_c(info, ninfo) }?;
        Ok(Validation { info })
    };
    // SAFETY: the cbdata of validate_credential is a Call<Validation>.
    unsafe {
        complete::<Validation>(
            "validation callback",
            cbdata,
            Release(None, null_mut()),
            convert,
        )
    }
}

// ---------------------------------------------------------------------------------------
// The upcalls

/// The function of an upcall, or `done(Err(NotSupported))` and return when the host has none.
macro_rules! upcall_fn {
    ($self:ident . $field:ident, $done:ident) => {
        match $self.module().$field {
            Some(f) => f,
            None => return $done(Err(Error::NotSupported)),
        }
    };
}

impl Host for CHost {
    fn provides(&self, upcall: Upcall) -> bool {
        let m = self.module();
        match upcall {
            Upcall::ClientConnected => {
                m.client_connected2.is_some() || m.client_connected.is_some()
            }
            Upcall::ClientFinalized => m.client_finalized.is_some(),
            Upcall::Abort => m.abort.is_some(),
            Upcall::FenceNb => m.fence_nb.is_some(),
            Upcall::DirectModex => m.direct_modex.is_some(),
            Upcall::Publish => m.publish.is_some(),
            Upcall::Lookup => m.lookup.is_some(),
            Upcall::Unpublish => m.unpublish.is_some(),
            Upcall::Spawn => m.spawn.is_some(),
            Upcall::Connect => m.connect.is_some(),
            Upcall::Disconnect => m.disconnect.is_some(),
            Upcall::RegisterEvents => m.register_events.is_some(),
            Upcall::DeregisterEvents => m.deregister_events.is_some(),
            Upcall::Listener => m.listener.is_some(),
            Upcall::NotifyEvent => m.notify_event.is_some(),
            Upcall::Query => m.query.is_some(),
            Upcall::ToolConnected => m.tool_connected.is_some(),
            Upcall::Log => m.log.is_some(),
            Upcall::Allocate => m.allocate.is_some(),
            Upcall::JobControl => m.job_control.is_some(),
            Upcall::Monitor => m.monitor.is_some(),
            Upcall::GetCredential => m.get_credential.is_some(),
            Upcall::ValidateCredential => m.validate_credential.is_some(),
            Upcall::IofPull => m.iof_pull.is_some(),
            Upcall::PushStdin => m.push_stdin.is_some(),
            Upcall::Group => m.group.is_some(),
            Upcall::Fabric => m.fabric.is_some(),
            Upcall::ClientConnected2 => m.client_connected2.is_some(),
        }
    }

    /// `client_connected2` when the host has it, else `client_connected` (without `info`).
    fn client_connected(&self, proc: &Proc, info: &[Info], done: Done<()>) {
        let obj = self.server_object(proc);
        if let Some(f) = self.module().client_connected2 {
            self.upcall(
                done,
                |k| Ok((k.proc(proc), k.infos(info)?)),
                |(p, (i, ni)), cb| {
                    // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep
                    // of `cb` until the callback has fired.
                    unsafe { f(p, obj, i, ni, Some(op_cb), cb) }
                },
            );
        } else {
            let f = upcall_fn!(self.client_connected, done);
            self.upcall(
                done,
                |k| Ok(k.proc(proc)),
                |p, cb| {
                    // SAFETY: as above.
                    unsafe { f(p, obj, Some(op_cb), cb) }
                },
            );
        }
    }

    fn client_finalized(&self, proc: &Proc, done: Done<()>) {
        let f = upcall_fn!(self.client_finalized, done);
        let obj = self.server_object(proc);
        self.upcall(
            done,
            |k| Ok(k.proc(proc)),
            |p, cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, obj, Some(op_cb), cb) }
            },
        );
    }

    fn abort(
        &self,
        proc: &Proc,
        status: pmix_status_t,
        msg: Option<&[u8]>,
        procs: &[Proc],
        done: Done<()>,
    ) {
        let f = upcall_fn!(self.abort, done);
        let obj = self.server_object(proc);
        self.upcall(
            done,
            |k| {
                let m = msg.map_or(null_mut(), |m| k.cstring(m));
                Ok((k.proc(proc), m, k.procs(procs)))
            },
            |(p, m, (ps, nps)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, obj, status, m, ps, nps, Some(op_cb), cb) }
            },
        );
    }

    fn fence_nb(&self, procs: &[Proc], info: &[Info], data: Vec<u8>, done: Done<ModexData>) {
        let f = upcall_fn!(self.fence_nb, done);
        self.upcall(
            done,
            |k| Ok((k.procs(procs), k.infos(info)?, k.data(data))),
            |((ps, nps), (i, ni), (d, nd)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(ps, nps, i, ni, d, nd, Some(modex_cb), cb) }
            },
        );
    }

    fn direct_modex(&self, proc: &Proc, info: &[Info], done: Done<ModexData>) {
        let f = upcall_fn!(self.direct_modex, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(info)?)),
            |(p, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, i, ni, Some(modex_cb), cb) }
            },
        );
    }

    fn publish(&self, proc: &Proc, info: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.publish, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(info)?)),
            |(p, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn lookup(&self, proc: &Proc, keys: &[Vec<u8>], info: &[Info], done: Done<Vec<Pdata>>) {
        let f = upcall_fn!(self.lookup, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.argv(keys), k.infos(info)?)),
            |(p, ks, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, ks, i, ni, Some(lookup_cb), cb) }
            },
        );
    }

    fn unpublish(&self, proc: &Proc, keys: &[Vec<u8>], info: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.unpublish, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.argv(keys), k.infos(info)?)),
            |(p, ks, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, ks, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn spawn(&self, proc: &Proc, job_info: &[Info], apps: &[App], done: Done<Vec<u8>>) {
        let f = upcall_fn!(self.spawn, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(job_info)?, k.apps(apps)?)),
            |(p, (i, ni), (a, na)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, i, ni, a, na, Some(spawn_cb), cb) }
            },
        );
    }

    fn connect(&self, procs: &[Proc], info: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.connect, done);
        self.upcall(
            done,
            |k| Ok((k.procs(procs), k.infos(info)?)),
            |((ps, nps), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(ps, nps, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn disconnect(&self, procs: &[Proc], info: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.disconnect, done);
        self.upcall(
            done,
            |k| Ok((k.procs(procs), k.infos(info)?)),
            |((ps, nps), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(ps, nps, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn register_events(&self, codes: &[pmix_status_t], info: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.register_events, done);
        self.upcall(
            done,
            |k| Ok((k.codes(codes), k.infos(info)?)),
            |((c, nc), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(c, nc, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn deregister_events(&self, codes: &[pmix_status_t], done: Done<()>) {
        let f = upcall_fn!(self.deregister_events, done);
        self.upcall(
            done,
            |k| Ok(k.codes(codes)),
            |(c, nc), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(c, nc, Some(op_cb), cb) }
            },
        );
    }

    fn notify_event(
        &self,
        code: pmix_status_t,
        source: &Proc,
        range: pmix_data_range_t,
        info: &[Info],
        done: Done<()>,
    ) {
        let f = upcall_fn!(self.notify_event, done);
        self.upcall(
            done,
            |k| Ok((k.proc(source), k.infos(info)?)),
            |(s, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(code, s, range, i, ni, Some(op_cb), cb) }
            },
        );
    }

    fn query(&self, proc: &Proc, queries: &[Query], done: Done<Vec<Info>>) {
        let f = upcall_fn!(self.query, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.queries(queries)?)),
            |(p, (q, nq)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, q, nq, Some(info_cb), cb) }
            },
        );
    }

    /// `tool_connected` returns `void`: the host always answers through the callback.
    fn tool_connected(&self, info: &[Info], done: Done<Proc>) {
        let f = upcall_fn!(self.tool_connected, done);
        self.upcall(
            done,
            |k| k.infos(info),
            |(i, ni), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(i, ni, Some(tool_cb), cb) };
                PMIX_SUCCESS
            },
        );
    }

    /// `log` returns `void`: the host always answers through the callback.
    fn log(&self, proc: &Proc, data: &[Info], directives: &[Info], done: Done<()>) {
        let f = upcall_fn!(self.log, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(data)?, k.infos(directives)?)),
            |(p, (d, nd), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, d, nd, i, ni, Some(op_cb), cb) };
                PMIX_SUCCESS
            },
        );
    }

    fn allocate(
        &self,
        proc: &Proc,
        directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<Vec<Info>>,
    ) {
        let f = upcall_fn!(self.allocate, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(info)?)),
            |(p, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, directive, i, ni, Some(info_cb), cb) }
            },
        );
    }

    fn job_control(
        &self,
        proc: &Proc,
        targets: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        let f = upcall_fn!(self.job_control, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.procs(targets), k.infos(directives)?)),
            |(p, (t, nt), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, t, nt, i, ni, Some(info_cb), cb) }
            },
        );
    }

    fn monitor(
        &self,
        proc: &Proc,
        monitor: &Info,
        error: pmix_status_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        let f = upcall_fn!(self.monitor, done);
        self.upcall(
            done,
            |k| {
                let (m, _) = k.infos(core::slice::from_ref(monitor))?;
                Ok((k.proc(proc), m, k.infos(directives)?))
            },
            |(p, m, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, m, error, i, ni, Some(info_cb), cb) }
            },
        );
    }

    fn get_credential(&self, proc: &Proc, directives: &[Info], done: Done<Credential>) {
        let f = upcall_fn!(self.get_credential, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.infos(directives)?)),
            |(p, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, i, ni, Some(credential_cb), cb) }
            },
        );
    }

    fn validate_credential(
        &self,
        proc: &Proc,
        cred: &[u8],
        directives: &[Info],
        done: Done<Validation>,
    ) {
        let f = upcall_fn!(self.validate_credential, done);
        self.upcall(
            done,
            |k| Ok((k.proc(proc), k.bo(cred), k.infos(directives)?)),
            |(p, c, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, c, i, ni, Some(validation_cb), cb) }
            },
        );
    }

    fn iof_pull(
        &self,
        procs: &[Proc],
        directives: &[Info],
        channels: pmix_iof_channel_t,
        done: Done<()>,
    ) {
        let f = upcall_fn!(self.iof_pull, done);
        self.upcall(
            done,
            |k| Ok((k.procs(procs), k.infos(directives)?)),
            |((ps, nps), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(ps, nps, i, ni, channels, Some(op_cb), cb) }
            },
        );
    }

    fn push_stdin(
        &self,
        source: &Proc,
        targets: &[Proc],
        directives: &[Info],
        data: Option<&[u8]>,
        done: Done<()>,
    ) {
        let f = upcall_fn!(self.push_stdin, done);
        self.upcall(
            done,
            |k| {
                // Without data (the end of input) an empty byte object, not NULL: PRRTE's
                // upcall reads the object it is given, and OpenPMIx's tools send one.
                let bo = k.bo(data.unwrap_or(&[]));
                Ok((k.proc(source), k.procs(targets), k.infos(directives)?, bo))
            },
            |(s, (t, nt), (i, ni), bo), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(s, t, nt, i, ni, bo, Some(op_cb), cb) }
            },
        );
    }

    fn group(
        &self,
        op: pmix_group_operation_t,
        grp: &[u8],
        procs: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        let f = upcall_fn!(self.group, done);
        self.upcall(
            done,
            |k| Ok((k.cstring(grp), k.procs(procs), k.infos(directives)?)),
            |(g, (ps, nps), (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(op, g, ps, nps, i, ni, Some(info_cb), cb) }
            },
        );
    }

    fn fabric(
        &self,
        requestor: &Proc,
        op: pmix_fabric_operation_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        let f = upcall_fn!(self.fabric, done);
        self.upcall(
            done,
            |k| Ok((k.proc(requestor), k.infos(directives)?)),
            |(p, (i, ni)), cb| {
                // SAFETY: the prototype of pmix_server.h; every pointer lives in the Keep of
                // `cb` until the callback has fired.
                unsafe { f(p, op, i, ni, Some(info_cb), cb) }
            },
        );
    }
}

#[cfg(test)]
mod tests;
