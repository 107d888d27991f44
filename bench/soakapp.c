/* soakapp: the job of the soak (bench/soak.sh), spawned 10,000 times into one persistent
 * pmixrun. Public client API only.
 *
 * usage: soakapp [ignored arguments]
 *
 * PMIx_Init, PMIx_Fence over the job (no data), then one line on stdout:
 *
 *   soakapp NSPACE:RANK of SIZE done
 *
 * (the soak counts these lines in pmixrun's output, one per job), PMIx_Finalize. Any failure
 * prints "soakapp: what failed: status" on stderr and exits 1. */
#include <stdio.h>
#include <stdint.h>

#include <pmix.h>

int main(int argc, char **argv)
{
    pmix_proc_t me, wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    uint32_t size = 0;

    (void) argc;
    (void) argv;
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "soakapp: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL || v->type != PMIX_UINT32) {
        fprintf(stderr, "soakapp: PMIx_Get(PMIX_JOB_SIZE): %s\n", PMIx_Error_string(rc));
        return 1;
    }
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    rc = PMIx_Fence(&wild, 1, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "soakapp: PMIx_Fence: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("soakapp %s:%u of %u done\n", me.nspace, me.rank, size);
    fflush(stdout);
    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "soakapp: PMIx_Finalize: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    return 0;
}
