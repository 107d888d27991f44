/* The demo job: every rank puts a greeting and its pid, commits, and meets the others in a
 * fence that collects the data; rank 0 then reads every rank's values and prints them, and
 * (so that a tool can look at the running job) waits for a line on its stdin before the
 * final fence. Run by demo/run.sh under pmixrun, both on this library. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pmix.h>

static void check(const char *what, pmix_status_t rc)
{
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "demo job: %s: %s\n", what, PMIx_Error_string(rc));
        exit(1);
    }
}

int main(void)
{
    pmix_proc_t me, p;
    pmix_value_t v, *got;
    pmix_info_t collect;
    bool yes = true;
    char greeting[64];
    uint32_t size, r;

    check("init", PMIx_Init(&me, NULL, 0));
    PMIX_PROC_LOAD(&p, me.nspace, PMIX_RANK_WILDCARD);
    check("job size", PMIx_Get(&p, PMIX_JOB_SIZE, NULL, 0, &got));
    size = got->data.uint32;
    PMIX_VALUE_RELEASE(got);

    snprintf(greeting, sizeof(greeting), "hello from rank %u", me.rank);
    PMIX_VALUE_LOAD(&v, greeting, PMIX_STRING);
    check("put", PMIx_Put(PMIX_GLOBAL, "demo.greeting", &v));
    PMIX_VALUE_DESTRUCT(&v);
    pid_t pid = getpid();
    PMIX_VALUE_LOAD(&v, &pid, PMIX_PID);
    check("put", PMIx_Put(PMIX_GLOBAL, "demo.pid", &v));
    check("commit", PMIx_Commit());

    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    check("fence", PMIx_Fence(NULL, 0, &collect, 1));
    PMIX_INFO_DESTRUCT(&collect);

    if (me.rank == 0) {
        printf("job %s: %u ranks exchanged data through one fence\n", me.nspace, size);
        for (r = 0; r < size; r++) {
            pmix_value_t *g, *pv;
            PMIX_PROC_LOAD(&p, me.nspace, r);
            check("get greeting", PMIx_Get(&p, "demo.greeting", NULL, 0, &g));
            check("get pid", PMIx_Get(&p, "demo.pid", NULL, 0, &pv));
            printf("  rank %u (pid %d): %s\n", r, (int) pv->data.pid, g->data.string);
            PMIX_VALUE_RELEASE(g);
            PMIX_VALUE_RELEASE(pv);
        }
    }
    if (me.rank == 0) {
        char line[64];
        fflush(stdout);
        if (fgets(line, sizeof(line), stdin) == NULL) {
            /* end of input: go on all the same */
        }
    }
    check("fence", PMIx_Fence(NULL, 0, NULL, 0));
    check("finalize", PMIx_Finalize(NULL, 0));
    return 0;
}
