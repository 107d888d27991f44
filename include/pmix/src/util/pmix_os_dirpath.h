/*
 * pmix-rs devel headers: creating and removing directory trees.
 */
#ifndef PMIX_OS_DIRPATH_H_
#define PMIX_OS_DIRPATH_H_

#include "src/include/pmix_config.h"

#include <sys/stat.h>
#include <sys/types.h>

BEGIN_C_DECLS

/* Asked before each entry is removed; false keeps it. */
typedef bool (*pmix_os_dirpath_destroy_callback_fn_t)(const char *root, const char *path);

PMIX_EXPORT int pmix_os_dirpath_create(const char *path, const mode_t mode);
PMIX_EXPORT int pmix_os_dirpath_destroy(const char *path, bool recursive,
                                        pmix_os_dirpath_destroy_callback_fn_t cbfunc);

END_C_DECLS

#endif /* PMIX_OS_DIRPATH_H_ */
