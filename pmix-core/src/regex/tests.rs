//! Unit tests of the node and process maps. The expected strings were produced by running
//! OpenPMIx 4.2.2's `PMIx_generate_regex` / `PMIx_generate_ppn` on the same inputs (the
//! differential test `tests/tests/regex.rs` keeps checking that against the library).

use std::io::Write;

use proptest::prelude::*;

use super::*;

fn names(v: &[&str]) -> Vec<PStr> {
    v.iter().map(|s| PStr::from(*s)).collect()
}

fn list(nodes: &[PStr]) -> Vec<u8> {
    let mut out = Vec::new();
    join_into(&mut out, nodes.iter().map(PStr::as_bytes), b",");
    out
}

/// Inputs on which our node map equals the reference's, byte for byte.
const NODE_MAPS: &[(&str, &str)] = &[
    ("n1,n2,n3", "pmix[n[1:1-3]]"),
    ("node01,node02,node03", "pmix[node[2:1-3]]"),
    ("a", "pmix[a]"),
    ("", "raw:"),
    ("a,b,c", "pmix[a,b,c]"),
    (
        "node1,node2,node10,node11",
        "pmix[node[1:1-2],node[2:10-11]]",
    ),
    ("n01,n1,n001", "pmix[n[2:1],n[1:1],n[3:1]]"),
    ("host,host2", "pmix[host,host[1:2]]"),
    ("x1y,x2y", "pmix[x[1:1-2]y]"),
    ("a.b.c,a.b.d", "pmix[a.b.c,a.b.d]"),
    ("n1,n1,n2", "pmix[n[1:1,1-2]]"),
    ("n3,n2,n1", "pmix[n[1:3,2,1]]"),
    ("n1,n3,n5", "pmix[n[1:1,3,5]]"),
    ("node09,node10", "pmix[node[2:9-10]]"),
    ("abc123,def456", "pmix[abc[3:123],def[3:456]]"),
    ("123,124", "pmix[[3:123-124]]"),
    ("n1,", "pmix[n[1:1]]"),
    ("n-1,n-2", "pmix[n-1,n-2]"),
    (
        "n1.example.com,n2.example.com",
        "pmix[n1.example.com,n2.example.com]",
    ),
    ("n1,m1,n2", "pmix[n[1:1],m[1:1],n[1:2]]"),
    ("a1b2,a1b3", "pmix[a[1:1]b2,a[1:1]b3]"),
    ("a1b2,a2b2", "pmix[a[1:1-2]b2]"),
    ("N1,N2", "pmix[N[1:1-2]]"),
    ("n1,n2,m", "pmix[n[1:1-2],m]"),
    ("m,n1,n2", "pmix[m,n[1:1-2]]"),
    ("1,2,3", "pmix[[1:1-3]]"),
    ("n0,n1", "pmix[n[1:0-1]]"),
    ("n,n", "pmix[n,n]"),
    ("n1a,n2b", "pmix[n[1:1]a,n[1:2]b]"),
    ("10.0.0.1,10.0.0.2", "pmix[10.0.0.1,10.0.0.2]"),
    ("n1.x,n2", "pmix[n1.x,n[1:2]]"),
    ("nX1,nX2", "pmix[nX[1:1-2]]"),
    ("n1,n2,n4,n5,n7", "pmix[n[1:1-2,4-5,7]]"),
    ("node1,node3,node2,node4", "pmix[node[1:1,3,2,4]]"),
    ("n1,n2,n3,n2,n3", "pmix[n[1:1-3,2-3]]"),
    ("n0001,n0002", "pmix[n[4:1-2]]"),
    ("0", "pmix[[1:0]]"),
    ("Ab1,ab2", "pmix[Ab[1:1],ab[1:2]]"),
    ("n,n1", "pmix[n,n[1:1]]"),
    (
        "n2147483646,n2147483647",
        "pmix[n[10:2147483646-2147483647]]",
    ),
    ("n 1,n_2,n/3", "pmix[n 1,n_2,n/3]"),
];

#[test]
fn node_maps_match_the_reference() {
    for (input, want) in NODE_MAPS {
        let got = generate_node_map(input.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            *want,
            "generate_node_map({input:?})"
        );
        let back = parse_node_map(&got).unwrap();
        assert_eq!(back, split_node_list(input.as_bytes()).unwrap(), "{want}");
    }
}

/// Where we differ on purpose (docs/notes/regex.md): reference output, ours.
#[test]
fn node_map_deviations() {
    // The reference reaches back past "m" and so reorders the hosts to n1,n2,m.
    assert_eq!(
        generate_node_map(b"n1,m,n2").unwrap(),
        b"pmix[n[1:1],m,n[1:2]]"
    );
    assert_eq!(
        parse_node_map(b"pmix[n[1:1-2],m]").unwrap(),
        names(&["n1", "n2", "m"])
    );
    // Numbers beyond i32 wrap in the reference (n[11:1215752191]); we keep the name as is.
    assert_eq!(
        generate_node_map(b"n99999999999,n2147483648").unwrap(),
        b"pmix[n99999999999,n2147483648]"
    );
    // Brackets in names: the reference writes pmix[n[1],n[1:2]], which it cannot read.
    assert_eq!(generate_node_map(b"n[1],n2").unwrap(), b"raw:n[1],n2");
    assert_eq!(
        parse_node_map(b"raw:n[1],n2").unwrap(),
        names(&["n[1]", "n2"])
    );
    // Empty names: the reference writes pmix[n[1:1-2],], which it rejects when reading.
    for bad in [&b"n1,,n2"[..], b",n1", b",", b",,"] {
        assert_eq!(generate_node_map(bad), Err(Error::BadParam), "{bad:?}");
    }
}

#[test]
fn node_map_forms_are_read() {
    let n12 = names(&["n1", "n2"]);
    assert_eq!(parse_node_map(b"pmix[n[1:1-2]]\0").unwrap(), n12);
    assert_eq!(parse_node_map(b"raw:n1,n2\0").unwrap(), n12);
    assert_eq!(parse_node_map(b"n1,n2").unwrap(), n12);
    assert_eq!(parse_node_map(b"raw:").unwrap(), Vec::<PStr>::new());
    assert_eq!(parse_node_map(b"").unwrap(), Vec::<PStr>::new());
    assert_eq!(
        parse_node_map(b"pmix[n[5:7],x[1:9-10]y,z]").unwrap(),
        names(&["n00007", "x9y", "x10y", "z"])
    );
    assert_eq!(
        parse_node_map(b"pmix[n[1:1,3-4,7]]").unwrap(),
        names(&["n1", "n3", "n4", "n7"])
    );
    // More digits than the width: the number as is (the reference drops prefix bytes).
    assert_eq!(
        parse_node_map(b"pmix[n[1:10-11]]").unwrap(),
        names(&["n10", "n11"])
    );
    for bad in [
        &b"pmix[]"[..],
        b"pmix[n1",
        b"pmix[n[1:3-1]]",
        b"pmix[n[1:-1]]",
        b"pmix[n[x:1]]",
        b"pmix[n[1:1]",
        b"pmix[n[1:1]]]",
        b"pmix[n[1:]]",
        b"pmix[n[1:1,]]",
        b"pmix[a,,b]",
        b"pmix[n[1[1:1]]]",
        b"pmix[n[1:1]x[2]]",
        b"a,,b",
        b"pmix[n[1:2147483648]]",
    ] {
        assert_eq!(
            parse_node_map(bad),
            Err(Error::BadParam),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    assert_eq!(
        parse_node_map(b"pmix[n[8:0-99999999]]"),
        Err(Error::NoMem),
        "expansion limit"
    );
}

fn blob(text: &[u8], with_length: bool) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(text).unwrap();
    let z = z.finish().unwrap();
    let mut payload = Vec::new();
    if with_length {
        payload.extend_from_slice(&(text.len() as u32).to_le_bytes());
    }
    payload.extend_from_slice(&z);
    let mut out = b"blob:\0component=zlib:\0".to_vec();
    out.extend_from_slice(format!("size={}:\0", payload.len()).as_bytes());
    out.extend_from_slice(&payload);
    out
}

#[test]
fn blobs_are_read() {
    let list = b"node1,node2,login\0";
    for with_length in [true, false] {
        let b = blob(list, with_length);
        assert_eq!(map_len(&b), Some(b.len()));
        let mut trailing = b.clone();
        trailing.extend_from_slice(b"junk");
        assert_eq!(
            parse_node_map(&trailing).unwrap(),
            names(&["node1", "node2", "login"])
        );
        assert_eq!(
            parse_proc_map(&blob(b"0-1;2,3\0", with_length)).unwrap(),
            vec![vec![0, 1], vec![2, 3]]
        );
        assert_eq!(
            parse_node_map(&blob(b"pmix[n[1:1-2]]", with_length)).unwrap(),
            names(&["n1", "n2"])
        );
    }
    let b = blob(list, true);
    assert_eq!(map_len(&b[..b.len() - 1]), None);
    assert_eq!(
        parse_node_map(&b[..b.len() - 1]),
        Err(Error::BadParam),
        "truncated"
    );
    let mut wrong = b.clone();
    let at = wrong.len() - 3;
    wrong[at] ^= 0xff;
    assert_eq!(parse_node_map(&wrong), Err(Error::BadParam), "corrupt");
    assert_eq!(
        parse_node_map(b"blob:\0component=lz4:\0size=1:\0x"),
        Err(Error::BadParam)
    );
    assert_eq!(map_len(b"pmix[a]\0rest"), Some(8));
    assert_eq!(map_len(b"pmix[a]"), None);
}

/// Inputs on which our process map equals the reference's, byte for byte.
const PROC_MAPS: &[(&str, &str)] = &[
    ("0,1,2;3,4", "raw:0,1,2;3,4"),
    ("0;1;2", "raw:0;1;2"),
    ("0", "raw:0"),
    ("", "raw:"),
    ("0,1,2,3,4,5,6,7,8,9,10,11,12", "pmix[0-12]"),
    ("0,1,2,3,4", "pmix[0-4]"),
    ("0,1,2,3;4,5,6,7", "pmix[0-3;4-7]"),
    ("0,1,2,3;", "raw:0,1,2,3;"),
    ("00,01", "raw:00,01"),
    ("5,4,3", "raw:5,4,3"),
    ("0,0,1", "raw:0,0,1"),
    ("0,1,2,3,4,5,6,7,8,9,10;2,1,0", "pmix[0-10;2,1,0]"),
    ("0,1,2,3,4,5,6,7,8,9,10;0,0,1", "pmix[0-10;0,0-1]"),
    ("0,1,2,3,4,5,6,7,8,9,10;0,2", "pmix[0-10;0,2]"),
    ("0,1,2,3,4,5,6,7,8,9,10;5-7,1", "pmix[0-10;5-7,1]"),
    ("0,1,2,3,4,5,6,7,8,9,10;2-2", "pmix[0-10;2]"),
    ("0,1,2,3,4,5,6,7,8,9,10;0-1,2", "pmix[0-10;0-2]"),
    ("0,1,2,3,4,5,6,7,8,9,10;7,3-4", "pmix[0-10;7,3-4]"),
    (
        "0,1,2,3,4,5,6,7,8,9,10;8,9,10,11;12,13",
        "pmix[0-10;8-11;12-13]",
    ),
    ("2147483647", "raw:2147483647"),
];

#[test]
fn proc_maps_match_the_reference() {
    for (input, want) in PROC_MAPS {
        let got = generate_proc_map(input.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            *want,
            "generate_proc_map({input:?})"
        );
        assert_eq!(
            parse_proc_map(&got).unwrap(),
            expand(&split_ppn(input.as_bytes()).unwrap()),
            "{want}"
        );
    }
}

fn expand(nodes: &[Vec<(Rank, Rank)>]) -> Vec<Vec<Rank>> {
    nodes
        .iter()
        .map(|n| n.iter().flat_map(|&(a, b)| a..=b).collect())
        .collect()
}

#[test]
fn proc_map_deviations() {
    // Ranges and a longer native form: the reference writes raw:0-3;4-7, which it reads as
    // ranks 0 and 4.
    assert_eq!(generate_proc_map(b"0-3;4-7").unwrap(), b"pmix[0-3;4-7]");
    assert_eq!(
        parse_proc_map(b"raw:0-3;4-7").unwrap(),
        vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]
    );
    // A range right after a run: the reference keeps only its first rank (0-3, 0-1).
    let p = "0,1,2,3,4,5,6,7,8,9,10";
    assert_eq!(
        generate_proc_map(format!("{p};0-2,3-5").as_bytes()).unwrap(),
        b"pmix[0-10;0-5]"
    );
    assert_eq!(
        generate_proc_map(format!("{p};0,1-5").as_bytes()).unwrap(),
        b"pmix[0-10;0-5]"
    );
    // The reference crashes on these, or writes what it cannot read back.
    for bad in [
        &b";"[..],
        b",",
        b"0;;1",
        b";0",
        b"0,,1",
        b"0,1,",
        b"1-0",
        b"3-1",
        b"-1",
        b"0-",
        b"a",
        b" 0",
        b"0x1",
        b"2147483648",
        b"4294967295",
        b"1-2-3",
    ] {
        assert_eq!(
            generate_proc_map(bad),
            Err(Error::BadParam),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn proc_map_forms_are_read() {
    let want = vec![vec![0, 1, 5], vec![2], vec![3, 4]];
    assert_eq!(parse_proc_map(b"pmix[0-1,5;2;3-4]\0").unwrap(), want);
    assert_eq!(parse_proc_map(b"raw:0,1,5;2;3,4\0").unwrap(), want);
    assert_eq!(parse_proc_map(b"0,1,5;2;3-4").unwrap(), want);
    // Empty fields and items are skipped, as the reference does.
    assert_eq!(
        parse_proc_map(b"pmix[0;;1]").unwrap(),
        vec![vec![0], vec![1]]
    );
    assert_eq!(
        parse_proc_map(b"pmix[0,0-1;2]").unwrap(),
        vec![vec![0, 0, 1], vec![2]]
    );
    assert_eq!(parse_proc_map(b"raw:").unwrap(), Vec::<Vec<Rank>>::new());
    for bad in [
        &b"pmix[3-1;0]"[..],
        b"pmix[-1]",
        b"pmix[0",
        b"pmix[a]",
        b"raw:0;x",
        b"pmix[2147483648]",
    ] {
        assert_eq!(
            parse_proc_map(bad),
            Err(Error::BadParam),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    assert_eq!(parse_proc_map(b"pmix[0-2147483647]"), Err(Error::NoMem));
}

#[test]
fn maps_from_lists() {
    assert_eq!(node_map_of(&[]).unwrap(), b"raw:");
    assert_eq!(
        node_map_of(&names(&["a,b"])),
        Err(Error::BadParam),
        "a comma in a name"
    );
    assert_eq!(
        proc_map_of(&[vec![0, 1, 2], vec![4, 3]]).unwrap(),
        b"pmix[0-2;4,3]"
    );
    assert_eq!(proc_map_of(&[vec![]]), Err(Error::BadParam));
    assert_eq!(proc_map_of(&[vec![1 << 31]]), Err(Error::BadParam));
}

// ----- property tests -------------------------------------------------------------------

/// Host names of the shapes seen in clusters, plus odd ones.
fn host() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => ("[a-c]{0,3}", 0u32..30, 0usize..4, "[a-b]{0,1}").prop_map(|(p, n, pad, s)| {
            format!("{p}{n:0pad$}{s}").into_bytes()
        }),
        1 => "[a-z0-9.\\-_]{1,8}".prop_map(String::into_bytes),
        1 => proptest::collection::vec(
            any::<u8>().prop_filter("no comma or NUL", |&c| c != b',' && c != 0),
            1..6
        ),
        1 => (1u64..u64::MAX).prop_map(|n| format!("n{n}").into_bytes()),
    ]
}

proptest! {
    #[test]
    fn node_maps_round_trip(hosts in proptest::collection::vec(host(), 0..40)) {
        let hosts: Vec<PStr> = hosts.into_iter().map(PStr::from).collect();
        let map = node_map_of(&hosts).unwrap();
        prop_assert_eq!(&parse_node_map(&map).unwrap(), &hosts);
        prop_assert_eq!(generate_node_map(&list(&hosts)).unwrap(), map.clone());
        let mut c = map;
        c.push(0);
        prop_assert_eq!(parse_node_map(&c).unwrap(), hosts);
    }

    #[test]
    fn proc_maps_round_trip(
        nodes in proptest::collection::vec(
            proptest::collection::vec((0u32..60, 0u32..4, any::<bool>()), 1..8),
            0..12,
        )
    ) {
        let nodes: Vec<Vec<(Rank, Rank)>> = nodes
            .into_iter()
            .map(|n| n.into_iter().map(|(a, len, range)| (a, if range { a + len } else { a })).collect())
            .collect();
        let text = nodes
            .iter()
            .map(|n| n.iter().map(|&(a, b)| if a == b && b % 2 == 0 { a.to_string() } else { format!("{a}-{b}") }).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join(";");
        prop_assert_eq!(&split_ppn(text.as_bytes()).unwrap(), &nodes);
        let map = generate_proc_map(text.as_bytes()).unwrap();
        prop_assert_eq!(parse_proc_map(&map).unwrap(), expand(&nodes));
        let explicit = expand(&nodes);
        prop_assert_eq!(parse_proc_map(&proc_map_of(&explicit).unwrap()).unwrap(), explicit);
    }

    #[test]
    fn parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = parse_node_map(&bytes);
        let _ = parse_proc_map(&bytes);
        let _ = map_len(&bytes);
        let _ = generate_node_map(&bytes);
        let _ = generate_proc_map(&bytes);
        let mut native = b"pmix[".to_vec();
        native.extend_from_slice(&bytes);
        native.push(b']');
        let _ = parse_node_map(&native);
        let _ = parse_proc_map(&native);
    }
}
