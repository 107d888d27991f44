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
            Peer::Tcp(local, peer) => tcp_peer_uid(local, peer),
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

/// The uid that owns a TCP connection on this machine, as the kernel records it: the socket
/// whose local address is `peer` and remote address is `local`. `None` when the peer is not
/// on this machine or the kernel cannot tell.
///
/// Asked of the kernel's socket diagnostics (one netlink request naming the connection,
/// answered from the socket hash in constant time); where that interface is missing, found
/// in `/proc/net/tcp`, whose cost grows with every socket of the machine (TIME-WAIT ones
/// too): with a thousand sockets a scan took longer than the rest of a handshake.
pub fn tcp_peer_uid(local: std::net::SocketAddr, peer: std::net::SocketAddr) -> Option<u32> {
    match sock_diag_uid(local, peer) {
        Ok(uid) => uid,
        Err(_) => tcp_peer_uid_from_table(local, peer),
    }
}

/// `tcp_peer_uid` through `NETLINK_SOCK_DIAG` (`SOCK_DIAG_BY_FAMILY`, an exact
/// `inet_diag_req_v2` lookup). `Ok(None)`: the kernel knows no such socket; `Err`: the
/// interface did not answer.
fn sock_diag_uid(
    local: std::net::SocketAddr,
    peer: std::net::SocketAddr,
) -> std::io::Result<Option<u32>> {
    use rustix::net::{AddressFamily, RecvFlags, SendFlags, SocketType, netlink};
    const SOCK_DIAG_BY_FAMILY: u16 = 20;
    const NLMSG_ERROR: u16 = 2;
    const NLM_F_REQUEST: u16 = 1;
    const HDR: usize = 16;
    let unavailable = || std::io::Error::from(std::io::ErrorKind::Unsupported);
    let family: u8 = match peer {
        std::net::SocketAddr::V4(_) => 2,  // AF_INET
        std::net::SocketAddr::V6(_) => 10, // AF_INET6
    };
    let ip = |a: std::net::SocketAddr| -> [u8; 16] {
        match a.ip() {
            std::net::IpAddr::V4(v4) => {
                let mut b = [0u8; 16];
                b[..4].copy_from_slice(&v4.octets());
                b
            }
            std::net::IpAddr::V6(v6) => v6.octets(),
        }
    };
    // nlmsghdr, then inet_diag_req_v2: family, protocol, ext, pad, states, then the
    // socket id: source port and destination port (big-endian), source and destination
    // addresses (16 bytes each), interface, cookie (none).
    let mut req = Vec::with_capacity(HDR + 56);
    req.extend_from_slice(&((HDR + 56) as u32).to_ne_bytes());
    req.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    req.extend_from_slice(&NLM_F_REQUEST.to_ne_bytes());
    req.extend_from_slice(&1u32.to_ne_bytes()); // sequence
    req.extend_from_slice(&0u32.to_ne_bytes()); // port id: the kernel assigns it
    req.extend_from_slice(&[family, 6, 0, 0]); // IPPROTO_TCP
    req.extend_from_slice(&u32::MAX.to_ne_bytes()); // every state
    // The peer's socket: its local end is `peer`, its remote end is `local`.
    req.extend_from_slice(&peer.port().to_be_bytes());
    req.extend_from_slice(&local.port().to_be_bytes());
    req.extend_from_slice(&ip(peer));
    req.extend_from_slice(&ip(local));
    req.extend_from_slice(&0u32.to_ne_bytes()); // any interface
    req.extend_from_slice(&[0xff; 8]); // INET_DIAG_NOCOOKIE
    let fd = rustix::net::socket(
        AddressFamily::NETLINK,
        SocketType::DGRAM,
        Some(netlink::SOCK_DIAG),
    )?;
    rustix::net::send(&fd, &req, SendFlags::empty())?;
    // The kernel answers within the send; not waiting covers a kernel that does not.
    let mut buf = [0u8; 1024];
    let (n, _) = rustix::net::recv(&fd, &mut buf, RecvFlags::DONTWAIT)?;
    let msg = &buf[..n];
    let u16_at = |o: usize| msg.get(o..o + 2).map(|b| u16::from_ne_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        msg.get(o..o + 4)
            .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    };
    match u16_at(4) {
        // inet_diag_msg: family, state, timer, retrans, the socket id (48 bytes),
        // expires, rqueue, wqueue, then uid.
        Some(SOCK_DIAG_BY_FAMILY) => Ok(Some(u32_at(HDR + 64).ok_or_else(unavailable)?)),
        Some(NLMSG_ERROR) => match u32_at(HDR).map(|e| e as i32) {
            Some(-2) => Ok(None), // ENOENT: no such socket here
            _ => Err(unavailable()),
        },
        _ => Err(unavailable()),
    }
}

/// `tcp_peer_uid` from the `/proc/net/tcp` (or `tcp6`) entry whose local address is `peer`
/// and remote address is `local`.
fn tcp_peer_uid_from_table(local: std::net::SocketAddr, peer: std::net::SocketAddr) -> Option<u32> {
    fn hex_addr(a: std::net::SocketAddr) -> String {
        match a {
            std::net::SocketAddr::V4(v4) => {
                format!(
                    "{:08X}:{:04X}",
                    u32::from_le_bytes(v4.ip().octets()),
                    v4.port()
                )
            }
            std::net::SocketAddr::V6(v6) => {
                let o = v6.ip().octets();
                let mut s = String::new();
                for w in o.chunks(4) {
                    s.push_str(&format!(
                        "{:08X}",
                        u32::from_le_bytes([w[0], w[1], w[2], w[3]])
                    ));
                }
                format!("{s}:{:04X}", v6.port())
            }
        }
    }
    let table = if peer.is_ipv4() {
        "/proc/net/tcp"
    } else {
        "/proc/net/tcp6"
    };
    // One line per socket, its addresses at fixed columns ("%4d: %08X:%04X %08X:%04X ..."
    // for IPv4, 32 hex digits for IPv6): compare them in place, and split only the line
    // that matches. The table can hold tens of thousands of sockets.
    let text = std::fs::read(table).ok()?;
    let want_local = hex_addr(peer);
    let want_remote = hex_addr(local);
    let (l, r) = (want_local.as_bytes(), want_remote.as_bytes());
    for line in text.split(|&b| b == b'\n').skip(1) {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let rest = &line[colon + 1..];
        let rest = &rest[rest.iter().position(|&b| b != b' ').unwrap_or(0)..];
        if rest.len() > l.len() + r.len() + 1
            && &rest[..l.len()] == l
            && &rest[l.len() + 1..l.len() + 1 + r.len()] == r
        {
            let text = std::str::from_utf8(line).ok()?;
            let f: Vec<&str> = text.split_whitespace().collect();
            return f.get(7)?.parse().ok();
        }
    }
    None
}

/// The host name without its domain (or `PMIX_HOSTNAME`).
pub fn local_hostname() -> crate::values::PStr {
    if let Ok(h) = std::env::var("PMIX_HOSTNAME") {
        return h.into();
    }
    let h = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let h = h.trim();
    crate::values::PStr::from(h.split('.').next().unwrap_or(h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::own_ids;

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
        let me = own_ids().0;
        assert_eq!(s.peer().uid(), Some(me));
        assert_eq!(c.peer().uid(), Some(me));
        // A name nobody listens on fails at once.
        assert!(Stream::connect_unix(&fresh_unix_name()).is_err());
        // A second listener cannot take a name in use.
        assert!(Listener::unix(&name).is_err());
    }

    #[test]
    fn peer_uid_of_a_loopback_connection_is_ours() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let uid = tcp_peer_uid(s.local_addr().unwrap(), s.peer_addr().unwrap());
        assert_eq!(uid, Some(own_ids().0));
        drop(c);
    }

    #[test]
    fn socket_diagnostics_and_the_table_agree_on_the_peer() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        let (local, peer) = (s.local_addr().unwrap(), s.peer_addr().unwrap());
        let table = tcp_peer_uid_from_table(local, peer);
        assert_eq!(table, Some(own_ids().0));
        // Where the kernel has socket diagnostics, they answer the same.
        if let Ok(diag) = sock_diag_uid(local, peer) {
            assert_eq!(diag, table);
        }
        // A connection that does not exist: no owner, whichever way it is asked.
        let gone = c.local_addr().unwrap();
        drop((c, s));
        drop(l);
        let bogus: std::net::SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(tcp_peer_uid(bogus, gone), None);
        assert_eq!(tcp_peer_uid_from_table(bogus, gone), None);
    }
}
