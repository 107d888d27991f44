//! Mutexes, threads and thread-specific data (`pmix_mutex_t`, `pmix_thread_t`).
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_mutex_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_thread_t_class: [u8; 64] = [0; 64];

crate::not_yet!(pmix_thread_start, pmix_thread_join, pmix_tsd_key_create);
