//! `PMIx_Data_pack/unpack/copy/copy_payload/unload/load/embed/compress/decompress`: the
//! data-buffer API over the v41 codec of `pmix_core::codec`.
//!
//! A `pmix_data_buffer_t` is caller memory whose storage (`base_ptr`) is malloc'd: callers
//! release it with `PMIX_DATA_BUFFER_DESTRUCT`/`_RELEASE`, which call `free()`. Packing grows
//! the storage with `realloc` by the reference's rule (`codec::buffer_alloc_size`); the packed
//! bytes are `base_ptr[0..bytes_used]`, `pack_ptr` is `base_ptr + bytes_used` and
//! `unpack_ptr` marks the next byte to unpack. A buffer whose fields disagree (NULL storage
//! with bytes in use, an unpack position outside the packed bytes) is refused with
//! `PMIX_ERR_BAD_PARAM`, and no call reads past `bytes_used`.
//!
//! The buffer type (fully described or not) is the reference's: `PMIX_BFROP_BUFFER_TYPE` in
//! the environment, read once, on first use (the reference reads it at initialization).

use core::ffi::{c_char, c_void};
use std::sync::OnceLock;

use pmix_core::codec::{self, BufferType, Decoder, Encoder};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert::{self, Zeroable};
use crate::ptr;
use crate::{alloc, entry};

/// The buffer type of every buffer this process packs and unpacks.
fn buffer_type() -> BufferType {
    static MODE: OnceLock<BufferType> = OnceLock::new();
    *MODE.get_or_init(BufferType::from_env)
}

/// Checks the peer named as target or source of a pack. NULL means "a peer of our own
/// version". Every peer speaks our buffer format, so a named one only has to be known: the
/// process's own namespace (PRRTE packs with its daemon's own name), its server's, or one
/// its server registered (`lifecycle::knows_nspace`); OpenPMIx answers
/// `PMIX_ERR_NOT_FOUND` for a process it cannot place, and for any before an init.
fn check_peer(p: *const pmix_proc_t) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    // SAFETY: a non-NULL target is a valid pmix_proc_t (the function's contract).
    let nspace = ptr::fixed_str(unsafe { &(*p).nspace });
    if nspace.is_ok_and(|ns| crate::lifecycle::knows_nspace(&ns)) {
        Ok(())
    } else {
        Err(Error::NotFound)
    }
}

/// The packed bytes of a buffer and the offset of its unpack position.
///
/// # Safety
/// `b.base_ptr` is NULL or points to `b.bytes_used` readable bytes.
unsafe fn contents(b: &pmix_data_buffer_t) -> Result<(&[u8], usize)> {
    if b.base_ptr.is_null() {
        if b.bytes_used != 0 {
            return Err(Error::BadParam);
        }
        return Ok((&[], 0));
    }
    if b.bytes_used > b.bytes_allocated || b.unpack_ptr.is_null() {
        return Err(Error::BadParam);
    }
    let off = (b.unpack_ptr as usize).wrapping_sub(b.base_ptr as usize);
    if b.unpack_ptr < b.base_ptr || off > b.bytes_used {
        return Err(Error::BadParam);
    }
    // SAFETY: forwarded contract.
    let data = unsafe { ptr::slice(b.base_ptr.cast::<u8>(), b.bytes_used) }?;
    Ok((data, off))
}

/// The bytes of a buffer not yet unpacked.
///
/// # Safety
/// As for `contents`.
unsafe fn unread(b: &pmix_data_buffer_t) -> Result<&[u8]> {
    // SAFETY: forwarded contract.
    let (data, off) = unsafe { contents(b) }?;
    Ok(&data[off..])
}

/// Appends `bytes` to a buffer, growing its storage by the reference's rule. On error the
/// buffer is unchanged.
///
/// # Safety
/// `b` is a consistent buffer whose storage is NULL or malloc'd.
unsafe fn append(b: &mut pmix_data_buffer_t, bytes: &[u8]) -> Result<()> {
    // SAFETY: forwarded contract.
    let (used, off) = unsafe { contents(b) }.map(|(d, off)| (d.len(), off))?;
    if bytes.is_empty() {
        return Ok(());
    }
    let needed = used.checked_add(bytes.len()).ok_or(Error::NoMem)?;
    let (mut base, mut allocated) = (b.base_ptr, b.bytes_allocated);
    if base.is_null() {
        allocated = 0;
    }
    if needed > allocated {
        let size = codec::buffer_alloc_size(needed);
        // SAFETY: `base` is NULL or malloc'd storage of this buffer; on failure it stays valid.
        let p = unsafe { libc::realloc(base.cast(), size) };
        if p.is_null() {
            return Err(Error::NoMem);
        }
        base = p.cast();
        allocated = size;
    }
    // SAFETY: `base` holds `allocated >= needed` bytes; `bytes` is caller data elsewhere
    // (copy_payload passes a private copy).
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), base.add(used).cast(), bytes.len()) };
    b.base_ptr = base;
    b.bytes_allocated = allocated;
    b.bytes_used = needed;
    b.pack_ptr = base.wrapping_add(needed);
    b.unpack_ptr = base.wrapping_add(off);
    Ok(())
}

/// Frees a buffer's storage and leaves it empty (all fields zero).
///
/// # Safety
/// `b.base_ptr` is NULL or malloc'd and not used elsewhere.
unsafe fn clear(b: &mut pmix_data_buffer_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut b.base_ptr) };
    *b = pmix_data_buffer_t::zeroed();
}

/// Packs `num_vals` values of type `type_` from `src` into `buffer`, appending one top-level
/// pack in the v41 format the reference uses.
///
/// `src` is an array of `num_vals` elements laid out as C holds that type: `char *` for
/// `PMIX_STRING` and `PMIX_REGEX`, `pmix_nspace_t` for `PMIX_PROC_NSPACE`, `pmix_value_t`
/// for `PMIX_VALUE`, the structure itself for structured types.
///
/// See PMIx Standard v5, `PMIx_Data_pack`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL or inconsistent `buffer`, a negative
/// count, a NULL `src` with values to pack, or data the format cannot carry;
/// `PMIX_ERR_NOT_FOUND` when `target` names a process (this library has no peers);
/// `PMIX_ERR_UNKNOWN_DATA_TYPE` for types the format does not have (`PMIX_UNDEF`,
/// `PMIX_BUFFER`, retired and unassigned numbers); `PMIX_ERR_NOT_SUPPORTED` for
/// `PMIX_KVAL` (an internal structure) and cpusets or topologies not made by hwloc;
/// `PMIX_ERR_NOMEM`. On error the buffer is unchanged.
///
/// # Safety
/// `target` is NULL or a valid proc; `buffer` is NULL or a valid buffer whose storage is NULL
/// or malloc'd; `(src, num_vals)` is a valid array of the type's C elements.
///
/// Ownership: the buffer's storage stays the caller's (it may move: `base_ptr` is updated).
///
/// Threading: runs on the calling thread; the buffer must not be used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_pack(
    target: *const pmix_proc_t,
    buffer: *mut pmix_data_buffer_t,
    src: *mut c_void,
    num_vals: i32,
    r#type: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_pack", || {
        // SAFETY: per this function's contract.
        let buf = unsafe { ptr::req_mut(buffer) }?;
        check_peer(target)?;
        let n = usize::try_from(num_vals).map_err(|_| Error::BadParam)?;
        if !codec::is_codec_type(r#type) {
            return Err(Error::UnknownDataType(r#type));
        }
        // SAFETY: per this function's contract.
        let values = unsafe { convert::array_from_c(src, n, r#type) }?;
        let mut enc = Encoder::new(buffer_type());
        enc.pack(r#type, &values)?;
        // SAFETY: per this function's contract.
        unsafe { append(buf, &enc.buf) }
    })
}

/// Unpacks the next top-level pack of `buffer`, which must hold values of type `type_`, into
/// `dest`, at most `*max_num_values` of them.
///
/// See PMIx Standard v5, `PMIx_Data_unpack`.
///
/// # Returns
/// `PMIX_SUCCESS` with `*max_num_values` set to the number unpacked;
/// `PMIX_ERR_UNPACK_INADEQUATE_SPACE` when `*max_num_values` is not positive (nothing is
/// read), or when the pack holds more values than that (the first `*max_num_values` are
/// unpacked, the rest stay unread, as in the reference);
/// `PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER` when the buffer is exhausted or ends inside the
/// pack; `PMIX_ERR_PACK_MISMATCH` when a fully described buffer holds another type;
/// `PMIX_ERR_UNKNOWN_DATA_TYPE`; `PMIX_ERR_UNPACK_FAILURE` for damaged data;
/// `PMIX_ERR_BAD_PARAM` for NULL arguments or an inconsistent buffer; `PMIX_ERR_NOT_FOUND`
/// when `source` names a process; `PMIX_ERR_NOT_SUPPORTED` for `PMIX_KVAL`. On these errors
/// nothing is written to `dest`, the buffer's unpack position is unchanged, and
/// `*max_num_values` is set to 0 once the arguments were accepted.
///
/// # Safety
/// `source` is NULL or a valid proc; `buffer` is NULL or a valid buffer; `dest` is NULL or
/// has room for `*max_num_values` C elements of the type; `max_num_values` is NULL or valid.
///
/// Ownership: what is written to `dest` is libc-allocated; release each element with its
/// `_DESTRUCT` macro (strings with `free()`).
///
/// Threading: runs on the calling thread; the buffer must not be used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_unpack(
    source: *const pmix_proc_t,
    buffer: *mut pmix_data_buffer_t,
    dest: *mut c_void,
    max_num_values: *mut i32,
    r#type: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_unpack", || {
        // SAFETY: per this function's contract.
        let (buf, max) = unsafe { (ptr::req_mut(buffer)?, ptr::req_mut(max_num_values)?) };
        if dest.is_null() {
            return Err(Error::BadParam);
        }
        check_peer(source)?;
        let cap = usize::try_from(*max)
            .ok()
            .filter(|&c| c > 0)
            .ok_or(Error::UnpackInadequateSpace)?;
        if r#type == PMIX_KVAL {
            return Err(Error::NotSupported);
        }
        // SAFETY: per this function's contract.
        let (data, off) = unsafe { contents(buf) }?;
        let mut dec = Decoder::new(buffer_type(), &data[off..]);
        let unpacked = match dec.unpack(r#type, cap) {
            Ok(u) => u,
            Err(e) => {
                *max = 0;
                return Err(e);
            }
        };
        let n = unpacked.values.len();
        // Pointers never travel: the reference consumes their marker bytes and leaves the
        // destination alone.
        if n > 0 && r#type != PMIX_POINTER {
            // Convert into a private array first, so a failure leaves `dest` untouched.
            let size = convert::elem_size(r#type)?;
            let tmp = match convert::array_to_c(&unpacked.values, r#type) {
                Ok(t) => t,
                Err(e) => {
                    *max = 0;
                    return Err(e);
                }
            };
            // SAFETY: `tmp` holds n elements of `size` bytes and `dest` has room for
            // `*max >= n` of them; the elements move to `dest`, so only the array is freed.
            unsafe {
                core::ptr::copy_nonoverlapping(tmp.cast::<u8>(), dest.cast::<u8>(), n * size);
                libc::free(tmp);
            }
        }
        buf.unpack_ptr = buf.base_ptr.wrapping_add(off + dec.position());
        *max = i32::try_from(n).unwrap_or(i32::MAX);
        if unpacked.more {
            Err(Error::UnpackInadequateSpace)
        } else {
            Ok(())
        }
    })
}

/// A malloc'd copy of the string `s` with at most `max` bytes, in storage of at least
/// `room` bytes (zero-filled).
///
/// # Safety
/// `s` is a C string.
unsafe fn copy_cstr(s: *const c_char, max: usize, room: usize) -> Result<*mut c_void> {
    // SAFETY: forwarded contract.
    let b = unsafe { ptr::cstr(s) }?.to_bytes();
    let b = &b[..b.len().min(max)];
    let p = alloc::calloc_bytes(room.max(b.len() + 1), 1)?;
    // SAFETY: `p` has room for b.len() + 1 bytes.
    unsafe { core::ptr::copy_nonoverlapping(b.as_ptr(), p.cast::<u8>(), b.len()) };
    Ok(p)
}

/// Makes a deep copy of one datum of type `type_` at `src` in new malloc'd storage, and
/// stores its address in `*dest`.
///
/// `src` points to the datum, except for `PMIX_STRING`, `PMIX_REGEX` and `PMIX_PROC_NSPACE`,
/// where it is the string itself (the copy is then the string, for a namespace in a
/// `pmix_nspace_t`-sized allocation).
///
/// See PMIx Standard v5, `PMIx_Data_copy`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for NULL arguments or a datum with a counted NULL
/// array; `PMIX_ERR_UNKNOWN_DATA_TYPE` for `PMIX_UNDEF`, `PMIX_BUFFER` and unknown types;
/// `PMIX_ERR_NOT_SUPPORTED` for `PMIX_KVAL` and for cpusets and topologies that cannot be
/// copied; `PMIX_ERR_NOMEM`. On error `*dest` is untouched.
///
/// # Safety
/// `dest` is NULL or writable; `src` is NULL or a valid datum of the type as described.
///
/// Ownership: `*dest` is libc-allocated; destruct structures with their `_DESTRUCT` macro,
/// then `free()` it.
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_copy(
    dest: *mut *mut c_void,
    src: *mut c_void,
    r#type: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_copy", || {
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(dest) }?;
        if src.is_null() {
            return Err(Error::BadParam);
        }
        if !codec::is_codec_type(r#type) {
            return Err(Error::UnknownDataType(r#type));
        }
        let p = match r#type {
            // SAFETY: for these types `src` is a C string, per the contract.
            PMIX_STRING | PMIX_REGEX => unsafe { copy_cstr(src.cast(), usize::MAX, 0) }?,
            PMIX_PROC_NSPACE => {
                // SAFETY: as above.
                unsafe { copy_cstr(src.cast(), PMIX_MAX_NSLEN, PMIX_NSPACE_BUFLEN) }?
            }
            _ => {
                // SAFETY: `src` points to a datum of the type, per the contract.
                let v = unsafe { convert::elem_from_c(src, r#type) }?;
                let size = convert::elem_size(r#type)?;
                let p = alloc::calloc_bytes(1, size)?;
                // SAFETY: `p` has room for one element of the type.
                if let Err(e) = unsafe { convert::elem_to_c(&v, r#type, p) } {
                    // SAFETY: `p` is the fresh allocation above; nothing was written to it.
                    unsafe { libc::free(p) };
                    return Err(e);
                }
                p
            }
        };
        *out = p;
        Ok(())
    })
}

/// Appends the unread bytes of `src` to `dest`; `src` is not changed.
///
/// See PMIx Standard v5, `PMIx_Data_copy_payload`.
///
/// # Returns
/// `PMIX_SUCCESS` (also when `src` has nothing unread); `PMIX_ERR_BAD_PARAM` for NULL or
/// inconsistent buffers (the reference crashes on NULL); `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `dest` and `src` are NULL or valid buffers (they may be the same buffer).
///
/// Ownership: unchanged; `dest`'s storage may move.
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_copy_payload(
    dest: *mut pmix_data_buffer_t,
    src: *mut pmix_data_buffer_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_copy_payload", || {
        if dest.is_null() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract; the bytes are copied out before `dest` is
        // touched, since both may be the same buffer.
        let bytes = unsafe { unread(ptr::req(src)?) }?.to_vec();
        // SAFETY: per this function's contract; no other reference to `*dest` is live.
        unsafe { append(&mut *dest, &bytes) }
    })
}

/// Moves the unread bytes of `buffer` into `payload` and leaves the buffer empty.
///
/// See PMIx Standard v5, `PMIx_Data_unload`.
///
/// # Returns
/// `PMIX_SUCCESS` (`payload` is `{NULL, 0}` when nothing was unread);
/// `PMIX_ERR_BAD_PARAM` for NULL arguments or an inconsistent buffer; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `buffer` is NULL or a valid buffer with malloc'd storage; `payload` is NULL or writable
/// (its previous contents are overwritten, not freed).
///
/// Ownership: `payload->bytes` is malloc'd and belongs to the caller (`PMIX_BYTE_OBJECT_DESTRUCT`).
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_unload(
    buffer: *mut pmix_data_buffer_t,
    payload: *mut pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_unload", || {
        // SAFETY: per this function's contract.
        let (buf, out) = unsafe { (ptr::req_mut(buffer)?, ptr::req_mut(payload)?) };
        // SAFETY: per this function's contract.
        let bo = convert::bo_to_c(unsafe { unread(buf) }?)?;
        *out = bo;
        // SAFETY: the storage is malloc'd, per the contract, and no longer referenced.
        unsafe { clear(buf) };
        Ok(())
    })
}

/// Replaces the contents of `buffer` with `payload`, taking over its bytes: afterwards the
/// buffer holds them, ready to unpack, and `payload` is `{NULL, 0}`.
///
/// See PMIx Standard v5, `PMIx_Data_load`.
///
/// # Returns
/// `PMIX_SUCCESS` (a NULL or empty payload leaves the buffer empty); `PMIX_ERR_BAD_PARAM`
/// for a NULL buffer or a payload with a size but no bytes.
///
/// # Safety
/// `buffer` is NULL or a valid buffer whose storage is NULL or malloc'd; `payload` is NULL or
/// a valid byte object whose bytes are NULL or malloc'd.
///
/// Ownership: the payload's bytes pass to the buffer (released with the buffer).
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_load(
    buffer: *mut pmix_data_buffer_t,
    payload: *mut pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_load", || {
        // SAFETY: per this function's contract.
        let buf = unsafe { ptr::req_mut(buffer) }?;
        // SAFETY: per this function's contract.
        let bo = unsafe { payload.as_mut() };
        if let Some(bo) = &bo {
            if bo.bytes.is_null() && bo.size > 0 {
                return Err(Error::BadParam);
            }
        }
        // SAFETY: the buffer's storage is NULL or malloc'd, per the contract.
        unsafe { clear(buf) };
        if let Some(bo) = bo {
            if bo.size > 0 {
                buf.base_ptr = bo.bytes;
                buf.pack_ptr = bo.bytes.wrapping_add(bo.size);
                buf.unpack_ptr = bo.bytes;
                buf.bytes_allocated = bo.size;
                buf.bytes_used = bo.size;
                bo.bytes = core::ptr::null_mut();
            } else {
                // An empty payload: its (malloc'd) bytes are released with it.
                // SAFETY: per the contract the bytes are NULL or malloc'd.
                unsafe { alloc::free(&mut bo.bytes) };
            }
            bo.size = 0;
        }
        Ok(())
    })
}

/// Replaces the contents of `buffer` with a copy of `payload`, which is left unchanged.
///
/// See PMIx Standard v5, `PMIx_Data_embed`.
///
/// # Returns
/// `PMIX_SUCCESS` (a NULL or empty payload leaves the buffer empty); `PMIX_ERR_BAD_PARAM`
/// for a NULL buffer or a payload with a size but no bytes; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `buffer` is NULL or a valid buffer whose storage is NULL or malloc'd; `payload` is NULL or
/// a valid byte object.
///
/// Ownership: the buffer's new storage is malloc'd; the payload stays the caller's.
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_embed(
    buffer: *mut pmix_data_buffer_t,
    payload: *const pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Data_embed", || {
        // SAFETY: per this function's contract.
        let buf = unsafe { ptr::req_mut(buffer) }?;
        // SAFETY: per this function's contract.
        let bytes = match unsafe { payload.as_ref() } {
            // SAFETY: a valid byte object, per the contract.
            Some(bo) => unsafe { convert::bo_from_c(bo) }?,
            None => Vec::new(),
        };
        let mut fresh = pmix_data_buffer_t::zeroed();
        // SAFETY: `fresh` is an empty buffer.
        unsafe { append(&mut fresh, &bytes) }?;
        // SAFETY: the old storage is NULL or malloc'd, per the contract.
        unsafe { clear(buf) };
        *buf = fresh;
        Ok(())
    })
}

/// Writes `bytes` to a new malloc'd block with one extra zero byte after them.
fn malloc_copy(bytes: &[u8]) -> Result<*mut u8> {
    let p = alloc::calloc_bytes(bytes.len() + 1, 1)?.cast::<u8>();
    // SAFETY: `p` has room for bytes.len() + 1 bytes.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
    Ok(p)
}

/// Checks the arguments of compress/decompress: the input and both out-pointers.
///
/// # Safety
/// As `PMIx_Data_compress` documents.
unsafe fn zargs<'a>(
    inbytes: *const u8,
    size: usize,
    outbytes: *mut *mut u8,
    nbytes: *mut usize,
) -> Option<(&'a [u8], &'a mut *mut u8, &'a mut usize)> {
    if inbytes.is_null() {
        return None;
    }
    // SAFETY: forwarded contract.
    unsafe {
        Some((
            ptr::slice(inbytes, size).ok()?,
            ptr::req_mut(outbytes).ok()?,
            ptr::req_mut(nbytes).ok()?,
        ))
    }
}

/// Compresses `size` bytes at `inbytes` with zlib into a new block: the input length as a
/// 4-byte host-order integer, then the zlib stream (level 9). The reference's
/// `PMIx_Data_decompress` reads these blocks.
///
/// See PMIx Standard v5, `PMIx_Data_compress`.
///
/// # Returns
/// `true` with `*outbytes`/`*nbytes` set; `false` with `*outbytes` NULL and `*nbytes` 0 when
/// the input is shorter than 4096 bytes, longer than 4 GiB, or does not shrink; `false`
/// with nothing written for NULL arguments (the reference returns `true` for a NULL
/// `inbytes` and leaves the outputs unset).
///
/// # Safety
/// `inbytes` is NULL or points to `size` bytes; `outbytes` and `nbytes` are NULL or writable.
///
/// Ownership: `*outbytes` is malloc'd; release with `free()`.
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_compress(
    inbytes: *const u8,
    size: usize,
    outbytes: *mut *mut u8,
    nbytes: *mut usize,
) -> bool {
    entry::guard("PMIx_Data_compress", false, || {
        // SAFETY: per this function's contract.
        let Some((input, out, n)) = (unsafe { zargs(inbytes, size, outbytes, nbytes) }) else {
            return false;
        };
        *out = core::ptr::null_mut();
        *n = 0;
        let Some(block) = codec::compress::compress_block(input) else {
            return false;
        };
        let Ok(p) = malloc_copy(&block) else {
            return false;
        };
        *out = p;
        *n = block.len();
        true
    })
}

/// Decompresses a block made by `PMIx_Data_compress` (ours or the reference's) into new
/// storage; the result is followed by one zero byte not counted in `*nbytes`.
///
/// See PMIx Standard v5, `PMIx_Data_decompress`.
///
/// # Returns
/// `true` with `*outbytes`/`*nbytes` set; `false` with `*outbytes` NULL and `*nbytes` 0 for
/// a damaged block, one whose stream does not produce exactly the length its header
/// announces, or an input under 4 bytes; `false` with nothing written for NULL arguments.
///
/// # Safety
/// `inbytes` is NULL or points to `size` bytes; `outbytes` and `nbytes` are NULL or writable.
///
/// Ownership: `*outbytes` is malloc'd; release with `free()`.
///
/// Threading: runs on the calling thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_decompress(
    inbytes: *const u8,
    size: usize,
    outbytes: *mut *mut u8,
    nbytes: *mut usize,
) -> bool {
    entry::guard("PMIx_Data_decompress", false, || {
        // SAFETY: per this function's contract.
        let Some((input, out, n)) = (unsafe { zargs(inbytes, size, outbytes, nbytes) }) else {
            return false;
        };
        *out = core::ptr::null_mut();
        *n = 0;
        let Some(data) = codec::compress::decompress_block(input) else {
            return false;
        };
        let Ok(p) = malloc_copy(&data) else {
            return false;
        };
        *out = p;
        *n = data.len();
        true
    })
}

/// Unpacks core values out of raw bytes as `PMIx_Data_unpack` would, for the fuzz harness
/// and tests: never panics, whatever the bytes.
#[doc(hidden)]
pub fn fuzz_unpack(bytes: &[u8], ty: pmix_data_type_t, max: i32) -> pmix_status_t {
    let mut buf = pmix_data_buffer_t::zeroed();
    // SAFETY: `buf` is an empty buffer.
    if unsafe { append(&mut buf, bytes) }.is_err() {
        return PMIX_ERR_NOMEM;
    }
    let size = convert::elem_size(ty).unwrap_or(0).max(1);
    let room = usize::try_from(max).unwrap_or(0).max(1);
    let dest = alloc::calloc_bytes(room, size).unwrap_or(core::ptr::null_mut());
    let mut n = max;
    let mut rc = PMIX_ERR_NOMEM;
    if !dest.is_null() {
        // SAFETY: `buf` is a valid buffer and `dest` has room for `max` elements.
        rc = unsafe { PMIx_Data_unpack(core::ptr::null(), &mut buf, dest, &mut n, ty) };
        let done = if rc == PMIX_SUCCESS || rc == PMIX_ERR_UNPACK_INADEQUATE_SPACE {
            usize::try_from(n).unwrap_or(0)
        } else {
            0
        };
        // SAFETY: `dest` holds `done` unpacked elements, all libc-allocated and owned here
        // (whatever their flags say).
        unsafe {
            convert::clear_persistent(dest, done, ty);
            convert::array_free(dest, done, ty);
        }
    }
    // SAFETY: the storage was malloc'd by `append`.
    unsafe { clear(&mut buf) };
    rc
}
