/* A debugger daemon for pmixrun's debugger tests (pmixrun/tests/debugger.rs).
 *
 * usage: dbgd DIR
 *   Reads PMIX_DEBUG_TARGET from its job's information, finds its target (the process of
 *   the target job whose local rank is its own) in the local proc table, prints
 *   "dbgd R: target NSPACE:RANK pid PID", writes DIR/dbgd.<rank> with the pid, and, once
 *   the target waits (DIR/ready.<nspace>.<rank> exists, see dbgapp.c), releases it with
 *   PMIX_DEBUGGER_RELEASE. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

int main(int argc, char **argv)
{
    pmix_proc_t me, job, target;
    pmix_value_t *val = NULL;
    pmix_status_t rc;
    pmix_query_t q;
    pmix_info_t *res = NULL, rel;
    size_t nres = 0, n;
    pmix_proc_info_t *pi;
    pid_t pid = 0;
    char path[4096];
    FILE *f;

    if (argc < 2) {
        return 2;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "FAIL dbgd PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&job, PMIX_DEBUG_TARGET, NULL, 0, &val);
    if (PMIX_SUCCESS != rc || PMIX_PROC != val->type) {
        fprintf(stderr, "FAIL dbgd %u: no PMIX_DEBUG_TARGET (%s)\n", me.rank,
                PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&target, val->data.proc->nspace, me.rank);
    PMIX_VALUE_RELEASE(val);

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_LOCAL_PROC_TABLE);
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, target.nspace, PMIX_STRING);
    rc = PMIx_Query_info(&q, 1, &res, &nres);
    if (PMIX_SUCCESS != rc || 0 == nres || PMIX_DATA_ARRAY != res[0].value.type) {
        fprintf(stderr, "FAIL dbgd %u: local proc table: %s\n", me.rank, PMIx_Error_string(rc));
        return 1;
    }
    pi = (pmix_proc_info_t *) res[0].value.data.darray->array;
    for (n = 0; n < res[0].value.data.darray->size; n++) {
        if (pi[n].proc.rank == target.rank) {
            pid = pi[n].pid;
        }
    }
    if (0 == pid || 0 != kill(pid, 0)) {
        fprintf(stderr, "FAIL dbgd %u: target %s:%u has no live pid (%d)\n", me.rank,
                target.nspace, target.rank, (int) pid);
        return 1;
    }
    printf("dbgd %u: target %s:%u pid %d\n", me.rank, target.nspace, target.rank, (int) pid);
    fflush(stdout);
    snprintf(path, sizeof path, "%s/dbgd.%u", argv[1], me.rank);
    f = fopen(path, "w");
    if (NULL != f) {
        fprintf(f, "%d\n", (int) pid);
        fclose(f);
    }
    /* Release the target only once it waits for the release (it writes this file after
     * registering its handler): an event is not kept for a handler registered later. */
    snprintf(path, sizeof path, "%s/ready.%s.%u", argv[1], target.nspace, target.rank);
    while (0 != access(path, F_OK)) {
        usleep(10000);
    }
    PMIX_INFO_LOAD(&rel, PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
    rc = PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, &rel, 1, NULL, NULL);
    if (PMIX_SUCCESS != rc && PMIX_OPERATION_SUCCEEDED != rc) {
        fprintf(stderr, "FAIL dbgd %u: release: %s\n", me.rank, PMIx_Error_string(rc));
        return 1;
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
