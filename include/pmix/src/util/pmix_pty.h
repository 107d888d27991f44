/*
 * pmix-rs devel headers: pseudo-terminals.
 */
#ifndef PMIX_UTIL_PTY_H
#define PMIX_UTIL_PTY_H

#include "src/include/pmix_config.h"

#include <pty.h>
#include <termios.h>

BEGIN_C_DECLS

PMIX_EXPORT int pmix_openpty(int *amaster, int *aslave, char *name, struct termios *termp,
                             struct winsize *winp);

END_C_DECLS

#endif /* PMIX_UTIL_PTY_H */
