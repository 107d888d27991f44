/* A small prun: runs a job in a running PRRTE DVM (`prte --report-uri FILE`) through the PMIx
 * tool interface, as PRRTE's prun does (the wheel ships prte but no prun): it connects to the
 * DVM by its URI, spawns NP copies of CMD with the job's stdout and stderr forwarded to it
 * (the tool library writes them to its own stdout and stderr) and completion notified, waits
 * for the job-end event of that job, and exits with the job's exit status. The job gets
 * dvmrun's environment.
 *
 * usage: dvmrun URIFILE NP CMD [ARG...]     exit status: the job's, or 90 + a step that failed */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix_tool.h>

extern char **environ;

/* the jobs whose end was notified, before or after the spawn returned */
#define MAXENDED 16
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static char ended[MAXENDED][PMIX_MAX_NSLEN + 1];
static int ended_status[MAXENDED];
static int nended;

static void on_job_end(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id; (void)status; (void)results; (void)nresults;
    const char *ns = source ? source->nspace : "";
    int st = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC)
            ns = info[i].value.data.proc->nspace;
        else if (PMIX_CHECK_KEY(&info[i], PMIX_JOB_TERM_STATUS))
            st = info[i].value.type == PMIX_STATUS ? info[i].value.data.status : info[i].value.data.integer;
    }
    pthread_mutex_lock(&lock);
    if (nended < MAXENDED) {
        snprintf(ended[nended], sizeof ended[nended], "%s", ns);
        ended_status[nended++] = st;
    }
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: dvmrun URIFILE NP CMD [ARG...]\n"); return 2; }
    char uri[1024] = "";
    FILE *f = fopen(argv[1], "r");
    if (!f || !fgets(uri, sizeof uri, f)) { perror(argv[1]); return 91; }
    fclose(f);
    uri[strcspn(uri, "\n")] = '\0';

    pmix_proc_t me;
    pmix_info_t info[2];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, uri, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_IOF_LOCAL_OUTPUT, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(&me, info, 2);
    if (rc != PMIX_SUCCESS) { fprintf(stderr, "dvmrun: PMIx_tool_init: %s\n", PMIx_Error_string(rc)); return 92; }

    pmix_status_t code = PMIX_EVENT_JOB_END;
    rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_job_end, NULL, NULL);
    if (rc < 0) { fprintf(stderr, "dvmrun: PMIx_Register_event_handler: %s\n", PMIx_Error_string(rc)); return 93; }

    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(argv[3]);
    app.argv = calloc(argc - 2, sizeof(char *));
    for (int i = 3; i < argc; i++) app.argv[i - 3] = strdup(argv[i]);
    app.maxprocs = atoi(argv[2]);
    size_t nenv = 0;
    while (environ[nenv]) nenv++;
    app.env = calloc(nenv + 1, sizeof(char *));
    for (size_t i = 0; i < nenv; i++) app.env[i] = strdup(environ[i]);
    char cwd[4096];
    app.cwd = strdup(getcwd(cwd, sizeof cwd) ? cwd : "/");
    pmix_info_t job[4];
    PMIX_INFO_LOAD(&job[0], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&job[1], PMIX_FWD_STDOUT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&job[2], PMIX_FWD_STDERR, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&job[3], PMIX_MAPBY, ":OVERSUBSCRIBE", PMIX_STRING);
    char ns[PMIX_MAX_NSLEN + 1] = "";
    rc = PMIx_Spawn(job, 4, &app, 1, ns);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "dvmrun: PMIx_Spawn: %s\n", PMIx_Error_string(rc));
        PMIx_tool_finalize();
        return 94;
    }

    int status = -1;
    pthread_mutex_lock(&lock);
    while (status < 0) {
        for (int i = 0; i < nended; i++)
            if (strcmp(ended[i], ns) == 0) status = ended_status[i];
        if (status < 0) pthread_cond_wait(&cond, &lock);
    }
    pthread_mutex_unlock(&lock);
    /* the job's last output may still be on its way to the tool */
    sleep(1);
    PMIx_tool_finalize();
    return status;
}
