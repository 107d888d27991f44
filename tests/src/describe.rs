//! Deterministic text renderings of C PMIx data, for comparing what two libraries produced:
//! every field that carries data, never an address (except `PMIX_POINTER` values, which are
//! addresses by nature).

use std::ffi::{CStr, c_char, c_void};
use std::fmt::Write;

use pmix_sys::*;

fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        "NULL".into()
    } else {
        // SAFETY: callers pass C strings from a PMIx library.
        format!("{:?}", unsafe { CStr::from_ptr(p) }.to_string_lossy())
    }
}

fn fixed(buf: &[c_char]) -> String {
    let n = buf.iter().position(|&c| c == 0).unwrap_or(buf.len());
    let bytes: Vec<u8> = buf[..n].iter().map(|&c| c as u8).collect();
    format!("{:?}", String::from_utf8_lossy(&bytes))
}

/// # Safety
/// `p` is NULL or a NULL-terminated array of C strings.
unsafe fn argv(p: *const *mut c_char) -> String {
    if p.is_null() {
        return "NULL".into();
    }
    let mut out = Vec::new();
    let mut i = 0;
    // SAFETY: NULL-terminated per the contract.
    while let Some(s) = unsafe { (*p.add(i)).as_ref() } {
        out.push(cstr(s));
        i += 1;
    }
    format!("[{}]", out.join(","))
}

/// # Safety
/// `p` is NULL or points to `n` bytes.
unsafe fn bytes(p: *const c_char, n: usize) -> String {
    if n == 0 {
        // Whether an empty array has a (zero-size) allocation or NULL carries no data.
        return String::new();
    }
    if p.is_null() {
        return format!("NULL/{n}");
    }
    // SAFETY: forwarded contract.
    let b = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
    b.iter().map(|x| format!("{x:02x}")).collect::<String>()
}

fn tv(t: &libc::timeval) -> String {
    format!("{}.{}", t.tv_sec, t.tv_usec)
}

fn proc_(p: &pmix_proc_t) -> String {
    format!("{}:{}", fixed(&p.nspace), p.rank)
}

/// # Safety
/// `p` is NULL or a valid `T`.
unsafe fn opt<T>(p: *const T, f: impl FnOnce(&T) -> String) -> String {
    // SAFETY: forwarded contract.
    match unsafe { p.as_ref() } {
        Some(r) => f(r),
        None => "NULL".into(),
    }
}

/// Size of one element of type `ty` in a C array (the types this harness renders).
pub fn elem_size(ty: pmix_data_type_t) -> Option<usize> {
    use std::mem::size_of;
    Some(match ty {
        PMIX_BOOL | PMIX_BYTE | PMIX_INT8 | PMIX_UINT8 | PMIX_PERSIST | PMIX_SCOPE
        | PMIX_DATA_RANGE | PMIX_COMMAND | PMIX_PROC_STATE | PMIX_ALLOC_DIRECTIVE
        | PMIX_JOB_STATE | PMIX_LINK_STATE => 1,
        PMIX_INT16
        | PMIX_UINT16
        | PMIX_DATA_TYPE
        | PMIX_IOF_CHANNEL
        | PMIX_LOCTYPE
        | PMIX_STOR_ACCESS_TYPE => 2,
        PMIX_INT | PMIX_INT32 | PMIX_UINT | PMIX_UINT32 | PMIX_STATUS | PMIX_PROC_RANK
        | PMIX_INFO_DIRECTIVES | PMIX_FLOAT | PMIX_PID => 4,
        PMIX_INT64 | PMIX_UINT64 | PMIX_DOUBLE | PMIX_DEVTYPE | PMIX_STOR_MEDIUM
        | PMIX_STOR_ACCESS | PMIX_STOR_PERSIST | PMIX_SIZE | PMIX_TIME | PMIX_STRING
        | PMIX_POINTER | PMIX_REGEX => 8,
        PMIX_TIMEVAL => size_of::<libc::timeval>(),
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
        PMIX_PROC_NSPACE => PMIX_MAX_NSLEN + 1,
        PMIX_PROC_STATS => size_of::<pmix_proc_stats_t>(),
        PMIX_DISK_STATS => size_of::<pmix_disk_stats_t>(),
        PMIX_NET_STATS => size_of::<pmix_net_stats_t>(),
        PMIX_NODE_STATS => size_of::<pmix_node_stats_t>(),
        PMIX_DATA_BUFFER => size_of::<pmix_data_buffer_t>(),
        _ => return None,
    })
}

/// Renders one C element of type `ty` at `p`.
///
/// # Safety
/// `p` points to a valid element of type `ty`.
pub unsafe fn elem(p: *const c_void, ty: pmix_data_type_t) -> String {
    // Both are used only inside the unsafe block below, where `p` holds a `$t`.
    macro_rules! rd {
        ($t:ty) => {
            p.cast::<$t>().read_unaligned()
        };
    }
    macro_rules! rf {
        ($t:ty) => {
            &*p.cast::<$t>()
        };
    }
    // SAFETY: each arm reads the C type that `ty` lays out at `p`.
    unsafe {
        match ty {
            PMIX_BOOL => format!("{}", rd!(u8) != 0),
            PMIX_BYTE | PMIX_UINT8 | PMIX_PERSIST | PMIX_SCOPE | PMIX_DATA_RANGE | PMIX_COMMAND
            | PMIX_PROC_STATE | PMIX_ALLOC_DIRECTIVE | PMIX_JOB_STATE | PMIX_LINK_STATE => {
                format!("{}", rd!(u8))
            }
            PMIX_INT8 => format!("{}", rd!(i8)),
            PMIX_INT16 => format!("{}", rd!(i16)),
            PMIX_UINT16
            | PMIX_DATA_TYPE
            | PMIX_IOF_CHANNEL
            | PMIX_LOCTYPE
            | PMIX_STOR_ACCESS_TYPE => {
                format!("{}", rd!(u16))
            }
            PMIX_INT | PMIX_INT32 | PMIX_STATUS | PMIX_PID => format!("{}", rd!(i32)),
            PMIX_UINT | PMIX_UINT32 | PMIX_PROC_RANK | PMIX_INFO_DIRECTIVES => {
                format!("{}", rd!(u32))
            }
            PMIX_FLOAT => format!("{:?}", rd!(f32)),
            PMIX_DOUBLE => format!("{:?}", rd!(f64)),
            PMIX_INT64 | PMIX_TIME => format!("{}", rd!(i64)),
            PMIX_UINT64 | PMIX_SIZE | PMIX_DEVTYPE | PMIX_STOR_MEDIUM | PMIX_STOR_ACCESS
            | PMIX_STOR_PERSIST => {
                format!("{}", rd!(u64))
            }
            PMIX_STRING | PMIX_REGEX => cstr(rd!(*const c_char)),
            PMIX_POINTER => format!("{:?}", rd!(*const c_void)),
            PMIX_TIMEVAL => tv(rf!(libc::timeval)),
            PMIX_VALUE => value(rf!(pmix_value_t)),
            PMIX_PROC => proc_(rf!(pmix_proc_t)),
            PMIX_PROC_NSPACE => fixed(rf!([c_char; PMIX_MAX_NSLEN + 1])),
            PMIX_INFO => info(rf!(pmix_info_t)),
            PMIX_PDATA => {
                let d = rf!(pmix_pdata_t);
                format!(
                    "pdata({},{},{})",
                    proc_(&d.proc),
                    fixed(&d.key),
                    value(&d.value)
                )
            }
            PMIX_APP => {
                let a = rf!(pmix_app_t);
                format!(
                    "app(cmd={},argv={},env={},cwd={},maxprocs={},info={})",
                    cstr(a.cmd),
                    argv(a.argv),
                    argv(a.env),
                    cstr(a.cwd),
                    a.maxprocs,
                    array(a.info.cast(), a.ninfo, PMIX_INFO)
                )
            }
            PMIX_QUERY => {
                let q = rf!(pmix_query_t);
                format!(
                    "query(keys={},qual={})",
                    argv(q.keys),
                    array(q.qualifiers.cast(), q.nqual, PMIX_INFO)
                )
            }
            PMIX_BYTE_OBJECT | PMIX_COMPRESSED_STRING | PMIX_COMPRESSED_BYTE_OBJECT => {
                let b = rf!(pmix_byte_object_t);
                format!("bo({})", bytes(b.bytes, b.size))
            }
            PMIX_PROC_INFO => {
                let i = rf!(pmix_proc_info_t);
                format!(
                    "pinfo({},{},{},pid={},exit={},state={})",
                    proc_(&i.proc),
                    cstr(i.hostname),
                    cstr(i.executable_name),
                    i.pid,
                    i.exit_code,
                    i.state
                )
            }
            PMIX_DATA_ARRAY => darray(rf!(pmix_data_array_t)),
            PMIX_ENVAR => {
                let e = rf!(pmix_envar_t);
                format!(
                    "envar({},{},{})",
                    cstr(e.envar),
                    cstr(e.value),
                    e.separator as u8
                )
            }
            PMIX_COORD => coord(rf!(pmix_coord_t)),
            PMIX_REGATTR => {
                let r = rf!(pmix_regattr_t);
                format!(
                    "regattr({},{},{},{})",
                    cstr(r.name),
                    fixed(&r.string),
                    r.r#type,
                    argv(r.description)
                )
            }
            PMIX_PROC_CPUSET => {
                let c = rf!(pmix_cpuset_t);
                format!(
                    "cpuset({},{})",
                    cstr(c.source),
                    if c.bitmap.is_null() { "NULL" } else { "bitmap" }
                )
            }
            PMIX_TOPO => {
                let t = rf!(pmix_topology_t);
                format!(
                    "topo({},{})",
                    cstr(t.source),
                    if t.topology.is_null() {
                        "NULL"
                    } else {
                        "topology"
                    }
                )
            }
            PMIX_GEOMETRY => {
                let g = rf!(pmix_geometry_t);
                let coords: Vec<String> = (0..g.ncoords)
                    .map(|i| coord(&*g.coordinates.add(i)))
                    .collect();
                format!(
                    "geometry({},{},{},[{}])",
                    g.fabric,
                    cstr(g.uuid),
                    cstr(g.osname),
                    coords.join(",")
                )
            }
            PMIX_DEVICE_DIST => {
                let d = rf!(pmix_device_distance_t);
                format!(
                    "devdist({},{},{},{},{})",
                    cstr(d.uuid),
                    cstr(d.osname),
                    d.r#type,
                    d.mindist,
                    d.maxdist
                )
            }
            PMIX_ENDPOINT => {
                let e = rf!(pmix_endpoint_t);
                format!(
                    "endpoint({},{},{})",
                    cstr(e.uuid),
                    cstr(e.osname),
                    bytes(e.endpt.bytes, e.endpt.size)
                )
            }
            PMIX_PROC_STATS => {
                let s = rf!(pmix_proc_stats_t);
                format!(
                    "pstats({},{},{},{},{},{},{:?},{},{},{:?},{:?},{:?},{:?},{},{})",
                    cstr(s.node),
                    proc_(&s.proc),
                    s.pid,
                    cstr(s.cmd),
                    s.state as u8,
                    tv(&s.time),
                    s.percent_cpu,
                    s.priority,
                    s.num_threads,
                    s.pss,
                    s.vsize,
                    s.rss,
                    s.peak_vsize,
                    s.processor,
                    tv(&s.sample_time)
                )
            }
            PMIX_DISK_STATS => disk(rf!(pmix_disk_stats_t)),
            PMIX_NET_STATS => net(rf!(pmix_net_stats_t)),
            PMIX_NODE_STATS => {
                let n = rf!(pmix_node_stats_t);
                let disks: Vec<String> = (0..n.ndiskstats)
                    .map(|i| disk(&*n.diskstats.add(i)))
                    .collect();
                let nets: Vec<String> =
                    (0..n.nnetstats).map(|i| net(&*n.netstats.add(i))).collect();
                format!(
                    "ndstats({},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{},[{}],[{}])",
                    cstr(n.node),
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
                    tv(&n.sample_time),
                    disks.join(","),
                    nets.join(",")
                )
            }
            PMIX_DATA_BUFFER => {
                let b = rf!(pmix_data_buffer_t);
                format!("dbuf({})", bytes(b.base_ptr, b.bytes_used))
            }
            other => format!("<type {other}>"),
        }
    }
}

fn coord(c: &pmix_coord_t) -> String {
    // SAFETY: coord points to dims values.
    let v: Vec<String> = (0..c.dims)
        .map(|i| unsafe { *c.coord.add(i) }.to_string())
        .collect();
    format!("coord({},[{}])", c.view, v.join(","))
}

fn disk(d: &pmix_disk_stats_t) -> String {
    format!(
        "disk({},{},{},{},{},{},{},{},{},{},{},{})",
        cstr(d.disk),
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
        d.weighted_milliseconds_io
    )
}

fn net(n: &pmix_net_stats_t) -> String {
    format!(
        "net({},{},{},{},{},{},{})",
        cstr(n.net_interface),
        n.num_bytes_recvd,
        n.num_packets_recvd,
        n.num_recv_errs,
        n.num_bytes_sent,
        n.num_packets_sent,
        n.num_send_errs
    )
}

/// Renders a C array of `n` elements of type `ty`.
///
/// # Safety
/// `(p, n)` is a valid array of elements of type `ty`.
pub unsafe fn array(p: *const c_void, n: usize, ty: pmix_data_type_t) -> String {
    if p.is_null() {
        return format!("NULL[{n}]");
    }
    let Some(size) = elem_size(ty) else {
        return format!("<array of type {ty}>");
    };
    // SAFETY: element i lies within the array.
    let items: Vec<String> = (0..n)
        .map(|i| unsafe { elem(p.cast::<u8>().add(i * size).cast(), ty) })
        .collect();
    format!("[{}]", items.join(","))
}

/// Renders a data array.
pub fn darray(d: &pmix_data_array_t) -> String {
    // SAFETY: a data array from a PMIx library holds `size` elements of `type`.
    format!("darray({},{})", d.r#type, unsafe {
        array(d.array, d.size, d.r#type)
    })
}

/// Renders an info.
pub fn info(i: &pmix_info_t) -> String {
    format!(
        "info({},flags={:x},{})",
        fixed(&i.key),
        i.flags,
        value(&i.value)
    )
}

/// Renders a value (its type and the union member that type selects).
pub fn value(v: &pmix_value_t) -> String {
    let d = &v.data;
    // SAFETY: the member read is the one `v.type` selects; pointers come from a PMIx library.
    let body = unsafe {
        match v.r#type {
            PMIX_UNDEF => String::new(),
            PMIX_BOOL => format!("{}", d.flag),
            PMIX_STRING => cstr(d.string),
            PMIX_PROC => opt(d.proc, proc_),
            PMIX_PROC_NSPACE => opt(d.nspace, |n| fixed(n)),
            PMIX_BYTE_OBJECT
            | PMIX_COMPRESSED_STRING
            | PMIX_COMPRESSED_BYTE_OBJECT
            | PMIX_REGEX => {
                format!("bo({})", bytes(d.bo.bytes, d.bo.size))
            }
            PMIX_PROC_INFO => opt(d.pinfo, |p| {
                elem((p as *const pmix_proc_info_t).cast(), PMIX_PROC_INFO)
            }),
            PMIX_DATA_ARRAY => opt(d.darray, darray),
            PMIX_ENVAR => elem((&d.envar as *const pmix_envar_t).cast(), PMIX_ENVAR),
            PMIX_COORD => opt(d.coord, coord),
            PMIX_REGATTR => opt(d.ptr.cast::<pmix_regattr_t>(), |r| {
                elem((r as *const pmix_regattr_t).cast(), PMIX_REGATTR)
            }),
            PMIX_PROC_CPUSET => opt(d.cpuset, |c| {
                elem((c as *const pmix_cpuset_t).cast(), PMIX_PROC_CPUSET)
            }),
            PMIX_TOPO => opt(d.topo, |t| {
                elem((t as *const pmix_topology_t).cast(), PMIX_TOPO)
            }),
            PMIX_GEOMETRY => opt(d.geometry, |g| {
                elem((g as *const pmix_geometry_t).cast(), PMIX_GEOMETRY)
            }),
            PMIX_DEVICE_DIST => opt(d.devdist, |x| {
                elem(
                    (x as *const pmix_device_distance_t).cast(),
                    PMIX_DEVICE_DIST,
                )
            }),
            PMIX_ENDPOINT => opt(d.endpoint, |x| {
                elem((x as *const pmix_endpoint_t).cast(), PMIX_ENDPOINT)
            }),
            PMIX_PROC_STATS => opt(d.pstats, |x| {
                elem((x as *const pmix_proc_stats_t).cast(), PMIX_PROC_STATS)
            }),
            PMIX_DISK_STATS => opt(d.dkstats, disk),
            PMIX_NET_STATS => opt(d.netstats, net),
            PMIX_NODE_STATS => opt(d.ndstats, |x| {
                elem((x as *const pmix_node_stats_t).cast(), PMIX_NODE_STATS)
            }),
            PMIX_DATA_BUFFER => opt(d.dbuf, |x| {
                elem((x as *const pmix_data_buffer_t).cast(), PMIX_DATA_BUFFER)
            }),
            PMIX_POINTER => format!("{:?}", d.ptr),
            t => match elem_size(t) {
                Some(_) => elem((d as *const pmix_value_data_t).cast(), t),
                None => "?".into(),
            },
        }
    };
    let mut s = String::new();
    write!(s, "v{}({})", v.r#type, body).unwrap();
    s
}
