//! `pmix_pointer_array_t`: a growable array of pointers with a bitmap of used slots.
//!
//! PRRTE compiles OpenPMIx's inline `pmix_pointer_array_get_item` (reads `size` and `addr`)
//! and `pmix_pointer_array_remove_all` (clears `addr[0..size]` and the first
//! `ceil(size / 64)` words of `free_bits`), and copies the fields by hand in one place, so the
//! state is kept exactly as OpenPMIx keeps it:
//!
//! - `addr` holds `size` slots; a null slot is free;
//! - bit `i % 64` of word `i / 64` of `free_bits` is set when slot `i` is taken (the name is
//!   OpenPMIx's); the words cover `ceil(size / 64)`, bits past `size` stay clear;
//! - `number_free` counts the free slots; `lowest_free` is the first free one, or `size` when
//!   the array is full;
//! - growing to hold index `n` gives `size = block_size * ceil((n + 1) / block_size)`, capped
//!   at `max_size` (and refused when `n >= max_size`); `add` on a full array asks for
//!   index `size + 1`.

use super::{obj_tma, rc, tma_calloc, tma_free, tma_realloc};
use crate::object::{Class, Object, pmix_object_t_class};
use core::ffi::{c_int, c_void};
use core::ptr;

/// `pmix_pointer_array_t` (160 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct PointerArray {
    pub super_: Object,
    pub lowest_free: c_int,
    pub number_free: c_int,
    pub size: c_int,
    pub max_size: c_int,
    pub block_size: c_int,
    pub free_bits: *mut u64,
    pub addr: *mut *mut c_void,
}

/// Words of `free_bits` that cover `n` slots.
fn words(n: c_int) -> usize {
    (n.max(0) as usize).div_ceil(64)
}

unsafe extern "C" fn construct(o: *mut Object) {
    let a = o as *mut PointerArray;
    // SAFETY: called on an array being constructed.
    unsafe {
        (*a).lowest_free = 0;
        (*a).number_free = 0;
        (*a).size = 0;
        (*a).max_size = c_int::MAX;
        (*a).block_size = 8;
        (*a).free_bits = ptr::null_mut();
        (*a).addr = ptr::null_mut();
    }
}

unsafe extern "C" fn destruct(o: *mut Object) {
    let a = o as *mut PointerArray;
    // SAFETY: called on a constructed array; both buffers came from its allocator.
    unsafe {
        let tma = obj_tma(o);
        if !(*a).free_bits.is_null() {
            tma_free(tma, (*a).free_bits.cast());
            (*a).free_bits = ptr::null_mut();
        }
        if !(*a).addr.is_null() {
            tma_free(tma, (*a).addr.cast());
            (*a).addr = ptr::null_mut();
        }
        (*a).size = 0;
    }
}

crate::class!(
    pmix_pointer_array_t_class,
    PointerArray,
    &raw mut pmix_object_t_class,
    Some(construct),
    Some(destruct)
);

/// The class of pointer arrays.
pub const fn class() -> *mut Class {
    &raw mut pmix_pointer_array_t_class
}

/// Marks slot `i` taken in the bitmap.
///
/// # Safety
/// `0 <= i < size`.
unsafe fn mark_taken(t: *mut PointerArray, i: c_int) {
    let i = i as u32;
    // SAFETY: the word exists for a slot below `size`.
    unsafe { *(*t).free_bits.add((i / 64) as usize) |= 1u64 << (i % 64) }
}

/// Flips slot `i`'s bit back (OpenPMIx flips rather than clears: a bit that was never set,
/// as after PRRTE's hand copy of `addr`, becomes set).
///
/// # Safety
/// `0 <= i < size`.
unsafe fn flip(t: *mut PointerArray, i: c_int) {
    let i = i as u32;
    // SAFETY: as `mark_taken`.
    unsafe { *(*t).free_bits.add((i / 64) as usize) ^= 1u64 << (i % 64) }
}

/// The first clear bit in the first word, from the one holding `from` on, that is not full;
/// `size` when no slot is free (or, in a state that lost count, none is found).
///
/// # Safety
/// `t` is an initialized array.
unsafe fn first_free_from(t: *mut PointerArray, from: c_int) -> c_int {
    // SAFETY: only the words covering `size` are read.
    unsafe {
        if (*t).number_free == 0 {
            return (*t).size;
        }
        let n = words((*t).size);
        let mut w = (from.max(0) as u32 / 64) as usize;
        while w < n {
            let bits = *(*t).free_bits.add(w);
            if bits != u64::MAX {
                return (w * 64) as c_int + bits.trailing_ones() as c_int;
            }
            w += 1;
        }
        (*t).size
    }
}

/// Grows the array so that it holds index `at_least` (see the module notes). False when
/// `max_size` forbids it or memory runs out.
///
/// # Safety
/// `t` is a constructed array.
unsafe fn grow(t: *mut PointerArray, at_least: c_int) -> bool {
    // SAFETY: per the contract; the buffers are reallocated with the array's allocator.
    unsafe {
        let block = (*t).block_size as i64;
        if block <= 0 {
            // OpenPMIx divides by zero here (an array never initialized from a static
            // initializer): refuse instead.
            return false;
        }
        let want = at_least as i64 + 1;
        let mut new_size = block * ((want + block - 1) / block);
        if new_size >= (*t).max_size as i64 {
            new_size = (*t).max_size as i64;
            if at_least >= (*t).max_size {
                return false;
            }
        }
        let new_size = new_size as c_int;
        let old = (*t).size;
        if new_size <= old {
            return false;
        }
        let tma = obj_tma(&raw mut (*t).super_);
        let p = tma_realloc(
            tma,
            (*t).addr.cast(),
            new_size as usize * size_of::<*mut c_void>(),
        );
        if p.is_null() {
            return false;
        }
        (*t).addr = p.cast();
        (*t).number_free += new_size - old;
        for i in old.max(0)..new_size {
            *(*t).addr.add(i as usize) = ptr::null_mut();
        }
        let (old_w, new_w) = (words(old), words(new_size));
        if old_w != new_w {
            let p = tma_realloc(tma, (*t).free_bits.cast(), new_w * size_of::<u64>());
            if p.is_null() {
                return false;
            }
            (*t).free_bits = p.cast();
            for w in old_w..new_w {
                *(*t).free_bits.add(w) = 0;
            }
        }
        (*t).size = new_size;
        true
    }
}

/// `pmix_pointer_array_init`: allocates `initial_allocation` slots (or `block_size` when
/// that is not positive), all free. `PMIX_ERR_BAD_PARAM` when `array` is null or `max_size <
/// block_size`; a `block_size` of 0 means 8 for later growth.
///
/// # Safety
/// `array` is null or a constructed pointer array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pointer_array_init(
    array: *mut PointerArray,
    initial_allocation: c_int,
    max_size: c_int,
    block_size: c_int,
) -> c_int {
    if array.is_null() || max_size < block_size {
        return rc::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let tma = obj_tma(&raw mut (*array).super_);
        (*array).max_size = max_size;
        (*array).block_size = if block_size == 0 { 8 } else { block_size };
        (*array).lowest_free = 0;
        // As OpenPMIx, the first allocation falls back to the block size as given (so 0
        // slots when both are 0) and a negative one fails as an allocation would.
        let n = if initial_allocation > 0 {
            initial_allocation
        } else {
            block_size
        };
        if n < 0 {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        let addr = tma_calloc(tma, n as usize, size_of::<*mut c_void>());
        if addr.is_null() {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        let bits = tma_calloc(tma, words(n), size_of::<u64>());
        if bits.is_null() {
            tma_free(tma, addr);
            (*array).addr = ptr::null_mut();
            return rc::ERR_OUT_OF_RESOURCE;
        }
        (*array).addr = addr.cast();
        (*array).free_bits = bits.cast();
        (*array).number_free = n;
        (*array).size = n;
        rc::SUCCESS
    }
}

/// `pmix_pointer_array_add`: stores `ptr` in the lowest free slot (growing the array when it
/// is full) and returns that index, or `PMIX_ERR_OUT_OF_RESOURCE`.
///
/// # Safety
/// `table` is null or a constructed pointer array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pointer_array_add(
    table: *mut PointerArray,
    ptr: *mut c_void,
) -> c_int {
    if table.is_null() {
        return rc::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        // A full array, or one whose count disagrees with its slots (OpenPMIx would write
        // past the end then), grows first.
        if ((*table).number_free == 0 || (*table).lowest_free >= (*table).size)
            && !grow(table, (*table).size + 1)
        {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        let index = (*table).lowest_free;
        if index < 0 || index >= (*table).size {
            return rc::ERROR;
        }
        *(*table).addr.add(index as usize) = ptr;
        (*table).number_free -= 1;
        mark_taken(table, index);
        (*table).lowest_free = if (*table).number_free > 0 {
            first_free_from(table, index)
        } else {
            (*table).size
        };
        index
    }
}

/// `pmix_pointer_array_set_item`: stores `value` (null frees the slot) at `index`, growing
/// the array to hold it. `PMIX_ERROR` for a negative index or when it cannot grow.
///
/// # Safety
/// `table` is null or a constructed pointer array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pointer_array_set_item(
    table: *mut PointerArray,
    index: c_int,
    value: *mut c_void,
) -> c_int {
    if table.is_null() {
        return rc::ERR_BAD_PARAM;
    }
    if index < 0 {
        return rc::ERROR;
    }
    // SAFETY: per the contract; `index < size` once grown.
    unsafe {
        if (*table).size <= index && !grow(table, index) {
            return rc::ERROR;
        }
        let slot = (*table).addr.add(index as usize);
        if value.is_null() {
            if !(*slot).is_null() {
                if index < (*table).lowest_free {
                    (*table).lowest_free = index;
                }
                (*table).number_free += 1;
                flip(table, index);
            }
        } else if (*slot).is_null() {
            (*table).number_free -= 1;
            mark_taken(table, index);
            if index == (*table).lowest_free {
                (*table).lowest_free = first_free_from(table, index);
            }
        }
        *slot = value;
        rc::SUCCESS
    }
}

/// `pmix_pointer_array_set_size`: grows the array when `new_size` exceeds its size (to hold
/// index `new_size`, so one block more than asked when it falls on a block boundary); never
/// shrinks. `PMIX_ERROR` when it cannot grow.
///
/// # Safety
/// `array` is null or a constructed pointer array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_pointer_array_set_size(
    array: *mut PointerArray,
    new_size: c_int,
) -> c_int {
    if array.is_null() {
        return rc::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        if new_size > (*array).size && !grow(array, new_size) {
            return rc::ERROR;
        }
    }
    rc::SUCCESS
}

// The Rust-side API.

/// A new array (`PMIX_NEW` + `pmix_pointer_array_init`), or null when out of memory or the
/// arguments are refused.
///
/// # Safety
/// None beyond the usual: release the result with `crate::object::release`.
pub unsafe fn new(initial: c_int, max_size: c_int, block_size: c_int) -> *mut PointerArray {
    // SAFETY: a fresh object of this class.
    unsafe {
        let a = crate::object::new(class()) as *mut PointerArray;
        if a.is_null() {
            return a;
        }
        if pmix_pointer_array_init(a, initial, max_size, block_size) != rc::SUCCESS {
            crate::object::release(a as *mut Object);
            return ptr::null_mut();
        }
        a
    }
}

/// The item at `i`, null when out of range (the inline `pmix_pointer_array_get_item`).
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn get(a: *const PointerArray, i: c_int) -> *mut c_void {
    // SAFETY: per the contract; `i` is checked against `size`.
    unsafe {
        if i < 0 || i >= (*a).size {
            return ptr::null_mut();
        }
        *(*a).addr.add(i as usize)
    }
}

/// The number of slots (the inline `pmix_pointer_array_get_size`).
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn size(a: *const PointerArray) -> c_int {
    // SAFETY: per the contract.
    unsafe { (*a).size }
}

/// `pmix_pointer_array_add`.
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn add(a: *mut PointerArray, p: *mut c_void) -> c_int {
    // SAFETY: per the contract.
    unsafe { pmix_pointer_array_add(a, p) }
}

/// `pmix_pointer_array_set_item`.
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn set(a: *mut PointerArray, i: c_int, p: *mut c_void) -> c_int {
    // SAFETY: per the contract.
    unsafe { pmix_pointer_array_set_item(a, i, p) }
}

/// The taken slots, with their index, lowest first.
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn items(a: *const PointerArray) -> Vec<(c_int, *mut c_void)> {
    let mut out = Vec::new();
    // SAFETY: per the contract.
    unsafe {
        for i in 0..(*a).size.max(0) {
            let p = *(*a).addr.add(i as usize);
            if !p.is_null() {
                out.push((i, p));
            }
        }
    }
    out
}

/// Frees every slot (the inline `pmix_pointer_array_remove_all`): the items are not
/// released.
///
/// # Safety
/// `a` is a constructed array.
pub unsafe fn remove_all(a: *mut PointerArray) {
    // SAFETY: per the contract.
    unsafe {
        if (*a).number_free == (*a).size {
            return;
        }
        (*a).lowest_free = 0;
        (*a).number_free = (*a).size;
        for i in 0..(*a).size.max(0) {
            *(*a).addr.add(i as usize) = ptr::null_mut();
        }
        for w in 0..words((*a).size) {
            *(*a).free_bits.add(w) = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe fn bits(a: *const PointerArray) -> Vec<u64> {
        // SAFETY: a live array of ours.
        unsafe {
            (0..words((*a).size))
                .map(|w| *(*a).free_bits.add(w))
                .collect()
        }
    }

    unsafe fn state(a: *const PointerArray) -> (c_int, c_int, c_int) {
        // SAFETY: a live array of ours.
        unsafe { ((*a).lowest_free, (*a).number_free, (*a).size) }
    }

    fn p(n: usize) -> *mut c_void {
        n as *mut c_void
    }

    #[test]
    fn constructor_defaults() {
        // SAFETY: an object made and released here.
        unsafe {
            let a = crate::object::new(class()) as *mut PointerArray;
            assert_eq!(state(a), (0, 0, 0));
            assert_eq!(((*a).max_size, (*a).block_size), (c_int::MAX, 8));
            assert!((*a).addr.is_null() && (*a).free_bits.is_null());
            assert!(crate::object::release(a as *mut Object));
        }
    }

    #[test]
    fn init_checks_and_falls_back_to_the_block_size() {
        // SAFETY: objects made and released here.
        unsafe {
            assert_eq!(
                pmix_pointer_array_init(ptr::null_mut(), 4, 10, 2),
                rc::ERR_BAD_PARAM
            );
            let a = crate::object::new(class()) as *mut PointerArray;
            assert_eq!(pmix_pointer_array_init(a, 4, 2, 3), rc::ERR_BAD_PARAM);
            assert_eq!(pmix_pointer_array_init(a, 0, 100, 16), rc::SUCCESS);
            assert_eq!(state(a), (0, 16, 16));
            assert_eq!(bits(a), [0]);
            crate::object::release(a as *mut Object);
            let a = new(0, 100, 0);
            assert_eq!(state(a), (0, 0, 0));
            assert_eq!((*a).block_size, 8);
            assert_eq!(add(a, p(8)), 0);
            assert_eq!(state(a), (1, 7, 8), "grown to hold index 1: one block");
            crate::object::release(a as *mut Object);
        }
    }

    #[test]
    fn add_fills_the_lowest_slot_and_grows_by_blocks() {
        // SAFETY: an array made and released here.
        unsafe {
            let a = new(2, 1000, 4);
            assert_eq!(add(a, p(8)), 0);
            assert_eq!(add(a, p(16)), 1);
            assert_eq!(state(a), (2, 0, 2));
            // Full: grows to hold index 3, a block of 4.
            assert_eq!(add(a, p(24)), 2);
            assert_eq!(state(a), (3, 1, 4));
            assert_eq!(set(a, 0, ptr::null_mut()), rc::SUCCESS);
            assert_eq!(state(a), (0, 2, 4));
            assert_eq!(bits(a), [0b110]);
            assert_eq!(add(a, p(32)), 0);
            assert_eq!(state(a), (3, 1, 4));
            assert_eq!(get(a, 0), p(32));
            assert!(get(a, 4).is_null() && get(a, -1).is_null());
            assert_eq!(items(a).len(), 3);
            crate::object::release(a as *mut Object);
        }
    }

    #[test]
    fn set_item_grows_past_64_and_keeps_the_bits() {
        // SAFETY: an array made and released here.
        unsafe {
            let a = new(8, c_int::MAX, 8);
            assert_eq!(set(a, -1, p(8)), rc::ERROR);
            assert_eq!(set(a, 70, p(8)), rc::SUCCESS);
            assert_eq!(state(a), (0, 71, 72));
            assert_eq!(bits(a), [0, 1 << 6]);
            assert_eq!(set(a, 0, p(8)), rc::SUCCESS);
            assert_eq!(state(a), (1, 70, 72));
            // Replacing keeps the count; nulling a free slot changes nothing.
            assert_eq!(set(a, 0, p(16)), rc::SUCCESS);
            assert_eq!(set(a, 5, ptr::null_mut()), rc::SUCCESS);
            assert_eq!(state(a), (1, 70, 72));
            assert_eq!(pmix_pointer_array_set_size(a, 72), rc::SUCCESS);
            assert_eq!(state(a), (1, 70, 72), "not larger: nothing to do");
            assert_eq!(pmix_pointer_array_set_size(a, 73), rc::SUCCESS);
            assert_eq!(state(a), (1, 78, 80), "set_size(73) holds index 73");
            assert_eq!(pmix_pointer_array_set_size(a, 10), rc::SUCCESS);
            assert_eq!((*a).size, 80);
            remove_all(a);
            assert_eq!(state(a), (0, 80, 80));
            assert_eq!(bits(a), [0, 0]);
            crate::object::release(a as *mut Object);
        }
    }

    #[test]
    fn max_size_caps_growth() {
        // SAFETY: an array made and released here.
        unsafe {
            let a = new(2, 5, 4);
            assert_eq!(set(a, 5, p(8)), rc::ERROR);
            assert_eq!(set(a, 4, p(8)), rc::SUCCESS);
            assert_eq!(state(a), (0, 4, 5));
            for i in 0..4 {
                assert_eq!(add(a, p(16)), i);
            }
            assert_eq!(add(a, p(16)), rc::ERR_OUT_OF_RESOURCE);
            assert_eq!(pmix_pointer_array_set_size(a, 6), rc::ERROR);
            crate::object::release(a as *mut Object);
        }
    }

    #[test]
    fn a_full_word_is_skipped_when_finding_the_lowest_free() {
        // SAFETY: an array made and released here.
        unsafe {
            let a = new(128, c_int::MAX, 8);
            for i in 0..64 {
                assert_eq!(add(a, p(8)), i);
            }
            assert_eq!((*a).lowest_free, 64);
            assert_eq!(set(a, 64, p(8)), rc::SUCCESS);
            assert_eq!((*a).lowest_free, 65);
            assert_eq!(bits(a), [u64::MAX, 1]);
            crate::object::release(a as *mut Object);
        }
    }
}
