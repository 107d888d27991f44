use super::*;

fn list(s: &str) -> String {
    format_list(&parse_list(s.as_bytes())).to_string()
}

#[test]
fn list_syntax_follows_hwloc() {
    // Expected values measured with hwloc_bitmap_list_sscanf + list_asprintf (hwloc 2.9).
    for (input, want) in [
        ("0-3,8", "0-3,8"),
        ("", ""),
        ("1,0", "0-1"),
        ("3-1", ""),
        ("0-", "0-"),
        (" 1", "1"),
        ("0-3:4", "0-4"),
        ("0x3", "3"),
        ("010", "8"),
        ("abc", ""),
        ("1,,", ""),
        ("1,", "1"),
        ("0-3-5", "0-3,5"),
        ("2 4", "2,4"),
        ("5-", "5-"),
    ] {
        assert_eq!(list(input), want, "{input:?}");
    }
    assert!(try_parse_list(b"99999999999").is_none());
    assert!(try_parse_list(b"abc").is_none());
}

#[test]
fn cpuset_strings() {
    let c = parse_cpuset_string(b"HWLOCx:1,0").unwrap();
    assert_eq!(c.source.as_ref().unwrap(), "hwloc");
    assert_eq!(c.bitmap.as_ref().unwrap(), "0-1");
    assert_eq!(cpuset_string(&c).unwrap(), "hwloc:0-1");
    assert_eq!(parse_cpuset_string(b"0-3"), Err(Error::BadParam));
    assert_eq!(parse_cpuset_string(b"foo:0-3"), Err(not_ours()));
    assert_eq!(parse_cpuset_string(b"hwl:0-3"), Err(not_ours()));
    let none = Cpuset {
        source: Some(PStr::from("hwloc")),
        bitmap: None,
    };
    assert_eq!(cpuset_string(&none), Err(Error::BadParam));
}

#[test]
fn relative_locality_rules() {
    let node = PMIX_LOCALITY_SHARE_NODE;
    let r = |a: &str, b: &str| relative_locality(a.as_bytes(), b.as_bytes());
    assert_eq!(
        r("SK0:L30:L20:L10:CR0:HT0:NM0", "SK0:L30:L21:L11:CR1:HT1:NM0"),
        Ok(node
            | PMIX_LOCALITY_SHARE_PACKAGE
            | PMIX_LOCALITY_SHARE_L3CACHE
            | PMIX_LOCALITY_SHARE_NUMA)
    );
    assert_eq!(r("hwloc:CR0-1", "CR1"), Ok(node | PMIX_LOCALITY_SHARE_CORE));
    assert_eq!(r("SK0", "SK1"), Ok(node));
    assert_eq!(r("foo", "SK1"), Err(not_ours()));
    assert_eq!(r("", ""), Err(not_ours()));
    assert_eq!(r("hwloc:XX0", "hwloc:XX0"), Err(Error::Status(PMIX_ERROR)));
    assert_eq!(r("hwloc:XX0", "hwloc:XX1"), Ok(node));
    // Only the first token of the same level is compared.
    assert_eq!(r("HT0", "HT1:HT0"), Ok(node));
}

#[test]
fn locality_strings_of_a_synthetic_machine() {
    let t = LocalTopology::from_synthetic("pack:2 l3:1 l2:2 l1d:1 core:1 pu:2").unwrap();
    let cs = |s: &str| Cpuset {
        source: Some(PStr::from("hwloc")),
        bitmap: Some(PStr::from(s)),
    };
    assert_eq!(
        t.locality_string(&cs("0")).unwrap().unwrap(),
        "SK0:L30:L20:L10:CR0:HT0:NM0"
    );
    assert_eq!(
        t.locality_string(&cs("2-5")).unwrap().unwrap(),
        "SK0-1:L30-1:L21-2:L11-2:CR1-2:HT2-5:NM0"
    );
    assert_eq!(t.locality_string(&cs("0-")).unwrap(), None);
    assert_eq!(t.locality_string(&cs("")).unwrap(), None);
    assert_eq!(t.locality_string(&cs("100")).unwrap(), None);
    let foreign = Cpuset {
        source: Some(PStr::from("foo")),
        bitmap: Some(PStr::from("0")),
    };
    assert_eq!(t.locality_string(&foreign), Err(not_ours()));
    assert_eq!(t.count(ObjectType::PU), 8);
    let xml = t.xml().unwrap();
    let back = LocalTopology::from_xml(&xml).unwrap();
    assert_eq!(back.object_cpusets(), t.object_cpusets());
}

#[test]
fn source_matching() {
    let t = LocalTopology {
        topo: HwTopology::builder()
            .from_synthetic("pu:2")
            .unwrap()
            .build()
            .unwrap(),
        source: PStr::from("hwloc:2.9.0"),
    };
    for ok in ["hwloc", "HWLOC", "hwloc:2.9", "hwloc:2.9.0"] {
        assert_eq!(t.check_source(ok.as_bytes()), Ok(()), "{ok}");
    }
    for bad in ["foo", "hwloc:1.0", "hwloc:2.9.0.1", "hwl"] {
        assert_eq!(t.check_source(bad.as_bytes()), Err(not_ours()), "{bad}");
    }
}

#[test]
fn binding_of_this_process_is_a_list() {
    let t = local().unwrap();
    assert!(t.source().as_bytes().starts_with(b"hwloc"));
    for env in [BindEnvelope::Process, BindEnvelope::Thread] {
        let b = t.cpu_binding(env).unwrap();
        assert!(
            try_parse_list(b.as_bytes()).is_some_and(|s| !s.is_empty()),
            "{b}"
        );
    }
    assert_eq!(BindEnvelope::from_raw(7), Err(Error::BadParam));
}
