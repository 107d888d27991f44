//! Conversion of `pmix_cpuset_t` and `pmix_topology_t`, whose payloads are hwloc objects.
//!
//! NOT IMPLEMENTED YET: every conversion reports `PMIX_ERR_NOT_SUPPORTED` until the
//! topology change lands.

use pmix_core::values::{Cpuset, Topology};
use pmix_core::{Error, Result};
use pmix_sys::{pmix_cpuset_t, pmix_topology_t};

pub(crate) fn cpuset_from_c(_c: &pmix_cpuset_t) -> Result<Cpuset> {
    Err(Error::NotSupported)
}

pub(crate) fn cpuset_to_c(_v: &Cpuset) -> Result<pmix_cpuset_t> {
    Err(Error::NotSupported)
}

/// # Safety
/// `c` owns only what `cpuset_to_c` allocated.
pub(crate) unsafe fn cpuset_destruct(_c: &mut pmix_cpuset_t) {}

pub(crate) fn topology_from_c(_c: &pmix_topology_t) -> Result<Topology> {
    Err(Error::NotSupported)
}

pub(crate) fn topology_to_c(_v: &Topology) -> Result<pmix_topology_t> {
    Err(Error::NotSupported)
}

/// # Safety
/// `c` owns only what `topology_to_c` allocated.
pub(crate) unsafe fn topology_destruct(_c: &mut pmix_topology_t) {}
