//! `pmix_os_path`: a path made of elements joined with `/`. The C-variadic entry point is C
//! (`csrc/variadic.c`): it gathers the NULL-terminated elements and calls `pmixrs_os_path`.
//!
//! Each element is preceded by a `/` unless it starts with one; a relative path starts with
//! `.`; no elements give `./` or `/`. A path longer than OpenPMIx's `PMIX_PATH_MAX` (4097,
//! counted as OpenPMIx counts it) gives NULL.

use core::ffi::{CStr, c_char, c_int};

/// `PMIX_PATH_MAX` on Linux (`PATH_MAX + 1`).
pub const PATH_MAX: usize = crate::util::PMIX_PATH_MAX;

/// The joined path, or None when it is too long (the util family's, shared).
pub use crate::util::path::os_path;

/// A malloc'd C string of `bytes` (NULL when out of memory).
pub(crate) fn c_string(bytes: &[u8]) -> *mut c_char {
    crate::util::strdup_bytes(bytes)
}

/// For `pmix_os_path` (C): the path of `n` elements, malloc'd, or NULL.
///
/// # Safety
/// `elements` points to `n` C strings (it may be NULL when `n` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmixrs_os_path(
    relative: c_int,
    elements: *const *const c_char,
    n: usize,
) -> *mut c_char {
    let mut parts: Vec<&[u8]> = Vec::with_capacity(n);
    for i in 0..n {
        // SAFETY: per the contract.
        let e = unsafe { *elements.add(i) };
        if e.is_null() {
            break;
        }
        // SAFETY: per the contract.
        parts.push(unsafe { CStr::from_ptr(e) }.to_bytes());
    }
    match os_path(relative != 0, &parts) {
        Some(p) => c_string(&p),
        None => core::ptr::null_mut(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(relative: bool, e: &[&str]) -> Option<String> {
        let e: Vec<&[u8]> = e.iter().map(|x| x.as_bytes()).collect();
        os_path(relative, &e).map(|p| String::from_utf8(p).unwrap())
    }

    #[test]
    fn joins_with_one_separator_unless_an_element_starts_with_one() {
        assert_eq!(s(false, &[]).as_deref(), Some("/"));
        assert_eq!(s(true, &[]).as_deref(), Some("./"));
        assert_eq!(s(false, &["tmp", "a"]).as_deref(), Some("/tmp/a"));
        assert_eq!(
            s(false, &["/tmp", "/a", "b/"]).as_deref(),
            Some("/tmp/a/b/")
        );
        assert_eq!(s(true, &["x", "y"]).as_deref(), Some("./x/y"));
        assert_eq!(s(false, &["/d", ""]).as_deref(), Some("/d/"));
        assert_eq!(s(false, &["d/", "e"]).as_deref(), Some("/d//e"));
    }

    #[test]
    fn too_long_is_none() {
        // One element of n chars not starting with '/': n + 1 + 1 + 1.
        let ok = "a".repeat(PATH_MAX - 3);
        assert!(s(false, &[&ok]).is_some());
        let long = "a".repeat(PATH_MAX - 2);
        assert_eq!(s(false, &[&long]), None);
        assert_eq!(s(true, &[&ok]), None);
    }
}
