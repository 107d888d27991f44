/*
 * pmix-rs devel headers: output streams (pmix_output and its verbosity levels).
 * Layouts: pmix-internals/facts/layouts-output.txt.
 */
#ifndef PMIX_OUTPUT_H_
#define PMIX_OUTPUT_H_

#include "src/include/pmix_config.h"

#include <stdarg.h>

#include "src/class/pmix_object.h"

BEGIN_C_DECLS

#define PMIX_OUTPUT_MAX_STREAMS 64

/* What pmix_output_open is asked for. */
typedef struct pmix_output_stream_t {
    pmix_object_t super;
    int lds_verbose_level;
    int lds_syslog_priority;
    char *lds_syslog_ident;
    char *lds_prefix;
    char *lds_suffix;
    bool lds_is_debugging;
    bool lds_want_syslog;
    bool lds_want_stdout;
    bool lds_want_stderr;
    bool lds_want_file;
    bool lds_want_file_append;
    char *lds_file_suffix;
} pmix_output_stream_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_output_stream_t);

/* The state of one stream, as libpmix keeps it. */
typedef struct {
    bool ldi_used;
    bool ldi_enabled;
    int ldi_verbose_level;
    bool ldi_syslog;
    int ldi_syslog_priority;
    char *ldi_syslog_ident;
    char *ldi_prefix;
    int ldi_prefix_len;
    char *ldi_suffix;
    int ldi_suffix_len;
    bool ldi_stdout;
    bool ldi_stderr;
    bool ldi_file;
    bool ldi_file_want_append;
    char *ldi_file_suffix;
    int ldi_fd;
    int ldi_file_num_lines_lost;
} pmix_output_desc_t;

/* Every stream's state, indexed by stream id (PMIX_OUTPUT_MAX_STREAMS entries). */
PMIX_EXPORT extern pmix_output_desc_t pmix_output_info[];

PMIX_EXPORT bool pmix_output_init(void);
PMIX_EXPORT void pmix_output_finalize(void);
/* Opens a stream (NULL: stderr); returns its id, or a negative status. */
PMIX_EXPORT int pmix_output_open(pmix_output_stream_t *lds);
PMIX_EXPORT void pmix_output_close(int output_id);
PMIX_EXPORT void pmix_output(int output_id, const char *format, ...)
    __pmix_attribute_format__(__printf__, 2, 3);
PMIX_EXPORT void pmix_output_set_verbosity(int output_id, int level);
PMIX_EXPORT int pmix_output_get_verbosity(int output_id);
PMIX_EXPORT void pmix_output_set_output_file_info(const char *dir, const char *prefix,
                                                  char **olddir, char **oldprefix);

/* Writes to stream OUTPUT_ID when its verbosity is at least LEVEL. */
#define pmix_output_verbose(level, output_id, ...)                          \
    do {                                                                    \
        int pmix_ov_id_ = (output_id);                                      \
        if (0 <= pmix_ov_id_ && pmix_ov_id_ < PMIX_OUTPUT_MAX_STREAMS       \
            && pmix_output_info[pmix_ov_id_].ldi_verbose_level >= (level)) { \
            pmix_output(pmix_ov_id_, __VA_ARGS__);                          \
        }                                                                   \
    } while (0)

#define PMIX_OUTPUT_VERBOSE(a) pmix_output_verbose a
#define PMIX_OUTPUT(a)         pmix_output a

END_C_DECLS

#endif /* PMIX_OUTPUT_H_ */
