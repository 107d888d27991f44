//! Process management: spawn, connect and disconnect, abort.

use parking_lot::RwLock;

use super::{Client, Done, status_result, trace_client};
use crate::codec::BufferType;
use crate::datastore::ClientStore;
use crate::values::{App, Info, PStr, Proc};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

impl Client {
    pub(super) fn spawn_payload(&self, job_info: &[Info], apps: &[App]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::SPAWNNB);
        p.infos(job_info).apps(apps);
        p.into_bytes()
    }

    pub(super) fn parse_spawn(
        mode: BufferType,
        store: &RwLock<ClientStore>,
        b: &[u8],
    ) -> Result<PStr> {
        let mut u = Unpack::new(mode, b);
        let st = u.status()?;
        let ns = if u.at_end() { None } else { u.string()? };
        status_result(st)?;
        let ns = ns.ok_or(Error::UnpackFailure)?;
        let kvals = u.kvals_to_end().unwrap_or_default();
        if !kvals.is_empty() {
            let _ = store.write().ingest_job(mode, &ns, kvals);
        }
        Ok(ns)
    }

    pub fn spawn(&self, job_info: &[Info], apps: &[App]) -> Result<PStr> {
        let reply = self.request(
            self.spawn_payload(job_info, apps),
            Self::timeout_of(job_info),
        )?;
        Self::parse_spawn(self.mode, &self.store, &reply)
    }

    pub fn spawn_nb(&self, job_info: &[Info], apps: &[App], done: Done<PStr>) -> Result<()> {
        let (mode, store) = (self.mode, self.store.clone());
        self.request_nb(self.spawn_payload(job_info, apps), move |r| {
            done(r.and_then(|b| Self::parse_spawn(mode, &store, &b)))
        })
    }

    pub(super) fn procs_payload(&self, c: u8, procs: &[Proc], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, c);
        p.procs_always(procs).infos(info);
        p.into_bytes()
    }

    pub(super) fn parse_connect(
        mode: BufferType,
        store: &RwLock<ClientStore>,
        b: &[u8],
    ) -> Result<()> {
        let mut u = Unpack::new(mode, b);
        status_result(u.status()?)?;
        while !u.at_end() {
            let blob = u.bytes()?;
            let mut bu = Unpack::new(mode, &blob);
            if let Some(ns) = bu.string()? {
                let kvals = bu.kvals_to_end()?;
                let r = store.write().ingest_job(mode, &ns, kvals.clone());
                if trace_client() {
                    eprintln!("client: connect data of {ns}: {r:?}: {kvals:?}");
                }
                r?;
            }
        }
        Ok(())
    }

    pub fn connect_procs(&self, procs: &[Proc], info: &[Info]) -> Result<()> {
        let reply = self.request(
            self.procs_payload(cmd::CONNECTNB, procs, info),
            Self::timeout_of(info),
        )?;
        Self::parse_connect(self.mode, &self.store, &reply)
    }

    pub fn connect_procs_nb(&self, procs: &[Proc], info: &[Info], done: Done<()>) -> Result<()> {
        let (mode, store) = (self.mode, self.store.clone());
        self.request_nb(self.procs_payload(cmd::CONNECTNB, procs, info), move |r| {
            done(r.and_then(|b| Self::parse_connect(mode, &store, &b)))
        })
    }

    pub fn disconnect_procs(&self, procs: &[Proc], info: &[Info]) -> Result<()> {
        self.status_request(
            self.procs_payload(cmd::DISCONNECTNB, procs, info),
            Self::timeout_of(info),
        )
    }

    pub fn disconnect_procs_nb(&self, procs: &[Proc], info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.procs_payload(cmd::DISCONNECTNB, procs, info), done)
    }

    /// `PMIx_Abort`: tells the server and waits for its answer (the host usually kills us).
    pub fn abort(&self, status: i32, msg: Option<&[u8]>, procs: &[Proc]) -> Result<()> {
        if self.is_singleton() {
            return Ok(());
        }
        let mut p = Pack::cmd(self.mode, cmd::ABORT);
        p.status(status).string(msg).procs(procs);
        let _ = self.request(p.into_bytes(), None)?;
        Ok(())
    }
}
