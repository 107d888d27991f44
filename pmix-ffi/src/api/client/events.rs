//! Event notification (the PMIx standard's chapter of that name):
//! `PMIx_Register_event_handler`, `PMIx_Deregister_event_handler` and `PMIx_Notify_event`, in
//! a client and in a server process alike, and the wrapper that runs a C handler for the
//! core's events.

use core::ffi::c_void;
use std::sync::Arc;

use pmix_core::events::{Event, Next};
use pmix_core::{Error, Info};
use pmix_sys::*;

use crate::callback::{self, CbData};
use crate::{convert, entry, lifecycle, ptr};

use super::common::{infos, opt_proc, wait};

/// The continuation handed to a C event handler: `cbdata` of the handler's callback.
struct HandlerNext {
    next: Next,
}

unsafe extern "C" fn event_continue(
    status: pmix_status_t,
    results: *mut pmix_info_t,
    nresults: usize,
    cbfunc: pmix_op_cbfunc_t,
    thiscbdata: *mut c_void,
    notification_cbdata: *mut c_void,
) {
    entry::guard("event handler callback", (), || {
        if notification_cbdata.is_null() {
            return;
        }
        // SAFETY: made by `c_handler` with Box::into_raw; the handler calls this once.
        let n = unsafe { Box::from_raw(notification_cbdata.cast::<HandlerNext>()) };
        // SAFETY: the handler passes a valid array of its results.
        let res = unsafe { infos(results, nresults) }.unwrap_or_default();
        if let Some(f) = cbfunc {
            // SAFETY: the handler's own completion, called once as the standard says.
            unsafe { f(PMIX_SUCCESS, thiscbdata) };
        }
        n.next.call(status, res);
    })
}

/// Wraps a C event handler for the core's registry. `ret_obj` is the registration's
/// `PMIX_EVENT_RETURN_OBJECT`: handed back to the handler with every event, as the last
/// info, as the standard says.
fn c_handler(f: pmix_notification_fn_t, ret_obj: Option<usize>) -> pmix_core::events::Handler {
    Arc::new(move |id: usize, ev: &Event, results: &[Info], next: Next| {
        entry::guard("event handler", (), || {
            let Some(f) = f else {
                next.call(PMIX_SUCCESS, Vec::new());
                return;
            };
            let src = convert::proc_to_c(&ev.source);
            let mut evinfo = ev.info.clone();
            if let Some(p) = ret_obj {
                evinfo.push(Info::new(
                    PMIX_EVENT_RETURN_OBJECT.to_bytes(),
                    pmix_core::Value::Pointer(p),
                ));
            }
            let info = convert::infos_to_c(&evinfo).unwrap_or(core::ptr::null_mut());
            let ninfo = if info.is_null() { 0 } else { evinfo.len() };
            let res = convert::infos_to_c(results).unwrap_or(core::ptr::null_mut());
            let nres = if res.is_null() { 0 } else { results.len() };
            let nb = Box::into_raw(Box::new(HandlerNext { next })).cast::<c_void>();
            // SAFETY: the registered handler; every pointer lives until it returns.
            unsafe {
                f(
                    id,
                    ev.code,
                    &src,
                    info,
                    ninfo,
                    res,
                    nres,
                    Some(event_continue),
                    nb,
                )
            };
            // SAFETY: built above; the standard says the handler copies what it keeps.
            unsafe {
                convert::array_free(info.cast(), ninfo, PMIX_INFO);
                convert::array_free(res.cast(), nres, PMIX_INFO);
            }
        })
    })
}

/// See PMIx Standard v5, `PMIx_Register_event_handler`. Without `cbfunc` the registration
/// id is returned (as a non-negative status), as the reference does.
///
/// # Safety
/// `(codes, ncodes)` and `(info, ninfo)` are valid arrays; `evhdlr` stays callable until
/// deregistered.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Register_event_handler(
    codes: *mut pmix_status_t,
    ncodes: usize,
    info: *mut pmix_info_t,
    ninfo: usize,
    evhdlr: pmix_notification_fn_t,
    cbfunc: pmix_hdlr_reg_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status_code("PMIx_Register_event_handler", || {
        lifecycle::require_init()?;
        if evhdlr.is_none() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let codes = unsafe { ptr::slice(codes, ncodes) }?.to_vec();
        // SAFETY: per this function's contract.
        let mut i = unsafe { infos(info, ninfo) }?;
        // The return object is this process's pointer: kept for the handler, not sent.
        let ret_obj = i
            .iter()
            .find(|x| x.is(PMIX_EVENT_RETURN_OBJECT))
            .and_then(|x| match x.value {
                pmix_core::Value::Pointer(p) => Some(p),
                _ => None,
            });
        i.retain(|x| !x.is(PMIX_EVENT_RETURN_OBJECT));
        let handler = c_handler(evhdlr, ret_obj);
        if let Ok(s) = lifecycle::server() {
            let id = s.events.register(&codes, &i, handler);
            if let Some(f) = cbfunc {
                let d = CbData(cbdata);
                std::thread::spawn(move || {
                    let d = d;
                    // SAFETY: the caller's callback with its cbdata.
                    entry::guard("PMIx_Register_event_handler", (), || unsafe {
                        f(PMIX_SUCCESS, id, d.0)
                    });
                });
                return Ok(PMIX_SUCCESS);
            }
            return Ok(id as pmix_status_t);
        }
        let c = lifecycle::client()?;
        let id = c.events.register(&codes, &i, handler);
        match cbfunc {
            Some(f) => {
                let d = CbData(cbdata);
                c.register_events_nb(
                    &codes,
                    &i,
                    Box::new(move |r| {
                        let d = d;
                        let st = match r {
                            Ok(()) => PMIX_SUCCESS,
                            Err(e) => e.status(),
                        };
                        // SAFETY: the caller's callback with its cbdata.
                        entry::guard("PMIx_Register_event_handler", (), || unsafe {
                            f(st, id, d.0)
                        });
                    }),
                )?;
                Ok(PMIX_SUCCESS)
            }
            None => {
                wait(|d| c.register_events_nb(&codes, &i, d))?;
                Ok(id as pmix_status_t)
            }
        }
    })
}

/// See PMIx Standard v5, `PMIx_Deregister_event_handler`.
///
/// # Safety
/// `cbfunc` is NULL or called once with `cbdata`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Deregister_event_handler(
    evhdlr_ref: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Deregister_event_handler", || {
        if let Ok(s) = lifecycle::server() {
            s.events.deregister(evhdlr_ref);
            if cbfunc.is_some() {
                let cb = callback::op("PMIx_Deregister_event_handler", cbfunc, cbdata);
                s.post(move || cb(Ok(())))?;
            }
            return Ok(());
        }
        let c = lifecycle::client()?;
        // An id that names no handler is not an error: the reference completes it with
        // success (Open MPI's and OpenPMIx's examples deregister ids they never got).
        if let Some(codes) = c.events.codes_of(evhdlr_ref) {
            c.events.deregister(evhdlr_ref);
            c.deregister_events(&codes)?;
        }
        if cbfunc.is_some() {
            let cb = callback::op("PMIx_Deregister_event_handler", cbfunc, cbdata);
            c.post(move || cb(Ok(())))?;
        }
        Ok(())
    })
}

/// See PMIx Standard v5, `PMIx_Notify_event`. From a client the server relays the event to
/// the processes in range; from a server it goes to its clients in range.
///
/// # Safety
/// `source` NULL or valid; `(info, ninfo)` valid; `cbfunc` NULL or called once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Notify_event(
    status: pmix_status_t,
    source: *const pmix_proc_t,
    range: pmix_data_range_t,
    info: *const pmix_info_t,
    ninfo: usize,
    cbfunc: pmix_op_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Notify_event", || {
        lifecycle::require_init()?;
        // SAFETY: per this function's contract.
        let (src, i) = unsafe { (opt_proc(source)?, infos(info, ninfo)?) };
        let done = callback::op("PMIx_Notify_event", cbfunc, cbdata);
        if let Ok(s) = lifecycle::server() {
            let ev = Event {
                code: status,
                source: src.unwrap_or_else(|| s.cfg.id.clone()),
                range,
                info: i,
            };
            s.notify(ev)?;
            if cbfunc.is_some() {
                std::thread::spawn(move || done(Ok(())));
            }
            return Ok(());
        }
        let c = lifecycle::client()?;
        c.notify_nb(status, src, range, &i, done)
    })
}
