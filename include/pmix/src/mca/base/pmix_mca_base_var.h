/*
 * pmix-rs devel headers: MCA variables (parameters): registration, synonyms, values and where they
 * came from, and their groups. Layouts: pmix-internals/facts/layouts-mcavar.txt.
 */
#ifndef PMIX_MCA_BASE_VAR_H
#define PMIX_MCA_BASE_VAR_H

#include "src/include/pmix_config.h"

#include "src/class/pmix_list.h"
#include "src/class/pmix_value_array.h"
#include "src/mca/base/pmix_mca_base_framework.h"
#include "src/mca/mca.h"

BEGIN_C_DECLS

typedef enum {
    PMIX_MCA_BASE_VAR_TYPE_INT,
    PMIX_MCA_BASE_VAR_TYPE_UNSIGNED_INT,
    PMIX_MCA_BASE_VAR_TYPE_UNSIGNED_LONG,
    PMIX_MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
    PMIX_MCA_BASE_VAR_TYPE_SIZE_T,
    PMIX_MCA_BASE_VAR_TYPE_STRING,
    PMIX_MCA_BASE_VAR_TYPE_VERSION_STRING,
    PMIX_MCA_BASE_VAR_TYPE_BOOL,
    PMIX_MCA_BASE_VAR_TYPE_DOUBLE,
    PMIX_MCA_BASE_VAR_TYPE_MAX
} pmix_mca_base_var_type_t;

/* "int", "unsigned_int", ... indexed by pmix_mca_base_var_type_t. */
PMIX_EXPORT extern const char *pmix_var_type_names[];

typedef enum {
    PMIX_MCA_BASE_VAR_SOURCE_DEFAULT,
    PMIX_MCA_BASE_VAR_SOURCE_COMMAND_LINE,
    PMIX_MCA_BASE_VAR_SOURCE_ENV,
    PMIX_MCA_BASE_VAR_SOURCE_FILE,
    PMIX_MCA_BASE_VAR_SOURCE_SET,
    PMIX_MCA_BASE_VAR_SOURCE_OVERRIDE,
    PMIX_MCA_BASE_VAR_SOURCE_MAX
} pmix_mca_base_var_source_t;

typedef enum {
    PMIX_MCA_BASE_VAR_SYN_FLAG_DEPRECATED = 0x0001
} pmix_mca_base_var_syn_flag_t;

typedef enum {
    PMIX_MCA_BASE_VAR_FLAG_NONE = 0x0000,
    PMIX_MCA_BASE_VAR_FLAG_DEPRECATED = 0x0008,
    PMIX_MCA_BASE_VAR_FLAG_VALID = 0x00010000,
    PMIX_MCA_BASE_VAR_FLAG_SYNONYM = 0x00020000,
    PMIX_MCA_BASE_VAR_FLAG_SOURCE_FILE_NEEDS_FREE = 0x00040000
} pmix_mca_base_var_flag_internal_t;

typedef union {
    int intval;
    unsigned int uintval;
    char *stringval;
    bool boolval;
    unsigned long ulval;
    unsigned long long ullval;
    size_t sizetval;
    double lfval;
} pmix_mca_base_var_storage_t;

struct pmix_mca_base_var_enum_t;

typedef struct pmix_mca_base_var_t {
    pmix_object_t super;
    int mbv_index;
    int mbv_group_index;
    pmix_mca_base_var_type_t mbv_type;
    char *mbv_variable_name;
    char *mbv_full_name;
    char *mbv_long_name;
    char *mbv_prefix;
    pmix_value_array_t mbv_synonyms;
    pmix_mca_base_var_flag_internal_t mbv_flags;
    pmix_mca_base_var_source_t mbv_source;
    int mbv_synonym_for;
    char *mbv_description;
    char *mbv_source_file;
    struct pmix_mca_base_var_enum_t *mbv_enumerator;
    int mbv_bind;
    pmix_mca_base_var_storage_t *mbv_storage;
    void *mbv_file_value;
} pmix_mca_base_var_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_var_t);

/* A group of variables: a project, framework or component. */
typedef struct pmix_mca_base_var_group_t {
    pmix_list_item_t super;
    int group_index;
    bool group_isvalid;
    char *group_full_name;
    char *group_project;
    char *group_framework;
    char *group_component;
    char *group_description;
    pmix_value_array_t group_subgroups; /* of int group indices */
    pmix_value_array_t group_vars;      /* of int variable indices */
} pmix_mca_base_var_group_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_var_group_t);

typedef enum {
    PMIX_MCA_BASE_VAR_DUMP_READABLE = 0,
    PMIX_MCA_BASE_VAR_DUMP_PARSABLE = 1,
    PMIX_MCA_BASE_VAR_DUMP_SIMPLE = 2
} pmix_mca_base_var_dump_type_t;

PMIX_EXPORT int pmix_mca_base_var_init(void);
PMIX_EXPORT int pmix_mca_base_var_finalize(void);
/* Registers PROJECT_FRAMEWORK_COMPONENT_VARIABLE (NULL parts left out) with the value in
 * *STORAGE as default, sets *STORAGE from the environment or files, and returns the
 * variable's index (a negative status on error). */
PMIX_EXPORT int pmix_mca_base_var_register(const char *project_name, const char *framework_name,
                                           const char *component_name, const char *variable_name,
                                           const char *description, pmix_mca_base_var_type_t type,
                                           void *storage);
PMIX_EXPORT int pmix_mca_base_component_var_register(const pmix_mca_base_component_t *component,
                                                     const char *variable_name,
                                                     const char *description,
                                                     pmix_mca_base_var_type_t type, void *storage);
PMIX_EXPORT int pmix_mca_base_framework_var_register(const pmix_mca_base_framework_t *framework,
                                                     const char *variable_name,
                                                     const char *help_msg,
                                                     pmix_mca_base_var_type_t type, void *storage);
PMIX_EXPORT int pmix_mca_base_var_register_synonym(int synonym_for, const char *project_name,
                                                   const char *framework_name,
                                                   const char *component_name,
                                                   const char *synonym_name,
                                                   pmix_mca_base_var_syn_flag_t flags);
PMIX_EXPORT int pmix_mca_base_var_deregister(int vari);
PMIX_EXPORT int pmix_mca_base_var_get_value(int vari, void *value,
                                            pmix_mca_base_var_source_t *source,
                                            const char **source_file);
PMIX_EXPORT int pmix_mca_base_var_find(const char *project_name, const char *type_name,
                                       const char *component_name, const char *param_name);
PMIX_EXPORT int pmix_mca_base_var_find_by_name(const char *full_name, int *vari);
PMIX_EXPORT int pmix_mca_base_var_get(int vari, const pmix_mca_base_var_t **var);
PMIX_EXPORT int pmix_mca_base_var_get_count(void);
/* Lines describing variable VARI, in the style OUTPUT_TYPE, as a new argv in *OUT. */
PMIX_EXPORT int pmix_mca_base_var_dump(int vari, char ***out,
                                       pmix_mca_base_var_dump_type_t output_type);

PMIX_EXPORT int pmix_mca_base_var_group_register(const char *project_name,
                                                 const char *framework_name,
                                                 const char *component_name,
                                                 const char *description);
PMIX_EXPORT int pmix_mca_base_var_group_component_register(
    const pmix_mca_base_component_t *component, const char *description);
PMIX_EXPORT int pmix_mca_base_var_group_deregister(int group_index);
PMIX_EXPORT int pmix_mca_base_var_group_find(const char *project_name, const char *framework_name,
                                             const char *component_name);
PMIX_EXPORT int pmix_mca_base_var_group_find_by_name(const char *full_name, int *index);
PMIX_EXPORT int pmix_mca_base_var_group_get(const int group_index,
                                            const pmix_mca_base_var_group_t **group);
PMIX_EXPORT int pmix_mca_base_var_group_get_count(void);
PMIX_EXPORT int pmix_mca_base_var_group_get_stamp(void);

END_C_DECLS

#endif /* PMIX_MCA_BASE_VAR_H */
