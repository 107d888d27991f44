//! The PMIx data model in Rust types: one `Value` variant per PMIx data type.
//!
//! A `pmix_value_t` of the C API can hold only some of these (see `Value::fits_pmix_value`);
//! the others (`Info`, `App`, `Pdata`, `Query`, `Kval`) appear as elements of arrays handed to
//! `PMIx_Data_pack`, or inside a `DataArray`. An array's element type is carried beside the
//! elements (`DataArray::ty`, or the type argument of a pack call); every element of an array of
//! type `t` is the variant of `t`, except arrays of `PMIX_VALUE`, whose elements may be of any
//! type.

use core::fmt;
use std::sync::Arc;

use pmix_sys::*;

/// A byte string as PMIx carries it: a C string without its terminator. Bytes need not be
/// UTF-8; nothing is lost on the way through.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PStr(Vec<u8>);

impl PStr {
    /// An empty string.
    pub const fn new() -> PStr {
        PStr(Vec::new())
    }
    /// The bytes, terminator excluded.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
    /// Length in bytes, terminator excluded.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The text, with invalid UTF-8 replaced.
    pub fn to_str_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }
}

impl From<&str> for PStr {
    fn from(s: &str) -> PStr {
        PStr(s.as_bytes().to_vec())
    }
}
impl From<String> for PStr {
    fn from(s: String) -> PStr {
        PStr(s.into_bytes())
    }
}
impl From<Vec<u8>> for PStr {
    fn from(v: Vec<u8>) -> PStr {
        PStr(v)
    }
}
impl From<&[u8]> for PStr {
    fn from(v: &[u8]) -> PStr {
        PStr(v.to_vec())
    }
}
impl PartialEq<str> for PStr {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}
impl PartialEq<&str> for PStr {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}
impl fmt::Debug for PStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.to_str_lossy(), f)
    }
}
impl fmt::Display for PStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

/// A process name.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Proc {
    pub nspace: PStr,
    pub rank: pmix_rank_t,
}

impl Proc {
    pub fn new(nspace: impl Into<PStr>, rank: pmix_rank_t) -> Proc {
        Proc {
            nspace: nspace.into(),
            rank,
        }
    }
}

/// `struct timeval`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timeval {
    pub sec: i64,
    pub usec: i64,
}

/// A key, its directive flags and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    pub key: PStr,
    pub flags: pmix_info_directives_t,
    pub value: Value,
}

impl Info {
    pub fn new(key: impl Into<PStr>, value: Value) -> Info {
        Info {
            key: key.into(),
            flags: 0,
            value,
        }
    }

    /// Whether this info's key is `key` (an attribute name of pmix-sys).
    pub fn is(&self, key: &core::ffi::CStr) -> bool {
        self.key.as_bytes() == key.to_bytes()
    }
}

/// The value of the first info of `info` whose key is `key`.
pub fn info_value<'a>(info: &'a [Info], key: &core::ffi::CStr) -> Option<&'a Value> {
    info.iter().find(|i| i.is(key)).map(|i| &i.value)
}

/// Whether an info of `info` sets the flag `key`: present with `true`, or with a value that is
/// not a boolean (the attribute's presence is the flag).
pub fn info_flag(info: &[Info], key: &core::ffi::CStr) -> bool {
    info.iter()
        .any(|i| i.is(key) && i.value.as_bool().unwrap_or(true))
}

/// Published data: owner, key and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Pdata {
    pub proc: Proc,
    pub key: PStr,
    pub value: Value,
}

/// A key and value, as the datastore keeps them.
#[derive(Debug, Clone, PartialEq)]
pub struct Kval {
    pub key: PStr,
    pub value: Value,
}

/// An application of a spawn request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct App {
    pub cmd: Option<PStr>,
    pub argv: Vec<PStr>,
    pub env: Vec<PStr>,
    pub cwd: Option<PStr>,
    pub maxprocs: i32,
    pub info: Vec<Info>,
}

/// A query: keys and qualifiers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    pub keys: Vec<PStr>,
    pub qualifiers: Vec<Info>,
}

/// An environment variable directive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Envar {
    pub envar: Option<PStr>,
    pub value: Option<PStr>,
    pub separator: u8,
}

/// A coordinate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coord {
    pub view: pmix_coord_view_t,
    pub coord: Vec<u32>,
}

/// A registered attribute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Regattr {
    pub name: Option<PStr>,
    pub string: PStr,
    pub ty: pmix_data_type_t,
    pub description: Vec<PStr>,
}

/// Description of a process.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcInfo {
    pub proc: Proc,
    pub hostname: Option<PStr>,
    pub executable_name: Option<PStr>,
    pub pid: i32,
    pub exit_code: i32,
    pub state: pmix_proc_state_t,
}

/// Fabric coordinates of a device.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Geometry {
    pub fabric: u64,
    pub uuid: Option<PStr>,
    pub osname: Option<PStr>,
    pub coordinates: Vec<Coord>,
}

/// Distance from a process to a device.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeviceDistance {
    pub uuid: Option<PStr>,
    pub osname: Option<PStr>,
    pub ty: pmix_device_type_t,
    pub mindist: u16,
    pub maxdist: u16,
}

/// A fabric endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Endpoint {
    pub uuid: Option<PStr>,
    pub osname: Option<PStr>,
    pub endpt: Vec<u8>,
}

/// A cpuset. `source` names the library ("hwloc"); `bitmap` is the set in hwloc's list
/// syntax ("0-3,8"), `None` when the process is unbound or there is no bitmap.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cpuset {
    pub source: Option<PStr>,
    pub bitmap: Option<PStr>,
}

/// The hwloc support flags packed after a topology's XML when the topology object cannot
/// report its own: the bytes of `hwloc_topology_discovery_support` (6 flags),
/// `hwloc_topology_cpubind_support` (11) and `hwloc_topology_membind_support` (15) of hwloc
/// 2.4 and later, as the reference emits them for a topology discovered on Linux (measured
/// with hwloc 2.9 on this machine).
pub const DEFAULT_TOPO_SUPPORT: [u8; TOPO_SUPPORT_LEN] = [
    1, 1, 1, 1, 1,
    1, // discovery: pu numa numa_memory disallowed_pu disallowed_numa cpukind_efficiency
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // cpubind: all eleven
    0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, // membind: no per-process binding on Linux
];
/// Length of the hwloc support flags that follow a topology's XML.
pub const TOPO_SUPPORT_LEN: usize = 32;

/// A topology object owned by C code (an `hwloc_topology_t`), seen through what the core needs
/// of it. `pmix-ffi` implements this; the core never dereferences the handle.
pub trait ForeignTopology: fmt::Debug + Send + Sync {
    /// The address of the C object, for identity and for handing back to C.
    fn handle(&self) -> usize;
    /// The topology as hwloc XML, for packing.
    fn export_xml(&self) -> crate::Result<Vec<u8>>;
    /// The hwloc support flags packed after the XML (`codec::TOPO_SUPPORT_LEN` bytes: the
    /// discovery, cpubind and membind support structures of hwloc 2.4+, one byte per flag).
    /// The default is what hwloc reports for a topology discovered on Linux.
    fn support_flags(&self) -> [u8; TOPO_SUPPORT_LEN] {
        DEFAULT_TOPO_SUPPORT
    }
    /// The description `PMIx_Data_print` shows for the topology, if the implementation
    /// gives one (docs/notes/print.md describes the reference's layout).
    fn describe(&self) -> Option<Vec<u8>> {
        None
    }
}

/// The body of a topology value.
#[derive(Debug, Clone)]
pub enum TopologyData {
    /// No topology.
    None,
    /// A live topology object.
    Foreign(Arc<dyn ForeignTopology>),
    /// A topology received from a peer, as hwloc XML, not yet loaded.
    Xml(Vec<u8>),
}

impl PartialEq for TopologyData {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (TopologyData::None, TopologyData::None) => true,
            (TopologyData::Foreign(a), TopologyData::Foreign(b)) => a.handle() == b.handle(),
            (TopologyData::Xml(a), TopologyData::Xml(b)) => a == b,
            _ => false,
        }
    }
}

/// A topology value.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    pub source: Option<PStr>,
    pub data: TopologyData,
}

/// Statistics of one process.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProcStats {
    pub node: Option<PStr>,
    pub proc: Proc,
    pub pid: i32,
    pub cmd: Option<PStr>,
    pub state: i8,
    pub time: Timeval,
    pub percent_cpu: f32,
    pub priority: i32,
    pub num_threads: u16,
    pub pss: f32,
    pub vsize: f32,
    pub rss: f32,
    pub peak_vsize: f32,
    pub processor: u16,
    pub sample_time: Timeval,
}

/// Statistics of one disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiskStats {
    pub disk: Option<PStr>,
    pub num_reads_completed: u64,
    pub num_reads_merged: u64,
    pub num_sectors_read: u64,
    pub milliseconds_reading: u64,
    pub num_writes_completed: u64,
    pub num_writes_merged: u64,
    pub num_sectors_written: u64,
    pub milliseconds_writing: u64,
    pub num_ios_in_progress: u64,
    pub milliseconds_io: u64,
    pub weighted_milliseconds_io: u64,
}

/// Statistics of one network interface.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetStats {
    pub net_interface: Option<PStr>,
    pub num_bytes_recvd: u64,
    pub num_packets_recvd: u64,
    pub num_recv_errs: u64,
    pub num_bytes_sent: u64,
    pub num_packets_sent: u64,
    pub num_send_errs: u64,
}

/// Statistics of one node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeStats {
    pub node: Option<PStr>,
    pub la: f32,
    pub la5: f32,
    pub la15: f32,
    pub total_mem: f32,
    pub free_mem: f32,
    pub buffers: f32,
    pub cached: f32,
    pub swap_cached: f32,
    pub swap_total: f32,
    pub swap_free: f32,
    pub mapped: f32,
    pub sample_time: Timeval,
    pub diskstats: Vec<DiskStats>,
    pub netstats: Vec<NetStats>,
}

/// A typed array. Every element is of type `ty` (any type where `ty` is `PMIX_VALUE`).
#[derive(Debug, Clone, PartialEq)]
pub struct DataArray {
    pub ty: pmix_data_type_t,
    pub items: Vec<Value>,
}

/// One datum of any PMIx data type.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Undef,
    Bool(bool),
    Byte(u8),
    String(Option<PStr>),
    Size(u64),
    Pid(i32),
    Int(i32),
    Int8(i8),
    Int16(i16),
    Int32(i32),
    Int64(i64),
    Uint(u32),
    Uint8(u8),
    Uint16(u16),
    Uint32(u32),
    Uint64(u64),
    Float(f32),
    Double(f64),
    Timeval(Timeval),
    Time(i64),
    Status(pmix_status_t),
    Proc(Proc),
    App(Box<App>),
    Info(Box<Info>),
    Pdata(Box<Pdata>),
    ByteObject(Vec<u8>),
    Kval(Box<Kval>),
    Persist(pmix_persistence_t),
    /// An address in the caller's process; never sent to a peer.
    Pointer(usize),
    Scope(pmix_scope_t),
    DataRange(pmix_data_range_t),
    Command(u8),
    InfoDirectives(pmix_info_directives_t),
    DataType(pmix_data_type_t),
    ProcState(pmix_proc_state_t),
    ProcInfo(Box<ProcInfo>),
    DataArray(Box<DataArray>),
    ProcRank(pmix_rank_t),
    Query(Box<Query>),
    CompressedString(Vec<u8>),
    AllocDirective(pmix_alloc_directive_t),
    IofChannel(pmix_iof_channel_t),
    Envar(Envar),
    Coord(Box<Coord>),
    Regattr(Box<Regattr>),
    /// A node or process map in one of the reference's regex syntaxes, as raw bytes.
    Regex(Vec<u8>),
    JobState(pmix_job_state_t),
    LinkState(pmix_link_state_t),
    ProcCpuset(Box<Cpuset>),
    Geometry(Box<Geometry>),
    DeviceDist(Box<DeviceDistance>),
    Endpoint(Box<Endpoint>),
    Topo(Box<Topology>),
    DevType(pmix_device_type_t),
    LocType(pmix_locality_t),
    CompressedByteObject(Vec<u8>),
    ProcNspace(PStr),
    ProcStats(Box<ProcStats>),
    DiskStats(Box<DiskStats>),
    NetStats(Box<NetStats>),
    NodeStats(Box<NodeStats>),
    DataBuffer(Vec<u8>),
    StorMedium(pmix_storage_medium_t),
    StorAccess(pmix_storage_accessibility_t),
    StorPersist(pmix_storage_persistence_t),
    StorAccessType(pmix_storage_access_type_t),
}

impl Value {
    /// The PMIx data type of this value.
    pub fn data_type(&self) -> pmix_data_type_t {
        match self {
            Value::Undef => PMIX_UNDEF,
            Value::Bool(_) => PMIX_BOOL,
            Value::Byte(_) => PMIX_BYTE,
            Value::String(_) => PMIX_STRING,
            Value::Size(_) => PMIX_SIZE,
            Value::Pid(_) => PMIX_PID,
            Value::Int(_) => PMIX_INT,
            Value::Int8(_) => PMIX_INT8,
            Value::Int16(_) => PMIX_INT16,
            Value::Int32(_) => PMIX_INT32,
            Value::Int64(_) => PMIX_INT64,
            Value::Uint(_) => PMIX_UINT,
            Value::Uint8(_) => PMIX_UINT8,
            Value::Uint16(_) => PMIX_UINT16,
            Value::Uint32(_) => PMIX_UINT32,
            Value::Uint64(_) => PMIX_UINT64,
            Value::Float(_) => PMIX_FLOAT,
            Value::Double(_) => PMIX_DOUBLE,
            Value::Timeval(_) => PMIX_TIMEVAL,
            Value::Time(_) => PMIX_TIME,
            Value::Status(_) => PMIX_STATUS,
            Value::Proc(_) => PMIX_PROC,
            Value::App(_) => PMIX_APP,
            Value::Info(_) => PMIX_INFO,
            Value::Pdata(_) => PMIX_PDATA,
            Value::ByteObject(_) => PMIX_BYTE_OBJECT,
            Value::Kval(_) => PMIX_KVAL,
            Value::Persist(_) => PMIX_PERSIST,
            Value::Pointer(_) => PMIX_POINTER,
            Value::Scope(_) => PMIX_SCOPE,
            Value::DataRange(_) => PMIX_DATA_RANGE,
            Value::Command(_) => PMIX_COMMAND,
            Value::InfoDirectives(_) => PMIX_INFO_DIRECTIVES,
            Value::DataType(_) => PMIX_DATA_TYPE,
            Value::ProcState(_) => PMIX_PROC_STATE,
            Value::ProcInfo(_) => PMIX_PROC_INFO,
            Value::DataArray(_) => PMIX_DATA_ARRAY,
            Value::ProcRank(_) => PMIX_PROC_RANK,
            Value::Query(_) => PMIX_QUERY,
            Value::CompressedString(_) => PMIX_COMPRESSED_STRING,
            Value::AllocDirective(_) => PMIX_ALLOC_DIRECTIVE,
            Value::IofChannel(_) => PMIX_IOF_CHANNEL,
            Value::Envar(_) => PMIX_ENVAR,
            Value::Coord(_) => PMIX_COORD,
            Value::Regattr(_) => PMIX_REGATTR,
            Value::Regex(_) => PMIX_REGEX,
            Value::JobState(_) => PMIX_JOB_STATE,
            Value::LinkState(_) => PMIX_LINK_STATE,
            Value::ProcCpuset(_) => PMIX_PROC_CPUSET,
            Value::Geometry(_) => PMIX_GEOMETRY,
            Value::DeviceDist(_) => PMIX_DEVICE_DIST,
            Value::Endpoint(_) => PMIX_ENDPOINT,
            Value::Topo(_) => PMIX_TOPO,
            Value::DevType(_) => PMIX_DEVTYPE,
            Value::LocType(_) => PMIX_LOCTYPE,
            Value::CompressedByteObject(_) => PMIX_COMPRESSED_BYTE_OBJECT,
            Value::ProcNspace(_) => PMIX_PROC_NSPACE,
            Value::ProcStats(_) => PMIX_PROC_STATS,
            Value::DiskStats(_) => PMIX_DISK_STATS,
            Value::NetStats(_) => PMIX_NET_STATS,
            Value::NodeStats(_) => PMIX_NODE_STATS,
            Value::DataBuffer(_) => PMIX_DATA_BUFFER,
            Value::StorMedium(_) => PMIX_STOR_MEDIUM,
            Value::StorAccess(_) => PMIX_STOR_ACCESS,
            Value::StorPersist(_) => PMIX_STOR_PERSIST,
            Value::StorAccessType(_) => PMIX_STOR_ACCESS_TYPE,
        }
    }

    /// Whether a C `pmix_value_t` can hold this value (arrays of infos, apps and the like
    /// travel inside a `DataArray` instead).
    pub fn fits_pmix_value(&self) -> bool {
        !matches!(
            self,
            Value::App(_) | Value::Info(_) | Value::Pdata(_) | Value::Kval(_) | Value::Query(_)
        )
    }

    /// Whether `ty` is a data type this library knows (has a `Value` variant for).
    pub fn is_known_type(ty: pmix_data_type_t) -> bool {
        matches!(ty, 0..=28 | 30..=43 | 45..=69) && ty != PMIX_BUFFER
    }

    /// The string of a `String` value.
    pub fn as_str(&self) -> Option<&PStr> {
        match self {
            Value::String(Some(s)) => Some(s),
            _ => None,
        }
    }

    /// A data array of infos made of key-value pairs (`PMIx_Get` without a key).
    pub fn info_array(kvals: impl IntoIterator<Item = Kval>) -> Value {
        Value::DataArray(Box::new(DataArray {
            ty: PMIX_INFO,
            items: kvals
                .into_iter()
                .map(|kv| Value::Info(Box::new(Info::new(kv.key, kv.value))))
                .collect(),
        }))
    }

    /// A data array of processes (the inverse of [`Value::procs`]).
    pub fn proc_array(procs: impl IntoIterator<Item = Proc>) -> Value {
        Value::DataArray(Box::new(DataArray {
            ty: PMIX_PROC,
            items: procs.into_iter().map(Value::Proc).collect(),
        }))
    }

    /// The processes a `Proc` value or a data array of them names (custom ranges, affected
    /// processes, group memberships); empty for any other value.
    pub fn procs(&self) -> Vec<Proc> {
        match self {
            Value::Proc(p) => vec![p.clone()],
            Value::DataArray(d) => d
                .items
                .iter()
                .filter_map(|x| match x {
                    Value::Proc(p) => Some(p.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A boolean the way the reference reads one: a `Bool`, or `Undef` (a key given
    /// without a value) meaning true.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            Value::Undef => Some(true),
            _ => None,
        }
    }

    /// An unsigned integer of any integer type, if it is one and not negative.
    pub fn as_u64(&self) -> Option<u64> {
        Some(match *self {
            Value::Size(v) | Value::Uint64(v) => v,
            Value::Uint(v) | Value::Uint32(v) | Value::ProcRank(v) => v.into(),
            Value::Uint16(v) => v.into(),
            Value::Uint8(v) | Value::Byte(v) => v.into(),
            Value::Int(v) | Value::Int32(v) | Value::Pid(v) => u64::try_from(v).ok()?,
            Value::Int16(v) => u64::try_from(v).ok()?,
            Value::Int8(v) => u64::try_from(v).ok()?,
            Value::Int64(v) => u64::try_from(v).ok()?,
            _ => return None,
        })
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::String(Some(v.into()))
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Uint32(v)
    }
}
impl From<Proc> for Value {
    fn from(v: Proc) -> Value {
        Value::Proc(v)
    }
}

/// Result of comparing two values (`PMIx_Value_compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    Equal,
    /// The first value is greater.
    Greater,
    /// The second value is greater.
    Less,
    TypeDifferent,
    NotAvailable,
}

/// Compares two values of the same type, as the reference orders them: numbers by value,
/// strings byte-wise, byte arrays by length then bytes, procs by namespace then rank, data
/// arrays by element type, then length, then the first differing element; other structures
/// for equality only.
pub fn compare(a: &Value, b: &Value) -> Comparison {
    use core::cmp::Ordering;
    if a.data_type() != b.data_type() {
        return Comparison::TypeDifferent;
    }
    let ord: Option<Ordering> = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => x.partial_cmp(y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Double(x), Value::Double(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Int(y))
        | (Value::Int32(x), Value::Int32(y))
        | (Value::Pid(x), Value::Pid(y))
        | (Value::Status(x), Value::Status(y)) => x.partial_cmp(y),
        (Value::Int8(x), Value::Int8(y)) => x.partial_cmp(y),
        (Value::Int16(x), Value::Int16(y)) => x.partial_cmp(y),
        (Value::Int64(x), Value::Int64(y)) | (Value::Time(x), Value::Time(y)) => x.partial_cmp(y),
        (Value::Timeval(x), Value::Timeval(y)) => x.partial_cmp(y),
        (Value::ByteObject(x), Value::ByteObject(y))
        | (Value::CompressedString(x), Value::CompressedString(y))
        | (Value::CompressedByteObject(x), Value::CompressedByteObject(y))
        | (Value::Regex(x), Value::Regex(y)) => Some(x.len().cmp(&y.len()).then_with(|| x.cmp(y))),
        (Value::Proc(x), Value::Proc(y)) => x.partial_cmp(y),
        (Value::DataArray(x), Value::DataArray(y)) => {
            if x.ty != y.ty {
                return Comparison::TypeDifferent;
            }
            if x.items.len() != y.items.len() {
                Some(x.items.len().cmp(&y.items.len()))
            } else {
                // The first element that differs decides.
                return x
                    .items
                    .iter()
                    .zip(&y.items)
                    .map(|(a, b)| compare(a, b))
                    .find(|c| *c != Comparison::Equal)
                    .unwrap_or(Comparison::Equal);
            }
        }
        _ => match (a.as_u64(), b.as_u64()) {
            (Some(x), Some(y)) => x.partial_cmp(&y),
            _ => {
                return if a == b {
                    Comparison::Equal
                } else {
                    Comparison::NotAvailable
                };
            }
        },
    };
    match ord {
        Some(Ordering::Equal) => Comparison::Equal,
        Some(Ordering::Greater) => Comparison::Greater,
        Some(Ordering::Less) => Comparison::Less,
        None => Comparison::NotAvailable,
    }
}
