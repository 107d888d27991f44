//! `PMIx_Spawn` of a launcher tool connected to no server: the library starts the processes
//! itself, as OpenPMIx 5's does (PMIx Standard v5, tools chapter: a debugger that starts its
//! launcher, which then connects back through `PMIX_LAUNCHER_RNDZ_URI`).
//!
//! The job is named `<tool's namespace>:<n>` (n = 1, 2, ... in this process) and registered
//! with the tool's own server (`lifecycle::tool_listen`), so its processes can reach the tool:
//! each gets the server's `setup_fork` variables, `PMIX_SERVER_NSPACE`/`_RANK` equal to its
//! own name (a launcher started this way serves under that name, the one the tool was given),
//! the app's `env` over the tool's environment, the app's `cwd`, and unless `PMIX_NOHUP` the
//! write end of a keepalive pipe (`PMIX_KEEPALIVE_PIPE`) whose read end the tool keeps until
//! the process ends or the tool goes. Output goes where the tool's does. A thread per process
//! waits for it (the library installs no `SIGCHLD` handler); the job is deregistered when all
//! have ended.
//!
//! Unlike 5.0.11, whose forked processes cannot connect as clients (`PMIx_Init` answers
//! `PMIX_ERR_UNREACH` there: it registers no client), ours are registered clients of the tool's
//! server: a PMIx application started this way runs.

use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use pmix_core::server::Server;
use pmix_core::values::info_flag;
use pmix_core::{App, Error, Info, PStr, Proc, Result, Value};
use pmix_sys::*;

/// The number of the next job this process starts.
static NEXT_JOB: AtomicU32 = AtomicU32::new(1);

/// Starts `apps` as one job of `tool` (whose server is `server`); returns its namespace once
/// every process has been started, or the first error (the processes already started keep
/// running, as with the reference).
pub(crate) fn spawn(server: &Server, tool: &Proc, job_info: &[Info], apps: &[App]) -> Result<PStr> {
    let nprocs: u32 = apps
        .iter()
        .map(|a| u32::try_from(a.maxprocs).map_err(|_| Error::BadParam))
        .sum::<Result<u32>>()?;
    if nprocs == 0 {
        return Err(Error::BadParam);
    }
    let nspace = PStr::from(format!(
        "{}:{}",
        tool.nspace,
        NEXT_JOB.fetch_add(1, Ordering::Relaxed)
    ));
    let info = job_data(server, tool, &nspace, nprocs, job_info, apps);
    server.register_nspace(&nspace, nprocs, &info)?;
    // SAFETY: geteuid and getegid cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let nohup = info_flag(job_info, PMIX_NOHUP);
    let started = start_all(server, &nspace, apps, uid, gid, nohup);
    let children = match started {
        Ok(c) => c,
        Err((e, c)) => {
            reap(server.clone(), nspace.clone(), c);
            return Err(e);
        }
    };
    reap(server.clone(), nspace.clone(), children);
    Ok(nspace)
}

/// One started process and the read end of its keepalive pipe.
type Started = (std::process::Child, Option<OwnedFd>);

/// Starts every process of every app in rank order.
fn start_all(
    server: &Server,
    nspace: &PStr,
    apps: &[App],
    uid: u32,
    gid: u32,
    nohup: bool,
) -> std::result::Result<Vec<Started>, (Error, Vec<Started>)> {
    let mut children = Vec::new();
    let mut rank = 0u32;
    for app in apps {
        for _ in 0..app.maxprocs {
            let proc = Proc::new(nspace.clone(), rank);
            rank += 1;
            if let Err(e) = server.register_client(&proc, uid, gid) {
                return Err((e, children));
            }
            match start(server, &proc, app, nohup) {
                Ok(c) => children.push(c),
                Err(e) => return Err((e, children)),
            }
        }
    }
    Ok(children)
}

/// The job data of the new job: what the reference's launcher registers (its id, host, parent,
/// sizes, local leader, the apps) and the caller's job info, environment directives excepted.
fn job_data(
    server: &Server,
    tool: &Proc,
    nspace: &PStr,
    nprocs: u32,
    job_info: &[Info],
    apps: &[App],
) -> Vec<Info> {
    let info = |k: &core::ffi::CStr, v: Value| Info::new(k.to_bytes(), v);
    let peers = (0..nprocs)
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let mut out = vec![
        info(PMIX_JOBID, Value::String(Some(nspace.clone()))),
        info(
            PMIX_HOSTNAME,
            Value::String(Some(server.cfg.hostname.clone())),
        ),
        info(PMIX_PARENT_ID, Value::Proc(tool.clone())),
        info(PMIX_JOB_SIZE, Value::Uint32(nprocs)),
        info(PMIX_MAX_PROCS, Value::Uint32(nprocs)),
        info(PMIX_NODE_SIZE, Value::Uint32(nprocs)),
        info(PMIX_LOCAL_SIZE, Value::Uint32(nprocs)),
        info(PMIX_LOCALLDR, Value::ProcRank(0)),
        info(PMIX_LOCAL_PEERS, Value::String(Some(peers.into()))),
        info(PMIX_JOB_NUM_APPS, Value::Uint32(apps.len() as u32)),
    ];
    out.extend(
        job_info
            .iter()
            .filter(|i| !matches!(i.value, Value::Envar(_)))
            .cloned(),
    );
    out
}

/// Starts one process of `app` as `proc`.
fn start(server: &Server, proc: &Proc, app: &App, nohup: bool) -> Result<Started> {
    let argv: Vec<String> = app.argv.iter().map(|a| a.to_string()).collect();
    let exe = app
        .cmd
        .as_ref()
        .map(|c| c.to_string())
        .or_else(|| argv.first().cloned())
        .ok_or(Error::BadParam)?;
    let mut cmd = Command::new(&exe);
    if let Some((first, rest)) = argv.split_first() {
        cmd.arg0(first).args(rest);
    }
    // The tool's environment, then the app's, then what the server gives its processes.
    for e in &app.env {
        let e = e.to_string();
        if let Some((k, v)) = e.split_once('=') {
            cmd.env(k, v);
        }
    }
    for (k, v) in server.setup_fork(proc) {
        cmd.env(k, v);
    }
    cmd.env("PMIX_SERVER_NSPACE", proc.nspace.to_string())
        .env("PMIX_SERVER_RANK", proc.rank.to_string());
    if let Some(dir) = &app.cwd {
        cmd.current_dir(dir.to_string());
    }
    let keep = if nohup {
        None
    } else {
        let (read, write) = pipe().map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE))?;
        let fd = write.as_raw_fd();
        cmd.env("PMIX_KEEPALIVE_PIPE", fd.to_string());
        // SAFETY: between fork and exec the closure only calls fcntl(2), which is
        // async-signal-safe, on a descriptor the child owns.
        unsafe {
            cmd.pre_exec(move || {
                if libc::fcntl(fd, libc::F_SETFD, 0) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            })
        };
        Some((read, write))
    };
    let child = cmd.spawn().map_err(|e| {
        Error::Status(if e.kind() == std::io::ErrorKind::NotFound {
            PMIX_ERR_JOB_EXE_NOT_FOUND
        } else {
            PMIX_ERR_JOB_FAILED_TO_LAUNCH
        })
    })?;
    // The write end is the child's alone now.
    Ok((child, keep.map(|(read, _write)| read)))
}

/// A close-on-exec pipe: (read end, write end).
fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded: both descriptors are open and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Waits for each process on a thread of its own, then deregisters the job.
fn reap(server: Server, nspace: PStr, children: Vec<Started>) {
    if children.is_empty() {
        server.deregister_nspace(&nspace);
        return;
    }
    let left = std::sync::Arc::new(AtomicU32::new(children.len() as u32));
    for (mut child, keep) in children {
        let (server, nspace, left) = (server.clone(), nspace.clone(), left.clone());
        let spawned = std::thread::Builder::new()
            .name("pmix-forkexec".into())
            .spawn(move || {
                let _ = child.wait();
                drop(keep);
                if left.fetch_sub(1, Ordering::SeqCst) == 1 {
                    server.deregister_nspace(&nspace);
                }
            });
        // Without a thread the process is left to the tool's own reaping.
        drop(spawned);
    }
}
