/* MPI hello for the whole-job figure: MPI_Init, one Allreduce (so that every rank is wired
 * up), MPI_Finalize. Rank 0 prints one line naming the libpmix mapped by itself and by its
 * parent (mpirun), so that the harness can check which library ran:
 *   hello: size N lib PATH parent-lib PATH
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void libpmix_of(int pid, char *out, size_t len)
{
    char path[64], line[4096];
    FILE *f;
    snprintf(out, len, "-");
    snprintf(path, sizeof(path), "/proc/%d/maps", pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        char *p = strchr(line, '/'), *base;
        if (p == NULL) {
            continue;
        }
        p[strcspn(p, "\n")] = '\0';
        base = strrchr(p, '/') + 1;
        if (strncmp(base, "libpmix", 7) == 0) {
            snprintf(out, len, "%s", p);
            break;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int rank, size, one = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        char mine[4096], parent[4096];
        libpmix_of(getpid(), mine, sizeof(mine));
        libpmix_of(getppid(), parent, sizeof(parent));
        printf("hello: size %d sum %d lib %s parent-lib %s\n", size, sum, mine, parent);
    }
    MPI_Finalize();
    return sum == size ? 0 : 1;
}
