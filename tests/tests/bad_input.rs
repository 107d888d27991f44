//! Every export, called four ways (table.rs): all pointers NULL; counted arrays given as
//! `(NULL, 1)`; infos and procs whose key or namespace has no terminator in its buffer; and
//! valid arguments.
//!
//! * Our library must never crash or hang, must answer bad input with an error status, and
//!   must leave the caller's out-parameters untouched when it fails.
//! * For the functions that need a session (client, server and tool API), our answer before
//!   initialization must equal the reference's, called the same way in a child process (the
//!   reference crashes on several of these inputs; there, ours must return an error). The
//!   few entries where we deliberately differ are listed in `KNOWN_DIFFERENCES`, each with its
//!   reason; the test fails if one of them stops differing, so the list stays true.
//!
//! This binary never initializes the reference.

use std::ffi::{c_char, c_void};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use pmix_abi_tests::{Pmix, ours, reference_uninitialized};
use pmix_sys::*;

#[path = "bad_input/table.rs"]
mod table;
#[path = "bad_input/table5.rs"]
mod table5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Null,
    NullCount,
    BadKey,
    Valid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Needs an initialized client, server or tool: compared with the reference before init.
    Session,
    /// Works without a session in our library.
    Implemented,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    Status(pmix_status_t),
    Int(i64),
    Ptr(bool),
    Void,
}

pub(crate) struct Entry {
    pub name: &'static str,
    pub kind: Kind,
    /// The modes that differ from `Mode::Valid` for this function's parameters, and `Valid`.
    pub modes: &'static [Mode],
    pub call: fn(&Pmix, Mode, &mut Args) -> Outcome,
}

/// Where we deliberately answer differently from the reference before init.
const KNOWN_DIFFERENCES: &[(&str, Mode, &str)] = &[
    (
        "PMIx_server_init",
        Mode::BadKey,
        "an info key without a terminator: ours refuses it (BAD_PARAM), the reference reads on",
    ),
    (
        "PMIx_tool_init",
        Mode::BadKey,
        "an info key without a terminator: ours refuses it (BAD_PARAM), the reference reads on",
    ),
    (
        "PMIx_server_IOF_deliver",
        Mode::NullCount,
        "the reference claims success before init; ours says PMIX_ERR_INIT",
    ),
    (
        "PMIx_server_IOF_deliver",
        Mode::BadKey,
        "the reference claims success before init; ours says PMIX_ERR_INIT",
    ),
    (
        "PMIx_server_IOF_deliver",
        Mode::Valid,
        "the reference claims success before init; ours says PMIX_ERR_INIT",
    ),
];

/// Valid data for `Mode::Valid`, bad data for the other modes, and out-parameters filled
/// with a sentinel so that writes can be detected.
pub(crate) struct Args {
    procs: [pmix_proc_t; 2],
    procs_bad: [pmix_proc_t; 1],
    infos: [pmix_info_t; 1],
    infos_bad: [pmix_info_t; 1],
    value: pmix_value_t,
    text: [c_char; 512],
    argv: [*mut c_char; 2],
    app: pmix_app_t,
    pdata: pmix_pdata_t,
    pdata_bad: pmix_pdata_t,
    bo: pmix_byte_object_t,
    fabric: pmix_fabric_t,
    topo: pmix_topology_t,
    cpuset: pmix_cpuset_t,
    query_keys: [*mut c_char; 2],
    query: pmix_query_t,
    codes: [pmix_status_t; 1],
    size_out: usize,
    module: pmix_server_module_t,
    loc: pmix_locality_t,
    dbuf: pmix_data_buffer_t,
    darray: pmix_data_array_t,
    bytes: [u8; 8],
    i32_out: i32,
    scratch: [u64; 512],
    out_ptr: *mut c_void,
    /// Room for one object that a valid call constructs (the largest is a pmix_info_t).
    obj: [u64; 128],
}

const SENTINEL_SIZE: usize = 0xABAB_ABAB;

impl Args {
    fn new() -> Box<Args> {
        // SAFETY: all-zero is valid for every field (integers, pointers, Option<fn>).
        let mut a: Box<Args> = Box::new(unsafe { std::mem::zeroed() });
        for (d, b) in a.procs[0].nspace.iter_mut().zip(b"ns1".iter()) {
            *d = *b as c_char;
        }
        a.procs[1] = a.procs[0];
        a.procs[1].rank = 1;
        a.procs_bad[0].nspace = [b'x' as c_char; PMIX_MAX_NSLEN + 1];
        for (d, b) in a.infos[0].key.iter_mut().zip(b"pmix.foo".iter()) {
            *d = *b as c_char;
        }
        a.infos[0].value.r#type = PMIX_UINT32;
        a.infos[0].value.data.uint32 = 1;
        a.infos_bad[0] = a.infos[0];
        a.infos_bad[0].key = [b'k' as c_char; PMIX_MAX_KEYLEN + 1];
        a.value.r#type = PMIX_UINT32;
        a.value.data.uint32 = 7;
        for (d, b) in a.text.iter_mut().zip(b"pmix.foo\0".iter()) {
            *d = *b as c_char;
        }
        a.argv = [a.text.as_mut_ptr(), std::ptr::null_mut()];
        a.app.cmd = a.text.as_mut_ptr();
        a.app.maxprocs = 1;
        a.pdata.key = a.infos[0].key;
        a.pdata.proc = a.procs[0];
        a.pdata_bad = a.pdata;
        a.pdata_bad.key = a.infos_bad[0].key;
        a.bo = pmix_byte_object_t {
            bytes: a.text.as_mut_ptr(),
            size: 2,
        };
        a.query_keys = [a.text.as_mut_ptr(), std::ptr::null_mut()];
        a.query.keys = a.query_keys.as_mut_ptr();
        a.codes = [PMIX_ERR_BAD_PARAM];
        a.size_out = SENTINEL_SIZE;
        a.darray = pmix_data_array_t {
            r#type: PMIX_UINT8,
            size: 0,
            array: std::ptr::null_mut(),
        };
        a.bytes = *b"abcdefgh";
        a.i32_out = 1;
        a.scratch = [0xABAB_ABAB_ABAB_ABAB; 512];
        a.out_ptr = a.scratch.as_mut_ptr().cast();
        a
    }
    pub fn procs(&mut self) -> *mut pmix_proc_t {
        self.procs.as_mut_ptr()
    }
    pub fn procs_bad(&mut self) -> *mut pmix_proc_t {
        self.procs_bad.as_mut_ptr()
    }
    pub fn info(&mut self) -> *mut pmix_info_t {
        self.infos.as_mut_ptr()
    }
    pub fn info_bad(&mut self) -> *mut pmix_info_t {
        self.infos_bad.as_mut_ptr()
    }
    pub fn value(&mut self) -> *mut pmix_value_t {
        &mut self.value
    }
    pub fn text(&mut self) -> *mut c_char {
        self.text.as_mut_ptr()
    }
    pub fn argv(&mut self) -> *mut *mut c_char {
        self.argv.as_mut_ptr()
    }
    pub fn app(&mut self) -> *mut pmix_app_t {
        &mut self.app
    }
    pub fn pdata(&mut self) -> *mut pmix_pdata_t {
        &mut self.pdata
    }
    pub fn pdata_bad(&mut self) -> *mut pmix_pdata_t {
        &mut self.pdata_bad
    }
    pub fn bo(&mut self) -> *mut pmix_byte_object_t {
        &mut self.bo
    }
    pub fn fabric(&mut self) -> *mut pmix_fabric_t {
        &mut self.fabric
    }
    pub fn topo(&mut self) -> *mut pmix_topology_t {
        &mut self.topo
    }
    pub fn cpuset(&mut self) -> *mut pmix_cpuset_t {
        &mut self.cpuset
    }
    pub fn query(&mut self) -> *mut pmix_query_t {
        &mut self.query
    }
    pub fn codes(&mut self) -> *mut pmix_status_t {
        self.codes.as_mut_ptr()
    }
    pub fn size_out(&mut self) -> *mut usize {
        &mut self.size_out
    }
    pub fn module(&mut self) -> *mut pmix_server_module_t {
        &mut self.module
    }
    pub fn loc(&mut self) -> *mut pmix_locality_t {
        &mut self.loc
    }
    pub fn dbuf(&mut self) -> *mut pmix_data_buffer_t {
        &mut self.dbuf
    }
    pub fn darray(&mut self) -> *mut pmix_data_array_t {
        &mut self.darray
    }
    pub fn bytes(&mut self) -> *mut u8 {
        self.bytes.as_mut_ptr()
    }
    pub fn i32_out(&mut self) -> *mut i32 {
        &mut self.i32_out
    }
    /// A pointer-sized out-parameter; it initially points at scratch memory, so functions that
    /// write through `*out` (such as `PMIx_Value_unload`) have somewhere valid to write.
    /// Zeroed room for one object of any PMIx type.
    pub fn obj(&mut self) -> *mut c_void {
        self.obj.as_mut_ptr().cast()
    }
    pub fn out_ptr(&mut self) -> *mut *mut c_void {
        &mut self.out_ptr
    }
    /// Whether the generic out-parameters still hold their initial contents.
    fn outs_untouched(&self) -> bool {
        self.size_out == SENTINEL_SIZE
            && self.out_ptr == self.scratch.as_ptr().cast_mut().cast()
            && self.scratch.iter().all(|&w| w == 0xABAB_ABAB_ABAB_ABAB)
    }
}

/// Callbacks that record the status they are called with.
pub(crate) mod cb {
    use super::*;

    pub static CALLS: Mutex<Vec<pmix_status_t>> = Mutex::new(Vec::new());

    fn record(s: pmix_status_t) {
        CALLS.lock().unwrap_or_else(|e| e.into_inner()).push(s);
    }

    unsafe extern "C" fn op(s: pmix_status_t, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn info(
        s: pmix_status_t,
        _: *mut pmix_info_t,
        _: usize,
        _: *mut c_void,
        _: pmix_release_cbfunc_t,
        _: *mut c_void,
    ) {
        record(s)
    }
    unsafe extern "C" fn value(s: pmix_status_t, _: *mut pmix_value_t, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn lookup(s: pmix_status_t, _: *mut pmix_pdata_t, _: usize, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn spawn(s: pmix_status_t, _: *mut c_char, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn cred(
        s: pmix_status_t,
        _: *mut pmix_byte_object_t,
        _: *mut pmix_info_t,
        _: usize,
        _: *mut c_void,
    ) {
        record(s)
    }
    unsafe extern "C" fn valid(s: pmix_status_t, _: *mut pmix_info_t, _: usize, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn reg(s: pmix_status_t, _: usize, _: *mut c_void) {
        record(s)
    }
    #[allow(clippy::too_many_arguments)]
    unsafe extern "C" fn note(
        _: usize,
        s: pmix_status_t,
        _: *const pmix_proc_t,
        _: *mut pmix_info_t,
        _: usize,
        _: *mut pmix_info_t,
        _: usize,
        _: pmix_event_notification_cbfunc_fn_t,
        _: *mut c_void,
    ) {
        record(s)
    }
    unsafe extern "C" fn iof(
        _: usize,
        _: pmix_iof_channel_t,
        _: *mut pmix_proc_t,
        _: *mut pmix_byte_object_t,
        _: *mut pmix_info_t,
        _: usize,
    ) {
        record(-9999)
    }
    unsafe extern "C" fn dist(
        s: pmix_status_t,
        _: *mut pmix_device_distance_t,
        _: usize,
        _: *mut c_void,
        _: pmix_release_cbfunc_t,
        _: *mut c_void,
    ) {
        record(s)
    }
    unsafe extern "C" fn dmodex(s: pmix_status_t, _: *mut c_char, _: usize, _: *mut c_void) {
        record(s)
    }
    unsafe extern "C" fn setup(
        s: pmix_status_t,
        _: *mut pmix_info_t,
        _: usize,
        _: *mut c_void,
        _: pmix_op_cbfunc_t,
        _: *mut c_void,
    ) {
        record(s)
    }

    pub fn pmix_op_cbfunc_t() -> pmix_op_cbfunc_t {
        Some(op)
    }
    pub fn pmix_info_cbfunc_t() -> pmix_info_cbfunc_t {
        Some(info)
    }
    pub fn pmix_value_cbfunc_t() -> pmix_value_cbfunc_t {
        Some(value)
    }
    pub fn pmix_lookup_cbfunc_t() -> pmix_lookup_cbfunc_t {
        Some(lookup)
    }
    pub fn pmix_spawn_cbfunc_t() -> pmix_spawn_cbfunc_t {
        Some(spawn)
    }
    pub fn pmix_credential_cbfunc_t() -> pmix_credential_cbfunc_t {
        Some(cred)
    }
    pub fn pmix_validation_cbfunc_t() -> pmix_validation_cbfunc_t {
        Some(valid)
    }
    pub fn pmix_hdlr_reg_cbfunc_t() -> pmix_hdlr_reg_cbfunc_t {
        Some(reg)
    }
    pub fn pmix_notification_fn_t() -> pmix_notification_fn_t {
        Some(note)
    }
    pub fn pmix_iof_cbfunc_t() -> pmix_iof_cbfunc_t {
        Some(iof)
    }
    pub fn pmix_device_dist_cbfunc_t() -> pmix_device_dist_cbfunc_t {
        Some(dist)
    }
    pub fn pmix_dmodex_response_fn_t() -> pmix_dmodex_response_fn_t {
        Some(dmodex)
    }
    pub fn pmix_setup_application_cbfunc_t() -> pmix_setup_application_cbfunc_t {
        Some(setup)
    }
}

/// What one call did: its result and the statuses its callbacks were given.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Observed {
    outcome: Outcome,
    callbacks: Vec<pmix_status_t>,
}

fn observe(e: &Entry, l: &Pmix, mode: Mode, a: &mut Args) -> Observed {
    cb::CALLS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let outcome = (e.call)(l, mode, a);
    let callbacks = std::mem::take(&mut *cb::CALLS.lock().unwrap_or_else(|e| e.into_inner()));
    Observed { outcome, callbacks }
}

/// What the reference did with the same call, run in a child process: `None` when it crashed
/// or did not return within a few seconds.
fn reference_in_child(e: &Entry, mode: Mode) -> Option<Observed> {
    let r = reference_uninitialized();
    let mut fds = [0; 2];
    // SAFETY: plain pipe/fork; the child only makes the call, writes one line and exits.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0);
        if pid == 0 {
            libc::close(fds[0]);
            let mut a = Args::new();
            let o = observe(e, r, mode, &mut a);
            let line = format!("{:?}|{:?}\n", o.outcome, o.callbacks);
            libc::write(fds[1], line.as_ptr().cast(), line.len());
            libc::_exit(0);
        }
        libc::close(fds[1]);
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut status = 0;
        loop {
            let w = libc::waitpid(pid, &mut status, libc::WNOHANG);
            if w == pid {
                break;
            }
            if Instant::now() > deadline {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
                libc::close(fds[0]);
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut buf = vec![0u8; 4096];
        let n = libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len());
        libc::close(fds[0]);
        if !libc::WIFEXITED(status) || n <= 0 {
            return None;
        }
        let text = String::from_utf8_lossy(&buf[..n as usize])
            .trim()
            .to_string();
        let (out, cbs) = text.split_once('|')?;
        Some(Observed {
            outcome: parse_outcome(out)?,
            callbacks: parse_list(cbs),
        })
    }
}

fn parse_outcome(s: &str) -> Option<Outcome> {
    let inner = |p: &str| s.strip_prefix(p)?.strip_suffix(')').map(str::to_string);
    if s == "Void" {
        Some(Outcome::Void)
    } else if let Some(v) = inner("Status(") {
        v.parse().ok().map(Outcome::Status)
    } else if let Some(v) = inner("Int(") {
        v.parse().ok().map(Outcome::Int)
    } else {
        inner("Ptr(").map(|v| Outcome::Ptr(v == "true"))
    }
}

fn parse_list(s: &str) -> Vec<pmix_status_t> {
    s.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .collect()
}

fn is_error(o: &Outcome) -> bool {
    matches!(o, Outcome::Status(s) if *s != PMIX_SUCCESS)
}

#[test]
fn every_export_handles_bad_input() {
    let o = ours();
    let mut table = table::table();
    table.extend(table5::table());
    assert_eq!(
        table.len(),
        141 + 148,
        "every exported PMIx_* function is in the table"
    );
    let mut failures = Vec::new();
    let mut still_different = vec![false; KNOWN_DIFFERENCES.len()];
    for e in &table {
        for &mode in e.modes {
            let mut a = Args::new();
            let ours = observe(e, o, mode, &mut a);
            // An init that succeeded (or left a singleton) is undone, so that every other
            // call is made on an uninitialized library, as the reference's are.
            reset(o, e.name);
            // Functions that need a session are judged against the reference below; NULL
            // pointers with zero counts are valid input for them (e.g. PMIx_Finalize(NULL, 0)).
            let checked =
                e.kind == Kind::Implemented && mode != Mode::Valid && has_pointer_args(e.name);
            if checked && matches!(ours.outcome, Outcome::Status(PMIX_SUCCESS)) {
                failures.push(format!("{} {mode:?}: success on bad input", e.name));
            }
            if is_error(&ours.outcome) && !a.outs_untouched() {
                failures.push(format!(
                    "{} {mode:?}: failed but wrote to the caller's out-parameters",
                    e.name
                ));
            }
            if e.kind != Kind::Session {
                continue;
            }
            let known = KNOWN_DIFFERENCES
                .iter()
                .position(|(n, m, _)| *n == e.name && *m == mode);
            match reference_in_child(e, mode) {
                None => {
                    if !is_error(&ours.outcome) && ours.outcome != Outcome::Void {
                        failures.push(format!(
                            "{} {mode:?}: the reference crashes; ours must fail, got {:?}",
                            e.name, ours.outcome
                        ));
                    }
                }
                Some(r) if r == ours => {}
                Some(r) => match known {
                    Some(i) => still_different[i] = true,
                    None => failures.push(format!(
                        "{} {mode:?}: reference {r:?}, ours {ours:?}",
                        e.name
                    )),
                },
            }
        }
    }
    for (i, (n, m, why)) in KNOWN_DIFFERENCES.iter().enumerate() {
        if !still_different[i] {
            failures.push(format!("{n} {m:?} no longer differs from the reference ({why}): remove it from KNOWN_DIFFERENCES"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Finalizes whatever role `name` may have started in our library.
fn reset(l: &Pmix, name: &str) {
    // SAFETY: the prototypes of the finalize functions in the reference headers.
    unsafe {
        match name {
            "PMIx_Init" => {
                let f: unsafe extern "C" fn(*const pmix_info_t, usize) -> pmix_status_t =
                    l.sym("PMIx_Finalize");
                f(std::ptr::null(), 0);
            }
            "PMIx_server_init" => {
                let f: unsafe extern "C" fn() -> pmix_status_t = l.sym("PMIx_server_finalize");
                f();
            }
            "PMIx_tool_init" => {
                let f: unsafe extern "C" fn() -> pmix_status_t = l.sym("PMIx_tool_finalize");
                f();
            }
            _ => {}
        }
    }
}

/// Functions that take at least one pointer argument (so their bad-input modes differ from
/// the valid one).
fn has_pointer_args(name: &str) -> bool {
    !matches!(
        name,
        "PMIx_Commit"
            | "PMIx_Initialized"
            | "PMIx_Progress"
            | "PMIx_Get_version"
            | "PMIx_Info_list_start"
            | "PMIx_server_finalize"
            | "PMIx_tool_finalize"
    ) && !name.ends_with("_string")
}
