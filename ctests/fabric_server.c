/* PMIx_Fabric_* in a server process: both libraries hand a registration (op
 * PMIX_FABRIC_REQUEST_INFO, with the caller's directives) and an update (op
 * PMIX_FABRIC_UPDATE_INFO, with PMIX_FABRIC_INDEX) to the host's own fabric upcall, and store
 * its answer in the fabric object. */
#include <string.h>
#include <pmix.h>
#include <pmix_server.h>

static pmix_status_t fabric_fn(const pmix_proc_t *requestor, pmix_fabric_operation_t op,
                               const pmix_info_t dirs[], size_t ndirs, pmix_info_cbfunc_t cbfunc,
                               void *cbdata)
{
    pmix_info_t *out;
    size_t n, devices = op == PMIX_FABRIC_REQUEST_INFO ? 16 : 32;
    (void) requestor;
    printf("upcall: op %s, %zu directives\n", op == PMIX_FABRIC_REQUEST_INFO ? "request" : "update",
           ndirs);
    for (n = 0; n < ndirs; n++) {
        if (dirs[n].value.type == PMIX_SIZE) {
            printf("upcall: %s=%zu\n", dirs[n].key, dirs[n].value.data.size);
        } else {
            printf("upcall: %s (%s)\n", dirs[n].key, PMIx_Data_type_string(dirs[n].value.type));
        }
    }
    PMIX_INFO_CREATE(out, 2);
    PMIX_INFO_LOAD(&out[0], PMIX_FABRIC_VENDOR, "ctest-vendor", PMIX_STRING);
    PMIX_INFO_LOAD(&out[1], PMIX_FABRIC_NUM_DEVICES, &devices, PMIX_SIZE);
    /* answered from inside the upcall; the array is released right after */
    cbfunc(PMIX_SUCCESS, out, 2, cbdata, NULL, NULL);
    PMIX_INFO_FREE(out, 2);
    return PMIX_SUCCESS;
}

static void show(const char *what, pmix_status_t rc, const pmix_fabric_t *f)
{
    size_t n;
    printf("%s: %s, %zu infos\n", what, PMIx_Error_string(rc), f->ninfo);
    for (n = 0; f->info != NULL && n < f->ninfo; n++) {
        if (f->info[n].value.type == PMIX_STRING) {
            printf("%s: %s=%s\n", what, f->info[n].key, f->info[n].value.data.string);
        } else if (f->info[n].value.type == PMIX_SIZE) {
            printf("%s: %s=%zu\n", what, f->info[n].key, f->info[n].value.data.size);
        }
    }
}

static pmix_server_module_t module = {.fabric = fabric_fn};

int main(void)
{
    pmix_fabric_t fab;
    pmix_info_t dir;
    pmix_status_t rc;
    setvbuf(stdout, NULL, _IONBF, 0);
    rc = PMIx_server_init(&module, NULL, 0);
    printf("server_init: %s\n", PMIx_Error_string(rc));
    PMIX_FABRIC_CONSTRUCT(&fab);
    PMIX_INFO_LOAD(&dir, PMIX_FABRIC_PLANE, "plane-a", PMIX_STRING);
    rc = PMIx_Fabric_register(&fab, &dir, 1);
    PMIX_INFO_DESTRUCT(&dir);
    show("register", rc, &fab);
    fab.index = 5;
    rc = PMIx_Fabric_update(&fab);
    show("update", rc, &fab);
    rc = PMIx_Fabric_deregister(&fab);
    printf("deregister: %s, info %s\n", PMIx_Error_string(rc), fab.info == NULL ? "released" : "kept");
    rc = PMIx_server_finalize();
    printf("server_finalize: %s\n", PMIx_Error_string(rc));
    return 0;
}
