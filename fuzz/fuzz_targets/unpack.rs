//! Arbitrary bytes fed to the v41 decoder for every data type, in both buffer modes, and to
//! `PMIx_Data_unpack`. The first input byte picks the type, the second the capacity and the
//! buffer mode; the rest is the buffer. Nothing may panic, abort or read out of bounds.
//!
//! Run with `cargo +nightly fuzz run unpack` from this directory. The same body runs as a
//! bounded proptest in `pmix-core` (`decoder_total`) and in `tests/tests/codec.rs`
//! (`unpack_arbitrary_bytes`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pmix_core::codec::{BufferType, Decoder};

fuzz_target!(|data: &[u8]| {
    let [ty, ctl, rest @ ..] = data else {
        return;
    };
    let ty = u16::from(*ty % 72);
    let max = usize::from(ctl & 0x0f);
    let mode = if ctl & 0x10 != 0 {
        BufferType::FullyDesc
    } else {
        BufferType::NonDesc
    };
    let mut d = Decoder::new(mode, rest);
    // Unpack until the data is exhausted or refused, as a message reader would.
    while let Ok(u) = d.unpack(ty, max.max(1)) {
        assert!(u.values.len() <= max.max(1));
        if d.remaining().is_empty() {
            break;
        }
    }
    let _ = pmix::api::data::fuzz_unpack(rest, ty, i32::from(ctl & 0x0f) - 1);
});
