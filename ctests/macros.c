/* The hand-written parts of the headers: every function-like macro and static inline helper
 * of pmix_common.h, pmix_deprecated.h and pmix.h, plus the *_STATIC_INIT initializers.
 * Prints field values, counts and strings (never addresses), so that the output is the same
 * whichever headers and library the program is built and run with.
 *
 * Macros that call library functions are in macros_lib.c. */

#include "common.h"

/* Several macros compare their argument with NULL; given an array (a namespace, a key) or a
 * string literal, as is usual, GCC warns. The reference headers behave the same. */
#pragma GCC diagnostic ignored "-Waddress"

/* The reference's PMIX_REGATTR_LOAD and PMIX_PROC_STATS_STATIC_INIT do not compile, so they
 * are only exercised against our headers, and checked with CHECK (silent on success) so that
 * the output stays the same. The reference installs its internal headers beside the public
 * ones, which tells the two apart. */
#if defined(__has_include)
#if __has_include(<pmix/src/include/pmix_config.h>)
#define REF_HEADERS 1
#endif
#endif

static void show_str(const char *tag, const char *s)
{
    printf("%s: %s%s%s\n", tag, s ? "\"" : "", s ? s : "NULL", s ? "\"" : "");
}

static void show_argv(const char *tag, char **a)
{
    int i, n;

    if (NULL == a) {
        printf("%s: NULL\n", tag);
        return;
    }
    PMIX_ARGV_COUNT(n, a);
    printf("%s: %d [", tag, n);
    for (i = 0; i < n; i++) {
        printf("%s\"%s\"", i ? ", " : "", a[i]);
    }
    printf("]\n");
}

static void ranks_and_events(void)
{
    pmix_rank_t r[] = {0, 7, PMIX_RANK_VALID - 1, PMIX_RANK_VALID, PMIX_RANK_WILDCARD,
                       PMIX_RANK_INVALID, PMIX_RANK_UNDEF, PMIX_RANK_LOCAL_NODE};
    pmix_status_t ev[] = {-229, -230, -231, -300, -330, -331, 0};
    size_t i;

    printf("== ranks and events\n");
    for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
        printf("RANK_IS_VALID(%u) = %d\n", r[i], PMIX_RANK_IS_VALID(r[i]) ? 1 : 0);
    }
    for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
        printf("SYSTEM_EVENT(%d) = %d\n", ev[i], PMIX_SYSTEM_EVENT(ev[i]) ? 1 : 0);
    }
}

static void memory_and_strings(void)
{
    unsigned char *p;
    char buf[16], big[700];
    size_t i, sum = 0;

    printf("== memory and strings\n");
    p = (unsigned char *) pmix_calloc(8, 4);
    for (i = 0; i < 32; i++) {
        sum += p[i];
    }
    printf("pmix_calloc: sum=%zu\n", sum);
    pmix_free(p);
    p = (unsigned char *) pmix_malloc(5);
    memcpy(p, "abcd", 5);
    printf("pmix_malloc: %s\n", (char *) p);
    pmix_free(p);
    pmix_free(NULL);

    memset(buf, 'Z', sizeof(buf));
    pmix_strncpy(buf, "hello", 3);
    printf("pmix_strncpy(3): \"%s\" next=%c\n", buf, buf[4]);
    memset(buf, 'Z', sizeof(buf));
    pmix_strncpy(buf, "hello", 10);
    printf("pmix_strncpy(10): \"%s\" next=%c\n", buf, buf[6]);
    memset(buf, 'Z', sizeof(buf));
    pmix_strncpy(buf, "", 10);
    printf("pmix_strncpy(empty): \"%s\" next=%c\n", buf, buf[1]);

    memset(big, 'x', sizeof(big));
    printf("pmix_keylen: NULL=%zu abc=%zu empty=%zu unterminated=%zu\n", pmix_keylen(NULL),
           pmix_keylen("abc"), pmix_keylen(""), pmix_keylen(big));
    printf("pmix_nslen: NULL=%zu abc=%zu empty=%zu unterminated=%zu\n", pmix_nslen(NULL),
           pmix_nslen("abc"), pmix_nslen(""), pmix_nslen(big));
}

static void keys_and_procs(void)
{
    pmix_info_t info;
    pmix_key_t key;
    pmix_nspace_t ns, ns2;
    pmix_proc_t a, b;
    char big[700];
    const char *nul = NULL;
    char *pa, *pb;

    printf("== keys, namespaces, process ids\n");
    memset(big, 'k', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';

    PMIX_INFO_CONSTRUCT(&info);
    PMIX_LOAD_KEY(info.key, "foo.bar");
    printf("CHECK_KEY: same=%d other=%d prefix=%d\n", PMIX_CHECK_KEY(&info, "foo.bar"),
           PMIX_CHECK_KEY(&info, "foo.baz"), PMIX_CHECK_KEY(&info, "foo"));
    printf("CHECK_RESERVED_KEY: pmix.x=%d pmi=%d foo=%d\n", PMIX_CHECK_RESERVED_KEY("pmix.x"),
           PMIX_CHECK_RESERVED_KEY("pmi"), PMIX_CHECK_RESERVED_KEY("foo"));

    memset(key, 'Q', sizeof(key));
    PMIX_LOAD_KEY(key, big);
    printf("LOAD_KEY(long): len=%zu last=%d\n", strlen(key), key[PMIX_MAX_KEYLEN]);
    PMIX_LOAD_KEY(key, nul);
    printf("LOAD_KEY(NULL): len=%zu tail=%d\n", strlen(key), key[PMIX_MAX_KEYLEN]);
    PMIX_LOAD_KEY(key, "short");
    show_str("LOAD_KEY", key);

    memset(ns, 'Q', sizeof(ns));
    PMIX_LOAD_NSPACE(ns, big);
    printf("LOAD_NSPACE(long): len=%zu\n", strlen(ns));
    PMIX_LOAD_NSPACE(ns, nul);
    printf("LOAD_NSPACE(NULL): len=%zu tail=%d\n", strlen(ns), ns[PMIX_MAX_NSLEN]);
    PMIX_LOAD_NSPACE(ns, "jobA");
    PMIX_LOAD_NSPACE(ns2, "jobB");
    show_str("LOAD_NSPACE", ns);
    pa = ns;
    pb = ns2;
    printf("CHECK_NSPACE: same=%d diff=%d", PMIX_CHECK_NSPACE(pa, pa), PMIX_CHECK_NSPACE(pa, pb));
    pb = NULL;
    printf(" null=%d", PMIX_CHECK_NSPACE(pa, pb));
    ns2[0] = '\0';
    pb = ns2;
    printf(" empty=%d\n", PMIX_CHECK_NSPACE(pa, pb));
    pb = NULL;
    printf("NSPACE_INVALID: NULL=%d empty=%d set=%d\n", PMIX_NSPACE_INVALID(pb),
           PMIX_NSPACE_INVALID(ns2), PMIX_NSPACE_INVALID(pa));

    PMIX_LOAD_PROCID(&a, "jobA", 3);
    printf("LOAD_PROCID: %s:%u\n", a.nspace, a.rank);
    memset(&b, 0xff, sizeof(b));
    PMIX_XFER_PROCID(&b, &a);
    printf("XFER_PROCID: %s:%u\n", b.nspace, b.rank);
    b.rank = 9;
    PMIX_PROCID_XFER(&b, &a);
    printf("PROCID_XFER: %s:%u\n", b.nspace, b.rank);
    printf("CHECK_PROCID: same=%d", PMIX_CHECK_PROCID(&a, &b));
    b.rank = 4;
    printf(" rank=%d", PMIX_CHECK_PROCID(&a, &b));
    b.rank = PMIX_RANK_WILDCARD;
    printf(" wild=%d", PMIX_CHECK_PROCID(&a, &b));
    PMIX_LOAD_PROCID(&b, "jobB", 3);
    printf(" ns=%d\n", PMIX_CHECK_PROCID(&a, &b));
    printf("CHECK_RANK: %d %d %d %d\n", PMIX_CHECK_RANK(1u, 1u), PMIX_CHECK_RANK(1u, 2u),
           PMIX_CHECK_RANK(PMIX_RANK_WILDCARD, 2u), PMIX_CHECK_RANK(1u, PMIX_RANK_WILDCARD));
    printf("PROCID_INVALID: ok=%d", PMIX_PROCID_INVALID(&a));
    a.rank = PMIX_RANK_INVALID;
    printf(" badrank=%d", PMIX_PROCID_INVALID(&a));
    a.rank = 0;
    a.nspace[0] = '\0';
    printf(" nons=%d\n", PMIX_PROCID_INVALID(&a));
}

static void argv_helpers(void)
{
    char **a = NULL, **b = NULL, **c;
    char *s;
    char longfield[1200];
    pmix_status_t rc;
    int n;

    printf("== argv\n");
    PMIX_ARGV_COUNT(n, a);
    printf("ARGV_COUNT(NULL) = %d\n", n);
    PMIX_ARGV_APPEND(rc, a, "one");
    printf("ARGV_APPEND rc=%d\n", rc);
    PMIX_ARGV_APPEND(rc, a, "two");
    PMIX_ARGV_PREPEND(rc, a, "zero");
    printf("ARGV_PREPEND rc=%d\n", rc);
    PMIX_ARGV_APPEND_UNIQUE(rc, &a, "two");
    printf("ARGV_APPEND_UNIQUE(dup) rc=%d\n", rc);
    PMIX_ARGV_APPEND_UNIQUE(rc, &a, "three");
    show_argv("argv", a);
    PMIX_ARGV_PREPEND(rc, b, "only");
    show_argv("PREPEND(NULL)", b);
    PMIX_ARGV_FREE(b);
    b = NULL;
    PMIX_ARGV_APPEND_UNIQUE(rc, &b, "first");
    show_argv("APPEND_UNIQUE(NULL)", b);
    printf("nosize: %d %d %d\n", pmix_argv_append_nosize(&b, "x"),
           pmix_argv_prepend_nosize(&b, "w"), pmix_argv_append_unique_nosize(&b, "x"));
    show_argv("nosize", b);
    printf("pmix_argv_count = %d\n", pmix_argv_count(b));

    PMIX_ARGV_JOIN(s, a, ',');
    show_str("ARGV_JOIN", s);
    free(s);
    s = pmix_argv_join(NULL, ',');
    show_str("join(NULL)", s);
    free(s);
    c = pmix_argv_copy(b);
    s = pmix_argv_join(c, ':');
    show_str("join(copy)", s);
    free(s);
    pmix_argv_free(c);

    PMIX_ARGV_COPY(c, a);
    show_argv("ARGV_COPY", c);
    PMIX_ARGV_FREE(c);
    PMIX_ARGV_COPY(c, NULL);
    show_argv("ARGV_COPY(NULL)", c);
    PMIX_ARGV_FREE(a);
    pmix_argv_free(b);
    pmix_argv_free(NULL);

    a = (char **) malloc(sizeof(char *));
    a[0] = NULL;
    c = pmix_argv_copy(a);
    show_argv("copy(empty)", c);
    s = pmix_argv_join(a, ',');
    show_str("join(empty)", s);
    free(s);
    pmix_argv_free(c);
    pmix_argv_free(a);

    PMIX_ARGV_SPLIT(a, "a,b,,c,", ',');
    show_argv("ARGV_SPLIT", a);
    s = pmix_argv_join(a, '+');
    show_str("join(split)", s);
    free(s);
    pmix_argv_free(a);
    a = pmix_argv_split_with_empty(",a,,b,", ',');
    show_argv("split_with_empty", a);
    pmix_argv_free(a);
    a = pmix_argv_split_with_empty(",,", ',');
    show_argv("split_with_empty(,,)", a);
    pmix_argv_free(a);
    a = pmix_argv_split("", ',');
    show_argv("split(empty)", a);
    a = pmix_argv_split(NULL, ',');
    show_argv("split(NULL)", a);
    a = pmix_argv_split(",,,", ',');
    show_argv("split(,,,)", a);
    a = pmix_argv_split_inter("x y  z", ' ', false);
    show_argv("split_inter(false)", a);
    pmix_argv_free(a);
    a = pmix_argv_split_inter("x y  z", ' ', true);
    show_argv("split_inter(true)", a);
    pmix_argv_free(a);
    memset(longfield, 'L', sizeof(longfield) - 1);
    longfield[sizeof(longfield) - 1] = '\0';
    longfield[600] = ';';
    a = pmix_argv_split(longfield, ';');
    printf("split(long): n=%d len0=%zu len1=%zu\n", pmix_argv_count(a), strlen(a[0]),
           strlen(a[1]));
    pmix_argv_free(a);
}

static void environment(void)
{
    char **env = NULL;
    char *big;
    pmix_status_t rc;
    const char *got;

    printf("== setenv\n");
    PMIX_SETENV(rc, "A", "1", &env);
    printf("SETENV(new) rc=%d\n", rc);
    PMIX_SETENV(rc, "AB", "2", &env);
    PMIX_SETENV(rc, "A", "3", &env);
    printf("SETENV(replace) rc=%d\n", rc);
    rc = pmix_setenv("AB", "4", false, &env);
    printf("setenv(no overwrite) rc=%d\n", rc);
    rc = pmix_setenv("ABC", NULL, false, &env);
    printf("setenv(NULL value) rc=%d\n", rc);
    rc = pmix_setenv("ABC", "5", true, NULL);
    printf("setenv(NULL env) rc=%d\n", rc);
    show_argv("env", env);

    big = (char *) malloc(100001);
    memset(big, 'v', 100000);
    big[100000] = '\0';
    rc = pmix_setenv("BIG", big, true, &env);
    printf("setenv(100000 chars) rc=%d count=%d\n", rc, pmix_argv_count(env));
    big[99995] = '\0';
    rc = pmix_setenv("BIG", big, true, &env);
    printf("setenv(99995 chars) rc=%d count=%d len=%zu\n", rc, pmix_argv_count(env),
           strlen(env[pmix_argv_count(env) - 1]));
    memset(big, 'w', 99998);
    big[99998] = '\0';
    rc = pmix_setenv("BIG", big, true, &env); /* "BIG=" + 99998 is cut to 99999 */
    printf("setenv(99998 chars) rc=%d count=%d len=%zu\n", rc, pmix_argv_count(env),
           strlen(env[pmix_argv_count(env) - 1]));
    free(big);
    pmix_argv_free(env);

    rc = pmix_setenv("PMIX_CTEST_MACROS_VAR", "on", true, &environ);
    got = getenv("PMIX_CTEST_MACROS_VAR");
    printf("setenv(environ) rc=%d value=%s\n", rc, got ? got : "NULL");
    rc = pmix_setenv("PMIX_CTEST_MACROS_VAR", "off", false, &environ);
    got = getenv("PMIX_CTEST_MACROS_VAR");
    printf("setenv(environ, keep) rc=%d value=%s\n", rc, got ? got : "NULL");
    rc = pmix_setenv("PMIX_CTEST_MACROS_VAR", NULL, true, &environ);
    got = getenv("PMIX_CTEST_MACROS_VAR");
    printf("setenv(environ, NULL) rc=%d value=%s\n", rc, got ? got : "NULL");
}

static void coords_and_topology(void)
{
    pmix_coord_t sc = PMIX_COORD_STATIC_INIT, c, dummy[2];
    pmix_coord_t *cp;
    pmix_cpuset_t scs = PMIX_CPUSET_STATIC_INIT, cs;
    pmix_cpuset_t *csp;
    pmix_topology_t st = PMIX_TOPOLOGY_STATIC_INIT, t;
    pmix_topology_t *tp;

    printf("== coord, cpuset, topology\n");
    printf("COORD_STATIC_INIT: view=%d coord=%d dims=%zu\n", sc.view, NULL != sc.coord,
           sc.dims);
    memset(&c, 0xff, sizeof(c));
    PMIX_COORD_CONSTRUCT(&c);
    printf("COORD_CONSTRUCT: view=%d coord=%d dims=%zu\n", c.view, NULL != c.coord, c.dims);
    /* the reference clears the memory `cp` points to before allocating: give it some */
    cp = dummy;
    PMIX_COORD_CREATE(cp, 1, 3);
    printf("COORD_CREATE(1,3): view=%d dims=%zu coord=%u,%u,%u\n", cp->view, cp->dims,
           cp->coord[0], cp->coord[1], cp->coord[2]);
    cp->view = PMIX_COORD_PHYSICAL_VIEW;
    PMIX_COORD_DESTRUCT(cp);
    printf("COORD_DESTRUCT: view=%d coord=%d dims=%zu\n", cp->view, NULL != cp->coord,
           cp->dims);
    cp->dims = 5;
    PMIX_COORD_DESTRUCT(cp);
    printf("COORD_DESTRUCT(no array): dims=%zu\n", cp->dims);
    free(cp);
    cp = dummy;
    PMIX_COORD_CREATE(cp, 1, 0);
    printf("COORD_CREATE(1,0): dims=%zu coord=%d\n", cp->dims, NULL != cp->coord);
    PMIX_COORD_FREE(cp, 1);
    printf("COORD_FREE: m=%d\n", NULL != cp);
    PMIX_COORD_CREATE(cp, 0, 3);
    printf("COORD_CREATE(0,3): m=%d\n", NULL != cp);

    printf("CPUSET_STATIC_INIT: %d %d\n", NULL != scs.source, NULL != scs.bitmap);
    memset(&cs, 0xff, sizeof(cs));
    PMIX_CPUSET_CONSTRUCT(&cs);
    printf("CPUSET_CONSTRUCT: %d %d\n", NULL != cs.source, NULL != cs.bitmap);
    PMIX_CPUSET_CREATE(csp, 2);
    printf("CPUSET_CREATE(2): %d %d %d\n", NULL != csp, NULL != csp[1].source,
           NULL != csp[1].bitmap);
    free(csp);
    PMIX_CPUSET_CREATE(csp, 0);
    printf("CPUSET_CREATE(0): %d\n", NULL != csp);

    printf("TOPOLOGY_STATIC_INIT: %d %d\n", NULL != st.source, NULL != st.topology);
    memset(&t, 0xff, sizeof(t));
    PMIX_TOPOLOGY_CONSTRUCT(&t);
    printf("TOPOLOGY_CONSTRUCT: %d %d\n", NULL != t.source, NULL != t.topology);
    PMIX_TOPOLOGY_CREATE(tp, 3);
    printf("TOPOLOGY_CREATE(3): %d %d %d\n", NULL != tp, NULL != tp[2].source,
           NULL != tp[2].topology);
    free(tp);
    PMIX_TOPOLOGY_CREATE(tp, 0);
    printf("TOPOLOGY_CREATE(0): %d\n", NULL != tp);
}

static void geometry_and_devices(void)
{
    pmix_geometry_t sg = PMIX_GEOMETRY_STATIC_INIT, g;
    pmix_geometry_t *gp;
    pmix_device_distance_t sd = PMIX_DEVICE_DIST_STATIC_INIT, d;
    pmix_device_distance_t *dp;
    pmix_coord_t dummy;
    size_t none = 0; /* a literal 0 makes GCC warn about the loop in the reference */

    printf("== geometry, device distance\n");
    printf("GEOMETRY_STATIC_INIT: %zu %d %d %d %zu\n", sg.fabric, NULL != sg.uuid,
           NULL != sg.osname, NULL != sg.coordinates, sg.ncoords);
    memset(&g, 0xff, sizeof(g));
    PMIX_GEOMETRY_CONSTRUCT(&g);
    printf("GEOMETRY_CONSTRUCT: %zu %d %d %d %zu\n", g.fabric, NULL != g.uuid,
           NULL != g.osname, NULL != g.coordinates, g.ncoords);
    g.uuid = strdup("uuid-1");
    g.osname = strdup("eth0");
    g.coordinates = &dummy;
    PMIX_COORD_CREATE(g.coordinates, 1, 2);
    g.ncoords = 1;
    PMIX_GEOMETRY_DESTRUCT(&g);
    printf("GEOMETRY_DESTRUCT: %d %d %d ncoords=%zu\n", NULL != g.uuid, NULL != g.osname,
           NULL != g.coordinates, g.ncoords);
    PMIX_GEOMETRY_CREATE(gp, 2);
    printf("GEOMETRY_CREATE(2): %d %zu %d\n", NULL != gp, gp[1].fabric, NULL != gp[1].uuid);
    gp[0].uuid = strdup("u0");
    gp[1].osname = strdup("o1");
    gp[1].coordinates = &dummy;
    PMIX_COORD_CREATE(gp[1].coordinates, 1, 4);
    gp[1].ncoords = 1;
    PMIX_GEOMETRY_FREE(gp, 2);
    printf("GEOMETRY_FREE: %d\n", NULL != gp);
    PMIX_GEOMETRY_CREATE(gp, 0);
    printf("GEOMETRY_CREATE(0): %d\n", NULL != gp);

    printf("DEVICE_DIST_STATIC_INIT: %d %d %llu %u %u\n", NULL != sd.uuid, NULL != sd.osname,
           (unsigned long long) sd.type, sd.mindist, sd.maxdist);
    memset(&d, 0xff, sizeof(d));
    PMIX_DEVICE_DIST_CONSTRUCT(&d);
    printf("DEVICE_DIST_CONSTRUCT: %d %d %llu %u %u\n", NULL != d.uuid, NULL != d.osname,
           (unsigned long long) d.type, d.mindist, d.maxdist);
    d.uuid = strdup("dev");
    d.osname = strdup("mlx5_0");
    PMIX_DEVICE_DIST_DESTRUCT(&d);
    printf("DEVICE_DIST_DESTRUCT: done\n");
    PMIX_DEVICE_DIST_CREATE(dp, 3);
    printf("DEVICE_DIST_CREATE(3): %d %u %u %llu\n", NULL != dp, dp[2].mindist, dp[2].maxdist,
           (unsigned long long) dp[2].type);
    dp[1].uuid = strdup("x");
    dp[2].osname = strdup("y");
    PMIX_DEVICE_DIST_FREE(dp, 3);
    printf("DEVICE_DIST_FREE: %d\n", NULL != dp);
    PMIX_DEVICE_DIST_CREATE(dp, none);
    printf("DEVICE_DIST_CREATE(0): %d\n", NULL != dp);
}

static void bytes_endpoints_envars(void)
{
    pmix_byte_object_t sb = PMIX_BYTE_OBJECT_STATIC_INIT, bo;
    pmix_byte_object_t *bp;
    pmix_endpoint_t se = PMIX_ENDPOINT_STATIC_INIT, e;
    pmix_endpoint_t *ep;
    pmix_envar_t sv = PMIX_ENVAR_STATIC_INIT, v;
    pmix_envar_t *vp;
    char *data;
    const char *nul = NULL;
    size_t sz;

    printf("== byte object, endpoint, envar\n");
    printf("BYTE_OBJECT_STATIC_INIT: %d %zu\n", NULL != sb.bytes, sb.size);
    memset(&bo, 0xff, sizeof(bo));
    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    printf("BYTE_OBJECT_CONSTRUCT: %d %zu\n", NULL != bo.bytes, bo.size);
    data = strdup("payload");
    sz = 8;
    PMIX_BYTE_OBJECT_LOAD(&bo, data, sz);
    printf("BYTE_OBJECT_LOAD: %s %zu; source %d %zu\n", bo.bytes, bo.size, NULL != data, sz);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    printf("BYTE_OBJECT_DESTRUCT: %d %zu\n", NULL != bo.bytes, bo.size);
    PMIX_BYTE_OBJECT_CREATE(bp, 2);
    printf("BYTE_OBJECT_CREATE(2): %d %d %zu\n", NULL != bp, NULL != bp[1].bytes, bp[1].size);
    bp[1].bytes = strdup("b1");
    bp[1].size = 3;
    PMIX_BYTE_OBJECT_FREE(bp, 2);
    printf("BYTE_OBJECT_FREE: %d\n", NULL != bp);
    PMIX_BYTE_OBJECT_CREATE(bp, 0);
    printf("BYTE_OBJECT_CREATE(0): %d\n", NULL != bp);

    printf("ENDPOINT_STATIC_INIT: %d %d %d %zu\n", NULL != se.uuid, NULL != se.osname,
           NULL != se.endpt.bytes, se.endpt.size);
    memset(&e, 0xff, sizeof(e));
    PMIX_ENDPOINT_CONSTRUCT(&e);
    printf("ENDPOINT_CONSTRUCT: %d %d %d %zu\n", NULL != e.uuid, NULL != e.osname,
           NULL != e.endpt.bytes, e.endpt.size);
    e.uuid = strdup("u");
    e.osname = strdup("o");
    e.endpt.bytes = strdup("addr");
    e.endpt.size = 5;
    PMIX_ENDPOINT_DESTRUCT(&e);
    printf("ENDPOINT_DESTRUCT: size=%zu\n", e.endpt.size);
    PMIX_ENDPOINT_CREATE(ep, 2);
    printf("ENDPOINT_CREATE(2): %d %d %zu\n", NULL != ep, NULL != ep[1].uuid, ep[1].endpt.size);
    ep[0].endpt.bytes = strdup("e0");
    ep[1].uuid = strdup("e1");
    PMIX_ENDPOINT_FREE(ep, 2);
    printf("ENDPOINT_FREE: %d\n", NULL != ep);
    PMIX_ENDPOINT_CREATE(ep, 0);
    printf("ENDPOINT_CREATE(0): %d\n", NULL != ep);

    printf("ENVAR_STATIC_INIT: %d %d %d\n", NULL != sv.envar, NULL != sv.value, sv.separator);
    memset(&v, 0xff, sizeof(v));
    PMIX_ENVAR_CONSTRUCT(&v);
    printf("ENVAR_CONSTRUCT: %d %d %d\n", NULL != v.envar, NULL != v.value, v.separator);
    PMIX_ENVAR_LOAD(&v, "PATH", "/bin", ':');
    printf("ENVAR_LOAD: %s %s %c\n", v.envar, v.value, v.separator);
    PMIX_ENVAR_DESTRUCT(&v);
    printf("ENVAR_DESTRUCT: %d %d %c\n", NULL != v.envar, NULL != v.value, v.separator);
    PMIX_ENVAR_LOAD(&v, nul, "only-value", ';');
    printf("ENVAR_LOAD(NULL name): %d %s %c\n", NULL != v.envar, v.value, v.separator);
    PMIX_ENVAR_DESTRUCT(&v);
    PMIX_ENVAR_CREATE(vp, 2);
    printf("ENVAR_CREATE(2): %d %d %d %d\n", NULL != vp, NULL != vp[1].envar,
           NULL != vp[1].value, vp[1].separator);
    PMIX_ENVAR_LOAD(&vp[1], "LD_LIBRARY_PATH", "/lib", ':');
    PMIX_ENVAR_FREE(vp, 2);
    /* ENVAR_FREE leaves the pointer as it was */
    printf("ENVAR_FREE: %d\n", NULL != vp);
    PMIX_ENVAR_CREATE(vp, 0);
    printf("ENVAR_CREATE(0): %d\n", NULL != vp);
}

static void data_buffers(void)
{
    pmix_data_buffer_t sb = PMIX_DATA_BUFFER_STATIC_INIT, b;
    pmix_data_buffer_t *bp;

    printf("== data buffer (no library calls)\n");
    printf("DATA_BUFFER_STATIC_INIT: %d %d %d %zu %zu\n", NULL != sb.base_ptr,
           NULL != sb.pack_ptr, NULL != sb.unpack_ptr, sb.bytes_allocated, sb.bytes_used);
    memset(&b, 0xff, sizeof(b));
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    printf("DATA_BUFFER_CONSTRUCT: %d %d %d %zu %zu\n", NULL != b.base_ptr, NULL != b.pack_ptr,
           NULL != b.unpack_ptr, b.bytes_allocated, b.bytes_used);
    b.base_ptr = (char *) malloc(16);
    b.pack_ptr = b.base_ptr + 4;
    b.unpack_ptr = b.base_ptr;
    b.bytes_allocated = 16;
    b.bytes_used = 4;
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    printf("DATA_BUFFER_DESTRUCT: %d %d %d %zu %zu\n", NULL != b.base_ptr, NULL != b.pack_ptr,
           NULL != b.unpack_ptr, b.bytes_allocated, b.bytes_used);
    PMIX_DATA_BUFFER_CREATE(bp);
    printf("DATA_BUFFER_CREATE: %d %d %zu\n", NULL != bp, NULL != bp->base_ptr,
           bp->bytes_allocated);
    bp->base_ptr = (char *) malloc(8);
    PMIX_DATA_BUFFER_RELEASE(bp);
    printf("DATA_BUFFER_RELEASE: %d\n", NULL != bp);
    PMIX_DATA_BUFFER_CREATE(bp);
    PMIX_DATA_BUFFER_RELEASE(bp);
}

static void procs(void)
{
    pmix_proc_t sp = PMIX_PROC_STATIC_INIT, p;
    pmix_proc_t *pp;
    pmix_proc_info_t si = PMIX_PROC_INFO_STATIC_INIT, pi;
    pmix_proc_info_t *pip;
    pmix_nspace_t t, c, n;
    char cl[200], nsn[200];

    printf("== proc, proc info, multicluster\n");
    printf("PROC_STATIC_INIT: \"%s\" %u\n", sp.nspace, sp.rank);
    memset(&p, 0xff, sizeof(p));
    PMIX_PROC_CONSTRUCT(&p);
    printf("PROC_CONSTRUCT: \"%s\" %u\n", p.nspace, p.rank);
    PMIX_PROC_LOAD(&p, "job", 12);
    printf("PROC_LOAD: \"%s\" %u\n", p.nspace, p.rank);
    PMIX_PROC_DESTRUCT(&p);
    printf("PROC_DESTRUCT: \"%s\" %u\n", p.nspace, p.rank);
    PMIX_PROC_CREATE(pp, 3);
    printf("PROC_CREATE(3): %d \"%s\" %u\n", NULL != pp, pp[2].nspace, pp[2].rank);
    PMIX_PROC_FREE(pp, 3);
    printf("PROC_FREE: %d\n", NULL != pp);
    PMIX_PROC_CREATE(pp, 1);
    PMIX_PROC_RELEASE(pp);
    printf("PROC_RELEASE: %d\n", NULL != pp);
    PMIX_PROC_CREATE(pp, 0);
    printf("PROC_CREATE(0): %d\n", NULL != pp);

    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, "clusterA", "job.1");
    show_str("MULTICLUSTER_NSPACE_CONSTRUCT", t);
    memset(c, 0, sizeof(c));
    memset(n, 0, sizeof(n));
    PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n);
    printf("MULTICLUSTER_NSPACE_PARSE: \"%s\" \"%s\"\n", c, n);
    memset(cl, 'c', sizeof(cl) - 1);
    cl[sizeof(cl) - 1] = '\0';
    memset(nsn, 'n', 54);
    nsn[54] = '\0';
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, cl, nsn); /* 199 + 54 = 253: fits */
    printf("MULTICLUSTER(253): len=%zu colon=%c\n", strlen(t), t[199]);
    nsn[55] = '\0';
    nsn[54] = 'n'; /* 199 + 55 = 254: fits */
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, cl, nsn);
    printf("MULTICLUSTER(254): len=%zu\n", strlen(t));
    nsn[55] = 'n';
    nsn[56] = '\0'; /* 199 + 56 = 255: does not */
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, cl, nsn);
    printf("MULTICLUSTER(255): len=%zu\n", strlen(t));
    memset(t, 0, sizeof(t));
    strcpy(t, "nocolon");
    memset(c, 0, sizeof(c));
    memset(n, 0, sizeof(n));
    PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n);
    printf("MULTICLUSTER_NSPACE_PARSE(no colon): \"%s\" \"%s\"\n", c, n);

    printf("PROC_INFO_STATIC_INIT: \"%s\" %u %d %d %d %d %d\n", si.proc.nspace, si.proc.rank,
           NULL != si.hostname, NULL != si.executable_name, (int) si.pid, si.exit_code,
           si.state);
    memset(&pi, 0xff, sizeof(pi));
    PMIX_PROC_INFO_CONSTRUCT(&pi);
    printf("PROC_INFO_CONSTRUCT: \"%s\" %u %d %d %d %d %d\n", pi.proc.nspace, pi.proc.rank,
           NULL != pi.hostname, NULL != pi.executable_name, (int) pi.pid, pi.exit_code,
           pi.state);
    pi.hostname = strdup("node1");
    pi.executable_name = strdup("a.out");
    pi.pid = 42;
    PMIX_PROC_INFO_DESTRUCT(&pi);
    printf("PROC_INFO_DESTRUCT: %d %d %d\n", NULL != pi.hostname, NULL != pi.executable_name,
           (int) pi.pid);
    PMIX_PROC_INFO_CREATE(pip, 2);
    printf("PROC_INFO_CREATE(2): %d %d %u\n", NULL != pip, NULL != pip[1].hostname,
           pip[1].proc.rank);
    pip[1].hostname = strdup("h");
    PMIX_PROC_INFO_FREE(pip, 2);
    /* PROC_INFO_FREE leaves the pointer as it was */
    printf("PROC_INFO_FREE: %d\n", NULL != pip);
    PMIX_PROC_INFO_CREATE(pip, 1);
    pip->executable_name = strdup("x");
    PMIX_PROC_INFO_RELEASE(pip);
    printf("PROC_INFO_RELEASE: %d\n", NULL != pip);
    PMIX_PROC_INFO_CREATE(pip, 0);
    printf("PROC_INFO_CREATE(0): %d\n", NULL != pip);
}

static void statistics(void)
{
    pmix_disk_stats_t sd = PMIX_DISK_STATS_STATIC_INIT, d;
    pmix_disk_stats_t *dp;
    pmix_net_stats_t sn = PMIX_NET_STATS_STATIC_INIT, n;
    pmix_net_stats_t *np;
    pmix_node_stats_t snd = PMIX_NODE_STATS_STATIC_INIT, nd;
    pmix_node_stats_t *ndp;
    pmix_proc_stats_t ps;
    pmix_proc_stats_t *psp;

    printf("== statistics\n");
#ifndef REF_HEADERS
    {
        pmix_proc_stats_t sps = PMIX_PROC_STATS_STATIC_INIT;
        CHECK(NULL == sps.node && NULL == sps.cmd && PMIX_RANK_UNDEF == sps.proc.rank &&
              0 == sps.processor && 0 == sps.sample_time.tv_sec);
    }
#endif
    memset(&ps, 0xff, sizeof(ps));
    PMIX_PROC_STATS_CONSTRUCT(&ps);
    printf("PROC_STATS_CONSTRUCT: %d %d %u %g\n", NULL != ps.node, NULL != ps.cmd, ps.proc.rank,
           ps.percent_cpu);
    ps.node = strdup("n");
    ps.cmd = strdup("c");
    PMIX_PROC_STATS_DESTRUCT(&ps);
    printf("PROC_STATS_DESTRUCT: %d %d\n", NULL != ps.node, NULL != ps.cmd);
    PMIX_PROC_STATS_CREATE(psp, 3);
    printf("PROC_STATS_CREATE(3): %d %d %d\n", NULL != psp, NULL != psp[2].cmd,
           (int) psp[2].pid);
    psp[0].node = strdup("n0");
    psp[2].cmd = strdup("c2");
    pmix_proc_stats_free(psp, 1);
    printf("pmix_proc_stats_free: %d %d\n", NULL != psp[0].node, NULL != psp[2].cmd);
    PMIX_PROC_STATS_FREE(psp, 3);
    printf("PROC_STATS_FREE: %d\n", NULL != psp);
    PMIX_PROC_STATS_CREATE(psp, 1);
    psp->node = strdup("n");
    PMIX_PROC_STATS_RELEASE(psp);
    printf("PROC_STATS_RELEASE: %d\n", NULL != psp);
    PMIX_PROC_STATS_CREATE(psp, 0);
    printf("PROC_STATS_CREATE(0): %d\n", NULL != psp);

    printf("DISK_STATS_STATIC_INIT: %d %llu\n", NULL != sd.disk,
           (unsigned long long) sd.weighted_milliseconds_io);
    memset(&d, 0xff, sizeof(d));
    PMIX_DISK_STATS_CONSTRUCT(&d);
    printf("DISK_STATS_CONSTRUCT: %d %llu\n", NULL != d.disk,
           (unsigned long long) d.num_reads_completed);
    d.disk = strdup("sda");
    PMIX_DISK_STATS_DESTRUCT(&d);
    printf("DISK_STATS_DESTRUCT: %d\n", NULL != d.disk);
    PMIX_DISK_STATS_CREATE(dp, 2);
    dp[1].disk = strdup("sdb");
    pmix_disk_stats_free(dp, 2);
    printf("pmix_disk_stats_free: %d\n", NULL != dp[1].disk);
    dp[0].disk = strdup("sdc");
    PMIX_DISK_STATS_FREE(dp, 2);
    printf("DISK_STATS_FREE: %d\n", NULL != dp);
    PMIX_DISK_STATS_CREATE(dp, 1);
    PMIX_DISK_STATS_RELEASE(dp);
    printf("DISK_STATS_RELEASE: %d\n", NULL != dp);

    printf("NET_STATS_STATIC_INIT: %d %llu\n", NULL != sn.net_interface,
           (unsigned long long) sn.num_send_errs);
    memset(&n, 0xff, sizeof(n));
    PMIX_NET_STATS_CONSTRUCT(&n);
    printf("NET_STATS_CONSTRUCT: %d %llu\n", NULL != n.net_interface,
           (unsigned long long) n.num_bytes_recvd);
    n.net_interface = strdup("eth0");
    PMIX_NET_STATS_DESTRUCT(&n);
    printf("NET_STATS_DESTRUCT: %d\n", NULL != n.net_interface);
    PMIX_NET_STATS_CREATE(np, 2);
    np[0].net_interface = strdup("ib0");
    pmix_net_stats_free(np, 2);
    printf("pmix_net_stats_free: %d\n", NULL != np[0].net_interface);
    np[1].net_interface = strdup("ib1");
    PMIX_NET_STATS_FREE(np, 2);
    printf("NET_STATS_FREE: %d\n", NULL != np);
    PMIX_NET_STATS_CREATE(np, 1);
    PMIX_NET_STATS_RELEASE(np);
    printf("NET_STATS_RELEASE: %d\n", NULL != np);

    printf("NODE_STATS_STATIC_INIT: %d %g %d %zu %d %zu\n", NULL != snd.node, snd.la,
           NULL != snd.diskstats, snd.ndiskstats, NULL != snd.netstats, snd.nnetstats);
    memset(&nd, 0xff, sizeof(nd));
    PMIX_NODE_STATS_CONSTRUCT(&nd);
    printf("NODE_STATS_CONSTRUCT: %d %g %d %zu\n", NULL != nd.node, nd.mapped,
           NULL != nd.diskstats, nd.nnetstats);
    nd.node = strdup("node");
    PMIX_DISK_STATS_CREATE(nd.diskstats, 2);
    nd.ndiskstats = 2;
    nd.diskstats[1].disk = strdup("sdz");
    PMIX_NET_STATS_CREATE(nd.netstats, 1);
    nd.nnetstats = 1;
    nd.netstats[0].net_interface = strdup("lo");
    PMIX_NODE_STATS_DESTRUCT(&nd);
    printf("NODE_STATS_DESTRUCT: %d %d %zu %d %zu\n", NULL != nd.node, NULL != nd.diskstats,
           nd.ndiskstats, NULL != nd.netstats, nd.nnetstats);
    PMIX_NODE_STATS_CREATE(ndp, 2);
    ndp[1].node = strdup("n1");
    PMIX_NET_STATS_CREATE(ndp[1].netstats, 1);
    ndp[1].nnetstats = 1;
    pmix_node_stats_free(ndp, 2);
    printf("pmix_node_stats_free: %d %d\n", NULL != ndp[1].node, NULL != ndp[1].netstats);
    PMIX_NODE_STATS_FREE(ndp, 2);
    printf("NODE_STATS_FREE: %d\n", NULL != ndp);
    PMIX_NODE_STATS_CREATE(ndp, 1);
    ndp->node = strdup("n");
    PMIX_NODE_STATS_RELEASE(ndp);
    /* NODE_STATS_RELEASE destructs but neither frees nor clears the pointer */
    printf("NODE_STATS_RELEASE: %d %d\n", NULL != ndp, NULL != ndp->node);
    free(ndp);
}

static void info_flags_and_booleans(void)
{
    pmix_info_t si = PMIX_INFO_STATIC_INIT, i;
    pmix_info_t *ip;
    pmix_value_t v;
    const char *strs[] = {"true", "TRUE", "yes", "Yesterday", "t", "1", "0", "42", " 0",
                          "  ", "", "no", "NO", "nope", "false", "False", "f", "maybe", "-1"};
    size_t k;

    printf("== info construction and flags\n");
    printf("INFO_STATIC_INIT: \"%s\" %u %u\n", si.key, si.flags, si.value.type);
    memset(&i, 0xff, sizeof(i));
    PMIX_INFO_CONSTRUCT(&i);
    printf("INFO_CONSTRUCT: \"%s\" %u %u\n", i.key, i.flags, i.value.type);
    PMIX_INFO_CREATE(ip, 3);
    printf("INFO_CREATE(3): flags %u %u %u\n", ip[0].flags, ip[1].flags, ip[2].flags);
    free(ip);
    PMIX_INFO_CREATE(ip, 1);
    printf("INFO_CREATE(1): flags %u end=%d\n", ip[0].flags, PMIX_INFO_IS_END(ip) ? 1 : 0);
    free(ip);
    PMIX_INFO_CREATE(ip, 0);
    printf("INFO_CREATE(0): %d\n", NULL != ip);

    i.flags = 0;
    printf("flags: req=%u opt=%d", PMIX_INFO_IS_REQUIRED(&i), PMIX_INFO_IS_OPTIONAL(&i));
    PMIX_INFO_REQUIRED(&i);
    printf(" | REQUIRED -> %u req=%u opt=%d", i.flags, PMIX_INFO_IS_REQUIRED(&i),
           PMIX_INFO_IS_OPTIONAL(&i));
    PMIX_INFO_OPTIONAL(&i);
    printf(" | OPTIONAL -> %u\n", i.flags);
    printf("processed=%u", PMIX_INFO_WAS_PROCESSED(&i));
    PMIX_INFO_PROCESSED(&i);
    printf(" -> %u (%u)\n", PMIX_INFO_WAS_PROCESSED(&i), i.flags);
    printf("end=%u", PMIX_INFO_IS_END(&i));
    PMIX_INFO_SET_END(&i);
    printf(" -> %u (%u)\n", PMIX_INFO_IS_END(&i), i.flags);
    printf("qualifier=%u", PMIX_INFO_IS_QUALIFIER(&i));
    PMIX_INFO_SET_QUALIFIER(&i);
    printf(" -> %u (%u)\n", PMIX_INFO_IS_QUALIFIER(&i), i.flags);
    printf("persistent=%u", PMIX_INFO_IS_PERSISTENT(&i));
    PMIX_INFO_SET_PERSISTENT(&i);
    printf(" -> %u (%u)\n", PMIX_INFO_IS_PERSISTENT(&i), i.flags);
    printf("REQUIRED value: %u\n", PMIX_INFO_REQUIRED(&i));
    printf("OPTIONAL value: %u\n", PMIX_INFO_OPTIONAL(&i));

    printf("== booleans\n");
    PMIX_VALUE_CONSTRUCT(&v);
    printf("undef: check=%u TRUE=%d BOOL=%d\n", pmix_check_true(&v), PMIX_CHECK_TRUE(&v),
           PMIX_CHECK_BOOL(&v));
    v.type = PMIX_BOOL;
    v.data.flag = true;
    printf("bool true: %u %d %d\n", pmix_check_true(&v), PMIX_CHECK_TRUE(&v),
           PMIX_CHECK_BOOL(&v));
    v.data.flag = false;
    printf("bool false: %u %d %d\n", pmix_check_true(&v), PMIX_CHECK_TRUE(&v),
           PMIX_CHECK_BOOL(&v));
    v.type = PMIX_STRING;
    v.data.string = NULL;
    printf("string NULL: %u %d %d\n", pmix_check_true(&v), PMIX_CHECK_TRUE(&v),
           PMIX_CHECK_BOOL(&v));
    for (k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
        v.data.string = (char *) strs[k];
        printf("string \"%s\": %u %d %d\n", strs[k], pmix_check_true(&v), PMIX_CHECK_TRUE(&v),
               PMIX_CHECK_BOOL(&v));
    }
    v.type = PMIX_INT;
    v.data.integer = 1;
    printf("int 1: %u %d %d\n", pmix_check_true(&v), PMIX_CHECK_TRUE(&v), PMIX_CHECK_BOOL(&v));

    PMIX_INFO_CONSTRUCT(&i);
    printf("INFO_TRUE(undef)=%d", PMIX_INFO_TRUE(&i));
    i.value.type = PMIX_BOOL;
    i.value.data.flag = false;
    printf(" (false)=%d", PMIX_INFO_TRUE(&i));
    i.value.type = PMIX_STRING;
    i.value.data.string = (char *) "yes";
    printf(" (\"yes\")=%d\n", PMIX_INFO_TRUE(&i));
}

static void values_without_library(void)
{
    pmix_value_t sv = PMIX_VALUE_STATIC_INIT, v;
    pmix_value_t *vp;
    pmix_status_t rc;
    long long n;
    double dn = 0;
    unsigned u = 0;

    printf("== values (no library calls)\n");
    printf("VALUE_STATIC_INIT: %u %d\n", sv.type, NULL != sv.data.ptr);
    memset(&v, 0xff, sizeof(v));
    PMIX_VALUE_CONSTRUCT(&v);
    printf("VALUE_CONSTRUCT: %u %d\n", v.type, NULL != v.data.ptr);
    PMIX_VALUE_CREATE(vp, 2);
    printf("VALUE_CREATE(2): %d %u %d\n", NULL != vp, vp[1].type, NULL != vp[1].data.ptr);
    free(vp);
    PMIX_VALUE_CREATE(vp, 0);
    printf("VALUE_CREATE(0): %d\n", NULL != vp);

#define GET(T, F, X) \
    v.type = T; \
    v.data.F = X; \
    n = -7; \
    PMIX_VALUE_GET_NUMBER(rc, &v, n, long long); \
    printf("GET_NUMBER(%s) rc=%d n=%lld\n", #T, rc, n)
    GET(PMIX_SIZE, size, 123456789012ULL);
    GET(PMIX_INT, integer, -5);
    GET(PMIX_INT8, int8, -8);
    GET(PMIX_INT16, int16, -16);
    GET(PMIX_INT32, int32, -32);
    GET(PMIX_INT64, int64, -64);
    GET(PMIX_UINT, uint, 4000000000u);
    GET(PMIX_UINT8, uint8, 255);
    GET(PMIX_UINT16, uint16, 65535);
    GET(PMIX_UINT32, uint32, 4294967295u);
    GET(PMIX_UINT64, uint64, 1ULL << 40);
    GET(PMIX_FLOAT, fval, 2.75f);
    GET(PMIX_DOUBLE, dval, -3.5);
    GET(PMIX_PID, pid, 1234);
    GET(PMIX_PROC_RANK, rank, 77);
    GET(PMIX_BOOL, flag, true);
    GET(PMIX_STRING, string, NULL);
#undef GET
    v.type = PMIX_FLOAT;
    v.data.fval = 1.25f;
    PMIX_VALUE_GET_NUMBER(rc, &v, dn, double);
    printf("GET_NUMBER(float as double) rc=%d %g\n", rc, dn);
    v.type = PMIX_INT;
    v.data.integer = -1;
    PMIX_VALUE_GET_NUMBER(rc, &v, u, unsigned);
    printf("GET_NUMBER(int as unsigned) rc=%d %u\n", rc, u);
}

static void apps_queries_regattrs(void)
{
    pmix_pdata_t sl = PMIX_LOOKUP_STATIC_INIT, pd;
    pmix_pdata_t *pdp;
    pmix_app_t sa = PMIX_APP_STATIC_INIT, a;
    pmix_app_t *ap;
    pmix_query_t sq = PMIX_QUERY_STATIC_INIT, q;
    pmix_query_t *qp;
    pmix_regattr_t sr = PMIX_REGATTR_STATIC_INIT, r, r2;
    pmix_regattr_t *rp;
    pmix_fabric_t sf = PMIX_FABRIC_STATIC_INIT, f;
    pmix_status_t rc;

    printf("== pdata, app, query, regattr, fabric (no library calls)\n");
    printf("LOOKUP_STATIC_INIT: \"%s\" %u \"%s\" %u\n", sl.proc.nspace, sl.proc.rank, sl.key,
           sl.value.type);
    memset(&pd, 0xff, sizeof(pd));
    PMIX_PDATA_CONSTRUCT(&pd);
    printf("PDATA_CONSTRUCT: \"%s\" %u \"%s\" %u\n", pd.proc.nspace, pd.proc.rank, pd.key,
           pd.value.type);
    PMIX_PDATA_CREATE(pdp, 2);
    printf("PDATA_CREATE(2): %d %u %u\n", NULL != pdp, pdp[1].proc.rank, pdp[1].value.type);
    free(pdp);
    PMIX_PDATA_CREATE(pdp, 0);
    printf("PDATA_CREATE(0): %d\n", NULL != pdp);

    printf("APP_STATIC_INIT: %d %d %d %d %d %d %zu\n", NULL != sa.cmd, NULL != sa.argv,
           NULL != sa.env, NULL != sa.cwd, sa.maxprocs, NULL != sa.info, sa.ninfo);
    memset(&a, 0xff, sizeof(a));
    PMIX_APP_CONSTRUCT(&a);
    printf("APP_CONSTRUCT: %d %d %d %d %d %d %zu\n", NULL != a.cmd, NULL != a.argv,
           NULL != a.env, NULL != a.cwd, a.maxprocs, NULL != a.info, a.ninfo);
    PMIX_APP_INFO_CREATE(&a, 2);
    printf("APP_INFO_CREATE(2): %d %zu flags=%u\n", NULL != a.info, a.ninfo, a.info[1].flags);
    free(a.info);
    PMIX_APP_CREATE(ap, 2);
    printf("APP_CREATE(2): %d %d %d\n", NULL != ap, NULL != ap[1].cmd, ap[1].maxprocs);
    free(ap);
    PMIX_APP_CREATE(ap, 0);
    printf("APP_CREATE(0): %d\n", NULL != ap);

    printf("QUERY_STATIC_INIT: %d %d %zu\n", NULL != sq.keys, NULL != sq.qualifiers, sq.nqual);
    memset(&q, 0xff, sizeof(q));
    PMIX_QUERY_CONSTRUCT(&q);
    printf("QUERY_CONSTRUCT: %d %d %zu\n", NULL != q.keys, NULL != q.qualifiers, q.nqual);
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 3);
    printf("QUERY_QUALIFIERS_CREATE(3): %d %zu flags=%u\n", NULL != q.qualifiers, q.nqual,
           q.qualifiers[2].flags);
    free(q.qualifiers);
    PMIX_QUERY_CREATE(qp, 2);
    printf("QUERY_CREATE(2): %d %d %zu\n", NULL != qp, NULL != qp[1].keys, qp[1].nqual);
    free(qp);
    PMIX_QUERY_CREATE(qp, 0);
    printf("QUERY_CREATE(0): %d\n", NULL != qp);

    printf("REGATTR_STATIC_INIT: %d \"%s\" %u %d\n", NULL != sr.name, sr.string, sr.type,
           NULL != sr.description);
    memset(&r, 0xff, sizeof(r));
    PMIX_REGATTR_CONSTRUCT(&r);
    printf("REGATTR_CONSTRUCT: %d \"%s\" %u %d\n", NULL != r.name, r.string, r.type,
           NULL != r.description);
    rp = NULL;
    PMIX_REGATTR_CONSTRUCT(rp); /* NULL is ignored */
    r.name = strdup("PMIX_FOO");
    PMIX_LOAD_KEY(r.string, "pmix.foo");
    r.type = PMIX_UINT32;
    r.description = pmix_argv_split("line one;line two", ';');
#ifndef REF_HEADERS
    {
        pmix_regattr_t rl;
        const char *nul = NULL;
        PMIX_REGATTR_CONSTRUCT(&rl);
        PMIX_REGATTR_LOAD(&rl, "PMIX_BAR", "pmix.bar", PMIX_STRING, "first");
        PMIX_REGATTR_LOAD(&rl, nul, nul, PMIX_BOOL, "second");
        CHECK(0 == strcmp(rl.name, "PMIX_BAR") && 0 == strcmp(rl.string, "pmix.bar") &&
              PMIX_BOOL == rl.type && 2 == pmix_argv_count(rl.description) &&
              0 == strcmp(rl.description[1], "second"));
        PMIX_REGATTR_DESTRUCT(&rl);
    }
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable" /* the reference's XFER has one */
    PMIX_REGATTR_XFER(&r2, &r);
#pragma GCC diagnostic pop
    printf("REGATTR_XFER: %s \"%s\" %u", r2.name, r2.string, r2.type);
    show_argv("", r2.description);
    PMIX_REGATTR_DESTRUCT(&r);
    PMIX_REGATTR_DESTRUCT(&r2);
    rp = NULL;
    PMIX_REGATTR_DESTRUCT(rp);
    PMIX_REGATTR_CREATE(rp, 2);
    printf("REGATTR_CREATE(2): %d %d \"%s\" %u\n", NULL != rp, NULL != rp[1].name,
           rp[1].string, rp[1].type);
    rp[1].name = strdup("n");
    PMIX_ARGV_APPEND(rc, rp[1].description, "d");
    PMIX_REGATTR_FREE(rp, 2);
    printf("REGATTR_FREE: %d (append rc=%d)\n", NULL != rp, rc);
    PMIX_REGATTR_CREATE(rp, 0);
    printf("REGATTR_CREATE(0): %d\n", NULL != rp);

    printf("FABRIC_STATIC_INIT: %d %zu %d %zu %d\n", NULL != sf.name, sf.index,
           NULL != sf.info, sf.ninfo, NULL != sf.module);
    memset(&f, 0xff, sizeof(f));
    PMIX_FABRIC_CONSTRUCT(&f);
    printf("FABRIC_CONSTRUCT: %d %zu %d %zu %d\n", NULL != f.name, f.index, NULL != f.info,
           f.ninfo, NULL != f.module);
}

static void data_array_init(void)
{
    pmix_data_array_t sd = PMIX_DATA_ARRAY_STATIC_INIT, d;

    printf("== data array init (no library calls)\n");
    printf("DATA_ARRAY_STATIC_INIT: %u %zu %d\n", sd.type, sd.size, NULL != sd.array);
    memset(&d, 0xff, sizeof(d));
    PMIX_DATA_ARRAY_INIT(&d, PMIX_STRING);
    printf("DATA_ARRAY_INIT: %u %zu %d\n", d.type, d.size, NULL != d.array);
}

int main(void)
{
    ctest_init();
    ranks_and_events();
    memory_and_strings();
    keys_and_procs();
    argv_helpers();
    environment();
    coords_and_topology();
    geometry_and_devices();
    bytes_endpoints_envars();
    data_buffers();
    procs();
    statistics();
    info_flags_and_booleans();
    values_without_library();
    apps_queries_regattrs();
    data_array_init();
    return 0;
}
