/* Hand-written: sends a heartbeat to the server (PMIx_Process_monitor_nb with a
 * PMIX_SEND_HEARTBEAT info and no callback; the status is discarded). */
#define PMIx_Heartbeat() \
    do { \
        pmix_info_t _pmix_hb; \
        PMIX_INFO_CONSTRUCT(&_pmix_hb); \
        PMIX_INFO_LOAD(&_pmix_hb, PMIX_SEND_HEARTBEAT, NULL, PMIX_POINTER); \
        PMIx_Process_monitor_nb(&_pmix_hb, PMIX_SUCCESS, NULL, 0, NULL, NULL); \
        PMIX_INFO_DESTRUCT(&_pmix_hb); \
    } while (0)
