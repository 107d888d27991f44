//! The roles this process holds (client, server) and whether the library is initialized.
//!
//! `PMIx_Init` is reference-counted, as in the reference: every successful call (including
//! the one that returns `PMIX_ERR_UNREACH` and leaves a singleton) takes a reference, and
//! the last `PMIx_Finalize` ends the client. The state is behind a mutex that is only held
//! to read or swap the role handles, never across a call into the core that may block.

use core::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard};

use pmix_core::client::{Client, ClientEnv};
use pmix_core::server::Server;
use pmix_core::{Error, Info, Result};
use pmix_sys::*;

use crate::entry;
use crate::host::CHost;

#[derive(Default)]
struct Roles {
    client: Option<Arc<Client>>,
    client_refs: u32,
    /// `PMIx_Init` found no server: report `PMIX_ERR_UNREACH` on every init.
    singleton: bool,
    server: Option<Server>,
    host: Option<Arc<CHost>>,
    /// The client side of the server process (`PMIx_Get`, `PMIx_Store_internal` there).
    server_client: Option<Arc<Client>>,
    /// A tool's connections to servers other than its primary (`client`), in the order
    /// they were attached.
    others: Vec<Arc<Client>>,
    /// The system tmpdir a tool was given (`PMIX_SYSTEM_TMPDIR` at `PMIx_tool_init`).
    system_tmpdir: Option<std::path::PathBuf>,
    /// A server's connection to the initiator that started it (indirect launch).
    server_parent: Option<Arc<Client>>,
    /// `server` is a listening tool's (a launcher's or a scheduler's): it ends with the tool.
    tool_server: bool,
    /// The module `PMIx_tool_set_server_module` gave before the tool listened.
    tool_module: Option<pmix_server_module_t>,
}

static ROLES: Mutex<Option<Roles>> = Mutex::new(None);

fn roles() -> MutexGuard<'static, Option<Roles>> {
    ROLES.lock().unwrap_or_else(|e| e.into_inner())
}

fn with<R>(f: impl FnOnce(&mut Roles) -> R) -> R {
    let mut g = roles();
    f(g.get_or_insert_with(Roles::default))
}

/// Whether `PMIx_Init` or `PMIx_server_init` has succeeded (and not been finalized).
pub(crate) fn initialized() -> bool {
    with(|r| r.client.is_some() || r.server.is_some())
}

/// Where servers advertise themselves: a tool's `PMIX_SYSTEM_TMPDIR`, else
/// `$PMIX_SYSTEM_TMPDIR` (set by the server of a client), `$TMPDIR`, ..., `/tmp`.
pub(crate) fn system_tmpdir() -> std::path::PathBuf {
    with(|r| r.system_tmpdir.clone()).unwrap_or_else(|| pmix_core::tool::system_tmpdir(&[]))
}

/// `Err(Error::Init)` unless the library is initialized.
pub(crate) fn require_init() -> Result<()> {
    if initialized() {
        Ok(())
    } else {
        Err(Error::Init)
    }
}

/// The client role (in a server process: its local client side).
pub(crate) fn client() -> Result<Arc<Client>> {
    with(|r| r.client.clone().or_else(|| r.server_client.clone())).ok_or(Error::Init)
}

/// The server role of a server process (`PMIx_server_init`). A listening tool's server is
/// not one: the tool's own calls (events, queries, ...) go to the servers it is connected
/// to, as a tool's do.
pub(crate) fn server() -> Result<Server> {
    with(|r| r.server.clone().filter(|_| !r.tool_server)).ok_or(Error::Init)
}

/// The server role of a process that is a server and not the client of another server
/// (whose requests, such as `PMIx_Spawn`, go to its own host).
pub(crate) fn server_only() -> Option<Server> {
    with(|r| {
        if r.client.is_none() {
            r.server.clone()
        } else {
            None
        }
    })
}

/// The server role of a server process and its C host.
pub(crate) fn server_host() -> Result<(Server, Arc<CHost>)> {
    with(|r| {
        if r.tool_server {
            return None;
        }
        Some((r.server.clone()?, r.host.clone()?))
    })
    .ok_or(Error::Init)
}

/// `PMIx_Init`: connects to the server named in the environment, or becomes a singleton
/// and reports `PMIX_ERR_UNREACH` (the reference's behaviour, which Open MPI relies on)
/// unless a system server took it.
pub(crate) fn client_init(_info: &[Info]) -> Result<(pmix_core::Proc, bool)> {
    if let Some(c) = with(|r| {
        let c = r.client.clone()?;
        r.client_refs += 1;
        Some((c, r.singleton))
    }) {
        return Ok((c.0.me.clone(), c.1));
    }
    if let Ok(s) = server() {
        // A server process calling PMIx_Init acts as a client of itself: it is initialized.
        with(|r| r.client_refs += 1);
        let me = s.cfg.id.clone();
        return Ok((me, false));
    }
    let env = ClientEnv::from_env(|k| std::env::var(k).ok())?;
    let client = Arc::new(Client::connect(env)?);
    // (a singleton that a system server took is connected: PMIx_Init succeeds)
    let singleton = client.is_singleton();
    let me = client.me.clone();
    with(|r| {
        if r.client.is_none() {
            r.client = Some(client.clone());
            r.singleton = singleton;
        }
        r.client_refs += 1;
    });
    // PMIX_DEBUG_STOP_IN_INIT: wait here, with no lock held, for the debugger's release.
    client.stop_in_init()?;
    Ok((me, singleton))
}

/// `PMIx_tool_init`: connects as a tool (or, with `PMIX_TOOL_DO_NOT_CONNECT` or an optional
/// connection that failed, stays unconnected with an identity of its own).
pub(crate) fn tool_init(info: &[Info]) -> Result<pmix_core::Proc> {
    use pmix_core::tool;
    if let Some(c) = with(|r| {
        let c = r.client.clone()?;
        r.client_refs += 1;
        Some(c)
    }) {
        return Ok(c.me.clone());
    }
    let host = pmix_core::net::local_hostname().to_string();
    let client = tool::init(info, &host)?;
    let client = Arc::new(client);
    let me = client.me.clone();
    let sysdir = tool::system_tmpdir(info);
    // Started by an initiator (an indirect launch): connect back and wait for its release,
    // as the reference does here. Its connection stays, as a server beside the primary.
    let initiator = match launcher_rendezvous(&client, info) {
        Ok(i) => i,
        Err(e) => {
            let _ = client.finalize();
            return Err(e);
        }
    };
    let mut extra = None;
    let installed = with(|r| {
        r.client_refs += 1;
        if r.client.is_none() {
            r.client = Some(client.clone());
            r.system_tmpdir = Some(sysdir);
            r.others.extend(initiator);
            true
        } else {
            extra = initiator;
            false
        }
    });
    if installed {
        crate::keepalive::watch(&client);
        if let Err(e) = tool_listen(&client, info) {
            let _ = client_finalize();
            return Err(e);
        }
    } else {
        let _ = client.finalize();
    }
    if let Some(c) = extra {
        let _ = c.finalize();
    }
    Ok(me)
}

/// A launcher or scheduler tool (`PMIX_LAUNCHER`, `PMIX_SERVER_SCHEDULER`) accepts
/// connections, as OpenPMIx 5's does: a server with the tool's identity listens, its URI is
/// the tool's `PMIX_MYSERVER_URI` (and `PMIX_SERVER_URI`) and its host the module of
/// `PMIx_tool_set_server_module` (none until then: the tools of the same user that bring
/// their identity are accepted, others refused; `ServerConfig::own_user_tools`). The
/// rendezvous files and the URI report are those `info` asks for, as for `PMIx_server_init`.
fn tool_listen(client: &Arc<Client>, info: &[Info]) -> Result<()> {
    use pmix_core::{PStr, Value};
    let listens = [PMIX_LAUNCHER, PMIX_SERVER_SCHEDULER]
        .iter()
        .any(|k| pmix_core::values::info_flag(info, k));
    if !listens {
        return Ok(());
    }
    let mut cfg = pmix_core::server::ServerConfig::from_info(info)?;
    cfg.id = client.me.clone();
    cfg.own_user_tools = true;
    let module = with(|r| r.tool_module.take()).unwrap_or_else(|| {
        // SAFETY: NULL gives a module without upcalls.
        unsafe { CHost::copy_module(core::ptr::null()) }
    });
    let host = Arc::new(CHost::new(&module));
    let server = pmix_core::server::start(host.clone(), cfg)?;
    let installed = with(|r| {
        if r.server.is_some() {
            return false;
        }
        r.server = Some(server.clone());
        r.host = Some(host);
        r.tool_server = true;
        true
    });
    if !installed {
        // A process that is already a server serves through that one.
        server.finalize();
        return Ok(());
    }
    let uri = server.uri.to_uri();
    for key in [PMIX_MYSERVER_URI, PMIX_SERVER_URI] {
        client.store_internal(
            &client.me,
            PStr::from(key.to_bytes()),
            Value::String(Some(uri.as_str().into())),
        )?;
    }
    Ok(())
}

/// A listening tool that is connected to no server (a launcher started with
/// `PMIX_TOOL_DO_NOT_CONNECT`): its server and its identity. Its `PMIx_Spawn` starts the
/// processes itself (`api/client/forkexec.rs`).
pub(crate) fn unconnected_listening_tool() -> Option<(Server, pmix_core::Proc)> {
    with(|r| {
        let c = r.client.as_ref()?;
        if !r.tool_server || c.connected() {
            return None;
        }
        Some((r.server.clone()?, c.me.clone()))
    })
}

/// `PMIx_tool_set_server_module`: the host of this process's server from now on (a listening
/// tool's, or a server's); kept for a tool that listens later.
pub(crate) fn set_tool_module(module: pmix_server_module_t) {
    let host = with(|r| {
        let h = r.host.clone();
        if h.is_none() {
            r.tool_module = Some(module);
        }
        h
    });
    if let Some(h) = host {
        h.replace_module(module);
    }
}

/// The rendezvous of a tool started with `PMIX_LAUNCHER_RNDZ_URI` (or
/// `PMIX_LAUNCHER_RNDZ_FILE`) in its environment, inside `PMIx_tool_init` as in the
/// reference: connects to the initiator's server with the tool's identity (`PMIX_ERR_UNREACH`
/// if that fails), records it as `PMIX_PARENT_ID`, registers for `PMIX_DEBUGGER_RELEASE` and
/// blocks until the initiator releases the tool. Unlike the reference, the release's
/// `PMIX_LAUNCH_DIRECTIVES` are kept for the tool (`PMIx_Get` of that key on its own
/// identity), and the loss of the initiator ends the wait with `PMIX_ERR_UNREACH` (the
/// reference waits forever). Returns the connection to the initiator.
fn launcher_rendezvous(client: &Arc<Client>, info: &[Info]) -> Result<Option<Arc<Client>>> {
    use pmix_core::wire::PeerKind;
    let Some(uri) = pmix_core::launcher::initiator(|k| std::env::var(k).ok()) else {
        return Ok(None);
    };
    let uri = uri.map_err(|_| Error::Unreach)?;
    let launcher = pmix_core::values::info_value(info, PMIX_LAUNCHER)
        .is_some_and(|v| v.as_bool().unwrap_or(true));
    let kind = if launcher {
        PeerKind::LauncherGivenId
    } else {
        PeerKind::ToolGivenId
    };
    let rndz = pmix_core::launcher::connect(&uri, kind, Some(client.me.clone()))
        .map_err(|_| Error::Unreach)?;
    if let Err(e) = released(client, &rndz) {
        let _ = rndz.client.finalize();
        return Err(e);
    }
    Ok(Some(rndz.client.clone()))
}

/// `PMIx_tool_attach_to_server`: finds a server with `info` (as `PMIx_tool_init` does) and
/// connects to it with the tool's identity. The new connection becomes the primary one
/// (where requests go) if the tool had none or `PMIX_PRIMARY_SERVER` is true; otherwise it
/// is kept beside the primary. Attaching to a server the tool is already connected to
/// returns that connection. Returns the tool's and the server's identities.
pub(crate) fn tool_attach(info: &[Info]) -> Result<(pmix_core::Proc, pmix_core::Proc)> {
    use pmix_core::tool;
    let c = client()?;
    let host = pmix_core::net::local_hostname().to_string();
    let (uri, kind) = tool::locate(info, &host)?.ok_or(Error::Unreach)?;
    if let Some(known) = connections()
        .into_iter()
        .find(|k| k.server.nspace == uri.nspace && k.server.rank == uri.rank)
    {
        return Ok((known.me.clone(), known.server.clone()));
    }
    let kind = match kind {
        pmix_core::wire::PeerKind::ToolNeedsId => pmix_core::wire::PeerKind::ToolGivenId,
        pmix_core::wire::PeerKind::LauncherNeedsId => pmix_core::wire::PeerKind::LauncherGivenId,
        k => k,
    };
    let new = Arc::new(tool::connect(
        &uri,
        kind,
        Some(c.me.clone()),
        tool::blob(info),
    )?);
    let ids = (new.me.clone(), new.server.clone());
    let primary = !c.connected() || pmix_core::values::info_flag(info, PMIX_PRIMARY_SERVER);
    with(|r| {
        if primary {
            if let Some(old) = r.client.replace(new)
                && old.connected()
            {
                r.others.push(old);
            }
        } else {
            r.others.push(new);
        }
    });
    Ok(ids)
}

/// Every connection of a tool to a server: the primary first, then the others.
pub(crate) fn connections() -> Vec<Arc<Client>> {
    with(|r| {
        r.client
            .iter()
            .filter(|c| c.connected())
            .chain(r.others.iter())
            .cloned()
            .collect()
    })
}

/// `PMIx_tool_set_server`: makes the connection to `server` the primary one;
/// `PMIX_ERR_UNREACH` (the reference's answer) for a server the tool is not connected to.
pub(crate) fn tool_set_primary(server: &pmix_core::Proc) -> Result<()> {
    with(|r| {
        if r.client
            .as_ref()
            .is_some_and(|c| c.connected() && c.server == *server)
        {
            return Ok(());
        }
        let pos = r
            .others
            .iter()
            .position(|c| c.server == *server)
            .ok_or(Error::Unreach)?;
        let new = r.others.remove(pos);
        if let Some(old) = r.client.replace(new)
            && old.connected()
        {
            r.others.push(old);
        }
        Ok(())
    })
}

/// `PMIx_tool_disconnect`: ends the connection to `server`. After the primary's, the tool
/// has no primary until `PMIx_tool_set_server` names one of the others: requests meanwhile
/// fail with `PMIX_ERR_UNREACH`, as with the reference.
pub(crate) fn tool_disconnect(server: &pmix_core::Proc) -> Result<()> {
    let gone = with(|r| {
        if let Some(c) = r
            .client
            .as_ref()
            .filter(|c| c.connected() && c.server == *server)
        {
            // Stays in place, closed: the tool keeps its identity and handlers.
            return Ok(c.clone());
        }
        let pos = r
            .others
            .iter()
            .position(|c| c.server == *server)
            .ok_or(Error::NotFound)?;
        Ok(r.others.remove(pos))
    })?;
    // Outside the lock: finalizing waits for the server's answer.
    gone.finalize()
}

/// `PMIx_Finalize`: drops one reference; the last one finalizes the client.
pub(crate) fn client_finalize() -> Result<()> {
    let last = with(|r| {
        r.client.as_ref()?;
        r.client_refs = r.client_refs.saturating_sub(1);
        if r.client_refs == 0 {
            r.singleton = false;
            r.system_tmpdir = None;
            r.client.take()
        } else {
            None
        }
    });
    if let Some(c) = last {
        let (others, server) = with(|r| {
            let server = if r.tool_server {
                r.tool_server = false;
                r.host = None;
                r.server.take()
            } else {
                None
            };
            (std::mem::take(&mut r.others), server)
        });
        // A listening tool stops listening first: its peers are told it is gone.
        if let Some(s) = server {
            s.finalize();
        }
        for o in others {
            let _ = o.finalize();
        }
        c.finalize()?;
    }
    Ok(())
}

/// Whether `nspace` names a peer this process can pack for or unpack from
/// (`PMIx_Data_pack`'s target, as OpenPMIx finds it): its own namespace, its server's, or a
/// namespace its server role registered. Nothing before an init.
pub(crate) fn knows_nspace(nspace: &pmix_core::PStr) -> bool {
    let (client, server) = with(|r| (r.client.clone(), r.server.clone()));
    client.is_some_and(|c| c.me.nspace == *nspace || c.server.nspace == *nspace)
        || server.is_some_and(|s| s.cfg.id.nspace == *nspace || s.has_nspace(nspace))
}

/// Where OpenPMIx's internal help messages (`pmix_show_help`, which PRRTE calls) go in a
/// server process: its log (folded repeats, written where its job's output goes); the
/// internal layer prints them to stderr when this declines.
fn help_sink(file: &[u8], topic: &[u8], msg: &[u8]) -> bool {
    server_only().is_some_and(|s| s.show_help(file, topic, msg))
}

/// Installs the server role.
pub(crate) fn set_server(server: Server, host: Arc<CHost>) -> Result<()> {
    pmix_internals::output::show_help::set_sink(help_sink);
    with(|r| {
        if r.server.is_some() {
            return Err(Error::Status(PMIX_ERR_INIT));
        }
        r.server_client = Some(Arc::new(Client::local(server.cfg.id.clone())));
        r.server = Some(server);
        r.host = Some(host);
        Ok(())
    })
}

/// Removes the server role (and ends its connection to an initiator, if any).
pub(crate) fn take_server() -> Option<Server> {
    let (server, parent) = with(|r| {
        r.host = None;
        r.server_client = None;
        (r.server.take(), r.server_parent.take())
    });
    if let Some(p) = parent {
        let _ = p.finalize();
    }
    server
}

/// The rendezvous of a server started by an initiator (`PMIX_LAUNCHER_RNDZ_URI` or
/// `_FILE` in its environment), at the end of `PMIx_server_init`, as the reference does it
/// there too: the server connects to the initiator with its own identity, records it as
/// `PMIX_PARENT_ID` (its `PMIx_Get`), and blocks until released; the release's
/// `PMIX_LAUNCH_DIRECTIVES` are kept as for a tool. `PMIX_ERR_UNREACH` when the initiator
/// cannot be reached or goes away first.
pub(crate) fn server_rendezvous() -> Result<()> {
    let Some((me, local)) = with(|r| {
        let s = r.server.as_ref()?;
        Some((s.cfg.id.clone(), r.server_client.clone()?))
    }) else {
        return Err(Error::Init);
    };
    let Some(uri) = pmix_core::launcher::initiator(|k| std::env::var(k).ok()) else {
        return Ok(());
    };
    let uri = uri.map_err(|_| Error::Unreach)?;
    let rndz = pmix_core::launcher::connect(
        &uri,
        pmix_core::wire::PeerKind::LauncherGivenId,
        Some(me.clone()),
    )
    .map_err(|_| Error::Unreach)?;
    let parent = rndz.client.clone();
    let released = released(&local, &rndz);
    if released.is_err() {
        let _ = parent.finalize();
        return released;
    }
    with(|r| r.server_parent = Some(parent));
    Ok(())
}

/// Records the initiator as `client`'s `PMIX_PARENT_ID`, waits for the release and keeps
/// its launch directives (`PMIX_LAUNCH_DIRECTIVES` of `client`'s own identity).
fn released(client: &Client, rndz: &pmix_core::launcher::Rendezvous) -> Result<()> {
    use pmix_core::{PStr, Value};
    client.store_internal(
        &client.me,
        PStr::from(PMIX_PARENT_ID.to_bytes()),
        Value::Proc(rndz.parent().clone()),
    )?;
    let directives = rndz.wait_release()?;
    if !directives.is_empty() {
        client.store_internal(
            &client.me,
            PStr::from(PMIX_LAUNCH_DIRECTIVES.to_bytes()),
            Value::DataArray(Box::new(pmix_core::values::DataArray {
                ty: PMIX_INFO,
                items: directives
                    .into_iter()
                    .map(|i| Value::Info(Box::new(i)))
                    .collect(),
            })),
        )?;
    }
    Ok(())
}

/// For void functions that report through an operation callback: calls `cbfunc` (if given)
/// with `status`, inside the panic guard.
pub(crate) fn op_callback(
    export: &str,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
    status: pmix_status_t,
) {
    entry::guard(export, (), || {
        if let Some(f) = cbfunc {
            // SAFETY: the caller supplied this callback for exactly this use.
            unsafe { f(status, cbdata) };
        }
    })
}
