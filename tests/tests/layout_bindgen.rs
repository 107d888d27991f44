//! Our `pmix-sys` layouts against bindgen's reading of the reference headers: every type's
//! size and alignment and every member's offset. (pmix-sys/tests/layout.rs pins the same
//! numbers as constants; this test takes them from the headers themselves.)

#![allow(
    non_camel_case_types,
    non_upper_case_globals,
    non_snake_case,
    dead_code,
    unnecessary_transmutes
)]

mod reference {
    #![allow(clippy::all)]
    include!(concat!(env!("OUT_DIR"), "/ref_bindings.rs"));
}

use core::mem::{align_of, offset_of, size_of};

macro_rules! same_layout {
    ($t:ident; $($ours:ident / $theirs:ident),*) => {{
        assert_eq!(size_of::<pmix_sys::$t>(), size_of::<reference::$t>(), concat!("size of ", stringify!($t)));
        assert_eq!(align_of::<pmix_sys::$t>(), align_of::<reference::$t>(), concat!("align of ", stringify!($t)));
        $(assert_eq!(offset_of!(pmix_sys::$t, $ours), offset_of!(reference::$t, $theirs), concat!(stringify!($t), ".", stringify!($ours)));)*
    }};
}

/// Offsets only (for a struct that grew at its end).
macro_rules! same_offsets {
    ($t:ident; $($ours:ident / $theirs:ident),*) => {{
        assert_eq!(align_of::<pmix_sys::$t>(), align_of::<reference::$t>(), concat!("align of ", stringify!($t)));
        $(assert_eq!(offset_of!(pmix_sys::$t, $ours), offset_of!(reference::$t, $theirs), concat!(stringify!($t), ".", stringify!($ours)));)*
    }};
}

#[test]
fn layouts_match_the_reference_headers() {
    same_layout!(pmix_alloc_directive_t;);
    same_layout!(pmix_app_t; argv / argv, cmd / cmd, cwd / cwd, env / env, info / info, maxprocs / maxprocs, ninfo / ninfo);
    same_layout!(pmix_bind_envelope_t;);
    same_layout!(pmix_boolean_t;);
    same_layout!(pmix_byte_object_t; bytes / bytes, size / size);
    same_layout!(pmix_coord_t; coord / coord, dims / dims, view / view);
    same_layout!(pmix_coord_view_t;);
    same_layout!(pmix_cpuset_t; bitmap / bitmap, source / source);
    same_layout!(pmix_data_array_t; array / array, size / size, r#type / type_);
    same_layout!(pmix_data_buffer_t; base_ptr / base_ptr, bytes_allocated / bytes_allocated, bytes_used / bytes_used, pack_ptr / pack_ptr, unpack_ptr / unpack_ptr);
    same_layout!(pmix_data_range_t;);
    same_layout!(pmix_data_type_t;);
    same_layout!(pmix_device_distance_t; maxdist / maxdist, mindist / mindist, osname / osname, r#type / type_, uuid / uuid);
    same_layout!(pmix_device_type_t;);
    same_layout!(pmix_disk_stats_t; disk / disk, milliseconds_io / milliseconds_io, milliseconds_reading / milliseconds_reading, milliseconds_writing / milliseconds_writing, num_ios_in_progress / num_ios_in_progress, num_reads_completed / num_reads_completed, num_reads_merged / num_reads_merged, num_sectors_read / num_sectors_read, num_sectors_written / num_sectors_written, num_writes_completed / num_writes_completed, num_writes_merged / num_writes_merged, weighted_milliseconds_io / weighted_milliseconds_io);
    same_layout!(pmix_endpoint_t; endpt / endpt, osname / osname, uuid / uuid);
    same_layout!(pmix_envar_t; envar / envar, separator / separator, value / value);
    same_layout!(pmix_fabric_operation_t;);
    same_layout!(pmix_fabric_t; index / index, info / info, module / module, name / name, ninfo / ninfo);
    same_layout!(pmix_geometry_t; coordinates / coordinates, fabric / fabric, ncoords / ncoords, osname / osname, uuid / uuid);
    same_layout!(pmix_group_operation_t;);
    same_layout!(pmix_group_opt_t;);
    same_layout!(pmix_info_directives_t;);
    same_layout!(pmix_info_t; flags / flags, key / key, value / value);
    same_layout!(pmix_iof_channel_t;);
    same_layout!(pmix_job_state_t;);
    same_layout!(pmix_link_state_t;);
    same_layout!(pmix_locality_t;);
    same_layout!(pmix_net_stats_t; net_interface / net_interface, num_bytes_recvd / num_bytes_recvd, num_bytes_sent / num_bytes_sent, num_packets_recvd / num_packets_recvd, num_packets_sent / num_packets_sent, num_recv_errs / num_recv_errs, num_send_errs / num_send_errs);
    same_layout!(pmix_node_stats_t; buffers / buffers, cached / cached, diskstats / diskstats, free_mem / free_mem, la / la, la15 / la15, la5 / la5, mapped / mapped, ndiskstats / ndiskstats, netstats / netstats, nnetstats / nnetstats, node / node, sample_time / sample_time, swap_cached / swap_cached, swap_free / swap_free, swap_total / swap_total, total_mem / total_mem);
    same_layout!(pmix_pdata_t; key / key, proc / proc_, value / value);
    same_layout!(pmix_persistence_t;);
    same_layout!(pmix_proc_info_t; executable_name / executable_name, exit_code / exit_code, hostname / hostname, pid / pid, proc / proc_, state / state);
    same_layout!(pmix_proc_state_t;);
    same_layout!(pmix_proc_stats_t; cmd / cmd, node / node, num_threads / num_threads, peak_vsize / peak_vsize, percent_cpu / percent_cpu, pid / pid, priority / priority, proc / proc_, processor / processor, pss / pss, rss / rss, sample_time / sample_time, state / state, time / time, vsize / vsize);
    same_layout!(pmix_proc_t; nspace / nspace, rank / rank);
    same_layout!(pmix_query_t; keys / keys, nqual / nqual, qualifiers / qualifiers);
    same_layout!(pmix_rank_t;);
    same_layout!(pmix_regattr_t; description / description, name / name, string / string, r#type / type_);
    same_layout!(pmix_scope_t;);
    same_offsets!(pmix_server_module_t; abort / abort, allocate / allocate, client_connected / client_connected, client_connected2 / client_connected2, client_finalized / client_finalized, connect / connect, deregister_events / deregister_events, direct_modex / direct_modex, disconnect / disconnect, fabric / fabric, fence_nb / fence_nb, get_credential / get_credential, group / group, iof_pull / iof_pull, job_control / job_control, listener / listener, log / log, lookup / lookup, monitor / monitor, notify_event / notify_event, publish / publish, push_stdin / push_stdin, query / query, register_events / register_events, spawn / spawn, tool_connected / tool_connected, unpublish / unpublish, validate_credential / validate_credential);
    // 5.0 added `session_control` at the end: 8 bytes more than 4.2's module, same offsets.
    assert_eq!(
        size_of::<pmix_sys::pmix_server_module_t>(),
        size_of::<reference::pmix_server_module_t>() + 8
    );
    assert_eq!(
        offset_of!(pmix_sys::pmix_server_module_t, session_control),
        size_of::<reference::pmix_server_module_t>()
    );
    assert_eq!(
        pmix_sys::PMIX_SERVER_MODULE_4_SIZE,
        size_of::<reference::pmix_server_module_t>()
    );
    same_layout!(pmix_status_t;);
    same_layout!(pmix_storage_access_type_t;);
    same_layout!(pmix_storage_accessibility_t;);
    same_layout!(pmix_storage_medium_t;);
    same_layout!(pmix_storage_persistence_t;);
    same_layout!(pmix_topology_t; source / source, topology / topology);
    same_layout!(pmix_value_cmp_t;);
    same_layout!(pmix_value_t; data / data, r#type / type_);
}
