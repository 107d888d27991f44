/*
 * pmix-rs devel headers: doubly linked lists of objects.
 *
 * A list embeds a sentinel item: an empty list's sentinel points at itself both ways. Items
 * are objects derived from pmix_list_item_t; a list does not hold references of its own
 * (PMIX_LIST_DESTRUCT and PMIX_LIST_RELEASE release what is still on it). Layouts:
 * pmix-internals/facts/layouts-object.txt.
 */
#ifndef PMIX_LIST_H
#define PMIX_LIST_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

BEGIN_C_DECLS

struct pmix_list_t;

typedef struct pmix_list_item_t {
    pmix_object_t super;
    volatile struct pmix_list_item_t *pmix_list_next;
    volatile struct pmix_list_item_t *pmix_list_prev;
    int32_t item_free;
} pmix_list_item_t;

typedef struct pmix_list_t {
    pmix_object_t super;
    pmix_list_item_t pmix_list_sentinel;
    volatile size_t pmix_list_length;
} pmix_list_t;

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_list_t);
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_list_item_t);

#define PMIX_LIST_ITEM_STATIC_INIT                    \
    {                                                 \
        .super = PMIX_OBJ_STATIC_INIT(pmix_object_t), \
        .pmix_list_next = NULL,                       \
        .pmix_list_prev = NULL,                       \
        .item_free = 0                                \
    }

/* A static list still needs PMIX_CONSTRUCT (or a first append through the class's
 * constructor) before use, as with OpenPMIx: the sentinel's links start out NULL. */
#define PMIX_LIST_STATIC_INIT                                \
    {                                                        \
        .super = PMIX_OBJ_STATIC_INIT(pmix_object_t),        \
        .pmix_list_sentinel = PMIX_LIST_ITEM_STATIC_INIT,    \
        .pmix_list_length = 0                                \
    }

#define pmix_list_get_next(item) \
    ((item) ? ((pmix_list_item_t *) ((pmix_list_item_t *) (item))->pmix_list_next) : NULL)
#define pmix_list_get_prev(item) \
    ((item) ? ((pmix_list_item_t *) ((pmix_list_item_t *) (item))->pmix_list_prev) : NULL)

#define PMIX_LIST_FOREACH(item, list, type)                         \
    for (item = (type *) (list)->pmix_list_sentinel.pmix_list_next; \
         item != (type *) &(list)->pmix_list_sentinel;              \
         item = (type *) ((pmix_list_item_t *) (item))->pmix_list_next)

#define PMIX_LIST_FOREACH_DECL(item, list, type)                          \
    for (type *item = (type *) (list)->pmix_list_sentinel.pmix_list_next; \
         item != (type *) &(list)->pmix_list_sentinel;                    \
         item = (type *) ((pmix_list_item_t *) (item))->pmix_list_next)

#define PMIX_LIST_FOREACH_REV(item, list, type)                     \
    for (item = (type *) (list)->pmix_list_sentinel.pmix_list_prev; \
         item != (type *) &(list)->pmix_list_sentinel;              \
         item = (type *) ((pmix_list_item_t *) (item))->pmix_list_prev)

/* Iteration that survives removing ITEM from the list. */
#define PMIX_LIST_FOREACH_SAFE(item, next, list, type)                  \
    for (item = (type *) (list)->pmix_list_sentinel.pmix_list_next,     \
        next = (type *) ((pmix_list_item_t *) (item))->pmix_list_next;  \
         item != (type *) &(list)->pmix_list_sentinel;                  \
         item = next, next = (type *) ((pmix_list_item_t *) (item))->pmix_list_next)

#define PMIX_LIST_FOREACH_SAFE_REV(item, prev, list, type)              \
    for (item = (type *) (list)->pmix_list_sentinel.pmix_list_prev,     \
        prev = (type *) ((pmix_list_item_t *) (item))->pmix_list_prev;  \
         item != (type *) &(list)->pmix_list_sentinel;                  \
         item = prev, prev = (type *) ((pmix_list_item_t *) (item))->pmix_list_prev)

static inline bool pmix_list_is_empty(pmix_list_t *list)
{
    return list->pmix_list_sentinel.pmix_list_next == &list->pmix_list_sentinel;
}

static inline pmix_list_item_t *pmix_list_get_first(pmix_list_t *list)
{
    return (pmix_list_item_t *) list->pmix_list_sentinel.pmix_list_next;
}

static inline pmix_list_item_t *pmix_list_get_last(pmix_list_t *list)
{
    return (pmix_list_item_t *) list->pmix_list_sentinel.pmix_list_prev;
}

static inline pmix_list_item_t *pmix_list_get_begin(pmix_list_t *list)
{
    return &list->pmix_list_sentinel;
}

static inline pmix_list_item_t *pmix_list_get_end(pmix_list_t *list)
{
    return &list->pmix_list_sentinel;
}

static inline size_t pmix_list_get_size(pmix_list_t *list)
{
    return list->pmix_list_length;
}

/* Unlinks ITEM (which must be on LIST); returns the item that preceded it. */
static inline pmix_list_item_t *pmix_list_remove_item(pmix_list_t *list, pmix_list_item_t *item)
{
    item->pmix_list_prev->pmix_list_next = item->pmix_list_next;
    item->pmix_list_next->pmix_list_prev = item->pmix_list_prev;
    list->pmix_list_length--;
    return (pmix_list_item_t *) item->pmix_list_prev;
}

static inline void pmix_list_append(pmix_list_t *list, pmix_list_item_t *item)
{
    pmix_list_item_t *sentinel = &list->pmix_list_sentinel;
    item->pmix_list_prev = sentinel->pmix_list_prev;
    sentinel->pmix_list_prev->pmix_list_next = item;
    item->pmix_list_next = sentinel;
    sentinel->pmix_list_prev = item;
    list->pmix_list_length++;
}

static inline void pmix_list_prepend(pmix_list_t *list, pmix_list_item_t *item)
{
    pmix_list_item_t *sentinel = &list->pmix_list_sentinel;
    item->pmix_list_next = sentinel->pmix_list_next;
    item->pmix_list_prev = sentinel;
    sentinel->pmix_list_next->pmix_list_prev = item;
    sentinel->pmix_list_next = item;
    list->pmix_list_length++;
}

/* Takes the first item off the list (NULL if empty); the caller owns it. */
static inline pmix_list_item_t *pmix_list_remove_first(pmix_list_t *list)
{
    volatile pmix_list_item_t *item;
    if (0 == list->pmix_list_length) {
        return NULL;
    }
    list->pmix_list_length--;
    item = list->pmix_list_sentinel.pmix_list_next;
    item->pmix_list_next->pmix_list_prev = item->pmix_list_prev;
    list->pmix_list_sentinel.pmix_list_next = item->pmix_list_next;
    item->pmix_list_prev = NULL;
    item->pmix_list_next = NULL;
    return (pmix_list_item_t *) item;
}

/* Takes the last item off the list (NULL if empty); the caller owns it. */
static inline pmix_list_item_t *pmix_list_remove_last(pmix_list_t *list)
{
    volatile pmix_list_item_t *item;
    if (0 == list->pmix_list_length) {
        return NULL;
    }
    list->pmix_list_length--;
    item = list->pmix_list_sentinel.pmix_list_prev;
    item->pmix_list_prev->pmix_list_next = item->pmix_list_next;
    list->pmix_list_sentinel.pmix_list_prev = item->pmix_list_prev;
    item->pmix_list_next = NULL;
    item->pmix_list_prev = NULL;
    return (pmix_list_item_t *) item;
}

/* Puts ITEM before POS (an item of LIST, or its end). */
static inline void pmix_list_insert_pos(pmix_list_t *list, pmix_list_item_t *pos,
                                        pmix_list_item_t *item)
{
    item->pmix_list_next = pos;
    item->pmix_list_prev = pos->pmix_list_prev;
    pos->pmix_list_prev->pmix_list_next = item;
    pos->pmix_list_prev = item;
    list->pmix_list_length++;
}

#define PMIX_LIST_DESTRUCT(list)                                   \
    do {                                                           \
        pmix_list_item_t *pmix_ld_it_;                             \
        while (NULL != (pmix_ld_it_ = pmix_list_remove_first(list))) { \
            PMIX_RELEASE(pmix_ld_it_);                             \
        }                                                          \
        PMIX_DESTRUCT(list);                                       \
    } while (0)

#define PMIX_LIST_RELEASE(list)                                    \
    do {                                                           \
        pmix_list_item_t *pmix_lr_it_;                             \
        while (NULL != (pmix_lr_it_ = pmix_list_remove_first(list))) { \
            PMIX_RELEASE(pmix_lr_it_);                             \
        }                                                          \
        PMIX_RELEASE(list);                                        \
    } while (0)

END_C_DECLS

#endif /* PMIX_LIST_H */
