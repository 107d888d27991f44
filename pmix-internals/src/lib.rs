//! OpenPMIx's internal utility layer, as PRRTE's binaries (Open MPI 5's `mpirun`, `prted`,
//! `prte_info`) import it from `libpmix.so.2`: 123 `pmix_*` symbols besides the standard's
//! `PMIx_*` API. Layouts and data sizes are OpenPMIx 5.0.11's non-debug ones, recorded in
//! `facts/` and tested against our structs (`tests/layouts.rs`).
//!
//! Nothing in pmix-core or in pmix-ffi's API uses this crate: pmix-ffi links it only so that
//! these symbols are exported from the library (docs/architecture.md, "pmix-internals").
#![allow(non_upper_case_globals)]

pub mod cli;
pub mod containers;
pub mod list;
pub mod mca;
pub mod net;
pub mod object;
pub mod output;
pub mod threads;
pub mod util;

#[cfg(test)]
mod facts;

/// Ends the process because `name`, an internal function PRRTE called, is not written yet:
/// a clear message rather than wrong behaviour.
#[cold]
pub fn not_yet(name: &str) -> ! {
    let msg = format!("libpmix (pmix-rs): internal function {name} is not implemented yet\n");
    // SAFETY: writing a buffer to stderr.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::abort()
    }
}

/// Defines exported functions that abort with their name (`not_yet`).
#[macro_export]
macro_rules! not_yet {
    ($($name:ident),* $(,)?) => { $(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name() -> ! {
            $crate::not_yet(stringify!($name))
        }
    )* };
}
