/*
 * pmix-rs devel headers: OpenPMIx's pmix_ring_buffer.h. PRRTE 3.0.14 includes it but uses nothing
 * from it, and libpmix (pmix-rs) does not provide the ring_buffer; this header declares nothing, so
 * that any use fails to compile rather than to link or run.
 */
#ifndef PMIX_RING_BUFFER_H
#define PMIX_RING_BUFFER_H

#include "src/include/pmix_config.h"
#include "src/class/pmix_object.h"

#endif
