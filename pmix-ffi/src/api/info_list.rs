//! `PMIx_Info_list_*`: building an array of infos incrementally.
//!
//! A list is an opaque handle. Added and transferred infos are copied into the list; an
//! inserted info is kept as the caller's own (a shallow copy), and `PMIx_Info_list_convert`
//! hands it out marked `PMIX_INFO_PERSISTENT`, so that releasing the converted array leaves
//! the caller's value alone. That is the reference's behaviour.
//!
//! Handles are checked against the set of live lists, so a stale, double-released or made-up
//! handle gives `PMIX_ERR_BAD_PARAM` instead of a crash.
//!
//! Each item is a C `pmix_info_t` of its own (boxed, so its address stays put), because
//! OpenPMIx 5.0's `PMIx_Info_list_get_info` hands out the list's own infos to be read or
//! changed in place; the address of an item's info is also the "next" cursor it returns.

use core::ffi::{c_char, c_void};
use std::collections::HashSet;
use std::sync::Mutex;

use pmix_core::values::{Info, Value};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert;
use crate::entry;
use crate::ptr;

struct Item {
    info: Box<pmix_info_t>,
    /// Whether the value belongs to the list (a copy), or to the caller (an inserted info,
    /// shallow-copied).
    owned: bool,
}

impl Item {
    /// A C copy of `info`, owned by the list.
    fn copy_of(info: &Info) -> Result<Item> {
        Ok(Item {
            info: Box::new(convert::info_to_c(info)?),
            owned: true,
        })
    }

    /// Replaces an item's value with a copy of `v` (releasing the old one if it was ours).
    fn set_value(&mut self, v: &Value) -> Result<()> {
        let new = convert::value_to_c(v)?;
        if self.owned {
            // SAFETY: the list's own copy, libc-allocated.
            unsafe { convert::value_destruct(&mut self.info.value) };
        }
        self.info.value = new;
        self.info.flags &= !PMIX_INFO_PERSISTENT;
        self.owned = true;
        Ok(())
    }
}

impl Drop for Item {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: the list's own copy, libc-allocated.
            unsafe { convert::value_destruct(&mut self.info.value) };
        }
    }
}

struct InfoList {
    items: Vec<Item>,
}

/// Addresses of the lists handed out and not yet released.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn live() -> std::sync::MutexGuard<'static, Option<HashSet<usize>>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on the list behind `handle`, if it is a live list.
fn with_list<T>(handle: *mut c_void, f: impl FnOnce(&mut InfoList) -> Result<T>) -> Result<T> {
    let guard = live();
    if handle.is_null()
        || !guard
            .as_ref()
            .is_some_and(|s| s.contains(&(handle as usize)))
    {
        return Err(Error::BadParam);
    }
    // SAFETY: `handle` is in the live set, so it is a Box<InfoList> leaked by
    // PMIx_Info_list_start and not yet released; holding the set's lock keeps a concurrent
    // release from freeing it while we use it.
    let list = unsafe { &mut *handle.cast::<InfoList>() };
    f(list)
}

/// Starts an empty list.
///
/// See PMIx Standard v5, `PMIx_Info_list_start`.
///
/// # Safety
/// No pointer arguments. Ownership: release the handle with `PMIx_Info_list_release`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_start() -> *mut c_void {
    entry::guard("PMIx_Info_list_start", core::ptr::null_mut(), || {
        let p = Box::into_raw(Box::new(InfoList { items: Vec::new() })).cast::<c_void>();
        live().get_or_insert_with(HashSet::new).insert(p as usize);
        p
    })
}

/// Appends a copy of `key` = `value` (of type `type_`, given as for `PMIx_Value_load`).
///
/// See PMIx Standard v5, `PMIx_Info_list_add`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for an unknown handle, a NULL or too long key, or a
/// NULL value of an unknown type; `PMIX_ERR_UNKNOWN_DATA_TYPE`; `PMIX_ERR_NOT_SUPPORTED`.
/// A NULL value of a known type loads as `PMIx_Value_load` loads it (`true` for a bool, a
/// zero datum otherwise), as the reference's. (The reference accepts NULL keys and unknown
/// types and fails later.)
///
/// # Safety
/// `ptr_` is a handle or NULL; `key` a C string; `value` as for `PMIx_Value_load`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_add(
    ptr_: *mut c_void,
    key: *const c_char,
    value: *const c_void,
    type_: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_add", || {
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let value = unsafe { super::value::loadable(value, type_) }?;
        add(ptr_, &Info::new(key, value), false)
    })
}

/// Appends `info` itself, without copying its value: the caller keeps ownership of it and must
/// keep it valid until the converted array is released.
///
/// See PMIx Standard v5, `PMIx_Info_list_insert`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for an unknown handle or a NULL `info`.
///
/// # Safety
/// `ptr_` is a handle or NULL; `info` NULL or a valid info that outlives its use by the list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_insert(
    ptr_: *mut c_void,
    info: *mut pmix_info_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_insert", || {
        // SAFETY: per this function's contract.
        let info = *unsafe { ptr::req(info) }?;
        ptr::fixed_str(&info.key)?;
        with_list(ptr_, |l| {
            l.items.push(Item {
                info: Box::new(info),
                owned: false,
            });
            Ok(())
        })
    })
}

/// Appends a deep copy of `info`, flags included.
///
/// See PMIx Standard v5, `PMIx_Info_list_xfer`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for an unknown handle or a NULL or invalid `info`.
///
/// # Safety
/// `ptr_` is a handle or NULL; `info` NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_xfer(
    ptr_: *mut c_void,
    info: *const pmix_info_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_xfer", || {
        // SAFETY: per this function's contract.
        let info = unsafe { convert::info_from_c(ptr::req(info)?) }?;
        add(ptr_, &info, false)
    })
}

/// Writes the list's infos into `par` as a `PMIX_INFO` data array (a new libc allocation).
/// The list is unchanged.
///
/// See PMIx Standard v5, `PMIx_Info_list_convert`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_EMPTY` for an empty list (with `par` set to an empty
/// `PMIX_INFO` array, as the reference does); `PMIX_ERR_BAD_PARAM` for an unknown handle or a
/// NULL `par`; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `ptr_` is a handle or NULL; `par` NULL or writable.
///
/// Ownership: release the array with `PMIX_DATA_ARRAY_DESTRUCT`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_convert(
    ptr_: *mut c_void,
    par: *mut pmix_data_array_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_convert", || {
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(par) }?;
        with_list(ptr_, |l| {
            if l.items.is_empty() {
                *out = pmix_data_array_t {
                    r#type: PMIX_INFO,
                    size: 0,
                    array: core::ptr::null_mut(),
                };
                return Err(Error::Status(PMIX_ERR_EMPTY));
            }
            let arr = crate::alloc::calloc::<pmix_info_t>(l.items.len())?;
            for (i, item) in l.items.iter().enumerate() {
                let c = if item.owned {
                    // SAFETY: the list's own info, valid.
                    unsafe { convert::info_from_c(&item.info) }.and_then(|i| convert::info_to_c(&i))
                } else {
                    let mut c = *item.info;
                    c.flags |= PMIX_INFO_PERSISTENT;
                    Ok(c)
                };
                match c {
                    // SAFETY: `arr` has one slot per item.
                    Ok(c) => unsafe { arr.add(i).write(c) },
                    Err(e) => {
                        // SAFETY: the first i slots hold converted infos, the rest zeroes.
                        unsafe { convert::array_free(arr.cast(), i, PMIX_INFO) };
                        return Err(e);
                    }
                }
            }
            *out = pmix_data_array_t {
                r#type: PMIX_INFO,
                size: l.items.len(),
                array: arr.cast(),
            };
            Ok(())
        })
    })
}

/// Releases a list and the copies it owns (not the values of inserted infos).
///
/// See PMIx Standard v5, `PMIx_Info_list_release`. An unknown handle is ignored.
///
/// # Safety
/// `ptr_` is a handle or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_release(ptr_: *mut c_void) {
    entry::guard("PMIx_Info_list_release", (), || {
        let mut guard = live();
        if guard.as_mut().is_some_and(|s| s.remove(&(ptr_ as usize))) {
            // SAFETY: the handle was live, so it is the Box<InfoList> leaked by
            // PMIx_Info_list_start; it is now out of the live set and freed exactly once.
            drop(unsafe { Box::from_raw(ptr_.cast::<InfoList>()) });
        }
    })
}

/// The item whose key is `key`, if any.
fn find<'a>(l: &'a mut InfoList, key: &[u8]) -> Option<&'a mut Item> {
    l.items
        .iter_mut()
        .find(|i| ptr::fixed_str(&i.info.key).is_ok_and(|k| k.as_bytes() == key))
}

/// Appends a copy of `info` (flags included) unless its key is on the list already; then that
/// item's value is replaced when `overwrite`, and left alone otherwise.
fn put_unique(ptr_: *mut c_void, info: Info, overwrite: bool) -> Result<()> {
    with_list(ptr_, |l| {
        if let Some(item) = find(l, info.key.as_bytes()) {
            return if overwrite {
                item.set_value(&info.value)
            } else {
                Ok(())
            };
        }
        l.items.push(Item::copy_of(&info)?);
        Ok(())
    })
}

/// Puts a copy of `info` on the list: last, or first when `first`.
fn add(ptr_: *mut c_void, info: &Info, first: bool) -> Result<()> {
    with_list(ptr_, |l| {
        let item = Item::copy_of(info)?;
        if first {
            l.items.insert(0, item);
        } else {
            l.items.push(item);
        }
        Ok(())
    })
}

/// Appends a copy of `key` = `value` (as `PMIx_Info_list_add`) unless the key is on the list
/// already; then its value is replaced when `overwrite`, and left alone otherwise.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_add_unique`.
///
/// # Returns
/// `PMIX_SUCCESS` (also when the key was there); otherwise as `PMIx_Info_list_add`.
///
/// # Safety
/// As `PMIx_Info_list_add`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_add_unique(
    ptr_: *mut c_void,
    key: *const c_char,
    value: *const c_void,
    type_: pmix_data_type_t,
    overwrite: bool,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_add_unique", || {
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let value = unsafe { super::value::loadable(value, type_) }?;
        put_unique(ptr_, Info::new(key, value), overwrite)
    })
}

/// Appends `key` with a deep copy of `*value`.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_add_value`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for an unknown handle, a NULL or too long key or a
/// NULL `value`; the error of a value that cannot be copied.
///
/// # Safety
/// `ptr_` is a handle or NULL; `key` a C string; `value` NULL or a valid value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_add_value(
    ptr_: *mut c_void,
    key: *const c_char,
    value: *const pmix_value_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_add_value", || {
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let value = unsafe { convert::value_from_c(ptr::req(value)?) }?;
        add(ptr_, &Info::new(key, value), false)
    })
}

/// `PMIx_Info_list_add_value` with the duplicate rule of `PMIx_Info_list_add_unique`.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_add_value_unique`.
///
/// # Returns
/// As `PMIx_Info_list_add_value`.
///
/// # Safety
/// As `PMIx_Info_list_add_value`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_add_value_unique(
    ptr_: *mut c_void,
    key: *const c_char,
    value: *const pmix_value_t,
    overwrite: bool,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_add_value_unique", || {
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let value = unsafe { convert::value_from_c(ptr::req(value)?) }?;
        put_unique(ptr_, Info::new(key, value), overwrite)
    })
}

/// Puts a copy of `key` = `value` (as `PMIx_Info_list_add`) first on the list.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_prepend`.
///
/// # Returns
/// As `PMIx_Info_list_add`.
///
/// # Safety
/// As `PMIx_Info_list_add`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_prepend(
    ptr_: *mut c_void,
    key: *const c_char,
    value: *const c_void,
    type_: pmix_data_type_t,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_prepend", || {
        // SAFETY: per this function's contract.
        let key = convert::key_from_cstr(unsafe { ptr::cstr(key) }?)?;
        // SAFETY: per this function's contract.
        let value = unsafe { super::value::loadable(value, type_) }?;
        add(ptr_, &Info::new(key, value), true)
    })
}

/// Appends a deep copy of `info` (flags included) unless its key is on the list already;
/// then that item's value is replaced by a copy of `info`'s when `overwrite`.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_xfer_unique`.
///
/// # Returns
/// As `PMIx_Info_list_xfer`.
///
/// # Safety
/// `ptr_` is a handle or NULL; `info` NULL or a valid info.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_xfer_unique(
    ptr_: *mut c_void,
    info: *const pmix_info_t,
    overwrite: bool,
) -> pmix_status_t {
    entry::status("PMIx_Info_list_xfer_unique", || {
        // SAFETY: per this function's contract.
        let info = unsafe { convert::info_from_c(ptr::req(info)?) }?;
        put_unique(ptr_, info, overwrite)
    })
}

/// Walks the list: with `prev` NULL, the first info; otherwise the info `prev` names (the
/// cursor a previous call left in `*next`). `*next` becomes the cursor of the following info,
/// or NULL after the last. The info is the list's own: it may be read or changed in place
/// and lives until the list is released.
///
/// See OpenPMIx 5.0's `PMIx_Info_list_get_info`.
///
/// # Returns
/// The info; NULL (and `*next` NULL) for an empty or unknown list, or a cursor that is not
/// one of its items (5.0.11 returns garbage for an empty list).
///
/// # Safety
/// `ptr_` is a handle or NULL; `next` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_list_get_info(
    ptr_: *mut c_void,
    prev: *mut c_void,
    next: *mut *mut c_void,
) -> *mut pmix_info_t {
    entry::guard("PMIx_Info_list_get_info", core::ptr::null_mut(), || {
        let found = with_list(ptr_, |l| {
            let at = if prev.is_null() {
                0
            } else {
                l.items
                    .iter()
                    .position(|i| core::ptr::eq(&*i.info, prev.cast()))
                    .ok_or(Error::BadParam)?
            };
            let here = l.items.get_mut(at).ok_or(Error::NotFound)?;
            let here: *mut pmix_info_t = &mut *here.info;
            let after = l.items.get_mut(at + 1).map_or(core::ptr::null_mut(), |i| {
                (&mut *i.info as *mut pmix_info_t).cast()
            });
            Ok((here, after))
        });
        let (info, after) = found.unwrap_or((core::ptr::null_mut(), core::ptr::null_mut()));
        if !next.is_null() {
            // SAFETY: per this function's contract.
            unsafe { *next = after };
        }
        info
    })
}
