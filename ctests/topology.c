#define _GNU_SOURCE
/* PMIx_Load_topology, then the caller's own hwloc on the topology it returns; cpusets and
 * their strings round-tripped through the library; copies of topologies and cpusets.
 *
 * The shared topology is never destroyed here: the reference destroys it in
 * PMIx_Topology_destruct and would hand out a dangling pointer afterwards. Relative locality
 * is printed as the value only: the reference (4.2) returns an internal status even when it
 * computes the locality (docs/notes/topology.md). */
#include <stdlib.h>
#include <string.h>
#include <hwloc.h>
#include <pmix.h>
#include <pmix_server.h>
#include "common.h"

static void print_list(const char *label, hwloc_const_bitmap_t b)
{
    char *s = NULL;
    hwloc_bitmap_list_asprintf(&s, b);
    printf("%s %s\n", label, s);
    free(s);
}

static int count(hwloc_topology_t t, hwloc_obj_type_t ty)
{
    return hwloc_get_nbobjs_by_type(t, ty);
}

/* A cpuset from an object's cpuset; its string and locality string, and the parse of the
 * string back into a cpuset. Returns the locality string (malloc'd) or NULL. */
static char *round_trip(const char *what, hwloc_obj_t obj)
{
    pmix_cpuset_t cs, back;
    char *str = NULL, *loc = NULL, *label;
    pmix_status_t rc;

    PMIX_CPUSET_CONSTRUCT(&cs);
    PMIX_CPUSET_CONSTRUCT(&back);
    cs.source = strdup("hwloc");
    cs.bitmap = hwloc_bitmap_dup(obj->cpuset);
    rc = PMIx_server_generate_cpuset_string(&cs, &str);
    printf("%s %u: cpuset string rc=%d %s\n", what, obj->logical_index, rc, str ? str : "(null)");
    rc = PMIx_server_generate_locality_string(&cs, &loc);
    printf("%s %u: locality rc=%d %s\n", what, obj->logical_index, rc, loc ? loc : "(null)");
    if (NULL != str) {
        rc = PMIx_Parse_cpuset_string(str, &back);
        printf("%s %u: parse rc=%d source=%s equal=%d\n", what, obj->logical_index, rc,
               back.source ? back.source : "(null)",
               NULL != back.bitmap && hwloc_bitmap_isequal(back.bitmap, cs.bitmap));
        if (asprintf(&label, "%s %u: parsed", what, obj->logical_index) > 0) {
            print_list(label, back.bitmap);
            free(label);
        }
        PMIx_Cpuset_destruct(&back);
        free(str);
    }
    PMIx_Cpuset_destruct(&cs);
    CHECK(NULL == cs.source && NULL == cs.bitmap);
    return loc;
}

int main(void)
{
    pmix_topology_t topo, again, *copy = NULL;
    pmix_cpuset_t mine, *cscopy = NULL;
    pmix_value_t val;
    hwloc_topology_t t;
    hwloc_obj_t obj;
    pmix_status_t rc;
    char *locs[64], *str = NULL, *a, *b;
    int nlocs = 0, i, j;

    ctest_init();

    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    rc = PMIx_Load_topology(&topo);
    printf("load rc=%d source=%s\n", rc, topo.source ? topo.source : "(null)");
    if (PMIX_SUCCESS != rc || NULL == topo.topology) {
        return 1;
    }
    t = (hwloc_topology_t) topo.topology;

    /* the caller's own hwloc on the returned topology */
    printf("thissystem=%d depth=%d\n", hwloc_topology_is_thissystem(t), hwloc_topology_get_depth(t));
    printf("packages=%d numa=%d cores=%d pus=%d\n", count(t, HWLOC_OBJ_PACKAGE),
           count(t, HWLOC_OBJ_NUMANODE), count(t, HWLOC_OBJ_CORE), count(t, HWLOC_OBJ_PU));
    obj = hwloc_get_root_obj(t);
    printf("root type=%s arity=%u\n", hwloc_obj_type_string(obj->type), obj->arity);
    print_list("root cpuset", obj->cpuset);
    print_list("topology cpuset", hwloc_topology_get_topology_cpuset(t));

    /* every call returns the same topology; a requested source must match */
    PMIX_TOPOLOGY_CONSTRUCT(&again);
    rc = PMIx_Load_topology(&again);
    printf("again rc=%d same=%d\n", rc, again.topology == topo.topology);
    free(again.source);
    PMIX_TOPOLOGY_CONSTRUCT(&again);
    again.source = "HWLOC";
    rc = PMIx_Load_topology(&again);
    printf("source HWLOC rc=%d same=%d kept=%d\n", rc, again.topology == topo.topology,
           0 == strcmp(again.source, "HWLOC"));
    PMIX_TOPOLOGY_CONSTRUCT(&again);
    again.source = "other";
    rc = PMIx_Load_topology(&again);
    printf("source other: %s topology=%p\n", PMIX_SUCCESS == rc ? "success" : "error", again.topology);

    /* a copy is a topology of its own, released by PMIx_Topology_destruct */
    rc = PMIx_Data_copy((void **) &copy, &topo, PMIX_TOPO);
    printf("copy rc=%d source=%s distinct=%d pus=%d\n", rc, copy ? copy->source : "(null)",
           copy && copy->topology != topo.topology,
           copy ? count((hwloc_topology_t) copy->topology, HWLOC_OBJ_PU) : -1);
    if (NULL != copy) {
        PMIx_Topology_destruct(copy);
        free(copy);
    }
    PMIX_VALUE_CONSTRUCT(&val);
    rc = PMIx_Value_load(&val, &topo, PMIX_TOPO);
    printf("value load rc=%d distinct=%d cores=%d\n", rc, val.data.topo->topology != topo.topology,
           count((hwloc_topology_t) val.data.topo->topology, HWLOC_OBJ_CORE));
    PMIX_VALUE_DESTRUCT(&val);

    /* cpusets of real objects */
    for (obj = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0); NULL != obj && nlocs < 32; obj = obj->next_cousin) {
        locs[nlocs] = round_trip("pu", obj);
        if (NULL != locs[nlocs]) {
            nlocs++;
        }
    }
    for (obj = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, 0); NULL != obj && nlocs < 48; obj = obj->next_cousin) {
        locs[nlocs] = round_trip("core", obj);
        if (NULL != locs[nlocs]) {
            nlocs++;
        }
    }
    obj = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    if (NULL != obj && nlocs < 64) {
        locs[nlocs] = round_trip("package", obj);
        if (NULL != locs[nlocs]) {
            nlocs++;
        }
    }

    /* relative locality of each pair (the value; see the note at the top) */
    for (i = 0; i < nlocs; i++) {
        for (j = 0; j < nlocs; j++) {
            pmix_locality_t loc = 0;
            if (asprintf(&a, "hwloc:%s", locs[i]) < 0 || asprintf(&b, "hwloc:%s", locs[j]) < 0) {
                return 1;
            }
            (void) PMIx_Get_relative_locality(a, b, &loc);
            printf("relative %s / %s = 0x%04x\n", locs[i], locs[j], loc);
            free(a);
            free(b);
        }
    }
    for (i = 0; i < nlocs; i++) {
        free(locs[i]);
    }

    /* this process's binding, its string, and copies of the cpuset */
    PMIX_CPUSET_CONSTRUCT(&mine);
    rc = PMIx_Get_cpuset(&mine, PMIX_CPUBIND_PROCESS);
    printf("get cpuset rc=%d source=%s\n", rc, mine.source ? mine.source : "(null)");
    if (PMIX_SUCCESS == rc) {
        CHECK(hwloc_bitmap_isequal(mine.bitmap, hwloc_topology_get_topology_cpuset(t))
              || hwloc_bitmap_isincluded(mine.bitmap, hwloc_topology_get_topology_cpuset(t)));
        rc = PMIx_server_generate_cpuset_string(&mine, &str);
        printf("binding string rc=%d equal=%d\n", rc, NULL != str && 0 == strncmp(str, "hwloc:", 6));
        free(str);
        rc = PMIx_Data_copy((void **) &cscopy, &mine, PMIX_PROC_CPUSET);
        printf("cpuset copy rc=%d equal=%d distinct=%d\n", rc,
               cscopy && hwloc_bitmap_isequal(cscopy->bitmap, mine.bitmap),
               cscopy && cscopy->bitmap != mine.bitmap);
        if (NULL != cscopy) {
            PMIx_Cpuset_destruct(cscopy);
            free(cscopy);
        }
        PMIX_VALUE_CONSTRUCT(&val);
        rc = PMIx_Value_load(&val, &mine, PMIX_PROC_CPUSET);
        printf("cpuset value rc=%d equal=%d\n", rc, hwloc_bitmap_isequal(val.data.cpuset->bitmap, mine.bitmap));
        PMIX_VALUE_DESTRUCT(&val);
    }
    PMIx_Cpuset_destruct(&mine);
    rc = PMIx_Get_cpuset(&mine, 9);
    printf("bad envelope rc=%d\n", rc);

    /* the source string of PMIx_Load_topology is the caller's; the topology is not */
    free(topo.source);
    return 0;
}
