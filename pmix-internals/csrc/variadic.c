/* The C-variadic functions of OpenPMIx's internal layer. Stable Rust cannot define a
 * C-variadic function: each one here only gathers its arguments (formats them, or lists
 * them) and calls Rust, which does the rest (src/output/). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pmix_vasprintf(char **ptr, const char *fmt, va_list ap);
int pmix_asprintf(char **ptr, const char *fmt, ...);
int pmix_snprintf(char *str, size_t size, const char *fmt, ...);
void pmix_output(int output_id, const char *format, ...);
char *pmix_os_path(int relative, ...);
char *pmix_show_help_vstring(const char *filename, const char *topic, int want_error_header,
                             va_list ap);
char *pmix_show_help_string(const char *filename, const char *topic, int want_error_header, ...);
int pmix_show_help(const char *filename, const char *topic, int want_error_header, ...);

/* Rust (src/output/mod.rs, os_path.rs, show_help.rs). */
int pmixrs_output_wanted(int output_id);
void pmixrs_output_write(int output_id, const char *text);
char *pmixrs_os_path(int relative, const char *const *elements, size_t n);
char *pmixrs_show_help_load(const char *filename, const char *topic, int want_error_header);
void pmixrs_show_help_deliver(const char *filename, const char *topic, const char *msg);

/* On failure *ptr is NULL and the result negative. */
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

/* The full length in any case; a NULL buffer is written nothing, whatever the size. */
int pmix_snprintf(char *str, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(str, NULL == str ? 0 : size, fmt, ap);
    va_end(ap);
    return n;
}

void pmix_output(int output_id, const char *format, ...)
{
    va_list ap;
    char *text;
    int n;
    if (output_id < 0 || output_id >= 64 || NULL == format || !pmixrs_output_wanted(output_id)) {
        return;
    }
    va_start(ap, format);
    n = vasprintf(&text, format, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    pmixrs_output_write(output_id, text);
    free(text);
}

char *pmix_os_path(int relative, ...)
{
    va_list ap;
    size_t n = 0, i;
    const char **elements;
    char *path;
    va_start(ap, relative);
    while (NULL != va_arg(ap, const char *)) {
        n++;
    }
    va_end(ap);
    elements = malloc((n + 1) * sizeof(*elements));
    if (NULL == elements) {
        return NULL;
    }
    va_start(ap, relative);
    for (i = 0; i < n; i++) {
        elements[i] = va_arg(ap, const char *);
    }
    va_end(ap);
    path = pmixrs_os_path(relative, elements, n);
    free(elements);
    return path;
}

char *pmix_show_help_vstring(const char *filename, const char *topic, int want_error_header,
                             va_list ap)
{
    char *format = pmixrs_show_help_load(filename, topic, want_error_header);
    char *text;
    if (NULL == format) {
        return NULL;
    }
    if (vasprintf(&text, format, ap) < 0) {
        text = NULL;
    }
    free(format);
    return text;
}

char *pmix_show_help_string(const char *filename, const char *topic, int want_error_header, ...)
{
    va_list ap;
    char *text;
    va_start(ap, want_error_header);
    text = pmix_show_help_vstring(filename, topic, want_error_header, ap);
    va_end(ap);
    return text;
}

/* PMIX_SUCCESS (0) even when there is no such message, as OpenPMIx's. */
int pmix_show_help(const char *filename, const char *topic, int want_error_header, ...)
{
    va_list ap;
    char *text;
    va_start(ap, want_error_header);
    text = pmix_show_help_vstring(filename, topic, want_error_header, ap);
    va_end(ap);
    if (NULL != text) {
        pmixrs_show_help_deliver(filename, topic, text);
        free(text);
    }
    return 0;
}
