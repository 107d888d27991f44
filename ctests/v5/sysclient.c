/* A singleton finding a system server (handshake flag 9). A process started without
 * PMIX_NAMESPACE (a singleton) looks for a system server's rendezvous file pmix.sys.<host> in
 * $PMIX_SYSTEM_TMPDIR and connects to it as "singleton.<host>.<pid>", rank 0; a 5.0 server
 * takes it as a client of that namespace when the host registered it, and closes the
 * connection otherwise (the process then runs as an unconnected singleton).
 *
 *   sysclient host CLIENT_LIB_DIR register|unregistered|planted
 *       a server with system support (PMIx_server_init on the library this runs on) that
 *       forks this program as "client" with LD_LIBRARY_PATH=CLIENT_LIB_DIR ("-": unset), its
 *       namespace registered before the client starts (or not; "planted": registered, the
 *       rendezvous file given to user nobody first), and prints what happens (the
 *       statuses as numbers: the libraries word them differently)
 *   sysclient client
 *       PMIx_Init, then, when connected, Put, Commit, Fence, Get of its key, Finalize */
#include <pmix.h>
#include <pmix_server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int fences, connects, finalizes;

static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    (void) procs; (void) nprocs; (void) info; (void) ninfo;
    fences++;
    /* one process: its own data is the whole collection */
    if (cbfunc) cbfunc(PMIX_SUCCESS, data, ndata, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

static pmix_status_t connected(const pmix_proc_t *proc, void *sd, pmix_op_cbfunc_t cbfunc,
                               void *cbdata)
{
    (void) proc; (void) sd; (void) cbfunc; (void) cbdata;
    connects++;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t finalized(const pmix_proc_t *proc, void *sd, pmix_op_cbfunc_t cbfunc,
                               void *cbdata)
{
    (void) proc; (void) sd; (void) cbfunc; (void) cbdata;
    finalizes++;
    return PMIX_OPERATION_SUCCEEDED;
}

static int client(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    char host[128];
    gethostname(host, sizeof host);
    char expect[PMIX_MAX_NSLEN + 1];
    snprintf(expect, sizeof expect, "singleton.%s.%d", host, (int) getpid());
    printf("client: PMIx_Init %d, named %s, rank %u\n", rc,
           strcmp(me.nspace, expect) == 0 ? "singleton.HOST.PID" : me.nspace, me.rank);
    if (rc == PMIX_SUCCESS) {
        pmix_value_t v, *got = NULL;
        v.type = PMIX_UINT32;
        v.data.uint32 = 4242;
        rc = PMIx_Put(PMIX_GLOBAL, "sysclient.key", &v);
        printf("client: Put %d\n", rc);
        rc = PMIx_Commit();
        printf("client: Commit %d\n", rc);
        rc = PMIx_Fence(NULL, 0, NULL, 0);
        printf("client: Fence %d\n", rc);
        rc = PMIx_Get(&me, "sysclient.key", NULL, 0, &got);
        printf("client: Get of its key %d, %u\n", rc,
               rc == PMIX_SUCCESS && got && got->type == PMIX_UINT32 ? got->data.uint32 : 0);
        if (got) PMIX_VALUE_RELEASE(got);
    }
    rc = PMIx_Finalize(NULL, 0);
    printf("client: Finalize %d\n", rc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "client") == 0) return client();
    if (argc < 4) { fprintf(stderr, "usage: sysclient host CLIENT_LIB_DIR register|unregistered|planted\n"); return 2; }
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char srv[4096], sys[4096];
    snprintf(srv, sizeof srv, "%s/sc-srv.%d", tmp, (int) getpid());
    snprintf(sys, sizeof sys, "%s/sc-sys.%d", tmp, (int) getpid());
    if (mkdir(srv, 0700) != 0 || mkdir(sys, 0700) != 0) { perror("mkdir"); return 3; }
    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    module.fence_nb = fence_nb;
    module.client_connected = connected;
    module.client_finalized = finalized;
    pmix_info_t info[4];
    bool yes = true;
    /* (OpenPMIx writes the system rendezvous file only with tool support too) */
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TMPDIR, srv, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_SYSTEM_TMPDIR, sys, PMIX_STRING);
    pmix_status_t rc = PMIx_server_init(&module, info, 4);
    if (rc != PMIX_SUCCESS) { printf("host: PMIx_server_init %s\n", PMIx_Error_string(rc)); return 1; }
    char host[128];
    gethostname(host, sizeof host);
    char rendezvous[4400];
    snprintf(rendezvous, sizeof rendezvous, "%s/pmix.sys.%s", sys, host);
    printf("host: system rendezvous file %s\n", access(rendezvous, R_OK) == 0 ? "written" : "missing");

    /* "planted": the file belongs to another user (nobody), as one planted in a shared
     * directory would (needs root to give it away) */
    if (strcmp(argv[3], "planted") == 0 && chown(rendezvous, 65534, 65534) != 0) {
        perror("chown");
        return 3;
    }
    int pfd[2];
    if (pipe(pfd) != 0) return 3;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char c;
        close(pfd[1]);
        if (read(pfd[0], &c, 1) != 1) _exit(4);
        if (strcmp(argv[2], "-") == 0) unsetenv("LD_LIBRARY_PATH");
        else setenv("LD_LIBRARY_PATH", argv[2], 1);
        setenv("PMIX_SYSTEM_TMPDIR", sys, 1);
        execl("/proc/self/exe", argv[0], "client", (char *) NULL);
        _exit(5);
    }
    close(pfd[0]);
    int reg = strcmp(argv[3], "unregistered") != 0;
    if (reg) {
        pmix_proc_t proc;
        char ns[PMIX_MAX_NSLEN + 1];
        snprintf(ns, sizeof ns, "singleton.%s.%d", host, (int) pid);
        pmix_info_t job[3];
        uint32_t one = 1;
        PMIX_INFO_LOAD(&job[0], PMIX_JOB_SIZE, &one, PMIX_UINT32);
        PMIX_INFO_LOAD(&job[1], PMIX_LOCAL_SIZE, &one, PMIX_UINT32);
        PMIX_INFO_LOAD(&job[2], PMIX_UNIV_SIZE, &one, PMIX_UINT32);
        rc = PMIx_server_register_nspace(ns, 1, job, 3, NULL, NULL);
        printf("host: register_nspace %d\n", rc);
        PMIX_LOAD_PROCID(&proc, ns, 0);
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
        printf("host: register_client %d\n", rc);
    }
    fflush(stdout);
    if (write(pfd[1], "g", 1) != 1) return 3;
    close(pfd[1]);
    int st = 0;
    waitpid(pid, &st, 0);
    printf("host: client exit %d; upcalls: %d connected, %d fence, %d finalized\n",
           WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), connects, fences, finalizes);
    rc = PMIx_server_finalize();
    printf("host: PMIx_server_finalize %d\n", rc);
    return 0;
}
