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
    all().find(|a| a.name.as_bytes() == name)
}
