//! The MCA variable and framework system (`pmix_mca_base_*`), the parameter routing of `pmdl`, and `pmix_init_util` with the install directories.
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_mca_base_component_list_item_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_pinstall_dirs: [u8; 136] = [0; 136];

crate::not_yet!(
    pmix_mca_base_var_init,
    pmix_mca_base_var_register,
    pmix_mca_base_component_var_register,
    pmix_mca_base_framework_var_register,
    pmix_mca_base_var_register_synonym,
    pmix_mca_base_var_get_value,
    pmix_mca_base_framework_open,
    pmix_mca_base_framework_close,
    pmix_mca_base_framework_components_open,
    pmix_mca_base_framework_components_close,
    pmix_mca_base_select,
    pmix_mca_base_alias_register,
    pmix_mca_base_alias_cleanup,
    pmix_mca_base_parse_paramfile,
    pmix_pmdl_base_check_pmix_param,
    pmix_pmdl_base_check_prte_param,
    pmix_mca_base_open,
    pmix_mca_base_close,
    pmix_mca_base_framework_register,
    pmix_mca_base_var_dump,
    pmix_mca_base_var_get,
    pmix_mca_base_var_group_find,
    pmix_mca_base_var_group_get,
    pmix_init_util
);
