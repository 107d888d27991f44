//! The connection handshake (section 1.3 to 1.6): what a client or tool sends first, the
//! server's reply, and native credentials.

use pmix_sys::*;

use crate::codec::{BufferType, Decoder, Encoder};
use crate::values::{Info, PStr, Proc, Value};
use crate::{Error, Result};

/// Largest handshake body a server accepts (`PMIX_MAX_CRED_SIZE`).
pub const MAX_HELLO: usize = 131_072;
/// Fixed width of a namespace in the tool reply (`PMIX_MAX_NSLEN + 1`).
pub const NSPACE_FIELD: usize = 256;

/// The kind of process that connects (the handshake flag byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PeerKind {
    SimpleClient = 0,
    LegacyTool = 1,
    LegacyLauncher = 2,
    ToolNeedsId = 3,
    ToolGivenId = 4,
    ToolClient = 5,
    LauncherNeedsId = 6,
    LauncherGivenId = 7,
    LauncherClient = 8,
    SingletonClient = 9,
    SchedulerWithId = 10,
}

impl PeerKind {
    fn from_u8(b: u8) -> Option<PeerKind> {
        use PeerKind::*;
        Some(match b {
            0 => SimpleClient,
            1 => LegacyTool,
            2 => LegacyLauncher,
            3 => ToolNeedsId,
            4 => ToolGivenId,
            5 => ToolClient,
            6 => LauncherNeedsId,
            7 => LauncherGivenId,
            8 => LauncherClient,
            9 => SingletonClient,
            10 => SchedulerWithId,
            _ => return None,
        })
    }
    /// Whether the body carries uid and gid before any identity.
    fn has_ids(self) -> bool {
        !matches!(self, PeerKind::SimpleClient)
    }
    /// Whether the body carries an nspace and rank.
    fn has_name(self) -> bool {
        !matches!(
            self,
            PeerKind::LegacyTool
                | PeerKind::LegacyLauncher
                | PeerKind::ToolNeedsId
                | PeerKind::LauncherNeedsId
        )
    }
    /// Whether the peer is a tool or launcher (gets the tool reply).
    pub fn is_tool(self) -> bool {
        !matches!(self, PeerKind::SimpleClient | PeerKind::SingletonClient)
    }
    /// Whether the server must assign the peer an identity.
    pub fn needs_id(self) -> bool {
        matches!(self, PeerKind::ToolNeedsId | PeerKind::LauncherNeedsId)
    }
}

/// The first message of a connection.
#[derive(Debug, Clone, PartialEq)]
pub struct Hello {
    /// Security module ("native", "none", "munge").
    pub psec: PStr,
    pub cred: Vec<u8>,
    pub kind: PeerKind,
    /// Ids stated in the body (tools and launchers); clients state them in the credential.
    pub uid: u32,
    pub gid: u32,
    /// The identity the peer claims (clients, tools given an id).
    pub id: Option<Proc>,
    pub version: PStr,
    pub bfrops: PStr,
    pub buffer_type: BufferType,
    pub gds: PStr,
    /// Attributes a tool sends (its pid, command line, leftovers of tool_init).
    pub info: Vec<Info>,
}

/// A native credential: effective uid and gid in host byte order.
pub fn native_cred(uid: u32, gid: u32) -> Vec<u8> {
    let mut v = uid.to_ne_bytes().to_vec();
    v.extend_from_slice(&gid.to_ne_bytes());
    v
}

/// The uid and gid of a native credential.
pub fn parse_native_cred(c: &[u8]) -> Option<(u32, u32)> {
    if c.len() != 8 {
        return None;
    }
    Some((
        u32::from_ne_bytes([c[0], c[1], c[2], c[3]]),
        u32::from_ne_bytes([c[4], c[5], c[6], c[7]]),
    ))
}

/// Who a self-started peer (a tool, a singleton) says it is in its handshake's info: its
/// pid, and its command line when it can be read, as OpenPMIx's peers send them.
pub fn own_process_info() -> Vec<Info> {
    let mut v = vec![Info::new(
        PMIX_PROC_PID.to_bytes(),
        Value::Pid(std::process::id() as i32),
    )];
    if let Ok(cmd) = std::fs::read("/proc/self/cmdline") {
        let line = cmd
            .split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        v.push(Info::new(
            PMIX_CMD_LINE.to_bytes(),
            Value::String(Some(line.into())),
        ));
    }
    v
}

fn put_str(v: &mut Vec<u8>, s: &[u8]) {
    v.extend_from_slice(s);
    v.push(0);
}

impl Hello {
    /// What this process sends: native security with its own effective uid and gid, the
    /// "v41" format in `mode`, and gds "hash" (protocol notes 6.5: a 4.2 server then sends
    /// everything in the REQ reply). [`Hello::with_gds`] declares another.
    pub fn ours(kind: PeerKind, id: Option<Proc>, mode: BufferType, info: Vec<Info>) -> Hello {
        let (uid, gid) = crate::wire::own_ids();
        Hello {
            psec: "native".into(),
            cred: native_cred(uid, gid),
            kind,
            uid,
            gid,
            id,
            version: crate::wire::VERSION.into(),
            bfrops: "v41".into(),
            buffer_type: mode,
            gds: "hash".into(),
            info,
        }
    }

    /// The same hello declaring gds `gds` (our clients declare "rsshm" when their server
    /// offered it through `PMIX_GDS_MODULE`).
    pub fn with_gds(mut self, gds: &str) -> Hello {
        self.gds = gds.into();
        self
    }

    /// The message bytes: the 16-byte header (length in host order) and the body. No
    /// trailing zero byte (4.2.3 and later do not send one; every version accepts its
    /// absence).
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::new();
        put_str(&mut b, self.psec.as_bytes());
        b.extend_from_slice(&(self.cred.len() as u32).to_be_bytes());
        b.extend_from_slice(&self.cred);
        b.push(self.kind as u8);
        if self.kind.has_ids() {
            b.extend_from_slice(&self.uid.to_be_bytes());
            b.extend_from_slice(&self.gid.to_be_bytes());
        }
        if self.kind.has_name() {
            let id = self.id.clone().unwrap_or_default();
            put_str(&mut b, id.nspace.as_bytes());
            b.extend_from_slice(&id.rank.to_be_bytes());
        }
        put_str(&mut b, self.version.as_bytes());
        put_str(&mut b, self.bfrops.as_bytes());
        b.push(self.buffer_type.wire_value());
        put_str(&mut b, self.gds.as_bytes());
        if !self.info.is_empty() {
            let mut e = Encoder::new(self.buffer_type);
            let n = Value::Size(self.info.len() as u64);
            let infos: Vec<Value> = self
                .info
                .iter()
                .map(|i| Value::Info(Box::new(i.clone())))
                .collect();
            if e.pack(PMIX_SIZE, &[n]).is_ok() && e.pack(PMIX_INFO, &infos).is_ok() {
                b.extend_from_slice(&e.into_bytes());
            }
        }
        let mut out = Vec::with_capacity(16 + b.len());
        out.extend_from_slice(&(-1i32).to_be_bytes());
        out.extend_from_slice(&u32::MAX.to_be_bytes());
        out.extend_from_slice(&(b.len() as u32).to_ne_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&b);
        out
    }

    /// The body length announced by a handshake header; an error when it is over the limit.
    pub fn body_len(header: &[u8; 16]) -> Result<usize> {
        let n = u32::from_ne_bytes([header[8], header[9], header[10], header[11]]) as usize;
        if n == 0 || n > MAX_HELLO {
            return Err(Error::UnpackFailure);
        }
        Ok(n)
    }

    /// Parses a handshake body. Tolerates the 4.2.0-4.2.2 trailing zero byte, a missing
    /// info blob and junk after the blob.
    pub fn parse(body: &[u8]) -> Result<Hello> {
        let mut r = Reader { b: body, pos: 0 };
        let psec = r.cstr()?;
        let clen = r.u32be()? as usize;
        let cred = r.bytes(clen)?.to_vec();
        let kind = PeerKind::from_u8(r.u8()?).ok_or(Error::UnpackFailure)?;
        let (mut uid, mut gid) = (u32::MAX, u32::MAX);
        if kind.has_ids() {
            uid = r.u32be()?;
            gid = r.u32be()?;
        }
        let id = if kind.has_name() {
            let ns = r.cstr()?;
            if ns.len() > crate::codec::MAX_NSPACE_LEN {
                return Err(Error::UnpackFailure);
            }
            Some(Proc::new(ns, r.u32be()?))
        } else {
            None
        };
        let version = r.cstr()?;
        let mut h = Hello {
            psec,
            cred,
            kind,
            uid,
            gid,
            id,
            version,
            bfrops: PStr::new(),
            buffer_type: BufferType::NonDesc,
            gds: PStr::new(),
            info: Vec::new(),
        };
        if h.version.as_bytes().starts_with(b"2.0") && !h.version.as_bytes().starts_with(b"2.0.") {
            return Ok(h);
        }
        h.bfrops = r.cstr()?;
        h.buffer_type = match r.u8()? {
            1 => BufferType::NonDesc,
            2 => BufferType::FullyDesc,
            _ => return Err(Error::UnpackFailure),
        };
        h.gds = r.cstr()?;
        let rest = &body[r.pos..];
        if rest.len() >= 2 {
            let mut d = Decoder::new(h.buffer_type, rest);
            if let Ok(n) = d.unpack(PMIX_SIZE, 1) {
                let n = n.values.first().and_then(Value::as_u64).unwrap_or(0) as usize;
                if n > 0 {
                    let infos = d.unpack(PMIX_INFO, n).map_err(|_| Error::UnpackFailure)?;
                    for v in infos.values {
                        if let Value::Info(i) = v {
                            h.info.push(*i);
                        }
                    }
                }
            }
        }
        Ok(h)
    }
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.pos.checked_add(n).ok_or(Error::UnpackFailure)?;
        let s = self.b.get(self.pos..end).ok_or(Error::UnpackFailure)?;
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }
    fn u32be(&mut self) -> Result<u32> {
        let s = self.bytes(4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn cstr(&mut self) -> Result<PStr> {
        let rest = self.b.get(self.pos..).ok_or(Error::UnpackFailure)?;
        let end = rest
            .iter()
            .position(|&c| c == 0)
            .ok_or(Error::UnpackFailure)?;
        let s = PStr::from(&rest[..end]);
        self.pos += end + 1;
        Ok(s)
    }
}

/// The server's answer to a tool (section 1.6): 528 bytes when an id was assigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolReply {
    pub status: pmix_status_t,
    /// The identity given to a tool that asked for one.
    pub assigned: Option<Proc>,
    pub server: Proc,
    pub cred_status: pmix_status_t,
}

fn put_fixed_ns(v: &mut Vec<u8>, ns: &PStr) {
    let mut f = [0u8; NSPACE_FIELD];
    let n = ns.len().min(NSPACE_FIELD - 1);
    f[..n].copy_from_slice(&ns.as_bytes()[..n]);
    v.extend_from_slice(&f);
}

fn fixed_ns(b: &[u8]) -> PStr {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    PStr::from(&b[..end])
}

impl ToolReply {
    /// The reply bytes (sent raw, without a frame header).
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(528);
        v.extend_from_slice(&(self.status as u32).to_be_bytes());
        if self.status != PMIX_SUCCESS {
            return v;
        }
        if let Some(a) = &self.assigned {
            put_fixed_ns(&mut v, &a.nspace);
            v.extend_from_slice(&a.rank.to_be_bytes());
        }
        put_fixed_ns(&mut v, &self.server.nspace);
        v.extend_from_slice(&self.server.rank.to_be_bytes());
        v.extend_from_slice(&(self.cred_status as u32).to_be_bytes());
        v
    }

    /// How many bytes follow the status for a tool of `kind`.
    pub fn rest_len(kind: PeerKind) -> usize {
        let id = if kind.needs_id() { NSPACE_FIELD + 4 } else { 0 };
        id + NSPACE_FIELD + 4 + 4
    }

    /// Parses the bytes after the status (`rest_len(kind)` of them).
    pub fn parse_rest(status: pmix_status_t, kind: PeerKind, b: &[u8]) -> Result<ToolReply> {
        if b.len() < Self::rest_len(kind) {
            return Err(Error::UnpackFailure);
        }
        let mut pos = 0;
        let proc_at = |pos: &mut usize| {
            let ns = fixed_ns(&b[*pos..*pos + NSPACE_FIELD]);
            let r = &b[*pos + NSPACE_FIELD..*pos + NSPACE_FIELD + 4];
            *pos += NSPACE_FIELD + 4;
            Proc::new(ns, u32::from_be_bytes([r[0], r[1], r[2], r[3]]))
        };
        let assigned = kind.needs_id().then(|| proc_at(&mut pos));
        let server = proc_at(&mut pos);
        let c = &b[pos..pos + 4];
        Ok(ToolReply {
            status,
            assigned,
            server,
            cred_status: u32::from_be_bytes([c[0], c[1], c[2], c[3]]) as i32,
        })
    }
}
