//! The progress thread: one per process, owning every socket, timer and piece of protocol
//! state.
//!
//! Why this shape: the reference runs a libevent loop and lets API threads "thread-shift"
//! into it; we do the same with a mio [`Poll`], a crossbeam channel of tasks and a
//! [`Waker`]. API threads never touch a socket. They post a [`Task`] (a closure that runs on
//! the progress thread with `&mut Reactor`), and either return at once (`_nb` calls) or wait
//! for a one-shot completion ([`Progress::call`]). A blocking call made on the progress thread
//! itself (from inside a user callback) would wait for itself forever, so it is refused with
//! [`Error::WouldBlock`] instead.
//!
//! Connections are byte streams framed by a [`Framing`] (the wire module's 16-byte header);
//! each complete message goes to the connection's [`ConnHandler`]. Handlers run on the
//! progress thread with no lock held, so they may call user code.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token, Waker};
use parking_lot::Mutex;

use crate::net::{Listener as ListenSock, Stream};
use crate::wire::Framing;
use crate::{Error, Result};

/// Work posted to the progress thread.
pub type Task = Box<dyn FnOnce(&mut Reactor) + Send>;

/// Identifies a connection owned by the reactor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(usize);

/// Identifies a pending timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TimerId(u64);

/// One framed message, borrowed from the connection's input buffer for the duration of
/// [`ConnHandler::on_message`]; a handler that keeps the payload copies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message<'a> {
    /// The tag of the header.
    pub tag: u32,
    /// The payload.
    pub payload: &'a [u8],
}

/// Bytes shared between the queues of several connections (or with their owner), such as
/// forwarded output sent to more than one tool. Dropped once every queue has written them.
pub type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// One piece of a connection's output queue.
enum Out {
    Owned(Vec<u8>),
    Shared(SharedBytes),
}

impl Out {
    fn bytes(&self) -> &[u8] {
        match self {
            Out::Owned(v) => v,
            Out::Shared(s) => (**s).as_ref(),
        }
    }
}

/// Receives what happens on one connection. Runs on the progress thread.
pub trait ConnHandler: Send {
    /// A complete message arrived.
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>);
    /// The connection is gone (peer closed, I/O error, corrupt framing, or `Reactor::close`).
    /// Called exactly once; the connection no longer exists when it runs.
    fn on_closed(&mut self, r: &mut Reactor, id: ConnId, why: Error);
    /// The peer shut down its sending side (end of file), after every complete message it
    /// sent was delivered. `true` keeps the connection open for writing (a reply the peer
    /// still waits for; `Reactor::read_closed` then says so and the handler closes it when
    /// done); `false` (the default) closes it now.
    fn on_read_closed(&mut self, _r: &mut Reactor, _id: ConnId) -> bool {
        false
    }
}

/// Receives connections accepted on a listener.
pub type AcceptFn = Box<dyn FnMut(&mut Reactor, Stream) + Send>;

struct Conn {
    /// Non-blocking; registered with the poll by its descriptor.
    stream: Stream,
    framing: Box<dyn Framing>,
    handler: Option<Box<dyn ConnHandler>>,
    /// Bytes read but not yet delivered (the start of a message), with the buffer they are
    /// in; empty (and without a buffer) between messages.
    inbuf: InBuf,
    /// Output not yet written, shared with the connection's [`DirectSender`]s (whose
    /// threads write through it when nothing is queued).
    out: Arc<Mutex<OutQueue>>,
    writable_registered: bool,
    /// Close once the output queue has drained.
    closing: bool,
    /// Bytes written so far (to tell a slow peer from a stuck one).
    written: u64,
    /// A stall check (`unshare_if_stuck`) is scheduled.
    stall_check: bool,
    /// Framing and handler that take over once the running handler returns (`rebind`).
    rebind: Option<(Box<dyn Framing>, Box<dyn ConnHandler>)>,
    /// The peer has shut down its sending side and the handler kept the connection.
    read_closed: bool,
}

/// The output side of a connection. Every write to the socket happens with this lock held,
/// by the progress thread or by a [`DirectSender`], so frames never interleave.
#[derive(Default)]
struct OutQueue {
    pieces: VecDeque<Out>,
    /// Bytes of the front piece already written.
    pos: usize,
    /// The connection is closing or gone: direct senders must not write any more.
    closed: bool,
}

struct Listener {
    sock: ListenSock,
    accept: Option<AcceptFn>,
}

enum Source {
    Conn,
    Listener,
}

type TimerFn = Box<dyn FnOnce(&mut Reactor) + Send>;

/// The progress thread's state. Only reachable from the progress thread (tasks and
/// handlers receive `&mut Reactor`).
pub struct Reactor {
    poll: Poll,
    conns: HashMap<Token, Conn>,
    listeners: HashMap<Token, Listener>,
    next_token: usize,
    timers: BTreeMap<(Instant, u64), TimerFn>,
    timer_index: HashMap<u64, Instant>,
    next_timer: u64,
    stop: bool,
    /// Closures run after the current event, outside any handler borrow.
    deferred: Vec<Task>,
    /// The buffer `readable` reads into when the connection holds no partial message,
    /// kept between events.
    read_buf: InBuf,
}

const WAKER: Token = Token(0);
/// How long shared bytes may wait in the output queue of a peer that reads nothing before
/// they are copied (see `Reactor::send_shared`).
const STALL_WAIT: Duration = Duration::from_millis(50);
/// Pieces of the output queue written by one gathering write.
const MAX_IOV: usize = 64;
/// Size of the read buffer: a read takes whatever fits (a readiness event reads until
/// WouldBlock or EOF, delivering the complete messages after each read).
const READ_CHUNK: usize = 256 * 1024;
/// Send and receive buffer sizes asked for each connection (the kernel doubles them for its
/// bookkeeping, and caps them at net.core.wmem_max / rmem_max).
const SOCKET_BUFFER: usize = 4 * 1024 * 1024;
/// A read buffer grown beyond this (for a large message, such as a large job's data) is
/// freed once it is empty instead of kept for the next event.
const READ_KEEP: usize = 1024 * 1024;

/// A read buffer: `buf[start..end]` holds bytes read and not yet delivered. `buf` is
/// initialised to its full length once (reads go straight into it), so reusing it costs
/// neither allocation nor zeroing.
#[derive(Default)]
struct InBuf {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl InBuf {
    fn pending(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Makes room for at least `want` more bytes after `end` (and at least a read's worth),
    /// moving the pending bytes to the front or growing the buffer.
    fn reserve(&mut self, want: usize) {
        if self.is_empty() {
            self.start = 0;
            self.end = 0;
        }
        let want = want.max(READ_CHUNK / 4);
        if self.buf.len() - self.end >= want {
            return;
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < want {
            let len = (self.end + want).max(READ_CHUNK).max(self.buf.len() * 2);
            if self.buf.is_empty() {
                // Zeroed by the allocator: pages are touched only when read into.
                self.buf = vec![0; len];
            } else {
                self.buf.resize(len, 0);
            }
        }
    }
}

thread_local! {
    static ON_PROGRESS_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread is a progress thread (inside a handler or user callback).
pub fn on_progress_thread() -> bool {
    ON_PROGRESS_THREAD.with(Cell::get)
}

impl Reactor {
    fn new() -> io::Result<Reactor> {
        Ok(Reactor {
            poll: Poll::new()?,
            conns: HashMap::new(),
            listeners: HashMap::new(),
            next_token: 1,
            timers: BTreeMap::new(),
            timer_index: HashMap::new(),
            next_timer: 1,
            stop: false,
            deferred: Vec::new(),
            read_buf: InBuf::default(),
        })
    }

    fn token(&mut self) -> Token {
        let t = Token(self.next_token);
        self.next_token += 1;
        t
    }

    /// Takes over a connected stream (made non-blocking here) and delivers its messages to
    /// `handler`.
    pub fn add_connection(
        &mut self,
        stream: impl Into<Stream>,
        framing: Box<dyn Framing>,
        handler: Box<dyn ConnHandler>,
    ) -> Result<ConnId> {
        let stream = stream.into();
        stream.set_nonblocking(true).map_err(|_| Error::Unreach)?;
        stream.set_nodelay();
        // Larger socket buffers than the kernel starts with: a stream of forwarded output then
        // takes fewer wakeups on either side (measured: about 1.3 times the throughput host
        // to tool). Capped by the system's net.core.[rw]mem_max; failures are harmless.
        let _ = rustix::net::sockopt::set_socket_send_buffer_size(&stream, SOCKET_BUFFER);
        let _ = rustix::net::sockopt::set_socket_recv_buffer_size(&stream, SOCKET_BUFFER);
        let token = self.token();
        // Sockets of either kind are registered by their descriptor.
        let fd = stream.as_raw_fd();
        self.poll
            .registry()
            .register(&mut SourceFd(&fd), token, Interest::READABLE)
            .map_err(|_| Error::Unreach)?;
        self.conns.insert(
            token,
            Conn {
                stream,
                framing,
                handler: Some(handler),
                inbuf: InBuf::default(),
                out: Arc::new(Mutex::new(OutQueue::default())),
                writable_registered: false,
                closing: false,
                written: 0,
                stall_check: false,
                rebind: None,
                read_closed: false,
            },
        );
        Ok(ConnId(token.0))
    }

    /// Replaces the framing and the handler of `id` (a connection that changes protocol,
    /// such as one whose handshake is done). Called from the connection's own handler, the
    /// new pair takes over when that handler returns, for the rest of the bytes already
    /// read too.
    pub fn rebind(
        &mut self,
        id: ConnId,
        framing: Box<dyn Framing>,
        handler: Box<dyn ConnHandler>,
    ) -> Result<()> {
        let c = self.conns.get_mut(&Token(id.0)).ok_or(Error::Unreach)?;
        if c.handler.is_some() {
            c.framing = framing;
            c.handler = Some(handler);
        } else {
            c.rebind = Some((framing, handler));
        }
        Ok(())
    }

    /// Accepts connections on `listener` (made non-blocking here) and hands each one, as a
    /// blocking std stream, to `accept`.
    pub fn add_listener(&mut self, sock: impl Into<ListenSock>, accept: AcceptFn) -> Result<()> {
        let sock = sock.into();
        sock.set_nonblocking(true).map_err(|_| Error::Unreach)?;
        let token = self.token();
        let fd = sock.as_raw_fd();
        self.poll
            .registry()
            .register(&mut SourceFd(&fd), token, Interest::READABLE)
            .map_err(|_| Error::Unreach)?;
        self.listeners.insert(
            token,
            Listener {
                sock,
                accept: Some(accept),
            },
        );
        Ok(())
    }

    /// Whether the peer of `id` has shut down its sending side (and the handler kept the
    /// connection to answer it).
    pub fn read_closed(&self, id: ConnId) -> bool {
        self.conns.get(&Token(id.0)).is_some_and(|c| c.read_closed)
    }

    /// Whether `id` is still open.
    pub fn is_open(&self, id: ConnId) -> bool {
        self.conns.get(&Token(id.0)).is_some_and(|c| !c.closing)
    }

    /// Queues `bytes` (a complete frame) for sending on `id`. Order is preserved.
    pub fn send(&mut self, id: ConnId, bytes: Vec<u8>) -> Result<()> {
        self.queue(id, Out::Owned(bytes), None)
    }

    /// Queues a frame made of `head` followed by `body` (bytes shared with other queues or
    /// with their owner, written from where they are, without a copy). `body` is dropped
    /// once written, when the connection ends, or when the peer has read nothing for
    /// `STALL_WAIT` while it waits (what is left of it is then copied into the queue).
    pub fn send_shared(&mut self, id: ConnId, head: Vec<u8>, body: SharedBytes) -> Result<()> {
        self.queue(id, Out::Owned(head), Some(Out::Shared(body)))
    }

    fn queue(&mut self, id: ConnId, first: Out, second: Option<Out>) -> Result<()> {
        let token = Token(id.0);
        let Some(c) = self.conns.get_mut(&token) else {
            return Err(Error::Unreach);
        };
        if c.closing {
            return Err(Error::Unreach);
        }
        {
            let mut q = c.out.lock();
            q.pieces.push_back(first);
            if let Some(s) = second {
                q.pieces.push_back(s);
            }
        }
        self.flush(token);
        Ok(())
    }

    /// A handle through which another thread may write frames on `id` itself, without a
    /// trip through the progress thread (see [`DirectSender`]).
    pub fn direct_sender(&mut self, id: ConnId) -> Result<DirectSender> {
        let c = self.conns.get(&Token(id.0)).ok_or(Error::Unreach)?;
        if c.closing {
            return Err(Error::Unreach);
        }
        let dup = c.stream.try_clone().map_err(|_| Error::NoMem)?;
        Ok(DirectSender {
            stream: dup,
            out: c.out.clone(),
            token: token_of(id),
        })
    }

    /// Closes `id` after its queued output has been written; the handler's `on_closed`
    /// runs with `why`.
    pub fn close(&mut self, id: ConnId, why: Error) {
        let token = Token(id.0);
        if let Some(c) = self.conns.get_mut(&token) {
            c.closing = true;
            let empty = {
                let mut q = c.out.lock();
                q.closed = true;
                q.pieces.is_empty()
            };
            if empty {
                self.drop_conn(token, why);
            } else {
                self.flush(token);
                // If the flush could not finish, the rest goes when writable; a peer that
                // never reads keeps it, which is bounded by what was queued.
            }
        }
    }

    /// Runs `f` after `delay` on the progress thread.
    pub fn schedule(
        &mut self,
        delay: Duration,
        f: impl FnOnce(&mut Reactor) + Send + 'static,
    ) -> TimerId {
        let id = self.next_timer;
        self.next_timer += 1;
        let at = Instant::now() + delay;
        self.timers.insert((at, id), Box::new(f));
        self.timer_index.insert(id, at);
        TimerId(id)
    }

    /// Timers scheduled and not yet run or cancelled (a diagnostic).
    pub fn pending_timers(&self) -> usize {
        self.timer_index.len()
    }

    /// Cancels a timer; true if it had not fired.
    pub fn cancel(&mut self, t: TimerId) -> bool {
        match self.forget_timer(t.0) {
            Some(at) => self.timers.remove(&(at, t.0)).is_some(),
            None => false,
        }
    }

    /// Removes a timer from the index; the index gives its memory back once no timer is
    /// left (a burst of connections, each with a handshake timer, grew it for good).
    fn forget_timer(&mut self, id: u64) -> Option<Instant> {
        let at = self.timer_index.remove(&id);
        if self.timer_index.is_empty() && self.timer_index.capacity() > 64 {
            self.timer_index.shrink_to_fit();
        }
        at
    }

    /// Runs `f` once the current handler has returned (on the progress thread).
    pub fn defer(&mut self, f: impl FnOnce(&mut Reactor) + Send + 'static) {
        self.deferred.push(Box::new(f));
    }

    /// Ends the loop after the current iteration; open connections are closed, their
    /// handlers told.
    pub fn stop(&mut self) {
        self.stop = true;
    }

    fn flush(&mut self, token: Token) {
        let mut failed = None;
        let mut stalled = None;
        if let Some(c) = self.conns.get_mut(&token) {
            let mut q = c.out.lock();
            let q = &mut *q;
            loop {
                // Empty pieces are done at once (a write of nothing would read as a close).
                while q.pos == 0 && q.pieces.front().is_some_and(|o| o.bytes().is_empty()) {
                    q.pieces.pop_front();
                }
                if q.pieces.is_empty() {
                    break;
                }
                // One gathering write of the queued pieces (a frame's header and its shared
                // payload go out together, from where they are).
                let mut slices = [io::IoSlice::new(&[]); MAX_IOV];
                let mut n_slices = 0;
                for (i, o) in q.pieces.iter().take(MAX_IOV).enumerate() {
                    let b = o.bytes();
                    slices[i] = io::IoSlice::new(if i == 0 { &b[q.pos..] } else { b });
                    n_slices = i + 1;
                }
                match send_vectored(&c.stream, &slices[..n_slices]) {
                    Ok(0) => {
                        failed = Some(Error::Unreach);
                        break;
                    }
                    Ok(mut n) => {
                        c.written += n as u64;
                        while n > 0 {
                            let Some(front) = q.pieces.front() else { break };
                            let left = front.bytes().len() - q.pos;
                            if n < left {
                                q.pos += n;
                                break;
                            }
                            n -= left;
                            q.pos = 0;
                            q.pieces.pop_front();
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        // Shared bytes wait for the peer; if it writes nothing for a while,
                        // they are copied (`unshare_if_stuck`).
                        if !c.stall_check && q.pieces.iter().any(|o| matches!(o, Out::Shared(_))) {
                            c.stall_check = true;
                            stalled = Some(c.written);
                        }
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => {
                        failed = Some(Error::Unreach);
                        break;
                    }
                }
            }
            let drained = q.pieces.is_empty();
            if failed.is_some() {
                q.closed = true;
            }
            if failed.is_none() {
                let want_write = !drained;
                if want_write != c.writable_registered {
                    let interest = if want_write {
                        Interest::READABLE | Interest::WRITABLE
                    } else {
                        Interest::READABLE
                    };
                    if self
                        .poll
                        .registry()
                        .reregister(&mut SourceFd(&c.stream.as_raw_fd()), token, interest)
                        .is_err()
                    {
                        failed = Some(Error::Unreach);
                    } else {
                        c.writable_registered = want_write;
                    }
                }
                if c.closing && drained {
                    failed = Some(Error::Unreach);
                }
            }
        }
        if let Some(why) = failed {
            self.drop_conn(token, why);
        } else if let Some(seen) = stalled {
            self.schedule(STALL_WAIT, move |r| r.unshare_if_stuck(token, seen));
        }
    }

    /// A stall check of `token`, `STALL_WAIT` after its output found the socket full with
    /// `seen` bytes written: if nothing was written since, the shared bytes still queued
    /// are copied, so that their owners get them back now instead of whenever the peer
    /// reads again (a tool that stops reading must not hold a host's buffers); otherwise
    /// the peer is reading and the check is made again later.
    fn unshare_if_stuck(&mut self, token: Token, seen: u64) {
        let Some(c) = self.conns.get_mut(&token) else {
            return;
        };
        c.stall_check = false;
        let out = c.out.clone();
        let mut q = out.lock();
        let q = &mut *q;
        if !q.pieces.iter().any(|o| matches!(o, Out::Shared(_))) {
            return;
        }
        if c.written != seen {
            c.stall_check = true;
            let now = c.written;
            self.schedule(STALL_WAIT, move |r| r.unshare_if_stuck(token, now));
            return;
        }
        let pos = q.pos;
        for (i, o) in q.pieces.iter_mut().enumerate() {
            if let Out::Shared(b) = o {
                let from = if i == 0 { pos } else { 0 };
                *o = Out::Owned((**b).as_ref()[from..].to_vec());
                if i == 0 {
                    q.pos = 0;
                }
            }
        }
    }

    fn drop_conn(&mut self, token: Token, why: Error) {
        if let Some(mut c) = self.conns.remove(&token) {
            c.out.lock().closed = true;
            let fd = c.stream.as_raw_fd();
            let _ = self.poll.registry().deregister(&mut SourceFd(&fd));
            let _ = c.stream.shutdown();
            if let Some(mut h) = c.handler.take() {
                h.on_closed(self, ConnId(token.0), why);
            }
        }
    }

    fn readable(&mut self, token: Token) {
        // The connection's partial message and its buffer if it holds one, else the
        // reactor's buffer: no allocation or zeroing per event, and messages are delivered
        // from where they were read (the handler borrows them).
        let mut buf = match self.conns.get_mut(&token) {
            Some(c) if !c.inbuf.is_empty() => std::mem::take(&mut c.inbuf),
            Some(_) => std::mem::take(&mut self.read_buf),
            None => return,
        };
        let mut closed = None;
        // Bytes the message at the front of the buffer still needs, when known.
        let mut need = 0;
        let mut eof = false;
        'reading: while let Some(c) = self.conns.get_mut(&token) {
            buf.reserve(need);
            match (&c.stream).read(&mut buf.buf[buf.end..]) {
                Ok(0) => {
                    closed = Some(Error::Unreach);
                    eof = true;
                }
                // Read until WouldBlock or EOF, even after a short read: mio's readiness is
                // edge-triggered, so an EOF that arrived with the last bytes (a peer that
                // writes a partial frame and closes) raises no further event, and the
                // connection would never be seen to close.
                Ok(n) => buf.end += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => closed = Some(Error::Unreach),
            }
            // Deliver every complete message, even when the peer has closed after sending
            // them.
            loop {
                let Some(c) = self.conns.get_mut(&token) else {
                    break 'reading;
                };
                let frame = match c.framing.split(buf.pending()) {
                    Ok(Some(f)) => f,
                    Ok(None) => {
                        // Room for the rest of the message, but not on a header's word
                        // alone beyond READ_KEEP (the buffer doubles as the bytes come).
                        need = c
                            .framing
                            .needed(buf.pending())
                            .saturating_sub(buf.pending().len())
                            .min(READ_KEEP);
                        break;
                    }
                    Err(e) => {
                        closed = Some(e);
                        break 'reading;
                    }
                };
                let at = buf.start;
                buf.start += frame.len;
                let Some(mut h) = c.handler.take() else {
                    break 'reading;
                };
                let msg = Message {
                    tag: frame.tag,
                    payload: buf
                        .buf
                        .get(at + frame.payload.start..at + frame.payload.end)
                        .unwrap_or(&[]),
                };
                h.on_message(self, ConnId(token.0), msg);
                match self.conns.get_mut(&token) {
                    Some(c) => match c.rebind.take() {
                        Some((framing, next)) => {
                            c.framing = framing;
                            c.handler = Some(next);
                        }
                        None => c.handler = Some(h),
                    },
                    // The handler closed its own connection: drop_conn found no
                    // handler to tell (it was taken out), so tell it here.
                    None => h.on_closed(self, ConnId(token.0), Error::Unreach),
                }
                self.run_deferred();
            }
            if closed.is_some() {
                break;
            }
        }
        if buf.is_empty() {
            buf.start = 0;
            buf.end = 0;
            // Keep one buffer for the next event (the larger of two), unless a large
            // message grew it.
            if buf.buf.len() <= READ_KEEP && buf.buf.len() > self.read_buf.buf.len() {
                self.read_buf = buf;
            }
        } else if let Some(c) = self.conns.get_mut(&token) {
            c.inbuf = buf;
        }
        if let Some(why) = closed {
            if eof && self.keep_half_closed(token) {
                return;
            }
            self.drop_conn(token, why);
        }
    }

    /// The peer of `token` sent end of file: whether its handler keeps the connection for
    /// writing (asked once; later readiness events of a kept connection keep it).
    fn keep_half_closed(&mut self, token: Token) -> bool {
        let Some(c) = self.conns.get_mut(&token) else {
            return true;
        };
        if c.read_closed {
            return true;
        }
        let Some(mut h) = c.handler.take() else {
            return false;
        };
        let keep = h.on_read_closed(self, ConnId(token.0));
        match self.conns.get_mut(&token) {
            Some(c) => {
                match c.rebind.take() {
                    Some((framing, next)) => {
                        c.framing = framing;
                        c.handler = Some(next);
                    }
                    None => c.handler = Some(h),
                }
                c.read_closed = keep;
            }
            None => {
                h.on_closed(self, ConnId(token.0), Error::Unreach);
                return true;
            }
        }
        self.run_deferred();
        keep && self.conns.contains_key(&token)
    }

    fn accept(&mut self, token: Token) {
        loop {
            let Some(l) = self.listeners.get_mut(&token) else {
                return;
            };
            match l.sock.accept() {
                // A blocking stream, which the acceptor may read itself or hand to
                // `add_connection` (the server reads its handshakes here, non-blocking).
                Ok(s) => {
                    let Some(mut f) = l.accept.take() else {
                        return;
                    };
                    f(self, s);
                    if let Some(l) = self.listeners.get_mut(&token) {
                        l.accept = Some(f);
                    }
                    self.run_deferred();
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // EMFILE and friends: try again on the next readiness event.
                Err(_) => return,
            }
        }
    }

    fn run_deferred(&mut self) {
        while !self.deferred.is_empty() {
            let d = std::mem::take(&mut self.deferred);
            for f in d {
                f(self);
            }
        }
    }

    fn run_timers(&mut self) -> Option<Duration> {
        loop {
            let now = Instant::now();
            let (&(at, id), _) = self.timers.iter().next()?;
            if at > now {
                return Some(at - now);
            }
            let f = self.timers.remove(&(at, id)).expect("present");
            self.forget_timer(id);
            f(self);
            self.run_deferred();
        }
    }
}

/// A gathering write that never raises SIGPIPE (`sendmsg` with `MSG_NOSIGNAL`; `writev`
/// would kill a process that does not ignore the signal when the peer has gone, and the
/// library installs no handler). `net::Stream`'s `write` sends that way too.
fn send_vectored(fd: impl std::os::fd::AsFd, iov: &[io::IoSlice<'_>]) -> io::Result<usize> {
    let mut control = rustix::net::SendAncillaryBuffer::default();
    Ok(rustix::net::sendmsg(
        fd,
        iov,
        &mut control,
        rustix::net::SendFlags::NOSIGNAL,
    )?)
}

fn token_of(id: ConnId) -> Token {
    Token(id.0)
}

/// Writes complete frames on one connection from any thread, in order with what the
/// progress thread writes on it.
///
/// Why: a blocking request used to be posted to the progress thread, which then wrote it,
/// a wake-up and two context switches per request before the server saw a byte. A caller
/// holding a `DirectSender` writes the frame itself when nothing is queued before it (the
/// common case); only when the socket cannot take the whole frame does the rest go to the
/// connection's queue, and the progress thread is asked to finish it.
pub struct DirectSender {
    /// A duplicate of the connection's descriptor (the progress thread shuts the socket
    /// down when it drops the connection, so this one never keeps the connection alive).
    stream: Stream,
    out: Arc<Mutex<OutQueue>>,
    token: Token,
}

impl std::fmt::Debug for DirectSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirectSender").finish_non_exhaustive()
    }
}

impl DirectSender {
    /// Sends `bytes` (a complete frame). Written here at once when nothing is queued and the
    /// socket takes it; otherwise queued behind the rest and flushed by `progress`.
    ///
    /// # Errors
    /// `Unreach` when the connection is closing or gone; `Init` when the progress thread
    /// has stopped.
    pub fn send(&self, progress: &Progress, bytes: Vec<u8>) -> Result<()> {
        let mut q = self.out.lock();
        if q.closed {
            return Err(Error::Unreach);
        }
        if q.pieces.is_empty() {
            let mut pos = 0;
            while pos < bytes.len() {
                match (&self.stream).write(&bytes[pos..]) {
                    Ok(0) => break,
                    Ok(n) => pos += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    // WouldBlock, or an error the progress thread will meet and act on
                    // (it drops the connection, and the waiting requests fail).
                    Err(_) => break,
                }
            }
            if pos == bytes.len() {
                return Ok(());
            }
            q.pos = pos;
        }
        q.pieces.push_back(Out::Owned(bytes));
        drop(q);
        let token = self.token;
        progress.post(move |r| r.flush(token))
    }
}

/// The polling window of a server's progress thread, in µs (see [`run`]).
pub const SERVER_POLL_US: u64 = 100;
/// The polling window of a client's or tool's progress thread, in µs (see [`run`]).
pub const CLIENT_POLL_US: u64 = 50;

/// The polling window of a progress thread: `PMIX_PROGRESS_POLL_US` (µs; 0 turns polling
/// off) when set to a number, else `default_us`. At most one second.
pub fn poll_window(default_us: u64) -> Duration {
    let us = std::env::var("PMIX_PROGRESS_POLL_US")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(default_us);
    Duration::from_micros(us.min(1_000_000))
}

/// A handle to the progress thread. Dropping the last handle stops the thread and joins it.
pub struct Progress {
    tx: Sender<Task>,
    waker: Arc<Waker>,
    /// Tasks posted and not yet finished (see [`Progress::has_queued_tasks`]).
    queued: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress").finish_non_exhaustive()
    }
}

impl Progress {
    /// Starts a progress thread named `name`.
    pub fn start(name: &str) -> Result<Progress> {
        Progress::start_polling(name, Duration::ZERO)
    }

    /// Starts a progress thread named `name` that, after handling anything, keeps polling
    /// without sleeping for up to `window` before it sleeps (yielding the CPU between
    /// polls to any other thread that wants it). See [`run`] for why.
    pub fn start_polling(name: &str, window: Duration) -> Result<Progress> {
        let reactor = Reactor::new().map_err(|_| Error::NoMem)?;
        let waker = Arc::new(Waker::new(reactor.poll.registry(), WAKER).map_err(|_| Error::NoMem)?);
        let (tx, rx) = crossbeam_channel::unbounded::<Task>();
        let queued = Arc::new(AtomicUsize::new(0));
        let q2 = queued.clone();
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || run(reactor, rx, &q2, window))
            .map_err(|_| Error::NoMem)?;
        Ok(Progress {
            tx,
            waker,
            queued,
            thread: Some(thread),
        })
    }

    /// Posts `f` to run on the progress thread and returns at once.
    pub fn post(&self, f: impl FnOnce(&mut Reactor) + Send + 'static) -> Result<()> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        if self.tx.send(Box::new(f)).is_err() {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(Error::Init);
        }
        self.waker.wake().map_err(|_| Error::Init)
    }

    /// Whether a task posted earlier has not finished yet. A thread that finds none may
    /// write on a connection directly ([`DirectSender`]) without overtaking anything it
    /// posted before (its own posts finished before this returned false).
    pub fn has_queued_tasks(&self) -> bool {
        self.queued.load(Ordering::SeqCst) != 0
    }

    /// Runs `f` on the progress thread and waits until it (or something it started) calls
    /// the [`Completion`] it is given, at most `timeout` (`None`: no limit).
    ///
    /// On the progress thread itself this returns `Err(Error::WouldBlock)` without running
    /// `f`: waiting there would wait forever.
    pub fn call<R: Send + 'static>(
        &self,
        timeout: Option<Duration>,
        f: impl FnOnce(&mut Reactor, Completion<R>) + Send + 'static,
    ) -> Result<R> {
        if on_progress_thread() {
            return Err(Error::WouldBlock);
        }
        // A std channel: its receiver sleeps at once, where crossbeam's spins and yields
        // first, which hands a shared CPU around when many ranks wait at the same time.
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.post(move |r| f(r, Completion(tx)))?;
        match timeout {
            Some(t) => rx.recv_timeout(t).map_err(|e| match e {
                std::sync::mpsc::RecvTimeoutError::Timeout => Error::Timeout,
                std::sync::mpsc::RecvTimeoutError::Disconnected => Error::Unreach,
            }),
            None => rx.recv().map_err(|_| Error::Unreach),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        let _ = self.post(Reactor::stop);
        if let Some(t) = self.thread.take() {
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }
}

/// Completes a [`Progress::call`]. Dropping it without completing makes the caller's wait
/// end with `PMIX_ERR_UNREACH`.
pub struct Completion<R>(std::sync::mpsc::SyncSender<R>);

impl<R> std::fmt::Debug for Completion<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Completion")
    }
}

impl<R> Completion<R> {
    /// Hands `value` to the waiting caller (ignored if it gave up waiting).
    pub fn complete(self, value: R) {
        let _ = self.0.try_send(value);
    }
}

/// The loop of the progress thread.
///
/// `window`: how long to keep polling after the last event before sleeping in the kernel.
/// Waking a sleeping thread costs more than its work here: in the KVM guest of the
/// benchmarks, about 17 µs per wake-up of an idle CPU, against about 5 µs for a whole
/// loopback round trip between two threads that poll (`bench/notes.md`, "Fences"). A
/// server that polls for a moment after each message answers the next request of a
/// client in a collective, or the next Get after a fence, without that wake-up. Between
/// polls it yields, so any other thread that wants the CPU gets it.
fn run(mut r: Reactor, rx: Receiver<Task>, queued: &AtomicUsize, window: Duration) {
    ON_PROGRESS_THREAD.with(|c| c.set(true));
    let mut events = Events::with_capacity(256);
    let mut last_busy = Instant::now();
    while !r.stop {
        let timeout = r.run_timers();
        if r.stop {
            break;
        }
        let polling = !window.is_zero() && last_busy.elapsed() < window;
        let timeout = if polling {
            Some(Duration::ZERO)
        } else {
            timeout
        };
        if let Err(e) = r.poll.poll(&mut events, timeout) {
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if events.is_empty() {
            if polling {
                std::thread::yield_now();
            }
        } else {
            last_busy = Instant::now();
        }
        for ev in events.iter() {
            let token = ev.token();
            if token == WAKER {
                continue;
            }
            let source = if r.conns.contains_key(&token) {
                Source::Conn
            } else if r.listeners.contains_key(&token) {
                Source::Listener
            } else {
                continue;
            };
            match source {
                Source::Listener => r.accept(token),
                Source::Conn => {
                    if ev.is_writable() {
                        r.flush(token);
                    }
                    if ev.is_readable() || ev.is_read_closed() || ev.is_error() {
                        r.readable(token);
                    }
                }
            }
            r.run_deferred();
        }
        while let Ok(task) = rx.try_recv() {
            task(&mut r);
            r.run_deferred();
            queued.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let tokens: Vec<Token> = r.conns.keys().copied().collect();
    for t in tokens {
        r.drop_conn(t, Error::Unreach);
    }
    // Tasks posted after the stop: run them so their completions are dropped (waiters see
    // an error instead of hanging).
    drop(rx);
}

#[cfg(test)]
mod tests;
