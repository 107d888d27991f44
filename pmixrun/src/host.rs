//! The upcalls pmixrun answers for its server: everything that makes sense on one machine.
//!
//! Every upcall answers at once (calling `done` inside the upcall is allowed; the engine
//! posts the answer to its progress thread) except spawn, which the main thread runs, and
//! lookups held by `PMIX_WAIT`, answered when the keys are published or at their
//! `PMIX_TIMEOUT`.
//!
//! Collectives: the server completes a fence, connect or disconnect among its own clients
//! by itself and calls the host once for all of them; pmixrun is the only server of the
//! session, so its part of every collective is complete at once (`fence_nb` returns the data
//! it was given, which is already everyone's).

use std::sync::Arc;
use std::time::{Duration, Instant};

use pmix_core::Error;
use pmix_core::host::{Credential, Done, Host, ModexData, Upcall, Validation};
use pmix_core::values::{App, DataArray, Info, PStr, Pdata, Proc, ProcInfo, Query, Regattr, Value};
use pmix_sys::*;

use crate::job::{find, flag, info, info_array, int_of, key_is, string};
use crate::publish::{DIRECTIVES, HeldLookup, Published, lookup_in, range_of, readers_of, visible};
use crate::run::{Cmd, Run, State};
use crate::sys;

/// The host of pmixrun's server.
#[derive(Debug)]
pub struct PmixrunHost {
    run: Arc<Run>,
}

impl PmixrunHost {
    pub fn new(run: Arc<Run>) -> PmixrunHost {
        PmixrunHost { run }
    }
}

/// Removes data published `PMIX_PERSIST_FIRST_READ` once it has been read.
fn consume_first_reads(st: &mut State, found: &[Pdata]) {
    st.published.retain(|d| {
        !(d.persistence == PMIX_PERSIST_FIRST_READ
            && found
                .iter()
                .any(|f| f.key == d.key && f.proc == d.publisher))
    });
}

/// Held lookups that can be answered now, taken out of the state with their answers.
fn ready_lookups(st: &mut State) -> Vec<(HeldLookup, Vec<Pdata>)> {
    let mut ready = Vec::new();
    let mut keep = Vec::new();
    for h in std::mem::take(&mut st.held) {
        let found = lookup_in(&st.published, &h.requester, h.ids, &h.keys, h.range);
        if found.len() >= h.nwait {
            consume_first_reads(st, &found);
            ready.push((h, found));
        } else {
            keep.push(h);
        }
    }
    st.held = keep;
    ready
}

/// The upcalls pmixrun does *not* answer (the server replies `PMIX_ERR_NOT_SUPPORTED`).
const NOT_PROVIDED: [Upcall; 3] = [Upcall::Listener, Upcall::Fabric, Upcall::ClientConnected2];

/// The client-visible functions behind the upcalls pmixrun answers (for
/// `PMIX_QUERY_ATTRIBUTE_SUPPORT` with `PMIX_HOST_FUNCTIONS`).
const HOST_FUNCTIONS: &str = "PMIx_Abort,PMIx_Fence,PMIx_Get,PMIx_Publish,PMIx_Lookup,\
PMIx_Unpublish,PMIx_Spawn,PMIx_Connect,PMIx_Disconnect,PMIx_Register_event_handler,\
PMIx_Deregister_event_handler,PMIx_Notify_event,PMIx_Query_info,PMIx_Log,PMIx_Job_control,\
PMIx_Process_monitor,PMIx_Get_credential,PMIx_Validate_credential,PMIx_IOF_pull,PMIx_IOF_push,\
PMIx_Group_construct,PMIx_Group_destruct";

/// The attributes pmixrun honours, per function.
fn host_attributes(
    function: &str,
) -> Vec<(&'static std::ffi::CStr, pmix_data_type_t, &'static str)> {
    match function {
        "PMIx_Lookup" => vec![
            (
                PMIX_WAIT,
                PMIX_INT,
                "wait until this many keys (0: all) are published",
            ),
            (PMIX_TIMEOUT, PMIX_INT, "seconds to wait at most"),
            (PMIX_RANGE, PMIX_DATA_RANGE, "range of the data to search"),
        ],
        "PMIx_Publish" => vec![
            (PMIX_RANGE, PMIX_DATA_RANGE, "who may look the data up"),
            (PMIX_PERSISTENCE, PMIX_PERSIST, "how long the data lasts"),
        ],
        "PMIx_Job_control" => vec![
            (PMIX_JOB_CTRL_KILL, PMIX_BOOL, "SIGKILL the targets"),
            (
                PMIX_JOB_CTRL_TERMINATE,
                PMIX_BOOL,
                "SIGTERM, then SIGKILL, the targets",
            ),
            (
                PMIX_JOB_CTRL_SIGNAL,
                PMIX_INT,
                "send this signal to the targets",
            ),
            (PMIX_JOB_CTRL_PAUSE, PMIX_BOOL, "SIGSTOP the targets"),
            (PMIX_JOB_CTRL_RESUME, PMIX_BOOL, "SIGCONT the targets"),
        ],
        "PMIx_Log" => vec![
            (PMIX_LOG_STDERR, PMIX_STRING, "write to pmixrun's stderr"),
            (PMIX_LOG_STDOUT, PMIX_STRING, "write to pmixrun's stdout"),
            (PMIX_LOG_SYSLOG, PMIX_STRING, "write to the system log"),
            (PMIX_LOG_SYSLOG_PRI, PMIX_INT, "syslog priority"),
        ],
        "PMIx_Spawn" => vec![
            (PMIX_WDIR, PMIX_STRING, "working directory"),
            (
                PMIX_FWD_STDIN,
                PMIX_BOOL,
                "rank 0 (or PMIX_STDIN_TGT) reads what tools push",
            ),
            (
                PMIX_STDIN_TGT,
                PMIX_PROC,
                "the rank(s) that read what tools push",
            ),
        ],
        "PMIx_Group_construct" => vec![(
            PMIX_GROUP_ASSIGN_CONTEXT_ID,
            PMIX_BOOL,
            "assign a context id",
        )],
        _ => Vec::new(),
    }
}

impl PmixrunHost {
    fn answer_query(&self, requester: &Proc, q: &Query, out: &mut Vec<Info>) {
        let nspace = match find(&q.qualifiers, PMIX_NSPACE) {
            Some(Value::String(Some(s))) | Some(Value::ProcNspace(s)) => s.clone(),
            _ => requester.nspace.clone(),
        };
        let st = self.run.lock();
        for key in &q.keys {
            let k = key.as_bytes();
            let is = |c: &std::ffi::CStr| k == c.to_bytes();
            if is(PMIX_QUERY_NAMESPACES) {
                let list: Vec<String> = st
                    .jobs
                    .values()
                    .filter(|j| j.live())
                    .map(|j| j.nspace.to_string())
                    .collect();
                out.push(info(PMIX_QUERY_NAMESPACES, string(list.join(","))));
            } else if is(PMIX_QUERY_NAMESPACE_INFO) {
                let items = st
                    .jobs
                    .values()
                    .filter(|j| j.live())
                    .map(|j| {
                        let cmd: Vec<String> = j
                            .apps
                            .iter()
                            .map(|a| {
                                a.argv
                                    .iter()
                                    .map(|s| s.to_string_lossy().into_owned())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            })
                            .collect();
                        Value::Info(Box::new(info(
                            PMIX_QUERY_NAMESPACE_INFO,
                            info_array(vec![
                                info(PMIX_NSPACE, string(j.nspace.clone())),
                                info(PMIX_CMD_LINE, string(cmd.join(" : "))),
                            ]),
                        )))
                    })
                    .collect();
                out.push(info(
                    PMIX_QUERY_NAMESPACE_INFO,
                    Value::DataArray(Box::new(DataArray {
                        ty: PMIX_INFO,
                        items,
                    })),
                ));
            } else if is(PMIX_QUERY_JOB_STATUS) {
                if let Some(j) = st.job(&nspace) {
                    out.push(info(PMIX_QUERY_JOB_STATUS, Value::JobState(j.state())));
                }
            } else if is(PMIX_QUERY_PROC_TABLE) || is(PMIX_QUERY_LOCAL_PROC_TABLE) {
                if let Some(j) = st.job(&nspace) {
                    let items = j
                        .procs
                        .iter()
                        .map(|p| {
                            let exit_code = match p.state {
                                crate::job::ProcState::Ended(e) => e.shell_status(),
                                _ => 0,
                            };
                            Value::ProcInfo(Box::new(ProcInfo {
                                proc: j.proc(p.rank),
                                hostname: Some(self.run.setup.node.hostname.clone()),
                                executable_name: Some(PStr::from(
                                    j.apps[p.app as usize].exe.as_os_str().as_encoded_bytes(),
                                )),
                                pid: p.pid.unwrap_or(0),
                                exit_code,
                                state: j.proc_state(p),
                            }))
                        })
                        .collect();
                    out.push(Info::new(
                        key.clone(),
                        Value::DataArray(Box::new(DataArray {
                            ty: PMIX_PROC_INFO,
                            items,
                        })),
                    ));
                }
            } else if is(PMIX_QUERY_AVAIL_SERVERS) {
                // Libraries answer this themselves (ours and the reference); a requester
                // that sends it here gets the same answer, from pmixrun's system tmpdir.
                if let Some(server) = self.run.server() {
                    let dir = std::path::PathBuf::from(
                        <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(
                            server.cfg.system_tmpdir.as_bytes(),
                        ),
                    );
                    if let Ok(list) = pmix_core::rendezvous::available_servers(&dir) {
                        out.extend(list);
                    }
                }
            } else if is(PMIX_JOB_SIZE) {
                if let Some(j) = st.job(&nspace) {
                    out.push(info(PMIX_JOB_SIZE, Value::Uint32(j.size())));
                }
            } else if is(PMIX_QUERY_NUM_PSETS) {
                out.push(info(
                    PMIX_QUERY_NUM_PSETS,
                    Value::Size(st.psets.len() as u64),
                ));
            } else if is(PMIX_QUERY_PSET_NAMES) {
                let names: Vec<&str> = st.psets.iter().map(|p| p.0.as_str()).collect();
                out.push(info(PMIX_QUERY_PSET_NAMES, string(names.join(","))));
            } else if is(PMIX_QUERY_PSET_MEMBERSHIP) {
                let name = find(&q.qualifiers, PMIX_PSET_NAME).and_then(|v| v.as_str().cloned());
                if let Some((_, members)) =
                    name.and_then(|n| st.psets.iter().find(|p| p.0.as_bytes() == n.as_bytes()))
                {
                    out.push(info(
                        PMIX_QUERY_PSET_MEMBERSHIP,
                        Value::proc_array(members.iter().cloned()),
                    ));
                }
            } else if is(PMIX_QUERY_SPAWN_SUPPORT) {
                out.push(info(
                    PMIX_QUERY_SPAWN_SUPPORT,
                    string(crate::debug::key_list(&crate::debug::SPAWN_SUPPORT)),
                ));
            } else if is(PMIX_QUERY_DEBUG_SUPPORT) {
                out.push(info(
                    PMIX_QUERY_DEBUG_SUPPORT,
                    string(crate::debug::key_list(&crate::debug::DEBUG_SUPPORT)),
                ));
            } else if is(PMIX_QUERY_ATTRIBUTE_SUPPORT) {
                let mut items = Vec::new();
                if flag(&q.qualifiers, PMIX_HOST_FUNCTIONS) {
                    items.push(info(PMIX_HOST_FUNCTIONS, string(HOST_FUNCTIONS)));
                }
                if let Some(Value::String(Some(fns))) = find(&q.qualifiers, PMIX_HOST_ATTRIBUTES) {
                    for f in fns.to_str_lossy().split(',').map(str::trim) {
                        let attrs = host_attributes(f)
                            .into_iter()
                            .map(|(k, ty, d)| {
                                let name = pmix_core::attrs::by_key(k.to_bytes())
                                    .map_or(k.to_bytes(), |a| a.name.to_bytes());
                                Value::Regattr(Box::new(Regattr {
                                    name: Some(PStr::from(name)),
                                    string: PStr::from(k.to_bytes()),
                                    ty,
                                    description: vec![PStr::from(d)],
                                }))
                            })
                            .collect();
                        items.push(Info::new(
                            f,
                            Value::DataArray(Box::new(DataArray {
                                ty: PMIX_REGATTR,
                                items: attrs,
                            })),
                        ));
                    }
                }
                if !items.is_empty() {
                    out.push(info(PMIX_QUERY_ATTRIBUTE_SUPPORT, info_array(items)));
                }
            }
        }
    }

    /// The identity of a tool that connects: the one it asks for, else a new one.
    fn tool_id(&self, infos: &[Info]) -> Proc {
        let ns = match find(infos, PMIX_NSPACE) {
            Some(Value::String(Some(s))) => Some(s.clone()),
            _ => None,
        };
        let rank = find(infos, PMIX_RANK)
            .and_then(|v| v.as_u64())
            .map_or(0, |r| r as u32);
        match ns {
            Some(ns) if !ns.is_empty() => Proc::new(ns, rank),
            _ => {
                let n = {
                    let mut st = self.run.lock();
                    st.next_tool += 1;
                    st.next_tool
                };
                Proc::new(format!("{}.tool.{n}", self.run.setup.base), 0)
            }
        }
    }
}

/// The text of a logged value.
fn log_text(v: &Value) -> String {
    match v {
        Value::String(Some(s)) => s.to_string(),
        Value::ByteObject(b) => String::from_utf8_lossy(b).into_owned(),
        other => format!("{other:?}"),
    }
}

impl Host for PmixrunHost {
    fn provides(&self, upcall: Upcall) -> bool {
        !NOT_PROVIDED.contains(&upcall)
    }

    fn client_connected(&self, proc: &Proc, _info: &[Info], done: Done<()>) {
        if let Some(j) = self.run.lock().job_mut(&proc.nspace)
            && let Some(p) = j.procs.get_mut(proc.rank as usize)
        {
            p.connected = true;
        }
        done(Ok(()))
    }

    fn client_finalized(&self, proc: &Proc, done: Done<()>) {
        if let Some(j) = self.run.lock().job_mut(&proc.nspace)
            && let Some(p) = j.procs.get_mut(proc.rank as usize)
        {
            p.finalized = true;
        }
        done(Ok(()))
    }

    fn abort(
        &self,
        proc: &Proc,
        status: pmix_status_t,
        msg: Option<&[u8]>,
        procs: &[Proc],
        done: Done<()>,
    ) {
        let msg = msg.map_or_else(|| "(no message)".into(), String::from_utf8_lossy);
        eprintln!(
            "pmixrun: rank {} of job {} called PMIx_Abort with status {status}: {msg}",
            proc.rank, proc.nspace
        );
        let targets: Vec<Proc> = if procs.is_empty() {
            vec![Proc::new(proc.nspace.clone(), PMIX_RANK_WILDCARD)]
        } else {
            procs.to_vec()
        };
        let whole_initial = {
            let mut st = self.run.lock();
            // An exit status of 0 would read as success: an abort is never that.
            let code = match status & 0xff {
                0 => 1,
                c => c,
            };
            st.abort.get_or_insert(code);
            targets.iter().any(|t| {
                t.rank == PMIX_RANK_WILDCARD && st.job(&t.nspace).is_some_and(|j| j.initial)
            })
        };
        done(Ok(()));
        if whole_initial {
            self.run.terminate_all();
        } else {
            self.run.signal_targets(&targets, libc::SIGTERM, true);
        }
    }

    fn fence_nb(&self, procs: &[Proc], _info: &[Info], data: Vec<u8>, done: Done<ModexData>) {
        // Only called when some participant is not a local client: a namespace that is
        // neither a job nor a group pmixrun knows is an error; any other participant has
        // ended (and contributed whatever it committed), or is a group named as a
        // namespace. pmixrun is the only server: the data of every local participant is
        // already here.
        let unknown = {
            let st = self.run.lock();
            procs.iter().any(|p| {
                st.job(&p.nspace).is_none() && !st.groups.contains_key(p.nspace.as_bytes())
            })
        };
        if unknown {
            done(Err(Error::NotFound));
        } else {
            done(Ok(data));
        }
    }

    fn direct_modex(&self, proc: &Proc, _info: &[Info], done: Done<ModexData>) {
        match self.run.server() {
            Some(s) => s.dmodex_request(proc, done),
            None => done(Err(Error::Init)),
        }
    }

    fn publish(&self, proc: &Proc, infos: &[Info], done: Done<()>) {
        if let Err(e) = self.run.setup.access.check(infos) {
            return done(Err(e));
        }
        let range = range_of(infos, PMIX_RANGE_SESSION);
        let persistence = match find(infos, PMIX_PERSISTENCE) {
            Some(Value::Persist(p)) => *p,
            Some(v) => int_of(v).map_or(PMIX_PERSIST_SESSION, |x| x as pmix_persistence_t),
            None => PMIX_PERSIST_SESSION,
        };
        let readers = readers_of(infos);
        let data: Vec<&Info> = infos
            .iter()
            .filter(|i| !DIRECTIVES.iter().any(|d| key_is(i, d)))
            .collect();
        let ready = {
            let mut st = self.run.lock();
            let dup = data.iter().any(|i| {
                st.published
                    .iter()
                    .any(|d| d.key == i.key && (visible(d, proc, range) || d.publisher == *proc))
            });
            if dup {
                drop(st);
                done(Err(Error::Status(PMIX_ERR_DUPLICATE_KEY)));
                return;
            }
            for i in data {
                st.published.push(Published {
                    key: i.key.clone(),
                    value: i.value.clone(),
                    publisher: proc.clone(),
                    range,
                    persistence,
                    readers: readers.clone(),
                });
            }
            ready_lookups(&mut st)
        };
        done(Ok(()));
        for (h, found) in ready {
            (h.done)(Ok(found));
        }
    }

    fn lookup(&self, proc: &Proc, keys: &[Vec<u8>], infos: &[Info], done: Done<Vec<Pdata>>) {
        if let Err(e) = self.run.setup.access.check(infos) {
            return done(Err(e));
        }
        let keys: Vec<PStr> = keys.iter().map(|k| PStr::from(k.as_slice())).collect();
        let range = range_of(infos, PMIX_RANGE_SESSION);
        // PMIX_WAIT: an int (this many keys; 0 = all), or a bool (all).
        let wait = find(infos, PMIX_WAIT).map(|v| match v {
            Value::Bool(b) => (*b, 0),
            Value::Undef => (true, 0),
            other => (true, int_of(other).unwrap_or(0)),
        });
        let nwait = match wait {
            Some((true, n)) if n > 0 && (n as usize) < keys.len() => n as usize,
            _ => keys.len(),
        };
        let timeout = find(infos, PMIX_TIMEOUT)
            .and_then(int_of)
            .filter(|&t| t > 0);
        let ids = crate::access::Access::requester(infos);
        let mut st = self.run.lock();
        let found = lookup_in(&st.published, proc, ids, &keys, range);
        if wait.is_some_and(|w| w.0) && found.len() < nwait {
            st.held.push(HeldLookup {
                requester: proc.clone(),
                ids,
                keys,
                range,
                nwait,
                deadline: timeout.map(|t| Instant::now() + Duration::from_secs(t as u64)),
                done,
            });
            return;
        }
        consume_first_reads(&mut st, &found);
        drop(st);
        if found.is_empty() {
            done(Err(Error::NotFound));
        } else {
            done(Ok(found));
        }
    }

    fn unpublish(&self, proc: &Proc, keys: &[Vec<u8>], info: &[Info], done: Done<()>) {
        if let Err(e) = self.run.setup.access.check(info) {
            return done(Err(e));
        }
        let mut st = self.run.lock();
        let before = st.published.len();
        st.published.retain(|d| {
            !(d.publisher == *proc
                && (keys.is_empty() || keys.iter().any(|k| k.as_slice() == d.key.as_bytes())))
        });
        let removed = before - st.published.len();
        drop(st);
        done(if removed > 0 {
            Ok(())
        } else {
            Err(Error::NotFound)
        });
    }

    fn spawn(&self, proc: &Proc, job_info: &[Info], apps: &[App], done: Done<Vec<u8>>) {
        if let Err(e) = self.run.setup.access.check(job_info) {
            return done(Err(e));
        }
        let job_size = |ns: &PStr| self.run.lock().job(ns).map(|j| j.size());
        match crate::debug::spawn_request(&self.run.setup.env, &job_size, job_info, apps) {
            Ok(req) => {
                let cmd = Cmd::Spawn {
                    requester: proc.clone(),
                    req: Box::new(req),
                    done,
                };
                if !self.run.post(cmd) {
                    // The main loop is gone: pmixrun is ending. (The request and its
                    // `done` were dropped with the channel; the server answers the
                    // requester's connection loss itself.)
                }
            }
            Err(e) => done(Err(e)),
        }
    }

    fn connect(&self, _procs: &[Proc], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }

    fn disconnect(&self, _procs: &[Proc], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }

    fn register_events(&self, _codes: &[pmix_status_t], _info: &[Info], done: Done<()>) {
        done(Ok(()))
    }

    fn deregister_events(&self, _codes: &[pmix_status_t], done: Done<()>) {
        done(Ok(()))
    }

    fn notify_event(
        &self,
        _code: pmix_status_t,
        _source: &Proc,
        _range: pmix_data_range_t,
        _info: &[Info],
        done: Done<()>,
    ) {
        // The server has already delivered the event to every local client and tool in
        // range; this upcall is for carrying it to *other* servers, and there are none.
        // Relaying it back through `Server::notify` would deliver it twice.
        done(Ok(()))
    }

    fn query(&self, proc: &Proc, queries: &[Query], done: Done<Vec<Info>>) {
        let mut out = Vec::new();
        for q in queries {
            self.answer_query(proc, q, &mut out);
        }
        if out.is_empty() {
            done(Err(Error::NotFound));
        } else {
            done(Ok(out));
        }
    }

    fn tool_connected(&self, infos: &[Info], done: Done<Proc>) {
        // The server library states the tool's verified ids; a tool of a user pmixrun does
        // not serve is refused before it is named.
        if let Err(e) = self.run.setup.access.check(infos) {
            return done(Err(e));
        }
        let id = self.tool_id(infos);
        if let Some(s) = self.run.server() {
            let known = self.run.lock().tool_nspaces.contains(&id.nspace);
            if !known && s.register_nspace(&id.nspace, 1, &[]).is_ok() {
                self.run.lock().tool_nspaces.insert(id.nspace.clone());
            }
        }
        done(Ok(id))
    }

    fn tool_gone(&self, tool: &Proc) {
        // Only what was registered for it: a long-lived pmixrun serves tools without end.
        let ours = self.run.lock().tool_nspaces.remove(&tool.nspace);
        if ours && let Some(s) = self.run.server() {
            s.deregister_nspace(&tool.nspace);
        }
    }

    fn log(&self, proc: &Proc, data: &[Info], directives: &[Info], done: Done<()>) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        use std::io::Write as _;
        let priority = find(directives, PMIX_LOG_SYSLOG_PRI)
            .and_then(int_of)
            .map_or(libc::LOG_INFO, |p| p as i32);
        let mut handled = data.is_empty();
        for d in data {
            let text = log_text(&d.value);
            let line = if text.ends_with('\n') {
                text.clone()
            } else {
                format!("{text}\n")
            };
            if key_is(d, PMIX_LOG_STDERR) {
                let _ = std::io::stderr().lock().write_all(line.as_bytes());
                handled = true;
            } else if key_is(d, PMIX_LOG_STDOUT) {
                let mut o = std::io::stdout().lock();
                let _ = o.write_all(line.as_bytes());
                let _ = o.flush();
                handled = true;
            } else if key_is(d, PMIX_LOG_SYSLOG)
                || key_is(d, PMIX_LOG_LOCAL_SYSLOG)
                || key_is(d, PMIX_LOG_GLOBAL_SYSLOG)
            {
                sys::syslog(priority, &format!("{}:{}: {text}", proc.nspace, proc.rank));
                handled = true;
            } else if key_is(d, PMIX_LOG_EMAIL) || key_is(d, PMIX_LOG_JOB_RECORD) {
                // Not on one machine.
            } else {
                eprintln!(
                    "pmixrun: log from {}:{}: {} = {}",
                    proc.nspace,
                    proc.rank,
                    d.key,
                    text.trim_end()
                );
                handled = true;
            }
        }
        done(if handled {
            Ok(())
        } else {
            Err(Error::NotSupported)
        });
    }

    fn allocate(
        &self,
        _proc: &Proc,
        _directive: pmix_alloc_directive_t,
        info: &[Info],
        done: Done<Vec<Info>>,
    ) {
        if let Err(e) = self.run.setup.access.check(info) {
            return done(Err(e));
        }
        // pmixrun's allocation is this machine; it cannot grow or shrink.
        done(Err(Error::NotSupported))
    }

    fn job_control(
        &self,
        proc: &Proc,
        targets: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        let mut sig = None;
        let mut expected = false;
        for d in directives {
            if key_is(d, PMIX_JOB_CTRL_KILL) && d.value.as_bool().unwrap_or(false) {
                sig = Some(libc::SIGKILL);
                expected = true;
            } else if key_is(d, PMIX_JOB_CTRL_TERMINATE) && d.value.as_bool().unwrap_or(false) {
                sig = Some(libc::SIGTERM);
                expected = true;
            } else if key_is(d, PMIX_JOB_CTRL_SIGNAL) {
                sig = int_of(&d.value).map(|s| s as i32);
            } else if key_is(d, PMIX_JOB_CTRL_PAUSE) && d.value.as_bool().unwrap_or(false) {
                sig = Some(libc::SIGSTOP);
            } else if key_is(d, PMIX_JOB_CTRL_RESUME) && d.value.as_bool().unwrap_or(false) {
                sig = Some(libc::SIGCONT);
            }
        }
        let Some(sig) = sig.filter(|&s| s > 0 && s < 65) else {
            // Directives that only describe the job (it may be preempted, how it
            // checkpoints) are accepted: nothing on one machine preempts or checkpoints it.
            let informational = [
                PMIX_JOB_CTRL_PREEMPTIBLE,
                PMIX_JOB_CTRL_CHECKPOINT_METHOD,
                PMIX_JOB_CTRL_CHECKPOINT_EVENT,
                PMIX_JOB_CTRL_CHECKPOINT_SIGNAL,
                PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT,
            ];
            // (The requester's ids, which the server adds, are not a directive.)
            let given: Vec<&Info> = directives
                .iter()
                .filter(|d| !key_is(d, PMIX_USERID) && !key_is(d, PMIX_GRPID))
                .collect();
            let only_informational = !given.is_empty()
                && given
                    .iter()
                    .all(|d| informational.iter().any(|k| key_is(d, k)));
            done(if only_informational {
                Ok(Vec::new())
            } else {
                Err(Error::NotSupported)
            });
            return;
        };
        let targets: Vec<Proc> = if targets.is_empty() {
            vec![Proc::new(proc.nspace.clone(), PMIX_RANK_WILDCARD)]
        } else {
            targets.to_vec()
        };
        // Terminating pmixrun's own namespace stops pmixrun (as PRRTE's pterm stops a DVM):
        // answered first, then every job is terminated and pmixrun exits.
        let own = self.run.server().map(|s| s.cfg.id.nspace.clone());
        if expected && targets.iter().any(|t| Some(&t.nspace) == own.as_ref()) {
            done(Ok(Vec::new()));
            self.run.post(Cmd::Stop);
            return;
        }
        let n = self.run.signal_targets(&targets, sig, expected);
        done(if n > 0 {
            Ok(Vec::new())
        } else {
            Err(Error::NotFound)
        });
    }

    fn monitor(
        &self,
        _proc: &Proc,
        monitor: &Info,
        _error: pmix_status_t,
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        // Heartbeats are accepted (and not checked: a process that stops beating is not
        // reported in this version).
        if key_is(monitor, PMIX_MONITOR_HEARTBEAT)
            || key_is(monitor, PMIX_SEND_HEARTBEAT)
            || key_is(monitor, PMIX_MONITOR_CANCEL)
        {
            done(Ok(Vec::new()))
        } else {
            done(Err(Error::NotSupported))
        }
    }

    fn get_credential(&self, _proc: &Proc, directives: &[Info], done: Done<Credential>) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        let s = &self.run.setup;
        done(Ok(Credential {
            cred: format!("{}:{}", s.uid, s.gid).into_bytes(),
            info: vec![info(PMIX_CRED_TYPE, string("native"))],
        }))
    }

    fn validate_credential(
        &self,
        _proc: &Proc,
        cred: &[u8],
        directives: &[Info],
        done: Done<Validation>,
    ) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        let parsed = std::str::from_utf8(cred).ok().and_then(|s| {
            let (u, g) = s.split_once(':')?;
            Some((u.parse::<u32>().ok()?, g.parse::<u32>().ok()?))
        });
        match parsed {
            Some((uid, gid)) => done(Ok(Validation {
                info: vec![
                    info(PMIX_USERID, Value::Uint32(uid)),
                    info(PMIX_GRPID, Value::Uint32(gid)),
                ],
            })),
            None => done(Err(Error::Status(PMIX_ERR_INVALID_CRED))),
        }
    }

    fn iof_pull(
        &self,
        _procs: &[Proc],
        directives: &[Info],
        _channels: pmix_iof_channel_t,
        done: Done<()>,
    ) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        // Every tool connection receives the output the readers hand to the server.
        done(Ok(()))
    }

    fn push_stdin(
        &self,
        _source: &Proc,
        targets: &[Proc],
        directives: &[Info],
        data: Option<&[u8]>,
        done: Done<()>,
    ) {
        if let Err(e) = self.run.setup.access.check(directives) {
            return done(Err(e));
        }
        crate::iof::push_stdin_upcall(&self.run.iof, targets, directives, data, done);
    }

    fn group(
        &self,
        op: pmix_group_operation_t,
        grp: &[u8],
        procs: &[Proc],
        directives: &[Info],
        done: Done<Vec<Info>>,
    ) {
        match op {
            PMIX_GROUP_CONSTRUCT => {
                self.run.lock().groups.insert(grp.to_vec(), procs.to_vec());
                if flag(directives, PMIX_GROUP_ASSIGN_CONTEXT_ID) {
                    let id = {
                        let mut st = self.run.lock();
                        let id = st.next_context_id;
                        st.next_context_id += 1;
                        id
                    };
                    done(Ok(vec![info(PMIX_GROUP_CONTEXT_ID, Value::Size(id))]));
                } else {
                    done(Ok(Vec::new()));
                }
            }
            PMIX_GROUP_DESTRUCT => {
                self.run.lock().groups.remove(grp);
                done(Ok(Vec::new()))
            }
            _ => done(Err(Error::NotSupported)),
        }
    }
}
