//! Checks of our `#[repr(C)]` layouts against the facts in `facts/layouts-*.txt`: OpenPMIx
//! 5.0.11's non-debug sizes and member offsets on x86-64, measured with `sizeof`/`offsetof`
//! probes compiled against its headers (how: `facts/README.md`).
//!
//! A facts line is `TYPE SIZE` or `TYPE.MEMBER OFFSET`; `#` starts a comment.

/// Asserts that `ty` has `size` bytes and each `(member, offset)` the offset the facts give,
/// and that every member the facts list for `ty` is checked.
pub fn layout(facts: &str, ty: &str, size: usize, members: &[(&str, usize)]) {
    let mut seen_size = false;
    let mut listed = Vec::new();
    for line in facts.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut w = line.split_whitespace();
        let (Some(name), Some(n)) = (w.next(), w.next()) else {
            continue;
        };
        let n: usize = n
            .parse()
            .unwrap_or_else(|_| panic!("bad facts line: {line}"));
        if name == ty {
            assert_eq!(size, n, "size of {ty}");
            seen_size = true;
        } else if let Some(m) = name.strip_prefix(ty).and_then(|r| r.strip_prefix('.')) {
            let ours = members
                .iter()
                .find(|(k, _)| *k == m)
                .unwrap_or_else(|| panic!("{ty}.{m} is in the facts but not checked"));
            assert_eq!(ours.1, n, "offset of {ty}.{m}");
            listed.push(m);
        }
    }
    assert!(seen_size, "{ty} is not in the facts");
    for (m, _) in members {
        assert!(
            listed.contains(m),
            "{ty}.{m} is checked but not in the facts"
        );
    }
}
