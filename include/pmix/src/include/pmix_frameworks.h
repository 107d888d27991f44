/*
 * pmix-rs devel headers: the names of OpenPMIx's MCA frameworks, which PRRTE and Open MPI
 * use to tell PMIx's parameters from their own.
 */
#ifndef PMIX_FRAMEWORKS_H
#define PMIX_FRAMEWORKS_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

/* NULL-terminated. */
PMIX_EXPORT extern char *pmix_framework_names[];

END_C_DECLS

#endif /* PMIX_FRAMEWORKS_H */
