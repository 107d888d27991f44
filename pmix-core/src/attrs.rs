//! The attribute dictionary: macro names and key strings of every attribute the headers
//! define, for `PMIx_Get_attribute_string`, `PMIx_Get_attribute_name` and printing.

use pmix_sys::{ATTRIBUTES, AttrDef, DEPRECATED_ATTRIBUTES};

fn all() -> impl Iterator<Item = &'static AttrDef> {
    ATTRIBUTES.iter().chain(DEPRECATED_ATTRIBUTES.iter())
}

/// The definition of the attribute whose key string is `key` (the first one in header order
/// where two names share a string).
pub fn by_key(key: &[u8]) -> Option<&'static AttrDef> {
    all().find(|a| a.key.to_bytes() == key)
}

/// The definition of the attribute whose macro name is `name`.
pub fn by_name(name: &[u8]) -> Option<&'static AttrDef> {
    all().find(|a| a.name.to_bytes() == name)
}

/// Attributes a host has declared it supports, per API function (`PMIx_Register_attributes`).
static REGISTERED: std::sync::Mutex<std::collections::BTreeMap<Vec<u8>, Vec<crate::PStr>>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Records that the host supports `keys` for `function`. A function can be registered once;
/// a second registration is `PMIX_ERR_REPEAT_ATTR_REGISTRATION`, as in the reference.
pub fn register(function: &[u8], keys: Vec<crate::PStr>) -> crate::Result<()> {
    let mut map = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    if map.contains_key(function) {
        return Err(crate::Error::Status(
            pmix_sys::PMIX_ERR_REPEAT_ATTR_REGISTRATION,
        ));
    }
    map.insert(function.to_vec(), keys);
    Ok(())
}

/// The attributes registered for `function`, if any.
pub fn registered(function: &[u8]) -> Option<Vec<crate::PStr>> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(function)
        .cloned()
}

/// Every function with registered attributes.
pub fn registered_functions() -> Vec<crate::PStr> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .keys()
        .map(|k| k.clone().into())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        assert_eq!(by_key(b"pmix.rank").map(|a| a.name), Some(c"PMIX_RANK"));
        assert_eq!(
            by_name(b"PMIX_RANK").map(|a| a.key.to_bytes()),
            Some(&b"pmix.rank"[..])
        );
        // Two names share "pmix.qry.quals"; the first in header order wins.
        assert_eq!(
            by_key(b"pmix.qry.quals").map(|a| a.name),
            Some(c"PMIX_QUERY_QUALIFIERS")
        );
        // Deprecated attributes are in the dictionary too.
        assert_eq!(
            by_key(b"pmix.evbase").map(|a| a.name),
            Some(c"PMIX_EVENT_BASE")
        );
        assert!(by_key(b"no.such.key").is_none());
    }

    #[test]
    fn registration_once_per_function() {
        register(b"PMIx_Test_fn", vec!["pmix.rank".into()]).unwrap();
        assert_eq!(
            register(b"PMIx_Test_fn", vec![]).unwrap_err().status(),
            pmix_sys::PMIX_ERR_REPEAT_ATTR_REGISTRATION
        );
        assert_eq!(
            registered(b"PMIx_Test_fn").unwrap(),
            vec![crate::PStr::from("pmix.rank")]
        );
    }
}
