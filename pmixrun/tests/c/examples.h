/* pmixrun's stand-in for the "examples.h" the OpenPMIx example programs include (Debian
 * ships the programs without it): a mutex/condition pair the examples block on until a
 * callback releases them, and the helpers named in the examples. */
#ifndef PMIXRUN_EXAMPLES_H
#define PMIXRUN_EXAMPLES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <pmix_common.h>

#define EXAMPLES_HIDE_UNUSED_PARAMS(...) ((void) (__VA_ARGS__))

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile bool active;
    pmix_status_t status;
    int count;
    size_t evhandler_ref;
} mylock_t;

#define DEBUG_CONSTRUCT_LOCK(l)                \
    do {                                       \
        pthread_mutex_init(&(l)->mutex, NULL); \
        pthread_cond_init(&(l)->cond, NULL);   \
        (l)->active = true;                    \
        (l)->status = PMIX_SUCCESS;            \
        (l)->count = 0;                        \
        (l)->evhandler_ref = 0;                \
    } while (0)

#define DEBUG_DESTRUCT_LOCK(l)              \
    do {                                    \
        pthread_mutex_destroy(&(l)->mutex); \
        pthread_cond_destroy(&(l)->cond);   \
    } while (0)

/* Block until DEBUG_WAKEUP_THREAD clears `active`. */
#define DEBUG_WAIT_THREAD(l)                            \
    do {                                                \
        pthread_mutex_lock(&(l)->mutex);                \
        while ((l)->active) {                           \
            pthread_cond_wait(&(l)->cond, &(l)->mutex); \
        }                                               \
        pthread_mutex_unlock(&(l)->mutex);              \
    } while (0)

#define DEBUG_WAKEUP_THREAD(l)              \
    do {                                    \
        pthread_mutex_lock(&(l)->mutex);    \
        (l)->active = false;                \
        pthread_cond_broadcast(&(l)->cond); \
        pthread_mutex_unlock(&(l)->mutex);  \
    } while (0)

/* The results of a query, collected in its callback. */
typedef struct {
    mylock_t lock;
    pmix_info_t *info;
    size_t ninfo;
} myquery_data_t;

#define DEBUG_CONSTRUCT_MYQUERY(q)          \
    do {                                    \
        DEBUG_CONSTRUCT_LOCK(&((q)->lock)); \
        (q)->info = NULL;                   \
        (q)->ninfo = 0;                     \
    } while (0)

#define DEBUG_DESTRUCT_MYQUERY(q)                  \
    do {                                           \
        DEBUG_DESTRUCT_LOCK(&((q)->lock));         \
        if (NULL != (q)->info) {                   \
            PMIX_INFO_FREE((q)->info, (q)->ninfo); \
        }                                          \
    } while (0)

/* Released when a namespace terminates, with its exit code if the host gave one. */
typedef struct {
    mylock_t lock;
    char *nspace;
    int exit_code;
    bool exit_code_given;
} myrel_t;

#define DEBUG_CONSTRUCT_MYREL(r)            \
    do {                                    \
        DEBUG_CONSTRUCT_LOCK(&((r)->lock)); \
        (r)->nspace = NULL;                 \
        (r)->exit_code = 0;                 \
        (r)->exit_code_given = false;       \
    } while (0)

#define DEBUG_DESTRUCT_MYREL(r)            \
    do {                                   \
        DEBUG_DESTRUCT_LOCK(&((r)->lock)); \
        if (NULL != (r)->nspace) {         \
            free((r)->nspace);             \
        }                                  \
    } while (0)

#endif
