//! Every export, four ways of calling it (see bad_input.rs). Generated from the reference
//! prototypes; regenerate rather than edit when a prototype changes.

#![allow(unused_variables, unused_imports)]

use std::ffi::{c_char, c_int, c_void};

use pmix_abi_tests::Pmix;
use pmix_sys::*;

use super::{Args, Entry, Kind, Mode, Outcome, cb};

pub(crate) fn table() -> Vec<Entry> {
    vec![
        Entry {
            name: "PMIx_Abort",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Abort in the reference headers.
                let f: unsafe extern "C" fn(
                    c_int,
                    *const c_char,
                    *mut pmix_proc_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Abort") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(1, std::ptr::null(), std::ptr::null_mut(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(1, a.text().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(1, a.text().cast(), a.procs_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(1, a.text().cast(), a.procs().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Alloc_directive_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Alloc_directive_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_alloc_directive_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Alloc_directive_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_ALLOC_NEW).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_ALLOC_NEW).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_ALLOC_NEW).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_ALLOC_NEW).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Allocation_request",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Allocation_request in the reference headers.
                let f: unsafe extern "C" fn(
                    pmix_alloc_directive_t,
                    *mut pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Allocation_request") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            std::ptr::null_mut(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            std::ptr::null_mut(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Allocation_request_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Allocation_request_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    pmix_alloc_directive_t,
                    *mut pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Allocation_request_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            PMIX_ALLOC_NEW,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Commit",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Commit in the reference headers.
                let f: unsafe extern "C" fn() -> pmix_status_t = unsafe { l.sym("PMIx_Commit") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f()),
                        Mode::NullCount => Outcome::Status(f()),
                        Mode::BadKey => Outcome::Status(f()),
                        Mode::Valid => Outcome::Status(f()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Compute_distances",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Compute_distances in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_topology_t,
                    *mut pmix_cpuset_t,
                    *mut pmix_info_t,
                    usize,
                    *mut *mut pmix_device_distance_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Compute_distances") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            std::ptr::null_mut(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Compute_distances_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Compute_distances_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_topology_t,
                    *mut pmix_cpuset_t,
                    *mut pmix_info_t,
                    usize,
                    pmix_device_dist_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Compute_distances_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_device_dist_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_device_dist_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.topo().cast(),
                            a.cpuset().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_device_dist_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Connect",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Connect in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Connect") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(std::ptr::null(), 1, std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), 1, a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), 1, a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Connect_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Connect_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Connect_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Cpuset_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Cpuset_destruct in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_cpuset_t) =
                    unsafe { l.sym("PMIx_Cpuset_destruct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(a.cpuset().cast());
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(a.cpuset().cast());
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(a.cpuset().cast());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_array_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_array_destruct in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_data_array_t) =
                    unsafe { l.sym("PMIx_Data_array_destruct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(a.darray().cast());
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(a.darray().cast());
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(a.darray().cast());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_compress",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::NullCount, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_compress in the reference headers.
                let f: unsafe extern "C" fn(*const u8, usize, *mut *mut u8, *mut usize) -> bool =
                    unsafe { l.sym("PMIx_Data_compress") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Int(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        ) as i64),
                        Mode::NullCount => Outcome::Int(f(
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                        Mode::BadKey => Outcome::Int(f(
                            a.bytes().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                        Mode::Valid => Outcome::Int(f(
                            a.bytes().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_copy",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_copy in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut *mut c_void,
                    *mut c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_copy") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.out_ptr().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.out_ptr().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.out_ptr().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_copy_payload",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_copy_payload in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_data_buffer_t,
                    *mut pmix_data_buffer_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_copy_payload") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(a.dbuf().cast(), a.dbuf().cast())),
                        Mode::BadKey => Outcome::Status(f(a.dbuf().cast(), a.dbuf().cast())),
                        Mode::Valid => Outcome::Status(f(a.dbuf().cast(), a.dbuf().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_decompress",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::NullCount, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_decompress in the reference headers.
                let f: unsafe extern "C" fn(*const u8, usize, *mut *mut u8, *mut usize) -> bool =
                    unsafe { l.sym("PMIx_Data_decompress") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Int(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        ) as i64),
                        Mode::NullCount => Outcome::Int(f(
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                        Mode::BadKey => Outcome::Int(f(
                            a.bytes().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                        Mode::Valid => Outcome::Int(f(
                            a.bytes().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        ) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_embed",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_embed in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_data_buffer_t,
                    *const pmix_byte_object_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_embed") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::BadKey => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::Valid => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_load in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_data_buffer_t,
                    *mut pmix_byte_object_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_load") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::BadKey => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::Valid => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_pack",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_pack in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *mut pmix_data_buffer_t,
                    *mut c_void,
                    i32,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_pack") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            1,
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            1,
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            1,
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            1,
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_print",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_print in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut *mut c_char,
                    *mut c_char,
                    *mut c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_print") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.argv(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.argv(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.argv(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_range_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_range_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_data_range_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Data_range_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_RANGE_LOCAL).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_RANGE_LOCAL).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_RANGE_LOCAL).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_RANGE_LOCAL).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_type_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_type_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_data_type_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Data_type_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_UINT32).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_UINT32).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_UINT32).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_UINT32).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_unload",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_unload in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_data_buffer_t,
                    *mut pmix_byte_object_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_unload") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::BadKey => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                        Mode::Valid => Outcome::Status(f(a.dbuf().cast(), a.bo().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Data_unpack",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Data_unpack in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *mut pmix_data_buffer_t,
                    *mut c_void,
                    *mut i32,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Data_unpack") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            a.i32_out().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            a.i32_out().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            a.dbuf().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            a.i32_out().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Deregister_event_handler",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Deregister_event_handler in the reference headers.
                let f: unsafe extern "C" fn(usize, pmix_op_cbfunc_t, *mut c_void) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Deregister_event_handler") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(0, None, std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Device_type_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Device_type_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_device_type_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Device_type_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disconnect",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Disconnect in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Disconnect") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(std::ptr::null(), 1, std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), 1, a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), 1, a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Disconnect_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Disconnect_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Disconnect_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Error_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Error_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_status_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Error_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_ERR_BAD_PARAM).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_ERR_BAD_PARAM).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_ERR_BAD_PARAM).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_ERR_BAD_PARAM).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_deregister",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_deregister in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_fabric_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Fabric_deregister") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.fabric().cast())),
                        Mode::BadKey => Outcome::Status(f(a.fabric().cast())),
                        Mode::Valid => Outcome::Status(f(a.fabric().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_deregister_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_deregister_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_fabric_t,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fabric_deregister_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_register",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_register in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_fabric_t,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fabric_register") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(a.fabric().cast(), std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.fabric().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.fabric().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_register_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_register_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_fabric_t,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fabric_register_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.fabric().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.fabric().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.fabric().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_update",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_update in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_fabric_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Fabric_update") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.fabric().cast())),
                        Mode::BadKey => Outcome::Status(f(a.fabric().cast())),
                        Mode::Valid => Outcome::Status(f(a.fabric().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fabric_update_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fabric_update_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_fabric_t,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fabric_update_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.fabric().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fence",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fence in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fence") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(std::ptr::null(), 1, std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), 1, a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), 1, a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Fence_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Fence_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Fence_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Finalize",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Finalize in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_info_t, usize) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Finalize") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0)),
                        Mode::NullCount => Outcome::Status(f(std::ptr::null(), 1)),
                        Mode::BadKey => Outcome::Status(f(a.info_bad().cast(), 1)),
                        Mode::Valid => Outcome::Status(f(a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_value_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_attribute_name",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_attribute_name in the reference headers.
                let f: unsafe extern "C" fn(*const c_char) -> *const c_char =
                    unsafe { l.sym("PMIx_Get_attribute_name") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(a.text().cast()).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(a.text().cast()).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(a.text().cast()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_attribute_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_attribute_string in the reference headers.
                let f: unsafe extern "C" fn(*const c_char) -> *const c_char =
                    unsafe { l.sym("PMIx_Get_attribute_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(a.text().cast()).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(a.text().cast()).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(a.text().cast()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_cpuset",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_cpuset in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_cpuset_t,
                    pmix_bind_envelope_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get_cpuset") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), PMIX_CPUBIND_PROCESS))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.cpuset().cast(), PMIX_CPUBIND_PROCESS))
                        }
                        Mode::BadKey => Outcome::Status(f(a.cpuset().cast(), PMIX_CPUBIND_PROCESS)),
                        Mode::Valid => Outcome::Status(f(a.cpuset().cast(), PMIX_CPUBIND_PROCESS)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_credential",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_credential in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    *mut pmix_byte_object_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get_credential") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(std::ptr::null(), 1, a.bo().cast())),
                        Mode::BadKey => Outcome::Status(f(a.info_bad().cast(), 1, a.bo().cast())),
                        Mode::Valid => Outcome::Status(f(a.info().cast(), 1, a.bo().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_credential_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_credential_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    pmix_credential_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get_credential_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            cb::pmix_credential_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            cb::pmix_credential_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            cb::pmix_credential_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                    pmix_value_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_value_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_value_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_value_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_relative_locality",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_relative_locality in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const c_char,
                    *mut pmix_locality_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Get_relative_locality") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => {
                            Outcome::Status(f(a.text().cast(), a.text().cast(), a.loc().cast()))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.text().cast(), a.text().cast(), a.loc().cast()))
                        }
                        Mode::Valid => {
                            Outcome::Status(f(a.text().cast(), a.text().cast(), a.loc().cast()))
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Get_version",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Get_version in the reference headers.
                let f: unsafe extern "C" fn() -> *const c_char =
                    unsafe { l.sym("PMIx_Get_version") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f().is_null()),
                        Mode::NullCount => Outcome::Ptr(!f().is_null()),
                        Mode::BadKey => Outcome::Ptr(!f().is_null()),
                        Mode::Valid => Outcome::Ptr(!f().is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_construct",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_construct in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_construct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_construct_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_construct_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_construct_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_destruct",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_destruct in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_destruct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null(), 0)),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), std::ptr::null(), 1)),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.info_bad().cast(), 1)),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_destruct_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_destruct_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_destruct_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_invite",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_invite in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_invite") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_invite_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_invite_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_invite_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_join",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_join in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    pmix_group_opt_t,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_join") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_GROUP_ACCEPT,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            PMIX_GROUP_ACCEPT,
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            PMIX_GROUP_ACCEPT,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            PMIX_GROUP_ACCEPT,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_join_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_join_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_proc_t,
                    pmix_group_opt_t,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_join_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_GROUP_ACCEPT,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            PMIX_GROUP_ACCEPT,
                            std::ptr::null(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.procs_bad().cast(),
                            PMIX_GROUP_ACCEPT,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.procs().cast(),
                            PMIX_GROUP_ACCEPT,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_leave",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_leave in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_leave") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null(), 0)),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), std::ptr::null(), 1)),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.info_bad().cast(), 1)),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Group_leave_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Group_leave_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Group_leave_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_IOF_channel_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_IOF_channel_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_iof_channel_t) -> *const c_char =
                    unsafe { l.sym("PMIx_IOF_channel_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_FWD_STDOUT_CHANNEL).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_FWD_STDOUT_CHANNEL).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_FWD_STDOUT_CHANNEL).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_FWD_STDOUT_CHANNEL).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_IOF_deregister",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_IOF_deregister in the reference headers.
                let f: unsafe extern "C" fn(
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_IOF_deregister") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(0, std::ptr::null(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_IOF_pull",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_IOF_pull in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_iof_channel_t,
                    pmix_iof_cbfunc_t,
                    pmix_hdlr_reg_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_IOF_pull") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            PMIX_FWD_STDOUT_CHANNEL,
                            None,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            PMIX_FWD_STDOUT_CHANNEL,
                            cb::pmix_iof_cbfunc_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            PMIX_FWD_STDOUT_CHANNEL,
                            cb::pmix_iof_cbfunc_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            PMIX_FWD_STDOUT_CHANNEL,
                            cb::pmix_iof_cbfunc_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_IOF_push",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_IOF_push in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *mut pmix_byte_object_t,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_IOF_push") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            a.bo().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.bo().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.bo().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_directives_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_directives_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_info_directives_t) -> *mut c_char =
                    unsafe { l.sym("PMIx_Info_directives_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_add",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_add in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut c_void,
                    *const c_char,
                    *const c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_list_add") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_convert",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_convert in the reference headers.
                let f: unsafe extern "C" fn(*mut c_void, *mut pmix_data_array_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Info_list_convert") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.darray().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.darray().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.darray().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_insert",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_insert in the reference headers.
                let f: unsafe extern "C" fn(*mut c_void, *mut pmix_info_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Info_list_insert") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info_bad().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_release",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_release in the reference headers.
                let f: unsafe extern "C" fn(*mut c_void) =
                    unsafe { l.sym("PMIx_Info_list_release") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(std::ptr::null_mut::<c_void>().cast());
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(std::ptr::null_mut::<c_void>().cast());
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(std::ptr::null_mut::<c_void>().cast());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_start",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_start in the reference headers.
                let f: unsafe extern "C" fn() -> *mut c_void =
                    unsafe { l.sym("PMIx_Info_list_start") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f().is_null()),
                        Mode::NullCount => Outcome::Ptr(!f().is_null()),
                        Mode::BadKey => Outcome::Ptr(!f().is_null()),
                        Mode::Valid => Outcome::Ptr(!f().is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_list_xfer",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_list_xfer in the reference headers.
                let f: unsafe extern "C" fn(*mut c_void, *const pmix_info_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Info_list_xfer") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info_bad().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            std::ptr::null_mut::<c_void>().cast(),
                            a.info().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_load",
            kind: Kind::Implemented,
            // No BadKey mode: the key is an input C string here, and NULL data is valid (the
            // reference loads a zeroed datum, `true` for PMIX_BOOL).
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_load in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_info_t,
                    *const c_char,
                    *const c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Info_load") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            std::ptr::null(),
                            PMIX_UINT32,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.info().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            a.text().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_string in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_info_t) -> *mut c_char =
                    unsafe { l.sym("PMIx_Info_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(a.info().cast()).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(a.info_bad().cast()).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(a.info().cast()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Info_xfer",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Info_xfer in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_info_t, *const pmix_info_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Info_xfer") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(a.info().cast(), a.info().cast())),
                        Mode::BadKey => {
                            Outcome::Status(f(a.info_bad().cast(), a.info_bad().cast()))
                        }
                        Mode::Valid => Outcome::Status(f(a.info().cast(), a.info().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Init",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Init in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_proc_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Init") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.procs().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Initialized",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Initialized in the reference headers.
                let f: unsafe extern "C" fn() -> c_int = unsafe { l.sym("PMIx_Initialized") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Int(f() as i64),
                        Mode::NullCount => Outcome::Int(f() as i64),
                        Mode::BadKey => Outcome::Int(f() as i64),
                        Mode::Valid => Outcome::Int(f() as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Job_control",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Job_control in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Job_control") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Job_control_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Job_control_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Job_control_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Job_state_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Job_state_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_job_state_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Job_state_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Link_state_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Link_state_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_link_state_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Link_state_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Load_topology",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Load_topology in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_topology_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Load_topology") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.topo().cast())),
                        Mode::BadKey => Outcome::Status(f(a.topo().cast())),
                        Mode::Valid => Outcome::Status(f(a.topo().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Log",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Log in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Log") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(std::ptr::null(), 1, std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.info_bad().cast(), 1, a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.info().cast(), 1, a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Log_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Log_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Log_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Lookup",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Lookup in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_pdata_t,
                    usize,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Lookup") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), 0, std::ptr::null(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(std::ptr::null_mut(), 1, std::ptr::null(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.pdata_bad().cast(), 1, a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.pdata().cast(), 1, a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Lookup_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Lookup_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut *mut c_char,
                    *const pmix_info_t,
                    usize,
                    pmix_lookup_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Lookup_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.argv(),
                            std::ptr::null(),
                            1,
                            cb::pmix_lookup_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.argv(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_lookup_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.argv(),
                            a.info().cast(),
                            1,
                            cb::pmix_lookup_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Notify_event",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Notify_event in the reference headers.
                let f: unsafe extern "C" fn(
                    pmix_status_t,
                    *const pmix_proc_t,
                    pmix_data_range_t,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Notify_event") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            PMIX_ERR_BAD_PARAM,
                            std::ptr::null(),
                            PMIX_RANGE_LOCAL,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            PMIX_ERR_BAD_PARAM,
                            a.procs().cast(),
                            PMIX_RANGE_LOCAL,
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            PMIX_ERR_BAD_PARAM,
                            a.procs_bad().cast(),
                            PMIX_RANGE_LOCAL,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            PMIX_ERR_BAD_PARAM,
                            a.procs().cast(),
                            PMIX_RANGE_LOCAL,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Parse_cpuset_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Parse_cpuset_string in the reference headers.
                let f: unsafe extern "C" fn(*const c_char, *mut pmix_cpuset_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Parse_cpuset_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), a.cpuset().cast())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.cpuset().cast())),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.cpuset().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Persistence_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Persistence_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_persistence_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Persistence_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Proc_state_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Proc_state_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_proc_state_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Proc_state_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(1).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(1).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(1).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(1).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Process_monitor",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Process_monitor in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    pmix_status_t,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Process_monitor") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            PMIX_ERR_BAD_PARAM,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.info().cast(),
                            PMIX_ERR_BAD_PARAM,
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            PMIX_ERR_BAD_PARAM,
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            PMIX_ERR_BAD_PARAM,
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Process_monitor_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Process_monitor_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    pmix_status_t,
                    *const pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Process_monitor_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            PMIX_ERR_BAD_PARAM,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.info().cast(),
                            PMIX_ERR_BAD_PARAM,
                            std::ptr::null(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            PMIX_ERR_BAD_PARAM,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            PMIX_ERR_BAD_PARAM,
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Progress",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Progress in the reference headers.
                let f: unsafe extern "C" fn() = unsafe { l.sym("PMIx_Progress") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f();
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f();
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f();
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f();
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Publish",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Publish in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_info_t, usize) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Publish") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0)),
                        Mode::NullCount => Outcome::Status(f(std::ptr::null(), 1)),
                        Mode::BadKey => Outcome::Status(f(a.info_bad().cast(), 1)),
                        Mode::Valid => Outcome::Status(f(a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Publish_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Publish_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Publish_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Put",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Put in the reference headers.
                let f: unsafe extern "C" fn(
                    pmix_scope_t,
                    *const c_char,
                    *mut pmix_value_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Put") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(PMIX_GLOBAL, std::ptr::null(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(PMIX_GLOBAL, a.text().cast(), a.value().cast()))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(PMIX_GLOBAL, a.text().cast(), a.value().cast()))
                        }
                        Mode::Valid => {
                            Outcome::Status(f(PMIX_GLOBAL, a.text().cast(), a.value().cast()))
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_info",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::NullCount, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Query_info in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_query_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Query_info") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.query().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.query().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Query_info_nb",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::NullCount, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Query_info_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_query_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Query_info_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.query().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.query().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Register_attributes",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Register_attributes in the reference headers.
                let f: unsafe extern "C" fn(*mut c_char, *mut *mut c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Register_attributes") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Register_event_handler",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Register_event_handler in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_status_t,
                    usize,
                    *mut pmix_info_t,
                    usize,
                    pmix_notification_fn_t,
                    pmix_hdlr_reg_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Register_event_handler") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            0,
                            std::ptr::null_mut(),
                            0,
                            None,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_notification_fn_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.codes().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_notification_fn_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.codes().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_notification_fn_t(),
                            cb::pmix_hdlr_reg_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Resolve_nodes",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Resolve_nodes in the reference headers.
                let f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_Resolve_nodes") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Resolve_peers",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Resolve_peers in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *const c_char,
                    *mut *mut pmix_proc_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Resolve_peers") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            a.text().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.text().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.text().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Scope_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Scope_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_scope_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Scope_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(PMIX_GLOBAL).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(PMIX_GLOBAL).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(PMIX_GLOBAL).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(PMIX_GLOBAL).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Spawn",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Spawn in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    *const pmix_app_t,
                    usize,
                    *mut c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Spawn") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            a.text().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            a.app().cast(),
                            1,
                            a.text().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            a.app().cast(),
                            1,
                            a.text().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Spawn_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Spawn_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_info_t,
                    usize,
                    *const pmix_app_t,
                    usize,
                    pmix_spawn_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Spawn_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null(),
                            1,
                            cb::pmix_spawn_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            a.app().cast(),
                            1,
                            cb::pmix_spawn_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            a.app().cast(),
                            1,
                            cb::pmix_spawn_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Store_internal",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Store_internal in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *const c_char,
                    *mut pmix_value_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Store_internal") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => {
                            Outcome::Status(f(a.procs().cast(), a.text().cast(), a.value().cast()))
                        }
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.text().cast(),
                            a.value().cast(),
                        )),
                        Mode::Valid => {
                            Outcome::Status(f(a.procs().cast(), a.text().cast(), a.value().cast()))
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Topology_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Topology_destruct in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_topology_t) =
                    unsafe { l.sym("PMIx_Topology_destruct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(a.topo().cast());
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(a.topo().cast());
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(a.topo().cast());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Unpublish",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Unpublish in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut *mut c_char,
                    *const pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Unpublish") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null(), 0)),
                        Mode::NullCount => Outcome::Status(f(a.argv(), std::ptr::null(), 1)),
                        Mode::BadKey => Outcome::Status(f(a.argv(), a.info_bad().cast(), 1)),
                        Mode::Valid => Outcome::Status(f(a.argv(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Unpublish_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Unpublish_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut *mut c_char,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Unpublish_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.argv(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.argv(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.argv(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Validate_credential",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Validate_credential in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_byte_object_t,
                    *const pmix_info_t,
                    usize,
                    *mut *mut pmix_info_t,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Validate_credential") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.bo().cast(),
                            std::ptr::null(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.bo().cast(),
                            a.info_bad().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.bo().cast(),
                            a.info().cast(),
                            1,
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Validate_credential_nb",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Validate_credential_nb in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_byte_object_t,
                    *const pmix_info_t,
                    usize,
                    pmix_validation_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Validate_credential_nb") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.bo().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_validation_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.bo().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_validation_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.bo().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_validation_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_compare",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_compare in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_value_t,
                    *mut pmix_value_t,
                ) -> pmix_value_cmp_t = unsafe { l.sym("PMIx_Value_compare") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Int(f(std::ptr::null_mut(), std::ptr::null_mut()) as i64)
                        }
                        Mode::NullCount => {
                            Outcome::Int(f(a.value().cast(), a.value().cast()) as i64)
                        }
                        Mode::BadKey => Outcome::Int(f(a.value().cast(), a.value().cast()) as i64),
                        Mode::Valid => Outcome::Int(f(a.value().cast(), a.value().cast()) as i64),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_comparison_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_comparison_string in the reference headers.
                let f: unsafe extern "C" fn(pmix_value_cmp_t) -> *const c_char =
                    unsafe { l.sym("PMIx_Value_comparison_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(0).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(0).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(0).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(0).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_destruct",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_destruct in the reference headers.
                let f: unsafe extern "C" fn(*mut pmix_value_t) =
                    unsafe { l.sym("PMIx_Value_destruct") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(a.value().cast());
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(a.value().cast());
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(a.value().cast());
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_load",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_load in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_value_t,
                    *const c_void,
                    pmix_data_type_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Value_load") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null(), PMIX_UINT32))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            a.value().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.value().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.value().cast(),
                            std::ptr::null_mut::<c_void>().cast(),
                            PMIX_UINT32,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_string in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_value_t) -> *mut c_char =
                    unsafe { l.sym("PMIx_Value_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Ptr(!f(std::ptr::null()).is_null()),
                        Mode::NullCount => Outcome::Ptr(!f(a.value().cast()).is_null()),
                        Mode::BadKey => Outcome::Ptr(!f(a.value().cast()).is_null()),
                        Mode::Valid => Outcome::Ptr(!f(a.value().cast()).is_null()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_unload",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_unload in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_value_t,
                    *mut *mut c_void,
                    *mut usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Value_unload") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.value().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.value().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.value().cast(),
                            a.out_ptr().cast(),
                            a.size_out().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_Value_xfer",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_Value_xfer in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_value_t,
                    *const pmix_value_t,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_Value_xfer") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut(), std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(a.value().cast(), a.value().cast())),
                        Mode::BadKey => Outcome::Status(f(a.value().cast(), a.value().cast())),
                        Mode::Valid => Outcome::Status(f(a.value().cast(), a.value().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_generate_ppn",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_generate_ppn in the reference headers.
                let f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_generate_ppn") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_generate_regex",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_generate_regex in the reference headers.
                let f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_generate_regex") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.text().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_IOF_deliver",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_IOF_deliver in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    pmix_iof_channel_t,
                    *const pmix_byte_object_t,
                    *const pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_IOF_deliver") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            PMIX_FWD_STDOUT_CHANNEL,
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            PMIX_FWD_STDOUT_CHANNEL,
                            a.bo().cast(),
                            std::ptr::null(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            PMIX_FWD_STDOUT_CHANNEL,
                            a.bo().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            PMIX_FWD_STDOUT_CHANNEL,
                            a.bo().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_collect_inventory",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_collect_inventory in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_info_t,
                    usize,
                    pmix_info_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_collect_inventory") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            cb::pmix_info_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_define_process_set",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_define_process_set in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    usize,
                    *const c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_define_process_set") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), 0, std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(std::ptr::null(), 1, a.text().cast())),
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), 1, a.text().cast()))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), 1, a.text().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_delete_process_set",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_delete_process_set in the reference headers.
                let f: unsafe extern "C" fn(*mut c_char) -> pmix_status_t =
                    unsafe { l.sym("PMIx_server_delete_process_set") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.text().cast())),
                        Mode::BadKey => Outcome::Status(f(a.text().cast())),
                        Mode::Valid => Outcome::Status(f(a.text().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_deliver_inventory",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_deliver_inventory in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_info_t,
                    usize,
                    *mut pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_deliver_inventory") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            0,
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_deregister_client",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_deregister_client in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_proc_t, pmix_op_cbfunc_t, *mut c_void) =
                    unsafe { l.sym("PMIx_server_deregister_client") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null(), None, std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(
                                a.procs().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(
                                a.procs_bad().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(
                                a.procs().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_deregister_nspace",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_deregister_nspace in the reference headers.
                let f: unsafe extern "C" fn(*const c_char, pmix_op_cbfunc_t, *mut c_void) =
                    unsafe { l.sym("PMIx_server_deregister_nspace") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            f(std::ptr::null(), None, std::ptr::null_mut());
                            Outcome::Void
                        }
                        Mode::NullCount => {
                            f(
                                a.text().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                        Mode::BadKey => {
                            f(
                                a.text().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                        Mode::Valid => {
                            f(
                                a.text().cast(),
                                cb::pmix_op_cbfunc_t(),
                                std::ptr::null_mut::<c_void>().cast(),
                            );
                            Outcome::Void
                        }
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_deregister_resources",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_deregister_resources in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_deregister_resources") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_dmodex_request",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_dmodex_request in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    pmix_dmodex_response_fn_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_dmodex_request") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null(), None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            cb::pmix_dmodex_response_fn_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            cb::pmix_dmodex_response_fn_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            cb::pmix_dmodex_response_fn_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_finalize",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_finalize in the reference headers.
                let f: unsafe extern "C" fn() -> pmix_status_t =
                    unsafe { l.sym("PMIx_server_finalize") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f()),
                        Mode::NullCount => Outcome::Status(f()),
                        Mode::BadKey => Outcome::Status(f()),
                        Mode::Valid => Outcome::Status(f()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_generate_cpuset_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_generate_cpuset_string in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_cpuset_t,
                    *mut *mut c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_generate_cpuset_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_generate_locality_string",
            kind: Kind::Implemented,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_generate_locality_string in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_cpuset_t,
                    *mut *mut c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_generate_locality_string") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                        Mode::BadKey => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                        Mode::Valid => Outcome::Status(f(a.cpuset().cast(), a.argv())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_init",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_init in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_server_module_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_init") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.module().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.module().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.module().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_register_client",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_register_client in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    libc::uid_t,
                    libc::gid_t,
                    *mut c_void,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_register_client") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            0,
                            0,
                            std::ptr::null_mut(),
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            0,
                            0,
                            std::ptr::null_mut::<c_void>().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            0,
                            0,
                            std::ptr::null_mut::<c_void>().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            0,
                            0,
                            std::ptr::null_mut::<c_void>().cast(),
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_register_nspace",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_register_nspace in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    c_int,
                    *mut pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_register_nspace") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            1,
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            1,
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            1,
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            1,
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_register_resources",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_register_resources in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_register_resources") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), 0, None, std::ptr::null_mut()))
                        }
                        Mode::NullCount => Outcome::Status(f(
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_setup_application",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_setup_application in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *mut pmix_info_t,
                    usize,
                    pmix_setup_application_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_setup_application") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_setup_application_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_setup_application_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_setup_application_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_setup_fork",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_setup_fork in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *mut *mut *mut c_char,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_setup_fork") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut())),
                        Mode::NullCount => Outcome::Status(f(a.procs().cast(), a.out_ptr().cast())),
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), a.out_ptr().cast()))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), a.out_ptr().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_server_setup_local_support",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_server_setup_local_support in the reference headers.
                let f: unsafe extern "C" fn(
                    *const c_char,
                    *mut pmix_info_t,
                    usize,
                    pmix_op_cbfunc_t,
                    *mut c_void,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_server_setup_local_support") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null(),
                            std::ptr::null_mut(),
                            0,
                            None,
                            std::ptr::null_mut(),
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.text().cast(),
                            std::ptr::null_mut(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.text().cast(),
                            a.info_bad().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.text().cast(),
                            a.info().cast(),
                            1,
                            cb::pmix_op_cbfunc_t(),
                            std::ptr::null_mut::<c_void>().cast(),
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_attach_to_server",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_attach_to_server in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_proc_t,
                    *mut pmix_proc_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_tool_attach_to_server") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            std::ptr::null_mut(),
                            0,
                        )),
                        Mode::NullCount => Outcome::Status(f(
                            a.procs().cast(),
                            a.procs().cast(),
                            std::ptr::null_mut(),
                            1,
                        )),
                        Mode::BadKey => Outcome::Status(f(
                            a.procs_bad().cast(),
                            a.procs_bad().cast(),
                            a.info_bad().cast(),
                            1,
                        )),
                        Mode::Valid => Outcome::Status(f(
                            a.procs().cast(),
                            a.procs().cast(),
                            a.info().cast(),
                            1,
                        )),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_connect_to_server",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_connect_to_server in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_proc_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_tool_connect_to_server") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.procs().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_disconnect",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_disconnect in the reference headers.
                let f: unsafe extern "C" fn(*const pmix_proc_t) -> pmix_status_t =
                    unsafe { l.sym("PMIx_tool_disconnect") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null())),
                        Mode::NullCount => Outcome::Status(f(a.procs().cast())),
                        Mode::BadKey => Outcome::Status(f(a.procs_bad().cast())),
                        Mode::Valid => Outcome::Status(f(a.procs().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_finalize",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_finalize in the reference headers.
                let f: unsafe extern "C" fn() -> pmix_status_t =
                    unsafe { l.sym("PMIx_tool_finalize") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f()),
                        Mode::NullCount => Outcome::Status(f()),
                        Mode::BadKey => Outcome::Status(f()),
                        Mode::Valid => Outcome::Status(f()),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_get_servers",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_get_servers in the reference headers.
                let f: unsafe extern "C" fn(*mut *mut pmix_proc_t, *mut usize) -> pmix_status_t =
                    unsafe { l.sym("PMIx_tool_get_servers") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut()))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.out_ptr().cast(), a.size_out().cast()))
                        }
                        Mode::BadKey => Outcome::Status(f(a.out_ptr().cast(), a.size_out().cast())),
                        Mode::Valid => Outcome::Status(f(a.out_ptr().cast(), a.size_out().cast())),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_init",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_init in the reference headers.
                let f: unsafe extern "C" fn(
                    *mut pmix_proc_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_tool_init") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => {
                            Outcome::Status(f(std::ptr::null_mut(), std::ptr::null_mut(), 0))
                        }
                        Mode::NullCount => {
                            Outcome::Status(f(a.procs().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
        Entry {
            name: "PMIx_tool_set_server",
            kind: Kind::Session,
            modes: &[Mode::Null, Mode::NullCount, Mode::BadKey, Mode::Valid],
            call: |l, mode, a| {
                // SAFETY: `F` is the prototype of PMIx_tool_set_server in the reference headers.
                let f: unsafe extern "C" fn(
                    *const pmix_proc_t,
                    *mut pmix_info_t,
                    usize,
                ) -> pmix_status_t = unsafe { l.sym("PMIx_tool_set_server") };
                // SAFETY: the arguments are what the mode says: NULL pointers, (NULL, 1) arrays,
                // unterminated keys, or valid data from `a`.
                unsafe {
                    match mode {
                        Mode::Null => Outcome::Status(f(std::ptr::null(), std::ptr::null_mut(), 0)),
                        Mode::NullCount => {
                            Outcome::Status(f(a.procs().cast(), std::ptr::null_mut(), 1))
                        }
                        Mode::BadKey => {
                            Outcome::Status(f(a.procs_bad().cast(), a.info_bad().cast(), 1))
                        }
                        Mode::Valid => Outcome::Status(f(a.procs().cast(), a.info().cast(), 1)),
                    }
                }
            },
        },
    ]
}
