/* A tool: finds the server by its pid (PMIX_SERVER_PIDINFO, through the rendezvous files in
 * $TMPDIR), prints the identity the server gave it, the servers it is connected to, and the
 * answer to a PMIX_QUERY_NAMESPACES query, and the status with which it prepares an application
 * launch as a launcher tool does (PMIx_server_setup_application: PRRTE's prun calls it).
 * With "scheduler", it says it is a scheduler (PMIX_SERVER_SCHEDULER) with an identity of its
 * own (PMIX_TOOL_NSPACE "sched-tool", PMIX_TOOL_RANK 0): an OpenPMIx 5.0 tool then connects
 * with handshake flag 10 (PMIX_SCHEDULER_WITH_ID).
 * usage: tool <server pid> [scheduler] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmix_tool.h>
#include <pmix_server.h>

static volatile int setup_done;
static volatile pmix_status_t setup_status;

static void setup_cb(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided_cbdata,
                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) info;
    (void) ninfo;
    (void) provided_cbdata;
    setup_status = status;
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    setup_done = 1;
}

int main(int argc, char **argv)
{
    pmix_proc_t me, *servers = NULL;
    size_t nservers = 0, nres = 0, n;
    pmix_info_t info[5], *res = NULL;
    size_t ninfo = 2;
    bool yes = true;
    pmix_rank_t zero = 0;
    pmix_query_t q;
    pid_t pid = argc > 1 ? atoi(argv[1]) : 0;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    if (argc > 2 && 0 == strcmp(argv[2], "scheduler")) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_SCHEDULER, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_TOOL_NSPACE, "sched-tool", PMIX_STRING);
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_TOOL_RANK, &zero, PMIX_PROC_RANK);
    }
    rc = PMIx_tool_init(&me, info, ninfo);
    printf("tool_init: %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) return 1;
    printf("tool id: %.11s rank %u\n", me.nspace, me.rank);
    rc = PMIx_tool_get_servers(&servers, &nservers);
    printf("servers: %s %zu %s\n", PMIx_Error_string(rc), nservers, nservers ? servers[0].nspace : "-");
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
    rc = PMIx_Query_info(&q, 1, &res, &nres);
    printf("query: %s\n", PMIx_Error_string(rc));
    for (n = 0; n < nres; n++) {
        printf("  %s = %s\n", res[n].key, res[n].value.type == PMIX_STRING ? res[n].value.data.string : "?");
    }
    {
        pmix_nspace_t app;
        PMIX_LOAD_NSPACE(app, "tool-app");
        rc = PMIx_server_setup_application(app, NULL, 0, setup_cb, NULL);
    }
    for (n = 0; PMIX_SUCCESS == rc && !setup_done && n < 500; n++) {
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    printf("setup_application: %s, callback %s\n", PMIx_Error_string(rc),
           setup_done ? PMIx_Error_string(setup_status) : "none");
    rc = PMIx_tool_finalize();
    printf("tool_finalize: %s\n", PMIx_Error_string(rc));
    return 0;
}
