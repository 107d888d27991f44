/*
 * pmix-rs devel headers: OpenPMIx's repository of dynamically loaded components. libpmix
 * (pmix-rs) loads no component from files (every PRRTE component is static) and exports
 * nothing of this family, so this header only brings in what it depends on.
 */
#ifndef PMIX_MCA_BASE_COMPONENT_REPOSITORY_H
#define PMIX_MCA_BASE_COMPONENT_REPOSITORY_H

#include "src/include/pmix_config.h"

#include "src/mca/base/pmix_base.h"

#endif /* PMIX_MCA_BASE_COMPONENT_REPOSITORY_H */
