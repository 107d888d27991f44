//! `PMIX_KEEPALIVE_PIPE` in a tool's environment: a descriptor (the read end of a pipe
//! whose write end the tool's initiator keeps). As the reference's `PMIx_tool_init` does,
//! the library watches it, keeps it from the tool's children (close-on-exec), and when
//! the initiator is gone (end of file) tells the tool's own handlers with a local
//! `PMIX_ERR_JOB_TERMINATED` event: not for default handlers (`PMIX_EVENT_NON_DEFAULT`),
//! its affected proc named "PMIX_KEEPALIVE_PIPE" (rank `PMIX_RANK_UNDEF`), the tool as
//! source. The reference raises it on the first readable event; ours on end of file or an
//! error only (bytes the initiator writes are read and ignored). The variable stays set:
//! changing the environment of a running multithreaded process is not safe.

use std::sync::{Arc, Weak};

use pmix_core::client::Client;
use pmix_core::{Info, Proc, Value};
use pmix_sys::*;

/// How long one wait lasts before the watcher checks that the tool still exists.
const TICK_MS: i32 = 500;

/// Starts watching the keepalive pipe named by the environment, if any, for `client`.
pub(crate) fn watch(client: &Arc<Client>) {
    let Some(fd) = std::env::var("PMIX_KEEPALIVE_PIPE")
        .ok()
        .and_then(|v| v.trim().parse::<i32>().ok())
        .filter(|fd| *fd >= 0)
    else {
        return;
    };
    // SAFETY: fcntl on a descriptor number only reads or sets its flags; a number that is
    // not an open descriptor gives EBADF.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if flags < 0 {
        return;
    }
    // SAFETY: as above, on a descriptor just found open.
    unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) };
    let weak = Arc::downgrade(client);
    let _ = std::thread::Builder::new()
        .name("pmix-keepalive".into())
        .spawn(move || {
            if wait_for_end(fd, &weak)
                && let Some(c) = weak.upgrade()
            {
                let info = [
                    Info::new(PMIX_EVENT_NON_DEFAULT.to_bytes(), Value::Bool(true)),
                    Info::new(
                        PMIX_EVENT_AFFECTED_PROC.to_bytes(),
                        Value::Proc(Proc::new("PMIX_KEEPALIVE_PIPE", PMIX_RANK_UNDEF)),
                    ),
                ];
                let _ = c.notify_nb(
                    PMIX_ERR_JOB_TERMINATED,
                    Some(c.me.clone()),
                    PMIX_RANGE_PROC_LOCAL,
                    &info,
                    Box::new(|_| {}),
                );
            }
        });
}

/// Waits until `fd` reaches end of file (or fails): true. False when the tool is gone
/// first.
fn wait_for_end(fd: i32, tool: &Weak<Client>) -> bool {
    let mut buf = [0u8; 256];
    loop {
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut p, 1, TICK_MS) };
        if tool.strong_count() == 0 {
            return false;
        }
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return true;
        }
        if n == 0 {
            continue;
        }
        if p.revents & libc::POLLNVAL != 0 {
            // Closed by the tool itself: nothing to watch.
            return false;
        }
        // SAFETY: `buf` is writable for its length.
        let r = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if r > 0 {
            continue;
        }
        if r < 0 {
            let k = std::io::Error::last_os_error().kind();
            if matches!(
                k,
                std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
            ) {
                continue;
            }
        }
        return true;
    }
}
