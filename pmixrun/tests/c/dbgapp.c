/* A debugger's target for pmixrun's debugger tests (pmixrun/tests/debugger.rs).
 *
 * usage: dbgapp DIR CODE [wait]
 *   PMIx_Init (where a process launched with PMIX_DEBUG_STOP_IN_INIT waits for the
 *   debugger's release), then write DIR/init.<nspace>.<rank>; print its PMIX_PSET_NAMES
 *   ("dbgapp NSPACE:RANK psets: A B") if it has any; with "wait", wait for a
 *   PMIX_DEBUGGER_RELEASE event (from a debugger daemon); fence; finalize; rank 1 exits
 *   with CODE, the others with 0. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int released;

static void on_release(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) status; (void) source; (void) info; (void) ninfo; (void) results;
    (void) nresults;
    pthread_mutex_lock(&mu);
    released = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_status_t rc, code = PMIX_DEBUGGER_RELEASE;
    char path[4096];
    FILE *f;

    if (argc < 3) {
        fprintf(stderr, "usage: dbgapp DIR CODE [wait]\n");
        return 2;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "FAIL PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    snprintf(path, sizeof path, "%s/init.%s.%u", argv[1], me.nspace, me.rank);
    f = fopen(path, "w");
    if (NULL == f) {
        fprintf(stderr, "FAIL cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "%d\n", (int) getpid());
    fclose(f);
    /* The process sets this process belongs to (pmixrun --pset). */
    {
        pmix_value_t *v = NULL;
        size_t k;
        if (PMIX_SUCCESS == PMIx_Get(&me, PMIX_PSET_NAMES, NULL, 0, &v) && NULL != v) {
            if (PMIX_DATA_ARRAY == v->type && PMIX_STRING == v->data.darray->type) {
                char **names = (char **) v->data.darray->array;
                printf("dbgapp %s:%u psets:", me.nspace, me.rank);
                for (k = 0; k < v->data.darray->size; k++) {
                    printf(" %s", names[k]);
                }
                printf("\n");
                fflush(stdout);
            }
            PMIX_VALUE_RELEASE(v);
        }
    }
    if (argc > 3 && 0 == strcmp(argv[3], "wait")) {
        rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_release, NULL, NULL);
        if (rc < 0) {
            fprintf(stderr, "FAIL register: %s\n", PMIx_Error_string(rc));
            return 1;
        }
        /* Tell the test this process is ready for its daemon. */
        snprintf(path, sizeof path, "%s/ready.%s.%u", argv[1], me.nspace, me.rank);
        f = fopen(path, "w");
        if (NULL != f) {
            fclose(f);
        }
        pthread_mutex_lock(&mu);
        while (!released) {
            pthread_cond_wait(&cv, &mu);
        }
        pthread_mutex_unlock(&mu);
        printf("dbgapp %s:%u released\n", me.nspace, me.rank);
        fflush(stdout);
    }
    /* Every rank has passed PMIx_Init (and written its mark) before rank 1 fails. */
    if (PMIX_SUCCESS != (rc = PMIx_Fence(NULL, 0, NULL, 0))) {
        fprintf(stderr, "FAIL fence: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIx_Finalize(NULL, 0);
    return 1 == me.rank ? atoi(argv[2]) : 0;
}
