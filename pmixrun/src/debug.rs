//! Debugger support in pmixrun: the directives of a spawn request that concern debuggers
//! and agents, turned into a [`JobOpts`], and the sizes of jobs of debugger daemons.
//!
//! - `PMIX_DEBUG_STOP_IN_INIT`, `PMIX_DEBUG_STOP_IN_APP` (once `PMIX_DEBUG_WAIT_FOR_NOTIFY`): put
//!   in the job's registration as given; the client library waits in `PMIx_Init` (the
//!   first), the application itself at its own point (the others).
//! - `PMIX_DEBUG_STOP_ON_EXEC`: the selected processes are stopped at their first
//!   instruction (see `sys::ExecSpec::stop_on_exec`) and announced with
//!   `PMIX_READY_FOR_DEBUG`; SIGCONT (`PMIx_Job_control` with `PMIX_JOB_CTRL_RESUME`, or the
//!   debugger) lets them run.
//! - `PMIX_DEBUGGER_DAEMONS` with `PMIX_DEBUG_TARGET` (or the older `PMIX_DEBUG_JOB`): a job
//!   of daemons whose registration names the target; `PMIX_DEBUG_DAEMONS_PER_PROC` and
//!   `_PER_NODE` set its size (one node: per node is the count itself).
//! - `PMIX_FORKEXEC_AGENT`, `PMIX_EXEC_AGENT`: see [`JobOpts`].

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use pmix_core::values::{App, Info, PStr, Proc, Value};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::apps::apps_of_request;
use crate::cli::StdinTarget;
use crate::job::{AppSpec, JobOpts, find, flag, info, string};

/// `PMIX_BREAKPOINT` of a process stopped on exec.
pub const EXEC_BREAKPOINT: &str = "pmix-exec";

/// The debugger attributes pmixrun honours (`PMIX_QUERY_DEBUG_SUPPORT`).
pub const DEBUG_SUPPORT: [&std::ffi::CStr; 8] = [
    PMIX_DEBUG_STOP_IN_INIT,
    PMIX_DEBUG_STOP_ON_EXEC,
    PMIX_DEBUG_STOP_IN_APP,
    PMIX_DEBUGGER_DAEMONS,
    PMIX_DEBUG_TARGET,
    PMIX_DEBUG_DAEMONS_PER_PROC,
    PMIX_DEBUG_DAEMONS_PER_NODE,
    PMIX_BREAKPOINT,
];

/// The spawn directives pmixrun honours (`PMIX_QUERY_SPAWN_SUPPORT`).
pub const SPAWN_SUPPORT: [&std::ffi::CStr; 12] = [
    PMIX_WDIR,
    PMIX_FWD_STDIN,
    PMIX_STDIN_TGT,
    PMIX_DEBUG_STOP_IN_INIT,
    PMIX_DEBUG_STOP_ON_EXEC,
    PMIX_DEBUG_STOP_IN_APP,
    PMIX_DEBUGGER_DAEMONS,
    PMIX_DEBUG_TARGET,
    PMIX_DEBUG_DAEMONS_PER_PROC,
    PMIX_DEBUG_DAEMONS_PER_NODE,
    PMIX_FORKEXEC_AGENT,
    PMIX_EXEC_AGENT,
];

/// A comma-separated list of attribute keys.
pub fn key_list(keys: &[&std::ffi::CStr]) -> String {
    keys.iter()
        .map(|k| k.to_string_lossy())
        .collect::<Vec<_>>()
        .join(",")
}

fn count(v: &Value) -> Option<u32> {
    match *v {
        Value::Uint16(x) => Some(x.into()),
        Value::Uint8(x) => Some(x.into()),
        Value::Uint32(x) | Value::Uint(x) => Some(x),
        Value::Int(x) | Value::Int32(x) => u32::try_from(x).ok(),
        _ => v.as_u64().and_then(|x| u32::try_from(x).ok()),
    }
}

fn words(v: &Value) -> Result<Vec<OsString>> {
    let s = v.as_str().ok_or(Error::BadParam)?;
    let w: Vec<OsString> = s
        .as_bytes()
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| OsString::from_vec(w.to_vec()))
        .collect();
    if w.is_empty() {
        return Err(Error::BadParam);
    }
    Ok(w)
}

/// Applies the job directives pmixrun honours for any job (the debugger's stops, the
/// agents) to `opts`: from a spawn request, or from `PMIX_LAUNCH_DIRECTIVES` in an
/// indirect launch.
pub fn directives(all: &[Info], opts: &mut JobOpts) -> Result<()> {
    // PMIX_DEBUG_STOP_IN_APP is the standard's earlier PMIX_DEBUG_WAIT_FOR_NOTIFY (same key,
    // "pmix.dbg.notify").
    for k in [PMIX_DEBUG_STOP_IN_INIT, PMIX_DEBUG_STOP_IN_APP] {
        if let Some(v) = find(all, k) {
            opts.extra.push(info(k, v.clone()));
        }
    }
    if let Some(v) = find(all, PMIX_DEBUG_STOP_ON_EXEC) {
        opts.stop_on_exec = Some(v.clone());
    }
    if let Some(v) = find(all, PMIX_FORKEXEC_AGENT) {
        opts.forkexec_agent = words(v)?;
    }
    if let Some(v) = find(all, PMIX_EXEC_AGENT) {
        let w = words(v)?;
        opts.exec_agent = w.into_iter().next();
    }
    if let Some(v) = find(all, PMIX_STDIN_TGT) {
        opts.stdin = Some(stdin_target(v)?);
    } else if flag(all, PMIX_FWD_STDIN) {
        // PRRTE's default target: rank 0.
        opts.stdin = Some(StdinTarget::Rank(0));
    }
    Ok(())
}

/// The value of `PMIX_STDIN_TGT`: PRRTE's string ("all", "none" or a rank), a rank (the
/// standard's type; `PMIX_RANK_WILDCARD` is every process) or a proc (the header's type;
/// its rank counts).
fn stdin_target(v: &Value) -> Result<StdinTarget> {
    let rank = match v {
        Value::String(Some(s)) => match s.as_bytes() {
            b"all" => PMIX_RANK_WILDCARD,
            b"none" => return Ok(StdinTarget::None),
            b => std::str::from_utf8(b)
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok())
                .ok_or(Error::BadParam)?,
        },
        Value::Proc(p) => p.rank,
        Value::ProcRank(r) => *r,
        other => count(other).ok_or(Error::BadParam)?,
    };
    Ok(match rank {
        PMIX_RANK_WILDCARD => StdinTarget::All,
        r if r >= PMIX_RANK_VALID => return Err(Error::BadParam),
        r => StdinTarget::Rank(r),
    })
}

/// Applications a spawn request asks to be started as a job of their own next to the
/// others (`PMIX_COSPAWN_APP`, or `PMIX_DEBUGGER_DAEMONS`, in their own infos): debugger
/// daemons co-spawned with their target.
#[derive(Debug)]
pub struct Cospawn {
    pub apps: Vec<AppSpec>,
    pub opts: JobOpts,
    daemons: bool,
    per_proc: Option<u32>,
    per_node: Option<u32>,
}

impl Cospawn {
    /// Aims the co-spawned job at the job just started (`target`, of `size` processes).
    pub fn aim(&mut self, target: &PStr, size: u32) -> Result<()> {
        if self.daemons {
            let t = Proc::new(target.clone(), PMIX_RANK_WILDCARD);
            aim_daemons(
                &mut self.apps,
                &mut self.opts,
                &t,
                size,
                self.per_proc,
                self.per_node,
            )
        } else {
            Ok(())
        }
    }
}

/// Makes a job of debugger daemons target `t` (`targets` processes): its size from the
/// per-process or per-node count, and the target in its information.
fn aim_daemons(
    specs: &mut [AppSpec],
    opts: &mut JobOpts,
    t: &Proc,
    targets: u32,
    per_proc: Option<u32>,
    per_node: Option<u32>,
) -> Result<()> {
    let np = match (per_proc, per_node) {
        (Some(n), _) => Some(n.saturating_mul(targets)),
        (None, Some(n)) => Some(n),
        _ => None,
    };
    if let Some(np) = np {
        if np == 0 || specs.len() != 1 {
            return Err(Error::BadParam);
        }
        specs[0].np = np;
    }
    opts.extra
        .push(info(PMIX_DEBUG_TARGET, Value::Proc(t.clone())));
    opts.extra.push(info(
        PMIX_DEBUG_JOB,
        string(PStr::from(t.nspace.as_bytes())),
    ));
    Ok(())
}

/// A spawn request, ready to start.
#[derive(Debug)]
pub struct Request {
    pub apps: Vec<AppSpec>,
    pub opts: JobOpts,
    pub cospawn: Option<Cospawn>,
}

/// The applications and options of a spawn request (job-level directives first, then
/// those of each application, which apply to the whole job too). `base_env` is the
/// session's environment; `job_size` gives the size of a running job (debugger daemons
/// aimed at it), `None` if there is no such job.
pub fn spawn_request(
    base_env: &[(OsString, OsString)],
    job_size: &dyn Fn(&PStr) -> Option<u32>,
    job_info: &[Info],
    apps: &[App],
) -> Result<Request> {
    let mut apps = apps.to_vec();
    // An application without a process count: "ppr:N:node" mapping (this is one node)
    // gives N; debugger daemons default to one per node.
    let job_daemons = flag(job_info, PMIX_DEBUGGER_DAEMONS);
    for a in apps.iter_mut().filter(|a| a.maxprocs < 1) {
        let mapby = find(&a.info, PMIX_MAPBY)
            .or_else(|| find(job_info, PMIX_MAPBY))
            .and_then(|v| v.as_str().cloned());
        let ppr = mapby.and_then(|m| {
            let m = m.to_string();
            let rest = m.strip_prefix("ppr:")?;
            let (n, unit) = rest.split_once(':')?;
            (unit.starts_with("node")).then(|| n.parse::<i32>().ok())?
        });
        match ppr {
            Some(n) if n > 0 => a.maxprocs = n,
            _ if job_daemons || flag(&a.info, PMIX_DEBUGGER_DAEMONS) => a.maxprocs = 1,
            _ => {}
        }
    }
    // Co-spawn: some applications, not all, marked to be a job of their own.
    let marked = |a: &App| flag(&a.info, PMIX_COSPAWN_APP) || flag(&a.info, PMIX_DEBUGGER_DAEMONS);
    let (co, main): (Vec<App>, Vec<App>) = apps.iter().cloned().partition(|a| marked(a));
    let cospawn = if !co.is_empty() && !main.is_empty() {
        let mut co_info: Vec<Info> = Vec::new();
        for a in &co {
            co_info.extend(a.info.iter().cloned());
        }
        let mut co_opts = JobOpts::default();
        directives(&co_info, &mut co_opts)?;
        let daemons = flag(&co_info, PMIX_DEBUGGER_DAEMONS);
        if daemons {
            co_opts
                .extra
                .push(info(PMIX_DEBUGGER_DAEMONS, Value::Bool(true)));
        }
        let count_of = |k| {
            find(&co_info, k)
                .or_else(|| find(job_info, k))
                .and_then(count)
        };
        apps = main;
        Some(Cospawn {
            apps: apps_of_request(&co, job_info, base_env)?,
            opts: co_opts,
            daemons,
            per_proc: count_of(PMIX_DEBUG_DAEMONS_PER_PROC),
            per_node: count_of(PMIX_DEBUG_DAEMONS_PER_NODE),
        })
    } else {
        None
    };
    let mut all: Vec<Info> = job_info.to_vec();
    for a in &apps {
        all.extend(a.info.iter().cloned());
    }
    let mut specs = apps_of_request(&apps, job_info, base_env)?;
    let mut opts = JobOpts::default();
    directives(&all, &mut opts)?;
    if cospawn.is_none() && flag(&all, PMIX_DEBUGGER_DAEMONS) {
        let target = match find(&all, PMIX_DEBUG_TARGET) {
            Some(Value::Proc(p)) => Some(p.clone()),
            Some(Value::String(Some(s))) => Some(Proc::new(s.clone(), PMIX_RANK_WILDCARD)),
            Some(_) => return Err(Error::BadParam),
            None => match find(&all, PMIX_DEBUG_JOB) {
                Some(Value::String(Some(s))) => Some(Proc::new(s.clone(), PMIX_RANK_WILDCARD)),
                _ => None,
            },
        };
        opts.extra
            .push(info(PMIX_DEBUGGER_DAEMONS, Value::Bool(true)));
        if let Some(t) = target {
            let size = job_size(&t.nspace).ok_or(Error::NotFound)?;
            let targets = if t.rank == PMIX_RANK_WILDCARD {
                size
            } else if t.rank < size {
                1
            } else {
                return Err(Error::NotFound);
            };
            let per_proc = find(&all, PMIX_DEBUG_DAEMONS_PER_PROC).and_then(count);
            let per_node = find(&all, PMIX_DEBUG_DAEMONS_PER_NODE).and_then(count);
            aim_daemons(&mut specs, &mut opts, &t, targets, per_proc, per_node)?;
        }
    }
    if let Some(StdinTarget::Rank(r)) = opts.stdin {
        let size: u32 = specs.iter().map(|a| a.np).sum();
        if r >= size {
            return Err(Error::BadParam);
        }
    }
    Ok(Request {
        apps: specs,
        opts,
        cospawn,
    })
}
