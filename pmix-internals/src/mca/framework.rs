//! MCA frameworks and components (register, open, select, close), `pmix_mca_base_open`/
//! `close`, `pmix_init_util` and the install directories.
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_mca_base_component_list_item_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_pinstall_dirs: [u8; 136] = [0; 136];

crate::not_yet!(
    pmix_mca_base_framework_open,
    pmix_mca_base_framework_close,
    pmix_mca_base_framework_components_open,
    pmix_mca_base_framework_components_close,
    pmix_mca_base_select,
    pmix_mca_base_open,
    pmix_mca_base_close,
    pmix_mca_base_framework_register,
    pmix_init_util,
);
