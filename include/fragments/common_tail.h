/* Hand-written: the pmix_common.h macros that release values. They call library functions
 * declared in pmix_deprecated.h, hence their place after it. */

/* Releases what value `m` holds (PMIx_Value_destruct). */
#define PMIX_VALUE_DESTRUCT(m) PMIx_Value_destruct(m)

/* Destructs and frees one value, and sets `m` to NULL. */
#define PMIX_VALUE_RELEASE(m) \
    do { \
        PMIX_VALUE_DESTRUCT((m)); \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

/* Destructs `n` values, frees the array and sets `m` to NULL. */
#define PMIX_VALUE_FREE(m, n) \
    do { \
        size_t _pmix_vl; \
        if (NULL != (m)) { \
            for (_pmix_vl = 0; _pmix_vl < (n); _pmix_vl++) { \
                PMIX_VALUE_DESTRUCT(&(m)[_pmix_vl]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Releases the value of info `m`, unless the info is marked persistent. */
#define PMIX_INFO_DESTRUCT(m) \
    do { \
        if (!PMIX_INFO_IS_PERSISTENT((m))) { \
            PMIX_VALUE_DESTRUCT(&(m)->value); \
        } \
    } while (0)

/* Destructs `n` infos, frees the array and sets `m` to NULL. */
#define PMIX_INFO_FREE(m, n) \
    do { \
        size_t _pmix_nf; \
        if (NULL != (m)) { \
            for (_pmix_nf = 0; _pmix_nf < (n); _pmix_nf++) { \
                PMIX_INFO_DESTRUCT(&(m)[_pmix_nf]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Frees everything app `m` owns and clears those fields (`maxprocs` is kept). */
#define PMIX_APP_DESTRUCT(m) \
    do { \
        if (NULL != (m)->cmd) { \
            pmix_free((m)->cmd); \
            (m)->cmd = NULL; \
        } \
        if (NULL != (m)->argv) { \
            pmix_argv_free((m)->argv); \
            (m)->argv = NULL; \
        } \
        if (NULL != (m)->env) { \
            pmix_argv_free((m)->env); \
            (m)->env = NULL; \
        } \
        if (NULL != (m)->cwd) { \
            pmix_free((m)->cwd); \
            (m)->cwd = NULL; \
        } \
        if (NULL != (m)->info) { \
            PMIX_INFO_FREE((m)->info, (m)->ninfo); \
            (m)->info = NULL; \
            (m)->ninfo = 0; \
        } \
    } while (0)

/* Destructs `n` apps (the array itself is not freed). */
static inline void pmix_app_free(pmix_app_t *ap, size_t n)
{
    size_t k;

    for (k = 0; NULL != ap && k < n; k++) {
        PMIX_APP_DESTRUCT(&ap[k]);
    }
}

/* Destructs `n` apps, frees the array and sets `m` to NULL. */
#define PMIX_APP_FREE(m, n) \
    do { \
        pmix_app_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)

/* Releases the elements of data array `m` (PMIx_Data_array_destruct). */
#define PMIX_DATA_ARRAY_DESTRUCT(m) PMIx_Data_array_destruct(m)

/* Destructs and frees one data array, and sets `m` to NULL. */
#define PMIX_DATA_ARRAY_FREE(m) \
    do { \
        if (NULL != (m)) { \
            PMIX_DATA_ARRAY_DESTRUCT(m); \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Destructs and frees one lookup result, and sets `m` to NULL. */
#define PMIX_PDATA_RELEASE(m) \
    do { \
        PMIX_VALUE_DESTRUCT(&(m)->value); \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

#define PMIX_PDATA_DESTRUCT(m) \
    do { \
        PMIX_VALUE_DESTRUCT(&(m)->value); \
    } while (0)

/* Destructs `n` lookup results (the array itself is not freed). */
static inline void pmix_pdata_free(pmix_pdata_t *pd, size_t n)
{
    size_t k;

    for (k = 0; NULL != pd && k < n; k++) {
        PMIX_PDATA_DESTRUCT(&pd[k]);
    }
}

/* Destructs `n` lookup results, frees the array and sets `m` to NULL. */
#define PMIX_PDATA_FREE(m, n) \
    do { \
        pmix_pdata_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)
