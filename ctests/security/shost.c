/* The second-user test's host: a server on the public server API (our library or the
 * reference) with tool support, that approves tools and requests the way a careful host
 * does: by the PMIX_USERID/PMIX_GRPID the server library hands it. Every upcall writes one
 * line to LOG ("UPCALL uid=U gid=G -> yes|no"; uid=- when the library gave none), so the
 * test sees which identity reached the host. Approved: this process's uid and the uids in
 * $SHOST_ALLOW (comma-separated). An approved spawn runs its first app (argv, no PMIx) and
 * is reported as namespace "shost-job".
 * With "notools" as the third argument the host has no tool_connected upcall: the standard
 * says such a server rejects every tool.
 * Writes its pid to PIDFILE once ready; serves until SIGTERM (or 60 s).
 * usage: shost PIDFILE LOG [notools] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmix_server.h>

static volatile sig_atomic_t stop;
static int ntools;
static FILE *logf;

static void on_term(int sig) { (void) sig; stop = 1; }

/* The requester's uid as the library states it (-1: not stated). */
static long ids_of(const pmix_info_t *info, size_t ninfo, long *gid)
{
    long uid = -1;
    size_t n;
    *gid = -1;
    for (n = 0; NULL != info && n < ninfo; n++) {
        if (PMIX_UINT32 != info[n].value.type) continue;
        if (PMIX_CHECK_KEY(&info[n], PMIX_USERID)) uid = info[n].value.data.uint32;
        if (PMIX_CHECK_KEY(&info[n], PMIX_GRPID)) *gid = info[n].value.data.uint32;
    }
    return uid;
}

static int approved(long uid)
{
    const char *allow = getenv("SHOST_ALLOW");
    char buf[256], *tok, *save = NULL;
    if (uid < 0) return 0;
    if ((uid_t) uid == getuid()) return 1;
    if (NULL == allow) return 0;
    snprintf(buf, sizeof(buf), "%s", allow);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (atol(tok) == uid) return 1;
    }
    return 0;
}

/* Logs the upcall and says whether the requester is approved. */
static int judge(const char *what, const pmix_info_t *info, size_t ninfo)
{
    long gid, uid = ids_of(info, ninfo, &gid);
    int ok = approved(uid);
    if (uid < 0) fprintf(logf, "%s uid=- gid=- -> no\n", what);
    else fprintf(logf, "%s uid=%ld gid=%ld -> %s\n", what, uid, gid, ok ? "yes" : "no");
    fflush(logf);
    return ok;
}

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, NULL, 0);
    snprintf(p.nspace, sizeof(p.nspace), "shost-tool-%d", ++ntools);
    if (!judge("tool_connected", info, ninfo)) {
        /* (a proc even with an error: the reference's callback reads it) */
        cbfunc(PMIX_ERR_NO_PERMISSIONS, &p, cbdata);
        return;
    }
    cbfunc(PMIX_SUCCESS, &p, cbdata);
}

static pmix_status_t spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                           const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                           void *cbdata)
{
    pid_t pid;
    (void) proc;
    if (!judge("spawn", job_info, ninfo)) return PMIX_ERR_NO_PERMISSIONS;
    if (napps < 1 || NULL == apps[0].argv) return PMIX_ERR_BAD_PARAM;
    pid = fork();
    if (0 == pid) {
        execvp(apps[0].cmd ? apps[0].cmd : apps[0].argv[0], apps[0].argv);
        _exit(127);
    }
    if (pid > 0) waitpid(pid, NULL, 0);
    cbfunc(PMIX_SUCCESS, "shost-job", cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                 size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    (void) requestor; (void) targets; (void) ntargets; (void) cbfunc; (void) cbdata;
    /* Nothing to signal here: the answer is the decision. */
    return judge("job_control", directives, ndirs) ? PMIX_OPERATION_SUCCEEDED
                                                   : PMIX_ERR_NO_PERMISSIONS;
}

static pmix_status_t push_stdin(const pmix_proc_t *source, const pmix_proc_t targets[],
                                size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                const pmix_byte_object_t *bo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) source; (void) targets; (void) ntargets; (void) bo; (void) cbfunc; (void) cbdata;
    return judge("push_stdin", directives, ndirs) ? PMIX_OPERATION_SUCCEEDED
                                                  : PMIX_ERR_NO_PERMISSIONS;
}

static pmix_status_t publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) proc; (void) cbfunc; (void) cbdata;
    return judge("publish", info, ninfo) ? PMIX_OPERATION_SUCCEEDED : PMIX_ERR_NO_PERMISSIONS;
}

static pmix_status_t lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                            size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    (void) proc; (void) keys; (void) cbfunc; (void) cbdata;
    return judge("lookup", info, ninfo) ? PMIX_ERR_NOT_FOUND : PMIX_ERR_NO_PERMISSIONS;
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    (void) queries; (void) nqueries; (void) cbfunc; (void) cbdata;
    fprintf(logf, "query from %s\n", proct ? proct->nspace : "-");
    fflush(logf);
    return PMIX_ERR_NOT_FOUND;
}

int main(int argc, char **argv)
{
    pmix_server_module_t module;
    pmix_info_t info[4];
    bool yes = true;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    FILE *f;
    int i;
    if (argc < 3 || NULL == (logf = fopen(argv[2], "a"))) {
        fprintf(stderr, "usage: shost PIDFILE LOG [notools]\n");
        return 2;
    }
    memset(&module, 0, sizeof(module));
    if (argc < 4 || 0 != strcmp(argv[3], "notools")) module.tool_connected = tool_connected;
    module.spawn = spawn;
    module.job_control = job_control;
    module.push_stdin = push_stdin;
    module.publish = publish;
    module.lookup = lookup;
    module.query = query;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_NSPACE, "shost", PMIX_STRING);
    setenv("PMIX_MCA_gds", "hash", 1);
    if (PMIX_SUCCESS != PMIx_server_init(&module, info, 4)) {
        fprintf(stderr, "shost: server init failed\n");
        return 1;
    }
    signal(SIGTERM, on_term);
    if (NULL != (f = fopen(argv[1], "w"))) {
        fprintf(f, "%d\n", (int) getpid());
        fclose(f);
    }
    for (i = 0; i < 600 && !stop; i++) usleep(100000);
    PMIx_server_finalize();
    fclose(logf);
    return 0;
}
