/* A server for tool tests, on the public server API only: tool support (rendezvous files in
 * $TMPDIR), a tool_connected upcall that gives each tool "thost-tool-<n>" rank 0, and a query
 * upcall that answers PMIX_QUERY_NAMESPACES with "<server nspace>-job", and a spawn upcall that
 * answers with the namespace "<server nspace>-spawned" and then, from a thread of its own,
 * delivers one line of that job's rank 0 on stdout and one on stderr
 * (PMIx_server_IOF_deliver), as a launcher forwards a new job's output; for the app "ended" it
 * registers the job, delivers that output and deregisters the job before it answers (a short
 * job under PRRTE's DVM ends before prun's spawn is answered). It writes its pid to
 * argv[1] once ready, serves until SIGTERM (or 30 s), then finalizes and exits 0.
 * usage: thost PIDFILE [SERVER_NSPACE (default thost)] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>

static volatile sig_atomic_t stop;
static int ntools;
static const char *server_nspace = "thost";

static void on_term(int sig) { (void) sig; stop = 1; }

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    pmix_proc_t p;
    (void) info; (void) ninfo;
    PMIX_LOAD_PROCID(&p, NULL, 0);
    snprintf(p.nspace, sizeof(p.nspace), "thost-tool-%d", ++ntools);
    if (cbfunc) cbfunc(PMIX_SUCCESS, &p, cbdata);
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    size_t n, k, found = 0;
    pmix_info_t *res;
    char job[PMIX_MAX_NSLEN + 1];
    (void) proct;
    snprintf(job, sizeof(job), "%s-job", server_nspace);
    PMIX_INFO_CREATE(res, nqueries);
    for (n = 0; n < nqueries; n++) {
        for (k = 0; NULL != queries[n].keys && NULL != queries[n].keys[k]; k++) {
            if (0 == strcmp(queries[n].keys[k], PMIX_QUERY_NAMESPACES) && found < nqueries) {
                PMIX_INFO_LOAD(&res[found], PMIX_QUERY_NAMESPACES, job, PMIX_STRING);
                found++;
            }
        }
    }
    cbfunc(found ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, res, found, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

typedef struct {
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
    int ended;  /* the app is "ended": the job runs and ends before the spawn is answered */
} spawn_req_t;

static void registered(pmix_status_t status, void *cbdata)
{
    (void) status;
    *(volatile int *) cbdata = 1;
}

static void delivered(pmix_status_t status, void *cbdata)
{
    (void) status;
    (void) cbdata;
}

static void *spawn_thread(void *arg)
{
    spawn_req_t *req = arg;
    char ns[PMIX_MAX_NSLEN + 1];
    pmix_proc_t rank0;
    pmix_byte_object_t out = {.bytes = "out of the spawned job\n", .size = 23};
    pmix_byte_object_t err = {.bytes = "err of the spawned job\n", .size = 23};
    snprintf(ns, sizeof(ns), "%s-spawned", server_nspace);
    PMIX_LOAD_PROCID(&rank0, ns, 0);
    if (req->ended) {
        /* as PRRTE's DVM with a short job: registered, its output delivered, deregistered,
         * and only then the spawn answered */
        volatile int done = 0;
        pmix_info_t size;
        uint32_t one = 1;
        PMIX_INFO_LOAD(&size, PMIX_JOB_SIZE, &one, PMIX_UINT32);
        PMIx_server_register_nspace(ns, 1, &size, 1, registered, (void *) &done);
        while (!done) {
            usleep(1000);
        }
        PMIx_server_IOF_deliver(&rank0, PMIX_FWD_STDOUT_CHANNEL, &out, NULL, 0, delivered, NULL);
        PMIx_server_IOF_deliver(&rank0, PMIX_FWD_STDERR_CHANNEL, &err, NULL, 0, delivered, NULL);
        PMIx_server_deregister_nspace(ns, NULL, NULL);
        usleep(100000);
        req->cbfunc(PMIX_SUCCESS, ns, req->cbdata);
        free(req);
        return NULL;
    }
    req->cbfunc(PMIX_SUCCESS, ns, req->cbdata);
    free(req);
    usleep(300000);
    PMIx_server_IOF_deliver(&rank0, PMIX_FWD_STDOUT_CHANNEL, &out, NULL, 0, delivered, NULL);
    PMIx_server_IOF_deliver(&rank0, PMIX_FWD_STDERR_CHANNEL, &err, NULL, 0, delivered, NULL);
    return NULL;
}

static pmix_status_t spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                           const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                           void *cbdata)
{
    pthread_t t;
    spawn_req_t *req = malloc(sizeof(*req));
    (void) proc; (void) job_info; (void) ninfo;
    req->cbfunc = cbfunc;
    req->cbdata = cbdata;
    req->ended = napps > 0 && NULL != apps[0].cmd && 0 == strcmp(apps[0].cmd, "ended");
    if (0 != pthread_create(&t, NULL, spawn_thread, req)) {
        free(req);
        return PMIX_ERROR;
    }
    pthread_detach(t);
    return PMIX_SUCCESS;
}

int main(int argc, char **argv)
{
    pmix_server_module_t module;
    pmix_info_t info[5];
    bool yes = true, no = false;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    FILE *f;
    int i;
    if (argc > 2) {
        server_nspace = argv[2];
    }
    memset(&module, 0, sizeof(module));
    module.tool_connected = tool_connected;
    module.query = query;
    module.spawn = spawn;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[4], PMIX_SERVER_NSPACE, server_nspace, PMIX_STRING);
    if (strncmp(PMIx_Get_version(), "pmix-rs", 7) != 0) {
        setenv("PMIX_MCA_gds", "hash", 1);   /* for the reference server (see host.c) */
    }
    if (PMIX_SUCCESS != PMIx_server_init(&module, info, 5)) {
        fprintf(stderr, "thost: server init failed\n");
        return 1;
    }
    signal(SIGTERM, on_term);
    if (argc > 1 && NULL != (f = fopen(argv[1], "w"))) {
        fprintf(f, "%d\n", (int) getpid());
        fclose(f);
    }
    for (i = 0; i < 300 && !stop; i++) {
        usleep(100000);
    }
    PMIx_server_finalize();
    return 0;
}
