/*
 * pmix-rs devel headers: socket addresses.
 */
#ifndef PMIX_NET_H
#define PMIX_NET_H

#include "src/include/pmix_config.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/types.h>

BEGIN_C_DECLS

PMIX_EXPORT bool pmix_net_samenetwork(const struct sockaddr_storage *addr1,
                                      const struct sockaddr_storage *addr2, uint32_t prefixlen);
PMIX_EXPORT bool pmix_net_addr_isipv4public(const struct sockaddr *addr);
PMIX_EXPORT bool pmix_net_addr_isipv6linklocal(const struct sockaddr *addr);
/* The address as text, in a per-thread buffer. */
PMIX_EXPORT char *pmix_net_get_hostname(const struct sockaddr *addr);
PMIX_EXPORT int pmix_net_get_port(const struct sockaddr *addr);
/* Whether NAME is an IPv4 or IPv6 address rather than a host name. */
PMIX_EXPORT bool pmix_net_isaddr(const char *name);

END_C_DECLS

#endif /* PMIX_NET_H */
