/* PMIX_TCP_REPORT_URI given to PMIx_server_init (prte --report-uri passes it): "-" writes
 * the server's URI to stdout, a number writes "<URI variables>;<URI>" and a NUL to that pipe
 * and closes it, anything else writes the URI and a version line to that file; OpenPMIx's MCA
 * parameter ptl_base_report_uri (PMIX_MCA_ptl_base_report_uri) does the same. Each case
 * runs in a child process (one server init per process); what was reported is printed with
 * the port masked. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmix_server.h>

static pmix_server_module_t module;

/* Prints TEXT (LEN bytes) with each "tcp4://ADDR:PORT" port masked and NULs shown. */
static void show(const char *what, const char *text, size_t len)
{
    size_t i;
    printf("%s: [", what);
    for (i = 0; i < len; i++) {
        if (text[i] == '\0') {
            printf("\\0");
        } else if (text[i] == ':' && i > 0 && strncmp(text + i + 1, "//", 2) != 0
                   && i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '9'
                   && memmem(text, i, "tcp4://", 7) != NULL) {
            printf(":PORT");
            while (i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '9') {
                i++;
            }
        } else if (text[i] == '\n') {
            printf("\\n");
        } else {
            putchar(text[i]);
        }
    }
    printf("]\n");
}

static size_t slurp(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    ssize_t n;
    while (got < cap && (n = read(fd, buf + got, cap - got)) > 0) {
        got += (size_t) n;
    }
    return got;
}

static int serve(const char *target)
{
    pmix_info_t info[3];
    pmix_status_t rc;
    size_t ninfo = 2;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_NSPACE, "rtest", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_RANK, &(pmix_rank_t){0}, PMIX_PROC_RANK);
    if (0 == strncmp(target, "env:", 4)) {
        setenv("PMIX_MCA_ptl_base_report_uri", target + 4, 1);
    } else {
        PMIX_INFO_LOAD(&info[2], PMIX_TCP_REPORT_URI, target, PMIX_STRING);
        ninfo = 3;
    }
    rc = PMIx_server_init(&module, info, ninfo);
    fflush(stdout);
    if (PMIX_SUCCESS == rc) {
        PMIx_server_finalize();
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

/* Runs serve(TARGET) in a child whose stdout is a pipe; returns what it wrote there. */
static void run_child(const char *label, const char *target, int extra_pipe[2])
{
    int out[2], status;
    char buf[1024];
    size_t n;
    pid_t pid;

    fflush(stdout);
    if (pipe(out) != 0) {
        exit(2);
    }
    pid = fork();
    if (pid == 0) {
        close(out[0]);
        dup2(out[1], 1);
        close(out[1]);
        if (extra_pipe) {
            close(extra_pipe[0]);
        }
        _exit(serve(target));
    }
    close(out[1]);
    if (extra_pipe) {
        close(extra_pipe[1]);
        n = slurp(extra_pipe[0], buf, sizeof(buf));
        show("  pipe got", buf, n);
        close(extra_pipe[0]);
    }
    n = slurp(out[0], buf, sizeof(buf));
    close(out[0]);
    waitpid(pid, &status, 0);
    printf("%s: exit %d\n", label, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    show("  stdout", buf, n);
}

int main(void)
{
    char path[512], fdname[16], buf[1024];
    int p[2];
    FILE *f;
    size_t n;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

    run_child("to stdout (-)", "-", NULL);
    run_child("to stdout, by the MCA parameter", "env:-", NULL);

    if (pipe(p) != 0) {
        return 2;
    }
    snprintf(fdname, sizeof(fdname), "%d", p[1]);
    run_child("to a pipe", fdname, p);

    snprintf(path, sizeof(path), "%s/report-uri.%d", tmp, (int) getpid());
    run_child("to a file", path, NULL);
    f = fopen(path, "r");
    n = f ? fread(buf, 1, sizeof(buf), f) : 0;
    if (f) {
        fclose(f);
    }
    /* the second line is "v" and the library's version: 5.0.11rc1 in the wheel, 5.0.11 in
     * ours; the part both have is kept */
    {
        char *v = memmem(buf, n, "\nv5.0.", 6);
        if (v != NULL) {
            memcpy(v, "\nv5.0.x\n", 8);
            n = (size_t) (v - buf) + 8;
        }
    }
    show("  file", buf, n);
    printf("  file left after finalize: %s\n", access(path, F_OK) == 0 ? "yes" : "no");
    unlink(path);

    snprintf(path, sizeof(path), "%s/no-such-dir/report-uri", tmp);
    run_child("to a file that cannot be created", path, NULL);
    return 0;
}
