/* Hand-written: system headers the API types need, symbol visibility, version. */

#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
#include <sys/time.h>  /* struct timeval */
#include <unistd.h>    /* pid_t, uid_t, gid_t */
#include <sys/types.h>

extern char **environ;

/* The compiler supports symbol visibility attributes. */
#define PMIX_HAVE_VISIBILITY 1

#if PMIX_HAVE_VISIBILITY == 1
#define PMIX_EXPORT __attribute__((__visibility__("default")))
#else
#define PMIX_EXPORT
#endif

#include <pmix_version.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif
