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

use crate::progress::{Framing, Message};
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

/// The ABI versions this library provides (`PMIX_QUERY_STABLE_ABI_VERSION`,
/// `PMIX_QUERY_PROVISIONAL_ABI_VERSION`): those of OpenPMIx 4.2, whose ABI it reproduces.
pub const STABLE_ABI_VERSION: &str = "0.0";
pub const PROVISIONAL_ABI_VERSION: &str = "0.0";

/// The bytes of one frame: header (big-endian pindex, tag, length; 4 bytes of padding)
/// followed by the payload.
pub fn frame(pindex: i32, tag: u32, payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(HEADER_LEN + payload.len());
    v.extend_from_slice(&pindex.to_be_bytes());
    v.extend_from_slice(&tag.to_be_bytes());
    let n = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    v.extend_from_slice(&n.to_be_bytes());
    v.extend_from_slice(&[0; 4]);
    v.extend_from_slice(payload);
    v
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
    fn split(&mut self, buf: &[u8]) -> Result<Option<(usize, Message)>> {
        let Some(h) = buf.get(..HEADER_LEN) else {
            return Ok(None);
        };
        let tag = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
        let n = u32::from_be_bytes([h[8], h[9], h[10], h[11]]) as usize;
        if self.max_payload != 0 && n > self.max_payload {
            return Err(Error::UnpackFailure);
        }
        let total = HEADER_LEN + n;
        match buf.get(HEADER_LEN..total) {
            Some(p) => Ok(Some((
                total,
                Message {
                    tag,
                    payload: p.to_vec(),
                },
            ))),
            None => Ok(None),
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

/// The uid that owns a TCP connection on this machine, as the kernel records it: the entry
/// of `/proc/net/tcp` (or `tcp6`) whose local address is `peer` and remote address is
/// `local`. `None` when the peer is not on this machine or the table cannot be read.
pub fn tcp_peer_uid(local: std::net::SocketAddr, peer: std::net::SocketAddr) -> Option<u32> {
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
