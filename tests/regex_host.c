/* Reference-only helper for tests/tests/regex.rs: makes the unmodified reference library
 * parse node and process maps ("regexes") that our library generated.
 *
 * It runs as a PMIx server (PMIx_server_init with no host module, in the private TMPDIR the
 * test gives it), registers one namespace per input case with PMIX_NODE_MAP and
 * PMIX_PROC_MAP set to the given maps, and prints what the server derived from them:
 * the node list (PMIx_Resolve_nodes and PMIx_Get of PMIX_NODE_LIST), the ranks on each
 * node (PMIx_Resolve_peers) and the host of each rank (PMIx_Get of PMIX_HOSTNAME).
 *
 * Our library cannot act as a server yet, so this program is built and run against the
 * reference only; it is not one of the ctests/ programs that run on both libraries.
 *
 * Input, one case per line on stdin:  NODEMAP-HEX PROCMAP-HEX JOBSIZE TYPE
 *   the maps are hex-encoded bytes (any NULs included, as in "blob:" maps);
 *   TYPE is "s" (the maps are registered as PMIX_STRING) or "r" (PMIX_REGEX, loaded from
 *   the char * as PMIX_INFO_LOAD does).
 * Output: first "lib PATH", the file the server functions were loaded from; then per
 * case (node names hex-encoded, "-" when absent, "=" when empty):
 *   case N register RC
 *   nodes RC HEX            from PMIx_Resolve_nodes
 *   nlist RC HEX            from PMIx_Get(PMIX_NODE_LIST)
 *   peers HEX RC R,R,...    for each node of the resolved list
 *   host RANK RC HEX        for each rank below JOBSIZE
 *   end
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>

static int done_flag;
static pmix_status_t done_status;

static void op_done(pmix_status_t status, void *cbdata)
{
    (void) cbdata;
    __atomic_store_n(&done_status, status, __ATOMIC_SEQ_CST);
    __atomic_store_n(&done_flag, 1, __ATOMIC_SEQ_CST);
}

static void wait_done(void)
{
    int i;
    for (i = 0; i < 20000 && !__atomic_load_n(&done_flag, __ATOMIC_SEQ_CST); i++) {
        usleep(500);
    }
}

static char *unhex(const char *h, size_t *len)
{
    size_t n = strlen(h) / 2, i;
    char *b = calloc(n + 1, 1);
    for (i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) {
            v = 0;
        }
        b[i] = (char) v;
    }
    *len = n;
    return b;
}

static void puthex(const char *s)
{
    if (NULL == s) {
        printf("-");
        return;
    }
    if ('\0' == *s) {
        printf("=");
        return;
    }
    for (; *s; s++) {
        printf("%02x", (unsigned char) *s);
    }
}

static void run_case(int n, char *nodemap, char *procmap, unsigned jobsize, char type)
{
    pmix_nspace_t ns;
    pmix_info_t info[3];
    pmix_status_t rc;
    pmix_proc_t p;
    pmix_value_t *val = NULL;
    char *nodes = NULL;
    uint32_t js = jobsize;
    unsigned r;

    snprintf(ns, sizeof(ns), "regex%d", n);
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &js, PMIX_UINT32);
    if ('r' == type) {
        PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, nodemap, PMIX_REGEX);
        PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, procmap, PMIX_REGEX);
    } else {
        PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, nodemap, PMIX_STRING);
        PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, procmap, PMIX_STRING);
    }
    __atomic_store_n(&done_flag, 0, __ATOMIC_SEQ_CST);
    rc = PMIx_server_register_nspace(ns, 0, info, 3, op_done, NULL);
    if (PMIX_SUCCESS == rc) {
        wait_done();
        rc = done_status;
    }
    printf("case %d register %d\n", n, rc);

    rc = PMIx_Resolve_nodes(ns, &nodes);
    printf("nodes %d ", rc);
    puthex(PMIX_SUCCESS == rc ? nodes : NULL);
    printf("\n");

    PMIX_LOAD_PROCID(&p, ns, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&p, PMIX_NODE_LIST, NULL, 0, &val);
    printf("nlist %d ", rc);
    puthex(PMIX_SUCCESS == rc && NULL != val && PMIX_STRING == val->type ? val->data.string : NULL);
    printf("\n");
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
        val = NULL;
    }

    if (NULL != nodes) {
        char *save = NULL, *node = strtok_r(nodes, ",", &save);
        while (NULL != node) {
            pmix_proc_t *procs = NULL;
            size_t np = 0, i;
            rc = PMIx_Resolve_peers(node, ns, &procs, &np);
            printf("peers ");
            puthex(node);
            printf(" %d ", rc);
            for (i = 0; i < np; i++) {
                printf("%s%u", i ? "," : "", procs[i].rank);
            }
            printf("\n");
            if (NULL != procs) {
                PMIX_PROC_FREE(procs, np);
            }
            node = strtok_r(NULL, ",", &save);
        }
        free(nodes);
    }

    for (r = 0; r < jobsize; r++) {
        PMIX_LOAD_PROCID(&p, ns, r);
        rc = PMIx_Get(&p, PMIX_HOSTNAME, NULL, 0, &val);
        printf("host %u %d ", r, rc);
        puthex(PMIX_SUCCESS == rc && NULL != val && PMIX_STRING == val->type ? val->data.string : NULL);
        printf("\n");
        if (NULL != val) {
            PMIX_VALUE_RELEASE(val);
            val = NULL;
        }
    }

    __atomic_store_n(&done_flag, 0, __ATOMIC_SEQ_CST);
    PMIx_server_deregister_nspace(ns, op_done, NULL);
    wait_done();
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_DESTRUCT(&info[2]);
    printf("end\n");
}

int main(void)
{
    static char line[1 << 22];
    pmix_status_t rc;
    int n = 0;

    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    {
        /* Where the server functions come from: the test checks it is the reference. */
        Dl_info dl;
        pmix_status_t (*fn)(pmix_server_module_t *, pmix_info_t *, size_t) = PMIx_server_init;
        void *addr;
        memcpy(&addr, &fn, sizeof(addr));
        printf("lib %s\n", dladdr(addr, &dl) && NULL != dl.dli_fname ? dl.dli_fname : "?");
    }
    rc = PMIx_server_init(NULL, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        printf("server_init %d\n", rc);
        return 1;
    }
    while (NULL != fgets(line, sizeof(line), stdin)) {
        char *save = NULL;
        char *nm = strtok_r(line, " \n", &save);
        char *pm = strtok_r(NULL, " \n", &save);
        char *js = strtok_r(NULL, " \n", &save);
        char *ty = strtok_r(NULL, " \n", &save);
        size_t nl, pl;
        char *nmb, *pmb;
        if (NULL == ty) {
            continue;
        }
        nmb = unhex(nm, &nl);
        pmb = unhex(pm, &pl);
        run_case(n++, nmb, pmb, (unsigned) strtoul(js, NULL, 10), ty[0]);
        free(nmb);
        free(pmb);
    }
    fflush(stdout);
    PMIx_server_finalize();
    return 0;
}
