/* What a server process's PMIx_Get answers about itself without any lookup, as PRRTE asks
 * it right after PMIx_server_init: PMIX_PROCID with no process named, PMIX_VERSION_NUMERIC
 * (PRRTE checks it against its minimum), and PMIX_RANK of its own namespace with
 * PMIX_RANK_INVALID. Printed for the differential run. */
#include <pmix.h>
#include <pmix_server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, pmix_status_t rc, pmix_value_t *v)
{
    if (PMIX_SUCCESS != rc) {
        printf("%s: status %d\n", what, rc);
        return;
    }
    switch (v->type) {
    case PMIX_PROC:
        printf("%s: proc %s:%u\n", what, v->data.proc->nspace, v->data.proc->rank);
        break;
    case PMIX_UINT32:
        printf("%s: uint32 0x%08x\n", what, v->data.uint32);
        break;
    case PMIX_PROC_RANK:
        printf("%s: rank %u\n", what, v->data.rank);
        break;
    default:
        printf("%s: type %s\n", what, PMIx_Data_type_string(v->type));
    }
    PMIX_VALUE_RELEASE(v);
}

int main(void)
{
    pmix_server_module_t module;
    pmix_info_t info[3];
    pmix_rank_t rank = 3;
    bool f = false;
    pmix_value_t *v = NULL;
    pmix_proc_t p;
    pmix_status_t rc;

    memset(&module, 0, sizeof(module));
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_NSPACE, "srv-self", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_SYSTEM_SUPPORT, &f, PMIX_BOOL);
    rc = PMIx_server_init(&module, info, 3);
    printf("server_init: status %d\n", rc);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_DESTRUCT(&info[2]);
    if (PMIX_SUCCESS != rc) {
        return 1;
    }
    rc = PMIx_Get(NULL, PMIX_PROCID, NULL, 0, &v);
    show("procid", rc, v);
    rc = PMIx_Get(NULL, PMIX_VERSION_NUMERIC, NULL, 0, &v);
    show("version-numeric", rc, v);
    PMIX_LOAD_PROCID(&p, "srv-self", PMIX_RANK_INVALID);
    rc = PMIx_Get(&p, PMIX_RANK, NULL, 0, &v);
    show("own-rank", rc, v);
    rc = PMIx_server_finalize();
    printf("server_finalize: status %d\n", rc);
    return 0;
}
