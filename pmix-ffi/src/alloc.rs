//! Allocation of memory handed to C. Everything comes from libc (`malloc`, `calloc`), because
//! callers release it with `free()`, directly or through the header macros.

use core::ffi::{c_char, c_void};

use pmix_core::{Error, PStr, Result};

/// `calloc(n, size_of::<T>())`, or an error when it fails. `n == 0` gives NULL.
pub(crate) fn calloc<T>(n: usize) -> Result<*mut T> {
    if n == 0 {
        return Ok(core::ptr::null_mut());
    }
    // SAFETY: calloc has no preconditions; the result is checked for NULL.
    let p = unsafe { libc::calloc(n, core::mem::size_of::<T>().max(1)) };
    if p.is_null() {
        Err(Error::NoMem)
    } else {
        Ok(p.cast())
    }
}

/// `calloc` of `n` elements of `size` bytes each; NULL for an empty array.
pub(crate) fn calloc_bytes(n: usize, size: usize) -> Result<*mut c_void> {
    if n == 0 {
        return Ok(core::ptr::null_mut());
    }
    // SAFETY: calloc has no preconditions; the result is checked for NULL.
    let p = unsafe { libc::calloc(n, size.max(1)) };
    if p.is_null() {
        Err(Error::NoMem)
    } else {
        Ok(p)
    }
}

/// A malloc'd copy of `bytes` (NULL when empty).
pub(crate) fn bytes(b: &[u8]) -> Result<*mut c_char> {
    if b.is_empty() {
        return Ok(core::ptr::null_mut());
    }
    // SAFETY: malloc has no preconditions; the result is checked for NULL.
    let p = unsafe { libc::malloc(b.len()) }.cast::<u8>();
    if p.is_null() {
        return Err(Error::NoMem);
    }
    // SAFETY: `p` has room for b.len() bytes and does not overlap `b`.
    unsafe { core::ptr::copy_nonoverlapping(b.as_ptr(), p, b.len()) };
    Ok(p.cast())
}

/// A malloc'd, NUL-terminated copy of `s`.
pub(crate) fn cstring(s: &[u8]) -> Result<*mut c_char> {
    // SAFETY: malloc has no preconditions; the result is checked for NULL.
    let p = unsafe { libc::malloc(s.len() + 1) }.cast::<u8>();
    if p.is_null() {
        return Err(Error::NoMem);
    }
    // SAFETY: `p` has room for s.len() + 1 bytes and does not overlap `s`.
    unsafe {
        core::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        *p.add(s.len()) = 0;
    }
    Ok(p.cast())
}

/// A malloc'd copy of a string, or NULL for `None`.
pub(crate) fn opt_cstring(s: Option<&PStr>) -> Result<*mut c_char> {
    match s {
        Some(s) => cstring(s.as_bytes()),
        None => Ok(core::ptr::null_mut()),
    }
}

/// A NULL-terminated, malloc'd `char **` of malloc'd strings; NULL for an empty list.
pub(crate) fn argv(list: &[PStr]) -> Result<*mut *mut c_char> {
    if list.is_empty() {
        return Ok(core::ptr::null_mut());
    }
    let arr = calloc::<*mut c_char>(list.len() + 1)?;
    for (i, s) in list.iter().enumerate() {
        match cstring(s.as_bytes()) {
            // SAFETY: `arr` has list.len() + 1 slots.
            Ok(p) => unsafe { *arr.add(i) = p },
            Err(e) => {
                // SAFETY: `arr` is NULL-terminated (calloc) and holds only malloc'd strings.
                unsafe { free_argv(arr) };
                return Err(e);
            }
        }
    }
    Ok(arr)
}

/// Frees a NULL-terminated `char **` and its strings.
///
/// # Safety
/// `p` is NULL or a NULL-terminated array of malloc'd strings, itself malloc'd.
pub(crate) unsafe fn free_argv(p: *mut *mut c_char) {
    if p.is_null() {
        return;
    }
    let mut i = 0;
    loop {
        // SAFETY: the array is NULL-terminated.
        let s = unsafe { *p.add(i) };
        if s.is_null() {
            break;
        }
        // SAFETY: each string was malloc'd.
        unsafe { libc::free(s.cast()) };
        i += 1;
    }
    // SAFETY: the array was malloc'd.
    unsafe { libc::free(p.cast()) };
}

/// `free()` that also sets the pointer to NULL.
///
/// # Safety
/// `*p` is NULL or was allocated by libc and is not used again.
pub(crate) unsafe fn free<T>(p: &mut *mut T) {
    if !p.is_null() {
        // SAFETY: per the contract, *p came from libc.
        unsafe { libc::free((*p).cast()) };
        *p = core::ptr::null_mut();
    }
}
