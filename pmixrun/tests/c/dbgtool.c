/* A debugger tool for pmixrun's debugger tests (pmixrun/tests/debugger.rs).
 *
 * usage: dbgtool launch DIR APP NP CODE
 *   Direct launch: connect to the server (found in TMPDIR), spawn NP processes of
 *   "APP DIR CODE" with PMIX_DEBUG_STOP_IN_INIT, wait for one PMIX_READY_FOR_DEBUG per
 *   process, read the proc table, check that every process is alive and has not passed
 *   PMIx_Init (no DIR/init.<nspace>.<rank>), release them with PMIX_DEBUGGER_RELEASE, wait
 *   for PMIX_EVENT_JOB_END and print what it says, check every process passed PMIx_Init.
 * usage: dbgtool attach PID NSPACE DAEMON DIR
 *   Attach: connect to the server of pid PID, read NSPACE's proc table, spawn one
 *   debugger daemon "DAEMON DIR" per process (PMIX_DEBUGGER_DAEMONS, PMIX_DEBUG_TARGET,
 *   PMIX_DEBUG_DAEMONS_PER_PROC), wait for the end of the daemons' job and of NSPACE.
 * usage: dbgtool exec DIR APP NP
 *   As launch, with PMIX_DEBUG_STOP_ON_EXEC: every process must be stopped ('T' in
 *   /proc/PID/stat) before PMIx_Init; resumed with PMIx_Job_control(PMIX_JOB_CTRL_RESUME).
 * usage: dbgtool psets PID
 *   Print the process sets the server of pid PID knows, and their members.
 * usage: dbgtool cospawn DIR APP NP DAEMON
 *   One PMIx_Spawn of NP processes "APP DIR 0 wait" and, co-spawned, debugger daemons
 *   "DAEMON DIR" (PMIX_DEBUGGER_DAEMONS and PMIX_DEBUG_DAEMONS_PER_PROC in the daemon
 *   application's infos); waits for the end of the application's job.
 * usage: dbgtool stdin DIR NP TGT PUSH FILE
 *   Spawn NP processes of a shell that copies its stdin to DIR/got.<rank>, with TGT:
 *   "none" (no stdin attribute), "fwd" (PMIX_FWD_STDIN alone), "str:X" (PMIX_FWD_STDIN and
 *   PMIX_STDIN_TGT as PRRTE's string X), "proc:R" (PMIX_STDIN_TGT as a pmix_proc_t of rank
 *   R, "all" for the wildcard). Then push FILE with PMIx_IOF_push (callbacks: the reference's
 *   blocking form hangs) to rank PUSH ("all": wildcard) and end the input; print
 *   "dbgtool: push <status>" (the first failure, else SUCCESS); wait for the job's end.
 * usage: dbgtool servers connect|noconnect
 *   PMIx_tool_init (connected to the system server, or with PMIX_TOOL_DO_NOT_CONNECT),
 *   then PMIX_QUERY_AVAIL_SERVERS: one line "dbgtool: server KEY=VALUE ..." per server, in
 *   the order of the answer's array ("time" for a non-empty start time), or
 *   "dbgtool: servers <status>" when the query fails.
 * usage: dbgtool rndz DIR
 *   A launcher started by an initiator (PMIX_LAUNCHER_RNDZ_URI in the environment):
 *   creates DIR/init, calls PMIx_tool_init (PMIX_LAUNCHER, PMIX_TOOL_DO_NOT_CONNECT), which
 *   returns once the initiator releases it, then creates DIR/released and prints the
 *   status, PMIX_PARENT_ID, the keys of PMIX_LAUNCH_DIRECTIVES (or its status) and the
 *   servers it is connected to.
 * usage: dbgtool srvrndz DIR
 *   As rndz, for a server: PMIx_server_init (no module, identity dbgsrv:0) returns once
 *   released; prints its status, then PMIX_PARENT_ID of its identity (and finalizes).
 * usage: dbgtool keepalive
 *   PMIx_tool_init (PMIX_TOOL_DO_NOT_CONNECT) with PMIX_KEEPALIVE_PIPE in the environment,
 *   a handler for PMIX_ERR_JOB_TERMINATED; prints "dbgtool: watching", then (at most 60 s
 *   later) the event's affected proc and whether its source is this tool.
 * usage: dbgtool jobs N APP DIR
 *   Spawn N jobs of one process "APP DIR 0", one after the other, each waited for to its
 *   PMIX_EVENT_JOB_END (which must say success); prints "dbgtool: N jobs ran" at the end.
 * usage: dbgtool stop PID
 *   Connect to the server of pid PID and terminate it (PMIx_Job_control with
 *   PMIX_JOB_CTRL_TERMINATE on the server's own namespace).
 *
 * Lines the test reads start with "dbgtool:"; failures print "FAIL ..." and exit 1. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pmix_server.h>
#include <pmix_tool.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready_count;
/* Ends seen: their namespaces, status and exit code. */
#define MAX_ENDS 8
static struct {
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_status_t status;
    int code;
    pmix_rank_t rank;
    int has_time;
} ends[MAX_ENDS];
static int nends;
/* Namespaces of the PMIX_EVENT_JOB_START and PMIX_LAUNCH_COMPLETE events seen. */
static char started[MAX_ENDS][PMIX_MAX_NSLEN + 1], launched[MAX_ENDS][PMIX_MAX_NSLEN + 1];
static int nstarted, nlaunched;

#define FAIL(...)                                                                          \
    do {                                                                                   \
        fprintf(stderr, "FAIL dbgtool: ");                                                 \
        fprintf(stderr, __VA_ARGS__);                                                      \
        fprintf(stderr, "\n");                                                             \
        exit(1);                                                                           \
    } while (0)

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    size_t n;
    (void) id; (void) source; (void) results; (void) nresults;
    pthread_mutex_lock(&mu);
    if (PMIX_READY_FOR_DEBUG == status) {
        ready_count++;
    } else if (PMIX_EVENT_JOB_START == status || PMIX_LAUNCH_COMPLETE == status) {
        for (n = 0; n < ninfo; n++) {
            if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC)) {
                if (PMIX_EVENT_JOB_START == status && nstarted < MAX_ENDS) {
                    PMIX_LOAD_NSPACE(started[nstarted++], info[n].value.data.proc->nspace);
                } else if (PMIX_LAUNCH_COMPLETE == status && nlaunched < MAX_ENDS) {
                    PMIX_LOAD_NSPACE(launched[nlaunched++], info[n].value.data.proc->nspace);
                }
            }
        }
    } else if (PMIX_EVENT_JOB_END == status && nends < MAX_ENDS) {
        memset(&ends[nends], 0, sizeof ends[nends]);
        ends[nends].rank = PMIX_RANK_UNDEF;
        for (n = 0; n < ninfo; n++) {
            if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC)) {
                PMIX_LOAD_NSPACE(ends[nends].nspace, info[n].value.data.proc->nspace);
            } else if (PMIX_CHECK_KEY(&info[n], PMIX_JOB_TERM_STATUS)) {
                ends[nends].status = info[n].value.data.status;
            } else if (PMIX_CHECK_KEY(&info[n], PMIX_EXIT_CODE)) {
                ends[nends].code = info[n].value.data.integer;
            } else if (PMIX_CHECK_KEY(&info[n], PMIX_PROCID)) {
                ends[nends].rank = info[n].value.data.proc->rank;
            } else if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_TIMESTAMP)) {
                ends[nends].has_time = 1;
            }
        }
        nends++;
    }
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Waits for the end of job `ns`; returns its index in `ends`. */
static int wait_end(const char *ns)
{
    int i;
    pthread_mutex_lock(&mu);
    for (;;) {
        for (i = 0; i < nends; i++) {
            if (0 == strcmp(ends[i].nspace, ns)) {
                printf("dbgtool: job %s ended: status %s, rank %d, exit code %d, timestamp %s\n",
                       ns, PMIx_Error_string(ends[i].status),
                       PMIX_RANK_UNDEF == ends[i].rank ? -1
                       : PMIX_RANK_WILDCARD == ends[i].rank ? -2 : (int) ends[i].rank,
                       ends[i].code, ends[i].has_time ? "yes" : "no");
                for (int k = 0; k < nstarted; k++) {
                    if (0 == strcmp(started[k], ns)) {
                        printf("dbgtool: job %s start event seen\n", ns);
                    }
                }
                for (int k = 0; k < nlaunched; k++) {
                    if (0 == strcmp(launched[k], ns)) {
                        printf("dbgtool: job %s launch-complete event seen\n", ns);
                    }
                }
                fflush(stdout);
                pthread_mutex_unlock(&mu);
                return i;
            }
        }
        pthread_cond_wait(&cv, &mu);
    }
}

static void register_events(void)
{
    pmix_status_t codes[4] = {PMIX_READY_FOR_DEBUG, PMIX_EVENT_JOB_END, PMIX_EVENT_JOB_START,
                              PMIX_LAUNCH_COMPLETE};
    pmix_status_t rc = PMIx_Register_event_handler(codes, 4, NULL, 0, on_event, NULL, NULL);
    if (rc < 0) {
        FAIL("register: %s", PMIx_Error_string(rc));
    }
}

/* The proc table of `ns`: prints it, returns the pids (malloc'd) and their count. */
static pid_t *proc_table(const char *ns, size_t *np)
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t nres = 0, n;
    pmix_proc_info_t *pi;
    pmix_status_t rc;
    pid_t *pids;
    char host[256];

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_PROC_TABLE);
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, ns, PMIX_STRING);
    rc = PMIx_Query_info(&q, 1, &res, &nres);
    if (PMIX_SUCCESS != rc || 0 == nres || PMIX_DATA_ARRAY != res[0].value.type
        || PMIX_PROC_INFO != res[0].value.data.darray->type) {
        FAIL("proc table of %s: %s", ns, PMIx_Error_string(rc));
    }
    gethostname(host, sizeof host);
    *np = res[0].value.data.darray->size;
    pi = (pmix_proc_info_t *) res[0].value.data.darray->array;
    pids = calloc(*np, sizeof(pid_t));
    for (n = 0; n < *np; n++) {
        if (pi[n].proc.rank != n || 0 != strcmp(pi[n].proc.nspace, ns)) {
            FAIL("proc table entry %zu is %s:%u", n, pi[n].proc.nspace, pi[n].proc.rank);
        }
        if (NULL == pi[n].hostname || NULL == strstr(host, pi[n].hostname)
            || NULL == pi[n].executable_name || 0 >= pi[n].pid) {
            FAIL("proc table entry %zu: host %s exe %s pid %d", n,
                 pi[n].hostname ? pi[n].hostname : "(null)",
                 pi[n].executable_name ? pi[n].executable_name : "(null)", (int) pi[n].pid);
        }
        pids[n] = pi[n].pid;
        printf("dbgtool: proc %s:%u pid %d host %s exe %s state %s\n", ns, pi[n].proc.rank,
               (int) pi[n].pid, pi[n].hostname, pi[n].executable_name,
               PMIx_Proc_state_string(pi[n].state));
    }
    fflush(stdout);
    PMIX_INFO_FREE(res, nres);
    return pids;
}

static int launch(const char *dir, const char *app, int np, const char *code)
{
    pmix_app_t a;
    pmix_info_t ji[1], rel;
    pmix_nspace_t ns;
    pmix_proc_t all;
    pmix_status_t rc;
    pid_t *pids;
    size_t n, npids;
    int i, e;
    char path[4096];
    struct stat sb;

    register_events();
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup(app);
    PMIX_ARGV_APPEND(rc, a.argv, app);
    PMIX_ARGV_APPEND(rc, a.argv, dir);
    PMIX_ARGV_APPEND(rc, a.argv, code);
    a.maxprocs = np;
    PMIX_INFO_LOAD(&ji[0], PMIX_DEBUG_STOP_IN_INIT, NULL, PMIX_BOOL);
    rc = PMIx_Spawn(ji, 1, &a, 1, ns);
    if (PMIX_SUCCESS != rc) {
        FAIL("spawn: %s", PMIx_Error_string(rc));
    }
    printf("dbgtool: spawned %s\n", ns);
    pthread_mutex_lock(&mu);
    while (ready_count < np) {
        pthread_cond_wait(&cv, &mu);
    }
    pthread_mutex_unlock(&mu);
    printf("dbgtool: %d processes ready for debug\n", np);
    pids = proc_table(ns, &npids);
    if ((int) npids != np) {
        FAIL("proc table has %zu entries, not %d", npids, np);
    }
    for (n = 0; n < npids; n++) {
        snprintf(path, sizeof path, "%s/init.%s.%zu", dir, ns, n);
        if (0 != kill(pids[n], 0)) {
            FAIL("rank %zu (pid %d) is not alive while stopped in init", n, (int) pids[n]);
        }
        if (0 == stat(path, &sb)) {
            FAIL("rank %zu passed PMIx_Init before the release", n);
        }
    }
    printf("dbgtool: every process is waiting in PMIx_Init\n");
    fflush(stdout);
    PMIX_LOAD_PROCID(&all, ns, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&rel, PMIX_EVENT_CUSTOM_RANGE, &all, PMIX_PROC);
    rc = PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, &rel, 1, NULL, NULL);
    if (PMIX_SUCCESS != rc && PMIX_OPERATION_SUCCEEDED != rc) {
        FAIL("release: %s", PMIx_Error_string(rc));
    }
    e = wait_end(ns);
    for (i = 0; i < np; i++) {
        snprintf(path, sizeof path, "%s/init.%s.%d", dir, ns, i);
        if (0 != stat(path, &sb)) {
            FAIL("rank %d never passed PMIx_Init", i);
        }
    }
    printf("dbgtool: every process passed PMIx_Init\n");
    /* once per process, not again (openpmix#3728: the tool got it several times) */
    pthread_mutex_lock(&mu);
    i = ready_count;
    pthread_mutex_unlock(&mu);
    if (i != np) {
        FAIL("PMIX_READY_FOR_DEBUG arrived %d times for %d processes", i, np);
    }
    (void) e;
    return 0;
}

static char proc_state(pid_t pid)
{
    char path[64], buf[512], *p;
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    f = fopen(path, "r");
    if (NULL == f) {
        return '?';
    }
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    p = strrchr(buf, ')');
    return (NULL == p || p[1] == '\0') ? '?' : p[2];
}

static int stop_on_exec(const char *dir, const char *app, int np)
{
    pmix_app_t a;
    pmix_info_t ji[1], d;
    pmix_nspace_t ns;
    pmix_proc_t all;
    pmix_status_t rc;
    pid_t *pids;
    size_t n, npids;
    char path[4096];
    struct stat sb;

    register_events();
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup(app);
    PMIX_ARGV_APPEND(rc, a.argv, app);
    PMIX_ARGV_APPEND(rc, a.argv, dir);
    PMIX_ARGV_APPEND(rc, a.argv, "0");
    a.maxprocs = np;
    PMIX_INFO_LOAD(&ji[0], PMIX_DEBUG_STOP_ON_EXEC, NULL, PMIX_BOOL);
    rc = PMIx_Spawn(ji, 1, &a, 1, ns);
    if (PMIX_SUCCESS != rc) {
        FAIL("spawn: %s", PMIx_Error_string(rc));
    }
    pthread_mutex_lock(&mu);
    while (ready_count < np) {
        pthread_cond_wait(&cv, &mu);
    }
    pthread_mutex_unlock(&mu);
    pids = proc_table(ns, &npids);
    for (n = 0; n < npids; n++) {
        char st = proc_state(pids[n]);
        snprintf(path, sizeof path, "%s/init.%s.%zu", dir, ns, n);
        if ('T' != st && 't' != st) {
            FAIL("rank %zu (pid %d) is in state %c, not stopped", n, (int) pids[n], st);
        }
        if (0 == stat(path, &sb)) {
            FAIL("rank %zu passed PMIx_Init while stopped on exec", n);
        }
    }
    printf("dbgtool: every process is stopped on exec\n");
    PMIX_LOAD_PROCID(&all, ns, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&d, PMIX_JOB_CTRL_RESUME, NULL, PMIX_BOOL);
    rc = PMIx_Job_control(&all, 1, &d, 1, NULL, NULL);
    if (PMIX_SUCCESS != rc && PMIX_OPERATION_SUCCEEDED != rc) {
        FAIL("resume: %s", PMIx_Error_string(rc));
    }
    wait_end(ns);
    for (n = 0; n < npids; n++) {
        snprintf(path, sizeof path, "%s/init.%s.%zu", dir, ns, n);
        if (0 != stat(path, &sb)) {
            FAIL("rank %zu never passed PMIx_Init", n);
        }
    }
    printf("dbgtool: every process passed PMIx_Init\n");
    return 0;
}

static int psets(void)
{
    pmix_query_t q[2];
    pmix_info_t *res = NULL;
    size_t nres = 0, n, m;
    pmix_status_t rc;
    char *names, *tok, *save = NULL;

    PMIX_QUERY_CONSTRUCT(&q[0]);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_NUM_PSETS);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_PSET_NAMES);
    rc = PMIx_Query_info(q, 1, &res, &nres);
    if (PMIX_SUCCESS != rc) {
        FAIL("pset query: %s", PMIx_Error_string(rc));
    }
    names = NULL;
    for (n = 0; n < nres; n++) {
        if (PMIX_CHECK_KEY(&res[n], PMIX_QUERY_NUM_PSETS)) {
            printf("dbgtool: %zu psets\n", res[n].value.data.size);
        } else if (PMIX_CHECK_KEY(&res[n], PMIX_QUERY_PSET_NAMES)) {
            names = strdup(res[n].value.data.string);
            printf("dbgtool: pset names %s\n", names);
        }
    }
    PMIX_INFO_FREE(res, nres);
    for (tok = strtok_r(names, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
        PMIX_QUERY_CONSTRUCT(&q[1]);
        PMIX_ARGV_APPEND(rc, q[1].keys, PMIX_QUERY_PSET_MEMBERSHIP);
        PMIX_QUERY_QUALIFIERS_CREATE(&q[1], 1);
        PMIX_INFO_LOAD(&q[1].qualifiers[0], PMIX_PSET_NAME, tok, PMIX_STRING);
        rc = PMIx_Query_info(&q[1], 1, &res, &nres);
        if (PMIX_SUCCESS != rc || 0 == nres || PMIX_DATA_ARRAY != res[0].value.type) {
            FAIL("membership of %s: %s", tok, PMIx_Error_string(rc));
        }
        printf("dbgtool: pset %s:", tok);
        for (m = 0; m < res[0].value.data.darray->size; m++) {
            pmix_proc_t *p = &((pmix_proc_t *) res[0].value.data.darray->array)[m];
            printf(" %s:%u", p->nspace, p->rank);
        }
        printf("\n");
        PMIX_INFO_FREE(res, nres);
    }
    free(names);
    return 0;
}

static int cospawn(const char *dir, const char *app, int np, const char *daemon)
{
    pmix_app_t a[2];
    pmix_nspace_t ns;
    pmix_status_t rc;
    uint16_t per_proc = 1;

    register_events();
    PMIX_APP_CONSTRUCT(&a[0]);
    a[0].cmd = strdup(app);
    PMIX_ARGV_APPEND(rc, a[0].argv, app);
    PMIX_ARGV_APPEND(rc, a[0].argv, dir);
    PMIX_ARGV_APPEND(rc, a[0].argv, "0");
    PMIX_ARGV_APPEND(rc, a[0].argv, "wait");
    a[0].maxprocs = np;
    PMIX_APP_CONSTRUCT(&a[1]);
    a[1].cmd = strdup(daemon);
    PMIX_ARGV_APPEND(rc, a[1].argv, daemon);
    PMIX_ARGV_APPEND(rc, a[1].argv, dir);
    a[1].ninfo = 2;
    PMIX_INFO_CREATE(a[1].info, 2);
    PMIX_INFO_LOAD(&a[1].info[0], PMIX_DEBUGGER_DAEMONS, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&a[1].info[1], PMIX_DEBUG_DAEMONS_PER_PROC, &per_proc, PMIX_UINT16);
    rc = PMIx_Spawn(NULL, 0, a, 2, ns);
    if (PMIX_SUCCESS != rc) {
        FAIL("co-spawn: %s", PMIx_Error_string(rc));
    }
    printf("dbgtool: co-spawned %s\n", ns);
    fflush(stdout);
    wait_end(ns);
    return 0;
}

static pmix_status_t op_status;
static int op_done;

static void op_cb(pmix_status_t status, void *cbdata)
{
    (void) cbdata;
    pthread_mutex_lock(&mu);
    op_status = status;
    op_done = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

/* PMIx_IOF_push with a callback, waited for. */
static pmix_status_t push_wait(const pmix_proc_t *target, pmix_byte_object_t *bo,
                               pmix_info_t *dirs, size_t ndirs)
{
    pmix_status_t rc;
    pthread_mutex_lock(&mu);
    op_done = 0;
    pthread_mutex_unlock(&mu);
    rc = PMIx_IOF_push(target, 1, bo, dirs, ndirs, op_cb, NULL);
    if (PMIX_SUCCESS != rc) {
        return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
    }
    pthread_mutex_lock(&mu);
    while (!op_done) {
        pthread_cond_wait(&cv, &mu);
    }
    rc = op_status;
    pthread_mutex_unlock(&mu);
    return rc;
}

static pmix_rank_t rank_arg(const char *s)
{
    return 0 == strcmp(s, "all") ? PMIX_RANK_WILDCARD : (pmix_rank_t) strtoul(s, NULL, 10);
}

static int spawn_stdin(const char *dir, int np, const char *tgt, const char *push,
                       const char *file)
{
    pmix_app_t a;
    pmix_info_t ji[2], done;
    size_t nji = 0;
    pmix_nspace_t ns;
    pmix_proc_t target, tp;
    pmix_byte_object_t bo;
    pmix_status_t rc, first = PMIX_SUCCESS;
    static char buf[65536];
    char script[4096];
    size_t n;
    FILE *f;

    register_events();
    snprintf(script, sizeof script, "cat > %s/got.$PMIX_RANK", dir);
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup("sh");
    PMIX_ARGV_APPEND(rc, a.argv, "sh");
    PMIX_ARGV_APPEND(rc, a.argv, "-c");
    PMIX_ARGV_APPEND(rc, a.argv, script);
    a.maxprocs = np;
    if (0 == strcmp(tgt, "fwd") || 0 == strncmp(tgt, "str:", 4)) {
        PMIX_INFO_LOAD(&ji[nji], PMIX_FWD_STDIN, NULL, PMIX_BOOL);
        nji++;
    }
    if (0 == strncmp(tgt, "str:", 4)) {
        PMIX_INFO_LOAD(&ji[nji], PMIX_STDIN_TGT, tgt + 4, PMIX_STRING);
        nji++;
    } else if (0 == strncmp(tgt, "proc:", 5)) {
        PMIX_LOAD_PROCID(&tp, "", rank_arg(tgt + 5));
        PMIX_INFO_LOAD(&ji[nji], PMIX_STDIN_TGT, &tp, PMIX_PROC);
        nji++;
    }
    rc = PMIx_Spawn(0 == nji ? NULL : ji, nji, &a, 1, ns);
    if (PMIX_SUCCESS != rc) {
        printf("dbgtool: spawn %s\n", PMIx_Error_string(rc));
        return 0;
    }
    printf("dbgtool: spawned %s\n", ns);
    f = fopen(file, "rb");
    if (NULL == f) {
        FAIL("cannot open %s", file);
    }
    PMIX_LOAD_PROCID(&target, ns, rank_arg(push));
    while (PMIX_SUCCESS == first && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        bo.bytes = buf;
        bo.size = n;
        first = push_wait(&target, &bo, NULL, 0);
    }
    fclose(f);
    if (PMIX_SUCCESS == first) {
        PMIX_INFO_LOAD(&done, PMIX_IOF_COMPLETE, NULL, PMIX_BOOL);
        bo.bytes = buf;
        bo.size = 0;
        first = push_wait(&target, &bo, &done, 1);
    }
    printf("dbgtool: push %s\n", PMIx_Error_string(first));
    fflush(stdout);
    wait_end(ns);
    return 0;
}

static int servers(void)
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t nres = 0, n, m;
    pmix_status_t rc;

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_AVAIL_SERVERS);
    rc = PMIx_Query_info(&q, 1, &res, &nres);
    if (PMIX_SUCCESS != rc) {
        printf("dbgtool: servers %s\n", PMIx_Error_string(rc));
        return 0;
    }
    for (n = 0; n < nres; n++) {
        pmix_data_array_t *d = res[n].value.data.darray;
        if (!PMIX_CHECK_KEY(&res[n], PMIX_SERVER_INFO_ARRAY) || PMIX_DATA_ARRAY != res[n].value.type
            || PMIX_INFO != d->type) {
            FAIL("result %zu is %s of %s", n, res[n].key, PMIx_Data_type_string(res[n].value.type));
        }
        printf("dbgtool: server");
        for (m = 0; m < d->size; m++) {
            pmix_info_t *i = &((pmix_info_t *) d->array)[m];
            printf(" %s=", i->key);
            switch (i->value.type) {
            case PMIX_STRING:
                printf("%s", PMIX_CHECK_KEY(i, PMIX_SERVER_START_TIME) ? "time" : i->value.data.string);
                break;
            case PMIX_PROC_RANK:
                printf("rank:%u", i->value.data.rank);
                break;
            case PMIX_UINT32:
                printf("u32:%u", i->value.data.uint32);
                break;
            default:
                printf("(%s)", PMIx_Data_type_string(i->value.type));
            }
        }
        printf("\n");
    }
    PMIX_INFO_FREE(res, nres);
    return 0;
}

static void touch_in(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (NULL == f) {
        FAIL("cannot create %s", path);
    }
    fclose(f);
}

static int rndz(const char *dir)
{
    pmix_info_t info[2];
    pmix_proc_t me, *servers = NULL;
    pmix_value_t *val = NULL;
    pmix_status_t rc;
    size_t n, ns = 0;

    PMIX_INFO_LOAD(&info[0], PMIX_LAUNCHER, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    touch_in(dir, "init");
    rc = PMIx_tool_init(&me, info, 2);
    printf("dbgtool: tool_init %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) {
        return 0;
    }
    touch_in(dir, "released");
    rc = PMIx_Get(&me, PMIX_PARENT_ID, NULL, 0, &val);
    if (PMIX_SUCCESS == rc && PMIX_PROC == val->type) {
        printf("dbgtool: parent %s:%u\n", val->data.proc->nspace, val->data.proc->rank);
    } else {
        printf("dbgtool: parent %s\n", PMIx_Error_string(rc));
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
        val = NULL;
    }
    rc = PMIx_Get(&me, PMIX_LAUNCH_DIRECTIVES, NULL, 0, &val);
    if (PMIX_SUCCESS == rc && PMIX_DATA_ARRAY == val->type
        && PMIX_INFO == val->data.darray->type) {
        printf("dbgtool: directives");
        for (n = 0; n < val->data.darray->size; n++) {
            printf(" %s", ((pmix_info_t *) val->data.darray->array)[n].key);
        }
        printf("\n");
    } else {
        printf("dbgtool: directives %s\n", PMIx_Error_string(rc));
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    rc = PMIx_tool_get_servers(&servers, &ns);
    printf("dbgtool: servers %s", PMIx_Error_string(rc));
    for (n = 0; n < ns; n++) {
        printf(" %s:%u", servers[n].nspace, servers[n].rank);
    }
    printf("\n");
    fflush(stdout);
    PMIx_tool_finalize();
    return 0;
}

static int srvrndz(const char *dir)
{
    pmix_server_module_t module;
    pmix_proc_t me;
    pmix_value_t *val = NULL;
    pmix_status_t rc;

    pmix_info_t si[2];
    pmix_rank_t zero = 0;

    memset(&module, 0, sizeof module);
    PMIX_INFO_LOAD(&si[0], PMIX_SERVER_NSPACE, "dbgsrv", PMIX_STRING);
    PMIX_INFO_LOAD(&si[1], PMIX_SERVER_RANK, &zero, PMIX_PROC_RANK);
    touch_in(dir, "init");
    rc = PMIx_server_init(&module, si, 2);
    printf("dbgtool: server_init %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) {
        return 0;
    }
    touch_in(dir, "released");
    PMIX_LOAD_PROCID(&me, "dbgsrv", 0);
    printf("dbgtool: me %s:%u\n", me.nspace, me.rank);
    rc = PMIx_Get(&me, PMIX_PARENT_ID, NULL, 0, &val);
    if (PMIX_SUCCESS == rc && PMIX_PROC == val->type) {
        printf("dbgtool: parent %s:%u\n", val->data.proc->nspace, val->data.proc->rank);
    } else {
        printf("dbgtool: parent %s\n", PMIx_Error_string(rc));
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    fflush(stdout);
    PMIx_server_finalize();
    return 0;
}

static int terminated;
static char term_affected[PMIX_MAX_NSLEN + 32];
static int term_from_me;
static pmix_proc_t myself;

static void on_terminated(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                          size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata)
{
    size_t n;
    (void) id; (void) status; (void) results; (void) nresults;
    pthread_mutex_lock(&mu);
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC)) {
            snprintf(term_affected, sizeof term_affected, "%s:%u",
                     info[n].value.data.proc->nspace, info[n].value.data.proc->rank);
        }
    }
    term_from_me = NULL != source && PMIX_CHECK_PROCID(source, &myself);
    terminated = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

static int keepalive(void)
{
    pmix_info_t nc;
    pmix_status_t rc, code = PMIX_ERR_JOB_TERMINATED;
    struct timespec until;

    PMIX_INFO_LOAD(&nc, PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    rc = PMIx_tool_init(&myself, &nc, 1);
    if (PMIX_SUCCESS != rc) {
        FAIL("tool_init: %s", PMIx_Error_string(rc));
    }
    rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_terminated, NULL, NULL);
    if (rc < 0) {
        FAIL("register: %s", PMIx_Error_string(rc));
    }
    printf("dbgtool: watching\n");
    fflush(stdout);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&mu);
    while (!terminated) {
        if (0 != pthread_cond_timedwait(&cv, &mu, &until)) {
            break;
        }
    }
    if (terminated) {
        printf("dbgtool: terminated, affected %s, from me %d\n", term_affected, term_from_me);
    } else {
        printf("dbgtool: no event\n");
    }
    pthread_mutex_unlock(&mu);
    fflush(stdout);
    PMIx_tool_finalize();
    return 0;
}

static void connect_pid(const char *pid)
{
    pmix_info_t info;
    pmix_proc_t me;
    pid_t p = (pid_t) atoi(pid);
    pmix_status_t rc;

    PMIX_INFO_LOAD(&info, PMIX_SERVER_PIDINFO, &p, PMIX_PID);
    rc = PMIx_tool_init(&me, &info, 1);
    if (PMIX_SUCCESS != rc) {
        FAIL("tool_init (pid %s): %s", pid, PMIx_Error_string(rc));
    }
}

static int attach(const char *ns, const char *daemon, const char *dir)
{
    pmix_app_t a;
    pmix_info_t ji[3];
    pmix_nspace_t dns;
    pmix_proc_t target;
    pmix_status_t rc;
    uint16_t per_proc = 1;
    size_t n, npids;
    pid_t *pids;

    register_events();
    pids = proc_table(ns, &npids);
    for (n = 0; n < npids; n++) {
        if (0 != kill(pids[n], 0)) {
            FAIL("rank %zu (pid %d) of the running job is not alive", n, (int) pids[n]);
        }
    }
    PMIX_APP_CONSTRUCT(&a);
    a.cmd = strdup(daemon);
    PMIX_ARGV_APPEND(rc, a.argv, daemon);
    PMIX_ARGV_APPEND(rc, a.argv, dir);
    PMIX_LOAD_PROCID(&target, ns, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&ji[0], PMIX_DEBUGGER_DAEMONS, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&ji[1], PMIX_DEBUG_TARGET, &target, PMIX_PROC);
    PMIX_INFO_LOAD(&ji[2], PMIX_DEBUG_DAEMONS_PER_PROC, &per_proc, PMIX_UINT16);
    rc = PMIx_Spawn(ji, 3, &a, 1, dns);
    if (PMIX_SUCCESS != rc) {
        FAIL("spawn of the daemons: %s", PMIx_Error_string(rc));
    }
    printf("dbgtool: daemons %s\n", dns);
    fflush(stdout);
    wait_end(dns);
    wait_end(ns);
    return 0;
}

static int stop(void)
{
    pmix_proc_t *servers = NULL, target;
    size_t ns = 0;
    pmix_info_t d;
    pmix_status_t rc = PMIx_tool_get_servers(&servers, &ns);
    if (PMIX_SUCCESS != rc || 0 == ns) {
        FAIL("get_servers: %s", PMIx_Error_string(rc));
    }
    PMIX_LOAD_PROCID(&target, servers[0].nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&d, PMIX_JOB_CTRL_TERMINATE, NULL, PMIX_BOOL);
    rc = PMIx_Job_control(&target, 1, &d, 1, NULL, NULL);
    if (PMIX_SUCCESS != rc && PMIX_OPERATION_SUCCEEDED != rc) {
        FAIL("terminate %s: %s", target.nspace, PMIx_Error_string(rc));
    }
    printf("dbgtool: terminated %s\n", target.nspace);
    return 0;
}

static int many_jobs(int n, const char *app, const char *arg)
{
    pmix_app_t a;
    pmix_nspace_t ns;
    pmix_status_t rc;
    int i, e;
    register_events();
    for (i = 0; i < n; i++) {
        PMIX_APP_CONSTRUCT(&a);
        a.cmd = strdup(app);
        PMIX_ARGV_APPEND(rc, a.argv, app);
        PMIX_ARGV_APPEND(rc, a.argv, arg);
        PMIX_ARGV_APPEND(rc, a.argv, "0");
        a.maxprocs = 1;
        rc = PMIx_Spawn(NULL, 0, &a, 1, ns);
        PMIX_APP_DESTRUCT(&a);
        if (PMIX_SUCCESS != rc) {
            FAIL("spawn %d: %s", i, PMIx_Error_string(rc));
        }
        e = wait_end(ns);
        pthread_mutex_lock(&mu);
        if (PMIX_SUCCESS != ends[e].status || 0 != ends[e].code) {
            FAIL("job %d ended with %s, exit code %d", i, PMIx_Error_string(ends[e].status),
                 ends[e].code);
        }
        /* room for the next job's events */
        nends = nstarted = nlaunched = 0;
        pthread_mutex_unlock(&mu);
    }
    printf("dbgtool: %d jobs ran\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_status_t rc;
    int r;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 6 && 0 == strcmp(argv[1], "launch")) {
        if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, NULL, 0))) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = launch(argv[2], argv[3], atoi(argv[4]), argv[5]);
    } else if (argc == 6 && 0 == strcmp(argv[1], "attach")) {
        connect_pid(argv[2]);
        r = attach(argv[3], argv[4], argv[5]);
    } else if (argc == 5 && 0 == strcmp(argv[1], "exec")) {
        if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, NULL, 0))) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = stop_on_exec(argv[2], argv[3], atoi(argv[4]));
    } else if (argc == 6 && 0 == strcmp(argv[1], "cospawn")) {
        if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, NULL, 0))) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = cospawn(argv[2], argv[3], atoi(argv[4]), argv[5]);
    } else if (argc == 3 && 0 == strcmp(argv[1], "psets")) {
        connect_pid(argv[2]);
        r = psets();
    } else if (argc == 7 && 0 == strcmp(argv[1], "stdin")) {
        if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, NULL, 0))) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = spawn_stdin(argv[2], atoi(argv[3]), argv[4], argv[5], argv[6]);
    } else if (argc == 3 && 0 == strcmp(argv[1], "servers")) {
        pmix_info_t nc;
        if (0 == strcmp(argv[2], "noconnect")) {
            PMIX_INFO_LOAD(&nc, PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
        } else {
            PMIX_INFO_LOAD(&nc, PMIX_CONNECT_TO_SYSTEM, NULL, PMIX_BOOL);
        }
        rc = PMIx_tool_init(&me, &nc, 1);
        if (PMIX_SUCCESS != rc) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = servers();
    } else if (argc == 3 && 0 == strcmp(argv[1], "srvrndz")) {
        return srvrndz(argv[2]);
    } else if (argc == 2 && 0 == strcmp(argv[1], "keepalive")) {
        return keepalive();
    } else if (argc == 3 && 0 == strcmp(argv[1], "rndz")) {
        return rndz(argv[2]);
    } else if (argc == 3 && 0 == strcmp(argv[1], "stop")) {
        connect_pid(argv[2]);
        r = stop();
    } else if (argc == 5 && 0 == strcmp(argv[1], "jobs")) {
        if (PMIX_SUCCESS != (rc = PMIx_tool_init(&me, NULL, 0))) {
            FAIL("tool_init: %s", PMIx_Error_string(rc));
        }
        r = many_jobs(atoi(argv[2]), argv[3], argv[4]);
    } else {
        fprintf(stderr, "usage: dbgtool launch DIR APP NP CODE | attach PID NSPACE DAEMON DIR"
                        " | exec DIR APP NP | cospawn DIR APP NP DAEMON | psets PID"
                        " | stdin DIR NP TGT PUSH FILE | servers connect|noconnect | rndz DIR | srvrndz DIR"
                        " | keepalive"
                        " | stop PID | jobs N APP DIR\n");
        return 2;
    }
    PMIx_tool_finalize();
    return r;
}
