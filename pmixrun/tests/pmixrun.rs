//! pmixrun end to end: C clients built against the reference headers run under pmixrun, once
//! on our libpmix.so.2 (LD_LIBRARY_PATH to a directory holding it) and once on the reference
//! (the system's libpmix.so.2). pmixrun's server is always ours.
//!
//! The fixture builds our library (`cargo build --release -p pmix-ffi`, or takes the file
//! named by `PMIXRUN_TEST_OURS_LIB`), and the C programs: `tests/c/tclient.c`, `tests/c/keys.c`,
//! the session client of `ctests/session/client.c`, and the OpenPMIx example programs from
//! `PMIX_EXAMPLES_DIR` (default: Debian's copy) with our `ctests/session/examples.h`. The reference
//! headers come from `PMIX_REF_INC` (default: Debian's).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod support;
use support::{cc, manifest_dir, our_library, ref_inc, scratch_dir};

const EXAMPLES: &str = "/usr/share/doc/libpmix-dev/examples";

/// The example programs built for the tests.
const EXAMPLE_NAMES: [&str; 14] = [
    "hello",
    "client",
    "dmodex",
    "pub",
    "client2",
    "pubi",
    "dynamic",
    "fault",
    "log",
    "jctrl",
    "group",
    "asyncgroup",
    "nodeinfo",
    "bad_exit",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lib {
    Ours,
    Reference,
}

const LIBS: [Lib; 2] = [Lib::Ours, Lib::Reference];

struct Fixture {
    /// Where the C programs are.
    bin: PathBuf,
    /// The example programs, by their own names (dynamic.c spawns "<its dir>/client").
    examples: PathBuf,
    /// A directory holding our library as libpmix.so.2.
    ours: PathBuf,
    /// Scratch space.
    scratch: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let scratch = scratch_dir("pmixrun-tests");
        let bin = scratch.join("bin");
        let examples = scratch.join("examples");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&examples).unwrap();
        let ours = our_library(&scratch);
        let c = manifest_dir().join("tests").join("c");
        let strict = ["-Wall", "-Wextra", "-Werror"];
        let inc = ref_inc();
        cc(&c.join("tclient.c"), &bin.join("tclient"), &inc, &strict);
        cc(&c.join("keys.c"), &bin.join("keys"), &inc, &strict);
        cc(
            &manifest_dir().join("../ctests/session/client.c"),
            &bin.join("session-client"),
            &inc,
            &strict,
        );
        let ex_dir = std::env::var("PMIX_EXAMPLES_DIR").unwrap_or_else(|_| EXAMPLES.into());
        // The examples' examples.h is the session tests' (one copy in the repository).
        let session_inc = format!("-I{}", manifest_dir().join("../ctests/session").display());
        for name in EXAMPLE_NAMES {
            let src = Path::new(&ex_dir).join(format!("{name}.c"));
            assert!(
                src.exists(),
                "{} not found (install libpmix-dev or set PMIX_EXAMPLES_DIR)",
                src.display()
            );
            cc(&src, &examples.join(name), &inc, &["-w", &session_inc]);
        }
        // The clients must really load our library through LD_LIBRARY_PATH.
        if let Ok(o) = Command::new("ldd")
            .arg(bin.join("tclient"))
            .env("LD_LIBRARY_PATH", &ours)
            .output()
        {
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(
                text.contains(&*ours.to_string_lossy()),
                "LD_LIBRARY_PATH does not select our library:\n{text}"
            );
        }
        Fixture {
            bin,
            examples,
            ours,
            scratch,
        }
    })
}

/// A fresh directory for one run (pmixrun's TMPDIR and the test's files).
fn run_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = fixture()
        .scratch
        .join("runs")
        .join(format!("{tag}.{}", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Run {
    out: Output,
    dir: PathBuf,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    fn code(&self) -> Option<i32> {
        self.out.status.code()
    }
    fn explain(&self) -> String {
        format!(
            "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.out.status,
            self.stdout(),
            self.stderr()
        )
    }
}

/// Options of one pmixrun invocation.
#[derive(Default)]
struct Opts<'a> {
    stdin: Option<&'a [u8]>,
    cwd: Option<&'a Path>,
}

fn pmixrun_cmd(lib: Lib, dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pmixrun"));
    c.env("TMPDIR", dir);
    match lib {
        Lib::Ours => c.env("LD_LIBRARY_PATH", &fixture().ours),
        Lib::Reference => c.env_remove("LD_LIBRARY_PATH"),
    };
    c
}

/// Runs pmixrun with `args` (a watchdog `--timeout` is added) and checks that it left no
/// session directory behind.
fn pmixrun_with(lib: Lib, tag: &str, args: &[&str], opts: Opts<'_>) -> Run {
    let dir = run_dir(tag);
    let mut c = pmixrun_cmd(lib, &dir);
    c.args(["--timeout", "90"]).args(args);
    if let Some(d) = opts.cwd {
        c.current_dir(d);
    }
    c.stdin(if opts.stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = c.spawn().expect("start pmixrun");
    if let Some(data) = opts.stdin {
        let mut w = child.stdin.take().unwrap();
        let data = data.to_vec();
        std::thread::spawn(move || {
            let _ = w.write_all(&data);
        });
    }
    let out = child.wait_with_output().expect("wait for pmixrun");
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("pmixrun."))
        .collect();
    let run = Run { out, dir };
    assert!(
        leftovers.is_empty(),
        "session directory left behind: {leftovers:?}\n{}",
        run.explain()
    );
    run
}

fn pmixrun(lib: Lib, tag: &str, args: &[&str]) -> Run {
    pmixrun_with(lib, tag, args, Opts::default())
}

fn bin(name: &str) -> String {
    fixture().bin.join(name).to_string_lossy().into_owned()
}

/// Whether a process is still running (a zombie is not).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

fn read_pids(dir: &Path, n: u32) -> BTreeMap<u32, i32> {
    (0..n)
        .filter_map(|r| {
            let s = std::fs::read_to_string(dir.join(format!("pid.{r}"))).ok()?;
            Some((r, s.trim().parse().ok()?))
        })
        .collect()
}

/// Replaces pmixrun's namespaces "run.<pid>.<n>" with "ctest.<n-1>", as the session host
/// names its jobs.
fn normalize_nspaces(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("run.") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 4..];
        let pid_len = tail.bytes().take_while(u8::is_ascii_digit).count();
        let after_pid = &tail[pid_len..];
        if pid_len > 0 && after_pid.starts_with('.') {
            let n_len = after_pid[1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if n_len > 0 {
                let n: u32 = after_pid[1..1 + n_len].parse().unwrap();
                out.push_str(&format!("ctest.{}", n.saturating_sub(1)));
                rest = &after_pid[1 + n_len..];
                continue;
            }
        }
        out.push_str("run.");
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// What `tclient hello` prints in a job of `n`, sorted.
fn hellos(n: u32) -> Vec<String> {
    (0..n).map(|i| format!("hello from {i} of {n}")).collect()
}

/// Tagged stdout (`--tag-output`) split by tag: each tag's lines, in order.
fn stdout_by_tag(out: &str) -> BTreeMap<String, Vec<String>> {
    let mut per_tag: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in out.lines() {
        let (tag, text) = line.split_once("<stdout>: ").expect("tagged");
        per_tag
            .entry(tag.to_string())
            .or_default()
            .push(text.to_string());
    }
    per_tag
}

fn sorted_lines(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.lines().map(str::to_string).collect();
    v.sort();
    v
}

// ---- basic runs ----------------------------------------------------------------------------

/// 300 four-rank jobs back to back: none hangs (openpmix#2967: a rare hang in `PMIx_Init`
/// under 5120 back-to-back jobs), each says hello from every rank, and none prints anything
/// on stderr (ompi#13114: a missing system-server file reported on every job).
#[test]
fn back_to_back_jobs_neither_hang_nor_complain() {
    let dir = run_dir("back-to-back");
    for job in 0..300 {
        let out = pmixrun_cmd(Lib::Ours, &dir)
            .args(["--timeout", "20", "-n", "4", &bin("tclient"), "hello"])
            .stdin(Stdio::null())
            .output()
            .expect("start pmixrun");
        let run = Run {
            out,
            dir: dir.clone(),
        };
        assert_eq!(run.code(), Some(0), "job {job}: {}", run.explain());
        assert_eq!(
            sorted_lines(&run.stdout()),
            hellos(4),
            "job {job}: {}",
            run.explain()
        );
        assert!(run.stderr().is_empty(), "job {job}: {}", run.explain());
    }
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Descriptors above 1024 (FD_SETSIZE): pmixrun starts with descriptors 3 to 1100 taken, and
/// each client takes them too before `PMIx_Init`; each client checks that its connection is
/// numbered above 1024, and the job exchanges data (openpmix#3128: `select()` aborted the
/// listener past 1024).
#[test]
fn sockets_above_descriptor_1024() {
    for lib in LIBS {
        let dir = run_dir("manyfds");
        let script = format!(
            "ulimit -n 2048 || exit 3; i=3; while [ $i -le 1100 ]; do eval \"exec $i</dev/null\"; \
             i=$((i+1)); done; exec {} --timeout 60 -n 3 {} manyfds",
            env!("CARGO_BIN_EXE_pmixrun"),
            bin("tclient")
        );
        let mut c = Command::new("bash");
        c.args(["-c", &script]).env("TMPDIR", &dir);
        match lib {
            Lib::Ours => c.env("LD_LIBRARY_PATH", &fixture().ours),
            Lib::Reference => c.env_remove("LD_LIBRARY_PATH"),
        };
        let out = c.stdin(Stdio::null()).output().expect("start bash");
        let run = Run { out, dir };
        assert_eq!(run.code(), Some(0), "{lib:?}: {}", run.explain());
        let lines = sorted_lines(&run.stdout());
        for r in 0..3 {
            for want in [
                format!("{r}: modex ok with 3 peers"),
                format!("{r}: a socket above descriptor 1024: yes"),
            ] {
                assert!(
                    lines.contains(&want),
                    "{lib:?}: no {want:?}\n{}",
                    run.explain()
                );
            }
        }
    }
}

/// `PMIx_Finalize` while four threads of the same process call Get, Put and Query without
/// pause: no crash, finalize succeeds, and the threads see errors and end by themselves
/// (openpmix PR#3758: double free and hash-table corruption in a multi-threaded finalize).
#[test]
fn finalize_while_other_threads_call_in() {
    for round in 0..5 {
        let r = pmixrun(
            Lib::Ours,
            "finthreads",
            &["-n", "3", &bin("tclient"), "finthreads"],
        );
        assert_eq!(r.code(), Some(0), "round {round}: {}", r.explain());
        assert_eq!(
            sorted_lines(&r.stdout()),
            (0..3)
                .map(|i| format!(
                    "{i}: finalize with 4 threads calling in: SUCCESS; 4 threads ended on their own"
                ))
                .collect::<Vec<_>>(),
            "round {round}: {}",
            r.explain()
        );
    }
}

#[test]
fn hello_on_both_libraries() {
    for lib in LIBS {
        let r = pmixrun(lib, "hello", &["-n", "4", &bin("tclient"), "hello"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        assert_eq!(
            sorted_lines(&r.stdout()),
            hellos(4),
            "{lib:?}: {}",
            r.explain()
        );
    }
}

#[test]
fn fence_and_modex_exchange() {
    for lib in LIBS {
        let r = pmixrun(lib, "modex", &["-n", "4", &bin("tclient"), "modex"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        assert_eq!(
            sorted_lines(&r.stdout()),
            (0..4)
                .map(|i| format!("{i}: modex ok with 4 peers"))
                .collect::<Vec<_>>(),
            "{lib:?}: {}",
            r.explain()
        );
    }
}

#[test]
fn exit_code_of_a_rank_is_pmixruns() {
    for lib in LIBS {
        let r = pmixrun(lib, "exit", &["-n", "3", &bin("tclient"), "exit", "3", "1"]);
        assert_eq!(r.code(), Some(3), "{lib:?}: {}", r.explain());
        assert!(
            r.stderr().contains("rank 1 (pid ") && r.stderr().contains("exited with status 3"),
            "{lib:?}: {}",
            r.explain()
        );
    }
}

#[test]
fn killed_rank_is_reported_and_the_rest_terminated() {
    for lib in LIBS {
        let dir = run_dir("sigkill-pids");
        let d = dir.to_string_lossy().into_owned();
        let start = Instant::now();
        let r = pmixrun(
            lib,
            "sigkill",
            &["-n", "3", &bin("tclient"), "sigkill", "1", &d],
        );
        assert_eq!(r.code(), Some(128 + 9), "{lib:?}: {}", r.explain());
        // The others sleep 120 s: pmixrun terminated them.
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{lib:?}: took {:?}",
            start.elapsed()
        );
        let pids = read_pids(&dir, 3);
        assert_eq!(
            pids.len(),
            3,
            "{lib:?}: pid files: {pids:?}\n{}",
            r.explain()
        );
        let want = format!("rank 1 (pid {}) of job ", pids[&1]);
        assert!(
            r.stderr().contains(&want) && r.stderr().contains("killed by signal 9 (SIGKILL)"),
            "{lib:?}: {}",
            r.explain()
        );
        for (rank, pid) in pids {
            assert!(!running(pid), "{lib:?}: rank {rank} (pid {pid}) survived");
        }
    }
}

#[test]
fn no_orphans_even_outside_the_process_group() {
    // Every rank leaves a background child in its group and a setsid'd one outside it;
    // rank 1 then dies by SIGKILL.
    let dir = run_dir("orphans-pids");
    let d = dir.to_string_lossy().into_owned();
    let script = format!(
        "sleep 100 & echo $! > {d}/bg.$PMIX_RANK; setsid sleep 101 & echo $! > {d}/sid.$PMIX_RANK; \
         echo $$ > {d}/pid.$PMIX_RANK; \
         if [ $PMIX_RANK = 1 ]; then sleep 0.3; kill -KILL $$; fi; sleep 100"
    );
    let r = pmixrun(Lib::Ours, "orphans", &["-n", "3", "sh", "-c", &script]);
    assert_eq!(r.code(), Some(137), "{}", r.explain());
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let pid: i32 = std::fs::read_to_string(e.path())
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(!running(pid), "{:?} (pid {pid}) survived", e.file_name());
        n += 1;
    }
    assert_eq!(n, 9, "{}", r.explain());
}

#[test]
fn sigterm_is_forwarded_and_pmixrun_exits_cleanly() {
    for lib in LIBS {
        let dir = run_dir("sigterm");
        let mut c = pmixrun_cmd(lib, &dir);
        c.args(["--timeout", "90", "-n", "2", &bin("tclient"), "sleep"])
            .arg(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = c.spawn().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while read_pids(&dir, 2).len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let pids = read_pids(&dir, 2);
        assert_eq!(pids.len(), 2, "{lib:?}: the ranks did not start");
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGTERM);
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(128 + 15), "{lib:?}: {err}");
        assert!(err.contains("received SIGTERM"), "{lib:?}: {err}");
        for (rank, pid) in pids {
            assert!(!running(pid), "{lib:?}: rank {rank} (pid {pid}) survived");
        }
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("pmixrun."))
            .collect();
        assert!(left.is_empty(), "{lib:?}: session directory left behind");
    }
}

// ---- the command line ----------------------------------------------------------------------

#[test]
fn unknown_option_is_a_usage_error() {
    let r = pmixrun(Lib::Ours, "usage", &["--bogus", "-n", "1", "true"]);
    assert_eq!(r.code(), Some(2), "{}", r.explain());
    assert!(r.stderr().contains("--bogus"), "{}", r.explain());
    let r = pmixrun(Lib::Ours, "usage", &["-n", "1"]);
    assert_eq!(r.code(), Some(2), "{}", r.explain());
    let r = pmixrun(
        Lib::Ours,
        "usage",
        &["-n", "1", "true", ":", "--bogus", "true"],
    );
    assert_eq!(r.code(), Some(2), "{}", r.explain());
}

#[test]
fn missing_executable_is_named() {
    let r = pmixrun(Lib::Ours, "missing", &["-n", "2", "./no-such-program"]);
    assert_eq!(r.code(), Some(127), "{}", r.explain());
    assert!(
        r.stderr().contains("'./no-such-program'"),
        "{}",
        r.explain()
    );
    assert!(r.stdout().is_empty(), "{}", r.explain());
    let r = pmixrun(
        Lib::Ours,
        "missing",
        &["-n", "1", "no-such-program-in-path"],
    );
    assert_eq!(r.code(), Some(127), "{}", r.explain());
    assert!(
        r.stderr()
            .contains("'no-such-program-in-path' not found in PATH"),
        "{}",
        r.explain()
    );
    // In a later application context too.
    let r = pmixrun(
        Lib::Ours,
        "missing",
        &["-n", "1", "true", ":", "-n", "1", "./nope2"],
    );
    assert_eq!(r.code(), Some(127), "{}", r.explain());
    assert!(r.stderr().contains("'./nope2'"), "{}", r.explain());
    // A file that is not executable.
    let dir = run_dir("notexec");
    let f = dir.join("data.txt");
    std::fs::write(&f, "x").unwrap();
    let r = pmixrun(Lib::Ours, "notexec", &["-n", "1", &f.to_string_lossy()]);
    assert_eq!(r.code(), Some(126), "{}", r.explain());
    assert!(r.stderr().contains("not an executable"), "{}", r.explain());
}

#[test]
fn help_and_version() {
    let r = pmixrun(Lib::Ours, "help", &["--help"]);
    assert_eq!(r.code(), Some(0));
    for opt in [
        "--tag-output",
        "--timestamp-output",
        "--output-filename",
        "--merge-stderr-to-stdout",
        "--stdin",
        "--bind-to",
        "--report-uri",
        "--wdir",
        "-x",
        "-n",
    ] {
        assert!(r.stdout().contains(opt), "--help lacks {opt}");
    }
    let r = pmixrun(Lib::Ours, "version", &["--version"]);
    assert_eq!(r.code(), Some(0));
    assert!(r.stdout().starts_with("pmixrun "), "{}", r.explain());
}

#[test]
fn environment_working_directory_and_app_contexts() {
    let wdir = run_dir("wdir");
    let w = wdir.to_string_lossy().into_owned();
    let r = pmixrun(
        Lib::Ours,
        "env",
        &[
            "-x",
            "PMIXRUN_T1=one",
            "--wdir",
            &w,
            "-n",
            "2",
            "sh",
            "-c",
            "echo \"a $PMIX_RANK $PMIXRUN_T1 $(pwd)\"",
            ":",
            "-n",
            "1",
            "-x",
            "PMIXRUN_T2=two",
            "sh",
            "-c",
            "echo \"b $PMIX_RANK ${PMIXRUN_T1:-unset} $PMIXRUN_T2\"",
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.explain());
    assert_eq!(
        sorted_lines(&r.stdout()),
        vec![
            format!("a 0 one {w}"),
            format!("a 1 one {w}"),
            "b 2 unset two".to_string(),
        ],
        "{}",
        r.explain()
    );
}

#[test]
fn report_uri() {
    let dir = run_dir("uri");
    let f = dir.join("uri");
    let r = pmixrun(
        Lib::Ours,
        "uri",
        &["--report-uri", &f.to_string_lossy(), "-n", "1", "true"],
    );
    assert_eq!(r.code(), Some(0), "{}", r.explain());
    let uri = std::fs::read_to_string(&f).unwrap();
    assert!(
        uri.starts_with("run.") && uri.contains(".0;tcp4://127.0.0.1:") && uri.ends_with('\n'),
        "{uri:?}"
    );
}

// ---- output and input ----------------------------------------------------------------------

#[test]
fn tag_output_format() {
    let r = pmixrun(
        Lib::Ours,
        "tag",
        &[
            "-n",
            "2",
            "--tag-output",
            "sh",
            "-c",
            "echo out; echo err >&2; printf last",
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.explain());
    let out = r.stdout();
    let ns = out
        .strip_prefix('[')
        .and_then(|s| s.split(',').next())
        .expect("a tagged line")
        .to_string();
    assert!(ns.starts_with("run.") && ns.ends_with(".1"), "{ns}");
    let mut want_out = Vec::new();
    let mut want_err = Vec::new();
    for rank in 0..2 {
        want_out.push(format!("[{ns},{rank}]<stdout>: out"));
        want_out.push(format!("[{ns},{rank}]<stdout>: last"));
        want_err.push(format!("[{ns},{rank}]<stderr>: err"));
    }
    want_out.sort();
    want_err.sort();
    assert_eq!(sorted_lines(&out), want_out, "{}", r.explain());
    assert_eq!(sorted_lines(&r.stderr()), want_err, "{}", r.explain());
    // Each source keeps its order: "out" before "last".
    for rank in 0..2 {
        let a = out.find(&format!("[{ns},{rank}]<stdout>: out")).unwrap();
        let b = out.find(&format!("[{ns},{rank}]<stdout>: last")).unwrap();
        assert!(a < b);
    }

    let r = pmixrun(
        Lib::Ours,
        "timestamp",
        &[
            "-n",
            "1",
            "--timestamp-output",
            "--tag-output",
            "echo",
            "hi",
        ],
    );
    let line = r.stdout();
    // As the library formats PMIX_IOF_TIMESTAMP_OUTPUT, ctime(3) style:
    // [Wed Nov 25 12:00:06 2026][ns,0]<stdout>: hi
    let b = line.as_bytes();
    assert!(
        line.len() > 26
            && b[0] == b'['
            && b[4] == b' '
            && b[8] == b' '
            && b[14] == b':'
            && b[17] == b':'
            && b[25] == b']'
            && line[26..].starts_with("[run.")
            && line.ends_with(",0]<stdout>: hi\n"),
        "{line:?}"
    );

    let r = pmixrun(
        Lib::Ours,
        "merge",
        &[
            "-n",
            "1",
            "--merge-stderr-to-stdout",
            "--tag-output",
            "sh",
            "-c",
            "echo a; echo b >&2",
        ],
    );
    let lines: Vec<String> = r
        .stdout()
        .lines()
        .map(|l| l.split(']').nth(1).unwrap_or("").to_string())
        .collect();
    assert_eq!(lines, vec!["<stdout>: a", "<stdout>: b"], "{}", r.explain());
    assert!(r.stderr().is_empty(), "{}", r.explain());
}

/// Bytes that are not text, with no final newline.
fn binary_data(n: usize) -> Vec<u8> {
    let mut x: u32 = 0x1234_5678;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

/// A rank that closes its stdout and stderr at once (an end of stream long before the others
/// start writing) stops no other rank's output (openpmix PR#4105: one rank's EOF stopped
/// stdout for all ranks).
#[test]
fn a_rank_closing_its_output_early_stops_no_other() {
    let script = "if [ \"$PMIX_RANK\" = 0 ]; then exec >&- 2>&-; sleep 1; exit 0; fi; \
                  sleep 0.3; seq 1 50000; echo done >&2";
    let r = pmixrun(
        Lib::Ours,
        "iof-early-eof",
        &["-n", "4", "--tag-output", "sh", "-c", script],
    );
    assert_eq!(r.code(), Some(0), "{}", r.explain());
    let per_rank = stdout_by_tag(&r.stdout());
    let want: Vec<String> = (1..=50000).map(|i| i.to_string()).collect();
    assert_eq!(per_rank.len(), 3, "{:?}", per_rank.keys());
    for (tag, lines) in &per_rank {
        assert!(!tag.contains(",0]"), "rank 0 wrote nothing: {tag}");
        assert!(
            lines == &want,
            "{tag}: {} lines, not all in order",
            lines.len()
        );
    }
    assert_eq!(
        r.stderr().matches("<stderr>: done").count(),
        3,
        "{}",
        r.explain()
    );
}

#[test]
fn output_arrives_complete_and_in_order() {
    // Raw: the bytes exactly, binary and without a final newline.
    let dir = run_dir("iof-raw");
    let data = binary_data(3 << 20);
    let f = dir.join("data.bin");
    std::fs::write(&f, &data).unwrap();
    let r = pmixrun(
        Lib::Ours,
        "iof-raw",
        &["-n", "1", "cat", &f.to_string_lossy()],
    );
    assert_eq!(r.code(), Some(0), "{}", r.stderr());
    assert!(
        r.out.stdout == data,
        "raw output differs ({} bytes of {})",
        r.out.stdout.len(),
        data.len()
    );

    // Lines of 4 ranks, tagged: per rank, every line in order, the last one unterminated.
    let r = pmixrun(
        Lib::Ours,
        "iof-lines",
        &[
            "-n",
            "4",
            "--tag-output",
            "sh",
            "-c",
            "seq 1 20000; printf tail",
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.stderr());
    let per_rank = stdout_by_tag(&r.stdout());
    assert_eq!(per_rank.len(), 4);
    let mut want: Vec<String> = (1..=20000).map(|i| i.to_string()).collect();
    want.push("tail".into());
    for (tag, lines) in per_rank {
        assert!(lines == want, "{tag}: {} lines, not in order", lines.len());
    }

    // To files: stdout and stderr of each rank, complete.
    let out_dir = run_dir("iof-files");
    let script = format!("cat {0}; cat {0} >&2", f.display());
    let r = pmixrun(
        Lib::Ours,
        "iof-files",
        &[
            "-n",
            "2",
            "--output-filename",
            &out_dir.to_string_lossy(),
            "sh",
            "-c",
            &script,
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.stderr());
    assert!(
        r.out.stdout.is_empty() && r.out.stderr.is_empty(),
        "{}",
        r.explain()
    );
    let jobs: Vec<_> = std::fs::read_dir(&out_dir).unwrap().flatten().collect();
    assert_eq!(jobs.len(), 1);
    for rank in 0..2 {
        for chan in ["stdout", "stderr"] {
            let p = jobs[0].path().join(format!("rank.{rank}")).join(chan);
            assert!(
                std::fs::read(&p).unwrap() == data,
                "{} differs",
                p.display()
            );
        }
    }
}

#[test]
fn stdin_goes_to_rank_0_all_or_none() {
    let data = binary_data(1 << 20);
    for (opt, want) in [
        ("0", [true, false]),
        ("1", [false, true]),
        ("all", [true, true]),
        ("none", [false, false]),
    ] {
        let dir = run_dir("stdin-files");
        let script = format!("cat > {}/in.$PMIX_RANK", dir.display());
        let r = pmixrun_with(
            Lib::Ours,
            "stdin",
            &["-n", "2", "--stdin", opt, "sh", "-c", &script],
            Opts {
                stdin: Some(&data),
                ..Opts::default()
            },
        );
        assert_eq!(r.code(), Some(0), "--stdin {opt}: {}", r.explain());
        for (rank, gets) in want.iter().enumerate() {
            let got = std::fs::read(dir.join(format!("in.{rank}"))).unwrap();
            if *gets {
                assert!(
                    got == data,
                    "--stdin {opt}: rank {rank} got {} bytes",
                    got.len()
                );
            } else {
                assert!(
                    got.is_empty(),
                    "--stdin {opt}: rank {rank} got {} bytes",
                    got.len()
                );
            }
        }
    }
}

// ---- what the job is told ------------------------------------------------------------------

#[test]
fn job_app_node_and_proc_information() {
    let host = pmix_core::net::local_hostname().to_string();
    let mut outputs = Vec::new();
    for lib in LIBS {
        let r = pmixrun(
            lib,
            "keys",
            &["-n", "2", &bin("keys"), ":", "-n", "1", &bin("keys")],
        );
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        let out = r.stdout();
        let has = |l: &str| out.lines().any(|x| x == l);
        let tmp = r.dir.to_string_lossy().into_owned();
        for want in [
            "0: job size = 3".to_string(),
            "0: num apps = 2".into(),
            "0: num nodes = 1".into(),
            "0: local size = 3".into(),
            "0: node size = 3".into(),
            "0: local peers = 0,1,2".into(),
            "0: local leader = 0".into(),
            format!("0: hostname = {host}"),
            "0: nodeid = 0".into(),
            "0: app size = 2".into(),
            "1: app size = 2".into(),
            "2: app size = 1".into(),
            "0: app leader = 0".into(),
            "2: app leader = 2".into(),
            "1: appnum = 0".into(),
            "2: appnum = 1".into(),
            "1: app rank = 1".into(),
            "2: app rank = 0".into(),
            "2: global rank = 2".into(),
            "2: local rank = 2".into(),
            "2: node rank = 2".into(),
            format!("1: proc hostname = {host}"),
            "1: proc nodeid = 0".into(),
            "0: procdir writable = yes".into(),
            "1: procdir writable = yes".into(),
            "2: procdir writable = yes".into(),
        ] {
            assert!(has(&want), "{lib:?}: no line {want:?}\n{}", r.explain());
        }
        let line = |k: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(k))
                .unwrap_or_else(|| panic!("{lib:?}: no {k}\n{}", r.explain()))
                .to_string()
        };
        let tmpdir = line("0: tmpdir = ");
        let nsdir = line("0: nsdir = ");
        let procdir = line("1: procdir = ");
        assert!(tmpdir.starts_with(&format!("{tmp}/pmixrun.")), "{tmpdir}");
        assert!(
            nsdir.starts_with(&tmpdir) && procdir == format!("{nsdir}/1"),
            "{nsdir} {procdir}"
        );
        let univ: u32 = line("0: univ size = ").parse().unwrap();
        assert!(univ >= 3);
        assert_eq!(line("0: max procs = ").parse::<u32>().unwrap(), univ);
        let mut lines = sorted_lines(&out.replace(&tmpdir, "TMP"));
        for l in lines.iter_mut() {
            *l = normalize_nspaces(l);
        }
        outputs.push(lines);
    }
    assert_eq!(
        outputs[0], outputs[1],
        "the libraries see different information"
    );
}

#[test]
fn bind_to_core_gives_cpusets_and_locality() {
    for lib in LIBS {
        let r = pmixrun(
            lib,
            "bind",
            &["--bind-to", "core", "-n", "2", &bin("keys"), "bound"],
        );
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        for rank in 0..2 {
            let cpuset = format!("{rank}: cpuset = ");
            let loc = format!("{rank}: locality = ");
            assert!(
                r.stdout().lines().any(|l| l.starts_with(&cpuset)),
                "{lib:?}: {}",
                r.explain()
            );
            assert!(
                r.stdout()
                    .lines()
                    .any(|l| l.starts_with(&loc) && l.contains("CR")),
                "{lib:?}: {}",
                r.explain()
            );
        }
        let r = pmixrun(lib, "nobind", &["-n", "1", &bin("keys"), "bound"]);
        assert!(
            r.stdout().contains("0: cpuset missing"),
            "{lib:?}: {}",
            r.explain()
        );
    }
}

// ---- upcalls -------------------------------------------------------------------------------

#[test]
fn spawn_and_job_end_event() {
    for lib in LIBS {
        let r = pmixrun(lib, "spawn", &["-n", "2", &bin("tclient"), "spawn"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        let out = normalize_nspaces(&r.stdout());
        assert_eq!(
            sorted_lines(&out),
            vec![
                "child 0 of 2: parent rank 0",
                "child 1 of 2: parent rank 0",
                "job end: the child job, status SUCCESS, exit code 0",
                "spawned ctest.1",
            ],
            "{lib:?}: {}",
            r.explain()
        );
    }
}

#[test]
fn query_proc_table_and_job_status() {
    for lib in LIBS {
        let r = pmixrun(lib, "query", &["-n", "2", &bin("tclient"), "query"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        assert_eq!(
            r.stdout().lines().collect::<Vec<_>>(),
            vec![
                "query: SUCCESS, 4 results",
                "proc table: 2 entries",
                "proc 0: pid set, state PROC HAS CONNECTED TO LOCAL PMIX SERVER",
                "proc 1: pid set, state PROC HAS CONNECTED TO LOCAL PMIX SERVER",
                "job status: RUNNING",
                "psets: 0",
                "namespaces: mine",
            ],
            "{lib:?}: {}",
            r.explain()
        );
    }
}

/// Device distances: each rank computes them itself; a rank that cannot load a topology (its
/// topology file is missing) gets the same answer from pmixrun's server. (The reference's
/// client, asked the same, fails to pack its request to the server: BAD-PARAM.)
#[test]
fn device_distances_here_or_from_the_server() {
    for lib in LIBS {
        let r = pmixrun(lib, "dist", &["-n", "2", &bin("tclient"), "dist"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        assert!(
            r.stdout().contains("0: distances: SUCCESS"),
            "{lib:?}: {}",
            r.explain()
        );
    }
    let here = pmixrun(
        Lib::Ours,
        "dist-here",
        &["-n", "2", &bin("tclient"), "dist"],
    );
    let asked = pmixrun(
        Lib::Ours,
        "dist-server",
        &[
            "-n",
            "2",
            "-x",
            "PMIX_MCA_pmix_hwloc_topo_file=/nonexistent/topology.xml",
            &bin("tclient"),
            "dist",
        ],
    );
    assert_eq!(asked.code(), Some(0), "{}", asked.explain());
    assert_eq!(
        sorted_lines(&asked.stdout()),
        sorted_lines(&here.stdout()),
        "{}",
        asked.explain()
    );
}

#[test]
fn credentials() {
    for lib in LIBS {
        let r = pmixrun(lib, "cred", &["-n", "2", &bin("tclient"), "cred"]);
        assert_eq!(r.code(), Some(0), "{lib:?}: {}", r.explain());
        for rank in 0..2 {
            for l in [
                format!("{rank}: get credential: SUCCESS"),
                format!("{rank}: validate credential: SUCCESS"),
                format!("{rank}: uid matches, gid matches"),
            ] {
                assert!(
                    r.stdout().lines().any(|x| x == l),
                    "{lib:?}: no {l:?}\n{}",
                    r.explain()
                );
            }
        }
    }
}

/// The scenarios of ctests/session (client.c), which the session host also runs: fence,
/// modex, job data, publish/lookup with PMIX_WAIT, spawn, connect, events, query, log, job
/// control, groups, abort. stdout, sorted and with pmixrun's namespaces renamed as the
/// session host names them, must equal ctests/session/expected/SCENARIO.out.
#[test]
fn session_scenarios() {
    const N: u32 = 3;
    let scenarios = [
        "modex",
        "barrier",
        "job",
        "pubsub",
        "spawn",
        "connect",
        "events",
        "query",
        "log",
        "jobctl",
        "group",
        "abort",
        "abort_in_fence",
    ];
    let slots = std::thread::available_parallelism()
        .map_or(1, |n| n.get() as u32)
        .max(N);
    let expected_dir = manifest_dir().join("../ctests/session/expected");
    let mut failures = Vec::new();
    for lib in LIBS {
        for s in scenarios {
            let r = pmixrun(lib, s, &["-n", &N.to_string(), &bin("session-client"), s]);
            let expected = expand(
                &std::fs::read_to_string(expected_dir.join(format!("{s}.out"))).unwrap(),
                N,
            )
            .into_iter()
            .map(|l| {
                l.replace(
                    &format!("job: universe size: {N} "),
                    &format!("job: universe size: {slots} "),
                )
                .replace(
                    &format!("job: max procs: {N} "),
                    &format!("job: max procs: {slots} "),
                )
            })
            .collect::<Vec<_>>();
            let mut expected = expected;
            expected.sort();
            let got = sorted_lines(&normalize_nspaces(&r.stdout()));
            let want_code = if s.starts_with("abort") { 3 } else { 0 };
            let mut problems = Vec::new();
            if got != expected {
                problems.push(format!(
                    "stdout differs:\n  want {expected:?}\n  got  {got:?}"
                ));
            }
            if r.code() != Some(want_code) {
                problems.push(format!("exit status {:?}, want {want_code}", r.code()));
            }
            if want_code == 3 && !r.stderr().contains("rank 1 of job ") {
                problems.push("the abort was not reported".into());
            }
            if want_code == 3
                && !r
                    .stderr()
                    .contains("called PMIx_Abort with status 3: test abort")
            {
                problems.push("the abort message was not reported".into());
            }
            if !problems.is_empty() {
                failures.push(format!(
                    "{lib:?} {s}: {}\n  stderr: {}",
                    problems.join("; "),
                    r.stderr()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// ctests/session/run.sh's expansion of an expected file for `n` ranks.
fn expand(text: &str, n: u32) -> Vec<String> {
    let list = (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line
            .replace("@N-1@", &(n - 1).to_string())
            .replace("@N@", &n.to_string())
            .replace("@LIST@", &list);
        if let Some(rest) = line.strip_prefix("@R>0@") {
            for r in 1..n {
                out.push(format!("{r}{}", rest.replace("@R@", &r.to_string())));
            }
        } else if line.contains("@R@") {
            for r in 0..n {
                out.push(line.replace("@R@", &r.to_string()));
            }
        } else {
            out.push(line);
        }
    }
    out
}

// ---- the OpenPMIx examples -----------------------------------------------------------------

/// How an example program passes: pmixrun's exit status, how many "successfully completed"
/// lines (PMIx_Finalize) appear at least, other lines that must appear that many times, and
/// no line reporting a failure.
struct ExampleCheck {
    name: &'static str,
    status: i32,
    finalized: usize,
    lines: &'static [(&'static str, usize)],
    /// Failure lines that are right on this machine (each names what it tolerates).
    tolerated: &'static [&'static str],
}

fn check_example(lib: Lib, ex: &ExampleCheck) -> Result<(), String> {
    let prog = fixture().examples.join(ex.name);
    let r = pmixrun_with(
        lib,
        ex.name,
        &["-n", "4", &prog.to_string_lossy()],
        Opts {
            cwd: Some(&fixture().examples),
            ..Opts::default()
        },
    );
    let all = format!("{}{}", r.stdout(), r.stderr());
    let mut problems = Vec::new();
    if r.code() != Some(ex.status) {
        problems.push(format!("exit status {:?}, want {}", r.code(), ex.status));
    }
    let finalized = all.matches("successfully completed").count();
    if finalized < ex.finalized {
        problems.push(format!("{finalized} finalize lines, want {}", ex.finalized));
    }
    for (text, n) in ex.lines {
        let got = all.matches(text).count();
        if got < *n {
            problems.push(format!("{got} times {text:?}, want {n}"));
        }
    }
    for bad in ["failed", "FAILED", "wrong", "WASN'T", "WAS NOT"] {
        if let Some(l) = all
            .lines()
            .find(|l| l.contains(bad) && !ex.tolerated.iter().any(|t| l.contains(t)))
        {
            problems.push(format!("reports {l:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{lib:?} {}: {}\n{}",
            ex.name,
            problems.join("; "),
            r.explain()
        ))
    }
}

fn check_examples(list: &[ExampleCheck]) {
    let mut failures = Vec::new();
    for lib in LIBS {
        for ex in list {
            if let Err(e) = check_example(lib, ex) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn examples_hello_client_dmodex_pub() {
    check_examples(&[
        ExampleCheck {
            name: "hello",
            status: 0,
            finalized: 4,
            lines: &[("Query returned 2 values status SUCCESS", 4)],
            tolerated: &[],
        },
        ExampleCheck {
            name: "client",
            status: 0,
            finalized: 4,
            lines: &[("-local returned correct", 16)],
            tolerated: &[],
        },
        ExampleCheck {
            name: "dmodex",
            status: 0,
            finalized: 1,
            lines: &[],
            tolerated: &[],
        },
        ExampleCheck {
            name: "pub",
            status: 0,
            finalized: 4,
            lines: &[("PUBLISH-LOOKUP SUCCEEDED", 3), ("UNPUBLISH SUCCEEDED", 1)],
            tolerated: &[],
        },
    ]);
}

#[test]
fn examples_more() {
    check_examples(&[
        ExampleCheck {
            name: "client2",
            status: 0,
            finalized: 4,
            lines: &[],
            tolerated: &[],
        },
        ExampleCheck {
            name: "pubi",
            status: 0,
            finalized: 4,
            lines: &[],
            tolerated: &[],
        },
        ExampleCheck {
            name: "dynamic",
            status: 0,
            finalized: 4,
            lines: &[],
            tolerated: &[],
        },
        ExampleCheck {
            name: "log",
            status: 0,
            finalized: 4,
            lines: &[],
            tolerated: &[],
        },
        ExampleCheck {
            name: "jctrl",
            status: 0,
            finalized: 4,
            lines: &[],
            tolerated: &[],
        },
        // Rank 0 exits 1 without finalizing; pmixrun ends the job with that status.
        ExampleCheck {
            name: "bad_exit",
            status: 1,
            finalized: 0,
            lines: &[],
            tolerated: &[],
        },
    ]);
}

#[test]
fn examples_group() {
    check_examples(&[ExampleCheck {
        name: "group",
        status: 0,
        finalized: 4,
        lines: &[],
        tolerated: &[],
    }]);
}

/// nodeinfo asks for each peer's fabric coordinates, which one machine without a fabric does
/// not have: the reference's own host answers NOT-FOUND too, and the example goes on.
#[test]
fn examples_nodeinfo() {
    check_examples(&[ExampleCheck {
        name: "nodeinfo",
        status: 0,
        finalized: 4,
        lines: &[("Host list", 1)],
        tolerated: &["coordinates"],
    }]);
}

/// Rank 0 exits 1 after the fence; the others wait for the PMIX_ERR_PROC_ABORTED event
/// pmixrun sends before terminating them, and finalize. pmixrun's status is rank 0's.
#[test]
fn examples_fault() {
    check_examples(&[ExampleCheck {
        name: "fault",
        status: 1,
        finalized: 3,
        lines: &[("DEBUGGER DAEMON NOTIFIED TERMINATED - AFFECTED run.", 3)],
        tolerated: &[],
    }]);
}

/// asyncgroup: the reference's clients form the group by events alone and then fence over
/// it; the server learns the members from the leader's PMIX_GROUP_CONSTRUCT_COMPLETE.
#[test]
fn examples_asyncgroup() {
    check_examples(&[ExampleCheck {
        name: "asyncgroup",
        status: 0,
        finalized: 4,
        lines: &[("Group complete - executing fence across group", 2)],
        tolerated: &[],
    }]);
}
