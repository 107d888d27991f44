/* PMIX_DATA_BUFFER_LOAD and PMIX_DATA_BUFFER_UNLOAD, which call PMIx_Data_load and
 * PMIx_Data_unload: the buffer takes over the loaded bytes and hands them back on unload. */

#include "common.h"

int main(void)
{
    pmix_data_buffer_t *b;
    char *bytes, *back = NULL;
    size_t sz = 0;

    ctest_init();
    printf("== data buffer load/unload\n");
    PMIX_DATA_BUFFER_CREATE(b);
    bytes = (char *) malloc(6);
    memcpy(bytes, "hello", 6);
    PMIX_DATA_BUFFER_LOAD(b, bytes, 6);
    printf("DATA_BUFFER_LOAD: used=%zu\n", b->bytes_used);
    PMIX_DATA_BUFFER_UNLOAD(b, back, sz);
    printf("DATA_BUFFER_UNLOAD: %s size=%zu used=%zu\n", back ? back : "NULL", sz,
           b->bytes_used);
    free(back);
    PMIX_DATA_BUFFER_UNLOAD(b, back, sz);
    printf("DATA_BUFFER_UNLOAD(empty): %d size=%zu\n", NULL != back, sz);
    free(back);
    PMIX_DATA_BUFFER_RELEASE(b);

    /* loading into a buffer that already holds data replaces it */
    PMIX_DATA_BUFFER_CREATE(b);
    bytes = (char *) malloc(3);
    memcpy(bytes, "ab", 3);
    PMIX_DATA_BUFFER_LOAD(b, bytes, 3);
    bytes = (char *) malloc(4);
    memcpy(bytes, "xyz", 4);
    PMIX_DATA_BUFFER_LOAD(b, bytes, 4);
    printf("DATA_BUFFER_LOAD(again): used=%zu\n", b->bytes_used);
    PMIX_DATA_BUFFER_RELEASE(b);
    return 0;
}
