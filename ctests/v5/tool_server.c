/* A tool that accepts connections (PMIx Standard v5, tools chapter): a launcher tool
 * (PMIX_LAUNCHER, PMIX_TOOL_DO_NOT_CONNECT) listens, reports its URI (PMIX_MYSERVER_URI and
 * PMIX_SERVER_URI of its own identity) and serves the tools that connect to it through the
 * module given with PMIx_tool_set_server_module: tool_connected names or approves the
 * connecting tool, query answers its queries. The connecting tool is this program again
 * (argv[1] "connect"), run as a child once the launcher is listening: before the launcher has
 * a module (a tool of the same user with an identity of its own is accepted, its query
 * refused), then with one, first with an identity of its own, then asking the launcher to
 * name it. Statuses are printed as numbers (the two
 * libraries name them otherwise). Printed for the differential run.
 * "tool_server listen FILE SECONDS": a launcher without a module that writes its URI to FILE
 * and listens for SECONDS (ctests/security). */
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>
#include "launcher.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int named, asked;

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    pmix_proc_t p;
    const char *ns = NULL;
    pmix_rank_t rank = PMIX_RANK_UNDEF;
    for (size_t n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_NSPACE)) {
            ns = info[n].value.data.string;
        } else if (PMIX_CHECK_KEY(&info[n], PMIX_RANK)) {
            rank = info[n].value.data.rank;
        }
    }
    if (ns != NULL) {
        PMIX_LOAD_PROCID(&p, ns, rank);
    } else {
        PMIX_LOAD_PROCID(&p, "named-by-launcher", (pmix_rank_t)named);
        named++;
    }
    cbfunc(PMIX_SUCCESS, &p, cbdata);
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_info_t *answer;
    char text[600];
    asked++;
    if (nqueries != 1 || queries[0].keys == NULL || strcmp(queries[0].keys[0], "test.key") != 0) {
        return PMIX_ERR_NOT_FOUND;
    }
    /* (the requester is not printed: 5.0.11 names the launcher itself, ours the tool) */
    snprintf(text, sizeof text, "answered, requester %s", proct != NULL ? "given" : "NULL");
    PMIX_INFO_CREATE(answer, 1);
    PMIX_INFO_LOAD(&answer[0], "test.key", text, PMIX_STRING);
    /* the library copies the answer; this host frees it after the callback */
    cbfunc(PMIX_SUCCESS, answer, 1, cbdata, NULL, NULL);
    PMIX_INFO_FREE(answer, 1);
    return PMIX_SUCCESS;
}

static int connect_tool(const char *uri, const char *how)
{
    pmix_proc_t me;
    pmix_info_t info[3];
    size_t ninfo = 0;
    pmix_rank_t rank = 5;
    pmix_query_t q;
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc;
    /* "named", or the namespace the tool names itself with (5.0.11 refuses a second tool
     * with the namespace of one that has come and gone: each connection has its own) */
    int own_id = strcmp(how, "named") != 0;

    PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_URI, uri, PMIX_STRING);
    if (own_id) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_TOOL_NSPACE, how, PMIX_STRING);
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_TOOL_RANK, &rank, PMIX_PROC_RANK);
    }
    rc = PMIx_tool_init(&me, info, ninfo);
    if (rc != PMIX_SUCCESS) {
        printf("  connect %s: failed\n", own_id ? "with an identity" : "to be named");
        return 1;
    }
    printf("  connect %s: %d, I am %s:%u\n", own_id ? "with an identity" : "to be named",
           (int)rc, me.nspace, me.rank);
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, "test.key");
    rc = PMIx_Query_info(&q, 1, &results, &nresults);
    /* without a query upcall 5.0.11 answers PMIX_ERR_UNREACH, ours PMIX_ERR_NOT_SUPPORTED */
    if (rc != PMIX_SUCCESS) {
        printf("  query: refused, %zu results", nresults);
    } else {
        printf("  query: %d, %zu results", (int)rc, nresults);
    }
    if (rc == PMIX_SUCCESS && nresults == 1 && results[0].value.type == PMIX_STRING) {
        printf(": %s = %s", results[0].key, results[0].value.data.string);
    }
    printf("\n");
    if (results != NULL) {
        PMIX_INFO_FREE(results, nresults);
    }
    PMIX_QUERY_DESTRUCT(&q);
    rc = PMIx_tool_finalize();
    printf("  finalize: %d\n", (int)rc);
    return 0;
}

static void run_child(const char *self, const char *uri, const char *how)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, "connect", uri, how, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("  child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_server_module_t module;
    pmix_value_t *v = NULL, *legacy = NULL;
    char *uri, prefix[PMIX_MAX_NSLEN + 32];
    pmix_status_t rc;

    if (argc == 4 && strcmp(argv[1], "connect") == 0) {
        setvbuf(stdout, NULL, _IONBF, 0);
        return connect_tool(argv[2], argv[3]);
    }
    rc = launcher_init(&me);
    if (rc != PMIX_SUCCESS) {
        return 1;
    }
    if (argc == 4 && strcmp(argv[1], "listen") == 0) {
        /* for ctests/security: a launcher without a module, its URI written to FILE, for
         * SECONDS */
        rc = PMIx_Get(&me, PMIX_MYSERVER_URI, NULL, 0, &v);
        if (rc != PMIX_SUCCESS || v->type != PMIX_STRING) {
            return 1;
        }
        FILE *f = fopen(argv[2], "w");
        if (f == NULL) {
            return 1;
        }
        fprintf(f, "%s\n", v->data.string);
        fclose(f);
        PMIX_VALUE_RELEASE(v);
        sleep((unsigned)atoi(argv[3]));
        PMIx_tool_finalize();
        return 0;
    }
    rc = PMIx_Get(&me, PMIX_MYSERVER_URI, NULL, 0, &v);
    printf("myserver uri: %d", (int)rc);
    if (rc != PMIX_SUCCESS || v->type != PMIX_STRING) {
        printf("\n");
        return 1;
    }
    uri = strdup(v->data.string);
    snprintf(prefix, sizeof prefix, "%s.%u;tcp4://", me.nspace, me.rank);
    printf(", %s\n", strncmp(uri, prefix, strlen(prefix)) == 0 ? "NSPACE.RANK;tcp4://ADDR:PORT"
                                                               : uri);
    rc = PMIx_Get(&me, PMIX_SERVER_URI, NULL, 0, &legacy);
    printf("server uri: %d, %s\n", (int)rc,
           rc == PMIX_SUCCESS && legacy->type == PMIX_STRING
                   && strcmp(legacy->data.string, uri) == 0
               ? "the same"
               : "another");
    PMIX_VALUE_RELEASE(v);
    if (legacy != NULL) {
        PMIX_VALUE_RELEASE(legacy);
    }

    printf("before the launcher has a module, a tool with an identity of its own:\n");
    run_child(argv[0], uri, "early-tool");
    /* (a tool to be named is refused until then; 5.0.11's launcher dies of SIGSEGV after
     * refusing it, so that case is not run here: docs/notes/abi-5.0.md) */

    memset(&module, 0, sizeof module);
    module.tool_connected = tool_connected;
    module.query = query;
    rc = PMIx_tool_set_server_module(&module);
    printf("set_server_module: %d\n", (int)rc);
    printf("a tool with an identity of its own:\n");
    run_child(argv[0], uri, "own-tool");
    printf("a tool the launcher names:\n");
    run_child(argv[0], uri, "named");
    printf("the launcher named %d tools, answered %d queries\n", named, asked);
    free(uri);
    rc = PMIx_tool_finalize();
    printf("launcher finalize: %d\n", (int)rc);
    return 0;
}
