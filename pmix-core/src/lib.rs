//! The PMIx implementation in safe Rust.
//!
//! This crate holds the behaviour of the library with Rust types only: the data model
//! (`values`), the "v41" codec shared with OpenPMIx peers (`codec`), the text renderings
//! (`print`), node and process maps (`regex`) and the attribute dictionary (`attrs`).
//! It uses `pmix-sys` for the numeric values of constants (status codes, data type ids),
//! never for its `repr(C)` structures or raw pointers; `pmix-ffi` does all conversion.
// `deny`, not `forbid`: the modules allowed `unsafe` are `datastore::segment` (the mmap of
// the job-data segment) and `security` (a user's groups from the C library), whose module
// docs state their invariants.
#![deny(unsafe_code)]

pub mod attrs;
pub mod cleanup;
pub mod client;
pub mod codec;
pub mod datastore;
pub mod debugger;
pub mod error;
pub mod events;
pub mod host;
pub mod iof;
pub mod launcher;
pub mod net;
pub mod pmdl;
pub mod print;
pub mod progress;
pub mod regex;
pub mod rendezvous;
pub mod requester;
pub mod security;
pub mod server;
pub mod status_names;
pub mod tool;
pub mod topology;
pub mod values;
pub mod wire;

pub use error::{Error, Result};
pub use values::*;
