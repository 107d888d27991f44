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
//! ```
//!
//! Unlike the reference (mode 0640), files are readable by their owner only, are written
//! under a temporary name and renamed into place (a reader never sees half a file), and the
//! server removes them when it finalizes.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

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

/// The file's text.
pub fn render(uri: &str, version: &str, pid: u32, uid: u32, gid: u32) -> String {
    format!("{uri}\n{version}\n{pid}\n{uid}:{gid}\n{}\n\n", ctime_now())
}

/// Writes `path` atomically, readable by its owner only; creates the directory (0755) if
/// needed.
pub fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|_| Error::BadParam)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(|_| Error::BadParam)?;
    f.write_all(text.as_bytes()).map_err(|_| Error::BadParam)?;
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
    Ok(Rendezvous {
        uri: uri.to_string(),
        version,
        pid,
        uid: ids.and_then(|(u, _)| u.trim().parse().ok()),
        gid: ids.and_then(|(_, g)| g.trim().parse().ok()),
    })
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
        write(&p, &render("srv.0;tcp4://127.0.0.1:5", "4.2.2", 77, 1, 2)).unwrap();
        let r = read(&p).unwrap();
        assert_eq!(r.uri, "srv.0;tcp4://127.0.0.1:5");
        assert_eq!(r.version, "4.2.2");
        assert_eq!((r.pid, r.uid, r.gid), (Some(77), Some(1), Some(2)));
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert!(text.ends_with("\n\n"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read(&p).unwrap_err(), Error::NotFound);
    }

    #[test]
    fn ctime_has_the_c_layout() {
        let t = ctime_now();
        assert_eq!(t.len(), 24, "{t}");
        assert_eq!(&t[3..4], " ");
    }
}
