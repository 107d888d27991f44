/* bfloor: the scale figure's machine floor. A rank that bhost starts and releases as it does
 * a wire-up rank, but that is linked to no PMIx library: it says it runs, waits for the
 * release and exits 0. Rank 0 (PMIX_RANK in its environment) records the libpmix objects it
 * mapped (none: lib.client.0 is empty) and prints "bfloor: no PMIx library".
 *
 * A job of these costs what the host and the machine cost: the host's start, registration
 * and fork/exec of N processes, their exit and reaping, the host's end. Against `bclient
 * floor` (the same with a PMIx library loaded) it shows what loading the library costs. */
#include "common.h"

int main(void)
{
    const char *rank = getenv("PMIX_RANK");
    bench_wait_go();
    if (rank != NULL && strcmp(rank, "0") == 0) {
        bench_record_lib("client", 0);
        printf("bfloor: no PMIx library\n");
        fflush(stdout);
    }
    return 0;
}
