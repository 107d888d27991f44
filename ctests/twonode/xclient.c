/* xclient: the ranks of ctests/twonode/run.sh, a job of N ranks placed by two xhost processes
 * that play node A and node B: ranks 0..ceil(N/2)-1 on "nodeA" (node id 0), the others on
 * "nodeB" (node id 1). Every check prints one line
 *     ok R CHECK [detail]        or        FAILED R CHECK: why
 * and every rank that gets to the end prints "done R ok K failed F" last. CHECK names are
 * what run.sh's lists of known failures match. Every rank first checks that its host placed
 * it where the rule says (placement: XTWO_NODE). Gets wait at most 10 s (PMIX_TIMEOUT) unless
 * said otherwise.
 *
 * usage: xclient fence|dmodex|nofence|subset|event|die
 *   fence    Put(GLOBAL) of "from-R-on-NODE", the same value with PMIX_LOCAL and with
 *            PMIX_REMOTE under two other keys, a 256 KiB byte object (GLOBAL), Commit, a
 *            collecting Fence; then of every peer P: its key (key@P), the scoped keys
 *            (scope-local@P found exactly when P is on the same node, scope-remote@P exactly
 *            when on the other; a Get that must fail waits at most 3 s), the big value
 *            (big@P), and of a peer on the other node a key nobody put (missing@P: an error
 *            within 7 s, the Get's timeout being 5 s); of every rank: PMIX_HOSTNAME
 *            (hostname@P), PMIX_NODEID (nodeid@P), PMIX_LOCAL_RANK (localrank@P); of the
 *            job: PMIX_LOCAL_PEERS (localpeers) and PMIX_LOCAL_SIZE (localsize) of the own
 *            node, PMIX_NUM_NODES (numnodes); of each node, asked as node data by hostname
 *            (PMIX_NODE_INFO, PMIX_HOSTNAME): PMIX_LOCAL_PEERS (nodepeers@NODE) and
 *            PMIX_NODEID (nodeidof@NODE). All true to the placement.
 *   dmodex   as fence without the node and rank data, after a Fence without data: the
 *            other node's data comes by direct modex across the hosts
 *   nofence  Put/Commit (the last rank of each node first sleeps 1 s, so that requests for
 *            its data arrive before it commits), Gets of every peer's key with no fence
 *            (the other node's: a direct modex that must wait for the commit; the same
 *            node's: a Get that must wait too), then a barrier
 *   subset   Put/Commit, then two collecting fences at once, each of ranks on both nodes:
 *            ranks 0 and N-1 (fence-ends), the others (fence-middle); each gets the keys of
 *            its group, then after a barrier the keys of the other group (the other node's
 *            by direct modex), then a barrier
 *   event    every rank registers a handler for three custom codes; after a barrier rank 0
 *            notifies the first with PMIX_RANGE_NAMESPACE, the second with PMIX_RANGE_GLOBAL
 *            and the third with PMIX_RANGE_CUSTOM naming rank N-1 alone (on node B), each
 *            with an info "xtwo.msg"; every other rank must get the first two, rank N-1 the
 *            third too (source rank 0 of the job, the info intact) within 5 s; after a
 *            barrier and 0.3 s, each must have got each event once, and only rank N-1 the
 *            third
 *   die      the last rank SIGKILLs itself after its Commit; the others join a collecting
 *            Fence with PMIX_TIMEOUT 10 (with XTWO_DIE_LATE set, 0.5 s later, once the
 *            victim's host has reaped and deregistered it), which must fail (not SUCCESS)
 *            within 15 s; then a Get of the dead rank's key (PMIX_TIMEOUT 5) must be
 *            answered, whatever the answer, before its timeout (within 4 s)
 * Exit status 0 unless PMIx_Init fails. */
#define _GNU_SOURCE
#include <pmix.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KEY "xtwo.value"
#define KEY_LOCAL "xtwo.local"
#define KEY_REMOTE "xtwo.remote"
#define KEY_BIG "xtwo.big"
#define BIG_SIZE (256 * 1024)
#define EV_NS (PMIX_EXTERNAL_ERR_BASE - 71)
#define EV_GLOBAL (PMIX_EXTERNAL_ERR_BASE - 72)
#define EV_CUSTOM (PMIX_EXTERNAL_ERR_BASE - 73)

static pmix_proc_t me;
static uint32_t size, n_a;     /* job size, ranks on node A */
static int nok, nfailed;

static const char *node_name(uint32_t r)
{
    return r < n_a ? "nodeA" : "nodeB";
}

static uint32_t node_id(uint32_t r)
{
    return r < n_a ? 0 : 1;
}

static uint32_t node_first(uint32_t r)
{
    return r < n_a ? 0 : n_a;
}

static uint32_t node_count(uint32_t r)
{
    return r < n_a ? n_a : size - n_a;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void check(bool good, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void check(bool good, const char *name, const char *fmt, ...)
{
    char detail[512] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    if (good) {
        printf("ok %u %s%s%s\n", me.rank, name, detail[0] ? " " : "", detail);
        nok++;
    } else {
        printf("FAILED %u %s: %s\n", me.rank, name, detail);
        nfailed++;
    }
    fflush(stdout);
}

/* Get a value as a string ("-" if none); numbers are printed in decimal. */
static pmix_status_t get_text(const pmix_proc_t *p, const char *key, int timeout, char *out,
                              size_t n)
{
    pmix_info_t info;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    snprintf(out, n, "-");
    rc = PMIx_Get(p, key, &info, 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS || v == NULL) {
        return rc != PMIX_SUCCESS ? rc : PMIX_ERR_NOT_FOUND;
    }
    switch (v->type) {
    case PMIX_STRING:
        snprintf(out, n, "%s", v->data.string ? v->data.string : "(null)");
        break;
    case PMIX_UINT32:
        snprintf(out, n, "%u", v->data.uint32);
        break;
    case PMIX_UINT16:
        snprintf(out, n, "%u", v->data.uint16);
        break;
    case PMIX_PROC_RANK:
        snprintf(out, n, "%u", v->data.rank);
        break;
    default:
        snprintf(out, n, "(type %s)", PMIx_Data_type_string(v->type));
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

/* one check: the value of KEY of proc P must read WANT */
static void check_value(const pmix_proc_t *p, const char *key, const char *name, const char *want)
{
    char got[256], label[64];
    pmix_status_t rc = get_text(p, key, 10, got, sizeof(got));
    if (p->rank == PMIX_RANK_WILDCARD) {
        snprintf(label, sizeof(label), "%s", name);
    } else {
        snprintf(label, sizeof(label), "%s@%u", name, p->rank);
    }
    if (rc != PMIX_SUCCESS) {
        check(false, label, "%s (want %s)", PMIx_Error_string(rc), want);
    } else {
        check(strcmp(got, want) == 0, label, "%s%s%s", got, strcmp(got, want) ? " want " : "",
              strcmp(got, want) ? want : "");
    }
}

/* a Fence of `procs` (NULL: the whole job) */
static pmix_status_t fence_of(const pmix_proc_t *procs, size_t nprocs, bool collect, int timeout)
{
    pmix_info_t info[2];
    size_t n = 1;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if (timeout > 0) {
        PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
        n = 2;
    }
    rc = PMIx_Fence(procs, nprocs, info, n);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (n == 2) {
        PMIX_INFO_DESTRUCT(&info[1]);
    }
    return rc;
}

static pmix_status_t fence(bool collect, int timeout)
{
    return fence_of(NULL, 0, collect, timeout);
}

static void want_key(uint32_t r, char *out, size_t n)
{
    snprintf(out, n, "from-%u-on-%s", r, node_name(r));
}

/* the key of every peer (with `only`, of the peers for which only(r) == want) */
static void check_keys_if(bool (*only)(uint32_t), bool want_only)
{
    uint32_t r;
    for (r = 0; r < size; r++) {
        if (only != NULL && only(r) != want_only) {
            continue;
        }
        pmix_proc_t peer;
        char got[256], want[128], label[32];
        pmix_status_t rc;
        double t0 = now();
        if (r == me.rank) {
            continue;
        }
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        want_key(r, want, sizeof(want));
        rc = get_text(&peer, KEY, 20, got, sizeof(got));
        snprintf(label, sizeof(label), "key@%u", r);
        if (rc != PMIX_SUCCESS) {
            check(false, label, "%s after %.1f s", PMIx_Error_string(rc), now() - t0);
        } else {
            check(strcmp(got, want) == 0, label, "%s%s%s after %.1f s", got,
                  strcmp(got, want) ? " want " : "", strcmp(got, want) ? want : "", now() - t0);
        }
    }
}

/* a value of BIG_SIZE bytes that tells its rank apart */
static void big_value(uint32_t r, pmix_byte_object_t *bo)
{
    size_t i;
    bo->size = BIG_SIZE;
    bo->bytes = malloc(BIG_SIZE);
    if (bo->bytes == NULL) {
        abort();
    }
    for (i = 0; i < BIG_SIZE; i++) {
        bo->bytes[i] = (char) ((i * 7 + r * 13) & 0xff);
    }
}

/* Put(GLOBAL) of KEY; with `scoped`, also KEY_LOCAL with PMIX_LOCAL and KEY_REMOTE with
 * PMIX_REMOTE (same value), and KEY_BIG (big_value) with PMIX_GLOBAL; then Commit */
static void check_keys(void)
{
    check_keys_if(NULL, false);
}

static void put_commit(bool scoped)
{
    char mine[128];
    pmix_value_t val;
    pmix_status_t rc;
    want_key(me.rank, mine, sizeof(mine));
    PMIX_VALUE_LOAD(&val, mine, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, KEY, &val);
    if (rc == PMIX_SUCCESS && scoped) {
        rc = PMIx_Put(PMIX_LOCAL, KEY_LOCAL, &val);
    }
    if (rc == PMIX_SUCCESS && scoped) {
        rc = PMIx_Put(PMIX_REMOTE, KEY_REMOTE, &val);
    }
    PMIX_VALUE_DESTRUCT(&val);
    if (rc == PMIX_SUCCESS && scoped) {
        pmix_byte_object_t bo;
        big_value(me.rank, &bo);
        PMIX_VALUE_LOAD(&val, &bo, PMIX_BYTE_OBJECT);
        PMIX_BYTE_OBJECT_DESTRUCT(&bo);
        rc = PMIx_Put(PMIX_GLOBAL, KEY_BIG, &val);
        PMIX_VALUE_DESTRUCT(&val);
    }
    if (rc == PMIX_SUCCESS) {
        rc = PMIx_Commit();
    }
    check(rc == PMIX_SUCCESS, "put-commit", "%s", PMIx_Error_string(rc));
}

/* The scoped keys of every peer: KEY_LOCAL must be found exactly on the same node, KEY_REMOTE
 * exactly on the other node (a Get of a key that must not be found waits at most 3 s); and
 * a key nobody put must not be found (of a peer on the other node: a direct modex whose
 * answer lacks it, which must end the Get) */
static void check_scopes(void)
{
    uint32_t r;
    for (r = 0; r < size; r++) {
        pmix_proc_t peer;
        char got[256], want[128], label[32];
        bool same = node_id(r) == node_id(me.rank);
        int k;
        pmix_status_t rc;
        if (r == me.rank) {
            continue;
        }
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        want_key(r, want, sizeof(want));
        for (k = 0; k < 2; k++) {
            bool visible = k == 0 ? same : !same;
            rc = get_text(&peer, k == 0 ? KEY_LOCAL : KEY_REMOTE, visible ? 10 : 3, got,
                          sizeof(got));
            snprintf(label, sizeof(label), "%s@%u", k == 0 ? "scope-local" : "scope-remote", r);
            if (visible) {
                check(rc == PMIX_SUCCESS && strcmp(got, want) == 0, label, "%s %s (%s node)",
                      PMIx_Error_string(rc), got, same ? "same" : "other");
            } else {
                check(rc != PMIX_SUCCESS, label, "%s %s (%s node: must not be found)",
                      PMIx_Error_string(rc), got, same ? "same" : "other");
            }
        }
        {
            pmix_value_t *val = NULL;
            pmix_byte_object_t bo;
            pmix_info_t tmo;
            int secs = 10;
            PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &secs, PMIX_INT);
            rc = PMIx_Get(&peer, KEY_BIG, &tmo, 1, &val);
            PMIX_INFO_DESTRUCT(&tmo);
            big_value(r, &bo);
            snprintf(label, sizeof(label), "big@%u", r);
            check(rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_BYTE_OBJECT
                      && val->data.bo.size == bo.size
                      && memcmp(val->data.bo.bytes, bo.bytes, bo.size) == 0,
                  label, "%s, %zu bytes", PMIx_Error_string(rc),
                  rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_BYTE_OBJECT
                      ? val->data.bo.size : 0);
            PMIX_BYTE_OBJECT_DESTRUCT(&bo);
            if (val != NULL) {
                PMIX_VALUE_RELEASE(val);
            }
        }
        if (!same) {
            double t0 = now();
            rc = get_text(&peer, "xtwo.nobody", 5, got, sizeof(got));
            snprintf(label, sizeof(label), "missing@%u", r);
            check(rc != PMIX_SUCCESS && now() - t0 < 7, label, "%s after %.1f s",
                  PMIx_Error_string(rc), now() - t0);
        }
    }
}

/* -- event ------------------------------------------------------------------------------- */

static const pmix_status_t ev_codes[3] = {EV_NS, EV_GLOBAL, EV_CUSTOM};
static const char *ev_msgs[3] = {"namespace", "global", "custom"};
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static char ev_seen[3][512];   /* per code: "" until received, then a description */
static bool ev_good[3];
static int ev_count[3];

static void ev_handler(size_t evhdlr_registration_id, pmix_status_t status,
                       const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                       pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    int which = -1, i;
    const char *msg = NULL;
    size_t n;
    (void) evhdlr_registration_id;
    (void) results;
    (void) nresults;
    for (i = 0; i < 3; i++) {
        if (status == ev_codes[i]) {
            which = i;
        }
    }
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], "xtwo.msg") && info[n].value.type == PMIX_STRING) {
            msg = info[n].value.data.string;
        }
    }
    if (which >= 0) {
        pthread_mutex_lock(&ev_lock);
        if (ev_count[which]++ == 0) {
            bool src = source != NULL && PMIX_CHECK_NSPACE(source->nspace, me.nspace)
                       && source->rank == 0;
            ev_good[which] = src && msg != NULL && strcmp(msg, ev_msgs[which]) == 0;
            snprintf(ev_seen[which], sizeof(ev_seen[which]), "source %s:%u msg %s",
                     source ? source->nspace : "(null)", source ? source->rank : 0,
                     msg ? msg : "(none)");
        }
        pthread_cond_broadcast(&ev_cond);
        pthread_mutex_unlock(&ev_lock);
    }
    if (cbfunc != NULL) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* rank 0: notify code `which` with its range (custom: rank N-1 alone) */
static void notify(int which)
{
    static const pmix_data_range_t ranges[3] = {PMIX_RANGE_NAMESPACE, PMIX_RANGE_GLOBAL,
                                                PMIX_RANGE_CUSTOM};
    pmix_info_t info[2];
    pmix_data_array_t target;
    pmix_proc_t last;
    size_t n = 1;
    pmix_status_t rc;
    char name[64];
    PMIX_INFO_LOAD(&info[0], "xtwo.msg", ev_msgs[which], PMIX_STRING);
    if (ranges[which] == PMIX_RANGE_CUSTOM) {
        PMIX_LOAD_PROCID(&last, me.nspace, size - 1);
        target.type = PMIX_PROC;
        target.size = 1;
        target.array = &last;
        PMIX_INFO_LOAD(&info[1], PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_DATA_ARRAY);
        n = 2;
    }
    rc = PMIx_Notify_event(ev_codes[which], &me, ranges[which], info, n, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (n == 2) {
        PMIX_INFO_DESTRUCT(&info[1]);
    }
    snprintf(name, sizeof(name), "notify-%s", ev_msgs[which]);
    check(rc == PMIX_SUCCESS, name, "%s", PMIx_Error_string(rc));
}

/* wait at most until `deadline` for code `which`; true if it came */
static bool ev_wait(int which, double deadline)
{
    bool seen;
    pthread_mutex_lock(&ev_lock);
    while (ev_count[which] == 0 && now() < deadline) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&ev_cond, &ev_lock, &ts);
    }
    seen = ev_count[which] > 0;
    pthread_mutex_unlock(&ev_lock);
    return seen;
}

static void scenario_event(void)
{
    pmix_status_t codes[3] = {EV_NS, EV_GLOBAL, EV_CUSTOM}, rc;
    int which;
    char name[64];
    rc = PMIx_Register_event_handler(codes, 3, NULL, 0, ev_handler, NULL, NULL);
    /* the blocking form returns the handler's reference (a non-negative number) */
    check(rc >= 0, "register", "%s", rc >= 0 ? "" : PMIx_Error_string(rc));
    rc = fence(false, 0);
    check(rc == PMIX_SUCCESS, "barrier", "%s", PMIx_Error_string(rc));
    if (me.rank == 0) {
        for (which = 0; which < 3; which++) {
            notify(which);
        }
    } else {
        double deadline = now() + 5;
        /* the custom range names rank N-1 alone */
        int nwait = me.rank == size - 1 ? 3 : 2;
        for (which = 0; which < nwait; which++) {
            snprintf(name, sizeof(name), "event-%s", ev_msgs[which]);
            if (!ev_wait(which, deadline)) {
                check(false, name, "not received within 5 s (%s node)",
                      node_id(me.rank) == 0 ? "same" : "other");
            } else {
                check(ev_good[which], name, "%s", ev_seen[which]);
            }
        }
    }
    rc = fence(false, 0);
    check(rc == PMIX_SUCCESS, "barrier2", "%s", PMIx_Error_string(rc));
    if (me.rank != 0) {
        /* each event once, and the custom one nowhere else */
        usleep(300000);
        pthread_mutex_lock(&ev_lock);
        for (which = 0; which < 3; which++) {
            int want = which < 2 || me.rank == size - 1 ? 1 : 0;
            snprintf(name, sizeof(name), "count-%s", ev_msgs[which]);
            check(ev_count[which] == want, name, "%d want %d", ev_count[which], want);
        }
        pthread_mutex_unlock(&ev_lock);
    }
}

/* -- subset ------------------------------------------------------------------------------ */

/* two fences at once, each of ranks on both nodes: {0, N-1} and {1, ..., N-2} */
static bool in_ends(uint32_t r)
{
    return r == 0 || r == size - 1;
}

static void scenario_subset(void)
{
    pmix_proc_t *procs = calloc(size, sizeof(pmix_proc_t));
    size_t n = 0;
    uint32_t r;
    bool mine = in_ends(me.rank);
    pmix_status_t rc;
    if (procs == NULL) {
        abort();
    }
    for (r = 0; r < size; r++) {
        if (in_ends(r) == mine) {
            PMIX_LOAD_PROCID(&procs[n], me.nspace, r);
            n++;
        }
    }
    put_commit(false);
    rc = fence_of(procs, n, true, 0);
    check(rc == PMIX_SUCCESS, mine ? "fence-ends" : "fence-middle", "%s (%zu ranks)",
          PMIx_Error_string(rc), n);
    free(procs);
    /* the own group's keys came with its fence */
    check_keys_if(in_ends, mine);
    rc = fence(false, 0);
    check(rc == PMIX_SUCCESS, "barrier", "%s", PMIx_Error_string(rc));
    /* the other group's: from the servers (direct modex for the other node's) */
    check_keys_if(in_ends, !mine);
    rc = fence(false, 0);
    check(rc == PMIX_SUCCESS, "barrier2", "%s", PMIx_Error_string(rc));
}

/* -- main -------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "fence";
    const char *env_node = getenv("XTWO_NODE");
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    char want[512], *p;
    uint32_t r, n;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "xclient: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v) || v == NULL
        || v->type != PMIX_UINT32) {
        printf("FAILED %u job-size: no PMIX_JOB_SIZE\n", me.rank);
        PMIx_Finalize(NULL, 0);
        return 0;
    }
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    n_a = (size + 1) / 2;
    check(env_node != NULL && strcmp(env_node, node_name(me.rank)) == 0, "placement",
          "%s", env_node ? env_node : "(no XTWO_NODE)");

    if (strcmp(mode, "fence") == 0) {
        put_commit(true);
        rc = fence(true, 0);
        check(rc == PMIX_SUCCESS, "fence", "%s", PMIx_Error_string(rc));
        check_keys();
        check_scopes();
        for (r = 0; r < size; r++) {
            pmix_proc_t peer;
            char num[16];
            PMIX_LOAD_PROCID(&peer, me.nspace, r);
            check_value(&peer, PMIX_HOSTNAME, "hostname", node_name(r));
            snprintf(num, sizeof(num), "%u", node_id(r));
            check_value(&peer, PMIX_NODEID, "nodeid", num);
            snprintf(num, sizeof(num), "%u", r - node_first(r));
            check_value(&peer, PMIX_LOCAL_RANK, "localrank", num);
        }
        for (r = 0, p = want; r < node_count(me.rank); r++) {
            p += sprintf(p, "%s%u", r ? "," : "", node_first(me.rank) + r);
        }
        check_value(&wild, PMIX_LOCAL_PEERS, "localpeers", want);
        snprintf(want, sizeof(want), "%u", node_count(me.rank));
        check_value(&wild, PMIX_LOCAL_SIZE, "localsize", want);
        check_value(&wild, PMIX_NUM_NODES, "numnodes", "2");
        /* node-realm data of both nodes, by hostname */
        for (r = 0; r < size; r = node_first(r) + node_count(r)) {
            pmix_info_t qual[2];
            pmix_value_t *val = NULL;
            char label[64], *q;
            bool good;
            PMIX_INFO_LOAD(&qual[0], PMIX_NODE_INFO, NULL, PMIX_BOOL);
            PMIX_INFO_LOAD(&qual[1], PMIX_HOSTNAME, node_name(r), PMIX_STRING);
            for (n = 0, q = want; n < node_count(r); n++) {
                q += sprintf(q, "%s%u", n ? "," : "", node_first(r) + n);
            }
            snprintf(label, sizeof(label), "nodepeers@%s", node_name(r));
            rc = PMIx_Get(&wild, PMIX_LOCAL_PEERS, qual, 2, &val);
            good = rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_STRING
                   && strcmp(val->data.string, want) == 0;
            check(good, label, "%s %s want %s", PMIx_Error_string(rc),
                  rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_STRING
                      ? val->data.string : "-", want);
            if (val != NULL) {
                PMIX_VALUE_RELEASE(val);
                val = NULL;
            }
            snprintf(label, sizeof(label), "nodeidof@%s", node_name(r));
            rc = PMIx_Get(&wild, PMIX_NODEID, qual, 2, &val);
            good = rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_UINT32
                   && val->data.uint32 == node_id(r);
            check(good, label, "%s %ld want %u", PMIx_Error_string(rc),
                  rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_UINT32
                      ? (long) val->data.uint32 : -1L, node_id(r));
            if (val != NULL) {
                PMIX_VALUE_RELEASE(val);
            }
            PMIX_INFO_DESTRUCT(&qual[0]);
            PMIX_INFO_DESTRUCT(&qual[1]);
        }
    } else if (strcmp(mode, "dmodex") == 0) {
        put_commit(true);
        rc = fence(false, 0);
        check(rc == PMIX_SUCCESS, "barrier", "%s", PMIx_Error_string(rc));
        check_keys();
        check_scopes();
    } else if (strcmp(mode, "nofence") == 0) {
        if (me.rank + 1 == node_first(me.rank) + node_count(me.rank)) {
            sleep(1);
        }
        put_commit(false);
        check_keys();
        rc = fence(false, 0);
        check(rc == PMIX_SUCCESS, "barrier", "%s", PMIx_Error_string(rc));
    } else if (strcmp(mode, "subset") == 0) {
        scenario_subset();
    } else if (strcmp(mode, "event") == 0) {
        scenario_event();
    } else if (strcmp(mode, "die") == 0) {
        double t0;
        put_commit(false);
        if (me.rank == size - 1) {
            printf("victim %u\n", me.rank);
            fflush(stdout);
            kill(getpid(), SIGKILL);
        }
        if (getenv("XTWO_DIE_LATE") != NULL) {
            /* the victim's host has reaped and deregistered it by now */
            usleep(500000);
        }
        t0 = now();
        rc = fence(true, 10);
        check(rc != PMIX_SUCCESS, "die-fence", "%s", PMIx_Error_string(rc));
        check(now() - t0 < 15, "die-fence-time", "%.1f s", now() - t0);
        {
            /* the dead rank's key: any answer, but before the Get's timeout (5 s) */
            pmix_proc_t victim;
            char got[256];
            PMIX_LOAD_PROCID(&victim, me.nspace, size - 1);
            t0 = now();
            rc = get_text(&victim, KEY, 5, got, sizeof(got));
            check(now() - t0 < 4, "die-get", "%s %s after %.1f s", PMIx_Error_string(rc), got,
                  now() - t0);
        }
    } else {
        check(false, "mode", "unknown scenario %s", mode);
    }
    printf("done %u ok %d failed %d\n", me.rank, nok, nfailed);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return 0;
}
