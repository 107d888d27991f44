//! `PMIx_Query_info` and `PMIx_Query_info_nb`.
//!
//! Before initialization only the ABI-version keys can be answered (the standard allows
//! exactly those, and the reference answers them). Once the client and tool roles exist,
//! every other key goes to the server.

use core::ffi::c_void;

use pmix_core::values::{Info, Query, Value};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert;
use crate::entry;
use crate::lifecycle;
use crate::ptr;

use pmix_core::wire::{PROVISIONAL_ABI_VERSION, STABLE_ABI_VERSION};

/// The answer to `key` that needs no session, if there is one.
fn preinit_answer(key: &[u8]) -> Option<Value> {
    if key == PMIX_QUERY_STABLE_ABI_VERSION.to_bytes() {
        Some(Value::from(STABLE_ABI_VERSION))
    } else if key == PMIX_QUERY_PROVISIONAL_ABI_VERSION.to_bytes() {
        Some(Value::from(PROVISIONAL_ABI_VERSION))
    } else {
        None
    }
}

/// Answers queries without a session: all answered is `PMIX_SUCCESS`, some is
/// `PMIX_QUERY_PARTIAL_SUCCESS`, none is `PMIX_ERR_INIT`.
fn answer_preinit(queries: &[Query]) -> (pmix_status_t, Vec<Info>) {
    let mut answers = Vec::new();
    let mut unanswered = 0;
    for key in queries.iter().flat_map(|q| &q.keys) {
        match preinit_answer(key.as_bytes()) {
            Some(v) => answers.push(Info::new(key.clone(), v)),
            None => unanswered += 1,
        }
    }
    let status = match (answers.is_empty(), unanswered) {
        (_, 0) => PMIX_SUCCESS,
        (false, _) => PMIX_QUERY_PARTIAL_SUCCESS,
        (true, _) => PMIX_ERR_INIT,
    };
    (status, answers)
}

/// # Safety
/// `(queries, nqueries)` is a valid array of valid queries.
unsafe fn read_queries(queries: *mut pmix_query_t, nqueries: usize) -> Result<Vec<Query>> {
    if nqueries == 0 {
        return Err(Error::BadParam);
    }
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(queries, nqueries) }?
        .iter()
        .map(|q| unsafe { convert::query_from_c(q) })
        .collect()
}

/// Answers queries and waits for the result.
///
/// See PMIx Standard v5, `PMIx_Query_info`. Before initialization only
/// `PMIX_QUERY_STABLE_ABI_VERSION` and `PMIX_QUERY_PROVISIONAL_ABI_VERSION` are answered.
///
/// # Returns
/// `PMIX_SUCCESS` when every key was answered; `PMIX_QUERY_PARTIAL_SUCCESS` when some were
/// (the answers are returned); `PMIX_ERR_INIT` when none could be answered before
/// initialization; `PMIX_ERR_BAD_PARAM` for NULL arguments or no queries.
/// (The reference, before init, succeeds exactly when the number of ABI keys equals the
/// number of queries, whatever the keys; see docs/undocumented-openpmix-behavior.md.)
///
/// # Safety
/// `(queries, nqueries)` is a valid array; `results` and `nresults` NULL or writable.
///
/// Ownership: `*results` is a libc-allocated array; release with `PMIX_INFO_FREE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_info(
    queries: *mut pmix_query_t,
    nqueries: usize,
    results: *mut *mut pmix_info_t,
    nresults: *mut usize,
) -> pmix_status_t {
    entry::status_code("PMIx_Query_info", || {
        // SAFETY: per this function's contract.
        let (results, nresults) = unsafe { (ptr::req_mut(results)?, ptr::req_mut(nresults)?) };
        // SAFETY: per this function's contract.
        let queries = unsafe { read_queries(queries, nqueries) }?;
        // A client that has (or had) a server asks it: one whose connection is gone gets
        // PMIX_ERR_UNREACH, as from the reference.
        if let Ok(c) = lifecycle::client()
            && !c.is_singleton()
        {
            let (status, answers) = c.query(&queries)?;
            if !answers.is_empty() {
                *results = convert::infos_to_c(&answers)?;
                *nresults = answers.len();
            }
            return Ok(status);
        }
        if lifecycle::server().is_ok() {
            return Err(Error::NotSupported);
        }
        let (status, answers) = answer_preinit(&queries);
        if answers.is_empty() {
            return Ok(status);
        }
        *results = convert::infos_to_c(&answers)?;
        *nresults = answers.len();
        Ok(status)
    })
}

/// Answers queries through `cbfunc`.
///
/// See PMIx Standard v5, `PMIx_Query_info_nb`.
///
/// # Returns
/// `PMIX_ERR_INIT` before initialization, as in the reference (the blocking form answers the
/// ABI keys); `PMIX_ERR_BAD_PARAM` for NULL arguments.
///
/// # Safety
/// `(queries, nqueries)` is a valid array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_info_nb(
    queries: *mut pmix_query_t,
    nqueries: usize,
    cbfunc: pmix_info_cbfunc_t,
    cbdata: *mut c_void,
) -> pmix_status_t {
    entry::status("PMIx_Query_info_nb", || {
        lifecycle::require_init()?;
        if cbfunc.is_none() {
            return Err(Error::BadParam);
        }
        // SAFETY: per this function's contract.
        let queries = unsafe { read_queries(queries, nqueries) }?;
        let c = lifecycle::client().map_err(|_| Error::NotSupported)?;
        c.query_nb(
            &queries,
            crate::callback::info("PMIx_Query_info_nb", cbfunc, cbdata),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(keys: &[&str]) -> Query {
        Query {
            keys: keys.iter().map(|k| (*k).into()).collect(),
            qualifiers: vec![],
        }
    }

    #[test]
    fn preinit_rules() {
        let s = "pmix.qry.stabiver";
        let p = "pmix.qry.prabiver";
        assert_eq!(answer_preinit(&[q(&[s]), q(&[p])]).0, PMIX_SUCCESS);
        assert_eq!(answer_preinit(&[q(&[s, s])]).1.len(), 2);
        assert_eq!(
            answer_preinit(&[q(&[s, "pmix.qry.ns"])]).0,
            PMIX_QUERY_PARTIAL_SUCCESS
        );
        assert_eq!(answer_preinit(&[q(&["pmix.qry.ns"])]).0, PMIX_ERR_INIT);
    }
}
