//! Building and reading command payloads: sequences of top-level packs (section 2.1).

use pmix_sys::*;

use crate::codec::{BufferType, Decoder, Encoder, flex};
use crate::values::{App, Info, Kval, PStr, Pdata, Proc, Query, Value};
use crate::{Error, Result};

/// Builds a payload.
#[derive(Debug, Clone)]
pub struct Pack(Encoder);

impl Pack {
    /// An empty payload.
    pub fn new(mode: BufferType) -> Pack {
        Pack(Encoder::new(mode))
    }
    /// The buffer type of the payload.
    pub fn mode(&self) -> BufferType {
        self.0.mode
    }
    /// A payload that starts with a command byte.
    pub fn cmd(mode: BufferType, cmd: u8) -> Pack {
        let mut p = Pack::new(mode);
        p.one(PMIX_COMMAND, Value::Command(cmd));
        p
    }
    /// One value of type `ty`. Values built here always fit their type, so a failure is a
    /// bug; it is dropped (the peer then sees a short message and answers an error).
    pub fn one(&mut self, ty: pmix_data_type_t, v: Value) -> &mut Pack {
        let _ = self.0.pack(ty, &[v]);
        self
    }
    /// Several values of type `ty` in one pack, left out when empty.
    pub fn many(&mut self, ty: pmix_data_type_t, v: Vec<Value>) -> &mut Pack {
        if !v.is_empty() {
            let _ = self.0.pack(ty, &v);
        }
        self
    }
    pub fn status(&mut self, s: pmix_status_t) -> &mut Pack {
        self.one(PMIX_STATUS, Value::Status(s))
    }
    pub fn string(&mut self, s: Option<&[u8]>) -> &mut Pack {
        self.one(PMIX_STRING, Value::String(s.map(PStr::from)))
    }
    pub fn size(&mut self, n: usize) -> &mut Pack {
        self.one(PMIX_SIZE, Value::Size(n as u64))
    }
    pub fn u32(&mut self, n: u32) -> &mut Pack {
        self.one(PMIX_UINT32, Value::Uint32(n))
    }
    pub fn rank(&mut self, r: u32) -> &mut Pack {
        self.one(PMIX_PROC_RANK, Value::ProcRank(r))
    }
    pub fn proc(&mut self, p: &Proc) -> &mut Pack {
        self.one(PMIX_PROC, Value::Proc(p.clone()))
    }
    pub fn range(&mut self, r: pmix_data_range_t) -> &mut Pack {
        self.one(PMIX_DATA_RANGE, Value::DataRange(r))
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Pack {
        self.bytes_head(b.len());
        self.0.buf.extend_from_slice(b);
        self
    }
    /// A byte object of `len` bytes without its bytes, which the caller sends right after
    /// the packed payload ([`Encoder::byte_object_head`]).
    pub fn bytes_head(&mut self, len: usize) -> &mut Pack {
        self.0.byte_object_head(len);
        self
    }
    pub fn kval(&mut self, k: &Kval) -> &mut Pack {
        self.one(PMIX_KVAL, Value::Kval(Box::new(k.clone())))
    }
    /// `SIZE n` then, when n > 0, the procs.
    pub fn procs(&mut self, p: &[Proc]) -> &mut Pack {
        self.size(p.len());
        self.many(PMIX_PROC, p.iter().cloned().map(Value::Proc).collect())
    }
    /// `SIZE n` then the procs even when n is 0 (fence, connect, IOF pull: the count is
    /// followed by an empty pack the reader skips the same way).
    pub fn procs_always(&mut self, p: &[Proc]) -> &mut Pack {
        self.size(p.len());
        let _ = self.0.pack(
            PMIX_PROC,
            &p.iter().cloned().map(Value::Proc).collect::<Vec<_>>(),
        );
        self
    }
    /// `SIZE n` then, when n > 0, the infos.
    pub fn infos(&mut self, i: &[Info]) -> &mut Pack {
        self.size(i.len());
        self.many(
            PMIX_INFO,
            i.iter().map(|x| Value::Info(Box::new(x.clone()))).collect(),
        )
    }
    pub fn pdata(&mut self, d: &[Pdata]) -> &mut Pack {
        self.size(d.len());
        // Written even when empty, as a bare count (the reference's lookup reply).
        let _ = self.0.pack(
            PMIX_PDATA,
            &d.iter()
                .map(|x| Value::Pdata(Box::new(x.clone())))
                .collect::<Vec<_>>(),
        );
        self
    }
    pub fn apps(&mut self, a: &[App]) -> &mut Pack {
        self.size(a.len());
        self.many(
            PMIX_APP,
            a.iter().map(|x| Value::App(Box::new(x.clone()))).collect(),
        )
    }
    pub fn queries(&mut self, q: &[Query]) -> &mut Pack {
        self.size(q.len());
        self.many(
            PMIX_QUERY,
            q.iter()
                .map(|x| Value::Query(Box::new(x.clone())))
                .collect(),
        )
    }
    /// A `PMIX_BUFFER` (internal type 26): buffer type byte, SIZE, raw bytes.
    pub fn buffer(&mut self, inner: BufferType, raw: &[u8]) -> &mut Pack {
        let b = &mut self.0.buf;
        if self.0.mode == BufferType::FullyDesc {
            flex::put_u64(b, u64::from(PMIX_INT32));
        }
        flex::put_i64(b, 1);
        if self.0.mode == BufferType::FullyDesc {
            flex::put_u64(b, u64::from(PMIX_BUFFER));
        }
        b.push(inner.wire_value());
        flex::put_u64(b, raw.len() as u64);
        b.extend_from_slice(raw);
        self
    }
    /// Appends bytes as they are.
    pub fn raw(&mut self, b: &[u8]) -> &mut Pack {
        self.0.buf.extend_from_slice(b);
        self
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.0.into_bytes()
    }
}

/// Reads a payload.
#[derive(Debug, Clone)]
pub struct Unpack<'a> {
    mode: BufferType,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Unpack<'a> {
    pub fn new(mode: BufferType, data: &'a [u8]) -> Unpack<'a> {
        Unpack { mode, data, pos: 0 }
    }
    pub fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos.min(self.data.len())..]
    }
    /// Up to `max` values of one pack of type `ty`.
    pub fn values(&mut self, ty: pmix_data_type_t, max: usize) -> Result<Vec<Value>> {
        let mut d = Decoder::new(self.mode, self.rest());
        let u = d.unpack(ty, max)?;
        if u.more {
            return Err(Error::UnpackFailure);
        }
        self.pos += d.position();
        Ok(u.values)
    }
    pub fn one(&mut self, ty: pmix_data_type_t) -> Result<Value> {
        self.values(ty, 1)?
            .into_iter()
            .next()
            .ok_or(Error::UnpackFailure)
    }
    pub fn cmd(&mut self) -> Result<u8> {
        match self.one(PMIX_COMMAND)? {
            Value::Command(c) => Ok(c),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn status(&mut self) -> Result<pmix_status_t> {
        match self.one(PMIX_STATUS)? {
            Value::Status(s) => Ok(s),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn string(&mut self) -> Result<Option<PStr>> {
        match self.one(PMIX_STRING)? {
            Value::String(s) => Ok(s),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn size(&mut self) -> Result<usize> {
        match self.one(PMIX_SIZE)? {
            Value::Size(n) => usize::try_from(n).map_err(|_| Error::UnpackFailure),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn u32(&mut self) -> Result<u32> {
        match self.one(PMIX_UINT32)? {
            Value::Uint32(n) => Ok(n),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn rank(&mut self) -> Result<u32> {
        match self.one(PMIX_PROC_RANK)? {
            Value::ProcRank(n) => Ok(n),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn range(&mut self) -> Result<pmix_data_range_t> {
        match self.one(PMIX_DATA_RANGE)? {
            Value::DataRange(n) => Ok(n),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn proc(&mut self) -> Result<Proc> {
        match self.one(PMIX_PROC)? {
            Value::Proc(p) => Ok(p),
            _ => Err(Error::UnpackFailure),
        }
    }
    pub fn bytes(&mut self) -> Result<Vec<u8>> {
        self.bytes_ref().map(<[u8]>::to_vec)
    }
    /// A byte object's bytes, borrowed from the payload.
    pub fn bytes_ref(&mut self) -> Result<&'a [u8]> {
        let mut d = Decoder::new(self.mode, self.rest());
        let b = d.byte_object_ref()?;
        self.pos += d.position();
        Ok(b)
    }
    pub fn kval(&mut self) -> Result<Kval> {
        match self.one(PMIX_KVAL)? {
            Value::Kval(k) => Ok(*k),
            _ => Err(Error::UnpackFailure),
        }
    }
    /// Every remaining KVAL pack.
    pub fn kvals_to_end(&mut self) -> Result<Vec<Kval>> {
        let mut v = Vec::new();
        while !self.at_end() {
            v.push(self.kval()?);
        }
        Ok(v)
    }
    /// `n` values of one pack, none read when n is 0.
    fn counted(&mut self, ty: pmix_data_type_t, n: usize) -> Result<Vec<Value>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        if n > self.rest().len() {
            return Err(Error::UnpackFailure);
        }
        let v = self.values(ty, n)?;
        if v.len() != n {
            return Err(Error::UnpackFailure);
        }
        Ok(v)
    }
    /// `SIZE n` then n procs.
    pub fn procs(&mut self) -> Result<Vec<Proc>> {
        let n = self.size()?;
        self.counted(PMIX_PROC, n)?
            .into_iter()
            .map(|v| match v {
                Value::Proc(p) => Ok(p),
                _ => Err(Error::UnpackFailure),
            })
            .collect()
    }
    /// `SIZE n` then n infos.
    pub fn infos(&mut self) -> Result<Vec<Info>> {
        let n = self.size()?;
        self.infos_n(n)
    }
    pub fn infos_n(&mut self, n: usize) -> Result<Vec<Info>> {
        self.counted(PMIX_INFO, n)?
            .into_iter()
            .map(|v| match v {
                Value::Info(i) => Ok(*i),
                _ => Err(Error::UnpackFailure),
            })
            .collect()
    }
    /// `SIZE n` then a PDATA pack (present even when n is 0; tolerated when absent).
    pub fn pdata(&mut self) -> Result<Vec<Pdata>> {
        let n = self.size()?;
        if n == 0 {
            if !self.at_end() {
                let _ = self.values(PMIX_PDATA, 1);
            }
            return Ok(Vec::new());
        }
        self.counted(PMIX_PDATA, n)?
            .into_iter()
            .map(|v| match v {
                Value::Pdata(p) => Ok(*p),
                _ => Err(Error::UnpackFailure),
            })
            .collect()
    }
    pub fn apps(&mut self) -> Result<Vec<App>> {
        let n = self.size()?;
        self.counted(PMIX_APP, n)?
            .into_iter()
            .map(|v| match v {
                Value::App(a) => Ok(*a),
                _ => Err(Error::UnpackFailure),
            })
            .collect()
    }
    pub fn queries(&mut self) -> Result<Vec<Query>> {
        let n = self.size()?;
        self.counted(PMIX_QUERY, n)?
            .into_iter()
            .map(|v| match v {
                Value::Query(q) => Ok(*q),
                _ => Err(Error::UnpackFailure),
            })
            .collect()
    }
    /// `n` separate STRING packs.
    pub fn strings(&mut self, n: usize) -> Result<Vec<Vec<u8>>> {
        if n > self.rest().len() {
            return Err(Error::UnpackFailure);
        }
        (0..n)
            .map(|_| Ok(self.string()?.map(PStr::into_bytes).unwrap_or_default()))
            .collect()
    }
    /// A `PMIX_BUFFER`: its type and raw bytes.
    pub fn buffer(&mut self) -> Result<(BufferType, &'a [u8])> {
        let d = self.rest();
        let mut p = 0;
        let take_u = |p: &mut usize| -> Result<u64> {
            let (v, n) = flex::get_u64(&d[*p..]).ok_or(Error::UnpackFailure)?;
            *p += n;
            Ok(v)
        };
        if self.mode == BufferType::FullyDesc && take_u(&mut p)? != u64::from(PMIX_INT32) {
            return Err(Error::UnpackFailure);
        }
        let (cnt, n) = flex::get_i64(&d[p..]).ok_or(Error::UnpackFailure)?;
        p += n;
        if cnt != 1 {
            return Err(Error::UnpackFailure);
        }
        if self.mode == BufferType::FullyDesc && take_u(&mut p)? != u64::from(PMIX_BUFFER) {
            return Err(Error::UnpackFailure);
        }
        let bt = match d.get(p) {
            Some(1) => BufferType::NonDesc,
            Some(2) => BufferType::FullyDesc,
            _ => return Err(Error::UnpackFailure),
        };
        p += 1;
        let len = usize::try_from(take_u(&mut p)?).map_err(|_| Error::UnpackFailure)?;
        let end = p.checked_add(len).ok_or(Error::UnpackFailure)?;
        let raw = d.get(p..end).ok_or(Error::UnpackFailure)?;
        self.pos += end;
        Ok((bt, raw))
    }
}
