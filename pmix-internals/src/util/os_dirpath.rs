//! Directory trees (OpenPMIx's `pmix_os_dirpath.c`): `pmix_os_dirpath_create` and
//! `pmix_os_dirpath_destroy`.

use core::ffi::{c_char, c_int};

use super::status::*;
use super::{c_string, cstr, errno};

unsafe extern "C" {
    /// The help-message printer (output family), OpenPMIx's prototype.
    fn pmix_show_help(
        filename: *const c_char,
        topic: *const c_char,
        want_error_header: c_int,
        ...
    ) -> c_int;
}

/// Prints help topic `topic` of `help-pmix-util.txt` about `path` and the error `err`.
fn report(topic: &core::ffi::CStr, path: &[u8], err: c_int) {
    let Some(p) = c_string(path) else { return };
    // SAFETY: the variadic arguments are the two C strings the topic expects.
    unsafe {
        pmix_show_help(
            c"help-pmix-util.txt".as_ptr(),
            topic.as_ptr(),
            1,
            p.as_ptr(),
            libc::strerror(err),
        );
    }
}

/// `mkdir(path, mode)`, returning `errno` on failure.
fn mkdir(path: &[u8], mode: libc::mode_t) -> Result<(), c_int> {
    let c = c_string(path).ok_or(libc::EINVAL)?;
    // SAFETY: mkdir with a C string.
    if unsafe { libc::mkdir(c.as_ptr(), mode) } == 0 {
        Ok(())
    } else {
        Err(errno())
    }
}

/// Creates the directory `path` with `mode`, and its missing parents. `PMIX_SUCCESS` when
/// created, `PMIX_ERR_EXISTS` when `path` already existed (its mode is then set to `mode`,
/// ignoring errors), `PMIX_ERR_SILENT` after printing the `mkdir-failed` help when a
/// directory cannot be made, `PMIX_ERR_BAD_PARAM` for NULL.
///
/// # Safety
/// `path` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_os_dirpath_create(path: *const c_char, mode: libc::mode_t) -> c_int {
    // SAFETY: forwarded contract.
    let Some(p) = (unsafe { cstr(path) }) else {
        return PMIX_ERR_BAD_PARAM;
    };
    match mkdir(p, mode) {
        Ok(()) => return PMIX_SUCCESS,
        Err(libc::EEXIST) => {
            // SAFETY: chmod with the caller's C string.
            unsafe { libc::chmod(path, mode) };
            return PMIX_ERR_EXISTS;
        }
        Err(libc::ENOENT) => {}
        Err(e) => {
            report(c"mkdir-failed", p, e);
            return PMIX_ERR_SILENT;
        }
    }
    // A parent is missing: make each prefix in turn, from the top.
    let mut prefix: Vec<u8> = Vec::with_capacity(p.len());
    for (i, part) in p
        .split(|&b| b == b'/')
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        if (i == 0 && p[0] == b'/') || (i > 0 && prefix.last() != Some(&b'/')) {
            prefix.push(b'/');
        }
        prefix.extend_from_slice(part);
        match mkdir(&prefix, mode) {
            Ok(()) | Err(libc::EEXIST) => {}
            Err(e) => {
                report(c"mkdir-failed", &prefix, e);
                return PMIX_ERR_SILENT;
            }
        }
    }
    PMIX_SUCCESS
}

/// The callback of `pmix_os_dirpath_destroy`: called with the directory and an entry name,
/// it returns true to let the entry be removed.
pub type DestroyCallback =
    Option<unsafe extern "C" fn(root: *const c_char, path: *const c_char) -> bool>;

/// Removes the entries of directory `path` that `cbfunc` (if any) allows, descending into
/// non-empty subdirectories when `recursive`, then removes `path` itself if it is empty.
/// `PMIX_SUCCESS`, or `PMIX_ERROR` when `path` is NULL or cannot be opened, an entry is busy,
/// or an entry cannot be removed (the last after printing the `unlink-error` help).
///
/// # Safety
/// `path` is NULL or a C string; `cbfunc` is NULL or a function of the callback's prototype.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_os_dirpath_destroy(
    path: *const c_char,
    recursive: bool,
    cbfunc: DestroyCallback,
) -> c_int {
    // SAFETY: forwarded contract.
    let Some(root) = (unsafe { cstr(path) }) else {
        return PMIX_ERROR;
    };
    // SAFETY: forwarded contract.
    let status = match unsafe { destroy_entries(path, root, recursive, cbfunc) } {
        Some(s) => s,
        None => return PMIX_ERROR,
    };
    // SAFETY: rmdir with the caller's C string; it only succeeds on an empty directory.
    unsafe { libc::rmdir(path) };
    status
}

/// The entry loop of [`pmix_os_dirpath_destroy`]; `None` if the directory cannot be opened.
///
/// # Safety
/// `path` is the C string whose bytes are `root`; `cbfunc` as for the export.
unsafe fn destroy_entries(
    path: *const c_char,
    root: &[u8],
    recursive: bool,
    cbfunc: DestroyCallback,
) -> Option<c_int> {
    // SAFETY: the stream is ours and closed on every way out; entry names are C strings
    // valid until the next readdir, and are copied before it.
    unsafe {
        let dir = libc::opendir(path);
        if dir.is_null() {
            return None;
        }
        let mut status = PMIX_SUCCESS;
        loop {
            let ent = libc::readdir(dir);
            if ent.is_null() {
                break;
            }
            let name_ptr = (*ent).d_name.as_ptr();
            let name = cstr(name_ptr).unwrap_or_default();
            if name == b"." || name == b".." {
                continue;
            }
            if let Some(cb) = cbfunc {
                if !cb(path, name_ptr) {
                    continue;
                }
            }
            let Some(full) = super::path::os_path(false, &[root, name]).and_then(|f| c_string(&f))
            else {
                continue;
            };
            if libc::unlink(full.as_ptr()) == 0 {
                continue;
            }
            match errno() {
                libc::EPERM | libc::EISDIR => {
                    if libc::rmdir(full.as_ptr()) == 0 {
                        continue;
                    }
                    if errno() == libc::ENOTEMPTY && recursive {
                        let rc = pmix_os_dirpath_destroy(full.as_ptr(), recursive, cbfunc);
                        if rc != PMIX_SUCCESS {
                            libc::closedir(dir);
                            return Some(rc);
                        }
                    }
                }
                libc::EBUSY => status = PMIX_ERROR,
                e => {
                    report(c"unlink-error", full.as_bytes(), e);
                    status = PMIX_ERROR;
                    break;
                }
            }
        }
        libc::closedir(dir);
        Some(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::path::PathBuf;

    fn scratch(tag: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("pmix-util-dirpath-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn c(p: &std::path::Path) -> CString {
        CString::new(p.to_str().unwrap()).unwrap()
    }

    #[test]
    fn create_nested_then_exists() {
        let d = scratch("create");
        let deep = d.join("a/b//c/");
        // SAFETY: C strings.
        unsafe {
            assert_eq!(
                pmix_os_dirpath_create(c(&deep).as_ptr(), 0o755),
                PMIX_SUCCESS
            );
            assert!(d.join("a/b/c").is_dir());
            assert_eq!(
                pmix_os_dirpath_create(c(&deep).as_ptr(), 0o700),
                PMIX_ERR_EXISTS
            );
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(d.join("a/b/c"))
                    .unwrap()
                    .permissions()
                    .mode()
                    & 0o777,
                0o700
            );
            assert_eq!(
                pmix_os_dirpath_create(core::ptr::null(), 0o700),
                PMIX_ERR_BAD_PARAM
            );
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    unsafe extern "C" fn keep_keep(_root: *const c_char, name: *const c_char) -> bool {
        // SAFETY: the entry name is a C string.
        (unsafe { cstr(name) }) != Some(&b"keep"[..])
    }

    #[test]
    fn destroy_tree() {
        let d = scratch("destroy");
        std::fs::create_dir_all(d.join("x/y")).unwrap();
        std::fs::write(d.join("x/y/f"), b"1").unwrap();
        std::fs::write(d.join("g"), b"1").unwrap();
        std::fs::write(d.join("keep"), b"1").unwrap();
        // SAFETY: C strings and a callback of the right prototype.
        unsafe {
            assert_eq!(
                pmix_os_dirpath_destroy(c(&d).as_ptr(), true, Some(keep_keep)),
                PMIX_SUCCESS
            );
            assert!(d.join("keep").exists());
            assert!(!d.join("x").exists() && !d.join("g").exists());
            assert_eq!(
                pmix_os_dirpath_destroy(c(&d).as_ptr(), true, None),
                PMIX_SUCCESS
            );
            assert!(!d.exists());
            assert_eq!(
                pmix_os_dirpath_destroy(c(&d).as_ptr(), true, None),
                PMIX_ERROR
            );
            assert_eq!(
                pmix_os_dirpath_destroy(core::ptr::null(), true, None),
                PMIX_ERROR
            );
        }
    }

    #[test]
    fn destroy_not_recursive_keeps_full_subdirs() {
        let d = scratch("flat");
        std::fs::create_dir_all(d.join("full")).unwrap();
        std::fs::create_dir_all(d.join("empty")).unwrap();
        std::fs::write(d.join("full/f"), b"1").unwrap();
        // SAFETY: a C string.
        unsafe {
            assert_eq!(
                pmix_os_dirpath_destroy(c(&d).as_ptr(), false, None),
                PMIX_SUCCESS
            );
        }
        assert!(d.join("full/f").exists() && !d.join("empty").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
