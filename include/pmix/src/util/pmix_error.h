/*
 * pmix-rs devel headers: logging an error status where it happened.
 */
#ifndef PMIX_UTIL_ERROR_H
#define PMIX_UTIL_ERROR_H

#include "src/include/pmix_config.h"

#include "pmix.h"
#include "src/util/pmix_output.h"

BEGIN_C_DECLS

#define PMIX_ERROR_LOG(r)                                                                  \
    do {                                                                                   \
        if (PMIX_ERR_SILENT != (r)) {                                                      \
            pmix_output(0, "PMIX ERROR: %s in file %s at line %d", PMIx_Error_string((r)), \
                        __FILE__, __LINE__);                                               \
        }                                                                                  \
    } while (0)

END_C_DECLS

#endif /* PMIX_UTIL_ERROR_H */
