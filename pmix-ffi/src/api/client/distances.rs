//! Device distances (the "Process Locality" part of the PMIx standard's "Process
//! Management" chapter): `PMIx_Compute_distances`/`_nb`.

use core::ffi::c_void;
use std::sync::Arc;

use pmix_core::{Error, Info, Result, Value};
use pmix_sys::*;

use crate::callback::CbData;
use crate::{convert, entry, lifecycle, ptr};

use super::common::{infos, wait};

/// A distance request as the caller gave it: its cpuset (None: the process's own binding)
/// and directives. `topo` must be NULL (this machine's) or name hwloc: the distances are
/// always those of this machine, which is the topology `PMIx_Load_topology` gives.
struct DistanceRequest {
    cpuset: Option<pmix_core::values::Cpuset>,
    directives: Vec<Info>,
}

impl DistanceRequest {
    /// # Safety
    /// `topo` and `cpuset` NULL or valid; `(info, ninfo)` valid.
    unsafe fn from_c(
        topo: *const pmix_topology_t,
        cpuset: *const pmix_cpuset_t,
        info: *const pmix_info_t,
        ninfo: usize,
    ) -> Result<DistanceRequest> {
        // SAFETY: per this function's contract.
        if let Some(t) = unsafe { topo.as_ref() } {
            if t.source.is_null() {
                return Err(Error::BadParam);
            }
            // SAFETY: checked non-NULL; a C string per the contract.
            let tsrc = unsafe { core::ffi::CStr::from_ptr(t.source) }.to_bytes();
            if !pmix_core::topology::is_hwloc_source(tsrc) {
                return Err(Error::Status(
                    pmix_core::topology::PMIX_ERR_TAKE_NEXT_OPTION,
                ));
            }
        }
        // SAFETY: per this function's contract.
        let cpuset = match unsafe { cpuset.as_ref() } {
            Some(c) => Some(crate::hwloc::cpuset_from_c(c)?),
            None => None,
        };
        Ok(DistanceRequest {
            cpuset,
            // SAFETY: per this function's contract.
            directives: unsafe { infos(info, ninfo) }?,
        })
    }

    /// The distances computed here with hwloc, as the reference does.
    fn compute(&self) -> Result<Vec<pmix_core::values::DeviceDistance>> {
        use pmix_core::topology;
        let own;
        let cs = match &self.cpuset {
            Some(c) => c,
            None => {
                own = topology::own_cpuset()?;
                &own
            }
        };
        let (types, ids) = topology::distance_selection(&self.directives);
        let host = pmix_core::net::local_hostname().to_string();
        topology::local()?.device_distances(cs, types, &ids, &host)
    }

    /// The server to ask instead, as the reference's client does: when this process
    /// cannot load a topology and has a server.
    fn server_to_ask() -> Option<Arc<pmix_core::client::Client>> {
        if pmix_core::topology::local().is_ok() {
            return None;
        }
        lifecycle::client().ok().filter(|c| c.connected())
    }
}

fn distances_to_c(d: &[pmix_core::values::DeviceDistance]) -> Result<*mut pmix_device_distance_t> {
    let items: Vec<Value> = d
        .iter()
        .map(|x| Value::DeviceDist(Box::new(x.clone())))
        .collect();
    Ok(convert::array_to_c(&items, PMIX_DEVICE_DIST)?.cast())
}

/// See PMIx Standard v5, `PMIx_Compute_distances`: the distance from the CPUs of `cpuset`
/// to each network, OpenFabrics, GPU and coprocessor device of this machine (or those of
/// `PMIX_DEVICE_TYPE` / `PMIX_DEVICE_ID`), with the reference's measure. A NULL `topo` means
/// this machine's, a NULL `cpuset` this process's binding, as with the reference. A process
/// that cannot load a topology asks its server, as the reference's client does.
///
/// Ownership: `*distances` is libc-allocated; release with `PMIX_DEVICE_DIST_FREE`.
///
/// # Safety
/// `topo`, `cpuset` NULL or valid; `(info, ninfo)` valid; `distances`, `ndist` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    distances: *mut *mut pmix_device_distance_t,
    ndist: *mut usize,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let (out, n) = unsafe { (ptr::req_mut(distances)?, ptr::req_mut(ndist)?) };
        // SAFETY: per this function's contract.
        let req = unsafe { DistanceRequest::from_c(topo, cpuset, info, ninfo) }?;
        let d = match DistanceRequest::server_to_ask() {
            Some(c) => {
                wait(|done| c.compute_distances_nb(req.cpuset.as_ref(), &req.directives, done))?
            }
            None => req.compute()?,
        };
        *out = distances_to_c(&d)?;
        *n = d.len();
        Ok(())
    })
}

struct DistArray {
    ptr: *mut pmix_device_distance_t,
    n: usize,
}

unsafe extern "C" fn release_dists(cbdata: *mut c_void) {
    entry::guard("release_fn", (), || {
        if cbdata.is_null() {
            return;
        }
        // SAFETY: made below with Box::into_raw, released once.
        let a = unsafe { Box::from_raw(cbdata.cast::<DistArray>()) };
        // SAFETY: built by distances_to_c.
        unsafe { convert::array_free(a.ptr.cast(), a.n, PMIX_DEVICE_DIST) };
    })
}

/// See PMIx Standard v5, `PMIx_Compute_distances_nb`: as `PMIx_Compute_distances`, the
/// answer through `cbfunc` (on the progress thread); the array lives until its release
/// function is called.
///
/// # Safety
/// As for `PMIx_Compute_distances`; `cbfunc` is called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Compute_distances_nb(
    topo: *mut pmix_topology_t,
    cpuset: *mut pmix_cpuset_t,
    info: *mut pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_device_dist_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Compute_distances_nb", || {
        let c = lifecycle::client()?;
        let f = cbfunc.ok_or(Error::BadParam)?;
        // SAFETY: per this function's contract.
        let req = unsafe { DistanceRequest::from_c(topo, cpuset, info, ninfo) }?;
        let d = CbData(cbdata);
        let answer = move |r: Result<Vec<pmix_core::values::DeviceDistance>>| {
            let d = d;
            entry::guard("PMIx_Compute_distances_nb", (), || {
                let (status, ptr, n) = match r.and_then(|v| Ok((distances_to_c(&v)?, v.len()))) {
                    Ok((p, n)) => (PMIX_SUCCESS, p, n),
                    Err(e) => (e.status(), core::ptr::null_mut(), 0),
                };
                let rel = Box::into_raw(Box::new(DistArray { ptr, n })).cast::<c_void>();
                // SAFETY: the caller's callback; the array lives until release_dists runs.
                unsafe { f(status, ptr, n, d.0, Some(release_dists), rel) };
            })
        };
        // The callback runs on the progress thread, never inside this call: the server's
        // answer arrives there; one computed here is posted there.
        match DistanceRequest::server_to_ask() {
            Some(server) => {
                server.compute_distances_nb(req.cpuset.as_ref(), &req.directives, Box::new(answer))
            }
            None => {
                let r = req.compute();
                c.post(move || answer(r))
            }
        }
    })
}
