//! Conversion of `pmix_cpuset_t` and `pmix_topology_t`, whose payloads are hwloc objects, and
//! the `hwloc_topology_t` that `PMIx_Load_topology` hands out.
//!
//! Everything here is allocated by libhwloc (bitmaps, topologies), so that callers release it
//! with their own hwloc, or by libc (the `source` strings), as for every other structure.
//!
//! * A cpuset becomes `Cpuset { source: "hwloc", bitmap: list }`, the list printed by
//!   `hwloc_bitmap_list_snprintf`; back in C it is a fresh `hwloc_bitmap_t`.
//! * A topology read from C is duplicated (`hwloc_topology_dup`) into a [`RawTopology`] that
//!   the core holds through `TopologyData::Foreign`; written back to C it is duplicated again,
//!   so every `pmix_topology_t` we fill owns its topology, as the reference's copies do
//!   (`PMIx_Value_load`, `PMIx_Value_xfer`, `PMIx_Data_copy` duplicate, and the destructors
//!   destroy). A topology received as XML is loaded into a new hwloc topology.
//! * The process's own topology ([`shared`]) is one hwloc topology loaded from the core's
//!   (`pmix_core::topology::local`), returned by every `PMIx_Load_topology` call and never
//!   destroyed: `topology_destruct` leaves it alone.
//!
//! The sources we accept are those whose first five bytes are "hwloc" in any case; structures
//! with another source are not ours to convert or release.

use core::ffi::{c_char, c_int, c_void};
use core::ptr::NonNull;
use std::ffi::CString;
use std::sync::{Arc, OnceLock};

use hwlocality_sys::{
    HWLOC_OBJ_MACHINE, HWLOC_TOPOLOGY_FLAG_IMPORT_SUPPORT, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED,
    HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM, HWLOC_TYPE_FILTER_KEEP_IMPORTANT, hwloc_bitmap_alloc,
    hwloc_bitmap_free, hwloc_bitmap_list_snprintf, hwloc_bitmap_s, hwloc_const_bitmap_t,
    hwloc_free_xmlbuffer, hwloc_get_obj_by_depth, hwloc_obj, hwloc_obj_attr_snprintf,
    hwloc_obj_type_snprintf, hwloc_topology, hwloc_topology_destroy, hwloc_topology_dup,
    hwloc_topology_export_xmlbuffer, hwloc_topology_flags_e, hwloc_topology_get_support,
    hwloc_topology_init, hwloc_topology_load, hwloc_topology_refresh, hwloc_topology_set_flags,
    hwloc_topology_set_io_types_filter, hwloc_topology_set_xmlbuffer,
};
use pmix_core::topology::{self as topo, HWLOC, is_hwloc_source};
use pmix_core::values::TOPO_SUPPORT_LEN;
use pmix_core::values::{Cpuset, ForeignTopology, Topology, TopologyData};
use pmix_core::{Error, PStr, Result};
use pmix_sys::{pmix_cpuset_t, pmix_topology_t};

use crate::{alloc, ptr};

unsafe extern "C" {
    // Part of libhwloc's API since 1.x, but not bound by `hwlocality-sys`.
    fn hwloc_bitmap_list_sscanf(bitmap: *mut hwloc_bitmap_s, string: *const c_char) -> c_int;
    fn hwloc_bitmap_snprintf(buf: *mut c_char, len: usize, bitmap: hwloc_const_bitmap_t) -> c_int;
    // hwloc/shmem.h (hwloc 2.x).
    fn hwloc_shmem_topology_get_length(
        topology: *mut hwloc_topology,
        lengthp: *mut usize,
        flags: core::ffi::c_ulong,
    ) -> c_int;
}

/// The text of an snprintf-like hwloc call: asks for the length, then fills a buffer of that
/// size. Empty when the call fails.
fn snprintf_text(f: impl Fn(*mut c_char, usize) -> c_int) -> Vec<u8> {
    let Ok(n) = usize::try_from(f(core::ptr::null_mut(), 0)) else {
        return Vec::new();
    };
    let mut buf = vec![0u8; n + 1];
    let m = f(buf.as_mut_ptr().cast(), buf.len());
    buf.truncate(usize::try_from(m).unwrap_or(0).min(n));
    buf
}

/// Whether a C source string names hwloc.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
unsafe fn c_source_is_hwloc(s: *const c_char) -> bool {
    // SAFETY: forwarded contract.
    unsafe { ptr::opt_pstr(s) }.is_some_and(|s| is_hwloc_source(s.as_bytes()))
}

// ---------------------------------------------------------------------------------------
// Bitmaps

/// The list syntax of an hwloc bitmap ("0-3,8").
///
/// # Safety
/// `b` is a valid hwloc bitmap.
pub(crate) unsafe fn bitmap_to_list(b: hwloc_const_bitmap_t) -> Result<PStr> {
    // SAFETY: `b` is valid; `snprintf_text` passes a buffer of the given length (or NULL, 0).
    Ok(PStr::from(snprintf_text(|buf, len| unsafe {
        hwloc_bitmap_list_snprintf(buf, len, b)
    })))
}

/// A new hwloc bitmap holding a list; `BadParam` if hwloc cannot read the list or it names
/// an index past [`topo::MAX_CPU_INDEX`]. hwloc would allocate the bitmap for
/// any index up to 2^31-1 (256 MiB), so a peer's packed cpuset of a few bytes could cost that
/// much; the list is checked with the core's reader of the same syntax first.
pub(crate) fn bitmap_from_list(list: &PStr) -> Result<*mut hwloc_bitmap_s> {
    let mut text = list.as_bytes().to_vec();
    if text.contains(&0) || topo::try_parse_list(&text).is_none() {
        return Err(Error::BadParam);
    }
    text.push(0);
    // SAFETY: no preconditions; the result is checked for NULL.
    let b = unsafe { hwloc_bitmap_alloc() };
    if b.is_null() {
        return Err(Error::NoMem);
    }
    // SAFETY: `b` is a fresh bitmap and `text` is NUL-terminated.
    if unsafe { hwloc_bitmap_list_sscanf(b, text.as_ptr().cast()) } != 0 {
        // SAFETY: `b` came from hwloc_bitmap_alloc and is not used again.
        unsafe { hwloc_bitmap_free(b) };
        return Err(Error::BadParam);
    }
    Ok(b)
}

// ---------------------------------------------------------------------------------------
// Cpusets

/// A cpuset as the core sees it, whatever its source (for the topology calls, which answer
/// other sources with `PMIX_ERR_TAKE_NEXT_OPTION`): the source as given, and the bitmap read
/// only when the source is hwloc.
pub(crate) fn cpuset_view(c: &pmix_cpuset_t) -> Result<Cpuset> {
    // SAFETY: `source` is NULL or a C string (pmix_cpuset_t contract).
    let source = unsafe { ptr::opt_pstr(c.source) };
    let ours = source
        .as_ref()
        .is_some_and(|s| is_hwloc_source(s.as_bytes()));
    let bitmap = if ours && !c.bitmap.is_null() {
        // SAFETY: an hwloc-sourced cpuset holds an hwloc bitmap.
        Some(unsafe { bitmap_to_list(c.bitmap.cast()) }?)
    } else {
        None
    };
    Ok(Cpuset { source, bitmap })
}

/// Reads a C cpuset. A NULL bitmap is an unbound process; a source that is not hwloc is
/// `NotSupported` (a NULL source is taken as hwloc, as the reference's packer does).
pub(crate) fn cpuset_from_c(c: &pmix_cpuset_t) -> Result<Cpuset> {
    // SAFETY: `source` is NULL or a C string (pmix_cpuset_t contract).
    if !c.source.is_null() && !unsafe { c_source_is_hwloc(c.source) } {
        return Err(Error::NotSupported);
    }
    let bitmap = if c.bitmap.is_null() {
        None
    } else {
        // SAFETY: an hwloc cpuset holds an hwloc bitmap.
        Some(unsafe { bitmap_to_list(c.bitmap.cast()) }?)
    };
    Ok(Cpuset {
        source: Some(PStr::from(HWLOC)),
        bitmap,
    })
}

/// A C cpuset with a new hwloc bitmap (NULL for an unbound process) and source "hwloc".
pub(crate) fn cpuset_to_c(v: &Cpuset) -> Result<pmix_cpuset_t> {
    if v.source
        .as_ref()
        .is_some_and(|s| !is_hwloc_source(s.as_bytes()))
    {
        return Err(Error::NotSupported);
    }
    let bitmap = match &v.bitmap {
        Some(list) => bitmap_from_list(list)?,
        None => core::ptr::null_mut(),
    };
    match alloc::cstring(HWLOC.as_bytes()) {
        Ok(source) => Ok(pmix_cpuset_t {
            source,
            bitmap: bitmap.cast(),
        }),
        Err(e) => {
            if !bitmap.is_null() {
                // SAFETY: made above by hwloc and not handed out.
                unsafe { hwloc_bitmap_free(bitmap) };
            }
            Err(e)
        }
    }
}

/// Releases an hwloc cpuset (`hwloc_bitmap_free` of the bitmap, `free` of the source) and
/// zeroes it. Cpusets of another source, or without one, are left untouched, as the reference
/// leaves them.
///
/// # Safety
/// `c.source` is NULL or a C string; when it names hwloc, it is malloc'd and `c.bitmap` is
/// NULL or an hwloc bitmap, neither used again.
pub(crate) unsafe fn cpuset_destruct(c: &mut pmix_cpuset_t) {
    // SAFETY: `source` is NULL or a C string.
    if !unsafe { c_source_is_hwloc(c.source) } {
        return;
    }
    if !c.bitmap.is_null() {
        // SAFETY: an hwloc bitmap owned by `c`.
        unsafe { hwloc_bitmap_free(c.bitmap.cast()) };
        c.bitmap = core::ptr::null_mut();
    }
    // SAFETY: the source is malloc'd per the contract.
    unsafe { alloc::free(&mut c.source) };
}

/// Bytes of a cpuset's bitmap up to its last set bit (0 when empty, unset or not hwloc's),
/// what `PMIx_Value_get_size` counts for it.
pub(crate) fn cpuset_bitmap_bytes(c: &pmix_cpuset_t) -> usize {
    // SAFETY: `source` is NULL or a C string in a valid cpuset.
    if c.bitmap.is_null() || !unsafe { c_source_is_hwloc(c.source) } {
        return 0;
    }
    // SAFETY: an hwloc bitmap, per the cpuset's source.
    let last = unsafe { hwlocality_sys::hwloc_bitmap_last(c.bitmap.cast_const().cast()) };
    usize::try_from(last).map_or(0, |l| l / 8 + 1)
}

/// The bytes hwloc needs to place the topology in shared memory
/// (`hwloc_shmem_topology_get_length`), what OpenPMIx 5.0 counts for a topology; None for an
/// unset or foreign topology, or when hwloc cannot tell.
pub(crate) fn topology_shmem_length(t: &pmix_topology_t) -> Option<usize> {
    // SAFETY: `source` is NULL or a C string in a valid topology.
    if t.topology.is_null() || !unsafe { c_source_is_hwloc(t.source) } {
        return None;
    }
    let mut len = 0usize;
    // SAFETY: an hwloc topology, per the source; `len` is writable.
    let rc = unsafe { hwloc_shmem_topology_get_length(t.topology.cast(), &mut len, 0) };
    (rc == 0).then_some(len)
}

// ---------------------------------------------------------------------------------------
// Topologies

/// An hwloc topology that we own (destroyed on drop).
///
/// Invariant: the pointer is a loaded, refreshed hwloc topology that nothing else destroys.
#[derive(Debug)]
pub(crate) struct RawTopology(NonNull<hwloc_topology>);

// SAFETY: hwloc allows concurrent read-only use of a loaded topology whose caches are
// refreshed (the type invariant); we never modify it after loading, and destroy it only on
// drop, when no other reference exists.
unsafe impl Send for RawTopology {}
// SAFETY: as above; every `&self` operation (dup, XML export, support query) only reads.
unsafe impl Sync for RawTopology {}

impl Drop for RawTopology {
    fn drop(&mut self) {
        // SAFETY: owned and valid (type invariant); not used after drop.
        unsafe { hwloc_topology_destroy(self.0.as_ptr()) }
    }
}

impl RawTopology {
    fn as_ptr(&self) -> *mut hwloc_topology {
        self.0.as_ptr()
    }

    /// Takes ownership of a freshly loaded topology, refreshing its caches first.
    ///
    /// # Safety
    /// `t` is a loaded hwloc topology owned by the caller, who gives it up.
    unsafe fn adopt(t: *mut hwloc_topology) -> Result<RawTopology> {
        let t = NonNull::new(t).ok_or(Error::NoMem)?;
        // SAFETY: `t` is a loaded topology that we now own.
        if unsafe { hwloc_topology_refresh(t.as_ptr()) } != 0 {
            // SAFETY: owned, not handed out.
            unsafe { hwloc_topology_destroy(t.as_ptr()) };
            return Err(Error::NoMem);
        }
        Ok(RawTopology(t))
    }

    /// A duplicate of a loaded topology (`hwloc_topology_dup`).
    ///
    /// # Safety
    /// `t` is a valid, loaded hwloc topology that no other thread modifies during the call.
    unsafe fn dup(t: *const hwloc_topology) -> Result<RawTopology> {
        let mut out = core::ptr::null_mut();
        // SAFETY: `t` is valid; `out` receives a new topology.
        if unsafe { hwloc_topology_dup(&mut out, t) } != 0 || out.is_null() {
            return Err(Error::NoMem);
        }
        // SAFETY: `out` is a new loaded topology that we own.
        unsafe { RawTopology::adopt(out) }
    }

    /// Loads hwloc XML into a new topology, keeping important I/O objects. A topology of this
    /// machine asserts `HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM` (binding through it works); one from
    /// elsewhere keeps its disallowed resources. Both import the support flags from the XML.
    fn from_xml(xml: &[u8], this_system: bool) -> Result<RawTopology> {
        let mut text: Vec<u8> = xml.iter().copied().take_while(|&c| c != 0).collect();
        text.push(0);
        let len = c_int::try_from(text.len()).map_err(|_| Error::BadParam)?;
        let flags: hwloc_topology_flags_e = HWLOC_TOPOLOGY_FLAG_IMPORT_SUPPORT
            | if this_system {
                HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM
            } else {
                HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED
            };
        let mut t = core::ptr::null_mut();
        // SAFETY: `t` receives a new topology.
        if unsafe { hwloc_topology_init(&mut t) } != 0 || t.is_null() {
            return Err(Error::NoMem);
        }
        // SAFETY: `t` is an initialized, unloaded topology; `text` is NUL-terminated and `len`
        // counts the terminator, as hwloc requires.
        let ok = unsafe {
            hwloc_topology_set_xmlbuffer(t, text.as_ptr().cast(), len) == 0
                && hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) == 0
                && hwloc_topology_set_flags(t, flags) == 0
                && hwloc_topology_load(t) == 0
        };
        if !ok {
            // SAFETY: `t` is ours and not handed out.
            unsafe { hwloc_topology_destroy(t) };
            return Err(Error::BadParam);
        }
        // SAFETY: `t` is loaded and ours.
        unsafe { RawTopology::adopt(t) }
    }

    /// Gives up ownership: the pointer is handed to C, which destroys it.
    fn into_c(self) -> *mut c_void {
        let p = self.as_ptr();
        core::mem::forget(self);
        p.cast()
    }
}

impl ForeignTopology for RawTopology {
    fn handle(&self) -> usize {
        self.as_ptr() as usize
    }

    fn export_xml(&self) -> Result<Vec<u8>> {
        let mut buf: *mut c_char = core::ptr::null_mut();
        let mut len: c_int = 0;
        // SAFETY: valid topology (type invariant); hwloc allocates `buf`.
        if unsafe { hwloc_topology_export_xmlbuffer(self.as_ptr(), &mut buf, &mut len, 0) } != 0
            || buf.is_null()
        {
            return Err(Error::PackFailure);
        }
        // SAFETY: hwloc returned a NUL-terminated buffer.
        let xml = unsafe { core::ffi::CStr::from_ptr(buf) }
            .to_bytes()
            .to_vec();
        // SAFETY: `buf` came from hwloc_topology_export_xmlbuffer on this topology.
        unsafe { hwloc_free_xmlbuffer(self.as_ptr(), buf) };
        Ok(xml)
    }

    fn support_flags(&self) -> [u8; TOPO_SUPPORT_LEN] {
        let mut out = pmix_core::values::DEFAULT_TOPO_SUPPORT;
        // SAFETY: valid topology (type invariant); hwloc returns pointers to support structures
        // that live as long as the topology.
        let s = unsafe { hwloc_topology_get_support(self.as_ptr()) };
        // SAFETY: as above; each structure is read through its hwlocality-sys definition
        // (hwloc 2.4 layout, the oldest runtime the build accepts).
        unsafe {
            if let Some(s) = s.as_ref() {
                if let Some(d) = s.discovery.as_ref() {
                    out[..6].copy_from_slice(&[
                        d.pu,
                        d.numa,
                        d.numa_memory,
                        d.disallowed_pu,
                        d.disallowed_numa,
                        d.cpukind_efficiency,
                    ]);
                }
                if let Some(c) = s.cpubind.as_ref() {
                    out[6..17].copy_from_slice(&[
                        c.set_thisproc_cpubind,
                        c.get_thisproc_cpubind,
                        c.set_proc_cpubind,
                        c.get_proc_cpubind,
                        c.set_thisthread_cpubind,
                        c.get_thisthread_cpubind,
                        c.set_thread_cpubind,
                        c.get_thread_cpubind,
                        c.get_thisproc_last_cpu_location,
                        c.get_proc_last_cpu_location,
                        c.get_thisthread_last_cpu_location,
                    ]);
                }
                if let Some(m) = s.membind.as_ref() {
                    out[17..32].copy_from_slice(&[
                        m.set_thisproc_membind,
                        m.get_thisproc_membind,
                        m.set_proc_membind,
                        m.get_proc_membind,
                        m.set_thisthread_membind,
                        m.get_thisthread_membind,
                        m.set_area_membind,
                        m.get_area_membind,
                        m.alloc_membind,
                        m.firsttouch_membind,
                        m.bind_membind,
                        m.interleave_membind,
                        m.nexttouch_membind,
                        m.migrate_membind,
                        m.get_area_memlocation,
                    ]);
                }
            }
        }
        out
    }

    fn describe(&self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        // SAFETY: valid topology (type invariant); depth 0 always holds the root object.
        unsafe {
            let root = hwloc_get_obj_by_depth(self.as_ptr(), 0, 0);
            describe_object(self.as_ptr(), root, 0, &mut out);
        }
        Some(out)
    }
}

/// Appends the description of `obj` and its normal children (the layout the reference's
/// `PMIx_Data_print` gives, docs/notes/print.md): for an object at depth d, indented by d tabs,
/// "Type: <type> Number of child objects: <arity>", then on lines indented one tab further its
/// name, its attributes, its cpuset (hwloc's mask syntax), and for the machine the binding
/// support; then each child.
///
/// # Safety
/// `obj` is NULL or an object of the loaded topology `t`.
unsafe fn describe_object(
    t: *mut hwloc_topology,
    obj: *const hwloc_obj,
    depth: usize,
    out: &mut Vec<u8>,
) {
    // SAFETY: per this function's contract.
    let Some(o) = (unsafe { obj.as_ref() }) else {
        return;
    };
    let indent = "\t".repeat(depth);
    let sep = format!("\n{indent}\t");
    let csep = CString::new(sep.as_bytes()).unwrap_or_default();
    out.extend_from_slice(indent.as_bytes());
    out.extend_from_slice(b"Type: ");
    // SAFETY: `obj` is valid; snprintf_text passes a buffer of the given length.
    out.extend(snprintf_text(|b, n| unsafe {
        hwloc_obj_type_snprintf(b, n, obj, 1)
    }));
    out.extend_from_slice(format!(" Number of child objects: {}", o.arity).as_bytes());
    out.extend_from_slice(sep.as_bytes());
    out.extend_from_slice(b"Name=");
    // SAFETY: the name is NULL or a C string owned by the object.
    match unsafe { ptr::opt_pstr(o.name) } {
        Some(n) => out.extend_from_slice(n.as_bytes()),
        None => out.extend_from_slice(b"NULL"),
    }
    // SAFETY: as above; the separator is a C string.
    let attrs =
        snprintf_text(|b, n| unsafe { hwloc_obj_attr_snprintf(b, n, obj, csep.as_ptr(), 1) });
    if !attrs.is_empty() {
        out.extend_from_slice(sep.as_bytes());
        out.extend(attrs);
    }
    if !o.cpuset.is_null() {
        out.extend_from_slice(sep.as_bytes());
        out.extend_from_slice(b"Cpuset:  ");
        // SAFETY: the object's cpuset is a valid bitmap.
        out.extend(snprintf_text(|b, n| unsafe {
            hwloc_bitmap_snprintf(b, n, o.cpuset)
        }));
    }
    if o.ty == HWLOC_OBJ_MACHINE {
        let yes = |f: u8| if f != 0 { "TRUE" } else { "FALSE" };
        // SAFETY: the support structures live as long as the topology.
        let (cpu, mem) = unsafe {
            let s = hwloc_topology_get_support(t).as_ref();
            (
                s.and_then(|s| s.cpubind.as_ref())
                    .map(|c| (c.set_thisproc_cpubind, c.set_thisthread_cpubind)),
                s.and_then(|s| s.membind.as_ref())
                    .map(|m| (m.set_thisproc_membind, m.set_thisthread_membind)),
            )
        };
        let (cp, ct) = cpu.unwrap_or((0, 0));
        let (mp, mt) = mem.unwrap_or((0, 0));
        out.extend_from_slice(
            format!(
                "{sep}Bind CPU proc:   {}{sep}Bind CPU thread: {}{sep}Bind MEM proc:   {}{sep}Bind MEM thread: {}",
                yes(cp),
                yes(ct),
                yes(mp),
                yes(mt)
            )
            .as_bytes(),
        );
    }
    out.push(b'\n');
    for i in 0..o.arity as usize {
        // SAFETY: `children` holds `arity` objects of the same topology.
        unsafe { describe_object(t, *o.children.add(i), depth + 1, out) };
    }
}

/// The process's own topology as a C object, with the source reported for it.
#[derive(Debug)]
pub(crate) struct Shared {
    topo: RawTopology,
    pub(crate) source: PStr,
}

impl Shared {
    /// The `hwloc_topology_t` handed to callers.
    pub(crate) fn handle(&self) -> *mut c_void {
        self.topo.as_ptr().cast()
    }
}

static SHARED: OnceLock<Result<Shared>> = OnceLock::new();

/// The topology `PMIx_Load_topology` returns: loaded once, from the core's, and kept for the
/// life of the process.
pub(crate) fn shared() -> Result<&'static Shared> {
    SHARED
        .get_or_init(|| {
            let local = topo::local()?;
            let topo = RawTopology::from_xml(local.xml()?.as_bytes(), true)?;
            Ok(Shared {
                topo,
                source: local.source().clone(),
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Whether `p` is the shared topology (which no destructor may destroy). Never loads it:
/// a pointer can only be the shared topology once that has been loaded.
fn is_shared(p: *mut c_void) -> bool {
    matches!(SHARED.get(), Some(Ok(s)) if s.handle() == p)
}

/// Reads a C topology. A NULL topology is "no topology"; a live one, whose source must name
/// hwloc, is duplicated so that the value stays valid whatever the caller does with theirs.
pub(crate) fn topology_from_c(c: &pmix_topology_t) -> Result<Topology> {
    // SAFETY: `source` is NULL or a C string (pmix_topology_t contract).
    let hwloc_source = unsafe { c_source_is_hwloc(c.source) };
    if c.topology.is_null() {
        if !c.source.is_null() && !hwloc_source {
            return Err(Error::NotSupported);
        }
        let source = (!c.source.is_null()).then(|| PStr::from(HWLOC));
        return Ok(Topology {
            source,
            data: TopologyData::None,
        });
    }
    if !hwloc_source {
        return Err(Error::NotSupported);
    }
    // SAFETY: an hwloc-sourced topology holds a loaded hwloc_topology_t.
    let copy = unsafe { RawTopology::dup(c.topology.cast()) }?;
    Ok(Topology {
        source: Some(PStr::from(HWLOC)),
        data: TopologyData::Foreign(Arc::new(copy)),
    })
}

/// A C topology with source "hwloc" owning a new hwloc topology (NULL for no topology).
pub(crate) fn topology_to_c(v: &Topology) -> Result<pmix_topology_t> {
    if v.source
        .as_ref()
        .is_some_and(|s| !is_hwloc_source(s.as_bytes()))
    {
        return Err(Error::NotSupported);
    }
    let t: *mut c_void = match &v.data {
        TopologyData::None => core::ptr::null_mut(),
        TopologyData::Foreign(f) => {
            // SAFETY: every `ForeignTopology` in the process is a `RawTopology` of this module
            // (the only implementation; pmix-core never implements the trait), so the handle
            // is a loaded hwloc topology kept alive by the Arc we borrow.
            unsafe { RawTopology::dup(f.handle() as *const hwloc_topology) }?.into_c()
        }
        TopologyData::Xml(x) => RawTopology::from_xml(x, false)?.into_c(),
    };
    match alloc::cstring(HWLOC.as_bytes()) {
        Ok(source) => Ok(pmix_topology_t {
            source,
            topology: t,
        }),
        Err(e) => {
            if !t.is_null() {
                // SAFETY: made above and not handed out.
                unsafe { hwloc_topology_destroy(t.cast()) };
            }
            Err(e)
        }
    }
}

/// Releases an hwloc topology structure: destroys the topology (unless it is the shared one
/// `PMIx_Load_topology` hands out) and frees the source, then zeroes it. Structures of another
/// source, or without one, are left untouched, as the reference leaves them.
///
/// # Safety
/// `c.source` is NULL or a C string; when it names hwloc, it is malloc'd and `c.topology` is
/// NULL, the shared topology, or an hwloc topology owned by `c`, none used again.
pub(crate) unsafe fn topology_destruct(c: &mut pmix_topology_t) {
    // SAFETY: `source` is NULL or a C string.
    if !unsafe { c_source_is_hwloc(c.source) } {
        return;
    }
    if !c.topology.is_null() && !is_shared(c.topology) {
        // SAFETY: an hwloc topology owned by `c`.
        unsafe { hwloc_topology_destroy(c.topology.cast()) };
    }
    c.topology = core::ptr::null_mut();
    // SAFETY: the source is malloc'd per the contract.
    unsafe { alloc::free(&mut c.source) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(list: &str) -> Result<String> {
        let b = bitmap_from_list(&PStr::from(list))?;
        // SAFETY: `b` is a fresh bitmap.
        let text = unsafe { bitmap_to_list(b) };
        // SAFETY: freed once and not used after.
        unsafe { hwloc_bitmap_free(b) };
        Ok(text?.to_string())
    }

    /// Lists hwloc reads come back as hwloc prints them; an index past the bound is refused
    /// before hwloc allocates for it (found by the unpack fuzz target: a 114-byte message
    /// whose cpuset named CPU 4,444,444,444... made hwloc ask for 512 MiB).
    #[test]
    fn bitmap_from_list_bounds_indices() {
        assert_eq!(round_trip("0-3,8").as_deref(), Ok("0-3,8"));
        assert_eq!(round_trip("5-").as_deref(), Ok("5-"));
        assert!(round_trip(&topo::MAX_CPU_INDEX.to_string()).is_ok());
        for bad in ["4294967295", "0-2147483647", "1,99999999", "x"] {
            assert_eq!(round_trip(bad), Err(Error::BadParam), "{bad}");
        }
    }
}
