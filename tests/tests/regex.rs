//! Node and process maps: `PMIx_generate_regex` and `PMIx_generate_ppn` on both libraries,
//! and proof that the reference reads the maps we generate.
//!
//! * Generation: where the reference's map describes its input faithfully (our parser reads
//!   it back to the input, and the reference itself can read it), our map equals it byte
//!   for byte. Where it does not (docs/notes/regex.md), ours still describes the input.
//! * Reading: `tests/regex_host.c`, built against the reference and run as a PMIx server in
//!   a private TMPDIR, registers namespaces whose `PMIX_NODE_MAP`/`PMIX_PROC_MAP` are our
//!   maps and prints what the reference derived from them (node list, peers of each node,
//!   host of each rank). The host is reference-only: our library has no server role yet.

use std::collections::HashSet;
use std::ffi::{CStr, CString, c_char};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pmix_abi_tests::{Pmix, ours, reference};
use pmix_core::PStr;
use pmix_core::regex::{parse_node_map, parse_proc_map, split_node_list, split_ppn};
use pmix_sys::*;
use proptest::prelude::*;

type Generate = unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> pmix_status_t;

/// Calls `PMIx_generate_regex` (`ppn == false`) or `PMIx_generate_ppn` of `l`. The result is
/// the C string it returned (checked to be one: neither library returns the binary blob
/// form), or the error status; on error `*out` must be untouched.
fn generate(l: &Pmix, ppn: bool, input: &[u8]) -> Result<Vec<u8>, pmix_status_t> {
    let name = if ppn {
        "PMIx_generate_ppn"
    } else {
        "PMIx_generate_regex"
    };
    // SAFETY: the prototype of pmix_server.h.
    let f: Generate = unsafe { l.sym(name) };
    let c = CString::new(input).expect("inputs hold no NUL");
    let sentinel = 0x5a5a_usize as *mut c_char;
    let mut out = sentinel;
    // SAFETY: a valid C string and a writable out-pointer.
    let rc = unsafe { f(c.as_ptr(), &mut out) };
    if rc != PMIX_SUCCESS {
        assert_eq!(out, sentinel, "{l:?} {name}: failed but wrote *out");
        return Err(rc);
    }
    assert!(!out.is_null(), "{l:?} {name}: success with NULL");
    // SAFETY: on success both libraries return a malloc'd C string.
    let bytes = unsafe { CStr::from_ptr(out) }.to_bytes().to_vec();
    assert!(!bytes.starts_with(b"blob:"), "{l:?}: binary map");
    // SAFETY: malloc'd by the library with the process's malloc.
    unsafe { libc::free(out.cast()) };
    Ok(bytes)
}

fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What happened to one input.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Both gave the same map, which reads back to the input.
    Same,
    /// The reference's map does not describe the input; ours does.
    RefUnfaithful,
    /// The input is invalid for us (BAD_PARAM); the reference accepted it.
    OursRejects,
}

fn judge_nodes(input: &[u8]) -> Verdict {
    let r = generate(reference(), false, input);
    let o = generate(ours(), false, input);
    let Ok(original) = split_node_list(input) else {
        assert_eq!(o, Err(PMIX_ERR_BAD_PARAM), "ours on {:?}", show(input));
        assert!(r.is_ok(), "reference on {:?}: {r:?}", show(input));
        return Verdict::OursRejects;
    };
    let r = r.unwrap_or_else(|e| panic!("reference failed on {:?}: {e}", show(input)));
    let o = o.unwrap_or_else(|e| panic!("ours failed on {:?}: {e}", show(input)));
    assert_eq!(
        parse_node_map(&o).as_ref(),
        Ok(&original),
        "our map {:?} of {:?}",
        show(&o),
        show(input)
    );
    if parse_node_map(&r).as_ref() == Ok(&original) {
        assert_eq!(
            show(&o),
            show(&r),
            "the reference's map of {:?} is faithful: ours must equal it",
            show(input)
        );
        Verdict::Same
    } else {
        assert_ne!(o, r);
        Verdict::RefUnfaithful
    }
}

fn expand(nodes: &[Vec<(u32, u32)>]) -> Vec<Vec<u32>> {
    nodes
        .iter()
        .map(|n| n.iter().flat_map(|&(a, b)| a..=b).collect())
        .collect()
}

/// The reference reads `raw:` text as lists of single ranks (see
/// `the_reference_reads_our_maps`), so a raw map holding ranges is not faithful even when
/// our (more lenient) parser reads it.
fn ref_can_read_proc_map(map: &[u8]) -> bool {
    !(map.starts_with(b"raw:") && map.contains(&b'-'))
}

fn judge_ppn(input: &[u8]) -> Verdict {
    let r = generate(reference(), true, input);
    let o = generate(ours(), true, input);
    let Ok(original) = split_ppn(input) else {
        assert_eq!(o, Err(PMIX_ERR_BAD_PARAM), "ours on {:?}", show(input));
        assert!(r.is_ok(), "reference on {:?}: {r:?}", show(input));
        return Verdict::OursRejects;
    };
    let original = expand(&original);
    let r = r.unwrap_or_else(|e| panic!("reference failed on {:?}: {e}", show(input)));
    let o = o.unwrap_or_else(|e| panic!("ours failed on {:?}: {e}", show(input)));
    assert_eq!(
        parse_proc_map(&o).as_ref(),
        Ok(&original),
        "our map {:?} of {:?}",
        show(&o),
        show(input)
    );
    assert!(ref_can_read_proc_map(&o), "{:?}", show(&o));
    if ref_can_read_proc_map(&r) && parse_proc_map(&r).as_ref() == Ok(&original) {
        assert_eq!(
            show(&o),
            show(&r),
            "the reference's map of {:?} is faithful: ours must equal it",
            show(input)
        );
        Verdict::Same
    } else {
        assert_ne!(o, r);
        Verdict::RefUnfaithful
    }
}

/// Node lists on which both libraries agree byte for byte.
const SAME_NODES: &[&str] = &[
    "n1,n2,n3",
    "node01,node02,node03",
    "a",
    "",
    "a,b,c",
    "node1,node2,node10,node11",
    "n01,n1,n001",
    "host,host2",
    "x1y,x2y",
    "a.b.c,a.b.d",
    "n1,n1,n2",
    "n3,n2,n1",
    "n1,n3,n5",
    "node09,node10",
    "abc123,def456",
    "123,124",
    "n1,",
    "n-1,n-2",
    "n1.example.com,n2.example.com",
    "n1,m1,n2",
    "a1b2,a1b3",
    "a1b2,a2b2",
    "N1,N2",
    "n1,n2,m",
    "m,n1,n2",
    "1,2,3",
    "n0,n1",
    "n,n",
    "n1a,n2b",
    "10.0.0.1,10.0.0.2",
    "n1.x,n2",
    "nX1,nX2",
    "n1,n2,n4,n5,n7",
    "node1,node3,node2,node4",
    "n1,n2,n3,n2,n3",
    "n0001,n0002",
    "0",
    "Ab1,ab2",
    "n,n1",
    "n2147483646,n2147483647",
    "n 1,n_2,n/3,n:4,n;5",
    "n1,n2,n3,m,m1",
    "node000001,node000002,node000003",
    "n\u{e9}1,n\u{e9}2",
];

/// Node lists whose reference map does not describe them.
const UNFAITHFUL_NODES: &[&str] = &[
    // Reordered to n1,n2,m.
    "n1,m,n2",
    "n1,n1.x,n2",
    "a1,a2,b,a3",
    "m,n1,m,n2",
    // Numbers beyond i32 wrap around.
    "n99999999999,n100000000000",
    "n1234567890123456789012,n2",
    "n2147483647,n2147483648",
    // Brackets: a map the reference cannot read.
    "n[1],n2",
    "n1],n2]",
];

/// Node lists with empty names: the reference writes maps it cannot read; we refuse them.
const REJECTED_NODES: &[&str] = &["n1,,n2", ",n1", ",", ",,", "n1,,m1", "a,,b"];

#[test]
fn node_maps_match_the_reference() {
    for input in SAME_NODES {
        assert_eq!(judge_nodes(input.as_bytes()), Verdict::Same, "{input:?}");
    }
    for input in UNFAITHFUL_NODES {
        assert_eq!(
            judge_nodes(input.as_bytes()),
            Verdict::RefUnfaithful,
            "{input:?}"
        );
    }
    for input in REJECTED_NODES {
        assert_eq!(
            judge_nodes(input.as_bytes()),
            Verdict::OursRejects,
            "{input:?}"
        );
    }
}

/// Long lists: still the native form (no "blob:"), still equal.
#[test]
fn long_node_lists() {
    let mut inputs = vec![
        (0..5000)
            .map(|i| format!("node{i:05}"))
            .collect::<Vec<_>>()
            .join(","),
        (0..3000)
            .map(|i| format!("r{}c{}n{}", i / 100, (i / 10) % 10, i % 10))
            .collect::<Vec<_>>()
            .join(","),
    ];
    let mut x = 12345u64;
    inputs.push(
        (0..3000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                format!("h{}{}", (b'a' + (x % 7) as u8) as char, x % 100_000)
            })
            .collect::<Vec<_>>()
            .join(","),
    );
    for input in &inputs {
        assert_eq!(judge_nodes(input.as_bytes()), Verdict::Same);
        let o = generate(ours(), false, input.as_bytes()).unwrap();
        assert!(o.starts_with(b"pmix["));
    }
}

const P: &str = "0,1,2,3,4,5,6,7,8,9,10";

fn same_ppn() -> Vec<String> {
    let mut v: Vec<String> = [
        "0,1,2;3,4",
        "0;1;2",
        "0",
        "0,1,2,3,4,5,6,7,8,9,10,11,12",
        "0,1,2,3,4",
        "0,1,2,3;4,5,6,7",
        "0,1,2,3;",
        "00,01",
        "5,4,3",
        "0,0,1",
        "2147483647",
        "10,11,12,13",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for tail in [
        "2,1,0",
        "0,0,1",
        "0,2",
        "5-7,1",
        "2-2",
        "0-1,2",
        "7,3-4",
        "8,9,10,11;12,13",
        "0-3,2",
    ] {
        v.push(format!("{P};{tail}"));
    }
    v
}

fn unfaithful_ppn() -> Vec<String> {
    let mut v: Vec<String> = [
        "0-3;4-7",
        "0-1",
        "0-2",
        "0-100;101-200",
        "1-4;2-5;8,10,11,12;6,7,9",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A range right after a run loses all but its first rank in the reference.
    for tail in ["0-2,3-5", "0,1-5", "0,1-5,6"] {
        v.push(format!("{P};{tail}"));
    }
    v
}

/// Invalid for us, accepted (with a map that does not describe them) by the reference.
/// Inputs on which the reference crashes ("", ";", ",", a field of commas only) are not
/// called on it; ours answers "raw:" for "" and BAD_PARAM for the others.
fn rejected_ppn() -> Vec<String> {
    let mut v: Vec<String> = [
        "0;;1",
        "0,1,2,3;;",
        ";0",
        "0,,1",
        "0,1,",
        "1-0",
        "3-1",
        "-1",
        "0-",
        "a",
        " 0, 1",
        "0x1",
        "2147483648",
        "4294967295",
        "1-2-3",
        "0-3:4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(format!("{P};,1"));
    v.push(format!("{P};1,,2"));
    v
}

#[test]
fn proc_maps_match_the_reference() {
    for input in same_ppn() {
        assert_eq!(judge_ppn(input.as_bytes()), Verdict::Same, "{input:?}");
    }
    for input in unfaithful_ppn() {
        assert_eq!(
            judge_ppn(input.as_bytes()),
            Verdict::RefUnfaithful,
            "{input:?}"
        );
    }
    for input in rejected_ppn() {
        assert_eq!(
            judge_ppn(input.as_bytes()),
            Verdict::OursRejects,
            "{input:?}"
        );
    }
    assert_eq!(generate(ours(), true, b"").unwrap(), b"raw:");
    for crash in [&b";"[..], b";;", b",", b"0;,"] {
        assert_eq!(generate(ours(), true, crash), Err(PMIX_ERR_BAD_PARAM));
    }
}

#[test]
fn null_arguments() {
    let o = ours();
    // SAFETY: the prototype of pmix_server.h; NULL arguments are what is tested.
    unsafe {
        for name in ["PMIx_generate_regex", "PMIx_generate_ppn"] {
            let f: Generate = o.sym(name);
            let mut out: *mut c_char = std::ptr::null_mut();
            assert_eq!(f(std::ptr::null(), &mut out), PMIX_ERR_BAD_PARAM);
            assert!(out.is_null());
            assert_eq!(f(c"0".as_ptr(), std::ptr::null_mut()), PMIX_ERR_BAD_PARAM);
        }
    }
}

fn host_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => ("[a-c]{0,2}", 0u32..40, 0usize..4, "[x-y]{0,1}")
            .prop_map(|(p, n, pad, s)| format!("{p}{n:0pad$}{s}")),
        1 => "[a-z0-9.\\-]{1,6}",
        1 => (2_147_483_000u64..2_147_484_000).prop_map(|n| format!("n{n}")),
    ]
}

fn ppn_text() -> impl Strategy<Value = String> {
    let item = (0u32..50, 0u32..4, 0u8..3).prop_map(|(a, len, kind)| match kind {
        0 => format!("{a}-{}", a + len),
        _ => a.to_string(),
    });
    let field = proptest::collection::vec(item, 1..6).prop_map(|v| v.join(","));
    (proptest::collection::vec(field, 1..8), any::<bool>())
        .prop_map(|(v, trailing)| v.join(";") + if trailing { ";" } else { "" })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_node_lists(hosts in proptest::collection::vec(host_name(), 1..30)) {
        judge_nodes(hosts.join(",").as_bytes());
    }

    #[test]
    fn random_ppn(input in ppn_text()) {
        judge_ppn(input.as_bytes());
    }
}

// ----- the reference reads our maps -----------------------------------------------------

/// A directory removed (with its contents) when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let base = std::env::temp_dir();
        for i in 0..1000 {
            let p = base.join(format!("pmix-{tag}-{}-{i}", std::process::id()));
            if std::fs::create_dir(&p).is_ok() {
                return TempDir(p);
            }
        }
        panic!("cannot create a directory in {}", base.display());
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn ref_lib() -> PathBuf {
    std::env::var_os("PMIX_REF_LIB")
        .map(Into::into)
        .unwrap_or_else(|| "/usr/lib/x86_64-linux-gnu/libpmix.so.2".into())
}

/// Builds tests/regex_host.c against the reference headers and library.
fn build_host(dir: &Path) -> PathBuf {
    let inc = std::env::var("PMIX_REF_INC")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/pmix2/include".into());
    let lib = ref_lib();
    let libdir = lib.parent().expect("library directory");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("regex_host.c");
    let exe = dir.join("regex_host");
    let out = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-g", "-O1", "-Wall", "-Wextra", "-Werror", "-Wpedantic"])
        .arg(format!("-I{inc}"))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", libdir.display()))
        .output()
        .expect("run the C compiler");
    assert!(
        out.status.success(),
        "building {}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// One namespace to register: the maps as bytes (with their NUL), the job size and the
/// value type ('s' PMIX_STRING, 'r' PMIX_REGEX).
struct Case {
    node_map: Vec<u8>,
    proc_map: Vec<u8>,
    job_size: u32,
    kind: char,
}

/// What the reference derived for one namespace.
#[derive(Debug, Default, PartialEq, Eq)]
struct Derived {
    register: i32,
    nodes: Option<Vec<String>>,
    nlist: Option<Vec<String>>,
    peers: Vec<(String, Vec<u32>)>,
    hosts: Vec<Option<String>>,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|c| format!("{c:02x}")).collect()
}

fn unhex(s: &str) -> Option<String> {
    match s {
        "-" => None,
        "=" => Some(String::new()),
        _ => Some(
            String::from_utf8(
                (0..s.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
                    .collect(),
            )
            .expect("utf-8 names"),
        ),
    }
}

fn split_list(s: Option<String>) -> Option<Vec<String>> {
    s.map(|s| s.split(',').map(str::to_string).collect())
}

/// Runs the host on `cases` in a private TMPDIR; returns what it derived for each.
fn run_host(cases: &[Case]) -> Vec<Derived> {
    let dir = TempDir::new("regex-host");
    let exe = build_host(&dir.0);
    let tmp = dir.0.join("tmp");
    std::fs::create_dir(&tmp).expect("tmpdir");
    let mut input = String::new();
    for c in cases {
        input += &format!(
            "{} {} {} {}\n",
            hex(&c.node_map),
            hex(&c.proc_map),
            c.job_size,
            c.kind
        );
    }
    let mut child = Command::new(&exe)
        .env("TMPDIR", &tmp)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the host");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let mut stderr = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break Some(st);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let out = reader.join().expect("stdout reader");
    let err = err_reader.join().expect("stderr reader");
    let status = status.unwrap_or_else(|| panic!("the host timed out; stderr: {err}"));
    assert!(status.success(), "host: {status}; stderr: {err}");

    let mut lines = out.lines();
    let lib = lines
        .next()
        .and_then(|l| l.strip_prefix("lib "))
        .unwrap_or("?");
    let want = std::fs::canonicalize(ref_lib()).expect("reference path");
    assert_eq!(
        std::fs::canonicalize(lib).ok().as_ref(),
        Some(&want),
        "the host must run on the reference library"
    );
    let mut res = Vec::new();
    let mut cur = Derived::default();
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        match f[0] {
            "case" => cur.register = f[3].parse().expect("status"),
            "nodes" => cur.nodes = split_list(unhex(f[2])),
            "nlist" => cur.nlist = split_list(unhex(f[2])),
            "peers" => cur.peers.push((
                unhex(f[1]).unwrap_or_default(),
                f.get(3)
                    .filter(|s| !s.is_empty())
                    .map(|s| s.split(',').map(|r| r.parse().expect("rank")).collect())
                    .unwrap_or_default(),
            )),
            "host" => cur.hosts.push(if f[2] == "0" { unhex(f[3]) } else { None }),
            "end" => res.push(std::mem::take(&mut cur)),
            other => panic!("host output: {other}"),
        }
    }
    assert_eq!(res.len(), cases.len(), "host output: {out}");
    res
}

/// What a server that reads `nodes` / `ranks` correctly derives.
fn expected(nodes: &[String], ranks: &[Vec<u32>]) -> Derived {
    let job_size = ranks.iter().map(Vec::len).sum::<usize>();
    let mut hosts = vec![None; job_size];
    for (n, rs) in nodes.iter().zip(ranks) {
        for &r in rs {
            hosts[r as usize] = Some(n.clone());
        }
    }
    Derived {
        register: PMIX_SUCCESS,
        nodes: Some(nodes.to_vec()),
        nlist: Some(nodes.to_vec()),
        peers: nodes.iter().cloned().zip(ranks.iter().cloned()).collect(),
        hosts,
    }
}

fn ppn_of(ranks: &[Vec<u32>]) -> String {
    ranks
        .iter()
        .map(|rs| rs.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(";")
}

/// Spreads ranks 0..n over `nodes` nodes, in a scrambled but fixed order.
fn spread(nodes: usize, per: &[usize], seed: u64) -> Vec<Vec<u32>> {
    let total: usize = per.iter().take(nodes).sum();
    let mut ranks: Vec<u32> = (0..total as u32).collect();
    let mut x = seed | 1;
    for i in (1..ranks.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x % 3 == 0 {
            ranks.swap(i, (x as usize) % (i + 1));
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    for &k in per.iter().take(nodes) {
        out.push(ranks[at..at + k].to_vec());
        at += k;
    }
    out
}

fn with_nul(mut b: Vec<u8>) -> Vec<u8> {
    b.push(0);
    b
}

#[test]
fn the_reference_reads_our_maps() {
    // Node lists without repeated names (the reference merges those into one node).
    let mut lists: Vec<String> = SAME_NODES
        .iter()
        .chain(UNFAITHFUL_NODES)
        .map(|s| s.to_string())
        .collect();
    lists.push(
        (0..300)
            .map(|i| format!("node{i:04}"))
            .collect::<Vec<_>>()
            .join(","),
    );
    lists.push("n1,m,n2,n3,x.y,n4,n5".into());
    let mut x = 99u64;
    for _ in 0..40 {
        let mut names = Vec::new();
        for _ in 0..(x % 12 + 1) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            names.push(match x % 5 {
                0 => format!("c{}n{}", x % 3, (x >> 8) % 20),
                1 => format!("h{:03}", (x >> 8) % 30),
                2 => format!("g{}x", (x >> 8) % 30),
                3 => format!("s{}.dom", (x >> 8) % 5),
                _ => format!("n{}", (x >> 8) % 40),
            });
        }
        lists.push(names.join(","));
    }

    let mut cases = Vec::new();
    let mut want = Vec::new();
    let mut what = Vec::new();
    for (i, list) in lists.iter().enumerate() {
        let Ok(nodes) = split_node_list(list.as_bytes()) else {
            continue;
        };
        let nodes: Vec<String> = nodes
            .iter()
            .map(|n| n.to_str_lossy().into_owned())
            .collect();
        let unique: HashSet<&String> = nodes.iter().collect();
        if nodes.is_empty() || unique.len() != nodes.len() {
            continue;
        }
        let per: Vec<usize> = (0..nodes.len()).map(|k| 1 + (k + i) % 4).collect();
        let ranks = spread(nodes.len(), &per, i as u64 + 7);
        let node_map = generate(ours(), false, list.as_bytes()).expect("our node map");
        for ppn in [
            ppn_of(&ranks),
            // The same ranks written with ranges where they are consecutive.
            String::from_utf8(generate(ours(), true, ppn_of(&ranks).as_bytes()).unwrap())
                .unwrap()
                .trim_start_matches("raw:")
                .trim_start_matches("pmix[")
                .trim_end_matches(']')
                .to_string(),
        ] {
            let proc_map = generate(ours(), true, ppn.as_bytes()).expect("our proc map");
            for kind in ['s', 'r'] {
                cases.push(Case {
                    node_map: with_nul(node_map.clone()),
                    proc_map: with_nul(proc_map.clone()),
                    job_size: ranks.iter().map(|r| r.len() as u32).sum(),
                    kind,
                });
                want.push(expected(&nodes, &ranks));
                what.push(format!(
                    "{list:?} / {ppn:?} -> {} / {} ({kind})",
                    show(&node_map),
                    show(&proc_map)
                ));
            }
        }
    }
    assert!(cases.len() > 150, "{} cases", cases.len());

    // Control cases: the reference's own maps where we differ, which it misreads.
    let controls: Vec<(&str, &str, Vec<u32>)> = vec![
        // Its node map of n1,m,n2 stands for n1,n2,m.
        ("n1,m,n2", "0;1;2", vec![3]),
        // Its raw proc map of 0-3;4-7 gives ranks 0 and 4 only.
        ("a,b", "0-3;4-7", vec![8]),
    ];
    for (nodes, ppn, size) in &controls {
        let r = reference();
        cases.push(Case {
            node_map: with_nul(generate(r, false, nodes.as_bytes()).unwrap()),
            proc_map: with_nul(generate(r, true, ppn.as_bytes()).unwrap()),
            job_size: size[0],
            kind: 's',
        });
    }

    let got = run_host(&cases);
    let n = want.len();
    for ((g, w), what) in got[..n].iter().zip(&want).zip(&what) {
        assert_eq!(g, w, "the reference read our maps wrongly: {what}");
    }
    // The controls: the reference derives something other than the input from its own maps.
    let c0 = &got[n];
    assert_eq!(
        c0.nodes.as_deref(),
        Some(&["n1", "n2", "m"].map(String::from)[..])
    );
    let c1 = &got[n + 1];
    assert_eq!(
        c1.peers,
        vec![("a".to_string(), vec![0]), ("b".to_string(), vec![4])]
    );
}

/// The reference also reads the raw and plain forms and PMIX_REGEX values; check ours
/// reads each map the way the reference does.
#[test]
fn the_reference_and_our_parser_agree() {
    let maps: Vec<(&str, &str)> = vec![
        ("pmix[n[2:1-3]]", "pmix[0;1;2]"),
        ("pmix[n[5:7],x[1:8-9]y]", "pmix[0-1,5;2;3-4]"),
        ("raw:n1,n2", "raw:0,1;2"),
        ("n1,n2", "0,1;2"),
        ("pmix[a,b]", "0,1;2"),
        ("pmix[n[1:1-2]]", "pmix[0;;1]"),
        ("pmix[n99999999999,n[1:2]]", "pmix[0;1]"),
        ("pmix[n1:1,n[1:2]]", "pmix[1;0]"),
        ("pmix[a;b,c]", "pmix[0;1]"),
        ("pmix[[3:123-124]]", "pmix[0;1]"),
    ];
    let mut cases = Vec::new();
    for (nm, pm) in &maps {
        let ranks = parse_proc_map(pm.as_bytes()).unwrap();
        for kind in ['s', 'r'] {
            cases.push(Case {
                node_map: with_nul(nm.as_bytes().to_vec()),
                proc_map: with_nul(pm.as_bytes().to_vec()),
                job_size: ranks.iter().map(|r| r.len() as u32).sum(),
                kind,
            });
        }
    }
    let got = run_host(&cases);
    for (i, (nm, pm)) in maps.iter().enumerate() {
        let nodes: Vec<String> = parse_node_map(nm.as_bytes())
            .unwrap()
            .iter()
            .map(PStr::to_str_lossy)
            .map(|s| s.into_owned())
            .collect();
        let ranks = parse_proc_map(pm.as_bytes()).unwrap();
        let w = expected(&nodes, &ranks);
        assert_eq!(got[2 * i], w, "{nm} {pm} (PMIX_STRING)");
        assert_eq!(got[2 * i + 1], w, "{nm} {pm} (PMIX_REGEX)");
    }
}
