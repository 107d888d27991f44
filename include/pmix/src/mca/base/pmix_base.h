/*
 * pmix-rs devel headers: the MCA base: opening, selecting and closing components.
 */
#ifndef PMIX_MCA_BASE_H
#define PMIX_MCA_BASE_H

#include "src/include/pmix_config.h"

#include "src/class/pmix_list.h"
#include "src/class/pmix_object.h"
#include "src/mca/base/pmix_mca_base_framework.h"
#include "src/mca/base/pmix_mca_base_var.h"
#include "src/mca/mca.h"
#include "src/util/pmix_cmd_line.h"
#include "src/util/pmix_output.h"

BEGIN_C_DECLS

typedef struct pmix_mca_base_component_list_item_t {
    pmix_list_item_t super;
    const pmix_mca_base_component_t *cli_component;
} pmix_mca_base_component_list_item_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_component_list_item_t);

typedef struct pmix_mca_base_component_priority_list_item_t {
    pmix_mca_base_component_list_item_t super;
    int cpli_priority;
} pmix_mca_base_component_priority_list_item_t;

enum {
    PMIX_MCA_BASE_VERBOSE_ERROR = 0,
    PMIX_MCA_BASE_VERBOSE_WARN = 20,
    PMIX_MCA_BASE_VERBOSE_INFO = 40,
    PMIX_MCA_BASE_VERBOSE_TRACE = 60,
    PMIX_MCA_BASE_VERBOSE_MAX = 100,
};

PMIX_EXPORT int pmix_mca_base_open(const char *add_path);
PMIX_EXPORT int pmix_mca_base_close(void);
/* Queries every component of COMPONENTS_AVAILABLE and keeps the highest priority one. */
PMIX_EXPORT int pmix_mca_base_select(const char *type_name, int output_id,
                                     pmix_list_t *components_available,
                                     pmix_mca_base_module_t **best_module,
                                     pmix_mca_base_component_t **best_component, int *priority_out);
PMIX_EXPORT int pmix_mca_base_framework_components_open(struct pmix_mca_base_framework_t *framework,
                                                        pmix_mca_base_open_flag_t flags);
PMIX_EXPORT int pmix_mca_base_framework_components_close(struct pmix_mca_base_framework_t *framework,
                                                         const pmix_mca_base_component_t *skip);

END_C_DECLS

#endif /* PMIX_MCA_BASE_H */
