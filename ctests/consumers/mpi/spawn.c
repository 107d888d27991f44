/* The parent job spawns NCHILD copies of itself with the argument "child". Over the
 * intercommunicator the parents' rank 0 sends each child a value; every child answers with
 * value * 2 + its rank; then both sides merge the intercommunicator and sum over it.
 *
 * SPAWN_CHILD_ENV=NAME[,NAME...]: the parents hand these variables of their own environment to
 * the children in the spawn's info (Open MPI 5: key "PMIX_ENVAR"; 4.1: "env"), as a user must
 * under Open MPI 5's mpirun, whose -x reaches the first job only. */
#include <mpi.h>
#include "maps.h"

#define NCHILD 2

/* The spawn info carrying SPAWN_CHILD_ENV's variables, or MPI_INFO_NULL. */
static MPI_Info child_env_info(void)
{
    const char *names = getenv("SPAWN_CHILD_ENV");
    if (names == NULL || *names == '\0') return MPI_INFO_NULL;
    static char envs[16384], list[1024];
    size_t used = 0;
    snprintf(list, sizeof list, "%s", names);
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name != NULL;
         name = strtok_r(NULL, ",", &save)) {
        const char *v = getenv(name);
        if (v == NULL) continue;
        int w = snprintf(envs + used, sizeof envs - used, "%s%s=%s", used ? "\n" : "", name, v);
        if (w < 0 || (size_t)w >= sizeof envs - used) {
            fprintf(stderr, "spawn: SPAWN_CHILD_ENV: the variables do not fit\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        used += (size_t)w;
    }
    MPI_Info info;
    MPI_Info_create(&info);
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5
    MPI_Info_set(info, "PMIX_ENVAR", envs);
#else
    MPI_Info_set(info, "env", envs);
#endif
    return info;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm parent, inter, merged;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    int is_child = argc > 1 && strcmp(argv[1], "child") == 0;
    char role[32];
    snprintf(role, sizeof role, "%s%d", is_child ? "child" : "rank", rank);
    report_maps(role);
    if (is_child != (parent != MPI_COMM_NULL)) {
        fprintf(stderr, "spawn: rank %d: argument says %s but parent comm is %s\n", rank,
                is_child ? "child" : "parent", parent == MPI_COMM_NULL ? "null" : "set");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ok = 1, total = 0, mrank, msize;
    if (is_child) {
        int v, nparents;
        MPI_Comm_remote_size(parent, &nparents);
        MPI_Recv(&v, 1, MPI_INT, 0, 7, parent, MPI_STATUS_IGNORE);
        int reply = v * 2 + rank;
        MPI_Send(&reply, 1, MPI_INT, 0, 8, parent);
        MPI_Intercomm_merge(parent, 1, &merged);
        MPI_Comm_rank(merged, &mrank);
        MPI_Comm_size(merged, &msize);
        MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged);
        ok = size == NCHILD && msize == nparents + NCHILD && total == msize * (msize - 1) / 2;
        if (!ok) fprintf(stderr, "spawn: child %d: size %d merged %d total %d\n", rank, size, msize, total);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&parent);
    } else {
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) { perror("readlink /proc/self/exe"); MPI_Abort(MPI_COMM_WORLD, 2); }
        exe[n] = '\0';
        char *cargv[] = {"child", NULL};
        int errs[NCHILD];
        MPI_Info sinfo = child_env_info();
        MPI_Comm_spawn(exe, cargv, NCHILD, sinfo, 0, MPI_COMM_WORLD, &inter, errs);
        if (sinfo != MPI_INFO_NULL) MPI_Info_free(&sinfo);
        int nchild;
        MPI_Comm_remote_size(inter, &nchild);
        if (nchild != NCHILD) ok = 0;
        for (int i = 0; i < NCHILD; i++)
            if (errs[i] != MPI_SUCCESS) ok = 0;
        int replies[NCHILD] = {0};
        if (rank == 0) {
            for (int c = 0; c < nchild && c < NCHILD; c++) {
                int v = 100 + 10 * c;
                MPI_Send(&v, 1, MPI_INT, c, 7, inter);
            }
            for (int c = 0; c < nchild && c < NCHILD; c++) {
                MPI_Recv(&replies[c], 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE);
                if (replies[c] != (100 + 10 * c) * 2 + c) ok = 0;
            }
        }
        MPI_Intercomm_merge(inter, 0, &merged);
        MPI_Comm_rank(merged, &mrank);
        MPI_Comm_size(merged, &msize);
        MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged);
        if (msize != size + NCHILD || total != msize * (msize - 1) / 2) ok = 0;
        int all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("spawn: parents %d children %d replies", size, nchild);
            for (int c = 0; c < NCHILD; c++) printf(" %d", replies[c]);
            printf(" merged %d sum %d %s\n", msize, total, all_ok ? "OK" : "BAD");
        }
        ok = all_ok;
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&inter);
    }
    MPI_Finalize();
    return ok ? 0 : 1;
}
