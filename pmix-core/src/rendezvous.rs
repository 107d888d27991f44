//! Rendezvous files: how tools find a server (protocol notes, section 5).
//!
//! A server with tool support writes `pmix.<host>.tool.<pid>` and `pmix.<host>.tool.<nspace>`
//! in its session tmpdir, `pmix.<host>.tool` with session support, `pmix.sys.<host>` in the
//! system tmpdir with system support, and any file named by `PMIX_LAUNCHER_RENDEZVOUS_FILE`.
//! The format is the reference's, so its tools find our servers and the reverse:
//!
//! ```text
//! <uri>                      as in PMIX_SERVER_URI41
//! <version>                  without a leading "v"
//! <pid>
//! <euid>:<egid>
//! <ctime() of the start>     ends with its own newline, then an empty line
//! PMIX_RS_SERVER_UNIX=<name> ours only: the server's Unix socket (`crate::net`)
//! ```
//!
//! The reference's readers stop at line 5, so the seventh line is for our tools alone.
//!
//! Unlike the reference (mode 0640), files are readable by their owner only, are written
//! under a temporary name and renamed into place (a reader never sees half a file), and the
//! server removes them when it finalizes.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Creates `d` with owner-only permissions, or accepts it if it exists as a directory of
/// ours that only we can enter. Anything else there (another user's directory, a link, a
/// directory others may enter) is refused with `AlreadyExists`, never used or changed.
pub fn private_dir(d: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    match std::fs::DirBuilder::new().mode(0o700).create(d) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let m = std::fs::symlink_metadata(d)?;
            let (uid, _) = crate::wire::own_ids();
            if m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0 {
                Ok(())
            } else {
                Err(e)
            }
        }
        Err(e) => Err(e),
    }
}

/// Creates something under a fresh name that others cannot predict: `name` turns a random
/// number into a path, `create` makes it and must fail with `AlreadyExists` rather than take
/// over what is there (`O_EXCL`, `mkdir`). In a shared directory another user may have put
/// anything at a predictable name (a link to a file of ours, a directory of theirs).
pub fn create_fresh<T>(
    name: impl Fn(u64) -> PathBuf,
    create: impl Fn(&Path) -> std::io::Result<T>,
) -> std::io::Result<(T, PathBuf)> {
    use std::hash::{BuildHasher, Hasher};
    let mut last = std::io::Error::from(std::io::ErrorKind::AlreadyExists);
    for _ in 0..16 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        let p = name(h.finish());
        match create(&p) {
            Ok(t) => return Ok((t, p)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Whether `path` is a regular file (not a link) made by root, by this process's user, or by
/// `other`: who may be believed about a server found by looking in a shared directory.
pub fn made_by_root_self_or(path: &Path, other: Option<u32>) -> bool {
    use std::os::unix::fs::MetadataExt;
    let me = crate::wire::own_ids().0;
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.is_file() && (m.uid() == 0 || m.uid() == me || Some(m.uid()) == other))
}

/// The system tmpdir: `PMIX_SYSTEM_TMPDIR` in `info`, else in the environment, else
/// `$TMPDIR`, `$TEMP`, `$TMP`, `/tmp` (where tools and singletons look for system servers).
pub fn system_tmpdir(info: &[crate::values::Info]) -> PathBuf {
    crate::values::info_value(info, pmix_sys::PMIX_SYSTEM_TMPDIR)
        .and_then(|v| v.as_str().map(|s| s.to_string()))
        .or_else(|| std::env::var("PMIX_SYSTEM_TMPDIR").ok())
        .or_else(|| std::env::var("TMPDIR").ok())
        .or_else(|| std::env::var("TEMP").ok())
        .or_else(|| std::env::var("TMP").ok())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp"))
}

/// What a rendezvous file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendezvous {
    pub uri: String,
    /// The version, without a leading "v" (2.0 when the file has none, as the reference
    /// assumes).
    pub version: String,
    pub pid: Option<u32>,
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    /// The start time line (`ctime()` text), if the file has one.
    pub started: Option<String>,
    /// The Unix socket our server offers (the `PMIX_RS_SERVER_UNIX=` line), if any.
    pub unix: Option<String>,
}

impl Rendezvous {
    /// The server the file names, as a client reads a URI (the last `.` splits nspace and
    /// rank), with its Unix socket.
    pub fn server_uri(&self) -> Result<crate::wire::ServerUri> {
        Ok(crate::wire::ServerUri::parse(&self.uri)?.with_unix(self.unix.clone()))
    }
}

/// The current time as C's `ctime()` renders it, in UTC ("Sun Nov 22 09:20:32 2026").
fn ctime_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    crate::print::Tm::utc(secs)
        .and_then(|t| t.asctime())
        .unwrap_or_default()
}

/// The file's text; `unix`: the line naming our server's Unix socket.
pub fn render(
    uri: &str,
    version: &str,
    pid: u32,
    uid: u32,
    gid: u32,
    unix: Option<&str>,
) -> String {
    let mut text = format!("{uri}\n{version}\n{pid}\n{uid}:{gid}\n{}\n\n", ctime_now());
    if let Some(u) = unix {
        text.push_str(&format!("{}={u}\n", crate::net::UNIX_ENV));
    }
    text
}

/// Writes `path` atomically, readable by its owner only; creates the directory (0755) if
/// needed. The text goes to a new file of an unpredictable name beside `path` (never one
/// that exists: in a shared directory another user may have put a link there, to a file of
/// ours we would otherwise overwrite), which is then renamed to `path`.
pub fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|_| Error::BadParam)?;
    }
    // create_new: O_CREAT | O_EXCL, which also refuses a symbolic link of that name.
    let (mut f, tmp) = create_fresh(
        |r| path.with_extension(format!("tmp{}.{r:016x}", std::process::id())),
        |p| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(p)
        },
    )
    .map_err(|_| Error::BadParam)?;
    if f.write_all(text.as_bytes()).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::BadParam);
    }
    drop(f);
    std::fs::rename(&tmp, path).map_err(|_| {
        let _ = std::fs::remove_file(&tmp);
        Error::BadParam
    })
}

/// Reads a rendezvous file (the reference's reader takes line 1, and line 2 as the version).
pub fn read(path: &Path) -> Result<Rendezvous> {
    let text = std::fs::read_to_string(path).map_err(|_| Error::NotFound)?;
    let mut lines = text.lines();
    let uri = lines
        .next()
        .filter(|l| !l.is_empty())
        .ok_or(Error::BadParam)?;
    let version = lines
        .next()
        .map(|v| v.trim_start_matches('v').to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "2.0".into());
    let pid = lines.next().and_then(|l| l.trim().parse().ok());
    let ids = lines.next().and_then(|l| l.split_once(':'));
    let started = lines.next().filter(|l| !l.is_empty()).map(str::to_string);
    let unix = lines
        .filter_map(|l| l.strip_prefix(crate::net::UNIX_ENV)?.strip_prefix('='))
        .find(|u| !u.is_empty())
        .map(str::to_string);
    Ok(Rendezvous {
        uri: uri.to_string(),
        version,
        pid,
        uid: ids.and_then(|(u, _)| u.trim().parse().ok()),
        gid: ids.and_then(|(_, g)| g.trim().parse().ok()),
        started,
        unix,
    })
}

/// The answer to `PMIX_QUERY_AVAIL_SERVERS`: one `PMIX_SERVER_INFO_ARRAY` per server
/// advertised by a `pmix.*` file under `dir` (the system tmpdir, searched recursively as
/// the reference does), each an array of `PMIX_SERVER_NSPACE`, `PMIX_SERVER_RANK`,
/// `PMIX_VERSION_INFO`, then what the file holds of `PMIX_SERVER_PIDINFO` (uint32),
/// `PMIX_USERID`, `PMIX_GRPID` and `PMIX_SERVER_START_TIME`: the reference's layout. A
/// server named by several files is listed once; files that are not ours to read, do not
/// parse, or name a server whose pid no longer runs are skipped (the reference lists the
/// dead too). Sorted by namespace and rank. `Err(NotFound)` when there is none, as from the
/// reference.
pub fn available_servers(dir: &Path) -> Result<Vec<crate::values::Info>> {
    use crate::values::{DataArray, Info, Value};
    use pmix_sys::*;
    let mut seen: Vec<(crate::values::PStr, u32, Rendezvous)> = Vec::new();
    for p in find(dir, 8, |n| n.starts_with("pmix.")) {
        let Ok(r) = read(&p) else { continue };
        if r.pid.is_some_and(|pid| !alive(pid)) {
            continue;
        }
        let Ok(uri) = crate::wire::ServerUri::parse(&r.uri) else {
            continue;
        };
        if !seen
            .iter()
            .any(|(n, k, _)| *n == uri.nspace && *k == uri.rank)
        {
            seen.push((uri.nspace, uri.rank, r));
        }
    }
    if seen.is_empty() {
        return Err(Error::NotFound);
    }
    seen.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let key = |k: &core::ffi::CStr| crate::values::PStr::from(k.to_bytes());
    Ok(seen
        .into_iter()
        .map(|(nspace, rank, r)| {
            let mut items = vec![
                Info::new(key(PMIX_SERVER_NSPACE), Value::String(Some(nspace))),
                Info::new(key(PMIX_SERVER_RANK), Value::ProcRank(rank)),
                Info::new(
                    key(PMIX_VERSION_INFO),
                    Value::String(Some(r.version.into())),
                ),
            ];
            if let Some(pid) = r.pid {
                items.push(Info::new(key(PMIX_SERVER_PIDINFO), Value::Uint32(pid)));
                if let (Some(u), Some(g)) = (r.uid, r.gid) {
                    items.push(Info::new(key(PMIX_USERID), Value::Uint32(u)));
                    items.push(Info::new(key(PMIX_GRPID), Value::Uint32(g)));
                    if let Some(t) = r.started {
                        items.push(Info::new(
                            key(PMIX_SERVER_START_TIME),
                            Value::String(Some(t.into())),
                        ));
                    }
                }
            }
            Info::new(
                key(PMIX_SERVER_INFO_ARRAY),
                Value::DataArray(Box::new(DataArray {
                    ty: PMIX_INFO,
                    items: items
                        .into_iter()
                        .map(|i| Value::Info(Box::new(i)))
                        .collect(),
                })),
            )
        })
        .collect())
}

/// Whether process `pid` exists.
pub fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The regular files under `dir` (down to `max_depth` levels of subdirectories) whose name
/// satisfies `wanted`, sorted. Symbolic links are not followed.
pub fn find(dir: &Path, max_depth: usize, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() && depth < max_depth {
                stack.push((e.path(), depth + 1));
            } else if ft.is_file() && wanted(&e.file_name().to_string_lossy()) {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// Whether `name` is the name of a rendezvous file a server of `host` writes.
pub fn is_rendezvous_name(name: &str, host: &str) -> bool {
    name == format!("pmix.sys.{host}")
        || name
            .strip_prefix(&format!("pmix.{host}.tool"))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// Removes the rendezvous files under `dir` (and `max_depth` levels below) that servers of
/// this user left behind when they died: only files named as a server of `host` names them,
/// owned by `uid`, recording `uid` and a pid that no longer runs. Anything else (another
/// user's file, a live server's, a file that does not parse) stays. Returns what was removed.
pub fn remove_stale(dir: &Path, max_depth: usize, host: &str, uid: u32) -> Vec<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let mut removed = Vec::new();
    for p in find(dir, max_depth, |n| is_rendezvous_name(n, host)) {
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if !meta.is_file() || meta.uid() != uid {
            continue;
        }
        let Ok(r) = read(&p) else { continue };
        let stale = r.uid == Some(uid)
            && r.pid
                .is_some_and(|pid| pid != std::process::id() && !alive(pid));
        if stale && std::fs::remove_file(&p).is_ok() {
            removed.push(p);
        }
    }
    removed
}

/// The files a server writes for its configuration.
pub fn server_files(
    session_dir: &Path,
    system_dir: &Path,
    host: &str,
    nspace: &str,
    tool: bool,
    session: bool,
    system: bool,
) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if tool {
        v.push(session_dir.join(format!("pmix.{host}.tool.{}", std::process::id())));
        v.push(session_dir.join(format!("pmix.{host}.tool.{nspace}")));
    }
    if session {
        v.push(session_dir.join(format!("pmix.{host}.tool")));
    }
    if system {
        v.push(system_dir.join(format!("pmix.sys.{host}")));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_it_reads_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("pmix-rndz-{}", std::process::id()));
        let p = dir.join("pmix.h.tool.1");
        write(
            &p,
            &render("srv.0;tcp4://127.0.0.1:5", "4.2.2", 77, 1, 2, None),
        )
        .unwrap();
        let r = read(&p).unwrap();
        assert_eq!(r.uri, "srv.0;tcp4://127.0.0.1:5");
        assert_eq!(r.version, "4.2.2");
        assert_eq!((r.pid, r.uid, r.gid), (Some(77), Some(1), Some(2)));
        assert_eq!(r.unix, None);
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert!(text.ends_with("\n\n"));
        // With a Unix socket: the reference's six lines unchanged, ours after them.
        let text = render(
            "srv.0;tcp4://127.0.0.1:5",
            "4.2.2",
            77,
            1,
            2,
            Some("pmix-rs.7.ab"),
        );
        write(&p, &text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!((lines.len(), lines[5]), (7, ""));
        assert_eq!(lines[6], "PMIX_RS_SERVER_UNIX=pmix-rs.7.ab");
        let r = read(&p).unwrap();
        assert_eq!((r.pid, r.unix.as_deref()), (Some(77), Some("pmix-rs.7.ab")));
        let uri = r.server_uri().unwrap();
        assert_eq!((uri.rank, uri.unix.as_deref()), (0, Some("pmix-rs.7.ab")));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read(&p).unwrap_err(), Error::NotFound);
    }

    #[test]
    fn a_link_planted_where_the_file_is_written_is_not_followed() {
        let dir = std::env::temp_dir().join(format!("pmix-rndz-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let p = dir.join("pmix.sys.h");
        // The names a writer with a predictable temporary name would use.
        for tmp in [
            p.with_extension(format!("tmp{}", std::process::id())),
            dir.join(format!("pmix.sys.h.tmp{}", std::process::id())),
        ] {
            std::os::unix::fs::symlink(&victim, tmp).unwrap();
        }
        write(
            &p,
            &render("srv.0;tcp4://127.0.0.1:5", "4.2.2", 77, 1, 2, None),
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(read(&p).unwrap().pid, Some(77));
        // No temporary file is left beside it.
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn removes_only_this_users_stale_files() {
        let uid = crate::wire::own_ids().0;
        let dir = std::env::temp_dir().join(format!("pmix-stale-{}", std::process::id()));
        let dead = 4_000_000_000u32; // above pid_max: never a live process
        let me = std::process::id();
        let stale = dir.join("pmixrun.0.1/pmix.h.tool.1");
        let stale_sys = dir.join("pmix.sys.h");
        let live = dir.join("pmix.h.tool.2");
        let other_uid = dir.join("pmix.h.tool.3");
        let other_host = dir.join("pmix.g.tool.4");
        let unrelated = dir.join("pmix.h.toolbox");
        let garbage = dir.join("pmix.h.tool");
        write(
            &stale,
            &render("a.0;tcp4://127.0.0.1:1", "4.2.2", dead, uid, 0, None),
        )
        .unwrap();
        write(
            &stale_sys,
            &render("b.0;tcp4://127.0.0.1:1", "4.2.2", dead, uid, 0, None),
        )
        .unwrap();
        write(
            &live,
            &render("c.0;tcp4://127.0.0.1:1", "4.2.2", me, uid, 0, None),
        )
        .unwrap();
        write(
            &other_uid,
            &render("d.0;tcp4://127.0.0.1:1", "4.2.2", dead, uid + 1, 0, None),
        )
        .unwrap();
        write(
            &other_host,
            &render("e.0;tcp4://127.0.0.1:1", "4.2.2", dead, uid, 0, None),
        )
        .unwrap();
        write(
            &unrelated,
            &render("f.0;tcp4://127.0.0.1:1", "4.2.2", dead, uid, 0, None),
        )
        .unwrap();
        write(&garbage, "").unwrap();
        let removed = remove_stale(&dir, 2, "h", uid);
        assert_eq!(removed, vec![stale_sys.clone(), stale.clone()]);
        assert!(!stale.exists() && !stale_sys.exists());
        for kept in [&live, &other_uid, &other_host, &unrelated, &garbage] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn available_servers_once_each_live_only_sorted() {
        use crate::values::Value;
        let dir = std::env::temp_dir().join(format!("pmix-avail-{}", std::process::id()));
        let me = std::process::id();
        let dead = 4_000_000_000u32;
        assert_eq!(available_servers(&dir).unwrap_err(), Error::NotFound);
        let srv = |ns: &str, pid: u32| {
            render(
                &format!("{ns};tcp4://127.0.0.1:1"),
                "4.2.2",
                pid,
                5,
                6,
                None,
            )
        };
        write(&dir.join("pmix.h.tool.9"), &srv("zz.3", me)).unwrap();
        write(&dir.join("sub/pmix.h.tool.zz"), &srv("zz.3", me)).unwrap();
        write(&dir.join("sub/pmix.sys.h"), &srv("run.1.0", me)).unwrap();
        write(&dir.join("pmix.h.tool.8"), &srv("dead.0", dead)).unwrap();
        write(&dir.join("pmix.junk"), "not a uri\n").unwrap();
        write(&dir.join("other.h.tool"), &srv("other.0", me)).unwrap();
        let got = available_servers(&dir).unwrap();
        let fields: Vec<Vec<(String, Value)>> = got
            .iter()
            .map(|i| {
                assert_eq!(
                    i.key.as_bytes(),
                    pmix_sys::PMIX_SERVER_INFO_ARRAY.to_bytes()
                );
                let Value::DataArray(d) = &i.value else {
                    panic!("{i:?}")
                };
                d.items
                    .iter()
                    .map(|v| match v {
                        Value::Info(i) => (i.key.to_string(), i.value.clone()),
                        other => panic!("{other:?}"),
                    })
                    .collect()
            })
            .collect();
        assert_eq!(fields.len(), 2, "{fields:?}");
        let keys: Vec<&str> = fields[0].iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "pmix.srv.nspace",
                "pmix.srv.rank",
                "pmix.version",
                "pmix.srvr.pidinfo",
                "pmix.euid",
                "pmix.egid",
                "pmix.srv.strtime"
            ]
        );
        assert_eq!(fields[0][0].1, Value::String(Some("run.1".into())));
        assert_eq!(fields[0][1].1, Value::ProcRank(0));
        assert_eq!(fields[1][0].1, Value::String(Some("zz".into())));
        assert_eq!(fields[1][1].1, Value::ProcRank(3));
        assert_eq!(fields[1][3].1, Value::Uint32(me));
        assert_eq!(
            (&fields[1][4].1, &fields[1][5].1),
            (&Value::Uint32(5), &Value::Uint32(6))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ctime_has_the_c_layout() {
        let t = ctime_now();
        assert_eq!(t.len(), 24, "{t}");
        assert_eq!(&t[3..4], " ");
    }
}
