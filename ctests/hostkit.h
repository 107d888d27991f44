/* hostkit.h: the pieces every C test host on the public server API (pmix_server.h) needs
 * alike, shared by ctests/session/host.c, ctests/twonode/xhost.c and bench/bhost.c. Each host
 * keeps its own upcalls, launch and main loop; only what is the same in all of them is here.
 *
 * Two rules hold in every host and are what these helpers are for:
 *   1. never answer a library callback (the cbfunc given to an upcall) from inside the upcall:
 *      queue it with answer_op / answer_modex / answer_info / answer_lookup, and the answer
 *      thread calls it (a library may run other upcalls synchronously from inside a cbfunc,
 *      and the reference, OpenPMIx 4.2.2, mishandles some answers given from inside the
 *      upcall: a client's PMIx_Log then never returns). One answer thread also keeps the
 *      order of the answers the order of the requests.
 *   2. never hold the host's own lock while calling the library (a blocking call or a
 *      callback may come back into an upcall that takes that lock): take what is needed
 *      under the lock, release it, then call.
 *
 * What is here (all static: each program gets its own copy; unused ones cost nothing):
 *   now()                  CLOCK_MONOTONIC in seconds
 *   xcalloc(n, size)       calloc that never returns NULL: "<program>: out of memory", exit 1
 *   info_load()            PMIX_INFO_LOAD as a function
 *   cmp_proc()             qsort order of pmix_proc_t: namespace, then rank
 *   argv_len(a)            entries of a NULL-terminated string array (argv, environ); 0 for NULL
 *   waiter_t               waiting in the host's own thread for an op callback of the library:
 *     waiter_init(&w); PMIx_server_xxx(..., waiter_op_cb, &w); waiter_wait(&w)  (a void call)
 *     rc = waiter_result(&w, PMIx_server_xxx(..., waiter_op_cb, &w))  (a call that returns a
 *       status: waits only when the call returned PMIX_SUCCESS; PMIX_OPERATION_SUCCEEDED,
 *       done at once, counts as PMIX_SUCCESS). Either one destroys the waiter. Never from an
 *       upcall or the answer thread: the callback may need them to return first.
 *   the answer queue       answer_op, answer_modex, answer_info, answer_lookup queue the
 *                          answer to a callback (what they are given passes to the answer;
 *                          a NULL cbfunc drops it at once); answers_start() starts the answer
 *                          thread (0, or -1 if it could not), answers_finish() lets it deliver
 *                          what is queued, then stops and joins it.
 *   watchdog_signals(handler, timeout)  handler for SIGALRM, SIGTERM and SIGINT, SIGPIPE
 *                          ignored, the alarm set to `timeout` seconds
 *   child_signals_default()  in a forked child before exec (async-signal-safe): SIGPIPE back
 *                          to default (an ignored signal stays ignored across exec) and an
 *                          empty signal mask
 *
 * Include it after pmix.h and pmix_server.h, in a file that defines _GNU_SOURCE before its
 * first system header (program_invocation_short_name).
 */
#ifndef CTESTS_HOSTKIT_H
#define CTESTS_HOSTKIT_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
        exit(1);
    }
    return p;
}

static inline void info_load(pmix_info_t *info, const char *key, const void *data,
                             pmix_data_type_t type)
{
    PMIX_INFO_LOAD(info, key, data, type);
}

static inline int cmp_proc(const void *a, const void *b)
{
    const pmix_proc_t *x = a, *y = b;
    int c = strncmp(x->nspace, y->nspace, PMIX_MAX_NSLEN);
    if (c != 0) {
        return c;
    }
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static inline size_t argv_len(char **a)
{
    size_t n = 0;
    while (a != NULL && a[n] != NULL) {
        n++;
    }
    return n;
}

/* ---------------------------------------------------------------------------------------------
 * Blocking waits on library callbacks (the host's own threads only)
 * ------------------------------------------------------------------------------------------ */

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    bool done;
    pmix_status_t status;
} waiter_t;

static inline void waiter_init(waiter_t *w)
{
    pthread_mutex_init(&w->m, NULL);
    pthread_cond_init(&w->c, NULL);
    w->done = false;
    w->status = PMIX_ERROR;
}

static inline void waiter_op_cb(pmix_status_t status, void *cbdata)
{
    waiter_t *w = cbdata;
    pthread_mutex_lock(&w->m);
    w->status = status;
    w->done = true;
    pthread_cond_signal(&w->c);
    pthread_mutex_unlock(&w->m);
}

static inline pmix_status_t waiter_wait(waiter_t *w)
{
    pthread_mutex_lock(&w->m);
    while (!w->done) {
        pthread_cond_wait(&w->c, &w->m);
    }
    pthread_mutex_unlock(&w->m);
    pthread_mutex_destroy(&w->m);
    pthread_cond_destroy(&w->c);
    return w->status;
}

/* the result of a non-blocking server call made with waiter_op_cb, which returned `rc` */
static inline pmix_status_t waiter_result(waiter_t *w, pmix_status_t rc)
{
    if (rc == PMIX_SUCCESS) {
        return waiter_wait(w);
    }
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        rc = PMIX_SUCCESS;
    }
    pthread_mutex_destroy(&w->m);
    pthread_cond_destroy(&w->c);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Answers: every library callback passed to an upcall is called from the answer thread
 * ------------------------------------------------------------------------------------------ */

typedef enum { ANS_OP, ANS_MODEX, ANS_INFO, ANS_LOOKUP } ans_kind_t;

typedef struct answer {
    ans_kind_t kind;
    pmix_status_t status;
    union {
        pmix_op_cbfunc_t op;
        pmix_modex_cbfunc_t modex;
        pmix_info_cbfunc_t info;
        pmix_lookup_cbfunc_t lookup;
    } cb;
    void *cbdata;
    char *data;            /* ANS_MODEX: owned; freed by the library's release call */
    size_t ndata;
    pmix_info_t *info;     /* ANS_INFO: owned; freed by the library's release call */
    size_t ninfo;
    pmix_pdata_t *pd;      /* ANS_LOOKUP: owned; freed once answered */
    size_t npd, npd_alloc;
    struct answer *next;
} answer_t;

static pthread_mutex_t answer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t answer_cond = PTHREAD_COND_INITIALIZER;
static answer_t *answers, **answers_tail = &answers;
static bool answers_stop;
static pthread_t answer_tid;

static inline answer_t *answer_new(ans_kind_t kind, pmix_status_t status, void *cbdata)
{
    answer_t *a = xcalloc(1, sizeof(*a));
    a->kind = kind;
    a->status = status;
    a->cbdata = cbdata;
    return a;
}

static inline void answer_post(answer_t *a)
{
    pthread_mutex_lock(&answer_lock);
    *answers_tail = a;
    answers_tail = &a->next;
    pthread_cond_signal(&answer_cond);
    pthread_mutex_unlock(&answer_lock);
}

static inline void free_buffer(void *cbdata)
{
    free(cbdata);
}

static inline void free_infos(void *cbdata)
{
    answer_t *a = cbdata;
    PMIX_INFO_FREE(a->info, a->ninfo);
    free(a);
}

static inline void answer_op(pmix_op_cbfunc_t cbfunc, void *cbdata, pmix_status_t status)
{
    answer_t *a;
    if (cbfunc == NULL) {
        return;
    }
    a = answer_new(ANS_OP, status, cbdata);
    a->cb.op = cbfunc;
    answer_post(a);
}

/* `data` (malloc'ed or NULL) passes to the answer */
static inline void answer_modex(pmix_modex_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                                char *data, size_t ndata)
{
    answer_t *a;
    if (cbfunc == NULL) {
        free(data);
        return;
    }
    a = answer_new(ANS_MODEX, status, cbdata);
    a->cb.modex = cbfunc;
    a->data = data;
    a->ndata = ndata;
    answer_post(a);
}

/* `info` (PMIX_INFO_CREATE'd or NULL) passes to the answer */
static inline void answer_info(pmix_info_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                               pmix_info_t *info, size_t ninfo)
{
    answer_t *a;
    if (cbfunc == NULL) {
        if (info != NULL) {
            PMIX_INFO_FREE(info, ninfo);
        }
        return;
    }
    a = answer_new(ANS_INFO, status, cbdata);
    a->cb.info = cbfunc;
    a->info = info;
    a->ninfo = ninfo;
    answer_post(a);
}

/* `pd` (PMIX_PDATA_CREATE'd with `nalloc` entries, `n` of them filled, or NULL) passes to
 * the answer */
static inline void answer_lookup(pmix_lookup_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                                 pmix_pdata_t *pd, size_t n, size_t nalloc)
{
    answer_t *a;
    if (cbfunc == NULL) {
        if (pd != NULL) {
            PMIX_PDATA_FREE(pd, nalloc);
        }
        return;
    }
    a = answer_new(ANS_LOOKUP, status, cbdata);
    a->cb.lookup = cbfunc;
    a->pd = pd;
    a->npd = n;
    a->npd_alloc = nalloc;
    answer_post(a);
}

static inline void *answer_thread(void *arg)
{
    (void) arg;
    pthread_mutex_lock(&answer_lock);
    for (;;) {
        answer_t *a = answers;
        if (a == NULL) {
            if (answers_stop) {
                break;
            }
            pthread_cond_wait(&answer_cond, &answer_lock);
            continue;
        }
        answers = a->next;
        if (answers == NULL) {
            answers_tail = &answers;
        }
        pthread_mutex_unlock(&answer_lock);
        switch (a->kind) {
        case ANS_OP:
            a->cb.op(a->status, a->cbdata);
            free(a);
            break;
        case ANS_MODEX:
            a->cb.modex(a->status, a->data, a->ndata, a->cbdata, a->data ? free_buffer : NULL,
                        a->data);
            free(a);
            break;
        case ANS_INFO:
            if (a->info != NULL) {
                a->cb.info(a->status, a->info, a->ninfo, a->cbdata, free_infos, a);
            } else {
                a->cb.info(a->status, NULL, 0, a->cbdata, NULL, NULL);
                free(a);
            }
            break;
        case ANS_LOOKUP:
            a->cb.lookup(a->status, a->npd > 0 ? a->pd : NULL, a->npd, a->cbdata);
            if (a->pd != NULL) {
                PMIX_PDATA_FREE(a->pd, a->npd_alloc);
            }
            free(a);
            break;
        }
        pthread_mutex_lock(&answer_lock);
    }
    pthread_mutex_unlock(&answer_lock);
    return NULL;
}

/* 0, or -1 if the answer thread could not be started */
static inline int answers_start(void)
{
    return pthread_create(&answer_tid, NULL, answer_thread, NULL) == 0 ? 0 : -1;
}

/* let the answer thread deliver what is queued, then stop it */
static inline void answers_finish(void)
{
    pthread_mutex_lock(&answer_lock);
    answers_stop = true;
    pthread_cond_signal(&answer_cond);
    pthread_mutex_unlock(&answer_lock);
    pthread_join(answer_tid, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Signals
 * ------------------------------------------------------------------------------------------ */

static inline void watchdog_signals(void (*handler)(int), int timeout)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handler;
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    alarm((unsigned) timeout);
}

static inline void child_signals_default(void)
{
    struct sigaction dfl;
    sigset_t none;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

#endif
