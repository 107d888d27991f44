/* MPI_Allreduce of the ranks (sum, and max), checked against the closed form. */
#include <mpi.h>
#include "maps.h"

int main(int argc, char **argv)
{
    int rank, size, sum = -1, max = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char role[32];
    snprintf(role, sizeof role, "rank%d", rank);
    report_maps(role);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = sum == size * (size - 1) / 2 && max == size - 1;
    if (!ok) fprintf(stderr, "allreduce: rank %d got sum %d max %d\n", rank, sum, max);
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0) printf("allreduce: size %d sum %d max %d %s\n", size, sum, max, all_ok ? "OK" : "BAD");
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
