/* A token goes around the ring LAPS times; every rank adds its rank + 1 on each pass. */
#include <mpi.h>
#include "maps.h"

#define LAPS 3

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char role[32];
    snprintf(role, sizeof role, "rank%d", rank);
    report_maps(role);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int token = 0, passes = 0, ok = 1;
    for (int lap = 0; lap < LAPS; lap++) {
        if (rank == 0) {
            token += 1;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            /* before this rank adds, the token holds lap full laps plus ranks 0..rank-1 */
            int expect = lap * size * (size + 1) / 2 + rank * (rank + 1) / 2;
            if (token != expect) { fprintf(stderr, "ring: rank %d lap %d got %d want %d\n", rank, lap, token, expect); ok = 0; }
            token += rank + 1;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
        }
        passes++;
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0) {
        int expect = LAPS * size * (size + 1) / 2;
        if (token != expect) all_ok = 0;
        printf("ring: size %d laps %d token %d %s\n", size, passes, token, all_ok ? "OK" : "BAD");
    }
    MPI_Bcast(&all_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
