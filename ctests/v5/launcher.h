/* For the ctests/v5 programs that act as a launcher tool: PMIx_tool_init with
 * PMIX_TOOL_DO_NOT_CONNECT and PMIX_LAUNCHER, its status printed as "launcher init: N". */
#ifndef CTESTS_V5_LAUNCHER_H
#define CTESTS_V5_LAUNCHER_H
#include <pmix_tool.h>
#include <stdio.h>

static pmix_status_t launcher_init(pmix_proc_t *me)
{
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_LAUNCHER, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(me, info, 2);
    printf("launcher init: %d\n", (int)rc);
    return rc;
}
#endif
