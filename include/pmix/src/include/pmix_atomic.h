/*
 * pmix-rs devel headers: memory barriers (the part of OpenPMIx's atomics PRRTE uses, through
 * PMIX_POST_OBJECT and PMIX_ACQUIRE_OBJECT), on the compiler's builtins.
 */
#ifndef PMIX_ATOMIC_H
#define PMIX_ATOMIC_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

static inline void pmix_atomic_mb(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void pmix_atomic_rmb(void)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline void pmix_atomic_wmb(void)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

END_C_DECLS

#endif /* PMIX_ATOMIC_H */
