//! `PMIx_generate_regex` and `PMIx_generate_ppn`: the node and process maps a host passes
//! to `PMIx_server_register_nspace`. The formats live in `pmix_core::regex`.
//!
//! Both return a malloc'd, NUL-terminated C string (`pmix[...]` or `raw:...`), as the
//! reference does: neither of them ever produces the binary `blob:` form. They need no
//! initialization (the reference answers `PMIX_ERR_INIT` before init).

use core::ffi::c_char;

use pmix_core::Result;
use pmix_sys::*;

use crate::alloc;
use crate::entry;
use crate::ptr;

/// Runs `make` on the string `input` and stores its result, malloc'd and
/// NUL-terminated, in `*out`. On error `*out` is left untouched.
///
/// # Safety
/// `input` is NULL or a NUL-terminated string; `out` is NULL or writable.
unsafe fn generate(
    input: *const c_char,
    out: *mut *mut c_char,
    make: fn(&[u8]) -> Result<Vec<u8>>,
) -> Result<()> {
    // SAFETY: per this function's contract.
    let (input, out) = unsafe { (ptr::cstr(input)?, ptr::req_mut(out)?) };
    let map = make(input.to_bytes())?;
    *out = alloc::cstring(&map)?;
    Ok(())
}

/// Generates the node map (`PMIX_NODE_MAP`) of a comma-separated list of host names.
///
/// See PMIx Standard v5, `PMIx_generate_regex`.
///
/// The result keeps the order of the list: `"node01,node02,login"` gives
/// `"pmix[node[2:1-2],login]"`; the empty list gives `"raw:"`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL argument or an empty host name (other
/// than after one trailing comma); `PMIX_ERR_NOMEM`. (The reference crashes on NULL
/// arguments, accepts empty names and needs initialization.)
///
/// # Safety
/// `input` is NULL or a NUL-terminated string; `regex` is NULL or writable.
///
/// Ownership: `*regex` is a malloc'd C string; release it with `free()`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_generate_regex(
    input: *const c_char,
    regex: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_generate_regex", || {
        // SAFETY: forwarded contract of this function.
        unsafe { generate(input, regex, pmix_core::regex::generate_node_map) }
    })
}

/// Generates the process map (`PMIX_PROC_MAP`) of a "ppn" description: one field per node
/// (in the order of the node list) separated by `;`, each a comma-separated list of ranks
/// and rank ranges.
///
/// See PMIx Standard v5, `PMIx_generate_ppn`.
///
/// `"0,1,2,3;4,5,6,7"` gives `"pmix[0-3;4-7]"`; an input shorter than its native form
/// and without ranges is returned as `"raw:"` + input, as the reference does.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL argument, an empty field (other than
/// one trailing `;`) or item, a rank that is not a decimal number up to 2147483647, or a
/// range whose end is below its start; `PMIX_ERR_NOMEM`. (The reference crashes on NULL
/// arguments and on some of those inputs, and needs initialization.)
///
/// # Safety
/// `input` is NULL or a NUL-terminated string; `ppn` is NULL or writable.
///
/// Ownership: `*ppn` is a malloc'd C string; release it with `free()`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_generate_ppn(
    input: *const c_char,
    ppn: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_generate_ppn", || {
        // SAFETY: forwarded contract of this function.
        unsafe { generate(input, ppn, pmix_core::regex::generate_proc_map) }
    })
}
