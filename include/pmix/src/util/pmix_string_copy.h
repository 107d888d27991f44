/*
 * pmix-rs devel headers: bounded string copies and line reading.
 */
#ifndef PMIX_STRING_COPY_H
#define PMIX_STRING_COPY_H

#include "src/include/pmix_config.h"

#include <stdio.h>

BEGIN_C_DECLS

#define PMIX_MAX_SIZE_ALLOWED_BY_PMIX_STRING_COPY (128 * 1024)

/* Copies at most DEST_LEN - 1 bytes of SRC and always terminates DEST. */
PMIX_EXPORT void pmix_string_copy(char *dest, const char *src, size_t dest_len);
/* The next line of FP without its newline, malloc'ed; NULL at end of file. */
PMIX_EXPORT char *pmix_getline(FILE *fp);

END_C_DECLS

#endif /* PMIX_STRING_COPY_H */
