/* Proof of which libpmix a process has mapped, for the consumer tests (openmpi.sh).
 *
 * When the environment variable CHECK_MAPS_FILE names a file, report_maps() appends one line per
 * inspected process to it:
 *     <role> <pid> <comm> <path>[,<path>...]
 * where the paths are the distinct files mapped in /proc/<pid>/maps whose basename starts with
 * "libpmix" (the kernel shows the resolved file, not the symlink), or "-" when none is mapped.
 * Each process reports itself, and its parent (for ranks launched by mpirun on one node the
 * parent is mpirun itself: it forks the local ranks directly, there is no orted).
 * Lines are short and written with one write() on an O_APPEND descriptor, so concurrent ranks
 * do not interleave. Without CHECK_MAPS_FILE nothing happens. */
#ifndef CONSUMER_MAPS_H
#define CONSUMER_MAPS_H
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void maps_libs(pid_t pid, char *out, size_t n)
{
    char fn[64], line[4096];
    snprintf(fn, sizeof fn, "/proc/%d/maps", (int)pid);
    out[0] = '\0';
    FILE *f = fopen(fn, "r");
    if (!f) { snprintf(out, n, "unreadable:%s", fn); return; }
    while (fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/');
        if (!path) continue;
        path[strcspn(path, "\n")] = '\0';
        const char *base = strrchr(path, '/') + 1;
        if (strncmp(base, "libpmix", 7) != 0) continue;
        /* distinct paths only */
        size_t pl = strlen(path);
        const char *p = out;
        int seen = 0;
        while ((p = strstr(p, path)) != NULL) {
            if ((p == out || p[-1] == ',') && (p[pl] == ',' || p[pl] == '\0')) { seen = 1; break; }
            p += pl;
        }
        if (seen) continue;
        size_t used = strlen(out);
        snprintf(out + used, n - used, "%s%s", used ? "," : "", path);
    }
    fclose(f);
    if (!out[0]) snprintf(out, n, "-");
}

static void maps_comm(pid_t pid, char *out, size_t n)
{
    char fn[64];
    snprintf(fn, sizeof fn, "/proc/%d/comm", (int)pid);
    snprintf(out, n, "?");
    FILE *f = fopen(fn, "r");
    if (!f) return;
    if (fgets(out, (int)n, f)) out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

static void maps_line(int fd, const char *role, pid_t pid)
{
    char libs[8192], comm[64], line[8400];
    maps_libs(pid, libs, sizeof libs);
    maps_comm(pid, comm, sizeof comm);
    int len = snprintf(line, sizeof line, "%s %d %s %s\n", role, (int)pid, comm, libs);
    if (write(fd, line, (size_t)len) != len) perror("CHECK_MAPS_FILE write");
}

/* Call after MPI_Init (the PMIx component, and libpmix with it, is loaded during MPI_Init). */
static void report_maps(const char *role)
{
    const char *file = getenv("CHECK_MAPS_FILE");
    if (!file || !*file) return;
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) { perror(file); return; }
    char parent[80];
    snprintf(parent, sizeof parent, "%s-parent", role);
    maps_line(fd, role, getpid());
    maps_line(fd, parent, getppid());
    close(fd);
}
#endif
