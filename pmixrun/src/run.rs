//! The state of a pmixrun session and the launcher: creating jobs, registering them,
//! forking their processes, reaping them, terminating them, and reporting their end.
//!
//! Threads. The main thread runs [`Run::main_loop`]: it alone forks (so that the children's
//! `PR_SET_PDEATHSIG`, tied to the forking thread, lasts as long as pmixrun) and reaps. The
//! server's progress thread runs the upcalls of `host.rs`, which read and change the state
//! under [`Run::state`] and hand work that forks (spawn) to the main thread as a [`Cmd`].
//! A signal thread turns SIGCHLD, SIGINT, SIGTERM, ... into [`Cmd::Signal`]s. Locks: only
//! `state`; it may be held while calling the server (the server never calls the host with
//! a lock of its own held), never while calling a `Done`.

use std::collections::HashMap;
use std::ffi::{CString, OsStr, OsString};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use pmix_core::Error;
use pmix_core::events::Event;
use pmix_core::host::Done;
use pmix_core::server::Server;
use pmix_core::values::{Cpuset, Info, PStr, Proc, Value};
use pmix_sys::*;

use crate::apps::{env_lookup, env_set, resolve};
use crate::cli::StdinTarget;
use crate::iof::Iof;
use crate::job::{self, AppSpec, Job, JobOpts, NodeFacts, ProcRec, ProcState, info};
use crate::procdirs::ProcDirs;
use crate::publish::{HeldLookup, Published};
use crate::sys::{self, Exit, Pid};

/// After a process fails, how long the rest of its job has (having been sent
/// `PMIX_ERR_PROC_ABORTED`) to end on its own before pmixrun sends SIGTERM.
const NOTICE: Duration = Duration::from_secs(1);

/// Work for the main thread.
pub enum Cmd {
    /// A spawn request from a client or tool.
    Spawn {
        requester: Proc,
        req: Box<crate::debug::Request>,
        done: Done<Vec<u8>>,
    },
    /// A signal pmixrun received.
    Signal(i32),
    /// A tool asked pmixrun itself to terminate (job control on its own namespace).
    Stop,
    /// The initiator of an indirect launch released pmixrun, with these launch directives.
    Released(Vec<Info>),
    /// The initiator of an indirect launch is gone (keepalive pipe closed, connection lost).
    InitiatorGone,
}

/// Everything that changes during a session.
#[derive(Default)]
pub struct State {
    /// Every job not yet retired, by index (a persistent pmixrun retires each job once it
    /// has ended: see `job_ended`).
    pub jobs: std::collections::BTreeMap<usize, Job>,
    next_index: usize,
    next_job: u32,
    /// Node ranks handed out so far.
    node_procs: u32,
    /// Ranks of every job so far (the next job's `PMIX_NPROC_OFFSET`).
    total_ranks: u32,
    pub published: Vec<Published>,
    pub held: Vec<HeldLookup>,
    /// The exit status PMIx_Abort asked for.
    pub abort: Option<i32>,
    /// The first failure of a process: its shell status.
    pub first_failure: Option<i32>,
    /// The signal pmixrun was stopped with.
    pub interrupted: Option<i32>,
    /// How many terminating signals pmixrun received.
    pub interrupts: u32,
    pub timed_out: bool,
    /// No new job may start (pmixrun is shutting down).
    pub stopping: bool,
    pub next_context_id: u64,
    pub next_tool: u32,
    /// The namespaces registered for connected tools, deregistered when they leave.
    pub tool_nspaces: std::collections::HashSet<PStr>,
    pub pids: HashMap<Pid, (usize, u32)>,
    /// Groups constructed (their id, members): a fence may name one as a namespace.
    pub groups: HashMap<Vec<u8>, Vec<Proc>>,
    /// Process sets (`--pset`): name and members, in definition order.
    pub psets: Vec<(String, Vec<Proc>)>,
    /// A tool stopped pmixrun (job control on pmixrun's own namespace).
    pub stopped_by_tool: bool,
}

impl State {
    pub fn job(&self, nspace: &PStr) -> Option<&Job> {
        self.jobs.values().find(|j| &j.nspace == nspace)
    }

    pub fn job_mut(&mut self, nspace: &PStr) -> Option<&mut Job> {
        self.jobs.values_mut().find(|j| &j.nspace == nspace)
    }

    fn any_live(&self) -> bool {
        self.jobs.values().any(Job::live)
    }
}

/// Fixed facts of a session.
#[derive(Debug)]
pub struct Setup {
    pub node: NodeFacts,
    /// Prefix of every namespace: "run.<pid>" (jobs are "run.<pid>.<n>").
    pub base: String,
    pub session_dir: PathBuf,
    pub stdin: StdinTarget,
    /// The cores processes are bound to, round robin (`--bind-to core`).
    pub cores: Option<Vec<Core>>,
    /// From SIGTERM to SIGKILL.
    pub grace: Duration,
    pub uid: u32,
    pub gid: u32,
    /// pmixrun's environment, the base of every process's.
    pub env: Vec<(OsString, OsString)>,
    /// Stay up without jobs until stopped (`--persistent`).
    pub persistent: bool,
    /// Whose tools and requests are served (`--allow-user`, `--allow-group`).
    pub access: crate::access::Access,
}

/// A core of this machine, as a binding target.
#[derive(Debug, Clone)]
pub struct Core {
    /// Its CPUs (operating-system indices).
    pub cpus: Vec<usize>,
    /// The same in list syntax (`PMIX_CPUSET`).
    pub list: String,
    /// `PMIX_LOCALITY_STRING` of a process bound to it.
    pub locality: Option<String>,
}

impl Core {
    /// The cores of this machine, from hwloc; `None` if it reports none.
    pub fn all() -> Option<Vec<Core>> {
        use hwlocality::object::types::ObjectType;
        let topo = hwlocality::Topology::new().ok()?;
        let local = pmix_core::topology::local().ok();
        let cores: Vec<Core> = topo
            .objects_with_type(ObjectType::Core)
            .filter_map(|c| c.cpuset())
            .map(|cs| cs.iter_set().map(usize::from).collect::<Vec<_>>())
            .filter(|v| !v.is_empty())
            .map(|cpus| {
                let list = job::cpu_list(&cpus);
                let locality = local.and_then(|t| {
                    let c = Cpuset {
                        source: Some(PStr::from("hwloc")),
                        bitmap: Some(PStr::from(list.as_str())),
                    };
                    t.locality_string(&c).ok().flatten().map(|s| s.to_string())
                });
                Core {
                    cpus,
                    list,
                    locality,
                }
            })
            .collect();
        (!cores.is_empty()).then_some(cores)
    }
}

/// A pmixrun session.
pub struct Run {
    pub setup: Setup,
    pub state: Mutex<State>,
    pub server: Arc<OnceLock<Server>>,
    pub iof: Arc<Iof>,
    tx: mpsc::Sender<Cmd>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run").field("setup", &self.setup).finish()
    }
}

fn cstring(s: &OsStr) -> Option<CString> {
    CString::new(s.as_bytes()).ok()
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Run {
    pub fn new(
        setup: Setup,
        iof: Arc<Iof>,
        server: Arc<OnceLock<Server>>,
        tx: mpsc::Sender<Cmd>,
    ) -> Run {
        Run {
            setup,
            state: Mutex::new(State {
                next_job: 1,
                next_context_id: 1,
                ..State::default()
            }),
            server,
            iof,
            tx,
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn server(&self) -> Option<&Server> {
        self.server.get()
    }

    /// Queues work for the main thread.
    pub fn post(&self, cmd: Cmd) -> bool {
        self.tx.send(cmd).is_ok()
    }

    /// Sends an event from pmixrun (the server's identity) to the clients and tools that
    /// registered for it. Every event pmixrun generates is `PMIX_EVENT_NON_DEFAULT`: a
    /// default handler (which in Open MPI aborts on errors) never sees a job's end.
    pub fn notify(&self, code: pmix_status_t, mut info: Vec<Info>) {
        let Some(server) = self.server() else { return };
        info.push(job::info(PMIX_EVENT_NON_DEFAULT, Value::Bool(true)));
        info.push(job::info(PMIX_EVENT_TIMESTAMP, Value::Time(now_secs())));
        let _ = server.notify(Event {
            code,
            source: server.cfg.id.clone(),
            range: PMIX_RANGE_SESSION,
            info,
        });
    }

    // ---- launching --------------------------------------------------------------------

    /// Creates, registers and starts a job (main thread only). Returns its namespace once
    /// every process has been started; on failure, what was started is being terminated.
    pub fn launch(
        &self,
        apps: Vec<AppSpec>,
        parent: Option<Proc>,
        initial: bool,
        opts: JobOpts,
    ) -> Result<PStr, Error> {
        let (idx, nspace, reg) = {
            let mut st = self.lock();
            if st.stopping {
                return Err(Error::Status(PMIX_ERR_JOB_CANCELED));
            }
            let n = st.next_job;
            st.next_job += 1;
            let nspace = PStr::from(format!("{}.{}", self.setup.base, n));
            let nsdir = self.setup.session_dir.join(nspace.to_string());
            let mut procs = Vec::new();
            let mut rank = 0u32;
            for (a, app) in apps.iter().enumerate() {
                for app_rank in 0..app.np {
                    let node_rank = st.node_procs + rank;
                    let core = self
                        .setup
                        .cores
                        .as_ref()
                        .and_then(|cores| cores.get(node_rank as usize % cores.len().max(1)));
                    let cpus = core.map(|c| (c.list.clone(), c.cpus.clone()));
                    let locality = core.and_then(|c| c.locality.clone());
                    procs.push(ProcRec {
                        rank,
                        app: a as u32,
                        app_rank,
                        node_rank,
                        pid: None,
                        state: ProcState::Pending,
                        kill_expected: false,
                        term_at: None,
                        kill_at: None,
                        cpus,
                        locality,
                        connected: false,
                        finalized: false,
                    });
                    rank += 1;
                }
            }
            st.node_procs += rank;
            let offset = st.total_ranks;
            st.total_ranks += rank;
            if !opts.psets.is_empty() {
                let members: Vec<Proc> = (0..rank).map(|r| Proc::new(nspace.clone(), r)).collect();
                for name in &opts.psets {
                    st.psets.push((name.clone(), members.clone()));
                }
            }
            let job = Job {
                opts,
                nspace: nspace.clone(),
                apps,
                procs,
                parent,
                initial,
                offset,
                nsdir,
                registered: false,
                ended: false,
                failure: None,
                terminating: false,
            };
            let node_size: u32 = st
                .jobs
                .values()
                .map(|j| j.procs.iter().filter(|p| p.alive()).count() as u32)
                .sum::<u32>()
                + rank;
            let reg = job::registration(&job, &self.setup.node, node_size);
            let idx = st.next_index;
            st.next_index += 1;
            st.jobs.insert(idx, job);
            (idx, nspace, reg)
        };
        let result = self.register_and_start(idx, &nspace, reg);
        if let Err(e) = &result {
            let mut st = self.lock();
            let grace = self.setup.grace;
            if let Some(job) = st.jobs.get_mut(&idx) {
                for p in job.procs.iter_mut() {
                    if p.state == ProcState::Pending {
                        p.state = ProcState::FailedToStart;
                    }
                }
                if job.failure.is_none() {
                    job.failure = Some((0, Exit::Code(127)));
                }
                terminate_job(job, grace);
            }
            drop(st);
            if job_is_over(&self.lock(), idx) {
                self.job_ended(idx);
            }
            return Err(e.clone());
        }
        Ok(nspace)
    }

    fn register_and_start(
        &self,
        idx: usize,
        nspace: &PStr,
        reg: pmix_core::Result<Vec<Info>>,
    ) -> Result<(), Error> {
        let server = self.server().ok_or(Error::Init)?.clone();
        let (nprocs, initial, stdin, nsdir) = {
            let st = self.lock();
            let job = &st.jobs[&idx];
            let stdin = if job.initial {
                self.setup.stdin
            } else {
                job.opts.stdin.unwrap_or(StdinTarget::None)
            };
            (job.size(), job.initial, stdin, job.nsdir.clone())
        };
        // Each process's PMIX_PROCDIR, made ahead of the launch below.
        let procdirs = ProcDirs::start(nsdir, nprocs);
        server.register_nspace(nspace, nprocs, &reg?)?;
        for r in 0..nprocs {
            server.register_client(
                &Proc::new(nspace.clone(), r),
                self.setup.uid,
                self.setup.gid,
            )?;
        }
        if let Some(job) = self.lock().jobs.get_mut(&idx) {
            job.registered = true;
        }
        self.notify(
            PMIX_EVENT_JOB_START,
            vec![
                info(
                    PMIX_EVENT_AFFECTED_PROC,
                    Value::Proc(Proc::new(nspace.clone(), PMIX_RANK_WILDCARD)),
                ),
                info(PMIX_NSPACE, job::string(nspace.clone())),
            ],
        );
        // Standard input: a feed per target process. The command line's job is fed by
        // pmixrun's stdin (and tools); a spawned job that asked for one
        // (`PMIX_FWD_STDIN`, `PMIX_STDIN_TGT`) by tools' `PMIx_IOF_push` only.
        let mut stdin_of: HashMap<u32, OwnedFd> = HashMap::new();
        let mut stdin_targets = Vec::new();
        let targets: Vec<u32> = match stdin {
            StdinTarget::Rank(r) if r < nprocs => vec![r],
            StdinTarget::Rank(r) => {
                // A spawn request naming a rank its job lacks is refused before this.
                eprintln!("pmixrun: --stdin {r}: the job has no rank {r}; stdin is not forwarded");
                Vec::new()
            }
            StdinTarget::All => (0..nprocs).collect(),
            StdinTarget::None => Vec::new(),
        };
        for r in targets {
            let p = Proc::new(nspace.clone(), r);
            let rd = self
                .iof
                .stdin_pipe(p.clone())
                .map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE))?;
            stdin_of.insert(r, rd);
            if initial {
                stdin_targets.push(p);
            }
        }
        let devnull = std::fs::File::open("/dev/null")
            .map_err(|_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE))?;
        for r in 0..nprocs {
            let (app, terminating) = {
                let st = self.lock();
                let job = &st.jobs[&idx];
                (
                    job.apps[job.procs[r as usize].app as usize].clone(),
                    job.terminating || st.stopping,
                )
            };
            if terminating {
                return Err(Error::Status(PMIX_ERR_JOB_CANCELED));
            }
            let proc = Proc::new(nspace.clone(), r);
            let mut env = self.setup.env.clone();
            for (k, v) in &app.env {
                env_set(&mut env, k.clone(), v.clone());
            }
            for (k, v) in server.setup_fork(&proc) {
                env_set(&mut env, k.into(), v.into());
            }
            let envp: Vec<CString> = env
                .iter()
                .filter_map(|(k, v)| {
                    let mut kv = k.as_bytes().to_vec();
                    kv.push(b'=');
                    kv.extend_from_slice(v.as_bytes());
                    CString::new(kv).ok()
                })
                .collect();
            let (stop_on_exec, agent) = {
                let st = self.lock();
                let o = &st.jobs[&idx].opts;
                let agent = if !o.forkexec_agent.is_empty() {
                    Some(o.forkexec_agent.clone())
                } else {
                    o.exec_agent.clone().map(|a| vec![a])
                };
                (o.stops_on_exec(nspace, r), agent)
            };
            let (exe, argv) = match agent {
                // The agent runs in the process's place with the process's command line
                // (its program resolved) after its own.
                Some(words) => {
                    let here = app.cwd.clone().unwrap_or_else(|| PathBuf::from("."));
                    let path = env_lookup(&env, "PATH");
                    let agent_exe = resolve(&words[0], &here, path)
                        .map_err(|e| Error::Status(e.pmix_status()))?;
                    let mut argv = words.clone();
                    argv.push(app.exe.clone().into_os_string());
                    argv.extend(app.argv.iter().skip(1).cloned());
                    (agent_exe, argv)
                }
                None => (app.exe.clone(), app.argv.clone()),
            };
            let argv: Vec<CString> = argv.iter().filter_map(|a| cstring(a)).collect();
            let path = cstring(exe.as_os_str()).ok_or(Error::BadParam)?;
            let cwd = match &app.cwd {
                Some(c) => Some(cstring(c.as_os_str()).ok_or(Error::BadParam)?),
                None => None,
            };
            let cpus = self.lock().jobs[&idx].procs[r as usize]
                .cpus
                .clone()
                .map(|c| c.1);
            let oom = |_| Error::Status(PMIX_ERR_OUT_OF_RESOURCE);
            let (out_r, out_w) = sys::pipe().map_err(oom)?;
            let err_pipe = if self.iof.opts.merge {
                None
            } else {
                Some(sys::pipe().map_err(oom)?)
            };
            let stdin_fd = stdin_of.remove(&r);
            let spec = sys::ExecSpec {
                path,
                argv,
                envp,
                cwd,
                stdin: stdin_fd.as_ref().map_or(devnull.as_fd(), |f| f.as_fd()),
                stdout: out_w.as_fd(),
                stderr: err_pipe.as_ref().map_or(out_w.as_fd(), |p| p.1.as_fd()),
                cpus,
                stop_on_exec,
            };
            procdirs.wait_for(r);
            // The state lock is held from before the fork until the pid is recorded: the
            // child may connect, fence with its peers and be queried before this thread runs
            // again, and every upcall that reports it (the proc table, the job's state, its
            // exit) must find it started.
            let mut st = self.lock();
            let spawned = sys::spawn(&spec);
            if let Ok(pid) = spawned {
                if let Some(job) = st.jobs.get_mut(&idx) {
                    let p = &mut job.procs[r as usize];
                    p.pid = Some(pid);
                    p.state = ProcState::Running;
                }
                st.pids.insert(pid, (idx, r));
            }
            drop(st);
            drop(spec);
            drop(out_w);
            drop(stdin_fd);
            let err_r = err_pipe.map(|(rd, wr)| {
                drop(wr);
                rd
            });
            match spawned {
                Ok(pid) => {
                    self.iof
                        .forward(proc.clone(), pid, PMIX_FWD_STDOUT_CHANNEL, out_r, nprocs);
                    if let Some(e) = err_r {
                        self.iof
                            .forward(proc.clone(), pid, PMIX_FWD_STDERR_CHANNEL, e, nprocs);
                    }
                    if stop_on_exec {
                        // Stopped at its first instruction: tell the tools, on its behalf.
                        self.notify(
                            PMIX_READY_FOR_DEBUG,
                            vec![
                                info(PMIX_EVENT_AFFECTED_PROC, Value::Proc(proc.clone())),
                                info(PMIX_BREAKPOINT, job::string(crate::debug::EXEC_BREAKPOINT)),
                                info(PMIX_PROCID, Value::Proc(proc.clone())),
                            ],
                        );
                    }
                }
                Err(e) => {
                    eprintln!(
                        "pmixrun: cannot start rank {r} of {nspace} ({}): {e}",
                        app.exe.display()
                    );
                    let code = if e.kind() == std::io::ErrorKind::NotFound {
                        127
                    } else {
                        126
                    };
                    let mut st = self.lock();
                    st.first_failure.get_or_insert(code);
                    let job = st.jobs.get_mut(&idx).expect("the job being launched");
                    job.procs[r as usize].state = ProcState::FailedToStart;
                    job.failure.get_or_insert((r, Exit::Code(code)));
                    return Err(Error::Status(if code == 127 {
                        PMIX_ERR_JOB_EXE_NOT_FOUND
                    } else {
                        PMIX_ERR_JOB_FAILED_TO_LAUNCH
                    }));
                }
            }
        }
        self.iof.pump_stdin(stdin_targets);
        self.notify(
            PMIX_LAUNCH_COMPLETE,
            vec![
                info(
                    PMIX_EVENT_AFFECTED_PROC,
                    Value::Proc(Proc::new(nspace.clone(), PMIX_RANK_WILDCARD)),
                ),
                info(PMIX_NSPACE, job::string(nspace.clone())),
            ],
        );
        Ok(())
    }

    // ---- termination -------------------------------------------------------------------

    /// Terminates every job (SIGTERM, SIGKILL after the grace period) and refuses new ones.
    pub fn terminate_all(&self) {
        let mut st = self.lock();
        st.stopping = true;
        let grace = self.setup.grace;
        for job in st.jobs.values_mut() {
            terminate_job(job, grace);
        }
    }

    /// Reaps every child that ended (main thread).
    pub fn reap(&self) {
        while let Some((pid, exit)) = sys::try_wait_any() {
            self.on_exit(pid, exit);
        }
    }

    fn on_exit(&self, pid: Pid, exit: Exit) {
        let mut st = self.lock();
        let Some((idx, rank)) = st.pids.remove(&pid) else {
            return;
        };
        let Some(job) = st.jobs.get_mut(&idx) else {
            return;
        };
        let nspace = job.nspace.clone();
        let initial = job.initial;
        let registered = job.registered;
        // Its stdin feed (if any) has no reader any more: its writer thread can end.
        self.iof.end_stdin(&Proc::new(nspace.clone(), rank));
        let p = &mut job.procs[rank as usize];
        p.state = ProcState::Ended(exit);
        p.term_at = None;
        p.kill_at = None;
        let failed = !p.kill_expected && exit != Exit::Code(0);
        let mut fail_all = false;
        if failed {
            match exit {
                Exit::Signal(s) => eprintln!(
                    "pmixrun: rank {rank} (pid {pid}) of job {nspace} was killed by signal {s} ({})",
                    sys::signal_name(s)
                ),
                Exit::Code(c) => eprintln!(
                    "pmixrun: rank {rank} (pid {pid}) of job {nspace} exited with status {c}"
                ),
            }
            job.failure.get_or_insert((rank, exit));
            if job.live() {
                eprintln!("pmixrun: terminating the rest of job {nspace}");
            }
            doom_job(job, NOTICE);
            st.first_failure.get_or_insert(exit.shell_status());
            // A persistent pmixrun outlives the failure of any one job.
            fail_all = initial && !self.setup.persistent;
        }
        // Data published to last as long as the process.
        let me = Proc::new(nspace.clone(), rank);
        st.published
            .retain(|d| !(d.persistence == PMIX_PERSIST_PROC && d.publisher == me));
        if fail_all && st.any_live() {
            st.stopping = true;
            for j in st.jobs.values_mut() {
                doom_job(j, NOTICE);
            }
        }
        let over = job_is_over(&st, idx);
        drop(st);
        if failed && registered {
            // The survivors hear of it before they are terminated (the OpenPMIx "fault"
            // example waits for this event and then finalizes on its own).
            let (code, exit_code) = match exit {
                Exit::Signal(s) => (PMIX_ERR_PROC_ABORTED_BY_SIG, 128 + s),
                Exit::Code(c) => (PMIX_ERR_PROC_ABORTED, c),
            };
            self.notify(
                code,
                vec![
                    info(PMIX_EVENT_AFFECTED_PROC, Value::Proc(me)),
                    info(PMIX_EXIT_CODE, Value::Int(exit_code)),
                ],
            );
        }
        if over {
            self.job_ended(idx);
        }
    }

    /// Reports the end of a job: `PMIX_EVENT_JOB_END`, then deregisters its namespace; a
    /// persistent pmixrun also forgets the job.
    fn job_ended(&self, idx: usize) {
        let (nspace, registered, status, procid, code, requester) = {
            let mut st = self.lock();
            let Some(job) = st.jobs.get_mut(&idx) else {
                return;
            };
            if job.ended {
                return;
            }
            job.ended = true;
            let nspace = job.nspace.clone();
            let (status, procid, code) = match job.failure {
                Some((r, Exit::Signal(s))) => (PMIX_ERR_JOB_ABORTED_BY_SIG, job.proc(r), 128 + s),
                Some((r, Exit::Code(c))) => {
                    let st_code = if job.procs[r as usize].state == ProcState::FailedToStart {
                        PMIX_ERR_JOB_FAILED_TO_LAUNCH
                    } else {
                        PMIX_ERR_JOB_NON_ZERO_TERM
                    };
                    (st_code, job.proc(r), c)
                }
                None if job.terminating => (
                    PMIX_ERR_JOB_KILLED_BY_CMD,
                    Proc::new(nspace.clone(), PMIX_RANK_WILDCARD),
                    0,
                ),
                None => (
                    PMIX_SUCCESS,
                    Proc::new(nspace.clone(), PMIX_RANK_WILDCARD),
                    0,
                ),
            };
            let registered = job.registered;
            let requester = job.opts.requester.clone();
            let ns2 = nspace.clone();
            st.published
                .retain(|d| !(d.persistence == PMIX_PERSIST_APP && d.publisher.nspace == ns2));
            (nspace, registered, status, procid, code, requester)
        };
        if registered {
            let all = Proc::new(nspace.clone(), PMIX_RANK_WILDCARD);
            let mut v = vec![
                info(PMIX_EVENT_AFFECTED_PROC, Value::Proc(all.clone())),
                info(PMIX_JOB_TERM_STATUS, Value::Status(status)),
                info(PMIX_PROCID, Value::Proc(procid)),
                info(PMIX_EXIT_CODE, Value::Int(code)),
                info(PMIX_NSPACE, job::string(nspace.clone())),
            ];
            // The requester of a spawned job is affected by its end too: a reference tool
            // that registered for the end with itself as affected process (as OpenPMIx's
            // example tool does) is then told. The reference's handlers take the list
            // that comes last.
            if let Some(r) = requester {
                v.push(info(
                    PMIX_EVENT_AFFECTED_PROCS,
                    Value::DataArray(Box::new(pmix_core::values::DataArray {
                        ty: PMIX_PROC,
                        items: vec![Value::Proc(all), Value::Proc(r)],
                    })),
                ));
            }
            self.notify(PMIX_EVENT_JOB_END, v);
            // Its data, segments and files go now: a persistent pmixrun runs jobs without
            // end (it kept every job's modex segment open until it stopped).
            if let Some(s) = self.server() {
                s.deregister_nspace(&nspace);
            }
            if let Some(job) = self.lock().jobs.get_mut(&idx) {
                job.registered = false;
            }
        }
        if self.setup.persistent {
            // The record goes too, after what its processes left in their process groups
            // (killed at pmixrun's end otherwise; a persistent pmixrun may never end).
            let retired = self.lock().jobs.remove(&idx);
            for pid in retired
                .iter()
                .flat_map(|j| j.procs.iter().filter_map(|p| p.pid))
            {
                let _ = sys::kill_group(pid, libc::SIGKILL);
            }
            // And its directory in the session directory (PMIX_NSDIR and the ranks'
            // PMIX_PROCDIRs): two entries per job otherwise, until pmixrun's end.
            if let Some(j) = retired {
                let _ = std::fs::remove_dir_all(&j.nsdir);
            }
        }
    }

    /// Sends SIGTERM to processes whose notice period is over and SIGKILL to those whose
    /// grace period is over (main thread).
    pub fn escalate(&self, now: Instant) {
        let mut st = self.lock();
        let grace = self.setup.grace;
        for job in st.jobs.values_mut() {
            for p in job.procs.iter_mut() {
                let Some(pid) = p.pid.filter(|_| p.alive()) else {
                    continue;
                };
                if p.term_at.is_some_and(|at| at <= now) {
                    signal_proc(pid, libc::SIGTERM);
                    p.term_at = None;
                    p.kill_at.get_or_insert(now + grace);
                }
                if p.kill_at.is_some_and(|at| at <= now) {
                    signal_proc(pid, libc::SIGKILL);
                    p.kill_at = None;
                }
            }
        }
    }

    /// The earliest deadline the main loop must wake up for.
    pub fn next_deadline(&self) -> Option<Instant> {
        let st = self.lock();
        let kills = st
            .jobs
            .values()
            .flat_map(|j| j.procs.iter())
            .filter(|p| p.alive())
            .flat_map(|p| p.term_at.into_iter().chain(p.kill_at));
        let lookups = st.held.iter().filter_map(|h| h.deadline);
        kills.chain(lookups).min()
    }

    /// Whether anything is left to wait for: a live job, or, persistent, not being stopped.
    pub fn busy(&self) -> bool {
        let st = self.lock();
        st.any_live() || (self.setup.persistent && !st.stopping)
    }

    /// Kills whatever the processes left behind in their process groups (main thread, at
    /// the end): no orphan outlives pmixrun.
    pub fn kill_leftovers(&self) {
        {
            let st = self.lock();
            for job in st.jobs.values() {
                for p in &job.procs {
                    if let Some(pid) = p.pid {
                        let _ = sys::kill_group(pid, libc::SIGKILL);
                    }
                }
            }
        }
        // What left the groups (setsid, daemons) was reparented to pmixrun, the subreaper.
        // Killing one may orphan its own children to us in turn: repeat a few times.
        for _ in 0..10 {
            let orphans = sys::children_of_self();
            if orphans.is_empty() {
                break;
            }
            for pid in orphans {
                let _ = sys::kill(pid, libc::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(20));
            self.reap();
        }
        self.reap();
    }

    /// Forwards `sig` to every live process (main thread). With `expected`, their end is
    /// not a failure and SIGKILL follows after the grace period.
    pub fn forward_signal(&self, sig: i32, expected: bool) {
        let mut st = self.lock();
        let grace = self.setup.grace;
        for job in st.jobs.values_mut() {
            if expected {
                job.terminating = true;
            }
            for p in job.procs.iter_mut() {
                if let (true, Some(pid)) = (p.alive(), p.pid) {
                    signal_proc(pid, sig);
                    if expected {
                        p.kill_expected = true;
                        p.kill_at.get_or_insert(Instant::now() + grace);
                    }
                }
            }
        }
    }

    /// Signals the processes named by `targets` (a WILDCARD rank names the whole job).
    /// `expected`: the end is on request (not a failure), with SIGKILL after the grace
    /// period when `sig` is not SIGKILL already. Returns how many processes were signalled.
    pub fn signal_targets(&self, targets: &[Proc], sig: i32, expected: bool) -> usize {
        let mut st = self.lock();
        let grace = self.setup.grace;
        let mut count = 0;
        for t in targets {
            let Some(job) = st.job_mut(&t.nspace) else {
                continue;
            };
            for p in job.procs.iter_mut() {
                if t.rank != PMIX_RANK_WILDCARD && t.rank != p.rank {
                    continue;
                }
                if let (true, Some(pid)) = (p.alive(), p.pid) {
                    if expected {
                        p.kill_expected = true;
                        if sig != libc::SIGKILL {
                            p.kill_at.get_or_insert(Instant::now() + grace);
                        }
                    }
                    signal_proc(pid, sig);
                    count += 1;
                }
            }
            if expected && t.rank == PMIX_RANK_WILDCARD {
                job.terminating = true;
            }
        }
        count
    }

    /// Answers the held lookups whose deadline passed (main thread).
    pub fn expire_lookups(&self, now: Instant) {
        let expired: Vec<HeldLookup> = {
            let mut st = self.lock();
            let (gone, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut st.held)
                .into_iter()
                .partition(|h| h.deadline.is_some_and(|d| d <= now));
            st.held = keep;
            gone
        };
        for h in expired {
            let found = crate::publish::lookup_in(
                &self.lock().published,
                &h.requester,
                h.ids,
                &h.keys,
                h.range,
            );
            if found.is_empty() {
                (h.done)(Err(Error::NotFound));
            } else {
                (h.done)(Ok(found));
            }
        }
    }

    /// Answers every held lookup with what is there (at the end of the session).
    pub fn flush_lookups(&self) {
        let held = std::mem::take(&mut self.lock().held);
        for h in held {
            let found = crate::publish::lookup_in(
                &self.lock().published,
                &h.requester,
                h.ids,
                &h.keys,
                h.range,
            );
            if found.is_empty() {
                (h.done)(Err(Error::NotFound));
            } else {
                (h.done)(Ok(found));
            }
        }
    }

    /// Runs a spawn request (main thread).
    pub fn spawn(&self, requester: Proc, req: crate::debug::Request, done: Done<Vec<u8>>) {
        let crate::debug::Request {
            apps,
            mut opts,
            cospawn,
        } = req;
        opts.requester = Some(requester.clone());
        let parent = self
            .lock()
            .job(&requester.nspace)
            .map(|_| requester.clone());
        let ns = match self.launch(apps, parent.clone(), false, opts) {
            Ok(ns) => ns,
            Err(e) => return done(Err(e)),
        };
        // Co-spawned applications (debugger daemons): a job of their own, aimed at this one.
        if let Some(mut co) = cospawn {
            let size = self.lock().job(&ns).map_or(0, Job::size);
            let started = co.aim(&ns, size).and_then(|()| {
                co.opts.requester = Some(requester.clone());
                self.launch(co.apps, parent, false, co.opts)
            });
            if let Err(e) = started {
                eprintln!("pmixrun: cannot start the applications co-spawned with {ns}: {e}");
                self.signal_targets(
                    &[Proc::new(ns.clone(), PMIX_RANK_WILDCARD)],
                    libc::SIGTERM,
                    true,
                );
                return done(Err(e));
            }
        }
        done(Ok(ns.into_bytes()))
    }

    /// Deregisters every job still registered and stops the server.
    pub fn shutdown_server(&self) {
        let Some(server) = self.server() else { return };
        let names: Vec<PStr> = self
            .lock()
            .jobs
            .values()
            .filter(|j| j.registered)
            .map(|j| j.nspace.clone())
            .collect();
        for n in names {
            server.deregister_nspace(&n);
        }
        server.finalize();
    }

    /// pmixrun's exit status.
    pub fn exit_status(&self) -> i32 {
        let st = self.lock();
        // A persistent pmixrun ends on request (a tool, SIGTERM, SIGINT): that is success.
        if self.setup.persistent && (st.stopped_by_tool || st.interrupted.is_some()) {
            return 0;
        }
        if let Some(a) = st.abort {
            return a;
        }
        if let Some(s) = st.interrupted {
            return 128 + s;
        }
        if st.timed_out {
            return 124;
        }
        st.first_failure.unwrap_or(0)
    }
}

/// Sends `sig` to a process's group, or to the process if it has no group of its own yet.
pub fn signal_proc(pid: Pid, sig: i32) {
    if sys::kill_group(pid, sig).is_err() {
        let _ = sys::kill(pid, sig);
    }
    // A stopped process (stop on exec, job control pause) acts on a terminating signal
    // only once continued.
    if matches!(sig, libc::SIGTERM | libc::SIGINT | libc::SIGHUP)
        && sys::kill_group(pid, libc::SIGCONT).is_err()
    {
        let _ = sys::kill(pid, libc::SIGCONT);
    }
}

/// Starts terminating a job: SIGTERM to every live process, SIGKILL after `grace`.
pub fn terminate_job(job: &mut Job, grace: Duration) {
    job.terminating = true;
    for p in job.procs.iter_mut() {
        if p.state == ProcState::Pending {
            p.state = ProcState::FailedToStart;
        }
        if let (true, Some(pid)) = (p.alive(), p.pid)
            && !p.kill_expected
        {
            p.kill_expected = true;
            signal_proc(pid, libc::SIGTERM);
            p.kill_at = Some(Instant::now() + grace);
        }
    }
}

/// Dooms a job after one of its processes failed: its live processes get SIGTERM once
/// `notice` has passed (and SIGKILL after the grace period), unless they end first.
pub fn doom_job(job: &mut Job, notice: Duration) {
    job.terminating = true;
    let at = Instant::now() + notice;
    for p in job.procs.iter_mut() {
        if p.state == ProcState::Pending {
            p.state = ProcState::FailedToStart;
        }
        if p.alive() && !p.kill_expected {
            p.kill_expected = true;
            p.term_at = Some(at);
        }
    }
}

fn job_is_over(st: &State, idx: usize) -> bool {
    st.jobs.get(&idx).is_some_and(|j| !j.live() && !j.ended)
}
