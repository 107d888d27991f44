//! Fabric and devices: fabric registration and update, device distances.

use pmix_sys::*;

use super::{Client, Done, status_result};
use crate::Result;
use crate::values::{Info, PStr, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};

impl Client {
    pub fn fabric_register_nb(
        &self,
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::FABRIC_REGISTER);
        p.infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    pub fn fabric_update_nb(
        &self,
        index: usize,
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::FABRIC_UPDATE);
        p.size(index);
        self.infos_request_nb(p.into_bytes(), done)
    }

    /// Asks the server for the distances from the CPUs of `cpuset` (None: the binding the
    /// server knows for this process) to the devices `directives` select, in the server's
    /// topology: what `PMIx_Compute_distances` does, as the reference's client does, when
    /// this process cannot load a topology of its own.
    pub fn compute_distances_nb(
        &self,
        cpuset: Option<&crate::values::Cpuset>,
        directives: &[Info],
        done: Done<Vec<crate::values::DeviceDistance>>,
    ) -> Result<()> {
        use crate::values::{Cpuset, Topology, TopologyData};
        let hwloc = || Some(PStr::from("hwloc"));
        let cpuset = cpuset.cloned().unwrap_or(Cpuset {
            source: hwloc(),
            bitmap: None,
        });
        let mut p = Pack::cmd(self.mode, cmd::COMPUTE_DEVICE_DISTANCES);
        // No topology: the server is to use its own.
        p.one(
            PMIX_TOPO,
            Value::Topo(Box::new(Topology {
                source: hwloc(),
                data: TopologyData::None,
            })),
        )
        .one(PMIX_PROC_CPUSET, Value::ProcCpuset(Box::new(cpuset)))
        .infos(directives);
        let mode = self.mode;
        self.request_nb(p.into_bytes(), move |r| {
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                if u.at_end() {
                    return Ok(Vec::new());
                }
                let n = u.size()?;
                if n == 0 {
                    return Ok(Vec::new());
                }
                Ok(u.values(PMIX_DEVICE_DIST, n)?
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::DeviceDist(d) => Some(*d),
                        _ => None,
                    })
                    .collect())
            }))
        })
    }
}
