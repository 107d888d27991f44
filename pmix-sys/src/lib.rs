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
pub mod server;
pub mod tool;
pub mod types;

pub use attrs::*;
pub use callbacks::*;
pub use consts::*;
pub use deprecated::*;
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

/// Declares attribute keys as `&CStr` constants and collects them, in order, into a table.
/// cbindgen skips `&CStr` constants, so `xtask` writes the C `#define`s from the table.
macro_rules! attribute_table {
    ($table:ident; $($name:ident = $key:literal, $ty:ident;)*) => {
        $(pub const $name: &core::ffi::CStr = $key;)*
        /// Every attribute of this group, in header order.
        pub static $table: &[$crate::AttrDef] = &[
            $($crate::AttrDef { name: $crate::cstr_of(concat!(stringify!($name), "\0")), key: $key, ty: $crate::consts::$ty },)*
        ];
    };
}
pub(crate) use attribute_table;

/// A `&CStr` from a NUL-terminated literal, at compile time.
#[doc(hidden)]
pub const fn cstr_of(s: &'static str) -> &'static core::ffi::CStr {
    match core::ffi::CStr::from_bytes_with_nul(s.as_bytes()) {
        Ok(c) => c,
        Err(_) => panic!("attribute name is not a C string"),
    }
}
