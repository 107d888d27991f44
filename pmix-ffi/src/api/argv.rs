//! `PMIx_Argv_*` and `PMIx_Setenv`: NULL-terminated string arrays in libc memory, the 5.0
//! ABI's functions behind the `PMIX_ARGV_*` and `PMIX_SETENV` macros (4.2 had them as static
//! inline helpers in the header).
//!
//! The arrays and their strings are malloc'd, so that callers (and the 4.2 macros, which
//! realloc and free them directly) can mix these functions with their own code. A NULL array
//! pointer, or a NULL string where one is needed, is `PMIX_ERR_BAD_PARAM` (OpenPMIx 5.0.11
//! dereferences it).

use core::ffi::{c_char, c_int};

use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::alloc;
use crate::entry;
use crate::ptr;

/// Entries before the terminator.
///
/// # Safety
/// `argv` is NULL or NULL-terminated.
unsafe fn count(argv: *const *mut c_char) -> usize {
    if argv.is_null() {
        return 0;
    }
    let mut n = 0;
    // SAFETY: the array is NULL-terminated.
    while !unsafe { *argv.add(n) }.is_null() {
        n += 1;
    }
    n
}

/// `strdup`, or an out-of-resource error.
///
/// # Safety
/// `s` is a C string.
unsafe fn dup(s: *const c_char) -> Result<*mut c_char> {
    // SAFETY: forwarded contract.
    let p = unsafe { libc::strdup(s) };
    if p.is_null() {
        Err(Error::Status(PMIX_ERR_OUT_OF_RESOURCE))
    } else {
        Ok(p)
    }
}

/// Makes room for one more entry in `*argv` (growing or allocating it), puts `s` (owned from
/// now on by the array) at `at`, moving the entries from there on up by one.
///
/// # Safety
/// `*argv` is NULL or a malloc'd NULL-terminated array; `s` is malloc'd; `at <= count`.
unsafe fn insert(argv: &mut *mut *mut c_char, at: usize, s: *mut c_char) -> Result<()> {
    // SAFETY: forwarded contract.
    let n = unsafe { count(*argv) };
    // SAFETY: `*argv` is NULL or malloc'd; the new size holds n + 1 entries and the terminator.
    let grown = unsafe {
        libc::realloc(
            (*argv).cast(),
            (n + 2) * core::mem::size_of::<*mut c_char>(),
        )
    }
    .cast::<*mut c_char>();
    if grown.is_null() {
        // SAFETY: `s` is malloc'd and not yet owned by the array.
        unsafe { libc::free(s.cast()) };
        return Err(Error::Status(PMIX_ERR_OUT_OF_RESOURCE));
    }
    // SAFETY: `grown` has n + 2 slots; entries at..n move to at+1..n+1.
    unsafe {
        core::ptr::copy(grown.add(at), grown.add(at + 1), n - at);
        *grown.add(at) = s;
        *grown.add(n + 1) = core::ptr::null_mut();
    }
    *argv = grown;
    Ok(())
}

/// Number of entries of `argv` before its NULL terminator; 0 for NULL.
///
/// See PMIx Standard v5 (OpenPMIx 5.0 ABI), `PMIx_Argv_count`.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_count(argv: *mut *mut c_char) -> c_int {
    entry::guard("PMIx_Argv_count", 0, || {
        // SAFETY: per this function's contract.
        c_int::try_from(unsafe { count(argv) }).unwrap_or(c_int::MAX)
    })
}

/// Appends a copy of `arg` to `*argv` (allocating the array when `*argv` is NULL).
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `argv` or `arg`;
/// `PMIX_ERR_OUT_OF_RESOURCE` when memory runs out (the array is then unchanged).
///
/// # Safety
/// `argv` is NULL or points to NULL or a malloc'd NULL-terminated array of malloc'd strings;
/// `arg` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_append_nosize(
    argv: *mut *mut *mut c_char,
    arg: *const c_char,
) -> pmix_status_t {
    entry::status("PMIx_Argv_append_nosize", || {
        // SAFETY: per this function's contract.
        unsafe { add(argv, arg, false, false) }
    })
}

/// Puts a copy of `arg` first in `*argv` (allocating the array when `*argv` is NULL).
///
/// # Returns
/// As `PMIx_Argv_append_nosize`.
///
/// # Safety
/// As `PMIx_Argv_append_nosize`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_prepend_nosize(
    argv: *mut *mut *mut c_char,
    arg: *const c_char,
) -> pmix_status_t {
    entry::status("PMIx_Argv_prepend_nosize", || {
        // SAFETY: per this function's contract.
        unsafe { add(argv, arg, true, false) }
    })
}

/// Appends a copy of `arg` unless an equal string is already in `*argv` (then nothing
/// changes, and the call still succeeds).
///
/// # Returns
/// As `PMIx_Argv_append_nosize`.
///
/// # Safety
/// As `PMIx_Argv_append_nosize`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_append_unique_nosize(
    argv: *mut *mut *mut c_char,
    arg: *const c_char,
) -> pmix_status_t {
    entry::status("PMIx_Argv_append_unique_nosize", || {
        // SAFETY: per this function's contract.
        unsafe { add(argv, arg, false, true) }
    })
}

/// The three adders: a copy of `arg` first (`front`) or last, unless `unique` and present.
///
/// # Safety
/// As `PMIx_Argv_append_nosize`.
unsafe fn add(
    argv: *mut *mut *mut c_char,
    arg: *const c_char,
    front: bool,
    unique: bool,
) -> Result<()> {
    // SAFETY: forwarded contract.
    let argv = unsafe { ptr::req_mut(argv) }?;
    // SAFETY: forwarded contract.
    let want = unsafe { ptr::cstr(arg) }?;
    // SAFETY: `*argv` is NULL or NULL-terminated.
    let n = unsafe { count(*argv) };
    if unique {
        for i in 0..n {
            // SAFETY: i < n; every entry is a C string.
            if unsafe { core::ffi::CStr::from_ptr(*(*argv).add(i)) } == want {
                return Ok(());
            }
        }
    }
    // SAFETY: `arg` is a C string; the array is as `insert` needs.
    unsafe { insert(argv, if front { 0 } else { n }, dup(arg)?) }
}

/// Frees every string of `argv` and the array; NULL is ignored.
///
/// # Safety
/// `argv` is NULL or a malloc'd NULL-terminated array of malloc'd strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_free(argv: *mut *mut c_char) {
    // SAFETY: per this function's contract.
    entry::guard("PMIx_Argv_free", (), || unsafe { alloc::free_argv(argv) })
}

/// Splits `src_string` at each `delimiter`. Empty tokens (two delimiters in a row, or one at
/// the start) are kept as empty strings when `include_empty`, dropped otherwise; a delimiter
/// at the end never yields one, as in OpenPMIx. NULL for a NULL or empty string, or when
/// memory runs out.
///
/// # Safety
/// `src_string` is NULL or a C string. Ownership: release with `PMIx_Argv_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_split_inter(
    src_string: *const c_char,
    delimiter: c_int,
    include_empty: bool,
) -> *mut *mut c_char {
    entry::guard("PMIx_Argv_split_inter", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        unsafe { split(src_string, delimiter, include_empty) }.unwrap_or(core::ptr::null_mut())
    })
}

/// `PMIx_Argv_split_inter(src_string, delimiter, true)`.
///
/// # Safety
/// As `PMIx_Argv_split_inter`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_split_with_empty(
    src_string: *const c_char,
    delimiter: c_int,
) -> *mut *mut c_char {
    entry::guard("PMIx_Argv_split_with_empty", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        unsafe { split(src_string, delimiter, true) }.unwrap_or(core::ptr::null_mut())
    })
}

/// `PMIx_Argv_split_inter(src_string, delimiter, false)`.
///
/// # Safety
/// As `PMIx_Argv_split_inter`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_split(
    src_string: *const c_char,
    delimiter: c_int,
) -> *mut *mut c_char {
    entry::guard("PMIx_Argv_split", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        unsafe { split(src_string, delimiter, false) }.unwrap_or(core::ptr::null_mut())
    })
}

/// The tokens of `src` as a malloc'd argv (NULL when there are none).
///
/// # Safety
/// `src` is NULL or a C string.
unsafe fn split(
    src: *const c_char,
    delimiter: c_int,
    include_empty: bool,
) -> Result<*mut *mut c_char> {
    // SAFETY: forwarded contract.
    let Some(s) = (unsafe { ptr::opt_pstr(src) }) else {
        return Ok(core::ptr::null_mut());
    };
    // C compares `char` (signed here) with the int delimiter.
    let is_delim = |b: u8| c_int::from(b as c_char) == delimiter;
    let mut tokens = Vec::new();
    let mut rest = s.as_bytes();
    while !rest.is_empty() {
        let len = rest.iter().position(|&b| is_delim(b)).unwrap_or(rest.len());
        if len > 0 || include_empty {
            tokens.push(PStr::from(&rest[..len]));
        }
        rest = &rest[(len + 1).min(rest.len())..];
    }
    // NULL for no tokens, as OpenPMIx.
    alloc::argv(&tokens)
}

/// The entries of `argv` joined by the character `delimiter`, malloc'd; an empty string for a
/// NULL or empty array; NULL when memory runs out.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings. Ownership: release with `free()`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_join(argv: *mut *mut c_char, delimiter: c_int) -> *mut c_char {
    entry::guard("PMIx_Argv_join", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        let n = unsafe { count(argv) };
        let mut joined = Vec::new();
        for i in 0..n {
            if i > 0 {
                // C stores the int as a char: its low byte.
                joined.push(delimiter as u8);
            }
            // SAFETY: i < n; each entry is a C string.
            joined.extend_from_slice(unsafe { core::ffi::CStr::from_ptr(*argv.add(i)) }.to_bytes());
        }
        alloc::cstring(&joined).unwrap_or(core::ptr::null_mut())
    })
}

/// A deep copy of `argv` (an array holding only the terminator for an empty one); NULL for
/// NULL or when memory runs out.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings. Ownership: `PMIx_Argv_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Argv_copy(argv: *mut *mut c_char) -> *mut *mut c_char {
    entry::guard("PMIx_Argv_copy", core::ptr::null_mut(), || {
        if argv.is_null() {
            return core::ptr::null_mut();
        }
        // SAFETY: per this function's contract.
        let list = unsafe { ptr::argv(argv) };
        // An empty array copies to an array holding only the terminator.
        let copy = if list.is_empty() {
            alloc::calloc::<*mut c_char>(1)
        } else {
            alloc::argv(&list)
        };
        copy.unwrap_or(core::ptr::null_mut())
    })
}

/// Sets `name` to `value` in the environment array `*env`: "NAME=VALUE" (or "NAME=" for a
/// NULL value) replaces an existing entry when `overwrite`, or is appended. When `*env` is the
/// process's own `environ`, this is `setenv` (or `unsetenv` for a NULL value) instead.
///
/// See OpenPMIx 5.0's `PMIx_Setenv`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_EXISTS` when the name is set and not `overwrite`;
/// `PMIX_ERR_BAD_PARAM` for a NULL `env` or `name`; `PMIX_ERR_OUT_OF_RESOURCE`.
///
/// # Safety
/// `env` is NULL or points to NULL, `environ`, or a malloc'd NULL-terminated array of malloc'd
/// strings; `name` and `value` are NULL or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Setenv(
    name: *const c_char,
    value: *const c_char,
    overwrite: bool,
    env: *mut *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Setenv", || {
        // SAFETY: per this function's contract.
        let env = unsafe { ptr::req_mut(env) }?;
        // SAFETY: per this function's contract.
        let name_c = unsafe { ptr::cstr(name) }?;
        unsafe extern "C" {
            static mut environ: *mut *mut c_char;
        }
        // SAFETY: reading the address libc keeps in `environ`.
        if *env == unsafe { environ } {
            // SAFETY: `name` and `value` are C strings (value may be NULL).
            let rc = unsafe {
                if value.is_null() {
                    libc::unsetenv(name)
                } else {
                    libc::setenv(name, value, c_int::from(overwrite))
                }
            };
            return if rc == 0 {
                Ok(())
            } else {
                Err(Error::BadParam)
            };
        }
        let mut entry = name_c.to_bytes().to_vec();
        entry.push(b'=');
        let prefix = entry.len();
        // SAFETY: per this function's contract.
        if let Some(v) = unsafe { ptr::opt_pstr(value) } {
            entry.extend_from_slice(v.as_bytes());
        }
        // SAFETY: `*env` is NULL or NULL-terminated.
        let n = unsafe { count(*env) };
        for i in 0..n {
            // SAFETY: i < n; each entry is a malloc'd C string.
            let slot = unsafe { &mut *(*env).add(i) };
            // SAFETY: the entry is a C string.
            if unsafe { core::ffi::CStr::from_ptr(*slot) }
                .to_bytes()
                .starts_with(&entry[..prefix])
            {
                if !overwrite {
                    return Err(Error::Status(PMIX_ERR_EXISTS));
                }
                let new =
                    alloc::cstring(&entry).map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE))?;
                // SAFETY: the old entry was malloc'd and is replaced.
                unsafe { libc::free((*slot).cast()) };
                *slot = new;
                return Ok(());
            }
        }
        let new = alloc::cstring(&entry).map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE))?;
        // SAFETY: the array is as `insert` needs; `new` is malloc'd.
        unsafe { insert(env, n, new) }
    })
}
