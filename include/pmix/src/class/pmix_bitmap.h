/*
 * pmix-rs devel headers: growable bitmaps. Layout: pmix-internals/facts/layouts-containers.txt.
 */
#ifndef PMIX_BITMAP_H
#define PMIX_BITMAP_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

BEGIN_C_DECLS

typedef struct pmix_bitmap_t {
    pmix_object_t super;
    uint64_t *bitmap;
    int array_size; /* in uint64_t words */
    int max_size;   /* in bits; 0 is no limit */
} pmix_bitmap_t;

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_bitmap_t);

PMIX_EXPORT int pmix_bitmap_init(pmix_bitmap_t *bm, int size);
/* Sets BIT, growing the map if needed (PMIX_ERR_BAD_PARAM past max_size or below 0). */
PMIX_EXPORT int pmix_bitmap_set_bit(pmix_bitmap_t *bm, int bit);
PMIX_EXPORT int pmix_bitmap_clear_bit(pmix_bitmap_t *bm, int bit);
PMIX_EXPORT bool pmix_bitmap_is_set_bit(pmix_bitmap_t *bm, int bit);

/* The map's capacity in bits. */
static inline int pmix_bitmap_size(pmix_bitmap_t *bm)
{
    return NULL == bm ? 0 : bm->array_size * 64;
}

END_C_DECLS

#endif /* PMIX_BITMAP_H */
