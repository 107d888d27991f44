//! Credentials (the PMIx standard's "Security" chapter): `PMIx_Get_credential` and
//! `PMIx_Validate_credential`, each with its `_nb` form.

use core::ffi::c_void;

use pmix_core::Error;
use pmix_sys::*;

use crate::callback::CbData;
use crate::{convert, entry, lifecycle, ptr};

use super::common::{infos, infos_blocking, wait};

/// See PMIx Standard v5, `PMIx_Get_credential`: the host's credential for this process.
///
/// Ownership: `credential->bytes` is libc-allocated; release with `PMIX_BYTE_OBJECT_DESTRUCT`.
///
/// # Safety
/// `(info, ninfo)` valid; `credential` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential(
    info: *const pmix_info_t,
    ninfo: usize,
    credential: *mut pmix_byte_object_t,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let out = unsafe { ptr::req_mut(credential) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let (cred, _) = wait(|d| c.get_credential_nb(&i, d))?;
        *out = convert::bo_to_c(&cred)?;
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Get_credential_nb`.
///
/// # Safety
/// `(info, ninfo)` valid; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_credential_nb(
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_credential_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Get_credential_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let d = CbData(cbdata);
        c.get_credential_nb(
            &i,
            Box::new(move |r| {
                let d = d;
                entry::guard("PMIx_Get_credential_nb", (), || {
                    let (status, cred, extra) = match r {
                        Ok((c, i)) => (PMIX_SUCCESS, c, i),
                        Err(e) => (e.status(), Vec::new(), Vec::new()),
                    };
                    let Ok(mut bo) = convert::bo_to_c(&cred) else {
                        return;
                    };
                    let arr = convert::infos_to_c(&extra).unwrap_or(core::ptr::null_mut());
                    let n = if arr.is_null() { 0 } else { extra.len() };
                    // SAFETY: the caller's callback; our memory lives until it returns.
                    unsafe { f(status, &mut bo, arr, n, d.0) };
                    // SAFETY: built above.
                    unsafe {
                        convert::bo_destruct(&mut bo);
                        convert::array_free(arr.cast(), n, PMIX_INFO);
                    }
                })
            }),
        )
    })
}

/// See PMIx Standard v5, `PMIx_Validate_credential`.
///
/// Ownership: `*results` is libc-allocated; release with `PMIX_INFO_FREE`.
///
/// # Safety
/// `cred` valid; `(info, ninfo)` valid; `results`, `nresults` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Validate_credential", || {
        let c = lifecycle::client()?;
        // SAFETY: per this function's contract.
        let cr = unsafe { convert::bo_from_c(ptr::req(cred)?) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        // SAFETY: per this function's contract.
        unsafe { infos_blocking(results, nresults, |d| c.validate_credential_nb(&cr, &i, d)) }
    })
}

/// See PMIx Standard v5, `PMIx_Validate_credential_nb`.
///
/// # Safety
/// As for `PMIx_Validate_credential`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Validate_credential_nb(
    cred: *const pmix_byte_object_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_validation_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Validate_credential_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let cr = unsafe { convert::bo_from_c(ptr::req(cred)?) }?;
        // SAFETY: per this function's contract.
        let i = unsafe { infos(info, ninfo) }?;
        let d = CbData(cbdata);
        c.validate_credential_nb(
            &cr,
            &i,
            Box::new(move |r| {
                let d = d;
                entry::guard("PMIx_Validate_credential_nb", (), || {
                    let (status, extra) = match r {
                        Ok(x) => x,
                        Err(e) => (e.status(), Vec::new()),
                    };
                    let arr = convert::infos_to_c(&extra).unwrap_or(core::ptr::null_mut());
                    let n = if arr.is_null() { 0 } else { extra.len() };
                    // SAFETY: the caller's callback; our memory lives until it returns.
                    unsafe { f(status, arr, n, d.0) };
                    // SAFETY: built above.
                    unsafe { convert::array_free(arr.cast(), n, PMIX_INFO) };
                })
            }),
        )
    })
}
