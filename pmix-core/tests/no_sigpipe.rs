//! Writing to a peer that has gone never raises SIGPIPE: the library installs no signal
//! handler, and a process that keeps SIGPIPE's default action (as C programs do) would die.
//! A Unix-domain peer makes the write fail with EPIPE at once. Its own test binary: it
//! restores the default action, which Rust's runtime replaced with "ignore".

use std::sync::mpsc;
use std::time::Duration;

use pmix_core::Error;
use pmix_core::progress::{ConnHandler, ConnId, Message, Progress, Reactor};

struct Closed(mpsc::Sender<Error>);

impl ConnHandler for Closed {
    fn on_message(&mut self, _r: &mut Reactor, _id: ConnId, _msg: Message<'_>) {}
    fn on_closed(&mut self, _r: &mut Reactor, _id: ConnId, why: Error) {
        let _ = self.0.send(why);
    }
}

#[test]
fn a_write_to_a_closed_unix_peer_fails_without_a_signal() {
    // SAFETY: setting a standard signal's disposition to SIG_DFL, before any thread of this
    // test binary writes to a socket.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let progress = Progress::start("sigpipe-test").expect("progress");
    for _ in 0..2 {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair().expect("pair");
        drop(theirs);
        let stream = pmix_core::net::Stream::Unix(ours);
        let (tx, rx) = mpsc::channel();
        progress
            .call(Some(Duration::from_secs(30)), move |r, done| {
                let id = r
                    .add_connection(
                        stream,
                        Box::new(pmix_core::wire::WireFraming::default()),
                        Box::new(Closed(tx)),
                    )
                    .expect("add");
                // Several pieces: a gathering write.
                let _ = r.send(id, pmix_core::wire::peer_frame(7, b"to nobody"));
                let _ = r.send(id, pmix_core::wire::peer_frame(8, &[0; 100_000]));
                done.complete(());
            })
            .expect("call");
        // Still alive: the write failed and the connection was closed.
        rx.recv_timeout(Duration::from_secs(30)).expect("on_closed");
    }
}

#[test]
fn a_direct_write_to_a_gone_unix_server_fails_without_a_signal() {
    use std::io::Write as _;
    // SAFETY: as above.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let name = pmix_core::net::fresh_unix_name();
    let l = pmix_core::net::Listener::unix(&name).expect("listen");
    let c = pmix_core::net::Stream::connect_unix(&name).expect("connect");
    drop(l.accept().expect("accept"));
    let err = (0..100).find_map(|_| (&c).write(&[0u8; 4096]).err());
    assert_eq!(err.map(|e| e.kind()), Some(std::io::ErrorKind::BrokenPipe));
}
