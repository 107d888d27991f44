/*
 * pmix-rs devel headers: installation directories. Layout: pmix-internals/facts/layouts-mcafw.txt.
 */
#ifndef PMIX_PINSTALLDIRS_TYPES_H
#define PMIX_PINSTALLDIRS_TYPES_H

#include "src/include/pmix_config.h"

BEGIN_C_DECLS

typedef struct pmix_pinstall_dirs_t {
    char *prefix;
    char *exec_prefix;
    char *bindir;
    char *sbindir;
    char *libexecdir;
    char *datarootdir;
    char *datadir;
    char *sysconfdir;
    char *sharedstatedir;
    char *localstatedir;
    char *libdir;
    char *includedir;
    char *infodir;
    char *mandir;
    char *pmixdatadir;
    char *pmixlibdir;
    char *pmixincludedir;
} pmix_pinstall_dirs_t;

/* Filled in by pmix_init_util (from PMIX_PREFIX, or where libpmix is installed). */
PMIX_EXPORT extern pmix_pinstall_dirs_t pmix_pinstall_dirs;

END_C_DECLS

#endif /* PMIX_PINSTALLDIRS_TYPES_H */
