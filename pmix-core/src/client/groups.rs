//! Process groups: construct and destruct (collective through the server), invite and
//! join (by events between the members), leave.

use std::sync::Arc;

use pmix_sys::*;

use super::{Client, Done, status_result};
use crate::events::Event;
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

impl Client {
    /// `PMIx_Group_construct`/`destruct`. The construct reply is a status, from a 5.0 server
    /// the final membership, and unless the server ran in "hybrid" mode a context id; the
    /// results are, as OpenPMIx 5.0 gives them, the group id, the membership and the context
    /// id. A 5.0 server's destruct wants the members named: a group this process did not
    /// construct is `PMIX_ERR_NOT_FOUND` there, as with OpenPMIx 5.0.
    pub fn group_nb(
        &self,
        construct: bool,
        grp: &[u8],
        procs: &[Proc],
        info: &[Info],
        done: Done<Vec<Info>>,
    ) -> Result<()> {
        let v5 = self.server_v5;
        let mut p = Pack::cmd(
            self.mode,
            if construct {
                cmd::GROUP_CONSTRUCT
            } else {
                cmd::GROUP_DESTRUCT
            },
        );
        p.string(Some(grp));
        if construct {
            p.procs_always(procs);
        } else if v5 {
            let members = self.groups.lock().get(grp).cloned();
            p.procs_always(&members.ok_or(Error::NotFound)?);
        }
        p.infos(info);
        let mode = self.mode;
        let known = self.groups.clone();
        let (grp, mut asked) = (grp.to_vec(), procs.to_vec());
        self.request_nb(p.into_bytes(), move |r| {
            if !construct {
                known.lock().remove(&grp);
            }
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                if !construct {
                    return Ok(Vec::new());
                }
                // A 5.0 server whose host named no membership sends none: the members are
                // then those asked for (OpenPMIx 5.0's client fails there).
                let mut members = if v5 && !u.at_end() {
                    u.procs()?
                } else {
                    Vec::new()
                };
                if members.is_empty() {
                    asked.sort();
                    asked.dedup();
                    members = asked;
                }
                let mut out = vec![Info::new(
                    PMIX_GROUP_ID.to_bytes(),
                    Value::String(Some(PStr::from(&grp[..]))),
                )];
                if !members.is_empty() {
                    out.push(Info::new(
                        PMIX_GROUP_MEMBERSHIP.to_bytes(),
                        Value::proc_array(members.clone()),
                    ));
                }
                if !u.at_end()
                    && let Ok(ctx) = u.size()
                    && ctx != 0
                {
                    out.push(Info::new(
                        PMIX_GROUP_CONTEXT_ID.to_bytes(),
                        Value::Size(ctx as u64),
                    ));
                }
                known.lock().insert(grp, members);
                Ok(out)
            }))
        })
    }

    /// Registers a temporary handler for `codes` whose events carry `PMIX_GROUP_ID = grp`
    /// (with `anonymous`, also those that carry no group id: OpenPMIx 4.2's
    /// `PMIx_Group_join` answers the leader with none); they arrive on the returned channel.
    /// It goes first in its chain and always passes the event on, so the application's own
    /// handlers for these codes still see it, even one that never calls back. The caller
    /// drops it with [`Self::drop_group_events`].
    pub(super) fn group_events(
        &self,
        codes: &[pmix_status_t],
        grp: &[u8],
        anonymous: bool,
    ) -> Result<(usize, crossbeam_channel::Receiver<Event>)> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let want = grp.to_vec();
        let id = self.events.register(
            codes,
            &[Info::new(
                PMIX_EVENT_HDLR_FIRST.to_bytes(),
                Value::Bool(true),
            )],
            Arc::new(move |_, ev: &Event, _, next: crate::events::Next| {
                let id = ev.info.iter().find(|i| i.is(PMIX_GROUP_ID));
                let ours = match id {
                    Some(i) => i.value.as_str().is_some_and(|g| g.as_bytes() == want),
                    None => anonymous,
                };
                if ours {
                    let _ = tx.send(ev.clone());
                }
                next.call(PMIX_SUCCESS, Vec::new());
            }),
        );
        if !self.is_singleton() {
            self.register_events_nb(codes, &[], Box::new(|_| {}))?;
        }
        Ok((id, rx))
    }

    /// The server counts registrations per code, so this one's codes are released whether or
    /// not another handler names them too.
    pub(super) fn drop_group_events(&self, id: usize, codes: &[pmix_status_t]) {
        self.events.deregister(id);
        let _ = self.deregister_events(codes);
    }

    /// `PMIx_Group_invite` (the leader), over events as the reference's 4.2 clients do it, so
    /// that either library's server sees the same traffic: `PMIX_GROUP_INVITED` to the
    /// invitees, then a wait until each answers (`PMIX_GROUP_INVITE_ACCEPTED`/`DECLINED`,
    /// through `PMIx_Group_join`) or `PMIX_TIMEOUT` passes, then `PMIX_GROUP_CONSTRUCT_COMPLETE`
    /// with the members as its custom range (servers learn the group from it, for fences over
    /// `{grp, WILDCARD}` and the destruct) and as `PMIX_GROUP_MEMBERSHIP`. Returns the
    /// membership. No group construct reaches the host, so `PMIX_GROUP_ASSIGN_CONTEXT_ID` gets
    /// no id here, as with the reference. Blocking; refused on the progress and event threads.
    pub fn group_invite(&self, grp: &[u8], procs: &[Proc], info: &[Info]) -> Result<Vec<Info>> {
        if crate::progress::on_progress_thread() || crate::events::on_event_thread() {
            return Err(Error::WouldBlock);
        }
        let codes = [PMIX_GROUP_INVITE_ACCEPTED, PMIX_GROUP_INVITE_DECLINED];
        // Only invitees still pending are counted, so an answer without a group id (4.2's)
        // is taken from them alone.
        let (hid, rx) = self.group_events(&codes, grp, true)?;
        let gid = Info::new(
            PMIX_GROUP_ID.to_bytes(),
            Value::String(Some(PStr::from(grp))),
        );
        let result = (|| {
            let leader = vec![
                gid.clone(),
                Info::new(PMIX_GROUP_LEADER.to_bytes(), Value::Proc(self.me.clone())),
            ];
            // The leader may name itself among the procs; it is a member without asking.
            let invited: Vec<Proc> = procs.iter().filter(|p| **p != self.me).cloned().collect();
            self.notify_procs(PMIX_GROUP_INVITED, &invited, leader)?;
            let deadline = Self::timeout_of(info).map(|t| std::time::Instant::now() + t);
            let mut pending: Vec<Proc> = invited;
            let mut members = vec![self.me.clone()];
            while !pending.is_empty() {
                let ev = match deadline {
                    Some(d) => rx.recv_deadline(d).map_err(|_| Error::Timeout)?,
                    None => rx.recv().map_err(|_| Error::Unreach)?,
                };
                if let Some(pos) = pending.iter().position(|p| *p == ev.source) {
                    let p = pending.remove(pos);
                    if ev.code == PMIX_GROUP_INVITE_ACCEPTED {
                        members.push(p);
                    }
                }
            }
            let membership = Info::new(
                PMIX_GROUP_MEMBERSHIP.to_bytes(),
                Value::proc_array(members.iter().cloned()),
            );
            // The whole membership is the range (the server skips the leader, the source),
            // and default handlers are not bothered, as with the reference.
            self.notify_procs(
                PMIX_GROUP_CONSTRUCT_COMPLETE,
                &members,
                vec![
                    gid.clone(),
                    Info::new(PMIX_EVENT_NON_DEFAULT.to_bytes(), Value::Bool(true)),
                    membership.clone(),
                ],
            )?;
            // Kept, as for a constructed group: a 5.0 server's destruct names the members.
            self.groups.lock().insert(grp.to_vec(), members);
            Ok(vec![membership])
        })();
        self.drop_group_events(hid, &codes);
        result
    }

    /// `PMIx_Group_join` (an invited process): answers the `leader`'s invitation and, when
    /// accepting, waits for the leader's `PMIX_GROUP_CONSTRUCT_COMPLETE` (`PMIX_TIMEOUT`
    /// bounds the wait); returns the membership it names.
    pub fn group_join(
        &self,
        grp: &[u8],
        leader: &Proc,
        accept: bool,
        info: &[Info],
    ) -> Result<Vec<Info>> {
        if crate::progress::on_progress_thread() || crate::events::on_event_thread() {
            return Err(Error::WouldBlock);
        }
        let codes = [PMIX_GROUP_CONSTRUCT_COMPLETE];
        let (hid, rx) = self.group_events(&codes, grp, false)?;
        let gid = Info::new(
            PMIX_GROUP_ID.to_bytes(),
            Value::String(Some(PStr::from(grp))),
        );
        let result = (|| {
            let code = if accept {
                PMIX_GROUP_INVITE_ACCEPTED
            } else {
                PMIX_GROUP_INVITE_DECLINED
            };
            self.notify_procs(code, std::slice::from_ref(leader), vec![gid])?;
            if !accept {
                return Ok(Vec::new());
            }
            let deadline = Self::timeout_of(info).map(|t| std::time::Instant::now() + t);
            let ev = loop {
                let ev = match deadline {
                    Some(d) => rx.recv_deadline(d).map_err(|_| Error::Timeout)?,
                    None => rx.recv().map_err(|_| Error::Unreach)?,
                };
                if ev.source == *leader {
                    break ev;
                }
            };
            let membership = Self::membership_of(&ev.info);
            self.groups
                .lock()
                .insert(grp.to_vec(), membership.value.procs());
            Ok(vec![membership])
        })();
        self.drop_group_events(hid, &codes);
        result
    }

    /// The membership a `PMIX_GROUP_CONSTRUCT_COMPLETE` names: its `PMIX_GROUP_MEMBERSHIP`
    /// (ours), else its custom range (the reference's leader sends only that).
    pub(super) fn membership_of(info: &[Info]) -> Info {
        let named = info
            .iter()
            .find(|i| i.is(PMIX_GROUP_MEMBERSHIP))
            .or_else(|| info.iter().find(|i| i.is(PMIX_EVENT_CUSTOM_RANGE)));
        let members = named.map_or_else(Vec::new, |i| i.value.procs());
        Info::new(PMIX_GROUP_MEMBERSHIP.to_bytes(), Value::proc_array(members))
    }

    pub fn group_leave_nb(&self, grp: &[u8], info: &[Info], done: Done<()>) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::GROUP_LEAVE);
        p.string(Some(grp)).infos(info);
        self.status_request_nb(p.into_bytes(), done)
    }
}
