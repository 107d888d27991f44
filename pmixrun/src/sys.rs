//! The operating-system calls pmixrun makes through `libc`: clone and exec, pipes, signal
//! masks, `waitpid`, `kill`, `poll`, CPU binding, syslog and local time.
//!
//! This is the only module of pmixrun with `unsafe` code. Everything it exports is a safe
//! function; each `unsafe` block says why its call is sound.
//!
//! # Safety
//!
//! * Children are made by `clone(CLONE_VM | CLONE_VFORK)` (as `posix_spawn` makes them) from
//!   a multi-threaded process: the child shares pmixrun's memory until its `execve`, on a
//!   stack of its own, while the spawning thread waits. The child therefore runs only
//!   async-signal-safe functions (`setpgid`, `prctl`, `sigprocmask`, `sigaction`, `dup2`,
//!   `fcntl`, `chdir`, `sched_setaffinity`, `execve`, `write`, `_exit`) on data prepared
//!   before: it allocates nothing, takes no lock, writes no memory but its own stack (and
//!   errno, which the suspended spawning thread does not read meanwhile) and never returns
//!   into Rust code. Its signal mask and SIGPIPE action are its own (no CLONE_SIGHAND).
//! * Every descriptor pmixrun creates is close-on-exec (Rust's standard library and
//!   [`pipe`] both set it), so a child inherits exactly the three it is given.
#![allow(unsafe_code)]

use std::ffi::{CString, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A process id.
pub type Pid = libc::pid_t;

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `exit(code)`.
    Code(i32),
    /// Killed by a signal.
    Signal(i32),
}

impl Exit {
    /// The status a shell would report: the code, or 128 + the signal.
    pub fn shell_status(self) -> i32 {
        match self {
            Exit::Code(c) => c,
            Exit::Signal(s) => 128 + s,
        }
    }
}

/// A pipe, both ends close-on-exec: (read end, write end).
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds: [c_int; 2] = [-1; 2];
    // SAFETY: `fds` is a writable array of two ints, as pipe2 requires.
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Opens `/dev/null` on any of the descriptors 0, 1 and 2 that is closed, so that no pipe
/// pmixrun creates later gets one of those numbers (which would confuse the `dup2`s of
/// [`spawn`]).
pub fn ensure_std_fds() {
    for fd in 0..3 {
        // SAFETY: F_GETFD only queries the descriptor table.
        let open = unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1;
        if !open {
            // SAFETY: the path is a NUL-terminated literal. The descriptor this returns is
            // the lowest free one, `fd` itself, and is meant to stay open for the life of
            // the process, so it is deliberately not wrapped in an OwnedFd.
            let _ = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        }
    }
}

/// What [`spawn`] needs to start one process. Everything is prepared before the child is made.
#[derive(Debug)]
pub struct ExecSpec<'a> {
    /// The program file (already resolved: no PATH search happens in the child).
    pub path: CString,
    pub argv: Vec<CString>,
    /// The complete environment, `NAME=value` each.
    pub envp: Vec<CString>,
    pub cwd: Option<CString>,
    pub stdin: BorrowedFd<'a>,
    pub stdout: BorrowedFd<'a>,
    pub stderr: BorrowedFd<'a>,
    /// CPUs (operating-system indices) to bind the process to.
    pub cpus: Option<Vec<usize>>,
    /// Stop the program at its first instruction (`PMIX_DEBUG_STOP_ON_EXEC`): the child
    /// asks to be traced before `execve`, the kernel stops it with SIGTRAP once the new
    /// program is loaded, and [`spawn`] detaches from it leaving it stopped (SIGSTOP), so
    /// that any debugger can attach; SIGCONT (or a debugger) lets it run.
    pub stop_on_exec: bool,
}

/// Ends collected by [`spawn`] while it waited for a stop on exec, for [`try_wait_any`].
static EARLY_EXITS: std::sync::Mutex<Vec<(Pid, Exit)>> = std::sync::Mutex::new(Vec::new());

fn exit_of(status: c_int) -> Option<Exit> {
    if libc::WIFEXITED(status) {
        Some(Exit::Code(libc::WEXITSTATUS(status)))
    } else if libc::WIFSIGNALED(status) {
        Some(Exit::Signal(libc::WTERMSIG(status)))
    } else {
        None
    }
}

/// Starts a process executing `spec`. The child is the leader of a new process group (so that
/// [`kill_group`] reaches whatever it starts), is killed if pmixrun dies
/// (`PR_SET_PDEATHSIG`, which fires when the *thread* that spawned it exits: call this from a
/// thread that lives as long as pmixrun), starts with an empty signal mask and the
/// default SIGPIPE action, and has `spec.stdin/stdout/stderr` as descriptors 0, 1 and 2.
///
/// Returns the pid once the program is executing; an error (the child's `errno`) if the
/// working directory or the `execve` failed, in which case the child has been reaped.
pub fn spawn(spec: &ExecSpec<'_>) -> io::Result<Pid> {
    let argv: Vec<*const libc::c_char> = spec
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp: Vec<*const libc::c_char> = spec
        .envp
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    // SAFETY: cpu_set_t is a plain bit array; all zeroes is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let bind = match &spec.cpus {
        Some(cpus) => {
            for &c in cpus {
                if c < libc::CPU_SETSIZE as usize {
                    // SAFETY: `c` is below CPU_SETSIZE, so the bit lies inside `set`.
                    unsafe { libc::CPU_SET(c, &mut set) };
                }
            }
            true
        }
        None => false,
    };
    let (err_r, err_w) = pipe()?;
    let child = ChildSetup {
        path: spec.path.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cwd: spec.cwd.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
        fds: [
            spec.stdin.as_raw_fd(),
            spec.stdout.as_raw_fd(),
            spec.stderr.as_raw_fd(),
        ],
        set: bind.then_some(&set as *const libc::cpu_set_t),
        err: err_w.as_raw_fd(),
        trace: spec.stop_on_exec,
        // SAFETY: getpid has no preconditions.
        parent: unsafe { libc::getpid() },
    };
    // The child shares pmixrun's memory until it executes (CLONE_VM | CLONE_VFORK, what
    // posix_spawn does): a fork's copy of the page tables of a pmixrun with thousands of
    // ranks (and their output threads) made the launch of 1024 ranks take 30 s and more.
    // It runs on a stack of its own, allocated here; this thread is suspended until the
    // child has executed or exited, so `child`, `argv`, `envp` and the stack stay put.
    let mut stack = vec![0u8; CHILD_STACK];
    // The stack grows down: its top, aligned to 16 bytes.
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // SAFETY: see the module's safety section: the child only runs `ChildSetup::run` (via
    // `child_main`), which makes async-signal-safe calls on the pointers prepared above and
    // ends in execve or _exit; `top` is the aligned top of a live allocation of
    // CHILD_STACK bytes, and `child` outlives the call (this thread waits for the exec).
    let pid = unsafe {
        libc::clone(
            child_main,
            top as *mut c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&child as *const ChildSetup).cast_mut().cast::<c_void>(),
        )
    };
    drop(stack);
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    drop(err_w);
    // The child makes itself a group leader too; doing it here as well closes the window
    // in which a kill of the group would miss it. EACCES after the exec is harmless.
    // SAFETY: setpgid on our own child has no memory-safety preconditions.
    unsafe {
        libc::setpgid(pid, pid);
    }
    let mut buf = [0u8; 4];
    let mut got = 0;
    while got < buf.len() {
        // SAFETY: the pointer and length describe the unread tail of `buf`.
        let n = unsafe {
            libc::read(
                err_r.as_raw_fd(),
                buf[got..].as_mut_ptr().cast::<c_void>(),
                buf.len() - got,
            )
        };
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    if got == buf.len() {
        let errno = i32::from_ne_bytes(buf);
        let mut status = 0;
        // SAFETY: waits for our own child, which is about to _exit.
        unsafe {
            libc::waitpid(pid, &mut status, 0);
        }
        return Err(io::Error::from_raw_os_error(errno));
    }
    if spec.stop_on_exec {
        stop_after_exec(pid);
    }
    Ok(pid)
}

/// The next status change of our child `pid` (`waitpid` with `flags`, retried when
/// interrupted), or `None` once it has ended (the end is kept for [`try_wait_any`]) or
/// cannot be waited for.
fn next_status(pid: Pid, flags: c_int) -> Option<c_int> {
    loop {
        let mut status: c_int = 0;
        // SAFETY: waits for our own child; `status` is writable.
        let r = unsafe { libc::waitpid(pid, &mut status, flags) };
        if r < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if let Some(e) = exit_of(status) {
            EARLY_EXITS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((pid, e));
            return None;
        }
        return Some(status);
    }
}

/// Waits until our (no longer traced) child `pid` has stopped: the SIGSTOP of the detach
/// takes effect only once it runs, and a tool told it is stopped must find it so. An end
/// seen meanwhile is kept for [`try_wait_any`].
fn wait_stopped(pid: Pid) {
    while let Some(status) = next_status(pid, libc::WUNTRACED) {
        if libc::WIFSTOPPED(status) {
            return;
        }
    }
}

/// Waits for a traced child's stop after its `execve` and detaches from it, leaving it
/// stopped by SIGSTOP. An end seen meanwhile is kept for [`try_wait_any`].
fn stop_after_exec(pid: Pid) {
    while let Some(status) = next_status(pid, libc::__WALL) {
        if libc::WIFSTOPPED(status) {
            let sig = libc::WSTOPSIG(status);
            if sig == libc::SIGTRAP {
                // SAFETY: PTRACE_DETACH on our traced, stopped child; the data argument
                // is the signal it receives on detach (it stays stopped).
                unsafe {
                    libc::ptrace(
                        libc::PTRACE_DETACH,
                        pid,
                        std::ptr::null_mut::<c_void>(),
                        libc::SIGSTOP as usize as *mut c_void,
                    );
                }
                wait_stopped(pid);
                return;
            }
            // Another signal before the exec completed: pass it on and keep waiting.
            // SAFETY: PTRACE_CONT on our traced, stopped child with the signal it got.
            unsafe {
                libc::ptrace(
                    libc::PTRACE_CONT,
                    pid,
                    std::ptr::null_mut::<c_void>(),
                    sig as usize as *mut c_void,
                );
            }
        }
    }
}

/// The child's side of [`spawn`], as raw pointers into the parent's prepared data.
struct ChildSetup {
    path: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    cwd: *const libc::c_char,
    fds: [RawFd; 3],
    set: Option<*const libc::cpu_set_t>,
    err: RawFd,
    trace: bool,
    parent: Pid,
}

/// The stack of a child between its creation and its `execve`: [`ChildSetup::run`] needs
/// little (a few calls, no allocation).
const CHILD_STACK: usize = 64 << 10;

/// The entry of a child made by `clone` in [`spawn`]: `arg` is the parent's `ChildSetup`.
extern "C" fn child_main(arg: *mut c_void) -> c_int {
    // SAFETY: `spawn` passes a pointer to its live ChildSetup and waits (CLONE_VFORK) until
    // this child has executed or exited; `run` never returns.
    unsafe { (*arg.cast::<ChildSetup>()).run() }
}

impl ChildSetup {
    /// Sets the child up and executes the program; never returns.
    ///
    /// # Safety
    /// Call only in a child made by [`spawn`] (sharing the parent's memory, the parent
    /// suspended until the exec), with every pointer valid (they point into the parent's
    /// stack frame).
    unsafe fn run(&self) -> ! {
        // SAFETY: only async-signal-safe calls, on valid pointers (the caller's
        // contract); the function ends in execve or _exit.
        unsafe {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != self.parent {
                // pmixrun died between the clone and the prctl.
                libc::_exit(1);
            }
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(libc::SIGPIPE, &dfl, std::ptr::null_mut());
            for (target, &fd) in self.fds.iter().enumerate() {
                let target = target as c_int;
                if fd == target {
                    libc::fcntl(fd, libc::F_SETFD, 0);
                } else if libc::dup2(fd, target) < 0 {
                    self.fail();
                }
            }
            if !self.cwd.is_null() && libc::chdir(self.cwd) != 0 {
                self.fail();
            }
            if let Some(set) = self.set {
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set);
            }
            if self.trace
                && libc::ptrace(
                    libc::PTRACE_TRACEME,
                    0,
                    std::ptr::null_mut::<c_void>(),
                    std::ptr::null_mut::<c_void>(),
                ) != 0
            {
                self.fail();
            }
            libc::execve(self.path, self.argv, self.envp);
            self.fail()
        }
    }

    /// Reports `errno` to the parent and exits.
    ///
    /// # Safety
    /// As [`ChildSetup::run`].
    unsafe fn fail(&self) -> ! {
        // SAFETY: errno is thread-local and readable; write and _exit are
        // async-signal-safe; the buffer is a local.
        unsafe {
            let e: c_int = *libc::__errno_location();
            let b = e.to_ne_bytes();
            libc::write(self.err, b.as_ptr().cast::<c_void>(), b.len());
            libc::_exit(127)
        }
    }
}

fn sigset(sigs: &[c_int]) -> libc::sigset_t {
    // SAFETY: sigset_t is plain data; sigemptyset initialises it and sigaddset only sets
    // bits of valid signal numbers (invalid ones are rejected with EINVAL).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for &s in sigs {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks `sigs` in the calling thread; threads started afterwards inherit the mask.
pub fn block_signals(sigs: &[c_int]) -> io::Result<()> {
    let set = sigset(sigs);
    // SAFETY: `set` is an initialised sigset_t; the old mask is not wanted.
    let r = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(())
}

/// Waits for one of `sigs` (which must be blocked in every thread) and returns it.
pub fn wait_signal(sigs: &[c_int]) -> io::Result<c_int> {
    let set = sigset(sigs);
    let mut sig: c_int = 0;
    // SAFETY: `set` is initialised and `sig` writable.
    let r = unsafe { libc::sigwait(&set, &mut sig) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(sig)
}

/// Sends `sig` to a process.
pub fn kill(pid: Pid, sig: c_int) -> io::Result<()> {
    if pid <= 0 {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: kill has no memory-safety preconditions; pid > 0 names one process.
    if unsafe { libc::kill(pid, sig) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Sends `sig` to the process group led by `pgid`.
pub fn kill_group(pgid: Pid, sig: c_int) -> io::Result<()> {
    if pgid <= 1 {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: as kill; the negative pid names the group, never "every process" (-1).
    if unsafe { libc::kill(-pgid, sig) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Reaps one child that has ended, without blocking.
pub fn try_wait_any() -> Option<(Pid, Exit)> {
    if let Some(e) = EARLY_EXITS.lock().unwrap_or_else(|e| e.into_inner()).pop() {
        return Some(e);
    }
    loop {
        let mut status: c_int = 0;
        // SAFETY: `status` is writable.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        if pid <= 0 {
            return None;
        }
        let exit = if libc::WIFEXITED(status) {
            Exit::Code(libc::WEXITSTATUS(status))
        } else if libc::WIFSIGNALED(status) {
            Exit::Signal(libc::WTERMSIG(status))
        } else {
            // Stopped or continued: not an end (WNOHANG without WUNTRACED reports neither).
            continue;
        };
        return Some((pid, exit));
    }
}

/// Makes pmixrun the reaper of its orphaned descendants (`PR_SET_CHILD_SUBREAPER`): a
/// process a child started and left behind becomes pmixrun's child, so pmixrun can find it
/// (see [`children_of_self`]) and kill it at the end, even if it left the child's process group.
pub fn become_subreaper() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and touches no
    // memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// The processes whose parent is pmixrun, read from /proc.
pub fn children_of_self() -> Vec<Pid> {
    let me = std::process::id() as Pid;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<Pid>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next();
        let ppid = f.next().and_then(|p| p.parse::<Pid>().ok());
        if ppid == Some(me) && state != Some("Z") {
            out.push(pid);
        }
    }
    out
}

/// The real user id.
pub fn uid() -> u32 {
    // SAFETY: getuid cannot fail and has no preconditions.
    unsafe { libc::getuid() }
}

/// The real group id.
pub fn gid() -> u32 {
    // SAFETY: getgid cannot fail and has no preconditions.
    unsafe { libc::getgid() }
}

/// Whether `path` names a file this process may execute.
pub fn is_executable(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is NUL-terminated.
    let ok = unsafe { libc::access(c.as_ptr(), libc::X_OK) } == 0;
    ok && path.is_file()
}

/// Writes `msg` to the system log with `priority` (a `LOG_*` level).
pub fn syslog(priority: c_int, msg: &str) {
    let Ok(m) = CString::new(msg.replace('\0', " ")) else {
        return;
    };
    // SAFETY: the format is a literal "%s" taking exactly the one NUL-terminated argument.
    unsafe { libc::syslog(priority | libc::LOG_USER, c"%s".as_ptr(), m.as_ptr()) };
}

/// The offset of local time from UTC at `secs` since the epoch (for the library's output
/// timestamps, which cannot reach the time zone database themselves).
pub fn utc_offset(secs: i64) -> i64 {
    let t = secs as libc::time_t;
    // SAFETY: tm is plain data (its tm_zone pointer may be null); localtime_r fills it from
    // a valid time_t and is thread-safe.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            0
        } else {
            tm.tm_gmtoff
        }
    }
}

/// The name of a signal ("SIGKILL"), or "signal N".
pub fn signal_name(sig: c_int) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

/// Marks descriptor `fd` close-on-exec and blocks until reading it gives end-of-file (or
/// an error other than an interruption): the keepalive pipe of an indirect launch, whose
/// write end the initiator holds. Returns at once if `fd` is not open.
pub fn wait_eof(fd: i32) {
    // SAFETY: fcntl on a descriptor number touches no memory; a closed one gives EBADF.
    if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } < 0 {
        return;
    }
    let mut buf = [0u8; 256];
    loop {
        // SAFETY: the pointer and length describe `buf`.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast::<c_void>(), buf.len()) };
        if n > 0 {
            continue;
        }
        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return;
    }
}

/// Waits until `fd` has something to read (data, end of file or an error), at most
/// `timeout` (`None`: without limit). Returns whether it has; `false` when the time ran
/// out or a signal interrupted the wait (the caller looks at its clock and waits again).
pub fn wait_readable(fd: BorrowedFd<'_>, timeout: Option<std::time::Duration>) -> io::Result<bool> {
    // Rounded up, so that a wait never ends just before its deadline (which would make
    // the caller wait 0 ms again and again).
    let ms: c_int = match timeout {
        None => -1,
        Some(t) => {
            let ms = t.as_nanos().div_ceil(1_000_000);
            c_int::try_from(ms).unwrap_or(c_int::MAX)
        }
    };
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: `p` is one valid pollfd, and the count says one.
    let r = unsafe { libc::poll(&mut p, 1, ms) };
    if r < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(false);
        }
        return Err(e);
    }
    // POLLHUP and POLLERR come without POLLIN: a read then says what happened.
    Ok(r > 0 && p.revents != 0)
}

/// Whether process `pid` is running or waiting for a CPU (state `R` in `/proc/<pid>/stat`),
/// as opposed to sleeping, stopped or gone.
pub fn is_runnable(pid: Pid) -> bool {
    let Ok(stat) = std::fs::read(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // "pid (comm) S ...": the state follows the last ')' (comm may hold any byte).
    stat.iter()
        .rposition(|&b| b == b')')
        .and_then(|i| stat.get(i + 2))
        .is_some_and(|&s| s == b'R')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn runnable_processes_and_readable_pipes() {
        let mut sleeper = Command::new("sleep").arg("10").spawn().unwrap();
        let mut spinner = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let sleeping = is_runnable(sleeper.id() as Pid);
        // A spinning process is seen running within a few looks.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut spinning = false;
        while !spinning && Instant::now() < deadline {
            spinning = is_runnable(spinner.id() as Pid);
        }
        for c in [&mut sleeper, &mut spinner] {
            let _ = c.kill();
            let _ = c.wait();
        }
        assert!(!sleeping, "a sleeping process counted as runnable");
        assert!(spinning, "a spinning process never counted as runnable");
        assert!(
            !is_runnable(sleeper.id() as Pid),
            "an ended process counted"
        );
        let fd = std::fs::File::open("/dev/null").unwrap();
        assert!(wait_readable(fd.as_fd(), Some(Duration::from_millis(10))).unwrap());
        let (rd, _wr) = pipe().unwrap();
        let t = Instant::now();
        assert!(!wait_readable(rd.as_fd(), Some(Duration::from_millis(50))).unwrap());
        assert!(t.elapsed() >= Duration::from_millis(50));
    }
}
