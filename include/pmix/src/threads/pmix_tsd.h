/*
 * pmix-rs devel headers: thread-specific data, on pthread keys.
 */
#ifndef PMIX_THREADS_TSD_H
#define PMIX_THREADS_TSD_H

#include "src/include/pmix_config.h"

#include <pthread.h>

BEGIN_C_DECLS

typedef void (*pmix_tsd_destructor_t)(void *value);
typedef pthread_key_t pmix_tsd_key_t;

static inline int pmix_tsd_key_delete(pmix_tsd_key_t key)
{
    return pthread_key_delete(key);
}

static inline int pmix_tsd_setspecific(pmix_tsd_key_t key, void *value)
{
    return pthread_setspecific(key, value);
}

static inline int pmix_tsd_getspecific(pmix_tsd_key_t key, void **valuep)
{
    *valuep = pthread_getspecific(key);
    return PMIX_SUCCESS;
}

/* Creates a key; libpmix remembers it (and DESTRUCTOR) for the life of the process. */
PMIX_EXPORT int pmix_tsd_key_create(pmix_tsd_key_t *key, pmix_tsd_destructor_t destructor);

END_C_DECLS

#endif /* PMIX_THREADS_TSD_H */
