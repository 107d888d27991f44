//! `CHost` against C-style modules written in Rust: each host function checks the arguments
//! it receives (answering `PMIX_ERR_BAD_PARAM` when they are wrong, since a panic must not
//! leave an `extern "C"` function) and answers now, later from another thread, or with an
//! error. Every test checks that `done` is called exactly once.

use core::ffi::{CStr, c_char, c_void};
use core::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use pmix_core::host::{Credential, Done, Host, Upcall, Validation};
use pmix_core::values::{App, Info, Pdata, Proc, Query, Value};
use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use super::{CHost, info_cb, modex_cb, op_cb};
use crate::convert::{self, Zeroable};
use crate::ptr;

// ---------------------------------------------------------------------------------------
// Helpers

/// The results passed to a `done`, and how many times it was called.
struct Rec<T> {
    rx: mpsc::Receiver<Result<T>>,
    calls: Arc<AtomicUsize>,
}

fn recorder<T: Send + 'static>() -> (Done<T>, Rec<T>) {
    let (tx, rx) = mpsc::channel();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let done: Done<T> = Box::new(move |r| {
        c.fetch_add(1, SeqCst);
        let _ = tx.send(r);
    });
    (done, Rec { rx, calls })
}

impl<T> Rec<T> {
    /// The result of the one call of `done` (waiting for a deferred one).
    fn once(&self) -> Result<T> {
        let r = self
            .rx
            .recv_timeout(Duration::from_secs(10))
            .expect("done was not called");
        // `done` is consumed by its call, so a second one cannot come from it; a stray
        // second completion would be a use after free, which this helps a sanitizer see.
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(self.calls.load(SeqCst), 1, "done called more than once");
        r
    }
}

/// Raw pointers carried to a host's worker thread.
struct Raw<T>(T);
// SAFETY: test-only; the pointers stay valid until the callback, as the adapter promises.
unsafe impl<T> Send for Raw<T> {}

fn module() -> pmix_server_module_t {
    pmix_server_module_t::zeroed()
}

fn rq() -> Proc {
    Proc::new("ns", 3)
}

/// # Safety
/// `p` is NULL or valid.
unsafe fn proc_is(p: *const pmix_proc_t, want: &Proc) -> bool {
    // SAFETY: forwarded contract.
    match unsafe { p.as_ref() } {
        Some(p) => convert::proc_from_c(p).as_ref() == Ok(want),
        None => false,
    }
}

/// # Safety
/// `(p, n)` is a valid array.
unsafe fn infos_are(p: *const pmix_info_t, n: usize, want: &[Info]) -> bool {
    // SAFETY: forwarded contract.
    unsafe { convert::infos_from_c(p, n) }.as_deref() == Ok(want)
}

/// # Safety
/// `(p, n)` is a valid array.
unsafe fn procs_are(p: *const pmix_proc_t, n: usize, want: &[Proc]) -> bool {
    // SAFETY: forwarded contract.
    match unsafe { ptr::slice(p, n) } {
        Ok(s) => {
            s.iter()
                .map(convert::proc_from_c)
                .collect::<Result<Vec<_>>>()
                .as_deref()
                == Ok(want)
        }
        Err(_) => false,
    }
}

fn check(ok: bool, status: pmix_status_t) -> pmix_status_t {
    if ok { status } else { PMIX_ERR_BAD_PARAM }
}

fn info_u32(k: &str, v: u32) -> Info {
    Info::new(k, Value::Uint32(v))
}

// ---------------------------------------------------------------------------------------
// Immediate answers

unsafe extern "C" fn publish_succeeded(
    proc: *const pmix_proc_t,
    info: *const pmix_info_t,
    ninfo: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe { proc_is(proc, &rq()) && infos_are(info, ninfo, &[info_u32("k", 5)]) };
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

#[test]
fn operation_succeeded_completes_now() {
    let mut m = module();
    m.publish = Some(publish_succeeded);
    let host = CHost::new(&m);
    assert!(host.provides(Upcall::Publish));
    let (done, rec) = recorder();
    host.publish(&rq(), &[info_u32("k", 5)], done);
    // Completed before returning.
    assert_eq!(rec.calls.load(SeqCst), 1);
    assert_eq!(rec.once(), Ok(()));
}

unsafe extern "C" fn unpublish_not_found(
    proc: *const pmix_proc_t,
    keys: *mut *mut c_char,
    _info: *const pmix_info_t,
    ninfo: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid proc and a NULL-terminated key array.
    let ok =
        unsafe { proc_is(proc, &rq()) && ptr::argv(keys) == [PStr::from("a"), PStr::from("b")] }
            && ninfo == 0;
    check(ok, PMIX_ERR_NOT_FOUND)
}

unsafe extern "C" fn finalized_odd_status(
    _proc: *const pmix_proc_t,
    _server_object: *mut c_void,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    -4242
}

#[test]
fn error_return_completes_now_with_the_error() {
    let mut m = module();
    m.unpublish = Some(unpublish_not_found);
    m.client_finalized = Some(finalized_odd_status);
    let host = CHost::new(&m);

    let (done, rec) = recorder();
    host.unpublish(&rq(), &[b"a".to_vec(), b"b".to_vec()], &[], done);
    assert_eq!(rec.calls.load(SeqCst), 1);
    assert_eq!(rec.once(), Err(Error::NotFound));

    let (done, rec) = recorder();
    host.client_finalized(&rq(), done);
    assert_eq!(rec.once(), Err(Error::Status(-4242)));
}

static PUBLISH_CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn publish_counted(
    _proc: *const pmix_proc_t,
    _info: *const pmix_info_t,
    _ninfo: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    PUBLISH_CALLS.fetch_add(1, SeqCst);
    PMIX_OPERATION_SUCCEEDED
}

#[test]
fn unconvertible_arguments_fail_without_calling_the_host() {
    let mut m = module();
    m.publish = Some(publish_counted);
    let host = CHost::new(&m);
    let long_key = "k".repeat(PMIX_MAX_KEYLEN + 1);
    let (done, rec) = recorder();
    host.publish(&rq(), &[info_u32(&long_key, 1)], done);
    assert_eq!(rec.once(), Err(Error::BadParam));
    assert_eq!(PUBLISH_CALLS.load(SeqCst), 0);
}

// ---------------------------------------------------------------------------------------
// Deferred answers

/// The count of a release counter once it reaches `n` (the release thread calls the host's
/// `release_fn` after its callback has returned), or what it is after 5 s.
fn released(count: &AtomicUsize, n: usize) -> usize {
    for _ in 0..500 {
        if count.load(SeqCst) >= n {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    count.load(SeqCst)
}

/// Slurm's collectives call `cbfunc` holding the lock their `release_fn` takes.
static SLURM_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
static SLURM_RELEASES: AtomicUsize = AtomicUsize::new(0);
static SLURM_RELEASED_INSIDE: AtomicUsize = AtomicUsize::new(0);

std::thread_local! {
    /// Set on the host's thread while it runs the callback (holding `SLURM_LOCK`).
    static IN_SLURM_CALLBACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe extern "C" fn slurm_release(_cbdata: *mut c_void) {
    if IN_SLURM_CALLBACK.with(std::cell::Cell::get) {
        // Slurm would lock again here, on the thread that holds the lock: a deadlock.
        SLURM_RELEASED_INSIDE.fetch_add(1, SeqCst);
        return;
    }
    let _held = SLURM_LOCK.lock().unwrap();
    SLURM_RELEASES.fetch_add(1, SeqCst);
}

unsafe extern "C" fn fence_as_slurm(
    _procs: *const pmix_proc_t,
    _nprocs: usize,
    _info: *const pmix_info_t,
    _ninfo: usize,
    _data: *mut c_char,
    _ndata: usize,
    cbfunc: pmix_modex_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    let raw = Raw((cbfunc, cbdata));
    std::thread::spawn(move || {
        let raw = raw;
        let (cbfunc, cbdata) = raw.0;
        let all = b"every node's data";
        let _held = SLURM_LOCK.lock().unwrap();
        IN_SLURM_CALLBACK.with(|f| f.set(true));
        // SAFETY: the callback the adapter gave, called once with its cbdata, holding the
        // lock the release function takes, as Slurm's ring and tree collectives do.
        unsafe {
            cbfunc.unwrap()(
                PMIX_SUCCESS,
                all.as_ptr().cast(),
                all.len(),
                cbdata,
                Some(slurm_release),
                null_mut(),
            )
        };
        IN_SLURM_CALLBACK.with(|f| f.set(false));
        // Hold the lock a little after the callback returned, as Slurm does.
        std::thread::sleep(Duration::from_millis(50));
    });
    PMIX_SUCCESS
}

#[test]
fn the_release_never_runs_inside_the_hosts_callback() {
    let mut m = module();
    m.fence_nb = Some(fence_as_slurm);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.fence_nb(
        &[Proc::new("ns", PMIX_RANK_WILDCARD)],
        &[],
        b"mine".to_vec(),
        done,
    );
    assert_eq!(rec.once(), Ok(b"every node's data".to_vec()));
    assert_eq!(released(&SLURM_RELEASES, 1), 1);
    assert_eq!(SLURM_RELEASED_INSIDE.load(SeqCst), 0);
}

static FENCE_RELEASES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn fence_release(cbdata: *mut c_void) {
    // SAFETY: the Box<Vec<u8>> leaked by fence_later.
    drop(unsafe { Box::from_raw(cbdata.cast::<Vec<u8>>()) });
    FENCE_RELEASES.fetch_add(1, SeqCst);
}

/// Answers from another thread, after reading `procs` and `data` there (the host may keep
/// them until it calls back): the reply is the data followed by the ranks.
unsafe extern "C" fn fence_later(
    procs: *const pmix_proc_t,
    nprocs: usize,
    _info: *const pmix_info_t,
    ninfo: usize,
    data: *mut c_char,
    ndata: usize,
    cbfunc: pmix_modex_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    if ninfo != 1 {
        return PMIX_ERR_BAD_PARAM;
    }
    let raw = Raw((procs, nprocs, data, ndata, cbfunc, cbdata));
    std::thread::spawn(move || {
        let raw = raw;
        let (procs, nprocs, data, ndata, cbfunc, cbdata) = raw.0;
        std::thread::sleep(Duration::from_millis(20));
        // SAFETY: the adapter keeps the arguments alive until the callback.
        let mut reply = unsafe { ptr::slice(data.cast::<u8>(), ndata) }
            .unwrap()
            .to_vec();
        // SAFETY: as above.
        for p in unsafe { ptr::slice(procs, nprocs) }.unwrap() {
            reply.push(p.rank as u8);
        }
        let reply = Box::new(reply);
        let (p, n) = (reply.as_ptr(), reply.len());
        // SAFETY: the callback the adapter gave, called once with its cbdata.
        unsafe {
            cbfunc.unwrap()(
                PMIX_SUCCESS,
                p.cast(),
                n,
                cbdata,
                Some(fence_release),
                Box::into_raw(reply).cast(),
            )
        };
    });
    PMIX_SUCCESS
}

#[test]
fn deferred_fence_from_another_thread() {
    let mut m = module();
    m.fence_nb = Some(fence_later);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    let procs = [Proc::new("ns", 1), Proc::new("ns", 2)];
    host.fence_nb(&procs, &[info_u32("pmix.collect", 1)], b"xy".to_vec(), done);
    assert_eq!(rec.once(), Ok(b"xy\x01\x02".to_vec()));
    assert_eq!(released(&FENCE_RELEASES, 1), 1);
}

/// Answers at once: `PMIX_OPERATION_SUCCEEDED` (a fence with nothing to collect), or an
/// error, per the first process's rank; the callback is never called.
unsafe extern "C" fn fence_answers_now(
    procs: *const pmix_proc_t,
    nprocs: usize,
    _info: *const pmix_info_t,
    _ninfo: usize,
    _data: *mut c_char,
    _ndata: usize,
    _cbfunc: pmix_modex_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid array.
    let first = unsafe { ptr::slice(procs, nprocs) }.unwrap()[0].rank;
    if first == 1 {
        PMIX_OPERATION_SUCCEEDED
    } else {
        PMIX_ERR_TIMEOUT
    }
}

/// A host whose `fence_nb` answers `PMIX_OPERATION_SUCCEEDED` (which the standard allows)
/// completes the fence with no data, once; one that answers an error fails it with that
/// error, once (openpmix#1236: the first aborted the reference's server; ompi#5086: a
/// host's fence timeout must reach the caller).
#[test]
fn a_fence_answered_at_once_completes_once() {
    let mut m = module();
    m.fence_nb = Some(fence_answers_now);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.fence_nb(&[Proc::new("ns", 1)], &[], b"xy".to_vec(), done);
    assert_eq!(rec.calls.load(SeqCst), 1);
    assert_eq!(rec.once(), Ok(Vec::new()));
    let (done, rec) = recorder();
    host.fence_nb(&[Proc::new("ns", 2)], &[], b"xy".to_vec(), done);
    assert_eq!(rec.calls.load(SeqCst), 1);
    assert_eq!(rec.once().map_err(|e| e.status()), Err(PMIX_ERR_TIMEOUT));
}

/// Calls back inside the upcall, then overwrites its buffer: the adapter must have copied it.
unsafe extern "C" fn dmodex_now(
    proc: *const pmix_proc_t,
    _info: *const pmix_info_t,
    _ninfo: usize,
    cbfunc: pmix_modex_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid proc.
    if !unsafe { proc_is(proc, &Proc::new("remote", 7)) } {
        return PMIX_ERR_BAD_PARAM;
    }
    let mut buf = *b"blob-of-rank-7";
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe {
        cbfunc.unwrap()(
            PMIX_SUCCESS,
            buf.as_ptr().cast(),
            buf.len(),
            cbdata,
            None,
            null_mut(),
        )
    };
    buf.fill(b'X');
    std::hint::black_box(&buf);
    PMIX_SUCCESS
}

#[test]
fn modex_data_is_copied() {
    let mut m = module();
    m.direct_modex = Some(dmodex_now);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.direct_modex(&Proc::new("remote", 7), &[], done);
    assert_eq!(rec.once(), Ok(b"blob-of-rank-7".to_vec()));
}

static QUERY_RELEASES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn query_release(cbdata: *mut c_void) {
    // SAFETY: the two-info array built by query_later.
    unsafe { convert::array_free(cbdata, 2, PMIX_INFO) };
    QUERY_RELEASES.fetch_add(1, SeqCst);
}

unsafe extern "C" fn query_later(
    proct: *mut pmix_proc_t,
    queries: *mut pmix_query_t,
    nqueries: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid proc and query array.
    let ok = unsafe {
        proc_is(proct, &rq())
            && convert::array_from_c(queries.cast(), nqueries, PMIX_QUERY)
                == Ok(vec![Value::Query(Box::new(Query {
                    keys: vec![PStr::from("pmix.qry.ns")],
                    qualifiers: vec![info_u32("q", 1)],
                }))])
    };
    if !ok {
        return PMIX_ERR_BAD_PARAM;
    }
    let Ok(arr) = convert::infos_to_c(&[info_u32("a", 1), info_u32("b", 2)]) else {
        return PMIX_ERR_NOMEM;
    };
    let raw = Raw((arr, cbfunc, cbdata));
    std::thread::spawn(move || {
        let raw = raw;
        let (arr, cbfunc, cbdata) = raw.0;
        // SAFETY: the callback the adapter gave, called once with its cbdata.
        unsafe {
            cbfunc.unwrap()(
                PMIX_SUCCESS,
                arr,
                2,
                cbdata,
                Some(query_release),
                arr.cast(),
            )
        };
    });
    PMIX_SUCCESS
}

#[test]
fn info_callback_copies_then_releases_once() {
    let mut m = module();
    m.query = Some(query_later);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    let q = Query {
        keys: vec![PStr::from("pmix.qry.ns")],
        qualifiers: vec![info_u32("q", 1)],
    };
    host.query(&rq(), &[q], done);
    assert_eq!(rec.once(), Ok(vec![info_u32("a", 1), info_u32("b", 2)]));
    assert_eq!(released(&QUERY_RELEASES, 1), 1);
}

static JOBCTL_RELEASES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn jobctl_release(_cbdata: *mut c_void) {
    JOBCTL_RELEASES.fetch_add(1, SeqCst);
}

unsafe extern "C" fn jobctl_fails_in_callback(
    requestor: *const pmix_proc_t,
    targets: *const pmix_proc_t,
    ntargets: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe {
        proc_is(requestor, &rq())
            && procs_are(targets, ntargets, &[Proc::new("ns", PMIX_RANK_WILDCARD)])
            && infos_are(directives, ndirs, &[info_u32("pmix.jctrl.kill", 1)])
    };
    if !ok {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe {
        cbfunc.unwrap()(
            PMIX_ERR_NOT_FOUND,
            null_mut(),
            0,
            cbdata,
            Some(jobctl_release),
            null_mut(),
        )
    };
    PMIX_SUCCESS
}

#[test]
fn info_callback_error_still_releases_once() {
    let mut m = module();
    m.job_control = Some(jobctl_fails_in_callback);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.job_control(
        &rq(),
        &[Proc::new("ns", PMIX_RANK_WILDCARD)],
        &[info_u32("pmix.jctrl.kill", 1)],
        done,
    );
    assert_eq!(rec.once(), Err(Error::NotFound));
    assert_eq!(released(&JOBCTL_RELEASES, 1), 1);
}

unsafe extern "C" fn lookup_now(
    proc: *const pmix_proc_t,
    keys: *mut *mut c_char,
    _info: *const pmix_info_t,
    _ninfo: usize,
    cbfunc: pmix_lookup_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid proc and a NULL-terminated key array.
    let ok = unsafe {
        proc_is(proc, &rq()) && ptr::argv(keys) == [PStr::from("key0"), PStr::from("key1")]
    };
    if !ok {
        return PMIX_ERR_BAD_PARAM;
    }
    let mut pd = [pmix_pdata_t::zeroed(), pmix_pdata_t::zeroed()];
    pd[0].proc = convert::proc_to_c(&Proc::new("pub", 1));
    ptr::load_fixed(&mut pd[0].key, b"key0");
    let Ok(v) = convert::value_to_c(&Value::String(Some(PStr::from("v0")))) else {
        return PMIX_ERR_NOMEM;
    };
    pd[0].value = v;
    pd[1].proc = convert::proc_to_c(&Proc::new("pub", 2));
    ptr::load_fixed(&mut pd[1].key, b"key1");
    pd[1].value.r#type = PMIX_UINT64;
    pd[1].value.data.uint64 = 99;
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(PMIX_SUCCESS, pd.as_mut_ptr(), pd.len(), cbdata) };
    // The data stays the host's: it releases it after the callback.
    for p in &mut pd {
        // SAFETY: the values were built with libc allocations above.
        unsafe { convert::value_destruct(&mut p.value) };
    }
    PMIX_SUCCESS
}

#[test]
fn lookup_converts_pdata() {
    let mut m = module();
    m.lookup = Some(lookup_now);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.lookup(&rq(), &[b"key0".to_vec(), b"key1".to_vec()], &[], done);
    assert_eq!(
        rec.once(),
        Ok(vec![
            Pdata {
                proc: Proc::new("pub", 1),
                key: PStr::from("key0"),
                value: Value::String(Some(PStr::from("v0"))),
            },
            Pdata {
                proc: Proc::new("pub", 2),
                key: PStr::from("key1"),
                value: Value::Uint64(99),
            },
        ])
    );
}

unsafe extern "C" fn tool_later(
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_tool_connection_cbfunc_t,
    cbdata: *mut c_void,
) {
    // SAFETY: the adapter passes a valid info array.
    let status = check(
        unsafe { infos_are(info, ninfo, &[info_u32("pmix.euid", 1000)]) },
        PMIX_SUCCESS,
    );
    let raw = Raw((cbfunc, cbdata));
    std::thread::spawn(move || {
        let raw = raw;
        let (cbfunc, cbdata) = raw.0;
        let mut p = convert::proc_to_c(&Proc::new("tool-ns", 0));
        // SAFETY: the callback the adapter gave, called once with its cbdata.
        unsafe { cbfunc.unwrap()(status, &mut p, cbdata) };
    });
}

#[test]
fn tool_connected_gets_the_identity() {
    let mut m = module();
    m.tool_connected = Some(tool_later);
    let host = CHost::new(&m);
    let (done, rec) = recorder();
    host.tool_connected(&[info_u32("pmix.euid", 1000)], done);
    assert_eq!(rec.once(), Ok(Proc::new("tool-ns", 0)));
}

unsafe extern "C" fn spawn_now(
    proc: *const pmix_proc_t,
    job_info: *const pmix_info_t,
    ninfo: usize,
    apps: *const pmix_app_t,
    napps: usize,
    cbfunc: pmix_spawn_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    let want = App {
        cmd: Some(PStr::from("hostname")),
        argv: vec![PStr::from("hostname"), PStr::from("-s")],
        maxprocs: 2,
        ..App::default()
    };
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe {
        proc_is(proc, &rq())
            && infos_are(job_info, ninfo, &[])
            && convert::array_from_c(apps.cast(), napps, PMIX_APP)
                == Ok(vec![Value::App(Box::new(want))])
    };
    if !ok {
        return PMIX_ERR_BAD_PARAM;
    }
    let mut ns = *b"ns-new\0";
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(PMIX_SUCCESS, ns.as_mut_ptr().cast(), cbdata) };
    PMIX_SUCCESS
}

#[test]
fn spawn_returns_the_namespace() {
    let mut m = module();
    m.spawn = Some(spawn_now);
    let host = CHost::new(&m);
    let app = App {
        cmd: Some(PStr::from("hostname")),
        argv: vec![PStr::from("hostname"), PStr::from("-s")],
        maxprocs: 2,
        ..App::default()
    };
    let (done, rec) = recorder();
    host.spawn(&rq(), &[], &[app], done);
    assert_eq!(rec.once(), Ok(b"ns-new".to_vec()));
}

unsafe extern "C" fn get_cred_now(
    _proc: *const pmix_proc_t,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    cbfunc: pmix_credential_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    let mut secret = *b"secret";
    let mut bo = pmix_byte_object_t {
        bytes: secret.as_mut_ptr().cast(),
        size: secret.len(),
    };
    let Ok(info) = convert::infos_to_c(&[info_u32("issuer", 4)]) else {
        return PMIX_ERR_NOMEM;
    };
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(PMIX_SUCCESS, &mut bo, info, 1, cbdata) };
    // SAFETY: built above; the adapter copied it.
    unsafe { convert::array_free(info.cast(), 1, PMIX_INFO) };
    PMIX_SUCCESS
}

unsafe extern "C" fn validate_now(
    _proc: *const pmix_proc_t,
    cred: *const pmix_byte_object_t,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    cbfunc: pmix_validation_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid byte object.
    let good =
        unsafe { ptr::req(cred).and_then(|c| convert::bo_from_c(c)) } == Ok(b"secret".to_vec());
    let Ok(info) = convert::infos_to_c(&[info_u32("uid", 1000)]) else {
        return PMIX_ERR_NOMEM;
    };
    let status = if good {
        PMIX_SUCCESS
    } else {
        PMIX_ERR_NOT_SUPPORTED
    };
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(status, info, 1, cbdata) };
    // SAFETY: built above; the adapter copied it.
    unsafe { convert::array_free(info.cast(), 1, PMIX_INFO) };
    PMIX_SUCCESS
}

#[test]
fn credentials_are_copied() {
    let mut m = module();
    m.get_credential = Some(get_cred_now);
    m.validate_credential = Some(validate_now);
    let host = CHost::new(&m);

    let (done, rec) = recorder();
    host.get_credential(&rq(), &[], done);
    assert_eq!(
        rec.once(),
        Ok(Credential {
            cred: b"secret".to_vec(),
            info: vec![info_u32("issuer", 4)],
        })
    );

    let (done, rec) = recorder();
    host.validate_credential(&rq(), b"secret", &[], done);
    assert_eq!(
        rec.once(),
        Ok(Validation {
            info: vec![info_u32("uid", 1000)],
        })
    );

    let (done, rec) = recorder();
    host.validate_credential(&rq(), b"forged", &[], done);
    assert_eq!(rec.once(), Err(Error::NotSupported));
}

// ---------------------------------------------------------------------------------------
// Argument mapping of the other upcalls

static OBJ: u8 = 0;

fn obj() -> *mut c_void {
    (&raw const OBJ).cast_mut().cast()
}

unsafe extern "C" fn connected2(
    proc: *const pmix_proc_t,
    server_object: *mut c_void,
    info: *mut pmix_info_t,
    ninfo: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    if !unsafe { proc_is(proc, &rq()) && infos_are(info, ninfo, &[info_u32("c", 2)]) } {
        return PMIX_ERR_BAD_PARAM;
    }
    if server_object == obj() {
        PMIX_OPERATION_SUCCEEDED
    } else if server_object.is_null() {
        PMIX_ERR_NOT_FOUND
    } else {
        PMIX_ERR_BAD_PARAM
    }
}

unsafe extern "C" fn connected1(
    _proc: *const pmix_proc_t,
    server_object: *mut c_void,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    check(server_object == obj(), PMIX_ERR_TIMEOUT)
}

#[test]
fn client_connected_prefers_v2_and_passes_the_server_object() {
    let mut m = module();
    m.client_connected = Some(connected1);
    m.client_connected2 = Some(connected2);
    let host = CHost::new(&m);
    host.set_server_object(&rq(), obj());
    let (done, rec) = recorder();
    host.client_connected(&rq(), &[info_u32("c", 2)], done);
    assert_eq!(rec.once(), Ok(()));

    host.forget_nspace(&PStr::from("ns"));
    let (done, rec) = recorder();
    host.client_connected(&rq(), &[info_u32("c", 2)], done);
    assert_eq!(rec.once(), Err(Error::NotFound));

    let mut m = module();
    m.client_connected = Some(connected1);
    let host = CHost::new(&m);
    assert!(host.provides(Upcall::ClientConnected));
    assert!(!host.provides(Upcall::ClientConnected2));
    host.set_server_object(&rq(), obj());
    let (done, rec) = recorder();
    host.client_connected(&rq(), &[info_u32("c", 2)], done);
    assert_eq!(rec.once(), Err(Error::Timeout));
    host.forget_client(&rq());
}

unsafe extern "C" fn abort_check(
    proc: *const pmix_proc_t,
    _server_object: *mut c_void,
    status: i32,
    msg: *const c_char,
    procs: *mut pmix_proc_t,
    nprocs: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid proc and message.
    let ok = unsafe { proc_is(proc, &rq()) && CStr::from_ptr(msg).to_bytes() == b"bye" }
        && status == 3
        && procs.is_null()
        && nprocs == 0;
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

unsafe extern "C" fn dereg_check(
    codes: *mut pmix_status_t,
    ncodes: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes a valid array.
    let ok = unsafe { ptr::slice(codes, ncodes) } == Ok(&[PMIX_ERR_PROC_ABORTED_BY_SIG, -1][..]);
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

unsafe extern "C" fn notify_check(
    code: pmix_status_t,
    source: *const pmix_proc_t,
    range: pmix_data_range_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe { proc_is(source, &rq()) && infos_are(info, ninfo, &[info_u32("n", 1)]) }
        && code == -1
        && range == PMIX_RANGE_SESSION;
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

unsafe extern "C" fn stdin_check(
    source: *const pmix_proc_t,
    targets: *const pmix_proc_t,
    ntargets: usize,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    bo: *const pmix_byte_object_t,
    _cbfunc: pmix_op_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe {
        proc_is(source, &rq())
            && procs_are(targets, ntargets, &[Proc::new("ns", 0)])
            // the end of input (no data) comes as an empty byte object, never NULL
            && match bo.as_ref() {
                None => false,
                Some(b) => matches!(convert::bo_from_c(b).as_deref(), Ok(b"input") | Ok(b"")),
            }
    };
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

unsafe extern "C" fn group_check(
    op: pmix_group_operation_t,
    grp: *mut c_char,
    procs: *const pmix_proc_t,
    nprocs: usize,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok =
        unsafe { CStr::from_ptr(grp).to_bytes() == b"grp1" && procs_are(procs, nprocs, &[rq()]) }
            && op == 1;
    if !ok {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(PMIX_SUCCESS, null_mut(), 0, cbdata, None, null_mut()) };
    PMIX_SUCCESS
}

unsafe extern "C" fn monitor_check(
    requestor: *const pmix_proc_t,
    monitor: *const pmix_info_t,
    error: pmix_status_t,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    _cbfunc: pmix_info_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe { proc_is(requestor, &rq()) && infos_are(monitor, 1, &[info_u32("hb", 5)]) }
        && error == -7;
    check(ok, PMIX_OPERATION_SUCCEEDED)
}

unsafe extern "C" fn log_now(
    client: *const pmix_proc_t,
    data: *const pmix_info_t,
    ndata: usize,
    directives: *const pmix_info_t,
    ndirs: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) {
    // SAFETY: the adapter passes valid arguments.
    let ok = unsafe {
        proc_is(client, &rq())
            && infos_are(data, ndata, &[info_u32("d", 1)])
            && infos_are(directives, ndirs, &[info_u32("x", 2)])
    };
    // SAFETY: the callback the adapter gave, called once with its cbdata.
    unsafe { cbfunc.unwrap()(check(ok, PMIX_SUCCESS), cbdata) };
}

#[test]
fn arguments_of_the_other_upcalls() {
    let mut m = module();
    m.abort = Some(abort_check);
    m.deregister_events = Some(dereg_check);
    m.notify_event = Some(notify_check);
    m.push_stdin = Some(stdin_check);
    m.group = Some(group_check);
    m.monitor = Some(monitor_check);
    m.log = Some(log_now);
    let host = CHost::new(&m);

    let (done, rec) = recorder();
    host.abort(&rq(), 3, Some(b"bye"), &[], done);
    assert_eq!(rec.once(), Ok(()));

    let (done, rec) = recorder();
    host.deregister_events(&[PMIX_ERR_PROC_ABORTED_BY_SIG, -1], done);
    assert_eq!(rec.once(), Ok(()));

    let (done, rec) = recorder();
    host.notify_event(-1, &rq(), PMIX_RANGE_SESSION, &[info_u32("n", 1)], done);
    assert_eq!(rec.once(), Ok(()));

    for data in [Some(&b"input"[..]), None] {
        let (done, rec) = recorder();
        host.push_stdin(&rq(), &[Proc::new("ns", 0)], &[], data, done);
        assert_eq!(rec.once(), Ok(()));
    }

    let (done, rec) = recorder();
    host.group(1, b"grp1", &[rq()], &[], done);
    assert_eq!(rec.once(), Ok(vec![]));

    let (done, rec) = recorder();
    host.monitor(&rq(), &info_u32("hb", 5), -7, &[], done);
    assert_eq!(rec.once(), Ok(vec![]));

    let (done, rec) = recorder();
    host.log(&rq(), &[info_u32("d", 1)], &[info_u32("x", 2)], done);
    assert_eq!(rec.once(), Ok(()));
}

// ---------------------------------------------------------------------------------------
// Missing upcalls, NULL cbdata, panics

const ALL: [Upcall; 28] = [
    Upcall::ClientConnected,
    Upcall::ClientFinalized,
    Upcall::Abort,
    Upcall::FenceNb,
    Upcall::DirectModex,
    Upcall::Publish,
    Upcall::Lookup,
    Upcall::Unpublish,
    Upcall::Spawn,
    Upcall::Connect,
    Upcall::Disconnect,
    Upcall::RegisterEvents,
    Upcall::DeregisterEvents,
    Upcall::Listener,
    Upcall::NotifyEvent,
    Upcall::Query,
    Upcall::ToolConnected,
    Upcall::Log,
    Upcall::Allocate,
    Upcall::JobControl,
    Upcall::Monitor,
    Upcall::GetCredential,
    Upcall::ValidateCredential,
    Upcall::IofPull,
    Upcall::PushStdin,
    Upcall::Group,
    Upcall::Fabric,
    Upcall::ClientConnected2,
];

fn not_supported<T: Send + 'static>(call: impl FnOnce(Done<T>)) {
    let (done, rec) = recorder::<T>();
    call(done);
    assert_eq!(rec.calls.load(SeqCst), 1);
    assert!(matches!(rec.once(), Err(Error::NotSupported)));
}

#[test]
fn null_entries_are_not_provided() {
    // SAFETY: NULL is allowed.
    let host = unsafe { CHost::from_ptr(null()) };
    for u in ALL {
        assert!(!host.provides(u), "{u:?}");
    }
    let p = rq();
    let i = [info_u32("k", 1)];
    not_supported(|d| host.client_connected(&p, &i, d));
    not_supported(|d| host.client_finalized(&p, d));
    not_supported(|d| host.abort(&p, 1, None, &[], d));
    not_supported(|d| host.fence_nb(&[], &i, vec![1], d));
    not_supported(|d| host.direct_modex(&p, &i, d));
    not_supported(|d| host.publish(&p, &i, d));
    not_supported(|d| host.lookup(&p, &[], &i, d));
    not_supported(|d| host.unpublish(&p, &[], &i, d));
    not_supported(|d| host.spawn(&p, &i, &[], d));
    not_supported(|d| host.connect(&[], &i, d));
    not_supported(|d| host.disconnect(&[], &i, d));
    not_supported(|d| host.register_events(&[], &i, d));
    not_supported(|d| host.deregister_events(&[], d));
    not_supported(|d| host.notify_event(0, &p, PMIX_RANGE_LOCAL, &i, d));
    not_supported(|d| host.query(&p, &[], d));
    not_supported(|d| host.tool_connected(&i, d));
    not_supported(|d| host.log(&p, &i, &i, d));
    not_supported(|d| host.allocate(&p, 1, &i, d));
    not_supported(|d| host.job_control(&p, &[], &i, d));
    not_supported(|d| host.monitor(&p, &i[0], 0, &i, d));
    not_supported(|d| host.get_credential(&p, &i, d));
    not_supported(|d| host.validate_credential(&p, b"c", &i, d));
    not_supported(|d| host.iof_pull(&[], &i, 1, d));
    not_supported(|d| host.push_stdin(&p, &[], &i, None, d));
    not_supported(|d| host.group(0, b"g", &[], &i, d));
    not_supported(|d| host.fabric(&p, 0, &i, d));

    let mut m = module();
    m.listener = Some(listener);
    m.fabric = Some(fabric_unused);
    let host = CHost::new(&m);
    for u in ALL {
        assert_eq!(
            host.provides(u),
            matches!(u, Upcall::Listener | Upcall::Fabric),
            "{u:?}"
        );
    }
}

unsafe extern "C" fn listener(
    _sd: i32,
    _cbfunc: pmix_connection_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    PMIX_ERR_NOT_SUPPORTED
}

unsafe extern "C" fn fabric_unused(
    _requestor: *const pmix_proc_t,
    _op: pmix_fabric_operation_t,
    _directives: *const pmix_info_t,
    _ndirs: usize,
    _cbfunc: pmix_info_cbfunc_t,
    _cbdata: *mut c_void,
) -> pmix_status_t {
    PMIX_ERR_NOT_SUPPORTED
}

static NULLCB_RELEASES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn nullcb_release(_cbdata: *mut c_void) {
    NULLCB_RELEASES.fetch_add(1, SeqCst);
}

#[test]
fn null_cbdata_is_ignored_but_data_is_released() {
    // SAFETY: NULL cbdata is allowed.
    unsafe {
        op_cb(PMIX_SUCCESS, null_mut());
        info_cb(
            PMIX_SUCCESS,
            null_mut(),
            0,
            null_mut(),
            Some(nullcb_release),
            null_mut(),
        );
        modex_cb(
            PMIX_SUCCESS,
            null(),
            0,
            null_mut(),
            Some(nullcb_release),
            null_mut(),
        );
    }
    assert_eq!(released(&NULLCB_RELEASES, 2), 2);
}

unsafe extern "C" fn connect_later(
    _procs: *const pmix_proc_t,
    _nprocs: usize,
    _info: *const pmix_info_t,
    _ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    let raw = Raw((cbfunc, cbdata));
    let t = std::thread::spawn(move || {
        let raw = raw;
        let (cbfunc, cbdata) = raw.0;
        // SAFETY: the callback the adapter gave, called once with its cbdata.
        unsafe { cbfunc.unwrap()(PMIX_SUCCESS, cbdata) };
    });
    // A C host's thread: a panic of `done` reaching it would abort the test process.
    let _ = t.join();
    PMIX_SUCCESS
}

#[test]
fn a_panicking_done_does_not_unwind_into_the_host() {
    let mut m = module();
    m.connect = Some(connect_later);
    let host = CHost::new(&m);
    let called = Arc::new(AtomicBool::new(false));
    let c = called.clone();
    host.connect(
        &[rq()],
        &[],
        Box::new(move |r| {
            c.store(true, SeqCst);
            assert_eq!(r, Ok(()));
            panic!("done panics");
        }),
    );
    assert!(called.load(SeqCst));
}
