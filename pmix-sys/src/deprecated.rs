//! Constants and attribute keys of `pmix_deprecated.h`: names the reference keeps for
//! backward compatibility.

use crate::attribute_table;
#[allow(unused_imports)]
use crate::consts::*;
use crate::types::*;

// pmix_data_type_t
pub const PMIX_BUFFER: pmix_data_type_t = 26;

// pmix_status_t
pub const PMIX_ERR_SILENT: pmix_status_t = -2;
pub const PMIX_ERR_DEBUGGER_RELEASE: pmix_status_t = -3;
pub const PMIX_ERR_PROC_ABORTED: pmix_status_t = -7;
pub const PMIX_ERR_PROC_ABORTING: pmix_status_t = -9;
pub const PMIX_ERR_SERVER_FAILED_REQUEST: pmix_status_t = -10;
pub const PMIX_EXISTS: pmix_status_t = -11;
pub const PMIX_ERR_HANDSHAKE_FAILED: pmix_status_t = -13;
pub const PMIX_ERR_READY_FOR_HANDSHAKE: pmix_status_t = -14;
pub const PMIX_ERR_PROC_ENTRY_NOT_FOUND: pmix_status_t = -17;
pub const PMIX_ERR_PACK_MISMATCH: pmix_status_t = -22;
pub const PMIX_ERR_IN_ERRNO: pmix_status_t = -26;
pub const PMIX_ERR_DATA_VALUE_NOT_FOUND: pmix_status_t = -30;
pub const PMIX_ERR_INVALID_ARG: pmix_status_t = -33;
pub const PMIX_ERR_INVALID_KEY: pmix_status_t = -34;
pub const PMIX_ERR_INVALID_KEY_LENGTH: pmix_status_t = -35;
pub const PMIX_ERR_INVALID_VAL: pmix_status_t = -36;
pub const PMIX_ERR_INVALID_VAL_LENGTH: pmix_status_t = -37;
pub const PMIX_ERR_INVALID_LENGTH: pmix_status_t = -38;
pub const PMIX_ERR_INVALID_NUM_ARGS: pmix_status_t = -39;
pub const PMIX_ERR_INVALID_ARGS: pmix_status_t = -40;
pub const PMIX_ERR_INVALID_NUM_PARSED: pmix_status_t = -41;
pub const PMIX_ERR_INVALID_KEYVALP: pmix_status_t = -42;
pub const PMIX_ERR_INVALID_SIZE: pmix_status_t = -43;
pub const PMIX_ERR_INVALID_NAMESPACE: pmix_status_t = -44;
pub const PMIX_ERR_SERVER_NOT_AVAIL: pmix_status_t = -45;
pub const PMIX_ERR_NOT_IMPLEMENTED: pmix_status_t = -48;
pub const PMIX_DEBUG_WAITING_FOR_NOTIFY: pmix_status_t = -58;
pub const PMIX_ERR_FATAL: pmix_status_t = -63;
pub const PMIX_ERR_NOT_AVAILABLE: pmix_status_t = -64;
pub const PMIX_ERR_VALUE_OUT_OF_BOUNDS: pmix_status_t = -65;
pub const PMIX_ERR_FILE_OPEN_FAILURE: pmix_status_t = -67;
pub const PMIX_ERR_FILE_READ_FAILURE: pmix_status_t = -68;
pub const PMIX_ERR_FILE_WRITE_FAILURE: pmix_status_t = -69;
pub const PMIX_ERR_SYS_LIMITS_PIPES: pmix_status_t = -70;
pub const PMIX_ERR_SYS_LIMITS_CHILDREN: pmix_status_t = -71;
pub const PMIX_ERR_PIPE_SETUP_FAILURE: pmix_status_t = -72;
pub const PMIX_ERR_EXE_NOT_ACCESSIBLE: pmix_status_t = -73;
pub const PMIX_ERR_JOB_WDIR_NOT_ACCESSIBLE: pmix_status_t = -74;
pub const PMIX_ERR_SYS_LIMITS_FILES: pmix_status_t = -75;
pub const PMIX_ERR_LOST_CONNECTION_TO_SERVER: pmix_status_t = -101;
pub const PMIX_ERR_LOST_PEER_CONNECTION: pmix_status_t = -102;
pub const PMIX_ERR_LOST_CONNECTION_TO_CLIENT: pmix_status_t = -103;
pub const PMIX_NOTIFY_ALLOC_COMPLETE: pmix_status_t = -105;
pub const PMIX_ERR_INVALID_TERMINATION: pmix_status_t = -112;
pub const PMIX_ERR_JOB_TERMINATED: pmix_status_t = -145;
pub const PMIX_ERR_UPDATE_ENDPOINTS: pmix_status_t = -146;
pub const PMIX_GDS_ACTION_COMPLETE: pmix_status_t = -148;
pub const PMIX_PROC_HAS_CONNECTED: pmix_status_t = -149;
pub const PMIX_CONNECT_REQUESTED: pmix_status_t = -150;
pub const PMIX_ERR_NODE_DOWN: pmix_status_t = -231;
pub const PMIX_ERR_NODE_OFFLINE: pmix_status_t = -232;
pub const PMIX_ERR_SYS_BASE: pmix_status_t = PMIX_EVENT_SYS_BASE;
pub const PMIX_ERR_SYS_OTHER: pmix_status_t = PMIX_EVENT_SYS_OTHER;

// pmix_job_state_t
pub const PMIX_JOB_STATE_PREPPED: pmix_job_state_t = 1;

attribute_table! {
    DEPRECATED_ATTRIBUTES;
    PMIX_EVENT_BASE = c"pmix.evbase", PMIX_POINTER;
    PMIX_TOPOLOGY = c"pmix.topo", PMIX_POINTER;
    PMIX_DEBUG_JOB = c"pmix.dbg.job", PMIX_STRING;
    PMIX_RECONNECT_SERVER = c"pmix.cnct.recon", PMIX_BOOL;
    PMIX_USOCK_DISABLE = c"pmix.usock.disable", PMIX_BOOL;
    PMIX_SOCKET_MODE = c"pmix.sockmode", PMIX_UINT32;
    PMIX_SINGLE_LISTENER = c"pmix.sing.listnr", PMIX_BOOL;
    PMIX_ALLOC_NETWORK = c"pmix.alloc.net", PMIX_DATA_ARRAY;
    PMIX_ALLOC_NETWORK_ID = c"pmix.alloc.netid", PMIX_STRING;
    PMIX_ALLOC_NETWORK_QOS = c"pmix.alloc.netqos", PMIX_STRING;
    PMIX_ALLOC_NETWORK_TYPE = c"pmix.alloc.nettype", PMIX_STRING;
    PMIX_ALLOC_NETWORK_PLANE = c"pmix.alloc.netplane", PMIX_STRING;
    PMIX_ALLOC_NETWORK_ENDPTS = c"pmix.alloc.endpts", PMIX_SIZE;
    PMIX_ALLOC_NETWORK_ENDPTS_NODE = c"pmix.alloc.endpts.nd", PMIX_SIZE;
    PMIX_ALLOC_NETWORK_SEC_KEY = c"pmix.alloc.nsec", PMIX_BYTE_OBJECT;
    PMIX_PROC_DATA = c"pmix.pdata", PMIX_DATA_ARRAY;
    PMIX_LOCALITY = c"pmix.loc", PMIX_UINT16;
    PMIX_LOCAL_TOPO = c"pmix.ltopo", PMIX_STRING;
    PMIX_TOPOLOGY_XML = c"pmix.topo.xml", PMIX_STRING;
    PMIX_TOPOLOGY_FILE = c"pmix.topo.file", PMIX_STRING;
    PMIX_TOPOLOGY_SIGNATURE = c"pmix.toposig", PMIX_STRING;
    PMIX_HWLOC_SHMEM_ADDR = c"pmix.hwlocaddr", PMIX_SIZE;
    PMIX_HWLOC_SHMEM_SIZE = c"pmix.hwlocsize", PMIX_SIZE;
    PMIX_HWLOC_SHMEM_FILE = c"pmix.hwlocfile", PMIX_STRING;
    PMIX_HWLOC_XML_V1 = c"pmix.hwlocxml1", PMIX_STRING;
    PMIX_HWLOC_XML_V2 = c"pmix.hwlocxml2", PMIX_STRING;
    PMIX_HWLOC_SHARE_TOPO = c"pmix.hwlocsh", PMIX_BOOL;
    PMIX_HWLOC_HOLE_KIND = c"pmix.hwlocholek", PMIX_STRING;
    PMIX_DSTPATH = c"pmix.dstpath", PMIX_STRING;
    PMIX_COLLECTIVE_ALGO = c"pmix.calgo", PMIX_STRING;
    PMIX_COLLECTIVE_ALGO_REQD = c"pmix.calreqd", PMIX_BOOL;
    PMIX_PROC_BLOB = c"pmix.pblob", PMIX_BYTE_OBJECT;
    PMIX_MAP_BLOB = c"pmix.mblob", PMIX_BYTE_OBJECT;
    PMIX_MAPPER = c"pmix.mapper", PMIX_STRING;
    PMIX_NON_PMI = c"pmix.nonpmi", PMIX_BOOL;
    PMIX_PROC_URI = c"pmix.puri", PMIX_STRING;
    PMIX_ARCH = c"pmix.arch", PMIX_UINT32;
    PMIX_DEBUG_JOB_DIRECTIVES = c"pmix.dbg.jdirs", PMIX_DATA_ARRAY;
    PMIX_DEBUG_APP_DIRECTIVES = c"pmix.dbg.adirs", PMIX_DATA_ARRAY;
    PMIX_EVENT_NO_TERMINATION = c"pmix.evnoterm", PMIX_BOOL;
    PMIX_EVENT_WANT_TERMINATION = c"pmix.evterm", PMIX_BOOL;
    PMIX_TAG_OUTPUT = c"pmix.tagout", PMIX_BOOL;
    PMIX_TIMESTAMP_OUTPUT = c"pmix.tsout", PMIX_BOOL;
    PMIX_MERGE_STDERR_STDOUT = c"pmix.mergeerrout", PMIX_BOOL;
    PMIX_OUTPUT_TO_FILE = c"pmix.outfile", PMIX_STRING;
    PMIX_OUTPUT_TO_DIRECTORY = c"pmix.outdir", PMIX_STRING;
    PMIX_OUTPUT_NOCOPY = c"pmix.nocopy", PMIX_BOOL;
    PMIX_GDS_MODULE = c"pmix.gds.mod", PMIX_STRING;
    PMIX_BFROPS_MODULE = c"pmix.bfrops.mod", PMIX_STRING;
    PMIX_PNET_SETUP_APP = c"pmix.pnet.setapp", PMIX_BYTE_OBJECT;
    PMIX_IOF_STOP = c"pmix.iof.stop", PMIX_BOOL;
    PMIX_NOTIFY_LAUNCH = c"pmix.note.lnch", PMIX_BOOL;
}
