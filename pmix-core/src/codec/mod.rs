//! The "v41" buffer format that OpenPMIx 4.1, 4.2 and 5.0 peers speak (bfrops v41 with the
//! flex128 integer encoding), for every PMIx data type, in both buffer modes.
//!
//! Why this module exists: `PMIx_Data_pack`/`PMIx_Data_unpack` must produce and accept the
//! reference library's bytes exactly, and the same codec will parse messages from peers, so
//! the decoder treats its input as hostile: it never panics, caps every count by the bytes that
//! remain, limits nesting depth, and reports the reference's status codes.
//!
//! * [`Encoder`] appends one top-level pack (a count, plus type tags in
//!   [`BufferType::FullyDesc`] mode, then the values) to a byte vector.
//! * [`Decoder`] reads top-level packs back from a byte slice. A failed call consumes
//!   nothing; a call whose capacity is smaller than the packed count returns what fits and
//!   says so ([`Unpacked::more`], `PMIX_ERR_UNPACK_INADEQUATE_SPACE` at the C boundary).
//! * [`compress`] is the zlib block format of `PMIx_Data_compress`.
//!
//! The byte layout of each type is described in `openpmix-wire-protocol.md`, section 3; the
//! places where we deliberately differ from the reference are in `docs/notes/codec.md`.

pub mod compress;
pub mod flex;
mod pack;
pub mod text;
mod unpack;

#[cfg(test)]
mod tests;

use pmix_sys::*;

pub use pack::Encoder;
pub use unpack::{Decoder, Unpacked};

/// How a buffer describes its contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BufferType {
    /// Top-level packs carry only a count (`PMIX_BFROP_BUFFER_NON_DESC`, the release default).
    #[default]
    NonDesc,
    /// Top-level packs carry the count's type, the count and the values' type
    /// (`PMIX_BFROP_BUFFER_FULLY_DESC`).
    FullyDesc,
}

/// The environment variable through which the reference selects its default buffer type.
pub const BUFFER_TYPE_ENV: &str = "PMIX_BFROP_BUFFER_TYPE";

impl BufferType {
    /// The wire value of the buffer type (as sent in a handshake).
    pub fn wire_value(self) -> u8 {
        match self {
            BufferType::NonDesc => 1,
            BufferType::FullyDesc => 2,
        }
    }

    /// The buffer type selected by the value of `PMIX_BFROP_BUFFER_TYPE`: only the exact
    /// text `PMIX_BFROP_BUFFER_FULLY_DESC` selects fully described buffers; anything else,
    /// or no value, leaves the default (measured on the reference: no case folding, no
    /// trimming, no numeric form).
    pub fn from_env_value(v: Option<&[u8]>) -> BufferType {
        match v {
            Some(b"PMIX_BFROP_BUFFER_FULLY_DESC") => BufferType::FullyDesc,
            _ => BufferType::NonDesc,
        }
    }

    /// The buffer type the process environment selects now.
    pub fn from_env() -> BufferType {
        let v = std::env::var_os(BUFFER_TYPE_ENV);
        BufferType::from_env_value(v.as_ref().map(|s| s.as_encoded_bytes()))
    }
}

/// Longest key a receiver keeps (`PMIX_MAX_KEYLEN`); longer keys are truncated.
pub const MAX_KEY_LEN: usize = PMIX_MAX_KEYLEN;
/// Longest namespace a receiver keeps (`PMIX_MAX_NSLEN`); longer ones are truncated.
pub const MAX_NSPACE_LEN: usize = PMIX_MAX_NSLEN;
/// Deepest nesting of compound values (values in data arrays in infos ...) the decoder
/// accepts. Real PMIx data nests a handful of levels; the limit protects the stack.
pub const MAX_DEPTH: usize = 64;

/// The data type of the module exchange blobs of old versions; not registered in v41.
pub const PMIX_MODEX: pmix_data_type_t = 29;
/// The info-array type of old versions; not registered in v41.
pub const PMIX_INFO_ARRAY: pmix_data_type_t = 44;

/// Whether the v41 codec handles values of type `ty` (every type with a `Value` variant;
/// not `PMIX_BUFFER`, `PMIX_MODEX`, `PMIX_INFO_ARRAY` or unassigned numbers).
pub fn is_codec_type(ty: pmix_data_type_t) -> bool {
    crate::Value::is_known_type(ty) && ty != PMIX_UNDEF
}

/// The size the reference gives a buffer's storage when `needed` bytes must fit: 128 bytes,
/// doubled until `needed` fits while that stays within 1 KiB, beyond that the next multiple
/// of 1 KiB (measured with `PMIx_Data_pack` on growing buffers).
pub fn buffer_alloc_size(needed: usize) -> usize {
    const INITIAL: usize = 128;
    const THRESHOLD: usize = 1024;
    if needed <= THRESHOLD {
        let mut s = INITIAL;
        while s < needed {
            s *= 2;
        }
        s
    } else {
        needed.div_ceil(THRESHOLD).saturating_mul(THRESHOLD)
    }
}
