//! The exported functions, one module per family. `xtask` assigns each to its header.

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
