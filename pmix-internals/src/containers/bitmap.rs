//! `pmix_bitmap_t`: a growable array of 64-bit words of bits (PRRTE's oob `addressable`
//! sets and the radix routing `relatives`).
//!
//! As OpenPMIx's: bit `n` is bit `n % 64` of word `n / 64`; `array_size` counts words.
//! `max_size` starts at `INT_MAX` and is compared with bit numbers by `init` and `set_bit`,
//! although `pmix_bitmap_set_max_size` stores it in words. `set_bit` grows the array to
//! just hold the bit (new words clear); `clear_bit` and `is_set_bit` never grow and refuse
//! (or answer false for) bits past the end.

use super::rc;
use crate::object::{Class, Object, pmix_object_t_class};
use core::ffi::c_int;
use core::ptr;

/// `pmix_bitmap_t` (136 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Bitmap {
    pub super_: Object,
    pub bitmap: *mut u64,
    pub array_size: c_int,
    pub max_size: c_int,
}

unsafe extern "C" fn construct(o: *mut Object) {
    let bm = o as *mut Bitmap;
    // SAFETY: called on a bitmap being constructed.
    unsafe {
        (*bm).bitmap = ptr::null_mut();
        (*bm).array_size = 0;
        (*bm).max_size = c_int::MAX;
    }
}

unsafe extern "C" fn destruct(o: *mut Object) {
    let bm = o as *mut Bitmap;
    // SAFETY: called on a constructed bitmap; its words are a libc allocation.
    unsafe {
        if !(*bm).bitmap.is_null() {
            libc::free((*bm).bitmap.cast());
            (*bm).bitmap = ptr::null_mut();
        }
    }
}

crate::class!(
    pmix_bitmap_t_class,
    Bitmap,
    &raw mut pmix_object_t_class,
    Some(construct),
    Some(destruct)
);

/// The class of bitmaps.
pub const fn class() -> *mut Class {
    &raw mut pmix_bitmap_t_class
}

/// `pmix_bitmap_init`: room for `size` bits, all clear (any previous words are freed).
/// `PMIX_ERR_BAD_PARAM` when `size` is not positive, exceeds `max_size`, or `bm` is null.
///
/// # Safety
/// `bm` is null or a constructed bitmap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_bitmap_init(bm: *mut Bitmap, size: c_int) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        if size <= 0 || bm.is_null() || size > (*bm).max_size {
            return rc::ERR_BAD_PARAM;
        }
        let words = (size as usize).div_ceil(64);
        (*bm).array_size = words as c_int;
        if !(*bm).bitmap.is_null() {
            libc::free((*bm).bitmap.cast());
            (*bm).bitmap = ptr::null_mut();
            if (*bm).max_size < (*bm).array_size {
                (*bm).max_size = (*bm).array_size;
            }
        }
        let p = libc::calloc(words, size_of::<u64>()) as *mut u64;
        (*bm).bitmap = p;
        if p.is_null() {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        rc::SUCCESS
    }
}

/// `pmix_bitmap_set_bit`: sets bit `bit`, growing the array to hold it.
/// `PMIX_ERR_BAD_PARAM` for a negative bit, one above `max_size`, or a null bitmap.
///
/// # Safety
/// `bm` is null or a constructed bitmap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_bitmap_set_bit(bm: *mut Bitmap, bit: c_int) -> c_int {
    // SAFETY: per the contract; the word index is below `array_size` once grown.
    unsafe {
        if bit < 0 || bm.is_null() || bit > (*bm).max_size {
            return rc::ERR_BAD_PARAM;
        }
        let index = bit / 64;
        if index >= (*bm).array_size || (*bm).bitmap.is_null() {
            let new_size = (index + 1).min((*bm).max_size);
            if new_size <= index {
                // OpenPMIx writes past its allocation here (a maximum of 0 words).
                return rc::ERR_BAD_PARAM;
            }
            let p = libc::realloc((*bm).bitmap.cast(), new_size as usize * size_of::<u64>())
                as *mut u64;
            if p.is_null() {
                return rc::ERR_OUT_OF_RESOURCE;
            }
            let old = if (*bm).bitmap.is_null() {
                0
            } else {
                (*bm).array_size.clamp(0, new_size)
            };
            ptr::write_bytes(p.add(old as usize), 0, (new_size - old) as usize);
            (*bm).bitmap = p;
            (*bm).array_size = new_size;
        }
        *(*bm).bitmap.add(index as usize) |= 1u64 << (bit % 64);
        rc::SUCCESS
    }
}

/// Whether `bit` is inside the array.
///
/// # Safety
/// `bm` is a constructed bitmap.
unsafe fn in_range(bm: *const Bitmap, bit: c_int) -> bool {
    // SAFETY: per the contract.
    unsafe { bit >= 0 && (bit as i64) < (*bm).array_size as i64 * 64 && !(*bm).bitmap.is_null() }
}

/// `pmix_bitmap_clear_bit`: clears bit `bit`; `PMIX_ERR_BAD_PARAM` when it is outside the
/// array or `bm` is null.
///
/// # Safety
/// `bm` is null or a constructed bitmap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_bitmap_clear_bit(bm: *mut Bitmap, bit: c_int) -> c_int {
    // SAFETY: per the contract; the bit is checked to be inside the array.
    unsafe {
        if bm.is_null() || !in_range(bm, bit) {
            return rc::ERR_BAD_PARAM;
        }
        *(*bm).bitmap.add((bit / 64) as usize) &= !(1u64 << (bit % 64));
    }
    rc::SUCCESS
}

/// `pmix_bitmap_is_set_bit`: whether bit `bit` is set (false outside the array or for a
/// null bitmap).
///
/// # Safety
/// `bm` is null or a constructed bitmap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_bitmap_is_set_bit(bm: *mut Bitmap, bit: c_int) -> bool {
    // SAFETY: per the contract; the bit is checked to be inside the array.
    unsafe {
        if bm.is_null() || !in_range(bm, bit) {
            return false;
        }
        *(*bm).bitmap.add((bit / 64) as usize) & (1u64 << (bit % 64)) != 0
    }
}

// The Rust-side API.

/// A new bitmap of `size` bits (`PMIX_NEW` + `pmix_bitmap_init`), or null.
///
/// # Safety
/// None beyond the usual: release the result with `crate::object::release`.
pub unsafe fn new(size: c_int) -> *mut Bitmap {
    // SAFETY: a fresh object of this class.
    unsafe {
        let bm = crate::object::new(class()) as *mut Bitmap;
        if bm.is_null() {
            return bm;
        }
        if pmix_bitmap_init(bm, size) != rc::SUCCESS {
            crate::object::release(bm as *mut Object);
            return ptr::null_mut();
        }
        bm
    }
}

/// The number of bits the array holds (the inline `pmix_bitmap_size`).
///
/// # Safety
/// `bm` is null or a constructed bitmap.
pub unsafe fn size(bm: *const Bitmap) -> c_int {
    // SAFETY: per the contract.
    unsafe { bm.as_ref().map_or(0, |b| b.array_size.saturating_mul(64)) }
}

/// The words, lowest first.
///
/// # Safety
/// `bm` is a constructed bitmap.
pub unsafe fn words(bm: *const Bitmap) -> Vec<u64> {
    // SAFETY: per the contract.
    unsafe {
        if (*bm).bitmap.is_null() {
            return Vec::new();
        }
        core::slice::from_raw_parts((*bm).bitmap, (*bm).array_size.max(0) as usize).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_set_clear_and_grow() {
        // SAFETY: bitmaps made and released here.
        unsafe {
            assert_eq!(pmix_bitmap_init(ptr::null_mut(), 8), rc::ERR_BAD_PARAM);
            let bm = crate::object::new(class()) as *mut Bitmap;
            assert_eq!(((*bm).array_size, (*bm).max_size), (0, c_int::MAX));
            assert_eq!(pmix_bitmap_init(bm, 0), rc::ERR_BAD_PARAM);
            assert_eq!(pmix_bitmap_init(bm, 8), rc::SUCCESS);
            assert_eq!(words(bm), [0]);
            assert_eq!(pmix_bitmap_set_bit(bm, 3), rc::SUCCESS);
            assert_eq!(pmix_bitmap_set_bit(bm, 63), rc::SUCCESS);
            assert!(pmix_bitmap_is_set_bit(bm, 3));
            assert!(!pmix_bitmap_is_set_bit(bm, 4));
            assert!(!pmix_bitmap_is_set_bit(bm, 64));
            assert!(!pmix_bitmap_is_set_bit(bm, -1));
            assert_eq!(pmix_bitmap_clear_bit(bm, 64), rc::ERR_BAD_PARAM);
            assert_eq!(pmix_bitmap_set_bit(bm, -1), rc::ERR_BAD_PARAM);
            assert_eq!(pmix_bitmap_set_bit(bm, 200), rc::SUCCESS);
            assert_eq!((*bm).array_size, 4);
            assert_eq!(words(bm), [1 << 3 | 1 << 63, 0, 0, 1 << 8]);
            assert_eq!(pmix_bitmap_clear_bit(bm, 3), rc::SUCCESS);
            assert_eq!(pmix_bitmap_clear_bit(bm, 4), rc::SUCCESS);
            assert_eq!(words(bm)[0], 1 << 63);
            assert_eq!(size(bm), 256);
            // Re-init: a fresh, clear array.
            assert_eq!(pmix_bitmap_init(bm, 65), rc::SUCCESS);
            assert_eq!(words(bm), [0, 0]);
            crate::object::release(bm as *mut Object);
            let bm = new(1);
            assert_eq!(words(bm), [0]);
            crate::object::release(bm as *mut Object);
        }
    }
}
