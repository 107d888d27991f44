/*
 * pmix-rs devel headers: OpenPMIx's pmix_hotel.h. PRRTE 3.0.14 includes it but uses nothing
 * from it, and libpmix (pmix-rs) does not provide the hotel; this header declares nothing, so
 * that any use fails to compile rather than to link or run.
 */
#ifndef PMIX_HOTEL_H
#define PMIX_HOTEL_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

#endif
