//! `PMIx_Info_list_*`, the attribute dictionary and pre-init `PMIx_Query_info`, on both
//! libraries.

use std::ffi::{CStr, c_char, c_void};
use std::mem::zeroed;

use pmix_abi_tests::{Pmix, both, describe, ours};
use pmix_sys::*;

type Start = unsafe extern "C" fn() -> *mut c_void;
type Add = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    *const c_void,
    pmix_data_type_t,
) -> pmix_status_t;
type Insert = unsafe extern "C" fn(*mut c_void, *mut pmix_info_t) -> pmix_status_t;
type XferL = unsafe extern "C" fn(*mut c_void, *const pmix_info_t) -> pmix_status_t;
type Convert = unsafe extern "C" fn(*mut c_void, *mut pmix_data_array_t) -> pmix_status_t;
type Release = unsafe extern "C" fn(*mut c_void);
type DaDestruct = unsafe extern "C" fn(*mut pmix_data_array_t);
type InfoLoad = unsafe extern "C" fn(
    *mut pmix_info_t,
    *const c_char,
    *const c_void,
    pmix_data_type_t,
) -> pmix_status_t;
type ValueDestruct = unsafe extern "C" fn(*mut pmix_value_t);
type Name = unsafe extern "C" fn(*const c_char) -> *const c_char;

/// Builds a list with every way of adding an item, converts it, and describes the result.
fn list_transcript(l: &Pmix) -> String {
    // SAFETY: prototypes of pmix.h; all inputs valid; everything created is released.
    unsafe {
        let start: Start = l.sym("PMIx_Info_list_start");
        let add: Add = l.sym("PMIx_Info_list_add");
        let insert: Insert = l.sym("PMIx_Info_list_insert");
        let xfer: XferL = l.sym("PMIx_Info_list_xfer");
        let convert: Convert = l.sym("PMIx_Info_list_convert");
        let release: Release = l.sym("PMIx_Info_list_release");
        let da_destruct: DaDestruct = l.sym("PMIx_Data_array_destruct");
        let info_load: InfoLoad = l.sym("PMIx_Info_load");
        let value_destruct: ValueDestruct = l.sym("PMIx_Value_destruct");

        let mut out = String::new();
        let list = start();
        let u = 7u32;
        out += &format!(
            "add={} ",
            add(list, c"k1".as_ptr(), (&u as *const u32).cast(), PMIX_UINT32)
        );
        out += &format!(
            "add={} ",
            add(list, c"k2".as_ptr(), c"str".as_ptr().cast(), PMIX_STRING)
        );
        // NULL data of a known type (PRRTE adds PMIX_SERVER_SYS_MONITOR as a NULL bool).
        out += &format!(
            "add={} ",
            add(list, c"k5".as_ptr(), std::ptr::null(), PMIX_BOOL)
        );
        out += &format!(
            "add={} ",
            add(list, c"k6".as_ptr(), std::ptr::null(), PMIX_UINT32)
        );
        let mut ins: pmix_info_t = zeroed();
        info_load(
            &mut ins,
            c"k3".as_ptr(),
            c"inserted".as_ptr().cast(),
            PMIX_STRING,
        );
        ins.flags = PMIX_INFO_REQD;
        out += &format!("insert={} ", insert(list, &mut ins));
        let mut x: pmix_info_t = zeroed();
        info_load(
            &mut x,
            c"k4".as_ptr(),
            (&u as *const u32).cast(),
            PMIX_UINT32,
        );
        x.flags = PMIX_INFO_REQD;
        out += &format!("xfer={} ", xfer(list, &x));
        let mut da: pmix_data_array_t = zeroed();
        out += &format!(
            "convert={} {} ",
            convert(list, &mut da),
            describe::darray(&da)
        );
        // The inserted info's value still belongs to us: the converted copy is persistent.
        let shared =
            (*da.array.cast::<pmix_info_t>().add(2)).value.data.string == ins.value.data.string;
        out += &format!("shared={shared} ");
        da_destruct(&mut da);
        release(list);
        out += &format!("after={:?} ", CStr::from_ptr(ins.value.data.string));
        value_destruct(&mut ins.value);
        value_destruct(&mut x.value);

        let empty = start();
        let mut d2: pmix_data_array_t = zeroed();
        out += &format!(
            "empty={} type={} size={}",
            convert(empty, &mut d2),
            d2.r#type,
            d2.size
        );
        release(empty);
        out
    }
}

#[test]
fn info_list_same_on_both() {
    let [r, o] = both();
    assert_eq!(list_transcript(r), list_transcript(o));
}

#[test]
fn info_list_rejects_bad_input() {
    let o = ours();
    // SAFETY: prototypes of pmix.h; deliberately bad handles and arguments.
    unsafe {
        let start: Start = o.sym("PMIx_Info_list_start");
        let add: Add = o.sym("PMIx_Info_list_add");
        let convert: Convert = o.sym("PMIx_Info_list_convert");
        let release: Release = o.sym("PMIx_Info_list_release");
        let u = 1u32;
        let mut bogus = 0u64;
        let bogus = (&mut bogus as *mut u64).cast::<c_void>();
        assert_eq!(
            add(bogus, c"k".as_ptr(), (&u as *const u32).cast(), PMIX_UINT32),
            PMIX_ERR_BAD_PARAM
        );
        let l = start();
        assert_eq!(
            add(l, std::ptr::null(), (&u as *const u32).cast(), PMIX_UINT32),
            PMIX_ERR_BAD_PARAM
        );
        // NULL data of a known type is not bad input: a zero datum, as the reference's
        // (list_transcript compares it); of an unknown type it is.
        assert_eq!(
            add(l, c"k".as_ptr(), std::ptr::null(), PMIX_UINT32),
            PMIX_SUCCESS
        );
        assert_eq!(
            add(l, c"k".as_ptr(), std::ptr::null(), 499),
            PMIX_ERR_BAD_PARAM
        );
        assert_eq!(
            add(l, c"k".as_ptr(), (&u as *const u32).cast(), 499),
            PMIX_ERR_UNKNOWN_DATA_TYPE
        );
        assert_eq!(convert(l, std::ptr::null_mut()), PMIX_ERR_BAD_PARAM);
        release(l);
        // A released handle is unknown now: no crash, an error.
        assert_eq!(
            add(l, c"k".as_ptr(), (&u as *const u32).cast(), PMIX_UINT32),
            PMIX_ERR_BAD_PARAM
        );
        release(l);
        release(bogus);
        release(std::ptr::null_mut());
    }
}

#[test]
fn attribute_dictionary_same_on_both() {
    let [r, o] = both();
    // SAFETY: prototypes of pmix.h.
    let (rn, on, rs, os): (Name, Name, Name, Name) = unsafe {
        (
            r.sym("PMIx_Get_attribute_name"),
            o.sym("PMIx_Get_attribute_name"),
            r.sym("PMIx_Get_attribute_string"),
            o.sym("PMIx_Get_attribute_string"),
        )
    };
    let text = |p: *const c_char| {
        // SAFETY: both libraries return NULL or a C string.
        unsafe { pmix_abi_tests::string(p) }
    };
    for a in ATTRIBUTES.iter().chain(DEPRECATED_ATTRIBUTES) {
        // SAFETY: C strings in, C strings out.
        unsafe {
            assert_eq!(
                text(rn(a.key.as_ptr())),
                text(on(a.key.as_ptr())),
                "name of {:?}",
                a.key
            );
            assert_eq!(
                text(rs(a.name.as_ptr())),
                text(os(a.name.as_ptr())),
                "string of {:?}",
                a.name
            );
        }
    }
    // The keys OpenPMIx 5.0 added: 4.2 answers with the input itself; ours names them.
    for a in ATTRIBUTES_V5 {
        // SAFETY: as above.
        unsafe {
            assert_eq!(text(rn(a.key.as_ptr())), text(a.key.as_ptr()));
            assert_eq!(
                text(on(a.key.as_ptr())),
                text(a.name.as_ptr()),
                "name of {:?}",
                a.key
            );
            assert_eq!(
                text(os(a.name.as_ptr())),
                text(a.key.as_ptr()),
                "string of {:?}",
                a.name
            );
        }
    }
    for unknown in [c"no.such.key", c"PMIX_NO_SUCH", c""] {
        // SAFETY: as above.
        unsafe {
            assert_eq!(text(rn(unknown.as_ptr())), text(on(unknown.as_ptr())));
            assert_eq!(text(rs(unknown.as_ptr())), text(os(unknown.as_ptr())));
        }
    }
    // NULL crashes the reference; ours gives NULL back.
    // SAFETY: NULL is accepted by ours.
    unsafe {
        assert!(on(std::ptr::null()).is_null());
        assert!(os(std::ptr::null()).is_null());
    }
}
