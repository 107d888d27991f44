//! The util family of the internal layer (`pmix_argv_*`, `pmix_basename`, `pmix_path_*`,
//! `pmix_fd_*`, ...): the same inputs to OpenPMIx 5.0.11's `libpmix.so.2` and to ours, the
//! same results asserted. Nothing here needs either library initialized.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr::null_mut;

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};

/// Both libraries, reference first.
fn libs() -> [&'static Pmix; 2] {
    [reference5_uninitialized(), ours()]
}

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

/// Runs `probe` on each library and asserts the answers are equal; returns the answer.
fn same<R: PartialEq + std::fmt::Debug>(what: &str, mut probe: impl FnMut(&Pmix) -> R) -> R {
    let [r, o] = libs();
    eprintln!("probe {what}");
    let want = probe(r);
    let got = probe(o);
    assert_eq!(got, want, "{what}: ours differs from OpenPMIx 5.0.11");
    if std::env::var_os("SHOW").is_some() {
        eprintln!("  = {want:?}");
    }
    want
}

/// A malloc'd C string as a Rust string (freed), `None` for NULL.
fn take(p: *mut c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a malloc'd C string handed to the caller.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        libc::free(p.cast());
        Some(s)
    }
}

/// A C string that the library keeps (not to be freed) as a Rust string.
fn borrowed(p: *const c_char) -> Option<String> {
    // SAFETY: NULL or a C string.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// A libc argv array of `items`.
fn argv(items: &[&str]) -> *mut *mut c_char {
    // SAFETY: a libc array of libc strings, NULL-terminated.
    unsafe {
        let v = libc::calloc(items.len() + 1, size_of::<*mut c_char>()).cast::<*mut c_char>();
        for (i, s) in items.iter().enumerate() {
            let c = CString::new(*s).unwrap();
            *v.add(i) = libc::strdup(c.as_ptr());
        }
        v
    }
}

/// The strings of a libc argv array (None for NULL), and the array freed.
fn take_argv(v: *mut *mut c_char) -> Option<Vec<String>> {
    if v.is_null() {
        return None;
    }
    let mut out = Vec::new();
    // SAFETY: a NULL-terminated libc array of libc strings.
    unsafe {
        let mut i = 0;
        while !(*v.add(i)).is_null() {
            out.push(take(*v.add(i)).unwrap());
            i += 1;
        }
        libc::free(v.cast());
    }
    Some(out)
}

/// A fresh private directory for one library's run of a test.
fn scratch(test: &str, lib: &Pmix) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "pmix-internals-util-{test}-{}-{}",
        lib.name,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn c(p: &Path) -> CString {
    CString::new(p.to_str().unwrap()).unwrap()
}

/// The relative paths under `root`, sorted (directories end with `/`).
fn tree(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                out.push(format!("{rel}/"));
                walk(root, &p, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

type ArgvAppend = unsafe extern "C" fn(*mut c_int, *mut *mut *mut c_char, *const c_char) -> c_int;
type ArgvCopyStrip = unsafe extern "C" fn(*mut *mut c_char) -> *mut *mut c_char;
type ArgvInsert = unsafe extern "C" fn(*mut *mut *mut c_char, c_int, *mut c_char) -> c_int;
type ArgvJoinRange = unsafe extern "C" fn(*mut *mut c_char, usize, usize, c_int) -> *mut c_char;
type StrFn = unsafe extern "C" fn(*const c_char) -> *mut c_char;

#[test]
fn argv_append_counts_and_copies() {
    same("pmix_argv_append", |l| {
        let append: ArgvAppend = f(l, "pmix_argv_append");
        let mut v = null_mut();
        let mut n = -5;
        let mut rcs = Vec::new();
        for s in [c"one", c"", c"three"] {
            // SAFETY: valid pointers.
            rcs.push((unsafe { append(&mut n, &mut v, s.as_ptr()) }, n));
        }
        (rcs, take_argv(v))
    });
}

#[test]
fn argv_join_range_ranges() {
    let items = ["a", "bb", "", "c"];
    for (start, end) in [
        (0, 2),
        (1, 100),
        (0, 0),
        (2, 1),
        (3, 4),
        (4, 9),
        (0, 4),
        (2, 3),
    ] {
        for delim in [b',' as c_int, b' ' as c_int, 0x13a] {
            same(&format!("join_range({start},{end},{delim})"), |l| {
                let join: ArgvJoinRange = f(l, "pmix_argv_join_range");
                let v = argv(&items);
                // SAFETY: a valid array.
                let r = take(unsafe { join(v, start, end, delim) });
                take_argv(v);
                r
            });
        }
    }
    same("join_range(NULL)", |l| {
        let join: ArgvJoinRange = f(l, "pmix_argv_join_range");
        // SAFETY: NULL is allowed.
        take(unsafe { join(null_mut(), 0, 3, b',' as c_int) })
    });
}

#[test]
fn argv_copy_strip_quotes() {
    let items = [
        "\"quoted words\"",
        "\"open",
        "close\"",
        "\"",
        "\"\"",
        "mid\"dle",
        "plain",
    ];
    same("pmix_argv_copy_strip", |l| {
        let strip: ArgvCopyStrip = f(l, "pmix_argv_copy_strip");
        let v = argv(&items);
        // SAFETY: a valid array, left unchanged.
        let d = unsafe { strip(v) };
        (take_argv(d), take_argv(v))
    });
    same("pmix_argv_copy_strip(empty)", |l| {
        let strip: ArgvCopyStrip = f(l, "pmix_argv_copy_strip");
        let v = argv(&[]);
        // SAFETY: a valid empty array.
        let d = unsafe { strip(v) };
        (take_argv(d), take_argv(v))
    });
}

#[test]
fn argv_insert_element_positions() {
    for at in [-1, 0, 1, 2, 3, 7] {
        same(&format!("pmix_argv_insert_element at {at}"), |l| {
            let insert: ArgvInsert = f(l, "pmix_argv_insert_element");
            let mut v = argv(&["a", "b", "c"]);
            // SAFETY: a valid array and C strings.
            let rc = unsafe { insert(&mut v, at, c"new".as_ptr().cast_mut()) };
            // SAFETY: as above; NULL source is allowed.
            let rc2 = unsafe { insert(&mut v, at, null_mut()) };
            (rc, rc2, take_argv(v))
        });
    }
    same("pmix_argv_insert_element into NULL", |l| {
        let insert: ArgvInsert = f(l, "pmix_argv_insert_element");
        let mut v: *mut *mut c_char = null_mut();
        // SAFETY: NULL target array is allowed.
        unsafe { insert(&mut v, 0, c"x".as_ptr().cast_mut()) }
    });
}

#[test]
fn basename_and_dirname_edge_cases() {
    for input in [
        "",
        "/",
        "//",
        "a",
        "a/",
        "ab/",
        "a//",
        "//a//b/",
        "/usr/bin/ls",
        "dir/file",
        "/usr/",
        "./x",
        "../",
        ".",
        "..",
        "/a",
        "a/b/c//",
        "///x",
    ] {
        let ci = CString::new(input).unwrap();
        for name in ["pmix_basename", "pmix_dirname"] {
            same(&format!("{name}({input:?})"), |l| {
                let fun: StrFn = f(l, name);
                // SAFETY: a C string.
                take(unsafe { fun(ci.as_ptr()) })
            });
        }
    }
    // NULL: OpenPMIx 5.0.11's build crashes (its NULL check is compiled away); ours
    // returns NULL (unit test in util/basename.rs).
}
type DirCreate = unsafe extern "C" fn(*const c_char, libc::mode_t) -> c_int;
type DirCallback = unsafe extern "C" fn(*const c_char, *const c_char) -> bool;
type DirDestroy = unsafe extern "C" fn(*const c_char, bool, Option<DirCallback>) -> c_int;

unsafe extern "C" fn spare_keep(_root: *const c_char, name: *const c_char) -> bool {
    // SAFETY: the entry name is a C string.
    unsafe { CStr::from_ptr(name) }.to_bytes() != b"keep"
}

#[test]
fn os_dirpath_create_and_destroy() {
    same("pmix_os_dirpath_create/destroy", |l| {
        let create: DirCreate = f(l, "pmix_os_dirpath_create");
        let destroy: DirDestroy = f(l, "pmix_os_dirpath_destroy");
        let d = scratch("dirpath", l);
        let mut log = Vec::new();
        // SAFETY: C strings and a callback of the C prototype.
        unsafe {
            for (sub, mode) in [
                ("a/b//c/", 0o755),
                ("a/b//c/", 0o700),
                ("a", 0o750),
                ("x/y", 0o755),
                ("x/y/z", 0o755),
                ("keep", 0o755),
            ] {
                let p = d.join(sub);
                let rc = create(c(&p).as_ptr(), mode);
                use std::os::unix::fs::PermissionsExt;
                let m = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
                log.push(format!("create {sub} {mode:o}: {rc} mode {m:o}"));
            }
            log.push(format!("create NULL: {}", create(std::ptr::null(), 0o755)));
            std::fs::write(d.join("a/b/c/file"), b"1").unwrap();
            std::fs::write(d.join("x/file"), b"1").unwrap();
            std::fs::write(d.join("keep/file"), b"1").unwrap();
            std::fs::create_dir_all(d.join("empty")).unwrap();
            log.push(format!("tree {:?}", tree(&d)));
            let rc = destroy(c(&d.join("x")).as_ptr(), false, None);
            log.push(format!("destroy x flat: {rc} {:?}", tree(&d)));
            let rc = destroy(c(&d).as_ptr(), true, Some(spare_keep));
            log.push(format!("destroy recursive but keep: {rc} {:?}", tree(&d)));
            let rc = destroy(c(&d).as_ptr(), true, None);
            log.push(format!("destroy all: {rc} exists {}", d.exists()));
            let rc = destroy(c(&d).as_ptr(), true, None);
            log.push(format!("destroy missing: {rc}"));
            log.push(format!(
                "destroy NULL: {}",
                destroy(std::ptr::null(), true, None)
            ));
        }
        let _ = std::fs::remove_dir_all(&d);
        log
    });
}

type PathFindv =
    unsafe extern "C" fn(*mut c_char, c_int, *mut *mut c_char, *mut c_char) -> *mut c_char;

#[test]
fn path_findv_with_built_path() {
    same("pmix_path_findv", |l| {
        let findv: PathFindv = f(l, "pmix_path_findv");
        let d = scratch("findv", l);
        let ds = d.to_str().unwrap().to_owned();
        for (dir, exe) in [
            ("bin", true),
            ("sbin", false),
            ("wd", true),
            ("other", true),
        ] {
            std::fs::create_dir_all(d.join(dir)).unwrap();
            let p = d.join(dir).join("tool");
            std::fs::write(&p, b"").unwrap();
            use std::os::unix::fs::PermissionsExt;
            let mode = if exe { 0o755 } else { 0o644 };
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let mut out = Vec::new();
        let cases: Vec<(String, Option<String>, &str, c_int)> = vec![
            (
                format!("PATH=/nonexistent:{ds}/sbin:{ds}/bin"),
                None,
                "tool",
                libc::X_OK,
            ),
            (format!("PATH={ds}/sbin:{ds}/bin"), None, "tool", libc::R_OK),
            (format!("PATH=::{ds}/bin/::"), None, "tool", libc::X_OK),
            (
                "PATH=.:/nonexistent".into(),
                Some(format!("{ds}/wd")),
                "tool",
                libc::X_OK,
            ),
            (
                "PATH=/nonexistent".into(),
                Some(format!("{ds}/wd")),
                "tool",
                libc::X_OK,
            ),
            ("PATH=".into(), Some(format!("{ds}/wd")), "tool", libc::X_OK),
            ("PATH=".into(), None, "tool", libc::X_OK),
            ("PATH=$MYDIR/bin:/x".into(), None, "tool", libc::X_OK),
            ("PATH=$MYBIN".into(), None, "tool", libc::X_OK),
            ("PATH=$UNSET_VAR_XYZ/bin".into(), None, "tool", libc::X_OK),
            (
                format!("PATH={ds}/sbin"),
                None,
                &format!("{ds}/other/tool"),
                libc::X_OK,
            ),
            (
                "PATH=".into(),
                None,
                &format!("{ds}/other/tool"),
                libc::X_OK,
            ),
            (format!("PATH={ds}"), None, "bin/tool", libc::X_OK),
            (format!("PATH={ds}"), None, "missing", libc::F_OK),
        ]
        .into_iter()
        .map(|(a, b, c, m)| (a, b, c.to_owned(), m))
        .map(|(a, b, c, m)| (a, b, Box::leak(c.into_boxed_str()) as &str, m))
        .collect();
        for (path, wd, fname, mode) in cases {
            let env: Vec<CString> = [
                path.clone(),
                format!("MYDIR={ds}"),
                format!("MYBIN={ds}/bin"),
            ]
            .into_iter()
            .map(|s| CString::new(s).unwrap())
            .collect();
            let mut envp: Vec<*mut c_char> = env.iter().map(|s| s.as_ptr().cast_mut()).collect();
            envp.push(null_mut());
            let wdc = wd.as_ref().map(|w| CString::new(w.as_str()).unwrap());
            let fc = CString::new(fname).unwrap();
            // SAFETY: C strings and a NULL-terminated environment.
            let r = take(unsafe {
                findv(
                    fc.as_ptr().cast_mut(),
                    mode,
                    envp.as_mut_ptr(),
                    wdc.as_ref().map_or(null_mut(), |w| w.as_ptr().cast_mut()),
                )
            });
            // The scratch directory differs per library: compare the part below it.
            let r = r.map(|s| s.replace(&ds, "<dir>"));
            out.push(format!("{path} wd={wd:?} {fname} {mode}: {r:?}").replace(&ds, "<dir>"));
        }
        let _ = std::fs::remove_dir_all(&d);
        out
    });
}

#[test]
fn find_absolute_path_and_is_absolute() {
    for app in [
        "/bin/sh",
        "sh",
        "/no/such/file",
        "no-such-program-xyz",
        "./no-such",
        "/usr/bin/../bin/env",
    ] {
        let ca = CString::new(app).unwrap();
        same(&format!("pmix_find_absolute_path({app})"), |l| {
            let fun: unsafe extern "C" fn(*mut c_char) -> *mut c_char =
                f(l, "pmix_find_absolute_path");
            // SAFETY: a C string (absolute ones that fail are freed by OpenPMIx: use a copy).
            let copy = unsafe { libc::strdup(ca.as_ptr()) };
            // SAFETY: as above.
            let r = take(unsafe { fun(copy) });
            if !app.starts_with('/') || r.is_some() {
                // SAFETY: not taken by the callee on these paths.
                unsafe { libc::free(copy.cast()) };
            }
            r
        });
    }
    for p in [c"/x", c"x", c"", c"./x", c"//"] {
        same(&format!("pmix_path_is_absolute({p:?})"), |l| {
            let fun: unsafe extern "C" fn(*const c_char) -> bool = f(l, "pmix_path_is_absolute");
            // SAFETY: a C string.
            unsafe { fun(p.as_ptr()) }
        });
    }
}

#[test]
fn path_nfs_of_local_paths() {
    let tmp = std::env::temp_dir();
    let paths = [
        PathBuf::from("/proc"),
        PathBuf::from("/"),
        tmp.clone(),
        tmp.join("pmix-no-such-file"),
        PathBuf::from("/no/such/dir/file"),
        PathBuf::from("/dev/null"),
    ];
    for p in paths {
        let cp = c(&p);
        same(&format!("pmix_path_nfs({})", p.display()), |l| {
            let fun: unsafe extern "C" fn(*mut c_char, *mut *mut c_char) -> bool =
                f(l, "pmix_path_nfs");
            let mut ty = null_mut();
            // SAFETY: a C string and a writable pointer.
            let shared = unsafe { fun(cp.as_ptr().cast_mut(), &mut ty) };
            (shared, take(ty))
        });
    }
}

#[test]
fn getcwd_whole_and_cut() {
    for size in [4096usize, 2, 1, 5, 0x7fff_ffff, 0x8000_0000] {
        same(&format!("pmix_getcwd(size {size})"), |l| {
            let fun: unsafe extern "C" fn(*mut c_char, usize) -> c_int = f(l, "pmix_getcwd");
            let mut buf = vec![b'#' as c_char; 4096];
            let n = size.min(buf.len());
            // SAFETY: `buf` holds at least the bytes the function may write: it writes at most
            // strlen(cwd)+1 <= 4096 even when told more.
            let rc = unsafe { fun(buf.as_mut_ptr(), if n == 4096 { size } else { n }) };
            // SAFETY: NUL-terminated on success paths; compare the first bytes either way.
            let text = buf[..n.min(64)]
                .iter()
                .map(|&b| b as u8)
                .collect::<Vec<u8>>();
            (rc, text)
        });
    }
    same("pmix_getcwd(NULL)", |l| {
        let fun: unsafe extern "C" fn(*mut c_char, usize) -> c_int = f(l, "pmix_getcwd");
        // SAFETY: NULL is refused.
        unsafe { fun(null_mut(), 10) }
    });
}

#[test]
fn home_and_tmp_directories() {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for uid in [libc::uid_t::MAX, me, 0] {
        same(&format!("pmix_home_directory({uid})"), |l| {
            let fun: unsafe extern "C" fn(libc::uid_t) -> *const c_char =
                f(l, "pmix_home_directory");
            // SAFETY: a uid.
            borrowed(unsafe { fun(uid) })
        });
    }
    same("pmix_tmp_directory", |l| {
        let fun: unsafe extern "C" fn() -> *const c_char = f(l, "pmix_tmp_directory");
        // SAFETY: no arguments.
        borrowed(unsafe { fun() })
    });
}

type Merge = unsafe extern "C" fn(*mut *mut c_char, *mut *mut c_char) -> *mut *mut c_char;
type Unsetenv = unsafe extern "C" fn(*const c_char, *mut *mut *mut c_char) -> c_int;

#[test]
fn environ_merge_and_unsetenv() {
    let minor = ["A=minor", "B=2", "FLAG", "C=x=y", "AB=3", "B=again"];
    let major = ["A=major", "D=4", "E="];
    for (mi, ma) in [
        (Some(&minor[..]), Some(&major[..])),
        (Some(&minor[..]), None),
        (None, Some(&major[..])),
        (None, None),
        (Some(&[][..]), Some(&[][..])),
    ] {
        same(&format!("pmix_environ_merge({mi:?}, {ma:?})"), |l| {
            let merge: Merge = f(l, "pmix_environ_merge");
            let a = mi.map_or(null_mut(), argv);
            let b = ma.map_or(null_mut(), argv);
            // SAFETY: valid arrays or NULL.
            let m = unsafe { merge(a, b) };
            (take_argv(m), take_argv(a), take_argv(b))
        });
    }
    for name in [c"A", c"AB", c"B", c"Z", c""] {
        same(&format!("pmix_unsetenv({name:?})"), |l| {
            let unset: Unsetenv = f(l, "pmix_unsetenv");
            let mut v = argv(&["A=1", "AB=2", "B", "A=3", "=x"]);
            // SAFETY: a valid array and C string.
            let rc = unsafe { unset(name.as_ptr(), &mut v) };
            (rc, take_argv(v))
        });
    }
    same("pmix_unsetenv(NULL array)", |l| {
        let unset: Unsetenv = f(l, "pmix_unsetenv");
        let mut v: *mut *mut c_char = null_mut();
        // SAFETY: pointer to a NULL array.
        unsafe { unset(c"A".as_ptr(), &mut v) }
    });
}

#[test]
fn string_copy_truncation() {
    for (src, len) in [
        ("hello world", 6usize),
        ("hi", 8),
        ("1234567", 8),
        ("12345678", 8),
        ("zz", 1),
        ("", 4),
    ] {
        let cs = CString::new(src).unwrap();
        same(&format!("pmix_string_copy({src:?}, {len})"), |l| {
            let fun: unsafe extern "C" fn(*mut c_char, *const c_char, usize) =
                f(l, "pmix_string_copy");
            let mut buf = [b'#' as c_char; 16];
            // SAFETY: `len` fits in `buf`.
            unsafe { fun(buf.as_mut_ptr(), cs.as_ptr(), len) };
            buf.map(|b| b as u8)
        });
    }
}

#[test]
fn getline_lines() {
    same("pmix_getline", |l| {
        let fun: unsafe extern "C" fn(*mut libc::FILE) -> *mut c_char = f(l, "pmix_getline");
        let long = "x".repeat(1500);
        let text = format!("first\n\nsecond line\n{long}\nlast");
        let mut out = Vec::new();
        // SAFETY: a memory stream over our buffer, closed after.
        unsafe {
            let fp = libc::fmemopen(text.as_ptr().cast_mut().cast(), text.len(), c"r".as_ptr());
            loop {
                let line = take(fun(fp));
                let end = line.is_none();
                out.push(line);
                if end {
                    break;
                }
            }
            libc::fclose(fp);
        }
        out
    });
}

type FdIo = unsafe extern "C" fn(c_int, c_int, *mut c_void) -> c_int;

#[test]
fn fd_read_write_over_a_pipe() {
    same("pmix_fd_read/pmix_fd_write", |l| {
        let read: FdIo = f(l, "pmix_fd_read");
        let write: FdIo = f(l, "pmix_fd_write");
        let mut fds = [0; 2];
        let mut log = Vec::new();
        // SAFETY: our pipe and buffers.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let mut data = *b"0123456789";
            log.push(write(fds[1], 10, data.as_mut_ptr().cast()));
            log.push(write(fds[1], 0, data.as_mut_ptr().cast()));
            log.push(write(fds[1], -1, data.as_mut_ptr().cast()));
            let mut got = [0u8; 10];
            log.push(read(fds[0], 4, got.as_mut_ptr().cast()));
            log.push(read(fds[0], 6, got[4..].as_mut_ptr().cast()));
            log.push(i32::from(got == data));
            log.push(read(fds[0], 0, got.as_mut_ptr().cast()));
            log.push(read(fds[0], -3, got.as_mut_ptr().cast()));
            libc::close(fds[1]);
            log.push(read(fds[0], 1, got.as_mut_ptr().cast()));
            libc::close(fds[0]);
            log.push(read(-1, 1, got.as_mut_ptr().cast()));
            log.push(write(-1, 1, got.as_mut_ptr().cast()));
        }
        log
    });
}

#[test]
fn fd_kinds_cloexec_and_peer_name() {
    same("pmix_fd_is_*/set_cloexec/get_peer_name", |l| {
        let regular: unsafe extern "C" fn(c_int) -> bool = f(l, "pmix_fd_is_regular");
        let chardev: unsafe extern "C" fn(c_int) -> bool = f(l, "pmix_fd_is_chardev");
        let blkdev: unsafe extern "C" fn(c_int) -> bool = f(l, "pmix_fd_is_blkdev");
        let cloexec: unsafe extern "C" fn(c_int) -> c_int = f(l, "pmix_fd_set_cloexec");
        let peer: unsafe extern "C" fn(c_int) -> *const c_char = f(l, "pmix_fd_get_peer_name");
        let mut log = Vec::new();
        // SAFETY: our own descriptors, opened and closed here.
        unsafe {
            let file = libc::open(c"/proc/self/status".as_ptr(), libc::O_RDONLY);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
            let dir = libc::open(c"/".as_ptr(), libc::O_RDONLY);
            for fd in [file, null, dir, -1] {
                log.push(format!(
                    "{fd_kind} {} {} {}",
                    regular(fd),
                    chardev(fd),
                    blkdev(fd),
                    fd_kind = fd == -1
                ));
                let rc = cloexec(fd);
                let set = fd >= 0 && libc::fcntl(fd, libc::F_GETFD) & libc::FD_CLOEXEC != 0;
                log.push(format!("cloexec {rc} {set}"));
                log.push(format!("peer {:?}", borrowed(peer(fd))));
            }
            for fd in [file, null, dir] {
                libc::close(fd);
            }
            let lsn = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            let mut a: libc::sockaddr_in = std::mem::zeroed();
            a.sin_family = libc::AF_INET as _;
            a.sin_addr.s_addr = u32::from_be_bytes([127, 0, 0, 1]).to_be();
            let mut sl = size_of::<libc::sockaddr_in>() as libc::socklen_t;
            libc::bind(lsn, (&raw const a).cast(), sl);
            libc::listen(lsn, 1);
            libc::getsockname(lsn, (&raw mut a).cast(), &mut sl);
            let cl = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            libc::connect(cl, (&raw const a).cast(), sl);
            log.push(format!("tcp peer {:?}", borrowed(peer(cl))));
            log.push(format!("listener peer {:?}", borrowed(peer(lsn))));
            let mut pair = [0; 2];
            libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr());
            log.push(format!("unix peer {:?}", borrowed(peer(pair[0]))));
            for fd in [cl, lsn, pair[0], pair[1]] {
                libc::close(fd);
            }
        }
        log
    });
}

#[test]
fn close_open_file_descriptors_in_a_child() {
    same("pmix_close_open_file_descriptors", |l| {
        let close_all: extern "C" fn(c_int) = f(l, "pmix_close_open_file_descriptors");
        // SAFETY: the child only opens, closes and inspects descriptors, then _exits with a
        // bit per descriptor that is still open.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                let a = libc::dup2(1, 50);
                let b = libc::dup2(1, 51);
                let c = libc::dup2(1, 52);
                close_all(51);
                let mut bits = 0;
                for (i, fd) in [0, 1, 2, a, b, c].into_iter().enumerate() {
                    if libc::fcntl(fd, libc::F_GETFD) != -1 {
                        bits |= 1 << i;
                    }
                }
                libc::_exit(bits);
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::WEXITSTATUS(status)
        }
    });
}

#[test]
fn openpty_opens_a_pair() {
    same("pmix_openpty", |l| {
        type OpenPty = unsafe extern "C" fn(
            *mut c_int,
            *mut c_int,
            *mut c_char,
            *const c_void,
            *const c_void,
        ) -> c_int;
        let open: OpenPty = f(l, "pmix_openpty");
        let (mut m, mut s) = (-1, -1);
        let mut name = [0 as c_char; 128];
        // SAFETY: writable outputs; descriptors closed after.
        unsafe {
            let rc = open(
                &mut m,
                &mut s,
                name.as_mut_ptr(),
                std::ptr::null(),
                std::ptr::null(),
            );
            let tty = rc == 0 && libc::isatty(s) == 1;
            let dev = borrowed(name.as_ptr()).is_some_and(|n| n.starts_with("/dev/"));
            if rc == 0 {
                libc::close(m);
                libc::close(s);
            }
            (rc, tty, dev || rc != 0)
        }
    });
}

type CheckApp = unsafe extern "C" fn(*mut *mut c_char, *mut c_char, *mut *mut c_char) -> c_int;
type CheckCwd = unsafe extern "C" fn(*mut *mut c_char, bool, bool) -> c_int;

#[test]
fn check_context_app_and_cwd() {
    let cwd = std::env::current_dir().unwrap();
    let cwd_s = cwd.to_str().unwrap().to_owned();
    for (cmd, wd) in [
        ("sh", None),
        ("no-such-program-xyz", None),
        ("/etc/passwd", None),
        ("/bin/sh", None),
        ("./no-such", None),
        ("sh", Some("/nonexistent-wd")),
        ("no-such-program-xyz", Some(cwd_s.as_str())),
    ] {
        same(
            &format!("pmix_util_check_context_app({cmd}, {wd:?})"),
            |l| {
                let check: CheckApp = f(l, "pmix_util_check_context_app");
                let cc = CString::new(cmd).unwrap();
                let wdc = wd.map(|w| CString::new(w).unwrap());
                // Writable: OpenPMIx cuts the PATH value in place while it splits it.
                let path = CString::new("PATH=/nonexistent:/bin:/usr/bin").unwrap();
                let mut env = [path.as_ptr().cast_mut(), null_mut()];
                // SAFETY: a malloc'd command the callee may replace, C strings.
                unsafe {
                    let mut c = libc::strdup(cc.as_ptr());
                    let rc = check(
                        &mut c,
                        wdc.as_ref().map_or(null_mut(), |w| w.as_ptr().cast_mut()),
                        env.as_mut_ptr(),
                    );
                    (rc, take(c))
                }
            },
        );
    }
    for (dir, want_chdir, user) in [
        (Some("/no/such/dir"), false, true),
        (Some("/no/such/dir"), true, true),
        (Some(cwd_s.as_str()), true, true),
        (None, true, true),
    ] {
        same(
            &format!("pmix_util_check_context_cwd({dir:?}, {want_chdir}, {user})"),
            |l| {
                let check: CheckCwd = f(l, "pmix_util_check_context_cwd");
                let dc = dir.map(|d| CString::new(d).unwrap());
                // SAFETY: a malloc'd directory (or NULL) the callee may replace.
                unsafe {
                    let mut d = dc.as_ref().map_or(null_mut(), |d| libc::strdup(d.as_ptr()));
                    let rc = check(&mut d, want_chdir, user);
                    (rc, take(d))
                }
            },
        );
    }
    same("pmix_util_check_context_cwd(NULL)", |l| {
        let check: CheckCwd = f(l, "pmix_util_check_context_cwd");
        // SAFETY: NULL is refused.
        unsafe { check(null_mut(), true, true) }
    });
    assert_eq!(std::env::current_dir().unwrap(), cwd);
}

#[test]
fn parse_range_options_inputs() {
    for input in [
        "1-3,5", "4", "3-1", "0,-1,7", "1,2!3", "-1!", ",,2,", "1-2-9", "x", "", "!", "10-12,0",
        "--1", "2,-1", "007", " 3",
    ] {
        let ci = CString::new(input).unwrap();
        same(&format!("pmix_util_parse_range_options({input:?})"), |l| {
            let parse: unsafe extern "C" fn(*mut c_char, *mut *mut *mut c_char) =
                f(l, "pmix_util_parse_range_options");
            let mut out = argv(&["pre"]);
            // SAFETY: a C string and an array the callee appends to.
            unsafe { parse(ci.as_ptr().cast_mut(), &mut out) };
            let keep = take_argv(out);
            let mut fresh = null_mut();
            // SAFETY: as above, from a NULL array.
            unsafe { parse(ci.as_ptr().cast_mut(), &mut fresh) };
            (keep, take_argv(fresh))
        });
    }
}

#[test]
fn print_name_and_rank() {
    let ranks = [
        0u32,
        1,
        42,
        u32::MAX,
        u32::MAX - 1,
        u32::MAX - 2,
        u32::MAX - 3,
        u32::MAX - 4,
        u32::MAX - 50,
        0x7fff_ffff,
        0x8000_0000,
    ];
    for r in ranks {
        same(&format!("pmix_util_print_rank({r})"), |l| {
            let fun: unsafe extern "C" fn(u32) -> *mut c_char = f(l, "pmix_util_print_rank");
            // SAFETY: a rank; the answer is a buffer of the library's.
            borrowed(unsafe { fun(r) })
        });
    }
    let long = "n".repeat(255);
    for (ns, r) in [
        ("job", 3),
        ("prterun-host-1234@1", u32::MAX - 1),
        ("", u32::MAX),
        (long.as_str(), u32::MAX - 4),
    ] {
        same(&format!("pmix_util_print_name_args({ns}, {r})"), |l| {
            let fun: unsafe extern "C" fn(*const pmix_sys::pmix_proc_t) -> *mut c_char =
                f(l, "pmix_util_print_name_args");
            // SAFETY: an all-zero pmix_proc_t is valid.
            let mut p: pmix_sys::pmix_proc_t = unsafe { std::mem::zeroed() };
            for (d, s) in p.nspace.iter_mut().zip(ns.bytes()) {
                *d = s as c_char;
            }
            p.rank = r;
            // SAFETY: a valid proc; the answer is a buffer of the library's.
            borrowed(unsafe { fun(&p) })
        });
    }
    same("pmix_util_print_name_args(NULL)", |l| {
        let fun: unsafe extern "C" fn(*const pmix_sys::pmix_proc_t) -> *mut c_char =
            f(l, "pmix_util_print_name_args");
        // SAFETY: NULL is allowed.
        borrowed(unsafe { fun(std::ptr::null()) })
    });
    same("rotation: 16 buffers per thread, a name uses two", |l| {
        let rank: unsafe extern "C" fn(u32) -> *mut c_char = f(l, "pmix_util_print_rank");
        // SAFETY: ranks; the answers are the library's buffers.
        unsafe {
            let first = rank(1);
            let reuse: Vec<bool> = (0..16).map(|i| rank(100 + i) == first).collect();
            (reuse, borrowed(first))
        }
    });
}
