//! Events: notifications from clients and tools relayed to the processes that registered
//! for them (in range), a cache for late registrations, and `PMIx_Notify_event` of the host.

use std::collections::HashSet;

use pmix_sys::*;

use super::{Peer, Shared};
use crate::Result;
use crate::codec::BufferType;
use crate::events::Event;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor};
use crate::values::info_flag as flag;
use crate::values::{Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};

/// How many notified events the server keeps for late registrations (the reference keeps
/// 512).
pub(super) const EVENT_CACHE: usize = 512;

/// An event a client or tool notified, and the processes it was sent to.
#[derive(Debug)]
pub(super) struct CachedEvent {
    pub(super) ev: Event,
    pub(super) sent_to: HashSet<Proc>,
}

impl Shared {
    /// `PMIx_Notify_event` by the host: to the local clients in range that want it.
    pub fn notify(&self, ev: Event) -> Result<()> {
        let me = self.arc();
        self.progress.post(move |r| {
            me.relay_event(r, &ev, None);
        })
    }

    pub(super) fn in_range(ev: &Event, target: &Proc) -> bool {
        // Targets named with PMIX_EVENT_CUSTOM_RANGE restrict any range but the process's
        // own, as in the reference (a debugger daemon releases its target's processes with
        // PMIX_RANGE_LOCAL and the target namespace as custom range).
        let custom = ev.range != PMIX_RANGE_PROC_LOCAL
            && ev.info.iter().any(|i| i.is(PMIX_EVENT_CUSTOM_RANGE));
        match ev.range {
            PMIX_RANGE_PROC_LOCAL => false,
            _ if custom => Self::in_custom_range(ev, target),
            PMIX_RANGE_NAMESPACE => target.nspace == ev.source.nspace,
            PMIX_RANGE_CUSTOM => Self::in_custom_range(ev, target),
            _ => true,
        }
    }

    pub(super) fn in_custom_range(ev: &Event, target: &Proc) -> bool {
        {
            ev.info
                .iter()
                .filter(|i| i.is(PMIX_EVENT_CUSTOM_RANGE))
                .any(|i| match &i.value {
                    Value::Proc(p) => {
                        p.nspace == target.nspace
                            && (p.rank == PMIX_RANK_WILDCARD || p.rank == target.rank)
                    }
                    Value::DataArray(d) => d.items.iter().any(|v| match v {
                        Value::Proc(p) => {
                            p.nspace == target.nspace
                                && (p.rank == PMIX_RANK_WILDCARD || p.rank == target.rank)
                        }
                        _ => false,
                    }),
                    _ => false,
                })
        }
    }

    /// Sends `ev` to every connected peer in range that registered for it, except its
    /// source connection.
    /// Sends `ev` to the peers in its range that registered for it (not back to `from`);
    /// returns who got it.
    pub(super) fn relay_event(
        &self,
        r: &mut Reactor,
        ev: &Event,
        from: Option<ConnId>,
    ) -> Vec<Proc> {
        let non_default = flag(&ev.info, PMIX_EVENT_NON_DEFAULT);
        let targets: Vec<(ConnId, BufferType, Proc)> = {
            let st = self.state.lock();
            st.peers
                .iter()
                .filter(|(id, p)| Some(**id) != from && !p.finalized)
                .filter(|(_, p)| Self::in_range(ev, &p.proc))
                .filter(|(_, p)| {
                    p.codes.contains(&Some(ev.code)) || (!non_default && p.codes.contains(&None))
                })
                .map(|(id, p)| (*id, p.mode, p.proc.clone()))
                .collect()
        };
        let mut sent = Vec::with_capacity(targets.len());
        for (id, mode, proc) in targets {
            Self::send_event(r, id, mode, ev);
            sent.push(proc);
        }
        sent
    }

    pub(super) fn send_event(r: &mut Reactor, id: ConnId, mode: BufferType, ev: &Event) {
        let mut p = Pack::cmd(mode, cmd::NOTIFY);
        p.status(ev.code)
            .proc(&ev.source)
            .infos(&ev.info)
            .range(ev.range);
        let _ = r.send(
            id,
            crate::wire::server_frame(crate::wire::TAG_NOTIFY, &p.into_bytes()),
        );
    }

    /// The command NOTIFY: `PMIx_Notify_event`.
    pub(super) fn on_notify(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let code = u.status()?;
        let range = u.range()?;
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        let ev = Event {
            code,
            source: me.clone(),
            range,
            info,
        };
        if code == PMIX_GROUP_CONSTRUCT_COMPLETE {
            self.learn_group(&ev.info);
        }
        let sent_to = self.relay_event(r, &ev, Some(id));
        // Kept for processes that register for it later (a debugger's release may
        // come before its target registered for it), as the reference does, unless
        // the notifier said not to.
        if range != PMIX_RANGE_LOCAL && !flag(&ev.info, PMIX_EVENT_DO_NOT_CACHE) {
            let mut st = self.state.lock();
            if st.event_cache.len() >= EVENT_CACHE {
                st.event_cache.pop_front();
            }
            st.event_cache.push_back(CachedEvent {
                ev: ev.clone(),
                sent_to: sent_to.into_iter().collect(),
            });
        }
        Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
        if range != PMIX_RANGE_LOCAL && self.host.provides(Upcall::NotifyEvent) {
            self.host
                .notify_event(code, me, range, &ev.info, Box::new(|_| {}));
        }
        Ok(())
    }

    /// The command REGEVENTS: `PMIx_Register_event_handler`.
    pub(super) fn on_register_events(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let n = u.size()?;
        let codes: Vec<pmix_status_t> = if n > 0 {
            u.values(PMIX_STATUS, n)?
                .into_iter()
                .filter_map(|v| match v {
                    Value::Status(s) => Some(s),
                    _ => None,
                })
                .collect()
        } else {
            Vec::new()
        };
        let info = if u.at_end() { Vec::new() } else { u.infos()? };
        if let Some(p) = self.state.lock().peers.get_mut(&id) {
            if codes.is_empty() {
                p.codes.push(None);
            } else {
                p.codes.extend(codes.iter().map(|&c| Some(c)));
            }
        }
        Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
        // Cached events of these codes that this process has not had yet (only for
        // specific codes: a default handler registered now must not see old errors).
        let late: Vec<Event> = {
            let mut st = self.state.lock();
            st.event_cache
                .iter_mut()
                .filter(|c| {
                    codes.contains(&c.ev.code)
                        && c.ev.source != *me
                        && Self::in_range(&c.ev, me)
                        && !c.sent_to.contains(me)
                })
                .map(|c| {
                    c.sent_to.insert(me.clone());
                    c.ev.clone()
                })
                .collect()
        };
        for ev in late {
            Self::send_event(r, id, mode, &ev);
        }
        if self.host.provides(Upcall::RegisterEvents) {
            self.host.register_events(&codes, &info, Box::new(|_| {}));
        }
        Ok(())
    }

    /// The command DEREGEVENTS: `PMIx_Deregister_event_handler`.
    pub(super) fn on_deregister_events(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        _tag: u32,
        _peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mut codes = Vec::new();
        while !u.at_end() {
            codes.push(u.status()?);
        }
        if let Some(p) = self.state.lock().peers.get_mut(&id) {
            for c in &codes {
                let target = if *c == crate::wire::cmd::DEFAULT_HANDLER_CODE {
                    None
                } else {
                    Some(*c)
                };
                if let Some(pos) = p.codes.iter().position(|x| *x == target) {
                    p.codes.remove(pos);
                }
            }
        }
        if self.host.provides(Upcall::DeregisterEvents) {
            self.host.deregister_events(&codes, Box::new(|_| {}));
        }
        Ok(())
    }
}
