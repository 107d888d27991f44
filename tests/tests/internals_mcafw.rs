//! MCA frameworks, components and selection, and `pmix_init_util`'s install directories: the
//! same static test framework (a 624-byte `pmix_mca_base_framework_t` built here, with test
//! components whose callbacks are defined here) is registered, opened, selected from and
//! closed on OpenPMIx 5.0.11 and on ours, each in a forked child; what each did (return
//! codes, flags, reference counts, the components left on the list, the callbacks called)
//! must be the same.
//!
//! Frameworks flagged NOREGISTER touch no variables, output streams or help messages, so
//! they run on ours now. The tests named `needs_all_families_*` also need the variable and
//! output parts of our library (they abort until merged): they are ignored until then.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::ptr;
use std::sync::Mutex;

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};

/// `pmix_list_item_t` (144 bytes): the object head is opaque here.
#[repr(C)]
struct ListItem {
    obj: [u8; 120],
    next: *mut ListItem,
    prev: *mut ListItem,
    item_free: i32,
}

/// `pmix_list_t` (272 bytes).
#[repr(C)]
struct List {
    obj: [u8; 120],
    sentinel: ListItem,
    length: usize,
}

/// `pmix_mca_base_component_t` (224 bytes).
#[repr(C)]
struct Component {
    mca_version: [c_int; 3],
    project_name: [c_char; 16],
    project_version: [c_int; 3],
    type_name: [c_char; 32],
    type_version: [c_int; 3],
    component_name: [c_char; 64],
    component_version: [c_int; 3],
    open: Option<unsafe extern "C" fn() -> c_int>,
    close: Option<unsafe extern "C" fn() -> c_int>,
    query: Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_int) -> c_int>,
    register: Option<unsafe extern "C" fn() -> c_int>,
    reserved: [c_char; 32],
}

/// `pmix_mca_base_framework_t` (624 bytes).
#[repr(C)]
struct Framework {
    project: *const c_char,
    name: *const c_char,
    description: *const c_char,
    register: Option<unsafe extern "C" fn(c_int) -> c_int>,
    open: Option<unsafe extern "C" fn(c_int) -> c_int>,
    close: Option<unsafe extern "C" fn() -> c_int>,
    flags: c_int,
    refcnt: c_int,
    static_components: *const *const Component,
    selection: *mut c_char,
    verbose: c_int,
    output: c_int,
    components: List,
    failed_components: List,
}

const NOREGISTER: c_int = 1;

fn field<const N: usize>(s: &str) -> [c_char; N] {
    let mut f = [0; N];
    for (d, b) in f.iter_mut().zip(s.bytes()) {
        *d = b as c_char;
    }
    f
}

type Query = unsafe extern "C" fn(*mut *mut c_void, *mut c_int) -> c_int;
type Simple = unsafe extern "C" fn() -> c_int;

/// A component `name` of the test framework `tfw` (project `pmix`).
fn component(
    name: &str,
    register: Option<Simple>,
    open: Option<Simple>,
    close: Option<Simple>,
    query: Option<Query>,
) -> Component {
    Component {
        mca_version: [2, 1, 0],
        project_name: field("pmix"),
        project_version: [5, 0, 11],
        type_name: field("tfw"),
        type_version: [1, 0, 0],
        component_name: field(name),
        component_version: [1, 0, 0],
        open,
        close,
        query,
        register,
        reserved: [0; 32],
    }
}

/// What `PMIX_MCA_BASE_FRAMEWORK_DECLARE` makes: the lists all zero, output -1.
fn framework(comps: *const *const Component, flags: c_int, selection: Option<&CStr>) -> Framework {
    Framework {
        project: c"pmix".as_ptr(),
        name: c"tfw".as_ptr(),
        description: c"a test framework".as_ptr(),
        register: None,
        open: None,
        close: None,
        flags,
        refcnt: 0,
        static_components: comps,
        // SAFETY: a libc copy, as the variable system would own it.
        selection: selection.map_or(ptr::null_mut(), |s| unsafe { libc::strdup(s.as_ptr()) }),
        verbose: 0,
        output: -1,
        // SAFETY: all-zero lists, as C's static declaration.
        components: unsafe { std::mem::zeroed() },
        // SAFETY: as above.
        failed_components: unsafe { std::mem::zeroed() },
    }
}

// ---- the test components: each callback logs its name ------------------------------------

static LOG: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn log(s: &'static str) {
    LOG.lock().unwrap_or_else(|e| e.into_inner()).push(s);
}

static MODULE_A: u8 = 0;
static MODULE_B: u8 = 0;

unsafe extern "C" fn a_register() -> c_int {
    log("a.register");
    0
}
unsafe extern "C" fn a_open() -> c_int {
    log("a.open");
    0
}
unsafe extern "C" fn a_close() -> c_int {
    log("a.close");
    0
}
unsafe extern "C" fn a_query(m: *mut *mut c_void, p: *mut c_int) -> c_int {
    log("a.query");
    // SAFETY: the selection's out-pointers.
    unsafe {
        *m = (&raw const MODULE_A).cast_mut().cast();
        *p = 10;
    }
    0
}
unsafe extern "C" fn b_register() -> c_int {
    log("b.register");
    0
}
unsafe extern "C" fn b_open() -> c_int {
    log("b.open");
    0
}
unsafe extern "C" fn b_query(m: *mut *mut c_void, p: *mut c_int) -> c_int {
    log("b.query");
    // SAFETY: the selection's out-pointers.
    unsafe {
        *m = (&raw const MODULE_B).cast_mut().cast();
        *p = 20;
    }
    0
}
unsafe extern "C" fn fatal_query(_m: *mut *mut c_void, _p: *mut c_int) -> c_int {
    log("fatal.query");
    -63
}
unsafe extern "C" fn declining_register() -> c_int {
    log("declining.register");
    -64
}
unsafe extern "C" fn failing_open() -> c_int {
    log("failing.open");
    -1
}
unsafe extern "C" fn failing_close() -> c_int {
    log("failing.close");
    0
}
unsafe extern "C" fn nomodule_query(_m: *mut *mut c_void, p: *mut c_int) -> c_int {
    log("nomodule.query");
    // SAFETY: the selection's out-pointer.
    unsafe { *p = 99 };
    -46
}

/// The components of the tests, leaked for the life of the child.
fn components() -> Vec<&'static Component> {
    let all = vec![
        component(
            "a",
            Some(a_register),
            Some(a_open),
            Some(a_close),
            Some(a_query),
        ),
        component("b", Some(b_register), Some(b_open), None, Some(b_query)),
        component("fatal", None, None, None, Some(fatal_query)),
        component("declining", Some(declining_register), None, None, None),
        component(
            "failing",
            None,
            Some(failing_open),
            Some(failing_close),
            None,
        ),
        component("nomodule", None, None, None, Some(nomodule_query)),
    ];
    all.into_iter().map(|c| &*Box::leak(Box::new(c))).collect()
}

/// A NULL-terminated array of the named components.
fn array(names: &[&str]) -> *const *const Component {
    let comps = components();
    let mut v: Vec<*const Component> = names
        .iter()
        .map(|n| {
            let c = comps
                .iter()
                .find(|c| {
                    // SAFETY: NUL-terminated by `field`.
                    unsafe { CStr::from_ptr(c.component_name.as_ptr()) }.to_bytes() == n.as_bytes()
                })
                .expect("a test component");
            *c as *const Component
        })
        .collect();
    v.push(ptr::null());
    v.leak().as_ptr()
}

/// The names of the components on a framework's list.
fn names_on(l: *mut List) -> String {
    let mut out = Vec::new();
    // SAFETY: a constructed list of component list items (cli_component at 144).
    unsafe {
        let s = &raw mut (*l).sentinel;
        let mut i = (*s).next;
        while !i.is_null() && i != s {
            let c = *(i as *const u8).add(144).cast::<*const Component>();
            out.push(
                CStr::from_ptr((*c).component_name.as_ptr())
                    .to_string_lossy()
                    .into_owned(),
            );
            i = (*i).next;
        }
        assert_eq!(out.len(), (*l).length, "list length");
    }
    out.join(",")
}

fn sym<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

type FwFn = unsafe extern "C" fn(*mut Framework, c_int) -> c_int;
type FwClose = unsafe extern "C" fn(*mut Framework) -> c_int;
type Select = unsafe extern "C" fn(
    *const c_char,
    c_int,
    *mut List,
    *mut *mut c_void,
    *mut *mut Component,
    *mut c_int,
) -> c_int;

/// One framework's life on library `l`, described: after each step, its return code, the
/// framework's flags and reference count, the components on its list and the callbacks
/// called.
fn life(l: &Pmix, fw: &mut Framework, steps: &[&str]) -> Vec<String> {
    let register: FwFn = sym(l, "pmix_mca_base_framework_register");
    let open: FwFn = sym(l, "pmix_mca_base_framework_open");
    let close: FwClose = sym(l, "pmix_mca_base_framework_close");
    let select: Select = sym(l, "pmix_mca_base_select");
    let mut out = Vec::new();
    for step in steps {
        // SAFETY: the framework and its components live through the child.
        let (rc, extra) = unsafe {
            match *step {
                "register" => (register(fw, 0), String::new()),
                "register_all" => (register(fw, 1), String::new()),
                "open" => (open(fw, 0), String::new()),
                "close" => (close(fw), String::new()),
                "select" => {
                    let mut m: *mut c_void = ptr::null_mut();
                    let mut c: *mut Component = ptr::null_mut();
                    let mut prio = 7;
                    let rc = select(
                        c"tfw".as_ptr(),
                        fw.output,
                        &mut fw.components,
                        &mut m,
                        &mut c,
                        &mut prio,
                    );
                    let chosen = if c.is_null() {
                        "none".to_string()
                    } else {
                        CStr::from_ptr((*c).component_name.as_ptr())
                            .to_string_lossy()
                            .into_owned()
                    };
                    let module = if m == (&raw const MODULE_A).cast_mut().cast() {
                        "A"
                    } else if m == (&raw const MODULE_B).cast_mut().cast() {
                        "B"
                    } else if m.is_null() {
                        "null"
                    } else {
                        "other"
                    };
                    (rc, format!(" chosen={chosen} module={module} prio={prio}"))
                }
                s => panic!("unknown step {s}"),
            }
        };
        // The list exists once registered (constructed in place) and until closed.
        let registered = fw.flags & 2 != 0;
        let list = if registered {
            names_on(&mut fw.components)
        } else {
            "-".into()
        };
        let calls = std::mem::take(&mut *LOG.lock().unwrap_or_else(|e| e.into_inner())).join(" ");
        out.push(format!(
            "{step}: rc={rc}{extra} flags={} refcnt={} list=[{list}] calls=[{calls}]",
            fw.flags, fw.refcnt
        ));
    }
    out
}

/// Runs `f` on library `which` in a forked child and returns what it printed.
fn in_child(which: &str, f: fn(&Pmix) -> Vec<String>) -> Vec<String> {
    let mut fds = [0; 2];
    // SAFETY: a pipe, a fork; the child writes its answer and exits without unwinding.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0);
        if pid == 0 {
            libc::close(fds[0]);
            let l = if which == "ref" {
                reference5_uninitialized()
            } else {
                ours()
            };
            let text = f(l).join("\n");
            libc::write(fds[1], text.as_ptr().cast(), text.len());
            libc::_exit(0);
        }
        libc::close(fds[1]);
        let mut text = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len());
            if n <= 0 {
                break;
            }
            text.extend_from_slice(&buf[..n as usize]);
        }
        libc::close(fds[0]);
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{which}: the child died (status {status:#x}); it said:\n{}",
            String::from_utf8_lossy(&text)
        );
        String::from_utf8_lossy(&text)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The same scenario on both libraries, the same story.
fn same_on_both(f: fn(&Pmix) -> Vec<String>) -> Vec<String> {
    let reference = in_child("ref", f);
    let ours = in_child("ours", f);
    assert_eq!(
        ours, reference,
        "ours (left) against OpenPMIx 5.0.11 (right)"
    );
    reference
}

// ---- frameworks without variables: these run on ours now ----------------------------------

fn noregister_lives(l: &Pmix) -> Vec<String> {
    let mut out = Vec::new();
    for (sel, comps) in [
        (None, &["a", "b"][..]),
        (Some(c"b"), &["a", "b"][..]),
        (Some(c"^b"), &["a", "b"][..]),
        (Some(c"a,nosuch"), &["a", "b"][..]),
        (Some(c""), &["b"][..]),
    ] {
        let mut fw = framework(array(comps), NOREGISTER, sel);
        out.push(format!("selection {sel:?} over {comps:?}"));
        // Select only when one component is left, and close only while references remain:
        // unloading a component or the framework deregisters variable groups.
        let steps: &[&str] = if sel.is_none() {
            &["register", "register", "open", "open", "close"]
        } else {
            &["open", "select"]
        };
        out.extend(life(l, &mut fw, steps));
    }
    out
}

#[test]
fn noregister_frameworks_find_filter_open_and_count_alike() {
    let story = same_on_both(noregister_lives);
    // What OpenPMIx does, as read back (the differential assertion is above).
    assert!(
        story.contains(&"open: rc=0 flags=11 refcnt=1 list=[b] calls=[b.open]".to_string()),
        "{story:#?}"
    );
    assert!(
        story.contains(
            &"select: rc=0 chosen=b module=B prio=20 flags=11 refcnt=1 list=[b] calls=[b.query]"
                .to_string()
        ),
        "{story:#?}"
    );
}

fn fatal_query_stops_selection(l: &Pmix) -> Vec<String> {
    let mut fw = framework(array(&["fatal", "a"]), NOREGISTER, None);
    life(l, &mut fw, &["open", "select"])
}

#[test]
fn a_fatal_query_ends_the_selection_alike() {
    let story = same_on_both(fatal_query_stops_selection);
    assert_eq!(
        story[1],
        "select: rc=-63 chosen=none module=null prio=7 flags=11 refcnt=1 list=[fatal,a] calls=[fatal.query]"
    );
}

// ---- the full life, with variables and output: after the merge -----------------------------

type InitUtil = unsafe extern "C" fn(*mut c_void, usize, *mut c_char) -> c_int;

fn init_util(l: &Pmix) {
    let init: InitUtil = sym(l, "pmix_init_util");
    // SAFETY: no info, no path.
    assert_eq!(unsafe { init(ptr::null_mut(), 0, ptr::null_mut()) }, 0);
}

fn registered_lives(l: &Pmix) -> Vec<String> {
    init_util(l);
    let mut out = Vec::new();
    let all = &["a", "b", "declining", "failing", "nomodule"][..];
    for sel in [None, Some(c"^b"), Some(c"b,a")] {
        // The selection comes from the framework's variable (PMIX_MCA_tfw).
        match sel {
            // SAFETY: single-threaded child.
            Some(s) => unsafe { libc::setenv(c"PMIX_MCA_tfw".as_ptr(), s.as_ptr(), 1) },
            // SAFETY: as above.
            None => unsafe { libc::unsetenv(c"PMIX_MCA_tfw".as_ptr()) },
        };
        let mut fw = framework(array(all), 0, None);
        out.push(format!("selection {sel:?}"));
        out.extend(life(
            l,
            &mut fw,
            &["register", "open", "select", "close", "close"],
        ));
    }
    // SAFETY: single-threaded child.
    unsafe { libc::unsetenv(c"PMIX_MCA_tfw".as_ptr()) };
    let mut fw = framework(array(&["nomodule", "declining"]), 0, None);
    out.push("nothing to select".into());
    out.extend(life(l, &mut fw, &["open", "select", "close"]));
    let mut fw = framework(array(all), 0, None);
    out.push("register all".into());
    out.extend(life(l, &mut fw, &["register_all", "close"]));
    out
}

#[test]
fn needs_all_families_registered_frameworks_select_and_close_alike() {
    let story = same_on_both(registered_lives);
    // As OpenPMIx 5.0.11 tells it: a declining register and a failing open drop the
    // component; the loser of the selection is closed; the last close closes the rest.
    for line in [
        "register: rc=0 flags=2 refcnt=1 list=[a,b,failing,nomodule] calls=[a.register b.register declining.register]",
        "open: rc=0 flags=10 refcnt=2 list=[a,b,nomodule] calls=[a.open b.open failing.open failing.close]",
        "select: rc=0 chosen=b module=B prio=20 flags=10 refcnt=2 list=[b] calls=[a.query b.query nomodule.query a.close]",
        "close: rc=0 flags=0 refcnt=0 list=[-] calls=[a.close]",
        "select: rc=-46 chosen=none module=null prio=-2147483648 flags=10 refcnt=1 list=[] calls=[nomodule.query]",
    ] {
        assert!(story.iter().any(|s| s == line), "{line}\n{story:#?}");
    }
}

fn install_dirs(l: &Pmix) -> Vec<String> {
    // SAFETY: single-threaded child.
    unsafe {
        libc::setenv(c"PMIX_PREFIX".as_ptr(), c"/X".as_ptr(), 1);
        libc::setenv(c"PMIX_LIBDIR".as_ptr(), c"/L".as_ptr(), 1);
        libc::setenv(c"PMIX_MANDIR".as_ptr(), c"".as_ptr(), 1);
    }
    init_util(l);
    init_util(l);
    let dirs: *const [*const c_char; 17] = sym(l, "pmix_pinstall_dirs");
    // SAFETY: the exported 17 strings.
    unsafe { &*dirs }
        .iter()
        .map(|p| {
            if p.is_null() {
                "NULL".into()
            } else {
                // SAFETY: a C string.
                unsafe { CStr::from_ptr(*p) }.to_string_lossy().into_owned()
            }
        })
        .collect()
}

#[test]
fn needs_all_families_install_dirs_follow_the_environment_alike() {
    let dirs = same_on_both(install_dirs);
    assert_eq!(dirs[0], "/X");
    assert_eq!(dirs[10], "/L");
    assert_eq!(dirs[13], "/X/share/man");
    assert_eq!(dirs[14], "/X/share/pmix");
}
