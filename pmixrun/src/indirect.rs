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
use pmix_core::launcher::FromInitiator;
use pmix_core::values::{Info, PStr, Value};
use pmix_core::wire::{PeerKind, ServerUri};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::run::Cmd;

/// The environment variables of an indirect launch (not passed on to the job).
pub const VARS: [&str; 4] = [
    pmix_core::launcher::RNDZ_URI,
    pmix_core::launcher::RNDZ_FILE,
    "PMIX_KEEPALIVE_PIPE",
    "PMIX_LAUNCHER_RENDEZVOUS_FILE",
];

/// The initiator's server, if pmixrun was started by one.
pub fn initiator() -> Option<Result<ServerUri>> {
    pmix_core::launcher::initiator(|k| std::env::var(k).ok())
}

/// The keepalive descriptor, if one was given.
pub fn keepalive_fd() -> Option<Result<i32>> {
    let v = std::env::var("PMIX_KEEPALIVE_PIPE").ok()?;
    Some(v.trim().parse::<i32>().map_err(|_| Error::BadParam))
}

/// Connects to the initiator (the library's rendezvous, `pmix_core::launcher`, as a
/// `PMIx_tool_init` of a launcher does it) and announces pmixrun (`own_uri`,
/// `own_nspace`: pmixrun's server) with `PMIX_LAUNCHER_READY`, as PRRTE's launchers do.
/// The release and the loss of the initiator arrive on `tx` as [`Cmd::Released`] and
/// [`Cmd::InitiatorGone`]: pmixrun serves its tools while it waits.
pub fn rendezvous(
    uri: &ServerUri,
    own_uri: &str,
    own_nspace: &PStr,
    tx: mpsc::Sender<Cmd>,
) -> Result<Arc<Client>> {
    let rndz = pmix_core::launcher::connect(uri, PeerKind::LauncherNeedsId, None)?;
    let client = rndz.client.clone();
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
    let (dtx, drx) = mpsc::channel();
    client.notify_nb(
        PMIX_LAUNCHER_READY,
        None,
        PMIX_RANGE_RM,
        &info,
        Box::new(move |r| drop(dtx.send(r))),
    )?;
    drx.recv().map_err(|_| Error::Unreach)??;
    let _ = std::thread::Builder::new()
        .name("initiator".into())
        .spawn(move || {
            loop {
                let cmd = match rndz.next() {
                    FromInitiator::Released(d) => Cmd::Released(d),
                    FromInitiator::Gone => Cmd::InitiatorGone,
                };
                let gone = matches!(cmd, Cmd::InitiatorGone);
                if tx.send(cmd).is_err() || gone {
                    break;
                }
            }
        });
    Ok(client)
}
