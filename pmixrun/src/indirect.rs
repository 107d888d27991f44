//! Indirect launch: pmixrun started by another program (the initiator: a debugger, an IDE,
//! a workflow tool) as its intermediate launcher (PMIx Standard v5, 18.2.3).
//!
//! - `PMIX_LAUNCHER_RNDZ_URI` (or `PMIX_LAUNCHER_RNDZ_FILE`, a rendezvous file) in the
//!   environment names the initiator's server. pmixrun connects to it as a launcher tool,
//!   registers for `PMIX_DEBUGGER_RELEASE`, announces itself with `PMIX_LAUNCHER_READY`
//!   (carrying its own `PMIX_SERVER_URI` and `PMIX_SERVER_NSPACE`, for the initiator to
//!   attach), and starts the command line's job only when released. The release may carry
//!   `PMIX_LAUNCH_DIRECTIVES` (an array of infos) applied to that job, as spawn directives
//!   are (debugger stops, agents): the launcher-parses flow. In the initiator-parses flow
//!   the initiator starts `pmixrun --persistent`, releases it, attaches to the URI it was
//!   given and spawns its jobs itself.
//! - `PMIX_LAUNCHER_RENDEZVOUS_FILE` names a file where pmixrun's server writes its
//!   rendezvous information (for the initiator's `PMIX_TOOL_ATTACHMENT_FILE`).
//! - `PMIX_KEEPALIVE_PIPE` names a descriptor (the read end of a pipe whose write end the
//!   initiator holds): when it reads end-of-file, the initiator is gone and pmixrun ends
//!   its jobs and exits.

use std::sync::{Arc, mpsc};

use pmix_core::client::Client;
use pmix_core::events::{Event, Next};
use pmix_core::values::{Info, PStr, Value};
use pmix_core::wire::{PeerKind, ServerUri};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::run::Cmd;

/// The environment variables of an indirect launch (not passed on to the job).
pub const VARS: [&str; 4] = [
    "PMIX_LAUNCHER_RNDZ_URI",
    "PMIX_LAUNCHER_RNDZ_FILE",
    "PMIX_KEEPALIVE_PIPE",
    "PMIX_LAUNCHER_RENDEZVOUS_FILE",
];

/// The initiator's server, if pmixrun was started by one.
pub fn initiator() -> Option<Result<ServerUri>> {
    if let Ok(u) = std::env::var("PMIX_LAUNCHER_RNDZ_URI") {
        return Some(ServerUri::parse_tool(&u));
    }
    let f = std::env::var_os("PMIX_LAUNCHER_RNDZ_FILE")?;
    Some(
        pmix_core::rendezvous::read(std::path::Path::new(&f))
            .and_then(|r| ServerUri::parse_tool(&r.uri)),
    )
}

/// The keepalive descriptor, if one was given.
pub fn keepalive_fd() -> Option<Result<i32>> {
    let v = std::env::var("PMIX_KEEPALIVE_PIPE").ok()?;
    Some(v.trim().parse::<i32>().map_err(|_| Error::BadParam))
}

fn wait<T: Send + 'static>(
    start: impl FnOnce(pmix_core::host::Done<T>) -> Result<()>,
) -> Result<T> {
    let (tx, rx) = mpsc::channel();
    start(Box::new(move |r| drop(tx.send(r))))?;
    rx.recv().map_err(|_| Error::Unreach)?
}

/// Connects to the initiator, registers for the release and announces pmixrun (`own_uri`,
/// `own_nspace`: pmixrun's server). The release and the loss of the initiator arrive on
/// `tx` as [`Cmd::Released`] and [`Cmd::InitiatorGone`].
pub fn rendezvous(
    uri: &ServerUri,
    own_uri: &str,
    own_nspace: &PStr,
    tx: mpsc::Sender<Cmd>,
) -> Result<Arc<Client>> {
    let client = Arc::new(pmix_core::tool::connect(
        uri,
        PeerKind::LauncherNeedsId,
        None,
        Vec::new(),
    )?);
    let release = tx.clone();
    client.events.register(
        &[PMIX_DEBUGGER_RELEASE],
        &[],
        Arc::new(move |_, ev: &Event, _: &[Info], next: Next| {
            let directives = ev
                .info
                .iter()
                .filter(|i| i.is(PMIX_LAUNCH_DIRECTIVES))
                .flat_map(|i| match &i.value {
                    Value::DataArray(d) => d
                        .items
                        .iter()
                        .filter_map(|v| match v {
                            Value::Info(x) => Some((**x).clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                })
                .collect();
            let _ = release.send(Cmd::Released(directives));
            next.call(PMIX_EVENT_ACTION_COMPLETE, Vec::new());
        }),
    );
    let gone = tx;
    client.events.register(
        &[PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH],
        &[],
        Arc::new(move |_, _: &Event, _: &[Info], next: Next| {
            let _ = gone.send(Cmd::InitiatorGone);
            next.call(PMIX_SUCCESS, Vec::new());
        }),
    );
    wait(|d| client.register_events_nb(&[PMIX_DEBUGGER_RELEASE], &[], d))?;
    let info = [
        Info::new(PMIX_EVENT_NON_DEFAULT.to_bytes(), Value::Bool(true)),
        Info::new(
            PMIX_SERVER_URI.to_bytes(),
            Value::String(Some(PStr::from(own_uri))),
        ),
        Info::new(
            PMIX_SERVER_NSPACE.to_bytes(),
            Value::String(Some(own_nspace.clone())),
        ),
        Info::new(
            PMIX_EVENT_AFFECTED_PROC.to_bytes(),
            Value::Proc(client.me.clone()),
        ),
    ];
    wait(|d| client.notify_nb(PMIX_LAUNCHER_READY, None, PMIX_RANGE_RM, &info, d))?;
    Ok(client)
}
