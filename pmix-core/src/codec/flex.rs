//! flex128: the variable-length integers of the v41 format.
//!
//! Unsigned values are written little-endian in groups of 7 bits, 0x80 marking "more follows";
//! after 8 such bytes (56 bits) a 9th byte carries the last 8 bits whole, so no value takes
//! more than 9 bytes. Signed values are sign-extended to 64 bits and zigzag-mapped
//! (0, -1, 1, -2 ... to 0, 1, 2, 3 ...) first.

/// Longest encoding of one integer.
pub const MAX_LEN: usize = 9;

/// Appends the encoding of `v`.
pub fn put_u64(out: &mut Vec<u8>, mut v: u64) {
    for _ in 0..8 {
        let low = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
    out.push(v as u8);
}

/// Appends the zigzag encoding of `v`.
pub fn put_i64(out: &mut Vec<u8>, v: i64) {
    put_u64(out, zigzag(v));
}

/// Maps a signed value onto the unsigned ones, small magnitudes first.
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Inverse of [`zigzag`].
pub fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Decodes one unsigned integer from the start of `data`: the value and the bytes used, or
/// `None` when `data` ends inside the encoding.
pub fn get_u64(data: &[u8]) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    for i in 0..MAX_LEN {
        let b = *data.get(i)?;
        if i == MAX_LEN - 1 {
            v |= u64::from(b) << 56;
            return Some((v, MAX_LEN));
        }
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Decodes one zigzag-encoded signed integer from the start of `data`.
pub fn get_i64(data: &[u8]) -> Option<(i64, usize)> {
    get_u64(data).map(|(u, n)| (unzigzag(u), n))
}
