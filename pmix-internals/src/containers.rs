//! Pointer arrays, hash tables and bitmaps (`pmix_pointer_array_t`, `pmix_hash_table_t`, `pmix_bitmap_t`).
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_pointer_array_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_hash_table_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_bitmap_t_class: [u8; 64] = [0; 64];

crate::not_yet!(
    pmix_pointer_array_init,
    pmix_pointer_array_add,
    pmix_pointer_array_set_item,
    pmix_pointer_array_set_size,
    pmix_hash_table_init,
    pmix_hash_table_get_next_key_ptr,
    pmix_hash_table_get_value_ptr,
    pmix_hash_table_set_value_ptr,
    pmix_bitmap_init,
    pmix_bitmap_set_bit,
    pmix_bitmap_clear_bit,
    pmix_bitmap_is_set_bit
);
