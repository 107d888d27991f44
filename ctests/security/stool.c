/* The second-user test's tool (and the ranks of the job it acts on), on the public API only,
 * so that it runs on our library and on the reference.
 *
 * As a tool: connects to the server named by URI (PMIX_SERVER_URI: "tcp4://..." or
 * "file:<rendezvous file>"; "system": PMIX_CONNECT_TO_SYSTEM; "pid:N": PMIX_SERVER_PIDINFO N)
 * and makes one request, printing one line per step:
 *   init STATUS                  PMIx_tool_init
 *   ACTION STATUS [detail]       the request (after a failed init too: it must fail)
 * usage: stool URI none
 *        stool URI spawn MARKER           PMIx_Spawn of /bin/sh -c 'id -u > MARKER'
 *        stool URI kill NSPACE RANK       PMIx_Job_control (PMIX_JOB_CTRL_KILL)
 *        stool URI stdin NSPACE RANK TEXT PMIx_IOF_push of TEXT and a newline
 *        stool URI publish KEY VALUE [UID] PMIx_Publish (readable by UID only, if given)
 *        stool URI lookup KEY             PMIx_Lookup; detail: the value
 *        stool URI query NSPACE           PMIx_Query_info of PMIX_QUERY_PROC_TABLE; detail: procs
 * As a rank: stool rank SECONDS FILE: PMIx_Init, copy stdin to FILE until SECONDS have passed,
 * PMIx_Finalize. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pmix_tool.h>

static int rank_main(int seconds, const char *file)
{
    pmix_proc_t me;
    time_t end = time(NULL) + seconds;
    FILE *out;
    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        fprintf(stderr, "stool rank: init failed\n");
        return 1;
    }
    out = fopen(file, "a");
    while (out && time(NULL) < end) {
        struct pollfd p = {.fd = 0, .events = POLLIN};
        char buf[256];
        ssize_t n;
        if (poll(&p, 1, 200) <= 0) continue;
        n = read(0, buf, sizeof(buf));
        if (n <= 0) { /* no (more) input: stay a live rank until the time is up */
            usleep(200000);
            continue;
        }
        fwrite(buf, 1, (size_t) n, out);
        fflush(out);
    }
    if (out) fclose(out);
    PMIx_Finalize(NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    pmix_proc_t me, target;
    pmix_info_t info[2];
    pmix_status_t rc;
    const char *act;
    if (argc >= 4 && 0 == strcmp(argv[1], "rank")) {
        return rank_main(atoi(argv[2]), argv[3]);
    }
    if (argc < 3) {
        fprintf(stderr, "usage: stool URI ACTION [ARGS]\n");
        return 2;
    }
    act = argv[2];
    if (0 == strcmp(argv[1], "system")) {
        bool yes = true;
        PMIX_INFO_LOAD(&info[0], PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    } else if (0 == strncmp(argv[1], "pid:", 4)) {
        pid_t pid = (pid_t) atoi(argv[1] + 4);
        PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    } else {
        PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, argv[1], PMIX_STRING);
    }
    rc = PMIx_tool_init(&me, info, 1);
    printf("init %s\n", PMIx_Error_string(rc));
    fflush(stdout);
    if (0 == strcmp(act, "spawn") && argc >= 4) {
        pmix_app_t app;
        char nspace[PMIX_MAX_NSLEN + 1] = "";
        char cmd[4096];
        snprintf(cmd, sizeof(cmd), "id -u > %s", argv[3]);
        PMIX_APP_CONSTRUCT(&app);
        app.cmd = strdup("/bin/sh");
        app.argv = calloc(4, sizeof(char *));
        app.argv[0] = strdup("/bin/sh");
        app.argv[1] = strdup("-c");
        app.argv[2] = strdup(cmd);
        app.maxprocs = 1;
        rc = PMIx_Spawn(NULL, 0, &app, 1, nspace);
        printf("spawn %s %s\n", PMIx_Error_string(rc), nspace);
        PMIX_APP_DESTRUCT(&app);
    } else if (0 == strcmp(act, "kill") && argc >= 5) {
        bool yes = true;
        pmix_info_t *res = NULL;
        size_t nres = 0;
        PMIX_LOAD_PROCID(&target, argv[3], (pmix_rank_t) atoi(argv[4]));
        PMIX_INFO_LOAD(&info[1], PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
        rc = PMIx_Job_control(&target, 1, &info[1], 1, &res, &nres);
        printf("kill %s\n", PMIx_Error_string(rc));
    } else if (0 == strcmp(act, "stdin") && argc >= 6) {
        pmix_byte_object_t bo;
        char text[1024];
        snprintf(text, sizeof(text), "%s\n", argv[5]);
        PMIX_LOAD_PROCID(&target, argv[3], (pmix_rank_t) atoi(argv[4]));
        bo.bytes = text;
        bo.size = strlen(text);
        rc = PMIx_IOF_push(&target, 1, &bo, NULL, 0, NULL, NULL);
        printf("stdin %s\n", PMIx_Error_string(rc));
    } else if (0 == strcmp(act, "publish") && argc >= 5) {
        pmix_info_t pub[2];
        size_t n = 1;
        PMIX_INFO_LOAD(&pub[0], argv[3], argv[4], PMIX_STRING);
        if (argc >= 6) {
            pmix_data_array_t *da;
            uint32_t uid = (uint32_t) strtoul(argv[5], NULL, 10);
            PMIX_DATA_ARRAY_CREATE(da, 1, PMIX_UINT32);
            ((uint32_t *) da->array)[0] = uid;
            PMIX_INFO_LOAD(&pub[1], PMIX_ACCESS_USERIDS, da, PMIX_DATA_ARRAY);
            PMIX_DATA_ARRAY_FREE(da);
            n = 2;
        }
        rc = PMIx_Publish(pub, n);
        printf("publish %s\n", PMIx_Error_string(rc));
    } else if (0 == strcmp(act, "lookup") && argc >= 4) {
        pmix_pdata_t pd;
        PMIX_PDATA_CONSTRUCT(&pd);
        PMIX_LOAD_KEY(pd.key, argv[3]);
        rc = PMIx_Lookup(&pd, 1, NULL, 0);
        printf("lookup %s %s\n", PMIx_Error_string(rc),
               (PMIX_SUCCESS == rc && PMIX_STRING == pd.value.type) ? pd.value.data.string : "-");
        PMIX_PDATA_DESTRUCT(&pd);
    } else if (0 == strcmp(act, "query") && argc >= 4) {
        pmix_query_t q;
        pmix_info_t *res = NULL;
        size_t nres = 0, nprocs = 0;
        PMIX_QUERY_CONSTRUCT(&q);
        PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_PROC_TABLE);
        PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
        PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, argv[3], PMIX_STRING);
        rc = PMIx_Query_info(&q, 1, &res, &nres);
        if (PMIX_SUCCESS == rc && nres > 0 && PMIX_DATA_ARRAY == res[0].value.type &&
            NULL != res[0].value.data.darray) {
            nprocs = res[0].value.data.darray->size;
        }
        printf("query %s %zu\n", PMIx_Error_string(rc), nprocs);
    } else if (0 != strcmp(act, "none")) {
        fprintf(stderr, "stool: unknown action %s\n", act);
        return 2;
    }
    fflush(stdout);
    PMIx_tool_finalize();
    return 0;
}
