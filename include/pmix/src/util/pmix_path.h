/*
 * pmix-rs devel headers: searching PATH-like lists.
 */
#ifndef PMIX_PATH_H
#define PMIX_PATH_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

/* FNAME found with access MODE in ENVV's PATH (relative entries against WRKDIR). */
PMIX_EXPORT char *pmix_path_findv(char *fname, int mode, char **envv, char *wrkdir);
PMIX_EXPORT bool pmix_path_is_absolute(const char *path);
PMIX_EXPORT char *pmix_find_absolute_path(char *app_name);
/* Whether FNAME is on a network file system; *FSTYPE gets its type. */
PMIX_EXPORT bool pmix_path_nfs(char *fname, char **fstype);

END_C_DECLS

#endif /* PMIX_PATH_H */
