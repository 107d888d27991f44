//! pattach: attaches to a running job through its server: shows the job's stdout and
//! stderr as they arrive (`PMIx_IOF_pull`), forwards this program's stdin to the job
//! (`PMIx_IOF_push`: rank 0 by default, `--stdin RANK|all|none`), and exits when the job
//! ends (`PMIX_EVENT_JOB_END`), once every stream of the job has closed.

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use clap::Parser;
use pmix_core::client::Client;
use pmix_core::values::{Info, PStr, Proc, Query, Value};
use pmix_sys::*;
use ptools::{Target, connect, error_text, fail, finish, info, namespaces, wait};

/// Where this program's stdin goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StdinTarget {
    Rank(u32),
    All,
    None,
}

fn parse_stdin(s: &str) -> Result<StdinTarget, String> {
    match s {
        "all" => Ok(StdinTarget::All),
        "none" => Ok(StdinTarget::None),
        n => n
            .parse()
            .map(StdinTarget::Rank)
            .map_err(|_| format!("{s:?}: expected a rank, all or none")),
    }
}

/// Attach to a running job: show its output, forward stdin
#[derive(Parser, Debug)]
#[command(name = "pattach", version)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// The job (namespace) to attach to; default: the server's only job
    #[arg(long, value_name = "NSPACE")]
    job: Option<String>,
    /// Which processes receive this program's stdin
    #[arg(long, value_name = "RANK|all|none", default_value = "0", value_parser = parse_stdin)]
    stdin: StdinTarget,
}

enum Msg {
    /// The job ended, with this exit code.
    JobEnd(i32),
    /// One stream of one process closed.
    StreamDone,
    /// The server went away.
    Lost,
}

/// How long to wait, after the job ended, for streams that have not closed yet.
const DRAIN_WAIT: Duration = Duration::from_secs(10);

fn job_size(client: &Client, job: &str) -> u32 {
    let q = Query {
        keys: vec![PStr::from(PMIX_JOB_SIZE.to_bytes())],
        qualifiers: vec![info(PMIX_NSPACE, Value::String(Some(job.into())))],
    };
    match client.query(&[q]) {
        Ok((_, a)) => pmix_core::values::info_value(&a, PMIX_JOB_SIZE)
            .and_then(Value::as_u64)
            .map_or(0, |n| n as u32),
        Err(e) => fail(
            "pattach",
            format!("no job {job} at this server: {}", error_text(&e)),
        ),
    }
}

fn about_job(ev_info: &[Info], job: &str) -> bool {
    let ns = |v: &Value| match v {
        Value::String(Some(s)) | Value::ProcNspace(s) => s.as_bytes() == job.as_bytes(),
        Value::Proc(p) => p.nspace.as_bytes() == job.as_bytes(),
        _ => false,
    };
    ev_info
        .iter()
        .any(|i| (i.is(PMIX_NSPACE) || i.is(PMIX_EVENT_AFFECTED_PROC)) && ns(&i.value))
}

fn main() {
    let cli = Cli::parse();
    let client = Arc::new(connect("pattach", &cli.target));
    let job = match &cli.job {
        Some(j) => j.clone(),
        None => {
            let jobs = namespaces("pattach", &client);
            match jobs.as_slice() {
                [] => fail("pattach", "the server runs no job"),
                [one] => one.clone(),
                many => fail(
                    "pattach",
                    format!(
                        "the server runs several jobs ({}): choose one with --job",
                        many.join(", ")
                    ),
                ),
            }
        }
    };
    let size = job_size(&client, &job);
    let (tx, rx) = mpsc::channel::<Msg>();

    // The end of the job, and the loss of the server.
    let t = tx.clone();
    let j = job.clone();
    client.events.register(
        &[PMIX_EVENT_JOB_END],
        &[],
        Arc::new(move |_, ev, _, next| {
            if about_job(&ev.info, &j) {
                let code = pmix_core::values::info_value(&ev.info, PMIX_EXIT_CODE)
                    .and_then(|v| match v {
                        Value::Int(c) | Value::Int32(c) => Some(*c),
                        _ => None,
                    })
                    .unwrap_or(0);
                let _ = t.send(Msg::JobEnd(code));
            }
            next.call(PMIX_SUCCESS, Vec::new());
        }),
    );
    let t = tx.clone();
    client.events.register(
        &[PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH],
        &[],
        Arc::new(move |_, _, _, next| {
            let _ = t.send(Msg::Lost);
            next.call(PMIX_SUCCESS, Vec::new());
        }),
    );
    if let Err(e) = wait(|d| client.register_events_nb(&[PMIX_EVENT_JOB_END], &[], d)) {
        fail(
            "pattach",
            format!("cannot register for the end of the job: {}", error_text(&e)),
        );
    }

    // The job's output.
    let t = tx.clone();
    let handler: pmix_core::client::IofHandler = Arc::new(move |_id, _src, channel, data, inf| {
        pmix_core::iof::write_own(channel, data);
        if pmix_core::values::info_flag(inf, PMIX_IOF_COMPLETE) {
            let _ = t.send(Msg::StreamDone);
        }
    });
    let everyone = [Proc::new(job.as_str(), PMIX_RANK_WILDCARD)];
    if let Err(e) = client.iof_pull(
        &everyone,
        &[],
        PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL,
        Some(handler),
    ) {
        fail(
            "pattach",
            format!(
                "the server does not forward the job's output: {}",
                error_text(&e)
            ),
        );
    }

    eprintln!("pattach: attached to job {job} ({size} processes)");

    // Our stdin, to the job.
    let targets = match cli.stdin {
        StdinTarget::Rank(r) if r < size => Some(vec![Proc::new(job.as_str(), r)]),
        StdinTarget::Rank(r) => {
            eprintln!("pattach: --stdin {r}: job {job} has no rank {r}; stdin is not forwarded");
            None
        }
        StdinTarget::All => Some(vec![Proc::new(job.as_str(), PMIX_RANK_WILDCARD)]),
        StdinTarget::None => None,
    };
    if let Some(targets) = targets {
        let c = client.clone();
        let _ = std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || forward_stdin(&c, &targets));
    }

    // Until the job ends and its streams close.
    let streams = 2 * size as usize;
    let mut closed = 0;
    let mut ended = None;
    loop {
        let msg = match ended {
            None => rx.recv().ok(),
            Some(_) => rx.recv_timeout(DRAIN_WAIT).ok(),
        };
        match msg {
            Some(Msg::JobEnd(code)) => ended = Some(code),
            Some(Msg::StreamDone) => closed += 1,
            Some(Msg::Lost) if ended.is_none() => fail(
                "pattach",
                "lost the connection to the server before the job ended",
            ),
            Some(Msg::Lost) | None => break,
        }
        if ended.is_some() && closed >= streams {
            break;
        }
    }
    finish(&client);
    if let Some(code) = ended.filter(|&c| c != 0) {
        eprintln!("pattach: job {job} ended with exit code {code}");
    }
}

/// Copies stdin to `targets` in chunks, each pushed before the next is read; end of input
/// is pushed as the end of the stream.
fn forward_stdin(client: &Client, targets: &[Proc]) {
    let mut input = std::io::stdin().lock();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) | Err(_) => 0,
            Ok(n) => n,
        };
        let data = (n > 0).then(|| &buf[..n]);
        if let Err(e) = wait(|d| client.iof_push(targets, data, &[], d)) {
            eprintln!("pattach: stdin is not forwarded: {}", error_text(&e));
            return;
        }
        if n == 0 {
            return;
        }
    }
}
