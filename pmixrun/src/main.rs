//! pmixrun: a one-machine launcher. It hosts our PMIx server (`pmix-core`, no C API in
//! between), registers a job with the information the standard reserves, forks its
//! processes with the environment `setup_fork` gives, answers their requests (fence,
//! publish/lookup, spawn, query, job control, ...), forwards their output and returns the
//! job's exit status.
//!
//! Modules: `cli` (command line), `job` (jobs and their registration), `run` (state and
//! launcher), `host` (the server upcalls), `iof` (output and input forwarding), `lines` (how
//! output is cut into whole lines), `sys` (the only `unsafe` code: fork/exec, signals,
//! waitpid, poll).
#![deny(unsafe_code)]

mod access;
mod apps;
mod cli;
mod debug;
mod host;
mod indirect;
mod iof;
mod job;
mod lines;
mod procdirs;
mod publish;
mod run;
mod sys;

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant};

use pmix_core::net::local_hostname;
use pmix_core::server::ServerConfig;
use pmix_core::values::{PStr, Proc};

use crate::cli::BindTo;
use crate::iof::{Iof, IofOptions};
use crate::job::{AppSpec, NodeFacts};
use crate::run::{Cmd, Core, Run, Setup};

/// The signals the signal thread turns into [`Cmd::Signal`].
const SIGNALS: [i32; 6] = [
    libc::SIGCHLD,
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGUSR1,
    libc::SIGUSR2,
];

/// From SIGTERM to SIGKILL when pmixrun terminates processes.
const GRACE: Duration = Duration::from_secs(2);

/// How long the output of ended processes may take to drain.
const DRAIN: Duration = Duration::from_secs(5);

fn main() {
    std::process::exit(pmixrun());
}

fn pmixrun() -> i32 {
    let cmd = cli::parse(std::env::args_os().collect());
    sys::ensure_std_fds();
    let access = match access::Access::new(sys::uid(), &cmd.cli.allow_user, &cmd.cli.allow_group) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("pmixrun: {e}");
            return 2;
        }
    };
    let here = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pmixrun: cannot read the current directory: {e}");
            return 1;
        }
    };
    // The variables of an indirect launch are pmixrun's, not the job's.
    let env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| !indirect::VARS.iter().any(|v| k == v))
        .collect();

    // The applications, with every program found before anything starts.
    let mut apps = Vec::new();
    for a in &cmd.apps {
        let mut app_env = Vec::new();
        for x in &a.opts.env {
            match x.split_once('=') {
                Some((k, v)) => app_env.push((OsString::from(k), OsString::from(v))),
                None => match std::env::var_os(x) {
                    Some(v) => app_env.push((OsString::from(x), v)),
                    None => eprintln!("pmixrun: warning: -x {x}: {x} is not set; ignored"),
                },
            }
        }
        let cwd = a.opts.wdir.as_ref().map(|w| here.join(w));
        if let Some(w) = &cwd
            && !w.is_dir()
        {
            eprintln!("pmixrun: working directory {} does not exist", w.display());
            return 1;
        }
        let path = apps::env_lookup(&app_env, "PATH").or_else(|| apps::env_lookup(&env, "PATH"));
        let exe = match apps::resolve(&a.cmd[0], cwd.as_deref().unwrap_or(&here), path) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("pmixrun: {e}");
                return e.status();
            }
        };
        apps.push(AppSpec {
            exe,
            argv: a.cmd.clone(),
            env: app_env,
            cwd,
            np: a.opts.np,
        });
    }

    // Before any thread starts: every thread inherits the mask, and only the signal thread
    // takes these signals (with sigwait).
    sys::become_subreaper();
    if let Err(e) = sys::block_signals(&SIGNALS) {
        eprintln!("pmixrun: cannot block signals: {e}");
        return 1;
    }

    let pid = std::process::id();
    let uid = sys::uid();
    let tmp = std::env::var_os("TMPDIR")
        .filter(|t| !t.is_empty())
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    remove_stale_session_dirs(&tmp, uid);
    let session_dir = match make_session_dir(&tmp, uid, pid) {
        Ok(d) => d,
        Err(e) => {
            eprintln!(
                "pmixrun: cannot create a session directory in {}: {e}",
                tmp.display()
            );
            return 1;
        }
    };
    let status = session(cmd.cli, access, apps, env, session_dir.clone(), tmp);
    let _ = std::fs::remove_dir_all(&session_dir);
    status
}

/// The session directory (the server's tmpdir: rendezvous files, segments, each job's and
/// process's directory): `TMPDIR/pmixrun.<uid>.<pid>`, made owner-only. In a shared TMPDIR
/// another user may have made that name first (a directory of theirs, or a link), to have
/// our files where they can read or replace them: such a path is left alone and a name with
/// an unpredictable suffix is made beside it.
fn make_session_dir(tmp: &std::path::Path, uid: u32, pid: u32) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::create_dir_all(tmp)?;
    let base = format!("pmixrun.{uid}.{pid}");
    let first = tmp.join(&base);
    match pmix_core::rendezvous::private_dir(&first) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        r => return r.map(|()| first),
    }
    // A fresh name only: nothing that exists is taken over.
    pmix_core::rendezvous::create_fresh(
        |r| tmp.join(format!("{base}.{r:016x}")),
        |d| std::fs::DirBuilder::new().mode(0o700).create(d),
    )
    .map(|((), d)| d)
}

/// Removes the session directories (`pmixrun.<uid>.<pid>` in `tmp`) that an earlier pmixrun
/// of this user left behind when it was killed: owned by `uid`, and whose pid is dead.
/// Nothing else is touched.
fn remove_stale_session_dirs(tmp: &std::path::Path, uid: u32) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    let prefix = format!("pmixrun.{uid}.");
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            // "<pid>" or "<pid>.<suffix>" (make_session_dir)
            .and_then(|p| p.split('.').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        // symlink_metadata: a link named like a session directory is never followed.
        let ours = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_dir() && m.uid() == uid);
        if ours && pid != std::process::id() && !pmix_core::rendezvous::alive(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn session(
    cli: cli::Cli,
    access: access::Access,
    apps: Vec<AppSpec>,
    env: Vec<(OsString, OsString)>,
    session_dir: PathBuf,
    tmp: PathBuf,
) -> i32 {
    let pid = std::process::id();
    let hostname = local_hostname();
    // Not "pmix...": programs build keys from their namespace (the OpenPMIx examples put
    // "<nspace>-<rank>-local"), and both libraries reserve keys starting with "pmix".
    let base = format!("run.{pid}");
    let cores = match cli.bind_to {
        BindTo::Core => {
            let c = Core::all();
            if c.is_none() {
                eprintln!("pmixrun: warning: no cores found in the topology; not binding");
            }
            c
        }
        BindTo::None => None,
    };
    let slots = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let setup = Setup {
        node: NodeFacts {
            hostname: hostname.clone(),
            session_id: pid,
            slots,
            tmpdir: session_dir.clone(),
            bind_to: if cores.is_some() { "core" } else { "none" },
        },
        base: base.clone(),
        session_dir: session_dir.clone(),
        stdin: cli.stdin,
        cores,
        grace: GRACE,
        uid: sys::uid(),
        gid: sys::gid(),
        env,
        persistent: cli.persistent,
        access,
    };
    let server_cell = Arc::new(OnceLock::new());
    let iof = Arc::new(Iof::new(
        IofOptions {
            tag: cli.tag_output,
            timestamp: cli.timestamp_output,
            merge: cli.merge_stderr_to_stdout,
            dir: cli.output_filename.clone(),
        },
        server_cell.clone(),
    ));
    let (tx, rx) = mpsc::channel();
    let initiator_tx = tx.clone();
    let run = Arc::new(Run::new(setup, iof, server_cell.clone(), tx.clone()));
    let cfg = ServerConfig {
        id: Proc::new(base, 0),
        tmpdir: PStr::from(session_dir.as_os_str().as_encoded_bytes()),
        system_tmpdir: PStr::from(tmp.as_os_str().as_encoded_bytes()),
        hostname,
        port: 0,
        check_peer_uid: true,
        // pmix.<host>.tool.<pid> and .<nspace> in the session directory, for tools.
        tool_support: true,
        // pmix.sys.<host> in the system directory.
        system_support: cli.system_server,
        // A launcher's rendezvous file where the program that started pmixrun wants it.
        rendezvous_file: std::env::var_os("PMIX_LAUNCHER_RENDEZVOUS_FILE")
            .filter(|f| !f.is_empty())
            .map(PathBuf::from),
        ..ServerConfig::default()
    };
    let server = match pmix_core::server::start(Arc::new(host::PmixrunHost::new(run.clone())), cfg)
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pmixrun: cannot start the PMIx server: {e}");
            return 1;
        }
    };
    let _ = server_cell.set(server.clone());
    if let Some(dest) = &cli.report_uri {
        let line = format!("{}\n", server.uri.to_uri());
        let written = match dest.as_str() {
            "-" => std::io::stdout().lock().write_all(line.as_bytes()),
            "+" => std::io::stderr().lock().write_all(line.as_bytes()),
            path => std::fs::write(path, line.as_bytes()),
        };
        if let Err(e) = written {
            eprintln!("pmixrun: cannot write the URI to {dest}: {e}");
        }
    }
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            while let Ok(s) = sys::wait_signal(&SIGNALS) {
                if tx.send(Cmd::Signal(s)).is_err() {
                    break;
                }
            }
        });

    let deadline = cli.timeout.map(|t| Instant::now() + Duration::from_secs(t));
    let mut opts = crate::job::JobOpts {
        psets: cli.pset.clone(),
        ..Default::default()
    };
    // Indirect launch: the initiator is watched, told pmixrun is ready, and releases it.
    let mut initiator = None;
    if let Some(k) = indirect::keepalive_fd() {
        match k {
            Ok(fd) => {
                let gone = initiator_tx.clone();
                let _ = std::thread::Builder::new()
                    .name("keepalive".into())
                    .spawn(move || {
                        sys::wait_eof(fd);
                        let _ = gone.send(Cmd::InitiatorGone);
                    });
            }
            Err(_) => eprintln!("pmixrun: PMIX_KEEPALIVE_PIPE is not a descriptor number; ignored"),
        }
    }
    let mut proceed = true;
    if let Some(uri) = indirect::initiator() {
        let connected = uri.and_then(|u| {
            indirect::rendezvous(
                &u,
                &server.uri.to_uri(),
                &server.cfg.id.nspace,
                initiator_tx.clone(),
            )
        });
        match connected {
            Ok(c) => {
                initiator = Some(c);
                match wait_release(&run, &rx, deadline) {
                    Some(directives) => {
                        if let Err(e) = debug::directives(&directives, &mut opts) {
                            eprintln!("pmixrun: bad launch directives from the initiator: {e}");
                            proceed = false;
                        }
                    }
                    None => proceed = false,
                }
            }
            Err(e) => {
                eprintln!("pmixrun: cannot reach the initiator of this launch: {e}");
                proceed = false;
            }
        }
        if !proceed {
            let mut st = run.lock();
            st.first_failure.get_or_insert(1);
            st.stopping = true;
        }
    }
    drop(initiator_tx);

    // The command line's job. A failure has been reported and what started is being
    // terminated; the loop reaps it.
    if apps.is_empty() || !proceed {
        // --persistent without a program: only tools start jobs.
        if apps.is_empty() && !cli.pset.is_empty() {
            eprintln!("pmixrun: warning: --pset names the command line's job; there is none");
        }
    } else if let Err(e) = run.launch(apps, None, true, opts) {
        let mut st = run.lock();
        st.first_failure.get_or_insert(1);
        st.stopping = true;
        drop(st);
        if !matches!(e, pmix_core::Error::Status(_)) {
            eprintln!("pmixrun: cannot launch the job: {e}");
        }
    }
    main_loop(&run, &rx, deadline, cli.timeout.unwrap_or(0));

    // The end: nothing the job started survives, its output is drained, the waiting
    // requests get their answer, the server stops.
    run.kill_leftovers();
    if !run.iof.wait_idle(DRAIN) {
        eprintln!("pmixrun: warning: some output was still open {DRAIN:?} after the job ended");
    }
    run.flush_lookups();
    while let Ok(c) = rx.try_recv() {
        if let Cmd::Spawn { done, .. } = c {
            done(Err(pmix_core::Error::Status(
                pmix_sys::PMIX_ERR_JOB_CANCELED,
            )));
        }
    }
    run.shutdown_server();
    if let Some(c) = initiator {
        let _ = c.finalize();
    }
    run.exit_status()
}

/// Waits for the initiator's release (serving spawn requests and signals meanwhile).
/// Returns its launch directives, or `None` if pmixrun is to stop instead.
fn wait_release(
    run: &Arc<Run>,
    rx: &mpsc::Receiver<Cmd>,
    deadline: Option<Instant>,
) -> Option<Vec<pmix_core::values::Info>> {
    loop {
        let got = match deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        let got = match got {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                eprintln!("pmixrun: --timeout passed while waiting for the initiator's release");
                run.lock().timed_out = true;
                return None;
            }
            other => other.map_err(|_| ()),
        };
        match got {
            Ok(Cmd::Released(d)) => return Some(d),
            Ok(Cmd::InitiatorGone) => {
                eprintln!("pmixrun: the initiator of this launch is gone before releasing it");
                return None;
            }
            Ok(Cmd::Signal(libc::SIGCHLD)) => run.reap(),
            Ok(Cmd::Signal(s)) => {
                on_signal(run, s);
                if run.lock().stopping {
                    return None;
                }
            }
            Ok(Cmd::Stop) => {
                run.lock().stopped_by_tool = true;
                return None;
            }
            Ok(Cmd::Spawn {
                requester,
                req,
                done,
            }) => run.spawn(requester, *req, done),
            Err(_) => return None,
        }
    }
}

fn main_loop(run: &Arc<Run>, rx: &mpsc::Receiver<Cmd>, deadline: Option<Instant>, timeout: u64) {
    loop {
        run.reap();
        let now = Instant::now();
        run.escalate(now);
        run.expire_lookups(now);
        if let Some(d) = deadline
            && now >= d
            && !run.lock().timed_out
        {
            run.lock().timed_out = true;
            eprintln!("pmixrun: the job ran longer than --timeout {timeout} s; terminating it");
            run.terminate_all();
        }
        if !run.busy() {
            break;
        }
        let mut wait = Duration::from_millis(500);
        for d in run.next_deadline().into_iter().chain(deadline) {
            wait = wait.min(d.saturating_duration_since(now));
        }
        match rx.recv_timeout(wait) {
            Ok(Cmd::Signal(s)) => on_signal(run, s),
            Ok(Cmd::Spawn {
                requester,
                req,
                done,
            }) => run.spawn(requester, *req, done),
            Ok(Cmd::Stop) => {
                eprintln!("pmixrun: terminated by a tool");
                run.lock().stopped_by_tool = true;
                run.terminate_all();
            }
            Ok(Cmd::InitiatorGone) => {
                if !run.lock().stopping {
                    eprintln!("pmixrun: the initiator of this launch is gone; terminating the job");
                    run.lock().first_failure.get_or_insert(1);
                    run.terminate_all();
                }
            }
            Ok(Cmd::Released(_)) => {}
            Err(_) => {}
        }
    }
}

fn on_signal(run: &Run, sig: i32) {
    match sig {
        libc::SIGCHLD => {}
        libc::SIGUSR1 | libc::SIGUSR2 => run.forward_signal(sig, false),
        _ => {
            let count = {
                let mut st = run.lock();
                st.stopping = true;
                st.interrupted.get_or_insert(sig);
                st.interrupts += 1;
                st.interrupts
            };
            let name = sys::signal_name(sig);
            if count == 1 {
                eprintln!("pmixrun: received {name}; forwarding it to the job");
                run.forward_signal(sig, true);
            } else {
                eprintln!("pmixrun: received {name} again; killing the job");
                run.forward_signal(libc::SIGKILL, true);
            }
        }
    }
}
