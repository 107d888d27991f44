//! argv arrays (OpenPMIx's `pmix_argv.c`): NULL-terminated libc arrays of libc strings, and
//! the exported `pmix_argv_append`, `pmix_argv_copy_strip`, `pmix_argv_insert_element`,
//! `pmix_argv_join_range`.

use core::ffi::{c_char, c_int};
use core::ptr::null_mut;

use super::status::*;
use super::{cstr, strdup_bytes};

/// Number of strings in `argv` (0 for NULL).
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array.
pub unsafe fn count(argv: *const *mut c_char) -> usize {
    if argv.is_null() {
        return 0;
    }
    let mut n = 0;
    // SAFETY: the array is NULL-terminated, so every index up to the NULL is in bounds.
    while !unsafe { *argv.add(n) }.is_null() {
        n += 1;
    }
    n
}

/// Appends a libc copy of `arg` to `*argv`, creating the array if `*argv` is NULL (as
/// `PMIx_Argv_append_nosize`). Returns `PMIX_SUCCESS` or `PMIX_ERR_OUT_OF_RESOURCE`.
///
/// # Safety
/// `argv` points to NULL or to a libc-allocated NULL-terminated array of libc strings; `arg`
/// is a C string.
pub unsafe fn append(argv: *mut *mut *mut c_char, arg: *const c_char) -> c_int {
    // SAFETY: `arg` is a C string.
    let Some(bytes) = (unsafe { cstr(arg) }) else {
        return PMIX_ERR_BAD_PARAM;
    };
    // SAFETY: forwarded contract.
    unsafe { append_bytes(argv, bytes) }
}

/// [`append`] of a byte string.
///
/// # Safety
/// As [`append`].
pub unsafe fn append_bytes(argv: *mut *mut *mut c_char, arg: &[u8]) -> c_int {
    // SAFETY: `*argv` is NULL or a libc array of `n + 1` slots that we grow by one; the
    // writes stay within the new size.
    unsafe {
        let n = count(*argv);
        let grown =
            libc::realloc((*argv).cast(), (n + 2) * size_of::<*mut c_char>()).cast::<*mut c_char>();
        if grown.is_null() {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        *argv = grown;
        let s = strdup_bytes(arg);
        *grown.add(n) = s;
        if s.is_null() {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        *grown.add(n + 1) = null_mut();
    }
    PMIX_SUCCESS
}

/// A libc array holding nothing but its NULL terminator.
pub fn empty() -> *mut *mut c_char {
    // SAFETY: allocating one pointer slot and writing it.
    unsafe {
        let v = libc::malloc(size_of::<*mut c_char>()).cast::<*mut c_char>();
        if !v.is_null() {
            *v = null_mut();
        }
        v
    }
}

/// A deep libc copy of `argv` (NULL for NULL, an empty array for an empty one), as
/// `PMIx_Argv_copy`.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings.
pub unsafe fn copy(argv: *const *mut c_char) -> *mut *mut c_char {
    if argv.is_null() {
        return null_mut();
    }
    let mut dup = empty();
    // SAFETY: indexes below `count` are valid C strings.
    unsafe {
        for i in 0..count(argv) {
            if append(&mut dup, *argv.add(i)) != PMIX_SUCCESS {
                free(dup);
                return null_mut();
            }
        }
    }
    dup
}

/// Frees a libc array and its strings (NULL is allowed), as `PMIx_Argv_free`.
///
/// # Safety
/// `argv` is NULL or a libc-allocated NULL-terminated array of libc strings.
pub unsafe fn free(argv: *mut *mut c_char) {
    if argv.is_null() {
        return;
    }
    // SAFETY: every entry up to the terminator and the array itself came from libc.
    unsafe {
        for i in 0..count(argv) {
            libc::free((*argv.add(i)).cast());
        }
        libc::free(argv.cast());
    }
}

/// Splits `s` at `delimiter`, dropping empty pieces, into a libc array; NULL when there is no
/// piece (as `PMIx_Argv_split`).
pub fn split(s: &[u8], delimiter: u8) -> *mut *mut c_char {
    let mut out = null_mut();
    for piece in s.split(|&b| b == delimiter).filter(|p| !p.is_empty()) {
        // SAFETY: `out` is NULL or the libc array built so far.
        if unsafe { append_bytes(&mut out, piece) } != PMIX_SUCCESS {
            // SAFETY: as above.
            unsafe { free(out) };
            return null_mut();
        }
    }
    out
}

/// The strings of `argv` as byte slices.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings that outlive the slices.
pub unsafe fn to_vec<'a>(argv: *const *mut c_char) -> Vec<&'a [u8]> {
    // SAFETY: every index below `count` is a valid C string.
    (0..unsafe { count(argv) })
        .filter_map(|i| unsafe { cstr(*argv.add(i)) })
        .collect()
}

/// Appends a copy of `arg` to `*argv` and stores the new count in `*argc`.
///
/// # Safety
/// `argc` is writable; `argv` points to NULL or a libc argv array; `arg` is a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_argv_append(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    arg: *const c_char,
) -> c_int {
    if argc.is_null() || argv.is_null() || arg.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: checked non-NULL; the caller's contract covers the rest.
    unsafe {
        let rc = append(argv, arg);
        if rc != PMIX_SUCCESS {
            return rc;
        }
        *argc = c_int::try_from(count(*argv)).unwrap_or(c_int::MAX);
    }
    PMIX_SUCCESS
}

/// One string of the `start..end` strings of `argv` joined by the byte `delimiter`; `""` if
/// the range holds none. The result is malloc'd.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_argv_join_range(
    argv: *mut *mut c_char,
    start: usize,
    end: usize,
    delimiter: c_int,
) -> *mut c_char {
    // SAFETY: forwarded contract.
    let items = unsafe { to_vec(argv) };
    if start >= items.len() || start >= end {
        return strdup_bytes(b"");
    }
    let picked = &items[start..end.min(items.len())];
    // The delimiter is a C `int` used as a `char`: its low byte.
    let joined = picked.join(&(delimiter as u8));
    strdup_bytes(&joined)
}

/// A copy of `argv` in which each string loses one leading and one trailing double quote.
/// NULL for NULL; `argv` itself is left as it was.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_argv_copy_strip(argv: *mut *mut c_char) -> *mut *mut c_char {
    if argv.is_null() {
        return null_mut();
    }
    let mut dup = empty();
    // SAFETY: forwarded contract.
    for s in unsafe { to_vec(argv) } {
        let begin = usize::from(s.first() == Some(&b'"'));
        let end = if s.last() == Some(&b'"') {
            s.len() - 1
        } else {
            s.len()
        };
        let stripped = if begin < end { &s[begin..end] } else { &[][..] };
        // SAFETY: `dup` is the libc array built so far.
        if unsafe { append_bytes(&mut dup, stripped) } != PMIX_SUCCESS {
            // SAFETY: as above.
            unsafe { free(dup) };
            return null_mut();
        }
    }
    dup
}

/// Inserts a copy of `source` at index `location` of `*target`, shifting the later strings
/// up; a `location` past the end appends. NULL `source` does nothing.
///
/// # Safety
/// `target` is NULL or points to NULL or to a libc argv array; `source` is NULL or a C
/// string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_argv_insert_element(
    target: *mut *mut *mut c_char,
    location: c_int,
    source: *mut c_char,
) -> c_int {
    // SAFETY: `target` is checked before it is read.
    if target.is_null() || unsafe { *target }.is_null() || location < 0 {
        return PMIX_ERR_BAD_PARAM;
    }
    if source.is_null() {
        return PMIX_SUCCESS;
    }
    let at = location as usize;
    // SAFETY: `*target` is a libc array of `n + 1` slots; after growing it to `n + 2` the
    // moves and writes stay below `n + 2`.
    unsafe {
        let n = count(*target);
        if at >= n {
            return append(target, source);
        }
        let dup = libc::strdup(source);
        if dup.is_null() {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        let grown = libc::realloc((*target).cast(), (n + 2) * size_of::<*mut c_char>())
            .cast::<*mut c_char>();
        if grown.is_null() {
            libc::free(dup.cast());
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        *target = grown;
        // Moves the suffix and its NULL terminator up by one slot.
        core::ptr::copy(grown.add(at), grown.add(at + 1), n - at + 1);
        *grown.add(at) = dup;
    }
    PMIX_SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    pub(crate) fn build(items: &[&str]) -> *mut *mut c_char {
        let mut v = empty();
        for s in items {
            let c = CString::new(*s).unwrap();
            // SAFETY: `v` is a libc argv array.
            assert_eq!(unsafe { append(&mut v, c.as_ptr()) }, PMIX_SUCCESS);
        }
        v
    }

    pub(crate) fn read(v: *mut *mut c_char) -> Vec<String> {
        // SAFETY: a libc argv array built by these helpers.
        unsafe { to_vec(v) }
            .into_iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect()
    }

    fn take(p: *mut c_char) -> String {
        // SAFETY: a malloc'd C string returned by the function under test.
        unsafe {
            let s = String::from_utf8_lossy(cstr(p).unwrap()).into_owned();
            libc::free(p.cast());
            s
        }
    }

    #[test]
    fn append_counts() {
        let mut v = null_mut();
        let mut n = -1;
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(pmix_argv_append(&mut n, &mut v, c"a".as_ptr()), 0);
            assert_eq!(pmix_argv_append(&mut n, &mut v, c"b".as_ptr()), 0);
        }
        assert_eq!(n, 2);
        assert_eq!(read(v), ["a", "b"]);
        // SAFETY: ours.
        unsafe { free(v) };
    }

    #[test]
    fn join_range() {
        let v = build(&["a", "bb", "", "c"]);
        // SAFETY: a valid array.
        unsafe {
            assert_eq!(take(pmix_argv_join_range(v, 0, 2, b',' as c_int)), "a,bb");
            assert_eq!(
                take(pmix_argv_join_range(v, 1, 100, b':' as c_int)),
                "bb::c"
            );
            assert_eq!(take(pmix_argv_join_range(v, 4, 5, b',' as c_int)), "");
            assert_eq!(take(pmix_argv_join_range(v, 2, 2, b',' as c_int)), "");
            assert_eq!(take(pmix_argv_join_range(null_mut(), 0, 2, 0)), "");
            free(v);
        }
    }

    #[test]
    fn copy_strip() {
        let v = build(&["\"x y\"", "\"a", "b\"", "\"", "", "plain"]);
        // SAFETY: a valid array.
        unsafe {
            let d = pmix_argv_copy_strip(v);
            assert_eq!(read(d), ["x y", "a", "b", "", "", "plain"]);
            assert_eq!(read(v)[0], "\"x y\"");
            free(d);
            free(v);
            assert!(pmix_argv_copy_strip(null_mut()).is_null());
        }
    }

    #[test]
    fn insert_element() {
        let mut v = build(&["a", "c"]);
        // SAFETY: a valid array.
        unsafe {
            assert_eq!(
                pmix_argv_insert_element(&mut v, 1, c"b".as_ptr().cast_mut()),
                0
            );
            assert_eq!(
                pmix_argv_insert_element(&mut v, 0, c"0".as_ptr().cast_mut()),
                0
            );
            assert_eq!(
                pmix_argv_insert_element(&mut v, 9, c"z".as_ptr().cast_mut()),
                0
            );
            assert_eq!(
                pmix_argv_insert_element(&mut v, 5, c"y".as_ptr().cast_mut()),
                0
            );
            assert_eq!(read(v), ["0", "a", "b", "c", "z", "y"]);
            assert_eq!(
                pmix_argv_insert_element(&mut v, -1, c"b".as_ptr().cast_mut()),
                -27
            );
            assert_eq!(pmix_argv_insert_element(&mut v, 0, null_mut()), 0);
            free(v);
            let mut none = null_mut();
            assert_eq!(
                pmix_argv_insert_element(&mut none, 0, c"b".as_ptr().cast_mut()),
                -27
            );
        }
    }

    #[test]
    fn split_drops_empty() {
        let v = split(b",a,,b,", b',');
        assert_eq!(read(v), ["a", "b"]);
        // SAFETY: ours.
        unsafe { free(v) };
        assert!(split(b",,", b',').is_null());
    }
}
