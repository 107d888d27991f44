/*
 * pmix-rs devel headers: the object system (classes, reference counts, construction).
 *
 * Objects are C structs whose first member is a pmix_object_t (or a struct that starts with
 * one). A class descriptor names its parent, constructor, destructor and size; libpmix builds
 * its constructor and destructor arrays on first use (pmix_class_initialize) and the inline
 * code below walks them. Layouts are OpenPMIx 5.0.11's non-debug ones
 * (pmix-internals/facts/layouts-object.txt); the reference count is updated under the
 * object's own mutex, as libpmix does on its side.
 */
#ifndef PMIX_OBJECT_H
#define PMIX_OBJECT_H

#include "src/include/pmix_config.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

BEGIN_C_DECLS

typedef struct pmix_object_t pmix_object_t;
typedef struct pmix_class_t pmix_class_t;
typedef void (*pmix_construct_t)(pmix_object_t *);
typedef void (*pmix_destruct_t)(pmix_object_t *);

/* An allocator an object may carry; NULL members mean the C library's. */
typedef struct pmix_tma {
    void *(*tma_malloc)(struct pmix_tma *, size_t);
    void *(*tma_calloc)(struct pmix_tma *, size_t, size_t);
    void *(*tma_realloc)(struct pmix_tma *, void *, size_t);
    char *(*tma_strdup)(struct pmix_tma *, const char *s);
    void *(*tma_memmove)(struct pmix_tma *tma, const void *src, size_t n);
    void (*tma_free)(struct pmix_tma *, void *);
    void *data_context;
    void **data_ptr;
} pmix_tma_t;

static inline void *pmix_tma_malloc(pmix_tma_t *tma, size_t size)
{
    return (NULL != tma && NULL != tma->tma_malloc) ? tma->tma_malloc(tma, size) : malloc(size);
}

static inline void pmix_tma_free(pmix_tma_t *tma, void *ptr)
{
    if (NULL != tma && NULL != tma->tma_free) {
        tma->tma_free(tma, ptr);
    } else {
        free(ptr);
    }
}

struct pmix_class_t {
    const char *cls_name;
    pmix_class_t *cls_parent;
    pmix_construct_t cls_construct;
    pmix_destruct_t cls_destruct;
    int cls_initialized;               /* equal to pmix_class_init_epoch once built */
    int cls_depth;
    pmix_construct_t *cls_construct_array;  /* root first, NULL-terminated */
    pmix_destruct_t *cls_destruct_array;    /* leaf first, NULL-terminated */
    size_t cls_sizeof;
};

struct pmix_object_t {
    pthread_mutex_t obj_lock;
    pmix_class_t *obj_class;
    int32_t obj_reference_count;
    pmix_tma_t obj_tma;
};

PMIX_EXPORT extern int pmix_class_init_epoch;

/* Builds a class's constructor and destructor arrays (and its parents'). */
PMIX_EXPORT void pmix_class_initialize(pmix_class_t *cls);

#define PMIX_CLASS(NAME) (&(NAME##_class))

#define PMIX_CLASS_DECLARATION(NAME) extern pmix_class_t NAME##_class

#define PMIX_CLASS_INSTANCE(NAME, PARENT, CONSTRUCTOR, DESTRUCTOR) \
    pmix_class_t NAME##_class = {#NAME,                            \
                                 PMIX_CLASS(PARENT),               \
                                 (pmix_construct_t) (CONSTRUCTOR), \
                                 (pmix_destruct_t) (DESTRUCTOR),   \
                                 0,                                \
                                 0,                                \
                                 NULL,                             \
                                 NULL,                             \
                                 sizeof(NAME)}

PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_object_t);

/* A statically initialized object of class BASE_CLASS, with one reference. */
#define PMIX_OBJ_STATIC_INIT(BASE_CLASS)       \
    {                                          \
        .obj_lock = PTHREAD_MUTEX_INITIALIZER, \
        .obj_class = PMIX_CLASS(BASE_CLASS),   \
        .obj_reference_count = 1,              \
        .obj_tma = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL} \
    }

static inline void pmix_obj_run_constructors(pmix_object_t *object)
{
    pmix_construct_t *c;
    for (c = object->obj_class->cls_construct_array; NULL != *c; c++) {
        (*c)(object);
    }
}

static inline void pmix_obj_run_destructors(pmix_object_t *object)
{
    pmix_destruct_t *d;
    for (d = object->obj_class->cls_destruct_array; NULL != *d; d++) {
        (*d)(object);
    }
}

static inline void pmix_obj_set_tma(pmix_object_t *obj, pmix_tma_t *tma)
{
    if (NULL != tma) {
        obj->obj_tma = *tma;
    } else {
        pmix_tma_t none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
        obj->obj_tma = none;
    }
}

static inline pmix_tma_t *pmix_obj_get_tma(pmix_object_t *obj)
{
    return NULL != obj->obj_tma.tma_malloc ? &obj->obj_tma : NULL;
}

/* Allocates (with TMA if given) and constructs an object of class CLS. */
static inline pmix_object_t *pmix_obj_new_tma(pmix_class_t *cls, pmix_tma_t *tma)
{
    pmix_object_t *object = (pmix_object_t *) pmix_tma_malloc(tma, cls->cls_sizeof);
    if (pmix_class_init_epoch != cls->cls_initialized) {
        pmix_class_initialize(cls);
    }
    if (NULL != object) {
        pthread_mutex_init(&object->obj_lock, NULL);
        object->obj_class = cls;
        object->obj_reference_count = 1;
        pmix_obj_set_tma(object, tma);
        pmix_obj_run_constructors(object);
    }
    return object;
}

/* Adds INC to the reference count under the object's lock; returns the new count. */
static inline int pmix_obj_update(pmix_object_t *object, int inc)
{
    int count;
    int rc = pthread_mutex_lock(&object->obj_lock);
    if (EDEADLK == rc) {
        errno = rc;
        perror("pthread_mutex_lock()");
        abort();
    }
    count = (object->obj_reference_count += inc);
    pthread_mutex_unlock(&object->obj_lock);
    return count;
}

/* PMIX_NEW(type) or PMIX_NEW(type, tma); PMIX_CONSTRUCT(obj, type) or (obj, type, tma). */
#define PMIX_OBJ_PICK3_(a, b, c, name, ...) name
#define PMIX_NEW_1_(type)       ((type *) pmix_obj_new_tma(PMIX_CLASS(type), NULL))
#define PMIX_NEW_2_(type, tma)  ((type *) pmix_obj_new_tma(PMIX_CLASS(type), (tma)))
#define PMIX_NEW(...) PMIX_OBJ_PICK3_(__VA_ARGS__, ~, PMIX_NEW_2_, PMIX_NEW_1_, ~)(__VA_ARGS__)
#define PMIX_NEW_NO_TMA(type)   PMIX_NEW_1_(type)
#define PMIX_NEW_TMA(type, tma) PMIX_NEW_2_(type, tma)

#define PMIX_CONSTRUCT_INTERNAL_TMA(object, cls, tma)                      \
    do {                                                                   \
        if (pmix_class_init_epoch != (cls)->cls_initialized) {             \
            pmix_class_initialize((cls));                                  \
        }                                                                  \
        pthread_mutex_init(&((pmix_object_t *) (object))->obj_lock, NULL); \
        ((pmix_object_t *) (object))->obj_class = (cls);                   \
        ((pmix_object_t *) (object))->obj_reference_count = 1;             \
        pmix_obj_set_tma((pmix_object_t *) (object), (tma));               \
        pmix_obj_run_constructors((pmix_object_t *) (object));             \
    } while (0)
#define PMIX_CONSTRUCT_2_(object, type) PMIX_CONSTRUCT_INTERNAL_TMA((object), PMIX_CLASS(type), NULL)
#define PMIX_CONSTRUCT_3_(object, type, tma) \
    PMIX_CONSTRUCT_INTERNAL_TMA((object), PMIX_CLASS(type), (tma))
#define PMIX_CONSTRUCT(...) \
    PMIX_OBJ_PICK3_(__VA_ARGS__, PMIX_CONSTRUCT_3_, PMIX_CONSTRUCT_2_, ~, ~)(__VA_ARGS__)
#define PMIX_CONSTRUCT_NO_TMA(object, type)  PMIX_CONSTRUCT_2_(object, type)
#define PMIX_CONSTRUCT_TMA(object, type, tma) PMIX_CONSTRUCT_3_(object, type, tma)

#define PMIX_DESTRUCT(object) pmix_obj_run_destructors((pmix_object_t *) (object))

#define PMIX_RETAIN(object) pmix_obj_update((pmix_object_t *) (object), 1)

/* Drops a reference; the last one destructs and frees the object and sets OBJECT to NULL. */
#define PMIX_RELEASE(object)                                   \
    do {                                                       \
        pmix_object_t *pmix_rel_obj_ = (pmix_object_t *) (object); \
        if (0 == pmix_obj_update(pmix_rel_obj_, -1)) {         \
            pmix_obj_run_destructors(pmix_rel_obj_);           \
            pmix_tma_free(pmix_obj_get_tma(pmix_rel_obj_), pmix_rel_obj_); \
            (object) = NULL;                                   \
        }                                                      \
    } while (0)

END_C_DECLS

#endif /* PMIX_OBJECT_H */
