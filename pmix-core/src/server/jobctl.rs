//! Requests that act on jobs and resources, all answered by the host: spawn, abort, job
//! control (cleanup registrations stay here), monitoring, allocation, query, log,
//! credentials, fabric; and device distances, computed here from the topology.

use std::sync::Arc;

use pmix_sys::*;

use super::{Peer, Shared, requester_info};
use crate::host::Upcall;
use crate::net::local_hostname;
use crate::progress::{ConnId, Reactor};
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

impl Shared {
    /// The answer to a client's COMPUTE_DEVICE_DISTANCES (sent by a client that cannot load
    /// a topology itself): in the topology the request carries, or this machine's, from the
    /// CPUs of its cpuset, or else those of the binding the host registered for the
    /// requester (`PMIX_CPUSET`), or else the whole machine (an unbound process).
    pub(super) fn device_distances(
        &self,
        me: &Proc,
        topo: &Value,
        cpuset: &Value,
        dirs: &[Info],
    ) -> Result<Vec<crate::values::DeviceDistance>> {
        use crate::topology::{self, LocalTopology};
        use crate::values::TopologyData;
        let Value::ProcCpuset(cs) = cpuset else {
            return Err(Error::BadParam);
        };
        let mut cs = (**cs).clone();
        if cs.bitmap.is_none() {
            let registered = self
                .state
                .lock()
                .jobs
                .get(&me.nspace)
                .and_then(|j| j.get(me.rank, PMIX_CPUSET.to_bytes()));
            if let Some(Value::String(Some(s))) = registered {
                cs = topology::parse_cpuset_string(s.as_bytes())?;
            }
        }
        let (types, ids) = topology::distance_selection(dirs);
        let host = local_hostname().to_string();
        if let Value::Topo(t) = topo
            && let TopologyData::Xml(xml) = &t.data
        {
            let xml = std::str::from_utf8(xml).map_err(|_| Error::BadParam)?;
            LocalTopology::from_xml(xml)?.device_distances(&cs, types, &ids, &host)
        } else {
            topology::local()?.device_distances(&cs, types, &ids, &host)
        }
    }

    /// The command ABORT: `PMIx_Abort`.
    pub(super) fn on_abort(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let status = u.status()?;
        let msg = u.string()?;
        let procs = u.procs()?;
        self.require(Upcall::Abort)?;
        let done = self.status_done(id, tag, mode);
        self.host
            .abort(me, status, msg.as_ref().map(PStr::as_bytes), &procs, done);
        Ok(())
    }

    /// The command SPAWNNB: `PMIx_Spawn`.
    pub(super) fn on_spawn(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let directives = u.infos()?;
        // As OpenPMIx: the output goes to the requester only when it gave directives.
        let channels = if directives.is_empty() {
            0
        } else {
            spawn_output_channels(&directives, peer.kind.is_tool())
        };
        let info = requester_info(peer, directives);
        let apps = u.apps()?;
        self.require(Upcall::Spawn)?;
        if channels != 0 {
            self.state.lock().iof.spawn_started();
        }
        let done = self.later(move |s: &Arc<Shared>, r, res: Result<Vec<u8>>| {
            let mut p = Pack::new(mode);
            if channels != 0 {
                // The requester gets the new job's output (before the reply, so that none
                // of it is missed), as with OpenPMIx, including what the job wrote before
                // (it may have ended already: `Forwarding::retired`).
                if let Ok(ns) = &res {
                    let job = Proc::new(PStr::from(ns.as_slice()), PMIX_RANK_WILDCARD);
                    s.pull_for(r, id, mode, vec![job], channels);
                }
                s.state.lock().iof.spawn_answered();
            }
            match res {
                Ok(ns) => {
                    let ns = PStr::from(ns);
                    p.status(PMIX_SUCCESS).string(Some(ns.as_bytes()));
                    if let Some(job) = s.state.lock().jobs.get(&ns) {
                        for kv in job.req_reply() {
                            p.kval(&kv);
                        }
                    }
                }
                Err(e) => {
                    p.status(e.status()).string(None);
                }
            }
            Self::reply(r, id, tag, p.into_bytes());
        });
        self.host.spawn(me, &info, &apps, done);
        Ok(())
    }

    /// `PMIx_Spawn` called in the server's own process: the host's spawn upcall, with the
    /// server itself as the requester, as OpenPMIx 5.0 does (PRRTE's prterun launches its
    /// job this way). `done` gets the new namespace.
    pub fn spawn_for_self(
        &self,
        job_info: &[Info],
        apps: &[crate::values::App],
        done: crate::host::Done<PStr>,
    ) -> Result<()> {
        self.require(Upcall::Spawn)?;
        let me = self.cfg.id.clone();
        self.host.spawn(
            &me,
            job_info,
            apps,
            Box::new(move |r: Result<Vec<u8>>| done(r.map(PStr::from))),
        );
        Ok(())
    }

    /// `PMIx_Job_control` in the server's own process: the host's job-control upcall, with
    /// the server itself as the requester, as OpenPMIx 5.0 does (PRRTE's prterun forwards
    /// the signals it gets to its job so).
    pub fn job_control_for_self(
        &self,
        targets: &[Proc],
        directives: &[Info],
        done: crate::host::Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        self.require(Upcall::JobControl)?;
        let me = self.cfg.id.clone();
        self.host.job_control(
            &me,
            targets,
            directives,
            Box::new(move |r: Result<Vec<Info>>| done(r.map(|v| (PMIX_SUCCESS, v)))),
        );
        Ok(())
    }

    /// The command QUERY: `PMIx_Query_info`.
    pub(super) fn on_query(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let queries = u.queries()?;
        self.require(Upcall::Query)?;
        let done = self.infos_done(id, tag, mode);
        self.host.query(me, &queries, done);
        Ok(())
    }

    /// The command LOG: `PMIx_Log`, logged as `log.rs` says, with the client as
    /// `PMIX_LOG_SOURCE` and its time as `PMIX_LOG_TIMESTAMP` added to the directives (as
    /// OpenPMIx's server adds them).
    pub(super) fn on_log(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let time = match u.one(PMIX_TIME)? {
            Value::Time(t) => t,
            _ => return Err(Error::UnpackFailure),
        };
        let data = u.infos()?;
        let mut dirs = if u.at_end() { Vec::new() } else { u.infos()? };
        dirs.push(Info::new(
            PMIX_LOG_SOURCE.to_bytes(),
            Value::Proc(me.clone()),
        ));
        if time > 0 {
            dirs.push(Info::new(PMIX_LOG_TIMESTAMP.to_bytes(), Value::Time(time)));
        }
        let dirs = requester_info(peer, dirs);
        let done = self.status_done(id, tag, mode);
        self.log_request(r, me.clone(), data, dirs, done);
        Ok(())
    }

    /// The command ALLOC: `PMIx_Allocation_request`.
    pub(super) fn on_allocate(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let directive = match u.one(PMIX_ALLOC_DIRECTIVE)? {
            Value::AllocDirective(d) => d,
            _ => return Err(Error::UnpackFailure),
        };
        let info = requester_info(peer, u.infos()?);
        self.require(Upcall::Allocate)?;
        let done = self.infos_done(id, tag, mode);
        self.host.allocate(me, directive, &info, done);
        Ok(())
    }

    /// The command JOB_CONTROL: `PMIx_Job_control`.
    pub(super) fn on_job_control(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let targets = u.procs()?;
        let dirs = u.infos()?;
        // Cleanup registrations are the server's own business (done when the
        // requester ends); the rest goes to the host.
        let (cleanup, dirs) = crate::cleanup::Cleanup::split(&dirs);
        if !cleanup.is_empty() {
            self.state.lock().cleanups.push((id, cleanup));
            if dirs.is_empty() {
                Self::reply_infos(r, id, tag, mode, Ok(Vec::new()));
                return Ok(());
            }
        }
        self.require(Upcall::JobControl)?;
        let dirs = requester_info(peer, dirs);
        let done = self.infos_done(id, tag, mode);
        self.host.job_control(me, &targets, &dirs, done);
        Ok(())
    }

    /// The command MONITOR: `PMIx_Process_monitor`.
    pub(super) fn on_monitor(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let monitor = match u.one(PMIX_INFO)? {
            Value::Info(i) => *i,
            _ => return Err(Error::UnpackFailure),
        };
        let error = u.status()?;
        let dirs = requester_info(peer, u.infos()?);
        self.require(Upcall::Monitor)?;
        let done = self.infos_done(id, tag, mode);
        self.host.monitor(me, &monitor, error, &dirs, done);
        Ok(())
    }

    /// The command GET_CREDENTIAL: `PMIx_Get_credential`.
    pub(super) fn on_get_credential(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let dirs = requester_info(peer, u.infos()?);
        self.require(Upcall::GetCredential)?;
        let done = self.later(move |_, r, res: Result<crate::host::Credential>| {
            let mut p = Pack::new(mode);
            match res {
                Ok(c) => p.status(PMIX_SUCCESS).bytes(&c.cred).infos(&c.info),
                Err(e) => p.status(e.status()),
            };
            Self::reply(r, id, tag, p.into_bytes());
        });
        self.host.get_credential(me, &dirs, done);
        Ok(())
    }

    /// The command VALIDATE_CRED: `PMIx_Validate_credential`.
    pub(super) fn on_validate_credential(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let cred = u.bytes()?;
        let dirs = requester_info(peer, u.infos()?);
        self.require(Upcall::ValidateCredential)?;
        let done = self.later(move |_, r, res: Result<crate::host::Validation>| {
            Self::reply_infos(r, id, tag, mode, res.map(|v| v.info));
        });
        self.host.validate_credential(me, &cred, &dirs, done);
        Ok(())
    }

    /// The command FABRIC_REGISTER, FABRIC_UPDATE: `PMIx_Fabric_register`, `PMIx_Fabric_update`.
    pub(super) fn on_fabric(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        c: u8,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        if !self.host.provides(Upcall::Fabric) {
            Self::reply_infos(r, id, tag, mode, Err(Error::NotSupported));
            return Ok(());
        }
        // A registration carries the requester's directives; an update the index of
        // the fabric, which the host gets as PMIX_FABRIC_INDEX (as from the reference).
        let (op, dirs) = if c == cmd::FABRIC_REGISTER {
            (PMIX_FABRIC_REQUEST_INFO, u.infos()?)
        } else {
            let index = Info::new(PMIX_FABRIC_INDEX.to_bytes(), Value::Size(u.size()? as u64));
            (PMIX_FABRIC_UPDATE_INFO, vec![index])
        };
        let dirs = requester_info(peer, dirs);
        let done = self.infos_done(id, tag, mode);
        self.host.fabric(me, op, &dirs, done);
        Ok(())
    }

    /// The command COMPUTE_DEVICE_DISTANCES: `PMIx_Compute_distances`.
    pub(super) fn on_device_distances(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let topo = u.one(PMIX_TOPO)?;
        let cpuset = u.one(PMIX_PROC_CPUSET)?;
        let dirs = u.infos()?;
        let mut p = Pack::new(mode);
        match self.device_distances(me, &topo, &cpuset, &dirs) {
            Ok(d) => {
                p.status(PMIX_SUCCESS).size(d.len()).many(
                    PMIX_DEVICE_DIST,
                    d.into_iter()
                        .map(|x| Value::DeviceDist(Box::new(x)))
                        .collect(),
                );
            }
            Err(e) => {
                p.status(e.status());
            }
        }
        Self::reply(r, id, tag, p.into_bytes());
        Ok(())
    }
}

/// The output channels a spawn's requester receives of the new job, as OpenPMIx's server
/// (4.2 and 5.0) decides them when the spawn carries directives: `PMIX_FWD_STDOUT`,
/// `_STDERR`, `_STDDIAG` given true; a tool also gets each one it does not mention.
fn spawn_output_channels(info: &[Info], tool: bool) -> pmix_iof_channel_t {
    [
        (PMIX_FWD_STDOUT, PMIX_FWD_STDOUT_CHANNEL),
        (PMIX_FWD_STDERR, PMIX_FWD_STDERR_CHANNEL),
        (PMIX_FWD_STDDIAG, PMIX_FWD_STDDIAG_CHANNEL),
    ]
    .into_iter()
    .filter(|(key, _)| {
        if info.iter().any(|i| i.is(key)) {
            crate::values::info_flag(info, key)
        } else {
            tool
        }
    })
    .fold(0, |acc, (_, ch)| acc | ch)
}
