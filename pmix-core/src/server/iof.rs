//! IO forwarding: `PMIx_IOF_pull` registrations of clients and tools, output the host
//! delivers (`PMIx_server_IOF_deliver`) sent to them or cached until one asks, and stdin
//! pushed to the host.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use pmix_sys::*;

use super::{Peer, Shared, requester_info, status_of};
use crate::codec::BufferType;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor, SharedBytes};
use crate::values::info_flag as flag;
use crate::values::{Info, PStr, Proc, Value};
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

/// One `PMIx_IOF_pull` registration.
#[derive(Debug, Clone)]
pub(super) struct IofPull {
    pub(super) conn: ConnId,
    pub(super) procs: Vec<Proc>,
    pub(super) channels: pmix_iof_channel_t,
    /// The requester's id, sent back with each delivery.
    pub(super) local_ref: usize,
    /// Our id, which the requester uses to deregister.
    pub(super) refid: usize,
    /// `PMIX_IOF_REDIRECT`: the host stops writing this output itself while the
    /// registration lasts (the default, `PMIX_IOF_COPY`, lets it go on).
    pub(super) redirect: bool,
}

impl IofPull {
    pub(super) fn wants(&self, source: &Proc, channel: pmix_iof_channel_t) -> bool {
        self.channels & channel != 0
            && self.procs.iter().any(|q| {
                q.nspace == source.nspace && (q.rank == PMIX_RANK_WILDCARD || q.rank == source.rank)
            })
    }
}

/// A tag-2 message: `PROC source, IOF_CHANNEL, SIZE refid, SIZE ninfo, INFO[], BYTE_OBJECT`.
pub(super) fn iof_frame(
    mode: BufferType,
    source: &Proc,
    channel: pmix_iof_channel_t,
    local_ref: usize,
    info: &[Info],
    data: &[u8],
) -> Vec<u8> {
    let mut v = iof_head(mode, source, channel, local_ref, info, data.len());
    v.extend_from_slice(data);
    v
}

/// The bytes of a tag-2 message that come before its `data_len` bytes of output (frame
/// header included), so that the output goes out from where it is.
pub(super) fn iof_head(
    mode: BufferType,
    source: &Proc,
    channel: pmix_iof_channel_t,
    local_ref: usize,
    info: &[Info],
    data_len: usize,
) -> Vec<u8> {
    let mut p = Pack::new(mode);
    p.proc(source)
        .one(PMIX_IOF_CHANNEL, Value::IofChannel(channel))
        .size(local_ref)
        .infos(info)
        .bytes_head(data_len);
    let packed = p.into_bytes();
    let mut v = Vec::with_capacity(crate::wire::HEADER_LEN + packed.len());
    v.extend_from_slice(&crate::wire::frame_head(
        0,
        crate::wire::TAG_IOF,
        packed.len() + data_len,
    ));
    v.extend_from_slice(&packed);
    v
}

/// The server process's own copy of the output its host delivers (`PMIX_IOF_LOCAL_OUTPUT`,
/// what `prterun` prints of its job): formatted per the output attributes the host
/// registered with the job (`PMIX_IOF_TAG_OUTPUT`, `PMIX_IOF_RANK_OUTPUT`,
/// `PMIX_IOF_TIMESTAMP_OUTPUT`, `PMIX_IOF_XML_OUTPUT`, `PMIX_MERGE_STDERR_STDOUT`, output
/// to files or a directory, `PMIX_OUTPUT_NOCOPY`, `PMIX_IOF_TAG_DETAILED_OUTPUT` with the
/// host and pid the caller looks up), as OpenPMIx's server does with the flags of the
/// namespace.
#[derive(Default)]
pub(super) struct LocalOut {
    /// By namespace, from its first output to its deregistration.
    jobs: HashMap<PStr, JobOut>,
}

/// What [`LocalOut`] keeps of one namespace.
struct JobOut {
    /// The output attributes of its registration.
    flags: crate::iof::IofFlags,
    /// Digits of its ranks in file names.
    digits: usize,
    /// A partial line per rank and channel.
    lines: HashMap<(u32, pmix_iof_channel_t), crate::iof::LineState>,
    /// Open output files (`None`: it could not be created; said once).
    files: HashMap<PathBuf, Option<std::fs::File>>,
}

impl JobOut {
    /// From the registration's job-level keys.
    fn new(job: &crate::datastore::JobRecord) -> JobOut {
        let attrs: Vec<Info> = job
            .wildcard_kvals()
            .into_iter()
            .map(|kv| Info::new(kv.key, kv.value))
            .collect();
        let mut flags = crate::iof::IofFlags::from_info(&attrs);
        // OpenPMIx 5.0.11 copies output written to files to the terminal only when told so
        // (`PMIX_OUTPUT_NOCOPY` or `PMIX_IOF_FILE_ONLY` false).
        let copy = [PMIX_OUTPUT_NOCOPY, PMIX_IOF_FILE_ONLY].iter().any(|k| {
            matches!(
                crate::values::info_value(&attrs, k),
                Some(Value::Bool(false))
            )
        });
        flags.file_only = flags.to_files() && !copy;
        JobOut {
            flags,
            digits: crate::iof::rank_digits(job.job_size()),
            lines: HashMap::new(),
            files: HashMap::new(),
        }
    }
}

impl LocalOut {
    pub(super) fn remove_nspace(&mut self, nspace: &PStr) {
        self.jobs.remove(nspace);
    }
}

/// The IO forwarding room's state.
#[derive(Debug, Default)]
pub(super) struct Forwarding {
    /// Output forwarding registrations (`PMIx_IOF_pull` of clients and tools).
    pub(super) pulls: Vec<IofPull>,
    /// The id of the last registration.
    pub(super) next: usize,
    /// Output that arrived while no registration wanted it.
    pub(super) cache: crate::iof::IofCache,
    /// Spawns in flight whose requester gets the new job's output: while there are any,
    /// the cached output of a job deregistered meanwhile is kept (a short job can end, and
    /// its host deregister it, before the spawn's answer registers the requester: PRRTE's
    /// `prun` then printed nothing).
    pub(super) spawns_wanting_output: usize,
    /// Jobs deregistered while such spawns were in flight: their output is still cached
    /// until the last of those spawns is answered.
    pub(super) retired: Vec<PStr>,
}

impl Forwarding {
    /// Whether output of `nspace` is cached for a later pull: its job is registered, or it
    /// was deregistered while a spawn that may want it is in flight.
    fn caches(&self, registered: bool, nspace: &PStr) -> bool {
        registered || (self.spawns_wanting_output > 0 && self.retired.contains(nspace))
    }

    /// A job deregistered: its cached output goes, unless a spawn in flight may want it.
    pub(super) fn job_deregistered(&mut self, nspace: &PStr) {
        if self.spawns_wanting_output > 0 {
            if !self.retired.contains(nspace) {
                self.retired.push(nspace.clone());
            }
        } else {
            self.cache.remove_nspace(nspace);
        }
    }

    /// A spawn whose requester gets the new job's output is in flight.
    pub(super) fn spawn_started(&mut self) {
        self.spawns_wanting_output += 1;
    }

    /// Such a spawn was answered (its requester's pull taken): once none is left, the
    /// output of the jobs deregistered meanwhile goes.
    pub(super) fn spawn_answered(&mut self) {
        self.spawns_wanting_output = self.spawns_wanting_output.saturating_sub(1);
        if self.spawns_wanting_output == 0 {
            for ns in std::mem::take(&mut self.retired) {
                self.cache.remove_nspace(&ns);
            }
        }
    }
}

impl Shared {
    /// `PMIx_server_IOF_deliver`: output of `source` to the peers that pulled it
    /// (`PMIx_IOF_pull`), each with its own reference id. Output nobody has pulled is
    /// cached (per [`ServerConfig::iof_cache`]) for the first registration that wants it;
    /// `PMIX_IOF_COMPLETE` in `info` marks the end of the stream and is cached too.
    #[doc(alias = "PMIx_server_IOF_deliver")]
    pub fn iof_deliver(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: &[u8],
        info: &[Info],
    ) -> Result<()> {
        self.iof_deliver_shared(source, channel, Arc::new(data.to_vec()), info)
    }

    /// [`Server::iof_deliver`] of bytes the caller shares instead of lending: they are
    /// written to each tool from where they are (no copy), and `data` is dropped once every
    /// connection has written them (or has gone), or at once when nobody wants them (then
    /// cached as a copy).
    pub fn iof_deliver_shared(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: SharedBytes,
        info: &[Info],
    ) -> Result<()> {
        let me = self.arc();
        let (source, info) = (source.clone(), info.to_vec());
        self.progress.post(move |r| {
            let bytes: &[u8] = (*data).as_ref();
            let targets: Vec<(ConnId, BufferType, usize)> = {
                let mut st = me.state.lock();
                let st = &mut *st;
                let targets: Vec<_> = st
                    .iof
                    .pulls
                    .iter()
                    .filter(|p| p.wants(&source, channel))
                    .filter_map(|p| Some((p.conn, st.peers.get(&p.conn)?.mode, p.local_ref)))
                    .collect();
                // Cached for a later pull only while the namespace is registered (or a
                // spawn that may want it is in flight, `Forwarding::retired`): what arrives
                // after its deregistration (the host's last reads race it) would stay
                // cached for ever.
                let registered = st.jobs.contains_key(&source.nspace);
                trace!(
                    "server: output of {source:?} channel {channel}, {} bytes, to {} pulls{}",
                    bytes.len(),
                    targets.len(),
                    if registered {
                        ""
                    } else {
                        " (job not registered)"
                    }
                );
                if targets.is_empty() && st.iof.caches(registered, &source.nspace) {
                    let complete = crate::iof::is_complete(&info);
                    st.iof
                        .cache
                        .add(me.cfg.iof_cache, &source, channel, bytes, complete);
                }
                targets
            };
            for (id, mode, local_ref) in targets {
                let head = iof_head(mode, &source, channel, local_ref, &info, bytes.len());
                let _ = r.send_shared(id, head, data.clone());
            }
        })
    }

    /// Writes output the host delivers to this process's own stdout (stdout channel, and
    /// every channel with `PMIX_MERGE_STDERR_STDOUT`) or stderr, formatted per the
    /// registration of `source`'s namespace ([`LocalOut`]); `PMIX_IOF_COMPLETE` in `info`
    /// ends the stream (a last partial line is written). Called on the host's thread, in
    /// the order of its deliveries.
    pub fn iof_write_local(
        &self,
        source: &Proc,
        channel: pmix_iof_channel_t,
        data: &[u8],
        info: &[Info],
        host_pid: &dyn Fn(&Proc) -> (String, String),
    ) {
        let mut lo = self.local_out.lock();
        let job = match lo.jobs.entry(source.nspace.clone()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let st = self.state.lock();
                let Some(job) = st.jobs.get(&source.nspace) else {
                    drop(st);
                    // Output of a namespace not registered (or no longer): as it is.
                    crate::iof::write_own(channel, data);
                    return;
                };
                e.insert(JobOut::new(job))
            }
        };
        let flags = &job.flags;
        let complete = crate::iof::is_complete(info);
        let mut bytes = Vec::new();
        let key = (source.rank, channel);
        let st = job.lines.entry(key).or_insert_with(|| {
            if flags.tag_detailed {
                let (host, pid) = host_pid(source);
                crate::iof::LineState::with_detail(&host, &pid)
            } else {
                crate::iof::LineState::default()
            }
        });
        st.push(flags, source, channel, data, &mut bytes);
        if complete {
            st.finish(flags, source, channel, &mut bytes);
            job.lines.remove(&key);
        }
        if bytes.is_empty() {
            return;
        }
        if let Some(path) = crate::iof::output_path(flags, source, channel, job.digits) {
            crate::iof::write_to_file(&mut job.files, path, &bytes);
            if flags.file_only {
                return;
            }
        }
        let to = if flags.merge {
            PMIX_FWD_STDOUT_CHANNEL
        } else {
            channel
        };
        crate::iof::write_own(to, &bytes);
    }

    /// Whether a tool holds `source`'s output on `channel` with `PMIX_IOF_REDIRECT`, so
    /// that the host should not write it to its usual place.
    pub fn iof_redirected(&self, source: &Proc, channel: pmix_iof_channel_t) -> bool {
        self.state
            .lock()
            .iof
            .pulls
            .iter()
            .any(|p| p.redirect && p.wants(source, channel))
    }

    /// The command IOF_PULL: `PMIx_IOF_pull`.
    pub(super) fn on_iof_pull(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let procs = u.procs()?;
        let dirs = u.infos()?;
        let channels = match u.one(PMIX_IOF_CHANNEL)? {
            Value::IofChannel(c) => c,
            _ => return Err(Error::UnpackFailure),
        };
        let local_ref = u.size()?;
        // The registration is ours to serve (PMIx_server_IOF_deliver); the host is
        // told so that it starts forwarding, when it wants to know. Cached output
        // it wants goes first, in the same step, so that nothing delivered later
        // overtakes it (the requester accepts output before the reply).
        let pull = IofPull {
            conn: id,
            procs: procs.clone(),
            channels,
            local_ref,
            refid: 0,
            redirect: flag(&dirs, PMIX_IOF_REDIRECT) && !flag(&dirs, PMIX_IOF_COPY),
        };
        let policy = crate::iof::CachePolicy::from_info(self.cfg.iof_cache, &dirs);
        let (refid, cached) = self.add_pull(pull);
        Self::send_cached(r, id, mode, local_ref, policy, cached);
        let finish = move |r: &mut Reactor, res: Result<()>| {
            let mut p = Pack::new(mode);
            p.status(status_of(&res));
            if res.is_ok() {
                p.size(refid);
            }
            Self::reply(r, id, tag, p.into_bytes());
        };
        if self.host.provides(Upcall::IofPull) {
            let done = self.later(move |s, r, res: Result<()>| {
                if res.is_err() {
                    s.state.lock().iof.pulls.retain(|p| p.refid != refid);
                }
                finish(r, res)
            });
            let dirs = requester_info(peer, dirs);
            self.host.iof_pull(&procs, &dirs, channels, done);
        } else {
            finish(r, Ok(()));
        }
        Ok(())
    }

    /// Sends output that was cached for a new registration, each stream's end included.
    fn send_cached(
        r: &mut Reactor,
        id: ConnId,
        mode: BufferType,
        local_ref: usize,
        policy: crate::iof::CachePolicy,
        cached: Vec<(Proc, pmix_iof_channel_t, crate::iof::CachedStream)>,
    ) {
        let done_info = [Info::new(PMIX_IOF_COMPLETE.to_bytes(), Value::Bool(true))];
        for (source, channel, stream) in cached {
            let complete = stream.complete;
            for chunk in stream.take(policy) {
                let _ = r.send(
                    id,
                    iof_frame(mode, &source, channel, local_ref, &[], &chunk),
                );
            }
            if complete {
                let _ = r.send(
                    id,
                    iof_frame(mode, &source, channel, local_ref, &done_info, &[]),
                );
            }
        }
    }

    /// Registers connection `id` for the output of `procs` on `channels` without a request
    /// of its own (the requester of a spawn gets its job's output so): deliveries carry
    /// reference id 0, which the requester writes to its own stdout and stderr. Output
    /// already cached for them goes first.
    pub(super) fn pull_for(
        &self,
        r: &mut Reactor,
        id: ConnId,
        mode: BufferType,
        procs: Vec<Proc>,
        channels: pmix_iof_channel_t,
    ) {
        let (_, cached) = self.add_pull(IofPull {
            conn: id,
            procs,
            channels,
            local_ref: 0,
            refid: 0,
            redirect: false,
        });
        Self::send_cached(r, id, mode, 0, self.cfg.iof_cache, cached);
    }

    /// Keeps `pull` under a new id (returned) and takes the cached output it wants.
    fn add_pull(
        &self,
        pull: IofPull,
    ) -> (
        usize,
        Vec<(Proc, pmix_iof_channel_t, crate::iof::CachedStream)>,
    ) {
        let mut st = self.state.lock();
        st.iof.next += 1;
        let refid = st.iof.next;
        let cached = st.iof.cache.take_matching(|p, ch| pull.wants(p, ch));
        trace!(
            "server: pull of {:?} channels {}, {} cached streams",
            pull.procs,
            pull.channels,
            cached.len()
        );
        st.iof.pulls.push(IofPull { refid, ..pull });
        (refid, cached)
    }

    /// `PMIx_IOF_push` with `PMIX_IOF_PUSH_STDIN` in the server's own process: its stdin,
    /// read on a thread of its own, goes to the host's `push_stdin` upcall chunk by chunk, as
    /// OpenPMIx 5.0 does (PRRTE's prterun forwards its stdin to rank 0 so); its end is not
    /// pushed (OpenPMIx's server stops reading, and PRRTE's upcall takes no empty input).
    pub fn push_stdin_for_self(&self, targets: &[Proc], directives: &[Info]) -> Result<()> {
        self.require(Upcall::PushStdin)?;
        let me = self.arc();
        let id = self.cfg.id.clone();
        let targets = targets.to_vec();
        crate::iof::forward_stdin(directives, false, move |data, dirs| {
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            me.host.push_stdin(
                &id,
                &targets,
                dirs,
                data,
                Box::new(move |r| {
                    let _ = tx.send(r);
                }),
            );
            rx.recv().map_err(|_| Error::Unreach)?
        })
    }

    /// The command IOF_PUSH: `PMIx_IOF_push`.
    pub(super) fn on_iof_push(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let targets = u.procs()?;
        let dirs = requester_info(peer, u.infos()?);
        let data = if u.at_end() { None } else { Some(u.bytes()?) };
        self.require(Upcall::PushStdin)?;
        let done = self.status_done(id, tag, mode);
        self.host
            .push_stdin(me, &targets, &dirs, data.as_deref(), done);
        Ok(())
    }

    /// The command IOF_DEREG: `PMIx_IOF_deregister`.
    pub(super) fn on_iof_deregister(
        &self,
        r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let _dirs = u.infos()?;
        let refid = u.size()?;
        let found = {
            let mut st = self.state.lock();
            let before = st.iof.pulls.len();
            st.iof.pulls.retain(|p| !(p.conn == id && p.refid == refid));
            st.iof.pulls.len() != before
        };
        let status = if found {
            PMIX_SUCCESS
        } else {
            PMIX_ERR_NOT_FOUND
        };
        Self::reply_status(r, id, tag, mode, status);
        Ok(())
    }
}
