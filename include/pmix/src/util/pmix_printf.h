/*
 * pmix-rs devel headers: printf into allocated buffers.
 */
#ifndef PMIX_PRINTF_H
#define PMIX_PRINTF_H

#include "src/include/pmix_config.h"

#include <stdarg.h>
#include <stdio.h>

BEGIN_C_DECLS

PMIX_EXPORT int pmix_snprintf(char *str, size_t size, const char *fmt, ...)
    __pmix_attribute_format__(__printf__, 3, 4);
/* *PTR is malloc'ed (NULL on failure, with -1 returned). */
PMIX_EXPORT int pmix_asprintf(char **ptr, const char *fmt, ...)
    __pmix_attribute_format__(__printf__, 2, 3);
PMIX_EXPORT int pmix_vasprintf(char **ptr, const char *fmt, va_list ap)
    __pmix_attribute_format__(__printf__, 2, 0);

END_C_DECLS

#endif /* PMIX_PRINTF_H */
