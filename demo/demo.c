/* A tour of what works without a server, built with
 *   cc demo.c $(pkg-config --cflags --libs pmix)
 * against this library's install: the data API, printing, node maps, topology, queries. */
#include <stdio.h>
#include <stdlib.h>
#include <pmix.h>
#include <pmix_server.h>
#include <hwloc.h>

static void check(const char *what, pmix_status_t rc)
{
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "%s: %s\n", what, PMIx_Error_string(rc));
        exit(1);
    }
}

int main(void)
{
    printf("library: %s\n", PMIx_Get_version());

    /* 1. Build a list of attributes and turn it into an info array. */
    void *list = PMIx_Info_list_start();
    uint32_t size = 4;
    bool yes = true;
    check("list_add", PMIx_Info_list_add(list, PMIX_JOB_SIZE, &size, PMIX_UINT32));
    check("list_add", PMIx_Info_list_add(list, PMIX_HOSTNAME, "node01", PMIX_STRING));
    check("list_add", PMIx_Info_list_add(list, PMIX_OPTIONAL, &yes, PMIX_BOOL));
    pmix_data_array_t darray;
    check("list_convert", PMIx_Info_list_convert(list, &darray));
    PMIx_Info_list_release(list);
    pmix_info_t *infos = (pmix_info_t *) darray.array;
    printf("\n%zu infos:\n", darray.size);
    for (size_t i = 0; i < darray.size; i++) {
        char *s = PMIx_Info_string(&infos[i]);
        printf("%s\n", s);
        free(s);
    }

    /* 2. Pack them in OpenPMIx's wire format, then unpack them again. */
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    check("pack", PMIx_Data_pack(NULL, &buf, infos, (int32_t) darray.size, PMIX_INFO));
    printf("\npacked %zu infos into %zu bytes:", darray.size, buf.bytes_used);
    for (size_t i = 0; i < buf.bytes_used && i < 48; i++) {
        printf(" %02x", (unsigned char) buf.base_ptr[i]);
    }
    printf("%s\n", buf.bytes_used > 48 ? " ..." : "");
    pmix_info_t back[3];
    int32_t n = 3;
    check("unpack", PMIx_Data_unpack(NULL, &buf, back, &n, PMIX_INFO));
    printf("unpacked %d infos; first: %s = %u\n", n, back[0].key, back[0].value.data.uint32);
    for (int32_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&back[i]);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    PMIX_DATA_ARRAY_DESTRUCT(&darray);

    /* 3. Node and process maps. */
    char *regex = NULL, *ppn = NULL;
    check("generate_regex", PMIx_generate_regex("node01,node02,node03,node10", &regex));
    check("generate_ppn", PMIx_generate_ppn("0,1;2,3;4;5", &ppn));
    printf("\nnode map: %s\nproc map: %s\n", regex, ppn);
    free(regex);
    free(ppn);

    /* 4. The machine's topology, used through the caller's own hwloc. */
    pmix_topology_t topo = {NULL, NULL};
    check("load_topology", PMIx_Load_topology(&topo));
    hwloc_topology_t t = (hwloc_topology_t) topo.topology;
    printf("\ntopology (%s): %d cores, %d hardware threads\n", topo.source,
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE), hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU));

    /* 5. A query that needs no server. */
    pmix_query_t *q;
    pmix_status_t rc;
    PMIX_QUERY_CREATE(q, 1);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_STABLE_ABI_VERSION);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    check("query", PMIx_Query_info(q, 1, &results, &nresults));
    printf("\nstable ABI version: %s\n", results[0].value.data.string);
    PMIX_INFO_FREE(results, nresults);
    PMIX_QUERY_FREE(q, 1);
    (void) rc;
    return 0;
}
