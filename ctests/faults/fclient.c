/* Fault-test processes, started by ctests/session/host.c (built with host_wrap.c): usage
 * `fclient SCENARIO`. See run.sh for how each scenario is run and judged.
 *
 * Every check prints one line on stdout: "PASS <rank>: <what>" or "FAIL <rank>: <what>";
 * facts that are only recorded (for instance what an error code was) print "INFO <rank>: ...".
 * A process exits 0 unless it could not run its checks at all.
 *
 * Some ranks are "raw peers": they never call the PMIx client API, but speak the wire
 * protocol themselves over TCP (openpmix-wire-protocol.md, sections 1.2 and 1.3), using the
 * server URI, namespace and rank the host put in their environment.
 *
 * Scenarios:
 *   garbage    rank 0 is a raw peer that, for each attack, completes a valid handshake (or
 *              sends a broken one) and then misbehaves; it checks the server drops that
 *              connection. After each attack the other ranks run put/commit/fence/get among
 *              themselves and check it works. Files in $FAULT_DIR sequence the two sides.
 *   killfence  rank 2 commits and waits; rank 0 SIGKILLs it 0.5 s after ranks 0 and 1 have
 *              entered a fence over the whole job. The survivors' fence must fail in < 10 s.
 *   timeouts   rank 0: PMIx_Get of a key rank 1 never puts, PMIX_TIMEOUT=1; ranks 0 and 1:
 *              PMIx_Fence with PMIX_TIMEOUT=1, rank 2 never enters; rank 0: PMIx_Lookup with
 *              PMIX_WAIT and PMIX_TIMEOUT=1 of a key nobody publishes.
 *   spoof      (host run with FAULT_FAKE_UID_RANK=1: rank 1 registered with uid/gid 4242)
 *              rank 0 (registered with its real ids) is a raw peer claiming them: accepted,
 *              then REQ and FINALIZE answered. Rank 1 is a raw peer claiming 4242 (matches the
 *              registration, not the process): must be refused; then claiming its real ids
 *              (matches the process, not the registration): must be refused. Where the server
 *              offers our Unix socket (PMIX_RS_SERVER_UNIX), rank 0's honest claim and rank 1's
 *              claim of 4242 are repeated through it.
 *   memory     1000 cycles of put/commit/fence(collect)/get; VmRSS of this process and of
 *              the host (the parent) after cycle 100 and cycle 1000.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

static pmix_proc_t me;
static uint32_t nprocs;
static const char *fault_dir;

/* ---------------------------------------------------------------------------------------------
 * Reporting and small helpers
 * ------------------------------------------------------------------------------------------ */

static void report(const char *verdict, const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    printf("%s %u: %s\n", verdict, me.rank, line);
}

static void check(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(ok ? "PASS" : "FAIL", fmt, ap);
    va_end(ap);
}

static void info_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("INFO", fmt, ap);
    va_end(ap);
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("FAIL", fmt, ap);
    va_end(ap);
    exit(2);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void msleep(int ms)
{
    struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void touch(const char *fmt, ...)
{
    char name[512], path[1024];
    va_list ap;
    int fd;
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    snprintf(path, sizeof(path), "%s/%s", fault_dir, name);
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) {
        close(fd);
    }
}

/* Wait up to `secs` (at most $FAULT_WAIT seconds, if set) for a file in $FAULT_DIR; true if
 * it appeared. */
static bool wait_file(double secs, const char *fmt, ...)
{
    char name[512], path[1024];
    struct stat sb;
    const char *limit = getenv("FAULT_WAIT");
    double end;
    va_list ap;
    if (limit != NULL && atof(limit) > 0 && atof(limit) < secs) {
        secs = atof(limit);
    }
    end = now() + secs;
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    snprintf(path, sizeof(path), "%s/%s", fault_dir, name);
    while (stat(path, &sb) != 0) {
        if (now() > end) {
            return false;
        }
        msleep(10);
    }
    return true;
}

/* VmRSS of a process in kB, or -1. */
static long vm_rss_kb(pid_t pid)
{
    char path[64], line[256];
    long kb = -1;
    FILE *f;
    snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
        }
    }
    fclose(f);
    return kb;
}

/* A deterministic byte stream (xorshift32), so that every run sends the same "garbage". */
static void fill_random(uint8_t *buf, size_t n, uint32_t seed)
{
    uint32_t x = seed ? seed : 1;
    size_t i;
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (uint8_t) (x >> 24);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Raw peer: the wire protocol by hand
 * ------------------------------------------------------------------------------------------ */

static void identity_from_env(void)
{
    const char *ns = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");
    if (ns == NULL || rank == NULL) {
        fprintf(stderr, "fclient: PMIX_NAMESPACE/PMIX_RANK not set\n");
        exit(2);
    }
    PMIX_LOAD_PROCID(&me, ns, (pmix_rank_t) strtoul(rank, NULL, 10));
}

/* A new TCP connection to the server named by PMIX_SERVER_URI41 (or an older variable). */
static int raw_connect(void)
{
    static const char *vars[] = {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                                 "PMIX_SERVER_URI21", "PMIX_SERVER_URI2", NULL};
    const char *uri = NULL, *p, *colon;
    char host[64];
    struct sockaddr_in sa;
    int i, fd;
    for (i = 0; vars[i] != NULL && uri == NULL; i++) {
        uri = getenv(vars[i]);
    }
    if (uri == NULL || (p = strstr(uri, "tcp4://")) == NULL) {
        die("no tcp4 server URI in the environment");
    }
    p += 7;
    colon = strrchr(p, ':');
    if (colon == NULL || (size_t) (colon - p) >= sizeof(host)) {
        die("bad server URI %s", uri);
    }
    memcpy(host, p, (size_t) (colon - p));
    host[colon - p] = '\0';
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t) atoi(colon + 1));
    sa.sin_addr.s_addr = inet_addr(host);
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *) &sa, sizeof(sa)) != 0) {
        die("connect to %s: %s", uri, strerror(errno));
    }
    return fd;
}

/* A raw connection to the Unix socket our server offers its own peers (the abstract name in
 * PMIX_RS_SERVER_UNIX); -1 when the server offers none (the reference's). */
static int raw_connect_unix(void)
{
    const char *name = getenv("PMIX_RS_SERVER_UNIX");
    struct sockaddr_un sa;
    size_t len;
    int fd;
    if (name == NULL || (len = strlen(name)) == 0) {
        return -1;
    }
    if (len + 1 > sizeof(sa.sun_path)) {
        die("Unix socket name too long: %s", name);
    }
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path + 1, name, len); /* sun_path[0] = 0: the abstract namespace */
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    len += offsetof(struct sockaddr_un, sun_path) + 1;
    if (fd < 0 || connect(fd, (struct sockaddr *) &sa, (socklen_t) len) != 0) {
        die("connect to the Unix socket %s: %s", name, strerror(errno));
    }
    return fd;
}

static void put_u32be(uint8_t **p, uint32_t v)
{
    uint32_t be = htonl(v);
    memcpy(*p, &be, 4);
    *p += 4;
}

static void put_str(uint8_t **p, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(*p, s, n);
    *p += n;
}

/* A simple client's handshake (section 1.3): header with the body length in host order,
 * then "native", credential length 8 (BE), uid and gid (host order), flag 0, nspace, rank
 * (BE), version, bfrops module, buffer type NON_DESC, gds module. Returns its length. */
static size_t build_hello(uint8_t *buf, const char *nspace, uint32_t rank, uint32_t uid,
                          uint32_t gid)
{
    uint8_t *p = buf + 16;
    uint32_t body;
    put_str(&p, "native");
    put_u32be(&p, 8);
    memcpy(p, &uid, 4);
    memcpy(p + 4, &gid, 4);
    p += 8;
    *p++ = 0;
    put_str(&p, nspace);
    put_u32be(&p, rank);
    put_str(&p, "4.2.2");
    put_str(&p, "v41");
    *p++ = 1;
    put_str(&p, "hash");
    body = (uint32_t) (p - buf - 16);
    memset(buf, 0xff, 8);
    memcpy(buf + 8, &body, 4);   /* host order, as the reference sends it */
    memset(buf + 12, 0, 4);
    return (size_t) (p - buf);
}

static bool send_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return false;
        }
        p += w;
        n -= (size_t) w;
    }
    return true;
}

/* Read exactly n bytes within `secs`. Returns the number read (< n on EOF, error or
 * timeout); *eof tells whether the peer closed (EOF or reset). */
static size_t recv_n(int fd, void *buf, size_t n, double secs, bool *eof)
{
    uint8_t *p = buf;
    size_t got = 0;
    double end = now() + secs;
    *eof = false;
    while (got < n) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int ms = (int) ((end - now()) * 1000);
        ssize_t r;
        if (ms <= 0 || poll(&pfd, 1, ms) <= 0) {
            break;
        }
        r = recv(fd, p + got, n - got, 0);
        if (r == 0 || (r < 0 && (errno == ECONNRESET || errno == EPIPE))) {
            *eof = true;
            break;
        }
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            *eof = true;
            break;
        }
        got += (size_t) r;
    }
    return got;
}

/* Wait up to `secs` for the server to close the connection, discarding what it sends.
 * Returns true on EOF (or reset); *extra counts the bytes received before it. */
static bool wait_closed(int fd, double secs, size_t *extra)
{
    uint8_t junk[4096];
    double end = now() + secs;
    *extra = 0;
    for (;;) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int ms = (int) ((end - now()) * 1000);
        ssize_t r;
        if (ms <= 0 || poll(&pfd, 1, ms) <= 0) {
            return false;
        }
        r = recv(fd, junk, sizeof(junk), 0);
        if (r == 0 || (r < 0 && (errno == ECONNRESET || errno == EPIPE))) {
            return true;
        }
        if (r > 0) {
            *extra += (size_t) r;
        }
    }
}

typedef struct {
    size_t got;        /* bytes of the 8-byte reply received */
    uint32_t status;   /* valid when got >= 4 */
    uint32_t index;    /* valid when got == 8 */
} hs_reply_t;

/* Send a handshake and read the reply (status, index) for up to 5 s. */
static hs_reply_t handshake(int fd, const char *nspace, uint32_t rank, uint32_t uid,
                            uint32_t gid)
{
    uint8_t buf[512], r[8];
    hs_reply_t h = {0, 0, 0};
    bool eof;
    size_t n = build_hello(buf, nspace, rank, uid, gid);
    if (!send_all(fd, buf, n)) {
        return h;
    }
    h.got = recv_n(fd, r, 8, 5.0, &eof);
    if (h.got >= 4) {
        memcpy(&h.status, r, 4);
        h.status = ntohl(h.status);
    }
    if (h.got == 8) {
        memcpy(&h.index, r + 4, 4);
        h.index = ntohl(h.index);
    }
    return h;
}

static bool accepted(const hs_reply_t *h)
{
    return h->got == 8 && h->status == 0;
}

static void frame_header(uint8_t *h, uint32_t pindex, uint32_t tag, uint32_t nbytes)
{
    uint32_t v[4] = {htonl(pindex), htonl(tag), htonl(nbytes), 0};
    memcpy(h, v, 16);
}

static bool send_frame(int fd, uint32_t pindex, uint32_t tag, const void *payload, uint32_t n)
{
    uint8_t h[16];
    frame_header(h, pindex, tag, n);
    return send_all(fd, h, 16) && send_all(fd, payload, n);
}

/* Receive the next frame with tag `want` (frames with other tags, e.g. notifications, are
 * skipped). Returns the payload length, or -1. */
static long recv_frame(int fd, uint32_t want, uint8_t *buf, size_t cap, double secs)
{
    double end = now() + secs;
    for (;;) {
        uint8_t h[16];
        uint32_t tag, n;
        bool eof;
        if (recv_n(fd, h, 16, end - now(), &eof) != 16) {
            return -1;
        }
        memcpy(&tag, h + 4, 4);
        memcpy(&n, h + 8, 4);
        tag = ntohl(tag);
        n = ntohl(n);
        if (n > cap || recv_n(fd, buf, n, end - now(), &eof) != n) {
            return -1;
        }
        if (tag == want) {
            return (long) n;
        }
    }
}

static bool contains(const uint8_t *buf, size_t n, const char *s)
{
    size_t k = strlen(s), i;
    for (i = 0; i + k <= n; i++) {
        if (memcmp(buf + i, s, k) == 0) {
            return true;
        }
    }
    return false;
}

/* REQ (tag 101) and its answer, which starts with our namespace. */
static bool req_answered(int fd, uint32_t index)
{
    static const uint8_t req[] = {0x02, 0x00};
    uint8_t reply[1 << 16];
    long n;
    if (!send_frame(fd, index, 101, req, sizeof(req))) {
        return false;
    }
    n = recv_frame(fd, 101, reply, sizeof(reply), 5.0);
    return n > 0 && contains(reply, (size_t) n, me.nspace);
}

/* ---------------------------------------------------------------------------------------------
 * PMIx client helpers
 * ------------------------------------------------------------------------------------------ */

static void init(void)
{
    pmix_status_t rc;
    pmix_value_t *v = NULL;
    pmix_proc_t wild;
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        identity_from_env();
        die("PMIx_Init: %s", PMIx_Error_string(rc));
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL) {
        die("PMIx_Get(JOB_SIZE): %s", PMIx_Error_string(rc));
    }
    nprocs = v->type == PMIX_UINT32 ? v->data.uint32 : 0;
    PMIX_VALUE_RELEASE(v);
}

static void finalize(void)
{
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        info_line("PMIx_Finalize: %s", PMIx_Error_string(rc));
    }
}

static pmix_status_t put_string(const char *key, const char *s)
{
    pmix_value_t v;
    pmix_status_t rc;
    PMIX_VALUE_LOAD(&v, s, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    PMIX_VALUE_DESTRUCT(&v);
    return rc;
}

/* Get a string of `rank`; returns a status, and PMIX_ERR_BAD_PARAM if the value differs. */
static pmix_status_t get_string(pmix_rank_t rank, const char *key, const char *want,
                                bool refresh)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&p, me.nspace, rank);
    PMIX_INFO_LOAD(&info, PMIX_GET_REFRESH_CACHE, &refresh, PMIX_BOOL);
    rc = PMIx_Get(&p, key, refresh ? &info : NULL, refresh ? 1 : 0, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_SUCCESS) {
        if (v == NULL || v->type != PMIX_STRING || v->data.string == NULL
            || strcmp(v->data.string, want) != 0) {
            rc = PMIX_ERR_BAD_PARAM;
        }
    }
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
    }
    return rc;
}

static pmix_status_t fence_procs(const pmix_proc_t *procs, size_t n, bool collect, int timeout)
{
    pmix_info_t info[2];
    size_t ninfo = 0;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info[ninfo], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    ninfo++;
    if (timeout > 0) {
        PMIX_INFO_LOAD(&info[ninfo], PMIX_TIMEOUT, &timeout, PMIX_INT);
        ninfo++;
    }
    rc = PMIx_Fence(procs, n, info, ninfo);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (ninfo > 1) {
        PMIX_INFO_DESTRUCT(&info[1]);
    }
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * garbage
 * ------------------------------------------------------------------------------------------ */

static const char *const attacks[] = {"a", "b", "c", "d", "d2", "e"};
#define NATTACKS (sizeof(attacks) / sizeof(attacks[0]))

/* Random bytes that do not start with 0x02: a NON_DESC payload starting with the count 1
 * and a known command byte could be a valid request, which is not garbage. */
static void garbage(uint8_t *buf, size_t n, uint32_t seed)
{
    fill_random(buf, n, seed);
    if (buf[0] == 0x02) {
        buf[0] = 0xfe;
    }
}

static void raw_attacks(void)
{
    size_t i, extra;
    for (i = 0; i < NATTACKS; i++) {
        const char *a = attacks[i];
        uint8_t buf[1024];
        hs_reply_t h;
        bool closed = false;
        int fd = raw_connect();
        pmix_rank_t r;

        if (strcmp(a, "a") == 0) {
            /* (a) a frame whose payload is random bytes */
            h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
            check(accepted(&h), "garbage.a: valid handshake accepted (status %d, %zu bytes)",
                  (int) h.status, h.got);
            garbage(buf, 256, 0xa11ce);
            send_frame(fd, h.index, 101, buf, 256);
            closed = wait_closed(fd, 3.0, &extra);
            check(closed, "garbage.a: frame of 256 random bytes: server dropped the connection "
                  "(%zu bytes received first)", extra);
        } else if (strcmp(a, "b") == 0) {
            /* (b) a header announcing 1000 bytes, 10 bytes, then our side closes */
            h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
            check(accepted(&h), "garbage.b: valid handshake accepted");
            frame_header(buf, h.index, 101, 1000);
            garbage(buf + 16, 10, 0xb0b);
            send_all(fd, buf, 26);
            shutdown(fd, SHUT_WR);
            closed = wait_closed(fd, 3.0, &extra);
            check(closed, "garbage.b: truncated frame (1000 announced, 10 sent, then shutdown): "
                  "server dropped the connection");
        } else if (strcmp(a, "c") == 0) {
            /* (c) a valid REQ, then a frame of garbage */
            h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
            check(accepted(&h), "garbage.c: valid handshake accepted");
            check(req_answered(fd, h.index), "garbage.c: valid REQ answered with the job data");
            garbage(buf, 64, 0xc0ffee);
            send_frame(fd, h.index, 102, buf, 64);
            closed = wait_closed(fd, 3.0, &extra);
            check(closed, "garbage.c: garbage frame after REQ: server dropped the connection");
        } else if (strcmp(a, "d") == 0) {
            /* (d) an invalid handshake: 64 random bytes, header included */
            fill_random(buf, 64, 0xdead);
            send_all(fd, buf, 64);
            closed = wait_closed(fd, 3.0, &extra);
            check(closed && extra == 0, "garbage.d: random handshake (64 bytes): dropped without "
                  "a reply (%s, %zu bytes received)", closed ? "closed" : "NOT closed", extra);
        } else if (strcmp(a, "d2") == 0) {
            /* (d2) a plausible handshake header (length 40) and 40 random bytes */
            uint32_t len = 40;
            memset(buf, 0xff, 8);
            memcpy(buf + 8, &len, 4);
            memset(buf + 12, 0, 4);
            fill_random(buf + 16, 40, 0xd2d2);
            send_all(fd, buf, 56);
            closed = wait_closed(fd, 3.0, &extra);
            check(closed && extra < 8, "garbage.d2: handshake header + 40 random bytes: dropped "
                  "without a success reply (%s, %zu bytes received)",
                  closed ? "closed" : "NOT closed", extra);
        } else if (strcmp(a, "e") == 0) {
            /* (e) a valid handshake for a rank that was never registered */
            h = handshake(fd, me.nspace, 999, getuid(), getgid());
            closed = h.got < 8 ? wait_closed(fd, 3.0, &extra) : false;
            check(!accepted(&h) && closed, "garbage.e: handshake of unregistered rank 999: "
                  "refused (%zu reply bytes, status %d) and closed", h.got, (int) h.status);
        }
        close(fd);
        touch("attack.%s", a);
        for (r = 1; r < nprocs; r++) {
            if (!wait_file(30, "served.%s.%u", a, r)) {
                die("rank %u did not finish its cycle after attack %s", r, a);
            }
        }
    }
}

static void garbage_survivor(void)
{
    pmix_proc_t *procs = calloc(nprocs, sizeof(pmix_proc_t));
    size_t i, np = 0;
    pmix_rank_t r;
    for (r = 1; r < nprocs; r++) {
        PMIX_LOAD_PROCID(&procs[np], me.nspace, r);
        np++;
    }
    for (i = 0; i < NATTACKS; i++) {
        const char *a = attacks[i];
        char key[64], val[64], want[64];
        pmix_status_t rc_put, rc_commit, rc_fence, rc_get = PMIX_SUCCESS;
        if (!wait_file(30, "attack.%s", a)) {
            die("attack %s did not happen", a);
        }
        snprintf(key, sizeof(key), "fault.key.%s", a);
        snprintf(val, sizeof(val), "value-%s-%u", a, me.rank);
        rc_put = put_string(key, val);
        rc_commit = PMIx_Commit();
        rc_fence = fence_procs(procs, np, true, 0);
        for (r = 1; r < nprocs && rc_get == PMIX_SUCCESS; r++) {
            snprintf(want, sizeof(want), "value-%s-%u", a, r);
            rc_get = get_string(r, key, want, false);
        }
        check(rc_put == PMIX_SUCCESS && rc_commit == PMIX_SUCCESS && rc_fence == PMIX_SUCCESS
                  && rc_get == PMIX_SUCCESS,
              "garbage.%s: afterwards put/commit/fence/get among ranks 1..%u work "
              "(put %s, commit %s, fence %s, get %s)", a, nprocs - 1,
              PMIx_Error_string(rc_put), PMIx_Error_string(rc_commit),
              PMIx_Error_string(rc_fence), PMIx_Error_string(rc_get));
        touch("served.%s.%u", a, me.rank);
    }
    free(procs);
}

static int scenario_garbage(void)
{
    identity_from_env();
    if (me.rank == 0) {
        nprocs = (uint32_t) atoi(getenv("FAULT_NPROCS") ? getenv("FAULT_NPROCS") : "3");
        raw_attacks();
        return 0;
    }
    init();
    garbage_survivor();
    finalize();
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * killfence
 * ------------------------------------------------------------------------------------------ */

static pid_t victim;

static void *killer(void *arg)
{
    (void) arg;
    msleep(500);
    kill(victim, SIGKILL);
    return NULL;
}

/* What a process prints if a blocking call it timed does not return (SIGALRM). */
static char hung_msg[256];

static void hung(int sig)
{
    (void) sig;
    if (write(1, hung_msg, strlen(hung_msg)) < 0) {
        _exit(3);
    }
    _exit(3);
}

static void watch(const char *what, unsigned secs)
{
    snprintf(hung_msg, sizeof(hung_msg), "FAIL %u: %s did not return within %u s (hang)\n",
             me.rank, what, secs);
    signal(SIGALRM, hung);
    alarm(secs);
}

static int scenario_killfence(void)
{
    double t0, dt;
    pmix_status_t rc;
    pthread_t tid;
    init();
    if (me.rank == 2) {
        char path[1024];
        FILE *f;
        put_string("fault.victim", "x");
        PMIx_Commit();
        snprintf(path, sizeof(path), "%s/victim.pid", fault_dir);
        f = fopen(path, "w");
        fprintf(f, "%d\n", (int) getpid());
        fclose(f);
        touch("victim.ready");
        for (;;) {
            pause();   /* until SIGKILL */
        }
    }
    if (me.rank > 2) {
        finalize();
        return 0;
    }
    if (!wait_file(20, "victim.ready")) {
        die("rank 2 never got ready");
    }
    if (me.rank == 0) {
        char path[1024];
        FILE *f;
        int pid = 0;
        snprintf(path, sizeof(path), "%s/victim.pid", fault_dir);
        f = fopen(path, "r");
        if (f == NULL || fscanf(f, "%d", &pid) != 1) {
            die("cannot read victim.pid");
        }
        fclose(f);
        victim = (pid_t) pid;
        pthread_create(&tid, NULL, killer, NULL);
    }
    watch("killfence: the fence", 10);
    t0 = now();
    rc = fence_procs(NULL, 0, true, 0);
    dt = now() - t0;
    alarm(0);
    check(rc != PMIX_SUCCESS, "killfence: fence with a SIGKILLed participant returned an error "
          "(%s)", PMIx_Error_string(rc));
    check(dt < 10.0, "killfence: it returned in %.2f s (< 10 s)", dt);
    info_line("killfence: fence status %s (%d) after %.2f s", PMIx_Error_string(rc), rc, dt);
    if (me.rank == 0) {
        pthread_join(tid, NULL);
    }
    finalize();
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * timeouts
 * ------------------------------------------------------------------------------------------ */

static int scenario_timeouts(void)
{
    int one = 1, zero = 0;
    double t0, dt;
    pmix_status_t rc;
    init();
    if (me.rank == 0) {
        pmix_info_t info[2];
        pmix_value_t *v = NULL;
        pmix_proc_t p;
        pmix_pdata_t pd;

        /* PMIx_Get of a key rank 1 never puts */
        PMIX_LOAD_PROCID(&p, me.nspace, 1);
        PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &one, PMIX_INT);
        watch("timeouts.get: PMIx_Get", 10);
        t0 = now();
        rc = PMIx_Get(&p, "fault.never", info, 1, &v);
        dt = now() - t0;
        alarm(0);
        PMIX_INFO_DESTRUCT(&info[0]);
        check(rc == PMIX_ERR_TIMEOUT, "timeouts.get: PMIx_Get(never put, PMIX_TIMEOUT=1) -> "
              "%s (want PMIX_ERR_TIMEOUT)", PMIx_Error_string(rc));
        check(dt >= 0.5 && dt <= 3.5, "timeouts.get: returned after %.2f s (0.5-3.5 s)", dt);
        if (v != NULL) {
            PMIX_VALUE_RELEASE(v);
        }
        touch("get.done");

        /* PMIx_Fence of the whole job with PMIX_TIMEOUT=1; rank 2 never enters */
        watch("timeouts.fence: PMIx_Fence", 10);
        t0 = now();
        rc = fence_procs(NULL, 0, false, 1);
        dt = now() - t0;
        alarm(0);
        check(rc == PMIX_ERR_TIMEOUT, "timeouts.fence: fence(PMIX_TIMEOUT=1), rank 2 absent -> "
              "%s (want PMIX_ERR_TIMEOUT)", PMIx_Error_string(rc));
        check(dt >= 0.5 && dt <= 3.5, "timeouts.fence: returned after %.2f s (0.5-3.5 s)", dt);

        /* PMIx_Lookup with PMIX_WAIT and PMIX_TIMEOUT=1 of a key never published */
        PMIX_PDATA_CONSTRUCT(&pd);
        PMIX_LOAD_KEY(pd.key, "fault.unpublished");
        PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &zero, PMIX_INT);
        PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &one, PMIX_INT);
        watch("timeouts.lookup: PMIx_Lookup", 10);
        t0 = now();
        rc = PMIx_Lookup(&pd, 1, info, 2);
        dt = now() - t0;
        alarm(0);
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
        PMIX_PDATA_DESTRUCT(&pd);
        check(rc != PMIX_SUCCESS, "timeouts.lookup: PMIx_Lookup(PMIX_WAIT, PMIX_TIMEOUT=1) of an "
              "unpublished key -> an error (%s)", PMIx_Error_string(rc));
        check(dt <= 3.5, "timeouts.lookup: returned after %.2f s (<= 3.5 s)", dt);
        info_line("timeouts.lookup: status %s (%d) after %.2f s", PMIx_Error_string(rc), rc, dt);
        touch("timeouts.done.0");
    } else if (me.rank == 1) {
        if (!wait_file(20, "get.done")) {
            die("rank 0 never finished its get");
        }
        watch("timeouts.fence: PMIx_Fence", 10);
        t0 = now();
        rc = fence_procs(NULL, 0, false, 1);
        dt = now() - t0;
        alarm(0);
        check(rc == PMIX_ERR_TIMEOUT, "timeouts.fence: fence(PMIX_TIMEOUT=1), rank 2 absent -> "
              "%s (want PMIX_ERR_TIMEOUT)", PMIx_Error_string(rc));
        check(dt >= 0.5 && dt <= 3.5, "timeouts.fence: returned after %.2f s (0.5-3.5 s)", dt);
        touch("timeouts.done.1");
    } else {
        /* never enters the fence; stays connected until the others are done */
        if (!wait_file(30, "timeouts.done.0") || !wait_file(30, "timeouts.done.1")) {
            die("ranks 0 and 1 did not finish");
        }
    }
    finalize();
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * spoof
 * ------------------------------------------------------------------------------------------ */

static int scenario_spoof(void)
{
    hs_reply_t h;
    size_t extra;
    bool closed;
    int fd;
    identity_from_env();
    if (me.rank == 0) {
        static const uint8_t fin[] = {0x02, 0x05};
        uint8_t reply[256];
        fd = raw_connect();
        h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
        check(accepted(&h), "spoof.honest: claim of the real uid %u (= registered) accepted "
              "(%zu reply bytes, status %d)", (unsigned) getuid(), h.got, (int) h.status);
        if (accepted(&h)) {
            check(req_answered(fd, h.index), "spoof.honest: REQ answered with the job data");
            send_frame(fd, h.index, 102, fin, sizeof(fin));
            check(recv_frame(fd, 102, reply, sizeof(reply), 5.0) >= 0,
                  "spoof.honest: FINALIZE answered");
        }
        close(fd);
        if ((fd = raw_connect_unix()) >= 0) {
            h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
            check(accepted(&h) && req_answered(fd, h.index),
                  "spoof.honest.unix: the real uid over the Unix socket accepted, REQ answered");
            close(fd);
        }
    } else if (me.rank == 1) {
        /* registered with 4242, really running as getuid() */
        fd = raw_connect();
        h = handshake(fd, me.nspace, me.rank, 4242, 4242);
        closed = !accepted(&h) && wait_closed(fd, 3.0, &extra);
        check(!accepted(&h) && closed, "spoof.uid4242: claim of uid 4242 (registered 4242, real "
              "%u) refused and closed (%zu reply bytes, status %d)", (unsigned) getuid(), h.got,
              (int) h.status);
        if (accepted(&h)) {
            info_line("spoof.uid4242: ACCEPTED with index %u; REQ %s", h.index,
                      req_answered(fd, h.index) ? "answered" : "not answered");
        }
        close(fd);
        fd = raw_connect();
        h = handshake(fd, me.nspace, me.rank, getuid(), getgid());
        closed = !accepted(&h) && wait_closed(fd, 3.0, &extra);
        check(!accepted(&h) && closed, "spoof.unregistered: claim of the real uid %u (registered "
              "4242) refused and closed (%zu reply bytes, status %d)", (unsigned) getuid(), h.got,
              (int) h.status);
        close(fd);
        if ((fd = raw_connect_unix()) >= 0) {
            /* the server learns the real uid from SO_PEERCRED here */
            h = handshake(fd, me.nspace, me.rank, 4242, 4242);
            closed = !accepted(&h) && wait_closed(fd, 3.0, &extra);
            check(!accepted(&h) && closed, "spoof.uid4242.unix: claim of uid 4242 over the Unix "
                  "socket refused and closed (%zu reply bytes, status %d)", h.got, (int) h.status);
            close(fd);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * memory
 * ------------------------------------------------------------------------------------------ */

/* The peer's value of cycle i. After the fence of cycle i the peer may already have committed
 * its value of cycle i + 1, so either is right. */
static bool peer_value_ok(pmix_rank_t peer, int i, bool refresh, pmix_status_t *rc)
{
    char want[300];
    int c;
    for (c = i; c <= i + 1; c++) {
        snprintf(want, sizeof(want), "%0250d-%u-%d", 0, peer, c);
        *rc = get_string(peer, "fault.mem", want, refresh);
        if (*rc != PMIX_ERR_BAD_PARAM) {
            return *rc == PMIX_SUCCESS;
        }
        if (!refresh) {
            /* served from the cache: the value of an earlier cycle */
            *rc = PMIX_SUCCESS;
            return true;
        }
    }
    return false;
}

static int scenario_memory(void)
{
    const int cycles = 1000, first = 100;
    long self100 = -1, host100 = -1, self_end, host_end;
    pid_t host = getppid();
    int i;
    bool ok = true, refresh = true;
    pmix_status_t rc = PMIX_SUCCESS;
    char val[300];
    pmix_rank_t peer;
    double t0 = now();
    init();
    peer = (me.rank + 1) % nprocs;
    for (i = 1; i <= cycles && ok; i++) {
        /* the same key every cycle with a new value of ~256 bytes */
        snprintf(val, sizeof(val), "%0250d-%u-%d", 0, me.rank, i);
        if ((rc = put_string("fault.mem", val)) != PMIX_SUCCESS
            || (rc = PMIx_Commit()) != PMIX_SUCCESS
            || (rc = fence_procs(NULL, 0, true, 0)) != PMIX_SUCCESS) {
            ok = false;
            break;
        }
        /* PMIX_GET_REFRESH_CACHE makes every cycle's get go to the server (the reference
         * answers NOT_FOUND to it for a local peer: then plain gets, which after the first
         * cycle the client answers from its cache) */
        if (!peer_value_ok(peer, i, refresh, &rc)) {
            if (refresh && i == 1 && rc == PMIX_ERR_NOT_FOUND) {
                info_line("memory: PMIx_Get with PMIX_GET_REFRESH_CACHE of the peer's key: "
                          "NOT-FOUND; using plain PMIx_Get (cached after cycle 1)");
                refresh = false;
                ok = peer_value_ok(peer, i, refresh, &rc);
            } else {
                ok = false;
            }
        }
        if (i == first) {
            self100 = vm_rss_kb(getpid());
            host100 = vm_rss_kb(host);
        }
    }
    self_end = vm_rss_kb(getpid());
    host_end = vm_rss_kb(host);
    check(ok, "memory: %d cycles of put/commit/fence(collect)/get%s of the peer's new value "
          "(%s at cycle %d) in %.1f s", cycles, refresh ? "(refresh)" : "", PMIx_Error_string(rc),
          i - 1, now() - t0);
    if (!ok) {
        /* the peer waits in a fence we will not enter: leave without finalizing */
        exit(1);
    }
    info_line("memory: client VmRSS %ld kB after cycle %d, %ld kB after cycle %d (%+ld kB)",
              self100, first, self_end, cycles, self_end - self100);
    check(self_end - self100 < 2048, "memory: client RSS growth %+ld kB < 2048 kB",
          self_end - self100);
    if (me.rank == 0) {
        info_line("memory: host VmRSS %ld kB after cycle %d, %ld kB after cycle %d (%+ld kB)",
                  host100, first, host_end, cycles, host_end - host100);
        check(host_end - host100 < 2048, "memory: host RSS growth %+ld kB < 2048 kB",
              host_end - host100);
    }
    finalize();
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    char pidfile[64];
    setvbuf(stdout, NULL, _IONBF, 0);
    fault_dir = getenv("FAULT_DIR");
    if (argc < 2 || fault_dir == NULL) {
        fprintf(stderr, "usage: FAULT_DIR=dir fclient SCENARIO\n");
        return 2;
    }
    /* leave our pid for run.sh, which kills whatever is left at the end */
    snprintf(pidfile, sizeof(pidfile), "pids/%d", (int) getpid());
    touch("%s", pidfile);
    if (strcmp(argv[1], "garbage") == 0) {
        return scenario_garbage();
    } else if (strcmp(argv[1], "killfence") == 0) {
        return scenario_killfence();
    } else if (strcmp(argv[1], "timeouts") == 0) {
        return scenario_timeouts();
    } else if (strcmp(argv[1], "spoof") == 0) {
        return scenario_spoof();
    } else if (strcmp(argv[1], "memory") == 0) {
        return scenario_memory();
    }
    fprintf(stderr, "fclient: unknown scenario %s\n", argv[1]);
    return 2;
}
