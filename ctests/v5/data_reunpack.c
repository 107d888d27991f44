/* PRRTE's connect data (prted/pmix/pmix_server_dyn.c): per process, a PMIX_PROC_NSPACE and a
 * PMIX_INFO holding PMIX_PROC_DATA (a data array of infos) are packed; the reader first
 * unpacks PMIX_INFO until that fails, puts the buffer's unpack_ptr back by hand, then
 * unpacks the namespace and the info. Both libraries answer the first PMIX_INFO unpack
 * with success over the namespace (the buffer carries no types). Printed for the
 * differential run. */
#include <pmix.h>
#include <pmix_server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    pmix_data_buffer_t buf;
    pmix_nspace_t ns;
    pmix_info_t procdata, got;
    pmix_data_array_t *darray;
    pmix_info_t *idest;
    pmix_rank_t r = 2;
    uint32_t v = 77;
    pmix_status_t rc;
    int32_t cnt;
    char *saved;
    int n;

    pmix_server_module_t module;
    memset(&module, 0, sizeof(module));
    rc = PMIx_server_init(&module, NULL, 0);
    printf("server_init: %d\n", rc);
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    for (n = 0; n < 2; n++) {
        PMIX_LOAD_NSPACE(ns, n == 0 ? "job-a" : "job-b");
        rc = PMIx_Data_pack(NULL, &buf, &ns, 1, PMIX_PROC_NSPACE);
        printf("pack nspace: %d\n", rc);
        PMIX_DATA_ARRAY_CREATE(darray, 2, PMIX_INFO);
        idest = (pmix_info_t *) darray->array;
        PMIX_INFO_LOAD(&idest[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&idest[1], "my.key", &v, PMIX_UINT32);
        PMIX_INFO_LOAD(&procdata, PMIX_PROC_DATA, darray, PMIX_DATA_ARRAY);
        rc = PMIx_Data_pack(NULL, &buf, &procdata, 1, PMIX_INFO);
        printf("pack info: %d\n", rc);
        PMIX_INFO_DESTRUCT(&procdata);
        PMIX_DATA_ARRAY_FREE(darray);
    }
    saved = buf.unpack_ptr;
    cnt = 1;
    rc = PMIx_Data_unpack(NULL, &buf, &got, &cnt, PMIX_INFO);
    printf("unpack info first: %s\n", rc == PMIX_SUCCESS ? "success" : "failed");
    if (PMIX_SUCCESS == rc) {
        PMIX_INFO_DESTRUCT(&got);
    }
    buf.unpack_ptr = saved;
    for (;;) {
        cnt = 1;
        rc = PMIx_Data_unpack(NULL, &buf, &ns, &cnt, PMIX_PROC_NSPACE);
        printf("unpack nspace: %d %s\n", rc, rc == PMIX_SUCCESS ? ns : "");
        if (PMIX_SUCCESS != rc) {
            break;
        }
        cnt = 1;
        rc = PMIx_Data_unpack(NULL, &buf, &got, &cnt, PMIX_INFO);
        printf("unpack info: %d", rc);
        if (PMIX_SUCCESS == rc) {
            printf(" key %s type %d size %zu", got.key, got.value.type,
                   got.value.type == PMIX_DATA_ARRAY ? got.value.data.darray->size : 0);
            PMIX_INFO_DESTRUCT(&got);
        }
        printf("\n");
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    PMIx_server_finalize();
    return 0;
}
