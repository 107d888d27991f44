/*
 * pmix-rs devel headers: arrays of fixed-size values, as libpmix keeps an MCA variable
 * group's members (pmix_mca_base_var_group_t). Read-only here: libpmix exports no function
 * of this family. Layout: pmix-internals/facts/layouts-mcavar.txt.
 */
#ifndef PMIX_VALUE_ARRAY_H
#define PMIX_VALUE_ARRAY_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

BEGIN_C_DECLS

typedef struct pmix_value_array_t {
    pmix_object_t super;
    unsigned char *array_items;
    size_t array_item_sizeof;
    size_t array_size;
    size_t array_alloc_size;
} pmix_value_array_t;

static inline size_t pmix_value_array_get_size(pmix_value_array_t *array)
{
    return array->array_size;
}

static inline void *pmix_value_array_get_item(pmix_value_array_t *array, size_t item_index)
{
    return item_index < array->array_size
               ? array->array_items + item_index * array->array_item_sizeof
               : NULL;
}

#define PMIX_VALUE_ARRAY_GET_BASE(array, item_type) ((item_type *) ((array)->array_items))
#define PMIX_VALUE_ARRAY_GET_ITEM(array, item_type, item_index) \
    ((item_type *) ((array)->array_items))[item_index]

END_C_DECLS

#endif /* PMIX_VALUE_ARRAY_H */
