/*
 * pmix-rs devel headers: the programming-model checks PRRTE uses: which MCA parameter names
 * belong to PMIx and which to PRRTE.
 */
#ifndef PMIX_PMDL_BASE_H
#define PMIX_PMDL_BASE_H

#include "src/include/pmix_config.h"

#include "src/class/pmix_list.h"
#include "src/class/pmix_pointer_array.h"
#include "src/mca/base/pmix_mca_base_framework.h"
#include "src/mca/mca.h"

BEGIN_C_DECLS

PMIX_EXPORT bool pmix_pmdl_base_check_prte_param(char *param);
PMIX_EXPORT bool pmix_pmdl_base_check_pmix_param(char *param);

END_C_DECLS

#endif /* PMIX_PMDL_BASE_H */
