/*
 * pmix-rs devel headers: other names for MCA components.
 */
#ifndef PMIX_MCA_BASE_ALIAS_H
#define PMIX_MCA_BASE_ALIAS_H

#include "src/include/pmix_config.h"

#include "src/class/pmix_list.h"

BEGIN_C_DECLS

typedef enum pmix_mca_base_alias_flags_t {
    PMIX_MCA_BASE_ALIAS_FLAG_NONE = 0,
    PMIX_MCA_BASE_ALIAS_FLAG_DEPRECATED = 1,
} pmix_mca_base_alias_flags_t;

typedef struct pmix_mca_base_alias_item_t {
    pmix_list_item_t super;
    char *component_alias;
    uint32_t alias_flags;
} pmix_mca_base_alias_item_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_alias_item_t);

typedef struct pmix_mca_base_alias_t {
    pmix_object_t super;
    pmix_list_t component_aliases; /* of pmix_mca_base_alias_item_t */
} pmix_mca_base_alias_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_alias_t);

PMIX_EXPORT int pmix_mca_base_alias_register(const char *project, const char *framework,
                                             const char *component_name,
                                             const char *component_alias, uint32_t alias_flags);
PMIX_EXPORT const pmix_mca_base_alias_t *
pmix_mca_base_alias_lookup(const char *project, const char *framework, const char *component_name);
PMIX_EXPORT void pmix_mca_base_alias_cleanup(void);

END_C_DECLS

#endif /* PMIX_MCA_BASE_ALIAS_H */
