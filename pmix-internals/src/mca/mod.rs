//! The MCA system: variables (`var`) and frameworks and components (`framework`), as PRRTE
//! uses them (all components static), and `pmix_init_util`.

pub mod framework;
pub mod var;
