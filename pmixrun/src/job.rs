//! Jobs as pmixrun keeps them, and the information it registers for each with the server
//! (`PMIx_server_register_nspace`): the job, node, application and process data the
//! standard reserves keys for, laid out as PRRTE lays them out (job-level keys, one
//! `PMIX_NODE_INFO_ARRAY`, one `PMIX_APP_INFO_ARRAY` per application, one `PMIX_PROC_DATA`
//! array per rank), plus job-level copies of the node keys for clients that read them there.

use std::ffi::{CStr, OsString};
use std::path::PathBuf;
use std::time::Instant;

use pmix_core::regex::{node_map_of, proc_map_of};
use pmix_core::values::{DataArray, Info, PStr, Proc, Value};
use pmix_sys::*;

use crate::sys::{Exit, Pid};

/// One application of a job, ready to execute.
#[derive(Debug, Clone)]
pub struct AppSpec {
    /// The program file, resolved (absolute, or relative to `cwd`).
    pub exe: PathBuf,
    /// The arguments, `argv[0]` as the user gave it.
    pub argv: Vec<OsString>,
    /// Variables set on top of pmixrun's own environment (later entries win).
    pub env: Vec<(OsString, OsString)>,
    /// Working directory (absolute); `None` for pmixrun's.
    pub cwd: Option<PathBuf>,
    pub np: u32,
}

/// How a job is to be started, beyond its applications: what a spawn request's directives
/// (or the command line) ask for.
#[derive(Debug, Clone, Default)]
pub struct JobOpts {
    /// Job-level keys registered as given, for the processes to read: the debugger
    /// directives (`PMIX_DEBUG_STOP_IN_INIT`, `_STOP_IN_APP`) and, for
    /// a job of debugger daemons, `PMIX_DEBUGGER_DAEMONS`, `PMIX_DEBUG_TARGET`,
    /// `PMIX_DEBUG_JOB`.
    pub extra: Vec<Info>,
    /// `PMIX_DEBUG_STOP_ON_EXEC`: its value, to select the ranks stopped at exec.
    pub stop_on_exec: Option<Value>,
    /// `PMIX_FORKEXEC_AGENT`: a command line executed in place of each process, with the
    /// process's own command line appended.
    pub forkexec_agent: Vec<OsString>,
    /// `PMIX_EXEC_AGENT`: a program executed in place of each process, with the
    /// process's command line as arguments and its identity in the environment.
    pub exec_agent: Option<OsString>,
    /// Process sets holding every process of the job (`--pset`).
    pub psets: Vec<String>,
    /// The client or tool that asked for the job (spawn).
    pub requester: Option<Proc>,
    /// Which processes of a spawned job get a stdin feed for tools' `PMIx_IOF_push`
    /// (`PMIX_FWD_STDIN`, `PMIX_STDIN_TGT`); `None`: every process reads `/dev/null`.
    /// The command line's job follows `--stdin` instead.
    pub stdin: Option<crate::cli::StdinTarget>,
}

impl JobOpts {
    /// Whether rank `rank` of `nspace` is to stop at exec.
    pub fn stops_on_exec(&self, nspace: &PStr, rank: u32) -> bool {
        self.stop_on_exec
            .as_ref()
            .is_some_and(|v| pmix_core::debugger::selects(v, nspace, rank))
    }
}

/// Where a process is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcState {
    /// Registered, not forked yet.
    Pending,
    Running,
    Ended(Exit),
    /// The program could not be executed (or a job failed before the fork).
    FailedToStart,
}

/// One process of a job.
#[derive(Debug, Clone)]
pub struct ProcRec {
    pub rank: u32,
    pub app: u32,
    pub app_rank: u32,
    /// Rank among every process pmixrun started on this node, across jobs.
    pub node_rank: u32,
    pub pid: Option<Pid>,
    pub state: ProcState,
    /// Killed on pmixrun's own initiative (job control, abort, clean-up): its end is not a
    /// failure of the job.
    pub kill_expected: bool,
    /// When to send SIGTERM if it is still alive (after a peer failed: the notice period
    /// in which it may end on its own).
    pub term_at: Option<Instant>,
    /// When to escalate to SIGKILL if it is still alive.
    pub kill_at: Option<Instant>,
    /// The CPUs it is bound to: list syntax ("0,4") and indices.
    pub cpus: Option<(String, Vec<usize>)>,
    pub locality: Option<String>,
    pub connected: bool,
    pub finalized: bool,
}

impl ProcRec {
    pub fn alive(&self) -> bool {
        self.state == ProcState::Running
    }
}

/// A job: the command line's, or one a client or tool spawned.
#[derive(Debug)]
pub struct Job {
    pub nspace: PStr,
    pub apps: Vec<AppSpec>,
    pub procs: Vec<ProcRec>,
    /// The process that spawned it.
    pub parent: Option<Proc>,
    /// The job of the command line.
    pub initial: bool,
    /// Ranks of earlier jobs (`PMIX_NPROC_OFFSET`, base of `PMIX_GLOBAL_RANK`).
    pub offset: u32,
    pub nsdir: PathBuf,
    pub registered: bool,
    /// Every process has ended and the end was reported.
    pub ended: bool,
    /// The first process that failed (exit status not 0, signal), and how.
    pub failure: Option<(u32, Exit)>,
    /// Set when pmixrun decided to terminate the job.
    pub terminating: bool,
    pub opts: JobOpts,
}

impl Job {
    pub fn size(&self) -> u32 {
        self.procs.len() as u32
    }

    pub fn proc(&self, rank: u32) -> Proc {
        Proc::new(self.nspace.clone(), rank)
    }

    /// Whether any process is still running or yet to start.
    pub fn live(&self) -> bool {
        self.procs
            .iter()
            .any(|p| matches!(p.state, ProcState::Running | ProcState::Pending))
    }

    /// `PMIX_JOB_STATE` of the job.
    pub fn state(&self) -> pmix_job_state_t {
        if self.live() {
            if self.procs.iter().any(|p| p.state == ProcState::Pending) {
                PMIX_JOB_STATE_LAUNCH_UNDERWAY
            } else {
                PMIX_JOB_STATE_RUNNING
            }
        } else if self.failure.is_some() {
            PMIX_JOB_STATE_TERMINATED_WITH_ERROR
        } else {
            PMIX_JOB_STATE_TERMINATED
        }
    }

    /// `PMIX_PROC_STATE` of one process.
    pub fn proc_state(&self, p: &ProcRec) -> pmix_proc_state_t {
        match p.state {
            ProcState::Pending => PMIX_PROC_STATE_LAUNCH_UNDERWAY,
            ProcState::Running if p.connected && !p.finalized => PMIX_PROC_STATE_CONNECTED,
            ProcState::Running => PMIX_PROC_STATE_RUNNING,
            ProcState::FailedToStart => PMIX_PROC_STATE_FAILED_TO_START,
            ProcState::Ended(_) if p.kill_expected => PMIX_PROC_STATE_KILLED_BY_CMD,
            ProcState::Ended(Exit::Code(0)) => PMIX_PROC_STATE_TERMINATED,
            ProcState::Ended(Exit::Code(_)) => PMIX_PROC_STATE_TERM_NON_ZERO,
            ProcState::Ended(Exit::Signal(_)) => PMIX_PROC_STATE_ABORTED_BY_SIG,
        }
    }
}

/// What the registration of every job shares: this node and the session.
#[derive(Debug, Clone)]
pub struct NodeFacts {
    pub hostname: PStr,
    pub session_id: u32,
    /// `PMIX_UNIV_SIZE` and `PMIX_MAX_PROCS` (at least the job's size).
    pub slots: u32,
    /// `PMIX_TMPDIR`: the session directory.
    pub tmpdir: PathBuf,
    /// `PMIX_BINDTO`.
    pub bind_to: &'static str,
}

pub fn info(key: &CStr, value: Value) -> Info {
    Info::new(key.to_bytes(), value)
}

pub fn string(s: impl Into<PStr>) -> Value {
    Value::String(Some(s.into()))
}

/// A `DATA_ARRAY` of `INFO`, the last element flagged `PMIX_INFO_ARRAY_END` as the
/// reference builds them.
pub fn info_array(mut items: Vec<Info>) -> Value {
    if let Some(last) = items.last_mut() {
        last.flags |= PMIX_INFO_ARRAY_END;
    }
    Value::DataArray(Box::new(DataArray {
        ty: PMIX_INFO,
        items: items
            .into_iter()
            .map(|i| Value::Info(Box::new(i)))
            .collect(),
    }))
}

fn path_string(p: &std::path::Path) -> Value {
    string(PStr::from(p.as_os_str().as_encoded_bytes()))
}

/// "0,1,2": the ranks of a job on the node.
pub fn rank_list(n: u32) -> String {
    (0..n).map(|r| r.to_string()).collect::<Vec<_>>().join(",")
}

/// The registration of `job` (`node_size`: processes on the node, this job's included).
pub fn registration(job: &Job, node: &NodeFacts, node_size: u32) -> pmix_core::Result<Vec<Info>> {
    let n = job.size();
    let slots = node.slots.max(n);
    let host = node.hostname.clone();
    let peers = rank_list(n);
    let mut v = vec![
        info(PMIX_JOBID, string(job.nspace.clone())),
        info(PMIX_SESSION_ID, Value::Uint32(node.session_id)),
        info(PMIX_NPROC_OFFSET, Value::ProcRank(job.offset)),
        info(PMIX_JOB_SIZE, Value::Uint32(n)),
        info(PMIX_UNIV_SIZE, Value::Uint32(slots)),
        info(PMIX_MAX_PROCS, Value::Uint32(slots)),
        info(PMIX_JOB_NUM_APPS, Value::Uint32(job.apps.len() as u32)),
        info(PMIX_NUM_NODES, Value::Uint32(1)),
        info(
            PMIX_NODE_MAP,
            Value::Regex(node_map_of(std::slice::from_ref(&host))?),
        ),
        info(
            PMIX_PROC_MAP,
            Value::Regex(proc_map_of(&[(0..n).collect()])?),
        ),
        info(PMIX_TMPDIR, path_string(&node.tmpdir)),
        info(PMIX_NSDIR, path_string(&job.nsdir)),
        info(PMIX_BINDTO, string(node.bind_to)),
        // Job-level copies of this node's keys (the node array below has them too).
        info(PMIX_HOSTNAME, string(host.clone())),
        info(PMIX_NODEID, Value::Uint32(0)),
        info(PMIX_LOCAL_SIZE, Value::Uint32(n)),
        info(PMIX_NODE_SIZE, Value::Uint32(node_size)),
        info(PMIX_LOCAL_PEERS, string(peers.as_str())),
        info(PMIX_LOCALLDR, Value::ProcRank(0)),
    ];
    // The session: this pmixrun. Clients of the reference find PMIX_SESSION_ID only in a
    // session array.
    v.push(info(
        PMIX_SESSION_INFO_ARRAY,
        info_array(vec![
            info(PMIX_SESSION_ID, Value::Uint32(node.session_id)),
            info(PMIX_UNIV_SIZE, Value::Uint32(slots)),
            info(PMIX_MAX_PROCS, Value::Uint32(slots)),
            info(PMIX_TMPDIR, path_string(&node.tmpdir)),
        ]),
    ));
    if job.apps.len() == 1 {
        // One application: its number is the job's (clients ask for it at job level).
        v.push(info(PMIX_APPNUM, Value::Uint32(0)));
    }
    v.extend(job.opts.extra.iter().cloned());
    if !job.opts.psets.is_empty() {
        v.push(info(
            PMIX_PSET_NAMES,
            Value::DataArray(Box::new(DataArray {
                ty: PMIX_STRING,
                items: job.opts.psets.iter().map(|p| string(p.as_str())).collect(),
            })),
        ));
    }
    if let Some(parent) = &job.parent {
        v.push(info(PMIX_SPAWNED, Value::Bool(true)));
        v.push(info(PMIX_PARENT_ID, Value::Proc(parent.clone())));
    }
    v.push(info(
        PMIX_NODE_INFO_ARRAY,
        info_array(vec![
            info(PMIX_HOSTNAME, string(host.clone())),
            info(PMIX_NODEID, Value::Uint32(0)),
            info(PMIX_NODE_SIZE, Value::Uint32(node_size)),
            info(PMIX_LOCAL_SIZE, Value::Uint32(n)),
            info(PMIX_LOCALLDR, Value::ProcRank(0)),
            info(PMIX_LOCAL_PEERS, string(peers.as_str())),
        ]),
    ));
    let mut first = 0u32;
    for (i, app) in job.apps.iter().enumerate() {
        let argv: Vec<String> = app
            .argv
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let mut items = vec![
            info(PMIX_APPNUM, Value::Uint32(i as u32)),
            info(PMIX_APP_SIZE, Value::Uint32(app.np)),
            info(PMIX_APPLDR, Value::ProcRank(first)),
            info(PMIX_APP_ARGV, string(argv.join(" "))),
        ];
        if let Some(cwd) = &app.cwd {
            items.push(info(PMIX_WDIR, path_string(cwd)));
        } else if let Ok(cwd) = std::env::current_dir() {
            items.push(info(PMIX_WDIR, path_string(&cwd)));
        }
        v.push(info(PMIX_APP_INFO_ARRAY, info_array(items)));
        first += app.np;
    }
    for p in &job.procs {
        let mut items = vec![
            info(PMIX_RANK, Value::ProcRank(p.rank)),
            info(PMIX_LOCAL_RANK, Value::Uint16(p.rank as u16)),
            info(PMIX_NODE_RANK, Value::Uint16(p.node_rank as u16)),
            info(PMIX_GLOBAL_RANK, Value::ProcRank(job.offset + p.rank)),
            info(PMIX_APPNUM, Value::Uint32(p.app)),
            info(PMIX_APP_RANK, Value::ProcRank(p.app_rank)),
            info(PMIX_HOSTNAME, string(host.clone())),
            info(PMIX_NODEID, Value::Uint32(0)),
            info(PMIX_REINCARNATION, Value::Uint32(0)),
            info(
                PMIX_PROCDIR,
                path_string(&job.nsdir.join(p.rank.to_string())),
            ),
        ];
        if let Some((list, _)) = &p.cpus {
            items.push(info(PMIX_CPUSET, string(list.as_str())));
        }
        if let Some(loc) = &p.locality {
            items.push(info(PMIX_LOCALITY_STRING, string(loc.as_str())));
        }
        if let Some(parent) = &job.parent {
            items.push(info(PMIX_PARENT_ID, Value::Proc(parent.clone())));
        }
        if !job.opts.psets.is_empty() {
            items.push(info(
                PMIX_PSET_NAMES,
                Value::DataArray(Box::new(DataArray {
                    ty: PMIX_STRING,
                    items: job.opts.psets.iter().map(|p| string(p.as_str())).collect(),
                })),
            ));
        }
        v.push(info(PMIX_PROC_DATA, info_array(items)));
    }
    Ok(v)
}

/// "0-3,8": a list of CPU indices in hwloc's list syntax.
pub fn cpu_list(cpus: &[usize]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// Whether `i` has the key `k`.
pub fn key_is(i: &Info, k: &std::ffi::CStr) -> bool {
    i.key.as_bytes() == k.to_bytes()
}

/// The value of the first info with key `k`.
pub fn find<'a>(info: &'a [Info], k: &std::ffi::CStr) -> Option<&'a Value> {
    pmix_core::values::info_value(info, k)
}

/// Whether `k` is present with the value true (a non-boolean value is not a yes).
pub fn flag(info: &[Info], k: &std::ffi::CStr) -> bool {
    find(info, k).is_some_and(|v| v.as_bool().unwrap_or(false))
}

/// An integer of any integer type.
pub fn int_of(v: &Value) -> Option<i64> {
    match *v {
        Value::Int(x) | Value::Int32(x) => Some(x.into()),
        Value::Int16(x) => Some(x.into()),
        Value::Int8(x) => Some(x.into()),
        Value::Int64(x) => Some(x),
        _ => v.as_u64().and_then(|x| i64::try_from(x).ok()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(cpu_list(&[]), "");
        assert_eq!(cpu_list(&[3]), "3");
        assert_eq!(cpu_list(&[0, 1, 2, 3, 8]), "0-3,8");
        assert_eq!(cpu_list(&[5, 1, 4]), "1,4-5");
    }

    #[test]
    fn rank_lists() {
        assert_eq!(rank_list(1), "0");
        assert_eq!(rank_list(3), "0,1,2");
    }
}
