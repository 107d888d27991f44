/* Help messages logged by the ranks of a job (issue 16, item 3): each rank logs a text to
 * PMIX_LOG_STDERR naming a help file and topic (PMIX_LOG_KEY, PMIX_LOG_VAL), as Open MPI's
 * opal_show_help does, and a second text with PMIX_LOG_AGG false; then all meet in a fence,
 * sleep the seconds given in argv[1] (0 by default) and end. The server folds the repeats of
 * the first (only one rank's text is written, then "N more processes have sent help
 * message help-test.txt / topic-a") and writes every rank's second text. */
#include <pmix.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void log_text(const char *topic, const char *text, bool fold)
{
    pmix_info_t data, dirs[3];
    size_t ndirs = 2;
    bool no = false;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, text, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[0], PMIX_LOG_KEY, "help-test.txt", PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[1], PMIX_LOG_VAL, topic, PMIX_STRING);
    if (!fold) {
        PMIX_INFO_LOAD(&dirs[2], PMIX_LOG_AGG, &no, PMIX_BOOL);
        ndirs = 3;
    }
    rc = PMIx_Log(&data, 1, dirs, ndirs);
    if (PMIX_SUCCESS != rc) {
        printf("PMIx_Log of %s: %s\n", topic, PMIx_Error_string(rc));
    }
    PMIX_INFO_DESTRUCT(&data);
    for (size_t n = 0; n < ndirs; n++) {
        PMIX_INFO_DESTRUCT(&dirs[n]);
    }
}

int main(int argc, char **argv)
{
    pmix_proc_t me, all;
    char text[128];
    int seconds = argc > 1 ? atoi(argv[1]) : 0;

    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        printf("PMIx_Init failed\n");
        return 1;
    }
    snprintf(text, sizeof text, "help text from rank %u\n", me.rank);
    log_text("topic-a", text, true);
    snprintf(text, sizeof text, "unfolded text from rank %u\n", me.rank);
    log_text("topic-b", text, false);
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    PMIx_Fence(&all, 1, NULL, 0);
    if (seconds > 0) {
        sleep((unsigned) seconds);
    }
    printf("rank %u done\n", me.rank);
    PMIx_Finalize(NULL, 0);
    return 0;
}
