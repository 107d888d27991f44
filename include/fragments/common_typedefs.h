/* Hand-written: array typedefs, which cbindgen cannot express. */

/* A namespace: up to PMIX_MAX_NSLEN characters and a terminator. */
typedef char pmix_nspace_t[PMIX_MAX_NSLEN+1];
/* A key: up to PMIX_MAX_KEYLEN characters and a terminator. */
typedef char pmix_key_t[PMIX_MAX_KEYLEN+1];
