/*
 * pmix-rs devel headers: open-addressing hash tables (the pointer-key flavour PRRTE uses).
 * Layout: pmix-internals/facts/layouts-containers.txt.
 */
#ifndef PMIX_HASH_TABLE_H
#define PMIX_HASH_TABLE_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

BEGIN_C_DECLS

struct pmix_hash_element_t;
struct pmix_hash_type_methods_t;

typedef struct pmix_hash_table_t {
    pmix_object_t super;
    const char *ht_label;
    struct pmix_hash_element_t *ht_table;
    size_t ht_capacity;
    size_t ht_size;
    size_t ht_growth_trigger;
    int ht_density_numer, ht_density_denom;
    int ht_growth_numer, ht_growth_denom;
    const struct pmix_hash_type_methods_t *ht_type_methods;
} pmix_hash_table_t;

#define PMIX_HASH_TABLE_STATIC_INIT                   \
    {                                                 \
        .super = PMIX_OBJ_STATIC_INIT(pmix_object_t), \
        .ht_label = NULL,                             \
        .ht_table = NULL,                             \
        .ht_capacity = 0,                             \
        .ht_size = 0,                                 \
        .ht_growth_trigger = 0,                       \
        .ht_density_numer = 0,                        \
        .ht_density_denom = 0,                        \
        .ht_growth_numer = 0,                         \
        .ht_growth_denom = 0,                         \
        .ht_type_methods = NULL                       \
    }

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_hash_table_t);

PMIX_EXPORT int pmix_hash_table_init(pmix_hash_table_t *ht, size_t table_size);

static inline size_t pmix_hash_table_get_size(pmix_hash_table_t *ht)
{
    return ht->ht_size;
}

/* Keys are KEYLEN bytes at KEY, copied into the table. */
PMIX_EXPORT int pmix_hash_table_get_value_ptr(pmix_hash_table_t *table, const void *key,
                                              size_t keylen, void **ptr);
PMIX_EXPORT int pmix_hash_table_set_value_ptr(pmix_hash_table_t *table, const void *key,
                                              size_t keylen, void *value);
/* Iteration: IN_NODE NULL starts at the first entry; PMIX_ERROR after the last. */
PMIX_EXPORT int pmix_hash_table_get_next_key_ptr(pmix_hash_table_t *table, void **key,
                                                 size_t *key_size, void **value, void *in_node,
                                                 void **out_node);

END_C_DECLS

#endif /* PMIX_HASH_TABLE_H */
