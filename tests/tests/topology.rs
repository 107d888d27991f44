//! Topology and cpusets, on both libraries: cpuset strings, locality strings, relative
//! locality, `PMIx_Load_topology` and `PMIx_Get_cpuset`.
//!
//! The cpusets compared are those of the real objects of the loaded topology (NUMA nodes,
//! packages, caches, cores, PUs), unions of pairs of them, and handcrafted lists. The same
//! checks run again on synthetic topologies richer than this machine (several packages, NUMA
//! nodes and cache levels), in child processes of this test binary that point both libraries
//! at an hwloc XML file through `PMIX_MCA_pmix_hwloc_topo_file` (the reference's MCA parameter
//! for the purpose, which ours reads too); a topology is loaded once per process.
//!
//! Known differences (docs/notes/topology.md): the reference's `PMIx_Get_relative_locality`
//! accepts only "hwloc:"-prefixed strings and returns -1366 even when it has computed the
//! locality, so its locality value is compared with ours, and our status must be success.

use std::ffi::{CString, c_char, c_int};
use std::process::Command;

use hwlocality_sys::*;
use pmix_abi_tests::{Pmix, both, ours, reference, string};
use pmix_sys::*;

/// The reference's internal `PMIX_ERR_TAKE_NEXT_OPTION`.
const TAKE_NEXT_OPTION: pmix_status_t = -1366;
/// Set in the child processes that run the checks on a synthetic topology.
const CHILD_ENV: &str = "PMIX_TOPOLOGY_TEST_CHILD";
const TOPO_FILE_ENV: &str = "PMIX_MCA_pmix_hwloc_topo_file";

unsafe extern "C" {
    fn hwloc_bitmap_list_sscanf(bitmap: hwloc_bitmap_t, string: *const c_char) -> c_int;
}

type LoadTopology = unsafe extern "C" fn(*mut pmix_topology_t) -> pmix_status_t;
type TopologyDestruct = unsafe extern "C" fn(*mut pmix_topology_t);
type GenString = unsafe extern "C" fn(*const pmix_cpuset_t, *mut *mut c_char) -> pmix_status_t;
type ParseString = unsafe extern "C" fn(*const c_char, *mut pmix_cpuset_t) -> pmix_status_t;
type GetCpuset = unsafe extern "C" fn(*mut pmix_cpuset_t, pmix_bind_envelope_t) -> pmix_status_t;
type CpusetDestruct = unsafe extern "C" fn(*mut pmix_cpuset_t);
type RelativeLocality =
    unsafe extern "C" fn(*const c_char, *const c_char, *mut pmix_locality_t) -> pmix_status_t;
type DataCopy = unsafe extern "C" fn(
    *mut *mut libc::c_void,
    *mut libc::c_void,
    pmix_data_type_t,
) -> pmix_status_t;

/// An hwloc bitmap owned by the test.
struct Bitmap(hwloc_bitmap_t);

impl Bitmap {
    fn from_list(list: &str) -> Bitmap {
        let text = CString::new(list).unwrap();
        // SAFETY: plain hwloc calls on a fresh bitmap and a C string.
        unsafe {
            let b = hwloc_bitmap_alloc();
            assert!(!b.is_null());
            assert_eq!(hwloc_bitmap_list_sscanf(b, text.as_ptr()), 0, "{list:?}");
            Bitmap(b)
        }
    }
}

impl Drop for Bitmap {
    fn drop(&mut self) {
        // SAFETY: allocated by hwloc_bitmap_alloc, freed once.
        unsafe { hwloc_bitmap_free(self.0) }
    }
}

/// The list syntax of an hwloc bitmap.
///
/// # Safety
/// `b` is a valid hwloc bitmap.
unsafe fn list_of(b: hwloc_const_bitmap_t) -> String {
    // SAFETY: snprintf-style calls with a buffer of the reported size.
    unsafe {
        let n = hwloc_bitmap_list_snprintf(std::ptr::null_mut(), 0, b);
        let mut buf = vec![0u8; n as usize + 1];
        let _ = hwloc_bitmap_list_snprintf(buf.as_mut_ptr().cast(), buf.len(), b);
        buf.truncate(n as usize);
        String::from_utf8(buf).unwrap()
    }
}

/// A `pmix_cpuset_t` borrowing a source string and a bitmap.
fn cpuset(source: &CString, b: &Bitmap) -> pmix_cpuset_t {
    pmix_cpuset_t {
        source: source.as_ptr().cast_mut(),
        bitmap: b.0.cast(),
    }
}

/// Calls one of the two string generators; the string is freed here.
fn generate(l: &Pmix, name: &str, source: &str, list: &str) -> (pmix_status_t, Option<String>) {
    let src = CString::new(source).unwrap();
    let b = Bitmap::from_list(list);
    let c = cpuset(&src, &b);
    // SAFETY: prototype of pmix_server.h; the result is a malloc'd string or NULL.
    unsafe {
        let f: GenString = l.sym(name);
        let mut out: *mut c_char = std::ptr::null_mut();
        let rc = f(&c, &mut out);
        let s = string(out);
        libc::free(out.cast());
        (rc, s)
    }
}

fn cpuset_string(l: &Pmix, list: &str) -> (pmix_status_t, Option<String>) {
    generate(l, "PMIx_server_generate_cpuset_string", "hwloc", list)
}

fn locality_string(l: &Pmix, list: &str) -> (pmix_status_t, Option<String>) {
    generate(l, "PMIx_server_generate_locality_string", "hwloc", list)
}

/// `PMIx_Parse_cpuset_string` on a writable copy (the reference writes into the string):
/// the status, the source and the bitmap in list syntax.
fn parse(l: &Pmix, s: &str) -> (pmix_status_t, Option<String>, Option<String>) {
    let text = CString::new(s).unwrap();
    // SAFETY: prototypes of pmix.h; the cpuset is released with the same library.
    unsafe {
        let f: ParseString = l.sym("PMIx_Parse_cpuset_string");
        let d: CpusetDestruct = l.sym("PMIx_Cpuset_destruct");
        let mut c: pmix_cpuset_t = std::mem::zeroed();
        let rc = f(text.as_ptr(), &mut c);
        let source = string(c.source);
        let list = (!c.bitmap.is_null()).then(|| list_of(c.bitmap.cast()));
        d(&mut c);
        (rc, source, list)
    }
}

/// `PMIx_Get_relative_locality`: the status and the locality written (0xdead if none).
fn relative(l: &Pmix, a: &str, b: &str) -> (pmix_status_t, pmix_locality_t) {
    let (a, b) = (CString::new(a).unwrap(), CString::new(b).unwrap());
    // SAFETY: prototype of pmix.h; the strings are writable copies.
    unsafe {
        let f: RelativeLocality = l.sym("PMIx_Get_relative_locality");
        let mut loc: pmix_locality_t = 0xdead;
        let rc = f(a.as_ptr(), b.as_ptr(), &mut loc);
        (rc, loc)
    }
}

/// `PMIx_Load_topology` with no source requested: the status, the source (freed) and the
/// topology.
fn load(l: &Pmix) -> (pmix_status_t, Option<String>, hwloc_topology_t) {
    // SAFETY: prototype of pmix.h; the source set by the call is malloc'd.
    unsafe {
        let f: LoadTopology = l.sym("PMIx_Load_topology");
        let mut t: pmix_topology_t = std::mem::zeroed();
        let rc = f(&mut t);
        let s = string(t.source);
        libc::free(t.source.cast());
        (rc, s, t.topology.cast())
    }
}

/// The cpusets (list syntax) of the objects a locality string names, by level.
fn object_cpusets(t: hwloc_topology_t) -> Vec<String> {
    let mut out = Vec::new();
    // SAFETY: `t` is a loaded topology; the objects and their cpusets belong to it.
    unsafe {
        for ty in [
            HWLOC_OBJ_NUMANODE,
            HWLOC_OBJ_PACKAGE,
            HWLOC_OBJ_L3CACHE,
            HWLOC_OBJ_L2CACHE,
            HWLOC_OBJ_L1CACHE,
            HWLOC_OBJ_CORE,
            HWLOC_OBJ_PU,
        ] {
            let depth = hwloc_get_type_depth(t, ty);
            if depth == HWLOC_TYPE_DEPTH_UNKNOWN || depth == HWLOC_TYPE_DEPTH_MULTIPLE {
                continue;
            }
            for i in 0..hwloc_get_nbobjs_by_depth(t, depth) {
                let o = hwloc_get_obj_by_depth(t, depth, i);
                if !o.is_null() && !(*o).cpuset.is_null() {
                    out.push(list_of((*o).cpuset));
                }
            }
        }
    }
    out.dedup();
    out
}

/// What a topology looks like through the caller's own hwloc.
fn shape(t: hwloc_topology_t) -> String {
    // SAFETY: `t` is a loaded topology.
    unsafe {
        let n = |ty| {
            let d = hwloc_get_type_depth(t, ty);
            if d < 0 && d != HWLOC_TYPE_DEPTH_NUMANODE {
                0
            } else {
                hwloc_get_nbobjs_by_depth(t, d)
            }
        };
        let root = hwloc_get_obj_by_depth(t, 0, 0);
        format!(
            "depth={} packages={} numa={} cores={} pus={} root={} thissystem={}",
            hwloc_topology_get_depth(t),
            n(HWLOC_OBJ_PACKAGE),
            n(HWLOC_OBJ_NUMANODE),
            n(HWLOC_OBJ_CORE),
            n(HWLOC_OBJ_PU),
            list_of((*root).cpuset),
            hwloc_topology_is_thissystem(t)
        )
    }
}

/// The cpusets the checks use: every object's, unions of pairs of PUs and of objects, and
/// handcrafted lists (beyond the machine, empty, infinite).
fn test_cpusets(objects: &[String]) -> Vec<String> {
    let mut sets: Vec<String> = objects.to_vec();
    for (i, a) in objects.iter().enumerate() {
        for b in objects.iter().skip(i + 1).step_by(3).take(4) {
            let u = format!("{a},{b}");
            sets.push(
                // Normalise through hwloc.
                // SAFETY: a valid bitmap.
                unsafe { list_of(Bitmap::from_list(&u).0) },
            );
        }
    }
    for h in [
        "0", "1", "0-1", "0,2", "0-3,8", "1,3,5-7", "100-200", "", "0-", "5-", "4096",
    ] {
        sets.push(h.to_string());
    }
    sets.sort();
    sets.dedup();
    sets
}

/// Every check on the topology both libraries loaded; returns the failures and the number
/// of comparisons made.
fn check_all() -> (Vec<String>, usize) {
    let [r, o] = both();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut same = |what: String, a: String, b: String| {
        compared += 1;
        if a != b {
            failures.push(format!("{what}: reference {a}, ours {b}"));
        }
    };

    // The topology itself, seen through hwloc.
    let (rrc, rsrc, rt) = load(r);
    let (orc, osrc, ot) = load(o);
    same(
        "load".into(),
        format!("{rrc} {rsrc:?}"),
        format!("{orc} {osrc:?}"),
    );
    assert!(!rt.is_null() && !ot.is_null());
    same("topology shape".into(), shape(rt), shape(ot));
    let objects = object_cpusets(rt);
    same(
        "object cpusets".into(),
        format!("{objects:?}"),
        format!("{:?}", object_cpusets(ot)),
    );

    let sets = test_cpusets(&objects);
    let mut localities = Vec::new();
    for list in &sets {
        // Cpuset strings, and parsing each other's.
        let (a, b) = (cpuset_string(r, list), cpuset_string(o, list));
        same(
            format!("cpuset string of {list:?}"),
            format!("{a:?}"),
            format!("{b:?}"),
        );
        if let (Some(sa), Some(sb)) = (a.1, b.1) {
            let want = format!("(0, Some(\"hwloc\"), Some({list:?}))");
            same(
                format!("reference parses our {sb:?}"),
                want.clone(),
                format!("{:?}", parse(r, &sb)),
            );
            same(
                format!("we parse the reference's {sa:?}"),
                want,
                format!("{:?}", parse(o, &sa)),
            );
        }
        // Locality strings.
        let (a, b) = (locality_string(r, list), locality_string(o, list));
        same(
            format!("locality string of {list:?}"),
            format!("{a:?}"),
            format!("{b:?}"),
        );
        if let Some(s) = a.1 {
            localities.push(s);
        }
    }
    localities.sort();
    localities.dedup();

    // Relative locality of every pair: the reference needs the "hwloc:" prefix and answers
    // TAKE_NEXT_OPTION; ours takes both forms and succeeds.
    for a in localities.iter().take(60) {
        for b in localities.iter().take(60) {
            let (rc, want) = relative(r, &format!("hwloc:{a}"), &format!("hwloc:{b}"));
            same(
                format!("reference status for {a} / {b}"),
                TAKE_NEXT_OPTION.to_string(),
                rc.to_string(),
            );
            let bare = relative(o, a, b);
            let prefixed = relative(o, &format!("hwloc:{a}"), &format!("hwloc:{b}"));
            same(
                format!("relative locality {a} / {b}"),
                format!("(0, {want:#x})"),
                format!("({}, {:#x})", bare.0, bare.1),
            );
            same(
                format!("relative locality hwloc:{a} / hwloc:{b}"),
                format!("(0, {want:#x})"),
                format!("({}, {:#x})", prefixed.0, prefixed.1),
            );
        }
    }
    (failures, compared)
}

/// Runs `check_all` and fails on any difference.
fn check_all_and_report() {
    let (failures, compared) = check_all();
    eprintln!("{compared} comparisons");
    assert!(compared > 30, "only {compared} comparisons");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn real_topology_agrees() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    check_all_and_report();
}

/// Runs `check_all` in this child process (started by `synthetic_topologies_agree`).
#[test]
fn synthetic_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    check_all_and_report();
}

#[test]
fn synthetic_topologies_agree() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("pmix-topology-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, desc) in [
        "pack:2 numa:2 l3:1 l2:2 l1d:1 core:1 pu:2",
        "pack:2 l3:2 core:3 pu:1",
        "numa:2 core:4 pu:2",
        "pack:2 group:2 l2:2 core:2 pu:2",
    ]
    .iter()
    .enumerate()
    {
        let file = dir.join(format!("synthetic{i}.xml"));
        let path = CString::new(file.to_str().unwrap()).unwrap();
        let d = CString::new(*desc).unwrap();
        // SAFETY: plain hwloc calls on a topology created and destroyed here.
        unsafe {
            let mut t: hwloc_topology_t = std::ptr::null_mut();
            assert_eq!(hwloc_topology_init(&mut t), 0);
            assert_eq!(hwloc_topology_set_synthetic(t, d.as_ptr()), 0, "{desc}");
            assert_eq!(hwloc_topology_load(t), 0);
            assert_eq!(hwloc_topology_export_xml(t, path.as_ptr(), 0), 0);
            hwloc_topology_destroy(t);
        }
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "synthetic_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, "1")
            .env(TOPO_FILE_ENV, &file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "synthetic topology {desc:?}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cpuset_string_edge_cases_agree() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let [r, o] = both();
    for s in [
        "hwloc:0-3,8",
        "HWLOC:1",
        "hwlocX:1",
        "hwloc:",
        "hwloc:abc",
        "hwloc:0x3",
        "hwloc:1,0",
        "hwloc:3-1",
        "hwloc:0-",
        "hwloc: 1",
        "hwloc:0-3:4",
        "hwloc:010",
        "foo:0-3",
        "hwl:0",
        "0-3",
        "",
    ] {
        assert_eq!(parse(r, s), parse(o, s), "parse {s:?}");
    }
    // A source that is not hwloc.
    for name in [
        "PMIx_server_generate_cpuset_string",
        "PMIx_server_generate_locality_string",
    ] {
        assert_eq!(
            generate(r, name, "foo", "0"),
            generate(o, name, "foo", "0"),
            "{name}"
        );
        assert_eq!(
            generate(r, name, "HWLOC:2", "0"),
            generate(o, name, "HWLOC:2", "0"),
            "{name}"
        );
    }
    // Handcrafted locality strings, in the reference's prefixed form.
    let pairs = [
        ("NM0:SK0:L30:L20:L10:CR0:HT0", "NM0:SK0:L30:L20:L10:CR0:HT1"), // same core
        ("NM0:SK0:L30:L20:L10:CR0:HT0", "NM0:SK0:L30:L21:L11:CR1:HT2"), // same package
        ("NM0:SK0:L30:CR0:HT0", "NM1:SK0:L30:CR4:HT8"),                 // same package, other NUMA
        ("NM0:SK0:L30:CR0:HT0", "NM1:SK1:L31:CR4:HT8"),                 // other package
        ("SK0-1:CR0-7", "SK1:CR7"),
        ("HT0:HT1", "HT1"),
        ("CR0:CR1", "CR1"),
        ("HT0", "HT1:HT0"),
        ("NM", "NM"),
        ("NMabc", "NMabc"),
        ("SK0x1", "SK1"),
        ("XX0:SK0", "SK0:XX0"),
        ("XX0", "XX0"),
        ("L30::CR1", "CR1:L30"),
    ];
    for (a, b) in pairs {
        let (rc, loc) = relative(r, &format!("hwloc:{a}"), &format!("hwloc:{b}"));
        // The reference writes the locality even when it fails on an unknown level; ours
        // leaves the out-parameter alone on failure.
        let want = match rc {
            TAKE_NEXT_OPTION => (0, loc),
            PMIX_ERROR => (PMIX_ERROR, 0xdead),
            other => panic!("reference status {other} for {a} / {b}"),
        };
        let ours_rc = want.0;
        assert_eq!(
            want,
            relative(o, &format!("hwloc:{a}"), &format!("hwloc:{b}")),
            "{a} / {b}"
        );
        if !a.is_empty() && !b.is_empty() && ours_rc == 0 {
            assert_eq!((0, loc), relative(o, a, b), "bare {a} / {b}");
        }
    }
    // Strings that are not locality strings.
    for (a, b) in [("foo", "SK0"), ("SK0", "bar")] {
        assert_eq!(relative(o, a, b), (TAKE_NEXT_OPTION, 0xdead));
        assert_eq!(relative(r, a, b), (TAKE_NEXT_OPTION, 0xdead));
    }
}

#[test]
fn load_topology_sharing_and_copies() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    for l in both() {
        let (rc, src, t1) = load(l);
        let (_, _, t2) = load(l);
        assert_eq!(rc, PMIX_SUCCESS, "{l:?}");
        assert!(src.unwrap().starts_with("hwloc"));
        assert_eq!(t1, t2, "{l:?}: every call returns the same topology");
        // SAFETY: prototypes of pmix.h; the structures are built and released here.
        unsafe {
            let f: LoadTopology = l.sym("PMIx_Load_topology");
            for (req, want) in [
                ("hwloc", PMIX_SUCCESS),
                ("HWLOC", PMIX_SUCCESS),
                ("foo", TAKE_NEXT_OPTION),
                ("hwloc:1.0", TAKE_NEXT_OPTION),
            ] {
                let s = CString::new(req).unwrap();
                let mut t: pmix_topology_t = std::mem::zeroed();
                t.source = s.as_ptr().cast_mut();
                assert_eq!(f(&mut t), want, "{l:?} source {req}");
                assert_eq!(
                    t.source,
                    s.as_ptr().cast_mut(),
                    "the caller's source is kept"
                );
                let expect = if want == PMIX_SUCCESS {
                    t1
                } else {
                    std::ptr::null_mut()
                };
                assert_eq!(t.topology.cast(), expect, "{l:?} source {req}");
            }
            // A copy is a new topology, owned by the copy and destroyed by its destructor.
            let copy: DataCopy = l.sym("PMIx_Data_copy");
            let destruct: TopologyDestruct = l.sym("PMIx_Topology_destruct");
            let src = CString::new("hwloc").unwrap();
            let mut t = pmix_topology_t {
                source: src.as_ptr().cast_mut(),
                topology: t1.cast(),
            };
            let mut out: *mut libc::c_void = std::ptr::null_mut();
            assert_eq!(
                copy(&mut out, (&mut t as *mut pmix_topology_t).cast(), PMIX_TOPO),
                PMIX_SUCCESS
            );
            let c = out.cast::<pmix_topology_t>();
            assert_eq!(string((*c).source).as_deref(), Some("hwloc"));
            assert!(!(*c).topology.is_null() && (*c).topology != t1.cast());
            assert_eq!(shape((*c).topology.cast()), shape(t1));
            destruct(c);
            libc::free(out);
        }
    }
    // Ours protects the shared topology from PMIx_Topology_destruct (the reference destroys
    // it, leaving every later PMIx_Load_topology a dangling pointer).
    let o = ours();
    let (_, _, t) = load(o);
    // SAFETY: prototype of pmix.h; the source is malloc'd as the destructor expects.
    unsafe {
        let destruct: TopologyDestruct = o.sym("PMIx_Topology_destruct");
        let mut s = pmix_topology_t {
            source: libc::strdup(c"hwloc".as_ptr()),
            topology: t.cast(),
        };
        destruct(&mut s);
        assert!(s.source.is_null() && s.topology.is_null());
    }
    let (_, _, again) = load(o);
    assert_eq!(again, t);
    assert_eq!(shape(again), shape(reference_topology()));
}

fn reference_topology() -> hwloc_topology_t {
    load(reference()).2
}

/// `PMIx_Get_cpuset` in a child process bound to `cpus`: the lists both libraries report for
/// the process and the thread.
fn cpuset_in_child(cpus: &[usize]) -> String {
    let r = reference();
    let o = ours();
    let get = |l: &Pmix, env| -> String {
        // SAFETY: prototypes of pmix.h; the cpuset is released with the same library.
        unsafe {
            let f: GetCpuset = l.sym("PMIx_Get_cpuset");
            let d: CpusetDestruct = l.sym("PMIx_Cpuset_destruct");
            let mut c: pmix_cpuset_t = std::mem::zeroed();
            let rc = f(&mut c, env);
            let s = format!(
                "{rc} {:?} {:?}",
                string(c.source),
                (!c.bitmap.is_null()).then(|| list_of(c.bitmap.cast()))
            );
            d(&mut c);
            s
        }
    };
    let mut fds = [0; 2];
    // SAFETY: pipe/fork/waitpid; the child sets its affinity, makes the calls, writes one line
    // and exits without unwinding.
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0);
        if pid == 0 {
            libc::close(fds[0]);
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &c in cpus {
                libc::CPU_SET(c, &mut set);
            }
            let line = if libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) != 0 {
                "setaffinity failed\n".to_string()
            } else {
                let mut s = String::new();
                for env in [PMIX_CPUBIND_PROCESS, PMIX_CPUBIND_THREAD, 7] {
                    let (a, b) = (get(r, env), get(o, env));
                    s.push_str(&format!(
                        "env {env}: ref {a} ours {b}{}",
                        if a == b { "; " } else { " DIFFERENT; " }
                    ));
                }
                s + "\n"
            };
            libc::write(fds[1], line.as_ptr().cast(), line.len());
            libc::_exit(0);
        }
        libc::close(fds[1]);
        let mut buf = vec![0u8; 4096];
        let mut n = 0;
        let start = std::time::Instant::now();
        let mut status = 0;
        loop {
            if libc::waitpid(pid, &mut status, libc::WNOHANG) == pid {
                break;
            }
            if start.elapsed() > std::time::Duration::from_secs(20) {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        loop {
            let k = libc::read(fds[0], buf[n..].as_mut_ptr().cast(), buf.len() - n);
            if k <= 0 {
                break;
            }
            n += k as usize;
        }
        libc::close(fds[0]);
        String::from_utf8_lossy(&buf[..n]).trim().to_string()
    }
}

#[test]
fn get_cpuset_agrees() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    // Load both topologies before forking.
    let _ = (load(reference()), load(ours()));
    // SAFETY: sched_getaffinity into a zeroed set.
    let allowed: Vec<usize> = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        assert_eq!(
            libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set),
            0
        );
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    };
    let mut cases: Vec<Vec<usize>> = allowed.iter().map(|&c| vec![c]).collect();
    cases.push(allowed.clone());
    if allowed.len() > 2 {
        cases.push(vec![allowed[0], allowed[allowed.len() - 1]]);
    }
    for cpus in cases {
        let line = cpuset_in_child(&cpus);
        assert!(
            line.starts_with("env") && !line.contains("DIFFERENT"),
            "bound to {cpus:?}: {line}"
        );
        let want = Bitmap::from_list(
            &cpus
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(","),
        );
        // SAFETY: a valid bitmap.
        let want = unsafe { list_of(want.0) };
        assert!(
            line.contains(&format!("0 Some(\"hwloc\") Some({want:?})")),
            "bound to {cpus:?}: {line}"
        );
    }
}
