//! Harness for differential tests: loads the reference `libpmix.so.2` and ours into one
//! process, each with its own symbol scope (`RTLD_LOCAL | RTLD_DEEPBIND`), so the same call
//! can be made on both and the results compared.
//!
//! Our library is the cdylib cargo built beside the test binary (or `PMIX_OURS_LIB`); the
//! reference is Debian's (or `PMIX_REF_LIB`). The reference answers most data-API calls only
//! once initialized, so it is initialized as a tool that does not connect
//! (`PMIX_TOOL_DO_NOT_CONNECT`), which creates no files.

use std::ffi::{CStr, c_char};
use std::path::PathBuf;
use std::sync::OnceLock;

pub mod describe;

use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
use pmix_sys::*;

/// One loaded PMIx library.
pub struct Pmix {
    lib: Library,
    /// "ref" or "ours", for messages.
    pub name: &'static str,
}

impl std::fmt::Debug for Pmix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl Pmix {
    /// The function `name` of this library.
    ///
    /// # Safety
    /// `T` is the function-pointer type of the C prototype of `name`.
    pub unsafe fn sym<T: Copy>(&self, name: &str) -> T {
        let mut n = name.as_bytes().to_vec();
        n.push(0);
        // SAFETY: the caller gives the right type.
        let s = unsafe { self.lib.get::<T>(n.as_slice()) }
            .unwrap_or_else(|e| panic!("{}: {name}: {e}", self.name));
        *s
    }
}

const RTLD_DEEPBIND: i32 = 0x8;
const RTLD_GLOBAL: i32 = 0x100;

/// Loads a library. The reference goes into the global scope, because its plugins (the zlib
/// compressor, for one) resolve its internal symbols from there; ours stays local. Both
/// resolve their own symbols first (`RTLD_DEEPBIND`), so neither calls into the other.
fn open(path: &PathBuf, name: &'static str) -> Pmix {
    let scope = if name == "ref" {
        RTLD_GLOBAL
    } else {
        RTLD_LOCAL
    };
    // SAFETY: loading a shared library runs its constructors; both are PMIx libraries.
    let lib = unsafe { Library::open(Some(path), RTLD_NOW | scope | RTLD_DEEPBIND) }
        .unwrap_or_else(|e| panic!("cannot load {name} library {}: {e}", path.display()));
    Pmix { lib, name }
}

/// Path of our cdylib: `PMIX_OURS_LIB`, or `libpmix.so` in the target directory that holds
/// the running test binary.
pub fn ours_path() -> PathBuf {
    if let Some(p) = std::env::var_os("PMIX_OURS_LIB") {
        return p.into();
    }
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir");
    // Cargo writes the cdylib into deps/ when building it as a dependency and copies it up
    // to the profile directory when building it directly: take the newer one.
    [deps.parent().expect("profile dir"), deps]
        .iter()
        .map(|d| d.join("libpmix.so"))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .unwrap_or_else(|| {
            panic!(
                "libpmix.so not found beside {}; build pmix-ffi first",
                exe.display()
            )
        })
}

/// Our library.
pub fn ours() -> &'static Pmix {
    static OURS: OnceLock<Pmix> = OnceLock::new();
    OURS.get_or_init(|| open(&ours_path(), "ours"))
}

fn ref_path() -> PathBuf {
    std::env::var_os("PMIX_REF_LIB")
        .map(Into::into)
        .unwrap_or_else(|| "/usr/lib/x86_64-linux-gnu/libpmix.so.2".into())
}

/// OpenPMIx 5.0.11 (PyPI's Open MPI 5.0.11 wheel, which `.ci/deps` installs in `build/ompi5`),
/// or `PMIX_REF5_LIB`.
pub fn ref5_path() -> PathBuf {
    if let Some(p) = std::env::var_os("PMIX_REF5_LIB") {
        return p.into();
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let p = root.join("../build/ompi5/lib/openmpi/libpmix.so.2");
    assert!(
        p.exists(),
        "{} missing: .ci/deps installs OpenPMIx 5.0.11 (or set PMIX_REF5_LIB)",
        p.display()
    );
    p
}

/// OpenPMIx 5.0.11 as loaded, never initialized (its library-level calls that need no
/// session: version, helpers).
pub fn reference5_uninitialized() -> &'static Pmix {
    static REF5: OnceLock<Pmix> = OnceLock::new();
    REF5.get_or_init(|| open(&ref5_path(), "ref5"))
}

/// The reference library as loaded, before any initialization. A test binary that uses this
/// must not also use `reference()`: both are the same loaded library.
pub fn reference_uninitialized() -> &'static Pmix {
    static REF: OnceLock<Pmix> = OnceLock::new();
    REF.get_or_init(|| open(&ref_path(), "ref"))
}

/// The reference library, initialized as a non-connecting tool.
pub fn reference() -> &'static Pmix {
    static REF: OnceLock<Pmix> = OnceLock::new();
    REF.get_or_init(|| {
        let r = open(&ref_path(), "ref");
        // SAFETY: prototypes of pmix.h / pmix_tool.h.
        unsafe {
            type InfoLoad = unsafe extern "C" fn(
                *mut pmix_info_t,
                *const c_char,
                *const libc::c_void,
                pmix_data_type_t,
            ) -> pmix_status_t;
            type ToolInit =
                unsafe extern "C" fn(*mut pmix_proc_t, *mut pmix_info_t, usize) -> pmix_status_t;
            let load: InfoLoad = r.sym("PMIx_Info_load");
            let init: ToolInit = r.sym("PMIx_tool_init");
            let mut info: pmix_info_t = std::mem::zeroed();
            let yes = true;
            load(
                &mut info,
                PMIX_TOOL_DO_NOT_CONNECT.as_ptr(),
                (&yes as *const bool).cast(),
                PMIX_BOOL,
            );
            let mut me: pmix_proc_t = std::mem::zeroed();
            let rc = init(&mut me, &mut info, 1);
            assert_eq!(rc, PMIX_SUCCESS, "reference PMIx_tool_init(DO_NOT_CONNECT)");
        }
        r
    })
}

/// Both libraries, reference first.
pub fn both() -> [&'static Pmix; 2] {
    [reference(), ours()]
}

/// A C string returned by a library as an owned Rust string (None for NULL).
///
/// # Safety
/// `p` is NULL or a valid C string.
pub unsafe fn string(p: *const c_char) -> Option<String> {
    if p.is_null() {
        None
    } else {
        // SAFETY: forwarded contract.
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}
