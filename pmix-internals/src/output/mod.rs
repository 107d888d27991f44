//! Output streams (`pmix_output*`): 64 numbered streams, each sending what is written to it
//! to any of stdout, stderr, a file and the syslog, with a prefix and a suffix, and a
//! verbosity level that PRRTE's inline `pmix_output_verbose` macro reads straight from
//! `pmix_output_info[id].ldi_verbose_level`. So the state of every stream lives in that
//! exported array, with OpenPMIx 5.0.11's layout (`facts/layouts-output.txt`).
//!
//! Stream 0 is the default one that `pmix_output_init` opens: stderr with the prefix
//! `[host:pid] ` (or the syslog when `PMIX_OUTPUT_REDIRECT=syslog`). Environment, read at
//! init: `PMIX_OUTPUT_STDERR_FD` (the descriptor "stderr" output goes to),
//! `PMIX_OUTPUT_REDIRECT` (`syslog`; `file`, read at each open, sends every stream opened
//! after it to its file), `PMIX_OUTPUT_SYSLOG_PRI` (`info`, `warn`, else `error`),
//! `PMIX_OUTPUT_SYSLOG_IDENT`, and `PMIX_OUTPUT_SUFFIX` (the file suffix of every stream
//! opened after it). Files are `<dir>/<prefix><suffix>` (`output.txt` without a suffix),
//! opened at the first line written, with the directory and prefix that
//! `pmix_output_set_output_file_info` sets (by default the temporary directory and
//! `pmix-output-pid<pid>-`).
//!
//! The C-variadic `pmix_output` is C (`csrc/variadic.c`): it asks `pmixrs_output_wanted`,
//! formats, and hands the text to `pmixrs_output_write`.
//!
//! Where we differ from OpenPMIx, on purpose: one lock serializes the streams' state and
//! their writes (OpenPMIx has none), and is taken around `fork` so that a child never
//! inherits it held; a file stream that wants to append opens its file with `O_APPEND`
//! (OpenPMIx only leaves out `O_TRUNC`, so it writes over the start of the old file); a
//! file shared by two streams is closed with the last of them; a directory or prefix set
//! before `pmix_output_init` is kept by it.

use core::cell::UnsafeCell;
use core::ffi::{CStr, c_char, c_int};
use core::ptr;
use std::ffi::CString;

use crate::object::{Object, pmix_object_t_class};

pub mod os_path;
pub mod show_help;

/// `PMIX_OUTPUT_MAX_STREAMS`.
pub const MAX_STREAMS: usize = 64;

const PMIX_ERR_OUT_OF_RESOURCE: c_int = -29;

/// `pmix_output_desc_t` (72 bytes): one stream's state, an element of `pmix_output_info`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct OutputDesc {
    pub ldi_used: bool,
    pub ldi_enabled: bool,
    pub ldi_verbose_level: c_int,
    pub ldi_syslog: bool,
    pub ldi_syslog_priority: c_int,
    pub ldi_syslog_ident: *mut c_char,
    pub ldi_prefix: *mut c_char,
    pub ldi_prefix_len: c_int,
    pub ldi_suffix: *mut c_char,
    pub ldi_suffix_len: c_int,
    pub ldi_stdout: bool,
    pub ldi_stderr: bool,
    pub ldi_file: bool,
    pub ldi_file_want_append: bool,
    pub ldi_file_suffix: *mut c_char,
    pub ldi_fd: c_int,
    pub ldi_file_num_lines_lost: c_int,
}

impl OutputDesc {
    const ZERO: OutputDesc = OutputDesc {
        ldi_used: false,
        ldi_enabled: false,
        ldi_verbose_level: 0,
        ldi_syslog: false,
        ldi_syslog_priority: 0,
        ldi_syslog_ident: ptr::null_mut(),
        ldi_prefix: ptr::null_mut(),
        ldi_prefix_len: 0,
        ldi_suffix: ptr::null_mut(),
        ldi_suffix_len: 0,
        ldi_stdout: false,
        ldi_stderr: false,
        ldi_file: false,
        ldi_file_want_append: false,
        ldi_file_suffix: ptr::null_mut(),
        ldi_fd: 0,
        ldi_file_num_lines_lost: 0,
    };
}

/// The state of the 64 streams. PRRTE's executables copy-relocate it (4608 bytes) and read
/// `ldi_verbose_level` inline, so it is reached only through this symbol (the GOT), never
/// through an address kept from before `main`.
#[unsafe(no_mangle)]
pub static mut pmix_output_info: [OutputDesc; MAX_STREAMS] = [OutputDesc::ZERO; MAX_STREAMS];

/// `pmix_output_stream_t` (168 bytes): what a caller asks of a stream it opens.
#[repr(C)]
#[derive(Debug)]
pub struct OutputStream {
    pub super_: Object,
    pub lds_verbose_level: c_int,
    pub lds_syslog_priority: c_int,
    pub lds_syslog_ident: *mut c_char,
    pub lds_prefix: *mut c_char,
    pub lds_suffix: *mut c_char,
    pub lds_is_debugging: bool,
    pub lds_want_syslog: bool,
    pub lds_want_stdout: bool,
    pub lds_want_stderr: bool,
    pub lds_want_file: bool,
    pub lds_want_file_append: bool,
    pub lds_file_suffix: *mut c_char,
}

unsafe extern "C" fn stream_construct(o: *mut Object) {
    let s = o as *mut OutputStream;
    // SAFETY: called on a stream being constructed: every field after the header is ours.
    unsafe {
        (*s).lds_verbose_level = 0;
        (*s).lds_syslog_priority = 0;
        (*s).lds_syslog_ident = ptr::null_mut();
        (*s).lds_prefix = ptr::null_mut();
        (*s).lds_suffix = ptr::null_mut();
        (*s).lds_is_debugging = false;
        (*s).lds_want_syslog = false;
        (*s).lds_want_stdout = false;
        (*s).lds_want_stderr = false;
        (*s).lds_want_file = false;
        (*s).lds_want_file_append = false;
        (*s).lds_file_suffix = ptr::null_mut();
    }
}

// As OpenPMIx's, the destructor frees the file suffix only: the caller owns the rest.
unsafe extern "C" fn stream_destruct(o: *mut Object) {
    let s = o as *mut OutputStream;
    // SAFETY: called on a constructed stream, whose file suffix is NULL or malloc'd.
    unsafe {
        libc::free((*s).lds_file_suffix.cast());
        (*s).lds_file_suffix = ptr::null_mut();
    }
}

crate::class!(
    pmix_output_stream_t_class,
    OutputStream,
    &raw mut pmix_object_t_class,
    Some(stream_construct),
    Some(stream_destruct)
);

/// What a stream is opened with: the Rust form of `pmix_output_stream_t`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spec {
    pub verbose_level: c_int,
    pub syslog_priority: c_int,
    pub syslog_ident: Option<CString>,
    pub prefix: Option<CString>,
    pub suffix: Option<CString>,
    /// Debugging output: such a stream is opened disabled (OpenPMIx built without debug).
    pub is_debugging: bool,
    pub want_syslog: bool,
    pub want_stdout: bool,
    pub want_stderr: bool,
    pub want_file: bool,
    pub want_file_append: bool,
    pub file_suffix: Option<CString>,
}

impl Spec {
    /// A stream that goes nowhere, verbosity 0 (a constructed `pmix_output_stream_t`).
    pub const fn new() -> Spec {
        Spec {
            verbose_level: 0,
            syslog_priority: 0,
            syslog_ident: None,
            prefix: None,
            suffix: None,
            is_debugging: false,
            want_syslog: false,
            want_stdout: false,
            want_stderr: false,
            want_file: false,
            want_file_append: false,
            file_suffix: None,
        }
    }

    /// The fields of a C `pmix_output_stream_t`.
    ///
    /// # Safety
    /// `s` points to a stream whose strings are NULL or C strings.
    pub unsafe fn from_c(s: *const OutputStream) -> Spec {
        // SAFETY: per the contract.
        unsafe {
            Spec {
                verbose_level: (*s).lds_verbose_level,
                syslog_priority: (*s).lds_syslog_priority,
                syslog_ident: owned((*s).lds_syslog_ident),
                prefix: owned((*s).lds_prefix),
                suffix: owned((*s).lds_suffix),
                is_debugging: (*s).lds_is_debugging,
                want_syslog: (*s).lds_want_syslog,
                want_stdout: (*s).lds_want_stdout,
                want_stderr: (*s).lds_want_stderr,
                want_file: (*s).lds_want_file,
                want_file_append: (*s).lds_want_file_append,
                file_suffix: owned((*s).lds_file_suffix),
            }
        }
    }
}

/// A copy of a C string (None for NULL).
///
/// # Safety
/// `p` is NULL or a C string.
unsafe fn owned(p: *const c_char) -> Option<CString> {
    if p.is_null() {
        None
    } else {
        // SAFETY: per the contract.
        Some(unsafe { CStr::from_ptr(p) }.to_owned())
    }
}

/// A malloc'd copy of `s` (NULL for None or when out of memory).
fn c_dup(s: Option<&CStr>) -> *mut c_char {
    match s {
        // SAFETY: strdup of a C string.
        Some(s) => unsafe { libc::strdup(s.as_ptr()) },
        None => ptr::null_mut(),
    }
}

/// The value of an environment variable, as C's `getenv` sees it.
fn env(name: &CStr) -> Option<CString> {
    // SAFETY: getenv of a C string; the value is copied at once.
    unsafe { owned(libc::getenv(name.as_ptr())) }
}

fn eq_ignore_case(a: &CStr, b: &str) -> bool {
    a.to_bytes().eq_ignore_ascii_case(b.as_bytes())
}

/// The state besides the array, under the lock.
struct State {
    initialized: bool,
    /// `PMIX_OUTPUT_STDERR_FD`, or -1 for stderr.
    stderr_fd: c_int,
    /// `PMIX_OUTPUT_REDIRECT=syslog`: every stream goes to the syslog and nowhere else.
    to_syslog: bool,
    syslog_pri: c_int,
    syslog_ident: Option<CString>,
    syslog_opened: bool,
    /// Idents handed to `openlog`, which keeps the pointer: never freed.
    idents: Vec<CString>,
    /// The default stream, opened as stream 0 and used by an open with no stream.
    default: Spec,
    default_id: c_int,
    output_dir: Option<CString>,
    output_prefix: Option<CString>,
}

struct Guarded {
    mutex: UnsafeCell<libc::pthread_mutex_t>,
    state: UnsafeCell<State>,
}

// SAFETY: `state` is only reached with `mutex` held (`with_state`).
unsafe impl Sync for Guarded {}

static GUARDED: Guarded = Guarded {
    mutex: UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER),
    state: UnsafeCell::new(State {
        initialized: false,
        stderr_fd: -1,
        to_syslog: false,
        syslog_pri: 0,
        syslog_ident: None,
        syslog_opened: false,
        idents: Vec::new(),
        default: Spec::new(),
        default_id: -1,
        output_dir: None,
        output_prefix: None,
    }),
};

extern "C" fn lock_for_fork() {
    // SAFETY: the process-wide mutex, initialized statically.
    unsafe { libc::pthread_mutex_lock(GUARDED.mutex.get()) };
}

extern "C" fn unlock_after_fork() {
    // SAFETY: held by this thread since lock_for_fork (in the child too: it is the copy of
    // the thread that forked).
    unsafe { libc::pthread_mutex_unlock(GUARDED.mutex.get()) };
}

/// Runs `f` on the state with the lock held. `f` must not call back into `with_state`.
fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    static ATFORK: std::sync::Once = std::sync::Once::new();
    ATFORK.call_once(|| {
        // SAFETY: registering handlers that take and give back our lock around fork.
        unsafe {
            libc::pthread_atfork(
                Some(lock_for_fork),
                Some(unlock_after_fork),
                Some(unlock_after_fork),
            );
        }
    });
    // SAFETY: the lock makes this the only reference to the state while `f` runs.
    unsafe {
        libc::pthread_mutex_lock(GUARDED.mutex.get());
        let r = f(&mut *GUARDED.state.get());
        libc::pthread_mutex_unlock(GUARDED.mutex.get());
        r
    }
}

/// Stream `id`'s descriptor, in the exported array (reached through the symbol each time).
///
/// # Safety
/// `id < MAX_STREAMS`; the caller holds the lock for anything but reading the level.
unsafe fn desc(id: usize) -> *mut OutputDesc {
    // SAFETY: per the contract, in bounds.
    unsafe { (&raw mut pmix_output_info).cast::<OutputDesc>().add(id) }
}

fn index(id: c_int) -> Option<usize> {
    usize::try_from(id).ok().filter(|&i| i < MAX_STREAMS)
}

/// The temporary directory as OpenPMIx chooses it: `TMPDIR`, `TEMP`, `TMP`, else `/tmp`.
fn tmp_directory() -> CString {
    env(c"TMPDIR")
        .or_else(|| env(c"TEMP"))
        .or_else(|| env(c"TMP"))
        .unwrap_or_else(|| c"/tmp".to_owned())
}

fn hostname() -> String {
    let mut buf = [0u8; 65];
    // SAFETY: a buffer of its length, the last byte kept a terminator.
    unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len() - 1) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

fn init_locked(st: &mut State) {
    if st.initialized {
        return;
    }
    if let Some(fd) = env(c"PMIX_OUTPUT_STDERR_FD") {
        // SAFETY: atoi of a C string, as OpenPMIx reads it.
        st.stderr_fd = unsafe { libc::atoi(fd.as_ptr()) };
    }
    if env(c"PMIX_OUTPUT_REDIRECT").is_some_and(|v| eq_ignore_case(&v, "syslog")) {
        st.to_syslog = true;
    }
    st.syslog_pri = match env(c"PMIX_OUTPUT_SYSLOG_PRI") {
        Some(v) if eq_ignore_case(&v, "info") => libc::LOG_INFO,
        Some(v) if eq_ignore_case(&v, "warn") => libc::LOG_WARNING,
        _ => libc::LOG_ERR,
    };
    st.syslog_ident = env(c"PMIX_OUTPUT_SYSLOG_IDENT");

    let mut default = Spec::new();
    if st.to_syslog {
        default.want_syslog = true;
        default.syslog_priority = st.syslog_pri;
        default.syslog_ident = st.syslog_ident.clone();
    } else {
        default.want_stderr = true;
    }
    // SAFETY: getpid has no preconditions.
    let pid = unsafe { libc::getpid() };
    default.prefix = CString::new(format!("[{}:{:05}] ", hostname(), pid)).ok();
    st.default = default;

    for i in 0..MAX_STREAMS {
        // SAFETY: in bounds, under the lock; strings in the array are ours (malloc'd or
        // NULL), so those of streams left open by an earlier epoch are freed here.
        unsafe {
            let d = desc(i);
            free_strings(d);
            (*d).ldi_used = false;
            (*d).ldi_enabled = false;
            (*d).ldi_syslog = st.to_syslog;
            (*d).ldi_file = false;
            (*d).ldi_file_want_append = false;
            (*d).ldi_fd = -1;
            (*d).ldi_file_num_lines_lost = 0;
        }
    }
    st.initialized = true;
    if st.output_prefix.is_none() {
        st.output_prefix = CString::new(format!("pmix-output-pid{pid}-")).ok();
    }
    if st.output_dir.is_none() {
        st.output_dir = Some(tmp_directory());
    }
    st.default_id = open_locked(st, None);
}

/// Frees the strings a descriptor owns.
///
/// # Safety
/// `d` is a descriptor of the array, under the lock.
unsafe fn free_strings(d: *mut OutputDesc) {
    // SAFETY: per the contract: each is NULL or malloc'd by us.
    unsafe {
        for p in [
            &raw mut (*d).ldi_prefix,
            &raw mut (*d).ldi_suffix,
            &raw mut (*d).ldi_file_suffix,
            &raw mut (*d).ldi_syslog_ident,
        ] {
            libc::free((*p).cast());
            *p = ptr::null_mut();
        }
    }
}

fn open_syslog(st: &mut State, ident: Option<&CStr>) {
    let ident = ident.map_or_else(|| c"pmix".to_owned(), CStr::to_owned);
    // SAFETY: openlog keeps the pointer: the string is kept for the process's life.
    unsafe { libc::openlog(ident.as_ptr(), libc::LOG_PID, libc::LOG_USER) };
    st.idents.push(ident);
    st.syslog_opened = true;
}

fn open_locked(st: &mut State, spec: Option<&Spec>) -> c_int {
    init_locked(st);
    let redirect_to_file = env(c"PMIX_OUTPUT_REDIRECT").is_some_and(|v| eq_ignore_case(&v, "file"));
    let env_suffix = env(c"PMIX_OUTPUT_SUFFIX");
    // SAFETY: in bounds, under the lock.
    let Some(i) = (0..MAX_STREAMS).find(|&i| unsafe { !(*desc(i)).ldi_used }) else {
        return PMIX_ERR_OUT_OF_RESOURCE;
    };
    let default = st.default.clone();
    let spec = spec.unwrap_or(&default);
    // SAFETY: in bounds, under the lock; the slot is unused, so its strings are freed.
    unsafe {
        let d = desc(i);
        free_strings(d);
        (*d).ldi_used = true;
        (*d).ldi_enabled = !spec.is_debugging;
        (*d).ldi_verbose_level = spec.verbose_level;
        if st.to_syslog {
            (*d).ldi_syslog = true;
            (*d).ldi_syslog_priority = st.syslog_pri;
            let ident = st.syslog_ident.clone();
            (*d).ldi_syslog_ident = c_dup(ident.as_deref());
            open_syslog(st, ident.as_deref());
        } else {
            (*d).ldi_syslog = spec.want_syslog;
            if spec.want_syslog {
                (*d).ldi_syslog_ident = c_dup(spec.syslog_ident.as_deref());
                open_syslog(st, spec.syslog_ident.as_deref());
                (*d).ldi_syslog_priority = spec.syslog_priority;
            }
        }
        (*d).ldi_prefix = c_dup(spec.prefix.as_deref());
        (*d).ldi_prefix_len = spec.prefix.as_ref().map_or(0, |p| p.count_bytes() as c_int);
        (*d).ldi_suffix = c_dup(spec.suffix.as_deref());
        (*d).ldi_suffix_len = spec.suffix.as_ref().map_or(0, |p| p.count_bytes() as c_int);
        (*d).ldi_fd = -1;
        if st.to_syslog {
            (*d).ldi_stdout = false;
            (*d).ldi_stderr = false;
            (*d).ldi_file = false;
        } else {
            if redirect_to_file {
                (*d).ldi_stdout = false;
                (*d).ldi_stderr = false;
                (*d).ldi_file = true;
            } else {
                (*d).ldi_stdout = spec.want_stdout;
                (*d).ldi_stderr = spec.want_stderr;
                (*d).ldi_file = spec.want_file;
            }
            (*d).ldi_file_suffix = c_dup(env_suffix.as_deref().or(spec.file_suffix.as_deref()));
            (*d).ldi_file_want_append = spec.want_file_append;
            (*d).ldi_file_num_lines_lost = 0;
        }
    }
    i as c_int
}

/// Releases stream `i` (OpenPMIx frees only a used, enabled stream).
fn close_locked(st: &mut State, i: usize) {
    // SAFETY: in bounds, under the lock.
    unsafe {
        let d = desc(i);
        if !((*d).ldi_used && (*d).ldi_enabled) {
            return;
        }
        let fd = (*d).ldi_fd;
        (*d).ldi_used = false;
        (*d).ldi_fd = -1;
        let shared = (0..MAX_STREAMS).any(|n| (*desc(n)).ldi_used && (*desc(n)).ldi_fd == fd);
        if fd >= 0 && !shared {
            libc::close(fd);
        }
        free_strings(d);
        let any_syslog = (0..MAX_STREAMS).any(|n| (*desc(n)).ldi_used && (*desc(n)).ldi_syslog);
        if !any_syslog && st.syslog_opened {
            libc::closelog();
            st.syslog_opened = false;
        }
    }
}

/// Opens the file of stream `i` at its first line, or takes the descriptor of another open
/// stream writing the same file. Without a directory there is nothing to open (not an
/// error). A file that cannot be opened makes the stream unused, as OpenPMIx's.
fn open_file(st: &State, i: usize) -> Result<(), ()> {
    // SAFETY: in bounds, under the lock; strings of the array are C strings or NULL.
    unsafe {
        let d = desc(i);
        let sfx = owned((*d).ldi_file_suffix);
        for n in (0..MAX_STREAMS).filter(|&n| n != i) {
            let o = desc(n);
            if (*o).ldi_used
                && (*o).ldi_file
                && (*o).ldi_fd >= 0
                && owned((*o).ldi_file_suffix) == sfx
            {
                (*d).ldi_fd = (*o).ldi_fd;
                return Ok(());
            }
        }
        let Some(dir) = &st.output_dir else {
            return Ok(());
        };
        let mut name = dir.as_bytes().to_vec();
        name.push(b'/');
        if let Some(p) = &st.output_prefix {
            name.extend_from_slice(p.as_bytes());
        }
        name.extend_from_slice(sfx.as_ref().map_or(&b"output.txt"[..], |s| s.as_bytes()));
        let Ok(name) = CString::new(name) else {
            (*d).ldi_used = false;
            return Err(());
        };
        let mut flags = libc::O_CREAT | libc::O_RDWR;
        flags |= if (*d).ldi_file_want_append {
            libc::O_APPEND
        } else {
            libc::O_TRUNC
        };
        let fd = libc::open(name.as_ptr(), flags, 0o644 as libc::c_uint);
        (*d).ldi_fd = fd;
        if fd < 0 {
            (*d).ldi_fd = -1;
            (*d).ldi_used = false;
            return Err(());
        }
        if libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) == -1 {
            return Err(());
        }
        Ok(())
    }
}

/// Writes all of `buf` to `fd` (retrying short writes and interruptions).
fn write_all(fd: c_int, mut buf: &[u8]) -> bool {
    while !buf.is_empty() {
        // SAFETY: writing from a live buffer of that length.
        let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        buf = &buf[n as usize..];
    }
    true
}

unsafe extern "C" {
    static mut stdout: *mut libc::FILE;
    static mut stderr: *mut libc::FILE;
}

/// Writes `bytes` to C's `stderr` stream (as `fprintf(stderr, "%s", ...)` does).
pub(crate) fn to_stderr(bytes: &[u8]) {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    // SAFETY: fwrite of a live buffer to the process's stderr stream.
    unsafe {
        libc::fwrite(bytes.as_ptr().cast(), 1, end, stderr);
    }
}

/// The line as it goes out (`out`) and as the syslog gets it: a newline is added where the
/// text has none, and a suffix goes before the final newline.
///
/// # Safety
/// `d` is a used descriptor, under the lock.
unsafe fn make_string(d: *const OutputDesc, text: &[u8]) -> (Vec<u8>, Vec<u8>) {
    // SAFETY: per the contract; prefix and suffix are C strings or NULL.
    let (prefix, suffix) = unsafe { (owned((*d).ldi_prefix), owned((*d).ldi_suffix)) };
    let mut body = text.to_vec();
    let mut newline = false;
    if body.last() != Some(&b'\n') {
        newline = true;
    } else if suffix.is_some() {
        body.pop();
        newline = true;
    }
    let mut out = Vec::with_capacity(body.len() + 64);
    if let Some(p) = &prefix {
        out.extend_from_slice(p.as_bytes());
    }
    out.extend_from_slice(&body);
    if let Some(s) = &suffix {
        out.extend_from_slice(s.as_bytes());
    }
    if newline {
        out.push(b'\n');
    }
    (out, body)
}

fn write_locked(st: &mut State, i: usize, text: &[u8]) {
    init_locked(st);
    // SAFETY: in bounds, under the lock.
    unsafe {
        let d = desc(i);
        if !((*d).ldi_used && (*d).ldi_enabled) {
            return;
        }
        let (out, body) = make_string(d, text);
        if (*d).ldi_syslog {
            if let Ok(line) = CString::new(body) {
                libc::syslog((*d).ldi_syslog_priority, c"%s".as_ptr(), line.as_ptr());
            }
        }
        if (*d).ldi_stdout {
            if !write_all(libc::STDOUT_FILENO, &out) {
                return;
            }
            libc::fflush(stdout);
        }
        if (*d).ldi_stderr {
            let fd = if st.stderr_fd == -1 {
                libc::STDERR_FILENO
            } else {
                st.stderr_fd
            };
            if !write_all(fd, &out) {
                return;
            }
            libc::fflush(stderr);
        }
        if (*d).ldi_file {
            if (*d).ldi_fd == -1 {
                if open_file(st, i).is_err() {
                    (*d).ldi_file_num_lines_lost += 1;
                } else if (*d).ldi_file_num_lines_lost > 0 && (*d).ldi_fd >= 0 {
                    let warning = format!(
                        "[WARNING: {} lines lost because the PMIx process session directory \
                         did\n not exist when pmix_output() was invoked]\n",
                        (*d).ldi_file_num_lines_lost
                    );
                    if !write_all((*d).ldi_fd, warning.as_bytes()) {
                        return;
                    }
                    (*d).ldi_file_num_lines_lost = 0;
                }
            }
            if (*d).ldi_fd != -1 {
                write_all((*d).ldi_fd, &out);
            }
        }
    }
}

// ---- the Rust side, for the other families -----------------------------------------------

/// Sets up the streams and opens the default one (stream 0): `pmix_output_init`.
pub fn init() -> bool {
    with_state(init_locked);
    true
}

/// Opens a stream (`pmix_output_open`): its id, or `PMIX_ERR_OUT_OF_RESOURCE` (-29) when
/// all 64 are in use. `None` opens another stream like the default one.
pub fn open(spec: Option<&Spec>) -> c_int {
    with_state(|st| open_locked(st, spec))
}

/// Closes a stream (`pmix_output_close`).
pub fn close(id: c_int) {
    with_state(|st| {
        if let Some(i) = index(id).filter(|_| st.initialized) {
            close_locked(st, i);
        }
    });
}

/// Whether something written to stream `id` goes out (valid, open and enabled); sets up
/// the streams first if needed.
pub fn wanted(id: c_int) -> bool {
    let Some(i) = index(id) else {
        return false;
    };
    with_state(|st| {
        init_locked(st);
        // SAFETY: in bounds, under the lock.
        unsafe { (*desc(i)).ldi_used && (*desc(i)).ldi_enabled }
    })
}

/// Writes `text` to stream `id` (`pmix_output(id, "%s", text)`).
pub fn output(id: c_int, text: &str) {
    write_bytes(id, text.as_bytes());
}

fn write_bytes(id: c_int, text: &[u8]) {
    if let Some(i) = index(id) {
        with_state(|st| write_locked(st, i, text));
    }
}

/// Writes `text` to stream `id` if its verbosity is at least `level` (what the macro
/// `pmix_output_verbose(level, id, ...)` does).
pub fn verbose(id: c_int, level: c_int, text: &str) {
    if index(id).is_some() && verbosity_of(id) >= level {
        output(id, text);
    }
}

/// The verbosity level stored for stream `id` (open or not), or `c_int::MIN` out of range.
fn verbosity_of(id: c_int) -> c_int {
    match index(id) {
        // SAFETY: in bounds; a plain int read, as PRRTE's macro does it.
        Some(i) => unsafe { ptr::read_volatile(&raw const (*desc(i)).ldi_verbose_level) },
        None => c_int::MIN,
    }
}

/// Sets the verbosity of stream `id` (`pmix_output_set_verbosity`).
pub fn set_verbosity(id: c_int, level: c_int) {
    if let Some(i) = index(id) {
        with_state(|_| {
            // SAFETY: in bounds, under the lock.
            unsafe { (*desc(i)).ldi_verbose_level = level };
        });
    }
}

/// The verbosity of an open stream, or -1 (`pmix_output_get_verbosity`).
pub fn get_verbosity(id: c_int) -> c_int {
    let Some(i) = index(id) else {
        return -1;
    };
    with_state(|_| {
        // SAFETY: in bounds, under the lock.
        unsafe {
            let d = desc(i);
            if (*d).ldi_used {
                (*d).ldi_verbose_level
            } else {
                -1
            }
        }
    })
}

// ---- the exported functions -----------------------------------------------------------------

/// `pmix_output_init`: sets up the streams and opens the default one; true.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_output_init() -> bool {
    init()
}

/// `pmix_output_open`.
///
/// # Safety
/// `lds` is NULL (another default stream) or a `pmix_output_stream_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_output_open(lds: *mut OutputStream) -> c_int {
    if lds.is_null() {
        open(None)
    } else {
        // SAFETY: per the contract.
        let spec = unsafe { Spec::from_c(lds) };
        open(Some(&spec))
    }
}

/// `pmix_output_close`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_output_close(output_id: c_int) {
    close(output_id)
}

/// `pmix_output_set_verbosity`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_output_set_verbosity(output_id: c_int, level: c_int) {
    set_verbosity(output_id, level)
}

/// `pmix_output_get_verbosity`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_output_get_verbosity(output_id: c_int) -> c_int {
    get_verbosity(output_id)
}

/// `pmix_output_set_output_file_info`: the directory and file-name prefix of stream files
/// opened from now on; the old ones are handed back (malloc'd) where asked.
///
/// # Safety
/// `dir`, `prefix` are NULL or C strings; `olddir`, `oldprefix` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_output_set_output_file_info(
    dir: *const c_char,
    prefix: *const c_char,
    olddir: *mut *mut c_char,
    oldprefix: *mut *mut c_char,
) {
    // SAFETY: per the contract.
    unsafe {
        let (dir, prefix) = (owned(dir), owned(prefix));
        with_state(|st| {
            if !olddir.is_null() {
                *olddir = c_dup(st.output_dir.as_deref());
            }
            if !oldprefix.is_null() {
                *oldprefix = c_dup(st.output_prefix.as_deref());
            }
            if dir.is_some() {
                st.output_dir = dir;
            }
            if prefix.is_some() {
                st.output_prefix = prefix;
            }
        });
    }
}

/// `pmix_output_finalize`: closes the default stream and forgets the file settings (other
/// streams stay as they are, as OpenPMIx's; the next init resets them all).
#[unsafe(no_mangle)]
pub extern "C" fn pmix_output_finalize() {
    with_state(|st| {
        if !st.initialized {
            return;
        }
        if let Some(i) = index(st.default_id) {
            close_locked(st, i);
        }
        st.default_id = -1;
        st.default = Spec::new();
        st.output_prefix = None;
        st.output_dir = None;
        st.initialized = false;
    });
}

/// For `pmix_output` (C): whether stream `id` takes output (sets up the streams if needed).
#[unsafe(no_mangle)]
pub extern "C" fn pmixrs_output_wanted(output_id: c_int) -> c_int {
    c_int::from(wanted(output_id))
}

/// For `pmix_output` (C): writes the formatted text to stream `id`.
///
/// # Safety
/// `text` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmixrs_output_write(output_id: c_int, text: *const c_char) {
    if text.is_null() {
        return;
    }
    // SAFETY: per the contract.
    let text = unsafe { CStr::from_ptr(text) };
    write_bytes(output_id, text.to_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    const FACTS: &str = include_str!("../../facts/layouts-output.txt");

    #[test]
    fn layouts_match_openpmix() {
        use crate::facts::layout;
        macro_rules! members {
            ($ty:ty: $($m:ident),*) => { &[$((stringify!($m), offset_of!($ty, $m))),*] };
        }
        layout(
            FACTS,
            "pmix_output_stream_t",
            size_of::<OutputStream>(),
            members!(OutputStream: lds_verbose_level, lds_syslog_priority, lds_syslog_ident,
                lds_prefix, lds_suffix, lds_is_debugging, lds_want_syslog, lds_want_stdout,
                lds_want_stderr, lds_want_file, lds_want_file_append, lds_file_suffix),
        );
        layout(
            FACTS,
            "pmix_output_desc_t",
            size_of::<OutputDesc>(),
            members!(OutputDesc: ldi_used, ldi_enabled, ldi_verbose_level, ldi_syslog,
                ldi_syslog_priority, ldi_syslog_ident, ldi_prefix, ldi_prefix_len, ldi_suffix,
                ldi_suffix_len, ldi_stdout, ldi_stderr, ldi_file, ldi_file_want_append,
                ldi_file_suffix, ldi_fd, ldi_file_num_lines_lost),
        );
        layout(
            FACTS,
            "pmix_pinstall_dirs_t",
            size_of::<[*mut c_char; 17]>(),
            &[(
                "pmixdatadir",
                show_help::PMIXDATADIR * size_of::<*mut c_char>(),
            )],
        );
        assert_eq!(size_of::<[OutputDesc; MAX_STREAMS]>(), 4608);
        // SAFETY: reading a field of a class descriptor.
        assert_eq!(unsafe { pmix_output_stream_t_class.cls_sizeof }, 168);
    }

    unsafe extern "C" {
        fn pmix_output(id: c_int, format: *const c_char, ...);
    }

    /// The streams are one per process: the tests that use them take turns.
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("pmix-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn file_spec(prefix: &str, file_suffix: &str, level: c_int) -> Spec {
        Spec {
            verbose_level: level,
            prefix: Some(CString::new(prefix).unwrap()),
            want_file: true,
            file_suffix: Some(CString::new(file_suffix).unwrap()),
            ..Spec::new()
        }
    }

    #[test]
    fn stream_zero_is_stderr_with_host_and_pid() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        assert!(pmix_output_init());
        // SAFETY: stream 0's descriptor, read under the turn.
        unsafe {
            let d = desc(0);
            assert!((*d).ldi_used && (*d).ldi_enabled && (*d).ldi_stderr);
            assert!(!(*d).ldi_stdout && !(*d).ldi_file);
            let prefix = CStr::from_ptr((*d).ldi_prefix).to_str().unwrap();
            let want = format!("[{}:{:05}] ", hostname(), std::process::id());
            assert_eq!(prefix, want);
            assert_eq!((*d).ldi_prefix_len as usize, want.len());
        }
        assert_eq!(get_verbosity(0), 0);
        assert_eq!(get_verbosity(64), -1);
        assert_eq!(get_verbosity(-1), -1);
    }

    #[test]
    fn file_streams_write_prefixed_lines_at_their_verbosity() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let dir = scratch("files");
        let cdir = CString::new(dir.to_str().unwrap()).unwrap();
        init();
        let (mut old_dir, mut old_prefix) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: C strings and out-pointers of ours.
        unsafe {
            pmix_output_set_output_file_info(
                cdir.as_ptr(),
                c"t-".as_ptr(),
                &mut old_dir,
                &mut old_prefix,
            );
            assert!(!old_dir.is_null() && !old_prefix.is_null());
            libc::free(old_dir.cast());
            libc::free(old_prefix.cast());
        }
        let id = open(Some(&file_spec("P: ", "a.txt", 5)));
        assert!(id > 0, "{id}");
        assert_eq!(get_verbosity(id), 5);
        output(id, "hello");
        verbose(id, 6, "too verbose\n");
        verbose(id, 5, "two\n");
        // SAFETY: a format and the arguments it takes.
        unsafe { pmix_output(id, c"%d-%s".as_ptr(), 7 as c_int, c"x".as_ptr()) };
        // A second stream on the same file shares its descriptor.
        let mut with_suffix = file_spec("Q: ", "a.txt", 0);
        with_suffix.suffix = Some(c" <<".to_owned());
        let id2 = open(Some(&with_suffix));
        output(id2, "line\n");
        let text = std::fs::read_to_string(dir.join("t-a.txt")).unwrap();
        assert_eq!(text, "P: hello\nP: two\nP: 7-x\nQ: line <<\n");
        close(id);
        assert_eq!(get_verbosity(id), -1);
        output(id, "closed\n");
        output(id2, "still open");
        close(id2);
        let text = std::fs::read_to_string(dir.join("t-a.txt")).unwrap();
        assert!(text.ends_with("Q: still open <<\n"), "{text}");
        // Without a suffix the file is output.txt; appending keeps what was there.
        std::fs::write(dir.join("t-output.txt"), "old\n").unwrap();
        let mut spec = file_spec("", "", 0);
        spec.prefix = None;
        spec.file_suffix = None;
        spec.want_file_append = true;
        let id3 = open(Some(&spec));
        output(id3, "new");
        close(id3);
        let text = std::fs::read_to_string(dir.join("t-output.txt")).unwrap();
        assert_eq!(text, "old\nnew\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn debugging_streams_are_disabled_and_verbosity_is_stored_anyway() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let id = open(Some(&Spec {
            is_debugging: true,
            want_stderr: true,
            ..Spec::new()
        }));
        assert!(!wanted(id));
        set_verbosity(id, 42);
        assert_eq!(get_verbosity(id), 42);
        // Closing a disabled stream does nothing, as OpenPMIx's.
        close(id);
        assert_eq!(get_verbosity(id), 42);
        set_verbosity(70, 1);
    }

    #[test]
    fn the_class_constructs_an_empty_stream_and_open_reads_it() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: an object of our class, filled as PRRTE fills one, opened and released.
        unsafe {
            let s = crate::object::new(&raw mut pmix_output_stream_t_class) as *mut OutputStream;
            assert!(!(*s).lds_want_stderr && (*s).lds_prefix.is_null());
            (*s).lds_verbose_level = 3;
            (*s).lds_want_stdout = true;
            (*s).lds_prefix = libc::strdup(c"x> ".as_ptr());
            (*s).lds_file_suffix = libc::strdup(c"sfx".as_ptr());
            let id = pmix_output_open(s);
            assert!(id > 0);
            let d = desc(id as usize);
            assert!((*d).ldi_stdout && !(*d).ldi_stderr);
            assert_eq!(CStr::from_ptr((*d).ldi_prefix), c"x> ");
            assert_eq!(CStr::from_ptr((*d).ldi_file_suffix), c"sfx");
            assert_eq!(pmix_output_get_verbosity(id), 3);
            pmix_output_close(id);
            libc::free((*s).lds_prefix.cast());
            crate::object::release(s.cast());
        }
    }

    #[test]
    fn lines_get_a_newline_and_the_suffix_before_it() {
        let mut d = OutputDesc::ZERO;
        // SAFETY: a descriptor of our own, with C strings.
        unsafe {
            assert_eq!(make_string(&d, b"a").0, b"a\n");
            assert_eq!(make_string(&d, b"a\n").0, b"a\n");
            assert_eq!(make_string(&d, b"").0, b"\n");
            d.ldi_prefix = c"[p] ".as_ptr() as *mut c_char;
            d.ldi_suffix = c" (s)".as_ptr() as *mut c_char;
            let (out, body) = make_string(&d, b"x\ny\n");
            assert_eq!(out, b"[p] x\ny (s)\n");
            assert_eq!(body, b"x\ny");
            assert_eq!(make_string(&d, b"z").0, b"[p] z (s)\n");
        }
    }
}
