//! Output forwarding: one reader thread per pipe of each process (its stdout, and its
//! stderr unless merged), writing what it reads to pmixrun's own stdout/stderr or to files,
//! and handing the same bytes to the server for tools (`iof_deliver`, which caches them
//! while no tool has pulled them). While a tool holds a source's output with
//! `PMIX_IOF_REDIRECT`, pmixrun does not write that output itself.
//!
//! Output stays whole: a reader cuts what it reads into segments (`lines::LineSplitter`),
//! whole lines as far as it can, and writes each segment with one `write_all` under
//! std's process-wide stdout lock (stderr's writers take it too, before stderr's own), so
//! no line of one process is cut or mixed with another's output. Lines of up to
//! `lines::MAX_LINE` (1 MiB, newline included) are never cut; a longer line goes out in
//! pieces of 1 MiB, each whole. A line that waits for its newline (a prompt, binary data)
//! goes out once no byte came for `lines::PARTIAL_IDLE` (100 ms) and the process is not
//! running or waiting for a CPU (`writer_busy`: a prompt waits for input, while a process
//! preempted half-way through a line waits for a CPU), and in any case once its first byte
//! waited `lines::PARTIAL_MAX_WAIT` (2 s). The reader waits in `poll(2)` bounded by that
//! deadline (no thread of its own for the timer).
//! Tools receive the same segments, so a tool's `PMIx_IOF_pull` sees whole lines too.
//! Within one source nothing is lost or reordered; at end of file the rest goes out, then
//! `PMIX_IOF_COMPLETE`. `docs/notes/iof.md` ("Whole lines") has the rules.
//!
//! Decoration (`--tag-output`, `--timestamp-output`) is the library's formatter
//! (`pmix_core::iof`), so pmixrun and a tool asking for the same attributes print the same
//! bytes; a piece of a line (over the limit, or flushed by time) is decorated as a line of
//! its own, with a newline added.
//!
//! Also here: standard input. Each process that takes input has a feed: a queue and a
//! writer thread for its stdin pipe, fed in order by pmixrun's own stdin (`--stdin`) and by
//! tools (`PMIx_IOF_push`, through the host's push_stdin upcall). The first end of input
//! closes the pipe.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pmix_core::Error;
use pmix_core::host::Done;
use pmix_core::iof::{IofFlags, LineState};
use pmix_core::server::Server;
use pmix_core::values::{Info, Proc, Value};
use pmix_sys::*;

use crate::lines::LineSplitter;
use crate::sys;

/// How output is shown.
#[derive(Debug, Clone, Default)]
pub struct IofOptions {
    pub tag: bool,
    pub timestamp: bool,
    /// stderr goes to stdout (one pipe per process).
    pub merge: bool,
    /// Write to DIR/<nspace>/rank.<N>/{stdout,stderr} instead of pmixrun's own.
    pub dir: Option<PathBuf>,
}

impl IofOptions {
    /// The same choices as the library's output attributes.
    fn flags(&self) -> IofFlags {
        IofFlags {
            tag: self.tag,
            timestamp: self.timestamp,
            merge: self.merge,
            directory: self.dir.clone(),
            ..IofFlags::default()
        }
    }
}

/// Bytes queued for one process's stdin beyond which a push completes only once its data
/// is written (so a tool pushing faster than the process reads is slowed, not buffered
/// without bound).
const STDIN_QUEUE_LIMIT: usize = 4 << 20;

/// The forwarding of every process's output and input.
#[derive(Debug)]
pub struct Iof {
    pub opts: IofOptions,
    flags: IofFlags,
    active: Mutex<usize>,
    idle: Condvar,
    server: Arc<std::sync::OnceLock<Server>>,
    stdin: Mutex<HashMap<Proc, Arc<StdinFeed>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

enum Sink {
    Stdout,
    Stderr,
    File(File),
}

impl Sink {
    fn write(&mut self, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        // Errors (a closed stdout, a full disk) are ignored: the reader keeps draining the
        // pipe so that the process never blocks on its output.
        match self {
            Sink::Stdout => {
                let mut o = std::io::stdout().lock();
                let _ = o.write_all(data);
                let _ = o.flush();
            }
            Sink::Stderr => {
                // stdout's lock too (always taken first), so that a segment of stderr and
                // one of stdout do not mix when both go to one pipe or file (`2>&1`).
                let _out = std::io::stdout().lock();
                let mut o = std::io::stderr().lock();
                let _ = o.write_all(data);
                let _ = o.flush();
            }
            Sink::File(f) => {
                let _ = f.write_all(data);
            }
        }
    }
}

/// Where the segments of one pipe go: tools first, then the sink (decorated as asked).
struct Writer<'a> {
    iof: &'a Iof,
    source: &'a Proc,
    channel: pmix_iof_channel_t,
    sink: Sink,
    lines: LineState,
    out: Vec<u8>,
}

impl Writer<'_> {
    fn segment(&mut self, seg: &[u8]) {
        let (iof, source, channel) = (self.iof, self.source, self.channel);
        iof.deliver(source, channel, seg, false);
        if iof.redirected(source, channel) {
            return;
        }
        if !iof.flags.decorates() {
            self.sink.write(seg);
            return;
        }
        self.out.clear();
        decorate_segment(
            &mut self.lines,
            &iof.flags,
            source,
            channel,
            seg,
            &mut self.out,
        );
        self.sink.write(&self.out);
    }

    /// At end of file (the last segment was written already: nothing is pending).
    fn finish(&mut self) {
        self.out.clear();
        self.lines
            .finish(&self.iof.flags, self.source, self.channel, &mut self.out);
        self.sink.write(&self.out);
    }
}

/// Whether the writer of a partial line is still at it: process `pid` is running or
/// waiting for a CPU, or the pipe has bytes again. The pipe is looked at second: the
/// reader may itself have waited for a CPU since its `poll` ended, while the process wrote
/// the rest of the line and exited; once the process is seen idle, an empty pipe means that
/// nothing it wrote is left unread.
fn writer_busy(pid: sys::Pid, pipe: std::os::fd::BorrowedFd<'_>) -> bool {
    sys::is_runnable(pid) || matches!(sys::wait_readable(pipe, Some(Duration::ZERO)), Ok(true))
}

/// Appends one segment decorated per `flags`: its lines, each with its tag; a piece of a
/// line (longer than the limit, or flushed by time) becomes a decorated line of its own,
/// with a newline added, so that every line of pmixrun's output starts with its tag.
fn decorate_segment(
    lines: &mut LineState,
    flags: &IofFlags,
    source: &Proc,
    channel: pmix_iof_channel_t,
    seg: &[u8],
    out: &mut Vec<u8>,
) {
    lines.push(flags, source, channel, seg, out);
    if seg.last() != Some(&b'\n') {
        lines.finish(flags, source, channel, out);
    }
}

impl Iof {
    pub fn new(opts: IofOptions, server: Arc<std::sync::OnceLock<Server>>) -> Iof {
        pmix_core::iof::set_utc_offset(sys::utc_offset);
        Iof {
            flags: opts.flags(),
            opts,
            active: Mutex::new(0),
            idle: Condvar::new(),
            server,
            stdin: Mutex::new(HashMap::new()),
        }
    }

    /// Starts forwarding what `source` (of a job of `nprocs`, process `pid`) writes on
    /// `channel` (`PMIX_FWD_STDOUT_CHANNEL` or `PMIX_FWD_STDERR_CHANNEL`) into `pipe`.
    pub fn forward(
        self: &Arc<Self>,
        source: Proc,
        pid: sys::Pid,
        channel: pmix_iof_channel_t,
        pipe: OwnedFd,
        nprocs: u32,
    ) {
        let sink = match self.sink(&source, channel, nprocs) {
            Ok(s) => s,
            Err(e) => {
                eprintln!(
                    "pmixrun: cannot open the output file of {}:{}: {e}; using pmixrun's own",
                    source.nspace, source.rank
                );
                if channel == PMIX_FWD_STDERR_CHANNEL {
                    Sink::Stderr
                } else {
                    Sink::Stdout
                }
            }
        };
        *lock(&self.active) += 1;
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("iof-{}-{}", source.rank, channel))
            .spawn({
                let me = me.clone();
                move || {
                    me.read_loop(&source, pid, channel, File::from(pipe), sink);
                    me.done();
                }
            });
        if spawned.is_err() {
            eprintln!("pmixrun: cannot start an output thread; output of a process is lost");
            me.done();
        }
    }

    fn done(&self) {
        let mut n = lock(&self.active);
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.idle.notify_all();
        }
    }

    /// Waits until every reader has reached end of file, at most `timeout`. Returns whether
    /// they all did.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut n = lock(&self.active);
        while *n > 0 {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            n = match self.idle.wait_timeout(n, deadline - now) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
        true
    }

    fn sink(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        nprocs: u32,
    ) -> std::io::Result<Sink> {
        let digits = pmix_core::iof::rank_digits(nprocs);
        match pmix_core::iof::output_path(&self.flags, source, channel, digits) {
            Some(path) => Ok(Sink::File(pmix_core::iof::create_output_file(&path)?)),
            None if channel == PMIX_FWD_STDERR_CHANNEL => Ok(Sink::Stderr),
            None => Ok(Sink::Stdout),
        }
    }

    /// Whether a tool holds this output with `PMIX_IOF_REDIRECT`.
    fn redirected(&self, source: &Proc, channel: pmix_iof_channel_t) -> bool {
        self.server
            .get()
            .is_some_and(|s| s.iof_redirected(source, channel))
    }

    /// Reads `pipe` to its end, cutting what comes into segments ([`LineSplitter`]) that
    /// go out whole: to tools, then (unless a tool redirects the output) to `sink`. Between
    /// reads it waits in `poll`, bounded by the time a partial line may wait.
    fn read_loop(
        &self,
        source: &Proc,
        pid: sys::Pid,
        channel: pmix_iof_channel_t,
        mut pipe: File,
        sink: Sink,
    ) {
        let mut buf = vec![0u8; 64 * 1024];
        let mut split = LineSplitter::default();
        let mut w = Writer {
            iof: self,
            source,
            channel,
            sink,
            lines: LineState::default(),
            out: Vec::new(),
        };
        loop {
            let timeout = split
                .deadline()
                .map(|d| d.saturating_duration_since(Instant::now()));
            // An error of poll itself (none is expected) only costs the bound on partial
            // lines: the read below then waits as long as it must.
            if let Ok(false) = sys::wait_readable(pipe.as_fd(), timeout) {
                let busy = || writer_busy(pid, pipe.as_fd());
                split.flush_due(Instant::now(), busy, |seg| w.segment(seg));
                continue;
            }
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let now = Instant::now();
            split.push(&buf[..n], now, |seg| w.segment(seg));
            let busy = || writer_busy(pid, pipe.as_fd());
            split.flush_due(now, busy, |seg| w.segment(seg));
        }
        split.finish(|seg| w.segment(seg));
        w.finish();
        self.deliver(source, channel, &[], true);
    }

    /// Hands output to the server, for tools; `complete` marks the end of the source
    /// (`PMIX_IOF_COMPLETE`).
    fn deliver(&self, source: &Proc, channel: pmix_iof_channel_t, data: &[u8], complete: bool) {
        if let Some(server) = self.server.get() {
            let info = if complete {
                vec![Info::new(PMIX_IOF_COMPLETE.to_bytes(), Value::Bool(true))]
            } else {
                Vec::new()
            };
            let _ = server.iof_deliver(source, channel, data, &info);
        }
    }

    // ---- standard input ------------------------------------------------------------------

    /// A pipe for `proc`'s stdin, fed by [`Iof::push_stdin`]; returns its read end.
    pub fn stdin_pipe(&self, proc: Proc) -> std::io::Result<OwnedFd> {
        let (rd, wr) = sys::pipe()?;
        let feed = StdinFeed::start(&proc, File::from(wr))?;
        lock(&self.stdin).insert(proc, feed);
        Ok(rd)
    }

    /// Queues `data` for the stdin of `targets` (a rank, or `PMIX_RANK_WILDCARD` for every
    /// process of a namespace that takes input), then, with `end`, closes those stdins.
    /// `done` runs once every target has the data queued (or written, when its queue is
    /// long). `PMIX_ERR_NOT_FOUND` when no target takes input.
    pub fn push_stdin(&self, targets: &[Proc], data: Option<&[u8]>, end: bool, done: Done<()>) {
        let feeds: Vec<Arc<StdinFeed>> = {
            let table = lock(&self.stdin);
            let mut v: Vec<(&Proc, &Arc<StdinFeed>)> = table
                .iter()
                .filter(|(p, f)| {
                    !f.closed()
                        && targets.iter().any(|t| {
                            t.nspace == p.nspace
                                && (t.rank == PMIX_RANK_WILDCARD || t.rank == p.rank)
                        })
                })
                .collect();
            v.sort_by(|a, b| a.0.cmp(b.0));
            v.into_iter().map(|(_, f)| f.clone()).collect()
        };
        if feeds.is_empty() {
            done(Err(Error::NotFound));
            return;
        }
        let joint = Joint::new(feeds.len() + 1, done);
        for f in &feeds {
            f.push(data.unwrap_or_default(), end, &joint);
        }
        joint.one_done();
        if end {
            lock(&self.stdin).retain(|_, f| !f.closed());
        }
    }

    /// Forgets the stdin feed of `proc` (a process that ended), ending its writer thread;
    /// what was queued for it is dropped. Pushes to it then fail with `PMIX_ERR_NOT_FOUND`.
    pub fn end_stdin(&self, proc: &Proc) {
        let feed = lock(&self.stdin).remove(proc);
        if let Some(f) = feed {
            f.end();
        }
    }

    /// Copies pmixrun's stdin to `targets` until end of file, then ends their input.
    pub fn pump_stdin(self: &Arc<Self>, targets: Vec<Proc>) {
        if targets.is_empty() {
            return;
        }
        let me = self.clone();
        let _ = std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                let push = |data: &[u8], end: bool| -> bool {
                    let (tx, rx) = std::sync::mpsc::sync_channel(1);
                    me.push_stdin(
                        &targets,
                        Some(data),
                        end,
                        Box::new(move |r| {
                            let _ = tx.send(r);
                        }),
                    );
                    matches!(rx.recv(), Ok(Ok(())))
                };
                // Stops early when every target has closed its input (or a tool ended it).
                if pmix_core::iof::copy_stdin(|chunk| push(chunk, false)) {
                    push(&[], true);
                }
            });
    }
}

/// One completion shared by the targets of a push.
struct Joint {
    left: AtomicUsize,
    done: Mutex<Option<Done<()>>>,
}

impl Joint {
    fn new(n: usize, done: Done<()>) -> Arc<Joint> {
        Arc::new(Joint {
            left: AtomicUsize::new(n),
            done: Mutex::new(Some(done)),
        })
    }

    fn one_done(&self) {
        if self.left.fetch_sub(1, Ordering::AcqRel) == 1
            && let Some(d) = lock(&self.done).take()
        {
            d(Ok(()));
        }
    }
}

enum FeedItem {
    Data(Vec<u8>, Option<Arc<Joint>>),
    End,
}

#[derive(Default)]
struct FeedQueue {
    items: VecDeque<FeedItem>,
    queued: usize,
    /// End of input was queued, or the process stopped reading.
    closed: bool,
}

/// The stdin of one process: a queue and the thread that writes it to the pipe.
struct StdinFeed {
    q: Mutex<FeedQueue>,
    ready: Condvar,
}

impl std::fmt::Debug for StdinFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StdinFeed")
    }
}

impl StdinFeed {
    fn start(proc: &Proc, mut pipe: File) -> std::io::Result<Arc<StdinFeed>> {
        let feed = Arc::new(StdinFeed {
            q: Mutex::new(FeedQueue::default()),
            ready: Condvar::new(),
        });
        let me = feed.clone();
        std::thread::Builder::new()
            .name(format!("stdin-{}", proc.rank))
            .spawn(move || {
                let mut broken = false;
                loop {
                    let item = {
                        let mut q = lock(&me.q);
                        loop {
                            if let Some(i) = q.items.pop_front() {
                                if let FeedItem::Data(d, _) = &i {
                                    q.queued -= d.len();
                                }
                                break i;
                            }
                            q = match me.ready.wait(q) {
                                Ok(g) => g,
                                Err(e) => e.into_inner(),
                            };
                        }
                    };
                    match item {
                        FeedItem::Data(d, joint) => {
                            if !broken && pipe.write_all(&d).is_err() {
                                // The process closed its stdin or ended: what is queued
                                // for it cannot be delivered.
                                broken = true;
                                lock(&me.q).closed = true;
                            }
                            if let Some(j) = joint {
                                j.one_done();
                            }
                        }
                        FeedItem::End => break,
                    }
                }
                drop(pipe);
            })?;
        Ok(feed)
    }

    /// Stops the writer thread: nothing more will be written.
    fn end(&self) {
        let mut q = lock(&self.q);
        let dropped: Vec<FeedItem> = q.items.drain(..).collect();
        q.queued = 0;
        q.items.push_back(FeedItem::End);
        q.closed = true;
        self.ready.notify_one();
        drop(q);
        // Pushes waiting for their data to be written complete now (it never will be).
        for item in dropped {
            if let FeedItem::Data(_, Some(j)) = item {
                j.one_done();
            }
        }
    }

    fn closed(&self) -> bool {
        lock(&self.q).closed
    }

    fn push(&self, data: &[u8], end: bool, joint: &Arc<Joint>) {
        let mut done_now = true;
        {
            let mut q = lock(&self.q);
            if !q.closed {
                if !data.is_empty() {
                    let wait = q.queued >= STDIN_QUEUE_LIMIT;
                    q.queued += data.len();
                    q.items
                        .push_back(FeedItem::Data(data.to_vec(), wait.then(|| joint.clone())));
                    done_now = !wait;
                }
                if end {
                    q.items.push_back(FeedItem::End);
                    q.closed = true;
                }
                self.ready.notify_one();
            }
        }
        if done_now {
            joint.one_done();
        }
    }
}

/// The host's answer to `PMIx_IOF_push` (the push_stdin upcall): `data` for `targets`,
/// ending their input when `data` is `None` or empty (as the reference's launchers read a
/// push of no bytes) or `directives` hold `PMIX_IOF_COMPLETE`.
pub fn push_stdin_upcall(
    iof: &Iof,
    targets: &[Proc],
    directives: &[Info],
    data: Option<&[u8]>,
    done: Done<()>,
) {
    let end = data.is_none_or(<[u8]>::is_empty) || pmix_core::iof::is_complete(directives);
    if targets.is_empty() {
        done(Err(Error::BadParam));
        return;
    }
    iof.push_stdin(targets, data, end, done);
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// What pmixrun writes for `chunks` (each read at the time given, in ms from the start,
    /// with a look at the clock after each), `--tag-output`, lines kept whole up to `max`.
    fn tagged(max: usize, chunks: &[(u32, &[u8])], eof_ms: u32) -> String {
        let flags = IofFlags {
            tag: true,
            ..IofFlags::default()
        };
        let source = Proc::new("run.1", 3);
        let ch = PMIX_FWD_STDOUT_CHANNEL;
        let mut split = LineSplitter::new(max, 100 * MS, 2000 * MS);
        let mut lines = LineState::default();
        let mut out = Vec::new();
        let t0 = Instant::now();
        let mut emit =
            |seg: &[u8]| decorate_segment(&mut lines, &flags, &source, ch, seg, &mut out);
        for &(ms, c) in chunks {
            split.flush_due(t0 + ms * MS, || false, &mut emit);
            split.push(c, t0 + ms * MS, &mut emit);
        }
        split.flush_due(t0 + eof_ms * MS, || false, &mut emit);
        split.finish(&mut emit);
        lines.finish(&flags, &source, ch, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn one_tag_per_line_when_lines_come_in_many_reads() {
        let text = "first line\nsecond, longer line of output\n\nthird\n";
        // Every way of cutting the text into reads of n bytes.
        for n in 1..text.len() {
            let chunks: Vec<(u32, &[u8])> = text.as_bytes().chunks(n).map(|c| (0, c)).collect();
            let got = tagged(1 << 20, &chunks, 0);
            let want = "[run.1,3]<stdout>: first line\n\
                        [run.1,3]<stdout>: second, longer line of output\n\
                        [run.1,3]<stdout>: \n\
                        [run.1,3]<stdout>: third\n";
            assert_eq!(got, want, "reads of {n} bytes");
        }
    }

    #[test]
    fn a_flushed_prompt_and_an_over_long_line_are_tagged_lines() {
        // A prompt alone for 150 ms, then its answer; a line that ends at end of file.
        let got = tagged(64, &[(0, b"name? "), (150, b"Bob\n"), (160, b"last")], 170);
        assert_eq!(
            got,
            "[run.1,3]<stdout>: name? \n[run.1,3]<stdout>: Bob\n[run.1,3]<stdout>: last\n"
        );
        // 20 bytes and a newline with a limit of 8: three tagged pieces.
        let got = tagged(8, &[(0, b"0123456789"), (1, b"abcdefghij\nok\n")], 2);
        assert_eq!(
            got,
            "[run.1,3]<stdout>: 01234567\n[run.1,3]<stdout>: 89abcdef\n\
             [run.1,3]<stdout>: ghij\n[run.1,3]<stdout>: ok\n"
        );
    }
}
