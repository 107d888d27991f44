//! `pmix_pmdl_base_check_pmix_param` / `_prte_param`: whether a parameter name (without its
//! `<PROJECT>_MCA_` prefix) belongs to PMIx or to PRRTE, by the text before its first `_`.

use core::ffi::{CStr, c_char};
use std::sync::OnceLock;

/// OpenPMIx 5.0.11's frameworks (the names of `pmix_framework_names`).
const PMIX_FRAMEWORKS: [&[u8]; 16] = [
    b"bfrops",
    b"gds",
    b"pcompress",
    b"pdl",
    b"pif",
    b"pinstalldirs",
    b"plog",
    b"pmdl",
    b"pnet",
    b"preg",
    b"psec",
    b"psensor",
    b"psquash",
    b"pstat",
    b"ptl",
    b"mca",
];

/// PRRTE 3.0's frameworks and those it inherits from OPAL, unless `PRTE_MCA_PREFIXES` (a
/// comma-separated list, read once) replaces them.
const PRTE_FRAMEWORKS: [&[u8]; 22] = [
    b"errmgr",
    b"ess",
    b"filem",
    b"grpcomm",
    b"iof",
    b"odls",
    b"oob",
    b"plm",
    b"prtebacktrace",
    b"prtedl",
    b"prteinstalldirs",
    b"prtereachable",
    b"ras",
    b"rmaps",
    b"rml",
    b"routed",
    b"rtc",
    b"schizo",
    b"state",
    b"hwloc",
    b"if",
    b"reachable",
];

fn prte_frameworks() -> &'static [Vec<u8>] {
    static LIST: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LIST.get_or_init(|| {
        use std::os::unix::ffi::OsStrExt;
        match std::env::var_os("PRTE_MCA_PREFIXES") {
            Some(v) => v
                .as_bytes()
                .split(|&c| c == b',')
                .filter(|s| !s.is_empty())
                .map(<[u8]>::to_vec)
                .collect(),
            None => PRTE_FRAMEWORKS.iter().map(|s| s.to_vec()).collect(),
        }
    })
}

/// True if the part of `param` before its first `_` is a prefix of `project` (empty
/// included) or exactly one of `frameworks`.
fn check<'a>(param: &[u8], project: &[u8], frameworks: impl Iterator<Item = &'a [u8]>) -> bool {
    let head = param.split(|&c| c == b'_').next().unwrap_or(b"");
    if project.starts_with(head) {
        return true;
    }
    frameworks.into_iter().any(|f| f == head)
}

/// `pmix_pmdl_base_check_prte_param(param)`: a PRRTE parameter (`prte...` or a PRRTE
/// framework's).
///
/// # Safety
/// `param` is null (false) or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pmdl_base_check_prte_param(param: *const c_char) -> bool {
    if param.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    let p = unsafe { CStr::from_ptr(param) }.to_bytes();
    check(p, b"prte", prte_frameworks().iter().map(Vec::as_slice))
}

/// `pmix_pmdl_base_check_pmix_param(param)`: a PMIx parameter (`pmix...` or a PMIx
/// framework's).
///
/// # Safety
/// `param` is null (false) or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pmdl_base_check_pmix_param(param: *const c_char) -> bool {
    if param.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    let p = unsafe { CStr::from_ptr(param) }.to_bytes();
    check(p, b"pmix", PMIX_FRAMEWORKS.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pmix(s: &CStr) -> bool {
        // SAFETY: a C string.
        unsafe { pmix_pmdl_base_check_pmix_param(s.as_ptr()) }
    }

    #[test]
    fn pmix_params_are_pmix_prefixes_and_framework_names() {
        assert!(pmix(c"pmix_foo"));
        assert!(pmix(c"pm_x"), "a prefix of pmix counts");
        assert!(pmix(c"_x"), "an empty head counts");
        assert!(pmix(c"ptl_base_verbose"));
        assert!(pmix(c"mca"));
        assert!(!pmix(c"pmixx_y"));
        assert!(!pmix(c"pt_x"));
        assert!(!pmix(c"plm_ssh_agent"));
        // SAFETY: a C string and null.
        unsafe {
            assert!(pmix_pmdl_base_check_prte_param(c"plm_ssh_agent".as_ptr()));
            assert!(pmix_pmdl_base_check_prte_param(c"prte_x".as_ptr()));
            assert!(!pmix_pmdl_base_check_prte_param(c"ptl_x".as_ptr()));
            assert!(!pmix_pmdl_base_check_prte_param(core::ptr::null()));
        }
    }
}
