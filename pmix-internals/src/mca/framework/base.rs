//! The MCA base: `pmix_mca_base_open` (its `mca_base_*` variables, the component path, the
//! default output stream 0) and `pmix_mca_base_close`, and which component load failures are
//! reported (`mca_base_component_show_load_errors`).

use super::{
    PMIX_ERR_BAD_PARAM, PMIX_ERR_OUT_OF_RESOURCE, PMIX_SUCCESS, VAR_SYN_FLAG_DEPRECATED,
    VAR_TYPE_BOOL, VAR_TYPE_STRING, VERBOSE_COMPONENT, ffi, installdirs, split_nonempty, verbose,
};
use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr;
use std::ffi::CString;
use std::sync::Mutex;

/// How many times the MCA base is open.
static mut OPENED: c_int = 0;
/// `pmix_mca_base_component_path`: `project@dir:dir;project@dir...` (libc string).
static mut COMPONENT_PATH: *mut c_char = ptr::null_mut();
static mut SYSTEM_DEFAULT_PATH: *mut c_char = ptr::null_mut();
static mut USER_DEFAULT_PATH: *mut c_char = ptr::null_mut();

// Storage of the variables that `pmix_mca_base_open` registers (the variable system owns the
// strings it puts here).
static mut PATH_FROM_PARAM: *mut c_char = ptr::null_mut();
static mut SHOW_LOAD_ERRORS: *mut c_char = ptr::null_mut();
static mut ABORT_ON_LOAD_ERROR: bool = false;
static mut TRACK_LOAD_ERRORS: bool = false;
static mut DISABLE_DLOPEN: bool = false;
static mut BASE_VERBOSE: *mut c_char = ptr::null_mut();

/// The default of `mca_base_component_show_load_errors` (OpenPMIx's configure default, which
/// the wheel's library has).
const SHOW_LOAD_ERRORS_DEFAULT: &CStr = c"none";

/// Whether `mca_base_component_show_load_errors` has a value (it has once the base is open):
/// a requested component that is missing is reported only then.
pub fn show_load_errors_set() -> bool {
    // SAFETY: a pointer read.
    unsafe { !ptr::read(&raw const SHOW_LOAD_ERRORS).is_null() }
}

/// `mca_base_abort_on_load_error`.
pub fn abort_on_load_error() -> bool {
    // SAFETY: a bool read.
    unsafe { ptr::read(&raw const ABORT_ON_LOAD_ERROR) }
}

/// The component path composed by `pmix_mca_base_open` (never searched: no DSOs here).
pub fn component_path() -> Option<CString> {
    // SAFETY: NULL or a libc string of ours.
    unsafe {
        let p = ptr::read(&raw const COMPONENT_PATH);
        (!p.is_null()).then(|| CStr::from_ptr(p).to_owned())
    }
}

/// Which load failures are reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowLoadErrors {
    All,
    None,
    /// Only those of these `framework[/component]` items.
    Include(Vec<(Vec<u8>, Option<Vec<u8>>)>),
    /// All but those of these items.
    Exclude(Vec<(Vec<u8>, Option<Vec<u8>>)>),
}

static SHOW: Mutex<ShowLoadErrors> = Mutex::new(ShowLoadErrors::All);

/// How OpenPMIx reads a string as a boolean (`PMIx_Value_true` on a string): `Some(true)`,
/// `Some(false)`, or `None` when it is not one.
pub fn string_truth(s: Option<&[u8]>) -> Option<bool> {
    let Some(s) = s else {
        return Some(true);
    };
    let s = &s[s.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let prefix = |p: &[u8]| s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p);
    if s.is_empty() {
        Some(true)
    } else if s[0].is_ascii_digit() {
        Some(
            s.iter()
                .take_while(|b| b.is_ascii_digit())
                .any(|&b| b != b'0'),
        )
    } else if prefix(b"yes") || prefix(b"true") {
        Some(true)
    } else if prefix(b"no") || prefix(b"false") {
        Some(false)
    } else {
        None
    }
}

/// Reads a `mca_base_component_show_load_errors` value: a boolean, `all`, `none`, or a
/// comma list of `framework[/component]` items, `^` first to exclude them. An item with
/// more than one `/` is an error (help message, PMIX_ERR_BAD_PARAM).
pub fn parse_show_load_errors(v: Option<&[u8]>) -> Result<ShowLoadErrors, c_int> {
    match string_truth(v) {
        Some(true) => return Ok(ShowLoadErrors::All),
        Some(false) => return Ok(ShowLoadErrors::None),
        None => {}
    }
    let v = v.unwrap_or_default();
    if v.eq_ignore_ascii_case(b"all") {
        return Ok(ShowLoadErrors::All);
    }
    if v.eq_ignore_ascii_case(b"none") {
        return Ok(ShowLoadErrors::None);
    }
    let (exclude, list) = match v.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, v),
    };
    let mut items = Vec::new();
    for item in split_nonempty(list, b',') {
        let parts = split_nonempty(&item, b'/');
        match parts.len() {
            0 => continue,
            1 | 2 => items.push((parts[0].clone(), parts.get(1).cloned())),
            _ => {
                let item = CString::new(item).unwrap_or_default();
                // SAFETY: C strings for the help message's one %s.
                unsafe {
                    ffi::pmix_show_help(
                        c"help-mca-base.txt".as_ptr(),
                        c"show_load_errors: too many /".as_ptr(),
                        1,
                        item.as_ptr(),
                    );
                }
                return Err(PMIX_ERR_BAD_PARAM);
            }
        }
    }
    Ok(if exclude {
        ShowLoadErrors::Exclude(items)
    } else {
        ShowLoadErrors::Include(items)
    })
}

/// Whether a load failure of `framework`/`component` is to be reported. An item naming only
/// a framework covers all its components.
pub fn show_load_errors_for(framework: &[u8], component: Option<&[u8]>) -> bool {
    let mode = SHOW.lock().unwrap_or_else(|e| e.into_inner());
    let (items, on_match) = match &*mode {
        ShowLoadErrors::All => return true,
        ShowLoadErrors::None => return false,
        ShowLoadErrors::Include(i) => (i, true),
        ShowLoadErrors::Exclude(i) => (i, false),
    };
    let hit = items.iter().any(|(f, c)| {
        f == framework
            && match (component, c) {
                (None, _) | (_, None) => true,
                (Some(a), Some(b)) => a == b.as_slice(),
            }
    });
    if hit { on_match } else { !on_match }
}

/// Sets how load failures are reported (what `pmix_mca_base_open` does from the variable).
pub fn set_show_load_errors(mode: ShowLoadErrors) {
    *SHOW.lock().unwrap_or_else(|e| e.into_inner()) = mode;
}

/// `pmix_output_stream_t`, as `pmix_mca_base_open` hands it to `pmix_output_open` for stream
/// 0: all zero but what the `mca_base_verbose` value sets.
pub use crate::output::OutputStream;

/// The settings of stream 0 that a `mca_base_verbose` value asks for (its strings owned
/// here, to be pointed at by an `OutputStream`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct VerboseSpec {
    pub syslog: bool,
    pub syslog_priority: c_int,
    pub syslog_ident: Option<CString>,
    pub stdout: bool,
    pub stderr: bool,
    pub file: bool,
    pub file_append: bool,
    pub file_suffix: Option<CString>,
    pub level: c_int,
}

/// `atoi`: optional blanks and sign, then digits.
fn atoi(s: &[u8]) -> c_int {
    let s = &s[s.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let (neg, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n: i64 = 0;
    for &b in s.iter().take_while(|b| b.is_ascii_digit()) {
        n = (n * 10 + i64::from(b - b'0')).min(i64::from(i32::MAX) + 1);
    }
    let n = if neg { -n } else { n };
    n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as c_int
}

/// Reads a `mca_base_verbose` value: a comma list of `stderr`, `stdout`, `syslog`,
/// `syslogpri:<notice|info|debug>`, `syslogid:<ident>`, `file[:suffix]`, `fileappend`,
/// `level[:N]`; stderr when it names no destination.
pub fn parse_verbose(v: &[u8]) -> VerboseSpec {
    let mut s = VerboseSpec::default();
    let mut have_output = false;
    let lower_starts =
        |p: &[u8], w: &[u8]| p.len() >= w.len() && p[..w.len()].eq_ignore_ascii_case(w);
    for p in v.split(|&b| b == b',') {
        if p.eq_ignore_ascii_case(b"syslog") {
            s.syslog = true;
            have_output = true;
        } else if lower_starts(p, b"syslogpri:") {
            s.syslog = true;
            have_output = true;
            let pri = &p[10..];
            if pri.eq_ignore_ascii_case(b"notice") {
                s.syslog_priority = libc::LOG_NOTICE;
            } else if pri.eq_ignore_ascii_case(b"info") {
                s.syslog_priority = libc::LOG_INFO;
            } else if pri.eq_ignore_ascii_case(b"debug") {
                s.syslog_priority = libc::LOG_DEBUG;
            }
        } else if lower_starts(p, b"syslogid:") {
            s.syslog = true;
            s.syslog_ident = CString::new(&p[9..]).ok();
        } else if p.eq_ignore_ascii_case(b"stdout") {
            s.stdout = true;
            have_output = true;
        } else if p.eq_ignore_ascii_case(b"stderr") {
            s.stderr = true;
            have_output = true;
        } else if p.eq_ignore_ascii_case(b"file") || p.eq_ignore_ascii_case(b"file:") {
            s.file = true;
            have_output = true;
        } else if lower_starts(p, b"file:") {
            s.file = true;
            s.file_suffix = CString::new(&p[5..]).ok();
            have_output = true;
        } else if p.eq_ignore_ascii_case(b"fileappend") {
            s.file = true;
            s.file_append = true;
            have_output = true;
        } else if lower_starts(p, b"level") {
            s.level = if p.get(5) == Some(&b':') {
                atoi(&p[6..])
            } else {
                0
            };
        }
    }
    if !have_output {
        s.stderr = true;
    }
    s
}

/// A libc copy of `s` (NULL when out of memory).
fn c_strdup(s: &CStr) -> *mut c_char {
    // SAFETY: duplicating a C string.
    unsafe { libc::strdup(s.as_ptr()) }
}

/// Registers a `pmix_mca_base_*` variable and its deprecated `pmix_mca_*` synonym.
///
/// # Safety
/// `storage` is the variable's storage, of the type `ty`, for the life of the process.
unsafe fn register_base_var(
    name: &CStr,
    desc: &CStr,
    ty: c_int,
    storage: *mut c_void,
    synonym: bool,
) {
    // SAFETY: per the contract; C strings.
    unsafe {
        let id = ffi::pmix_mca_base_var_register(
            c"pmix".as_ptr(),
            c"mca".as_ptr(),
            c"base".as_ptr(),
            name.as_ptr(),
            desc.as_ptr(),
            ty,
            storage,
        );
        if synonym {
            ffi::pmix_mca_base_var_register_synonym(
                id,
                c"pmix".as_ptr(),
                c"mca".as_ptr(),
                ptr::null(),
                name.as_ptr(),
                VAR_SYN_FLAG_DEPRECATED,
            );
        }
    }
}

const DESC_SHOW_LOAD_ERRORS: &CStr = c"Whether to show errors for components that failed to load or not. Valid values are \"all\" (meaning: all load failures are reported), \"none\" (no load failures are reported), or a comma-delimited list of items, each of which can be a framework/component pair or a framework name (only load failures from the specifically-listed items are reported). If the comma-delimited list is prefixed with \"^\", then orientation of the list is negated: warn about all load failures *except* for the listed items.";
const DESC_VERBOSE: &CStr = c"Specifies where the default error output stream goes (this is separate from distinct help messages).  Accepts a comma-delimited list of: stderr, stdout, syslog, syslogpri:<notice|info|debug>, syslogid:<str> (where str is the prefix string for all syslog notices), file[:filename] (if filename is not specified, a default filename is used), fileappend (if not specified, the file is opened for truncation), level[:N] (if specified, integer verbose level; otherwise, 0 is implied)";

/// Puts `lds` in place of stream 0 (what `pmix_output_reopen(0, lds)` does, from the
/// exported open and close: an open takes the lowest free stream). Should stream 0 refuse to
/// close, it stays as it was.
///
/// # Safety
/// `lds` points to a stream description. Not thread-safe (process initialization).
unsafe fn reopen_stream0(lds: *mut OutputStream) {
    // SAFETY: per the contract.
    unsafe {
        ffi::pmix_output_close(0);
        let id = ffi::pmix_output_open(lds.cast());
        if id > 0 {
            ffi::pmix_output_close(id);
        }
    }
}

/// Opens the MCA base (once; later calls count and put `add_path` in front of the component
/// path): composes the component path (`<add_path>;pmix@<pmixlibdir>:~/.pmix/components`),
/// registers the `mca_base_*` variables, reads which load errors to show, and reopens output
/// stream 0 as `mca_base_verbose` says, with the prefix `[host:pid] `.
///
/// # Safety
/// `add_path` is NULL or a C string. Not thread-safe (process initialization).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_open(add_path: *const c_char) -> c_int {
    // SAFETY: per the contract; the statics are only touched during initialization.
    unsafe {
        let add = (!add_path.is_null()).then(|| CStr::from_ptr(add_path));
        if OPENED > 0 {
            if let Some(add) = add {
                let old = ptr::read(&raw const COMPONENT_PATH);
                let new = if old.is_null() {
                    c_strdup(add)
                } else {
                    let joined = [add.to_bytes(), b";", CStr::from_ptr(old).to_bytes()].concat();
                    libc::free(old.cast());
                    CString::new(joined).map_or(ptr::null_mut(), |c| c_strdup(&c))
                };
                COMPONENT_PATH = new;
            }
            OPENED += 1;
            return PMIX_SUCCESS;
        }
        OPENED += 1;

        let mut paths: Vec<Vec<u8>> = Vec::new();
        let libdir = installdirs::get().pmixlibdir;
        if !libdir.is_null() {
            SYSTEM_DEFAULT_PATH = libc::strdup(libdir);
            paths.push(CStr::from_ptr(libdir).to_bytes().to_vec());
        }
        let home = ffi::pmix_home_directory(libc::geteuid());
        let home = if home.is_null() {
            &b"(null)"[..]
        } else {
            CStr::from_ptr(home).to_bytes()
        };
        let user = [home, b"/.pmix/components"].concat();
        if let Ok(u) = CString::new(user.clone()) {
            USER_DEFAULT_PATH = c_strdup(&u);
        }
        paths.push(user);

        register_base_var(
            c"component_path",
            c"Path where to look for additional components",
            VAR_TYPE_STRING,
            (&raw mut PATH_FROM_PARAM).cast(),
            true,
        );
        let from_param = ptr::read(&raw const PATH_FROM_PARAM);
        if !from_param.is_null() {
            paths.push(CStr::from_ptr(from_param).to_bytes().to_vec());
        }
        let joined = paths.join(&b':');
        let path = match add {
            Some(add) => [add.to_bytes(), b";pmix@", &joined].concat(),
            None => [&b"pmix@"[..], &joined].concat(),
        };
        COMPONENT_PATH = CString::new(path).map_or(ptr::null_mut(), |c| c_strdup(&c));

        SHOW_LOAD_ERRORS = SHOW_LOAD_ERRORS_DEFAULT.as_ptr().cast_mut();
        register_base_var(
            c"component_show_load_errors",
            DESC_SHOW_LOAD_ERRORS,
            VAR_TYPE_STRING,
            (&raw mut SHOW_LOAD_ERRORS).cast(),
            true,
        );
        let v = ptr::read(&raw const SHOW_LOAD_ERRORS);
        let v = (!v.is_null()).then(|| CStr::from_ptr(v).to_bytes());
        match parse_show_load_errors(v) {
            Ok(mode) => set_show_load_errors(mode),
            Err(e) => return e,
        }

        ABORT_ON_LOAD_ERROR = false;
        register_base_var(
            c"abort_on_load_error",
            c"Whether to abort when a specified component isn't found or cannot be loaded",
            VAR_TYPE_BOOL,
            (&raw mut ABORT_ON_LOAD_ERROR).cast(),
            false,
        );
        TRACK_LOAD_ERRORS = false;
        register_base_var(
            c"component_track_load_errors",
            c"Whether to track errors for components that failed to load or not",
            VAR_TYPE_BOOL,
            (&raw mut TRACK_LOAD_ERRORS).cast(),
            false,
        );
        DISABLE_DLOPEN = false;
        register_base_var(
            c"component_disable_dlopen",
            c"Whether to attempt to disable opening dynamic components or not",
            VAR_TYPE_BOOL,
            (&raw mut DISABLE_DLOPEN).cast(),
            true,
        );
        BASE_VERBOSE = c"stderr".as_ptr().cast_mut();
        register_base_var(
            c"verbose",
            DESC_VERBOSE,
            VAR_TYPE_STRING,
            (&raw mut BASE_VERBOSE).cast(),
            true,
        );

        let v = ptr::read(&raw const BASE_VERBOSE);
        let spec = if v.is_null() {
            // No value at all: stderr, syslog at info as "ompi".
            VerboseSpec {
                stderr: true,
                syslog_priority: libc::LOG_INFO,
                syslog_ident: Some(c"ompi".to_owned()),
                ..VerboseSpec::default()
            }
        } else {
            parse_verbose(CStr::from_ptr(v).to_bytes())
        };
        let mut host = [0 as c_char; 256];
        libc::gethostname(host.as_mut_ptr(), host.len() - 1);
        let prefix = [
            &b"["[..],
            CStr::from_ptr(host.as_ptr()).to_bytes(),
            format!(":{:05}] ", libc::getpid()).as_bytes(),
        ]
        .concat();
        let Ok(prefix) = CString::new(prefix) else {
            return PMIX_ERR_OUT_OF_RESOURCE;
        };
        // The stream's strings stay ours: reopen copies what it keeps.
        let mut lds: OutputStream = core::mem::zeroed();
        lds.lds_verbose_level = spec.level;
        lds.lds_syslog_priority = spec.syslog_priority;
        lds.lds_syslog_ident = spec
            .syslog_ident
            .as_ref()
            .map_or(ptr::null_mut(), |s| s.as_ptr().cast_mut());
        lds.lds_prefix = prefix.as_ptr().cast_mut();
        lds.lds_want_syslog = spec.syslog;
        lds.lds_want_stdout = spec.stdout;
        lds.lds_want_stderr = spec.stderr;
        lds.lds_want_file = spec.file;
        lds.lds_want_file_append = spec.file_append;
        lds.lds_file_suffix = spec
            .file_suffix
            .as_ref()
            .map_or(ptr::null_mut(), |s| s.as_ptr().cast_mut());
        reopen_stream0(&raw mut lds);
        verbose!(
            VERBOSE_COMPONENT,
            0,
            c"mca: base: opening components at %s",
            ptr::read(&raw const COMPONENT_PATH) as *const c_char,
        );
    }
    PMIX_SUCCESS
}

/// Closes the MCA base when the last opener closes it: deregisters the `mca_base` variable
/// group, frees the paths, forgets which load errors to show and closes output stream 0.
///
/// # Safety
/// Not thread-safe (process finalization).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_close() -> c_int {
    // SAFETY: the statics are only touched during initialization and finalization.
    unsafe {
        if OPENED <= 0 {
            return PMIX_SUCCESS;
        }
        OPENED -= 1;
        if OPENED > 0 {
            return PMIX_SUCCESS;
        }
        let g =
            ffi::pmix_mca_base_var_group_find(c"pmix".as_ptr(), c"mca".as_ptr(), c"base".as_ptr());
        if g > -1 {
            ffi::pmix_mca_base_var_group_deregister(g);
        }
        for p in [
            &raw mut SYSTEM_DEFAULT_PATH,
            &raw mut USER_DEFAULT_PATH,
            &raw mut COMPONENT_PATH,
        ] {
            libc::free((*p).cast());
            *p = ptr::null_mut();
        }
        let mut mode = SHOW.lock().unwrap_or_else(|e| e.into_inner());
        if let ShowLoadErrors::Include(i) | ShowLoadErrors::Exclude(i) = &mut *mode {
            i.clear();
        }
        drop(mode);
        ffi::pmix_output_close(0);
    }
    PMIX_SUCCESS
}
