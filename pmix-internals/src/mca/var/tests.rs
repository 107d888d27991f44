//! The registry's behaviour, as OpenPMIx 5.0.11 has it. The registry and the environment
//! are process-wide, so each test holds `LOCK` and starts from a finalized registry.

use super::group::{Group, pmix_mca_base_var_group_find, pmix_mca_base_var_group_get};
use super::*;
use core::mem::{offset_of, size_of};
use std::sync::MutexGuard;

const FACTS: &str = include_str!("../../../facts/layouts-mcavar.txt");

static LOCK: Mutex<()> = Mutex::new(());

/// Takes the lock, finalizes the registry, and sets the environment: `HOME` a fresh
/// directory (with `conf` as `~/.pmix/mca-params.conf` if given), `PMIX_PARAM_FILE_PASSED`
/// unset, plus `env`.
fn fresh(conf: Option<&str>, env: &[(&str, &str)]) -> MutexGuard<'static, ()> {
    let g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    pmix_mca_base_var_finalize();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let home = std::env::temp_dir().join(format!("mcavar-unit-{}-{n}", std::process::id()));
    std::fs::create_dir_all(home.join(".pmix")).unwrap();
    if let Some(c) = conf {
        std::fs::write(home.join(".pmix/mca-params.conf"), c).unwrap();
    }
    // SAFETY: tests touching the environment hold LOCK.
    unsafe {
        for (k, _) in std::env::vars() {
            if k.starts_with("PMIX_MCA_") || k.starts_with("PRTE_MCA_") {
                std::env::remove_var(k);
            }
        }
        std::env::remove_var("PMIX_PARAM_FILE_PASSED");
        std::env::set_var("HOME", &home);
        for (k, v) in env {
            std::env::set_var(k, v);
        }
    }
    g
}

fn reg(
    p: &CStr,
    f: Option<&CStr>,
    c: Option<&CStr>,
    n: &CStr,
    ty: c_int,
    st: *mut c_void,
) -> c_int {
    let o = |s: Option<&CStr>| s.map_or(ptr::null(), CStr::as_ptr);
    // SAFETY: C strings and a storage of the type.
    unsafe {
        pmix_mca_base_var_register(p.as_ptr(), o(f), o(c), n.as_ptr(), c"desc".as_ptr(), ty, st)
    }
}

fn source_of(i: c_int) -> (c_int, Option<Vec<u8>>) {
    let mut src = -1;
    let mut file: *const c_char = ptr::null();
    // SAFETY: outputs of the right types.
    let rc = unsafe { pmix_mca_base_var_get_value(i, ptr::null_mut(), &mut src, &mut file) };
    assert_eq!(rc, SUCCESS);
    // SAFETY: a registry string or null.
    (src, unsafe { bytes(file) }.map(<[u8]>::to_vec))
}

#[test]
fn layouts_match_openpmix() {
    use crate::facts::layout;
    layout(
        FACTS,
        "pmix_value_array_t",
        size_of::<ValueArray>(),
        &[
            ("array_items", offset_of!(ValueArray, array_items)),
            (
                "array_item_sizeof",
                offset_of!(ValueArray, array_item_sizeof),
            ),
            ("array_size", offset_of!(ValueArray, array_size)),
            ("array_alloc_size", offset_of!(ValueArray, array_alloc_size)),
        ],
    );
    layout(
        FACTS,
        "pmix_mca_base_var_t",
        size_of::<Var>(),
        &[
            ("mbv_index", offset_of!(Var, mbv_index)),
            ("mbv_group_index", offset_of!(Var, mbv_group_index)),
            ("mbv_type", offset_of!(Var, mbv_type)),
            ("mbv_variable_name", offset_of!(Var, mbv_variable_name)),
            ("mbv_full_name", offset_of!(Var, mbv_full_name)),
            ("mbv_long_name", offset_of!(Var, mbv_long_name)),
            ("mbv_prefix", offset_of!(Var, mbv_prefix)),
            ("mbv_synonyms", offset_of!(Var, mbv_synonyms)),
            ("mbv_flags", offset_of!(Var, mbv_flags)),
            ("mbv_source", offset_of!(Var, mbv_source)),
            ("mbv_synonym_for", offset_of!(Var, mbv_synonym_for)),
            ("mbv_description", offset_of!(Var, mbv_description)),
            ("mbv_source_file", offset_of!(Var, mbv_source_file)),
            ("mbv_enumerator", offset_of!(Var, mbv_enumerator)),
            ("mbv_bind", offset_of!(Var, mbv_bind)),
            ("mbv_storage", offset_of!(Var, mbv_storage)),
            ("mbv_file_value", offset_of!(Var, mbv_file_value)),
        ],
    );
    layout(
        FACTS,
        "pmix_mca_base_var_group_t",
        size_of::<Group>(),
        &[
            ("group_index", offset_of!(Group, group_index)),
            ("group_isvalid", offset_of!(Group, group_isvalid)),
            ("group_full_name", offset_of!(Group, group_full_name)),
            ("group_project", offset_of!(Group, group_project)),
            ("group_framework", offset_of!(Group, group_framework)),
            ("group_component", offset_of!(Group, group_component)),
            ("group_description", offset_of!(Group, group_description)),
            ("group_subgroups", offset_of!(Group, group_subgroups)),
            ("group_vars", offset_of!(Group, group_vars)),
        ],
    );
    layout(
        FACTS,
        "pmix_mca_base_var_file_value_t",
        size_of::<FileValue>(),
        &[
            ("mbvfv_var", offset_of!(FileValue, mbvfv_var)),
            ("mbvfv_value", offset_of!(FileValue, mbvfv_value)),
            ("mbvfv_file", offset_of!(FileValue, mbvfv_file)),
            ("mbvfv_lineno", offset_of!(FileValue, mbvfv_lineno)),
        ],
    );
    use super::alias::{Alias, AliasItem};
    layout(
        FACTS,
        "pmix_mca_base_alias_t",
        size_of::<Alias>(),
        &[("component_aliases", offset_of!(Alias, component_aliases))],
    );
    layout(
        FACTS,
        "pmix_mca_base_alias_item_t",
        size_of::<AliasItem>(),
        &[
            ("component_alias", offset_of!(AliasItem, component_alias)),
            ("alias_flags", offset_of!(AliasItem, alias_flags)),
        ],
    );
    assert_eq!(size_of::<TypeNames>(), 72);
}

#[test]
fn each_type_parses_from_the_environment() {
    let _g = fresh(
        None,
        &[
            ("PRTE_MCA_fw_c_i", "-5"),
            ("PRTE_MCA_fw_c_u", "0x10"),
            ("PRTE_MCA_fw_c_ul", "4k"),
            ("PRTE_MCA_fw_c_ull", "3g"),
            ("PRTE_MCA_fw_c_sz", "010"),
            ("PRTE_MCA_fw_c_s", "~/x:~/y"),
            ("PRTE_MCA_fw_c_b", "T"),
            ("PRTE_MCA_fw_c_d", "2.5"),
        ],
    );
    let (mut i, mut u, mut ul, mut ull, mut sz) = (1i32, 1u32, 1u64, 1u64, 1usize);
    let mut s: *mut c_char = c"default".as_ptr().cast_mut();
    let (mut b, mut d) = (false, 0f64);
    let p = c"prte";
    let (f, c) = (Some(c"fw"), Some(c"c"));
    assert!(reg(p, f, c, c"i", TYPE_INT, (&raw mut i).cast()) >= 0);
    assert!(reg(p, f, c, c"u", TYPE_UNSIGNED_INT, (&raw mut u).cast()) >= 0);
    assert!(reg(p, f, c, c"ul", TYPE_UNSIGNED_LONG, (&raw mut ul).cast()) >= 0);
    assert!(
        reg(
            p,
            f,
            c,
            c"ull",
            TYPE_UNSIGNED_LONG_LONG,
            (&raw mut ull).cast()
        ) >= 0
    );
    assert!(reg(p, f, c, c"sz", TYPE_SIZE_T, (&raw mut sz).cast()) >= 0);
    let si = reg(p, f, c, c"s", TYPE_STRING, (&raw mut s).cast());
    assert!(si >= 0);
    assert!(reg(p, f, c, c"b", TYPE_BOOL, (&raw mut b).cast()) >= 0);
    assert!(reg(p, f, c, c"d", TYPE_DOUBLE, (&raw mut d).cast()) >= 0);
    assert_eq!(
        (i, u, ul, ull, sz, b, d),
        (-5, 16, 4096, 3 << 30, 8, true, 2.5)
    );
    let home = std::env::var("HOME").unwrap();
    // SAFETY: the library's string.
    let got = unsafe { bytes(s) };
    assert_eq!(got.unwrap(), format!("{home}/x:{home}/y").as_bytes());
    assert_eq!(source_of(si), (SOURCE_ENV, None));
    pmix_mca_base_var_finalize();
    assert!(s.is_null(), "finalize frees string values");
}

#[test]
fn long_name_wins_and_source_file_is_reported() {
    let _g = fresh(
        None,
        &[
            ("PRTE_MCA_prte_fw_c_x", "7"),
            ("PRTE_MCA_fw_c_x", "8"),
            ("PRTE_MCA_fw_c_y", "9"),
            ("PRTE_MCA_SOURCE_fw_c_y", "file:/etc/some.conf"),
            ("PRTE_MCA_fw_c_z", "1"),
            ("PRTE_MCA_SOURCE_fw_c_z", "command"),
        ],
    );
    let (mut x, mut y, mut z) = (0i32, 0i32, 0i32);
    let xi = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"x",
        TYPE_INT,
        (&raw mut x).cast(),
    );
    let yi = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"y",
        TYPE_INT,
        (&raw mut y).cast(),
    );
    let zi = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"z",
        TYPE_INT,
        (&raw mut z).cast(),
    );
    assert_eq!((x, y, z), (7, 9, 1));
    assert_eq!(source_of(xi), (SOURCE_ENV, None));
    assert_eq!(
        source_of(yi),
        (SOURCE_FILE, Some(b"/etc/some.conf".to_vec()))
    );
    assert_eq!(source_of(zi), (SOURCE_COMMAND_LINE, None));
}

#[test]
fn files_give_values_below_the_environment() {
    let _g = fresh(
        Some("fw_c_a = 3\nprte_fw_c_b = hello world  \nfw_c_c = 1\n"),
        &[("PRTE_MCA_fw_c_c", "2")],
    );
    let (mut a, mut c2, mut d) = (0i32, 0i32, 5i32);
    let mut b: *mut c_char = ptr::null_mut();
    let ai = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"a",
        TYPE_INT,
        (&raw mut a).cast(),
    );
    reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"b",
        TYPE_STRING,
        (&raw mut b).cast(),
    );
    let ci = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"c",
        TYPE_INT,
        (&raw mut c2).cast(),
    );
    let di = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"d",
        TYPE_INT,
        (&raw mut d).cast(),
    );
    // SAFETY: the library's string.
    let bs = unsafe { bytes(b) };
    assert_eq!((a, bs, c2, d), (3, Some(&b"hello world"[..]), 2, 5));
    let home = std::env::var("HOME").unwrap();
    let (src, file) = source_of(ai);
    assert_eq!(src, SOURCE_FILE);
    assert_eq!(
        file.unwrap(),
        format!("{home}/.pmix/mca-params.conf").as_bytes()
    );
    assert_eq!(source_of(ci).0, SOURCE_ENV);
    assert_eq!(source_of(di), (SOURCE_DEFAULT, None));
    // SAFETY: an output array the library allocates.
    unsafe {
        let mut out: *mut *mut c_char = ptr::null_mut();
        assert_eq!(pmix_mca_base_var_dump(ai, &mut out, DUMP_SIMPLE), SUCCESS);
        let line = bytes(*out).unwrap().to_vec();
        assert_eq!(
            line,
            format!("fw_c_a=3 (file ({home}/.pmix/mca-params.conf:1))").as_bytes()
        );
        assert!((*out.add(1)).is_null());
        libc::free((*out).cast());
        libc::free(out.cast());
    }
}

#[test]
fn param_files_are_skipped_when_passed() {
    let _g = fresh(Some("fw_c_a = 3\n"), &[("PMIX_PARAM_FILE_PASSED", "1")]);
    let mut a = 0i32;
    reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"a",
        TYPE_INT,
        (&raw mut a).cast(),
    );
    assert_eq!(a, 0);
    // SAFETY: C strings.
    let i = unsafe {
        pmix_mca_base_var_find(
            ptr::null(),
            c"mca".as_ptr(),
            c"base".as_ptr(),
            c"param_files".as_ptr(),
        )
    };
    assert_eq!(i, ERR_NOT_FOUND, "not even registered");
}

#[test]
fn bools_take_numbers_and_prefixes_of_true_and_false() {
    for (v, want) in [
        ("1", Some(true)),
        ("0", Some(false)),
        ("tRu", Some(true)),
        ("f", Some(false)),
        ("", Some(false)),
        ("yes", None),
        ("truex", None),
    ] {
        let _g = fresh(None, &[("PRTE_MCA_fw_c_b", v)]);
        let mut b = true;
        let rc = reg(
            c"prte",
            Some(c"fw"),
            Some(c"c"),
            c"b",
            TYPE_BOOL,
            (&raw mut b).cast(),
        );
        match want {
            Some(w) => assert_eq!((rc >= 0, b), (true, w), "{v:?}"),
            None => assert_eq!(rc, ERR_VALUE_OUT_OF_BOUNDS, "{v:?}"),
        }
    }
}

#[test]
fn verbose_words_are_not_levels_in_5_0() {
    let _g = fresh(
        None,
        &[
            ("PRTE_MCA_fw_base_verbose", "error"),
            ("PRTE_MCA_fw_c_n", "12abc"),
        ],
    );
    let (mut v, mut n) = (7i32, 0i32);
    reg(
        c"prte",
        Some(c"fw"),
        Some(c"base"),
        c"verbose",
        TYPE_INT,
        (&raw mut v).cast(),
    );
    reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"n",
        TYPE_INT,
        (&raw mut n).cast(),
    );
    assert_eq!((v, n), (0, 12));
}

#[test]
fn synonyms_share_storage_and_report_the_original() {
    let _g = fresh(None, &[("PRTE_MCA_old_c_x", "42")]);
    let mut x = 1i32;
    let xi = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"x",
        TYPE_INT,
        (&raw mut x).cast(),
    );
    // SAFETY: C strings.
    let si = unsafe {
        pmix_mca_base_var_register_synonym(
            xi,
            c"prte".as_ptr(),
            c"old".as_ptr(),
            c"c".as_ptr(),
            c"x".as_ptr(),
            0,
        )
    };
    assert!(si > xi);
    assert_eq!(x, 42);
    assert_eq!(source_of(si).0, SOURCE_ENV);
    assert_eq!(source_of(xi).0, SOURCE_ENV);
    // SAFETY: C strings; a synonym of a synonym is refused.
    unsafe {
        assert_eq!(
            pmix_mca_base_var_register_synonym(
                si,
                c"prte".as_ptr(),
                c"o2".as_ptr(),
                ptr::null(),
                c"x".as_ptr(),
                0
            ),
            ERR_BAD_PARAM
        );
        let mut out: *mut *mut c_char = ptr::null_mut();
        assert_eq!(pmix_mca_base_var_dump(xi, &mut out, DUMP_READABLE), SUCCESS);
        assert_eq!(
            bytes(*out).unwrap(),
            b"\"fw_c_x\" (current value: \"42\", data source: environment, type: int, synonyms: old_c_x)"
        );
        assert_eq!(bytes(*out.add(1)).unwrap(), b"desc");
    }
}

#[test]
fn reregistering_keeps_the_index_and_checks_the_type() {
    let _g = fresh(None, &[]);
    let (mut a, mut b) = (1i32, 2i32);
    let mut s: *mut c_char = ptr::null_mut();
    let i = reg(
        c"prte",
        Some(c"fw"),
        Some(c"c"),
        c"a",
        TYPE_INT,
        (&raw mut a).cast(),
    );
    assert_eq!(
        reg(
            c"pmix",
            Some(c"fw"),
            Some(c"c"),
            c"a",
            TYPE_INT,
            (&raw mut b).cast()
        ),
        i
    );
    assert_eq!(
        reg(
            c"prte",
            Some(c"fw"),
            Some(c"c"),
            c"a",
            TYPE_STRING,
            (&raw mut s).cast()
        ),
        ERR_VALUE_OUT_OF_BOUNDS
    );
    // SAFETY: C strings.
    let found = unsafe {
        pmix_mca_base_var_find(ptr::null(), c"fw".as_ptr(), c"c".as_ptr(), c"a".as_ptr())
    };
    assert_eq!(found, i);
    assert_eq!(pmix_mca_base_var_deregister(i), SUCCESS);
    assert_eq!(pmix_mca_base_var_deregister(i), ERR_BAD_PARAM);
    // SAFETY: outputs of the right types.
    unsafe {
        let mut v: *const Var = ptr::null();
        assert_eq!(pmix_mca_base_var_get(i, &mut v), ERR_NOT_FOUND);
        assert_eq!(
            pmix_mca_base_var_get_value(i, ptr::null_mut(), ptr::null_mut(), ptr::null_mut()),
            ERR_NOT_FOUND
        );
    }
}

#[test]
fn groups_follow_framework_and_component() {
    let _g = fresh(None, &[]);
    let mut a = 1i32;
    let i = reg(
        c"prte",
        Some(c"plm"),
        Some(c"ssh"),
        c"a",
        TYPE_INT,
        (&raw mut a).cast(),
    );
    // SAFETY: C strings, outputs of the right types.
    unsafe {
        let gi = pmix_mca_base_var_group_find(c"prte".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr());
        let fi = pmix_mca_base_var_group_find(c"prte".as_ptr(), c"plm".as_ptr(), ptr::null());
        assert!(
            gi >= 0 && fi >= 0 && fi < gi,
            "the framework's group comes first"
        );
        assert_eq!(
            pmix_mca_base_var_group_find(c"*".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr()),
            gi
        );
        let mut g: *const Group = ptr::null();
        assert_eq!(pmix_mca_base_var_group_get(gi, &mut g), SUCCESS);
        assert_eq!(bytes((*g).group_full_name).unwrap(), b"prte_plm_ssh");
        assert_eq!(ValueArray::ints(&raw const (*g).group_vars), [i]);
        let mut f: *const Group = ptr::null();
        pmix_mca_base_var_group_get(fi, &mut f);
        assert_eq!(ValueArray::ints(&raw const (*f).group_subgroups), [gi]);
        let mut v: *const Var = ptr::null();
        assert_eq!(pmix_mca_base_var_get(i, &mut v), SUCCESS);
        assert_eq!((*v).mbv_group_index, gi);
        assert_eq!(bytes((*v).mbv_long_name).unwrap(), b"prte_plm_ssh_a");
        assert_eq!(bytes((*v).mbv_prefix).unwrap(), b"PRTE_MCA_");
        assert_eq!(group::pmix_mca_base_var_group_deregister(fi), SUCCESS);
        assert_eq!(
            pmix_mca_base_var_group_find(c"prte".as_ptr(), c"plm".as_ptr(), c"ssh".as_ptr()),
            ERR_NOT_FOUND
        );
        assert_eq!(
            pmix_mca_base_var_get(i, &mut v),
            ERR_NOT_FOUND,
            "its variables go too"
        );
    }
}

#[test]
fn int_parsing_follows_strtoull() {
    assert_eq!(int_from_string(b"4294967295"), 4294967295);
    assert_eq!(strtoull(b"-1"), (u64::MAX, 2));
    assert_eq!(strtoull(b"0x"), (0, 1));
    assert_eq!(strtoull(b"99999999999999999999999"), (u64::MAX, 23));
    assert_eq!(int_from_string(b"2m"), 2 << 20);
}
