/* The C-variadic functions of OpenPMIx's internal layer. Stable Rust cannot define a
 * C-variadic function: each one here only gathers its arguments and calls Rust. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pmix_vasprintf(char **ptr, const char *fmt, va_list ap);
int pmix_asprintf(char **ptr, const char *fmt, ...);
int pmix_snprintf(char *str, size_t size, const char *fmt, ...);

int pmix_vasprintf(char **ptr, const char *fmt, va_list ap)
{
    int n = vasprintf(ptr, fmt, ap);
    if (n < 0) {
        *ptr = NULL;
    }
    return n;
}

int pmix_asprintf(char **ptr, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = pmix_vasprintf(ptr, fmt, ap);
    va_end(ap);
    return n;
}

int pmix_snprintf(char *str, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(str, size, fmt, ap);
    va_end(ap);
    return n;
}
