//! Logging in a server process: `PMIx_Log` of its clients (the command LOG) and of the
//! server process itself, and its help messages (`pmix_show_help` once the server is up).
//!
//! As OpenPMIx 5.0.11's server does it (its `plog` framework: the `stdfd` channel, then
//! the host's `log` upcall):
//! - **Help messages fold.** A log that names its help file and topic (`PMIX_LOG_KEY`,
//!   `PMIX_LOG_VAL`, as Open MPI's `opal_show_help` and OpenPMIx's own `pmix_show_help`
//!   send them) is written the first time only, unless `PMIX_LOG_AGG` is false; the repeats
//!   are counted, and at most every 5 s (and at finalize) one line per message says "N more
//!   processes have sent help message FILE / TOPIC". A `*` in a file or topic name matches
//!   any rest.
//! - **A gateway writes standard output and error.** In a server started with
//!   `PMIX_SERVER_GATEWAY` (PRRTE's master, `prterun`), `PMIX_LOG_STDOUT`/`_STDERR` texts
//!   go where the source's delivered output goes ([`Shared::set_log_output`]: as
//!   `PMIx_server_IOF_deliver`, with the job's output formatting and to the tools that pull
//!   it).
//! - **Then the host.** Its `log` upcall gets every log that was not a folded repeat, with
//!   `PMIX_LOG_SOURCE` (and the client's `PMIX_LOG_TIMESTAMP`) added to the directives.
//!
//! Where we differ from OpenPMIx 5.0.11 (`docs/notes/server.md`, "Logging"): PRRTE hands
//! every log back to its master's `PMIx_Log_nb`, and OpenPMIx then writes a log it wrote
//! already a second time when it is not folded, and counts the first message of each topic
//! as a repeat of itself; we recognise a log we handed to the host coming back and
//! finish it. The count is the number of repeats; no NUL byte follows a written text; and
//! the repeats not yet reported are reported at finalize (OpenPMIx drops them).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use pmix_sys::*;

use super::Shared;
use crate::host::{Done, Upcall};
use crate::progress::{Reactor, TimerId};
use crate::values::{Info, PStr, Proc, Value, info_flag, info_value};
use crate::{Error, Result};

/// How often repeats of help messages are reported, at most (OpenPMIx's interval).
const REPORT_EVERY: Duration = Duration::from_secs(5);
/// How long a log handed to the host is remembered, and how many are (a host that never
/// hands them back must not make the list grow).
const RELAY_MEMORY: Duration = Duration::from_secs(60);
const RELAY_MAX: usize = 256;

/// Where a gateway's logged output goes: `(server, source, channel, text)`.
pub type LogOutput = Box<dyn Fn(&Shared, &Proc, pmix_iof_channel_t, &[u8]) + Send + Sync>;

/// What the logging keeps.
#[derive(Default)]
pub(super) struct LogState {
    /// Help messages written, by file and topic, with their repeats not yet reported.
    seen: Vec<Seen>,
    /// When repeats were last reported, or a first message was written while no report
    /// was due.
    last_report: Option<Instant>,
    /// The report timer, while one is pending.
    timer: Option<TimerId>,
    /// Logs written here and handed to the host as well, oldest first.
    relayed: VecDeque<Relayed>,
}

struct Seen {
    file: Vec<u8>,
    topic: Vec<u8>,
    repeats: u32,
}

struct Relayed {
    source: Proc,
    texts: Vec<Info>,
    at: Instant,
}

/// OpenPMIx's match of help file and topic names: equal, or, when either has a `*`, equal
/// up to the shorter of the parts before their first `*`.
fn names_match(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    let star = |s: &[u8]| s.iter().position(|&c| c == b'*');
    if star(a).is_none() && star(b).is_none() {
        return false;
    }
    let (a, b) = (
        &a[..star(a).unwrap_or(a.len())],
        &b[..star(b).unwrap_or(b.len())],
    );
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

/// The report line of `n` repeats.
fn report_line(n: u32, file: &[u8], topic: &[u8]) -> Vec<u8> {
    let mut v = format!(
        "{n} more process{} sent help message ",
        if n > 1 { "es have" } else { " has" }
    )
    .into_bytes();
    v.extend_from_slice(file);
    v.extend_from_slice(b" / ");
    v.extend_from_slice(topic);
    v.push(b'\n');
    v
}

/// The channel of a standard-output log entry.
fn std_channel(i: &Info) -> Option<pmix_iof_channel_t> {
    if i.is(PMIX_LOG_STDERR) {
        Some(PMIX_FWD_STDERR_CHANNEL)
    } else if i.is(PMIX_LOG_STDOUT) {
        Some(PMIX_FWD_STDOUT_CHANNEL)
    } else {
        None
    }
}

/// The standard-output and -error entries of a log's data.
fn std_texts(data: &[Info]) -> impl Iterator<Item = &Info> {
    data.iter().filter(|i| std_channel(i).is_some())
}

fn text_of(v: &Value) -> Option<&[u8]> {
    match v {
        Value::String(Some(s)) => Some(s.as_bytes()),
        Value::ByteObject(b) => Some(b),
        _ => None,
    }
}

/// A help message as a log: its text on `PMIX_LOG_STDERR`, its file and topic as
/// `PMIX_LOG_KEY` and `PMIX_LOG_VAL`.
fn help_log(file: &[u8], topic: &[u8], text: &[u8]) -> (Vec<Info>, Vec<Info>) {
    let s = |b: &[u8]| Value::String(Some(PStr::from(b)));
    (
        vec![Info::new(PMIX_LOG_STDERR.to_bytes(), s(text))],
        vec![
            Info::new(PMIX_LOG_KEY.to_bytes(), s(file)),
            Info::new(PMIX_LOG_VAL.to_bytes(), s(topic)),
        ],
    )
}

fn str_dir<'a>(dirs: &'a [Info], key: &core::ffi::CStr) -> Option<&'a [u8]> {
    info_value(dirs, key)
        .and_then(|v| v.as_str())
        .map(|s| s.as_bytes())
}

impl Shared {
    /// Where a gateway writes logged standard output and error (the C layer makes it
    /// `PMIx_server_IOF_deliver`'s path). Without one, it is written as delivered output
    /// of the source ([`Shared::iof_write_local`]) and sent to the tools that pull it.
    pub fn set_log_output(&self, f: LogOutput) {
        let _ = self.log_output.set(f);
    }

    /// `PMIx_Log_nb` in the server process: logged as a client's log is, from the
    /// `PMIX_LOG_SOURCE` of `directives` (a log the host hands back) or from this process
    /// (which the directives then name). A log of this process handed back is refused
    /// (`PMIX_ERR_NOT_SUPPORTED`), as OpenPMIx refuses it.
    pub fn log(&self, data: Vec<Info>, mut directives: Vec<Info>, done: Done<()>) -> Result<()> {
        if data.is_empty() {
            return Err(Error::BadParam);
        }
        let given = match info_value(&directives, PMIX_LOG_SOURCE) {
            Some(Value::Proc(p)) => Some(p.clone()),
            Some(_) => return Err(Error::BadParam),
            None => None,
        };
        let me = self.arc();
        self.progress.post(move |r| {
            let source = match given {
                Some(p) if p == me.cfg.id => return done(Err(Error::NotSupported)),
                Some(p) => {
                    if me.take_relayed(&p, &data) {
                        return done(Ok(()));
                    }
                    p
                }
                None => {
                    let p = me.cfg.id.clone();
                    directives.push(Info::new(
                        PMIX_LOG_SOURCE.to_bytes(),
                        Value::Proc(p.clone()),
                    ));
                    p
                }
            };
            me.log_request(r, source, data, directives, done);
        })
    }

    /// A help message of this process (`pmix_show_help` once the server is up), logged to
    /// `PMIX_LOG_STDERR` with its file and topic; false when nothing here would write it or
    /// take it (a server that is no gateway, with a host without `log`): the caller prints
    /// it then.
    pub fn show_help(&self, file: &[u8], topic: &[u8], text: &[u8]) -> bool {
        if !self.cfg.gateway && !self.host.provides(Upcall::Log) {
            return false;
        }
        let (data, dirs) = help_log(file, topic, text);
        self.log(data, dirs, Box::new(|_| {})).is_ok()
    }

    /// A log of `source` (the command LOG, or [`Shared::log`]), on the progress thread:
    /// folded if it repeats a help message, written if this server is a gateway, and given
    /// to the host.
    pub(super) fn log_request(
        &self,
        r: &mut Reactor,
        source: Proc,
        data: Vec<Info>,
        directives: Vec<Info>,
        done: Done<()>,
    ) {
        let fold = !matches!(
            info_value(&directives, PMIX_LOG_AGG),
            Some(Value::Bool(false))
        );
        if fold
            && let (Some(file), Some(topic)) = (
                str_dir(&directives, PMIX_LOG_KEY),
                str_dir(&directives, PMIX_LOG_VAL),
            )
            && self.help_repeat(r, file, topic)
        {
            return done(Ok(()));
        }
        let written = self.cfg.gateway && self.write_std(&source, &data);
        if written && info_flag(&directives, PMIX_LOG_ONCE) {
            return done(Ok(()));
        }
        if !self.host.provides(Upcall::Log) {
            return done(if written {
                Ok(())
            } else {
                Err(Error::NotSupported)
            });
        }
        let done: Done<()> = if written {
            self.remember_relayed(&source, &data);
            // Written: whatever the host makes of it, the log was done.
            Box::new(move |_| done(Ok(())))
        } else {
            done
        };
        self.host.log(&source, &data, &directives, done);
    }

    /// Writes the standard output and error texts of `data`; whether there was one.
    fn write_std(&self, source: &Proc, data: &[Info]) -> bool {
        let mut any = false;
        for i in data {
            if let (Some(channel), Some(text)) = (std_channel(i), text_of(&i.value)) {
                self.write_log_output(source, channel, text);
                any = true;
            }
        }
        any
    }

    fn write_log_output(&self, source: &Proc, channel: pmix_iof_channel_t, text: &[u8]) {
        match self.log_output.get() {
            Some(f) => f(self, source, channel, text),
            None => {
                let unknown = |_: &Proc| ("unknown".to_string(), "unknown".to_string());
                self.iof_write_local(source, channel, text, &[], &unknown);
                let _ = self.iof_deliver(source, channel, text, &[]);
            }
        }
    }

    /// Whether a help message (`file`, `topic`) was written before: then its repeat is
    /// counted and a report is due within [`REPORT_EVERY`]; else it is remembered.
    fn help_repeat(&self, r: &mut Reactor, file: &[u8], topic: &[u8]) -> bool {
        let now = Instant::now();
        let mut st = self.logging.lock();
        let Some(seen) = st
            .seen
            .iter_mut()
            .find(|s| names_match(&s.file, file) && names_match(&s.topic, topic))
        else {
            st.seen.push(Seen {
                file: file.to_vec(),
                topic: topic.to_vec(),
                repeats: 0,
            });
            if st.timer.is_none() {
                st.last_report = Some(now);
            }
            return false;
        };
        seen.repeats += 1;
        if st.timer.is_none() {
            let due = st.last_report.map_or(now, |t| t + REPORT_EVERY);
            let weak = self.me.clone();
            let delay = due.saturating_duration_since(now);
            st.timer = Some(r.schedule(delay, move |_| {
                if let Some(s) = weak.upgrade() {
                    s.report_repeats(true);
                }
            }));
        }
        true
    }

    /// Reports the repeats of help messages not reported yet, one line each, from this
    /// process (as OpenPMIx does, through the log path: written here if this server is a
    /// gateway, else given to the host). At finalize (`timer` false) only a gateway writes
    /// them: the host may be going away.
    pub(super) fn report_repeats(&self, timer: bool) {
        let lines: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = {
            let mut st = self.logging.lock();
            if timer {
                st.timer = None;
            }
            st.last_report = Some(Instant::now());
            st.seen
                .iter_mut()
                .filter(|s| s.repeats > 0)
                .map(|s| {
                    let line = report_line(std::mem::take(&mut s.repeats), &s.file, &s.topic);
                    (s.file.clone(), s.topic.clone(), line)
                })
                .collect()
        };
        for (file, topic, line) in lines {
            if self.cfg.gateway {
                self.write_log_output(&self.cfg.id, PMIX_FWD_STDERR_CHANNEL, &line);
            } else if timer && self.host.provides(Upcall::Log) {
                let (data, mut dirs) = help_log(&file, &topic, &line);
                dirs.extend([
                    Info::new(PMIX_LOG_AGG.to_bytes(), Value::Bool(false)),
                    Info::new(PMIX_LOG_SOURCE.to_bytes(), Value::Proc(self.cfg.id.clone())),
                ]);
                self.host.log(&self.cfg.id, &data, &dirs, Box::new(|_| {}));
            }
        }
    }

    fn remember_relayed(&self, source: &Proc, data: &[Info]) {
        let now = Instant::now();
        let mut st = self.logging.lock();
        while st
            .relayed
            .front()
            .is_some_and(|r| now.duration_since(r.at) > RELAY_MEMORY)
            || st.relayed.len() >= RELAY_MAX
        {
            st.relayed.pop_front();
        }
        st.relayed.push_back(Relayed {
            source: source.clone(),
            texts: std_texts(data).cloned().collect(),
            at: now,
        });
    }

    /// Whether `data` of `source` is a log written here and handed to the host, which
    /// hands it back: then it is forgotten.
    fn take_relayed(&self, source: &Proc, data: &[Info]) -> bool {
        let texts: Vec<&Info> = std_texts(data).collect();
        let mut st = self.logging.lock();
        let pos = st.relayed.iter().position(|r| {
            r.source == *source
                && !r.texts.is_empty()
                && r.texts.len() == texts.len()
                && texts
                    .iter()
                    .zip(&r.texts)
                    .all(|(a, b)| a.key == b.key && a.value == b.value)
        });
        pos.and_then(|p| st.relayed.remove(p)).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_as_openpmix_matches_them() {
        assert!(names_match(b"help-x.txt", b"help-x.txt"));
        assert!(!names_match(b"help-x.txt", b"help-y.txt"));
        assert!(names_match(b"help-*", b"help-x.txt"));
        assert!(names_match(b"help-x.txt", b"help-x*"));
        assert!(!names_match(b"help-y*", b"help-x.txt"));
        assert!(names_match(b"*", b"anything"));
    }

    #[test]
    fn report_lines_say_process_or_processes() {
        assert_eq!(
            report_line(1, b"f.txt", b"t"),
            b"1 more process has sent help message f.txt / t\n"
        );
        assert_eq!(
            report_line(3, b"f.txt", b"t"),
            b"3 more processes have sent help message f.txt / t\n"
        );
    }
}
