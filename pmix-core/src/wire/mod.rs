//! OpenPMIx's client/server protocol below the commands: framing, server URIs, the
//! connection handshake and native credentials (`openpmix-wire-protocol.md`, sections 1, 4
//! and 5).
//!
//! Everything here is byte-level and free of I/O except [`connect`], the blocking connector
//! a client or tool uses before handing the socket to the progress thread. Input from peers
//! is hostile: parsers check every length, never panic, and report `UnpackFailure`.

pub mod cmd;
pub mod handshake;
pub mod msg;
pub mod uri;

#[cfg(test)]
mod tests;

use crate::progress::{Frame, Framing};
use crate::{Error, Result};

pub use handshake::{Hello, PeerKind, ToolReply};
pub use uri::ServerUri;

/// Tag of event notifications (server to client).
pub const TAG_NOTIFY: u32 = 0;
/// Tag of heartbeats (client to server, no reply).
pub const TAG_HEARTBEAT: u32 = 1;
/// Tag of forwarded output (server to client or tool).
pub const TAG_IOF: u32 = 2;
/// Requests use tags above this one.
pub const TAG_DYNAMIC: u32 = 100;

/// Length of a frame header on a 64-bit build (pindex, tag, nbytes, padding).
pub const HEADER_LEN: usize = 16;

/// The version string we announce (the reference's `PMIX_VERSION` for 4.2.2).
pub const VERSION: &str = "4.2.2";

/// Whether a peer that announced `version` (its `PMIX_VERSION`: "5.0.11rc1", "4.2.2") is of
/// OpenPMIx's 5 generation or later, whose group messages carry the membership
/// (docs/notes/abi-5.0.md, "Groups on the wire"). Anything unreadable counts as 4.
pub fn is_v5(version: &[u8]) -> bool {
    let major: Vec<u8> = version
        .iter()
        .copied()
        .skip_while(|b| !b.is_ascii_digit())
        .take_while(u8::is_ascii_digit)
        .collect();
    std::str::from_utf8(&major)
        .ok()
        .and_then(|m| m.parse::<u32>().ok())
        .is_some_and(|m| m >= 5)
}

/// The ABI versions this library provides (`PMIX_QUERY_STABLE_ABI_VERSION`,
/// `PMIX_QUERY_PROVISIONAL_ABI_VERSION`): those of OpenPMIx 5.0.11, whose ABI it provides
/// (4.2.2 said "0.0" for both).
pub const STABLE_ABI_VERSION: &str = "5.0";
pub const PROVISIONAL_ABI_VERSION: &str = "5.0";

/// The bytes of one frame: header (big-endian pindex, tag, length; 4 bytes of padding)
/// followed by the payload.
pub fn frame(pindex: i32, tag: u32, payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(HEADER_LEN + payload.len());
    v.extend_from_slice(&frame_head(pindex, tag, payload.len()));
    v.extend_from_slice(payload);
    v
}

/// The header of a frame whose payload of `len` bytes the caller appends or sends after it.
pub fn frame_head(pindex: i32, tag: u32, len: usize) -> [u8; HEADER_LEN] {
    let mut h = [0; HEADER_LEN];
    h[..4].copy_from_slice(&pindex.to_be_bytes());
    h[4..8].copy_from_slice(&tag.to_be_bytes());
    let n = u32::try_from(len).unwrap_or(u32::MAX);
    h[8..12].copy_from_slice(&n.to_be_bytes());
    h
}

/// The header of a frame as the server sends it (pindex 0) for a payload of `len` bytes
/// sent separately.
pub fn server_frame_header(tag: u32, len: usize) -> Vec<u8> {
    frame_head(0, tag, len).to_vec()
}

/// A frame as the server sends it (pindex 0).
pub fn server_frame(tag: u32, payload: &[u8]) -> Vec<u8> {
    frame(0, tag, payload)
}

/// A frame as a tool sends it (pindex 0). Clients send their index, which no receiver reads;
/// 0 is as good.
pub fn peer_frame(tag: u32, payload: &[u8]) -> Vec<u8> {
    frame(0, tag, payload)
}

/// Splits the byte stream of an established connection into frames.
#[derive(Debug, Default, Clone)]
pub struct WireFraming {
    /// Largest payload accepted; 0 = no limit (the reference's default).
    pub max_payload: usize,
}

impl Framing for WireFraming {
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>> {
        let Some(h) = buf.get(..HEADER_LEN) else {
            return Ok(None);
        };
        let tag = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
        let n = u32::from_be_bytes([h[8], h[9], h[10], h[11]]) as usize;
        if self.max_payload != 0 && n > self.max_payload {
            return Err(Error::UnpackFailure);
        }
        let total = HEADER_LEN + n;
        Ok((buf.len() >= total).then_some(Frame {
            len: total,
            tag,
            payload: HEADER_LEN..total,
        }))
    }

    fn needed(&self, buf: &[u8]) -> usize {
        match buf.get(8..12) {
            Some(n) => HEADER_LEN + u32::from_be_bytes([n[0], n[1], n[2], n[3]]) as usize,
            None => 0,
        }
    }
}

/// Effective uid and gid of this process (the owner of `/proc/self`), without libc.
pub fn own_ids() -> (u32, u32) {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata("/proc/self") {
        Ok(m) => (m.uid(), m.gid()),
        Err(_) => (u32::MAX, u32::MAX),
    }
}

/// The uid that owns a TCP connection on this machine, as the kernel records it: the socket
/// whose local address is `peer` and remote address is `local`. `None` when the peer is not
/// on this machine or the kernel cannot tell.
///
/// Asked of the kernel's socket diagnostics (one netlink request naming the connection,
/// answered from the socket hash in constant time); where that interface is missing, found
/// in `/proc/net/tcp`, whose cost grows with every socket of the machine (TIME-WAIT ones
/// too): with a thousand sockets a scan took longer than the rest of a handshake.
pub fn tcp_peer_uid(local: std::net::SocketAddr, peer: std::net::SocketAddr) -> Option<u32> {
    match sock_diag_uid(local, peer) {
        Ok(uid) => uid,
        Err(_) => tcp_peer_uid_from_table(local, peer),
    }
}

/// `tcp_peer_uid` through `NETLINK_SOCK_DIAG` (`SOCK_DIAG_BY_FAMILY`, an exact
/// `inet_diag_req_v2` lookup). `Ok(None)`: the kernel knows no such socket; `Err`: the
/// interface did not answer.
fn sock_diag_uid(
    local: std::net::SocketAddr,
    peer: std::net::SocketAddr,
) -> std::io::Result<Option<u32>> {
    use rustix::net::{AddressFamily, RecvFlags, SendFlags, SocketType, netlink};
    const SOCK_DIAG_BY_FAMILY: u16 = 20;
    const NLMSG_ERROR: u16 = 2;
    const NLM_F_REQUEST: u16 = 1;
    const HDR: usize = 16;
    let unavailable = || std::io::Error::from(std::io::ErrorKind::Unsupported);
    let family: u8 = match peer {
        std::net::SocketAddr::V4(_) => 2,  // AF_INET
        std::net::SocketAddr::V6(_) => 10, // AF_INET6
    };
    let ip = |a: std::net::SocketAddr| -> [u8; 16] {
        match a.ip() {
            std::net::IpAddr::V4(v4) => {
                let mut b = [0u8; 16];
                b[..4].copy_from_slice(&v4.octets());
                b
            }
            std::net::IpAddr::V6(v6) => v6.octets(),
        }
    };
    // nlmsghdr, then inet_diag_req_v2: family, protocol, ext, pad, states, then the
    // socket id: source port and destination port (big-endian), source and destination
    // addresses (16 bytes each), interface, cookie (none).
    let mut req = Vec::with_capacity(HDR + 56);
    req.extend_from_slice(&((HDR + 56) as u32).to_ne_bytes());
    req.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    req.extend_from_slice(&NLM_F_REQUEST.to_ne_bytes());
    req.extend_from_slice(&1u32.to_ne_bytes()); // sequence
    req.extend_from_slice(&0u32.to_ne_bytes()); // port id: the kernel assigns it
    req.extend_from_slice(&[family, 6, 0, 0]); // IPPROTO_TCP
    req.extend_from_slice(&u32::MAX.to_ne_bytes()); // every state
    // The peer's socket: its local end is `peer`, its remote end is `local`.
    req.extend_from_slice(&peer.port().to_be_bytes());
    req.extend_from_slice(&local.port().to_be_bytes());
    req.extend_from_slice(&ip(peer));
    req.extend_from_slice(&ip(local));
    req.extend_from_slice(&0u32.to_ne_bytes()); // any interface
    req.extend_from_slice(&[0xff; 8]); // INET_DIAG_NOCOOKIE
    let fd = rustix::net::socket(
        AddressFamily::NETLINK,
        SocketType::DGRAM,
        Some(netlink::SOCK_DIAG),
    )?;
    rustix::net::send(&fd, &req, SendFlags::empty())?;
    // The kernel answers within the send; not waiting covers a kernel that does not.
    let mut buf = [0u8; 1024];
    let (n, _) = rustix::net::recv(&fd, &mut buf, RecvFlags::DONTWAIT)?;
    let msg = &buf[..n];
    let u16_at = |o: usize| msg.get(o..o + 2).map(|b| u16::from_ne_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        msg.get(o..o + 4)
            .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    };
    match u16_at(4) {
        // inet_diag_msg: family, state, timer, retrans, the socket id (48 bytes),
        // expires, rqueue, wqueue, then uid.
        Some(SOCK_DIAG_BY_FAMILY) => Ok(Some(u32_at(HDR + 64).ok_or_else(unavailable)?)),
        Some(NLMSG_ERROR) => match u32_at(HDR).map(|e| e as i32) {
            Some(-2) => Ok(None), // ENOENT: no such socket here
            _ => Err(unavailable()),
        },
        _ => Err(unavailable()),
    }
}

/// `tcp_peer_uid` from the `/proc/net/tcp` (or `tcp6`) entry whose local address is `peer`
/// and remote address is `local`.
fn tcp_peer_uid_from_table(local: std::net::SocketAddr, peer: std::net::SocketAddr) -> Option<u32> {
    fn hex_addr(a: std::net::SocketAddr) -> String {
        match a {
            std::net::SocketAddr::V4(v4) => {
                format!(
                    "{:08X}:{:04X}",
                    u32::from_le_bytes(v4.ip().octets()),
                    v4.port()
                )
            }
            std::net::SocketAddr::V6(v6) => {
                let o = v6.ip().octets();
                let mut s = String::new();
                for w in o.chunks(4) {
                    s.push_str(&format!(
                        "{:08X}",
                        u32::from_le_bytes([w[0], w[1], w[2], w[3]])
                    ));
                }
                format!("{s}:{:04X}", v6.port())
            }
        }
    }
    let table = if peer.is_ipv4() {
        "/proc/net/tcp"
    } else {
        "/proc/net/tcp6"
    };
    // One line per socket, its addresses at fixed columns ("%4d: %08X:%04X %08X:%04X ..."
    // for IPv4, 32 hex digits for IPv6): compare them in place, and split only the line
    // that matches. The table can hold tens of thousands of sockets.
    let text = std::fs::read(table).ok()?;
    let want_local = hex_addr(peer);
    let want_remote = hex_addr(local);
    let (l, r) = (want_local.as_bytes(), want_remote.as_bytes());
    for line in text.split(|&b| b == b'\n').skip(1) {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let rest = &line[colon + 1..];
        let rest = &rest[rest.iter().position(|&b| b != b' ').unwrap_or(0)..];
        if rest.len() > l.len() + r.len() + 1
            && &rest[..l.len()] == l
            && &rest[l.len() + 1..l.len() + 1 + r.len()] == r
        {
            let text = std::str::from_utf8(line).ok()?;
            let f: Vec<&str> = text.split_whitespace().collect();
            return f.get(7)?.parse().ok();
        }
    }
    None
}
