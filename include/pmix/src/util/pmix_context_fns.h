/*
 * pmix-rs devel headers: checks of an application's executable and working directory.
 */
#ifndef PMIX_CONTEXT_FNS_H
#define PMIX_CONTEXT_FNS_H

#include "src/include/pmix_config.h"

#include "pmix_common.h"

BEGIN_C_DECLS

PMIX_EXPORT pmix_status_t pmix_util_check_context_cwd(char **incwd, bool want_chdir,
                                                      bool user_cwd);
PMIX_EXPORT pmix_status_t pmix_util_check_context_app(char **incmd, char *cwd, char **env);

END_C_DECLS

#endif /* PMIX_CONTEXT_FNS_H */
