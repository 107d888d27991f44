//! The output family of the internal layer (`pmix_output*`, `pmix_show_help*`,
//! `pmix_os_path`, `pmix_asprintf`/`pmix_snprintf`) on OpenPMIx 5.0.11's library and on
//! ours: the same calls, the same results. What goes to stderr is compared in a child
//! process (this test binary run again), which makes the same calls on both libraries.

use std::ffi::{CStr, CString, c_char, c_int};
use std::path::{Path, PathBuf};

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};

fn both() -> [&'static Pmix; 2] {
    [reference5_uninitialized(), ours()]
}

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

/// Takes a malloc'd C string from a library.
fn take(p: *mut c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a C string the library allocated with malloc.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    // SAFETY: as above.
    unsafe { libc::free(p.cast()) };
    Some(s)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pmix-int-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

const HELP: &str = "\
# help-difftest.txt: topics for the differential tests
[plain]

Hello %s, you are number %d (%5.1f%%).

[two]
first line
  second line, indented
[include]
Above.
#include#help-difftest-b#inner
# comment
Below.


[edge]x
last line without a newline";

const HELP_B: &str = "[inner]\n\ninner %s\n\n[blank]\n\n\n[end]\n";

/// The help files in a directory of their own.
fn help_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = scratch("help");
        std::fs::write(d.join("help-difftest.txt"), HELP).unwrap();
        std::fs::write(d.join("help-difftest-b.txt"), HELP_B).unwrap();
        let long = format!("[long]\n{}\n{}\n", "y".repeat(1500), "z".repeat(1023));
        std::fs::write(d.join("help-long"), long).unwrap();
        d
    })
}

/// Adds the help directory to both libraries, once.
fn with_help_dir() -> &'static Path {
    static ADDED: std::sync::Once = std::sync::Once::new();
    let d = help_dir();
    ADDED.call_once(|| {
        let dir = c(d.to_str().unwrap());
        for l in both() {
            let add: unsafe extern "C" fn(*const c_char) -> c_int = f(l, "pmix_show_help_add_dir");
            // SAFETY: a C string.
            assert_eq!(unsafe { add(dir.as_ptr()) }, 0, "{}", l.name);
        }
    });
    d
}

type HelpString = unsafe extern "C" fn(*const c_char, *const c_char, c_int, ...) -> *mut c_char;

#[test]
fn show_help_string_gives_the_same_text() {
    with_help_dir();
    let mut results = Vec::new();
    for l in both() {
        let hs: HelpString = f(l, "pmix_show_help_string");
        let name = c("you");
        // SAFETY: each format's conversions get arguments of their types.
        let r = unsafe {
            vec![
                take(hs(
                    c"help-difftest.txt".as_ptr(),
                    c"plain".as_ptr(),
                    0,
                    name.as_ptr(),
                    42 as c_int,
                    99.5f64,
                )),
                take(hs(
                    c"help-difftest".as_ptr(),
                    c"plain".as_ptr(),
                    1,
                    c"x".as_ptr(),
                    -1 as c_int,
                    0.0f64,
                )),
                take(hs(c"help-difftest".as_ptr(), c"two".as_ptr(), 1)),
                take(hs(
                    c"help-difftest".as_ptr(),
                    c"include".as_ptr(),
                    0,
                    c"in".as_ptr(),
                )),
                take(hs(c"help-difftest".as_ptr(), c"edge".as_ptr(), 0)),
                take(hs(c"help-long".as_ptr(), c"long".as_ptr(), 0)),
                take(hs(c"help-difftest".as_ptr(), c"no-such-topic".as_ptr(), 1)),
                take(hs(c"help-difftest-b".as_ptr(), c"blank".as_ptr(), 1)),
            ]
        };
        results.push(r);
    }
    assert_eq!(results[0], results[1]);
    // What OpenPMIx gives, spelled out once.
    let dash = "-".repeat(74);
    assert_eq!(
        results[1][0].as_deref(),
        Some("Hello you, you are number 42 ( 99.5%).\n")
    );
    assert_eq!(
        results[1][2],
        Some(format!(
            "{dash}\nfirst line\n  second line, indented\n{dash}\n"
        ))
    );
    assert_eq!(results[1][3].as_deref(), Some("Above.\ninner in\nBelow.\n"));
    assert_eq!(
        results[1][4].as_deref(),
        Some("last line without a newlin\n")
    );
    assert_eq!(results[1][6], None);
    assert_eq!(results[1][7], None);
}

#[test]
fn os_path_joins_the_same() {
    type OsPath = unsafe extern "C" fn(c_int, ...) -> *mut c_char;
    let long = c(&"a".repeat(4094));
    let longer = c(&"a".repeat(4095));
    let mut results = Vec::new();
    for l in both() {
        let p: OsPath = f(l, "pmix_os_path");
        let n: *const c_char = std::ptr::null();
        // SAFETY: NULL-terminated lists of C strings.
        let r = unsafe {
            vec![
                take(p(0, n)),
                take(p(1, n)),
                take(p(0, c"tmp".as_ptr(), c"a".as_ptr(), n)),
                take(p(0, c"/tmp".as_ptr(), c"/a".as_ptr(), c"b/".as_ptr(), n)),
                take(p(1, c"x".as_ptr(), c"y".as_ptr(), n)),
                take(p(0, c"/d".as_ptr(), c"".as_ptr(), n)),
                take(p(0, c"d/".as_ptr(), c"e".as_ptr(), n)),
                take(p(0, long.as_ptr(), n)),
                take(p(0, longer.as_ptr(), n)),
                take(p(1, long.as_ptr(), n)),
            ]
        };
        results.push(r);
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1][3].as_deref(), Some("/tmp/a/b/"));
    assert!(results[1][7].is_some() && results[1][8].is_none());
}

#[test]
fn asprintf_and_snprintf_answer_the_same() {
    type Asprintf = unsafe extern "C" fn(*mut *mut c_char, *const c_char, ...) -> c_int;
    type Snprintf = unsafe extern "C" fn(*mut c_char, usize, *const c_char, ...) -> c_int;
    let mut results = Vec::new();
    for l in both() {
        let asp: Asprintf = f(l, "pmix_asprintf");
        let snp: Snprintf = f(l, "pmix_snprintf");
        let mut out = Vec::new();
        // SAFETY: formats with arguments of their types; buffers of the sizes given.
        unsafe {
            let mut s = std::ptr::null_mut();
            let n = asp(
                &mut s,
                c"%s-%05d-%x".as_ptr(),
                c"ab".as_ptr(),
                42 as c_int,
                255u32,
            );
            out.push(format!("{n} {:?}", take(s)));
            let n = asp(&mut s, c"".as_ptr());
            out.push(format!("{n} {:?}", take(s)));
            let mut buf = [b'#' as c_char; 8];
            let n = snp(
                buf.as_mut_ptr(),
                buf.len(),
                c"this is %d".as_ptr(),
                1004 as c_int,
            );
            out.push(format!("{n} {:?}", CStr::from_ptr(buf.as_ptr())));
            let n = snp(std::ptr::null_mut(), 0, c"%s".as_ptr(), c"abcdef".as_ptr());
            out.push(format!("{n}"));
            let n = snp(std::ptr::null_mut(), 10, c"%s".as_ptr(), c"abcdef".as_ptr());
            out.push(format!("{n}"));
            let mut buf = [b'#' as c_char; 4];
            let n = snp(buf.as_mut_ptr(), 0, c"xyz".as_ptr());
            out.push(format!("{n} {}", buf[0]));
        }
        results.push(out);
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1][0], "11 Some(\"ab-00042-ff\")");
}

/// `pmix_output_stream_t`, as a caller fills it.
#[repr(C)]
struct Stream {
    header: [u8; 120],
    verbose_level: c_int,
    syslog_priority: c_int,
    syslog_ident: *mut c_char,
    prefix: *mut c_char,
    suffix: *mut c_char,
    is_debugging: bool,
    want_syslog: bool,
    want_stdout: bool,
    want_stderr: bool,
    want_file: bool,
    want_file_append: bool,
    file_suffix: *mut c_char,
}

impl Stream {
    fn new() -> Stream {
        // SAFETY: all-zero is an empty stream (NULL strings, false flags).
        unsafe { std::mem::zeroed() }
    }
}

/// `pmix_output_desc_t`, as PRRTE's inline macro reads it from `pmix_output_info`.
#[repr(C)]
struct Desc {
    used: bool,
    enabled: bool,
    verbose_level: c_int,
    rest: [u8; 64],
}

struct OutputFns {
    init: unsafe extern "C" fn() -> bool,
    open: unsafe extern "C" fn(*mut Stream) -> c_int,
    close: unsafe extern "C" fn(c_int),
    output: unsafe extern "C" fn(c_int, *const c_char, ...),
    set_verbosity: unsafe extern "C" fn(c_int, c_int),
    get_verbosity: unsafe extern "C" fn(c_int) -> c_int,
    file_info:
        unsafe extern "C" fn(*const c_char, *const c_char, *mut *mut c_char, *mut *mut c_char),
    info: *const [Desc; 64],
}

fn output_fns(l: &Pmix) -> OutputFns {
    OutputFns {
        init: f(l, "pmix_output_init"),
        open: f(l, "pmix_output_open"),
        close: f(l, "pmix_output_close"),
        output: f(l, "pmix_output"),
        set_verbosity: f(l, "pmix_output_set_verbosity"),
        get_verbosity: f(l, "pmix_output_get_verbosity"),
        file_info: f(l, "pmix_output_set_output_file_info"),
        info: f::<*const [Desc; 64]>(l, "pmix_output_info"),
    }
}

/// What PRRTE's `pmix_output_verbose(level, id, ...)` macro does, on library `o`.
///
/// # Safety
/// `o`'s functions; `text` has no conversion.
unsafe fn output_verbose(o: &OutputFns, level: c_int, id: c_int, text: &CStr) {
    // SAFETY: the exported array, read as the macro reads it.
    unsafe {
        if (0..64).contains(&id) && (*o.info)[id as usize].verbose_level >= level {
            (o.output)(id, c"%s".as_ptr(), text.as_ptr());
        }
    }
}

#[test]
fn file_streams_write_the_same_files() {
    let root = scratch("files");
    let mut results = Vec::new();
    for l in both() {
        let o = output_fns(l);
        let dir = root.join(l.name);
        std::fs::create_dir_all(&dir).unwrap();
        let cdir = c(dir.to_str().unwrap());
        let mut seen = Vec::new();
        // SAFETY: the prototypes of pmix_output.h; streams filled as PRRTE fills them.
        unsafe {
            assert!((o.init)());
            assert!((*o.info)[0].used);
            let (mut old_dir, mut old_prefix) = (std::ptr::null_mut(), std::ptr::null_mut());
            (o.file_info)(
                cdir.as_ptr(),
                c"out-".as_ptr(),
                &mut old_dir,
                &mut old_prefix,
            );
            seen.push(format!("{:?}", take(old_prefix)));
            assert!(take(old_dir).is_some());

            let mut s = Stream::new();
            s.verbose_level = 5;
            s.prefix = c"[pfx] ".as_ptr() as *mut c_char;
            s.want_file = true;
            s.file_suffix = libc::strdup(c"one.txt".as_ptr());
            let id = (o.open)(&mut s);
            seen.push(format!("id {id} verbosity {}", (o.get_verbosity)(id)));
            output_verbose(&o, 5, id, c"at five");
            output_verbose(&o, 6, id, c"at six: not written\n");
            (o.output)(
                id,
                c"%s=%d\nsecond line\n".as_ptr(),
                c"k".as_ptr(),
                3 as c_int,
            );
            (o.set_verbosity)(id, 9);
            seen.push(format!("set {}", (*o.info)[id as usize].verbose_level));
            output_verbose(&o, 6, id, c"at six: written");

            let mut t = Stream::new();
            t.suffix = c" <end>".as_ptr() as *mut c_char;
            t.want_file = true;
            t.file_suffix = libc::strdup(c"two.txt".as_ptr());
            let id2 = (o.open)(&mut t);
            (o.output)(id2, c"a\n".as_ptr());
            (o.output)(id2, c"b".as_ptr());
            (o.close)(id2);
            seen.push(format!("closed {}", (o.get_verbosity)(id2)));
            (o.output)(id2, c"after close\n".as_ptr());

            let mut u = Stream::new();
            u.is_debugging = true;
            u.want_file = true;
            let id3 = (o.open)(&mut u);
            (o.output)(id3, c"debug stream\n".as_ptr());
            seen.push(format!(
                "debug {} {}",
                (*o.info)[id3 as usize].used,
                (*o.info)[id3 as usize].enabled
            ));
            (o.close)(id);
            libc::free(s.file_suffix.cast());
            libc::free(t.file_suffix.cast());
        }
        let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read_to_string(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        results.push((seen, files));
    }
    assert_eq!(results[0], results[1]);
    let (seen, files) = &results[1];
    assert_eq!(seen[1], "id 1 verbosity 5");
    assert_eq!(
        files[0],
        (
            "out-one.txt".to_string(),
            "[pfx] at five\n[pfx] k=3\nsecond line\n[pfx] at six: written\n".to_string()
        )
    );
    assert_eq!(files[1].1, "a <end>\nb <end>\n");
    let _ = std::fs::remove_dir_all(&root);
}

/// The child's side of `stderr_output_is_the_same`: runs only when that test starts this
/// binary again with `PMIX_INT_OUTPUT_CHILD` set.
#[test]
fn child_writes_to_stderr() {
    let Some(help) = std::env::var_os("PMIX_INT_OUTPUT_CHILD") else {
        return;
    };
    let help = c(help.to_str().unwrap());
    type ShowHelp = unsafe extern "C" fn(*const c_char, *const c_char, c_int, ...) -> c_int;
    type NoRender = unsafe extern "C" fn(*const c_char, *const c_char, *const c_char) -> c_int;
    for l in both() {
        let o = output_fns(l);
        let show: ShowHelp = f(l, "pmix_show_help");
        let norender: NoRender = f(l, "pmix_show_help_norender");
        let add: unsafe extern "C" fn(*const c_char) -> c_int = f(l, "pmix_show_help_add_dir");
        // SAFETY: the prototypes of pmix_output.h and pmix_show_help.h.
        unsafe {
            // Before init: pmix_output sets the streams up itself.
            (o.output)(0, c"stream zero %d".as_ptr(), 0 as c_int);
            (o.output)(0, c"two\nlines\n".as_ptr());
            let mut s = Stream::new();
            s.prefix = c"<err> ".as_ptr() as *mut c_char;
            s.suffix = c" |".as_ptr() as *mut c_char;
            s.want_stderr = true;
            let id = (o.open)(&mut s);
            (o.output)(
                id,
                c"%s and %s\n".as_ptr(),
                c"this".as_ptr(),
                c"that".as_ptr(),
            );
            output_verbose(&o, 1, id, c"not at verbosity 0");
            (o.close)(id);
            add(help.as_ptr());
            let rc = show(
                c"help-difftest".as_ptr(),
                c"plain".as_ptr(),
                1,
                c"me".as_ptr(),
                7 as c_int,
                1.25f64,
            );
            eprint_raw(&format!("rc {rc}\n"));
            let rc = show(c"help-difftest".as_ptr(), c"missing-topic".as_ptr(), 1);
            eprint_raw(&format!("rc {rc}\n"));
            let rc = show(c"help-nonexistent".as_ptr(), c"some-topic".as_ptr(), 1);
            eprint_raw(&format!("rc {rc}\n"));
            let rc = show(c"help-nonexistent.txt".as_ptr(), c"other".as_ptr(), 0);
            eprint_raw(&format!("rc {rc}\n"));
            let rc = norender(c"f".as_ptr(), c"t".as_ptr(), c"as is %s\n".as_ptr());
            eprint_raw(&format!("rc {rc}\n"));
        }
        eprint_raw("=== next library ===\n");
    }
}

fn eprint_raw(s: &str) {
    // SAFETY: writing a buffer to fd 2 (not through Rust's captured stderr).
    unsafe { libc::write(2, s.as_ptr().cast(), s.len()) };
}

#[test]
fn stderr_output_is_the_same() {
    let dir = help_dir();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "child_writes_to_stderr",
            "--exact",
            "--test-threads=1",
            "-q",
        ])
        .env("PMIX_INT_OUTPUT_CHILD", dir)
        .env_remove("PMIX_OUTPUT_REDIRECT")
        .env_remove("PMIX_OUTPUT_STDERR_FD")
        .env_remove("PMIX_OUTPUT_SUFFIX")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{err}");
    let parts: Vec<&str> = err.split("=== next library ===\n").collect();
    assert_eq!(parts.len(), 3, "{err}");
    assert_eq!(parts[0], parts[1], "reference, then ours");
    let ours = parts[1];
    assert!(ours.contains("] stream zero 0\n"), "{ours}");
    assert!(ours.contains("<err> this and that |\n"), "{ours}");
    assert!(
        ours.contains("Hello me, you are number 7 (  1.2%).\n"),
        "{ours}"
    );
    assert!(
        ours.contains("Sorry!  You were supposed to get help about:\n    some-topic\n"),
        "{ours}"
    );
    assert!(ours.contains("as is %s\n"), "{ours}");
}

/// The child's side of `redirect_to_file_is_the_same`: runs only when started by it, with
/// `PMIX_OUTPUT_REDIRECT=file` and `PMIX_OUTPUT_SUFFIX` set.
#[test]
fn child_redirects_to_files() {
    let Some(root) = std::env::var_os("PMIX_INT_OUTPUT_REDIRECT_CHILD") else {
        return;
    };
    for l in both() {
        let o = output_fns(l);
        let dir = c(Path::new(&root).join(l.name).to_str().unwrap());
        // SAFETY: the prototypes of pmix_output.h.
        unsafe {
            assert!((o.init)());
            (o.file_info)(
                dir.as_ptr(),
                c"r-".as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            (o.output)(0, c"zero %s".as_ptr(), c"here".as_ptr());
            let mut s = Stream::new();
            s.prefix = c"(1) ".as_ptr() as *mut c_char;
            s.want_stderr = true;
            let id = (o.open)(&mut s);
            (o.output)(id, c"one\n".as_ptr());
            (o.close)(id);
        }
    }
}

#[test]
fn redirect_to_file_is_the_same() {
    let root = scratch("redirect");
    for name in ["ref5", "ours"] {
        std::fs::create_dir_all(root.join(name)).unwrap();
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "child_redirects_to_files",
            "--exact",
            "--test-threads=1",
            "-q",
        ])
        .env("PMIX_INT_OUTPUT_REDIRECT_CHILD", &root)
        .env("PMIX_OUTPUT_REDIRECT", "file")
        .env("PMIX_OUTPUT_SUFFIX", "all.log")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{err}");
    assert!(!err.contains("one"), "redirected away from stderr: {err}");
    let read = |name: &str| {
        let mut files: Vec<(String, String)> = std::fs::read_dir(root.join(name))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let text = std::fs::read_to_string(e.path()).unwrap();
                (e.file_name().to_string_lossy().into_owned(), text)
            })
            .collect();
        files.sort();
        files
    };
    let (reference, ours) = (read("ref5"), read("ours"));
    assert_eq!(reference, ours);
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert_eq!(ours[0].0, "r-all.log");
    assert!(
        ours[0].1.ends_with("] zero here\n(1) one\n"),
        "{:?}",
        ours[0].1
    );
    let _ = std::fs::remove_dir_all(&root);
}
