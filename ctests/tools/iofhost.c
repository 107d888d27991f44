/* A server that forwards output to a tool (PMIx_server_IOF_deliver), for checking that every
 * byte arrives, in order, and that the library never reads a delivered buffer after its
 * callback. Tool support as in thost.c, an iof_pull upcall that accepts at once (the reference
 * refuses a tool's pull without one), a one-rank namespace "iofsrc" as the source. Once the
 * tool has created READYFILE (its pull is registered), it delivers NPIECES pieces of stdout
 * from WINDOW buffers, each reused only after its callback, which overwrites it with 0xEE at
 * once; then the end of the stream (PMIX_IOF_COMPLETE, no bytes). Piece i has piece_len(i)
 * bytes, byte j of it is piece_byte(i, j) (the tool checks them: iofpull.c). Serves until
 * SIGTERM (or 60 s), then finalizes. Prints what it did; exits 1 on a failed call.
 * usage: iofhost PIDFILE READYFILE */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <pmix.h>
#include <pmix_server.h>

#include "iofpattern.h"

#define WINDOW 4

static volatile sig_atomic_t stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int busy[WINDOW + 1], released, failed_cb;
static unsigned char *bufs[WINDOW];
static size_t lens[WINDOW];
/* The byte objects too are kept until their callback (the reference reads them later). */
static pmix_byte_object_t bos[WINDOW + 1];

static void on_term(int sig) { (void) sig; stop = 1; }

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    pmix_proc_t p;
    (void) info; (void) ninfo;
    PMIX_LOAD_PROCID(&p, "iofhost-tool", 0);
    if (cbfunc) cbfunc(PMIX_SUCCESS, &p, cbdata);
}

static pmix_status_t iof_pull(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t directives[], size_t ndirs,
                              pmix_iof_channel_t channels, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void) procs; (void) nprocs; (void) directives; (void) ndirs; (void) channels;
    (void) cbfunc; (void) cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

/* cbdata: the slot (WINDOW for the end mark). The buffer is the library's no more: spoil it. */
static void delivered(pmix_status_t status, void *cbdata)
{
    int slot = (int) (intptr_t) cbdata;
    pthread_mutex_lock(&lock);
    if (slot < WINDOW) {
        memset(bufs[slot], 0xEE, lens[slot]);
    }
    if (status != PMIX_SUCCESS) failed_cb++;
    busy[slot] = 0;
    released++;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

static void registered(pmix_status_t status, void *cbdata)
{
    (void) status;
    pthread_mutex_lock(&lock);
    *(int *) cbdata = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

int main(int argc, char **argv)
{
    pmix_server_module_t module;
    pmix_info_t info[5], job[2], done;
    pmix_proc_t src;
    pmix_nspace_t ns;
    bool yes = true, no = false;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    uint32_t one = 1;
    int i, slot, reg_done = 0;
    long long total = 0;
    pmix_status_t rc;
    FILE *f;
    if (argc < 3) {
        fprintf(stderr, "usage: iofhost PIDFILE READYFILE\n");
        return 2;
    }
    memset(&module, 0, sizeof(module));
    module.tool_connected = tool_connected;
    module.iof_pull = iof_pull;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[4], PMIX_SERVER_NSPACE, "iofhost", PMIX_STRING);
    setenv("PMIX_MCA_gds", "hash", 1);
    if (PMIX_SUCCESS != PMIx_server_init(&module, info, 5)) {
        fprintf(stderr, "iofhost: server init failed\n");
        return 1;
    }
    signal(SIGTERM, on_term);
    PMIX_INFO_LOAD(&job[0], PMIX_JOB_SIZE, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[1], PMIX_LOCAL_SIZE, &one, PMIX_UINT32);
    PMIX_LOAD_NSPACE(ns, "iofsrc");
    rc = PMIx_server_register_nspace(ns, 1, job, 2, registered, &reg_done);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        fprintf(stderr, "iofhost: register_nspace: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pthread_mutex_lock(&lock);
    while (rc == PMIX_SUCCESS && !reg_done) pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    for (i = 0; i < WINDOW; i++) bufs[i] = malloc(PIECE_MAX);
    if (NULL != (f = fopen(argv[1], "w"))) {
        fprintf(f, "%d\n", (int) getpid());
        fclose(f);
    }
    for (i = 0; i < 600 && !stop && access(argv[2], F_OK) != 0; i++) usleep(100000);
    if (access(argv[2], F_OK) != 0) {
        fprintf(stderr, "iofhost: no tool\n");
        return 1;
    }
    PMIX_LOAD_PROCID(&src, "iofsrc", 0);
    for (i = 0; i < NPIECES; i++) {
        size_t j;
        slot = i % WINDOW;
        pthread_mutex_lock(&lock);
        while (busy[slot]) pthread_cond_wait(&cond, &lock);
        busy[slot] = 1;
        lens[slot] = piece_len(i);
        pthread_mutex_unlock(&lock);
        for (j = 0; j < lens[slot]; j++) bufs[slot][j] = piece_byte(i, j);
        bos[slot].bytes = (char *) bufs[slot];
        bos[slot].size = lens[slot];
        rc = PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bos[slot], NULL, 0,
                                     delivered, (void *) (intptr_t) slot);
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "iofhost: IOF_deliver %d: %s\n", i, PMIx_Error_string(rc));
            return 1;
        }
        total += (long long) lens[slot];
    }
    PMIX_INFO_LOAD(&done, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
    busy[WINDOW] = 1;
    rc = PMIx_server_IOF_deliver(&src, PMIX_FWD_STDOUT_CHANNEL, &bos[WINDOW], &done, 1,
                                 delivered, (void *) (intptr_t) WINDOW);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "iofhost: IOF_deliver (end): %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pthread_mutex_lock(&lock);
    while (released < NPIECES + 1) pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    printf("iofhost: delivered %d pieces, %lld bytes; %d callbacks, %d failed\n", NPIECES, total,
           released, failed_cb);
    fflush(stdout);
    for (i = 0; i < 600 && !stop; i++) usleep(100000);
    PMIx_server_finalize();
    return failed_cb ? 1 : 0;
}
