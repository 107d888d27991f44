//! The input format of the `server` fuzz target, shared with the seed generator
//! (`examples/server_seeds.rs`).
//!
//! ```text
//! byte 0: mode
//!   bits 0-1  how the connection starts:
//!             0 = the rest of the input is the whole byte stream (handshake parser),
//!             1 = a valid client handshake for fz:0, then frames,
//!             2 = a valid tool handshake with an id (flag 4), then frames,
//!             3 = a valid tool handshake asking for an id (flag 3), then frames
//!   bit 2     which server: 0 = no host upcalls (NoHost), 1 = the test host
//!   bit 3     the handshake declares FULLY_DESC buffers (NON_DESC otherwise)
//!   bit 4     the tool of mode 2 claims fz:0 (otherwise fztool:0)
//! then, for modes 1-3, frames until the input ends:
//!   ctl, cmd, len_lo, len_hi, body[len % (remaining + 1)]
//!   ctl bits 0-1  tag: 0, 1 = 101 + frame index; 2 = u32::MAX; 3 = ctl >> 4
//!   ctl bit 2     the payload is the body alone (no packed command in front)
//!   ctl bit 3     the header announces 1 + (ctl >> 4) bytes more than the payload
//!   otherwise the payload is `Pack::cmd(mode, cmd)` followed by the body, as a client
//!   packs a request.
//! ```
#![allow(dead_code)]

use pmix_core::codec::BufferType;
use pmix_core::wire::msg::Pack;

pub const TAG_FIRST: u32 = 101;

/// How the connection starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    Raw,
    Client,
    ToolGivenId,
    ToolNeedsId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    pub start: Start,
    pub test_host: bool,
    pub buffer: BufferType,
    pub tool_claims_client_id: bool,
}

impl Mode {
    pub fn from_byte(b: u8) -> Mode {
        Mode {
            start: match b & 3 {
                0 => Start::Raw,
                1 => Start::Client,
                2 => Start::ToolGivenId,
                _ => Start::ToolNeedsId,
            },
            test_host: b & 4 != 0,
            buffer: if b & 8 != 0 {
                BufferType::FullyDesc
            } else {
                BufferType::NonDesc
            },
            tool_claims_client_id: b & 16 != 0,
        }
    }
    pub fn to_byte(self) -> u8 {
        let s = match self.start {
            Start::Raw => 0,
            Start::Client => 1,
            Start::ToolGivenId => 2,
            Start::ToolNeedsId => 3,
        };
        s | if self.test_host { 4 } else { 0 }
            | if self.buffer == BufferType::FullyDesc {
                8
            } else {
                0
            }
            | if self.tool_claims_client_id { 16 } else { 0 }
    }
}

/// One frame of modes 1-3, as the input describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameSpec {
    pub ctl: u8,
    pub cmd: u8,
    pub body: Vec<u8>,
}

impl FrameSpec {
    /// A well-formed request: dynamic tag, packed command, no lie in the header.
    pub fn request(cmd: u8, body: Vec<u8>) -> FrameSpec {
        FrameSpec { ctl: 0, cmd, body }
    }
}

/// Splits the frame part of an input (after the mode byte).
pub fn parse_frames(mut d: &[u8]) -> Vec<FrameSpec> {
    let mut v = Vec::new();
    while let Some((&ctl, rest)) = d.split_first() {
        let (cmd, rest) = rest.split_first().map_or((0, rest), |(c, r)| (*c, r));
        let (len, rest) = match rest {
            [lo, hi, r @ ..] => (usize::from(u16::from_le_bytes([*lo, *hi])), r),
            [lo] => (usize::from(*lo), &rest[1..]),
            [] => (0, rest),
        };
        let len = len % (rest.len() + 1);
        v.push(FrameSpec {
            ctl,
            cmd,
            body: rest[..len].to_vec(),
        });
        d = &rest[len..];
    }
    v
}

/// The inverse of [`parse_frames`] (the seeds).
pub fn encode_frames(frames: &[FrameSpec]) -> Vec<u8> {
    let mut v = Vec::new();
    for f in frames {
        v.push(f.ctl);
        v.push(f.cmd);
        let n = u16::try_from(f.body.len()).expect("seed frame under 64 KiB");
        v.extend_from_slice(&n.to_le_bytes());
        v.extend_from_slice(&f.body);
    }
    v
}

/// The wire bytes of the frames (16-byte headers and payloads).
pub fn wire_frames(mode: BufferType, frames: &[FrameSpec]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        let tag = match f.ctl & 3 {
            0 | 1 => TAG_FIRST.wrapping_add(i as u32),
            2 => u32::MAX,
            _ => u32::from(f.ctl >> 4),
        };
        let payload = if f.ctl & 4 != 0 {
            f.body.clone()
        } else {
            let mut p = Pack::cmd(mode, f.cmd);
            p.raw(&f.body);
            p.into_bytes()
        };
        let mut fr = pmix_core::wire::frame(0, tag, &payload);
        if f.ctl & 8 != 0 {
            let lie = (payload.len() as u32) + 1 + u32::from(f.ctl >> 4);
            fr[8..12].copy_from_slice(&lie.to_be_bytes());
        }
        out.extend_from_slice(&fr);
    }
    out
}
