/* Prints the job, application, node and process information a launcher registered, as the
 * client library returns it: one "R: KEY = VALUE" line per key (R is the rank). Keys that
 * are missing print "R: KEY missing (STATUS)".
 *
 * usage: keys [bound]     ("bound": also ask for the cpuset and locality string) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

static pmix_proc_t me;

static void show(const char *label, pmix_rank_t rank, const char *key)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&p, me.nspace, rank);
    rc = PMIx_Get(&p, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL) {
        printf("%u: %s missing (%s)\n", me.rank, label, PMIx_Error_string(rc));
        return;
    }
    switch (v->type) {
    case PMIX_STRING:
        printf("%u: %s = %s\n", me.rank, label, v->data.string ? v->data.string : "(null)");
        break;
    case PMIX_UINT32:
        printf("%u: %s = %u\n", me.rank, label, v->data.uint32);
        break;
    case PMIX_UINT16:
        printf("%u: %s = %u\n", me.rank, label, (unsigned) v->data.uint16);
        break;
    case PMIX_PROC_RANK:
        printf("%u: %s = %u\n", me.rank, label, v->data.rank);
        break;
    case PMIX_BOOL:
        printf("%u: %s = %s\n", me.rank, label, v->data.flag ? "true" : "false");
        break;
    case PMIX_PROC:
        printf("%u: %s = %s:%u\n", me.rank, label, v->data.proc->nspace, v->data.proc->rank);
        break;
    default:
        printf("%u: %s has type %s\n", me.rank, label, PMIx_Data_type_string(v->type));
    }
    PMIX_VALUE_RELEASE(v);
}

/* Whether the process's PMIX_PROCDIR exists when it runs: a file can be made in it. */
static void procdir_writable(void)
{
    pmix_value_t *v = NULL;
    char path[4096];
    FILE *f;
    int ok = 0;
    if (PMIx_Get(&me, PMIX_PROCDIR, NULL, 0, &v) == PMIX_SUCCESS && v != NULL
        && v->type == PMIX_STRING && v->data.string != NULL) {
        snprintf(path, sizeof(path), "%s/probe", v->data.string);
        f = fopen(path, "w");
        if (f != NULL) {
            ok = fclose(f) == 0 && unlink(path) == 0;
        }
    }
    if (v != NULL) {
        PMIX_VALUE_RELEASE(v);
    }
    printf("%u: procdir writable = %s\n", me.rank, ok ? "yes" : "no");
}

int main(int argc, char **argv)
{
    pmix_status_t rc;
    int bound = argc > 1 && strcmp(argv[1], "bound") == 0;
    setvbuf(stdout, NULL, _IONBF, 0);
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "keys: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    if (me.rank == 0) {
        show("job size", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
        show("univ size", PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE);
        show("max procs", PMIX_RANK_WILDCARD, PMIX_MAX_PROCS);
        show("num apps", PMIX_RANK_WILDCARD, PMIX_JOB_NUM_APPS);
        show("num nodes", PMIX_RANK_WILDCARD, PMIX_NUM_NODES);
        show("jobid", PMIX_RANK_WILDCARD, PMIX_JOBID);
        show("local size", PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE);
        show("node size", PMIX_RANK_WILDCARD, PMIX_NODE_SIZE);
        show("local peers", PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS);
        show("local leader", PMIX_RANK_WILDCARD, PMIX_LOCALLDR);
        show("hostname", PMIX_RANK_WILDCARD, PMIX_HOSTNAME);
        show("nodeid", PMIX_RANK_WILDCARD, PMIX_NODEID);
        show("tmpdir", PMIX_RANK_WILDCARD, PMIX_TMPDIR);
        show("nsdir", PMIX_RANK_WILDCARD, PMIX_NSDIR);
    }
    show("local rank", me.rank, PMIX_LOCAL_RANK);
    show("node rank", me.rank, PMIX_NODE_RANK);
    show("global rank", me.rank, PMIX_GLOBAL_RANK);
    show("appnum", me.rank, PMIX_APPNUM);
    show("app rank", me.rank, PMIX_APP_RANK);
    /* app-level keys, asked at job level: the caller's application answers */
    show("app size", PMIX_RANK_WILDCARD, PMIX_APP_SIZE);
    show("app leader", PMIX_RANK_WILDCARD, PMIX_APPLDR);
    show("proc hostname", me.rank, PMIX_HOSTNAME);
    show("proc nodeid", me.rank, PMIX_NODEID);
    show("procdir", me.rank, PMIX_PROCDIR);
    procdir_writable();
    if (bound) {
        show("cpuset", me.rank, PMIX_CPUSET);
        show("locality", me.rank, PMIX_LOCALITY_STRING);
    }
    rc = PMIx_Finalize(NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "keys: PMIx_Finalize: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    return 0;
}
