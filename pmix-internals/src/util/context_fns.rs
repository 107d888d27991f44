//! Checks of an application's context (OpenPMIx's `pmix_context_fns.c`):
//! `pmix_util_check_context_cwd` and `pmix_util_check_context_app`.

use core::ffi::{c_char, c_int};

use super::status::*;
use super::{basename::basename, cstr};

/// Checks the working directory `*incwd` (NULL: nothing to check). With `want_chdir`, it
/// changes into it; if that fails, a `user_cwd` gives `PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE`,
/// otherwise the home directory is tried instead (same error if that fails too) and
/// `*incwd` is replaced by a malloc'd copy of it (the old string freed).
/// `PMIX_ERR_BAD_PARAM` for a NULL `incwd`.
///
/// # Safety
/// `incwd` is NULL or points to NULL or to a malloc'd C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_util_check_context_cwd(
    incwd: *mut *mut c_char,
    want_chdir: bool,
    user_cwd: bool,
) -> c_int {
    if incwd.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: checked non-NULL.
    let cwd = unsafe { *incwd };
    if cwd.is_null() {
        return PMIX_SUCCESS;
    }
    // SAFETY: chdir with the caller's C string.
    if !want_chdir || unsafe { libc::chdir(cwd) } == 0 {
        return PMIX_SUCCESS;
    }
    if user_cwd {
        return PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE;
    }
    let home = super::environ::pmix_home_directory(libc::uid_t::MAX);
    if home.is_null() {
        // No home to fall back to: stay where we are.
        return PMIX_SUCCESS;
    }
    // SAFETY: chdir with a C string; the caller's string is malloc'd and replaced.
    unsafe {
        if libc::chdir(home) != 0 {
            return PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE;
        }
        libc::free(cwd.cast());
        *incwd = libc::strdup(home);
    }
    PMIX_SUCCESS
}

/// Checks the executable `*incmd`: a bare name is searched for an executable in the `PATH`
/// of `env` (or the environment) with `cwd` standing for `.` (see `pmix_path_findv`), and
/// on success `*incmd` is replaced by the malloc'd full path (the old string freed);
/// `PMIX_ERR_JOB_EXE_NOT_FOUND` if there is none. A name with a directory part must be
/// executable as given, else `PMIX_ERR_EXE_NOT_ACCESSIBLE`.
///
/// # Safety
/// `incmd` points to a malloc'd C string; `cwd` is NULL or a C string; `env` is NULL or a
/// NULL-terminated array of C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_util_check_context_app(
    incmd: *mut *mut c_char,
    cwd: *mut c_char,
    env: *mut *mut c_char,
) -> c_int {
    if incmd.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: checked non-NULL; forwarded contract.
    let cmd = unsafe { *incmd };
    // SAFETY: forwarded contract.
    let Some(name) = (unsafe { cstr(cmd) }) else {
        return PMIX_ERR_BAD_PARAM;
    };
    if basename(name).len() != name.len() {
        // SAFETY: access with the caller's C string.
        if unsafe { libc::access(cmd, libc::X_OK) } != 0 {
            return PMIX_ERR_EXE_NOT_ACCESSIBLE;
        }
        return PMIX_SUCCESS;
    }
    // SAFETY: forwarded contract.
    let found = unsafe { super::path::pmix_path_findv(cmd, libc::X_OK, env, cwd) };
    if found.is_null() {
        return PMIX_ERR_JOB_EXE_NOT_FOUND;
    }
    // SAFETY: the caller's string is malloc'd and replaced by ours.
    unsafe {
        libc::free(cmd.cast());
        *incmd = found;
    }
    PMIX_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::null_mut;

    #[test]
    fn app_lookup() {
        // SAFETY: malloc'd strings handed over as the callee expects, freed after.
        unsafe {
            let mut cmd = libc::strdup(c"sh".as_ptr());
            let path = c"PATH=/nonexistent:/bin:/usr/bin".as_ptr().cast_mut();
            let mut env = [path, null_mut()];
            assert_eq!(
                pmix_util_check_context_app(&mut cmd, null_mut(), env.as_mut_ptr()),
                PMIX_SUCCESS
            );
            assert!(cstr(cmd).unwrap().ends_with(b"bin/sh"));
            libc::free(cmd.cast());
            let mut cmd = libc::strdup(c"no-such-program-xyz".as_ptr());
            assert_eq!(
                pmix_util_check_context_app(&mut cmd, null_mut(), env.as_mut_ptr()),
                PMIX_ERR_JOB_EXE_NOT_FOUND
            );
            libc::free(cmd.cast());
            let mut cmd = libc::strdup(c"/etc/passwd".as_ptr());
            assert_eq!(
                pmix_util_check_context_app(&mut cmd, null_mut(), null_mut()),
                PMIX_ERR_EXE_NOT_ACCESSIBLE
            );
            libc::free(cmd.cast());
        }
    }

    #[test]
    fn cwd_checks_without_chdir() {
        // SAFETY: malloc'd strings as the callee expects.
        unsafe {
            assert_eq!(
                pmix_util_check_context_cwd(null_mut(), false, false),
                PMIX_ERR_BAD_PARAM
            );
            let mut none = null_mut();
            assert_eq!(
                pmix_util_check_context_cwd(&mut none, true, true),
                PMIX_SUCCESS
            );
            let mut d = libc::strdup(c"/no/such/dir".as_ptr());
            assert_eq!(
                pmix_util_check_context_cwd(&mut d, false, true),
                PMIX_SUCCESS
            );
            // chdir fails and the user asked for it: refused, nothing changes.
            assert_eq!(
                pmix_util_check_context_cwd(&mut d, true, true),
                PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE
            );
            assert_eq!(cstr(d).unwrap(), b"/no/such/dir");
            libc::free(d.cast());
        }
    }
}
