//! The tool role's connection: finding a server (the standard's precedence chain over
//! attributes, the environment and rendezvous files; protocol notes 5.2) and the tool
//! handshake (1.3, 1.6). Once connected a tool is a [`Client`] like any other.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use pmix_sys::*;

use crate::client::{Client, ClientEnv};
use crate::codec::BufferType;
use crate::net::Stream;
use crate::rendezvous;
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::{Hello, PeerKind, ServerUri, ToolReply};
use crate::{Error, Result};

const HANDSHAKE_WAIT: Duration = Duration::from_secs(30);

/// What `PMIx_tool_init` was asked.
#[derive(Debug, Clone, Default)]
pub struct ToolConfig {
    pub info: Vec<Info>,
}

use crate::values::info_value as find;

fn flag(info: &[Info], k: &core::ffi::CStr) -> bool {
    find(info, k).is_some_and(|v| v.as_bool().unwrap_or(true))
}

fn text(info: &[Info], k: &core::ffi::CStr) -> Option<String> {
    find(info, k)
        .and_then(|v| v.as_str())
        .map(|s| s.to_string())
}

pub use crate::rendezvous::system_tmpdir;

use crate::rendezvous::alive;

/// The servers advertised under `dir` (searched recursively, as the reference does) by
/// files whose name starts with `prefix`, skipping files whose server is dead. Nothing is
/// ever deleted: a stale file may belong to someone else.
pub fn search(dir: &Path, prefix: &str) -> Vec<(PathBuf, rendezvous::Rendezvous)> {
    rendezvous::find(dir, 8, |n| n.starts_with(prefix))
        .into_iter()
        .filter_map(|p| {
            let r = rendezvous::read(&p).ok()?;
            r.pid.is_none_or(alive).then_some((p, r))
        })
        .collect()
}

/// The uid that runs process `pid`, if it runs.
fn process_owner(pid: u32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}"))
        .ok()
        .map(|m| m.uid())
}

fn from_file(path: &Path) -> Result<ServerUri> {
    uri_of(&rendezvous::read(path)?)
}

/// The URI a rendezvous file gives, unless its server is dead.
fn uri_of(r: &rendezvous::Rendezvous) -> Result<ServerUri> {
    if r.pid.is_some_and(|p| !alive(p)) {
        // A file left behind by a server that died.
        return Err(Error::Unreach);
    }
    // A file's URI splits at the last '.' (the reference's file reader does; only a URI
    // given directly splits at the first).
    r.server_uri()
}

/// Where to connect, following the standard's order. `Ok(None)`: no server named and none
/// found (the caller decides whether that is an error).
pub fn locate(info: &[Info], host: &str) -> Result<Option<(ServerUri, PeerKind)>> {
    let kind_needs = |launcher: bool, given: bool| match (launcher, given) {
        (false, false) => PeerKind::ToolNeedsId,
        (false, true) => PeerKind::ToolGivenId,
        (true, false) => PeerKind::LauncherNeedsId,
        (true, true) => PeerKind::LauncherGivenId,
    };
    let launcher = flag(info, PMIX_LAUNCHER);
    let given = find(info, PMIX_TOOL_NSPACE).is_some();
    let kind = kind_needs(launcher, given);
    // 1. An explicit URI (or "file:<rendezvous file>").
    for k in [PMIX_SERVER_URI, PMIX_TCP_URI] {
        if let Some(u) = text(info, k) {
            let uri = match u.strip_prefix("file:") {
                Some(f) => from_file(Path::new(f))?,
                None => ServerUri::parse_tool(&u)?,
            };
            return Ok(Some((uri, kind)));
        }
    }
    // 2. An attachment file.
    if let Some(f) = text(info, PMIX_TOOL_ATTACHMENT_FILE) {
        return Ok(Some((from_file(Path::new(&f))?, kind)));
    }
    let sysdir = system_tmpdir(info);
    // 3. The system server. **Difference:** its file is believed only when root or this
    // user made it (the reference reads any: in a shared /tmp another user could plant one
    // and receive the tool's connection and requests).
    let to_system = flag(info, PMIX_CONNECT_TO_SYSTEM);
    if to_system || flag(info, PMIX_CONNECT_SYSTEM_FIRST) {
        let f = sysdir.join(format!("pmix.sys.{host}"));
        let res = if rendezvous::made_by_root_self_or(&f, None) {
            from_file(&f)
        } else {
            Err(Error::NotFound)
        };
        match res {
            Ok(u) => return Ok(Some((u, kind))),
            Err(e) if to_system => return Err(e),
            Err(_) => {}
        }
    }
    // 4, 5. A server named by pid or namespace. **Difference:** by pid, a file is believed
    // only when it names that pid and was made by root, by this user or by the user who runs
    // that process (another user cannot stand in for a server they do not run).
    let pid = find(info, PMIX_SERVER_PIDINFO)
        .and_then(Value::as_u64)
        .and_then(|p| u32::try_from(p).ok());
    let named = pid
        .map(|p| p.to_string())
        .or_else(|| text(info, PMIX_SERVER_NSPACE));
    if let Some(n) = named {
        let name = format!("pmix.{host}.tool.{n}");
        let believed = |path: &Path, r: &rendezvous::Rendezvous| match pid {
            Some(p) => r.pid == Some(p) && rendezvous::made_by_root_self_or(path, process_owner(p)),
            None => true,
        };
        // Where servers write it, at the top of the system tmpdir; only then the search
        // below it, which reads every directory there (a session's can be large).
        let top = sysdir.join(&name);
        if let Ok(r) = rendezvous::read(&top)
            && believed(&top, &r)
            && let Ok(uri) = uri_of(&r)
        {
            return Ok(Some((uri, kind)));
        }
        let found = search(&sysdir, &name);
        let (_, r) = found
            .into_iter()
            .find(|(path, r)| believed(path, r))
            .ok_or(Error::NotFound)?;
        return Ok(Some((r.server_uri()?, kind)));
    }
    // 6. Started by a server: its URI and our identity are in the environment.
    if let Some(env) = ClientEnv::from_env(|k| std::env::var(k).ok())? {
        let kind = if launcher {
            PeerKind::LauncherClient
        } else {
            PeerKind::ToolClient
        };
        return Ok(Some((env.uri, kind)));
    }
    // 7. Any server of this host that advertises itself to tools.
    let found = search(&sysdir, &format!("pmix.{host}.tool"));
    let mut found: Vec<rendezvous::Rendezvous> = found.into_iter().map(|(_, r)| r).collect();
    found.sort_by(|a, b| a.uri.cmp(&b.uri));
    found.dedup_by(|a, b| a.uri == b.uri);
    match found.len() {
        0 => Ok(None),
        1 => Ok(Some((found[0].server_uri()?, kind))),
        // Several servers: the caller must say which (the reference fails the same way).
        _ => Err(Error::Status(PMIX_ERR_UNREACH)),
    }
}

/// Connects as a tool: handshake, identity, job data.
pub fn connect(
    uri: &ServerUri,
    kind: PeerKind,
    id: Option<Proc>,
    blob: Vec<Info>,
) -> Result<Client> {
    let mode = BufferType::from_env();
    let mut s = Stream::connect(uri, HANDSHAKE_WAIT).map_err(|_| Error::Unreach)?;
    s.set_read_timeout(Some(HANDSHAKE_WAIT)).ok();
    let hello = Hello::ours(kind, id.clone(), mode, blob);
    s.write_all(&hello.encode()).map_err(|_| Error::Unreach)?;
    let mut st = [0u8; 4];
    s.read_exact(&mut st).map_err(|_| Error::Unreach)?;
    let status = i32::from_be_bytes(st);
    if status != PMIX_SUCCESS {
        return Err(Error::from_status(status).unwrap_or(Error::Unreach));
    }
    let mut rest = vec![0u8; ToolReply::rest_len(kind)];
    s.read_exact(&mut rest).map_err(|_| Error::Unreach)?;
    let reply = ToolReply::parse_rest(status, kind, &rest)?;
    if reply.cred_status != PMIX_SUCCESS {
        return Err(Error::from_status(reply.cred_status).unwrap_or(Error::Unreach));
    }
    let me = reply.assigned.or(id).ok_or(Error::UnpackFailure)?;
    s.set_read_timeout(None).ok();
    Client::adopt(s, me, reply.server, mode)
}

/// The id a tool that does not connect gives itself: `PMIX_TOOL_NSPACE`/`RANK`, else
/// `<host>.tool.<pid>` rank 0.
pub fn own_id(info: &[Info], host: &str) -> Proc {
    let ns = text(info, PMIX_TOOL_NSPACE)
        .unwrap_or_else(|| format!("{host}.tool.{}", std::process::id()));
    let rank = find(info, PMIX_TOOL_RANK)
        .and_then(Value::as_u64)
        .map_or(0, |r| r as u32);
    Proc::new(PStr::from(ns), rank)
}

/// The given identity, when the caller named one.
pub fn given_id(info: &[Info]) -> Option<Proc> {
    let ns = text(info, PMIX_TOOL_NSPACE)?;
    let rank = find(info, PMIX_TOOL_RANK)
        .and_then(Value::as_u64)
        .map_or(0, |r| r as u32);
    Some(Proc::new(PStr::from(ns), rank))
}

/// The attributes a tool sends in its handshake: its pid, its command line, and what the
/// caller passed that the connection itself does not consume.
pub fn blob(info: &[Info]) -> Vec<Info> {
    let mut v = crate::wire::handshake::own_process_info();
    let consumed = [
        PMIX_TOOL_NSPACE,
        PMIX_TOOL_RANK,
        PMIX_TOOL_DO_NOT_CONNECT,
        PMIX_TOOL_CONNECT_OPTIONAL,
        PMIX_TOOL_ATTACHMENT_FILE,
        PMIX_CONNECT_MAX_RETRIES,
        PMIX_CONNECT_RETRY_DELAY,
    ];
    v.extend(
        info.iter()
            .filter(|i| !consumed.iter().any(|k| i.is(k)))
            .cloned(),
    );
    v
}

/// Retries and delay between them (`PMIX_CONNECT_MAX_RETRIES`, `PMIX_CONNECT_RETRY_DELAY`).
pub fn retries(info: &[Info]) -> (u32, Duration) {
    let n = find(info, PMIX_CONNECT_MAX_RETRIES)
        .and_then(Value::as_u64)
        .map_or(0, |n| n.min(10_000) as u32);
    let d = find(info, PMIX_CONNECT_RETRY_DELAY)
        .and_then(Value::as_u64)
        .map_or(Duration::from_secs(1), |s| Duration::from_secs(s.min(3600)));
    (n, d)
}

/// `PMIx_tool_init`'s connection: with `PMIX_TOOL_DO_NOT_CONNECT` a tool without a server;
/// otherwise the server [`locate`] finds (none found is `Error::Unreach`), retried per
/// [`retries`]; with `PMIX_TOOL_CONNECT_OPTIONAL` a failed connection gives a tool without a
/// server too. `host` is this machine's name as rendezvous files spell it.
pub fn init(info: &[Info], host: &str) -> Result<Client> {
    if do_not_connect(info) {
        return Ok(Client::local(own_id(info, host)));
    }
    let (retries, delay) = retries(info);
    let mut attempt = 0;
    let connected = loop {
        let r = locate(info, host).and_then(|found| {
            let (uri, kind) = found.ok_or(Error::Unreach)?;
            let id = match kind {
                PeerKind::ToolClient | PeerKind::LauncherClient => {
                    ClientEnv::from_env(|k| std::env::var(k).ok())?.map(|e| e.me)
                }
                _ => given_id(info),
            };
            connect(&uri, kind, id, blob(info))
        });
        match r {
            Ok(c) => break Ok(c),
            Err(e) if attempt >= retries => break Err(e),
            Err(_) => {
                attempt += 1;
                std::thread::sleep(delay);
            }
        }
    };
    match connected {
        Ok(c) => Ok(c),
        Err(_) if connect_optional(info) => Ok(Client::local(own_id(info, host))),
        Err(e) => Err(e),
    }
}

/// Whether the tool must not connect, and whether failing to connect is acceptable.
pub fn do_not_connect(info: &[Info]) -> bool {
    flag(info, PMIX_TOOL_DO_NOT_CONNECT)
}

/// Whether a tool may go on without a server.
pub fn connect_optional(info: &[Info]) -> bool {
    flag(info, PMIX_TOOL_CONNECT_OPTIONAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_live_servers_and_skips_dead_ones() {
        let dir = std::env::temp_dir().join(format!("pmix-tool-{}", std::process::id()));
        let live = dir.join("sub/pmix.h.tool.live");
        let dead = dir.join("pmix.h.tool.dead");
        rendezvous::write(
            &live,
            &rendezvous::render(
                "srv.x.0;tcp4://127.0.0.1:9",
                "4.2.2",
                std::process::id(),
                0,
                0,
                None,
            ),
        )
        .unwrap();
        // A pid that cannot exist (above pid_max).
        rendezvous::write(
            &dead,
            &rendezvous::render(
                "old.0;tcp4://127.0.0.1:8",
                "4.2.2",
                4_000_000_000,
                0,
                0,
                None,
            ),
        )
        .unwrap();
        let found = search(&dir, "pmix.h.tool");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1.uri, "srv.x.0;tcp4://127.0.0.1:9");
        assert!(dead.exists(), "a stale file is never removed by a tool");
        let info = vec![Info::new(
            PMIX_SYSTEM_TMPDIR.to_bytes(),
            Value::String(Some(dir.to_str().unwrap().into())),
        )];
        let (uri, kind) = locate(&info, "h").unwrap().unwrap();
        // A namespace with dots (pmixrun's "run.<pid>") splits at the last one in a file.
        assert_eq!(uri.nspace, "srv.x");
        assert_eq!(kind, PeerKind::ToolNeedsId);
        let by_file = vec![Info::new(
            PMIX_SERVER_URI.to_bytes(),
            Value::String(Some(format!("file:{}", dead.display()).into())),
        )];
        assert_eq!(locate(&by_file, "h").unwrap_err(), Error::Unreach);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
