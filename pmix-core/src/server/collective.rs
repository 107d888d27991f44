//! Collectives: fence, connect and disconnect, group construct and destruct. Local
//! participants are counted here; the host runs the collective across servers; a
//! participant that dies fails it at once.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use pmix_sys::*;

use super::{Peer, Shared, State};
use crate::codec::BufferType;
use crate::datastore::JobRecord;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor, TimerId};
use crate::values::info_flag as flag;
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

/// The namespaces of a fence, in the order the fence names them, with their sizes: the
/// reference numbers the processes of a fence's data across them (a process's relative
/// rank is its rank plus the sizes of the namespaces before its own), and so do we, so that
/// servers of both libraries read each other's fence data. A namespace whose size is not
/// known here (not registered, or a group) places none of its processes.
pub(super) struct FenceRanks(Vec<(PStr, Option<u32>)>);

impl FenceRanks {
    pub(super) fn of(st: &State, procs: &[Proc]) -> FenceRanks {
        let mut v: Vec<(PStr, Option<u32>)> = Vec::new();
        for p in procs {
            if !v.iter().any(|(ns, _)| *ns == p.nspace) {
                let size = st.jobs.get(&p.nspace).map(JobRecord::job_size);
                v.push((p.nspace.clone(), size));
            }
        }
        FenceRanks(v)
    }

    pub(super) fn relative(&self, p: &Proc) -> Option<u32> {
        let mut base = 0u32;
        for (ns, size) in &self.0 {
            if *ns == p.nspace {
                return base
                    .checked_add(p.rank)
                    .filter(|&r| size.is_some_and(|s| p.rank < s) && r < u32::MAX);
            }
            base = base.checked_add((*size)?)?;
        }
        None
    }

    pub(super) fn proc_of(&self, mut rel: u32) -> Option<Proc> {
        for (ns, size) in &self.0 {
            let size = (*size)?;
            if rel < size {
                return Some(Proc::new(ns.clone(), rel));
            }
            rel -= size;
        }
        None
    }
}

/// The kind of a collective operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum CollKind {
    Fence,
    Connect,
    Disconnect,
    GroupConstruct,
    GroupDestruct,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct CollKey {
    pub(super) kind: CollKind,
    /// The group id (groups), empty otherwise.
    pub(super) id: Vec<u8>,
    pub(super) procs: Vec<Proc>,
}

#[derive(Debug)]
pub(super) struct Collective {
    /// Local participants still expected.
    pub(super) expected: BTreeSet<Proc>,
    /// Local participants that arrived: their connection and request tag.
    pub(super) arrived: Vec<(ConnId, u32, Proc)>,
    pub(super) info: Vec<Info>,
    pub(super) collect: bool,
    pub(super) timer: Option<TimerId>,
}

/// The collective room's state.
#[derive(Debug, Default)]
pub(super) struct Collectives {
    /// Collectives in progress, by kind, group id and participants.
    pub(super) pending: HashMap<CollKey, Collective>,
    /// Members of the groups constructed here, by group id.
    pub(super) groups: HashMap<Vec<u8>, Vec<Proc>>,
}

impl Shared {
    /// Records a group that clients formed among themselves by invitation: the reference's
    /// clients do it with events alone (`PMIX_GROUP_INVITED`, `_INVITE_ACCEPTED`, then
    /// `PMIX_GROUP_CONSTRUCT_COMPLETE` from the leader with the group's id and its members as
    /// the custom range) and then fence over `{id, WILDCARD}`, which must name the members.
    /// A group constructed through the server already is kept as it is.
    pub(super) fn learn_group(&self, info: &[Info]) {
        let Some(Value::String(Some(id))) =
            info.iter().find(|i| i.is(PMIX_GROUP_ID)).map(|i| &i.value)
        else {
            return;
        };
        let members = info
            .iter()
            .find(|i| i.is(PMIX_EVENT_CUSTOM_RANGE))
            .map_or_else(Vec::new, |i| i.value.procs());
        if !members.is_empty() {
            self.state
                .lock()
                .coll
                .groups
                .entry(id.as_bytes().to_vec())
                .or_insert(members);
        }
    }

    /// The local participants of a collective over `procs`, and whether every
    /// participant is local.
    pub(super) fn local_participants(st: &State, procs: &[Proc]) -> (BTreeSet<Proc>, bool) {
        let mut local = BTreeSet::new();
        let mut all_local = true;
        // A group's name stands for its members (`{grp, WILDCARD}` in a fence).
        let expanded: Vec<Proc> = procs
            .iter()
            .flat_map(|p| match st.coll.groups.get(p.nspace.as_bytes()) {
                Some(members)
                    if p.rank == PMIX_RANK_WILDCARD && !st.jobs.contains_key(&p.nspace) =>
                {
                    members.clone()
                }
                _ => vec![p.clone()],
            })
            .collect();
        // The local ranks of a registered job are its ranks on this node whether or not
        // they have been registered as clients yet (a host may register and fork them one
        // by one while the first already take part in a collective), and a rank that died
        // stays one after the host deregistered it (the collective then fails below
        // instead of completing without it); of any other namespace, the clients
        // registered here.
        for p in &expanded {
            let job = st.jobs.get(&p.nspace);
            if p.rank == PMIX_RANK_WILDCARD {
                let mut mine: BTreeSet<Proc> = st
                    .clients
                    .keys()
                    .filter(|c| c.nspace == p.nspace)
                    .cloned()
                    .collect();
                if let Some(j) = job {
                    mine.extend(
                        j.local_ranks()
                            .iter()
                            .map(|&r| Proc::new(p.nspace.clone(), r))
                            .filter(|q| !st.ended.contains(q) || st.dead.contains(q)),
                    );
                }
                if job.map(|j| j.job_size() as usize) != Some(mine.len()) {
                    all_local = false;
                }
                local.extend(mine);
            } else if st.clients.contains_key(p)
                || (job.is_some_and(|j| j.local_ranks().contains(&p.rank))
                    && (!st.ended.contains(p) || st.dead.contains(p)))
            {
                local.insert(p.clone());
            } else {
                all_local = false;
            }
        }
        (local, all_local)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn collective(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        me: &Proc,
        kind: CollKind,
        grp: Vec<u8>,
        procs: Vec<Proc>,
        info: Vec<Info>,
        collect: bool,
    ) -> Result<()> {
        let mut sorted = procs.clone();
        sorted.sort();
        sorted.dedup();
        let key = CollKey {
            kind,
            id: grp,
            procs: if matches!(kind, CollKind::GroupConstruct | CollKind::GroupDestruct) {
                Vec::new()
            } else {
                sorted.clone()
            },
        };
        let timeout = info
            .iter()
            .find(|i| i.is(PMIX_TIMEOUT))
            .and_then(|i| i.value.as_u64())
            .filter(|&t| t > 0)
            // Larger deadlines overflow `Instant` (a panic on the progress thread).
            .map(|t| t.min(u64::from(u32::MAX)));
        let mode = self
            .state
            .lock()
            .peers
            .get(&id)
            .map(|p| p.mode)
            .unwrap_or_default();
        let (complete, participants) = {
            let mut st = self.state.lock();
            // A group is destructed by its members, who name it only by its id.
            let participants = if kind == CollKind::GroupDestruct {
                st.coll
                    .groups
                    .get(&key.id)
                    .cloned()
                    .unwrap_or_else(|| vec![me.clone()])
            } else if sorted.is_empty() {
                vec![me.clone()]
            } else {
                sorted.clone()
            };
            // The local participants are found once, by the first arrival (each later one
            // used to find them again: O(N) per arrival, O(N²) per fence of N local ranks).
            // A participant that already died fails the collective at once; one that dies
            // later fails the collective it is expected in (`Shared::lost`), so a
            // collective that exists has no dead participant.
            if !st.coll.pending.contains_key(&key) {
                let (expected, _) = Self::local_participants(&st, &participants);
                if expected.iter().any(|p| st.dead.contains(p)) {
                    drop(st);
                    Self::reply_status(r, id, tag, mode, PMIX_ERR_PARTIAL_SUCCESS);
                    return Ok(());
                }
                st.coll.pending.insert(
                    key.clone(),
                    Collective {
                        expected,
                        arrived: Vec::new(),
                        info: info.clone(),
                        collect,
                        timer: None,
                    },
                );
            }
            let c = st
                .coll
                .pending
                .get_mut(&key)
                .expect("inserted above or by an earlier arrival");
            c.collect |= collect;
            c.arrived.push((id, tag, me.clone()));
            c.expected.remove(me);
            if c.timer.is_none()
                && let Some(t) = timeout
            {
                let me2 = self.arc();
                let k2 = key.clone();
                c.timer = Some(r.schedule(Duration::from_secs(t), move |r| {
                    me2.fail_collective(r, &k2, PMIX_ERR_TIMEOUT);
                }));
            }
            (c.expected.is_empty(), participants)
        };
        if complete {
            self.complete_collective(r, key, participants);
        }
        Ok(())
    }

    pub(super) fn fail_collective(&self, r: &mut Reactor, key: &CollKey, status: pmix_status_t) {
        let Some(c) = self.state.lock().coll.pending.remove(key) else {
            return;
        };
        let forms = self.forms(c.arrived.iter().map(|a| a.0));
        for ((conn, tag, _), (mode, _)) in c.arrived.iter().zip(forms) {
            Self::reply_status(r, *conn, *tag, mode, status);
        }
        if let Some(t) = c.timer {
            r.cancel(t);
        }
    }

    /// For each of the connections `ids`: the buffer type it packs in, and whether it
    /// announced OpenPMIx 5 or later (the form of its group replies).
    pub(super) fn forms(&self, ids: impl Iterator<Item = ConnId>) -> Vec<(BufferType, bool)> {
        let st = self.state.lock();
        ids.map(|i| st.peers.get(&i).map(|p| (p.mode, p.v5)).unwrap_or_default())
            .collect()
    }

    pub(super) fn complete_collective(&self, r: &mut Reactor, key: CollKey, procs: Vec<Proc>) {
        let (c, all_local, contribution, ranks) = {
            let mut st = self.state.lock();
            let Some(c) = st.coll.pending.remove(&key) else {
                return;
            };
            let (_, all_local) = Self::local_participants(&st, &procs);
            // Only a collective the host takes part in can bring other nodes' data back.
            let ranks = if all_local {
                FenceRanks(Vec::new())
            } else {
                FenceRanks::of(&st, &procs)
            };
            // Only the host's fence carries it: a fence of local processes only answers
            // with a status, and their data stays here for GETNB. It is in the reference's
            // inter-server format, so that other nodes' servers may be either library.
            let contribution = if c.collect && !all_local {
                let local: Vec<Proc> = c.arrived.iter().map(|a| a.2.clone()).collect();
                st.modex.fence_contribution(&local, |p| ranks.relative(p))
            } else {
                Vec::new()
            };
            (c, all_local, contribution, ranks)
        };
        if let Some(t) = c.timer {
            r.cancel(t);
        }
        let arrived = c.arrived;
        let procs_for_reply = procs.clone();
        let group_id = key.id.clone();
        let finish = move |s: &Arc<Shared>,
                           r: &mut Reactor,
                           res: Result<(Vec<u8>, Option<u64>)>,
                           kind: CollKind| {
            let ctx = res.as_ref().ok().and_then(|x| x.1);
            let status = match &res {
                Ok((blob, _)) => {
                    if !blob.is_empty() {
                        let r = s
                            .state
                            .lock()
                            .modex
                            .absorb_fence(blob, |rel| ranks.proc_of(rel));
                        trace!(
                            "server: fence data of {} bytes from the host: {r:?}",
                            blob.len()
                        );
                    }
                    PMIX_SUCCESS
                }
                Err(e) => e.status(),
            };
            if status == PMIX_SUCCESS && kind == CollKind::Fence {
                let nspaces: BTreeSet<&PStr> = procs_for_reply.iter().map(|p| &p.nspace).collect();
                s.ds21_append_modex(nspaces);
            }
            let forms = s.forms(arrived.iter().map(|a| a.0));
            for ((conn, tag, who), (mode, v5)) in arrived.iter().zip(forms) {
                let mut p = Pack::new(mode);
                p.status(status);
                if status == PMIX_SUCCESS {
                    match kind {
                        CollKind::Connect => {
                            // The job data of every other namespace of the connection.
                            let st = s.state.lock();
                            let mut seen = BTreeSet::new();
                            for pr in &procs_for_reply {
                                if pr.nspace != who.nspace
                                    && seen.insert(pr.nspace.clone())
                                    && let Some(job) = st.jobs.get(&pr.nspace)
                                {
                                    trace!(
                                        "server: connect reply to {who:?} carries {}",
                                        pr.nspace
                                    );
                                    let mut inner = Pack::new(mode);
                                    inner.string(Some(pr.nspace.as_bytes()));
                                    for kv in job.req_reply() {
                                        inner.kval(&kv);
                                    }
                                    p.bytes(&inner.into_bytes());
                                }
                            }
                        }
                        CollKind::GroupConstruct | CollKind::GroupDestruct => {
                            // A 5.0 peer reads the final membership first.
                            if v5 && kind == CollKind::GroupConstruct {
                                p.procs(&procs_for_reply);
                            }
                            if let Some(c) = ctx {
                                p.size(c as usize);
                            }
                        }
                        _ => {}
                    }
                }
                Self::reply(r, *conn, *tag, p.into_bytes());
            }
            if status == PMIX_SUCCESS {
                match kind {
                    CollKind::GroupConstruct => {
                        s.state
                            .lock()
                            .coll
                            .groups
                            .insert(group_id.clone(), procs_for_reply.clone());
                    }
                    CollKind::GroupDestruct => {
                        s.state.lock().coll.groups.remove(&group_id);
                    }
                    _ => {}
                }
                s.retry_gets(r);
            }
        };
        let kind = key.kind;
        let needs_host = !all_local;
        match kind {
            CollKind::Fence if needs_host && self.host.provides(Upcall::FenceNb) => {
                let done = self.later(move |s, r, res: Result<Vec<u8>>| {
                    finish(s, r, res.map(|b| (b, None)), kind)
                });
                self.host.fence_nb(&procs, &c.info, contribution, done);
            }
            // As the reference: a [dis]connect whose participants are all this server's
            // clients completes here, and the host never hears of it.
            CollKind::Connect if needs_host && self.host.provides(Upcall::Connect) => {
                let done = self.later(move |s, r, res: Result<()>| {
                    finish(s, r, res.map(|()| (Vec::new(), None)), kind)
                });
                self.host.connect(&procs, &c.info, done);
            }
            CollKind::Disconnect if needs_host && self.host.provides(Upcall::Disconnect) => {
                let done = self.later(move |s, r, res: Result<()>| {
                    finish(s, r, res.map(|()| (Vec::new(), None)), kind)
                });
                self.host.disconnect(&procs, &c.info, done);
            }
            CollKind::GroupConstruct | CollKind::GroupDestruct
                if self.host.provides(Upcall::Group) =>
            {
                let op = if kind == CollKind::GroupConstruct {
                    PMIX_GROUP_CONSTRUCT
                } else {
                    PMIX_GROUP_DESTRUCT
                };
                let done = self.later(move |s, r, res: Result<Vec<Info>>| {
                    let res = res.map(|infos| {
                        let ctx = infos
                            .iter()
                            .find(|i| i.is(PMIX_GROUP_CONTEXT_ID))
                            .and_then(|i| i.value.as_u64());
                        (Vec::new(), ctx)
                    });
                    finish(s, r, res, kind)
                });
                self.host.group(op, &key.id, &procs, &c.info, done);
            }
            _ if needs_host && kind != CollKind::Disconnect => {
                finish(&self.arc(), r, Err(Error::NotSupported), kind);
            }
            _ => finish(&self.arc(), r, Ok((Vec::new(), None)), kind),
        }
    }

    /// The command FENCENB: `PMIx_Fence`.
    pub(super) fn on_fence(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let me = &peer.proc;
        let procs = u.procs()?;
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        let collect = flag(&info, PMIX_COLLECT_DATA);
        self.collective(
            r,
            id,
            tag,
            me,
            CollKind::Fence,
            Vec::new(),
            procs,
            info,
            collect,
        )?;
        Ok(())
    }

    /// The command CONNECTNB, DISCONNECTNB: `PMIx_Connect`, `PMIx_Disconnect`.
    pub(super) fn on_connect(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        c: u8,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let me = &peer.proc;
        let procs = u.procs()?;
        trace!(
            "server: connect/disconnect {c} of {procs:?} by {me:?}; known jobs {:?}",
            self.state.lock().jobs.keys().collect::<Vec<_>>()
        );
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        let kind = if c == cmd::CONNECTNB {
            CollKind::Connect
        } else {
            CollKind::Disconnect
        };
        self.collective(r, id, tag, me, kind, Vec::new(), procs, info, false)?;
        Ok(())
    }

    /// The command GROUP_CONSTRUCT: `PMIx_Group_construct`.
    pub(super) fn on_group_construct(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let me = &peer.proc;
        let grp = u.string()?.unwrap_or_default().into_bytes();
        let procs = u.procs()?;
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        self.collective(
            r,
            id,
            tag,
            me,
            CollKind::GroupConstruct,
            grp,
            procs,
            info,
            false,
        )?;
        Ok(())
    }

    /// The command GROUP_DESTRUCT: `PMIx_Group_destruct`.
    pub(super) fn on_group_destruct(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let me = &peer.proc;
        let grp = u.string()?.unwrap_or_default().into_bytes();
        if peer.v5 {
            // The members it knows of; the server's own record decides.
            let _ = u.procs()?;
        }
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        // The members are those that construct the group; destruct is collective
        // over the same set, which each member names only by the group id.
        self.collective(
            r,
            id,
            tag,
            me,
            CollKind::GroupDestruct,
            grp,
            Vec::new(),
            info,
            false,
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod fence_rank_tests {
    use super::*;

    #[test]
    fn relative_ranks_count_across_the_fences_namespaces() {
        let r = FenceRanks(vec![
            (PStr::from("a"), Some(4)),
            (PStr::from("b"), Some(2)),
            (PStr::from("g"), None),
        ]);
        assert_eq!(r.relative(&Proc::new("a", 3)), Some(3));
        assert_eq!(r.relative(&Proc::new("b", 1)), Some(5));
        assert_eq!(r.proc_of(5), Some(Proc::new("b", 1)));
        assert_eq!(r.proc_of(0), Some(Proc::new("a", 0)));
        // Past a namespace's size, of a namespace not in the fence, or after one of unknown
        // size: not placed.
        assert_eq!(r.relative(&Proc::new("a", 4)), None);
        assert_eq!(r.relative(&Proc::new("c", 0)), None);
        assert_eq!(r.relative(&Proc::new("g", 0)), None);
        assert_eq!(r.proc_of(6), None);
        for rel in 0..6 {
            let p = r.proc_of(rel).unwrap();
            assert_eq!(r.relative(&p), Some(rel));
        }
    }
}
