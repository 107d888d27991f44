//! Packing: core values to v41 bytes.

use pmix_sys::*;

use super::{BufferType, flex, is_codec_type, text};
use crate::values::*;
use crate::{Error, Result};

/// Appends top-level packs to a byte vector.
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    /// Whether top-level packs carry type tags.
    pub mode: BufferType,
    /// The bytes packed so far.
    pub buf: Vec<u8>,
}

impl Encoder {
    /// An empty encoder for buffers of type `mode`.
    pub fn new(mode: BufferType) -> Encoder {
        Encoder {
            mode,
            buf: Vec::new(),
        }
    }

    /// The packed bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The start of a top-level pack of one byte object of `len` bytes, up to the bytes
    /// themselves: with the bytes appended, the same as `pack(PMIX_BYTE_OBJECT, ..)` of
    /// them. Lets a caller send the bytes from where they are instead of copying them in.
    pub fn byte_object_head(&mut self, len: usize) {
        if self.mode == BufferType::FullyDesc {
            self.dtype(PMIX_INT32);
        }
        self.int(1);
        if self.mode == BufferType::FullyDesc {
            self.dtype(PMIX_BYTE_OBJECT);
        }
        self.size(len);
    }

    /// Appends one top-level pack of `values`, each of type `ty` (of any type when `ty` is
    /// `PMIX_VALUE`, each then carrying its own type). On error nothing is appended.
    ///
    /// # Errors
    /// `UnknownDataType` for a type the v41 format does not have; `TypeMismatch` when a value
    /// is not of type `ty`; `BadParam` for more than `i32::MAX` values, or a value the format
    /// cannot carry (a regex blob whose header is damaged); `NotSupported` for a cpuset or
    /// topology of a library other than hwloc, or a topology that cannot be exported.
    #[doc(alias = "PMIx_Data_pack")]
    pub fn pack(&mut self, ty: pmix_data_type_t, values: &[Value]) -> Result<()> {
        let start = self.buf.len();
        let r = self.top(ty, values);
        if r.is_err() {
            self.buf.truncate(start);
        }
        r
    }

    /// Appends `PACK(KVAL, 1, kv)`, as [`Encoder::pack`] of that one KVAL would, without
    /// copying the value into a [`Value::Kval`] first. On error nothing is appended.
    ///
    /// # Errors
    /// As [`Encoder::pack`].
    pub fn pack_kval(&mut self, kv: &Kval) -> Result<()> {
        self.pack_kval_parts(kv.key.as_bytes(), &kv.value)
    }

    /// [`Encoder::pack_kval`] of a key and a value held apart.
    pub fn pack_kval_parts(&mut self, key: &[u8], value: &Value) -> Result<()> {
        let start = self.buf.len();
        if self.mode == BufferType::FullyDesc {
            self.dtype(PMIX_INT32);
        }
        self.int(1);
        if self.mode == BufferType::FullyDesc {
            self.dtype(PMIX_KVAL);
        }
        let r = self.string(key).and_then(|()| self.value(value));
        if r.is_err() {
            self.buf.truncate(start);
        }
        r
    }

    fn top(&mut self, ty: pmix_data_type_t, values: &[Value]) -> Result<()> {
        if !is_codec_type(ty) {
            return Err(Error::UnknownDataType(ty));
        }
        let n = i32::try_from(values.len()).map_err(|_| Error::BadParam)?;
        if self.mode == BufferType::FullyDesc {
            self.dtype(PMIX_INT32);
        }
        self.int(n.into());
        if self.mode == BufferType::FullyDesc {
            self.dtype(ty);
        }
        self.elems(ty, values)
    }

    /// The elements of an array of type `ty`, with no count. PIDs share one type tag: the
    /// reference tags the array, not each PID; pointers share one marker byte.
    fn elems(&mut self, ty: pmix_data_type_t, values: &[Value]) -> Result<()> {
        if ty == PMIX_POINTER {
            // One marker byte stands for the whole array; addresses never travel.
            if values.iter().any(|v| !matches!(v, Value::Pointer(_))) {
                return Err(Error::TypeMismatch);
            }
            self.byte(1);
            return Ok(());
        }
        if ty == PMIX_PID {
            self.dtype(PMIX_UINT32);
            for v in values {
                match v {
                    Value::Pid(p) => self.uint(u64::from(*p as u32)),
                    _ => return Err(Error::TypeMismatch),
                }
            }
            return Ok(());
        }
        values.iter().try_for_each(|v| self.elem(ty, v))
    }

    /// One element of an array of type `ty`.
    fn elem(&mut self, ty: pmix_data_type_t, v: &Value) -> Result<()> {
        if ty == PMIX_VALUE {
            return self.value(v);
        }
        if v.data_type() != ty {
            return Err(Error::TypeMismatch);
        }
        self.payload(v)
    }

    /// A `PMIX_VALUE`: its type, then its payload.
    fn value(&mut self, v: &Value) -> Result<()> {
        self.dtype(v.data_type());
        self.payload(v)
    }

    fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }
    fn uint(&mut self, v: u64) {
        flex::put_u64(&mut self.buf, v);
    }
    fn int(&mut self, v: i64) {
        flex::put_i64(&mut self.buf, v);
    }
    fn dtype(&mut self, t: pmix_data_type_t) {
        self.uint(t.into());
    }
    fn size(&mut self, n: usize) {
        self.uint(n as u64);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// A byte object: its length, then its bytes.
    fn blob(&mut self, b: &[u8]) {
        self.size(b.len());
        self.bytes(b);
    }
    /// A present string: length with terminator, bytes, terminator.
    fn string(&mut self, s: &[u8]) -> Result<()> {
        let n = i32::try_from(s.len() + 1).map_err(|_| Error::BadParam)?;
        self.int(n.into());
        self.bytes(s);
        self.byte(0);
        Ok(())
    }
    /// A string that may be NULL (length 0, no bytes).
    fn opt_string(&mut self, s: Option<&PStr>) -> Result<()> {
        match s {
            Some(s) => self.string(s.as_bytes()),
            None => {
                self.int(0);
                Ok(())
            }
        }
    }
    /// A PID: always preceded by the type tag of UINT32.
    fn pid(&mut self, pid: i32) {
        self.dtype(PMIX_UINT32);
        self.uint(u64::from(pid as u32));
    }
    /// A float or double: its `"%f"` text.
    fn float(&mut self, v: f64) -> Result<()> {
        self.string(text::format_f(v).as_bytes())
    }
    fn timeval(&mut self, t: &Timeval) {
        self.int(t.sec);
        self.int(t.usec);
    }
    fn proc_(&mut self, p: &Proc) -> Result<()> {
        self.string(p.nspace.as_bytes())?;
        self.uint(p.rank.into());
        Ok(())
    }
    fn info(&mut self, i: &Info) -> Result<()> {
        self.string(i.key.as_bytes())?;
        self.uint(i.flags.into());
        self.value(&i.value)
    }
    fn infos(&mut self, list: &[Info]) -> Result<()> {
        self.size(list.len());
        list.iter().try_for_each(|i| self.info(i))
    }
    fn strings_i32(&mut self, list: &[PStr]) -> Result<()> {
        let n = i32::try_from(list.len()).map_err(|_| Error::BadParam)?;
        self.int(n.into());
        list.iter().try_for_each(|s| self.string(s.as_bytes()))
    }
    fn coord(&mut self, c: &Coord) {
        self.byte(c.view);
        self.size(c.coord.len());
        for &x in &c.coord {
            self.uint(x.into());
        }
    }
    fn disk(&mut self, d: &DiskStats) -> Result<()> {
        self.opt_string(d.disk.as_ref())?;
        for v in [
            d.num_reads_completed,
            d.num_reads_merged,
            d.num_sectors_read,
            d.milliseconds_reading,
            d.num_writes_completed,
            d.num_writes_merged,
            d.num_sectors_written,
            d.milliseconds_writing,
            d.num_ios_in_progress,
            d.milliseconds_io,
            d.weighted_milliseconds_io,
        ] {
            self.uint(v);
        }
        Ok(())
    }
    fn net(&mut self, n: &NetStats) -> Result<()> {
        self.opt_string(n.net_interface.as_ref())?;
        for v in [
            n.num_bytes_recvd,
            n.num_packets_recvd,
            n.num_recv_errs,
            n.num_bytes_sent,
            n.num_packets_sent,
            n.num_send_errs,
        ] {
            self.uint(v);
        }
        Ok(())
    }

    /// A node or process map: raw bytes for the "pmix" and "blob" forms, otherwise a nested
    /// top-level pack of one string.
    fn regex(&mut self, b: &[u8]) -> Result<()> {
        if b.starts_with(b"pmix") {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            self.bytes(&b[..end]);
            self.byte(0);
            return Ok(());
        }
        if b.starts_with(super::unpack::BLOB_PREFIX) {
            let total = super::unpack::blob_len(b).ok_or(Error::BadParam)?;
            self.bytes(&b[..total]);
            return Ok(());
        }
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        let s = if b.is_empty() {
            None
        } else {
            Some(PStr::from(&b[..end]))
        };
        self.top(PMIX_STRING, &[Value::String(s)])
    }

    fn hwloc_source(source: Option<&PStr>) -> Result<()> {
        match source {
            Some(s) if !s.as_bytes().starts_with(b"hwloc") => Err(Error::NotSupported),
            _ => Ok(()),
        }
    }

    /// The bytes of one value of its own type, with no tag.
    fn payload(&mut self, v: &Value) -> Result<()> {
        match v {
            Value::Undef => {}
            Value::Bool(b) => self.byte(u8::from(*b)),
            Value::Byte(x) | Value::Uint8(x) | Value::Command(x) => self.byte(*x),
            Value::Int8(x) => self.byte(*x as u8),
            Value::Persist(x)
            | Value::Scope(x)
            | Value::DataRange(x)
            | Value::ProcState(x)
            | Value::AllocDirective(x)
            | Value::JobState(x)
            | Value::LinkState(x) => self.byte(*x),
            Value::String(s) => self.opt_string(s.as_ref())?,
            Value::Size(x) => self.uint(*x),
            Value::Pid(x) => self.pid(*x),
            Value::Int(x) | Value::Int32(x) | Value::Status(x) => self.int((*x).into()),
            Value::Int16(x) => self.int((*x).into()),
            Value::Int64(x) => self.int(*x),
            // UINT goes through the signed INT routine of the reference.
            Value::Uint(x) => self.int((*x as i32).into()),
            Value::Uint16(x)
            | Value::DataType(x)
            | Value::IofChannel(x)
            | Value::LocType(x)
            | Value::StorAccessType(x) => self.uint((*x).into()),
            Value::Uint32(x) | Value::ProcRank(x) | Value::InfoDirectives(x) => {
                self.uint((*x).into())
            }
            Value::Uint64(x)
            | Value::DevType(x)
            | Value::StorMedium(x)
            | Value::StorAccess(x)
            | Value::StorPersist(x) => self.uint(*x),
            Value::Float(x) => self.float((*x).into())?,
            Value::Double(x) => self.float(*x)?,
            Value::Timeval(t) => self.timeval(t),
            Value::Time(t) => self.uint(*t as u64),
            Value::Proc(p) => self.proc_(p)?,
            Value::App(a) => {
                self.opt_string(a.cmd.as_ref())?;
                let argc = i32::try_from(a.argv.len()).map_err(|_| Error::BadParam)?;
                self.int(argc.into());
                for s in &a.argv {
                    self.string(s.as_bytes())?;
                }
                self.strings_i32(&a.env)?;
                self.opt_string(a.cwd.as_ref())?;
                self.int(a.maxprocs.into());
                self.infos(&a.info)?;
            }
            Value::Info(i) => self.info(i)?,
            Value::Pdata(p) => {
                self.proc_(&p.proc)?;
                self.string(p.key.as_bytes())?;
                self.value(&p.value)?;
            }
            Value::ByteObject(b)
            | Value::CompressedString(b)
            | Value::CompressedByteObject(b)
            | Value::DataBuffer(b) => self.blob(b),
            Value::Kval(k) => {
                self.string(k.key.as_bytes())?;
                self.value(&k.value)?;
            }
            // The address never leaves the process: a marker byte stands for it.
            Value::Pointer(_) => self.byte(1),
            Value::ProcInfo(p) => {
                self.proc_(&p.proc)?;
                self.opt_string(p.hostname.as_ref())?;
                self.opt_string(p.executable_name.as_ref())?;
                self.pid(p.pid);
                self.byte(p.state);
            }
            Value::DataArray(d) => {
                if d.ty != PMIX_UNDEF && !is_codec_type(d.ty) {
                    return Err(Error::UnknownDataType(d.ty));
                }
                self.dtype(d.ty);
                self.size(d.items.len());
                if d.ty != PMIX_UNDEF && !d.items.is_empty() {
                    self.elems(d.ty, &d.items)?;
                }
            }
            Value::Query(q) => {
                self.strings_i32(&q.keys)?;
                self.infos(&q.qualifiers)?;
            }
            Value::Envar(e) => {
                self.opt_string(e.envar.as_ref())?;
                self.opt_string(e.value.as_ref())?;
                self.byte(e.separator);
            }
            Value::Coord(c) => self.coord(c),
            Value::Regattr(r) => {
                self.opt_string(r.name.as_ref())?;
                self.string(r.string.as_bytes())?;
                self.dtype(r.ty);
                self.strings_i32(&r.description)?;
            }
            Value::Regex(b) => self.regex(b)?,
            Value::ProcCpuset(c) => {
                Self::hwloc_source(c.source.as_ref())?;
                if c.source.is_none() {
                    return Err(Error::NotSupported);
                }
                self.opt_string(c.bitmap.as_ref())?;
            }
            Value::Geometry(g) => {
                self.size(g.fabric as usize);
                self.opt_string(g.uuid.as_ref())?;
                self.opt_string(g.osname.as_ref())?;
                self.size(g.coordinates.len());
                for c in &g.coordinates {
                    self.coord(c);
                }
            }
            Value::DeviceDist(d) => {
                self.opt_string(d.uuid.as_ref())?;
                self.opt_string(d.osname.as_ref())?;
                self.uint(d.ty);
                self.uint(d.mindist.into());
                self.uint(d.maxdist.into());
            }
            Value::Endpoint(e) => {
                self.opt_string(e.uuid.as_ref())?;
                self.opt_string(e.osname.as_ref())?;
                self.blob(&e.endpt);
            }
            Value::Topo(t) => {
                Self::hwloc_source(t.source.as_ref())?;
                let (xml, support) = match &t.data {
                    TopologyData::None => (None, None),
                    TopologyData::Foreign(f) => (Some(f.export_xml()?), Some(f.support_flags())),
                    TopologyData::Xml(x) => (Some(x.clone()), Some(DEFAULT_TOPO_SUPPORT)),
                };
                match xml {
                    Some(mut x) => {
                        while x.last() == Some(&0) {
                            x.pop();
                        }
                        self.string(&x)?;
                    }
                    None => self.int(0),
                }
                if let Some(s) = support {
                    self.bytes(&s);
                }
            }
            Value::ProcNspace(s) => self.string(s.as_bytes())?,
            Value::ProcStats(s) => {
                self.opt_string(s.node.as_ref())?;
                self.proc_(&s.proc)?;
                self.pid(s.pid);
                self.opt_string(s.cmd.as_ref())?;
                self.byte(s.state as u8);
                self.timeval(&s.time);
                self.int(s.priority.into());
                self.int((s.num_threads as i16).into());
                self.float(s.pss.into())?;
                self.float(s.vsize.into())?;
                self.float(s.rss.into())?;
                self.int((s.processor as i16).into());
                self.timeval(&s.sample_time);
            }
            Value::DiskStats(d) => self.disk(d)?,
            Value::NetStats(n) => self.net(n)?,
            Value::NodeStats(n) => {
                self.opt_string(n.node.as_ref())?;
                for v in [
                    n.la,
                    n.la5,
                    n.la15,
                    n.total_mem,
                    n.free_mem,
                    n.buffers,
                    n.cached,
                    n.swap_cached,
                    n.swap_total,
                    n.swap_free,
                    n.mapped,
                ] {
                    self.float(v.into())?;
                }
                self.timeval(&n.sample_time);
                self.size(n.diskstats.len());
                for d in &n.diskstats {
                    self.disk(d)?;
                }
                self.size(n.netstats.len());
                for d in &n.netstats {
                    self.net(d)?;
                }
            }
        }
        Ok(())
    }
}
