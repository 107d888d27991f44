//! What the integration tests of pmixrun (and of ptools, which includes this file with
//! `#[path]`) share: scratch space under the target directory, our library built and placed
//! as `libpmix.so.2`, and C programs compiled against a chosen header directory.
#![allow(dead_code)] // each test program uses part of it

use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference headers, unless `PMIX_REF_INC` names others.
pub const REF_INC: &str = "/usr/lib/x86_64-linux-gnu/pmix2/include";

/// The directory of the crate whose tests are running.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The reference headers (`PMIX_REF_INC`, default Debian's), checked to be there.
pub fn ref_inc() -> PathBuf {
    let inc = PathBuf::from(std::env::var("PMIX_REF_INC").unwrap_or_else(|_| REF_INC.into()));
    assert!(
        inc.join("pmix.h").exists(),
        "the reference headers are not in {} (install libpmix-dev or set PMIX_REF_INC)",
        inc.display()
    );
    inc
}

/// A fresh scratch directory `<target tmp>/<prefix>.<pid>`, after removing those of earlier
/// runs whose test process is gone.
pub fn scratch_dir(prefix: &str) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dotted = format!("{prefix}.");
    for e in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_prefix(&dotted)
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    let scratch = tmp.join(format!("{prefix}.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    scratch
}

/// `cargo build --release -p` each of `packages` into this test's target directory;
/// returns its `release` directory.
pub fn build_release(packages: &[&str]) -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target dir>/tmp.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--release"]);
    for p in packages {
        cmd.args(["-p", p]);
    }
    let o = cmd
        .arg("--target-dir")
        .arg(&target)
        .current_dir(manifest_dir().parent().expect("workspace"))
        .output()
        .expect("run cargo build");
    assert!(
        o.status.success(),
        "cargo build --release -p {} failed:\n{}",
        packages.join(" -p "),
        String::from_utf8_lossy(&o.stderr)
    );
    target.join("release")
}

/// `lib` placed as `libpmix.so.2` in `<scratch>/ours`, which is returned (for
/// LD_LIBRARY_PATH). Copied under a temporary name and renamed, so that a process of a
/// concurrent test run never maps a half-written file.
pub fn install_library(lib: &Path, scratch: &Path) -> PathBuf {
    let dir = scratch.join("ours");
    std::fs::create_dir_all(&dir).unwrap();
    let tmp = dir.join(format!("libpmix.so.2.{}", std::process::id()));
    std::fs::copy(lib, &tmp)
        .unwrap_or_else(|e| panic!("copy {} to {}: {e}", lib.display(), tmp.display()));
    std::fs::rename(&tmp, dir.join("libpmix.so.2")).unwrap();
    dir
}

/// Our library (the file `PMIXRUN_TEST_OURS_LIB` names, or `cargo build --release -p
/// pmix-ffi`), installed in `scratch` as [`install_library`] does.
pub fn our_library(scratch: &Path) -> PathBuf {
    let lib = match std::env::var_os("PMIXRUN_TEST_OURS_LIB") {
        Some(p) => PathBuf::from(p),
        None => build_release(&["pmix-ffi"]).join("libpmix.so"),
    };
    install_library(&lib, scratch)
}

/// Compiles `src` into `out` against the headers in `inc`, linked with -lpmix.
pub fn cc(src: &Path, out: &Path, inc: &Path, extra: &[&str]) {
    let o = Command::new("cc")
        .args(["-g", "-O1"])
        .args(extra)
        .arg(format!("-I{}", inc.display()))
        .arg(src)
        .arg("-o")
        .arg(out)
        .args(["-lpmix", "-lpthread"])
        .output()
        .expect("run cc");
    assert!(
        o.status.success(),
        "cc {} failed:\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// How many descriptors process `pid` has open.
pub fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count)
}

/// How many descriptors process `pid` has open once the count is back to `want`, or after
/// 5 s (connections that just ended may still be closing).
pub fn open_fds_settled(pid: u32, want: usize) -> usize {
    let start = std::time::Instant::now();
    while open_fds(pid) != want && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    open_fds(pid)
}

/// The resident set of process `pid`, in kB (`VmRSS`).
pub fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
