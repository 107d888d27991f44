/*
 * pmix-rs devel headers: building file paths.
 */
#ifndef PMIX_OS_PATH_H
#define PMIX_OS_PATH_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

/* The NULL-terminated list of elements joined with '/', malloc'ed; absolute unless
 * RELATIVE. */
PMIX_EXPORT char *pmix_os_path(int relative, ...) __pmix_attribute_malloc__
    __pmix_attribute_sentinel__;

END_C_DECLS

#endif /* PMIX_OS_PATH_H */
