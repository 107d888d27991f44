/* bhost: the benchmark host. A minimal PMIx host ("resource manager") for one machine written
 * on the public server API only (pmix_server.h), so that the same binary runs over the reference
 * OpenPMIx library and over ours; the library is chosen with LD_LIBRARY_PATH.
 *
 * usage: bhost [-n N] [-j JOBSIZE] [-r REPEAT] [-t SECONDS] [-H CPU] [-C CPU] [-S] [-T K] -- prog args...
 *
 *   -n N        local processes to start (default 1)
 *   -j JOBSIZE  ranks registered in the namespace (default N). Ranks 0..N-1 are local; the
 *               others are placed on synthetic remote nodes of 32 ranks each (full per-process
 *               data for every rank), so that memory can be measured against the job size.
 *               They never run: a fence over the whole job reaches fence_nb, which completes
 *               with the local contribution; direct modex for them answers NOT_FOUND.
 *   -r REPEAT   run the job REPEAT times, one after the other, each in a fresh namespace
 *   -t SECONDS  watchdog: kill everything and exit 124 after this long (default 120)
 *   -H CPU      pin the host (and the library's threads, started later) to CPU (-1: no pinning)
 *   -C CPU      pin every client to CPU (-1: no pinning)
 *   -S          storm hold: every client, once its PMIx_Init returned, writes a byte to the
 *               pipe named by BENCH_DONE_FD and waits (EOF on BENCH_HOLD_FD) until all N have,
 *               so that the first clients' Finalize, exit and result files do not share the
 *               CPU with the last clients' PMIx_Init (the connect storm; a real job's ranks
 *               stay alive after their Init too)
 *   -T K        tool mode: no job; the server is started with tool support and the program is
 *               run K times, one after the other, as a plain child (not a client), with
 *               BENCH_SERVER_PID set; it is expected to connect to this server as a tool
 *   -I BYTES    IOF mode: the server is started with tool support, a namespace of one rank is
 *               registered (no process runs for it), and the program is run once as a plain
 *               child (a tool) with BENCH_SERVER_PID, BENCH_IOF_NSPACE, BENCH_IOF_BYTES and
 *               BENCH_IOF_READY_FD set. Once the tool writes a byte to BENCH_IOF_READY_FD (its
 *               PMIx_IOF_pull is registered), the host calls PMIx_server_IOF_deliver for the
 *               stdout of rank 0 in chunks of -b CHUNK bytes (default 65536) until BYTES
 *               bytes are delivered, at most -w WINDOW (default 16) deliveries in flight, then
 *               waits for the tool to exit. The host's delivery time (ns) goes to
 *               $BENCH_OUT/iof_host_ns.0; the iof_pull upcalls are counted in upcalls.
 *
 * Start: the N clients are forked and exec'ed first, then released together: every client
 * writes one byte to the pipe named by BENCH_READY_FD and closes it once it runs (its
 * libraries loaded), then blocks reading the pipe named by BENCH_GO_FD until the host
 * closes its end, which it does once all N are ready (every byte read, or every copy of the
 * ready pipe closed: a client that died before it was ready does not hold the others).
 * Until 2026-11-27 the host released the clients as soon as it had forked them, so that
 * the figures after the release (the connect storm above all: 1000 clients on one CPU)
 * also counted the exec and dynamic loading of the clients still starting. The host writes the CLOCK_MONOTONIC time of the release (ns) to
 * $BENCH_OUT/go.<repeat> and its own PSS (kB) after registering the namespace, before any
 * client exists, to $BENCH_OUT/host_pss_registered.<repeat> (RSS: host_rss_registered), and
 * at the end the number of upcalls of each kind to $BENCH_OUT/upcalls, if BENCH_OUT is set.
 *
 * BENCH_CLIENT_LD_LIBRARY_PATH, when set, becomes LD_LIBRARY_PATH in the environment of every
 * client (not of tools), so that the clients run on another library than the host's (the
 * scale figure's "our server with reference clients" and the converse). At the end the host
 * prints "bhost: version <PMIx_Get_version()>" on stdout, writes its peak RSS (VmHWM of
 * /proc/self/status, kB, after every client exited) to $BENCH_OUT/host_hwm and the
 * CLOCK_MONOTONIC time (ns) at which the last client of each repeat was reaped to
 * $BENCH_OUT/last_exit.<repeat>.
 *
 * Exit status: 0 if every client exited 0; else the first non-zero code (128+signal when
 * signalled); 124 on the watchdog. Every failure is also described on stderr.
 *
 * Threads: upcalls run on the library's progress thread and never answer from inside the
 * upcall (the reference mishandles some inline answers); answers go through one answer thread
 * (the answer queue, the waiters and the signal set-up are ../ctests/hostkit.h's, shared with
 * the C test hosts).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

#include "../ctests/hostkit.h"
#include "common.h"

extern char **environ;

#define REMOTE_PPN 32

static char hostname[256];
static const char *out_dir;

/* upcall counts, written to $BENCH_OUT/upcalls at the end: which operations each library
 * passes to the host */
static volatile long n_fence, n_fence_bytes, n_dmodex, n_connected, n_finalized, n_iof_pull;

/* The watchdog kills every child without taking locks. */
#define MAX_PIDS 65536
static volatile pid_t all_pids[MAX_PIDS];
static volatile sig_atomic_t npids;

static void die(const char *what)
{
    fprintf(stderr, "bhost: %s\n", what);
    exit(1);
}

/* A non-blocking call with an op callback, waited for (waiter_result, ../ctests/hostkit.h). */
#define CALL_WAIT(rc, call_with_cb)                                                   \
    do {                                                                              \
        waiter_t w_;                                                                  \
        waiter_init(&w_);                                                             \
        pmix_op_cbfunc_t cb_ = waiter_op_cb;                                          \
        void *cbd_ = &w_;                                                             \
        (rc) = waiter_result(&w_, call_with_cb);                                      \
        (void) cb_;                                                                   \
        (void) cbd_;                                                                  \
    } while (0)

/* -- upcalls ---------------------------------------------------------------------------------- */

static pmix_status_t client_connected(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) proc;
    (void) server_object;
    __sync_fetch_and_add(&n_connected, 1);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t client_finalized(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) proc;
    (void) server_object;
    __sync_fetch_and_add(&n_finalized, 1);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t abort_fn(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    sig_atomic_t n;
    (void) server_object;
    (void) procs;
    (void) nprocs;
    fprintf(stderr, "bhost: abort from %s:%u status %d: %s\n", proc->nspace, proc->rank, status,
            msg ? msg : "");
    for (n = 0; n < npids; n++) {
        kill(all_pids[n], SIGKILL);
    }
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

/* Only one server exists, so a fence the library passes up is complete at once: every
 * contributor gets back the data it gave (which is the data of all local participants). */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    char *copy = NULL;
    (void) procs;
    (void) nprocs;
    (void) info;
    (void) ninfo;
    __sync_fetch_and_add(&n_fence, 1);
    __sync_fetch_and_add(&n_fence_bytes, (long) ndata);
    if (ndata > 0) {
        copy = xcalloc(1, ndata);
        memcpy(copy, data, ndata);
    }
    answer_modex(cbfunc, cbdata, PMIX_SUCCESS, copy, ndata);
    return PMIX_SUCCESS;
}

static pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void) proc;
    (void) info;
    (void) ninfo;
    __sync_fetch_and_add(&n_dmodex, 1);
    /* every running process is local: there is no other server to ask */
    answer_modex(cbfunc, cbdata, PMIX_ERR_NOT_FOUND, NULL, 0);
    return PMIX_SUCCESS;
}

/* A tool connecting: give it its own namespace, rank 0. Answered from inside the upcall, as
 * ctests/tools/thost.c does on both libraries. */
static volatile long n_tools;
static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    pmix_proc_t p;
    long n = __sync_add_and_fetch(&n_tools, 1);
    (void) info;
    (void) ninfo;
    PMIX_LOAD_PROCID(&p, NULL, 0);
    snprintf(p.nspace, sizeof(p.nspace), "bench-tool-%ld", n);
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, &p, cbdata);
    }
}

/* A tool's IOF pull: nothing to set up, the only output is what this host delivers. The
 * reference (4.2.2) refuses a tool's pull when the host has no iof_pull upcall
 * (NOT-SUPPORTED), and its progress thread deadlocks when the upcall answers through the
 * callback (from the answer thread): so it answers at once, which both libraries accept. */
static pmix_status_t iof_pull(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t directives[], size_t ndirs,
                              pmix_iof_channel_t channels, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) procs;
    (void) nprocs;
    (void) directives;
    (void) ndirs;
    (void) channels;
    (void) cbfunc;
    (void) cbdata;
    __sync_fetch_and_add(&n_iof_pull, 1);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = abort_fn,
    .fence_nb = fence_nb,
    .direct_modex = direct_modex,
    .tool_connected = tool_connected,
    .iof_pull = iof_pull,
};

/* -- registration ----------------------------------------------------------------------------- */

static uint32_t node_of(pmix_rank_t r, int nlocal)
{
    return (int) r < nlocal ? 0 : 1 + (r - (pmix_rank_t) nlocal) / REMOTE_PPN;
}

static void node_name(uint32_t node, char *buf, size_t len)
{
    if (node == 0) {
        snprintf(buf, len, "%s", hostname);
    } else {
        snprintf(buf, len, "bnode%05u", node);
    }
}

static pmix_status_t register_job(const char *nspace, int nlocal, int jobsize)
{
    pmix_info_t *info;
    size_t ninfo, k = 0;
    pmix_rank_t r;
    uint32_t u32, nnodes = node_of((pmix_rank_t) jobsize - 1, nlocal) + 1, nd;
    char *peers, *nodes, *ppn_in, *regex = NULL, *ppn = NULL, *p;
    char name[300];
    uint32_t appnum = 0;
    pmix_status_t rc;

    peers = xcalloc((size_t) nlocal, 12);
    for (r = 0, p = peers; (int) r < nlocal; r++) {
        p += sprintf(p, "%s%u", r ? "," : "", r);
    }
    nodes = xcalloc(nnodes, 300);
    for (nd = 0, p = nodes; nd < nnodes; nd++) {
        node_name(nd, name, sizeof(name));
        p += sprintf(p, "%s%s", nd ? "," : "", name);
    }
    ppn_in = xcalloc((size_t) jobsize, 12);
    for (r = 0, p = ppn_in; (int) r < jobsize; r++) {
        const char *sep = r == 0 ? "" : node_of(r, nlocal) != node_of(r - 1, nlocal) ? ";" : ",";
        p += sprintf(p, "%s%u", sep, r);
    }
    if (PMIx_generate_regex(nodes, &regex) != PMIX_SUCCESS
        || PMIx_generate_ppn(ppn_in, &ppn) != PMIX_SUCCESS) {
        die("PMIx_generate_regex/ppn failed");
    }

    ninfo = 16 + (size_t) jobsize;
    PMIX_INFO_CREATE(info, ninfo);
    u32 = (uint32_t) jobsize;
    info_load(&info[k++], PMIX_UNIV_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_JOB_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_MAX_PROCS, &u32, PMIX_UINT32);
    u32 = (uint32_t) nlocal;
    info_load(&info[k++], PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    info_load(&info[k++], PMIX_APPNUM, &appnum, PMIX_UINT32);
    info_load(&info[k++], PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    info_load(&info[k++], PMIX_NODE_MAP, regex, PMIX_REGEX);
    info_load(&info[k++], PMIX_PROC_MAP, ppn, PMIX_REGEX);
    info_load(&info[k++], PMIX_JOBID, nspace, PMIX_STRING);
    info_load(&info[k++], PMIX_NSPACE, nspace, PMIX_STRING);
    info_load(&info[k++], PMIX_HOSTNAME, hostname, PMIX_STRING);
    u32 = 0;
    info_load(&info[k++], PMIX_NODEID, &u32, PMIX_UINT32);
    for (r = 0; (int) r < jobsize; r++) {
        pmix_data_array_t *darray;
        pmix_info_t *pi;
        uint32_t node = node_of(r, nlocal), an = 0;
        uint16_t lrank = (uint16_t) (node == 0 ? r : (r - (pmix_rank_t) nlocal) % REMOTE_PPN);
        node_name(node, name, sizeof(name));
        PMIX_DATA_ARRAY_CREATE(darray, 6, PMIX_INFO);
        pi = darray->array;
        info_load(&pi[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        info_load(&pi[1], PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
        info_load(&pi[2], PMIX_NODE_RANK, &lrank, PMIX_UINT16);
        info_load(&pi[3], PMIX_APPNUM, &an, PMIX_UINT32);
        info_load(&pi[4], PMIX_HOSTNAME, name, PMIX_STRING);
        info_load(&pi[5], PMIX_NODEID, &node, PMIX_UINT32);
        PMIX_LOAD_KEY(info[k].key, PMIX_PROC_DATA);
        info[k].value.type = PMIX_DATA_ARRAY;
        info[k].value.data.darray = darray;
        k++;
    }
    free(peers);
    free(nodes);
    free(ppn_in);
    free(regex);
    free(ppn);

    CALL_WAIT(rc, PMIx_server_register_nspace(nspace, nlocal, info, k, cb_, cbd_));
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "bhost: PMIx_server_register_nspace(%s, job size %d): %s\n", nspace,
                jobsize, PMIx_Error_string(rc));
    }
    return rc;
}

/* -- environment ------------------------------------------------------------------------------ */

static char **env_copy(void)
{
    size_t n = argv_len(environ), i;
    char **c = xcalloc(n + 1, sizeof(char *));
    for (i = 0; i < n; i++) {
        c[i] = strdup(environ[i]);
    }
    return c;
}

/* Set NAME=VALUE in the malloc'd environment *envp (replacing NAME if present). */
static void env_set(char ***envp, const char *name, const char *value)
{
    size_t n = argv_len(*envp), len = strlen(name), i;
    char *entry = xcalloc(1, len + strlen(value) + 2);
    sprintf(entry, "%s=%s", name, value);
    for (i = 0; i < n; i++) {
        if (strncmp((*envp)[i], name, len) == 0 && (*envp)[i][len] == '=') {
            free((*envp)[i]);
            (*envp)[i] = entry;
            return;
        }
    }
    *envp = realloc(*envp, (n + 2) * sizeof(char *));
    if (*envp == NULL) {
        die("out of memory");
    }
    (*envp)[n] = entry;
    (*envp)[n + 1] = NULL;
}

static void env_free(char **a)
{
    size_t i;
    for (i = 0; a != NULL && a[i] != NULL; i++) {
        free(a[i]);
    }
    free(a);
}

/* -- main ------------------------------------------------------------------------------------- */

static void on_fatal_signal(int sig)
{
    sig_atomic_t n;
    for (n = 0; n < npids; n++) {
        kill(all_pids[n], SIGKILL);
    }
    if (sig == SIGALRM) {
        static const char msg[] = "bhost: watchdog expired, killing every client\n";
        if (write(2, msg, sizeof(msg) - 1) < 0) {
            _exit(124);
        }
        _exit(124);
    }
    _exit(128 + sig);
}

static void pin_self(int cpu)
{
    cpu_set_t set;
    if (cpu < 0) {
        return;
    }
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
        fprintf(stderr, "bhost: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
    }
}

static void write_value(const char *name, int rep, long long v)
{
    char path[4096];
    FILE *f;
    if (out_dir == NULL) {
        return;
    }
    if (rep >= 0) {
        snprintf(path, sizeof(path), "%s/%s.%d", out_dir, name, rep);
    } else {
        snprintf(path, sizeof(path), "%s/%s", out_dir, name);
    }
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "bhost: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "%lld\n", v);
    fclose(f);
}

/* A field ("VmHWM:", "VmRSS:", ...) of /proc/self/status in kB, or -1. */
static long long status_kb(const char *field)
{
    return bench_proc_field("/proc/self/status", field);
}

/* In a child between fork and exec: the default action for the signals the host handles,
 * nothing blocked, no alarm pending, and pinned to `cpu` when it is not negative. */
static void child_reset(int cpu)
{
    struct sigaction dfl;
    sigset_t none;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigaction(SIGALRM, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    sigaction(SIGINT, &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    alarm(0);
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
}

/* -S: hold every client after its PMIx_Init until all N returned from it */
static bool storm_hold;

/* Reads the read end `fd` of a pipe the clients each write one byte to, until `n` bytes came
 * or every copy of its write end is closed (a client that died never writes), then closes
 * it. */
static void await_clients(int fd, int n)
{
    int seen = 0;
    while (seen < n) {
        char buf[256];
        ssize_t got = read(fd, buf, sizeof(buf));
        if (got > 0) {
            seen += (int) got;
        } else if (got == 0 || errno != EINTR) {
            break;
        }
    }
    close(fd);
}

static int run_job(int rep, int nlocal, int jobsize, int client_cpu, char **cmd)
{
    char nspace[PMIX_MAX_NSLEN + 1];
    pid_t *pids = xcalloc((size_t) nlocal, sizeof(pid_t));
    int gofd[2], readyfd[2], holdfd[2] = {-1, -1}, donefd[2] = {-1, -1}, i, failure = 0, left;
    pmix_status_t rc;
    pmix_proc_t proc;
    char gofd_env[64], readyfd_env[64];
    const char *client_libs = getenv("BENCH_CLIENT_LD_LIBRARY_PATH");

    snprintf(nspace, sizeof(nspace), "bench.%d.%d", (int) getpid(), rep);
    if (register_job(nspace, nlocal, jobsize) != PMIX_SUCCESS) {
        return 1;
    }
    write_value("host_pss_registered", rep, bench_pss_kb(getpid()));
    write_value("host_rss_registered", rep, bench_smaps_kb(getpid(), "Rss:"));

    if (pipe(gofd) != 0) {
        die("pipe failed");
    }
    fcntl(gofd[1], F_SETFD, FD_CLOEXEC);
    snprintf(gofd_env, sizeof(gofd_env), "%d", gofd[0]);
    setenv("BENCH_GO_FD", gofd_env, 1);
    if (pipe(readyfd) != 0) {
        die("pipe failed");
    }
    fcntl(readyfd[0], F_SETFD, FD_CLOEXEC);
    snprintf(readyfd_env, sizeof(readyfd_env), "%d", readyfd[1]);
    setenv("BENCH_READY_FD", readyfd_env, 1);
    if (storm_hold) {
        char env[32];
        if (pipe(holdfd) != 0 || pipe(donefd) != 0) {
            die("pipe failed");
        }
        fcntl(holdfd[1], F_SETFD, FD_CLOEXEC);
        fcntl(donefd[0], F_SETFD, FD_CLOEXEC);
        snprintf(env, sizeof(env), "%d", holdfd[0]);
        setenv("BENCH_HOLD_FD", env, 1);
        snprintf(env, sizeof(env), "%d", donefd[1]);
        setenv("BENCH_DONE_FD", env, 1);
    }

    for (i = 0; i < nlocal; i++) {
        char **env;
        pid_t pid;
        PMIX_LOAD_PROCID(&proc, nspace, (pmix_rank_t) i);
        CALL_WAIT(rc, PMIx_server_register_client(&proc, getuid(), getgid(), NULL, cb_, cbd_));
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "bhost: PMIx_server_register_client(%s:%d): %s\n", nspace, i,
                    PMIx_Error_string(rc));
            failure = 1;
            break;
        }
        env = env_copy();
        rc = PMIx_server_setup_fork(&proc, &env);
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "bhost: PMIx_server_setup_fork(%s:%d): %s\n", nspace, i,
                    PMIx_Error_string(rc));
            env_free(env);
            failure = 1;
            break;
        }
        if (client_libs != NULL) {
            env_set(&env, "LD_LIBRARY_PATH", client_libs);
        }
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            fprintf(stderr, "bhost: fork: %s\n", strerror(errno));
            env_free(env);
            failure = 1;
            break;
        }
        if (pid == 0) {
            static const char msg[] = "bhost: exec failed\n";
            child_reset(client_cpu);
            execve(cmd[0], cmd, env);
            if (write(2, msg, sizeof(msg) - 1) < 0) {
                _exit(127);
            }
            _exit(127);
        }
        env_free(env);
        pids[i] = pid;
        if (npids < MAX_PIDS) {
            all_pids[npids] = pid;
            npids = npids + 1;
        }
    }
    close(gofd[0]);
    close(readyfd[1]);
    unsetenv("BENCH_READY_FD");
    /* wait until every client runs (its byte, or its copy of the pipe closed) */
    await_clients(readyfd[0], i);
    /* release the clients together */
    write_value("go", rep, bench_now_ns());
    close(gofd[1]);
    if (storm_hold) {
        close(holdfd[0]);
        close(donefd[1]);
        unsetenv("BENCH_HOLD_FD");
        unsetenv("BENCH_DONE_FD");
        /* every client returned from PMIx_Init (or died): let them go on */
        await_clients(donefd[0], i);
        close(holdfd[1]);
    }

    /* wait for every client started */
    left = 0;
    for (i = 0; i < nlocal; i++) {
        left += pids[i] > 0;
    }
    while (left > 0) {
        int status, code;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        for (i = 0; i < nlocal; i++) {
            if (pids[i] != pid) {
                continue;
            }
            left--;
            code = WIFEXITED(status) ? WEXITSTATUS(status)
                   : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
            if (code != 0) {
                if (WIFSIGNALED(status)) {
                    fprintf(stderr, "bhost: %s:%d (pid %d) killed by signal %d\n", nspace, i,
                            (int) pid, WTERMSIG(status));
                } else {
                    fprintf(stderr, "bhost: %s:%d (pid %d) exited with code %d\n", nspace, i,
                            (int) pid, code);
                }
                if (failure == 0) {
                    int j;
                    failure = code;
                    /* the others would wait for it in their next fence: stop them now */
                    for (j = 0; j < nlocal; j++) {
                        if (pids[j] > 0 && j != i) {
                            kill(pids[j], SIGKILL);
                        }
                    }
                    fprintf(stderr, "bhost: killed the other clients of %s\n", nspace);
                }
            }
            PMIX_LOAD_PROCID(&proc, nspace, (pmix_rank_t) i);
            {
                waiter_t w;
                waiter_init(&w);
                PMIx_server_deregister_client(&proc, waiter_op_cb, &w);
                waiter_wait(&w);
            }
        }
    }
    write_value("last_exit", rep, bench_now_ns());
    {
        waiter_t w;
        waiter_init(&w);
        PMIx_server_deregister_nspace(nspace, waiter_op_cb, &w);
        waiter_wait(&w);
    }
    free(pids);
    return failure;
}

/* Start `cmd` as a plain child (a tool) on CPU `cpu` (if >= 0), with the default signal
 * dispositions and mask, and record its pid for the watchdog. Returns the pid, or -1
 * (reported) if fork failed. */
static pid_t spawn_plain(int cpu, char **cmd)
{
    pid_t pid;
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bhost: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        child_reset(cpu);
        execv(cmd[0], cmd);
        _exit(127);
    }
    if (npids < MAX_PIDS) {
        all_pids[npids] = pid;
        npids = npids + 1;
    }
    return pid;
}

/* Run `cmd` K times, one after the other, as plain children (tools). */
static int run_tools(int k, int cpu, char **cmd)
{
    char pidenv[32];
    int i, failure = 0;
    snprintf(pidenv, sizeof(pidenv), "%d", (int) getpid());
    setenv("BENCH_SERVER_PID", pidenv, 1);
    unsetenv("BENCH_GO_FD");
    for (i = 0; i < k && failure == 0; i++) {
        int status;
        pid_t pid;
        pid = spawn_plain(cpu, cmd);
        if (pid < 0) {
            return 1;
        }
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            failure = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            fprintf(stderr, "bhost: tool %d (pid %d) failed with %d\n", i, (int) pid, failure);
        }
    }
    return failure;
}

/* -- IOF mode ---------------------------------------------------------------------------------- */

static pthread_mutex_t iof_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t iof_cond = PTHREAD_COND_INITIALIZER;
static int iof_inflight;
static pmix_status_t iof_status = PMIX_SUCCESS;

static void iof_delivered(pmix_status_t status, void *cbdata)
{
    (void) cbdata;
    pthread_mutex_lock(&iof_lock);
    iof_inflight--;
    if (status != PMIX_SUCCESS && iof_status == PMIX_SUCCESS) {
        iof_status = status;
    }
    pthread_cond_signal(&iof_cond);
    pthread_mutex_unlock(&iof_lock);
}

/* Start `cmd` as a tool, wait until its pull is registered, deliver `total` bytes of stdout of
 * rank 0 of a one-rank namespace, wait for the tool. */
static int run_iof(long long total, size_t chunk, int window, int cpu, char **cmd)
{
    char nspace[PMIX_MAX_NSLEN + 1], env[64];
    pmix_proc_t src;
    pmix_byte_object_t bo;
    char *buf;
    size_t k;
    int readyfd[2], status, failure = 0;
    long long sent = 0, t0, t1;
    pid_t pid;
    char c;
    ssize_t got;

    snprintf(nspace, sizeof(nspace), "bench-iof.%d", (int) getpid());
    if (register_job(nspace, 1, 1) != PMIX_SUCCESS) {
        return 1;
    }
    /* the payload: lines of printable text, the same buffer for every delivery (never
     * written while a delivery may still read it) */
    buf = xcalloc(1, chunk);
    for (k = 0; k < chunk; k++) {
        buf[k] = (k % 64 == 63) ? '\n' : (char) ('a' + k % 26);
    }
    if (pipe(readyfd) != 0) {
        die("pipe failed");
    }
    fcntl(readyfd[0], F_SETFD, FD_CLOEXEC);
    snprintf(env, sizeof(env), "%d", (int) getpid());
    setenv("BENCH_SERVER_PID", env, 1);
    setenv("BENCH_IOF_NSPACE", nspace, 1);
    snprintf(env, sizeof(env), "%lld", total);
    setenv("BENCH_IOF_BYTES", env, 1);
    snprintf(env, sizeof(env), "%d", readyfd[1]);
    setenv("BENCH_IOF_READY_FD", env, 1);
    unsetenv("BENCH_GO_FD");
    pid = spawn_plain(cpu, cmd);
    if (pid < 0) {
        return 1;
    }
    close(readyfd[1]);
    do {
        got = read(readyfd[0], &c, 1);
    } while (got < 0 && errno == EINTR);
    close(readyfd[0]);
    if (got == 1) {
        PMIX_LOAD_PROCID(&src, nspace, 0);
        t0 = bench_now_ns();
        while (sent < total) {
            pmix_status_t rc;
            bo.bytes = buf;
            bo.size = (size_t) (total - sent) < chunk ? (size_t) (total - sent) : chunk;
            pthread_mutex_lock(&iof_lock);
            while (iof_inflight >= window) {
                pthread_cond_wait(&iof_cond, &iof_lock);
            }
            iof_inflight++;
            pthread_mutex_unlock(&iof_lock);
            rc = PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bo, NULL, 0,
                                         iof_delivered, NULL);
            if (rc != PMIX_SUCCESS) {
                pthread_mutex_lock(&iof_lock);
                iof_inflight--;
                pthread_mutex_unlock(&iof_lock);
                if (rc != PMIX_OPERATION_SUCCEEDED) {
                    fprintf(stderr, "bhost: PMIx_server_IOF_deliver: %s\n", PMIx_Error_string(rc));
                    failure = 1;
                    kill(pid, SIGKILL);
                    break;
                }
            }
            sent += (long long) bo.size;
        }
        pthread_mutex_lock(&iof_lock);
        while (iof_inflight > 0) {
            pthread_cond_wait(&iof_cond, &iof_lock);
        }
        if (iof_status != PMIX_SUCCESS && failure == 0) {
            fprintf(stderr, "bhost: PMIx_server_IOF_deliver callback: %s\n",
                    PMIx_Error_string(iof_status));
            failure = 1;
        }
        pthread_mutex_unlock(&iof_lock);
        t1 = bench_now_ns();
        write_value("iof_host_ns", 0, t1 - t0);
    } else {
        fprintf(stderr, "bhost: the tool ended before its pull was registered\n");
        failure = 1;
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        fprintf(stderr, "bhost: tool (pid %d) failed with %d\n", (int) pid, code);
        if (failure == 0) {
            failure = code;
        }
    }
    {
        waiter_t w;
        waiter_init(&w);
        PMIx_server_deregister_nspace(nspace, waiter_op_cb, &w);
        waiter_wait(&w);
    }
    free(buf);
    return failure;
}

static void usage(void)
{
    fprintf(stderr, "usage: bhost [-n N] [-j JOBSIZE] [-r REPEAT] [-t SECONDS] [-H CPU] [-C CPU] "
                    "[-S] [-T K] [-I BYTES [-b CHUNK] [-w WINDOW]] -- prog args...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int nlocal = 1, jobsize = 0, repeat = 1, timeout = 120, host_cpu = -1, client_cpu = -1;
    int ntools = 0, iof_window = 16;
    long long iof_bytes = 0;
    size_t iof_chunk = 65536;
    int i, rep, failure = 0;
    const char *tmpdir = getenv("TMPDIR");
    pmix_info_t *info;
    bool no = false;
    pmix_status_t rc;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (argv[i][0] != '-') {
            break;
        } else if (strcmp(argv[i], "-S") == 0) {
            storm_hold = true;
        } else if (i + 1 >= argc) {
            usage();
        } else if (strcmp(argv[i], "-n") == 0) {
            nlocal = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-j") == 0) {
            jobsize = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-r") == 0) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-t") == 0) {
            timeout = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-H") == 0) {
            host_cpu = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-C") == 0) {
            client_cpu = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-T") == 0) {
            ntools = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-I") == 0) {
            iof_bytes = atoll(argv[++i]);
        } else if (strcmp(argv[i], "-b") == 0) {
            iof_chunk = (size_t) atoll(argv[++i]);
        } else if (strcmp(argv[i], "-w") == 0) {
            iof_window = atoi(argv[++i]);
        } else {
            usage();
        }
    }
    if (jobsize < nlocal) {
        jobsize = nlocal;
    }
    if (i >= argc || nlocal < 1 || repeat < 1 || iof_bytes < 0 || iof_chunk < 1 || iof_window < 1) {
        usage();
    }
    out_dir = getenv("BENCH_OUT");
    if (tmpdir == NULL) {
        tmpdir = "/tmp";
    }
    gethostname(hostname, sizeof(hostname) - 1);
    pin_self(host_cpu);

    watchdog_signals(on_fatal_signal, timeout);

    PMIX_INFO_CREATE(info, 4);
    info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    info_load(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    info_load(&info[2], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    {
        bool tools = ntools > 0 || iof_bytes > 0;
        info_load(&info[3], PMIX_SERVER_TOOL_SUPPORT, &tools, PMIX_BOOL);
    }
    rc = PMIx_server_init(&module, info, 4);
    PMIX_INFO_FREE(info, 4);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "bhost: PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    bench_record_lib("host", -1);
    if (answers_start() != 0) {
        die("cannot start the answer thread");
    }

    if (iof_bytes > 0) {
        failure = run_iof(iof_bytes, iof_chunk, iof_window, client_cpu, &argv[i]);
    } else if (ntools > 0) {
        failure = run_tools(ntools, client_cpu, &argv[i]);
    } else {
        for (rep = 0; rep < repeat && failure == 0; rep++) {
            failure = run_job(rep, nlocal, jobsize, client_cpu, &argv[i]);
        }
    }

    printf("bhost: version %s\n", PMIx_Get_version());
    fflush(stdout);
    write_value("host_hwm", -1, status_kb("VmHWM:"));
    if (out_dir != NULL) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/upcalls", out_dir);
        f = fopen(path, "w");
        if (f != NULL) {
            fprintf(f, "client_connected %ld\nclient_finalized %ld\nfence_nb %ld\nfence_nb_bytes %ld\n"
                       "direct_modex %ld\ntool_connected %ld\niof_pull %ld\n", n_connected, n_finalized,
                    n_fence, n_fence_bytes, n_dmodex, n_tools, n_iof_pull);
            fclose(f);
        }
    }
    answers_finish();
    alarm(0);
    rc = PMIx_server_finalize();
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "bhost: PMIx_server_finalize: %s\n", PMIx_Error_string(rc));
        if (failure == 0) {
            failure = 1;
        }
    }
    return failure;
}
