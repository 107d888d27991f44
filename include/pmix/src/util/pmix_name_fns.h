/*
 * pmix-rs devel headers: printing process names.
 */
#ifndef PMIX_NAME_FNS_H
#define PMIX_NAME_FNS_H

#include "src/include/pmix_config.h"

#include "pmix_common.h"

BEGIN_C_DECLS

/* "[nspace:rank]" and the rank alone, in per-thread rotating buffers. */
PMIX_EXPORT char *pmix_util_print_name_args(const pmix_proc_t *name);
PMIX_EXPORT char *pmix_util_print_rank(const pmix_rank_t vpid);

#define PMIX_NAME_PRINT(n) pmix_util_print_name_args(n)
#define PMIX_RANK_PRINT(n) pmix_util_print_rank(n)

END_C_DECLS

#endif /* PMIX_NAME_FNS_H */
