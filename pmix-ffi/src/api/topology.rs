//! Topology and cpuset calls: `PMIx_Load_topology`, `PMIx_Topology_destruct`,
//! `PMIx_Parse_cpuset_string`, `PMIx_Get_cpuset`, `PMIx_Cpuset_destruct`,
//! `PMIx_Get_relative_locality` and the server's `PMIx_server_generate_locality_string` and
//! `PMIx_server_generate_cpuset_string`.
//!
//! The formats and rules live in `pmix_core::topology`; this module moves hwloc objects
//! across (`crate::hwloc`). All of them work without initialization (the reference answers
//! `PMIX_ERR_INIT` before init). A structure whose source names another library than hwloc
//! gets the reference's internal status `PMIX_ERR_TAKE_NEXT_OPTION` (-1366), as there.
//! docs/notes/topology.md lists the measured behaviour of the reference and our differences.

use core::ffi::c_char;

use pmix_core::Error;
use pmix_core::topology::{self as topo, BindEnvelope};
use pmix_sys::*;

use crate::{alloc, entry, hwloc, ptr};

/// Loads the local hardware topology and returns the process's shared `hwloc_topology_t`.
///
/// See PMIx Standard v5, `PMIx_Load_topology`.
///
/// The topology is discovered once (keeping important I/O objects), or read from the hwloc
/// XML file named by the environment variable `PMIX_MCA_pmix_hwloc_topo_file`. Every call
/// returns the same topology, which the library keeps for the life of the process: use it
/// read-only and do not destroy it (`PMIx_Topology_destruct` leaves it alone).
///
/// * `topo->source` NULL: sets `topo->topology`, and `topo->source` to a malloc'd copy of the
///   topology's source, "hwloc:<hwloc version>" (or "hwloc" for a file).
/// * `topo->source` set: it must name hwloc and be a case-insensitive prefix of that source
///   ("hwloc", "HWLOC:2.9"); then only `topo->topology` is set.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `topo`; -1366 (the reference's internal
/// `PMIX_ERR_TAKE_NEXT_OPTION`) for a source we do not match; `PMIX_ERR_NOT_SUPPORTED` when
/// hwloc cannot load a topology; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `topo` is NULL or a valid, writable `pmix_topology_t` whose `source` is NULL or a C string.
///
/// Ownership: `topo->topology` belongs to the library. A `topo->source` set by this call is
/// malloc'd: release it with `free()` or `PMIx_Topology_destruct`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Load_topology(topo: *mut pmix_topology_t) -> pmix_status_t {
    entry::status("PMIx_Load_topology", || {
        // SAFETY: per this function's contract.
        let t = unsafe { ptr::req_mut(topo) }?;
        let shared = hwloc::shared()?;
        // SAFETY: `source` is NULL or a C string.
        match unsafe { ptr::opt_pstr(t.source) } {
            Some(requested) => {
                topo::local()?.check_source(requested.as_bytes())?;
                t.topology = shared.handle();
            }
            None => {
                t.source = alloc::cstring(shared.source.as_bytes())?;
                t.topology = shared.handle();
            }
        }
        Ok(())
    })
}

/// Releases what a topology structure owns and zeroes it.
///
/// See PMIx Standard v5, `PMIx_Topology_destruct`.
///
/// For a structure whose source names hwloc: destroys the hwloc topology
/// (`hwloc_topology_destroy`) unless it is the shared one from `PMIx_Load_topology`, and
/// frees the source. Other structures, and NULL, are left untouched.
///
/// # Safety
/// `topo` is NULL or a valid `pmix_topology_t`; when its source names hwloc, the source is
/// malloc'd and the topology is NULL, the shared one, or owned by the structure.
///
/// Ownership: releases the contents, not the structure itself.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Topology_destruct(topo: *mut pmix_topology_t) {
    entry::guard("PMIx_Topology_destruct", (), || {
        // SAFETY: per this function's contract.
        if let Ok(t) = unsafe { ptr::req_mut(topo) } {
            // SAFETY: per this function's contract.
            unsafe { hwloc::topology_destruct(t) }
        }
    })
}

/// Parses a cpuset string ("hwloc:0-3,8") into a cpuset.
///
/// See PMIx Standard v5, `PMIx_Parse_cpuset_string`.
///
/// The part before the first ':' must start with "hwloc" (any case); the rest is read as
/// `hwloc_bitmap_list_sscanf` reads a list, an unreadable list giving the empty set. On
/// success `cpuset` is overwritten with source "hwloc" and a new hwloc bitmap. The string is
/// never modified (the reference writes into it).
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for NULL arguments or a string without ':'; -1366
/// (`PMIX_ERR_TAKE_NEXT_OPTION`) for another source; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `cpuset_string` is NULL or a C string; `cpuset` is NULL or a writable `pmix_cpuset_t`.
///
/// Ownership: release the result with `PMIx_Cpuset_destruct`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Parse_cpuset_string(
    cpuset_string: *const c_char,
    cpuset: *mut pmix_cpuset_t,
) -> pmix_status_t {
    entry::status("PMIx_Parse_cpuset_string", || {
        // SAFETY: per this function's contract.
        let (s, out) = unsafe { (ptr::cstr(cpuset_string)?, ptr::req_mut(cpuset)?) };
        let c = topo::parse_cpuset_string(s.to_bytes())?;
        *out = hwloc::cpuset_to_c(&c)?;
        Ok(())
    })
}

/// Reports the CPUs the process, or the calling thread, is bound to.
///
/// See PMIx Standard v5, `PMIx_Get_cpuset`.
///
/// `PMIX_CPUBIND_PROCESS` gives the union of the bindings of the process's threads,
/// `PMIX_CPUBIND_THREAD` the calling thread's. Sets `cpuset->bitmap` to a new hwloc bitmap,
/// and `cpuset->source` to "hwloc" when it was NULL.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL `cpuset` or another envelope; -1366
/// (`PMIX_ERR_TAKE_NEXT_OPTION`) when `cpuset->source` names another library;
/// `PMIX_ERR_NOT_FOUND` when the binding cannot be read; `PMIX_ERR_NOT_SUPPORTED` when no
/// topology can be loaded; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `cpuset` is NULL or a writable `pmix_cpuset_t` whose source is NULL or a C string.
///
/// Ownership: release the result with `PMIx_Cpuset_destruct`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_cpuset(
    cpuset: *mut pmix_cpuset_t,
    ref_: pmix_bind_envelope_t,
) -> pmix_status_t {
    entry::status("PMIx_Get_cpuset", || {
        // SAFETY: per this function's contract.
        let c = unsafe { ptr::req_mut(cpuset) }?;
        // SAFETY: `source` is NULL or a C string.
        let source = unsafe { ptr::opt_pstr(c.source) };
        if source
            .as_ref()
            .is_some_and(|s| !topo::is_hwloc_source(s.as_bytes()))
        {
            return Err(Error::Status(topo::PMIX_ERR_TAKE_NEXT_OPTION));
        }
        let envelope = BindEnvelope::from_raw(ref_)?;
        let list = topo::local()?.cpu_binding(envelope)?;
        let bitmap = hwloc::bitmap_from_list(&list)?;
        if source.is_none() {
            match alloc::cstring(topo::HWLOC.as_bytes()) {
                Ok(s) => c.source = s,
                Err(e) => {
                    // SAFETY: made above and not handed out.
                    unsafe { hwlocality_sys::hwloc_bitmap_free(bitmap) };
                    return Err(e);
                }
            }
        }
        c.bitmap = bitmap.cast();
        Ok(())
    })
}

/// Releases what a cpuset owns and zeroes it.
///
/// See PMIx Standard v5, `PMIx_Cpuset_destruct`.
///
/// For a cpuset whose source names hwloc, frees the bitmap (`hwloc_bitmap_free`) and the
/// source. Other cpusets, and NULL, are left untouched, as the reference leaves them.
///
/// # Safety
/// `cpuset` is NULL or a valid `pmix_cpuset_t`; when its source names hwloc, the source is
/// malloc'd and the bitmap is NULL or an hwloc bitmap owned by the cpuset.
///
/// Ownership: releases the contents, not the structure itself.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Cpuset_destruct(cpuset: *mut pmix_cpuset_t) {
    entry::guard("PMIx_Cpuset_destruct", (), || {
        // SAFETY: per this function's contract.
        if let Ok(c) = unsafe { ptr::req_mut(cpuset) } {
            // SAFETY: per this function's contract.
            unsafe { hwloc::cpuset_destruct(c) }
        }
    })
}

/// Computes the relative locality of two processes from their locality strings.
///
/// See PMIx Standard v5, `PMIx_Get_relative_locality`.
///
/// Accepts the strings `PMIx_server_generate_locality_string` makes (the values of
/// `PMIX_LOCALITY_STRING`), bare or prefixed with "hwloc:". The result is
/// `PMIX_LOCALITY_SHARE_NODE` plus the bit of every level (NUMA node, package, L3, L2, L1,
/// core, hardware thread) at which both strings name an overlapping object.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL argument; -1366
/// (`PMIX_ERR_TAKE_NEXT_OPTION`) when a string is not a locality string; `PMIX_ERROR` when
/// overlapping tokens carry an unknown level code. (The reference, 4.2, accepts only
/// "hwloc:"-prefixed strings and returns -1366 even after computing the locality.)
///
/// # Safety
/// `locality1` and `locality2` are NULL or C strings; `locality` is NULL or writable.
///
/// Ownership: nothing is allocated.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_Get_relative_locality(
    locality1: *const c_char,
    locality2: *const c_char,
    locality: *mut pmix_locality_t,
) -> pmix_status_t {
    entry::status("PMIx_Get_relative_locality", || {
        // SAFETY: per this function's contract.
        let (a, b, out) = unsafe {
            (
                ptr::cstr(locality1)?,
                ptr::cstr(locality2)?,
                ptr::req_mut(locality)?,
            )
        };
        *out = topo::relative_locality(a.to_bytes(), b.to_bytes())?;
        Ok(())
    })
}

/// Generates the locality string of a cpuset (the value a host stores as
/// `PMIX_LOCALITY_STRING`).
///
/// See PMIx Standard v5, `PMIx_server_generate_locality_string`.
///
/// For each level of the process's topology that is a package, an L3, L2 or L1 data cache,
/// a core or a hardware thread, in topology order, then for the NUMA nodes: the level's code
/// (SK, L3, L2, L1, CR, HT, NM) followed by the logical indices of the objects the cpuset
/// overlaps, in hwloc list syntax, the levels separated by ':'. For example
/// "SK0:L30:L20-1:L10-1:CR0-1:HT0-1:NM0". Sets `*locality` to NULL for an unbound process
/// (no bitmap, or a full one) or a cpuset that overlaps no object.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL argument or a cpuset without source
/// (`*locality` set to NULL when writable; the reference crashes); -1366
/// (`PMIX_ERR_TAKE_NEXT_OPTION`) for another source; `PMIX_ERR_NOT_SUPPORTED` when no
/// topology can be loaded; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `cpuset` is NULL or a valid `pmix_cpuset_t`; `locality` is NULL or writable.
///
/// Ownership: `*locality` is a malloc'd C string (or NULL); release it with `free()`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_generate_locality_string(
    cpuset: *const pmix_cpuset_t,
    locality: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_server_generate_locality_string", || {
        // SAFETY: per this function's contract.
        let (c, out) = unsafe { (ptr::req(cpuset), ptr::req_mut(locality)?) };
        let c = match c {
            Ok(c) if !c.source.is_null() => c,
            _ => {
                *out = core::ptr::null_mut();
                return Err(Error::BadParam);
            }
        };
        let s = topo::local()?.locality_string(&hwloc::cpuset_view(c)?)?;
        *out = alloc::opt_cstring(s.as_ref())?;
        Ok(())
    })
}

/// Generates the cpuset string of a cpuset: "hwloc:" and the bitmap in hwloc list syntax
/// ("hwloc:0-3,8"), the form `PMIx_Parse_cpuset_string` reads.
///
/// See PMIx Standard v5, `PMIx_server_generate_cpuset_string`.
///
/// # Returns
/// `PMIX_SUCCESS`; `PMIX_ERR_BAD_PARAM` for a NULL argument, or a cpuset without bitmap or
/// source (`*cpuset_string` set to NULL when writable; the reference crashes without source);
/// -1366 (`PMIX_ERR_TAKE_NEXT_OPTION`) for another source; `PMIX_ERR_NOMEM`.
///
/// # Safety
/// `cpuset` is NULL or a valid `pmix_cpuset_t`; `cpuset_string` is NULL or writable.
///
/// Ownership: `*cpuset_string` is a malloc'd C string; release it with `free()`.
///
/// Threading: any thread; no callbacks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PMIx_server_generate_cpuset_string(
    cpuset: *const pmix_cpuset_t,
    cpuset_string: *mut *mut c_char,
) -> pmix_status_t {
    entry::status("PMIx_server_generate_cpuset_string", || {
        // SAFETY: per this function's contract.
        let (c, out) = unsafe { (ptr::req(cpuset), ptr::req_mut(cpuset_string)?) };
        let c = match c {
            Ok(c) if !c.source.is_null() && !c.bitmap.is_null() => c,
            _ => {
                *out = core::ptr::null_mut();
                return Err(Error::BadParam);
            }
        };
        let s = topo::cpuset_string(&hwloc::cpuset_view(c)?)?;
        *out = alloc::cstring(s.as_bytes())?;
        Ok(())
    })
}
