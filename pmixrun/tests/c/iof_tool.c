/* A tool for pmixrun's IO forwarding tests (pmixrun/tests/iof.rs), built against the
 * reference headers and run on either library. It connects to the server whose URI is in
 * URIFILE (PMIX_SERVER_URI "file:URIFILE").
 *
 * usage:
 *   iof_tool URIFILE pull NSPACE OUTDIR NSTREAMS [OPTION...]
 *       Pulls the stdout and stderr of every rank of NSPACE. The handler appends what it
 *       gets to OUTDIR/<rank>.out or .err and counts PMIX_IOF_COMPLETE; once NSTREAMS
 *       streams have completed the tool deregisters, finalizes, creates OUTDIR/DONE and
 *       exits 0.
 *       OUTDIR/GO is created once the pull is registered (the job's processes wait for
 *       it before writing, and for DONE before ending).
 *       Options, each an output or cache attribute of the pull:
 *         tag timestamp xml rank fullname raw merge fileonly pattern redirect copy
 *         oldest newest file=PATH dir=PATH csize=N bsize=N btime=N
 *         sizes       also append the size of each piece the handler gets, one decimal
 *                     a line, to OUTDIR/<rank>.out.sizes or .err.sizes
 *         nohandler   the formatted pull has no handler (the library writes to this
 *                     tool's stdout/stderr or files); a second, raw pull with a handler
 *                     registered after it tracks completion
 *   iof_tool URIFILE push NSPACE RANK FILE [nb]
 *       Pushes FILE to the stdin of RANK (PMIX_RANK_WILDCARD when RANK is "all") in
 *       64 KiB pieces, then ends the input (no bytes, with PMIX_IOF_COMPLETE). With "nb"
 *       each push has a callback (the reference library, 4.2.2, hangs in a blocking
 *       PMIx_IOF_push of a tool: it waits on a lock it never set up).
 *   iof_tool URIFILE pushstdin NSPACE RANK STOPFILE
 *       PMIx_IOF_push with PMIX_IOF_PUSH_STDIN: the library forwards this tool's stdin;
 *       waits (at most 120 s) until STOPFILE exists, then finalizes.
 *
 * Exit status 0 on success; "FAIL ..." on stderr otherwise. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmix_tool.h>

static const char *outdir;
static bool sizes;
static int nstreams;
static int completed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void die(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "FAIL %s: %s\n", what, PMIx_Error_string(rc));
    exit(1);
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "FAIL cannot create %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fclose(f);
}

static void handler(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                    pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    char path[4096];
    bool complete = false;
    size_t n;
    (void) iofhdlr;
    for (n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_IOF_COMPLETE) && PMIX_INFO_TRUE(&info[n])) {
            complete = true;
        }
    }
    snprintf(path, sizeof path, "%s/%u.%s", outdir, source->rank,
             (channel & PMIX_FWD_STDOUT_CHANNEL) ? "out" : "err");
    if (payload != NULL && payload->size > 0) {
        FILE *f = fopen(path, "a");
        if (f == NULL || fwrite(payload->bytes, 1, payload->size, f) != payload->size) {
            fprintf(stderr, "FAIL cannot write %s\n", path);
            exit(1);
        }
        fclose(f);
        if (sizes) {
            strncat(path, ".sizes", sizeof path - strlen(path) - 1);
            f = fopen(path, "a");
            if (f == NULL || fprintf(f, "%zu\n", payload->size) < 0) {
                fprintf(stderr, "FAIL cannot write %s\n", path);
                exit(1);
            }
            fclose(f);
        }
    }
    if (complete) {
        pthread_mutex_lock(&lock);
        completed++;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
    }
}

static pmix_status_t op_status;
static bool op_done;

static void op_cb(pmix_status_t status, void *cbdata)
{
    (void) cbdata;
    pthread_mutex_lock(&lock);
    op_status = status;
    op_done = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

/* Waits for op_cb after a non-blocking call that returned rc. */
static pmix_status_t op_wait(pmix_status_t rc)
{
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    pthread_mutex_lock(&lock);
    while (!op_done) {
        pthread_cond_wait(&cond, &lock);
    }
    op_done = false;
    pthread_mutex_unlock(&lock);
    return op_status;
}

/* PMIx_IOF_deregister with a callback: the reference library's blocking form releases its
 * request twice (4.2.2), which later hangs its progress thread. */
static pmix_status_t deregister(size_t id)
{
    return op_wait(PMIx_IOF_deregister(id, NULL, 0, op_cb, NULL));
}

static void connect_to(const char *urifile)
{
    pmix_info_t info;
    pmix_proc_t me;
    char uri[4200];
    pmix_status_t rc;
    snprintf(uri, sizeof uri, "file:%s", urifile);
    PMIX_INFO_LOAD(&info, PMIX_SERVER_URI, uri, PMIX_STRING);
    rc = PMIx_tool_init(&me, &info, 1);
    if (rc != PMIX_SUCCESS) {
        die("PMIx_tool_init", rc);
    }
}

static int pull(const char *nspace, int argc, char **argv)
{
    pmix_info_t dirs[32];
    size_t ndirs = 0;
    pmix_proc_t proc;
    pmix_status_t rc;
    bool nohandler = false;
    int formatted, tracker = -1, i;
    char go[4096];
    for (i = 0; i < argc && ndirs < 32; i++) {
        const char *a = argv[i];
        bool t = true;
        uint32_t u;
        if (strcmp(a, "nohandler") == 0) {
            nohandler = true;
        } else if (strcmp(a, "sizes") == 0) {
            sizes = true;

        } else if (strcmp(a, "tag") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_TAG_OUTPUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "timestamp") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_TIMESTAMP_OUTPUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "xml") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_XML_OUTPUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "rank") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_RANK_OUTPUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "fullname") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_TAG_FULLNAME_OUTPUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "raw") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_OUTPUT_RAW, &t, PMIX_BOOL);
        } else if (strcmp(a, "merge") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_MERGE_STDERR_STDOUT, &t, PMIX_BOOL);
        } else if (strcmp(a, "fileonly") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_FILE_ONLY, &t, PMIX_BOOL);
        } else if (strcmp(a, "pattern") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_FILE_PATTERN, &t, PMIX_BOOL);
        } else if (strcmp(a, "redirect") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_REDIRECT, &t, PMIX_BOOL);
        } else if (strcmp(a, "copy") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_COPY, &t, PMIX_BOOL);
        } else if (strcmp(a, "oldest") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_DROP_OLDEST, &t, PMIX_BOOL);
        } else if (strcmp(a, "newest") == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_DROP_NEWEST, &t, PMIX_BOOL);
        } else if (strncmp(a, "file=", 5) == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_OUTPUT_TO_FILE, a + 5, PMIX_STRING);
        } else if (strncmp(a, "dir=", 4) == 0) {
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_OUTPUT_TO_DIRECTORY, a + 4, PMIX_STRING);
        } else if (strncmp(a, "csize=", 6) == 0) {
            u = (uint32_t) strtoul(a + 6, NULL, 10);
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_CACHE_SIZE, &u, PMIX_UINT32);
        } else if (strncmp(a, "bsize=", 6) == 0) {
            u = (uint32_t) strtoul(a + 6, NULL, 10);
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_BUFFERING_SIZE, &u, PMIX_UINT32);
        } else if (strncmp(a, "btime=", 6) == 0) {
            u = (uint32_t) strtoul(a + 6, NULL, 10);
            PMIX_INFO_LOAD(&dirs[ndirs++], PMIX_IOF_BUFFERING_TIME, &u, PMIX_UINT32);
        } else {
            fprintf(stderr, "FAIL unknown option %s\n", a);
            return 1;
        }
    }
    PMIX_LOAD_PROCID(&proc, nspace, PMIX_RANK_WILDCARD);
    formatted = PMIx_IOF_pull(&proc, 1, dirs, ndirs,
                              PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL,
                              nohandler ? NULL : handler, NULL, NULL);
    if (formatted < 0) {
        die("PMIx_IOF_pull", formatted);
    }
    if (nohandler) {
        /* Registered second, so its copy of each message comes after the formatted one. */
        tracker = PMIx_IOF_pull(&proc, 1, NULL, 0,
                                PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL, handler,
                                NULL, NULL);
        if (tracker < 0) {
            die("PMIx_IOF_pull (tracker)", tracker);
        }
    }
    snprintf(go, sizeof go, "%s/GO", outdir);
    touch(go);
    pthread_mutex_lock(&lock);
    while (completed < nstreams) {
        pthread_cond_wait(&cond, &lock);
    }
    pthread_mutex_unlock(&lock);
    rc = deregister((size_t) formatted);
    if (rc != PMIX_SUCCESS) {
        die("PMIx_IOF_deregister", rc);
    }
    if (tracker >= 0) {
        rc = deregister((size_t) tracker);
        if (rc != PMIX_SUCCESS) {
            die("PMIx_IOF_deregister (tracker)", rc);
        }
    }
    fflush(stdout);
    return 0;
}

static pmix_rank_t rank_of(const char *s)
{
    return strcmp(s, "all") == 0 ? PMIX_RANK_WILDCARD : (pmix_rank_t) strtoul(s, NULL, 10);
}

/* PMIx_IOF_push, blocking or (nb) with a callback this waits for. */
static pmix_status_t push1(pmix_proc_t *target, pmix_byte_object_t *bo, pmix_info_t *dirs,
                           size_t ndirs, bool nb)
{
    if (!nb) {
        return PMIx_IOF_push(target, 1, bo, dirs, ndirs, NULL, NULL);
    }
    return op_wait(PMIx_IOF_push(target, 1, bo, dirs, ndirs, op_cb, NULL));
}

static int push(const char *nspace, const char *rank, const char *file, bool nb)
{
    pmix_proc_t target;
    pmix_byte_object_t bo;
    pmix_info_t done;
    pmix_status_t rc;
    static char buf[65536];
    size_t n;
    FILE *f = fopen(file, "rb");
    if (f == NULL) {
        fprintf(stderr, "FAIL cannot open %s\n", file);
        return 1;
    }
    PMIX_LOAD_PROCID(&target, nspace, rank_of(rank));
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        bo.bytes = buf;
        bo.size = n;
        rc = push1(&target, &bo, NULL, 0, nb);
        if (rc != PMIX_SUCCESS) {
            die("PMIx_IOF_push", rc);
        }
    }
    fclose(f);
    /* The end of input: no bytes, with PMIX_IOF_COMPLETE (the reference keeps a push of
     * directives alone to itself). */
    PMIX_INFO_LOAD(&done, PMIX_IOF_COMPLETE, NULL, PMIX_BOOL);
    done.value.data.flag = true;
    bo.bytes = buf;
    bo.size = 0;
    rc = push1(&target, &bo, &done, 1, nb);
    if (rc != PMIX_SUCCESS) {
        die("PMIx_IOF_push (end)", rc);
    }
    return 0;
}

static int push_stdin(const char *nspace, const char *rank, const char *stop)
{
    pmix_proc_t target;
    pmix_info_t dir;
    pmix_status_t rc;
    struct stat st;
    int i;
    PMIX_LOAD_PROCID(&target, nspace, rank_of(rank));
    PMIX_INFO_LOAD(&dir, PMIX_IOF_PUSH_STDIN, NULL, PMIX_BOOL);
    dir.value.data.flag = true;
    rc = PMIx_IOF_push(&target, 1, NULL, &dir, 1, NULL, NULL);
    if (rc != PMIX_SUCCESS) {
        die("PMIx_IOF_push (PMIX_IOF_PUSH_STDIN)", rc);
    }
    for (i = 0; i < 12000 && stat(stop, &st) != 0; i++) {
        usleep(10000);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 1;
    if (argc < 4) {
        fprintf(stderr, "usage: iof_tool URIFILE pull|push|pushstdin ...\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    connect_to(argv[1]);
    if (strcmp(argv[2], "pull") == 0 && argc >= 6) {
        outdir = argv[4];
        nstreams = atoi(argv[5]);
        rc = pull(argv[3], argc - 6, argv + 6);
    } else if (strcmp(argv[2], "push") == 0 && (argc == 6 || argc == 7)) {
        rc = push(argv[3], argv[4], argv[5], argc == 7 && strcmp(argv[6], "nb") == 0);
    } else if (strcmp(argv[2], "pushstdin") == 0 && argc == 6) {
        rc = push_stdin(argv[3], argv[4], argv[5]);
    } else {
        fprintf(stderr, "usage: iof_tool URIFILE pull|push|pushstdin ...\n");
        return 2;
    }
    PMIx_tool_finalize();
    if (rc == 0 && outdir != NULL) {
        /* Only now may the job end (and its server go away). */
        char done[4096];
        snprintf(done, sizeof done, "%s/DONE", outdir);
        touch(done);
    }
    return rc;
}
