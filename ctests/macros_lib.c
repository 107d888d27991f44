/* The header macros that call library functions: PMIx_Value_*, PMIx_Info_load/xfer,
 * PMIx_Data_array_destruct, PMIx_Info_list_*, PMIx_Topology_destruct and
 * PMIx_Process_monitor_nb (PMIx_Heartbeat), and the release macros built on them
 * (PMIx_Data_load/unload: macros_buffer.c). Prints field values, never addresses. */

#include "common.h"

#pragma GCC diagnostic ignored "-Waddress" /* see macros.c */

static void show_value(const char *tag, const pmix_value_t *v)
{
    printf("%s: type=%u ", tag, v->type);
    switch (v->type) {
    case PMIX_UNDEF:
        printf("undef");
        break;
    case PMIX_BOOL:
        printf("bool %d", v->data.flag ? 1 : 0);
        break;
    case PMIX_INT:
        printf("int %d", v->data.integer);
        break;
    case PMIX_UINT32:
        printf("uint32 %u", v->data.uint32);
        break;
    case PMIX_SIZE:
        printf("size %zu", v->data.size);
        break;
    case PMIX_DOUBLE:
        printf("double %g", v->data.dval);
        break;
    case PMIX_STRING:
        printf("string %s", v->data.string ? v->data.string : "NULL");
        break;
    case PMIX_PROC:
        printf("proc %s:%u", v->data.proc->nspace, v->data.proc->rank);
        break;
    case PMIX_BYTE_OBJECT:
        printf("bytes %zu \"%.*s\"", v->data.bo.size, (int) v->data.bo.size, v->data.bo.bytes);
        break;
    case PMIX_POINTER:
        printf("pointer %s", v->data.ptr ? "set" : "NULL");
        break;
    case PMIX_DATA_ARRAY:
        printf("darray type=%u size=%zu", v->data.darray->type, v->data.darray->size);
        break;
    default:
        printf("(other)");
        break;
    }
    printf("\n");
}

static void show_info(const char *tag, const pmix_info_t *i)
{
    char t[600];
    snprintf(t, sizeof(t), "%s key=\"%s\" flags=%u", tag, i->key, i->flags);
    show_value(t, &i->value);
}

static void values(void)
{
    pmix_value_t v, w;
    pmix_value_t *vp = NULL, *vp2;
    pmix_status_t rc;
    pmix_proc_t p;
    pmix_byte_object_t bo;
    int x = -42, out = 0;
    void *data;
    size_t sz;

    printf("== values\n");
    PMIX_VALUE_CONSTRUCT(&v);
    rc = PMIX_VALUE_LOAD(&v, &x, PMIX_INT);
    printf("VALUE_LOAD rc=%d\n", rc);
    show_value("int", &v);
    data = &out;
    sz = 0;
    PMIX_VALUE_UNLOAD(rc, &v, &data, &sz);
    printf("VALUE_UNLOAD(int) rc=%d out=%d sz=%zu\n", rc, out, sz);
    PMIX_VALUE_DESTRUCT(&v);
    show_value("VALUE_DESTRUCT", &v);

    PMIX_VALUE_LOAD(&v, "text", PMIX_STRING);
    show_value("string", &v);
    data = NULL;
    PMIX_VALUE_UNLOAD(rc, &v, &data, &sz);
    printf("VALUE_UNLOAD(string) rc=%d \"%s\" sz=%zu\n", rc, (char *) data, sz);
    free(data);

    PMIX_VALUE_XFER(rc, vp, &v);
    printf("VALUE_XFER(NULL dest) rc=%d allocated=%d\n", rc, NULL != vp);
    show_value("xfer", vp);
    PMIX_VALUE_DESTRUCT(vp);
    PMIX_VALUE_XFER(rc, vp, &v);
    printf("VALUE_XFER(existing) rc=%d\n", rc);
    PMIX_VALUE_RELEASE(vp);
    printf("VALUE_RELEASE: %d\n", NULL != vp);

    PMIX_VALUE_CONSTRUCT(&w);
    PMIX_VALUE_XFER_DIRECT(rc, &w, &v);
    printf("VALUE_XFER_DIRECT rc=%d\n", rc);
    show_value("direct", &w);
    PMIX_VALUE_DESTRUCT(&w);
    PMIX_VALUE_DESTRUCT(&v);

    PMIX_PROC_LOAD(&p, "nsp", 5);
    PMIX_VALUE_LOAD(&v, &p, PMIX_PROC);
    show_value("proc", &v);
    PMIX_VALUE_DESTRUCT(&v);

    bo.bytes = (char *) "abcdef";
    bo.size = 6;
    PMIX_VALUE_LOAD(&v, &bo, PMIX_BYTE_OBJECT);
    show_value("bytes", &v);
    data = NULL;
    PMIX_VALUE_UNLOAD(rc, &v, &data, &sz);
    printf("VALUE_UNLOAD(bytes) rc=%d \"%.*s\" sz=%zu borrowed=%d\n", rc, (int) sz,
           (char *) data, sz, data == (void *) v.data.bo.bytes);
    PMIX_VALUE_DESTRUCT(&v); /* the unloaded bytes are the value's own */

    PMIX_VALUE_CREATE(vp2, 3);
    x = 1;
    PMIX_VALUE_LOAD(&vp2[0], &x, PMIX_INT);
    PMIX_VALUE_LOAD(&vp2[1], "s1", PMIX_STRING);
    PMIX_VALUE_LOAD(&vp2[2], &bo, PMIX_BYTE_OBJECT);
    show_value("array[1]", &vp2[1]);
    PMIX_VALUE_FREE(vp2, 3);
    printf("VALUE_FREE: %d\n", NULL != vp2);
}

static void infos(void)
{
    pmix_info_t i, j;
    pmix_info_t *ip;
    uint32_t u = 7;
    bool yes = true;
    char *kept;

    printf("== infos\n");
    PMIX_INFO_CONSTRUCT(&i);
    PMIX_INFO_LOAD(&i, "my.key", "val", PMIX_STRING);
    show_info("INFO_LOAD", &i);
    PMIX_INFO_REQUIRED(&i);
    PMIX_INFO_XFER(&j, &i);
    show_info("INFO_XFER", &j);
    PMIX_INFO_DESTRUCT(&j);
    show_info("INFO_DESTRUCT", &j);
    PMIX_INFO_DESTRUCT(&i);

    /* a persistent info keeps its value through DESTRUCT */
    PMIX_INFO_LOAD(&i, "keep", "mine", PMIX_STRING);
    PMIX_INFO_SET_PERSISTENT(&i);
    kept = i.value.data.string;
    PMIX_INFO_DESTRUCT(&i);
    show_info("INFO_DESTRUCT(persistent)", &i);
    free(kept);

    PMIX_INFO_CREATE(ip, 3);
    PMIX_INFO_LOAD(&ip[0], "a", &u, PMIX_UINT32);
    PMIX_INFO_LOAD(&ip[1], "b", "bee", PMIX_STRING);
    PMIX_INFO_LOAD(&ip[2], "c", &yes, PMIX_BOOL);
    show_info("ip[0]", &ip[0]);
    show_info("ip[2]", &ip[2]);
    printf("INFO_TRUE(ip[2])=%d CHECK_KEY=%d\n", PMIX_INFO_TRUE(&ip[2]),
           PMIX_CHECK_KEY(&ip[1], "b"));
    PMIX_INFO_FREE(ip, 3);
    printf("INFO_FREE: %d\n", NULL != ip);
}

static void pdatas(void)
{
    pmix_pdata_t a, b;
    pmix_pdata_t *pp;
    pmix_proc_t p;
    size_t sz = 99;

    printf("== pdata\n");
    PMIX_PROC_LOAD(&p, "pubns", 2);
    PMIX_PDATA_LOAD(&a, &p, "pub.key", "published", PMIX_STRING);
    printf("PDATA_LOAD: %s:%u key=%s\n", a.proc.nspace, a.proc.rank, a.key);
    show_value("PDATA_LOAD value", &a.value);
    PMIX_PDATA_XFER(&b, &a);
    printf("PDATA_XFER: %s:%u key=%s\n", b.proc.nspace, b.proc.rank, b.key);
    show_value("PDATA_XFER value", &b.value);
    PMIX_PDATA_DESTRUCT(&a);
    show_value("PDATA_DESTRUCT", &a.value);
    PMIX_PDATA_DESTRUCT(&b);

    PMIX_PDATA_CREATE(pp, 2);
    PMIX_PDATA_LOAD(&pp[0], &p, "k0", "v0", PMIX_STRING);
    PMIX_PDATA_LOAD(&pp[1], &p, "k1", &sz, PMIX_SIZE);
    show_value("pp[1]", &pp[1].value);
    pmix_pdata_free(pp, 1);
    show_value("pmix_pdata_free", &pp[0].value);
    PMIX_PDATA_FREE(pp, 2);
    printf("PDATA_FREE: %d\n", NULL != pp);

    PMIX_PDATA_CREATE(pp, 1);
    PMIX_PDATA_LOAD(pp, &p, "k", "v", PMIX_STRING);
    PMIX_PDATA_RELEASE(pp);
    printf("PDATA_RELEASE: %d\n", NULL != pp);
}

static void apps_and_queries(void)
{
    pmix_app_t a;
    pmix_app_t *ap;
    pmix_query_t q;
    pmix_query_t *qp;
    pmix_status_t rc;
    int n = 3;

    printf("== apps and queries\n");
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup("/bin/true");
    PMIX_ARGV_APPEND(rc, a.argv, "true");
    PMIX_ARGV_APPEND(rc, a.argv, "-x");
    PMIX_SETENV(rc, "FOO", "bar", &a.env);
    a.cwd = strdup("/tmp");
    a.maxprocs = 4;
    PMIX_APP_INFO_CREATE(&a, 2);
    PMIX_INFO_LOAD(&a.info[0], "i0", &n, PMIX_INT);
    PMIX_INFO_LOAD(&a.info[1], "i1", "str", PMIX_STRING);
    printf("app: rc=%d argc=%d env0=%s ninfo=%zu\n", rc, pmix_argv_count(a.argv), a.env[0],
           a.ninfo);
    PMIX_APP_DESTRUCT(&a);
    printf("APP_DESTRUCT: %d %d %d %d %d %d %zu\n", NULL != a.cmd, NULL != a.argv,
           NULL != a.env, NULL != a.cwd, a.maxprocs, NULL != a.info, a.ninfo);

    PMIX_APP_CREATE(ap, 2);
    ap[0].cmd = strdup("a");
    PMIX_APP_INFO_CREATE(&ap[1], 1);
    PMIX_INFO_LOAD(&ap[1].info[0], "k", "v", PMIX_STRING);
    pmix_app_free(ap, 1);
    printf("pmix_app_free: %d %d\n", NULL != ap[0].cmd, NULL != ap[1].info);
    PMIX_APP_FREE(ap, 2);
    printf("APP_FREE: %d\n", NULL != ap);
    PMIX_APP_CREATE(ap, 1);
    ap->cwd = strdup("/");
    PMIX_APP_RELEASE(ap);
    printf("APP_RELEASE: %d\n", NULL != ap);

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NUM_PSETS);
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, "ns", PMIX_STRING);
    printf("query: rc=%d nkeys=%d nqual=%zu\n", rc, pmix_argv_count(q.keys), q.nqual);
    PMIX_QUERY_DESTRUCT(&q);
    printf("QUERY_DESTRUCT: %d %d %zu\n", NULL != q.keys, NULL != q.qualifiers, q.nqual);
    PMIX_QUERY_CREATE(qp, 2);
    PMIX_ARGV_APPEND(rc, qp[1].keys, "k");
    PMIX_QUERY_QUALIFIERS_CREATE(&qp[0], 2);
    PMIX_INFO_LOAD(&qp[0].qualifiers[1], "q", "v", PMIX_STRING);
    PMIX_QUERY_FREE(qp, 2);
    printf("QUERY_FREE: %d\n", NULL != qp);
    PMIX_QUERY_CREATE(qp, 1);
    PMIX_ARGV_APPEND(rc, qp->keys, "k");
    PMIX_QUERY_RELEASE(qp);
    printf("QUERY_RELEASE: %d\n", NULL != qp);
}

static void data_arrays(void)
{
    #define T(x) {x, #x}
    static const struct {
        pmix_data_type_t type;
        const char *name;
    } types[] = {
        T(PMIX_INFO), T(PMIX_PROC), T(PMIX_PROC_INFO), T(PMIX_ENVAR), T(PMIX_VALUE),
        T(PMIX_PDATA), T(PMIX_QUERY), T(PMIX_APP), T(PMIX_BYTE_OBJECT),
        T(PMIX_COMPRESSED_STRING), T(PMIX_ALLOC_DIRECTIVE), T(PMIX_PROC_STATE),
        T(PMIX_PERSIST), T(PMIX_SCOPE), T(PMIX_DATA_RANGE), T(PMIX_BYTE), T(PMIX_INT8),
        T(PMIX_UINT8), T(PMIX_STRING), T(PMIX_SIZE), T(PMIX_PID), T(PMIX_INT), T(PMIX_UINT),
        T(PMIX_STATUS), T(PMIX_IOF_CHANNEL), T(PMIX_DATA_TYPE), T(PMIX_INT16), T(PMIX_UINT16),
        T(PMIX_PROC_RANK), T(PMIX_INFO_DIRECTIVES), T(PMIX_INT32), T(PMIX_UINT32),
        T(PMIX_INT64), T(PMIX_UINT64), T(PMIX_FLOAT), T(PMIX_DOUBLE), T(PMIX_TIMEVAL),
        T(PMIX_TIME), T(PMIX_REGATTR), T(PMIX_BOOL), T(PMIX_COORD), T(PMIX_LINK_STATE),
        T(PMIX_ENDPOINT), T(PMIX_PROC_NSPACE), T(PMIX_PROC_STATS), T(PMIX_DISK_STATS),
        T(PMIX_NET_STATS), T(PMIX_NODE_STATS), T(PMIX_DEVICE_DIST), T(PMIX_GEOMETRY),
        T(PMIX_PROC_CPUSET), T(PMIX_POINTER), T(PMIX_DATA_ARRAY), T(PMIX_TOPO),
        T(PMIX_LOCTYPE), T(PMIX_UNDEF)};
#undef T
    pmix_data_array_t d;
    pmix_data_array_t *dp;
    pmix_info_t *ip;
    char **sp;
    size_t k, none = 0; /* a literal 0 makes GCC warn about a loop in the reference */

    printf("== data arrays\n");
    for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
        memset(&d, 0xff, sizeof(d));
        PMIX_DATA_ARRAY_CONSTRUCT(&d, 3, types[k].type);
        printf("DATA_ARRAY_CONSTRUCT(3, %s): type=%u size=%zu array=%d",
               types[k].name, d.type, d.size, NULL != d.array);
        if (PMIX_INFO == types[k].type) {
            ip = (pmix_info_t *) d.array;
            printf(" flags=%u,%u,%u", ip[0].flags, ip[1].flags, ip[2].flags);
        }
        if (PMIX_DEVICE_DIST == types[k].type) {
            printf(" mindist=%u", ((pmix_device_distance_t *) d.array)[2].mindist);
        }
        printf("\n");
        if (NULL != d.array) { /* the reference crashes on an empty PMIX_DATA_ARRAY array */
            PMIX_DATA_ARRAY_DESTRUCT(&d);
        }
    }
    memset(&d, 0xff, sizeof(d));
    PMIX_DATA_ARRAY_CONSTRUCT(&d, none, PMIX_INFO);
    printf("DATA_ARRAY_CONSTRUCT(0): type=%u size=%zu array=%d\n", d.type, d.size,
           NULL != d.array);

    PMIX_DATA_ARRAY_CREATE(dp, 2, PMIX_STRING);
    printf("DATA_ARRAY_CREATE(2, string): type=%u size=%zu array=%d\n", dp->type, dp->size,
           NULL != dp->array);
    sp = (char **) dp->array;
    sp[0] = strdup("s0");
    sp[1] = strdup("s1");
    PMIX_DATA_ARRAY_FREE(dp);
    printf("DATA_ARRAY_FREE: %d\n", NULL != dp);
    dp = NULL;
    PMIX_DATA_ARRAY_FREE(dp);

    PMIX_DATA_ARRAY_CREATE(dp, 2, PMIX_INFO);
    ip = (pmix_info_t *) dp->array;
    PMIX_INFO_LOAD(&ip[0], "x", "y", PMIX_STRING);
    PMIX_INFO_LOAD(&ip[1], "z", &k, PMIX_SIZE);
    PMIX_DATA_ARRAY_DESTRUCT(dp);
    printf("DATA_ARRAY_DESTRUCT(info): size=%zu array=%d\n", dp->size, NULL != dp->array);
    free(dp);

    PMIX_DATA_ARRAY_CREATE(dp, 1, PMIX_ENVAR);
    PMIX_ENVAR_LOAD((pmix_envar_t *) dp->array, "E", "v", ':');
    PMIX_DATA_ARRAY_FREE(dp);
    printf("DATA_ARRAY_FREE(envar): %d\n", NULL != dp);
}

static void info_lists(void)
{
    void *list;
    pmix_info_t ins, xf;
    pmix_info_t *ip;
    pmix_data_array_t d;
    pmix_status_t rc;
    int n = 5;
    size_t k;

    printf("== info lists\n");
    PMIX_INFO_LIST_START(list);
    printf("INFO_LIST_START: %d\n", NULL != list);
    PMIX_INFO_LIST_ADD(rc, list, "l.int", &n, PMIX_INT);
    printf("INFO_LIST_ADD rc=%d\n", rc);
    PMIX_INFO_LIST_ADD(rc, list, "l.str", "s", PMIX_STRING);
    PMIX_INFO_LOAD(&ins, "l.ins", "inserted", PMIX_STRING);
    PMIX_INFO_LIST_INSERT(rc, list, &ins);
    printf("INFO_LIST_INSERT rc=%d\n", rc);
    PMIX_INFO_LOAD(&xf, "l.xfer", "copied", PMIX_STRING);
    PMIX_INFO_REQUIRED(&xf);
    PMIX_INFO_LIST_XFER(rc, list, &xf);
    printf("INFO_LIST_XFER rc=%d\n", rc);
    PMIX_INFO_DESTRUCT(&xf);
    PMIX_INFO_LIST_CONVERT(rc, list, &d);
    printf("INFO_LIST_CONVERT rc=%d type=%u size=%zu\n", rc, d.type, d.size);
    if (PMIX_SUCCESS == rc) {
        ip = (pmix_info_t *) d.array;
        for (k = 0; k < d.size; k++) {
            show_info("  ", &ip[k]);
        }
        if (NULL != d.array) { /* the reference crashes on an empty PMIX_DATA_ARRAY array */
            PMIX_DATA_ARRAY_DESTRUCT(&d);
        }
    }
    PMIX_INFO_LIST_RELEASE(list);
    PMIX_INFO_DESTRUCT(&ins);
    printf("INFO_LIST_RELEASE: done\n");
}

static void topology_heartbeat(void)
{
    pmix_topology_t t;

    printf("== topology, heartbeat\n");
    PMIX_TOPOLOGY_CONSTRUCT(&t);
    PMIX_TOPOLOGY_DESTRUCT(&t);
    printf("TOPOLOGY_DESTRUCT(empty): %d %d\n", NULL != t.source, NULL != t.topology);
    PMIx_Heartbeat();
    printf("PMIx_Heartbeat: done\n");
}

int main(void)
{
    ctest_init();
    values();
    infos();
    pdatas();
    apps_and_queries();
    data_arrays();
    info_lists();
    topology_heartbeat();
    return 0;
}
