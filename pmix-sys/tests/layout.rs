//! Sizes, alignments and member offsets of every ABI type, as the OpenPMIx 4.2 headers
//! give them on x86_64 Linux (numbers measured with the C compiler on those headers), and
//! 5.0's, which differ only in `pmix_server_module_t` (224 → 232 bytes: `session_control`
//! appended at 224).

#![cfg(all(target_arch = "x86_64", target_os = "linux"))]

use core::mem::{align_of, offset_of, size_of};
use pmix_sys::*;

macro_rules! layout {
    ($t:ty, $size:expr, $align:expr) => {
        assert_eq!(
            (size_of::<$t>(), align_of::<$t>()),
            ($size, $align),
            stringify!($t)
        );
    };
}
fn size_of_pointee<T>(_: *const T) -> usize {
    size_of::<T>()
}

macro_rules! member {
    ($t:ty, $m:ident, $off:expr, $size:expr) => {{
        assert_eq!(
            offset_of!($t, $m),
            $off,
            concat!(stringify!($t), ".", stringify!($m))
        );
        let size = {
            let v = core::mem::MaybeUninit::<$t>::uninit();
            // SAFETY: only the address of the field is taken; nothing is read.
            let p = unsafe { core::ptr::addr_of!((*v.as_ptr()).$m) };
            size_of_pointee(p)
        };
        assert_eq!(size, $size, concat!(stringify!($t), ".", stringify!($m)));
    }};
}

#[test]
fn sizes_and_alignments() {
    layout!(pmix_alloc_directive_t, 1, 1);
    layout!(pmix_app_t, 56, 8);
    layout!(pmix_bind_envelope_t, 1, 1);
    layout!(pmix_boolean_t, 4, 4);
    layout!(pmix_byte_object_t, 16, 8);
    layout!(pmix_coord_t, 24, 8);
    layout!(pmix_coord_view_t, 1, 1);
    layout!(pmix_cpuset_t, 16, 8);
    layout!(pmix_data_array_t, 24, 8);
    layout!(pmix_data_buffer_t, 40, 8);
    layout!(pmix_data_range_t, 1, 1);
    layout!(pmix_data_type_t, 2, 2);
    layout!(pmix_device_distance_t, 32, 8);
    layout!(pmix_device_type_t, 8, 8);
    layout!(pmix_disk_stats_t, 96, 8);
    layout!(pmix_endpoint_t, 32, 8);
    layout!(pmix_envar_t, 24, 8);
    layout!(pmix_fabric_operation_t, 4, 4);
    layout!(pmix_fabric_t, 40, 8);
    layout!(pmix_geometry_t, 40, 8);
    layout!(pmix_group_operation_t, 4, 4);
    layout!(pmix_group_opt_t, 4, 4);
    layout!(pmix_info_directives_t, 4, 4);
    layout!(pmix_info_t, 552, 8);
    layout!(pmix_iof_channel_t, 2, 2);
    layout!(pmix_job_state_t, 1, 1);
    layout!(pmix_link_state_t, 1, 1);
    layout!(pmix_locality_t, 2, 2);
    layout!(pmix_net_stats_t, 56, 8);
    layout!(pmix_node_stats_t, 104, 8);
    layout!(pmix_pdata_t, 808, 8);
    layout!(pmix_persistence_t, 1, 1);
    layout!(pmix_proc_info_t, 296, 8);
    layout!(pmix_proc_state_t, 1, 1);
    layout!(pmix_proc_stats_t, 352, 8);
    layout!(pmix_proc_t, 260, 4);
    layout!(pmix_query_t, 24, 8);
    layout!(pmix_rank_t, 4, 4);
    layout!(pmix_regattr_t, 536, 8);
    layout!(pmix_scope_t, 1, 1);
    layout!(pmix_server_module_t, 232, 8);
    assert_eq!(PMIX_SERVER_MODULE_4_SIZE, 224);
    layout!(pmix_status_t, 4, 4);
    layout!(pmix_storage_access_type_t, 2, 2);
    layout!(pmix_storage_accessibility_t, 8, 8);
    layout!(pmix_storage_medium_t, 8, 8);
    layout!(pmix_storage_persistence_t, 8, 8);
    layout!(pmix_topology_t, 16, 8);
    layout!(pmix_value_cmp_t, 4, 4);
    layout!(pmix_value_t, 32, 8);
}

#[test]
fn member_offsets() {
    member!(pmix_app_t, argv, 8, 8);
    member!(pmix_app_t, cmd, 0, 8);
    member!(pmix_app_t, cwd, 24, 8);
    member!(pmix_app_t, env, 16, 8);
    member!(pmix_app_t, info, 40, 8);
    member!(pmix_app_t, maxprocs, 32, 4);
    member!(pmix_app_t, ninfo, 48, 8);
    member!(pmix_byte_object_t, bytes, 0, 8);
    member!(pmix_byte_object_t, size, 8, 8);
    member!(pmix_coord_t, coord, 8, 8);
    member!(pmix_coord_t, dims, 16, 8);
    member!(pmix_coord_t, view, 0, 1);
    member!(pmix_cpuset_t, bitmap, 8, 8);
    member!(pmix_cpuset_t, source, 0, 8);
    member!(pmix_data_array_t, array, 16, 8);
    member!(pmix_data_array_t, size, 8, 8);
    member!(pmix_data_array_t, r#type, 0, 2);
    member!(pmix_data_buffer_t, base_ptr, 0, 8);
    member!(pmix_data_buffer_t, bytes_allocated, 24, 8);
    member!(pmix_data_buffer_t, bytes_used, 32, 8);
    member!(pmix_data_buffer_t, pack_ptr, 8, 8);
    member!(pmix_data_buffer_t, unpack_ptr, 16, 8);
    member!(pmix_device_distance_t, maxdist, 26, 2);
    member!(pmix_device_distance_t, mindist, 24, 2);
    member!(pmix_device_distance_t, osname, 8, 8);
    member!(pmix_device_distance_t, r#type, 16, 8);
    member!(pmix_device_distance_t, uuid, 0, 8);
    member!(pmix_disk_stats_t, disk, 0, 8);
    member!(pmix_disk_stats_t, milliseconds_io, 80, 8);
    member!(pmix_disk_stats_t, milliseconds_reading, 32, 8);
    member!(pmix_disk_stats_t, milliseconds_writing, 64, 8);
    member!(pmix_disk_stats_t, num_ios_in_progress, 72, 8);
    member!(pmix_disk_stats_t, num_reads_completed, 8, 8);
    member!(pmix_disk_stats_t, num_reads_merged, 16, 8);
    member!(pmix_disk_stats_t, num_sectors_read, 24, 8);
    member!(pmix_disk_stats_t, num_sectors_written, 56, 8);
    member!(pmix_disk_stats_t, num_writes_completed, 40, 8);
    member!(pmix_disk_stats_t, num_writes_merged, 48, 8);
    member!(pmix_disk_stats_t, weighted_milliseconds_io, 88, 8);
    member!(pmix_endpoint_t, endpt, 16, 16);
    member!(pmix_endpoint_t, osname, 8, 8);
    member!(pmix_endpoint_t, uuid, 0, 8);
    member!(pmix_envar_t, envar, 0, 8);
    member!(pmix_envar_t, separator, 16, 1);
    member!(pmix_envar_t, value, 8, 8);
    member!(pmix_fabric_t, index, 8, 8);
    member!(pmix_fabric_t, info, 16, 8);
    member!(pmix_fabric_t, module, 32, 8);
    member!(pmix_fabric_t, name, 0, 8);
    member!(pmix_fabric_t, ninfo, 24, 8);
    member!(pmix_geometry_t, coordinates, 24, 8);
    member!(pmix_geometry_t, fabric, 0, 8);
    member!(pmix_geometry_t, ncoords, 32, 8);
    member!(pmix_geometry_t, osname, 16, 8);
    member!(pmix_geometry_t, uuid, 8, 8);
    member!(pmix_info_t, flags, 512, 4);
    member!(pmix_info_t, key, 0, 512);
    member!(pmix_info_t, value, 520, 32);
    member!(pmix_net_stats_t, net_interface, 0, 8);
    member!(pmix_net_stats_t, num_bytes_recvd, 8, 8);
    member!(pmix_net_stats_t, num_bytes_sent, 32, 8);
    member!(pmix_net_stats_t, num_packets_recvd, 16, 8);
    member!(pmix_net_stats_t, num_packets_sent, 40, 8);
    member!(pmix_net_stats_t, num_recv_errs, 24, 8);
    member!(pmix_net_stats_t, num_send_errs, 48, 8);
    member!(pmix_node_stats_t, buffers, 28, 4);
    member!(pmix_node_stats_t, cached, 32, 4);
    member!(pmix_node_stats_t, diskstats, 72, 8);
    member!(pmix_node_stats_t, free_mem, 24, 4);
    member!(pmix_node_stats_t, la, 8, 4);
    member!(pmix_node_stats_t, la15, 16, 4);
    member!(pmix_node_stats_t, la5, 12, 4);
    member!(pmix_node_stats_t, mapped, 48, 4);
    member!(pmix_node_stats_t, ndiskstats, 80, 8);
    member!(pmix_node_stats_t, netstats, 88, 8);
    member!(pmix_node_stats_t, nnetstats, 96, 8);
    member!(pmix_node_stats_t, node, 0, 8);
    member!(pmix_node_stats_t, sample_time, 56, 16);
    member!(pmix_node_stats_t, swap_cached, 36, 4);
    member!(pmix_node_stats_t, swap_free, 44, 4);
    member!(pmix_node_stats_t, swap_total, 40, 4);
    member!(pmix_node_stats_t, total_mem, 20, 4);
    member!(pmix_pdata_t, key, 260, 512);
    member!(pmix_pdata_t, proc, 0, 260);
    member!(pmix_pdata_t, value, 776, 32);
    member!(pmix_proc_info_t, executable_name, 272, 8);
    member!(pmix_proc_info_t, exit_code, 284, 4);
    member!(pmix_proc_info_t, hostname, 264, 8);
    member!(pmix_proc_info_t, pid, 280, 4);
    member!(pmix_proc_info_t, proc, 0, 260);
    member!(pmix_proc_info_t, state, 288, 1);
    member!(pmix_proc_stats_t, cmd, 272, 8);
    member!(pmix_proc_stats_t, node, 0, 8);
    member!(pmix_proc_stats_t, num_threads, 312, 2);
    member!(pmix_proc_stats_t, peak_vsize, 328, 4);
    member!(pmix_proc_stats_t, percent_cpu, 304, 4);
    member!(pmix_proc_stats_t, pid, 268, 4);
    member!(pmix_proc_stats_t, priority, 308, 4);
    member!(pmix_proc_stats_t, proc, 8, 260);
    member!(pmix_proc_stats_t, processor, 332, 2);
    member!(pmix_proc_stats_t, pss, 316, 4);
    member!(pmix_proc_stats_t, rss, 324, 4);
    member!(pmix_proc_stats_t, sample_time, 336, 16);
    member!(pmix_proc_stats_t, state, 280, 1);
    member!(pmix_proc_stats_t, time, 288, 16);
    member!(pmix_proc_stats_t, vsize, 320, 4);
    member!(pmix_proc_t, nspace, 0, 256);
    member!(pmix_proc_t, rank, 256, 4);
    member!(pmix_query_t, keys, 0, 8);
    member!(pmix_query_t, nqual, 16, 8);
    member!(pmix_query_t, qualifiers, 8, 8);
    member!(pmix_regattr_t, description, 528, 8);
    member!(pmix_regattr_t, name, 0, 8);
    member!(pmix_regattr_t, string, 8, 512);
    member!(pmix_regattr_t, r#type, 520, 2);
    member!(pmix_server_module_t, abort, 16, 8);
    member!(pmix_server_module_t, allocate, 144, 8);
    member!(pmix_server_module_t, client_connected, 0, 8);
    member!(pmix_server_module_t, client_connected2, 216, 8);
    member!(pmix_server_module_t, client_finalized, 8, 8);
    member!(pmix_server_module_t, connect, 72, 8);
    member!(pmix_server_module_t, deregister_events, 96, 8);
    member!(pmix_server_module_t, direct_modex, 32, 8);
    member!(pmix_server_module_t, disconnect, 80, 8);
    member!(pmix_server_module_t, fabric, 208, 8);
    member!(pmix_server_module_t, fence_nb, 24, 8);
    member!(pmix_server_module_t, get_credential, 168, 8);
    member!(pmix_server_module_t, group, 200, 8);
    member!(pmix_server_module_t, iof_pull, 184, 8);
    member!(pmix_server_module_t, job_control, 152, 8);
    member!(pmix_server_module_t, listener, 104, 8);
    member!(pmix_server_module_t, log, 136, 8);
    member!(pmix_server_module_t, lookup, 48, 8);
    member!(pmix_server_module_t, monitor, 160, 8);
    member!(pmix_server_module_t, notify_event, 112, 8);
    member!(pmix_server_module_t, publish, 40, 8);
    member!(pmix_server_module_t, push_stdin, 192, 8);
    member!(pmix_server_module_t, query, 120, 8);
    member!(pmix_server_module_t, register_events, 88, 8);
    member!(pmix_server_module_t, spawn, 64, 8);
    member!(pmix_server_module_t, tool_connected, 128, 8);
    member!(pmix_server_module_t, unpublish, 56, 8);
    member!(pmix_server_module_t, validate_credential, 176, 8);
    member!(pmix_server_module_t, session_control, 224, 8);
    member!(pmix_topology_t, source, 0, 8);
    member!(pmix_topology_t, topology, 8, 8);
    member!(pmix_value_t, data, 8, 24);
    member!(pmix_value_t, r#type, 0, 2);
}
