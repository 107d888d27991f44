//! Mutexes, threads, thread-specific data and the `pmix_lock_t` handshake (`pmix_mutex_t`,
//! `pmix_thread_t`, `pmix_tsd_key_create`).
//!
//! PRRTE locks `pmix_mutex_t` inline (`pmix_mutex_lock` is a `pthread_mutex_lock` on the
//! mutex at offset 120), defines statics with `PMIX_MUTEX_STATIC_INIT` (the class pointer
//! and `PTHREAD_MUTEX_INITIALIZER`), and uses `pmix_lock_t` (status, mutex, condition,
//! `active`) through the `PMIX_*_THREAD` macros; this file holds the classes, the three
//! exported functions and the same operations for the Rust side. Layouts:
//! `facts/layouts-threads.txt` (non-debug: a mutex is a default pthread mutex).

use crate::object::{Class, Object, pmix_object_t_class};
use core::ffi::{c_int, c_void};
use core::ptr;

const PMIX_SUCCESS: c_int = 0;
const PMIX_ERROR: c_int = -1;
const PMIX_ERR_BAD_PARAM: c_int = -27;

/// `pmix_mutex_t` (160 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Mutex {
    pub super_: Object,
    pub m_lock_pthread: libc::pthread_mutex_t,
}

impl Mutex {
    /// `PMIX_MUTEX_STATIC_INIT`: a statically initialized mutex object.
    pub const fn static_init() -> Mutex {
        Mutex {
            super_: Object::static_init(&raw mut pmix_mutex_t_class),
            m_lock_pthread: libc::PTHREAD_MUTEX_INITIALIZER,
        }
    }
}

/// `pmix_thread_fn_t`: a thread's body, given the thread object.
pub type ThreadFn = Option<unsafe extern "C" fn(*mut Object) -> *mut c_void>;

/// `pmix_thread_t` (144 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Thread {
    pub super_: Object,
    pub t_run: ThreadFn,
    pub t_arg: *mut c_void,
    pub t_handle: libc::pthread_t,
}

/// The `t_handle` of a thread not running (`(pthread_t) -1`).
pub const NO_THREAD: libc::pthread_t = !0;

/// `pmix_lock_t` (224 bytes): a mutex and condition guarding the `active` flag, used by
/// `PMIX_CONSTRUCT_LOCK`, `PMIX_WAIT_THREAD`, `PMIX_WAKEUP_THREAD`, ... (no class).
#[repr(C)]
#[derive(Debug)]
pub struct Lock {
    pub status: c_int,
    pub mutex: Mutex,
    pub cond: libc::pthread_cond_t,
    pub active: bool,
}

unsafe extern "C" fn mutex_construct(o: *mut Object) {
    let m = o as *mut Mutex;
    // SAFETY: called on a mutex being constructed: a default (fast) pthread mutex.
    unsafe {
        libc::pthread_mutex_init(&raw mut (*m).m_lock_pthread, ptr::null());
    }
}

unsafe extern "C" fn mutex_destruct(o: *mut Object) {
    let m = o as *mut Mutex;
    // SAFETY: called on a constructed mutex.
    unsafe {
        libc::pthread_mutex_destroy(&raw mut (*m).m_lock_pthread);
    }
}

unsafe extern "C" fn thread_construct(o: *mut Object) {
    let t = o as *mut Thread;
    // SAFETY: called on a thread object being constructed (`t_arg` is left as it is).
    unsafe {
        (*t).t_run = None;
        (*t).t_handle = NO_THREAD;
    }
}

crate::class!(
    pmix_mutex_t_class,
    Mutex,
    &raw mut pmix_object_t_class,
    Some(mutex_construct),
    Some(mutex_destruct)
);

crate::class!(
    pmix_thread_t_class,
    Thread,
    &raw mut pmix_object_t_class,
    Some(thread_construct),
    None
);

/// The class of mutexes.
pub const fn mutex_class() -> *mut Class {
    &raw mut pmix_mutex_t_class
}

/// The class of thread objects.
pub const fn thread_class() -> *mut Class {
    &raw mut pmix_thread_t_class
}

/// `pmix_thread_start`: runs `t->t_run(t)` in a new thread whose handle goes to
/// `t->t_handle`. `PMIX_ERROR` when the thread cannot be created; `PMIX_ERR_BAD_PARAM` when
/// `t` is null or has no `t_run` (OpenPMIx's release build would start a thread that
/// crashes).
///
/// # Safety
/// `t` is null or a constructed thread object that outlives the thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_thread_start(t: *mut Thread) -> c_int {
    if t.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let Some(run) = (*t).t_run else {
            return PMIX_ERR_BAD_PARAM;
        };
        // SAFETY: both are C functions of one pointer argument returning a pointer; the
        // argument passed is the thread object, which is what `run` expects.
        let start: extern "C" fn(*mut c_void) -> *mut c_void = core::mem::transmute(run);
        let rc = libc::pthread_create(&raw mut (*t).t_handle, ptr::null(), start, t.cast());
        if rc == 0 { PMIX_SUCCESS } else { PMIX_ERROR }
    }
}

/// `pmix_thread_join`: waits for the thread, stores its return value in `*thr_return` (when
/// not null) and marks it not running. `PMIX_ERROR` when the join fails or (where OpenPMIx
/// would hand glibc an invalid handle) the thread was never started.
///
/// # Safety
/// `t` is null or a constructed thread object; `thr_return` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_thread_join(t: *mut Thread, thr_return: *mut *mut c_void) -> c_int {
    if t.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        if (*t).t_handle == NO_THREAD {
            return PMIX_ERROR;
        }
        let rc = libc::pthread_join((*t).t_handle, thr_return);
        (*t).t_handle = NO_THREAD;
        if rc == 0 { PMIX_SUCCESS } else { PMIX_ERROR }
    }
}

/// `pmix_tsd_key_create`: `pthread_key_create`, returning its result (0 or an errno value,
/// not a PMIx status). OpenPMIx also records keys made on its "main thread" for
/// `pmix_tsd_keys_destruct`, but nothing in 5.0.11 ever names that thread, so no key is
/// recorded and neither is one here.
///
/// # Safety
/// `key` is writable; `destructor` is null or a function taking the key's values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_tsd_key_create(
    key: *mut libc::pthread_key_t,
    destructor: Option<unsafe extern "C" fn(*mut c_void)>,
) -> c_int {
    if key.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: per the contract.
    unsafe { libc::pthread_key_create(key, destructor) }
}

// The Rust-side API.

/// `pmix_mutex_lock`.
///
/// # Safety
/// `m` is a constructed (or statically initialized) mutex.
pub unsafe fn lock(m: *mut Mutex) {
    // SAFETY: per the contract.
    unsafe {
        libc::pthread_mutex_lock(&raw mut (*m).m_lock_pthread);
    }
}

/// `pmix_mutex_unlock`.
///
/// # Safety
/// `m` is locked by this thread.
pub unsafe fn unlock(m: *mut Mutex) {
    // SAFETY: per the contract.
    unsafe {
        libc::pthread_mutex_unlock(&raw mut (*m).m_lock_pthread);
    }
}

/// `pmix_mutex_trylock`: 0 when taken, else the pthread error.
///
/// # Safety
/// As `lock`.
pub unsafe fn trylock(m: *mut Mutex) -> c_int {
    // SAFETY: per the contract.
    unsafe { libc::pthread_mutex_trylock(&raw mut (*m).m_lock_pthread) }
}

/// `PMIX_CONSTRUCT_LOCK`: constructs the mutex and condition and sets `active` (the status
/// is left as it is).
///
/// # Safety
/// `l` points to writable memory for a lock.
pub unsafe fn construct_lock(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        crate::object::construct(&raw mut (*l).mutex as *mut Object, mutex_class());
        libc::pthread_cond_init(&raw mut (*l).cond, ptr::null());
        ptr::write_volatile(&raw mut (*l).active, true);
    }
}

/// `PMIX_DESTRUCT_LOCK`.
///
/// # Safety
/// `l` was constructed and nobody waits on it.
pub unsafe fn destruct_lock(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        crate::object::destruct(&raw mut (*l).mutex as *mut Object);
        libc::pthread_cond_destroy(&raw mut (*l).cond);
    }
}

/// Waits, holding the mutex, until `active` is false.
///
/// # Safety
/// `l` was constructed; the caller holds its mutex.
unsafe fn wait_inactive(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        while ptr::read_volatile(&raw const (*l).active) {
            libc::pthread_cond_wait(&raw mut (*l).cond, &raw mut (*l).mutex.m_lock_pthread);
        }
        core::sync::atomic::fence(core::sync::atomic::Ordering::Acquire);
    }
}

/// `PMIX_WAIT_THREAD`: blocks until another thread clears `active` (`wakeup_thread`).
///
/// # Safety
/// `l` was constructed.
pub unsafe fn wait_thread(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        lock(&raw mut (*l).mutex);
        wait_inactive(l);
        unlock(&raw mut (*l).mutex);
    }
}

/// `PMIX_ACQUIRE_THREAD`: waits until `active` is clear, then sets it and keeps the mutex.
///
/// # Safety
/// `l` was constructed; release with `release_thread`.
pub unsafe fn acquire_thread(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        lock(&raw mut (*l).mutex);
        wait_inactive(l);
        ptr::write_volatile(&raw mut (*l).active, true);
    }
}

/// `PMIX_RELEASE_THREAD`: clears `active`, wakes the waiters and unlocks.
///
/// # Safety
/// The caller holds `l`'s mutex (after `acquire_thread`).
pub unsafe fn release_thread(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        ptr::write_volatile(&raw mut (*l).active, false);
        core::sync::atomic::fence(core::sync::atomic::Ordering::Release);
        libc::pthread_cond_broadcast(&raw mut (*l).cond);
        unlock(&raw mut (*l).mutex);
    }
}

/// `PMIX_WAKEUP_THREAD`: clears `active` under the mutex and wakes the waiters.
///
/// # Safety
/// `l` was constructed.
pub unsafe fn wakeup_thread(l: *mut Lock) {
    // SAFETY: per the contract.
    unsafe {
        lock(&raw mut (*l).mutex);
        release_thread(l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    const FACTS: &str = include_str!("../facts/layouts-threads.txt");

    #[test]
    fn layouts_match_openpmix() {
        use crate::facts::layout;
        layout(
            FACTS,
            "pmix_mutex_t",
            size_of::<Mutex>(),
            &[("m_lock_pthread", offset_of!(Mutex, m_lock_pthread))],
        );
        layout(
            FACTS,
            "pmix_thread_t",
            size_of::<Thread>(),
            &[
                ("t_run", offset_of!(Thread, t_run)),
                ("t_arg", offset_of!(Thread, t_arg)),
                ("t_handle", offset_of!(Thread, t_handle)),
            ],
        );
        layout(
            FACTS,
            "pmix_lock_t",
            size_of::<Lock>(),
            &[
                ("status", offset_of!(Lock, status)),
                ("mutex", offset_of!(Lock, mutex)),
                ("cond", offset_of!(Lock, cond)),
                ("active", offset_of!(Lock, active)),
            ],
        );
        layout(
            FACTS,
            "pmix_condition_t",
            size_of::<libc::pthread_cond_t>(),
            &[],
        );
        layout(
            FACTS,
            "pmix_tsd_key_t",
            size_of::<libc::pthread_key_t>(),
            &[],
        );
    }

    #[test]
    fn static_and_constructed_mutexes_lock() {
        static mut M: Mutex = Mutex::static_init();
        // SAFETY: a static mutex and an object made and released here.
        unsafe {
            let m = &raw mut M;
            assert_eq!((*m).super_.obj_class, mutex_class());
            lock(m);
            assert_eq!(trylock(m), libc::EBUSY);
            unlock(m);
            let n = crate::object::new(mutex_class()) as *mut Mutex;
            assert_eq!(trylock(n), 0);
            unlock(n);
            assert!(crate::object::release(n as *mut Object));
        }
    }

    unsafe extern "C" fn body(o: *mut Object) -> *mut c_void {
        let t = o as *mut Thread;
        // SAFETY: the thread object handed to pmix_thread_start; t_arg is a lock.
        unsafe {
            let l = (*t).t_arg as *mut Lock;
            (*l).status = 7;
            wakeup_thread(l);
        }
        42 as *mut c_void
    }

    #[test]
    fn a_thread_runs_its_body_with_itself_and_joins() {
        // SAFETY: objects made and released here; the lock outlives the thread.
        unsafe {
            let t = crate::object::new(thread_class()) as *mut Thread;
            assert_eq!((*t).t_handle, NO_THREAD);
            assert!((*t).t_run.is_none());
            assert_eq!(pmix_thread_start(t), PMIX_ERR_BAD_PARAM);
            assert_eq!(pmix_thread_join(t, ptr::null_mut()), PMIX_ERROR);
            let mut l: Lock = core::mem::zeroed();
            construct_lock(&mut l);
            (*t).t_run = Some(body);
            (*t).t_arg = (&raw mut l).cast();
            assert_eq!(pmix_thread_start(t), PMIX_SUCCESS);
            wait_thread(&mut l);
            assert_eq!(l.status, 7);
            let mut ret = ptr::null_mut();
            assert_eq!(pmix_thread_join(t, &mut ret), PMIX_SUCCESS);
            assert_eq!(ret as usize, 42);
            assert_eq!((*t).t_handle, NO_THREAD);
            destruct_lock(&mut l);
            assert!(crate::object::release(t as *mut Object));
        }
    }

    #[test]
    fn tsd_keys_are_pthread_keys() {
        static DROPPED: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);
        unsafe extern "C" fn gone(p: *mut c_void) {
            DROPPED.fetch_add(p as usize, core::sync::atomic::Ordering::SeqCst);
        }
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: a key made here.
        assert_eq!(unsafe { pmix_tsd_key_create(&mut key, Some(gone)) }, 0);
        // An explicit join is a pthread_join: the key's destructor has run by then.
        std::thread::spawn(move || {
            // SAFETY: the key is live.
            unsafe { libc::pthread_setspecific(key, 5 as *const c_void) };
        })
        .join()
        .unwrap();
        assert_eq!(DROPPED.load(core::sync::atomic::Ordering::SeqCst), 5);
        // SAFETY: a null key is refused; the key made above is deleted.
        unsafe {
            assert_eq!(pmix_tsd_key_create(ptr::null_mut(), None), libc::EINVAL);
            libc::pthread_key_delete(key);
        }
    }
}
