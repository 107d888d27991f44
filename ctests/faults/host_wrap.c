/* Additions to ctests/session/host.c for the fault tests, linked in with
 *   -Wl,--wrap=PMIx_server_init -Wl,--wrap=PMIx_server_register_client
 * so that host.c itself stays unchanged and runs over either library.
 *
 * - PMIx_server_init: the host's module is copied with its notify_event upcall replaced by
 *   one that logs every call on stderr ("fault-host: notify_event upcall ...") and then runs
 *   host.c's own. After a successful init, the host registers two event handlers in the
 *   server process with PMIx_Register_event_handler: one for PMIX_ERR_LOST_CONNECTION and
 *   a default one; each logs what it receives ("fault-host: handler ...").
 * - PMIx_server_register_client: when FAULT_FAKE_UID_RANK=R is set, rank R of the first
 *   job (ctest.0) is registered with uid and gid 4242 instead of the host's own, so that a
 *   process of that rank (which really runs as the host's user) can claim 4242 in its
 *   handshake (uid spoofing test).
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>
#include <pmix_server.h>

pmix_status_t __real_PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[],
                                      size_t ninfo);
pmix_status_t __real_PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid,
                                                 void *server_object, pmix_op_cbfunc_t cbfunc,
                                                 void *cbdata);

static pmix_server_module_t wrapped;
static pmix_server_notify_event_fn_t host_notify_event;

static const char *affected(const pmix_info_t info[], size_t ninfo, char *buf, size_t len)
{
    size_t n;
    snprintf(buf, len, "-");
    for (n = 0; info != NULL && n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC)
            && info[n].value.type == PMIX_PROC && info[n].value.data.proc != NULL) {
            snprintf(buf, len, "%s:%u", info[n].value.data.proc->nspace,
                     info[n].value.data.proc->rank);
        }
    }
    return buf;
}

static pmix_status_t notify_event_logged(pmix_status_t code, const pmix_proc_t *source,
                                         pmix_data_range_t range, pmix_info_t info[],
                                         size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    char aff[300];
    fprintf(stderr, "fault-host: notify_event upcall %s (%d) source %s:%u affected %s\n",
            PMIx_Error_string(code), code, source ? source->nspace : "?",
            source ? source->rank : 0, affected(info, ninfo, aff, sizeof(aff)));
    if (host_notify_event == NULL) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    return host_notify_event(code, source, range, info, ninfo, cbfunc, cbdata);
}

static void log_handler(const char *which, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo)
{
    char aff[300];
    fprintf(stderr, "fault-host: %s handler %s (%d) source %s:%u affected %s\n", which,
            PMIx_Error_string(status), status, source ? source->nspace : "?",
            source ? source->rank : 0, affected(info, ninfo, aff, sizeof(aff)));
}

static void lost_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                         size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                         void *cbdata)
{
    (void) id;
    (void) results;
    (void) nresults;
    log_handler("lost-connection", status, source, info, ninfo);
    if (cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

static void default_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                            pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                            size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                            void *cbdata)
{
    (void) id;
    (void) results;
    (void) nresults;
    log_handler("default", status, source, info, ninfo);
    if (cbfunc != NULL) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

pmix_status_t __wrap_PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[],
                                      size_t ninfo)
{
    pmix_status_t rc, code = PMIX_ERR_LOST_CONNECTION;
    wrapped = *module;
    host_notify_event = module->notify_event;
    wrapped.notify_event = notify_event_logged;
    rc = __real_PMIx_server_init(&wrapped, info, ninfo);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    rc = PMIx_Register_event_handler(&code, 1, NULL, 0, lost_handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "fault-host: PMIx_Register_event_handler(LOST_CONNECTION): %s\n",
                PMIx_Error_string(rc));
    }
    rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, default_handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "fault-host: PMIx_Register_event_handler(default): %s\n",
                PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS;
}

pmix_status_t __wrap_PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid,
                                                 void *server_object, pmix_op_cbfunc_t cbfunc,
                                                 void *cbdata)
{
    const char *fake = getenv("FAULT_FAKE_UID_RANK");
    if (fake != NULL && *fake != '\0' && strcmp(proc->nspace, "ctest.0") == 0
        && proc->rank == (pmix_rank_t) strtoul(fake, NULL, 10)) {
        fprintf(stderr, "fault-host: registering %s:%u with uid 4242 gid 4242\n", proc->nspace,
                proc->rank);
        uid = 4242;
        gid = 4242;
    }
    return __real_PMIx_server_register_client(proc, uid, gid, server_object, cbfunc, cbdata);
}
