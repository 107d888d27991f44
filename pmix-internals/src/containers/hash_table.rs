//! `pmix_hash_table_t` with pointer (byte-string) keys: what PRRTE's grpcomm uses for its
//! signature table (`init`, `set_value_ptr`, `get_value_ptr`, and the
//! `pmix_hash_table_get_next_key_ptr` loop of `PMIX_HASH_TABLE_FOREACH_PTR`).
//!
//! PRRTE embeds the 184-byte struct but reads none of its fields. The behaviour kept from
//! OpenPMIx, since it is what callers see:
//!
//! - open addressing with linear probing: a key of bytes `b` hashes to `h = h * 31 + b`
//!   (from 0, 64-bit wrapping) and starts at slot `h % capacity`;
//! - `init(n)` allocates `round(2n)` slots, where `round(c)` is the next `30k + 1` at or
//!   above `c`; once the number of keys reaches half the capacity the table grows to
//!   `round(2 * capacity)`, re-inserting the keys in slot order;
//! - iteration walks the slots in order, so the order of keys is OpenPMIx's for the same
//!   sequence of calls; removal shifts the following run of keys back as OpenPMIx does;
//! - the table owns a copy of each key (freed on removal), never the values;
//! - `get` answers `PMIX_ERR_NOT_FOUND` for a missing key; the iteration ends with
//!   `PMIX_ERROR`.

use super::{obj_tma, rc, tma_calloc, tma_free, tma_malloc};
use crate::object::{Class, Object, Tma, pmix_object_t_class};
use core::ffi::{c_char, c_int, c_void};
use core::ptr;

/// `pmix_hash_table_t` (184 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct HashTable {
    pub super_: Object,
    pub ht_label: *const c_char,
    pub ht_table: *mut Element,
    pub ht_capacity: usize,
    pub ht_size: usize,
    pub ht_growth_trigger: usize,
    pub ht_density_numer: c_int,
    pub ht_density_denom: c_int,
    pub ht_growth_numer: c_int,
    pub ht_growth_denom: c_int,
    pub ht_type_methods: *const KeyKind,
}

/// One slot (40 bytes, as OpenPMIx's `pmix_hash_element_t`; opaque to callers, who only
/// hold pointers to it as iteration cursors).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Element {
    valid: c_int,
    key: *const c_void,
    key_size: usize,
    tma: *mut Tma,
    value: *mut c_void,
}

/// What kind of keys a table holds (`ht_type_methods` points to one of these statics).
#[derive(Debug)]
pub struct KeyKind {
    /// Whether the table owns the key bytes.
    owned_bytes: bool,
}

static PTR_KEYS: KeyKind = KeyKind { owned_bytes: true };

unsafe extern "C" fn construct(o: *mut Object) {
    let ht = o as *mut HashTable;
    // SAFETY: called on a table being constructed (the label is left as it is).
    unsafe {
        (*ht).ht_table = ptr::null_mut();
        (*ht).ht_capacity = 0;
        (*ht).ht_size = 0;
        (*ht).ht_growth_trigger = 0;
        (*ht).ht_density_numer = 0;
        (*ht).ht_density_denom = 0;
        (*ht).ht_growth_numer = 0;
        (*ht).ht_growth_denom = 0;
        (*ht).ht_type_methods = ptr::null();
    }
}

unsafe extern "C" fn destruct(o: *mut Object) {
    let ht = o as *mut HashTable;
    // SAFETY: called on a constructed table.
    unsafe {
        remove_all(ht);
        tma_free(obj_tma(o), (*ht).ht_table.cast());
        (*ht).ht_table = ptr::null_mut();
        (*ht).ht_capacity = 0;
    }
}

crate::class!(
    pmix_hash_table_t_class,
    HashTable,
    &raw mut pmix_object_t_class,
    Some(construct),
    Some(destruct)
);

/// The class of hash tables.
pub const fn class() -> *mut Class {
    &raw mut pmix_hash_table_t_class
}

/// The hash of a byte key.
fn hash(key: &[u8]) -> u64 {
    key.iter()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b)))
}

/// The capacity for `c` slots: the next `30k + 1`.
fn round_capacity(c: usize) -> usize {
    c.wrapping_add(29) / 30 * 30 + 1
}

/// The bytes of slot `e`'s key.
///
/// # Safety
/// `e` is a valid slot of a pointer-keyed table.
unsafe fn key_of<'a>(e: *const Element) -> &'a [u8] {
    // SAFETY: per the contract: the table's own copy of `key_size` bytes.
    unsafe {
        if (*e).key_size == 0 {
            &[]
        } else {
            core::slice::from_raw_parts((*e).key.cast(), (*e).key_size)
        }
    }
}

/// The caller's key as a slice (null only with size 0).
///
/// # Safety
/// `key` points to `key_size` readable bytes.
unsafe fn key_arg<'a>(key: *const c_void, key_size: usize) -> Option<&'a [u8]> {
    if key_size == 0 {
        return Some(&[]);
    }
    if key.is_null() {
        return None;
    }
    // SAFETY: per the contract.
    Some(unsafe { core::slice::from_raw_parts(key.cast(), key_size) })
}

/// Where `key` is, or the free slot where it would go: `(index, found)`; `None` when a
/// table has no free slot left (only with densities of one's own choosing).
///
/// # Safety
/// `ht` is an initialized table (`ht_capacity > 0`).
unsafe fn probe(ht: *const HashTable, key: &[u8]) -> Option<(usize, bool)> {
    // SAFETY: per the contract; indices stay below the capacity.
    unsafe {
        let cap = (*ht).ht_capacity;
        let mut i = (hash(key) % cap as u64) as usize;
        for _ in 0..cap {
            let e = (*ht).ht_table.add(i);
            if (*e).valid == 0 {
                return Some((i, false));
            }
            if key_of(e) == key {
                return Some((i, true));
            }
            i = if i + 1 == cap { 0 } else { i + 1 };
        }
        None
    }
}

/// Frees a slot's key copy.
///
/// # Safety
/// `e` is a slot whose key the table owns.
unsafe fn drop_key(e: *mut Element) {
    // SAFETY: per the contract.
    unsafe {
        (*e).key_size = 0;
        if !(*e).key.is_null() {
            tma_free((*e).tma, (*e).key as *mut c_void);
            (*e).key = ptr::null();
        }
    }
}

/// Moves every key into a larger table.
///
/// # Safety
/// `ht` is an initialized table.
unsafe fn grow(ht: *mut HashTable) -> c_int {
    // SAFETY: per the contract; the new table is filled from the old one's valid slots.
    unsafe {
        let old = (*ht).ht_table;
        let old_cap = (*ht).ht_capacity;
        let numer = (*ht).ht_growth_numer.max(1) as usize;
        let denom = (*ht).ht_growth_denom.max(1) as usize;
        let cap = round_capacity(old_cap.wrapping_mul(numer) / denom);
        let tma = obj_tma(&raw mut (*ht).super_);
        let new = tma_calloc(tma, cap, size_of::<Element>()) as *mut Element;
        if new.is_null() {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        for j in 0..old_cap {
            let e = old.add(j);
            if (*e).valid == 0 {
                continue;
            }
            let mut i = (hash(key_of(e)) % cap as u64) as usize;
            while (*new.add(i)).valid != 0 {
                i = if i + 1 == cap { 0 } else { i + 1 };
            }
            *new.add(i) = *e;
        }
        (*ht).ht_table = new;
        (*ht).ht_capacity = cap;
        (*ht).ht_growth_trigger =
            cap * (*ht).ht_density_numer.max(0) as usize / (*ht).ht_density_denom.max(1) as usize;
        tma_free(tma, old.cast());
        rc::SUCCESS
    }
}

/// `pmix_hash_table_init2`: `estimated_max_size` keys at most `density_numer /
/// density_denom` of the slots, growing by `growth_numer / growth_denom`.
/// `PMIX_ERR_BAD_PARAM` for a null table or ratios that are not positive.
///
/// # Safety
/// `ht` is null or a constructed table.
pub unsafe fn init2(
    ht: *mut HashTable,
    estimated_max_size: usize,
    density_numer: c_int,
    density_denom: c_int,
    growth_numer: c_int,
    growth_denom: c_int,
) -> c_int {
    if ht.is_null() || density_numer <= 0 || density_denom <= 0 || growth_denom <= 0 {
        return rc::ERR_BAD_PARAM;
    }
    if growth_numer <= 0 {
        return rc::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let est = estimated_max_size.wrapping_mul(density_denom as usize) / density_numer as usize;
        let cap = round_capacity(est);
        let tma = obj_tma(&raw mut (*ht).super_);
        let table = tma_calloc(tma, cap, size_of::<Element>()) as *mut Element;
        if table.is_null() {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        (*ht).ht_table = table;
        (*ht).ht_capacity = cap;
        (*ht).ht_density_numer = density_numer;
        (*ht).ht_density_denom = density_denom;
        (*ht).ht_growth_numer = growth_numer;
        (*ht).ht_growth_denom = growth_denom;
        (*ht).ht_growth_trigger = cap * density_numer as usize / density_denom as usize;
        (*ht).ht_type_methods = ptr::null();
        rc::SUCCESS
    }
}

/// `pmix_hash_table_init`: room for `table_size` keys at half density, doubling.
///
/// # Safety
/// `ht` is null or a constructed table.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_hash_table_init(ht: *mut HashTable, table_size: usize) -> c_int {
    // SAFETY: per the contract.
    unsafe { init2(ht, table_size, 1, 2, 2, 1) }
}

/// `pmix_hash_table_set_value_ptr`: maps a copy of the `key_size` bytes at `key` to `value`
/// (replacing its value when present). `PMIX_ERR_BAD_PARAM` on a table never initialized
/// (OpenPMIx's debug-build answer; its release build divides by zero).
///
/// # Safety
/// `ht` is null or a constructed table; `key` points to `key_size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_hash_table_set_value_ptr(
    ht: *mut HashTable,
    key: *const c_void,
    key_size: usize,
    value: *mut c_void,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        let Some(k) = key_arg(key, key_size) else {
            return rc::ERR_BAD_PARAM;
        };
        if ht.is_null() || (*ht).ht_capacity == 0 || (*ht).ht_table.is_null() {
            return rc::ERR_BAD_PARAM;
        }
        (*ht).ht_type_methods = &PTR_KEYS;
        let Some((i, found)) = probe(ht, k) else {
            return rc::ERR_OUT_OF_RESOURCE;
        };
        let e = (*ht).ht_table.add(i);
        if found {
            (*e).value = value;
            return rc::SUCCESS;
        }
        let tma = obj_tma(&raw mut (*ht).super_);
        let copy = tma_malloc(tma, key_size);
        if copy.is_null() && key_size > 0 {
            return rc::ERR_OUT_OF_RESOURCE;
        }
        if key_size > 0 {
            ptr::copy_nonoverlapping(k.as_ptr(), copy.cast::<u8>(), key_size);
        }
        *e = Element {
            valid: 1,
            key: copy,
            key_size,
            tma,
            value,
        };
        (*ht).ht_size += 1;
        if (*ht).ht_size >= (*ht).ht_growth_trigger {
            return grow(ht);
        }
        rc::SUCCESS
    }
}

/// `pmix_hash_table_get_value_ptr`: the value of the `key_size` bytes at `key` into
/// `*value`; `PMIX_ERR_NOT_FOUND` when absent, `PMIX_ERROR` on a table never initialized
/// (OpenPMIx's debug-build answer).
///
/// # Safety
/// `ht` is null or a constructed table; `key` points to `key_size` bytes; `value` is null
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_hash_table_get_value_ptr(
    ht: *mut HashTable,
    key: *const c_void,
    key_size: usize,
    value: *mut *mut c_void,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        let Some(k) = key_arg(key, key_size) else {
            return rc::ERR_BAD_PARAM;
        };
        if ht.is_null() || (*ht).ht_capacity == 0 || (*ht).ht_table.is_null() {
            return rc::ERROR;
        }
        (*ht).ht_type_methods = &PTR_KEYS;
        match probe(ht, k) {
            Some((i, true)) => {
                if !value.is_null() {
                    *value = (*(*ht).ht_table.add(i)).value;
                }
                rc::SUCCESS
            }
            _ => rc::ERR_NOT_FOUND,
        }
    }
}

/// `pmix_hash_table_get_next_key_ptr`: the first occupied slot after `in_node` (from the
/// start when null): its key (the table's copy), key size and value, and the slot itself
/// in `*out_node` as the next cursor. `PMIX_ERROR` when there is none.
///
/// # Safety
/// `ht` is null or a constructed table; `in_node` is null or a cursor this table returned
/// since its last change; the out-pointers are null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_hash_table_get_next_key_ptr(
    ht: *mut HashTable,
    key: *mut *mut c_void,
    key_size: *mut usize,
    value: *mut *mut c_void,
    in_node: *mut c_void,
    out_node: *mut *mut c_void,
) -> c_int {
    if ht.is_null() {
        return rc::ERROR;
    }
    // SAFETY: per the contract; the cursor is turned into an index and checked.
    unsafe {
        let table = (*ht).ht_table;
        let cap = (*ht).ht_capacity;
        if table.is_null() {
            return rc::ERROR;
        }
        let start = if in_node.is_null() {
            0
        } else {
            let off = (in_node as usize).wrapping_sub(table as usize);
            if off % size_of::<Element>() != 0 || off / size_of::<Element>() >= cap {
                return rc::ERROR;
            }
            off / size_of::<Element>() + 1
        };
        for i in start..cap {
            let e = table.add(i);
            if (*e).valid != 0 {
                if !key.is_null() {
                    *key = (*e).key as *mut c_void;
                }
                if !key_size.is_null() {
                    *key_size = (*e).key_size;
                }
                if !value.is_null() {
                    *value = (*e).value;
                }
                if !out_node.is_null() {
                    *out_node = e.cast();
                }
                return rc::SUCCESS;
            }
        }
        rc::ERROR
    }
}

// The Rust-side API.

/// A new table for about `size` keys (`PMIX_NEW` + `pmix_hash_table_init`), or null.
///
/// # Safety
/// None beyond the usual: release the result with `crate::object::release`.
pub unsafe fn new(size: usize) -> *mut HashTable {
    // SAFETY: a fresh object of this class.
    unsafe {
        let ht = crate::object::new(class()) as *mut HashTable;
        if ht.is_null() {
            return ht;
        }
        if pmix_hash_table_init(ht, size) != rc::SUCCESS {
            crate::object::release(ht as *mut Object);
            return ptr::null_mut();
        }
        ht
    }
}

/// The number of keys (the inline `pmix_hash_table_get_size`).
///
/// # Safety
/// `ht` is a constructed table.
pub unsafe fn len(ht: *const HashTable) -> usize {
    // SAFETY: per the contract.
    unsafe { (*ht).ht_size }
}

/// The value of `key`, if present.
///
/// # Safety
/// `ht` is an initialized table.
pub unsafe fn get(ht: *mut HashTable, key: &[u8]) -> Option<*mut c_void> {
    let mut v = ptr::null_mut();
    // SAFETY: per the contract.
    let r = unsafe { pmix_hash_table_get_value_ptr(ht, key.as_ptr().cast(), key.len(), &mut v) };
    (r == rc::SUCCESS).then_some(v)
}

/// Maps `key` to `value`.
///
/// # Safety
/// `ht` is an initialized table.
pub unsafe fn set(ht: *mut HashTable, key: &[u8], value: *mut c_void) -> c_int {
    // SAFETY: per the contract.
    unsafe { pmix_hash_table_set_value_ptr(ht, key.as_ptr().cast(), key.len(), value) }
}

/// Removes `key` (`pmix_hash_table_remove_value_ptr`): `PMIX_ERR_NOT_FOUND` when absent.
///
/// # Safety
/// `ht` is an initialized table.
pub unsafe fn remove(ht: *mut HashTable, key: &[u8]) -> c_int {
    // SAFETY: per the contract; indices stay below the capacity.
    unsafe {
        if (*ht).ht_capacity == 0 || (*ht).ht_table.is_null() {
            return rc::ERROR;
        }
        (*ht).ht_type_methods = &PTR_KEYS;
        let Some((hole, true)) = probe(ht, key) else {
            return rc::ERR_NOT_FOUND;
        };
        let cap = (*ht).ht_capacity;
        let t = (*ht).ht_table;
        (*t.add(hole)).valid = 0;
        drop_key(t.add(hole));
        // Close the gap: each key of the run that follows moves to the first free slot
        // between its home and where it sits, if any.
        let mut i = hole;
        loop {
            i = if i + 1 == cap { 0 } else { i + 1 };
            if (*t.add(i)).valid == 0 {
                break;
            }
            let mut j = (hash(key_of(t.add(i))) % cap as u64) as usize;
            while j != i {
                if (*t.add(j)).valid == 0 {
                    *t.add(j) = *t.add(i);
                    (*t.add(i)).valid = 0;
                    break;
                }
                j = if j + 1 == cap { 0 } else { j + 1 };
            }
        }
        (*ht).ht_size -= 1;
        rc::SUCCESS
    }
}

/// Removes every key (`pmix_hash_table_remove_all`); the values are not touched.
///
/// # Safety
/// `ht` is a constructed table.
pub unsafe fn remove_all(ht: *mut HashTable) {
    // SAFETY: per the contract.
    unsafe {
        let owned = !(*ht).ht_type_methods.is_null() && (*(*ht).ht_type_methods).owned_bytes;
        for i in 0..(*ht).ht_capacity {
            let e = (*ht).ht_table.add(i);
            if (*e).valid != 0 && owned {
                drop_key(e);
            }
            (*e).valid = 0;
            (*e).value = ptr::null_mut();
        }
        (*ht).ht_size = 0;
        (*ht).ht_type_methods = ptr::null();
    }
}

/// Every key and value, in iteration order.
///
/// # Safety
/// `ht` is a constructed table.
pub unsafe fn entries(ht: *const HashTable) -> Vec<(Vec<u8>, *mut c_void)> {
    let mut out = Vec::new();
    // SAFETY: per the contract.
    unsafe {
        for i in 0..(*ht).ht_capacity {
            let e = (*ht).ht_table.add(i);
            if (*e).valid != 0 {
                out.push((key_of(e).to_vec(), (*e).value));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: usize) -> *mut c_void {
        n as *mut c_void
    }

    unsafe fn walk(ht: *mut HashTable) -> Vec<(Vec<u8>, *mut c_void)> {
        let mut out = Vec::new();
        let mut node = ptr::null_mut();
        // SAFETY: a live table of ours; the keys are its copies.
        unsafe {
            loop {
                let (mut k, mut n, mut val) = (ptr::null_mut(), 0usize, ptr::null_mut());
                let r =
                    pmix_hash_table_get_next_key_ptr(ht, &mut k, &mut n, &mut val, node, &mut node);
                if r != rc::SUCCESS {
                    assert_eq!(r, rc::ERROR);
                    break;
                }
                out.push((core::slice::from_raw_parts(k as *const u8, n).to_vec(), val));
            }
        }
        out
    }

    #[test]
    fn init_sizes_and_growth() {
        // SAFETY: a table made and released here.
        unsafe {
            let ht = new(128);
            assert_eq!((*ht).ht_capacity, 271);
            assert_eq!((*ht).ht_growth_trigger, 135);
            for i in 0..135u32 {
                assert_eq!(set(ht, &i.to_le_bytes(), v(i as usize + 1)), rc::SUCCESS);
            }
            assert_eq!((*ht).ht_capacity, 571, "grown to round(2 * 271)");
            assert_eq!(len(ht), 135);
            for i in 0..135u32 {
                assert_eq!(get(ht, &i.to_le_bytes()), Some(v(i as usize + 1)));
            }
            crate::object::release(ht as *mut Object);
        }
    }

    #[test]
    fn set_get_replace_remove_and_walk() {
        // SAFETY: a table made and released here.
        unsafe {
            let ht = crate::object::new(class()) as *mut HashTable;
            let k = b"abc";
            assert_eq!(
                pmix_hash_table_set_value_ptr(ht, k.as_ptr().cast(), 3, v(1)),
                rc::ERR_BAD_PARAM
            );
            let mut out = ptr::null_mut();
            assert_eq!(
                pmix_hash_table_get_value_ptr(ht, k.as_ptr().cast(), 3, &mut out),
                rc::ERROR
            );
            assert_eq!(pmix_hash_table_init(ht, 4), rc::SUCCESS);
            assert_eq!((*ht).ht_capacity, 31);
            assert_eq!(get(ht, k), None);
            assert_eq!(set(ht, k, v(1)), rc::SUCCESS);
            assert_eq!(set(ht, b"", v(2)), rc::SUCCESS);
            assert_eq!(set(ht, k, v(3)), rc::SUCCESS);
            assert_eq!(len(ht), 2);
            assert_eq!(get(ht, k), Some(v(3)));
            assert_eq!(get(ht, b""), Some(v(2)));
            assert_eq!(get(ht, b"ab"), None);
            // hash("abc") = 96354 = 3108 * 31 + 6; hash("") = 0: slot order "" then "abc".
            assert_eq!(walk(ht), vec![(vec![], v(2)), (k.to_vec(), v(3))]);
            assert_eq!(entries(ht), walk(ht));
            assert_eq!(remove(ht, b""), rc::SUCCESS);
            assert_eq!(remove(ht, b""), rc::ERR_NOT_FOUND);
            assert_eq!(walk(ht), vec![(k.to_vec(), v(3))]);
            remove_all(ht);
            assert_eq!(len(ht), 0);
            assert!(walk(ht).is_empty());
            crate::object::release(ht as *mut Object);
        }
    }

    #[test]
    fn removal_pulls_back_a_colliding_key() {
        // SAFETY: a table made and released here.
        unsafe {
            let ht = new(4);
            let cap = (*ht).ht_capacity as u64;
            // Two one-byte keys with the same home slot: b and b + 31.
            let (a, b) = ([5u8], [5u8 + cap as u8]);
            assert_eq!(hash(&a) % cap, hash(&b) % cap);
            set(ht, &a, v(1));
            set(ht, &b, v(2));
            assert_eq!(entries(ht)[1].0, b.to_vec(), "b sits after a");
            assert_eq!(remove(ht, &a), rc::SUCCESS);
            assert_eq!(get(ht, &b), Some(v(2)));
            let e = (*ht).ht_table.add(5);
            assert_eq!((*e).valid, 1, "b moved home");
            crate::object::release(ht as *mut Object);
        }
    }
}
