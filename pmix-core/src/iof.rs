//! I/O forwarding pieces shared by the three places that handle forwarded output: the
//! server (the cache of output no tool has pulled yet), the tool side of the library
//! (formatting, files, buffering of what it receives) and pmixrun (its own `--tag-output`,
//! `--timestamp-output`, `--output-filename`). One formatter, so that the same attributes
//! give the same bytes wherever they are applied.
//!
//! Formats follow OpenPMIx (see `docs/notes/iof.md`): `[jobid,rank]<stdout>: ` for
//! `PMIX_IOF_TAG_OUTPUT`, `[rank]<stdout>: ` for `PMIX_IOF_RANK_OUTPUT`, a `ctime(3)`
//! timestamp in brackets before the tag (or `[time]<stdout>: ` alone), and
//! `<stdout rank="0">…</stdout>` lines for `PMIX_IOF_XML_OUTPUT`. Formatting works on whole
//! lines: a partial line waits for the rest of its line (or for the end of the stream,
//! when it is written with a newline added); `PMIX_IOF_OUTPUT_RAW` decorates each chunk
//! as it comes instead. Without any decoration the bytes pass through untouched.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use pmix_sys::*;

use crate::values::{Info, Proc, Value, info_flag, info_value};

/// The output attributes of a `PMIx_IOF_pull` (or of pmixrun's command line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IofFlags {
    /// `[jobid,rank]<channel>: ` (`PMIX_IOF_TAG_OUTPUT`).
    pub tag: bool,
    /// `[nspace,rank]<channel>: ` (`PMIX_IOF_TAG_FULLNAME_OUTPUT`).
    pub tag_fullname: bool,
    /// `[jobid,rank][host:pid]<channel>: ` (`PMIX_IOF_TAG_DETAILED_OUTPUT`; with
    /// `tag_fullname` the whole namespace); the `[host:pid]` part is the line state's
    /// ([`LineState::with_detail`]).
    pub tag_detailed: bool,
    /// `[rank]<channel>: ` (`PMIX_IOF_RANK_OUTPUT`).
    pub rank: bool,
    /// `[Wed Nov 25 12:00:06 2026]` first (`PMIX_IOF_TIMESTAMP_OUTPUT`).
    pub timestamp: bool,
    /// `<stdout rank="0">…</stdout>` (`PMIX_IOF_XML_OUTPUT`).
    pub xml: bool,
    /// Files `<file>.<nspace>.<rank>.out|.err` (`PMIX_IOF_OUTPUT_TO_FILE`).
    pub file: Option<PathBuf>,
    /// `file` is used as given, plus `.out`/`.err` (`PMIX_IOF_FILE_PATTERN`).
    pub pattern: bool,
    /// Files `<dir>/<nspace>/rank.<rank>/stdout|stderr` (`PMIX_IOF_OUTPUT_TO_DIRECTORY`).
    pub directory: Option<PathBuf>,
    /// Only the files get the output (`PMIX_IOF_FILE_ONLY`).
    pub file_only: bool,
    /// stderr goes where stdout goes (`PMIX_IOF_MERGE_STDERR_STDOUT`).
    pub merge: bool,
    /// Decorate chunks as they come, not whole lines (`PMIX_IOF_OUTPUT_RAW`).
    pub raw: bool,
    /// Deliver in chunks of at least this many bytes (`PMIX_IOF_BUFFERING_SIZE`; 0: as
    /// the data comes).
    pub buffering_size: usize,
    /// Hold buffered output at most this long (`PMIX_IOF_BUFFERING_TIME`).
    pub buffering_time: Option<Duration>,
}

fn string_attr(info: &[Info], key: &core::ffi::CStr) -> Option<PathBuf> {
    match info_value(info, key)? {
        Value::String(Some(s)) => Some(PathBuf::from(s.to_string())),
        _ => None,
    }
}

impl IofFlags {
    /// The output attributes among `info` (others are ignored).
    pub fn from_info(info: &[Info]) -> IofFlags {
        let num = |k| info_value(info, k).and_then(Value::as_u64);
        IofFlags {
            tag: info_flag(info, PMIX_IOF_TAG_OUTPUT) || info_flag(info, PMIX_TAG_OUTPUT),
            tag_fullname: info_flag(info, PMIX_IOF_TAG_FULLNAME_OUTPUT),
            tag_detailed: info_flag(info, PMIX_IOF_TAG_DETAILED_OUTPUT),
            rank: info_flag(info, PMIX_IOF_RANK_OUTPUT),
            timestamp: info_flag(info, PMIX_IOF_TIMESTAMP_OUTPUT)
                || info_flag(info, PMIX_TIMESTAMP_OUTPUT),
            xml: info_flag(info, PMIX_IOF_XML_OUTPUT),
            file: string_attr(info, PMIX_IOF_OUTPUT_TO_FILE)
                .or_else(|| string_attr(info, PMIX_OUTPUT_TO_FILE)),
            pattern: info_flag(info, PMIX_IOF_FILE_PATTERN),
            directory: string_attr(info, PMIX_IOF_OUTPUT_TO_DIRECTORY)
                .or_else(|| string_attr(info, PMIX_OUTPUT_TO_DIRECTORY)),
            file_only: info_flag(info, PMIX_IOF_FILE_ONLY) || info_flag(info, PMIX_OUTPUT_NOCOPY),
            merge: info_flag(info, PMIX_IOF_MERGE_STDERR_STDOUT)
                || info_flag(info, PMIX_MERGE_STDERR_STDOUT),
            raw: info_flag(info, PMIX_IOF_OUTPUT_RAW),
            buffering_size: num(PMIX_IOF_BUFFERING_SIZE).unwrap_or(0) as usize,
            buffering_time: num(PMIX_IOF_BUFFERING_TIME)
                .filter(|&s| s > 0)
                .map(Duration::from_secs),
        }
    }

    /// Whether lines get a prefix or XML markup.
    pub fn decorates(&self) -> bool {
        self.tag
            || self.tag_fullname
            || self.tag_detailed
            || self.rank
            || self.timestamp
            || self.xml
    }

    /// Whether output goes to files.
    pub fn to_files(&self) -> bool {
        self.file.is_some() || self.directory.is_some()
    }
}

// ---- time --------------------------------------------------------------------------------

/// The offset of local time from UTC, in seconds, at a given Unix time. The core has no
/// access to the time zone database; the C layer and pmixrun install `localtime_r`'s
/// answer here. Without it, timestamps are in UTC.
static UTC_OFFSET: OnceLock<fn(i64) -> i64> = OnceLock::new();

/// Installs the local time zone (see [`UTC_OFFSET`]); the first call wins.
pub fn set_utc_offset(f: fn(i64) -> i64) {
    let _ = UTC_OFFSET.set(f);
}

/// `secs` since the epoch as `ctime(3)` prints it, without its newline:
/// `Wed Nov 25 12:00:06 2026`, in local time when known.
pub fn ctime(secs: i64) -> String {
    let local = secs + UTC_OFFSET.get().map_or(0, |f| f(secs));
    crate::print::Tm::utc(local)
        .and_then(|t| t.asctime())
        .unwrap_or_default()
}

fn now_ctime() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    ctime(secs)
}

// ---- formatting --------------------------------------------------------------------------

/// A rank as the reference prints one in tags.
fn rank_text(rank: pmix_rank_t) -> String {
    match rank {
        PMIX_RANK_WILDCARD => "WILDCARD".into(),
        PMIX_RANK_UNDEF => "UNDEF".into(),
        PMIX_RANK_LOCAL_NODE => "LOCALNODE".into(),
        PMIX_RANK_LOCAL_PEERS => "LOCALPEERS".into(),
        PMIX_RANK_INVALID => "INVALID".into(),
        r => r.to_string(),
    }
}

/// The name of a channel in tags.
pub fn channel_name(channel: pmix_iof_channel_t) -> &'static str {
    if channel & PMIX_FWD_STDOUT_CHANNEL != 0 {
        "stdout"
    } else if channel & PMIX_FWD_STDERR_CHANNEL != 0 {
        "stderr"
    } else if channel & PMIX_FWD_STDDIAG_CHANNEL != 0 {
        "stddiag"
    } else {
        "stdin"
    }
}

/// The part of an nspace after its last '@' (the reference's "local jobid"), or all of it.
fn jobid(nspace: &str) -> (&str, bool) {
    match nspace.rfind('@') {
        Some(i) => (&nspace[i + 1..], true),
        None => (nspace, false),
    }
}

/// Appends `line` (one line, or one chunk in raw mode) decorated per `flags`.
fn decorate(
    flags: &IofFlags,
    source: &Proc,
    channel: pmix_iof_channel_t,
    line: &[u8],
    detail: &str,
    out: &mut Vec<u8>,
) {
    let suffix = channel_name(channel);
    let ns = source.nspace.to_str_lossy();
    let rank = rank_text(source.rank);
    let stamp = flags.timestamp.then(now_ctime);
    if flags.xml {
        let begin = if flags.tag {
            let (id, is_job) = jobid(&ns);
            let attr = if is_job { "jobid" } else { "nspace" };
            format!("<{suffix} {attr}=\"{id}\" rank=\"{rank}\"")
        } else if flags.tag_fullname {
            format!("<{suffix} nspace=\"{ns}\" rank=\"{rank}\"")
        } else {
            format!("<{suffix} rank=\"{rank}\"")
        };
        out.extend_from_slice(begin.as_bytes());
        if let Some(t) = stamp {
            out.extend_from_slice(format!(" timestamp=\"{t}\"").as_bytes());
        }
        out.push(b'>');
        for &b in line {
            match b {
                b'&' => out.extend_from_slice(b"&amp;"),
                b'<' => out.extend_from_slice(b"&lt;"),
                b'>' => out.extend_from_slice(b"&gt;"),
                0x20..=0x7e => out.push(b),
                _ => out.extend_from_slice(format!("&#{b:03};").as_bytes()),
            }
        }
        out.extend_from_slice(format!("</{suffix}>\n").as_bytes());
        return;
    }
    let named = flags.tag || flags.tag_fullname || flags.tag_detailed || flags.rank;
    if let Some(t) = stamp {
        if named {
            out.extend_from_slice(format!("[{t}]").as_bytes());
        } else {
            out.extend_from_slice(format!("[{t}]<{suffix}>: ").as_bytes());
        }
    }
    let tag = if flags.tag {
        format!("[{},{rank}]<{suffix}>: ", jobid(&ns).0)
    } else if flags.tag_detailed {
        let id = if flags.tag_fullname {
            &*ns
        } else {
            jobid(&ns).0
        };
        format!("[{id},{rank}]{detail}<{suffix}>: ")
    } else if flags.tag_fullname {
        format!("[{ns},{rank}]<{suffix}>: ")
    } else if flags.rank {
        format!("[{rank}]<{suffix}>: ")
    } else {
        String::new()
    };
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(line);
}

/// The formatting state of one source's channel: the start of a line not yet complete.
#[derive(Debug, Default)]
pub struct LineState {
    partial: Vec<u8>,
    /// The `[host:pid]` of `PMIX_IOF_TAG_DETAILED_OUTPUT`.
    detail: String,
}

impl LineState {
    /// A state whose lines carry `[host:pid]` with `PMIX_IOF_TAG_DETAILED_OUTPUT`.
    pub fn with_detail(host: &str, pid: &str) -> LineState {
        LineState {
            partial: Vec::new(),
            detail: format!("[{host}:{pid}]"),
        }
    }

    /// Appends to `out` what `data` makes ready: the bytes themselves without decoration;
    /// complete lines, each decorated; in raw mode the chunk, decorated.
    pub fn push(
        &mut self,
        flags: &IofFlags,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: &[u8],
        out: &mut Vec<u8>,
    ) {
        if !flags.decorates() {
            out.extend_from_slice(data);
            return;
        }
        if flags.raw {
            if !data.is_empty() {
                decorate(flags, source, channel, data, &self.detail, out);
            }
            return;
        }
        let Some(last_nl) = data.iter().rposition(|&b| b == b'\n') else {
            self.partial.extend_from_slice(data);
            return;
        };
        let (lines, rest) = data.split_at(last_nl + 1);
        let mut first = true;
        for line in lines.split_inclusive(|&b| b == b'\n') {
            if first && !self.partial.is_empty() {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(line);
                decorate(flags, source, channel, &whole, &self.detail, out);
            } else {
                decorate(flags, source, channel, line, &self.detail, out);
            }
            first = false;
        }
        self.partial.extend_from_slice(rest);
    }

    /// Appends the last, unterminated line at the end of the stream (with a newline added
    /// when decorated, so that the next line of output starts on its own line).
    pub fn finish(
        &mut self,
        flags: &IofFlags,
        source: &Proc,
        channel: pmix_iof_channel_t,
        out: &mut Vec<u8>,
    ) {
        if self.partial.is_empty() {
            return;
        }
        let mut last = std::mem::take(&mut self.partial);
        if !flags.xml {
            last.push(b'\n');
        }
        decorate(flags, source, channel, &last, &self.detail, out);
    }
}

/// Writes output to this process's own stdout (the stdout channel) or stderr (the others).
pub fn write_own(channel: pmix_iof_channel_t, data: &[u8]) {
    use std::io::Write as _;
    if data.is_empty() {
        return;
    }
    if channel & PMIX_FWD_STDOUT_CHANNEL == 0 {
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(data);
        let _ = e.flush();
    } else {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(data);
        let _ = o.flush();
    }
}

// ---- files -------------------------------------------------------------------------------

/// Digits of the highest rank of a job of `nprocs`, as the reference pads ranks in file
/// names (one more digit per power of ten in `nprocs / 10`).
pub fn rank_digits(nprocs: u32) -> usize {
    let mut d = 1;
    let mut n = nprocs / 10;
    while n > 0 {
        d += 1;
        n /= 10;
    }
    d
}

/// The file that receives `source`'s output on `channel` under `flags`, if any:
/// `<dir>/<nspace>/rank.<N>/stdout|stderr` or `<file>.<nspace>.<N>.out|.err` (merged
/// output goes to the stdout file). `digits` pads the rank.
pub fn output_path(
    flags: &IofFlags,
    source: &Proc,
    channel: pmix_iof_channel_t,
    digits: usize,
) -> Option<PathBuf> {
    let err = !flags.merge && channel & PMIX_FWD_STDOUT_CHANNEL == 0;
    let ns = source.nspace.to_string();
    let rank = format!("{:0digits$}", source.rank);
    if let Some(dir) = &flags.directory {
        let d = dir.join(&ns).join(format!("rank.{rank}"));
        return Some(d.join(if err { "stderr" } else { "stdout" }));
    }
    let file = flags.file.as_ref()?;
    let ext = if err { "err" } else { "out" };
    let mut name = file.as_os_str().to_os_string();
    if flags.pattern {
        name.push(format!(".{ext}"));
    } else {
        name.push(format!(".{ns}.{rank}.{ext}"));
    }
    Some(PathBuf::from(name))
}

/// Appends `data` to the output file `path`, created (truncated) at its first use and kept
/// open in `files`; a file that cannot be created is said once on stderr, and what was meant
/// for it dropped.
pub fn write_to_file(
    files: &mut HashMap<PathBuf, Option<std::fs::File>>,
    path: PathBuf,
    data: &[u8],
) {
    use std::io::Write as _;
    let f = files
        .entry(path)
        .or_insert_with_key(|p| match create_output_file(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("pmix: cannot create the output file {}: {e}", p.display());
                None
            }
        });
    if let Some(f) = f
        && !data.is_empty()
    {
        let _ = f.write_all(data);
    }
}

/// Creates `path` (and its directories), truncated, as the reference does.
pub fn create_output_file(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::File::create(path)
}

// ---- the server's cache ------------------------------------------------------------------

/// What the server keeps of output that no tool has pulled yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CachePolicy {
    /// Bytes kept per source and channel (`PMIX_IOF_CACHE_SIZE`).
    pub size: usize,
    /// On overflow drop the oldest bytes (`PMIX_IOF_DROP_OLDEST`), else the newest
    /// (`PMIX_IOF_DROP_NEWEST`, the default).
    pub drop_oldest: bool,
}

/// The default cache: 1 MiB per source and channel, keeping the first bytes.
pub const DEFAULT_CACHE: CachePolicy = CachePolicy {
    size: 1 << 20,
    drop_oldest: false,
};

impl CachePolicy {
    /// `base` changed by the cache attributes among `info`.
    pub fn from_info(base: CachePolicy, info: &[Info]) -> CachePolicy {
        let mut p = base;
        if let Some(n) = info_value(info, PMIX_IOF_CACHE_SIZE).and_then(Value::as_u64) {
            p.size = n as usize;
        }
        if info_flag(info, PMIX_IOF_DROP_OLDEST) {
            p.drop_oldest = true;
        } else if info_flag(info, PMIX_IOF_DROP_NEWEST) {
            p.drop_oldest = false;
        }
        p
    }
}

/// The cached output of one source on one channel.
#[derive(Debug, Default)]
pub struct CachedStream {
    chunks: VecDeque<Vec<u8>>,
    bytes: usize,
    /// Bytes dropped for lack of room.
    pub dropped: usize,
    /// The source closed the channel (`PMIX_IOF_COMPLETE`).
    pub complete: bool,
}

impl CachedStream {
    /// Adds `data` within `policy`.
    pub fn add(&mut self, policy: CachePolicy, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        if policy.drop_oldest {
            let keep = data.len().min(policy.size);
            self.dropped += data.len() - keep;
            let data = &data[data.len() - keep..];
            let mut excess = (self.bytes + keep).saturating_sub(policy.size);
            while excess > 0 {
                let Some(front) = self.chunks.front_mut() else {
                    break;
                };
                if front.len() <= excess {
                    excess -= front.len();
                    self.bytes -= front.len();
                    self.dropped += front.len();
                    self.chunks.pop_front();
                } else {
                    front.drain(..excess);
                    self.bytes -= excess;
                    self.dropped += excess;
                    excess = 0;
                }
            }
            if keep > 0 {
                self.chunks.push_back(data.to_vec());
                self.bytes += keep;
            }
        } else {
            let room = policy.size.saturating_sub(self.bytes);
            let keep = data.len().min(room);
            self.dropped += data.len() - keep;
            if keep > 0 {
                self.chunks.push_back(data[..keep].to_vec());
                self.bytes += keep;
            }
        }
    }

    /// The cached bytes, in order, limited by `policy` (a pull's own cache size and drop
    /// rule choose which part it receives).
    pub fn take(self, policy: CachePolicy) -> Vec<Vec<u8>> {
        let mut trimmed = CachedStream::default();
        for c in self.chunks {
            trimmed.add(policy, &c);
        }
        trimmed.chunks.into()
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.bytes
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }
}

/// Cached output by source and channel, in the order the streams first appeared.
#[derive(Debug, Default)]
pub struct IofCache {
    streams: HashMap<(Proc, pmix_iof_channel_t), CachedStream>,
    order: Vec<(Proc, pmix_iof_channel_t)>,
}

impl IofCache {
    /// Keeps `data` (or the end of the stream) of `source` on `channel`.
    pub fn add(
        &mut self,
        policy: CachePolicy,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: &[u8],
        complete: bool,
    ) {
        let key = (source.clone(), channel);
        let s = self.streams.entry(key.clone()).or_insert_with(|| {
            self.order.push(key);
            CachedStream::default()
        });
        s.add(policy, data);
        s.complete |= complete;
    }

    /// Removes and returns the streams `wants` selects, in order.
    pub fn take_matching(
        &mut self,
        wants: impl Fn(&Proc, pmix_iof_channel_t) -> bool,
    ) -> Vec<(Proc, pmix_iof_channel_t, CachedStream)> {
        let mut out = Vec::new();
        let mut keep = Vec::new();
        for key in std::mem::take(&mut self.order) {
            if wants(&key.0, key.1) {
                if let Some(s) = self.streams.remove(&key) {
                    out.push((key.0, key.1, s));
                }
            } else {
                keep.push(key);
            }
        }
        self.order = keep;
        out
    }

    /// Forgets the output of a namespace.
    pub fn remove_nspace(&mut self, nspace: &crate::values::PStr) {
        self.streams.retain(|k, _| &k.0.nspace != nspace);
        self.order.retain(|k| &k.0.nspace != nspace);
    }
}

/// Whether `info` marks the end of a stream (`PMIX_IOF_COMPLETE`).
pub fn is_complete(info: &[Info]) -> bool {
    info_flag(info, PMIX_IOF_COMPLETE)
}

/// `PMIX_IOF_PUSH_STDIN`: reads this process's stdin on a thread of its own and hands each
/// chunk to `push` with `directives` (less `PMIX_IOF_PUSH_STDIN`), then, with `end`, the end
/// of input (no data, `PMIX_IOF_COMPLETE` added). Stops at the first chunk `push` fails.
pub fn forward_stdin(
    directives: &[Info],
    end: bool,
    push: impl Fn(Option<&[u8]>, &[Info]) -> crate::Result<()> + Send + 'static,
) -> crate::Result<()> {
    let dirs: Vec<Info> = directives
        .iter()
        .filter(|i| !i.is(PMIX_IOF_PUSH_STDIN))
        .cloned()
        .collect();
    std::thread::Builder::new()
        .name("pmix-iof-stdin".into())
        .spawn(move || {
            let eof = copy_stdin(|chunk| push(Some(chunk), &dirs).is_ok());
            if eof && end {
                let mut last = dirs.clone();
                last.push(Info::new(PMIX_IOF_COMPLETE.to_bytes(), Value::Bool(true)));
                // An empty byte object, as OpenPMIx's tools send at the end of input
                // (PRRTE's stdin upcall reads the byte object it is given).
                let _ = push(Some(&[]), &last);
            }
        })
        .map_err(|_| crate::Error::NoMem)?;
    Ok(())
}

/// Reads this process's stdin until end of file or a read error (an interrupted read is
/// retried), handing each chunk (at most 64 KiB) to `chunk`, on the calling thread. Returns
/// false as soon as `chunk` refuses one (returns false), true at the end of input.
pub fn copy_stdin(mut chunk: impl FnMut(&[u8]) -> bool) -> bool {
    use std::io::Read as _;
    let mut buf = vec![0u8; 64 * 1024];
    let mut input = std::io::stdin();
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return true,
        };
        if !chunk(&buf[..n]) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src() -> Proc {
        Proc::new("ns", 3)
    }

    fn run(flags: &IofFlags, chunks: &[&[u8]]) -> String {
        let mut st = LineState::default();
        let mut out = Vec::new();
        for c in chunks {
            st.push(flags, &src(), PMIX_FWD_STDOUT_CHANNEL, c, &mut out);
        }
        st.finish(flags, &src(), PMIX_FWD_STDOUT_CHANNEL, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ctime_matches_the_c_library_in_utc() {
        assert_eq!(ctime(0), "Thu Jan  1 00:00:00 1970");
        assert_eq!(ctime(1_795_608_006), "Wed Nov 25 12:00:06 2026");
        assert_eq!(ctime(951_782_400), "Tue Feb 29 00:00:00 2000");
    }

    #[test]
    fn undecorated_output_passes_through() {
        let f = IofFlags::default();
        assert_eq!(run(&f, &[b"a", b"b\nc"]), "ab\nc");
    }

    /// `PMIX_IOF_TAG_DETAILED_OUTPUT`, as OpenPMIx 5.0.11 writes it for prterun's
    /// `--output tag-detailed` (and with `tag-fullname`): compared in `make prrte`.
    #[test]
    fn detailed_tags_carry_the_host_and_pid_of_the_line_state() {
        let mut f = IofFlags {
            tag_detailed: true,
            ..IofFlags::default()
        };
        let p = Proc::new("prterun-vm-5@1", 0);
        let mut out = Vec::new();
        let mut st = LineState::with_detail("vm", "4242");
        st.push(&f, &p, PMIX_FWD_STDERR_CHANNEL, b"a\nb", &mut out);
        st.finish(&f, &p, PMIX_FWD_STDERR_CHANNEL, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[1,0][vm:4242]<stderr>: a\n[1,0][vm:4242]<stderr>: b\n"
        );
        f.tag_fullname = true;
        let mut out = Vec::new();
        LineState::with_detail("vm", "unknown").push(
            &f,
            &p,
            PMIX_FWD_STDOUT_CHANNEL,
            b"x\n",
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[prterun-vm-5@1,0][vm:unknown]<stdout>: x\n"
        );
    }

    #[test]
    fn tags_are_per_line_and_a_last_line_gets_its_newline() {
        let f = IofFlags {
            tag: true,
            ..IofFlags::default()
        };
        assert_eq!(
            run(&f, &[b"one\ntw", b"o\nthr", b"ee"]),
            "[ns,3]<stdout>: one\n[ns,3]<stdout>: two\n[ns,3]<stdout>: three\n"
        );
        let f = IofFlags {
            rank: true,
            ..IofFlags::default()
        };
        assert_eq!(run(&f, &[b"x\n"]), "[3]<stdout>: x\n");
        let f = IofFlags {
            tag: true,
            ..IofFlags::default()
        };
        let mut out = Vec::new();
        LineState::default().push(
            &f,
            &Proc::new("prte-host-1@2", 0),
            PMIX_FWD_STDERR_CHANNEL,
            b"e\n",
            &mut out,
        );
        assert_eq!(out, b"[2,0]<stderr>: e\n");
    }

    #[test]
    fn raw_mode_decorates_chunks() {
        let f = IofFlags {
            rank: true,
            raw: true,
            ..IofFlags::default()
        };
        assert_eq!(run(&f, &[b"a", b"b\n"]), "[3]<stdout>: a[3]<stdout>: b\n");
    }

    #[test]
    fn xml_escapes_and_closes_each_line() {
        let f = IofFlags {
            xml: true,
            ..IofFlags::default()
        };
        assert_eq!(
            run(&f, &[b"a<b>&c\n", b"d"]),
            "<stdout rank=\"3\">a&lt;b&gt;&amp;c&#010;</stdout>\n<stdout rank=\"3\">d</stdout>\n"
        );
    }

    #[test]
    fn timestamps_come_first() {
        let f = IofFlags {
            timestamp: true,
            tag: true,
            ..IofFlags::default()
        };
        let s = run(&f, &[b"x\n"]);
        assert!(
            s.starts_with('[') && s.ends_with("][ns,3]<stdout>: x\n"),
            "{s}"
        );
        assert_eq!(s.find(']'), Some(25), "{s}");
        let f = IofFlags {
            timestamp: true,
            ..IofFlags::default()
        };
        let s = run(&f, &[b"x\n"]);
        assert!(s.ends_with("]<stdout>: x\n"), "{s}");
    }

    #[test]
    fn file_names() {
        let f = IofFlags {
            directory: Some("/d".into()),
            ..IofFlags::default()
        };
        let p = |f: &IofFlags, ch, d| output_path(f, &src(), ch, d).unwrap();
        assert_eq!(
            p(&f, PMIX_FWD_STDOUT_CHANNEL, 1),
            PathBuf::from("/d/ns/rank.3/stdout")
        );
        assert_eq!(
            p(&f, PMIX_FWD_STDERR_CHANNEL, 2),
            PathBuf::from("/d/ns/rank.03/stderr")
        );
        let f = IofFlags {
            file: Some("/d/out".into()),
            ..IofFlags::default()
        };
        assert_eq!(
            p(&f, PMIX_FWD_STDERR_CHANNEL, 1),
            PathBuf::from("/d/out.ns.3.err")
        );
        let f = IofFlags {
            file: Some("/d/out".into()),
            pattern: true,
            merge: true,
            ..IofFlags::default()
        };
        assert_eq!(
            p(&f, PMIX_FWD_STDERR_CHANNEL, 1),
            PathBuf::from("/d/out.out")
        );
        assert_eq!(rank_digits(4), 1);
        assert_eq!(rank_digits(10), 2);
        assert_eq!(rank_digits(99), 2);
        assert_eq!(rank_digits(100), 3);
    }

    #[test]
    fn cache_drops_per_policy() {
        let newest = CachePolicy {
            size: 5,
            drop_oldest: false,
        };
        let oldest = CachePolicy {
            size: 5,
            drop_oldest: true,
        };
        let mut s = CachedStream::default();
        s.add(newest, b"abc");
        s.add(newest, b"defg");
        assert_eq!(s.dropped, 2);
        assert_eq!(s.take(DEFAULT_CACHE).concat(), b"abcde");
        let mut s = CachedStream::default();
        s.add(oldest, b"abc");
        s.add(oldest, b"defg");
        s.add(oldest, b"hijklmn");
        assert_eq!(s.dropped, 9);
        assert_eq!(s.take(DEFAULT_CACHE).concat(), b"jklmn");
        // A pull's own limit applies to what it receives.
        let mut s = CachedStream::default();
        s.add(DEFAULT_CACHE, b"0123456789");
        assert_eq!(s.take(oldest).concat(), b"56789");
        let mut c = IofCache::default();
        c.add(DEFAULT_CACHE, &src(), PMIX_FWD_STDOUT_CHANNEL, b"x", false);
        c.add(
            DEFAULT_CACHE,
            &Proc::new("ns", 1),
            PMIX_FWD_STDOUT_CHANNEL,
            b"y",
            true,
        );
        let got = c.take_matching(|p, _| p.rank == 1);
        assert_eq!(got.len(), 1);
        assert!(got[0].2.complete);
        assert_eq!(c.take_matching(|_, _| true).len(), 1);
    }
}
