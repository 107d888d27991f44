//! `PMIx_Value_get_size` and `PMIx_Info_get_size` (OpenPMIx 5.0): the memory a value or an
//! info occupies, its own structure included, counted as OpenPMIx 5.0.11 counts it: fixed
//! sizes for scalars, a string's length plus its terminator, a byte object's bytes, the
//! members of structures held by pointer, and each element of a data array.
//!
//! Where 5.0.11 reads garbage or crashes we answer instead (`docs/notes/abi-5.0.md`): types it
//! does not list (it returns SUCCESS with whatever was in `*size`) are
//! `PMIX_ERR_UNKNOWN_DATA_TYPE` here, except the scalars `PMIX_INFO_DIRECTIVES`,
//! `PMIX_DATA_TYPE` and `PMIX_IOF_CHANNEL`, which get their size; compressed data counts its
//! decompressed length (5.0.11 calls a NULL function); an array of infos starts from zero
//! (5.0.11 adds to the caller's `*size`); a cpuset counts the bytes of its bitmap (5.0.11
//! wraps `SIZE_MAX` around). On error `*size` is left alone.

use core::ffi::{CStr, c_char, c_void};
use core::mem::size_of;

use pmix_core::codec;
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::entry;
use crate::ptr;

/// `strlen(s) + 1`, counting 1 for NULL.
///
/// # Safety
/// `s` is NULL or a C string.
unsafe fn slen(s: *const c_char) -> usize {
    if s.is_null() {
        1
    } else {
        // SAFETY: forwarded contract.
        unsafe { CStr::from_ptr(s) }.to_bytes().len() + 1
    }
}

/// The fixed size of one element of a scalar type (those OpenPMIx 5.0.11 counts by their
/// size, and the three it forgets), or None.
fn scalar(ty: pmix_data_type_t) -> Option<usize> {
    let listed = matches!(
        ty,
        PMIX_BOOL
            | PMIX_BYTE
            | PMIX_INT8
            | PMIX_UINT8
            | PMIX_INT16
            | PMIX_UINT16
            | PMIX_STOR_ACCESS_TYPE
            | PMIX_INT32
            | PMIX_UINT32
            | PMIX_INT64
            | PMIX_UINT64
            | PMIX_STOR_MEDIUM
            | PMIX_STOR_ACCESS
            | PMIX_STOR_PERSIST
            | PMIX_SIZE
            | PMIX_PID
            | PMIX_INT
            | PMIX_UINT
            | PMIX_FLOAT
            | PMIX_DOUBLE
            | PMIX_TIMEVAL
            | PMIX_TIME
            | PMIX_STATUS
            | PMIX_PROC_RANK
            | PMIX_PROC
            | PMIX_PERSIST
            | PMIX_SCOPE
            | PMIX_DATA_RANGE
            | PMIX_PROC_STATE
            | PMIX_POINTER
            | PMIX_ALLOC_DIRECTIVE
            | PMIX_LINK_STATE
            | PMIX_JOB_STATE
            | PMIX_LOCTYPE
            | PMIX_DEVTYPE
            | PMIX_INFO_DIRECTIVES
            | PMIX_DATA_TYPE
            | PMIX_IOF_CHANNEL
    );
    listed.then(|| crate::convert::elem_size(ty).ok()).flatten()
}

fn compressed_len(bo: &pmix_byte_object_t) -> usize {
    if bo.bytes.is_null() || bo.size == 0 {
        return 0;
    }
    // SAFETY: a valid byte object holds `size` bytes.
    let input = unsafe { core::slice::from_raw_parts(bo.bytes.cast::<u8>(), bo.size) };
    codec::compress::decompress_block(input).map_or(0, |d| d.len())
}

fn coord_size(c: &pmix_coord_t) -> usize {
    c.dims * 4
}

/// # Safety
/// Each member is NULL or valid.
unsafe fn geometry_size(g: &pmix_geometry_t) -> usize {
    // SAFETY: forwarded contract.
    let mut sz = unsafe { slen(g.uuid) + slen(g.osname) };
    for n in 0..g.ncoords {
        if g.coordinates.is_null() {
            break;
        }
        // SAFETY: `coordinates` holds `ncoords` coordinates.
        sz += size_of::<pmix_coord_t>() + coord_size(unsafe { &*g.coordinates.add(n) });
    }
    sz
}

/// # Safety
/// The arrays hold their counts of valid stats.
unsafe fn node_stats_size(s: &pmix_node_stats_t) -> usize {
    // SAFETY: forwarded contract.
    let mut sz = unsafe { slen(s.node) };
    for n in 0..s.ndiskstats {
        // SAFETY: `diskstats` holds `ndiskstats` entries.
        sz += size_of::<pmix_disk_stats_t>() + unsafe { slen((*s.diskstats.add(n)).disk) };
    }
    for n in 0..s.nnetstats {
        // SAFETY: `netstats` holds `nnetstats` entries.
        sz += size_of::<pmix_net_stats_t>() + unsafe { slen((*s.netstats.add(n)).net_interface) };
    }
    sz
}

/// # Safety
/// `r` is a valid regattr.
unsafe fn regattr_size(r: &pmix_regattr_t) -> usize {
    // SAFETY: forwarded contract.
    let mut sz = unsafe { slen(r.name) };
    // SAFETY: `description` is NULL or NULL-terminated.
    for line in unsafe { ptr::argv(r.description) } {
        sz += line.as_bytes().len() + 1;
    }
    sz
}

/// The size of one element of type `ty` at `p`, beyond the fixed part counted by the caller
/// for arrays (`extra`), or the whole size for values (`whole`).
///
/// # Safety
/// `p` points to a valid element of type `ty`.
unsafe fn elem_extra(p: *const u8, ty: pmix_data_type_t) -> Result<usize> {
    // SAFETY: each cast is the layout `ty` selects.
    unsafe {
        Ok(match ty {
            PMIX_STRING => slen(*p.cast::<*const c_char>()),
            PMIX_BYTE_OBJECT | PMIX_REGEX => (*p.cast::<pmix_byte_object_t>()).size,
            PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => {
                compressed_len(&*p.cast::<pmix_byte_object_t>())
            }
            PMIX_PROC_INFO => {
                let i = &*p.cast::<pmix_proc_info_t>();
                slen(i.hostname) + slen(i.executable_name)
            }
            PMIX_ENVAR => {
                let e = &*p.cast::<pmix_envar_t>();
                slen(e.envar) + slen(e.value)
            }
            PMIX_COORD => coord_size(&*p.cast()),
            PMIX_GEOMETRY => geometry_size(&*p.cast()),
            PMIX_DEVICE_DIST => {
                let d = &*p.cast::<pmix_device_distance_t>();
                slen(d.uuid) + slen(d.osname)
            }
            PMIX_ENDPOINT => {
                let e = &*p.cast::<pmix_endpoint_t>();
                slen(e.uuid) + slen(e.osname) + e.endpt.size
            }
            PMIX_REGATTR => regattr_size(&*p.cast()),
            PMIX_DATA_BUFFER => (*p.cast::<pmix_data_buffer_t>()).bytes_used,
            PMIX_PROC_STATS => {
                let s = &*p.cast::<pmix_proc_stats_t>();
                slen(s.node) + slen(s.cmd)
            }
            PMIX_DISK_STATS => slen((*p.cast::<pmix_disk_stats_t>()).disk),
            PMIX_NET_STATS => slen((*p.cast::<pmix_net_stats_t>()).net_interface),
            PMIX_NODE_STATS => node_stats_size(&*p.cast()),
            PMIX_PROC_CPUSET => crate::hwloc::cpuset_bitmap_bytes(&*p.cast()),
            PMIX_TOPO => {
                crate::hwloc::topology_shmem_length(&*p.cast()).ok_or(Error::Status(PMIX_ERROR))?
            }
            PMIX_INFO => info_size(&*p.cast())?,
            _ if scalar(ty).is_some() => 0,
            _ => return Err(Error::Status(PMIX_ERR_UNKNOWN_DATA_TYPE)),
        })
    }
}

/// The size of a data array's elements.
///
/// # Safety
/// `d` holds `size` valid elements of its type.
unsafe fn darray_size(d: &pmix_data_array_t) -> Result<usize> {
    let per = match d.r#type {
        PMIX_STRING => size_of::<*mut c_char>(),
        PMIX_PROC_NSPACE => PMIX_MAX_NSLEN,
        PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => size_of::<*mut c_char>(),
        PMIX_INFO => 0,
        PMIX_UNDEF | PMIX_DATA_ARRAY => return Err(Error::Status(PMIX_ERR_UNKNOWN_DATA_TYPE)),
        t => crate::convert::elem_size(t)?,
    };
    let stride = crate::convert::elem_size(d.r#type)?;
    let mut sz = per * d.size;
    if d.r#type == PMIX_PROC_NSPACE {
        return Ok(sz);
    }
    for n in 0..d.size {
        if d.array.is_null() {
            break;
        }
        // SAFETY: element n lies in the array.
        sz += unsafe { elem_extra(d.array.cast::<u8>().add(n * stride), d.r#type) }?;
    }
    Ok(sz)
}

/// The size of a value, its own 32 bytes included.
///
/// # Safety
/// `v` is a valid value.
unsafe fn value_size(v: &pmix_value_t) -> Result<usize> {
    let d = &v.data;
    // SAFETY: the member read in each arm is the one `v.type` selects.
    let sz = unsafe {
        match v.r#type {
            PMIX_UNDEF => return Err(Error::Status(PMIX_ERR_UNKNOWN_DATA_TYPE)),
            PMIX_STRING => slen(d.string),
            PMIX_PROC_NSPACE => PMIX_MAX_NSLEN,
            PMIX_BYTE_OBJECT => {
                size_of::<pmix_byte_object_t>() + if d.bo.bytes.is_null() { 0 } else { d.bo.size }
            }
            PMIX_REGEX => size_of::<pmix_byte_object_t>() + d.bo.size,
            PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => compressed_len(&d.bo),
            PMIX_ENVAR => size_of::<pmix_envar_t>() + slen(d.envar.envar) + slen(d.envar.value),
            PMIX_DATA_ARRAY => size_of::<pmix_data_array_t>() + darray_size(ptr::req(d.darray)?)?,
            // Structures held by pointer: every pointer member of the union is the same
            // pointer, and `elem_extra` counts what each kind owns.
            PMIX_PROC_INFO | PMIX_COORD | PMIX_GEOMETRY | PMIX_DEVICE_DIST | PMIX_ENDPOINT
            | PMIX_REGATTR | PMIX_DATA_BUFFER | PMIX_PROC_STATS | PMIX_DISK_STATS
            | PMIX_NET_STATS | PMIX_NODE_STATS | PMIX_PROC_CPUSET | PMIX_TOPO => {
                let p = ptr::req(d.ptr.cast_const())?;
                crate::convert::elem_size(v.r#type)?
                    + elem_extra((p as *const c_void).cast(), v.r#type)?
            }
            t => scalar(t).ok_or(Error::Status(PMIX_ERR_UNKNOWN_DATA_TYPE))?,
        }
    };
    Ok(sz + size_of::<pmix_value_t>())
}

/// The size of an info: its value's, the key's length (with terminator; 511 for a key that
/// fills its field) and the info structure.
///
/// # Safety
/// `i` is a valid info.
unsafe fn info_size(i: &pmix_info_t) -> Result<usize> {
    // SAFETY: forwarded contract.
    let v = unsafe { value_size(&i.value) }?;
    let len = i
        .key
        .iter()
        .take(PMIX_MAX_KEYLEN)
        .take_while(|&&c| c != 0)
        .count();
    let key = if len == PMIX_MAX_KEYLEN {
        PMIX_MAX_KEYLEN
    } else {
        len + 1
    };
    Ok(v + key + size_of::<pmix_info_t>())
}

/// The memory `val` occupies: its structure and what it holds.
///
/// See OpenPMIx 5.0's `PMIx_Value_get_size`.
///
/// # Returns
/// `PMIX_SUCCESS` with `*size` set; `PMIX_ERR_BAD_PARAM` for NULL arguments or a NULL member
/// a type needs; `PMIX_ERR_UNKNOWN_DATA_TYPE` for `PMIX_UNDEF` or a type a value cannot
/// hold; `PMIX_ERROR` for a topology hwloc cannot size. `*size` is untouched on error.
///
/// # Safety
/// `val` is NULL or a valid value; `size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_get_size(
    val: *const pmix_value_t,
    size: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Value_get_size", || {
        // SAFETY: per this function's contract.
        let (v, out) = unsafe { (ptr::req(val)?, ptr::req_mut(size)?) };
        // SAFETY: a valid value.
        *out = unsafe { value_size(v) }?;
        Ok(())
    })
}

/// The memory `val` occupies: its value's size, its key's and the info structure's.
///
/// See OpenPMIx 5.0's `PMIx_Info_get_size`.
///
/// # Returns
/// As `PMIx_Value_get_size`.
///
/// # Safety
/// `val` is NULL or a valid info; `size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_get_size(
    val: *const pmix_info_t,
    size: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Info_get_size", || {
        // SAFETY: per this function's contract.
        let (i, out) = unsafe { (ptr::req(val)?, ptr::req_mut(size)?) };
        // SAFETY: a valid info.
        *out = unsafe { info_size(i) }?;
        Ok(())
    })
}
