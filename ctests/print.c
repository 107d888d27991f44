/* The string functions and the printers: PMIx_Error_string and the other *_string names,
 * PMIx_Info_directives_string, PMIx_Value_string, PMIx_Info_string and PMIx_Data_print, on
 * data built with the header macros. Every returned allocation is freed (valgrind checks). */

#include <stdlib.h>
#include <string.h>
#include "common.h"

static void show(const char *what, char *s)
{
    printf("%s: [%s]\n", what, s ? s : "(NULL)");
    free(s);
}

static void dprint(const char *what, const char *prefix, void *src, pmix_data_type_t t)
{
    char *out = NULL;
    pmix_status_t rc = PMIx_Data_print(&out, (char *) prefix, src, t);
    printf("%s: rc=%d ", what, rc);
    show("out", out);
}

int main(void)
{
    int codes[] = {0, -1, -27, -46, -104, -171, -3000, 1, -100000};
    pmix_value_t *v;
    pmix_info_t *info;
    pmix_data_array_t *darray;
    pmix_proc_t proc;
    uint32_t u32 = 42;
    double d = -2.25;
    char *str = "hello";
    size_t n;

    ctest_init();
    printf("== names\n");
    for (n = 0; n < sizeof(codes) / sizeof(codes[0]); n++) {
        printf("error %d: %s\n", codes[n], PMIx_Error_string(codes[n]));
    }
    printf("proc state: %s / %s\n", PMIx_Proc_state_string(PMIX_PROC_STATE_RUNNING),
           PMIx_Proc_state_string(200));
    printf("scope: %s\n", PMIx_Scope_string(PMIX_GLOBAL));
    printf("persistence: %s\n", PMIx_Persistence_string(PMIX_PERSIST_SESSION));
    printf("range: %s\n", PMIx_Data_range_string(PMIX_RANGE_NAMESPACE));
    printf("type: %s / %s\n", PMIx_Data_type_string(PMIX_PROC_RANK), PMIx_Data_type_string(999));
    printf("alloc: %s\n", PMIx_Alloc_directive_string(PMIX_ALLOC_EXTEND));
    /* one call per printf: the reference writes every answer into the same static buffer */
    printf("iof: [%s]\n", PMIx_IOF_channel_string(PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL));
    printf("iof: [%s]\n", PMIx_IOF_channel_string(PMIX_FWD_NO_CHANNELS));
    printf("job state: %s\n", PMIx_Job_state_string(PMIX_JOB_STATE_TERMINATED));
    printf("link state: %s\n", PMIx_Link_state_string(PMIX_LINK_UP));
    printf("device: %s\n", PMIx_Device_type_string(PMIX_DEVTYPE_GPU));
    printf("comparison: %s\n", PMIx_Value_comparison_string(PMIX_VALUE2_GREATER));
    show("directives", PMIx_Info_directives_string(PMIX_INFO_REQD | PMIX_INFO_REQD_PROCESSED));

    printf("== values and infos\n");
    PMIX_VALUE_CREATE(v, 1);
    PMIX_VALUE_LOAD(v, &u32, PMIX_UINT32);
    show("value uint32", PMIx_Value_string(v));
    PMIX_VALUE_DESTRUCT(v);
    PMIX_VALUE_LOAD(v, str, PMIX_STRING);
    show("value string", PMIx_Value_string(v));
    dprint("print value", "=> ", v, PMIX_VALUE);
    PMIX_VALUE_DESTRUCT(v);
    PMIX_LOAD_PROCID(&proc, "my.nspace", PMIX_RANK_WILDCARD);
    PMIX_VALUE_LOAD(v, &proc, PMIX_PROC);
    show("value proc", PMIx_Value_string(v));
    PMIX_VALUE_RELEASE(v);

    PMIX_DATA_ARRAY_CREATE(darray, 3, PMIX_INFO);
    info = (pmix_info_t *) darray->array;
    PMIX_INFO_LOAD(&info[0], PMIX_RANK, &u32, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], "my.key", &d, PMIX_DOUBLE);
    PMIX_INFO_REQUIRED(&info[1]);
    PMIX_INFO_LOAD(&info[2], PMIX_NSPACE, "ns", PMIX_STRING);
    show("info 0", PMIx_Info_string(&info[0]));
    show("info 1", PMIx_Info_string(&info[1]));
    dprint("print info", NULL, &info[2], PMIX_INFO);

    printf("== data arrays\n");
    dprint("print array of infos", "  ", darray, PMIX_DATA_ARRAY);
    PMIX_VALUE_CREATE(v, 1);
    v->type = PMIX_DATA_ARRAY;
    v->data.darray = darray;
    show("value array of infos", PMIx_Value_string(v));
    PMIX_VALUE_RELEASE(v); /* releases the array and the infos */

    printf("== Data_print by type\n");
    dprint("bool", "", &(bool){true}, PMIX_BOOL);
    dprint("byte", "", &(uint8_t){200}, PMIX_BYTE);
    dprint("string", "", str, PMIX_STRING);
    dprint("double", "", &d, PMIX_DOUBLE);
    dprint("status", "", &(pmix_status_t){PMIX_ERR_NOT_FOUND}, PMIX_STATUS);
    dprint("rank", "", &(pmix_rank_t){PMIX_RANK_UNDEF}, PMIX_PROC_RANK);
    dprint("command", "", &(uint8_t){2}, PMIX_COMMAND);
    dprint("locality", "", &(pmix_locality_t){PMIX_LOCALITY_SHARE_NUMA | PMIX_LOCALITY_SHARE_CORE},
           PMIX_LOCTYPE);
    dprint("undefined type", "", &u32, 999);
    return 0;
}
