//! The job-data segment, and (below) the modex segment of local peers' committed data.
//!
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
//! segment and the slice over the mapping. Type invariant of [`Segment`]: its
//! `Backing::Map` is a live read-only [`Mapping`] of a published job-data file, made by
//! [`Segment::open`] and unmapped only when the mapping is dropped. The bytes are read
//! through `&[u8]` only. The contract with the file's writer is that the file is never written or truncated
//! after it is published (our server writes it completely under a fresh name before naming
//! it to anyone, in a directory only its user can enter, and never opens it for writing
//! again). A process of the same user that truncates the file anyway makes reads past the
//! new end fault (SIGBUS), as with any shared mapping; its content, however damaged, is only
//! ever decoded by the checked decoder.
//!
//! The modex segment (the second half of this module: local peers' committed data, which
//! the server rewrites while clients read it) is mapped by [`Mapping`], whose invariant is
//! the same plus: no Rust reference to its slot table or data area is ever made, since
//! another process may change those bytes at any time. Slot fields are read and written as
//! atomics (`AtomicU64::from_ptr` on 8-aligned offsets checked against the mapping's
//! length); blob bytes are copied with `copy_nonoverlapping` from or to raw pointers, after
//! a bounds check, into or out of the process's own buffers, and only those copies are
//! decoded, after the slot's sequence number showed that they are not torn.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::ptr::NonNull;

use crate::codec::{BufferType, Decoder, Encoder};
use crate::values::{Kval, Value};
use crate::{Error, PStr, Result};

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
    /// A read-only mapping made by [`Segment::open`].
    Map(Mapping),
    /// The heap.
    Heap(Box<[u8]>),
}

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
        let map = Mapping::new(&f, len, false)?;
        let mut seg = Segment {
            bytes: Backing::Map(map),
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
            // SAFETY: type invariant: a live mapping of a published job-data file, whose
            // bytes never change; it lives as long as `self`.
            Backing::Map(m) => unsafe { std::slice::from_raw_parts(m.ptr.as_ptr(), m.len) },
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

// ---- The modex segment --------------------------------------------------------------------
//
// Local peers' committed data (gds "rsshm", docs/notes/datastore.md section 8): one file per
// namespace, written in place by the server's progress thread at each COMMIT and read by our
// clients without asking the server. Layout (integers little-endian, offsets from the start
// of the file):
//
// | offset | size | field |
// |---|---|---|
// | 0 | 8 | magic `PMIXrsM1` |
// | 8 | 4 | layout version (1) |
// | 12 | 4 | buffer type of the blobs (always 1, non-described) |
// | 16 | 8 | generation (named in the REQ reply) |
// | 24 | 8 | length of the file (fixed at creation; the file is sparse) |
// | 32 | 8 | number of rank slots |
// | 40 | 8 | offset of the slot table |
// | 48 | 8 | offset of the data area |
// | 56 | 8 | state: 0 while the server keeps the segment up to date, 1 once retired |
//
// Slot `r` (32 bytes, 8-aligned, each field an atomic `u64`): a sequence number (odd while
// the server rewrites the rank's blob), the offset and length of the rank's blob (length 0:
// nothing published), and the capacity of the region the blob lies in. A blob
// ([`modex_blob`]) is a directory of keys (each with the offset and length of its KVAL) and
// the `PACK(KVAL)`s of the rank's LOCAL and GLOBAL values (everything a local peer may see),
// the most recently committed first; a reader copies the directory and the one KVAL it
// wants. A blob is replaced as a whole at each of the rank's COMMITs: in place when it fits
// the rank's region (a seqlock: readers copy out what they need and retry when the sequence
// number moved), else in a new region of twice the size taken from the data area
// (append-only; the old region is abandoned). A rank whose blob no longer fits anywhere gets
// length 0, and readers ask the
// server.

/// The first bytes of a modex segment.
pub(crate) const MODEX_MAGIC: [u8; 8] = *b"PMIXrsM1";
/// Bytes of a modex segment's header.
pub(crate) const MODEX_HEADER: usize = 64;
/// Bytes of one rank slot.
const SLOT: usize = 32;
/// The length of a modex segment file (sparse: only the pages written take memory).
pub(crate) const MODEX_LEN: usize = 64 << 20;
/// The most rank slots a modex segment has (ranks above are served by the server).
pub(crate) const MODEX_MAX_SLOTS: usize = 1 << 20;
/// The smallest region given to a rank's blob.
const MIN_REGION: usize = 256;
/// How often a reader retries a blob the server is rewriting before asking the server.
const READ_TRIES: usize = 1000;
/// How much of a blob a reader copies first (the start of its directory: the newest keys).
const FIRST_READ: usize = 256;
/// The most a thread keeps of its buffers for the copies between lookups.
const SCRATCH_KEEP: usize = 8192;

std::thread_local! {
    /// A thread's buffers for the copies of a lookup (directory, KVAL), kept between
    /// lookups so that a Get allocates only the value it returns.
    static SCRATCH: std::cell::RefCell<(Vec<u8>, Vec<u8>)> = const {
        std::cell::RefCell::new((Vec::new(), Vec::new()))
    };
}

/// Where a modex segment's parts lie, checked against the mapping's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ModexLayout {
    pub(crate) generation: u64,
    nslots: usize,
    slots_off: usize,
    data_off: usize,
}

impl ModexLayout {
    /// The layout of a new segment of `len` bytes with `nslots` slots.
    fn new(generation: u64, nslots: usize, len: usize) -> Option<ModexLayout> {
        let data_off = MODEX_HEADER.checked_add(nslots.checked_mul(SLOT)?)?;
        (data_off < len).then_some(ModexLayout {
            generation,
            nslots,
            slots_off: MODEX_HEADER,
            data_off,
        })
    }

    /// The header's bytes.
    fn header(&self, len: usize) -> Vec<u8> {
        let mut h = Vec::with_capacity(MODEX_HEADER);
        h.extend_from_slice(&MODEX_MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&u32::from(BufferType::NonDesc.wire_value()).to_le_bytes());
        for v in [
            self.generation,
            len as u64,
            self.nslots as u64,
            self.slots_off as u64,
            self.data_off as u64,
            0,
        ] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        h
    }

    /// Checks a modex segment's header (its first [`MODEX_HEADER`] bytes) against the
    /// length mapped and the generation the server named.
    ///
    /// # Errors
    /// `UnpackFailure` for a header that is short, damaged, of another layout version,
    /// buffer type or generation, or whose parts do not lie within `len` bytes.
    pub(crate) fn parse(h: &[u8], len: usize, generation: u64) -> Result<ModexLayout> {
        if h.len() < MODEX_HEADER || h.get(..8) != Some(&MODEX_MAGIC[..]) {
            return Err(Error::UnpackFailure);
        }
        if u32_at(h, 8) != Some(VERSION) || u32_at(h, 12) != Some(1) {
            return Err(Error::UnpackFailure);
        }
        if u64_at(h, 16) != Some(generation) || usize_at(h, 24)? != len {
            return Err(Error::UnpackFailure);
        }
        let l = ModexLayout {
            generation,
            nslots: usize_at(h, 32)?,
            slots_off: usize_at(h, 40)?,
            data_off: usize_at(h, 48)?,
        };
        let slots_end = l
            .nslots
            .checked_mul(SLOT)
            .and_then(|n| n.checked_add(l.slots_off))
            .ok_or(Error::UnpackFailure)?;
        let ok = l.slots_off >= MODEX_HEADER
            && l.slots_off % 8 == 0
            && slots_end <= l.data_off
            && l.data_off <= len;
        if !ok {
            return Err(Error::UnpackFailure);
        }
        Ok(l)
    }

    /// The offset of field `i` (0 = sequence, 1 = offset, 2 = length, 3 = capacity) of the
    /// slot of `rank`; `None` for a rank without a slot.
    fn slot_field(&self, rank: u32, i: usize) -> Option<usize> {
        let r = usize::try_from(rank).ok().filter(|&r| r < self.nslots)?;
        Some(self.slots_off + r * SLOT + i * 8)
    }
}

/// A mapping of a whole file, shared with other processes. Type invariant: `ptr` is the
/// start of a live shared mapping of `len` bytes (`len > 0`, page-aligned start), readable,
/// and writable when `writable`; made by [`Mapping::new`] and unmapped only by `Drop`.
/// A job-data segment ([`Segment`]) never changes once published, so it is read through a
/// slice. Of a modex segment, no Rust reference to the bytes of the slot table or the data
/// area is ever made (other processes may change them at any time): they are read and
/// written through raw pointers, the slot fields through atomics. Its header is written
/// before the file is named to anyone and never changes afterwards, except its state field
/// (an atomic).
#[derive(Debug)]
struct Mapping {
    ptr: NonNull<u8>,
    len: usize,
    writable: bool,
}

// SAFETY: the mapping is owned by the `Mapping` (unmapped only in `Drop`); all access to
// bytes others may change goes through raw pointers and atomics, which any thread may use.
unsafe impl Send for Mapping {}
// SAFETY: as for `Send`.
unsafe impl Sync for Mapping {}

impl Mapping {
    fn new(f: &File, len: usize, writable: bool) -> Result<Mapping> {
        use rustix::mm::{MapFlags, ProtFlags};
        if len == 0 {
            return Err(Error::UnpackFailure);
        }
        let prot = if writable {
            ProtFlags::READ | ProtFlags::WRITE
        } else {
            ProtFlags::READ
        };
        // SAFETY: a fresh mapping chosen by the kernel (null hint, no MAP_FIXED), of a
        // length > 0, shared: it aliases no Rust object.
        let ptr =
            unsafe { rustix::mm::mmap(std::ptr::null_mut(), len, prot, MapFlags::SHARED, f, 0) }
                .map_err(|_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE))?;
        let ptr = NonNull::new(ptr.cast::<u8>()).ok_or(Error::NoMem)?;
        Ok(Mapping { ptr, len, writable })
    }

    /// Asks the kernel not to read ahead around faults. A modex segment is sparse and
    /// mostly holes: without this, every fault reads ahead (and zero-fills) up to megabytes
    /// of page cache around the page touched, which the process then maps by fault-around;
    /// a namespace's Init cost ~0.9 ms more and each process mapped pages nobody wrote.
    /// Failure only loses the hint.
    fn no_read_ahead(&self) {
        // SAFETY: the range is our live mapping; the advice changes no contents.
        let _ = unsafe {
            rustix::mm::madvise(
                self.ptr.as_ptr().cast(),
                self.len,
                rustix::mm::Advice::Random,
            )
        };
    }

    /// The atomic `u64` at `at` (8-aligned, within the mapping), or `None`.
    fn atomic(&self, at: usize) -> Option<&std::sync::atomic::AtomicU64> {
        if at % 8 != 0 || at.checked_add(8)? > self.len {
            return None;
        }
        // SAFETY: type invariant: `ptr + at .. + 8` lies in the live mapping (checked
        // above), 8-aligned (the mapping's start is page-aligned); the bytes are only ever
        // accessed atomically by this code (in every process), and the reference lives no
        // longer than `self`. A load from a read-only mapping is a plain load on the
        // targets we build for; stores are made only through a writable mapping.
        Some(unsafe { std::sync::atomic::AtomicU64::from_ptr(self.ptr.as_ptr().add(at).cast()) })
    }

    /// Appends the `len` bytes at `at` to `out`; false when the range is not within the
    /// mapping. The bytes may be changing under the copy (another process writing them):
    /// the caller checks a sequence number afterwards.
    fn copy_out(&self, at: usize, len: usize, out: &mut Vec<u8>) -> bool {
        if at.checked_add(len).is_none_or(|e| e > self.len) {
            return false;
        }
        out.reserve(len);
        let have = out.len();
        // SAFETY: type invariant: `ptr + at .. + len` lies in the live mapping (checked);
        // `out` has room for `len` more bytes after its `have` and does not overlap the
        // mapping; no reference to the source bytes is made; `set_len` follows the copy of
        // exactly `len` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr.as_ptr().add(at),
                out.as_mut_ptr().add(have),
                len,
            );
            out.set_len(have + len);
        }
        true
    }

    /// Copies `bytes` to `at`; false when the range is not within a writable mapping.
    fn copy_in(&self, at: usize, bytes: &[u8]) -> bool {
        if !self.writable || at.checked_add(bytes.len()).is_none_or(|e| e > self.len) {
            return false;
        }
        // SAFETY: type invariant: the range lies in the live writable mapping (checked);
        // `bytes` does not overlap it (no reference into the mapping is ever made).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.as_ptr().add(at), bytes.len());
        }
        true
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: type invariant: `ptr`/`len` is our mapping, unmapped only here; no
        // reference borrowed from `self` outlives it.
        let _ = unsafe { rustix::mm::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// The server's side of a modex segment: creates the file and rewrites the ranks' blobs.
/// Only one writer (the server's progress thread, under the server's state lock).
#[derive(Debug)]
pub(crate) struct ModexWriter {
    map: Mapping,
    /// The file, for giving back the pages of regions a rank's blob moved out of.
    file: File,
    /// Where the file is (named to the readers; unlinked with [`ModexWriter::retire`]).
    path: std::path::PathBuf,
    layout: ModexLayout,
    /// The end of the data area's used part.
    end: usize,
}

impl ModexWriter {
    /// Creates the segment file `path` (it must not exist; readable by its owner only) of
    /// `len` bytes (sparse) with `nslots` rank slots, and maps it.
    ///
    /// # Errors
    /// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when the file cannot be created, sized
    /// or mapped; `NoMem` when the slots do not fit `len`.
    pub(crate) fn create(
        path: &Path,
        generation: u64,
        nslots: usize,
        len: usize,
    ) -> Result<ModexWriter> {
        let layout = ModexLayout::new(generation, nslots, len).ok_or(Error::NoMem)?;
        let fail = |_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE);
        let f = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o400)
                .open(path)
                .map_err(fail)?
        };
        f.set_len(len as u64).map_err(fail)?;
        let map = Mapping::new(&f, len, true)?;
        map.no_read_ahead();
        if !map.copy_in(0, &layout.header(len)) {
            return Err(Error::NoMem);
        }
        Ok(ModexWriter {
            map,
            file: f,
            path: path.to_path_buf(),
            end: layout.data_off,
            layout,
        })
    }

    /// Publishes `blob` (`PACK(KVAL)*`, non-described) as everything `rank` committed, in
    /// place of its previous blob. False when the rank has no slot or the data area is
    /// full: readers then find nothing for the rank (and ask the server).
    pub(crate) fn publish(&mut self, rank: u32, blob: &[u8]) -> bool {
        use std::sync::atomic::{Ordering, fence};
        let (map, layout) = (&self.map, self.layout);
        let field = |i| map.atomic(layout.slot_field(rank, i)?);
        let (Some(seq), Some(off), Some(len), Some(cap)) = (field(0), field(1), field(2), field(3))
        else {
            return false;
        };
        let (old_off, old_cap) = (off.load(Ordering::Relaxed), cap.load(Ordering::Relaxed));
        let (at, room) = if old_off != 0 && blob.len() as u64 <= old_cap {
            (old_off as usize, old_cap as usize)
        } else {
            let room = blob
                .len()
                .saturating_mul(2)
                .max(MIN_REGION)
                .next_multiple_of(8);
            match self.end.checked_add(room).filter(|&e| e <= map.len) {
                Some(e) => {
                    let at = self.end;
                    self.end = e;
                    (at, room)
                }
                None => (0, 0),
            }
        };
        // Seqlock write: odd while the slot and its blob change.
        let s = seq.load(Ordering::Relaxed);
        seq.store(s.wrapping_add(1) | 1, Ordering::Relaxed);
        fence(Ordering::Release);
        let ok = at != 0 && map.copy_in(at, blob);
        if ok {
            off.store(at as u64, Ordering::Relaxed);
            len.store(blob.len() as u64, Ordering::Relaxed);
            cap.store(room as u64, Ordering::Relaxed);
        } else {
            len.store(0, Ordering::Relaxed);
        }
        seq.store((s | 1).wrapping_add(1), Ordering::Release);
        if ok && old_off != 0 && at != old_off as usize {
            self.release(old_off as usize, old_cap as usize);
        }
        ok
    }

    /// Gives back the whole pages of an abandoned region (a blob that moved): they would
    /// otherwise stay in memory for the segment's life, about twice the rank's data for a
    /// rank that commits more and more. A reader still copying from the region reads zeros
    /// there, and the slot's changed sequence number already makes it read again. Failure
    /// (a file system without hole punching) only keeps the pages.
    fn release(&self, at: usize, len: usize) {
        use rustix::fs::{FallocateFlags, fallocate};
        const PAGE: usize = 4096;
        let (start, end) = (at.next_multiple_of(PAGE), (at + len) / PAGE * PAGE);
        if end > start {
            let _ = fallocate(
                &self.file,
                FallocateFlags::PUNCH_HOLE | FallocateFlags::KEEP_SIZE,
                start as u64,
                (end - start) as u64,
            );
        }
    }

    /// A copy of the blob `rank` has now (`None`: no slot, or nothing published). The
    /// server's own data: it is the only writer, so no sequence check is needed.
    pub(crate) fn blob(&self, rank: u32) -> Option<Vec<u8>> {
        use std::sync::atomic::Ordering;
        let field = |i| {
            self.map
                .atomic(self.layout.slot_field(rank, i)?)
                .map(|a| a.load(Ordering::Relaxed))
        };
        let (at, len) = (
            usize::try_from(field(1)?).ok()?,
            usize::try_from(field(2)?).ok()?,
        );
        let mut out = Vec::new();
        (len > 0 && self.map.copy_out(at, len, &mut out)).then_some(out)
    }

    /// Writes `bytes` at `at` of the file, whatever they damage (tests of readers).
    #[cfg(test)]
    pub(crate) fn poke(&self, at: usize, bytes: &[u8]) {
        assert!(self.map.copy_in(at, bytes));
    }

    /// The offset of field `i` of the slot of `rank` (tests).
    #[cfg(test)]
    pub(crate) fn slot_offset(&self, rank: u32, i: usize) -> usize {
        self.layout.slot_field(rank, i).expect("a slot")
    }

    /// The file's path and the segment's generation (what the REQ reply names).
    pub(crate) fn name(&self) -> (std::path::PathBuf, u64) {
        (self.path.clone(), self.layout.generation)
    }

    /// Marks the segment retired (readers stop using it and ask the server) and unlinks the
    /// file; readers keep their mappings. Done when the server forgets the segment
    /// (namespace registered again or deregistered, finalize).
    pub(crate) fn retire(&self) {
        if let Some(state) = self.map.atomic(56) {
            state.store(1, std::sync::atomic::Ordering::Release);
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A client's read-only mapping of a modex segment.
#[derive(Debug)]
pub(crate) struct ModexReader {
    map: Mapping,
    layout: ModexLayout,
}

impl ModexReader {
    /// Maps the modex segment at `path` and checks its header (the generation the server
    /// named, the length against the file's).
    ///
    /// # Errors
    /// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when the file cannot be opened or mapped;
    /// `UnpackFailure` when its header is damaged or names another generation.
    pub(crate) fn open(path: &Path, generation: u64) -> Result<ModexReader> {
        let fail = |_| Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE);
        let f = File::open(path).map_err(fail)?;
        let len = usize::try_from(f.metadata().map_err(fail)?.len()).map_err(|_| Error::NoMem)?;
        if len < MODEX_HEADER {
            return Err(Error::UnpackFailure);
        }
        let map = Mapping::new(&f, len, false)?;
        map.no_read_ahead();
        let mut h = Vec::new();
        if !map.copy_out(0, MODEX_HEADER, &mut h) {
            return Err(Error::UnpackFailure);
        }
        let layout = ModexLayout::parse(&h, len, generation)?;
        Ok(ModexReader { map, layout })
    }

    /// Whether the server still keeps the segment up to date.
    pub(crate) fn live(&self) -> bool {
        self.map
            .atomic(56)
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Acquire) == 0)
    }

    /// The sequence number, offset and length fields of `rank`'s slot, while the segment is
    /// live; `None` when it is retired or has no slot for the rank.
    fn slot(&self, rank: u32) -> Option<[&std::sync::atomic::AtomicU64; 3]> {
        if !self.live() {
            return None;
        }
        let l = &self.layout;
        let field = |i| l.slot_field(rank, i).and_then(|a| self.map.atomic(a));
        Some([field(0)?, field(1)?, field(2)?])
    }

    /// Runs `read` on the blob a slot names (its offset and length in the mapping, when
    /// it has one inside the data area) until it has read one the server had finished
    /// writing: the slot's sequence number even before and unchanged after. What `read`
    /// copies out may be torn until then; it is only believed once the number says so.
    /// `None` when the server kept rewriting the blob.
    fn consistent<T>(
        &self,
        [seq, off, len]: [&std::sync::atomic::AtomicU64; 3],
        mut read: impl FnMut(usize, usize) -> std::result::Result<T, ()>,
    ) -> Option<std::result::Result<T, ()>> {
        use std::sync::atomic::{Ordering, fence};
        let l = &self.layout;
        for tries in 1..=READ_TRIES {
            let s1 = seq.load(Ordering::Acquire);
            if s1 % 2 == 1 {
                if tries % 16 == 0 {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
                continue;
            }
            let (at, n) = (off.load(Ordering::Relaxed), len.load(Ordering::Relaxed));
            let got = match (usize::try_from(at), usize::try_from(n)) {
                (Ok(at), Ok(n)) if n > 0 && at >= l.data_off => read(at, n),
                _ => Err(()),
            };
            fence(Ordering::Acquire);
            if seq.load(Ordering::Relaxed) != s1 {
                continue;
            }
            return Some(got);
        }
        None
    }

    /// The value of `key` in the current blob of `rank`; `None` when the segment is
    /// retired, the rank has no slot or no blob, the blob lacks the key, lies outside the
    /// data area or is damaged, or the server kept rewriting it (the caller then asks the
    /// server). Only the blob's directory and the one KVAL it points to are copied out of
    /// the segment, and decoded from the copies; the sequence number says whether the
    /// copies are of a blob the server had finished writing.
    pub(crate) fn find(&self, rank: u32, key: &[u8]) -> Option<crate::values::Value> {
        let slot = self.slot(rank)?;
        SCRATCH.with(|b| match b.try_borrow_mut() {
            Ok(mut b) => {
                let (dir, kval) = &mut *b;
                let v = self.find_with(slot, key, dir, kval);
                // What a large blob left is not kept.
                for v in [dir, kval] {
                    if v.capacity() > SCRATCH_KEEP {
                        *v = Vec::new();
                    }
                }
                v
            }
            Err(_) => self.find_with(slot, key, &mut Vec::new(), &mut Vec::new()),
        })
    }

    /// Every value in the current blob of `rank` (the newest first); `None` when
    /// [`ModexReader::find`] would find nothing for any key (retired segment, no slot or
    /// blob, a damaged blob, or one the server kept rewriting).
    pub(crate) fn all(&self, rank: u32) -> Option<Vec<Kval>> {
        let slot = self.slot(rank)?;
        let mut blob = Vec::new();
        self.consistent(slot, |at, n| {
            blob.clear();
            let inside = at.checked_add(n).is_some_and(|e| e <= self.map.len);
            if inside && self.map.copy_out(at, n, &mut blob) {
                Ok(())
            } else {
                Err(())
            }
        })?
        .ok()?;
        blob_kvals(&blob).ok()
    }

    /// [`ModexReader::find`] with the rank's slot fields and buffers for the copies.
    fn find_with(
        &self,
        slot: [&std::sync::atomic::AtomicU64; 3],
        key: &[u8],
        dir: &mut Vec<u8>,
        kval: &mut Vec<u8>,
    ) -> Option<crate::values::Value> {
        self.consistent(slot, |at, n| self.read_blob(at, n, key, dir, kval))?
            .ok()
            .flatten()?;
        crate::codec::Decoder::new(BufferType::NonDesc, kval)
            .find_first_in_kvals(key)
            .ok()
            .flatten()
    }

    /// Copies the directory of the blob at `at` (`n` bytes) into `dir`, and the KVAL of
    /// `key` into `kval`: `Ok(Some(()))` when the key is there, `Ok(None)` when it is
    /// not, `Err` when the blob does not lie in the mapping or its directory is damaged.
    /// What is read may be torn (the server rewriting it): the caller decides from the
    /// sequence number whether to believe it.
    fn read_blob(
        &self,
        at: usize,
        n: usize,
        key: &[u8],
        dir: &mut Vec<u8>,
        kval: &mut Vec<u8>,
    ) -> std::result::Result<Option<()>, ()> {
        if at.checked_add(n).is_none_or(|e| e > self.map.len) {
            return Err(());
        }
        dir.clear();
        if !self.map.copy_out(at, n.min(FIRST_READ), dir) {
            return Err(());
        }
        let dir_len = u32_at(dir, 0).ok_or(())? as usize;
        let end = dir_len.checked_add(8).filter(|&e| e <= n).ok_or(())?;
        // The entries copied so far (the newest keys first), then, if need be, the rest.
        let (mut hit, mut used) = dir_scan(dir.get(8..end.min(dir.len())).ok_or(())?, key);
        if hit.is_none() && dir.len() < end {
            if !self.map.copy_out(at + dir.len(), end - dir.len(), dir) {
                return Err(());
            }
            let (h, u) = dir_scan(dir.get(8 + used..end).ok_or(())?, key);
            (hit, used) = (h, used + u);
        }
        let Some((k_off, k_len)) = hit else {
            // A directory that does not end with an entry is damaged.
            return if used == dir_len { Ok(None) } else { Err(()) };
        };
        let k_end = k_off.checked_add(k_len).filter(|&e| e <= n).ok_or(())?;
        kval.clear();
        if k_off < end || !self.map.copy_out(at + k_off, k_end - k_off, kval) {
            return Err(());
        }
        Ok(Some(()))
    }
}

/// Scans the complete directory entries at the start of `d` for `key`: the offset and
/// length of its KVAL in the blob when found, and the bytes of the entries scanned (an
/// entry cut by the end of `d` is not scanned).
fn dir_scan(d: &[u8], key: &[u8]) -> (Option<(usize, usize)>, usize) {
    let mut at = 0;
    while let Some(e) = d.get(at..) {
        let (Some(off), Some(len), Some(klen)) = (
            u32_at(e, 0),
            u32_at(e, 4),
            e.get(8..10)
                .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]]))),
        ) else {
            break;
        };
        let Some(k) = e.get(10..10 + klen) else {
            break;
        };
        at += 10 + klen;
        if k == key {
            return (Some((off as usize, len as usize)), at);
        }
    }
    (None, at)
}

/// The values of a blob made by [`modex_blob`], in its order (the newest first).
///
/// # Errors
/// `UnpackFailure` (or the decoder's error) for a blob that is not one.
pub(crate) fn blob_kvals(blob: &[u8]) -> Result<Vec<Kval>> {
    let dir_len = u32_at(blob, 0).ok_or(Error::UnpackFailure)? as usize;
    let kvals = dir_len
        .checked_add(8)
        .and_then(|at| blob.get(at..))
        .ok_or(Error::UnpackFailure)?;
    super::read_kvals(&mut Decoder::new(BufferType::NonDesc, kvals), true)
}

/// A rank's blob for the modex segment: a directory, then one `PACK(KVAL)` (non-described)
/// per value, in the order given (the server gives the newest first; a reader takes the
/// first entry of a key). Layout: `u32` length of the directory entries, `u32` zero, then
/// per value an entry (`u32` offset of its KVAL from the blob's start, `u32` its length,
/// `u16` key length, the key's bytes), then the KVALs. Values the codec cannot pack and
/// keys longer than a `u16` are left out.
pub(crate) fn modex_blob<'a>(kvals: impl IntoIterator<Item = (&'a PStr, &'a Value)>) -> Vec<u8> {
    let mut e = Encoder::new(BufferType::NonDesc);
    let mut entries: Vec<(&[u8], usize, usize)> = Vec::new();
    for (key, value) in kvals {
        let k = key.as_bytes();
        if u16::try_from(k.len()).is_err() {
            continue;
        }
        let start = e.buf.len();
        if e.pack_kval_parts(k, value).is_ok() {
            entries.push((k, start, e.buf.len() - start));
        }
    }
    let dir_len: usize = entries.iter().map(|(k, _, _)| 10 + k.len()).sum();
    let base = 8 + dir_len;
    let mut b = Vec::with_capacity(base + e.buf.len());
    b.extend_from_slice(&(dir_len as u32).to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    for (k, off, len) in &entries {
        b.extend_from_slice(&((base + off) as u32).to_le_bytes());
        b.extend_from_slice(&(*len as u32).to_le_bytes());
        b.extend_from_slice(&(k.len() as u16).to_le_bytes());
        b.extend_from_slice(k);
    }
    b.extend_from_slice(&e.buf);
    b
}

/// Process-shared, robust `pthread_mutex_t`s in a file's pages: the locks of OpenPMIx's
/// shared-memory store (`super::ds21`), which reference clients take and release in the
/// file's pages, kept mapped so that the server can take them too.
///
/// Robust: a client that died holding one of its own leaves it to the server (the only
/// other process that takes it), which gets `EOWNERDEAD`, marks it consistent and goes on.
/// The server never waits past a deadline: a live client holding its lock makes a write
/// wait or give up, never hang.
pub(crate) struct SharedMutexes {
    map: Mapping,
    /// The first mutex's offset, the distance between two, and how many there are.
    first: usize,
    stride: usize,
    count: usize,
}

impl std::fmt::Debug for SharedMutexes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedMutexes({})", self.count)
    }
}

impl SharedMutexes {
    /// Maps the file `f` (at least `len` bytes, allocated) where `count` mutexes lie, the
    /// first at `first`, each `stride` bytes after the one before: offsets that are
    /// multiples of 8 with room for a mutex within `len`, else `BadParam`.
    fn map(
        f: &File,
        len: usize,
        first: usize,
        stride: usize,
        count: usize,
    ) -> Result<SharedMutexes> {
        let size = std::mem::size_of::<libc::pthread_mutex_t>();
        let last = count
            .checked_sub(1)
            .map_or(Some(first), |k| stride.checked_mul(k)?.checked_add(first));
        if first % 8 != 0
            || stride % 8 != 0
            || stride < size
            || last
                .and_then(|l| l.checked_add(size))
                .is_none_or(|e| e > len)
        {
            return Err(Error::BadParam);
        }
        Ok(SharedMutexes {
            map: Mapping::new(f, len, true)?,
            first,
            stride,
            count,
        })
    }

    /// Initializes, in place in the file `f` (at least `len` bytes, allocated), `count`
    /// process-shared robust mutexes, the first at `first`, each `stride` bytes after the
    /// one before, and keeps the file mapped.
    ///
    /// # Errors
    /// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` when the file cannot be mapped;
    /// `BadParam` for an offset out of range or misaligned, or a stride smaller than a
    /// mutex; `Error::Status(PMIX_ERR_INIT)` when the C library refuses the attribute or a
    /// mutex.
    pub(crate) fn init(
        f: &File,
        len: usize,
        first: usize,
        stride: usize,
        count: usize,
    ) -> Result<SharedMutexes> {
        let m = SharedMutexes::map(f, len, first, stride, count)?;
        let init_failed = Error::Status(pmix_sys::PMIX_ERR_INIT);
        // SAFETY: `attr` is a local the C library initializes before any other use and
        // destroys at the end; each mutex lies within the live writable mapping (offsets
        // checked by `map`, 8-aligned in a page-aligned mapping, which `pthread_mutex_t`
        // needs), no Rust reference to those bytes exists, and no other process uses them
        // yet (the file is not named to anyone before this returns).
        unsafe {
            let mut attr: libc::pthread_mutexattr_t = std::mem::zeroed();
            if libc::pthread_mutexattr_init(&mut attr) != 0 {
                return Err(init_failed);
            }
            let mut ok =
                libc::pthread_mutexattr_setpshared(&mut attr, libc::PTHREAD_PROCESS_SHARED) == 0
                    && libc::pthread_mutexattr_setrobust(&mut attr, libc::PTHREAD_MUTEX_ROBUST)
                        == 0;
            for i in 0..m.count {
                if !ok {
                    break;
                }
                ok = libc::pthread_mutex_init(m.mutex(i), &attr) == 0;
            }
            libc::pthread_mutexattr_destroy(&mut attr);
            if !ok {
                return Err(init_failed);
            }
        }
        Ok(m)
    }

    /// Maps the mutexes a server initialized in `path`, as a reference client does: the
    /// lock file's header gives the first one's offset; `stride` and `count` are the
    /// caller's (tests of the writer's side).
    #[cfg(test)]
    pub(crate) fn attach(path: &std::path::Path, stride: usize, count: usize) -> SharedMutexes {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        let len = f.metadata().unwrap().len() as usize;
        let first = Mapping::new(&f, len, false)
            .unwrap()
            .atomic(24)
            .unwrap()
            .load(std::sync::atomic::Ordering::Relaxed) as usize;
        SharedMutexes::map(&f, len, first, stride, count).unwrap()
    }

    /// How many mutexes there are.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// Mutex `i` (below `count`).
    fn mutex(&self, i: usize) -> *mut libc::pthread_mutex_t {
        assert!(i < self.count);
        // SAFETY: `map` checked that every mutex below `count` lies in the mapping.
        unsafe {
            self.map
                .ptr
                .as_ptr()
                .add(self.first + i * self.stride)
                .cast()
        }
    }

    /// `pmix_ds21_lock_rd_get` of lock `idx`: its signalling mutex, its main one, the
    /// signalling one released (tests: a reference client's read).
    #[cfg(test)]
    pub(crate) fn read_lock(&self, idx: usize) {
        // SAFETY: initialized process-shared mutexes in the live mapping.
        unsafe {
            assert_eq!(libc::pthread_mutex_lock(self.mutex(2 * idx)), 0);
            assert_eq!(libc::pthread_mutex_lock(self.mutex(2 * idx + 1)), 0);
            assert_eq!(libc::pthread_mutex_unlock(self.mutex(2 * idx)), 0);
        }
    }

    /// `pmix_ds21_lock_rd_rel` of lock `idx`.
    #[cfg(test)]
    pub(crate) fn read_unlock(&self, idx: usize) {
        // SAFETY: as above, held by this thread.
        unsafe { assert_eq!(libc::pthread_mutex_unlock(self.mutex(2 * idx + 1)), 0) };
    }

    /// Takes the mutexes numbered `order`, in that order, each by `deadline` (of
    /// `CLOCK_REALTIME`, as `pthread_mutex_timedlock` wants). A mutex whose owner died is
    /// taken and made consistent. `None` (every mutex taken so far released again) when one
    /// is not had by then or cannot be had at all; else a guard that releases them all.
    pub(crate) fn lock_all(
        &self,
        order: impl IntoIterator<Item = usize>,
        wait: std::time::Duration,
    ) -> Option<MutexesHeld<'_>> {
        let mut now: libc::timespec = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
        let nanos = now.tv_nsec + i64::from(wait.subsec_nanos());
        let secs = i64::try_from(wait.as_secs()).unwrap_or(i64::MAX / 2);
        let deadline = libc::timespec {
            tv_sec: now.tv_sec.saturating_add(secs + nanos / 1_000_000_000),
            tv_nsec: nanos % 1_000_000_000,
        };
        let mut held = MutexesHeld {
            of: self,
            taken: Vec::new(),
        };
        for i in order {
            if i >= self.count {
                return None;
            }
            let m = self.mutex(i);
            // SAFETY: `m` is an initialized process-shared mutex in our live mapping.
            let rc = unsafe { libc::pthread_mutex_timedlock(m, &deadline) };
            let ok = match rc {
                0 => true,
                // SAFETY: as above; we own it now, in an inconsistent state.
                libc::EOWNERDEAD => unsafe {
                    libc::pthread_mutex_consistent(m) == 0 || {
                        libc::pthread_mutex_unlock(m);
                        false
                    }
                },
                _ => false,
            };
            if !ok {
                return None; // `held` releases what was taken
            }
            held.taken.push(i);
        }
        Some(held)
    }
}

/// Mutexes of a [`SharedMutexes`] held by this thread; released (in reverse order) on drop.
pub(crate) struct MutexesHeld<'a> {
    of: &'a SharedMutexes,
    taken: Vec<usize>,
}

impl Drop for MutexesHeld<'_> {
    fn drop(&mut self) {
        for &i in self.taken.iter().rev() {
            // SAFETY: this thread took mutex `i` in `lock_all` and has not released it.
            unsafe { libc::pthread_mutex_unlock(self.of.mutex(i)) };
        }
    }
}
