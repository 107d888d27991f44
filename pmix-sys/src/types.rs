//! `#[repr(C)]` mirrors of the structures and typedefs of `pmix_common.h`.
//!
//! Field names and order follow the reference; `tests/layout.rs` checks every size, alignment
//! and offset against numbers taken from the OpenPMIx 4.2 headers, and the crate `pmix-abi-tests`
//! checks them again through bindgen.

use core::ffi::{c_char, c_int, c_uint, c_void};

use crate::limits::{PMIX_KEY_BUFLEN, PMIX_NSPACE_BUFLEN};

/// A process rank within a namespace.
pub type pmix_rank_t = u32;
/// Process state (`PMIX_PROC_STATE_*`).
pub type pmix_proc_state_t = u8;
/// Job state (`PMIX_JOB_STATE_*`).
pub type pmix_job_state_t = u8;
/// Status and event codes (`PMIX_SUCCESS`, `PMIX_ERR_*`, event codes).
pub type pmix_status_t = c_int;
/// Result of `PMIx_Value_compare` (an enum in the reference; same size and values).
pub type pmix_value_cmp_t = c_uint;
/// Data type identifiers (`PMIX_BOOL` ... `PMIX_STOR_ACCESS_TYPE`).
pub type pmix_data_type_t = u16;
/// Data scope for `PMIx_Put`.
pub type pmix_scope_t = u8;
/// Range of data or events.
pub type pmix_data_range_t = u8;
/// Persistence of published data.
pub type pmix_persistence_t = u8;
/// Bit flags carried by each `pmix_info_t`.
pub type pmix_info_directives_t = u32;
/// Allocation request directives.
pub type pmix_alloc_directive_t = u8;
/// IO forwarding channel bit mask.
pub type pmix_iof_channel_t = u16;
/// Accept or decline a group invitation (an enum in the reference).
pub type pmix_group_opt_t = c_uint;
/// Group operation passed to the host's group upcall (an enum in the reference).
pub type pmix_group_operation_t = c_uint;
/// Storage medium bit mask.
pub type pmix_storage_medium_t = u64;
/// Storage accessibility bit mask.
pub type pmix_storage_accessibility_t = u64;
/// Storage persistence bit mask.
pub type pmix_storage_persistence_t = u64;
/// Storage access type bit mask.
pub type pmix_storage_access_type_t = u16;
/// Coordinate view (logical or physical).
pub type pmix_coord_view_t = u8;
/// Fabric link state.
pub type pmix_link_state_t = u8;
/// Binding envelope for `PMIx_Get_cpuset` (process or thread).
pub type pmix_bind_envelope_t = u8;
/// Relative locality bit mask.
pub type pmix_locality_t = u16;
/// Device type bit mask.
pub type pmix_device_type_t = u64;
/// Tri-state result of `PMIX_CHECK_TRUE` (an enum in the reference).
pub type pmix_boolean_t = c_uint;
/// Fabric operation passed to the host's fabric upcall (an enum in the reference).
pub type pmix_fabric_operation_t = c_uint;

/// A multi-dimensional coordinate.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_coord_t {
    pub view: pmix_coord_view_t,
    pub coord: *mut u32,
    pub dims: usize,
}

/// A cpuset: `source` names the library that made `bitmap` ("hwloc" gives an `hwloc_bitmap_t`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_cpuset_t {
    pub source: *mut c_char,
    pub bitmap: *mut c_void,
}

/// A topology: `source` names the library that made `topology` ("hwloc" gives an
/// `hwloc_topology_t`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_topology_t {
    pub source: *mut c_char,
    pub topology: *mut c_void,
}

/// Fabric coordinates of a device.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_geometry_t {
    pub fabric: usize,
    pub uuid: *mut c_char,
    pub osname: *mut c_char,
    pub coordinates: *mut pmix_coord_t,
    pub ncoords: usize,
}

/// Distance from a process to a device.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_device_distance_t {
    pub uuid: *mut c_char,
    pub osname: *mut c_char,
    pub r#type: pmix_device_type_t,
    pub mindist: u16,
    pub maxdist: u16,
}

/// A counted byte array.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_byte_object_t {
    pub bytes: *mut c_char,
    pub size: usize,
}

/// A fabric endpoint.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_endpoint_t {
    pub uuid: *mut c_char,
    pub osname: *mut c_char,
    pub endpt: pmix_byte_object_t,
}

/// An environment variable directive.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_envar_t {
    pub envar: *mut c_char,
    pub value: *mut c_char,
    pub separator: c_char,
}

/// A process name: namespace and rank.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_proc_t {
    pub nspace: [c_char; PMIX_NSPACE_BUFLEN],
    pub rank: pmix_rank_t,
}

/// Description of a process, as a proc-table query returns it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_proc_info_t {
    pub proc: pmix_proc_t,
    pub hostname: *mut c_char,
    pub executable_name: *mut c_char,
    pub pid: libc::pid_t,
    pub exit_code: c_int,
    pub state: pmix_proc_state_t,
}

/// A typed array of values.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_data_array_t {
    pub r#type: pmix_data_type_t,
    pub size: usize,
    pub array: *mut c_void,
}

/// A buffer for `PMIx_Data_pack` and `PMIx_Data_unpack`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_data_buffer_t {
    pub base_ptr: *mut c_char,
    pub pack_ptr: *mut c_char,
    pub unpack_ptr: *mut c_char,
    pub bytes_allocated: usize,
    pub bytes_used: usize,
}

/// Statistics of one process.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_proc_stats_t {
    pub node: *mut c_char,
    pub proc: pmix_proc_t,
    pub pid: libc::pid_t,
    pub cmd: *mut c_char,
    pub state: c_char,
    pub time: libc::timeval,
    pub percent_cpu: f32,
    pub priority: i32,
    pub num_threads: u16,
    pub pss: f32,
    pub vsize: f32,
    pub rss: f32,
    pub peak_vsize: f32,
    pub processor: u16,
    pub sample_time: libc::timeval,
}

/// Statistics of one disk.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_disk_stats_t {
    pub disk: *mut c_char,
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
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_net_stats_t {
    pub net_interface: *mut c_char,
    pub num_bytes_recvd: u64,
    pub num_packets_recvd: u64,
    pub num_recv_errs: u64,
    pub num_bytes_sent: u64,
    pub num_packets_sent: u64,
    pub num_send_errs: u64,
}

/// Statistics of one node.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_node_stats_t {
    pub node: *mut c_char,
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
    pub sample_time: libc::timeval,
    pub diskstats: *mut pmix_disk_stats_t,
    pub ndiskstats: usize,
    pub netstats: *mut pmix_net_stats_t,
    pub nnetstats: usize,
}

/// The payload of a `pmix_value_t`; which member is live depends on `pmix_value_t::type`.
/// (Anonymous in the reference header; `xtask` prints it inline.)
#[repr(C)]
#[derive(Clone, Copy)]
pub union pmix_value_data_t {
    pub flag: bool,
    pub byte: u8,
    pub string: *mut c_char,
    pub size: usize,
    pub pid: libc::pid_t,
    pub integer: c_int,
    pub int8: i8,
    pub int16: i16,
    pub int32: i32,
    pub int64: i64,
    pub uint: c_uint,
    pub uint8: u8,
    pub uint16: u16,
    pub uint32: u32,
    pub uint64: u64,
    pub fval: f32,
    pub dval: f64,
    pub tv: libc::timeval,
    pub time: libc::time_t,
    pub status: pmix_status_t,
    pub rank: pmix_rank_t,
    pub nspace: *mut [c_char; PMIX_NSPACE_BUFLEN],
    pub proc: *mut pmix_proc_t,
    pub bo: pmix_byte_object_t,
    pub persist: pmix_persistence_t,
    pub scope: pmix_scope_t,
    pub range: pmix_data_range_t,
    pub state: pmix_proc_state_t,
    pub pinfo: *mut pmix_proc_info_t,
    pub darray: *mut pmix_data_array_t,
    pub ptr: *mut c_void,
    pub adir: pmix_alloc_directive_t,
    pub envar: pmix_envar_t,
    pub coord: *mut pmix_coord_t,
    pub linkstate: pmix_link_state_t,
    pub jstate: pmix_job_state_t,
    pub topo: *mut pmix_topology_t,
    pub cpuset: *mut pmix_cpuset_t,
    pub locality: pmix_locality_t,
    pub geometry: *mut pmix_geometry_t,
    pub devtype: pmix_device_type_t,
    pub devdist: *mut pmix_device_distance_t,
    pub endpoint: *mut pmix_endpoint_t,
    pub dbuf: *mut pmix_data_buffer_t,
    pub pstats: *mut pmix_proc_stats_t,
    pub dkstats: *mut pmix_disk_stats_t,
    pub netstats: *mut pmix_net_stats_t,
    pub ndstats: *mut pmix_node_stats_t,
}

impl core::fmt::Debug for pmix_value_data_t {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("pmix_value_data_t { .. }")
    }
}

/// A typed value.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_value_t {
    pub r#type: pmix_data_type_t,
    pub data: pmix_value_data_t,
}

/// A key, its directives and its value.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_info_t {
    pub key: [c_char; PMIX_KEY_BUFLEN],
    pub flags: pmix_info_directives_t,
    pub value: pmix_value_t,
}

/// Published data returned by a lookup.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_pdata_t {
    pub proc: pmix_proc_t,
    pub key: [c_char; PMIX_KEY_BUFLEN],
    pub value: pmix_value_t,
}

/// An application to spawn.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_app_t {
    pub cmd: *mut c_char,
    pub argv: *mut *mut c_char,
    pub env: *mut *mut c_char,
    pub cwd: *mut c_char,
    pub maxprocs: c_int,
    pub info: *mut pmix_info_t,
    pub ninfo: usize,
}

/// A query: keys and their qualifiers.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_query_t {
    pub keys: *mut *mut c_char,
    pub qualifiers: *mut pmix_info_t,
    pub nqual: usize,
}

/// A registered attribute.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_regattr_t {
    pub name: *mut c_char,
    pub string: [c_char; PMIX_KEY_BUFLEN],
    pub r#type: pmix_data_type_t,
    pub description: *mut *mut c_char,
}

/// A fabric handle.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct pmix_fabric_t {
    pub name: *mut c_char,
    pub index: usize,
    pub info: *mut pmix_info_t,
    pub ninfo: usize,
    pub module: *mut c_void,
}
