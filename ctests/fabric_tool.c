/* PMIx_Fabric_* in a tool connected to no server: registration and update cannot be
 * answered (PMIX_ERR_UNREACH); releasing an object needs no server. */
#include "common.h"

int main(void)
{
    pmix_fabric_t fab;
    ctest_init();
    PMIX_FABRIC_CONSTRUCT(&fab);
    printf("register: %s\n", PMIx_Error_string(PMIx_Fabric_register(&fab, NULL, 0)));
    printf("register_nb: %s\n",
           PMIx_Error_string(PMIx_Fabric_register_nb(&fab, NULL, 0, NULL, NULL)));
    printf("update: %s\n", PMIx_Error_string(PMIx_Fabric_update(&fab)));
    printf("update_nb: %s\n", PMIx_Error_string(PMIx_Fabric_update_nb(&fab, NULL, NULL)));
    printf("deregister: %s\n", PMIx_Error_string(PMIx_Fabric_deregister(&fab)));
    printf("deregister_nb: %s\n",
           PMIx_Error_string(PMIx_Fabric_deregister_nb(&fab, NULL, NULL)));
    CHECK(fab.info == NULL);
    return 0;
}
