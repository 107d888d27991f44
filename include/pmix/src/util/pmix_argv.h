/*
 * pmix-rs devel headers: NULL-terminated string arrays (the rest is the public PMIx_Argv_* API).
 */
#ifndef PMIX_ARGV_H
#define PMIX_ARGV_H

#include "src/include/pmix_config.h"

#include "pmix_common.h"

BEGIN_C_DECLS

PMIX_EXPORT pmix_status_t pmix_argv_append(int *argc, char ***argv, const char *arg);
PMIX_EXPORT pmix_status_t pmix_argv_insert_element(char ***target, int location, char *source);
/* ARGV[START..END) joined with DELIMITER, malloc'ed. */
PMIX_EXPORT char *pmix_argv_join_range(char **argv, size_t start, size_t end, int delimiter)
    __pmix_attribute_malloc__;
/* A copy of ARGV with one level of surrounding double quotes taken off each element. */
PMIX_EXPORT char **pmix_argv_copy_strip(char **argv) __pmix_attribute_malloc__;

END_C_DECLS

#endif /* PMIX_ARGV_H */
