//! The `PMIx_*_string` functions, `PMIx_Get_version`, `PMIx_Value_string`, `PMIx_Info_string`
//! and `PMIx_Data_print`: the same inputs on the reference library and on ours, equal text.
//!
//! The name functions are compared over the whole range of their argument type (or, for the
//! 32- and 64-bit ones, over every defined value, the ranges around them and every bit). The
//! renderings are compared for every data type with several values each, with three prefixes,
//! inside values, infos and data arrays. Where the reference prints an address or nothing, we
//! print something sensible: those places are listed in `excepted` and checked against our
//! exact text in `deviations`; docs/notes/print.md describes them.

use std::ffi::{CStr, c_char, c_void};
use std::mem::zeroed;

use pmix_abi_tests::describe;
use pmix_abi_tests::{Pmix, both, ours, reference};
use pmix_sys::*;

type NameFn<T> = unsafe extern "C" fn(T) -> *const c_char;
type ValueString = unsafe extern "C" fn(*const pmix_value_t) -> *mut c_char;
type InfoString = unsafe extern "C" fn(*const pmix_info_t) -> *mut c_char;
type DirectivesString = unsafe extern "C" fn(pmix_info_directives_t) -> *mut c_char;
type DataPrint = unsafe extern "C" fn(
    *mut *mut c_char,
    *mut c_char,
    *mut c_void,
    pmix_data_type_t,
) -> pmix_status_t;

/// OpenPMIx 4.2.2's `PMIx_IOF_channel_string` (also behind `PMIx_Data_print` and
/// `PMIx_Value_string` of an IOF channel) writes one static buffer without a lock, and never
/// clears it. The tests run on several threads of one process: those that reach it take this
/// lock, or one test's calls overwrite another's answer between the write and the read.
static REFERENCE_IOF_BUFFER: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn iof_buffer() -> std::sync::MutexGuard<'static, ()> {
    REFERENCE_IOF_BUFFER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The text of a static C string.
fn text(p: *const c_char) -> Option<Vec<u8>> {
    // SAFETY: the libraries return NULL or C strings.
    unsafe { p.as_ref() }.map(|_| {
        // SAFETY: not NULL, and NUL-terminated.
        unsafe { CStr::from_ptr(p) }.to_bytes().to_vec()
    })
}

/// The text of a malloc'd C string, which is then freed.
fn take(p: *mut c_char) -> Option<Vec<u8>> {
    let t = text(p);
    // SAFETY: the string was malloc'd by the library and is not used again.
    unsafe { libc::free(p.cast()) };
    t
}

fn show(t: &Option<Vec<u8>>) -> String {
    match t {
        Some(b) => format!("{:?}", String::from_utf8_lossy(b)),
        None => "NULL".into(),
    }
}

/// Calls a name function of one library on every input; the texts.
fn names<T: Copy>(l: &Pmix, name: &str, inputs: &[T]) -> Vec<Option<Vec<u8>>> {
    // SAFETY: every name function of pmix.h takes one integer and returns a C string.
    let f: NameFn<T> = unsafe { l.sym(name) };
    // SAFETY: the argument is a plain integer.
    inputs.iter().map(|&x| text(unsafe { f(x) })).collect()
}

/// Compares a name function on both libraries over `inputs`, and checks that ours returns
/// the same pointer when called twice (a static string, never an allocation).
fn compare_names<T: Copy + std::fmt::Debug>(name: &str, inputs: &[T]) {
    let [r, o] = both();
    let (a, b) = (names(r, name, inputs), names(o, name, inputs));
    let mut failures = Vec::new();
    for (i, x) in inputs.iter().enumerate() {
        if a[i] != b[i] {
            failures.push(format!(
                "{name}({x:?}): ref {} ours {}",
                show(&a[i]),
                show(&b[i])
            ));
        }
    }
    // SAFETY: as in `names`.
    let f: NameFn<T> = unsafe { o.sym(name) };
    for &x in inputs.iter().take(64) {
        // SAFETY: the argument is a plain integer.
        let (p, q) = unsafe { (f(x), f(x)) };
        assert_eq!(p, q, "{name}({x:?}) is not a static string");
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every status code in the ranges the headers use (0 down to -1000, the event and system
/// ranges around -1400, the external base at -3000 and below) and the extremes.
#[test]
fn error_string() {
    let mut v: Vec<i32> = (-1500..=1000).collect();
    v.extend(-4100..=-2900);
    v.extend([
        i32::MIN,
        i32::MIN + 1,
        i32::MAX,
        -100_000,
        -400_000,
        100_000,
    ]);
    compare_names("PMIx_Error_string", &v);
}

#[test]
fn u8_enumerations() {
    let all: Vec<u8> = (0..=255).collect();
    for name in [
        "PMIx_Proc_state_string",
        "PMIx_Scope_string",
        "PMIx_Persistence_string",
        "PMIx_Data_range_string",
        "PMIx_Alloc_directive_string",
        "PMIx_Job_state_string",
        "PMIx_Link_state_string",
    ] {
        compare_names(name, &all);
    }
}

#[test]
fn u16_enumerations() {
    let _buffer = iof_buffer();
    let all: Vec<u16> = (0..=u16::MAX).collect();
    compare_names("PMIx_Data_type_string", &all);
    compare_names("PMIx_IOF_channel_string", &all);
}

#[test]
fn device_type_string() {
    let mut v: Vec<u64> = (0..=0x3ff).collect();
    v.extend((0..64).map(|b| 1u64 << b));
    v.extend((0..64).map(|b| (1u64 << b) | 4));
    v.extend([u64::MAX, u64::MAX - 1, 0x8000_0000_0000_0004]);
    compare_names("PMIx_Device_type_string", &v);
}

#[test]
fn value_comparison_string() {
    let mut v: Vec<pmix_value_cmp_t> = (0..=1000).collect();
    v.extend((0..=1000).map(|x: u32| x.wrapping_neg()));
    v.extend([u32::MAX / 2, u32::MAX / 2 + 1]);
    compare_names("PMIx_Value_comparison_string", &v);
}

#[test]
fn info_directives_string() {
    let mut inputs: Vec<u32> = (0..=0xffff).collect();
    inputs.extend((16..32).map(|b| 1u32 << b));
    inputs.extend((16..32).map(|b| (1u32 << b) | 5));
    inputs.extend([u32::MAX, PMIX_INFO_DIR_RESERVED, PMIX_INFO_DIR_RESERVED | 1]);
    let [a, b]: [Vec<Option<Vec<u8>>>; 2] = both().map(|l| {
        // SAFETY: the prototype of PMIx_Info_directives_string.
        let f: DirectivesString = unsafe { l.sym("PMIx_Info_directives_string") };
        // SAFETY: the argument is a plain integer; the result is malloc'd and freed by `take`.
        inputs.iter().map(|&x| take(unsafe { f(x) })).collect()
    });
    for (i, x) in inputs.iter().enumerate() {
        assert_eq!(a[i], b[i], "PMIx_Info_directives_string({x:#x})");
    }
}

/// OpenPMIx 4.2.2 says "OpenPMIx 4.2.2rc2 (PMIx Standard: 4.2, Stable ABI: 0.0, Provisional
/// ABI: 0.0)", 5.0.11 "OpenPMIx 5.0.11rc1 (PMIx Standard: 5.1, Stable ABI: 5.0, Provisional
/// ABI: 5.0)". Ours names itself, keeps "<word> <major>.<minor>.<release>" (PRRTE parses that
/// with sscanf and wants major 5) with 5.0's numbers and levels, and starts above '3' (Open
/// MPI 4.1 checks).
#[test]
fn get_version() {
    let parts = |l: &Pmix| {
        // SAFETY: the prototype of PMIx_Get_version.
        let f: unsafe extern "C" fn() -> *const c_char = unsafe { l.sym("PMIx_Get_version") };
        // SAFETY: no arguments.
        let p = unsafe { f() };
        // SAFETY: as in `names`: ours must return the same static string every time.
        assert_eq!(p, unsafe { f() });
        let s = String::from_utf8(text(p).expect("a version")).expect("ASCII");
        let (word, rest) = s.split_once(' ').expect("two words");
        let (version, levels) = rest.split_once(' ').expect("levels");
        let nums: Vec<u32> = version
            .split('.')
            .take(3)
            .map(|n| {
                let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().expect("number")
            })
            .collect();
        (s.clone(), word.to_string(), nums, levels.to_string())
    };
    let (rs, rword, rnums, _) = parts(reference());
    let (r5s, r5word, r5nums, r5levels) = parts(pmix_abi_tests::reference5_uninitialized());
    let (os, oword, onums, olevels) = parts(ours());
    assert_eq!(
        (rword.as_str(), r5word.as_str()),
        ("OpenPMIx", "OpenPMIx"),
        "{rs} / {r5s}"
    );
    assert_eq!(rnums, [4, 2, 2], "{rs}");
    assert_eq!(oword, "pmix-rs", "{os}");
    assert!(os.as_bytes()[0] >= b'3', "{os}");
    assert_eq!(onums, r5nums, "{os} vs {r5s}");
    assert_eq!(olevels, r5levels, "{os} vs {r5s}");
    assert_eq!(onums, [5, 0, 11]);
}

// ---------------------------------------------------------------------------------------
// Renderings

struct Api {
    value_string: ValueString,
    info_string: InfoString,
    data_print: DataPrint,
}

fn api(l: &Pmix) -> Api {
    // SAFETY: the prototypes of pmix.h.
    unsafe {
        Api {
            value_string: l.sym("PMIx_Value_string"),
            info_string: l.sym("PMIx_Info_string"),
            data_print: l.sym("PMIx_Data_print"),
        }
    }
}

/// What `PMIx_Data_print` left in `output`: the status and the text, or "untouched".
#[derive(Clone, PartialEq)]
enum Out {
    Untouched(pmix_status_t),
    Text(pmix_status_t, Option<Vec<u8>>),
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::fmt::Display for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Out::Untouched(rc) => write!(f, "rc={rc} untouched"),
            Out::Text(rc, t) => write!(f, "rc={rc} {}", show(t)),
        }
    }
}

static SENTINEL: &CStr = c"<untouched>";

/// `PMIx_Data_print(&out, prefix, src, ty)` on one library.
///
/// # Safety
/// `src` is a datum of type `ty` as `PMIx_Data_print` takes it.
unsafe fn dp(a: &Api, prefix: Option<&CStr>, src: *mut c_void, ty: pmix_data_type_t) -> Out {
    let mut out = SENTINEL.as_ptr().cast_mut();
    let pre = prefix.map_or(std::ptr::null_mut(), |p| p.as_ptr().cast_mut());
    // SAFETY: forwarded contract.
    let rc = unsafe { (a.data_print)(&mut out, pre, src, ty) };
    if out == SENTINEL.as_ptr().cast_mut() {
        Out::Untouched(rc)
    } else {
        Out::Text(rc, take(out))
    }
}

fn leak<T>(v: T) -> *mut c_void {
    Box::into_raw(Box::new(v)).cast()
}

fn leak_slice<T>(v: Vec<T>) -> *mut T {
    Box::leak(v.into_boxed_slice()).as_mut_ptr()
}

fn cs(s: &str) -> *mut c_char {
    std::ffi::CString::new(s).expect("no NUL").into_raw()
}

fn key(s: &str) -> [c_char; PMIX_MAX_KEYLEN + 1] {
    let mut k = [0 as c_char; PMIX_MAX_KEYLEN + 1];
    for (d, b) in k.iter_mut().zip(s.bytes()) {
        *d = b as c_char;
    }
    k
}

fn procid(ns: &str, rank: pmix_rank_t) -> pmix_proc_t {
    // SAFETY: all-zero is a valid proc.
    let mut p: pmix_proc_t = unsafe { zeroed() };
    for (d, b) in p.nspace.iter_mut().zip(ns.bytes()) {
        *d = b as c_char;
    }
    p.rank = rank;
    p
}

/// A namespace in a buffer of the full `pmix_nspace_t` size (as arrays of namespaces hold it).
fn nspace_buf(ns: &str) -> *mut c_void {
    let mut b = [0 as c_char; PMIX_NSPACE_BUFLEN];
    for (d, c) in b.iter_mut().zip(ns.bytes()) {
        *d = c as c_char;
    }
    leak(b)
}

/// One input: a label, a type and the datum as `PMIx_Data_print` takes it.
#[derive(Clone)]
struct Case {
    label: String,
    ty: pmix_data_type_t,
    src: *mut c_void,
}

fn case(label: impl Into<String>, ty: pmix_data_type_t, src: *mut c_void) -> Case {
    Case {
        label: label.into(),
        ty,
        src,
    }
}

/// A `pmix_value_t` holding a shallow copy of the datum (no allocation; pointers into the
/// case's data).
///
/// # Safety
/// `src` is a datum of type `ty` as `PMIx_Data_print` takes it.
unsafe fn value_of(ty: pmix_data_type_t, src: *mut c_void) -> pmix_value_t {
    // SAFETY: all-zero is a valid value; every write below is of the union member (or the
    // bytes of the numeric member at offset 0) that `ty` selects.
    unsafe {
        let mut v: pmix_value_t = zeroed();
        v.r#type = ty;
        match ty {
            PMIX_STRING => v.data.string = src.cast(),
            PMIX_PROC_NSPACE => v.data.nspace = src.cast(),
            PMIX_REGEX => {
                v.data.bo = pmix_byte_object_t {
                    bytes: src.cast(),
                    size: CStr::from_ptr(src.cast()).to_bytes().len() + 1,
                }
            }
            PMIX_BYTE_OBJECT | PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => {
                v.data.bo = src.cast::<pmix_byte_object_t>().read()
            }
            PMIX_ENVAR => v.data.envar = src.cast::<pmix_envar_t>().read(),
            PMIX_POINTER => v.data.ptr = src.cast::<*mut c_void>().read(),
            PMIX_PROC | PMIX_PROC_INFO | PMIX_DATA_ARRAY | PMIX_COORD | PMIX_REGATTR
            | PMIX_PROC_CPUSET | PMIX_GEOMETRY | PMIX_DEVICE_DIST | PMIX_ENDPOINT | PMIX_TOPO
            | PMIX_PROC_STATS | PMIX_DISK_STATS | PMIX_NET_STATS | PMIX_NODE_STATS
            | PMIX_DATA_BUFFER => v.data.ptr = src,
            _ => {
                let n = describe::elem_size(ty).expect("a numeric type");
                std::ptr::copy_nonoverlapping(src.cast::<u8>(), (&raw mut v.data).cast::<u8>(), n);
            }
        }
        v
    }
}

/// Types a `pmix_value_t` can hold.
fn value_type(ty: pmix_data_type_t) -> bool {
    !matches!(
        ty,
        PMIX_APP | PMIX_INFO | PMIX_PDATA | PMIX_KVAL | PMIX_QUERY | PMIX_BUFFER | PMIX_VALUE
    )
}

fn info_of(k: &str, flags: pmix_info_directives_t, value: pmix_value_t) -> pmix_info_t {
    pmix_info_t {
        key: key(k),
        flags,
        value,
    }
}

/// A data array of `ty` holding shallow copies of the data of `cases` (all of type `ty`).
///
/// # Safety
/// Every case's `src` is a datum of type `ty` as `PMIx_Data_print` takes it.
unsafe fn darray_of(ty: pmix_data_type_t, cases: &[&Case]) -> pmix_data_array_t {
    let size = describe::elem_size(ty).expect("an array type");
    let mut bytes = vec![0u8; size * cases.len()];
    for (i, c) in cases.iter().enumerate() {
        let slot = &mut bytes[i * size..(i + 1) * size];
        match ty {
            // Arrays of strings hold the pointers.
            PMIX_STRING | PMIX_REGEX => slot.copy_from_slice(&(c.src as usize).to_ne_bytes()),
            // SAFETY: the datum has `size` bytes.
            _ => unsafe {
                std::ptr::copy_nonoverlapping(c.src.cast::<u8>(), slot.as_mut_ptr(), size)
            },
        }
    }
    // Keep the elements aligned for their C type.
    let words = bytes.len().div_ceil(8);
    let mut aligned = vec![0u64; words.max(1)];
    // SAFETY: `aligned` has at least `bytes.len()` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), aligned.as_mut_ptr().cast(), bytes.len())
    };
    pmix_data_array_t {
        r#type: ty,
        size: cases.len(),
        array: leak_slice(aligned).cast(),
    }
}

/// Every case: several data of every type.
fn cases() -> Vec<Case> {
    let mut c = Vec::new();
    macro_rules! num {
        ($ty:expr, $t:ty, [$($v:expr),*]) => {
            $( {
                let v: $t = $v;
                c.push(case(format!("{} {:?}", stringify!($ty), v), $ty, leak::<$t>(v)));
            } )*
        };
    }
    num!(PMIX_BOOL, u8, [1, 0, 2]);
    num!(PMIX_BYTE, u8, [0, 7, 200, 255]);
    for s in ["hello world", "", "tab\there", "ünï"] {
        c.push(case(format!("string {s:?}"), PMIX_STRING, cs(s).cast()));
    }
    let nonutf8: &'static [u8] = b"\xff\xfe bytes\0";
    c.push(case(
        "string non-UTF-8",
        PMIX_STRING,
        nonutf8.as_ptr().cast_mut().cast(),
    ));
    num!(PMIX_SIZE, usize, [0, 123, usize::MAX]);
    num!(PMIX_PID, i32, [0, 4321, -5]);
    num!(PMIX_INT, i32, [0, -123456, i32::MIN, i32::MAX]);
    num!(PMIX_INT8, i8, [-128, 0, 127]);
    num!(PMIX_INT16, i16, [-300, i16::MIN, i16::MAX]);
    num!(PMIX_INT32, i32, [-7, i32::MIN]);
    num!(PMIX_INT64, i64, [-9_000_000_000, i64::MIN, i64::MAX]);
    num!(PMIX_UINT, u32, [0, 4_000_000_000]);
    num!(PMIX_UINT8, u8, [0, 255]);
    num!(PMIX_UINT16, u16, [65000, 0]);
    num!(PMIX_UINT32, u32, [u32::MAX, 3]);
    num!(PMIX_UINT64, u64, [u64::MAX, 0]);
    num!(
        PMIX_FLOAT,
        f32,
        [
            1.5,
            -2.25,
            1.0 / 3.0,
            0.0078125,
            f32::NAN,
            -f32::NAN,
            f32::NEG_INFINITY,
            1e30,
            -0.0,
            1e-45,
            123_456_790.0,
            0.000_000_5
        ]
    );
    num!(
        PMIX_DOUBLE,
        f64,
        [
            -2.25,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.0078125,
            0.000_000_5,
            2.5e-6,
            f64::INFINITY,
            f64::NAN,
            -0.0,
            123_456_789.123_456_79,
            1e15 + 0.3
        ]
    );
    for (s, u) in [(12, 34), (-1, 5), (5, -3), (5, 12_345_678), (0, 0)] {
        c.push(case(
            format!("timeval {s}.{u}"),
            PMIX_TIMEVAL,
            leak(libc::timeval {
                tv_sec: s,
                tv_usec: u,
            }),
        ));
    }
    num!(
        PMIX_TIME,
        i64,
        [0, 1000, -1, 1_700_000_000, 253_402_300_800, -62_167_219_201]
    );
    num!(PMIX_STATUS, i32, [0, -27, -3000, 5, i32::MIN, -1367, -46]);
    let long_ns = "n".repeat(PMIX_MAX_NSLEN);
    for (ns, r) in [
        ("ns.a", 0),
        ("ns.b", PMIX_RANK_WILDCARD),
        ("x", PMIX_RANK_UNDEF),
        ("", PMIX_RANK_LOCAL_NODE),
        ("y", PMIX_RANK_INVALID),
        ("z", PMIX_RANK_LOCAL_PEERS),
        (long_ns.as_str(), 7),
    ] {
        c.push(case(
            format!("proc {ns}:{r}"),
            PMIX_PROC,
            leak(procid(ns, r)),
        ));
    }
    let bo = pmix_byte_object_t {
        bytes: b"a\0bc".as_ptr().cast_mut().cast(),
        size: 4,
    };
    let bo_empty = pmix_byte_object_t {
        bytes: std::ptr::null_mut(),
        size: 0,
    };
    for ty in [
        PMIX_BYTE_OBJECT,
        PMIX_COMPRESSED_STRING,
        PMIX_COMPRESSED_BYTE_OBJECT,
    ] {
        c.push(case(format!("bytes {ty}"), ty, leak(bo)));
        c.push(case(format!("bytes {ty} empty"), ty, leak(bo_empty)));
    }
    num!(PMIX_PERSIST, u8, [0, 1, 2, 3, 4, 5, 200, 255]);
    num!(PMIX_POINTER, usize, [0x1234, 0]);
    num!(PMIX_SCOPE, u8, [0, 1, 2, 3, 4, 5, 255]);
    num!(PMIX_DATA_RANGE, u8, [0, 1, 2, 7, 8, 255]);
    num!(PMIX_COMMAND, u8, [0, 2, 20, 32, 33, 255]);
    num!(PMIX_INFO_DIRECTIVES, u32, [0, 1, 7, 8, 0x10, u32::MAX]);
    num!(PMIX_DATA_TYPE, u16, [0, 3, 69, 70, 200]);
    num!(PMIX_PROC_STATE, u8, [0, 5, 20, 63, 64, 255]);
    let pinfo = |ns: &str, r, host: *mut c_char, exe: *mut c_char, pid, ec, st| {
        leak(pmix_proc_info_t {
            proc: procid(ns, r),
            hostname: host,
            executable_name: exe,
            pid,
            exit_code: ec,
            state: st,
        })
    };
    c.push(case(
        "proc info",
        PMIX_PROC_INFO,
        pinfo("job", 4, cs("node1"), cs("/bin/true"), 4321, 3, 5),
    ));
    c.push(case(
        "proc info NULLs",
        PMIX_PROC_INFO,
        pinfo(
            "",
            PMIX_RANK_UNDEF,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            -1,
            -255,
            200,
        ),
    ));
    c.push(case(
        "proc info empty strings",
        PMIX_PROC_INFO,
        pinfo("j", PMIX_RANK_WILDCARD, cs(""), cs(""), 0, 0, 0),
    ));
    num!(
        PMIX_PROC_RANK,
        u32,
        [
            0,
            5,
            PMIX_RANK_UNDEF,
            PMIX_RANK_WILDCARD,
            PMIX_RANK_LOCAL_NODE,
            PMIX_RANK_INVALID,
            PMIX_RANK_LOCAL_PEERS,
            PMIX_RANK_VALID
        ]
    );
    num!(PMIX_ALLOC_DIRECTIVE, u8, [0, 1, 2, 3, 4, 5, 128, 255]);
    num!(PMIX_IOF_CHANNEL, u16, [0, 3, 15, 0xff, 0x1234]);
    for (label, e, v, sep) in [
        ("envar", cs("PATH"), cs("/bin"), b':'),
        ("envar NULLs", std::ptr::null_mut(), std::ptr::null_mut(), 0),
        ("envar empty", cs(""), cs(""), b'a'),
        ("envar space", cs("A"), cs("B"), b' '),
        ("envar ^A", cs("A"), cs("B"), 1),
    ] {
        c.push(case(
            label,
            PMIX_ENVAR,
            leak(pmix_envar_t {
                envar: e,
                value: v,
                separator: sep as c_char,
            }),
        ));
    }
    let coord = |view, v: Vec<u32>| pmix_coord_t {
        view,
        dims: v.len(),
        coord: if v.is_empty() {
            std::ptr::null_mut()
        } else {
            leak_slice(v)
        },
    };
    for (view, v) in [(2, vec![1, 2, 3]), (1, vec![]), (0, vec![9]), (7, vec![])] {
        c.push(case(
            format!("coord {view} {v:?}"),
            PMIX_COORD,
            leak(coord(view, v)),
        ));
    }
    let regattr = |name: *mut c_char, s: &str, ty, desc: Vec<*mut c_char>| {
        // SAFETY: all-zero is a valid regattr.
        let mut r: pmix_regattr_t = unsafe { zeroed() };
        r.name = name;
        r.string = key(s);
        r.r#type = ty;
        r.description = if desc.is_empty() {
            std::ptr::null_mut()
        } else {
            leak_slice(desc)
        };
        leak(r)
    };
    c.push(case(
        "regattr",
        PMIX_REGATTR,
        regattr(
            cs("PMIX_RANK"),
            "pmix.rank",
            PMIX_PROC_RANK,
            vec![cs("line one"), cs("line two"), std::ptr::null_mut()],
        ),
    ));
    c.push(case(
        "regattr zero",
        PMIX_REGATTR,
        regattr(std::ptr::null_mut(), "", 0, vec![]),
    ));
    c.push(case(
        "regattr empty name",
        PMIX_REGATTR,
        regattr(cs(""), "s", 3, vec![]),
    ));
    c.push(case("regex", PMIX_REGEX, cs("pmix[node[2:0-3]]").cast()));
    c.push(case("regex empty", PMIX_REGEX, cs("").cast()));
    num!(
        PMIX_JOB_STATE,
        u8,
        [0, 1, 2, 3, 4, 5, 6, 15, 20, 50, 51, 255]
    );
    num!(PMIX_LINK_STATE, u8, [0, 1, 2, 3, 255]);
    let geometry = |fabric, uuid, osname, coords: Vec<pmix_coord_t>| {
        leak(pmix_geometry_t {
            fabric,
            uuid,
            osname,
            ncoords: coords.len(),
            coordinates: if coords.is_empty() {
                std::ptr::null_mut()
            } else {
                leak_slice(coords)
            },
        })
    };
    c.push(case(
        "geometry",
        PMIX_GEOMETRY,
        geometry(2, cs("g"), cs("ib0"), vec![coord(2, vec![1, 2, 3])]),
    ));
    c.push(case(
        "geometry NULLs",
        PMIX_GEOMETRY,
        geometry(
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            vec![coord(1, vec![5, 6]), coord(2, vec![])],
        ),
    ));
    c.push(case(
        "geometry empty",
        PMIX_GEOMETRY,
        geometry(usize::MAX, cs(""), cs(""), vec![]),
    ));
    for (label, u, o, t, mn, mx) in [
        ("devdist", cs("u-1"), cs("eth0"), PMIX_DEVTYPE_NETWORK, 1, 9),
        (
            "devdist NULLs",
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            3,
            0,
            u16::MAX,
        ),
        ("devdist empty", cs(""), cs(""), 0x20, 7, 7),
    ] {
        c.push(case(
            label,
            PMIX_DEVICE_DIST,
            leak(pmix_device_distance_t {
                uuid: u,
                osname: o,
                r#type: t,
                mindist: mn,
                maxdist: mx,
            }),
        ));
    }
    for (label, u, o, b) in [
        ("endpoint", cs("u-2"), std::ptr::null_mut(), bo),
        ("endpoint both", cs("u"), cs("os"), bo_empty),
        (
            "endpoint NULLs",
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            bo,
        ),
    ] {
        c.push(case(
            label,
            PMIX_ENDPOINT,
            leak(pmix_endpoint_t {
                uuid: u,
                osname: o,
                endpt: b,
            }),
        ));
    }
    num!(PMIX_DEVTYPE, u64, [0, 4, 3, 0x20, u64::MAX]);
    num!(
        PMIX_LOCTYPE,
        u16,
        [0, 1, 0x3f, 0x8000, 0x8001, 0x80, 0xffff]
    );
    c.push(case("nspace", PMIX_PROC_NSPACE, nspace_buf("my.nspace")));
    c.push(case("nspace empty", PMIX_PROC_NSPACE, nspace_buf("")));
    c.push(case(
        "nspace longest",
        PMIX_PROC_NSPACE,
        nspace_buf(&"q".repeat(PMIX_MAX_NSLEN)),
    ));
    let disk = leak(pmix_disk_stats_t {
        disk: cs("sda"),
        num_reads_completed: 5,
        num_reads_merged: 1 << 40,
        num_sectors_read: 255,
        milliseconds_reading: 1,
        num_writes_completed: 2,
        num_writes_merged: 3,
        num_sectors_written: 4,
        milliseconds_writing: 6,
        num_ios_in_progress: 7,
        milliseconds_io: u64::MAX,
        weighted_milliseconds_io: 77,
    });
    c.push(case("disk stats", PMIX_DISK_STATS, disk));
    // SAFETY: all-zero is a valid disk_stats (NULL name).
    c.push(case(
        "disk stats zero",
        PMIX_DISK_STATS,
        leak::<pmix_disk_stats_t>(unsafe { zeroed() }),
    ));
    let net = leak(pmix_net_stats_t {
        net_interface: cs("lo"),
        num_bytes_recvd: 1,
        num_packets_recvd: 0xabc,
        num_recv_errs: 3,
        num_bytes_sent: 1000,
        num_packets_sent: u64::MAX,
        num_send_errs: 9,
    });
    c.push(case("net stats", PMIX_NET_STATS, net));
    // SAFETY: all-zero is a valid net_stats.
    c.push(case(
        "net stats zero",
        PMIX_NET_STATS,
        leak::<pmix_net_stats_t>(unsafe { zeroed() }),
    ));
    for (label, rank, state, cpu, pss, node) in [
        ("proc stats", 1, b'R', 12.5f32, 1.0f32, cs("n0")),
        (
            "proc stats wildcard",
            PMIX_RANK_WILDCARD,
            b'S',
            99_999.5,
            1e9,
            std::ptr::null_mut(),
        ),
        (
            "proc stats undef",
            PMIX_RANK_UNDEF,
            b'x',
            -1.5,
            0.005,
            cs(""),
        ),
        (
            "proc stats local node",
            PMIX_RANK_LOCAL_NODE,
            b'Z',
            0.0,
            123_456.79,
            cs("n"),
        ),
        // A NUL state ends the C string there.
        ("proc stats NUL state", 3, 0, 1.0, 2.0, cs("n1")),
    ] {
        // SAFETY: all-zero is a valid proc_stats.
        let mut s: pmix_proc_stats_t = unsafe { zeroed() };
        s.node = node;
        s.proc = procid("ps", rank);
        s.pid = 99;
        s.cmd = cs("a.out");
        s.state = state as c_char;
        s.time = libc::timeval {
            tv_sec: 3,
            tv_usec: 4,
        };
        s.percent_cpu = cpu;
        s.priority = -7;
        s.num_threads = 2;
        s.pss = pss;
        s.vsize = 2.0;
        s.rss = 1e10;
        s.peak_vsize = 5.5;
        s.processor = 3;
        s.sample_time = libc::timeval {
            tv_sec: 100,
            tv_usec: 7,
        };
        c.push(case(label, PMIX_PROC_STATS, leak(s)));
    }
    // SAFETY: all-zero is a valid node_stats.
    let mut nd: pmix_node_stats_t = unsafe { zeroed() };
    nd.node = cs("n1");
    nd.la = 0.5;
    nd.la5 = -1.0;
    nd.la15 = 123.456;
    nd.total_mem = 1e9;
    nd.free_mem = 50.0;
    nd.buffers = 0.005;
    nd.cached = 0.015;
    nd.swap_cached = 1.0 / 3.0;
    nd.swap_total = 99_999.99;
    nd.swap_free = f32::NAN;
    nd.mapped = -0.0;
    nd.sample_time = libc::timeval {
        tv_sec: 1,
        tv_usec: 2,
    };
    nd.diskstats = disk.cast();
    nd.ndiskstats = 1;
    nd.netstats = net.cast();
    nd.nnetstats = 1;
    c.push(case("node stats", PMIX_NODE_STATS, leak(nd)));
    // SAFETY: all-zero is a valid node_stats.
    c.push(case(
        "node stats zero",
        PMIX_NODE_STATS,
        leak::<pmix_node_stats_t>(unsafe { zeroed() }),
    ));
    let packed: &'static [u8] = b"some packed bytes";
    c.push(case(
        "data buffer",
        PMIX_DATA_BUFFER,
        leak(pmix_data_buffer_t {
            base_ptr: packed.as_ptr().cast_mut().cast(),
            pack_ptr: packed.as_ptr().cast_mut().cast(),
            unpack_ptr: packed.as_ptr().cast_mut().cast(),
            bytes_allocated: packed.len(),
            bytes_used: packed.len(),
        }),
    ));
    // SAFETY: all-zero is a valid (empty) data buffer.
    c.push(case(
        "data buffer empty",
        PMIX_DATA_BUFFER,
        leak::<pmix_data_buffer_t>(unsafe { zeroed() }),
    ));
    num!(PMIX_STOR_MEDIUM, u64, [0, 1, 6, 0x40, 0x7f, 0x80, u64::MAX]);
    num!(PMIX_STOR_ACCESS, u64, [0, 3, 0x3f, 0x40, u64::MAX]);
    num!(PMIX_STOR_PERSIST, u64, [0, 3, 0x7f, 0x80]);
    num!(PMIX_STOR_ACCESS_TYPE, u16, [0, 1, 2, 3, 4, 0xffff]);

    // Structures made of the above: infos, published data, queries, apps, data arrays.
    let by_label = |c: &Vec<Case>, l: &str| {
        c.iter()
            .find(|x| x.label == l)
            .unwrap_or_else(|| panic!("no case {l}"))
            .clone()
    };
    let val = |c: &Vec<Case>, l: &str| {
        let x = by_label(c, l);
        // SAFETY: the case's datum is of its type.
        unsafe { value_of(x.ty, x.src) }
    };
    let u32_arr = leak(pmix_data_array_t {
        r#type: PMIX_UINT32,
        size: 3,
        array: leak_slice(vec![10u32, 20, 30]).cast(),
    });
    let mut darray_value = pmix_value_t {
        r#type: PMIX_DATA_ARRAY,
        // SAFETY: all-zero is a valid union.
        data: unsafe { zeroed() },
    };
    darray_value.data.darray = u32_arr.cast();
    let infos = vec![
        info_of("pmix.rank", 0, val(&c, "PMIX_UINT32 3")),
        info_of("my.key", PMIX_INFO_REQD, val(&c, "string \"hello world\"")),
        info_of("pmix.qry.quals", PMIX_INFO_QUALIFIER, darray_value),
        info_of("pmix.evbase", PMIX_INFO_PERSISTENT, val(&c, "PMIX_BOOL 0")),
        info_of("", 0x7, val(&c, "proc ns.b:4294967294")),
        // SAFETY: all-zero is a valid (undefined) value.
        info_of(&"k".repeat(PMIX_MAX_KEYLEN), 0, unsafe { zeroed() }),
    ];
    for (i, inf) in infos.iter().enumerate() {
        c.push(case(format!("info {i}"), PMIX_INFO, leak(*inf)));
    }
    let info_arr = leak(pmix_data_array_t {
        r#type: PMIX_INFO,
        size: infos.len(),
        array: leak_slice(infos.clone()).cast(),
    });
    c.push(case("darray info", PMIX_DATA_ARRAY, info_arr));
    c.push(case("darray u32", PMIX_DATA_ARRAY, u32_arr));
    let empty_u8 = pmix_data_array_t {
        r#type: PMIX_UINT8,
        size: 0,
        array: std::ptr::null_mut(),
    };
    let one_u8 = pmix_data_array_t {
        r#type: PMIX_UINT8,
        size: 1,
        array: leak_slice(vec![1u8]).cast(),
    };
    c.push(case("darray empty", PMIX_DATA_ARRAY, leak(empty_u8)));
    c.push(case(
        "darray size 0 with array",
        PMIX_DATA_ARRAY,
        leak(pmix_data_array_t {
            array: one_u8.array,
            ..empty_u8
        }),
    ));
    c.push(case(
        "darray empty of undefined type",
        PMIX_DATA_ARRAY,
        leak(pmix_data_array_t {
            r#type: 200,
            ..empty_u8
        }),
    ));
    for (label, inner) in [
        ("darray nested", vec![one_u8, one_u8]),
        ("darray nested empty, one", vec![empty_u8, one_u8]),
        ("darray nested one, empty", vec![one_u8, empty_u8]),
    ] {
        c.push(case(
            label,
            PMIX_DATA_ARRAY,
            leak(pmix_data_array_t {
                r#type: PMIX_DATA_ARRAY,
                size: inner.len(),
                array: leak_slice(inner).cast(),
            }),
        ));
    }
    // Arrays whose elements print as "UNPRINTABLE" (and are not read).
    for ty in [
        PMIX_UNDEF,
        PMIX_VALUE,
        PMIX_KVAL,
        PMIX_BUFFER,
        29,
        44,
        70,
        200,
        u16::MAX,
    ] {
        c.push(case(
            format!("darray of type {ty}"),
            PMIX_DATA_ARRAY,
            leak(pmix_data_array_t {
                r#type: ty,
                size: 2,
                array: leak_slice(vec![0u64; 64]).cast(),
            }),
        ));
    }
    // An array of values (printed "UNPRINTABLE" element by element).
    let values = vec![val(&c, "PMIX_INT 0"), darray_value];
    c.push(case(
        "darray of values",
        PMIX_DATA_ARRAY,
        leak(pmix_data_array_t {
            r#type: PMIX_VALUE,
            size: values.len(),
            array: leak_slice(values).cast(),
        }),
    ));
    // Infos whose values hold arrays of infos.
    let nested_infos = vec![
        info_of("outer", 0, {
            let mut v = darray_value;
            v.data.darray = info_arr.cast();
            v
        }),
        info_of("pmix.nspace", PMIX_INFO_REQD, val(&c, "nspace")),
    ];
    c.push(case(
        "darray infos with info arrays",
        PMIX_DATA_ARRAY,
        leak(pmix_data_array_t {
            r#type: PMIX_INFO,
            size: nested_infos.len(),
            array: leak_slice(nested_infos.clone()).cast(),
        }),
    ));
    c.push(case(
        "info holding info array",
        PMIX_INFO,
        leak(nested_infos[0]),
    ));
    // An info whose value cannot be printed (an empty array): "(null)".
    let mut empty_value = darray_value;
    empty_value.data.darray = leak(empty_u8).cast();
    c.push(case(
        "info with empty array",
        PMIX_INFO,
        leak(info_of("k", 0, empty_value)),
    ));
    let mk_pdata = |ns: &str, r, k: &str, v: pmix_value_t| {
        leak(pmix_pdata_t {
            proc: procid(ns, r),
            key: key(k),
            value: v,
        })
    };
    c.push(case(
        "pdata",
        PMIX_PDATA,
        mk_pdata("pns", 2, "pmix.rank", val(&c, "PMIX_INT -123456")),
    ));
    c.push(case(
        "pdata wildcard",
        PMIX_PDATA,
        mk_pdata("", PMIX_RANK_WILDCARD, "zz", val(&c, "string \"\"")),
    ));
    c.push(case(
        "pdata holding info array",
        PMIX_PDATA,
        mk_pdata("p", 1, "k", nested_infos[0].value),
    ));
    let query = |keys: Vec<*mut c_char>, quals: Vec<pmix_info_t>| {
        leak(pmix_query_t {
            keys: if keys.is_empty() {
                std::ptr::null_mut()
            } else {
                leak_slice(keys)
            },
            nqual: quals.len(),
            qualifiers: if quals.is_empty() {
                std::ptr::null_mut()
            } else {
                leak_slice(quals)
            },
        })
    };
    c.push(case(
        "query",
        PMIX_QUERY,
        query(
            vec![cs("pmix.qry.ns"), cs("other"), std::ptr::null_mut()],
            infos[..2].to_vec(),
        ),
    ));
    c.push(case("query empty", PMIX_QUERY, query(vec![], vec![])));
    c.push(case(
        "query empty key, failing qualifier",
        PMIX_QUERY,
        query(
            vec![cs(""), std::ptr::null_mut()],
            vec![
                info_of("a", 0, val(&c, "PMIX_INT 0")),
                info_of("b", 0, empty_value),
            ],
        ),
    ));
    // SAFETY: all-zero is a valid app.
    let mut app: pmix_app_t = unsafe { zeroed() };
    app.cmd = cs("a.out");
    app.argv = leak_slice(vec![cs("a.out"), cs("-x"), std::ptr::null_mut()]);
    app.env = leak_slice(vec![cs("A=1"), std::ptr::null_mut()]);
    app.cwd = cs("/tmp");
    app.maxprocs = 4;
    app.info = leak_slice(infos[..2].to_vec());
    app.ninfo = 2;
    c.push(case("app", PMIX_APP, leak(app)));
    // SAFETY: all-zero is a valid app.
    c.push(case(
        "app zero",
        PMIX_APP,
        leak::<pmix_app_t>(unsafe { zeroed() }),
    ));

    // One array per type, of every case of that type.
    let mut types: Vec<pmix_data_type_t> = c.iter().map(|x| x.ty).collect();
    types.sort();
    types.dedup();
    for ty in types {
        let of: Vec<&Case> = c.iter().filter(|x| x.ty == ty).collect();
        if describe::elem_size(ty).is_none() {
            continue;
        }
        // SAFETY: every case of `of` is of type `ty`.
        let d = unsafe { darray_of(ty, &of) };
        c.push(case(
            format!("darray of every {ty}"),
            PMIX_DATA_ARRAY,
            leak(d),
        ));
    }
    c
}

/// The places where we deliberately print something else than the reference (see the
/// module comment and docs/notes/print.md), by case type and transcript part.
fn excepted(c: &Case, part: &str) -> bool {
    let direct = part.starts_with("DP(");
    // A device type prints as an address in the reference, wherever it appears.
    c.ty == PMIX_DEVTYPE
        || c.label == format!("darray of every {PMIX_DEVTYPE}")
        // PMIx_Data_print of a range prints the address of the datum as a pointer.
        || (c.ty == PMIX_DATA_RANGE && direct)
        // PMIx_Data_print of a pointer prints the address of the datum, not the pointer.
        || (c.ty == PMIX_POINTER && direct)
        // PMIx_Data_print of an app succeeds without printing anything.
        || (c.ty == PMIX_APP && direct)
}

/// Everything one library prints for one case.
fn transcript(a: &Api, c: &Case) -> Vec<(String, String)> {
    let mut t = Vec::new();
    for (name, prefix) in [
        ("NULL", None),
        ("empty", Some(c"")),
        ("PFX", Some(c"PFX\t")),
    ] {
        // SAFETY: the case's datum is of its type.
        let out = unsafe { dp(a, prefix, c.src, c.ty) };
        t.push((format!("DP({name})"), out.to_string()));
    }
    if value_type(c.ty) {
        // SAFETY: the case's datum is of its type; the value and infos only borrow it.
        unsafe {
            let mut v = value_of(c.ty, c.src);
            t.push(("VS".into(), show(&take((a.value_string)(&v)))));
            t.push((
                "DPV".into(),
                dp(a, Some(c"PFX"), (&raw mut v).cast(), PMIX_VALUE).to_string(),
            ));
            for (k, flags) in [("pmix.rank", 0), ("my.key", PMIX_INFO_REQD | 4)] {
                let mut i = info_of(k, flags, v);
                t.push((format!("IS {k}"), show(&take((a.info_string)(&i)))));
                t.push((
                    format!("DPI {k}"),
                    dp(a, None, (&raw mut i).cast(), PMIX_INFO).to_string(),
                ));
            }
        }
    }
    t
}

#[test]
fn renderings_of_every_type() {
    let _buffer = iof_buffer();
    let cases = cases();
    let [r, o] = both().map(api);
    let mut failures = Vec::new();
    let mut compared = 0;
    for c in &cases {
        let (a, b) = (transcript(&r, c), transcript(&o, c));
        for ((part, x), (_, y)) in a.iter().zip(&b) {
            if excepted(c, part) {
                continue;
            }
            compared += 1;
            if x != y {
                failures.push(format!("{} [{part}]:\n  ref:  {x}\n  ours: {y}", c.label));
            }
        }
    }
    assert!(compared > 2000, "only {compared} renderings compared");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Types `PMIx_Data_print` does not read: undefined ones fail, the internal `PMIX_KVAL` and
/// `PMIX_BUFFER` succeed without output; NULL arguments fail first.
#[test]
fn data_print_without_datum() {
    let [r, o] = both().map(api);
    let mut x = 5u64;
    for ty in [
        PMIX_UNDEF,
        PMIX_KVAL,
        PMIX_BUFFER,
        29,
        44,
        70,
        200,
        u16::MAX,
        PMIX_INT,
    ] {
        for src in [(&raw mut x).cast::<c_void>(), std::ptr::null_mut()] {
            for prefix in [None, Some(c"P")] {
                // SAFETY: the datum is 8 bytes of zeroes and a 5, readable as any integer; the
                // types that are not integers are not read.
                let (a, b) = unsafe { (dp(&r, prefix, src, ty), dp(&o, prefix, src, ty)) };
                assert_eq!(a, b, "type {ty} src {src:?}");
            }
            // NULL output.
            // SAFETY: as above; a NULL output pointer is rejected.
            let (a, b) = unsafe {
                (
                    (r.data_print)(std::ptr::null_mut(), std::ptr::null_mut(), src, ty),
                    (o.data_print)(std::ptr::null_mut(), std::ptr::null_mut(), src, ty),
                )
            };
            assert_eq!(a, b, "NULL output, type {ty}");
        }
    }
    // NULL value and info.
    // SAFETY: NULL is rejected.
    unsafe {
        assert!((o.value_string)(std::ptr::null()).is_null());
        assert!((o.info_string)(std::ptr::null()).is_null());
        assert!((r.value_string)(std::ptr::null()).is_null());
        assert!((r.info_string)(std::ptr::null()).is_null());
    }
}

/// Values of every type id whose data are all zero: NULL strings ("NULL pointer"), a NULL
/// process name (whose rendering in the reference is "%sPROC: NULL"), a NULL namespace, empty
/// byte objects, and the types a value prints as "UNPRINTABLE" (including undefined ids).
/// Types whose zero datum is a NULL structure pointer crash the reference; `deviations`
/// checks ours for those.
#[test]
fn zeroed_values() {
    let _buffer = iof_buffer();
    let [r, o] = both().map(api);
    let crash = [
        PMIX_PROC_INFO,
        PMIX_DATA_ARRAY,
        PMIX_COORD,
        PMIX_REGATTR,
        PMIX_PROC_CPUSET,
        PMIX_GEOMETRY,
        PMIX_DEVICE_DIST,
        PMIX_ENDPOINT,
        PMIX_TOPO,
        // An address is printed for device types (see `excepted`).
        PMIX_DEVTYPE,
    ];
    let mut failures = Vec::new();
    for ty in (0..=80).chain([200, 1000, u16::MAX]) {
        if crash.contains(&ty) {
            continue;
        }
        let t = |a: &Api| {
            // SAFETY: an all-zero value of type `ty`: a NULL pointer or zero datum.
            unsafe {
                let mut v: pmix_value_t = zeroed();
                v.r#type = ty;
                let mut i = info_of("pmix.nspace", PMIX_INFO_REQD, v);
                format!(
                    "{} | {} | {}",
                    show(&take((a.value_string)(&v))),
                    show(&take((a.info_string)(&i))),
                    dp(a, Some(c"PFX"), (&raw mut i).cast(), PMIX_INFO)
                )
            }
        };
        let (a, b) = (t(&r), t(&o));
        if a != b {
            failures.push(format!("type {ty}:\n  ref:  {a}\n  ours: {b}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every value of the small enumerations that only `PMIx_Data_print` (and values) render:
/// commands, localities, storage flags, floats in several widths.
#[test]
fn data_print_over_ranges() {
    let _buffer = iof_buffer();
    let [r, o] = both().map(api);
    let mut failures = Vec::new();
    let mut check = |ty: pmix_data_type_t, src: *mut c_void, what: String| {
        // SAFETY: the callers pass a datum of type `ty`.
        let (a, b) = unsafe { (dp(&r, Some(c""), src, ty), dp(&o, Some(c""), src, ty)) };
        if a != b {
            failures.push(format!("{what}: ref {a} ours {b}"));
        }
    };
    for x in 0..=u8::MAX {
        let mut v = x;
        check(PMIX_COMMAND, (&raw mut v).cast(), format!("command {x}"));
        check(PMIX_PERSIST, (&raw mut v).cast(), format!("persist {x}"));
        check(
            PMIX_PROC_STATE,
            (&raw mut v).cast(),
            format!("proc state {x}"),
        );
        check(
            PMIX_JOB_STATE,
            (&raw mut v).cast(),
            format!("job state {x}"),
        );
        check(
            PMIX_ALLOC_DIRECTIVE,
            (&raw mut v).cast(),
            format!("alloc {x}"),
        );
    }
    for x in 0..=u16::MAX {
        let mut v = x;
        check(
            PMIX_LOCTYPE,
            (&raw mut v).cast(),
            format!("locality {x:#x}"),
        );
        check(
            PMIX_STOR_ACCESS_TYPE,
            (&raw mut v).cast(),
            format!("access type {x:#x}"),
        );
    }
    let mut wide: Vec<u64> = (0..=0x3ff).collect();
    wide.extend((0..64).map(|b| 1u64 << b));
    wide.push(u64::MAX);
    for x in wide {
        let mut v = x;
        check(
            PMIX_STOR_MEDIUM,
            (&raw mut v).cast(),
            format!("medium {x:#x}"),
        );
        check(
            PMIX_STOR_ACCESS,
            (&raw mut v).cast(),
            format!("access {x:#x}"),
        );
        check(
            PMIX_STOR_PERSIST,
            (&raw mut v).cast(),
            format!("persist {x:#x}"),
        );
    }
    for x in [0, 1, 2, 3, 7, 8, 15, 16, 0x13, 0xff, 0xffff] {
        let mut v = x as u16;
        check(PMIX_IOF_CHANNEL, (&raw mut v).cast(), format!("iof {x:#x}"));
        check(
            PMIX_DATA_TYPE,
            (&raw mut v).cast(),
            format!("data type {x}"),
        );
        let mut d = x as u32;
        check(
            PMIX_INFO_DIRECTIVES,
            (&raw mut d).cast(),
            format!("directives {x}"),
        );
    }
    // Floats: %f for values, %5.2f and %8.2f in statistics.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for i in 0..3000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let d = match i % 3 {
            0 => f64::from_bits(seed),
            1 => (seed % 100_000_000) as f64 / 1e6 + 0.000_000_5,
            _ => (seed % 1_000_000) as f64 / 128.0,
        };
        let mut dv = d;
        check(PMIX_DOUBLE, (&raw mut dv).cast(), format!("double {d:e}"));
        let mut fv = d as f32;
        check(PMIX_FLOAT, (&raw mut fv).cast(), format!("float {fv:e}"));
        // SAFETY: all-zero is a valid node_stats.
        let mut nd: pmix_node_stats_t = unsafe { zeroed() };
        nd.la = fv;
        nd.total_mem = -fv;
        nd.mapped = fv / 3.0;
        check(
            PMIX_NODE_STATS,
            (&raw mut nd).cast(),
            format!("node stats {fv:e}"),
        );
        // SAFETY: all-zero is a valid proc_stats.
        let mut ps: pmix_proc_stats_t = unsafe { zeroed() };
        ps.state = b'R' as c_char;
        ps.percent_cpu = fv;
        ps.pss = fv * 7.0;
        check(
            PMIX_PROC_STATS,
            (&raw mut ps).cast(),
            format!("proc stats {fv:e}"),
        );
    }
    // Times within what C's struct tm holds, in the local time zone.
    let days = (-100_000i64..100_000).step_by(997).map(|d| d * 86_399);
    for t in days.chain([
        i64::from(i32::MIN),
        i64::from(i32::MAX),
        1 << 55,
        -(1 << 55),
    ]) {
        let mut v = t;
        check(PMIX_TIME, (&raw mut v).cast(), format!("time {v}"));
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Our text where the reference prints an address or nothing (the `excepted` places), and
/// where the reference crashes (it is not called for those).
#[test]
fn deviations() {
    let o = api(ours());
    let r = api(reference());
    let print = |a: &Api, ty, mut datum: u64| {
        // SAFETY: an 8-byte integer datum, read as its type.
        unsafe { dp(a, Some(c"P"), (&raw mut datum).cast(), ty) }
    };
    let ok = |s: &str| Out::Text(PMIX_SUCCESS, Some(s.as_bytes().to_vec()));
    // Data ranges: the range, as values show it.
    assert_eq!(
        print(&o, PMIX_DATA_RANGE, 2),
        ok("PData type: PMIX_DATA_RANGE\tValue: AVAIL ON LOCAL NODE ONLY")
    );
    assert_ne!(print(&r, PMIX_DATA_RANGE, 2), print(&o, PMIX_DATA_RANGE, 2));
    // Device types: the name.
    assert_eq!(
        print(&o, PMIX_DEVTYPE, 4),
        ok("PData type: PMIX_DEVICE_TYPE\tValue: NETWORK")
    );
    assert_ne!(print(&r, PMIX_DEVTYPE, 4), print(&o, PMIX_DEVTYPE, 4));
    // SAFETY: an 8-byte device type in a value.
    let vs = unsafe { take((o.value_string)(&value_of(PMIX_DEVTYPE, leak(3u64)))) };
    assert_eq!(
        show(&vs),
        show(&Some(
            b" PMIX_VALUE:  Data type: PMIX_DEVICE_TYPE\tValue: UNKNOWN".to_vec()
        ))
    );
    // Pointers: the pointer, as %p writes it.
    assert_eq!(
        print(&o, PMIX_POINTER, 0x1234),
        ok("PData type: PMIX_POINTER\tAddress: 0x1234")
    );
    assert_eq!(
        print(&o, PMIX_POINTER, 0),
        ok("PData type: PMIX_POINTER\tAddress: (nil)")
    );
    // Apps: printed like queries and process descriptions.
    let cases = cases();
    let app = cases.iter().find(|c| c.label == "app").expect("app case");
    // SAFETY: an app.
    let (a, b) = unsafe {
        (
            dp(&r, None, app.src, PMIX_APP),
            dp(&o, None, app.src, PMIX_APP),
        )
    };
    assert_eq!(a, Out::Untouched(PMIX_SUCCESS));
    assert_eq!(
        b,
        ok(
            " Data type: PMIX_APP\tValue:\n \tCmd: a.out\n \tArgv: a.out\n \tArgv: -x\n \tEnv: A=1\n \tCwd: /tmp\n \tMaxprocs: 4\n \tKEY: PMIX_RANK\n \t\t \tData type: PMIX_INFO_DIRECTIVES\tValue: OPTIONAL\n \t\t \tPMIX_VALUE:  Data type: PMIX_UINT32\tValue: 3\n \tKEY: my.key\n \t\t \tData type: PMIX_INFO_DIRECTIVES\tValue: REQUIRED\n \t\t \tPMIX_VALUE:  Data type: PMIX_STRING\tValue: hello world"
        )
    );
    // Times beyond C's struct tm (the reference crashes): the seconds.
    assert_eq!(
        print(&o, PMIX_TIME, i64::MAX as u64),
        ok(&format!("PData type: PMIX_TIME\tValue: {}", i64::MAX))
    );
    // Published data whose value cannot be printed (the reference prints uninitialized
    // memory, or crashes): "(null)", as infos show such values.
    let mut empty_u8 = pmix_data_array_t {
        r#type: PMIX_UINT8,
        size: 0,
        array: std::ptr::null_mut(),
    };
    // SAFETY: all-zero is a valid pdata; its value holds an empty array.
    let mut pd: pmix_pdata_t = unsafe { zeroed() };
    pd.proc = procid("p", 0);
    pd.value.r#type = PMIX_DATA_ARRAY;
    pd.value.data.darray = &raw mut empty_u8;
    assert_eq!(
        // SAFETY: a pdata.
        unsafe { dp(&o, Some(c"P"), (&raw mut pd).cast(), PMIX_PDATA) },
        ok("P  PPROC: p:0  KEY:  (null)")
    );
    // Values with a NULL pointer where a structure is required (the reference crashes):
    // no string for the value, "(null)" for it inside an info.
    for ty in [
        PMIX_PROC_INFO,
        PMIX_DATA_ARRAY,
        PMIX_COORD,
        PMIX_REGATTR,
        PMIX_PROC_CPUSET,
        PMIX_GEOMETRY,
        PMIX_DEVICE_DIST,
        PMIX_ENDPOINT,
        PMIX_TOPO,
    ] {
        // SAFETY: all-zero data: a NULL pointer of type `ty`.
        let mut v: pmix_value_t = unsafe { zeroed() };
        v.r#type = ty;
        // SAFETY: a valid (if NULL) value.
        unsafe {
            assert_eq!(take((o.value_string)(&v)), None, "type {ty}");
            let i = info_of("k", 0, v);
            let s = take((o.info_string)(&i)).expect("an info string");
            assert!(
                s.ends_with(b"\n \t(null)"),
                "{}",
                String::from_utf8_lossy(&s)
            );
            assert_eq!(
                dp(&o, None, (&raw mut v).cast(), PMIX_VALUE),
                Out::Untouched(PMIX_ERR_OUT_OF_RESOURCE)
            );
        }
    }
}

/// Our library prints without initialization (the reference crashes in `PMIx_Data_print`
/// before it is initialized).
#[test]
fn ours_needs_no_init() {
    let o = api(ours());
    let mut x = 7i32;
    // SAFETY: an int datum.
    let out = unsafe { dp(&o, None, (&raw mut x).cast(), PMIX_INT) };
    assert_eq!(
        out,
        Out::Text(
            PMIX_SUCCESS,
            Some(b" Data type: PMIX_INT\tValue: 7".to_vec())
        )
    );
}

// ---------------------------------------------------------------------------------------
// Cpusets and topologies, through hwloc.

#[link(name = "hwloc")]
unsafe extern "C" {
    fn hwloc_bitmap_alloc() -> *mut c_void;
    fn hwloc_bitmap_list_sscanf(bitmap: *mut c_void, string: *const c_char) -> i32;
    fn hwloc_topology_init(topology: *mut *mut c_void) -> i32;
    fn hwloc_topology_load(topology: *mut c_void) -> i32;
}

fn bitmap(list: &CStr) -> *mut c_void {
    // SAFETY: a fresh bitmap, filled from a list string.
    unsafe {
        let b = hwloc_bitmap_alloc();
        assert_eq!(hwloc_bitmap_list_sscanf(b, list.as_ptr()), 0);
        b
    }
}

/// Cpusets from hwloc. The reference prints the empty set and fails with
/// `PMIX_ERR_NOT_SUPPORTED` for every other; we print the set.
#[test]
fn cpusets() {
    let [r, o] = both().map(api);
    let cpuset = |src: &CStr, list: Option<&CStr>| {
        leak(pmix_cpuset_t {
            source: src.as_ptr().cast_mut(),
            bitmap: list.map_or(std::ptr::null_mut(), bitmap),
        })
    };
    for (src, list) in [
        (c"hwloc", Some(c"")),
        (c"HWLOC", Some(c"")),
        (c"hwloc-2.9.0", Some(c"")),
        (c"hwl", Some(c"")),
        (c"", Some(c"")),
        (c"other", Some(c"")),
        (c"hwloc", None),
    ] {
        let cs = cpuset(src, list);
        // SAFETY: a cpuset.
        let (a, b) = unsafe {
            (
                dp(&r, Some(c"P"), cs, PMIX_PROC_CPUSET),
                dp(&o, Some(c"P"), cs, PMIX_PROC_CPUSET),
            )
        };
        assert_eq!(a, b, "{src:?} {list:?}");
        // SAFETY: a cpuset in a value.
        let (a, b) = unsafe {
            let v = value_of(PMIX_PROC_CPUSET, cs);
            (take((r.value_string)(&v)), take((o.value_string)(&v)))
        };
        assert_eq!(a, b, "value {src:?} {list:?}");
    }
    let set = cpuset(c"hwloc", Some(c"0-3,8"));
    // SAFETY: a cpuset.
    let (a, b) = unsafe {
        (
            dp(&r, Some(c"P"), set, PMIX_PROC_CPUSET),
            dp(&o, Some(c"P"), set, PMIX_PROC_CPUSET),
        )
    };
    assert_eq!(a, Out::Untouched(PMIX_ERR_NOT_SUPPORTED));
    assert_eq!(
        b,
        Out::Text(
            PMIX_SUCCESS,
            Some(b"PData type: PMIX_CPUSET\tValue: 0-3,8".to_vec())
        )
    );
}

/// Topologies: the reference lists the hwloc objects (see docs/notes/print.md).
#[test]
fn topology() {
    let [r, o] = both().map(api);
    let mut topo: *mut c_void = std::ptr::null_mut();
    // SAFETY: hwloc's documented initialization sequence.
    unsafe {
        assert_eq!(hwloc_topology_init(&mut topo), 0);
        assert_eq!(hwloc_topology_load(topo), 0);
    }
    for src in [c"hwloc", c"Hwloc", c"hwl", c"other"] {
        let t = leak(pmix_topology_t {
            source: src.as_ptr().cast_mut(),
            topology: topo.cast(),
        });
        // SAFETY: a topology.
        let (a, b) = unsafe {
            (
                dp(&r, Some(c"P"), t, PMIX_TOPO),
                dp(&o, Some(c"P"), t, PMIX_TOPO),
            )
        };
        assert_eq!(a, b, "{src:?}");
        // SAFETY: a topology in a value.
        let (a, b) = unsafe {
            let v = value_of(PMIX_TOPO, t);
            (take((r.value_string)(&v)), take((o.value_string)(&v)))
        };
        assert_eq!(a, b, "value {src:?}");
    }
}
