/* OpenPMIx's internal pmix_show_help called in a client after PMIx_Init (built against our
 * devel headers, include/pmix/src): the help file is help-cl.txt of the directory argv[1].
 * OpenPMIx 5.0.11 writes nothing (its log path has no channel in a client); ours writes the
 * message to stderr, as before PMIx_Init. */
#include <pmix.h>
#include <stdio.h>

#include "src/util/pmix_show_help.h"

int main(int argc, char **argv)
{
    pmix_proc_t me;

    if (argc < 2) {
        fprintf(stderr, "usage: clhelp HELPDIR\n");
        return 2;
    }
    pmix_show_help_add_dir(argv[1]);
    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        printf("PMIx_Init failed\n");
        return 1;
    }
    pmix_show_help("help-cl.txt", "topic", 0, "after PMIx_Init");
    printf("rank %u done\n", me.rank);
    PMIx_Finalize(NULL, 0);
    return 0;
}
