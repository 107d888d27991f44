//! `PMIx_Value_*`, `PMIx_Info_load/xfer`, `PMIx_Data_array_destruct`: loading, copying,
//! comparing and releasing values in caller memory.

use core::ffi::{c_char, c_void};

use pmix_core::values::Value;
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert::{self, Zeroable};
use crate::entry;
use crate::ptr;

/// The core value of the C datum `data` of type `ty`, in the form `PMIx_Value_load` takes it:
/// the string itself for `PMIX_STRING`, `PMIX_REGEX` and `PMIX_PROC_NSPACE`, the address
/// itself for `PMIX_POINTER`, and a pointer to the datum for every other type.
///
/// # Safety
/// `data` is NULL or points to a datum of type `ty` as described.
pub(crate) unsafe fn loadable(data: *const c_void, ty: pmix_data_type_t) -> Result<Value> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(match ty {
            PMIX_UNDEF => Value::Undef,
            PMIX_POINTER => Value::Pointer(data as usize),
            PMIX_STRING => Value::String(ptr::opt_pstr(data.cast())),
            PMIX_REGEX => Value::Regex(match ptr::opt_pstr(data.cast()) {
                Some(s) => {
                    let mut b = s.into_bytes();
                    b.push(0);
                    b
                }
                None => Vec::new(),
            }),
            PMIX_PROC_NSPACE => {
                let s = ptr::cstr(data.cast())?;
                let mut b = s.to_bytes().to_vec();
                b.truncate(PMIX_MAX_NSLEN);
                Value::ProcNspace(b.into())
            }
            _ => {
                if data.is_null() {
                    // As the reference: `true` for a bool (PRRTE adds
                    // `PMIX_SERVER_SYS_MONITOR` that way), a zero datum otherwise.
                    let z = null_load(data, ty).ok_or(Error::BadParam)?;
                    return convert::value_from_c(&z);
                }
                let v = convert::elem_from_c(data, ty)?;
                if !v.fits_pmix_value() {
                    return Err(Error::NotSupported);
                }
                v
            }
        })
    }
}

/// What loading NULL data gives, as in the reference (measured): `true` for `PMIX_BOOL`
/// (the `PMIX_INFO_LOAD(&i, key, NULL, PMIX_BOOL)` idiom Open MPI uses), and for every other
/// known type a value of that type whose datum is all zero. `None` when `data` is not NULL or
/// the type is unknown.
fn null_load(data: *const c_void, ty: pmix_data_type_t) -> Option<pmix_value_t> {
    if !data.is_null() || !(Value::is_known_type(ty) || ty == PMIX_UNDEF) {
        return None;
    }
    let mut v = pmix_value_t::zeroed();
    v.r#type = ty;
    if ty == PMIX_BOOL {
        v.data.flag = true;
    }
    Some(v)
}

/// Loads a copy of `data` (of type `type_`) into `val`.
///
/// See PMIx Standard v5, `PMIx_Value_load`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `val`, or a NULL `data` where the type
/// needs one; `PMIX_ERR_UNKNOWN_DATA_TYPE` for an unknown type; `PMIX_ERR_NOT_SUPPORTED` for
/// a type a `pmix_value_t` cannot hold; `PMIX_ERR_NOMEM`. On error `val` is untouched.
///
/// # Safety
/// `val` is NULL or writable; `data` as `PMIx_Value_load` documents for `type_`.
///
/// Ownership: `val` receives libc-allocated copies; release with `PMIX_VALUE_DESTRUCT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_load(
    val: *mut pmix_value_t,
    data: *const c_void,
    type_: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Value_load", || {
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(val) }?;
        if let Some(z) = null_load(data, type_) {
            *out = z;
            return Ok(());
        }
        // SAFETY: per this function's contract.
        let v = unsafe { loadable(data, type_) }?;
        *out = convert::value_to_c(&v)?;
        Ok(())
    })
}

/// Copies the datum of `val` out to the caller, the way the reference does:
///
/// * scalars, `PMIX_PROC` and `PMIX_PROC_NSPACE` are copied into the memory `*data` points
///   to, which the caller provides (`*sz` gets the size; for a namespace its length);
/// * `PMIX_STRING` gives a malloc'd copy in `*data` and its length (without terminator); a
///   NULL string leaves `*data` and `*sz` untouched;
/// * byte arrays (`PMIX_BYTE_OBJECT`, `PMIX_COMPRESSED_*`, `PMIX_REGEX`) give the value's own
///   bytes, not a copy (NULL and 0 when empty): they stay owned by `val`;
/// * `PMIX_POINTER` gives the pointer itself;
/// * structures held by pointer (`PMIX_DATA_ARRAY`, `PMIX_ENVAR`, `PMIX_PROC_INFO`, ...) give a
///   malloc'd deep copy of the structure and its size.
///
/// See PMIx Standard v5, `PMIx_Value_unload`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for NULL arguments, or a NULL `*data` for any type
/// but `PMIX_STRING` and `PMIX_BYTE_OBJECT` (as the reference checks);
/// `PMIX_ERR_UNKNOWN_DATA_TYPE` for `PMIX_UNDEF` and unknown types.
///
/// # Safety
/// `val` is NULL or a valid value; `data` and `sz` NULL or writable; for the types copied
/// into caller memory, `*data` points to enough writable memory for the datum.
///
/// Ownership: allocations returned in `*data` are libc-allocated; release with `free()`
/// (after destructing structures that own memory). Byte arrays are borrowed from `val`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_unload(
    val: *mut pmix_value_t,
    data: *mut *mut c_void,
    sz: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Value_unload", || {
        // SAFETY: per this function's contract.
        let (v, data, sz) = unsafe { (ptr::req(val)?, ptr::req_mut(data)?, ptr::req_mut(sz)?) };
        if data.is_null() && !matches!(v.r#type, PMIX_STRING | PMIX_BYTE_OBJECT) {
            return Err(Error::BadParam);
        }
        match v.r#type {
            PMIX_BYTE_OBJECT
            | PMIX_COMPRESSED_STRING
            | PMIX_COMPRESSED_BYTE_OBJECT
            | PMIX_REGEX => {
                // The reference lends out the value's own bytes; callers written for it do not
                // free them, so a copy would leak.
                // SAFETY: the type says `bo` is the live member.
                let bo = unsafe { v.data.bo };
                let empty = bo.bytes.is_null() || bo.size == 0;
                *data = if empty {
                    core::ptr::null_mut()
                } else {
                    bo.bytes.cast()
                };
                *sz = if empty { 0 } else { bo.size };
                return Ok(());
            }
            // SAFETY: the type says `string` is the live member.
            PMIX_STRING if unsafe { v.data.string }.is_null() => return Ok(()),
            _ => {}
        }
        // SAFETY: `v` is a valid value per the contract.
        let value = unsafe { convert::value_from_c(v) }?;
        // SAFETY: per this function's contract, `*data` is caller memory where one is needed.
        let (p, n) = unsafe { unload(&value, *data) }?;
        *data = p;
        *sz = n;
        Ok(())
    })
}

/// Whether `PMIx_Value_unload` copies a datum of this type into caller-provided memory.
fn unloads_in_place(v: &Value) -> bool {
    !matches!(
        v,
        Value::String(_)
            | Value::ByteObject(_)
            | Value::CompressedString(_)
            | Value::CompressedByteObject(_)
            | Value::Regex(_)
            | Value::Pointer(_)
            | Value::DataArray(_)
            | Value::Envar(_)
            | Value::ProcInfo(_)
            | Value::Coord(_)
            | Value::Regattr(_)
            | Value::ProcCpuset(_)
            | Value::Topo(_)
            | Value::Geometry(_)
            | Value::DeviceDist(_)
            | Value::Endpoint(_)
            | Value::ProcStats(_)
            | Value::DiskStats(_)
            | Value::NetStats(_)
            | Value::NodeStats(_)
            | Value::DataBuffer(_)
    )
}

/// What `PMIx_Value_unload` stores in `*data` for `v`, and the size it reports.
///
/// # Safety
/// For types unloaded in place, `dest` is NULL or points to enough writable memory.
unsafe fn unload(v: &Value, dest: *mut c_void) -> Result<(*mut c_void, usize)> {
    use crate::alloc;
    Ok(match v {
        Value::Undef => return Err(Error::UnknownDataType(PMIX_UNDEF)),
        Value::String(None) => (core::ptr::null_mut(), 0),
        Value::String(Some(s)) => (alloc::cstring(s.as_bytes())?.cast(), s.len()),
        Value::ByteObject(b)
        | Value::CompressedString(b)
        | Value::CompressedByteObject(b)
        | Value::Regex(b) => (alloc::bytes(b)?.cast(), b.len()),
        Value::Pointer(a) => (*a as *mut c_void, core::mem::size_of::<*mut c_void>()),
        Value::ProcNspace(s) => {
            if dest.is_null() {
                return Err(Error::BadParam);
            }
            // SAFETY: the caller provides room for a namespace (the contract above).
            unsafe {
                core::ptr::copy_nonoverlapping(s.as_bytes().as_ptr(), dest.cast::<u8>(), s.len());
                *dest.cast::<u8>().add(s.len()) = 0;
            }
            (dest, s.len())
        }
        other if unloads_in_place(other) => {
            if dest.is_null() {
                return Err(Error::BadParam);
            }
            let ty = other.data_type();
            // SAFETY: the caller provides room for one datum of this type.
            unsafe { convert::elem_to_c(other, ty, dest) }?;
            (dest, convert::elem_size(ty)?)
        }
        other => {
            let ty = other.data_type();
            let p = convert::array_to_c(core::slice::from_ref(other), ty)?;
            (p, convert::elem_size(ty)?)
        }
    })
}

/// Releases what `val` owns and marks it `PMIX_UNDEF`.
///
/// See PMIx Standard v5, `PMIx_Value_destruct`.
///
/// # Safety
/// `val` is NULL or a value whose memory was allocated with libc (as `PMIx_Value_load` and
/// the header macros do).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_destruct(val: *mut pmix_value_t) {
    entry::guard("PMIx_Value_destruct", (), || {
        // SAFETY: per this function's contract.
        if let Some(v) = unsafe { val.as_mut() } {
            // SAFETY: per this function's contract.
            unsafe { convert::value_destruct(v) };
        }
    })
}

/// Deep-copies `src` into `dest` (previous contents of `dest` are overwritten, not released).
///
/// See PMIx Standard v5, `PMIx_Value_xfer`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for NULL arguments or invalid contents of `src`;
/// `PMIX_ERR_UNKNOWN_DATA_TYPE`; `PMIX_ERR_NOMEM`. On error `dest` is untouched.
///
/// # Safety
/// `dest` is NULL or writable; `src` is NULL or a valid value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_xfer(
    dest: *mut pmix_value_t,
    src: *const pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Value_xfer", || {
        // SAFETY: per this function's contract.
        let (d, s) = unsafe { (ptr::req_mut(dest)?, ptr::req(src)?) };
        // SAFETY: `s` is a valid value.
        let v = unsafe { convert::value_from_c(s) }?;
        *d = convert::value_to_c(&v)?;
        Ok(())
    })
}

/// Compares two values.
///
/// See PMIx Standard v5, `PMIx_Value_compare`.
///
/// # Returns
/// `PMIX_EQUAL`, `PMIX_VALUE1_GREATER`, `PMIX_VALUE2_GREATER`, `PMIX_VALUE_TYPE_DIFFERENT`,
/// or `PMIX_VALUE_COMPARISON_NOT_AVAIL` (also for NULL or invalid arguments).
///
/// # Safety
/// `v1` and `v2` are NULL or valid values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_compare(
    v1: *mut pmix_value_t,
    v2: *mut pmix_value_t,
) -> pmix_value_cmp_t {
    entry::guard(
        "PMIx_Value_compare",
        PMIX_VALUE_COMPARISON_NOT_AVAIL,
        || {
            let res = (|| -> Result<pmix_value_cmp_t> {
                // SAFETY: per this function's contract.
                let (a, b) = unsafe { (ptr::req(v1)?, ptr::req(v2)?) };
                // SAFETY: valid values per the contract.
                let (a, b) = unsafe { (convert::value_from_c(a)?, convert::value_from_c(b)?) };
                Ok(match pmix_core::values::compare(&a, &b) {
                    pmix_core::values::Comparison::Equal => PMIX_EQUAL,
                    pmix_core::values::Comparison::Greater => PMIX_VALUE1_GREATER,
                    pmix_core::values::Comparison::Less => PMIX_VALUE2_GREATER,
                    pmix_core::values::Comparison::TypeDifferent => PMIX_VALUE_TYPE_DIFFERENT,
                    pmix_core::values::Comparison::NotAvailable => PMIX_VALUE_COMPARISON_NOT_AVAIL,
                })
            })();
            res.unwrap_or(PMIX_VALUE_COMPARISON_NOT_AVAIL)
        },
    )
}

/// Releases the elements of a data array and its element storage (not the
/// `pmix_data_array_t` itself).
///
/// See PMIx Standard v5, `PMIx_Data_array_destruct`.
///
/// # Safety
/// `d` is NULL or a data array whose memory was allocated with libc.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_array_destruct(d: *mut pmix_data_array_t) {
    entry::guard("PMIx_Data_array_destruct", (), || {
        // SAFETY: per this function's contract.
        if let Some(d) = unsafe { d.as_mut() } {
            // SAFETY: per this function's contract.
            unsafe { convert::darray_destruct(d) };
            d.r#type = PMIX_UNDEF;
        }
    })
}

/// Loads `key` and a copy of `data` into `info` (flags cleared).
///
/// See PMIx Standard v5, `PMIx_Info_load`.
///
/// # Returns
/// As `PMIx_Value_load`; also `PMIX_ERR_BAD_PARAM` for a NULL `info` or `key`, or a key
/// longer than `PMIX_MAX_KEYLEN`. On error `info` is untouched.
///
/// # Safety
/// `info` is NULL or writable; `key` a C string; `data` as for `PMIx_Value_load`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_load(
    info: *mut pmix_info_t,
    key: *const c_char,
    data: *const c_void,
    type_: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_load", || {
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(info) }?;
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        let value = match null_load(data, type_) {
            Some(z) => z,
            // SAFETY: per this function's contract.
            None => convert::value_to_c(&unsafe { loadable(data, type_) }?)?,
        };
        let mut c = pmix_info_t::zeroed();
        ptr::load_fixed(&mut c.key, key.as_bytes());
        c.value = value;
        *out = c;
        Ok(())
    })
}

/// Deep-copies `src` into `dest`, key and flags included.
///
/// See PMIx Standard v5, `PMIx_Info_xfer`.
///
/// # Returns
/// As `PMIx_Value_xfer`; `PMIX_ERR_BAD_PARAM` also for a key without a terminator.
///
/// # Safety
/// `dest` is NULL or writable; `src` NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_xfer(
    dest: *mut pmix_info_t,
    src: *const pmix_info_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_xfer", || {
        // SAFETY: per this function's contract.
        let (d, s) = unsafe { (ptr::req_mut(dest)?, ptr::req(src)?) };
        // SAFETY: `s` is a valid info.
        let i = unsafe { convert::info_from_c(s) }?;
        *d = convert::info_to_c(&i)?;
        Ok(())
    })
}
