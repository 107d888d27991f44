//! Variable groups: one per project/framework/component that registers variables (the
//! component's group a subgroup of its framework's), as `prte_info` walks them.

use super::{
    ERR_NOT_FOUND, ERR_OUT_OF_RESOURCE, Reg, SUCCESS, ValueArray, bytes, dup, full_name4, with_reg,
};
use crate::list::ListItem;
use crate::object::{self, Object, pmix_object_t_class};
use core::ffi::{c_char, c_int, c_void};
use core::ptr;
use std::collections::BTreeMap;

/// `pmix_mca_base_var_group_t` (496 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Group {
    pub super_: ListItem,
    pub group_index: c_int,
    pub group_isvalid: bool,
    pub group_full_name: *mut c_char,
    pub group_project: *mut c_char,
    pub group_framework: *mut c_char,
    pub group_component: *mut c_char,
    pub group_description: *mut c_char,
    /// Indices of the subgroups (`int`s).
    pub group_subgroups: ValueArray,
    /// Indices of the group's variables (`int`s).
    pub group_vars: ValueArray,
}

unsafe extern "C" fn group_construct(o: *mut Object) {
    let g = o as *mut Group;
    // SAFETY: called on a group being constructed: everything after the header is reset.
    unsafe {
        ptr::write_bytes(
            (g as *mut u8).add(size_of::<Object>()),
            0,
            size_of::<Group>() - size_of::<Object>(),
        );
        ValueArray::construct_ints(&raw mut (*g).group_subgroups);
        ValueArray::construct_ints(&raw mut (*g).group_vars);
    }
}

unsafe extern "C" fn group_destruct(o: *mut Object) {
    let g = o as *mut Group;
    // SAFETY: called on a constructed group; its strings are libc ones.
    unsafe {
        for p in [
            &raw mut (*g).group_full_name,
            &raw mut (*g).group_description,
            &raw mut (*g).group_project,
            &raw mut (*g).group_framework,
            &raw mut (*g).group_component,
        ] {
            libc::free((*p).cast());
            *p = ptr::null_mut();
        }
        object::destruct(&raw mut (*g).group_subgroups as *mut Object);
        object::destruct(&raw mut (*g).group_vars as *mut Object);
    }
}

crate::class!(
    pmix_mca_base_var_group_t_class,
    Group,
    &raw mut pmix_object_t_class,
    Some(group_construct),
    Some(group_destruct)
);

/// The groups, by index and by full name.
pub(crate) struct Groups {
    list: Vec<*mut Group>,
    names: BTreeMap<Vec<u8>, c_int>,
    initialized: bool,
    stamp: c_int,
}

/// `compare_strings` of the group code: `*` matches anything, two nulls match.
fn matches(want: Option<&[u8]>, have: *const c_char) -> bool {
    // SAFETY: a group's string or null.
    match (want, unsafe { bytes(have) }) {
        (Some(b"*"), _) | (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

impl Groups {
    pub(crate) const fn new() -> Groups {
        Groups {
            list: Vec::new(),
            names: BTreeMap::new(),
            initialized: false,
            stamp: 0,
        }
    }

    pub(crate) fn init(&mut self) {
        if !self.initialized {
            self.list.clear();
            self.names.clear();
            self.initialized = true;
        }
    }

    pub(crate) fn finalize(&mut self) {
        if self.initialized {
            for g in self.list.drain(..) {
                // SAFETY: the groups' own objects, released once.
                unsafe {
                    object::release(g as *mut Object);
                }
            }
            self.names.clear();
            self.initialized = false;
        }
    }

    /// `pmix_mca_base_var_group_get_internal`.
    pub(crate) fn get_internal(&self, index: c_int, invalidok: bool) -> Option<*mut Group> {
        if index < 0 {
            return None;
        }
        let g = self.list.get(index as usize).copied()?;
        // SAFETY: a live group.
        (invalidok || unsafe { (*g).group_isvalid }).then_some(g)
    }

    fn find_by_name(&self, full: &[u8], invalidok: bool) -> c_int {
        match self.names.get(full) {
            Some(&i) if self.get_internal(i, invalidok).is_some() => i,
            _ => ERR_NOT_FOUND,
        }
    }

    /// `group_find`: by names (any of them `*` searches by pattern); only once variables
    /// are set up (`var_initialized`).
    pub(crate) fn find(
        &self,
        var_initialized: bool,
        project: Option<&[u8]>,
        fw: Option<&[u8]>,
        comp: Option<&[u8]>,
        invalidok: bool,
    ) -> c_int {
        if !var_initialized {
            return ERR_NOT_FOUND;
        }
        let star = |s: Option<&[u8]>| s.is_some_and(|s| s.first() == Some(&b'*'));
        if star(project) || star(fw) || star(comp) {
            for i in 0..self.list.len() as c_int {
                let Some(g) = self.get_internal(i, invalidok) else {
                    continue;
                };
                // SAFETY: a live group.
                unsafe {
                    if matches(project, (*g).group_project)
                        && matches(fw, (*g).group_framework)
                        && matches(comp, (*g).group_component)
                    {
                        return i;
                    }
                }
            }
            return ERR_NOT_FOUND;
        }
        self.find_by_name(&full_name4([None, project, fw, comp]), invalidok)
    }

    /// `group_register`: the group's index (an existing group becomes valid again), -1 for
    /// no names at all. A component's group is added as a subgroup of its framework's.
    pub(crate) fn register(
        &mut self,
        var_initialized: bool,
        project: Option<&[u8]>,
        fw: Option<&[u8]>,
        comp: Option<&[u8]>,
        desc: Option<&[u8]>,
    ) -> c_int {
        if project.is_none() && fw.is_none() && comp.is_none() {
            return -1;
        }
        self.init();
        // No groups named like pmix_pmix.
        let project = match (project, fw) {
            (Some(p), Some(f)) if p == f => None,
            _ => project,
        };
        let id = self.find(var_initialized, project, fw, comp, true);
        if id >= 0 {
            if let Some(g) = self.get_internal(id, true) {
                // SAFETY: a live group.
                unsafe { (*g).group_isvalid = true };
            }
            self.stamp += 1;
            return id;
        }
        // SAFETY: a fresh group, filled with libc strings.
        unsafe {
            let g = object::new(&raw mut pmix_mca_base_var_group_t_class) as *mut Group;
            if g.is_null() {
                return ERR_OUT_OF_RESOURCE;
            }
            (*g).group_isvalid = true;
            let d = |s: Option<&[u8]>| s.map_or(ptr::null_mut(), dup);
            (*g).group_project = d(project);
            (*g).group_framework = d(fw);
            (*g).group_component = d(comp);
            (*g).group_description = d(desc);
            let parent = if fw.is_some() && comp.is_some() {
                self.register(var_initialized, project, fw, None, None)
            } else {
                -1
            };
            let full = full_name4([None, project, fw, comp]);
            (*g).group_full_name = dup(&full);
            // OpenPMIx never fills group_index in: it stays 0.
            let id = self.list.len() as c_int;
            self.list.push(g);
            self.names.insert(full, id);
            self.stamp += 1;
            if parent >= 0 {
                if let Some(p) = self.get_internal(parent, false) {
                    ValueArray::push(&raw mut (*p).group_subgroups, id);
                }
            }
            id
        }
    }

    /// `pmix_mca_base_var_group_add_var`: the variable's position in the group.
    pub(crate) fn add_var(&mut self, group: c_int, var: c_int) -> c_int {
        let Some(g) = self.get_internal(group, false) else {
            return ERR_NOT_FOUND;
        };
        // SAFETY: a live group.
        unsafe {
            let vars = ValueArray::ints(&raw const (*g).group_vars);
            if let Some(i) = vars.iter().position(|&v| v == var) {
                return i as c_int;
            }
            let rc = ValueArray::push(&raw mut (*g).group_vars, var);
            if rc != SUCCESS {
                return rc;
            }
            self.stamp += 1;
            vars.len() as c_int
        }
    }
}

impl Reg {
    /// `pmix_mca_base_var_group_deregister`: the group, its variables and its subgroups
    /// become invalid.
    fn group_deregister(&mut self, index: c_int) -> c_int {
        let Some(g) = self.groups.get_internal(index, false) else {
            return ERR_NOT_FOUND;
        };
        // SAFETY: a live group.
        let (vars, subs) = unsafe {
            (*g).group_isvalid = false;
            (
                ValueArray::ints(&raw const (*g).group_vars),
                ValueArray::ints(&raw const (*g).group_subgroups),
            )
        };
        for v in vars {
            if matches!(self.get(v, false), Ok(var) if Reg::valid(var)) {
                let _ = self.deregister(v);
            }
        }
        for s in subs {
            let _ = self.group_deregister(s);
        }
        self.groups.stamp += 1;
        SUCCESS
    }
}

/// `pmix_mca_base_var_group_register(project, framework, component, description)`: the
/// group's index.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_group_register(
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
    description: *const c_char,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        with_reg(|r| {
            let init = r.initialized;
            r.groups.register(
                init,
                bytes(project),
                bytes(framework),
                bytes(component),
                bytes(description),
            )
        })
    }
}

/// `pmix_mca_base_var_group_component_register(component, description)`: the group of a
/// `pmix_mca_base_component_t`.
///
/// # Safety
/// `component` points to a component; `description` null or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_group_component_register(
    component: *const c_void,
    description: *const c_char,
) -> c_int {
    if component.is_null() {
        return super::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let [p, f, c] = super::component_names(component.cast());
        pmix_mca_base_var_group_register(p, f, c, description)
    }
}

/// `pmix_mca_base_var_group_deregister(index)`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_group_deregister(index: c_int) -> c_int {
    with_reg(|r| r.group_deregister(index))
}

/// `pmix_mca_base_var_group_find(project, framework, component)`: a valid group's index,
/// or `PMIX_ERR_NOT_FOUND`.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_group_find(
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        with_reg(|r| {
            r.groups.find(
                r.initialized,
                bytes(project),
                bytes(framework),
                bytes(component),
                false,
            )
        })
    }
}

/// `pmix_mca_base_var_group_find_by_name(full_name, &index)`.
///
/// # Safety
/// `full_name` is a C string; `index` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_group_find_by_name(
    full_name: *const c_char,
    index: *mut c_int,
) -> c_int {
    if index.is_null() {
        return super::ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let Some(n) = bytes(full_name) else {
            return super::ERR_BAD_PARAM;
        };
        with_reg(|r| match r.groups.find_by_name(n, false) {
            i if i >= 0 => {
                *index = i;
                SUCCESS
            }
            e => e,
        })
    }
}

/// `pmix_mca_base_var_group_get(index, &group)`: a valid group (read-only).
///
/// # Safety
/// `group` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_var_group_get(
    index: c_int,
    group: *mut *const Group,
) -> c_int {
    with_reg(|r| {
        let g = r.groups.get_internal(index, false);
        if !group.is_null() {
            // SAFETY: per the contract.
            unsafe { *group = g.unwrap_or(ptr::null_mut()) };
        }
        if g.is_some() { SUCCESS } else { ERR_NOT_FOUND }
    })
}

/// `pmix_mca_base_var_group_get_count`.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_group_get_count() -> c_int {
    with_reg(|r| r.groups.list.len() as c_int)
}

/// `pmix_mca_base_var_group_get_stamp`: changes whenever groups change.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_var_group_get_stamp() -> c_int {
    with_reg(|r| r.groups.stamp)
}
