//! The exported functions, one module per family. `xtask` assigns each to its header.
//!
//! - `client/`: the client API of `pmix.h`, one file per chapter of the PMIx standard (init,
//!   data sharing and fence, publish/lookup, events, process and job management, groups,
//!   fabric, device distances, security; its `mod.rs` lists them).
//! - `query.rs`: `PMIx_Query_info`/`_nb`. `server.rs`, `regex.rs`: the server API of
//!   `pmix_server.h`. `tool.rs`: the tool API of `pmix_tool.h` (with IO forwarding).
//! - `attributes.rs`: the attribute dictionary and host attribute registration.
//!   `topology.rs`: topology, cpusets and locality.
//! - `data.rs`: packing and unpacking buffers. `value.rs`, `info_list.rs`, `size.rs`: values,
//!   infos and info lists. `strings.rs`: the renderings (`PMIx_*_string`, `PMIx_Data_print`),
//!   `PMIx_Error_code` and `PMIx_Get_version`.
//! - `argv.rs`, `ids.rs`, `info.rs`, `objects.rs`: the 5.0 functions behind 4.2's header
//!   macros, declared in `pmix_deprecated.h`.

pub mod argv;
pub mod attributes;
pub mod client;
pub mod data;
pub mod ids;
pub mod info;
pub mod info_list;
pub mod objects;
pub mod query;
pub mod regex;
pub mod server;
pub mod size;
pub mod strings;
pub mod tool;
pub mod topology;
pub mod value;
