/*
 * pmix-rs devel headers: threads as objects, and the lock-and-condition pair (pmix_lock_t)
 * with which one thread waits for another to finish a piece of work.
 * Layouts: pmix-internals/facts/layouts-threads.txt.
 */
#ifndef PMIX_THREAD_H
#define PMIX_THREAD_H 1

#include "src/include/pmix_config.h"

#include <pthread.h>
#include <signal.h>

#include "src/class/pmix_object.h"
#include "src/include/pmix_atomic.h"
#include "src/threads/pmix_mutex.h"

BEGIN_C_DECLS

typedef void *(*pmix_thread_fn_t)(pmix_object_t *);

#define PMIX_THREAD_CANCELLED ((void *) 1);

typedef struct pmix_thread_t {
    pmix_object_t super;
    pmix_thread_fn_t t_run;  /* called with the thread object itself */
    void *t_arg;
    pthread_t t_handle;
} pmix_thread_t;

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_thread_t);

typedef pthread_cond_t pmix_condition_t;
#define pmix_condition_wait(a, b)   pthread_cond_wait(a, &(b)->m_lock_pthread)
#define pmix_condition_broadcast(a) pthread_cond_broadcast(a)
#define pmix_condition_signal(a)    pthread_cond_signal(a)
#define PMIX_CONDITION_STATIC_INIT  PTHREAD_COND_INITIALIZER

typedef struct {
    pmix_status_t status;
    pmix_mutex_t mutex;
    pmix_condition_t cond;
    volatile bool active;
} pmix_lock_t;

#define PMIX_LOCK_STATIC_INIT               \
    {                                       \
        .status = PMIX_SUCCESS,             \
        .mutex = PMIX_MUTEX_STATIC_INIT,    \
        .cond = PMIX_CONDITION_STATIC_INIT, \
        .active = false                     \
    }

/* Publish writes before another thread reads them, and the other way round. */
#define PMIX_POST_OBJECT(o)    pmix_atomic_wmb()
#define PMIX_ACQUIRE_OBJECT(o) pmix_atomic_rmb()

/* A constructed lock is active: PMIX_WAIT_THREAD blocks until PMIX_WAKEUP_THREAD. */
#define PMIX_CONSTRUCT_LOCK(l)                     \
    do {                                           \
        PMIX_CONSTRUCT(&(l)->mutex, pmix_mutex_t); \
        pthread_cond_init(&(l)->cond, NULL);       \
        (l)->active = true;                        \
    } while (0)

#define PMIX_DESTRUCT_LOCK(l)             \
    do {                                  \
        PMIX_DESTRUCT(&(l)->mutex);       \
        pthread_cond_destroy(&(l)->cond); \
    } while (0)

/* Takes the lock's mutex and waits, holding it, until the lock is inactive. */
#define PMIX_LOCK_WAIT_INACTIVE_(lck)                         \
    pmix_mutex_lock(&(lck)->mutex);                           \
    while ((lck)->active) {                                   \
        pmix_condition_wait(&(lck)->cond, &(lck)->mutex);     \
    }                                                         \
    PMIX_ACQUIRE_OBJECT(lck)

/* Waits until the lock is inactive, then takes it (active again, mutex held). */
#define PMIX_ACQUIRE_THREAD(lck)          \
    do {                                  \
        PMIX_LOCK_WAIT_INACTIVE_(lck);    \
        (lck)->active = true;             \
    } while (0)

/* Waits until the lock is inactive. */
#define PMIX_WAIT_THREAD(lck)                 \
    do {                                      \
        PMIX_LOCK_WAIT_INACTIVE_(lck);        \
        pmix_mutex_unlock(&(lck)->mutex);     \
    } while (0)

/* Gives back a lock taken with PMIX_ACQUIRE_THREAD. */
#define PMIX_RELEASE_THREAD(lck)                \
    do {                                        \
        (lck)->active = false;                  \
        PMIX_POST_OBJECT(lck);                  \
        pmix_condition_broadcast(&(lck)->cond); \
        pmix_mutex_unlock(&(lck)->mutex);       \
    } while (0)

/* Marks the lock inactive and wakes its waiters. */
#define PMIX_WAKEUP_THREAD(lck)             \
    do {                                    \
        pmix_mutex_lock(&(lck)->mutex);     \
        PMIX_RELEASE_THREAD(lck);           \
    } while (0)

/* Starts T->t_run(T) on a new thread; PMIX_ERR_BAD_PARAM without t_run. */
PMIX_EXPORT int pmix_thread_start(pmix_thread_t *t);
/* Joins a thread started with pmix_thread_start. */
PMIX_EXPORT int pmix_thread_join(pmix_thread_t *t, void **thread_return);

END_C_DECLS

#endif /* PMIX_THREAD_H */
