/* PMIx_Spawn from a launcher tool that is connected to no server (PMIX_LAUNCHER with
 * PMIX_TOOL_DO_NOT_CONNECT): the library starts the processes itself, as PRRTE's indirect
 * debugger example has its launcher started (PMIx Standard v5, tools chapter). The children
 * are this program again (argv[1] "child"): each writes what its environment says into a file
 * of the work directory; the launcher waits for them and prints the files in rank order.
 * Printed for the differential run.
 *
 * "tool_spawn clients" (ours only: ctests/v5/run.sh): the children are PMIx applications
 * (argv[1] "client"): PMIx_Init, the job's size and parent, a fence, PMIx_Finalize, each
 * reported in a file as above. 5.0.11's children cannot do that (its PMIx_Init answers
 * PMIX_ERR_UNREACH there); ours are clients of the launcher's server. */
#include <fcntl.h>
#include <pmix.h>
#include <pmix_tool.h>
#include "launcher.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *yes(int b)
{
    return b ? "yes" : "no";
}

static int child(const char *dir)
{
    const char *ns = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");
    const char *sns = getenv("PMIX_SERVER_NSPACE"), *srank = getenv("PMIX_SERVER_RANK");
    const char *ka = getenv("PMIX_KEEPALIVE_PIPE"), *want = getenv("TOOL_SPAWN_NSPACE_PREFIX");
    char path[4096], cwd[4096];
    if (rank == NULL) {
        return 1;
    }
    snprintf(path, sizeof path, "%s/child.%s", dir, rank);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return 1;
    }
    int fd = ka != NULL ? atoi(ka) : -1;
    int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    fprintf(f, "rank %s: namespace <launcher>:N %s, server namespace the same %s, server rank the same %s\n",
            rank,
            yes(ns != NULL && want != NULL && strncmp(ns, want, strlen(want)) == 0
                && strchr(ns + strlen(want), ':') == NULL),
            yes(ns != NULL && sns != NULL && strcmp(ns, sns) == 0),
            yes(srank != NULL && strcmp(srank, rank) == 0));
    fprintf(f, "rank %s: keepalive pipe open for writing %s, hostname given %s, app variable %s, in its cwd %s\n",
            rank, yes(fl >= 0 && (fl & O_ACCMODE) == O_WRONLY), yes(getenv("PMIX_HOSTNAME") != NULL),
            getenv("TOOL_SPAWN_VAR") != NULL ? getenv("TOOL_SPAWN_VAR") : "unset",
            yes(getcwd(cwd, sizeof cwd) != NULL && strcmp(cwd, dir) == 0));
    fclose(f);
    return 0;
}

/* A PMIx application started by the launcher: what it can do, in DIR/child.RANK. */
static int client(const char *dir, const char *parent_ns)
{
    pmix_proc_t me, wild;
    pmix_value_t *v = NULL;
    char path[4096];
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    const char *rank = getenv("PMIX_RANK");
    snprintf(path, sizeof path, "%s/child.%s", dir, rank != NULL ? rank : "x");
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return 1;
    }
    if (rc != PMIX_SUCCESS) {
        fprintf(f, "rank %s: init %d\n", rank, (int)rc);
        fclose(f);
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    unsigned size = rc == PMIX_SUCCESS && v->type == PMIX_UINT32 ? v->data.uint32 : 0;
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
        v = NULL;
    }
    rc = PMIx_Get(&wild, PMIX_PARENT_ID, NULL, 0, &v);
    int parent = rc == PMIX_SUCCESS && v->type == PMIX_PROC && strcmp(v->data.proc->nspace, parent_ns) == 0;
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
    }
    pmix_status_t fence = PMIx_Fence(NULL, 0, NULL, 0);
    pmix_status_t fin = PMIx_Finalize(NULL, 0);
    fprintf(f, "rank %u: client of job size %u, parent the launcher %s, fence %d, finalize %d\n",
            me.rank, size, yes(parent), (int)fence, (int)fin);
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_app_t app;
    pmix_nspace_t ns;
    pmix_status_t rc;
    char dir[4096], self[4096], prefix[PMIX_MAX_NSLEN + 2], path[4200];
    const char *tmp = getenv("TMPDIR");

    if (argc == 3 && strcmp(argv[1], "child") == 0) {
        return child(argv[2]);
    }
    if (argc == 4 && strcmp(argv[1], "client") == 0) {
        return client(argv[2], argv[3]);
    }
    int clients = argc == 2 && strcmp(argv[1], "clients") == 0;
    snprintf(dir, sizeof dir, "%s/tool-spawn.XXXXXX", tmp != NULL ? tmp : "/tmp");
    if (realpath(argv[0], self) == NULL || mkdtemp(dir) == NULL) {
        return 1;
    }
    rc = launcher_init(&me);
    if (rc != PMIX_SUCCESS) {
        return 1;
    }
    snprintf(prefix, sizeof prefix, "%s:", me.nspace);
    setenv("TOOL_SPAWN_NSPACE_PREFIX", prefix, 1);

    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(self);
    PMIX_ARGV_APPEND(rc, app.argv, self);
    PMIX_ARGV_APPEND(rc, app.argv, clients ? "client" : "child");
    PMIX_ARGV_APPEND(rc, app.argv, dir);
    if (clients) {
        PMIX_ARGV_APPEND(rc, app.argv, me.nspace);
    }
    PMIX_ARGV_APPEND(rc, app.env, "TOOL_SPAWN_VAR=42");
    app.cwd = strdup(dir);
    app.maxprocs = 2;
    rc = PMIx_Spawn(NULL, 0, &app, 1, ns);
    printf("spawn: %d, namespace <launcher>:N %s\n", (int)rc,
           yes(rc == PMIX_SUCCESS && strncmp(ns, prefix, strlen(prefix)) == 0));
    if (rc == PMIX_SUCCESS) {
        for (int r = 0; r < 2; r++) {
            snprintf(path, sizeof path, "%s/child.%d", dir, r);
            for (int i = 0; i < 200 && access(path, R_OK) != 0; i++) {
                usleep(50000);
            }
            usleep(100000);
            FILE *f = fopen(path, "r");
            char line[512];
            while (f != NULL && fgets(line, sizeof line, f) != NULL) {
                fputs(line, stdout);
            }
            if (f == NULL) {
                printf("rank %d: no report\n", r);
            } else {
                fclose(f);
            }
            unlink(path);
        }
    }
    PMIX_APP_DESTRUCT(&app);
    rmdir(dir);
    rc = PMIx_tool_finalize();
    printf("launcher finalize: %d\n", (int)rc);
    return 0;
}
