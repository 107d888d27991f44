//! Keys, namespaces and process IDs: the 5.0 ABI's functions behind `PMIX_LOAD_KEY`,
//! `PMIX_CHECK_KEY`, `PMIX_LOAD_NSPACE`, `PMIX_CHECK_NSPACE`, `PMIX_LOAD_PROCID`,
//! `PMIX_CHECK_PROCID`, `PMIX_PROCID_INVALID` and the multi-cluster namespace helpers.
//!
//! Keys are compared over at most `PMIX_MAX_KEYLEN` bytes and namespaces over
//! `PMIX_MAX_NSLEN`, as the reference does. A NULL where OpenPMIx 5.0.11 would dereference it
//! gives the neutral answer instead (nothing written; `false` from a comparison of keys,
//! "invalid" from a validity check).

use core::ffi::c_char;

use pmix_sys::*;

use crate::entry;

/// The bytes of `s` before its terminator, at most `max` of them.
///
/// # Safety
/// `s` is a C string, or an array of at least `max` bytes.
unsafe fn bounded<'a>(s: *const c_char, max: usize) -> &'a [u8] {
    // SAFETY: forwarded contract: no read past a terminator or past `max` bytes.
    let len = unsafe { libc::strnlen(s, max) };
    // SAFETY: `len` bytes are readable.
    unsafe { core::slice::from_raw_parts(s.cast::<u8>(), len) }
}

/// Zeroes `cap + 1` bytes at `dst` and copies up to `cap` bytes of `src` (NULL: none).
///
/// # Safety
/// `dst` has room for `cap + 1` bytes; `src` is NULL or a C string.
unsafe fn load_fixed(dst: *mut c_char, src: *const c_char, cap: usize) {
    // SAFETY: forwarded contract.
    unsafe {
        core::ptr::write_bytes(dst, 0, cap + 1);
        if !src.is_null() {
            let s = bounded(src, cap);
            core::ptr::copy(s.as_ptr().cast::<c_char>(), dst, s.len());
        }
    }
}

/// Whether `nspace` is NULL or empty.
///
/// # Safety
/// `nspace` is NULL or a C string.
unsafe fn ns_invalid(nspace: *const c_char) -> bool {
    // SAFETY: forwarded contract.
    nspace.is_null() || unsafe { *nspace } == 0
}

/// Same namespace, where NULL or empty on either side matches anything.
///
/// # Safety
/// Each is NULL or a C string.
unsafe fn ns_match(a: *const c_char, b: *const c_char) -> bool {
    // SAFETY: forwarded contract.
    unsafe {
        ns_invalid(a) || ns_invalid(b) || bounded(a, PMIX_MAX_NSLEN) == bounded(b, PMIX_MAX_NSLEN)
    }
}

fn rank_match(a: pmix_rank_t, b: pmix_rank_t) -> bool {
    a == b || a == PMIX_RANK_WILDCARD || b == PMIX_RANK_WILDCARD
}

/// Clears the key `key` (all `PMIX_MAX_KEYLEN + 1` bytes) and copies at most
/// `PMIX_MAX_KEYLEN` bytes of `src` into it; a NULL `src` leaves it empty.
///
/// # Safety
/// `key` is NULL or a `pmix_key_t`; `src` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Load_key(key: *mut c_char, src: *const c_char) {
    entry::guard("PMIx_Load_key", (), || {
        if !key.is_null() {
            // SAFETY: per this function's contract.
            unsafe { load_fixed(key, src, PMIX_MAX_KEYLEN) }
        }
    })
}

/// Whether the keys are equal over their first `PMIX_MAX_KEYLEN` bytes; `false` when either
/// is NULL.
///
/// # Safety
/// Each is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Check_key(key: *const c_char, str_: *const c_char) -> bool {
    entry::guard("PMIx_Check_key", false, || {
        !key.is_null()
            && !str_.is_null()
            // SAFETY: per this function's contract.
            && unsafe { bounded(key, PMIX_MAX_KEYLEN) == bounded(str_, PMIX_MAX_KEYLEN) }
    })
}

/// Whether `key` starts with "pmix" (the standard's reserved prefix); `false` for NULL.
///
/// # Safety
/// `key` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Check_reserved_key(key: *const c_char) -> bool {
    entry::guard("PMIx_Check_reserved_key", false, || {
        // SAFETY: per this function's contract.
        !key.is_null() && unsafe { bounded(key, 4) } == b"pmix"
    })
}

/// Clears the namespace `nspace` and copies at most `PMIX_MAX_NSLEN` bytes of `str_` into it.
///
/// # Safety
/// `nspace` is NULL or a `pmix_nspace_t`; `str_` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Load_nspace(nspace: *mut c_char, str_: *const c_char) {
    entry::guard("PMIx_Load_nspace", (), || {
        if !nspace.is_null() {
            // SAFETY: per this function's contract.
            unsafe { load_fixed(nspace, str_, PMIX_MAX_NSLEN) }
        }
    })
}

/// Whether the namespaces match: equal over `PMIX_MAX_NSLEN` bytes, or either is NULL or
/// empty (a wildcard, as in OpenPMIx).
///
/// # Safety
/// Each is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Check_nspace(key1: *const c_char, key2: *const c_char) -> bool {
    // SAFETY: per this function's contract.
    entry::guard("PMIx_Check_nspace", false, || unsafe {
        ns_match(key1, key2)
    })
}

/// Whether `nspace` is NULL or empty.
///
/// # Safety
/// `nspace` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Nspace_invalid(nspace: *const c_char) -> bool {
    // SAFETY: per this function's contract.
    entry::guard("PMIx_Nspace_invalid", true, || unsafe {
        ns_invalid(nspace)
    })
}

/// Loads `ns` (as `PMIx_Load_nspace`) and `rk` into `p`.
///
/// # Safety
/// `p` is NULL or a writable `pmix_proc_t`; `ns` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Load_procid(p: *mut pmix_proc_t, ns: *const c_char, rk: pmix_rank_t) {
    entry::guard("PMIx_Load_procid", (), || {
        if !p.is_null() {
            // SAFETY: per this function's contract.
            unsafe {
                load_fixed((*p).nspace.as_mut_ptr(), ns, PMIX_MAX_NSLEN);
                (*p).rank = rk;
            }
        }
    })
}

/// Copies the whole of `src` to `dst`.
///
/// # Safety
/// Each is NULL or a valid `pmix_proc_t` (they may be the same).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Xfer_procid(dst: *mut pmix_proc_t, src: *const pmix_proc_t) {
    entry::guard("PMIx_Xfer_procid", (), || {
        if !dst.is_null() && !src.is_null() {
            // SAFETY: per this function's contract; `copy` allows overlap.
            unsafe { core::ptr::copy(src, dst, 1) }
        }
    })
}

/// Whether two process IDs match: namespaces as `PMIx_Check_nspace`, ranks equal or either
/// `PMIX_RANK_WILDCARD`. `false` when either is NULL.
///
/// # Safety
/// Each is NULL or a valid `pmix_proc_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Check_procid(a: *const pmix_proc_t, b: *const pmix_proc_t) -> bool {
    entry::guard("PMIx_Check_procid", false, || {
        if a.is_null() || b.is_null() {
            return false;
        }
        // SAFETY: per this function's contract.
        let (a, b) = unsafe { (&*a, &*b) };
        // SAFETY: the namespaces are fixed arrays; `bounded` stops at their end.
        let same_ns = unsafe { ns_match(a.nspace.as_ptr(), b.nspace.as_ptr()) };
        same_ns && rank_match(a.rank, b.rank)
    })
}

/// Whether the ranks are equal, or either is `PMIX_RANK_WILDCARD`.
///
/// # Safety
/// No pointer arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Check_rank(a: pmix_rank_t, b: pmix_rank_t) -> bool {
    rank_match(a, b)
}

/// Whether `p` has no namespace or the rank `PMIX_RANK_INVALID`; `true` for NULL.
///
/// # Safety
/// `p` is NULL or a valid `pmix_proc_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Procid_invalid(p: *const pmix_proc_t) -> bool {
    entry::guard("PMIx_Procid_invalid", true, || {
        if p.is_null() {
            return true;
        }
        // SAFETY: per this function's contract.
        let p = unsafe { &*p };
        p.nspace[0] == 0 || p.rank == PMIX_RANK_INVALID
    })
}

/// Constructs `p` (rank `PMIX_RANK_UNDEF`), then loads `nspace` and `rank` into it.
///
/// # Safety
/// As `PMIx_Load_procid`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_load(
    p: *mut pmix_proc_t,
    nspace: *const c_char,
    rank: pmix_rank_t,
) {
    // SAFETY: per this function's contract.
    unsafe { PMIx_Load_procid(p, nspace, rank) }
}

/// Writes "CLUSTER:NSPACE" into `target` when it fits in `PMIX_MAX_NSLEN` bytes; `target` is
/// left empty otherwise.
///
/// # Safety
/// `target` is NULL or a `pmix_nspace_t`; `cluster` and `nspace` are NULL or namespaces.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Multicluster_nspace_construct(
    target: *mut c_char,
    cluster: *mut c_char,
    nspace: *mut c_char,
) {
    entry::guard("PMIx_Multicluster_nspace_construct", (), || {
        if target.is_null() {
            return;
        }
        // SAFETY: per this function's contract.
        unsafe {
            load_fixed(target, core::ptr::null(), PMIX_MAX_NSLEN);
            if cluster.is_null() || nspace.is_null() {
                return;
            }
            let (c, n) = (
                bounded(cluster, PMIX_MAX_NSLEN),
                bounded(nspace, PMIX_MAX_NSLEN),
            );
            if c.len() + n.len() < PMIX_MAX_NSLEN {
                let joined = [c, b":", n].concat();
                core::ptr::copy(joined.as_ptr().cast::<c_char>(), target, joined.len());
            }
        }
    })
}

/// Splits "CLUSTER:NSPACE" in `target` at its first ':' into `cluster` and `nspace` (both
/// cleared first); without a ':' all of it is the cluster.
///
/// # Safety
/// `target` is NULL or a namespace; `cluster` and `nspace` are NULL or `pmix_nspace_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Multicluster_nspace_parse(
    target: *mut c_char,
    cluster: *mut c_char,
    nspace: *mut c_char,
) {
    entry::guard("PMIx_Multicluster_nspace_parse", (), || {
        if target.is_null() || cluster.is_null() || nspace.is_null() {
            return;
        }
        // SAFETY: per this function's contract.
        unsafe {
            let t = bounded(target, PMIX_MAX_NSLEN);
            let (c, n) = match t.iter().position(|&b| b == b':') {
                Some(i) => (&t[..i], &t[i + 1..]),
                None => (t, &t[t.len()..]),
            };
            load_fixed(cluster, core::ptr::null(), PMIX_MAX_NSLEN);
            load_fixed(nspace, core::ptr::null(), PMIX_MAX_NSLEN);
            core::ptr::copy(c.as_ptr().cast::<c_char>(), cluster, c.len());
            core::ptr::copy(n.as_ptr().cast::<c_char>(), nspace, n.len());
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;

    fn key(s: &str) -> Vec<c_char> {
        let mut k = vec![0 as c_char; PMIX_MAX_KEYLEN + 1];
        let c = std::ffi::CString::new(s).unwrap();
        // SAFETY: `k` is a key buffer; `c` a C string.
        unsafe { PMIx_Load_key(k.as_mut_ptr(), c.as_ptr()) };
        k
    }

    #[test]
    fn keys_load_truncated_and_compare() {
        let long = "k".repeat(600);
        let k = key(&long);
        // SAFETY: `k` is terminated within its buffer.
        let loaded = unsafe { CStr::from_ptr(k.as_ptr()) };
        assert_eq!(loaded.to_bytes().len(), PMIX_MAX_KEYLEN);
        let c = std::ffi::CString::new(long).unwrap();
        // SAFETY: both are C strings.
        assert!(unsafe { PMIx_Check_key(k.as_ptr(), c.as_ptr()) });
        // SAFETY: NULL is allowed.
        assert!(!unsafe { PMIx_Check_key(k.as_ptr(), core::ptr::null()) });
    }

    #[test]
    fn multicluster_round_trip() {
        let mut t = [0 as c_char; PMIX_MAX_NSLEN + 1];
        let mut c = [1 as c_char; PMIX_MAX_NSLEN + 1];
        let mut n = [1 as c_char; PMIX_MAX_NSLEN + 1];
        let (mut cl, mut ns) = (*b"clusterA\0", *b"job.1\0");
        // SAFETY: fixed buffers and C strings.
        unsafe {
            PMIx_Multicluster_nspace_construct(
                t.as_mut_ptr(),
                cl.as_mut_ptr().cast(),
                ns.as_mut_ptr().cast(),
            );
            assert_eq!(CStr::from_ptr(t.as_ptr()), c"clusterA:job.1");
            PMIx_Multicluster_nspace_parse(t.as_mut_ptr(), c.as_mut_ptr(), n.as_mut_ptr());
            assert_eq!(CStr::from_ptr(c.as_ptr()), c"clusterA");
            assert_eq!(CStr::from_ptr(n.as_ptr()), c"job.1");
        }
    }
}
