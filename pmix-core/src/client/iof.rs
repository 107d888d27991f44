//! IO forwarding: output the server forwards (tag 2) to the handlers registered with
//! `PMIx_IOF_pull`, or to this process's own stdout/stderr or files; stdin pushed to the
//! host.

use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use pmix_sys::*;

use super::{Client, Done, status_result};
use crate::codec::BufferType;
use crate::datastore::ClientStore;
use crate::events::Pump;
use crate::values::{Info, Proc, Value};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};
use crate::{Error, Result};

/// Receives forwarded output: the registration id, the source, the channel, the bytes
/// (formatted per the registration's attributes) and the attributes that came with them
/// (`PMIX_IOF_COMPLETE` marks the end of a stream; it comes with no bytes).
pub type IofHandler = Arc<dyn Fn(usize, &Proc, pmix_iof_channel_t, &[u8], &[Info]) + Send + Sync>;

/// The IOF registrations of this process, by the id the caller knows.
#[derive(Default)]
pub(super) struct IofTable {
    pub(super) next: usize,
    pub(super) regs: std::collections::HashMap<usize, Arc<IofReg>>,
}

/// One `PMIx_IOF_pull` of this process.
pub(super) struct IofReg {
    pub(super) id: usize,
    /// The caller's handler; `None`: this library writes the output to its own
    /// stdout/stderr.
    pub(super) handler: Option<IofHandler>,
    pub(super) flags: crate::iof::IofFlags,
    /// The server's id for the registration (0 until it has answered).
    pub(super) remote: std::sync::atomic::AtomicUsize,
    pub(super) out: Mutex<IofOut>,
}

/// Output state of a registration; only the event thread touches it.
#[derive(Default)]
pub(super) struct IofOut {
    pub(super) lines: std::collections::HashMap<(Proc, pmix_iof_channel_t), crate::iof::LineState>,
    /// Open output files (`None`: it could not be opened; said once).
    pub(super) files: std::collections::HashMap<std::path::PathBuf, Option<std::fs::File>>,
    /// Formatted output held back by `PMIX_IOF_BUFFERING_SIZE`, in arrival order.
    pub(super) pending: Vec<(Proc, pmix_iof_channel_t, Vec<u8>)>,
    pub(super) pending_bytes: usize,
    /// A `PMIX_IOF_BUFFERING_TIME` flush is due.
    pub(super) timer_armed: bool,
}

/// A tag-2 message: `PROC source, IOF_CHANNEL, SIZE refid, SIZE ninfo, INFO[], BYTE_OBJECT`
/// (section 7.2). Output is formatted and handed out on the event thread, never on the
/// progress thread: a handler that blocks (the Python bindings' handlers wait for the
/// interpreter lock, which the main thread may hold while it waits in PMIx) must not stall
/// the replies the process waits for. A registration's output keeps its arrival order. An
/// id with no registration writes the bytes as they are to this process's own stdout or
/// stderr.
pub(super) fn deliver_iof(
    pump: &Pump,
    iof: &Mutex<IofTable>,
    store: &Arc<RwLock<ClientStore>>,
    mode: BufferType,
    payload: &[u8],
) {
    pub(super) type Chunk<'a> = (Proc, pmix_iof_channel_t, usize, Vec<Info>, &'a [u8]);
    let parsed = (|| -> Result<Chunk<'_>> {
        let mut u = Unpack::new(mode, payload);
        let source = u.proc()?;
        let channel = match u.one(PMIX_IOF_CHANNEL)? {
            Value::IofChannel(c) => c,
            _ => return Err(Error::UnpackFailure),
        };
        let refid = u.size()?;
        let info = u.infos()?;
        let data = if u.at_end() { &[][..] } else { u.bytes_ref()? };
        Ok((source, channel, refid, info, data))
    })();
    let Ok((source, channel, refid, info, data)) = parsed else {
        return;
    };
    let (reg, retired) = {
        let t = iof.lock();
        (t.regs.get(&refid).cloned(), refid != 0 && refid <= t.next)
    };
    // The message is borrowed from the connection's input buffer; the event thread needs
    // its own copy.
    let data = spare_copy(data);
    let Some(reg) = reg else {
        // Output for a registration already withdrawn is dropped; output sent with no
        // registration of ours (id 0) is written as the reference does.
        if !retired {
            pump.run(move || {
                crate::iof::write_own(channel, &data);
                give_spare(data);
            });
        }
        return;
    };
    let digits = if reg.flags.to_files() {
        crate::iof::rank_digits(store.read().job_size(&source.nspace).unwrap_or(0))
    } else {
        1
    };
    let pump2 = pump.clone();
    pump.run(move || {
        let complete = crate::iof::is_complete(&info);
        let mut ready = Vec::new();
        let mut arm = None;
        {
            let mut out = reg.out.lock();
            let out = &mut *out;
            let st = out.lines.entry((source.clone(), channel)).or_default();
            let mut bytes = if reg.flags.decorates() {
                let mut bytes = Vec::new();
                st.push(&reg.flags, &source, channel, &data, &mut bytes);
                give_spare(data);
                bytes
            } else {
                // Undecorated output passes as it is.
                data
            };
            if complete {
                st.finish(&reg.flags, &source, channel, &mut bytes);
                out.lines.remove(&(source.clone(), channel));
            }
            if let Some(path) = crate::iof::output_path(&reg.flags, &source, channel, digits) {
                crate::iof::write_to_file(&mut out.files, path, &bytes);
            }
            let copy = !(reg.flags.to_files() && reg.flags.file_only);
            if copy && !bytes.is_empty() {
                out.pending_bytes += bytes.len();
                out.pending.push((source.clone(), channel, bytes));
            }
            if complete || out.pending_bytes >= reg.flags.buffering_size {
                ready = std::mem::take(&mut out.pending);
                out.pending_bytes = 0;
            } else if !out.pending.is_empty() && !out.timer_armed {
                if let Some(t) = reg.flags.buffering_time {
                    out.timer_armed = true;
                    arm = Some(t);
                }
            }
        }
        hand_out(&reg, grouped(ready));
        if complete {
            hand_out(&reg, vec![(source, channel, Vec::new(), info)]);
        }
        if let Some(t) = arm {
            // The flush runs on the event thread too, after what is queued there by then.
            let reg = reg.clone();
            let _ = std::thread::Builder::new()
                .name("pmix-iof-flush".into())
                .spawn(move || {
                    std::thread::sleep(t);
                    pump2.run(move || {
                        let pending = flush_pending(&reg);
                        hand_out(&reg, pending);
                    });
                });
        }
    });
}

pub(super) type Delivery = (Proc, pmix_iof_channel_t, Vec<u8>, Vec<Info>);

/// Takes the output a registration holds back.
pub(super) fn flush_pending(reg: &IofReg) -> Vec<Delivery> {
    let mut out = reg.out.lock();
    out.timer_armed = false;
    out.pending_bytes = 0;
    grouped(std::mem::take(&mut out.pending))
}

/// Held-back output as deliveries: consecutive pieces of one source and channel become one.
pub(super) fn grouped(pending: Vec<(Proc, pmix_iof_channel_t, Vec<u8>)>) -> Vec<Delivery> {
    let mut v: Vec<Delivery> = Vec::new();
    for (s, c, b) in pending {
        match v.last_mut() {
            Some(last) if last.0 == s && last.1 == c => {
                last.2.extend_from_slice(&b);
                give_spare(b);
            }
            _ => v.push((s, c, b, Vec::new())),
        }
    }
    v
}

/// Gives output to the registration's handler, or writes it to our own stdout/stderr (no
/// lock held: the handler may call back into the library).
pub(super) fn hand_out(reg: &IofReg, items: Vec<Delivery>) {
    for (source, channel, bytes, info) in items {
        match &reg.handler {
            Some(h) => h(reg.id, &source, channel, &bytes, &info),
            None if reg.flags.merge => crate::iof::write_own(PMIX_FWD_STDOUT_CHANNEL, &bytes),
            None => crate::iof::write_own(channel, &bytes),
        }
        give_spare(bytes);
    }
}

/// Buffers that carried forwarded output to the event thread, kept for the next messages.
/// A fresh 64 KiB allocation per message, freed on the event thread, made glibc return the
/// pages to the kernel and fault them in again for the next one: page faults and page
/// clearing took about a sixth of a tool's progress thread in a stream of output.
pub(super) static IOF_SPARES: Mutex<Vec<Vec<u8>>> = parking_lot::const_mutex(Vec::new());

/// At most this many spare buffers, of at most `SPARE_CAPACITY` bytes each, are kept.
pub(super) const SPARES: usize = 32;

pub(super) const SPARE_CAPACITY: usize = 256 << 10;

/// `data` copied into a spare buffer (or a new one).
pub(super) fn spare_copy(data: &[u8]) -> Vec<u8> {
    let mut v = IOF_SPARES.lock().pop().unwrap_or_default();
    v.extend_from_slice(data);
    v
}

/// Keeps `v` for a later [`spare_copy`], if there is room and it is not too large.
pub(super) fn give_spare(mut v: Vec<u8>) {
    if v.capacity() == 0 || v.capacity() > SPARE_CAPACITY {
        return;
    }
    v.clear();
    let mut spares = IOF_SPARES.lock();
    if spares.len() < SPARES {
        spares.push(v);
    }
}

impl Client {
    /// `PMIx_IOF_pull`: asks the server to forward the output of `procs` on `channels` to
    /// `handler` (or, without one, to this process's own stdout/stderr), formatted per the
    /// output attributes among `directives` ([`crate::iof::IofFlags`]); returns the id to
    /// deregister it with. Output the server had cached may arrive before this returns.
    #[doc(alias = "PMIx_IOF_pull")]
    pub fn iof_pull(
        &self,
        procs: &[Proc],
        directives: &[Info],
        channels: pmix_iof_channel_t,
        handler: Option<IofHandler>,
    ) -> Result<usize> {
        if channels & PMIX_FWD_STDIN_CHANNEL != 0 {
            return Err(Error::NotSupported);
        }
        if procs.is_empty() {
            return Err(Error::BadParam);
        }
        let reg = {
            let mut t = self.iof.lock();
            t.next += 1;
            let reg = Arc::new(IofReg {
                id: t.next,
                handler,
                flags: crate::iof::IofFlags::from_info(directives),
                remote: std::sync::atomic::AtomicUsize::new(0),
                out: Mutex::new(IofOut::default()),
            });
            t.regs.insert(reg.id, reg.clone());
            reg
        };
        let mut p = Pack::cmd(self.mode, cmd::IOF_PULL);
        p.procs_always(procs)
            .infos(directives)
            .one(PMIX_IOF_CHANNEL, Value::IofChannel(channels))
            .size(reg.id);
        let answer = (|| {
            let reply = self.request(p.into_bytes(), None)?;
            let mut u = Unpack::new(self.mode, &reply);
            status_result(u.status()?)?;
            Ok(if u.at_end() { 0 } else { u.size()? })
        })();
        match answer {
            Ok(remote) => {
                reg.remote
                    .store(remote, std::sync::atomic::Ordering::SeqCst);
                Ok(reg.id)
            }
            Err(e) => {
                self.iof.lock().regs.remove(&reg.id);
                Err(e)
            }
        }
    }

    /// `PMIx_IOF_deregister`: output held back by `PMIX_IOF_BUFFERING_SIZE` is delivered
    /// first.
    #[doc(alias = "PMIx_IOF_deregister")]
    pub fn iof_deregister(&self, id: usize, directives: &[Info]) -> Result<()> {
        let reg = self.iof.lock().regs.remove(&id).ok_or(Error::BadParam)?;
        let remote = reg.remote.load(std::sync::atomic::Ordering::SeqCst);
        let flushed = reg.clone();
        self.pump.run(move || {
            let pending = flush_pending(&flushed);
            hand_out(&flushed, pending);
        });
        let mut p = Pack::cmd(self.mode, cmd::IOF_DEREG);
        p.infos(directives).size(remote);
        self.status_request(p.into_bytes(), None)
    }

    /// `PMIx_IOF_push`: data for the stdin of `targets` (`None`: end of input).
    #[doc(alias = "PMIx_IOF_push")]
    pub fn iof_push(
        &self,
        targets: &[Proc],
        data: Option<&[u8]>,
        directives: &[Info],
        done: Done<()>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::IOF_PUSH);
        p.procs(targets).infos(directives);
        if let Some(d) = data {
            p.bytes(d);
        }
        self.status_request_nb(p.into_bytes(), done)
    }

    /// `PMIx_IOF_push` with `PMIX_IOF_PUSH_STDIN`: a thread reads this process's stdin and
    /// pushes it to `targets`, one request at a time (so nothing is reordered and a slow
    /// reader slows the pushes), then marks the end of input (`PMIX_IOF_COMPLETE`) at end
    /// of file. Returns once the thread runs.
    pub fn iof_push_stdin(self: &Arc<Self>, targets: &[Proc], directives: &[Info]) -> Result<()> {
        let me = self.clone();
        let targets = targets.to_vec();
        crate::iof::forward_stdin(directives, true, move |data, dirs| {
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            me.iof_push(
                &targets,
                data,
                dirs,
                Box::new(move |r| {
                    let _ = tx.send(r);
                }),
            )?;
            rx.recv().map_err(|_| Error::Unreach)?
        })
    }
}
