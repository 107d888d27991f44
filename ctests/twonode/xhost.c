/* xhost: a PMIx host ("resource manager") that plays one of two nodes, written on the public
 * server API only (pmix_server.h), so that it runs unchanged over the reference OpenPMIx
 * library and over ours. Two xhost processes, node A and node B, make one job: each runs a
 * PMIx server (one PMIx_server_init per process) for the ranks placed on its node, and the two
 * hosts carry fences, direct-modex requests, events and aborts between them over a Unix
 * socket, as Slurm's mpi/pmix plugin or PRRTE's daemons do between real nodes.
 *
 * usage: xhost -node A|B -link PATH [-n N] [-t SECONDS] [--] client_prog args...
 *
 *   -node A|B   which node this process plays: A listens on PATH, B connects to it
 *   -link PATH  the Unix socket between the two hosts
 *   -n N        ranks in the job (default 4), block placement: ranks 0..ceil(N/2)-1 on node A
 *               ("nodeA", node id 0), the others on node B ("nodeB", node id 1)
 *   -t SECONDS  watchdog: kill every child and exit 124 after this long (default 60)
 *
 * Both hosts register the same namespace "xtwo" with the job information a real RM gives:
 * sizes, PMIX_NODE_MAP and PMIX_PROC_MAP (PMIx_generate_regex/ppn), PMIX_NUM_NODES, the local
 * peers and size of the own node, a PMIX_NODE_INFO_ARRAY for each of the two nodes and
 * PMIX_PROC_DATA for every rank of the job (local rank, node rank, node id, hostname). Each
 * server is started with PMIX_HOSTNAME and PMIX_NODEID of its node; both run on one machine,
 * so each host must be given its own TMPDIR (rendezvous files, sockets).
 *
 * Start-up: register the namespace and the local clients, tell the other host READY, wait
 * for its READY, then fork the local clients (each registered just before, with
 * XHOST_REGISTER=one-by-one) (so that no request of one node can reach the
 * other before the job exists there). A client gets XTWO_NODE=<its node name> in its
 * environment besides what PMIx_server_setup_fork gives.
 *
 * Upcalls:
 *   fence_nb      the local contribution is sent to the other host (when the other node hosts
 *                 a participant); once both nodes' contributions are in, the fence is answered
 *                 with their concatenation in node order (A's, then B's), as Slurm and PRRTE
 *                 do (XHOST_FENCE_ORDER=BA: B's first; the contract does not fix an order).
 *                 Fences are matched across the hosts by their sorted participant list and
 *                 a sequence number per list. A fence the other node has not joined within
 *                 PMIX_TIMEOUT (from the fence's info; 10 s without it) is answered
 *                 PMIX_ERR_TIMEOUT; if the link to the other host is lost, PMIX_ERR_UNREACH.
 *   direct_modex  the request (proc) goes to the other host, which asks its library with
 *                 PMIx_server_dmodex_request and sends the answer (status, bytes) back; the
 *                 requester's host answers the upcall with them, or with PMIX_ERR_TIMEOUT
 *                 after PMIX_TIMEOUT (from the request's info; 10 s without it): the
 *                 reference's server leaves the timeout of a Get it forwards to the host.
 *   notify_event  the event (code, source, range, info of simple types and arrays of procs,
 *                 e.g. PMIX_EVENT_CUSTOM_RANGE) goes to the other host, which calls
 *                 PMIx_Notify_event with it; events of range PMIX_RANGE_LOCAL,
 *                 PMIX_RANGE_PROC_LOCAL or PMIX_RANGE_RM (for the host itself: ours reports
 *                 a lost client so) stay on the node. The upcall answers
 *                 PMIX_OPERATION_SUCCEEDED: the reference's server must never have that
 *                 cbfunc called (ctests/session/host.c, notify_event).
 *   abort         kills the named local processes (none named: the whole job) and asks the
 *                 other host to do the same with its own.
 *   client_connected, client_finalized, register_events, deregister_events: answered
 *                 SUCCESS.
 *
 * Threads. The library calls the upcalls on its progress thread; the link thread reads the
 * other host's messages and calls the library's asynchronous server API for them
 * (PMIx_server_dmodex_request, PMIx_Notify_event); the main thread launches and reaps the
 * clients and expires fences and direct-modex requests. Every library callback is called
 * from the answer thread (ctests/hostkit.h), never from inside the upcall that received it (the reference
 * mishandles some inline answers), and no lock of this host is held while the library is
 * called.
 *
 * Variants (environment): XHOST_FENCE_ORDER=BA concatenates fence data in the other order
 * (B's first); XHOST_REGISTER=lean registers the job as Slurm does: no PMIX_NODE_INFO_ARRAY,
 * no PMIX_NODEID or PMIX_HOSTNAME in the per-rank data (the maps say where every rank is);
 * XHOST_REGISTER=one-by-one registers each local client just before forking it, 0.5 s
 * apart, instead of all of them before the first fork.
 *
 * Exit: once every local client has exited and the other host said so of its own (or the
 * link is gone), the host deregisters, finalizes and exits with the first non-zero exit code
 * of a local client (128+signal when signalled), else 0; 124 on the watchdog; 1 on an error
 * of its own (described on stderr). Each child's pid is written to $XHOST_PIDS (if set), one
 * per line, so that the launcher can stop them whatever happens to the host.
 * HOST_DEBUG=1 traces upcalls and link messages on stderr.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

#include "../hostkit.h"

extern char **environ;

#define NSPACE "xtwo"
#define DEFAULT_TIMEOUT 10

/* ---------------------------------------------------------------------------------------------
 * State
 * ------------------------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    uint32_t id;
    pmix_rank_t first, count;   /* ranks first .. first+count-1 */
} node_t;

static node_t nodes[2] = {{"nodeA", 0, 0, 0}, {"nodeB", 1, 0, 0}};
static pmix_nspace_t job_nspace;  /* NSPACE */
static int me = -1;             /* index of this host's node in nodes[] */
static pmix_rank_t nprocs = 4;
static bool debug;
static bool reverse_order;      /* XHOST_FENCE_ORDER=BA */
static bool lean;               /* XHOST_REGISTER=lean */
static bool one_by_one;         /* XHOST_REGISTER=one-by-one */
static const char *gds_var = "PMIX_MCA_gds";

/* local children, indexed by local rank */
typedef struct {
    pid_t pid;
    bool reaped;
} child_t;
static child_t *children;

/* A fence of the host: one per (participant list, sequence number) */
typedef struct fence {
    char *sig;                  /* sorted participant list */
    uint32_t seq;
    bool have[2];               /* contribution of node A, B arrived */
    char *data[2];
    size_t ndata[2];
    bool want[2];               /* node A, B host a participant */
    pmix_modex_cbfunc_t cbfunc; /* the local upcall's */
    void *cbdata;
    double deadline;
    bool done;                  /* answered (kept so that a late contribution is dropped) */
    struct fence *next;
} fence_t;

/* per participant list: the number of local fences seen so far */
typedef struct seqno {
    char *sig;
    uint32_t next;
    struct seqno *nextp;
} seqno_t;

/* a direct-modex request sent to the other host */
typedef struct dmdx {
    uint32_t id;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    double deadline;
    struct dmdx *next;
} dmdx_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;  /* READY, DONE, link state */
static fence_t *fences;
static seqno_t *seqnos;
static dmdx_t *dmdxs;
static uint32_t next_dmdx_id = 1;
static bool peer_ready, peer_done, link_lost;
static int first_failure;

/* the link to the other host; writes are serialized by link_lock */
static int link_fd = -1;
static pthread_mutex_t link_lock = PTHREAD_MUTEX_INITIALIZER;

/* signal handlers kill the children without taking a lock */
#define MAX_PIDS 256
static volatile pid_t all_pids[MAX_PIDS];
static volatile sig_atomic_t npids;

static void trace(const char *fmt, ...)
{
    va_list ap;
    if (!debug) {
        return;
    }
    va_start(ap, fmt);
    fprintf(stderr, "xhost %s[debug]: ", me >= 0 ? nodes[me].name : "?");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static void complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xhost %s: ", me >= 0 ? nodes[me].name : "?");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) {
        complain("out of memory");
        exit(1);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL) {
        complain("out of memory");
        exit(1);
    }
    return p;
}

static int node_of(pmix_rank_t r)
{
    return r < nodes[1].first ? 0 : 1;
}

/* ---------------------------------------------------------------------------------------------
 * The link between the two hosts: frames of {uint32 type, uint32 length, payload}
 * ------------------------------------------------------------------------------------------ */

enum {
    MSG_READY = 1,     /* (nothing) the job is registered here */
    MSG_DONE,          /* (nothing) every local client has exited */
    MSG_FENCE,         /* sig, seq, data */
    MSG_DMDX_REQ,      /* id, nspace, rank */
    MSG_DMDX_REP,      /* id, status, data */
    MSG_EVENT,         /* code, source nspace, source rank, range, ninfo, infos */
    MSG_KILL,          /* (nothing) kill every local client (an abort on the other node) */
};

typedef struct {
    char *buf;
    size_t len, cap;
} wbuf_t;

static void put_raw(wbuf_t *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->buf = realloc(b->buf, b->cap);
        if (b->buf == NULL) {
            complain("out of memory");
            exit(1);
        }
    }
    memcpy(b->buf + b->len, p, n);
    b->len += n;
}

static void put_u32(wbuf_t *b, uint32_t v)
{
    put_raw(b, &v, sizeof(v));
}

static void put_bytes(wbuf_t *b, const void *p, size_t n)
{
    put_u32(b, (uint32_t) n);
    if (n > 0) {
        put_raw(b, p, n);
    }
}

static void put_str(wbuf_t *b, const char *s)
{
    put_bytes(b, s, strlen(s) + 1);
}

typedef struct {
    const char *p;
    size_t left;
    bool bad;
} rbuf_t;

static const void *get_raw(rbuf_t *b, size_t n)
{
    const char *p = b->p;
    if (b->bad || b->left < n) {
        b->bad = true;
        return NULL;
    }
    b->p += n;
    b->left -= n;
    return p;
}

static uint32_t get_u32(rbuf_t *b)
{
    uint32_t v = 0;
    const void *p = get_raw(b, sizeof(v));
    if (p != NULL) {
        memcpy(&v, p, sizeof(v));
    }
    return v;
}

static const char *get_bytes(rbuf_t *b, size_t *n)
{
    *n = get_u32(b);
    return get_raw(b, *n);
}

static const char *get_str(rbuf_t *b)
{
    size_t n;
    const char *s = get_bytes(b, &n);
    if (s == NULL || n == 0 || s[n - 1] != '\0') {
        b->bad = true;
        return "";
    }
    return s;
}

static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return false;
        }
        c += w;
        n -= (size_t) w;
    }
    return true;
}

static bool read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return false;
        }
        c += r;
        n -= (size_t) r;
    }
    return true;
}

/* Send one message; false if the link is gone. Takes only link_lock. */
static bool link_send(uint32_t type, const wbuf_t *payload)
{
    uint32_t hdr[2] = {type, payload ? (uint32_t) payload->len : 0};
    bool ok;
    pthread_mutex_lock(&link_lock);
    ok = link_fd >= 0 && write_all(link_fd, hdr, sizeof(hdr))
         && (payload == NULL || payload->len == 0
             || write_all(link_fd, payload->buf, payload->len));
    pthread_mutex_unlock(&link_lock);
    if (!ok) {
        trace("link: cannot send message %u", type);
    }
    return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Fences
 * ------------------------------------------------------------------------------------------ */

static char *fence_signature(const pmix_proc_t procs[], size_t n)
{
    pmix_proc_t *sorted = xmalloc(n * sizeof(pmix_proc_t));
    char *sig = xmalloc(16 + n * (PMIX_MAX_NSLEN + 16)), *p = sig;
    size_t i;
    memcpy(sorted, procs, n * sizeof(pmix_proc_t));
    qsort(sorted, n, sizeof(pmix_proc_t), cmp_proc);
    for (i = 0; i < n; i++) {
        if (sorted[i].rank == PMIX_RANK_WILDCARD) {
            p += sprintf(p, "%s:*,", sorted[i].nspace);
        } else {
            p += sprintf(p, "%s:%u,", sorted[i].nspace, sorted[i].rank);
        }
    }
    free(sorted);
    return sig;
}

/* Must be called with `lock` held. */
static fence_t *fence_find(const char *sig, uint32_t seq)
{
    fence_t *f;
    for (f = fences; f != NULL; f = f->next) {
        if (f->seq == seq && strcmp(f->sig, sig) == 0) {
            return f;
        }
    }
    f = xmalloc(sizeof(*f));
    f->sig = xstrdup(sig);
    f->seq = seq;
    f->next = fences;
    fences = f;
    return f;
}

/* If `f` is complete, mark it done and post its answer. Must be called with `lock` held
 * (posting an answer takes only answer_lock). */
static void fence_check(fence_t *f)
{
    char *all;
    size_t n;
    int i, first;
    if (f->done || f->cbfunc == NULL) {
        return;
    }
    for (i = 0; i < 2; i++) {
        if (f->want[i] && !f->have[i]) {
            return;
        }
    }
    n = f->ndata[0] + f->ndata[1];
    all = n > 0 ? xmalloc(n) : NULL;
    first = reverse_order ? 1 : 0;
    if (f->ndata[first] > 0) {
        memcpy(all, f->data[first], f->ndata[first]);
    }
    if (f->ndata[1 - first] > 0) {
        memcpy(all + f->ndata[first], f->data[1 - first], f->ndata[1 - first]);
    }
    trace("fence %s#%u complete: %zu + %zu bytes", f->sig, f->seq, f->ndata[0], f->ndata[1]);
    f->done = true;
    answer_modex(f->cbfunc, f->cbdata, PMIX_SUCCESS, all, n);
}

static void fence_fail(fence_t *f, pmix_status_t status)
{
    if (f->done || f->cbfunc == NULL) {
        return;
    }
    /* (called with `lock` held: no library call, not even PMIx_Error_string) */
    complain("fence %s#%u failed: %s", f->sig, f->seq,
             status == PMIX_ERR_TIMEOUT ? "timeout" : "the other host is gone");
    f->done = true;
    answer_modex(f->cbfunc, f->cbdata, status, NULL, 0);
}

static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs_in, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    char *sig = fence_signature(procs, nprocs_in);
    int timeout = DEFAULT_TIMEOUT;
    bool want[2] = {false, false};
    seqno_t *s;
    fence_t *f;
    uint32_t seq;
    size_t n;
    wbuf_t b = {0};

    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_TIMEOUT) && info[n].value.type == PMIX_INT
            && info[n].value.data.integer > 0) {
            timeout = info[n].value.data.integer;
        }
    }
    for (n = 0; n < nprocs_in; n++) {
        if (!PMIX_CHECK_NSPACE(procs[n].nspace, NSPACE) || procs[n].rank == PMIX_RANK_WILDCARD) {
            want[0] = want[1] = true;   /* another namespace: assume it spans both nodes */
        } else if (procs[n].rank < nprocs) {
            want[node_of(procs[n].rank)] = true;
        }
    }
    want[me] = true;
    trace("fence_nb %s: %zu bytes, %zu infos, timeout %d s, other node %s", sig, ndata, ninfo,
          timeout, want[1 - me] ? "takes part" : "does not");

    pthread_mutex_lock(&lock);
    for (s = seqnos; s != NULL && strcmp(s->sig, sig) != 0; s = s->nextp) {
    }
    if (s == NULL) {
        s = xmalloc(sizeof(*s));
        s->sig = xstrdup(sig);
        s->nextp = seqnos;
        seqnos = s;
    }
    seq = s->next++;
    f = fence_find(sig, seq);
    f->want[0] = want[0];
    f->want[1] = want[1];
    f->have[me] = true;
    f->ndata[me] = ndata;
    if (ndata > 0) {
        f->data[me] = xmalloc(ndata);
        memcpy(f->data[me], data, ndata);
    }
    f->cbfunc = cbfunc;
    f->cbdata = cbdata;
    f->deadline = now() + timeout;
    if (want[1 - me] && link_lost) {
        fence_fail(f, PMIX_ERR_UNREACH);
    }
    pthread_mutex_unlock(&lock);

    if (want[1 - me]) {
        put_str(&b, sig);
        put_u32(&b, seq);
        put_bytes(&b, data, ndata);
        link_send(MSG_FENCE, &b);
        free(b.buf);
    }
    pthread_mutex_lock(&lock);
    fence_check(f);
    pthread_mutex_unlock(&lock);
    free(sig);
    return PMIX_SUCCESS;
}

/* the other node's contribution */
static void on_fence(rbuf_t *b)
{
    const char *sig = get_str(b);
    uint32_t seq = get_u32(b);
    size_t n;
    const char *data = get_bytes(b, &n);
    fence_t *f;
    if (b->bad) {
        complain("link: bad FENCE message");
        return;
    }
    trace("link: fence %s#%u from the other node, %zu bytes", sig, seq, n);
    pthread_mutex_lock(&lock);
    f = fence_find(sig, seq);
    if (f->have[1 - me]) {
        complain("link: second contribution to fence %s#%u", sig, seq);
    } else if (f->done) {
        trace("fence %s#%u was already answered: contribution dropped", sig, seq);
    } else {
        f->have[1 - me] = true;
        f->ndata[1 - me] = n;
        if (n > 0) {
            f->data[1 - me] = xmalloc(n);
            memcpy(f->data[1 - me], data, n);
        }
        fence_check(f);
    }
    pthread_mutex_unlock(&lock);
}

/* ---------------------------------------------------------------------------------------------
 * Direct modex
 * ------------------------------------------------------------------------------------------ */

static pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                  pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    dmdx_t *d;
    wbuf_t b = {0};
    int timeout = DEFAULT_TIMEOUT;
    size_t n;
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_TIMEOUT) && info[n].value.type == PMIX_INT
            && info[n].value.data.integer > 0) {
            timeout = info[n].value.data.integer;
        }
    }
    trace("direct_modex %s:%u (%zu infos, timeout %d s)", proc->nspace, proc->rank, ninfo,
          timeout);
    if (!PMIX_CHECK_NSPACE(proc->nspace, NSPACE) || proc->rank >= nprocs
        || node_of(proc->rank) == me) {
        /* not a process of the other node: nobody else to ask */
        answer_modex(cbfunc, cbdata, PMIX_ERR_NOT_FOUND, NULL, 0);
        return PMIX_SUCCESS;
    }
    d = xmalloc(sizeof(*d));
    d->cbfunc = cbfunc;
    d->cbdata = cbdata;
    d->deadline = now() + timeout;
    pthread_mutex_lock(&lock);
    if (link_lost) {
        pthread_mutex_unlock(&lock);
        free(d);
        answer_modex(cbfunc, cbdata, PMIX_ERR_UNREACH, NULL, 0);
        return PMIX_SUCCESS;
    }
    d->id = next_dmdx_id++;
    d->next = dmdxs;
    dmdxs = d;
    put_u32(&b, d->id);
    pthread_mutex_unlock(&lock);
    put_str(&b, proc->nspace);
    put_u32(&b, proc->rank);
    link_send(MSG_DMDX_REQ, &b);
    free(b.buf);
    return PMIX_SUCCESS;
}

/* the library's answer to a request of the other node: back to it */
static void dmdx_answered(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    uint32_t id = (uint32_t) (uintptr_t) cbdata;
    wbuf_t b = {0};
    trace("dmodex request #%u answered by the library: %s, %zu bytes", id,
          PMIx_Error_string(status), sz);
    put_u32(&b, id);
    put_u32(&b, (uint32_t) status);
    put_bytes(&b, data, sz);
    link_send(MSG_DMDX_REP, &b);
    free(b.buf);
}

/* the other node asks for the data of one of our processes */
static void on_dmdx_req(rbuf_t *b)
{
    uint32_t id = get_u32(b);
    const char *ns = get_str(b);
    pmix_rank_t rank = get_u32(b);
    pmix_proc_t proc;
    pmix_status_t rc;
    if (b->bad) {
        complain("link: bad DMDX_REQ message");
        return;
    }
    trace("link: dmodex request #%u for %s:%u", id, ns, rank);
    PMIX_LOAD_PROCID(&proc, ns, rank);
    rc = PMIx_server_dmodex_request(&proc, dmdx_answered, (void *) (uintptr_t) id);
    if (rc != PMIX_SUCCESS) {
        wbuf_t w = {0};
        trace("PMIx_server_dmodex_request %s:%u: %s", ns, rank, PMIx_Error_string(rc));
        put_u32(&w, id);
        put_u32(&w, (uint32_t) rc);
        put_bytes(&w, NULL, 0);
        link_send(MSG_DMDX_REP, &w);
        free(w.buf);
    }
}

/* the answer to one of our requests */
static void on_dmdx_rep(rbuf_t *b)
{
    uint32_t id = get_u32(b);
    pmix_status_t status = (pmix_status_t) get_u32(b);
    size_t n;
    const char *data = get_bytes(b, &n);
    dmdx_t *d, **pp;
    char *copy = NULL;
    if (b->bad) {
        complain("link: bad DMDX_REP message");
        return;
    }
    pthread_mutex_lock(&lock);
    for (pp = &dmdxs; *pp != NULL && (*pp)->id != id; pp = &(*pp)->next) {
    }
    d = *pp;
    if (d != NULL) {
        *pp = d->next;
    }
    pthread_mutex_unlock(&lock);
    trace("link: dmodex answer #%u: %s, %zu bytes", id, PMIx_Error_string(status), n);
    if (d == NULL) {
        /* timed out already */
        trace("link: answer to dmodex request #%u, no longer pending: dropped", id);
        return;
    }
    if (n > 0) {
        copy = xmalloc(n);
        memcpy(copy, data, n);
    }
    answer_modex(d->cbfunc, d->cbdata, status, copy, n);
    free(d);
}

/* ---------------------------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------------------------ */

/* Infos of simple types travel; others are left out (traced). */
static void put_info(wbuf_t *b, const pmix_info_t *in, uint32_t *count)
{
    const pmix_value_t *v = &in->value;
    wbuf_t one = {0};
    uint32_t t = v->type;
    put_str(&one, in->key);
    put_u32(&one, t);
    switch (v->type) {
    case PMIX_BOOL:
        put_u32(&one, v->data.flag ? 1 : 0);
        break;
    case PMIX_INT:
    case PMIX_INT32:
    case PMIX_STATUS:
        put_u32(&one, (uint32_t) v->data.int32);
        break;
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
        put_u32(&one, v->data.uint32);
        break;
    case PMIX_UINT16:
        put_u32(&one, v->data.uint16);
        break;
    case PMIX_UINT8:
    case PMIX_DATA_RANGE:
        put_u32(&one, v->data.uint8);
        break;
    case PMIX_SIZE:
    case PMIX_UINT64:
        put_raw(&one, &v->data.uint64, sizeof(uint64_t));
        break;
    case PMIX_STRING:
        put_str(&one, v->data.string ? v->data.string : "");
        break;
    case PMIX_PROC:
        put_str(&one, v->data.proc->nspace);
        put_u32(&one, v->data.proc->rank);
        break;
    case PMIX_DATA_ARRAY:
        if (v->data.darray != NULL && v->data.darray->type == PMIX_PROC) {
            const pmix_proc_t *procs = v->data.darray->array;
            size_t i;
            put_u32(&one, (uint32_t) v->data.darray->size);
            for (i = 0; i < v->data.darray->size; i++) {
                put_str(&one, procs[i].nspace);
                put_u32(&one, procs[i].rank);
            }
            break;
        }
        /* fall through */
    default:
        trace("notify_event: info %s of type %s not forwarded", in->key,
              PMIx_Data_type_string(v->type));
        free(one.buf);
        return;
    }
    put_raw(b, one.buf, one.len);
    free(one.buf);
    (*count)++;
}

static bool get_info(rbuf_t *b, pmix_info_t *out)
{
    const char *key = get_str(b);
    pmix_data_type_t t = (pmix_data_type_t) get_u32(b);
    uint32_t u;
    uint64_t u64 = 0;
    bool flag;
    uint16_t u16;
    uint8_t u8;
    pmix_proc_t proc;
    const void *p;
    const char *ns;
    if (b->bad) {
        return false;
    }
    switch (t) {
    case PMIX_BOOL:
        flag = get_u32(b) != 0;
        PMIX_INFO_LOAD(out, key, &flag, PMIX_BOOL);
        break;
    case PMIX_INT:
    case PMIX_INT32:
    case PMIX_STATUS:
    case PMIX_UINT32:
    case PMIX_PROC_RANK:
        u = get_u32(b);
        PMIX_INFO_LOAD(out, key, &u, t);
        break;
    case PMIX_UINT16:
        u16 = (uint16_t) get_u32(b);
        PMIX_INFO_LOAD(out, key, &u16, t);
        break;
    case PMIX_UINT8:
    case PMIX_DATA_RANGE:
        u8 = (uint8_t) get_u32(b);
        PMIX_INFO_LOAD(out, key, &u8, t);
        break;
    case PMIX_SIZE:
    case PMIX_UINT64:
        p = get_raw(b, sizeof(u64));
        if (p != NULL) {
            memcpy(&u64, p, sizeof(u64));
        }
        PMIX_INFO_LOAD(out, key, &u64, t);
        break;
    case PMIX_STRING:
        PMIX_INFO_LOAD(out, key, get_str(b), PMIX_STRING);
        break;
    case PMIX_PROC:
        ns = get_str(b);   /* PMIX_LOAD_NSPACE evaluates its argument twice */
        PMIX_LOAD_NSPACE(proc.nspace, ns);
        proc.rank = get_u32(b);
        PMIX_INFO_LOAD(out, key, &proc, PMIX_PROC);
        break;
    case PMIX_DATA_ARRAY: {   /* of PMIX_PROC */
        pmix_data_array_t darray;
        pmix_proc_t *procs;
        uint32_t n = get_u32(b), i;
        if (b->bad || n > 4096) {
            b->bad = true;
            break;
        }
        procs = xmalloc((n ? n : 1) * sizeof(pmix_proc_t));
        for (i = 0; i < n; i++) {
            ns = get_str(b);
            PMIX_LOAD_NSPACE(procs[i].nspace, ns);
            procs[i].rank = get_u32(b);
        }
        darray.type = PMIX_PROC;
        darray.size = n;
        darray.array = procs;
        PMIX_INFO_LOAD(out, key, &darray, PMIX_DATA_ARRAY);   /* copies */
        free(procs);
        break;
    }
    default:
        b->bad = true;
    }
    return !b->bad;
}

static pmix_status_t notify_event(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    wbuf_t b = {0}, infos = {0};
    uint32_t count = 0;
    size_t n;
    (void) cbfunc;
    (void) cbdata;
    trace("notify_event %d (%s) from %s:%u range %s, %zu infos", code, PMIx_Error_string(code),
          source->nspace, source->rank, PMIx_Data_range_string(range), ninfo);
    if (range == PMIX_RANGE_LOCAL || range == PMIX_RANGE_PROC_LOCAL || range == PMIX_RANGE_RM) {
        /* for this node, or for the host itself (ours tells it of a lost client this way) */
        return PMIX_OPERATION_SUCCEEDED;
    }
    for (n = 0; n < ninfo; n++) {
        trace("  info %s (%s)", info[n].key, PMIx_Data_type_string(info[n].value.type));
        put_info(&infos, &info[n], &count);
    }
    put_u32(&b, (uint32_t) code);
    put_str(&b, source->nspace);
    put_u32(&b, source->rank);
    put_u32(&b, range);
    put_u32(&b, count);
    if (infos.len > 0) {
        put_raw(&b, infos.buf, infos.len);
    }
    link_send(MSG_EVENT, &b);
    free(b.buf);
    free(infos.buf);
    /* the work is done: the library must not wait for the cbfunc (which the reference must
     * never see called) */
    return PMIX_OPERATION_SUCCEEDED;
}

/* the infos of a relayed event, kept until the library is done with them */
typedef struct {
    pmix_info_t *info;
    size_t ninfo;
} relayed_t;

static void relayed_free(relayed_t *e)
{
    if (e->info != NULL) {
        PMIX_INFO_FREE(e->info, e->ninfo);
    }
    free(e);
}

static void event_sent(pmix_status_t status, void *cbdata)
{
    trace("PMIx_Notify_event of a relayed event: %s", PMIx_Error_string(status));
    relayed_free(cbdata);
}

/* an event of the other node, for our clients */
static void on_event(rbuf_t *b)
{
    pmix_status_t code = (pmix_status_t) get_u32(b), rc;
    const char *ns = get_str(b);
    pmix_rank_t rank = get_u32(b);
    pmix_data_range_t range = (pmix_data_range_t) get_u32(b);
    uint32_t count = get_u32(b), i;
    pmix_info_t *info = NULL;
    pmix_proc_t source;
    relayed_t *e;
    if (b->bad || count > 1024) {
        complain("link: bad EVENT message");
        return;
    }
    if (count > 0) {
        PMIX_INFO_CREATE(info, count);
        for (i = 0; i < count; i++) {
            if (!get_info(b, &info[i])) {
                complain("link: bad info %u of %u in an EVENT message", i, count);
                PMIX_INFO_FREE(info, count);
                return;
            }
        }
    }
    PMIX_LOAD_PROCID(&source, ns, rank);
    trace("link: event %d from %s:%u range %s, %u infos", code, ns, rank,
          PMIx_Data_range_string(range), count);
    /* the infos must live until the library calls event_sent */
    e = xmalloc(sizeof(*e));
    e->info = info;
    e->ninfo = count;
    rc = PMIx_Notify_event(code, &source, range, info, count, event_sent, e);
    if (rc != PMIX_SUCCESS) {
        if (rc != PMIX_OPERATION_SUCCEEDED) {
            complain("PMIx_Notify_event of a relayed event: %s", PMIx_Error_string(rc));
        }
        relayed_free(e);   /* no callback comes */
    }
}

/* ---------------------------------------------------------------------------------------------
 * Other upcalls
 * ------------------------------------------------------------------------------------------ */

static void kill_local(void)
{
    sig_atomic_t n;
    for (n = 0; n < npids; n++) {
        kill(all_pids[n], SIGKILL);
    }
}

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
    (void) server_object;
    trace("client_finalized %s:%u", proc->nspace, proc->rank);
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

static pmix_status_t abort_fn(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t np,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    size_t n;
    bool remote = np == 0;
    (void) server_object;
    complain("abort from %s:%u status %d msg %s", proc->nspace, proc->rank, status,
             msg ? msg : "(null)");
    pthread_mutex_lock(&lock);
    if (first_failure == 0) {
        first_failure = status != 0 ? status : 1;
    }
    pthread_mutex_unlock(&lock);
    if (np == 0) {
        kill_local();
    }
    for (n = 0; n < np; n++) {
        if (procs[n].rank == PMIX_RANK_WILDCARD) {
            kill_local();
            remote = true;
        } else if (procs[n].rank < nprocs && node_of(procs[n].rank) == me) {
            pid_t pid = children[procs[n].rank - nodes[me].first].pid;
            if (pid > 0) {
                kill(pid, SIGKILL);
            }
        } else {
            remote = true;
        }
    }
    if (remote) {
        link_send(MSG_KILL, NULL);
    }
    answer_op(cbfunc, cbdata, PMIX_SUCCESS);
    return PMIX_SUCCESS;
}

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

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = abort_fn,
    .fence_nb = fence_nb,
    .direct_modex = direct_modex,
    .register_events = register_events,
    .deregister_events = deregister_events,
    .notify_event = notify_event,
};

/* ---------------------------------------------------------------------------------------------
 * The link thread
 * ------------------------------------------------------------------------------------------ */

static void *link_thread(void *arg)
{
    (void) arg;
    for (;;) {
        uint32_t hdr[2];
        char *payload = NULL;
        rbuf_t b;
        if (!read_all(link_fd, hdr, sizeof(hdr))) {
            break;
        }
        if (hdr[1] > (64u << 20)) {
            complain("link: message of %u bytes", hdr[1]);
            break;
        }
        if (hdr[1] > 0) {
            payload = xmalloc(hdr[1]);
            if (!read_all(link_fd, payload, hdr[1])) {
                free(payload);
                break;
            }
        }
        b.p = payload;
        b.left = hdr[1];
        b.bad = false;
        switch (hdr[0]) {
        case MSG_READY:
            trace("link: the other node is ready");
            pthread_mutex_lock(&lock);
            peer_ready = true;
            pthread_cond_broadcast(&cond);
            pthread_mutex_unlock(&lock);
            break;
        case MSG_DONE:
            trace("link: every client of the other node has exited");
            pthread_mutex_lock(&lock);
            peer_done = true;
            pthread_cond_broadcast(&cond);
            pthread_mutex_unlock(&lock);
            break;
        case MSG_FENCE:
            on_fence(&b);
            break;
        case MSG_DMDX_REQ:
            on_dmdx_req(&b);
            break;
        case MSG_DMDX_REP:
            on_dmdx_rep(&b);
            break;
        case MSG_EVENT:
            on_event(&b);
            break;
        case MSG_KILL:
            complain("the other node aborted the job: killing the local clients");
            kill_local();
            break;
        default:
            complain("link: unknown message %u", hdr[0]);
        }
        free(payload);
    }
    /* the other host is gone: nothing that waits for it will ever be answered */
    trace("link: closed by the other host");
    {
        fence_t *f;
        dmdx_t *d, *pending;
        pthread_mutex_lock(&lock);
        link_lost = true;
        for (f = fences; f != NULL; f = f->next) {
            if (f->want[1 - me] && !f->have[1 - me]) {
                fence_fail(f, PMIX_ERR_UNREACH);
            }
        }
        pending = dmdxs;
        dmdxs = NULL;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
        while ((d = pending) != NULL) {
            pending = d->next;
            answer_modex(d->cbfunc, d->cbdata, PMIX_ERR_UNREACH, NULL, 0);
            free(d);
        }
    }
    return NULL;
}

static int link_open(const char *path)
{
    struct sockaddr_un sa;
    int fd, i;
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(sa.sun_path)) {
        complain("link path too long: %s", path);
        return -1;
    }
    strcpy(sa.sun_path, path);
    if (me == 0) {
        struct pollfd pfd;
        int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        unlink(path);
        if (lfd < 0 || bind(lfd, (struct sockaddr *) &sa, sizeof(sa)) != 0 || listen(lfd, 1) != 0) {
            complain("link: listen on %s: %s", path, strerror(errno));
            return -1;
        }
        pfd.fd = lfd;
        pfd.events = POLLIN;
        if (poll(&pfd, 1, 20000) != 1) {
            complain("link: node B did not connect within 20 s");
            return -1;
        }
        fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        close(lfd);
        unlink(path);
        if (fd < 0) {
            complain("link: accept: %s", strerror(errno));
        }
        return fd;
    }
    for (i = 0; i < 400; i++) {   /* 20 s */
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0) {
            return fd;
        }
        if (fd >= 0) {
            close(fd);
        }
        usleep(50000);
    }
    complain("link: cannot connect to %s: %s", path, strerror(errno));
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Registration and launch (main thread)
 * ------------------------------------------------------------------------------------------ */

/* "first,first+1,..." of a node */
static char *peers_of(const node_t *nd)
{
    char *s = xmalloc(nd->count * 12 + 1), *p = s;
    pmix_rank_t r;
    for (r = 0; r < nd->count; r++) {
        p += sprintf(p, "%s%u", r ? "," : "", nd->first + r);
    }
    return s;
}

static void load_darray(pmix_info_t *info, const char *key, pmix_info_t *items, size_t n)
{
    pmix_data_array_t *darray;
    size_t i;
    PMIX_DATA_ARRAY_CREATE(darray, n, PMIX_INFO);
    for (i = 0; i < n; i++) {
        PMIx_Info_xfer(&((pmix_info_t *) darray->array)[i], &items[i]);
    }
    PMIX_LOAD_KEY(info->key, key);
    info->value.type = PMIX_DATA_ARRAY;
    info->value.data.darray = darray;   /* owned by info from now on */
}

static pmix_status_t register_client(pmix_rank_t r)
{
    pmix_proc_t proc;
    pmix_status_t rc;
    waiter_t w;
    PMIX_LOAD_PROCID(&proc, NSPACE, r);
    waiter_init(&w);
    rc = waiter_result(&w, PMIx_server_register_client(&proc, getuid(), getgid(), NULL,
                                                       waiter_op_cb, &w));
    if (rc != PMIX_SUCCESS) {
        complain("register_client %u: %s", r, PMIx_Error_string(rc));
    }
    return rc;
}

static pmix_status_t register_job(void)
{
    pmix_info_t *info, items[8];
    size_t ninfo = 20 + nprocs, k = 0, i;
    char *peers[2], *ppn_list, *regex = NULL, *ppn = NULL, hosts[64];
    uint32_t u32, zero = 0;
    pmix_rank_t r;
    pmix_status_t rc;
    waiter_t w;
    int nd;

    peers[0] = peers_of(&nodes[0]);
    peers[1] = peers_of(&nodes[1]);
    ppn_list = xmalloc(strlen(peers[0]) + strlen(peers[1]) + 2);
    sprintf(ppn_list, "%s;%s", peers[0], peers[1]);
    snprintf(hosts, sizeof(hosts), "%s,%s", nodes[0].name, nodes[1].name);
    if (PMIx_generate_regex(hosts, &regex) != PMIX_SUCCESS
        || PMIx_generate_ppn(ppn_list, &ppn) != PMIX_SUCCESS) {
        complain("PMIx_generate_regex/ppn failed");
        return PMIX_ERROR;
    }
    free(ppn_list);

    PMIX_INFO_CREATE(info, ninfo);
    info_load(&info[k++], PMIX_NSPACE, NSPACE, PMIX_STRING);
    info_load(&info[k++], PMIX_JOBID, NSPACE, PMIX_STRING);
    u32 = nprocs;
    info_load(&info[k++], PMIX_UNIV_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_JOB_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_MAX_PROCS, &u32, PMIX_UINT32);
    u32 = 2;
    info_load(&info[k++], PMIX_NUM_NODES, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_APPNUM, &zero, PMIX_UINT32);
    info_load(&info[k++], PMIX_NODE_MAP, regex, PMIX_REGEX);
    info_load(&info[k++], PMIX_PROC_MAP, ppn, PMIX_REGEX);
    /* the own node */
    u32 = nodes[me].count;
    info_load(&info[k++], PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
    info_load(&info[k++], PMIX_LOCAL_PEERS, peers[me], PMIX_STRING);
    info_load(&info[k++], PMIX_LOCALLDR, &nodes[me].first, PMIX_PROC_RANK);
    /* every node (not in the lean shape) */
    for (nd = 0; nd < 2 && !lean; nd++) {
        size_t m = 0;
        u32 = nodes[nd].count;
        info_load(&items[m++], PMIX_HOSTNAME, nodes[nd].name, PMIX_STRING);
        info_load(&items[m++], PMIX_NODEID, &nodes[nd].id, PMIX_UINT32);
        info_load(&items[m++], PMIX_LOCAL_PEERS, peers[nd], PMIX_STRING);
        info_load(&items[m++], PMIX_LOCAL_SIZE, &u32, PMIX_UINT32);
        info_load(&items[m++], PMIX_NODE_SIZE, &u32, PMIX_UINT32);
        info_load(&items[m++], PMIX_LOCALLDR, &nodes[nd].first, PMIX_PROC_RANK);
        load_darray(&info[k++], PMIX_NODE_INFO_ARRAY, items, m);
        for (i = 0; i < m; i++) {
            PMIX_INFO_DESTRUCT(&items[i]);
        }
    }
    /* every process of the job */
    for (r = 0; r < nprocs; r++) {
        const node_t *nd2 = &nodes[node_of(r)];
        uint16_t lrank = (uint16_t) (r - nd2->first);
        size_t m = 0;
        info_load(&items[m++], PMIX_RANK, &r, PMIX_PROC_RANK);
        info_load(&items[m++], PMIX_GLOBAL_RANK, &r, PMIX_PROC_RANK);
        info_load(&items[m++], PMIX_APPNUM, &zero, PMIX_UINT32);
        info_load(&items[m++], PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
        info_load(&items[m++], PMIX_NODE_RANK, &lrank, PMIX_UINT16);
        if (!lean) {
            info_load(&items[m++], PMIX_NODEID, &nd2->id, PMIX_UINT32);
            info_load(&items[m++], PMIX_HOSTNAME, nd2->name, PMIX_STRING);
        }
        load_darray(&info[k++], PMIX_PROC_DATA, items, m);
        for (i = 0; i < m; i++) {
            PMIX_INFO_DESTRUCT(&items[i]);
        }
    }
    free(peers[0]);
    free(peers[1]);
    free(regex);
    free(ppn);

    waiter_init(&w);
    rc = waiter_result(&w, PMIx_server_register_nspace(job_nspace, (int) nodes[me].count, info, k,
                                                       waiter_op_cb, &w));
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        complain("register_nspace: %s", PMIx_Error_string(rc));
        return rc;
    }
    for (r = nodes[me].first; r < nodes[me].first + nodes[me].count && !one_by_one; r++) {
        rc = register_client(r);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t launch(char **argv)
{
    pmix_rank_t l;
    for (l = 0; l < nodes[me].count; l++) {
        pmix_proc_t proc;
        size_t n = argv_len(environ), i, k = 0;
        char **env = xmalloc((n + 2) * sizeof(char *)), node_var[64];
        pmix_status_t rc;
        pid_t pid;
        const char *pidfile = getenv("XHOST_PIDS");

        for (i = 0; i < n; i++) {
            if (strncmp(environ[i], "PMIX_MCA_gds=", 13) != 0
                && strncmp(environ[i], "XHOST_PIDS=", 11) != 0) {
                env[k++] = xstrdup(environ[i]);
            }
        }
        snprintf(node_var, sizeof(node_var), "XTWO_NODE=%s", nodes[me].name);
        env[k++] = xstrdup(node_var);
        env[k] = NULL;
        PMIX_LOAD_PROCID(&proc, NSPACE, nodes[me].first + l);
        if (one_by_one) {
            if (l > 0) {
                usleep(500000);
            }
            rc = register_client(proc.rank);
            if (rc != PMIX_SUCCESS) {
                return rc;
            }
        }
        rc = PMIx_server_setup_fork(&proc, &env);
        if (rc != PMIX_SUCCESS) {
            complain("setup_fork %u: %s", proc.rank, PMIx_Error_string(rc));
            return rc;
        }
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            complain("fork: %s", strerror(errno));
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        if (pid == 0) {
            static const char msg[] = "xhost: exec failed\n";
            child_signals_default();
            execve(argv[0], argv, env);
            if (write(2, msg, sizeof(msg) - 1) < 0) {
                _exit(127);
            }
            _exit(127);
        }
        for (i = 0; env[i] != NULL; i++) {
            free(env[i]);
        }
        free(env);
        children[l].pid = pid;
        if (npids < MAX_PIDS) {
            all_pids[npids] = pid;
            npids = npids + 1;
        }
        if (pidfile != NULL) {
            FILE *f = fopen(pidfile, "a");
            if (f != NULL) {
                fprintf(f, "%d\n", (int) pid);
                fclose(f);
            }
        }
        trace("started rank %u, pid %d", proc.rank, (int) pid);
    }
    return PMIX_SUCCESS;
}

/* Reap exited children; true while one is alive. */
static bool reap(void)
{
    pmix_rank_t l;
    bool live = false;
    for (l = 0; l < nodes[me].count; l++) {
        int status;
        child_t *c = &children[l];
        if (c->pid <= 0 || c->reaped) {
            continue;
        }
        if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
            int code = WIFEXITED(status) ? WEXITSTATUS(status)
                       : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
            pmix_proc_t proc;
            waiter_t w;
            c->reaped = true;
            trace("rank %u (pid %d) exited with %d", nodes[me].first + l, (int) c->pid, code);
            if (code != 0) {
                complain("rank %u exited with code %d", nodes[me].first + l, code);
                pthread_mutex_lock(&lock);
                if (first_failure == 0) {
                    first_failure = code;
                }
                pthread_mutex_unlock(&lock);
            }
            /* the process is gone: the library must forget it */
            PMIX_LOAD_PROCID(&proc, NSPACE, nodes[me].first + l);
            waiter_init(&w);
            PMIx_server_deregister_client(&proc, waiter_op_cb, &w);
            waiter_result(&w, PMIX_SUCCESS);
        } else {
            live = true;
        }
    }
    return live;
}

static void on_fatal_signal(int sig)
{
    kill_local();
    if (sig == SIGALRM) {
        static const char msg[] = "xhost: watchdog expired, killing the clients\n";
        if (write(2, msg, sizeof(msg) - 1) < 0) {
            _exit(124);
        }
        _exit(124);
    }
    _exit(128 + sig);
}

static void usage(void)
{
    fprintf(stderr, "usage: xhost -node A|B -link PATH [-n N] [-t SECONDS] [--] client args...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *link_path = NULL, *tmpdir = getenv("TMPDIR");
    int timeout = 60, i, code;
    pthread_t link_tid;
    pmix_info_t *info;
    bool no = false, sent_done = false;
    pmix_status_t rc;
    fence_t *f;
    dmdx_t **dp;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-node") == 0 && i + 1 < argc) {
            i++;
            me = strcmp(argv[i], "A") == 0 ? 0 : strcmp(argv[i], "B") == 0 ? 1 : -1;
            if (me < 0) {
                usage();
            }
        } else if (strcmp(argv[i], "-link") == 0 && i + 1 < argc) {
            link_path = argv[++i];
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            nprocs = (pmix_rank_t) atoi(argv[++i]);
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
    if (i >= argc || me < 0 || link_path == NULL || nprocs < 2 || nprocs > 128) {
        usage();
    }
    debug = getenv("HOST_DEBUG") != NULL && strcmp(getenv("HOST_DEBUG"), "0") != 0;
    lean = getenv("XHOST_REGISTER") != NULL && strcmp(getenv("XHOST_REGISTER"), "lean") == 0;
    one_by_one = getenv("XHOST_REGISTER") != NULL
                 && strcmp(getenv("XHOST_REGISTER"), "one-by-one") == 0;
    reverse_order = getenv("XHOST_FENCE_ORDER") != NULL
                    && strcmp(getenv("XHOST_FENCE_ORDER"), "BA") == 0;
    if (tmpdir == NULL) {
        tmpdir = "/tmp";
    }
    PMIX_LOAD_NSPACE(job_nspace, NSPACE);
    nodes[0].count = (nprocs + 1) / 2;
    nodes[1].first = nodes[0].count;
    nodes[1].count = nprocs - nodes[0].count;
    children = xmalloc(nodes[me].count * sizeof(child_t));

    watchdog_signals(on_fatal_signal, timeout);

    /* The reference server advertises every gds component it has to its clients; restrict it
     * to "hash" so that clients of either library can read the job data it serves (the
     * clients do not inherit the variable). */
    if (strncmp(PMIx_Get_version(), "pmix-rs", 7) != 0) {
        /* (ours honours the parameter too, as OpenPMIx does: it would then offer its own
         * clients no mapped segment) */
        setenv(gds_var, "hash", 1);
    }

    PMIX_INFO_CREATE(info, 5);
    info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    info_load(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    info_load(&info[2], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    info_load(&info[3], PMIX_HOSTNAME, nodes[me].name, PMIX_STRING);
    info_load(&info[4], PMIX_NODEID, &nodes[me].id, PMIX_UINT32);
    rc = PMIx_server_init(&module, info, 5);
    PMIX_INFO_FREE(info, 5);
    if (rc != PMIX_SUCCESS) {
        complain("PMIx_server_init: %s", PMIx_Error_string(rc));
        return 1;
    }
    trace("server up (%s), ranks %u..%u of %u", PMIx_Get_version(), nodes[me].first,
          nodes[me].first + nodes[me].count - 1, nprocs);
    if (answers_start() != 0) {
        complain("cannot start the answer thread");
        return 1;
    }
    link_fd = link_open(link_path);
    if (link_fd < 0) {
        return 1;
    }
    if (pthread_create(&link_tid, NULL, link_thread, NULL) != 0) {
        complain("cannot start the link thread");
        return 1;
    }
    if (register_job() != PMIX_SUCCESS) {
        return 1;
    }
    link_send(MSG_READY, NULL);
    pthread_mutex_lock(&lock);
    while (!peer_ready && !link_lost) {
        pthread_cond_wait(&cond, &lock);
    }
    pthread_mutex_unlock(&lock);
    if (!peer_ready) {
        complain("the other host is gone before the job started");
        return 1;
    }
    if (launch(&argv[i]) != PMIX_SUCCESS) {
        kill_local();
        first_failure = 1;
    }

    /* reap the clients, expire fences; leave once ours are gone and so are the other's */
    for (;;) {
        bool live = reap();
        double t = now();
        struct timespec ts;
        pthread_mutex_lock(&lock);
        for (f = fences; f != NULL; f = f->next) {
            if (!f->done && f->cbfunc != NULL && t > f->deadline) {
                fence_fail(f, PMIX_ERR_TIMEOUT);
            }
        }
        for (dp = &dmdxs; *dp != NULL;) {
            dmdx_t *d = *dp;
            if (t > d->deadline) {
                complain("dmodex request #%u timed out", d->id);
                *dp = d->next;
                answer_modex(d->cbfunc, d->cbdata, PMIX_ERR_TIMEOUT, NULL, 0);
                free(d);
            } else {
                dp = &d->next;
            }
        }
        if (!live && !sent_done) {
            pthread_mutex_unlock(&lock);
            link_send(MSG_DONE, NULL);
            sent_done = true;
            continue;
        }
        if (!live && (peer_done || link_lost)) {
            pthread_mutex_unlock(&lock);
            break;
        }
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 10 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cond, &lock, &ts);
        pthread_mutex_unlock(&lock);
    }
    trace("every client of both nodes has exited");

    {
        waiter_t w;
        waiter_init(&w);
        PMIx_server_deregister_nspace(job_nspace, waiter_op_cb, &w);
        waiter_result(&w, PMIX_SUCCESS);
    }
    answers_finish();
    rc = PMIx_server_finalize();
    if (rc != PMIX_SUCCESS) {
        complain("PMIx_server_finalize: %s", PMIx_Error_string(rc));
    }
    /* the link thread ends when the other host closes its end; no need to wait for it */
    pthread_mutex_lock(&link_lock);
    shutdown(link_fd, SHUT_RDWR);
    pthread_mutex_unlock(&link_lock);
    pthread_join(link_tid, NULL);
    close(link_fd);

    pthread_mutex_lock(&lock);
    code = first_failure;
    while (fences != NULL) {
        f = fences;
        fences = f->next;
        free(f->sig);
        free(f->data[0]);
        free(f->data[1]);
        free(f);
    }
    while (seqnos != NULL) {
        seqno_t *s = seqnos;
        seqnos = s->nextp;
        free(s->sig);
        free(s);
    }
    pthread_mutex_unlock(&lock);
    free(children);
    return code;
}
