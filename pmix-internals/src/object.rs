//! The object and class runtime (`pmix_object_t`, `pmix_class_t`): what PRRTE's inline
//! `PMIX_NEW`/`PMIX_CONSTRUCT`/`PMIX_RETAIN`/`PMIX_RELEASE` rely on, and the same operations
//! for the Rust side of this crate.
//!
//! Layouts are OpenPMIx 5.0.11's non-debug ones (`facts/layouts.txt`). A class is
//! initialized once per epoch: its constructors (root first) and destructors (leaf first) go
//! into one allocation, each list ended by a null, as the inline code walks them.

use core::ffi::{c_char, c_int, c_void};
use core::ptr;

/// `pmix_construct_t` / `pmix_destruct_t`.
pub type Ctor = Option<unsafe extern "C" fn(*mut Object)>;

/// `pmix_class_t` (64 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Class {
    pub cls_name: *const c_char,
    pub cls_parent: *mut Class,
    pub cls_construct: Ctor,
    pub cls_destruct: Ctor,
    pub cls_initialized: c_int,
    pub cls_depth: c_int,
    pub cls_construct_array: *mut Ctor,
    pub cls_destruct_array: *mut Ctor,
    pub cls_sizeof: usize,
}

/// `pmix_tma_t` (64 bytes): an object's allocator; all null for the default (libc) one.
#[repr(C)]
#[derive(Debug)]
pub struct Tma {
    pub tma_malloc: Option<unsafe extern "C" fn(*mut Tma, usize) -> *mut c_void>,
    pub tma_calloc: Option<unsafe extern "C" fn(*mut Tma, usize, usize) -> *mut c_void>,
    pub tma_realloc: Option<unsafe extern "C" fn(*mut Tma, *mut c_void, usize) -> *mut c_void>,
    pub tma_strdup: Option<unsafe extern "C" fn(*mut Tma, *const c_char) -> *mut c_char>,
    pub tma_memmove: Option<unsafe extern "C" fn(*mut Tma, *const c_void, usize) -> *mut c_void>,
    pub tma_free: Option<unsafe extern "C" fn(*mut Tma, *mut c_void)>,
    pub data_context: *mut c_void,
    pub data_ptr: *mut *mut c_void,
}

impl Tma {
    pub const NONE: Tma = Tma {
        tma_malloc: None,
        tma_calloc: None,
        tma_realloc: None,
        tma_strdup: None,
        tma_memmove: None,
        tma_free: None,
        data_context: ptr::null_mut(),
        data_ptr: ptr::null_mut(),
    };
}

/// `pmix_object_t` (120 bytes): the head of every object.
#[repr(C)]
#[derive(Debug)]
pub struct Object {
    pub obj_lock: libc::pthread_mutex_t,
    pub obj_class: *mut Class,
    pub obj_reference_count: i32,
    pub obj_tma: Tma,
}

impl Object {
    /// The head of a statically initialized object of `cls` (`PMIX_OBJ_STATIC_INIT`).
    pub const fn static_init(cls: *mut Class) -> Object {
        Object {
            obj_lock: libc::PTHREAD_MUTEX_INITIALIZER,
            obj_class: cls,
            obj_reference_count: 1,
            obj_tma: Tma::NONE,
        }
    }
}

/// Declares an exported class descriptor (`PMIX_CLASS_INSTANCE`): `class!(NAME, TYPE,
/// PARENT, ctor, dtor)` defines `static mut NAME: Class`, its size that of `TYPE`. `NAME` is
/// the C type's name with `_class` appended (`pmix_list_t_class`); the class's name is the
/// C type's (`"pmix_list_t"`), as OpenPMIx's.
#[macro_export]
macro_rules! class {
    ($name:ident, $ty:ty, $parent:expr, $ctor:expr, $dtor:expr) => {
        #[unsafe(no_mangle)]
        pub static mut $name: $crate::object::Class = $crate::object::Class {
            cls_name: {
                const FULL: &[u8] = stringify!($name).as_bytes();
                const LEN: usize = FULL.len() - 6;
                const _: () = assert!(
                    FULL.len() > 6 && FULL[LEN] == b'_' && FULL[LEN + 1] == b'c',
                    "a class's name ends in _class"
                );
                static NAME: [u8; LEN + 1] = {
                    let mut b = [0u8; LEN + 1];
                    let mut i = 0;
                    while i < LEN {
                        b[i] = FULL[i];
                        i += 1;
                    }
                    b
                };
                NAME.as_ptr().cast()
            },
            cls_parent: $parent,
            cls_construct: $ctor,
            cls_destruct: $dtor,
            cls_initialized: 0,
            cls_depth: 0,
            cls_construct_array: core::ptr::null_mut(),
            cls_destruct_array: core::ptr::null_mut(),
            cls_sizeof: core::mem::size_of::<$ty>(),
        };
    };
}

/// `pmix_class_init_epoch`: a class whose `cls_initialized` differs is (re)initialized
/// before its next use. It starts at 1 and is never bumped here: OpenPMIx's server finalize
/// bumps it and frees every class's arrays while PRRTE's objects live on; ours does neither.
#[unsafe(no_mangle)]
pub static mut pmix_class_init_epoch: c_int = 1;

/// The root class, initialized from the start, with no constructor or destructor arrays.
#[unsafe(no_mangle)]
pub static mut pmix_object_t_class: Class = Class {
    cls_name: c"pmix_object_t".as_ptr(),
    cls_parent: ptr::null_mut(),
    cls_construct: None,
    cls_destruct: None,
    cls_initialized: 1,
    cls_depth: 0,
    cls_construct_array: ptr::null_mut(),
    cls_destruct_array: ptr::null_mut(),
    cls_sizeof: core::mem::size_of::<Object>(),
};

/// One lock for every class's first initialization (classes live for the process).
static CLASS_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The current epoch (read through the symbol: an executable may hold the canonical copy).
pub fn epoch() -> c_int {
    // SAFETY: a plain int read; written only under CLASS_LOCK (never, in fact).
    unsafe { ptr::read_volatile(&raw const pmix_class_init_epoch) }
}

/// `pmix_class_initialize`: builds `cls`'s constructor and destructor arrays.
///
/// # Safety
/// `cls` points to a class whose parent chain ends in a null parent.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_class_initialize(cls: *mut Class) {
    if cls.is_null() {
        return;
    }
    // SAFETY: the caller's class chain; everything below is under the lock.
    unsafe {
        if (*cls).cls_initialized == epoch() {
            return;
        }
        let _g = CLASS_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        if (*cls).cls_initialized == epoch() {
            return;
        }
        let mut ctors: Vec<unsafe extern "C" fn(*mut Object)> = Vec::new();
        let mut dtors = Vec::new();
        let mut depth = 0;
        let mut c = cls;
        while !c.is_null() {
            if let Some(f) = (*c).cls_construct {
                ctors.push(f);
            }
            if let Some(f) = (*c).cls_destruct {
                dtors.push(f);
            }
            depth += 1;
            c = (*c).cls_parent;
        }
        ctors.reverse();
        // One allocation: the constructors, a null, the destructors, a null.
        let n = ctors.len() + dtors.len() + 2;
        let arr = libc::calloc(n, size_of::<Ctor>()) as *mut Ctor;
        if arr.is_null() {
            libc::perror(c"Out of memory".as_ptr());
            libc::exit(-1);
        }
        for (i, f) in ctors.iter().enumerate() {
            *arr.add(i) = Some(*f);
        }
        let d = arr.add(ctors.len() + 1);
        for (i, f) in dtors.iter().enumerate() {
            *d.add(i) = Some(*f);
        }
        (*cls).cls_depth = depth;
        (*cls).cls_construct_array = arr;
        (*cls).cls_destruct_array = d;
        (*cls).cls_initialized = epoch();
    }
}

/// Runs the constructors of `obj`'s class (`pmix_obj_run_constructors`).
///
/// # Safety
/// `obj` has an initialized class.
pub unsafe fn run_constructors(obj: *mut Object) {
    // SAFETY: per the contract; the array is null-terminated.
    unsafe {
        let mut f = (*(*obj).obj_class).cls_construct_array;
        if f.is_null() {
            return;
        }
        while let Some(c) = *f {
            c(obj);
            f = f.add(1);
        }
    }
}

/// Runs the destructors of `obj`'s class (`pmix_obj_run_destructors`).
///
/// # Safety
/// `obj` has an initialized class.
pub unsafe fn run_destructors(obj: *mut Object) {
    // SAFETY: per the contract; the array is null-terminated.
    unsafe {
        let mut f = (*(*obj).obj_class).cls_destruct_array;
        if f.is_null() {
            return;
        }
        while let Some(d) = *f {
            d(obj);
            f = f.add(1);
        }
    }
}

/// `PMIX_CONSTRUCT(obj, cls)`: the object's memory exists (embedded or static).
///
/// # Safety
/// `obj` points to at least `cls.cls_sizeof` writable bytes.
pub unsafe fn construct(obj: *mut Object, cls: *mut Class) {
    // SAFETY: per the contract.
    unsafe {
        if (*cls).cls_initialized != epoch() {
            pmix_class_initialize(cls);
        }
        (*obj).obj_class = cls;
        (*obj).obj_reference_count = 1;
        ptr::write(&raw mut (*obj).obj_tma, Tma::NONE);
        run_constructors(obj);
    }
}

/// `PMIX_DESTRUCT(obj)`.
///
/// # Safety
/// `obj` was constructed.
pub unsafe fn destruct(obj: *mut Object) {
    // SAFETY: per the contract.
    unsafe { run_destructors(obj) }
}

/// `PMIX_NEW(cls)`: a libc allocation of `cls.cls_sizeof` bytes, constructed.
///
/// # Safety
/// `cls` is a class descriptor whose size covers its type.
pub unsafe fn new(cls: *mut Class) -> *mut Object {
    // SAFETY: per the contract.
    unsafe {
        let obj = libc::malloc((*cls).cls_sizeof) as *mut Object;
        if (*cls).cls_initialized != epoch() {
            pmix_class_initialize(cls);
        }
        if obj.is_null() {
            return obj;
        }
        libc::pthread_mutex_init(&raw mut (*obj).obj_lock, ptr::null());
        (*obj).obj_class = cls;
        (*obj).obj_reference_count = 1;
        ptr::write(&raw mut (*obj).obj_tma, Tma::NONE);
        run_constructors(obj);
        obj
    }
}

/// `pmix_obj_update`: adds `inc` to the reference count under the object's lock.
///
/// # Safety
/// `obj` is a live object made by `new` (or with an initialized lock).
pub unsafe fn update(obj: *mut Object, inc: i32) -> i32 {
    // SAFETY: per the contract.
    unsafe {
        libc::pthread_mutex_lock(&raw mut (*obj).obj_lock);
        (*obj).obj_reference_count += inc;
        let r = (*obj).obj_reference_count;
        libc::pthread_mutex_unlock(&raw mut (*obj).obj_lock);
        r
    }
}

/// `PMIX_RETAIN(obj)`.
///
/// # Safety
/// As `update`.
pub unsafe fn retain(obj: *mut Object) {
    // SAFETY: per the contract.
    unsafe {
        update(obj, 1);
    }
}

/// `PMIX_RELEASE(obj)`: the last reference destructs and frees it (with its allocator's
/// free when it has one). Answers whether it was freed.
///
/// # Safety
/// `obj` is a live object made by `new` (or a C `PMIX_NEW`).
pub unsafe fn release(obj: *mut Object) -> bool {
    if obj.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    unsafe {
        if update(obj, -1) != 0 {
            return false;
        }
        run_destructors(obj);
        if let Some(free) = (*obj).obj_tma.tma_free {
            free(&raw mut (*obj).obj_tma, obj as *mut c_void);
        } else {
            libc::free(obj as *mut c_void);
        }
        true
    }
}
