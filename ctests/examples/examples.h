/* Our own small stand-in for the "examples.h" that OpenPMIx's example programs include and
 * Debian does not ship. It grows as more examples run under ctests/run.sh. */
#ifndef CTEST_EXAMPLES_H
#define CTEST_EXAMPLES_H

/* Silences unused-parameter warnings for main's arguments. */
#define EXAMPLES_HIDE_UNUSED_PARAMS(...) ((void) (__VA_ARGS__))

#endif
