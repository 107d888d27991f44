//! Who is at the other end of a connection: the uid and gid the server acts on, taken from
//! the kernel, never from what the peer claims (`docs/security.md`).
//!
//! - Unix socket: `SO_PEERCRED` gives both ids, as they were when the peer connected.
//! - Loopback TCP: the kernel's socket diagnostics give the uid owning the peer's socket
//!   (`crate::net::tcp_peer_uid`), but no gid. The gid the peer claims (its native
//!   credential, or a tool's stated gid) stands only if the verified user belongs to that
//!   group (its primary group, or a supplementary one in the system's group database);
//!   a peer that claims none gets its user's primary group.
//!
//! A peer whose uid the kernel cannot tell (a TCP peer on no socket of this machine's, or
//! one that closed before it was looked up) is refused: there is no identity to trust.
//!
//! This module is the one place, beside the segment mapping, allowed `unsafe`: it asks the
//! C library for a user's groups (`getpwuid_r`, `getgrouplist`), which go through NSS.

#![allow(unsafe_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

use parking_lot::Mutex;

use crate::net::Peer;
use crate::{Error, Result};

/// The ids a server acts on for one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerIds {
    pub uid: u32,
    pub gid: u32,
}

/// The verified ids of `peer`. `claimed` is what the peer's handshake says (its native
/// credential, or a tool's stated ids), `None` when it claims nothing (`psec` "none").
///
/// # Errors
/// `Error::Status(PMIX_ERR_INVALID_CRED)` when the kernel cannot name the peer's user, or
/// the claim contradicts what the kernel says (another uid, or a group its user is not in).
pub fn verify(peer: &Peer, claimed: Option<(u32, u32)>) -> Result<PeerIds> {
    let refused = || Error::Status(pmix_sys::PMIX_ERR_INVALID_CRED);
    let ids = match *peer {
        Peer::Unix { uid, gid } => PeerIds { uid, gid },
        Peer::Tcp(..) => {
            let uid = peer.uid().ok_or_else(refused)?;
            let gid = match claimed {
                Some((_, g)) if in_group(uid, g) => g,
                Some(_) => return Err(refused()),
                None => primary_gid(uid).ok_or_else(refused)?,
            };
            PeerIds { uid, gid }
        }
        Peer::Unknown => return Err(refused()),
    };
    match claimed {
        Some((u, _)) if u != ids.uid => Err(refused()),
        _ => Ok(ids),
    }
}

/// One entry of the user or group database (`E` is `passwd` or `group`), through a
/// reentrant lookup (`getpwuid_r`, `getpwnam_r`, `getgrnam_r`) given the entry, a buffer for
/// its strings, the buffer's length and the result pointer; `read` takes what is wanted
/// while the buffer lives. `None`: no such entry, or the lookup failed.
fn nss_entry<E, T>(
    lookup: impl Fn(*mut E, *mut libc::c_char, usize, *mut *mut E) -> libc::c_int,
    read: impl FnOnce(&E) -> T,
) -> Option<T> {
    let mut buf = vec![0 as libc::c_char; 4096];
    loop {
        // SAFETY: `E` is `passwd` or `group`, C structs of integers and pointers, for which
        // all-zero is a valid value.
        let mut entry: E = unsafe { std::mem::zeroed() };
        let mut out: *mut E = std::ptr::null_mut();
        let rc = lookup(&mut entry, buf.as_mut_ptr(), buf.len(), &mut out);
        if rc == libc::ERANGE && buf.len() < 1 << 20 {
            buf.resize(buf.len() * 4, 0);
            continue;
        }
        return (rc == 0 && !out.is_null()).then(|| read(&entry));
    }
}

/// The `passwd` entry of `uid`, read by `read`.
fn by_uid<T>(uid: u32, read: impl FnOnce(&libc::passwd) -> T) -> Option<T> {
    nss_entry(
        // SAFETY: the entry, the buffer (with its true length) and the result pointer are
        // valid for writes during the call (`nss_entry`).
        |e, b, n, o| unsafe { libc::getpwuid_r(uid, e, b, n, o) },
        read,
    )
}

/// The home directory of user `uid` in the system's user database.
pub fn home_dir(uid: u32) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    by_uid(uid, |pw| {
        (!pw.pw_dir.is_null()).then(|| {
            // SAFETY: on success `pw_dir` is null (not here) or points to a NUL-terminated
            // string in the lookup's buffer, which lives while `read` runs.
            let d = unsafe { std::ffi::CStr::from_ptr(pw.pw_dir) };
            std::path::PathBuf::from(std::ffi::OsStr::from_bytes(d.to_bytes()))
        })
    })
    .flatten()
}

/// The primary gid of user `uid` in the system's user database.
pub fn primary_gid(uid: u32) -> Option<u32> {
    by_uid(uid, |pw| pw.pw_gid)
}

/// The groups of user `uid`: its primary group and its supplementary ones. Empty when the
/// user is unknown to the user database.
pub fn groups_of(uid: u32) -> Vec<u32> {
    let found = by_uid(uid, |pw| {
        // SAFETY: on success `pw_name` is null or points to a NUL-terminated string in the
        // lookup's buffer, which lives while `read` runs.
        let name = (!pw.pw_name.is_null())
            .then(|| unsafe { std::ffi::CStr::from_ptr(pw.pw_name) }.to_owned());
        name.map(|n| (n, pw.pw_gid))
    });
    let Some((name, primary)) = found.flatten() else {
        return Vec::new();
    };
    let mut n: libc::c_int = 64;
    loop {
        let mut groups = vec![0 as libc::gid_t; n as usize];
        let asked = n;
        // SAFETY: `name` is NUL-terminated; `groups` holds `n` elements and `n` says so;
        // on return `n` is the number written, or needed when it returns -1.
        let rc = unsafe { libc::getgrouplist(name.as_ptr(), primary, groups.as_mut_ptr(), &mut n) };
        if rc >= 0 {
            groups.truncate(n.max(0) as usize);
            return groups;
        }
        if n <= asked {
            n = asked * 2;
        }
        if n > 65536 {
            return vec![primary];
        }
    }
}

/// The uid of the user called `name` in the system's user database.
pub fn uid_by_name(name: &str) -> Option<u32> {
    let name = std::ffi::CString::new(name).ok()?;
    nss_entry(
        // SAFETY: `name` is NUL-terminated; the rest as in `by_uid`.
        |e, b, n, o| unsafe { libc::getpwnam_r(name.as_ptr(), e, b, n, o) },
        |pw: &libc::passwd| pw.pw_uid,
    )
}

/// The gid of the group called `name` in the system's group database.
pub fn gid_by_name(name: &str) -> Option<u32> {
    let name = std::ffi::CString::new(name).ok()?;
    nss_entry(
        // SAFETY: `name` is NUL-terminated; the rest as in `by_uid`.
        |e, b, n, o| unsafe { libc::getgrnam_r(name.as_ptr(), e, b, n, o) },
        |gr: &libc::group| gr.gr_gid,
    )
}

/// Whether user `uid` belongs to group `gid`. Remembered per pair (a job's thousand
/// reference clients connect over TCP with the same ids); the memory is bounded and
/// forgotten when full, so a change of the group database is seen again soon.
pub fn in_group(uid: u32, gid: u32) -> bool {
    const REMEMBERED: usize = 256;
    static SEEN: OnceLock<Mutex<HashMap<(u32, u32), bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(&known) = seen.lock().get(&(uid, gid)) {
        return known;
    }
    let yes = primary_gid(uid) == Some(gid) || groups_of(uid).contains(&gid);
    let mut m = seen.lock();
    if m.len() >= REMEMBERED {
        m.clear();
    }
    m.insert((uid, gid), yes);
    yes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_peers_are_what_the_kernel_says() {
        let p = Peer::Unix {
            uid: 1000,
            gid: 100,
        };
        assert_eq!(
            verify(&p, None).unwrap(),
            PeerIds {
                uid: 1000,
                gid: 100
            }
        );
        // The claimed gid is not used: the kernel's stands.
        assert_eq!(
            verify(&p, Some((1000, 0))).unwrap(),
            PeerIds {
                uid: 1000,
                gid: 100
            }
        );
        // A claimed uid that is not the kernel's is refused.
        assert!(verify(&p, Some((0, 0))).is_err());
    }

    #[test]
    fn unknown_peers_are_refused() {
        assert!(verify(&Peer::Unknown, None).is_err());
        assert!(verify(&Peer::Unknown, Some((0, 0))).is_err());
    }

    #[test]
    fn tcp_peers_are_looked_up_and_their_group_checked() {
        let (me, _) = crate::wire::own_ids();
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let peer = Peer::Tcp(s.local_addr().unwrap(), s.peer_addr().unwrap());
        let primary = primary_gid(me).expect("this process's user is in the user database");
        assert_eq!(
            verify(&peer, Some((me, primary))).unwrap(),
            PeerIds {
                uid: me,
                gid: primary
            }
        );
        assert_eq!(verify(&peer, None).unwrap().uid, me);
        // Another uid than the socket's owner, or a group the user is not in: refused.
        assert!(verify(&peer, Some((me.wrapping_add(1), primary))).is_err());
        let foreign = (1..u32::MAX - 1)
            .map(|g| 54_321u32.wrapping_add(g))
            .find(|&g| !groups_of(me).contains(&g))
            .unwrap();
        assert!(verify(&peer, Some((me, foreign))).is_err());
        // A socket that is not there (the peer's address with another port) has no owner.
        let mut gone = s.peer_addr().unwrap();
        gone.set_port(gone.port().wrapping_add(1).max(1));
        assert!(verify(&Peer::Tcp(s.local_addr().unwrap(), gone), None).is_err());
        drop(c);
    }

    #[test]
    fn group_database() {
        // root (uid 0) is in the root group (gid 0) on every Linux system.
        assert_eq!(primary_gid(0), Some(0));
        assert!(groups_of(0).contains(&0));
        assert!(in_group(0, 0));
        assert!(in_group(0, 0)); // remembered
        assert_eq!(uid_by_name("root"), Some(0));
        assert_eq!(gid_by_name("root"), Some(0));
        assert_eq!(uid_by_name("no such user, surely"), None);
        assert_eq!(gid_by_name("no such group, surely"), None);
        // An unknown user is in no group.
        assert!(groups_of(u32::MAX - 7).is_empty());
        assert!(!in_group(u32::MAX - 7, 0));
    }
}
