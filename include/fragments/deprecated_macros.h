/* Hand-written: convenience macros over the value, info and info-list functions above. */

/* Declared by OpenPMIx 5.0's pmix_deprecated.h but exported by no library (its
 * PMIX_FABRIC_CONSTRUCT macro stays inline); kept so that the declarations match. */
PMIX_EXPORT void PMIx_Fabric_construct(pmix_regattr_t *p);

#define PMIX_VALUE_LOAD(v, d, t) \
    PMIx_Value_load((v), (d), (t))

#define PMIX_VALUE_UNLOAD(r, k, d, s) \
    (r) = PMIx_Value_unload((k), (d), (s))

/* Deep-copies value `s` into `v`; a NULL `v` is first set to a new (uninitialized)
 * pmix_malloc'd value. `r` gets the status (PMIX_ERR_NOMEM if that allocation fails). */
#define PMIX_VALUE_XFER(r, v, s) \
    do { \
        if (NULL == (v)) { \
            (v) = (pmix_value_t *) pmix_malloc(sizeof(pmix_value_t)); \
        } \
        if (NULL == (v)) { \
            (r) = PMIX_ERR_NOMEM; \
        } else { \
            (r) = PMIx_Value_xfer((v), (s)); \
        } \
    } while (0)

#define PMIX_VALUE_XFER_DIRECT(r, v, s) \
    (r) = PMIx_Value_xfer((v), (s))

/* The status is discarded. */
#define PMIX_INFO_LOAD(i, k, d, t) \
    (void) PMIx_Info_load(i, k, d, t)

/* The status is discarded. */
#define PMIX_INFO_XFER(d, s) \
    (void) PMIx_Info_xfer(d, s)

/* Clears lookup result `m` (NULL is ignored), then sets its process from `p`, key `k` and a
 * copy of `v` of type `t` (PMIx_Value_load, status discarded). */
#define PMIX_PDATA_LOAD(m, p, k, v, t) \
    do { \
        if (NULL != (m)) { \
            memset((m), 0, sizeof(pmix_pdata_t)); \
            PMIX_LOAD_NSPACE((m)->proc.nspace, (p)->nspace); \
            (m)->proc.rank = (p)->rank; \
            PMIX_LOAD_KEY((m)->key, (k)); \
            PMIx_Value_load(&(m)->value, (v), (t)); \
        } \
    } while (0)

/* Clears lookup result `d` (NULL is ignored), then makes it a deep copy of `s`
 * (PMIx_Value_xfer for the value, status discarded). */
#define PMIX_PDATA_XFER(d, s) \
    do { \
        if (NULL != (d)) { \
            memset((d), 0, sizeof(pmix_pdata_t)); \
            PMIX_LOAD_NSPACE((d)->proc.nspace, (s)->proc.nspace); \
            (d)->proc.rank = (s)->proc.rank; \
            PMIX_LOAD_KEY((d)->key, (s)->key); \
            PMIx_Value_xfer(&(d)->value, &(s)->value); \
        } \
    } while (0)

#define PMIX_INFO_LIST_START(p) \
    (p) = PMIx_Info_list_start()

#define PMIX_INFO_LIST_ADD(r, p, a, v, t) \
    (r) = PMIx_Info_list_add((p), (a), (v), (t))

#define PMIX_INFO_LIST_INSERT(r, p, i) \
    (r) = PMIx_Info_list_insert((p), (i))

#define PMIX_INFO_LIST_XFER(r, p, a) \
    (r) = PMIx_Info_list_xfer((p), (a))

#define PMIX_INFO_LIST_CONVERT(r, p, m) \
    (r) = PMIx_Info_list_convert((p), (m))

#define PMIX_INFO_LIST_RELEASE(p) \
    PMIx_Info_list_release((p))

/* PMIx_Topology_destruct is declared in pmix.h. */
#define PMIX_TOPOLOGY_DESTRUCT(x) \
    PMIx_Topology_destruct(x)
