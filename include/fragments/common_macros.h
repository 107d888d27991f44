/* Hand-written: the macros and static inline helpers of pmix_common.h that come before
 * pmix_deprecated.h. Consumers compile these into their own code, so everything they
 * allocate comes from malloc/calloc/realloc/strdup and everything they release goes to free:
 * memory may pass freely between these macros and the library. Macros that are expressions
 * in the reference are expressions here, and statements are `do { } while (0)` blocks, so
 * that code written against the reference compiles unchanged. */

/* ---- Ranks and events ---- */

/* True for an ordinary rank (not one of the special values near UINT32_MAX). */
#define PMIX_RANK_IS_VALID(r) \
    ((r) < PMIX_RANK_VALID)

/* True for a status in the system-event range PMIX_EVENT_SYS_OTHER..PMIX_EVENT_SYS_BASE. */
#define PMIX_SYSTEM_EVENT(a) \
    (PMIX_EVENT_SYS_OTHER <= (a) && (a) <= PMIX_EVENT_SYS_BASE)

/* ---- Memory hooks ---- */

/* Allocation wrappers the macros below use (some call libc directly, as in the reference). */
static inline void *pmix_malloc(size_t n)
{
    return malloc(n);
}

static inline void pmix_free(void *m)
{
    free(m);
}

static inline void *pmix_calloc(size_t n, size_t m)
{
    return calloc(n, m);
}

/* Internal to these headers: sets `m` to `n` zeroed elements of type `T` taken from
 * pmix_malloc, or to NULL when `n` is 0 (or the allocation fails). */
#define PMIX_HDR_ZALLOC(m, n, T) \
    do { \
        if (0 == (n)) { \
            (m) = NULL; \
        } else { \
            (m) = (T *) pmix_malloc((n) * sizeof(T)); \
            if (NULL != (m)) { \
                memset((m), 0, (n) * sizeof(T)); \
            } \
        } \
    } while (0)

/* ---- Bounded strings ---- */

/* Copies at most `len` characters of `src` (stopping at its terminator) and always
 * terminates `dest`, which must have room for len+1 characters. */
static inline void pmix_strncpy(char *dest, const char *src, size_t len)
{
    size_t k = 0;

    while (k < len && '\0' != src[k]) {
        dest[k] = src[k];
        ++k;
    }
    dest[k] = '\0';
}

/* Length of a key, looking at no more than PMIX_MAX_KEYLEN+1 characters (0 for NULL). */
static inline size_t pmix_keylen(const char *src)
{
    size_t k = 0;

    if (NULL != src) {
        while (k <= PMIX_MAX_KEYLEN && '\0' != src[k]) {
            ++k;
        }
    }
    return k;
}

/* Length of a namespace, looking at no more than PMIX_MAX_NSLEN+1 characters (0 for NULL). */
static inline size_t pmix_nslen(const char *src)
{
    size_t k = 0;

    if (NULL != src) {
        while (k <= PMIX_MAX_NSLEN && '\0' != src[k]) {
            ++k;
        }
    }
    return k;
}

/* ---- Keys, namespaces and process ids ---- */

/* True if the `key` field of struct pointer `a` equals the string `b`. */
#define PMIX_CHECK_KEY(a, b) \
    (0 == strncmp((a)->key, (b), PMIX_MAX_KEYLEN))

/* True for keys in the "pmix" reserved prefix. */
#define PMIX_CHECK_RESERVED_KEY(a) \
    (0 == strncmp((a), "pmix", 4))

/* Clears the key buffer `a` and copies the string `b` (if not NULL) into it. */
#define PMIX_LOAD_KEY(a, b) \
    do { \
        memset((a), 0, PMIX_MAX_KEYLEN + 1); \
        if (NULL != (b)) { \
            pmix_strncpy((char *) (a), (const char *) (b), PMIX_MAX_KEYLEN); \
        } \
    } while (0)

/* Clears the namespace buffer `a` and copies the string `b` (if not NULL) into it. */
#define PMIX_LOAD_NSPACE(a, b) \
    do { \
        memset((a), 0, PMIX_MAX_NSLEN + 1); \
        if (NULL != (b)) { \
            pmix_strncpy((char *) (a), (b), PMIX_MAX_NSLEN); \
        } \
    } while (0)

/* An empty or NULL namespace matches any other. */
#define PMIX_CHECK_NSPACE(a, b) \
    (PMIX_NSPACE_INVALID((a)) || PMIX_NSPACE_INVALID((b)) || \
     0 == strncmp((a), (b), PMIX_MAX_NSLEN))

/* Sets the process id `a` to namespace `b`, rank `c`. */
#define PMIX_LOAD_PROCID(a, b, c) \
    do { \
        PMIX_LOAD_NSPACE((a)->nspace, (b)); \
        (a)->rank = (c); \
    } while (0)

/* Copies the process id `b` into `a`. */
#define PMIX_XFER_PROCID(a, b) \
    memcpy((a), (b), sizeof(pmix_proc_t))

#define PMIX_PROCID_XFER(a, b) PMIX_XFER_PROCID(a, b)

/* Namespaces match (see PMIX_CHECK_NSPACE) and ranks match (see PMIX_CHECK_RANK). */
#define PMIX_CHECK_PROCID(a, b) \
    (PMIX_CHECK_NSPACE((a)->nspace, (b)->nspace) && PMIX_CHECK_RANK((a)->rank, (b)->rank))

/* Equal ranks, or either one is PMIX_RANK_WILDCARD. */
#define PMIX_CHECK_RANK(a, b) \
    ((a) == (b) || PMIX_RANK_WILDCARD == (a) || PMIX_RANK_WILDCARD == (b))

#define PMIX_NSPACE_INVALID(a) \
    (NULL == (a) || 0 == pmix_nslen((a)))

#define PMIX_PROCID_INVALID(a) \
    (PMIX_NSPACE_INVALID((a)->nspace) || PMIX_RANK_INVALID == (a)->rank)

/* ---- NULL-terminated string arrays ("argv") ---- */

/* Number of entries before the NULL terminator (0 for a NULL array). */
static inline int pmix_argv_count(char **argv)
{
    int n = 0;

    if (NULL != argv) {
        while (NULL != argv[n]) {
            ++n;
        }
    }
    return n;
}

#define PMIX_ARGV_COUNT(r, a) \
    (r) = pmix_argv_count(a)

/* Appends a copy of `arg`; a NULL *argv starts a new array. */
static inline pmix_status_t pmix_argv_append_nosize(char ***argv, const char *arg)
{
    char **grown;
    int n = 0;

    if (NULL == *argv) {
        grown = (char **) malloc(2 * sizeof(char *));
    } else {
        n = pmix_argv_count(*argv);
        grown = (char **) realloc(*argv, (size_t) (n + 2) * sizeof(char *));
    }
    if (NULL == grown) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    *argv = grown;
    grown[n] = NULL;
    grown[n + 1] = NULL;
    grown[n] = strdup(arg);
    if (NULL == grown[n]) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    return PMIX_SUCCESS;
}

#define PMIX_ARGV_APPEND(r, a, b) \
    (r) = pmix_argv_append_nosize(&(a), (b))

/* Inserts a copy of `arg` in front; a NULL *argv starts a new array. */
static inline pmix_status_t pmix_argv_prepend_nosize(char ***argv, const char *arg)
{
    char **grown;
    int n;

    if (NULL == *argv) {
        grown = (char **) malloc(2 * sizeof(char *));
        if (NULL == grown) {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        grown[0] = strdup(arg);
        grown[1] = NULL;
        *argv = grown;
        return PMIX_SUCCESS;
    }
    n = pmix_argv_count(*argv);
    grown = (char **) realloc(*argv, (size_t) (n + 2) * sizeof(char *));
    if (NULL == grown) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    *argv = grown;
    memmove(&grown[1], &grown[0], (size_t) (n + 1) * sizeof(char *));
    grown[0] = strdup(arg);
    return PMIX_SUCCESS;
}

#define PMIX_ARGV_PREPEND(r, a, b) \
    (r) = pmix_argv_prepend_nosize(&(a), b)

/* Appends a copy of `arg` unless an equal string is already present. */
static inline pmix_status_t pmix_argv_append_unique_nosize(char ***argv, const char *arg)
{
    char **p;

    if (NULL != *argv) {
        for (p = *argv; NULL != *p; ++p) {
            if (0 == strcmp(*p, arg)) {
                return PMIX_SUCCESS;
            }
        }
    }
    return pmix_argv_append_nosize(argv, arg);
}

/* Note: unlike PMIX_ARGV_APPEND, `a` is the address of the array (a char ***). */
#define PMIX_ARGV_APPEND_UNIQUE(r, a, b) \
    (r) = pmix_argv_append_unique_nosize(a, b)

/* Frees every string and the array (NULL is allowed). */
static inline void pmix_argv_free(char **argv)
{
    char **p;

    if (NULL == argv) {
        return;
    }
    for (p = argv; NULL != *p; ++p) {
        pmix_free(*p);
    }
    pmix_free(argv);
}

#define PMIX_ARGV_FREE(a) pmix_argv_free(a)

/* Splits `src_string` at every `delimiter`. Empty fields are kept only if `include_empty`;
 * a delimiter at the very end never produces a field. Returns NULL when there is no field
 * (or on allocation failure). */
static inline char **pmix_argv_split_inter(const char *src_string, int delimiter,
                                           bool include_empty)
{
    char **out = NULL;
    const char *start = src_string;
    const char *end;
    char *field;
    size_t len;

    while (NULL != start && '\0' != *start) {
        for (end = start; '\0' != *end && delimiter != *end; ++end) {
            continue;
        }
        len = (size_t) (end - start);
        if (0 < len || include_empty) {
            field = (char *) malloc(len + 1);
            if (NULL == field) {
                return NULL;
            }
            memcpy(field, start, len);
            field[len] = '\0';
            if (PMIX_SUCCESS != pmix_argv_append_nosize(&out, field)) {
                free(field);
                return NULL;
            }
            free(field);
        }
        start = ('\0' == *end) ? end : end + 1;
    }
    return out;
}

static inline char **pmix_argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, true);
}

static inline char **pmix_argv_split(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, false);
}

#define PMIX_ARGV_SPLIT(a, b, c) \
    (a) = pmix_argv_split(b, c)

/* Joins the strings with `delimiter` between them into a new string ("" for an empty or
 * NULL array). */
static inline char *pmix_argv_join(char **argv, int delimiter)
{
    char **p;
    char *out;
    size_t total = 0, pos = 0, len;

    if (NULL == argv || NULL == argv[0]) {
        return strdup("");
    }
    for (p = argv; NULL != *p; ++p) {
        total += strlen(*p) + 1;
    }
    out = (char *) malloc(total);
    if (NULL == out) {
        return NULL;
    }
    for (p = argv; NULL != *p; ++p) {
        len = strlen(*p);
        memcpy(out + pos, *p, len);
        pos += len;
        out[pos++] = (NULL != p[1]) ? (char) delimiter : '\0';
    }
    return out;
}

#define PMIX_ARGV_JOIN(a, b, c) \
    (a) = pmix_argv_join(b, c)

/* Deep copy; an empty array gives an empty (not NULL) array, a NULL array gives NULL. */
static inline char **pmix_argv_copy(char **argv)
{
    char **dup;

    if (NULL == argv) {
        return NULL;
    }
    dup = (char **) malloc(sizeof(char *));
    if (NULL == dup) {
        return NULL;
    }
    dup[0] = NULL;
    for (; NULL != *argv; ++argv) {
        if (PMIX_SUCCESS != pmix_argv_append_nosize(&dup, *argv)) {
            pmix_argv_free(dup);
            return NULL;
        }
    }
    return dup;
}

#define PMIX_ARGV_COPY(a, b) \
    (a) = pmix_argv_copy(b)

/* Sets `name`=`value` in the environment-style array *env (a NULL *env starts one). A NULL
 * value stores "name=". If *env is the process `environ`, setenv(3)/unsetenv(3) are used
 * instead. Returns PMIX_ERR_EXISTS when the name is present and `overwrite` is false, and
 * PMIX_ERR_BAD_PARAM for a NULL env or a value of 100000 characters or more. Entries are cut
 * to 99999 characters. */
static inline pmix_status_t pmix_setenv(const char *name, const char *value, bool overwrite,
                                        char ***env)
{
    char *entry;
    size_t nlen, vlen = 0;
    int k;

    if (NULL == env) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != value) {
        while (vlen < 100000 && '\0' != value[vlen]) {
            ++vlen;
        }
        if (100000 == vlen) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (*env == environ) {
        if (NULL == value) {
            unsetenv(name);
        } else {
            setenv(name, value, overwrite);
        }
        return PMIX_SUCCESS;
    }

    nlen = strlen(name);
    entry = (char *) malloc(nlen + vlen + 2);
    if (NULL == entry) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    memcpy(entry, name, nlen);
    entry[nlen] = '=';
    if (0 < vlen) {
        memcpy(entry + nlen + 1, value, vlen);
    }
    entry[nlen + 1 + vlen] = '\0';
    /* as in the reference, which formats entries in a 100000-byte buffer */
    if (nlen + 1 + vlen > 99999) {
        entry[99999] = '\0';
    }

    if (NULL != *env) {
        for (k = 0; NULL != (*env)[k]; ++k) {
            /* compare up to and including the '=' */
            if (0 == strncmp((*env)[k], entry, (nlen + 1 < 99999) ? nlen + 1 : 99999)) {
                if (!overwrite) {
                    free(entry);
                    return PMIX_ERR_EXISTS;
                }
                free((*env)[k]);
                (*env)[k] = entry;
                return PMIX_SUCCESS;
            }
        }
    }
    (void) pmix_argv_append_nosize(env, entry);
    free(entry);
    return PMIX_SUCCESS;
}

/* Always overwrites. */
#define PMIX_SETENV(r, a, b, c) \
    (r) = pmix_setenv((a), (b), true, (c))

/* ---- Coordinates ---- */

#define PMIX_COORD_STATIC_INIT \
    { \
        .view = PMIX_COORD_VIEW_UNDEF, \
        .coord = NULL, \
        .dims = 0 \
    }

/* Sets `m` to `d` zeroed coordinates (NULL if `d` is 0); the first one gets `n` zeroed
 * dimensions. */
#define PMIX_COORD_CREATE(m, d, n) \
    do { \
        pmix_coord_t *_pmix_cc; \
        if (0 == (d)) { \
            (m) = NULL; \
        } else { \
            _pmix_cc = (pmix_coord_t *) pmix_malloc((d) * sizeof(pmix_coord_t)); \
            if (NULL != _pmix_cc) { \
                memset(_pmix_cc, 0, (d) * sizeof(pmix_coord_t)); \
                _pmix_cc->view = PMIX_COORD_VIEW_UNDEF; \
                _pmix_cc->dims = (n); \
                if (0 != (n)) { \
                    _pmix_cc->coord = (uint32_t *) pmix_malloc((n) * sizeof(uint32_t)); \
                    if (NULL != _pmix_cc->coord) { \
                        memset(_pmix_cc->coord, 0, (n) * sizeof(uint32_t)); \
                    } \
                } \
            } \
            (m) = _pmix_cc; \
        } \
    } while (0)

#define PMIX_COORD_CONSTRUCT(m) \
    do { \
        (m)->view = PMIX_COORD_VIEW_UNDEF; \
        (m)->coord = NULL; \
        (m)->dims = 0; \
    } while (0)

/* Resets the view; frees the coordinate array (then clearing `coord` and `dims`). */
#define PMIX_COORD_DESTRUCT(m) \
    do { \
        (m)->view = PMIX_COORD_VIEW_UNDEF; \
        if (NULL != (m)->coord) { \
            pmix_free((m)->coord); \
            (m)->coord = NULL; \
            (m)->dims = 0; \
        } \
    } while (0)

/* Destructs `n` coordinates, frees the array and sets `m` to NULL. */
#define PMIX_COORD_FREE(m, n) \
    do { \
        size_t _pmix_cf; \
        if (NULL != (m)) { \
            for (_pmix_cf = 0; _pmix_cf < (n); _pmix_cf++) { \
                PMIX_COORD_DESTRUCT(&(m)[_pmix_cf]); \
            } \
            free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* ---- CPU sets and topologies ---- */

#define PMIX_CPUSET_STATIC_INIT \
    { \
        .source = NULL, \
        .bitmap = NULL \
    }

#define PMIX_CPUSET_CONSTRUCT(m) \
    memset((m), 0, sizeof(pmix_cpuset_t))

#define PMIX_CPUSET_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_cpuset_t)

#define PMIX_TOPOLOGY_STATIC_INIT \
    { \
        .source = NULL, \
        .topology = NULL \
    }

#define PMIX_TOPOLOGY_CONSTRUCT(m) \
    memset((m), 0, sizeof(pmix_topology_t))

#define PMIX_TOPOLOGY_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_topology_t)

/* ---- Geometry ---- */

#define PMIX_GEOMETRY_STATIC_INIT \
    { \
        .fabric = 0, \
        .uuid = NULL, \
        .osname = NULL, \
        .coordinates = NULL, \
        .ncoords = 0 \
    }

/* (The reference's definition ends in a semicolon; kept, so both accept the same code.) */
#define PMIX_GEOMETRY_CONSTRUCT(m) \
    memset((m), 0, sizeof(pmix_geometry_t));

/* Frees the strings and the coordinates (`ncoords` is left as it was). */
#define PMIX_GEOMETRY_DESTRUCT(m) \
    do { \
        if (NULL != (m)->uuid) { \
            free((m)->uuid); \
            (m)->uuid = NULL; \
        } \
        if (NULL != (m)->osname) { \
            free((m)->osname); \
            (m)->osname = NULL; \
        } \
        if (NULL != (m)->coordinates) { \
            PMIX_COORD_FREE((m)->coordinates, (m)->ncoords); \
        } \
    } while (0)

#define PMIX_GEOMETRY_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_geometry_t)

#define PMIX_GEOMETRY_FREE(m, n) \
    do { \
        size_t _pmix_gf; \
        if (NULL != (m)) { \
            for (_pmix_gf = 0; _pmix_gf < (n); _pmix_gf++) { \
                PMIX_GEOMETRY_DESTRUCT(&(m)[_pmix_gf]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* ---- Device distances ---- */

#define PMIX_DEVICE_DIST_STATIC_INIT \
    { \
        .uuid = NULL, \
        .osname = NULL, \
        .type = PMIX_DEVTYPE_UNKNOWN, \
        .mindist = 0, \
        .maxdist = 0 \
    }

/* Zeroes, with both distances UINT16_MAX ("unknown"). (Trailing semicolon as in the
 * reference.) */
#define PMIX_DEVICE_DIST_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_device_distance_t)); \
        (m)->mindist = UINT16_MAX; \
        (m)->maxdist = UINT16_MAX; \
    } while (0);

/* Frees the strings (the pointers are not cleared). */
#define PMIX_DEVICE_DIST_DESTRUCT(m) \
    do { \
        if (NULL != (m)->uuid) { \
            pmix_free((m)->uuid); \
        } \
        if (NULL != (m)->osname) { \
            pmix_free((m)->osname); \
        } \
    } while (0)

#define PMIX_DEVICE_DIST_CREATE(m, n) \
    do { \
        pmix_device_distance_t *_pmix_dd; \
        size_t _pmix_dk; \
        if (0 == (n)) { \
            (m) = NULL; \
        } else { \
            _pmix_dd = (pmix_device_distance_t *) \
                pmix_malloc((n) * sizeof(pmix_device_distance_t)); \
            if (NULL != _pmix_dd) { \
                memset(_pmix_dd, 0, (n) * sizeof(pmix_device_distance_t)); \
                for (_pmix_dk = 0; _pmix_dk < (n); _pmix_dk++) { \
                    _pmix_dd[_pmix_dk].mindist = UINT16_MAX; \
                    _pmix_dd[_pmix_dk].maxdist = UINT16_MAX; \
                } \
            } \
            (m) = _pmix_dd; \
        } \
    } while (0)

#define PMIX_DEVICE_DIST_FREE(m, n) \
    do { \
        size_t _pmix_df; \
        if (NULL != (m)) { \
            for (_pmix_df = 0; _pmix_df < (n); _pmix_df++) { \
                PMIX_DEVICE_DIST_DESTRUCT(&(m)[_pmix_df]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* ---- Byte objects ---- */

#define PMIX_BYTE_OBJECT_STATIC_INIT \
    { \
        .bytes = NULL, \
        .size = 0 \
    }

#define PMIX_BYTE_OBJECT_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_byte_object_t)

#define PMIX_BYTE_OBJECT_CONSTRUCT(m) \
    do { \
        (m)->bytes = NULL; \
        (m)->size = 0; \
    } while (0)

#define PMIX_BYTE_OBJECT_DESTRUCT(m) \
    do { \
        if (NULL != (m)->bytes) { \
            pmix_free((m)->bytes); \
        } \
        (m)->bytes = NULL; \
        (m)->size = 0; \
    } while (0)

#define PMIX_BYTE_OBJECT_FREE(m, n) \
    do { \
        size_t _pmix_bf; \
        if (NULL != (m)) { \
            for (_pmix_bf = 0; _pmix_bf < (n); _pmix_bf++) { \
                PMIX_BYTE_OBJECT_DESTRUCT(&(m)[_pmix_bf]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Moves the buffer `d` of `s` bytes into byte object `b`: `d` becomes NULL, `s` 0. */
#define PMIX_BYTE_OBJECT_LOAD(b, d, s) \
    do { \
        (b)->bytes = (char *) (d); \
        (d) = NULL; \
        (b)->size = (s); \
        (s) = 0; \
    } while (0)

/* ---- Endpoints ---- */

#define PMIX_ENDPOINT_STATIC_INIT \
    { \
        .uuid = NULL, \
        .osname = NULL, \
        .endpt = PMIX_BYTE_OBJECT_STATIC_INIT \
    }

#define PMIX_ENDPOINT_CONSTRUCT(m) \
    memset((m), 0, sizeof(pmix_endpoint_t))

/* Frees the strings and the endpoint bytes (the pointers are not cleared). */
#define PMIX_ENDPOINT_DESTRUCT(m) \
    do { \
        if (NULL != (m)->uuid) { \
            free((m)->uuid); \
        } \
        if (NULL != (m)->osname) { \
            free((m)->osname); \
        } \
        if (NULL != (m)->endpt.bytes) { \
            free((m)->endpt.bytes); \
        } \
    } while (0)

#define PMIX_ENDPOINT_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_endpoint_t)

#define PMIX_ENDPOINT_FREE(m, n) \
    do { \
        size_t _pmix_ef; \
        if (NULL != (m)) { \
            for (_pmix_ef = 0; _pmix_ef < (n); _pmix_ef++) { \
                PMIX_ENDPOINT_DESTRUCT(&(m)[_pmix_ef]); \
            } \
            free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* ---- Environment variable directives ---- */

#define PMIX_ENVAR_STATIC_INIT \
    { \
        .envar = NULL, \
        .value = NULL, \
        .separator = '\0' \
    }

#define PMIX_ENVAR_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_envar_t)

/* Destructs `n` entries and frees the array (`m` itself is left unchanged). */
#define PMIX_ENVAR_FREE(m, n) \
    do { \
        size_t _pmix_vf; \
        if (NULL != (m)) { \
            for (_pmix_vf = 0; _pmix_vf < (n); _pmix_vf++) { \
                PMIX_ENVAR_DESTRUCT(&(m)[_pmix_vf]); \
            } \
            pmix_free((m)); \
        } \
    } while (0)

#define PMIX_ENVAR_CONSTRUCT(m) \
    do { \
        (m)->envar = NULL; \
        (m)->value = NULL; \
        (m)->separator = '\0'; \
    } while (0)

#define PMIX_ENVAR_DESTRUCT(m) \
    do { \
        if (NULL != (m)->envar) { \
            pmix_free((m)->envar); \
            (m)->envar = NULL; \
        } \
        if (NULL != (m)->value) { \
            pmix_free((m)->value); \
            (m)->value = NULL; \
        } \
    } while (0)

/* Copies the non-NULL strings in and sets the separator. */
#define PMIX_ENVAR_LOAD(m, e, v, s) \
    do { \
        if (NULL != (e)) { \
            (m)->envar = strdup(e); \
        } \
        if (NULL != (v)) { \
            (m)->value = strdup(v); \
        } \
        (m)->separator = (s); \
    } while (0)

/* ---- Data buffers ---- */

#define PMIX_DATA_BUFFER_STATIC_INIT \
    { \
        .base_ptr = NULL, \
        .pack_ptr = NULL, \
        .unpack_ptr = NULL, \
        .bytes_allocated = 0, \
        .bytes_used = 0 \
    }

/* Sets `m` to one new, empty buffer. */
#define PMIX_DATA_BUFFER_CREATE(m) \
    do { \
        (m) = (pmix_data_buffer_t *) pmix_malloc(sizeof(pmix_data_buffer_t)); \
        if (NULL != (m)) { \
            memset((m), 0, sizeof(pmix_data_buffer_t)); \
        } \
    } while (0)

/* Frees the contents and the buffer, and sets `m` to NULL. */
#define PMIX_DATA_BUFFER_RELEASE(m) \
    do { \
        if (NULL != (m)->base_ptr) { \
            pmix_free((m)->base_ptr); \
        } \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

#define PMIX_DATA_BUFFER_CONSTRUCT(m) \
    memset((m), 0, sizeof(pmix_data_buffer_t))

#define PMIX_DATA_BUFFER_DESTRUCT(m) \
    do { \
        if (NULL != (m)->base_ptr) { \
            pmix_free((m)->base_ptr); \
            (m)->base_ptr = NULL; \
        } \
        (m)->pack_ptr = NULL; \
        (m)->unpack_ptr = NULL; \
        (m)->bytes_allocated = 0; \
        (m)->bytes_used = 0; \
    } while (0)

/* Hands the `s` bytes at `d` to buffer `b` (PMIx_Data_load). */
#define PMIX_DATA_BUFFER_LOAD(b, d, s) \
    do { \
        pmix_byte_object_t _pmix_bl; \
        _pmix_bl.bytes = (char *) (d); \
        _pmix_bl.size = (s); \
        PMIx_Data_load((b), &_pmix_bl); \
    } while (0)

/* Takes the unread bytes of buffer `b` (PMIx_Data_unload) into `d`/`s`; NULL/0 on error. */
#define PMIX_DATA_BUFFER_UNLOAD(b, d, s) \
    do { \
        pmix_byte_object_t _pmix_bu; \
        if (PMIX_SUCCESS == PMIx_Data_unload((b), &_pmix_bu)) { \
            (d) = _pmix_bu.bytes; \
            (s) = _pmix_bu.size; \
        } else { \
            (d) = NULL; \
            (s) = 0; \
        } \
    } while (0)

/* ---- Process ids ---- */

#define PMIX_PROC_STATIC_INIT \
    { \
        .nspace = {0}, \
        .rank = PMIX_RANK_UNDEF \
    }

#define PMIX_PROC_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_proc_t)

#define PMIX_PROC_RELEASE(m) \
    do { \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

#define PMIX_PROC_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_proc_t)); \
    } while (0)

/* A process id owns no memory: expands to nothing. */
#define PMIX_PROC_DESTRUCT(m)

/* Frees the array (`n` is not used) and sets `m` to NULL. */
#define PMIX_PROC_FREE(m, n) \
    do { \
        if (NULL != (m)) { \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Clears `m`, then sets namespace `n` (must not be NULL) and rank `r`. */
#define PMIX_PROC_LOAD(m, n, r) \
    do { \
        PMIX_PROC_CONSTRUCT((m)); \
        pmix_strncpy((char *) (m)->nspace, (n), PMIX_MAX_NSLEN); \
        (m)->rank = (r); \
    } while (0)

/* Writes "cluster:nspace" into the namespace buffer `t`; `t` stays empty when the two do
 * not fit together in fewer than PMIX_MAX_NSLEN characters. */
#define PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, c, n) \
    do { \
        size_t _pmix_cl; \
        memset((t), 0, PMIX_MAX_NSLEN + 1); \
        _pmix_cl = pmix_nslen((c)); \
        if (_pmix_cl + pmix_nslen((n)) < PMIX_MAX_NSLEN) { \
            pmix_strncpy((char *) (t), (c), PMIX_MAX_NSLEN); \
            (t)[_pmix_cl] = ':'; \
            pmix_strncpy((char *) &(t)[_pmix_cl + 1], (n), PMIX_MAX_NSLEN - _pmix_cl); \
        } \
    } while (0)

/* Splits "cluster:nspace" in `t` into `c` and `n`. No terminators are written: pass zeroed
 * buffers. */
#define PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n) \
    do { \
        size_t _pmix_pi = 0, _pmix_pj = 0; \
        while (_pmix_pi <= PMIX_MAX_NSLEN && '\0' != (t)[_pmix_pi] && \
               ':' != (t)[_pmix_pi]) { \
            (c)[_pmix_pi] = (t)[_pmix_pi]; \
            _pmix_pi++; \
        } \
        for (_pmix_pi++; _pmix_pi <= PMIX_MAX_NSLEN && '\0' != (t)[_pmix_pi]; _pmix_pi++) { \
            (n)[_pmix_pj++] = (t)[_pmix_pi]; \
        } \
    } while (0)

/* ---- Process information ---- */

#define PMIX_PROC_INFO_STATIC_INIT \
    { \
        .proc = PMIX_PROC_STATIC_INIT, \
        .hostname = NULL, \
        .executable_name = NULL, \
        .pid = 0, \
        .exit_code = 0, \
        .state = PMIX_PROC_STATE_UNDEF \
    }

#define PMIX_PROC_INFO_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_proc_info_t)

/* Destructs and frees one element (`m` itself is left unchanged). */
#define PMIX_PROC_INFO_RELEASE(m) \
    do { \
        PMIX_PROC_INFO_FREE((m), 1); \
    } while (0)

#define PMIX_PROC_INFO_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_proc_info_t)); \
    } while (0)

#define PMIX_PROC_INFO_DESTRUCT(m) \
    do { \
        if (NULL != (m)->hostname) { \
            pmix_free((m)->hostname); \
            (m)->hostname = NULL; \
        } \
        if (NULL != (m)->executable_name) { \
            pmix_free((m)->executable_name); \
            (m)->executable_name = NULL; \
        } \
    } while (0)

/* Destructs `n` elements and frees the array (`m` itself is left unchanged). */
#define PMIX_PROC_INFO_FREE(m, n) \
    do { \
        size_t _pmix_if; \
        if (NULL != (m)) { \
            for (_pmix_if = 0; _pmix_if < (n); _pmix_if++) { \
                PMIX_PROC_INFO_DESTRUCT(&(m)[_pmix_if]); \
            } \
            pmix_free((m)); \
        } \
    } while (0)

/* ---- Data arrays (the other macros follow further down) ---- */

#define PMIX_DATA_ARRAY_STATIC_INIT \
    { \
        .type = PMIX_UNDEF, \
        .size = 0, \
        .array = NULL \
    }

/* ---- Statistics ---- */

/* (The reference's version of this initializer does not compile: a comma is missing
 * after .peak_vsize. This one does.) */
#define PMIX_PROC_STATS_STATIC_INIT \
    { \
        .node = NULL, \
        .proc = PMIX_PROC_STATIC_INIT, \
        .pid = 0, \
        .cmd = NULL, \
        .state = '\0', \
        .time = {0, 0}, \
        .percent_cpu = 0.0, \
        .priority = 0, \
        .num_threads = 0, \
        .pss = 0.0, \
        .vsize = 0.0, \
        .rss = 0.0, \
        .peak_vsize = 0.0, \
        .processor = 0, \
        .sample_time = {0, 0} \
    }

#define PMIX_PROC_STATS_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_proc_stats_t)

#define PMIX_PROC_STATS_RELEASE(m) \
    do { \
        PMIX_PROC_STATS_FREE((m), 1); \
    } while (0)

#define PMIX_PROC_STATS_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_proc_stats_t)); \
    } while (0)

#define PMIX_PROC_STATS_DESTRUCT(m) \
    do { \
        if (NULL != (m)->node) { \
            pmix_free((m)->node); \
            (m)->node = NULL; \
        } \
        if (NULL != (m)->cmd) { \
            pmix_free((m)->cmd); \
            (m)->cmd = NULL; \
        } \
    } while (0)

/* Destructs `n` elements (the array itself is not freed). */
static inline void pmix_proc_stats_free(pmix_proc_stats_t *ps, size_t n)
{
    size_t k;

    for (k = 0; NULL != ps && k < n; k++) {
        PMIX_PROC_STATS_DESTRUCT(&ps[k]);
    }
}

/* Destructs `n` elements, frees the array and sets `m` to NULL. */
#define PMIX_PROC_STATS_FREE(m, n) \
    do { \
        pmix_proc_stats_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)

#define PMIX_DISK_STATS_STATIC_INIT \
    { \
        .disk = NULL, \
        .num_reads_completed = 0, \
        .num_reads_merged = 0, \
        .num_sectors_read = 0, \
        .milliseconds_reading = 0, \
        .num_writes_completed = 0, \
        .num_writes_merged = 0, \
        .num_sectors_written = 0, \
        .milliseconds_writing = 0, \
        .num_ios_in_progress = 0, \
        .milliseconds_io = 0, \
        .weighted_milliseconds_io = 0 \
    }

#define PMIX_DISK_STATS_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_disk_stats_t)

#define PMIX_DISK_STATS_RELEASE(m) \
    do { \
        PMIX_DISK_STATS_FREE((m), 1); \
    } while (0)

#define PMIX_DISK_STATS_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_disk_stats_t)); \
    } while (0)

#define PMIX_DISK_STATS_DESTRUCT(m) \
    do { \
        if (NULL != (m)->disk) { \
            pmix_free((m)->disk); \
            (m)->disk = NULL; \
        } \
    } while (0)

/* Destructs `n` elements (the array itself is not freed). */
static inline void pmix_disk_stats_free(pmix_disk_stats_t *d, size_t n)
{
    size_t k;

    for (k = 0; NULL != d && k < n; k++) {
        PMIX_DISK_STATS_DESTRUCT(&d[k]);
    }
}

#define PMIX_DISK_STATS_FREE(m, n) \
    do { \
        pmix_disk_stats_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)

#define PMIX_NET_STATS_STATIC_INIT \
    { \
        .net_interface = NULL, \
        .num_bytes_recvd = 0, \
        .num_packets_recvd = 0, \
        .num_recv_errs = 0, \
        .num_bytes_sent = 0, \
        .num_packets_sent = 0, \
        .num_send_errs = 0 \
    }

#define PMIX_NET_STATS_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_net_stats_t)

#define PMIX_NET_STATS_RELEASE(m) \
    do { \
        PMIX_NET_STATS_FREE((m), 1); \
    } while (0)

#define PMIX_NET_STATS_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_net_stats_t)); \
    } while (0)

#define PMIX_NET_STATS_DESTRUCT(m) \
    do { \
        if (NULL != (m)->net_interface) { \
            pmix_free((m)->net_interface); \
            (m)->net_interface = NULL; \
        } \
    } while (0)

/* Destructs `n` elements (the array itself is not freed). */
static inline void pmix_net_stats_free(pmix_net_stats_t *nst, size_t n)
{
    size_t k;

    for (k = 0; NULL != nst && k < n; k++) {
        PMIX_NET_STATS_DESTRUCT(&nst[k]);
    }
}

#define PMIX_NET_STATS_FREE(m, n) \
    do { \
        pmix_net_stats_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)

#define PMIX_NODE_STATS_STATIC_INIT \
    { \
        .node = NULL, \
        .la = 0, \
        .la5 = 0, \
        .la15 = 0, \
        .total_mem = 0.0, \
        .free_mem = 0.0, \
        .buffers = 0.0, \
        .cached = 0.0, \
        .swap_cached = 0.0, \
        .swap_total = 0.0, \
        .swap_free = 0.0, \
        .mapped = 0.0, \
        .sample_time = {0, 0}, \
        .diskstats = NULL, \
        .ndiskstats = 0, \
        .netstats = NULL, \
        .nnetstats = 0 \
    }

#define PMIX_NODE_STATS_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_node_stats_t)

#define PMIX_NODE_STATS_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_node_stats_t)); \
    } while (0)

/* Frees the node name and the disk and network arrays (their counts are left as they
 * were). */
#define PMIX_NODE_STATS_DESTRUCT(m) \
    do { \
        if (NULL != (m)->node) { \
            pmix_free((m)->node); \
            (m)->node = NULL; \
        } \
        if (NULL != (m)->diskstats) { \
            PMIX_DISK_STATS_FREE((m)->diskstats, (m)->ndiskstats); \
        } \
        if (NULL != (m)->netstats) { \
            PMIX_NET_STATS_FREE((m)->netstats, (m)->nnetstats); \
        } \
    } while (0)

/* Destructs `n` elements (the array itself is not freed). */
static inline void pmix_node_stats_free(pmix_node_stats_t *nd, size_t n)
{
    size_t k;

    for (k = 0; NULL != nd && k < n; k++) {
        PMIX_NODE_STATS_DESTRUCT(&nd[k]);
    }
}

#define PMIX_NODE_STATS_FREE(m, n) \
    do { \
        pmix_node_stats_free(m, n); \
        pmix_free(m); \
        (m) = NULL; \
    } while (0)

/* Destructs one element; unlike the other RELEASE macros, `m` itself is not freed. */
#define PMIX_NODE_STATS_RELEASE(m) \
    pmix_node_stats_free(m, 1)

/* ---- Values ---- */

#define PMIX_VALUE_STATIC_INIT \
    { \
        .type = PMIX_UNDEF, \
        .data.ptr = NULL \
    }

#define PMIX_VALUE_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_value_t)

#define PMIX_VALUE_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_value_t)); \
        (m)->type = PMIX_UNDEF; \
    } while (0)

/* Converts a numeric value `m` to type `t` into `n`; `s` is PMIX_SUCCESS, or
 * PMIX_ERR_BAD_PARAM (and `n` untouched) for a non-numeric type. */
#define PMIX_VALUE_GET_NUMBER(s, m, n, t) \
    do { \
        (s) = PMIX_SUCCESS; \
        switch ((m)->type) { \
        case PMIX_SIZE: (n) = (t) ((m)->data.size); break; \
        case PMIX_INT: (n) = (t) ((m)->data.integer); break; \
        case PMIX_INT8: (n) = (t) ((m)->data.int8); break; \
        case PMIX_INT16: (n) = (t) ((m)->data.int16); break; \
        case PMIX_INT32: (n) = (t) ((m)->data.int32); break; \
        case PMIX_INT64: (n) = (t) ((m)->data.int64); break; \
        case PMIX_UINT: (n) = (t) ((m)->data.uint); break; \
        case PMIX_UINT8: (n) = (t) ((m)->data.uint8); break; \
        case PMIX_UINT16: (n) = (t) ((m)->data.uint16); break; \
        case PMIX_UINT32: (n) = (t) ((m)->data.uint32); break; \
        case PMIX_UINT64: (n) = (t) ((m)->data.uint64); break; \
        case PMIX_FLOAT: (n) = (t) ((m)->data.fval); break; \
        case PMIX_DOUBLE: (n) = (t) ((m)->data.dval); break; \
        case PMIX_PID: (n) = (t) ((m)->data.pid); break; \
        case PMIX_PROC_RANK: (n) = (t) ((m)->data.rank); break; \
        default: (s) = PMIX_ERR_BAD_PARAM; break; \
        } \
    } while (0)

/* ---- Info ---- */

#define PMIX_INFO_STATIC_INIT \
    { \
        .key = {0}, \
        .flags = 0, \
        .value = PMIX_VALUE_STATIC_INIT \
    }

#define PMIX_INFO_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_info_t)); \
        (m)->value.type = PMIX_UNDEF; \
    } while (0)

/* Sets `m` to `n` zeroed infos whose last one carries PMIX_INFO_ARRAY_END. */
#define PMIX_INFO_CREATE(m, n) \
    do { \
        pmix_info_t *_pmix_ic; \
        if (0 == (n)) { \
            (m) = NULL; \
        } else { \
            _pmix_ic = (pmix_info_t *) pmix_malloc((n) * sizeof(pmix_info_t)); \
            if (NULL != _pmix_ic) { \
                memset(_pmix_ic, 0, (n) * sizeof(pmix_info_t)); \
                _pmix_ic[(n) - 1].flags = PMIX_INFO_ARRAY_END; \
            } \
            (m) = _pmix_ic; \
        } \
    } while (0)

/* Directive flags: setters update `flags`, testers give the masked bits. */
#define PMIX_INFO_REQUIRED(m) \
    ((m)->flags |= PMIX_INFO_REQD)
#define PMIX_INFO_OPTIONAL(m) \
    ((m)->flags &= ~PMIX_INFO_REQD)
#define PMIX_INFO_IS_REQUIRED(m) \
    ((m)->flags & PMIX_INFO_REQD)
#define PMIX_INFO_IS_OPTIONAL(m) \
    (!((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_PROCESSED(m) \
    ((m)->flags |= PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_WAS_PROCESSED(m) \
    ((m)->flags & PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_SET_END(m) \
    ((m)->flags |= PMIX_INFO_ARRAY_END)
#define PMIX_INFO_IS_END(m) \
    ((m)->flags & PMIX_INFO_ARRAY_END)
#define PMIX_INFO_SET_QUALIFIER(i) \
    ((i)->flags |= PMIX_INFO_QUALIFIER)
#define PMIX_INFO_IS_QUALIFIER(i) \
    ((i)->flags & PMIX_INFO_QUALIFIER)
/* A persistent info's value is not released by PMIX_INFO_DESTRUCT. */
#define PMIX_INFO_SET_PERSISTENT(ii) \
    ((ii)->flags |= PMIX_INFO_PERSISTENT)
#define PMIX_INFO_IS_PERSISTENT(ii) \
    ((ii)->flags & PMIX_INFO_PERSISTENT)

/* Reads a value as a boolean:
 *  - PMIX_UNDEF, a NULL string and a blank string count as true (a key given without a
 *    value means "yes");
 *  - PMIX_BOOL as it is;
 *  - a string starting (after white space) with a digit: its atoi() is nonzero;
 *    with "yes"/"true": true; with "no"/"false": false (case-insensitive prefixes);
 *  - anything else is PMIX_NON_BOOL. */
static inline pmix_boolean_t pmix_check_true(const pmix_value_t *value)
{
    const char *s;

    switch (value->type) {
    case PMIX_UNDEF:
        return PMIX_BOOL_TRUE;
    case PMIX_BOOL:
        return value->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    case PMIX_STRING:
        s = value->data.string;
        if (NULL == s) {
            return PMIX_BOOL_TRUE;
        }
        while (isspace(*s)) {
            ++s;
        }
        if ('\0' == *s) {
            return PMIX_BOOL_TRUE;
        }
        if (isdigit(*s)) {
            return (0 != atoi(s)) ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
        }
        if (0 == strncasecmp(s, "yes", 3) || 0 == strncasecmp(s, "true", 4)) {
            return PMIX_BOOL_TRUE;
        }
        if (0 == strncasecmp(s, "no", 2) || 0 == strncasecmp(s, "false", 5)) {
            return PMIX_BOOL_FALSE;
        }
        return PMIX_NON_BOOL;
    default:
        return PMIX_NON_BOOL;
    }
}

/* True only for a value pmix_check_true reads as true. */
#define PMIX_CHECK_TRUE(a) \
    (PMIX_BOOL_TRUE == pmix_check_true(a) ? true : false)

/* True for any value pmix_check_true can read as a boolean. */
#define PMIX_CHECK_BOOL(a) \
    (PMIX_NON_BOOL == pmix_check_true(a) ? false : true)

/* PMIX_CHECK_TRUE on the value of info `m`. */
#define PMIX_INFO_TRUE(m) \
    (PMIX_BOOL_TRUE == pmix_check_true(&(m)->value) ? true : false)

/* ---- Lookup results ---- */

#define PMIX_LOOKUP_STATIC_INIT \
    { \
        .proc = PMIX_PROC_STATIC_INIT, \
        .key = {0}, \
        .value = PMIX_VALUE_STATIC_INIT \
    }

#define PMIX_PDATA_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_pdata_t)

#define PMIX_PDATA_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_pdata_t)); \
        (m)->value.type = PMIX_UNDEF; \
    } while (0)

/* ---- Applications ---- */

#define PMIX_APP_STATIC_INIT \
    { \
        .cmd = NULL, \
        .argv = NULL, \
        .env = NULL, \
        .cwd = NULL, \
        .maxprocs = 0, \
        .info = NULL, \
        .ninfo = 0 \
    }

#define PMIX_APP_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_app_t)

/* Gives app `m` an array of `n` infos (see PMIX_INFO_CREATE). */
#define PMIX_APP_INFO_CREATE(m, n) \
    do { \
        (m)->ninfo = (n); \
        PMIX_INFO_CREATE((m)->info, (m)->ninfo); \
    } while (0)

/* Destructs and frees one app, and sets `m` to NULL. */
#define PMIX_APP_RELEASE(m) \
    do { \
        PMIX_APP_DESTRUCT((m)); \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

#define PMIX_APP_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_app_t)); \
    } while (0)

/* ---- Queries ---- */

#define PMIX_QUERY_STATIC_INIT \
    { \
        .keys = NULL, \
        .qualifiers = NULL, \
        .nqual = 0 \
    }

#define PMIX_QUERY_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_query_t)

/* Gives query `m` an array of `n` qualifiers (see PMIX_INFO_CREATE). */
#define PMIX_QUERY_QUALIFIERS_CREATE(m, n) \
    do { \
        (m)->nqual = (n); \
        PMIX_INFO_CREATE((m)->qualifiers, (m)->nqual); \
    } while (0)

#define PMIX_QUERY_RELEASE(m) \
    do { \
        PMIX_QUERY_DESTRUCT((m)); \
        pmix_free((m)); \
        (m) = NULL; \
    } while (0)

#define PMIX_QUERY_CONSTRUCT(m) \
    do { \
        memset((m), 0, sizeof(pmix_query_t)); \
    } while (0)

/* Frees the key strings and array, and the qualifiers. */
#define PMIX_QUERY_DESTRUCT(m) \
    do { \
        size_t _pmix_qk; \
        if (NULL != (m)->keys) { \
            for (_pmix_qk = 0; NULL != (m)->keys[_pmix_qk]; _pmix_qk++) { \
                pmix_free((m)->keys[_pmix_qk]); \
            } \
            pmix_free((m)->keys); \
            (m)->keys = NULL; \
        } \
        if (NULL != (m)->qualifiers) { \
            PMIX_INFO_FREE((m)->qualifiers, (m)->nqual); \
            (m)->qualifiers = NULL; \
            (m)->nqual = 0; \
        } \
    } while (0)

#define PMIX_QUERY_FREE(m, n) \
    do { \
        size_t _pmix_qf; \
        if (NULL != (m)) { \
            for (_pmix_qf = 0; _pmix_qf < (n); _pmix_qf++) { \
                PMIX_QUERY_DESTRUCT(&(m)[_pmix_qf]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* ---- Attribute registrations ---- */

#define PMIX_REGATTR_STATIC_INIT \
    { \
        .name = NULL, \
        .string = {0}, \
        .type = PMIX_UNDEF, \
        .description = NULL \
    }

/* Clears `a` (a NULL `a` is ignored). */
#define PMIX_REGATTR_CONSTRUCT(a) \
    do { \
        if (NULL != (a)) { \
            (a)->name = NULL; \
            memset((a)->string, 0, PMIX_MAX_KEYLEN + 1); \
            (a)->type = PMIX_UNDEF; \
            (a)->description = NULL; \
        } \
    } while (0)

/* Sets name `n`, key `k` and type `t`, and appends description line `v`; NULL strings are
 * skipped. (The reference's version of this macro does not compile; this one does what it
 * was evidently meant to do.) */
#define PMIX_REGATTR_LOAD(a, n, k, t, v) \
    do { \
        if (NULL != (n)) { \
            (a)->name = strdup((n)); \
        } \
        if (NULL != (k)) { \
            PMIX_LOAD_KEY((a)->string, (k)); \
        } \
        (a)->type = (t); \
        if (NULL != (v)) { \
            (void) pmix_argv_append_nosize(&(a)->description, (v)); \
        } \
    } while (0)

/* Frees the name and description (the pointers are not cleared; a NULL `a` is ignored). */
#define PMIX_REGATTR_DESTRUCT(a) \
    do { \
        if (NULL != (a)) { \
            if (NULL != (a)->name) { \
                pmix_free((a)->name); \
            } \
            if (NULL != (a)->description) { \
                PMIX_ARGV_FREE((a)->description); \
            } \
        } \
    } while (0)

#define PMIX_REGATTR_CREATE(m, n) \
    PMIX_HDR_ZALLOC(m, n, pmix_regattr_t)

#define PMIX_REGATTR_FREE(m, n) \
    do { \
        size_t _pmix_rf; \
        pmix_regattr_t *_pmix_ra = (pmix_regattr_t *) (m); \
        if (NULL != _pmix_ra) { \
            for (_pmix_rf = 0; _pmix_rf < (n); _pmix_rf++) { \
                PMIX_REGATTR_DESTRUCT(&_pmix_ra[_pmix_rf]); \
            } \
            pmix_free((m)); \
            (m) = NULL; \
        } \
    } while (0)

/* Constructs `a` as a deep copy of `b`. */
#define PMIX_REGATTR_XFER(a, b) \
    do { \
        PMIX_REGATTR_CONSTRUCT((a)); \
        if (NULL != (b)->name) { \
            (a)->name = strdup((b)->name); \
        } \
        PMIX_LOAD_KEY((a)->string, (b)->string); \
        (a)->type = (b)->type; \
        if (NULL != (b)->description) { \
            PMIX_ARGV_COPY((a)->description, (b)->description); \
        } \
    } while (0)

/* ---- Fabrics ---- */

#define PMIX_FABRIC_STATIC_INIT \
    { \
        .name = NULL, \
        .index = 0, \
        .info = NULL, \
        .ninfo = 0, \
        .module = NULL \
    }

#define PMIX_FABRIC_CONSTRUCT(x) \
    memset((x), 0, sizeof(pmix_fabric_t))

/* ---- Data arrays ---- */

#define PMIX_DATA_ARRAY_INIT(m, t) \
    do { \
        (m)->array = NULL; \
        (m)->type = (t); \
        (m)->size = 0; \
    } while (0)

/* Sets type `t` and size `n` and allocates `n` zeroed elements (structured types through
 * their CREATE macro, so a PMIX_INFO array gets its end mark). For a type without storage
 * rules here (e.g. PMIX_DATA_ARRAY, PMIX_TOPO) the array is NULL and the size 0. Note that
 * PMIX_POINTER elements get one byte each, as in the reference. */
#define PMIX_DATA_ARRAY_CONSTRUCT(m, n, t) \
    do { \
        (m)->type = (t); \
        (m)->size = (n); \
        if (0 < (n)) { \
            switch ((m)->type) { \
            case PMIX_INFO: PMIX_INFO_CREATE((m)->array, (n)); break; \
            case PMIX_PROC: PMIX_PROC_CREATE((m)->array, (n)); break; \
            case PMIX_PROC_INFO: PMIX_PROC_INFO_CREATE((m)->array, (n)); break; \
            case PMIX_ENVAR: PMIX_ENVAR_CREATE((m)->array, (n)); break; \
            case PMIX_VALUE: PMIX_VALUE_CREATE((m)->array, (n)); break; \
            case PMIX_PDATA: PMIX_PDATA_CREATE((m)->array, (n)); break; \
            case PMIX_QUERY: PMIX_QUERY_CREATE((m)->array, (n)); break; \
            case PMIX_APP: PMIX_APP_CREATE((m)->array, (n)); break; \
            case PMIX_BYTE_OBJECT: \
            case PMIX_COMPRESSED_STRING: \
                PMIX_BYTE_OBJECT_CREATE((m)->array, (n)); break; \
            case PMIX_ALLOC_DIRECTIVE: \
            case PMIX_PROC_STATE: \
            case PMIX_PERSIST: \
            case PMIX_SCOPE: \
            case PMIX_DATA_RANGE: \
            case PMIX_BYTE: \
            case PMIX_INT8: \
            case PMIX_UINT8: \
            case PMIX_POINTER: \
                (m)->array = pmix_calloc((n), sizeof(int8_t)); break; \
            case PMIX_STRING: (m)->array = pmix_calloc((n), sizeof(char *)); break; \
            case PMIX_SIZE: (m)->array = pmix_calloc((n), sizeof(size_t)); break; \
            case PMIX_PID: (m)->array = pmix_calloc((n), sizeof(pid_t)); break; \
            case PMIX_INT: \
            case PMIX_UINT: \
            case PMIX_STATUS: \
                (m)->array = pmix_calloc((n), sizeof(int)); break; \
            case PMIX_IOF_CHANNEL: \
            case PMIX_DATA_TYPE: \
            case PMIX_INT16: \
            case PMIX_UINT16: \
                (m)->array = pmix_calloc((n), sizeof(int16_t)); break; \
            case PMIX_PROC_RANK: \
            case PMIX_INFO_DIRECTIVES: \
            case PMIX_INT32: \
            case PMIX_UINT32: \
                (m)->array = pmix_calloc((n), sizeof(int32_t)); break; \
            case PMIX_INT64: \
            case PMIX_UINT64: \
                (m)->array = pmix_calloc((n), sizeof(int64_t)); break; \
            case PMIX_FLOAT: (m)->array = pmix_calloc((n), sizeof(float)); break; \
            case PMIX_DOUBLE: (m)->array = pmix_calloc((n), sizeof(double)); break; \
            case PMIX_TIMEVAL: (m)->array = pmix_calloc((n), sizeof(struct timeval)); break; \
            case PMIX_TIME: (m)->array = pmix_calloc((n), sizeof(time_t)); break; \
            case PMIX_REGATTR: PMIX_REGATTR_CREATE((m)->array, (n)); break; \
            case PMIX_BOOL: (m)->array = pmix_calloc((n), sizeof(bool)); break; \
            case PMIX_COORD: (m)->array = pmix_calloc((n), sizeof(pmix_coord_t)); break; \
            case PMIX_LINK_STATE: \
                (m)->array = pmix_calloc((n), sizeof(pmix_link_state_t)); break; \
            case PMIX_ENDPOINT: PMIX_ENDPOINT_CREATE((m)->array, (n)); break; \
            case PMIX_PROC_NSPACE: \
                (m)->array = pmix_calloc((n), sizeof(pmix_nspace_t)); break; \
            case PMIX_PROC_STATS: PMIX_PROC_STATS_CREATE((m)->array, (n)); break; \
            case PMIX_DISK_STATS: PMIX_DISK_STATS_CREATE((m)->array, (n)); break; \
            case PMIX_NET_STATS: PMIX_NET_STATS_CREATE((m)->array, (n)); break; \
            case PMIX_NODE_STATS: PMIX_NODE_STATS_CREATE((m)->array, (n)); break; \
            case PMIX_DEVICE_DIST: PMIX_DEVICE_DIST_CREATE((m)->array, (n)); break; \
            case PMIX_GEOMETRY: PMIX_GEOMETRY_CREATE((m)->array, (n)); break; \
            case PMIX_PROC_CPUSET: PMIX_CPUSET_CREATE((m)->array, (n)); break; \
            default: \
                (m)->array = NULL; \
                (m)->size = 0; \
                break; \
            } \
        } else { \
            (m)->array = NULL; \
        } \
    } while (0)

/* Sets `m` to a new data array built by PMIX_DATA_ARRAY_CONSTRUCT. */
#define PMIX_DATA_ARRAY_CREATE(m, n, t) \
    do { \
        (m) = (pmix_data_array_t *) pmix_malloc(sizeof(pmix_data_array_t)); \
        if (NULL != (m)) { \
            memset((m), 0, sizeof(pmix_data_array_t)); \
            PMIX_DATA_ARRAY_CONSTRUCT((m), (n), (t)); \
        } \
    } while (0)
