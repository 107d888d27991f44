/* A tool that pulls the stdout of iofhost.c's namespace (PMIx_IOF_pull with REDIRECT and a
 * handler) and checks it as one stream against iofpattern.h: every byte, in order, then the
 * end of the stream (PMIX_IOF_COMPLETE). The handler sleeps 300 ms once, early, so that the
 * output waits in the server for a tool that reads nothing for a while. Prints the bytes
 * received and the first wrong one, if any; exits 1 unless all arrived intact.
 * usage: iofpull <server pid> READYFILE */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pmix_tool.h>

#include "iofpattern.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int piece, complete, calls;
static size_t offset;
static long long got, bad_at = -1;

static void handler(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                    pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    size_t n, k;
    (void) iofhdlr; (void) channel; (void) source;
    pthread_mutex_lock(&lock);
    if (++calls == 3) {
        usleep(300000);
    }
    if (payload != NULL && payload->size > 0) {
        const unsigned char *b = (const unsigned char *) payload->bytes;
        for (k = 0; k < payload->size; k++) {
            if (bad_at < 0 && (piece >= NPIECES || b[k] != piece_byte(piece, offset))) {
                bad_at = got + (long long) k;
            }
            if (piece < NPIECES && ++offset == piece_len(piece)) {
                piece++;
                offset = 0;
            }
        }
        got += (long long) payload->size;
    }
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_IOF_COMPLETE) && PMIX_INFO_TRUE(&info[n])) {
            complete = 1;
            pthread_cond_broadcast(&cond);
        }
    }
    pthread_mutex_unlock(&lock);
}

int main(int argc, char **argv)
{
    pmix_proc_t me, src;
    pmix_info_t info[2], dir;
    pid_t pid = argc > 2 ? atoi(argv[1]) : 0;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    bool yes = true;
    struct timespec deadline;
    long long want = 0;
    int i, ok;
    pmix_status_t rc;
    FILE *f;
    if (argc < 3) {
        fprintf(stderr, "usage: iofpull <server pid> READYFILE\n");
        return 2;
    }
    for (i = 0; i < NPIECES; i++) want += (long long) piece_len(i);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    rc = PMIx_tool_init(&me, info, 2);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "iofpull: tool_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&src, "iofsrc", PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&dir, PMIX_IOF_REDIRECT, &yes, PMIX_BOOL);
    rc = PMIx_IOF_pull(&src, 1, &dir, 1, PMIX_FWD_STDOUT_CHANNEL, handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "iofpull: IOF_pull: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    if (NULL == (f = fopen(argv[2], "w"))) {
        fprintf(stderr, "iofpull: cannot create %s\n", argv[2]);
        return 1;
    }
    fclose(f);
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&lock);
    while (!complete) {
        if (pthread_cond_timedwait(&cond, &lock, &deadline) == ETIMEDOUT) break;
    }
    printf("iofpull: %lld of %lld bytes%s; %s\n", got, want, complete ? ", then the end" : ", no end",
           bad_at >= 0 ? "a wrong byte" : "every byte right");
    if (bad_at >= 0) {
        fprintf(stderr, "iofpull: first wrong byte at %lld\n", bad_at);
    }
    ok = complete && got == want && bad_at < 0;
    pthread_mutex_unlock(&lock);
    /* No deregistration: the reference's blocking PMIx_IOF_deregister frees twice. */
    rc = PMIx_tool_finalize();
    printf("iofpull: tool_finalize: %s\n", PMIx_Error_string(rc));
    return ok ? 0 : 1;
}
