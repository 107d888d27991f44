/* Client programs for pmixrun's integration tests (pmixrun/tests/pmixrun.rs), built against
 * the reference headers and run on both libraries.
 *
 * usage: tclient SCENARIO [ARGS]
 *   hello               print "hello from R of N" (job size from PMIx_Get)
 *   modex               put/commit/fence(collect)/get every peer's keys, then a second round
 *                       after a fence that collects nothing (the server's direct modex)
 *   exit CODE RANK      fence, finalize; RANK then exits with CODE
 *   sigkill RANK DIR    write DIR/pid.R, fence; RANK kills itself with SIGKILL, the others
 *                       sleep (pmixrun must terminate them)
 *   sleep DIR           write DIR/pid.R and sleep (for signal forwarding)
 *   spawn               rank 0 spawns 2 "child" processes and waits for their job's
 *                       PMIX_EVENT_JOB_END; prints what the event says
 *   child               (spawned) print the parent and the spawned flag
 *   query               rank 0 asks for the proc table, job status and psets of its job
 *   cred                get a credential from the server and have it validated
 *   dist                the device distances PMIx_Compute_distances gives
 *   manyfds             take descriptors up to 1100 first, then run "modex": the library's
 *                       own sockets are numbered above 1024 (FD_SETSIZE)
 *   finthreads          4 threads call PMIx_Get, _Put and _Query_info_nb without pause while
 *                       the main thread finalizes; they stop at their first error
 *
 * Every check that fails prints "FAIL ..." on stderr and makes the process exit 1. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

static pmix_proc_t me;
static uint32_t size;
static int failures;

#define FAIL(...)                                              \
    do {                                                       \
        fprintf(stderr, "FAIL %s:%u: ", me.nspace, me.rank);   \
        fprintf(stderr, __VA_ARGS__);                          \
        fprintf(stderr, "\n");                                 \
        failures++;                                            \
    } while (0)

static void init(void)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    setvbuf(stdout, NULL, _IONBF, 0);
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "FAIL PMIx_Init: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL || v->type != PMIX_UINT32) {
        fprintf(stderr, "FAIL PMIx_Get(job size): %s\n", PMIx_Error_string(rc));
        exit(1);
    }
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
}

static int finish(void)
{
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        FAIL("PMIx_Finalize: %s", PMIx_Error_string(rc));
    }
    return failures ? 1 : 0;
}

static void fence(bool collect)
{
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        FAIL("PMIx_Fence: %s", PMIx_Error_string(rc));
        exit(1);
    }
}

static void write_pid(const char *dir)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof(path), "%s/pid.%u", dir, me.rank);
    f = fopen(path, "w");
    if (f == NULL) {
        FAIL("cannot write %s", path);
        return;
    }
    fprintf(f, "%d\n", (int) getpid());
    fclose(f);
}

static int hello(void)
{
    init();
    printf("hello from %u of %u\n", me.rank, size);
    return finish();
}

static void put_str(pmix_scope_t scope, const char *key, const char *val)
{
    pmix_value_t v;
    pmix_status_t rc;
    PMIX_VALUE_LOAD(&v, val, PMIX_STRING);
    rc = PMIx_Put(scope, key, &v);
    PMIX_VALUE_DESTRUCT(&v);
    if (rc != PMIX_SUCCESS) {
        FAIL("PMIx_Put %s: %s", key, PMIx_Error_string(rc));
    }
}

static void check_str(pmix_rank_t r, const char *key, const char *want)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&p, me.nspace, r);
    rc = PMIx_Get(&p, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL) {
        FAIL("get %s of rank %u: %s", key, r, PMIx_Error_string(rc));
        return;
    }
    if (v->type != PMIX_STRING || strcmp(v->data.string, want) != 0) {
        FAIL("get %s of rank %u: wrong value", key, r);
    }
    PMIX_VALUE_RELEASE(v);
}

static bool report_socket;
static int highest_socket(void);

static int modex(void)
{
    char key[64], val[64];
    pmix_rank_t r;
    init();
    snprintf(val, sizeof(val), "global-%u", me.rank);
    put_str(PMIX_GLOBAL, "t.global", val);
    snprintf(val, sizeof(val), "local-%u", me.rank);
    put_str(PMIX_LOCAL, "t.local", val);
    if (PMIx_Commit() != PMIX_SUCCESS) {
        FAIL("PMIx_Commit");
    }
    fence(true);
    for (r = 0; r < size; r++) {
        snprintf(val, sizeof(val), "global-%u", r);
        check_str(r, "t.global", val);
        snprintf(val, sizeof(val), "local-%u", r);
        check_str(r, "t.local", val);
    }
    /* second round: the data is not collected, each get goes to the server */
    snprintf(key, sizeof(key), "t.late");
    snprintf(val, sizeof(val), "late-%u", me.rank);
    put_str(PMIX_GLOBAL, key, val);
    if (PMIx_Commit() != PMIX_SUCCESS) {
        FAIL("PMIx_Commit");
    }
    fence(false);
    for (r = 0; r < size; r++) {
        snprintf(val, sizeof(val), "late-%u", r);
        check_str(r, "t.late", val);
    }
    fence(false);
    if (failures == 0) {
        printf("%u: modex ok with %u peers\n", me.rank, size);
    }
    if (report_socket) {
        printf("%u: a socket above descriptor 1024: %s\n", me.rank,
               highest_socket() > 1024 ? "yes" : "no");
    }
    return finish();
}

static int exit_code(int code, pmix_rank_t who)
{
    int rc;
    init();
    fence(false);
    rc = finish();
    if (me.rank == who) {
        exit(code);
    }
    return rc;
}

static int sigkill(pmix_rank_t who, const char *dir)
{
    init();
    write_pid(dir);
    fence(false);
    if (me.rank == who) {
        raise(SIGKILL);
    }
    sleep(120);
    return 1;
}

static int sleeper(const char *dir)
{
    init();
    write_pid(dir);
    sleep(120);
    return 1;
}

/* -- spawn and the end of the spawned job ---------------------------------------------------- */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_status_t status;
    int exit_code;
    bool have_exit_code;
} jobend = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void on_job_end(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    size_t n;
    (void) id;
    (void) status;
    (void) source;
    (void) results;
    (void) nresults;
    pthread_mutex_lock(&jobend.lock);
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC)) {
            PMIX_LOAD_NSPACE(jobend.nspace, info[n].value.data.proc->nspace);
        } else if (PMIX_CHECK_KEY(&info[n], PMIX_JOB_TERM_STATUS)) {
            jobend.status = info[n].value.data.status;
        } else if (PMIX_CHECK_KEY(&info[n], PMIX_EXIT_CODE)) {
            jobend.exit_code = info[n].value.data.integer;
            jobend.have_exit_code = true;
        }
    }
    jobend.done = true;
    pthread_cond_signal(&jobend.cond);
    pthread_mutex_unlock(&jobend.lock);
    if (cbfunc != NULL) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static int spawn(const char *self)
{
    pmix_status_t code = PMIX_EVENT_JOB_END, rc;
    pmix_app_t app;
    pmix_nspace_t child;
    char *argv[] = {(char *) self, "child", NULL};
    init();
    if (me.rank == 0) {
        rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
        if (rc < 0) {
            FAIL("PMIx_Register_event_handler: %s", PMIx_Error_string(rc));
        }
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup(self);
        app.argv = argv;
        app.maxprocs = 2;
        rc = PMIx_Spawn(NULL, 0, &app, 1, child);
        app.argv = NULL;
        PMIX_APP_DESTRUCT(&app);
        if (rc != PMIX_SUCCESS) {
            FAIL("PMIx_Spawn: %s", PMIx_Error_string(rc));
        } else {
            printf("spawned %s\n", child);
            pthread_mutex_lock(&jobend.lock);
            while (!jobend.done) {
                pthread_cond_wait(&jobend.cond, &jobend.lock);
            }
            pthread_mutex_unlock(&jobend.lock);
            printf("job end: %s, status %s, exit code %d%s\n",
                   strcmp(jobend.nspace, child) == 0 ? "the child job" : jobend.nspace,
                   PMIx_Error_string(jobend.status), jobend.exit_code,
                   jobend.have_exit_code ? "" : " (none given)");
        }
    }
    fence(false);
    return finish();
}

static int child(void)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    init();
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_PARENT_ID, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL || v->type != PMIX_PROC) {
        FAIL("parent id: %s", PMIx_Error_string(rc));
    } else {
        printf("child %u of %u: parent rank %u\n", me.rank, size, v->data.proc->rank);
        PMIX_VALUE_RELEASE(v);
    }
    rc = PMIx_Get(&wild, PMIX_SPAWNED, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL || v->type != PMIX_BOOL || !v->data.flag) {
        FAIL("spawned flag: %s", PMIx_Error_string(rc));
    } else {
        PMIX_VALUE_RELEASE(v);
    }
    return finish();
}

/* -- query ----------------------------------------------------------------------------------- */

static int query(void)
{
    pmix_query_t q;
    pmix_info_t *results = NULL;
    size_t nresults = 0, n, k;
    pmix_status_t rc;
    init();
    fence(false);
    if (me.rank == 0) {
        PMIX_QUERY_CONSTRUCT(&q);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_PROC_TABLE);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_JOB_STATUS);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NUM_PSETS);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
        PMIX_INFO_CREATE(q.qualifiers, 1);
        q.nqual = 1;
        PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, me.nspace, PMIX_STRING);
        rc = PMIx_Query_info(&q, 1, &results, &nresults);
        printf("query: %s, %zu results\n", PMIx_Error_string(rc), nresults);
        for (n = 0; n < nresults; n++) {
            pmix_info_t *i = &results[n];
            if (PMIX_CHECK_KEY(i, PMIX_QUERY_PROC_TABLE) && i->value.type == PMIX_DATA_ARRAY
                && i->value.data.darray->type == PMIX_PROC_INFO) {
                pmix_proc_info_t *pi = i->value.data.darray->array;
                printf("proc table: %zu entries\n", i->value.data.darray->size);
                for (k = 0; k < i->value.data.darray->size; k++) {
                    printf("proc %u: pid %s, state %s\n", pi[k].proc.rank,
                           pi[k].pid > 0 ? "set" : "missing",
                           PMIx_Proc_state_string(pi[k].state));
                }
            } else if (PMIX_CHECK_KEY(i, PMIX_QUERY_JOB_STATUS)) {
                printf("job status: %s\n", i->value.type == PMIX_JOB_STATE
                                               ? PMIx_Job_state_string(i->value.data.jstate)
                                               : PMIx_Data_type_string(i->value.type));
            } else if (PMIX_CHECK_KEY(i, PMIX_QUERY_NUM_PSETS)) {
                printf("psets: %zu\n", i->value.data.size);
            } else if (PMIX_CHECK_KEY(i, PMIX_QUERY_NAMESPACES)) {
                printf("namespaces: %s\n",
                       strcmp(i->value.data.string, me.nspace) == 0 ? "mine" : i->value.data.string);
            } else {
                printf("unexpected key %s\n", i->key);
            }
        }
        if (results != NULL) {
            PMIX_INFO_FREE(results, nresults);
        }
        PMIX_QUERY_DESTRUCT(&q);
    }
    fence(false);
    return finish();
}

/* -- credentials ----------------------------------------------------------------------------- */

static int cred(void)
{
    pmix_byte_object_t bo;
    pmix_info_t *results = NULL;
    size_t nresults = 0, n;
    pmix_status_t rc;
    bool uid_ok = false, gid_ok = false;
    init();
    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    rc = PMIx_Get_credential(NULL, 0, &bo);
    printf("%u: get credential: %s\n", me.rank, PMIx_Error_string(rc));
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Validate_credential(&bo, NULL, 0, &results, &nresults);
        printf("%u: validate credential: %s\n", me.rank, PMIx_Error_string(rc));
        for (n = 0; n < nresults; n++) {
            if (PMIX_CHECK_KEY(&results[n], PMIX_USERID)) {
                uid_ok = results[n].value.data.uint32 == (uint32_t) getuid();
            } else if (PMIX_CHECK_KEY(&results[n], PMIX_GRPID)) {
                gid_ok = results[n].value.data.uint32 == (uint32_t) getgid();
            }
        }
        printf("%u: uid %s, gid %s\n", me.rank, uid_ok ? "matches" : "missing",
               gid_ok ? "matches" : "missing");
        if (results != NULL) {
            PMIX_INFO_FREE(results, nresults);
        }
        PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    }
    return finish();
}

/* Device distances from this process's binding, as each rank sees them. */
static int dist(void)
{
    pmix_device_distance_t *d = NULL;
    size_t n = 0, i;
    pmix_status_t rc;
    init();
    rc = PMIx_Compute_distances(NULL, NULL, NULL, 0, &d, &n);
    printf("%u: distances: %s, %zu devices\n", me.rank, PMIx_Error_string(rc), n);
    for (i = 0; i < n; i++) {
        printf("%u: device %s %s min %u max %u\n", me.rank, d[i].uuid ? d[i].uuid : "(null)",
               d[i].osname ? d[i].osname : "(null)", d[i].mindist, d[i].maxdist);
    }
    if (d != NULL) {
        PMIX_DEVICE_DIST_FREE(d, n);
    }
    return finish();
}

/* The highest descriptor of this process that is a socket. */
static int highest_socket(void)
{
    char path[300], link[64];
    struct dirent *e;
    int best = -1;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) {
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        ssize_t n;
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        n = readlink(path, link, sizeof(link) - 1);
        if (n > 0) {
            link[n] = '\0';
            if (strncmp(link, "socket:", 7) == 0 && atoi(e->d_name) > best) {
                best = atoi(e->d_name);
            }
        }
    }
    closedir(d);
    return best;
}

static int manyfds(void)
{
    struct rlimit rl;
    int fd, rc;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 2048 && rl.rlim_max >= 2048) {
        rl.rlim_cur = 2048;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    do {
        fd = open("/dev/null", O_RDONLY);
    } while (fd >= 0 && fd < 1100);
    if (fd < 0) {
        FAIL("could not open descriptors up to 1100");
    }
    report_socket = true;
    rc = modex();
    return rc;
}

static volatile int fin_stop;

static void fin_query_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                         pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void) status; (void) info; (void) ninfo; (void) cbdata;
    if (release_fn != NULL) {
        release_fn(release_cbdata);
    }
}

/* Calls the API until it fails (after the main thread's finalize); returns how many calls
 * succeeded. */
static void *fin_thread(void *arg)
{
    long n = 0;
    pmix_proc_t wild, peer;
    pmix_value_t *v, val;
    pmix_query_t q;
    pmix_status_t rc;
    char key[32];
    (void) arg;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % size);
    snprintf(key, sizeof(key), "fin.%lu", (unsigned long) pthread_self() % 1000);
    while (!fin_stop) {
        v = NULL;
        if (PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v) != PMIX_SUCCESS) {
            break;
        }
        PMIX_VALUE_RELEASE(v);
        v = NULL;
        if (PMIx_Get(&peer, "t.global", NULL, 0, &v) != PMIX_SUCCESS) {
            break;
        }
        PMIX_VALUE_RELEASE(v);
        PMIX_VALUE_LOAD(&val, key, PMIX_STRING);
        if (PMIx_Put(PMIX_LOCAL, key, &val) != PMIX_SUCCESS) {
            PMIX_VALUE_DESTRUCT(&val);
            break;
        }
        PMIX_VALUE_DESTRUCT(&val);
        PMIX_QUERY_CONSTRUCT(&q);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
        if (rc != PMIX_SUCCESS || PMIx_Query_info_nb(&q, 1, fin_query_cb, NULL) != PMIX_SUCCESS) {
            PMIX_QUERY_DESTRUCT(&q);
            break;
        }
        PMIX_QUERY_DESTRUCT(&q);
        n++;
    }
    return (void *) n;
}

static int finthreads(void)
{
    pthread_t tid[4];
    pmix_status_t rc;
    int k, ended = 0;
    char val[64];
    init();
    snprintf(val, sizeof(val), "global-%u", me.rank);
    put_str(PMIX_GLOBAL, "t.global", val);
    if (PMIx_Commit() != PMIX_SUCCESS) {
        FAIL("PMIx_Commit");
    }
    fence(true);
    for (k = 0; k < 4; k++) {
        pthread_create(&tid[k], NULL, fin_thread, NULL);
    }
    usleep(200000);
    rc = PMIx_Finalize(NULL, 0);
    for (k = 0; k < 4; k++) {
        void *n;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 10;
        if (pthread_timedjoin_np(tid[k], &n, &ts) == 0) {
            ended++;
        }
    }
    fin_stop = 1;
    printf("%u: finalize with 4 threads calling in: %s; %d threads ended on their own\n",
           me.rank, PMIx_Error_string(rc), ended);
    return 0;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (strcmp(s, "hello") == 0) {
        return hello();
    } else if (strcmp(s, "modex") == 0) {
        return modex();
    } else if (strcmp(s, "exit") == 0 && argc > 3) {
        return exit_code(atoi(argv[2]), (pmix_rank_t) atoi(argv[3]));
    } else if (strcmp(s, "sigkill") == 0 && argc > 3) {
        return sigkill((pmix_rank_t) atoi(argv[2]), argv[3]);
    } else if (strcmp(s, "sleep") == 0 && argc > 2) {
        return sleeper(argv[2]);
    } else if (strcmp(s, "spawn") == 0) {
        return spawn(argv[0]);
    } else if (strcmp(s, "child") == 0) {
        return child();
    } else if (strcmp(s, "query") == 0) {
        return query();
    } else if (strcmp(s, "cred") == 0) {
        return cred();
    } else if (strcmp(s, "dist") == 0) {
        return dist();
    } else if (strcmp(s, "manyfds") == 0) {
        return manyfds();
    } else if (strcmp(s, "finthreads") == 0) {
        return finthreads();
    }
    fprintf(stderr, "usage: tclient hello|modex|exit CODE RANK|sigkill RANK DIR|sleep DIR|spawn|query|cred|dist|manyfds|finthreads\n");
    return 2;
}
