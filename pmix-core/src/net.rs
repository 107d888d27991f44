//! The sockets between peers: loopback TCP, which every OpenPMIx peer speaks, and a
//! Unix-domain stream socket, which our server offers beside it and which only our own
//! clients and tools know of (`docs/notes/transport.md`).
//!
//! Both are byte streams carrying the same frames; the code above this module does not care
//! which one a connection uses. Every write goes through `send(2)` with `MSG_NOSIGNAL`: a
//! plain `write(2)` on a Unix socket whose peer has gone raises SIGPIPE, and the library
//! installs no handler.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::os::linux::net::SocketAddrExt as _;
use std::os::unix::net::{UnixListener, UnixStream};
use std::time::Duration;

/// The variable (in a client's environment) and the rendezvous-file line prefix through which
/// our server names its Unix socket. Reference peers ignore both.
pub const UNIX_ENV: &str = "PMIX_RS_SERVER_UNIX";

/// Set to `0` in a server's environment, no Unix socket is offered; in a client's or a
/// tool's, an offered one is not used (both then speak TCP, as with a reference peer).
pub const UNIX_SWITCH_ENV: &str = "PMIX_RS_UNIX";

/// Whether this process may offer or use the Unix socket (`PMIX_RS_UNIX` is not `0`).
pub fn unix_enabled() -> bool {
    std::env::var(UNIX_SWITCH_ENV).map_or(true, |v| v.trim() != "0")
}

/// A connected socket.
#[derive(Debug)]
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl From<TcpStream> for Stream {
    fn from(s: TcpStream) -> Stream {
        Stream::Tcp(s)
    }
}

/// Who is at the other end of a connection, as the kernel knows it.
#[derive(Debug, Clone, Copy)]
pub enum Peer {
    /// A TCP connection's two addresses (the owner is looked up only when asked: it costs a
    /// netlink round trip).
    Tcp(SocketAddr, SocketAddr),
    /// A Unix socket's peer uid and gid (`SO_PEERCRED`, taken when it connected).
    Unix {
        uid: u32,
        gid: u32,
    },
    Unknown,
}

impl Peer {
    /// The uid owning the peer's socket, if the kernel says.
    pub fn uid(&self) -> Option<u32> {
        match *self {
            Peer::Tcp(local, peer) => crate::wire::tcp_peer_uid(local, peer),
            Peer::Unix { uid, .. } => Some(uid),
            Peer::Unknown => None,
        }
    }
}

impl Stream {
    /// Connects to a TCP address, giving up after `timeout`.
    pub fn connect_tcp(addr: &SocketAddr, timeout: Duration) -> io::Result<Stream> {
        let s = TcpStream::connect_timeout(addr, timeout)?;
        let _ = s.set_nodelay(true);
        Ok(Stream::Tcp(s))
    }

    /// Connects to the Unix socket with the abstract `name`. Never waits: a server whose
    /// backlog is full (or that is stuck) answers `WouldBlock`, and the caller uses TCP.
    pub fn connect_unix(name: &str) -> io::Result<Stream> {
        use rustix::net::{AddressFamily, SocketAddrUnix, SocketFlags, SocketType};
        let fd = rustix::net::socket_with(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::NONBLOCK | SocketFlags::CLOEXEC,
            None,
        )?;
        let addr = SocketAddrUnix::new_abstract_name(name.as_bytes())?;
        rustix::net::connect(&fd, &addr)?;
        let s = UnixStream::from(fd);
        s.set_nonblocking(false)?;
        Ok(Stream::Unix(s))
    }

    /// Connects to `server`: through its Unix socket when it offers one (and this process
    /// may use it), else, or when that fails, through TCP within `timeout`.
    pub fn connect(server: &crate::wire::ServerUri, timeout: Duration) -> io::Result<Stream> {
        if let Some(name) = server.unix.as_deref().filter(|_| unix_enabled()) {
            if let Ok(s) = Stream::connect_unix(name) {
                return Ok(s);
            }
        }
        Stream::connect_tcp(&server.addr, timeout)
    }

    /// Whether this is the Unix socket.
    pub fn is_unix(&self) -> bool {
        matches!(self, Stream::Unix(_))
    }

    /// The peer, for the owner check of a handshake.
    pub fn peer(&self) -> Peer {
        match self {
            Stream::Tcp(s) => match (s.local_addr(), s.peer_addr()) {
                (Ok(l), Ok(p)) => Peer::Tcp(l, p),
                _ => Peer::Unknown,
            },
            Stream::Unix(s) => {
                rustix::net::sockopt::socket_peercred(s).map_or(Peer::Unknown, |c| Peer::Unix {
                    uid: c.uid.as_raw(),
                    gid: c.gid.as_raw(),
                })
            }
        }
    }

    pub fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_nonblocking(on),
            Stream::Unix(s) => s.set_nonblocking(on),
        }
    }

    pub fn set_read_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_read_timeout(t),
            Stream::Unix(s) => s.set_read_timeout(t),
        }
    }

    /// Disables Nagle's algorithm (TCP only; a Unix socket has none).
    pub fn set_nodelay(&self) {
        if let Stream::Tcp(s) = self {
            let _ = s.set_nodelay(true);
        }
    }

    pub fn shutdown(&self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.shutdown(std::net::Shutdown::Both),
            Stream::Unix(s) => s.shutdown(std::net::Shutdown::Both),
        }
    }

    /// A second handle on the same socket (a duplicated descriptor).
    pub fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            Stream::Unix(s) => Stream::Unix(s.try_clone()?),
        })
    }
}

impl AsFd for Stream {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Stream::Tcp(s) => s.as_fd(),
            Stream::Unix(s) => s.as_fd(),
        }
    }
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        self.as_fd().as_raw_fd()
    }
}

impl Read for &Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match *self {
            Stream::Tcp(s) => (&*s).read(buf),
            Stream::Unix(s) => (&*s).read(buf),
        }
    }
}

impl Write for &Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(rustix::net::send(
            *self,
            buf,
            rustix::net::SendFlags::NOSIGNAL,
        )?)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self).read(buf)
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (&*self).write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A listening socket.
#[derive(Debug)]
pub enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener),
}

impl From<TcpListener> for Listener {
    fn from(l: TcpListener) -> Listener {
        Listener::Tcp(l)
    }
}

/// The listen backlog: std listens with 128, and a burst of clients starting together (a
/// job of hundreds of ranks on one node) overflowed it; each refused TCP connection then
/// waited for the client's SYN retransmission (1 s, then 3 s...). Listening again on a
/// listening socket only changes its backlog; the kernel caps it at net.core.somaxconn.
const BACKLOG: i32 = 4096;

impl Listener {
    /// Listens on loopback TCP `port` (0: an ephemeral one).
    pub fn tcp(port: u16) -> io::Result<Listener> {
        let l = TcpListener::bind(("127.0.0.1", port))?;
        let _ = rustix::net::listen(&l, BACKLOG);
        Ok(Listener::Tcp(l))
    }

    /// Listens on a Unix socket with the abstract `name` (no file: nothing is left behind
    /// when the process dies, and no path length to outgrow).
    pub fn unix(name: &str) -> io::Result<Listener> {
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes())?;
        let l = UnixListener::bind_addr(&addr)?;
        let _ = rustix::net::listen(&l, BACKLOG);
        Ok(Listener::Unix(l))
    }

    /// The TCP address, for a TCP listener.
    pub fn tcp_addr(&self) -> Option<SocketAddr> {
        match self {
            Listener::Tcp(l) => l.local_addr().ok(),
            Listener::Unix(_) => None,
        }
    }

    pub fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        match self {
            Listener::Tcp(l) => l.set_nonblocking(on),
            Listener::Unix(l) => l.set_nonblocking(on),
        }
    }

    /// Accepts a connection, as a blocking stream.
    pub fn accept(&self) -> io::Result<Stream> {
        match self {
            Listener::Tcp(l) => l.accept().map(|(s, _)| Stream::Tcp(s)),
            Listener::Unix(l) => l.accept().map(|(s, _)| Stream::Unix(s)),
        }
    }
}

impl AsFd for Listener {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Listener::Tcp(l) => l.as_fd(),
            Listener::Unix(l) => l.as_fd(),
        }
    }
}

impl AsRawFd for Listener {
    fn as_raw_fd(&self) -> RawFd {
        self.as_fd().as_raw_fd()
    }
}

/// A fresh abstract socket name for this process: its pid and 64 random bits, so that no
/// other process can take the name before the server binds it.
pub fn fresh_unix_name() -> String {
    let mut bits = [0u8; 8];
    let random = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bits))
        .is_ok();
    if !random {
        // std seeds its hash keys from the operating system's random source.
        use std::hash::{BuildHasher as _, Hasher as _};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        bits = h.finish().to_le_bytes();
    }
    format!(
        "pmix-rs.{}.{:016x}",
        std::process::id(),
        u64::from_le_bytes(bits)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_streams_connect_carry_bytes_and_name_their_owner() {
        let name = fresh_unix_name();
        let l = Listener::unix(&name).expect("listen");
        let mut c = Stream::connect_unix(&name).expect("connect");
        let mut s = l.accept().expect("accept");
        assert!(c.is_unix() && s.is_unix());
        c.write_all(b"hello").unwrap();
        let mut buf = [0u8; 5];
        s.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"hello");
        let me = crate::wire::own_ids().0;
        assert_eq!(s.peer().uid(), Some(me));
        assert_eq!(c.peer().uid(), Some(me));
        // A name nobody listens on fails at once.
        assert!(Stream::connect_unix(&fresh_unix_name()).is_err());
        // A second listener cannot take a name in use.
        assert!(Listener::unix(&name).is_err());
    }
}
