//! Writes the seed corpus of the `server` fuzz target: well-formed sessions in the input
//! format of `fuzz_targets/server_input.rs`.
//!
//! `cargo run --example server_seeds [DIR]` from `fuzz/` (DIR defaults to `corpus/server`).

#[path = "../fuzz_targets/server_input.rs"]
mod server_input;

use pmix_core::codec::BufferType;
use pmix_core::wire::msg::Pack;
use pmix_core::wire::{Hello, PeerKind, cmd, handshake::native_cred};
use pmix_core::{Info, Kval, PStr, Proc, Value};
use pmix_sys::*;

use server_input::{FrameSpec, Mode, Start, encode_frames, wire_frames};

fn body(mode: BufferType, f: impl FnOnce(&mut Pack)) -> Vec<u8> {
    let mut p = Pack::new(mode);
    f(&mut p);
    p.into_bytes()
}

fn commit(mode: BufferType) -> Vec<u8> {
    let mut inner = Pack::new(mode);
    inner.kval(&Kval {
        key: PStr::from("fz.key"),
        value: Value::Uint32(42),
    });
    inner.kval(&Kval {
        key: PStr::from("fz.str"),
        value: Value::String(Some(PStr::from("hello"))),
    });
    let raw = inner.into_bytes();
    body(mode, |p| {
        p.one(PMIX_SCOPE, Value::Scope(PMIX_GLOBAL))
            .buffer(mode, &raw);
    })
}

fn fence(mode: BufferType) -> Vec<u8> {
    body(mode, |p| {
        p.procs_always(&[Proc::new("fz", PMIX_RANK_WILDCARD)])
            .infos(&[Info::new(PMIX_COLLECT_DATA.to_bytes(), Value::Bool(true))]);
    })
}

fn get(mode: BufferType, rank: u32, key: &str) -> Vec<u8> {
    body(mode, |p| {
        p.string(Some(b"fz"))
            .rank(rank)
            .infos(&[])
            .string(Some(key.as_bytes()));
    })
}

/// REQ, COMMIT, FENCE, GET (own key, a job key of the peer), FINALIZE.
fn basic(mode: BufferType) -> Vec<FrameSpec> {
    vec![
        FrameSpec::request(cmd::REQ, Vec::new()),
        FrameSpec::request(cmd::COMMIT, commit(mode)),
        FrameSpec::request(cmd::FENCENB, fence(mode)),
        FrameSpec::request(cmd::GETNB, get(mode, 0, "fz.key")),
        FrameSpec::request(cmd::GETNB, get(mode, 1, "pmix.hname")),
        FrameSpec::request(cmd::GETNB, get(mode, PMIX_RANK_WILDCARD, "pmix.job.size")),
        FrameSpec::request(cmd::FINALIZE, Vec::new()),
    ]
}

/// A fence with a timeout that cannot complete (fz:1 never joins), and a get with a
/// timeout for a key fz:1 never commits: the timer paths.
fn timeouts(mode: BufferType) -> Vec<FrameSpec> {
    let t = [Info::new(PMIX_TIMEOUT.to_bytes(), Value::Int32(1))];
    vec![
        FrameSpec::request(
            cmd::FENCENB,
            body(mode, |p| {
                p.procs_always(&[Proc::new("fz", 0), Proc::new("fz", 1)])
                    .infos(&t);
            }),
        ),
        FrameSpec::request(
            cmd::GETNB,
            body(mode, |p| {
                p.string(Some(b"fz"))
                    .rank(1)
                    .infos(&t)
                    .string(Some(b"fz.never"));
            }),
        ),
    ]
}

/// Commands the test host answers.
fn host_cmds(mode: BufferType) -> Vec<FrameSpec> {
    let info = [Info::new("fz.pub", Value::Uint32(7))];
    vec![
        FrameSpec::request(cmd::REQ, Vec::new()),
        FrameSpec::request(
            cmd::REGEVENTS,
            body(mode, |p| {
                p.size(0).infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::NOTIFY,
            body(mode, |p| {
                p.status(-1000).range(PMIX_RANGE_NAMESPACE).infos(&info);
            }),
        ),
        FrameSpec::request(
            cmd::PUBLISHNB,
            body(mode, |p| {
                p.u32(0).infos(&info);
            }),
        ),
        FrameSpec::request(
            cmd::LOOKUPNB,
            body(mode, |p| {
                p.u32(0).size(1).string(Some(b"fz.pub")).infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::CONNECTNB,
            body(mode, |p| {
                p.procs_always(&[Proc::new("fz", PMIX_RANK_WILDCARD)])
                    .infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::GROUP_CONSTRUCT,
            body(mode, |p| {
                p.string(Some(b"grp"))
                    .procs_always(&[Proc::new("fz", 0)])
                    .infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::GROUP_DESTRUCT,
            body(mode, |p| {
                p.string(Some(b"grp")).infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::GET_CREDENTIAL,
            body(mode, |p| {
                p.infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::VALIDATE_CRED,
            body(mode, |p| {
                p.bytes(b"fuzz-cred").infos(&[]);
            }),
        ),
        FrameSpec::request(
            cmd::DEREGEVENTS,
            body(mode, |p| {
                p.status(cmd::DEFAULT_HANDLER_CODE);
            }),
        ),
        FrameSpec::request(cmd::FINALIZE, Vec::new()),
    ]
}

fn seed(mode: Mode, frames: &[FrameSpec]) -> Vec<u8> {
    let mut v = vec![mode.to_byte()];
    v.extend(encode_frames(frames));
    v
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corpus/server".into());
    std::fs::create_dir_all(&dir).expect("create the corpus directory");
    let m = |start, test_host, buffer| Mode {
        start,
        test_host,
        buffer,
        tool_claims_client_id: false,
    };
    let nd = BufferType::NonDesc;
    let fd = BufferType::FullyDesc;
    let mut seeds: Vec<(&str, Vec<u8>)> = vec![
        (
            "client-basic-nohost",
            seed(m(Start::Client, false, nd), &basic(nd)),
        ),
        (
            "client-basic-host",
            seed(m(Start::Client, true, nd), &basic(nd)),
        ),
        (
            "client-basic-fulldesc",
            seed(m(Start::Client, true, fd), &basic(fd)),
        ),
        (
            "client-host-cmds",
            seed(m(Start::Client, true, nd), &host_cmds(nd)),
        ),
        (
            "client-timeouts",
            seed(m(Start::Client, false, nd), &timeouts(nd)),
        ),
        (
            "tool-given-id",
            seed(m(Start::ToolGivenId, false, nd), &basic(nd)),
        ),
        (
            "tool-needs-id-host",
            seed(m(Start::ToolNeedsId, true, nd), &host_cmds(nd)),
        ),
    ];
    // The whole stream, handshake included, for the handshake parser.
    let (uid, gid) = pmix_core::wire::own_ids();
    let mut raw = vec![m(Start::Raw, false, nd).to_byte()];
    raw.extend(
        Hello {
            psec: "native".into(),
            cred: native_cred(uid, gid),
            kind: PeerKind::SimpleClient,
            uid,
            gid,
            id: Some(Proc::new("fz", 0)),
            version: "4.2.2rc2".into(),
            bfrops: "v41".into(),
            buffer_type: nd,
            gds: "hash".into(),
            info: Vec::new(),
        }
        .encode(),
    );
    raw.extend(wire_frames(nd, &basic(nd)));
    seeds.push(("raw-client", raw));
    let mut raw_tool = vec![m(Start::Raw, true, nd).to_byte()];
    raw_tool.extend(
        Hello {
            psec: "native".into(),
            cred: native_cred(uid, gid),
            kind: PeerKind::ToolNeedsId,
            uid,
            gid,
            id: None,
            version: "4.2.2".into(),
            bfrops: "v41".into(),
            buffer_type: nd,
            gds: "hash".into(),
            info: vec![Info::new(
                PMIX_CMD_LINE.to_bytes(),
                Value::String(Some("t".into())),
            )],
        }
        .encode(),
    );
    raw_tool.extend(wire_frames(nd, &basic(nd)));
    seeds.push(("raw-tool", raw_tool));
    for (name, bytes) in seeds {
        let path = format!("{dir}/seed-{name}");
        std::fs::write(&path, bytes).expect("write a seed");
        println!("{path}");
    }
}
