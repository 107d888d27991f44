/* Helpers shared by the benchmark host and client (no PMIx calls). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static inline long long bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The number after FIELD ("Pss:", "VmHWM:", ...) on its line of the /proc file PATH (in kB
 * for the fields used here), or -1. */
static inline long long bench_proc_field(const char *path, const char *field)
{
    char line[256];
    long long v = -1;
    size_t flen = strlen(field);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, field, flen) == 0) {
            v = atoll(line + flen);
            break;
        }
    }
    fclose(f);
    return v;
}

/* A field ("Pss:", "Rss:", ...) of /proc/PID/smaps_rollup in kB, or -1. */
static inline long long bench_smaps_kb(pid_t pid, const char *field)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int) pid);
    return bench_proc_field(path, field);
}

static inline long long bench_pss_kb(pid_t pid)
{
    return bench_smaps_kb(pid, "Pss:");
}

/* Says this client runs (a byte to the pipe BENCH_READY_FD, when set) and waits for the host's
 * release (EOF on the pipe BENCH_GO_FD, when set). Returns the time of the release, or -1
 * without BENCH_GO_FD. */
static inline long long bench_wait_go(void)
{
    const char *fd = getenv("BENCH_GO_FD");
    const char *ready = getenv("BENCH_READY_FD");
    char c;
    if (ready != NULL) {
        /* running: the host releases every client once all have said so */
        if (write(atoi(ready), "r", 1) < 0) {
            /* the host then releases us when every copy of the pipe is closed */
        }
        close(atoi(ready));
        unsetenv("BENCH_READY_FD");
    }
    if (fd == NULL) {
        return -1;
    }
    while (read(atoi(fd), &c, 1) > 0) {
    }
    close(atoi(fd));
    return bench_now_ns();
}

/* Write the path of every libpmix* object mapped by this process to $BENCH_OUT/lib.ROLE[.RANK],
 * so that the harness can prove which library ran. */
static inline void bench_record_lib(const char *role, int rank)
{
    const char *dir = getenv("BENCH_OUT");
    char path[4096], line[4096], last[4096] = "";
    FILE *in, *out;
    if (dir == NULL) {
        return;
    }
    if (rank >= 0) {
        snprintf(path, sizeof(path), "%s/lib.%s.%d", dir, role, rank);
    } else {
        snprintf(path, sizeof(path), "%s/lib.%s", dir, role);
    }
    in = fopen("/proc/self/maps", "r");
    out = fopen(path, "w");
    if (in == NULL || out == NULL) {
        if (in) {
            fclose(in);
        }
        if (out) {
            fclose(out);
        }
        return;
    }
    while (fgets(line, sizeof(line), in) != NULL) {
        char *p = strchr(line, '/'), *base;
        if (p == NULL) {
            continue;
        }
        p[strcspn(p, "\n")] = '\0';
        base = strrchr(p, '/') + 1;
        if (strncmp(base, "libpmix", 7) == 0 && strcmp(p, last) != 0) {
            fprintf(out, "%s\n", p);
            snprintf(last, sizeof(last), "%s", p);
        }
    }
    fclose(in);
    fclose(out);
}

#endif
