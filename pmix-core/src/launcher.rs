//! The launcher's side of an indirect launch (PMIx Standard v5, 18.2.3): a launcher started
//! by an initiator (a debugger, an IDE) with `PMIX_LAUNCHER_RNDZ_URI` (or
//! `PMIX_LAUNCHER_RNDZ_FILE`, a rendezvous file) in its environment connects back to the
//! initiator's server and waits for `PMIX_DEBUGGER_RELEASE`, whose `PMIX_LAUNCH_DIRECTIVES`
//! (if any) say how to launch.
//!
//! The reference does this inside `PMIx_tool_init` (and `PMIx_server_init`) whenever the
//! variable is set: it attaches to the initiator, records it as `PMIX_PARENT_ID`, and
//! blocks until the release. `pmix-ffi`'s `PMIx_tool_init` does the same with [`connect`]
//! and [`Rendezvous::wait_release`]; pmixrun, which hosts its own server, uses [`connect`]
//! and waits while it serves its tools. Announcing the launcher (`PMIX_LAUNCHER_READY`) is
//! the launcher's business, as in the reference (PRRTE's launchers send it).

use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

use pmix_sys::*;

use crate::client::Client;
use crate::events::{Event, Next};
use crate::values::{Info, Proc, Value};
use crate::wire::{PeerKind, ServerUri};
use crate::{Error, Result};

/// The variable naming the initiator's server URI.
pub const RNDZ_URI: &str = "PMIX_LAUNCHER_RNDZ_URI";
/// The variable naming a rendezvous file of the initiator's server.
pub const RNDZ_FILE: &str = "PMIX_LAUNCHER_RNDZ_FILE";

/// The initiator's server named by the environment (`get` reads a variable), if any.
pub fn initiator(get: impl Fn(&str) -> Option<String>) -> Option<Result<ServerUri>> {
    if let Some(u) = get(RNDZ_URI) {
        return Some(ServerUri::parse_tool(&u));
    }
    let f = get(RNDZ_FILE)?;
    Some(
        crate::rendezvous::read(Path::new(&f))
            .and_then(|r| Ok(ServerUri::parse_tool(&r.uri)?.with_unix(r.unix))),
    )
}

/// What the initiator does, as the launcher sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum FromInitiator {
    /// `PMIX_DEBUGGER_RELEASE`, with the `PMIX_LAUNCH_DIRECTIVES` it carried.
    Released(Vec<Info>),
    /// The connection to the initiator is lost.
    Gone,
}

/// A launcher's connection to its initiator.
pub struct Rendezvous {
    /// The connection (its `server` is the initiator's server: the launcher's parent).
    pub client: Arc<Client>,
    rx: Mutex<mpsc::Receiver<FromInitiator>>,
}

impl std::fmt::Debug for Rendezvous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rendezvous")
            .field("initiator", &self.client.server)
            .finish()
    }
}

/// The infos of a `PMIX_LAUNCH_DIRECTIVES` array in `info`.
fn directives(info: &[Info]) -> Vec<Info> {
    info.iter()
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
        .collect()
}

/// Connects to the initiator's server at `uri` as a tool of `kind` (with identity `id`,
/// or one the initiator assigns), and registers, there and locally, for
/// `PMIX_DEBUGGER_RELEASE` and the loss of the connection. Returns once the initiator's
/// server has the registration, so a release sent after that is not missed (one sent
/// before is replayed by servers that cache events, ours and the reference's).
pub fn connect(uri: &ServerUri, kind: PeerKind, id: Option<Proc>) -> Result<Rendezvous> {
    let client = Arc::new(crate::tool::connect(uri, kind, id, Vec::new())?);
    let (tx, rx) = mpsc::channel();
    let release = Mutex::new(tx.clone());
    client.events.register(
        &[PMIX_DEBUGGER_RELEASE],
        &[],
        Arc::new(move |_, ev: &Event, _: &[Info], next: Next| {
            let tx = release.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let _ = tx.send(FromInitiator::Released(directives(&ev.info)));
            next.call(PMIX_EVENT_ACTION_COMPLETE, Vec::new());
        }),
    );
    let gone = Mutex::new(tx);
    client.events.register(
        &[PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH],
        &[],
        Arc::new(move |_, _: &Event, _: &[Info], next: Next| {
            let tx = gone.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let _ = tx.send(FromInitiator::Gone);
            next.call(PMIX_SUCCESS, Vec::new());
        }),
    );
    let (dtx, drx) = mpsc::channel();
    client.register_events_nb(
        &[PMIX_DEBUGGER_RELEASE],
        &[],
        Box::new(move |r| drop(dtx.send(r))),
    )?;
    drx.recv().map_err(|_| Error::Unreach)??;
    Ok(Rendezvous {
        client,
        rx: Mutex::new(rx),
    })
}

impl Rendezvous {
    /// The initiator's server (the launcher's `PMIX_PARENT_ID`).
    pub fn parent(&self) -> &Proc {
        &self.client.server
    }

    /// The next thing the initiator does; `Gone` also when nothing more can come.
    pub fn next(&self) -> FromInitiator {
        let rx = self.rx.lock().unwrap_or_else(|e| e.into_inner());
        rx.recv().unwrap_or(FromInitiator::Gone)
    }

    /// Blocks until the release; its launch directives. `PMIX_ERR_UNREACH` when the
    /// initiator is gone first (the reference would wait forever).
    pub fn wait_release(&self) -> Result<Vec<Info>> {
        match self.next() {
            FromInitiator::Released(d) => Ok(d),
            FromInitiator::Gone => Err(Error::Unreach),
        }
    }
}
