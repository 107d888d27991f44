//! `pmix_mca_base_select`: the component of highest priority wins; the others are closed.

use super::{
    Component, PMIX_ERR_BAD_PARAM, PMIX_ERR_FATAL, PMIX_ERR_NOT_FOUND, PMIX_SUCCESS,
    VERBOSE_COMPONENT, components_close, list_items, verbose,
};
use crate::list::List;
use core::ffi::{c_char, c_int, c_void};
use core::ptr;

/// Queries every component on `components` for a module and a priority and keeps the best:
/// `*best_module`/`*best_component` get it, `*priority_out` (when not NULL) its priority
/// (`i32::MIN` when none answered), and every other component is closed and unlinked.
///
/// A query answering PMIX_ERR_FATAL ends the selection at once with that code (nothing is
/// closed); any other failure, or no module, skips the component. With no winner every
/// component is closed and the answer is PMIX_ERR_NOT_FOUND. As in OpenPMIx, the module and
/// priority variables carry over from one query to the next (a query that answers success
/// without setting them repeats the previous component's).
///
/// # Safety
/// `type_name` is a C string; `components` a list of component list items made by
/// `PMIX_NEW`; the three out-pointers are writable (`priority_out` may be NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_select(
    type_name: *const c_char,
    output_id: c_int,
    components: *mut List,
    best_module: *mut *mut c_void,
    best_component: *mut *mut Component,
    priority_out: *mut c_int,
) -> c_int {
    if components.is_null() || best_module.is_null() || best_component.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    let tname = if type_name.is_null() {
        c"(null)".as_ptr()
    } else {
        type_name
    };
    let mut module: *mut c_void = ptr::null_mut();
    let mut priority: c_int = 0;
    let mut best_priority = i32::MIN;
    // SAFETY: per the contract.
    unsafe {
        *best_module = ptr::null_mut();
        *best_component = ptr::null_mut();
        verbose!(
            VERBOSE_COMPONENT,
            output_id,
            c"mca:base:select: Auto-selecting %s components",
            tname,
        );
        for cli in list_items(components) {
            let c = (*cli).cli_component as *mut Component;
            let cname = (*c).pmix_mca_component_name.as_ptr();
            let Some(query) = (*c).pmix_mca_query_component else {
                verbose!(
                    VERBOSE_COMPONENT,
                    output_id,
                    c"mca:base:select:(%5s) Skipping component [%s]. It does not implement a query function",
                    tname,
                    cname,
                );
                continue;
            };
            verbose!(
                VERBOSE_COMPONENT,
                output_id,
                c"mca:base:select:(%5s) Querying component [%s]",
                tname,
                cname,
            );
            let rc = query(&mut module, &mut priority);
            if rc == PMIX_ERR_FATAL {
                // The component found that the user's request cannot be met: selecting
                // another would do what the user did not ask for.
                return rc;
            }
            if rc != PMIX_SUCCESS {
                continue;
            }
            if module.is_null() {
                verbose!(
                    VERBOSE_COMPONENT,
                    output_id,
                    c"mca:base:select:(%5s) Skipping component [%s]. Query failed to return a module",
                    tname,
                    cname,
                );
                continue;
            }
            verbose!(
                VERBOSE_COMPONENT,
                output_id,
                c"mca:base:select:(%5s) Query of component [%s] set priority to %d",
                tname,
                cname,
                priority,
            );
            if priority > best_priority {
                best_priority = priority;
                *best_component = c;
                *best_module = module;
            }
        }
        if !priority_out.is_null() {
            *priority_out = best_priority;
        }
        if (*best_component).is_null() {
            verbose!(
                VERBOSE_COMPONENT,
                output_id,
                c"mca:base:select:(%5s) No component selected!",
                tname,
            );
            // The closing's messages go to stream 0 here, as OpenPMIx's.
            components_close(0, components, ptr::null());
            return PMIX_ERR_NOT_FOUND;
        }
        verbose!(
            VERBOSE_COMPONENT,
            output_id,
            c"mca:base:select:(%5s) Selected component [%s]",
            tname,
            (**best_component).pmix_mca_component_name.as_ptr(),
        );
        components_close(output_id, components, *best_component);
    }
    PMIX_SUCCESS
}
