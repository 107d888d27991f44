//! Debugger support on the client side (PMIx Standard v5, chapter 18 "Tools and Debuggers"):
//! which processes a debugger directive names, and the wait in `PMIx_Init` that
//! `PMIX_DEBUG_STOP_IN_INIT` asks for.
//!
//! The host puts `PMIX_DEBUG_STOP_IN_INIT` in the job-level information of the job it
//! launches. A client that finds its rank named there registers for `PMIX_DEBUGGER_RELEASE`,
//! tells the host and the tools it is waiting (`PMIX_READY_FOR_DEBUG` with
//! `PMIX_BREAKPOINT` "pmix-init", range `PMIX_RANGE_RM`), and blocks until the release
//! arrives, as the reference's client does.

use std::sync::Arc;
use std::sync::mpsc;

use pmix_sys::*;

use crate::client::Client;
use crate::events::{Event, Next};
use crate::values::{Info, PStr, Proc, Value};

/// Whether a directive's value (a bool for every rank or none, one rank or
/// `PMIX_RANK_WILDCARD`, or an array of ranks or processes) names process `rank` of `nspace`.
pub fn selects(v: &Value, nspace: &PStr, rank: u32) -> bool {
    let rank_ok = |r: u32| r == PMIX_RANK_WILDCARD || r == rank;
    match v {
        Value::Bool(b) => *b,
        // A key given with no value (PMIX_INFO_LOAD with NULL for a bool) means true.
        Value::Undef => true,
        Value::ProcRank(r) | Value::Uint32(r) | Value::Uint(r) => rank_ok(*r),
        Value::Int(r) | Value::Int32(r) => *r < 0 || rank_ok(*r as u32),
        Value::Proc(p) => (p.nspace.is_empty() || &p.nspace == nspace) && rank_ok(p.rank),
        Value::DataArray(d) => d.items.iter().any(|i| selects(i, nspace, rank)),
        _ => false,
    }
}

/// The breakpoint name a process stopped in `PMIx_Init` reports.
pub const INIT_BREAKPOINT: &str = "pmix-init";

impl Client {
    /// Waits for `PMIX_DEBUGGER_RELEASE` if the job's `PMIX_DEBUG_STOP_IN_INIT` names this
    /// process (call at the end of `PMIx_Init`); returns at once otherwise. Returns an
    /// error if the connection to the server is lost while waiting.
    pub fn stop_in_init(&self) -> crate::Result<()> {
        if self.is_singleton() {
            return Ok(());
        }
        let job = Proc::new(self.me.nspace.clone(), PMIX_RANK_WILDCARD);
        let optional = [Info::new(PMIX_OPTIONAL.to_bytes(), Value::Bool(true))];
        let Ok(v) = self.get(&job, PMIX_DEBUG_STOP_IN_INIT.to_bytes(), &optional) else {
            return Ok(());
        };
        if !selects(&v, &self.me.nspace, self.me.rank) {
            return Ok(());
        }
        let (tx, rx) = mpsc::channel::<pmix_status_t>();
        let release = tx.clone();
        let codes = [PMIX_DEBUGGER_RELEASE];
        let id = self.events.register(
            &codes,
            &[],
            Arc::new(move |_, ev: &Event, _: &[Info], next: Next| {
                let _ = release.send(ev.code);
                next.call(PMIX_EVENT_ACTION_COMPLETE, Vec::new());
            }),
        );
        // The connection's loss ends the wait too.
        let lost = tx;
        let lost_codes = [PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH];
        let lost_id = self.events.register(
            &lost_codes,
            &[],
            Arc::new(move |_, ev: &Event, _: &[Info], next: Next| {
                let _ = lost.send(ev.code);
                next.call(PMIX_SUCCESS, Vec::new());
            }),
        );
        let (rtx, rrx) = mpsc::channel();
        let registered = self
            .register_events_nb(&codes, &[], Box::new(move |r| drop(rtx.send(r))))
            .and_then(|()| rrx.recv().map_err(|_| crate::Error::Unreach)?);
        let result = registered.and_then(|()| {
            let info = [
                Info::new(PMIX_EVENT_NON_DEFAULT.to_bytes(), Value::Bool(true)),
                Info::new(
                    PMIX_BREAKPOINT.to_bytes(),
                    Value::String(Some(PStr::from(INIT_BREAKPOINT))),
                ),
                Info::new(
                    PMIX_EVENT_AFFECTED_PROC.to_bytes(),
                    Value::Proc(self.me.clone()),
                ),
            ];
            let (ntx, nrx) = mpsc::channel();
            self.notify_nb(
                PMIX_READY_FOR_DEBUG,
                None,
                PMIX_RANGE_RM,
                &info,
                Box::new(move |r| drop(ntx.send(r))),
            )?;
            nrx.recv().map_err(|_| crate::Error::Unreach)??;
            match rx.recv() {
                Ok(PMIX_DEBUGGER_RELEASE) => Ok(()),
                _ => Err(crate::Error::Unreach),
            }
        });
        self.events.deregister(id);
        self.events.deregister(lost_id);
        let _ = self.deregister_events(&codes);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::DataArray;

    #[test]
    fn directive_values() {
        let ns = PStr::from("job");
        assert!(selects(&Value::Bool(true), &ns, 3));
        assert!(!selects(&Value::Bool(false), &ns, 3));
        assert!(selects(&Value::ProcRank(PMIX_RANK_WILDCARD), &ns, 3));
        assert!(selects(&Value::ProcRank(3), &ns, 3));
        assert!(!selects(&Value::ProcRank(2), &ns, 3));
        let arr = Value::DataArray(Box::new(DataArray {
            ty: PMIX_PROC,
            items: vec![
                Value::Proc(Proc::new("job", 1)),
                Value::Proc(Proc::new("other", 3)),
            ],
        }));
        assert!(selects(&arr, &ns, 1));
        assert!(!selects(&arr, &ns, 3));
    }
}
