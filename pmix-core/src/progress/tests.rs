use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::wire::Frame;

/// Messages of the form: u32 BE length, then that many bytes; tag = 0.
struct LenPrefixed {
    max: usize,
}

impl Framing for LenPrefixed {
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>> {
        let Some(head) = buf.get(..4) else {
            return Ok(None);
        };
        let n = u32::from_be_bytes(head.try_into().expect("4 bytes")) as usize;
        if n > self.max {
            return Err(Error::UnpackFailure);
        }
        Ok((buf.len() >= 4 + n).then_some(Frame {
            len: 4 + n,
            tag: 0,
            payload: 4..4 + n,
        }))
    }
}

fn frame(p: &[u8]) -> Vec<u8> {
    let mut v = (p.len() as u32).to_be_bytes().to_vec();
    v.extend_from_slice(p);
    v
}

#[derive(Default)]
struct Log {
    msgs: Vec<Vec<u8>>,
    closed: Vec<Error>,
}

/// Echoes each message back, and records it.
struct Echo(Arc<Mutex<Log>>);

impl ConnHandler for Echo {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        assert!(on_progress_thread());
        self.0.lock().unwrap().msgs.push(msg.payload.to_vec());
        if msg.payload == b"close" {
            r.close(id, Error::NotFound);
            return;
        }
        r.send(id, frame(msg.payload)).unwrap();
    }
    fn on_closed(&mut self, _r: &mut Reactor, _id: ConnId, why: Error) {
        self.0.lock().unwrap().closed.push(why);
    }
}

fn pair() -> (TcpStream, TcpStream) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let a = TcpStream::connect(l.local_addr().unwrap()).unwrap();
    let (b, _) = l.accept().unwrap();
    (a, b)
}

fn read_frame(s: &mut TcpStream) -> Vec<u8> {
    let mut h = [0u8; 4];
    s.read_exact(&mut h).unwrap();
    let mut p = vec![0; u32::from_be_bytes(h) as usize];
    s.read_exact(&mut p).unwrap();
    p
}

fn wait_until(mut f: impl FnMut() -> bool) {
    for _ in 0..500 {
        if f() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("condition not reached in 5 s");
}

#[test]
fn messages_in_order_split_anywhere_and_echoed() {
    let p = Progress::start("test-progress").unwrap();
    let log = Arc::new(Mutex::new(Log::default()));
    let (mut peer, ours) = pair();
    let l2 = log.clone();
    let id = p
        .call(Some(Duration::from_secs(5)), move |r, done| {
            done.complete(r.add_connection(
                ours,
                Box::new(LenPrefixed { max: 1 << 20 }),
                Box::new(Echo(l2)),
            ))
        })
        .unwrap()
        .unwrap();
    // Three messages written one byte at a time, plus a large one.
    let big = vec![7u8; 300_000];
    let mut all = Vec::new();
    for m in [&b"one"[..], b"", b"three"] {
        all.extend(frame(m));
    }
    for b in &all {
        peer.write_all(&[*b]).unwrap();
    }
    peer.write_all(&frame(&big)).unwrap();
    assert_eq!(read_frame(&mut peer), b"one");
    assert_eq!(read_frame(&mut peer), b"");
    assert_eq!(read_frame(&mut peer), b"three");
    assert_eq!(read_frame(&mut peer), big);
    // Close from the handler: on_closed runs once, with the handler's reason.
    peer.write_all(&frame(b"close")).unwrap();
    let mut rest = Vec::new();
    peer.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
    wait_until(|| log.lock().unwrap().closed.len() == 1);
    assert_eq!(log.lock().unwrap().closed, vec![Error::Unreach]);
    let open = p
        .call(None, move |r, done| done.complete(r.is_open(id)))
        .unwrap();
    assert!(!open);
}

#[test]
fn peer_death_and_corrupt_framing_close_the_connection() {
    let p = Progress::start("test-progress").unwrap();
    let log = Arc::new(Mutex::new(Log::default()));
    for corrupt in [false, true] {
        let (mut peer, ours) = pair();
        let l2 = log.clone();
        p.post(move |r| {
            r.add_connection(ours, Box::new(LenPrefixed { max: 16 }), Box::new(Echo(l2)))
                .unwrap();
        })
        .unwrap();
        if corrupt {
            // A length above the limit: closed without allocating it.
            peer.write_all(&u32::MAX.to_be_bytes()).unwrap();
        } else {
            // A message, then the peer dies: the message is still delivered.
            peer.write_all(&frame(b"last")).unwrap();
            drop(peer);
        }
    }
    wait_until(|| log.lock().unwrap().closed.len() == 2);
    let l = log.lock().unwrap();
    assert!(l.msgs.contains(&b"last".to_vec()));
    assert!(l.closed.contains(&Error::UnpackFailure));
}

#[test]
fn timers_fire_in_order_and_cancel() {
    let p = Progress::start("test-progress").unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let order = p
        .call(Some(Duration::from_secs(5)), move |r, done| {
            let s1 = s.clone();
            r.schedule(Duration::from_millis(30), move |_| {
                s1.lock().unwrap().push(2)
            });
            let s2 = s.clone();
            r.schedule(Duration::from_millis(10), move |_| {
                s2.lock().unwrap().push(1)
            });
            let s3 = s.clone();
            let t = r.schedule(Duration::from_millis(20), move |_| {
                s3.lock().unwrap().push(99)
            });
            assert!(r.cancel(t));
            assert!(!r.cancel(t));
            r.schedule(Duration::from_millis(50), move |_| {
                done.complete(s.lock().unwrap().clone())
            });
        })
        .unwrap();
    assert_eq!(order, vec![1, 2]);
    assert_eq!(*seen.lock().unwrap(), vec![1, 2]);
}

#[test]
fn blocking_call_from_the_progress_thread_is_refused() {
    let p = Arc::new(Progress::start("test-progress").unwrap());
    let p2 = p.clone();
    let inner = p
        .call(Some(Duration::from_secs(5)), move |_, done| {
            done.complete(p2.call(None, |_, d: Completion<()>| d.complete(())))
        })
        .unwrap();
    assert_eq!(inner, Err(Error::WouldBlock));
    assert!(!on_progress_thread());
}

#[test]
fn dropped_completion_and_timeout_end_the_wait() {
    let p = Progress::start("test-progress").unwrap();
    let r: Result<u32> = p.call(None, |_, done| drop(done));
    assert_eq!(r, Err(Error::Unreach));
    let r: Result<u32> = p.call(Some(Duration::from_millis(20)), |r, done| {
        r.schedule(Duration::from_secs(1), move |_| done.complete(1));
    });
    assert_eq!(r, Err(Error::Timeout));
}

#[test]
fn listener_hands_over_blocking_streams() {
    let p = Progress::start("test-progress").unwrap();
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let (tx, rx) = crossbeam_channel::unbounded();
    p.post(move |r| {
        r.add_listener(
            l,
            Box::new(move |_, mut s: crate::net::Stream| {
                let mut b = [0u8; 2];
                s.read_exact(&mut b).unwrap();
                tx.send(b).unwrap();
            }),
        )
        .unwrap();
    })
    .unwrap();
    for i in 0..3u8 {
        let mut c = TcpStream::connect(addr).unwrap();
        c.write_all(&[i, i]).unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap(), [i, i]);
    }
}

#[test]
fn drop_stops_the_thread_and_closes_connections() {
    let log = Arc::new(Mutex::new(Log::default()));
    let (mut peer, ours) = pair();
    {
        let p = Progress::start("test-progress").unwrap();
        let l2 = log.clone();
        p.call(None, move |r, done| {
            done.complete(
                r.add_connection(ours, Box::new(LenPrefixed { max: 16 }), Box::new(Echo(l2)))
                    .unwrap(),
            )
        })
        .unwrap();
    }
    assert_eq!(log.lock().unwrap().closed, vec![Error::Unreach]);
    let mut rest = Vec::new();
    peer.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
}

/// A peer that writes a partial message and closes before the connection is handed to the
/// reactor: the data and the EOF are both pending at the first (edge-triggered) readiness
/// event, and the connection must still be seen to close.
#[test]
fn eof_pending_with_partial_message_closes() {
    let p = Progress::start("test-progress").unwrap();
    for _ in 0..20 {
        let log = Arc::new(Mutex::new(Log::default()));
        let (mut peer, ours) = pair();
        let mut partial = 1000u32.to_be_bytes().to_vec();
        partial.extend_from_slice(b"0123456789");
        peer.write_all(&partial).unwrap();
        peer.shutdown(std::net::Shutdown::Write).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let l2 = log.clone();
        p.call(Some(Duration::from_secs(5)), move |r, done| {
            done.complete(r.add_connection(
                ours,
                Box::new(LenPrefixed { max: 1 << 20 }),
                Box::new(Echo(l2)),
            ))
        })
        .unwrap()
        .unwrap();
        wait_until(|| log.lock().unwrap().closed.len() == 1);
        let mut rest = Vec::new();
        peer.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        assert_eq!(
            peer.read_to_end(&mut rest).unwrap(),
            0,
            "the reactor closes its side"
        );
        assert!(log.lock().unwrap().msgs.is_empty());
    }
}

/// Takes a fixed-size first message (a "handshake"), answers "ok" and hands the connection
/// to `LenPrefixed` framing and an `Echo` handler.
struct Greeter {
    log: Arc<Mutex<Log>>,
}

/// Messages of exactly 4 bytes.
struct Fixed4;

impl Framing for Fixed4 {
    fn split(&mut self, buf: &[u8]) -> Result<Option<Frame>> {
        Ok((buf.len() >= 4).then_some(Frame {
            len: 4,
            tag: 1,
            payload: 0..4,
        }))
    }
}

impl ConnHandler for Greeter {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        assert_eq!(msg.payload, b"helo");
        r.send(id, frame(b"ok")).unwrap();
        r.rebind(
            id,
            Box::new(LenPrefixed { max: 1 << 10 }),
            Box::new(Echo(self.log.clone())),
        )
        .unwrap();
    }
    fn on_closed(&mut self, _r: &mut Reactor, _id: ConnId, _why: Error) {
        panic!("the greeter is gone once the greeting is done");
    }
}

#[test]
fn rebind_hands_the_rest_of_the_bytes_to_the_new_framing_and_handler() {
    let p = Progress::start("test-progress").unwrap();
    let log = Arc::new(Mutex::new(Log::default()));
    let (mut peer, ours) = pair();
    let l2 = log.clone();
    p.post(move |r| {
        r.add_connection(ours, Box::new(Fixed4), Box::new(Greeter { log: l2 }))
            .unwrap();
    })
    .unwrap();
    // The greeting and two framed messages in one write: the bytes after the greeting are
    // already read when the handler rebinds, and must go to the new framing.
    let mut all = b"helo".to_vec();
    all.extend(frame(b"first"));
    all.extend(frame(b"second"));
    peer.write_all(&all).unwrap();
    assert_eq!(read_frame(&mut peer), b"ok");
    assert_eq!(read_frame(&mut peer), b"first");
    assert_eq!(read_frame(&mut peer), b"second");
    // The new handler is told of the end.
    drop(peer);
    wait_until(|| log.lock().unwrap().closed.len() == 1);
    assert_eq!(
        log.lock().unwrap().msgs,
        vec![b"first".to_vec(), b"second".to_vec()]
    );
}

fn pattern(n: usize, seed: usize) -> Vec<u8> {
    (0..n).map(|i| ((i * 7 + seed * 13) % 251) as u8).collect()
}

fn echo_conn(p: &Progress, ours: TcpStream, max: usize) -> ConnId {
    let log = Arc::new(Mutex::new(Log::default()));
    p.call(Some(Duration::from_secs(5)), move |r, done| {
        done.complete(r.add_connection(ours, Box::new(LenPrefixed { max }), Box::new(Echo(log))))
    })
    .unwrap()
    .unwrap()
}

/// Waits (at most 30 s, never timing what it waits for) until `f` holds.
fn wait_long(mut f: impl FnMut() -> bool) {
    for _ in 0..3000 {
        if f() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("condition not reached in 30 s");
}

/// Messages of mixed sizes, several far beyond one read of the reactor, written in one go,
/// each arrive whole and in order (the read buffer grows for the large ones and the small
/// ones after them are still found).
#[test]
fn large_and_small_messages_in_one_stream_arrive_whole() {
    let p = Progress::start("test-progress").unwrap();
    let (peer, ours) = pair();
    echo_conn(&p, ours, 8 << 20);
    let sizes = [
        0,
        1,
        65_552,
        3_000_000,
        5,
        262_144,
        262_145,
        1_000_000,
        17,
        4_194_304 + 3,
    ];
    let mut w = peer.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        let mut all = Vec::new();
        for (i, n) in sizes.iter().enumerate() {
            all.extend(frame(&pattern(*n, i)));
        }
        w.write_all(&all).unwrap();
    });
    let mut r = peer;
    for (i, n) in sizes.iter().enumerate() {
        assert!(
            read_frame(&mut r) == pattern(*n, i),
            "message {i} of {n} bytes"
        );
    }
    writer.join().unwrap();
}

/// Shared bytes go out between owned frames in queue order, and the queue lets go of them
/// once written.
#[test]
fn shared_bytes_go_out_in_order_and_are_released_once_written() {
    let p = Progress::start("test-progress").unwrap();
    let (mut peer, ours) = pair();
    let id = echo_conn(&p, ours, 1 << 20);
    let body = Arc::new(pattern(200_000, 1));
    let b2 = body.clone();
    p.post(move |r| {
        r.send(id, frame(b"first")).unwrap();
        let len = (b2.len() as u32).to_be_bytes().to_vec();
        r.send_shared(id, len, b2.clone()).unwrap();
        r.send_shared(id, vec![0, 0, 0, 0], Arc::new(Vec::<u8>::new()))
            .unwrap();
        r.send(id, frame(b"last")).unwrap();
    })
    .unwrap();
    assert_eq!(read_frame(&mut peer), b"first");
    assert!(read_frame(&mut peer) == *body);
    assert_eq!(read_frame(&mut peer), b"");
    assert_eq!(read_frame(&mut peer), b"last");
    wait_until(|| Arc::strong_count(&body) == 1);
}

/// A peer that reads nothing does not keep shared bytes for ever: once it has read nothing
/// for a while they are copied into the queue and released, and they still arrive intact,
/// in order, when the peer reads.
#[test]
fn shared_bytes_of_a_peer_that_reads_nothing_are_copied_and_released() {
    let p = Progress::start("test-progress").unwrap();
    let (mut peer, ours) = pair();
    let id = echo_conn(&p, ours, 1 << 20);
    // Far more than the socket buffers hold while the peer reads nothing.
    let body = Arc::new(pattern(16 << 20, 2));
    let b2 = body.clone();
    p.post(move |r| {
        let len = (b2.len() as u32).to_be_bytes().to_vec();
        r.send_shared(id, len, b2.clone()).unwrap();
        r.send(id, frame(b"after")).unwrap();
    })
    .unwrap();
    wait_long(|| Arc::strong_count(&body) == 1);
    let mut h = [0u8; 4];
    peer.read_exact(&mut h).unwrap();
    let mut got = vec![0; u32::from_be_bytes(h) as usize];
    peer.read_exact(&mut got).unwrap();
    assert!(got == *body);
    assert_eq!(read_frame(&mut peer), b"after");
}

/// Answers each message with a large payload shared by every connection (`send_shared`,
/// partially written when the socket is full), then an ordinary frame.
struct SharedEcho(Arc<Vec<u8>>);

impl ConnHandler for SharedEcho {
    fn on_message(&mut self, r: &mut Reactor, id: ConnId, msg: Message<'_>) {
        let head = (self.0.len() as u32).to_be_bytes().to_vec();
        r.send_shared(id, head, self.0.clone()).unwrap();
        r.send(id, frame(msg.payload)).unwrap();
    }
    fn on_closed(&mut self, _r: &mut Reactor, _id: ConnId, _why: Error) {}
}

#[test]
fn a_shared_payload_goes_whole_and_in_order_to_each_connection() {
    let p = Progress::start("test-progress").unwrap();
    let body: Arc<Vec<u8>> = Arc::new((0..3_000_000u32).map(|i| (i % 251) as u8).collect());
    let mut peers = Vec::new();
    for _ in 0..2 {
        let (peer, ours) = pair();
        let b = body.clone();
        p.call(Some(Duration::from_secs(5)), move |r, done| {
            done.complete(r.add_connection(
                ours,
                Box::new(LenPrefixed { max: 1 << 20 }),
                Box::new(SharedEcho(b)),
            ))
        })
        .unwrap()
        .unwrap();
        peers.push(peer);
    }
    for (i, peer) in peers.iter_mut().enumerate() {
        peer.write_all(&frame(format!("m{i}").as_bytes())).unwrap();
    }
    // Both connections' answers are queued before either peer reads.
    for (i, peer) in peers.iter_mut().enumerate() {
        assert!(
            read_frame(peer) == *body,
            "connection {i}: the shared payload"
        );
        assert_eq!(read_frame(peer), format!("m{i}").as_bytes());
    }
}

/// Frames written by a `DirectSender` and by the progress thread reach the peer whole and in
/// the order they were sent, also when the socket fills up (the peer reads nothing until
/// everything is sent) and a direct write has to leave the rest to the progress thread;
/// after the connection is closed, a direct send is refused.
#[test]
fn direct_sends_keep_order_with_queued_ones_and_stop_at_close() {
    let p = Progress::start_polling("test-progress", Duration::from_micros(50)).unwrap();
    let log = Arc::new(Mutex::new(Log::default()));
    let (mut peer, ours) = pair();
    let l2 = log.clone();
    let (id, direct) = p
        .call(Some(Duration::from_secs(5)), move |r, done| {
            let id = r
                .add_connection(
                    ours,
                    Box::new(LenPrefixed { max: 1 << 20 }),
                    Box::new(Echo(l2)),
                )
                .unwrap();
            done.complete((id, r.direct_sender(id).unwrap()))
        })
        .unwrap();
    // Far more than loopback socket buffers hold, alternating the two paths. As the
    // requester does, the direct path is taken only once no posted task is left to run.
    let frames: Vec<Vec<u8>> = (0..64u8).map(|i| vec![i; 100_000]).collect();
    for (i, f) in frames.iter().enumerate() {
        if i % 2 == 0 {
            wait_until(|| !p.has_queued_tasks());
            direct.send(&p, frame(f)).unwrap();
        } else {
            let bytes = frame(f);
            p.post(move |r| r.send(id, bytes).unwrap()).unwrap();
        }
    }
    for (i, f) in frames.iter().enumerate() {
        let got = read_frame(&mut peer);
        assert!(
            &got == f,
            "frame {i}: {} bytes of {:?}",
            got.len(),
            got.first()
        );
    }
    // Closed by our side: direct sends fail instead of writing.
    p.call(Some(Duration::from_secs(5)), move |r, done| {
        r.close(id, Error::Unreach);
        done.complete(())
    })
    .unwrap();
    assert_eq!(direct.send(&p, frame(b"late")), Err(Error::Unreach));
    let mut rest = Vec::new();
    peer.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
}

/// `has_queued_tasks` is true from `post` until the task has run.
#[test]
fn queued_tasks_are_counted_until_they_ran() {
    let p = Progress::start("test-progress").unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    p.post(move |_| {
        let _ = rx.recv_timeout(Duration::from_secs(5));
    })
    .unwrap();
    assert!(p.has_queued_tasks());
    tx.send(()).unwrap();
    wait_until(|| !p.has_queued_tasks());
}
