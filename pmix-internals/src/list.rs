//! `pmix_list_t` and `pmix_list_item_t`: a doubly linked list with a sentinel, manipulated
//! mostly by inline code compiled into PRRTE; this file holds the classes and the same
//! operations for the Rust side.

use crate::object::{Class, Object, pmix_object_t_class};
use core::ptr;

/// `pmix_list_item_t` (144 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct ListItem {
    pub super_: Object,
    pub pmix_list_next: *mut ListItem,
    pub pmix_list_prev: *mut ListItem,
    pub item_free: i32,
}

/// `pmix_list_t` (272 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct List {
    pub super_: Object,
    pub pmix_list_sentinel: ListItem,
    pub pmix_list_length: usize,
}

unsafe extern "C" fn item_construct(o: *mut Object) {
    let item = o as *mut ListItem;
    // SAFETY: called on a list item being constructed.
    unsafe {
        (*item).pmix_list_next = ptr::null_mut();
        (*item).pmix_list_prev = ptr::null_mut();
        (*item).item_free = 1;
    }
}

unsafe extern "C" fn list_construct(o: *mut Object) {
    let list = o as *mut List;
    // SAFETY: called on a list being constructed: the sentinel links to itself.
    unsafe {
        let s = &raw mut (*list).pmix_list_sentinel;
        (*s).pmix_list_next = s;
        (*s).pmix_list_prev = s;
        (*list).pmix_list_length = 0;
    }
}

crate::class!(
    pmix_list_item_t_class,
    ListItem,
    &raw mut pmix_object_t_class,
    Some(item_construct),
    None
);
// The destructor only resets the list (the items are not released), as OpenPMIx's.
crate::class!(
    pmix_list_t_class,
    List,
    &raw mut pmix_object_t_class,
    Some(list_construct),
    Some(list_construct)
);

/// The class of lists.
pub const fn list_class() -> *mut Class {
    &raw mut pmix_list_t_class
}

/// The class of plain list items.
pub const fn item_class() -> *mut Class {
    &raw mut pmix_list_item_t_class
}

/// Appends `item` at the tail (`pmix_list_append`).
///
/// # Safety
/// `list` is a constructed list; `item` a constructed item on no list.
pub unsafe fn append(list: *mut List, item: *mut ListItem) {
    // SAFETY: per the contract.
    unsafe {
        let s = &raw mut (*list).pmix_list_sentinel;
        (*item).pmix_list_prev = (*s).pmix_list_prev;
        (*(*s).pmix_list_prev).pmix_list_next = item;
        (*item).pmix_list_next = s;
        (*s).pmix_list_prev = item;
        (*list).pmix_list_length += 1;
    }
}

/// Prepends `item` at the head (`pmix_list_prepend`).
///
/// # Safety
/// As `append`.
pub unsafe fn prepend(list: *mut List, item: *mut ListItem) {
    // SAFETY: per the contract.
    unsafe {
        let s = &raw mut (*list).pmix_list_sentinel;
        (*item).pmix_list_next = (*s).pmix_list_next;
        (*item).pmix_list_prev = s;
        (*(*s).pmix_list_next).pmix_list_prev = item;
        (*s).pmix_list_next = item;
        (*list).pmix_list_length += 1;
    }
}

/// Unlinks `item` from `list` (`pmix_list_remove_item`).
///
/// # Safety
/// `item` is on `list`.
pub unsafe fn remove(list: *mut List, item: *mut ListItem) {
    // SAFETY: per the contract.
    unsafe {
        (*(*item).pmix_list_prev).pmix_list_next = (*item).pmix_list_next;
        (*(*item).pmix_list_next).pmix_list_prev = (*item).pmix_list_prev;
        (*item).pmix_list_next = ptr::null_mut();
        (*item).pmix_list_prev = ptr::null_mut();
        (*list).pmix_list_length -= 1;
    }
}

/// Removes and returns the head, or null (`pmix_list_remove_first`).
///
/// # Safety
/// `list` is a constructed list.
pub unsafe fn remove_first(list: *mut List) -> *mut ListItem {
    // SAFETY: per the contract.
    unsafe {
        if (*list).pmix_list_length == 0 {
            return ptr::null_mut();
        }
        let item = (*list).pmix_list_sentinel.pmix_list_next;
        remove(list, item);
        item
    }
}

/// The items of `list`, head first, collected (safe to unlink or release while walking).
///
/// # Safety
/// `list` is a constructed list.
pub unsafe fn items(list: *mut List) -> Vec<*mut ListItem> {
    let mut out = Vec::new();
    // SAFETY: per the contract.
    unsafe {
        let s = &raw mut (*list).pmix_list_sentinel;
        let mut i = (*s).pmix_list_next;
        while !i.is_null() && i != s {
            out.push(i);
            i = (*i).pmix_list_next;
        }
    }
    out
}

/// Releases every item and leaves the list empty (`PMIX_LIST_DESTRUCT`'s first half).
///
/// # Safety
/// `list` is a constructed list of objects made by `new`.
pub unsafe fn release_all(list: *mut List) {
    // SAFETY: per the contract.
    unsafe {
        loop {
            let i = remove_first(list);
            if i.is_null() {
                break;
            }
            crate::object::release(i as *mut Object);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::{self, Tma};
    use core::mem::{offset_of, size_of};

    const FACTS: &str = include_str!("../facts/layouts-object.txt");

    #[test]
    fn layouts_match_openpmix() {
        use crate::facts::layout;
        layout(
            FACTS,
            "pmix_class_t",
            size_of::<Class>(),
            &[
                ("cls_name", offset_of!(Class, cls_name)),
                ("cls_parent", offset_of!(Class, cls_parent)),
                ("cls_construct", offset_of!(Class, cls_construct)),
                ("cls_destruct", offset_of!(Class, cls_destruct)),
                ("cls_initialized", offset_of!(Class, cls_initialized)),
                ("cls_depth", offset_of!(Class, cls_depth)),
                (
                    "cls_construct_array",
                    offset_of!(Class, cls_construct_array),
                ),
                ("cls_destruct_array", offset_of!(Class, cls_destruct_array)),
                ("cls_sizeof", offset_of!(Class, cls_sizeof)),
            ],
        );
        layout(FACTS, "pmix_tma_t", size_of::<Tma>(), &[]);
        layout(
            FACTS,
            "pmix_object_t",
            size_of::<Object>(),
            &[
                ("obj_lock", offset_of!(Object, obj_lock)),
                ("obj_class", offset_of!(Object, obj_class)),
                (
                    "obj_reference_count",
                    offset_of!(Object, obj_reference_count),
                ),
                ("obj_tma", offset_of!(Object, obj_tma)),
            ],
        );
        layout(
            FACTS,
            "pmix_list_item_t",
            size_of::<ListItem>(),
            &[
                ("pmix_list_next", offset_of!(ListItem, pmix_list_next)),
                ("pmix_list_prev", offset_of!(ListItem, pmix_list_prev)),
                ("item_free", offset_of!(ListItem, item_free)),
            ],
        );
        layout(
            FACTS,
            "pmix_list_t",
            size_of::<List>(),
            &[
                ("pmix_list_sentinel", offset_of!(List, pmix_list_sentinel)),
                ("pmix_list_length", offset_of!(List, pmix_list_length)),
            ],
        );
    }

    #[test]
    fn classes_are_named_after_their_c_type() {
        // SAFETY: reading the name of an exported class.
        let name = unsafe { core::ffi::CStr::from_ptr(pmix_list_t_class.cls_name) };
        assert_eq!(name.to_str(), Ok("pmix_list_t"));
    }

    #[test]
    fn new_list_links_its_sentinel_and_items_come_back_in_order() {
        // SAFETY: objects made and released here.
        unsafe {
            let l = object::new(list_class()) as *mut List;
            let s = &raw mut (*l).pmix_list_sentinel;
            assert_eq!((*s).pmix_list_next, s);
            assert_eq!((*s).pmix_list_prev, s);
            let a = object::new(item_class()) as *mut ListItem;
            let b = object::new(item_class()) as *mut ListItem;
            assert_eq!((*a).item_free, 1);
            append(l, a);
            prepend(l, b);
            assert_eq!(items(l), vec![b, a]);
            assert_eq!((*l).pmix_list_length, 2);
            assert_eq!(remove_first(l), b);
            object::release(b as *mut Object);
            release_all(l);
            assert_eq!((*l).pmix_list_length, 0);
            assert!(object::release(l as *mut Object));
        }
    }

    #[test]
    fn class_arrays_run_parent_constructors_first_and_destructors_last() {
        use std::sync::Mutex;
        static LOG: Mutex<Vec<&str>> = Mutex::new(Vec::new());
        unsafe extern "C" fn c(_: *mut Object) {
            LOG.lock().unwrap().push("child ctor");
        }
        unsafe extern "C" fn d(_: *mut Object) {
            LOG.lock().unwrap().push("child dtor");
        }
        crate::class!(test_child_class, ListItem, item_class(), Some(c), Some(d));
        // SAFETY: a class of ours, an object made and released here.
        unsafe {
            let o = object::new(&raw mut test_child_class) as *mut ListItem;
            assert_eq!((*o).item_free, 1, "the parent's constructor ran");
            let cls = &raw const test_child_class;
            assert_eq!((*cls).cls_depth, 3);
            (*o).item_free = 0;
            object::retain(o as *mut Object);
            assert!(!object::release(o as *mut Object));
            assert!(object::release(o as *mut Object));
        }
        assert_eq!(*LOG.lock().unwrap(), ["child ctor", "child dtor"]);
    }
}
