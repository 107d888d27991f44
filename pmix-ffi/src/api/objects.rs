//! The per-type lifecycle functions of the 5.0 ABI: `PMIx_<Type>_construct`, `_destruct`,
//! `_create`, `_free` and `_release` (and the few `_load`/`_xfer` helpers beside them).
//!
//! OpenPMIx 4.2 had these as header macros that expanded inline; 5.0's headers turn the macros
//! into calls, so binaries built against them need the functions. The rule for every family:
//! `construct` sets the type's defaults (zero, with the exceptions each family names),
//! `destruct` releases what the object owns and leaves it usable, `create(n)` is a malloc'd
//! array of `n` constructed objects (NULL for 0), `free(p, n)` destructs each and frees the
//! array, `release(p)` is `free(p, 1)`. All memory is libc's. NULL objects are ignored.
//!
//! Where we differ from 5.0.11 (`docs/notes/abi-5.0.md` tables each case): `PMIx_Coord_create`
//! constructs every element (5.0.11 only the first, leaving the rest for `free` to crash on),
//! `PMIx_Multicluster_nspace_parse` clears the namespace it writes, and
//! `PMIx_Data_array_construct` gives `PMIX_POINTER` elements a pointer's room.

use core::ffi::{c_char, c_void};

use pmix_sys::*;

use crate::alloc;
use crate::convert::{self, Zeroable};
use crate::entry;

/// Runs `f` on `*p` unless `p` is NULL, behind the panic guard.
fn with<T>(export: &str, p: *mut T, f: impl FnOnce(&mut T)) {
    entry::guard(export, (), || {
        if !p.is_null() {
            // SAFETY: the exported function's contract: `p` is NULL or a valid object.
            f(unsafe { &mut *p })
        }
    })
}

/// `n` objects made by `init`, in one calloc'd array; NULL for 0 or when memory runs out.
fn create_with<T>(export: &str, n: usize, init: impl Fn(&mut T)) -> *mut T {
    entry::guard(export, core::ptr::null_mut(), || {
        let Ok(p) = alloc::calloc::<T>(n) else {
            return core::ptr::null_mut();
        };
        for i in 0..n {
            // SAFETY: element i lies in the zeroed array of n elements just allocated.
            init(unsafe { &mut *p.add(i) });
        }
        p
    })
}

/// Destructs `n` objects of type `ty` at `p` and frees the array.
fn free_array<T>(export: &str, p: *mut T, n: usize, ty: pmix_data_type_t) {
    entry::guard(export, (), || {
        // SAFETY: the exported function's contract: NULL or a malloc'd array of n objects.
        unsafe { convert::array_free(p.cast(), n, ty) }
    })
}

/// Releases what one object of type `ty` owns.
fn destruct_one<T>(export: &str, p: *mut T, ty: pmix_data_type_t) {
    entry::guard(export, (), || {
        if !p.is_null() {
            // SAFETY: the exported function's contract: a valid object of that type.
            unsafe { convert::elem_destruct(p.cast(), ty) }
        }
    })
}

fn zero<T: Zeroable>(p: &mut T) {
    *p = T::zeroed();
}

// ---- constructors with defaults other than zero -------------------------------------------

fn proc_init(p: &mut pmix_proc_t) {
    zero(p);
    p.rank = PMIX_RANK_UNDEF;
}

fn proc_info_init(p: &mut pmix_proc_info_t) {
    zero(p);
    p.state = PMIX_PROC_STATE_UNDEF;
}

fn devdist_init(d: &mut pmix_device_distance_t) {
    zero(d);
    d.r#type = PMIX_DEVTYPE_UNKNOWN;
    d.mindist = u16::MAX;
    d.maxdist = u16::MAX;
}

fn coord_init(c: &mut pmix_coord_t) {
    zero(c);
    c.view = PMIX_COORD_VIEW_UNDEF;
}

// ---- pmix_value_t --------------------------------------------------------------------------

/// Constructs a `pmix_value_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_construct(p: *mut pmix_value_t) {
    with("PMIx_Value_construct", p, zero)
}

/// A malloc'd array of `n` constructed `pmix_value_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Value_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_create(n: usize) -> *mut pmix_value_t {
    create_with("PMIx_Value_create", n, zero)
}

/// Destructs `n` `pmix_value_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Value_free(p: *mut pmix_value_t, n: usize) {
    free_array("PMIx_Value_free", p, n, PMIX_VALUE)
}

// ---- pmix_info_t ---------------------------------------------------------------------------

/// Constructs a `pmix_info_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_construct(p: *mut pmix_info_t) {
    with("PMIx_Info_construct", p, zero)
}

/// Releases what a `pmix_info_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_destruct(p: *mut pmix_info_t) {
    destruct_one("PMIx_Info_destruct", p, PMIX_INFO)
}

/// A malloc'd array of `n` constructed `pmix_info_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Info_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_create(n: usize) -> *mut pmix_info_t {
    create_with("PMIx_Info_create", n, zero)
}

/// Destructs `n` `pmix_info_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Info_free(p: *mut pmix_info_t, n: usize) {
    free_array("PMIx_Info_free", p, n, PMIX_INFO)
}

// ---- pmix_coord_t --------------------------------------------------------------------------

/// Constructs a `pmix_coord_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Coord_construct(p: *mut pmix_coord_t) {
    with("PMIx_Coord_construct", p, coord_init)
}

/// Releases what a `pmix_coord_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Coord_destruct(p: *mut pmix_coord_t) {
    destruct_one("PMIx_Coord_destruct", p, PMIX_COORD)
}

/// Destructs `n` `pmix_coord_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Coord_free(p: *mut pmix_coord_t, n: usize) {
    free_array("PMIx_Coord_free", p, n, PMIX_COORD)
}

// ---- pmix_topology_t -----------------------------------------------------------------------

/// Constructs a `pmix_topology_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Topology_construct(p: *mut pmix_topology_t) {
    with("PMIx_Topology_construct", p, zero)
}

/// A malloc'd array of `n` constructed `pmix_topology_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Topology_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Topology_create(n: usize) -> *mut pmix_topology_t {
    create_with("PMIx_Topology_create", n, zero)
}

/// Destructs `n` `pmix_topology_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Topology_free(p: *mut pmix_topology_t, n: usize) {
    free_array("PMIx_Topology_free", p, n, PMIX_TOPO)
}

// ---- pmix_cpuset_t -------------------------------------------------------------------------

/// Constructs a `pmix_cpuset_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Cpuset_construct(p: *mut pmix_cpuset_t) {
    with("PMIx_Cpuset_construct", p, zero)
}

/// A malloc'd array of `n` constructed `pmix_cpuset_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Cpuset_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Cpuset_create(n: usize) -> *mut pmix_cpuset_t {
    create_with("PMIx_Cpuset_create", n, zero)
}

/// Destructs `n` `pmix_cpuset_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Cpuset_free(p: *mut pmix_cpuset_t, n: usize) {
    free_array("PMIx_Cpuset_free", p, n, PMIX_PROC_CPUSET)
}

// ---- pmix_geometry_t -----------------------------------------------------------------------

/// Constructs a `pmix_geometry_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Geometry_construct(p: *mut pmix_geometry_t) {
    with("PMIx_Geometry_construct", p, zero)
}

/// Releases what a `pmix_geometry_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Geometry_destruct(p: *mut pmix_geometry_t) {
    destruct_one("PMIx_Geometry_destruct", p, PMIX_GEOMETRY)
}

/// A malloc'd array of `n` constructed `pmix_geometry_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Geometry_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Geometry_create(n: usize) -> *mut pmix_geometry_t {
    create_with("PMIx_Geometry_create", n, zero)
}

/// Destructs `n` `pmix_geometry_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Geometry_free(p: *mut pmix_geometry_t, n: usize) {
    free_array("PMIx_Geometry_free", p, n, PMIX_GEOMETRY)
}

// ---- pmix_device_distance_t ----------------------------------------------------------------

/// Constructs a `pmix_device_distance_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_distance_construct(p: *mut pmix_device_distance_t) {
    with("PMIx_Device_distance_construct", p, devdist_init)
}

/// Releases what a `pmix_device_distance_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_distance_destruct(p: *mut pmix_device_distance_t) {
    destruct_one("PMIx_Device_distance_destruct", p, PMIX_DEVICE_DIST)
}

/// A malloc'd array of `n` constructed `pmix_device_distance_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Device_distance_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_distance_create(n: usize) -> *mut pmix_device_distance_t {
    create_with("PMIx_Device_distance_create", n, devdist_init)
}

/// Destructs `n` `pmix_device_distance_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Device_distance_free(p: *mut pmix_device_distance_t, n: usize) {
    free_array("PMIx_Device_distance_free", p, n, PMIX_DEVICE_DIST)
}

// ---- pmix_byte_object_t --------------------------------------------------------------------

/// Constructs a `pmix_byte_object_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Byte_object_construct(p: *mut pmix_byte_object_t) {
    with("PMIx_Byte_object_construct", p, zero)
}

/// Releases what a `pmix_byte_object_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Byte_object_destruct(p: *mut pmix_byte_object_t) {
    destruct_one("PMIx_Byte_object_destruct", p, PMIX_BYTE_OBJECT)
}

/// A malloc'd array of `n` constructed `pmix_byte_object_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Byte_object_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Byte_object_create(n: usize) -> *mut pmix_byte_object_t {
    create_with("PMIx_Byte_object_create", n, zero)
}

/// Destructs `n` `pmix_byte_object_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Byte_object_free(p: *mut pmix_byte_object_t, n: usize) {
    free_array("PMIx_Byte_object_free", p, n, PMIX_BYTE_OBJECT)
}

// ---- pmix_endpoint_t -----------------------------------------------------------------------

/// Constructs a `pmix_endpoint_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Endpoint_construct(p: *mut pmix_endpoint_t) {
    with("PMIx_Endpoint_construct", p, zero)
}

/// Releases what a `pmix_endpoint_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Endpoint_destruct(p: *mut pmix_endpoint_t) {
    destruct_one("PMIx_Endpoint_destruct", p, PMIX_ENDPOINT)
}

/// A malloc'd array of `n` constructed `pmix_endpoint_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Endpoint_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Endpoint_create(n: usize) -> *mut pmix_endpoint_t {
    create_with("PMIx_Endpoint_create", n, zero)
}

/// Destructs `n` `pmix_endpoint_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Endpoint_free(p: *mut pmix_endpoint_t, n: usize) {
    free_array("PMIx_Endpoint_free", p, n, PMIX_ENDPOINT)
}

// ---- pmix_envar_t --------------------------------------------------------------------------

/// Constructs a `pmix_envar_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Envar_construct(p: *mut pmix_envar_t) {
    with("PMIx_Envar_construct", p, zero)
}

/// Releases what a `pmix_envar_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Envar_destruct(p: *mut pmix_envar_t) {
    destruct_one("PMIx_Envar_destruct", p, PMIX_ENVAR)
}

/// A malloc'd array of `n` constructed `pmix_envar_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Envar_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Envar_create(n: usize) -> *mut pmix_envar_t {
    create_with("PMIx_Envar_create", n, zero)
}

/// Destructs `n` `pmix_envar_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Envar_free(p: *mut pmix_envar_t, n: usize) {
    free_array("PMIx_Envar_free", p, n, PMIX_ENVAR)
}

// ---- pmix_data_buffer_t --------------------------------------------------------------------

/// Constructs a `pmix_data_buffer_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_construct(p: *mut pmix_data_buffer_t) {
    with("PMIx_Data_buffer_construct", p, zero)
}

/// Releases what a `pmix_data_buffer_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_destruct(p: *mut pmix_data_buffer_t) {
    destruct_one("PMIx_Data_buffer_destruct", p, PMIX_DATA_BUFFER)
}

// ---- pmix_proc_t ---------------------------------------------------------------------------

/// Constructs a `pmix_proc_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_construct(p: *mut pmix_proc_t) {
    with("PMIx_Proc_construct", p, proc_init)
}

/// Releases what a `pmix_proc_t` owns and constructs it again.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_destruct(p: *mut pmix_proc_t) {
    destruct_one("PMIx_Proc_destruct", p, PMIX_PROC);
    with("PMIx_Proc_destruct", p, proc_init)
}

/// A malloc'd array of `n` constructed `pmix_proc_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Proc_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_create(n: usize) -> *mut pmix_proc_t {
    create_with("PMIx_Proc_create", n, proc_init)
}

/// Destructs `n` `pmix_proc_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_free(p: *mut pmix_proc_t, n: usize) {
    free_array("PMIx_Proc_free", p, n, PMIX_PROC)
}

// ---- pmix_proc_info_t ----------------------------------------------------------------------

/// Constructs a `pmix_proc_info_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_info_construct(p: *mut pmix_proc_info_t) {
    with("PMIx_Proc_info_construct", p, proc_info_init)
}

/// Releases what a `pmix_proc_info_t` owns and constructs it again.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_info_destruct(p: *mut pmix_proc_info_t) {
    destruct_one("PMIx_Proc_info_destruct", p, PMIX_PROC_INFO);
    with("PMIx_Proc_info_destruct", p, proc_info_init)
}

/// A malloc'd array of `n` constructed `pmix_proc_info_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Proc_info_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_info_create(n: usize) -> *mut pmix_proc_info_t {
    create_with("PMIx_Proc_info_create", n, proc_info_init)
}

/// Destructs `n` `pmix_proc_info_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_info_free(p: *mut pmix_proc_info_t, n: usize) {
    free_array("PMIx_Proc_info_free", p, n, PMIX_PROC_INFO)
}

// ---- pmix_proc_stats_t ---------------------------------------------------------------------

/// Constructs a `pmix_proc_stats_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_stats_construct(p: *mut pmix_proc_stats_t) {
    with("PMIx_Proc_stats_construct", p, zero)
}

/// Releases what a `pmix_proc_stats_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_stats_destruct(p: *mut pmix_proc_stats_t) {
    destruct_one("PMIx_Proc_stats_destruct", p, PMIX_PROC_STATS)
}

/// A malloc'd array of `n` constructed `pmix_proc_stats_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Proc_stats_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_stats_create(n: usize) -> *mut pmix_proc_stats_t {
    create_with("PMIx_Proc_stats_create", n, zero)
}

/// Destructs `n` `pmix_proc_stats_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Proc_stats_free(p: *mut pmix_proc_stats_t, n: usize) {
    free_array("PMIx_Proc_stats_free", p, n, PMIX_PROC_STATS)
}

// ---- pmix_disk_stats_t ---------------------------------------------------------------------

/// Constructs a `pmix_disk_stats_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disk_stats_construct(p: *mut pmix_disk_stats_t) {
    with("PMIx_Disk_stats_construct", p, zero)
}

/// Releases what a `pmix_disk_stats_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disk_stats_destruct(p: *mut pmix_disk_stats_t) {
    destruct_one("PMIx_Disk_stats_destruct", p, PMIX_DISK_STATS)
}

/// A malloc'd array of `n` constructed `pmix_disk_stats_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Disk_stats_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disk_stats_create(n: usize) -> *mut pmix_disk_stats_t {
    create_with("PMIx_Disk_stats_create", n, zero)
}

/// Destructs `n` `pmix_disk_stats_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Disk_stats_free(p: *mut pmix_disk_stats_t, n: usize) {
    free_array("PMIx_Disk_stats_free", p, n, PMIX_DISK_STATS)
}

// ---- pmix_net_stats_t ----------------------------------------------------------------------

/// Constructs a `pmix_net_stats_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Net_stats_construct(p: *mut pmix_net_stats_t) {
    with("PMIx_Net_stats_construct", p, zero)
}

/// Releases what a `pmix_net_stats_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Net_stats_destruct(p: *mut pmix_net_stats_t) {
    destruct_one("PMIx_Net_stats_destruct", p, PMIX_NET_STATS)
}

/// A malloc'd array of `n` constructed `pmix_net_stats_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Net_stats_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Net_stats_create(n: usize) -> *mut pmix_net_stats_t {
    create_with("PMIx_Net_stats_create", n, zero)
}

/// Destructs `n` `pmix_net_stats_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Net_stats_free(p: *mut pmix_net_stats_t, n: usize) {
    free_array("PMIx_Net_stats_free", p, n, PMIX_NET_STATS)
}

// ---- pmix_node_stats_t ---------------------------------------------------------------------

/// Constructs a `pmix_node_stats_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Node_stats_construct(p: *mut pmix_node_stats_t) {
    with("PMIx_Node_stats_construct", p, zero)
}

/// Releases what a `pmix_node_stats_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Node_stats_destruct(p: *mut pmix_node_stats_t) {
    destruct_one("PMIx_Node_stats_destruct", p, PMIX_NODE_STATS)
}

/// A malloc'd array of `n` constructed `pmix_node_stats_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Node_stats_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Node_stats_create(n: usize) -> *mut pmix_node_stats_t {
    create_with("PMIx_Node_stats_create", n, zero)
}

/// Destructs `n` `pmix_node_stats_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Node_stats_free(p: *mut pmix_node_stats_t, n: usize) {
    free_array("PMIx_Node_stats_free", p, n, PMIX_NODE_STATS)
}

// ---- pmix_pdata_t --------------------------------------------------------------------------

/// Constructs a `pmix_pdata_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Pdata_construct(p: *mut pmix_pdata_t) {
    with("PMIx_Pdata_construct", p, zero)
}

/// Releases what a `pmix_pdata_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Pdata_destruct(p: *mut pmix_pdata_t) {
    destruct_one("PMIx_Pdata_destruct", p, PMIX_PDATA)
}

/// A malloc'd array of `n` constructed `pmix_pdata_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Pdata_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Pdata_create(n: usize) -> *mut pmix_pdata_t {
    create_with("PMIx_Pdata_create", n, zero)
}

/// Destructs `n` `pmix_pdata_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Pdata_free(p: *mut pmix_pdata_t, n: usize) {
    free_array("PMIx_Pdata_free", p, n, PMIX_PDATA)
}

// ---- pmix_app_t ----------------------------------------------------------------------------

/// Constructs a `pmix_app_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_construct(p: *mut pmix_app_t) {
    with("PMIx_App_construct", p, zero)
}

/// Releases what a `pmix_app_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_destruct(p: *mut pmix_app_t) {
    destruct_one("PMIx_App_destruct", p, PMIX_APP)
}

/// A malloc'd array of `n` constructed `pmix_app_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_App_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_create(n: usize) -> *mut pmix_app_t {
    create_with("PMIx_App_create", n, zero)
}

/// Destructs `n` `pmix_app_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_free(p: *mut pmix_app_t, n: usize) {
    free_array("PMIx_App_free", p, n, PMIX_APP)
}

/// `PMIx_App_free(p, 1)`.
///
/// # Safety
/// `p` is NULL or one malloc'd object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_release(p: *mut pmix_app_t) {
    free_array("PMIx_App_release", p, 1, PMIX_APP)
}

// ---- pmix_query_t --------------------------------------------------------------------------

/// Constructs a `pmix_query_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_construct(p: *mut pmix_query_t) {
    with("PMIx_Query_construct", p, zero)
}

/// Releases what a `pmix_query_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_destruct(p: *mut pmix_query_t) {
    destruct_one("PMIx_Query_destruct", p, PMIX_QUERY)
}

/// A malloc'd array of `n` constructed `pmix_query_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Query_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_create(n: usize) -> *mut pmix_query_t {
    create_with("PMIx_Query_create", n, zero)
}

/// Destructs `n` `pmix_query_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_free(p: *mut pmix_query_t, n: usize) {
    free_array("PMIx_Query_free", p, n, PMIX_QUERY)
}

/// `PMIx_Query_free(p, 1)`.
///
/// # Safety
/// `p` is NULL or one malloc'd object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_release(p: *mut pmix_query_t) {
    free_array("PMIx_Query_release", p, 1, PMIX_QUERY)
}

// ---- pmix_regattr_t ------------------------------------------------------------------------

/// Constructs a `pmix_regattr_t`: its defaults (see the module comment).
///
/// # Safety
/// `p` is NULL or points to writable memory for one object.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_construct(p: *mut pmix_regattr_t) {
    with("PMIx_Regattr_construct", p, zero)
}

/// Releases what a `pmix_regattr_t` owns; it stays usable.
///
/// # Safety
/// `p` is NULL or a valid object whose pointers are libc-allocated or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_destruct(p: *mut pmix_regattr_t) {
    destruct_one("PMIx_Regattr_destruct", p, PMIX_REGATTR)
}

/// A malloc'd array of `n` constructed `pmix_regattr_t`; NULL for 0 or when memory runs out.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Regattr_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_create(n: usize) -> *mut pmix_regattr_t {
    create_with("PMIx_Regattr_create", n, zero)
}

/// Destructs `n` `pmix_regattr_t` and frees the array; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd array of `n` valid objects.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_free(p: *mut pmix_regattr_t, n: usize) {
    free_array("PMIx_Regattr_free", p, n, PMIX_REGATTR)
}

// ---- the functions beside the families -----------------------------------------------------

/// `number` coordinates of `dims` zeroed dimensions each (view `PMIX_COORD_VIEW_UNDEF`);
/// NULL for `number` 0 or when memory runs out. 5.0.11 sets up only the first element.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Coord_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Coord_create(dims: usize, number: usize) -> *mut pmix_coord_t {
    entry::guard("PMIx_Coord_create", core::ptr::null_mut(), || {
        let Ok(p) = alloc::calloc::<pmix_coord_t>(number) else {
            return core::ptr::null_mut();
        };
        for i in 0..number {
            // SAFETY: element i lies in the zeroed array just allocated.
            let c = unsafe { &mut *p.add(i) };
            coord_init(c);
            c.dims = dims;
            match alloc::calloc::<u32>(dims) {
                Ok(a) => c.coord = a,
                Err(_) => {
                    // SAFETY: elements 0..=i are constructed; the rest are zero.
                    unsafe { convert::array_free(p.cast(), number, PMIX_COORD) };
                    return core::ptr::null_mut();
                }
            }
        }
        p
    })
}

/// One malloc'd, empty data buffer; NULL when memory runs out.
///
/// # Safety
/// No arguments. Ownership: release with `PMIx_Data_buffer_release`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_create() -> *mut pmix_data_buffer_t {
    create_with("PMIx_Data_buffer_create", 1, zero)
}

/// Destructs the buffer and frees it; NULL is ignored.
///
/// # Safety
/// `b` is NULL or a malloc'd buffer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_release(b: *mut pmix_data_buffer_t) {
    free_array("PMIx_Data_buffer_release", b, 1, PMIX_DATA_BUFFER)
}

/// Gives the buffer `sz` packed bytes to unpack: `PMIx_Data_load` with a byte object of
/// `bytes` (the buffer takes them over).
///
/// # Safety
/// As `PMIx_Data_load`; `bytes` is NULL or malloc'd with `sz` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_load(
    b: *mut pmix_data_buffer_t,
    bytes: *mut c_char,
    sz: usize,
) {
    let mut bo = pmix_byte_object_t { bytes, size: sz };
    // SAFETY: per this function's contract.
    unsafe { super::data::PMIx_Data_load(b, &mut bo) };
}

/// Hands the buffer's unread bytes to the caller (`PMIx_Data_unload`): `*bytes` and `*sz`,
/// or NULL and 0 when that fails.
///
/// # Safety
/// As `PMIx_Data_unload`; `bytes` and `sz` are NULL or writable. Ownership: `free(*bytes)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_buffer_unload(
    b: *mut pmix_data_buffer_t,
    bytes: *mut *mut c_char,
    sz: *mut usize,
) {
    entry::guard("PMIx_Data_buffer_unload", (), || {
        if bytes.is_null() || sz.is_null() {
            return;
        }
        let mut bo = pmix_byte_object_t::zeroed();
        // SAFETY: per this function's contract.
        let rc = unsafe { super::data::PMIx_Data_unload(b, &mut bo) };
        if rc != PMIX_SUCCESS {
            bo = pmix_byte_object_t::zeroed();
        }
        // SAFETY: per this function's contract.
        unsafe {
            *bytes = bo.bytes;
            *sz = bo.size;
        }
    })
}

/// Points the byte object at `d` and `sz` (it takes `d` over, no copy).
///
/// # Safety
/// `b` is NULL or writable; `d` NULL or malloc'd.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Byte_object_load(
    b: *mut pmix_byte_object_t,
    d: *mut c_char,
    sz: usize,
) {
    with("PMIx_Byte_object_load", b, |b| {
        b.bytes = d;
        b.size = sz;
    })
}

/// Sets the envar's name and value to copies of `var` and `value` (a NULL leaves that member
/// as it was) and its separator.
///
/// # Safety
/// `e` is NULL or writable; `var` and `value` NULL or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Envar_load(
    e: *mut pmix_envar_t,
    var: *mut c_char,
    value: *mut c_char,
    separator: c_char,
) {
    with("PMIx_Envar_load", e, |e| {
        // SAFETY: per this function's contract.
        unsafe {
            if !var.is_null() {
                e.envar = libc::strdup(var);
            }
            if !value.is_null() {
                e.value = libc::strdup(value);
            }
        }
        e.separator = separator;
    })
}

/// Gives the app `n` constructed infos (replacing the pointer, as 5.0.11 does).
///
/// # Safety
/// `p` is NULL or writable. Ownership: the infos belong to the app.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_App_info_create(p: *mut pmix_app_t, n: usize) {
    with("PMIx_App_info_create", p, |a| {
        a.info = create_with("PMIx_App_info_create", n, zero);
        a.ninfo = if a.info.is_null() { 0 } else { n };
    })
}

/// Gives the query `n` constructed qualifiers (replacing the pointer, as 5.0.11 does).
///
/// # Safety
/// `p` is NULL or writable. Ownership: the qualifiers belong to the query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Query_qualifiers_create(p: *mut pmix_query_t, n: usize) {
    with("PMIx_Query_qualifiers_create", p, |q| {
        q.qualifiers = create_with("PMIx_Query_qualifiers_create", n, zero);
        q.nqual = if q.qualifiers.is_null() { 0 } else { n };
    })
}

/// Fills a registered attribute: a copy of `name`, `key` loaded into its string, the type,
/// and `description` appended to its description lines (NULLs leave members as they were).
///
/// # Safety
/// `info` is NULL or a valid regattr; the strings NULL or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_load(
    info: *mut pmix_regattr_t,
    name: *const c_char,
    key: *const c_char,
    type_: pmix_data_type_t,
    description: *const c_char,
) {
    with("PMIx_Regattr_load", info, |r| {
        // SAFETY: per this function's contract.
        unsafe {
            if !name.is_null() {
                r.name = libc::strdup(name);
            }
            if !key.is_null() {
                super::ids::PMIx_Load_key(r.string.as_mut_ptr(), key);
            }
            r.r#type = type_;
            if !description.is_null() {
                super::argv::PMIx_Argv_append_nosize(&mut r.description, description);
            }
        }
    })
}

/// Makes `dest` a deep copy of `src` (`dest` is constructed first, not destructed).
///
/// # Safety
/// `dest` is NULL or writable; `src` NULL or a valid regattr.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Regattr_xfer(dest: *mut pmix_regattr_t, src: *const pmix_regattr_t) {
    entry::guard("PMIx_Regattr_xfer", (), || {
        if dest.is_null() || src.is_null() {
            return;
        }
        // SAFETY: per this function's contract.
        let (d, s) = unsafe { (&mut *dest, &*src) };
        zero(d);
        // SAFETY: `s.name` is NULL or a C string; `s.string` a key; `s.description` NULL or
        // a NULL-terminated array.
        unsafe {
            if !s.name.is_null() {
                d.name = libc::strdup(s.name);
            }
            super::ids::PMIx_Load_key(d.string.as_mut_ptr(), s.string.as_ptr());
            d.r#type = s.r#type;
            d.description = super::argv::PMIx_Argv_copy(s.description);
        }
    })
}

/// An empty data array of type `type_`.
///
/// # Safety
/// `p` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_array_init(p: *mut pmix_data_array_t, type_: pmix_data_type_t) {
    with("PMIx_Data_array_init", p, |d| {
        d.array = core::ptr::null_mut();
        d.r#type = type_;
        d.size = 0;
    })
}

/// A data array of `num` constructed elements of type `type_` (each of the type's
/// `_construct`, zero for plain types); an unknown type gives an empty array.
///
/// # Safety
/// `p` is NULL or writable (its previous contents are not released).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_array_construct(
    p: *mut pmix_data_array_t,
    num: usize,
    type_: pmix_data_type_t,
) {
    with("PMIx_Data_array_construct", p, |d| {
        d.r#type = type_;
        d.size = num;
        d.array = core::ptr::null_mut();
        if num == 0 {
            return;
        }
        match construct_elems(num, type_) {
            Some(a) => d.array = a,
            None => d.size = 0,
        }
    })
}

/// `num` constructed elements of type `ty`; None for an unknown type or no memory.
fn construct_elems(num: usize, ty: pmix_data_type_t) -> Option<*mut c_void> {
    let size = convert::elem_size(ty).ok()?;
    let a = alloc::calloc_bytes(num, size).ok()?;
    for i in 0..num {
        // SAFETY: element i lies within the zeroed array of `num` elements of `size` bytes.
        let e = unsafe { a.cast::<u8>().add(i * size) };
        // SAFETY: each cast is the layout `ty` selects.
        unsafe {
            match ty {
                PMIX_PROC => proc_init(&mut *e.cast()),
                PMIX_PROC_INFO => proc_info_init(&mut *e.cast()),
                PMIX_DEVICE_DIST => devdist_init(&mut *e.cast()),
                PMIX_COORD => coord_init(&mut *e.cast()),
                _ => {}
            }
        }
    }
    Some(a)
}

/// A malloc'd data array holding `n` constructed elements of type `type_`; NULL for 0.
///
/// # Safety
/// No pointer arguments. Ownership: release with `PMIx_Data_array_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_array_create(
    n: usize,
    type_: pmix_data_type_t,
) -> *mut pmix_data_array_t {
    if n == 0 {
        return core::ptr::null_mut();
    }
    let p = create_with("PMIx_Data_array_create", 1, zero);
    // SAFETY: `p` is NULL or one zeroed data array.
    unsafe { PMIx_Data_array_construct(p, n, type_) };
    p
}

/// Destructs the data array and frees it; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a malloc'd data array.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Data_array_free(p: *mut pmix_data_array_t) {
    free_array("PMIx_Data_array_free", p, 1, PMIX_DATA_ARRAY)
}
