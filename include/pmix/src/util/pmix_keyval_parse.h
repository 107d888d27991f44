/*
 * pmix-rs devel headers: OpenPMIx's key=value file parser. PRRTE 3.0.14 includes this
 * header but calls nothing from it, and libpmix (pmix-rs) does not export the parser (MCA
 * parameter files are read by pmix_mca_base_parse_paramfile), so nothing is declared.
 */
#ifndef PMIX_UTIL_KEYVAL_PARSE_H
#define PMIX_UTIL_KEYVAL_PARSE_H

#include "src/include/pmix_config.h"

#endif /* PMIX_UTIL_KEYVAL_PARSE_H */
