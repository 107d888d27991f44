//! MCA variables, parameter files and parameter routing, against OpenPMIx 5.0.11: the same
//! registrations, environment and files on both libraries, the same answers.
//!
//! Both libraries read the process environment and keep their registry in globals, so each
//! scenario runs in a forked child per library: the child sets the environment, runs the
//! calls, and writes a transcript of what it saw to a pipe; the parent compares the two.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr;

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};

type Register = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    *const c_char,
    *const c_char,
    c_int,
    *mut c_void,
) -> c_int;
type Synonym = unsafe extern "C" fn(
    c_int,
    *const c_char,
    *const c_char,
    *const c_char,
    *const c_char,
    c_int,
) -> c_int;
type GetValue = unsafe extern "C" fn(c_int, *mut c_void, *mut c_int, *mut *const c_char) -> c_int;
type Find =
    unsafe extern "C" fn(*const c_char, *const c_char, *const c_char, *const c_char) -> c_int;
type Dump = unsafe extern "C" fn(c_int, *mut *mut *mut c_char, c_int) -> c_int;
type GroupFind = unsafe extern "C" fn(*const c_char, *const c_char, *const c_char) -> c_int;
type GroupGet = unsafe extern "C" fn(c_int, *mut *const u8) -> c_int;
type ParseFile = unsafe extern "C" fn(*const c_char, *mut c_void) -> c_int;
type Check = unsafe extern "C" fn(*const c_char) -> bool;

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

/// Runs `scenario` on `l` in a forked child with `env` set, and answers its transcript.
fn in_child(l: &'static Pmix, env: &[(String, String)], scenario: fn(&Pmix) -> String) -> String {
    let mut fds = [0; 2];
    // SAFETY: a pipe, a fork; the child only sets its environment, runs the scenario,
    // writes and leaves with _exit.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0);
        if pid == 0 {
            libc::close(fds[0]);
            for (k, v) in env {
                let (k, v) = (
                    CString::new(k.as_str()).unwrap(),
                    CString::new(v.as_str()).unwrap(),
                );
                libc::setenv(k.as_ptr(), v.as_ptr(), 1);
            }
            let out = scenario(l);
            let mut b = out.as_bytes();
            while !b.is_empty() {
                let n = libc::write(fds[1], b.as_ptr().cast(), b.len());
                if n <= 0 {
                    break;
                }
                b = &b[n as usize..];
            }
            libc::_exit(0);
        }
        libc::close(fds[1]);
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = libc::read(fds[0], buf.as_mut_ptr().cast(), buf.len());
            if n <= 0 {
                break;
            }
            out.extend_from_slice(&buf[..n as usize]);
        }
        libc::close(fds[0]);
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{} child died (status {status:#x}); transcript so far:\n{}",
            l.name,
            String::from_utf8_lossy(&out)
        );
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// A fresh HOME with `conf` as `.pmix/mca-params.conf`.
fn home_with(tag: &str, conf: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcavar-diff-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(d.join(".pmix")).unwrap();
    std::fs::write(d.join(".pmix/mca-params.conf"), conf).unwrap();
    d
}

/// The scenario on both libraries, the transcripts compared.
fn same_on_both(env: &[(&str, &str)], home: &Path, scenario: fn(&Pmix) -> String) -> String {
    let mut env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    env.push(("HOME".into(), home.display().to_string()));
    let (r, o) = (reference5_uninitialized(), ours());
    let want = in_child(r, &env, scenario);
    let got = in_child(o, &env, scenario);
    assert_eq!(got, want, "ours (left) against OpenPMIx 5.0.11 (right)");
    assert!(!want.is_empty());
    if std::env::var_os("MCAVAR_SHOW").is_some() {
        eprintln!("{want}");
    }
    want
}

fn s(p: *const c_char) -> String {
    if p.is_null() {
        return "(NULL)".into();
    }
    // SAFETY: a library's C string.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn dump_all(l: &Pmix, i: c_int, out: &mut String) {
    let dump: Dump = f(l, "pmix_mca_base_var_dump");
    for kind in 0..3 {
        let mut lines: *mut *mut c_char = ptr::null_mut();
        // SAFETY: the library allocates a NULL-terminated array.
        let rc = unsafe { dump(i, &mut lines, kind) };
        out.push_str(&format!("dump {i} kind {kind} rc {rc}\n"));
        if rc != 0 {
            continue;
        }
        let mut k = 0;
        // SAFETY: as above.
        unsafe {
            while !(*lines.add(k)).is_null() {
                out.push_str(&format!("  {}\n", s(*lines.add(k))));
                k += 1;
            }
        }
    }
}

fn value_of(l: &Pmix, i: c_int, out: &mut String) {
    let get: GetValue = f(l, "pmix_mca_base_var_get_value");
    let mut st: *mut c_void = ptr::null_mut();
    let mut src = -1;
    let mut file: *const c_char = ptr::null();
    // SAFETY: outputs of the right types.
    let rc = unsafe { get(i, (&raw mut st).cast(), &mut src, &mut file) };
    out.push_str(&format!(
        "get_value {i}: rc {rc} source {src} file {} storage-set {}\n",
        s(file),
        !st.is_null()
    ));
}

const CONF: &str = "# settings for the test\n\
    fw_c_fint = 0x20\n\
    prte_fw_c_fstr = from file  \n\
    fw_c_envwins = 1\n\
    \n\
    old_c_syn = 99\n\
    fw_c_fbool = false\n\
    fw_c_empty =\n\
    fw_c_fint = 33\n";

fn registry_scenario(l: &Pmix) -> String {
    let reg: Register = f(l, "pmix_mca_base_var_register");
    let syn: Synonym = f(l, "pmix_mca_base_var_register_synonym");
    let find: Find = f(l, "pmix_mca_base_var_find");
    let mut out = String::new();
    // Storage lives for the whole child.
    let st: &'static mut [u64; 32] = Box::leak(Box::new([0u64; 32]));
    for x in st.iter_mut() {
        *x = 0x5555;
    }
    let strs: &'static mut [*mut c_char; 8] = Box::leak(Box::new([ptr::null_mut(); 8]));
    strs[0] = c"default string".as_ptr().cast_mut();
    let vars: [(&CStr, &CStr, c_int, *mut c_void); 22] = [
        (c"prte", c"i", 0, (&raw mut st[0]).cast()),
        (c"prte", c"u", 1, (&raw mut st[1]).cast()),
        (c"prte", c"ul", 2, (&raw mut st[2]).cast()),
        (c"prte", c"ull", 3, (&raw mut st[3]).cast()),
        (c"prte", c"sz", 4, (&raw mut st[4]).cast()),
        (c"prte", c"str", 5, (&raw mut strs[0]).cast()),
        (c"prte", c"ver", 6, (&raw mut strs[1]).cast()),
        (c"prte", c"b", 7, (&raw mut st[5]).cast()),
        (c"prte", c"d", 8, (&raw mut st[6]).cast()),
        (c"prte", c"neg", 0, (&raw mut st[7]).cast()),
        (c"prte", c"big", 0, (&raw mut st[8]).cast()),
        (c"prte", c"bword", 7, (&raw mut st[9]).cast()),
        (c"prte", c"byes", 7, (&raw mut st[10]).cast()),
        (c"pmix", c"long", 0, (&raw mut st[11]).cast()),
        (c"prte", c"fint", 0, (&raw mut st[12]).cast()),
        (c"prte", c"fstr", 5, (&raw mut strs[2]).cast()),
        (c"prte", c"envwins", 0, (&raw mut st[13]).cast()),
        (c"prte", c"fbool", 7, (&raw mut st[14]).cast()),
        (c"prte", c"empty", 5, (&raw mut strs[3]).cast()),
        (c"prte", c"srcfile", 0, (&raw mut st[15]).cast()),
        (c"prte", c"srccmd", 0, (&raw mut st[16]).cast()),
        (c"prte", c"verbose", 0, (&raw mut st[17]).cast()),
    ];
    for (p, n, ty, storage) in vars {
        if ty == 7 {
            // SAFETY: a bool storage starts false.
            unsafe { *(storage as *mut u64) = 0 };
        }
        // SAFETY: C strings and storage of the type.
        let i = unsafe {
            reg(
                p.as_ptr(),
                c"fw".as_ptr(),
                c"c".as_ptr(),
                n.as_ptr(),
                c"a test variable".as_ptr(),
                ty,
                storage,
            )
        };
        out.push_str(&format!("register {}: {i}\n", n.to_string_lossy()));
        if i >= 0 {
            value_of(l, i, &mut out);
            dump_all(l, i, &mut out);
        }
    }
    out.push_str(&format!("ints {:?}\n", &st[..18]));
    for p in strs.iter().take(4) {
        out.push_str(&format!("str {}\n", s(*p)));
    }
    // A synonym, set in the environment and in the file.
    // SAFETY: C strings.
    unsafe {
        let x = find(ptr::null(), c"fw".as_ptr(), c"c".as_ptr(), c"i".as_ptr());
        let y = syn(
            x,
            c"prte".as_ptr(),
            c"old".as_ptr(),
            c"c".as_ptr(),
            c"i".as_ptr(),
            0,
        );
        out.push_str(&format!("synonym {x} -> {y}\n"));
        value_of(l, y, &mut out);
        dump_all(l, x, &mut out);
        dump_all(l, y, &mut out);
        let z = find(ptr::null(), c"fw".as_ptr(), c"c".as_ptr(), c"fint".as_ptr());
        let w = syn(
            z,
            c"prte".as_ptr(),
            c"old".as_ptr(),
            c"c".as_ptr(),
            c"syn".as_ptr(),
            0,
        );
        out.push_str(&format!("synonym {z} -> {w}; fint {}\n", st[12]));
        value_of(l, z, &mut out);
        let bad = syn(
            y,
            c"prte".as_ptr(),
            c"o2".as_ptr(),
            ptr::null(),
            c"i".as_ptr(),
            0,
        );
        out.push_str(&format!("synonym of a synonym {bad}\n"));
        // Re-registration: same index, other project; a different type refused.
        let again = reg(
            c"pmix".as_ptr(),
            c"fw".as_ptr(),
            c"c".as_ptr(),
            c"u".as_ptr(),
            ptr::null(),
            1,
            (&raw mut st[20]).cast(),
        );
        out.push_str(&format!("again {again} value {}\n", st[20]));
        let other = reg(
            c"prte".as_ptr(),
            c"fw".as_ptr(),
            c"c".as_ptr(),
            c"u".as_ptr(),
            ptr::null(),
            5,
            (&raw mut strs[5]).cast(),
        );
        out.push_str(&format!("other type {other}\n"));
        // The registry's own variables.
        for n in [
            c"param_files",
            c"override_param_file",
            c"suppress_override_warning",
        ] {
            let i = find(ptr::null(), c"mca".as_ptr(), c"base".as_ptr(), n.as_ptr());
            out.push_str(&format!("find {}: {i}\n", n.to_string_lossy()));
            if i >= 0 {
                dump_all(l, i, &mut out);
            }
        }
        out.push_str(&format!(
            "find missing {}\n",
            find(ptr::null(), c"fw".as_ptr(), c"c".as_ptr(), c"nope".as_ptr())
        ));
        value_of(l, 9999, &mut out);
        value_of(l, -1, &mut out);
    }
    out
}

#[test]
fn registrations_take_the_same_values_sources_and_dumps() {
    let home = home_with("reg", CONF);
    let t = same_on_both(
        &[
            ("PRTE_MCA_fw_c_i", "-17"),
            ("PRTE_MCA_fw_c_u", "0x7fffffff"),
            ("PRTE_MCA_fw_c_ul", "5m"),
            ("PRTE_MCA_fw_c_ull", "1G"),
            ("PRTE_MCA_fw_c_sz", "017"),
            ("PRTE_MCA_fw_c_str", "~/a:~/b"),
            ("PRTE_MCA_fw_c_ver", "1.2.3"),
            ("PRTE_MCA_fw_c_b", "1"),
            ("PRTE_MCA_fw_c_d", "3.25"),
            ("PRTE_MCA_fw_c_neg", "-1"),
            ("PRTE_MCA_fw_c_big", "12abc"),
            ("PRTE_MCA_fw_c_bword", "TR"),
            ("PRTE_MCA_fw_c_byes", "yes"),
            ("PMIX_MCA_pmix_fw_c_long", "5"),
            ("PMIX_MCA_fw_c_long", "6"),
            ("PRTE_MCA_fw_c_envwins", "2"),
            ("PRTE_MCA_fw_c_srcfile", "3"),
            ("PRTE_MCA_SOURCE_fw_c_srcfile", "file:/some/where.conf"),
            ("PRTE_MCA_fw_c_srccmd", "4"),
            ("PRTE_MCA_SOURCE_fw_c_srccmd", "command"),
            ("PRTE_MCA_fw_c_verbose", "component"),
            ("PRTE_MCA_old_c_i", "123"),
        ],
        &home,
        registry_scenario,
    );
    assert!(t.contains("register byes: -65"), "{t}");
}

fn passed_scenario(l: &Pmix) -> String {
    let reg: Register = f(l, "pmix_mca_base_var_register");
    let find: Find = f(l, "pmix_mca_base_var_find");
    let st: &'static mut i32 = Box::leak(Box::new(5));
    // SAFETY: C strings and an int storage.
    unsafe {
        let i = reg(
            c"prte".as_ptr(),
            c"fw".as_ptr(),
            c"c".as_ptr(),
            c"fint".as_ptr(),
            ptr::null(),
            0,
            (st as *mut i32).cast(),
        );
        let p = find(
            ptr::null(),
            c"mca".as_ptr(),
            c"base".as_ptr(),
            c"param_files".as_ptr(),
        );
        format!("index {i} value {} param_files {p}\n", *st)
    }
}

#[test]
fn param_files_are_not_read_when_passed() {
    let home = home_with("passed", CONF);
    let t = same_on_both(&[("PMIX_PARAM_FILE_PASSED", "1")], &home, passed_scenario);
    assert!(t.contains("value 5 param_files -46"), "{t}");
}

fn group_scenario(l: &Pmix) -> String {
    let reg: Register = f(l, "pmix_mca_base_var_register");
    let gfind: GroupFind = f(l, "pmix_mca_base_var_group_find");
    let gget: GroupGet = f(l, "pmix_mca_base_var_group_get");
    let st: &'static mut [i32; 4] = Box::leak(Box::new([0; 4]));
    let mut out = String::new();
    // SAFETY: C strings, int storage, the group layout of facts/layouts-mcavar.txt.
    unsafe {
        for (k, (c, n)) in [(c"ssh", c"a"), (c"ssh", c"b"), (c"slurm", c"a")]
            .iter()
            .enumerate()
        {
            let i = reg(
                c"prte".as_ptr(),
                c"plm".as_ptr(),
                c.as_ptr(),
                n.as_ptr(),
                ptr::null(),
                0,
                (&raw mut st[k]).cast(),
            );
            out.push_str(&format!("var {i}\n"));
        }
        let base = reg(
            c"prte".as_ptr(),
            c"plm".as_ptr(),
            c"base".as_ptr(),
            c"verbose".as_ptr(),
            ptr::null(),
            0,
            (&raw mut st[3]).cast(),
        );
        out.push_str(&format!("base var {base}\n"));
        let names: [(*const c_char, *const c_char, *const c_char); 7] = [
            (c"prte".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr()),
            (c"prte".as_ptr(), c"plm".as_ptr(), ptr::null()),
            (c"prte".as_ptr(), c"plm".as_ptr(), c"base".as_ptr()),
            (c"*".as_ptr(), c"plm".as_ptr(), c"slurm".as_ptr()),
            (c"pmix".as_ptr(), c"mca".as_ptr(), c"base".as_ptr()),
            (c"prte".as_ptr(), c"nope".as_ptr(), ptr::null()),
            (ptr::null(), c"plm".as_ptr(), c"ssh".as_ptr()),
        ];
        for (p, fw, c) in names {
            let g = gfind(p, fw, c);
            out.push_str(&format!("group {} {} {} = {g}\n", s(p), s(fw), s(c)));
            if g < 0 {
                continue;
            }
            let mut gp: *const u8 = ptr::null();
            let rc = gget(g, &mut gp);
            let str_at = |o: usize| s(*(gp.add(o) as *const *const c_char));
            let ints_at = |o: usize| {
                let items = *(gp.add(o + 120) as *const *const c_int);
                let n = *(gp.add(o + 136) as *const usize);
                (0..n).map(|k| *items.add(k)).collect::<Vec<_>>()
            };
            out.push_str(&format!(
                "  rc {rc} index {} valid {} name {} project {} fw {} comp {} desc {} subgroups {:?} vars {:?}\n",
                *(gp.add(144) as *const c_int),
                *gp.add(148),
                str_at(152),
                str_at(160),
                str_at(168),
                str_at(176),
                str_at(184),
                ints_at(192),
                ints_at(344)
            ));
        }
        let mut gp: *const u8 = ptr::null();
        out.push_str(&format!("get 999: {}\n", gget(999, &mut gp)));
    }
    out
}

#[test]
fn groups_are_the_same_tree() {
    let home = home_with("groups", "");
    same_on_both(&[], &home, group_scenario);
}

/// A `pmix_list_t` made by hand: the parser only appends and walks.
fn new_list() -> *mut u8 {
    let l: &'static mut [u64; 34] = Box::leak(Box::new([0u64; 34]));
    let p = l.as_mut_ptr() as *mut u8;
    // SAFETY: the sentinel at 120 links to itself; next@120+120, prev@120+128.
    unsafe {
        let sentinel = p.add(120);
        *(sentinel.add(120) as *mut *mut u8) = sentinel;
        *(sentinel.add(128) as *mut *mut u8) = sentinel;
    }
    p
}

fn list_transcript(list: *mut u8, files: &[*const c_char], out: &mut String) {
    // SAFETY: the hand-made list and the file values the library appended.
    unsafe {
        let sentinel = list.add(120);
        out.push_str(&format!("length {}\n", *(list.add(264) as *const usize)));
        let mut it = *(sentinel.add(120) as *const *mut u8);
        while it != sentinel {
            let file = *(it.add(160) as *const *const c_char);
            let which = files.iter().position(|&f| f == file);
            out.push_str(&format!(
                "  [{}] = [{}] line {} file #{which:?}\n",
                s(*(it.add(144) as *const *const c_char)),
                s(*(it.add(152) as *const *const c_char)),
                *(it.add(168) as *const c_int)
            ));
            it = *(it.add(120) as *const *mut u8);
        }
    }
}

const FILE1: &str = "# a comment\n\
    a = 1\n\
    b=2   \n\
    \x20 c   =   x y z  \t \n\
    \n\
    d = \"quoted value\"\n\
    // another comment\n\
    /* a block\n\
    \x20  comment */\n\
    b = 3\n\
    e =\n\
    --mca f 5\n\
    -mca g 'single q' \n\
    -mca h \"double q\" \n\
    -x FOO=bar\n\
    -x BAR\n\
    name.with-dots_and-dashes = v\n\
    last = no newline";

const FILE2: &str = "a = from second\n\
    --mca z 1 --mca y 2\n\
    k = 9\n";

fn paramfile_scenario(l: &Pmix) -> String {
    let parse: ParseFile = f(l, "pmix_mca_base_parse_paramfile");
    let dir = PathBuf::from(std::env::var("HOME").unwrap());
    let p1 = CString::new(dir.join("p1.conf").display().to_string()).unwrap();
    let p2 = CString::new(dir.join("p2.conf").display().to_string()).unwrap();
    let missing = CString::new(dir.join("missing.conf").display().to_string()).unwrap();
    let mut out = String::new();
    let list = new_list();
    // SAFETY: C strings that outlive the list (leaked with the child), the hand-made list.
    unsafe {
        out.push_str(&format!("p1 rc {}\n", parse(p1.as_ptr(), list.cast())));
        list_transcript(list, &[p1.as_ptr(), p2.as_ptr()], &mut out);
        out.push_str(&format!("p2 rc {}\n", parse(p2.as_ptr(), list.cast())));
        list_transcript(list, &[p1.as_ptr(), p2.as_ptr()], &mut out);
        let l2 = new_list();
        out.push_str(&format!(
            "missing rc {}\n",
            parse(missing.as_ptr(), l2.cast())
        ));
        list_transcript(l2, &[], &mut out);
    }
    std::mem::forget((p1, p2, missing));
    out
}

#[test]
fn parameter_files_parse_to_the_same_lists() {
    let home = home_with("files", "");
    std::fs::write(home.join("p1.conf"), FILE1).unwrap();
    std::fs::write(home.join("p2.conf"), FILE2).unwrap();
    let t = same_on_both(&[], &home, paramfile_scenario);
    assert!(t.contains("[c] = [x y z] line 4"), "{t}");
}

fn pmdl_scenario(l: &Pmix) -> String {
    let pmix: Check = f(l, "pmix_pmdl_base_check_pmix_param");
    let prte: Check = f(l, "pmix_pmdl_base_check_prte_param");
    let mut out = String::new();
    for p in [
        "pmix_x",
        "pm_x",
        "pmix",
        "pmixx_y",
        "_x",
        "",
        "ptl_base_verbose",
        "ptl",
        "mca_base_x",
        "pif_x",
        "gds",
        "gdsx_y",
        "plm_ssh_agent",
        "prte_x",
        "pr_x",
        "prted_x",
        "hwloc_base",
        "if_include",
        "rml_x",
        "oob_tcp_if",
        "schizo",
        "btl_tcp",
        "opal_x",
        "a_b_c",
    ] {
        let c = CString::new(p).unwrap();
        // SAFETY: C strings.
        let (a, b) = unsafe { (pmix(c.as_ptr()), prte(c.as_ptr())) };
        out.push_str(&format!("{p:?}: pmix {a} prte {b}\n"));
    }
    out
}

#[test]
fn parameter_routing_agrees() {
    let home = home_with("pmdl", "");
    same_on_both(&[], &home, pmdl_scenario);
    let t = same_on_both(&[("PRTE_MCA_PREFIXES", "btl,,opal")], &home, pmdl_scenario);
    assert!(t.contains("\"btl_tcp\": pmix false prte true"), "{t}");
}
