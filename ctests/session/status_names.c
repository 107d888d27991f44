/* Prints a sed script that rewrites the status texts of one library's PMIx_Error_string into
 * another's: OpenPMIx 5.0 names its statuses ("PMIX_ERR_NOT_FOUND") where 4.2 wrote prose
 * ("NOT-FOUND"), and the session scenarios print statuses by PMIx_Error_string. run.sh
 * passes the output of clients on a 5.0 library through this script so that one set of
 * expected files serves every library.
 *
 * usage: status_names FROM_LIB TO_LIB   (paths of two libpmix.so.2, loaded side by side) */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef const char *(*error_string_t)(int);

static error_string_t load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "status_names: %s\n", dlerror());
        return NULL;
    }
    return (error_string_t) dlsym(h, "PMIx_Error_string");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: status_names FROM_LIB TO_LIB\n");
        return 2;
    }
    error_string_t from = load(argv[1]), to = load(argv[2]);
    if (from == NULL || to == NULL) {
        return 1;
    }
    /* Every status the headers define lies in -3100..0 (the external base is -3000). */
    for (int code = -3100; code <= 0; code++) {
        const char *a = from(code), *b = to(code);
        if (a == NULL || b == NULL || strcmp(a, b) == 0) {
            continue;
        }
        if (strpbrk(a, "|\\&.*[]^$") != NULL || strpbrk(b, "|\\&") != NULL) {
            fprintf(stderr, "status_names: %d: cannot quote \"%s\" -> \"%s\"\n", code, a, b);
            return 1;
        }
        printf("s|\\b%s\\b|%s|g\n", a, b);
    }
    return 0;
}
