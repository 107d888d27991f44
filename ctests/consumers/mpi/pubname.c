/* Name publishing and connect/accept between two separate mpirun jobs.
 *
 *   pubname server SERVICE PORTFILE   rank 0 opens a port, publishes it under SERVICE, writes it
 *                                     to PORTFILE (also the "ready" signal for the script), and
 *                                     the job accepts one connection
 *   pubname client SERVICE PORTFILE   rank 0 looks SERVICE up (PUBNAME_PORT_FROM=file: reads
 *                                     PORTFILE instead) and checks that it equals PORTFILE's port,
 *                                     then the job connects
 *   pubname local SERVICE             one job: rank 0 publishes, rank 1 looks up, compared
 *   pubname spawned SERVICE [N]       two jobs of one mpirun: the first job's rank 0 opens a
 *                                     port and publishes it, the job spawns N (default 2) copies
 *                                     of this program as a second job; its rank 0 looks SERVICE
 *                                     up and the second job connects to the first job's accept
 *                                     (a connection of its own, not the spawn's)
 *
 * After connecting, each side contributes (rank + base) to an allreduce over the
 * intercommunicator (which returns the sum over the remote group), and the server's rank 0
 * sends a value to the client's rank 0 that answers with value + 1. */
#include <mpi.h>
#include <errno.h>
#include "maps.h"

#define SERVER_BASE 100
#define CLIENT_BASE 1000

static int read_port(const char *file, char *port)
{
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    int ok = fgets(port, MPI_MAX_PORT_NAME, f) != NULL;
    fclose(f);
    if (ok) port[strcspn(port, "\n")] = '\0';
    return ok && port[0];
}

static int exchange(MPI_Comm inter, int rank, int is_server, int *remote_sum, int *answer)
{
    int rsize, mine = rank + (is_server ? SERVER_BASE : CLIENT_BASE);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Allreduce(&mine, remote_sum, 1, MPI_INT, MPI_SUM, inter);
    int base = is_server ? CLIENT_BASE : SERVER_BASE;
    int ok = *remote_sum == rsize * base + rsize * (rsize - 1) / 2;
    *answer = 0;
    if (rank == 0) {
        if (is_server) {
            int v = 4242;
            MPI_Send(&v, 1, MPI_INT, 0, 11, inter);
            MPI_Recv(answer, 1, MPI_INT, 0, 12, inter, MPI_STATUS_IGNORE);
            if (*answer != v + 1) ok = 0;
        } else {
            MPI_Recv(answer, 1, MPI_INT, 0, 11, inter, MPI_STATUS_IGNORE);
            int r = *answer + 1;
            MPI_Send(&r, 1, MPI_INT, 0, 12, inter);
            if (*answer != 4242) ok = 0;
        }
    }
    return ok;
}

/* mode "spawned": the first job accepts, the job it spawns connects (see the top) */
static int spawned(const char *service, int nchild, int rank)
{
    MPI_Comm parent, spawn, inter;
    char port[MPI_MAX_PORT_NAME] = "";
    int ok = 1, rc;
    MPI_Comm_get_parent(&parent);
    int is_server = parent == MPI_COMM_NULL;
    if (is_server) {
        if (rank == 0) {
            MPI_Open_port(MPI_INFO_NULL, port);
            rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
            if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Publish_name failed: %d\n", rc); ok = 0; }
        }
        /* the port is published before the second job exists */
        char nbuf[16], *args[] = { "spawned", (char *)service, nbuf, NULL };
        snprintf(nbuf, sizeof nbuf, "%d", nchild);
        char prog[4096];
        ssize_t len = readlink("/proc/self/exe", prog, sizeof prog - 1);
        prog[len > 0 ? len : 0] = '\0';
        rc = MPI_Comm_spawn(prog, args, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &spawn,
                            MPI_ERRCODES_IGNORE);
        if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Comm_spawn failed: %d\n", rc); MPI_Abort(MPI_COMM_WORLD, 3); }
        rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    } else {
        spawn = parent;
        if (rank == 0) {
            rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
            if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Lookup_name failed: %d\n", rc); MPI_Abort(MPI_COMM_WORLD, 3); }
        }
        rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    }
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "pubname: spawned rank %d: MPI_Comm_%s failed: %d\n", rank, is_server ? "accept" : "connect", rc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int remote_sum = 0, answer = 0, rsize, ssize;
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_remote_size(spawn, &ssize);
    if (rsize != ssize) ok = 0;
    if (!exchange(inter, rank, is_server, &remote_sum, &answer)) ok = 0;
    MPI_Comm_disconnect(&inter);
    if (is_server && rank == 0) {
        if (MPI_Unpublish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS) {
            fprintf(stderr, "pubname: MPI_Unpublish_name failed\n"); ok = 0;
        }
        MPI_Close_port(port);
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    /* the first job learns the second job's verdict over the spawn's intercommunicator */
    int theirs = 0;
    if (is_server) {
        if (rank == 0) MPI_Recv(&theirs, 1, MPI_INT, 0, 21, spawn, MPI_STATUS_IGNORE);
        MPI_Bcast(&theirs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Send(&all_ok, 1, MPI_INT, 0, 21, spawn);
    }
    MPI_Comm_disconnect(&spawn);
    if (is_server && rank == 0)
        printf("pubname spawned: second job of %d looked up the port, remote size %d remote sum %d answer %d %s\n",
               ssize, rsize, remote_sum, answer, all_ok && theirs ? "OK" : "BAD");
    MPI_Finalize();
    return is_server ? (all_ok && theirs ? 0 : 1) : (all_ok ? 0 : 1);
}

int main(int argc, char **argv)
{
    int rank, size, ok = 1;
    if (argc < 3) { fprintf(stderr, "usage: pubname server|client|local SERVICE [PORTFILE]\n"); return 2; }
    const char *mode = argv[1], *service = argv[2], *portfile = argc > 3 ? argv[3] : NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char role[48];
    snprintf(role, sizeof role, "%s-rank%d", mode, rank);
    report_maps(role);
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    int rc;

    if (strcmp(mode, "local") == 0) {
        if (size < 2) { fprintf(stderr, "pubname local needs 2 ranks\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
        if (rank == 0) {
            MPI_Open_port(MPI_INFO_NULL, port);
            rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
            if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Publish_name failed: %d\n", rc); ok = 0; }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
            if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Lookup_name failed: %d\n", rc); ok = 0; }
            MPI_Send(found, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 5, MPI_COMM_WORLD);
        }
        if (rank == 0) {
            MPI_Recv(found, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (strcmp(found, port) != 0) { fprintf(stderr, "pubname: looked up \"%s\", published \"%s\"\n", found, port); ok = 0; }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            if (MPI_Unpublish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS) ok = 0;
            MPI_Close_port(port);
        }
        int all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (rank == 0) printf("pubname local: service %s lookup %s %s\n", service, found[0] ? "matched" : "empty", all_ok ? "OK" : "BAD");
        MPI_Finalize();
        return all_ok ? 0 : 1;
    }

    if (strcmp(mode, "spawned") == 0)
        return spawned(service, argc > 3 ? atoi(argv[3]) : 2, rank);

    int is_server = strcmp(mode, "server") == 0;
    if (!is_server && strcmp(mode, "client") != 0) { fprintf(stderr, "pubname: bad mode %s\n", mode); MPI_Abort(MPI_COMM_WORLD, 2); }
    if (!portfile) { fprintf(stderr, "pubname %s needs a PORTFILE\n", mode); MPI_Abort(MPI_COMM_WORLD, 2); }
    const char *from = getenv("PUBNAME_PORT_FROM");
    int use_lookup = !(from && strcmp(from, "file") == 0);
    MPI_Comm inter;
    if (is_server) {
        if (rank == 0) {
            MPI_Open_port(MPI_INFO_NULL, port);
            if (use_lookup) {
                rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
                if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Publish_name failed: %d\n", rc); ok = 0; }
            }
            char tmp[4096];
            snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
            FILE *f = fopen(tmp, "w");
            if (!f || fprintf(f, "%s\n", port) < 0 || fclose(f) != 0 || rename(tmp, portfile) != 0) {
                perror(portfile); ok = 0;
            }
        }
        rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    } else {
        if (rank == 0) {
            char filed[MPI_MAX_PORT_NAME];
            if (!read_port(portfile, filed)) { fprintf(stderr, "pubname: no port in %s\n", portfile); MPI_Abort(MPI_COMM_WORLD, 2); }
            if (use_lookup) {
                rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
                if (rc != MPI_SUCCESS) { fprintf(stderr, "pubname: MPI_Lookup_name failed: %d\n", rc); ok = 0; strcpy(port, filed); }
                else if (strcmp(port, filed) != 0) { fprintf(stderr, "pubname: looked up \"%s\", server wrote \"%s\"\n", port, filed); ok = 0; }
            } else {
                strcpy(port, filed);
            }
        }
        rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    }
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "pubname: %s rank %d: MPI_Comm_%s failed: %d\n", mode, rank, is_server ? "accept" : "connect", rc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int remote_sum = 0, answer = 0, rsize;
    MPI_Comm_remote_size(inter, &rsize);
    if (!exchange(inter, rank, is_server, &remote_sum, &answer)) ok = 0;
    MPI_Comm_disconnect(&inter);
    if (is_server && rank == 0) {
        if (use_lookup && MPI_Unpublish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS) {
            fprintf(stderr, "pubname: MPI_Unpublish_name failed\n"); ok = 0;
        }
        MPI_Close_port(port);
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pubname %s: port via %s, remote size %d remote sum %d answer %d %s\n", mode,
               use_lookup ? "lookup" : "file", rsize, remote_sum, answer, all_ok ? "OK" : "BAD");
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
