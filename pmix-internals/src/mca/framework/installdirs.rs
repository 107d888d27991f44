//! The install directories (`pmix_pinstall_dirs`), filled by `pmix_init_util` through a
//! static `pinstalldirs` framework of two components, as OpenPMIx does:
//!
//! - `env`: the environment (`PMIX_PREFIX`, `PMIX_EXEC_PREFIX`, `PMIX_BINDIR`, ...,
//!   `PMIX_PKGDATADIR`, `PMIX_PKGLIBDIR`, `PMIX_PKGINCLUDEDIR`; empty means unset), and the
//!   `pmix.prefix` info key, which overrides `PMIX_PREFIX`;
//! - `config`: configure's default layout (`exec_prefix` = `${prefix}`, `${prefix}/share`,
//!   `${exec_prefix}/lib`, `${datadir}/pmix`, ...). OpenPMIx bakes in the configured prefix;
//!   ours is where this library lies: the directory above the `lib*` directory holding it
//!   (found with `dladdr`), and `libdir` is `${exec_prefix}/` and that directory's name.
//!
//! The first component to give a directory wins; then `${name}` and `@{name}` references are
//! expanded, and `PMIX_DESTDIR`, when set, is put in front of each.

use super::{
    Component, ComponentFns, ComponentListItem, FLAG_NO_DSO, FLAG_NOREGISTER, Framework,
    FrameworkFns, PMIX_SUCCESS, list_items, pmix_mca_base_framework_components_open,
};
use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr;
use std::ffi::CString;

/// `pmix_pinstall_dirs_t` (136 bytes: 17 strings).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct InstallDirs {
    pub prefix: *mut c_char,
    pub exec_prefix: *mut c_char,
    pub bindir: *mut c_char,
    pub sbindir: *mut c_char,
    pub libexecdir: *mut c_char,
    pub datarootdir: *mut c_char,
    pub datadir: *mut c_char,
    pub sysconfdir: *mut c_char,
    pub sharedstatedir: *mut c_char,
    pub localstatedir: *mut c_char,
    pub libdir: *mut c_char,
    pub includedir: *mut c_char,
    pub infodir: *mut c_char,
    pub mandir: *mut c_char,
    pub pmixdatadir: *mut c_char,
    pub pmixlibdir: *mut c_char,
    pub pmixincludedir: *mut c_char,
}

/// Number of fields of `InstallDirs`.
const NFIELDS: usize = 17;

/// Each field's name in `${...}` references and its environment variable, in field order.
const FIELDS: [(&str, &CStr); NFIELDS] = [
    ("prefix", c"PMIX_PREFIX"),
    ("exec_prefix", c"PMIX_EXEC_PREFIX"),
    ("bindir", c"PMIX_BINDIR"),
    ("sbindir", c"PMIX_SBINDIR"),
    ("libexecdir", c"PMIX_LIBEXECDIR"),
    ("datarootdir", c"PMIX_DATAROOTDIR"),
    ("datadir", c"PMIX_DATADIR"),
    ("sysconfdir", c"PMIX_SYSCONFDIR"),
    ("sharedstatedir", c"PMIX_SHAREDSTATEDIR"),
    ("localstatedir", c"PMIX_LOCALSTATEDIR"),
    ("libdir", c"PMIX_LIBDIR"),
    ("includedir", c"PMIX_INCLUDEDIR"),
    ("infodir", c"PMIX_INFODIR"),
    ("mandir", c"PMIX_MANDIR"),
    ("pkgdatadir", c"PMIX_PKGDATADIR"),
    ("pkglibdir", c"PMIX_PKGLIBDIR"),
    ("pkgincludedir", c"PMIX_PKGINCLUDEDIR"),
];

impl InstallDirs {
    pub const NULL: InstallDirs = InstallDirs {
        prefix: ptr::null_mut(),
        exec_prefix: ptr::null_mut(),
        bindir: ptr::null_mut(),
        sbindir: ptr::null_mut(),
        libexecdir: ptr::null_mut(),
        datarootdir: ptr::null_mut(),
        datadir: ptr::null_mut(),
        sysconfdir: ptr::null_mut(),
        sharedstatedir: ptr::null_mut(),
        localstatedir: ptr::null_mut(),
        libdir: ptr::null_mut(),
        includedir: ptr::null_mut(),
        infodir: ptr::null_mut(),
        mandir: ptr::null_mut(),
        pmixdatadir: ptr::null_mut(),
        pmixlibdir: ptr::null_mut(),
        pmixincludedir: ptr::null_mut(),
    };

    /// The fields in order.
    pub fn fields(&self) -> [*mut c_char; NFIELDS] {
        // SAFETY: the struct is 17 pointers, repr(C), without padding.
        unsafe { core::mem::transmute_copy(self) }
    }

    /// The fields in order, to write.
    fn fields_mut(&mut self) -> &mut [*mut c_char; NFIELDS] {
        // SAFETY: as `fields`; same size and alignment.
        unsafe { &mut *(self as *mut InstallDirs).cast::<[*mut c_char; NFIELDS]>() }
    }
}

/// The install directories (after `pmix_init_util`; all NULL before). PRRTE reads `libdir`.
#[unsafe(no_mangle)]
pub static mut pmix_pinstall_dirs: InstallDirs = InstallDirs::NULL;

/// A copy of `pmix_pinstall_dirs` (read through the symbol).
pub fn get() -> InstallDirs {
    // SAFETY: a plain read of the exported struct; written only by `init`.
    unsafe { ptr::read(&raw const pmix_pinstall_dirs) }
}

/// The head of `pmix_info_t` (552 bytes) as read here: the key and a string value.
#[repr(C)]
#[derive(Debug)]
pub struct InfoHead {
    pub key: [c_char; 512],
    pub flags: u32,
    _pad: u32,
    pub value_type: u16,
    pub value_data: *mut c_char,
    pub rest: [u64; 2],
}

/// `PMIX_STRING`.
const PMIX_STRING: u16 = 3;

/// The `pmix.prefix` string among `info`, if any.
///
/// # Safety
/// `info` is NULL or points to `ninfo` infos.
unsafe fn info_prefix(info: *const InfoHead, ninfo: usize) -> Option<*mut c_char> {
    if info.is_null() {
        return None;
    }
    (0..ninfo).find_map(|i| {
        // SAFETY: per the contract.
        let inf = unsafe { &*info.add(i) };
        // SAFETY: the key is a NUL-terminated array.
        let key = unsafe { CStr::from_ptr(inf.key.as_ptr()) };
        (key == c"pmix.prefix" && inf.value_type == PMIX_STRING).then_some(inf.value_data)
    })
}

/// A `pinstalldirs` component: the MCA component, its directories, and the function that
/// fills them.
#[repr(C)]
struct DirsComponent {
    component: Component,
    data: InstallDirs,
    init: unsafe fn(info: *const InfoHead, ninfo: usize, data: *mut InstallDirs),
}

/// `env`: the directories named by the environment (values not copied: getenv's).
///
/// # Safety
/// As `info_prefix`; `data` is writable.
unsafe fn env_init(info: *const InfoHead, ninfo: usize, data: *mut InstallDirs) {
    // SAFETY: per the contract; getenv's strings live as long as the environment entry.
    unsafe {
        let prefix = info_prefix(info, ninfo);
        let f = (*data).fields_mut();
        for (i, (_, var)) in FIELDS.iter().enumerate() {
            if i == 0 && prefix.is_some() {
                f[0] = prefix.unwrap_or(ptr::null_mut());
                continue;
            }
            let v = libc::getenv(var.as_ptr());
            f[i] = if v.is_null() || *v == 0 {
                ptr::null_mut()
            } else {
                v
            };
        }
    }
}

/// Where this library lies, as `(prefix, libdir relative to the exec prefix)`: the directory
/// above the `lib*` directory that holds it (or that holds the directory holding it, as
/// `lib/openmpi/`), else simply the directory above the library's.
pub fn location_of(path: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let dir = match path.iter().rposition(|&b| b == b'/') {
        Some(0) => &b"/"[..],
        Some(i) => &path[..i],
        None => &b"."[..],
    };
    let split = |p: &[u8]| -> (Vec<u8>, Vec<u8>) {
        match p.iter().rposition(|&b| b == b'/') {
            Some(0) => (b"/".to_vec(), p[1..].to_vec()),
            Some(i) => (p[..i].to_vec(), p[i + 1..].to_vec()),
            None => (b".".to_vec(), p.to_vec()),
        }
    };
    let (parent, base) = split(dir);
    if base.starts_with(b"lib") {
        return (parent, base);
    }
    let (grand, pbase) = split(&parent);
    if pbase.starts_with(b"lib") {
        return (grand, pbase);
    }
    (parent, base)
}

/// The path of this library (absolute when the loader's is relative), from `dladdr`.
fn library_path() -> Option<Vec<u8>> {
    let mut info: libc::Dl_info = libc::Dl_info {
        dli_fname: ptr::null(),
        dli_fbase: ptr::null_mut(),
        dli_sname: ptr::null(),
        dli_saddr: ptr::null_mut(),
    };
    // Any function of this library will do.
    let addr = library_path as fn() -> Option<Vec<u8>> as *const c_void;
    // SAFETY: dladdr fills `info` for an address of this object.
    let ok = unsafe { libc::dladdr(addr, &mut info) };
    if ok == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: the loader's string.
    let p = unsafe { CStr::from_ptr(info.dli_fname) }
        .to_bytes()
        .to_vec();
    if p.first() == Some(&b'/') {
        return Some(p);
    }
    let cwd = std::env::current_dir().ok()?;
    let mut abs = cwd.into_os_string().into_encoded_bytes();
    abs.push(b'/');
    abs.extend_from_slice(p.strip_prefix(b"./").unwrap_or(&p));
    Some(abs)
}

/// The directories of configure's layout for `prefix`, `libdir` under the exec prefix.
pub fn config_layout(prefix: &[u8], libdir: &[u8]) -> [Vec<u8>; NFIELDS] {
    let cat = |a: &str, b: &[u8]| [a.as_bytes(), b].concat();
    [
        prefix.to_vec(),
        b"${prefix}".to_vec(),
        b"${exec_prefix}/bin".to_vec(),
        b"${exec_prefix}/sbin".to_vec(),
        b"${exec_prefix}/libexec".to_vec(),
        b"${prefix}/share".to_vec(),
        b"${datarootdir}".to_vec(),
        b"${prefix}/etc".to_vec(),
        b"${prefix}/com".to_vec(),
        b"${prefix}/var".to_vec(),
        cat("${exec_prefix}/", libdir),
        b"${prefix}/include".to_vec(),
        b"${datarootdir}/info".to_vec(),
        b"${datarootdir}/man".to_vec(),
        b"${datadir}/pmix".to_vec(),
        b"${libdir}/pmix".to_vec(),
        b"${includedir}/pmix".to_vec(),
    ]
}

/// A libc copy of `s` (its NULs dropped), kept for the life of the process.
fn leak_cstring(s: &[u8]) -> *mut c_char {
    let c = CString::new(s.iter().copied().filter(|&b| b != 0).collect::<Vec<u8>>())
        .unwrap_or_default();
    // SAFETY: duplicating a C string.
    unsafe { libc::strdup(c.as_ptr()) }
}

/// `config`: configure's layout under the prefix where this library lies.
///
/// # Safety
/// `data` is writable.
unsafe fn config_init(_info: *const InfoHead, _ninfo: usize, data: *mut InstallDirs) {
    // SAFETY: per the contract.
    unsafe {
        if !(*data).prefix.is_null() {
            return;
        }
        let (prefix, libdir) = match library_path() {
            Some(p) => location_of(&p),
            None => (b"/usr/local".to_vec(), b"lib".to_vec()),
        };
        let f = (*data).fields_mut();
        for (slot, v) in f.iter_mut().zip(config_layout(&prefix, &libdir)) {
            *slot = leak_cstring(&v);
        }
    }
}

static mut ENV_COMPONENT: DirsComponent = DirsComponent {
    component: Component::new("pmix", "pinstalldirs", "env", ComponentFns::NONE),
    data: InstallDirs::NULL,
    init: env_init,
};

static mut CONFIG_COMPONENT: DirsComponent = DirsComponent {
    component: Component::new("pmix", "pinstalldirs", "config", ComponentFns::NONE),
    data: InstallDirs::NULL,
    init: config_init,
};

// SAFETY: only the addresses of the two statics are taken.
static mut STATIC_COMPONENTS: [*const Component; 3] = unsafe {
    [
        &raw const ENV_COMPONENT.component,
        &raw const CONFIG_COMPONENT.component,
        ptr::null(),
    ]
};

unsafe extern "C" fn pinstalldirs_open(flags: c_int) -> c_int {
    // SAFETY: our framework.
    unsafe { pmix_mca_base_framework_components_open(&raw mut PINSTALLDIRS, flags) }
}

/// The `pinstalldirs` framework (no variables, static components only).
pub static mut PINSTALLDIRS: Framework = Framework::declare(
    c"pmix",
    c"pinstalldirs",
    ptr::null(),
    FrameworkFns {
        register: None,
        open: Some(pinstalldirs_open),
        close: None,
    },
    &raw mut STATIC_COMPONENTS as *mut *const Component,
    FLAG_NOREGISTER | FLAG_NO_DSO,
);

/// Puts `PMIX_DESTDIR` (with its offset rules) and `${...}` expansion on `input`, reading the
/// values of references from `dirs` (`pmix_pinstall_dirs_expand_setup`).
pub fn expand(input: &[u8], dirs: &InstallDirs, destdir: Option<&[u8]>) -> Vec<u8> {
    let offset = destdir.map_or(0, |d| d.len());
    let mut out = input.to_vec();
    if input.iter().any(|&b| b == b'$' || b == b'@') {
        let values = dirs.fields();
        // A reference to itself would grow forever: give up after many rounds.
        for _ in 0..64 {
            let mut changed = false;
            for (i, (name, _)) in FIELDS.iter().enumerate() {
                for open in ["${", "@{"] {
                    let pat = [open.as_bytes(), name.as_bytes(), b"}"].concat();
                    let Some(at) = find(&out, &pat) else {
                        continue;
                    };
                    let v: &[u8] = if values[i].is_null() {
                        b"(null)"
                    } else {
                        // SAFETY: the fields are NULL or C strings.
                        unsafe { CStr::from_ptr(values[i]) }.to_bytes()
                    };
                    let v = &v[offset.min(v.len())..];
                    out = [&out[..at], v, &out[at + pat.len()..]].concat();
                    changed = true;
                    break;
                }
            }
            if !changed {
                break;
            }
        }
    }
    match destdir {
        Some(d) => {
            let mut p = Vec::new();
            for e in [d, &out[..]] {
                if e.first() != Some(&b'/') {
                    p.push(b'/');
                }
                p.extend_from_slice(e);
            }
            p
        }
        None => out,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Fills `pmix_pinstall_dirs` from the `pinstalldirs` components open on the framework
/// (`pmix_pinstall_dirs_base_init`), then expands each field in order.
///
/// # Safety
/// `info` is NULL or points to `ninfo` `pmix_info_t`; the framework is open. Not
/// thread-safe (process initialization).
pub unsafe fn init(info: *const InfoHead, ninfo: usize) -> c_int {
    // SAFETY: per the contract; the globals are written only here.
    unsafe {
        let global = &raw mut pmix_pinstall_dirs;
        for cli in list_items(&raw mut PINSTALLDIRS.framework_components) {
            let cli: *mut ComponentListItem = cli;
            let dc = (*cli).cli_component as *mut DirsComponent;
            ((*dc).init)(info, ninfo, &raw mut (*dc).data);
            let src = (*dc).data.fields();
            let dst = (*global).fields_mut();
            for (d, s) in dst.iter_mut().zip(src) {
                if d.is_null() && !s.is_null() {
                    *d = s;
                }
            }
        }
        let destdir = {
            let d = libc::getenv(c"PMIX_DESTDIR".as_ptr());
            (!d.is_null()).then(|| CStr::from_ptr(d).to_bytes().to_vec())
        };
        for i in 0..NFIELDS {
            let cur = (*global).fields()[i];
            if cur.is_null() {
                continue;
            }
            let input = CStr::from_ptr(cur).to_bytes().to_vec();
            let v = expand(&input, &*global, destdir.as_deref());
            (*global).fields_mut()[i] = leak_cstring(&v);
        }
    }
    PMIX_SUCCESS
}
