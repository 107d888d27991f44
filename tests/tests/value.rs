//! `PMIx_Value_load/unload/xfer/compare/destruct`, `PMIx_Info_load/xfer` and
//! `PMIx_Info_list_*`: the same inputs on the reference library and on ours, equal results.

use std::ffi::{c_char, c_void};
use std::mem::zeroed;

use pmix_abi_tests::describe;
use pmix_abi_tests::{Pmix, both};
use pmix_sys::*;

type Load =
    unsafe extern "C" fn(*mut pmix_value_t, *const c_void, pmix_data_type_t) -> pmix_status_t;
type Unload =
    unsafe extern "C" fn(*mut pmix_value_t, *mut *mut c_void, *mut usize) -> pmix_status_t;
type Xfer = unsafe extern "C" fn(*mut pmix_value_t, *const pmix_value_t) -> pmix_status_t;
type Compare = unsafe extern "C" fn(*mut pmix_value_t, *mut pmix_value_t) -> pmix_value_cmp_t;
type Destruct = unsafe extern "C" fn(*mut pmix_value_t);
type InfoLoad = unsafe extern "C" fn(
    *mut pmix_info_t,
    *const c_char,
    *const c_void,
    pmix_data_type_t,
) -> pmix_status_t;
type InfoXfer = unsafe extern "C" fn(*mut pmix_info_t, *const pmix_info_t) -> pmix_status_t;

struct Api {
    load: Load,
    unload: Unload,
    xfer: Xfer,
    compare: Compare,
    destruct: Destruct,
    info_load: InfoLoad,
    info_xfer: InfoXfer,
}

fn api(l: &Pmix) -> Api {
    // SAFETY: the types are the prototypes of pmix.h.
    unsafe {
        Api {
            load: l.sym("PMIx_Value_load"),
            unload: l.sym("PMIx_Value_unload"),
            xfer: l.sym("PMIx_Value_xfer"),
            compare: l.sym("PMIx_Value_compare"),
            destruct: l.sym("PMIx_Value_destruct"),
            info_load: l.sym("PMIx_Info_load"),
            info_xfer: l.sym("PMIx_Info_xfer"),
        }
    }
}

fn nspace(s: &str) -> pmix_proc_t {
    // SAFETY: all-zero is a valid pmix_proc_t.
    let mut p: pmix_proc_t = unsafe { zeroed() };
    for (d, b) in p.nspace.iter_mut().zip(s.bytes()) {
        *d = b as c_char;
    }
    p
}

fn proc_(s: &str, rank: pmix_rank_t) -> pmix_proc_t {
    let mut p = nspace(s);
    p.rank = rank;
    p
}

fn key(s: &str) -> [c_char; 512] {
    let mut k = [0 as c_char; 512];
    for (d, b) in k.iter_mut().zip(s.bytes()) {
        *d = b as c_char;
    }
    k
}

/// Input data that stays alive while the cases run.
struct Inputs {
    u8s: [u8; 4],
    i8v: i8,
    i16v: i16,
    u16v: u16,
    i32v: i32,
    u32v: u32,
    i64v: i64,
    u64v: u64,
    f32v: f32,
    f64v: f64,
    tv: libc::timeval,
    procs: [pmix_proc_t; 3],
    bo: pmix_byte_object_t,
    bo_empty: pmix_byte_object_t,
    envar: pmix_envar_t,
    coord_vals: [u32; 3],
    coord: pmix_coord_t,
    pinfo: pmix_proc_info_t,
    u32s: [u32; 3],
    strs: [*mut c_char; 2],
    infos: [pmix_info_t; 2],
    da_u32: pmix_data_array_t,
    da_str: pmix_data_array_t,
    da_proc: pmix_data_array_t,
    da_info: pmix_data_array_t,
    da_empty: pmix_data_array_t,
    devdist: pmix_device_distance_t,
    endpoint: pmix_endpoint_t,
    geometry: pmix_geometry_t,
    regattr: pmix_regattr_t,
    disk: pmix_disk_stats_t,
    net: pmix_net_stats_t,
    pstats: pmix_proc_stats_t,
    ndstats: pmix_node_stats_t,
}

fn inputs() -> Box<Inputs> {
    // SAFETY: all-zero is valid for every field (integers, floats, pointers).
    let mut i: Box<Inputs> = Box::new(unsafe { zeroed() });
    i.u8s = [0, 1, 200, 255];
    i.i8v = -7;
    i.i16v = -300;
    i.u16v = 65000;
    i.i32v = -123456;
    i.u32v = 4000000000;
    i.i64v = -9_000_000_000;
    i.u64v = u64::MAX;
    i.f32v = 1.5;
    i.f64v = -2.25;
    i.tv = libc::timeval {
        tv_sec: 12,
        tv_usec: 34,
    };
    i.procs = [
        proc_("ns.a", 0),
        proc_("ns.b", PMIX_RANK_WILDCARD),
        proc_("x", PMIX_RANK_UNDEF),
    ];
    i.bo = pmix_byte_object_t {
        bytes: b"a\0bc".as_ptr().cast_mut().cast(),
        size: 4,
    };
    i.bo_empty = pmix_byte_object_t {
        bytes: std::ptr::null_mut(),
        size: 0,
    };
    i.envar = pmix_envar_t {
        envar: c"PATH".as_ptr().cast_mut(),
        value: c"/bin".as_ptr().cast_mut(),
        separator: b':' as c_char,
    };
    i.coord_vals = [1, 2, 3];
    i.coord = pmix_coord_t {
        view: PMIX_COORD_PHYSICAL_VIEW,
        coord: i.coord_vals.as_mut_ptr(),
        dims: 3,
    };
    i.pinfo = pmix_proc_info_t {
        proc: proc_("job", 4),
        hostname: c"node1".as_ptr().cast_mut(),
        executable_name: c"/bin/true".as_ptr().cast_mut(),
        pid: 4321,
        exit_code: 3,
        state: PMIX_PROC_STATE_RUNNING,
    };
    i.u32s = [10, 20, 30];
    i.strs = [c"one".as_ptr().cast_mut(), std::ptr::null_mut()];
    i.infos[0].key = key("pmix.rank");
    i.infos[0].value.r#type = PMIX_UINT32;
    i.infos[0].value.data.uint32 = 3;
    i.infos[1].key = key("k2");
    i.infos[1].flags = PMIX_INFO_REQD;
    i.infos[1].value.r#type = PMIX_STRING;
    i.infos[1].value.data.string = c"v".as_ptr().cast_mut();
    i.da_u32 = pmix_data_array_t {
        r#type: PMIX_UINT32,
        size: 3,
        array: i.u32s.as_mut_ptr().cast(),
    };
    i.da_str = pmix_data_array_t {
        r#type: PMIX_STRING,
        size: 2,
        array: i.strs.as_mut_ptr().cast(),
    };
    i.da_proc = pmix_data_array_t {
        r#type: PMIX_PROC,
        size: 3,
        array: i.procs.as_mut_ptr().cast(),
    };
    i.da_info = pmix_data_array_t {
        r#type: PMIX_INFO,
        size: 2,
        array: i.infos.as_mut_ptr().cast(),
    };
    i.da_empty = pmix_data_array_t {
        r#type: PMIX_UINT8,
        size: 0,
        array: std::ptr::null_mut(),
    };
    i.devdist = pmix_device_distance_t {
        uuid: c"u-1".as_ptr().cast_mut(),
        osname: c"eth0".as_ptr().cast_mut(),
        r#type: PMIX_DEVTYPE_NETWORK,
        mindist: 1,
        maxdist: 9,
    };
    i.endpoint = pmix_endpoint_t {
        uuid: c"u-2".as_ptr().cast_mut(),
        osname: std::ptr::null_mut(),
        endpt: i.bo,
    };
    i.geometry = pmix_geometry_t {
        fabric: 2,
        uuid: c"g".as_ptr().cast_mut(),
        osname: c"ib0".as_ptr().cast_mut(),
        coordinates: &mut i.coord,
        ncoords: 1,
    };
    i.regattr.name = c"PMIX_RANK".as_ptr().cast_mut();
    i.regattr.string = key("pmix.rank");
    i.regattr.r#type = PMIX_PROC_RANK;
    i.disk.disk = c"sda".as_ptr().cast_mut();
    i.disk.num_reads_completed = 5;
    i.disk.weighted_milliseconds_io = 77;
    i.net.net_interface = c"lo".as_ptr().cast_mut();
    i.net.num_bytes_sent = 1000;
    i.pstats.node = c"n0".as_ptr().cast_mut();
    i.pstats.proc = proc_("ps", 1);
    i.pstats.pid = 99;
    i.pstats.cmd = c"a.out".as_ptr().cast_mut();
    i.pstats.state = b'R' as c_char;
    i.pstats.percent_cpu = 12.5;
    i.pstats.rss = 3.25;
    i.ndstats.node = c"n1".as_ptr().cast_mut();
    i.ndstats.la = 0.5;
    i.ndstats.diskstats = &mut i.disk;
    i.ndstats.ndiskstats = 1;
    i.ndstats.netstats = &mut i.net;
    i.ndstats.nnetstats = 1;
    i
}

/// (label, type, data pointer as PMIx_Value_load takes it).
fn cases(i: &mut Inputs) -> Vec<(&'static str, pmix_data_type_t, *const c_void)> {
    fn p<T>(r: &T) -> *const c_void {
        (r as *const T).cast()
    }
    vec![
        ("undef", PMIX_UNDEF, std::ptr::null()),
        ("bool true", PMIX_BOOL, p(&i.u8s[1])),
        ("bool false", PMIX_BOOL, p(&i.u8s[0])),
        ("byte", PMIX_BYTE, p(&i.u8s[2])),
        ("string", PMIX_STRING, c"hello world".as_ptr().cast()),
        ("string empty", PMIX_STRING, c"".as_ptr().cast()),
        ("size", PMIX_SIZE, p(&i.u64v)),
        ("pid", PMIX_PID, p(&i.i32v)),
        ("int", PMIX_INT, p(&i.i32v)),
        ("int8", PMIX_INT8, p(&i.i8v)),
        ("int16", PMIX_INT16, p(&i.i16v)),
        ("int32", PMIX_INT32, p(&i.i32v)),
        ("int64", PMIX_INT64, p(&i.i64v)),
        ("uint", PMIX_UINT, p(&i.u32v)),
        ("uint8", PMIX_UINT8, p(&i.u8s[3])),
        ("uint16", PMIX_UINT16, p(&i.u16v)),
        ("uint32", PMIX_UINT32, p(&i.u32v)),
        ("uint64", PMIX_UINT64, p(&i.u64v)),
        ("float", PMIX_FLOAT, p(&i.f32v)),
        ("double", PMIX_DOUBLE, p(&i.f64v)),
        ("timeval", PMIX_TIMEVAL, p(&i.tv)),
        ("time", PMIX_TIME, p(&i.i64v)),
        ("status", PMIX_STATUS, p(&i.i32v)),
        ("proc", PMIX_PROC, p(&i.procs[1])),
        ("byte object", PMIX_BYTE_OBJECT, p(&i.bo)),
        ("byte object empty", PMIX_BYTE_OBJECT, p(&i.bo_empty)),
        ("persist", PMIX_PERSIST, p(&i.u8s[2])),
        ("pointer", PMIX_POINTER, p(&i.tv)),
        ("scope", PMIX_SCOPE, p(&i.u8s[1])),
        ("range", PMIX_DATA_RANGE, p(&i.u8s[1])),
        ("proc state", PMIX_PROC_STATE, p(&i.u8s[2])),
        ("proc info", PMIX_PROC_INFO, p(&i.pinfo)),
        ("darray uint32", PMIX_DATA_ARRAY, p(&i.da_u32)),
        ("darray string", PMIX_DATA_ARRAY, p(&i.da_str)),
        ("darray proc", PMIX_DATA_ARRAY, p(&i.da_proc)),
        ("darray info", PMIX_DATA_ARRAY, p(&i.da_info)),
        ("darray empty", PMIX_DATA_ARRAY, p(&i.da_empty)),
        ("rank", PMIX_PROC_RANK, p(&i.u32v)),
        ("compressed string", PMIX_COMPRESSED_STRING, p(&i.bo)),
        ("alloc directive", PMIX_ALLOC_DIRECTIVE, p(&i.u8s[1])),
        ("envar", PMIX_ENVAR, p(&i.envar)),
        ("coord", PMIX_COORD, p(&i.coord)),
        ("regattr", PMIX_REGATTR, p(&i.regattr)),
        ("regex", PMIX_REGEX, c"pmix[node[2:0-3]]".as_ptr().cast()),
        ("job state", PMIX_JOB_STATE, p(&i.u8s[1])),
        ("link state", PMIX_LINK_STATE, p(&i.u8s[1])),
        ("geometry", PMIX_GEOMETRY, p(&i.geometry)),
        ("device distance", PMIX_DEVICE_DIST, p(&i.devdist)),
        ("endpoint", PMIX_ENDPOINT, p(&i.endpoint)),
        ("devtype", PMIX_DEVTYPE, p(&i.u64v)),
        ("loctype", PMIX_LOCTYPE, p(&i.u16v)),
        ("compressed bo", PMIX_COMPRESSED_BYTE_OBJECT, p(&i.bo)),
        ("nspace", PMIX_PROC_NSPACE, c"my.nspace".as_ptr().cast()),
        ("proc stats", PMIX_PROC_STATS, p(&i.pstats)),
        ("disk stats", PMIX_DISK_STATS, p(&i.disk)),
        ("net stats", PMIX_NET_STATS, p(&i.net)),
        ("node stats", PMIX_NODE_STATS, p(&i.ndstats)),
        ("stor medium", PMIX_STOR_MEDIUM, p(&i.u64v)),
        ("stor access", PMIX_STOR_ACCESS, p(&i.u64v)),
        ("stor persist", PMIX_STOR_PERSIST, p(&i.u64v)),
        ("stor access type", PMIX_STOR_ACCESS_TYPE, p(&i.u16v)),
    ]
}

/// Cases where the reference loses data and we keep it (see
/// docs/undocumented-openpmix-behavior.md): the label, and what our transcript must contain.
const REFERENCE_DROPS_FIELDS: &[(&str, &str)] = &[
    // The reference's copy of a pmix_proc_info_t leaves `state` at 0.
    ("proc info", "state=5"),
    // The reference's copy of a pmix_proc_stats_t leaves `percent_cpu` at 0.
    ("proc stats", "12.5"),
];

/// Checks a transcript pair: equal, or one of the documented reference data losses.
fn check(label: &str, ours_vs_ref: (&str, &str), failures: &mut Vec<String>) {
    let (a, b) = ours_vs_ref;
    if let Some((_, keep)) = REFERENCE_DROPS_FIELDS.iter().find(|(l, _)| *l == label) {
        if !b.contains(keep) || a.contains(keep) {
            failures.push(format!(
                "{label}: expected ours to keep {keep:?}:\n  ref:  {a}\n  ours: {b}"
            ));
        }
        return;
    }
    // The reference compares arrays of strings by their pointers: its verdict on a copy of
    // such an array is arbitrary, so only the rest of the transcript is compared.
    let strip = |t: &str| {
        if label == "darray string" {
            t.split(" | cmp=").next().unwrap_or(t).to_string()
        } else {
            t.to_string()
        }
    };
    if strip(a) != strip(b) {
        failures.push(format!("{label}:\n  ref:  {a}\n  ours: {b}"));
    }
}

/// Load, transfer and compare one case on one library; a transcript of what came out.
fn load_xfer(a: &Api, ty: pmix_data_type_t, data: *const c_void) -> String {
    // SAFETY: the inputs are valid data of type `ty`; the values are released below.
    unsafe {
        let mut v: pmix_value_t = zeroed();
        let rc = (a.load)(&mut v, data, ty);
        let mut out = format!("load={rc} {}", describe::value(&v));
        let mut w: pmix_value_t = zeroed();
        let rc = (a.xfer)(&mut w, &v);
        out += &format!(" | xfer={rc} {}", describe::value(&w));
        out += &format!(" | cmp={}", (a.compare)(&mut v, &mut w));
        (a.destruct)(&mut v);
        (a.destruct)(&mut w);
        out
    }
}

#[test]
fn load_xfer_compare_every_type() {
    let mut inp = inputs();
    let cases = cases(&mut inp);
    let [r, o] = both().map(api);
    let mut failures = Vec::new();
    for (label, ty, data) in cases {
        let (a, b) = (load_xfer(&r, ty, data), load_xfer(&o, ty, data));
        check(label, (&a, &b), &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Unload one case on one library.
fn unload(a: &Api, ty: pmix_data_type_t, data: *const c_void) -> String {
    // SAFETY: as for load_xfer; the unloaded allocations are rendered and leaked (tests).
    unsafe {
        let mut v: pmix_value_t = zeroed();
        (a.load)(&mut v, data, ty);
        let mut room = [0u64; 64];
        let mut d: *mut c_void = room.as_mut_ptr().cast();
        let mut sz = 0usize;
        let rc = (a.unload)(&mut v, &mut d, &mut sz);
        let in_place = d == room.as_mut_ptr().cast();
        let body = if rc != PMIX_SUCCESS {
            String::new()
        } else {
            match ty {
                PMIX_STRING => describe::elem((&d as *const *mut c_void).cast(), PMIX_STRING),
                PMIX_BYTE_OBJECT
                | PMIX_COMPRESSED_STRING
                | PMIX_COMPRESSED_BYTE_OBJECT
                | PMIX_REGEX => {
                    let bo = pmix_byte_object_t {
                        bytes: d.cast(),
                        size: sz,
                    };
                    describe::elem((&bo as *const pmix_byte_object_t).cast(), PMIX_BYTE_OBJECT)
                }
                PMIX_POINTER => format!("{d:?}"),
                PMIX_PROC_NSPACE => describe::elem((&d as *const *mut c_void).cast(), PMIX_STRING),
                t => describe::elem(d, t),
            }
        };
        (a.destruct)(&mut v);
        format!("rc={rc} sz={sz} in_place={in_place} {body}")
    }
}

#[test]
fn unload_every_type() {
    let mut inp = inputs();
    let cases = cases(&mut inp);
    let [r, o] = both().map(api);
    let mut failures = Vec::new();
    for (label, ty, data) in cases {
        let (a, b) = (unload(&r, ty, data), unload(&o, ty, data));
        check(label, (&a, &b), &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn compare_pairs() {
    let [r, o] = both().map(api);
    let mut inp = inputs();
    let cases = cases(&mut inp);
    let mut failures = Vec::new();
    // Every pair of cases, including different types.
    for (la, ta, da) in &cases {
        for (lb, tb, db) in &cases {
            let res: Vec<pmix_value_cmp_t> = [&r, &o]
                .iter()
                .map(|a| {
                    // SAFETY: valid inputs; the values are released.
                    unsafe {
                        let (mut x, mut y): (pmix_value_t, pmix_value_t) = (zeroed(), zeroed());
                        (a.load)(&mut x, *da, *ta);
                        (a.load)(&mut y, *db, *tb);
                        let c = (a.compare)(&mut x, &mut y);
                        (a.destruct)(&mut x);
                        (a.destruct)(&mut y);
                        c
                    }
                })
                .collect();
            // The reference compares arrays of strings by their pointers, which is arbitrary.
            let pointer_order = *la == "darray string" && *lb == "darray string";
            if res[0] != res[1] && !pointer_order {
                failures.push(format!("{la} vs {lb}: ref {} ours {}", res[0], res[1]));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn info_load_and_xfer() {
    let mut inp = inputs();
    let cases = cases(&mut inp);
    let [r, o] = both().map(api);
    for (label, ty, data) in cases {
        let t: Vec<String> = [&r, &o]
            .iter()
            .map(|a| {
                // SAFETY: valid inputs; the infos are released.
                unsafe {
                    let mut i: pmix_info_t = zeroed();
                    i.flags = 0x13;
                    let rc = (a.info_load)(&mut i, c"some.key".as_ptr(), data, ty);
                    let mut j: pmix_info_t = zeroed();
                    i.flags = PMIX_INFO_REQD;
                    let rc2 = (a.info_xfer)(&mut j, &i);
                    let s = format!("{rc} {rc2} {} {}", describe::info(&i), describe::info(&j));
                    (a.destruct)(&mut i.value);
                    (a.destruct)(&mut j.value);
                    s
                }
            })
            .collect();
        let mut failures = Vec::new();
        check(label, (&t[0], &t[1]), &mut failures);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
