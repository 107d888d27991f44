/*
 * pmix-rs devel headers: range lists ("1-3,5" to "1","2","3","5").
 */
#ifndef PMIX_PARSE_OPTIONS_H
#define PMIX_PARSE_OPTIONS_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

PMIX_EXPORT void pmix_util_parse_range_options(char *input, char ***output);

END_C_DECLS

#endif /* PMIX_PARSE_OPTIONS_H */
