/*
 * pmix-rs devel headers: initializing the utility layer (output, help, install dirs, MCA variables,
 * interfaces) without initializing a client, server or tool.
 */
#ifndef PMIX_INIT_UTIL_H
#define PMIX_INIT_UTIL_H

#include "src/include/pmix_config.h"

#include "pmix_common.h"

BEGIN_C_DECLS

/* How the tool running on this layer names itself in help messages. */
PMIX_EXPORT extern const char *pmix_tool_basename;
PMIX_EXPORT extern const char *pmix_tool_version;
PMIX_EXPORT extern const char *pmix_tool_org;
PMIX_EXPORT extern const char *pmix_tool_msg;

PMIX_EXPORT int pmix_init_util(pmix_info_t info[], size_t ninfo, char *helpdir);

END_C_DECLS

#endif /* PMIX_INIT_UTIL_H */
