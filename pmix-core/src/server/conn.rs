//! Connections: accepting them, the handshake of clients (and the hand-off of tools'
//! to `tools`), the registration of clients by the host, finalize, and what happens when
//! a connection is lost (its collectives fail, its registrations go).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use pmix_sys::*;

use super::collective::CollKey;
use super::{Peer, Shared};
use crate::events::Event;
use crate::host::Upcall;
use crate::net::{self, Stream};
use crate::progress::{ConnHandler, ConnId, Message, Reactor};
use crate::values::{Info, Proc, Value};
use crate::wire::msg::Unpack;
use crate::wire::{Frame, Framing, Hello, handshake};
use crate::{Error, Result};

/// How long a peer may take to send its handshake.
pub(super) const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy)]
pub(super) struct ClientReg {
    pub(super) uid: u32,
    pub(super) gid: u32,
}

pub(super) struct PeerConn {
    pub(super) server: Arc<Shared>,
}

/// Phases of a connection's handshake (`HelloConn`): waiting for the hello, waiting for the
/// host to name a tool, over (answered, refused, timed out or closed).
pub(super) const HELLO: u8 = 0;

pub(super) const HOST: u8 = 1;

pub(super) const DONE: u8 = 2;

/// Splits the handshake off a new connection: the 16-byte header and the body it announces.
pub(super) struct HelloFraming;

impl Framing for HelloFraming {
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>> {
        let Some(h) = buf.first_chunk::<16>() else {
            return Ok(None);
        };
        let n = Hello::body_len(h)?;
        Ok((buf.len() >= 16 + n).then_some(Frame {
            len: 16 + n,
            tag: 0,
            payload: 16..16 + n,
        }))
    }
}

/// A connection whose handshake is not done: its one message is the hello.
pub(super) struct HelloConn {
    pub(super) server: Arc<Shared>,
    /// Who connected, to look up the socket's owner.
    pub(super) peer: net::Peer,
    pub(super) phase: Arc<AtomicU8>,
}

impl ConnHandler for HelloConn {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        if self.phase.load(Ordering::SeqCst) != HELLO {
            // Bytes before the handshake's answer: not the protocol.
            self.phase.store(DONE, Ordering::SeqCst);
            return Shared::refuse(r, id, None);
        }
        self.server
            .handshake(r, id, msg.payload, self.peer, &self.phase);
    }
    fn on_closed(&mut self, r: &mut Reactor, id: ConnId, _why: Error) {
        self.phase.store(DONE, Ordering::SeqCst);
        self.server.handshake_over(r, id);
    }
    /// A tool that sent its handshake and shut down its sending side while the host names
    /// it still gets its answer (`tool_answer` then closes the connection).
    fn on_read_closed(&mut self, _r: &mut Reactor, _id: ConnId) -> bool {
        self.phase.load(Ordering::SeqCst) == HOST
    }
}

impl ConnHandler for PeerConn {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        self.server.dispatch(r, id, msg);
    }
    fn on_closed(&mut self, r: &mut Reactor, id: ConnId, _why: Error) {
        self.server.lost(r, id);
    }
}

impl Shared {
    /// `PMIx_server_register_client`.
    pub fn register_client(&self, proc: &Proc, uid: u32, gid: u32) -> Result<()> {
        let mut st = self.state.lock();
        st.dead.remove(proc);
        st.ended.remove(proc);
        st.clients.insert(proc.clone(), ClientReg { uid, gid });
        Ok(())
    }

    /// `PMIx_server_deregister_client`.
    ///
    /// A client still connected and not finalized is gone without finalizing (the host
    /// deregisters what it reaped): it is dead from now on, not only once the progress
    /// thread has seen its connection close. Otherwise a collective entered in between
    /// would leave it out as ended and complete without it.
    pub fn deregister_client(&self, proc: &Proc) {
        let mut st = self.state.lock();
        st.clients.remove(proc);
        if st.jobs.contains_key(&proc.nspace) {
            st.ended.insert(proc.clone());
            let unfinished = st
                .peers
                .values()
                .any(|p| &p.proc == proc && !p.finalized && !p.kind.is_tool());
            if unfinished {
                st.dead.insert(proc.clone());
            }
        }
    }

    /// A new connection: its handshake is read on the progress thread, like every other
    /// message (a thread per connection made a burst of connections a burst of threads).
    /// A peer that has not completed its handshake within `HANDSHAKE_WAIT` is dropped.
    pub(super) fn accept(self: &Arc<Self>, r: &mut Reactor, stream: Stream) {
        let peer = stream.peer();
        let phase = Arc::new(AtomicU8::new(HELLO));
        let handler = Box::new(HelloConn {
            server: self.clone(),
            peer,
            phase: phase.clone(),
        });
        let Ok(id) = r.add_connection(stream, Box::new(HelloFraming), handler) else {
            return;
        };
        let me = Arc::downgrade(self);
        let t = r.schedule(HANDSHAKE_WAIT, move |r| {
            if let Some(me) = me.upgrade() {
                me.handshake_timers.lock().remove(&id);
            }
            // Still waiting for the hello, or for the host to name a tool.
            match phase.swap(DONE, Ordering::SeqCst) {
                HELLO => Self::refuse(r, id, None),
                HOST => Self::refuse(r, id, Some(PMIX_ERR_TIMEOUT)),
                _ => {}
            }
        });
        self.handshake_timers.lock().insert(id, t);
    }

    /// The handshake of `id` is over (answered, refused, or the connection closed): its
    /// timer goes.
    pub(super) fn handshake_over(&self, r: &mut Reactor, id: ConnId) {
        let t = self.handshake_timers.lock().remove(&id);
        if let Some(t) = t {
            r.cancel(t);
        }
    }

    /// Answers a handshake that failed with `status` (if any) and closes the connection.
    pub(super) fn refuse(r: &mut Reactor, id: ConnId, status: Option<pmix_status_t>) {
        if let Some(s) = status {
            let _ = r.send(id, (s as u32).to_be_bytes().to_vec());
        }
        r.close(id, Error::Unreach);
    }

    pub(super) fn handshake(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        body: &[u8],
        peer: net::Peer,
        phase: &Arc<AtomicU8>,
    ) {
        let Ok(hello) = Hello::parse(body) else {
            return Self::refuse(r, id, None);
        };
        if !matches!(hello.bfrops.as_bytes(), b"v41" | b"v4") {
            return Self::refuse(r, id, None);
        }
        // What the peer claims: its native credential; a tool's stated ids stand in for a
        // tool without one. `psec` "none" claims nothing.
        let claimed = match hello.psec.as_bytes() {
            b"native" => match handshake::parse_native_cred(&hello.cred) {
                Some(ids) => Some(ids),
                None if hello.kind.is_tool() => Some((hello.uid, hello.gid)),
                None => return Self::refuse(r, id, None),
            },
            b"none" => None,
            _ => return Self::refuse(r, id, None),
        };
        // Who the peer is, from the kernel (`security`): a claim that contradicts it is
        // refused, and what the server acts on is never the claim. (Only the fuzz target,
        // whose peers are no sockets, turns this off.)
        let ids = if self.cfg.check_peer_uid {
            match crate::security::verify(&peer, claimed) {
                Ok(ids) => ids,
                Err(e) => return Self::refuse(r, id, Some(e.status())),
            }
        } else {
            let (uid, gid) = claimed.unwrap_or((hello.uid, hello.gid));
            crate::security::PeerIds { uid, gid }
        };
        if hello.kind.is_tool() {
            return self.tool_handshake(r, id, hello, ids, phase);
        }
        let Some(proc) = hello.id.clone() else {
            return Self::refuse(r, id, None);
        };
        let index = {
            let mut st = self.state.lock();
            let Some(reg) = st.clients.get(&proc).copied() else {
                drop(st);
                return Self::refuse(r, id, None);
            };
            if !st.jobs.contains_key(&proc.nspace) {
                drop(st);
                return Self::refuse(r, id, None);
            }
            // A client is the user it was registered as (the host said which), whatever
            // it claims.
            if reg.uid != ids.uid || reg.gid != ids.gid {
                drop(st);
                return Self::refuse(r, id, Some(PMIX_ERR_INVALID_CRED));
            }
            st.next_index += 1;
            st.next_index - 1
        };
        phase.store(DONE, Ordering::SeqCst);
        self.handshake_over(r, id);
        let reply = if hello.kind == handshake::PeerKind::SingletonClient
            && hello.version.as_bytes().starts_with(b"4.")
        {
            // A 4.x singleton reads a tool's reply to flag 9 (a 4.2 server's answer); a 5.0
            // server sends it a client's and the singleton waits for ever. It gets the
            // layout it reads, and is still taken as the client it is (ours reads either).
            handshake::ToolReply {
                status: PMIX_SUCCESS,
                assigned: None,
                server: self.cfg.id.clone(),
                cred_status: PMIX_SUCCESS,
            }
            .encode()
        } else {
            let mut reply = (PMIX_SUCCESS as u32).to_be_bytes().to_vec();
            reply.extend_from_slice(&index.to_be_bytes());
            reply
        };
        if r.send(id, reply).is_err() {
            return;
        }
        self.attach(r, id, proc, &hello, ids);
    }

    pub(super) fn lost(&self, r: &mut Reactor, id: ConnId) {
        let Some(peer) = self.state.lock().peers.remove(&id) else {
            return;
        };
        {
            let mut st = self.state.lock();
            st.get.modex_sent.remove(&id);
            st.get.prefetch_window.remove(&id);
        }
        // Pending gets and output registrations of this connection are dropped; what it
        // asked to have removed is removed, as its own uid could.
        let cleanups = {
            let mut st = self.state.lock();
            st.get.pending.retain(|g| g.conn != id);
            st.iof.pulls.retain(|p| p.conn != id);
            let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut st.cleanups)
                .into_iter()
                .partition(|(c, _)| *c == id);
            st.cleanups = others;
            let uid = st.clients.get(&peer.proc).map(|c| c.uid);
            (mine, uid)
        };
        if let (mine, Some(uid)) = cleanups {
            for (_, c) in mine {
                c.run(uid);
            }
        }
        if peer.kind.is_tool() {
            // Tools take part in no collective of a job: nothing to record. The server's
            // own handlers learn that the tool left, finalized or not, as OpenPMIx 4.2 and
            // 5.0 tell them (PRRTE waits for this event before it ends a tool's job, and
            // without it prterun never exits after a tool attached).
            self.host.tool_gone(&peer.proc);
            self.events
                .deliver(lost_connection(&peer.proc, PMIX_RANGE_PROC_LOCAL), None);
            return;
        }
        if peer.finalized {
            // (As below: a namespace deregistered meanwhile keeps no record; it used to keep
            // one per job in a persistent launcher, which deregisters before the close.)
            let mut st = self.state.lock();
            if st.jobs.contains_key(&peer.proc.nspace) {
                st.ended.insert(peer.proc.clone());
            }
            drop(st);
            // Gets waiting for what it would have committed are answered now.
            self.retry_gets(r);
            return;
        }
        // A client that died: fail every collective that waits for it, and tell the host
        // and the server's own handlers.
        let keys: Vec<CollKey> = {
            let mut st = self.state.lock();
            // (A process of a namespace deregistered meanwhile is nobody's concern now.)
            if st.jobs.contains_key(&peer.proc.nspace) {
                st.dead.insert(peer.proc.clone());
            }
            st.coll
                .pending
                .iter()
                .filter(|(_, c)| {
                    c.expected.contains(&peer.proc) || c.arrived.iter().any(|a| a.0 == id)
                })
                .map(|(k, _)| k.clone())
                .collect()
        };
        for k in keys {
            self.fail_collective(r, &k, PMIX_ERR_PARTIAL_SUCCESS);
        }
        self.retry_gets(r);
        let ev = lost_connection(&peer.proc, PMIX_RANGE_RM);
        if self.host.provides(Upcall::NotifyEvent) {
            self.host
                .notify_event(ev.code, &ev.source, ev.range, &ev.info, Box::new(|_| {}));
        }
        self.events.deliver(ev, None);
    }

    /// The command FINALIZE: `PMIx_Finalize`, `PMIx_tool_disconnect`.
    pub(super) fn on_finalize(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        _u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        if let Some(p) = self.state.lock().peers.get_mut(&id) {
            p.finalized = true;
        }
        // The reply waits for the host, as the reference's does: a client exits as
        // soon as it is answered, and a host such as mpirun must have recorded the
        // finalize before it sees the exit (else: "exiting improperly").
        if !peer.kind.is_tool() && self.host.provides(Upcall::ClientFinalized) {
            let done = self.later(move |_, r, _res: Result<()>| {
                Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
            });
            self.host.client_finalized(me, done);
        } else {
            Self::reply_status(r, id, tag, mode, PMIX_SUCCESS);
        }
        Ok(())
    }
}

/// `PMIX_ERR_LOST_CONNECTION` from `proc`, which is also the affected process, in `range`.
fn lost_connection(proc: &Proc, range: pmix_data_range_t) -> Event {
    Event {
        code: PMIX_ERR_LOST_CONNECTION,
        source: proc.clone(),
        range,
        info: vec![Info::new(
            PMIX_EVENT_AFFECTED_PROC.to_bytes(),
            Value::Proc(proc.clone()),
        )],
    }
}
