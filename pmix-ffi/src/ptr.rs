//! Checked views of pointers received from C.
//!
//! Each helper turns a raw pointer into a reference or slice, or into `Error::BadParam` when
//! the pointer cannot be used: NULL where a value is required, `(NULL, n > 0)` arrays, and
//! fixed-size key or namespace buffers without a terminator. `(NULL, 0)` is the empty array.

use core::ffi::{CStr, c_char};

use pmix_core::{Error, PStr, Result};

/// A required reference.
///
/// # Safety
/// `p` is NULL or points to a valid `T` for `'a`.
pub(crate) unsafe fn req<'a, T>(p: *const T) -> Result<&'a T> {
    // SAFETY: the caller guarantees `p` is NULL or valid for 'a.
    unsafe { p.as_ref() }.ok_or(Error::BadParam)
}

/// A required mutable reference.
///
/// # Safety
/// `p` is NULL or points to a valid, writable `T` for `'a`, not aliased elsewhere.
pub(crate) unsafe fn req_mut<'a, T>(p: *mut T) -> Result<&'a mut T> {
    // SAFETY: the caller guarantees `p` is NULL or valid and unaliased for 'a.
    unsafe { p.as_mut() }.ok_or(Error::BadParam)
}

/// An array of `n` elements; `(NULL, 0)` is empty, `(NULL, n > 0)` an error.
///
/// # Safety
/// When `p` is not NULL it points to `n` initialised elements valid for `'a`.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize) -> Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::BadParam);
    }
    // SAFETY: non-NULL, and the caller guarantees n initialised elements.
    Ok(unsafe { core::slice::from_raw_parts(p, n) })
}

/// A required C string.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn cstr<'a>(p: *const c_char) -> Result<&'a CStr> {
    if p.is_null() {
        return Err(Error::BadParam);
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    Ok(unsafe { CStr::from_ptr(p) })
}

/// An optional C string as a `PStr` (`None` for NULL).
///
/// # Safety
/// As for `cstr`.
pub(crate) unsafe fn opt_pstr(p: *const c_char) -> Option<PStr> {
    if p.is_null() {
        None
    } else {
        // SAFETY: non-NULL and NUL-terminated per the caller's contract.
        Some(PStr::from(unsafe { CStr::from_ptr(p) }.to_bytes()))
    }
}

/// The string in a fixed-size buffer (a `pmix_key_t` or `pmix_nspace_t`); an error if none of
/// its bytes is a terminator.
pub(crate) fn fixed_str(buf: &[c_char]) -> Result<PStr> {
    let n = buf.iter().position(|&c| c == 0).ok_or(Error::BadParam)?;
    Ok(PStr::from(
        buf[..n].iter().map(|&c| c as u8).collect::<Vec<u8>>(),
    ))
}

/// Copies `s` into a fixed-size buffer, truncating to leave room for the terminator and
/// zero-filling the rest (the behaviour of `PMIX_LOAD_KEY`/`PMIX_LOAD_NSPACE`).
pub(crate) fn load_fixed(buf: &mut [c_char], s: &[u8]) {
    let n = s.len().min(buf.len() - 1);
    for (d, &b) in buf.iter_mut().zip(&s[..n]) {
        *d = b as c_char;
    }
    buf[n..].fill(0);
}

/// The strings of a NULL-terminated `char **` array (NULL is the empty array).
///
/// # Safety
/// `p` is NULL or points to an array of C strings ended by a NULL pointer.
pub(crate) unsafe fn argv(p: *const *mut c_char) -> Vec<PStr> {
    let mut out = Vec::new();
    if p.is_null() {
        return out;
    }
    let mut i = 0;
    loop {
        // SAFETY: the array is NULL-terminated, so every index up to the terminator is valid.
        let s = unsafe { *p.add(i) };
        if s.is_null() {
            return out;
        }
        // SAFETY: each element is a NUL-terminated string.
        out.push(PStr::from(unsafe { CStr::from_ptr(s) }.to_bytes()));
        i += 1;
    }
}
