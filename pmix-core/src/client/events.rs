//! Events: registering for event codes with the server, notifying events, and
//! notifications addressed to named processes.

use pmix_sys::*;

use super::{Client, Done, next_oneway_tag};
use crate::events::Event;
use crate::values::{Info, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::Pack;
use crate::{Error, Result};

impl Client {
    pub(super) fn regevents_payload(&self, codes: &[pmix_status_t], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::REGEVENTS);
        p.size(codes.len())
            .many(
                PMIX_STATUS,
                codes.iter().map(|&c| Value::Status(c)).collect(),
            )
            .infos(info);
        p.into_bytes()
    }

    /// Tells the server which codes this process wants (`PMIx_Register_event_handler`).
    /// `done` runs on the progress thread.
    pub fn register_events_nb(
        &self,
        codes: &[pmix_status_t],
        info: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        if self.is_singleton() {
            return self.post(move || done(Ok(())));
        }
        self.status_request_nb(self.regevents_payload(codes, info), done)
    }

    /// Tells the server a handler for `codes` is gone (no reply; section 2.1).
    pub fn deregister_events(&self, codes: &[pmix_status_t]) -> Result<()> {
        let Some(conn) = &self.conn else {
            return Ok(());
        };
        let mut p = Pack::cmd(self.mode, cmd::DEREGEVENTS);
        if codes.is_empty() {
            p.status(cmd::DEFAULT_HANDLER_CODE);
        }
        for &c in codes {
            p.status(c);
        }
        let payload = p.into_bytes();
        conn.post(move |r, req| {
            let _ = req.send_oneway(r, next_oneway_tag(), &payload);
        })
    }

    pub(super) fn notify_payload(
        &self,
        code: pmix_status_t,
        range: pmix_data_range_t,
        info: &[Info],
    ) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::NOTIFY);
        p.status(code).range(range).infos(info);
        p.into_bytes()
    }

    /// `PMIx_Notify_event` from this process: local handlers see it when the range is
    /// `PMIX_RANGE_PROC_LOCAL`; otherwise the server relays it.
    pub fn notify_nb(
        &self,
        code: pmix_status_t,
        source: Option<Proc>,
        range: pmix_data_range_t,
        info: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        if range == PMIX_RANGE_PROC_LOCAL || self.is_singleton() {
            let ev = Event {
                code,
                source: source.unwrap_or_else(|| self.me.clone()),
                range,
                info: info.to_vec(),
            };
            self.pump.send(ev);
            return self.post(move || done(Ok(())));
        }
        // The reference also runs this process's own handlers for wider ranges (the
        // server never sends an event back to its source).
        let ev = Event {
            code,
            source: source.unwrap_or_else(|| self.me.clone()),
            range,
            info: info.to_vec(),
        };
        self.pump.send(ev);
        self.status_request_nb(self.notify_payload(code, range, info), done)
    }

    /// An event for the processes of `to` only.
    pub(super) fn notify_procs(
        &self,
        code: pmix_status_t,
        to: &[Proc],
        mut info: Vec<Info>,
    ) -> Result<()> {
        info.push(Info::new(
            PMIX_EVENT_CUSTOM_RANGE.to_bytes(),
            Value::proc_array(to.iter().cloned()),
        ));
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.status_request_nb(
            self.notify_payload(code, PMIX_RANGE_CUSTOM, &info),
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )?;
        rx.recv().map_err(|_| Error::Unreach)?
    }
}
