//! The C ABI of `libpmix.so.2`: every exported `PMIx_*` function.
//!
//! Each export checks and converts its arguments (`ptr`, `convert`), calls one function of
//! `pmix-core`, converts the result back and maps the error to a status, inside the panic
//! guard of `entry`. Everything this crate hands to C is allocated with libc (`alloc`), since
//! callers release it with `free()` through the header macros.
//!
//! # Safety
//!
//! The `# Safety` sections of the exports use these phrases:
//! * "Either NULL or a valid `T`": the pointer is NULL or points to an initialised `T` that
//!   stays valid, and is not written by another thread, for the duration of the call.
//! * "A valid array": `(ptr, n)` is `(NULL, 0)`, or `ptr` points to `n` initialised elements.
//! * "A C string": NULL or a pointer to a NUL-terminated string.
//!
//! Ownership: memory returned through an out-pointer belongs to the caller and is released
//! with the matching `PMIX_*_FREE`/`_DESTRUCT` macro or `free()`.
#![allow(non_snake_case)]

// OpenPMIx's internal layer (PRRTE imports it): linked only so that its symbols are exported.
use pmix_internals as _;

mod alloc;
pub mod api;
mod callback;
mod convert;
mod entry;
mod frameworks;
mod host;
mod hwloc;
mod keepalive;
mod lifecycle;
mod ptr;
