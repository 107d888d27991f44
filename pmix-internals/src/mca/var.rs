//! MCA variables: the registry, their sources (environment, parameter files, defaults),
//! synonyms, groups, the parameter-file parser, and the `pmdl` routing of parameters.
//!
//! Not written yet: every function below aborts with its name (issue 16).

crate::not_yet!(
    pmix_mca_base_var_init,
    pmix_mca_base_var_register,
    pmix_mca_base_component_var_register,
    pmix_mca_base_framework_var_register,
    pmix_mca_base_var_register_synonym,
    pmix_mca_base_var_get_value,
    pmix_mca_base_alias_register,
    pmix_mca_base_alias_cleanup,
    pmix_mca_base_parse_paramfile,
    pmix_pmdl_base_check_pmix_param,
    pmix_pmdl_base_check_prte_param,
    pmix_mca_base_var_dump,
    pmix_mca_base_var_get,
    pmix_mca_base_var_group_find,
    pmix_mca_base_var_group_get,
);
