/* The floor under every request: a loopback round trip between two processes pinned on
 * different CPUs, with nothing of PMIx in it. Used to tell what a fence or a Get costs
 * above it (bench/notes.md, "Fences").
 *
 *   cc -O2 -o pingpong bench/pingpong.c
 *   ./pingpong tcp|uds [rounds]      # both sides sleep in read() between messages
 *   SERVER_POLL=1 ./pingpong tcp     # the CPU-0 side polls (non-blocking reads) instead
 *   CLIENT_POLL=1 ./pingpong tcp     # the CPU-1 side polls instead
 *
 * The CPU-0 side echoes 40-byte messages (a fence request is about that size); the CPU-1
 * side times each round trip and prints the mean and the median. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

/* One whole message of n bytes; polling with MSG_DONTWAIT when asked. */
static int recv_all(int fd, char *buf, int n, int poll)
{
    int got = 0;
    while (got < n) {
        ssize_t r = recv(fd, buf + got, (size_t) (n - got), poll ? MSG_DONTWAIT : 0);
        if (r == 0) {
            return -1;
        }
        if (r > 0) {
            got += (int) r;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int uds = argc > 1 && strcmp(argv[1], "uds") == 0;
    int n = argc > 2 ? atoi(argv[2]) : 20000, sv[2], one = 1, i;
    int spoll = getenv("SERVER_POLL") != NULL, cpoll = getenv("CLIENT_POLL") != NULL;
    char buf[40] = {0};
    long long t0, t1, *s;
    pid_t pid;

    if (n < 1) {
        n = 1;
    }
    if (uds) {
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
            perror("socketpair");
            return 1;
        }
    } else {
        struct sockaddr_in a;
        socklen_t al = sizeof a;
        int l = socket(AF_INET, SOCK_STREAM, 0);
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (l < 0 || bind(l, (void *) &a, sizeof a) != 0 || listen(l, 1) != 0
            || getsockname(l, (void *) &a, &al) != 0) {
            perror("listen");
            return 1;
        }
        sv[0] = socket(AF_INET, SOCK_STREAM, 0);
        if (sv[0] < 0 || connect(sv[0], (void *) &a, sizeof a) != 0
            || (sv[1] = accept(l, NULL, NULL)) < 0) {
            perror("connect");
            return 1;
        }
        close(l);
        setsockopt(sv[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(sv[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    pid = fork();
    if (pid == 0) {
        pin(0);
        for (i = 0; i < n; i++) {
            if (recv_all(sv[1], buf, sizeof buf, spoll) != 0
                || write(sv[1], buf, sizeof buf) != (ssize_t) sizeof buf) {
                _exit(1);
            }
        }
        _exit(0);
    }
    pin(1);
    s = malloc(sizeof *s * (size_t) n);
    if (s == NULL) {
        return 1;
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        long long a = now_ns();
        if (write(sv[0], buf, sizeof buf) != (ssize_t) sizeof buf
            || recv_all(sv[0], buf, sizeof buf, cpoll) != 0) {
            fprintf(stderr, "peer gone\n");
            return 1;
        }
        s[i] = now_ns() - a;
    }
    t1 = now_ns();
    waitpid(pid, NULL, 0);
    qsort(s, (size_t) n, sizeof *s, cmp);
    printf("%s%s%s: %d round trips, mean %.1f us, median %.1f us\n", uds ? "uds" : "tcp",
           spoll ? " server-polls" : "", cpoll ? " client-polls" : "", n,
           (double) (t1 - t0) / 1e3 / n, (double) s[n / 2] / 1e3);
    free(s);
    return 0;
}
