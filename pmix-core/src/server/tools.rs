//! Tools: the tool handshake (the host approves each tool), attaching to a running
//! server, and the rendezvous files tools find a server by.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use pmix_sys::*;

use super::conn::{DONE, HOST, PeerConn};
use super::{Peer, Shared, push_requester};
use crate::datastore::gds::GDS_SHM;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor};
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::{Hello, ToolReply, WireFraming};
use crate::{Error, Result};

/// How deep below the tmpdirs a server looks for stale rendezvous files of its user: the
/// files themselves and one level of session directories.
pub(super) const STALE_SEARCH_DEPTH: usize = 1;

impl Shared {
    /// Writes the rendezvous files the configuration asks for.
    pub(super) fn write_rendezvous(&self) -> Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let path = |p: &PStr| std::path::PathBuf::from(std::ffi::OsStr::from_bytes(p.as_bytes()));
        let mut files = crate::rendezvous::server_files(
            &path(&self.cfg.tmpdir),
            &path(&self.cfg.system_tmpdir),
            &self.cfg.hostname.to_string(),
            &self.cfg.id.nspace.to_string(),
            self.cfg.tool_support,
            self.cfg.session_support,
            self.cfg.system_support,
        );
        files.extend(self.cfg.rendezvous_file.clone());
        let (uid, gid) = crate::wire::own_ids();
        if !files.is_empty() {
            // Files of this user's servers that died without cleaning up (SIGKILL): tools
            // skip them, but they would accumulate. Only same-uid files with a dead pid go.
            let host = self.cfg.hostname.to_string();
            let mut dirs = vec![path(&self.cfg.system_tmpdir)];
            if self.cfg.tmpdir != self.cfg.system_tmpdir {
                dirs.push(path(&self.cfg.tmpdir));
            }
            for d in dirs {
                crate::rendezvous::remove_stale(&d, STALE_SEARCH_DEPTH, &host, uid);
            }
        }
        let text = crate::rendezvous::render(
            &self.uri.to_uri(),
            crate::wire::VERSION,
            std::process::id(),
            uid,
            gid,
            self.uri.unix.as_deref(),
        );
        for f in files {
            crate::rendezvous::write(&f, &text)?;
            self.rendezvous.lock().push(f);
        }
        Ok(())
    }

    /// Reports the server's URI where `PMIX_TCP_REPORT_URI` says, as OpenPMIx does: "-" to
    /// stdout and "+" to stderr as a line; anything else but a number names a file, which
    /// gets the URI and "v<version>" as two lines (and stays after finalize; one that cannot
    /// be written gets a message on stderr and the server runs on: both as OpenPMIx). A
    /// number is a pipe's descriptor, which is to get "<URI variables>;<URI>" and a NUL and
    /// be closed: that is returned for the caller to write (this crate has no unsafe code).
    pub fn report_uri(&self) -> Result<Option<(i32, Vec<u8>)>> {
        use std::io::Write;
        let Some(target) = self.cfg.report_uri.as_deref() else {
            return Ok(None);
        };
        let uri = self.uri.to_uri();
        match target {
            "-" => {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{uri}").and_then(|_| out.flush());
            }
            "+" => {
                let _ = writeln!(std::io::stderr(), "{uri}");
            }
            t if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                let fd: i32 = t.parse().map_err(|_| Error::BadParam)?;
                let text = format!("{};{uri}\0", crate::wire::uri::URI_VARS_REPORTED);
                return Ok(Some((fd, text.into_bytes())));
            }
            file => {
                let text = format!("{uri}\nv{}\n", env!("CARGO_PKG_VERSION"));
                // As OpenPMIx: a message, and the server runs on without the report.
                if let Err(e) = std::fs::write(file, text) {
                    eprintln!("libpmix: cannot write the server's URI to {file}: {e}");
                }
            }
        }
        Ok(None)
    }

    /// A tool's handshake: the host approves and names the tool (`tool_connected`, given
    /// the tool's verified uid and gid), possibly later and from another thread; the answer
    /// comes back to the progress thread. A host without that upcall has approved no tool:
    /// every tool is refused (the standard's rule; the reference accepts a tool that names
    /// itself, `docs/security.md`).
    pub(super) fn tool_handshake(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        hello: Hello,
        ids: crate::security::PeerIds,
        phase: &Arc<AtomicU8>,
    ) {
        if !self.host.provides(Upcall::ToolConnected) {
            phase.store(DONE, Ordering::SeqCst);
            if self.cfg.own_user_tools
                && !hello.kind.needs_id()
                && ids.uid == rustix::process::geteuid().as_raw()
                && let Some(given) = hello.id.clone()
            {
                return self.tool_answer(r, id, hello, ids, Ok(given));
            }
            return Self::refuse(r, id, Some(PMIX_ERR_NOT_SUPPORTED));
        }
        let mut info = hello.info.clone();
        info.push(Info::new(
            PMIX_VERSION_INFO.to_bytes(),
            Value::String(Some(hello.version.clone())),
        ));
        push_requester(&mut info, ids);
        if let Some(id) = &hello.id {
            info.push(Info::new(
                PMIX_NSPACE.to_bytes(),
                Value::String(Some(id.nspace.clone())),
            ));
            info.push(Info::new(PMIX_RANK.to_bytes(), Value::ProcRank(id.rank)));
        }
        phase.store(HOST, Ordering::SeqCst);
        let (me, phase) = (self.clone(), phase.clone());
        self.host.tool_connected(
            &info,
            Box::new(move |assigned| {
                let server = me.clone();
                let _ = server.progress.post(move |r| {
                    // Not if the connection timed out, or closed, in the meantime.
                    if phase
                        .compare_exchange(HOST, DONE, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok()
                    {
                        me.tool_answer(r, id, hello, ids, assigned);
                    }
                });
            }),
        );
    }

    pub(super) fn tool_answer(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        hello: Hello,
        ids: crate::security::PeerIds,
        assigned: Result<Proc>,
    ) {
        self.handshake_over(r, id);
        let proc = match assigned {
            Ok(p) => p,
            Err(e) => return Self::refuse(r, id, Some(e.status())),
        };
        let reply = ToolReply {
            status: PMIX_SUCCESS,
            assigned: hello.kind.needs_id().then(|| proc.clone()),
            server: self.cfg.id.clone(),
            cred_status: PMIX_SUCCESS,
        };
        if r.send(id, reply.encode()).is_err() {
            return;
        }
        if r.read_closed(id) {
            // The tool can send no request: answered, it is done (once the answer is out).
            return r.close(id, Error::Unreach);
        }
        self.attach(r, id, proc, &hello, ids);
    }

    /// A connection that passed its handshake becomes a peer, `proc` with the verified
    /// `ids`: the wire's framing and the request dispatcher take it over.
    pub(super) fn attach(
        self: &Arc<Self>,
        r: &mut Reactor,
        id: ConnId,
        proc: Proc,
        hello: &Hello,
        ids: crate::security::PeerIds,
    ) {
        let (mode, kind) = (hello.buffer_type, hello.kind);
        // The peer declared gds "rsshm": its job data comes as a segment to map.
        let shm = hello.gds.as_bytes() == GDS_SHM.as_bytes();
        let ds21 = hello.gds.as_bytes() == crate::datastore::ds21::NAME.as_bytes();
        trace!("server: {proc:?} attached, gds {}", hello.gds);
        let handler = Box::new(PeerConn {
            server: self.clone(),
        });
        if r.rebind(id, Box::new(WireFraming::default()), handler)
            .is_err()
        {
            return;
        }
        let mut st = self.state.lock();
        // A rank that connects again (after a fork, or a restart) is alive again.
        st.dead.remove(&proc);
        st.ended.remove(&proc);
        st.peers.insert(
            id,
            Peer {
                proc: proc.clone(),
                mode,
                kind,
                shm,
                ds21,
                ids,
                v5: crate::wire::is_v5(hello.version.as_bytes()),
                finalized: false,
                codes: Vec::new(),
            },
        );
        drop(st);
        if !kind.is_tool() && self.host.provides(Upcall::ClientConnected) {
            self.host.client_connected(&proc, &[], Box::new(|_| {}));
        }
    }
}
