/* A singleton (PMIx_Init without a server) answers the non-blocking fence and get through
 * their callbacks, called once, from another thread, never from inside the call (the caller
 * holds a lock around the call that the callback takes). Ours only: the reference 4.2.2
 * answers PMIx_Fence_nb with PMIX_ERR_UNREACH and no callback while its PMIx_Fence succeeds;
 * ompi#13660 and openpmix#3761 are callers left waiting for a fence's callback. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

static pthread_mutex_t caller_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int calls, inside;
static pthread_t caller;

/* Waits until the caller has returned from the call (it holds caller_lock around the call
 * and its report of the call); inside the call, on the caller's thread, this deadlocks. */
static void after_the_call(void)
{
    if (pthread_equal(pthread_self(), caller)) {
        inside++;
    }
    pthread_mutex_lock(&caller_lock);
    pthread_mutex_unlock(&caller_lock);
}

static void count_call(void)
{
    pthread_mutex_lock(&lock);
    calls++;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

static void op_cb(pmix_status_t status, void *cbdata)
{
    after_the_call();
    printf("%s callback: %s\n", (const char *) cbdata, PMIx_Error_string(status));
    count_call();
}

static void value_cb(pmix_status_t status, pmix_value_t *v, void *cbdata)
{
    after_the_call();
    printf("%s callback: %s, %s\n", (const char *) cbdata, PMIx_Error_string(status),
           v != NULL && v->type == PMIX_UINT32 ? "a uint32" : "no uint32");
    count_call();
}

static void wait_calls(int n)
{
    int i;
    for (i = 0; i < 500; i++) {
        pthread_mutex_lock(&lock);
        if (calls >= n) {
            pthread_mutex_unlock(&lock);
            return;
        }
        pthread_mutex_unlock(&lock);
        usleep(10000);
    }
}

int main(void)
{
    pmix_proc_t me, wild;
    pmix_status_t rc;
    setvbuf(stdout, NULL, _IONBF, 0);
    caller = pthread_self();
    printf("init: %s\n", PMIx_Error_string(PMIx_Init(&me, NULL, 0)));
    pthread_mutex_lock(&caller_lock);
    rc = PMIx_Fence_nb(NULL, 0, NULL, 0, op_cb, "fence_nb");
    printf("fence_nb: %s\n", PMIx_Error_string(rc));
    pthread_mutex_unlock(&caller_lock);
    wait_calls(1);
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    pthread_mutex_lock(&caller_lock);
    rc = PMIx_Get_nb(&wild, PMIX_JOB_SIZE, NULL, 0, value_cb, "get_nb");
    printf("get_nb: %s\n", PMIx_Error_string(rc));
    pthread_mutex_unlock(&caller_lock);
    wait_calls(2);
    printf("callbacks: %d, from inside the call: %d\n", calls, inside);
    usleep(100000);
    printf("callbacks after 100 ms: %d\n", calls);
    printf("finalize: %s\n", PMIx_Error_string(PMIx_Finalize(NULL, 0)));
    return 0;
}
