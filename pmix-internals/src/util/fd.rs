//! File descriptors (OpenPMIx's `pmix_fd.c`): blocking read/write loops, close-on-exec, file
//! kinds, the peer's address, and closing every descriptor but one.

use core::ffi::{c_char, c_int, c_void};

use super::status::*;
use super::{errno, string_copy::copy_bytes};

/// Reads exactly `len` bytes into `buffer`, retrying on `EAGAIN`/`EINTR`. `PMIX_ERR_TIMEOUT`
/// if the peer closes first, `PMIX_ERR_IN_ERRNO` on another error, `PMIX_ERR_BAD_PARAM` for a
/// negative `len`.
///
/// # Safety
/// `buffer` holds `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_fd_read(fd: c_int, len: c_int, buffer: *mut c_void) -> c_int {
    let Ok(len) = usize::try_from(len) else {
        return PMIX_ERR_BAD_PARAM;
    };
    let mut done = 0;
    while done < len {
        // SAFETY: the rest of the caller's buffer.
        let rc = unsafe { libc::read(fd, buffer.cast::<u8>().add(done).cast(), len - done) };
        if rc > 0 {
            done += rc as usize;
        } else if rc == 0 {
            return PMIX_ERR_TIMEOUT;
        } else if !matches!(errno(), libc::EAGAIN | libc::EINTR) {
            return PMIX_ERR_IN_ERRNO;
        }
    }
    PMIX_SUCCESS
}

/// Writes exactly `len` bytes of `buffer`, retrying on `EAGAIN`/`EINTR`. `PMIX_ERR_IN_ERRNO`
/// on another error (or a write of nothing), `PMIX_ERR_BAD_PARAM` for a negative `len`.
///
/// # Safety
/// `buffer` holds `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_fd_write(fd: c_int, len: c_int, buffer: *const c_void) -> c_int {
    let Ok(len) = usize::try_from(len) else {
        return PMIX_ERR_BAD_PARAM;
    };
    let mut done = 0;
    while done < len {
        // SAFETY: the rest of the caller's buffer.
        let rc = unsafe { libc::write(fd, buffer.cast::<u8>().add(done).cast(), len - done) };
        if rc > 0 {
            done += rc as usize;
        } else if rc == 0 || !matches!(errno(), libc::EAGAIN | libc::EINTR) {
            return PMIX_ERR_IN_ERRNO;
        }
    }
    PMIX_SUCCESS
}

/// Adds `FD_CLOEXEC` to the descriptor's flags. `PMIX_ERR_IN_ERRNO` if `fcntl` fails.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_fd_set_cloexec(fd: c_int) -> c_int {
    // SAFETY: fcntl on a descriptor number; a bad one only fails.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFD);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) == -1 {
            return PMIX_ERR_IN_ERRNO;
        }
    }
    PMIX_SUCCESS
}

/// The file type bits of `fd`, if `fstat` succeeds.
fn file_type(fd: c_int) -> Option<libc::mode_t> {
    // SAFETY: fstat into our zeroed struct.
    unsafe {
        let mut st: libc::stat = core::mem::zeroed();
        (libc::fstat(fd, &mut st) == 0).then_some(st.st_mode & libc::S_IFMT)
    }
}

/// True if `fd` is a regular file.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_fd_is_regular(fd: c_int) -> bool {
    file_type(fd) == Some(libc::S_IFREG)
}

/// True if `fd` is a character device.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_fd_is_chardev(fd: c_int) -> bool {
    file_type(fd) == Some(libc::S_IFCHR)
}

/// True if `fd` is a block device.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_fd_is_blkdev(fd: c_int) -> bool {
    file_type(fd) == Some(libc::S_IFBLK)
}

unsafe extern "C" {
    /// POSIX `inet_ntop` (not in the `libc` crate).
    pub(crate) fn inet_ntop(
        af: c_int,
        src: *const c_void,
        dst: *mut c_char,
        size: libc::socklen_t,
    ) -> *const c_char;
}

/// `INET6_ADDRSTRLEN`: the size of the static buffer `pmix_fd_get_peer_name` answers in.
const ADDR_LEN: usize = 46;

/// The one buffer `pmix_fd_get_peer_name` returns (shared by all callers, as OpenPMIx's).
static mut PEER_NAME: [c_char; ADDR_LEN] = [0; ADDR_LEN];

/// The numeric address of the socket peer of `fd`, or `"Unknown"` (no peer, not IPv4/IPv6),
/// in a static buffer that the next call overwrites. Not thread-safe, as OpenPMIx's.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_fd_get_peer_name(fd: c_int) -> *const c_char {
    let buf = &raw mut PEER_NAME;
    // SAFETY: the static buffer is only written here (callers share it as documented);
    // getpeername fills our sockaddr_storage, inet_ntop writes at most ADDR_LEN bytes.
    unsafe {
        (*buf).fill(0);
        let out = buf.cast::<c_char>();
        let mut sa: libc::sockaddr_storage = core::mem::zeroed();
        let mut len = size_of::<libc::sockaddr_storage>() as libc::socklen_t;
        if libc::getpeername(fd, (&raw mut sa).cast(), &mut len) == 0 {
            let addr: *const c_void = match c_int::from(sa.ss_family) {
                libc::AF_INET => {
                    (&raw const (*(&raw const sa).cast::<libc::sockaddr_in>()).sin_addr).cast()
                }
                libc::AF_INET6 => {
                    (&raw const (*(&raw const sa).cast::<libc::sockaddr_in6>()).sin6_addr).cast()
                }
                _ => core::ptr::null(),
            };
            if !addr.is_null() {
                return inet_ntop(c_int::from(sa.ss_family), addr, out, ADDR_LEN as _);
            }
        }
        copy_bytes(out, b"Unknown", ADDR_LEN - 1);
        out
    }
}

/// The highest descriptor (exclusive) the fallback closes: OpenPMIx's `pmix_maxfd` default.
const MAXFD: c_int = 1024;

/// Closes every descriptor from 3 up except `protected_fd` (-1 protects none): those listed
/// in `/proc/self/fd`, or, if that cannot be read, every number below `min(OPEN_MAX, 1024)`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_close_open_file_descriptors(protected_fd: c_int) {
    // SAFETY: the directory stream is ours; the descriptor it reads through is skipped, and
    // entry names are NUL-terminated.
    unsafe {
        let dir = libc::opendir(c"/proc/self/fd".as_ptr());
        if !dir.is_null() {
            let own = libc::dirfd(dir);
            if own >= 0 {
                loop {
                    let ent = libc::readdir(dir);
                    if ent.is_null() {
                        break;
                    }
                    let name = super::cstr((*ent).d_name.as_ptr()).unwrap_or_default();
                    let Some(fd) = core::str::from_utf8(name)
                        .ok()
                        .and_then(|s| s.parse::<c_int>().ok())
                    else {
                        continue;
                    };
                    if fd >= 3 && fd != protected_fd && fd != own {
                        libc::close(fd);
                    }
                }
                libc::closedir(dir);
                return;
            }
            libc::closedir(dir);
        }
        let open_max = libc::sysconf(libc::_SC_OPEN_MAX);
        let limit = if open_max < 0 {
            MAXFD
        } else {
            (open_max as c_int).min(MAXFD)
        };
        for fd in 3..limit {
            if fd != protected_fd {
                libc::close(fd);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipe_read_write() {
        let mut fds = [0; 2];
        // SAFETY: our pipe and buffers.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let data = b"0123456789";
            assert_eq!(pmix_fd_write(fds[1], 10, data.as_ptr().cast()), 0);
            let mut got = [0u8; 10];
            assert_eq!(pmix_fd_read(fds[0], 4, got.as_mut_ptr().cast()), 0);
            assert_eq!(pmix_fd_read(fds[0], 6, got[4..].as_mut_ptr().cast()), 0);
            assert_eq!(&got, data);
            assert_eq!(
                pmix_fd_read(fds[0], -1, got.as_mut_ptr().cast()),
                PMIX_ERR_BAD_PARAM
            );
            assert_eq!(pmix_fd_read(fds[0], 0, got.as_mut_ptr().cast()), 0);
            libc::close(fds[1]);
            assert_eq!(
                pmix_fd_read(fds[0], 1, got.as_mut_ptr().cast()),
                PMIX_ERR_TIMEOUT
            );
            libc::close(fds[0]);
            assert_eq!(
                pmix_fd_write(-1, 1, data.as_ptr().cast()),
                PMIX_ERR_IN_ERRNO
            );
        }
    }

    #[test]
    fn kinds_and_cloexec() {
        // SAFETY: opening, inspecting and closing our own descriptors.
        unsafe {
            let f = libc::open(c"/proc/self/status".as_ptr(), libc::O_RDONLY);
            assert!(pmix_fd_is_regular(f));
            assert!(!pmix_fd_is_chardev(f));
            assert_eq!(pmix_fd_set_cloexec(f), 0);
            assert_ne!(libc::fcntl(f, libc::F_GETFD) & libc::FD_CLOEXEC, 0);
            libc::close(f);
            let n = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
            assert!(pmix_fd_is_chardev(n));
            assert!(!pmix_fd_is_blkdev(n));
            libc::close(n);
            assert!(!pmix_fd_is_regular(-1));
            assert_eq!(pmix_fd_set_cloexec(-1), PMIX_ERR_IN_ERRNO);
        }
    }

    #[test]
    fn peer_names() {
        // SAFETY: our sockets; the answer is a C string.
        unsafe {
            assert_eq!(
                super::super::cstr(pmix_fd_get_peer_name(-1)).unwrap(),
                b"Unknown"
            );
            let l = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            let mut a: libc::sockaddr_in = core::mem::zeroed();
            a.sin_family = libc::AF_INET as _;
            a.sin_addr.s_addr = u32::from_be_bytes([127, 0, 0, 1]).to_be();
            let sl = size_of::<libc::sockaddr_in>() as libc::socklen_t;
            assert_eq!(libc::bind(l, (&raw const a).cast(), sl), 0);
            assert_eq!(libc::listen(l, 1), 0);
            let mut got = a;
            let mut gl = sl;
            libc::getsockname(l, (&raw mut got).cast(), &mut gl);
            let c = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            assert_eq!(libc::connect(c, (&raw const got).cast(), sl), 0);
            assert_eq!(
                super::super::cstr(pmix_fd_get_peer_name(c)).unwrap(),
                b"127.0.0.1"
            );
            libc::close(c);
            libc::close(l);
        }
    }
}
