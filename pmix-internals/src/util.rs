//! POSIX, path, file-descriptor, argv and string helpers (`pmix_argv_*`, `pmix_basename`,
//! `pmix_os_dirpath_*`, `pmix_path_*`, `pmix_fd_*`, `pmix_environ_merge`, ...), one module per
//! family of OpenPMIx 5.0.11's `src/util/` files.
//!
//! Everything these functions hand to C is allocated with libc (the caller frees it with
//! `free()`); argv arrays are NULL-terminated libc arrays of libc strings. The modules also
//! offer a small Rust-side API for the other families: [`argv`] (count, append, copy, free,
//! split), [`environ::setenv`], [`path::os_path`], [`cstr`].

use core::ffi::{CStr, c_char, c_int};

pub mod argv;
pub mod basename;
pub mod context_fns;
pub mod environ;
pub mod fd;
pub mod name_fns;
pub mod os_dirpath;
pub mod parse_options;
pub mod path;
pub mod pty;
pub mod string_copy;

/// `pmix_status_t` values these helpers return (OpenPMIx 5.0.11's `pmix_common.h` and
/// `pmix_deprecated.h`).
pub mod status {
    use core::ffi::c_int;
    pub const PMIX_SUCCESS: c_int = 0;
    pub const PMIX_ERROR: c_int = -1;
    pub const PMIX_ERR_SILENT: c_int = -2;
    pub const PMIX_ERR_EXISTS: c_int = -11;
    pub const PMIX_ERR_TIMEOUT: c_int = -24;
    pub const PMIX_ERR_IN_ERRNO: c_int = -26;
    pub const PMIX_ERR_BAD_PARAM: c_int = -27;
    pub const PMIX_ERR_OUT_OF_RESOURCE: c_int = -29;
    pub const PMIX_ERR_NOT_FOUND: c_int = -46;
    pub const PMIX_ERR_EXE_NOT_ACCESSIBLE: c_int = -73;
    pub const PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE: c_int = -74;
    pub const PMIX_ERR_JOB_EXE_NOT_FOUND: c_int = -190;
}

/// `PMIX_PATH_MAX`: `PATH_MAX + 1`.
pub const PMIX_PATH_MAX: usize = libc::PATH_MAX as usize + 1;

/// The bytes of a C string (without its NUL), `None` for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that outlives the returned slice.
pub unsafe fn cstr<'a>(p: *const c_char) -> Option<&'a [u8]> {
    if p.is_null() {
        None
    } else {
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        Some(unsafe { CStr::from_ptr(p) }.to_bytes())
    }
}

/// A libc-allocated NUL-terminated copy of `bytes` (NULL if `malloc` fails).
pub fn strdup_bytes(bytes: &[u8]) -> *mut c_char {
    // SAFETY: allocating len + 1 bytes, then writing exactly that many into them.
    unsafe {
        let p = libc::malloc(bytes.len() + 1).cast::<u8>();
        if p.is_null() {
            return core::ptr::null_mut();
        }
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
        *p.add(bytes.len()) = 0;
        p.cast()
    }
}

/// `errno` of the calling thread.
fn errno() -> c_int {
    // SAFETY: reading the thread's errno location.
    unsafe { *libc::__errno_location() }
}

/// A NUL-terminated copy of `bytes` on the Rust heap, for passing to libc calls that only read
/// it during the call. `None` if `bytes` holds a NUL.
fn c_string(bytes: &[u8]) -> Option<std::ffi::CString> {
    std::ffi::CString::new(bytes).ok()
}
