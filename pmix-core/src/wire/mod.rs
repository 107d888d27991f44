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

/// Splits a byte stream into messages.
pub trait Framing: Send {
    /// If `buf` starts with a complete message, where it is (`Frame`).
    /// `Err` means the stream is corrupt (the connection is then closed).
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>>;

    /// The length of the incomplete message at the start of `buf` when its header tells
    /// (0: unknown), so that the reader makes room for all of it at once.
    fn needed(&self, buf: &[u8]) -> usize {
        let _ = buf;
        0
    }
}

/// Where a complete message lies at the start of a buffer: the handler receives
/// `buf[payload]` in place, without a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Bytes the message takes (header included).
    pub len: usize,
    /// The tag of the header.
    pub tag: u32,
    /// The payload's position in the buffer.
    pub payload: std::ops::Range<usize>,
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
