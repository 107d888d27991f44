//! The job-data segment: one file per namespace and buffer type, written once by our server
//! and mapped read-only by each of our clients on the machine (gds "rsshm", negotiated as
//! `docs/notes/datastore.md` describes). It replaces the per-client copy of the "hash" REQ
//! reply: the clients share the page cache's one copy instead of each decoding the whole
//! job into its heap. The server keeps the same bytes in its heap as its own form of a
//! job's per-rank data ([`Segment::from_bytes`], `JobData::compact`).
//!
//! Layout (integers little-endian, offsets from the start of the file, so the mapping may
//! sit at any address):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `PMIXrsJ1` |
//! | 8 | 4 | layout version (1) |
//! | 12 | 4 | buffer type of the stream (its wire value, 1 or 2) |
//! | 16 | 8 | generation (the server's number for this file; named in the REQ reply) |
//! | 24 | 8 | total length of the file |
//! | 32 | 8 | offset of the KVAL stream |
//! | 40 | 8 | length of the KVAL stream |
//! | 48 | 8 | length of the stream's job part (everything before the first `pmix.pdata`) |
//! | 56 | 8 | offset of the rank index |
//! | 64 | 8 | number of entries of the rank index |
//! | 72 | 8 | zero |
//!
//! The KVAL stream is byte for byte the "hash" REQ reply after its nspace string (one
//! encoder for both): the job part (job-level keys, qualified values, session, node and app
//! arrays), then one `pmix.pdata` KVAL per rank in rank order. The rank index has one
//! 12-byte entry per `pmix.pdata` KVAL, sorted by rank: rank, offset of the KVAL within the
//! stream, its length (all `u32`).
//!
//! A server never changes a file it published: a new registration of the namespace gets a
//! new file with a new generation, and the old one is unlinked (mappings of it stay valid).
//!
//! # Safety
//!
//! This is the only module of `pmix-core` with `unsafe` code: the `mmap`/`munmap` of a
//! segment and the slice over the mapping. Type invariant of [`Segment`]: for
//! `Backing::Map { ptr, len }`, `ptr` is the start of a live read-only shared mapping of
//! `len` bytes (`len > 0`), made by [`Segment::open`] and unmapped only by `Drop`; nothing
//! else unmaps it. The bytes are read through `&[u8]`
//! only. The contract with the file's writer is that the file is never written or truncated
//! after it is published (our server writes it completely under a fresh name before naming
//! it to anyone, in a directory only its user can enter, and never opens it for writing
//! again). A process of the same user that truncates the file anyway makes reads past the
//! new end fault (SIGBUS), as with any shared mapping; its content, however damaged, is only
//! ever decoded by the checked decoder.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::ptr::NonNull;

use crate::codec::{BufferType, Encoder};
use crate::values::Kval;
use crate::{Error, Result};

/// The first bytes of a segment.
pub(crate) const MAGIC: [u8; 8] = *b"PMIXrsJ1";
/// The layout version this code writes and reads.
pub(crate) const VERSION: u32 = 1;
/// Bytes of the header.
pub(crate) const HEADER: usize = 80;
/// Bytes of one rank index entry.
const ENTRY: usize = 12;

/// Where the parts of a segment lie, checked against the segment's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) mode: BufferType,
    pub(crate) generation: u64,
    stream_off: usize,
    stream_len: usize,
    job_len: usize,
    index_off: usize,
    count: usize,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_le_bytes)
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_le_bytes)
}

fn usize_at(b: &[u8], at: usize) -> Result<usize> {
    u64_at(b, at)
        .and_then(|v| usize::try_from(v).ok())
        .ok_or(Error::UnpackFailure)
}

impl Layout {
    /// Checks a segment's header against its bytes: magic, version, the generation the
    /// server named, the buffer type, and that every part lies within the segment.
    ///
    /// # Errors
    /// `UnpackFailure` for a segment that is short, damaged, of another layout version or of
    /// another generation.
    pub(crate) fn parse(b: &[u8], generation: u64) -> Result<Layout> {
        if b.len() < HEADER || b.get(..8) != Some(&MAGIC[..]) {
            return Err(Error::UnpackFailure);
        }
        if u32_at(b, 8) != Some(VERSION) {
            return Err(Error::UnpackFailure);
        }
        let mode = match u32_at(b, 12) {
            Some(1) => BufferType::NonDesc,
            Some(2) => BufferType::FullyDesc,
            _ => return Err(Error::UnpackFailure),
        };
        if u64_at(b, 16) != Some(generation) {
            return Err(Error::UnpackFailure);
        }
        let total = usize_at(b, 24)?;
        let l = Layout {
            mode,
            generation,
            stream_off: usize_at(b, 32)?,
            stream_len: usize_at(b, 40)?,
            job_len: usize_at(b, 48)?,
            index_off: usize_at(b, 56)?,
            count: usize_at(b, 64)?,
        };
        let stream_end = l
            .stream_off
            .checked_add(l.stream_len)
            .ok_or(Error::UnpackFailure)?;
        let index_end = l
            .count
            .checked_mul(ENTRY)
            .and_then(|n| n.checked_add(l.index_off))
            .ok_or(Error::UnpackFailure)?;
        let ok = total == b.len()
            && l.stream_off >= HEADER
            && stream_end <= total
            && l.job_len <= l.stream_len
            && l.index_off >= stream_end
            && index_end <= total;
        if !ok {
            return Err(Error::UnpackFailure);
        }
        Ok(l)
    }

    /// The KVAL stream.
    pub(crate) fn stream<'a>(&self, b: &'a [u8]) -> &'a [u8] {
        b.get(self.stream_off..self.stream_off + self.stream_len)
            .unwrap_or(&[])
    }

    /// The job part of the stream.
    pub(crate) fn job_part<'a>(&self, b: &'a [u8]) -> &'a [u8] {
        self.stream(b).get(..self.job_len).unwrap_or(&[])
    }

    /// Entry `i` of the rank index: the rank and its KVAL's range within the stream.
    fn entry(&self, b: &[u8], i: usize) -> Option<(u32, usize, usize)> {
        let at = self.index_off + i.checked_mul(ENTRY)?;
        let rank = u32_at(b, at)?;
        let off = usize::try_from(u32_at(b, at + 4)?).ok()?;
        let len = usize::try_from(u32_at(b, at + 8)?).ok()?;
        Some((rank, off, len))
    }

    /// The number of ranks with a `pmix.pdata` KVAL.
    pub(crate) fn ranks(&self) -> usize {
        self.count
    }

    /// The `pmix.pdata` KVAL of `rank` (binary search of the index); `None` when the rank
    /// has none or its entry points outside the stream.
    pub(crate) fn rank<'a>(&self, b: &'a [u8], rank: u32) -> Option<&'a [u8]> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (r, off, len) = self.entry(b, mid)?;
            match r.cmp(&rank) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.stream(b).get(off..off.checked_add(len)?),
            }
        }
        None
    }

    /// Entry `i` of the index in rank order: the rank and its KVAL.
    pub(crate) fn nth<'a>(&self, b: &'a [u8], i: usize) -> Option<(u32, &'a [u8])> {
        let (r, off, len) = self.entry(b, i)?;
        Some((r, self.stream(b).get(off..off.checked_add(len)?)?))
    }
}

/// Writes a segment to `w` (positioned at its start): the job part's KVALs, then each
/// rank's `pmix.pdata` KVAL (ranks in increasing order, as `ranks` yields them), the rank
/// index, then the header (written last, over the zeros reserved for it). KVALs are encoded
/// one at a time, so a large job is never held packed and unpacked at once.
///
/// # Errors
/// `NoMem` when the stream exceeds what a `u32` offset can address; `BadParam` for ranks
/// out of order; `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when writing fails.
pub(crate) fn write<W: Write + Seek>(
    w: &mut W,
    mode: BufferType,
    generation: u64,
    job: &[Kval],
    ranks: impl Iterator<Item = (u32, Kval)>,
) -> Result<()> {
    let io = |_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE);
    w.write_all(&[0u8; HEADER]).map_err(io)?;
    let mut e = Encoder::new(mode);
    let mut stream_len = 0usize;
    // Encodes one KVAL, writes it, and says where it went in the stream.
    let put = |w: &mut W, e: &mut Encoder, n: &mut usize, kv: &Kval| -> Result<(usize, usize)> {
        e.buf.clear();
        super::pack_kvals(e, std::slice::from_ref(kv));
        w.write_all(&e.buf).map_err(io)?;
        let at = *n;
        *n += e.buf.len();
        Ok((at, e.buf.len()))
    };
    for kv in job {
        put(w, &mut e, &mut stream_len, kv)?;
    }
    let job_len = stream_len;
    let mut index = Vec::new();
    let mut count = 0usize;
    let mut last: Option<u32> = None;
    for (rank, kv) in ranks {
        if last.is_some_and(|l| l >= rank) {
            return Err(Error::BadParam);
        }
        last = Some(rank);
        let (off, len) = put(w, &mut e, &mut stream_len, &kv)?;
        if len == 0 {
            continue;
        }
        let off = u32::try_from(off).map_err(|_| Error::NoMem)?;
        let len = u32::try_from(len).map_err(|_| Error::NoMem)?;
        index.extend_from_slice(&rank.to_le_bytes());
        index.extend_from_slice(&off.to_le_bytes());
        index.extend_from_slice(&len.to_le_bytes());
        count += 1;
    }
    u32::try_from(stream_len).map_err(|_| Error::NoMem)?;
    // The index starts on a 4-byte boundary.
    let pad = (4 - (HEADER + stream_len) % 4) % 4;
    w.write_all(&[0u8; 4][..pad]).map_err(io)?;
    w.write_all(&index).map_err(io)?;
    let index_off = HEADER + stream_len + pad;
    let total = index_off + index.len();
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&u32::from(mode.wire_value()).to_le_bytes());
    for v in [
        generation,
        total as u64,
        HEADER as u64,
        stream_len as u64,
        job_len as u64,
        index_off as u64,
        count as u64,
        0,
    ] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    w.seek(SeekFrom::Start(0)).map_err(io)?;
    w.write_all(&h).map_err(io)?;
    w.flush().map_err(io)?;
    Ok(())
}

/// Writes the segment `bytes` (as [`write`] wrote them) to `w` with generation
/// `generation`.
///
/// # Errors
/// `UnpackFailure` when `bytes` is shorter than a header;
/// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when writing fails.
pub(crate) fn write_bytes<W: Write>(w: &mut W, bytes: &[u8], generation: u64) -> Result<()> {
    let io = |_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE);
    let (head, rest) = (bytes.get(..16), bytes.get(24..));
    let (Some(head), Some(rest)) = (head, rest) else {
        return Err(Error::UnpackFailure);
    };
    w.write_all(head).map_err(io)?;
    w.write_all(&generation.to_le_bytes()).map_err(io)?;
    // In pieces of 64 KiB, as `write` writes: one write of the whole file lets the kernel
    // cache it in large folios, and our clients' mappings then fault in (and count) more of
    // it than they read (0.5 MB instead of 0.25 of a 10,000-rank job's 1.4 MB).
    for piece in rest.chunks(64 * 1024) {
        w.write_all(piece).map_err(io)?;
    }
    w.flush().map_err(io)
}

/// The KVAL stream of the segment `bytes` (empty when its header is damaged).
pub(crate) fn stream(bytes: &[u8]) -> &[u8] {
    u64_at(bytes, 16)
        .and_then(|g| Layout::parse(bytes, g).ok())
        .map_or(&[], |l| l.stream(bytes))
}

/// A segment's bytes in memory (as [`write`] writes them).
///
/// # Errors
/// As [`write`].
pub(crate) fn build(
    mode: BufferType,
    generation: u64,
    job: &[Kval],
    ranks: impl Iterator<Item = (u32, Kval)>,
) -> Result<Vec<u8>> {
    let mut c = std::io::Cursor::new(Vec::new());
    write(&mut c, mode, generation, job, ranks)?;
    Ok(c.into_inner())
}

/// Creates the file `path` (it must not exist) readable by its owner only.
///
/// # Errors
/// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when it cannot be created.
pub(crate) fn create(path: &Path) -> Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o400)
        .open(path)
        .map_err(|_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE))
}

/// Creates the file `path` (as [`create`]) holding `bytes` (tests write damaged segments).
///
/// # Errors
/// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when it cannot be created or written.
#[cfg(test)]
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    create(path)?
        .write_all(bytes)
        .map_err(|_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE))
}

/// A segment: a read-only mapping of a segment file (what our clients hold), or the bytes
/// of one in the heap (the server's own copy of a job's data, [`Segment::from_bytes`]).
pub(crate) struct Segment {
    bytes: Backing,
    layout: Layout,
}

/// Where a segment's bytes are.
enum Backing {
    /// A mapping made by [`Segment::open`].
    Map { ptr: NonNull<u8>, len: usize },
    /// The heap.
    Heap(Box<[u8]>),
}

// SAFETY: the mapping is read-only and owned by the `Segment` (unmapped only in `Drop`), so
// sharing or sending it between threads is as safe as sharing a `&[u8]` / `Box<[u8]>`.
unsafe impl Send for Segment {}
// SAFETY: as for `Send`: only shared reads of immutable bytes.
unsafe impl Sync for Segment {}

impl std::fmt::Debug for Segment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Segment")
            .field("len", &self.bytes().len())
            .field("layout", &self.layout)
            .finish()
    }
}

impl Segment {
    /// Maps the segment at `path` and checks its header (the generation the server named,
    /// and the buffer type `mode`).
    ///
    /// # Errors
    /// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when the file cannot be opened or mapped;
    /// `UnpackFailure` when its header is damaged or names another generation or buffer
    /// type.
    pub(crate) fn open(path: &Path, generation: u64, mode: BufferType) -> Result<Segment> {
        let fail = |_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE);
        let f = File::open(path).map_err(fail)?;
        let len = usize::try_from(f.metadata().map_err(fail)?.len()).map_err(|_| Error::NoMem)?;
        if len < HEADER {
            return Err(Error::UnpackFailure);
        }
        // SAFETY: a fresh mapping chosen by the kernel (null hint, no MAP_FIXED), of a
        // length > 0 that the file has, read-only and shared: it aliases no Rust object.
        let ptr = unsafe {
            rustix::mm::mmap(
                std::ptr::null_mut(),
                len,
                rustix::mm::ProtFlags::READ,
                rustix::mm::MapFlags::SHARED,
                &f,
                0,
            )
        }
        .map_err(|_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE))?;
        let ptr = NonNull::new(ptr.cast::<u8>()).ok_or(Error::NoMem)?;
        let mut seg = Segment {
            bytes: Backing::Map { ptr, len },
            layout: Layout {
                mode,
                generation,
                stream_off: 0,
                stream_len: 0,
                job_len: 0,
                index_off: 0,
                count: 0,
            },
        };
        // On error `seg` is dropped, which unmaps it.
        let layout = Layout::parse(seg.bytes(), generation)?;
        if layout.mode != mode {
            return Err(Error::UnpackFailure);
        }
        seg.layout = layout;
        Ok(seg)
    }

    /// A segment held in the heap: `bytes` as [`write`] writes them (the generation is the
    /// header's).
    ///
    /// # Errors
    /// `UnpackFailure` when the header is damaged.
    pub(crate) fn from_bytes(bytes: Vec<u8>) -> Result<Segment> {
        let generation = u64_at(&bytes, 16).ok_or(Error::UnpackFailure)?;
        let layout = Layout::parse(&bytes, generation)?;
        Ok(Segment {
            bytes: Backing::Heap(bytes.into_boxed_slice()),
            layout,
        })
    }

    /// The segment's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Backing::Heap(b) => b,
            // SAFETY: type invariant: `ptr` starts a live read-only mapping of `len` bytes
            // that lives as long as `self`.
            Backing::Map { ptr, len } => unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) },
        }
    }

    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The job part of the KVAL stream.
    pub(crate) fn job_part(&self) -> &[u8] {
        self.layout.job_part(self.bytes())
    }

    /// The `pmix.pdata` KVAL of `rank`.
    pub(crate) fn rank(&self, rank: u32) -> Option<&[u8]> {
        self.layout.rank(self.bytes(), rank)
    }

    /// The buffer type of the stream.
    pub(crate) fn mode(&self) -> BufferType {
        self.layout.mode
    }
}

impl Drop for Segment {
    fn drop(&mut self) {
        if let Backing::Map { ptr, len } = self.bytes {
            // SAFETY: type invariant: `ptr`/`len` is our mapping, unmapped only here; no
            // slice borrowed from `self` outlives it.
            let _ = unsafe { rustix::mm::munmap(ptr.as_ptr().cast(), len) };
        }
    }
}
