//! A job's per-process directories (`PMIX_PROCDIR`, `<session>/<nspace>/<rank>`), made on a
//! thread of their own while the main thread starts the processes.
//!
//! Why a thread: on ext4, `mkdir` of a directory scans the inodes its block group freed in
//! the last seconds (`recently_deleted`), so right after another job's directories were
//! removed, making 1024 of them took 0.4-1 s of one CPU (`perf record` of a 1024-rank
//! `pmixrun`, `docs/bench-scale.md`). Made one by one before the first process started, they
//! delayed the whole job by that much; made here, ahead of the launcher, they overlap with
//! it. A process is started only once its own directory was made (or failed: then, as
//! before, it starts without one).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

#[derive(Default)]
struct Progress {
    /// How many ranks' directories were attempted (0..made).
    made: Mutex<u32>,
    more: Condvar,
    stop: AtomicBool,
}

/// The directories of one job being made; dropping it stops the thread and waits for it,
/// so no directory is made after the launch is over (a failed launch removes the job's).
pub struct ProcDirs {
    nsdir: PathBuf,
    progress: Arc<Progress>,
    thread: Option<JoinHandle<()>>,
}

impl ProcDirs {
    /// Makes `nsdir` now, and the directories of ranks `0..n` in order on a new thread (in
    /// the calling thread, one by one in [`ProcDirs::wait_for`], if no thread can start).
    pub fn start(nsdir: PathBuf, n: u32) -> ProcDirs {
        let _ = std::fs::create_dir_all(&nsdir);
        let progress = Arc::new(Progress::default());
        let (dir, p) = (nsdir.clone(), progress.clone());
        let thread = std::thread::Builder::new()
            .name("pmixrun-procdirs".into())
            .spawn(move || {
                for r in 0..n {
                    if p.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let _ = std::fs::create_dir(dir.join(r.to_string()));
                    *p.made.lock().unwrap_or_else(|e| e.into_inner()) = r + 1;
                    p.more.notify_all();
                }
            })
            .ok();
        ProcDirs {
            nsdir,
            progress,
            thread,
        }
    }

    /// Returns once the directory of `rank` was made (or its making failed).
    pub fn wait_for(&self, rank: u32) {
        if self.thread.is_none() {
            let _ = std::fs::create_dir(self.nsdir.join(rank.to_string()));
            return;
        }
        let mut made = self.progress.made.lock().unwrap_or_else(|e| e.into_inner());
        while *made <= rank {
            made = self
                .progress
                .more
                .wait(made)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for ProcDirs {
    fn drop(&mut self) {
        self.progress.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_directory_exists_once_waited_for() {
        let base = std::env::temp_dir().join(format!("procdirs-{}", std::process::id()));
        let ns = base.join("job.0");
        let dirs = ProcDirs::start(ns.clone(), 64);
        for r in 0..64 {
            dirs.wait_for(r);
            assert!(ns.join(r.to_string()).is_dir(), "rank {r}");
        }
        drop(dirs);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn dropping_stops_the_thread_early() {
        let base = std::env::temp_dir().join(format!("procdirs-stop-{}", std::process::id()));
        let ns = base.join("job.0");
        let dirs = ProcDirs::start(ns.clone(), 100_000);
        dirs.wait_for(0);
        drop(dirs);
        // Nothing is made after the drop returned.
        let n = std::fs::read_dir(&ns).unwrap().count();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(std::fs::read_dir(&ns).unwrap().count(), n);
        assert!(n < 100_000);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
