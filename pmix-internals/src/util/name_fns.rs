//! Process names as text (OpenPMIx's `pmix_name_fns.c`): `pmix_util_print_name_args` and
//! `pmix_util_print_rank`, answering in per-thread rotating buffers that callers never free.

use core::cell::UnsafeCell;
use core::ffi::c_char;

/// `pmix_rank_t`.
pub type Rank = u32;

/// `PMIX_MAX_NSLEN`.
pub const PMIX_MAX_NSLEN: usize = 255;

/// `pmix_proc_t`: a namespace and a rank.
#[repr(C)]
pub struct Proc {
    pub nspace: [c_char; PMIX_MAX_NSLEN + 1],
    pub rank: Rank,
}

pub const PMIX_RANK_UNDEF: Rank = u32::MAX;
pub const PMIX_RANK_WILDCARD: Rank = u32::MAX - 1;
pub const PMIX_RANK_LOCAL_NODE: Rank = u32::MAX - 2;
pub const PMIX_RANK_INVALID: Rank = u32::MAX - 3;
pub const PMIX_RANK_LOCAL_PEERS: Rank = u32::MAX - 4;

/// Buffers per thread, used in turn (`PMIX_PRINT_NAME_ARG_NUM_BUFS`).
const NUM_BUFS: usize = 16;
/// Longest answer (`PMIX_PRINT_NAME_ARGS_MAX_SIZE` minus its NUL).
const MAX_TEXT: usize = 299;

struct Buffers {
    text: [[u8; MAX_TEXT + 2]; NUM_BUFS],
    next: usize,
}

thread_local! {
    static BUFFERS: UnsafeCell<Buffers> = const {
        UnsafeCell::new(Buffers { text: [[0; MAX_TEXT + 2]; NUM_BUFS], next: 0 })
    };
}

/// Answer when the thread's buffers are gone (thread exiting).
static NULL_TEXT: &core::ffi::CStr = c"NULL";

/// Puts `text` (cut to 299 bytes) in this thread's next buffer and returns it.
fn answer(text: &[u8]) -> *mut c_char {
    BUFFERS
        .try_with(|cell| {
            // SAFETY: the buffers belong to this thread, and this function is the only one
            // that writes them; earlier answers stay valid until their turn comes again.
            unsafe {
                let b = &mut *cell.get();
                let slot = &mut b.text[b.next];
                b.next = (b.next + 1) % NUM_BUFS;
                let n = text.len().min(MAX_TEXT);
                slot[..n].copy_from_slice(&text[..n]);
                slot[n] = 0;
                slot.as_mut_ptr().cast::<c_char>()
            }
        })
        .unwrap_or(NULL_TEXT.as_ptr().cast_mut())
}

/// The text of a rank: `UNDEF`, `WILDCARD`, `LOCAL_NODE`, `LOCAL_PEERS`, `INVALID`, or its
/// decimal value.
pub fn rank_text(rank: Rank) -> String {
    match rank {
        PMIX_RANK_UNDEF => "UNDEF".into(),
        PMIX_RANK_WILDCARD => "WILDCARD".into(),
        PMIX_RANK_LOCAL_NODE => "LOCAL_NODE".into(),
        PMIX_RANK_LOCAL_PEERS => "LOCAL_PEERS".into(),
        PMIX_RANK_INVALID => "INVALID".into(),
        r => r.to_string(),
    }
}

/// The text of `vpid` (see [`rank_text`]) in a per-thread buffer (one of 16 used in turn).
#[unsafe(no_mangle)]
pub extern "C" fn pmix_util_print_rank(vpid: Rank) -> *mut c_char {
    answer(rank_text(vpid).as_bytes())
}

/// `[nspace,rank]` for `name` (`[NO-NAME]` for NULL) in a per-thread buffer; like OpenPMIx
/// it also uses up one buffer for the rank's text.
///
/// # Safety
/// `name` is NULL or a `pmix_proc_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_util_print_name_args(name: *const Proc) -> *mut c_char {
    if name.is_null() {
        return answer(b"[NO-NAME]");
    }
    // SAFETY: a valid `pmix_proc_t`; the namespace is read up to its NUL or its end.
    let (ns, rank) = unsafe {
        let p = &*name;
        let bytes = core::slice::from_raw_parts(p.nspace.as_ptr().cast::<u8>(), p.nspace.len());
        let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        (&bytes[..len], p.rank)
    };
    // OpenPMIx formats the rank through its own buffer first.
    let r = pmix_util_print_rank(rank);
    // SAFETY: our NUL-terminated buffer.
    let r = unsafe { super::cstr(r) }.unwrap_or_default();
    let mut text = Vec::with_capacity(ns.len() + r.len() + 3);
    text.push(b'[');
    text.extend_from_slice(ns);
    text.push(b',');
    text.extend_from_slice(r);
    text.push(b']');
    answer(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    const FACTS: &str = include_str!("../../facts/layouts-util.txt");

    #[test]
    fn layouts_match_openpmix() {
        crate::facts::layout(
            FACTS,
            "pmix_proc_t",
            size_of::<Proc>(),
            &[
                ("nspace", offset_of!(Proc, nspace)),
                ("rank", offset_of!(Proc, rank)),
            ],
        );
    }

    fn proc(ns: &str, rank: Rank) -> Proc {
        let mut p = Proc {
            nspace: [0; 256],
            rank,
        };
        for (d, s) in p.nspace.iter_mut().zip(ns.bytes()) {
            *d = s as c_char;
        }
        p
    }

    fn text(p: *mut c_char) -> String {
        // SAFETY: our buffer.
        String::from_utf8_lossy(unsafe { super::super::cstr(p) }.unwrap()).into_owned()
    }

    #[test]
    fn names_and_ranks() {
        // SAFETY: valid procs or NULL.
        unsafe {
            assert_eq!(text(pmix_util_print_name_args(&proc("job", 3))), "[job,3]");
            assert_eq!(
                text(pmix_util_print_name_args(&proc("j", PMIX_RANK_WILDCARD))),
                "[j,WILDCARD]"
            );
            assert_eq!(
                text(pmix_util_print_name_args(core::ptr::null())),
                "[NO-NAME]"
            );
            let long = "n".repeat(255);
            let t = text(pmix_util_print_name_args(&proc(
                &long,
                PMIX_RANK_LOCAL_PEERS,
            )));
            assert_eq!(t.len(), 255 + 14);
        }
        for (r, want) in [
            (PMIX_RANK_UNDEF, "UNDEF"),
            (PMIX_RANK_LOCAL_NODE, "LOCAL_NODE"),
            (PMIX_RANK_INVALID, "INVALID"),
            (u32::MAX - 50, "4294967245"),
            (0, "0"),
        ] {
            assert_eq!(text(pmix_util_print_rank(r)), want);
        }
    }

    #[test]
    fn buffers_rotate() {
        let first = pmix_util_print_rank(1);
        let others: Vec<_> = (0..15u32).map(|r| pmix_util_print_rank(r)).collect();
        assert!(!others.contains(&first));
        assert_eq!(text(first), "1");
        assert_eq!(pmix_util_print_rank(2), first);
    }
}
