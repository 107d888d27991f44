/*
 * pmix-rs devel headers: MCA parameter files.
 */
#ifndef PMIX_MCA_BASE_VARI_H
#define PMIX_MCA_BASE_VARI_H

#include "src/include/pmix_config.h"

#include "src/class/pmix_list.h"
#include "src/mca/base/pmix_mca_base_var.h"

BEGIN_C_DECLS

/* One "name = value" line of a parameter file. */
typedef struct pmix_mca_base_var_file_value_t {
    pmix_list_item_t super;
    char *mbvfv_var;
    char *mbvfv_value;
    char *mbvfv_file;
    int mbvfv_lineno;
} pmix_mca_base_var_file_value_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mca_base_var_file_value_t);

/* Appends a pmix_mca_base_var_file_value_t to LIST for each setting in PARAMFILE. */
PMIX_EXPORT int pmix_mca_base_parse_paramfile(const char *paramfile, pmix_list_t *list);

END_C_DECLS

#endif /* PMIX_MCA_BASE_VARI_H */
