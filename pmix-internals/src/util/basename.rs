//! `pmix_basename` and `pmix_dirname` (OpenPMIx's `pmix_basename.c`).

use core::ffi::c_char;
use core::ptr::null_mut;

use super::{cstr, strdup_bytes};

/// The last component of `path` as OpenPMIx computes it: `""` for `""`, `"/"` for `"/"`,
/// trailing slashes ignored. One quirk is kept: a one-character name followed only by
/// slashes (`"a/"`, `"a//"`) gives `"/"`, as OpenPMIx 5.0.11 returns.
pub fn basename(path: &[u8]) -> &[u8] {
    if path.is_empty() || path == b"/" {
        return path;
    }
    let mut end = path.len();
    if path.len() > 1 {
        // Drops trailing slashes, never looking at the first byte.
        while end > 1 && path[end - 1] == b'/' {
            end -= 1;
        }
        if end == 1 {
            // Everything after the first byte was a slash.
            return b"/";
        }
    }
    let trimmed = &path[..end];
    match trimmed.iter().rposition(|&b| b == b'/') {
        Some(i) => &trimmed[i + 1..],
        None => trimmed,
    }
}

/// The last component of `filename` (see [`basename`]), malloc'd; NULL for NULL.
///
/// # Safety
/// `filename` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_basename(filename: *const c_char) -> *mut c_char {
    // SAFETY: forwarded contract.
    match unsafe { cstr(filename) } {
        Some(s) => strdup_bytes(basename(s)),
        None => null_mut(),
    }
}

/// The directory part of `filename` as POSIX `dirname()` gives it (`"."` when there is
/// none), malloc'd. NULL gives `"."`, as `dirname(NULL)` does.
///
/// # Safety
/// `filename` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_dirname(filename: *const c_char) -> *mut c_char {
    if filename.is_null() {
        return strdup_bytes(b".");
    }
    // SAFETY: dirname() may write into its argument, so it gets a private libc copy, whose
    // result is copied before the copy is freed.
    unsafe {
        let scratch = libc::strdup(filename);
        if scratch.is_null() {
            return null_mut();
        }
        let dir = libc::strdup(libc::dirname(scratch));
        libc::free(scratch.cast());
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(p: *mut c_char) -> String {
        // SAFETY: a malloc'd C string from the function under test.
        unsafe {
            let s = String::from_utf8_lossy(cstr(p).unwrap()).into_owned();
            libc::free(p.cast());
            s
        }
    }

    #[test]
    fn basenames() {
        for (input, want) in [
            ("", ""),
            ("/", "/"),
            ("a", "a"),
            ("a/", "/"),
            ("ab/", "ab"),
            ("//", "/"),
            ("//a//b/", "b"),
            ("/usr/bin/ls", "ls"),
            ("dir/file", "file"),
            ("/usr/", "usr"),
        ] {
            let c = std::ffi::CString::new(input).unwrap();
            // SAFETY: a C string.
            let got = unsafe { pmix_basename(c.as_ptr()) };
            assert_eq!(take(got), want, "{input:?}");
        }
        // SAFETY: NULL is allowed.
        assert!(unsafe { pmix_basename(null_mut()) }.is_null());
    }

    #[test]
    fn dirnames() {
        for (input, want) in [
            ("", "."),
            ("/", "/"),
            ("a", "."),
            ("a/", "."),
            ("//a//b/", "//a"),
            ("/usr/bin/ls", "/usr/bin"),
            ("/usr", "/"),
        ] {
            let c = std::ffi::CString::new(input).unwrap();
            // SAFETY: a C string.
            let got = unsafe { pmix_dirname(c.as_ptr()) };
            assert_eq!(take(got), want, "{input:?}");
        }
    }
}
