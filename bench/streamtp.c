/* The ceiling under forwarded output: one stream of 256 MiB written in 64 KiB pieces from a
 * process pinned on CPU 0 to one pinned on CPU 1 reading 256 KiB at a time, over loopback
 * TCP or a Unix-domain socket, 4 MiB socket buffers (as our connections ask), nothing of
 * PMIx in it. Used to tell what the IOF figure loses above the kernel (bench/notes.md,
 * "IOF throughput").
 *
 *   cc -O2 -o streamtp bench/streamtp.c
 *   ./streamtp tcp|uds        # prints MB/s (10^6 bytes/s) seen by the reader
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TOTAL = 256 << 20, PIECE = 65536, READ = 262144, SOCKBUF = 4 << 20 };

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "tcp") && strcmp(argv[1], "uds"))) {
        fprintf(stderr, "usage: streamtp tcp|uds\n");
        return 2;
    }
    int uds = !strcmp(argv[1], "uds");
    int bufsz = SOCKBUF;
    struct sockaddr_un ua = {.sun_family = AF_UNIX};
    struct sockaddr_in ia = {.sin_family = AF_INET};
    socklen_t alen;
    struct sockaddr *addr;
    int ls = socket(uds ? AF_UNIX : AF_INET, SOCK_STREAM, 0);
    if (uds) {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(ua.sun_path, sizeof ua.sun_path, "%s/streamtp.%d", tmp, (int) getpid());
        addr = (struct sockaddr *) &ua;
        alen = sizeof ua;
    } else {
        ia.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr = (struct sockaddr *) &ia;
        alen = sizeof ia;
    }
    if (bind(ls, addr, alen) || listen(ls, 1) || (!uds && getsockname(ls, addr, &alen))) {
        perror("streamtp: listen");
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        pin(0);
        int s = socket(uds ? AF_UNIX : AF_INET, SOCK_STREAM, 0);
        setsockopt(s, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof bufsz);
        if (connect(s, addr, alen)) {
            perror("streamtp: connect");
            _exit(1);
        }
        char *b = malloc(PIECE);
        memset(b, 'x', PIECE);
        for (size_t n = 0; n < TOTAL; n += PIECE)
            for (size_t o = 0; o < PIECE;) {
                ssize_t w = write(s, b + o, PIECE - o);
                if (w <= 0)
                    _exit(1);
                o += (size_t) w;
            }
        _exit(0);
    }
    pin(1);
    int fd = accept(ls, NULL, NULL);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof bufsz);
    char *b = malloc(READ);
    size_t got = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        ssize_t r = read(fd, b, READ);
        if (r <= 0)
            break;
        got += (size_t) r;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    waitpid(pid, NULL, 0);
    if (uds)
        unlink(ua.sun_path);
    double s = (double) (t1.tv_sec - t0.tv_sec) + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s %.0f MB/s (%zu bytes)\n", argv[1], (double) got / s / 1e6, got);
    return got == TOTAL ? 0 : 1;
}
