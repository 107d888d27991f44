//! Paths (OpenPMIx's `pmix_path.c`, `pmix_getcwd.c`, and the joining rule of
//! `pmix_os_path.c`): `pmix_path_findv`, `pmix_find_absolute_path`, `pmix_path_is_absolute`,
//! `pmix_path_nfs`, `pmix_getcwd`.

use core::ffi::{c_char, c_int};
use core::ptr::null_mut;

use super::status::*;
use super::{PMIX_PATH_MAX, argv, basename::basename, c_string, cstr, strdup_bytes};

/// Joins `elements` as `pmix_os_path` does: each element that does not start with `/` gets
/// a `/` before it, and `relative` puts a `.` in front. No element gives `"/"` (or `"./"`).
/// `None` when OpenPMIx's length budget (`PMIX_PATH_MAX`) would be exceeded.
pub fn os_path(relative: bool, elements: &[&[u8]]) -> Option<Vec<u8>> {
    if elements.is_empty() {
        return Some(if relative {
            b"./".to_vec()
        } else {
            b"/".to_vec()
        });
    }
    // OpenPMIx's budget: every byte, a separator per element plus one more for each element
    // not starting with one, the NUL, and the dot.
    let budget: usize = elements
        .iter()
        .map(|e| e.len() + 1 + usize::from(e.first() != Some(&b'/')))
        .sum::<usize>()
        + 1
        + usize::from(relative);
    if budget > PMIX_PATH_MAX {
        return None;
    }
    let mut out = Vec::with_capacity(budget);
    if relative {
        out.push(b'.');
    }
    for e in elements {
        if e.first() != Some(&b'/') {
            out.push(b'/');
        }
        out.extend_from_slice(e);
    }
    Some(out)
}

/// The value of `var` from `env` (entries `NAME=value`), else from the process environment.
///
/// # Safety
/// `env` is NULL or a NULL-terminated array of C strings that outlive the result.
unsafe fn env_lookup<'a>(var: &[u8], env: *const *mut c_char) -> Option<&'a [u8]> {
    // SAFETY: forwarded contract.
    for entry in unsafe { argv::to_vec(env) } {
        if entry.len() > var.len() && entry.starts_with(var) && entry[var.len()] == b'=' {
            return Some(&entry[var.len() + 1..]);
        }
    }
    let name = c_string(var)?;
    // SAFETY: getenv with a C string; the environment entry outlives this call's use.
    unsafe { cstr(libc::getenv(name.as_ptr())) }
}

/// `dir/fname` joined as [`os_path`] does (just `fname` without `dir`), if `access(mode)`
/// accepts it.
fn accessible(fname: &[u8], dir: Option<&[u8]>, mode: c_int) -> Option<Vec<u8>> {
    let full = match dir {
        Some(d) => os_path(false, &[d, fname])?,
        None => os_path(false, &[fname])?,
    };
    let c = c_string(&full)?;
    // SAFETY: access() with a C string.
    (unsafe { libc::access(c.as_ptr(), mode) } == 0).then_some(full)
}

/// Looks `fname` up in `dirs` as `pmix_path_find` does: an absolute `fname` is only checked;
/// a directory starting with `$NAME` has that head replaced by the variable's value from
/// `env` or the environment (skipped if unset).
///
/// # Safety
/// `env` is NULL or a NULL-terminated array of C strings.
pub unsafe fn find(
    fname: &[u8],
    dirs: &[&[u8]],
    mode: c_int,
    env: *const *mut c_char,
) -> Option<Vec<u8>> {
    if fname.first() == Some(&b'/') {
        return accessible(fname, None, mode);
    }
    for dir in dirs {
        let found = if let Some(rest) = dir.strip_prefix(b"$") {
            let slash = rest.iter().position(|&b| b == b'/');
            let var = &rest[..slash.unwrap_or(rest.len())];
            // SAFETY: forwarded contract.
            match unsafe { env_lookup(var, env) } {
                None => None,
                Some(value) => {
                    let mut prefix = value.to_vec();
                    if let Some(s) = slash {
                        prefix.extend_from_slice(&rest[s..]);
                    }
                    accessible(fname, Some(&prefix), mode)
                }
            }
        } else {
            accessible(fname, Some(dir), mode)
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Searches `fname` in the `PATH` of `envv` (or of the environment) with `access(mode)`.
/// With `wrkdir`, every `.` entry of the path becomes `wrkdir`, and `wrkdir` is searched last
/// if the path had no `.`. Returns a malloc'd path, or NULL.
///
/// # Safety
/// `fname` and `wrkdir` are NULL or C strings; `envv` is NULL or a NULL-terminated array of
/// C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_path_findv(
    fname: *mut c_char,
    mode: c_int,
    envv: *mut *mut c_char,
    wrkdir: *mut c_char,
) -> *mut c_char {
    // SAFETY: forwarded contract.
    let (Some(fname), wrkdir) = (unsafe { cstr(fname) }, unsafe { cstr(wrkdir) }) else {
        return null_mut();
    };
    // SAFETY: forwarded contract.
    let path = unsafe { env_lookup(b"PATH", envv) }.unwrap_or(b"");
    let mut dirs: Vec<&[u8]> = path
        .split(|&b| b == b':')
        .filter(|d| !d.is_empty())
        .collect();
    if let Some(w) = wrkdir {
        let mut had_dot = false;
        for d in dirs.iter_mut().filter(|d| **d == b".") {
            *d = w;
            had_dot = true;
        }
        if !had_dot {
            dirs.push(w);
        }
    }
    if dirs.is_empty() {
        // Nowhere to look, not even for an absolute name (as OpenPMIx).
        return null_mut();
    }
    // SAFETY: forwarded contract.
    match unsafe { find(fname, &dirs, mode, envv) } {
        Some(p) => strdup_bytes(&p),
        None => null_mut(),
    }
}

/// True if `path` starts with `/` (false for NULL).
///
/// # Safety
/// `path` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_path_is_absolute(path: *const c_char) -> bool {
    // SAFETY: the first byte of a non-NULL C string is readable.
    !path.is_null() && unsafe { *path } as u8 == b'/'
}

/// The canonical absolute path (`realpath`) of the program `app_name`: as given if absolute,
/// under the current directory if it starts with `.` or holds a `/`, else searched in `PATH`
/// for an executable. Malloc'd; NULL if it cannot be resolved. Unlike OpenPMIx, a failing
/// `realpath` of an absolute `app_name` never frees the caller's string.
///
/// # Safety
/// `app_name` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_find_absolute_path(app_name: *mut c_char) -> *mut c_char {
    // SAFETY: forwarded contract.
    let Some(app) = (unsafe { cstr(app_name) }) else {
        return null_mut();
    };
    let candidate = if app.first() == Some(&b'/') {
        app.to_vec()
    } else if app.first() == Some(&b'.') || app.contains(&b'/') {
        let Ok(cwd) = std::env::current_dir() else {
            return null_mut();
        };
        use std::os::unix::ffi::OsStrExt;
        match os_path(false, &[cwd.as_os_str().as_bytes(), app]) {
            Some(p) => p,
            None => return null_mut(),
        }
    } else {
        // SAFETY: a C string and no environment array.
        let found = unsafe { pmix_path_findv(app_name, libc::X_OK, null_mut(), null_mut()) };
        if found.is_null() {
            return null_mut();
        }
        // SAFETY: our malloc'd result, copied then freed.
        let bytes = unsafe { cstr(found) }.unwrap_or_default().to_vec();
        // SAFETY: as above.
        unsafe { libc::free(found.cast()) };
        bytes
    };
    let Some(c) = c_string(&candidate) else {
        return null_mut();
    };
    // SAFETY: realpath with a NULL buffer mallocs its result (NULL on failure).
    unsafe { libc::realpath(c.as_ptr(), null_mut()) }
}

/// File-system types `pmix_path_nfs` treats as shared.
const SHARED_FS: [&[u8]; 6] = [b"lustre", b"nfs", b"autofs", b"panfs", b"gpfs", b"pvfs2"];

/// The device of `path` (opened read-only, then `fstat`), or `None`.
fn device_of(path: *const c_char) -> Option<libc::dev_t> {
    // SAFETY: open/fstat/close on a C string path and our own descriptor.
    unsafe {
        let fd = libc::open(path, libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let mut st: libc::stat = core::mem::zeroed();
        let rc = libc::fstat(fd, &mut st);
        libc::close(fd);
        (rc == 0).then_some(st.st_dev)
    }
}

/// Whether `fname` (or, if it cannot be opened, its directory) lives on a shared file system
/// (lustre, nfs, autofs, panfs, gpfs, pvfs2). The mount whose directory has the same device
/// is looked up in `/proc/mounts` (else `/etc/mtab`) and its type stored malloc'd in
/// `*fstype`; nothing is stored when no mount matches.
///
/// # Safety
/// `fname` is NULL or a C string; `fstype` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_path_nfs(fname: *mut c_char, fstype: *mut *mut c_char) -> bool {
    if fname.is_null() {
        return false;
    }
    let dev = match device_of(fname) {
        Some(d) => d,
        None => {
            // SAFETY: a C string; our malloc'd dirname, freed after use.
            unsafe {
                let parent = super::basename::pmix_dirname(fname);
                let d = device_of(parent);
                libc::free(parent.cast());
                match d {
                    Some(d) => d,
                    None => return false,
                }
            }
        }
    };
    // SAFETY: the mount table is read with the reentrant getmntent_r into our buffer; the
    // entry's strings point into that buffer and are used before the next call.
    unsafe {
        let mut fp = libc::setmntent(c"/proc/mounts".as_ptr(), c"r".as_ptr());
        if fp.is_null() {
            fp = libc::setmntent(c"/etc/mtab".as_ptr(), c"r".as_ptr());
            if fp.is_null() {
                return false;
            }
        }
        let mut ent: libc::mntent = core::mem::zeroed();
        let mut buf = [0 as c_char; 4096];
        while !libc::getmntent_r(fp, &mut ent, buf.as_mut_ptr(), buf.len() as c_int).is_null() {
            if device_of(ent.mnt_dir) != Some(dev) {
                continue;
            }
            libc::endmntent(fp);
            let ty = cstr(ent.mnt_type).unwrap_or_default();
            if !fstype.is_null() {
                *fstype = strdup_bytes(ty);
            }
            return SHARED_FS.contains(&ty);
        }
        libc::endmntent(fp);
    }
    false
}

/// Copies the current directory into `buf` (`size` bytes). If it is longer than `size`, only
/// its last component is copied (truncated) and `PMIX_ERR_OUT_OF_RESOURCE` returned.
/// `PMIX_ERR_BAD_PARAM` for a NULL `buf` or a `size` above `INT_MAX`, `PMIX_ERR_IN_ERRNO` if
/// `getcwd` fails.
///
/// # Safety
/// `buf` is NULL or holds `size` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_getcwd(buf: *mut c_char, size: usize) -> c_int {
    if buf.is_null() || size > c_int::MAX as usize {
        return PMIX_ERR_BAD_PARAM;
    }
    let mut cwd = [0 as c_char; PMIX_PATH_MAX];
    // SAFETY: getcwd into our buffer of its stated size.
    if unsafe { libc::getcwd(cwd.as_mut_ptr(), cwd.len()) }.is_null() {
        return PMIX_ERR_IN_ERRNO;
    }
    // `$PWD` is only ever used when it equals getcwd()'s answer, so that answer is the result.
    // SAFETY: getcwd NUL-terminated the buffer.
    let dir = unsafe { cstr(cwd.as_ptr()) }.unwrap_or_default();
    let (text, rc) = if dir.len() > size {
        (basename(dir), PMIX_ERR_OUT_OF_RESOURCE)
    } else {
        (dir, PMIX_SUCCESS)
    };
    // SAFETY: `buf` holds `size` bytes.
    unsafe { super::string_copy::copy_bytes(buf, text, size) };
    rc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_like_os_path() {
        assert_eq!(os_path(false, &[]).unwrap(), b"/");
        assert_eq!(os_path(true, &[]).unwrap(), b"./");
        assert_eq!(
            os_path(false, &[b"/usr", b"bin", b"/ls"]).unwrap(),
            b"/usr/bin/ls"
        );
        assert_eq!(os_path(true, &[b"a", b"b"]).unwrap(), b"./a/b");
        assert_eq!(os_path(false, &[b".", b"x"]).unwrap(), b"/./x");
        assert!(os_path(false, &[&[b'a'; 5000]]).is_none());
    }

    #[test]
    fn absolute() {
        // SAFETY: C strings or NULL.
        unsafe {
            assert!(pmix_path_is_absolute(c"/x".as_ptr()));
            assert!(!pmix_path_is_absolute(c"x/".as_ptr()));
            assert!(!pmix_path_is_absolute(c"".as_ptr()));
            assert!(!pmix_path_is_absolute(null_mut()));
        }
    }

    #[test]
    fn findv_uses_env_path_and_wrkdir() {
        let dir = std::env::temp_dir().join(format!("pmix-util-findv-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::write(dir.join("bin/tool"), b"").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("bin/tool"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        let d = dir.to_str().unwrap();
        let path = std::ffi::CString::new(format!("PATH=/nonexistent:{d}/bin")).unwrap();
        let mut env = [path.as_ptr().cast_mut(), null_mut()];
        // SAFETY: C strings and a NULL-terminated array.
        unsafe {
            let p = pmix_path_findv(
                c"tool".as_ptr().cast_mut(),
                libc::X_OK,
                env.as_mut_ptr(),
                null_mut(),
            );
            assert_eq!(cstr(p).unwrap(), format!("{d}/bin/tool").as_bytes());
            libc::free(p.cast());
            let wd = std::ffi::CString::new(format!("{d}/bin")).unwrap();
            let empty = std::ffi::CString::new("PATH=").unwrap();
            env[0] = empty.as_ptr().cast_mut();
            let p = pmix_path_findv(
                c"tool".as_ptr().cast_mut(),
                libc::X_OK,
                env.as_mut_ptr(),
                wd.as_ptr().cast_mut(),
            );
            assert_eq!(cstr(p).unwrap(), format!("{d}/bin/tool").as_bytes());
            libc::free(p.cast());
            let p = pmix_path_findv(
                c"tool".as_ptr().cast_mut(),
                libc::X_OK,
                env.as_mut_ptr(),
                null_mut(),
            );
            assert!(p.is_null());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn getcwd_fits_or_truncates() {
        let cwd = std::env::current_dir().unwrap();
        let mut buf = [0 as c_char; 4096];
        // SAFETY: a buffer of the stated size.
        unsafe {
            assert_eq!(pmix_getcwd(buf.as_mut_ptr(), buf.len()), 0);
            assert_eq!(
                cstr(buf.as_ptr()).unwrap(),
                cwd.to_str().unwrap().as_bytes()
            );
            assert_eq!(pmix_getcwd(buf.as_mut_ptr(), 2), PMIX_ERR_OUT_OF_RESOURCE);
            assert_eq!(cstr(buf.as_ptr()).unwrap().len(), 1);
            assert_eq!(pmix_getcwd(null_mut(), 2), PMIX_ERR_BAD_PARAM);
        }
    }

    #[test]
    fn nfs_of_root_is_not_shared() {
        let mut ty = null_mut();
        // SAFETY: C string and a writable pointer.
        unsafe {
            assert!(!pmix_path_nfs(c"/proc".as_ptr().cast_mut(), &mut ty));
            assert_eq!(cstr(ty).unwrap(), b"proc");
            libc::free(ty.cast());
        }
    }
}
