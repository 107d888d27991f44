//! IO forwarding end to end: a job under pmixrun writes, a tool (`tests/c/iof_tool.c`, built
//! against the reference headers) pulls its output or pushes its input. The tool runs on our
//! library and, where the behaviour is the server's (what bytes arrive, caching, stdin), on
//! the reference library too, against pmixrun's server (always ours).
//!
//! The job's processes wait for a file the tool creates once its pull is registered, so the
//! output they then write is live, not cached; the cache tests instead wait until pmixrun
//! has written the job's output itself before starting the tool.
//!
//! The fixture (our library built by `cargo build --release -p pmix-ffi`, or the file named by
//! `PMIXRUN_TEST_OURS_LIB`; reference headers from `PMIX_REF_INC`) follows `pmixrun.rs`.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod support;
use support::{cc, manifest_dir, our_library, ref_inc, scratch_dir};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lib {
    Ours,
    Reference,
}

struct Fixture {
    tool: PathBuf,
    ours: PathBuf,
    scratch: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let scratch = scratch_dir("iof-tests");
        let ours = our_library(&scratch);
        let tool = scratch.join("iof_tool");
        cc(
            &manifest_dir().join("tests/c/iof_tool.c"),
            &tool,
            &ref_inc(),
            &["-Wall", "-Wextra", "-Werror"],
        );
        Fixture {
            tool,
            ours,
            scratch,
        }
    })
}

fn run_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = fixture()
        .scratch
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

/// A running pmixrun: its stdin is a pipe the test holds (so that its own stdin never ends
/// the job's input), its stdout and stderr are read by threads.
struct Job {
    child: Child,
    dir: PathBuf,
    nspace: String,
    stdin: Option<std::process::ChildStdin>,
    stdout: Option<std::thread::JoinHandle<Vec<u8>>>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    seen: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

fn start_job(dir: &Path, args: &[&str]) -> Job {
    let uri = dir.join("uri");
    let mut c = Command::new(env!("CARGO_BIN_EXE_pmixrun"));
    with_lib(&mut c, Lib::Ours);
    c.env("TMPDIR", dir)
        .args(["--timeout", "120", "--report-uri"])
        .arg(&uri)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("start pmixrun");
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = seen.clone();
    let stdout = std::thread::spawn(move || {
        let mut buf = vec![0u8; 65536];
        loop {
            match out.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => sink.lock().unwrap().extend_from_slice(&buf[..n]),
            }
        }
        std::mem::take(&mut *sink.lock().unwrap())
    });
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&uri).is_ok_and(|s| s.ends_with('\n')) {
        assert!(Instant::now() < deadline, "pmixrun wrote no URI file");
        std::thread::sleep(Duration::from_millis(20));
    }
    // pmixrun names its server "run.<pid>", and a tool reading a URI takes the first '.' as
    // the end of the namespace (the reference's rule, which ours follows): the tools get
    // the same address under a name without a dot.
    let text = std::fs::read_to_string(&uri).unwrap();
    let addr = text.split_once(';').expect("a URI").1;
    std::fs::write(dir.join("tool-uri"), format!("pmixrun.0;{addr}")).unwrap();
    let nspace = format!("run.{}.1", child.id());
    Job {
        stdin: child.stdin.take(),
        child,
        dir: dir.to_path_buf(),
        nspace,
        stdout: Some(stdout),
        stderr: Some(stderr),
        seen,
    }
}

impl Job {
    /// Waits until pmixrun has written `n` bytes to its stdout.
    fn wait_stdout(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.seen.lock().unwrap().len() < n {
            assert!(Instant::now() < deadline, "pmixrun's output did not come");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for pmixrun to end; its status, stdout and stderr. Its stdin stays open until
    /// then (its end would end the input of the processes reading it).
    fn finish(mut self) -> Output {
        let status = self.child.wait().expect("wait for pmixrun");
        drop(self.stdin.take());
        Output {
            status,
            stdout: self.stdout.take().unwrap().join().unwrap(),
            stderr: self.stderr.take().unwrap().join().unwrap(),
        }
    }

    fn tool(&self, lib: Lib, args: &[&str]) -> Command {
        let tool_uri = self.dir.join("tool-uri");
        let mut c = Command::new(&fixture().tool);
        with_lib(&mut c, lib);
        c.env("TMPDIR", &self.dir).arg(tool_uri).args(args);
        c
    }
}

fn check(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn p(path: &Path) -> String {
    path.to_string_lossy().into_owned()
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

/// Numbered text lines, `n` bytes or a little more.
fn text(n: usize, tag: &str) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 64);
    let mut i = 0u64;
    while v.len() < n {
        v.extend_from_slice(format!("{tag} line {i} of the text\n").as_bytes());
        i += 1;
    }
    v
}

/// Shell code that waits until the tools writing to `dirs` have created `file` there.
fn wait_for(file: &str, dirs: &[&Path]) -> String {
    dirs.iter()
        .map(|d| {
            format!(
                "while [ ! -e {}/{file} ]; do sleep 0.02; done; ",
                d.display()
            )
        })
        .collect()
}

fn wait_for_go(dirs: &[&Path]) -> String {
    wait_for("GO", dirs)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

fn show(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(&b[..b.len().min(400)]).into_owned();
    format!("{} bytes: {s:?}", b.len())
}

#[test]
fn ten_megabytes_per_rank_arrive_complete_and_in_order() {
    const SIZE: usize = 10 << 20;
    for lib in [Lib::Ours, Lib::Reference] {
        let dir = run_dir("big");
        let got = dir.join("got");
        std::fs::create_dir_all(&got).unwrap();
        // Rank 0: text ending in a newline; 1: text without one; 2: binary ending in a
        // newline; 3: binary without.
        let mut data = [
            text(SIZE, "r0"),
            text(SIZE, "r1"),
            binary(SIZE, 7),
            binary(SIZE, 11),
        ];
        data[1].pop();
        *data[2].last_mut().unwrap() = b'\n';
        *data[3].last_mut().unwrap() = b'x';
        for (r, d) in data.iter().enumerate() {
            std::fs::write(dir.join(format!("data.{r}")), d).unwrap();
        }
        let script = format!(
            "{}cat {}/data.$PMIX_RANK; printf err-$PMIX_RANK >&2; exec >&- 2>&-; {}",
            wait_for_go(&[&got]),
            dir.display(),
            wait_for("DONE", &[&got])
        );
        let job = start_job(&dir, &["-n", "4", "sh", "-c", &script]);
        let o = job
            .tool(lib, &["pull", &job.nspace, &p(&got), "8", "redirect"])
            .output()
            .unwrap();
        check(&o, &format!("{lib:?} tool"));
        let out = job.finish();
        check(&out, "pmixrun");
        for (r, d) in data.iter().enumerate() {
            let mine = read(&got.join(format!("{r}.out")));
            assert!(
                mine == *d,
                "{lib:?}: rank {r}: {} bytes arrived of {}",
                mine.len(),
                d.len()
            );
            assert_eq!(
                read(&got.join(format!("{r}.err"))),
                format!("err-{r}").as_bytes()
            );
        }
        // Redirected: pmixrun did not write the output itself.
        assert!(out.stdout.is_empty(), "{lib:?}: {}", show(&out.stdout));
        assert!(out.stderr.is_empty(), "{lib:?}: {}", show(&out.stderr));
    }
}

/// A tool gets pmixrun's segments (docs/notes/iof.md, "Whole lines"): whole lines, however
/// the process wrote them: awk's 4 KiB writes that end inside lines, and lines written in
/// two pieces. Each piece the tool's handler gets ends with a newline, and together they
/// are the output, in order.
#[test]
fn a_tool_receives_whole_lines() {
    for lib in [Lib::Ours, Lib::Reference] {
        let dir = run_dir("whole-lines");
        let got = dir.join("got");
        std::fs::create_dir_all(&got).unwrap();
        let script = format!(
            "{}awk -v r=$PMIX_RANK 'BEGIN {{ for (i = 1; i <= 20000; i++) \
               printf \"%d line %d of rank %d\\n\", i, i, r }}'; \
             i=0; while [ $i -lt 300 ]; do printf \"half $i \"; printf \"and the rest\\n\"; \
             i=$((i + 1)); done; echo err-$PMIX_RANK >&2; exec >&- 2>&-; {}",
            wait_for_go(&[&got]),
            wait_for("DONE", &[&got])
        );
        let job = start_job(&dir, &["-n", "4", "sh", "-c", &script]);
        let o = job
            .tool(
                lib,
                &["pull", &job.nspace, &p(&got), "8", "redirect", "sizes"],
            )
            .output()
            .unwrap();
        check(&o, &format!("{lib:?} tool"));
        let out = job.finish();
        check(&out, "pmixrun");
        for r in 0..4 {
            let mut want = String::new();
            for i in 1..=20000 {
                want.push_str(&format!("{i} line {i} of rank {r}\n"));
            }
            for i in 0..300 {
                want.push_str(&format!("half {i} and the rest\n"));
            }
            for (ch, want) in [
                ("out", want.into_bytes()),
                ("err", format!("err-{r}\n").into_bytes()),
            ] {
                let data = read(&got.join(format!("{r}.{ch}")));
                assert!(data == want, "{lib:?}: rank {r} {ch}: {}", show(&data));
                let sizes = std::fs::read_to_string(got.join(format!("{r}.{ch}.sizes"))).unwrap();
                let mut at = 0;
                for n in sizes.lines() {
                    let piece = &data[at..at + n.parse::<usize>().unwrap()];
                    assert!(
                        piece.ends_with(b"\n"),
                        "{lib:?}: rank {r} {ch}: a piece of {n} bytes at {at} ends inside a line: {}",
                        show(&piece[piece.len().saturating_sub(40)..])
                    );
                    at += piece.len();
                }
                assert_eq!(at, data.len());
            }
        }
    }
}

#[test]
fn tag_timestamp_xml_rank_and_files_at_the_tool() {
    let dir = run_dir("formats");
    let names = ["tag", "ts", "xml", "rank", "dir", "file", "merge"];
    let outs: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    for o in &outs {
        std::fs::create_dir_all(o).unwrap();
    }
    let all: Vec<&Path> = outs.iter().map(PathBuf::as_path).collect();
    let script = format!(
        "{}echo one; printf 'a<b>&'; echo e >&2; printf last; exec >&- 2>&-; {}",
        wait_for_go(&all),
        wait_for("DONE", &all)
    );
    let job = start_job(&dir, &["-n", "2", "sh", "-c", &script]);
    let ns = job.nspace.clone();
    let files = dir.join("files");
    let tools: Vec<(usize, Child)> = [
        vec!["tag"],
        vec!["timestamp", "tag"],
        vec!["xml"],
        vec!["rank"],
        vec!["nohandler", "fileonly", "tag"],
        vec!["nohandler", "tag"],
        vec!["merge", "rank"],
    ]
    .into_iter()
    .enumerate()
    .map(|(i, mut opts)| {
        let extra;
        if i == 4 {
            extra = format!("dir={}", files.join("d").display());
            opts.push(&extra);
        } else if i == 5 {
            extra = format!("file={}", files.join("f").display());
            opts.push(&extra);
        }
        let mut args = vec!["pull", &ns, outs[i].to_str().unwrap(), "4"];
        args.extend(opts);
        let child = job
            .tool(Lib::Ours, &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        (i, child)
    })
    .collect();
    let mut tool_out = Vec::new();
    for (i, c) in tools {
        let o = c.wait_with_output().unwrap();
        check(&o, names[i]);
        tool_out.push(o);
    }
    let out = job.finish();
    check(&out, "pmixrun");
    // pmixrun itself wrote everything (the pulls copy by default).
    let mine = String::from_utf8_lossy(&out.stdout);
    assert_eq!(mine.matches("one\n").count(), 2, "{mine}");
    for r in 0..2u32 {
        let get = |name: &str, ext: &str| {
            String::from_utf8(read(&dir.join(name).join(format!("{r}.{ext}")))).unwrap()
        };
        assert_eq!(
            get("tag", "out"),
            format!("[{ns},{r}]<stdout>: one\n[{ns},{r}]<stdout>: a<b>&last\n")
        );
        assert_eq!(get("tag", "err"), format!("[{ns},{r}]<stderr>: e\n"));
        assert_eq!(
            get("rank", "out"),
            format!("[{r}]<stdout>: one\n[{r}]<stdout>: a<b>&last\n")
        );
        assert_eq!(
            get("xml", "out"),
            format!(
                "<stdout rank=\"{r}\">one&#010;</stdout>\n<stdout rank=\"{r}\">a&lt;b&gt;&amp;last</stdout>\n"
            )
        );
        // [Wed Nov 25 12:00:06 2026][ns,r]<stdout>: one
        let ts = get("ts", "out");
        let lines: Vec<&str> = ts.lines().collect();
        assert_eq!(lines.len(), 2, "{ts}");
        for (l, text) in lines.iter().zip(["one", "a<b>&last"]) {
            let b = l.as_bytes();
            assert!(
                b[0] == b'['
                    && b[4] == b' '
                    && b[8] == b' '
                    && b[14] == b':'
                    && b[17] == b':'
                    && b[20] == b' '
                    && b[25] == b']'
                    && l[26..] == format!("[{ns},{r}]<stdout>: {text}"),
                "{l:?}"
            );
        }
        // Merged: stderr goes to the handler as it comes, tagged with its own channel.
        let m = get("merge", "err");
        assert_eq!(m, format!("[{r}]<stderr>: e\n"));
        // Files: <dir>/<nspace>/rank.<r>/stdout|stderr and <file>.<nspace>.<r>.out|.err,
        // formatted like the rest.
        let d = files.join("d").join(&ns).join(format!("rank.{r}"));
        assert_eq!(
            String::from_utf8(read(&d.join("stdout"))).unwrap(),
            format!("[{ns},{r}]<stdout>: one\n[{ns},{r}]<stdout>: a<b>&last\n")
        );
        assert_eq!(
            String::from_utf8(read(&d.join("stderr"))).unwrap(),
            format!("[{ns},{r}]<stderr>: e\n")
        );
        let f =
            |ext: &str| String::from_utf8(read(&files.join(format!("f.{ns}.{r}.{ext}")))).unwrap();
        assert_eq!(f("out"), get("tag", "out"));
        assert_eq!(f("err"), get("tag", "err"));
    }
    // FILE_ONLY: nothing on the tool's own stdout; without it, a copy there.
    assert!(
        tool_out[4].stdout.is_empty(),
        "{}",
        show(&tool_out[4].stdout)
    );
    let copy = String::from_utf8_lossy(&tool_out[5].stdout);
    for r in 0..2 {
        assert!(
            copy.contains(&format!("[{ns},{r}]<stdout>: one\n")),
            "{copy}"
        );
    }
    let copy_err = String::from_utf8_lossy(&tool_out[5].stderr);
    for r in 0..2 {
        assert!(
            copy_err.contains(&format!("[{ns},{r}]<stderr>: e\n")),
            "{copy_err}"
        );
    }
}

#[test]
fn stdin_pushed_by_a_tool_arrives_intact() {
    let data = binary(1 << 20, 3);
    // The reference library hangs in a blocking PMIx_IOF_push of a tool (it waits on a
    // lock it never set up), so on it the tool pushes with callbacks ("nb").
    for (lib, how) in [
        (Lib::Ours, "push"),
        (Lib::Ours, "nb"),
        (Lib::Reference, "nb"),
        (Lib::Ours, "pushstdin"),
    ] {
        let dir = run_dir("stdin");
        let src = dir.join("input");
        std::fs::write(&src, &data).unwrap();
        let got = dir.join("got");
        let script = format!(
            "if [ $PMIX_RANK = 0 ]; then cat > {}; fi; echo done-$PMIX_RANK",
            got.display()
        );
        let job = start_job(&dir, &["-n", "2", "sh", "-c", &script]);
        let stop = dir.join("stop");
        let o = if how != "pushstdin" {
            let mut args = vec!["push", &job.nspace, "0", src.to_str().unwrap()];
            if how == "nb" {
                args.push("nb");
            }
            job.tool(lib, &args).output().unwrap()
        } else {
            let mut c = job
                .tool(lib, &["pushstdin", &job.nspace, "0", &p(&stop)])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut w = c.stdin.take().unwrap();
            w.write_all(&data).unwrap();
            drop(w);
            // The job ends once rank 0 has read to the end of its input.
            let stop2 = stop.clone();
            let waiter = std::thread::spawn(move || c.wait_with_output().unwrap());
            let out = job.finish();
            check(&out, "pmixrun");
            std::fs::write(&stop2, b"").unwrap();
            let o = waiter.join().unwrap();
            check(&o, &format!("{lib:?} {how}"));
            assert!(
                read(&got) == data,
                "{lib:?} {how}: {} bytes",
                read(&got).len()
            );
            continue;
        };
        check(&o, &format!("{lib:?} {how}"));
        let out = job.finish();
        check(&out, "pmixrun");
        let mine = read(&got);
        assert!(
            mine == data,
            "{lib:?} {how}: {} bytes of {}",
            mine.len(),
            data.len()
        );
    }
}

/// `seq`-like output of a rank: "r<rank>-<i>" lines.
fn lines_of(rank: u32, n: u32) -> Vec<u8> {
    (1..=n)
        .flat_map(|i| format!("r{rank}-{i}\n").into_bytes())
        .collect()
}

#[test]
fn output_written_before_the_tool_comes_from_the_cache() {
    const N: u32 = 3000;
    for (lib, opts, keep) in [
        (Lib::Ours, vec![], None),
        (Lib::Reference, vec![], None),
        (Lib::Ours, vec!["csize=1000", "oldest"], Some((1000, true))),
        (Lib::Ours, vec!["csize=1000", "newest"], Some((1000, false))),
        (Lib::Ours, vec!["csize=1000"], Some((1000, false))),
    ] {
        let dir = run_dir("cache");
        let got = dir.join("got");
        std::fs::create_dir_all(&got).unwrap();
        let script = format!(
            "seq -f \"r${{PMIX_RANK}}-%g\" 1 {N}; {}exec >&- 2>&-; {}",
            wait_for_go(&[&got]),
            wait_for("DONE", &[&got])
        );
        let job = start_job(&dir, &["-n", "2", "sh", "-c", &script]);
        let want: Vec<Vec<u8>> = (0..2).map(|r| lines_of(r, N)).collect();
        // Once pmixrun has printed it, the server has it.
        job.wait_stdout(want.iter().map(Vec::len).sum());
        let mut args = vec!["pull", &job.nspace, got.to_str().unwrap(), "4"];
        args.extend(opts.iter().copied());
        let o = job.tool(lib, &args).output().unwrap();
        check(&o, &format!("{lib:?} {opts:?}"));
        check(&job.finish(), "pmixrun");
        for (r, full) in want.iter().enumerate() {
            let expect: &[u8] = match keep {
                None => full,
                Some((n, true)) => &full[full.len() - n..],
                Some((n, false)) => &full[..n],
            };
            let mine = read(&got.join(format!("{r}.out")));
            assert!(
                mine == expect,
                "{lib:?} {opts:?} rank {r}: got {}\nwant {}",
                show(&mine),
                show(expect)
            );
        }
    }
}
