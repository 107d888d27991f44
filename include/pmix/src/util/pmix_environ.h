/*
 * pmix-rs devel headers: environment arrays.
 */
#ifndef PMIX_ENVIRON_H
#define PMIX_ENVIRON_H

#include "src/include/pmix_config.h"

#include <sys/types.h>

#include "pmix_common.h"

BEGIN_C_DECLS

/* MAJOR's variables, plus MINOR's not set in MAJOR; a new array. */
PMIX_EXPORT char **pmix_environ_merge(char **minor, char **major);
/* Removes NAME from *ENV (PMIX_ERR_NOT_FOUND if absent). */
PMIX_EXPORT pmix_status_t pmix_unsetenv(const char *name, char ***env);
PMIX_EXPORT const char *pmix_home_directory(uid_t uid);
PMIX_EXPORT const char *pmix_tmp_directory(void);

END_C_DECLS

#endif /* PMIX_ENVIRON_H */
