//! Pointer arrays, hash tables and bitmaps (`pmix_pointer_array_t`, `pmix_hash_table_t`,
//! `pmix_bitmap_t`): the exported functions and classes PRRTE calls, and a Rust-side API for
//! the other families of this crate.
//!
//! Layouts are OpenPMIx 5.0.11's non-debug ones (`facts/layouts-containers.txt`).

pub mod bitmap;
pub mod hash_table;
pub mod pointer_array;

pub use bitmap::Bitmap;
pub use hash_table::HashTable;
pub use pointer_array::PointerArray;

use crate::object::{Object, Tma};
use core::ffi::c_void;
use core::ptr;

/// The object's own allocator when it has one (its `tma_malloc` is set), else null: libc.
///
/// # Safety
/// `obj` points to a constructed object.
pub(crate) unsafe fn obj_tma(obj: *mut Object) -> *mut Tma {
    // SAFETY: per the contract.
    unsafe {
        if (*obj).obj_tma.tma_malloc.is_some() {
            &raw mut (*obj).obj_tma
        } else {
            ptr::null_mut()
        }
    }
}

/// `malloc` through `tma` (libc when null or when it lacks that function).
///
/// # Safety
/// `tma` is null or a live allocator.
pub(crate) unsafe fn tma_malloc(tma: *mut Tma, size: usize) -> *mut c_void {
    // SAFETY: per the contract.
    unsafe {
        match tma.as_ref().and_then(|t| t.tma_malloc) {
            Some(f) => f(tma, size),
            None => libc::malloc(size),
        }
    }
}

/// `calloc` through `tma`.
///
/// # Safety
/// As `tma_malloc`.
pub(crate) unsafe fn tma_calloc(tma: *mut Tma, n: usize, size: usize) -> *mut c_void {
    // SAFETY: per the contract.
    unsafe {
        match tma.as_ref().and_then(|t| t.tma_calloc) {
            Some(f) => f(tma, n, size),
            None => libc::calloc(n, size),
        }
    }
}

/// `realloc` through `tma`.
///
/// # Safety
/// As `tma_malloc`; `p` is null or came from the same allocator.
pub(crate) unsafe fn tma_realloc(tma: *mut Tma, p: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: per the contract.
    unsafe {
        match tma.as_ref().and_then(|t| t.tma_realloc) {
            Some(f) => f(tma, p, size),
            None => libc::realloc(p, size),
        }
    }
}

/// `free` through `tma`.
///
/// # Safety
/// As `tma_realloc`.
pub(crate) unsafe fn tma_free(tma: *mut Tma, p: *mut c_void) {
    // SAFETY: per the contract.
    unsafe {
        match tma.as_ref().and_then(|t| t.tma_free) {
            Some(f) => f(tma, p),
            None => libc::free(p),
        }
    }
}

/// Return codes of `pmix_common.h`.
pub(crate) mod rc {
    use core::ffi::c_int;
    pub const SUCCESS: c_int = 0;
    pub const ERROR: c_int = -1;
    pub const ERR_BAD_PARAM: c_int = -27;
    pub const ERR_OUT_OF_RESOURCE: c_int = -29;
    pub const ERR_NOT_FOUND: c_int = -46;
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    const FACTS: &str = include_str!("../../facts/layouts-containers.txt");

    #[test]
    fn layouts_match_openpmix() {
        use crate::facts::layout;
        layout(
            FACTS,
            "pmix_pointer_array_t",
            size_of::<PointerArray>(),
            &[
                ("lowest_free", offset_of!(PointerArray, lowest_free)),
                ("number_free", offset_of!(PointerArray, number_free)),
                ("size", offset_of!(PointerArray, size)),
                ("max_size", offset_of!(PointerArray, max_size)),
                ("block_size", offset_of!(PointerArray, block_size)),
                ("free_bits", offset_of!(PointerArray, free_bits)),
                ("addr", offset_of!(PointerArray, addr)),
            ],
        );
        layout(
            FACTS,
            "pmix_hash_table_t",
            size_of::<HashTable>(),
            &[
                ("ht_label", offset_of!(HashTable, ht_label)),
                ("ht_table", offset_of!(HashTable, ht_table)),
                ("ht_capacity", offset_of!(HashTable, ht_capacity)),
                ("ht_size", offset_of!(HashTable, ht_size)),
                (
                    "ht_growth_trigger",
                    offset_of!(HashTable, ht_growth_trigger),
                ),
                ("ht_density_numer", offset_of!(HashTable, ht_density_numer)),
                ("ht_density_denom", offset_of!(HashTable, ht_density_denom)),
                ("ht_growth_numer", offset_of!(HashTable, ht_growth_numer)),
                ("ht_growth_denom", offset_of!(HashTable, ht_growth_denom)),
                ("ht_type_methods", offset_of!(HashTable, ht_type_methods)),
            ],
        );
        layout(
            FACTS,
            "pmix_bitmap_t",
            size_of::<Bitmap>(),
            &[
                ("bitmap", offset_of!(Bitmap, bitmap)),
                ("array_size", offset_of!(Bitmap, array_size)),
                ("max_size", offset_of!(Bitmap, max_size)),
            ],
        );
    }
}
