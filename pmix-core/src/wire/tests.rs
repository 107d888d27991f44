use super::*;
use crate::codec::BufferType;
use crate::values::{PStr, Proc};

/// The simple-client handshake captured from the reference (protocol doc, section 1.3).
const CAPTURED: &[u8] = b"\xff\xff\xff\xff\xff\xff\xff\xff\x33\x00\x00\x00\x00\x00\x00\x00\
native\0\x00\x00\x00\x08\0\0\0\0\0\0\0\0\x00testns\0\x00\x00\x00\x00\
4.2.2rc2\0v41\0\x01ds21\0\x00";

#[test]
fn parses_the_captured_client_handshake() {
    let h: [u8; 16] = CAPTURED[..16].try_into().unwrap();
    assert_eq!(Hello::body_len(&h).unwrap(), CAPTURED.len() - 16);
    let hello = Hello::parse(&CAPTURED[16..]).unwrap();
    assert_eq!(hello.psec, "native");
    assert_eq!(handshake::parse_native_cred(&hello.cred), Some((0, 0)));
    assert_eq!(hello.kind, PeerKind::SimpleClient);
    assert_eq!(hello.id, Some(Proc::new("testns", 0)));
    assert_eq!(hello.version, "4.2.2rc2");
    assert_eq!(hello.bfrops, "v41");
    assert_eq!(hello.buffer_type, BufferType::NonDesc);
    assert_eq!(hello.gds, "ds21");
}

#[test]
fn encodes_what_it_parses_and_refuses_damage() {
    let hello = Hello {
        psec: "native".into(),
        cred: handshake::native_cred(0, 0),
        kind: PeerKind::SimpleClient,
        uid: u32::MAX,
        gid: u32::MAX,
        id: Some(Proc::new("testns", 0)),
        version: "4.2.2rc2".into(),
        bfrops: "v41".into(),
        buffer_type: BufferType::NonDesc,
        gds: "ds21".into(),
        info: vec![],
    };
    let b = hello.encode();
    // Same bytes as the capture, without the reference's junk byte and with its length.
    assert_eq!(&b[16..], &CAPTURED[16..CAPTURED.len() - 1]);
    assert_eq!(Hello::parse(&b[16..]).unwrap(), hello);
    for cut in 0..b.len() - 16 - 6 {
        assert!(Hello::parse(&b[16..16 + cut]).is_err(), "cut at {cut}");
    }
    let mut bad = [0u8; 16];
    bad[8..12].copy_from_slice(&(200_000u32).to_ne_bytes());
    assert!(Hello::body_len(&bad).is_err());
}

#[test]
fn tool_handshake_with_info_round_trips() {
    let hello = Hello {
        psec: "native".into(),
        cred: handshake::native_cred(5, 6),
        kind: PeerKind::ToolNeedsId,
        uid: 5,
        gid: 6,
        id: None,
        version: "4.2.2".into(),
        bfrops: "v41".into(),
        buffer_type: BufferType::NonDesc,
        gds: "hash".into(),
        info: vec![crate::values::Info::new(
            "pmix.ppid",
            crate::values::Value::Pid(42),
        )],
    };
    let b = hello.encode();
    assert_eq!(Hello::parse(&b[16..]).unwrap(), hello);
    let reply = ToolReply {
        status: 0,
        assigned: Some(Proc::new("tool-ns-1", 0)),
        server: Proc::new("srv", 7),
        cred_status: 0,
    };
    let e = reply.encode();
    assert_eq!(e.len(), 528);
    let back = ToolReply::parse_rest(0, PeerKind::ToolNeedsId, &e[4..]).unwrap();
    assert_eq!(back, reply);
}

#[test]
fn uris_split_like_the_reference() {
    let u = ServerUri::parse("srv-ns.10208;tcp4://127.0.0.1:40749").unwrap();
    assert_eq!(u.nspace, "srv-ns");
    assert_eq!(u.rank, 10208);
    assert_eq!(u.addr.port(), 40749);
    assert_eq!(u.to_uri(), "srv-ns.10208;tcp4://127.0.0.1:40749");
    let c = ServerUri::parse("slurm.pmix.12.0.5;tcp4://127.0.0.1:1").unwrap();
    assert_eq!(c.nspace, PStr::from("slurm.pmix.12.0"));
    // A tool splits at the first '.' (the reference's way), at the last one when what
    // follows the first is not a rank (the reference would read rank atoi("b.3") = 0 of
    // namespace "a" and still connect).
    let t = ServerUri::parse_tool("a.b.3;tcp4://127.0.0.1:1").unwrap();
    assert_eq!((t.nspace, t.rank), (PStr::from("a.b"), 3));
    let v6 = ServerUri::parse("n.1;tcp6://[::1]:99").unwrap();
    assert_eq!(v6.to_uri(), "n.1;tcp6://[::1]:99");
    for bad in [
        "",
        "n.1",
        "n;tcp4://1.2.3.4:5",
        "n.x;tcp4://1.2.3.4:5",
        "n.1;udp://1.2.3.4:5",
        "n.1;tcp4://host:5",
    ] {
        assert!(ServerUri::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn framing_splits_frames_and_waits_for_more() {
    let mut f = WireFraming::default();
    let a = frame(0, 101, b"abc");
    let mut both = a.clone();
    both.extend_from_slice(&frame(0, 0, b""));
    let m = f.split(&both).unwrap().unwrap();
    assert_eq!((m.len, m.tag, &both[m.payload]), (19, 101, &b"abc"[..]));
    let n = m.len;
    let m2 = f.split(&both[n..]).unwrap().unwrap();
    assert_eq!((m2.len, m2.tag, m2.payload.len()), (16, 0, 0));
    assert!(f.split(&a[..18]).unwrap().is_none());
    // The header announces the whole length before the payload is there.
    assert_eq!(f.needed(&a[..18]), 19);
    assert_eq!(f.needed(&a[..5]), 0);
    let mut capped = WireFraming { max_payload: 2 };
    assert!(capped.split(&a).is_err());
}

#[test]
fn own_ids_match_the_process() {
    let (uid, _gid) = own_ids();
    assert_ne!(uid, u32::MAX);
}

#[test]
fn a_frame_header_sent_apart_is_the_frame_s_own() {
    for payload in [&b""[..], b"x", &[9u8; 70_000][..]] {
        let whole = crate::wire::server_frame(1234, payload);
        let head = crate::wire::server_frame_header(1234, payload.len());
        assert_eq!(head.len(), crate::wire::HEADER_LEN);
        assert_eq!(&whole[..crate::wire::HEADER_LEN], &head[..]);
    }
}

#[test]
fn the_5_generation_is_told_by_the_announced_major_version() {
    use crate::wire::is_v5;
    for v in ["5.0.11rc1", "5.0.11", "6.0.0", "OpenPMIx 5.1.0", "10.2"] {
        assert!(is_v5(v.as_bytes()), "{v}");
    }
    for v in ["4.2.2", "4.2.2rc2", "3.2.3", "", "rc"] {
        assert!(!is_v5(v.as_bytes()), "{v}");
    }
}
