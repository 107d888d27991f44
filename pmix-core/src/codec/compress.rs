//! The block format of `PMIx_Data_compress`/`PMIx_Data_decompress`: the uncompressed length as
//! a 4-byte unsigned integer in host byte order, then a zlib stream (RFC 1950) made at level 9
//! with the default window and memory settings.
//!
//! The reference reads this format back (checked with streams made at levels 1, 6 and 9), and
//! its own compressor refuses inputs under [`COMPRESS_LIMIT`] bytes. (The 4.2.2 compressor
//! refuses every input, see `docs/notes/codec.md`; ours compresses whenever the result is
//! smaller than the input.)

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

/// Inputs shorter than this are not compressed (the reference's `pcompress_base_limit`).
pub const COMPRESS_LIMIT: usize = 4096;
/// zlib level used by the reference.
pub const LEVEL: u32 = 9;
/// Length of the uncompressed-size prefix.
pub const PREFIX_LEN: usize = 4;

/// Compresses `input`, or `None` when it is shorter than [`COMPRESS_LIMIT`], longer than the
/// prefix can describe, or would not get smaller.
pub fn compress_block(input: &[u8]) -> Option<Vec<u8>> {
    if input.len() < COMPRESS_LIMIT {
        return None;
    }
    let len = u32::try_from(input.len()).ok().filter(|&n| n != u32::MAX)?;
    // Room for exactly what is worth sending: a stream that does not end within it is not
    // smaller than the input.
    let room = input.len() - PREFIX_LEN - 1;
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(&len.to_ne_bytes());
    let mut z = Compress::new(Compression::new(LEVEL), true);
    let mut stream = Vec::with_capacity(room);
    match z.compress_vec(input, &mut stream, FlushCompress::Finish) {
        Ok(Status::StreamEnd) => {}
        _ => return None,
    }
    out.extend_from_slice(&stream);
    Some(out)
}

/// Decompresses a block: `None` when the prefix is missing, the stream is damaged, or it
/// does not produce exactly the announced number of bytes. Bytes after the end of the zlib
/// stream are ignored, as the reference does.
pub fn decompress_block(input: &[u8]) -> Option<Vec<u8>> {
    let prefix: [u8; PREFIX_LEN] = input.get(..PREFIX_LEN)?.try_into().ok()?;
    let len = u32::from_ne_bytes(prefix);
    if len == u32::MAX {
        return None;
    }
    let len = usize::try_from(len).ok()?;
    let data = &input[PREFIX_LEN..];
    let mut z = Decompress::new(true);
    // Grow the output as it is produced, so a false length costs nothing up front.
    const CHUNK: usize = 64 * 1024;
    let mut out: Vec<u8> = Vec::new();
    loop {
        // One byte more than announced, to notice a stream that is longer.
        let want = (len + 1).saturating_sub(out.len());
        if want == 0 {
            return None;
        }
        out.reserve_exact(want.min(CHUNK));
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let consumed = usize::try_from(z.total_in()).ok()?;
        let status = z
            .decompress_vec(data.get(consumed..)?, &mut out, FlushDecompress::None)
            .ok()?;
        if status == Status::StreamEnd {
            break;
        }
        if z.total_in() == in_before && z.total_out() == out_before {
            // No progress: the stream is truncated.
            return None;
        }
    }
    (out.len() == len).then_some(out)
}
