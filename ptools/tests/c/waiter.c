/* A job process for the p-tools tests.
 *
 * Each writes "<pid>" to DIR/ready.<rank> when it is ready.
 *
 *   waiter wait DIR CODE    publish "ptools.key.<rank>" = "value of <rank>", register a
 *                           handler for event CODE, write DIR/ready.<rank>, then wait until
 *                           killed; on the event, write "<code> <source nspace>:<rank>" to
 *                           DIR/event.<rank>.
 *   waiter talk DIR CODE N  register a handler for CODE, write DIR/ready.<rank>; on the event
 *                           write N lines to stdout and to stderr (the last without a
 *                           newline), finalize and exit 0.
 *   waiter echo DIR         write DIR/ready.<rank>, copy stdin to stdout prefixed "echo: "
 *                           per line until end of input, finalize and exit 0.
 */
#include <pmix.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t me;
static const char *dir;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int fired = 0;

static void write_file(const char *what, const char *text)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof(path), "%s/%s.%u", dir, what, me.rank);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        perror(tmp);
        exit(3);
    }
    fputs(text, f);
    fclose(f);
    rename(tmp, path);
}

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id;
    (void) info;
    (void) ninfo;
    (void) results;
    (void) nresults;
    char text[600];
    snprintf(text, sizeof(text), "%d %s:%u\n", status, source->nspace, source->rank);
    write_file("event", text);
    pthread_mutex_lock(&lock);
    fired = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void ready(void)
{
    char text[32];
    snprintf(text, sizeof(text), "%d\n", (int) getpid());
    write_file("ready", text);
}

static void register_handler(pmix_status_t code)
{
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "register: %s\n", PMIx_Error_string(rc));
        exit(4);
    }
}

static void wait_for_event(void)
{
    pthread_mutex_lock(&lock);
    while (!fired)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: waiter wait|talk|echo DIR [CODE [N]]\n");
        return 2;
    }
    dir = argv[2];
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    if (strcmp(argv[1], "wait") == 0 && argc == 4) {
        pmix_info_t pub;
        char key[64], value[64];
        snprintf(key, sizeof(key), "ptools.key.%u", me.rank);
        snprintf(value, sizeof(value), "value of %u", me.rank);
        PMIX_INFO_LOAD(&pub, key, value, PMIX_STRING);
        rc = PMIx_Publish(&pub, 1);
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "publish: %s\n", PMIx_Error_string(rc));
            return 1;
        }
        register_handler(atoi(argv[3]));
        ready();
        for (;;)
            pause();
    } else if (strcmp(argv[1], "talk") == 0 && argc == 5) {
        register_handler(atoi(argv[3]));
        ready();
        wait_for_event();
        int n = atoi(argv[4]);
        for (int i = 0; i < n; i++) {
            const char *end = i + 1 < n ? "\n" : "";
            printf("out %u %d%s", me.rank, i, end);
            fprintf(stderr, "err %u %d%s", me.rank, i, end);
        }
        fflush(stdout);
        fflush(stderr);
    } else if (strcmp(argv[1], "echo") == 0) {
        ready();
        char line[4096];
        while (fgets(line, sizeof(line), stdin) != NULL) {
            printf("echo: %s", line);
            fflush(stdout);
        }
    } else {
        fprintf(stderr, "waiter: bad arguments\n");
        return 2;
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
