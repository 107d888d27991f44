//! Numeric constants of `pmix_common.h`, with the reference's names and values.
//! Each is printed as a `#define` so that C code can test it with `#ifdef`.

pub use crate::limits::{PMIX_MAX_KEYLEN, PMIX_MAX_NSLEN};
use crate::types::*;

// Values of the reference's `pmix_value_cmp_t` enum.
pub const PMIX_EQUAL: pmix_value_cmp_t = 0;
pub const PMIX_VALUE1_GREATER: pmix_value_cmp_t = 1;
pub const PMIX_VALUE2_GREATER: pmix_value_cmp_t = 2;
pub const PMIX_VALUE_TYPE_DIFFERENT: pmix_value_cmp_t = 3;
pub const PMIX_VALUE_INCOMPATIBLE_OBJECTS: pmix_value_cmp_t = 4;
pub const PMIX_VALUE_COMPARISON_NOT_AVAIL: pmix_value_cmp_t = 5;

// Values of the reference's `pmix_group_opt_t` enum.
pub const PMIX_GROUP_DECLINE: pmix_group_opt_t = 0;
pub const PMIX_GROUP_ACCEPT: pmix_group_opt_t = 1;

// Values of the reference's `pmix_group_operation_t` enum.
pub const PMIX_GROUP_CONSTRUCT: pmix_group_operation_t = 0;
pub const PMIX_GROUP_DESTRUCT: pmix_group_operation_t = 1;
/// New in OpenPMIx 5.0.
pub const PMIX_GROUP_NONE: pmix_group_operation_t = 2;

// Values of the reference's `pmix_boolean_t` enum.
pub const PMIX_BOOL_TRUE: pmix_boolean_t = 0;
pub const PMIX_BOOL_FALSE: pmix_boolean_t = 1;
pub const PMIX_NON_BOOL: pmix_boolean_t = 2;

// Values of the reference's `pmix_fabric_operation_t` enum.
pub const PMIX_FABRIC_REQUEST_INFO: pmix_fabric_operation_t = 0;
pub const PMIX_FABRIC_UPDATE_INFO: pmix_fabric_operation_t = 1;

// pmix_rank_t
pub const PMIX_RANK_UNDEF: pmix_rank_t = u32::MAX;
pub const PMIX_RANK_WILDCARD: pmix_rank_t = u32::MAX - 1;
pub const PMIX_RANK_LOCAL_NODE: pmix_rank_t = u32::MAX - 2;
pub const PMIX_RANK_LOCAL_PEERS: pmix_rank_t = u32::MAX - 4;
pub const PMIX_RANK_INVALID: pmix_rank_t = u32::MAX - 3;
pub const PMIX_RANK_VALID: pmix_rank_t = u32::MAX - 50;
pub const PMIX_APP_WILDCARD: pmix_rank_t = u32::MAX;

// pmix_proc_state_t
pub const PMIX_PROC_STATE_UNDEF: pmix_proc_state_t = 0;
pub const PMIX_PROC_STATE_PREPPED: pmix_proc_state_t = 1;
pub const PMIX_PROC_STATE_LAUNCH_UNDERWAY: pmix_proc_state_t = 2;
pub const PMIX_PROC_STATE_RESTART: pmix_proc_state_t = 3;
pub const PMIX_PROC_STATE_TERMINATE: pmix_proc_state_t = 4;
pub const PMIX_PROC_STATE_RUNNING: pmix_proc_state_t = 5;
pub const PMIX_PROC_STATE_CONNECTED: pmix_proc_state_t = 6;
pub const PMIX_PROC_STATE_UNTERMINATED: pmix_proc_state_t = 15;
pub const PMIX_PROC_STATE_TERMINATED: pmix_proc_state_t = 20;
pub const PMIX_PROC_STATE_ERROR: pmix_proc_state_t = 50;
pub const PMIX_PROC_STATE_KILLED_BY_CMD: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 1;
pub const PMIX_PROC_STATE_ABORTED: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 2;
pub const PMIX_PROC_STATE_FAILED_TO_START: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 3;
pub const PMIX_PROC_STATE_ABORTED_BY_SIG: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 4;
pub const PMIX_PROC_STATE_TERM_WO_SYNC: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 5;
pub const PMIX_PROC_STATE_COMM_FAILED: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 6;
pub const PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 7;
pub const PMIX_PROC_STATE_CALLED_ABORT: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 8;
pub const PMIX_PROC_STATE_HEARTBEAT_FAILED: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 9;
pub const PMIX_PROC_STATE_MIGRATING: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 10;
pub const PMIX_PROC_STATE_CANNOT_RESTART: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 11;
pub const PMIX_PROC_STATE_TERM_NON_ZERO: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 12;
pub const PMIX_PROC_STATE_FAILED_TO_LAUNCH: pmix_proc_state_t = PMIX_PROC_STATE_ERROR + 13;

// pmix_job_state_t
pub const PMIX_JOB_STATE_UNDEF: pmix_job_state_t = 0;
pub const PMIX_JOB_STATE_AWAITING_ALLOC: pmix_job_state_t = 1;
pub const PMIX_JOB_STATE_LAUNCH_UNDERWAY: pmix_job_state_t = 2;
pub const PMIX_JOB_STATE_RUNNING: pmix_job_state_t = 3;
pub const PMIX_JOB_STATE_SUSPENDED: pmix_job_state_t = 4;
pub const PMIX_JOB_STATE_CONNECTED: pmix_job_state_t = 5;
pub const PMIX_JOB_STATE_UNTERMINATED: pmix_job_state_t = 15;
pub const PMIX_JOB_STATE_TERMINATED: pmix_job_state_t = 20;
pub const PMIX_JOB_STATE_TERMINATED_WITH_ERROR: pmix_job_state_t = 50;

// pmix_status_t
pub const PMIX_SUCCESS: pmix_status_t = 0;
pub const PMIX_ERROR: pmix_status_t = -1;
pub const PMIX_ERR_PROC_RESTART: pmix_status_t = -4;
pub const PMIX_ERR_PROC_CHECKPOINT: pmix_status_t = -5;
pub const PMIX_ERR_PROC_MIGRATE: pmix_status_t = -6;
pub const PMIX_ERR_EXISTS: pmix_status_t = -11;
pub const PMIX_ERR_INVALID_CRED: pmix_status_t = -12;
pub const PMIX_ERR_WOULD_BLOCK: pmix_status_t = -15;
pub const PMIX_ERR_UNKNOWN_DATA_TYPE: pmix_status_t = -16;
pub const PMIX_ERR_TYPE_MISMATCH: pmix_status_t = -18;
pub const PMIX_ERR_UNPACK_INADEQUATE_SPACE: pmix_status_t = -19;
pub const PMIX_ERR_UNPACK_FAILURE: pmix_status_t = -20;
pub const PMIX_ERR_PACK_FAILURE: pmix_status_t = -21;
pub const PMIX_ERR_NO_PERMISSIONS: pmix_status_t = -23;
pub const PMIX_ERR_TIMEOUT: pmix_status_t = -24;
pub const PMIX_ERR_UNREACH: pmix_status_t = -25;
pub const PMIX_ERR_BAD_PARAM: pmix_status_t = -27;
pub const PMIX_ERR_RESOURCE_BUSY: pmix_status_t = -28;
pub const PMIX_ERR_OUT_OF_RESOURCE: pmix_status_t = -29;
pub const PMIX_ERR_INIT: pmix_status_t = -31;
pub const PMIX_ERR_NOMEM: pmix_status_t = -32;
pub const PMIX_ERR_NOT_FOUND: pmix_status_t = -46;
pub const PMIX_ERR_NOT_SUPPORTED: pmix_status_t = -47;
pub const PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED: pmix_status_t = -59;
pub const PMIX_ERR_COMM_FAILURE: pmix_status_t = -49;
pub const PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER: pmix_status_t = -50;
pub const PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES: pmix_status_t = -51;
pub const PMIX_ERR_PARTIAL_SUCCESS: pmix_status_t = -52;
pub const PMIX_ERR_DUPLICATE_KEY: pmix_status_t = -53;
pub const PMIX_ERR_EMPTY: pmix_status_t = -60;
pub const PMIX_ERR_LOST_CONNECTION: pmix_status_t = -61;
pub const PMIX_ERR_EXISTS_OUTSIDE_SCOPE: pmix_status_t = -62;
pub const PMIX_PROCESS_SET_DEFINE: pmix_status_t = -55;
pub const PMIX_PROCESS_SET_DELETE: pmix_status_t = -56;
pub const PMIX_DEBUGGER_RELEASE: pmix_status_t = -3;
pub const PMIX_READY_FOR_DEBUG: pmix_status_t = -58;
pub const PMIX_QUERY_PARTIAL_SUCCESS: pmix_status_t = -104;
pub const PMIX_JCTRL_CHECKPOINT: pmix_status_t = -106;
pub const PMIX_JCTRL_CHECKPOINT_COMPLETE: pmix_status_t = -107;
pub const PMIX_JCTRL_PREEMPT_ALERT: pmix_status_t = -108;
pub const PMIX_MONITOR_HEARTBEAT_ALERT: pmix_status_t = -109;
pub const PMIX_MONITOR_FILE_ALERT: pmix_status_t = -110;
pub const PMIX_PROC_TERMINATED: pmix_status_t = -111;
pub const PMIX_ERR_EVENT_REGISTRATION: pmix_status_t = -144;
pub const PMIX_MODEL_DECLARED: pmix_status_t = -147;
pub const PMIX_MODEL_RESOURCES: pmix_status_t = -151;
pub const PMIX_OPENMP_PARALLEL_ENTERED: pmix_status_t = -152;
pub const PMIX_OPENMP_PARALLEL_EXITED: pmix_status_t = -153;
pub const PMIX_LAUNCHER_READY: pmix_status_t = -155;
pub const PMIX_OPERATION_IN_PROGRESS: pmix_status_t = -156;
pub const PMIX_OPERATION_SUCCEEDED: pmix_status_t = -157;
pub const PMIX_ERR_INVALID_OPERATION: pmix_status_t = -158;
pub const PMIX_GROUP_INVITED: pmix_status_t = -159;
pub const PMIX_GROUP_LEFT: pmix_status_t = -160;
pub const PMIX_GROUP_INVITE_ACCEPTED: pmix_status_t = -161;
pub const PMIX_GROUP_INVITE_DECLINED: pmix_status_t = -162;
pub const PMIX_GROUP_INVITE_FAILED: pmix_status_t = -163;
pub const PMIX_GROUP_MEMBERSHIP_UPDATE: pmix_status_t = -164;
pub const PMIX_GROUP_CONSTRUCT_ABORT: pmix_status_t = -165;
pub const PMIX_GROUP_CONSTRUCT_COMPLETE: pmix_status_t = -166;
pub const PMIX_GROUP_LEADER_SELECTED: pmix_status_t = -167;
pub const PMIX_GROUP_LEADER_FAILED: pmix_status_t = -168;
pub const PMIX_GROUP_CONTEXT_ID_ASSIGNED: pmix_status_t = -169;
pub const PMIX_GROUP_MEMBER_FAILED: pmix_status_t = -170;
pub const PMIX_ERR_REPEAT_ATTR_REGISTRATION: pmix_status_t = -171;
pub const PMIX_ERR_IOF_FAILURE: pmix_status_t = -172;
pub const PMIX_ERR_IOF_COMPLETE: pmix_status_t = -173;
pub const PMIX_LAUNCH_COMPLETE: pmix_status_t = -174;
pub const PMIX_FABRIC_UPDATED: pmix_status_t = -175;
pub const PMIX_FABRIC_UPDATE_PENDING: pmix_status_t = -176;
pub const PMIX_FABRIC_UPDATE_ENDPOINTS: pmix_status_t = -113;
pub const PMIX_ERR_JOB_APP_NOT_EXECUTABLE: pmix_status_t = -177;
pub const PMIX_ERR_JOB_NO_EXE_SPECIFIED: pmix_status_t = -178;
pub const PMIX_ERR_JOB_FAILED_TO_MAP: pmix_status_t = -179;
pub const PMIX_ERR_JOB_CANCELED: pmix_status_t = -180;
pub const PMIX_ERR_JOB_FAILED_TO_LAUNCH: pmix_status_t = -181;
pub const PMIX_ERR_JOB_ABORTED: pmix_status_t = -182;
pub const PMIX_ERR_JOB_KILLED_BY_CMD: pmix_status_t = -183;
pub const PMIX_ERR_JOB_ABORTED_BY_SIG: pmix_status_t = -184;
pub const PMIX_ERR_JOB_TERM_WO_SYNC: pmix_status_t = -185;
pub const PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED: pmix_status_t = -186;
pub const PMIX_ERR_JOB_NON_ZERO_TERM: pmix_status_t = -187;
pub const PMIX_ERR_JOB_ALLOC_FAILED: pmix_status_t = -188;
pub const PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT: pmix_status_t = -189;
pub const PMIX_ERR_JOB_EXE_NOT_FOUND: pmix_status_t = -190;
pub const PMIX_ERR_JOB_WDIR_NOT_FOUND: pmix_status_t = -233;
pub const PMIX_ERR_JOB_INSUFFICIENT_RESOURCES: pmix_status_t = -234;
pub const PMIX_ERR_JOB_SYS_OP_FAILED: pmix_status_t = -235;
pub const PMIX_EVENT_JOB_START: pmix_status_t = -191;
pub const PMIX_EVENT_JOB_END: pmix_status_t = -145;
pub const PMIX_EVENT_SESSION_START: pmix_status_t = -192;
pub const PMIX_EVENT_SESSION_END: pmix_status_t = -193;
pub const PMIX_ERR_PROC_REQUESTED_ABORT: pmix_status_t = -8;
pub const PMIX_ERR_PROC_TERM_WO_SYNC: pmix_status_t = -200;
pub const PMIX_EVENT_PROC_TERMINATED: pmix_status_t = -201;
pub const PMIX_ERR_PROC_KILLED_BY_CMD: pmix_status_t = -400;
pub const PMIX_ERR_PROC_FAILED_TO_START: pmix_status_t = -401;
pub const PMIX_ERR_PROC_ABORTED_BY_SIG: pmix_status_t = -402;
pub const PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED: pmix_status_t = -403;
pub const PMIX_ERR_EXIT_NONZERO_TERM: pmix_status_t = -404;
pub const PMIX_EVENT_SYS_BASE: pmix_status_t = -230;
pub const PMIX_EVENT_NODE_DOWN: pmix_status_t = -231;
pub const PMIX_EVENT_NODE_OFFLINE: pmix_status_t = -232;
pub const PMIX_EVENT_SYS_OTHER: pmix_status_t = -330;
pub const PMIX_EVENT_NO_ACTION_TAKEN: pmix_status_t = -331;
pub const PMIX_EVENT_PARTIAL_ACTION_TAKEN: pmix_status_t = -332;
pub const PMIX_EVENT_ACTION_DEFERRED: pmix_status_t = -333;
pub const PMIX_EVENT_ACTION_COMPLETE: pmix_status_t = -334;
pub const PMIX_EXTERNAL_ERR_BASE: pmix_status_t = -3000;

// pmix_data_type_t
pub const PMIX_UNDEF: pmix_data_type_t = 0;
pub const PMIX_BOOL: pmix_data_type_t = 1;
pub const PMIX_BYTE: pmix_data_type_t = 2;
pub const PMIX_STRING: pmix_data_type_t = 3;
pub const PMIX_SIZE: pmix_data_type_t = 4;
pub const PMIX_PID: pmix_data_type_t = 5;
pub const PMIX_INT: pmix_data_type_t = 6;
pub const PMIX_INT8: pmix_data_type_t = 7;
pub const PMIX_INT16: pmix_data_type_t = 8;
pub const PMIX_INT32: pmix_data_type_t = 9;
pub const PMIX_INT64: pmix_data_type_t = 10;
pub const PMIX_UINT: pmix_data_type_t = 11;
pub const PMIX_UINT8: pmix_data_type_t = 12;
pub const PMIX_UINT16: pmix_data_type_t = 13;
pub const PMIX_UINT32: pmix_data_type_t = 14;
pub const PMIX_UINT64: pmix_data_type_t = 15;
pub const PMIX_FLOAT: pmix_data_type_t = 16;
pub const PMIX_DOUBLE: pmix_data_type_t = 17;
pub const PMIX_TIMEVAL: pmix_data_type_t = 18;
pub const PMIX_TIME: pmix_data_type_t = 19;
pub const PMIX_STATUS: pmix_data_type_t = 20;
pub const PMIX_VALUE: pmix_data_type_t = 21;
pub const PMIX_PROC: pmix_data_type_t = 22;
pub const PMIX_APP: pmix_data_type_t = 23;
pub const PMIX_INFO: pmix_data_type_t = 24;
pub const PMIX_PDATA: pmix_data_type_t = 25;
pub const PMIX_BYTE_OBJECT: pmix_data_type_t = 27;
pub const PMIX_KVAL: pmix_data_type_t = 28;
pub const PMIX_PERSIST: pmix_data_type_t = 30;
pub const PMIX_POINTER: pmix_data_type_t = 31;
pub const PMIX_SCOPE: pmix_data_type_t = 32;
pub const PMIX_DATA_RANGE: pmix_data_type_t = 33;
pub const PMIX_COMMAND: pmix_data_type_t = 34;
pub const PMIX_INFO_DIRECTIVES: pmix_data_type_t = 35;
pub const PMIX_DATA_TYPE: pmix_data_type_t = 36;
pub const PMIX_PROC_STATE: pmix_data_type_t = 37;
pub const PMIX_PROC_INFO: pmix_data_type_t = 38;
pub const PMIX_DATA_ARRAY: pmix_data_type_t = 39;
pub const PMIX_PROC_RANK: pmix_data_type_t = 40;
pub const PMIX_QUERY: pmix_data_type_t = 41;
pub const PMIX_COMPRESSED_STRING: pmix_data_type_t = 42;
pub const PMIX_ALLOC_DIRECTIVE: pmix_data_type_t = 43;
pub const PMIX_IOF_CHANNEL: pmix_data_type_t = 45;
pub const PMIX_ENVAR: pmix_data_type_t = 46;
pub const PMIX_COORD: pmix_data_type_t = 47;
pub const PMIX_REGATTR: pmix_data_type_t = 48;
pub const PMIX_REGEX: pmix_data_type_t = 49;
pub const PMIX_JOB_STATE: pmix_data_type_t = 50;
pub const PMIX_LINK_STATE: pmix_data_type_t = 51;
pub const PMIX_PROC_CPUSET: pmix_data_type_t = 52;
pub const PMIX_GEOMETRY: pmix_data_type_t = 53;
pub const PMIX_DEVICE_DIST: pmix_data_type_t = 54;
pub const PMIX_ENDPOINT: pmix_data_type_t = 55;
pub const PMIX_TOPO: pmix_data_type_t = 56;
pub const PMIX_DEVTYPE: pmix_data_type_t = 57;
pub const PMIX_LOCTYPE: pmix_data_type_t = 58;
pub const PMIX_COMPRESSED_BYTE_OBJECT: pmix_data_type_t = 59;
pub const PMIX_PROC_NSPACE: pmix_data_type_t = 60;
pub const PMIX_PROC_STATS: pmix_data_type_t = 61;
pub const PMIX_DISK_STATS: pmix_data_type_t = 62;
pub const PMIX_NET_STATS: pmix_data_type_t = 63;
pub const PMIX_NODE_STATS: pmix_data_type_t = 64;
pub const PMIX_DATA_BUFFER: pmix_data_type_t = 65;
pub const PMIX_STOR_MEDIUM: pmix_data_type_t = 66;
pub const PMIX_STOR_ACCESS: pmix_data_type_t = 67;
pub const PMIX_STOR_PERSIST: pmix_data_type_t = 68;
pub const PMIX_STOR_ACCESS_TYPE: pmix_data_type_t = 69;
pub const PMIX_DATA_TYPE_MAX: pmix_data_type_t = 500;

// pmix_scope_t
pub const PMIX_SCOPE_UNDEF: pmix_scope_t = 0;
pub const PMIX_LOCAL: pmix_scope_t = 1;
pub const PMIX_REMOTE: pmix_scope_t = 2;
pub const PMIX_GLOBAL: pmix_scope_t = 3;
pub const PMIX_INTERNAL: pmix_scope_t = 4;

// pmix_data_range_t
pub const PMIX_RANGE_UNDEF: pmix_data_range_t = 0;
pub const PMIX_RANGE_RM: pmix_data_range_t = 1;
pub const PMIX_RANGE_LOCAL: pmix_data_range_t = 2;
pub const PMIX_RANGE_NAMESPACE: pmix_data_range_t = 3;
pub const PMIX_RANGE_SESSION: pmix_data_range_t = 4;
pub const PMIX_RANGE_GLOBAL: pmix_data_range_t = 5;
pub const PMIX_RANGE_CUSTOM: pmix_data_range_t = 6;
pub const PMIX_RANGE_PROC_LOCAL: pmix_data_range_t = 7;
pub const PMIX_RANGE_INVALID: pmix_data_range_t = u8::MAX;

// pmix_persistence_t
pub const PMIX_PERSIST_INDEF: pmix_persistence_t = 0;
pub const PMIX_PERSIST_FIRST_READ: pmix_persistence_t = 1;
pub const PMIX_PERSIST_PROC: pmix_persistence_t = 2;
pub const PMIX_PERSIST_APP: pmix_persistence_t = 3;
pub const PMIX_PERSIST_SESSION: pmix_persistence_t = 4;
pub const PMIX_PERSIST_INVALID: pmix_persistence_t = u8::MAX;

// pmix_info_directives_t
pub const PMIX_INFO_REQD: pmix_info_directives_t = 0x00000001;
pub const PMIX_INFO_ARRAY_END: pmix_info_directives_t = 0x00000002;
pub const PMIX_INFO_REQD_PROCESSED: pmix_info_directives_t = 0x00000004;
pub const PMIX_INFO_QUALIFIER: pmix_info_directives_t = 0x00000008;
pub const PMIX_INFO_PERSISTENT: pmix_info_directives_t = 0x00000010;
pub const PMIX_INFO_DIR_RESERVED: pmix_info_directives_t = 0xffff0000;

// pmix_alloc_directive_t
pub const PMIX_ALLOC_NEW: pmix_alloc_directive_t = 1;
pub const PMIX_ALLOC_EXTEND: pmix_alloc_directive_t = 2;
pub const PMIX_ALLOC_RELEASE: pmix_alloc_directive_t = 3;
pub const PMIX_ALLOC_REAQUIRE: pmix_alloc_directive_t = 4;
/// New in OpenPMIx 5.0: cancel the indicated allocation request.
pub const PMIX_ALLOC_REQ_CANCEL: pmix_alloc_directive_t = 5;
pub const PMIX_ALLOC_EXTERNAL: pmix_alloc_directive_t = 128;

// pmix_iof_channel_t
pub const PMIX_FWD_NO_CHANNELS: pmix_iof_channel_t = 0x0000;
pub const PMIX_FWD_STDIN_CHANNEL: pmix_iof_channel_t = 0x0001;
pub const PMIX_FWD_STDOUT_CHANNEL: pmix_iof_channel_t = 0x0002;
pub const PMIX_FWD_STDERR_CHANNEL: pmix_iof_channel_t = 0x0004;
pub const PMIX_FWD_STDDIAG_CHANNEL: pmix_iof_channel_t = 0x0008;
pub const PMIX_FWD_ALL_CHANNELS: pmix_iof_channel_t = 0x00ff;

// pmix_storage_medium_t
pub const PMIX_STORAGE_MEDIUM_UNKNOWN: pmix_storage_medium_t = 0x0000000000000001;
pub const PMIX_STORAGE_MEDIUM_TAPE: pmix_storage_medium_t = 0x0000000000000002;
pub const PMIX_STORAGE_MEDIUM_HDD: pmix_storage_medium_t = 0x0000000000000004;
pub const PMIX_STORAGE_MEDIUM_SSD: pmix_storage_medium_t = 0x0000000000000008;
pub const PMIX_STORAGE_MEDIUM_NVME: pmix_storage_medium_t = 0x0000000000000010;
pub const PMIX_STORAGE_MEDIUM_PMEM: pmix_storage_medium_t = 0x0000000000000020;
pub const PMIX_STORAGE_MEDIUM_RAM: pmix_storage_medium_t = 0x0000000000000040;

// pmix_storage_accessibility_t
pub const PMIX_STORAGE_ACCESSIBILITY_NODE: pmix_storage_accessibility_t = 0x0000000000000001;
pub const PMIX_STORAGE_ACCESSIBILITY_SESSION: pmix_storage_accessibility_t = 0x0000000000000002;
pub const PMIX_STORAGE_ACCESSIBILITY_JOB: pmix_storage_accessibility_t = 0x0000000000000004;
pub const PMIX_STORAGE_ACCESSIBILITY_RACK: pmix_storage_accessibility_t = 0x0000000000000008;
pub const PMIX_STORAGE_ACCESSIBILITY_CLUSTER: pmix_storage_accessibility_t = 0x0000000000000010;
pub const PMIX_STORAGE_ACCESSIBILITY_REMOTE: pmix_storage_accessibility_t = 0x0000000000000020;

// pmix_storage_persistence_t
pub const PMIX_STORAGE_PERSISTENCE_TEMPORARY: pmix_storage_persistence_t = 0x0000000000000001;
pub const PMIX_STORAGE_PERSISTENCE_NODE: pmix_storage_persistence_t = 0x0000000000000002;
pub const PMIX_STORAGE_PERSISTENCE_SESSION: pmix_storage_persistence_t = 0x0000000000000004;
pub const PMIX_STORAGE_PERSISTENCE_JOB: pmix_storage_persistence_t = 0x0000000000000008;
pub const PMIX_STORAGE_PERSISTENCE_SCRATCH: pmix_storage_persistence_t = 0x0000000000000010;
pub const PMIX_STORAGE_PERSISTENCE_PROJECT: pmix_storage_persistence_t = 0x0000000000000020;
pub const PMIX_STORAGE_PERSISTENCE_ARCHIVE: pmix_storage_persistence_t = 0x0000000000000040;

// pmix_storage_access_type_t
pub const PMIX_STORAGE_ACCESS_RD: pmix_storage_access_type_t = 0x0001;
pub const PMIX_STORAGE_ACCESS_WR: pmix_storage_access_type_t = 0x0002;
pub const PMIX_STORAGE_ACCESS_RDWR: pmix_storage_access_type_t = 0x0003;

// pmix_coord_view_t
pub const PMIX_COORD_VIEW_UNDEF: pmix_coord_view_t = 0x00;
pub const PMIX_COORD_LOGICAL_VIEW: pmix_coord_view_t = 0x01;
pub const PMIX_COORD_PHYSICAL_VIEW: pmix_coord_view_t = 0x02;

// pmix_link_state_t
pub const PMIX_LINK_STATE_UNKNOWN: pmix_link_state_t = 0;
pub const PMIX_LINK_DOWN: pmix_link_state_t = 1;
pub const PMIX_LINK_UP: pmix_link_state_t = 2;

// pmix_bind_envelope_t
pub const PMIX_CPUBIND_PROCESS: pmix_bind_envelope_t = 0;
pub const PMIX_CPUBIND_THREAD: pmix_bind_envelope_t = 1;

// pmix_locality_t
pub const PMIX_LOCALITY_UNKNOWN: pmix_locality_t = 0x0000;
pub const PMIX_LOCALITY_NONLOCAL: pmix_locality_t = 0x8000;
pub const PMIX_LOCALITY_SHARE_HWTHREAD: pmix_locality_t = 0x0001;
pub const PMIX_LOCALITY_SHARE_CORE: pmix_locality_t = 0x0002;
pub const PMIX_LOCALITY_SHARE_L1CACHE: pmix_locality_t = 0x0004;
pub const PMIX_LOCALITY_SHARE_L2CACHE: pmix_locality_t = 0x0008;
pub const PMIX_LOCALITY_SHARE_L3CACHE: pmix_locality_t = 0x0010;
pub const PMIX_LOCALITY_SHARE_PACKAGE: pmix_locality_t = 0x0020;
pub const PMIX_LOCALITY_SHARE_NUMA: pmix_locality_t = 0x0040;
pub const PMIX_LOCALITY_SHARE_NODE: pmix_locality_t = 0x4000;

// pmix_device_type_t
pub const PMIX_DEVTYPE_UNKNOWN: pmix_device_type_t = 0x00;
pub const PMIX_DEVTYPE_BLOCK: pmix_device_type_t = 0x01;
pub const PMIX_DEVTYPE_GPU: pmix_device_type_t = 0x02;
pub const PMIX_DEVTYPE_NETWORK: pmix_device_type_t = 0x04;
pub const PMIX_DEVTYPE_OPENFABRICS: pmix_device_type_t = 0x08;
pub const PMIX_DEVTYPE_DMA: pmix_device_type_t = 0x10;
pub const PMIX_DEVTYPE_COPROC: pmix_device_type_t = 0x20;
