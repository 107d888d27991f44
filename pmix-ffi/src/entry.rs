//! The panic boundary every export goes through.
//!
//! A panic inside the library must never unwind into C: `guard` catches it, reports it once
//! on stderr and returns the export's fallback value (`PMIX_ERROR` for status-returning
//! functions, NULL for pointer-returning ones).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

use pmix_core::{Error, Result};
use pmix_sys::{PMIX_ERROR, PMIX_SUCCESS, pmix_status_t};

static PANIC_REPORTED: AtomicBool = AtomicBool::new(false);

fn report_panic(export: &str) {
    if !PANIC_REPORTED.swap(true, Ordering::Relaxed) {
        eprintln!("libpmix: internal error (panic) in {export}; returning an error to the caller");
    }
}

/// Runs `f`; if it panics, returns `fallback` instead.
pub(crate) fn guard<T>(export: &str, fallback: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => {
            report_panic(export);
            fallback
        }
    }
}

/// Whether `PMIX_TRACE_API` asks for a line on stderr per failed call (a debugging aid).
fn trace_api() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("PMIX_TRACE_API").is_some())
}

/// Runs `f` and turns its result into a status; a panic gives `PMIX_ERROR`.
pub(crate) fn status(export: &str, f: impl FnOnce() -> Result<()>) -> pmix_status_t {
    guard(export, PMIX_ERROR, || match f() {
        Ok(()) => PMIX_SUCCESS,
        Err(e) => {
            if trace_api() {
                eprintln!("libpmix: {export} -> {e:?} ({})", e.status());
            }
            e.status()
        }
    })
}

/// Like `status`, for bodies that compute the status themselves (a success code other than
/// `PMIX_SUCCESS`, such as `PMIX_QUERY_PARTIAL_SUCCESS`).
pub(crate) fn status_code(
    export: &str,
    f: impl FnOnce() -> Result<pmix_status_t>,
) -> pmix_status_t {
    guard(export, PMIX_ERROR, || {
        f().unwrap_or_else(|e: Error| e.status())
    })
}
