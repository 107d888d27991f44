/*
 * pmix-rs devel headers: mutexes as objects (a pthread mutex after the object header).
 * Layout: pmix-internals/facts/layouts-threads.txt.
 */
#ifndef PMIX_MUTEX_H
#define PMIX_MUTEX_H 1

#include "src/include/pmix_config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "src/class/pmix_object.h"

BEGIN_C_DECLS

typedef struct pmix_mutex_t {
    pmix_object_t super;
    pthread_mutex_t m_lock_pthread;
} pmix_mutex_t;
typedef pmix_mutex_t pmix_recursive_mutex_t;

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_mutex_t);

#define PMIX_MUTEX_STATIC_INIT                       \
    {                                                \
        .super = PMIX_OBJ_STATIC_INIT(pmix_mutex_t), \
        .m_lock_pthread = PTHREAD_MUTEX_INITIALIZER, \
    }

#if defined(PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP)
#    define PMIX_RECURSIVE_MUTEX_STATIC_INIT                          \
        {                                                             \
            .super = PMIX_OBJ_STATIC_INIT(pmix_mutex_t),              \
            .m_lock_pthread = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP, \
        }
#endif

static inline int pmix_mutex_trylock(pmix_mutex_t *m)
{
    return pthread_mutex_trylock(&m->m_lock_pthread);
}

static inline void pmix_mutex_lock(pmix_mutex_t *m)
{
    pthread_mutex_lock(&m->m_lock_pthread);
}

static inline void pmix_mutex_unlock(pmix_mutex_t *m)
{
    pthread_mutex_unlock(&m->m_lock_pthread);
}

static inline int pmix_mutex_atomic_trylock(pmix_mutex_t *m)
{
    return pmix_mutex_trylock(m);
}

static inline void pmix_mutex_atomic_lock(pmix_mutex_t *m)
{
    pmix_mutex_lock(m);
}

static inline void pmix_mutex_atomic_unlock(pmix_mutex_t *m)
{
    pmix_mutex_unlock(m);
}

END_C_DECLS

#endif /* PMIX_MUTEX_H */
