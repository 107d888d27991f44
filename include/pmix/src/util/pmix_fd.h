/*
 * pmix-rs devel headers: file descriptors.
 */
#ifndef PMIX_FD_H
#define PMIX_FD_H

#include "src/include/pmix_config.h"

#include "pmix_common.h"

BEGIN_C_DECLS

/* Reads or writes exactly LEN bytes, retrying on EINTR. */
PMIX_EXPORT pmix_status_t pmix_fd_read(int fd, int len, void *buffer);
PMIX_EXPORT pmix_status_t pmix_fd_write(int fd, int len, const void *buffer);
PMIX_EXPORT pmix_status_t pmix_fd_set_cloexec(int fd);
PMIX_EXPORT bool pmix_fd_is_regular(int fd);
PMIX_EXPORT bool pmix_fd_is_chardev(int fd);
PMIX_EXPORT bool pmix_fd_is_blkdev(int fd);
/* Closes every descriptor from 3 up but PROTECTED_FD. */
PMIX_EXPORT void pmix_close_open_file_descriptors(int protected_fd);
PMIX_EXPORT const char *pmix_fd_get_peer_name(int fd);

END_C_DECLS

#endif /* PMIX_FD_H */
