/* PMIx_Compute_distances with the topology and cpuset left NULL (this machine's, this
 * process's binding), given, and mixed; blocking and non-blocking. The devices and distances
 * are this machine's: both libraries must name the same ones. */
#include <pthread.h>
#include <string.h>
#include "common.h"

static void show(const char *what, pmix_status_t rc, const pmix_device_distance_t *d, size_t n)
{
    size_t i;
    printf("%s: %s, %zu devices\n", what, PMIx_Error_string(rc), n);
    for (i = 0; i < n; i++) {
        printf("%s: %s %s type %s min %u max %u\n", what, d[i].uuid ? d[i].uuid : "(null)",
               d[i].osname ? d[i].osname : "(null)", PMIx_Device_type_string(d[i].type),
               d[i].mindist, d[i].maxdist);
    }
}

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} nb = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static void dist_cb(pmix_status_t status, pmix_device_distance_t *dist, size_t ndist, void *cbdata,
                    pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void) cbdata;
    show("nb null/null", status, dist, ndist);
    if (release_fn != NULL) {
        release_fn(release_cbdata);
    }
    pthread_mutex_lock(&nb.lock);
    nb.done = 1;
    pthread_cond_signal(&nb.cond);
    pthread_mutex_unlock(&nb.lock);
}

int main(void)
{
    pmix_topology_t topo = {NULL, NULL};
    pmix_cpuset_t cs = {NULL, NULL};
    pmix_device_distance_t *d = NULL;
    size_t n = 0;
    pmix_status_t rc;
    ctest_init();
    rc = PMIx_Compute_distances(NULL, NULL, NULL, 0, &d, &n);
    show("null/null", rc, d, n);
    PMIX_DEVICE_DIST_FREE(d, n);
    CHECK(PMIx_Load_topology(&topo) == PMIX_SUCCESS);
    CHECK(PMIx_Get_cpuset(&cs, PMIX_CPUBIND_PROCESS) == PMIX_SUCCESS);
    d = NULL; n = 0;
    rc = PMIx_Compute_distances(&topo, NULL, NULL, 0, &d, &n);
    show("topo/null", rc, d, n);
    PMIX_DEVICE_DIST_FREE(d, n);
    d = NULL; n = 0;
    rc = PMIx_Compute_distances(NULL, &cs, NULL, 0, &d, &n);
    show("null/cpuset", rc, d, n);
    PMIX_DEVICE_DIST_FREE(d, n);
    d = NULL; n = 0;
    rc = PMIx_Compute_distances(&topo, &cs, NULL, 0, &d, &n);
    show("topo/cpuset", rc, d, n);
    PMIX_DEVICE_DIST_FREE(d, n);
    rc = PMIx_Compute_distances_nb(NULL, NULL, NULL, 0, dist_cb, NULL);
    if (rc == PMIX_SUCCESS) {
        pthread_mutex_lock(&nb.lock);
        while (!nb.done) {
            pthread_cond_wait(&nb.cond, &nb.lock);
        }
        pthread_mutex_unlock(&nb.lock);
    } else {
        printf("nb null/null: %s\n", PMIx_Error_string(rc));
    }
    PMIx_Cpuset_destruct(&cs);
    PMIx_Topology_destruct(&topo);
    return 0;
}
