//! The attribute keys the datastore treats specially, as byte strings, and the realm each
//! reserved key belongs to (which decides where a `Get` looks when the caller names no realm).

use std::collections::HashMap;
use std::sync::OnceLock;

use pmix_sys as sys;

macro_rules! keys {
    ($($name:ident = $attr:ident;)*) => {
        $(pub(crate) const $name: &[u8] = sys::$attr.to_bytes();)*
    };
}

keys! {
    // identity of realms and procs
    RANK = PMIX_RANK;
    APPNUM = PMIX_APPNUM;
    HOSTNAME = PMIX_HOSTNAME;
    HOSTNAME_ALIASES = PMIX_HOSTNAME_ALIASES;
    NODEID = PMIX_NODEID;
    SESSION_ID = PMIX_SESSION_ID;
    // job-level facts the store reads or derives
    JOB_SIZE = PMIX_JOB_SIZE;
    LOCAL_PEERS = PMIX_LOCAL_PEERS;
    LOCAL_SIZE = PMIX_LOCAL_SIZE;
    LOCALLDR = PMIX_LOCALLDR;
    LOCAL_RANK = PMIX_LOCAL_RANK;
    NODE_LIST = PMIX_NODE_LIST;
    NUM_NODES = PMIX_NUM_NODES;
    NODE_MAP = PMIX_NODE_MAP;
    PROC_MAP = PMIX_PROC_MAP;
    // the special entries of job data
    PROC_BLOB = PMIX_PROC_BLOB;
    MAP_BLOB = PMIX_MAP_BLOB;
    PROC_DATA = PMIX_PROC_DATA;
    SESSION_INFO_ARRAY = PMIX_SESSION_INFO_ARRAY;
    NODE_INFO_ARRAY = PMIX_NODE_INFO_ARRAY;
    APP_INFO_ARRAY = PMIX_APP_INFO_ARRAY;
    JOB_INFO_ARRAY = PMIX_JOB_INFO_ARRAY;
    QUALIFIED_VALUE = PMIX_QUALIFIED_VALUE;
    // Get directives
    OPTIONAL = PMIX_OPTIONAL;
    IMMEDIATE = PMIX_IMMEDIATE;
    REFRESH = PMIX_GET_REFRESH_CACHE;
    TIMEOUT = PMIX_TIMEOUT;
    DATA_SCOPE = PMIX_DATA_SCOPE;
    SESSION_INFO = PMIX_SESSION_INFO;
    JOB_INFO = PMIX_JOB_INFO;
    NODE_INFO = PMIX_NODE_INFO;
    APP_INFO = PMIX_APP_INFO;
    STATIC_VALUES = PMIX_GET_STATIC_VALUES;
    POINTER_VALUES = PMIX_GET_POINTER_VALUES;
}

/// `PMIX_PROC_INFO` as a Get directive ("pmix.proc.info"); pmix-sys uses the name for the
/// data type.
pub(crate) const PROC_INFO: &[u8] = b"pmix.proc.info";

/// Whether `key` is reserved: the standard reserves every key starting with "pmix" (the
/// reference's `PMIX_CHECK_RESERVED_KEY` tests the same prefix).
pub(crate) fn is_reserved(key: &[u8]) -> bool {
    key.starts_with(b"pmix")
}

/// The realm a reserved key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRealm {
    Session,
    Job,
    App,
    Node,
    Proc,
    /// Not a key of the standard's realm lists (host or application keys).
    Other,
}

/// Node-realm keys: the reference's list (`pmix_check_node_info`) of keys answered from the
/// node realm when the caller names no realm.
const NODE_KEYS: &[&core::ffi::CStr] = &[
    sys::PMIX_HOSTNAME,
    sys::PMIX_HOSTNAME_ALIASES,
    sys::PMIX_NODEID,
    sys::PMIX_AVAIL_PHYS_MEMORY,
    sys::PMIX_LOCAL_PEERS,
    sys::PMIX_LOCAL_PROCS,
    sys::PMIX_LOCAL_CPUSETS,
    sys::PMIX_LOCAL_SIZE,
    sys::PMIX_NODE_SIZE,
    sys::PMIX_LOCALLDR,
    sys::PMIX_NODE_OVERSUBSCRIBED,
    sys::PMIX_FABRIC_DEVICES,
    sys::PMIX_FABRIC_COORDINATES,
    sys::PMIX_FABRIC_DEVICE,
    sys::PMIX_FABRIC_DEVICE_INDEX,
    sys::PMIX_FABRIC_DEVICE_NAME,
    sys::PMIX_FABRIC_DEVICE_VENDOR,
    sys::PMIX_FABRIC_DEVICE_BUS_TYPE,
    sys::PMIX_FABRIC_DEVICE_VENDORID,
    sys::PMIX_FABRIC_DEVICE_DRIVER,
    sys::PMIX_FABRIC_DEVICE_FIRMWARE,
    sys::PMIX_FABRIC_DEVICE_ADDRESS,
    sys::PMIX_FABRIC_DEVICE_MTU,
    sys::PMIX_FABRIC_DEVICE_COORDINATES,
    sys::PMIX_FABRIC_DEVICE_SPEED,
    sys::PMIX_FABRIC_DEVICE_STATE,
    sys::PMIX_FABRIC_DEVICE_TYPE,
    sys::PMIX_FABRIC_DEVICE_PCI_DEVID,
];

/// App-realm keys (the reference's `pmix_check_app_info`).
const APP_KEYS: &[&core::ffi::CStr] = &[
    sys::PMIX_APP_SIZE,
    sys::PMIX_APPLDR,
    sys::PMIX_APP_ARGV,
    sys::PMIX_WDIR,
    sys::PMIX_PSET_NAME,
    sys::PMIX_PSET_MEMBERS,
    sys::PMIX_APP_MAP_TYPE,
    sys::PMIX_APP_MAP_REGEX,
];

/// Session-realm keys (the reference's `pmix_check_session_info`).
const SESSION_KEYS: &[&core::ffi::CStr] = &[
    sys::PMIX_SESSION_ID,
    sys::PMIX_CLUSTER_ID,
    sys::PMIX_UNIV_SIZE,
    sys::PMIX_TMPDIR,
    sys::PMIX_TDIR_RMCLEAN,
    sys::PMIX_HOSTNAME_KEEP_FQDN,
    sys::PMIX_RM_NAME,
    sys::PMIX_RM_VERSION,
];

/// Job-realm keys of the standard (chapter "Reserved keys", job realm attributes).
const JOB_KEYS: &[&core::ffi::CStr] = &[
    sys::PMIX_NSPACE,
    sys::PMIX_JOBID,
    sys::PMIX_NPROC_OFFSET,
    sys::PMIX_MAX_PROCS,
    sys::PMIX_NUM_SLOTS,
    sys::PMIX_NUM_NODES,
    sys::PMIX_NODE_MAP,
    sys::PMIX_NODE_LIST,
    sys::PMIX_PROC_MAP,
    sys::PMIX_ANL_MAP,
    sys::PMIX_CMD_LINE,
    sys::PMIX_NSDIR,
    sys::PMIX_JOB_SIZE,
    sys::PMIX_JOB_NUM_APPS,
    sys::PMIX_ALLOCATED_NODELIST,
    sys::PMIX_NUM_ALLOCATED_NODES,
];

/// Process-realm keys of the standard: their value depends on the process, so a rank's
/// missing value is never taken from another realm.
const PROC_KEYS: &[&core::ffi::CStr] = &[
    sys::PMIX_APPNUM,
    sys::PMIX_RANK,
    sys::PMIX_GLOBAL_RANK,
    sys::PMIX_APP_RANK,
    sys::PMIX_PARENT_ID,
    sys::PMIX_EXIT_CODE,
    sys::PMIX_PROCID,
    sys::PMIX_LOCAL_RANK,
    sys::PMIX_NODE_RANK,
    sys::PMIX_PACKAGE_RANK,
    sys::PMIX_PROC_PID,
    sys::PMIX_PROCDIR,
    sys::PMIX_CPUSET,
    sys::PMIX_CREDENTIAL,
    sys::PMIX_SPAWNED,
    sys::PMIX_REINCARNATION,
];

/// The realm of every listed key (a key in several lists keeps the first: node, app,
/// session, job, proc).
fn realms() -> &'static HashMap<&'static [u8], KeyRealm> {
    static REALMS: OnceLock<HashMap<&'static [u8], KeyRealm>> = OnceLock::new();
    REALMS.get_or_init(|| {
        let mut m = HashMap::new();
        for (list, realm) in [
            (NODE_KEYS, KeyRealm::Node),
            (APP_KEYS, KeyRealm::App),
            (SESSION_KEYS, KeyRealm::Session),
            (JOB_KEYS, KeyRealm::Job),
            (PROC_KEYS, KeyRealm::Proc),
        ] {
            for k in list {
                m.entry(k.to_bytes()).or_insert(realm);
            }
        }
        m
    })
}

/// The realm of `key`.
pub(crate) fn realm(key: &[u8]) -> KeyRealm {
    if !is_reserved(key) {
        return KeyRealm::Other;
    }
    realms().get(key).copied().unwrap_or(KeyRealm::Other)
}

/// Node keys whose value is a property of one process (its host), so a rank's missing value
/// must not be answered with the caller's node.
pub(crate) fn names_a_node(key: &[u8]) -> bool {
    key == HOSTNAME || key == HOSTNAME_ALIASES || key == NODEID
}
