//! Job management and reporting: query, log, allocation requests, job control and
//! process monitoring.

use pmix_sys::*;

use super::{Client, Done};
use crate::Result;
use crate::values::{Info, Proc, Query, Value};
use crate::wire::cmd;
use crate::wire::msg::Pack;

impl Client {
    pub(super) fn query_payload(&self, queries: &[Query]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::QUERY);
        p.queries(queries);
        p.into_bytes()
    }

    pub fn query_nb(
        &self,
        queries: &[Query],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        self.infos_request_nb(self.query_payload(queries), done)
    }

    pub fn query(&self, queries: &[Query]) -> Result<(pmix_status_t, Vec<Info>)> {
        self.infos_request(self.query_payload(queries), None)
    }

    pub(super) fn log_payload(&self, data: &[Info], directives: &[Info]) -> Vec<u8> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let mut p = Pack::cmd(self.mode, cmd::LOG);
        p.one(PMIX_TIME, Value::Time(now))
            .infos(data)
            .infos(directives);
        p.into_bytes()
    }

    pub fn log_nb(&self, data: &[Info], directives: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.log_payload(data, directives), done)
    }

    pub fn allocation_nb(
        &self,
        directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::ALLOC);
        p.one(PMIX_ALLOC_DIRECTIVE, Value::AllocDirective(directive))
            .infos(info);
        self.infos_request_nb(p.into_bytes(), done)
    }

    pub fn job_control_nb(
        &self,
        targets: &[Proc],
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::JOB_CONTROL);
        p.procs(targets).infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }

    /// `PMIx_Process_monitor`; a heartbeat (`PMIX_SEND_HEARTBEAT`) is a tag-1 message
    /// with no reply.
    pub fn monitor_nb(
        &self,
        monitor: &Info,
        error: pmix_status_t,
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        if monitor.is(PMIX_SEND_HEARTBEAT) {
            let conn = self.conn()?.clone();
            return conn.post(move |r, req| {
                let res = req.send_oneway(r, crate::wire::TAG_HEARTBEAT, &[]);
                done(res.map(|()| (PMIX_SUCCESS, Vec::new())));
            });
        }
        let mut p = Pack::cmd(self.mode, cmd::MONITOR);
        p.one(PMIX_INFO, Value::Info(Box::new(monitor.clone())))
            .status(error)
            .infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }
}
