//! `pmix_string_copy` and `pmix_getline` (OpenPMIx's `pmix_string_copy.c` and `pmix_fd.c`'s
//! line reader).

use core::ffi::{c_char, c_int};
use core::ptr::null_mut;

use super::{cstr, strdup_bytes};

/// Writes `src` into the `dest_len` bytes at `dest`, NUL-terminated, truncated to
/// `dest_len - 1` bytes if longer. Nothing is written when `dest_len` is 0.
///
/// # Safety
/// `dest` holds `dest_len` writable bytes.
pub unsafe fn copy_bytes(dest: *mut c_char, src: &[u8], dest_len: usize) {
    if dest_len == 0 {
        return;
    }
    let n = src.len().min(dest_len - 1);
    // SAFETY: `n + 1 <= dest_len` bytes are written.
    unsafe {
        core::ptr::copy_nonoverlapping(src.as_ptr(), dest.cast::<u8>(), n);
        *dest.add(n) = 0;
    }
}

/// Copies the C string `src` into `dest` of `dest_len` bytes, always NUL-terminated (the copy
/// is cut at `dest_len - 1` bytes). OpenPMIx asserts `dest_len <= 128 KiB` in debug builds;
/// here any length is copied. NULL pointers or a zero length do nothing.
///
/// # Safety
/// `dest` holds `dest_len` writable bytes; `src` is a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_string_copy(dest: *mut c_char, src: *const c_char, dest_len: usize) {
    if dest.is_null() || src.is_null() || dest_len == 0 {
        return;
    }
    // SAFETY: reads `src` up to its NUL or `dest_len` bytes, whichever comes first, as
    // strnlen does; the copy then stays within `dest_len`.
    unsafe {
        let n = libc::strnlen(src, dest_len);
        copy_bytes(
            dest,
            core::slice::from_raw_parts(src.cast::<u8>(), n),
            dest_len,
        );
    }
}

/// Reads one line (at most 1023 bytes) from `fp` and returns it malloc'd without its last
/// byte (the newline, or whatever the last byte read was, as OpenPMIx). NULL at end of file.
///
/// # Safety
/// `fp` is an open `FILE *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_getline(fp: *mut libc::FILE) -> *mut c_char {
    if fp.is_null() {
        return null_mut();
    }
    let mut line = [0 as c_char; 1024];
    // SAFETY: fgets into our buffer of its stated size; it NUL-terminates what it read.
    unsafe {
        if libc::fgets(line.as_mut_ptr(), line.len() as c_int, fp).is_null() {
            return null_mut();
        }
        let bytes = cstr(line.as_ptr()).unwrap_or_default();
        strdup_bytes(&bytes[..bytes.len().saturating_sub(1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates() {
        let mut buf = [b'x' as c_char; 8];
        // SAFETY: a buffer of the stated size and C strings.
        unsafe {
            pmix_string_copy(buf.as_mut_ptr(), c"hello world".as_ptr(), 6);
            assert_eq!(cstr(buf.as_ptr()).unwrap(), b"hello");
            pmix_string_copy(buf.as_mut_ptr(), c"hi".as_ptr(), 8);
            assert_eq!(cstr(buf.as_ptr()).unwrap(), b"hi");
            pmix_string_copy(buf.as_mut_ptr(), c"1234567".as_ptr(), 8);
            assert_eq!(cstr(buf.as_ptr()).unwrap(), b"1234567");
            pmix_string_copy(buf.as_mut_ptr(), c"12345678".as_ptr(), 8);
            assert_eq!(cstr(buf.as_ptr()).unwrap(), b"1234567");
            pmix_string_copy(buf.as_mut_ptr(), c"zz".as_ptr(), 1);
            assert_eq!(cstr(buf.as_ptr()).unwrap(), b"");
        }
    }

    #[test]
    fn lines() {
        // SAFETY: a memory stream over our buffer, closed at the end.
        unsafe {
            let text = b"first\nsecond\nlast";
            let fp = libc::fmemopen(text.as_ptr().cast_mut().cast(), text.len(), c"r".as_ptr());
            for want in [&b"first"[..], b"second", b"las"] {
                let l = pmix_getline(fp);
                assert_eq!(cstr(l).unwrap(), want);
                libc::free(l.cast());
            }
            assert!(pmix_getline(fp).is_null());
            libc::fclose(fp);
        }
    }
}
