/* bclient: the benchmark client, started by bhost. Public client API only.
 *
 * usage: bclient init | main | tool | iof | wireup
 *
 * Every client first says it runs (a byte to the pipe BENCH_READY_FD, when set) and waits for
 * the host's release (EOF on the pipe BENCH_GO_FD), so that the N clients start together. Each timed step is measured with CLOCK_MONOTONIC around the one call
 * (or the group of calls) and every sample is written, in nanoseconds, one per line in the
 * order taken, to $BENCH_OUT/FIGURE.RANK (appended, so repeated jobs add samples); the harness
 * (report.py) computes medians and 95th percentiles over all ranks and repetitions.
 *
 *   init   PMIx_Init, PMIx_Finalize: figures init, finalize (their sum, init_fin, is computed
 *          by the harness per process); also init_ret (the absolute time PMIx_Init returned,
 *          for "N clients connecting at once"). init and init_ret are written as soon as
 *          PMIx_Init returns, so a process that hangs in PMIx_Finalize still has them.
 *   main   after PMIx_Init, in order:
 *          get_local_rank   PMIx_Get(own proc, PMIX_LOCAL_RANK)            per call
 *          get_job_size     PMIx_Get(WILDCARD, PMIX_JOB_SIZE)              per call
 *          fence_collect_round   10 x PMIx_Put(400 B) + Commit + Fence(COLLECT_DATA), per round
 *          fence_collect    the Fence(COLLECT_DATA) of that round alone
 *          get_peer         PMIx_Get(peer, key committed by the peer) after the collecting
 *                           fences (peer = rank+1 mod N, i.e. itself when N = 1), per call
 *          fence_barrier    PMIx_Fence without data collection, per round
 *          dmodex_first     Put+Commit of a fresh key, Fence without collection, then the first
 *                           PMIx_Get of the peer's fresh key (direct modex)
 *          dmodex_repeat    the second Get of the same key
 *          mem_client_pss, mem_client_rss   own smaps_rollup (kB) after all of the above
 *          mem_host_pss     rank 0 only: the host's (parent's) PSS at the same moment
 *          clock            the cost of one timing (two clock_gettime calls)
 *
 *   wireup the scale figure's wire-up (run by bhost or by pmixrun, any number of ranks):
 *          PMIx_Init, PMIx_Put of one 64-byte key (PMIX_GLOBAL), PMIx_Commit, a collecting
 *          PMIx_Fence (PMIX_COLLECT_DATA), PMIx_Get of the key of 8 other ranks (ranks
 *          r+1..r+8 mod N; every other rank with BENCH_WIREUP_ALL=1), each value checked
 *          (exit 1 on a wrong one), PMIx_Finalize. After the Gets every rank appends one line
 *          "RANK PSS_KB INIT_NS PUT_COMMIT_NS FENCE_NS GETS_NS" (its own smaps_rollup PSS and
 *          the time of each step) to $BENCH_OUT/wireup. Unless BENCH_WIREUP_MEM=0, rank 0
 *          also appends "host PSS_KB RSS_KB" (its parent's: bhost's or pmixrun's) to
 *          $BENCH_OUT/wireup_host, and a barrier (PMIx_Fence without data) follows, so that
 *          no rank exits while another measures: every PSS is taken with all N processes
 *          alive. With BENCH_WIREUP_MEM=0 there is no barrier and PSS_KB is -1.
 *          Rank 0 prints "bclient: wireup version <PMIx_Get_version()>" on stdout and records
 *          the library it mapped (lib.client.0); the others print nothing. The lines are
 *          written with one write(2) each to a file opened O_APPEND, so ranks do not mix them.
 *
 *   floor  the scale figure's floor: a rank that is started and released as a wireup rank is,
 *          with the library loaded, then exits 0 without calling PMIx_Init. Rank 0 (by
 *          PMIX_RANK in its environment) prints "bclient: floor version <PMIx_Get_version()>"
 *          and records the library it mapped (lib.client.0). A job of these costs what every
 *          job costs before any PMIx work: the host's start, fork and exec of N processes that
 *          load the library, their exit and reaping, the host's end.
 *
 *   tool   run by `bhost -T K` as a plain child: PMIx_tool_init to the server whose pid is
 *          BENCH_SERVER_PID (PMIX_SERVER_PIDINFO), then PMIx_tool_finalize: figures tool_init,
 *          tool_finalize (file suffix: the process id, one sample per process).
 *
 *   iof    run by `bhost -I BYTES` as a plain child: PMIx_tool_init as above, PMIx_IOF_pull of
 *          the stdout of BENCH_IOF_NSPACE:WILDCARD with PMIX_IOF_REDIRECT, then one byte to the
 *          pipe BENCH_IOF_READY_FD (the host starts delivering); the handler counts the bytes
 *          until BENCH_IOF_BYTES have come (at most BENCH_IOF_TIMEOUT s, default 100), then
 *          PMIx_tool_finalize (no deregistration: the reference's blocking
 *          PMIx_IOF_deregister double-frees). Figures (suffix: the process id): iof_ns, from the
 *          end of the first delivery seen to the last byte; iof_bytes, the bytes received
 *          after that first delivery; iof_total, every byte received; iof_span_ns, from the
 *          release to the last byte; iof_calls, handler calls. Prints MB/s (10^6 bytes/s).
 *
 * Environment: BENCH_OUT (required), BENCH_GET_ITERS (20000), BENCH_FENCE_ROUNDS (200),
 * BENCH_DM_ROUNDS (20), BENCH_WARMUP (100), BENCH_WIREUP_ALL (0), BENCH_WIREUP_MEM (1).
 *
 * Any failure prints "bclient: rank R: what failed: status" on stderr and exits 1.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_tool.h>

#include "common.h"

#define NKEYS 10
#define KEYSIZE 400

static pmix_proc_t me;
static int myrank = -1;
static long long t_go;   /* when the host released this client (0 before) */
static const char *out_dir;

static void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "bclient: rank %d: ", myrank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (t_go != 0) {
        fprintf(stderr, " (%.3f s after the release, pid %d)", (bench_now_ns() - t_go) / 1e9,
                (int) getpid());
    }
    fprintf(stderr, "\n");
    exit(1);
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? atol(v) : dflt;
}

static void write_samples(const char *figure, const long long *s, size_t n)
{
    char path[4096];
    FILE *f;
    size_t i;
    snprintf(path, sizeof(path), "%s/%s.%d", out_dir, figure, myrank);
    f = fopen(path, "a");
    if (f == NULL) {
        fail("cannot write %s: %s", path, strerror(errno));
    }
    for (i = 0; i < n; i++) {
        fprintf(f, "%lld\n", s[i]);
    }
    fclose(f);
}

static void write_one(const char *figure, long long v)
{
    write_samples(figure, &v, 1);
}

static void wait_go(void)
{
    long long t = bench_wait_go();
    if (t >= 0) {
        t_go = t;
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fail("out of memory");
    }
    return p;
}

static void fill(unsigned char *buf, int rank, int key, int round)
{
    int i;
    for (i = 0; i < KEYSIZE; i++) {
        buf[i] = (unsigned char) (rank * 31 + key * 7 + round + i);
    }
}

static void put_key(const char *key, int rank, int k, int round)
{
    unsigned char buf[KEYSIZE];
    pmix_value_t v;
    pmix_status_t rc;
    fill(buf, rank, k, round);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *) buf;
    v.data.bo.size = KEYSIZE;
    rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Put(%s): %s", key, PMIx_Error_string(rc));
    }
}

static void check_key(const pmix_value_t *v, const char *key, int rank, int k, int round)
{
    unsigned char want[KEYSIZE];
    fill(want, rank, k, round);
    if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != KEYSIZE
        || memcmp(v->data.bo.bytes, want, KEYSIZE) != 0) {
        fail("PMIx_Get(rank %d, %s) returned the wrong value (type %s, size %zu)", rank, key,
             PMIx_Data_type_string(v->type),
             v->type == PMIX_BYTE_OBJECT ? v->data.bo.size : (size_t) 0);
    }
}

static void fence(bool collect, const char *what)
{
    pmix_proc_t all;
    pmix_info_t info;
    bool yes = true;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    if (collect) {
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
        rc = PMIx_Fence(&all, 1, &info, 1);
        PMIX_INFO_DESTRUCT(&info);
    } else {
        rc = PMIx_Fence(&all, 1, NULL, 0);
    }
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Fence(%s) %s: %s", collect ? "collect" : "no collect", what,
             PMIx_Error_string(rc));
    }
}

/* Time PMIx_Get(proc, key) `iters` times after `warmup` untimed calls; check the value with
 * `check` on the first and last call. */
typedef void (*check_fn)(const pmix_value_t *v, void *arg);

static void time_get(const char *figure, const pmix_proc_t *proc, const char *key, long iters,
                     long warmup, check_fn check, void *arg)
{
    long long *s = xmalloc(sizeof(long long) * (size_t) iters);
    long i;
    for (i = -warmup; i < iters; i++) {
        pmix_value_t *v = NULL;
        long long t0 = bench_now_ns(), t1;
        pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
        t1 = bench_now_ns();
        if (rc != PMIX_SUCCESS || v == NULL) {
            fail("PMIx_Get(%s:%d, %s) call %ld: %s", proc->nspace, (int) proc->rank, key,
                 i + warmup, PMIx_Error_string(rc));
        }
        if (i >= 0) {
            s[i] = t1 - t0;
        }
        if ((i == -warmup || i == iters - 1) && check != NULL) {
            check(v, arg);
        }
        PMIX_VALUE_RELEASE(v);
    }
    write_samples(figure, s, (size_t) iters);
    free(s);
}

static void check_u16(const pmix_value_t *v, void *arg)
{
    uint16_t want = (uint16_t) (uintptr_t) arg;
    if (v->type != PMIX_UINT16 || v->data.uint16 != want) {
        fail("PMIx_Get(PMIX_LOCAL_RANK) returned type %s value %u, want %u",
             PMIx_Data_type_string(v->type), v->type == PMIX_UINT16 ? v->data.uint16 : 0, want);
    }
}

static void check_u32(const pmix_value_t *v, void *arg)
{
    uint32_t want = (uint32_t) (uintptr_t) arg;
    if (v->type != PMIX_UINT32 || v->data.uint32 != want) {
        fail("PMIx_Get(WILDCARD, PMIX_JOB_SIZE) returned type %s value %u, want %u",
             PMIx_Data_type_string(v->type), v->type == PMIX_UINT32 ? v->data.uint32 : 0, want);
    }
}

struct peer_check {
    int rank, k, round;
    const char *key;
};

static void check_peer(const pmix_value_t *v, void *arg)
{
    struct peer_check *c = arg;
    check_key(v, c->key, c->rank, c->k, c->round);
}

static uint32_t get_u32(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    uint32_t r;
    if (rc != PMIX_SUCCESS || v == NULL) {
        fail("PMIx_Get(%s): %s", key, PMIx_Error_string(rc));
    }
    if (v->type != PMIX_UINT32) {
        fail("PMIx_Get(%s): type %s", key, PMIx_Data_type_string(v->type));
    }
    r = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    return r;
}

/* Waits for the host's release, then PMIx_Init (any failure ends the process); returns the
 * CLOCK_MONOTONIC times (ns) around PMIx_Init in *t0 and *t1. */
static void start_client(long long *t0, long long *t1)
{
    pmix_status_t rc;
    wait_go();
    *t0 = bench_now_ns();
    rc = PMIx_Init(&me, NULL, 0);
    *t1 = bench_now_ns();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Init: %s", PMIx_Error_string(rc));
    }
    myrank = (int) me.rank;
}

/* bhost -S: says PMIx_Init returned, then waits until every client's has */
static void hold_after_init(void)
{
    const char *done = getenv("BENCH_DONE_FD"), *hold = getenv("BENCH_HOLD_FD");
    char c;
    if (done == NULL || hold == NULL) {
        return;
    }
    if (write(atoi(done), "d", 1) < 0) {
        /* the host then goes on when every copy of the pipe is closed */
    }
    close(atoi(done));
    while (read(atoi(hold), &c, 1) > 0) {
    }
    close(atoi(hold));
}

static int mode_init(void)
{
    pmix_status_t rc;
    long long t0, t1, t2;
    start_client(&t0, &t1);
    hold_after_init();
    bench_record_lib("client", myrank);
    write_one("init", t1 - t0);
    write_one("init_ret", t1);
    t1 = bench_now_ns();   /* not counting the writes */
    rc = PMIx_Finalize(NULL, 0);
    t2 = bench_now_ns();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Finalize: %s", PMIx_Error_string(rc));
    }
    write_one("finalize", t2 - t1);
    return 0;
}

static int mode_main(void)
{
    long iters = env_long("BENCH_GET_ITERS", 20000), rounds = env_long("BENCH_FENCE_ROUNDS", 200);
    long dmrounds = env_long("BENCH_DM_ROUNDS", 20), warmup = env_long("BENCH_WARMUP", 100);
    pmix_proc_t wild, peer;
    uint32_t jobsize, localsize;
    pmix_status_t rc;
    long long *s, *s2, t_init0, t_init1;
    char key[PMIX_MAX_KEYLEN + 1];
    long r, i;
    int k, npeer;

    start_client(&t_init0, &t_init1);
    bench_record_lib("client", myrank);
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    jobsize = get_u32(&wild, PMIX_JOB_SIZE);
    localsize = get_u32(&wild, PMIX_LOCAL_SIZE);
    npeer = (int) ((me.rank + 1) % localsize);   /* local ranks are 0..localsize-1 */
    PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t) npeer);

    /* the cost of one timing */
    s = xmalloc(sizeof(long long) * 1000);
    for (i = 0; i < 1000; i++) {
        long long t0 = bench_now_ns();
        s[i] = bench_now_ns() - t0;
    }
    write_samples("clock", s, 1000);
    free(s);

    /* job-level data */
    time_get("get_local_rank", &me, PMIX_LOCAL_RANK, iters, warmup, check_u16,
             (void *) (uintptr_t) me.rank);
    time_get("get_job_size", &wild, PMIX_JOB_SIZE, iters, warmup, check_u32,
             (void *) (uintptr_t) jobsize);

    /* Put+Commit+Fence with data collection */
    s = xmalloc(sizeof(long long) * (size_t) rounds);
    s2 = xmalloc(sizeof(long long) * (size_t) rounds);
    fence(false, "before the collecting rounds");
    for (r = 0; r < rounds; r++) {
        long long t0 = bench_now_ns(), t1, t2;
        for (k = 0; k < NKEYS; k++) {
            snprintf(key, sizeof(key), "bench.key.%d", k);
            put_key(key, (int) me.rank, k, (int) r);
        }
        rc = PMIx_Commit();
        if (rc != PMIX_SUCCESS) {
            fail("PMIx_Commit: %s", PMIx_Error_string(rc));
        }
        t1 = bench_now_ns();
        fence(true, "collecting round");
        t2 = bench_now_ns();
        s[r] = t2 - t0;
        s2[r] = t2 - t1;
    }
    write_samples("fence_collect_round", s, (size_t) rounds);
    write_samples("fence_collect", s2, (size_t) rounds);

    /* Get of a peer's key after the collecting fences */
    {
        struct peer_check c = {npeer, 3, (int) rounds - 1, "bench.key.3"};
        time_get("get_peer", &peer, "bench.key.3", iters, warmup, check_peer, &c);
    }

    /* barrier fences */
    for (r = 0; r < rounds; r++) {
        long long t0 = bench_now_ns();
        fence(false, "barrier round");
        s[r] = bench_now_ns() - t0;
    }
    write_samples("fence_barrier", s, (size_t) rounds);
    free(s);
    free(s2);

    /* direct modex: a fresh key each round, fence without collection, first touch */
    s = xmalloc(sizeof(long long) * (size_t) dmrounds);
    s2 = xmalloc(sizeof(long long) * (size_t) dmrounds);
    for (r = 0; r < dmrounds; r++) {
        pmix_value_t *v = NULL;
        long long t0, t1, t2;
        snprintf(key, sizeof(key), "bench.dm.%ld", r);
        put_key(key, (int) me.rank, 0, (int) r);
        rc = PMIx_Commit();
        if (rc != PMIX_SUCCESS) {
            fail("PMIx_Commit: %s", PMIx_Error_string(rc));
        }
        fence(false, "before direct modex");
        t0 = bench_now_ns();
        rc = PMIx_Get(&peer, key, NULL, 0, &v);
        t1 = bench_now_ns();
        if (rc != PMIX_SUCCESS || v == NULL) {
            fail("PMIx_Get(rank %d, %s) (direct modex, first): %s", npeer, key,
                 PMIx_Error_string(rc));
        }
        check_key(v, key, npeer, 0, (int) r);
        PMIX_VALUE_RELEASE(v);
        v = NULL;
        t1 = t1 - t0;
        t0 = bench_now_ns();
        rc = PMIx_Get(&peer, key, NULL, 0, &v);
        t2 = bench_now_ns();
        if (rc != PMIX_SUCCESS || v == NULL) {
            fail("PMIx_Get(rank %d, %s) (direct modex, repeat): %s", npeer, key,
                 PMIx_Error_string(rc));
        }
        check_key(v, key, npeer, 0, (int) r);
        PMIX_VALUE_RELEASE(v);
        s[r] = t1;
        s2[r] = t2 - t0;
    }
    write_samples("dmodex_first", s, (size_t) dmrounds);
    write_samples("dmodex_repeat", s2, (size_t) dmrounds);
    free(s);
    free(s2);

    /* memory, everyone at the same point */
    fence(false, "before measuring memory");
    write_one("mem_client_pss", bench_pss_kb(getpid()));
    write_one("mem_client_rss", bench_smaps_kb(getpid(), "Rss:"));
    if (me.rank == 0) {
        write_one("mem_host_pss", bench_pss_kb(getppid()));
        write_one("mem_host_rss", bench_smaps_kb(getppid(), "Rss:"));
    }
    fence(false, "after measuring memory");

    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Finalize: %s", PMIx_Error_string(rc));
    }
    return 0;
}

/* -- wireup ---------------------------------------------------------------------------------- */

#define WIRE_KEY "bench.wire"
#define WIRE_SIZE 64

static void wire_fill(unsigned char *buf, pmix_rank_t rank)
{
    int i;
    for (i = 0; i < WIRE_SIZE; i++) {
        buf[i] = (unsigned char) ((rank >> (8 * (i % 4))) + 131 * (unsigned) i + 17);
    }
}

/* One line appended to $BENCH_OUT/NAME with a single write(2). */
static void append_line(const char *name, const char *line)
{
    char path[4096];
    size_t len = strlen(line);
    int fd;
    snprintf(path, sizeof(path), "%s/%s", out_dir, name);
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || write(fd, line, len) != (ssize_t) len) {
        fail("cannot append to %s: %s", path, strerror(errno));
    }
    close(fd);
}

static int mode_wireup(void)
{
    bool all = env_long("BENCH_WIREUP_ALL", 0) != 0, mem = env_long("BENCH_WIREUP_MEM", 1) != 0;
    unsigned char buf[WIRE_SIZE], want[WIRE_SIZE];
    pmix_proc_t wild, peer;
    pmix_value_t v, *got;
    pmix_status_t rc;
    uint32_t n, k, npeers;
    long long t0, t1, t2, t3, t4;
    char line[256];

    start_client(&t0, &t1);
    if (me.rank == 0) {
        bench_record_lib("client", 0);
        printf("bclient: wireup version %s\n", PMIx_Get_version());
        fflush(stdout);
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    n = get_u32(&wild, PMIX_JOB_SIZE);

    wire_fill(buf, me.rank);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *) buf;
    v.data.bo.size = WIRE_SIZE;
    rc = PMIx_Put(PMIX_GLOBAL, WIRE_KEY, &v);
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Put(%s): %s", WIRE_KEY, PMIx_Error_string(rc));
    }
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Commit: %s", PMIx_Error_string(rc));
    }
    t2 = bench_now_ns();
    fence(true, "wire-up");
    t3 = bench_now_ns();

    npeers = all ? n - 1 : (n - 1 < 8 ? n - 1 : 8);
    for (k = 1; k <= npeers; k++) {
        pmix_rank_t r = (me.rank + k) % n;
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        got = NULL;
        rc = PMIx_Get(&peer, WIRE_KEY, NULL, 0, &got);
        if (rc != PMIX_SUCCESS || got == NULL) {
            fail("PMIx_Get(rank %u, %s): %s", r, WIRE_KEY, PMIx_Error_string(rc));
        }
        wire_fill(want, r);
        if (got->type != PMIX_BYTE_OBJECT || got->data.bo.size != WIRE_SIZE
            || memcmp(got->data.bo.bytes, want, WIRE_SIZE) != 0) {
            fail("PMIx_Get(rank %u, %s) returned the wrong value (type %s, size %zu)", r, WIRE_KEY,
                 PMIx_Data_type_string(got->type),
                 got->type == PMIX_BYTE_OBJECT ? got->data.bo.size : (size_t) 0);
        }
        PMIX_VALUE_RELEASE(got);
    }
    t4 = bench_now_ns();

    snprintf(line, sizeof(line), "%u %lld %lld %lld %lld %lld\n", me.rank,
             mem ? bench_pss_kb(getpid()) : -1, t1 - t0, t2 - t1, t3 - t2, t4 - t3);
    append_line("wireup", line);
    if (mem) {
        if (me.rank == 0) {
            snprintf(line, sizeof(line), "host %lld %lld\n", bench_pss_kb(getppid()),
                     bench_smaps_kb(getppid(), "Rss:"));
            append_line("wireup_host", line);
        }
        fence(false, "after measuring memory");
    }

    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_Finalize: %s", PMIx_Error_string(rc));
    }
    return 0;
}

static int mode_tool(void)
{
    const char *spid = getenv("BENCH_SERVER_PID");
    const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    pid_t pid = spid != NULL ? (pid_t) atoi(spid) : getppid();
    pmix_info_t info[2];
    pmix_status_t rc;
    long long t0, t1, t2;
    myrank = (int) getpid();   /* the sample files are named after the process */
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    t0 = bench_now_ns();
    rc = PMIx_tool_init(&me, info, 2);
    t1 = bench_now_ns();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_tool_init(server pid %d): %s", (int) pid, PMIx_Error_string(rc));
    }
    bench_record_lib("tool", myrank);
    write_one("tool_init", t1 - t0);
    t1 = bench_now_ns();
    rc = PMIx_tool_finalize();
    t2 = bench_now_ns();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_tool_finalize: %s", PMIx_Error_string(rc));
    }
    write_one("tool_finalize", t2 - t1);
    return 0;
}

/* -- iof ------------------------------------------------------------------------------------- */

static pthread_mutex_t iof_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t iof_cond = PTHREAD_COND_INITIALIZER;
static long long iof_want, iof_got, iof_first_size, iof_calls, iof_t_first, iof_t_last;

static void iof_handler(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                        pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    long long now = bench_now_ns();
    (void) iofhdlr;
    (void) channel;
    (void) source;
    (void) info;
    (void) ninfo;
    if (payload == NULL || payload->size == 0) {
        return;
    }
    pthread_mutex_lock(&iof_lock);
    if (iof_got == 0) {
        iof_t_first = now;
        iof_first_size = (long long) payload->size;
    }
    iof_got += (long long) payload->size;
    iof_calls++;
    iof_t_last = now;
    if (iof_got >= iof_want) {
        pthread_cond_signal(&iof_cond);
    }
    pthread_mutex_unlock(&iof_lock);
}

static int mode_iof(void)
{
    const char *spid = getenv("BENCH_SERVER_PID");
    const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    const char *ns = getenv("BENCH_IOF_NSPACE");
    const char *want = getenv("BENCH_IOF_BYTES");
    const char *rfd = getenv("BENCH_IOF_READY_FD");
    const char *tmo = getenv("BENCH_IOF_TIMEOUT");
    pid_t pid = spid != NULL ? (pid_t) atoi(spid) : getppid();
    pmix_info_t info[2], dir;
    pmix_proc_t src;
    pmix_status_t rc;
    bool yes = true;
    struct timespec deadline;
    long long t_go, got, first_size, t_first, t_last, calls;
    int fd;
    myrank = (int) getpid();
    if (ns == NULL || want == NULL || rfd == NULL) {
        fail("BENCH_IOF_NSPACE, BENCH_IOF_BYTES and BENCH_IOF_READY_FD must be set (run by bhost -I)");
    }
    iof_want = atoll(want);
    fd = atoi(rfd);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    rc = PMIx_tool_init(&me, info, 2);
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_tool_init(server pid %d): %s", (int) pid, PMIx_Error_string(rc));
    }
    bench_record_lib("tool", myrank);
    PMIX_LOAD_PROCID(&src, ns, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&dir, PMIX_IOF_REDIRECT, &yes, PMIX_BOOL);
    rc = PMIx_IOF_pull(&src, 1, &dir, 1, PMIX_FWD_STDOUT_CHANNEL, iof_handler, NULL, NULL);
    if (rc < 0) {
        fail("PMIx_IOF_pull(%s:WILDCARD stdout): %s", ns, PMIx_Error_string(rc));
    }
    t_go = bench_now_ns();
    if (write(fd, "g", 1) != 1) {
        fail("cannot write to BENCH_IOF_READY_FD %d: %s", fd, strerror(errno));
    }
    close(fd);
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += tmo != NULL ? atoi(tmo) : 100;
    pthread_mutex_lock(&iof_lock);
    while (iof_got < iof_want) {
        if (pthread_cond_timedwait(&iof_cond, &iof_lock, &deadline) == ETIMEDOUT) {
            break;
        }
    }
    got = iof_got;
    first_size = iof_first_size;
    t_first = iof_t_first;
    t_last = iof_t_last;
    calls = iof_calls;
    pthread_mutex_unlock(&iof_lock);
    if (got < iof_want) {
        fail("IOF: %lld of %lld bytes received before the timeout (%lld handler calls)", got,
             iof_want, calls);
    }
    write_one("iof_ns", t_last - t_first);
    write_one("iof_bytes", got - first_size);
    write_one("iof_total", got);
    write_one("iof_span_ns", t_last - t_go);
    write_one("iof_calls", calls);
    printf("iof: %lld bytes in %lld handler calls; %.1f MB/s from the first delivery to the last "
           "byte, %.1f MB/s from the release\n",
           got, calls, t_last > t_first ? (got - first_size) * 1e3 / (double) (t_last - t_first) : 0.0,
           t_last > t_go ? got * 1e3 / (double) (t_last - t_go) : 0.0);
    rc = PMIx_tool_finalize();
    if (rc != PMIX_SUCCESS) {
        fail("PMIx_tool_finalize: %s", PMIx_Error_string(rc));
    }
    return 0;
}

static int mode_floor(void)
{
    const char *rank = getenv("PMIX_RANK");
    wait_go();
    if (rank != NULL && strcmp(rank, "0") == 0) {
        bench_record_lib("client", 0);
        printf("bclient: floor version %s\n", PMIx_Get_version());
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    out_dir = getenv("BENCH_OUT");
    if (argc != 2 || out_dir == NULL) {
        fprintf(stderr, "usage: BENCH_OUT=DIR bclient init|main|tool|iof|wireup|floor\n");
        return 2;
    }
    if (strcmp(argv[1], "init") == 0) {
        return mode_init();
    }
    if (strcmp(argv[1], "main") == 0) {
        return mode_main();
    }
    if (strcmp(argv[1], "wireup") == 0) {
        return mode_wireup();
    }
    if (strcmp(argv[1], "floor") == 0) {
        return mode_floor();
    }
    if (strcmp(argv[1], "tool") == 0) {
        return mode_tool();
    }
    if (strcmp(argv[1], "iof") == 0) {
        return mode_iof();
    }
    fprintf(stderr, "bclient: unknown mode %s\n", argv[1]);
    return 2;
}
