//! The resource manager's side of a server: the upcalls of `pmix_server_module_t`, in Rust.
//!
//! The server engine calls a [`Host`] for every client request it cannot answer alone. Each
//! upcall takes a `done` callback and returns nothing: the host calls `done` exactly once,
//! before returning (an immediate answer) or later from any thread (an answer that needs the
//! rest of the system). The engine never holds an internal lock while it calls the host, and
//! `done` only posts the answer to the progress thread, so either timing is safe.
//!
//! A host that does not implement an upcall answers `false` to [`Host::provides`]; the engine
//! then replies `PMIX_ERR_NOT_SUPPORTED` to the requester (or does the work itself, where the
//! standard lets the library do so: a fence of local processes only, for one).
//!
//! The C adapter (`pmix-ffi`) maps the C convention onto this one: an upcall that returns
//! `PMIX_SUCCESS` will call its C callback later, which calls `done`; `PMIX_OPERATION_SUCCEEDED`
//! means done with success now; any other status means done with that error now.

use pmix_sys::*;

use crate::values::{App, Info, Pdata, Proc, Query};
use crate::{Error, Result};

/// The completion of an upcall.
pub type Done<T> = Box<dyn FnOnce(Result<T>) + Send>;

/// The upcalls of `pmix_server_module_t`, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Upcall {
    ClientConnected,
    ClientFinalized,
    Abort,
    FenceNb,
    DirectModex,
    Publish,
    Lookup,
    Unpublish,
    Spawn,
    Connect,
    Disconnect,
    RegisterEvents,
    DeregisterEvents,
    Listener,
    NotifyEvent,
    Query,
    ToolConnected,
    Log,
    Allocate,
    JobControl,
    Monitor,
    GetCredential,
    ValidateCredential,
    IofPull,
    PushStdin,
    Group,
    Fabric,
    ClientConnected2,
}

/// What a fence upcall returns: the collected data of every participant, as the host's
/// modex blob (opaque to the host; built and read by the server engine).
pub type ModexData = Vec<u8>;

/// A validated credential: the status and the attributes describing it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Validation {
    pub info: Vec<Info>,
}

/// An issued credential.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Credential {
    pub cred: Vec<u8>,
    pub info: Vec<Info>,
}

/// The host environment of a server. Every method has a default that answers
/// `PMIX_ERR_NOT_SUPPORTED`; [`Host::provides`] says which ones the host really has.
#[allow(unused_variables)]
pub trait Host: Send + Sync {
    /// Whether the host implements `upcall` (its C function pointer is not NULL).
    fn provides(&self, upcall: Upcall) -> bool;

    /// A client finished its handshake (`client_connected2`, or `client_connected` when
    /// the host has only the old entry).
    fn client_connected(&self, proc: &Proc, info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn client_finalized(&self, proc: &Proc, done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn abort(
        &self,
        proc: &Proc,
        status: pmix_status_t,
        msg: Option<&[u8]>,
        procs: &[Proc],
        done: Done<()>,
    ) {
        done(Err(Error::NotSupported))
    }
    /// A fence over `procs`; `data` is the local contribution; `done` gets every
    /// participant's contribution concatenated (the host's collective result).
    fn fence_nb(&self, procs: &[Proc], info: &[Info], data: Vec<u8>, done: Done<ModexData>) {
        done(Err(Error::NotSupported))
    }
    /// Ask the host for the committed data of a process on another node.
    fn direct_modex(&self, proc: &Proc, info: &[Info], done: Done<ModexData>) {
        done(Err(Error::NotSupported))
    }
    fn publish(&self, proc: &Proc, info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn lookup(&self, proc: &Proc, keys: &[Vec<u8>], info: &[Info], done: Done<Vec<Pdata>>) {
        done(Err(Error::NotSupported))
    }
    fn unpublish(&self, proc: &Proc, keys: &[Vec<u8>], info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    /// Spawn a job; `done` gets the new namespace.
    fn spawn(&self, proc: &Proc, job_info: &[Info], apps: &[App], done: Done<Vec<u8>>) {
        done(Err(Error::NotSupported))
    }
    fn connect(&self, procs: &[Proc], info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn disconnect(&self, procs: &[Proc], info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn register_events(&self, codes: &[pmix_status_t], info: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn deregister_events(&self, codes: &[pmix_status_t], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn notify_event(
        &self,
        code: pmix_status_t,
        source: &Proc,
        range: pmix_data_range_t,
        info: &[Info],
        done: Done<()>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn query(&self, proc: &Proc, queries: &[Query], done: Done<Vec<Info>>) {
        done(Err(Error::NotSupported))
    }
    /// A tool connected; `done` gets the identity the host gives it.
    fn tool_connected(&self, info: &[Info], done: Done<Proc>) {
        done(Err(Error::NotSupported))
    }
    /// A tool's connection ended (finalized or not). Not an upcall of the C module: the
    /// reference (4.2.2 and 5.0.11) calls no upcall when a tool leaves (`client_finalized`
    /// is for clients only), and neither do we; a C host learns it from the
    /// `PMIX_ERR_LOST_CONNECTION` event the server raises to its own handlers. For Rust
    /// hosts (pmixrun), which can drop what they set up for the tool.
    fn tool_gone(&self, tool: &Proc) {}
    fn log(&self, proc: &Proc, data: &[Info], directives: &[Info], done: Done<()>) {
        done(Err(Error::NotSupported))
    }
    fn allocate(
        &self,
        proc: &Proc,
        directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn job_control(
        &self,
        proc: &Proc,
        targets: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn monitor(
        &self,
        proc: &Proc,
        monitor: &Info,
        error: pmix_status_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn get_credential(&self, proc: &Proc, directives: &[Info], done: Done<Credential>) {
        done(Err(Error::NotSupported))
    }
    fn validate_credential(
        &self,
        proc: &Proc,
        cred: &[u8],
        directives: &[Info],
        done: Done<Validation>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn iof_pull(
        &self,
        procs: &[Proc],
        directives: &[Info],
        channels: pmix_iof_channel_t,
        done: Done<()>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn push_stdin(
        &self,
        source: &Proc,
        targets: &[Proc],
        directives: &[Info],
        data: Option<&[u8]>,
        done: Done<()>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn group(
        &self,
        op: pmix_group_operation_t,
        grp: &[u8],
        procs: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Err(Error::NotSupported))
    }
    fn fabric(
        &self,
        requestor: &Proc,
        op: pmix_fabric_operation_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        done(Err(Error::NotSupported))
    }
}

/// A host with no upcalls at all (`PMIx_server_init` with a NULL module).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHost;

impl Host for NoHost {
    fn provides(&self, _upcall: Upcall) -> bool {
        false
    }
}
