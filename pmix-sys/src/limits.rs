//! The lengths of namespaces and keys: constants of `pmix_common.h` that the types use for
//! their buffers, so both `consts` and `types` take them from here.

// usize
pub const PMIX_MAX_NSLEN: usize = 255;
pub const PMIX_MAX_KEYLEN: usize = 511;

/// Length of a namespace buffer, terminator included.
pub const PMIX_NSPACE_BUFLEN: usize = PMIX_MAX_NSLEN + 1;
/// Length of a key buffer, terminator included.
pub const PMIX_KEY_BUFLEN: usize = PMIX_MAX_KEYLEN + 1;
