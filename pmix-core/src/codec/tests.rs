//! Unit tests of the v41 codec: the captured byte examples of the wire document, error codes,
//! hostile input, and proptest round trips.

use pmix_sys::*;
use proptest::prelude::*;

use super::*;
use crate::Error;
use crate::values::*;

fn pack(mode: BufferType, ty: pmix_data_type_t, v: &[Value]) -> Vec<u8> {
    let mut e = Encoder::new(mode);
    e.pack(ty, v).expect("pack");
    e.into_bytes()
}

fn nd(ty: pmix_data_type_t, v: &[Value]) -> Vec<u8> {
    pack(BufferType::NonDesc, ty, v)
}

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("hex"))
        .collect()
}

fn s(x: &str) -> PStr {
    PStr::from(x)
}

fn info(k: &str, v: Value) -> Value {
    Value::Info(Box::new(Info::new(k, v)))
}

#[test]
fn flex128_examples() {
    let enc = |v: u64| {
        let mut b = Vec::new();
        flex::put_u64(&mut b, v);
        b
    };
    assert_eq!(enc(300), hex("ac 02"));
    assert_eq!(enc(u64::MAX), vec![0xff; 9]);
    assert_eq!(enc(1 << 56), hex("80 80 80 80 80 80 80 80 01"));
    for v in [
        0,
        1,
        127,
        128,
        300,
        1 << 56,
        (1 << 56) - 1,
        u64::MAX,
        0xfffffffe,
    ] {
        assert_eq!(flex::get_u64(&enc(v)), Some((v, enc(v).len())));
    }
    let zz = |v: i64| {
        let mut b = Vec::new();
        flex::put_i64(&mut b, v);
        b
    };
    assert_eq!(zz(-1), hex("01"));
    assert_eq!(zz(300), hex("d8 04"));
    assert_eq!(zz(-300), hex("d7 04"));
    assert_eq!(zz(-46), hex("5b"));
    assert_eq!(zz(-47), hex("5d"));
    assert_eq!(flex::get_u64(&hex("80 80")), None);
}

#[test]
fn captured_examples() {
    assert_eq!(nd(PMIX_INT32, &[Value::Int32(-1)]), hex("02 01"));
    assert_eq!(
        pack(BufferType::FullyDesc, PMIX_INT32, &[Value::Int32(-1)]),
        hex("09 02 09 01")
    );
    assert_eq!(nd(PMIX_UINT, &[Value::Uint(5)]), hex("02 0a"));
    assert_eq!(nd(PMIX_PID, &[Value::Pid(1234)]), hex("02 0e d2 09"));
    assert_eq!(
        nd(PMIX_INFO, &[info("pmix.rank", Value::Uint32(3))]),
        [&hex("02 14")[..], b"pmix.rank\0", &hex("00 0e 03")].concat()
    );
    assert_eq!(
        pack(
            BufferType::FullyDesc,
            PMIX_INFO,
            &[info("pmix.rank", Value::Uint32(3))]
        ),
        [&hex("09 02 18 14")[..], b"pmix.rank\0", &hex("00 0e 03")].concat()
    );
    assert_eq!(
        nd(
            PMIX_INFO,
            &[info("a", Value::from("x")), info("b", Value::Bool(true))]
        ),
        hex("04 04 61 00 00 03 04 78 00 04 62 00 00 01 01")
    );
    let arr = Value::DataArray(Box::new(DataArray {
        ty: PMIX_INFO,
        items: vec![info("k", Value::Uint32(3))],
    }));
    assert_eq!(
        nd(PMIX_INFO, &[info("arr", arr)]),
        hex("02 08 61 72 72 00 00 27 18 01 04 6b 00 00 0e 03")
    );
    assert_eq!(nd(PMIX_VALUE, &[Value::Uint32(3)]), hex("02 0e 03"));
    assert_eq!(
        nd(
            PMIX_PROC,
            &[Value::Proc(Proc::new("ns", PMIX_RANK_WILDCARD))]
        ),
        hex("02 06 6e 73 00 fe ff ff ff 0f")
    );
    assert_eq!(
        nd(PMIX_BYTE_OBJECT, &[Value::ByteObject(vec![1, 2, 3])]),
        hex("02 03 01 02 03")
    );
    assert_eq!(nd(PMIX_STRING, &[Value::String(None)]), hex("02 00"));
    let u16s = Value::DataArray(Box::new(DataArray {
        ty: PMIX_UINT16,
        items: vec![Value::Uint16(1), Value::Uint16(2)],
    }));
    assert_eq!(nd(PMIX_DATA_ARRAY, &[u16s]), hex("02 0d 02 01 02"));
    let envar = Envar {
        envar: Some(s("A")),
        value: Some(s("B")),
        separator: b':',
    };
    assert_eq!(
        nd(PMIX_ENVAR, &[Value::Envar(envar)]),
        hex("02 04 41 00 04 42 00 3a")
    );
    let app = App {
        cmd: Some(s("ls")),
        argv: vec![s("ls"), s("-l")],
        env: vec![s("X=1")],
        cwd: Some(s("/")),
        maxprocs: 2,
        info: vec![],
    };
    assert_eq!(
        nd(PMIX_APP, &[Value::App(Box::new(app))]),
        [
            &hex("02 06")[..],
            b"ls\0",
            &hex("04 06"),
            b"ls\0",
            &hex("06"),
            b"-l\0",
            &hex("02 08"),
            b"X=1\0",
            &hex("04"),
            b"/\0",
            &hex("04 00"),
        ]
        .concat()
    );
    let q = Query {
        keys: vec![s("k1")],
        qualifiers: vec![],
    };
    assert_eq!(
        nd(PMIX_QUERY, &[Value::Query(Box::new(q))]),
        [&hex("02 02 06")[..], b"k1\0", &hex("00")].concat()
    );
    let pd = Pdata {
        proc: Proc::new("ns", 1),
        key: s("k"),
        value: Value::from("v"),
    };
    assert_eq!(
        nd(PMIX_PDATA, &[Value::Pdata(Box::new(pd))]),
        [
            &hex("02 06")[..],
            b"ns\0",
            &hex("01 04"),
            b"k\0",
            &hex("03 04"),
            b"v\0"
        ]
        .concat()
    );
    let pi = ProcInfo {
        proc: Proc::new("ns", 0),
        hostname: Some(s("h")),
        executable_name: Some(s("e")),
        pid: 9,
        exit_code: 0,
        state: 3,
    };
    assert_eq!(
        nd(PMIX_PROC_INFO, &[Value::ProcInfo(Box::new(pi))]),
        [
            &hex("02 06")[..],
            b"ns\0",
            &hex("00 04"),
            b"h\0",
            &hex("04"),
            b"e\0",
            &hex("0e 09 03")
        ]
        .concat()
    );
    assert_eq!(
        nd(PMIX_TIMEVAL, &[Value::Timeval(Timeval { sec: 5, usec: 7 })]),
        hex("02 0a 0e")
    );
    assert_eq!(
        nd(PMIX_FLOAT, &[Value::Float(1.5)]),
        [&hex("02 12")[..], b"1.500000\0"].concat()
    );
    assert_eq!(
        nd(PMIX_UINT32, &[Value::Uint32(1), Value::Uint32(2)]),
        hex("04 01 02")
    );
    assert_eq!(
        nd(PMIX_REGEX, &[Value::Regex(b"pmix[3:1]\0".to_vec())]),
        [&hex("02")[..], b"pmix[3:1]\0"].concat()
    );
}

#[test]
fn float_text() {
    assert_eq!(text::format_f(1.5), "1.500000");
    assert_eq!(text::format_f(0.0078125), "0.007812");
    assert_eq!(text::format_f(-0.0), "-0.000000");
    assert_eq!(text::format_f(f64::INFINITY), "inf");
    assert_eq!(text::format_f(f64::NEG_INFINITY), "-inf");
    assert_eq!(text::format_f(f64::NAN), "nan");
    assert_eq!(text::parse_f(b"1.500000"), 1.5);
    assert_eq!(text::parse_f(b"  -2.25xyz"), -2.25);
    assert_eq!(text::parse_f(b"1e3"), 1000.0);
    assert_eq!(text::parse_f(b"1e"), 1.0);
    assert_eq!(text::parse_f(b"abc"), 0.0);
    assert_eq!(text::parse_f(b"-inf"), f64::NEG_INFINITY);
    assert!(text::parse_f(b"-nan").is_nan());
    assert_eq!(text::parse_f(b""), 0.0);
    assert_eq!(text::parse_f(b"."), 0.0);
}

#[test]
fn buffer_type_from_env_value() {
    assert_eq!(
        BufferType::from_env_value(Some(b"PMIX_BFROP_BUFFER_FULLY_DESC")),
        BufferType::FullyDesc
    );
    for v in [
        &b"FULLY_DESC"[..],
        b"2",
        b"pmix_bfrop_buffer_fully_desc",
        b"PMIX_BFROP_BUFFER_NON_DESC",
        b" PMIX_BFROP_BUFFER_FULLY_DESC",
    ] {
        assert_eq!(BufferType::from_env_value(Some(v)), BufferType::NonDesc);
    }
    assert_eq!(BufferType::from_env_value(None), BufferType::NonDesc);
}

#[test]
fn buffer_growth_matches_reference() {
    for (needed, alloc) in [
        (1, 128),
        (128, 128),
        (129, 256),
        (303, 512),
        (1003, 1024),
        (1032, 2048),
        (2052, 3072),
        (20004, 20480),
        (70004, 70656),
        (2500005, 2500608),
    ] {
        assert_eq!(buffer_alloc_size(needed), alloc, "needed {needed}");
    }
}

#[test]
fn unpack_errors_and_capacity() {
    let bytes = nd(
        PMIX_UINT32,
        &[Value::Uint32(1), Value::Uint32(2), Value::Uint32(300)],
    );
    let mut d = Decoder::new(BufferType::NonDesc, &bytes);
    assert_eq!(d.unpack(PMIX_UINT32, 0), Err(Error::UnpackInadequateSpace));
    assert_eq!(d.position(), 0);
    let u = d.unpack(PMIX_UINT32, 2).unwrap();
    assert_eq!(u.values, vec![Value::Uint32(1), Value::Uint32(2)]);
    assert!(u.more);
    assert_eq!(d.position(), 3);

    let mut d = Decoder::new(BufferType::NonDesc, &bytes);
    let u = d.unpack(PMIX_UINT32, 5).unwrap();
    assert_eq!(u.values.len(), 3);
    assert!(!u.more);
    assert_eq!(d.unpack(PMIX_UINT32, 1), Err(Error::ReadPastEnd));

    // Truncations never succeed and consume nothing.
    for cut in 0..bytes.len() {
        let mut d = Decoder::new(BufferType::NonDesc, &bytes[..cut]);
        assert_eq!(
            d.unpack(PMIX_UINT32, 5),
            Err(Error::ReadPastEnd),
            "cut {cut}"
        );
        assert_eq!(d.position(), 0);
    }

    let mut d = Decoder::new(BufferType::NonDesc, &bytes);
    assert_eq!(d.unpack(200, 5), Err(Error::UnknownDataType(200)));
    assert_eq!(d.unpack(PMIX_UNDEF, 5), Err(Error::UnknownDataType(0)));
    assert_eq!(d.position(), 0);

    let fd = pack(BufferType::FullyDesc, PMIX_UINT32, &[Value::Uint32(1)]);
    let mut d = Decoder::new(BufferType::FullyDesc, &fd);
    assert_eq!(
        d.unpack(PMIX_INT32, 5),
        Err(Error::Status(PMIX_ERR_PACK_MISMATCH))
    );
    assert_eq!(
        d.unpack(PMIX_UINT32, 5).unwrap().values,
        vec![Value::Uint32(1)]
    );
}

#[test]
fn pack_errors_leave_buffer_alone() {
    let mut e = Encoder::new(BufferType::NonDesc);
    e.pack(PMIX_INT32, &[Value::Int32(1)]).unwrap();
    let before = e.buf.clone();
    assert_eq!(
        e.pack(PMIX_INT32, &[Value::Int32(1), Value::Uint32(2)]),
        Err(Error::TypeMismatch)
    );
    assert_eq!(e.pack(200, &[]), Err(Error::UnknownDataType(200)));
    assert_eq!(e.pack(PMIX_MODEX, &[]), Err(Error::UnknownDataType(29)));
    assert_eq!(
        e.pack(PMIX_INFO_ARRAY, &[]),
        Err(Error::UnknownDataType(44))
    );
    let bad = Value::DataArray(Box::new(DataArray {
        ty: 200,
        items: vec![],
    }));
    assert_eq!(e.pack(PMIX_VALUE, &[bad]), Err(Error::UnknownDataType(200)));
    assert_eq!(e.buf, before);
}

#[test]
fn key_and_nspace_caps() {
    let long = "k".repeat(700);
    let bytes = nd(PMIX_INFO, &[info(&long, Value::Uint32(3))]);
    let v = Decoder::new(BufferType::NonDesc, &bytes)
        .unpack(PMIX_INFO, 1)
        .unwrap();
    match &v.values[0] {
        Value::Info(i) => assert_eq!(i.key.len(), MAX_KEY_LEN),
        other => panic!("{other:?}"),
    }
    let ns = "n".repeat(300);
    let bytes = nd(PMIX_PROC, &[Value::Proc(Proc::new(ns.as_str(), 1))]);
    let v = Decoder::new(BufferType::NonDesc, &bytes)
        .unpack(PMIX_PROC, 1)
        .unwrap();
    assert_eq!(v.values[0], Value::Proc(Proc::new("n".repeat(255), 1)));
}

#[test]
fn hostile_counts_and_depth() {
    // A byte object claiming 2^60 bytes.
    let mut b = hex("02");
    flex::put_u64(&mut b, 1 << 60);
    assert_eq!(
        Decoder::new(BufferType::NonDesc, &b).unpack(PMIX_BYTE_OBJECT, 1),
        Err(Error::ReadPastEnd)
    );
    // A top-level count of i32::MAX strings in three bytes.
    let mut b = Vec::new();
    flex::put_i64(&mut b, i32::MAX.into());
    assert_eq!(
        Decoder::new(BufferType::NonDesc, &b).unpack(PMIX_STRING, i32::MAX as usize),
        Err(Error::ReadPastEnd)
    );
    // A negative count.
    assert_eq!(
        Decoder::new(BufferType::NonDesc, &hex("01 00")).unpack(PMIX_STRING, 5),
        Err(Error::UnpackFailure)
    );
    // Data arrays nested 10000 deep: refused, not a stack overflow.
    let mut b = hex("02");
    for _ in 0..10000 {
        b.extend_from_slice(&hex("27 01"));
    }
    b.extend_from_slice(&hex("15 00"));
    assert_eq!(
        Decoder::new(BufferType::NonDesc, &b).unpack(PMIX_DATA_ARRAY, 1),
        Err(Error::UnpackFailure)
    );
    // An undefined-type data array with a huge count holds nothing and costs nothing.
    let mut b = hex("02 00");
    flex::put_u64(&mut b, u64::MAX);
    let u = Decoder::new(BufferType::NonDesc, &b)
        .unpack(PMIX_DATA_ARRAY, 1)
        .unwrap();
    assert_eq!(
        u.values[0],
        Value::DataArray(Box::new(DataArray {
            ty: PMIX_UNDEF,
            items: vec![]
        }))
    );
}

#[test]
fn regex_forms() {
    // Plain text goes as a nested pack of one string.
    let b = nd(PMIX_REGEX, &[Value::Regex(b"node[1-3]\0".to_vec())]);
    assert_eq!(b, [&hex("02 02 14")[..], b"node[1-3]\0"].concat());
    let blob = [&b"blob:\0component=zlib:\0size=3:\0"[..], &[7, 8, 9]].concat();
    let b = nd(PMIX_REGEX, &[Value::Regex(blob.clone())]);
    assert_eq!(b, [&hex("02")[..], &blob].concat());
    for v in [
        b"pmix[3:1]\0".to_vec(),
        b"node[1-3]\0".to_vec(),
        blob,
        Vec::new(),
    ] {
        for mode in [BufferType::NonDesc, BufferType::FullyDesc] {
            let bytes = pack(mode, PMIX_REGEX, &[Value::Regex(v.clone())]);
            let u = Decoder::new(mode, &bytes).unpack(PMIX_REGEX, 1).unwrap();
            assert_eq!(u.values, vec![Value::Regex(v.clone())]);
        }
    }
    let damaged = b"blob:\0component=zlib:\0size=30:\0ab".to_vec();
    assert_eq!(
        Encoder::new(BufferType::NonDesc).pack(PMIX_REGEX, &[Value::Regex(damaged)]),
        Err(Error::BadParam)
    );
}

#[test]
fn compress_blocks() {
    let data: Vec<u8> = (0..10000u32)
        .map(|i| b"abcabcabd"[(i % 9) as usize])
        .collect();
    let c = compress::compress_block(&data).expect("compressible");
    assert_eq!(&c[..4], &10000u32.to_ne_bytes());
    assert_eq!(&c[4..6], &[0x78, 0xda]);
    assert_eq!(compress::decompress_block(&c), Some(data.clone()));
    assert_eq!(compress::compress_block(&data[..4095]), None);
    assert!(compress::compress_block(&data[..4096]).is_some());
    // Incompressible input stays as it is.
    let mut x: u32 = 12345;
    let noise: Vec<u8> = (0..8192)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    assert_eq!(compress::compress_block(&noise), None);
    // Damaged blocks.
    assert_eq!(compress::decompress_block(&c[..3]), None);
    assert_eq!(compress::decompress_block(&c[..c.len() - 1]), None);
    let mut longer = c.clone();
    longer[..4].copy_from_slice(&10001u32.to_ne_bytes());
    assert_eq!(compress::decompress_block(&longer), None);
    let mut shorter = c.clone();
    shorter[..4].copy_from_slice(&9999u32.to_ne_bytes());
    assert_eq!(compress::decompress_block(&shorter), None);
    let mut trailing = c.clone();
    trailing.extend_from_slice(b"xyz");
    assert_eq!(compress::decompress_block(&trailing), Some(data));
    let mut huge = c;
    huge[..4].copy_from_slice(&u32::MAX.to_ne_bytes());
    assert_eq!(compress::decompress_block(&huge), None);
}

// ---------------------------------------------------------------------------------------
// Property tests

fn pstr(max: usize) -> impl Strategy<Value = PStr> {
    proptest::collection::vec(1u8..=255, 0..max).prop_map(PStr::from)
}

fn opt_pstr() -> impl Strategy<Value = Option<PStr>> {
    proptest::option::of(pstr(12))
}

fn procs() -> impl Strategy<Value = Proc> {
    (pstr(20), any::<u32>()).prop_map(|(n, r)| Proc { nspace: n, rank: r })
}

/// Values of the scalar and string types, in forms that survive a round trip exactly
/// (floats with at most six decimals, pointers as NULL).
fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<u8>().prop_map(Value::Byte),
        opt_pstr().prop_map(Value::String),
        any::<u64>().prop_map(Value::Size),
        any::<i32>().prop_map(Value::Pid),
        any::<i32>().prop_map(Value::Int),
        any::<i8>().prop_map(Value::Int8),
        any::<i16>().prop_map(Value::Int16),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        any::<u32>().prop_map(Value::Uint),
        any::<u8>().prop_map(Value::Uint8),
        any::<u16>().prop_map(Value::Uint16),
        any::<u32>().prop_map(Value::Uint32),
        any::<u64>().prop_map(Value::Uint64),
        (-1_000_000i32..1_000_000).prop_map(|x| Value::Float(x as f32 / 4.0)),
        any::<i32>().prop_map(|x| Value::Double(f64::from(x) / 64.0)),
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Value::Timeval(Timeval { sec: a, usec: b })),
        any::<i64>().prop_map(Value::Time),
        any::<i32>().prop_map(Value::Status),
        procs().prop_map(Value::Proc),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::ByteObject),
        any::<u8>().prop_map(Value::Persist),
        Just(Value::Pointer(0)),
        any::<u8>().prop_map(Value::Scope),
        any::<u8>().prop_map(Value::DataRange),
        any::<u8>().prop_map(Value::Command),
        any::<u32>().prop_map(Value::InfoDirectives),
        any::<u16>().prop_map(Value::DataType),
        any::<u8>().prop_map(Value::ProcState),
        any::<u32>().prop_map(Value::ProcRank),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::CompressedString),
        any::<u8>().prop_map(Value::AllocDirective),
        any::<u16>().prop_map(Value::IofChannel),
        (opt_pstr(), opt_pstr(), any::<u8>()).prop_map(|(a, b, c)| Value::Envar(Envar {
            envar: a,
            value: b,
            separator: c
        })),
        (any::<u8>(), proptest::collection::vec(any::<u32>(), 0..5))
            .prop_map(|(v, c)| Value::Coord(Box::new(Coord { view: v, coord: c }))),
        any::<u8>().prop_map(Value::JobState),
        any::<u8>().prop_map(Value::LinkState),
        any::<u64>().prop_map(Value::DevType),
        any::<u16>().prop_map(Value::LocType),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::CompressedByteObject),
        pstr(20).prop_map(Value::ProcNspace),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::DataBuffer),
        any::<u64>().prop_map(Value::StorMedium),
        any::<u64>().prop_map(Value::StorAccess),
        any::<u64>().prop_map(Value::StorPersist),
        any::<u16>().prop_map(Value::StorAccessType),
        (
            opt_pstr(),
            opt_pstr(),
            any::<u64>(),
            any::<u16>(),
            any::<u16>()
        )
            .prop_map(
                |(u, o, t, a, b)| Value::DeviceDist(Box::new(DeviceDistance {
                    uuid: u,
                    osname: o,
                    ty: t,
                    mindist: a,
                    maxdist: b
                }))
            ),
        (
            opt_pstr(),
            opt_pstr(),
            proptest::collection::vec(any::<u8>(), 0..9)
        )
            .prop_map(|(u, o, e)| Value::Endpoint(Box::new(Endpoint {
                uuid: u,
                osname: o,
                endpt: e
            }))),
        opt_pstr().prop_map(|b| Value::ProcCpuset(Box::new(Cpuset {
            source: Some(PStr::from("hwloc")),
            bitmap: b
        }))),
        (
            opt_pstr(),
            pstr(12),
            any::<u16>(),
            proptest::collection::vec(pstr(8), 0..3)
        )
            .prop_map(|(n, s, t, d)| Value::Regattr(Box::new(Regattr {
                name: n,
                string: s,
                ty: t,
                description: d
            }))),
        pstr(12).prop_map(|s| {
            let mut b = s.into_bytes();
            b.push(0);
            Value::Regex(b)
        }),
        (procs(), opt_pstr(), opt_pstr(), any::<i32>(), any::<u8>()).prop_map(
            |(p, h, e, pid, st)| Value::ProcInfo(Box::new(ProcInfo {
                proc: p,
                hostname: h,
                executable_name: e,
                pid,
                exit_code: 0,
                state: st
            }))
        ),
    ]
    .boxed()
}

fn infos(v: BoxedStrategy<Value>) -> impl Strategy<Value = Vec<Info>> {
    proptest::collection::vec(
        (pstr(16), any::<u32>(), v).prop_map(|(k, f, value)| Info {
            key: k,
            flags: f,
            value,
        }),
        0..3,
    )
}

/// Any value, compound ones nesting scalars and each other.
fn value() -> BoxedStrategy<Value> {
    scalar()
        .prop_recursive(4, 48, 4, |inner| {
            prop_oneof![
                infos(inner.clone()).prop_map(|mut v| Value::Info(Box::new(
                    v.pop().unwrap_or_else(|| Info::new("k", Value::Undef))
                ))),
                proptest::collection::vec(inner.clone(), 0..4).prop_map(|items| {
                    Value::DataArray(Box::new(DataArray {
                        ty: PMIX_VALUE,
                        items,
                    }))
                }),
                infos(inner.clone()).prop_map(|v| Value::DataArray(Box::new(DataArray {
                    ty: PMIX_INFO,
                    items: v.into_iter().map(|i| Value::Info(Box::new(i))).collect(),
                }))),
                proptest::collection::vec(opt_pstr(), 0..4).prop_map(|v| Value::DataArray(
                    Box::new(DataArray {
                        ty: PMIX_STRING,
                        items: v.into_iter().map(Value::String).collect(),
                    })
                )),
                (
                    opt_pstr(),
                    proptest::collection::vec(pstr(6), 0..3),
                    proptest::collection::vec(pstr(6), 0..3),
                    opt_pstr(),
                    any::<i32>(),
                    infos(inner.clone())
                )
                    .prop_map(|(cmd, argv, env, cwd, maxprocs, info)| Value::App(
                        Box::new(App {
                            cmd,
                            argv,
                            env,
                            cwd,
                            maxprocs,
                            info
                        })
                    )),
                (
                    proptest::collection::vec(pstr(6), 0..3),
                    infos(inner.clone())
                )
                    .prop_map(|(keys, qualifiers)| Value::Query(Box::new(Query {
                        keys,
                        qualifiers
                    }))),
                (procs(), pstr(10), inner.clone()).prop_map(|(proc, key, value)| Value::Pdata(
                    Box::new(Pdata { proc, key, value })
                )),
                (pstr(10), inner)
                    .prop_map(|(key, value)| Value::Kval(Box::new(Kval { key, value }))),
            ]
        })
        .boxed()
}

fn roundtrip(mode: BufferType, ty: pmix_data_type_t, vals: &[Value]) -> Vec<Value> {
    let bytes = pack(mode, ty, vals);
    let mut d = Decoder::new(mode, &bytes);
    let u = d.unpack(ty, vals.len().max(1)).expect("unpack");
    assert!(!u.more);
    assert_eq!(d.position(), bytes.len(), "all bytes consumed");
    u.values
}

fn modes() -> impl Strategy<Value = BufferType> {
    prop_oneof![Just(BufferType::NonDesc), Just(BufferType::FullyDesc)]
}

proptest! {
    #[test]
    fn roundtrip_values(mode in modes(), vals in proptest::collection::vec(value(), 0..5)) {
        prop_assert_eq!(roundtrip(mode, PMIX_VALUE, &vals), vals);
    }

    #[test]
    fn roundtrip_typed(mode in modes(), v in value(), n in 1usize..4) {
        let vals = vec![v.clone(); n];
        prop_assert_eq!(roundtrip(mode, v.data_type(), &vals), vals);
    }

    #[test]
    fn unsigned_ints(v in any::<u64>()) {
        let mut b = Vec::new();
        flex::put_u64(&mut b, v);
        prop_assert!(b.len() <= flex::MAX_LEN);
        prop_assert_eq!(flex::get_u64(&b), Some((v, b.len())));
    }

    #[test]
    fn float_text_roundtrip(x in any::<f64>()) {
        let t = text::format_f(x);
        let back = text::parse_f(t.as_bytes());
        if x.is_nan() {
            prop_assert!(back.is_nan());
        } else {
            prop_assert!((back - x).abs() <= 5e-7 * x.abs().max(1.0), "{} -> {} -> {}", x, t, back);
        }
    }

    /// The decoder never panics on arbitrary bytes, for any type and mode, and a failed
    /// unpack consumes nothing.
    #[test]
    fn decoder_total(bytes in proptest::collection::vec(any::<u8>(), 0..64), ty in 0u16..72,
                     fd in any::<bool>(), max in 0usize..8) {
        let mode = if fd { BufferType::FullyDesc } else { BufferType::NonDesc };
        let mut d = Decoder::new(mode, &bytes);
        match d.unpack(ty, max) {
            Ok(u) => prop_assert!(u.values.len() <= max),
            Err(_) => prop_assert_eq!(d.position(), 0),
        }
    }

    #[test]
    fn compress_roundtrip(data in proptest::collection::vec(0u8..4, 4096..9000)) {
        if let Some(c) = compress::compress_block(&data) {
            prop_assert!(c.len() < data.len());
            prop_assert_eq!(compress::decompress_block(&c), Some(data));
        }
    }
}

/// A byte object's head followed by its bytes is the pack of the byte object, and reading it
/// in place gives the bytes back, in both buffer types; any other pack is refused.
#[test]
fn byte_object_head_and_in_place_read_match_the_pack() {
    for mode in [BufferType::NonDesc, BufferType::FullyDesc] {
        for len in [0usize, 1, 127, 128, 65536 + 7] {
            let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let whole = pack(mode, PMIX_BYTE_OBJECT, &[Value::ByteObject(data.clone())]);
            let mut e = Encoder::new(mode);
            e.byte_object_head(len);
            let mut joined = e.into_bytes();
            joined.extend_from_slice(&data);
            assert_eq!(joined, whole, "{mode:?} {len}");
            let mut tail = whole.clone();
            tail.push(9);
            let mut d = Decoder::new(mode, &tail);
            assert_eq!(d.byte_object_ref().unwrap(), data.as_slice());
            assert_eq!(d.remaining(), &[9]);
        }
        let two = pack(
            mode,
            PMIX_BYTE_OBJECT,
            &[Value::ByteObject(vec![1]), Value::ByteObject(vec![2])],
        );
        let short = &pack(mode, PMIX_BYTE_OBJECT, &[Value::ByteObject(vec![1, 2, 3])])[..2];
        for bad in [two.as_slice(), short, &[]] {
            let mut d = Decoder::new(mode, bad);
            assert!(d.byte_object_ref().is_err());
            assert_eq!(d.position(), 0);
        }
    }
    let other = pack(
        BufferType::FullyDesc,
        PMIX_STRING,
        &[Value::String(Some(s("x")))],
    );
    assert!(
        Decoder::new(BufferType::FullyDesc, &other)
            .byte_object_ref()
            .is_err()
    );
}

#[test]
fn pack_kval_is_a_pack_of_one_kval_and_find_first_reads_it() {
    let kvals = [
        Kval {
            key: s("a"),
            value: Value::Uint32(7),
        },
        Kval {
            key: s("blob"),
            value: Value::ByteObject(vec![1, 2, 3]),
        },
        Kval {
            key: s("text"),
            value: Value::String(Some(s("x"))),
        },
        Kval {
            key: s("a"),
            value: Value::Uint32(8),
        },
    ];
    for mode in [BufferType::NonDesc, BufferType::FullyDesc] {
        let mut one = Encoder::new(mode);
        let mut all = Encoder::new(mode);
        for kv in &kvals {
            one.pack_kval(kv).unwrap();
            all.pack(PMIX_KVAL, &[Value::Kval(Box::new(kv.clone()))])
                .unwrap();
        }
        assert_eq!(one.buf, all.buf, "{mode:?}");
        let mut d = Decoder::new(mode, &one.buf);
        assert_eq!(d.find_first_in_kvals(b"a"), Ok(Some(Value::Uint32(7))));
        let mut d = Decoder::new(mode, &one.buf);
        assert_eq!(
            d.find_first_in_kvals(b"text"),
            Ok(Some(Value::String(Some(s("x")))))
        );
        let mut d = Decoder::new(mode, &one.buf);
        assert_eq!(d.find_first_in_kvals(b"none"), Ok(None));
        // Cut inside the last KVAL: an error, and nothing consumed.
        let mut d = Decoder::new(mode, &one.buf[..one.buf.len() - 2]);
        assert!(d.find_first_in_kvals(b"none").is_err());
        assert_eq!(d.position(), 0);
    }
}
