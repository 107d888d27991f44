//! MCA variables: the registry, their sources (environment, parameter files, defaults),
//! synonyms, groups, the parameter-file parser, and the `pmdl` routing of parameters.
//!
//! A variable is named by project, framework, component and name: its full name is
//! `framework_component_name`, its long name `project_framework_component_name` (absent parts
//! left out), and it is looked up by full name only. Registering one ties it to the caller's
//! storage and sets that storage from, first to last: the override file
//! (`<sysconfdir>/pmix-mca-params-override.conf`), the environment (`<PROJECT>_MCA_<long>`,
//! then `<PROJECT>_MCA_<full>`, with `<PROJECT>_MCA_SOURCE_<name>` telling where it came
//! from), the parameter files (`~/.pmix/mca-params.conf`, `<sysconfdir>/pmix-mca-params.conf`,
//! read once by `pmix_mca_base_var_init` unless `PMIX_PARAM_FILE_PASSED` is set), or else the
//! default already in the storage. String values are the library's: the default is
//! duplicated at registration and replaced values are freed.
//!
//! Layouts are OpenPMIx 5.0.11's (`facts/layouts-mcavar.txt`). Warnings go through
//! `pmix_show_help` with `help-pmix-mca-var.txt`'s topics, after the registry is unlocked.

mod alias;
mod group;
pub mod keyval;
mod pmdl;

pub use alias::{pmix_mca_base_alias_cleanup, pmix_mca_base_alias_register};
pub use group::{
    Group, pmix_mca_base_var_group_deregister, pmix_mca_base_var_group_find,
    pmix_mca_base_var_group_register,
};
pub use keyval::FileValue;

use crate::list::{self, List};
use crate::object::{self, Class, Object, pmix_object_t_class};
use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr;
use std::collections::BTreeMap;
use std::ffi::CString;
use std::sync::Mutex;

pub(crate) const SUCCESS: c_int = 0;
pub(crate) const PMIX_ERROR: c_int = -1;
pub(crate) const ERR_BAD_PARAM: c_int = -27;
pub(crate) const ERR_OUT_OF_RESOURCE: c_int = -29;
pub(crate) const ERR_NOT_FOUND: c_int = -46;
pub(crate) const ERR_VALUE_OUT_OF_BOUNDS: c_int = -65;

/// `pmix_mca_base_var_type_t`.
pub const TYPE_INT: c_int = 0;
pub const TYPE_UNSIGNED_INT: c_int = 1;
pub const TYPE_UNSIGNED_LONG: c_int = 2;
pub const TYPE_UNSIGNED_LONG_LONG: c_int = 3;
pub const TYPE_SIZE_T: c_int = 4;
pub const TYPE_STRING: c_int = 5;
pub const TYPE_VERSION_STRING: c_int = 6;
pub const TYPE_BOOL: c_int = 7;
pub const TYPE_DOUBLE: c_int = 8;
pub const TYPE_MAX: c_int = 9;

/// `pmix_mca_base_var_source_t`.
pub const SOURCE_DEFAULT: c_int = 0;
pub const SOURCE_COMMAND_LINE: c_int = 1;
pub const SOURCE_ENV: c_int = 2;
pub const SOURCE_FILE: c_int = 3;
pub const SOURCE_SET: c_int = 4;
pub const SOURCE_OVERRIDE: c_int = 5;
pub const SOURCE_MAX: c_int = 6;

/// `PMIX_MCA_BASE_VAR_SYN_FLAG_DEPRECATED`.
pub const SYN_FLAG_DEPRECATED: c_int = 1;

const FLAG_DEPRECATED: u32 = 0x0008;
const FLAG_VALID: u32 = 0x0001_0000;
const FLAG_SYNONYM: u32 = 0x0002_0000;

/// `pmix_mca_base_var_dump_type_t`.
pub const DUMP_READABLE: c_int = 0;
pub const DUMP_PARSABLE: c_int = 1;
pub const DUMP_SIMPLE: c_int = 2;

/// `pmix_value_array_t` (152 bytes): a growable array of fixed-size items (here `int`s),
/// read by PRRTE's inline `pmix_value_array_get_size` and `PMIX_VALUE_ARRAY_GET_BASE`.
#[repr(C)]
#[derive(Debug)]
pub struct ValueArray {
    pub super_: Object,
    pub array_items: *mut u8,
    pub array_item_sizeof: usize,
    pub array_size: usize,
    pub array_alloc_size: usize,
}

unsafe extern "C" fn va_construct(o: *mut Object) {
    let a = o as *mut ValueArray;
    // SAFETY: called on a value array being constructed.
    unsafe {
        (*a).array_items = ptr::null_mut();
        (*a).array_item_sizeof = 0;
        (*a).array_size = 0;
        (*a).array_alloc_size = 0;
    }
}

unsafe extern "C" fn va_destruct(o: *mut Object) {
    let a = o as *mut ValueArray;
    // SAFETY: called on a constructed value array; its items are a libc allocation.
    unsafe {
        libc::free((*a).array_items.cast());
        (*a).array_items = ptr::null_mut();
    }
}

/// The value arrays' class (the containers family does not export one; ours stays private).
static mut VALUE_ARRAY_CLASS: Class = Class {
    cls_name: c"pmix_value_array_t".as_ptr(),
    cls_parent: &raw mut pmix_object_t_class,
    cls_construct: Some(va_construct),
    cls_destruct: Some(va_destruct),
    cls_initialized: 0,
    cls_depth: 0,
    cls_construct_array: ptr::null_mut(),
    cls_destruct_array: ptr::null_mut(),
    cls_sizeof: size_of::<ValueArray>(),
};

impl ValueArray {
    /// Constructs `a` in place as an empty array of `int`s.
    ///
    /// # Safety
    /// `a` points to writable memory for a value array.
    unsafe fn construct_ints(a: *mut ValueArray) {
        // SAFETY: per the contract.
        unsafe {
            libc::pthread_mutex_init(&raw mut (*a).super_.obj_lock, ptr::null());
            object::construct(a as *mut Object, &raw mut VALUE_ARRAY_CLASS);
            (*a).array_item_sizeof = size_of::<c_int>();
            (*a).array_alloc_size = 1;
            (*a).array_items = libc::malloc(size_of::<c_int>()).cast();
        }
    }

    /// The `int`s held.
    ///
    /// # Safety
    /// `a` is a constructed array of `int`s.
    unsafe fn ints(a: *const ValueArray) -> Vec<c_int> {
        // SAFETY: per the contract.
        unsafe {
            if (*a).array_items.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts((*a).array_items as *const c_int, (*a).array_size).to_vec()
        }
    }

    /// Appends an `int`, doubling the allocation as OpenPMIx's `set_size` does.
    ///
    /// # Safety
    /// `a` is a constructed array of `int`s.
    unsafe fn push(a: *mut ValueArray, v: c_int) -> c_int {
        // SAFETY: per the contract.
        unsafe {
            let n = (*a).array_size + 1;
            if n > (*a).array_alloc_size {
                let mut alloc = (*a).array_alloc_size.max(1);
                while alloc < n {
                    alloc <<= 1;
                }
                let p = libc::realloc((*a).array_items.cast(), alloc * size_of::<c_int>());
                if p.is_null() {
                    return ERR_OUT_OF_RESOURCE;
                }
                (*a).array_items = p.cast();
                (*a).array_alloc_size = alloc;
            }
            *((*a).array_items as *mut c_int).add(n - 1) = v;
            (*a).array_size = n;
            SUCCESS
        }
    }
}

/// `pmix_mca_base_var_t` (384 bytes): one registered variable.
#[repr(C)]
#[derive(Debug)]
pub struct Var {
    pub super_: Object,
    pub mbv_index: c_int,
    pub mbv_group_index: c_int,
    pub mbv_type: c_int,
    pub mbv_variable_name: *mut c_char,
    pub mbv_full_name: *mut c_char,
    pub mbv_long_name: *mut c_char,
    pub mbv_prefix: *mut c_char,
    pub mbv_synonyms: ValueArray,
    pub mbv_flags: u32,
    pub mbv_source: c_int,
    pub mbv_synonym_for: c_int,
    pub mbv_description: *mut c_char,
    pub mbv_source_file: *mut c_char,
    /// Always null: OpenPMIx 5.0 registers no enumerators.
    pub mbv_enumerator: *mut c_void,
    pub mbv_bind: c_int,
    pub mbv_storage: *mut c_void,
    pub mbv_file_value: *mut c_void,
}

unsafe extern "C" fn var_construct(o: *mut Object) {
    let v = o as *mut Var;
    // SAFETY: called on a variable being constructed: everything after the header is reset.
    unsafe {
        ptr::write_bytes(
            (v as *mut u8).add(size_of::<Object>()),
            0,
            size_of::<Var>() - size_of::<Object>(),
        );
        (*v).mbv_type = TYPE_MAX;
        ValueArray::construct_ints(&raw mut (*v).mbv_synonyms);
    }
}

unsafe extern "C" fn var_destruct(o: *mut Object) {
    let v = o as *mut Var;
    // SAFETY: called on a constructed variable; its strings are libc ones, and a string
    // variable's storage holds the library's copy.
    unsafe {
        if is_string((*v).mbv_type) && !(*v).mbv_storage.is_null() {
            let s = (*v).mbv_storage as *mut *mut c_char;
            libc::free((*s).cast());
            *s = ptr::null_mut();
        }
        for p in [
            (*v).mbv_variable_name,
            (*v).mbv_full_name,
            (*v).mbv_long_name,
            (*v).mbv_prefix,
            (*v).mbv_description,
        ] {
            libc::free(p.cast());
        }
        object::destruct(&raw mut (*v).mbv_synonyms as *mut Object);
        (*v).mbv_type = TYPE_MAX;
    }
}

crate::class!(
    pmix_mca_base_var_t_class,
    Var,
    &raw mut pmix_object_t_class,
    Some(var_construct),
    Some(var_destruct)
);

/// `pmix_var_type_names`: the types' names, as `prte_info` and `pmix_info` print them.
#[repr(transparent)]
pub struct TypeNames(pub [*const c_char; 9]);

// SAFETY: immutable pointers to string constants.
unsafe impl Sync for TypeNames {}

#[unsafe(no_mangle)]
pub static pmix_var_type_names: TypeNames = TypeNames([
    c"int".as_ptr(),
    c"unsigned_int".as_ptr(),
    c"unsigned_long".as_ptr(),
    c"unsigned_long_long".as_ptr(),
    c"size_t".as_ptr(),
    c"string".as_ptr(),
    c"version_string".as_ptr(),
    c"bool".as_ptr(),
    c"double".as_ptr(),
]);

const SOURCE_NAMES: [&str; 6] = [
    "default",
    "command line",
    "environment",
    "file",
    "set",
    "override",
];

fn is_string(t: c_int) -> bool {
    t == TYPE_STRING || t == TYPE_VERSION_STRING
}

/// A libc copy of `s`, NUL-terminated.
pub(crate) fn dup(s: &[u8]) -> *mut c_char {
    // SAFETY: a fresh allocation of len + 1 bytes, filled.
    unsafe {
        let p = libc::malloc(s.len() + 1) as *mut u8;
        if p.is_null() {
            return ptr::null_mut();
        }
        ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        *p.add(s.len()) = 0;
        p.cast()
    }
}

/// The bytes of a C string, or none for null.
///
/// # Safety
/// `p` is null or a C string that outlives the answer's use.
pub(crate) unsafe fn bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: per the contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_bytes())
}

/// A C string's bytes as `printf("%s")` shows them (`(null)` for null).
///
/// # Safety
/// As `bytes`.
unsafe fn shown(p: *const c_char) -> Vec<u8> {
    // SAFETY: per the contract.
    unsafe { bytes(p) }.map_or(b"(null)".to_vec(), <[u8]>::to_vec)
}

/// `pmix_mca_base_var_generate_full_name4`: the non-null parts joined by `_`.
fn full_name4(parts: [Option<&[u8]>; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts.into_iter().flatten() {
        if !out.is_empty() {
            out.push(b'_');
        }
        out.extend_from_slice(p);
    }
    out
}

/// A warning or error to print once the registry is unlocked.
#[derive(Debug)]
pub(crate) enum Notice {
    /// `pmix_show_help("help-pmix-mca-var.txt", topic, true, args...)`; a `None` argument
    /// is a null pointer.
    Help(&'static CStr, Vec<Option<Vec<u8>>>),
    /// The `missing-param-file` topic, whose first argument is the pid.
    MissingFile(Vec<u8>, Vec<u8>),
    /// `pmix_output(0, ...)` of a finished message.
    Output(String),
}

unsafe extern "C" {
    fn pmix_show_help(file: *const c_char, topic: *const c_char, want_header: c_int, ...) -> c_int;
    fn pmix_output(id: c_int, fmt: *const c_char, ...);
    static pmix_pinstall_dirs: [*mut c_char; 17];
}

/// Index of `sysconfdir` and `pmixdatadir` in `pmix_pinstall_dirs_t`.
const SYSCONFDIR: usize = 7;
const PMIXDATADIR: usize = 14;

fn install_dir(i: usize) -> *const c_char {
    // SAFETY: the frameworks family's exported array of 17 pointers, read by value.
    unsafe {
        ptr::read_unaligned(
            (&raw const pmix_pinstall_dirs)
                .cast::<*const c_char>()
                .add(i),
        )
    }
}

/// Prints notices (through other families' `pmix_show_help` and `pmix_output`).
pub(crate) fn emit(notices: Vec<Notice>) {
    const FILE: &CStr = c"help-pmix-mca-var.txt";
    for n in notices {
        match n {
            Notice::Help(topic, args) => {
                let cs: Vec<Option<CString>> = args
                    .into_iter()
                    .map(|a| a.map(|a| CString::new(a).unwrap_or_default()))
                    .collect();
                let p: Vec<*const c_char> = cs
                    .iter()
                    .map(|c| c.as_ref().map_or(ptr::null(), |c| c.as_ptr()))
                    .collect();
                let a = |i: usize| p.get(i).copied().unwrap_or(ptr::null());
                let (f, t) = (FILE.as_ptr(), topic.as_ptr());
                // SAFETY: every argument is a C string or null, as many as the topic uses.
                unsafe {
                    match p.len() {
                        0 => pmix_show_help(f, t, 1),
                        1 => pmix_show_help(f, t, 1, a(0)),
                        2 => pmix_show_help(f, t, 1, a(0), a(1)),
                        3 => pmix_show_help(f, t, 1, a(0), a(1), a(2)),
                        4 => pmix_show_help(f, t, 1, a(0), a(1), a(2), a(3)),
                        5 => pmix_show_help(f, t, 1, a(0), a(1), a(2), a(3), a(4)),
                        6 => pmix_show_help(f, t, 1, a(0), a(1), a(2), a(3), a(4), a(5)),
                        _ => pmix_show_help(f, t, 1, a(0), a(1), a(2), a(3), a(4), a(5), a(6)),
                    };
                }
            }
            Notice::MissingFile(file, path) => {
                let (file, path) = (
                    CString::new(file).unwrap_or_default(),
                    CString::new(path).unwrap_or_default(),
                );
                // SAFETY: an int and two C strings, as the topic expects.
                unsafe {
                    pmix_show_help(
                        FILE.as_ptr(),
                        c"missing-param-file".as_ptr(),
                        1,
                        libc::getpid() as c_int,
                        file.as_ptr(),
                        path.as_ptr(),
                    );
                }
            }
            Notice::Output(msg) => {
                let m = CString::new(msg).unwrap_or_default();
                // SAFETY: a format and its one string argument.
                unsafe { pmix_output(0, c"%s".as_ptr(), m.as_ptr()) }
            }
        }
    }
}

/// The registry: variables and groups by index and by name, the values read from files.
pub(crate) struct Reg {
    initialized: bool,
    vars: Vec<*mut Var>,
    names: BTreeMap<Vec<u8>, c_int>,
    pub(crate) groups: group::Groups,
    file_values: *mut List,
    override_values: *mut List,
    /// The parameter files read (libc strings the file values point into).
    file_list: Vec<*mut c_char>,
    home: Option<Vec<u8>>,
    cwd: Option<Vec<u8>>,
    pending: Vec<Notice>,
}

// SAFETY: the raw pointers are the registry's own objects, used only under its mutex.
unsafe impl Send for Reg {}

static REG: Mutex<Reg> = Mutex::new(Reg {
    initialized: false,
    vars: Vec::new(),
    names: BTreeMap::new(),
    groups: group::Groups::new(),
    file_values: ptr::null_mut(),
    override_values: ptr::null_mut(),
    file_list: Vec::new(),
    home: None,
    cwd: None,
    pending: Vec::new(),
});

/// The registry's own settings (storage of the variables `pmix_mca_base_var_init`
/// registers), written through their storage pointers under the registry's lock.
static mut PARAM_FILES: *mut c_char = ptr::null_mut();
static mut OVERRIDE_FILE: *mut c_char = ptr::null_mut();
static mut SUPPRESS_OVERRIDE_WARNING: bool = false;
static mut FILE_PREFIX: *mut c_char = ptr::null_mut();
static mut PARAM_FILE_PATH: *mut c_char = ptr::null_mut();
static mut FORCE_AGG_PATH: *mut c_char = ptr::null_mut();

/// Runs `f` on the locked registry, then prints what it queued.
pub(crate) fn with_reg<R>(f: impl FnOnce(&mut Reg) -> R) -> R {
    let mut g = REG.lock().unwrap_or_else(|e| e.into_inner());
    let r = f(&mut g);
    let notices = std::mem::take(&mut g.pending);
    drop(g);
    emit(notices);
    r
}

fn getenv(name: &[u8]) -> Option<Vec<u8>> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    std::env::var_os(std::ffi::OsStr::from_bytes(name)).map(OsStringExt::into_vec)
}

/// `pmix_home_directory(geteuid())`: `$HOME`, else the password entry's directory.
fn home_directory() -> Option<Vec<u8>> {
    if let Some(h) = getenv(b"HOME") {
        return Some(h);
    }
    // SAFETY: getpwuid's static entry, copied at once.
    unsafe {
        let pw = libc::getpwuid(libc::geteuid());
        if pw.is_null() {
            return None;
        }
        bytes((*pw).pw_dir).map(<[u8]>::to_vec)
    }
}

/// Strict base-0 `strtoull` prefix parse: the value and how many bytes it used (0 when no
/// digits), with `-` negating modulo 2^64 and overflow saturating, as glibc does.
fn strtoull(s: &[u8]) -> (u64, usize) {
    let mut i = count_ws(s);
    let mut neg = false;
    if let Some(&c) = s.get(i) {
        if c == b'+' || c == b'-' {
            neg = c == b'-';
            i += 1;
        }
    }
    let mut base = 10u64;
    if s.get(i) == Some(&b'0') && matches!(s.get(i + 1), Some(b'x' | b'X')) {
        if s.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
            base = 16;
            i += 2;
        } else {
            // "0x" with no hex digit: the "0" alone is the number.
            return (0, i + 1);
        }
    } else if s.get(i) == Some(&b'0') {
        base = 8;
    }
    let start = i;
    let mut v: u64 = 0;
    let mut overflow = false;
    while let Some(&c) = s.get(i) {
        let d = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'z' => u64::from(c - b'a') + 10,
            b'A'..=b'Z' => u64::from(c - b'A') + 10,
            _ => break,
        };
        if d >= base {
            break;
        }
        match v.checked_mul(base).and_then(|x| x.checked_add(d)) {
            Some(x) => v = x,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start {
        return (0, 0);
    }
    if overflow {
        return (u64::MAX, i);
    }
    (if neg { v.wrapping_neg() } else { v }, i)
}

fn count_ws(s: &[u8]) -> usize {
    s.iter()
        .take_while(|&&c| matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .count()
}

/// `int_from_string` (no enumerator): empty is 0; else strtoull base 0, and a k/m/g
/// right after the digits multiplies by 2^10/2^20/2^30.
fn int_from_string(src: &[u8]) -> u64 {
    if src.is_empty() {
        return 0;
    }
    let (mut v, used) = strtoull(src);
    if used < src.len() && used != 0 {
        match src[used] {
            b'G' | b'g' => v <<= 30,
            b'M' | b'm' => v <<= 20,
            b'K' | b'k' => v <<= 10,
            _ => {}
        }
    }
    v
}

impl Reg {
    /// `var_get`: the variable at `vari` (its original when `original` and it is a synonym).
    fn get(&self, vari: c_int, original: bool) -> Result<*mut Var, c_int> {
        if !self.initialized {
            return Err(PMIX_ERROR);
        }
        if vari < 0 {
            return Err(ERR_BAD_PARAM);
        }
        let v = self
            .vars
            .get(vari as usize)
            .copied()
            .unwrap_or(ptr::null_mut());
        if v.is_null() {
            return Err(ERR_BAD_PARAM);
        }
        // SAFETY: a live variable of the registry.
        unsafe {
            if original && (*v).mbv_flags & FLAG_SYNONYM != 0 {
                return self.get((*v).mbv_synonym_for, false);
            }
        }
        Ok(v)
    }

    fn valid(v: *mut Var) -> bool {
        // SAFETY: a live variable of the registry.
        unsafe { (*v).mbv_flags & FLAG_VALID != 0 }
    }

    /// `var_find_by_name`.
    fn find_by_name(&self, full: &[u8], invalidok: bool) -> Result<c_int, c_int> {
        let Some(&i) = self.names.get(full) else {
            return Err(ERR_NOT_FOUND);
        };
        match self.get(i, false) {
            Ok(v) if invalidok || Self::valid(v) => Ok(i),
            _ if invalidok => Ok(i),
            _ => Err(ERR_NOT_FOUND),
        }
    }

    /// `var_find`: by framework, component and name (the project plays no part).
    fn find(
        &self,
        fw: Option<&[u8]>,
        comp: Option<&[u8]>,
        name: Option<&[u8]>,
        invalidok: bool,
    ) -> c_int {
        let full = full_name4([None, fw, comp, name]);
        match self.find_by_name(&full, invalidok) {
            Ok(i) => i,
            Err(e) => e,
        }
    }

    /// `pmix_mca_base_var_init`.
    fn init(&mut self) -> c_int {
        if self.initialized {
            return SUCCESS;
        }
        self.vars.clear();
        self.names.clear();
        // SAFETY: fresh lists of file values.
        unsafe {
            self.file_values = object::new(list::list_class()) as *mut List;
            self.override_values = object::new(list::list_class()) as *mut List;
        }
        self.groups.init();
        self.initialized = true;
        let _ = self.cache_files(false);
        SUCCESS
    }

    /// A path as `asprintf("%s/...")` would make it from a possibly null directory.
    fn join(dir: *const c_char, tail: &[u8]) -> Vec<u8> {
        // SAFETY: an install directory string or null.
        let mut v = unsafe { shown(dir) };
        v.extend_from_slice(tail);
        v
    }

    /// `pmix_mca_base_var_cache_files`: registers the parameter-file variables and reads
    /// the files, unless `PMIX_PARAM_FILE_PASSED` is set.
    fn cache_files(&mut self, rel_path_search: bool) -> c_int {
        self.home = home_directory();
        if self.cwd.is_none() {
            match std::env::current_dir() {
                Ok(p) => {
                    use std::os::unix::ffi::OsStringExt;
                    self.cwd = Some(p.into_os_string().into_vec());
                }
                Err(_) => {
                    self.pending.push(Notice::Output(
                        "Error: Unable to get the current working directory\n".into(),
                    ));
                    self.cwd = Some(b".".to_vec());
                }
            }
        }
        if getenv(b"PMIX_PARAM_FILE_PASSED").is_some() {
            return SUCCESS;
        }
        let sysconf = install_dir(SYSCONFDIR);
        let mut files = self.home.clone().unwrap_or_else(|| b"(null)".to_vec());
        files.extend_from_slice(b"/.pmix/mca-params.conf,");
        files.extend(Self::join(sysconf, b"/pmix-mca-params.conf"));
        // SAFETY: the registry's own storage, under its lock.
        unsafe {
            let files_p = &raw mut PARAM_FILES;
            *files_p = dup(&files);
            let tmp = *files_p;
            let ret = self.register(
                Some(b"pmix"),
                Some(b"mca"),
                Some(b"base"),
                Some(b"param_files"),
                Some(b"Path for MCA configuration files containing variable values"),
                TYPE_STRING,
                0,
                0,
                files_p.cast(),
            );
            libc::free(tmp.cast());
            if ret != SUCCESS {
                return ret;
            }
            let _ = self.register_synonym(
                ret,
                Some(b"pmix"),
                Some(b"mca"),
                None,
                Some(b"param_files"),
                SYN_FLAG_DEPRECATED,
            );

            let over_p = &raw mut OVERRIDE_FILE;
            *over_p = dup(&Self::join(sysconf, b"/pmix-mca-params-override.conf"));
            let tmp = *over_p;
            let ret = self.register(
                Some(b"pmix"), Some(b"mca"), Some(b"base"), Some(b"override_param_file"),
                Some(b"Variables set in this file will override any value set inthe environment or another configuration file"),
                TYPE_STRING, 0, 0, over_p.cast(),
            );
            libc::free(tmp.cast());
            if ret < 0 {
                return ret;
            }
            if (*files_p).is_null() || bytes(*files_p) == Some(b"none") {
                return SUCCESS;
            }
            let sup = &raw mut SUPPRESS_OVERRIDE_WARNING;
            *sup = false;
            let ret = self.register(
                Some(b"pmix"), Some(b"mca"), Some(b"base"), Some(b"suppress_override_warning"),
                Some(b"Suppress warnings when attempting to set an overridden value (default: false)"),
                TYPE_BOOL, 0, 0, sup.cast(),
            );
            if ret < 0 {
                return ret;
            }
            let prefix = &raw mut FILE_PREFIX;
            *prefix = ptr::null_mut();
            let ret = self.register(
                Some(b"pmix"),
                Some(b"mca"),
                Some(b"base"),
                Some(b"param_file_prefix"),
                Some(b"Aggregate MCA parameter file sets"),
                TYPE_STRING,
                0,
                0,
                prefix.cast(),
            );
            if ret < 0 {
                return ret;
            }
            let path = &raw mut PARAM_FILE_PATH;
            let mut p = Self::join(install_dir(PMIXDATADIR), b"/amca-param-sets:");
            p.extend_from_slice(self.cwd.as_deref().unwrap_or(b"."));
            *path = dup(&p);
            let tmp = *path;
            let ret = self.register(
                Some(b"pmix"),
                Some(b"mca"),
                Some(b"base"),
                Some(b"param_file_path"),
                Some(b"Aggregate MCA parameter Search path"),
                TYPE_STRING,
                0,
                0,
                path.cast(),
            );
            libc::free(tmp.cast());
            if ret < 0 {
                return ret;
            }
            let force = &raw mut FORCE_AGG_PATH;
            *force = ptr::null_mut();
            let ret = self.register(
                Some(b"pmix"),
                Some(b"mca"),
                Some(b"base"),
                Some(b"param_file_path_force"),
                Some(b"Forced Aggregate MCA parameter Search path"),
                TYPE_STRING,
                0,
                0,
                force.cast(),
            );
            if ret < 0 {
                return ret;
            }
            if let Some(f) = bytes(*force) {
                let mut joined = f.to_vec();
                if let Some(old) = bytes(*path) {
                    joined.push(b':');
                    joined.extend_from_slice(old);
                }
                libc::free((*path).cast());
                *path = dup(&joined);
            }
            if let Some(pre) = bytes(*prefix).map(<[u8]>::to_vec) {
                self.resolve_relative_paths(&pre, rel_path_search);
            }
            let files = bytes(*files_p).map(<[u8]>::to_vec);
            let list = self.file_values;
            let ret = self.read_files(files.as_deref(), list, b',');
            if ret != SUCCESS && ret != ERR_NOT_FOUND {
                return ret;
            }
            let over = bytes(*over_p).map(<[u8]>::to_vec);
            let list = self.override_values;
            let ret = self.read_files(over.as_deref(), list, b':');
            if ret != SUCCESS && ret != ERR_NOT_FOUND {
                return ret;
            }
        }
        SUCCESS
    }

    /// The aggregate parameter sets (`param_file_prefix`): each name resolved to a
    /// readable file (absolute as is; with a `/` from the current or forced directory; else
    /// along `param_file_path`) and put before the parameter files.
    ///
    /// # Safety
    /// Under the registry's lock (it rewrites the settings' storage).
    unsafe fn resolve_relative_paths(&mut self, prefix: &[u8], rel_path_search: bool) {
        // SAFETY: per the contract.
        unsafe {
            let search: Vec<Vec<u8>> = bytes(PARAM_FILE_PATH)
                .unwrap_or(b"")
                .split(|&c| c == b':')
                .filter(|s| !s.is_empty())
                .map(<[u8]>::to_vec)
                .collect();
            let rel = bytes(FORCE_AGG_PATH)
                .map(<[u8]>::to_vec)
                .or_else(|| self.cwd.clone())
                .unwrap_or_default();
            let mut out: Vec<Vec<u8>> = Vec::new();
            for f in prefix.split(|&c| c == b':').filter(|s| !s.is_empty()) {
                let (found, msg_path) = if f[0] == b'/' {
                    (Some(f.to_vec()), Vec::new())
                } else if !rel_path_search && f.contains(&b'/') {
                    let mut p = rel.clone();
                    p.push(b'/');
                    p.extend_from_slice(f);
                    (Some(p), rel.clone())
                } else {
                    let hit = search.iter().find_map(|d| {
                        let mut p = d.clone();
                        p.push(b'/');
                        p.extend_from_slice(f);
                        let c = CString::new(p.clone()).ok()?;
                        (libc::access(c.as_ptr(), libc::R_OK) == 0).then_some(p)
                    });
                    (hit, bytes(PARAM_FILE_PATH).unwrap_or(b"(null)").to_vec())
                };
                match found {
                    Some(p) => out.push(p),
                    None => {
                        self.pending.push(Notice::MissingFile(f.to_vec(), msg_path));
                        return;
                    }
                }
            }
            let mut pre = out.join(&b':');
            libc::free(FILE_PREFIX.cast());
            FILE_PREFIX = dup(&pre);
            pre.push(b':');
            pre.extend_from_slice(bytes(PARAM_FILES).unwrap_or(b""));
            libc::free(PARAM_FILES.cast());
            PARAM_FILES = dup(&pre);
        }
    }

    /// The registry's copy of a file name (added once), which file values point to.
    fn file_name(&mut self, name: &[u8]) -> *mut c_char {
        for &f in &self.file_list {
            // SAFETY: the registry's own strings.
            if unsafe { bytes(f) } == Some(name) {
                return f;
            }
        }
        let p = dup(name);
        self.file_list.push(p);
        p
    }

    /// `read_files`: reads the `sep`-separated files right to left, so the leftmost file's
    /// values win.
    fn read_files(&mut self, files: Option<&[u8]>, list: *mut List, sep: u8) -> c_int {
        let Some(files) = files else {
            return SUCCESS;
        };
        let names: Vec<&[u8]> = files
            .split(|&c| c == sep)
            .filter(|s| !s.is_empty())
            .collect();
        for n in names.into_iter().rev() {
            let f = self.file_name(n);
            let mut out = Vec::new();
            // SAFETY: the registry's file name string and list.
            let rc = unsafe { keyval::parse_paramfile(f, list, &mut out) };
            self.pending.extend(out);
            if rc != SUCCESS && rc != ERR_NOT_FOUND {
                return rc;
            }
        }
        keyval::env_store();
        SUCCESS
    }

    /// `register_variable`.
    #[allow(clippy::too_many_arguments)]
    fn register(
        &mut self,
        project: Option<&[u8]>,
        fw: Option<&[u8]>,
        comp: Option<&[u8]>,
        name: Option<&[u8]>,
        desc: Option<&[u8]>,
        ty: c_int,
        flags: u32,
        synonym_for: c_int,
        storage: *mut c_void,
    ) -> c_int {
        if !(0..TYPE_MAX).contains(&ty) || (flags & FLAG_SYNONYM == 0 && storage.is_null()) {
            return ERR_BAD_PARAM;
        }
        let mut original: *mut Var = ptr::null_mut();
        if flags & FLAG_SYNONYM != 0 {
            if synonym_for < 0 {
                return ERR_BAD_PARAM;
            }
            original = self
                .vars
                .get(synonym_for as usize)
                .copied()
                .unwrap_or(ptr::null_mut());
            if original.is_null() {
                return ERR_NOT_FOUND;
            }
        }
        if !self.initialized {
            let r = self.init();
            if r != SUCCESS {
                return r;
            }
        }
        let mut index = self.find(fw, comp, name, true);
        let var: *mut Var;
        // SAFETY: variables and groups are the registry's live objects; strings are libc.
        unsafe {
            if index < 0 {
                let gi = self.groups.register(true, project, fw, comp, None);
                if gi < -1 {
                    return gi;
                }
                var = object::new(&raw mut pmix_mca_base_var_t_class) as *mut Var;
                if var.is_null() {
                    return ERR_OUT_OF_RESOURCE;
                }
                let mut prefix = project.unwrap_or(b"").to_ascii_uppercase();
                prefix.extend_from_slice(b"_MCA_");
                (*var).mbv_prefix = dup(&prefix);
                (*var).mbv_type = ty;
                (*var).mbv_flags = flags;
                (*var).mbv_group_index = gi;
                (*var).mbv_synonym_for = synonym_for;
                if let Some(d) = desc {
                    (*var).mbv_description = dup(d);
                }
                if let Some(n) = name {
                    (*var).mbv_variable_name = dup(n);
                }
                let full = full_name4([None, fw, comp, name]);
                (*var).mbv_full_name = dup(&full);
                (*var).mbv_long_name = dup(&full_name4([project, fw, comp, name]));
                index = self.vars.len() as c_int;
                self.vars.push(var);
                (*var).mbv_index = index;
                if gi >= 0 {
                    self.groups.add_var(gi, index);
                }
                self.names.insert(full, index);
            } else {
                var = match self.get(index, false) {
                    Ok(v) => v,
                    Err(_) => return PMIX_ERROR,
                };
                let Some(g) = self.groups.get_internal((*var).mbv_group_index, true) else {
                    return PMIX_ERROR;
                };
                (*g).group_isvalid = true;
                let same = |a: Option<&[u8]>, b: *mut c_char| match (a, bytes(b)) {
                    (Some(b"*"), _) | (None, None) => true,
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                };
                if !same(fw, (*g).group_framework)
                    || !same(comp, (*g).group_component)
                    || !same(name, (*var).mbv_variable_name)
                {
                    let o = |s: Option<&[u8]>| s.map(<[u8]>::to_vec);
                    self.pending.push(Notice::Help(
                        c"var-name-conflict",
                        vec![
                            bytes((*var).mbv_full_name).map(<[u8]>::to_vec),
                            o(fw),
                            o(comp),
                            o(name),
                            bytes((*g).group_framework).map(<[u8]>::to_vec),
                            bytes((*g).group_component).map(<[u8]>::to_vec),
                            bytes((*var).mbv_variable_name).map(<[u8]>::to_vec),
                        ],
                    ));
                    return PMIX_ERROR;
                }
                if (*var).mbv_type != ty {
                    return ERR_VALUE_OUT_OF_BOUNDS;
                }
            }
            if original.is_null() {
                (*var).mbv_storage = storage;
                if is_string(ty) {
                    let s = storage as *mut *mut c_char;
                    if !(*s).is_null() {
                        *s = libc::strdup(*s);
                    }
                }
            } else {
                ValueArray::push(&raw mut (*original).mbv_synonyms, index);
            }
            (*var).mbv_flags |= FLAG_VALID;
            let ret = self.set_initial(var, original);
            if ret != SUCCESS {
                return ret;
            }
        }
        index
    }

    fn register_synonym(
        &mut self,
        synonym_for: c_int,
        project: Option<&[u8]>,
        fw: Option<&[u8]>,
        comp: Option<&[u8]>,
        name: Option<&[u8]>,
        flags: c_int,
    ) -> c_int {
        let var = match self.get(synonym_for, false) {
            // SAFETY: a live variable of the registry.
            Ok(v) if unsafe { (*v).mbv_flags } & FLAG_SYNONYM == 0 => v,
            _ => return ERR_BAD_PARAM,
        };
        let mut vf = FLAG_SYNONYM;
        if flags & SYN_FLAG_DEPRECATED != 0 {
            vf |= FLAG_DEPRECATED;
        }
        // SAFETY: as above; the description is copied before any change to the registry.
        let (desc, ty) = unsafe {
            (
                bytes((*var).mbv_description).map(<[u8]>::to_vec),
                (*var).mbv_type,
            )
        };
        self.register(
            project,
            fw,
            comp,
            name,
            desc.as_deref(),
            ty,
            vf,
            synonym_for,
            ptr::null_mut(),
        )
    }

    /// `var_set_initial`: the override file, then the environment, then the files.
    ///
    /// # Safety
    /// `var` (and `original` if not null) are live variables of the registry.
    unsafe fn set_initial(&mut self, var: *mut Var, original: *mut Var) -> c_int {
        // SAFETY: per the contract.
        unsafe {
            let original = if original.is_null() {
                (*var).mbv_source = SOURCE_DEFAULT;
                var
            } else {
                (*var).mbv_source = (*original).mbv_source;
                (*var).mbv_file_value = (*original).mbv_file_value;
                (*var).mbv_source_file = (*original).mbv_source_file;
                original
            };
            let over = self.override_values;
            if self.set_from_file(var, original, over) == SUCCESS {
                (*var).mbv_source = SOURCE_OVERRIDE;
            }
            let ret = self.set_from_env(var, original);
            if ret != ERR_NOT_FOUND {
                return ret;
            }
            let files = self.file_values;
            let ret = self.set_from_file(var, original, files);
            if ret != ERR_NOT_FOUND {
                return ret;
            }
            SUCCESS
        }
    }

    /// `<prefix>SOURCE_<name>` and `<prefix><name>` from the environment.
    ///
    /// # Safety
    /// `var` is a live variable.
    unsafe fn env_of(var: *mut Var, name: &[u8]) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
        // SAFETY: per the contract.
        let prefix = unsafe { bytes((*var).mbv_prefix) }.unwrap_or(b"");
        let mut src = prefix.to_vec();
        src.extend_from_slice(b"SOURCE_");
        src.extend_from_slice(name);
        let mut val = prefix.to_vec();
        val.extend_from_slice(name);
        let value = getenv(&val)?;
        Some((getenv(&src), value))
    }

    /// `var_set_from_env`.
    ///
    /// # Safety
    /// As `set_initial`, `original` not null.
    unsafe fn set_from_env(&mut self, var: *mut Var, original: *mut Var) -> c_int {
        // SAFETY: per the contract.
        unsafe {
            let full = bytes((*var).mbv_full_name).unwrap_or(b"").to_vec();
            let long = bytes((*var).mbv_long_name).unwrap_or(b"").to_vec();
            let deprecated = (*var).mbv_flags & FLAG_DEPRECATED != 0;
            let synonym = (*var).mbv_flags & FLAG_SYNONYM != 0;
            let Some((source, value)) =
                Self::env_of(var, &long).or_else(|| Self::env_of(var, &full))
            else {
                return ERR_NOT_FOUND;
            };
            if (*original).mbv_source == SOURCE_OVERRIDE {
                if !SUPPRESS_OVERRIDE_WARNING {
                    self.pending
                        .push(Notice::Help(c"overridden-param-set", vec![Some(full)]));
                }
                return ERR_NOT_FOUND;
            }
            (*original).mbv_source = SOURCE_ENV;
            if let Some(src) = source {
                if src.len() >= 5 && src[..5].eq_ignore_ascii_case(b"file:") {
                    (*original).mbv_source_file = self.file_name(&src[5..]);
                    let over = bytes(OVERRIDE_FILE);
                    let is_over = over.is_some() && bytes((*var).mbv_source_file) == over;
                    (*original).mbv_source = if is_over {
                        SOURCE_OVERRIDE
                    } else {
                        SOURCE_FILE
                    };
                } else if src.eq_ignore_ascii_case(b"command") {
                    (*var).mbv_source = SOURCE_COMMAND_LINE;
                }
            }
            if deprecated {
                let new_var = if synonym {
                    full.clone()
                } else {
                    b"None (going away)".to_vec()
                };
                match (*var).mbv_source {
                    SOURCE_ENV => self.pending.push(Notice::Help(
                        c"deprecated-mca-env",
                        vec![Some(full.clone()), Some(new_var)],
                    )),
                    SOURCE_COMMAND_LINE => self.pending.push(Notice::Help(
                        c"deprecated-mca-cli",
                        vec![Some(full.clone()), Some(new_var)],
                    )),
                    SOURCE_FILE | SOURCE_OVERRIDE => {
                        let f = bytes(source_file(var)).map(<[u8]>::to_vec);
                        self.pending.push(Notice::Help(
                            c"deprecated-mca-file",
                            vec![Some(full.clone()), f, Some(new_var)],
                        ))
                    }
                    _ => {}
                }
            }
            self.set_from_string(original, &value)
        }
    }

    /// `var_set_from_file`: the first value on `list` named by the full or long name.
    ///
    /// # Safety
    /// As `set_from_env`; `list` is one of the registry's lists.
    unsafe fn set_from_file(
        &mut self,
        var: *mut Var,
        original: *mut Var,
        list: *mut List,
    ) -> c_int {
        // SAFETY: per the contract.
        unsafe {
            if list.is_null() {
                return ERR_NOT_FOUND;
            }
            let full = bytes((*var).mbv_full_name).unwrap_or(b"").to_vec();
            let long = bytes((*var).mbv_long_name).unwrap_or(b"").to_vec();
            let deprecated = (*var).mbv_flags & FLAG_DEPRECATED != 0;
            let synonym = (*var).mbv_flags & FLAG_SYNONYM != 0;
            for it in list::items(list) {
                let fv = it as *mut FileValue;
                let n = bytes((*fv).mbvfv_var).unwrap_or(b"");
                if n != full.as_slice() && n != long.as_slice() {
                    continue;
                }
                if (*original).mbv_source == SOURCE_OVERRIDE {
                    if !SUPPRESS_OVERRIDE_WARNING {
                        self.pending
                            .push(Notice::Help(c"overridden-param-set", vec![Some(full)]));
                    }
                    return ERR_NOT_FOUND;
                }
                if deprecated {
                    let new_var = if synonym {
                        bytes((*original).mbv_full_name).unwrap_or(b"").to_vec()
                    } else {
                        b"None (going away)".to_vec()
                    };
                    self.pending.push(Notice::Help(
                        c"deprecated-mca-file",
                        vec![
                            Some(full.clone()),
                            bytes((*fv).mbvfv_file).map(<[u8]>::to_vec),
                            Some(new_var),
                        ],
                    ));
                }
                (*original).mbv_file_value = fv.cast();
                (*original).mbv_source = SOURCE_FILE;
                if synonym {
                    (*var).mbv_file_value = fv.cast();
                    (*var).mbv_source = SOURCE_FILE;
                }
                let value = bytes((*fv).mbvfv_value).map(<[u8]>::to_vec);
                return match value {
                    Some(v) => self.set_from_string(original, &v),
                    None => self.set_from_null(original),
                };
            }
            ERR_NOT_FOUND
        }
    }

    /// A file's `name =` with no value: empty for numbers and strings (OpenPMIx reads a
    /// null pointer for bools and doubles; we take it as empty).
    ///
    /// # Safety
    /// `var` is a live variable with storage.
    unsafe fn set_from_null(&mut self, var: *mut Var) -> c_int {
        // SAFETY: per the contract.
        unsafe { self.set_from_string(var, b"") }
    }

    /// `var_set_from_string`: parses `src` by the variable's type into its storage.
    ///
    /// # Safety
    /// `var` is a live variable with storage.
    unsafe fn set_from_string(&mut self, var: *mut Var, src: &[u8]) -> c_int {
        // SAFETY: per the contract; the storage has the variable's type.
        unsafe {
            let st = (*var).mbv_storage;
            if st.is_null() {
                return PMIX_ERROR;
            }
            match (*var).mbv_type {
                TYPE_INT
                | TYPE_UNSIGNED_INT
                | TYPE_UNSIGNED_LONG
                | TYPE_UNSIGNED_LONG_LONG
                | TYPE_SIZE_T => {
                    let v = int_from_string(src);
                    let t = (*var).mbv_type;
                    if (t == TYPE_INT && i64::from(v as c_int) != v as i64)
                        || (t == TYPE_UNSIGNED_INT && u64::from(v as u32) != v)
                    {
                        self.pending.push(Notice::Help(
                            c"invalid-value",
                            vec![
                                bytes((*var).mbv_full_name).map(<[u8]>::to_vec),
                                Some(src.to_vec()),
                            ],
                        ));
                        return ERR_VALUE_OUT_OF_BOUNDS;
                    }
                    match t {
                        TYPE_INT | TYPE_UNSIGNED_INT => *(st as *mut c_int) = v as c_int,
                        TYPE_UNSIGNED_LONG => *(st as *mut libc::c_ulong) = v,
                        TYPE_UNSIGNED_LONG_LONG => *(st as *mut libc::c_ulonglong) = v,
                        _ => *(st as *mut usize) = v as usize,
                    }
                    SUCCESS
                }
                TYPE_BOOL => {
                    let (v, used) = strtoull(src);
                    let b = st as *mut bool;
                    if used == src.len() {
                        *b = v != 0;
                    } else if src.len() <= 4 && src.eq_ignore_ascii_case(&b"true"[..src.len()]) {
                        *b = true;
                    } else if src.len() <= 5 && src.eq_ignore_ascii_case(&b"false"[..src.len()]) {
                        *b = false;
                    } else {
                        return ERR_VALUE_OUT_OF_BOUNDS;
                    }
                    SUCCESS
                }
                TYPE_DOUBLE => {
                    let c = CString::new(src).unwrap_or_default();
                    *(st as *mut f64) = libc::strtod(c.as_ptr(), ptr::null_mut());
                    SUCCESS
                }
                TYPE_STRING | TYPE_VERSION_STRING => {
                    self.set_string(var, src);
                    SUCCESS
                }
                _ => PMIX_ERROR,
            }
        }
    }

    /// `var_set_string`: frees the old value; empty becomes null; a leading `~/` and each
    /// `:~/` become the home directory.
    ///
    /// # Safety
    /// `var` is a live string variable with storage.
    unsafe fn set_string(&mut self, var: *mut Var, src: &[u8]) {
        // SAFETY: per the contract.
        unsafe {
            let s = (*var).mbv_storage as *mut *mut c_char;
            libc::free((*s).cast());
            *s = ptr::null_mut();
            if src.is_empty() {
                return;
            }
            let mut v: Vec<u8> = match (src.strip_prefix(b"~/"), &self.home) {
                (Some(rest), Some(h)) => [h.as_slice(), b"/", rest].concat(),
                (Some(rest), None) => rest.to_vec(),
                (None, _) => src.to_vec(),
            };
            while let Some(i) = v.windows(3).position(|w| w == b":~/") {
                let mut n = v[..i].to_vec();
                n.push(b':');
                if let Some(h) = &self.home {
                    n.extend_from_slice(h);
                    n.push(b'/');
                }
                n.extend_from_slice(&v[i + 3..]);
                v = n;
            }
            *s = dup(&v);
        }
    }

    /// `pmix_mca_base_var_deregister`.
    pub(crate) fn deregister(&mut self, vari: c_int) -> c_int {
        let var = match self.get(vari, false) {
            Ok(v) => v,
            Err(e) => return e,
        };
        if !Self::valid(var) {
            return ERR_BAD_PARAM;
        }
        // SAFETY: a live variable of the registry.
        unsafe {
            (*var).mbv_flags &= !FLAG_VALID;
            if (*var).mbv_flags & FLAG_SYNONYM != 0 {
                return SUCCESS;
            }
            if is_string((*var).mbv_type) && !(*var).mbv_storage.is_null() {
                let s = (*var).mbv_storage as *mut *mut c_char;
                libc::free((*s).cast());
                *s = ptr::null_mut();
            }
            (*var).mbv_enumerator = ptr::null_mut();
            (*var).mbv_storage = ptr::null_mut();
        }
        SUCCESS
    }

    /// `pmix_mca_base_var_finalize`.
    fn finalize(&mut self) -> c_int {
        if !self.initialized {
            return SUCCESS;
        }
        // SAFETY: the registry's own objects, released once.
        unsafe {
            for v in self.vars.drain(..) {
                if !v.is_null() {
                    object::release(v as *mut Object);
                }
            }
            for l in [self.file_values, self.override_values] {
                if !l.is_null() {
                    list::release_all(l);
                    object::release(l as *mut Object);
                }
            }
            for f in self.file_list.drain(..) {
                libc::free(f.cast());
            }
        }
        self.file_values = ptr::null_mut();
        self.override_values = ptr::null_mut();
        self.names.clear();
        self.cwd = None;
        self.initialized = false;
        self.groups.finalize();
        SUCCESS
    }

    /// The value as `var_value_string` prints it (no enumerators in 5.0).
    ///
    /// # Safety
    /// `var` is a live variable.
    unsafe fn value_string(&self, var: *mut Var) -> Result<Vec<u8>, c_int> {
        // SAFETY: per the contract: the original's storage holds its type.
        unsafe {
            let orig = self.get((*var).mbv_index, true)?;
            if !Self::valid(orig) {
                return Err(ERR_NOT_FOUND);
            }
            let st = (*orig).mbv_storage;
            if st.is_null() {
                return Err(ERR_NOT_FOUND);
            }
            Ok(match (*var).mbv_type {
                TYPE_INT => (*(st as *const c_int)).to_string().into_bytes(),
                TYPE_UNSIGNED_INT => (*(st as *const u32)).to_string().into_bytes(),
                TYPE_UNSIGNED_LONG | TYPE_UNSIGNED_LONG_LONG => {
                    (*(st as *const u64)).to_string().into_bytes()
                }
                TYPE_SIZE_T => (*(st as *const usize)).to_string().into_bytes(),
                TYPE_STRING | TYPE_VERSION_STRING => {
                    bytes(*(st as *const *const c_char)).unwrap_or(b"").to_vec()
                }
                TYPE_BOOL => u8::from(*(st as *const bool)).to_string().into_bytes(),
                TYPE_DOUBLE => {
                    let mut buf = [0u8; 512];
                    let n = libc::snprintf(
                        buf.as_mut_ptr().cast(),
                        buf.len(),
                        c"%lf".as_ptr(),
                        *(st as *const f64),
                    );
                    buf[..(n.max(0) as usize).min(buf.len() - 1)].to_vec()
                }
                _ => return Err(ERR_OUT_OF_RESOURCE),
            })
        }
    }

    /// `source_name`: where the value came from, as the dumps print it.
    ///
    /// # Safety
    /// `var` is a live variable.
    unsafe fn source_name(var: *mut Var) -> Vec<u8> {
        // SAFETY: per the contract.
        unsafe {
            let s = (*var).mbv_source;
            if s == SOURCE_FILE || s == SOURCE_OVERRIDE {
                let fv = (*var).mbv_file_value as *mut FileValue;
                if !fv.is_null() {
                    let mut o = b"file (".to_vec();
                    o.extend(shown((*fv).mbvfv_file));
                    o.extend_from_slice(format!(":{})", (*fv).mbvfv_lineno).as_bytes());
                    return o;
                }
                let mut o = b"file (".to_vec();
                o.extend(shown((*var).mbv_source_file));
                o.push(b')');
                return o;
            }
            match SOURCE_NAMES.get(s as usize) {
                Some(n) if s >= 0 => n.as_bytes().to_vec(),
                _ => b"unknown(!!)".to_vec(),
            }
        }
    }

    /// `pmix_mca_base_var_dump`'s lines.
    fn dump(&self, vari: c_int, kind: c_int) -> Result<Vec<Vec<u8>>, c_int> {
        let var = self.get(vari, false)?;
        // SAFETY: live variables and groups of the registry.
        unsafe {
            let group = self
                .groups
                .get_internal((*var).mbv_group_index, false)
                .ok_or(ERR_NOT_FOUND)?;
            let synonym = (*var).mbv_flags & FLAG_SYNONYM != 0;
            let original = if synonym {
                self.get((*var).mbv_synonym_for, false)?
            } else {
                ptr::null_mut()
            };
            let fw = shown((*group).group_framework);
            let comp = bytes((*group).group_component).unwrap_or(b"base").to_vec();
            let full = bytes((*var).mbv_full_name).unwrap_or(b"").to_vec();
            let syns = ValueArray::ints(&raw const (*var).mbv_synonyms);
            let value = self.value_string(var)?;
            let source = Self::source_name(var);
            let ty = pmix_var_type_names
                .0
                .get((*var).mbv_type as usize)
                .map_or(&b"?"[..], |p| CStr::from_ptr(*p).to_bytes());
            let deprecated = (*var).mbv_flags & FLAG_DEPRECATED != 0;
            let syn_name = |i: c_int| {
                self.get(i, false)
                    .ok()
                    .map(|s| bytes((*s).mbv_full_name).unwrap_or(b"").to_vec())
            };
            let cat = |parts: &[&[u8]]| parts.concat();
            let mut out = Vec::new();
            match kind {
                DUMP_PARSABLE => {
                    let tmp = cat(&[b"mca:", &fw, b":", &comp, b":param:", &full, b":"]);
                    if value.contains(&b':') {
                        out.push(cat(&[&tmp, b"value:\"", &value, b"\""]));
                    } else {
                        out.push(cat(&[&tmp, b"value:", &value]));
                    }
                    out.push(cat(&[&tmp, b"source:", &source]));
                    if let Some(d) = bytes((*var).mbv_description) {
                        out.push(cat(&[&tmp, b"help:", d]));
                    }
                    out.push(cat(&[
                        &tmp,
                        b"deprecated:",
                        if deprecated { b"yes" } else { b"no" },
                    ]));
                    out.push(cat(&[&tmp, b"type:", ty]));
                    if synonym {
                        out.push(cat(&[
                            &tmp,
                            b"synonym_of:name:",
                            bytes((*original).mbv_full_name).unwrap_or(b""),
                        ]));
                    } else {
                        for s in syns.iter().filter_map(|&i| syn_name(i)) {
                            out.push(cat(&[&tmp, b"synonym:name:", &s]));
                        }
                    }
                }
                DUMP_READABLE => {
                    let mut l = cat(&[
                        b"\"",
                        &full,
                        b"\" (current value: \"",
                        &value,
                        b"\", data source: ",
                        &source,
                        b", type: ",
                        ty,
                    ]);
                    if deprecated {
                        l.extend_from_slice(b", deprecated");
                    }
                    if synonym {
                        l = cat(&[
                            &l,
                            b", synonym of: ",
                            bytes((*original).mbv_full_name).unwrap_or(b""),
                            b")",
                        ]);
                    } else if !syns.is_empty() {
                        l.extend_from_slice(b", synonyms: ");
                        for (k, &i) in syns.iter().enumerate() {
                            let Some(s) = syn_name(i) else { continue };
                            l.extend_from_slice(&s);
                            l.extend_from_slice(if k + 1 == syns.len() { b")" } else { b", " });
                        }
                    } else {
                        l.push(b')');
                    }
                    out.push(l);
                    if let Some(d) = bytes((*var).mbv_description) {
                        out.push(d.to_vec());
                    }
                }
                DUMP_SIMPLE => out.push(cat(&[&full, b"=", &value, b" (", &source, b")"])),
                _ => {}
            }
            Ok(out)
        }
    }
}

/// `pmix_mca_base_var_source_file`: the file named by `<P>_MCA_SOURCE_...`, else the file
/// the value was read from.
///
/// # Safety
/// `var` is a live variable.
unsafe fn source_file(var: *mut Var) -> *const c_char {
    // SAFETY: per the contract.
    unsafe {
        if !(*var).mbv_source_file.is_null() {
            return (*var).mbv_source_file;
        }
        let fv = (*var).mbv_file_value as *mut FileValue;
        if fv.is_null() {
            ptr::null()
        } else {
            (*fv).mbvfv_file
        }
    }
}

/// `pmix_mca_base_var_init`: sets up the registry and reads the parameter files.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_init() -> c_int {
    with_reg(Reg::init)
}

/// `pmix_mca_base_var_finalize`: releases every variable (freeing string values held in
/// their storage) and group, and forgets the files read.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_finalize() -> c_int {
    with_reg(Reg::finalize)
}

/// `pmix_mca_base_var_register(project, framework, component, name, description, type,
/// storage)`: registers a variable (or re-registers one of the same full name) and sets
/// `*storage` from the sources; answers its index or a negative status.
///
/// # Safety
/// Names are null or C strings; `storage` points to a value of `type` that lives as long as
/// the registration (a string storage holds null or a C string, replaced by a library copy).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_register(
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
    name: *const c_char,
    description: *const c_char,
    ty: c_int,
    storage: *mut c_void,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        with_reg(|r| {
            r.register(
                bytes(project),
                bytes(framework),
                bytes(component),
                bytes(name),
                bytes(description),
                ty,
                0,
                0,
                storage,
            )
        })
    }
}

/// Offsets in `pmix_mca_base_component_t` of its project, type and component names (char
/// arrays) and in `pmix_mca_base_framework_t` of its project and name (pointers).
const COMPONENT_PROJECT: usize = 12;
const COMPONENT_TYPE: usize = 40;
const COMPONENT_NAME: usize = 84;

/// The project, framework and component names of a `pmix_mca_base_component_t`.
///
/// # Safety
/// `c` points to a component.
pub(crate) unsafe fn component_names(c: *const u8) -> [*const c_char; 3] {
    // SAFETY: per the contract: three NUL-terminated arrays at these offsets.
    unsafe {
        [
            c.add(COMPONENT_PROJECT).cast(),
            c.add(COMPONENT_TYPE).cast(),
            c.add(COMPONENT_NAME).cast(),
        ]
    }
}

/// `pmix_mca_base_component_var_register(component, name, description, type, storage)`:
/// `var_register` with the component's project, framework and name.
///
/// # Safety
/// `component` points to a `pmix_mca_base_component_t`; the rest as `var_register`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_component_var_register(
    component: *const c_void,
    name: *const c_char,
    description: *const c_char,
    ty: c_int,
    storage: *mut c_void,
) -> c_int {
    if component.is_null() {
        return ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let [p, f, c] = component_names(component.cast());
        pmix_mca_base_var_register(p, f, c, name, description, ty, storage)
    }
}

/// `pmix_mca_base_framework_var_register(framework, name, help, type, storage)`:
/// `var_register` with the framework's project and name and component `base`.
///
/// # Safety
/// `framework` points to a `pmix_mca_base_framework_t`; the rest as `var_register`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_var_register(
    framework: *const c_void,
    name: *const c_char,
    help: *const c_char,
    ty: c_int,
    storage: *mut c_void,
) -> c_int {
    if framework.is_null() {
        return ERR_BAD_PARAM;
    }
    // SAFETY: per the contract: framework_project@0 and framework_name@8 are pointers.
    unsafe {
        let f = framework as *const *const c_char;
        pmix_mca_base_var_register(*f, *f.add(1), c"base".as_ptr(), name, help, ty, storage)
    }
}

/// `pmix_mca_base_var_register_synonym(synonym_for, project, framework, component, name,
/// flags)`: another name for variable `synonym_for`, sharing its storage; with
/// `PMIX_MCA_BASE_VAR_SYN_FLAG_DEPRECATED` setting it warns.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_register_synonym(
    synonym_for: c_int,
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
    name: *const c_char,
    flags: c_int,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        with_reg(|r| {
            r.register_synonym(
                synonym_for,
                bytes(project),
                bytes(framework),
                bytes(component),
                bytes(name),
                flags,
            )
        })
    }
}

/// `pmix_mca_base_var_deregister(index)`: marks the variable invalid and drops its storage
/// (freeing a string value).
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_deregister(vari: c_int) -> c_int {
    with_reg(|r| r.deregister(vari))
}

/// `pmix_mca_base_var_get_value(index, &value, &source, &source_file)`: `*value` becomes a
/// pointer to the (original) variable's storage, `*source` where its value came from,
/// `*source_file` the file if any. Each output may be null.
///
/// # Safety
/// Each non-null output points to writable memory of its type.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_get_value(
    vari: c_int,
    value: *mut c_void,
    source: *mut c_int,
    source_file: *mut *const c_char,
) -> c_int {
    with_reg(|r| {
        let var = match r.get(vari, true) {
            Ok(v) => v,
            Err(e) => return e,
        };
        if !Reg::valid(var) {
            return ERR_NOT_FOUND;
        }
        // SAFETY: per the contract; `var` is live.
        unsafe {
            if !value.is_null() {
                *(value as *mut *mut c_void) = (*var).mbv_storage;
            }
            if !source.is_null() {
                *source = (*var).mbv_source;
            }
            if !source_file.is_null() {
                *source_file = self::source_file(var);
            }
        }
        SUCCESS
    })
}

/// `pmix_mca_base_var_find(project, framework, component, name)`: the index of a valid
/// variable, or `PMIX_ERR_NOT_FOUND`.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_find(
    _project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
    name: *const c_char,
) -> c_int {
    // SAFETY: per the contract.
    unsafe { with_reg(|r| r.find(bytes(framework), bytes(component), bytes(name), false)) }
}

/// `pmix_mca_base_var_find_by_name(full_name, &index)`.
///
/// # Safety
/// `full_name` is a C string; `vari` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_find_by_name(
    full_name: *const c_char,
    vari: *mut c_int,
) -> c_int {
    if full_name.is_null() || vari.is_null() {
        return ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let n = CStr::from_ptr(full_name).to_bytes();
        with_reg(|r| match r.find_by_name(n, false) {
            Ok(i) => {
                *vari = i;
                SUCCESS
            }
            Err(e) => e,
        })
    }
}

/// `pmix_mca_base_var_get(index, &var)`: the registered variable itself (read-only).
///
/// # Safety
/// `var` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_get(vari: c_int, var: *mut *const Var) -> c_int {
    with_reg(|r| {
        let v = r.get(vari, false);
        // SAFETY: per the contract.
        unsafe {
            if !var.is_null() {
                *var = v.unwrap_or(ptr::null_mut());
            }
        }
        match v {
            Err(e) => e,
            Ok(v) if !Reg::valid(v) => ERR_NOT_FOUND,
            Ok(_) => SUCCESS,
        }
    })
}

/// `pmix_mca_base_var_get_count`: how many variables are registered.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_get_count() -> c_int {
    with_reg(|r| r.vars.len() as c_int)
}

/// `pmix_mca_base_var_dump(index, &lines, kind)`: a NULL-terminated libc array of libc
/// strings describing the variable (readable, parsable `mca:...` lines, or `name=value`).
///
/// # Safety
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_dump(
    vari: c_int,
    out: *mut *mut *mut c_char,
    kind: c_int,
) -> c_int {
    let lines = match with_reg(|r| r.dump(vari, kind)) {
        Ok(l) => l,
        Err(e) => return e,
    };
    if out.is_null() {
        return ERR_BAD_PARAM;
    }
    let slots = match kind {
        DUMP_READABLE => 4,
        DUMP_SIMPLE => 2,
        _ => lines.len() + 1,
    }
    .max(lines.len() + 1);
    // SAFETY: a fresh zeroed array filled with fresh strings.
    unsafe {
        let arr = libc::calloc(slots, size_of::<*mut c_char>()) as *mut *mut c_char;
        if arr.is_null() {
            return ERR_OUT_OF_RESOURCE;
        }
        for (i, l) in lines.iter().enumerate() {
            *arr.add(i) = dup(l);
        }
        *out = arr;
    }
    SUCCESS
}

#[cfg(test)]
mod tests;
