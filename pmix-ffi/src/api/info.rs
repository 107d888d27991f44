//! The flags of a `pmix_info_t` and the truth of a value: the 5.0 ABI's functions behind
//! `PMIX_INFO_REQUIRED`, `PMIX_INFO_IS_REQUIRED`, `PMIX_INFO_SET_END`, `PMIX_INFO_TRUE`,
//! `PMIX_CHECK_TRUE` and their kin (4.2 expanded them inline). NULL infos are ignored.

use pmix_sys::*;

use crate::entry;

fn set_flags(export: &str, p: *mut pmix_info_t, f: impl FnOnce(&mut pmix_info_directives_t)) {
    entry::guard(export, (), || {
        if !p.is_null() {
            // SAFETY: the exported function's contract: NULL or a valid info.
            f(unsafe { &mut (*p).flags })
        }
    })
}

fn flags(
    export: &str,
    p: *const pmix_info_t,
    f: impl FnOnce(pmix_info_directives_t) -> bool,
) -> bool {
    entry::guard(export, false, || {
        // SAFETY: the exported function's contract: NULL or a valid info.
        !p.is_null() && f(unsafe { (*p).flags })
    })
}

/// Marks the info required (`PMIX_INFO_REQD`).
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_required(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_required", p, |f| *f |= PMIX_INFO_REQD)
}

/// Marks the info optional (clears `PMIX_INFO_REQD`).
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_optional(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_optional", p, |f| *f &= !PMIX_INFO_REQD)
}

/// Whether `PMIX_INFO_REQD` is set; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_is_required(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_is_required", p, |f| f & PMIX_INFO_REQD != 0)
}

/// Whether `PMIX_INFO_REQD` is clear; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_is_optional(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_is_optional", p, |f| f & PMIX_INFO_REQD == 0)
}

/// Marks a required info as processed (`PMIX_INFO_REQD_PROCESSED`).
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_processed(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_processed", p, |f| *f |= PMIX_INFO_REQD_PROCESSED)
}

/// Whether `PMIX_INFO_REQD_PROCESSED` is set; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_was_processed(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_was_processed", p, |f| {
        f & PMIX_INFO_REQD_PROCESSED != 0
    })
}

/// Marks the last info of an array (`PMIX_INFO_ARRAY_END`).
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_set_end(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_set_end", p, |f| *f |= PMIX_INFO_ARRAY_END)
}

/// Whether `PMIX_INFO_ARRAY_END` is set; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_is_end(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_is_end", p, |f| f & PMIX_INFO_ARRAY_END != 0)
}

/// Marks the info as a qualifier (`PMIX_INFO_QUALIFIER`).
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_qualifier(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_qualifier", p, |f| *f |= PMIX_INFO_QUALIFIER)
}

/// Whether `PMIX_INFO_QUALIFIER` is set; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_is_qualifier(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_is_qualifier", p, |f| {
        f & PMIX_INFO_QUALIFIER != 0
    })
}

/// Marks the info persistent (`PMIX_INFO_PERSISTENT`): destructing it leaves its value alone.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_persistent(p: *mut pmix_info_t) {
    set_flags("PMIx_Info_persistent", p, |f| *f |= PMIX_INFO_PERSISTENT)
}

/// Whether `PMIX_INFO_PERSISTENT` is set; `false` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_is_persistent(p: *const pmix_info_t) -> bool {
    flags("PMIx_Info_is_persistent", p, |f| {
        f & PMIX_INFO_PERSISTENT != 0
    })
}

/// Whether a value reads as true: `PMIX_BOOL_TRUE` for `PMIX_UNDEF` (a flag given without a
/// value), for a true `PMIX_BOOL`, and for a string that is empty, a non-zero number, or
/// begins with "yes" or "true" (any case, after leading blanks); `PMIX_BOOL_FALSE` for a false
/// `PMIX_BOOL`, a string holding 0, or one beginning with "no" or "false"; `PMIX_NON_BOOL`
/// for anything else, NULL included.
///
/// # Safety
/// `v` is NULL or a valid value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_true(v: *const pmix_value_t) -> pmix_boolean_t {
    entry::guard("PMIx_Value_true", PMIX_NON_BOOL, || {
        if v.is_null() {
            return PMIX_NON_BOOL;
        }
        // SAFETY: per this function's contract.
        let v = unsafe { &*v };
        match v.r#type {
            PMIX_UNDEF => PMIX_BOOL_TRUE,
            // SAFETY: the member the type selects.
            PMIX_BOOL => truth(unsafe { v.data.flag }),
            // SAFETY: the member the type selects: NULL or a C string.
            PMIX_STRING => match unsafe { crate::ptr::opt_pstr(v.data.string) } {
                None => PMIX_BOOL_TRUE,
                Some(s) => string_truth(s.as_bytes()),
            },
            _ => PMIX_NON_BOOL,
        }
    })
}

fn truth(b: bool) -> pmix_boolean_t {
    if b { PMIX_BOOL_TRUE } else { PMIX_BOOL_FALSE }
}

/// The truth of a string, as `PMIx_Value_true` describes (numbers as C's `atoi` reads them).
fn string_truth(s: &[u8]) -> pmix_boolean_t {
    let start = s
        .iter()
        .position(|b| !b" \t\n\x0b\x0c\r".contains(b))
        .unwrap_or(s.len());
    let s = &s[start..];
    let prefix = |p: &[u8]| s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p);
    match s.first() {
        None => PMIX_BOOL_TRUE,
        Some(b) if b.is_ascii_digit() => {
            let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
            truth(s[..digits].iter().any(|&b| b != b'0'))
        }
        _ if prefix(b"yes") || prefix(b"true") => PMIX_BOOL_TRUE,
        _ if prefix(b"no") || prefix(b"false") => PMIX_BOOL_FALSE,
        _ => PMIX_NON_BOOL,
    }
}

/// `PMIx_Value_true` of the info's value; `PMIX_NON_BOOL` for NULL.
///
/// # Safety
/// `p` is NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_true(p: *const pmix_info_t) -> pmix_boolean_t {
    if p.is_null() {
        return PMIX_NON_BOOL;
    }
    // SAFETY: per this function's contract.
    unsafe { PMIx_Value_true(&(*p).value) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_read_as_atoi_and_words() {
        for (s, want) in [
            (&b""[..], PMIX_BOOL_TRUE),
            (b"  ", PMIX_BOOL_TRUE),
            (b"0", PMIX_BOOL_FALSE),
            (b"000x", PMIX_BOOL_FALSE),
            (b" 12", PMIX_BOOL_TRUE),
            (b"YES please", PMIX_BOOL_TRUE),
            (b"True", PMIX_BOOL_TRUE),
            (b"nope", PMIX_BOOL_FALSE),
            (b"FALSE", PMIX_BOOL_FALSE),
            (b"maybe", PMIX_NON_BOOL),
        ] {
            assert_eq!(string_truth(s), want, "{:?}", String::from_utf8_lossy(s));
        }
    }
}
