//! Publish and lookup (the PMIx standard's "Publish/Lookup Operations"): `PMIx_Publish`,
//! `PMIx_Lookup` and `PMIx_Unpublish`, each with its `_nb` form.

use core::ffi::{c_char, c_void};

use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::{callback, convert, entry, lifecycle, ptr};

use super::common::infos;

/// See PMIx Standard v5, `PMIx_Publish`.
///
/// # Safety
/// `(info, ninfo)` is a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish(info: *const pmix_info_t, ninfo: usize) -> pmix_status_t {
    entry::status("PMIx_Publish", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        c.publish(&i)
    })
}

/// See PMIx Standard v5, `PMIx_Publish_nb`.
///
/// # Safety
/// As for `PMIx_Publish`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Publish_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Publish_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        c.publish_nb(&i, callback::op("PMIx_Publish_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Lookup`: fills the proc and value of each element of `data`
/// whose key was found (`PMIX_WAIT` waits for keys not yet published).
///
/// # Safety
/// `(data, ndata)` is a valid, writable array; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup(
    data: *mut pmix_pdata_t,
    ndata: usize,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Lookup", || {
        let c = lifecycle::client()?;
        if data.is_null() || ndata == 0 {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let slots = unsafe { core::slice::from_raw_parts_mut(data, ndata) };
        let keys: Vec<Vec<u8>> = slots
            .iter()
            .map(|d| ptr::fixed_str(&d.key).map(PStr::into_bytes))
            .collect::<Result<_>>()?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let found = c.lookup(&keys, &i)?;
        let mut any = false;
        for f in found {
            if let Some(slot) = slots
                .iter_mut()
                .find(|d| ptr::fixed_str(&d.key).is_ok_and(|k| k == f.key))
            {
                slot.proc = convert::proc_to_c(&f.proc);
                // SAFETY: the caller's slot holds a valid (usually empty) value.
                unsafe { convert::value_destruct(&mut slot.value) };
                slot.value = convert::value_to_c(&f.value)?;
                any = true;
            }
        }
        if any { Ok(()) } else { Err(Error::NotFound) }
    })
}

/// See PMIx Standard v5, `PMIx_Lookup_nb`.
///
/// # Safety
/// `keys` is a NULL-terminated array of C strings; `(info, ninfo)` valid; `cbfunc` is
/// called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Lookup_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_lookup_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Lookup_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        if k.is_empty() {
            return Err(Error::BadParam);
        }
        c.lookup_nb(&k, &i, callback::lookup("PMIx_Lookup_nb", cbfunc, cbdata))
    })
}

/// See PMIx Standard v5, `PMIx_Unpublish` (NULL keys: everything this process published).
///
/// # Safety
/// `keys` is NULL or a NULL-terminated array of C strings; `(info, ninfo)` valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        c.unpublish(&k, &i)
    })
}

/// See PMIx Standard v5, `PMIx_Unpublish_nb`.
///
/// # Safety
/// As for `PMIx_Unpublish`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Unpublish_nb(
    keys: *mut *mut c_char,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Unpublish_nb", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let (k, i) = unsafe { (callback::keys(keys), infos(info, ninfo)?) };
        c.unpublish_nb(&k, &i, callback::op("PMIx_Unpublish_nb", cbfunc, cbdata))
    })
}
