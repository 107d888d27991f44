//! OpenPMIx 4.2's shared-memory job-data store (gds "ds21"), written by our server so that
//! reference 4.2 clients read their job data where they expect it instead of unpacking the
//! whole job at `PMIx_Init` (`docs/notes/ds21.md`).
//!
//! The format is OpenPMIx 4.2's (`src/mca/common/dstore`, `src/mca/gds/ds21`), learnt from
//! its source at tag v4.2.2; sizes are those of x86_64 (`size_t` and pointers 8 bytes).
//! Everything lives in one directory, named to clients by `PMIX_DSTORE_21_BASE_PATH`:
//!
//! * `initial-pmix_shared-segment-<i>` (`INITIAL_SEG_SIZE` bytes, default 4096): `size_t`
//!   number of entries, `size_t` "full" flag (1: read the next file), then 288-byte entries:
//!   the namespace name (256 bytes, NUL-padded), `size_t` table index, `int` track index
//!   (and 4 bytes of padding), `size_t` number of meta files, `size_t` number of data files.
//! * `smlockseg-<nspace>`: a header (`size_t` file size, `uint32_t` number of locks, `size_t`
//!   alignment, `size_t` offset of the mutexes), one `int32_t` in-use flag per lock (a client
//!   claims one at its `PMIx_Init`), then two process-shared `pthread_mutex_t` per lock, one
//!   per alignment unit. A client takes both of its own to read; a writer takes all of them.
//! * `smseg-<nspace>-<i>` (`NS_META_SEG_SIZE`, default 4 MiB): a `size_t`, then one 24-byte
//!   element per rank (`size_t` rank, `size_t` offset of its data, `size_t` number of keys):
//!   element 0 for rank WILDCARD, element r+1 for rank r. An offset of 0 means no data.
//! * `smdataseg-<nspace>-<i>` (`NS_DATA_SEG_SIZE`, default 4 MiB): a `size_t` (the used
//!   length of this file), then each rank's keys: `size_t` length of the entry (flags in its
//!   two top bits: extension slot, invalidated), `size_t` hash of the key (the sum of its
//!   `char`s), the key and its NUL, then `PACK(VALUE)` in the client's buffer type; after a
//!   rank's keys an extension slot (empty key, `size_t` offset of more data, 0: none).
//!   Offsets are global: file index times `NS_DATA_SEG_SIZE` plus the offset in the file.
//!
//! What we write differs from the reference's in when, not in what: a namespace's job data
//! is written once, completely, when the host sets up its first client
//! (`PMIx_server_setup_fork`; the reference writes it when the first client asks for its
//! job data), before any client of it can read (so without the locks), and a store that
//! cannot be written is not offered (its clients use "hash"). Committed data is appended
//! as each fence completes ([`Store::append`]; the reference appends at each commit and
//! fence): new bytes past the used end first, then, under every client's lock (robust
//! mutexes, taken for a bounded time), the links, counts and invalid marks.
//!
//! The files are created in a directory only the server's user can enter; a client of
//! another user cannot open them, fails its ds21 initialization and uses "hash".

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::segment::SharedMutexes;
use crate::codec::BufferType;
use crate::values::{Kval, PStr};
use crate::wire::msg::Pack;
use crate::{Error, Result};

/// The gds name a reference client declares when it chose this store.
pub(crate) const NAME: &str = "ds21";
/// The environment variable naming the store's directory to clients.
pub(crate) const BASE_PATH_ENV: &str = "PMIX_DSTORE_21_BASE_PATH";

const INITIAL_SEG_SIZE: usize = 4096;
const NS_META_SEG_SIZE: usize = 1 << 22;
const NS_DATA_SEG_SIZE: usize = 1 << 22;
/// `sizeof(size_t)`.
const WORD: usize = 8;
/// `PMIX_MAX_NSLEN + 1`.
const NS_NAME_LEN: usize = 256;
/// `sizeof(ns_seg_info_t)`.
const NS_INFO_LEN: usize = 288;
/// `sizeof(rank_meta_info)`.
const META_ELEM_LEN: usize = 24;
/// The extension-slot flag of an entry's length (`ESH_REGION_EXTENSION_FLG`).
const EXT_FLAG: u64 = 1 << 63;
/// The invalidated flag of an entry's length (`ESH_REGION_INVALIDATED_FLG`).
const INVALID_FLAG: u64 = 1 << 62;
/// The largest entry length (`ESH_REGION_SIZE_MASK`).
const SIZE_MASK: u64 = (1 << 62) - 1;
/// `sizeof(segment_hdr_t)` of the lock file.
const LOCK_HDR_LEN: usize = 32;
/// The space each mutex of the lock file takes (a cache line; readers take it from the
/// header).
const MUTEX_ALIGN: usize = 64;
/// The largest number of meta or data files one namespace may take.
const MAX_FILES: usize = 1024;
/// `PMIX_RANK_WILDCARD` as the meta element's `size_t` rank.
const WILDCARD: u64 = pmix_sys::PMIX_RANK_WILDCARD as u64;

/// The sizes of the store's files, as reference processes read them from their
/// environment (`_set_constants_from_env`): a value given is at least a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sizes {
    pub(crate) initial: usize,
    pub(crate) meta: usize,
    pub(crate) data: usize,
}

impl Sizes {
    /// The sizes `get` (an environment) gives; `None` when the store cannot be offered:
    /// clients told to search ranks linearly (`SM_USE_LINEAR_SEARCH=1`, a layout we do not
    /// write), or sizes too small for one entry or too large to be sane.
    pub(crate) fn from_env(get: impl Fn(&str) -> Option<String>) -> Option<Sizes> {
        if get("SM_USE_LINEAR_SEARCH").is_some_and(|v| strtoul(&v) == 1) {
            return None;
        }
        let page = rustix::param::page_size();
        let size = |name: &str, default: usize| match get(name) {
            Some(v) => usize::try_from(strtoul(&v)).map_or(usize::MAX, |n| n.max(page)),
            None => default,
        };
        let s = Sizes {
            initial: size("INITIAL_SEG_SIZE", INITIAL_SEG_SIZE),
            meta: size("NS_META_SEG_SIZE", NS_META_SEG_SIZE),
            data: size("NS_DATA_SEG_SIZE", NS_DATA_SEG_SIZE),
        };
        let sane = |n: usize| n <= 1 << 34;
        (sane(s.initial) && sane(s.meta) && sane(s.data) && s.max_ns() >= 1 && s.max_meta() >= 1)
            .then_some(s)
    }

    /// Entries per initial file.
    fn max_ns(&self) -> usize {
        self.initial.saturating_sub(2 * WORD) / NS_INFO_LEN
    }

    /// Meta elements per meta file.
    fn max_meta(&self) -> usize {
        self.meta.saturating_sub(WORD) / META_ELEM_LEN
    }

    /// Where the meta element of meta index `index` (rank + 1; 0 the wildcard rank) is: its
    /// meta file and its offset there.
    fn meta_at(&self, index: usize) -> (usize, usize) {
        let max = self.max_meta();
        (index / max, WORD + index % max * META_ELEM_LEN)
    }

    /// Where the global data offset `at` is: its data file and its offset there.
    fn data_at(&self, at: usize) -> (usize, usize) {
        (at / self.data, at % self.data)
    }
}

/// The byte offset of entry `i` of an initial file.
fn entry_at(i: usize) -> u64 {
    (2 * WORD + i * NS_INFO_LEN) as u64
}

/// A meta element: the rank, the global offset of its first entry, its count of keys.
fn meta_elem(rank: u64, offset: u64, count: u64) -> [u8; META_ELEM_LEN] {
    let mut e = [0u8; META_ELEM_LEN];
    e[0..8].copy_from_slice(&rank.to_ne_bytes());
    e[8..16].copy_from_slice(&offset.to_ne_bytes());
    e[16..24].copy_from_slice(&count.to_ne_bytes());
    e
}

/// C's `strtoul` on a decimal string, as far as the reference's use needs: leading blanks,
/// an optional `+`, the digits that follow (0 without any).
fn strtoul(s: &str) -> u64 {
    let s = s.trim_start();
    let s = s.strip_prefix('+').unwrap_or(s);
    s.bytes().take_while(u8::is_ascii_digit).fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// The key hash of the ds21 format: the sum of the key's `char`s (signed on x86_64).
pub(crate) fn key_hash(key: &[u8]) -> u64 {
    key.iter()
        .fold(0u64, |h, &b| h.wrapping_add(i64::from(b as i8) as u64))
}

/// Appends one entry: length, key hash, key and NUL, data. `None` when the key holds a NUL
/// or the entry is too long for the format.
fn put_entry(out: &mut Vec<u8>, key: &[u8], data: &[u8], flags: u64) -> Option<()> {
    if key.contains(&0) {
        return None;
    }
    let len = 2 * WORD + key.len() + 1 + data.len();
    let len64 = u64::try_from(len).ok().filter(|&l| l <= SIZE_MASK)?;
    out.extend_from_slice(&(len64 | flags).to_ne_bytes());
    out.extend_from_slice(&key_hash(key).to_ne_bytes());
    out.extend_from_slice(key);
    out.push(0);
    out.extend_from_slice(data);
    Some(())
}

/// The bytes of one rank's keys followed by an empty extension slot, and how many keys;
/// keys the format cannot hold are left out (a client asks the server for them).
fn rank_block(mode: BufferType, kvals: &[Kval]) -> (Vec<u8>, u64) {
    let mut out = Vec::new();
    let mut count = 0;
    for kv in kvals {
        let mut p = Pack::new(mode);
        p.one(pmix_sys::PMIX_VALUE, kv.value.clone());
        if put_entry(&mut out, kv.key.as_bytes(), &p.into_bytes(), 0).is_some() {
            count += 1;
        }
    }
    let _ = put_entry(&mut out, b"", &0u64.to_ne_bytes(), EXT_FLAG);
    (out, count)
}

/// What [`Store::append`] does to one rank's chain.
struct Plan {
    index: usize,
    rank: u64,
    /// The global offset of the new entries and their extension slot.
    at: usize,
    bytes: Vec<u8>,
    /// The rank had no data (no meta element yet).
    new_rank: bool,
    /// Global offsets of entries to mark invalid.
    invalid: Vec<u64>,
    /// The chain's count of valid keys afterwards.
    count: u64,
    /// The keys added: global offset of each entry and the hash of its packed value.
    keys: Vec<(PStr, u64, u64)>,
}

/// A hash of a packed value, to tell a value given again from a changed one.
fn value_hash(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// The plans of [`Store::append`]: which keys of each rank are new or changed, and where
/// their entries go (after the last data file's used bytes, or in new files).
fn plan(live: &Live, sizes: Sizes, ranks: &[(u32, Vec<Kval>)]) -> Result<Vec<Plan>> {
    let (mut file, mut used) = (live.file, live.used);
    let mut plans = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (rank, kvals) in ranks {
        // A rank given twice: the first values only (each plan starts from the chain as
        // it is before this append).
        if *rank > pmix_sys::PMIX_RANK_VALID || !seen.insert(*rank) {
            continue;
        }
        let index = *rank as usize + 1;
        let tail = live.tails.get(&index);
        let (mut bytes, mut invalid, mut keys) = (Vec::new(), Vec::new(), Vec::new());
        for kv in kvals {
            let mut p = Pack::new(live.mode);
            p.one(pmix_sys::PMIX_VALUE, kv.value.clone());
            let packed = p.into_bytes();
            let hash = value_hash(&packed);
            let old = tail.and_then(|t| t.keys.get(&kv.key));
            if old.is_some_and(|&(_, h)| h == hash) {
                continue;
            }
            let at = bytes.len();
            if put_entry(&mut bytes, kv.key.as_bytes(), &packed, 0).is_none() {
                continue; // a key the format cannot hold: clients ask the server
            }
            invalid.extend(old.map(|&(o, _)| o));
            keys.push((kv.key.clone(), at as u64, hash));
        }
        if keys.is_empty() {
            continue;
        }
        let _ = put_entry(&mut bytes, b"", &0u64.to_ne_bytes(), EXT_FLAG);
        if bytes.len() + WORD > sizes.data {
            continue; // larger than a data file: clients ask the server
        }
        if used + bytes.len() > sizes.data {
            file += 1;
            used = WORD;
            if file >= MAX_FILES {
                return Err(Error::NoMem);
            }
        }
        let at = file * sizes.data + used;
        used += bytes.len();
        for k in &mut keys {
            k.1 += at as u64;
        }
        let before = tail.map_or(0, |t| t.count);
        plans.push(Plan {
            index,
            rank: u64::from(*rank),
            at,
            bytes,
            new_rank: tail.is_none(),
            count: before - invalid.len() as u64 + keys.len() as u64,
            invalid,
            keys,
        });
    }
    Ok(plans)
}

/// Under the namespace's locks: marks the changed keys' old entries invalid, links each
/// new block from its rank's chain (or a new meta element), sets the counts, the data
/// files' used lengths and the namespace's file counts in its initial entry.
fn link(
    live: &mut Live,
    sizes: Sizes,
    plans: &[Plan],
    initial: &[Initial],
    (fi, ei): (usize, usize),
) -> Result<()> {
    let mut used: HashMap<usize, u64> = HashMap::new();
    for p in plans {
        for &o in &p.invalid {
            let (f, off) = sizes.data_at(o as usize);
            let mut w = [0u8; WORD];
            live.datas[f]
                .read_exact_at(&mut w, off as u64)
                .map_err(io_error)?;
            let len = u64::from_ne_bytes(w) | INVALID_FLAG;
            live.datas[f]
                .write_all_at(&len.to_ne_bytes(), off as u64)
                .map_err(io_error)?;
        }
        let (mf, moff) = sizes.meta_at(p.index);
        let meta = &live.metas[mf];
        if p.new_rank {
            let e = meta_elem(p.rank, p.at as u64, p.count);
            meta.write_all_at(&e, moff as u64).map_err(io_error)?;
        } else {
            let (f, off) = sizes.data_at(live.tails[&p.index].slot as usize);
            live.datas[f]
                .write_all_at(&(p.at as u64).to_ne_bytes(), off as u64)
                .map_err(io_error)?;
            meta.write_all_at(&p.count.to_ne_bytes(), (moff + 16) as u64)
                .map_err(io_error)?;
        }
        let (f, off) = sizes.data_at(p.at);
        let e = used.entry(f).or_default();
        *e = (*e).max((off + p.bytes.len()) as u64);
    }
    for (f, end) in used {
        live.datas[f]
            .write_all_at(&end.to_ne_bytes(), 0)
            .map_err(io_error)?;
    }
    let told = (live.metas.len(), live.datas.len());
    if told != live.told {
        let at = entry_at(ei) + (NS_NAME_LEN + 2 * WORD) as u64;
        let mut counts = [0u8; 2 * WORD];
        counts[..WORD].copy_from_slice(&(told.0 as u64).to_ne_bytes());
        counts[WORD..].copy_from_slice(&(told.1 as u64).to_ne_bytes());
        initial
            .get(fi)
            .ok_or(Error::NotFound)?
            .file
            .write_all_at(&counts, at)
            .map_err(io_error)?;
        live.told = told;
    }
    Ok(())
}

/// Allocates `len` bytes at `at` of `f` (without changing its size), so that a later write
/// there, under the clients' locks, cannot fail for want of space.
fn allocate(f: &File, at: usize, len: usize) -> Result<()> {
    rustix::fs::fallocate(
        f,
        rustix::fs::FallocateFlags::KEEP_SIZE,
        at as u64,
        len as u64,
    )
    .map_err(|_| Error::Status(pmix_sys::PMIX_ERR_OUT_OF_RESOURCE))
}

/// The file `<prefix><nspace>[-<index>]` in `dir`.
fn ns_path(dir: &Path, prefix: &str, nspace: &PStr, index: Option<usize>) -> PathBuf {
    let mut name = std::ffi::OsString::from(prefix);
    name.push(std::ffi::OsStr::new(
        &String::from_utf8_lossy(nspace.as_bytes()).into_owned(),
    ));
    if let Some(i) = index {
        name.push(format!("-{i}"));
    }
    dir.join(name)
}

/// A namespace name that can be part of a file name here.
fn valid_name(nspace: &PStr) -> bool {
    let b = nspace.as_bytes();
    !b.is_empty()
        && b.len() < NS_NAME_LEN
        && b != b"."
        && b != b".."
        && !b.iter().any(|&c| c == b'/' || c == 0)
}

fn io_error(_: std::io::Error) -> Error {
    Error::Status(pmix_sys::PMIX_ERR_FILE_OPEN_FAILURE)
}

/// Creates `path` (it must not exist) readable by its owner, and writable too when
/// `writable` (the lock file, which clients open read-write).
fn create(path: &Path, writable: bool) -> Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(if writable { 0o600 } else { 0o400 })
        .open(path)
        .map_err(io_error)
}

/// Writes `bytes` at the start of the new file `path`, then makes it `len` bytes long
/// (the rest a hole, which reads as zeros); the file stays open for writing.
fn write_file(path: &Path, bytes: &[u8], len: usize) -> Result<File> {
    let f = create(path, false)?;
    f.write_all_at(bytes, 0).map_err(io_error)?;
    f.set_len(len as u64).map_err(io_error)?;
    Ok(f)
}

/// One initial file: open for writing, with the namespace of each entry (`None`: free).
#[derive(Debug)]
struct Initial {
    file: File,
    path: PathBuf,
    entries: Vec<Option<PStr>>,
}

/// What the store holds of one namespace.
#[derive(Debug, Default)]
struct Ns {
    /// The lock file, made when the namespace's first client was set up.
    lock: Option<PathBuf>,
    /// Its mutexes, mapped (taken to change what clients may be reading).
    mutexes: Option<SharedMutexes>,
    /// The meta and data files, once written.
    files: Vec<PathBuf>,
    /// Its entry in the initial files (file, index), once written.
    slot: Option<(usize, usize)>,
    /// Written (or tried and failed: not tried again).
    done: bool,
    /// What appending committed data needs, once the job data is written.
    live: Option<Live>,
}

/// A written namespace's files, open, and where each rank's chain of keys ends.
#[derive(Debug)]
struct Live {
    mode: BufferType,
    metas: Vec<File>,
    datas: Vec<File>,
    /// The data file appended to last, and the bytes used in it.
    file: usize,
    used: usize,
    /// The meta and data files named in the namespace's initial entry (files made past
    /// them are not yet seen by clients).
    told: (usize, usize),
    /// By meta index (rank + 1; 0 the wildcard rank).
    tails: HashMap<usize, Tail>,
    /// A client of the namespace reads the store (it declared "ds21"): committed data is
    /// worth appending.
    read: bool,
    /// The caller's mark of what was appended last ([`Store::appended_mark`]).
    mark: u64,
    /// The last append did not have the locks in time: until one does, appends do not wait
    /// (a client stopped inside a read costs one wait, not one per fence).
    busy: bool,
}

/// One rank's chain of keys as the store last left it.
#[derive(Debug, Default)]
struct Tail {
    /// The global offset of the value of the chain's last (empty) extension slot.
    slot: u64,
    /// Valid keys in the chain (its meta element's count).
    count: u64,
    /// The keys appended after the job data: each entry's global offset and a hash of its
    /// packed value.
    keys: HashMap<PStr, (u64, u64)>,
}

/// One server's store: its directory and what it wrote there.
#[derive(Debug)]
pub(crate) struct Store {
    dir: PathBuf,
    sizes: Sizes,
    initial: Vec<Initial>,
    ns: HashMap<PStr, Ns>,
}

impl Store {
    /// A store in the existing private directory `dir`, with files of `sizes`.
    pub(crate) fn new(dir: PathBuf, sizes: Sizes) -> Store {
        Store {
            dir,
            sizes,
            initial: Vec::new(),
            ns: HashMap::new(),
        }
    }

    /// The directory (what `PMIX_DSTORE_21_BASE_PATH` names).
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `nspace`'s clients can be offered the store (its lock file exists).
    pub(crate) fn prepared(&self, nspace: &PStr) -> bool {
        self.ns.get(nspace).is_some_and(|n| n.lock.is_some())
    }

    /// Whether `nspace`'s job data was written (or could not be: see
    /// [`Store::mark_failed`]).
    pub(crate) fn written(&self, nspace: &PStr) -> bool {
        self.ns.get(nspace).is_some_and(|n| n.done)
    }

    /// Remembers that `nspace`'s store could not be made (after [`Store::remove`]): it is
    /// not offered, nor tried again until the namespace is removed.
    pub(crate) fn mark_failed(&mut self, nspace: &PStr) {
        self.ns.entry(nspace.clone()).or_default().done = true;
    }

    /// Makes what a client of `nspace` attaches at its `PMIx_Init`: the first initial file
    /// and the namespace's lock file, with `nlocks` locks (one per client initialization).
    ///
    /// # Errors
    /// `BadParam` for a namespace name that cannot name a file;
    /// `Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)` or `PMIX_ERR_INIT` when a file cannot be
    /// made.
    pub(crate) fn prepare(&mut self, nspace: &PStr, nlocks: u32) -> Result<()> {
        if self.prepared(nspace) {
            return Ok(());
        }
        if !valid_name(nspace) {
            return Err(Error::BadParam);
        }
        if self.initial.is_empty() {
            self.add_initial()?;
        }
        let path = self.path("smlockseg-", nspace, None);
        let mutexes = match self.write_lock_file(&path, nlocks.max(1) as usize) {
            Ok(m) => m,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(e);
            }
        };
        let ns = self.ns.entry(nspace.clone()).or_default();
        ns.lock = Some(path);
        ns.mutexes = Some(mutexes);
        Ok(())
    }

    fn path(&self, prefix: &str, nspace: &PStr, index: Option<usize>) -> PathBuf {
        ns_path(&self.dir, prefix, nspace, index)
    }

    fn write_lock_file(&self, path: &Path, n: usize) -> Result<SharedMutexes> {
        let hdr = (LOCK_HDR_LEN + 4 * n) / MUTEX_ALIGN * MUTEX_ALIGN + MUTEX_ALIGN;
        let page = rustix::param::page_size();
        let size = (hdr + 2 * n * MUTEX_ALIGN) / page * page + page;
        let mut b = vec![0u8; size];
        b[0..8].copy_from_slice(&(size as u64).to_ne_bytes());
        b[8..12].copy_from_slice(&u32::try_from(n).map_err(|_| Error::NoMem)?.to_ne_bytes());
        b[16..24].copy_from_slice(&(MUTEX_ALIGN as u64).to_ne_bytes());
        b[24..32].copy_from_slice(&(hdr as u64).to_ne_bytes());
        let f = create(path, true)?;
        f.write_all_at(&b, 0).map_err(io_error)?;
        SharedMutexes::init(&f, size, hdr, MUTEX_ALIGN, 2 * n)
    }

    /// Adds an initial file (all zeros) after the last one.
    fn add_initial(&mut self) -> Result<()> {
        let i = self.initial.len();
        let path = self.dir.join(format!("initial-pmix_shared-segment-{i}"));
        let file = create(&path, false)?;
        if let Err(e) = file.write_all_at(&vec![0u8; self.sizes.initial], 0) {
            let _ = std::fs::remove_file(&path);
            return Err(io_error(e));
        }
        self.initial.push(Initial {
            file,
            path,
            entries: Vec::new(),
        });
        Ok(())
    }

    /// Writes `nspace`'s job data: `wildcard` (its job-level keys) and each rank's keys,
    /// packed in `mode`, then names the files in an initial file. Done once per namespace:
    /// a later call (even after a failure) does nothing. A rank whose keys do not fit one
    /// data file is left out, as are keys the format cannot hold: clients ask the server
    /// for those.
    ///
    /// # Errors
    /// `NotFound` when the namespace was not prepared; the file errors of
    /// [`Store::prepare`]; `NoMem` when the job needs more than `MAX_FILES` files.
    pub(crate) fn write(
        &mut self,
        nspace: &PStr,
        mode: BufferType,
        wildcard: &[Kval],
        ranks: impl Iterator<Item = (u32, Vec<Kval>)>,
    ) -> Result<()> {
        match self.ns.get_mut(nspace) {
            Some(n) if n.lock.is_some() => {
                if n.done {
                    return Ok(());
                }
                n.done = true;
            }
            _ => return Err(Error::NotFound),
        }
        let (metas, datas, tails) = self.build(mode, wildcard, ranks)?;
        let mut paths = Vec::new();
        let files = self.write_files(nspace, &metas, &datas, &mut paths);
        let res = files.and_then(|f| {
            self.publish(nspace, metas.len(), datas.len())
                .map(|slot| (f, slot))
        });
        let ns = self.ns.entry(nspace.clone()).or_default();
        ns.files = paths;
        match res {
            Ok(((metas_f, datas_f), slot)) => {
                ns.slot = Some(slot);
                ns.live = Some(Live {
                    mode,
                    told: (metas_f.len(), datas_f.len()),
                    metas: metas_f,
                    file: datas.len() - 1,
                    used: datas.last().map_or(WORD, Vec::len),
                    datas: datas_f,
                    tails,
                    read: false,
                    mark: 0,
                    busy: false,
                });
                Ok(())
            }
            Err(e) => {
                for f in ns.files.drain(..) {
                    let _ = std::fs::remove_file(f);
                }
                Err(e)
            }
        }
    }

    /// The meta files' and data files' contents (each up to its last byte written), and
    /// where each rank's chain ends.
    #[allow(clippy::type_complexity)]
    fn build(
        &self,
        mode: BufferType,
        wildcard: &[Kval],
        ranks: impl Iterator<Item = (u32, Vec<Kval>)>,
    ) -> Result<(Vec<Vec<u8>>, Vec<Vec<u8>>, HashMap<usize, Tail>)> {
        let data_size = self.sizes.data;
        let mut metas: Vec<Vec<u8>> = Vec::new();
        let mut datas: Vec<Vec<u8>> = vec![vec![0u8; WORD]];
        let mut tails = HashMap::new();
        let mut put = |index: usize, rank: u64, kvals: &[Kval]| -> Result<()> {
            let (block, count) = rank_block(mode, kvals);
            if count == 0 || block.len() + WORD > data_size {
                return Ok(());
            }
            if datas
                .last()
                .is_some_and(|d| d.len() + block.len() > data_size)
            {
                if datas.len() == MAX_FILES {
                    return Err(Error::NoMem);
                }
                datas.push(vec![0u8; WORD]);
            }
            let (file, cur) = (datas.len() - 1, datas.last_mut().ok_or(Error::NoMem)?);
            let offset = (file * data_size + cur.len()) as u64;
            cur.extend_from_slice(&block);
            let (m, at) = self.sizes.meta_at(index);
            if m >= MAX_FILES {
                return Err(Error::NoMem);
            }
            if metas.len() <= m {
                metas.resize_with(m + 1, || vec![0u8; WORD]);
            }
            let meta = &mut metas[m];
            if meta.len() < at + META_ELEM_LEN {
                meta.resize(at + META_ELEM_LEN, 0);
            }
            meta[at..at + META_ELEM_LEN].copy_from_slice(&meta_elem(rank, offset, count));
            let slot = offset + (block.len() - WORD) as u64;
            tails.insert(
                index,
                Tail {
                    slot,
                    count,
                    keys: HashMap::new(),
                },
            );
            Ok(())
        };
        put(0, WILDCARD, wildcard)?;
        for (rank, kvals) in ranks {
            put(rank as usize + 1, u64::from(rank), &kvals)?;
        }
        if metas.is_empty() {
            metas.push(vec![0u8; WORD]);
        }
        for d in &mut datas {
            let used = d.len() as u64;
            d[0..8].copy_from_slice(&used.to_ne_bytes());
        }
        Ok((metas, datas, tails))
    }

    #[allow(clippy::type_complexity)]
    fn write_files(
        &self,
        nspace: &PStr,
        metas: &[Vec<u8>],
        datas: &[Vec<u8>],
        paths: &mut Vec<PathBuf>,
    ) -> Result<(Vec<File>, Vec<File>)> {
        let mut files = (Vec::new(), Vec::new());
        for (i, m) in metas.iter().enumerate() {
            let p = self.path("smseg-", nspace, Some(i));
            paths.push(p.clone());
            files.0.push(write_file(&p, m, self.sizes.meta)?);
        }
        for (i, d) in datas.iter().enumerate() {
            let p = self.path("smdataseg-", nspace, Some(i));
            paths.push(p.clone());
            files.1.push(write_file(&p, d, self.sizes.data)?);
        }
        Ok(files)
    }

    /// Notes that a client of `nspace` reads the store (it declared "ds21").
    pub(crate) fn note_reader(&mut self, nspace: &PStr) {
        if let Some(l) = self.ns.get_mut(nspace).and_then(|n| n.live.as_mut()) {
            l.read = true;
        }
    }

    /// The mark given with the last successful [`Store::append`] to `nspace` (0 before
    /// any), when `nspace` is written and a client reads it; else `None` (nothing is worth
    /// appending).
    pub(crate) fn appended_mark(&self, nspace: &PStr) -> Option<u64> {
        let l = self.ns.get(nspace)?.live.as_ref()?;
        l.read.then_some(l.mark)
    }

    /// Sets the mark [`Store::appended_mark`] gives back.
    pub(crate) fn set_appended_mark(&mut self, nspace: &PStr, mark: u64) {
        if let Some(l) = self.ns.get_mut(nspace).and_then(|n| n.live.as_mut()) {
            l.mark = mark;
        }
    }

    /// Appends committed data to ranks' chains in `nspace`'s written store, as the
    /// reference's server does at commit and fence (`pmix_sm_store`): for each `(rank,
    /// values)` (a rank given twice: its first values), the keys whose packed value is new or changed go at the end of the data
    /// (a new data file when the last is full), linked from the rank's last extension slot
    /// (or a new meta element); a changed key's earlier entry is marked invalid.
    ///
    /// The new bytes are written where no reader looks; then every client lock of the
    /// namespace is taken, as the reference's writer does (all the "signalling" mutexes,
    /// then all the main ones), for at most `wait` (not at all after an append that did not
    /// have them in time, until one does), and the links, counts, invalid marks and file
    /// counts are written under them. `Ok(false)` when the locks were not had in time:
    /// nothing a client can see changed (the same values may be given again later).
    ///
    /// # Errors
    /// `NotFound` for a namespace not written; the file errors of [`Store::prepare`];
    /// `NoMem` past `MAX_FILES` files. Nothing a client can see changed, except on a write
    /// to an already allocated page failing under the locks (not seen).
    pub(crate) fn append(
        &mut self,
        nspace: &PStr,
        ranks: &[(u32, Vec<Kval>)],
        wait: std::time::Duration,
    ) -> Result<bool> {
        let Store {
            dir,
            sizes,
            initial,
            ns,
        } = self;
        let sizes = *sizes;
        let ns = ns.get_mut(nspace).ok_or(Error::NotFound)?;
        let (Some(live), Some(mutexes), Some(slot)) =
            (ns.live.as_mut(), ns.mutexes.as_ref(), ns.slot)
        else {
            return Err(Error::NotFound);
        };
        let plans = plan(live, sizes, ranks)?;
        if plans.is_empty() {
            return Ok(true);
        }
        // New files first (named to nobody until the initial entry counts them), then the
        // data where no chain leads yet, and room for the meta elements of new ranks.
        let need_data = plans.iter().map(|p| sizes.data_at(p.at).0 + 1).max();
        let need_meta = plans
            .iter()
            .filter(|p| p.new_rank)
            .map(|p| sizes.meta_at(p.index).0 + 1)
            .max();
        let mut made = Vec::new();
        for (files, need, prefix, size) in [
            (&mut live.datas, need_data, "smdataseg-", sizes.data),
            (&mut live.metas, need_meta, "smseg-", sizes.meta),
        ] {
            while files.len() < need.unwrap_or(0) {
                let p = ns_path(dir, prefix, nspace, Some(files.len()));
                files.push(write_file(&p, &0u64.to_ne_bytes(), size)?);
                made.push(p);
            }
        }
        ns.files.extend(made);
        for p in &plans {
            let (f, off) = sizes.data_at(p.at);
            live.datas[f]
                .write_all_at(&p.bytes, off as u64)
                .map_err(io_error)?;
            if p.new_rank {
                let (f, off) = sizes.meta_at(p.index);
                allocate(&live.metas[f], off, META_ELEM_LEN)?;
            }
        }
        let n = mutexes.len() / 2;
        let order = (0..n).map(|i| 2 * i).chain((0..n).map(|i| 2 * i + 1));
        let wait = if live.busy {
            std::time::Duration::ZERO
        } else {
            wait
        };
        let Some(held) = mutexes.lock_all(order, wait) else {
            live.busy = true;
            return Ok(false);
        };
        live.busy = false;
        let res = link(live, sizes, &plans, initial, slot);
        drop(held);
        res?;
        for p in plans {
            let tail = live.tails.entry(p.index).or_default();
            tail.count = p.count;
            tail.slot = (p.at + p.bytes.len() - WORD) as u64;
            let (f, off) = sizes.data_at(p.at);
            (live.file, live.used) = (f, off + p.bytes.len());
            for (key, at, hash) in p.keys {
                tail.keys.insert(key, (at, hash));
            }
        }
        Ok(true)
    }

    /// Names `nspace`'s files in a free entry of the initial files (a new file when all are
    /// full): the counts first, the name last, so a reader that finds the name finds them.
    fn publish(&mut self, nspace: &PStr, nmeta: usize, ndata: usize) -> Result<(usize, usize)> {
        let max = self.sizes.max_ns();
        let free = self.initial.iter().enumerate().find_map(|(f, init)| {
            let i = init.entries.iter().position(Option::is_none);
            i.or((init.entries.len() < max).then_some(init.entries.len()))
                .map(|i| (f, i))
        });
        let (f, i) = match free {
            Some(s) => s,
            None => {
                self.add_initial()?;
                (self.initial.len() - 1, 0)
            }
        };
        let mut tail = vec![0u8; NS_INFO_LEN - NS_NAME_LEN];
        tail[16..24].copy_from_slice(&(nmeta as u64).to_ne_bytes());
        tail[24..32].copy_from_slice(&(ndata as u64).to_ne_bytes());
        let mut name = vec![0u8; NS_NAME_LEN];
        name[..nspace.len()].copy_from_slice(nspace.as_bytes());
        let at = entry_at(i);
        let init = &mut self.initial[f];
        init.file
            .write_all_at(&tail, at + NS_NAME_LEN as u64)
            .map_err(io_error)?;
        init.file.write_all_at(&name, at).map_err(io_error)?;
        if i == init.entries.len() {
            init.entries.push(Some(nspace.clone()));
            let n = init.entries.len() as u64;
            init.file
                .write_all_at(&n.to_ne_bytes(), 0)
                .map_err(io_error)?;
        } else {
            init.entries[i] = Some(nspace.clone());
        }
        if f > 0 && i == 0 && self.initial[f].entries.len() == 1 {
            // The previous file is full: readers go on to this one.
            self.initial[f - 1]
                .file
                .write_all_at(&1u64.to_ne_bytes(), WORD as u64)
                .map_err(io_error)?;
        }
        Ok((f, i))
    }

    /// Forgets `nspace`: unlinks its files (clients that mapped them keep their mappings)
    /// and frees its entry in the initial files.
    pub(crate) fn remove(&mut self, nspace: &PStr) {
        let Some(ns) = self.ns.remove(nspace) else {
            return;
        };
        for p in ns.files.iter().chain(ns.lock.iter()) {
            let _ = std::fs::remove_file(p);
        }
        if let Some((f, i)) = ns.slot {
            if let Some(init) = self.initial.get_mut(f) {
                let _ = init.file.write_all_at(&[0u8; NS_NAME_LEN], entry_at(i));
                if let Some(e) = init.entries.get_mut(i) {
                    *e = None;
                }
            }
        }
    }

    /// Removes every file and the directory.
    pub(crate) fn remove_all(&mut self) {
        let names: Vec<PStr> = self.ns.keys().cloned().collect();
        for n in names {
            self.remove(&n);
        }
        for init in self.initial.drain(..) {
            let _ = std::fs::remove_file(&init.path);
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}
