/*
 * pmix-rs devel headers: the getopt_long-based command-line parser and the helpers PRRTE's
 * option handling inlines. Layouts: pmix-internals/facts/layouts-cli.txt.
 */
#ifndef PMIX_CMD_LINE_H
#define PMIX_CMD_LINE_H

#include "src/include/pmix_config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pmix.h"
#include "src/class/pmix_list.h"
#include "src/class/pmix_object.h"
#include "src/util/pmix_argv.h"
#include "src/util/pmix_output.h"

BEGIN_C_DECLS

/* One option seen on the command line, with every value it was given. */
typedef struct {
    pmix_list_item_t super;
    char *key;
    char **values;
} pmix_cli_item_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_cli_item_t);

typedef struct {
    pmix_object_t super;
    pmix_list_t instances; /* of pmix_cli_item_t */
    char **tail;           /* what follows the options */
} pmix_cli_result_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_cli_result_t);

#define PMIX_CLI_RESULT_STATIC_INIT                   \
    {                                                 \
        .super = PMIX_OBJ_STATIC_INIT(pmix_object_t), \
        .instances = PMIX_LIST_STATIC_INIT,           \
        .tail = NULL                                  \
    }

#define PMIX_ARG_REQD     required_argument
#define PMIX_ARG_NONE     no_argument
#define PMIX_ARG_OPTIONAL optional_argument

#define PMIX_CLI_SILENT true
#define PMIX_CLI_WARN   false

#define PMIX_OPTION_DEFINE(n, a)             {.name = (n), .has_arg = (a), .flag = NULL, .val = 0}
#define PMIX_OPTION_SHORT_DEFINE(n, a, c)    {.name = (n), .has_arg = (a), .flag = NULL, .val = (c)}
#define PMIX_OPTION_END                      {0, 0, 0, 0}

/* Option names shared by the PMIx tools. */
#define PMIX_CLI_HELP                "help"
#define PMIX_CLI_VERSION             "version"
#define PMIX_CLI_VERBOSE             "verbose"
#define PMIX_CLI_PMIXMCA             "pmixmca"
#define PMIX_CLI_SYS_SERVER_FIRST    "system-server-first"
#define PMIX_CLI_SYSTEM_SERVER       "system-server"
#define PMIX_CLI_SYS_SERVER_ONLY     "system-server-only"
#define PMIX_CLI_DO_NOT_CONNECT      "do-not-connect"
#define PMIX_CLI_WAIT_TO_CONNECT     "wait-to-connect"
#define PMIX_CLI_NUM_CONNECT_RETRIES "num-connect-retries"
#define PMIX_CLI_PID                 "pid"
#define PMIX_CLI_NAMESPACE           "namespace"
#define PMIX_CLI_NSPACE              "nspace"
#define PMIX_CLI_URI                 "uri"
#define PMIX_CLI_TIMEOUT             "timeout"
#define PMIX_CLI_TMPDIR              "tmpdir"
#define PMIX_CLI_CONNECTION_ORDER    "connect-order"
#define PMIX_CLI_SYS_CONTROLLER      "system-controller"
#define PMIX_CLI_REQ_ID              "request-id"
#define PMIX_CLI_QUEUE               "queue"
#define PMIX_CLI_RESOURCES           "resources"
#define PMIX_CLI_NODES               "nodes"
#define PMIX_CLI_IMAGE               "image"
#define PMIX_CLI_EXCLUDE             "exclude"
#define PMIX_CLI_WAIT_ALL_NODES      "wait-all-nodes"
#define PMIX_CLI_NODELIST            "nodelist"
#define PMIX_CLI_UID                 "uid"
#define PMIX_CLI_GID                 "gid"
#define PMIX_CLI_TIME                "time"
#define PMIX_CLI_SIGNAL              "signal"
#define PMIX_CLI_SHARE               "share"
#define PMIX_CLI_EXTEND              "extend"
#define PMIX_CLI_SHRINK              "shrink"
#define PMIX_CLI_NO_SHELL            "no-shell"
#define PMIX_CLI_BEGIN               "begin"
#define PMIX_CLI_IMMEDIATE           "immediate"
#define PMIX_CLI_DEPENDENCY          "dependency"
#define PMIX_CLI_DO_NOT_WAIT         "do-not-wait"
#define PMIX_CLI_PAUSE               "pause"
#define PMIX_CLI_RESUME              "resume"
#define PMIX_CLI_CANCEL              "cancel"
#define PMIX_CLI_KILL                "kill"
#define PMIX_CLI_RESTART             "restart"
#define PMIX_CLI_CHKPT               "checkpoint"
#define PMIX_CLI_TARGETS             "targets"
#define PMIX_CLI_TERMINATE           "terminate"
#define PMIX_CLI_PSET_NAME           "pset"
#define PMIX_CLI_FWD_ENVAR           "x"
#define PMIX_CLI_PREPEND_ENVAR       "prepend-env"
#define PMIX_CLI_APPEND_ENVAR        "append-env"
#define PMIX_CLI_UNSET_ENVAR         "unset-env"

/* Called for each option parsed: NAME as given, OPTION its value (or NULL). */
typedef void (*pmix_cmd_line_store_fn_t)(const char *name, const char *option,
                                         pmix_cli_result_t *results);

PMIX_EXPORT int pmix_cmd_line_parse(char **argv, char *shorts, struct option myoptions[],
                                    pmix_cmd_line_store_fn_t storefn, pmix_cli_result_t *results,
                                    char *helpfile);

static inline pmix_cli_item_t *pmix_cmd_line_get_param(pmix_cli_result_t *results,
                                                       const char *key)
{
    pmix_cli_item_t *opt;
    PMIX_LIST_FOREACH (opt, &results->instances, pmix_cli_item_t) {
        if (0 == strcmp(opt->key, key)) {
            return opt;
        }
    }
    return NULL;
}

static inline bool pmix_cmd_line_is_taken(pmix_cli_result_t *results, const char *key)
{
    return NULL != pmix_cmd_line_get_param(results, key);
}

/* How many values KEY was given (0 if absent). */
static inline int pmix_cmd_line_get_ninsts(pmix_cli_result_t *results, const char *key)
{
    pmix_cli_item_t *opt = pmix_cmd_line_get_param(results, key);
    return NULL == opt ? 0 : PMIx_Argv_count(opt->values);
}

static inline char *pmix_cmd_line_get_nth_instance(pmix_cli_result_t *results, const char *key,
                                                   int idx)
{
    pmix_cli_item_t *opt = pmix_cmd_line_get_param(results, key);
    if (NULL == opt || idx < 0 || PMIx_Argv_count(opt->values) <= idx) {
        return NULL;
    }
    return opt->values[idx];
}

/* Whether GIVEN (what the user typed, up to any '=') names OPTION: case-insensitive prefix
 * matching, word by word for dash-separated names ("map-b" names "map-by"; a name with
 * more words than OPTION does not match). */
static inline bool pmix_check_cli_option(char *given, char *option)
{
    char *a = strdup(given), *b = strdup(option), *eq;
    bool matched = true;

    if (NULL != (eq = strchr(a, '='))) {
        *eq = '\0';
    }
    if (NULL != (eq = strchr(b, '='))) {
        *eq = '\0';
    }
    if (NULL != strchr(a, '-') || NULL != strchr(b, '-')) {
        char **aw = PMIx_Argv_split(a, '-'), **bw = PMIx_Argv_split(b, '-');
        int n, na = PMIx_Argv_count(aw), nb = PMIx_Argv_count(bw);
        if (na > nb) {
            matched = false;
        }
        for (n = 0; matched && n < na; n++) {
            size_t la = strlen(aw[n]), lb = strlen(bw[n]);
            matched = 0 == strncasecmp(aw[n], bw[n], la < lb ? la : lb);
        }
        PMIx_Argv_free(aw);
        PMIx_Argv_free(bw);
    } else {
        size_t la = strlen(a), lb = strlen(b);
        matched = 0 == strncasecmp(a, b, la < lb ? la : lb);
    }
    free(a);
    free(b);
    return matched;
}
#define PMIX_CHECK_CLI_OPTION(a, b) pmix_check_cli_option(a, b)

/* "[[[D:]H:]M:]S" to seconds. */
static inline unsigned int pmix_convert_string_to_time(const char *t)
{
    static const unsigned int unit[] = {1, 60, 60 * 60, 24 * 60 * 60};
    char **parts = PMIx_Argv_split(t, ':');
    int n, count = PMIx_Argv_count(parts);
    unsigned int secs = 0;
    for (n = 0; n < count && n < 4; n++) {
        secs += unit[n] * (unsigned int) strtoul(parts[count - 1 - n], NULL, 10);
    }
    PMIx_Argv_free(parts);
    return secs;
}
#define PMIX_CONVERT_TIME(s) pmix_convert_string_to_time(s)

#define PMIX_CLI_DEBUG_LIST(r)                                                 \
    do {                                                                       \
        pmix_cli_item_t *pmix_dl_c_;                                           \
        char *pmix_dl_tail_;                                                   \
        pmix_output(0, "\n[%s:%s:%d]", __FILE__, __func__, __LINE__);          \
        PMIX_LIST_FOREACH (pmix_dl_c_, &(r)->instances, pmix_cli_item_t) {     \
            pmix_output(0, "KEY: %s", pmix_dl_c_->key);                        \
            for (int n_ = 0; NULL != pmix_dl_c_->values && NULL != pmix_dl_c_->values[n_]; n_++) { \
                pmix_output(0, "    VAL[%d]: %s", n_, pmix_dl_c_->values[n_]); \
            }                                                                  \
        }                                                                      \
        pmix_dl_tail_ = PMIx_Argv_join((r)->tail, ' ');                        \
        pmix_output(0, "TAIL: %s", pmix_dl_tail_);                             \
        free(pmix_dl_tail_);                                                   \
        pmix_output(0, "\n");                                                  \
    } while (0)

/* Drops option O (a pmix_cli_item_t of R) after its deprecated form has been translated. */
#define PMIX_CLI_REMOVE_DEPRECATED(r, o)                         \
    do {                                                         \
        pmix_list_remove_item(&(r)->instances, &(o)->super);     \
        PMIX_RELEASE(o);                                         \
    } while (0)

END_C_DECLS

#endif /* PMIX_CMD_LINE_H */
