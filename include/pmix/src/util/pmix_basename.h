/*
 * pmix-rs devel headers: file name parts.
 */
#ifndef PMIX_BASENAME_H
#define PMIX_BASENAME_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

PMIX_EXPORT char *pmix_basename(const char *filename) __pmix_attribute_malloc__;
PMIX_EXPORT char *pmix_dirname(const char *filename) __pmix_attribute_malloc__;

END_C_DECLS

#endif /* PMIX_BASENAME_H */
