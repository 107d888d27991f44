//! `pmix_util_parse_range_options` (OpenPMIx's `pmix_parse_options.c`).

use core::ffi::{c_char, c_long};

use super::{argv, c_string, cstr};

/// `strtol(s, NULL, 10)` truncated to a C `int`, as OpenPMIx stores it.
fn to_int(s: &[u8]) -> i32 {
    let Some(c) = c_string(s) else { return 0 };
    // SAFETY: strtol on a C string without an end pointer.
    let v: c_long = unsafe { libc::strtol(c.as_ptr(), core::ptr::null_mut(), 10) };
    v as i32
}

/// Expands a list such as `"1-3,5"` into the decimal strings `"1" "2" "3" "5"` appended to
/// `*output`. A `!` ends the list and appends `"BANG"` last; an item reading as -1 replaces
/// the whole output by `"-1"` (the wildcard) and stops. An item of only dashes, on which
/// OpenPMIx crashes, is skipped. NULL `input` does nothing.
///
/// # Safety
/// `input` is NULL or a C string; `output` points to NULL or a libc argv array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_util_parse_range_options(
    input: *mut c_char,
    output: *mut *mut *mut c_char,
) {
    // SAFETY: forwarded contract.
    let Some(text) = (unsafe { cstr(input) }) else {
        return;
    };
    if output.is_null() {
        return;
    }
    let (list, bang) = match text.iter().position(|&b| b == b'!') {
        Some(i) => (&text[..i], true),
        None => (text, false),
    };
    for item in list.split(|&b| b == b',').filter(|s| !s.is_empty()) {
        let mut bounds = item.split(|&b| b == b'-').filter(|s| !s.is_empty());
        let (Some(first), second) = (bounds.next(), bounds.next()) else {
            continue;
        };
        let (start, end) = match second {
            Some(last) => (to_int(first), to_int(last)),
            None => {
                if to_int(item) == -1 {
                    // SAFETY: `*output` is NULL or a libc array we replace.
                    unsafe {
                        argv::free(*output);
                        *output = core::ptr::null_mut();
                        argv::append_bytes(output, b"-1");
                    }
                    break;
                }
                let n = to_int(first);
                (n, n)
            }
        };
        for n in i64::from(start)..=i64::from(end) {
            // SAFETY: `*output` is NULL or a libc array.
            unsafe { argv::append_bytes(output, n.to_string().as_bytes()) };
        }
    }
    if bang {
        // SAFETY: as above.
        unsafe { argv::append_bytes(output, b"BANG") };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::null_mut;

    fn parse(s: &str) -> Vec<String> {
        let c = std::ffi::CString::new(s).unwrap();
        let mut out = null_mut();
        // SAFETY: a C string and an output array we free.
        unsafe {
            pmix_util_parse_range_options(c.as_ptr().cast_mut(), &mut out);
            let v = argv::to_vec(out)
                .iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .collect();
            argv::free(out);
            v
        }
    }

    #[test]
    fn ranges() {
        assert_eq!(parse("1-3,5"), ["1", "2", "3", "5"]);
        assert_eq!(parse("4"), ["4"]);
        assert_eq!(parse("3-1"), Vec::<String>::new());
        assert_eq!(parse("0,-1,7"), ["-1"]);
        assert_eq!(parse("1,2!3"), ["1", "2", "BANG"]);
        assert_eq!(parse("-1!"), ["-1", "BANG"]);
        assert_eq!(parse(",,2,"), ["2"]);
        assert_eq!(parse("1-2-9"), ["1", "2"]);
        assert_eq!(parse("x"), ["0"]);
        assert_eq!(parse(""), Vec::<String>::new());
    }
}
