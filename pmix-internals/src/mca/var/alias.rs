//! Component aliases (`pmix_mca_base_alias_register`): stored and looked up by
//! `project_framework_component`; OpenPMIx 5.0 itself never consults them.

use super::{ERR_BAD_PARAM, ERR_OUT_OF_RESOURCE, SUCCESS, bytes};
use crate::list::{self, List, ListItem};
use crate::object::{self, Object, pmix_object_t_class};
use core::ffi::{c_char, c_int};
use core::ptr;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// `pmix_mca_base_alias_item_t` (160 bytes): one alias name and its flags.
#[repr(C)]
#[derive(Debug)]
pub struct AliasItem {
    pub super_: ListItem,
    pub component_alias: *mut c_char,
    pub alias_flags: u32,
}

/// `pmix_mca_base_alias_t` (392 bytes): the aliases of one component.
#[repr(C)]
#[derive(Debug)]
pub struct Alias {
    pub super_: Object,
    pub component_aliases: List,
}

unsafe extern "C" fn item_construct(o: *mut Object) {
    // SAFETY: called on an alias item being constructed.
    unsafe { (*(o as *mut AliasItem)).component_alias = ptr::null_mut() }
}

unsafe extern "C" fn item_destruct(o: *mut Object) {
    // SAFETY: called on a constructed alias item; its name is a libc string.
    unsafe { libc::free((*(o as *mut AliasItem)).component_alias.cast()) }
}

unsafe extern "C" fn alias_construct(o: *mut Object) {
    // SAFETY: called on an alias being constructed: its list is built in place.
    unsafe {
        let l = &raw mut (*(o as *mut Alias)).component_aliases;
        libc::pthread_mutex_init(&raw mut (*l).super_.obj_lock, ptr::null());
        object::construct(l as *mut Object, list::list_class());
    }
}

unsafe extern "C" fn alias_destruct(o: *mut Object) {
    // SAFETY: called on a constructed alias: its items are released, its list destructed.
    unsafe {
        let l = &raw mut (*(o as *mut Alias)).component_aliases;
        list::release_all(l);
        object::destruct(l as *mut Object);
    }
}

crate::class!(
    pmix_mca_base_alias_item_t_class,
    AliasItem,
    list::item_class(),
    Some(item_construct),
    Some(item_destruct)
);
crate::class!(
    pmix_mca_base_alias_t_class,
    Alias,
    &raw mut pmix_object_t_class,
    Some(alias_construct),
    Some(alias_destruct)
);

struct Aliases(BTreeMap<Vec<u8>, *mut Alias>);

// SAFETY: the aliases are only touched under the mutex.
unsafe impl Send for Aliases {}

static ALIASES: Mutex<Aliases> = Mutex::new(Aliases(BTreeMap::new()));

/// `project_framework_component`, empty parts left out.
fn alias_name(project: Option<&[u8]>, fw: Option<&[u8]>, comp: &[u8]) -> Vec<u8> {
    let mut n = Vec::new();
    for p in [project, fw]
        .into_iter()
        .flatten()
        .filter(|p| !p.is_empty())
    {
        n.extend_from_slice(p);
        n.push(b'_');
    }
    n.extend_from_slice(comp);
    n
}

/// `pmix_mca_base_alias_register(project, framework, component, alias, flags)`: records
/// `alias` as another name of the component.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_alias_register(
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
    alias: *const c_char,
    flags: u32,
) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        let Some(comp) = bytes(component) else {
            return ERR_BAD_PARAM;
        };
        let name = alias_name(bytes(project), bytes(framework), comp);
        let mut g = ALIASES.lock().unwrap_or_else(|e| e.into_inner());
        let a = match g.0.get(&name) {
            Some(&a) => a,
            None => {
                let a = object::new(&raw mut pmix_mca_base_alias_t_class) as *mut Alias;
                if a.is_null() {
                    return ERR_OUT_OF_RESOURCE;
                }
                g.0.insert(name, a);
                a
            }
        };
        let item = object::new(&raw mut pmix_mca_base_alias_item_t_class) as *mut AliasItem;
        if item.is_null() {
            return ERR_OUT_OF_RESOURCE;
        }
        (*item).component_alias = if alias.is_null() {
            ptr::null_mut()
        } else {
            libc::strdup(alias)
        };
        (*item).alias_flags = flags;
        list::append(&raw mut (*a).component_aliases, item as *mut ListItem);
    }
    SUCCESS
}

/// `pmix_mca_base_alias_lookup(project, framework, component)`: the component's aliases,
/// or null.
///
/// # Safety
/// Names are null or C strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_alias_lookup(
    project: *const c_char,
    framework: *const c_char,
    component: *const c_char,
) -> *const Alias {
    // SAFETY: per the contract.
    unsafe {
        let Some(comp) = bytes(component) else {
            return ptr::null();
        };
        let name = alias_name(bytes(project), bytes(framework), comp);
        let g = ALIASES.lock().unwrap_or_else(|e| e.into_inner());
        g.0.get(&name).copied().unwrap_or(ptr::null_mut())
    }
}

/// `pmix_mca_base_alias_cleanup`: releases every alias.
#[unsafe(no_mangle)]
pub extern "C" fn pmix_mca_base_alias_cleanup() {
    let all = std::mem::take(&mut ALIASES.lock().unwrap_or_else(|e| e.into_inner()).0);
    for (_, a) in all {
        // SAFETY: aliases made by register, released once.
        unsafe {
            object::release(a as *mut Object);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_stored_by_component_and_released() {
        // SAFETY: C strings; the alias read back is live until cleanup.
        unsafe {
            assert_eq!(
                pmix_mca_base_alias_register(
                    c"prte".as_ptr(),
                    c"plm".as_ptr(),
                    c"ssh".as_ptr(),
                    c"rsh".as_ptr(),
                    0
                ),
                SUCCESS
            );
            assert_eq!(
                pmix_mca_base_alias_register(
                    ptr::null(),
                    ptr::null(),
                    ptr::null(),
                    c"x".as_ptr(),
                    0
                ),
                ERR_BAD_PARAM
            );
            let a = pmix_mca_base_alias_lookup(c"prte".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr());
            assert!(!a.is_null());
            let items = list::items(&raw const (*a).component_aliases as *mut List);
            assert_eq!(items.len(), 1);
            let it = items[0] as *mut AliasItem;
            assert_eq!(bytes((*it).component_alias), Some(&b"rsh"[..]));
        }
        pmix_mca_base_alias_cleanup();
        // SAFETY: C strings.
        let gone = unsafe {
            pmix_mca_base_alias_lookup(c"prte".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr())
        };
        assert!(gone.is_null());
    }
}
