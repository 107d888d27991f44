//! pmixrun as a persistent server for tools, and debugger support, end to end.
//!
//! The C programs are built against OUR headers (the repository's `include/`) and run once
//! on our libpmix.so.2 (LD_LIBRARY_PATH) and once on the reference (Debian's libpmix2):
//! the OpenPMIx example tools `tool`, `debugger` (with `debuggerd`) and `launcher` from
//! `PMIX_EXAMPLES_DIR` (default: Debian's copy), and `tests/c/dbgtool.c`, `dbgapp.c`,
//! `dbgd.c` (a debugger tool, its target, its daemon). pmixrun's server is always ours.
//!
//! Every pmixrun runs in a private TMPDIR with `--timeout` as a watchdog, is stopped by
//! a tool (or SIGTERM) by its pid, and must leave no session directory or rendezvous file.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod support;
use support::{cc, manifest_dir, open_fds, open_fds_settled, our_library, rss_kb, scratch_dir};

const EXAMPLES: &str = "/usr/share/doc/libpmix-dev/examples";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lib {
    Ours,
    Reference,
}

const LIBS: [Lib; 2] = [Lib::Ours, Lib::Reference];

struct Fixture {
    /// The programs; also the working directory of pmixrun and the tools (the example
    /// debugger spawns "./client" and "./debuggerd" from there, the launcher "app").
    bin: PathBuf,
    /// A directory holding our library as libpmix.so.2.
    ours: PathBuf,
    scratch: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let scratch = scratch_dir("debugger-tests");
        let bin = scratch.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let ours = our_library(&scratch);
        let c = manifest_dir().join("tests").join("c");
        let strict = ["-Wall", "-Wextra", "-Werror"];
        // Built against our headers.
        let ours_inc = manifest_dir().join("../include");
        for name in ["dbgtool", "dbgapp", "dbgd"] {
            cc(
                &c.join(format!("{name}.c")),
                &bin.join(name),
                &ours_inc,
                &strict,
            );
        }
        let ex_dir =
            PathBuf::from(std::env::var("PMIX_EXAMPLES_DIR").unwrap_or_else(|_| EXAMPLES.into()));
        let inc = format!("-I{}", manifest_dir().join("../ctests/session").display());
        for name in ["tool", "debugger", "launcher", "client", "hello"] {
            let src = ex_dir.join(format!("{name}.c"));
            assert!(
                src.exists(),
                "{} not found (install libpmix-dev or set PMIX_EXAMPLES_DIR)",
                src.display()
            );
            cc(&src, &bin.join(name), &ours_inc, &["-w", &inc]);
        }
        // debuggerd.c of OpenPMIx 4.2 uses a field ("active") its own examples.h dropped;
        // the two accesses go through the lock that replaced it. (Its main() sleeps 10 s
        // and exits before reaching them.)
        let src = std::fs::read_to_string(ex_dir.join("debuggerd.c")).expect("debuggerd.c");
        let patched = src
            .replace("myquery_data.active", "myquery_data.lock.active")
            .replace("mq->active", "mq->lock.active");
        let dsrc = scratch.join("debuggerd.c");
        std::fs::write(&dsrc, patched).unwrap();
        cc(&dsrc, &bin.join("debuggerd"), &ours_inc, &["-w", &inc]);
        // The launcher example spawns 128 copies of "app".
        let app = bin.join("app");
        std::fs::write(&app, "#!/bin/sh\nexit 0\n").unwrap();
        let mut perm = std::fs::metadata(&app).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(&app, perm).unwrap();
        Fixture { bin, ours, scratch }
    })
}

fn run_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = fixture()
        .scratch
        .join("runs")
        .join(format!("{tag}.{}", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn with_lib(c: &mut Command, lib: Lib) {
    match lib {
        Lib::Ours => c.env("LD_LIBRARY_PATH", &fixture().ours),
        Lib::Reference => c.env_remove("LD_LIBRARY_PATH"),
    };
}

/// Waits until `path` exists (bounded, as a watchdog: a failure is reported, not hung on).
fn wait_for(path: &Path, what: &str) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}: {} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A running `pmixrun --persistent`.
struct Server {
    child: Child,
    dir: PathBuf,
    pid: u32,
    lib: Lib,
}

impl Server {
    fn start(lib: Lib, tag: &str, args: &[&str]) -> Server {
        let dir = run_dir(tag);
        let uri = dir.join("uri");
        let mut c = Command::new(env!("CARGO_BIN_EXE_pmixrun"));
        c.env("TMPDIR", &dir)
            .env("PMIX_LAUNCHER_RENDEZVOUS_FILE", dir.join("launcher.rndz"))
            .current_dir(&fixture().bin)
            .args(["--timeout", "150", "--persistent", "--report-uri"])
            .arg(&uri)
            .args(args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(dir.join("stdout")).unwrap())
            .stderr(std::fs::File::create(dir.join("stderr")).unwrap());
        with_lib(&mut c, lib);
        let child = c.spawn().expect("start pmixrun");
        let pid = child.id();
        wait_for(&uri, "pmixrun's URI");
        Server {
            child,
            dir,
            pid,
            lib,
        }
    }

    /// Runs a program of the fixture as a tool of this server (watchdog: 120 s).
    fn run(&self, lib: Lib, prog: &str, args: &[&str]) -> Output {
        let mut c = Command::new("timeout");
        c.arg("120")
            .arg(fixture().bin.join(prog))
            .args(args)
            .env("TMPDIR", &self.dir)
            .current_dir(&fixture().bin)
            .stdin(Stdio::null());
        with_lib(&mut c, lib);
        c.output().expect("run a tool")
    }

    fn output(&self) -> String {
        format!(
            "--- pmixrun stdout\n{}\n--- pmixrun stderr\n{}",
            std::fs::read_to_string(self.dir.join("stdout")).unwrap_or_default(),
            std::fs::read_to_string(self.dir.join("stderr")).unwrap_or_default()
        )
    }

    /// Stops pmixrun with a tool (PMIx_Job_control terminating its namespace) and checks
    /// it exits 0 leaving nothing behind. Returns its stdout.
    fn stop(mut self) -> String {
        let o = self.run(self.lib, "dbgtool", &["stop", &self.pid.to_string()]);
        assert!(
            o.status.success(),
            "stop: {}\n{}",
            explain(&o),
            self.output()
        );
        self.finish()
    }

    fn finish(&mut self) -> String {
        let st = self.child.wait().expect("wait for pmixrun");
        assert_eq!(st.code(), Some(0), "pmixrun: {st:?}\n{}", self.output());
        let left: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("pmixrun.") || n.starts_with("pmix.") || n == "launcher.rndz")
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
        assert!(
            self.output().contains("pmixrun: "),
            "pmixrun said nothing about its end\n{}",
            self.output()
        );
        std::fs::read_to_string(self.dir.join("stdout")).unwrap_or_default()
    }
}

fn explain(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

// ---- the OpenPMIx example tools ---------------------------------------------------------

fn example_tools(lib: Lib) {
    let s = Server::start(lib, "examples", &["--system-server"]);
    let host = pmix_core::net::local_hostname().to_string();
    assert!(
        s.dir.join(format!("pmix.sys.{host}")).exists(),
        "--system-server wrote no pmix.sys.{host}"
    );

    // tool: the active namespaces (none yet).
    let o = s.run(lib, "tool", &[]);
    assert!(o.status.success(), "tool: {}", explain(&o));
    assert!(stderr(&o).contains("ACTIVE NSPACES:"), "{}", explain(&o));

    // tool --spawn: a job spawned by a tool, and its end told to the tool.
    let o = s.run(lib, "tool", &["--spawn", "./hello"]);
    assert!(o.status.success(), "tool --spawn: {}", explain(&o));
    assert!(
        stderr(&o).contains("TOOL NOTIFIED THAT ALL CHILD PROCS"),
        "{}",
        explain(&o)
    );

    // launcher: connects to the system server, spawns 128 "app", waits for the end.
    let o = s.run(lib, "launcher", &[]);
    assert!(o.status.success(), "launcher: {}", explain(&o));

    // debugger: queries spawn and debug support, spawns 2 "client" stopped for the
    // debugger, then ./debuggerd as debugger daemons; returns when a job ends (the
    // example's daemon sleeps 10 s and exits without releasing the clients).
    let o = s.run(lib, "debugger", &[]);
    assert!(
        o.status.success(),
        "debugger: {}\n{}",
        explain(&o),
        s.output()
    );
    for line in [
        "Transferring pmix.qry.spawn",
        "Transferring pmix.qry.debug",
        "Debugger: spawning client",
        "SPAWNED DEBUGGERD",
    ] {
        assert!(stderr(&o).contains(line), "no '{line}':\n{}", explain(&o));
    }
    assert!(
        !stderr(&o).contains("failed"),
        "{}\n{}",
        explain(&o),
        s.output()
    );
    let out = s.output();
    s.stop();
    assert!(out.contains("I AM HERE"), "debuggerd did not run:\n{out}");
    assert!(out.contains("Running on host"), "hello did not run:\n{out}");
}

#[test]
fn example_tools_on_our_library() {
    example_tools(Lib::Ours);
}

#[test]
fn example_tools_on_the_reference() {
    example_tools(Lib::Reference);
}

// ---- debugger support -------------------------------------------------------------------

#[test]
fn stop_in_init_direct_launch() {
    for lib in LIBS {
        let s = Server::start(lib, "init", &[]);
        let marks = s.dir.join("marks");
        std::fs::create_dir_all(&marks).unwrap();
        let m = marks.to_string_lossy().into_owned();
        let o = s.run(lib, "dbgtool", &["launch", &m, "./dbgapp", "3", "7"]);
        assert!(
            o.status.success(),
            "{lib:?}: {}\n{}",
            explain(&o),
            s.output()
        );
        let out = stdout(&o);
        assert!(
            out.contains("dbgtool: 3 processes ready for debug"),
            "{out}"
        );
        assert_eq!(out.matches("dbgtool: proc ").count(), 3, "{out}");
        assert!(out.contains("exe ") && out.contains("/dbgapp"), "{out}");
        assert!(
            out.contains("every process is waiting in PMIx_Init"),
            "{out}"
        );
        // Waiting in PMIx_Init for the release: connected to the server (the standard has no
        // state for "stopped"; PRRTE reports a registered process CONNECTED too).
        assert_eq!(
            out.matches("state PROC HAS CONNECTED TO LOCAL PMIX SERVER\n")
                .count(),
            3,
            "{out}"
        );
        assert!(
            out.contains("ended: status NON-ZERO TERMINATION, rank 1, exit code 7, timestamp yes"),
            "{out}"
        );
        assert!(out.contains("every process passed PMIx_Init"), "{out}");
        // The tool that spawned the job was told of its start and launch too.
        assert!(out.contains(" start event seen"), "{out}");
        assert!(out.contains(" launch-complete event seen"), "{out}");
        s.stop();
    }
}

#[test]
fn stop_on_exec_and_resume() {
    for lib in LIBS {
        let s = Server::start(lib, "exec", &[]);
        let marks = s.dir.join("marks");
        std::fs::create_dir_all(&marks).unwrap();
        let m = marks.to_string_lossy().into_owned();
        let o = s.run(lib, "dbgtool", &["exec", &m, "./dbgapp", "2"]);
        assert!(
            o.status.success(),
            "{lib:?}: {}\n{}",
            explain(&o),
            s.output()
        );
        let out = stdout(&o);
        assert!(out.contains("every process is stopped on exec"), "{out}");
        // Stopped at its first instruction: forked and not connected, so RUNNING (as PRRTE
        // reports a launched process); pps adds the kernel's "(stopped)".
        assert_eq!(out.matches("state PROC EXECUTING\n").count(), 2, "{out}");
        assert!(
            out.contains("ended: status SUCCESS, rank -2, exit code 0, timestamp yes"),
            "{out}"
        );
        assert!(out.contains("every process passed PMIx_Init"), "{out}");
        s.stop();
    }
}

/// Pseudo-random bytes (every value, newlines included).
fn binary(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

/// A job a tool spawns into a persistent pmixrun reads the stdin the tool pushes, on the
/// ranks `PMIX_FWD_STDIN` / `PMIX_STDIN_TGT` name; the others, and every rank of a job that
/// asked for none, read `/dev/null` (a push to them fails with NOT-FOUND).
#[test]
fn stdin_of_a_job_spawned_by_a_tool() {
    let data = binary(300_000, 11);
    // (tool's library, target attribute, rank pushed to, push status, ranks that get data)
    let cases: [(Lib, &str, &str, &str, &[u32]); 5] = [
        (Lib::Ours, "fwd", "0", "SUCCESS", &[0]),
        (Lib::Reference, "fwd", "0", "SUCCESS", &[0]),
        (Lib::Reference, "str:1", "1", "SUCCESS", &[1]),
        (Lib::Ours, "proc:all", "all", "SUCCESS", &[0, 1]),
        (Lib::Ours, "none", "0", "NOT-FOUND", &[]),
    ];
    let s = Server::start(Lib::Ours, "spawn-stdin", &[]);
    for (i, (lib, tgt, push, status, fed)) in cases.into_iter().enumerate() {
        let dir = s.dir.join(format!("stdin{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("input");
        std::fs::write(&src, &data).unwrap();
        let d = dir.to_string_lossy().into_owned();
        let o = s.run(
            lib,
            "dbgtool",
            &["stdin", &d, "2", tgt, push, &src.to_string_lossy()],
        );
        let what = format!("{lib:?} {tgt} push to {push}");
        assert!(
            o.status.success(),
            "{what}: {}\n{}",
            explain(&o),
            s.output()
        );
        let out = stdout(&o);
        assert!(out.contains("dbgtool: spawned "), "{what}: {out}");
        assert!(
            out.contains(&format!("dbgtool: push {status}\n")),
            "{what}: {out}"
        );
        assert!(out.contains("ended: status SUCCESS"), "{what}: {out}");
        for rank in 0..2u32 {
            let got = std::fs::read(dir.join(format!("got.{rank}"))).unwrap_or_default();
            if fed.contains(&rank) {
                assert!(got == data, "{what}: rank {rank} got {} bytes", got.len());
            } else {
                assert!(
                    got.is_empty(),
                    "{what}: rank {rank} got {} bytes",
                    got.len()
                );
            }
        }
    }
    // A target rank the job does not have is refused.
    let o = s.run(
        Lib::Ours,
        "dbgtool",
        &[
            "stdin",
            &s.dir.to_string_lossy(),
            "2",
            "str:5",
            "0",
            "/dev/null",
        ],
    );
    assert!(
        stdout(&o).contains("dbgtool: spawn BAD-PARAM"),
        "{}",
        explain(&o)
    );
    s.stop();
}

/// `PMIX_QUERY_AVAIL_SERVERS` lists the servers advertised in the system tmpdir, each once
/// (pmixrun writes several files), the same way on both libraries, connected or not.
#[test]
fn available_servers_query() {
    let s = Server::start(Lib::Ours, "servers", &["--system-server"]);
    // A second pmixrun in the same tmpdir.
    let uri2 = s.dir.join("uri2");
    let mut second = Command::new(env!("CARGO_BIN_EXE_pmixrun"));
    second
        .env("TMPDIR", &s.dir)
        .args(["--timeout", "150", "--persistent", "--report-uri"])
        .arg(&uri2)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut second = second.spawn().expect("second pmixrun");
    wait_for(&uri2, "the second pmixrun's URI");
    let lines = |o: &Output| {
        let mut v: Vec<String> = stdout(o)
            .lines()
            .filter(|l| l.starts_with("dbgtool: server"))
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let uid = unsafe_free_id("-u");
    let gid = unsafe_free_id("-g");
    let mut expected: Vec<String> = [s.pid, second.id()]
        .iter()
        .map(|pid| {
            format!(
                "dbgtool: server pmix.srv.nspace=run.{pid} pmix.srv.rank=rank:0 \
                 pmix.version=4.2.2 pmix.srvr.pidinfo=u32:{pid} pmix.euid=u32:{uid} \
                 pmix.egid=u32:{gid} pmix.srv.strtime=time"
            )
        })
        .collect();
    expected.sort();
    for (lib, how) in [
        (Lib::Ours, "connect"),
        (Lib::Ours, "noconnect"),
        (Lib::Reference, "connect"),
        (Lib::Reference, "noconnect"),
    ] {
        let o = s.run(lib, "dbgtool", &["servers", how]);
        assert!(o.status.success(), "{lib:?} {how}: {}", explain(&o));
        assert_eq!(lines(&o), expected, "{lib:?} {how}: {}", explain(&o));
    }
    let o = s.run(Lib::Ours, "dbgtool", &["stop", &second.id().to_string()]);
    assert!(o.status.success(), "stop the second: {}", explain(&o));
    assert_eq!(second.wait().unwrap().code(), Some(0));
    // One server left; with none, NOT-FOUND (as from the reference).
    let o = s.run(Lib::Ours, "dbgtool", &["servers", "noconnect"]);
    assert_eq!(lines(&o).len(), 1, "{}", explain(&o));
    s.stop();
    let empty = run_dir("no-servers");
    for lib in LIBS {
        let mut c = Command::new(fixture().bin.join("dbgtool"));
        c.args(["servers", "noconnect"])
            .env("TMPDIR", &empty)
            .stdin(Stdio::null());
        with_lib(&mut c, lib);
        let o = c.output().unwrap();
        assert!(
            stdout(&o).contains("dbgtool: servers NOT-FOUND"),
            "{lib:?}: {}",
            explain(&o)
        );
    }
}

/// `id -u` / `id -g`.
fn unsafe_free_id(flag: &str) -> String {
    let o = Command::new("id").arg(flag).output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

#[test]
fn attach_by_pid_with_one_daemon_per_process() {
    for lib in LIBS {
        // A running job (the command line's) whose processes wait for their daemon.
        let dir_marks = run_dir("attach-marks");
        let m = dir_marks.to_string_lossy().into_owned();
        let s = Server::start(lib, "attach", &["-n", "3", "./dbgapp", &m, "0", "wait"]);
        let nspace = format!("run.{}.1", s.pid);
        for r in 0..3 {
            wait_for(&dir_marks.join(format!("ready.{nspace}.{r}")), "target");
        }
        let o = s.run(
            lib,
            "dbgtool",
            &["attach", &s.pid.to_string(), &nspace, "./dbgd", &m],
        );
        assert!(
            o.status.success(),
            "{lib:?}: {}\n{}",
            explain(&o),
            s.output()
        );
        let out = stdout(&o);
        assert_eq!(out.matches("dbgtool: proc ").count(), 3, "{out}");
        assert_eq!(out.matches("ended: status SUCCESS").count(), 2, "{out}");
        // Each daemon found the pid of its own target.
        for r in 0..3 {
            let target = std::fs::read_to_string(dir_marks.join(format!("init.{nspace}.{r}")))
                .unwrap_or_else(|e| panic!("init mark of rank {r}: {e}"));
            let seen = std::fs::read_to_string(dir_marks.join(format!("dbgd.{r}")))
                .unwrap_or_else(|e| panic!("daemon {r} wrote nothing: {e}\n{}", s.output()));
            assert_eq!(target.trim(), seen.trim(), "daemon {r}");
        }
        let pout = s.stop();
        for r in 0..3 {
            assert!(
                pout.contains(&format!("dbgd {r}: target {nspace}:{r} pid ")),
                "{pout}"
            );
            assert!(
                pout.contains(&format!("dbgapp {nspace}:{r} released")),
                "{pout}"
            );
        }
    }
}

#[test]
fn debugger_daemons_co_spawned_with_their_target() {
    for lib in LIBS {
        let s = Server::start(lib, "cospawn", &[]);
        let marks = s.dir.join("marks");
        std::fs::create_dir_all(&marks).unwrap();
        let m = marks.to_string_lossy().into_owned();
        let o = s.run(lib, "dbgtool", &["cospawn", &m, "./dbgapp", "2", "./dbgd"]);
        assert!(
            o.status.success(),
            "{lib:?}: {}\n{}",
            explain(&o),
            s.output()
        );
        let out = stdout(&o);
        let nspace = out
            .lines()
            .find_map(|l| l.strip_prefix("dbgtool: co-spawned "))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string();
        assert!(
            out.contains(&format!("job {nspace} ended: status SUCCESS")),
            "{out}"
        );
        for r in 0..2 {
            let target = std::fs::read_to_string(marks.join(format!("init.{nspace}.{r}")))
                .unwrap_or_else(|e| panic!("init mark of rank {r}: {e}"));
            let seen = std::fs::read_to_string(marks.join(format!("dbgd.{r}")))
                .unwrap_or_else(|e| panic!("daemon {r} wrote nothing: {e}\n{}", s.output()));
            assert_eq!(target.trim(), seen.trim(), "daemon {r}");
        }
        s.stop();
    }
}

#[test]
fn psets_of_the_command_line_job() {
    let dir_marks = run_dir("pset-marks");
    let m = dir_marks.to_string_lossy().into_owned();
    let s = Server::start(
        Lib::Ours,
        "pset",
        &[
            "--pset", "alpha", "--pset", "beta", "-n", "2", "./dbgapp", &m, "0", "wait",
        ],
    );
    let nspace = format!("run.{}.1", s.pid);
    for lib in LIBS {
        let o = s.run(lib, "dbgtool", &["psets", &s.pid.to_string()]);
        assert!(o.status.success(), "{lib:?}: {}", explain(&o));
        let out = stdout(&o);
        assert!(out.contains("dbgtool: 2 psets"), "{out}");
        assert!(out.contains("dbgtool: pset names alpha,beta"), "{out}");
        for p in ["alpha", "beta"] {
            assert!(
                out.contains(&format!("dbgtool: pset {p}: {nspace}:0 {nspace}:1")),
                "{out}"
            );
        }
    }
    // Stopping pmixrun terminates the job waiting for its daemons.
    let out = s.stop();
    for r in 0..2 {
        assert!(
            out.contains(&format!("dbgapp {nspace}:{r} psets: alpha beta")),
            "{out}"
        );
    }
}

/// 200 jobs spawned one after the other into a persistent pmixrun (each a PMIx client that
/// initializes, fences and finalizes) leave its descriptors as they were and its memory
/// within 512 kB (prrte#373: a persistent DVM leaked about 6 kB per job). Before pmixrun
/// deregistered and forgot ended jobs, it kept one descriptor (the job's modex segment)
/// and about 3 kB per job; until its server forgot the processes of deregistered jobs and
/// pmixrun removed their directories, some 70 bytes and two directories per job.
#[test]
fn two_hundred_jobs_in_a_persistent_pmixrun_leak_nothing() {
    let s = Server::start(Lib::Ours, "jobs", &[]);
    let marks = s.dir.join("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let m = marks.to_string_lossy().into_owned();
    let warm = s.run(Lib::Ours, "dbgtool", &["jobs", "10", "./dbgapp", &m]);
    assert!(warm.status.success(), "{}\n{}", explain(&warm), s.output());
    std::thread::sleep(Duration::from_millis(200));
    let (fds, rss) = (open_fds(s.pid), rss_kb(s.pid));
    let files = entries_under(&s.dir, &marks);
    let o = s.run(Lib::Ours, "dbgtool", &["jobs", "200", "./dbgapp", &m]);
    assert!(o.status.success(), "{}\n{}", explain(&o), s.output());
    assert!(
        stdout(&o).contains("dbgtool: 200 jobs ran"),
        "{}",
        explain(&o)
    );
    assert_eq!(
        open_fds_settled(s.pid, fds),
        fds,
        "pmixrun's descriptors after 200 jobs"
    );
    // pmixrun's session directory keeps nothing of an ended job (it kept two directories
    // per job); the marks the jobs wrote are the test's.
    assert_eq!(
        entries_under(&s.dir, &marks),
        files,
        "entries in pmixrun's TMPDIR (but the marks) after 200 jobs"
    );
    let grown = rss_kb(s.pid).saturating_sub(rss);
    eprintln!("pmixrun: {fds} descriptors; RSS {rss} kB, then {grown} kB more after 200 jobs");
    assert!(
        grown < 512,
        "pmixrun's RSS grew by {grown} kB over 200 jobs"
    );
    s.stop();
}

/// Files and directories under `dir`, recursively, but `skip` and what is under it.
fn entries_under(dir: &std::path::Path, skip: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path() != skip)
                .map(|e| {
                    1 + if e.file_type().is_ok_and(|t| t.is_dir()) {
                        entries_under(&e.path(), skip)
                    } else {
                        0
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn persistent_pmixrun_ends_on_sigterm() {
    let mut s = Server::start(Lib::Ours, "sigterm", &["--system-server"]);
    // A tool sees it (so it is up and serving), then SIGTERM ends it cleanly.
    let o = s.run(Lib::Ours, "tool", &[]);
    assert!(o.status.success(), "{}", explain(&o));
    // The launcher's rendezvous file asked for in the environment is written, and tools
    // of both libraries attach through it.
    let rndz = s.dir.join("launcher.rndz");
    assert!(
        rndz.exists(),
        "no PMIX_LAUNCHER_RENDEZVOUS_FILE\n{}",
        s.output()
    );
    for lib in LIBS {
        let url = format!("file:{}", rndz.display());
        let o = s.run(lib, "tool", &["--url", &url]);
        assert!(o.status.success(), "{lib:?}: {}", explain(&o));
        assert!(stderr(&o).contains("ACTIVE NSPACES:"), "{}", explain(&o));
    }
    let r = unsafe_free_kill(s.pid, "TERM");
    assert!(r, "kill -TERM {}", s.pid);
    s.finish();
}

/// Sends a signal with kill(1) (this crate's tests use no unsafe code).
fn unsafe_free_kill(pid: u32, sig: &str) -> bool {
    Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()
        .is_ok_and(|s| s.success())
}

// ---- indirect launch ------------------------------------------------------------------

/// The initiator's server: our PMIx server in this test process, which records the events
/// its tools send (pmixrun's PMIX_LAUNCHER_READY) and names the tools that connect.
#[derive(Debug)]
struct Initiator {
    events: std::sync::Mutex<std::sync::mpsc::Sender<(i32, Vec<pmix_core::values::Info>)>>,
    /// The codes tools register for, when someone listens.
    regs: std::sync::Mutex<Option<std::sync::mpsc::Sender<Vec<i32>>>>,
}

impl pmix_core::host::Host for Initiator {
    fn provides(&self, upcall: pmix_core::host::Upcall) -> bool {
        use pmix_core::host::Upcall;
        matches!(
            upcall,
            Upcall::NotifyEvent | Upcall::ToolConnected | Upcall::RegisterEvents
        )
    }

    fn register_events(
        &self,
        codes: &[i32],
        _info: &[pmix_core::values::Info],
        done: pmix_core::host::Done<()>,
    ) {
        if let Some(tx) = &*self.regs.lock().unwrap() {
            let _ = tx.send(codes.to_vec());
        }
        done(Ok(()))
    }

    fn notify_event(
        &self,
        code: i32,
        _source: &pmix_core::values::Proc,
        _range: pmix_sys::pmix_data_range_t,
        info: &[pmix_core::values::Info],
        done: pmix_core::host::Done<()>,
    ) {
        let _ = self.events.lock().unwrap().send((code, info.to_vec()));
        done(Ok(()))
    }

    /// A tool that brings its identity keeps it (as PRRTE and pmixrun do); others are named.
    fn tool_connected(
        &self,
        info: &[pmix_core::values::Info],
        done: pmix_core::host::Done<pmix_core::values::Proc>,
    ) {
        let given = pmix_core::values::info_value(info, pmix_sys::PMIX_NSPACE)
            .and_then(|v| v.as_str().cloned())
            .zip(pmix_core::values::info_value(info, pmix_sys::PMIX_RANK).and_then(|v| v.as_u64()));
        done(Ok(match given {
            Some((ns, rank)) => pmix_core::values::Proc::new(ns, rank as u32),
            None => pmix_core::values::Proc::new("initiator.tool", 0),
        }))
    }
}

/// pmixrun started by an initiator (the server of this test process) with
/// `PMIX_LAUNCHER_RNDZ_URI` and a keepalive pipe whose write end `holder` holds; its job is
/// 2 processes printing `mark=$MARK` and sleeping.
struct IndirectRun {
    server: pmix_core::server::Server,
    erx: std::sync::mpsc::Receiver<(i32, Vec<pmix_core::values::Info>)>,
    holder: Child,
    pmixrun: Child,
    dir: PathBuf,
    out: PathBuf,
}

impl IndirectRun {
    fn start(tag: &str) -> IndirectRun {
        let (etx, erx) = std::sync::mpsc::channel();
        let host = std::sync::Arc::new(Initiator {
            events: std::sync::Mutex::new(etx),
            regs: std::sync::Mutex::new(None),
        });
        let server = pmix_core::server::start(host, pmix_core::server::ServerConfig::default())
            .expect("start the initiator's server");
        // The initiator's keepalive: a process holding the write end of a pipe (a FIFO:
        // each side opens its end, the holder's open completes when pmixrun's does).
        let dir = run_dir(tag);
        let out = dir.join("stdout");
        let fifo = dir.join("keepalive");
        let st = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
        assert!(st.success(), "mkfifo");
        let holder = Command::new("sh")
            .arg("-c")
            .arg("exec sleep 1000 > \"$0\"")
            .arg(&fifo)
            .stdin(Stdio::null())
            .spawn()
            .expect("start the pipe holder");
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("exec \"$@\" 3<\"$KEEPALIVE\" 0</dev/null")
            .arg("sh")
            .arg(env!("CARGO_BIN_EXE_pmixrun"))
            .args([
                "--timeout",
                "150",
                "-n",
                "2",
                "sh",
                "-c",
                "echo mark=$MARK; exec sleep 1000",
            ])
            .env("TMPDIR", &dir)
            .env("PMIX_LAUNCHER_RNDZ_URI", server.uri.to_uri())
            .env("PMIX_KEEPALIVE_PIPE", "3")
            .env("KEEPALIVE", &fifo)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(dir.join("stderr")).unwrap());
        with_lib(&mut c, Lib::Ours);
        let pmixrun = c.spawn().expect("start pmixrun");
        IndirectRun {
            server,
            erx,
            holder,
            pmixrun,
            dir,
            out,
        }
    }

    /// pmixrun's output so far, for failure messages.
    fn logs(&self) -> String {
        format!(
            "--- stdout\n{}\n--- stderr\n{}",
            std::fs::read_to_string(&self.out).unwrap_or_default(),
            std::fs::read_to_string(self.dir.join("stderr")).unwrap_or_default()
        )
    }

    /// Waits for pmixrun's `PMIX_LAUNCHER_READY`; returns its info.
    fn ready(&self) -> Vec<pmix_core::values::Info> {
        let (code, info) = self
            .erx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no PMIX_LAUNCHER_READY\n{}", self.logs()));
        assert_eq!(code, pmix_sys::PMIX_LAUNCHER_READY, "{info:?}");
        info
    }

    /// Kills the keepalive pipe's holder (the initiator dies) and waits for pmixrun, which
    /// must exit 1.
    fn initiator_dies(&mut self) {
        self.holder.kill().expect("kill the pipe holder");
        let _ = self.holder.wait();
        let st = self.pmixrun.wait().expect("wait for pmixrun");
        assert_eq!(st.code(), Some(1), "{st:?}\n{}", self.logs());
    }
}

/// The initiator dies before releasing pmixrun: pmixrun starts nothing and exits.
#[test]
fn initiator_dying_before_the_release_stops_pmixrun() {
    let mut run = IndirectRun::start("indirect-early");
    run.ready();
    run.initiator_dies();
    let logs = run.logs();
    assert!(logs.contains("gone before releasing it"), "{logs}");
    assert!(!logs.contains("mark="), "{logs}");
    run.server.finalize();
}

/// The launcher-parses flow of an indirect launch: pmixrun started with the initiator's
/// URI and a keepalive pipe announces itself, waits for the release, applies the launch
/// directives to its job (here a fork/exec agent that sets a variable), and ends the job
/// and exits when the initiator dies (the process holding the pipe's write end).
#[test]
fn indirect_launch_with_keepalive_pipe() {
    use pmix_core::values::{DataArray, Info, PStr, Value};
    use pmix_sys::*;

    let mut run = IndirectRun::start("indirect");
    let (server, out) = (run.server.clone(), run.out.clone());

    // PMIX_LAUNCHER_READY, with pmixrun's own URI.
    let info = run.ready();
    let uri = info
        .iter()
        .find(|i| i.is(PMIX_SERVER_URI))
        .and_then(|i| i.value.as_str().cloned())
        .expect("PMIX_SERVER_URI in the ready event");
    assert!(uri.to_string().contains("tcp4://"), "{uri:?}");
    // Nothing starts before the release.
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !std::fs::read_to_string(&out)
            .unwrap_or_default()
            .contains("mark="),
        "the job started before the release\n{}",
        run.logs()
    );

    let directives = Value::DataArray(Box::new(DataArray {
        ty: PMIX_INFO,
        items: vec![Value::Info(Box::new(Info::new(
            PMIX_FORKEXEC_AGENT.to_bytes(),
            Value::String(Some(PStr::from("env MARK=agent"))),
        )))],
    }));
    server
        .notify(pmix_core::events::Event {
            code: PMIX_DEBUGGER_RELEASE,
            source: server.cfg.id.clone(),
            range: PMIX_RANGE_SESSION,
            info: vec![Info::new(PMIX_LAUNCH_DIRECTIVES.to_bytes(), directives)],
        })
        .expect("release");

    // Both processes ran under the agent.
    let start = Instant::now();
    while std::fs::read_to_string(&out)
        .unwrap_or_default()
        .matches("mark=agent")
        .count()
        < 2
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the job did not start with the directives\n{}",
            run.logs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // The initiator dies: pmixrun ends the job and exits.
    run.initiator_dies();
    let logs = run.logs();
    assert!(
        logs.contains("the initiator of this launch is gone"),
        "{logs}"
    );
    let left: Vec<String> = std::fs::read_dir(&run.dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("pmixrun."))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    server.finalize();
}

/// A launcher built on the library: `PMIx_tool_init` of a tool started with
/// `PMIX_LAUNCHER_RNDZ_URI` connects back to the initiator and returns only once released,
/// as the reference's does (checked on both libraries); ours also keeps the release's launch
/// directives for the tool, and returns PMIX_ERR_UNREACH when the initiator goes away
/// first (the reference waits forever, so that case runs on ours only).
#[test]
fn launcher_rendezvous_inside_tool_init() {
    use pmix_core::values::{DataArray, Info, Value};
    use pmix_sys::*;

    // "rndz": a tool (PMIx_tool_init); "srvrndz": a server (PMIx_server_init), where the
    // reference also connects and waits, but registers for the release only locally (a
    // server's handlers are its own), so this test's initiator cannot tell when to release
    // it: the server case runs on ours only.
    for (lib, mode, release) in [
        (Lib::Ours, "rndz", true),
        (Lib::Reference, "rndz", true),
        (Lib::Ours, "rndz", false),
        (Lib::Ours, "srvrndz", true),
        (Lib::Ours, "srvrndz", false),
    ] {
        let (etx, _erx) = std::sync::mpsc::channel();
        let (rtx, rrx) = std::sync::mpsc::channel();
        let host = std::sync::Arc::new(Initiator {
            events: std::sync::Mutex::new(etx),
            regs: std::sync::Mutex::new(Some(rtx)),
        });
        let server = pmix_core::server::start(host, pmix_core::server::ServerConfig::default())
            .expect("start the initiator's server");
        let dir = run_dir("rndz");
        let mut c = Command::new(fixture().bin.join("dbgtool"));
        c.args([mode, &dir.to_string_lossy()])
            .env("TMPDIR", &dir)
            .env("PMIX_LAUNCHER_RNDZ_URI", server.uri.to_uri())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        with_lib(&mut c, lib);
        let mut child = c.spawn().expect("start the launcher");
        // The launcher registers for the release with the initiator, from inside
        // PMIx_tool_init, which has not returned.
        let what = format!("{lib:?} {mode} release={release}");
        loop {
            match rrx.recv_timeout(Duration::from_secs(60)) {
                Ok(codes) if codes.contains(&PMIX_DEBUGGER_RELEASE) => break,
                Ok(_) => {}
                Err(_) => {
                    let _ = child.kill();
                    let o = child.wait_with_output().unwrap();
                    panic!("{what}: the launcher never registered: {}", explain(&o));
                }
            }
        }
        assert!(dir.join("init").exists(), "{what}");
        assert!(
            !dir.join("released").exists(),
            "{what}: tool_init returned early"
        );
        if release {
            let directives = Value::DataArray(Box::new(DataArray {
                ty: PMIX_INFO,
                items: vec![Value::Info(Box::new(Info::new(
                    PMIX_DEBUG_STOP_IN_INIT.to_bytes(),
                    Value::Bool(true),
                )))],
            }));
            server
                .notify(pmix_core::events::Event {
                    code: PMIX_DEBUGGER_RELEASE,
                    source: server.cfg.id.clone(),
                    range: PMIX_RANGE_SESSION,
                    info: vec![Info::new(PMIX_LAUNCH_DIRECTIVES.to_bytes(), directives)],
                })
                .expect("release");
        } else {
            server.finalize();
        }
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{what}: {}", explain(&o));
        let out = stdout(&o);
        let init = if mode == "rndz" {
            "tool_init"
        } else {
            "server_init"
        };
        if !release {
            assert!(
                out.contains(&format!("dbgtool: {init} UNREACHABLE")),
                "{what}: {out}"
            );
            assert!(!dir.join("released").exists(), "{what}");
            continue;
        }
        assert!(
            out.contains(&format!("dbgtool: {init} SUCCESS")),
            "{what}: {}",
            explain(&o)
        );
        assert!(dir.join("released").exists(), "{what}");
        let parent = format!("{}:{}", server.cfg.id.nspace, server.cfg.id.rank);
        assert!(
            out.contains(&format!("dbgtool: parent {parent}\n")),
            "{what}: {out}"
        );
        if mode == "srvrndz" {
            server.finalize();
            continue;
        }
        // The initiator stays among the tool's servers.
        let servers = out
            .lines()
            .find(|l| l.starts_with("dbgtool: servers "))
            .unwrap_or_default();
        assert!(servers.contains(&parent), "{what}: {out}");
        if lib == Lib::Ours {
            assert!(
                out.contains("dbgtool: directives pmix.dbg.init\n"),
                "{what}: {out}"
            );
        }
        server.finalize();
    }
}

/// `PMIX_KEEPALIVE_PIPE` in a tool's environment: when the pipe's writer (the initiator)
/// goes away, `PMIx_tool_init`'s watcher raises a local PMIX_ERR_JOB_TERMINATED for the
/// tool, affected proc "PMIX_KEEPALIVE_PIPE", as the reference's does (both libraries).
#[test]
fn keepalive_pipe_of_a_tool() {
    for lib in LIBS {
        let dir = run_dir("keepalive");
        let fifo = dir.join("keepalive");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let mut holder = Command::new("sh")
            .arg("-c")
            .arg("exec sleep 1000 > \"$0\"")
            .arg(&fifo)
            .stdin(Stdio::null())
            .spawn()
            .expect("start the pipe holder");
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("exec \"$@\" 3<\"$KEEPALIVE\" 0</dev/null")
            .arg("sh")
            .arg(fixture().bin.join("dbgtool"))
            .arg("keepalive")
            .env("TMPDIR", &dir)
            .env("PMIX_KEEPALIVE_PIPE", "3")
            .env("KEEPALIVE", &fifo)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        with_lib(&mut c, lib);
        let mut child = c.spawn().expect("start the tool");
        // Once it watches, the initiator dies.
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        assert_eq!(line, "dbgtool: watching\n", "{lib:?}");
        holder.kill().unwrap();
        let _ = holder.wait();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        let st = child.wait().unwrap();
        assert!(st.success(), "{lib:?}: {st:?} {rest}");
        assert_eq!(
            rest,
            format!(
                "dbgtool: terminated, affected PMIX_KEEPALIVE_PIPE:{}, from me 1\n",
                pmix_sys::PMIX_RANK_UNDEF
            ),
            "{lib:?}"
        );
    }
}
