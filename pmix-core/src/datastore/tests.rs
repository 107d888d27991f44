//! Tests of the datastore: the job data forms of the protocol notes (section 6.2, captured
//! and minimal), a server registration's own reply read back by a client store, the
//! retrieval rules, GETNB blobs (the captured bytes of section 2.2), modex scopes, fence
//! contributions, and hostile input.

use core::ffi::CStr;

use pmix_sys::*;
use proptest::prelude::*;

use super::realm::info_items;
use super::*;
use crate::codec::{BufferType, Decoder, Encoder};
use crate::values::*;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const MODES: [BufferType; 2] = [BufferType::NonDesc, BufferType::FullyDesc];

fn key(k: &CStr) -> &[u8] {
    k.to_bytes()
}

fn s(x: &str) -> Value {
    Value::String(Some(x.into()))
}

fn kv(k: &CStr, value: Value) -> Kval {
    Kval {
        key: PStr::from(k.to_bytes()),
        value,
    }
}

fn kvs(k: &str, value: Value) -> Kval {
    Kval {
        key: k.into(),
        value,
    }
}

fn info(k: &CStr, value: Value) -> Info {
    Info::new(PStr::from(k.to_bytes()), value)
}

fn flag(k: &CStr) -> Info {
    info(k, Value::Bool(true))
}

/// A DATA_ARRAY of INFO with ARRAY_END on the last element, as the reference sends them.
fn arr(items: Vec<Info>) -> Value {
    super::realm::info_array(items)
}

fn proc(ns: &str, rank: u32) -> Proc {
    Proc::new(ns, rank)
}

fn q(info: &[Info]) -> GetQuals {
    GetQuals::parse(info)
}

fn none() -> GetQuals {
    GetQuals::default()
}

/// A REQ reply as a server packs it: `PACK(STRING nspace)` then `PACK(KVAL, 1)` each.
fn req_reply_bytes(mode: BufferType, nspace: &str, kvals: &[Kval]) -> Vec<u8> {
    let mut e = Encoder::new(mode);
    e.pack(PMIX_STRING, &[s(nspace)]).unwrap();
    for k in kvals {
        e.pack(PMIX_KVAL, &[Value::Kval(Box::new(k.clone()))])
            .unwrap();
    }
    e.into_bytes()
}

/// Reads a REQ reply the way the client role does: the nspace, then KVALs to the end.
fn read_req_reply(mode: BufferType, bytes: &[u8]) -> (PStr, Vec<Kval>) {
    let mut d = Decoder::new(mode, bytes);
    let ns = match d.unpack(PMIX_STRING, 1).unwrap().values.remove(0) {
        Value::String(Some(ns)) => ns,
        v => panic!("nspace is {v:?}"),
    };
    let kvals = read_kvals(&mut d, true).unwrap();
    (ns, kvals)
}

/// A `pmix.pblob`: BYTE_OBJECT of `PACK(PROC_RANK)` + `PACK(KVAL)*`.
fn pblob(mode: BufferType, rank: u32, kvals: &[Kval]) -> Kval {
    let mut e = Encoder::new(mode);
    e.pack(PMIX_PROC_RANK, &[Value::ProcRank(rank)]).unwrap();
    pack_kvals(&mut e, kvals);
    kv(PMIX_PROC_BLOB, Value::ByteObject(e.into_bytes()))
}

/// The REQ reply captured from a 4.2 server for a 2-rank hash job (protocol notes 6.2).
fn captured_reply(mode: BufferType) -> Vec<Kval> {
    let rank = |r: u16| {
        pblob(
            mode,
            u32::from(r),
            &[
                kv(PMIX_LOCAL_RANK, Value::Uint16(r)),
                kv(PMIX_NODE_RANK, Value::Uint16(r)),
                kv(PMIX_HOSTNAME, s("vm")),
                kv(PMIX_APPNUM, Value::Uint32(0)),
            ],
        )
    };
    vec![
        kv(PMIX_JOB_SIZE, Value::Uint32(2)),
        kv(PMIX_JOBID, s("testjob")),
        kv(PMIX_APPNUM, Value::Uint32(0)),
        kv(PMIX_NSDIR, s("/tmp/testns")),
        kv(PMIX_NUM_NODES, Value::Uint32(1)),
        kv(PMIX_NODE_LIST, s("vm")),
        kv(PMIX_MAX_PROCS, Value::Uint32(2)),
        kvs("pmix.bfrops.mod", s("4.2.2rc2")),
        kv(
            PMIX_SESSION_INFO_ARRAY,
            arr(vec![
                info(PMIX_SESSION_ID, Value::Uint32(u32::MAX)),
                info(PMIX_UNIV_SIZE, Value::Uint32(2)),
            ]),
        ),
        kv(
            PMIX_NODE_INFO_ARRAY,
            arr(vec![
                info(PMIX_HOSTNAME, s("vm")),
                info(PMIX_LOCAL_PEERS, s("0,1")),
                info(PMIX_LOCALLDR, Value::ProcRank(0)),
                info(PMIX_LOCAL_SIZE, Value::Uint32(2)),
            ]),
        ),
        rank(0),
        rank(1),
    ]
}

/// The minimal REQ reply a real 4.2 client accepted (protocol notes 6.2).
fn minimal_reply() -> Vec<Kval> {
    vec![
        kv(PMIX_JOB_SIZE, Value::Uint32(1)),
        kv(PMIX_UNIV_SIZE, Value::Uint32(1)),
        kv(PMIX_LOCAL_SIZE, Value::Uint32(1)),
        kv(PMIX_LOCAL_PEERS, s("0")),
        kv(PMIX_NODEID, Value::Uint32(0)),
        kv(
            PMIX_PROC_DATA,
            arr(vec![
                info(PMIX_RANK, Value::ProcRank(0)),
                info(PMIX_LOCAL_RANK, Value::Uint16(0)),
                info(PMIX_NODE_RANK, Value::Uint16(0)),
                info(PMIX_HOSTNAME, s("host")),
                info(PMIX_APPNUM, Value::Uint32(0)),
            ]),
        ),
    ]
}

fn ingest(me: Proc, mode: BufferType, nspace: &str, kvals: &[Kval]) -> ClientStore {
    let bytes = req_reply_bytes(mode, nspace, kvals);
    let (ns, kvals) = read_req_reply(mode, &bytes);
    assert_eq!(ns, nspace);
    let mut store = ClientStore::new(me);
    store.ingest_job(mode, &ns, kvals).unwrap();
    store
}

fn found(l: Lookup) -> Value {
    match l {
        Lookup::Found(v) => v,
        other => panic!("expected a value, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// The captured REQ reply
// ---------------------------------------------------------------------------------------

#[test]
fn captured_reply_job_level() {
    for mode in MODES {
        let st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
        let w = proc("testns", PMIX_RANK_WILDCARD);
        let ns = PStr::from("testns");
        assert!(st.has_job(&ns));
        assert_eq!(st.job_size(&ns), Some(2));
        assert_eq!(st.local_peers(&ns), Some(vec![0, 1]));
        assert_eq!(
            found(st.get(&w, key(PMIX_JOB_SIZE), &none())),
            Value::Uint32(2)
        );
        assert_eq!(found(st.get(&w, key(PMIX_JOBID), &none())), s("testjob"));
        assert_eq!(
            found(st.get(&w, b"pmix.bfrops.mod", &none())),
            s("4.2.2rc2")
        );
        // session-level, inside pmix.ssn.arr only
        assert_eq!(
            found(st.get(&w, key(PMIX_UNIV_SIZE), &none())),
            Value::Uint32(2)
        );
        // node-level, inside my node's pmix.node.arr (my host "vm" from my pblob)
        assert_eq!(found(st.get(&w, key(PMIX_LOCAL_PEERS), &none())), s("0,1"));
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCAL_SIZE), &none())),
            Value::Uint32(2)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCALLDR), &none())),
            Value::ProcRank(0)
        );
        assert_eq!(found(st.get(&w, key(PMIX_HOSTNAME), &none())), s("vm"));
        assert_eq!(st.my_hostname(), Some(&PStr::from("vm")));
        // reserved and absent: the job data is complete
        assert_eq!(st.get(&w, b"pmix.no.such.key", &none()), Lookup::NotFound);
        assert_eq!(st.get(&w, key(PMIX_CPUSET), &none()), Lookup::NotFound);
    }
}

#[test]
fn captured_reply_ranks() {
    let mode = BufferType::NonDesc;
    let st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let r0 = proc("testns", 0);
    let r1 = proc("testns", 1);
    assert_eq!(
        found(st.get(&r1, key(PMIX_LOCAL_RANK), &none())),
        Value::Uint16(1)
    );
    assert_eq!(
        found(st.get(&r0, key(PMIX_LOCAL_RANK), &none())),
        Value::Uint16(0)
    );
    assert_eq!(found(st.get(&r0, key(PMIX_HOSTNAME), &none())), s("vm"));
    assert_eq!(
        found(st.get(&r1, key(PMIX_APPNUM), &none())),
        Value::Uint32(0)
    );
    // A reserved key of another realm asked of a rank: the realm's value.
    assert_eq!(
        found(st.get(&r1, key(PMIX_JOB_SIZE), &none())),
        Value::Uint32(2)
    );
    assert_eq!(
        found(st.get(&r1, key(PMIX_LOCAL_SIZE), &none())),
        Value::Uint32(2)
    );
    assert_eq!(
        found(st.get(&r0, key(PMIX_UNIV_SIZE), &none())),
        Value::Uint32(2)
    );
    // A process-level key the rank lacks is not taken from elsewhere.
    assert_eq!(
        st.get(&r0, key(PMIX_GLOBAL_RANK), &none()),
        Lookup::NotFound
    );
    // Non-reserved keys of other procs: ask the server, unless optional.
    assert_eq!(st.get(&r0, b"mykey", &none()), Lookup::Missing);
    assert_eq!(
        st.get(&r0, b"mykey", &q(&[flag(PMIX_OPTIONAL)])),
        Lookup::NotFound
    );
    // A namespace we know nothing of: ask the server, even for reserved keys.
    let other = proc("otherns", 0);
    assert_eq!(
        st.get(&other, key(PMIX_LOCAL_RANK), &none()),
        Lookup::Missing
    );
    assert_eq!(
        st.get(
            &proc("otherns", PMIX_RANK_WILDCARD),
            key(PMIX_JOB_SIZE),
            &none()
        ),
        Lookup::Missing
    );
    assert!(!st.has_job(&PStr::from("otherns")));
}

#[test]
fn captured_reply_undef_rank() {
    let mode = BufferType::NonDesc;
    let mut st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let u = proc("testns", PMIX_RANK_UNDEF);
    // job level first
    assert_eq!(
        found(st.get(&u, key(PMIX_JOB_SIZE), &none())),
        Value::Uint32(2)
    );
    // then the lowest rank holding the key
    assert_eq!(
        found(st.get(&u, key(PMIX_LOCAL_RANK), &none())),
        Value::Uint16(0)
    );
    assert_eq!(st.get(&u, b"global.key", &none()), Lookup::Missing);
    st.store(&proc("testns", 1), "global.key".into(), s("one"));
    st.store(&proc("testns", 0), "global.key".into(), s("zero"));
    assert_eq!(found(st.get(&u, b"global.key", &none())), s("zero"));
}

#[test]
fn captured_reply_qualifiers() {
    let mode = BufferType::NonDesc;
    let st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let w = proc("testns", PMIX_RANK_WILDCARD);
    let on_vm = [flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s("vm"))];
    assert_eq!(
        found(st.get(&w, key(PMIX_LOCAL_SIZE), &q(&on_vm))),
        Value::Uint32(2)
    );
    // a hostname qualifier without PMIX_NODE_INFO still selects the node for node keys
    let vm_only = [info(PMIX_HOSTNAME, s("vm"))];
    assert_eq!(
        found(st.get(&w, key(PMIX_LOCAL_PEERS), &q(&vm_only))),
        s("0,1")
    );
    let elsewhere = [flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s("other"))];
    assert_eq!(
        st.get(&w, key(PMIX_LOCAL_SIZE), &q(&elsewhere)),
        Lookup::NotFound
    );
    assert_eq!(
        found(st.get(&w, key(PMIX_HOSTNAME), &q(&elsewhere))),
        s("other")
    );
    // PMIX_NODE_INFO with a rank: that rank's node
    let node = [flag(PMIX_NODE_INFO)];
    assert_eq!(
        found(st.get(&proc("testns", 0), key(PMIX_LOCAL_PEERS), &q(&node))),
        s("0,1")
    );
    // the session realm
    let ssn = [flag(PMIX_SESSION_INFO)];
    assert_eq!(
        found(st.get(&w, key(PMIX_UNIV_SIZE), &q(&ssn))),
        Value::Uint32(2)
    );
    assert_eq!(st.get(&w, key(PMIX_NUM_NODES), &q(&ssn)), Lookup::NotFound);
    // the app realm: app 0 is ours; the reply has no app array
    let app = [flag(PMIX_APP_INFO)];
    assert_eq!(
        found(st.get(&w, key(PMIX_APPNUM), &q(&app))),
        Value::Uint32(0)
    );
    assert_eq!(st.get(&w, key(PMIX_APP_SIZE), &q(&app)), Lookup::NotFound);
}

// ---------------------------------------------------------------------------------------
// The minimal REQ reply
// ---------------------------------------------------------------------------------------

#[test]
fn minimal_reply_is_understood() {
    for mode in MODES {
        let st = ingest(proc("fakens", 0), mode, "fakens", &minimal_reply());
        let ns = PStr::from("fakens");
        let w = proc("fakens", PMIX_RANK_WILDCARD);
        let me = proc("fakens", 0);
        assert_eq!(st.job_size(&ns), Some(1));
        assert_eq!(st.local_peers(&ns), Some(vec![0]));
        assert_eq!(
            found(st.get(&w, key(PMIX_JOB_SIZE), &none())),
            Value::Uint32(1)
        );
        assert_eq!(
            found(st.get(&me, key(PMIX_LOCAL_RANK), &none())),
            Value::Uint16(0)
        );
        assert_eq!(
            found(st.get(&me, key(PMIX_NODE_RANK), &none())),
            Value::Uint16(0)
        );
        // node-level keys at job level are reachable by a plain WILDCARD get...
        assert_eq!(found(st.get(&w, key(PMIX_LOCAL_PEERS), &none())), s("0"));
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCAL_SIZE), &none())),
            Value::Uint32(1)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_NODEID), &none())),
            Value::Uint32(0)
        );
        // ... and through the node realm of my own node
        let mine = [flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s("host"))];
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCAL_SIZE), &q(&mine))),
            Value::Uint32(1)
        );
        // my host comes from my proc data
        assert_eq!(found(st.get(&w, key(PMIX_HOSTNAME), &none())), s("host"));
        assert_eq!(found(st.get(&me, key(PMIX_HOSTNAME), &none())), s("host"));
        // the session key at job level, asked in the session realm
        let ssn = [flag(PMIX_SESSION_INFO)];
        assert_eq!(
            found(st.get(&w, key(PMIX_UNIV_SIZE), &q(&ssn))),
            Value::Uint32(1)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_UNIV_SIZE), &none())),
            Value::Uint32(1)
        );
    }
}

// ---------------------------------------------------------------------------------------
// A server registration, its reply, and a client reading it
// ---------------------------------------------------------------------------------------

fn registration(proc_map_as_regex: bool) -> Vec<Info> {
    let nodes = [PStr::from("n0"), PStr::from("n1")];
    let nmap = crate::regex::node_map_of(&nodes).unwrap();
    let pmap = crate::regex::proc_map_of(&[vec![0, 2], vec![1, 3]]).unwrap();
    let pmap = if proc_map_as_regex {
        Value::Regex(pmap)
    } else {
        Value::String(Some(PStr::from(pmap)))
    };
    let mut all = vec![
        info(PMIX_JOB_SIZE, Value::Uint32(4)),
        info(PMIX_UNIV_SIZE, Value::Uint32(8)),
        info(PMIX_NODE_MAP, Value::String(Some(PStr::from(nmap)))),
        info(PMIX_PROC_MAP, pmap),
        info(
            PMIX_APP_INFO_ARRAY,
            arr(vec![
                info(PMIX_APPNUM, Value::Uint32(0)),
                info(PMIX_APP_SIZE, Value::Uint32(4)),
            ]),
        ),
        info(
            PMIX_SESSION_INFO_ARRAY,
            arr(vec![
                info(PMIX_SESSION_ID, Value::Uint32(7)),
                info(PMIX_MAX_PROCS, Value::Uint32(16)),
                info(PMIX_NUM_NODES, Value::Uint32(2)),
            ]),
        ),
        info(
            PMIX_JOB_INFO_ARRAY,
            arr(vec![
                info(PMIX_JOBID, s("j1")),
                info(PMIX_NUM_SLOTS, Value::Uint32(4)),
            ]),
        ),
        Info::new("host.custom", s("x")),
    ];
    for r in 0..4u32 {
        // the rank typed UINT32 for even ranks, PROC_RANK for odd ones
        let rank = if r % 2 == 0 {
            Value::Uint32(r)
        } else {
            Value::ProcRank(r)
        };
        all.push(info(
            PMIX_PROC_DATA,
            arr(vec![
                info(PMIX_RANK, rank),
                info(PMIX_APPNUM, Value::Uint32(0)),
                info(PMIX_NODE_RANK, Value::Uint16(r as u16)),
            ]),
        ));
    }
    all
}

#[test]
fn job_record_expands_the_maps() {
    let rec = JobRecord::from_register(&"ns".into(), 2, &registration(true), &"n1".into()).unwrap();
    assert_eq!(rec.job_size(), 4);
    assert_eq!(rec.local_ranks(), [1, 3]);
    assert_eq!(rec.node_names(), vec![PStr::from("n0"), PStr::from("n1")]);
    let w = PMIX_RANK_WILDCARD;
    assert_eq!(rec.get(w, key(PMIX_NODE_LIST)), Some(s("n0,n1")));
    assert_eq!(rec.get(w, key(PMIX_NUM_NODES)), Some(Value::Uint32(2)));
    assert_eq!(rec.get(w, key(PMIX_LOCAL_PEERS)), Some(s("1,3")));
    assert_eq!(rec.get(w, key(PMIX_LOCAL_SIZE)), Some(Value::Uint32(2)));
    assert_eq!(rec.get(w, key(PMIX_LOCALLDR)), Some(Value::ProcRank(1)));
    assert_eq!(rec.get(w, key(PMIX_JOBID)), Some(s("j1")));
    assert_eq!(rec.get(w, b"host.custom"), Some(s("x")));
    assert_eq!(rec.get(3, key(PMIX_HOSTNAME)), Some(s("n1")));
    assert_eq!(rec.get(3, key(PMIX_NODEID)), Some(Value::Uint32(1)));
    assert_eq!(rec.get(3, key(PMIX_LOCAL_RANK)), Some(Value::Uint16(1)));
    assert_eq!(rec.get(2, key(PMIX_NODE_RANK)), Some(Value::Uint16(2)));
    assert_eq!(rec.get(0, key(PMIX_HOSTNAME)), Some(s("n0")));
    let r0 = rec.rank_info(0);
    assert!(
        r0.iter()
            .any(|k| k.key == "pmix.hname" && k.value == s("n0"))
    );
    assert!(rec.rank_info(9).is_empty());
    // the reply: the maps are not sent, one pdata per rank, ARRAY_END on the last element
    let reply = rec.req_reply();
    assert!(!reply.iter().any(|k| k.key.as_bytes() == key(PMIX_NODE_MAP)));
    let pdata: Vec<_> = reply
        .iter()
        .filter(|k| k.key.as_bytes() == key(PMIX_PROC_DATA))
        .collect();
    assert_eq!(pdata.len(), 4);
    for (r, p) in pdata.iter().enumerate() {
        let items: Vec<&Info> = info_items(&p.value).unwrap().collect();
        assert_eq!(items[0].key, "pmix.rank");
        assert_eq!(items[0].value, Value::ProcRank(r as u32));
        assert_eq!(
            items.last().unwrap().flags & PMIX_INFO_ARRAY_END,
            PMIX_INFO_ARRAY_END
        );
        assert!(items[..items.len() - 1].iter().all(|i| i.flags == 0));
    }
    assert_eq!(
        reply
            .iter()
            .filter(|k| k.key.as_bytes() == key(PMIX_NODE_INFO_ARRAY))
            .count(),
        2
    );
    assert_eq!(rec.wildcard_kvals(), reply);
}

#[test]
fn job_record_reply_round_trip() {
    for (mode, regex) in [(BufferType::NonDesc, true), (BufferType::FullyDesc, false)] {
        let rec =
            JobRecord::from_register(&"ns".into(), 2, &registration(regex), &"n1".into()).unwrap();
        let st = ingest(proc("ns", 3), mode, "ns", &rec.req_reply());
        let ns = PStr::from("ns");
        let w = proc("ns", PMIX_RANK_WILDCARD);
        assert_eq!(st.job_size(&ns), Some(4));
        assert_eq!(st.local_peers(&ns), Some(vec![1, 3]));
        assert_eq!(st.my_hostname(), Some(&PStr::from("n1")));
        assert_eq!(found(st.get(&w, key(PMIX_LOCAL_PEERS), &none())), s("1,3"));
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCALLDR), &none())),
            Value::ProcRank(1)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_NODEID), &none())),
            Value::Uint32(1)
        );
        assert_eq!(found(st.get(&w, key(PMIX_NODE_LIST), &none())), s("n0,n1"));
        assert_eq!(found(st.get(&w, key(PMIX_JOBID), &none())), s("j1"));
        assert_eq!(found(st.get(&w, b"host.custom", &none())), s("x"));
        assert_eq!(
            found(st.get(&proc("ns", 0), key(PMIX_HOSTNAME), &none())),
            s("n0")
        );
        assert_eq!(
            found(st.get(&proc("ns", 2), key(PMIX_LOCAL_RANK), &none())),
            Value::Uint16(1)
        );
        // node realm: by name, by id, and the node of a rank
        let n0 = [flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s("n0"))];
        assert_eq!(found(st.get(&w, key(PMIX_LOCAL_PEERS), &q(&n0))), s("0,2"));
        let id0 = [flag(PMIX_NODE_INFO), info(PMIX_NODEID, Value::Uint32(0))];
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCAL_SIZE), &q(&id0))),
            Value::Uint32(2)
        );
        assert_eq!(found(st.get(&w, key(PMIX_HOSTNAME), &q(&id0))), s("n0"));
        let node = [flag(PMIX_NODE_INFO)];
        assert_eq!(
            found(st.get(&proc("ns", 2), key(PMIX_LOCAL_PEERS), &q(&node))),
            s("0,2")
        );
        let id9 = [flag(PMIX_NODE_INFO), info(PMIX_NODEID, Value::Uint32(9))];
        assert_eq!(st.get(&w, key(PMIX_LOCAL_SIZE), &q(&id9)), Lookup::NotFound);
        // app realm: with the qualifier, by key, and as a rank's fallback
        let app = [flag(PMIX_APP_INFO)];
        assert_eq!(
            found(st.get(&w, key(PMIX_APP_SIZE), &q(&app))),
            Value::Uint32(4)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_APP_SIZE), &none())),
            Value::Uint32(4)
        );
        assert_eq!(
            found(st.get(&proc("ns", 2), key(PMIX_APP_SIZE), &none())),
            Value::Uint32(4)
        );
        let app0 = [flag(PMIX_APP_INFO), info(PMIX_APPNUM, Value::Uint32(0))];
        assert_eq!(
            found(st.get(&w, key(PMIX_APP_SIZE), &q(&app0))),
            Value::Uint32(4)
        );
        let app5 = [flag(PMIX_APP_INFO), info(PMIX_APPNUM, Value::Uint32(5))];
        assert_eq!(st.get(&w, key(PMIX_APP_SIZE), &q(&app5)), Lookup::NotFound);
        // session realm: own session, by id, an unknown session
        let ssn = [flag(PMIX_SESSION_INFO)];
        assert_eq!(
            found(st.get(&w, key(PMIX_NUM_NODES), &q(&ssn))),
            Value::Uint32(2)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_SESSION_ID), &q(&ssn))),
            Value::Uint32(7)
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_MAX_PROCS), &q(&ssn))),
            Value::Uint32(16)
        );
        let s7 = [
            flag(PMIX_SESSION_INFO),
            info(PMIX_SESSION_ID, Value::Uint32(7)),
        ];
        assert_eq!(
            found(st.get(&w, key(PMIX_MAX_PROCS), &q(&s7))),
            Value::Uint32(16)
        );
        let s99 = [
            flag(PMIX_SESSION_INFO),
            info(PMIX_SESSION_ID, Value::Uint32(99)),
        ];
        assert_eq!(st.get(&w, key(PMIX_MAX_PROCS), &q(&s99)), Lookup::Missing);
        // job-level max.size is not the session's
        assert_eq!(st.get(&w, key(PMIX_MAX_PROCS), &none()), Lookup::NotFound);
        // univ.size was registered at job level
        assert_eq!(
            found(st.get(&w, key(PMIX_UNIV_SIZE), &none())),
            Value::Uint32(8)
        );
    }
}

#[test]
fn job_record_errors() {
    let ns = PStr::from("ns");
    let host = PStr::from("h");
    let no_rank = [info(
        PMIX_PROC_DATA,
        arr(vec![info(PMIX_APPNUM, Value::Uint32(0))]),
    )];
    assert_eq!(
        JobRecord::from_register(&ns, 1, &no_rank, &host).unwrap_err(),
        crate::Error::BadParam
    );
    let not_array = [info(PMIX_NODE_INFO_ARRAY, Value::Uint32(3))];
    assert_eq!(
        JobRecord::from_register(&ns, 1, &not_array, &host).unwrap_err(),
        crate::Error::TypeMismatch
    );
    let nameless = [info(
        PMIX_NODE_INFO_ARRAY,
        arr(vec![info(PMIX_LOCAL_SIZE, Value::Uint32(1))]),
    )];
    assert!(JobRecord::from_register(&ns, 1, &nameless, &host).is_err());
    let mismatch = [
        info(PMIX_NODE_MAP, s("pmix[a,b]")),
        info(PMIX_PROC_MAP, s("pmix[0-3]")),
    ];
    assert_eq!(
        JobRecord::from_register(&ns, 1, &mismatch, &host).unwrap_err(),
        crate::Error::BadParam
    );
    // add_info leaves the record unchanged on error
    let mut rec =
        JobRecord::from_register(&ns, 2, &[info(PMIX_JOB_SIZE, Value::Uint32(2))], &host).unwrap();
    assert!(
        rec.add_info(&[info(PMIX_JOB_SIZE, Value::Uint32(5)), not_array[0].clone()])
            .is_err()
    );
    assert_eq!(rec.job_size(), 2);
    // without maps, the local ranks are 0..nlocalprocs
    assert_eq!(rec.local_ranks(), [0, 1]);
    rec.add_info(&[info(PMIX_JOB_SIZE, Value::Uint32(5))])
        .unwrap();
    assert_eq!(rec.job_size(), 5);
}

#[test]
fn job_record_keeps_host_node_ids() {
    // The host describes node n1 with id 10; the map numbers only the others.
    let all = vec![
        info(PMIX_NODE_MAP, s("pmix[n0,n1]")),
        info(PMIX_PROC_MAP, s("pmix[0;1]")),
        info(
            PMIX_NODE_INFO_ARRAY,
            arr(vec![
                info(PMIX_HOSTNAME, s("n1")),
                info(PMIX_NODEID, Value::Uint32(10)),
                info(PMIX_NODE_SIZE, Value::Uint32(64)),
            ]),
        ),
        info(
            PMIX_PROC_DATA,
            arr(vec![
                info(PMIX_RANK, Value::ProcRank(1)),
                info(PMIX_HOSTNAME, s("n1")),
            ]),
        ),
    ];
    let rec = JobRecord::from_register(&"ns".into(), 1, &all, &"n1".into()).unwrap();
    assert_eq!(rec.get(1, key(PMIX_NODEID)), Some(Value::Uint32(10)));
    assert_eq!(rec.get(0, key(PMIX_NODEID)), Some(Value::Uint32(0)));
    assert_eq!(
        rec.get(PMIX_RANK_WILDCARD, key(PMIX_NODE_SIZE)),
        Some(Value::Uint32(64))
    );
    assert_eq!(rec.local_ranks(), [1]);
}

/// Slurm 22.05's registration as one of its slurmstepds makes it: a job-level PMIX_NODEID
/// of its own node, and every rank's PMIX_PROC_DATA with that same id, whichever node the
/// rank is on (PMIX_HOSTNAME right).
fn slurm_like(own_id: u32) -> Vec<Info> {
    let mut v = vec![
        info(PMIX_NODEID, Value::Uint32(own_id)),
        info(PMIX_NODE_MAP, s("pmix[n1,n2]")),
        info(PMIX_PROC_MAP, s("pmix[0,1;2,3]")),
    ];
    for r in 0..4u32 {
        v.push(info(
            PMIX_PROC_DATA,
            arr(vec![
                info(PMIX_RANK, Value::ProcRank(r)),
                info(PMIX_HOSTNAME, s(if r < 2 { "n1" } else { "n2" })),
                info(PMIX_NODEID, Value::Uint32(own_id)),
            ]),
        ));
    }
    v
}

#[test]
fn a_per_rank_node_id_naming_another_node_of_the_map_gives_way_to_the_maps() {
    for (own, own_id) in [("n1", 0), ("n2", 1)] {
        let rec =
            JobRecord::from_register(&"ns".into(), 2, &slurm_like(own_id), &own.into()).unwrap();
        for r in 0..4u32 {
            let want = if r < 2 { 0 } else { 1 };
            assert_eq!(
                rec.get(r, key(PMIX_NODEID)),
                Some(Value::Uint32(want)),
                "rank {r} seen from {own}"
            );
        }
    }
    // A per-rank id that names no other node of the map is the host's to give: kept.
    let mut own_numbering = slurm_like(0);
    own_numbering.retain(|i| !i.is(PMIX_PROC_DATA));
    own_numbering.push(info(
        PMIX_PROC_DATA,
        arr(vec![
            info(PMIX_RANK, Value::ProcRank(3)),
            info(PMIX_HOSTNAME, s("n2")),
            info(PMIX_NODEID, Value::Uint32(7)),
        ]),
    ));
    let rec = JobRecord::from_register(&"ns".into(), 2, &own_numbering, &"n1".into()).unwrap();
    assert_eq!(rec.get(3, key(PMIX_NODEID)), Some(Value::Uint32(7)));
}

#[test]
fn host_names_match_by_short_name_and_alias() {
    let mode = BufferType::NonDesc;
    let reply = vec![
        kv(PMIX_JOB_SIZE, Value::Uint32(2)),
        kv(
            PMIX_NODE_INFO_ARRAY,
            arr(vec![
                info(PMIX_HOSTNAME, s("c1.cluster.org")),
                info(PMIX_NODEID, Value::Uint32(4)),
                info(PMIX_HOSTNAME_ALIASES, s("c1-ib,c1-eth")),
                info(PMIX_LOCAL_PEERS, s("0")),
            ]),
        ),
        kv(
            PMIX_NODE_INFO_ARRAY,
            arr(vec![
                info(PMIX_NODEID, Value::Uint32(5)),
                info(PMIX_LOCAL_PEERS, s("1")),
            ]),
        ),
        // the second node's name arrives in a later array naming it by id
        kv(
            PMIX_NODE_INFO_ARRAY,
            arr(vec![
                info(PMIX_NODEID, Value::Uint32(5)),
                info(PMIX_HOSTNAME, s("c2")),
                info(PMIX_NODE_SIZE, Value::Uint32(8)),
            ]),
        ),
    ];
    // no hostname in the job data for me: the one the client role gives is used
    let mut st = ingest(proc("ns", 1), mode, "ns", &reply);
    let w = proc("ns", PMIX_RANK_WILDCARD);
    assert_eq!(st.local_peers(&"ns".into()), None);
    st.set_my_hostname(Some("c2.cluster.org".into()));
    assert_eq!(st.local_peers(&"ns".into()), Some(vec![1]));
    assert_eq!(
        found(st.get(&w, key(PMIX_NODE_SIZE), &none())),
        Value::Uint32(8)
    );
    assert_eq!(
        found(st.get(&w, key(PMIX_NODEID), &none())),
        Value::Uint32(5)
    );
    for name in ["c1", "c1.cluster.org", "c1-ib", "c1.other.net"] {
        let sel = [flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s(name))];
        assert_eq!(
            found(st.get(&w, key(PMIX_LOCAL_PEERS), &q(&sel))),
            s("0"),
            "{name}"
        );
        assert_eq!(
            found(st.get(&w, key(PMIX_NODEID), &q(&sel))),
            Value::Uint32(4)
        );
    }
    let sel = [flag(PMIX_NODE_INFO), info(PMIX_NODEID, Value::Uint32(5))];
    assert_eq!(found(st.get(&w, key(PMIX_HOSTNAME), &q(&sel))), s("c2"));
    // the job data names my host: it wins over the one given
    st.store(&proc("ns", 1), PStr::from(key(PMIX_HOSTNAME)), s("c1-eth"));
    assert_eq!(st.my_hostname(), Some(&PStr::from("c1-eth")));
    assert_eq!(st.local_peers(&"ns".into()), Some(vec![0]));
}

// ---------------------------------------------------------------------------------------
// GETNB blobs
// ---------------------------------------------------------------------------------------

/// The BYTE_OBJECT content of the GETNB reply captured in protocol notes 2.2.
fn captured_getnb_blob() -> Vec<u8> {
    let mut b = vec![0x02, 0x0e];
    b.extend_from_slice(b"testns\0");
    b.push(0x00);
    b.extend_from_slice(&[0x02, 0x0c]);
    b.extend_from_slice(b"mykey\0");
    b.extend_from_slice(&[0x03, 0x18]);
    b.extend_from_slice(b"hello-modex\0");
    b.extend_from_slice(&[0x02, 0x10]);
    b.extend_from_slice(b"mylocal\0");
    b.extend_from_slice(&[0x0e, 0x07]);
    assert_eq!(b.len(), 44);
    b
}

#[test]
fn getnb_blob_matches_capture() {
    let kvals = [
        kvs("mykey", s("hello-modex")),
        kvs("mylocal", Value::Uint32(7)),
    ];
    let blob = blob_of(BufferType::NonDesc, &proc("testns", 0), &kvals);
    assert_eq!(blob, captured_getnb_blob());
    let (p, back) = decode_proc_blob(BufferType::NonDesc, &blob).unwrap();
    assert_eq!(p, proc("testns", 0));
    assert_eq!(back, kvals);
}

#[test]
fn getnb_blob_ingest() {
    let mode = BufferType::NonDesc;
    let mut st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let r0 = proc("testns", 0);
    assert_eq!(st.get(&r0, b"mykey", &none()), Lookup::Missing);
    st.ingest_blob(mode, &captured_getnb_blob()).unwrap();
    assert_eq!(found(st.get(&r0, b"mykey", &none())), s("hello-modex"));
    assert_eq!(found(st.get(&r0, b"mylocal", &none())), Value::Uint32(7));
    // job data of the rank is still there
    assert_eq!(
        found(st.get(&r0, key(PMIX_LOCAL_RANK), &none())),
        Value::Uint16(0)
    );
    // refresh: a non-reserved key is fetched again even though it is held
    let refresh = [flag(PMIX_GET_REFRESH_CACHE)];
    assert_eq!(st.get(&r0, b"mykey", &q(&refresh)), Lookup::Missing);
    assert_eq!(
        st.get(
            &r0,
            b"mykey",
            &q(&[flag(PMIX_GET_REFRESH_CACHE), flag(PMIX_OPTIONAL)])
        ),
        Lookup::Missing
    );
    assert_eq!(
        found(st.get(&r0, key(PMIX_LOCAL_RANK), &q(&refresh))),
        Value::Uint16(0)
    );
    // UNDEF in a blob stands for me
    let blob = blob_of(
        mode,
        &proc("testns", PMIX_RANK_UNDEF),
        &[kvs("mine", s("m"))],
    );
    st.ingest_blob(mode, &blob).unwrap();
    assert_eq!(found(st.get(&proc("testns", 1), b"mine", &none())), s("m"));
    // a newer value replaces the old one
    let blob = blob_of(mode, &r0, &[kvs("mykey", s("v2"))]);
    st.ingest_blob(mode, &blob).unwrap();
    assert_eq!(found(st.get(&r0, b"mykey", &none())), s("v2"));
}

#[test]
fn wildcard_blob_of_another_namespace() {
    let rec =
        JobRecord::from_register(&"other".into(), 2, &registration(true), &"n1".into()).unwrap();
    for mode in MODES {
        let mut st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
        let other = PStr::from("other");
        let blob = blob_of(
            mode,
            &proc("other", PMIX_RANK_WILDCARD),
            &rec.wildcard_kvals(),
        );
        st.ingest_blob(mode, &blob).unwrap();
        assert!(st.has_job(&other));
        assert_eq!(st.job_size(&other), Some(4));
        let w = proc("other", PMIX_RANK_WILDCARD);
        assert_eq!(found(st.get(&w, key(PMIX_JOBID), &none())), s("j1"));
        assert_eq!(
            found(st.get(&proc("other", 3), key(PMIX_HOSTNAME), &none())),
            s("n1")
        );
        assert_eq!(st.get(&w, key(PMIX_CPUSET), &none()), Lookup::NotFound);
        // I run on "vm": no node of that job is mine
        assert_eq!(st.local_peers(&other), None);
        assert_eq!(st.get(&w, key(PMIX_LOCAL_PEERS), &none()), Lookup::NotFound);
        // data of a rank of the other job arrives in a second blob
        let blob = blob_of(
            mode,
            &proc("other", 3),
            &[kvs("ep", Value::ByteObject(vec![1, 2]))],
        );
        st.ingest_blob(mode, &blob).unwrap();
        assert_eq!(
            found(st.get(&proc("other", 3), b"ep", &none())),
            Value::ByteObject(vec![1, 2])
        );
    }
}

#[test]
fn store_and_get_own_data() {
    let mode = BufferType::NonDesc;
    let mut st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let me = proc("testns", 1);
    st.store(&me, "own".into(), Value::Int(5));
    assert_eq!(found(st.get(&me, b"own", &none())), Value::Int(5));
    st.store(
        &proc("testns", PMIX_RANK_UNDEF),
        "own2".into(),
        Value::Int(6),
    );
    assert_eq!(found(st.get(&me, b"own2", &none())), Value::Int(6));
    st.store(
        &proc("testns", PMIX_RANK_WILDCARD),
        "job.extra".into(),
        s("e"),
    );
    assert_eq!(
        found(st.get(&proc("testns", PMIX_RANK_WILDCARD), b"job.extra", &none())),
        s("e")
    );
    // a snapshot is independent of later changes
    let snap = st.clone();
    st.store(&me, "own".into(), Value::Int(7));
    assert_eq!(found(snap.get(&me, b"own", &none())), Value::Int(5));
    assert_eq!(found(st.get(&me, b"own", &none())), Value::Int(7));
    // data stored for a namespace whose job data is unknown does not make it known
    st.store(&proc("third", 0), "k".into(), s("v"));
    assert!(!st.has_job(&PStr::from("third")));
    assert_eq!(
        st.get(&proc("third", 0), key(PMIX_LOCAL_RANK), &none()),
        Lookup::Missing
    );
    st.remove_nspace(&PStr::from("third"));
    assert_eq!(st.get(&proc("third", 0), b"k", &none()), Lookup::Missing);
}

#[test]
fn qualified_values() {
    let mode = BufferType::NonDesc;
    let mut reply = captured_reply(mode);
    let mut qual = info(PMIX_HOSTNAME, s("vm"));
    qual.flags = PMIX_INFO_QUALIFIER;
    reply.push(kv(
        PMIX_QUALIFIED_VALUE,
        arr(vec![Info::new("pmix.qk", Value::Uint32(5)), qual.clone()]),
    ));
    let st = ingest(proc("testns", 1), mode, "testns", &reply);
    let w = proc("testns", PMIX_RANK_WILDCARD);
    // PMIX_HOSTNAME is a node selector of the Get, not a qualifier: give another one
    let mut qual2 = Info::new("q.color", s("red"));
    qual2.flags = PMIX_INFO_QUALIFIER;
    assert_eq!(st.get(&w, b"pmix.qk", &none()), Lookup::NotFound);
    let mut reply = captured_reply(mode);
    reply.push(kv(
        PMIX_QUALIFIED_VALUE,
        arr(vec![Info::new("pmix.qk", Value::Uint32(6)), qual2.clone()]),
    ));
    let st = ingest(proc("testns", 1), mode, "testns", &reply);
    assert_eq!(
        found(st.get(&w, b"pmix.qk", &q(&[Info::new("q.color", s("red"))]))),
        Value::Uint32(6)
    );
    assert_eq!(
        st.get(&w, b"pmix.qk", &q(&[Info::new("q.color", s("blue"))])),
        Lookup::NotFound
    );
    // a JobRecord passes qualified values through
    let rec = JobRecord::from_register(
        &"ns".into(),
        1,
        &[info(
            PMIX_QUALIFIED_VALUE,
            arr(vec![Info::new("pmix.qk", Value::Uint32(6)), qual2]),
        )],
        &"h".into(),
    )
    .unwrap();
    let st = ingest(proc("ns", 0), mode, "ns", &rec.req_reply());
    assert_eq!(
        found(st.get(
            &proc("ns", PMIX_RANK_WILDCARD),
            b"pmix.qk",
            &q(&[Info::new("q.color", s("red"))])
        )),
        Value::Uint32(6)
    );
}

#[test]
fn ingest_job_errors_change_nothing() {
    let mode = BufferType::NonDesc;
    let mut st = ingest(proc("testns", 1), mode, "testns", &captured_reply(mode));
    let bad = vec![
        kv(PMIX_JOB_SIZE, Value::Uint32(99)),
        kv(PMIX_PROC_BLOB, Value::ByteObject(vec![0xff, 0xff])),
    ];
    assert!(st.ingest_job(mode, &"testns".into(), bad).is_err());
    assert_eq!(st.job_size(&"testns".into()), Some(2));
    let bad = vec![kv(PMIX_PROC_BLOB, Value::Uint32(1))];
    assert_eq!(
        st.ingest_job(mode, &"new".into(), bad).unwrap_err(),
        crate::Error::TypeMismatch
    );
    assert!(!st.has_job(&"new".into()));
    // the legacy map blob is ignored
    st.ingest_job(
        mode,
        &"new".into(),
        vec![kv(PMIX_MAP_BLOB, Value::ByteObject(vec![1]))],
    )
    .unwrap();
    assert!(st.has_job(&"new".into()));
}

// ---------------------------------------------------------------------------------------
// Get qualifiers
// ---------------------------------------------------------------------------------------

#[test]
fn get_quals_parse() {
    let q = GetQuals::parse(&[
        info(PMIX_OPTIONAL, Value::Undef),
        flag(PMIX_IMMEDIATE),
        info(PMIX_GET_REFRESH_CACHE, Value::Bool(false)),
        info(PMIX_TIMEOUT, Value::Int(5)),
        info(PMIX_DATA_SCOPE, Value::Scope(PMIX_REMOTE)),
        flag(PMIX_NODE_INFO),
        info(PMIX_NODEID, Value::Uint32(3)),
        info(PMIX_HOSTNAME, s("later")),
        flag(PMIX_APP_INFO),
        flag(PMIX_GET_STATIC_VALUES),
        Info::new("user.qual", Value::Int(1)),
    ]);
    assert!(q.optional && q.immediate && !q.refresh && q.static_values && !q.pointer_values);
    assert_eq!(q.timeout, Some(std::time::Duration::from_secs(5)));
    assert_eq!(q.scope, Some(PMIX_REMOTE));
    assert_eq!(q.node, Some(NodeSel::Id(3)));
    assert!(q.node_info && q.app_info && !q.session_info);
    assert_eq!(q.app, Some(None));
    assert_eq!(q.session, None);
    assert_eq!(q.qualifiers, vec![Info::new("user.qual", Value::Int(1))]);

    let q = GetQuals::parse(&[
        flag(PMIX_SESSION_INFO),
        info(PMIX_SESSION_ID, Value::Uint32(4)),
        info(PMIX_APPNUM, Value::Uint32(2)),
        info(PMIX_TIMEOUT, Value::Int(0)),
    ]);
    assert!(q.session_info);
    assert_eq!(q.session, Some(4));
    assert_eq!(q.app, Some(Some(2)));
    assert!(!q.app_info);
    assert_eq!(q.timeout, None);
    assert_eq!(q.node, None);

    let q = GetQuals::parse(&[flag(PMIX_NODE_INFO)]);
    assert_eq!(q.node, Some(NodeSel::Own));
    let q = GetQuals::parse(&[info(PMIX_HOSTNAME, s("h"))]);
    assert_eq!(q.node, Some(NodeSel::Name("h".into())));
    assert!(!q.node_info);
    assert_eq!(GetQuals::parse(&[]), GetQuals::default());
}

// ---------------------------------------------------------------------------------------
// Modex
// ---------------------------------------------------------------------------------------

#[test]
fn modex_scopes() {
    let mut m = ModexStore::new();
    let p = proc("ns", 0);
    assert!(!m.has(&p));
    assert_eq!(m.kvals(&p, true), None);
    // what a 4.2 client sends: LOCAL buffer (local + global values), REMOTE buffer
    // (remote + global values)
    m.commit(&p, PMIX_LOCAL, vec![kvs("l", s("L")), kvs("g", s("G"))]);
    m.commit(&p, PMIX_REMOTE, vec![kvs("r", s("R")), kvs("g", s("G"))]);
    assert!(m.has(&p));
    let local: Vec<_> = m
        .kvals(&p, true)
        .unwrap()
        .into_iter()
        .map(|k| k.key)
        .collect();
    let remote: Vec<_> = m
        .kvals(&p, false)
        .unwrap()
        .into_iter()
        .map(|k| k.key)
        .collect();
    // (in the order of the keys' first commit)
    assert_eq!(local, vec![PStr::from("l"), PStr::from("g")]);
    assert_eq!(remote, vec![PStr::from("g"), PStr::from("r")]);
    // a value sent in both buffers is one value; changing one side leaves the other
    m.commit(&p, PMIX_LOCAL, vec![kvs("g", s("G2"))]);
    assert!(m.kvals(&p, true).unwrap().contains(&kvs("g", s("G2"))));
    assert!(m.kvals(&p, false).unwrap().contains(&kvs("g", s("G"))));
    m.commit(&p, PMIX_REMOTE, vec![kvs("g", s("G3"))]);
    assert!(m.kvals(&p, true).unwrap().contains(&kvs("g", s("G2"))));
    assert!(m.kvals(&p, false).unwrap().contains(&kvs("g", s("G3"))));
    // a REMOTE-only key is not visible to a local requester (protocol notes 2.4)
    let q = proc("ns", 1);
    m.commit(&q, PMIX_REMOTE, vec![kvs("only.remote", s("x"))]);
    assert_eq!(m.kvals(&q, true), Some(vec![]));
    assert_eq!(m.kvals(&q, false).unwrap().len(), 1);
    // GLOBAL goes to both; a later commit replaces a value
    m.commit(&q, PMIX_GLOBAL, vec![kvs("both", s("1"))]);
    m.commit(&q, PMIX_GLOBAL, vec![kvs("both", s("2"))]);
    assert_eq!(m.kvals(&q, true).unwrap(), vec![kvs("both", s("2"))]);
    assert_eq!(m.kvals(&q, false).unwrap().len(), 2);
    // a bare commit marks the process
    let r = proc("ns", 2);
    m.commit(&r, PMIX_SCOPE_UNDEF, vec![]);
    assert!(m.has(&r));
    assert_eq!(m.kvals(&r, true), Some(vec![]));
    m.remove(&r);
    assert!(!m.has(&r));
    m.remove_nspace(&"ns".into());
    assert!(!m.has(&p));
}

/// What a server's own `PMIx_Get` without a key sees (`scoped`), as OpenPMIx's servers
/// answer it (session scenario getall): LOCAL the local view, REMOTE the remote one, GLOBAL
/// both in turn; a process of another node has no local view.
#[test]
fn modex_scoped_views_for_a_get_without_a_key() {
    let mut m = ModexStore::new();
    let p = proc("ns", 0);
    assert_eq!(m.scoped(&p, PMIX_REMOTE), vec![]);
    m.commit(&p, PMIX_LOCAL, vec![kvs("l", s("L")), kvs("g", s("G"))]);
    m.commit(&p, PMIX_REMOTE, vec![kvs("r", s("R")), kvs("g", s("G"))]);
    let keys = |scope| -> Vec<String> {
        m.scoped(&p, scope)
            .into_iter()
            .map(|k| k.key.to_string())
            .collect()
    };
    assert_eq!(keys(PMIX_LOCAL), ["l", "g"]);
    assert_eq!(keys(PMIX_REMOTE), ["g", "r"]);
    assert_eq!(keys(PMIX_GLOBAL), ["l", "g", "g", "r"]);
    let o = proc("other", 3);
    let blob = {
        let mut other = ModexStore::new();
        other.commit(&o, PMIX_GLOBAL, vec![kvs("o", s("1"))]);
        other.dmodex_answer(&o)
    };
    m.absorb_dmodex(&o, &blob).unwrap();
    assert_eq!(m.scoped(&o, PMIX_LOCAL), vec![]);
    assert_eq!(m.scoped(&o, PMIX_REMOTE), vec![kvs("o", s("1"))]);
    assert_eq!(m.scoped(&o, PMIX_GLOBAL), vec![kvs("o", s("1"))]);
}

/// COMMITs are numbered store-wide and each local-view key carries the number of the COMMIT
/// that last set it, so a server can send a requester only what changed since its last reply.
#[test]
fn modex_local_stamps_and_what_changed_since() {
    let mut m = ModexStore::new();
    let (p, q) = (proc("ns", 0), proc("ns", 1));
    assert_eq!(m.local_stamps(&p, b"a"), None);
    m.commit(&p, PMIX_LOCAL, vec![kvs("a", s("1")), kvs("b", s("1"))]); // 1
    m.commit(&q, PMIX_GLOBAL, vec![kvs("x", s("1"))]); // 2
    m.commit(&p, PMIX_REMOTE, vec![kvs("r", s("1"))]); // 3: not in the local view
    m.commit(&p, PMIX_GLOBAL, vec![kvs("c", s("1")), kvs("a", s("2"))]); // 4
    assert_eq!(m.local_stamps(&p, b"a"), Some((4, Some(4))));
    assert_eq!(m.local_stamps(&p, b"b"), Some((4, Some(1))));
    assert_eq!(m.local_stamps(&p, b"r"), Some((4, None)));
    assert_eq!(m.local_stamps(&q, b"x"), Some((2, Some(2))));
    assert_eq!(
        m.local_since(&p, 1),
        vec![kvs("a", s("2")), kvs("c", s("1"))]
    );
    assert_eq!(m.local_since(&p, 4), vec![]);
    assert_eq!(m.local_since(&p, 0).len(), 3);
    // Data from another node is no local view.
    let blob = {
        let mut other = ModexStore::new();
        other.commit(&proc("other", 0), PMIX_GLOBAL, vec![kvs("o", s("1"))]);
        other.dmodex_answer(&proc("other", 0))
    };
    m.absorb_dmodex(&proc("other", 0), &blob).unwrap();
    assert_eq!(m.local_stamps(&proc("other", 0), b"o"), None);
    assert_eq!(m.local_since(&proc("other", 0), 0), vec![]);
    // A process removed and seen again gets numbers above any given out before.
    m.remove(&p);
    m.commit(&p, PMIX_LOCAL, vec![kvs("a", s("3"))]); // 5
    assert_eq!(m.local_stamps(&p, b"a"), Some((5, Some(5))));
    assert_eq!(m.local_since(&p, 4), vec![kvs("a", s("3"))]);
}

/// A store whose namespace has a modex segment keeps its local processes' LOCAL and GLOBAL
/// values only there (in each rank's blob, the most recently committed first), and answers
/// every question as a store without one; a rank the segment has no slot for keeps its
/// values in the store; detaching takes the values back.
#[test]
fn modex_store_keeps_local_values_in_the_segment() {
    let dir = TestDir::new("modex-store");
    let path = dir.0.join("modex.1");
    let mut w = Some(segment::ModexWriter::create(&path, 1, 2, 1 << 16).unwrap());
    let reader = segment::ModexReader::open(&path, 1).unwrap();
    let (mut plain_store, mut seg) = (ModexStore::new(), ModexStore::new());
    let (p0, p1, p5) = (proc("ns", 0), proc("ns", 1), proc("ns", 5));
    let other = proc("other", 0);
    let big = Value::ByteObject(vec![7; 400]);
    // Committed before and after the segment is attached; rank 5 has no slot.
    let commits: Vec<(Proc, pmix_scope_t, Vec<Kval>)> = vec![
        (
            p0.clone(),
            PMIX_LOCAL,
            vec![kvs("l", s("L")), kvs("g", s("G"))],
        ),
        (
            p0.clone(),
            PMIX_REMOTE,
            vec![kvs("r", s("R")), kvs("g", s("G"))],
        ),
        (p1.clone(), PMIX_GLOBAL, vec![plain("big", big.clone())]),
        (p5.clone(), PMIX_GLOBAL, vec![kvs("five", s("5"))]),
        (p0.clone(), PMIX_LOCAL, vec![kvs("g", s("G2"))]),
        (p0.clone(), PMIX_REMOTE, vec![kvs("r2", s("R2"))]),
        (
            p1.clone(),
            PMIX_GLOBAL,
            vec![kvs("big", s("small")), kvs("n", s("N"))],
        ),
        (other.clone(), PMIX_GLOBAL, vec![kvs("o", s("O"))]),
    ];
    for (i, (p, scope, kv)) in commits.into_iter().enumerate() {
        if i == 3 {
            seg.attach(&"ns".into(), w.take().unwrap());
        }
        plain_store.commit(&p, scope, kv.clone());
        seg.commit(&p, scope, kv);
    }
    // Data from another node merged into a local process's remote view.
    let blob = {
        let mut o = ModexStore::new();
        o.commit(&p0, PMIX_REMOTE, vec![kvs("from.fence", s("F"))]);
        o.dmodex_answer(&p0)
    };
    plain_store.absorb_dmodex(&p0, &blob).unwrap();
    seg.absorb_dmodex(&p0, &blob).unwrap();
    let all = [p0.clone(), p1.clone(), p5.clone(), other.clone()];
    let same = |a: &ModexStore, b: &ModexStore, what: &str| {
        for p in &all {
            for local in [true, false] {
                assert_eq!(
                    a.kvals(p, local),
                    b.kvals(p, local),
                    "{what}: {p:?} {local}"
                );
            }
            for k in [&b"l"[..], b"g", b"r", b"big", b"five", b"n"] {
                assert_eq!(a.local_stamps(p, k), b.local_stamps(p, k), "{what}: {p:?}");
            }
            for since in 0..10 {
                assert_eq!(a.local_since(p, since), b.local_since(p, since), "{what}");
            }
        }
        for p in &all {
            assert_eq!(a.dmodex_answer(p), b.dmodex_answer(p), "{what}: {p:?}");
        }
    };
    same(&plain_store, &seg, "attached");
    // Ranks 0 and 1 hold no local value in the store; their peers read them.
    assert_eq!(
        seg.values_held(&p0),
        4,
        "remote only: r, r2, from.fence, and g = G"
    );
    assert_eq!(seg.values_held(&p1), 0);
    assert_eq!(seg.values_held(&p5), 1, "no slot: kept in the store");
    assert_eq!(reader.find(0, b"g"), Some(s("G2")));
    assert_eq!(
        reader.find(0, b"r"),
        None,
        "REMOTE only: not for local peers"
    );
    assert_eq!(reader.find(1, b"big"), Some(s("small")));
    let order: Vec<PStr> = segment::blob_kvals(&seg.segment_blob(&p0).unwrap())
        .unwrap()
        .into_iter()
        .map(|kv| kv.key)
        .collect();
    assert_eq!(
        order,
        ["g", "l"].map(PStr::from),
        "the most recently committed first"
    );
    // Taken back, the values are in the store again.
    assert!(seg.detach(&"ns".into()).is_some());
    same(&plain_store, &seg, "detached");
    assert_eq!(seg.values_held(&p1), 2);
}

/// Direct-modex answers between servers: a process's REMOTE and GLOBAL values as a bare
/// sequence of KVALs (OpenPMIx's `_dmodex_req` format), read back for the process asked for.
#[test]
fn dmodex_answers_round_trip() {
    // two servers, each with its local procs
    let mut a = ModexStore::new();
    let mut b = ModexStore::new();
    let (p0, p1, p2, p3) = (proc("ns", 0), proc("ns", 1), proc("ns", 2), proc("ns", 3));
    a.commit(&p0, PMIX_LOCAL, vec![kvs("l0", s("local-only"))]);
    a.commit(
        &p0,
        PMIX_REMOTE,
        vec![kvs("ep", Value::ByteObject(vec![0, 1, 2]))],
    );
    a.commit(
        &p1,
        PMIX_GLOBAL,
        vec![
            kvs("ep", Value::ByteObject(vec![1])),
            kvs("n", Value::Uint64(1 << 40)),
        ],
    );
    b.commit(
        &p2,
        PMIX_GLOBAL,
        vec![kvs("ep", Value::ByteObject(vec![2]))],
    );
    // p3 committed nothing at all: an empty answer
    b.commit(&p3, PMIX_GLOBAL, vec![]);
    assert!(b.dmodex_answer(&p3).is_empty());
    // The answer is exactly the KVALs, packed one after the other.
    let mut want = Encoder::new(BufferType::NonDesc);
    let kv = kvs("ep", Value::ByteObject(vec![2]));
    want.pack(PMIX_KVAL, &[Value::Kval(Box::new(kv))]).unwrap();
    assert_eq!(b.dmodex_answer(&p2), want.into_bytes());

    // a third server receives each
    let mut c = ModexStore::new();
    for (p, from) in [(&p0, &a), (&p1, &a), (&p2, &b), (&p3, &b)] {
        c.absorb_dmodex(p, &from.dmodex_answer(p)).unwrap();
    }
    for local in [true, false] {
        assert_eq!(
            c.kvals(&p0, local).unwrap(),
            vec![kvs("ep", Value::ByteObject(vec![0, 1, 2]))]
        );
        assert_eq!(c.kvals(&p1, local).unwrap().len(), 2);
        assert_eq!(
            c.kvals(&p2, local).unwrap(),
            vec![kvs("ep", Value::ByteObject(vec![2]))]
        );
        assert_eq!(c.kvals(&p3, local), Some(vec![]));
    }
    // server a absorbs an answer about its own process: it keeps its local view
    a.absorb_dmodex(&p0, &b.dmodex_answer(&p2)).unwrap();
    assert_eq!(
        a.kvals(&p0, true).unwrap(),
        vec![kvs("l0", s("local-only"))]
    );
    // truncated answers are refused, and store nothing
    let answer = a.dmodex_answer(&p1);
    let mut d = ModexStore::new();
    assert!(d.absorb_dmodex(&p1, &answer[..answer.len() - 1]).is_err());
    assert!(!d.has(&p1));
}

// ---------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------

fn valid_blobs() -> Vec<Vec<u8>> {
    let mode = BufferType::NonDesc;
    let rec =
        JobRecord::from_register(&"other".into(), 2, &registration(true), &"n1".into()).unwrap();
    let mut m = ModexStore::new();
    m.commit(&proc("ns", 0), PMIX_GLOBAL, vec![kvs("k", s("v"))]);
    vec![
        captured_getnb_blob(),
        blob_of(
            mode,
            &proc("other", PMIX_RANK_WILDCARD),
            &rec.wildcard_kvals(),
        ),
        req_reply_bytes(mode, "testns", &captured_reply(mode)),
        m.dmodex_answer(&proc("ns", 0)),
    ]
}

fn feed(bytes: &[u8]) {
    for mode in MODES {
        let mut st = ClientStore::new(proc("testns", 1));
        let _ = st.ingest_blob(mode, bytes);
        let _ = decode_rank_blob(mode, bytes);
        // as KVALs, and as a REQ reply (an nspace, then KVALs)
        let mut d = Decoder::new(mode, bytes);
        let mut r = Decoder::new(mode, bytes);
        let as_reply = r
            .unpack(PMIX_STRING, 1)
            .ok()
            .and_then(|_| read_kvals(&mut r, false).ok());
        for kvals in [read_kvals(&mut d, false).ok(), as_reply]
            .into_iter()
            .flatten()
        {
            let _ = st.ingest_job(mode, &"x".into(), kvals.clone());
            for kv in &kvals {
                let _ = st.get(&proc("x", PMIX_RANK_WILDCARD), kv.key.as_bytes(), &none());
            }
            let info: Vec<Info> = kvals
                .into_iter()
                .map(|k| Info::new(k.key, k.value))
                .collect();
            let _ = JobRecord::from_register(&"x".into(), 1, &info, &"h".into());
        }
        let _ = st.get(&proc("x", PMIX_RANK_UNDEF), b"pmix.lpeers", &none());
        let _ = st.local_peers(&"x".into());
    }
    let _ = ModexStore::new().absorb_dmodex(&proc("x", 0), bytes);
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        feed(&bytes);
    }

    #[test]
    fn damaged_blobs_never_panic(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        cut in any::<usize>(),
    ) {
        let mut b = valid_blobs().swap_remove(which);
        for (pos, byte) in edits {
            let n = b.len();
            if n > 0 {
                b[pos % n] = byte;
            }
        }
        let n = b.len();
        b.truncate(cut % (n + 1));
        feed(&b);
    }

    #[test]
    fn rank_lists_never_panic(text in "[0-9,\\- ]{0,40}") {
        let _ = super::realm::parse_rank_list(text.as_bytes());
    }
}

#[test]
fn rank_lists() {
    use super::realm::parse_rank_list;
    assert_eq!(parse_rank_list(b"0,1,2"), Some(vec![0, 1, 2]));
    assert_eq!(parse_rank_list(b"0-2,7"), Some(vec![0, 1, 2, 7]));
    assert_eq!(parse_rank_list(b""), Some(vec![]));
    assert_eq!(parse_rank_list(b"3-1"), None);
    assert_eq!(parse_rank_list(b"x"), None);
    assert_eq!(parse_rank_list(b"0-4294967295"), None);
}

// ---------------------------------------------------------------------------------------
// The job-data segment (gds "rsshm")
// ---------------------------------------------------------------------------------------

/// A directory of this test's own below the temp dir, removed when dropped.
struct TestDir(std::path::PathBuf);

impl TestDir {
    fn new(name: &str) -> TestDir {
        let d = std::env::temp_dir().join(format!("pmix-seg-test.{}.{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir(&d).unwrap();
        TestDir(d)
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The registration of `registration`, plus a per-rank custom key and a qualified value
/// for rank 2.
fn rich_record() -> JobRecord {
    let mut reg = registration(true);
    for r in 0..4u32 {
        let mut items = vec![
            info(PMIX_RANK, Value::ProcRank(r)),
            Info::new("host.rank.key", Value::Uint64(1000 + u64::from(r))),
        ];
        if r == 2 {
            items.push(info(
                PMIX_QUALIFIED_VALUE,
                arr(vec![
                    Info::new("host.qual", s("q2")),
                    Info::new("host.sel", Value::Uint32(5)),
                ]),
            ));
        }
        reg.push(info(PMIX_PROC_DATA, arr(items)));
    }
    JobRecord::from_register(&"ns".into(), 2, &reg, &"n1".into()).unwrap()
}

/// Asserts that two stores give the same answer to every Get of [`realm_gets`].
fn same_answers(a: &ClientStore, b: &ClientStore, what: &str) {
    for (p, k, i) in realm_gets() {
        let qq = q(&i);
        assert_eq!(
            a.get(&p, &k, &qq),
            b.get(&p, &k, &qq),
            "{what}: get {p:?} {} {i:?}",
            String::from_utf8_lossy(&k)
        );
    }
}

/// Gets covering every realm, asked of both stores.
fn realm_gets() -> Vec<(Proc, Vec<u8>, Vec<Info>)> {
    let w = PMIX_RANK_WILDCARD;
    let u = PMIX_RANK_UNDEF;
    let mut v: Vec<(Proc, Vec<u8>, Vec<Info>)> = Vec::new();
    let mut add = |r: u32, k: &[u8], i: Vec<Info>| v.push((proc("ns", r), k.to_vec(), i));
    for k in [
        key(PMIX_JOB_SIZE),
        key(PMIX_UNIV_SIZE),
        key(PMIX_LOCAL_PEERS),
        key(PMIX_NODE_LIST),
        key(PMIX_JOBID),
        key(PMIX_APP_SIZE),
        key(PMIX_MAX_PROCS),
        b"host.custom",
        b"host.rank.key",
        b"host.absent",
    ] {
        for r in [w, u, 0, 1, 2, 3, 7] {
            add(r, k, vec![]);
        }
    }
    for r in [0, 1, 2, 3, 9] {
        for k in [
            key(PMIX_HOSTNAME),
            key(PMIX_NODEID),
            key(PMIX_LOCAL_RANK),
            key(PMIX_NODE_RANK),
            key(PMIX_APPNUM),
            key(PMIX_RANK),
        ] {
            add(r, k, vec![]);
        }
        add(r, key(PMIX_LOCAL_PEERS), vec![flag(PMIX_NODE_INFO)]);
        add(r, key(PMIX_APP_SIZE), vec![flag(PMIX_APP_INFO)]);
        add(
            r,
            b"host.qual",
            vec![Info::new("host.sel", Value::Uint32(5))],
        );
        add(r, b"host.qual", vec![]);
    }
    add(
        w,
        key(PMIX_LOCAL_PEERS),
        vec![flag(PMIX_NODE_INFO), info(PMIX_HOSTNAME, s("n0"))],
    );
    add(
        w,
        key(PMIX_LOCAL_SIZE),
        vec![flag(PMIX_NODE_INFO), info(PMIX_NODEID, Value::Uint32(0))],
    );
    add(w, key(PMIX_NUM_NODES), vec![flag(PMIX_SESSION_INFO)]);
    add(
        w,
        key(PMIX_MAX_PROCS),
        vec![
            flag(PMIX_SESSION_INFO),
            info(PMIX_SESSION_ID, Value::Uint32(7)),
        ],
    );
    add(
        w,
        key(PMIX_APP_SIZE),
        vec![flag(PMIX_APP_INFO), info(PMIX_APPNUM, Value::Uint32(0))],
    );
    v
}

#[test]
fn segment_stream_is_the_req_reply_and_answers_like_it() {
    let dir = TestDir::new("answers");
    let rec = rich_record();
    for (i, mode) in MODES.into_iter().enumerate() {
        let generation = 40 + i as u64;
        let bytes = rec.segment(mode, generation).unwrap();
        let l = segment::Layout::parse(&bytes, generation).unwrap();
        // One encoder: the stream is the REQ reply after its nspace string.
        let reply = req_reply_bytes(mode, "ns", &rec.req_reply());
        let mut nsonly = Encoder::new(mode);
        nsonly.pack(PMIX_STRING, &[s("ns")]).unwrap();
        assert_eq!(l.stream(&bytes), &reply[nsonly.into_bytes().len()..]);
        assert_eq!(l.ranks(), 4);
        assert!(l.rank(&bytes, 4).is_none());

        let path = dir.0.join(format!("seg.{generation}"));
        segment::write_file(&path, &bytes).unwrap();
        for me in [proc("ns", 3), proc("ns", 2), proc("other", 0)] {
            let seg = segment::Segment::open(&path, generation, mode).unwrap();
            let mut mapped = ClientStore::new(me.clone());
            mapped
                .ingest_segment(&"ns".into(), std::sync::Arc::new(seg))
                .unwrap();
            let inline = ingest(me.clone(), mode, "ns", &rec.req_reply());
            same_answers(&mapped, &inline, &format!("{mode:?} me {me:?}"));
            assert_eq!(mapped.my_hostname(), inline.my_hostname());
            assert_eq!(
                mapped.local_peers(&"ns".into()),
                inline.local_peers(&"ns".into())
            );
        }
        // A few answers spelled out, so that both stores being wrong the same way fails.
        let seg = segment::Segment::open(&path, generation, mode).unwrap();
        let mut st = ClientStore::new(proc("ns", 3));
        st.ingest_segment(&"ns".into(), std::sync::Arc::new(seg))
            .unwrap();
        assert_eq!(
            found(st.get(&proc("ns", 2), b"host.rank.key", &none())),
            Value::Uint64(1002)
        );
        assert_eq!(
            found(st.get(&proc("ns", 0), key(PMIX_HOSTNAME), &none())),
            s("n0")
        );
        let sel = [Info::new("host.sel", Value::Uint32(5))];
        assert_eq!(
            found(st.get(&proc("ns", 2), b"host.qual", &q(&sel))),
            s("q2")
        );
        assert_eq!(
            found(st.get(&proc("ns", PMIX_RANK_UNDEF), b"host.rank.key", &none())),
            Value::Uint64(1000)
        );
        // Data stored for a mapped rank merges with its mapped data.
        st.store(&proc("ns", 1), "late".into(), Value::Uint32(1));
        let blob = blob_of(
            mode,
            &proc("ns", PMIX_RANK_WILDCARD),
            &[kv(
                PMIX_PROC_DATA,
                arr(vec![
                    info(PMIX_RANK, Value::ProcRank(0)),
                    Info::new("host.more", Value::Uint32(9)),
                ]),
            )],
        );
        st.ingest_blob(mode, &blob).unwrap();
        assert_eq!(
            found(st.get(&proc("ns", 0), b"host.more", &none())),
            Value::Uint32(9)
        );
        assert_eq!(
            found(st.get(&proc("ns", 0), b"host.rank.key", &none())),
            Value::Uint64(1000)
        );
    }
}

#[test]
fn scanning_a_packed_array_finds_what_decoding_it_finds() {
    let rec = rich_record();
    let mut reg = registration(false);
    // every simple type the scan steps over, and some it decodes to skip
    reg.push(info(
        PMIX_PROC_DATA,
        arr(vec![
            info(PMIX_RANK, Value::ProcRank(9)),
            Info::new("t.bool", Value::Bool(true)),
            Info::new("t.i8", Value::Int8(-3)),
            Info::new("t.i16", Value::Int16(-300)),
            Info::new("t.i64", Value::Int64(-1 << 40)),
            Info::new("t.u16", Value::Uint16(65000)),
            Info::new("t.size", Value::Size(1 << 33)),
            Info::new("t.str", s("text")),
            Info::new("t.none", Value::String(None)),
            Info::new("t.dbl", Value::Double(2.5)),
            Info::new("t.proc", Value::Proc(proc("x", 3))),
            Info::new("t.bytes", Value::ByteObject(vec![1, 2, 3])),
            Info::new("t.arr", arr(vec![Info::new("in", Value::Uint32(1))])),
            Info::new("t.str", s("again")),
        ]),
    ));
    let more = JobRecord::from_register(&"ns".into(), 2, &reg, &"n1".into()).unwrap();
    for mode in MODES {
        for r in [&rec, &more] {
            let bytes = r.segment(mode, 1).unwrap();
            let l = segment::Layout::parse(&bytes, 1).unwrap();
            for i in 0..l.ranks() {
                let (_, kv) = l.nth(&bytes, i).unwrap();
                let items = super::realm::decode_pdata(mode, kv).unwrap();
                let mut names: Vec<Vec<u8>> =
                    items.iter().map(|i| i.key.as_bytes().to_vec()).collect();
                names.push(b"absent".to_vec());
                for k in names {
                    let want = items
                        .iter()
                        .rfind(|i| i.key.as_bytes() == k)
                        .map(|i| i.value.clone());
                    let got = Decoder::new(mode, kv).find_in_info_array(&k).unwrap();
                    assert_eq!(got, want, "{mode:?} key {}", String::from_utf8_lossy(&k));
                }
                // truncated: an error, never a panic
                for n in 0..kv.len() {
                    let _ = Decoder::new(mode, &kv[..n]).find_in_info_array(b"t.str");
                }
            }
        }
    }
}

#[test]
fn damaged_segments_are_refused_cleanly() {
    let rec = rich_record();
    let mode = BufferType::NonDesc;
    let good = rec.segment(mode, 5).unwrap();
    assert!(segment::Layout::parse(&good, 5).is_ok());
    // another generation
    assert_eq!(segment::Layout::parse(&good, 6), Err(Error::UnpackFailure));
    // every truncation
    for n in 0..good.len() {
        assert_eq!(
            segment::Layout::parse(&good[..n], 5),
            Err(Error::UnpackFailure),
            "truncated to {n}"
        );
    }
    // a damaged header field: magic, version, buffer type, and each offset or length
    for (at, v) in [
        (0usize, 0u64),
        (8, 2),
        (12, 3),
        (24, 1),
        (32, 0),
        (32, u64::MAX),
        (40, u64::MAX),
        (48, u64::MAX),
        (56, 0),
        (64, u64::MAX),
        (64, 1 << 40),
    ] {
        let mut b = good.clone();
        let w = if at == 8 || at == 12 { 4 } else { 8 };
        b[at..at + w].copy_from_slice(&v.to_le_bytes()[..w]);
        assert_eq!(
            segment::Layout::parse(&b, 5),
            Err(Error::UnpackFailure),
            "field {at} = {v}"
        );
    }
    // index entries pointing outside the stream: the rank is absent, nothing panics
    let l = segment::Layout::parse(&good, 5).unwrap();
    let index_off = u64::from_le_bytes(good[56..64].try_into().unwrap()) as usize;
    let mut b = good.clone();
    b[index_off + 4..index_off + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(l.rank(&b, 0).is_none());
    assert!(l.rank(&b, 1).is_some());
    // Damaged content is an error of the decoder, never a panic.
    let dir = TestDir::new("damaged");
    let stream_len = l.stream(&good).len();
    for (i, at) in (80..80 + stream_len).step_by(7).enumerate() {
        let mut b = good.clone();
        b[at] ^= 0xa5;
        let path = dir.0.join(format!("d{i}"));
        segment::write_file(&path, &b).unwrap();
        let seg = segment::Segment::open(&path, 5, mode).unwrap();
        let mut st = ClientStore::new(proc("ns", 3));
        if st
            .ingest_segment(&"ns".into(), std::sync::Arc::new(seg))
            .is_ok()
        {
            for (p, k, i) in realm_gets() {
                let _ = st.get(&p, &k, &q(&i));
            }
        }
    }
    // Files: missing, empty, truncated, of another buffer type.
    let missing = dir.0.join("missing");
    assert_eq!(
        segment::Segment::open(&missing, 5, mode).unwrap_err(),
        Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)
    );
    let empty = dir.0.join("empty");
    segment::write_file(&empty, &[]).unwrap();
    assert_eq!(
        segment::Segment::open(&empty, 5, mode).unwrap_err(),
        Error::UnpackFailure
    );
    let short = dir.0.join("short");
    segment::write_file(&short, &good[..good.len() - 1]).unwrap();
    assert_eq!(
        segment::Segment::open(&short, 5, mode).unwrap_err(),
        Error::UnpackFailure
    );
    let whole = dir.0.join("whole");
    segment::write_file(&whole, &good).unwrap();
    assert!(segment::Segment::open(&whole, 5, mode).is_ok());
    assert_eq!(
        segment::Segment::open(&whole, 5, BufferType::FullyDesc).unwrap_err(),
        Error::UnpackFailure
    );
    // A published file is never written again.
    assert!(segment::write_file(&whole, &good).is_err());
}

/// The server keeps a job's per-rank data encoded (`JobData::compact`). What it sends and
/// answers from that form is what the decoded form gave: the hash reply copied from the
/// stored bytes (NonDesc) or re-encoded (FullyDesc) is its KVALs packed one at a time; the
/// segment file's bytes are the same in either case; the server process's own client role,
/// sharing the record's segment, answers like a store fed the inline reply; and data added
/// after the registration merges with the encoded data and goes out with the job.
#[test]
fn job_record_keeps_rank_data_encoded() {
    let mut rec = rich_record();
    for mode in MODES {
        let mut p = crate::wire::msg::Pack::new(mode);
        p.string(Some(b"ns"));
        rec.pack_req_reply(&mut p);
        assert_eq!(
            p.into_bytes(),
            req_reply_bytes(mode, "ns", &rec.req_reply()),
            "{mode:?}"
        );
        let l = segment::Layout::parse(&rec.segment(mode, 9).unwrap(), 9).unwrap();
        assert_eq!(l.ranks(), 4);
    }
    let seg = rec.shared_segment().expect("the rank data is encoded");
    assert_eq!(seg.mode(), BufferType::NonDesc);
    for me in [proc("ns", 3), proc("other", 0)] {
        let mut shared = ClientStore::new(me.clone());
        shared.ingest_segment(&"ns".into(), seg.clone()).unwrap();
        let inline = ingest(me.clone(), BufferType::NonDesc, "ns", &rec.req_reply());
        same_answers(&shared, &inline, &format!("me {me:?}"));
    }
    // the server's own lookups
    assert_eq!(rec.get(1, b"host.rank.key"), Some(Value::Uint64(1001)));
    assert_eq!(rec.get(9, b"host.rank.key"), None);
    assert_eq!(rec.job_size(), 4);
    let before = rec.rank_info(1);
    assert!(before.contains(&kvs("host.rank.key", Value::Uint64(1001))));
    assert!(rec.proc_data(2).is_some());
    // data added later: merged with the rank's encoded data, encoded again, sent
    rec.add_info(&[info(
        PMIX_PROC_DATA,
        arr(vec![
            info(PMIX_RANK, Value::ProcRank(1)),
            Info::new("late.key", s("v")),
        ]),
    )])
    .unwrap();
    let after = rec.rank_info(1);
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.starts_with(&before));
    assert_eq!(rec.get(1, b"late.key"), Some(s("v")));
    assert!(rec.shared_segment().is_some());
    for mode in MODES {
        let mut p = crate::wire::msg::Pack::new(mode);
        p.string(Some(b"ns"));
        rec.pack_req_reply(&mut p);
        let (_, kvals) = read_req_reply(mode, &p.into_bytes());
        let st = ingest(proc("ns", 0), mode, "ns", &kvals);
        assert_eq!(
            st.get(&proc("ns", 1), b"late.key", &q(&[])),
            Lookup::Found(s("v"))
        );
        assert_eq!(
            st.get(&proc("ns", 1), b"host.rank.key", &q(&[])),
            Lookup::Found(Value::Uint64(1001))
        );
    }
}

// ---------------------------------------------------------------------------------------
// The modex segment (local peers' committed data)
// ---------------------------------------------------------------------------------------

fn modex_blob(kvals: &[Kval]) -> Vec<u8> {
    segment::modex_blob(kvals.iter().map(|kv| (&kv.key, &kv.value)))
}

fn plain(k: &str, v: Value) -> Kval {
    Kval {
        key: k.into(),
        value: v,
    }
}

#[test]
fn modex_segment_serves_the_latest_blob_of_each_rank() {
    let dir = TestDir::new("modex");
    let path = dir.0.join("modex.1");
    let mut w = segment::ModexWriter::create(&path, 1, 4, 1 << 16).unwrap();
    let r = segment::ModexReader::open(&path, 1).unwrap();
    assert_eq!(r.find(0, b"a"), None);
    assert!(w.publish(0, &modex_blob(&[plain("a", Value::Uint32(1))])));
    assert_eq!(r.find(0, b"a"), Some(Value::Uint32(1)));
    assert_eq!(r.find(0, b"b"), None);
    assert_eq!(r.find(1, b"a"), None);
    // A larger blob moves to a new region, a smaller one is written in place: both read
    // back as the latest.
    let big: Vec<Kval> = (0..50)
        .map(|i| {
            plain(
                &format!("k{i}"),
                Value::String(Some(format!("v{i}").into())),
            )
        })
        .chain([plain("a", Value::Uint32(2))])
        .collect();
    assert!(w.publish(0, &modex_blob(&big)));
    assert_eq!(r.find(0, b"a"), Some(Value::Uint32(2)));
    assert_eq!(r.find(0, b"k49"), Some(s("v49")));
    assert!(w.publish(0, &modex_blob(&[plain("a", Value::Uint32(3))])));
    assert_eq!(r.find(0, b"a"), Some(Value::Uint32(3)));
    assert_eq!(r.find(0, b"k49"), None);
    // The first of a key within a blob wins (the server writes the newest first).
    assert!(w.publish(
        3,
        &modex_blob(&[plain("a", Value::Uint32(5)), plain("a", Value::Uint32(4))])
    ));
    assert_eq!(r.find(3, b"a"), Some(Value::Uint32(5)));
    // A key far into a large blob (read in several parts).
    assert_eq!(r.find(0, b"zz"), None);
    let mut many: Vec<Kval> = (0..200)
        .map(|i| plain(&format!("k{i}"), Value::ByteObject(vec![i as u8; 100])))
        .collect();
    many.push(plain("last", Value::Uint32(9)));
    assert!(w.publish(2, &modex_blob(&many)));
    assert_eq!(r.find(2, b"last"), Some(Value::Uint32(9)));
    assert_eq!(r.find(2, b"k150"), Some(Value::ByteObject(vec![150; 100])));
    assert_eq!(r.find(2, b"k200"), None);
    // A rank without a slot is not published.
    assert!(!w.publish(4, &modex_blob(&[plain("a", Value::Uint32(1))])));
    assert_eq!(r.find(4, b"a"), None);
    // A second reader of another generation is refused; a retired segment answers nothing.
    assert_eq!(
        segment::ModexReader::open(&path, 2).unwrap_err(),
        Error::UnpackFailure
    );
    w.retire();
    assert_eq!(r.find(0, b"a"), None);
}

/// A blob that outgrows its region moves, and the old region's whole pages are given back
/// (they read as zeros and the file holds fewer blocks), while the rank's latest blob and
/// the other ranks' stay readable.
#[test]
fn a_moved_blob_gives_back_its_old_pages() {
    use std::io::{Read, Seek, SeekFrom};
    use std::os::unix::fs::MetadataExt;
    let dir = TestDir::new("modex-punch");
    let path = dir.0.join("modex.1");
    let mut w = segment::ModexWriter::create(&path, 3, 2, 1 << 20).unwrap();
    let r = segment::ModexReader::open(&path, 3).unwrap();
    let blob = |n: usize, fill: u8| {
        modex_blob(&[
            plain("a", Value::ByteObject(vec![fill; n])),
            plain("n", Value::Uint64(n as u64)),
        ])
    };
    assert!(w.publish(1, &blob(100, 1)));
    // 12 KiB of data in a region of twice that: whole pages inside it.
    assert!(w.publish(0, &blob(12 << 10, 2)));
    let (off_at, len_at) = (w.slot_offset(0, 1), w.slot_offset(0, 2));
    let slot = |at: usize| {
        let mut b = [0u8; 8];
        let mut file = std::fs::File::open(&path).unwrap();
        file.seek(SeekFrom::Start(at as u64)).unwrap();
        file.read_exact(&mut b).unwrap();
        u64::from_le_bytes(b) as usize
    };
    let (old, old_len) = (slot(off_at), slot(len_at));
    let blocks = std::fs::metadata(&path).unwrap().blocks();
    // Larger than the region: moves.
    assert!(w.publish(0, &blob(40 << 10, 3)));
    assert_ne!(slot(off_at), old);
    let mut bytes = vec![0u8; old_len];
    let mut file = std::fs::File::open(&path).unwrap();
    file.seek(SeekFrom::Start(old as u64)).unwrap();
    file.read_exact(&mut bytes).unwrap();
    let page = old.next_multiple_of(4096) - old;
    assert!(bytes[page..page + 8192].iter().all(|&b| b == 0));
    assert!(std::fs::metadata(&path).unwrap().blocks() < blocks + (40 << 10) / 512);
    assert_eq!(r.find(0, b"a"), Some(Value::ByteObject(vec![3; 40 << 10])));
    assert_eq!(r.find(1, b"a"), Some(Value::ByteObject(vec![1; 100])));
    // Back in place, smaller: nothing moves, nothing is given back.
    assert!(w.publish(0, &blob(10, 4)));
    assert_eq!(r.find(0, b"a"), Some(Value::ByteObject(vec![4; 10])));
}

#[test]
fn a_full_modex_segment_unpublishes_the_rank_it_cannot_hold() {
    let dir = TestDir::new("modex-full");
    let path = dir.0.join("modex.1");
    // Room for the header, two slots and 1 KiB of data.
    let len = segment::MODEX_HEADER + 2 * 32 + 1024;
    let mut w = segment::ModexWriter::create(&path, 7, 2, len).unwrap();
    let r = segment::ModexReader::open(&path, 7).unwrap();
    assert!(w.publish(0, &modex_blob(&[plain("a", Value::Uint32(1))])));
    assert!(w.publish(1, &modex_blob(&[plain("b", Value::Uint32(1))])));
    let huge = modex_blob(&[plain("a", Value::ByteObject(vec![7; 2000]))]);
    assert!(!w.publish(0, &huge));
    // Never the stale value: nothing, so that the client asks the server.
    assert_eq!(r.find(0, b"a"), None);
    assert_eq!(r.find(1, b"b"), Some(Value::Uint32(1)));
}

#[test]
fn damaged_modex_segments_are_refused_cleanly() {
    let dir = TestDir::new("modex-damaged");
    let path = dir.0.join("modex.1");
    let len = 1 << 16;
    let mut w = segment::ModexWriter::create(&path, 9, 3, len).unwrap();
    assert!(w.publish(1, &modex_blob(&[plain("a", Value::Uint32(1))])));
    let head = std::fs::read(&path).unwrap()[..segment::MODEX_HEADER].to_vec();
    assert!(segment::ModexLayout::parse(&head, len, 9).is_ok());
    // another generation, another length, every truncation of the header
    assert!(segment::ModexLayout::parse(&head, len, 8).is_err());
    assert!(segment::ModexLayout::parse(&head, len - 1, 9).is_err());
    for n in 0..head.len() {
        assert!(segment::ModexLayout::parse(&head[..n], len, 9).is_err());
    }
    // each damaged header field: magic, version, buffer type, length, slots, offsets
    for (at, v) in [
        (0usize, 0u64),
        (8, 2),
        (12, 2),
        (24, 1),
        (32, u64::MAX),
        (32, 1 << 40),
        (40, 8),
        (40, 65),
        (40, u64::MAX),
        (48, 0),
        (48, len as u64 + 1),
        (48, u64::MAX),
    ] {
        let mut b = head.clone();
        let n = if at == 8 || at == 12 { 4 } else { 8 };
        b[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
        assert!(
            segment::ModexLayout::parse(&b, len, 9).is_err(),
            "field {at} = {v}"
        );
    }
    // Files: missing, empty, shorter than the header, a header naming another length.
    assert_eq!(
        segment::ModexReader::open(&dir.0.join("missing"), 9).unwrap_err(),
        Error::Status(PMIX_ERR_FILE_OPEN_FAILURE)
    );
    let empty = dir.0.join("empty");
    segment::write_file(&empty, &[]).unwrap();
    assert!(segment::ModexReader::open(&empty, 9).is_err());
    let short = dir.0.join("short");
    segment::write_file(&short, &head[..40]).unwrap();
    assert!(segment::ModexReader::open(&short, 9).is_err());
    let cut = dir.0.join("cut");
    segment::write_file(&cut, &std::fs::read(&path).unwrap()[..4096]).unwrap();
    assert!(segment::ModexReader::open(&cut, 9).is_err());
    // Damaged slots and blobs: the rank is absent (the client asks the server), no panic,
    // no hang.
    let r = segment::ModexReader::open(&path, 9).unwrap();
    assert_eq!(r.find(1, b"a"), Some(Value::Uint32(1)));
    let (seq, off, blen) = (
        w.slot_offset(1, 0),
        w.slot_offset(1, 1),
        w.slot_offset(1, 2),
    );
    let good_off = std::fs::read(&path).unwrap()[off..off + 8].to_vec();
    for (field, v) in [
        (off, len as u64 - 2),
        (off, u64::MAX),
        (off, 8),
        (blen, u64::MAX),
        (blen, len as u64),
    ] {
        w.poke(field, &v.to_le_bytes());
        if field == off {
            assert_eq!(r.find(1, b"a"), None, "slot field {field} = {v}");
        }
        // A length past the mapping: what lies within it may still be read, the rest not.
        assert_eq!(r.find(1, b"zz"), None, "slot field {field} = {v}");
        w.poke(off, &good_off);
        w.poke(
            blen,
            &(modex_blob(&[plain("a", Value::Uint32(1))]).len() as u64).to_le_bytes(),
        );
    }
    assert_eq!(r.find(1, b"a"), Some(Value::Uint32(1)));
    // A writer that never finishes (sequence number left odd): the reader gives up.
    w.poke(seq, &1u64.to_le_bytes());
    assert_eq!(r.find(1, b"a"), None);
    w.poke(seq, &2u64.to_le_bytes());
    assert_eq!(r.find(1, b"a"), Some(Value::Uint32(1)));
    // Garbage in place of the blob, byte by byte.
    let blob = modex_blob(&[
        plain("a", Value::String(Some("value".into()))),
        plain("b", Value::Uint64(3)),
    ]);
    assert!(w.publish(2, &blob));
    let at = u64::from_le_bytes(
        std::fs::read(&path).unwrap()[w.slot_offset(2, 1)..w.slot_offset(2, 1) + 8]
            .try_into()
            .unwrap(),
    ) as usize;
    for i in 0..blob.len() {
        let mut b = blob.clone();
        b[i] ^= 0xa5;
        w.poke(at, &b);
        let _ = r.find(2, b"a");
        let _ = r.find(2, b"b");
        let _ = r.find(2, b"zz");
    }
    // A directory entry pointing at another key's KVAL, or into the directory: not found.
    let two = modex_blob(&[plain("a", Value::Uint32(1)), plain("b", Value::Uint32(2))]);
    let entry_b = 8 + 10 + 1;
    let mut crossed = two.clone();
    crossed.copy_within(entry_b..entry_b + 8, 8);
    assert!(w.publish(2, &crossed));
    assert_eq!(r.find(2, b"a"), None);
    assert_eq!(r.find(2, b"b"), Some(Value::Uint32(2)));
    let mut inward = two.clone();
    inward[8..12].copy_from_slice(&4u32.to_le_bytes());
    assert!(w.publish(2, &inward));
    assert_eq!(r.find(2, b"a"), None);
    // A directory claiming more bytes than its entries: refused, whatever the key.
    let mut longer = two.clone();
    let dl = u32::from_le_bytes(two[..4].try_into().unwrap());
    longer[..4].copy_from_slice(&(dl + 3).to_le_bytes());
    assert!(w.publish(2, &longer));
    assert_eq!(r.find(2, b"a"), None);
    assert_eq!(r.find(2, b"zz"), None);
    assert!(w.publish(2, &two));
    assert_eq!(r.find(2, b"a"), Some(Value::Uint32(1)));
    assert!(w.publish(2, &blob));
    // A truncated blob: the lookup fails (the client asks the server).
    w.poke(at, &blob);
    w.poke(w.slot_offset(2, 2), &(blob.len() as u64 - 3).to_le_bytes());
    assert_eq!(r.find(2, b"b"), None);
}

/// A fence contribution as OpenPMIx 4.2.2 (Debian's libpmix2) hands it to its host: ranks 0
/// and 1 of namespace "fb" (of 4) put `fb.str` GLOBAL ("v0", "v1"), `fb.num` REMOTE (100,
/// 101) and `fb.loc` LOCAL, committed, and fenced with PMIX_COLLECT_DATA; the bytes are what
/// the host's fence_nb received (captured with a C host on that library, 2026-11-27). It
/// uses the key-map form.
const REF_FENCE_BLOB: &str = "023702030202040e66622e737472000e66622e6e756d00020f020002000203067630000201020e64020f020102000203067631000201020e65";

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_fence_blob_of_the_reference_is_read() {
    let mut m = ModexStore::new();
    m.absorb_fence(&unhex(REF_FENCE_BLOB), |r| Some(proc("fb", r)))
        .unwrap();
    for r in 0..2u32 {
        let got = m.kvals(&proc("fb", r), false).unwrap_or_default();
        assert!(
            got.contains(&Kval {
                key: PStr::from("fb.str"),
                value: s(&format!("v{r}")),
            }),
            "rank {r}: {got:?}"
        );
        assert!(
            got.contains(&Kval {
                key: PStr::from("fb.num"),
                value: Value::Uint32(100 + r),
            }),
            "rank {r}: {got:?}"
        );
        assert!(!got.iter().any(|k| k.key.as_bytes() == b"fb.loc"));
    }
    // A rank it cannot place, a truncated blob: an error, and nothing stored.
    let mut n = ModexStore::new();
    assert!(n.absorb_fence(&unhex(REF_FENCE_BLOB), |_| None).is_err());
    let blob = unhex(REF_FENCE_BLOB);
    assert!(
        n.absorb_fence(&blob[..blob.len() - 3], |r| Some(proc("fb", r)))
            .is_err()
    );
    assert!(n.kvals(&proc("fb", 0), false).is_none());
}

#[test]
fn our_fence_blob_round_trips_across_nodes() {
    let mut a = ModexStore::new();
    a.commit(&proc("x", 2), PMIX_GLOBAL, vec![kvs("k", s("two"))]);
    let mut b = ModexStore::new();
    b.commit(&proc("y", 1), PMIX_REMOTE, vec![kvs("k", Value::Uint32(7))]);
    // Namespaces "x" (4 ranks) then "y": y's rank 1 is relative rank 5.
    let rel = |p: &Proc| {
        Some(if p.nspace.as_bytes() == b"x" {
            p.rank
        } else {
            4 + p.rank
        })
    };
    let back = |r: u32| {
        Some(if r < 4 {
            proc("x", r)
        } else {
            proc("y", r - 4)
        })
    };
    let mut blob = a.fence_contribution(&[proc("x", 2), proc("x", 3)], rel);
    blob.extend(b.fence_contribution(&[proc("y", 1)], rel));
    let mut c = ModexStore::new();
    c.absorb_fence(&blob, back).unwrap();
    assert_eq!(
        c.kvals(&proc("x", 2), false).unwrap_or_default(),
        vec![kvs("k", s("two"))]
    );
    assert_eq!(
        c.kvals(&proc("y", 1), false).unwrap_or_default(),
        vec![kvs("k", Value::Uint32(7))]
    );
    // x's rank 3 committed nothing: not in the blob.
    assert!(c.kvals(&proc("x", 3), false).is_none());
}

// ---------------------------------------------------------------------------------------
// The ds21 store for reference 4.2 clients
// ---------------------------------------------------------------------------------------

/// Reads a ds21 store as a reference 4.2 client does (`_dstore_fetch` of OpenPMIx v4.2.2,
/// direct index mode): the namespace's entry in the chain of initial files, the rank's meta
/// element, then its keys up to its count, following extension slots and skipping
/// invalidated entries. `None` when the namespace or the rank has no data.
fn ds21_read(
    dir: &std::path::Path,
    sizes: ds21::Sizes,
    nspace: &str,
    rank: u32,
) -> Option<Vec<(Vec<u8>, Value)>> {
    let word = |b: &[u8], at: usize| u64::from_ne_bytes(b[at..at + 8].try_into().unwrap());
    let (mut nmeta, mut ndata, mut found) = (0, 0, false);
    for i in 0.. {
        let b = std::fs::read(dir.join(format!("initial-pmix_shared-segment-{i}"))).ok()?;
        assert_eq!(b.len(), sizes.initial);
        for e in 0..word(&b, 0) as usize {
            let at = 16 + e * 288;
            let name = &b[at..at + 256];
            let end = name.iter().position(|&c| c == 0).unwrap();
            if &name[..end] == nspace.as_bytes() {
                (nmeta, ndata, found) = (word(&b, at + 272), word(&b, at + 280), true);
            }
        }
        if found || word(&b, 8) != 1 {
            break;
        }
    }
    if !found {
        return None;
    }
    let file = |kind: &str, i: u64| std::fs::read(dir.join(format!("{kind}-{nspace}-{i}")));
    let index = if rank == PMIX_RANK_WILDCARD {
        0
    } else {
        rank as usize + 1
    };
    let max_meta = (sizes.meta - 8) / 24;
    let m = (index / max_meta) as u64;
    assert!(m < nmeta, "meta file {m} of {nmeta}");
    let meta = file("smseg", m).unwrap();
    assert_eq!(meta.len(), sizes.meta);
    let at = 8 + index % max_meta * 24;
    let (offset, count) = (word(&meta, at + 8), word(&meta, at + 16));
    if offset == 0 {
        return None;
    }
    let datas: Vec<Vec<u8>> = (0..ndata).map(|i| file("smdataseg", i).unwrap()).collect();
    let (mut f, mut p) = (
        (offset / sizes.data as u64) as usize,
        (offset % sizes.data as u64) as usize,
    );
    let mut out = Vec::new();
    while out.len() < count as usize {
        let d = &datas[f];
        let len = word(d, p);
        if len & (1 << 63) != 0 {
            let next = word(d, p + 17);
            assert_ne!(next, 0, "extension slot before the rank's count of keys");
            (f, p) = (
                (next / sizes.data as u64) as usize,
                (next % sizes.data as u64) as usize,
            );
            continue;
        }
        let invalid = len & (1 << 62) != 0;
        let len = (len & ((1 << 62) - 1)) as usize;
        if invalid {
            // a key given again with another value: skipped, not counted
            p += len;
            continue;
        }
        let key_end = p + 16 + d[p + 16..].iter().position(|&c| c == 0).unwrap();
        let key = d[p + 16..key_end].to_vec();
        assert_eq!(word(d, p + 8), ds21::key_hash(&key));
        let data = &d[key_end + 1..p + len];
        let mut u = crate::wire::msg::Unpack::new(BufferType::NonDesc, data);
        out.push((key, u.one(PMIX_VALUE).unwrap()));
        assert!(u.at_end());
        p += len;
    }
    Some(out)
}

fn ds21_sizes() -> ds21::Sizes {
    ds21::Sizes::from_env(|_| None).unwrap()
}

/// `rec`'s job data written to `store` as the namespace `ns`.
fn write_record(store: &mut ds21::Store, ns: &PStr, rec: &JobRecord) {
    store
        .write(
            ns,
            BufferType::NonDesc,
            &rec.store_wildcard(),
            rec.rank_lists(),
        )
        .unwrap();
}

/// Rank `r`'s keys of `rec` as a reader of the store gets them.
fn rank_pairs(rec: &JobRecord, r: u32) -> Vec<(Vec<u8>, Value)> {
    rec.rank_info(r)
        .into_iter()
        .map(|kv| (kv.key.as_bytes().to_vec(), kv.value))
        .collect()
}

/// The sizes with each file named in `names` one page long (the smallest a reference
/// process takes), the others the default.
fn one_page_sizes(names: &[&str]) -> ds21::Sizes {
    ds21::Sizes::from_env(|k| names.contains(&k).then(|| "1".to_string())).unwrap()
}

#[test]
fn ds21_sizes_follow_the_environment_as_reference_processes_read_it() {
    let d = ds21_sizes();
    assert_eq!((d.initial, d.meta, d.data), (4096, 1 << 22, 1 << 22));
    let page = rustix::param::page_size();
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        }
    };
    let s = ds21::Sizes::from_env(env(&[
        ("NS_DATA_SEG_SIZE", " 65536xyz"),
        ("NS_META_SEG_SIZE", "12"),
    ]))
    .unwrap();
    assert_eq!((s.meta, s.data), (page, 65536));
    // given but not a number: a page, as strtoul's 0 raised to a page
    let s = ds21::Sizes::from_env(env(&[("INITIAL_SEG_SIZE", "lots")])).unwrap();
    assert_eq!(s.initial, page);
    assert_eq!(
        ds21::Sizes::from_env(env(&[("SM_USE_LINEAR_SEARCH", "1")])),
        None
    );
    assert!(ds21::Sizes::from_env(env(&[("SM_USE_LINEAR_SEARCH", "0")])).is_some());
    assert_eq!(
        ds21::Sizes::from_env(env(&[("NS_DATA_SEG_SIZE", "99999999999999")])),
        None
    );
}

#[test]
fn ds21_key_hash_sums_signed_chars() {
    assert_eq!(ds21::key_hash(b""), 0);
    assert_eq!(
        ds21::key_hash(b"pmix.lrank"),
        b"pmix.lrank".iter().map(|&c| u64::from(c)).sum()
    );
    // a byte above 127 is a negative char on x86_64
    assert_eq!(ds21::key_hash(&[b'a', 0xff]), 97u64.wrapping_sub(1));
}

#[test]
fn ds21_store_holds_what_a_reference_client_reads_for_each_rank() {
    let dir = TestDir::new("ds21-read");
    let rec = rich_record();
    let ns = PStr::from("ns");
    let mut store = ds21::Store::new(dir.0.clone(), ds21_sizes());
    assert_eq!(
        store.write(&ns, BufferType::NonDesc, &[], std::iter::empty()),
        Err(Error::NotFound)
    );
    store.prepare(&ns, 4).unwrap();
    assert!(store.prepared(&ns) && !store.written(&ns));
    // what a client attaches at its PMIx_Init exists before the data is written
    assert!(dir.0.join("initial-pmix_shared-segment-0").exists());
    let lock = std::fs::read(dir.0.join("smlockseg-ns")).unwrap();
    let word = |at: usize| u64::from_ne_bytes(lock[at..at + 8].try_into().unwrap());
    assert_eq!(word(0), lock.len() as u64);
    assert_eq!(u32::from_ne_bytes(lock[8..12].try_into().unwrap()), 4);
    assert_eq!(word(16), 64);
    assert!(word(24) as usize >= 32 + 4 * 4 && word(24) % 64 == 0);
    assert!(word(24) as usize + 8 * 64 <= lock.len());
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 0),
        None,
        "nothing before it is written"
    );

    write_record(&mut store, &ns, &rec);
    assert!(store.written(&ns));
    for r in 0..4 {
        let got = ds21_read(&dir.0, ds21_sizes(), "ns", r).unwrap();
        assert_eq!(got, rank_pairs(&rec, r), "rank {r}");
        assert!(got.iter().any(|(k, _)| k == b"host.rank.key"));
    }
    let wild = ds21_read(&dir.0, ds21_sizes(), "ns", PMIX_RANK_WILDCARD).unwrap();
    let get = |k: &CStr| {
        wild.iter()
            .find(|(key, _)| key == k.to_bytes())
            .map(|(_, v)| v.clone())
    };
    assert_eq!(get(PMIX_JOB_SIZE), Some(Value::Uint32(4)));
    assert_eq!(get(PMIX_JOBID), Some(s("j1")));
    assert_eq!(get(c"host.custom"), Some(s("x")));
    // this node's (n1's) keys are at the job level, but not its name or id
    assert_eq!(get(PMIX_LOCAL_PEERS), Some(s("1,3")));
    assert_eq!(get(PMIX_LOCAL_SIZE), Some(Value::Uint32(2)));
    assert_eq!(get(PMIX_HOSTNAME), None);
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 4),
        None,
        "no such rank"
    );
    // the REQ reply carries the realm arrays only
    let arrays: Vec<Vec<u8>> = rec
        .realm_arrays()
        .into_iter()
        .map(|k| k.key.as_bytes().to_vec())
        .collect();
    assert_eq!(
        arrays,
        [
            PMIX_SESSION_INFO_ARRAY.to_bytes().to_vec(),
            PMIX_NODE_INFO_ARRAY.to_bytes().to_vec(),
            PMIX_NODE_INFO_ARRAY.to_bytes().to_vec(),
            PMIX_APP_INFO_ARRAY.to_bytes().to_vec()
        ]
    );

    // written once: a second write changes nothing
    store
        .write(&ns, BufferType::NonDesc, &[], std::iter::empty())
        .unwrap();
    assert!(ds21_read(&dir.0, ds21_sizes(), "ns", 2).is_some());
    store.remove(&ns);
    assert_eq!(ds21_read(&dir.0, ds21_sizes(), "ns", 2), None);
    let left: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["initial-pmix_shared-segment-0"]);
    store.remove_all();
    assert!(!dir.0.exists());
}

#[test]
fn ds21_store_spreads_over_files_and_reuses_entries() {
    let dir = TestDir::new("ds21-files");
    let page = rustix::param::page_size();
    // one page per file: a few entries per initial file, ranks over several files
    let sizes = one_page_sizes(&["INITIAL_SEG_SIZE", "NS_META_SEG_SIZE", "NS_DATA_SEG_SIZE"]);
    assert_eq!((sizes.initial, sizes.meta, sizes.data), (page, page, page));
    let per_initial = (page - 16) / 288;
    let mut store = ds21::Store::new(dir.0.clone(), sizes);
    let ranks = (page / 24) as u32 + 10; // more than one meta file
    let big = |r: u32| {
        vec![Kval {
            key: PStr::from("k"),
            value: Value::String(Some(PStr::from(vec![b'a' + (r % 26) as u8; 300]))),
        }]
    };
    let names: Vec<PStr> = (0..=per_initial)
        .map(|i| PStr::from(format!("job{i}")))
        .collect();
    for n in &names {
        store.prepare(n, 1).unwrap();
        store
            .write(
                n,
                BufferType::NonDesc,
                &big(0),
                (0..ranks).map(|r| (r, big(r))),
            )
            .unwrap();
    }
    assert!(
        dir.0.join("initial-pmix_shared-segment-1").exists(),
        "the first one is full"
    );
    for n in [&names[0], &names[per_initial]] {
        for r in [0, 1, ranks / 2, ranks - 1] {
            let got = ds21_read(&dir.0, sizes, &n.to_string(), r).unwrap();
            assert_eq!(
                got,
                [(b"k".to_vec(), big(r).remove(0).value)],
                "{n} rank {r}"
            );
        }
    }
    // a freed entry is taken by the next namespace
    store.remove(&names[1]);
    assert_eq!(ds21_read(&dir.0, sizes, "job1", 0), None);
    let n = PStr::from("late");
    store.prepare(&n, 1).unwrap();
    store
        .write(&n, BufferType::NonDesc, &[], (0..2).map(|r| (r, big(r))))
        .unwrap();
    assert!(ds21_read(&dir.0, sizes, "late", 1).is_some());
    assert!(!dir.0.join("initial-pmix_shared-segment-2").exists());
    // names that cannot name a file are refused
    for bad in ["", ".", "..", "a/b"] {
        assert_eq!(store.prepare(&PStr::from(bad), 1), Err(Error::BadParam));
    }
    store.remove_all();
    assert!(!dir.0.exists());
}

fn modex(pairs: &[(&str, &str)]) -> Vec<Kval> {
    pairs
        .iter()
        .map(|(k, v)| Kval {
            key: PStr::from(*k),
            value: s(v),
        })
        .collect()
}

#[test]
fn ds21_appended_modex_is_what_a_reference_client_reads() {
    let dir = TestDir::new("ds21-append");
    let rec = rich_record();
    let ns = PStr::from("ns");
    let mut store = ds21::Store::new(dir.0.clone(), ds21_sizes());
    let wait = std::time::Duration::from_millis(50);
    store.prepare(&ns, 4).unwrap();
    assert_eq!(
        store.append(&ns, &[], wait),
        Err(Error::NotFound),
        "not written"
    );
    write_record(&mut store, &ns, &rec);
    assert_eq!(store.appended_mark(&ns), None, "no client reads it yet");
    store.note_reader(&ns);
    assert_eq!(store.appended_mark(&ns), Some(0));
    let with = |r: u32, pairs: &[(&str, &str)]| {
        let mut v = rank_pairs(&rec, r);
        v.extend(pairs.iter().map(|(k, x)| (k.as_bytes().to_vec(), s(x))));
        v
    };
    // ranks 0..4 have job data; rank 6 has none (a new meta element)
    let first: Vec<(u32, Vec<Kval>)> = [0, 1, 2, 3, 6]
        .iter()
        .map(|&r| {
            (
                r,
                modex(&[("m.a", &format!("a{r}")), ("m.b", &format!("b{r}"))]),
            )
        })
        .collect();
    assert_eq!(store.append(&ns, &first, wait), Ok(true));
    store.set_appended_mark(&ns, 7);
    assert_eq!(store.appended_mark(&ns), Some(7));
    for r in 0..4 {
        let got = ds21_read(&dir.0, ds21_sizes(), "ns", r).unwrap();
        assert_eq!(
            got,
            with(r, &[("m.a", &format!("a{r}")), ("m.b", &format!("b{r}"))])
        );
    }
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 6).unwrap(),
        [(b"m.a".to_vec(), s("a6")), (b"m.b".to_vec(), s("b6"))]
    );
    assert_eq!(ds21_read(&dir.0, ds21_sizes(), "ns", 5), None);
    // given again: an unchanged value stays, a changed one is invalidated and appended
    let again = vec![(1, modex(&[("m.a", "a1"), ("m.b", "B1"), ("m.c", "c1")]))];
    assert_eq!(store.append(&ns, &again, wait), Ok(true));
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 1).unwrap(),
        with(1, &[("m.a", "a1"), ("m.b", "B1"), ("m.c", "c1")])
    );
    // nothing new: nothing changes
    assert_eq!(store.append(&ns, &again, wait), Ok(true));
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 1).unwrap(),
        with(1, &[("m.a", "a1"), ("m.b", "B1"), ("m.c", "c1")])
    );

    // a client inside a read (holding its main mutex): the writer gives up in time and
    // nothing a client sees changes
    // (4 locks of two mutexes, one per 64 bytes)
    let locks = std::sync::Arc::new(super::segment::SharedMutexes::attach(
        &dir.0.join("smlockseg-ns"),
        64,
        8,
    ));
    let (tx, rx) = std::sync::mpsc::channel();
    let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
    let l = locks.clone();
    let reader = std::thread::spawn(move || {
        l.read_lock(2);
        tx.send(()).unwrap();
        go_rx.recv().unwrap();
        l.read_unlock(2);
    });
    rx.recv().unwrap();
    let busy = vec![(2, modex(&[("m.a", "changed")]))];
    let t = std::time::Instant::now();
    assert_eq!(store.append(&ns, &busy, wait), Ok(false));
    assert!(t.elapsed() >= wait && t.elapsed() < std::time::Duration::from_secs(5));
    // the next append does not wait again while the client holds it
    let long = std::time::Duration::from_secs(30);
    let t = std::time::Instant::now();
    assert_eq!(store.append(&ns, &busy, long), Ok(false));
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 2).unwrap(),
        with(2, &[("m.a", "a2"), ("m.b", "b2")])
    );
    go_tx.send(()).unwrap();
    reader.join().unwrap();
    // once it is done, the same append goes through
    assert_eq!(store.append(&ns, &busy, wait), Ok(true));
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 2).unwrap(),
        with(2, &[("m.b", "b2"), ("m.a", "changed")])
    );
    // a client that died inside a read: its robust mutex is taken over
    let l = locks.clone();
    std::thread::spawn(move || l.read_lock(3)).join().unwrap();
    let after = vec![(3, modex(&[("m.d", "d3")]))];
    assert_eq!(store.append(&ns, &after, wait), Ok(true));
    assert_eq!(
        ds21_read(&dir.0, ds21_sizes(), "ns", 3).unwrap(),
        with(3, &[("m.a", "a3"), ("m.b", "b3"), ("m.d", "d3")])
    );
    // and a client can take that lock again
    locks.read_lock(3);
    locks.read_unlock(3);
    drop(locks);
    store.remove_all();
    assert!(!dir.0.exists());
}

#[test]
fn ds21_appended_modex_spreads_over_new_files() {
    let dir = TestDir::new("ds21-append-files");
    let page = rustix::param::page_size();
    let sizes = one_page_sizes(&["NS_META_SEG_SIZE", "NS_DATA_SEG_SIZE"]);
    let ns = PStr::from("ns");
    let mut store = ds21::Store::new(dir.0.clone(), sizes);
    store.prepare(&ns, 2).unwrap();
    store
        .write(
            &ns,
            BufferType::NonDesc,
            &modex(&[("w", "x")]),
            (0..2).map(|r| (r, modex(&[("j", "y")]))),
        )
        .unwrap();
    store.note_reader(&ns);
    let big = |r: u32, n: u32| "v".repeat(page / 3) + &format!("{r}.{n}");
    // more than a data file's worth, and a rank past the first meta file
    let far = (page / 24) as u32 + 3;
    let wait = std::time::Duration::from_millis(50);
    for n in 0..4 {
        let ranks: Vec<(u32, Vec<Kval>)> = [0, 1, far]
            .iter()
            .map(|&r| (r, modex(&[(&format!("k{n}"), &big(r, n))])))
            .collect();
        assert_eq!(store.append(&ns, &ranks, wait), Ok(true));
    }
    assert!(dir.0.join("smdataseg-ns-3").exists());
    assert!(dir.0.join("smseg-ns-1").exists());
    for r in [0, 1, far] {
        let got = ds21_read(&dir.0, sizes, "ns", r).unwrap();
        let mut want: Vec<(Vec<u8>, Value)> = Vec::new();
        if r < 2 {
            want.push((b"j".to_vec(), s("y")));
        }
        for n in 0..4 {
            want.push((format!("k{n}").into_bytes(), s(&big(r, n))));
        }
        assert_eq!(got, want, "rank {r}");
    }
    // a value larger than a data file is left out (clients ask the server)
    let huge = vec![(0, modex(&[("h", &"z".repeat(page))]))];
    assert_eq!(store.append(&ns, &huge, wait), Ok(true));
    assert_eq!(ds21_read(&dir.0, sizes, "ns", 0).unwrap().len(), 5);
    store.remove_all();
    assert!(!dir.0.exists());
}
