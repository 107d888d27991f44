//! `PMIx_Compute_distances` on both libraries, for this machine's devices seen from the
//! process's own binding: same devices, names, types and distances (or the same error when
//! the machine has none). Both libraries compute them locally; ours needs to be initialized
//! (a singleton here), the reference is initialized as a tool that does not connect.

use pmix_abi_tests::{Pmix, both, ours, string};
use pmix_sys::*;

type Init = unsafe extern "C" fn(*mut pmix_proc_t, *mut pmix_info_t, usize) -> pmix_status_t;
type LoadTopology = unsafe extern "C" fn(*mut pmix_topology_t) -> pmix_status_t;
type GetCpuset = unsafe extern "C" fn(*mut pmix_cpuset_t, pmix_bind_envelope_t) -> pmix_status_t;
type Compute = unsafe extern "C" fn(
    *mut pmix_topology_t,
    *mut pmix_cpuset_t,
    *mut pmix_info_t,
    usize,
    *mut *mut pmix_device_distance_t,
    *mut usize,
) -> pmix_status_t;

#[derive(Debug, PartialEq)]
struct Dist {
    uuid: Option<String>,
    osname: Option<String>,
    ty: u64,
    min: u16,
    max: u16,
}

fn distances(l: &Pmix) -> Result<Vec<Dist>, pmix_status_t> {
    // SAFETY: the prototypes of the reference headers; zeroed structs are their empty values.
    unsafe {
        let load: LoadTopology = l.sym("PMIx_Load_topology");
        let get_cpuset: GetCpuset = l.sym("PMIx_Get_cpuset");
        let compute: Compute = l.sym("PMIx_Compute_distances");
        let mut topo: pmix_topology_t = std::mem::zeroed();
        let mut cs: pmix_cpuset_t = std::mem::zeroed();
        assert_eq!(load(&mut topo), PMIX_SUCCESS, "{l:?}");
        assert_eq!(
            get_cpuset(&mut cs, PMIX_CPUBIND_PROCESS),
            PMIX_SUCCESS,
            "{l:?}"
        );
        let mut d: *mut pmix_device_distance_t = std::ptr::null_mut();
        let mut n = 0usize;
        let rc = compute(&mut topo, &mut cs, std::ptr::null_mut(), 0, &mut d, &mut n);
        if rc != PMIX_SUCCESS {
            return Err(rc);
        }
        Ok((0..n)
            .map(|i| {
                let x = &*d.add(i);
                Dist {
                    uuid: string(x.uuid),
                    osname: string(x.osname),
                    ty: x.r#type,
                    min: x.mindist,
                    max: x.maxdist,
                }
            })
            .collect())
    }
}

#[test]
fn same_devices_and_distances_as_the_reference() {
    // SAFETY: PMIx_Init of ours without a server makes a singleton (PMIX_ERR_UNREACH).
    unsafe {
        let init: Init = ours().sym("PMIx_Init");
        let mut me: pmix_proc_t = std::mem::zeroed();
        assert_eq!(init(&mut me, std::ptr::null_mut(), 0), PMIX_ERR_UNREACH);
    }
    let [r, o] = both();
    let want = distances(r);
    let got = distances(o);
    assert_eq!(got, want);
    eprintln!("distances: {want:?}");
}
