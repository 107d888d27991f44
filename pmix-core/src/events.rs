//! Event handlers of one process and the chain that runs them (PMIx Standard v5,
//! chapter 7 "Event notification").
//!
//! Handlers registered for specific codes run before default handlers (registered with
//! no codes). Within each group the chain order is fixed at registration:
//! `PMIX_EVENT_HDLR_FIRST` goes to the front, `PMIX_EVENT_HDLR_LAST` to the back,
//! `PMIX_EVENT_HDLR_BEFORE`/`AFTER` next to the named handler, `PMIX_EVENT_HDLR_APPEND` after
//! the others (before the last), and a handler with no directive, or `PREPEND`, before the
//! others (after the first): the reference's default, measured (of two handlers registered
//! without a directive, the later one runs first).
//! Each handler receives the results of the ones before it and passes the chain on by
//! calling its `Next`; `PMIX_EVENT_ACTION_COMPLETE` stops the chain. A handler that never
//! calls `Next` ends the chain for that event.
//!
//! No lock is held while a handler runs: the chain is a snapshot of the registry taken
//! when the event arrives.

use std::sync::Arc;

use parking_lot::Mutex;
use pmix_sys::*;

use crate::values::{Info, Proc};

/// An event as delivered to handlers.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub code: pmix_status_t,
    pub source: Proc,
    pub range: pmix_data_range_t,
    pub info: Vec<Info>,
}

/// Continues the chain: the handler's status and the results it adds.
pub struct Next(Box<dyn FnOnce(pmix_status_t, Vec<Info>) + Send>);

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Next")
    }
}

impl Next {
    /// Passes the chain on (or stops it with `PMIX_EVENT_ACTION_COMPLETE`).
    pub fn call(self, status: pmix_status_t, results: Vec<Info>) {
        (self.0)(status, results)
    }
}

/// A handler: registration id, the event, the results so far, and the continuation.
pub type Handler = Arc<dyn Fn(usize, &Event, &[Info], Next) + Send + Sync>;

#[derive(Clone)]
struct Entry {
    id: usize,
    codes: Vec<pmix_status_t>,
    name: Option<crate::values::PStr>,
    first: bool,
    last: bool,
    /// `PMIX_EVENT_AFFECTED_PROC(S)` given at registration: the handler sees only events
    /// whose affected processes overlap these (none given: every event).
    affected: Vec<Proc>,
    handler: Handler,
}

/// The processes an info list names as affected (`PMIX_EVENT_AFFECTED_PROC` and
/// `PMIX_EVENT_AFFECTED_PROCS`).
fn affected_of(info: &[Info]) -> Vec<Proc> {
    info.iter()
        .filter(|i| i.is(PMIX_EVENT_AFFECTED_PROC) || i.is(PMIX_EVENT_AFFECTED_PROCS))
        .flat_map(|i| i.value.procs())
        .collect()
}

/// Whether two lists of processes overlap (a wildcard rank matches every rank of its
/// namespace); an empty list overlaps everything, as in the reference.
fn overlap(a: &[Proc], b: &[Proc]) -> bool {
    a.is_empty()
        || b.is_empty()
        || a.iter().any(|x| {
            b.iter().any(|y| {
                x.nspace == y.nspace
                    && (x.rank == y.rank
                        || x.rank == PMIX_RANK_WILDCARD
                        || y.rank == PMIX_RANK_WILDCARD)
            })
        })
}

/// The handlers of one process.
#[derive(Default)]
pub struct Registry {
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Registry")
    }
}

#[derive(Default)]
struct Inner {
    next_id: usize,
    /// Every handler, in chain order within each group (specific codes, defaults).
    entries: Vec<Entry>,
}

use crate::values::info_flag as flag;

fn string(info: &[Info], key: &core::ffi::CStr) -> Option<crate::values::PStr> {
    crate::values::info_value(info, key).and_then(|v| v.as_str().cloned())
}

impl Registry {
    /// Registers `handler` for `codes` (empty: every code); returns its id.
    pub fn register(&self, codes: &[pmix_status_t], info: &[Info], handler: Handler) -> usize {
        let mut g = self.inner.lock();
        let id = g.next_id;
        g.next_id += 1;
        let e = Entry {
            id,
            codes: codes.to_vec(),
            name: string(info, PMIX_EVENT_HDLR_NAME),
            first: flag(info, PMIX_EVENT_HDLR_FIRST)
                || flag(info, PMIX_EVENT_HDLR_FIRST_IN_CATEGORY),
            last: flag(info, PMIX_EVENT_HDLR_LAST) || flag(info, PMIX_EVENT_HDLR_LAST_IN_CATEGORY),
            affected: affected_of(info),
            handler,
        };
        let default = codes.is_empty();
        // Positions (in `entries`) of the handlers of the same group.
        let group: Vec<usize> = g
            .entries
            .iter()
            .enumerate()
            .filter(|(_, x)| x.codes.is_empty() == default)
            .map(|(i, _)| i)
            .collect();
        let named = |n: &crate::values::PStr| {
            group
                .iter()
                .copied()
                .find(|&i| g.entries[i].name.as_ref() == Some(n))
        };
        let after_firsts = group
            .iter()
            .copied()
            .find(|&i| !g.entries[i].first)
            .unwrap_or(g.entries.len());
        let before_lasts = group
            .iter()
            .copied()
            .find(|&i| g.entries[i].last)
            .unwrap_or_else(|| group.last().map_or(g.entries.len(), |&i| i + 1));
        let at = if e.first {
            group.first().copied().unwrap_or(g.entries.len())
        } else if e.last {
            group.last().map_or(g.entries.len(), |&i| i + 1)
        } else if let Some(i) = string(info, PMIX_EVENT_HDLR_BEFORE)
            .as_ref()
            .and_then(named)
        {
            i
        } else if let Some(i) = string(info, PMIX_EVENT_HDLR_AFTER).as_ref().and_then(named) {
            i + 1
        } else if flag(info, PMIX_EVENT_HDLR_APPEND) {
            before_lasts
        } else {
            after_firsts
        };
        // Defaults always follow every specific handler.
        let at = if default {
            at.max(
                g.entries
                    .iter()
                    .rposition(|x| !x.codes.is_empty())
                    .map_or(0, |i| i + 1),
            )
        } else {
            at.min(
                g.entries
                    .iter()
                    .position(|x| x.codes.is_empty())
                    .unwrap_or(g.entries.len()),
            )
        };
        g.entries.insert(at, e);
        id
    }

    /// Removes a handler; false when the id is unknown.
    pub fn deregister(&self, id: usize) -> bool {
        let mut g = self.inner.lock();
        let before = g.entries.len();
        g.entries.retain(|e| e.id != id);
        g.entries.len() != before
    }

    /// The codes of a handler (empty for a default handler), if it exists.
    pub fn codes_of(&self, id: usize) -> Option<Vec<pmix_status_t>> {
        self.inner
            .lock()
            .entries
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.codes.clone())
    }

    /// Whether any handler would see `code`.
    pub fn wants(&self, code: pmix_status_t) -> bool {
        self.inner
            .lock()
            .entries
            .iter()
            .any(|e| e.codes.is_empty() || e.codes.contains(&code))
    }

    fn chain(&self, ev: &Event) -> Vec<Entry> {
        let non_default = flag(&ev.info, PMIX_EVENT_NON_DEFAULT);
        let affected = affected_of(&ev.info);
        self.inner
            .lock()
            .entries
            .iter()
            .filter(|e| e.codes.contains(&ev.code) || (e.codes.is_empty() && !non_default))
            .filter(|e| overlap(&e.affected, &affected))
            .cloned()
            .collect()
    }

    /// Runs the chain for `ev` on the calling thread (handlers may continue it from any
    /// thread). `done` runs once at the end of the chain with the accumulated results,
    /// or never if a handler drops its `Next`.
    pub fn deliver(&self, ev: Event, done: Option<Box<dyn FnOnce(pmix_status_t) + Send>>) {
        let chain = self.chain(&ev);
        run(Arc::new(chain), 0, Arc::new(ev), Vec::new(), done);
    }
}

/// A thread that runs the handler chains of one registry, one event after another, so that
/// no handler ever runs on the progress thread: a handler that blocks (or waits for a lock
/// its process holds while it waits in a PMIx call, as language bindings do with their
/// interpreter lock) then stalls only other events, never the replies the process waits for.
///
/// The thread starts with the first job: most processes never receive an event, and a
/// thread per process at `PMIx_Init` was a measurable part of its cost with many ranks
/// sharing a CPU.
#[derive(Clone)]
pub struct Pump {
    inner: Arc<PumpInner>,
}

struct PumpInner {
    registry: Arc<Registry>,
    tx: std::sync::OnceLock<crossbeam_channel::Sender<PumpJob>>,
}

impl std::fmt::Debug for Pump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pump")
    }
}

enum PumpJob {
    Event(Event),
    Run(Box<dyn FnOnce() + Send>),
}

thread_local! {
    static ON_EVENT_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the calling thread runs event handlers (a wait for another event there would
/// wait for itself).
pub fn on_event_thread() -> bool {
    ON_EVENT_THREAD.with(std::cell::Cell::get)
}

impl Pump {
    /// A pump for `registry`; its thread starts with the first job and ends when the last
    /// `Pump` clone is dropped.
    pub fn start(registry: Arc<Registry>) -> Pump {
        Pump {
            inner: Arc::new(PumpInner {
                registry,
                tx: std::sync::OnceLock::new(),
            }),
        }
    }

    fn queue(&self, job: PumpJob) {
        let tx = self.inner.tx.get_or_init(|| {
            let (tx, rx) = crossbeam_channel::unbounded::<PumpJob>();
            let registry = self.inner.registry.clone();
            // Without a thread, the jobs are dropped rather than run where they could
            // deadlock.
            let _ = std::thread::Builder::new()
                .name("pmix-events".into())
                .spawn(move || {
                    ON_EVENT_THREAD.with(|c| c.set(true));
                    for job in rx {
                        match job {
                            PumpJob::Event(ev) => registry.deliver(ev, None),
                            PumpJob::Run(f) => f(),
                        }
                    }
                });
            tx
        });
        let _ = tx.send(job);
    }

    /// Queues `ev` for its handlers.
    pub fn send(&self, ev: Event) {
        self.queue(PumpJob::Event(ev));
    }

    /// Queues `ev` only if a handler registered now would receive it: for an event of this
    /// process's own making (its connection closing) that no one asked for, which would
    /// otherwise start the thread at every `PMIx_Finalize`.
    pub fn send_if_handled(&self, ev: Event) {
        if !self.inner.registry.chain(&ev).is_empty() {
            self.send(ev);
        }
    }

    /// Queues another user callback (forwarded output) to run on the same thread, in order.
    pub fn run(&self, f: impl FnOnce() + Send + 'static) {
        self.queue(PumpJob::Run(Box::new(f)));
    }
}

fn run(
    chain: Arc<Vec<Entry>>,
    i: usize,
    ev: Arc<Event>,
    results: Vec<Info>,
    done: Option<Box<dyn FnOnce(pmix_status_t) + Send>>,
) {
    let Some(e) = chain.get(i).cloned() else {
        if let Some(d) = done {
            d(PMIX_SUCCESS);
        }
        return;
    };
    let (c2, ev2, prior) = (chain.clone(), ev.clone(), results.clone());
    let next = Next(Box::new(move |status, mut more: Vec<Info>| {
        let mut results = prior;
        results.append(&mut more);
        if status == PMIX_EVENT_ACTION_COMPLETE {
            if let Some(d) = done {
                d(status);
            }
        } else {
            run(c2, i + 1, ev2, results, done);
        }
    }));
    (e.handler)(e.id, &ev, &results, next);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handlers_see_only_events_of_the_procs_they_named() {
        let reg = Registry::default();
        let log = Arc::new(Mutex::new(Vec::new()));
        let mk = |name: &'static str| -> Handler {
            let log = log.clone();
            Arc::new(move |_, _, _, next: Next| {
                log.lock().push(name);
                next.call(PMIX_SUCCESS, vec![]);
            })
        };
        let aff = |p: Proc| {
            Info::new(
                PMIX_EVENT_AFFECTED_PROC.to_bytes(),
                crate::values::Value::Proc(p),
            )
        };
        reg.register(
            &[-1000],
            &[aff(Proc::new("a", PMIX_RANK_WILDCARD))],
            mk("a"),
        );
        reg.register(&[-1000], &[aff(Proc::new("b", 1))], mk("b1"));
        reg.register(&[-1000], &[], mk("any"));
        let ev = |info: Vec<Info>| Event {
            code: -1000,
            source: Proc::new("srv", 0),
            range: PMIX_RANGE_SESSION,
            info,
        };
        reg.deliver(ev(vec![aff(Proc::new("a", 3))]), None);
        assert_eq!(*log.lock(), ["any", "a"]);
        log.lock().clear();
        reg.deliver(ev(vec![aff(Proc::new("b", PMIX_RANK_WILDCARD))]), None);
        assert_eq!(*log.lock(), ["any", "b1"]);
        log.lock().clear();
        let procs = Info::new(
            PMIX_EVENT_AFFECTED_PROCS.to_bytes(),
            crate::values::Value::DataArray(Box::new(crate::values::DataArray {
                ty: PMIX_PROC,
                items: vec![
                    crate::values::Value::Proc(Proc::new("c", 0)),
                    crate::values::Value::Proc(Proc::new("b", 2)),
                ],
            })),
        );
        reg.deliver(ev(vec![procs]), None);
        assert_eq!(*log.lock(), ["any"]);
        log.lock().clear();
        reg.deliver(ev(vec![]), None);
        assert_eq!(log.lock().len(), 3);
    }

    #[test]
    fn specific_before_default_first_last_and_action_complete() {
        let reg = Registry::default();
        let log = Arc::new(Mutex::new(Vec::new()));
        let mk = |name: &'static str, status: pmix_status_t| -> Handler {
            let log = log.clone();
            Arc::new(move |_, _, _, next: Next| {
                log.lock().push(name);
                next.call(status, vec![]);
            })
        };
        reg.register(&[], &[], mk("default", PMIX_SUCCESS));
        reg.register(&[-1000], &[], mk("a", PMIX_SUCCESS));
        let first = Info::new(
            PMIX_EVENT_HDLR_FIRST.to_bytes(),
            crate::values::Value::Bool(true),
        );
        reg.register(&[-1000], &[first], mk("first", PMIX_SUCCESS));
        let ev = Event {
            code: -1000,
            source: Proc::new("ns", 0),
            range: PMIX_RANGE_NAMESPACE,
            info: vec![],
        };
        reg.deliver(ev.clone(), None);
        assert_eq!(*log.lock(), ["first", "a", "default"]);
        log.lock().clear();
        let stop = reg.register(&[-1000], &[], mk("stop", PMIX_EVENT_ACTION_COMPLETE));
        reg.deliver(ev.clone(), None);
        assert_eq!(*log.lock(), ["first", "stop"]);
        assert!(reg.deregister(stop));
        log.lock().clear();
        let append = Info::new(
            PMIX_EVENT_HDLR_APPEND.to_bytes(),
            crate::values::Value::Bool(true),
        );
        let tail = reg.register(
            &[-1000],
            std::slice::from_ref(&append),
            mk("tail", PMIX_SUCCESS),
        );
        let newest = reg.register(&[-1000], &[], mk("newest", PMIX_SUCCESS));
        reg.deliver(ev.clone(), None);
        assert_eq!(*log.lock(), ["first", "newest", "a", "tail", "default"]);
        reg.deregister(tail);
        reg.deregister(newest);
        assert!(!reg.deregister(stop));
        log.lock().clear();
        reg.deliver(Event { code: -5, ..ev }, None);
        assert_eq!(*log.lock(), ["default"]);
    }
}
