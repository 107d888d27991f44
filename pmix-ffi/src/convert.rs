//! Conversion between the C structures of `pmix-sys` and the Rust data model of `pmix-core`.
//!
//! * `*_from_c` read C data into core values. They validate what they read: NULL where a
//!   structure is required, counted arrays with a NULL pointer, keys without a terminator,
//!   unknown data types. They never take ownership.
//! * `*_to_c` build C data whose every pointer is libc-allocated. They build into a local,
//!   zero-initialised structure and hand it over only when complete; on failure they release
//!   what they had allocated, so the caller's memory is untouched.
//! * `*_destruct` release what a C structure owns (with `free()`), as the reference's
//!   `_DESTRUCT` macros do, and leave it zeroed.
//!
//! The C layout of one element of each data type (in arrays, `pmix_data_array_t`, and the
//! `data` argument of `PMIx_Data_pack`) is given by `elem_size`, `elem_from_c`, `elem_to_c`
//! and `elem_destruct`; the member of the `pmix_value_t` union used for each type by
//! `value_from_c`, `value_to_c` and `value_destruct`.

use core::ffi::{c_char, c_void};
use core::mem::size_of;

use pmix_core::values::*;
use pmix_core::{Error, PStr, Result};
use pmix_sys::*;

use crate::alloc;
use crate::hwloc;
use crate::ptr;

/// Types whose all-zero bit pattern is a valid, empty value (NULL pointers, zero counts,
/// `None` callbacks).
///
/// # Safety
/// Implement only for `repr(C)` structs made of integers, floats, raw pointers, `bool` and
/// `Option<fn>` fields.
pub(crate) unsafe trait Zeroable: Sized {
    fn zeroed() -> Self {
        // SAFETY: the trait's contract says all-zero bytes are a valid Self.
        unsafe { core::mem::zeroed() }
    }
}
// SAFETY: each of these is a repr(C) struct of integers, floats, raw pointers and bools.
unsafe impl Zeroable for pmix_value_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_info_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_proc_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_pdata_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_app_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_query_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_byte_object_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_envar_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_coord_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_regattr_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_proc_info_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_data_array_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_geometry_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_device_distance_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_endpoint_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_cpuset_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_topology_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_proc_stats_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_disk_stats_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_net_stats_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_node_stats_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_data_buffer_t {}
// SAFETY: as above.
unsafe impl Zeroable for pmix_fabric_t {}

/// Builds a C structure from zero with `fill`; if `fill` fails, releases what it allocated
/// with `destruct` and returns the error.
fn build<T: Zeroable>(
    fill: impl FnOnce(&mut T) -> Result<()>,
    destruct: unsafe fn(&mut T),
) -> Result<T> {
    let mut t = T::zeroed();
    match fill(&mut t) {
        Ok(()) => Ok(t),
        Err(e) => {
            // SAFETY: `t` holds only what `fill` allocated with libc, or zeroes.
            unsafe { destruct(&mut t) };
            Err(e)
        }
    }
}

/// A libc-allocated copy of `v` on the heap.
fn boxed<T>(v: T) -> Result<*mut T> {
    let p = alloc::calloc::<T>(1)?;
    // SAFETY: `p` is a fresh allocation of one T.
    unsafe { p.write(v) };
    Ok(p)
}

// ---------------------------------------------------------------------------------------
// Small structures

pub(crate) fn proc_from_c(p: &pmix_proc_t) -> Result<Proc> {
    Ok(Proc {
        nspace: ptr::fixed_str(&p.nspace)?,
        rank: p.rank,
    })
}

pub(crate) fn proc_to_c(p: &Proc) -> pmix_proc_t {
    let mut c = pmix_proc_t::zeroed();
    ptr::load_fixed(&mut c.nspace, p.nspace.as_bytes());
    c.rank = p.rank;
    c
}

/// # Safety
/// `bo.bytes` is NULL or points to `bo.size` bytes.
pub(crate) unsafe fn bo_from_c(bo: &pmix_byte_object_t) -> Result<Vec<u8>> {
    // SAFETY: forwarded contract; (NULL, n > 0) is rejected.
    Ok(unsafe { ptr::slice(bo.bytes.cast::<u8>(), bo.size) }?.to_vec())
}

pub(crate) fn bo_to_c(b: &[u8]) -> Result<pmix_byte_object_t> {
    Ok(pmix_byte_object_t {
        bytes: alloc::bytes(b)?,
        size: b.len(),
    })
}

/// # Safety
/// `bo` holds a libc-allocated `bytes` or NULL.
pub(crate) unsafe fn bo_destruct(bo: &mut pmix_byte_object_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut bo.bytes) };
    bo.size = 0;
}

/// # Safety
/// The strings of `e` are C strings or NULL.
unsafe fn envar_from_c(e: &pmix_envar_t) -> Envar {
    // SAFETY: forwarded contract.
    unsafe {
        Envar {
            envar: ptr::opt_pstr(e.envar),
            value: ptr::opt_pstr(e.value),
            separator: e.separator as u8,
        }
    }
}

fn envar_to_c(e: &Envar) -> Result<pmix_envar_t> {
    build(
        |c: &mut pmix_envar_t| {
            c.envar = alloc::opt_cstring(e.envar.as_ref())?;
            c.value = alloc::opt_cstring(e.value.as_ref())?;
            c.separator = e.separator as c_char;
            Ok(())
        },
        envar_destruct,
    )
}

/// # Safety
/// The strings of `e` are libc-allocated or NULL.
pub(crate) unsafe fn envar_destruct(e: &mut pmix_envar_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut e.envar);
        alloc::free(&mut e.value);
    }
}

/// # Safety
/// `c.coord` is NULL or points to `c.dims` values.
unsafe fn coord_from_c(c: &pmix_coord_t) -> Result<Coord> {
    // SAFETY: forwarded contract.
    Ok(Coord {
        view: c.view,
        // SAFETY: forwarded contract.
        coord: unsafe { ptr::slice(c.coord, c.dims) }?.to_vec(),
    })
}

fn coord_to_c(c: &Coord) -> Result<pmix_coord_t> {
    let arr = alloc::calloc::<u32>(c.coord.len())?;
    for (i, v) in c.coord.iter().enumerate() {
        // SAFETY: `arr` has c.coord.len() slots.
        unsafe { arr.add(i).write(*v) };
    }
    Ok(pmix_coord_t {
        view: c.view,
        coord: arr,
        dims: c.coord.len(),
    })
}

/// # Safety
/// `c.coord` is libc-allocated or NULL.
pub(crate) unsafe fn coord_destruct(c: &mut pmix_coord_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut c.coord) };
    c.dims = 0;
}

/// # Safety
/// The fields of `r` are valid C strings / NULL-terminated arrays or NULL.
unsafe fn regattr_from_c(r: &pmix_regattr_t) -> Result<Regattr> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(Regattr {
            name: ptr::opt_pstr(r.name),
            string: ptr::fixed_str(&r.string)?,
            ty: r.r#type,
            description: ptr::argv(r.description),
        })
    }
}

fn regattr_to_c(r: &Regattr) -> Result<pmix_regattr_t> {
    build(
        |c: &mut pmix_regattr_t| {
            c.name = alloc::opt_cstring(r.name.as_ref())?;
            ptr::load_fixed(&mut c.string, r.string.as_bytes());
            c.r#type = r.ty;
            c.description = alloc::argv(&r.description)?;
            Ok(())
        },
        regattr_destruct,
    )
}

/// # Safety
/// The pointers of `r` are libc-allocated or NULL.
pub(crate) unsafe fn regattr_destruct(r: &mut pmix_regattr_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut r.name);
        alloc::free_argv(r.description);
    }
    r.description = core::ptr::null_mut();
}

/// # Safety
/// The strings of `p` are C strings or NULL.
unsafe fn proc_info_from_c(p: &pmix_proc_info_t) -> Result<ProcInfo> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(ProcInfo {
            proc: proc_from_c(&p.proc)?,
            hostname: ptr::opt_pstr(p.hostname),
            executable_name: ptr::opt_pstr(p.executable_name),
            pid: p.pid,
            exit_code: p.exit_code,
            state: p.state,
        })
    }
}

fn proc_info_to_c(p: &ProcInfo) -> Result<pmix_proc_info_t> {
    build(
        |c: &mut pmix_proc_info_t| {
            c.proc = proc_to_c(&p.proc);
            c.hostname = alloc::opt_cstring(p.hostname.as_ref())?;
            c.executable_name = alloc::opt_cstring(p.executable_name.as_ref())?;
            c.pid = p.pid;
            c.exit_code = p.exit_code;
            c.state = p.state;
            Ok(())
        },
        proc_info_destruct,
    )
}

/// # Safety
/// The strings of `p` are libc-allocated or NULL.
pub(crate) unsafe fn proc_info_destruct(p: &mut pmix_proc_info_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut p.hostname);
        alloc::free(&mut p.executable_name);
    }
}

/// # Safety
/// The pointers of `g` are valid or NULL.
unsafe fn geometry_from_c(g: &pmix_geometry_t) -> Result<Geometry> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(Geometry {
            fabric: g.fabric as u64,
            uuid: ptr::opt_pstr(g.uuid),
            osname: ptr::opt_pstr(g.osname),
            coordinates: ptr::slice(g.coordinates, g.ncoords)?
                .iter()
                .map(|c| coord_from_c(c))
                .collect::<Result<_>>()?,
        })
    }
}

fn geometry_to_c(g: &Geometry) -> Result<pmix_geometry_t> {
    build(
        |c: &mut pmix_geometry_t| {
            c.fabric = g.fabric as usize;
            c.uuid = alloc::opt_cstring(g.uuid.as_ref())?;
            c.osname = alloc::opt_cstring(g.osname.as_ref())?;
            c.coordinates = alloc::calloc::<pmix_coord_t>(g.coordinates.len())?;
            for (i, co) in g.coordinates.iter().enumerate() {
                // SAFETY: `coordinates` has one slot per coordinate; ncoords counts those
                // written so far, so a failure releases exactly them.
                unsafe { c.coordinates.add(i).write(coord_to_c(co)?) };
                c.ncoords = i + 1;
            }
            c.ncoords = g.coordinates.len();
            Ok(())
        },
        geometry_destruct,
    )
}

/// # Safety
/// The pointers of `g` are libc-allocated or NULL, `coordinates` holding `ncoords` entries.
pub(crate) unsafe fn geometry_destruct(g: &mut pmix_geometry_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut g.uuid);
        alloc::free(&mut g.osname);
        if !g.coordinates.is_null() {
            for i in 0..g.ncoords {
                coord_destruct(&mut *g.coordinates.add(i));
            }
        }
        alloc::free(&mut g.coordinates);
    }
    g.ncoords = 0;
}

/// # Safety
/// The strings of `d` are C strings or NULL.
unsafe fn devdist_from_c(d: &pmix_device_distance_t) -> DeviceDistance {
    // SAFETY: forwarded contract.
    unsafe {
        DeviceDistance {
            uuid: ptr::opt_pstr(d.uuid),
            osname: ptr::opt_pstr(d.osname),
            ty: d.r#type,
            mindist: d.mindist,
            maxdist: d.maxdist,
        }
    }
}

fn devdist_to_c(d: &DeviceDistance) -> Result<pmix_device_distance_t> {
    build(
        |c: &mut pmix_device_distance_t| {
            c.uuid = alloc::opt_cstring(d.uuid.as_ref())?;
            c.osname = alloc::opt_cstring(d.osname.as_ref())?;
            c.r#type = d.ty;
            c.mindist = d.mindist;
            c.maxdist = d.maxdist;
            Ok(())
        },
        devdist_destruct,
    )
}

/// # Safety
/// The strings of `d` are libc-allocated or NULL.
pub(crate) unsafe fn devdist_destruct(d: &mut pmix_device_distance_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut d.uuid);
        alloc::free(&mut d.osname);
    }
}

/// # Safety
/// The pointers of `e` are valid or NULL.
unsafe fn endpoint_from_c(e: &pmix_endpoint_t) -> Result<Endpoint> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(Endpoint {
            uuid: ptr::opt_pstr(e.uuid),
            osname: ptr::opt_pstr(e.osname),
            endpt: bo_from_c(&e.endpt)?,
        })
    }
}

fn endpoint_to_c(e: &Endpoint) -> Result<pmix_endpoint_t> {
    build(
        |c: &mut pmix_endpoint_t| {
            c.uuid = alloc::opt_cstring(e.uuid.as_ref())?;
            c.osname = alloc::opt_cstring(e.osname.as_ref())?;
            c.endpt = bo_to_c(&e.endpt)?;
            Ok(())
        },
        endpoint_destruct,
    )
}

/// # Safety
/// The pointers of `e` are libc-allocated or NULL.
pub(crate) unsafe fn endpoint_destruct(e: &mut pmix_endpoint_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut e.uuid);
        alloc::free(&mut e.osname);
        bo_destruct(&mut e.endpt);
    }
}

fn tv_from_c(t: &libc::timeval) -> Timeval {
    Timeval {
        sec: t.tv_sec,
        usec: t.tv_usec,
    }
}

fn tv_to_c(t: &Timeval) -> libc::timeval {
    libc::timeval {
        tv_sec: t.sec,
        tv_usec: t.usec,
    }
}

/// # Safety
/// The strings of `s` are C strings or NULL.
unsafe fn proc_stats_from_c(s: &pmix_proc_stats_t) -> Result<ProcStats> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(ProcStats {
            node: ptr::opt_pstr(s.node),
            proc: proc_from_c(&s.proc)?,
            pid: s.pid,
            cmd: ptr::opt_pstr(s.cmd),
            // c_char is i8 here but u8 on some targets.
            #[allow(clippy::unnecessary_cast)]
            state: s.state as i8,
            time: tv_from_c(&s.time),
            percent_cpu: s.percent_cpu,
            priority: s.priority,
            num_threads: s.num_threads,
            pss: s.pss,
            vsize: s.vsize,
            rss: s.rss,
            peak_vsize: s.peak_vsize,
            processor: s.processor,
            sample_time: tv_from_c(&s.sample_time),
        })
    }
}

fn proc_stats_to_c(s: &ProcStats) -> Result<pmix_proc_stats_t> {
    build(
        |c: &mut pmix_proc_stats_t| {
            c.node = alloc::opt_cstring(s.node.as_ref())?;
            c.proc = proc_to_c(&s.proc);
            c.pid = s.pid;
            c.cmd = alloc::opt_cstring(s.cmd.as_ref())?;
            c.state = s.state as c_char;
            c.time = tv_to_c(&s.time);
            c.percent_cpu = s.percent_cpu;
            c.priority = s.priority;
            c.num_threads = s.num_threads;
            c.pss = s.pss;
            c.vsize = s.vsize;
            c.rss = s.rss;
            c.peak_vsize = s.peak_vsize;
            c.processor = s.processor;
            c.sample_time = tv_to_c(&s.sample_time);
            Ok(())
        },
        proc_stats_destruct,
    )
}

/// # Safety
/// The strings of `s` are libc-allocated or NULL.
pub(crate) unsafe fn proc_stats_destruct(s: &mut pmix_proc_stats_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut s.node);
        alloc::free(&mut s.cmd);
    }
}

/// # Safety
/// `d.disk` is a C string or NULL.
unsafe fn disk_stats_from_c(d: &pmix_disk_stats_t) -> DiskStats {
    DiskStats {
        // SAFETY: forwarded contract.
        disk: unsafe { ptr::opt_pstr(d.disk) },
        num_reads_completed: d.num_reads_completed,
        num_reads_merged: d.num_reads_merged,
        num_sectors_read: d.num_sectors_read,
        milliseconds_reading: d.milliseconds_reading,
        num_writes_completed: d.num_writes_completed,
        num_writes_merged: d.num_writes_merged,
        num_sectors_written: d.num_sectors_written,
        milliseconds_writing: d.milliseconds_writing,
        num_ios_in_progress: d.num_ios_in_progress,
        milliseconds_io: d.milliseconds_io,
        weighted_milliseconds_io: d.weighted_milliseconds_io,
    }
}

fn disk_stats_to_c(d: &DiskStats) -> Result<pmix_disk_stats_t> {
    Ok(pmix_disk_stats_t {
        disk: alloc::opt_cstring(d.disk.as_ref())?,
        num_reads_completed: d.num_reads_completed,
        num_reads_merged: d.num_reads_merged,
        num_sectors_read: d.num_sectors_read,
        milliseconds_reading: d.milliseconds_reading,
        num_writes_completed: d.num_writes_completed,
        num_writes_merged: d.num_writes_merged,
        num_sectors_written: d.num_sectors_written,
        milliseconds_writing: d.milliseconds_writing,
        num_ios_in_progress: d.num_ios_in_progress,
        milliseconds_io: d.milliseconds_io,
        weighted_milliseconds_io: d.weighted_milliseconds_io,
    })
}

/// # Safety
/// `d.disk` is libc-allocated or NULL.
pub(crate) unsafe fn disk_stats_destruct(d: &mut pmix_disk_stats_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut d.disk) };
}

/// # Safety
/// `n.net_interface` is a C string or NULL.
unsafe fn net_stats_from_c(n: &pmix_net_stats_t) -> NetStats {
    NetStats {
        // SAFETY: forwarded contract.
        net_interface: unsafe { ptr::opt_pstr(n.net_interface) },
        num_bytes_recvd: n.num_bytes_recvd,
        num_packets_recvd: n.num_packets_recvd,
        num_recv_errs: n.num_recv_errs,
        num_bytes_sent: n.num_bytes_sent,
        num_packets_sent: n.num_packets_sent,
        num_send_errs: n.num_send_errs,
    }
}

fn net_stats_to_c(n: &NetStats) -> Result<pmix_net_stats_t> {
    Ok(pmix_net_stats_t {
        net_interface: alloc::opt_cstring(n.net_interface.as_ref())?,
        num_bytes_recvd: n.num_bytes_recvd,
        num_packets_recvd: n.num_packets_recvd,
        num_recv_errs: n.num_recv_errs,
        num_bytes_sent: n.num_bytes_sent,
        num_packets_sent: n.num_packets_sent,
        num_send_errs: n.num_send_errs,
    })
}

/// # Safety
/// `n.net_interface` is libc-allocated or NULL.
pub(crate) unsafe fn net_stats_destruct(n: &mut pmix_net_stats_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut n.net_interface) };
}

/// # Safety
/// The pointers of `n` are valid or NULL, the arrays holding their counts.
unsafe fn node_stats_from_c(n: &pmix_node_stats_t) -> Result<NodeStats> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(NodeStats {
            node: ptr::opt_pstr(n.node),
            la: n.la,
            la5: n.la5,
            la15: n.la15,
            total_mem: n.total_mem,
            free_mem: n.free_mem,
            buffers: n.buffers,
            cached: n.cached,
            swap_cached: n.swap_cached,
            swap_total: n.swap_total,
            swap_free: n.swap_free,
            mapped: n.mapped,
            sample_time: tv_from_c(&n.sample_time),
            diskstats: ptr::slice(n.diskstats, n.ndiskstats)?
                .iter()
                .map(|d| disk_stats_from_c(d))
                .collect(),
            netstats: ptr::slice(n.netstats, n.nnetstats)?
                .iter()
                .map(|d| net_stats_from_c(d))
                .collect(),
        })
    }
}

fn node_stats_to_c(n: &NodeStats) -> Result<pmix_node_stats_t> {
    build(
        |c: &mut pmix_node_stats_t| {
            c.node = alloc::opt_cstring(n.node.as_ref())?;
            c.la = n.la;
            c.la5 = n.la5;
            c.la15 = n.la15;
            c.total_mem = n.total_mem;
            c.free_mem = n.free_mem;
            c.buffers = n.buffers;
            c.cached = n.cached;
            c.swap_cached = n.swap_cached;
            c.swap_total = n.swap_total;
            c.swap_free = n.swap_free;
            c.mapped = n.mapped;
            c.sample_time = tv_to_c(&n.sample_time);
            c.diskstats = alloc::calloc(n.diskstats.len())?;
            for (i, d) in n.diskstats.iter().enumerate() {
                // SAFETY: one slot per disk; the count tracks what is written.
                unsafe { c.diskstats.add(i).write(disk_stats_to_c(d)?) };
                c.ndiskstats = i + 1;
            }
            c.netstats = alloc::calloc(n.netstats.len())?;
            for (i, d) in n.netstats.iter().enumerate() {
                // SAFETY: one slot per interface; the count tracks what is written.
                unsafe { c.netstats.add(i).write(net_stats_to_c(d)?) };
                c.nnetstats = i + 1;
            }
            Ok(())
        },
        node_stats_destruct,
    )
}

/// # Safety
/// The pointers of `n` are libc-allocated or NULL, the arrays holding their counts.
pub(crate) unsafe fn node_stats_destruct(n: &mut pmix_node_stats_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut n.node);
        if !n.diskstats.is_null() {
            for i in 0..n.ndiskstats {
                disk_stats_destruct(&mut *n.diskstats.add(i));
            }
        }
        alloc::free(&mut n.diskstats);
        if !n.netstats.is_null() {
            for i in 0..n.nnetstats {
                net_stats_destruct(&mut *n.netstats.add(i));
            }
        }
        alloc::free(&mut n.netstats);
    }
    n.ndiskstats = 0;
    n.nnetstats = 0;
}

/// The bytes of a data buffer that hold packed data.
///
/// # Safety
/// `b.base_ptr` is NULL or points to `b.bytes_used` bytes.
pub(crate) unsafe fn dbuf_from_c(b: &pmix_data_buffer_t) -> Result<Vec<u8>> {
    // SAFETY: forwarded contract.
    Ok(unsafe { ptr::slice(b.base_ptr.cast::<u8>(), b.bytes_used) }?.to_vec())
}

pub(crate) fn dbuf_to_c(bytes: &[u8]) -> Result<pmix_data_buffer_t> {
    let base = alloc::bytes(bytes)?;
    Ok(pmix_data_buffer_t {
        base_ptr: base,
        pack_ptr: base.wrapping_add(bytes.len()),
        unpack_ptr: base,
        bytes_allocated: bytes.len(),
        bytes_used: bytes.len(),
    })
}

/// # Safety
/// `b.base_ptr` is libc-allocated or NULL.
pub(crate) unsafe fn dbuf_destruct(b: &mut pmix_data_buffer_t) {
    // SAFETY: forwarded contract.
    unsafe { alloc::free(&mut b.base_ptr) };
    *b = pmix_data_buffer_t::zeroed();
}

// ---------------------------------------------------------------------------------------
// Info, pdata, app, query

/// # Safety
/// `i.value` is a valid value.
pub(crate) unsafe fn info_from_c(i: &pmix_info_t) -> Result<Info> {
    // SAFETY: forwarded contract.
    Ok(Info {
        key: ptr::fixed_str(&i.key)?,
        flags: i.flags,
        // SAFETY: forwarded contract.
        value: unsafe { value_from_c(&i.value) }?,
    })
}

/// The infos of a C array.
///
/// # Safety
/// `(p, n)` is a valid array of valid infos.
pub(crate) unsafe fn infos_from_c(p: *const pmix_info_t, n: usize) -> Result<Vec<Info>> {
    // SAFETY: forwarded contract.
    unsafe { ptr::slice(p, n) }?
        .iter()
        .map(|i| unsafe { info_from_c(i) })
        .collect()
}

pub(crate) fn info_to_c(i: &Info) -> Result<pmix_info_t> {
    let mut c = pmix_info_t::zeroed();
    if i.key.len() > PMIX_MAX_KEYLEN {
        return Err(Error::BadParam);
    }
    ptr::load_fixed(&mut c.key, i.key.as_bytes());
    c.flags = i.flags;
    c.value = value_to_c(&i.value)?;
    Ok(c)
}

/// Releases the value of an info, unless the info is marked `PMIX_INFO_PERSISTENT` (its value
/// then belongs to someone else, as after `PMIx_Info_list_insert`), like `PMIX_INFO_DESTRUCT`.
///
/// # Safety
/// `i.value` owns only libc-allocated memory, or `i` is persistent.
pub(crate) unsafe fn info_destruct(i: &mut pmix_info_t) {
    if i.flags & PMIX_INFO_PERSISTENT == 0 {
        // SAFETY: forwarded contract.
        unsafe { value_destruct(&mut i.value) };
    }
}

/// A calloc'd array of infos (NULL when empty); each keeps its own flags.
pub(crate) fn infos_to_c(infos: &[Info]) -> Result<*mut pmix_info_t> {
    let items: Vec<Value> = infos
        .iter()
        .map(|i| Value::Info(Box::new(i.clone())))
        .collect();
    Ok(array_to_c(&items, PMIX_INFO)?.cast())
}

/// # Safety
/// `p.value` is a valid value.
unsafe fn pdata_from_c(p: &pmix_pdata_t) -> Result<Pdata> {
    Ok(Pdata {
        proc: proc_from_c(&p.proc)?,
        key: ptr::fixed_str(&p.key)?,
        // SAFETY: forwarded contract.
        value: unsafe { value_from_c(&p.value) }?,
    })
}

fn pdata_to_c(p: &Pdata) -> Result<pmix_pdata_t> {
    let mut c = pmix_pdata_t::zeroed();
    if p.key.len() > PMIX_MAX_KEYLEN {
        return Err(Error::BadParam);
    }
    c.proc = proc_to_c(&p.proc);
    ptr::load_fixed(&mut c.key, p.key.as_bytes());
    c.value = value_to_c(&p.value)?;
    Ok(c)
}

/// # Safety
/// The fields of `a` are valid C strings, argv arrays and info arrays, or NULL.
pub(crate) unsafe fn app_from_c(a: &pmix_app_t) -> Result<App> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(App {
            cmd: ptr::opt_pstr(a.cmd),
            argv: ptr::argv(a.argv),
            env: ptr::argv(a.env),
            cwd: ptr::opt_pstr(a.cwd),
            maxprocs: a.maxprocs,
            info: infos_from_c(a.info, a.ninfo)?,
        })
    }
}

fn app_to_c(a: &App) -> Result<pmix_app_t> {
    build(
        |c: &mut pmix_app_t| {
            c.cmd = alloc::opt_cstring(a.cmd.as_ref())?;
            c.argv = alloc::argv(&a.argv)?;
            c.env = alloc::argv(&a.env)?;
            c.cwd = alloc::opt_cstring(a.cwd.as_ref())?;
            c.maxprocs = a.maxprocs;
            c.info = infos_to_c(&a.info)?;
            c.ninfo = a.info.len();
            Ok(())
        },
        app_destruct,
    )
}

/// # Safety
/// The pointers of `a` are libc-allocated or NULL.
pub(crate) unsafe fn app_destruct(a: &mut pmix_app_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free(&mut a.cmd);
        alloc::free_argv(a.argv);
        a.argv = core::ptr::null_mut();
        alloc::free_argv(a.env);
        a.env = core::ptr::null_mut();
        alloc::free(&mut a.cwd);
        array_free(a.info.cast(), a.ninfo, PMIX_INFO);
    }
    a.info = core::ptr::null_mut();
    a.ninfo = 0;
}

/// # Safety
/// The fields of `q` are a valid argv array and info array, or NULL.
pub(crate) unsafe fn query_from_c(q: &pmix_query_t) -> Result<Query> {
    // SAFETY: forwarded contract.
    unsafe {
        Ok(Query {
            keys: ptr::argv(q.keys),
            qualifiers: infos_from_c(q.qualifiers, q.nqual)?,
        })
    }
}

fn query_to_c(q: &Query) -> Result<pmix_query_t> {
    build(
        |c: &mut pmix_query_t| {
            c.keys = alloc::argv(&q.keys)?;
            c.qualifiers = infos_to_c(&q.qualifiers)?;
            c.nqual = q.qualifiers.len();
            Ok(())
        },
        query_destruct,
    )
}

/// # Safety
/// The pointers of `q` are libc-allocated or NULL.
pub(crate) unsafe fn query_destruct(q: &mut pmix_query_t) {
    // SAFETY: forwarded contract.
    unsafe {
        alloc::free_argv(q.keys);
        array_free(q.qualifiers.cast(), q.nqual, PMIX_INFO);
    }
    q.keys = core::ptr::null_mut();
    q.qualifiers = core::ptr::null_mut();
    q.nqual = 0;
}

// ---------------------------------------------------------------------------------------
// Data arrays

/// # Safety
/// `d.array` is NULL or holds `d.size` valid elements of type `d.type`.
pub(crate) unsafe fn darray_from_c(d: &pmix_data_array_t) -> Result<DataArray> {
    // SAFETY: forwarded contract.
    Ok(DataArray {
        ty: d.r#type,
        // SAFETY: forwarded contract.
        items: unsafe { array_from_c(d.array, d.size, d.r#type) }?,
    })
}

pub(crate) fn darray_to_c(d: &DataArray) -> Result<pmix_data_array_t> {
    Ok(pmix_data_array_t {
        r#type: d.ty,
        size: d.items.len(),
        array: array_to_c(&d.items, d.ty)?,
    })
}

/// # Safety
/// `d.array` is libc-allocated (or NULL) and holds `d.size` elements of type `d.type`.
pub(crate) unsafe fn darray_destruct(d: &mut pmix_data_array_t) {
    // SAFETY: forwarded contract.
    unsafe { array_free(d.array, d.size, d.r#type) };
    d.array = core::ptr::null_mut();
    d.size = 0;
}

/// Size in bytes of one element of type `ty` in a C array.
pub(crate) fn elem_size(ty: pmix_data_type_t) -> Result<usize> {
    Ok(match ty {
        PMIX_BOOL => size_of::<bool>(),
        PMIX_BYTE | PMIX_INT8 | PMIX_UINT8 | PMIX_PERSIST | PMIX_SCOPE | PMIX_DATA_RANGE
        | PMIX_COMMAND | PMIX_PROC_STATE | PMIX_ALLOC_DIRECTIVE | PMIX_JOB_STATE
        | PMIX_LINK_STATE => 1,
        PMIX_INT16
        | PMIX_UINT16
        | PMIX_DATA_TYPE
        | PMIX_IOF_CHANNEL
        | PMIX_LOCTYPE
        | PMIX_STOR_ACCESS_TYPE => 2,
        PMIX_INT | PMIX_INT32 | PMIX_UINT | PMIX_UINT32 | PMIX_STATUS | PMIX_PROC_RANK
        | PMIX_INFO_DIRECTIVES | PMIX_FLOAT => 4,
        PMIX_PID => size_of::<libc::pid_t>(),
        PMIX_INT64 | PMIX_UINT64 | PMIX_DOUBLE | PMIX_DEVTYPE | PMIX_STOR_MEDIUM
        | PMIX_STOR_ACCESS | PMIX_STOR_PERSIST => 8,
        PMIX_SIZE => size_of::<usize>(),
        PMIX_TIME => size_of::<libc::time_t>(),
        PMIX_TIMEVAL => size_of::<libc::timeval>(),
        PMIX_STRING | PMIX_REGEX | PMIX_POINTER => size_of::<*mut c_void>(),
        PMIX_VALUE => size_of::<pmix_value_t>(),
        PMIX_PROC => size_of::<pmix_proc_t>(),
        PMIX_APP => size_of::<pmix_app_t>(),
        PMIX_INFO => size_of::<pmix_info_t>(),
        PMIX_PDATA => size_of::<pmix_pdata_t>(),
        PMIX_BYTE_OBJECT | PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => {
            size_of::<pmix_byte_object_t>()
        }
        PMIX_PROC_INFO => size_of::<pmix_proc_info_t>(),
        PMIX_DATA_ARRAY => size_of::<pmix_data_array_t>(),
        PMIX_QUERY => size_of::<pmix_query_t>(),
        PMIX_ENVAR => size_of::<pmix_envar_t>(),
        PMIX_COORD => size_of::<pmix_coord_t>(),
        PMIX_REGATTR => size_of::<pmix_regattr_t>(),
        PMIX_PROC_CPUSET => size_of::<pmix_cpuset_t>(),
        PMIX_GEOMETRY => size_of::<pmix_geometry_t>(),
        PMIX_DEVICE_DIST => size_of::<pmix_device_distance_t>(),
        PMIX_ENDPOINT => size_of::<pmix_endpoint_t>(),
        PMIX_TOPO => size_of::<pmix_topology_t>(),
        PMIX_PROC_NSPACE => PMIX_NSPACE_BUFLEN,
        PMIX_PROC_STATS => size_of::<pmix_proc_stats_t>(),
        PMIX_DISK_STATS => size_of::<pmix_disk_stats_t>(),
        PMIX_NET_STATS => size_of::<pmix_net_stats_t>(),
        PMIX_NODE_STATS => size_of::<pmix_node_stats_t>(),
        PMIX_DATA_BUFFER => size_of::<pmix_data_buffer_t>(),
        // KVAL is an internal structure of the reference; UNDEF has no element form.
        PMIX_KVAL | PMIX_UNDEF => return Err(Error::NotSupported),
        other => return Err(Error::UnknownDataType(other)),
    })
}

/// Reads a `T` at `p`.
///
/// # Safety
/// `p` points to a valid `T` (alignment as C lays out arrays of T).
unsafe fn rd<T: Copy>(p: *const c_void) -> T {
    // SAFETY: forwarded contract.
    unsafe { p.cast::<T>().read() }
}

/// One element of type `ty` at `p`.
///
/// # Safety
/// `p` points to a valid C element of type `ty` (see `elem_size`).
pub(crate) unsafe fn elem_from_c(p: *const c_void, ty: pmix_data_type_t) -> Result<Value> {
    // SAFETY: every read below is of the C type that `ty` lays out at `p`.
    unsafe {
        Ok(match ty {
            PMIX_BOOL => Value::Bool(rd::<u8>(p) != 0),
            PMIX_BYTE => Value::Byte(rd(p)),
            PMIX_STRING => Value::String(ptr::opt_pstr(rd(p))),
            PMIX_SIZE => Value::Size(rd::<usize>(p) as u64),
            PMIX_PID => Value::Pid(rd(p)),
            PMIX_INT => Value::Int(rd(p)),
            PMIX_INT8 => Value::Int8(rd(p)),
            PMIX_INT16 => Value::Int16(rd(p)),
            PMIX_INT32 => Value::Int32(rd(p)),
            PMIX_INT64 => Value::Int64(rd(p)),
            PMIX_UINT => Value::Uint(rd(p)),
            PMIX_UINT8 => Value::Uint8(rd(p)),
            PMIX_UINT16 => Value::Uint16(rd(p)),
            PMIX_UINT32 => Value::Uint32(rd(p)),
            PMIX_UINT64 => Value::Uint64(rd(p)),
            PMIX_FLOAT => Value::Float(rd(p)),
            PMIX_DOUBLE => Value::Double(rd(p)),
            PMIX_TIMEVAL => Value::Timeval(tv_from_c(&rd(p))),
            PMIX_TIME => Value::Time(rd::<libc::time_t>(p)),
            PMIX_STATUS => Value::Status(rd(p)),
            PMIX_VALUE => value_from_c(&*p.cast::<pmix_value_t>())?,
            PMIX_PROC => Value::Proc(proc_from_c(&*p.cast())?),
            PMIX_APP => Value::App(Box::new(app_from_c(&*p.cast())?)),
            PMIX_INFO => Value::Info(Box::new(info_from_c(&*p.cast())?)),
            PMIX_PDATA => Value::Pdata(Box::new(pdata_from_c(&*p.cast())?)),
            PMIX_BYTE_OBJECT => Value::ByteObject(bo_from_c(&*p.cast())?),
            PMIX_COMPRESSED_STRING => Value::CompressedString(bo_from_c(&*p.cast())?),
            PMIX_COMPRESSED_BYTE_OBJECT => Value::CompressedByteObject(bo_from_c(&*p.cast())?),
            PMIX_PERSIST => Value::Persist(rd(p)),
            PMIX_POINTER => Value::Pointer(rd::<*mut c_void>(p) as usize),
            PMIX_SCOPE => Value::Scope(rd(p)),
            PMIX_DATA_RANGE => Value::DataRange(rd(p)),
            PMIX_COMMAND => Value::Command(rd(p)),
            PMIX_INFO_DIRECTIVES => Value::InfoDirectives(rd(p)),
            PMIX_DATA_TYPE => Value::DataType(rd(p)),
            PMIX_PROC_STATE => Value::ProcState(rd(p)),
            PMIX_PROC_INFO => Value::ProcInfo(Box::new(proc_info_from_c(&*p.cast())?)),
            PMIX_DATA_ARRAY => Value::DataArray(Box::new(darray_from_c(&*p.cast())?)),
            PMIX_PROC_RANK => Value::ProcRank(rd(p)),
            PMIX_QUERY => Value::Query(Box::new(query_from_c(&*p.cast())?)),
            PMIX_ALLOC_DIRECTIVE => Value::AllocDirective(rd(p)),
            PMIX_IOF_CHANNEL => Value::IofChannel(rd(p)),
            PMIX_ENVAR => Value::Envar(envar_from_c(&*p.cast())),
            PMIX_COORD => Value::Coord(Box::new(coord_from_c(&*p.cast())?)),
            PMIX_REGATTR => Value::Regattr(Box::new(regattr_from_c(&*p.cast())?)),
            PMIX_REGEX => {
                let s: *const c_char = rd(p);
                Value::Regex(match ptr::opt_pstr(s) {
                    Some(s) => {
                        let mut b = s.into_bytes();
                        b.push(0);
                        b
                    }
                    None => Vec::new(),
                })
            }
            PMIX_JOB_STATE => Value::JobState(rd(p)),
            PMIX_LINK_STATE => Value::LinkState(rd(p)),
            PMIX_PROC_CPUSET => Value::ProcCpuset(Box::new(hwloc::cpuset_from_c(&*p.cast())?)),
            PMIX_GEOMETRY => Value::Geometry(Box::new(geometry_from_c(&*p.cast())?)),
            PMIX_DEVICE_DIST => Value::DeviceDist(Box::new(devdist_from_c(&*p.cast()))),
            PMIX_ENDPOINT => Value::Endpoint(Box::new(endpoint_from_c(&*p.cast())?)),
            PMIX_TOPO => Value::Topo(Box::new(hwloc::topology_from_c(&*p.cast())?)),
            PMIX_DEVTYPE => Value::DevType(rd(p)),
            PMIX_LOCTYPE => Value::LocType(rd(p)),
            PMIX_PROC_NSPACE => {
                Value::ProcNspace(ptr::fixed_str(&*p.cast::<[c_char; PMIX_NSPACE_BUFLEN]>())?)
            }
            PMIX_PROC_STATS => Value::ProcStats(Box::new(proc_stats_from_c(&*p.cast())?)),
            PMIX_DISK_STATS => Value::DiskStats(Box::new(disk_stats_from_c(&*p.cast()))),
            PMIX_NET_STATS => Value::NetStats(Box::new(net_stats_from_c(&*p.cast()))),
            PMIX_NODE_STATS => Value::NodeStats(Box::new(node_stats_from_c(&*p.cast())?)),
            PMIX_DATA_BUFFER => Value::DataBuffer(dbuf_from_c(&*p.cast())?),
            PMIX_STOR_MEDIUM => Value::StorMedium(rd(p)),
            PMIX_STOR_ACCESS => Value::StorAccess(rd(p)),
            PMIX_STOR_PERSIST => Value::StorPersist(rd(p)),
            PMIX_STOR_ACCESS_TYPE => Value::StorAccessType(rd(p)),
            other => {
                elem_size(other)?;
                return Err(Error::NotSupported);
            }
        })
    }
}

/// The elements of a C array of `n` elements of type `ty`.
///
/// # Safety
/// `(p, n)` is a valid array of elements of type `ty`.
pub(crate) unsafe fn array_from_c(
    p: *const c_void,
    n: usize,
    ty: pmix_data_type_t,
) -> Result<Vec<Value>> {
    if n == 0 {
        // An empty array of any known type (UNDEF included) is fine.
        if ty != PMIX_UNDEF && !Value::is_known_type(ty) {
            return Err(Error::UnknownDataType(ty));
        }
        return Ok(Vec::new());
    }
    let size = elem_size(ty)?;
    if p.is_null() {
        return Err(Error::BadParam);
    }
    (0..n)
        // SAFETY: element i lies at p + i * size within the caller's array.
        .map(|i| unsafe { elem_from_c(p.cast::<u8>().add(i * size).cast(), ty) })
        .collect()
}

/// Writes a `T` at `p`.
///
/// # Safety
/// `p` is valid for writing a `T`.
unsafe fn wr<T>(p: *mut c_void, v: T) {
    // SAFETY: forwarded contract.
    unsafe { p.cast::<T>().write(v) }
}

/// Writes `v` as one C element of type `ty` at `p` (previous contents are overwritten, not
/// released). On error nothing is written.
///
/// # Safety
/// `p` is valid for writing one element of type `ty`.
pub(crate) unsafe fn elem_to_c(v: &Value, ty: pmix_data_type_t, p: *mut c_void) -> Result<()> {
    if ty == PMIX_VALUE {
        let c = value_to_c(v)?;
        // SAFETY: forwarded contract.
        unsafe { wr(p, c) };
        return Ok(());
    }
    if v.data_type() != ty {
        return Err(Error::TypeMismatch);
    }
    // SAFETY: each write is of the C type that `ty` lays out at `p`.
    unsafe {
        match v {
            Value::Undef => return Err(Error::NotSupported),
            Value::Bool(b) => wr(p, *b),
            Value::Byte(x) | Value::Uint8(x) | Value::Command(x) => wr(p, *x),
            Value::Persist(x)
            | Value::Scope(x)
            | Value::DataRange(x)
            | Value::ProcState(x)
            | Value::AllocDirective(x)
            | Value::JobState(x)
            | Value::LinkState(x) => wr(p, *x),
            Value::String(s) => wr(p, alloc::opt_cstring(s.as_ref())?),
            Value::Size(x) => wr(p, *x as usize),
            Value::Pid(x) | Value::Int(x) | Value::Int32(x) | Value::Status(x) => wr(p, *x),
            Value::Int8(x) => wr(p, *x),
            Value::Int16(x) => wr(p, *x),
            Value::Int64(x) | Value::Time(x) => wr(p, *x),
            Value::Uint(x) | Value::Uint32(x) | Value::ProcRank(x) | Value::InfoDirectives(x) => {
                wr(p, *x)
            }
            Value::Uint16(x)
            | Value::DataType(x)
            | Value::IofChannel(x)
            | Value::LocType(x)
            | Value::StorAccessType(x) => wr(p, *x),
            Value::Uint64(x)
            | Value::DevType(x)
            | Value::StorMedium(x)
            | Value::StorAccess(x)
            | Value::StorPersist(x) => wr(p, *x),
            Value::Float(x) => wr(p, *x),
            Value::Double(x) => wr(p, *x),
            Value::Timeval(t) => wr(p, tv_to_c(t)),
            Value::Proc(x) => wr(p, proc_to_c(x)),
            Value::App(x) => wr(p, app_to_c(x)?),
            Value::Info(x) => wr(p, info_to_c(x)?),
            Value::Pdata(x) => wr(p, pdata_to_c(x)?),
            Value::ByteObject(b) | Value::CompressedString(b) | Value::CompressedByteObject(b) => {
                wr(p, bo_to_c(b)?)
            }
            Value::Kval(_) => return Err(Error::NotSupported),
            Value::Pointer(a) => wr(p, *a as *mut c_void),
            Value::ProcInfo(x) => wr(p, proc_info_to_c(x)?),
            Value::DataArray(x) => wr(p, darray_to_c(x)?),
            Value::Query(x) => wr(p, query_to_c(x)?),
            Value::Envar(x) => wr(p, envar_to_c(x)?),
            Value::Coord(x) => wr(p, coord_to_c(x)?),
            Value::Regattr(x) => wr(p, regattr_to_c(x)?),
            Value::Regex(b) => wr(p, regex_to_cstring(b)?),
            Value::ProcCpuset(x) => wr(p, hwloc::cpuset_to_c(x)?),
            Value::Geometry(x) => wr(p, geometry_to_c(x)?),
            Value::DeviceDist(x) => wr(p, devdist_to_c(x)?),
            Value::Endpoint(x) => wr(p, endpoint_to_c(x)?),
            Value::Topo(x) => wr(p, hwloc::topology_to_c(x)?),
            Value::ProcNspace(s) => {
                let mut buf = [0 as c_char; PMIX_NSPACE_BUFLEN];
                ptr::load_fixed(&mut buf, s.as_bytes());
                wr(p, buf)
            }
            Value::ProcStats(x) => wr(p, proc_stats_to_c(x)?),
            Value::DiskStats(x) => wr(p, disk_stats_to_c(x)?),
            Value::NetStats(x) => wr(p, net_stats_to_c(x)?),
            Value::NodeStats(x) => wr(p, node_stats_to_c(x)?),
            Value::DataBuffer(b) => wr(p, dbuf_to_c(b)?),
        }
    }
    Ok(())
}

/// A regex held as raw bytes, as a C string (up to its first NUL).
fn regex_to_cstring(b: &[u8]) -> Result<*mut c_char> {
    if b.is_empty() {
        return Ok(core::ptr::null_mut());
    }
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    alloc::cstring(&b[..end])
}

/// A calloc'd C array of `items` as elements of type `ty` (NULL when empty). On error,
/// everything already converted is released.
pub(crate) fn array_to_c(items: &[Value], ty: pmix_data_type_t) -> Result<*mut c_void> {
    if items.is_empty() {
        if ty != PMIX_UNDEF && !Value::is_known_type(ty) {
            return Err(Error::UnknownDataType(ty));
        }
        return Ok(core::ptr::null_mut());
    }
    let size = elem_size(ty)?;
    let arr = alloc::calloc_bytes(items.len(), size)?;
    for (i, v) in items.iter().enumerate() {
        // SAFETY: slot i lies within the allocation of items.len() * size bytes.
        if let Err(e) = unsafe { elem_to_c(v, ty, arr.cast::<u8>().add(i * size).cast()) } {
            // SAFETY: the first i slots were written by elem_to_c and are owned here, even
            // the values of infos flagged persistent; the rest are zero.
            unsafe {
                clear_persistent(arr, i, ty);
                array_free(arr, i, ty);
            }
            return Err(e);
        }
    }
    Ok(arr)
}

/// Clears `PMIX_INFO_PERSISTENT` on every info in a C array (nested ones included), so that
/// releasing the array releases their values too: for arrays this library built and still
/// owns, whatever flags the data carries (an unpacked info keeps the flags its sender set).
///
/// # Safety
/// `(p, n)` is a valid array of elements of type `ty`.
pub(crate) unsafe fn clear_persistent(p: *mut c_void, n: usize, ty: pmix_data_type_t) {
    let Ok(size) = elem_size(ty) else {
        return;
    };
    if p.is_null() {
        return;
    }
    for i in 0..n {
        // SAFETY: element i lies within the array; each cast is the layout `ty` selects.
        unsafe {
            let e = p.cast::<u8>().add(i * size).cast::<c_void>();
            match ty {
                PMIX_INFO => {
                    let info = &mut *e.cast::<pmix_info_t>();
                    info.flags &= !PMIX_INFO_PERSISTENT;
                    clear_persistent((&mut info.value as *mut pmix_value_t).cast(), 1, PMIX_VALUE);
                }
                PMIX_VALUE => {
                    let v = &mut *e.cast::<pmix_value_t>();
                    if v.r#type == PMIX_DATA_ARRAY && !v.data.darray.is_null() {
                        clear_persistent(v.data.darray.cast(), 1, PMIX_DATA_ARRAY);
                    }
                }
                PMIX_DATA_ARRAY => {
                    let d = &mut *e.cast::<pmix_data_array_t>();
                    clear_persistent(d.array, d.size, d.r#type);
                }
                PMIX_PDATA => {
                    let d = &mut *e.cast::<pmix_pdata_t>();
                    clear_persistent((&mut d.value as *mut pmix_value_t).cast(), 1, PMIX_VALUE);
                }
                PMIX_APP => {
                    let a = &mut *e.cast::<pmix_app_t>();
                    clear_persistent(a.info.cast(), a.ninfo, PMIX_INFO);
                }
                PMIX_QUERY => {
                    let q = &mut *e.cast::<pmix_query_t>();
                    clear_persistent(q.qualifiers.cast(), q.nqual, PMIX_INFO);
                }
                _ => {}
            }
        }
    }
}

/// Releases what one element of type `ty` at `p` owns (not the element's own storage).
///
/// # Safety
/// `p` points to an element of type `ty` whose pointers are libc-allocated or NULL.
pub(crate) unsafe fn elem_destruct(p: *mut c_void, ty: pmix_data_type_t) {
    // SAFETY: each cast matches the C type that `ty` lays out at `p`.
    unsafe {
        match ty {
            PMIX_STRING | PMIX_REGEX => alloc::free(&mut *p.cast::<*mut c_char>()),
            PMIX_VALUE => value_destruct(&mut *p.cast()),
            PMIX_APP => app_destruct(&mut *p.cast()),
            PMIX_INFO => info_destruct(&mut *p.cast()),
            PMIX_PDATA => value_destruct(&mut (*p.cast::<pmix_pdata_t>()).value),
            PMIX_BYTE_OBJECT | PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => {
                bo_destruct(&mut *p.cast())
            }
            PMIX_PROC_INFO => proc_info_destruct(&mut *p.cast()),
            PMIX_DATA_ARRAY => darray_destruct(&mut *p.cast()),
            PMIX_QUERY => query_destruct(&mut *p.cast()),
            PMIX_ENVAR => envar_destruct(&mut *p.cast()),
            PMIX_COORD => coord_destruct(&mut *p.cast()),
            PMIX_REGATTR => regattr_destruct(&mut *p.cast()),
            PMIX_PROC_CPUSET => hwloc::cpuset_destruct(&mut *p.cast()),
            PMIX_GEOMETRY => geometry_destruct(&mut *p.cast()),
            PMIX_DEVICE_DIST => devdist_destruct(&mut *p.cast()),
            PMIX_ENDPOINT => endpoint_destruct(&mut *p.cast()),
            PMIX_TOPO => hwloc::topology_destruct(&mut *p.cast()),
            PMIX_PROC_STATS => proc_stats_destruct(&mut *p.cast()),
            PMIX_DISK_STATS => disk_stats_destruct(&mut *p.cast()),
            PMIX_NET_STATS => net_stats_destruct(&mut *p.cast()),
            PMIX_NODE_STATS => node_stats_destruct(&mut *p.cast()),
            PMIX_DATA_BUFFER => dbuf_destruct(&mut *p.cast()),
            _ => {}
        }
    }
}

/// Releases the elements of a C array and the array itself.
///
/// # Safety
/// `p` is NULL or a libc-allocated array of `n` elements of type `ty` as `elem_destruct`
/// expects.
pub(crate) unsafe fn array_free(p: *mut c_void, n: usize, ty: pmix_data_type_t) {
    if p.is_null() {
        return;
    }
    if let Ok(size) = elem_size(ty) {
        for i in 0..n {
            // SAFETY: element i lies within the array.
            unsafe { elem_destruct(p.cast::<u8>().add(i * size).cast(), ty) };
        }
    }
    // SAFETY: the array came from libc.
    unsafe { libc::free(p) };
}

// ---------------------------------------------------------------------------------------
// pmix_value_t

/// Reads a required pointer member of a value.
///
/// # Safety
/// `p` is NULL or valid.
unsafe fn deref<'a, T>(p: *const T) -> Result<&'a T> {
    // SAFETY: forwarded contract.
    unsafe { ptr::req(p) }
}

/// The core value held by a C `pmix_value_t`.
///
/// # Safety
/// The union member that `v.type` selects is initialised, and its pointers are valid or NULL.
pub(crate) unsafe fn value_from_c(v: &pmix_value_t) -> Result<Value> {
    let d = &v.data;
    // SAFETY: the union member read in each arm is the one `v.type` selects.
    unsafe {
        Ok(match v.r#type {
            PMIX_UNDEF => Value::Undef,
            PMIX_BOOL => Value::Bool(d.byte != 0),
            PMIX_BYTE => Value::Byte(d.byte),
            PMIX_STRING => Value::String(ptr::opt_pstr(d.string)),
            PMIX_SIZE => Value::Size(d.size as u64),
            PMIX_PID => Value::Pid(d.pid),
            PMIX_INT => Value::Int(d.integer),
            PMIX_INT8 => Value::Int8(d.int8),
            PMIX_INT16 => Value::Int16(d.int16),
            PMIX_INT32 => Value::Int32(d.int32),
            PMIX_INT64 => Value::Int64(d.int64),
            PMIX_UINT => Value::Uint(d.uint),
            PMIX_UINT8 => Value::Uint8(d.uint8),
            PMIX_UINT16 => Value::Uint16(d.uint16),
            PMIX_UINT32 => Value::Uint32(d.uint32),
            PMIX_UINT64 => Value::Uint64(d.uint64),
            PMIX_FLOAT => Value::Float(d.fval),
            PMIX_DOUBLE => Value::Double(d.dval),
            PMIX_TIMEVAL => Value::Timeval(tv_from_c(&d.tv)),
            PMIX_TIME => Value::Time(d.time),
            PMIX_STATUS => Value::Status(d.status),
            PMIX_PROC => Value::Proc(proc_from_c(deref(d.proc)?)?),
            PMIX_BYTE_OBJECT => Value::ByteObject(bo_from_c(&d.bo)?),
            PMIX_COMPRESSED_STRING => Value::CompressedString(bo_from_c(&d.bo)?),
            PMIX_COMPRESSED_BYTE_OBJECT => Value::CompressedByteObject(bo_from_c(&d.bo)?),
            PMIX_REGEX => Value::Regex(bo_from_c(&d.bo)?),
            PMIX_PERSIST => Value::Persist(d.persist),
            PMIX_POINTER => Value::Pointer(d.ptr as usize),
            PMIX_SCOPE => Value::Scope(d.scope),
            PMIX_DATA_RANGE => Value::DataRange(d.range),
            PMIX_COMMAND => Value::Command(d.uint8),
            PMIX_INFO_DIRECTIVES => Value::InfoDirectives(d.uint32),
            PMIX_DATA_TYPE => Value::DataType(d.uint16),
            PMIX_PROC_STATE => Value::ProcState(d.state),
            PMIX_PROC_INFO => Value::ProcInfo(Box::new(proc_info_from_c(deref(d.pinfo)?)?)),
            PMIX_DATA_ARRAY => Value::DataArray(Box::new(darray_from_c(deref(d.darray)?)?)),
            PMIX_PROC_RANK => Value::ProcRank(d.rank),
            PMIX_ALLOC_DIRECTIVE => Value::AllocDirective(d.adir),
            PMIX_IOF_CHANNEL => Value::IofChannel(d.uint16),
            PMIX_ENVAR => Value::Envar(envar_from_c(&d.envar)),
            PMIX_COORD => Value::Coord(Box::new(coord_from_c(deref(d.coord)?)?)),
            PMIX_REGATTR => Value::Regattr(Box::new(regattr_from_c(deref(
                d.ptr.cast::<pmix_regattr_t>(),
            )?)?)),
            PMIX_JOB_STATE => Value::JobState(d.jstate),
            PMIX_LINK_STATE => Value::LinkState(d.linkstate),
            PMIX_PROC_CPUSET => {
                Value::ProcCpuset(Box::new(hwloc::cpuset_from_c(deref(d.cpuset)?)?))
            }
            PMIX_GEOMETRY => Value::Geometry(Box::new(geometry_from_c(deref(d.geometry)?)?)),
            PMIX_DEVICE_DIST => Value::DeviceDist(Box::new(devdist_from_c(deref(d.devdist)?))),
            PMIX_ENDPOINT => Value::Endpoint(Box::new(endpoint_from_c(deref(d.endpoint)?)?)),
            PMIX_TOPO => Value::Topo(Box::new(hwloc::topology_from_c(deref(d.topo)?)?)),
            PMIX_DEVTYPE => Value::DevType(d.devtype),
            PMIX_LOCTYPE => Value::LocType(d.locality),
            PMIX_PROC_NSPACE => Value::ProcNspace(ptr::fixed_str(deref(d.nspace)?)?),
            PMIX_PROC_STATS => Value::ProcStats(Box::new(proc_stats_from_c(deref(d.pstats)?)?)),
            PMIX_DISK_STATS => Value::DiskStats(Box::new(disk_stats_from_c(deref(d.dkstats)?))),
            PMIX_NET_STATS => Value::NetStats(Box::new(net_stats_from_c(deref(d.netstats)?))),
            PMIX_NODE_STATS => Value::NodeStats(Box::new(node_stats_from_c(deref(d.ndstats)?)?)),
            PMIX_DATA_BUFFER => Value::DataBuffer(dbuf_from_c(deref(d.dbuf)?)?),
            PMIX_STOR_MEDIUM => Value::StorMedium(d.uint64),
            PMIX_STOR_ACCESS => Value::StorAccess(d.uint64),
            PMIX_STOR_PERSIST => Value::StorPersist(d.uint64),
            PMIX_STOR_ACCESS_TYPE => Value::StorAccessType(d.uint16),
            t if Value::is_known_type(t) => return Err(Error::NotSupported),
            t => return Err(Error::UnknownDataType(t)),
        })
    }
}

/// A C `pmix_value_t` holding `v`, every pointer in it libc-allocated.
pub(crate) fn value_to_c(v: &Value) -> Result<pmix_value_t> {
    let mut c = pmix_value_t::zeroed();
    let d = &mut c.data;
    match v {
        Value::Undef => {}
        Value::Bool(b) => d.flag = *b,
        Value::Byte(x) | Value::Uint8(x) | Value::Command(x) => d.uint8 = *x,
        Value::Persist(x) => d.persist = *x,
        Value::Scope(x) => d.scope = *x,
        Value::DataRange(x) => d.range = *x,
        Value::ProcState(x) => d.state = *x,
        Value::AllocDirective(x) => d.adir = *x,
        Value::JobState(x) => d.jstate = *x,
        Value::LinkState(x) => d.linkstate = *x,
        Value::String(s) => d.string = alloc::opt_cstring(s.as_ref())?,
        Value::Size(x) => d.size = *x as usize,
        Value::Pid(x) => d.pid = *x,
        Value::Int(x) => d.integer = *x,
        Value::Int8(x) => d.int8 = *x,
        Value::Int16(x) => d.int16 = *x,
        Value::Int32(x) => d.int32 = *x,
        Value::Int64(x) => d.int64 = *x,
        Value::Uint(x) => d.uint = *x,
        Value::Uint16(x) | Value::DataType(x) | Value::IofChannel(x) | Value::StorAccessType(x) => {
            d.uint16 = *x
        }
        Value::LocType(x) => d.locality = *x,
        Value::Uint32(x) | Value::InfoDirectives(x) => d.uint32 = *x,
        Value::ProcRank(x) => d.rank = *x,
        Value::Uint64(x) | Value::StorMedium(x) | Value::StorAccess(x) | Value::StorPersist(x) => {
            d.uint64 = *x
        }
        Value::DevType(x) => d.devtype = *x,
        Value::Float(x) => d.fval = *x,
        Value::Double(x) => d.dval = *x,
        Value::Timeval(t) => d.tv = tv_to_c(t),
        Value::Time(x) => d.time = *x,
        Value::Status(x) => d.status = *x,
        Value::Proc(p) => d.proc = boxed(proc_to_c(p))?,
        Value::ByteObject(b)
        | Value::CompressedString(b)
        | Value::CompressedByteObject(b)
        | Value::Regex(b) => d.bo = bo_to_c(b)?,
        Value::Pointer(a) => d.ptr = *a as *mut c_void,
        Value::ProcInfo(x) => d.pinfo = boxed_or_destruct(proc_info_to_c(x)?, proc_info_destruct)?,
        Value::DataArray(x) => d.darray = boxed_or_destruct(darray_to_c(x)?, darray_destruct)?,
        Value::Envar(x) => d.envar = envar_to_c(x)?,
        Value::Coord(x) => d.coord = boxed_or_destruct(coord_to_c(x)?, coord_destruct)?,
        Value::Regattr(x) => d.ptr = boxed_or_destruct(regattr_to_c(x)?, regattr_destruct)?.cast(),
        Value::ProcCpuset(x) => {
            d.cpuset = boxed_or_destruct(hwloc::cpuset_to_c(x)?, hwloc::cpuset_destruct)?
        }
        Value::Geometry(x) => d.geometry = boxed_or_destruct(geometry_to_c(x)?, geometry_destruct)?,
        Value::DeviceDist(x) => d.devdist = boxed_or_destruct(devdist_to_c(x)?, devdist_destruct)?,
        Value::Endpoint(x) => d.endpoint = boxed_or_destruct(endpoint_to_c(x)?, endpoint_destruct)?,
        Value::Topo(x) => {
            d.topo = boxed_or_destruct(hwloc::topology_to_c(x)?, hwloc::topology_destruct)?
        }
        Value::ProcNspace(s) => {
            let mut buf = [0 as c_char; PMIX_NSPACE_BUFLEN];
            ptr::load_fixed(&mut buf, s.as_bytes());
            d.nspace = boxed(buf)?;
        }
        Value::ProcStats(x) => {
            d.pstats = boxed_or_destruct(proc_stats_to_c(x)?, proc_stats_destruct)?
        }
        Value::DiskStats(x) => {
            d.dkstats = boxed_or_destruct(disk_stats_to_c(x)?, disk_stats_destruct)?
        }
        Value::NetStats(x) => {
            d.netstats = boxed_or_destruct(net_stats_to_c(x)?, net_stats_destruct)?
        }
        Value::NodeStats(x) => {
            d.ndstats = boxed_or_destruct(node_stats_to_c(x)?, node_stats_destruct)?
        }
        Value::DataBuffer(b) => d.dbuf = boxed_or_destruct(dbuf_to_c(b)?, dbuf_destruct)?,
        Value::App(_) | Value::Info(_) | Value::Pdata(_) | Value::Kval(_) | Value::Query(_) => {
            return Err(Error::NotSupported);
        }
    }
    c.r#type = v.data_type();
    Ok(c)
}

/// Moves `v` to a libc allocation; if that fails, releases what `v` owns.
fn boxed_or_destruct<T>(mut v: T, destruct: unsafe fn(&mut T)) -> Result<*mut T> {
    match alloc::calloc::<T>(1) {
        Ok(p) => {
            // SAFETY: `p` is a fresh allocation of one T.
            unsafe { p.write(v) };
            Ok(p)
        }
        Err(e) => {
            // SAFETY: `v` owns only libc allocations made by a `*_to_c` builder.
            unsafe { destruct(&mut v) };
            Err(e)
        }
    }
}

/// Frees a libc-allocated struct after releasing its contents.
///
/// # Safety
/// `p` is NULL or a libc allocation of a `T` that `destruct` accepts.
unsafe fn free_boxed<T>(p: *mut T, destruct: unsafe fn(&mut T)) {
    if !p.is_null() {
        // SAFETY: forwarded contract.
        unsafe {
            destruct(&mut *p);
            libc::free(p.cast());
        }
    }
}

/// Releases what a `pmix_value_t` owns and marks it `PMIX_UNDEF`.
///
/// # Safety
/// The member that `v.type` selects owns only libc-allocated memory (or NULL pointers).
pub(crate) unsafe fn value_destruct(v: &mut pmix_value_t) {
    let d = &mut v.data;
    // SAFETY: the member touched in each arm is the one `v.type` selects.
    unsafe {
        match v.r#type {
            PMIX_STRING => alloc::free(&mut d.string),
            PMIX_PROC => alloc::free(&mut d.proc),
            PMIX_PROC_NSPACE => alloc::free(&mut d.nspace),
            PMIX_BYTE_OBJECT
            | PMIX_COMPRESSED_STRING
            | PMIX_COMPRESSED_BYTE_OBJECT
            | PMIX_REGEX => bo_destruct(&mut d.bo),
            PMIX_PROC_INFO => free_boxed(d.pinfo, proc_info_destruct),
            PMIX_DATA_ARRAY => free_boxed(d.darray, darray_destruct),
            PMIX_ENVAR => envar_destruct(&mut d.envar),
            PMIX_COORD => free_boxed(d.coord, coord_destruct),
            PMIX_REGATTR => free_boxed(d.ptr.cast::<pmix_regattr_t>(), regattr_destruct),
            PMIX_PROC_CPUSET => free_boxed(d.cpuset, hwloc::cpuset_destruct),
            PMIX_GEOMETRY => free_boxed(d.geometry, geometry_destruct),
            PMIX_DEVICE_DIST => free_boxed(d.devdist, devdist_destruct),
            PMIX_ENDPOINT => free_boxed(d.endpoint, endpoint_destruct),
            PMIX_TOPO => free_boxed(d.topo, hwloc::topology_destruct),
            PMIX_PROC_STATS => free_boxed(d.pstats, proc_stats_destruct),
            PMIX_DISK_STATS => free_boxed(d.dkstats, disk_stats_destruct),
            PMIX_NET_STATS => free_boxed(d.netstats, net_stats_destruct),
            PMIX_NODE_STATS => free_boxed(d.ndstats, node_stats_destruct),
            PMIX_DATA_BUFFER => free_boxed(d.dbuf, dbuf_destruct),
            _ => {}
        }
    }
    *v = pmix_value_t::zeroed();
}

/// A NUL-terminated key for the C API (`PStr` with at most `PMIX_MAX_KEYLEN` bytes).
pub(crate) fn key_from_cstr(k: &core::ffi::CStr) -> Result<PStr> {
    let b = k.to_bytes();
    if b.len() > PMIX_MAX_KEYLEN {
        return Err(Error::BadParam);
    }
    Ok(PStr::from(b))
}
