//! What the command-line tools share: the options that pick a server and the connection to
//! it (through [`pmix_core::tool::init`], the path `PMIx_tool_init` takes), with a one-line
//! diagnosis naming what was tried when no server answers; reading keys, qualifiers and
//! values from the command line; printing values.
//!
//! Exit statuses: 0 success, 1 failure (no server, the server refused, nothing found),
//! 2 usage error (clap's own).

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use pmix_core::client::Client;
use pmix_core::rendezvous;
use pmix_core::values::{Info, PStr, Proc, Query, Value};
use pmix_core::{Error, tool};
use pmix_sys::*;

/// The options naming the server to connect to (the reference tools' names).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Target {
    /// PID of the server to connect to (or file:PATH, a file holding it)
    #[arg(long, value_name = "PID|file:PATH")]
    pub pid: Option<String>,
    /// Namespace of the server to connect to
    #[arg(long, visible_alias = "namespace", value_name = "NSPACE")]
    pub nspace: Option<String>,
    /// URI of the server, or file:PATH of a rendezvous file holding it
    #[arg(long, value_name = "URI|file:PATH")]
    pub uri: Option<String>,
    /// Connect to the system-level server
    #[arg(long)]
    pub system_server: bool,
    /// Look for a system-level server first, then the others
    #[arg(long)]
    pub system_server_first: bool,
    /// Where to look for rendezvous files (default: $TMPDIR, else /tmp)
    #[arg(long, value_name = "DIR")]
    pub tmpdir: Option<PathBuf>,
    /// Seconds to wait between connection attempts
    #[arg(long, value_name = "SECONDS")]
    pub wait_to_connect: Option<u32>,
    /// How many times to retry the connection
    #[arg(long, value_name = "N")]
    pub num_connect_retries: Option<u32>,
}

/// Prints `tool: message` on stderr and exits with status 1.
pub fn fail(tool: &str, message: impl std::fmt::Display) -> ! {
    eprintln!("{tool}: {message}");
    std::process::exit(1)
}

fn string(s: impl Into<PStr>) -> Value {
    Value::String(Some(s.into()))
}

/// An attribute-keyed info.
pub fn info(key: &std::ffi::CStr, value: Value) -> Info {
    Info::new(key.to_bytes(), value)
}

impl Target {
    /// The pid given with `--pid` (read from the file for `file:PATH`).
    fn server_pid(&self) -> Result<Option<u32>, String> {
        let Some(p) = &self.pid else { return Ok(None) };
        let text = match p.strip_prefix("file:") {
            Some(f) => std::fs::read_to_string(f)
                .map_err(|e| format!("cannot read the pid file {f}: {e}"))?,
            None => p.clone(),
        };
        text.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .map(Some)
            .ok_or_else(|| format!("--pid: {:?} is not a process id", text.trim()))
    }

    /// The directory searched for rendezvous files.
    pub fn search_dir(&self) -> PathBuf {
        tool::system_tmpdir(&self.infos_without_pid())
    }

    fn infos_without_pid(&self) -> Vec<Info> {
        let mut v = Vec::new();
        if let Some(n) = &self.nspace {
            v.push(info(PMIX_SERVER_NSPACE, string(n.as_str())));
        }
        if let Some(u) = &self.uri {
            v.push(info(PMIX_SERVER_URI, string(u.as_str())));
        }
        if self.system_server {
            v.push(info(PMIX_CONNECT_TO_SYSTEM, Value::Bool(true)));
        }
        if self.system_server_first {
            v.push(info(PMIX_CONNECT_SYSTEM_FIRST, Value::Bool(true)));
        }
        if let Some(d) = &self.tmpdir {
            v.push(info(
                PMIX_SYSTEM_TMPDIR,
                string(d.as_os_str().as_encoded_bytes()),
            ));
        }
        if let Some(s) = self.wait_to_connect {
            v.push(info(PMIX_CONNECT_RETRY_DELAY, Value::Uint32(s)));
        }
        if let Some(n) = self.num_connect_retries {
            v.push(info(PMIX_CONNECT_MAX_RETRIES, Value::Uint32(n)));
        }
        v
    }

    /// The `PMIx_tool_init` attributes these options stand for.
    pub fn infos(&self) -> Result<Vec<Info>, String> {
        let mut v = self.infos_without_pid();
        if let Some(pid) = self.server_pid()? {
            v.push(info(PMIX_SERVER_PIDINFO, Value::Pid(pid as i32)));
        }
        Ok(v)
    }

    /// Why connecting failed, naming what was tried (one line).
    fn diagnose(&self, err: &Error) -> String {
        let host = pmix_core::net::local_hostname().to_string();
        let dir = self.search_dir();
        let why = error_text(err);
        if matches!(
            err.status(),
            PMIX_ERR_NO_PERMISSIONS | PMIX_ERR_INVALID_CRED
        ) {
            // The server answered, and refused this user (`docs/security.md`).
            let (uid, _) = pmix_core::wire::own_ids();
            return format!(
                "not authorized: the PMIx server refused tools of this user (uid {uid}): {why}"
            );
        }
        if let Some(u) = &self.uri {
            return match u.strip_prefix("file:") {
                Some(f) => file_diagnosis(Path::new(f), &why),
                None => format!("cannot connect to the PMIx server at {u}: {why}"),
            };
        }
        if self.system_server {
            let f = dir.join(format!("pmix.sys.{host}"));
            return format!("no system server: {}", file_diagnosis(&f, &why));
        }
        if let Ok(Some(pid)) = self.server_pid() {
            if !rendezvous::alive(pid) {
                return format!("no process with pid {pid} is running");
            }
            let name = format!("pmix.{host}.tool.{pid}");
            if tool::search(&dir, &name).is_empty() {
                return format!(
                    "process {pid} is not a PMIx server this tool can reach: no rendezvous file {name} under {}",
                    dir.display()
                );
            }
            return format!("cannot connect to the PMIx server of process {pid}: {why}");
        }
        if let Some(ns) = &self.nspace {
            let name = format!("pmix.{host}.tool.{ns}");
            if tool::search(&dir, &name).is_empty() {
                return format!(
                    "no live PMIx server of namespace {ns}: no rendezvous file {name} of a running server under {}",
                    dir.display()
                );
            }
            return format!("cannot connect to the PMIx server of namespace {ns}: {why}");
        }
        let prefix = format!("pmix.{host}.tool");
        let live = tool::search(&dir, &prefix);
        if live.is_empty() {
            format!(
                "no PMIx server found: no rendezvous file {prefix}* of a running server under {} (name one with --pid, --nspace or --uri)",
                dir.display()
            )
        } else if live.len() > 1 && matches!(err, Error::Status(PMIX_ERR_UNREACH)) {
            let pids: Vec<String> = live
                .iter()
                .filter_map(|(_, r)| r.pid.map(|p| p.to_string()))
                .collect();
            format!(
                "several PMIx servers are running (pids {}): choose one with --pid",
                pids.join(", ")
            )
        } else {
            format!(
                "cannot connect to the PMIx server found under {}: {why}",
                dir.display()
            )
        }
    }
}

/// What is wrong with the rendezvous file `f`.
fn file_diagnosis(f: &Path, why: &str) -> String {
    if !f.exists() {
        return format!("the rendezvous file {} does not exist", f.display());
    }
    match rendezvous::read(f) {
        Err(_) => format!("{} is not a readable PMIx rendezvous file", f.display()),
        Ok(r) => match r.pid {
            Some(p) if !rendezvous::alive(p) => format!(
                "the rendezvous file {} is stale: the server that wrote it (pid {p}) is not running (the file is left in place)",
                f.display()
            ),
            _ => format!(
                "cannot connect to the PMIx server at {} named in {}: {why}",
                r.uri,
                f.display()
            ),
        },
    }
}

/// An error as a short text: the status name and what it means.
pub fn error_text(e: &Error) -> String {
    let st = e.status();
    format!(
        "{} ({})",
        pmix_core::print::error_string(st).to_string_lossy(),
        st
    )
}

/// Connects to the server `target` names, as a tool; exits with a diagnosis when it cannot.
pub fn connect(tool_name: &str, target: &Target) -> Client {
    let infos = target.infos().unwrap_or_else(|e| fail(tool_name, e));
    let host = pmix_core::net::local_hostname().to_string();
    match tool::init(&infos, &host) {
        Ok(c) => c,
        Err(e) => fail(tool_name, target.diagnose(&e)),
    }
}

/// Waits for a non-blocking call's completion.
pub fn wait<T: Send + 'static>(
    start: impl FnOnce(pmix_core::client::Done<T>) -> pmix_core::Result<()>,
) -> pmix_core::Result<T> {
    let (tx, rx) = mpsc::sync_channel(1);
    start(Box::new(move |r| {
        let _ = tx.send(r);
    }))?;
    rx.recv().map_err(|_| Error::Unreach)?
}

// ---- keys, qualifiers and values on the command line --------------------------------------

/// The key string for `name`: an attribute's macro name (PMIX_JOB_SIZE) or key string
/// (pmix.job.size); anything else is taken as it is.
pub fn key_of(name: &str) -> PStr {
    match pmix_core::attrs::by_name(name.as_bytes()) {
        Some(a) => PStr::from(a.key.to_bytes()),
        None => PStr::from(name),
    }
}

/// The macro name for a key string, if it is a known attribute's.
pub fn name_of(key: &[u8]) -> String {
    pmix_core::attrs::by_key(key).map_or_else(
        || String::from_utf8_lossy(key).into_owned(),
        |a| a.name.to_string_lossy().into_owned(),
    )
}

/// The declared type of the attribute with key string `key`.
fn type_of(key: &[u8]) -> Option<pmix_data_type_t> {
    pmix_core::attrs::by_key(key).map(|a| a.ty)
}

/// A data range by name (PMIX_RANGE_GLOBAL, global) or number.
pub fn parse_range(s: &str) -> Result<pmix_data_range_t, String> {
    const RANGES: [(&str, pmix_data_range_t); 9] = [
        ("UNDEF", PMIX_RANGE_UNDEF),
        ("RM", PMIX_RANGE_RM),
        ("LOCAL", PMIX_RANGE_LOCAL),
        ("NAMESPACE", PMIX_RANGE_NAMESPACE),
        ("SESSION", PMIX_RANGE_SESSION),
        ("GLOBAL", PMIX_RANGE_GLOBAL),
        ("CUSTOM", PMIX_RANGE_CUSTOM),
        ("PROC_LOCAL", PMIX_RANGE_PROC_LOCAL),
        ("INVALID", PMIX_RANGE_INVALID),
    ];
    if let Ok(n) = s.parse::<pmix_data_range_t>() {
        return Ok(n);
    }
    let up = s.to_ascii_uppercase();
    let bare = up.strip_prefix("PMIX_RANGE_").unwrap_or(&up);
    RANGES
        .iter()
        .find(|(n, _)| *n == bare)
        .map(|&(_, r)| r)
        .ok_or_else(|| {
            format!(
                "unknown range {s:?} (one of: {})",
                RANGES
                    .iter()
                    .map(|(n, _)| n.to_ascii_lowercase())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// A value of type `ty` read from text.
pub fn parse_value(ty: pmix_data_type_t, text: &str) -> Result<Value, String> {
    fn num<T: std::str::FromStr>(text: &str) -> Result<T, String> {
        text.trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a number of the attribute's type"))
    }
    Ok(match ty {
        PMIX_BOOL => match text.to_ascii_lowercase().as_str() {
            "" | "1" | "true" | "yes" | "on" => Value::Bool(true),
            "0" | "false" | "no" | "off" => Value::Bool(false),
            _ => return Err(format!("{text:?} is not a boolean")),
        },
        PMIX_INT => Value::Int(num(text)?),
        PMIX_INT8 => Value::Int8(num(text)?),
        PMIX_INT16 => Value::Int16(num(text)?),
        PMIX_INT32 => Value::Int32(num(text)?),
        PMIX_INT64 => Value::Int64(num(text)?),
        PMIX_UINT => Value::Uint(num(text)?),
        PMIX_UINT8 => Value::Uint8(num(text)?),
        PMIX_UINT16 => Value::Uint16(num(text)?),
        PMIX_UINT32 => Value::Uint32(num(text)?),
        PMIX_UINT64 => Value::Uint64(num(text)?),
        PMIX_SIZE => Value::Size(num(text)?),
        PMIX_PID => Value::Pid(num(text)?),
        PMIX_PROC_RANK => Value::ProcRank(num(text)?),
        PMIX_STATUS => Value::Status(num(text)?),
        PMIX_DATA_RANGE => Value::DataRange(parse_range(text)?),
        PMIX_PROC => {
            let (ns, rank) = text
                .rsplit_once(':')
                .ok_or_else(|| format!("{text:?} is not NSPACE:RANK"))?;
            let rank = if rank == "*" {
                PMIX_RANK_WILDCARD
            } else {
                num(rank)?
            };
            Value::Proc(Proc::new(ns, rank))
        }
        _ => string(text),
    })
}

/// A key with its qualifiers, as `pquery` takes them: `KEY` or `KEY[Q1=V1;Q2=V2]`.
pub fn parse_query(arg: &str) -> Result<Query, String> {
    let (name, quals) = match arg.split_once('[') {
        Some((n, rest)) => {
            let q = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("{arg:?}: the qualifiers lack their closing ']'"))?;
            (n, Some(q))
        }
        None => (arg, None),
    };
    if name.is_empty() {
        return Err(format!("{arg:?}: no key"));
    }
    let mut qualifiers = Vec::new();
    for q in quals.into_iter().flat_map(|q| q.split(';')) {
        if q.is_empty() {
            continue;
        }
        let (k, v) = q.split_once('=').unwrap_or((q, ""));
        let key = key_of(k);
        let value = match type_of(key.as_bytes()) {
            Some(ty) => parse_value(ty, v),
            None => Ok(string(v)),
        }
        .map_err(|e| format!("qualifier {k}: {e}"))?;
        qualifiers.push(Info::new(key, value));
    }
    Ok(Query {
        keys: vec![key_of(name)],
        qualifiers,
    })
}

// ---- printing ---------------------------------------------------------------------------

/// A process as NSPACE:RANK (`*` for the wildcard rank).
pub fn proc_text(p: &Proc) -> String {
    match p.rank {
        PMIX_RANK_WILDCARD => format!("{}:*", p.nspace),
        PMIX_RANK_UNDEF => format!("{}:undefined", p.nspace),
        r => format!("{}:{r}", p.nspace),
    }
}

/// A process state in a word or two (pps's STATE column).
pub fn proc_state_text(s: pmix_proc_state_t) -> &'static str {
    match s {
        PMIX_PROC_STATE_UNDEF => "UNDEFINED",
        PMIX_PROC_STATE_PREPPED => "PREPPED",
        PMIX_PROC_STATE_LAUNCH_UNDERWAY => "LAUNCHING",
        PMIX_PROC_STATE_RESTART => "RESTART",
        PMIX_PROC_STATE_TERMINATE => "TERMINATING",
        PMIX_PROC_STATE_RUNNING => "RUNNING",
        PMIX_PROC_STATE_CONNECTED => "CONNECTED",
        PMIX_PROC_STATE_UNTERMINATED => "UNTERMINATED",
        PMIX_PROC_STATE_TERMINATED => "TERMINATED",
        PMIX_PROC_STATE_ERROR => "ERROR",
        PMIX_PROC_STATE_KILLED_BY_CMD => "KILLED",
        PMIX_PROC_STATE_ABORTED => "ABORTED",
        PMIX_PROC_STATE_FAILED_TO_START => "FAILED_TO_START",
        PMIX_PROC_STATE_ABORTED_BY_SIG => "ABORTED_BY_SIGNAL",
        PMIX_PROC_STATE_TERM_WO_SYNC => "TERM_WITHOUT_FINALIZE",
        PMIX_PROC_STATE_COMM_FAILED => "COMM_FAILED",
        PMIX_PROC_STATE_CALLED_ABORT => "CALLED_ABORT",
        PMIX_PROC_STATE_TERM_NON_ZERO => "TERM_NON_ZERO",
        PMIX_PROC_STATE_FAILED_TO_LAUNCH => "FAILED_TO_LAUNCH",
        _ => "OTHER",
    }
}

/// A value on one line where it fits; data arrays and infos take one line per element,
/// indented by `indent` (the first line is not indented).
pub fn value_text(v: &Value, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match v {
        Value::String(Some(s)) => s.to_string(),
        Value::String(None) => "(null)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Byte(x) | Value::Uint8(x) => x.to_string(),
        Value::Size(x) | Value::Uint64(x) => x.to_string(),
        Value::Pid(x) | Value::Int(x) | Value::Int32(x) => x.to_string(),
        Value::Int8(x) => x.to_string(),
        Value::Int16(x) => x.to_string(),
        Value::Int64(x) => x.to_string(),
        Value::Uint(x) | Value::Uint32(x) => x.to_string(),
        Value::Uint16(x) => x.to_string(),
        Value::ProcRank(r) => proc_text(&Proc::new("", *r))[1..].to_string(),
        Value::Status(s) => format!(
            "{} ({s})",
            pmix_core::print::error_string(*s).to_string_lossy()
        ),
        Value::Proc(p) => proc_text(p),
        Value::ProcNspace(n) => n.to_string(),
        Value::DataRange(r) => pmix_core::print::data_range_string(*r)
            .to_string_lossy()
            .into_owned(),
        Value::JobState(s) => pmix_core::print::job_state_string(*s)
            .to_string_lossy()
            .into_owned(),
        Value::ProcState(s) => proc_state_text(*s).into(),
        Value::ProcInfo(p) => format!(
            "{} pid {} on {} state {} exit code {} executable {}",
            proc_text(&p.proc),
            p.pid,
            p.hostname.as_ref().map_or("?".into(), |h| h.to_string()),
            proc_state_text(p.state),
            p.exit_code,
            p.executable_name
                .as_ref()
                .map_or("?".into(), |e| e.to_string())
        ),
        Value::Info(i) => format!(
            "{} = {}",
            name_of(i.key.as_bytes()),
            value_text(&i.value, indent + 2)
        ),
        Value::Regattr(a) => format!(
            "{} ({}, {})",
            a.name
                .as_ref()
                .map_or_else(|| a.string.to_string(), |n| n.to_string()),
            a.string,
            pmix_core::print::data_type_string(a.ty).to_string_lossy()
        ),
        Value::DataArray(a) => {
            let mut s = format!(
                "{} element(s) of {}",
                a.items.len(),
                pmix_core::print::data_type_string(a.ty).to_string_lossy()
            );
            for item in &a.items {
                s.push('\n');
                s.push_str(&pad);
                s.push_str("  ");
                s.push_str(&value_text(item, indent + 2));
            }
            s
        }
        other => {
            let printed = pmix_core::print::Printer::default()
                .data(None, other.data_type(), other)
                .into_text()
                .unwrap_or_default();
            String::from_utf8_lossy(&printed).trim_end().to_string()
        }
    }
}

/// A query's answers by key (the infos a server returns).
pub fn answers_by_key<'a>(answers: &'a [Info], key: &std::ffi::CStr) -> Option<&'a Value> {
    pmix_core::values::info_value(answers, key)
}

/// Runs `queries` and returns the answers; exits with a message on failure.
pub fn query_or_exit(tool_name: &str, client: &Client, queries: &[Query]) -> Vec<Info> {
    match client.query(queries) {
        Ok((_, answers)) => answers,
        Err(e) => {
            let keys: Vec<String> = queries
                .iter()
                .flat_map(|q| q.keys.iter().map(|k| name_of(k.as_bytes())))
                .collect();
            fail(
                tool_name,
                format!(
                    "the server did not answer {}: {}",
                    keys.join(", "),
                    error_text(&e)
                ),
            )
        }
    }
}

/// The namespaces the server reports as active (`PMIX_QUERY_NAMESPACES`).
pub fn namespaces(tool_name: &str, client: &Client) -> Vec<String> {
    let answers = query_or_exit(
        tool_name,
        client,
        &[Query {
            keys: vec![PStr::from(PMIX_QUERY_NAMESPACES.to_bytes())],
            qualifiers: Vec::new(),
        }],
    );
    match answers_by_key(&answers, PMIX_QUERY_NAMESPACES) {
        Some(Value::String(Some(s))) => s
            .to_str_lossy()
            .split(',')
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Ends the connection (the server is told; waits at most a few seconds).
pub fn finish(client: &Client) {
    let _ = client.finalize();
}
