//! `pmix_init_util` (what PRRTE calls first: output, install directories, the variable
//! system, OpenPMIx's own parameters, the MCA base, the interfaces) and those parameters
//! (`src/runtime/pmix_params.c`'s).

use super::{
    OPEN_DEFAULT, PMIX_ERROR, PMIX_SUCCESS, VAR_TYPE_BOOL, VAR_TYPE_INT, VAR_TYPE_SIZE_T,
    VAR_TYPE_STRING, base, ffi, installdirs, pmix_mca_base_framework_open,
};
use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

/// The values of OpenPMIx's own parameters (`pmix_*`, `iof_*`), after `pmix_init_util`. The
/// variable system owns the strings.
#[repr(C)]
#[derive(Debug)]
pub struct Params {
    pub net_private_ipv4: *mut c_char,
    pub event_caching_window: c_int,
    pub suppress_missing_data_warning: bool,
    /// `pmix_client_{get,connect,fence,pub,spawn,event,iof,base}_verbose`.
    pub client_verbose: [c_int; 8],
    /// `pmix_server_{get,connect,fence,pub,spawn,event,iof,base,group}_verbose`.
    pub server_verbose: [c_int; 9],
    pub server_fence_localonly_opt: bool,
    pub iof_output_limit: usize,
    pub iof_xml_output: bool,
    pub iof_tag_output: bool,
    pub iof_timestamp_output: bool,
    pub max_events: c_int,
    pub event_eviction_time: c_int,
    pub max_iof_cache: c_int,
    pub progress_thread_cpus: *mut c_char,
    pub bind_progress_thread_reqd: bool,
    pub maxfd: c_int,
    pub finalize_timeout: c_int,
    pub keep_fqdn_hostnames: bool,
    pub hwloc_verbose: c_int,
    pub hwloc_hole_kind: *mut c_char,
    pub hwloc_topo_file: *mut c_char,
    pub hwloc_test_cpuset: *mut c_char,
}

/// The parameters (their defaults until registered).
static mut PARAMS: Params = Params {
    net_private_ipv4: ptr::null_mut(),
    event_caching_window: 1,
    suppress_missing_data_warning: false,
    client_verbose: [0; 8],
    server_verbose: [0; 9],
    server_fence_localonly_opt: true,
    iof_output_limit: i32::MAX as usize,
    iof_xml_output: false,
    iof_tag_output: false,
    iof_timestamp_output: false,
    max_events: 512,
    event_eviction_time: 120,
    max_iof_cache: 1024 * 1024,
    progress_thread_cpus: ptr::null_mut(),
    bind_progress_thread_reqd: false,
    maxfd: 1024,
    finalize_timeout: 10,
    keep_fqdn_hostnames: false,
    hwloc_verbose: 0,
    hwloc_hole_kind: ptr::null_mut(),
    hwloc_topo_file: ptr::null_mut(),
    hwloc_test_cpuset: ptr::null_mut(),
};

/// OpenPMIx's parameters as registered (read-only view; valid after `pmix_init_util`).
pub fn params() -> *const Params {
    &raw const PARAMS
}

const CLIENT_VERBOSE: [(&CStr, &CStr); 8] = [
    (c"get_verbose", c"Verbosity for client get operations"),
    (
        c"connect_verbose",
        c"Verbosity for client connect operations",
    ),
    (c"fence_verbose", c"Verbosity for client fence operations"),
    (
        c"pub_verbose",
        c"Verbosity for client publish, lookup, and unpublish operations",
    ),
    (c"spawn_verbose", c"Verbosity for client spawn operations"),
    (
        c"event_verbose",
        c"Verbosity for client event notifications",
    ),
    (c"iof_verbose", c"Verbosity for client iof operations"),
    (c"base_verbose", c"Verbosity for basic client operations"),
];

const SERVER_VERBOSE: [(&CStr, &CStr); 9] = [
    (c"get_verbose", c"Verbosity for server get operations"),
    (
        c"connect_verbose",
        c"Verbosity for server connect operations",
    ),
    (c"fence_verbose", c"Verbosity for server fence operations"),
    (
        c"pub_verbose",
        c"Verbosity for server publish, lookup, and unpublish operations",
    ),
    (c"spawn_verbose", c"Verbosity for server spawn operations"),
    (c"event_verbose", c"Verbosity for server event operations"),
    (c"iof_verbose", c"Verbosity for server iof operations"),
    (c"base_verbose", c"Verbosity for basic server operations"),
    (c"group_verbose", c"Verbosity for server group operations"),
];

/// Registers one variable of project `pmix`.
///
/// # Safety
/// `storage` holds a value of type `ty` for the life of the process.
unsafe fn reg(
    framework: &CStr,
    component: Option<&CStr>,
    name: &CStr,
    desc: &CStr,
    ty: c_int,
    storage: *mut c_void,
) -> c_int {
    // SAFETY: per the contract; C strings.
    unsafe {
        ffi::pmix_mca_base_var_register(
            c"pmix".as_ptr(),
            framework.as_ptr(),
            component.map_or(ptr::null(), CStr::as_ptr),
            name.as_ptr(),
            desc.as_ptr(),
            ty,
            storage,
        )
    }
}

static REGISTERED: AtomicBool = AtomicBool::new(false);

/// Registers OpenPMIx's own parameters, once (`pmix_register_params`): `pmix_net_private_ipv4`,
/// the client and server verbosities, the IOF output settings, event and IOF caching,
/// progress-thread binding, `pmix_maxfd`, `pmix_finalize_timeout`,
/// `pmix_keep_fqdn_hostnames` and the `pmix_hwloc_*` ones. An unknown `pmix_hwloc_hole_kind`
/// is an error (PMIX_ERROR), as in OpenPMIx.
///
/// # Safety
/// Not thread-safe (process initialization).
pub unsafe fn register_params() -> c_int {
    if REGISTERED.swap(true, Ordering::SeqCst) {
        return PMIX_SUCCESS;
    }
    let p = &raw mut PARAMS;
    // SAFETY: storage in our static, of the registered types.
    unsafe {
        (*p).net_private_ipv4 = c"10.0.0.0/8;172.16.0.0/12;192.168.0.0/16;169.254.0.0/16"
            .as_ptr()
            .cast_mut();
        let ret = reg(
            c"pmix",
            Some(c"net"),
            c"private_ipv4",
            c"Semicolon-delimited list of CIDR notation entries specifying what networks are considered \"private\" (default value based on RFC1918 and RFC3330)",
            VAR_TYPE_STRING,
            (&raw mut (*p).net_private_ipv4).cast(),
        );
        if ret < 0 {
            return ret;
        }
        reg(
            c"pmix",
            None,
            c"event_caching_window",
            c"Time (in seconds) to aggregate events before reporting them - this suppresses event cascades when processes abnormally terminate",
            VAR_TYPE_INT,
            (&raw mut (*p).event_caching_window).cast(),
        );
        reg(
            c"pmix",
            None,
            c"suppress_missing_data_warning",
            c"Suppress warning that PMIx is missing job-level data that is supposed to be provided by the host RM.",
            VAR_TYPE_BOOL,
            (&raw mut (*p).suppress_missing_data_warning).cast(),
        );
        for (i, (name, desc)) in CLIENT_VERBOSE.iter().enumerate() {
            reg(
                c"pmix",
                Some(c"client"),
                name,
                desc,
                VAR_TYPE_INT,
                (&raw mut (*p).client_verbose[i]).cast(),
            );
        }
        for (i, (name, desc)) in SERVER_VERBOSE.iter().enumerate() {
            reg(
                c"pmix",
                Some(c"server"),
                name,
                desc,
                VAR_TYPE_INT,
                (&raw mut (*p).server_verbose[i]).cast(),
            );
        }
        (*p).server_fence_localonly_opt = true;
        reg(
            c"pmix",
            Some(c"server"),
            c"fence_localonly_opt",
            c"Optimize local-only fence opteration by eliminating the upcall to the RM (default: true)",
            VAR_TYPE_BOOL,
            (&raw mut (*p).server_fence_localonly_opt).cast(),
        );
        (*p).iof_output_limit = i32::MAX as usize;
        reg(
            c"iof",
            None,
            c"output_limit",
            c"Maximum backlog of output messages [default: unlimited]",
            VAR_TYPE_SIZE_T,
            (&raw mut (*p).iof_output_limit).cast(),
        );
        (*p).iof_xml_output = false;
        reg(
            c"iof",
            None,
            c"xml_output",
            c"Display all output in XML format (default: false)",
            VAR_TYPE_BOOL,
            (&raw mut (*p).iof_xml_output).cast(),
        );
        // XML output is tagged output.
        (*p).iof_tag_output = (*p).iof_xml_output;
        reg(
            c"iof",
            None,
            c"tag_output",
            c"Tag all output with [job,rank] (default: false)",
            VAR_TYPE_BOOL,
            (&raw mut (*p).iof_tag_output).cast(),
        );
        if (*p).iof_xml_output {
            (*p).iof_tag_output = true;
        }
        (*p).iof_timestamp_output = false;
        reg(
            c"iof",
            None,
            c"timestamp_output",
            c"Timestamp all application process output (default: false)",
            VAR_TYPE_BOOL,
            (&raw mut (*p).iof_timestamp_output).cast(),
        );
        (*p).max_events = 512;
        reg(
            c"pmix",
            Some(c"max"),
            c"events",
            c"Maximum number of event notifications to cache",
            VAR_TYPE_INT,
            (&raw mut (*p).max_events).cast(),
        );
        (*p).event_eviction_time = 120;
        reg(
            c"pmix",
            Some(c"event"),
            c"eviction_time",
            c"Maximum number of seconds to cache an event",
            VAR_TYPE_INT,
            (&raw mut (*p).event_eviction_time).cast(),
        );
        (*p).max_iof_cache = 1024 * 1024;
        reg(
            c"pmix",
            Some(c"max"),
            c"iof_cache",
            c"Maximum number of IOF messages to cache",
            VAR_TYPE_INT,
            (&raw mut (*p).max_iof_cache).cast(),
        );
        reg(
            c"pmix",
            None,
            c"progress_thread_cpus",
            c"Comma-delimited list of ranges of CPUs to whichthe internal PMIx progress thread is to be bound",
            VAR_TYPE_STRING,
            (&raw mut (*p).progress_thread_cpus).cast(),
        );
        reg(
            c"pmix",
            None,
            c"bind_progress_thread_reqd",
            c"Whether binding of internal PMIx progress thread is required",
            VAR_TYPE_BOOL,
            (&raw mut (*p).bind_progress_thread_reqd).cast(),
        );
        reg(
            c"pmix",
            None,
            c"maxfd",
            c"In non-Linux environments, use this value as a maximum number of file descriptors to close when forking a new child process",
            VAR_TYPE_INT,
            (&raw mut (*p).maxfd).cast(),
        );
        (*p).finalize_timeout = 10;
        reg(
            c"pmix",
            None,
            c"finalize_timeout",
            c"Time in seconds to wait for server to ack client finalize request",
            VAR_TYPE_INT,
            (&raw mut (*p).finalize_timeout).cast(),
        );
        (*p).keep_fqdn_hostnames = false;
        reg(
            c"pmix",
            None,
            c"keep_fqdn_hostnames",
            c"Whether or not to keep FQDN hostnames [default: no]",
            VAR_TYPE_BOOL,
            (&raw mut (*p).keep_fqdn_hostnames).cast(),
        );
        register_hwloc_params(p)
    }
}

/// The `pmix_hwloc_*` parameters (`pmix_hwloc_register`).
///
/// # Safety
/// As `register_params`.
unsafe fn register_hwloc_params(p: *mut Params) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        reg(
            c"pmix",
            Some(c"hwloc"),
            c"verbose",
            c"Verbosity for HWLOC operations",
            VAR_TYPE_INT,
            (&raw mut (*p).hwloc_verbose).cast(),
        );
        if (*p).hwloc_verbose > 0 {
            let out = ffi::pmix_output_open(ptr::null_mut());
            ffi::pmix_output_set_verbosity(out, (*p).hwloc_verbose);
        }
        (*p).hwloc_hole_kind = c"biggest".as_ptr().cast_mut();
        reg(
            c"pmix",
            Some(c"hwloc"),
            c"hole_kind",
            c"Kind of VM hole to identify - none, begin, biggest, libs, heap, stack (default=biggest)",
            VAR_TYPE_STRING,
            (&raw mut (*p).hwloc_hole_kind).cast(),
        );
        let kind = (*p).hwloc_hole_kind;
        let known = !kind.is_null() && {
            let k = CStr::from_ptr(kind).to_bytes();
            ["none", "begin", "biggest", "libs", "heap", "stack"]
                .iter()
                .any(|w| k.eq_ignore_ascii_case(w.as_bytes()))
        };
        if !known {
            ffi::pmix_output(0, c"INVALID VM HOLE TYPE".as_ptr());
            return PMIX_ERROR;
        }
        reg(
            c"pmix",
            Some(c"hwloc"),
            c"topo_file",
            c"Topology file to use instead of discovering it (mostly for testing purposes)",
            VAR_TYPE_STRING,
            (&raw mut (*p).hwloc_topo_file).cast(),
        );
        reg(
            c"pmix",
            Some(c"hwloc"),
            c"test_cpuset",
            c"Cpuset for testing purposes",
            VAR_TYPE_STRING,
            (&raw mut (*p).hwloc_test_cpuset).cast(),
        );
    }
    PMIX_SUCCESS
}

static UTIL_INITIALIZED: AtomicBool = AtomicBool::new(false);

/// Writes a line to stderr.
fn complain(msg: &str) {
    // SAFETY: writing a buffer to stderr.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
    }
}

/// Initializes the utility layer, once (later calls answer success at once): the output
/// system, the install directories (from `info`'s `pmix.prefix`, the environment, and where
/// this library lies), the variable system, OpenPMIx's parameters, the MCA base (with
/// `libdir`, PRRTE's `prte@<libdir>`, in front of its component path) and the list of network
/// interfaces. A failed step is reported on stderr and its code returned.
///
/// # Safety
/// `info` is NULL or points to `ninfo` `pmix_info_t`; `libdir` NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_init_util(
    info: *mut c_void,
    ninfo: usize,
    libdir: *mut c_char,
) -> c_int {
    if UTIL_INITIALIZED.swap(true, Ordering::SeqCst) {
        return PMIX_SUCCESS;
    }
    // SAFETY: the callees' contracts are those of this function.
    unsafe {
        if !ffi::pmix_output_init() {
            return PMIX_ERROR;
        }
        let ret = pmix_mca_base_framework_open(&raw mut installdirs::PINSTALLDIRS, OPEN_DEFAULT);
        if ret != PMIX_SUCCESS {
            complain(&format!(
                "pmix_pinstalldirs_base_open() failed -- process will likely abort (returned {ret} instead of PMIX_SUCCESS)\n"
            ));
            return ret;
        }
        let ret = installdirs::init(info as *const installdirs::InfoHead, ninfo);
        if ret != PMIX_SUCCESS {
            complain(&format!(
                "pmix_pinstalldirs_base_init() failed -- process will likely abort (returned {ret} instead of PMIX_SUCCESS)\n"
            ));
            return ret;
        }
        let ret = ffi::pmix_mca_base_var_init();
        if ret != PMIX_SUCCESS {
            complain("mca_base_var_init failed\n");
            return ret;
        }
        let ret = register_params();
        if ret != PMIX_SUCCESS {
            complain("pmix_register_params failed\n");
            return ret;
        }
        let ret = base::pmix_mca_base_open(libdir);
        if ret != PMIX_SUCCESS {
            complain("pmix_mca_base_open failed\n");
            return ret;
        }
        crate::net::load_interfaces();
    }
    PMIX_SUCCESS
}
