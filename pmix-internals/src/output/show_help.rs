//! Help messages (`pmix_show_help*`): a topic `[name]` of a help file, found in the search
//! directories, made into one text (blank lines at both ends dropped, `#` comment lines
//! skipped, `#include#file#topic` lines replaced by that topic's lines, an optional dashed
//! line above and below), then formatted as a printf format with the caller's arguments.
//!
//! The search directories are the install's data directory (`pmixdatadir` of
//! `pmix_pinstall_dirs`, when set) and then every one added with `pmix_show_help_add_dir`,
//! in order. In each, the file is `<dir>/<file>`, else `<dir>/<file>.txt`; with no file name,
//! `help-messages`. A file found in none prints OpenPMIx's "Sorry! You were supposed to get
//! help about" message naming the paths tried; a topic missing from the file, or with no
//! non-blank line, gives no message (NULL), as OpenPMIx's.
//!
//! Lines are read as OpenPMIx reads them: in pieces of at most 1023 bytes, each losing its
//! last byte (the newline, or a real character on a last line without one).
//!
//! Messages go to stderr, unless a sink takes them ([`set_sink`]): libpmix sets one that
//! logs them in a server process (`PMIX_LOG_STDERR`, with the file and topic as
//! `PMIX_LOG_KEY` and `PMIX_LOG_VAL`), where repeats fold into "N more processes have sent
//! help message" lines, as OpenPMIx does once it is initialized. In a client or tool they go
//! to stderr (OpenPMIx 5.0.11 drops them in a client: its log path there has no channel).
//!
//! The entry points that take C variadic arguments or a `va_list` are C
//! (`csrc/variadic.c`): they get the unformatted text from `pmixrs_show_help_load`, format it
//! with `vasprintf`, and print through `pmixrs_show_help_deliver`.

use core::ffi::{CStr, c_char, c_int};
use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::sync::Mutex;

use super::os_path::{c_string, os_path};

const DASH_LINE: &[u8] =
    b"--------------------------------------------------------------------------\n";
const DEFAULT_FILE: &[u8] = b"help-messages";
/// OpenPMIx reads help lines with a buffer of this many bytes.
const LINE_BUFFER: usize = 1024;
/// How deep `#include#` may nest (OpenPMIx has no limit and overflows its stack).
const MAX_INCLUDE_DEPTH: usize = 32;
/// Index of `pmixdatadir` among the 17 pointers of `pmix_pinstall_dirs_t`.
pub(crate) const PMIXDATADIR: usize = 14;

const PMIX_SUCCESS: c_int = 0;

unsafe extern "C" {
    /// The install directories (owned by the MCA framework family): 17 `char *`.
    static pmix_pinstall_dirs: [*mut c_char; 17];
}

/// Directories added with `pmix_show_help_add_dir`, in order.
static ADDED: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// Adds a directory to search for help files (`pmix_show_help_add_dir`).
pub fn add_dir(dir: &[u8]) {
    ADDED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_vec());
}

fn search_dirs() -> Vec<Vec<u8>> {
    let mut dirs = Vec::new();
    // SAFETY: reading one pointer of the exported table (through the symbol); it is NULL or
    // a C string. Unaligned: the table's definition may be a byte array for now.
    unsafe {
        let base = (&raw const pmix_pinstall_dirs).cast::<*mut c_char>();
        let data = core::ptr::read_unaligned(base.add(PMIXDATADIR));
        if !data.is_null() {
            dirs.push(CStr::from_ptr(data).to_bytes().to_vec());
        }
    }
    dirs.extend(
        ADDED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned(),
    );
    dirs
}

fn strerror(code: i32) -> String {
    let mut buf = [0 as c_char; 256];
    // SAFETY: the XSI strerror_r fills a buffer of the length given, terminated.
    let rc = unsafe { libc::strerror_r(code, buf.as_mut_ptr(), buf.len()) };
    if rc != 0 {
        return format!("Unknown error {code}");
    }
    // SAFETY: terminated by strerror_r.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// Opens a path as `fopen(path, "r")` would, and reads it all; a file that opens but
/// cannot be read (a directory) reads as empty.
fn read_file(path: &[u8]) -> Result<Vec<u8>, i32> {
    let mut f = std::fs::File::open(OsStr::from_bytes(path))
        .map_err(|e| e.raw_os_error().unwrap_or(libc::EIO))?;
    let mut data = Vec::new();
    if f.read_to_end(&mut data).is_err() {
        data.clear();
    }
    Ok(data)
}

/// Where help messages go once the library has a server up: `(file, topic, message)`,
/// true when taken.
pub type HelpSink = fn(&[u8], &[u8], &[u8]) -> bool;

static SINK: std::sync::OnceLock<HelpSink> = std::sync::OnceLock::new();

/// Sets where help messages go once something takes them (libpmix's server logging: folded
/// repeats, written where the job's output goes); the first setting stays.
pub fn set_sink(sink: HelpSink) {
    let _ = SINK.set(sink);
}

/// Prints a message where help messages go: the sink, if it takes it, else stderr.
pub fn deliver(file: &[u8], topic: &[u8], msg: &[u8]) {
    if SINK.get().is_some_and(|f| f(file, topic, msg)) {
        return;
    }
    super::to_stderr(msg);
}

/// The contents of help file `base` from the first search directory that has it; if none
/// has, prints the "Sorry!" message with the paths tried.
fn open_file(base: &[u8], topic: &[u8]) -> Result<Vec<u8>, ()> {
    let mut tried: Vec<String> = Vec::new();
    for dir in search_dirs() {
        let first = os_path(false, &[&dir, base]);
        let err = match first.as_deref().map(read_file) {
            Some(Ok(data)) => return Ok(data),
            Some(Err(e)) => e,
            None => libc::EFAULT,
        };
        let shown = first.as_deref().map_or_else(
            || "(null)".to_string(),
            |p| String::from_utf8_lossy(p).into_owned(),
        );
        tried.push(format!("    {shown}: {}", strerror(err)));
        if !base.ends_with(b".txt") {
            let mut second = dir.clone();
            second.push(b'/');
            second.extend_from_slice(base);
            second.extend_from_slice(b".txt");
            if let Ok(data) = read_file(&second) {
                return Ok(data);
            }
        }
    }
    let mut msg = DASH_LINE.to_vec();
    msg.extend_from_slice(b"Sorry!  You were supposed to get help about:\n    ");
    msg.extend_from_slice(topic);
    msg.extend_from_slice(b"\nBut I couldn't open the help file:\n");
    msg.extend_from_slice(tried.join("\n").as_bytes());
    msg.extend_from_slice(b".\nSorry!\n");
    msg.extend_from_slice(DASH_LINE);
    deliver(tried.join("\n").as_bytes(), topic, &msg);
    Err(())
}

/// The lines of a help file as OpenPMIx's reader cuts them.
struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = &self.data[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let room = rest.len().min(LINE_BUFFER - 1);
        let len = rest[..room]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(room, |n| n + 1);
        self.pos += len;
        let piece = &rest[..len];
        let piece = &piece[..piece.iter().position(|&b| b == 0).unwrap_or(len)];
        Some(piece.split_last().map_or(piece, |(_, head)| head))
    }
}

/// Moves `lines` past the line `[topic]`; false if there is none.
fn find_topic(lines: &mut Lines<'_>, topic: &[u8]) -> bool {
    for line in lines {
        if line.first() != Some(&b'[') {
            continue;
        }
        if let Some(end) = line.iter().position(|&b| b == b']') {
            if &line[1..end] == topic {
                return true;
            }
        }
    }
    false
}

/// Appends the lines of the topic `lines` is at, less blank lines at both ends, to `out`.
fn read_topic(lines: &mut Lines<'_>, out: &mut Vec<Vec<u8>>, depth: usize) -> Result<(), ()> {
    let mut got: Vec<Vec<u8>> = Vec::new();
    for line in lines {
        if let Some(what) = line.strip_prefix(b"#include#") {
            if what.is_empty() {
                return Err(());
            }
            let (file, topic) = match what.iter().position(|&b| b == b'#') {
                Some(n) => (&what[..n], &what[n + 1..]),
                // OpenPMIx dereferences the missing topic and crashes.
                None => return Err(()),
            };
            load(Some(file), topic, &mut got, depth + 1)?;
        }
        if line.first() == Some(&b'#') {
            continue;
        }
        if line.first() == Some(&b'[') {
            break;
        }
        got.push(line.to_vec());
    }
    let first = got.iter().position(|l| !l.is_empty()).ok_or(())?;
    let last = got.iter().rposition(|l| !l.is_empty()).ok_or(())?;
    out.extend(got.drain(first..=last));
    Ok(())
}

/// Appends the lines of `topic` in help file `file` to `out`.
fn load(file: Option<&[u8]>, topic: &[u8], out: &mut Vec<Vec<u8>>, depth: usize) -> Result<(), ()> {
    if depth > MAX_INCLUDE_DEPTH {
        return Err(());
    }
    let data = open_file(file.unwrap_or(DEFAULT_FILE), topic)?;
    let mut lines = Lines {
        data: &data,
        pos: 0,
    };
    if !find_topic(&mut lines, topic) {
        return Err(());
    }
    read_topic(&mut lines, out, depth)
}

/// The text of a topic before formatting: its lines, each ended by a newline, between
/// dashed lines if `header`. None if the file or topic is missing (the missing file is
/// reported on stderr).
pub fn unformatted(file: Option<&[u8]>, topic: &[u8], header: bool) -> Option<Vec<u8>> {
    let mut lines = Vec::new();
    load(file, topic, &mut lines, 0).ok()?;
    let mut text = Vec::new();
    if header {
        text.extend_from_slice(DASH_LINE);
    }
    for l in &lines {
        text.extend_from_slice(l);
        text.push(b'\n');
    }
    if header {
        text.extend_from_slice(DASH_LINE);
    }
    Some(text)
}

/// A help message formatted with `args` (`pmix_show_help_string` for Rust callers): each
/// conversion of the text (`%s`, `%d`, ...) takes the next argument as already-rendered
/// text, with the flags `-` and `0`, a width and, for `%s`, a precision; `%%` is `%`.
pub fn render(file: &str, topic: &str, header: bool, args: &[&str]) -> Option<String> {
    let raw = unformatted(Some(file.as_bytes()), topic.as_bytes(), header)?;
    Some(String::from_utf8_lossy(&format(&raw, args)).into_owned())
}

/// Prints a help message formatted with `args` (`pmix_show_help` for Rust callers).
pub fn show(file: &str, topic: &str, header: bool, args: &[&str]) {
    if let Some(msg) = render(file, topic, header, args) {
        deliver(file.as_bytes(), topic.as_bytes(), msg.as_bytes());
    }
}

/// printf-style formatting where every argument is text (see `render`).
pub fn format(fmt: &[u8], args: &[&str]) -> Vec<u8> {
    let mut out = Vec::with_capacity(fmt.len());
    let mut args = args.iter();
    let mut i = 0;
    let number = |fmt: &[u8], i: &mut usize| {
        let mut n = 0usize;
        while let Some(d) = fmt.get(*i).filter(|c| c.is_ascii_digit()) {
            n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
            *i += 1;
        }
        n
    };
    while i < fmt.len() {
        let start = i;
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => left = true,
                b'0' => zero = true,
                b'+' | b' ' | b'#' | b'\'' => {}
                _ => break,
            }
            i += 1;
        }
        let width = if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w: i64 = args.next().and_then(|a| a.trim().parse().ok()).unwrap_or(0);
            left |= w < 0;
            usize::try_from(w.unsigned_abs()).unwrap_or(0)
        } else {
            number(fmt, &mut i)
        };
        let mut precision = None;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            precision = Some(if fmt.get(i) == Some(&b'*') {
                i += 1;
                args.next()
                    .and_then(|a| a.trim().parse::<usize>().ok())
                    .unwrap_or(0)
            } else {
                number(fmt, &mut i)
            });
        }
        while matches!(
            fmt.get(i),
            Some(b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't')
        ) {
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            // An unfinished conversion at the end stays as written.
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        let mut text = args.next().map_or(&b""[..], |a| a.as_bytes()).to_vec();
        if conv == b's' {
            if let Some(p) = precision {
                text.truncate(p);
            }
        }
        let pad = width.saturating_sub(text.len());
        if left {
            text.resize(text.len() + pad, b' ');
        } else if zero && conv != b's' && conv != b'c' {
            let sign = usize::from(matches!(text.first(), Some(b'-' | b'+')));
            text.splice(sign..sign, core::iter::repeat_n(b'0', pad));
        } else {
            text.splice(0..0, core::iter::repeat_n(b' ', pad));
        }
        out.extend_from_slice(&text);
    }
    out
}

/// A C string argument as bytes (None for NULL).
///
/// # Safety
/// `p` is NULL or a C string.
unsafe fn bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    if p.is_null() {
        None
    } else {
        // SAFETY: per the contract.
        Some(unsafe { CStr::from_ptr(p) }.to_bytes())
    }
}

/// `pmix_show_help_add_dir`: PMIX_SUCCESS.
///
/// # Safety
/// `directory` is NULL (ignored) or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_show_help_add_dir(directory: *const c_char) -> c_int {
    // SAFETY: per the contract.
    if let Some(d) = unsafe { bytes(directory) } {
        add_dir(d);
    }
    PMIX_SUCCESS
}

/// `pmix_show_help_norender`: prints an already-made message; PMIX_SUCCESS.
///
/// # Safety
/// Each argument is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_show_help_norender(
    filename: *const c_char,
    topic: *const c_char,
    output: *const c_char,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        let msg = bytes(output).unwrap_or(b"(null)");
        deliver(
            bytes(filename).unwrap_or_default(),
            bytes(topic).unwrap_or_default(),
            msg,
        );
    }
    PMIX_SUCCESS
}

/// For the C entry points: the unformatted text of a topic, malloc'd, or NULL.
///
/// # Safety
/// `filename` is NULL (the default file) or a C string; `topic` NULL (no text) or a C
/// string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmixrs_show_help_load(
    filename: *const c_char,
    topic: *const c_char,
    want_error_header: c_int,
) -> *mut c_char {
    // SAFETY: per the contract.
    let (file, topic) = unsafe { (bytes(filename), bytes(topic)) };
    let Some(topic) = topic else {
        return core::ptr::null_mut();
    };
    match unformatted(file, topic, want_error_header != 0) {
        Some(text) => c_string(&text),
        None => core::ptr::null_mut(),
    }
}

/// For the C entry points: prints a formatted message.
///
/// # Safety
/// Each argument is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmixrs_show_help_deliver(
    filename: *const c_char,
    topic: *const c_char,
    msg: *const c_char,
) {
    // SAFETY: per the contract.
    unsafe {
        if let Some(m) = bytes(msg) {
            deliver(
                bytes(filename).unwrap_or_default(),
                bytes(topic).unwrap_or_default(),
                m,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HELP: &str = "\
# a comment before any topic
[plain]

Hello %s, you have %d things.

[other]
other text
[with-include]
Before:
#include#help-unit-b#inc
# a comment inside
After.

[blank]


[short]x
line without newline";

    const HELP_B: &str = "[inc]\n\n  included line\n\n[end]\n";

    fn dir() -> &'static std::path::Path {
        static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
        DIR.get_or_init(|| {
            let d = std::env::temp_dir().join(format!("pmix-help-unit-{}", std::process::id()));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("help-unit.txt"), HELP).unwrap();
            std::fs::write(d.join("help-unit-b.txt"), HELP_B).unwrap();
            add_dir(d.to_str().unwrap().as_bytes());
            d
        })
    }

    fn text(file: &str, topic: &str, header: bool) -> Option<String> {
        dir();
        unformatted(Some(file.as_bytes()), topic.as_bytes(), header)
            .map(|t| String::from_utf8(t).unwrap())
    }

    #[test]
    fn a_topic_is_its_lines_without_blank_edges_and_comments() {
        assert_eq!(
            text("help-unit.txt", "plain", false).as_deref(),
            Some("Hello %s, you have %d things.\n")
        );
        // The name without .txt finds the file too.
        assert_eq!(
            text("help-unit", "other", false).as_deref(),
            Some("other text\n")
        );
        let dash = String::from_utf8(DASH_LINE.to_vec()).unwrap();
        assert_eq!(
            text("help-unit", "other", true),
            Some(format!("{dash}other text\n{dash}"))
        );
        assert_eq!(
            text("help-unit", "with-include", false).as_deref(),
            Some("Before:\n  included line\nAfter.\n")
        );
        // The last line lost its last character, as OpenPMIx's reader does.
        assert_eq!(
            text("help-unit", "short", false).as_deref(),
            Some("line without newlin\n")
        );
    }

    #[test]
    fn missing_topics_and_empty_topics_give_nothing() {
        assert_eq!(text("help-unit", "nope", false), None);
        assert_eq!(text("help-unit", "blank", false), None);
    }

    #[test]
    fn render_formats_with_text_arguments() {
        dir();
        assert_eq!(
            render("help-unit", "plain", false, &["you", "3"]).as_deref(),
            Some("Hello you, you have 3 things.\n")
        );
        assert_eq!(
            format(b"[%5s|%-4s|%.2s|%03d|%%]", &["ab", "c", "xyz", "-7"]),
            b"[   ab|c   |xy|-07|%]"
        );
        assert_eq!(format(b"%s and %s", &["one"]), b"one and ");
        assert_eq!(format(b"%lu:%*s", &["9", "3", "a"]), b"9:  a");
        assert_eq!(format(b"end %", &[]), b"end %");
    }

    #[test]
    fn long_lines_are_cut_as_openpmix_cuts_them() {
        let mut data = vec![b'a'; 1500];
        data.push(b'\n');
        data.extend_from_slice(b"b\n\0c\n");
        let lines: Vec<&[u8]> = Lines {
            data: &data,
            pos: 0,
        }
        .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].len(), 1022);
        assert_eq!(lines[1].len(), 1500 - 1023);
        assert_eq!(lines[2], b"b");
        assert_eq!(lines[3], b"");
    }
}
