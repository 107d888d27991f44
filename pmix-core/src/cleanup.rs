//! Files and directories a client asks its server to remove when it ends
//! (`PMIx_Job_control` with `PMIX_REGISTER_CLEANUP` / `PMIX_REGISTER_CLEANUP_DIR`).
//!
//! The reference server removes what it is told, with its own privileges. A server often runs
//! as root (slurmstepd), so here nothing is removed that the client itself could not have
//! removed: only entries owned by the client's registered uid, never through a symbolic link,
//! and never a path listed with `PMIX_CLEANUP_IGNORE`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use pmix_sys::*;

use crate::values::Info;

/// The cleanup directives of one request, and whether anything else was asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cleanup {
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
    pub ignore: Vec<PathBuf>,
    pub recursive: bool,
    pub empty_only: bool,
    pub leave_topdir: bool,
}

fn path(i: &Info) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let s = i.value.as_str()?;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(s.as_bytes())))
}

impl Cleanup {
    /// Splits job-control directives into cleanup registrations and the rest.
    pub fn split(directives: &[Info]) -> (Cleanup, Vec<Info>) {
        let mut c = Cleanup::default();
        let mut rest = Vec::new();
        for i in directives {
            let flag = || i.value.as_bool().unwrap_or(true);
            if i.is(PMIX_REGISTER_CLEANUP) {
                c.files.extend(path(i));
            } else if i.is(PMIX_REGISTER_CLEANUP_DIR) {
                c.dirs.extend(path(i));
            } else if i.is(PMIX_CLEANUP_IGNORE) {
                c.ignore.extend(path(i));
            } else if i.is(PMIX_CLEANUP_RECURSIVE) {
                c.recursive = flag();
            } else if i.is(PMIX_CLEANUP_EMPTY) {
                c.empty_only = flag();
            } else if i.is(PMIX_CLEANUP_LEAVE_TOPDIR) {
                c.leave_topdir = flag();
            } else {
                rest.push(i.clone());
            }
        }
        (c, rest)
    }

    /// Whether the request registered anything.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.dirs.is_empty() && self.ignore.is_empty()
    }

    /// Removes what was registered, as `uid` may (see the module documentation).
    pub fn run(&self, uid: u32) {
        for f in &self.files {
            if !self.ignored(f) && owned_plain(f, uid, false) {
                let _ = std::fs::remove_file(f);
            }
        }
        for d in &self.dirs {
            if self.ignored(d) || !owned_plain(d, uid, true) {
                continue;
            }
            if self.recursive && !self.empty_only {
                self.clear(d, uid);
            }
            if !self.leave_topdir {
                // Removes the directory only if it is (now) empty.
                let _ = std::fs::remove_dir(d);
            }
        }
    }

    fn ignored(&self, p: &Path) -> bool {
        self.ignore.iter().any(|i| p.starts_with(i))
    }

    fn clear(&self, dir: &Path, uid: u32) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if self.ignored(&p) {
                continue;
            }
            let Ok(m) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            if m.uid() != uid {
                continue;
            }
            if m.is_dir() {
                self.clear(&p, uid);
                let _ = std::fs::remove_dir(&p);
            } else {
                // Files and symbolic links themselves (never what a link points to).
                let _ = std::fs::remove_file(&p);
            }
        }
    }
}

/// Whether `p` is owned by `uid` and is a directory (`dir`) or a file, not a symbolic link.
fn owned_plain(p: &Path, uid: u32, dir: bool) -> bool {
    match std::fs::symlink_metadata(p) {
        Ok(m) => m.uid() == uid && !m.file_type().is_symlink() && m.is_dir() == dir,
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::Value;

    fn info(k: &core::ffi::CStr, v: Value) -> Info {
        Info::new(k.to_bytes(), v)
    }

    #[test]
    fn splits_and_removes_only_what_the_owner_could() {
        let base = std::env::temp_dir().join(format!("pmix-cleanup-{}", std::process::id()));
        let keep = base.join("keep");
        std::fs::create_dir_all(base.join("sub/deeper")).unwrap();
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::write(base.join("sub/deeper/f"), b"x").unwrap();
        std::fs::write(keep.join("k"), b"x").unwrap();
        let outside =
            std::env::temp_dir().join(format!("pmix-cleanup-target-{}", std::process::id()));
        std::fs::write(&outside, b"must survive").unwrap();
        std::os::unix::fs::symlink(&outside, base.join("link")).unwrap();
        let dirs = [
            info(
                PMIX_REGISTER_CLEANUP_DIR,
                Value::String(Some(base.to_str().unwrap().into())),
            ),
            info(PMIX_CLEANUP_RECURSIVE, Value::Bool(true)),
            info(
                PMIX_CLEANUP_IGNORE,
                Value::String(Some(keep.to_str().unwrap().into())),
            ),
            info(PMIX_JOB_CTRL_KILL, Value::Bool(true)),
        ];
        let (c, rest) = Cleanup::split(&dirs);
        assert_eq!(rest.len(), 1);
        assert!(c.recursive && !c.is_empty());
        // Another owner: nothing happens.
        c.run(crate::wire::own_ids().0.wrapping_add(1));
        assert!(base.join("sub/deeper/f").exists());
        c.run(crate::wire::own_ids().0);
        assert!(!base.join("sub").exists());
        assert!(!base.join("link").exists());
        assert!(outside.exists(), "the link's target survives");
        assert!(keep.join("k").exists(), "ignored paths survive");
        assert!(
            base.exists(),
            "a directory that still holds something stays"
        );
        std::fs::remove_dir_all(&base).unwrap();
        std::fs::remove_file(&outside).unwrap();
    }
}
