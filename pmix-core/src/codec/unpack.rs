//! Unpacking: v41 bytes to core values.
//!
//! The input may come from a hostile peer: every read is bounds-checked, every count is
//! checked against the bytes that remain before anything is allocated for it, and nesting is
//! limited to [`MAX_DEPTH`] levels.

use pmix_sys::*;

use super::{BufferType, MAX_DEPTH, MAX_KEY_LEN, MAX_NSPACE_LEN, flex, is_codec_type, text};
use crate::values::*;
use crate::{Error, Result};

/// What one top-level unpack produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Unpacked {
    /// The values read, at most the capacity asked for.
    pub values: Vec<Value>,
    /// The pack held more values than the capacity; those were left unread (the reference's
    /// `PMIX_ERR_UNPACK_INADEQUATE_SPACE`).
    pub more: bool,
}

/// Most pointers (beyond one per byte of input) an array may claim: pointers take no bytes.
const MAX_POINTERS: usize = 4096;

/// The start of a compressed node map ("blob" regex).
pub(super) const BLOB_PREFIX: &[u8] = b"blob:\0";

/// Total length of the compressed node map at the start of `b`:
/// `"blob:\0component=<name>:\0size=<n>:\0"` followed by `n` bytes. `None` when the header is
/// damaged or the bytes are not all there.
pub(super) fn blob_len(b: &[u8]) -> Option<usize> {
    let mut pos = BLOB_PREFIX.len();
    if !b.starts_with(BLOB_PREFIX) {
        return None;
    }
    let mut field = |prefix: &[u8]| -> Option<&[u8]> {
        let rest = b.get(pos..)?;
        let end = rest.iter().position(|&c| c == 0)?;
        let f = &rest[..end];
        pos += end + 1;
        f.strip_prefix(prefix)?.strip_suffix(b":")
    };
    field(b"component=")?;
    let size = field(b"size=")?;
    let n: usize = core::str::from_utf8(size).ok()?.parse().ok()?;
    let total = pos.checked_add(n)?;
    (total <= b.len()).then_some(total)
}

/// Reads top-level packs from a byte slice.
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    /// Whether top-level packs carry type tags.
    pub mode: BufferType,
    data: &'a [u8],
    pos: usize,
    depth: usize,
}

fn truncate(mut s: PStr, max: usize) -> PStr {
    if s.len() > max {
        let mut b = s.into_bytes();
        b.truncate(max);
        s = PStr::from(b);
    }
    s
}

impl<'a> Decoder<'a> {
    /// A decoder at the start of `data`.
    pub fn new(mode: BufferType, data: &'a [u8]) -> Decoder<'a> {
        Decoder {
            mode,
            data,
            pos: 0,
            depth: 0,
        }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not yet consumed.
    pub fn remaining(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Reads one top-level pack of type `ty` (`PMIX_VALUE`: values of any type, each with its
    /// own tag), keeping at most `max` values. On error nothing is consumed.
    ///
    /// # Errors
    /// `UnpackInadequateSpace` when `max` is 0; `ReadPastEnd` when the data ends early (or
    /// there is none); `Status(PMIX_ERR_PACK_MISMATCH)` when a fully described buffer holds
    /// another type; `UnknownDataType` for a type the format does not have (also inside
    /// values); `UnpackFailure` for negative counts, nesting deeper than [`MAX_DEPTH`] or a
    /// damaged node map; `NotSupported` for a cpuset or topology of another library.
    #[doc(alias = "PMIx_Data_unpack")]
    pub fn unpack(&mut self, ty: pmix_data_type_t, max: usize) -> Result<Unpacked> {
        self.or_rewind(|d| d.top(ty, max))
    }

    /// Runs `f`; when it fails, puts the position (and nesting depth) back where they were,
    /// so that a failed read consumes nothing.
    fn or_rewind<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let (pos, depth) = (self.pos, self.depth);
        let r = f(self);
        if r.is_err() {
            self.pos = pos;
            self.depth = depth;
        }
        r
    }

    /// Reads a top-level pack of exactly one byte object and returns its bytes where they
    /// are (what `unpack(PMIX_BYTE_OBJECT, 1)` reads, without the copy). On error nothing
    /// is consumed.
    pub fn byte_object_ref(&mut self) -> Result<&'a [u8]> {
        self.or_rewind(Self::byte_object_top)
    }

    fn byte_object_top(&mut self) -> Result<&'a [u8]> {
        if self.remaining().is_empty() {
            return Err(Error::ReadPastEnd);
        }
        if self.mode == BufferType::FullyDesc && self.dtype()? != PMIX_INT32 {
            return Err(Error::UnpackFailure);
        }
        let n = self.int()? as i32;
        if self.mode == BufferType::FullyDesc && self.dtype()? != PMIX_BYTE_OBJECT {
            return Err(Error::Status(PMIX_ERR_PACK_MISMATCH));
        }
        if n != 1 {
            return Err(Error::UnpackFailure);
        }
        let len = self.count()?;
        self.take(len)
    }

    /// Reads one top-level `PACK(KVAL)` whose value is a `DATA_ARRAY` of `INFO` (a
    /// `pmix.pdata` or `pmix.node.arr` of the job data) and returns the value of the last
    /// info named `key`, or `None`. The other infos are skipped without being built (plain
    /// numbers and strings are stepped over; other types are decoded and dropped), so a
    /// lookup allocates nothing but the returned value.
    ///
    /// # Errors
    /// `UnpackFailure` when the data is not such a KVAL; the errors of [`Decoder::unpack`]
    /// for damaged content.
    pub fn find_in_info_array(&mut self, key: &[u8]) -> Result<Option<Value>> {
        self.or_rewind(|d| d.find_in_info_array_inner(key))
    }

    fn find_in_info_array_inner(&mut self, key: &[u8]) -> Result<Option<Value>> {
        if self.kval_pack_count()? != 1 {
            return Err(Error::UnpackFailure);
        }
        self.raw_key()?;
        if self.dtype()? != PMIX_DATA_ARRAY || self.dtype()? != PMIX_INFO {
            return Err(Error::UnpackFailure);
        }
        let n = usize::try_from(self.uint()?).map_err(|_| Error::ReadPastEnd)?;
        self.fits(n)?;
        let mut found = None;
        for _ in 0..n {
            let k = self.raw_key()?;
            self.uint()?;
            if k == key {
                found = Some(self.value()?);
            } else {
                self.skip_value()?;
            }
        }
        Ok(found)
    }

    /// Reads top-level `PACK(KVAL)`s up to the first KVAL named `key` and returns its
    /// value, or `None` when the data ends without one. Values of other keys are skipped
    /// without being built where they are plain numbers or strings, so a lookup allocates
    /// little beyond the returned value. On error nothing is consumed.
    ///
    /// # Errors
    /// `UnpackFailure` when the data is not a sequence of KVAL packs; `ReadPastEnd` (or
    /// another error of [`Decoder::unpack`]) when it ends inside one or is damaged.
    pub fn find_first_in_kvals(&mut self, key: &[u8]) -> Result<Option<Value>> {
        self.or_rewind(|d| d.find_in_kvals_inner(key))
    }

    fn find_in_kvals_inner(&mut self, key: &[u8]) -> Result<Option<Value>> {
        while !self.remaining().is_empty() {
            let n = self.kval_pack_count()? as i32;
            let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
            self.fits(n)?;
            for _ in 0..n {
                if self.raw_key()? == key {
                    return self.value().map(Some);
                }
                self.skip_value()?;
            }
        }
        Ok(None)
    }

    /// The head of a top-level `PACK(KVAL)`: the count of KVALs that follow (with the
    /// INT32 and KVAL type tags of a fully described buffer checked around it).
    fn kval_pack_count(&mut self) -> Result<i64> {
        if self.mode == BufferType::FullyDesc && self.dtype()? != PMIX_INT32 {
            return Err(Error::UnpackFailure);
        }
        let n = self.int()?;
        if self.mode == BufferType::FullyDesc && self.dtype()? != PMIX_KVAL {
            return Err(Error::UnpackFailure);
        }
        Ok(n)
    }

    /// A key's bytes as [`Decoder::key`] would make them (up to the first NUL, at most
    /// `MAX_KEY_LEN`), without copying.
    fn raw_key(&mut self) -> Result<&'a [u8]> {
        let n = self.int()? as i32;
        let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
        let b = self.take(n)?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        Ok(&b[..end.min(MAX_KEY_LEN)])
    }

    /// Steps over one `PMIX_VALUE` (type and payload).
    fn skip_value(&mut self) -> Result<()> {
        let t = self.dtype()?;
        match t {
            PMIX_BOOL | PMIX_BYTE | PMIX_INT8 | PMIX_UINT8 | PMIX_PERSIST | PMIX_SCOPE
            | PMIX_DATA_RANGE | PMIX_PROC_STATE => {
                self.byte()?;
            }
            PMIX_SIZE | PMIX_INT | PMIX_INT16 | PMIX_INT32 | PMIX_INT64 | PMIX_UINT
            | PMIX_UINT16 | PMIX_UINT32 | PMIX_UINT64 | PMIX_TIME | PMIX_STATUS
            | PMIX_PROC_RANK | PMIX_INFO_DIRECTIVES | PMIX_DATA_TYPE => {
                self.uint()?;
            }
            PMIX_STRING => {
                let n = self.int()? as i32;
                let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
                self.take(n)?;
            }
            PMIX_BYTE_OBJECT => {
                // As `blob` reads it, without the copy.
                let n = self.count()?;
                self.take(n)?;
            }
            _ => {
                self.payload(t)?;
            }
        }
        Ok(())
    }

    fn top(&mut self, ty: pmix_data_type_t, max: usize) -> Result<Unpacked> {
        if max == 0 {
            return Err(Error::UnpackInadequateSpace);
        }
        if self.remaining().is_empty() {
            return Err(Error::ReadPastEnd);
        }
        if self.mode == BufferType::FullyDesc && self.dtype()? != PMIX_INT32 {
            return Err(Error::UnpackFailure);
        }
        let n = self.int()? as i32;
        if self.mode == BufferType::FullyDesc && self.dtype()? != ty {
            return Err(Error::Status(PMIX_ERR_PACK_MISMATCH));
        }
        if !is_codec_type(ty) {
            return Err(Error::UnknownDataType(ty));
        }
        let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
        let take = n.min(max);
        let values = self.elems(ty, take, true)?;
        Ok(Unpacked {
            values,
            more: n > max,
        })
    }

    /// `n` elements of an array of type `ty`. An array of PIDs starts with one type tag, an
    /// array of pointers is one marker byte (both present even in an empty top-level pack,
    /// `tagged_if_empty`).
    fn elems(
        &mut self,
        ty: pmix_data_type_t,
        n: usize,
        tagged_if_empty: bool,
    ) -> Result<Vec<Value>> {
        if ty == PMIX_POINTER {
            // Pointers take no bytes each, so their count cannot be checked against the
            // data left; a bound keeps a hostile count from costing memory.
            if n > MAX_POINTERS + self.data.len() {
                return Err(Error::UnpackFailure);
            }
            if n > 0 || tagged_if_empty {
                self.byte()?;
            }
            return Ok(vec![Value::Pointer(0); n]);
        }
        if ty == PMIX_PID && (n > 0 || tagged_if_empty) && self.dtype()? != PMIX_UINT32 {
            return Err(Error::Status(PMIX_ERR_PACK_MISMATCH));
        }
        self.fits(n)?;
        let mut values = Vec::with_capacity(n);
        for _ in 0..n {
            values.push(if ty == PMIX_PID {
                Value::Pid(self.uint()? as u32 as i32)
            } else {
                self.elem(ty)?
            });
        }
        Ok(values)
    }

    // ---- primitives

    /// Checks that `n` more elements of at least one byte each can be present.
    fn fits(&self, n: usize) -> Result<()> {
        if n > self.data.len() - self.pos {
            Err(Error::ReadPastEnd)
        } else {
            Ok(())
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        self.fits(n)?;
        let b = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(b)
    }

    fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn uint(&mut self) -> Result<u64> {
        let (v, n) = flex::get_u64(self.remaining()).ok_or(Error::ReadPastEnd)?;
        self.pos += n;
        Ok(v)
    }

    fn int(&mut self) -> Result<i64> {
        Ok(flex::unzigzag(self.uint()?))
    }

    fn dtype(&mut self) -> Result<pmix_data_type_t> {
        Ok(self.uint()? as pmix_data_type_t)
    }

    /// A count packed as SIZE, checked against the bytes left when each element takes at
    /// least one byte.
    fn count(&mut self) -> Result<usize> {
        let n = usize::try_from(self.uint()?).map_err(|_| Error::ReadPastEnd)?;
        self.fits(n)?;
        Ok(n)
    }

    /// A count packed as INT or INT32.
    fn count_i32(&mut self) -> Result<usize> {
        let n = usize::try_from(self.int()? as i32).map_err(|_| Error::UnpackFailure)?;
        self.fits(n)?;
        Ok(n)
    }

    /// A string that may be NULL. Its text ends at the first NUL, as C reads it.
    fn opt_string(&mut self) -> Result<Option<PStr>> {
        let n = self.int()? as i32;
        let n = usize::try_from(n).map_err(|_| Error::UnpackFailure)?;
        if n == 0 {
            return Ok(None);
        }
        let b = self.take(n)?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        Ok(Some(PStr::from(&b[..end])))
    }

    fn string(&mut self) -> Result<PStr> {
        Ok(self.opt_string()?.unwrap_or_default())
    }

    fn key(&mut self) -> Result<PStr> {
        Ok(truncate(self.string()?, MAX_KEY_LEN))
    }

    fn strings(&mut self, n: usize) -> Result<Vec<PStr>> {
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.string()?);
        }
        Ok(v)
    }

    fn blob(&mut self) -> Result<Vec<u8>> {
        let n = self.count()?;
        Ok(self.take(n)?.to_vec())
    }

    fn pid(&mut self) -> Result<i32> {
        if self.dtype()? != PMIX_UINT32 {
            return Err(Error::Status(PMIX_ERR_PACK_MISMATCH));
        }
        Ok(self.uint()? as u32 as i32)
    }

    fn float(&mut self) -> Result<f64> {
        Ok(self
            .opt_string()?
            .map_or(0.0, |s| text::parse_f(s.as_bytes())))
    }

    fn timeval(&mut self) -> Result<Timeval> {
        Ok(Timeval {
            sec: self.int()?,
            usec: self.int()?,
        })
    }

    fn proc_(&mut self) -> Result<Proc> {
        Ok(Proc {
            nspace: truncate(self.string()?, MAX_NSPACE_LEN),
            rank: self.uint()? as u32,
        })
    }

    fn info(&mut self) -> Result<Info> {
        Ok(Info {
            key: self.key()?,
            flags: self.uint()? as u32,
            value: self.value()?,
        })
    }

    fn infos(&mut self) -> Result<Vec<Info>> {
        let n = self.count()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.info()?);
        }
        Ok(v)
    }

    fn coord(&mut self) -> Result<Coord> {
        let view = self.byte()?;
        let n = self.count()?;
        let mut coord = Vec::with_capacity(n);
        for _ in 0..n {
            coord.push(self.uint()? as u32);
        }
        Ok(Coord { view, coord })
    }

    fn disk(&mut self) -> Result<DiskStats> {
        let disk = self.opt_string()?;
        let mut v = [0u64; 11];
        for x in &mut v {
            *x = self.uint()?;
        }
        let [a, b, c, d, e, f, g, h, i, j, k] = v;
        Ok(DiskStats {
            disk,
            num_reads_completed: a,
            num_reads_merged: b,
            num_sectors_read: c,
            milliseconds_reading: d,
            num_writes_completed: e,
            num_writes_merged: f,
            num_sectors_written: g,
            milliseconds_writing: h,
            num_ios_in_progress: i,
            milliseconds_io: j,
            weighted_milliseconds_io: k,
        })
    }

    fn net(&mut self) -> Result<NetStats> {
        let net_interface = self.opt_string()?;
        let mut v = [0u64; 6];
        for x in &mut v {
            *x = self.uint()?;
        }
        let [a, b, c, d, e, f] = v;
        Ok(NetStats {
            net_interface,
            num_bytes_recvd: a,
            num_packets_recvd: b,
            num_recv_errs: c,
            num_bytes_sent: d,
            num_packets_sent: e,
            num_send_errs: f,
        })
    }

    /// A node or process map, recognised by its first bytes.
    fn regex(&mut self) -> Result<Vec<u8>> {
        let rest = self.remaining();
        if rest.starts_with(b"pmix") {
            let end = rest
                .iter()
                .position(|&c| c == 0)
                .ok_or(Error::ReadPastEnd)?;
            return Ok(self.take(end + 1)?.to_vec());
        }
        if rest.starts_with(BLOB_PREFIX) {
            let n = blob_len(rest).ok_or(Error::UnpackFailure)?;
            return Ok(self.take(n)?.to_vec());
        }
        let u = self.top(PMIX_STRING, 1)?;
        if u.more {
            return Err(Error::UnpackFailure);
        }
        Ok(match u.values.into_iter().next() {
            Some(Value::String(Some(s))) => {
                let mut b = s.into_bytes();
                b.push(0);
                b
            }
            _ => Vec::new(),
        })
    }

    // ---- values

    fn elem(&mut self, ty: pmix_data_type_t) -> Result<Value> {
        if ty == PMIX_VALUE {
            self.value()
        } else {
            self.payload(ty)
        }
    }

    /// A `PMIX_VALUE`: its type, then its payload.
    fn value(&mut self) -> Result<Value> {
        let t = self.dtype()?;
        self.payload(t)
    }

    /// One value of type `ty`, nesting checked.
    fn payload(&mut self, ty: pmix_data_type_t) -> Result<Value> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::UnpackFailure);
        }
        self.depth += 1;
        let r = self.payload_inner(ty);
        self.depth -= 1;
        r
    }

    fn payload_inner(&mut self, ty: pmix_data_type_t) -> Result<Value> {
        Ok(match ty {
            PMIX_UNDEF => Value::Undef,
            PMIX_BOOL => Value::Bool(self.byte()? != 0),
            PMIX_BYTE => Value::Byte(self.byte()?),
            PMIX_STRING => Value::String(self.opt_string()?),
            PMIX_SIZE => Value::Size(self.uint()?),
            PMIX_PID => Value::Pid(self.pid()?),
            PMIX_INT => Value::Int(self.int()? as i32),
            PMIX_INT8 => Value::Int8(self.byte()? as i8),
            PMIX_INT16 => Value::Int16(self.int()? as i16),
            PMIX_INT32 => Value::Int32(self.int()? as i32),
            PMIX_INT64 => Value::Int64(self.int()?),
            PMIX_UINT => Value::Uint(self.int()? as u32),
            PMIX_UINT8 => Value::Uint8(self.byte()?),
            PMIX_UINT16 => Value::Uint16(self.uint()? as u16),
            PMIX_UINT32 => Value::Uint32(self.uint()? as u32),
            PMIX_UINT64 => Value::Uint64(self.uint()?),
            PMIX_FLOAT => Value::Float(self.float()? as f32),
            PMIX_DOUBLE => Value::Double(self.float()?),
            PMIX_TIMEVAL => Value::Timeval(self.timeval()?),
            PMIX_TIME => Value::Time(self.uint()? as i64),
            PMIX_STATUS => Value::Status(self.int()? as i32),
            PMIX_PROC => Value::Proc(self.proc_()?),
            PMIX_APP => {
                let cmd = self.opt_string()?;
                let argc = self.count_i32()?;
                let argv = self.strings(argc)?;
                let envc = self.count_i32()?;
                let env = self.strings(envc)?;
                let cwd = self.opt_string()?;
                let maxprocs = self.int()? as i32;
                let info = self.infos()?;
                Value::App(Box::new(App {
                    cmd,
                    argv,
                    env,
                    cwd,
                    maxprocs,
                    info,
                }))
            }
            PMIX_INFO => Value::Info(Box::new(self.info()?)),
            PMIX_PDATA => Value::Pdata(Box::new(Pdata {
                proc: self.proc_()?,
                key: self.key()?,
                value: self.value()?,
            })),
            PMIX_BYTE_OBJECT => Value::ByteObject(self.blob()?),
            PMIX_KVAL => Value::Kval(Box::new(Kval {
                key: self.key()?,
                value: self.value()?,
            })),
            PMIX_PERSIST => Value::Persist(self.byte()?),
            PMIX_POINTER => {
                self.byte()?;
                Value::Pointer(0)
            }
            PMIX_SCOPE => Value::Scope(self.byte()?),
            PMIX_DATA_RANGE => Value::DataRange(self.byte()?),
            PMIX_COMMAND => Value::Command(self.byte()?),
            PMIX_INFO_DIRECTIVES => Value::InfoDirectives(self.uint()? as u32),
            PMIX_DATA_TYPE => Value::DataType(self.dtype()?),
            PMIX_PROC_STATE => Value::ProcState(self.byte()?),
            PMIX_PROC_INFO => Value::ProcInfo(Box::new(ProcInfo {
                proc: self.proc_()?,
                hostname: self.opt_string()?,
                executable_name: self.opt_string()?,
                pid: self.pid()?,
                exit_code: 0,
                state: self.byte()?,
            })),
            PMIX_DATA_ARRAY => {
                let ety = self.dtype()?;
                if ety != PMIX_UNDEF && !is_codec_type(ety) {
                    return Err(Error::UnknownDataType(ety));
                }
                let n = self.uint()?;
                let items = if ety == PMIX_UNDEF {
                    Vec::new()
                } else {
                    let n = usize::try_from(n).map_err(|_| Error::ReadPastEnd)?;
                    self.elems(ety, n, false)?
                };
                Value::DataArray(Box::new(DataArray { ty: ety, items }))
            }
            PMIX_PROC_RANK => Value::ProcRank(self.uint()? as u32),
            PMIX_QUERY => {
                let n = self.count_i32()?;
                let keys = self.strings(n)?;
                let qualifiers = self.infos()?;
                Value::Query(Box::new(Query { keys, qualifiers }))
            }
            PMIX_COMPRESSED_STRING => Value::CompressedString(self.blob()?),
            PMIX_ALLOC_DIRECTIVE => Value::AllocDirective(self.byte()?),
            PMIX_IOF_CHANNEL => Value::IofChannel(self.uint()? as u16),
            PMIX_ENVAR => Value::Envar(Envar {
                envar: self.opt_string()?,
                value: self.opt_string()?,
                separator: self.byte()?,
            }),
            PMIX_COORD => Value::Coord(Box::new(self.coord()?)),
            PMIX_REGATTR => {
                let name = self.opt_string()?;
                let string = self.key()?;
                let ty = self.dtype()?;
                let n = self.count_i32()?;
                let description = self.strings(n)?;
                Value::Regattr(Box::new(Regattr {
                    name,
                    string,
                    ty,
                    description,
                }))
            }
            PMIX_REGEX => Value::Regex(self.regex()?),
            PMIX_JOB_STATE => Value::JobState(self.byte()?),
            PMIX_LINK_STATE => Value::LinkState(self.byte()?),
            PMIX_PROC_CPUSET => Value::ProcCpuset(Box::new(Cpuset {
                source: Some(PStr::from("hwloc")),
                bitmap: self.opt_string()?,
            })),
            PMIX_GEOMETRY => {
                let fabric = self.uint()?;
                let uuid = self.opt_string()?;
                let osname = self.opt_string()?;
                let n = self.count()?;
                let mut coordinates = Vec::with_capacity(n);
                for _ in 0..n {
                    coordinates.push(self.coord()?);
                }
                Value::Geometry(Box::new(Geometry {
                    fabric,
                    uuid,
                    osname,
                    coordinates,
                }))
            }
            PMIX_DEVICE_DIST => Value::DeviceDist(Box::new(DeviceDistance {
                uuid: self.opt_string()?,
                osname: self.opt_string()?,
                ty: self.uint()?,
                mindist: self.uint()? as u16,
                maxdist: self.uint()? as u16,
            })),
            PMIX_ENDPOINT => Value::Endpoint(Box::new(Endpoint {
                uuid: self.opt_string()?,
                osname: self.opt_string()?,
                endpt: self.blob()?,
            })),
            PMIX_TOPO => {
                let data = match self.opt_string()? {
                    None => TopologyData::None,
                    Some(xml) => {
                        self.take(TOPO_SUPPORT_LEN)?;
                        TopologyData::Xml(xml.into_bytes())
                    }
                };
                Value::Topo(Box::new(Topology {
                    source: Some(PStr::from("hwloc")),
                    data,
                }))
            }
            PMIX_DEVTYPE => Value::DevType(self.uint()?),
            PMIX_LOCTYPE => Value::LocType(self.uint()? as u16),
            PMIX_COMPRESSED_BYTE_OBJECT => Value::CompressedByteObject(self.blob()?),
            PMIX_PROC_NSPACE => Value::ProcNspace(truncate(self.string()?, MAX_NSPACE_LEN)),
            PMIX_PROC_STATS => Value::ProcStats(Box::new(ProcStats {
                node: self.opt_string()?,
                proc: self.proc_()?,
                pid: self.pid()?,
                cmd: self.opt_string()?,
                state: self.byte()? as i8,
                time: self.timeval()?,
                percent_cpu: 0.0,
                priority: self.int()? as i32,
                num_threads: self.int()? as i16 as u16,
                pss: self.float()? as f32,
                vsize: self.float()? as f32,
                rss: self.float()? as f32,
                peak_vsize: 0.0,
                processor: self.int()? as i16 as u16,
                sample_time: self.timeval()?,
            })),
            PMIX_DISK_STATS => Value::DiskStats(Box::new(self.disk()?)),
            PMIX_NET_STATS => Value::NetStats(Box::new(self.net()?)),
            PMIX_NODE_STATS => {
                let node = self.opt_string()?;
                let mut f = [0f32; 11];
                for x in &mut f {
                    *x = self.float()? as f32;
                }
                let sample_time = self.timeval()?;
                let nd = self.count()?;
                let mut diskstats = Vec::with_capacity(nd);
                for _ in 0..nd {
                    diskstats.push(self.disk()?);
                }
                let nn = self.count()?;
                let mut netstats = Vec::with_capacity(nn);
                for _ in 0..nn {
                    netstats.push(self.net()?);
                }
                let [
                    la,
                    la5,
                    la15,
                    total_mem,
                    free_mem,
                    buffers,
                    cached,
                    swap_cached,
                    swap_total,
                    swap_free,
                    mapped,
                ] = f;
                Value::NodeStats(Box::new(NodeStats {
                    node,
                    la,
                    la5,
                    la15,
                    total_mem,
                    free_mem,
                    buffers,
                    cached,
                    swap_cached,
                    swap_total,
                    swap_free,
                    mapped,
                    sample_time,
                    diskstats,
                    netstats,
                }))
            }
            PMIX_DATA_BUFFER => Value::DataBuffer(self.blob()?),
            PMIX_STOR_MEDIUM => Value::StorMedium(self.uint()?),
            PMIX_STOR_ACCESS => Value::StorAccess(self.uint()?),
            PMIX_STOR_PERSIST => Value::StorPersist(self.uint()?),
            PMIX_STOR_ACCESS_TYPE => Value::StorAccessType(self.uint()? as u16),
            other => return Err(Error::UnknownDataType(other)),
        })
    }
}
