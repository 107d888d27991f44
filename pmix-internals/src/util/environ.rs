//! Environment arrays and directories (OpenPMIx's `pmix_environ.c`): `pmix_environ_merge`,
//! `pmix_unsetenv`, `pmix_home_directory`, `pmix_tmp_directory`, and the `PMIx_Setenv` rule
//! as [`setenv`].

use core::ffi::c_char;
use core::ptr::null_mut;

use super::status::*;
use super::{argv, cstr, strdup_bytes};

unsafe extern "C" {
    /// The process environment (POSIX).
    static mut environ: *mut *mut c_char;
}

/// Sets `name=value` (`name=` for a NULL `value`) in `*env` as `PMIx_Setenv` does: when
/// `*env` is the process environment, through `setenv`/`unsetenv`; otherwise an existing
/// `name=` entry is replaced if `overwrite` (else `PMIX_ERR_EXISTS`), or the entry appended.
///
/// # Safety
/// `env` is NULL or points to NULL, to `environ`, or to a libc argv array; `value` is NULL or
/// a C string.
pub unsafe fn setenv(
    name: &[u8],
    value: *const c_char,
    overwrite: bool,
    env: *mut *mut *mut c_char,
) -> i32 {
    if env.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: forwarded contract.
    let value = unsafe { cstr(value) };
    // SAFETY: comparing pointers only.
    if unsafe { *env == environ } {
        let Some(n) = super::c_string(name) else {
            return PMIX_ERR_BAD_PARAM;
        };
        // SAFETY: libc environment calls with C strings.
        unsafe {
            match value.and_then(super::c_string) {
                None => libc::unsetenv(n.as_ptr()),
                Some(v) => libc::setenv(n.as_ptr(), v.as_ptr(), i32::from(overwrite)),
            };
        }
        return PMIX_SUCCESS;
    }
    let mut entry = name.to_vec();
    entry.push(b'=');
    let prefix_len = entry.len();
    entry.extend_from_slice(value.unwrap_or_default());
    // SAFETY: `*env` is NULL or a libc argv array.
    unsafe {
        let items = argv::to_vec(*env);
        if let Some(i) = items
            .iter()
            .position(|e| e.starts_with(&entry[..prefix_len]))
        {
            if !overwrite {
                return PMIX_ERR_EXISTS;
            }
            let s = strdup_bytes(&entry);
            if s.is_null() {
                return PMIX_ERR_OUT_OF_RESOURCE;
            }
            libc::free((*(*env).add(i)).cast());
            *(*env).add(i) = s;
            return PMIX_SUCCESS;
        }
        argv::append_bytes(env, &entry);
    }
    PMIX_SUCCESS
}

/// A new libc array: a copy of `major`, plus each entry of `minor` whose name `major` does
/// not set (an entry without `=` becomes `name=`). NULL when both are NULL.
///
/// # Safety
/// `minor` and `major` are NULL or NULL-terminated arrays of C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_environ_merge(
    minor: *mut *mut c_char,
    major: *mut *mut c_char,
) -> *mut *mut c_char {
    if major.is_null() {
        // SAFETY: forwarded contract.
        return unsafe { argv::copy(minor) };
    }
    // SAFETY: forwarded contract.
    let mut merged = unsafe { argv::copy(major) };
    // SAFETY: forwarded contract; `merged` is our libc array.
    for entry in unsafe { argv::to_vec(minor) } {
        match entry.iter().position(|&b| b == b'=') {
            // SAFETY: as above.
            None => unsafe { setenv(entry, core::ptr::null(), false, &mut merged) },
            Some(eq) => {
                let Some(value) = super::c_string(&entry[eq + 1..]) else {
                    continue;
                };
                // SAFETY: as above.
                unsafe { setenv(&entry[..eq], value.as_ptr(), false, &mut merged) }
            }
        };
    }
    merged
}

/// Removes the first `name=` entry of `*env`, freeing it unless `*env` is the process
/// environment. `PMIX_SUCCESS`, or `PMIX_ERR_NOT_FOUND` if there is none (`PMIX_SUCCESS` for a
/// NULL array).
///
/// # Safety
/// `name` is a C string; `env` points to NULL, to `environ` or to a libc argv array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_unsetenv(name: *const c_char, env: *mut *mut *mut c_char) -> i32 {
    // SAFETY: `env` is checked before it is read.
    if env.is_null() || name.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: checked non-NULL.
    let arr = unsafe { *env };
    if arr.is_null() {
        return PMIX_SUCCESS;
    }
    // SAFETY: a C string.
    let mut prefix = unsafe { cstr(name) }.unwrap_or_default().to_vec();
    prefix.push(b'=');
    // SAFETY: `arr` is a NULL-terminated array; the shift moves the terminator too.
    unsafe {
        let items = argv::to_vec(arr);
        let Some(i) = items.iter().position(|e| e.starts_with(&prefix)) else {
            return PMIX_ERR_NOT_FOUND;
        };
        if arr != environ {
            libc::free((*arr.add(i)).cast());
        }
        core::ptr::copy(arr.add(i + 1), arr.add(i), items.len() - i);
    }
    PMIX_SUCCESS
}

/// The home directory of `uid`: `$HOME` when `uid` is `(uid_t)-1` or the effective user,
/// else (or if `HOME` is unset) the password database's entry. NULL if neither knows.
/// Not to be freed.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_home_directory(uid: libc::uid_t) -> *const c_char {
    // SAFETY: getenv/geteuid/getpwuid; the strings they return stay valid (until the
    // environment or the next getpwuid changes them, as in OpenPMIx).
    unsafe {
        if uid == libc::uid_t::MAX || uid == libc::geteuid() {
            let home = libc::getenv(c"HOME".as_ptr());
            if !home.is_null() {
                return home;
            }
        }
        let pw = libc::getpwuid(uid);
        if pw.is_null() {
            null_mut()
        } else {
            (*pw).pw_dir
        }
    }
}

/// The temporary directory: `$TMPDIR`, else `$TEMP`, else `$TMP`, else `/tmp`. Not to be
/// freed.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_tmp_directory() -> *const c_char {
    for var in [c"TMPDIR", c"TEMP", c"TMP"] {
        // SAFETY: getenv with a C string.
        let v = unsafe { libc::getenv(var.as_ptr()) };
        if !v.is_null() {
            return v;
        }
    }
    c"/tmp".as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(items: &[&str]) -> *mut *mut c_char {
        let mut v = argv::empty();
        for s in items {
            // SAFETY: `v` is a libc argv array.
            unsafe { argv::append_bytes(&mut v, s.as_bytes()) };
        }
        v
    }

    fn read(v: *mut *mut c_char) -> Vec<String> {
        // SAFETY: a libc argv array.
        unsafe { argv::to_vec(v) }
            .iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect()
    }

    #[test]
    fn merge_keeps_major() {
        let minor = build(&["A=minor", "B=2", "FLAG", "C=x=y"]);
        let major = build(&["A=major", "D=4"]);
        // SAFETY: our arrays.
        unsafe {
            let m = pmix_environ_merge(minor, major);
            assert_eq!(read(m), ["A=major", "D=4", "B=2", "FLAG=", "C=x=y"]);
            argv::free(m);
            let m = pmix_environ_merge(minor, null_mut());
            assert_eq!(read(m), read(minor));
            argv::free(m);
            let m = pmix_environ_merge(null_mut(), major);
            assert_eq!(read(m), read(major));
            argv::free(m);
            assert!(pmix_environ_merge(null_mut(), null_mut()).is_null());
            argv::free(minor);
            argv::free(major);
        }
    }

    #[test]
    fn unsetenv_removes_first() {
        let mut v = build(&["A=1", "AB=2", "A=3"]);
        // SAFETY: our array.
        unsafe {
            assert_eq!(pmix_unsetenv(c"A".as_ptr(), &mut v), PMIX_SUCCESS);
            assert_eq!(read(v), ["AB=2", "A=3"]);
            assert_eq!(pmix_unsetenv(c"B".as_ptr(), &mut v), PMIX_ERR_NOT_FOUND);
            argv::free(v);
            let mut none = null_mut();
            assert_eq!(pmix_unsetenv(c"A".as_ptr(), &mut none), PMIX_SUCCESS);
        }
    }

    #[test]
    fn directories() {
        // SAFETY: results are C strings.
        unsafe {
            assert!(cstr(pmix_tmp_directory()).is_some());
            let home = cstr(pmix_home_directory(libc::uid_t::MAX));
            assert!(home.is_some());
            assert!(cstr(pmix_home_directory(0)).is_some());
        }
    }
}
