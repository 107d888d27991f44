/*
 * pmix-rs devel headers: the network interfaces of this host (pmix_if_list).
 * Layout: pmix-internals/facts/layouts-net.txt.
 */
#ifndef PMIX_PIF_UTIL_
#define PMIX_PIF_UTIL_

#include "src/include/pmix_config.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "src/class/pmix_list.h"

BEGIN_C_DECLS

#define PMIX_IF_NAMESIZE 256

#define PMIX_PIF_FORMAT_ADDR(n) \
    (((n) >> 24) & 0xFF), (((n) >> 16) & 0xFF), (((n) >> 8) & 0xFF), ((n) & 0xFF)
#define PMIX_PIF_ASSEMBLE_FABRIC(n1, n2, n3, n4) \
    ((((n1) & 0xFF) << 24) | (((n2) & 0xFF) << 16) | (((n3) & 0xFF) << 8) | ((n4) & 0xFF))

typedef struct pmix_pif_t {
    pmix_list_item_t super;
    char if_name[PMIX_IF_NAMESIZE + 1];
    int if_index;
    uint16_t if_kernel_index;
    uint16_t af_family;
    int if_flags;
    int if_speed;
    struct sockaddr_storage if_addr;
    uint32_t if_mask;
    uint32_t if_bandwidth;
    uint8_t if_mac[6];
    int ifmtu;
} pmix_pif_t;
PMIX_EXPORT PMIX_CLASS_DECLARATION(pmix_pif_t);

/* One pmix_pif_t per address of each interface, filled in by pmix_init_util. */
PMIX_EXPORT extern pmix_list_t pmix_if_list;

PMIX_EXPORT void pmix_ifgetaliases(char ***aliases);
PMIX_EXPORT bool pmix_ifislocal(const char *hostname);
PMIX_EXPORT int pmix_ifkindextoaddr(int if_kindex, struct sockaddr *if_addr, unsigned int length);
PMIX_EXPORT int pmix_ifkindextoname(int if_kindex, char *if_name, int length);
/* PMIX_SUCCESS if interface KIDX is on one of NETS ("a.b.c.d/n" or interface names). */
PMIX_EXPORT int pmix_ifmatches(int kidx, char **nets);

END_C_DECLS

#endif /* PMIX_PIF_UTIL_ */
