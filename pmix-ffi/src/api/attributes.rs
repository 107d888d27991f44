//! The attribute dictionary and host attribute registration.

use core::ffi::c_char;

use pmix_sys::*;

use crate::entry;
use crate::ptr;

/// Registers the attributes a host supports for an API function.
///
/// See PMIx Standard v5, `PMIx_Register_attributes`. Works with or without initialization
/// (the reference requires `PMIx_server_init` first).
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `function` or `attrs`;
/// `PMIX_ERR_REPEAT_ATTR_REGISTRATION` if `function` was registered before.
///
/// # Safety
/// `function` is a C string; `attrs` NULL or a NULL-terminated array of C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Register_attributes(
    function: *mut c_char,
    attrs: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_Register_attributes", || {
        // SAFETY: per this function's contract.
        let f = unsafe { ptr::cstr(function) }?;
        if attrs.is_null() {
            return Err(pmix_core::Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let keys = unsafe { ptr::argv(attrs) };
        pmix_core::attrs::register(f.to_bytes(), keys)
    })
}

/// The key string of the attribute named `attribute` (e.g. "PMIX_RANK" gives "pmix.rank");
/// `attribute` itself when the name is unknown; NULL for NULL.
///
/// See PMIx Standard v5, `PMIx_Get_attribute_string`.
///
/// # Safety
/// `attribute` is a C string or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_attribute_string(attribute: *const c_char) -> *const c_char {
    entry::guard("PMIx_Get_attribute_string", attribute, || {
        // SAFETY: per this function's contract.
        match unsafe { ptr::cstr(attribute) } {
            Ok(name) => {
                pmix_core::attrs::by_name(name.to_bytes()).map_or(attribute, |a| a.key.as_ptr())
            }
            Err(_) => attribute,
        }
    })
}

/// The macro name of the attribute whose key string is `attrstring` (e.g. "pmix.rank" gives
/// "PMIX_RANK"); `attrstring` itself when unknown; NULL for NULL.
///
/// See PMIx Standard v5, `PMIx_Get_attribute_name`.
///
/// # Safety
/// `attrstring` is a C string or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_attribute_name(attrstring: *const c_char) -> *const c_char {
    entry::guard("PMIx_Get_attribute_name", attrstring, || {
        // SAFETY: per this function's contract.
        match unsafe { ptr::cstr(attrstring) } {
            Ok(key) => {
                pmix_core::attrs::by_key(key.to_bytes()).map_or(attrstring, |a| a.name.as_ptr())
            }
            Err(_) => attrstring,
        }
    })
}
