//! Tests of the framework machinery with static test frameworks and components of our own.
//!
//! Variables, variable groups and output streams belong to other parts of the crate (they
//! abort until written), so these tests keep to what does not reach them: frameworks flagged
//! NOREGISTER (no variables), components that are never unloaded (unloading deregisters a
//! variable group), the selection string, selection with one candidate or a fatal query, and
//! the install directories.

use super::base::{self, ShowLoadErrors, VerboseSpec};
use super::installdirs::{self, InfoHead, InstallDirs};
use super::*;
use core::mem::{offset_of, size_of};
use std::ffi::CString;
use std::sync::Mutex;
use std::sync::atomic::AtomicI32;

const FACTS: &str = include_str!("../../../facts/layouts-mcafw.txt");

/// The tests share the statics of the MCA base: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn layouts_match_openpmix() {
    use crate::facts::layout;
    type C = Component;
    layout(
        FACTS,
        "pmix_mca_base_component_t",
        size_of::<C>(),
        &[
            (
                "pmix_mca_major_version",
                offset_of!(C, pmix_mca_major_version),
            ),
            (
                "pmix_mca_minor_version",
                offset_of!(C, pmix_mca_minor_version),
            ),
            (
                "pmix_mca_release_version",
                offset_of!(C, pmix_mca_release_version),
            ),
            (
                "pmix_mca_project_name",
                offset_of!(C, pmix_mca_project_name),
            ),
            (
                "pmix_mca_project_major_version",
                offset_of!(C, pmix_mca_project_major_version),
            ),
            (
                "pmix_mca_project_minor_version",
                offset_of!(C, pmix_mca_project_minor_version),
            ),
            (
                "pmix_mca_project_release_version",
                offset_of!(C, pmix_mca_project_release_version),
            ),
            ("pmix_mca_type_name", offset_of!(C, pmix_mca_type_name)),
            (
                "pmix_mca_type_major_version",
                offset_of!(C, pmix_mca_type_major_version),
            ),
            (
                "pmix_mca_type_minor_version",
                offset_of!(C, pmix_mca_type_minor_version),
            ),
            (
                "pmix_mca_type_release_version",
                offset_of!(C, pmix_mca_type_release_version),
            ),
            (
                "pmix_mca_component_name",
                offset_of!(C, pmix_mca_component_name),
            ),
            (
                "pmix_mca_component_major_version",
                offset_of!(C, pmix_mca_component_major_version),
            ),
            (
                "pmix_mca_component_minor_version",
                offset_of!(C, pmix_mca_component_minor_version),
            ),
            (
                "pmix_mca_component_release_version",
                offset_of!(C, pmix_mca_component_release_version),
            ),
            (
                "pmix_mca_open_component",
                offset_of!(C, pmix_mca_open_component),
            ),
            (
                "pmix_mca_close_component",
                offset_of!(C, pmix_mca_close_component),
            ),
            (
                "pmix_mca_query_component",
                offset_of!(C, pmix_mca_query_component),
            ),
            (
                "pmix_mca_register_component_params",
                offset_of!(C, pmix_mca_register_component_params),
            ),
            ("reserved", offset_of!(C, reserved)),
        ],
    );
    type F = Framework;
    layout(
        FACTS,
        "pmix_mca_base_framework_t",
        size_of::<F>(),
        &[
            ("framework_project", offset_of!(F, framework_project)),
            ("framework_name", offset_of!(F, framework_name)),
            (
                "framework_description",
                offset_of!(F, framework_description),
            ),
            ("framework_register", offset_of!(F, framework_register)),
            ("framework_open", offset_of!(F, framework_open)),
            ("framework_close", offset_of!(F, framework_close)),
            ("framework_flags", offset_of!(F, framework_flags)),
            ("framework_refcnt", offset_of!(F, framework_refcnt)),
            (
                "framework_static_components",
                offset_of!(F, framework_static_components),
            ),
            ("framework_selection", offset_of!(F, framework_selection)),
            ("framework_verbose", offset_of!(F, framework_verbose)),
            ("framework_output", offset_of!(F, framework_output)),
            ("framework_components", offset_of!(F, framework_components)),
            (
                "framework_failed_components",
                offset_of!(F, framework_failed_components),
            ),
        ],
    );
    layout(
        FACTS,
        "pmix_mca_base_component_list_item_t",
        size_of::<ComponentListItem>(),
        &[(
            "cli_component",
            offset_of!(ComponentListItem, cli_component),
        )],
    );
    type D = InstallDirs;
    layout(
        FACTS,
        "pmix_pinstall_dirs_t",
        size_of::<D>(),
        &[
            ("prefix", offset_of!(D, prefix)),
            ("exec_prefix", offset_of!(D, exec_prefix)),
            ("bindir", offset_of!(D, bindir)),
            ("sbindir", offset_of!(D, sbindir)),
            ("libexecdir", offset_of!(D, libexecdir)),
            ("datarootdir", offset_of!(D, datarootdir)),
            ("datadir", offset_of!(D, datadir)),
            ("sysconfdir", offset_of!(D, sysconfdir)),
            ("sharedstatedir", offset_of!(D, sharedstatedir)),
            ("localstatedir", offset_of!(D, localstatedir)),
            ("libdir", offset_of!(D, libdir)),
            ("includedir", offset_of!(D, includedir)),
            ("infodir", offset_of!(D, infodir)),
            ("mandir", offset_of!(D, mandir)),
            ("pmixdatadir", offset_of!(D, pmixdatadir)),
            ("pmixlibdir", offset_of!(D, pmixlibdir)),
            ("pmixincludedir", offset_of!(D, pmixincludedir)),
        ],
    );
    type S = base::OutputStream;
    layout(
        FACTS,
        "pmix_output_stream_t",
        size_of::<S>(),
        &[
            ("lds_verbose_level", offset_of!(S, lds_verbose_level)),
            ("lds_syslog_priority", offset_of!(S, lds_syslog_priority)),
            ("lds_syslog_ident", offset_of!(S, lds_syslog_ident)),
            ("lds_prefix", offset_of!(S, lds_prefix)),
            ("lds_suffix", offset_of!(S, lds_suffix)),
            ("lds_is_debugging", offset_of!(S, lds_is_debugging)),
            ("lds_want_syslog", offset_of!(S, lds_want_syslog)),
            ("lds_want_stdout", offset_of!(S, lds_want_stdout)),
            ("lds_want_stderr", offset_of!(S, lds_want_stderr)),
            ("lds_want_file", offset_of!(S, lds_want_file)),
            ("lds_want_file_append", offset_of!(S, lds_want_file_append)),
            ("lds_file_suffix", offset_of!(S, lds_file_suffix)),
        ],
    );
    layout(
        FACTS,
        "pmix_output_desc_t",
        size_of::<crate::output::OutputDesc>(),
        &[(
            "ldi_verbose_level",
            offset_of!(crate::output::OutputDesc, ldi_verbose_level),
        )],
    );
    layout(
        FACTS,
        "pmix_info_t",
        size_of::<InfoHead>(),
        &[
            ("key", offset_of!(InfoHead, key)),
            ("flags", offset_of!(InfoHead, flags)),
            ("value_type", offset_of!(InfoHead, value_type)),
            ("value_data", offset_of!(InfoHead, value_data)),
        ],
    );
    // SAFETY: reading our class descriptor.
    let size = unsafe { pmix_mca_base_component_list_item_t_class.cls_sizeof };
    assert_eq!(size, 152);
}

fn req(s: &str) -> Result<Requested, c_int> {
    let c = CString::new(s).unwrap();
    // SAFETY: a C string.
    unsafe { parse_requested(c.as_ptr()) }
}

fn names(v: &[&str]) -> Option<Vec<Vec<u8>>> {
    Some(v.iter().map(|s| s.as_bytes().to_vec()).collect())
}

#[test]
fn selection_strings_read_as_openpmix_reads_them() {
    // SAFETY: NULL is allowed.
    let all = unsafe { parse_requested(ptr::null()) }.unwrap();
    assert_eq!(
        all,
        Requested {
            include: true,
            names: None
        }
    );
    assert_eq!(req("").unwrap(), all);
    let r = req("ssh,,slurm,").unwrap();
    assert!(r.include);
    assert_eq!(r.names, names(&["ssh", "slurm"]));
    let r = req("^^ssh").unwrap();
    assert!(!r.include);
    assert_eq!(r.names, names(&["ssh"]));
    // A lone negation excludes nothing: every component.
    let r = req("^").unwrap();
    assert!(!r.include);
    assert_eq!(r.names, None);
    assert!(r.admits(b"x"));

    let inc = req("a,b").unwrap();
    assert!(inc.admits(b"a") && inc.admits(b"b") && !inc.admits(b"c"));
    let exc = req("^a").unwrap();
    assert!(!exc.admits(b"a") && exc.admits(b"b"));
}

#[test]
fn needs_all_families_misplaced_negation_is_an_error() {
    assert_eq!(req("a,^b"), Err(PMIX_ERROR));
}

// ---- test frameworks and components ----

static CALLS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn log(s: &'static str) {
    CALLS.lock().unwrap_or_else(|e| e.into_inner()).push(s);
}

fn take_log() -> Vec<&'static str> {
    core::mem::take(&mut *CALLS.lock().unwrap_or_else(|e| e.into_inner()))
}

static MOD_A: AtomicI32 = AtomicI32::new(0);
static MOD_B: AtomicI32 = AtomicI32::new(0);

unsafe extern "C" fn a_register() -> c_int {
    log("a register");
    PMIX_SUCCESS
}
unsafe extern "C" fn a_open() -> c_int {
    log("a open");
    PMIX_SUCCESS
}
unsafe extern "C" fn a_close() -> c_int {
    log("a close");
    PMIX_SUCCESS
}
unsafe extern "C" fn a_query(m: *mut *mut c_void, p: *mut c_int) -> c_int {
    log("a query");
    // SAFETY: out-pointers of the selection.
    unsafe {
        *m = (&raw const MOD_A).cast_mut().cast();
        *p = 10;
    }
    PMIX_SUCCESS
}
unsafe extern "C" fn b_register() -> c_int {
    log("b register");
    PMIX_SUCCESS
}
unsafe extern "C" fn b_open() -> c_int {
    log("b open");
    PMIX_SUCCESS
}
unsafe extern "C" fn b_query(m: *mut *mut c_void, p: *mut c_int) -> c_int {
    log("b query");
    // SAFETY: out-pointers of the selection.
    unsafe {
        *m = (&raw const MOD_B).cast_mut().cast();
        *p = 20;
    }
    PMIX_SUCCESS
}
unsafe extern "C" fn fatal_query(_m: *mut *mut c_void, _p: *mut c_int) -> c_int {
    log("fatal query");
    PMIX_ERR_FATAL
}
unsafe extern "C" fn fw_open(flags: c_int) -> c_int {
    log(if flags & OPEN_FIND_COMPONENTS != 0 {
        "fw open find"
    } else {
        "fw open"
    });
    // SAFETY: the framework under test is NOREG.
    unsafe { pmix_mca_base_framework_components_open(&raw mut NOREG, flags) }
}

static mut COMP_A: Component = Component::new(
    "test",
    "tfw",
    "a",
    ComponentFns {
        open: Some(a_open),
        close: Some(a_close),
        query: Some(a_query),
        register: Some(a_register),
    },
);
static mut COMP_B: Component = Component::new(
    "test",
    "tfw",
    "b",
    ComponentFns {
        open: Some(b_open),
        close: None,
        query: Some(b_query),
        register: Some(b_register),
    },
);
static mut COMP_FATAL: Component = Component::new(
    "test",
    "tfw",
    "fatal",
    ComponentFns {
        open: None,
        close: None,
        query: Some(fatal_query),
        register: None,
    },
);

static mut NOREG_COMPONENTS: [*const Component; 3] =
    [&raw const COMP_A, &raw const COMP_B, ptr::null()];

static mut NOREG: Framework = Framework::declare(
    c"test",
    c"tfw",
    c"a test framework".as_ptr(),
    FrameworkFns {
        register: None,
        open: Some(fw_open),
        close: None,
    },
    &raw mut NOREG_COMPONENTS as *mut *const Component,
    FLAG_NOREGISTER | FLAG_NO_DSO,
);

/// The names of the components on a list.
fn on_list(l: *mut List) -> Vec<String> {
    // SAFETY: a constructed list of component items.
    unsafe { list_items(l) }
        .into_iter()
        .map(|cli| {
            // SAFETY: items hold static components.
            unsafe { component_name((*cli).cli_component) }
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn noregister_framework_opens_its_static_components_and_counts_references() {
    let _g = serial();
    take_log();
    // SAFETY: our test framework, used by this test only.
    unsafe {
        let fw = &raw mut NOREG;
        assert_eq!((*fw).framework_output, -1);
        assert_eq!(pmix_mca_base_framework_register(fw, REGISTER_DEFAULT), 0);
        assert_eq!((*fw).framework_refcnt, 1);
        assert_eq!(
            (*fw).framework_flags,
            FLAG_NOREGISTER | FLAG_NO_DSO | FLAG_REGISTERED
        );
        // NOREGISTER: no components are found at registration.
        assert_eq!((*fw).framework_components.pmix_list_length, 0);
        let s = &raw mut (*fw).framework_failed_components.pmix_list_sentinel;
        assert_eq!((*s).pmix_list_next, s, "lists constructed in place");

        assert_eq!(pmix_mca_base_framework_open(fw, OPEN_DEFAULT), 0);
        assert_eq!((*fw).framework_refcnt, 2);
        assert_ne!((*fw).framework_flags & FLAG_OPEN, 0);
        assert_eq!(on_list(&raw mut (*fw).framework_components), ["a", "b"]);
        // Components are found at open; their register functions are not called.
        assert_eq!(take_log(), ["fw open find", "a open", "b open"]);

        // Open again: one more reference, nothing called.
        assert_eq!(pmix_mca_base_framework_open(fw, OPEN_DEFAULT), 0);
        assert_eq!((*fw).framework_refcnt, 3);
        assert!(take_log().is_empty());
        // Closing while references remain changes nothing else.
        assert_eq!(pmix_mca_base_framework_close(fw), 0);
        assert_eq!((*fw).framework_refcnt, 2);
        assert_ne!((*fw).framework_flags & FLAG_OPEN, 0);
        assert_eq!((*fw).framework_components.pmix_list_length, 2);
    }
}

/// A fresh copy of a NOREGISTER framework over `comps`, with `selection`.
fn test_framework(comps: *mut *const Component, selection: Option<&CStr>) -> Box<Framework> {
    let mut fw = Box::new(Framework::declare(
        c"test",
        c"tfw",
        ptr::null(),
        FrameworkFns::NONE,
        comps,
        FLAG_NOREGISTER,
    ));
    fw.framework_selection = selection.map_or(ptr::null_mut(), |s| s.as_ptr().cast_mut());
    fw
}

#[test]
fn selection_string_keeps_only_the_admitted_components() {
    let _g = serial();
    take_log();
    // SAFETY: frameworks of this test over static components.
    unsafe {
        let comps = &raw mut NOREG_COMPONENTS as *mut *const Component;
        for (sel, want) in [
            (Some(c"b"), vec!["b"]),
            (Some(c"^b"), vec!["a"]),
            (Some(c"b,a"), vec!["a", "b"]),
            (Some(c""), vec!["a", "b"]),
            (None, vec!["a", "b"]),
            // A requested component that does not exist is not reported before the MCA
            // base is open, and is no error.
            (Some(c"a,nosuch"), vec!["a"]),
        ] {
            let mut fw = test_framework(comps, sel);
            let fw: *mut Framework = &mut *fw;
            assert_eq!(pmix_mca_base_framework_open(fw, OPEN_DEFAULT), 0, "{sel:?}");
            assert_eq!(
                on_list(&raw mut (*fw).framework_components),
                want,
                "{sel:?}"
            );
            list::release_all(&raw mut (*fw).framework_components);
        }
    }
    take_log();
}

#[test]
fn select_picks_the_only_candidate_and_stops_at_a_fatal_query() {
    let _g = serial();
    take_log();
    // SAFETY: lists and items of this test over static components.
    unsafe {
        let l = object::new(list::list_class()) as *mut List;
        let add = |c: *const Component| {
            let cli = object::new(&raw mut pmix_mca_base_component_list_item_t_class)
                as *mut ComponentListItem;
            assert!((*cli).cli_component.is_null());
            (*cli).cli_component = c;
            list::append(l, cli.cast());
        };
        add(&raw const COMP_B);
        let mut m: *mut c_void = ptr::null_mut();
        let mut c: *mut Component = ptr::null_mut();
        let mut prio = 0;
        let rc = select::pmix_mca_base_select(c"tfw".as_ptr(), -1, l, &mut m, &mut c, &mut prio);
        assert_eq!(rc, PMIX_SUCCESS);
        assert_eq!(c, &raw mut COMP_B);
        assert_eq!(m, (&raw const MOD_B).cast_mut().cast());
        assert_eq!(prio, 20);
        assert_eq!((*l).pmix_list_length, 1);
        assert_eq!(take_log(), ["b query"]);

        // A fatal answer ends the selection at once: nothing closed, nothing chosen, the
        // priority left alone.
        list::release_all(l);
        add(&raw const COMP_FATAL);
        add(&raw const COMP_A);
        prio = 7;
        let rc = select::pmix_mca_base_select(c"tfw".as_ptr(), -1, l, &mut m, &mut c, &mut prio);
        assert_eq!(rc, PMIX_ERR_FATAL);
        assert!(c.is_null() && m.is_null());
        assert_eq!(prio, 7);
        assert_eq!((*l).pmix_list_length, 2);
        assert_eq!(take_log(), ["fatal query"]);
        list::release_all(l);
        object::release(l.cast());
    }
}

#[test]
fn load_error_settings_read_as_openpmix_reads_them() {
    use base::{parse_show_load_errors as p, string_truth as t};
    assert_eq!(t(None), Some(true));
    assert_eq!(t(Some(b"  ")), Some(true));
    assert_eq!(t(Some(b"00")), Some(false));
    assert_eq!(t(Some(b"10")), Some(true));
    assert_eq!(t(Some(b"Yes please")), Some(true));
    assert_eq!(t(Some(b"TRUE")), Some(true));
    assert_eq!(t(Some(b"none")), Some(false), "\"no\" prefix");
    assert_eq!(t(Some(b"False")), Some(false));
    assert_eq!(t(Some(b"all")), None);

    assert_eq!(p(Some(b"all")), Ok(ShowLoadErrors::All));
    assert_eq!(p(Some(b"none")), Ok(ShowLoadErrors::None));
    assert_eq!(p(Some(b"0")), Ok(ShowLoadErrors::None));
    assert_eq!(
        p(Some(b"plm/ssh,ras")),
        Ok(ShowLoadErrors::Include(vec![
            (b"plm".to_vec(), Some(b"ssh".to_vec())),
            (b"ras".to_vec(), None)
        ]))
    );
    assert_eq!(
        p(Some(b"^plm")),
        Ok(ShowLoadErrors::Exclude(vec![(b"plm".to_vec(), None)]))
    );

    let _g = serial();
    base::set_show_load_errors(p(Some(b"plm/ssh,ras")).unwrap());
    assert!(base::show_load_errors_for(b"plm", Some(b"ssh")));
    assert!(!base::show_load_errors_for(b"plm", Some(b"slurm")));
    assert!(base::show_load_errors_for(b"ras", Some(b"simulator")));
    assert!(!base::show_load_errors_for(b"odls", None));
    base::set_show_load_errors(p(Some(b"^plm")).unwrap());
    assert!(!base::show_load_errors_for(b"plm", Some(b"ssh")));
    assert!(base::show_load_errors_for(b"odls", None));
    base::set_show_load_errors(ShowLoadErrors::All);
}

#[test]
fn verbose_values_read_as_openpmix_reads_them() {
    use base::parse_verbose as p;
    assert_eq!(
        p(b"stderr"),
        VerboseSpec {
            stderr: true,
            ..Default::default()
        }
    );
    assert_eq!(
        p(b"level:5"),
        VerboseSpec {
            stderr: true,
            level: 5,
            ..Default::default()
        }
    );
    let s = p(b"stdout,,file:log,syslogpri:DEBUG,level");
    assert!(s.stdout && !s.stderr && s.file && s.syslog);
    assert_eq!(s.file_suffix.as_deref(), Some(c"log"));
    assert_eq!(s.syslog_priority, libc::LOG_DEBUG);
    assert_eq!(s.level, 0);
    let s = p(b"fileappend,syslogid:prte");
    assert!(s.file && s.file_append && s.syslog && !s.stderr);
    assert_eq!(s.syslog_ident.as_deref(), Some(c"prte"));
    // syslogid alone names no destination: stderr too.
    assert!(p(b"syslogid:x").stderr);
}

#[test]
fn install_prefix_is_above_the_lib_directory() {
    use installdirs::location_of as l;
    let v = |a: &str, b: &str| (a.as_bytes().to_vec(), b.as_bytes().to_vec());
    assert_eq!(
        l(b"/opt/pmix-rs/lib/libpmix.so.2"),
        v("/opt/pmix-rs", "lib")
    );
    assert_eq!(l(b"/opt/x/lib64/libpmix.so.2"), v("/opt/x", "lib64"));
    assert_eq!(
        l(b"/w/ompi5/lib/openmpi/libpmix.so.2"),
        v("/w/ompi5", "lib")
    );
    assert_eq!(l(b"/w/target/debug/libpmix.so"), v("/w/target", "debug"));
    assert_eq!(l(b"/lib/libpmix.so"), v("/", "lib"));
}

/// A C string of ours for a field.
fn cs(s: &str) -> *mut c_char {
    CString::new(s).unwrap().into_raw()
}

#[test]
fn references_expand_until_none_is_left() {
    let mut d = InstallDirs::NULL;
    let layout = installdirs::config_layout(b"/opt/p", b"lib");
    let f = {
        // SAFETY: 17 pointers, repr(C).
        unsafe { &mut *(&raw mut d).cast::<[*mut c_char; 17]>() }
    };
    for (slot, v) in f.iter_mut().zip(layout) {
        *slot = cs(std::str::from_utf8(&v).unwrap());
    }
    let e = |s: &str, destdir: Option<&[u8]>| {
        String::from_utf8(installdirs::expand(s.as_bytes(), &d, destdir)).unwrap()
    };
    assert_eq!(e("${datadir}/pmix", None), "/opt/p/share/pmix");
    assert_eq!(e("@{pkgdatadir}/x", None), "/opt/p/share/pmix/x");
    assert_eq!(e("${libdir}:${bindir}", None), "/opt/p/lib:/opt/p/bin");
    assert_eq!(e("-pthread", None), "-pthread");
    assert_eq!(e("${nosuch}", None), "${nosuch}");
    // PMIX_DESTDIR goes in front, and is cut from values that already carry it.
    assert_eq!(e("${prefix}/lib", Some(b"/tmp/b")), "/tmp/b/lib");
    assert_eq!(e("/opt/p", Some(b"/tmp/b")), "/tmp/b/opt/p");
    assert_eq!(e("/opt/p", Some(b"")), "//opt/p");
    for p in *f {
        // SAFETY: made by into_raw above.
        drop(unsafe { CString::from_raw(p) });
    }
}

#[test]
fn install_dirs_come_from_info_then_environment_then_the_library_location() {
    let _g = serial();
    // SAFETY: the process's install directories, set once here; environment changes made
    // while no other test reads these variables.
    unsafe {
        libc::setenv(c"PMIX_BINDIR".as_ptr(), c"/env/bin".as_ptr(), 1);
        libc::setenv(c"PMIX_MANDIR".as_ptr(), c"".as_ptr(), 1);
        libc::setenv(c"PMIX_PREFIX".as_ptr(), c"/env/prefix".as_ptr(), 1);
        let mut info: InfoHead = core::mem::zeroed();
        for (i, b) in b"pmix.prefix".iter().enumerate() {
            info.key[i] = *b as c_char;
        }
        info.value_type = 3;
        info.value_data = c"/info/prefix".as_ptr().cast_mut();
        let fw = &raw mut installdirs::PINSTALLDIRS;
        assert_eq!(pmix_mca_base_framework_open(fw, OPEN_DEFAULT), 0);
        assert_eq!(
            on_list(&raw mut (*fw).framework_components),
            ["env", "config"]
        );
        assert_eq!(installdirs::init(&info, 1), 0);
        libc::unsetenv(c"PMIX_BINDIR".as_ptr());
        libc::unsetenv(c"PMIX_MANDIR".as_ptr());
        libc::unsetenv(c"PMIX_PREFIX".as_ptr());
        let d = installdirs::get();
        let s = |p: *mut c_char| CStr::from_ptr(p).to_str().unwrap().to_string();
        assert_eq!(s(d.prefix), "/info/prefix");
        assert_eq!(s(d.bindir), "/env/bin");
        assert_eq!(s(d.datadir), "/info/prefix/share");
        assert_eq!(s(d.pmixdatadir), "/info/prefix/share/pmix");
        assert_eq!(s(d.mandir), "/info/prefix/share/man", "empty means unset");
        assert_eq!(s(d.sysconfdir), "/info/prefix/etc");
        // The exec prefix follows the prefix; libdir is under it, named after the directory
        // where this test binary lies.
        let exe = std::env::current_exe().unwrap();
        let (prefix, libname) = installdirs::location_of(exe.as_os_str().as_encoded_bytes());
        assert!(!prefix.is_empty());
        let libname = String::from_utf8(libname).unwrap();
        assert_eq!(s(d.exec_prefix), "/info/prefix");
        assert_eq!(s(d.libdir), format!("/info/prefix/{libname}"));
        assert_eq!(s(d.pmixlibdir), format!("/info/prefix/{libname}/pmix"));
        assert_eq!(s(d.pmixincludedir), "/info/prefix/include/pmix");
    }
}
