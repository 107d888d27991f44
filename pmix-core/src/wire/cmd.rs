//! Command bytes (`pmix_cmd_t`), the first value of every request and of tag-0
//! notifications. Same values in OpenPMIx 4.1, 4.2 and 5.0 (which adds 33, 37 and 38).

pub const REQ: u8 = 0;
pub const ABORT: u8 = 1;
pub const COMMIT: u8 = 2;
pub const FENCENB: u8 = 3;
pub const GETNB: u8 = 4;
pub const FINALIZE: u8 = 5;
pub const PUBLISHNB: u8 = 6;
pub const LOOKUPNB: u8 = 7;
pub const UNPUBLISHNB: u8 = 8;
pub const SPAWNNB: u8 = 9;
pub const CONNECTNB: u8 = 10;
pub const DISCONNECTNB: u8 = 11;
pub const NOTIFY: u8 = 12;
pub const REGEVENTS: u8 = 13;
pub const DEREGEVENTS: u8 = 14;
pub const QUERY: u8 = 15;
pub const LOG: u8 = 16;
pub const ALLOC: u8 = 17;
pub const JOB_CONTROL: u8 = 18;
pub const MONITOR: u8 = 19;
pub const GET_CREDENTIAL: u8 = 20;
pub const VALIDATE_CRED: u8 = 21;
pub const IOF_PULL: u8 = 22;
pub const IOF_PUSH: u8 = 23;
pub const GROUP_CONSTRUCT: u8 = 24;
pub const GROUP_JOIN: u8 = 25;
pub const GROUP_INVITE: u8 = 26;
pub const GROUP_LEAVE: u8 = 27;
pub const GROUP_DESTRUCT: u8 = 28;
pub const IOF_DEREG: u8 = 29;
pub const FABRIC_REGISTER: u8 = 30;
pub const FABRIC_UPDATE: u8 = 31;
pub const COMPUTE_DEVICE_DISTANCES: u8 = 32;
/// New in OpenPMIx 5.0 (a 4.2 server answers them `PMIX_ERR_NOT_SUPPORTED`): a 5.0 client
/// sends them for `PMIx_Get` with `PMIX_GET_REFRESH_CACHE`, `PMIx_Resolve_peers` and
/// `PMIx_Resolve_nodes`.
pub const REFRESH_CACHE: u8 = 33;
pub const RESOLVE_PEERS: u8 = 37;
pub const RESOLVE_NODE: u8 = 38;

/// The code that stands for "the default handler" in DEREGEVENTS (`PMIX_MAX_ERR_CONSTANT`,
/// `INT_MIN`).
pub const DEFAULT_HANDLER_CODE: i32 = i32::MIN;
