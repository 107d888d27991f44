//! pps: the jobs a PMIx server runs and their processes (namespace, rank, pid, host, state,
//! executable), from `PMIX_QUERY_NAMESPACES` and each job's `PMIX_QUERY_PROC_TABLE`.

use std::collections::BTreeMap;

use clap::Parser;
use pmix_core::values::{Info, PStr, Query, Value};
use pmix_sys::*;
use ptools::{Target, connect, finish, namespaces, proc_state_text, query_or_exit};

/// PMIx job and process status
#[derive(Parser, Debug)]
#[command(name = "pps", version)]
struct Cli {
    #[command(flatten)]
    target: Target,
    /// Show the nodes and the processes on each instead of the process table
    #[arg(long)]
    nodes: bool,
}

struct Row {
    nspace: String,
    rank: u32,
    pid: i32,
    host: String,
    state: String,
    exe: String,
}

fn main() {
    let cli = Cli::parse();
    let client = connect("pps", &cli.target);
    let jobs = namespaces("pps", &client);
    let mut rows = Vec::new();
    for ns in &jobs {
        let answers: Vec<Info> = query_or_exit(
            "pps",
            &client,
            &[Query {
                keys: vec![PStr::from(PMIX_QUERY_PROC_TABLE.to_bytes())],
                qualifiers: vec![ptools::info(
                    PMIX_NSPACE,
                    Value::String(Some(ns.as_str().into())),
                )],
            }],
        );
        let Some(Value::DataArray(a)) = ptools::answers_by_key(&answers, PMIX_QUERY_PROC_TABLE)
        else {
            continue;
        };
        for item in &a.items {
            if let Value::ProcInfo(p) = item {
                rows.push(Row {
                    nspace: p.proc.nspace.to_string(),
                    rank: p.proc.rank,
                    pid: p.pid,
                    host: p
                        .hostname
                        .as_ref()
                        .map_or_else(String::new, |h| h.to_string()),
                    state: state_text(p),
                    exe: p
                        .executable_name
                        .as_ref()
                        .map_or_else(String::new, |e| e.to_string()),
                });
            }
        }
    }
    finish(&client);
    println!("Active nspaces: {}", jobs.join(","));
    if cli.nodes {
        print_nodes(&rows);
    } else {
        print_procs(&rows);
    }
}

/// The process's state as the server reports it (the standard's values, which have none
/// for a stopped process), plus "(stopped)" when it runs on this host, has not terminated,
/// and the kernel has it stopped: by job control (SIGSTOP, `PMIX_JOB_CTRL_PAUSE`), on exec
/// for a debugger, or under a tracer.
fn state_text(p: &pmix_core::values::ProcInfo) -> String {
    let mut s = proc_state_text(p.state).to_string();
    let here = p
        .hostname
        .as_ref()
        .is_some_and(|h| h.as_bytes() == pmix_core::net::local_hostname().as_bytes());
    if here && p.pid > 0 && p.state < PMIX_PROC_STATE_UNTERMINATED && kernel_stopped(p.pid) {
        s.push_str("(stopped)");
    }
    s
}

/// Whether `/proc/<pid>/stat` shows the process stopped (`T`) or in a tracing stop (`t`).
fn kernel_stopped(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    stat.rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())
        .is_some_and(|st| st == "T" || st == "t")
}

fn print_table(head: &[&str], lines: &[Vec<String>]) {
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for l in lines {
        for (w, c) in width.iter_mut().zip(l) {
            *w = (*w).max(c.len());
        }
    }
    let fmt = |cells: &[String]| {
        let n = cells.len();
        cells
            .iter()
            .zip(&width)
            .enumerate()
            .map(|(i, (c, w))| {
                if i + 1 == n {
                    c.clone()
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    println!(
        "{}",
        fmt(&head.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    );
    for l in lines {
        println!("{}", fmt(l));
    }
}

fn print_procs(rows: &[Row]) {
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.nspace.clone(),
                r.rank.to_string(),
                r.pid.to_string(),
                r.host.clone(),
                r.state.clone(),
                r.exe.clone(),
            ]
        })
        .collect();
    print_table(
        &["NSPACE", "RANK", "PID", "HOST", "STATE", "EXECUTABLE"],
        &lines,
    );
}

fn print_nodes(rows: &[Row]) {
    let mut by_node: BTreeMap<(&str, &str), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_node.entry((&r.host, &r.nspace)).or_default().push(r);
    }
    let lines: Vec<Vec<String>> = by_node
        .iter()
        .map(|((host, ns), procs)| {
            vec![
                host.to_string(),
                ns.to_string(),
                procs.len().to_string(),
                procs
                    .iter()
                    .map(|r| r.rank.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                procs
                    .iter()
                    .map(|r| r.pid.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ]
        })
        .collect();
    print_table(&["NODE", "NSPACE", "NPROCS", "RANKS", "PIDS"], &lines);
}
