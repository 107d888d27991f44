/* Where a Slurm task's libpmix comes from, for ctests/slurm (ring.c, xnode.c): prints
 *   lib rank R self PATH DEV:INO
 *   lib rank R parent COMM PID PATH DEV:INO
 *   lib rank R host HOSTNAME          (the node it runs on, from gethostname)
 * PATH is the libpmix path mapped in /proc/self/maps (resp. the parent's maps; under srun the
 * parent of a task is slurmstepd, which hosts the PMIx server). DEV:INO is stat() of the
 * mapped object through /proc/PID/map_files/START-END, which resolves to the file that is
 * really mapped even when a bind mount makes maps show the mount target's path; if map_files
 * cannot be read the path itself is stat()ed. "none" when no libpmix is mapped. */
#ifndef SLURM_LIBMAP_H
#define SLURM_LIBMAP_H
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static void find_pmix(pid_t pid, char *out, size_t outlen)
{
    char maps[64], line[4096];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    snprintf(out, outlen, "none");
    FILE *f = fopen(maps, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char range[128], path[3072];
        path[0] = 0;
        /* start-end perms offset dev inode path */
        if (sscanf(line, "%127s %*s %*s %*s %*s %3071[^\n]", range, path) < 2)
            continue;
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (strncmp(base, "libpmix.so", 10) != 0)
            continue;
        char mf[256];
        struct stat st;
        snprintf(mf, sizeof mf, "/proc/%d/map_files/%s", (int)pid, range);
        if (stat(mf, &st) != 0 && stat(path, &st) != 0) {
            snprintf(out, outlen, "%s ?:?", path);
        } else {
            snprintf(out, outlen, "%s %lu:%lu", path, (unsigned long)st.st_dev,
                     (unsigned long)st.st_ino);
        }
        break;
    }
    fclose(f);
}

static void print_lib_lines(int rank)
{
    char self[4096], parent[4096], comm[64] = "?", commpath[64];
    pid_t ppid = getppid();
    find_pmix(getpid(), self, sizeof self);
    find_pmix(ppid, parent, sizeof parent);
    snprintf(commpath, sizeof commpath, "/proc/%d/comm", (int)ppid);
    FILE *c = fopen(commpath, "r");
    if (c) {
        if (fgets(comm, sizeof comm, c))
            comm[strcspn(comm, "\n")] = 0;
        fclose(c);
    }
    printf("lib rank %d self %s\n", rank, self);
    printf("lib rank %d parent %s %d %s\n", rank, comm, (int)ppid, parent);
    char host[256] = "?";
    gethostname(host, sizeof host);
    printf("lib rank %d host %s\n", rank, host);
    fflush(stdout);
}
#endif
