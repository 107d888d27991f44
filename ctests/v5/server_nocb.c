/* What the server's operations return when the host gives no callback: each is done on
 * return, and OpenPMIx 4.2.2 and 5.0.11 say so with PMIX_OPERATION_SUCCEEDED (a host waits
 * for a callback only on PMIX_SUCCESS). Printed as numbers for the differential run. */
#include <pmix.h>
#include <pmix_server.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    pmix_status_t rc = PMIx_server_init(&module, NULL, 0);
    printf("server_init %d\n", rc);
    if (rc != PMIX_SUCCESS) return 1;
    uint32_t one = 1;
    pmix_info_t job;
    PMIX_INFO_LOAD(&job, PMIX_JOB_SIZE, &one, PMIX_UINT32);
    printf("register_nspace %d\n", PMIx_server_register_nspace("nocb", 1, &job, 1, NULL, NULL));
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, "nocb", 0);
    printf("register_client %d\n", PMIx_server_register_client(&p, getuid(), getgid(), NULL, NULL, NULL));
    printf("setup_local_support %d\n", PMIx_server_setup_local_support("nocb", NULL, 0, NULL, NULL));
    /* (PMIx_server_IOF_deliver answers the same in both sources, but 5.0.11 crashes in
     * pmix_iof_write_output when it writes the output itself, as here with no tool) */
    PMIx_server_deregister_client(&p, NULL, NULL);
    PMIx_server_deregister_nspace("nocb", NULL, NULL);
    printf("deregistered\n");
    printf("server_finalize %d\n", PMIx_server_finalize());
    return 0;
}
