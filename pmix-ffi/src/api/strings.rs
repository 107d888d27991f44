//! The `PMIx_*_string` functions, `PMIx_Get_version`, `PMIx_Value_string`, `PMIx_Info_string`
//! and `PMIx_Data_print`: the renderings of `pmix_core::print` for C data.
//!
//! Reading data for printing is more lenient than `convert`: the reference prints data that
//! `convert` rejects (arrays of undefined types, whose elements it never reads; a process
//! name or namespace value with a NULL pointer) and we print them the same way. Data it
//! cannot read (a NULL pointer where a structure is needed) make the rendering fail instead
//! of crashing as the reference does.

use core::ffi::{CStr, c_char, c_void};

use pmix_core::print::{self, Printed, Printer, Tm, ValueView};
use pmix_core::values::*;
use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::alloc;
use crate::convert;
use crate::entry;
use crate::ptr;

/// C library functions the `libc` crate does not declare (kept out of the headers).
///
/// cbindgen:ignore
mod clib {
    unsafe extern "C" {
        /// POSIX `tzset`: reads `TZ` into the C library's time-zone state.
        pub(super) fn tzset();
    }
}
use clib::tzset;

/// `localtime` of the C library, after re-reading `TZ`, as `ctime` does.
fn localtime(t: i64) -> Option<Tm> {
    let tt: libc::time_t = t;
    // SAFETY: all-zero bytes are a valid `struct tm` (integers and a NULL zone pointer).
    let mut tm: libc::tm = unsafe { core::mem::zeroed() };
    // SAFETY: tzset has no preconditions; localtime_r reads `tt` and writes only `tm`.
    let r = unsafe {
        tzset();
        libc::localtime_r(&tt, &mut tm)
    };
    if r.is_null() {
        return None;
    }
    Some(Tm {
        year: i64::from(tm.tm_year) + 1900,
        mon: u32::try_from(tm.tm_mon).ok()?,
        mday: u32::try_from(tm.tm_mday).ok()?,
        hour: u32::try_from(tm.tm_hour).ok()?,
        min: u32::try_from(tm.tm_min).ok()?,
        sec: u32::try_from(tm.tm_sec).ok()?,
        wday: u32::try_from(tm.tm_wday).ok()?,
    })
}

/// The renderer, showing times in the process's time zone.
fn printer() -> Printer {
    Printer::new(localtime)
}

/// A `pmix_value_t` read for printing.
enum Readable {
    Value(Value),
    Opaque(pmix_data_type_t),
    NullProc,
    NullNspace,
    Unreadable,
}

impl Readable {
    fn view(&self) -> ValueView<'_> {
        match self {
            Readable::Value(v) => ValueView::Value(v),
            Readable::Opaque(t) => ValueView::Opaque(*t),
            Readable::NullProc => ValueView::NullProc,
            Readable::NullNspace => ValueView::NullNspace,
            Readable::Unreadable => ValueView::Unreadable,
        }
    }
}

/// A value as the printer needs it; the data of types that print as "UNPRINTABLE" are not
/// read.
///
/// # Safety
/// The member of `v.data` that `v.type` selects is initialised; its pointers are valid or NULL.
unsafe fn value_for_print(v: &pmix_value_t) -> Readable {
    // SAFETY: each union member read is the one `v.type` selects.
    unsafe {
        match v.r#type {
            PMIX_PROC if v.data.proc.is_null() => Readable::NullProc,
            PMIX_PROC_NSPACE if v.data.nspace.is_null() => Readable::NullNspace,
            t if print::opaque_in_value(t) => Readable::Opaque(t),
            _ => match value_nested(v) {
                Ok(v) => Readable::Value(v),
                Err(_) => Readable::Unreadable,
            },
        }
    }
}

/// A stand-in for a datum of a type that prints as "UNPRINTABLE": the printer only looks at
/// its type. `None` for types without a `Value` form.
fn placeholder(ty: pmix_data_type_t) -> Option<Value> {
    Some(match ty {
        PMIX_POINTER => Value::Pointer(0),
        PMIX_COMMAND => Value::Command(0),
        PMIX_INFO_DIRECTIVES => Value::InfoDirectives(0),
        PMIX_DATA_TYPE => Value::DataType(0),
        PMIX_IOF_CHANNEL => Value::IofChannel(0),
        PMIX_COMPRESSED_STRING => Value::CompressedString(Vec::new()),
        PMIX_REGEX => Value::Regex(Vec::new()),
        PMIX_COMPRESSED_BYTE_OBJECT => Value::CompressedByteObject(Vec::new()),
        PMIX_PROC_STATS => Value::ProcStats(Box::default()),
        PMIX_DISK_STATS => Value::DiskStats(Box::default()),
        PMIX_NET_STATS => Value::NetStats(Box::default()),
        PMIX_NODE_STATS => Value::NodeStats(Box::default()),
        PMIX_DATA_BUFFER => Value::DataBuffer(Vec::new()),
        PMIX_APP => Value::App(Box::default()),
        PMIX_QUERY => Value::Query(Box::default()),
        PMIX_INFO => Value::Info(Box::new(Info::new(PStr::new(), Value::Undef))),
        PMIX_PDATA => Value::Pdata(Box::new(Pdata {
            proc: Proc::default(),
            key: PStr::new(),
            value: Value::Undef,
        })),
        PMIX_KVAL => Value::Kval(Box::new(Kval {
            key: PStr::new(),
            value: Value::Undef,
        })),
        _ => return None,
    })
}

/// A value inside an info inside an array: like `convert::value_from_c`, but arrays are read
/// as the printer needs them and "UNPRINTABLE" data are not read.
///
/// # Safety
/// As for `value_for_print`.
unsafe fn value_nested(v: &pmix_value_t) -> Result<Value> {
    let ty = v.r#type;
    if print::opaque_in_value(ty) {
        return placeholder(ty).ok_or(Error::UnknownDataType(ty));
    }
    // SAFETY: the union member read is the one `v.type` selects.
    unsafe {
        if ty == PMIX_DATA_ARRAY {
            let d = ptr::req(v.data.darray)?;
            return Ok(Value::DataArray(Box::new(darray_for_print(d)?)));
        }
        convert::value_from_c(v)
    }
}

/// An info inside an array.
///
/// # Safety
/// `i.value` is a valid value.
unsafe fn info_nested(i: &pmix_info_t) -> Result<Info> {
    Ok(Info {
        key: ptr::fixed_str(&i.key)?,
        flags: i.flags,
        // SAFETY: forwarded contract.
        value: unsafe { value_nested(&i.value) }?,
    })
}

/// The infos of a C array, read for printing.
///
/// # Safety
/// `(p, n)` is a valid array of valid infos.
unsafe fn infos_nested(p: *const pmix_info_t, n: usize) -> Result<Vec<Info>> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(p, n) }?
        .iter()
        // SAFETY: each element is a valid info.
        .map(|i| unsafe { info_nested(i) })
        .collect()
}

/// A data array as the printer needs it: elements of types that print as "UNPRINTABLE" are
/// not read (only counted), nested arrays and infos are read the same way.
///
/// # Safety
/// `d.array` is NULL or holds `d.size` valid elements of type `d.type`.
unsafe fn darray_for_print(d: &pmix_data_array_t) -> Result<DataArray> {
    let (ty, n) = (d.r#type, d.size);
    let mut items = Vec::new();
    if n == 0 {
        return Ok(DataArray { ty, items });
    }
    if print::opaque_in_array(ty) {
        items.try_reserve_exact(n).map_err(|_| Error::NoMem)?;
        items.resize(n, Value::Undef);
        return Ok(DataArray { ty, items });
    }
    if d.array.is_null() {
        return Err(Error::BadParam);
    }
    // SAFETY: per the contract, `d.array` holds `n` elements of type `ty`.
    let items = unsafe {
        match ty {
            PMIX_DATA_ARRAY => ptr::slice(d.array.cast::<pmix_data_array_t>(), n)?
                .iter()
                .map(|e| Ok(Value::DataArray(Box::new(darray_for_print(e)?))))
                .collect::<Result<_>>()?,
            PMIX_INFO => infos_nested(d.array.cast(), n)?
                .into_iter()
                .map(|i| Value::Info(Box::new(i)))
                .collect(),
            _ => convert::array_from_c(d.array, n, ty)?,
        }
    };
    Ok(DataArray { ty, items })
}

/// The datum at `src` of type `ty`, in the form `PMIx_Data_print` takes it: the string itself
/// for `PMIX_STRING`, `PMIX_REGEX` and `PMIX_PROC_NSPACE`, a pointer to the datum otherwise.
///
/// # Safety
/// `src` is not NULL and points to a datum of type `ty` as described.
unsafe fn datum(src: *const c_void, ty: pmix_data_type_t) -> Result<Value> {
    // SAFETY: each read is of the C type that `ty` lays out at `src`.
    unsafe {
        Ok(match ty {
            PMIX_STRING => Value::String(Some(PStr::from(CStr::from_ptr(src.cast()).to_bytes()))),
            PMIX_REGEX => Value::Regex(CStr::from_ptr(src.cast()).to_bytes().to_vec()),
            PMIX_PROC_NSPACE => {
                Value::ProcNspace(PStr::from(CStr::from_ptr(src.cast()).to_bytes()))
            }
            PMIX_POINTER => Value::Pointer(src.cast::<*const c_void>().read() as usize),
            PMIX_DATA_ARRAY => Value::DataArray(Box::new(darray_for_print(&*src.cast())?)),
            PMIX_APP => {
                let a = &*src.cast::<pmix_app_t>();
                Value::App(Box::new(App {
                    cmd: ptr::opt_pstr(a.cmd),
                    argv: ptr::argv(a.argv),
                    env: ptr::argv(a.env),
                    cwd: ptr::opt_pstr(a.cwd),
                    maxprocs: a.maxprocs,
                    info: infos_nested(a.info, a.ninfo)?,
                }))
            }
            PMIX_QUERY => {
                let q = &*src.cast::<pmix_query_t>();
                Value::Query(Box::new(Query {
                    keys: ptr::argv(q.keys),
                    qualifiers: infos_nested(q.qualifiers, q.nqual)?,
                }))
            }
            _ => convert::elem_from_c(src, ty)?,
        })
    }
}

/// A malloc'd C copy of a rendering, or NULL.
fn to_c(text: Option<Vec<u8>>) -> *mut c_char {
    match text {
        Some(t) => alloc::cstring(&t).unwrap_or(core::ptr::null_mut()),
        None => core::ptr::null_mut(),
    }
}

/// The name of a status code ("ERROR STRING NOT FOUND" for codes without one).
///
/// See PMIx Standard v5, `PMIx_Error_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Error_string(status: pmix_status_t) -> *const c_char {
    entry::guard("PMIx_Error_string", core::ptr::null(), || {
        print::error_string(status).as_ptr()
    })
}

/// The name of a process state ("UNKNOWN STATE" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Proc_state_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_state_string(state: pmix_proc_state_t) -> *const c_char {
    entry::guard("PMIx_Proc_state_string", core::ptr::null(), || {
        print::proc_state_string(state).as_ptr()
    })
}

/// The name of a scope ("UNKNOWN SCOPE" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Scope_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Scope_string(scope: pmix_scope_t) -> *const c_char {
    entry::guard("PMIx_Scope_string", core::ptr::null(), || {
        print::scope_string(scope).as_ptr()
    })
}

/// The name of a persistence ("UNKNOWN PERSISTENCE" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Persistence_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Persistence_string(persist: pmix_persistence_t) -> *const c_char {
    entry::guard("PMIx_Persistence_string", core::ptr::null(), || {
        print::persistence_string(persist).as_ptr()
    })
}

/// The name of a data range ("UNKNOWN" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Data_range_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_range_string(range: pmix_data_range_t) -> *const c_char {
    entry::guard("PMIx_Data_range_string", core::ptr::null(), || {
        print::data_range_string(range).as_ptr()
    })
}

/// The macro name of a data type ("UNKNOWN" for undefined ids).
///
/// See PMIx Standard v5, `PMIx_Data_type_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_type_string(r#type: pmix_data_type_t) -> *const c_char {
    entry::guard("PMIx_Data_type_string", core::ptr::null(), || {
        print::data_type_string(r#type).as_ptr()
    })
}

/// The name of an allocation directive ("UNSPECIFIED" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Alloc_directive_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Alloc_directive_string(
    directive: pmix_alloc_directive_t,
) -> *const c_char {
    entry::guard("PMIx_Alloc_directive_string", core::ptr::null(), || {
        print::alloc_directive_string(directive).as_ptr()
    })
}

/// The channels of an I/O forwarding mask, each followed by a space ("NONE" for none).
///
/// See PMIx Standard v5, `PMIx_IOF_channel_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_IOF_channel_string(channel: pmix_iof_channel_t) -> *const c_char {
    entry::guard("PMIx_IOF_channel_string", core::ptr::null(), || {
        print::iof_channel_string(channel).as_ptr()
    })
}

/// The name of a job state ("UNKNOWN" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Job_state_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Job_state_string(state: pmix_job_state_t) -> *const c_char {
    entry::guard("PMIx_Job_state_string", core::ptr::null(), || {
        print::job_state_string(state).as_ptr()
    })
}

/// The name of a link state ("UNKNOWN" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Link_state_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Link_state_string(state: pmix_link_state_t) -> *const c_char {
    entry::guard("PMIx_Link_state_string", core::ptr::null(), || {
        print::link_state_string(state).as_ptr()
    })
}

/// The name of a device type ("UNKNOWN" for combinations and undefined values).
///
/// See PMIx Standard v5, `PMIx_Device_type_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_type_string(r#type: pmix_device_type_t) -> *const c_char {
    entry::guard("PMIx_Device_type_string", core::ptr::null(), || {
        print::device_type_string(r#type).as_ptr()
    })
}

/// The name of a value comparison result ("UNKNOWN VALUE" for undefined values).
///
/// See PMIx Standard v5, `PMIx_Value_comparison_string`.
///
/// # Returns
/// A static string for every input (out-of-range values have a name too); never NULL.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the string is static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_comparison_string(cmp: pmix_value_cmp_t) -> *const c_char {
    entry::guard("PMIx_Value_comparison_string", core::ptr::null(), || {
        print::value_comparison_string(cmp).as_ptr()
    })
}

/// A description of an info: its key (the attribute name when the key is a known
/// attribute), its directives and its value, on three lines.
///
/// See PMIx Standard v5, `PMIx_Info_string`.
///
/// # Returns
/// A malloc'd string; NULL for a NULL `info`, a key without terminator, or when memory runs
/// out. A value that cannot be printed shows as "(null)", as in the reference.
///
/// # Safety
/// `info` is either NULL or a valid `pmix_info_t`.
///
/// Ownership: the caller frees the string with `free()`. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_string(info: *const pmix_info_t) -> *mut c_char {
    entry::guard("PMIx_Info_string", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        let Some(i) = (unsafe { info.as_ref() }) else {
            return core::ptr::null_mut();
        };
        let Ok(key) = ptr::fixed_str(&i.key) else {
            return core::ptr::null_mut();
        };
        // SAFETY: a valid info holds a valid value.
        let v = unsafe { value_for_print(&i.value) };
        to_c(Some(printer().info(
            None,
            key.as_bytes(),
            i.flags,
            v.view(),
        )))
    })
}

/// A description of a value: " PMIX_VALUE: " and its type and datum.
///
/// See PMIx Standard v5, `PMIx_Value_string`.
///
/// # Returns
/// A malloc'd string; NULL for a NULL `value`, a value that cannot be printed (an array
/// without elements, as in the reference; a NULL pointer where a structure is required,
/// where the reference crashes), or when memory runs out.
///
/// # Safety
/// `value` is either NULL or a valid `pmix_value_t`.
///
/// Ownership: the caller frees the string with `free()`. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_string(value: *const pmix_value_t) -> *mut c_char {
    entry::guard("PMIx_Value_string", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        let Some(v) = (unsafe { value.as_ref() }) else {
            return core::ptr::null_mut();
        };
        // SAFETY: a valid value.
        let v = unsafe { value_for_print(v) };
        to_c(printer().value(None, v.view()).into_text())
    })
}

/// The directives of an info as text ("REQUIRED:PROCESSED", "QUALIFIER", ...).
///
/// See PMIx Standard v5, `PMIx_Info_directives_string`.
///
/// # Returns
/// A malloc'd string; NULL only when memory runs out.
///
/// # Safety
/// None: the argument is a plain integer.
///
/// Ownership: the caller frees the string with `free()`. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_directives_string(
    directives: pmix_info_directives_t,
) -> *mut c_char {
    entry::guard("PMIx_Info_directives_string", core::ptr::null_mut(), || {
        to_c(Some(
            print::info_directives_string(directives)
                .to_bytes()
                .to_vec(),
        ))
    })
}

/// This library's version: "pmix-rs <version> (PMIx Standard: 5.1, Stable ABI: 5.0,
/// Provisional ABI: 5.0)", where <version> is the newest OpenPMIx release whose ABI it
/// provides (5.0.11; 4.2 binaries are served too).
///
/// See PMIx Standard v5, `PMIx_Get_version`.
///
/// # Returns
/// A static string; never NULL. Its first word names this library and its second is
/// "major.minor.release", as OpenPMIx's ("OpenPMIx 5.0.11rc1 (...)") is: PRRTE reads it with
/// `sscanf("%s %u.%u.%u")` and, built against 5.0, refuses major 4; Open MPI 4.1 refuses a
/// first character below '3'.
///
/// # Safety
/// None.
///
/// Ownership: static; do not free it. Threading: any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_version() -> *const c_char {
    entry::guard("PMIx_Get_version", core::ptr::null(), || {
        print::VERSION.as_ptr()
    })
}

/// Renders the datum `src` of type `type_` into a malloc'd string, each line starting with
/// `prefix` (a single space when `prefix` is NULL).
///
/// See PMIx Standard v5, `PMIx_Data_print`.
///
/// `src` points to the datum, except for `PMIX_STRING`, `PMIX_REGEX` and `PMIX_PROC_NSPACE`,
/// where it is the string itself (as in the reference, unlike `PMIx_Data_pack`).
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `output` or `src`, for data that cannot
/// be read, and for a data array without elements (whose rendering is still stored, as in
/// the reference); `PMIX_ERR_UNKNOWN_DATA_TYPE` for `PMIX_UNDEF` and undefined types;
/// `PMIX_ERR_OUT_OF_RESOURCE` for a `PMIX_VALUE` whose datum cannot be printed;
/// `PMIX_ERR_NOT_SUPPORTED` for cpusets and topologies not from hwloc; the status of the
/// last element for arrays. For `PMIX_KVAL` and `PMIX_BUFFER` (internal structures) the
/// reference succeeds without output, and so do we.
///
/// # Safety
/// `output` is either NULL or writable; `prefix` is a C string; `src` is either NULL or
/// points to a valid datum of type `type_` as described.
///
/// Ownership: `*output` is set only when there is text; the caller frees it with `free()`.
/// Threading: any thread; no initialization needed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_print(
    output: *mut *mut c_char,
    prefix: *mut c_char,
    src: *mut c_void,
    r#type: pmix_data_type_t,
) -> pmix_status_t {
    entry::status_code("PMIx_Data_print", || {
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(output) }?;
        if src.is_null() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let prefix = (!prefix.is_null()).then(|| unsafe { CStr::from_ptr(prefix) }.to_bytes());
        let printed = match print::type_only(r#type) {
            Some(p) => p,
            None => {
                let p = printer();
                // SAFETY: per this function's contract, `src` holds a datum of this type.
                unsafe {
                    match r#type {
                        PMIX_VALUE => {
                            let v = value_for_print(&*src.cast::<pmix_value_t>());
                            p.value(prefix, v.view())
                        }
                        PMIX_INFO => {
                            let i = &*src.cast::<pmix_info_t>();
                            let key = ptr::fixed_str(&i.key)?;
                            let v = value_for_print(&i.value);
                            Printed {
                                text: Some(p.info(prefix, key.as_bytes(), i.flags, v.view())),
                                status: PMIX_SUCCESS,
                            }
                        }
                        PMIX_PDATA => {
                            let d = &*src.cast::<pmix_pdata_t>();
                            let proc = convert::proc_from_c(&d.proc)?;
                            let key = ptr::fixed_str(&d.key)?;
                            let v = value_for_print(&d.value);
                            Printed {
                                text: Some(p.pdata(prefix, &proc, key.as_bytes(), v.view())),
                                status: PMIX_SUCCESS,
                            }
                        }
                        ty => p.data(prefix, ty, &datum(src, ty)?),
                    }
                }
            }
        };
        if let Some(t) = printed.text {
            *out = alloc::cstring(&t)?;
        }
        Ok(printed.status)
    })
}

/// The code of a status or event named `errname` ("PMIX_ERR_NOT_FOUND", in any case): the
/// reverse of OpenPMIx 5.0's `PMIx_Error_string`, which names codes by their constants. Also
/// the text our `PMIx_Error_string` gives (OpenPMIx 4.2's words, "NOT-FOUND"), which 5.0.11
/// does not take: every status this library prints reads back.
///
/// See OpenPMIx 5.0's `PMIx_Error_code`.
///
/// # Returns
/// The code; `INT32_MIN` for an unknown name or NULL.
///
/// # Safety
/// `errname` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Error_code(errname: *const c_char) -> pmix_status_t {
    entry::guard("PMIx_Error_code", i32::MIN, || {
        // SAFETY: per this function's contract.
        let Some(name) = (unsafe { ptr::opt_pstr(errname) }) else {
            return i32::MIN;
        };
        let name = name.as_bytes();
        // The constant's name, as 5.0.11 takes it; or the text our PMIx_Error_string gives
        // (OpenPMIx 4.2's), so that every status we print reads back.
        pmix_core::status_names::error_code(name)
            .or_else(|| pmix_core::print::error_code_of_text(name))
            .unwrap_or(i32::MIN)
    })
}

/// A rank as OpenPMIx prints it: a number, or the name of a special rank.
fn rank_text(rank: pmix_rank_t) -> String {
    match rank {
        PMIX_RANK_UNDEF => "UNDEF".into(),
        PMIX_RANK_WILDCARD => "WILDCARD".into(),
        PMIX_RANK_LOCAL_NODE => "LOCAL_NODE".into(),
        PMIX_RANK_LOCAL_PEERS => "LOCAL_PEERS".into(),
        PMIX_RANK_INVALID => "INVALID".into(),
        r => r.to_string(),
    }
}

/// "[nspace,rank]" for a process, with the special ranks by name ("[NO-NAME]" for NULL).
///
/// See OpenPMIx 5.0's `PMIx_Proc_string`.
///
/// # Returns
/// A malloc'd string; NULL only when memory runs out.
///
/// # Safety
/// `proc_` is NULL or a valid process ID. Ownership: the caller frees the string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_string(proc_: *const pmix_proc_t) -> *mut c_char {
    entry::guard("PMIx_Proc_string", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        let Some(p) = (unsafe { proc_.as_ref() }) else {
            return to_c(Some(b"[NO-NAME]".to_vec()));
        };
        let ns = ptr::fixed_str(&p.nspace)
            .map(|s| s.as_bytes().to_vec())
            .unwrap_or_default();
        let mut s = b"[".to_vec();
        s.extend_from_slice(&ns);
        s.push(b',');
        s.extend_from_slice(rank_text(p.rank).as_bytes());
        s.push(b']');
        // OpenPMIx prints into a buffer of 300 bytes.
        s.truncate(299);
        to_c(Some(s))
    })
}

/// A multi-line description of an application: its command, argv, environment, working
/// directory, maxprocs and infos, in OpenPMIx 5.0's layout.
///
/// See OpenPMIx 5.0's `PMIx_App_string`.
///
/// # Returns
/// A malloc'd string; NULL for a NULL `app` (5.0.11 crashes) or when memory runs out.
///
/// # Safety
/// `app` is NULL or a valid app whose argv and env are NULL-terminated and whose `info`
/// holds `ninfo` valid infos. Ownership: the caller frees the string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_string(app: *const pmix_app_t) -> *mut c_char {
    entry::guard("PMIx_App_string", core::ptr::null_mut(), || {
        // SAFETY: per this function's contract.
        let Some(a) = (unsafe { app.as_ref() }) else {
            return core::ptr::null_mut();
        };
        let text = |p: *const c_char| {
            // SAFETY: NULL or a C string, per this function's contract.
            unsafe { ptr::opt_pstr(p) }
                .map(|s| s.as_bytes().to_vec())
                .unwrap_or_else(|| b"(null)".to_vec())
        };
        let mut lines: Vec<Vec<u8>> = vec![[b"CMD: ".to_vec(), text(a.cmd)].concat()];
        for (title, list, item) in [("ARGV", a.argv, "ARGV"), ("ENV", a.env, "ENV")] {
            lines.push(format!("    {title}:").into_bytes());
            if list.is_null() {
                lines.push(b"        NONE".to_vec());
                continue;
            }
            // SAFETY: a NULL-terminated array, per this function's contract.
            for (n, s) in unsafe { ptr::argv(list) }.iter().enumerate() {
                lines.push(
                    [
                        format!("        {item}[{n}]: ").into_bytes(),
                        s.as_bytes().to_vec(),
                    ]
                    .concat(),
                );
            }
        }
        lines.push(if a.cwd.is_null() {
            b"    CWD: NULL".to_vec()
        } else {
            [b"    CWD: ".to_vec(), text(a.cwd)].concat()
        });
        lines.push(format!("    MAXPROCS: {}", a.maxprocs).into_bytes());
        if a.info.is_null() {
            lines.push(b"    INFO: NONE".to_vec());
        } else {
            lines.push(b"    INFO:".to_vec());
            for n in 0..a.ninfo {
                // SAFETY: `info` holds `ninfo` valid infos.
                let s = unsafe { PMIx_Info_string(a.info.add(n)) };
                let body = text(s);
                // SAFETY: malloc'd by PMIx_Info_string (or NULL).
                unsafe { libc::free(s.cast()) };
                lines.push([format!("        INFO[{n}]: ").into_bytes(), body].concat());
            }
        }
        to_c(Some(lines.join(&b'\n')))
    })
}
