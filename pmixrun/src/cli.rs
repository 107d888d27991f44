//! The command line: global options, then one or more application contexts separated by
//! a lone `:` (`pmixrun -n 2 ./a : -n 3 ./b`), as mpirun and prterun take them.
//!
//! The arguments are split at each `:` first; the first part is parsed with every option,
//! the others with the per-application options only (`-n`, `-x`, `--wdir`). Inside a
//! context, the first argument that is not an option is the program, and every argument
//! after it belongs to the program (use `--` before a program whose name starts with `-`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, ValueEnum};

/// Where pmixrun's standard input goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinTarget {
    /// One rank of the job started from the command line.
    Rank(u32),
    /// Every process of that job.
    All,
    /// Nobody: every process reads `/dev/null`.
    None,
}

fn parse_stdin(s: &str) -> Result<StdinTarget, String> {
    match s {
        "all" => Ok(StdinTarget::All),
        "none" => Ok(StdinTarget::None),
        _ => s
            .parse::<u32>()
            .map(StdinTarget::Rank)
            .map_err(|_| format!("'{s}' is not a rank, 'all' or 'none'")),
    }
}

/// Process binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BindTo {
    /// Each process to one core, round robin over the cores in node-rank order.
    Core,
    /// No binding.
    None,
}

/// Options of one application context.
#[derive(Debug, Clone, Args)]
pub struct AppOpts {
    /// Number of processes to start for this application.
    #[arg(short = 'n', long = "np", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub np: u32,
    /// Set VAR in the processes' environment (to VALUE, or to pmixrun's own value of VAR).
    /// May be repeated.
    #[arg(short = 'x', value_name = "VAR[=VALUE]")]
    pub env: Vec<String>,
    /// Working directory of the processes (default: pmixrun's).
    #[arg(long, value_name = "DIR")]
    pub wdir: Option<PathBuf>,
}

/// pmixrun: run a parallel job on this machine under a PMIx server.
#[derive(Debug, Parser)]
#[command(
    name = "pmixrun",
    version,
    about = "Run the processes of a job on this machine and serve them PMIx",
    override_usage = "pmixrun [OPTIONS] [--] PROG [ARGS]... [: [APP OPTIONS] PROG [ARGS]...]...",
    after_help = "Application contexts are separated by a lone ':'; each may have its own \
                  -n, -x and --wdir.\nThe exit status is the first non-zero exit status of a \
                  process (128+N for a process killed by signal N), the status given to \
                  PMIx_Abort, 2 for a usage error, 126/127 for a program that cannot be \
                  executed or found."
)]
pub struct Cli {
    #[command(flatten)]
    pub app: AppOpts,
    /// Prefix each line of output with [nspace,rank]<stdout>: or <stderr>:.
    #[arg(long)]
    pub tag_output: bool,
    /// Prefix each line of output with the local time.
    #[arg(long)]
    pub timestamp_output: bool,
    /// Write each process's output to DIR/<nspace>/rank.<N>/stdout and stderr instead of
    /// pmixrun's own stdout and stderr.
    #[arg(long, value_name = "DIR")]
    pub output_filename: Option<PathBuf>,
    /// Send the processes' stderr to the same place as their stdout.
    #[arg(long)]
    pub merge_stderr_to_stdout: bool,
    /// Which processes read pmixrun's standard input: a rank, "all" or "none".
    #[arg(long, value_name = "RANK|all|none", default_value = "0", value_parser = parse_stdin)]
    pub stdin: StdinTarget,
    /// Bind each process to a core, or not at all.
    #[arg(long, value_enum, default_value_t = BindTo::None)]
    pub bind_to: BindTo,
    /// Write the PMIx server's URI to FILE ("-" for stdout, "+" for stderr).
    #[arg(long, value_name = "FILE")]
    pub report_uri: Option<String>,
    /// Terminate the job if it runs longer than SECONDS (exit status 124).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<u64>,
    /// Stay up as a server after the command line's job (or without one), for tools to
    /// spawn jobs into and attach to, until a tool terminates pmixrun's own namespace or
    /// pmixrun receives SIGTERM or SIGINT.
    #[arg(long)]
    pub persistent: bool,
    /// Also serve as this machine's system server (writes the pmix.sys.<host> rendezvous
    /// file tools look for with PMIX_CONNECT_TO_SYSTEM).
    #[arg(long)]
    pub system_server: bool,
    /// Also serve tools of these users (names or uids, comma-separated; may be repeated).
    /// By default only pmixrun's own user is served: an allowed user's tools may query,
    /// spawn, signal and feed stdin as pmixrun's user does, so name only users you would
    /// trust with your account.
    #[arg(long, value_name = "USER[,USER...]")]
    pub allow_user: Vec<String>,
    /// Also serve tools of the members of these groups (names or gids, comma-separated;
    /// may be repeated).
    #[arg(long, value_name = "GROUP[,GROUP...]")]
    pub allow_group: Vec<String>,
    /// Define a process set NAME holding every process of the command line's job. May be
    /// repeated.
    #[arg(long, value_name = "NAME")]
    pub pset: Vec<String>,
    /// The program and its arguments.
    #[arg(
        required_unless_present = "persistent",
        trailing_var_arg = true,
        value_name = "PROG"
    )]
    pub cmd: Vec<OsString>,
}

/// An application context after the first.
#[derive(Debug, Parser)]
#[command(name = "pmixrun", no_binary_name = true, disable_version_flag = true)]
struct AppCli {
    #[command(flatten)]
    app: AppOpts,
    #[arg(required = true, trailing_var_arg = true, value_name = "PROG")]
    cmd: Vec<OsString>,
}

/// One application context of the command line.
#[derive(Debug, Clone)]
pub struct AppArgs {
    pub opts: AppOpts,
    /// Program, then its arguments.
    pub cmd: Vec<OsString>,
}

/// The parsed command line.
#[derive(Debug)]
pub struct Command {
    pub cli: Cli,
    pub apps: Vec<AppArgs>,
}

/// Parses `args` (program name first). Usage errors, `--help` and `--version` print and
/// exit, as clap does (status 2 for errors, 0 for help and version).
pub fn parse(args: Vec<OsString>) -> Command {
    let mut parts: Vec<Vec<OsString>> = vec![Vec::new()];
    for a in args {
        if a == ":" {
            parts.push(Vec::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(a);
        }
    }
    let mut parts = parts.into_iter();
    let first = parts.next().unwrap_or_default();
    let cli = Cli::parse_from(first);
    let mut apps = Vec::new();
    if !cli.cmd.is_empty() {
        apps.push(AppArgs {
            opts: cli.app.clone(),
            cmd: cli.cmd.clone(),
        });
    }
    for p in parts {
        let a = AppCli::try_parse_from(p).unwrap_or_else(|e| e.exit());
        apps.push(AppArgs {
            opts: a.app,
            cmd: a.cmd,
        });
    }
    Command { cli, apps }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn contexts_and_program_arguments() {
        let c = parse(args(
            "pmixrun --tag-output -n 2 -x A=1 ./a -n 5 --tag-output : -n 3 --wdir /tmp ./b x",
        ));
        assert!(c.cli.tag_output);
        assert_eq!(c.apps.len(), 2);
        assert_eq!(c.apps[0].opts.np, 2);
        assert_eq!(c.apps[0].opts.env, vec!["A=1".to_string()]);
        assert_eq!(c.apps[0].cmd, args("./a -n 5 --tag-output"));
        assert_eq!(c.apps[1].opts.np, 3);
        assert_eq!(c.apps[1].opts.wdir, Some(PathBuf::from("/tmp")));
        assert_eq!(c.apps[1].cmd, args("./b x"));
        assert_eq!(c.cli.stdin, StdinTarget::Rank(0));
        assert_eq!(c.cli.bind_to, BindTo::None);
    }

    #[test]
    fn double_dash() {
        let c = parse(args("pmixrun -n 1 -- -weird arg"));
        assert_eq!(c.apps[0].cmd, args("-weird arg"));
    }

    #[test]
    fn stdin_values() {
        assert_eq!(parse_stdin("all"), Ok(StdinTarget::All));
        assert_eq!(parse_stdin("none"), Ok(StdinTarget::None));
        assert_eq!(parse_stdin("3"), Ok(StdinTarget::Rank(3)));
        assert!(parse_stdin("x").is_err());
    }

    #[test]
    fn unknown_option_is_an_error() {
        let e = Cli::try_parse_from(args("pmixrun --bogus ./a")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let e = Cli::try_parse_from(args("pmixrun -n 0 ./a")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let e = Cli::try_parse_from(args("pmixrun -n 2")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn persistent_needs_no_program() {
        let c = parse(args("pmixrun --persistent --system-server"));
        assert!(c.cli.persistent && c.cli.system_server);
        assert!(c.apps.is_empty());
        let c = parse(args("pmixrun --persistent --pset a --pset b -n 2 ./a"));
        assert_eq!(c.cli.pset, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(c.apps.len(), 1);
    }
}
