//! The OpenPMIx 5.0 exports where we chose to differ from 5.0.11 (docs/notes/abi-5.0.md):
//! inputs on which it crashes, reads garbage or drops data. What both libraries do alike is
//! compared in ctests/v5 (same C program on each).

use std::ffi::{CStr, c_char, c_void};

use pmix_abi_tests::{Pmix, ours, ours_path};
use pmix_sys::*;

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

#[test]
fn framework_names_is_a_136_byte_table_of_16_names() {
    let out = std::process::Command::new("nm")
        .args(["-D", "-S", "--defined-only"])
        .arg(ours_path())
        .output()
        .expect("nm");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.ends_with(" pmix_framework_names"))
        .expect("pmix_framework_names exported");
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(usize::from_str_radix(fields[1], 16).unwrap(), 136, "{line}");
    assert!(matches!(fields[2], "R" | "D"), "a data object: {line}");
    let l = ours();
    let table: *const [*const c_char; 17] = f(l, "pmix_framework_names");
    // SAFETY: the exported table: 16 C strings and NULL.
    let names: Vec<String> = unsafe { &*table }[..16]
        .iter()
        .map(|p| unsafe { CStr::from_ptr(*p) }.to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.first().map(String::as_str), Some("bfrops"));
    assert_eq!(names.last().map(String::as_str), Some("mca"));
    // SAFETY: as above.
    assert!(unsafe { &*table }[16].is_null());
}

#[test]
fn coord_create_sets_up_every_element() {
    let l = ours();
    let create: unsafe extern "C" fn(usize, usize) -> *mut pmix_coord_t = f(l, "PMIx_Coord_create");
    let free: unsafe extern "C" fn(*mut pmix_coord_t, usize) = f(l, "PMIx_Coord_free");
    // SAFETY: create/free pair on our library.
    unsafe {
        let c = create(2, 3);
        assert!(!c.is_null());
        for i in 0..3 {
            let e = &*c.add(i);
            assert_eq!(e.dims, 2);
            assert_eq!(e.view, PMIX_COORD_VIEW_UNDEF);
            assert_eq!(std::slice::from_raw_parts(e.coord, 2), &[0, 0]);
        }
        free(c, 3);
    }
}

#[test]
fn null_arguments_are_refused_or_ignored() {
    let l = ours();
    let append: unsafe extern "C" fn(*mut *mut *mut c_char, *const c_char) -> pmix_status_t =
        f(l, "PMIx_Argv_append_nosize");
    let setenv: unsafe extern "C" fn(
        *const c_char,
        *const c_char,
        bool,
        *mut *mut *mut c_char,
    ) -> pmix_status_t = f(l, "PMIx_Setenv");
    let check_key: unsafe extern "C" fn(*const c_char, *const c_char) -> bool =
        f(l, "PMIx_Check_key");
    let proc_invalid: unsafe extern "C" fn(*const pmix_proc_t) -> bool =
        f(l, "PMIx_Procid_invalid");
    let mut argv: *mut *mut c_char = std::ptr::null_mut();
    let mut env: *mut *mut c_char = std::ptr::null_mut();
    // SAFETY: NULLs where the reference would dereference them.
    unsafe {
        assert_eq!(
            append(std::ptr::null_mut(), c"x".as_ptr()),
            PMIX_ERR_BAD_PARAM
        );
        assert_eq!(append(&mut argv, std::ptr::null()), PMIX_ERR_BAD_PARAM);
        assert!(argv.is_null(), "nothing allocated on a refused call");
        assert_eq!(
            setenv(std::ptr::null(), c"v".as_ptr(), true, &mut env),
            PMIX_ERR_BAD_PARAM
        );
        assert!(env.is_null());
        assert!(!check_key(std::ptr::null(), c"k".as_ptr()));
        assert!(proc_invalid(std::ptr::null()));
    }
}

#[test]
fn multicluster_parse_clears_the_namespace_it_writes() {
    let l = ours();
    let parse: unsafe extern "C" fn(*mut c_char, *mut c_char, *mut c_char) =
        f(l, "PMIx_Multicluster_nspace_parse");
    let mut t = [0 as c_char; PMIX_MAX_NSLEN + 1];
    for (d, s) in t.iter_mut().zip(b"cl:ns") {
        *d = *s as c_char;
    }
    let mut c = [b'z' as c_char; PMIX_MAX_NSLEN + 1];
    let mut n = [b'z' as c_char; PMIX_MAX_NSLEN + 1];
    // SAFETY: three namespace buffers.
    unsafe {
        parse(t.as_mut_ptr(), c.as_mut_ptr(), n.as_mut_ptr());
        assert_eq!(CStr::from_ptr(c.as_ptr()), c"cl");
        assert_eq!(CStr::from_ptr(n.as_ptr()), c"ns");
    }
}

#[test]
fn sizes_leave_the_output_alone_on_error() {
    let l = ours();
    let size: unsafe extern "C" fn(*const pmix_value_t, *mut usize) -> pmix_status_t =
        f(l, "PMIx_Value_get_size");
    // SAFETY: all-zero is a PMIX_UNDEF value.
    let mut v: pmix_value_t = unsafe { std::mem::zeroed() };
    let mut sz = 777usize;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(size(&v, &mut sz), PMIX_ERR_UNKNOWN_DATA_TYPE);
        assert_eq!(sz, 777);
        v.r#type = PMIX_INFO_DIRECTIVES;
        assert_eq!(size(&v, &mut sz), PMIX_SUCCESS);
        assert_eq!(sz, 4 + std::mem::size_of::<pmix_value_t>());
        v.r#type = PMIX_APP;
        sz = 777;
        assert_eq!(size(&v, &mut sz), PMIX_ERR_UNKNOWN_DATA_TYPE);
        assert_eq!(sz, 777);
        assert_eq!(size(std::ptr::null(), &mut sz), PMIX_ERR_BAD_PARAM);
    }
}

#[test]
fn info_list_cursor_and_inserted_values() {
    let l = ours();
    let start: unsafe extern "C" fn() -> *mut c_void = f(l, "PMIx_Info_list_start");
    let release: unsafe extern "C" fn(*mut c_void) = f(l, "PMIx_Info_list_release");
    let insert: unsafe extern "C" fn(*mut c_void, *mut pmix_info_t) -> pmix_status_t =
        f(l, "PMIx_Info_list_insert");
    let get: unsafe extern "C" fn(*mut c_void, *mut c_void, *mut *mut c_void) -> *mut pmix_info_t =
        f(l, "PMIx_Info_list_get_info");
    let add_value_unique: unsafe extern "C" fn(
        *mut c_void,
        *const c_char,
        *const pmix_value_t,
        bool,
    ) -> pmix_status_t = f(l, "PMIx_Info_list_add_value_unique");
    // SAFETY: our library's list calls, with valid arguments.
    unsafe {
        let h = start();
        let mut next: *mut c_void = std::ptr::dangling_mut::<c_void>();
        assert!(
            get(h, std::ptr::null_mut(), &mut next).is_null(),
            "an empty list has no first info"
        );
        assert!(next.is_null());
        // the caller's own string, inserted: replacing it must not free it
        let mut mine: pmix_info_t = std::mem::zeroed();
        for (d, s) in mine.key.iter_mut().zip(b"k") {
            *d = *s as c_char;
        }
        let owned = libc::strdup(c"caller's".as_ptr());
        mine.value.r#type = PMIX_STRING;
        mine.value.data.string = owned;
        assert_eq!(insert(h, &mut mine), PMIX_SUCCESS);
        let mut v: pmix_value_t = std::mem::zeroed();
        v.r#type = PMIX_UINT32;
        v.data.uint32 = 5;
        assert_eq!(add_value_unique(h, c"k".as_ptr(), &v, true), PMIX_SUCCESS);
        let first = get(h, std::ptr::null_mut(), &mut next);
        assert_eq!((*first).value.r#type, PMIX_UINT32);
        assert!(next.is_null());
        // a cursor that is not one of the list's items
        assert!(get(h, (&mut mine as *mut pmix_info_t).cast(), &mut next).is_null());
        release(h);
        assert_eq!(
            CStr::from_ptr(owned),
            c"caller's",
            "the caller's value is intact"
        );
        libc::free(owned.cast());
    }
}

/// Before any init (5.0.11 dereferences its own peer there and crashes, so only ours is
/// called): a module is kept for a tool that listens later; NULL is refused. What a listening
/// tool does with the module is compared with 5.0.11 in `ctests/v5/tool_server.c`.
#[test]
fn tool_set_server_module_before_init() {
    let l = ours();
    let set: unsafe extern "C" fn(*mut pmix_server_module_t) -> pmix_status_t =
        f(l, "PMIx_tool_set_server_module");
    // SAFETY: a zeroed module (no upcalls) and NULL.
    unsafe {
        let mut m: pmix_server_module_t = std::mem::zeroed();
        assert_eq!(set(&mut m), PMIX_SUCCESS);
        assert_eq!(set(std::ptr::null_mut()), PMIX_ERR_BAD_PARAM);
    }
}

/// `PMIx_Error_string` keeps OpenPMIx 4.2's words ("NOT-FOUND", as every 4.2 consumer
/// prints them) where 5.0.11 gives the constant's name ("PMIX_ERR_NOT_FOUND"); so that a
/// 5.0 program's `PMIx_Error_code(PMIx_Error_string(rc))` still gives `rc`, our
/// `PMIx_Error_code` takes both: 5.0.11's names with 5.0.11's answers, and our own texts,
/// which 5.0.11 does not take (docs/notes/abi-5.0.md).
#[test]
fn error_code_reads_back_both_generations_texts() {
    type Str = unsafe extern "C" fn(pmix_status_t) -> *const c_char;
    type Code = unsafe extern "C" fn(*const c_char) -> pmix_status_t;
    let (o, r5) = (ours(), pmix_abi_tests::reference5_uninitialized());
    let (ostr, ocode): (Str, Code) = (f(o, "PMIx_Error_string"), f(o, "PMIx_Error_code"));
    let (rstr, rcode): (Str, Code) = (f(r5, "PMIx_Error_string"), f(r5, "PMIx_Error_code"));
    let not_found = c"ERROR STRING NOT FOUND";
    let (mut ours_texts, mut names) = (0, 0);
    for code in (-1500..=0).chain(-4100..=-2900) {
        // SAFETY: both return static C strings for any code.
        let (t_ours, t_ref5) = unsafe { (CStr::from_ptr(ostr(code)), CStr::from_ptr(rstr(code))) };
        if t_ours != not_found {
            ours_texts += 1;
            // SAFETY: a C string.
            assert_eq!(unsafe { ocode(t_ours.as_ptr()) }, code, "ours: {t_ours:?}");
        }
        if t_ref5 != not_found {
            names += 1;
            // SAFETY: as above.
            let (a, b) = unsafe { (ocode(t_ref5.as_ptr()), rcode(t_ref5.as_ptr())) };
            assert_eq!(a, b, "{t_ref5:?}: ours {a}, 5.0.11 {b}");
        }
    }
    assert!(ours_texts > 100 && names > 100, "{ours_texts} {names}");
    // SAFETY: C strings.
    unsafe {
        assert_eq!(ocode(c"NOT-FOUND".as_ptr()), PMIX_ERR_NOT_FOUND);
        assert_eq!(rcode(c"NOT-FOUND".as_ptr()), i32::MIN);
        assert_eq!(ocode(c"no such status".as_ptr()), i32::MIN);
    }
}
