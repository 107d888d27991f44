/* Shared by the C tests: puts the library into the state in which its data API works.
 *
 * The reference library answers most data-API calls only once initialized, so the tests
 * initialize it as a tool that does not connect to any server. Our library needs no
 * initialization for those calls; the result of this call is deliberately not printed, so
 * that the output of a test is the same on both libraries. */
#ifndef CTEST_COMMON_H
#define CTEST_COMMON_H

#include <stdio.h>
#include <pmix.h>
#include <pmix_tool.h>

static inline void ctest_init(void)
{
    pmix_info_t info;
    pmix_proc_t me;
    bool yes = true;
    setvbuf(stdout, NULL, _IONBF, 0);
    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    (void) PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
}

#define CHECK(cond) do { if (!(cond)) { printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)

#endif
