/*
 * pmix-rs devel headers: MCA components: the version-stamped descriptor every component starts with.
 * Layout: pmix-internals/facts/layouts-mcafw.txt.
 */
#ifndef PMIX_MCA_H
#define PMIX_MCA_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

/* A component's module; frameworks extend it. */
typedef struct pmix_mca_base_module_2_0_0_t {
    int dummy_value;
} pmix_mca_base_module_2_0_0_t;
typedef pmix_mca_base_module_2_0_0_t pmix_mca_base_module_t;

typedef int (*pmix_mca_base_open_component_1_0_0_fn_t)(void);
typedef int (*pmix_mca_base_close_component_1_0_0_fn_t)(void);
/* Returns PMIX_SUCCESS with a module and its priority when the component can run. */
typedef int (*pmix_mca_base_query_component_2_0_0_fn_t)(pmix_mca_base_module_2_0_0_t **module,
                                                        int *priority);
typedef int (*pmix_mca_base_register_component_params_2_0_0_fn_t)(void);

#define PMIX_MCA_BASE_MAX_PROJECT_NAME_LEN   15
#define PMIX_MCA_BASE_MAX_TYPE_NAME_LEN      31
#define PMIX_MCA_BASE_MAX_COMPONENT_NAME_LEN 63

typedef struct pmix_mca_base_component_2_1_0_t {
    int pmix_mca_major_version;
    int pmix_mca_minor_version;
    int pmix_mca_release_version;
    char pmix_mca_project_name[PMIX_MCA_BASE_MAX_PROJECT_NAME_LEN + 1];
    int pmix_mca_project_major_version;
    int pmix_mca_project_minor_version;
    int pmix_mca_project_release_version;
    char pmix_mca_type_name[PMIX_MCA_BASE_MAX_TYPE_NAME_LEN + 1];
    int pmix_mca_type_major_version;
    int pmix_mca_type_minor_version;
    int pmix_mca_type_release_version;
    char pmix_mca_component_name[PMIX_MCA_BASE_MAX_COMPONENT_NAME_LEN + 1];
    int pmix_mca_component_major_version;
    int pmix_mca_component_minor_version;
    int pmix_mca_component_release_version;
    pmix_mca_base_open_component_1_0_0_fn_t pmix_mca_open_component;
    pmix_mca_base_close_component_1_0_0_fn_t pmix_mca_close_component;
    pmix_mca_base_query_component_2_0_0_fn_t pmix_mca_query_component;
    pmix_mca_base_register_component_params_2_0_0_fn_t pmix_mca_register_component_params;
    char reserved[32];
} pmix_mca_base_component_2_1_0_t;
typedef pmix_mca_base_component_2_1_0_t pmix_mca_base_component_t;

#define PMIX_MCA_BASE_VERSION_MAJOR   2
#define PMIX_MCA_BASE_VERSION_MINOR   1
#define PMIX_MCA_BASE_VERSION_RELEASE 0

/* Designated initializers for the LEVEL (project, type, component) version triple. */
#define PMIX_MCA_BASE_MAKE_VERSION(level, MAJOR, MINOR, RELEASE)                          \
    .pmix_mca_##level##_major_version = MAJOR, .pmix_mca_##level##_minor_version = MINOR, \
    .pmix_mca_##level##_release_version = RELEASE

#define PMIX_MCA_BASE_VERSION_2_1_0(PROJECT, project_major, project_minor, project_release, TYPE, \
                                    type_major, type_minor, type_release)                         \
    .pmix_mca_major_version = PMIX_MCA_BASE_VERSION_MAJOR,                                        \
    .pmix_mca_minor_version = PMIX_MCA_BASE_VERSION_MINOR,                                        \
    .pmix_mca_release_version = PMIX_MCA_BASE_VERSION_RELEASE,                                    \
    .pmix_mca_project_name = PROJECT,                                                             \
    PMIX_MCA_BASE_MAKE_VERSION(project, project_major, project_minor, project_release),           \
    .pmix_mca_type_name = TYPE, PMIX_MCA_BASE_MAKE_VERSION(type, type_major, type_minor, type_release)

END_C_DECLS

#endif /* PMIX_MCA_H */
