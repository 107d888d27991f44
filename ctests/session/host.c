/* A small PMIx host ("resource manager") for one machine, written against the public server
 * API only (pmix_server.h), so that it runs unchanged over the reference OpenPMIx library and
 * over ours.
 *
 * usage: host [-n N] [-t SECONDS] [--] client_prog args...
 *
 * It registers one namespace of N processes, forks/execs N copies of client_prog, serves the
 * host side of every upcall the client scenarios of client.c exercise (fence, publish/lookup,
 * spawn, connect, events, query, log, job control, groups, abort), waits for every process it
 * started (including spawned jobs), and exits with
 *   - the status given to PMIx_Abort, if a client aborted (1 if that status was 0);
 *   - else the first non-zero exit code of a child (128+signal for a signalled child), not
 *     counting children the host itself was asked to kill (job control);
 *   - else 0.
 * A watchdog kills everything after the timeout (default 60 s) and exits with 124.
 *
 * Threads. The library calls the upcalls (module functions below) on its progress thread,
 * while main() runs the launcher loop: it forks and reaps children, executes spawn requests
 * and expires held lookups. All shared state is protected by one mutex, `lock`. Two rules keep
 * this deadlock-free on either library:
 *   1. an upcall never calls a blocking PMIx API (registration, ...): work that needs one is
 *      queued for the main thread (spawn);
 *   2. library callbacks (cbfunc) are never called from inside the upcall that received them,
 *      nor with `lock` held: upcalls queue their answers for the host's answer thread (the
 *      answer queue of ../hostkit.h, which also holds the waiters and the other helpers the
 *      C test hosts share), because a library may run other upcalls synchronously from inside a
 *      cbfunc, and the reference does not cope with some answers given from inside the upcall.
 * Setting HOST_DEBUG=1 traces every upcall on stderr.
 *
 * Behaviour of the reference (OpenPMIx 4.2.2) this host relies on or works around:
 *   - a fence, connect or disconnect whose participants are all local is completed by the
 *     library without calling fence_nb/connect/disconnect; group construct/destruct do call
 *     the host, once for all local participants;
 *   - the cbfunc passed to notify_event must never be called (see notify_event);
 *   - answering the log upcall from inside it makes the client's PMIx_Log hang (see
 *     ../hostkit.h);
 *   - the query upcall names the server itself, not the client, as the requestor, so a
 *     query's namespace must come from its PMIX_NSPACE qualifier;
 *   - the server advertises all its gds components unless PMIX_MCA_gds restricts them (main).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* pmix.h for the utilities every role uses (PMIx_Error_string, PMIx_Value_xfer, ...);
 * no client-role call is made */
#include <pmix.h>
#include <pmix_server.h>

#include "../hostkit.h"

extern char **environ;

/* ---------------------------------------------------------------------------------------------
 * State
 * ------------------------------------------------------------------------------------------ */

typedef struct job job_t;

typedef struct {
    job_t *job;
    pmix_rank_t rank;
    pid_t pid;            /* 0 until forked */
    bool reaped;
    bool kill_expected;   /* killed on request (job control, abort): not a failure */
    bool finalized;       /* called PMIx_Finalize */
} proc_rec_t;

struct job {
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_rank_t nprocs;
    proc_rec_t *procs;
    bool spawned;
    pmix_proc_t parent;   /* the proc that called PMIx_Spawn, if spawned */
    uint32_t node_rank0;  /* node rank of this job's rank 0 (ranks of all jobs on the node) */
    bool registered;
    job_t *next;
};

/* One application of a launch: what PMIx_Spawn passes in a pmix_app_t, deep-copied. */
typedef struct {
    char *cmd;
    char **argv;
    char **env;
    char *cwd;
    int maxprocs;
} app_rec_t;

/* A spawn request queued by the spawn upcall for the main thread. */
typedef struct spawn_req {
    pmix_proc_t requestor;
    app_rec_t *apps;
    size_t napps;
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
    struct spawn_req *next;
} spawn_req_t;

/* A published datum. */
typedef struct pub {
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_t value;
    pmix_proc_t publisher;
    pmix_data_range_t range;
    struct pub *next;
} pub_t;

/* A lookup held by PMIX_WAIT until enough of its keys are published (or it times out). */
typedef struct lookup_req {
    pmix_proc_t requestor;
    char **keys;
    size_t nkeys;
    size_t nwait;          /* answer once this many keys are found */
    double deadline;       /* monotonic seconds; 0 = no timeout */
    pmix_lookup_cbfunc_t cbfunc;
    void *cbdata;
    struct lookup_req *next;
} lookup_req_t;

/* A collective of the host (fence, connect, disconnect, group). The PMIx server library
 * gathers its local participants itself and calls the host once per operation per server,
 * so the host's collective is across *servers*: it completes when every server hosting a
 * participant has contributed. This host is the only server (one machine), so that number
 * is always 1, but the tracker is written for the general case: contributions are keyed by
 * operation and participant set, their data concatenated, and every contributor answered
 * with the whole. */
enum coll_kind { COLL_FENCE, COLL_CONNECT, COLL_DISCONNECT, COLL_GROUP_CONSTRUCT, COLL_GROUP_DESTRUCT };

typedef struct contrib {
    pmix_modex_cbfunc_t modex_cb;   /* fence */
    pmix_op_cbfunc_t op_cb;         /* connect, disconnect */
    pmix_info_cbfunc_t info_cb;     /* group */
    void *cbdata;
    bool want_ctxid;                /* group construct asked for PMIX_GROUP_ASSIGN_CONTEXT_ID */
    struct contrib *next;
} contrib_t;

typedef struct coll {
    enum coll_kind kind;
    char *signature;    /* kind, group name and sorted participant list, as a string */
    int expected;       /* number of servers hosting participants */
    int arrived;
    char *data;         /* concatenated contributions (fence) */
    size_t ndata;
    contrib_t *contribs;
    struct coll *next;
} coll_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;  /* wakes the main loop */
static job_t *jobs;
static int njobs;
static uint32_t procs_on_node;  /* node ranks handed out so far */
static spawn_req_t *spawn_queue;
static pub_t *pubs;
static lookup_req_t *held_lookups;
static coll_t *colls;
static size_t next_ctxid = 1;
static bool aborted;
static int abort_status;
static int first_failure;       /* first non-zero exit code of a child */
static bool debug;
static char hostname[256];
static const char *gds_var = "PMIX_MCA_gds";

/* The watchdog and the termination signals must kill every child without taking `lock`
 * (a signal handler may not). Pids are therefore also kept in this append-only array. */
#define MAX_PIDS 4096
static volatile pid_t all_pids[MAX_PIDS];
static volatile sig_atomic_t npids;

static void trace(const char *fmt, ...)
{
    va_list ap;
    if (!debug) {
        return;
    }
    va_start(ap, fmt);
    fprintf(stderr, "host[debug]: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s ? s : "");
    if (p == NULL) {
        fprintf(stderr, "host: out of memory\n");
        exit(1);
    }
    return p;
}

/* NULL-terminated string arrays */
static char **argv_copy(char **a)
{
    size_t n = argv_len(a), i;
    char **c = xcalloc(n + 1, sizeof(char *));
    for (i = 0; i < n; i++) {
        c[i] = xstrdup(a[i]);
    }
    return c;
}

static void argv_free(char **a)
{
    size_t i;
    for (i = 0; a != NULL && a[i] != NULL; i++) {
        free(a[i]);
    }
    free(a);
}

/* Set NAME=VALUE in a malloc'ed environment array (as PMIx_server_setup_fork does). */
static void env_put(char ***envp, const char *entry)
{
    size_t n = argv_len(*envp), i, klen = strcspn(entry, "=");
    for (i = 0; i < n; i++) {
        if (strncmp((*envp)[i], entry, klen) == 0 && (*envp)[i][klen] == '=') {
            free((*envp)[i]);
            (*envp)[i] = xstrdup(entry);
            return;
        }
    }
    *envp = realloc(*envp, (n + 2) * sizeof(char *));
    if (*envp == NULL) {
        fprintf(stderr, "host: out of memory\n");
        exit(1);
    }
    (*envp)[n] = xstrdup(entry);
    (*envp)[n + 1] = NULL;
}

static void env_unset(char **env, const char *name)
{
    size_t n = argv_len(env), i, klen = strlen(name);
    for (i = 0; i < n; i++) {
        if (strncmp(env[i], name, klen) == 0 && env[i][klen] == '=') {
            free(env[i]);
            memmove(&env[i], &env[i + 1], (n - i) * sizeof(char *));
            return;
        }
    }
}

/* Must be called with `lock` held. */
static job_t *find_job(const char *nspace)
{
    job_t *j;
    for (j = jobs; j != NULL; j = j->next) {
        if (PMIX_CHECK_NSPACE(j->nspace, nspace)) {
            return j;
        }
    }
    return NULL;
}

/* Send `sig` to the processes named by procs[] (a WILDCARD rank names every rank of its
 * namespace); `expected` marks them as killed on request. Must be called with `lock` held;
 * kill() does not block. Returns the number of processes signalled. */
static int signal_procs(const pmix_proc_t *procs, size_t nprocs, int sig, bool expected)
{
    size_t n;
    pmix_rank_t r;
    int count = 0;
    for (n = 0; n < nprocs; n++) {
        job_t *j = find_job(procs[n].nspace);
        if (j == NULL) {
            continue;
        }
        for (r = 0; r < j->nprocs; r++) {
            proc_rec_t *p = &j->procs[r];
            if (procs[n].rank != PMIX_RANK_WILDCARD && procs[n].rank != r) {
                continue;
            }
            if (p->pid > 0 && !p->reaped) {
                if (expected) {
                    p->kill_expected = true;
                }
                kill(p->pid, sig);
                count++;
            }
        }
    }
    return count;
}

/* ---------------------------------------------------------------------------------------------
 * Launching a job (main thread only: it calls blocking registrations)
 * ------------------------------------------------------------------------------------------ */

/* Register the namespace of `job` with its full job-level and per-process information. */
static pmix_status_t register_job(job_t *job, const app_rec_t *apps, size_t napps)
{
    pmix_info_t *info;
    size_t ninfo, k = 0, a;
    pmix_rank_t r;
    uint32_t u32;
    char *peers, *regex = NULL, *ppn = NULL, *p;
    uint32_t appnum = 0;
    bool yes = true;
    waiter_t w;
    pmix_status_t rc;

    /* the comma-separated list of local ranks: here, every rank */
    peers = xcalloc(job->nprocs, 12);
    for (r = 0, p = peers; r < job->nprocs; r++) {
        p += sprintf(p, "%s%u", r ? "," : "", r);
    }
    if (PMIx_generate_regex(hostname, &regex) != PMIX_SUCCESS
        || PMIx_generate_ppn(peers, &ppn) != PMIX_SUCCESS) {
        fprintf(stderr, "host: PMIx_generate_regex/ppn failed\n");
        free(peers);
        return PMIX_ERROR;
    }

    ninfo = 14 + job->nprocs;
    PMIX_INFO_CREATE(info, ninfo);
    u32 = job->nprocs;
    info_load(&info[k++], PMIX_UNIV_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_JOB_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_MAX_PROCS, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    info_load(&info[k++], PMIX_APPNUM, &appnum, PMIX_UINT32);
    /* PMIx_generate_regex/ppn results are loaded as PMIX_REGEX, their type in the Standard:
     * a library may encode them in a non-text form (the reference's are text, e.g. "pmix[vm]"
     * and "raw:0,1,2") */
    info_load(&info[k++], PMIX_NODE_MAP, regex, PMIX_REGEX);
    info_load(&info[k++], PMIX_PROC_MAP, ppn, PMIX_REGEX);
    info_load(&info[k++], PMIX_JOBID, job->nspace, PMIX_STRING);
    info_load(&info[k++], PMIX_NSPACE, job->nspace, PMIX_STRING);
    info_load(&info[k++], PMIX_HOSTNAME, hostname, PMIX_STRING);
    u32 = 0;
    info_load(&info[k++], PMIX_NODEID, &u32, PMIX_UINT32);
    if (job->spawned) {
        info_load(&info[k++], PMIX_SPAWNED, &yes, PMIX_BOOL);
        info_load(&info[k++], PMIX_PARENT_ID, &job->parent, PMIX_PROC);
    }
    /* per-process data: an array of infos led by PMIX_RANK */
    for (r = 0; r < job->nprocs; r++) {
        pmix_data_array_t *darray;
        pmix_info_t *pi;
        uint16_t lrank = (uint16_t) r, nrank = (uint16_t) (job->node_rank0 + r);
        uint32_t an = 0, nodeid = 0;
        int seen = 0;
        for (a = 0; a < napps; a++) {   /* which app this rank belongs to */
            seen += apps[a].maxprocs;
            if ((int) r < seen) {
                an = (uint32_t) a;
                break;
            }
        }
        PMIX_DATA_ARRAY_CREATE(darray, 6, PMIX_INFO);
        pi = darray->array;
        info_load(&pi[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        info_load(&pi[1], PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
        info_load(&pi[2], PMIX_NODE_RANK, &nrank, PMIX_UINT16);
        info_load(&pi[3], PMIX_APPNUM, &an, PMIX_UINT32);
        info_load(&pi[4], PMIX_HOSTNAME, hostname, PMIX_STRING);
        info_load(&pi[5], PMIX_NODEID, &nodeid, PMIX_UINT32);
        PMIX_LOAD_KEY(info[k].key, PMIX_PROC_DATA);
        info[k].value.type = PMIX_DATA_ARRAY;
        info[k].value.data.darray = darray;   /* owned by info[] from now on */
        k++;
    }
    free(peers);
    free(regex);
    free(ppn);

    waiter_init(&w);
    rc = PMIx_server_register_nspace(job->nspace, (int) job->nprocs, info, k, waiter_op_cb, &w);
    if (rc == PMIX_SUCCESS) {
        rc = waiter_wait(&w);
    } else if (rc == PMIX_OPERATION_SUCCEEDED) {
        rc = PMIX_SUCCESS;
    }
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "host: register_nspace %s: %s\n", job->nspace, PMIx_Error_string(rc));
        return rc;
    }
    pthread_mutex_lock(&lock);
    job->registered = true;
    pthread_mutex_unlock(&lock);
    return PMIX_SUCCESS;
}

/* Create the job record for `nprocs` processes (name ctest.<index>) and link it. */
static job_t *new_job(pmix_rank_t nprocs, const pmix_proc_t *parent)
{
    job_t *j = xcalloc(1, sizeof(*j)), **tail;
    pmix_rank_t r;
    pthread_mutex_lock(&lock);
    snprintf(j->nspace, sizeof(j->nspace), "ctest.%d", njobs++);
    j->nprocs = nprocs;
    j->procs = xcalloc(nprocs, sizeof(proc_rec_t));
    for (r = 0; r < nprocs; r++) {
        j->procs[r].job = j;
        j->procs[r].rank = r;
    }
    if (parent != NULL) {
        j->spawned = true;
        j->parent = *parent;
    }
    j->node_rank0 = procs_on_node;
    procs_on_node += nprocs;
    for (tail = &jobs; *tail != NULL; tail = &(*tail)->next) {
    }
    *tail = j;
    pthread_mutex_unlock(&lock);
    return j;
}

/* Register, set up and fork/exec every process of `job`. Returns PMIX_SUCCESS once all of them
 * have been started. */
static pmix_status_t launch_job(job_t *job, const app_rec_t *apps, size_t napps)
{
    pmix_status_t rc;
    pmix_rank_t r = 0;
    size_t a;
    int i;

    rc = register_job(job, apps, napps);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    /* A client must be registered before it connects. All of them are registered before the
     * first is forked (as pmixrun does): the reference server never completes a group
     * construct that a fast client starts before the host registered its last local peer
     * (it logs NOT-FOUND at pmix_server.c:1774; docs/notes/server.md, "Groups"). */
    for (r = 0; r < job->nprocs; r++) {
        pmix_proc_t proc;
        waiter_t w;
        PMIX_LOAD_PROCID(&proc, job->nspace, r);
        waiter_init(&w);
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), &job->procs[r],
                                         waiter_op_cb, &w);
        if (rc == PMIX_SUCCESS) {
            rc = waiter_wait(&w);
        } else if (rc == PMIX_OPERATION_SUCCEEDED) {
            rc = PMIX_SUCCESS;
        }
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "host: register_client %s:%u: %s\n", job->nspace, r,
                    PMIx_Error_string(rc));
            return rc;
        }
    }
    r = 0;
    for (a = 0; a < napps; a++) {
        for (i = 0; i < apps[a].maxprocs; i++, r++) {
            pmix_proc_t proc;
            char **env, **e;
            pid_t pid;

            PMIX_LOAD_PROCID(&proc, job->nspace, r);
            /* environment: ours without the gds workaround (see main), then the app's own
             * variables (PMIx_Spawn callers pass e.g. LD_LIBRARY_PATH), then the PMIx ones */
            env = argv_copy(environ);
            env_unset(env, gds_var);
            for (e = apps[a].env; e != NULL && *e != NULL; e++) {
                env_put(&env, *e);
            }
            rc = PMIx_server_setup_fork(&proc, &env);
            if (rc != PMIX_SUCCESS) {
                fprintf(stderr, "host: setup_fork %s:%u: %s\n", job->nspace, r,
                        PMIx_Error_string(rc));
                argv_free(env);
                return rc;
            }
            fflush(NULL);
            pid = fork();
            if (pid < 0) {
                fprintf(stderr, "host: fork: %s\n", strerror(errno));
                argv_free(env);
                return PMIX_ERR_OUT_OF_RESOURCE;
            }
            if (pid == 0) {
                /* child: only async-signal-safe calls from here on. Undo what exec keeps of
                 * the host's signal setup: the ignored SIGPIPE and the signal mask. */
                static const char msg[] = "host: exec failed\n";
                child_signals_default();
                if (apps[a].cwd != NULL && apps[a].cwd[0] != '\0' && chdir(apps[a].cwd) != 0) {
                    _exit(127);
                }
                execve(apps[a].cmd, apps[a].argv, env);
                if (write(2, msg, sizeof(msg) - 1) < 0) {
                    _exit(127);
                }
                _exit(127);
            }
            argv_free(env);
            pthread_mutex_lock(&lock);
            job->procs[r].pid = pid;
            if (npids < MAX_PIDS) {
                all_pids[npids] = pid;
                npids = npids + 1;
            }
            pthread_mutex_unlock(&lock);
            trace("started %s:%u pid %d (%s)", job->nspace, r, (int) pid, apps[a].cmd);
        }
    }
    return PMIX_SUCCESS;
}

/* ---------------------------------------------------------------------------------------------
 * Upcalls
 * ------------------------------------------------------------------------------------------ */

static pmix_status_t client_connected(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) server_object;
    trace("client_connected %s:%u", proc->nspace, proc->rank);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t client_finalized(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    proc_rec_t *p = server_object;
    trace("client_finalized %s:%u", proc->nspace, proc->rank);
    pthread_mutex_lock(&lock);
    if (p != NULL) {
        p->finalized = true;
    }
    pthread_mutex_unlock(&lock);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t abort_fn(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t all;
    (void) server_object;
    fprintf(stderr, "host: abort from %s:%u status %d msg %s\n", proc->nspace, proc->rank,
            status, msg ? msg : "(null)");
    /* kill the processes named (none: the caller's whole namespace) and release the caller */
    if (procs == NULL || nprocs == 0) {
        PMIX_LOAD_PROCID(&all, proc->nspace, PMIX_RANK_WILDCARD);
        procs = &all;
        nprocs = 1;
    }
    pthread_mutex_lock(&lock);
    if (!aborted) {
        aborted = true;
        abort_status = status != 0 ? status : 1;
    }
    signal_procs(procs, nprocs, SIGKILL, true);
    pthread_mutex_unlock(&lock);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

/* -- collectives ------------------------------------------------------------------------- */

static char *coll_signature(enum coll_kind kind, const char *grp, const pmix_proc_t procs[],
                            size_t nprocs)
{
    pmix_proc_t *sorted = xcalloc(nprocs, sizeof(pmix_proc_t));
    size_t n, len = 64 + (grp ? strlen(grp) : 0) + nprocs * (PMIX_MAX_NSLEN + 16);
    char *sig = xcalloc(1, len), *p = sig;
    memcpy(sorted, procs, nprocs * sizeof(pmix_proc_t));
    qsort(sorted, nprocs, sizeof(pmix_proc_t), cmp_proc);
    p += sprintf(p, "%d/%s/", (int) kind, grp ? grp : "");
    for (n = 0; n < nprocs; n++) {
        p += sprintf(p, "%s:%u,", sorted[n].nspace, sorted[n].rank);
    }
    free(sorted);
    return sig;
}

/* How many servers host the participants: this host is the only one. */
static int servers_hosting(const pmix_proc_t procs[], size_t nprocs)
{
    (void) procs;
    (void) nprocs;
    return 1;
}

/* Add a contribution; if it completes the collective, unlink and return it (the caller
 * answers it with coll_complete after releasing `lock`). Must be called with `lock` held. */
static coll_t *coll_contribute(enum coll_kind kind, const char *grp, const pmix_proc_t procs[],
                               size_t nprocs, const char *data, size_t ndata, contrib_t *c)
{
    char *sig = coll_signature(kind, grp, procs, nprocs);
    coll_t *t, **pp;
    for (t = colls; t != NULL; t = t->next) {
        if (strcmp(t->signature, sig) == 0) {
            break;
        }
    }
    if (t == NULL) {
        t = xcalloc(1, sizeof(*t));
        t->kind = kind;
        t->signature = sig;
        t->expected = servers_hosting(procs, nprocs);
        t->next = colls;
        colls = t;
    } else {
        free(sig);
    }
    if (ndata > 0) {
        t->data = realloc(t->data, t->ndata + ndata);
        if (t->data == NULL) {
            fprintf(stderr, "host: out of memory\n");
            exit(1);
        }
        memcpy(t->data + t->ndata, data, ndata);
        t->ndata += ndata;
    }
    c->next = t->contribs;
    t->contribs = c;
    t->arrived++;
    if (t->arrived < t->expected) {
        return NULL;
    }
    for (pp = &colls; *pp != t; pp = &(*pp)->next) {
    }
    *pp = t->next;
    return t;
}

/* Answer every contributor of a completed collective and free it. Called without `lock`. */
static void coll_complete(coll_t *t)
{
    contrib_t *c, *next;
    for (c = t->contribs; c != NULL; c = next) {
        next = c->next;
        if (c->modex_cb != NULL) {
            /* each contributor gets its own copy, freed by the library's release call */
            char *copy = NULL;
            if (t->ndata > 0) {
                copy = xcalloc(1, t->ndata);
                memcpy(copy, t->data, t->ndata);
            }
            answer_modex(c->modex_cb, c->cbdata, PMIX_SUCCESS, copy, t->ndata);
        } else if (c->op_cb != NULL) {
            answer_op(c->op_cb, c->cbdata, PMIX_SUCCESS);
        } else if (c->info_cb != NULL) {
            pmix_info_t *info = NULL;
            size_t ninfo = 0;
            if (c->want_ctxid) {
                size_t id;
                pthread_mutex_lock(&lock);
                id = next_ctxid++;
                pthread_mutex_unlock(&lock);
                PMIX_INFO_CREATE(info, 1);
                ninfo = 1;
                info_load(&info[0], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
            }
            answer_info(c->info_cb, c->cbdata, PMIX_SUCCESS, info, ninfo);
        }
        free(c);
    }
    free(t->signature);
    free(t->data);
    free(t);
}

static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    contrib_t *c = xcalloc(1, sizeof(*c));
    coll_t *done;
    (void) info;
    (void) ninfo;
    trace("fence_nb nprocs %zu ndata %zu", nprocs, ndata);
    c->modex_cb = cbfunc;
    c->cbdata = cbdata;
    pthread_mutex_lock(&lock);
    done = coll_contribute(COLL_FENCE, NULL, procs, nprocs, data, ndata, c);
    pthread_mutex_unlock(&lock);
    if (done != NULL) {
        coll_complete(done);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void) info;
    (void) ninfo;
    /* Every process of every job runs on this node, so their data is already held by the
     * local server library; there is no other server to ask. */
    trace("direct_modex %s:%u", proc->nspace, proc->rank);
    answer_modex(cbfunc, cbdata, PMIX_ERR_NOT_FOUND, NULL, 0);
    return PMIX_SUCCESS;
}

static pmix_status_t connect_fn(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    contrib_t *c = xcalloc(1, sizeof(*c));
    coll_t *done;
    (void) info;
    (void) ninfo;
    trace("connect nprocs %zu first %s:%u", nprocs, procs[0].nspace, procs[0].rank);
    c->op_cb = cbfunc;
    c->cbdata = cbdata;
    pthread_mutex_lock(&lock);
    done = coll_contribute(COLL_CONNECT, NULL, procs, nprocs, NULL, 0, c);
    pthread_mutex_unlock(&lock);
    if (done != NULL) {
        coll_complete(done);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t disconnect_fn(const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                   void *cbdata)
{
    contrib_t *c = xcalloc(1, sizeof(*c));
    coll_t *done;
    (void) info;
    (void) ninfo;
    trace("disconnect nprocs %zu", nprocs);
    c->op_cb = cbfunc;
    c->cbdata = cbdata;
    pthread_mutex_lock(&lock);
    done = coll_contribute(COLL_DISCONNECT, NULL, procs, nprocs, NULL, 0, c);
    pthread_mutex_unlock(&lock);
    if (done != NULL) {
        coll_complete(done);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t group_fn(pmix_group_operation_t op, char grp[], const pmix_proc_t procs[],
                              size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    contrib_t *c;
    coll_t *done;
    size_t n;
    trace("group op %d id %s nprocs %zu ndirs %zu", (int) op, grp, nprocs, ndirs);
    if (op != PMIX_GROUP_CONSTRUCT && op != PMIX_GROUP_DESTRUCT) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    c = xcalloc(1, sizeof(*c));
    c->info_cb = cbfunc;
    c->cbdata = cbdata;
    for (n = 0; n < ndirs; n++) {
        if (PMIX_CHECK_KEY(&directives[n], PMIX_GROUP_ASSIGN_CONTEXT_ID)) {
            c->want_ctxid = op == PMIX_GROUP_CONSTRUCT && PMIX_INFO_TRUE(&directives[n]);
        }
    }
    pthread_mutex_lock(&lock);
    done = coll_contribute(op == PMIX_GROUP_CONSTRUCT ? COLL_GROUP_CONSTRUCT : COLL_GROUP_DESTRUCT,
                           grp, procs, nprocs, NULL, 0, c);
    pthread_mutex_unlock(&lock);
    if (done != NULL) {
        coll_complete(done);
    }
    return PMIX_SUCCESS;
}

/* -- publish / lookup / unpublish ---------------------------------------------------------- */

/* Keys the server library adds to a publish/lookup/unpublish request: directives, not data. */
static bool is_directive(const char *key)
{
    static const char *const directives[] = {PMIX_RANGE, PMIX_PERSISTENCE, PMIX_USERID,
                                             PMIX_GRPID, PMIX_TIMEOUT, PMIX_WAIT, NULL};
    size_t n;
    for (n = 0; directives[n] != NULL; n++) {
        if (strncmp(key, directives[n], PMIX_MAX_KEYLEN) == 0) {
            return true;
        }
    }
    return false;
}

static pmix_data_range_t info_range(const pmix_info_t info[], size_t ninfo)
{
    size_t n;
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_RANGE) && info[n].value.type == PMIX_DATA_RANGE) {
            return info[n].value.data.range;
        }
    }
    return PMIX_RANGE_SESSION;   /* the default range of published data */
}

/* Can `who` see a datum published by `publisher` with `range`? Everything here is one
 * session on one node, so only the namespace and process ranges restrict visibility. */
static bool pub_visible(const pub_t *d, const pmix_proc_t *who)
{
    switch (d->range) {
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(d->publisher.nspace, who->nspace);
    case PMIX_RANGE_PROC_LOCAL:
        return PMIX_CHECK_PROCID(&d->publisher, who);
    default:
        return true;
    }
}

static pub_t *pub_find(const char *key, const pmix_proc_t *who)
{
    pub_t *d;
    for (d = pubs; d != NULL; d = d->next) {
        if (strncmp(d->key, key, PMIX_MAX_KEYLEN) == 0 && pub_visible(d, who)) {
            return d;
        }
    }
    return NULL;
}

/* Build the answer to a lookup of keys[] from the table. Must be called with `lock` held. */
static size_t lookup_collect(const pmix_proc_t *who, char **keys, size_t nkeys, pmix_pdata_t **out)
{
    size_t n, found = 0;
    pmix_pdata_t *pd = NULL;
    if (nkeys > 0) {
        PMIX_PDATA_CREATE(pd, nkeys);
    }
    for (n = 0; n < nkeys; n++) {
        pub_t *d = pub_find(keys[n], who);
        if (d != NULL) {
            pd[found].proc = d->publisher;
            PMIX_LOAD_KEY(pd[found].key, d->key);
            PMIx_Value_xfer(&pd[found].value, &d->value);
            found++;
        }
    }
    if (found == 0 && pd != NULL) {
        PMIX_PDATA_FREE(pd, nkeys);
        pd = NULL;
    }
    *out = pd;
    return found;
}

static void lookup_answer(pmix_lookup_cbfunc_t cbfunc, void *cbdata, pmix_pdata_t *pd,
                          size_t found, size_t nalloc)
{
    answer_lookup(cbfunc, cbdata, found > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, pd, found, nalloc);
}

static void lookup_req_free(lookup_req_t *l)
{
    argv_free(l->keys);
    free(l);
}

/* Unlink every held lookup that can now be answered (or, with `expire`, whose deadline has
 * passed) into a list, collecting its answer. Must be called with `lock` held. */
typedef struct ready {
    lookup_req_t *req;
    pmix_pdata_t *pd;
    size_t found;
    struct ready *next;
} ready_t;

static ready_t *lookups_ready(bool expire)
{
    lookup_req_t **pp = &held_lookups, *l;
    ready_t *ready = NULL;
    double t = now();
    while ((l = *pp) != NULL) {
        pmix_pdata_t *pd;
        size_t found = lookup_collect(&l->requestor, l->keys, l->nkeys, &pd);
        if (found >= l->nwait || (expire && l->deadline > 0 && t >= l->deadline)) {
            ready_t *r = xcalloc(1, sizeof(*r));
            r->req = l;
            r->pd = pd;
            r->found = found;
            r->next = ready;
            ready = r;
            *pp = l->next;
        } else {
            if (pd != NULL) {
                PMIX_PDATA_FREE(pd, l->nkeys);
            }
            pp = &l->next;
        }
    }
    return ready;
}

static void answer_ready(ready_t *r)
{
    while (r != NULL) {
        ready_t *next = r->next;
        trace("answering held lookup of %s (%zu found)", r->req->keys[0], r->found);
        lookup_answer(r->req->cbfunc, r->req->cbdata, r->pd, r->found, r->req->nkeys);
        lookup_req_free(r->req);
        free(r);
        r = next;
    }
}

static pmix_status_t publish_fn(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_range_t range = info_range(info, ninfo);
    pmix_status_t rc = PMIX_SUCCESS;
    ready_t *ready = NULL;
    size_t n;

    pthread_mutex_lock(&lock);
    /* all or nothing: refuse the whole request if any key is already published in range */
    for (n = 0; n < ninfo; n++) {
        if (!is_directive(info[n].key) && pub_find(info[n].key, proc) != NULL) {
            rc = PMIX_ERR_DUPLICATE_KEY;
        }
    }
    for (n = 0; rc == PMIX_SUCCESS && n < ninfo; n++) {
        pub_t *d;
        if (is_directive(info[n].key)) {
            continue;
        }
        d = xcalloc(1, sizeof(*d));
        PMIX_LOAD_KEY(d->key, info[n].key);
        PMIx_Value_xfer(&d->value, &info[n].value);
        d->publisher = *proc;
        d->range = range;
        d->next = pubs;
        pubs = d;
        trace("publish %s by %s:%u", d->key, proc->nspace, proc->rank);
    }
    if (rc == PMIX_SUCCESS) {
        ready = lookups_ready(false);
    }
    pthread_mutex_unlock(&lock);
    answer_op(cbfunc, cbdata, rc);
    answer_ready(ready);
    return PMIX_SUCCESS;
}

static pmix_status_t lookup_fn(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                               size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    size_t nkeys = argv_len(keys), nwait = 0, n, found;
    bool wait = false;
    int timeout = 0;
    pmix_pdata_t *pd;

    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_WAIT)) {
            /* PMIX_WAIT is an int (wait for that many keys, 0 = all); accept a bool too */
            if (info[n].value.type == PMIX_BOOL) {
                wait = info[n].value.data.flag;
            } else if (info[n].value.type == PMIX_INT) {
                wait = true;
                nwait = info[n].value.data.integer > 0 ? (size_t) info[n].value.data.integer : 0;
            } else {
                wait = true;
            }
        } else if (PMIX_CHECK_KEY(&info[n], PMIX_TIMEOUT) && info[n].value.type == PMIX_INT) {
            timeout = info[n].value.data.integer;
        }
    }
    if (nwait == 0 || nwait > nkeys) {
        nwait = nkeys;
    }
    pthread_mutex_lock(&lock);
    found = lookup_collect(proc, keys, nkeys, &pd);
    if (wait && found < nwait) {
        lookup_req_t *l = xcalloc(1, sizeof(*l));
        if (pd != NULL) {
            PMIX_PDATA_FREE(pd, nkeys);
        }
        l->requestor = *proc;
        l->keys = argv_copy(keys);
        l->nkeys = nkeys;
        l->nwait = nwait;
        l->deadline = timeout > 0 ? now() + timeout : 0;
        l->cbfunc = cbfunc;
        l->cbdata = cbdata;
        l->next = held_lookups;
        held_lookups = l;
        pthread_mutex_unlock(&lock);
        trace("lookup of %s by %s:%u held", nkeys ? keys[0] : "", proc->nspace, proc->rank);
        return PMIX_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    trace("lookup of %s by %s:%u: %zu found", nkeys ? keys[0] : "", proc->nspace, proc->rank,
          found);
    lookup_answer(cbfunc, cbdata, pd, found, nkeys);
    return PMIX_SUCCESS;
}

static pmix_status_t unpublish_fn(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pub_t **pp, *d;
    size_t removed = 0, n;
    (void) info;
    (void) ninfo;
    pthread_mutex_lock(&lock);
    /* a process removes its own data: the keys named, or all of it if none are */
    for (pp = &pubs; (d = *pp) != NULL;) {
        bool match = PMIX_CHECK_PROCID(&d->publisher, proc) && keys == NULL;
        for (n = 0; !match && keys != NULL && keys[n] != NULL; n++) {
            match = PMIX_CHECK_PROCID(&d->publisher, proc)
                    && strncmp(d->key, keys[n], PMIX_MAX_KEYLEN) == 0;
        }
        if (match) {
            *pp = d->next;
            PMIx_Value_destruct(&d->value);
            free(d);
            removed++;
        } else {
            pp = &d->next;
        }
    }
    pthread_mutex_unlock(&lock);
    trace("unpublish by %s:%u: %zu removed", proc->nspace, proc->rank, removed);
    answer_op(cbfunc, cbdata, removed > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND);
    return PMIX_SUCCESS;
}

/* -- spawn ----------------------------------------------------------------------------------- */

static pmix_status_t spawn_fn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                              const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                              void *cbdata)
{
    spawn_req_t *s, **tail;
    size_t a;
    (void) job_info;
    (void) ninfo;
    trace("spawn by %s:%u, %zu apps", proc->nspace, proc->rank, napps);
    if (napps == 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (a = 0; a < napps; a++) {
        if (apps[a].cmd == NULL || apps[a].maxprocs < 1) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    /* registering the new namespace blocks: leave it to the main thread */
    s = xcalloc(1, sizeof(*s));
    s->requestor = *proc;
    s->napps = napps;
    s->apps = xcalloc(napps, sizeof(app_rec_t));
    for (a = 0; a < napps; a++) {
        s->apps[a].cmd = xstrdup(apps[a].cmd);
        if (apps[a].argv != NULL && apps[a].argv[0] != NULL) {
            s->apps[a].argv = argv_copy(apps[a].argv);
        } else {
            s->apps[a].argv = xcalloc(2, sizeof(char *));
            s->apps[a].argv[0] = xstrdup(apps[a].cmd);
        }
        s->apps[a].env = argv_copy(apps[a].env);
        s->apps[a].cwd = apps[a].cwd ? xstrdup(apps[a].cwd) : NULL;
        s->apps[a].maxprocs = apps[a].maxprocs;
    }
    s->cbfunc = cbfunc;
    s->cbdata = cbdata;
    pthread_mutex_lock(&lock);
    for (tail = &spawn_queue; *tail != NULL; tail = &(*tail)->next) {
    }
    *tail = s;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    return PMIX_SUCCESS;
}

static void free_apps(app_rec_t *apps, size_t napps)
{
    size_t a;
    for (a = 0; a < napps; a++) {
        free(apps[a].cmd);
        argv_free(apps[a].argv);
        argv_free(apps[a].env);
        free(apps[a].cwd);
    }
    free(apps);
}

/* Main thread: execute one queued spawn request and answer it. */
static void do_spawn(spawn_req_t *s)
{
    pmix_rank_t total = 0;
    pmix_status_t rc;
    job_t *job;
    size_t a;
    for (a = 0; a < s->napps; a++) {
        total += (pmix_rank_t) s->apps[a].maxprocs;
    }
    job = new_job(total, &s->requestor);
    rc = launch_job(job, s->apps, s->napps);
    if (rc != PMIX_SUCCESS) {
        pmix_proc_t all;
        PMIX_LOAD_PROCID(&all, job->nspace, PMIX_RANK_WILDCARD);
        pthread_mutex_lock(&lock);
        signal_procs(&all, 1, SIGKILL, true);   /* a failed spawn starts nothing */
        pthread_mutex_unlock(&lock);
    }
    trace("spawn of %s: %s", job->nspace, PMIx_Error_string(rc));
    if (s->cbfunc != NULL) {
        s->cbfunc(rc, rc == PMIX_SUCCESS ? job->nspace : NULL, s->cbdata);
    }
    free_apps(s->apps, s->napps);
    free(s);
}

/* -- events ---------------------------------------------------------------------------------- */

static pmix_status_t register_events(pmix_status_t *codes, size_t ncodes, const pmix_info_t info[],
                                     size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) codes;
    (void) info;
    (void) ninfo;
    trace("register_events ncodes %zu", ncodes);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t deregister_events(pmix_status_t *codes, size_t ncodes, pmix_op_cbfunc_t cbfunc,
                                       void *cbdata)
{
    (void) codes;
    trace("deregister_events ncodes %zu", ncodes);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t notify_event(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) info;
    (void) ninfo;
    (void) cbfunc;
    (void) cbdata;
    /* The library calls this to have an event generated by one of its clients carried to the
     * other servers in range; it has already delivered the event to its own local clients.
     * This host is the only server, so there is nobody else to relay to (passing the event
     * back with PMIx_Notify_event would deliver it to the local clients a second time).
     *
     * The work is done, so answer PMIX_OPERATION_SUCCEEDED, which means the cbfunc will not
     * be called. Reference quirk (OpenPMIx 4.2.2): the cbfunc it passes here must not be
     * called at all. Called from inside this upcall, the event is never delivered to the
     * other local clients and their connection stalls (their next fence hangs); called
     * later from another thread, the server crashes (SIGSEGV). */
    trace("notify_event %d from %s:%u range %s", code, source->nspace, source->rank,
          PMIx_Data_range_string(range));
    return PMIX_OPERATION_SUCCEEDED;
}

/* -- query, log, job control ----------------------------------------------------------------- */

static pmix_status_t query_fn(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_info_t *results;
    size_t n, k, nres = 0, nasked = 0;
    trace("query by %s:%u, %zu queries", proct->nspace, proct->rank, nqueries);
    for (n = 0; n < nqueries; n++) {
        nasked += argv_len(queries[n].keys);
    }
    PMIX_INFO_CREATE(results, nasked ? nasked : 1);
    pthread_mutex_lock(&lock);
    for (n = 0; n < nqueries; n++) {
        const char *nspace = NULL;
        for (k = 0; k < queries[n].nqual; k++) {
            if (PMIX_CHECK_KEY(&queries[n].qualifiers[k], PMIX_NSPACE)
                && queries[n].qualifiers[k].value.type == PMIX_STRING) {
                nspace = queries[n].qualifiers[k].value.data.string;
            }
        }
        for (k = 0; queries[n].keys != NULL && queries[n].keys[k] != NULL; k++) {
            const char *key = queries[n].keys[k];
            if (strcmp(key, PMIX_QUERY_NAMESPACES) == 0) {
                /* comma-separated list of the namespaces with live processes */
                size_t len = 1;
                job_t *j;
                char *list;
                for (j = jobs; j != NULL; j = j->next) {
                    len += strlen(j->nspace) + 1;
                }
                list = xcalloc(1, len);
                for (j = jobs; j != NULL; j = j->next) {
                    pmix_rank_t r;
                    bool live = false;
                    for (r = 0; r < j->nprocs; r++) {
                        live = live || !j->procs[r].reaped;
                    }
                    if (live) {
                        if (list[0] != '\0') {
                            strcat(list, ",");
                        }
                        strcat(list, j->nspace);
                    }
                }
                info_load(&results[nres++], PMIX_QUERY_NAMESPACES, list, PMIX_STRING);
                free(list);
            } else if (strcmp(key, PMIX_JOB_SIZE) == 0) {
                /* without a PMIX_NSPACE qualifier, the requestor's namespace (which the
                 * reference gives as its own, so that such a query finds nothing there) */
                job_t *j = find_job(nspace != NULL ? nspace : proct->nspace);
                if (j != NULL) {
                    uint32_t size = j->nprocs;
                    info_load(&results[nres++], PMIX_JOB_SIZE, &size, PMIX_UINT32);
                }
            }
        }
    }
    pthread_mutex_unlock(&lock);
    if (nres == 0) {
        PMIX_INFO_FREE(results, nasked ? nasked : 1);
        answer_info(cbfunc, cbdata, PMIX_ERR_NOT_FOUND, NULL, 0);
        return PMIX_SUCCESS;
    }
    /* shrink: the release frees exactly nres entries */
    {
        pmix_info_t *out;
        PMIX_INFO_CREATE(out, nres);
        for (n = 0; n < nres; n++) {
            PMIx_Info_xfer(&out[n], &results[n]);
        }
        PMIX_INFO_FREE(results, nasked ? nasked : 1);
        answer_info(cbfunc, cbdata, nres < nasked ? PMIX_ERR_PARTIAL_SUCCESS : PMIX_SUCCESS, out,
                    nres);
    }
    return PMIX_SUCCESS;
}

static void log_fn(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                   const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                   void *cbdata)
{
    size_t n;
    (void) directives;
    (void) ndirs;
    for (n = 0; n < ndata; n++) {
        if (data[n].value.type == PMIX_STRING) {
            fprintf(stderr, "host: log from %s:%u %s: %s\n", client->nspace, client->rank,
                    data[n].key, data[n].value.data.string);
        } else {
            fprintf(stderr, "host: log from %s:%u %s: (%s)\n", client->nspace, client->rank,
                    data[n].key, PMIx_Data_type_string(data[n].value.type));
        }
    }
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
}

static pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                 size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t all;
    int sig = 0, count;
    bool expected = false;
    size_t n;
    for (n = 0; n < ndirs; n++) {
        if (PMIX_CHECK_KEY(&directives[n], PMIX_JOB_CTRL_KILL) && PMIX_INFO_TRUE(&directives[n])) {
            sig = SIGKILL;
            expected = true;
        } else if (PMIX_CHECK_KEY(&directives[n], PMIX_JOB_CTRL_TERMINATE)
                   && PMIX_INFO_TRUE(&directives[n])) {
            sig = SIGTERM;
            expected = true;
        } else if (PMIX_CHECK_KEY(&directives[n], PMIX_JOB_CTRL_SIGNAL)
                   && directives[n].value.type == PMIX_INT) {
            sig = directives[n].value.data.integer;
        }
    }
    trace("job_control by %s:%u, %zu targets, signal %d", requestor->nspace, requestor->rank,
          ntargets, sig);
    if (sig == 0) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (targets == NULL || ntargets == 0) {
        /* no targets: the requestor's own namespace */
        PMIX_LOAD_PROCID(&all, requestor->nspace, PMIX_RANK_WILDCARD);
        targets = &all;
        ntargets = 1;
    }
    pthread_mutex_lock(&lock);
    count = signal_procs(targets, ntargets, sig, expected);
    pthread_mutex_unlock(&lock);
    trace("job_control signalled %d processes", count);
    answer_info(cbfunc, cbdata, count > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, NULL, 0);
    return PMIX_SUCCESS;
}

/* -- fabric ------------------------------------------------------------------------------------ */

/* One made-up fabric. A request for information answers its vendor, identifier and index, and
 * echoes the PMIX_FABRIC_PLANE directive it was given; an update (PMIX_FABRIC_INDEX names the
 * fabric) answers the index and a device count that tells the two answers apart. */
static pmix_status_t fabric_fn(const pmix_proc_t *requestor, pmix_fabric_operation_t op,
                               const pmix_info_t directives[], size_t ndirs,
                               pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_info_t *out;
    size_t n, k = 0, index = 7, ndev;
    const char *plane = NULL;
    bool has_index = false;
    for (n = 0; n < ndirs; n++) {
        if (PMIX_CHECK_KEY(&directives[n], PMIX_FABRIC_PLANE)
            && directives[n].value.type == PMIX_STRING) {
            plane = directives[n].value.data.string;
        } else if (PMIX_CHECK_KEY(&directives[n], PMIX_FABRIC_INDEX)
                   && directives[n].value.type == PMIX_SIZE) {
            index = directives[n].value.data.size;
            has_index = true;
        }
    }
    trace("fabric %s by %s:%u, %zu directives%s%s",
          op == PMIX_FABRIC_REQUEST_INFO ? "request" : "update", requestor->nspace,
          requestor->rank, ndirs, ndirs > 0 ? ", the first " : "",
          ndirs > 0 ? directives[0].key : "");
    if (op == PMIX_FABRIC_UPDATE_INFO && !has_index) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (op == PMIX_FABRIC_UPDATE_INFO && index != 7) {
        answer_info(cbfunc, cbdata, PMIX_ERR_NOT_FOUND, NULL, 0);
        return PMIX_SUCCESS;
    }
    /* room for all five; the release frees the array whatever the count it is given */
    PMIX_INFO_CREATE(out, 5);
    if (op == PMIX_FABRIC_REQUEST_INFO) {
        info_load(&out[k++], PMIX_FABRIC_VENDOR, "ctest-vendor", PMIX_STRING);
        info_load(&out[k++], PMIX_FABRIC_IDENTIFIER, "ctest-fabric", PMIX_STRING);
        ndev = 16;
    } else {
        ndev = 32;
    }
    info_load(&out[k++], PMIX_FABRIC_INDEX, &index, PMIX_SIZE);
    info_load(&out[k++], PMIX_FABRIC_NUM_DEVICES, &ndev, PMIX_SIZE);
    if (plane != NULL) {
        info_load(&out[k++], PMIX_FABRIC_PLANE, plane, PMIX_STRING);
    }
    answer_info(cbfunc, cbdata, PMIX_SUCCESS, out, k);
    return PMIX_SUCCESS;
}

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = abort_fn,
    .fence_nb = fence_nb,
    .direct_modex = direct_modex,
    .publish = publish_fn,
    .lookup = lookup_fn,
    .unpublish = unpublish_fn,
    .spawn = spawn_fn,
    .connect = connect_fn,
    .disconnect = disconnect_fn,
    .register_events = register_events,
    .deregister_events = deregister_events,
    .notify_event = notify_event,
    .query = query_fn,
    .tool_connected = NULL,
    .log = log_fn,
    .job_control = job_control,
    .group = group_fn,
    .fabric = fabric_fn,
};

/* ---------------------------------------------------------------------------------------------
 * Main
 * ------------------------------------------------------------------------------------------ */

static void on_fatal_signal(int sig)
{
    sig_atomic_t n;
    for (n = 0; n < npids; n++) {
        kill(all_pids[n], SIGKILL);
    }
    if (sig == SIGALRM) {
        static const char msg[] = "host: watchdog expired, killing everything\n";
        if (write(2, msg, sizeof(msg) - 1) < 0) {
            _exit(124);
        }
        _exit(124);
    }
    _exit(128 + sig);
}

/* Reap every child that has exited. Returns true while some started process is still live. */
static bool reap(void)
{
    int status;
    pid_t pid;
    job_t *j;
    pmix_rank_t r;
    bool live = false;

    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int code = WIFEXITED(status) ? WEXITSTATUS(status)
                   : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
        pmix_proc_t gone;
        bool found = false;
        pthread_mutex_lock(&lock);
        for (j = jobs; j != NULL; j = j->next) {
            for (r = 0; r < j->nprocs; r++) {
                proc_rec_t *p = &j->procs[r];
                if (p->pid == pid && !p->reaped) {
                    p->reaped = true;
                    found = true;
                    PMIX_LOAD_PROCID(&gone, j->nspace, r);
                    trace("%s:%u (pid %d) exited with %d%s", j->nspace, r, (int) pid, code,
                          p->kill_expected ? " (killed on request)" : "");
                    if (code != 0 && !p->kill_expected && first_failure == 0) {
                        first_failure = code;
                        fprintf(stderr, "host: %s:%u exited with code %d\n", j->nspace, r, code);
                    }
                }
            }
        }
        pthread_mutex_unlock(&lock);
        if (found) {
            /* the process is gone: the library must forget it (and its connection) */
            waiter_t w;
            waiter_init(&w);
            PMIx_server_deregister_client(&gone, waiter_op_cb, &w);
            waiter_wait(&w);
        }
    }
    pthread_mutex_lock(&lock);
    for (j = jobs; j != NULL; j = j->next) {
        for (r = 0; r < j->nprocs; r++) {
            if (j->procs[r].pid > 0 && !j->procs[r].reaped) {
                live = true;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return live;
}

/* The getall scenario (client.c): once its clients are gone, the host asks its own library
 * for all of each rank's data (PMIx_Get with a NULL key), as PRRTE does when a connect spans
 * nodes (with PMIX_OPTIONAL and a scope). Prints the ctest keys found, sorted. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static void host_getall(const job_t *job)
{
    static const struct {
        const char *name;
        pmix_scope_t scope;
    } scopes[] = {{"LOCAL", PMIX_LOCAL}, {"REMOTE", PMIX_REMOTE}, {"GLOBAL", PMIX_GLOBAL},
                  {"none", PMIX_SCOPE_UNDEF}};
    pmix_rank_t r;
    size_t s, n;
    bool yes = true;
    for (r = 0; r < job->nprocs; r++) {
        for (s = 0; s < sizeof(scopes) / sizeof(scopes[0]); s++) {
            pmix_info_t info[2];
            pmix_proc_t p;
            pmix_value_t *v = NULL;
            pmix_status_t rc;
            char keys[256] = "";
            PMIX_LOAD_PROCID(&p, job->nspace, r);
            info_load(&info[0], PMIX_OPTIONAL, &yes, PMIX_BOOL);
            info_load(&info[1], PMIX_DATA_SCOPE, &scopes[s].scope, PMIX_SCOPE);
            rc = PMIx_Get(&p, NULL, info, scopes[s].scope == PMIX_SCOPE_UNDEF ? 1 : 2, &v);
            if (rc == PMIX_SUCCESS && v != NULL && v->type == PMIX_DATA_ARRAY
                && v->data.darray != NULL && v->data.darray->type == PMIX_INFO) {
                pmix_info_t *a = (pmix_info_t *) v->data.darray->array;
                const char *found[16];
                size_t nfound = 0;
                for (n = 0; n < v->data.darray->size; n++) {
                    if (strncmp(a[n].key, "ctest.", 6) == 0 && nfound < 16) {
                        found[nfound++] = a[n].key;
                    }
                }
                /* sorted: the libraries order them differently */
                qsort(found, nfound, sizeof(found[0]), cmp_str);
                for (n = 0; n < nfound; n++) {
                    strncat(keys, " ", sizeof(keys) - strlen(keys) - 1);
                    strncat(keys, found[n], sizeof(keys) - strlen(keys) - 1);
                }
            } else if (rc == PMIX_SUCCESS) {
                strcpy(keys, " (not a DATA_ARRAY of INFO)");
            }
            printf("host: rank %u, %s, optional: %s%s\n", r, scopes[s].name,
                   PMIx_Error_string(rc), keys);
            if (v != NULL) {
                PMIX_VALUE_RELEASE(v);
            }
            PMIX_INFO_DESTRUCT(&info[0]);
            PMIX_INFO_DESTRUCT(&info[1]);
        }
    }
    fflush(stdout);
}

static void usage(void)
{
    fprintf(stderr, "usage: host [-n N] [-t SECONDS] [--] client_prog args...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int nprocs = 1, timeout = 60, i, code;
    const char *tmpdir = getenv("TMPDIR");
    pmix_info_t *info;
    bool no = false;
    pmix_status_t rc;
    app_rec_t app;
    job_t *job;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            nprocs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            timeout = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (argv[i][0] == '-') {
            usage();
        } else {
            break;
        }
    }
    if (i >= argc || nprocs < 1) {
        usage();
    }
    debug = getenv("HOST_DEBUG") != NULL && strcmp(getenv("HOST_DEBUG"), "0") != 0;
    if (tmpdir == NULL) {
        tmpdir = "/tmp";
    }
    gethostname(hostname, sizeof(hostname) - 1);

    watchdog_signals(on_fatal_signal, timeout);

    /* The reference server advertises every gds component it has to its clients; restrict it
     * to "hash" so that clients of either library can read the job data it serves. */
    if (strncmp(PMIx_Get_version(), "pmix-rs", 7) != 0) {
        /* (ours honours the parameter too, as OpenPMIx does: it would then offer its own
         * clients no mapped segment, which these scenarios cover) */
        setenv(gds_var, "hash", 1);
    }

    PMIX_INFO_CREATE(info, 3);
    info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    info_load(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    /* Keep the library from writing forwarded client output itself (our children write to
     * inherited descriptors). The reference has been seen to crash without this; not
     * reproduced with this host, but kept. */
    info_load(&info[2], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    rc = PMIx_server_init(&module, info, 3);
    PMIX_INFO_FREE(info, 3);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "host: PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    if (answers_start() != 0) {
        fprintf(stderr, "host: cannot start the answer thread\n");
        return 1;
    }

    /* the initial job: N copies of the client command line */
    app.cmd = argv[i];
    app.argv = &argv[i];
    app.env = NULL;
    app.cwd = NULL;
    app.maxprocs = nprocs;
    job = new_job((pmix_rank_t) nprocs, NULL);
    rc = launch_job(job, &app, 1);
    if (rc != PMIX_SUCCESS) {
        pmix_proc_t all;
        PMIX_LOAD_PROCID(&all, job->nspace, PMIX_RANK_WILDCARD);
        pthread_mutex_lock(&lock);
        signal_procs(&all, 1, SIGKILL, true);
        pthread_mutex_unlock(&lock);
        if (first_failure == 0) {
            first_failure = 1;
        }
    }

    /* the launcher loop: spawn requests, held lookups' timeouts, reaping */
    for (;;) {
        spawn_req_t *s;
        ready_t *expired;
        bool live, pending;
        struct timespec ts;

        pthread_mutex_lock(&lock);
        s = spawn_queue;
        if (s != NULL) {
            spawn_queue = s->next;
        }
        expired = lookups_ready(true);
        pthread_mutex_unlock(&lock);
        answer_ready(expired);
        if (s != NULL) {
            do_spawn(s);
            continue;
        }
        live = reap();
        pthread_mutex_lock(&lock);
        pending = spawn_queue != NULL;
        if (!live && !pending) {
            pthread_mutex_unlock(&lock);
            break;
        }
        if (!pending) {
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 10 * 1000 * 1000;   /* poll children every 10 ms */
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&wake, &lock, &ts);
        }
        pthread_mutex_unlock(&lock);
    }

    /* Every process has exited: answer lookups nobody will publish for, then tear down. */
    {
        lookup_req_t *l, *next;
        job_t *j;
        pthread_mutex_lock(&lock);
        l = held_lookups;
        held_lookups = NULL;
        pthread_mutex_unlock(&lock);
        for (; l != NULL; l = next) {
            next = l->next;
            answer_lookup(l->cbfunc, l->cbdata, PMIX_ERR_NOT_FOUND, NULL, 0, 0);
            lookup_req_free(l);
        }
        if (strcmp(argv[argc - 1], "getall") == 0 && jobs != NULL) {
            host_getall(jobs);   /* the initial job (jobs are appended) */
        }
        for (j = jobs; j != NULL; j = j->next) {
            if (j->registered) {
                waiter_t w;
                waiter_init(&w);
                PMIx_server_deregister_nspace(j->nspace, waiter_op_cb, &w);
                waiter_wait(&w);
            }
        }
    }
    /* let the answer thread deliver what is queued, then stop it */
    answers_finish();

    rc = PMIx_server_finalize();
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "host: PMIx_server_finalize: %s\n", PMIx_Error_string(rc));
    }

    code = aborted ? abort_status : first_failure;
    while (jobs != NULL) {
        job_t *j = jobs;
        jobs = j->next;
        free(j->procs);
        free(j);
    }
    while (pubs != NULL) {
        pub_t *d = pubs;
        pubs = d->next;
        PMIx_Value_destruct(&d->value);
        free(d);
    }
    return code;
}
