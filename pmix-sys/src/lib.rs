//! The C ABI of `libpmix.so.2` as OpenPMIx 4.2 defines it: `#[repr(C)]` types, typedefs,
//! every numeric constant and every attribute key.
//!
//! This crate holds no logic. It is the single source from which cbindgen writes the
//! installed headers (see `xtask`), and the vocabulary `pmix-ffi` uses at the C boundary.
//! Every item keeps the reference's C name, hence the lint allowances.
#![no_std]
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

pub mod attrs;
pub mod callbacks;
pub mod consts;
pub mod deprecated;
pub mod limits;
pub mod server;
pub mod tool;
pub mod types;

pub use attrs::*;
pub use callbacks::*;
pub use consts::*;
pub use deprecated::*;
pub use limits::{PMIX_KEY_BUFLEN, PMIX_NSPACE_BUFLEN};
pub use server::*;
pub use tool::*;
pub use types::*;

/// One entry of an attribute table: the C macro name, the key string and the data type
/// the standard gives for its value (`PMIX_UNDEF` where it varies).
#[derive(Debug, Clone, Copy)]
pub struct AttrDef {
    pub name: &'static core::ffi::CStr,
    pub key: &'static core::ffi::CStr,
    pub ty: types::pmix_data_type_t,
}

pub mod attr_table;
pub use attr_table::AttrTable;

/// Declares attribute keys as `&CStr` constants and collects them, in order, into a table.
/// cbindgen skips `&CStr` constants, so `xtask` writes the C `#define`s from the table.
///
/// The table holds its names and keys in two byte strings and each entry as offsets into
/// them ([`AttrTable`]): no pointer per entry, so the table needs no relocation when the
/// library is loaded and stays in shared read-only pages (as `&CStr` pairs it was 21 kB of
/// pages every process relocated, hence its own copy).
macro_rules! attribute_table {
    ($table:ident; $($name:ident = $key:literal, $ty:ident;)*) => {
        $(pub const $name: &core::ffi::CStr = $key;)*
        /// Every attribute of this group, in header order.
        pub static $table: $crate::AttrTable = {
            const KEYS: &[&core::ffi::CStr] = &[$($key),*];
            const TYPES: &[$crate::types::pmix_data_type_t] = &[$($crate::consts::$ty),*];
            const NAMES: &[u8] = concat!($(stringify!($name), "\0"),*).as_bytes();
            const N: usize = KEYS.len();
            const KEY_BYTES: usize = $crate::attr_table::joined_len(KEYS);
            const KEY_BLOB: [u8; KEY_BYTES] = $crate::attr_table::join(KEYS);
            const ENTRIES: [$crate::attr_table::AttrEntry; N] =
                $crate::attr_table::entries(NAMES, KEYS, TYPES);
            $crate::AttrTable::new(NAMES, &KEY_BLOB, &ENTRIES)
        };
    };
}
pub(crate) use attribute_table;
