//! Differential tests of the container and thread families of OpenPMIx's internal layer
//! (`pmix_pointer_array_*`, `pmix_hash_table_*` with pointer keys, `pmix_bitmap_*`,
//! `pmix_mutex_t`, `pmix_thread_*`, `pmix_tsd_key_create`): objects of each class are made
//! in both libraries as PRRTE's inline `PMIX_NEW` makes them (allocate `cls_sizeof`, call
//! that library's `pmix_class_initialize` when the epoch differs, walk
//! `cls_construct_array`), the same calls are made on both, and the fields PRRTE reads
//! inline are compared after each call.

use std::ffi::{c_int, c_void};
use std::ptr;

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};
use proptest::prelude::*;

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the symbol's C prototype (or a pointer type for
    // a data object, whose address the symbol is).
    unsafe { l.sym(name) }
}

fn both() -> [&'static Pmix; 2] {
    [reference5_uninitialized(), ours()]
}

type Ctor = Option<unsafe extern "C" fn(*mut c_void)>;

/// `pmix_class_t`.
#[repr(C)]
struct Class {
    cls_name: *const std::ffi::c_char,
    cls_parent: *mut Class,
    cls_construct: Ctor,
    cls_destruct: Ctor,
    cls_initialized: c_int,
    cls_depth: c_int,
    cls_construct_array: *mut Ctor,
    cls_destruct_array: *mut Ctor,
    cls_sizeof: usize,
}

/// The head of `pmix_object_t` (120 bytes).
#[repr(C)]
struct Head {
    obj_lock: libc::pthread_mutex_t,
    obj_class: *mut Class,
    obj_reference_count: i32,
    obj_tma: [*mut c_void; 8],
}

/// `pmix_pointer_array_t`.
#[repr(C)]
struct PointerArray {
    head: Head,
    lowest_free: c_int,
    number_free: c_int,
    size: c_int,
    max_size: c_int,
    block_size: c_int,
    free_bits: *mut u64,
    addr: *mut *mut c_void,
}

/// `pmix_hash_table_t`.
#[repr(C)]
struct HashTable {
    head: Head,
    ht_label: *const std::ffi::c_char,
    ht_table: *mut c_void,
    ht_capacity: usize,
    ht_size: usize,
    ht_growth_trigger: usize,
    ht_density: [c_int; 2],
    ht_growth: [c_int; 2],
    ht_type_methods: *const c_void,
}

/// `pmix_bitmap_t`.
#[repr(C)]
struct Bitmap {
    head: Head,
    bitmap: *mut u64,
    array_size: c_int,
    max_size: c_int,
}

/// `pmix_mutex_t`.
#[repr(C)]
struct Mutex {
    head: Head,
    m_lock_pthread: libc::pthread_mutex_t,
}

/// `pmix_thread_t`.
#[repr(C)]
struct Thread {
    head: Head,
    t_run: Option<unsafe extern "C" fn(*mut Thread) -> *mut c_void>,
    t_arg: *mut c_void,
    t_handle: libc::pthread_t,
}

/// `cls` of library `l`, initialized as the inline `PMIX_NEW` would.
fn class(l: &Pmix, name: &str) -> *mut Class {
    let cls: *mut Class = f(l, name);
    let epoch: *const c_int = f(l, "pmix_class_init_epoch");
    let init: unsafe extern "C" fn(*mut Class) = f(l, "pmix_class_initialize");
    // SAFETY: the library's own class descriptor and epoch.
    unsafe {
        if (*cls).cls_initialized != *epoch {
            init(cls);
        }
    }
    cls
}

/// The constructors (or destructors) of an initialized class, in the order run.
fn ctor_list(mut a: *mut Ctor) -> Vec<unsafe extern "C" fn(*mut c_void)> {
    let mut out = Vec::new();
    // SAFETY: a null-terminated array built by pmix_class_initialize.
    unsafe {
        if a.is_null() {
            return out;
        }
        while let Some(c) = *a {
            out.push(c);
            a = a.add(1);
        }
    }
    out
}

/// `PMIX_NEW(name)` in library `l`.
fn new<T>(l: &Pmix, name: &str) -> *mut T {
    let cls = class(l, name);
    // SAFETY: cls_sizeof bytes from libc, set up as pmix_obj_new does, then constructed.
    unsafe {
        let o = libc::malloc((*cls).cls_sizeof) as *mut Head;
        assert!(!o.is_null());
        libc::pthread_mutex_init(&raw mut (*o).obj_lock, ptr::null());
        (*o).obj_class = cls;
        (*o).obj_reference_count = 1;
        (*o).obj_tma = [ptr::null_mut(); 8];
        for c in ctor_list((*cls).cls_construct_array) {
            c(o.cast());
        }
        o.cast()
    }
}

/// `PMIX_RELEASE` of the last reference.
fn release<T>(o: *mut T) {
    // SAFETY: an object made by `new`.
    unsafe {
        let h = o as *mut Head;
        for d in ctor_list((*(*h).obj_class).cls_destruct_array) {
            d(o.cast());
        }
        libc::free(o.cast());
    }
}

#[test]
fn class_descriptors_agree() {
    for name in [
        "pmix_pointer_array_t_class",
        "pmix_hash_table_t_class",
        "pmix_bitmap_t_class",
        "pmix_mutex_t_class",
        "pmix_thread_t_class",
    ] {
        let shape: Vec<_> = both()
            .iter()
            .map(|l| {
                let cls = class(l, name);
                let root: *mut Class = f(l, "pmix_object_t_class");
                // SAFETY: initialized descriptors of each library.
                unsafe {
                    assert_eq!((*cls).cls_parent, root, "{l:?} {name}");
                    (
                        (*cls).cls_sizeof,
                        (*cls).cls_depth,
                        ctor_list((*cls).cls_construct_array).len(),
                        ctor_list((*cls).cls_destruct_array).len(),
                    )
                }
            })
            .collect();
        assert_eq!(shape[0], shape[1], "{name}: sizeof, depth, ctors, dtors");
    }
}

// Pointer arrays.

#[derive(Debug, Clone)]
enum PaOp {
    Add(usize),
    Set(c_int, usize),
    SetSize(c_int),
    /// The inline `pmix_pointer_array_remove_all`, done on the fields as PRRTE does.
    RemoveAll,
}

type PaInit = unsafe extern "C" fn(*mut PointerArray, c_int, c_int, c_int) -> c_int;
type PaAdd = unsafe extern "C" fn(*mut PointerArray, *mut c_void) -> c_int;
type PaSet = unsafe extern "C" fn(*mut PointerArray, c_int, *mut c_void) -> c_int;
type PaSetSize = unsafe extern "C" fn(*mut PointerArray, c_int) -> c_int;

/// Everything PRRTE can see of an array.
#[derive(Debug, PartialEq)]
struct PaState {
    lowest_free: c_int,
    number_free: c_int,
    size: c_int,
    max_size: c_int,
    block_size: c_int,
    free_bits: Vec<u64>,
    addr: Vec<usize>,
}

fn pa_state(a: *const PointerArray) -> PaState {
    // SAFETY: a live array; `size` slots and ceil(size / 64) words.
    unsafe {
        let size = (*a).size.max(0) as usize;
        let words = size.div_ceil(64);
        PaState {
            lowest_free: (*a).lowest_free,
            number_free: (*a).number_free,
            size: (*a).size,
            max_size: (*a).max_size,
            block_size: (*a).block_size,
            free_bits: if (*a).free_bits.is_null() {
                vec![]
            } else {
                std::slice::from_raw_parts((*a).free_bits, words).to_vec()
            },
            addr: if (*a).addr.is_null() {
                vec![]
            } else {
                std::slice::from_raw_parts((*a).addr, size)
                    .iter()
                    .map(|p| *p as usize)
                    .collect()
            },
        }
    }
}

/// The inline `pmix_pointer_array_remove_all` of OpenPMIx's header.
fn inline_remove_all(a: *mut PointerArray) {
    // SAFETY: a live array.
    unsafe {
        if (*a).number_free == (*a).size {
            return;
        }
        (*a).lowest_free = 0;
        (*a).number_free = (*a).size;
        for i in 0..(*a).size as usize {
            *(*a).addr.add(i) = ptr::null_mut();
        }
        for w in 0..((*a).size as usize).div_ceil(64) {
            *(*a).free_bits.add(w) = 0;
        }
    }
}

/// Runs `init` then `ops` on a new array in each library; asserts the same return codes and
/// states after every step.
fn pa_run(init: (c_int, c_int, c_int), ops: &[PaOp]) {
    let libs = both();
    let arrays: Vec<*mut PointerArray> = libs
        .iter()
        .map(|l| new(l, "pmix_pointer_array_t_class"))
        .collect();
    let step = |what: &dyn Fn(&Pmix, *mut PointerArray) -> c_int, label: &str| {
        let rcs: Vec<c_int> = libs.iter().zip(&arrays).map(|(l, a)| what(l, *a)).collect();
        let states: Vec<PaState> = arrays.iter().map(|a| pa_state(*a)).collect();
        assert_eq!(rcs[0], rcs[1], "{label}: return code (ref, ours)");
        assert_eq!(states[0], states[1], "{label}: state (ref, ours)");
    };
    step(&|_, _| 0, "constructed");
    step(
        &|l, a| {
            let fun: PaInit = f(l, "pmix_pointer_array_init");
            // SAFETY: a constructed array.
            unsafe { fun(a, init.0, init.1, init.2) }
        },
        &format!("init{init:?}"),
    );
    for (n, op) in ops.iter().enumerate() {
        let label = format!("op {n} {op:?} after init{init:?}");
        step(
            &|l, a| {
                // SAFETY: an initialized array; the pointers stored are never dereferenced.
                unsafe {
                    match *op {
                        PaOp::Add(p) => {
                            f::<PaAdd>(l, "pmix_pointer_array_add")(a, p as *mut c_void)
                        }
                        PaOp::Set(i, p) => {
                            f::<PaSet>(l, "pmix_pointer_array_set_item")(a, i, p as *mut c_void)
                        }
                        PaOp::SetSize(n) => f::<PaSetSize>(l, "pmix_pointer_array_set_size")(a, n),
                        PaOp::RemoveAll => {
                            inline_remove_all(a);
                            0
                        }
                    }
                }
            },
            &label,
        );
    }
    for a in arrays {
        release(a);
    }
}

#[test]
fn pointer_array_init_and_growth_edges() {
    use PaOp::*;
    // The block size given (0 here) is the first allocation, the stored one is 8.
    pa_run((0, 100, 0), &[Add(1), Add(2), SetSize(8), Set(9, 3)]);
    pa_run(
        (0, 100, 16),
        &[Set(15, 1), Add(2), SetSize(16), SetSize(17)],
    );
    // max_size < block_size is refused and leaves the constructor's values.
    pa_run((4, 2, 3), &[]);
    // Growth capped by max_size; refused at or past it.
    pa_run(
        (2, 5, 4),
        &[
            Set(5, 1),
            Set(4, 1),
            Add(2),
            Add(3),
            Add(4),
            Add(5),
            Add(6),
            SetSize(6),
        ],
    );
    // Full arrays growing on add: index size + 1 is asked for.
    pa_run(
        (1, i32::MAX, 1),
        &[Add(1), Add(2), Add(3), Add(4), Set(0, 0), Add(5)],
    );
    // Crossing 64-slot words, freeing below lowest_free, nulling free slots.
    let mut ops: Vec<PaOp> = (1..=70).map(Add).collect();
    ops.extend([
        Set(3, 0),
        Set(64, 0),
        Set(65, 0),
        Set(3, 0),
        Add(99),
        Add(98),
        Add(97),
    ]);
    ops.extend([
        Set(200, 7),
        RemoveAll,
        Add(1),
        Set(130, 2),
        SetSize(1000),
        Add(3),
    ]);
    pa_run((8, i32::MAX, 8), &ops);
    // Larger first allocation than max_size.
    pa_run((20, 10, 4), &[Add(1), Set(19, 2), Set(25, 3), SetSize(30)]);
    // A negative index.
    pa_run((4, 100, 4), &[Set(-1, 1), Add(1)]);
}

fn pa_op() -> impl Strategy<Value = PaOp> {
    prop_oneof![
        6 => (1usize..1000).prop_map(PaOp::Add),
        6 => (-2i32..300, prop_oneof![Just(0usize), 1usize..1000]).prop_map(|(i, p)| PaOp::Set(i, p)),
        1 => (0i32..400).prop_map(PaOp::SetSize),
        1 => Just(PaOp::RemoveAll),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn pointer_array_sequences(
        initial in 0i32..80,
        max_size in prop_oneof![Just(i32::MAX), 1i32..300],
        block in 0i32..20,
        ops in proptest::collection::vec(pa_op(), 0..150),
    ) {
        pa_run((initial, max_size, block), &ops);
    }
}

// Hash tables with pointer keys.

type HtInit = unsafe extern "C" fn(*mut HashTable, usize) -> c_int;
type HtSet = unsafe extern "C" fn(*mut HashTable, *const c_void, usize, *mut c_void) -> c_int;
type HtGet = unsafe extern "C" fn(*mut HashTable, *const c_void, usize, *mut *mut c_void) -> c_int;
type HtNext = unsafe extern "C" fn(
    *mut HashTable,
    *mut *mut c_void,
    *mut usize,
    *mut *mut c_void,
    *mut c_void,
    *mut *mut c_void,
) -> c_int;

/// The whole `PMIX_HASH_TABLE_FOREACH_PTR` walk: keys, sizes and values in order, and the
/// final return code.
fn ht_walk(l: &Pmix, ht: *mut HashTable) -> (Vec<(Vec<u8>, usize)>, c_int) {
    let next: HtNext = f(l, "pmix_hash_table_get_next_key_ptr");
    let mut out = Vec::new();
    let mut node: *mut c_void = ptr::null_mut();
    loop {
        let (mut k, mut n, mut v) = (ptr::null_mut(), 0usize, ptr::null_mut());
        // SAFETY: an initialized table; the key returned is the table's copy.
        unsafe {
            let r = next(ht, &mut k, &mut n, &mut v, node, &mut node);
            if r != 0 {
                return (out, r);
            }
            let key = if n == 0 {
                vec![]
            } else {
                std::slice::from_raw_parts(k as *const u8, n).to_vec()
            };
            out.push((key, v as usize));
        }
    }
}

#[derive(Debug, Clone)]
enum HtOp {
    Set(Vec<u8>, usize),
    Get(Vec<u8>),
}

fn ht_run(size: usize, ops: &[HtOp]) {
    let libs = both();
    let tables: Vec<*mut HashTable> = libs
        .iter()
        .map(|l| {
            let ht = new::<HashTable>(l, "pmix_hash_table_t_class");
            let init: HtInit = f(l, "pmix_hash_table_init");
            // SAFETY: a constructed table.
            assert_eq!(unsafe { init(ht, size) }, 0, "{l:?} init");
            ht
        })
        .collect();
    for (n, op) in ops.iter().enumerate() {
        let res: Vec<(c_int, usize, usize, usize)> = libs
            .iter()
            .zip(&tables)
            .map(|(l, ht)| {
                let mut v: *mut c_void = ptr::null_mut();
                // SAFETY: an initialized table; keys are the test's bytes.
                let r = unsafe {
                    match op {
                        HtOp::Set(k, val) => f::<HtSet>(l, "pmix_hash_table_set_value_ptr")(
                            *ht,
                            k.as_ptr().cast(),
                            k.len(),
                            *val as *mut c_void,
                        ),
                        HtOp::Get(k) => f::<HtGet>(l, "pmix_hash_table_get_value_ptr")(
                            *ht,
                            k.as_ptr().cast(),
                            k.len(),
                            &mut v,
                        ),
                    }
                };
                // SAFETY: reading the size (the inline pmix_hash_table_get_size) and
                // capacity of a live table.
                unsafe { (r, v as usize, (**ht).ht_size, (**ht).ht_capacity) }
            })
            .collect();
        assert_eq!(res[0], res[1], "op {n} {op:?}: (rc, value, size, capacity)");
    }
    let walks: Vec<_> = libs
        .iter()
        .zip(&tables)
        .map(|(l, ht)| ht_walk(l, *ht))
        .collect();
    assert_eq!(walks[0], walks[1], "iteration (ref, ours)");
    for ht in tables {
        release(ht);
    }
}

#[test]
fn hash_table_lookups_and_iteration_order() {
    use HtOp::*;
    let mut ops = vec![Get(b"missing".to_vec()), Set(vec![], 1), Get(vec![])];
    // Enough signatures to grow the table twice (init 4: 31 slots, grows at 15 keys).
    for i in 0..60u32 {
        ops.push(Set(format!("sig-{i}").into_bytes(), i as usize + 10));
        ops.push(Get(format!("sig-{}", i / 2).into_bytes()));
    }
    ops.push(Set(b"sig-3".to_vec(), 999));
    ops.push(Get(b"sig-3".to_vec()));
    ops.push(Get(b"sig-".to_vec()));
    ht_run(4, &ops);
    ht_run(128, &ops);
    ht_run(0, &ops);
}

#[test]
fn hash_table_empty_walk_ends_with_pmix_error() {
    for l in both() {
        let ht = new::<HashTable>(l, "pmix_hash_table_t_class");
        let init: HtInit = f(l, "pmix_hash_table_init");
        // SAFETY: a constructed table.
        assert_eq!(unsafe { init(ht, 8) }, 0);
        assert_eq!(
            ht_walk(l, ht),
            (vec![], -1),
            "{l:?}: an empty walk ends with PMIX_ERROR"
        );
        release(ht);
    }
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..12),
        (0u8..40).prop_map(|n| vec![n]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn hash_table_sequences(
        size in 0usize..40,
        ops in proptest::collection::vec(
            prop_oneof![
                (key(), 1usize..1000).prop_map(|(k, v)| HtOp::Set(k, v)),
                key().prop_map(HtOp::Get),
            ],
            0..200,
        ),
    ) {
        ht_run(size, &ops);
    }
}

// Bitmaps.

#[derive(Debug, Clone)]
enum BmOp {
    Init(c_int),
    SetBit(c_int),
    ClearBit(c_int),
    IsSet(c_int),
}

fn bm_run(ops: &[BmOp]) {
    let libs = both();
    let maps: Vec<*mut Bitmap> = libs.iter().map(|l| new(l, "pmix_bitmap_t_class")).collect();
    for (n, op) in ops.iter().enumerate() {
        let res: Vec<(c_int, c_int, c_int, Vec<u64>)> = libs
            .iter()
            .zip(&maps)
            .map(|(l, bm)| {
                let bm = *bm;
                // SAFETY: a constructed bitmap; its words are read within array_size.
                unsafe {
                    let r = match *op {
                        BmOp::Init(s) => f::<unsafe extern "C" fn(*mut Bitmap, c_int) -> c_int>(
                            l,
                            "pmix_bitmap_init",
                        )(bm, s),
                        BmOp::SetBit(b) => f::<unsafe extern "C" fn(*mut Bitmap, c_int) -> c_int>(
                            l,
                            "pmix_bitmap_set_bit",
                        )(bm, b),
                        BmOp::ClearBit(b) => {
                            f::<unsafe extern "C" fn(*mut Bitmap, c_int) -> c_int>(
                                l,
                                "pmix_bitmap_clear_bit",
                            )(bm, b)
                        }
                        BmOp::IsSet(b) => c_int::from(f::<
                            unsafe extern "C" fn(*mut Bitmap, c_int) -> bool,
                        >(
                            l, "pmix_bitmap_is_set_bit"
                        )(bm, b)),
                    };
                    let words = if (*bm).bitmap.is_null() {
                        vec![]
                    } else {
                        std::slice::from_raw_parts((*bm).bitmap, (*bm).array_size as usize).to_vec()
                    };
                    (r, (*bm).array_size, (*bm).max_size, words)
                }
            })
            .collect();
        assert_eq!(
            res[0], res[1],
            "op {n} {op:?}: (rc, array_size, max_size, words)"
        );
    }
    for bm in maps {
        release(bm);
    }
}

#[test]
fn bitmap_edges() {
    use BmOp::*;
    bm_run(&[
        Init(0),
        Init(-3),
        SetBit(0),
        IsSet(0),
        ClearBit(0),
        IsSet(1),
    ]);
    bm_run(&[
        Init(8),
        SetBit(3),
        SetBit(63),
        SetBit(64),
        IsSet(64),
        ClearBit(64),
        ClearBit(128),
        SetBit(-1),
        ClearBit(-1),
        IsSet(-1),
        SetBit(1000),
        Init(65),
        IsSet(3),
    ]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn bitmap_sequences(ops in proptest::collection::vec(
        prop_oneof![
            1 => (-1i32..300).prop_map(BmOp::Init),
            4 => (-1i32..700).prop_map(BmOp::SetBit),
            3 => (-1i32..700).prop_map(BmOp::ClearBit),
            3 => (-1i32..700).prop_map(BmOp::IsSet),
        ],
        0..100,
    )) {
        bm_run(&ops);
    }
}

// Threads.

#[test]
fn constructed_mutexes_and_threads_agree() {
    let rows: Vec<_> = both()
        .iter()
        .map(|l| {
            let m = new::<Mutex>(l, "pmix_mutex_t_class");
            let t = new::<Thread>(l, "pmix_thread_t_class");
            // SAFETY: live objects; a default pthread mutex is all zeros once initialized.
            let row = unsafe {
                let bytes: [u8; 40] = std::mem::transmute_copy(&(*m).m_lock_pthread);
                assert_eq!(libc::pthread_mutex_trylock(&raw mut (*m).m_lock_pthread), 0);
                libc::pthread_mutex_unlock(&raw mut (*m).m_lock_pthread);
                (bytes, (*t).t_run.is_none(), (*t).t_handle)
            };
            release(m);
            release(t);
            row
        })
        .collect();
    assert_eq!(rows[0], rows[1], "(mutex bytes, no t_run, t_handle)");
    assert_eq!(
        rows[1].2, !0,
        "a thread not started has handle (pthread_t) -1"
    );
}

unsafe extern "C" fn thread_body(t: *mut Thread) -> *mut c_void {
    // SAFETY: the thread object handed to pmix_thread_start: t_arg is an int to bump.
    unsafe {
        let n = (*t).t_arg as *mut c_int;
        *n += 1;
        (*t).t_arg
    }
}

#[test]
fn threads_start_and_join_alike() {
    let rows: Vec<_> = both()
        .iter()
        .map(|l| {
            let start: unsafe extern "C" fn(*mut Thread) -> c_int = f(l, "pmix_thread_start");
            let join: unsafe extern "C" fn(*mut Thread, *mut *mut c_void) -> c_int =
                f(l, "pmix_thread_join");
            let t = new::<Thread>(l, "pmix_thread_t_class");
            let mut count: c_int = 0;
            let mut ret: *mut c_void = ptr::null_mut();
            // SAFETY: a thread object that outlives its thread; `count` outlives it too.
            let row = unsafe {
                (*t).t_run = Some(thread_body);
                (*t).t_arg = (&raw mut count).cast();
                let s = start(t);
                let j = join(t, &mut ret);
                (s, j, count, ret == (&raw mut count).cast(), (*t).t_handle)
            };
            release(t);
            row
        })
        .collect();
    assert_eq!(
        rows[0], rows[1],
        "(start, join, count, returned t_arg, handle after)"
    );
    assert_eq!(rows[1], (0, 0, 1, true, !0));
}

#[test]
fn tsd_keys_alike() {
    for l in both() {
        let create: unsafe extern "C" fn(
            *mut libc::pthread_key_t,
            Option<unsafe extern "C" fn(*mut c_void)>,
        ) -> c_int = f(l, "pmix_tsd_key_create");
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: a key made, used and deleted here.
        unsafe {
            assert_eq!(create(&mut key, None), 0, "{l:?}");
            assert_eq!(libc::pthread_setspecific(key, 9 as *const c_void), 0);
            assert_eq!(libc::pthread_getspecific(key) as usize, 9);
            libc::pthread_key_delete(key);
        }
    }
}
