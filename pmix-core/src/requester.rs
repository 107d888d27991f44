//! The requesting side of one connection to a server, shared by the client and tool roles.
//!
//! Why this module exists: every client or tool operation is "pack a request, send it under a
//! fresh tag, wait for the reply with the same tag" (wire document, section 1.2), and the
//! same connection also carries unsolicited messages (tag 0 events, tag 2 IO forwarding).
//! This module owns that bookkeeping on the progress thread: the tag counter with its wrap
//! rule, the table of pending replies, and what happens when the server goes away (every
//! pending request completes with `PMIX_ERR_UNREACH`, never a hang).
//!
//! Completion callbacks run on the progress thread with no lock held.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::progress::{
    ConnHandler, ConnId, DirectSender, Message, Progress, Reactor, on_progress_thread,
};
use crate::wire::Framing;
use crate::{Error, Result};

/// What a request's completion receives: the reply payload, or why there is none.
pub type Reply = Result<Vec<u8>>;

/// A completion run on the progress thread when the reply (or the connection's end) arrives.
pub type ReplyFn = Box<dyn FnOnce(&mut Reactor, Reply) + Send>;

/// Receives unsolicited messages (tags below the dynamic range): events, IOF. The message
/// is borrowed from the connection's input buffer.
pub type UnsolicitedFn = Box<dyn FnMut(&mut Reactor, Message<'_>) + Send>;

/// Runs once when the connection ends.
pub type LostFn = Box<dyn FnOnce(&mut Reactor, Error) + Send>;

/// First tag of the request range; the first request uses `DYNAMIC_BASE + 1`.
pub const DYNAMIC_BASE: u32 = 100;

/// The next request tag after `t`. `u32::MAX` is never used (it is the server's wildcard
/// receive tag): the counter wraps from there back to the base.
pub fn next_tag(t: u32) -> u32 {
    match t.checked_add(1) {
        Some(n) if n != u32::MAX && n > DYNAMIC_BASE => n,
        _ => DYNAMIC_BASE,
    }
}

/// The per-connection state, owned by the progress thread.
struct State {
    conn: Option<ConnId>,
    tag: u32,
    pending: HashMap<u32, ReplyFn>,
    unsolicited: Option<UnsolicitedFn>,
    /// Called once when the connection ends.
    lost: Option<LostFn>,
    /// Builds the bytes of a frame from (tag, payload).
    frame: fn(u32, &[u8]) -> Vec<u8>,
}

/// A handle to a server connection driven by a progress thread. Cheap to clone.
#[derive(Clone)]
pub struct Requester {
    progress: Arc<Progress>,
    state: Arc<parking_lot::Mutex<State>>,
    /// Writes requests from the caller's thread (see [`Requester::request_nb`]).
    direct: Option<Arc<DirectSender>>,
}

impl std::fmt::Debug for Requester {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requester").finish_non_exhaustive()
    }
}

struct Handler {
    state: Arc<parking_lot::Mutex<State>>,
}

impl ConnHandler for Handler {
    fn on_message(&mut self, r: &mut Reactor, _id: ConnId, msg: Message<'_>) {
        if msg.tag >= DYNAMIC_BASE {
            let done = self.state.lock().pending.remove(&msg.tag);
            // A reply nobody waits for (late, after a timeout) is dropped.
            if let Some(done) = done {
                done(r, Ok(msg.payload.to_vec()));
            }
            return;
        }
        let f = self.state.lock().unsolicited.take();
        if let Some(mut f) = f {
            f(r, msg);
            let mut st = self.state.lock();
            if st.unsolicited.is_none() {
                st.unsolicited = Some(f);
            }
        }
    }

    fn on_closed(&mut self, r: &mut Reactor, _id: ConnId, _why: Error) {
        let (pending, lost) = {
            let mut st = self.state.lock();
            st.conn = None;
            (std::mem::take(&mut st.pending), st.lost.take())
        };
        let mut pending: Vec<_> = pending.into_iter().collect();
        pending.sort_by_key(|(t, _)| *t);
        for (_, done) in pending {
            done(r, Err(Error::Unreach));
        }
        if let Some(lost) = lost {
            lost(r, Error::Unreach);
        }
    }
}

impl Requester {
    /// Hands `stream` (connected, handshake done) to `progress` and returns a handle.
    /// `frame` builds a frame's bytes; `framing` splits incoming bytes.
    pub fn start(
        progress: Arc<Progress>,
        stream: impl Into<crate::net::Stream> + Send + 'static,
        framing: Box<dyn Framing>,
        frame: fn(u32, &[u8]) -> Vec<u8>,
    ) -> Result<Requester> {
        let state = Arc::new(parking_lot::Mutex::new(State {
            conn: None,
            tag: DYNAMIC_BASE,
            pending: HashMap::new(),
            unsolicited: None,
            lost: None,
            frame,
        }));
        let st = state.clone();
        let direct = progress.call(Some(Duration::from_secs(30)), move |r, done| {
            let handler = Box::new(Handler { state: st.clone() });
            let res = r.add_connection(stream, framing, handler).map(|id| {
                st.lock().conn = Some(id);
                r.direct_sender(id).ok().map(Arc::new)
            });
            done.complete(res);
        })??;
        Ok(Requester {
            progress,
            state,
            direct,
        })
    }

    /// The progress thread this connection runs on.
    pub fn progress(&self) -> &Arc<Progress> {
        &self.progress
    }

    /// Whether the connection is still up.
    pub fn connected(&self) -> bool {
        self.state.lock().conn.is_some()
    }

    /// Installs the receiver of unsolicited messages (replaces any earlier one).
    pub fn on_unsolicited(&self, f: UnsolicitedFn) {
        self.state.lock().unsolicited = Some(f);
    }

    /// Installs what runs once when the connection ends.
    pub fn on_lost(&self, f: impl FnOnce(&mut Reactor, Error) + Send + 'static) {
        self.state.lock().lost = Some(Box::new(f));
    }

    /// Sends `payload` as a request on the progress thread (call from there: handlers,
    /// tasks). `done` runs with the reply, or `Err(Unreach)` if the connection is gone or
    /// goes before the reply.
    pub fn send_request(&self, r: &mut Reactor, payload: &[u8], done: ReplyFn) {
        let (conn, bytes, tag) = {
            let mut st = self.state.lock();
            let Some(conn) = st.conn else {
                drop(st);
                done(r, Err(Error::Unreach));
                return;
            };
            let tag = next_tag(st.tag);
            st.tag = tag;
            st.pending.insert(tag, done);
            (conn, (st.frame)(tag, payload), tag)
        };
        if r.send(conn, bytes).is_err() {
            let done = self.state.lock().pending.remove(&tag);
            if let Some(done) = done {
                done(r, Err(Error::Unreach));
            }
        }
    }

    /// Sends a message that expects no reply (heartbeats, event deregistration).
    pub fn send_oneway(&self, r: &mut Reactor, tag: u32, payload: &[u8]) -> Result<()> {
        let (conn, bytes) = {
            let st = self.state.lock();
            (st.conn.ok_or(Error::Unreach)?, (st.frame)(tag, payload))
        };
        r.send(conn, bytes)
    }

    /// Non-blocking request from any thread: `done` runs on the progress thread.
    ///
    /// Off the progress thread, when no task posted earlier is still queued (so nothing
    /// this thread asked for before can be overtaken), the request is written from the
    /// calling thread; otherwise it goes through the progress thread.
    pub fn request_nb(&self, payload: Vec<u8>, done: ReplyFn) -> Result<()> {
        if let Some(direct) = &self.direct
            && !on_progress_thread()
            && !self.progress.has_queued_tasks()
        {
            let sent = {
                let mut st = self.state.lock();
                if st.conn.is_some() {
                    let tag = next_tag(st.tag);
                    st.tag = tag;
                    st.pending.insert(tag, done);
                    Ok((tag, (st.frame)(tag, &payload)))
                } else {
                    Err(done)
                }
            };
            return match sent {
                Ok((tag, bytes)) => {
                    if direct.send(&self.progress, bytes).is_err() {
                        // Closing or closed: fail the request on the progress thread, as
                        // the queued path does (unless the close already failed it).
                        let done = self.state.lock().pending.remove(&tag);
                        if let Some(done) = done {
                            return self.progress.post(move |r| done(r, Err(Error::Unreach)));
                        }
                    }
                    Ok(())
                }
                Err(done) => self.progress.post(move |r| done(r, Err(Error::Unreach))),
            };
        }
        let me = self.clone();
        self.progress
            .post(move |r| me.send_request(r, &payload, done))
    }

    /// Blocking request: waits for the reply at most `timeout` (`None`: no limit). Refused
    /// on the progress thread (`WouldBlock`).
    pub fn request(&self, payload: Vec<u8>, timeout: Option<Duration>) -> Reply {
        if on_progress_thread() {
            return Err(Error::WouldBlock);
        }
        // A std channel: its receiver sleeps at once, where crossbeam's spins and yields
        // first, which hands a shared CPU around when many ranks wait at the same time.
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.request_nb(
            payload,
            Box::new(move |_, reply| {
                let _ = tx.try_send(reply);
            }),
        )?;
        match timeout {
            Some(t) => rx.recv_timeout(t).map_err(|e| match e {
                std::sync::mpsc::RecvTimeoutError::Timeout => Error::Timeout,
                std::sync::mpsc::RecvTimeoutError::Disconnected => Error::Unreach,
            })?,
            None => rx.recv().map_err(|_| Error::Unreach)?,
        }
    }

    /// Runs `f` on the progress thread with this requester (for multi-step operations).
    pub fn post(&self, f: impl FnOnce(&mut Reactor, &Requester) + Send + 'static) -> Result<()> {
        let me = self.clone();
        self.progress.post(move |r| f(r, &me))
    }

    /// Closes the connection; pending requests complete with `Unreach`.
    pub fn close(&self) {
        let conn = self.state.lock().conn;
        if let Some(conn) = conn {
            let _ = self.progress.post(move |r| r.close(conn, Error::Unreach));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Frame;

    #[test]
    fn tags_start_at_101_and_wrap_to_100() {
        assert_eq!(next_tag(DYNAMIC_BASE), 101);
        assert_eq!(next_tag(101), 102);
        assert_eq!(next_tag(u32::MAX - 2), u32::MAX - 1);
        assert_eq!(next_tag(u32::MAX - 1), DYNAMIC_BASE);
        assert_eq!(next_tag(DYNAMIC_BASE), 101);
    }

    /// Test framing: tag u32 BE, length u32 BE, payload.
    struct TagLen;
    impl Framing for TagLen {
        fn split(&mut self, b: &[u8]) -> Result<Option<Frame>> {
            if b.len() < 8 {
                return Ok(None);
            }
            let tag = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
            let n = u32::from_be_bytes([b[4], b[5], b[6], b[7]]) as usize;
            Ok((b.len() >= 8 + n).then_some(Frame {
                len: 8 + n,
                tag,
                payload: 8..8 + n,
            }))
        }
    }
    fn frame(tag: u32, p: &[u8]) -> Vec<u8> {
        let mut v = tag.to_be_bytes().to_vec();
        v.extend((p.len() as u32).to_be_bytes());
        v.extend_from_slice(p);
        v
    }

    fn read(s: &mut std::net::TcpStream) -> Option<(u32, Vec<u8>)> {
        use std::io::Read;
        let mut h = [0u8; 8];
        s.read_exact(&mut h).ok()?;
        let mut p = vec![0; u32::from_be_bytes([h[4], h[5], h[6], h[7]]) as usize];
        s.read_exact(&mut p).ok()?;
        Some((u32::from_be_bytes([h[0], h[1], h[2], h[3]]), p))
    }

    #[test]
    fn replies_match_tags_events_pass_and_loss_fails_pending() {
        use std::io::Write;
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (mut srv, _) = l.accept().unwrap();
        let p = Arc::new(Progress::start("test").unwrap());
        let req = Requester::start(p, c, Box::new(TagLen), frame).unwrap();
        let (etx, erx) = crossbeam_channel::unbounded();
        req.on_unsolicited(Box::new(move |_, m| {
            etx.send((m.tag, m.payload.to_vec())).unwrap()
        }));
        // Server: answers the first two requests in reverse order after an event, then
        // reads a third and dies without answering.
        let server = std::thread::spawn(move || {
            let a = read(&mut srv).unwrap();
            let b = read(&mut srv).unwrap();
            srv.write_all(&frame(0, b"event")).unwrap();
            srv.write_all(&frame(b.0, &[b.1.as_slice(), b"!"].concat()))
                .unwrap();
            srv.write_all(&frame(a.0, &[a.1.as_slice(), b"!"].concat()))
                .unwrap();
            let c = read(&mut srv).unwrap();
            (a.0, b.0, c.0)
        });
        let (tx, rx) = crossbeam_channel::unbounded();
        for m in [&b"a"[..], b"b"] {
            let tx = tx.clone();
            req.request_nb(m.to_vec(), Box::new(move |_, r| tx.send(r).unwrap()))
                .unwrap();
        }
        let got: Vec<_> = (0..2).map(|_| rx.recv().unwrap().unwrap()).collect();
        assert_eq!(got, vec![b"b!".to_vec(), b"a!".to_vec()]);
        let ev = erx.recv().unwrap();
        assert_eq!(ev, (0, b"event".to_vec()));
        let r = req.request(b"c".to_vec(), Some(Duration::from_secs(10)));
        assert_eq!(r, Err(Error::Unreach));
        assert_eq!(server.join().unwrap(), (101, 102, 103));
        assert!(!req.connected());
        let r = req.request(b"d".to_vec(), Some(Duration::from_secs(10)));
        assert_eq!(r, Err(Error::Unreach));
    }
}
