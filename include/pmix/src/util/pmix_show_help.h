/*
 * pmix-rs devel headers: help messages from help files (help-*.txt, "[topic]" sections).
 */
#ifndef PMIX_SHOW_HELP_H
#define PMIX_SHOW_HELP_H

#include "src/include/pmix_config.h"

#include <stdarg.h>

BEGIN_C_DECLS

/* Prints FILENAME's TOPIC, formatted with the arguments, to stderr; WANT_ERROR_HEADER
 * frames it with dashed lines. */
PMIX_EXPORT pmix_status_t pmix_show_help(const char *filename, const char *topic,
                                         int want_error_header, ...);
/* The same message as a malloc'ed string (NULL if the topic is not found). */
PMIX_EXPORT char *pmix_show_help_string(const char *filename, const char *topic,
                                        int want_error_header, ...);
PMIX_EXPORT char *pmix_show_help_vstring(const char *filename, const char *topic,
                                         int want_error_header, va_list ap);
/* Prints OUTPUT, already rendered, as the message of FILENAME's TOPIC. */
PMIX_EXPORT pmix_status_t pmix_show_help_norender(const char *filename, const char *topic,
                                                  const char *output);
/* Searches DIRECTORY for help files too. */
PMIX_EXPORT pmix_status_t pmix_show_help_add_dir(const char *directory);

END_C_DECLS

#endif /* PMIX_SHOW_HELP_H */
