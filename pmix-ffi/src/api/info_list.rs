//! `PMIx_Info_list_*`: building an array of infos incrementally.
//!
//! A list is an opaque handle. Added and transferred infos are copied into the list; an
//! inserted info is kept as the caller's own (a shallow copy), and `PMIx_Info_list_convert`
//! hands it out marked `PMIX_INFO_PERSISTENT`, so that releasing the converted array leaves
//! the caller's value alone. That is the reference's behaviour.
//!
//! Handles are checked against the set of live lists, so a stale, double-released or made-up
//! handle gives `PMIX_ERR_BAD_PARAM` instead of a crash.

use core::ffi::{c_char, c_void};
use std::collections::HashSet;
use std::sync::Mutex;

use pmix_core::values::Info;
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert;
use crate::entry;
use crate::ptr;

enum Item {
    /// A copy owned by the list.
    Owned(Info),
    /// The caller's info, shallow-copied; its value still belongs to the caller.
    Inserted(Box<pmix_info_t>),
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
/// NULL value where the type needs one; `PMIX_ERR_UNKNOWN_DATA_TYPE`; `PMIX_ERR_NOT_SUPPORTED`.
/// (The reference accepts NULL keys, NULL values and unknown types and fails later.)
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
        with_list(ptr_, |l| {
            l.items.push(Item::Owned(Info::new(key, value)));
            Ok(())
        })
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
            l.items.push(Item::Inserted(Box::new(info)));
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
        with_list(ptr_, |l| {
            l.items.push(Item::Owned(info));
            Ok(())
        })
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
                let c = match item {
                    Item::Owned(info) => convert::info_to_c(info),
                    Item::Inserted(info) => {
                        let mut c = **info;
                        c.flags |= PMIX_INFO_PERSISTENT;
                        Ok(c)
                    }
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
