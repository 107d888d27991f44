/* A tool connected to two servers at once: it starts with server A (found by pid), attaches
 * to server B (by pid), lists its servers, queries each after making it the primary with
 * PMIx_tool_set_server, disconnects from B and lists again. Each server answers the
 * PMIX_QUERY_NAMESPACES query with "<its nspace>-job", so the answer shows which server a
 * request reached. usage: multi <pid of A> <pid of B> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmix_tool.h>

/* Prints the servers; copies the first (the one found first) to *first if not NULL. */
static void list(const char *when, pmix_proc_t *first)
{
    pmix_proc_t *servers = NULL;
    size_t n, nservers = 0;
    pmix_status_t rc = PMIx_tool_get_servers(&servers, &nservers);
    printf("%s: servers %s %zu:", when, PMIx_Error_string(rc), nservers);
    for (n = 0; n < nservers; n++) {
        printf(" %s", servers[n].nspace);
    }
    if (first != NULL && nservers > 0) {
        PMIX_XFER_PROCID(first, &servers[0]);
    }
    printf("\n");
    if (servers != NULL) {
        PMIX_PROC_FREE(servers, nservers);
    }
}

static void query(const char *when)
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t n, nres = 0;
    pmix_status_t rc;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
    rc = PMIx_Query_info(&q, 1, &res, &nres);
    printf("%s: query %s", when, PMIx_Error_string(rc));
    for (n = 0; n < nres; n++) {
        printf(" %s", res[n].value.type == PMIX_STRING ? res[n].value.data.string : "?");
    }
    printf("\n");
    PMIX_QUERY_DESTRUCT(&q);
    if (res != NULL) {
        PMIX_INFO_FREE(res, nres);
    }
}

int main(int argc, char **argv)
{
    pmix_proc_t me, srv_a, srv_b, pme, other;
    pmix_info_t info[2];
    pid_t a, b;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    pmix_status_t rc;
    if (argc < 3) {
        fprintf(stderr, "usage: multi <pid of A> <pid of B>\n");
        return 2;
    }
    a = atoi(argv[1]);
    b = atoi(argv[2]);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &a, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    rc = PMIx_tool_init(&me, info, 2);
    printf("tool_init A: %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) {
        return 1;
    }
    list("after init", &srv_a);
    query("primary A");

    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &b, PMIX_PID);
    rc = PMIx_tool_attach_to_server(&pme, &srv_b, info, 2);
    printf("attach B: %s, server %s\n", PMIx_Error_string(rc), srv_b.nspace);
    if (PMIX_SUCCESS != rc) {
        return 1;
    }
    list("after attach", NULL);
    query("still primary A");

    rc = PMIx_tool_set_server(&srv_b, NULL, 0);
    printf("set_server B: %s\n", PMIx_Error_string(rc));
    query("primary B");

    rc = PMIx_tool_set_server(&srv_a, NULL, 0);
    printf("set_server A: %s\n", PMIx_Error_string(rc));
    query("primary A again");

    PMIX_LOAD_PROCID(&other, "no-such-server", 0);
    rc = PMIx_tool_set_server(&other, NULL, 0);
    printf("set_server unknown: %s\n", PMIx_Error_string(rc));

    rc = PMIx_tool_set_server(&srv_b, NULL, 0);
    printf("set_server B: %s\n", PMIx_Error_string(rc));
    rc = PMIx_tool_disconnect(&srv_b);
    printf("disconnect B (the primary): %s\n", PMIx_Error_string(rc));
    list("after disconnect", NULL);
    query("no primary");
    rc = PMIx_tool_set_server(&srv_a, NULL, 0);
    printf("set_server A: %s\n", PMIx_Error_string(rc));
    query("primary A after disconnect");

    rc = PMIx_tool_finalize();
    printf("tool_finalize: %s\n", PMIx_Error_string(rc));
    return 0;
}
