//! Text renderings of PMIx data: the names behind the `PMIx_*_string` functions and the
//! multi-line descriptions of `PMIx_Value_string`, `PMIx_Info_string` and `PMIx_Data_print`.
//!
//! Programs show these strings to people and sometimes compare them, so they are those of
//! OpenPMIx 4.2, learned by calling that library with every input (tests/tests/print.rs does
//! it again on every run). Where OpenPMIx prints an address, garbage or nothing at all, we
//! print something sensible instead; docs/notes/print.md lists each such place.
//!
//! Renderings are bytes, not `str`: strings inside PMIx data need not be UTF-8. Anything that
//! depends on the process (the local time zone) comes in through `Printer`.

use core::ffi::CStr;

use pmix_sys::*;

use crate::attrs;
use crate::values::*;

// ---------------------------------------------------------------------------------------
// Names of enumerations. Each returns a static string, as the C functions must.

/// The PMIx Standard level of the ABI this library provides, as OpenPMIx 5.0.11 reports it.
pub const STANDARD_VERSION: &str = "5.1";

/// What `PMIx_Get_version` returns: this library's name, its version (the newest OpenPMIx
/// release whose ABI it provides, 5.0.11; it serves 4.2 binaries too) and the Standard and ABI
/// levels in the reference's layout, so that programs that parse
/// "<name> <major>.<minor>.<release>" (PRRTE: major 5 when built against 5.0) or the
/// parenthesised levels get the same numbers as from OpenPMIx 5.0.11. The first character is
/// above '3', which Open MPI 4.1 checks.
pub const VERSION: &CStr = match CStr::from_bytes_with_nul(
    concat!(
        "pmix-rs ",
        env!("CARGO_PKG_VERSION"),
        " (PMIx Standard: 5.1, Stable ABI: 5.0, Provisional ABI: 5.0)\0"
    )
    .as_bytes(),
) {
    Ok(s) => s,
    Err(_) => panic!("version string"),
};

/// The status whose [`error_string`] text is `text` (any case): the inverse of
/// `PMIx_Error_string` for every code that has a text, so that a status printed in OpenPMIx
/// 4.2's words reads back. `PMIx_Error_code` takes these texts besides the constant names
/// (`docs/notes/abi-5.0.md`, "PMIx_Error_string"); `None` for any other text.
pub fn error_code_of_text(text: &[u8]) -> Option<pmix_status_t> {
    crate::status_names::STATUS_NAMES
        .iter()
        .map(|&(_, code)| code)
        .find(|&code| {
            let t = error_string(code).to_bytes();
            t != b"ERROR STRING NOT FOUND" && t.eq_ignore_ascii_case(text)
        })
}

/// `PMIx_Error_string`: the name of a status code, "ERROR STRING NOT FOUND" for codes without
/// one (including most that the headers define only for later versions).
#[doc(alias = "PMIx_Error_string")]
pub fn error_string(status: pmix_status_t) -> &'static CStr {
    match status {
        i32::MIN => c"PMIX_ERR_WILDCARD",
        -1367 => c"PMIX TEMPORARILY UNAVAILABLE",
        -1366 => c"TAKE-NEXT-OPTION",
        -1363 => c"FABRIC_NOT_PARSEABLE",
        PMIX_ERR_EXIT_NONZERO_TERM => c"PROC-EXIT-NONZERO-TERM",
        PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED => c"PROC-SENSOR-BOUND-EXCEEDED",
        PMIX_ERR_PROC_ABORTED_BY_SIG => c"PROC-ABORTED-BY-SIG",
        PMIX_ERR_PROC_FAILED_TO_START => c"PROC-FAILED-TO-START",
        PMIX_ERR_PROC_KILLED_BY_CMD => c"PROC-KILLED-BY-CMD",
        PMIX_EVENT_ACTION_COMPLETE => c"EVENT-ACTION-COMPLETE",
        PMIX_EVENT_ACTION_DEFERRED => c"EVENT-ACTION-DEFERRED",
        PMIX_EVENT_PARTIAL_ACTION_TAKEN => c"EVENT-PARTIAL-ACTION-TAKEN",
        PMIX_EVENT_NO_ACTION_TAKEN => c"EVENT-NO-ACTION-TAKEN",
        PMIX_EVENT_SYS_OTHER => c"UNDEFINED-SYSTEM-EVENT",
        PMIX_ERR_JOB_SYS_OP_FAILED => c"SYSTEM OPERATION FAILED",
        PMIX_ERR_JOB_INSUFFICIENT_RESOURCES => c"INSUFFICIENT RESOURCES",
        PMIX_ERR_JOB_WDIR_NOT_FOUND => c"WORKING DIRECTORY NOT FOUND",
        PMIX_EVENT_NODE_OFFLINE => c"NODE-OFFLINE",
        PMIX_EVENT_NODE_DOWN => c"NODE-DOWN",
        PMIX_EVENT_SYS_BASE => c"SYSTEM BASE EVENT",
        PMIX_EVENT_PROC_TERMINATED => c"PROC TERMINATED",
        PMIX_ERR_PROC_TERM_WO_SYNC => c"PROC TERMINATED WITHOUT SYNC",
        PMIX_EVENT_SESSION_END => c"SESSION ENDED",
        PMIX_EVENT_SESSION_START => c"SESSION STARTED",
        PMIX_EVENT_JOB_START => c"JOB STARTED",
        PMIX_ERR_JOB_EXE_NOT_FOUND => c"EXECUTABLE NOT FOUND",
        PMIX_ERR_JOB_ABORTED_BY_SYS_EVENT => c"JOB ABORTED BY SYSTEM EVENT",
        PMIX_ERR_JOB_ALLOC_FAILED => c"FAILED TO OBTAIN ALLOCATION",
        PMIX_ERR_JOB_NON_ZERO_TERM => c"NON-ZERO TERMINATION",
        PMIX_ERR_JOB_SENSOR_BOUND_EXCEEDED => c"SENSOR BOUND EXCEEDED",
        PMIX_ERR_JOB_TERM_WO_SYNC => c"TERMINATED WITHOUT SYNC",
        PMIX_ERR_JOB_ABORTED_BY_SIG => c"ABORTED BY SIGNAL",
        PMIX_ERR_JOB_KILLED_BY_CMD => c"KILLED BY COMMAND",
        PMIX_ERR_JOB_ABORTED => c"JOB ABORTED",
        PMIX_ERR_JOB_FAILED_TO_LAUNCH => c"JOB FAILED TO LAUNCH",
        PMIX_ERR_JOB_CANCELED => c"JOB CANCELED",
        PMIX_ERR_JOB_FAILED_TO_MAP => c"JOB FAILED TO MAP",
        PMIX_ERR_JOB_NO_EXE_SPECIFIED => c"NO EXECUTABLE SPECIFIED",
        PMIX_ERR_JOB_APP_NOT_EXECUTABLE => c"APPLICATION NOT EXECUTABLE",
        PMIX_FABRIC_UPDATE_PENDING => c"FABRIC-UPDATE-PENDING",
        PMIX_FABRIC_UPDATED => c"FABRIC-UPDATED",
        PMIX_LAUNCH_COMPLETE => c"PMIX LAUNCH COMPLETE",
        PMIX_ERR_IOF_COMPLETE => c"IOF COMPLETE",
        PMIX_ERR_IOF_FAILURE => c"IOF FAILURE",
        PMIX_ERR_REPEAT_ATTR_REGISTRATION => c"REPEAT-ATTRIBUTE-REGISTRATION",
        PMIX_GROUP_MEMBER_FAILED => c"GROUP-MEMBER-FAILED",
        PMIX_GROUP_CONTEXT_ID_ASSIGNED => c"GROUP-CONTEXT-ID-ASSIGNED",
        PMIX_GROUP_LEADER_FAILED => c"GROUP-LEADER-FAILED",
        PMIX_GROUP_LEADER_SELECTED => c"GROUP-LEADER-SELECTED",
        PMIX_GROUP_CONSTRUCT_COMPLETE => c"GROUP-CONSTRUCT-COMPLETE",
        PMIX_GROUP_CONSTRUCT_ABORT => c"GROUP-CONSTRUCT-ABORT",
        PMIX_GROUP_MEMBERSHIP_UPDATE => c"GROUP-MEMBERSHIP-UPDATE",
        PMIX_GROUP_INVITE_FAILED => c"GROUP-INVITE-FAILED",
        PMIX_GROUP_INVITE_DECLINED => c"GROUP-INVITE-DECLINED",
        PMIX_GROUP_INVITE_ACCEPTED => c"GROUP-INVITE-ACCEPTED",
        PMIX_GROUP_LEFT => c"GROUP-LEFT",
        PMIX_GROUP_INVITED => c"GROUP-INVITED",
        PMIX_ERR_INVALID_OPERATION => c"INVALID-OPERATION",
        PMIX_OPERATION_SUCCEEDED => c"OPERATION-SUCCEEDED",
        PMIX_OPERATION_IN_PROGRESS => c"OPERATION-IN-PROGRESS",
        PMIX_LAUNCHER_READY => c"LAUNCHER-READY",
        PMIX_OPENMP_PARALLEL_EXITED => c"OPENMP-PARALLEL-EXITED",
        PMIX_OPENMP_PARALLEL_ENTERED => c"OPENMP-PARALLEL-ENTERED",
        PMIX_CONNECT_REQUESTED => c"CONNECT-REQUESTED",
        PMIX_PROC_HAS_CONNECTED => c"PROC-HAS-CONNECTED",
        PMIX_GDS_ACTION_COMPLETE => c"GDS-ACTION-COMPLETE",
        PMIX_MODEL_DECLARED => c"PMIX MODEL DECLARED",
        PMIX_ERR_UPDATE_ENDPOINTS => c"UPDATE-ENDPOINTS",
        PMIX_EVENT_JOB_END => c"JOB ENDED",
        PMIX_ERR_EVENT_REGISTRATION => c"EVENT-REGISTRATION",
        PMIX_FABRIC_UPDATE_ENDPOINTS => c"FABRIC-UPDATE-ENDPOINTS",
        PMIX_ERR_INVALID_TERMINATION => c"INVALID-TERMINATION",
        PMIX_PROC_TERMINATED => c"PROC-TERMINATED",
        PMIX_MONITOR_FILE_ALERT => c"PMIX FILE MONITOR ALERT",
        PMIX_MONITOR_HEARTBEAT_ALERT => c"PMIX HEARTBEAT ALERT",
        PMIX_JCTRL_PREEMPT_ALERT => c"PMIX PRE-EMPTION ALERT",
        PMIX_JCTRL_CHECKPOINT_COMPLETE => c"PMIX JOB CONTROL CHECKPOINT COMPLETE",
        PMIX_JCTRL_CHECKPOINT => c"PMIX JOB CONTROL CHECKPOINT",
        PMIX_NOTIFY_ALLOC_COMPLETE => c"PMIX ALLOC OPERATION COMPLETE",
        PMIX_QUERY_PARTIAL_SUCCESS => c"QUERY-PARTIAL-SUCCESS",
        PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE => c"WDIR NOT ACCESSIBLE",
        PMIX_ERR_EXE_NOT_ACCESSIBLE => c"EXE NOT ACCESSIBLE",
        PMIX_ERR_PIPE_SETUP_FAILURE => c"PIPE_SETUP_FAILURE",
        PMIX_ERR_SYS_LIMITS_CHILDREN => c"SYS_LIMITS_CHILDREN",
        PMIX_ERR_SYS_LIMITS_PIPES => c"SYS_LIMITS_PIPES",
        PMIX_ERR_FILE_WRITE_FAILURE => c"FILE_WRITE_FAILURE",
        PMIX_ERR_FILE_READ_FAILURE => c"FILE_READ_FAILURE",
        PMIX_ERR_FILE_OPEN_FAILURE => c"FILE_OPEN_FAILURE",
        PMIX_ERR_VALUE_OUT_OF_BOUNDS => c"VALUE_OUT_OF_BOUNDS",
        PMIX_ERR_NOT_AVAILABLE => c"NOT_AVAILABLE",
        PMIX_ERR_FATAL => c"FATAL",
        PMIX_ERR_EXISTS_OUTSIDE_SCOPE => c"OUTSIDE-SCOPE",
        PMIX_ERR_LOST_CONNECTION => c"LOST_CONNECTION",
        PMIX_ERR_EMPTY => c"EMPTY",
        PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED => c"PARAM-VALUE-NOT-SUPPORTED",
        PMIX_READY_FOR_DEBUG => c"READY-FOR-DEBUG",
        PMIX_PROCESS_SET_DEFINE => c"PROCESS SET DEFINED",
        PMIX_ERR_DUPLICATE_KEY => c"DUPLICATE KEY",
        PMIX_ERR_PARTIAL_SUCCESS => c"PARTIAL SUCCESS",
        PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES => c"PMIX CONFLICTING CLEANUP DIRECTIVES",
        PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER => c"UNPACK-PAST-END",
        PMIX_ERR_COMM_FAILURE => c"COMM-FAILURE",
        PMIX_ERR_NOT_IMPLEMENTED => c"NOT-IMPLEMENTED",
        PMIX_ERR_NOT_SUPPORTED => c"NOT-SUPPORTED",
        PMIX_ERR_NOT_FOUND => c"NOT-FOUND",
        PMIX_ERR_SERVER_NOT_AVAIL => c"SERVER-NOT-AVAIL",
        PMIX_ERR_INVALID_NAMESPACE => c"INVALID-NAMESPACE",
        PMIX_ERR_INVALID_SIZE => c"INVALID-SIZE",
        PMIX_ERR_INVALID_KEYVALP => c"INVALID-KEYVAL",
        PMIX_ERR_INVALID_NUM_PARSED => c"INVALID-NUM-PARSED",
        PMIX_ERR_INVALID_ARGS => c"INVALID-ARGS",
        PMIX_ERR_INVALID_NUM_ARGS => c"INVALID-NUM-ARGS",
        PMIX_ERR_INVALID_LENGTH => c"INVALID-LENGTH",
        PMIX_ERR_INVALID_VAL_LENGTH => c"INVALID-VAL-LENGTH",
        PMIX_ERR_INVALID_VAL => c"INVALID-VAL",
        PMIX_ERR_INVALID_KEY_LENGTH => c"INVALID-KEY-LENGTH",
        PMIX_ERR_INVALID_KEY => c"INVALID-KEY",
        PMIX_ERR_INVALID_ARG => c"INVALID-ARG",
        PMIX_ERR_NOMEM => c"NO-MEM",
        PMIX_ERR_INIT => c"INIT",
        PMIX_ERR_DATA_VALUE_NOT_FOUND => c"DATA-VALUE-NOT-FOUND",
        PMIX_ERR_OUT_OF_RESOURCE => c"OUT-OF-RESOURCE",
        PMIX_ERR_RESOURCE_BUSY => c"RESOURCE-BUSY",
        PMIX_ERR_BAD_PARAM => c"BAD-PARAM",
        PMIX_ERR_IN_ERRNO => c"ERR-IN-ERRNO",
        PMIX_ERR_UNREACH => c"UNREACHABLE",
        PMIX_ERR_TIMEOUT => c"TIMEOUT",
        PMIX_ERR_NO_PERMISSIONS => c"NO-PERMISSIONS",
        PMIX_ERR_PACK_MISMATCH => c"PACK-MISMATCH",
        PMIX_ERR_PACK_FAILURE => c"PACK-FAILURE",
        PMIX_ERR_UNPACK_FAILURE => c"UNPACK-FAILURE",
        PMIX_ERR_UNPACK_INADEQUATE_SPACE => c"UNPACK-INADEQUATE-SPACE",
        PMIX_ERR_TYPE_MISMATCH => c"TYPE-MISMATCH",
        PMIX_ERR_PROC_ENTRY_NOT_FOUND => c"PROC-ENTRY-NOT-FOUND",
        PMIX_ERR_UNKNOWN_DATA_TYPE => c"UNKNOWN-DATA-TYPE",
        PMIX_ERR_WOULD_BLOCK => c"WOULD-BLOCK",
        PMIX_ERR_READY_FOR_HANDSHAKE => c"READY-FOR-HANDSHAKE",
        PMIX_ERR_HANDSHAKE_FAILED => c"HANDSHAKE-FAILED",
        PMIX_ERR_INVALID_CRED => c"INVALID-CREDENTIAL",
        PMIX_ERR_EXISTS => c"EXISTS",
        PMIX_ERR_SERVER_FAILED_REQUEST => c"SERVER FAILED REQUEST",
        PMIX_ERR_PROC_ABORTING => c"PROC-ABORTING",
        PMIX_ERR_PROC_REQUESTED_ABORT => c"PROC-ABORT-REQUESTED",
        PMIX_ERR_PROC_ABORTED => c"PROC-ABORTED",
        PMIX_ERR_PROC_MIGRATE => c"PROC-MIGRATE",
        PMIX_ERR_PROC_CHECKPOINT => c"PROC-CHECKPOINT-ERROR",
        PMIX_ERR_PROC_RESTART => c"PROC_RESTART",
        PMIX_DEBUGGER_RELEASE => c"DEBUGGER-RELEASE",
        PMIX_ERR_SILENT => c"SILENT_ERROR",
        PMIX_ERROR => c"ERROR",
        PMIX_SUCCESS => c"SUCCESS",
        _ => c"ERROR STRING NOT FOUND",
    }
}

/// `PMIx_Proc_state_string`.
#[doc(alias = "PMIx_Proc_state_string")]
pub fn proc_state_string(state: pmix_proc_state_t) -> &'static CStr {
    match state {
        PMIX_PROC_STATE_UNDEF => c"UNDEFINED",
        PMIX_PROC_STATE_PREPPED => c"PREPPED FOR LAUNCH",
        PMIX_PROC_STATE_LAUNCH_UNDERWAY => c"LAUNCH UNDERWAY",
        PMIX_PROC_STATE_RESTART => c"PROC READY FOR RESTART",
        PMIX_PROC_STATE_TERMINATE => c"PROC MARKED FOR TERMINATION",
        PMIX_PROC_STATE_RUNNING => c"PROC EXECUTING",
        PMIX_PROC_STATE_CONNECTED => c"PROC HAS CONNECTED TO LOCAL PMIX SERVER",
        PMIX_PROC_STATE_UNTERMINATED => c"PROC HAS NOT TERMINATED",
        PMIX_PROC_STATE_TERMINATED => c"PROC HAS TERMINATED",
        PMIX_PROC_STATE_ERROR => c"PROC ERROR",
        PMIX_PROC_STATE_KILLED_BY_CMD => c"PROC KILLED BY CMD",
        PMIX_PROC_STATE_ABORTED => c"PROC ABNORMALLY ABORTED",
        PMIX_PROC_STATE_FAILED_TO_START => c"PROC FAILED TO START",
        PMIX_PROC_STATE_ABORTED_BY_SIG => c"PROC ABORTED BY SIGNAL",
        PMIX_PROC_STATE_TERM_WO_SYNC => c"PROC TERMINATED WITHOUT CALLING PMIx_Finalize",
        PMIX_PROC_STATE_COMM_FAILED => c"PROC LOST COMMUNICATION",
        PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED => c"PROC SENSOR BOUND EXCEEDED",
        PMIX_PROC_STATE_CALLED_ABORT => c"PROC CALLED PMIx_Abort",
        PMIX_PROC_STATE_HEARTBEAT_FAILED => c"PROC FAILED TO REPORT HEARTBEAT",
        PMIX_PROC_STATE_MIGRATING => c"PROC WAITING TO MIGRATE",
        PMIX_PROC_STATE_CANNOT_RESTART => c"PROC CANNOT BE RESTARTED",
        PMIX_PROC_STATE_TERM_NON_ZERO => c"PROC TERMINATED WITH NON-ZERO STATUS",
        PMIX_PROC_STATE_FAILED_TO_LAUNCH => c"PROC FAILED TO LAUNCH",
        _ => c"UNKNOWN STATE",
    }
}

/// `PMIx_Scope_string`.
#[doc(alias = "PMIx_Scope_string")]
pub fn scope_string(scope: pmix_scope_t) -> &'static CStr {
    match scope {
        PMIX_SCOPE_UNDEF => c"UNDEFINED",
        PMIX_LOCAL => c"SHARE ON LOCAL NODE ONLY",
        PMIX_REMOTE => c"SHARE ON REMOTE NODES ONLY",
        PMIX_GLOBAL => c"SHARE ACROSS ALL NODES",
        PMIX_INTERNAL => c"STORE INTERNALLY",
        _ => c"UNKNOWN SCOPE",
    }
}

/// `PMIx_Persistence_string`.
#[doc(alias = "PMIx_Persistence_string")]
pub fn persistence_string(persist: pmix_persistence_t) -> &'static CStr {
    match persist {
        PMIX_PERSIST_INDEF => c"INDEFINITE",
        PMIX_PERSIST_FIRST_READ => c"DELETE ON FIRST ACCESS",
        PMIX_PERSIST_PROC => c"RETAIN UNTIL PUBLISHING PROCESS TERMINATES",
        PMIX_PERSIST_APP => c"RETAIN UNTIL APPLICATION OF PUBLISHING PROCESS TERMINATES",
        PMIX_PERSIST_SESSION => c"RETAIN UNTIL ALLOCATION OF PUBLISHING PROCESS TERMINATES",
        PMIX_PERSIST_INVALID => c"INVALID",
        _ => c"UNKNOWN PERSISTENCE",
    }
}

/// `PMIx_Data_range_string`.
#[doc(alias = "PMIx_Data_range_string")]
pub fn data_range_string(range: pmix_data_range_t) -> &'static CStr {
    match range {
        PMIX_RANGE_UNDEF => c"UNDEFINED",
        PMIX_RANGE_RM => c"INTENDED FOR HOST RESOURCE MANAGER ONLY",
        PMIX_RANGE_LOCAL => c"AVAIL ON LOCAL NODE ONLY",
        PMIX_RANGE_NAMESPACE => c"AVAIL TO PROCESSES IN SAME JOB ONLY",
        PMIX_RANGE_SESSION => c"AVAIL TO PROCESSES IN SAME ALLOCATION ONLY",
        PMIX_RANGE_GLOBAL => c"AVAIL TO ANYONE WITH AUTHORIZATION",
        PMIX_RANGE_CUSTOM => c"AVAIL AS SPECIFIED IN DIRECTIVES",
        PMIX_RANGE_PROC_LOCAL => c"AVAIL ON LOCAL PROC ONLY",
        PMIX_RANGE_INVALID => c"INVALID",
        _ => c"UNKNOWN",
    }
}

/// `PMIx_Alloc_directive_string`. Unknown directives (`PMIX_ALLOC_EXTERNAL` included) read
/// "UNSPECIFIED", as in the reference.
#[doc(alias = "PMIx_Alloc_directive_string")]
pub fn alloc_directive_string(directive: pmix_alloc_directive_t) -> &'static CStr {
    match directive {
        PMIX_ALLOC_NEW => c"NEW",
        PMIX_ALLOC_EXTEND => c"EXTEND",
        PMIX_ALLOC_RELEASE => c"RELEASE",
        PMIX_ALLOC_REAQUIRE => c"REACQUIRE",
        _ => c"UNSPECIFIED",
    }
}

/// `PMIx_Job_state_string`.
#[doc(alias = "PMIx_Job_state_string")]
pub fn job_state_string(state: pmix_job_state_t) -> &'static CStr {
    match state {
        PMIX_JOB_STATE_UNDEF => c"UNDEFINED",
        PMIX_JOB_STATE_AWAITING_ALLOC => c"PREPPED FOR LAUNCH",
        PMIX_JOB_STATE_LAUNCH_UNDERWAY => c"LAUNCHING",
        PMIX_JOB_STATE_RUNNING => c"RUNNING",
        PMIX_JOB_STATE_SUSPENDED => c"SUSPENDED",
        PMIX_JOB_STATE_CONNECTED => c"CONNECTED",
        PMIX_JOB_STATE_UNTERMINATED => c"UNTERMINATED",
        PMIX_JOB_STATE_TERMINATED => c"TERMINATED",
        PMIX_JOB_STATE_TERMINATED_WITH_ERROR => c"TERMINATED WITH ERROR",
        _ => c"UNKNOWN",
    }
}

/// `PMIx_Link_state_string`.
#[doc(alias = "PMIx_Link_state_string")]
pub fn link_state_string(state: pmix_link_state_t) -> &'static CStr {
    match state {
        PMIX_LINK_DOWN => c"INACTIVE",
        PMIX_LINK_UP => c"ACTIVE",
        _ => c"UNKNOWN",
    }
}

/// `PMIx_Device_type_string`: one name per defined value; combinations of flags and other
/// values read "UNKNOWN".
#[doc(alias = "PMIx_Device_type_string")]
pub fn device_type_string(ty: pmix_device_type_t) -> &'static CStr {
    match ty {
        PMIX_DEVTYPE_BLOCK => c"BLOCK",
        PMIX_DEVTYPE_GPU => c"GPU",
        PMIX_DEVTYPE_NETWORK => c"NETWORK",
        PMIX_DEVTYPE_OPENFABRICS => c"OPENFABRICS",
        PMIX_DEVTYPE_DMA => c"DMA",
        PMIX_DEVTYPE_COPROC => c"COPROCESSOR",
        _ => c"UNKNOWN",
    }
}

/// `PMIx_Value_comparison_string`.
#[doc(alias = "PMIx_Value_comparison_string")]
pub fn value_comparison_string(cmp: pmix_value_cmp_t) -> &'static CStr {
    match cmp {
        PMIX_EQUAL => c"EQUAL",
        PMIX_VALUE1_GREATER => c"VALUE1 GREATER",
        PMIX_VALUE2_GREATER => c"VALUE2 GREATER",
        PMIX_VALUE_TYPE_DIFFERENT => c"DIFFERENT TYPES",
        PMIX_VALUE_INCOMPATIBLE_OBJECTS => c"INCOMPATIBLE OBJECTS",
        PMIX_VALUE_COMPARISON_NOT_AVAIL => c"COMPARISON NOT AVAILABLE",
        _ => c"UNKNOWN VALUE",
    }
}

/// The macro names of the data types, indexed by type id.
const DATA_TYPE_NAMES: [&CStr; 70] = [
    c"UNKNOWN",
    c"PMIX_BOOL",
    c"PMIX_BYTE",
    c"PMIX_STRING",
    c"PMIX_SIZE",
    c"PMIX_PID",
    c"PMIX_INT",
    c"PMIX_INT8",
    c"PMIX_INT16",
    c"PMIX_INT32",
    c"PMIX_INT64",
    c"PMIX_UINT",
    c"PMIX_UINT8",
    c"PMIX_UINT16",
    c"PMIX_UINT32",
    c"PMIX_UINT64",
    c"PMIX_FLOAT",
    c"PMIX_DOUBLE",
    c"PMIX_TIMEVAL",
    c"PMIX_TIME",
    c"PMIX_STATUS",
    c"PMIX_VALUE",
    c"PMIX_PROC",
    c"PMIX_APP",
    c"PMIX_INFO",
    c"PMIX_PDATA",
    c"PMIX_BUFFER",
    c"PMIX_BYTE_OBJECT",
    c"PMIX_KVAL",
    c"PMIX_MODEX",
    c"PMIX_PERSIST",
    c"PMIX_POINTER",
    c"PMIX_SCOPE",
    c"PMIX_DATA_RANGE",
    c"PMIX_COMMAND",
    c"PMIX_INFO_DIRECTIVES",
    c"PMIX_DATA_TYPE",
    c"PMIX_PROC_STATE",
    c"PMIX_PROC_INFO",
    c"PMIX_DATA_ARRAY",
    c"PMIX_PROC_RANK",
    c"PMIX_QUERY",
    c"PMIX_COMPRESSED_STRING",
    c"PMIX_ALLOC_DIRECTIVE",
    c"PMIX_INFO_ARRAY",
    c"PMIX_IOF_CHANNEL",
    c"PMIX_ENVAR",
    c"PMIX_COORD",
    c"PMIX_REGATTR",
    c"PMIX_REGEX",
    c"PMIX_JOB_STATE",
    c"PMIX_LINK_STATE",
    c"PMIX_PROC_CPUSET",
    c"PMIX_GEOMETRY",
    c"PMIX_DEVICE_DIST",
    c"PMIX_ENDPOINT",
    c"PMIX_TOPO",
    c"PMIX_DEVTYPE",
    c"PMIX_LOCTYPE",
    c"PMIX_COMPRESSED_BYTE_OBJECT",
    c"PMIX_PROC_NSPACE",
    c"PMIX_PROC_STATS",
    c"PMIX_DISK_STATS",
    c"PMIX_NET_STATS",
    c"PMIX_NODE_STATS",
    c"PMIX_DATA_BUFFER",
    c"PMIX_STOR_MEDIUM",
    c"PMIX_STOR_ACCESS",
    c"PMIX_STOR_PERSIST",
    c"PMIX_STOR_ACCESS_TYPE",
];

/// `PMIx_Data_type_string`: the macro name of a data type, "UNKNOWN" for undefined ids (and
/// for `PMIX_UNDEF`). The reference answers "NOT INITIALIZED" for some types before
/// `PMIx_Init`; we always give the names.
#[doc(alias = "PMIx_Data_type_string")]
pub fn data_type_string(ty: pmix_data_type_t) -> &'static CStr {
    DATA_TYPE_NAMES
        .get(usize::from(ty))
        .copied()
        .unwrap_or(c"UNKNOWN")
}

/// The 16 combinations of the four forwarding channels, indexed by the channel mask.
const IOF_CHANNEL_NAMES: [&CStr; 16] = [
    c"NONE",
    c"STDIN ",
    c"STDOUT ",
    c"STDIN STDOUT ",
    c"STDERR ",
    c"STDIN STDERR ",
    c"STDOUT STDERR ",
    c"STDIN STDOUT STDERR ",
    c"STDDIAG ",
    c"STDIN STDDIAG ",
    c"STDOUT STDDIAG ",
    c"STDIN STDOUT STDDIAG ",
    c"STDERR STDDIAG ",
    c"STDIN STDERR STDDIAG ",
    c"STDOUT STDERR STDDIAG ",
    c"STDIN STDOUT STDERR STDDIAG ",
];

/// `PMIx_IOF_channel_string`: the channels of a mask, each followed by a space; "NONE" when
/// the mask names none of the four. Other bits are ignored.
#[doc(alias = "PMIx_IOF_channel_string")]
pub fn iof_channel_string(channel: pmix_iof_channel_t) -> &'static CStr {
    IOF_CHANNEL_NAMES[usize::from(channel & 0xf)]
}

/// The eight renderings of the REQD, ARRAY_END and REQD_PROCESSED bits, indexed by them.
const DIRECTIVE_NAMES: [&CStr; 8] = [
    c"OPTIONAL",
    c"REQUIRED",
    c"OPTIONAL:END",
    c"REQUIRED:END",
    c"OPTIONAL:PROCESSED",
    c"REQUIRED:PROCESSED",
    c"OPTIONAL:PROCESSED:END",
    c"REQUIRED:PROCESSED:END",
];

/// `PMIx_Info_directives_string` (the C function hands out a copy): "QUALIFIER" when that
/// bit is set, otherwise REQUIRED or OPTIONAL followed by ":PROCESSED" and ":END" for those
/// bits. `PMIX_INFO_PERSISTENT` and the other bits do not show.
#[doc(alias = "PMIx_Info_directives_string")]
pub fn info_directives_string(directives: pmix_info_directives_t) -> &'static CStr {
    if directives & PMIX_INFO_QUALIFIER != 0 {
        return c"QUALIFIER";
    }
    let mut i = 0;
    if directives & PMIX_INFO_REQD != 0 {
        i |= 1;
    }
    if directives & PMIX_INFO_ARRAY_END != 0 {
        i |= 2;
    }
    if directives & PMIX_INFO_REQD_PROCESSED != 0 {
        i |= 4;
    }
    DIRECTIVE_NAMES[i]
}

/// The name of a server command (`PMIX_COMMAND` data), as `PMIx_Data_print` shows it.
pub fn command_string(cmd: u8) -> &'static CStr {
    match cmd {
        0 => c"REQUEST INIT INFO",
        1 => c"ABORT",
        2 => c"COMMIT",
        3 => c"FENCE",
        4 => c"GET",
        5 => c"FINALIZE",
        6 => c"PUBLISH",
        7 => c"LOOKUP",
        8 => c"UNPUBLISH",
        9 => c"SPAWN",
        10 => c"CONNECT",
        11 => c"DISCONNECT",
        12 => c"NOTIFY",
        13 => c"REGISTER EVENT HANDLER",
        14 => c"DEREGISTER EVENT HANDLER",
        15 => c"QUERY",
        16 => c"LOG",
        17 => c"ALLOCATE",
        18 => c"JOB CONTROL",
        19 => c"MONITOR",
        22 => c"IOF PULL",
        23 => c"IOF PUSH",
        24 => c"GROUP CONSTRUCT",
        25 => c"GROUP JOIN",
        26 => c"GROUP INVITE",
        27 => c"GROUP LEAVE",
        28 => c"GROUP DESTRUCT",
        29 => c"IOF DEREG",
        30 => c"FABRIC REGISTER",
        31 => c"FABRIC UPDATE",
        32 => c"COMPUTE DEVICE DIST",
        _ => c"UNKNOWN",
    }
}

/// Joins the names of the set flags with ':'.
fn flag_names(v: u64, names: &[(u64, &str)]) -> String {
    let set: Vec<&str> = names
        .iter()
        .filter(|(bit, _)| v & bit != 0)
        .map(|(_, n)| *n)
        .collect();
    set.join(":")
}

/// A locality as the printers show it: the shared resources joined with ':' ("UNKNOWN" for
/// none, "NONLOCAL" for exactly that flag). The package flag reads "CORE", as in the
/// reference.
pub fn locality_string(loc: pmix_locality_t) -> String {
    match loc {
        PMIX_LOCALITY_UNKNOWN => "UNKNOWN".into(),
        PMIX_LOCALITY_NONLOCAL => "NONLOCAL".into(),
        _ => flag_names(
            loc.into(),
            &[
                (PMIX_LOCALITY_SHARE_HWTHREAD.into(), "HWTHREAD"),
                (PMIX_LOCALITY_SHARE_CORE.into(), "CORE"),
                (PMIX_LOCALITY_SHARE_L1CACHE.into(), "L1"),
                (PMIX_LOCALITY_SHARE_L2CACHE.into(), "L2"),
                (PMIX_LOCALITY_SHARE_L3CACHE.into(), "L3"),
                (PMIX_LOCALITY_SHARE_PACKAGE.into(), "CORE"),
                (PMIX_LOCALITY_SHARE_NUMA.into(), "NUMA"),
                (PMIX_LOCALITY_SHARE_NODE.into(), "NODE"),
            ],
        ),
    }
}

/// Storage media: "UNKNOWN" when that flag is set, otherwise the media joined with ':'.
pub fn storage_medium_string(m: pmix_storage_medium_t) -> String {
    if m & PMIX_STORAGE_MEDIUM_UNKNOWN != 0 {
        return "UNKNOWN".into();
    }
    flag_names(
        m,
        &[
            (PMIX_STORAGE_MEDIUM_TAPE, "TAPE"),
            (PMIX_STORAGE_MEDIUM_HDD, "HDD"),
            (PMIX_STORAGE_MEDIUM_SSD, "SSD"),
            (PMIX_STORAGE_MEDIUM_NVME, "NVME"),
            (PMIX_STORAGE_MEDIUM_PMEM, "PMEM"),
            (PMIX_STORAGE_MEDIUM_RAM, "RAM"),
        ],
    )
}

/// Storage accessibility flags joined with ':'.
pub fn storage_accessibility_string(a: pmix_storage_accessibility_t) -> String {
    flag_names(
        a,
        &[
            (PMIX_STORAGE_ACCESSIBILITY_NODE, "NODE"),
            (PMIX_STORAGE_ACCESSIBILITY_SESSION, "SESSION"),
            (PMIX_STORAGE_ACCESSIBILITY_JOB, "JOB"),
            (PMIX_STORAGE_ACCESSIBILITY_RACK, "RACK"),
            (PMIX_STORAGE_ACCESSIBILITY_CLUSTER, "CLUSTER"),
            (PMIX_STORAGE_ACCESSIBILITY_REMOTE, "REMOTE"),
        ],
    )
}

/// Storage persistence flags joined with ':'.
pub fn storage_persistence_string(p: pmix_storage_persistence_t) -> String {
    flag_names(
        p,
        &[
            (PMIX_STORAGE_PERSISTENCE_TEMPORARY, "TEMPORARY"),
            (PMIX_STORAGE_PERSISTENCE_NODE, "NODE"),
            (PMIX_STORAGE_PERSISTENCE_SESSION, "SESSION"),
            (PMIX_STORAGE_PERSISTENCE_JOB, "JOB"),
            (PMIX_STORAGE_PERSISTENCE_SCRATCH, "SCRATCH"),
            (PMIX_STORAGE_PERSISTENCE_PROJECT, "PROJECT"),
            (PMIX_STORAGE_PERSISTENCE_ARCHIVE, "ARCHIVE"),
        ],
    )
}

/// Storage access types joined with ':'.
pub fn storage_access_type_string(t: pmix_storage_access_type_t) -> String {
    flag_names(
        t.into(),
        &[
            (PMIX_STORAGE_ACCESS_RD.into(), "READ"),
            (PMIX_STORAGE_ACCESS_WR.into(), "WRITE"),
        ],
    )
}

fn coord_view_string(view: pmix_coord_view_t) -> &'static str {
    match view {
        PMIX_COORD_VIEW_UNDEF => "UNDEF",
        PMIX_COORD_LOGICAL_VIEW => "LOGICAL",
        PMIX_COORD_PHYSICAL_VIEW => "PHYSICAL",
        _ => "UNRECOGNIZED",
    }
}

/// Whether a cpuset or topology source names hwloc, as the reference tests it: the first five
/// bytes, in any case ("HWLOC", "hwloc-2.9.0").
fn names_hwloc(source: &PStr) -> bool {
    let s = source.as_bytes();
    s.len() >= 5 && s[..5].eq_ignore_ascii_case(b"hwloc")
}

/// A rank as process names and rank values print it.
fn rank_string(rank: pmix_rank_t) -> String {
    match rank {
        PMIX_RANK_UNDEF => "PMIX_RANK_UNDEF".into(),
        PMIX_RANK_WILDCARD => "PMIX_RANK_WILDCARD".into(),
        PMIX_RANK_LOCAL_NODE => "PMIX_RANK_LOCAL_NODE".into(),
        r => r.to_string(),
    }
}

/// A rank as the process statistics print it.
fn short_rank_string(rank: pmix_rank_t) -> String {
    match rank {
        PMIX_RANK_UNDEF => "UNDEF".into(),
        PMIX_RANK_WILDCARD => "WILDCARD".into(),
        r => r.to_string(),
    }
}

/// The name under which an info key prints: the attribute's macro name when the key is a
/// known attribute, the key itself otherwise.
fn key_name(key: &[u8]) -> &[u8] {
    match attrs::by_key(key) {
        Some(a) => a.name.to_bytes(),
        None => key,
    }
}

// ---------------------------------------------------------------------------------------
// Numbers the way C's printf writes them.

/// `%W.Pf` of a double: Rust's exact decimal conversion rounds like glibc's (to nearest,
/// ties to even); only the spellings of NaN and infinity differ.
fn c_float(x: f64, width: usize, prec: usize) -> String {
    if x.is_nan() {
        let s = if x.is_sign_negative() { "-nan" } else { "nan" };
        format!("{s:>width$}")
    } else if x.is_infinite() {
        let s = if x < 0.0 { "-inf" } else { "inf" };
        format!("{s:>width$}")
    } else {
        format!("{x:>width$.prec$}")
    }
}

/// `%ld.%06ld` of a time value (a negative microsecond count prints as C does, "5.-00003").
fn c_timeval(t: &Timeval) -> String {
    format!("{}.{:06}", t.sec, t.usec)
}

/// `%p`.
fn c_pointer(p: usize) -> String {
    if p == 0 {
        "(nil)".into()
    } else {
        format!("{p:#x}")
    }
}

/// Broken-down time, as `localtime` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tm {
    /// The full year (1970, not 70).
    pub year: i64,
    /// 0 = January.
    pub mon: u32,
    pub mday: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
    /// 0 = Sunday.
    pub wday: u32,
}

impl Tm {
    /// The UTC calendar time of `secs` seconds after the epoch; `None` where C's `struct tm`
    /// cannot hold the year.
    pub fn utc(secs: i64) -> Option<Tm> {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        // Civil date from a day count (days since 1970-01-01), in 400-year eras.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let mday = doy - (153 * mp + 2) / 5 + 1;
        let mon = if mp < 10 { mp + 2 } else { mp - 10 };
        let year = yoe + era * 400 + i64::from(mon <= 1);
        // tm_year is an int holding year - 1900.
        i32::try_from(year - 1900).ok()?;
        Some(Tm {
            year,
            mon: mon as u32,
            mday: mday as u32,
            hour: (rem / 3600) as u32,
            min: (rem / 60 % 60) as u32,
            sec: (rem % 60) as u32,
            wday: (days + 4).rem_euclid(7) as u32,
        })
    }

    /// `asctime` without its newline ("Thu Jan  1 00:00:00 1970"); `None` where C's
    /// `asctime` fails (a year beyond `INT_MAX`).
    pub fn asctime(&self) -> Option<String> {
        const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        i32::try_from(self.year).ok()?;
        Some(format!(
            "{} {}{:3} {:02}:{:02}:{:02} {}",
            DAYS.get(self.wday as usize).unwrap_or(&"???"),
            MONTHS.get(self.mon as usize).unwrap_or(&"???"),
            self.mday,
            self.hour,
            self.min,
            self.sec,
            self.year
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Assembling renderings.

/// Something that can be appended to a rendering.
trait Put {
    fn put(&self, out: &mut Vec<u8>);
}
impl Put for str {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}
impl Put for [u8] {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
}
impl Put for String {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}
impl Put for Vec<u8> {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
}
impl Put for PStr {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}
impl Put for CStr {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.to_bytes());
    }
}
impl<T: Put + ?Sized> Put for &T {
    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }
}

/// Concatenates the pieces into a new rendering.
macro_rules! cat {
    ($($piece:expr),* $(,)?) => {{
        let mut out: Vec<u8> = Vec::new();
        $( Put::put(&$piece, &mut out); )*
        out
    }};
}

/// An optional string, with the given spelling for NULL.
fn or<'a>(s: &'a Option<PStr>, null: &'a str) -> &'a [u8] {
    match s {
        Some(s) => s.as_bytes(),
        None => null.as_bytes(),
    }
}

/// The prefix a printer uses: the caller's, or a single space for NULL.
fn pfx(prefix: Option<&[u8]>) -> &[u8] {
    prefix.unwrap_or(b" ")
}

/// The outcome of one rendering, as `PMIx_Data_print` reports it. Some renderings fail
/// after producing text (a data array without elements), some fail without text, and a few
/// succeed without text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Printed {
    pub text: Option<Vec<u8>>,
    pub status: pmix_status_t,
}

impl Printed {
    fn ok(text: Vec<u8>) -> Printed {
        Printed {
            text: Some(text),
            status: PMIX_SUCCESS,
        }
    }
    fn fail(status: pmix_status_t) -> Printed {
        Printed { text: None, status }
    }
    /// The text, if the rendering succeeded.
    pub fn into_text(self) -> Option<Vec<u8>> {
        if self.status == PMIX_SUCCESS {
            self.text
        } else {
            None
        }
    }
}

/// A `pmix_value_t` as the printer receives it. Most hold a `Value`; a few cannot be read
/// into one but print all the same.
#[derive(Debug, Clone, Copy)]
pub enum ValueView<'a> {
    Value(&'a Value),
    /// A value of a type that prints as "UNPRINTABLE" and has no `Value` form (an undefined
    /// type id, `PMIX_BUFFER`, ...); the datum is not read.
    Opaque(pmix_data_type_t),
    /// A `PMIX_PROC` value whose `proc` pointer is NULL.
    NullProc,
    /// A `PMIX_PROC_NSPACE` value whose `nspace` pointer is NULL.
    NullNspace,
    /// A value that cannot be read (a NULL pointer where a structure is required, a key
    /// without terminator): it prints as a value whose rendering failed.
    Unreadable,
}

/// Types whose data a value or an array element prints in full; every other type prints as
/// "UNPRINTABLE" there (but may have its own `PMIx_Data_print` rendering).
fn printable(ty: pmix_data_type_t) -> bool {
    matches!(
        ty,
        PMIX_BOOL
            | PMIX_BYTE
            | PMIX_STRING
            | PMIX_SIZE
            | PMIX_PID
            | PMIX_INT
            | PMIX_INT8
            | PMIX_INT16
            | PMIX_INT32
            | PMIX_INT64
            | PMIX_UINT
            | PMIX_UINT8
            | PMIX_UINT16
            | PMIX_UINT32
            | PMIX_UINT64
            | PMIX_FLOAT
            | PMIX_DOUBLE
            | PMIX_TIMEVAL
            | PMIX_TIME
            | PMIX_STATUS
            | PMIX_PROC
            | PMIX_BYTE_OBJECT
            | PMIX_PERSIST
            | PMIX_SCOPE
            | PMIX_DATA_RANGE
            | PMIX_PROC_STATE
            | PMIX_PROC_INFO
            | PMIX_DATA_ARRAY
            | PMIX_PROC_RANK
            | PMIX_ALLOC_DIRECTIVE
            | PMIX_ENVAR
            | PMIX_COORD
            | PMIX_REGATTR
            | PMIX_JOB_STATE
            | PMIX_LINK_STATE
            | PMIX_PROC_CPUSET
            | PMIX_GEOMETRY
            | PMIX_DEVICE_DIST
            | PMIX_ENDPOINT
            | PMIX_TOPO
            | PMIX_DEVTYPE
            | PMIX_LOCTYPE
            | PMIX_PROC_NSPACE
            | PMIX_STOR_MEDIUM
            | PMIX_STOR_ACCESS
            | PMIX_STOR_PERSIST
            | PMIX_STOR_ACCESS_TYPE
    )
}

/// Whether a `pmix_value_t` of type `ty` prints as "UNPRINTABLE" (so its datum need not be
/// read).
pub fn opaque_in_value(ty: pmix_data_type_t) -> bool {
    !printable(ty) && ty != PMIX_UNDEF
}

/// Whether the elements of a data array of type `ty` print as "UNPRINTABLE" (so they need
/// not be read).
pub fn opaque_in_array(ty: pmix_data_type_t) -> bool {
    !printable(ty) && ty != PMIX_INFO
}

/// What `PMIx_Data_print` does for a type without looking at the datum, for the types whose
/// datum it never reads: undefined types fail, the internal `PMIX_KVAL` and `PMIX_BUFFER`
/// succeed without output, as in the reference.
pub fn type_only(ty: pmix_data_type_t) -> Option<Printed> {
    match ty {
        PMIX_KVAL | PMIX_BUFFER => Some(Printed {
            text: None,
            status: PMIX_SUCCESS,
        }),
        _ if !Value::is_known_type(ty) || ty == PMIX_UNDEF => {
            Some(Printed::fail(PMIX_ERR_UNKNOWN_DATA_TYPE))
        }
        _ => None,
    }
}

/// The line of a datum that is not printed. It has no prefix of its own, only one space.
fn unprintable(ty: pmix_data_type_t) -> Vec<u8> {
    cat!(
        " Data type: ",
        data_type_string(ty),
        format!("({ty})\tValue: UNPRINTABLE")
    )
}

/// How the process's local time is found: `localtime` lives in C, outside this crate.
pub type LocalTime = fn(i64) -> Option<Tm>;

/// The renderer. It carries what printing needs from the process: the local time zone, for
/// `PMIX_TIME` data.
#[derive(Clone, Copy)]
pub struct Printer {
    localtime: LocalTime,
}

impl core::fmt::Debug for Printer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Printer")
    }
}

impl Default for Printer {
    /// A printer that shows times in UTC.
    fn default() -> Printer {
        Printer::new(Tm::utc)
    }
}

impl Printer {
    /// A printer that converts times with `localtime`.
    pub fn new(localtime: LocalTime) -> Printer {
        Printer { localtime }
    }

    /// `PMIx_Data_print` of a datum of type `ty` held in `v` (for `PMIX_VALUE`, `v` is what the
    /// value holds). `prefix` is NULL in C for `None`.
    #[doc(alias = "PMIx_Data_print")]
    pub fn data(&self, prefix: Option<&[u8]>, ty: pmix_data_type_t, v: &Value) -> Printed {
        if let Some(p) = type_only(ty) {
            return p;
        }
        let p = pfx(prefix);
        let head = |name: &str| cat!(p, "Data type: ", name);
        match (ty, v) {
            (PMIX_VALUE, _) => self.value(Some(p), ValueView::Value(v)),
            (PMIX_INFO, Value::Info(i)) => Printed::ok(self.info(
                Some(p),
                i.key.as_bytes(),
                i.flags,
                ValueView::Value(&i.value),
            )),
            (PMIX_PDATA, Value::Pdata(d)) => Printed::ok(self.pdata(
                Some(p),
                &d.proc,
                d.key.as_bytes(),
                ValueView::Value(&d.value),
            )),
            (PMIX_APP, Value::App(a)) => Printed::ok(self.app(p, a)),
            (PMIX_QUERY, Value::Query(q)) => Printed::ok(self.query(p, q)),
            (PMIX_POINTER, Value::Pointer(a)) => {
                Printed::ok(cat!(head("PMIX_POINTER"), "\tAddress: ", c_pointer(*a)))
            }
            (PMIX_COMMAND, Value::Command(c)) => {
                Printed::ok(cat!(head("PMIX_COMMAND"), "\tValue: ", command_string(*c)))
            }
            (PMIX_INFO_DIRECTIVES, Value::InfoDirectives(d)) => Printed::ok(cat!(
                head("PMIX_INFO_DIRECTIVES"),
                "\tValue: ",
                info_directives_string(*d)
            )),
            (PMIX_DATA_TYPE, Value::DataType(t)) => Printed::ok(cat!(
                head("PMIX_DATA_TYPE"),
                "\tValue: ",
                data_type_string(*t)
            )),
            (PMIX_IOF_CHANNEL, Value::IofChannel(c)) => Printed::ok(cat!(
                head("PMIX_IOF_CHANNEL"),
                "\tValue: ",
                iof_channel_string(*c)
            )),
            // A compressed string prints as a plain byte object.
            (PMIX_COMPRESSED_STRING, Value::CompressedString(b)) => Printed::ok(cat!(
                head("PMIX_BYTE_OBJECT"),
                format!("\tSize: {}", b.len())
            )),
            (PMIX_COMPRESSED_BYTE_OBJECT, Value::CompressedByteObject(b)) => Printed::ok(cat!(
                head("PMIX_COMPRESSED_BYTE_OBJECT"),
                format!("\tSize: {}", b.len())
            )),
            (PMIX_REGEX, Value::Regex(b)) => {
                let s = b.split(|&c| c == 0).next().unwrap_or(&[]);
                Printed::ok(cat!(head("PMIX_REGEX"), "\tName: ", s))
            }
            (PMIX_PROC_STATS, Value::ProcStats(s)) => Printed::ok(proc_stats(p, s)),
            (PMIX_DISK_STATS, Value::DiskStats(s)) => Printed::ok(disk_stats(p, s)),
            (PMIX_NET_STATS, Value::NetStats(s)) => Printed::ok(net_stats(p, s)),
            (PMIX_NODE_STATS, Value::NodeStats(s)) => Printed::ok(self.node_stats(p, s)),
            (PMIX_DATA_BUFFER, Value::DataBuffer(b)) => Printed::ok(cat!(
                p,
                format!("PMIX_DATA_BUFFER NumBytesUsed: {}", b.len())
            )),
            _ => self.typed(p, v),
        }
    }

    /// A value: "PMIX_VALUE: " and its datum. When the datum cannot be printed the whole
    /// rendering fails with `PMIX_ERR_OUT_OF_RESOURCE` and no text, as in the reference.
    #[doc(alias = "PMIx_Value_string")]
    pub fn value(&self, prefix: Option<&[u8]>, v: ValueView<'_>) -> Printed {
        let p = pfx(prefix);
        let body = match v {
            ValueView::Value(Value::Undef) => Printed::ok(b" Data type: PMIX_UNDEF".to_vec()),
            ValueView::Value(v) if opaque_in_value(v.data_type()) => {
                Printed::ok(unprintable(v.data_type()))
            }
            ValueView::Value(v) => self.typed(b" ", v),
            ValueView::Opaque(ty) => Printed::ok(unprintable(ty)),
            // The reference forgets the argument of its format here.
            ValueView::NullProc => Printed::ok(b"%sPROC: NULL".to_vec()),
            ValueView::NullNspace => {
                Printed::ok(b" Data type: PMIX_PROC_NSPACE\tValue: (null)".to_vec())
            }
            ValueView::Unreadable => Printed::fail(PMIX_ERR_BAD_PARAM),
        };
        match body.into_text() {
            Some(t) => Printed::ok(cat!(p, "PMIX_VALUE: ", t)),
            None => Printed::fail(PMIX_ERR_OUT_OF_RESOURCE),
        }
    }

    /// An info: its key (by attribute name when known), directives and value, on three lines.
    /// A value that cannot be printed shows as "(null)".
    #[doc(alias = "PMIx_Info_string")]
    pub fn info(
        &self,
        prefix: Option<&[u8]>,
        key: &[u8],
        flags: pmix_info_directives_t,
        v: ValueView<'_>,
    ) -> Vec<u8> {
        let p = pfx(prefix);
        let value = self
            .value(Some(p), v)
            .into_text()
            .unwrap_or_else(|| b"(null)".to_vec());
        cat!(
            p,
            "KEY: ",
            key_name(key),
            "\n",
            p,
            "\t",
            p,
            "Data type: PMIX_INFO_DIRECTIVES\tValue: ",
            info_directives_string(flags),
            "\n",
            p,
            "\t",
            value
        )
    }

    /// Published data: owner, key and value on one line. A value that cannot be printed shows
    /// as "(null)", as in infos (the reference prints uninitialized memory or crashes there).
    pub fn pdata(
        &self,
        prefix: Option<&[u8]>,
        proc: &Proc,
        key: &[u8],
        v: ValueView<'_>,
    ) -> Vec<u8> {
        let p = pfx(prefix);
        let value = self
            .value(Some(p), v)
            .into_text()
            .unwrap_or_else(|| b"(null)".to_vec());
        cat!(
            p,
            "  ",
            proc_line(p, proc),
            "  KEY: ",
            key_name(key),
            " ",
            value
        )
    }

    /// A query: its keys and its qualifiers (as infos, one tab further in).
    fn query(&self, p: &[u8], q: &Query) -> Vec<u8> {
        let mut out = cat!(p, "Data type: PMIX_QUERY\tValue:");
        for k in &q.keys {
            out.extend(cat!("\n", p, "\tKey: ", k));
        }
        let inner = cat!(p, "\t");
        for i in &q.qualifiers {
            out.push(b'\n');
            out.extend(self.info(
                Some(&inner),
                i.key.as_bytes(),
                i.flags,
                ValueView::Value(&i.value),
            ));
        }
        out
    }

    /// An application. The reference prints nothing for one (and reports success); this
    /// layout follows its rendering of queries and process descriptions.
    fn app(&self, p: &[u8], a: &App) -> Vec<u8> {
        let mut out = cat!(
            p,
            "Data type: PMIX_APP\tValue:\n",
            p,
            "\tCmd: ",
            or(&a.cmd, "NULL")
        );
        for s in &a.argv {
            out.extend(cat!("\n", p, "\tArgv: ", s));
        }
        for s in &a.env {
            out.extend(cat!("\n", p, "\tEnv: ", s));
        }
        out.extend(cat!(
            "\n",
            p,
            "\tCwd: ",
            or(&a.cwd, "NULL"),
            "\n",
            p,
            format!("\tMaxprocs: {}", a.maxprocs)
        ));
        let inner = cat!(p, "\t");
        for i in &a.info {
            out.push(b'\n');
            out.extend(self.info(
                Some(&inner),
                i.key.as_bytes(),
                i.flags,
                ValueView::Value(&i.value),
            ));
        }
        out
    }

    /// A data array: a header line, then one line per element. An array without elements
    /// prints "NULL" and fails with `PMIX_ERR_BAD_PARAM`; otherwise the status is that of the
    /// last element (elements that fail without text are left out).
    fn darray(&self, p: &[u8], d: &DataArray) -> Printed {
        let mut out = cat!(
            p,
            "Data type: PMIX_DATA_ARRAY\tType: ",
            data_type_string(d.ty),
            format!("\tSize: {}", d.items.len())
        );
        if d.items.is_empty() {
            out.extend(cat!("\n", p, "NULL"));
            return Printed {
                text: Some(out),
                status: PMIX_ERR_BAD_PARAM,
            };
        }
        let mut status = PMIX_SUCCESS;
        for item in &d.items {
            let r = self.element(p, d.ty, item);
            if let Some(t) = r.text {
                out.extend(cat!("\n", p, t));
            }
            status = r.status;
        }
        Printed {
            text: Some(out),
            status,
        }
    }

    /// One element of a data array of type `ty`.
    fn element(&self, p: &[u8], ty: pmix_data_type_t, v: &Value) -> Printed {
        match v {
            Value::Info(i) if ty == PMIX_INFO => Printed::ok(self.info(
                Some(p),
                i.key.as_bytes(),
                i.flags,
                ValueView::Value(&i.value),
            )),
            _ if opaque_in_array(ty) => Printed::ok(unprintable(ty)),
            _ => self.typed(p, v),
        }
    }

    /// The rendering of a datum by its type, shared by values, array elements and
    /// `PMIx_Data_print`.
    fn typed(&self, p: &[u8], v: &Value) -> Printed {
        let line = |name: &str, value: &dyn Put| {
            let mut out = cat!(p, "Data type: ", name, "\tValue: ");
            value.put(&mut out);
            Printed::ok(out)
        };
        match v {
            Value::Undef => Printed::ok(cat!(p, "Data type: PMIX_UNDEF")),
            Value::Bool(b) => line("PMIX_BOOL", &if *b { "TRUE" } else { "FALSE" }),
            Value::Byte(x) => line("PMIX_BYTE", &format!("{x:x}")),
            Value::String(s) => line("PMIX_STRING", &or(s, "NULL pointer")),
            Value::Size(x) => line("PMIX_SIZE", &x.to_string()),
            // A pid prints as an unsigned long, sign-extended.
            Value::Pid(x) => line("PMIX_PID", &(i64::from(*x) as u64).to_string()),
            Value::Int(x) => line("PMIX_INT", &x.to_string()),
            Value::Int8(x) => line("PMIX_INT8", &x.to_string()),
            Value::Int16(x) => line("PMIX_INT16", &x.to_string()),
            Value::Int32(x) => line("PMIX_INT32", &x.to_string()),
            Value::Int64(x) => line("PMIX_INT64", &x.to_string()),
            Value::Uint(x) => line("PMIX_UINT", &x.to_string()),
            Value::Uint8(x) => line("PMIX_UINT8", &x.to_string()),
            Value::Uint16(x) => line("PMIX_UINT16", &x.to_string()),
            Value::Uint32(x) => line("PMIX_UINT32", &x.to_string()),
            Value::Uint64(x) => line("PMIX_UINT64", &x.to_string()),
            Value::Float(x) => line("PMIX_FLOAT", &c_float(f64::from(*x), 0, 6)),
            Value::Double(x) => line("PMIX_DOUBLE", &c_float(*x, 0, 6)),
            Value::Timeval(t) => line("PMIX_TIMEVAL", &c_timeval(t)),
            Value::Time(t) => line("PMIX_TIME", &self.ctime(*t)),
            Value::Status(s) => line("PMIX_STATUS", &error_string(*s)),
            Value::Proc(pr) => Printed::ok(proc_line(p, pr)),
            Value::ByteObject(b) => Printed::ok(cat!(
                p,
                format!("Data type: PMIX_BYTE_OBJECT\tSize: {}", b.len())
            )),
            Value::Persist(x) => line("PMIX_PERSIST", &x.to_string()),
            Value::Scope(x) => line("PMIX_SCOPE", &scope_string(*x)),
            // The reference's PMIx_Data_print shows the address of the datum here; we show the
            // range, as values and arrays do.
            Value::DataRange(x) => line("PMIX_DATA_RANGE", &data_range_string(*x)),
            Value::ProcState(x) => line("PMIX_PROC_STATE", &proc_state_string(*x)),
            Value::ProcInfo(i) => Printed::ok(cat!(
                p,
                "Data type: PMIX_PROC_INFO\tValue:\n",
                p,
                "\tPROC: ",
                &i.proc.nspace,
                ":",
                rank_string(i.proc.rank),
                "\n",
                p,
                "\tHostname: ",
                or(&i.hostname, "(null)"),
                "\tExecutable: ",
                or(&i.executable_name, "(null)"),
                "\n",
                p,
                // The pid prints sign-extended to an unsigned long, as PMIX_PID data do.
                format!(
                    "\tPid: {}\tExit code: {}\tState: ",
                    i64::from(i.pid) as u64,
                    i.exit_code
                ),
                proc_state_string(i.state)
            )),
            Value::DataArray(d) => self.darray(p, d),
            Value::ProcRank(r) => line("PMIX_PROC_RANK", &rank_string(*r)),
            Value::AllocDirective(x) => line("PMIX_ALLOC_DIRECTIVE", &alloc_directive_string(*x)),
            Value::Envar(e) => {
                // A NUL separator shows as a space.
                let sep = if e.separator == 0 { b' ' } else { e.separator };
                Printed::ok(cat!(
                    p,
                    "Data type: PMIX_ENVAR\tName: ",
                    or(&e.envar, "NULL"),
                    "\tValue: ",
                    or(&e.value, "NULL"),
                    "\tSeparator: ",
                    [sep].as_slice()
                ))
            }
            Value::Coord(c) => Printed::ok(coord(p, c)),
            Value::Regattr(r) => {
                let string: &[u8] = if r.string.is_empty() {
                    b"NULL"
                } else {
                    r.string.as_bytes()
                };
                Printed::ok(cat!(
                    p,
                    "Data type: PMIX_REGATTR\tName: ",
                    or(&r.name, "NULL"),
                    "\tString: ",
                    string
                ))
            }
            Value::JobState(x) => line("PMIX_JOB_STATE", &job_state_string(*x)),
            Value::LinkState(x) => line("PMIX_LINK_STATE", &link_state_string(*x)),
            Value::ProcCpuset(c) => match (&c.source, &c.bitmap) {
                // The reference fails for every non-empty set; we print the set.
                (Some(src), Some(bits)) if names_hwloc(src) => line("PMIX_CPUSET", bits),
                _ => Printed::fail(PMIX_ERR_NOT_SUPPORTED),
            },
            Value::Geometry(g) => {
                let mut out = cat!(
                    p,
                    format!(
                        "Data type: PMIX_GEOMETRY\tValue: Fabric: {} UUID: ",
                        g.fabric
                    ),
                    or(&g.uuid, "NULL"),
                    " OSName: ",
                    or(&g.osname, "NULL")
                );
                for c in &g.coordinates {
                    out.extend(cat!("\n", coord(p, c)));
                }
                Printed::ok(out)
            }
            Value::DeviceDist(d) => Printed::ok(cat!(
                p,
                "Data type: PMIX_DEVICE_DIST\tValue: UUID: ",
                or(&d.uuid, "NULL"),
                " OSName: ",
                or(&d.osname, "NULL"),
                " Type: ",
                device_type_string(d.ty),
                format!(" Min: {} Max: {}", d.mindist, d.maxdist)
            )),
            Value::Endpoint(e) => Printed::ok(cat!(
                p,
                "Data type: PMIX_ENDPOINT\tValue: ",
                or(&e.uuid, "NULL"),
                "(",
                or(&e.osname, "NULL"),
                format!(") #bytes: {}", e.endpt.len())
            )),
            Value::Topo(t) => match (&t.source, &t.data) {
                (Some(src), TopologyData::Foreign(f)) if names_hwloc(src) => match f.describe() {
                    Some(d) => line("PMIX_TOPO", &d),
                    None => Printed::fail(PMIX_ERR_NOT_SUPPORTED),
                },
                _ => Printed::fail(PMIX_ERR_NOT_SUPPORTED),
            },
            // The reference prints an address here; we print the device type.
            Value::DevType(x) => line("PMIX_DEVICE_TYPE", &device_type_string(*x)),
            Value::LocType(x) => line("PMIX_LOCALITY", &locality_string(*x)),
            Value::ProcNspace(ns) => line("PMIX_PROC_NSPACE", ns),
            Value::StorMedium(x) => line("PMIX_STOR_MEDIUM", &storage_medium_string(*x)),
            Value::StorAccess(x) => line("PMIX_STOR_ACCESS", &storage_accessibility_string(*x)),
            Value::StorPersist(x) => line("PMIX_STOR_PERSIST", &storage_persistence_string(*x)),
            Value::StorAccessType(x) => {
                line("PMIX_STOR_ACCESS_TYPE", &storage_access_type_string(*x))
            }
            Value::Info(i) => Printed::ok(self.info(
                Some(p),
                i.key.as_bytes(),
                i.flags,
                ValueView::Value(&i.value),
            )),
            // Types printed only by PMIx_Data_print (handled there) or never.
            other => Printed::ok(unprintable(other.data_type())),
        }
    }

    /// `ctime` without its newline; the number of seconds where C's `ctime` fails (the
    /// reference crashes there).
    fn ctime(&self, t: i64) -> String {
        (self.localtime)(t)
            .and_then(|tm| tm.asctime())
            .unwrap_or_else(|| t.to_string())
    }

    fn node_stats(&self, p: &[u8], s: &NodeStats) -> Vec<u8> {
        let f = |x: f32| c_float(f64::from(x), 5, 2);
        cat!(
            p,
            "PMIX_NODE_STATS SAMPLED AT: ",
            c_timeval(&s.sample_time),
            "\tNode: ",
            or(&s.node, "(null)"),
            "\n",
            p,
            format!(
                "Total Mem: {} Free Mem: {} Buffers: {} Cached: {}\n",
                f(s.total_mem),
                f(s.free_mem),
                f(s.buffers),
                f(s.cached)
            ),
            p,
            format!(
                "SwapCached: {} SwapTotal: {} SwapFree: {} Mapped: {}\n",
                f(s.swap_cached),
                f(s.swap_total),
                f(s.swap_free),
                f(s.mapped)
            ),
            p,
            format!(
                "\tla: {}\tla5: {}\tla15: {}\n",
                f(s.la),
                f(s.la5),
                f(s.la15)
            )
        )
    }
}

/// "PROC: nspace:rank".
fn proc_line(p: &[u8], pr: &Proc) -> Vec<u8> {
    cat!(p, "PROC: ", &pr.nspace, ":", rank_string(pr.rank))
}

fn coord(p: &[u8], c: &Coord) -> Vec<u8> {
    cat!(
        p,
        "Data type: PMIX_COORD\tView: ",
        coord_view_string(c.view),
        format!("\tDims: {}", c.coord.len())
    )
}

/// Process statistics. The state is a character; a NUL state ends the text there, as it
/// does in C.
fn proc_stats(p: &[u8], s: &ProcStats) -> Vec<u8> {
    let f = |x: f32, w: usize| c_float(f64::from(x), w, 2);
    let mut out = cat!(
        p,
        "PMIX_PROC_STATS SAMPLED AT: ",
        c_timeval(&s.sample_time),
        "\n",
        p,
        "node: ",
        or(&s.node, "(null)"),
        " proc: [",
        &s.proc.nspace,
        ",",
        short_rank_string(s.proc.rank),
        format!("] pid: {} cmd: ", s.pid),
        or(&s.cmd, "(null)"),
        " state: ",
        [s.state as u8].as_slice(),
        format!(
            " pri: {} #threads: {} Processor: {}\n",
            s.priority, s.num_threads, s.processor
        ),
        p,
        "\ttime: ",
        c_timeval(&s.time),
        format!(
            " cpu: {}  PSS: {}  VMsize: {} PeakVMSize: {} RSS: {}\n",
            f(s.percent_cpu, 5),
            f(s.pss, 8),
            f(s.vsize, 8),
            f(s.peak_vsize, 8),
            f(s.rss, 8)
        )
    );
    if let Some(n) = out.iter().position(|&b| b == 0) {
        out.truncate(n);
    }
    out
}

/// Disk statistics; the counters print in hexadecimal, as in the reference.
fn disk_stats(p: &[u8], s: &DiskStats) -> Vec<u8> {
    cat!(
        p,
        "PMIX_DISK_STATS Disk: ",
        or(&s.disk, "(null)"),
        "\n",
        p,
        format!(
            "NumReadsCompleted: {:x} NumReadsMerged: {:x} NumSectorsRead: {:x} MillisecReading: {:x}\n",
            s.num_reads_completed, s.num_reads_merged, s.num_sectors_read, s.milliseconds_reading
        ),
        p,
        format!(
            "NumWritesCompleted: {:x} NumWritesMerged: {:x} NumSectorsWrote: {:x} MillisecWriting: {:x}\n",
            s.num_writes_completed,
            s.num_writes_merged,
            s.num_sectors_written,
            s.milliseconds_writing
        ),
        p,
        format!(
            "NumIOsInProgress: {:x} MillisecondsIO: {:x} WeightedMillisecsIO: {:x}\n",
            s.num_ios_in_progress, s.milliseconds_io, s.weighted_milliseconds_io
        )
    )
}

/// Network statistics; the counters print in hexadecimal, as in the reference.
fn net_stats(p: &[u8], s: &NetStats) -> Vec<u8> {
    cat!(
        p,
        "PMIX_NET_STATS Interface: ",
        or(&s.net_interface, "(null)"),
        "\n",
        p,
        format!(
            "NumBytesRecvd: {:x} NumPacketsRecv: {:x} NumRecvErrors: {:x}\n",
            s.num_bytes_recvd, s.num_packets_recvd, s.num_recv_errs
        ),
        p,
        format!(
            "NumBytesSent: {:x} NumPacketsSent: {:x} NumSendErrors: {:x}\n",
            s.num_bytes_sent, s.num_packets_sent, s.num_send_errs
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_text_reads_back() {
        let mut with_text = 0;
        for &(_, code) in crate::status_names::STATUS_NAMES {
            let t = error_string(code).to_bytes();
            if t == b"ERROR STRING NOT FOUND" {
                assert_eq!(error_code_of_text(t), None);
                continue;
            }
            with_text += 1;
            assert_eq!(
                error_code_of_text(t),
                Some(code),
                "{}",
                String::from_utf8_lossy(t)
            );
            assert_eq!(error_code_of_text(&t.to_ascii_lowercase()), Some(code));
        }
        assert!(with_text > 100, "{with_text}");
        assert_eq!(error_code_of_text(b"NOT-FOUND"), Some(PMIX_ERR_NOT_FOUND));
        assert_eq!(error_code_of_text(b"no such status"), None);
        assert_eq!(error_code_of_text(b""), None);
    }

    #[test]
    fn ctime_in_utc() {
        let p = Printer::default();
        assert_eq!(p.ctime(0), "Thu Jan  1 00:00:00 1970");
        assert_eq!(p.ctime(-1), "Wed Dec 31 23:59:59 1969");
        assert_eq!(p.ctime(1_700_000_000), "Tue Nov 14 22:13:20 2023");
        assert_eq!(p.ctime(253_402_300_800), "Sat Jan  1 00:00:00 10000");
        assert_eq!(p.ctime(-62_167_219_201), "Fri Dec 31 23:59:59 -1");
        assert_eq!(p.ctime(-2_147_483_648_000), "Sun Dec 15 04:26:40 -66082");
        // Beyond what C's struct tm holds: the seconds.
        assert_eq!(p.ctime(i64::MAX), i64::MAX.to_string());
    }

    #[test]
    fn floats_as_printf() {
        assert_eq!(c_float(0.0078125, 0, 6), "0.007812");
        assert_eq!(c_float(-0.0, 0, 6), "-0.000000");
        assert_eq!(c_float(f64::NAN, 0, 6), "nan");
        assert_eq!(c_float(-f64::NAN, 0, 6), "-nan");
        assert_eq!(c_float(f64::NEG_INFINITY, 0, 6), "-inf");
        assert_eq!(c_float(0.5, 5, 2), " 0.50");
        assert_eq!(c_float(1e9, 8, 2), "1000000000.00");
    }

    #[test]
    fn names() {
        assert_eq!(error_string(PMIX_ERR_BAD_PARAM), c"BAD-PARAM");
        assert_eq!(error_string(1), c"ERROR STRING NOT FOUND");
        assert_eq!(iof_channel_string(0x13), c"STDIN STDOUT ");
        assert_eq!(info_directives_string(0x7), c"REQUIRED:PROCESSED:END");
        assert_eq!(info_directives_string(0x9), c"QUALIFIER");
        assert_eq!(locality_string(0x23), "HWTHREAD:CORE:CORE");
        assert_eq!(storage_medium_string(0x3), "UNKNOWN");
        assert_eq!(data_type_string(70), c"UNKNOWN");
        assert!(VERSION.to_bytes().starts_with(b"pmix-rs 5.0."));
    }

    #[test]
    fn values_and_arrays() {
        let p = Printer::default();
        let v = Value::DataArray(Box::new(DataArray {
            ty: PMIX_UINT8,
            items: vec![Value::Uint8(1), Value::Uint8(2)],
        }));
        assert_eq!(
            p.value(None, ValueView::Value(&v)).into_text().unwrap(),
            b" PMIX_VALUE:  Data type: PMIX_DATA_ARRAY\tType: PMIX_UINT8\tSize: 2\n  Data type: PMIX_UINT8\tValue: 1\n  Data type: PMIX_UINT8\tValue: 2"
        );
        let empty = Value::DataArray(Box::new(DataArray {
            ty: PMIX_UINT8,
            items: vec![],
        }));
        assert_eq!(
            p.data(Some(b"P"), PMIX_DATA_ARRAY, &empty),
            Printed {
                text: Some(
                    b"PData type: PMIX_DATA_ARRAY\tType: PMIX_UINT8\tSize: 0\nPNULL".to_vec()
                ),
                status: PMIX_ERR_BAD_PARAM
            }
        );
        assert_eq!(
            p.value(None, ValueView::Value(&empty)),
            Printed::fail(PMIX_ERR_OUT_OF_RESOURCE)
        );
        let info = p.info(None, b"pmix.rank", 0, ValueView::Value(&Value::Uint32(3)));
        assert_eq!(
            info,
            b" KEY: PMIX_RANK\n \t Data type: PMIX_INFO_DIRECTIVES\tValue: OPTIONAL\n \t PMIX_VALUE:  Data type: PMIX_UINT32\tValue: 3"
        );
    }
}
