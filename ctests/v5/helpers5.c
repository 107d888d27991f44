/* The functions OpenPMIx 5.0 made of 4.2's header macros, called directly with the same
 * inputs on both libraries (built against our headers, which declare them as 5.0's do; run
 * with OpenPMIx 5.0.11's library and with ours: ctests/v5/run.sh). Prints values, never
 * addresses. Inputs where we chose to differ from 5.0.11 (NULL arguments, PMIx_Coord_create
 * of several elements, docs/notes/abi-5.0.md) are left to the Rust unit tests. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmix.h>
#include <pmix_tool.h>

static void show_argv(const char *tag, char **a)
{
    int i;
    if (NULL == a) {
        printf("%s: NULL\n", tag);
        return;
    }
    printf("%s: %d [", tag, PMIx_Argv_count(a));
    for (i = 0; NULL != a[i]; i++) {
        printf("%s\"%s\"", i ? ", " : "", a[i]);
    }
    printf("]\n");
}

static void keys_and_ids(void)
{
    pmix_key_t k;
    pmix_nspace_t ns, cl, n2;
    pmix_proc_t a, b;
    char longkey[700];

    PMIx_Load_key(k, "pmix.job.size");
    printf("load_key: %s check %d %d reserved %d %d\n", k, PMIx_Check_key(k, "pmix.job.size"),
           PMIx_Check_key(k, "pmix.job"), PMIx_Check_reserved_key(k), PMIx_Check_reserved_key("mine"));
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    PMIx_Load_key(k, longkey);
    printf("long key: %zu check %d\n", strlen(k), PMIx_Check_key(k, longkey));
    PMIx_Load_key(k, NULL);
    printf("NULL key: [%s] %d\n", k, k[0]);

    PMIx_Load_nspace(ns, "job.1");
    printf("nspace: %s check %d %d %d %d invalid %d %d\n", ns, PMIx_Check_nspace(ns, "job.1"),
           PMIx_Check_nspace(ns, "job.2"), PMIx_Check_nspace(ns, ""), PMIx_Check_nspace(NULL, ns),
           PMIx_Nspace_invalid(ns), PMIx_Nspace_invalid(""));

    PMIx_Load_procid(&a, "job.1", 3);
    PMIx_Xfer_procid(&b, &a);
    printf("procid: %s %u check %d\n", b.nspace, b.rank, PMIx_Check_procid(&a, &b));
    b.rank = PMIX_RANK_WILDCARD;
    printf("wildcard: %d", PMIx_Check_procid(&a, &b));
    b.rank = 4;
    printf(" other rank: %d", PMIx_Check_procid(&a, &b));
    printf(" check_rank %d %d %d\n", PMIx_Check_rank(1, 1), PMIx_Check_rank(1, 2),
           PMIx_Check_rank(PMIX_RANK_WILDCARD, 2));
    b.rank = PMIX_RANK_INVALID;
    printf("invalid: %d %d", PMIx_Procid_invalid(&a), PMIx_Procid_invalid(&b));
    PMIx_Proc_construct(&b);
    printf(" constructed: [%s] %u %d\n", b.nspace, b.rank, PMIx_Procid_invalid(&b));
    PMIx_Proc_load(&b, "job.9", 9);
    printf("proc_load: %s %u", b.nspace, b.rank);
    PMIx_Proc_destruct(&b);
    printf(" destructed: [%s] %u\n", b.nspace, b.rank);

    PMIx_Load_nspace(cl, "clusterA");
    PMIx_Load_nspace(n2, "job.7");
    PMIx_Multicluster_nspace_construct(ns, cl, n2);
    printf("multicluster: %s", ns);
    memset(cl, 0, sizeof cl);
    memset(n2, 0, sizeof n2);
    PMIx_Multicluster_nspace_parse(ns, cl, n2);
    printf(" -> %s + %s\n", cl, n2);
}

static void argv_env(void)
{
    char **a = NULL, **c, *j;
    char **env = NULL;
    pmix_status_t rc;

    PMIx_Argv_append_nosize(&a, "b");
    PMIx_Argv_append_nosize(&a, "c");
    PMIx_Argv_prepend_nosize(&a, "a");
    PMIx_Argv_append_unique_nosize(&a, "b");
    rc = PMIx_Argv_append_unique_nosize(&a, "d");
    show_argv("argv", a);
    printf("unique rc %d count NULL %d\n", rc, PMIx_Argv_count(NULL));
    j = PMIx_Argv_join(a, ',');
    printf("join: %s\n", j);
    c = PMIx_Argv_copy(a);
    show_argv("copy", c);
    PMIx_Argv_free(c);
    PMIx_Argv_free(a);
    free(j);
    j = PMIx_Argv_join(NULL, ':');
    printf("join NULL: [%s]\n", j);
    free(j);

    const char *inputs[] = {"a,b,,c", ",a,", "", ",", "one", "x,,", NULL};
    for (int i = 0; NULL != inputs[i]; i++) {
        char tag[64];
        snprintf(tag, sizeof tag, "split \"%s\"", inputs[i]);
        a = PMIx_Argv_split(inputs[i], ',');
        show_argv(tag, a);
        PMIx_Argv_free(a);
        snprintf(tag, sizeof tag, "split_with_empty \"%s\"", inputs[i]);
        a = PMIx_Argv_split_with_empty(inputs[i], ',');
        show_argv(tag, a);
        PMIx_Argv_free(a);
        a = PMIx_Argv_split_inter(inputs[i], ',', true);
        c = PMIx_Argv_split_with_empty(inputs[i], ',');
        printf("  inter==with_empty: %d\n", PMIx_Argv_count(a) == PMIx_Argv_count(c));
        PMIx_Argv_free(a);
        PMIx_Argv_free(c);
    }
    a = PMIx_Argv_split(NULL, ',');
    show_argv("split NULL", a);
    c = PMIx_Argv_copy(NULL);
    show_argv("copy NULL", c);

    rc = PMIx_Setenv("A", "1", false, &env);
    printf("setenv A: %d", rc);
    rc = PMIx_Setenv("B", NULL, false, &env);
    printf(" B: %d", rc);
    rc = PMIx_Setenv("A", "2", false, &env);
    printf(" A again: %d", rc);
    rc = PMIx_Setenv("A", "3", true, &env);
    printf(" A overwrite: %d", rc);
    rc = PMIx_Setenv("AB", "4", false, &env);
    printf(" AB: %d\n", rc);
    show_argv("env", env);
    PMIx_Argv_free(env);
    printf("setenv NULL env: %d\n", PMIx_Setenv("A", "1", true, NULL));

    extern char **environ;
    rc = PMIx_Setenv("CTEST_V5_VAR", "yes", true, &environ);
    printf("setenv environ: %d [%s]", rc, getenv("CTEST_V5_VAR"));
    rc = PMIx_Setenv("CTEST_V5_VAR", "no", false, &environ);
    printf(" keep: %d [%s]", rc, getenv("CTEST_V5_VAR"));
    rc = PMIx_Setenv("CTEST_V5_VAR", NULL, true, &environ);
    printf(" unset: %d [%s]\n", rc, getenv("CTEST_V5_VAR") ? "set" : "unset");
}

static void info_flags_and_truth(void)
{
    pmix_info_t *info = PMIx_Info_create(3);
    pmix_value_t v;
    const char *strs[] = {"", "  ", "0", "12", " 7x", "yes", "TRUE", "no", "False", "maybe", "-1", NULL};
    bool t = true, f = false;
    int i = 5;

    printf("info_create: flags %u %u %u (array end not set) type %u key [%s]\n", info[0].flags,
           info[1].flags, info[2].flags, info[2].value.type, info[0].key);
    PMIx_Info_required(&info[0]);
    printf("required %d optional %d", PMIx_Info_is_required(&info[0]), PMIx_Info_is_optional(&info[0]));
    PMIx_Info_optional(&info[0]);
    printf(" -> %d %d", PMIx_Info_is_required(&info[0]), PMIx_Info_is_optional(&info[0]));
    PMIx_Info_processed(&info[0]);
    PMIx_Info_set_end(&info[1]);
    PMIx_Info_qualifier(&info[1]);
    printf(" processed %d end %d %d qualifier %d %d flags %u %u\n", PMIx_Info_was_processed(&info[0]),
           PMIx_Info_is_end(&info[1]), PMIx_Info_is_end(&info[0]), PMIx_Info_is_qualifier(&info[1]),
           PMIx_Info_is_qualifier(&info[0]), info[0].flags, info[1].flags);

    PMIx_Value_construct(&v);
    printf("truth: undef %u", PMIx_Value_true(&v));
    PMIx_Value_load(&v, &t, PMIX_BOOL);
    printf(" true %u", PMIx_Value_true(&v));
    PMIx_Value_load(&v, &f, PMIX_BOOL);
    printf(" false %u", PMIx_Value_true(&v));
    PMIx_Value_load(&v, &i, PMIX_INT);
    printf(" int %u\n", PMIx_Value_true(&v));
    for (int n = 0; NULL != strs[n]; n++) {
        PMIx_Value_load(&v, strs[n], PMIX_STRING);
        printf("  \"%s\" -> %u\n", strs[n], PMIx_Value_true(&v));
        PMIx_Value_destruct(&v);
    }
    PMIx_Info_load(&info[2], "flag", "yes", PMIX_STRING);
    printf("info_true %u\n", PMIx_Info_true(&info[2]));

    /* persistent: destruct leaves the value to its owner */
    char *owned = strdup("kept");
    info[1].value.type = PMIX_STRING;
    info[1].value.data.string = owned;
    PMIx_Info_persistent(&info[1]);
    printf("persistent %d", PMIx_Info_is_persistent(&info[1]));
    PMIx_Info_destruct(&info[1]);
    printf(" after destruct: %s\n", owned);
    free(owned);
    info[1].value.type = PMIX_UNDEF;
    PMIx_Info_free(info, 3);

    pmix_info_t one;
    PMIx_Info_construct(&one);
    PMIx_Info_load(&one, "k", "v", PMIX_STRING);
    PMIx_Info_destruct(&one);
    printf("info destruct: type %u\n", one.value.type);

    pmix_value_t *vals = PMIx_Value_create(2);
    printf("value_create: %u %u create(0) %s\n", vals[0].type, vals[1].type,
           PMIx_Value_create(0) ? "non-NULL" : "NULL");
    PMIx_Value_load(&vals[1], "s", PMIX_STRING);
    PMIx_Value_free(vals, 2);
}

static void families(void)
{
    pmix_coord_t *co = PMIx_Coord_create(3, 1);
    printf("coord: view %d dims %zu [%u %u %u]", co->view, co->dims, co->coord[0], co->coord[1], co->coord[2]);
    PMIx_Coord_destruct(co);
    printf(" destructed dims %zu coord %s\n", co->dims, co->coord ? "set" : "NULL");
    PMIx_Coord_construct(co);
    PMIx_Coord_free(co, 1);

    pmix_device_distance_t *dd = PMIx_Device_distance_create(2);
    printf("devdist: type %llu min %u max %u\n", (unsigned long long)dd[1].type, dd[1].mindist, dd[1].maxdist);
    dd[0].uuid = strdup("u");
    dd[0].osname = strdup("eth0");
    PMIx_Device_distance_free(dd, 2);

    pmix_proc_info_t *pi = PMIx_Proc_info_create(1);
    printf("proc_info: state %d rank %u\n", pi->state, pi->proc.rank);
    pi->hostname = strdup("h");
    PMIx_Proc_info_destruct(pi);
    printf("proc_info destructed: host %s\n", pi->hostname ? "set" : "NULL");
    PMIx_Proc_info_free(pi, 1);

    pmix_proc_t *pr = PMIx_Proc_create(2);
    printf("proc_create: rank %u %u\n", pr[0].rank, pr[1].rank);
    PMIx_Proc_free(pr, 2);

    pmix_byte_object_t bo;
    PMIx_Byte_object_construct(&bo);
    PMIx_Byte_object_load(&bo, strdup("abc"), 3);
    printf("byte_object: %zu %.3s\n", bo.size, bo.bytes);
    PMIx_Byte_object_destruct(&bo);
    printf("byte_object destructed: %zu %s\n", bo.size, bo.bytes ? "set" : "NULL");
    PMIx_Byte_object_free(PMIx_Byte_object_create(2), 2);

    pmix_envar_t *ev = PMIx_Envar_create(1);
    PMIx_Envar_load(ev, "PATH", "/bin", ':');
    printf("envar: %s %s %c\n", ev->envar, ev->value, ev->separator);
    PMIx_Envar_destruct(ev);
    printf("envar destructed: %s\n", ev->envar ? "set" : "NULL");
    PMIx_Envar_free(ev, 1);

    pmix_app_t *app = PMIx_App_create(1);
    app->cmd = strdup("hostname");
    PMIx_Argv_append_nosize(&app->argv, "hostname");
    PMIx_App_info_create(app, 2);
    printf("app: ninfo %zu info[1] flags %u maxprocs %d\n", app->ninfo, app->info[1].flags, app->maxprocs);
    PMIx_Info_load(&app->info[0], "k", "v", PMIX_STRING);
    PMIx_App_release(app);
    app = PMIx_App_create(2);
    PMIx_App_construct(&app[1]);
    PMIx_App_destruct(&app[0]);
    PMIx_App_free(app, 2);

    pmix_query_t *q = PMIx_Query_create(1);
    PMIx_Argv_append_nosize(&q->keys, "pmix.qry.ns");
    PMIx_Query_qualifiers_create(q, 1);
    printf("query: nqual %zu\n", q->nqual);
    PMIx_Query_release(q);
    q = PMIx_Query_create(1);
    PMIx_Query_construct(q);
    PMIx_Query_destruct(q);
    PMIx_Query_free(q, 1);

    pmix_regattr_t *ra = PMIx_Regattr_create(1), rb;
    printf("regattr: type %u string [%s]\n", ra->type, ra->string);
    PMIx_Regattr_load(ra, "PMIX_JOB_SIZE", "pmix.job.size", PMIX_UINT32, "size of the job");
    PMIx_Regattr_load(ra, NULL, NULL, PMIX_UINT32, "second line");
    PMIx_Regattr_xfer(&rb, ra);
    printf("regattr: %s %s %u", rb.name, rb.string, rb.type);
    show_argv(" description", rb.description);
    PMIx_Regattr_destruct(&rb);
    PMIx_Regattr_construct(&rb);
    PMIx_Regattr_free(ra, 1);

    pmix_pdata_t *pd = PMIx_Pdata_create(1);
    printf("pdata: rank %u type %u\n", pd->proc.rank, pd->value.type);
    PMIx_Pdata_construct(pd);
    PMIx_Pdata_destruct(pd);
    PMIx_Pdata_free(pd, 1);

    pmix_data_array_t da, *dap;
    PMIx_Data_array_init(&da, PMIX_STRING);
    printf("darray init: type %u size %zu array %s\n", da.type, da.size, da.array ? "set" : "NULL");
    PMIx_Data_array_construct(&da, 3, PMIX_PROC);
    printf("darray proc: size %zu rank %u\n", da.size, ((pmix_proc_t *)da.array)[2].rank);
    PMIx_Data_array_destruct(&da);
    PMIx_Data_array_construct(&da, 2, PMIX_UINT64);
    printf("darray u64: size %zu [%llu]\n", da.size, (unsigned long long)((uint64_t *)da.array)[1]);
    PMIx_Data_array_destruct(&da);
    PMIx_Data_array_construct(&da, 0, PMIX_INFO);
    printf("darray empty: size %zu %s\n", da.size, da.array ? "set" : "NULL");
    dap = PMIx_Data_array_create(2, PMIX_INFO);
    printf("darray create: size %zu type %u flags %u\n", dap->size, dap->type, ((pmix_info_t *)dap->array)[1].flags);
    PMIx_Info_load(&((pmix_info_t *)dap->array)[0], "k", "v", PMIX_STRING);
    PMIx_Data_array_free(dap);
    printf("darray create(0): %s\n", PMIx_Data_array_create(0, PMIX_INFO) ? "set" : "NULL");

    /* raw bytes in and out (packing needs an initialized 5.0.11 library) */
    pmix_data_buffer_t *db = PMIx_Data_buffer_create(), db2;
    char *bytes;
    size_t sz;
    printf("dbuf create: %zu %s\n", db->bytes_used, db->base_ptr ? "set" : "NULL");
    PMIx_Data_buffer_load(db, strdup("abcd"), 4);
    printf("dbuf load: %zu used\n", db->bytes_used);
    PMIx_Data_buffer_unload(db, &bytes, &sz);
    printf("dbuf unload: %zu bytes %.4s, left %zu\n", sz, bytes, db->bytes_used);
    PMIx_Data_buffer_construct(&db2);
    PMIx_Data_buffer_load(&db2, bytes, sz);
    PMIx_Data_buffer_destruct(&db2);
    printf("dbuf destructed: %zu %s\n", db2.bytes_used, db2.base_ptr ? "set" : "NULL");
    PMIx_Data_buffer_release(db);

    pmix_proc_stats_t *ps = PMIx_Proc_stats_create(1);
    ps->node = strdup("n");
    ps->cmd = strdup("c");
    PMIx_Proc_stats_destruct(ps);
    PMIx_Proc_stats_construct(ps);
    PMIx_Proc_stats_free(ps, 1);
    pmix_disk_stats_t *ds = PMIx_Disk_stats_create(1);
    ds->disk = strdup("sda");
    PMIx_Disk_stats_destruct(ds);
    PMIx_Disk_stats_construct(ds);
    PMIx_Disk_stats_free(ds, 1);
    pmix_net_stats_t *ns = PMIx_Net_stats_create(1);
    ns->net_interface = strdup("eth0");
    PMIx_Net_stats_destruct(ns);
    PMIx_Net_stats_construct(ns);
    PMIx_Net_stats_free(ns, 1);
    pmix_node_stats_t *nd = PMIx_Node_stats_create(1);
    nd->node = strdup("n");
    nd->diskstats = PMIx_Disk_stats_create(2);
    nd->ndiskstats = 2;
    nd->diskstats[1].disk = strdup("sdb");
    PMIx_Node_stats_destruct(nd);
    printf("node_stats destructed: ndisk %zu\n", nd->ndiskstats);
    PMIx_Node_stats_construct(nd);
    PMIx_Node_stats_free(nd, 1);

    pmix_geometry_t *g = PMIx_Geometry_create(1);
    g->uuid = strdup("g");
    g->coordinates = PMIx_Coord_create(2, 1);
    g->ncoords = 1;
    PMIx_Geometry_destruct(g);
    PMIx_Geometry_construct(g);
    PMIx_Geometry_free(g, 1);
    pmix_endpoint_t *e = PMIx_Endpoint_create(1);
    e->uuid = strdup("e");
    e->endpt.bytes = strdup("xy");
    e->endpt.size = 2;
    PMIx_Endpoint_destruct(e);
    PMIx_Endpoint_construct(e);
    PMIx_Endpoint_free(e, 1);
    pmix_topology_t *tp = PMIx_Topology_create(1);
    printf("topology: %s\n", tp->source ? "set" : "NULL");
    PMIx_Topology_construct(tp);
    PMIx_Topology_free(tp, 1);
    pmix_cpuset_t *cs = PMIx_Cpuset_create(1);
    printf("cpuset: %s\n", cs->bitmap ? "set" : "NULL");
    PMIx_Cpuset_construct(cs);
    PMIx_Cpuset_free(cs, 1);
    printf("create(0): %s %s %s\n", PMIx_Proc_create(0) ? "set" : "NULL", PMIx_Info_create(0) ? "set" : "NULL",
           PMIx_Coord_create(2, 0) ? "set" : "NULL");
}

static void strings_sizes_lists(void)
{
    const char *names[] = {"PMIX_SUCCESS", "pmix_err_not_found", "PMIX_ERR_UNREACH", "PMIX_ERROR",
                           "PMIX_ERR_JOB_TERMINATED", "PMIX_EVENT_JOB_END", "PMIX_ERR_DEBUGGER_RELEASE",
                           "PMIX_DEBUGGER_RELEASE", "PMIX_EVENT_ACTION_COMPLETE", "", NULL};
    /* 4.2's texts ("NOT-FOUND"), which ours takes and 5.0.11 does not: tests/tests/abi5.rs */
    for (int i = 0; NULL != names[i]; i++) {
        printf("error_code %s: %d\n", names[i], PMIx_Error_code(names[i]));
    }

    pmix_proc_t p;
    pmix_rank_t ranks[] = {0, 17, PMIX_RANK_WILDCARD, PMIX_RANK_UNDEF, PMIX_RANK_INVALID,
                           PMIX_RANK_LOCAL_NODE, PMIX_RANK_LOCAL_PEERS};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        PMIx_Load_procid(&p, "job.1", ranks[i]);
        char *t = PMIx_Proc_string(&p);
        printf("proc_string: %s\n", t);
        free(t);
    }
    char *t = PMIx_Proc_string(NULL);
    printf("proc_string NULL: %s\n", t);
    free(t);

    pmix_app_t app;
    PMIx_App_construct(&app);
    app.cmd = strdup("hostname");
    PMIx_Argv_append_nosize(&app.argv, "hostname");
    PMIx_Argv_append_nosize(&app.argv, "-f");
    PMIx_Argv_append_nosize(&app.env, "A=1");
    app.maxprocs = 3;
    t = PMIx_App_string(&app);
    printf("app_string:\n%s\n", t);
    free(t);
    app.cwd = strdup("/tmp");
    PMIx_Argv_free(app.env);
    app.env = NULL;
    t = PMIx_App_string(&app);
    printf("app_string 2:\n%s\n", t);
    free(t);
    PMIx_App_destruct(&app);

    /* sizes of values and infos */
    pmix_value_t v;
    size_t sz;
    pmix_status_t rc;
    uint32_t u32 = 7;
    uint64_t u64 = 9;
    pmix_proc_t pr;
    pmix_byte_object_t bo = {.bytes = "abcdef", .size = 6};
    PMIx_Load_procid(&pr, "job.1", 2);
    PMIx_Value_construct(&v);
    sz = 12345;
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size undef: %d\n", rc);
    PMIx_Value_load(&v, &u32, PMIX_UINT32);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size uint32: %d %zu\n", rc, sz);
    PMIx_Value_load(&v, &u64, PMIX_UINT64);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size uint64: %d %zu\n", rc, sz);
    PMIx_Value_load(&v, "hello", PMIX_STRING);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size string: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    PMIx_Value_load(&v, &pr, PMIX_PROC);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size proc: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    PMIx_Value_load(&v, &bo, PMIX_BYTE_OBJECT);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size bo: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    pmix_envar_t ev = {.envar = "PATH", .value = "/bin", .separator = ':'};
    PMIx_Value_load(&v, &ev, PMIX_ENVAR);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size envar: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    pmix_data_array_t *da = PMIx_Data_array_create(3, PMIX_STRING);
    ((char **)da->array)[0] = strdup("a");
    ((char **)da->array)[2] = strdup("abc");
    PMIx_Value_load(&v, da, PMIX_DATA_ARRAY);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size string array: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    PMIx_Data_array_free(da);
    da = PMIx_Data_array_create(2, PMIX_PROC);
    PMIx_Value_load(&v, da, PMIX_DATA_ARRAY);
    rc = PMIx_Value_get_size(&v, &sz);
    printf("size proc array: %d %zu\n", rc, sz);
    PMIx_Value_destruct(&v);
    PMIx_Data_array_free(da);

    pmix_info_t info;
    PMIx_Info_construct(&info);
    PMIx_Info_load(&info, "pmix.job.size", &u32, PMIX_UINT32);
    rc = PMIx_Info_get_size(&info, &sz);
    printf("info size: %d %zu\n", rc, sz);
    PMIx_Info_destruct(&info);

    /* info lists */
    void *list = PMIx_Info_list_start(), *next = NULL;
    pmix_data_array_t out;
    pmix_value_t val;
    PMIx_Info_list_add(list, "k1", "v1", PMIX_STRING);
    PMIx_Info_list_add_unique(list, "k1", "v1b", PMIX_STRING, false);
    PMIx_Info_list_add_unique(list, "k2", &u32, PMIX_UINT32, false);
    PMIx_Info_list_add_unique(list, "k2", &u64, PMIX_UINT64, true);
    PMIx_Info_list_prepend(list, "k0", "first", PMIX_STRING);
    PMIx_Value_construct(&val);
    PMIx_Value_load(&val, "val", PMIX_STRING);
    PMIx_Info_list_add_value(list, "k3", &val);
    PMIx_Info_list_add_value_unique(list, "k3", &val, false);
    PMIx_Info_list_add_value_unique(list, "k4", &val, true);
    PMIx_Value_destruct(&val);
    PMIx_Info_load(&info, "k1", "from-xfer", PMIX_STRING);
    PMIx_Info_list_xfer_unique(list, &info, true);
    PMIx_Info_destruct(&info);
    PMIx_Info_load(&info, "k5", "new", PMIX_STRING);
    PMIx_Info_list_xfer_unique(list, &info, false);
    PMIx_Info_destruct(&info);
    pmix_info_t *it = PMIx_Info_list_get_info(list, NULL, &next);
    while (NULL != it) {
        printf("list item: %s type %u", it->key, it->value.type);
        if (PMIX_STRING == it->value.type) {
            printf(" %s", it->value.data.string);
        }
        printf("\n");
        if (NULL == next) {
            break;
        }
        it = PMIx_Info_list_get_info(list, next, &next);
    }
    rc = PMIx_Info_list_convert(list, &out);
    printf("list convert: %d size %zu\n", rc, out.size);
    PMIx_Data_array_destruct(&out);
    PMIx_Info_list_release(list);

    printf("before init: session_control %d tool_is_connected %d\n",
           PMIx_Session_control(1, NULL, 0, NULL, NULL), PMIx_tool_is_connected());
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    keys_and_ids();
    argv_env();
    info_flags_and_truth();
    families();
    strings_sizes_lists();
    return 0;
}
