/* The library installs no signal handlers and ignores no signal: the disposition of every
 * signal (sigaction) and the process's caught/ignored/blocked sets (/proc/self/status) are the
 * same before and after PMIx_server_init, registering and forking a client, PMIx_Init and
 * PMIx_Finalize in that client, PMIx_server_finalize, and PMIx_tool_init/_finalize.
 * (openpmix#4192: a library that trapped SIGCHLD swallowed its host's.) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>
#include "common.h"

typedef struct {
    struct sigaction sa[NSIG];
    unsigned long long sets[3];
} snap_t;

/* glibc itself catches its internal signals 32 and 33 (thread cancellation and set*id) once
 * a second thread starts; sigaction cannot see them. */
#define GLIBC_INTERNAL ((1ULL << 31) | (1ULL << 32))

static void snapshot(snap_t *s)
{
    static const char *names[3] = {"SigBlk:", "SigIgn:", "SigCgt:"};
    char line[256];
    FILE *f;
    int sig, k;
    memset(s, 0, sizeof(*s));
    for (sig = 1; sig < NSIG; sig++) {
        sigaction(sig, NULL, &s->sa[sig]);
    }
    f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        for (k = 0; k < 3; k++) {
            if (strncmp(line, names[k], strlen(names[k])) == 0) {
                s->sets[k] = strtoull(line + strlen(names[k]), NULL, 16) & ~GLIBC_INTERNAL;
            }
        }
    }
    fclose(f);
}

static void compare(const char *what, const snap_t *a, const snap_t *b)
{
    static const char *names[3] = {"blocked", "ignored", "caught"};
    int sig, k, changed = 0;
    for (sig = 1; sig < NSIG; sig++) {
        if (a->sa[sig].sa_handler != b->sa[sig].sa_handler
            || (a->sa[sig].sa_flags & SA_SIGINFO) != (b->sa[sig].sa_flags & SA_SIGINFO)) {
            printf("%s: the handler of signal %d (%s) changed\n", what, sig, strsignal(sig));
            changed = 1;
        }
    }
    for (k = 0; k < 3; k++) {
        if (a->sets[k] != b->sets[k]) {
            printf("%s: the %s set changed\n", what, names[k]);
            changed = 1;
        }
    }
    if (!changed) {
        printf("%s: signal dispositions unchanged\n", what);
    }
}

static volatile int done_flag;
static void op_done(pmix_status_t st, void *cbdata)
{
    (void) st;
    (void) cbdata;
    done_flag = 1;
}
static void wait_done(void)
{
    int i;
    for (i = 0; i < 2000 && !done_flag; i++) {
        usleep(1000);
    }
    done_flag = 0;
}

static int client(void)
{
    snap_t a, b;
    pmix_proc_t me;
    pmix_status_t rc;
    setvbuf(stdout, NULL, _IONBF, 0);
    snapshot(&a);
    /* (the reference's init answers an error under this minimal registration) */
    (void) PMIx_Init(&me, NULL, 0);
    snapshot(&b);
    compare("client after PMIx_Init", &a, &b);
    rc = PMIx_Finalize(NULL, 0);
    printf("client PMIx_Finalize: %s\n", PMIx_Error_string(rc));
    snapshot(&b);
    compare("client after PMIx_Finalize", &a, &b);
    return 0;
}

static int tool(void)
{
    snap_t a, b;
    pmix_proc_t me;
    pmix_info_t info;
    bool yes = true;
    snapshot(&a);
    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    (void) PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    snapshot(&b);
    compare("tool after PMIx_tool_init", &a, &b);
    (void) PMIx_tool_finalize();
    snapshot(&b);
    compare("tool after PMIx_tool_finalize", &a, &b);
    return 0;
}

static pmix_server_module_t module;

int main(int argc, char **argv)
{
    snap_t a, b;
    pmix_proc_t proc;
    pmix_nspace_t nspace;
    pmix_info_t info;
    char **env = NULL;
    uint32_t one = 1;
    pid_t pid;
    int status;
    if (argc > 1 && strcmp(argv[1], "client") == 0) {
        return client();
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    snapshot(&a);
    printf("PMIx_server_init: %s\n", PMIx_Error_string(PMIx_server_init(&module, NULL, 0)));
    snapshot(&b);
    compare("after PMIx_server_init", &a, &b);
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &one, PMIX_UINT32);
    PMIX_LOAD_NSPACE(nspace, "sigtest");
    PMIx_server_register_nspace(nspace, 1, &info, 1, op_done, NULL);
    wait_done();
    PMIX_INFO_DESTRUCT(&info);
    PMIX_LOAD_PROCID(&proc, "sigtest", 0);
    PMIx_server_register_client(&proc, getuid(), getgid(), NULL, op_done, NULL);
    wait_done();
    PMIx_server_setup_fork(&proc, &env);
    pid = fork();
    if (pid == 0) {
        char *args[] = {argv[0], "client", NULL};
        execve("/proc/self/exe", args, env);
        _exit(127);
    }
    waitpid(pid, &status, 0);
    printf("client exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    for (char **e = env; e != NULL && *e != NULL; e++) {
        free(*e);
    }
    free(env);
    snapshot(&b);
    compare("after the client ran", &a, &b);
    printf("PMIx_server_finalize: %s\n", PMIx_Error_string(PMIx_server_finalize()));
    snapshot(&b);
    compare("after PMIx_server_finalize", &a, &b);
    pid = fork();
    if (pid == 0) {
        _exit(tool());
    }
    waitpid(pid, &status, 0);
    return 0;
}
