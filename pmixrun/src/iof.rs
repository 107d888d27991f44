//! Output forwarding: one reader thread per pipe of each process (its stdout, and its
//! stderr unless merged), writing what it reads to pmixrun's own stdout/stderr or to files,
//! and handing the same bytes to the server for connected tools (`iof_deliver`).
//!
//! Within one source nothing is lost or reordered: a reader writes each chunk as it reads
//! it, under the destination's lock. Without tags or timestamps the bytes pass through
//! untouched. With them, output is cut into lines, each written whole with its prefix; a
//! last line without a newline is written at end of file, with a newline added.
//!
//! Also here: the thread that copies pmixrun's stdin to the processes that read it.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use pmix_core::server::Server;
use pmix_core::values::{Info, Proc, Value};
use pmix_sys::*;

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

/// The forwarding of every process's output.
#[derive(Debug)]
pub struct Iof {
    pub opts: IofOptions,
    active: Mutex<usize>,
    idle: Condvar,
    server: Arc<std::sync::OnceLock<Server>>,
}

enum Sink {
    Stdout,
    Stderr,
    File(File),
}

impl Sink {
    fn write(&mut self, data: &[u8]) {
        // Errors (a closed stdout, a full disk) are ignored: the reader keeps draining the
        // pipe so that the process never blocks on its output.
        match self {
            Sink::Stdout => {
                let mut o = std::io::stdout().lock();
                let _ = o.write_all(data);
                let _ = o.flush();
            }
            Sink::Stderr => {
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

impl Iof {
    pub fn new(opts: IofOptions, server: Arc<std::sync::OnceLock<Server>>) -> Iof {
        Iof {
            opts,
            active: Mutex::new(0),
            idle: Condvar::new(),
            server,
        }
    }

    /// Starts forwarding what `source` writes on `channel` (`PMIX_FWD_STDOUT_CHANNEL` or
    /// `PMIX_FWD_STDERR_CHANNEL`) into `pipe`.
    pub fn forward(self: &Arc<Self>, source: Proc, channel: pmix_iof_channel_t, pipe: OwnedFd) {
        let sink = match self.sink(&source, channel) {
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
        *self.active.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("iof-{}-{}", source.rank, channel))
            .spawn({
                let me = me.clone();
                move || {
                    me.read_loop(&source, channel, File::from(pipe), sink);
                    me.done();
                }
            });
        if spawned.is_err() {
            eprintln!("pmixrun: cannot start an output thread; output of a process is lost");
            me.done();
        }
    }

    fn done(&self) {
        let mut n = self.active.lock().unwrap_or_else(|e| e.into_inner());
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.idle.notify_all();
        }
    }

    /// Waits until every reader has reached end of file, at most `timeout`. Returns whether
    /// they all did.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut n = self.active.lock().unwrap_or_else(|e| e.into_inner());
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

    fn sink(&self, source: &Proc, channel: pmix_iof_channel_t) -> std::io::Result<Sink> {
        let stderr = channel == PMIX_FWD_STDERR_CHANNEL;
        match &self.opts.dir {
            Some(dir) => {
                let d = dir
                    .join(source.nspace.to_string())
                    .join(format!("rank.{}", source.rank));
                std::fs::create_dir_all(&d)?;
                let f = File::create(d.join(if stderr { "stderr" } else { "stdout" }))?;
                Ok(Sink::File(f))
            }
            None if stderr => Ok(Sink::Stderr),
            None => Ok(Sink::Stdout),
        }
    }

    fn prefix(&self, source: &Proc, channel: pmix_iof_channel_t) -> Vec<u8> {
        let mut p = String::new();
        if self.opts.timestamp {
            p.push_str(&format!("[{}]", sys::local_timestamp()));
        }
        if self.opts.tag {
            p.push_str(&format!("[{},{}]", source.nspace, source.rank));
        }
        let name = if channel == PMIX_FWD_STDERR_CHANNEL {
            "stderr"
        } else {
            "stdout"
        };
        p.push_str(&format!("<{name}>: "));
        p.into_bytes()
    }

    fn read_loop(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        mut pipe: File,
        mut sink: Sink,
    ) {
        let lines = self.opts.tag || self.opts.timestamp;
        let mut buf = vec![0u8; 64 * 1024];
        let mut partial: Vec<u8> = Vec::new();
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let data = &buf[..n];
            self.deliver(source, channel, data, false);
            if !lines {
                sink.write(data);
                continue;
            }
            partial.extend_from_slice(data);
            let Some(last_nl) = partial.iter().rposition(|&b| b == b'\n') else {
                continue;
            };
            let rest = partial.split_off(last_nl + 1);
            let out = self.with_prefixes(source, channel, &partial);
            sink.write(&out);
            partial = rest;
        }
        if !partial.is_empty() {
            partial.push(b'\n');
            let out = self.with_prefixes(source, channel, &partial);
            sink.write(&out);
        }
        self.deliver(source, channel, &[], true);
    }

    /// Complete lines, each with its prefix.
    fn with_prefixes(&self, source: &Proc, channel: pmix_iof_channel_t, lines: &[u8]) -> Vec<u8> {
        let prefix = self.prefix(source, channel);
        let mut out = Vec::with_capacity(lines.len() + 16 * prefix.len());
        for line in lines.split_inclusive(|&b| b == b'\n') {
            out.extend_from_slice(&prefix);
            out.extend_from_slice(line);
        }
        out
    }

    /// Hands output to the server, for tools that pulled it; `complete` marks the end of
    /// the source (`PMIX_IOF_COMPLETE`).
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
}

/// Copies pmixrun's stdin to `targets` until end of file (then closes them, so that the
/// processes see end of file too). A target that stops reading is dropped.
pub fn pump_stdin(targets: Vec<OwnedFd>) {
    if targets.is_empty() {
        return;
    }
    let mut outs: Vec<Option<File>> = targets.into_iter().map(|f| Some(File::from(f))).collect();
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            let mut input = std::io::stdin().lock();
            loop {
                let n = match input.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                for o in outs.iter_mut() {
                    if let Some(f) = o
                        && f.write_all(&buf[..n]).is_err()
                    {
                        *o = None;
                    }
                }
                if outs.iter().all(Option::is_none) {
                    break;
                }
            }
            drop(outs);
        });
}
