/*
 * pmix-rs devel headers: the configuration every devel header starts from.
 *
 * OpenPMIx installs a configure-generated pmix_config.h here; PRRTE's sources reach it only
 * through the other devel headers. Ours defines just what those headers use: the library was
 * built without debug support (PMIX_ENABLE_DEBUG 0), which fixes the layouts of the objects
 * the inline code below touches (pmix-internals/facts/layouts-*.txt).
 */
#ifndef PMIX_CONFIG_H
#define PMIX_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmix_common.h"
#include "pmix_version.h"

#define PMIX_ENABLE_DEBUG 0
#define PMIX_HAVE_VISIBILITY 1

/* The library's version, as OpenPMIx's configure writes it here (PRRTE's components use
 * PMIX_RELEASE_VERSION in their own version numbers). */
#define PMIX_MAJOR_VERSION   PMIX_VERSION_MAJOR
#define PMIX_MINOR_VERSION   PMIX_VERSION_MINOR
#define PMIX_RELEASE_VERSION PMIX_VERSION_RELEASE

#ifndef BEGIN_C_DECLS
#    if defined(__cplusplus)
#        define BEGIN_C_DECLS extern "C" {
#        define END_C_DECLS   }
#    else
#        define BEGIN_C_DECLS
#        define END_C_DECLS
#    endif
#endif

#if defined(__GNUC__)
#    define PMIX_LIKELY(expr)   __builtin_expect(!!(expr), 1)
#    define PMIX_UNLIKELY(expr) __builtin_expect(!!(expr), 0)
#    define __pmix_attribute_unused__          __attribute__((__unused__))
#    define __pmix_attribute_always_inline__   __attribute__((__always_inline__))
#    define __pmix_attribute_noreturn__        __attribute__((__noreturn__))
#    define __pmix_attribute_malloc__          __attribute__((__malloc__))
#    define __pmix_attribute_warn_unused_result__ __attribute__((__warn_unused_result__))
#    define __pmix_attribute_format__(a, b, c) __attribute__((__format__(a, b, c)))
#    define __pmix_attribute_format_funcptr__(a, b, c) __attribute__((__format__(a, b, c)))
#    define __pmix_attribute_sentinel__        __attribute__((__sentinel__))
#    define __pmix_attribute_deprecated__      __attribute__((__deprecated__))
#else
#    define PMIX_LIKELY(expr)   (expr)
#    define PMIX_UNLIKELY(expr) (expr)
#    define __pmix_attribute_unused__
#    define __pmix_attribute_always_inline__
#    define __pmix_attribute_noreturn__
#    define __pmix_attribute_malloc__
#    define __pmix_attribute_warn_unused_result__
#    define __pmix_attribute_format__(a, b, c)
#    define __pmix_attribute_format_funcptr__(a, b, c)
#    define __pmix_attribute_sentinel__
#    define __pmix_attribute_deprecated__
#endif

#endif /* PMIX_CONFIG_H */
