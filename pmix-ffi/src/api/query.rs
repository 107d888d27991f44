//! `PMIx_Query_info` and `PMIx_Query_info_nb`.
//!
//! Before initialization only the ABI-version keys can be answered (the standard allows
//! exactly those, and the reference answers them). Once initialized, the library answers
//! `PMIX_QUERY_AVAIL_SERVERS` itself (the rendezvous files of the system tmpdir, as the
//! reference does); every other key goes to the server.

use core::ffi::c_void;

use pmix_core::values::{Info, Query, Value};
use pmix_core::{Error, Result};
use pmix_sys::*;

use crate::convert;
use crate::entry;
use crate::lifecycle;
use crate::ptr;

/// The ABI levels a query before init gets: OpenPMIx 4.2.2's answer ("0.0"), the only
/// reference that answers before init (5.0.11 says `PMIX_ERR_INIT`; its levels, "5.0", are
/// `pmix_core::wire::STABLE_ABI_VERSION`, which `pmix_info` prints). docs/notes/abi-5.0.md.
const PREINIT_ABI_VERSION: &str = "0.0";

/// The answer to `key` that needs no session, if there is one.
fn preinit_answer(key: &[u8]) -> Option<Value> {
    if key == PMIX_QUERY_STABLE_ABI_VERSION.to_bytes()
        || key == PMIX_QUERY_PROVISIONAL_ABI_VERSION.to_bytes()
    {
        Some(Value::from(PREINIT_ABI_VERSION))
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

/// Takes `PMIX_QUERY_AVAIL_SERVERS` out of `queries`: the library answers it itself, from
/// the rendezvous files under the system tmpdir, as the reference does (for a tool that is
/// not connected too). Returns the queries left (those that became empty are dropped) and
/// whether the key was asked.
fn take_local(queries: Vec<Query>) -> (Vec<Query>, bool) {
    let key = PMIX_QUERY_AVAIL_SERVERS.to_bytes();
    let mut asked = false;
    let rest = queries
        .into_iter()
        .filter_map(|mut q| {
            let before = q.keys.len();
            q.keys.retain(|k| k.as_bytes() != key);
            asked |= q.keys.len() != before;
            (!q.keys.is_empty() || before == 0).then_some(q)
        })
        .collect();
    (rest, asked)
}

/// `PMIX_QUERY_AVAIL_SERVERS`: the servers advertised in the system tmpdir.
fn local_answer() -> Result<Vec<Info>> {
    pmix_core::rendezvous::available_servers(&lifecycle::system_tmpdir())
}

/// Joins the server's answer (if any was asked for) and the library's own.
fn merge(
    remote: Option<Result<(pmix_status_t, Vec<Info>)>>,
    local: Result<Vec<Info>>,
) -> (pmix_status_t, Vec<Info>) {
    match (remote, local) {
        (None, Ok(l)) => (PMIX_SUCCESS, l),
        (None, Err(e)) => (e.status(), Vec::new()),
        (Some(r), local) => {
            let (rs, mut answers) = r.unwrap_or_else(|e| (e.status(), Vec::new()));
            let found = local.as_ref().is_ok();
            answers.extend(local.unwrap_or_default());
            let status = match (rs, found) {
                (PMIX_SUCCESS, true) => PMIX_SUCCESS,
                (s, false) if answers.is_empty() => s,
                _ => PMIX_QUERY_PARTIAL_SUCCESS,
            };
            (status, answers)
        }
    }
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
        let (rest, avail) = if lifecycle::initialized() {
            take_local(queries)
        } else {
            (queries, false)
        };
        let (status, answers) = if avail {
            let remote = (!rest.is_empty()).then(|| ask(&rest));
            merge(remote, local_answer())
        } else {
            ask(&rest)?
        };
        if !answers.is_empty() {
            *results = convert::infos_to_c(&answers)?;
            *nresults = answers.len();
        }
        Ok(status)
    })
}

/// The answer to queries the library does not answer itself.
fn ask(queries: &[Query]) -> Result<(pmix_status_t, Vec<Info>)> {
    // A client that has (or had) a server asks it: one whose connection is gone gets
    // PMIX_ERR_UNREACH, as from the reference.
    if let Ok(c) = lifecycle::client()
        && !c.is_singleton()
    {
        return c.query(queries);
    }
    if lifecycle::server().is_ok() {
        return Err(Error::NotSupported);
    }
    Ok(answer_preinit(queries))
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
        let done = crate::callback::info("PMIx_Query_info_nb", cbfunc, cbdata);
        let (rest, avail) = take_local(queries);
        if !avail {
            return c.query_nb(&rest, done);
        }
        let local = local_answer();
        if rest.is_empty() || c.is_singleton() {
            // Answered here; the callback runs on the progress thread, as for the others.
            let remote = (!rest.is_empty()).then(|| Ok(answer_preinit(&rest)));
            let answer = merge(remote, local);
            return c.post(move || done(Ok(answer)));
        }
        c.query_nb(&rest, Box::new(move |r| done(Ok(merge(Some(r), local)))))
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
