/* A tool that spawns a job through its server (thost.c's spawn upcall) and prints what it
 * gets back; the server library registers the tool for the new job's output, which the tool's
 * library writes to the tool's own stdout and stderr (OpenPMIx's tools do so for output
 * their own handlers do not take). MODE: "plain", a spawn with one directive
 * (PMIX_NOTIFY_COMPLETION, as PRRTE's prun gives) and no forwarding ones: the tool gets
 * stdout and stderr; "nofwd", PMIX_FWD_STDOUT and PMIX_FWD_STDERR false: nothing; "bare", no
 * directive at all: nothing either (OpenPMIx looks at the forwarding directives only when
 * there are directives); "ended", as "plain" for a job that ended, its output delivered and
 * its namespace deregistered, before the spawn is answered: the tool still gets the output.
 * usage: spawntool <server pid> plain|nofwd|bare|ended */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix_tool.h>

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_info_t info[3], job[3];
    size_t njob = 0;
    pmix_app_t app;
    char ns[PMIX_MAX_NSLEN + 1] = "";
    pid_t pid = argc > 1 ? atoi(argv[1]) : 0;
    const char *mode = argc > 2 ? argv[2] : "plain";
    bool no = false, yes = true;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    pmix_status_t rc;

    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING);
    /* as PRRTE's prun: output that comes to the tool is written out */
    PMIX_INFO_LOAD(&info[2], PMIX_IOF_LOCAL_OUTPUT, &yes, PMIX_BOOL);
    rc = PMIx_tool_init(&me, info, 3);
    printf("tool_init: %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) return 1;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(0 == strcmp(mode, "ended") ? "ended" : "true");
    app.maxprocs = 1;
    if (0 != strcmp(mode, "bare")) {
        PMIX_INFO_LOAD(&job[njob], PMIX_NOTIFY_COMPLETION, &yes, PMIX_BOOL);
        njob++;
    }
    if (0 == strcmp(mode, "nofwd")) {
        PMIX_INFO_LOAD(&job[njob], PMIX_FWD_STDOUT, &no, PMIX_BOOL);
        PMIX_INFO_LOAD(&job[njob + 1], PMIX_FWD_STDERR, &no, PMIX_BOOL);
        njob += 2;
    }
    rc = PMIx_Spawn(njob ? job : NULL, njob, &app, 1, ns);
    printf("spawn: %s %s\n", PMIx_Error_string(rc), ns);
    fflush(stdout);
    sleep(1);   /* the server delivers the job's output 0.3 s after answering */
    fflush(stdout);
    rc = PMIx_tool_finalize();
    printf("tool_finalize: %s\n", PMIx_Error_string(rc));
    return 0;
}
