//! The OpenPMIx 5.0 exports in the bad-input test (see bad_input.rs): each called with NULL
//! for every pointer (counts 1) and with valid arguments. Objects the valid calls construct,
//! create or free are their own (scratch memory of `Args`, or made by the family's `_create`).
//! Derived from the prototypes of `docs/abi/openpmix-5.0.11.abi.json` by
//! `tests/gen/bad_input_table5.py` (do not edit: `make check-bad-input-table` compares).

#![allow(unused_variables, unused_imports)]

use std::ffi::{c_char, c_int, c_void};

use pmix_abi_tests::Pmix;
use pmix_sys::*;

use super::{Args, Entry, Kind, Mode, Outcome};

pub(crate) fn table() -> Vec<Entry> {
    vec![
        Entry {
            name: "PMIx_App_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_app_t) =
                    unsafe { l.sym("PMIx_App_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_app_t =
                    unsafe { l.sym("PMIx_App_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_app_t, usize) =
                                l.sym("PMIx_App_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_app_t) =
                    unsafe { l.sym("PMIx_App_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_app_t) =
                                l.sym("PMIx_App_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_app_t, usize) =
                    unsafe { l.sym("PMIx_App_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_app_t =
                                l.sym("PMIx_App_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_info_create",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_info_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_app_t, usize) =
                    unsafe { l.sym("PMIx_App_info_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_app_t) =
                                l.sym("PMIx_App_construct");
                            c(a.obj().cast());
                            f(a.obj().cast(), 2);
                            let d: unsafe extern "C" fn(*mut pmix_app_t) =
                                l.sym("PMIx_App_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_release",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_release in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_app_t) = unsafe { l.sym("PMIx_App_release") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_app_t =
                                l.sym("PMIx_App_create");
                            f(c(1));
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_App_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_App_string in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_app_t) -> *mut c_char =
                    unsafe { l.sym("PMIx_App_string") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                        _ => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_append_nosize",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_append_nosize in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut *mut c_char, *const c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Argv_append_nosize") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let mut v: *mut *mut c_char = std::ptr::null_mut();
                            let rc = f(&mut v, a.text());
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(v);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_append_unique_nosize",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_append_unique_nosize in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut *mut c_char, *const c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Argv_append_unique_nosize") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let mut v: *mut *mut c_char = std::ptr::null_mut();
                            let rc = f(&mut v, a.text());
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(v);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_copy",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_copy in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut c_char) -> *mut *mut c_char =
                    unsafe { l.sym("PMIx_Argv_copy") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(a.argv());
                            let ok = !p.is_null();
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(std::ptr::null_mut()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_count",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_count in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut c_char) -> c_int =
                    unsafe { l.sym("PMIx_Argv_count") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.argv()) as i64),
                        _ => Outcome::Int(f(std::ptr::null_mut()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut c_char) = unsafe { l.sym("PMIx_Argv_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let s: unsafe extern "C" fn(*const c_char, c_int) -> *mut *mut c_char =
                                l.sym("PMIx_Argv_split");
                            f(s(a.text(), b'.' as c_int));
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_join",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_join in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut c_char, c_int) -> *mut c_char =
                    unsafe { l.sym("PMIx_Argv_join") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(a.argv(), b',' as c_int);
                            let ok = !p.is_null();
                            libc::free(p.cast());
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(std::ptr::null_mut(), b',' as c_int).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_prepend_nosize",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_prepend_nosize in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut *mut *mut c_char, *const c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Argv_prepend_nosize") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let mut v: *mut *mut c_char = std::ptr::null_mut();
                            let rc = f(&mut v, a.text());
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(v);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_split",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_split in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char, c_int) -> *mut *mut c_char =
                    unsafe { l.sym("PMIx_Argv_split") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(a.text(), b'.' as c_int);
                            let ok = !p.is_null();
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(std::ptr::null(), b',' as c_int).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_split_inter",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_split_inter in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char, c_int, bool) -> *mut *mut c_char =
                    unsafe { l.sym("PMIx_Argv_split_inter") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(a.text(), b'.' as c_int, true);
                            let ok = !p.is_null();
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(std::ptr::null(), b',' as c_int, true).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Argv_split_with_empty",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Argv_split_with_empty in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char, c_int) -> *mut *mut c_char =
                    unsafe { l.sym("PMIx_Argv_split_with_empty") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(a.text(), b'.' as c_int);
                            let ok = !p.is_null();
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(std::ptr::null(), b',' as c_int).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Byte_object_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Byte_object_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_byte_object_t) =
                    unsafe { l.sym("PMIx_Byte_object_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Byte_object_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Byte_object_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_byte_object_t =
                    unsafe { l.sym("PMIx_Byte_object_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_byte_object_t, usize) =
                                l.sym("PMIx_Byte_object_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Byte_object_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Byte_object_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_byte_object_t) =
                    unsafe { l.sym("PMIx_Byte_object_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_byte_object_t) =
                                l.sym("PMIx_Byte_object_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Byte_object_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Byte_object_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_byte_object_t, usize) =
                    unsafe { l.sym("PMIx_Byte_object_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_byte_object_t =
                                l.sym("PMIx_Byte_object_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Byte_object_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Byte_object_load in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_byte_object_t, *mut c_char, usize) =
                    unsafe { l.sym("PMIx_Byte_object_load") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), libc::strdup(a.text()), 4);
                            let d: unsafe extern "C" fn(*mut pmix_byte_object_t) =
                                l.sym("PMIx_Byte_object_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Check_key",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Check_key in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char, *const c_char) -> bool =
                    unsafe { l.sym("PMIx_Check_key") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.text(), a.text()) as i64),
                        _ => Outcome::Int(f(std::ptr::null(), std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Check_nspace",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Check_nspace in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char, *const c_char) -> bool =
                    unsafe { l.sym("PMIx_Check_nspace") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.text(), a.text()) as i64),
                        _ => Outcome::Int(f(std::ptr::null(), std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Check_procid",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Check_procid in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_proc_t, *const pmix_proc_t) -> bool =
                    unsafe { l.sym("PMIx_Check_procid") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.procs(), a.procs()) as i64),
                        _ => Outcome::Int(f(std::ptr::null(), std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Check_rank",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Check_rank in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(pmix_rank_t, pmix_rank_t) -> bool =
                    unsafe { l.sym("PMIx_Check_rank") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(0, 0) as i64),
                        _ => Outcome::Int(f(0, 0) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Check_reserved_key",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Check_reserved_key in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char) -> bool =
                    unsafe { l.sym("PMIx_Check_reserved_key") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.text()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Coord_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Coord_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_coord_t) =
                    unsafe { l.sym("PMIx_Coord_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Coord_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Coord_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize, usize) -> *mut pmix_coord_t =
                    unsafe { l.sym("PMIx_Coord_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2, 1);
                            let fr: unsafe extern "C" fn(*mut pmix_coord_t, usize) =
                                l.sym("PMIx_Coord_free");
                            let ok = !p.is_null();
                            fr(p, 1);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1, 1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Coord_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Coord_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_coord_t) =
                    unsafe { l.sym("PMIx_Coord_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_coord_t) =
                                l.sym("PMIx_Coord_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Coord_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Coord_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_coord_t, usize) =
                    unsafe { l.sym("PMIx_Coord_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_coord_t =
                                l.sym("PMIx_Coord_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Cpuset_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Cpuset_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_cpuset_t) =
                    unsafe { l.sym("PMIx_Cpuset_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Cpuset_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Cpuset_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_cpuset_t =
                    unsafe { l.sym("PMIx_Cpuset_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_cpuset_t, usize) =
                                l.sym("PMIx_Cpuset_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Cpuset_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Cpuset_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_cpuset_t, usize) =
                    unsafe { l.sym("PMIx_Cpuset_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_cpuset_t =
                                l.sym("PMIx_Cpuset_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_array_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_array_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_array_t, usize, pmix_data_type_t) =
                    unsafe { l.sym("PMIx_Data_array_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), 2, PMIX_UINT8);
                            let d: unsafe extern "C" fn(*mut pmix_data_array_t) =
                                l.sym("PMIx_Data_array_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1, PMIX_STRING);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_array_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_array_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize, pmix_data_type_t) -> *mut pmix_data_array_t =
                    unsafe { l.sym("PMIx_Data_array_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2, PMIX_INFO);
                            let fr: unsafe extern "C" fn(*mut pmix_data_array_t) =
                                l.sym("PMIx_Data_array_free");
                            let ok = !p.is_null();
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1, PMIX_STRING).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_array_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_array_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_array_t) =
                    unsafe { l.sym("PMIx_Data_array_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(
                                usize,
                                pmix_data_type_t,
                            )
                                -> *mut pmix_data_array_t = l.sym("PMIx_Data_array_create");
                            f(c(2, PMIX_PROC));
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_array_init",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_array_init in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_array_t, pmix_data_type_t) =
                    unsafe { l.sym("PMIx_Data_array_init") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.darray(), PMIX_INFO);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), PMIX_STRING);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                    unsafe { l.sym("PMIx_Data_buffer_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn() -> *mut pmix_data_buffer_t =
                    unsafe { l.sym("PMIx_Data_buffer_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f();
                            let fr: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                                l.sym("PMIx_Data_buffer_release");
                            let ok = !p.is_null();
                            fr(p);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f().is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                    unsafe { l.sym("PMIx_Data_buffer_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                                l.sym("PMIx_Data_buffer_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_load in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_buffer_t, *mut c_char, usize) =
                    unsafe { l.sym("PMIx_Data_buffer_load") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), libc::strdup(a.text()), 4);
                            let d: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                                l.sym("PMIx_Data_buffer_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_release",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_release in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_buffer_t) =
                    unsafe { l.sym("PMIx_Data_buffer_release") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn() -> *mut pmix_data_buffer_t =
                                l.sym("PMIx_Data_buffer_create");
                            f(c());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_buffer_unload",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Data_buffer_unload in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_data_buffer_t, *mut *mut c_char, *mut usize) =
                    unsafe { l.sym("PMIx_Data_buffer_unload") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let mut b: *mut c_char = std::ptr::null_mut();
                            let mut n = 0usize;
                            f(a.dbuf(), &mut b, &mut n);
                            libc::free(b.cast());
                            Outcome::Void
                        }
                        _ => {
                            f(
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Device_distance_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Device_distance_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_device_distance_t) =
                    unsafe { l.sym("PMIx_Device_distance_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Device_distance_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Device_distance_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_device_distance_t =
                    unsafe { l.sym("PMIx_Device_distance_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_device_distance_t, usize) =
                                l.sym("PMIx_Device_distance_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Device_distance_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Device_distance_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_device_distance_t) =
                    unsafe { l.sym("PMIx_Device_distance_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_device_distance_t) =
                                l.sym("PMIx_Device_distance_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Device_distance_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Device_distance_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_device_distance_t, usize) =
                    unsafe { l.sym("PMIx_Device_distance_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_device_distance_t =
                                l.sym("PMIx_Device_distance_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disk_stats_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Disk_stats_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_disk_stats_t) =
                    unsafe { l.sym("PMIx_Disk_stats_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disk_stats_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Disk_stats_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_disk_stats_t =
                    unsafe { l.sym("PMIx_Disk_stats_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_disk_stats_t, usize) =
                                l.sym("PMIx_Disk_stats_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disk_stats_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Disk_stats_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_disk_stats_t) =
                    unsafe { l.sym("PMIx_Disk_stats_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_disk_stats_t) =
                                l.sym("PMIx_Disk_stats_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disk_stats_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Disk_stats_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_disk_stats_t, usize) =
                    unsafe { l.sym("PMIx_Disk_stats_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_disk_stats_t =
                                l.sym("PMIx_Disk_stats_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Endpoint_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Endpoint_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_endpoint_t) =
                    unsafe { l.sym("PMIx_Endpoint_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Endpoint_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Endpoint_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_endpoint_t =
                    unsafe { l.sym("PMIx_Endpoint_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_endpoint_t, usize) =
                                l.sym("PMIx_Endpoint_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Endpoint_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Endpoint_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_endpoint_t) =
                    unsafe { l.sym("PMIx_Endpoint_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_endpoint_t) =
                                l.sym("PMIx_Endpoint_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Endpoint_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Endpoint_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_endpoint_t, usize) =
                    unsafe { l.sym("PMIx_Endpoint_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_endpoint_t =
                                l.sym("PMIx_Endpoint_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Envar_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Envar_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_envar_t) =
                    unsafe { l.sym("PMIx_Envar_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Envar_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Envar_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_envar_t =
                    unsafe { l.sym("PMIx_Envar_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_envar_t, usize) =
                                l.sym("PMIx_Envar_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Envar_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Envar_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_envar_t) =
                    unsafe { l.sym("PMIx_Envar_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_envar_t) =
                                l.sym("PMIx_Envar_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Envar_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Envar_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_envar_t, usize) =
                    unsafe { l.sym("PMIx_Envar_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_envar_t =
                                l.sym("PMIx_Envar_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Envar_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Envar_load in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_envar_t, *mut c_char, *mut c_char, c_char) =
                    unsafe { l.sym("PMIx_Envar_load") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_envar_t) =
                                l.sym("PMIx_Envar_construct");
                            c(a.obj().cast());
                            f(a.obj().cast(), a.text(), a.text(), b':' as c_char);
                            let d: unsafe extern "C" fn(*mut pmix_envar_t) =
                                l.sym("PMIx_Envar_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                b':' as c_char,
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Error_code",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Error_code in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Error_code") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Status(f(a.text())),
                        _ => Outcome::Status(f(std::ptr::null())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Geometry_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Geometry_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_geometry_t) =
                    unsafe { l.sym("PMIx_Geometry_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Geometry_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Geometry_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_geometry_t =
                    unsafe { l.sym("PMIx_Geometry_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_geometry_t, usize) =
                                l.sym("PMIx_Geometry_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Geometry_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Geometry_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_geometry_t) =
                    unsafe { l.sym("PMIx_Geometry_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_geometry_t) =
                                l.sym("PMIx_Geometry_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Geometry_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Geometry_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_geometry_t, usize) =
                    unsafe { l.sym("PMIx_Geometry_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_geometry_t =
                                l.sym("PMIx_Geometry_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_info_t =
                    unsafe { l.sym("PMIx_Info_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_info_t, usize) =
                                l.sym("PMIx_Info_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_info_t) =
                                l.sym("PMIx_Info_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t, usize) =
                    unsafe { l.sym("PMIx_Info_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_info_t =
                                l.sym("PMIx_Info_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_get_size",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_get_size in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t, *mut usize) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Info_get_size") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Status(f(a.info(), std::ptr::null_mut())),
                        _ => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_is_end",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_is_end in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_is_end") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_is_optional",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_is_optional in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_is_optional") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_is_persistent",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_is_persistent in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_is_persistent") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_is_qualifier",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_is_qualifier in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_is_qualifier") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_is_required",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_is_required in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_is_required") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_add_unique",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_add_unique in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_char,
                    *const c_void,
                    pmix_data_type_t,
                    bool,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_add_unique") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let rc = f(h, a.text(), a.text().cast(), PMIX_STRING, true);
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_STRING,
                            true,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_add_value",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_add_value in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_char,
                    *const pmix_value_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_add_value") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let rc = f(h, a.text(), a.value());
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_add_value_unique",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_add_value_unique in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_char,
                    *const pmix_value_t,
                    bool,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_add_value_unique") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let rc = f(h, a.text(), a.value(), false);
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                            true,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_get_info",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_get_info in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *mut c_void,
                    *mut *mut c_void,
                ) -> *mut pmix_info_t = unsafe { l.sym("PMIx_Info_list_get_info") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let mut n: *mut c_void = std::ptr::null_mut();
                            let p = f(h, std::ptr::null_mut(), &mut n);
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Ptr(!p.is_null())
                        }
                        _ => Outcome::Ptr(
                            !f(
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                            )
                            .is_null(),
                        ),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_prepend",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_prepend in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_char,
                    *const c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_prepend") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let rc = f(h, a.text(), a.text().cast(), PMIX_STRING);
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_STRING,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_xfer_unique",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_list_xfer_unique in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const pmix_info_t,
                    bool,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_xfer_unique") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let l0: unsafe extern "C" fn() -> *mut c_void =
                                l.sym("PMIx_Info_list_start");
                            let h = l0();
                            let rc = f(h, a.info(), true);
                            let r: unsafe extern "C" fn(*mut c_void) =
                                l.sym("PMIx_Info_list_release");
                            r(h);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null(), true)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_optional",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_optional in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_optional") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_persistent",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_persistent in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_persistent") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_processed",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_processed in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_processed") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_qualifier",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_qualifier in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_qualifier") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_required",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_required in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_required") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_set_end",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_set_end in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_info_t) =
                    unsafe { l.sym("PMIx_Info_set_end") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.info());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_true",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_true in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> pmix_boolean_t =
                    unsafe { l.sym("PMIx_Info_true") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_was_processed",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Info_was_processed in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> bool =
                    unsafe { l.sym("PMIx_Info_was_processed") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.info()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Load_key",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Load_key in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut c_char, *const c_char) =
                    unsafe { l.sym("PMIx_Load_key") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), a.text());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Load_nspace",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Load_nspace in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut c_char, *const c_char) =
                    unsafe { l.sym("PMIx_Load_nspace") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), a.text());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Load_procid",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Load_procid in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t, *const c_char, pmix_rank_t) =
                    unsafe { l.sym("PMIx_Load_procid") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.procs(), a.text(), 0);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null(), 0);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Multicluster_nspace_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Multicluster_nspace_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut c_char, *mut c_char, *mut c_char) =
                    unsafe { l.sym("PMIx_Multicluster_nspace_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast(), a.text(), a.text());
                            Outcome::Void
                        }
                        _ => {
                            f(
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Multicluster_nspace_parse",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Multicluster_nspace_parse in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut c_char, *mut c_char, *mut c_char) =
                    unsafe { l.sym("PMIx_Multicluster_nspace_parse") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.text(), a.obj().cast(), a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                                std::ptr::null_mut(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Net_stats_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Net_stats_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_net_stats_t) =
                    unsafe { l.sym("PMIx_Net_stats_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Net_stats_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Net_stats_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_net_stats_t =
                    unsafe { l.sym("PMIx_Net_stats_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_net_stats_t, usize) =
                                l.sym("PMIx_Net_stats_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Net_stats_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Net_stats_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_net_stats_t) =
                    unsafe { l.sym("PMIx_Net_stats_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_net_stats_t) =
                                l.sym("PMIx_Net_stats_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Net_stats_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Net_stats_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_net_stats_t, usize) =
                    unsafe { l.sym("PMIx_Net_stats_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_net_stats_t =
                                l.sym("PMIx_Net_stats_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Node_stats_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Node_stats_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_node_stats_t) =
                    unsafe { l.sym("PMIx_Node_stats_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Node_stats_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Node_stats_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_node_stats_t =
                    unsafe { l.sym("PMIx_Node_stats_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_node_stats_t, usize) =
                                l.sym("PMIx_Node_stats_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Node_stats_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Node_stats_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_node_stats_t) =
                    unsafe { l.sym("PMIx_Node_stats_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_node_stats_t) =
                                l.sym("PMIx_Node_stats_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Node_stats_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Node_stats_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_node_stats_t, usize) =
                    unsafe { l.sym("PMIx_Node_stats_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_node_stats_t =
                                l.sym("PMIx_Node_stats_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Nspace_invalid",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Nspace_invalid in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const c_char) -> bool =
                    unsafe { l.sym("PMIx_Nspace_invalid") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.text()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Pdata_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Pdata_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_pdata_t) =
                    unsafe { l.sym("PMIx_Pdata_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Pdata_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Pdata_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_pdata_t =
                    unsafe { l.sym("PMIx_Pdata_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_pdata_t, usize) =
                                l.sym("PMIx_Pdata_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Pdata_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Pdata_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_pdata_t) =
                    unsafe { l.sym("PMIx_Pdata_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_pdata_t) =
                                l.sym("PMIx_Pdata_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Pdata_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Pdata_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_pdata_t, usize) =
                    unsafe { l.sym("PMIx_Pdata_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_pdata_t =
                                l.sym("PMIx_Pdata_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t) =
                    unsafe { l.sym("PMIx_Proc_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_proc_t =
                    unsafe { l.sym("PMIx_Proc_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_proc_t, usize) =
                                l.sym("PMIx_Proc_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t) =
                    unsafe { l.sym("PMIx_Proc_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_proc_t) =
                                l.sym("PMIx_Proc_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t, usize) =
                    unsafe { l.sym("PMIx_Proc_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_proc_t =
                                l.sym("PMIx_Proc_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_info_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_info_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_info_t) =
                    unsafe { l.sym("PMIx_Proc_info_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_info_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_info_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_proc_info_t =
                    unsafe { l.sym("PMIx_Proc_info_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_proc_info_t, usize) =
                                l.sym("PMIx_Proc_info_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_info_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_info_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_info_t) =
                    unsafe { l.sym("PMIx_Proc_info_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_proc_info_t) =
                                l.sym("PMIx_Proc_info_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_info_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_info_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_info_t, usize) =
                    unsafe { l.sym("PMIx_Proc_info_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_proc_info_t =
                                l.sym("PMIx_Proc_info_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_load in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t, *const c_char, pmix_rank_t) =
                    unsafe { l.sym("PMIx_Proc_load") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.procs(), a.text(), 0);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null(), 0);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_stats_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_stats_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_stats_t) =
                    unsafe { l.sym("PMIx_Proc_stats_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_stats_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_stats_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_proc_stats_t =
                    unsafe { l.sym("PMIx_Proc_stats_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_proc_stats_t, usize) =
                                l.sym("PMIx_Proc_stats_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_stats_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_stats_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_stats_t) =
                    unsafe { l.sym("PMIx_Proc_stats_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_proc_stats_t) =
                                l.sym("PMIx_Proc_stats_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_stats_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_stats_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_stats_t, usize) =
                    unsafe { l.sym("PMIx_Proc_stats_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_proc_stats_t =
                                l.sym("PMIx_Proc_stats_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Proc_string in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_proc_t) -> *mut c_char =
                    unsafe { l.sym("PMIx_Proc_string") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Ptr(!f(a.procs()).is_null()),
                        _ => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Procid_invalid",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Procid_invalid in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_proc_t) -> bool =
                    unsafe { l.sym("PMIx_Procid_invalid") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.procs()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_query_t) =
                    unsafe { l.sym("PMIx_Query_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_query_t =
                    unsafe { l.sym("PMIx_Query_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_query_t, usize) =
                                l.sym("PMIx_Query_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_query_t) =
                    unsafe { l.sym("PMIx_Query_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_query_t) =
                                l.sym("PMIx_Query_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_query_t, usize) =
                    unsafe { l.sym("PMIx_Query_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_query_t =
                                l.sym("PMIx_Query_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_qualifiers_create",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_qualifiers_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_query_t, usize) =
                    unsafe { l.sym("PMIx_Query_qualifiers_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_query_t) =
                                l.sym("PMIx_Query_construct");
                            c(a.obj().cast());
                            f(a.obj().cast(), 2);
                            let d: unsafe extern "C" fn(*mut pmix_query_t) =
                                l.sym("PMIx_Query_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_release",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Query_release in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_query_t) =
                    unsafe { l.sym("PMIx_Query_release") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_query_t =
                                l.sym("PMIx_Query_create");
                            f(c(1));
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_regattr_t) =
                    unsafe { l.sym("PMIx_Regattr_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_regattr_t =
                    unsafe { l.sym("PMIx_Regattr_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_regattr_t, usize) =
                                l.sym("PMIx_Regattr_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_destruct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_regattr_t) =
                    unsafe { l.sym("PMIx_Regattr_destruct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_regattr_t) =
                                l.sym("PMIx_Regattr_construct");
                            c(a.obj().cast());
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_regattr_t, usize) =
                    unsafe { l.sym("PMIx_Regattr_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_regattr_t =
                                l.sym("PMIx_Regattr_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_load in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *mut pmix_regattr_t,
                    *const c_char,
                    *const c_char,
                    pmix_data_type_t,
                    *const c_char,
                ) = unsafe { l.sym("PMIx_Regattr_load") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(*mut pmix_regattr_t) =
                                l.sym("PMIx_Regattr_construct");
                            c(a.obj().cast());
                            f(a.obj().cast(), a.text(), a.text(), PMIX_UINT32, a.text());
                            let d: unsafe extern "C" fn(*mut pmix_regattr_t) =
                                l.sym("PMIx_Regattr_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(
                                std::ptr::null_mut(),
                                std::ptr::null(),
                                std::ptr::null(),
                                PMIX_STRING,
                                std::ptr::null(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Regattr_xfer",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Regattr_xfer in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_regattr_t, *const pmix_regattr_t) =
                    unsafe { l.sym("PMIx_Regattr_xfer") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let src: pmix_regattr_t = std::mem::zeroed();
                            f(a.obj().cast(), &src);
                            let d: unsafe extern "C" fn(*mut pmix_regattr_t) =
                                l.sym("PMIx_Regattr_destruct");
                            d(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Session_control",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Session_control in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    u32,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Session_control") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            Outcome::Status(f(1, a.info(), 1, None, std::ptr::null_mut()))
                        }
                        _ => Outcome::Status(f(0, std::ptr::null(), 1, None, std::ptr::null_mut())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Setenv",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Setenv in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const c_char,
                    bool,
                    *mut *mut *mut c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Setenv") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let mut env: *mut *mut c_char = std::ptr::null_mut();
                            let rc = f(a.text(), a.text(), true, &mut env);
                            let fr: unsafe extern "C" fn(*mut *mut c_char) =
                                l.sym("PMIx_Argv_free");
                            fr(env);
                            Outcome::Status(rc)
                        }
                        _ => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            true,
                            std::ptr::null_mut(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Topology_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Topology_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_topology_t) =
                    unsafe { l.sym("PMIx_Topology_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Topology_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Topology_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_topology_t =
                    unsafe { l.sym("PMIx_Topology_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_topology_t, usize) =
                                l.sym("PMIx_Topology_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Topology_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Topology_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_topology_t, usize) =
                    unsafe { l.sym("PMIx_Topology_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_topology_t =
                                l.sym("PMIx_Topology_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_construct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Value_construct in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_value_t) =
                    unsafe { l.sym("PMIx_Value_construct") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.obj().cast());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_create",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Value_create in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(usize) -> *mut pmix_value_t =
                    unsafe { l.sym("PMIx_Value_create") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let p = f(2);
                            let fr: unsafe extern "C" fn(*mut pmix_value_t, usize) =
                                l.sym("PMIx_Value_free");
                            let ok = !p.is_null();
                            fr(p, 2);
                            Outcome::Ptr(ok)
                        }
                        _ => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_free",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Value_free in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_value_t, usize) =
                    unsafe { l.sym("PMIx_Value_free") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            let c: unsafe extern "C" fn(usize) -> *mut pmix_value_t =
                                l.sym("PMIx_Value_create");
                            f(c(2), 2);
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), 1);
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_get_size",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Value_get_size in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_value_t, *mut usize) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Value_get_size") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Status(f(a.value(), std::ptr::null_mut())),
                        _ => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_true",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Value_true in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*const pmix_value_t) -> pmix_boolean_t =
                    unsafe { l.sym("PMIx_Value_true") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f(a.value()) as i64),
                        _ => Outcome::Int(f(std::ptr::null()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Xfer_procid",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_Xfer_procid in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_proc_t, *const pmix_proc_t) =
                    unsafe { l.sym("PMIx_Xfer_procid") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => {
                            f(a.procs(), a.procs());
                            Outcome::Void
                        }
                        _ => {
                            f(std::ptr::null_mut(), std::ptr::null());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_is_connected",
            kind: Kind::Implemented,
            modes: &[Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_tool_is_connected in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn() -> bool = unsafe { l.sym("PMIx_tool_is_connected") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Int(f() as i64),
                        _ => Outcome::Int(f() as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_set_server_module",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `f` has the prototype of PMIx_tool_set_server_module in OpenPMIx 5.0.11.
                let f: unsafe extern "C" fn(*mut pmix_server_module_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_tool_set_server_module") };
                // SAFETY: NULL pointers, or valid data and objects made for the call.
                unsafe {
                    match mode {
                        Mode::Valid => Outcome::Status(f(a.module())),
                        _ => Outcome::Status(f(std::ptr::null_mut())),
                    }
                }
            },
        },
    ]
}
