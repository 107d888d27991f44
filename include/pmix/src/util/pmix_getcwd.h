/*
 * pmix-rs devel headers: the working directory, preferring $PWD when it names the same place.
 */
#ifndef PMIX_GETCWD_H
#define PMIX_GETCWD_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

PMIX_EXPORT int pmix_getcwd(char *buf, size_t size);

END_C_DECLS

#endif /* PMIX_GETCWD_H */
