/* A PMIx client for ctests/slurm/multinode.sh: data exchange between ranks on different
 * Slurm nodes, under slurmstepd's PMIx server.
 *
 * usage: xnode fence|barrier|nofence|order|die|nodedown
 *   fence    Put/Commit, Fence with PMIX_COLLECT_DATA, then Get of every peer's key (the
 *            data of other nodes comes with the fence)
 *   barrier  Put/Commit, Fence without data, then Get (other nodes' keys by direct modex)
 *   nofence  Put/Commit, Get with no fence at all (direct modex; the peer may not have
 *            committed yet: the Get waits). The reference answers a Get of
 *            a key a peer on the same node has not committed yet with NOT_FOUND at once,
 *            so in this mode a NOT_FOUND is retried (every 50 ms, for at most 10 s)
 *   (fence, barrier and nofence each end with a Fence without data)
 *   order    two fences, first without data then with PMIX_COLLECT_DATA, each entered late
 *            by one rank (the last rank sleeps 1 s before the first, rank 0 before the
 *            second); around each a rank prints "xnode enter R K T" and, when it returns,
 *            "xnode leave R K T STATUS" (K the fence, T CLOCK_REALTIME in ns: every node of the
 *            test shares the machine's clock), flushed at once, and nothing else. A fence is
 *            a barrier when no rank leaves it before the last one entered it
 *   die      faults: the last rank kills itself (SIGKILL) after its Commit; the others join a
 *            collecting Fence and print "xnode fault R fence STATUS" when it returns
 *   nodedown faults: the ranks on the node named by XNODE_VICTIM_HOST print "xnode victim R"
 *            and wait forever (the test kills their node); the others print "xnode waiting R",
 *            join a collecting Fence and print "xnode fault R fence STATUS" when it returns
 * In the fault modes nothing else is printed, and each line is flushed at once.
 * Otherwise every rank prints (one line each, then libmap.h's lines):
 *   xnode me R/N host H nodeid I
 *   xnode lpeers R LIST        (PMIX_LOCAL_PEERS of its own node, as its library answers)
 *   xnode get R P VALUE nodeid I host H ok|FAILED <why>
 * where VALUE is the peer's "from-P-on-<its gethostname>", I and H the peer's PMIX_NODEID and
 * PMIX_HOSTNAME as this rank's library answers them, and last
 *   xnode done R ok K failed F
 * Gets wait at most 20 s (PMIX_TIMEOUT). Exit status 0 unless PMIx_Init fails. */
#include <pmix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libmap.h"

static const char *KEY = "xnode.value";

static long get_u32(const pmix_proc_t *p, const char *key)
{
    pmix_value_t *v = NULL;
    long out = -1;
    if (PMIX_SUCCESS != PMIx_Get(p, key, NULL, 0, &v) || NULL == v) return -1;
    if (PMIX_UINT32 == v->type) out = v->data.uint32;
    else if (PMIX_UINT16 == v->type) out = v->data.uint16;
    PMIX_VALUE_RELEASE(v);
    return out;
}

static void get_str(const pmix_proc_t *p, const char *key, int timeout, char *out, size_t n,
                    pmix_status_t *rc)
{
    pmix_info_t info;
    pmix_value_t *v = NULL;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    snprintf(out, n, "-");
    *rc = PMIx_Get(p, key, &info, 1, &v);
    if (PMIX_SUCCESS == *rc && NULL != v && PMIX_STRING == v->type) {
        snprintf(out, n, "%s", v->data.string);
    } else if (PMIX_SUCCESS == *rc) {
        *rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (v) PMIX_VALUE_RELEASE(v);
}

static pmix_status_t fence(bool collect)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    return PMIx_Fence(NULL, 0, &info, 1);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Mode "order": fence K (0 without data, 1 with), rank `late` entering 1 s after the rest. */
static pmix_status_t timed_fence(const pmix_proc_t *me, int k, uint32_t late)
{
    if (me->rank == late) sleep(1);
    printf("xnode enter %u %d %lld\n", me->rank, k, now_ns());
    fflush(stdout);
    pmix_status_t rc = fence(1 == k);
    printf("xnode leave %u %d %lld %s\n", me->rank, k, now_ns(), PMIx_Error_string(rc));
    fflush(stdout);
    return rc;
}

int main(int argc, char **argv)
{
    pmix_proc_t me, peer, wild;
    pmix_value_t val, *v = NULL;
    pmix_status_t rc;
    const char *mode = argc > 1 ? argv[1] : "fence";
    char host[256] = "?", mine[512], got[512], phost[256], want[64];
    uint32_t size, r;
    int ok = 0, failed = 0;
    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "xnode: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    gethostname(host, sizeof host);
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v) || NULL == v) {
        fprintf(stderr, "xnode: no PMIX_JOB_SIZE\n");
        return 1;
    }
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    if (0 == strcmp(mode, "order")) {
        if (PMIX_SUCCESS == timed_fence(&me, 0, size - 1)) timed_fence(&me, 1, 0);
        PMIx_Finalize(NULL, 0);
        return 0;
    }
    printf("xnode me %u/%u host %s nodeid %ld\n", me.rank, size, host, get_u32(&me, PMIX_NODEID));
    if (strcmp(mode, "die") && strcmp(mode, "nodedown")) {
        get_str(&wild, PMIX_LOCAL_PEERS, 5, got, sizeof got, &rc);
        printf("xnode lpeers %u %s\n", me.rank, PMIX_SUCCESS == rc ? got : PMIx_Error_string(rc));
    }
    snprintf(mine, sizeof mine, "from-%u-on-%s", me.rank, host);
    PMIX_VALUE_LOAD(&val, mine, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, KEY, &val);
    PMIX_VALUE_DESTRUCT(&val);
    if (PMIX_SUCCESS == rc) rc = PMIx_Commit();
    if (0 == strcmp(mode, "die") || 0 == strcmp(mode, "nodedown")) {
        const char *victim_host = getenv("XNODE_VICTIM_HOST");
        int victim = 0 == strcmp(mode, "die") ? me.rank == size - 1
                     : NULL != victim_host && 0 == strcmp(victim_host, host);
        if (victim) {
            printf("xnode victim %u\n", me.rank);
            fflush(stdout);
            if (0 == strcmp(mode, "die")) kill(getpid(), SIGKILL);
            for (;;) pause();
        }
        printf("xnode waiting %u\n", me.rank);
        fflush(stdout);
        if (PMIX_SUCCESS == rc) rc = fence(true);
        printf("xnode fault %u fence %s\n", me.rank, PMIx_Error_string(rc));
        fflush(stdout);
        PMIx_Finalize(NULL, 0);
        return 0;
    }
    if (PMIX_SUCCESS == rc && 0 == strcmp(mode, "fence")) rc = fence(true);
    if (PMIX_SUCCESS == rc && 0 == strcmp(mode, "barrier")) rc = fence(false);
    if (PMIX_SUCCESS != rc) {
        printf("xnode get %u - - nodeid - host - FAILED put/commit/fence: %s\n", me.rank,
               PMIx_Error_string(rc));
        failed++;
    }
    for (r = 0; PMIX_SUCCESS == rc && r < size; r++) {
        if (r == me.rank) continue;
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        get_str(&peer, KEY, 20, got, sizeof got, &rc);
        for (int t = 0; PMIX_ERR_NOT_FOUND == rc && 0 == strcmp(mode, "nofence") && t < 200; t++) {
            usleep(50000);
            get_str(&peer, KEY, 20, got, sizeof got, &rc);
        }
        pmix_status_t hrc;
        get_str(&peer, PMIX_HOSTNAME, 5, phost, sizeof phost, &hrc);
        snprintf(want, sizeof want, "from-%u-on-", r);
        int good = PMIX_SUCCESS == rc && 0 == strncmp(got, want, strlen(want));
        printf("xnode get %u %u %s nodeid %ld host %s %s%s\n", me.rank, r, got,
               get_u32(&peer, PMIX_NODEID), phost, good ? "ok" : "FAILED ",
               good ? "" : (PMIX_SUCCESS == rc ? "wrong-value" : PMIx_Error_string(rc)));
        good ? ok++ : failed++;
        rc = PMIX_SUCCESS;
    }
    /* a last barrier in every mode: a node's slurmstepd ends with its own ranks, and with it
     * the data of those ranks that a peer elsewhere may still be asking for by direct modex */
    if (PMIX_SUCCESS != (rc = fence(false))) {
        printf("xnode get %u - - nodeid - host - FAILED final barrier: %s\n", me.rank,
               PMIx_Error_string(rc));
        failed++;
    }
    printf("xnode done %u ok %d failed %d\n", me.rank, ok, failed);
    print_lib_lines((int)me.rank);
    PMIx_Finalize(NULL, 0);
    return 0;
}
