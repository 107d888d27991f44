/*
 * pmix-rs devel headers: growable arrays of pointers with free-slot tracking.
 * Layout: pmix-internals/facts/layouts-containers.txt.
 */
#ifndef PMIX_POINTER_ARRAY_H
#define PMIX_POINTER_ARRAY_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

BEGIN_C_DECLS

typedef struct pmix_pointer_array_t {
    pmix_object_t super;
    int lowest_free;     /* lowest free index */
    int number_free;     /* free slots */
    int size;            /* slots allocated */
    int max_size;        /* limit on size */
    int block_size;      /* growth step */
    uint64_t *free_bits; /* one bit per slot, set when used */
    void **addr;
} pmix_pointer_array_t;

#define PMIX_POINTER_ARRAY_STATIC_INIT                \
    {                                                 \
        .super = PMIX_OBJ_STATIC_INIT(pmix_object_t), \
        .lowest_free = 0,                             \
        .number_free = 0,                             \
        .size = 0,                                    \
        .max_size = 0,                                \
        .block_size = 0,                              \
        .free_bits = NULL,                            \
        .addr = NULL                                  \
    }

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_pointer_array_t);

PMIX_EXPORT int pmix_pointer_array_init(pmix_pointer_array_t *array, int initial_allocation,
                                        int max_size, int block_size);
/* Stores PTR in the lowest free slot and returns its index (-1 when full). */
PMIX_EXPORT int pmix_pointer_array_add(pmix_pointer_array_t *array, void *ptr);
PMIX_EXPORT int pmix_pointer_array_set_item(pmix_pointer_array_t *array, int index, void *value);
PMIX_EXPORT int pmix_pointer_array_set_size(pmix_pointer_array_t *array, int size);

static inline void *pmix_pointer_array_get_item(pmix_pointer_array_t *table, int element_index)
{
    if (PMIX_UNLIKELY(element_index < 0 || element_index >= table->size)) {
        return NULL;
    }
    return table->addr[element_index];
}

static inline int pmix_pointer_array_get_size(pmix_pointer_array_t *array)
{
    return array->size;
}

END_C_DECLS

#endif /* PMIX_POINTER_ARRAY_H */
