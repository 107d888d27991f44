//! The import rule of the crates with rooms (`docs/architecture.md`, "Floors"): each room
//! (a top-level module) imports only rooms on lower floors, and the files of a room that
//! is a folder do not import each other in a circle.
//!
//! A room's imports are read from its source: every path that starts with `crate::` (in
//! `use` lines, brace groups included, and in code) names the room it leads into, and
//! every `super::` path of a file inside a folder names a sibling file or the folder's own
//! `mod.rs`. Comments, string literals and test modules are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The crates whose rooms the rule covers.
pub const CRATES: &[&str] = &["pmix-core", "pmix-ffi", "pmix-internals", "pmixrun"];

/// Which rooms each room imports, per crate; and within folder rooms, which files import
/// which sibling files.
#[derive(Debug, Default)]
pub struct Graph {
    /// room -> rooms it imports (other than itself).
    pub rooms: BTreeMap<String, BTreeSet<String>>,
    /// (folder, file) -> sibling files of the same folder it imports.
    pub siblings: BTreeMap<(String, String), BTreeSet<String>>,
}

/// Source text with comments, string and char literals blanked (newlines kept), so that
/// paths are read only from code.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'r'
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
            && !ident_before(b, i)
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&x| x == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                if b[j] == b'\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a), left as it is.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.push_str("' '");
                    i = e + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// `text` without the bodies of `#[cfg(test)]` items (inline test modules).
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(p) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..p]);
        let after = &rest[p..];
        // Skip to the item's end: its matching closing brace, or the `;` of a one-liner.
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The first segments of the paths that follow each `prefix::` in `code`: `prefix::a::b`
/// gives `a`; `prefix::{a::b, c}` gives `a` and `c`.
fn first_segments(code: &str, prefix: &str) -> Vec<String> {
    let pat = format!("{prefix}::");
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut from = 0;
    while let Some(p) = code[from..].find(&pat) {
        let at = from + p;
        from = at + pat.len();
        if ident_before(b, at) || (at > 0 && b[at - 1] == b'$') {
            continue;
        }
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // The items of the group at depth 1.
            let mut depth = 1;
            let mut item = String::new();
            let mut items = Vec::new();
            for ch in group.chars() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        items.push(std::mem::take(&mut item));
                        continue;
                    }
                    _ => {}
                }
                if depth >= 1 {
                    item.push(ch);
                }
            }
            items.push(item);
            for it in items {
                let name: String = it
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The `.rs` files under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The module path of a source file below `src`: `a.rs` and `a/mod.rs` are `[a]`,
/// `a/b.rs` is `[a, b]`, `lib.rs` and `main.rs` are `[]`; files of `src/bin` are not
/// modules of the crate (`None`).
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?.to_string();
    if !(parts.is_empty() && (stem == "lib" || stem == "main")) && stem != "mod" {
        parts.push(stem);
    }
    Some(parts)
}

/// Whether a module is test code: a `tests` module or file.
fn is_test(module: &[String]) -> bool {
    module.iter().any(|m| m == "tests" || m.ends_with("_tests"))
}

/// The import graph of one crate.
pub fn graph(root: &Path, krate: &str) -> Result<Graph, String> {
    let src = root.join(krate).join("src");
    let files: Vec<(Vec<String>, PathBuf)> = rust_files(&src)?
        .into_iter()
        .filter_map(|f| module_of(&src, &f).map(|m| (m, f)))
        .collect();
    let rooms: BTreeSet<String> = files
        .iter()
        .filter_map(|(m, _)| m.first().cloned())
        .filter(|r| r != "tests")
        .collect();
    let mut g = Graph::default();
    for r in &rooms {
        g.rooms.entry(r.clone()).or_default();
    }
    for (module, file) in &files {
        if module.is_empty() || is_test(module) {
            continue;
        }
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let code = without_tests(&code_only(&text));
        let room = &module[0];
        for target in first_segments(&code, "crate") {
            if rooms.contains(&target) && &target != room {
                g.rooms.get_mut(room).unwrap().insert(target);
            }
        }
        // Inside a folder: `super::x` from one of its files names a sibling `x` (or an
        // item of the folder's mod.rs, which every file may use).
        if module.len() >= 2 {
            let parent = &module[..module.len() - 1];
            let siblings: BTreeSet<String> = files
                .iter()
                .filter(|(m, _)| {
                    m.len() == module.len() && &m[..m.len() - 1] == parent && !is_test(m)
                })
                .map(|(m, _)| m[m.len() - 1].clone())
                .collect();
            let me = &module[module.len() - 1];
            let mut own = first_segments(&code, "super");
            own.extend(
                first_segments(&code, &format!("crate::{}", parent.join("::")))
                    .into_iter()
                    .filter(|s| siblings.contains(s)),
            );
            let entry = g
                .siblings
                .entry((parent.join("/"), me.clone()))
                .or_default();
            for s in own {
                if siblings.contains(&s) && &s != me {
                    entry.insert(s);
                }
            }
        }
    }
    Ok(g)
}

/// The floors of each crate as `docs/architecture.md` writes them: the fenced block
/// marked `layers`, with a `[crate]` line for each crate and then one line per floor,
/// top floor first: `N: room room ...`.
pub fn floors(doc: &str) -> Result<BTreeMap<String, BTreeMap<String, u32>>, String> {
    let start = doc
        .find("```layers\n")
        .ok_or("docs/architecture.md has no ```layers block")?;
    let body = &doc[start + "```layers\n".len()..];
    let body = &body[..body
        .find("```")
        .ok_or("the ```layers block is not closed")?];
    let mut out: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    let mut krate: Option<String> = None;
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            krate = Some(name.to_string());
            out.entry(name.to_string()).or_default();
            continue;
        }
        let k = krate
            .as_ref()
            .ok_or("a floor line before any [crate] line")?;
        let (n, rooms) = line
            .split_once(':')
            .ok_or_else(|| format!("not a floor line: {line}"))?;
        let n: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("not a floor number: {line}"))?;
        for r in rooms.split_whitespace() {
            if out.get_mut(k).unwrap().insert(r.to_string(), n).is_some() {
                return Err(format!("{k}: room {r} is on two floors"));
            }
        }
    }
    Ok(out)
}

/// The circles of a graph (each the sorted list of its members), by Tarjan's algorithm.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.edges.get(v) {
            for w in ws {
                let w = w.as_str();
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.on.contains(w) {
                    let iw = t.index[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// Every breach of the rule in the checkout at `root`; empty when it holds.
pub fn check(root: &Path) -> Result<Vec<String>, String> {
    let doc = std::fs::read_to_string(root.join("docs/architecture.md"))
        .map_err(|e| format!("docs/architecture.md: {e}"))?;
    let floors = floors(&doc)?;
    let mut breaches = Vec::new();
    for krate in CRATES {
        let g = graph(root, krate)?;
        let Some(fl) = floors.get(*krate) else {
            breaches.push(format!(
                "{krate}: no [{krate}] floors in docs/architecture.md"
            ));
            continue;
        };
        for room in g.rooms.keys() {
            if !fl.contains_key(room) {
                breaches.push(format!(
                    "{krate}: room `{room}` is on no floor of docs/architecture.md"
                ));
            }
        }
        for room in fl.keys() {
            if !g.rooms.contains_key(room) {
                breaches.push(format!(
                    "{krate}: docs/architecture.md names room `{room}`, which does not exist"
                ));
            }
        }
        for (room, targets) in &g.rooms {
            let Some(&f) = fl.get(room) else { continue };
            for t in targets {
                if let Some(&ft) = fl.get(t) {
                    if ft >= f {
                        breaches.push(format!(
                            "{krate}: `{room}` (floor {f}) imports `{t}` (floor {ft}): a room \
                             imports only rooms on lower floors"
                        ));
                    }
                }
            }
        }
        for c in circles(&g.rooms) {
            breaches.push(format!("{krate}: rooms in a circle: {}", c.join(", ")));
        }
        let mut by_folder: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for ((folder, file), targets) in &g.siblings {
            by_folder
                .entry(folder.clone())
                .or_default()
                .insert(file.clone(), targets.clone());
        }
        for (folder, edges) in &by_folder {
            for c in circles(edges) {
                breaches.push(format!(
                    "{krate}: files of {folder}/ in a circle: {}",
                    c.join(", ")
                ));
            }
        }
    }
    Ok(breaches)
}

/// The floors each crate's rooms would take if each room sat one floor above the highest
/// room it imports (for writing `docs/architecture.md` after a change), and each room's
/// imports.
pub fn describe(root: &Path) -> Result<String, String> {
    let mut out = String::new();
    for krate in CRATES {
        let g = graph(root, krate)?;
        let mut level: BTreeMap<String, u32> = BTreeMap::new();
        // Longest path from the bottom; rooms in a circle are reported, not levelled.
        let mut changed = true;
        let mut rounds = 0;
        while changed && rounds <= g.rooms.len() {
            changed = false;
            rounds += 1;
            for (room, ts) in &g.rooms {
                let l = ts
                    .iter()
                    .map(|t| level.get(t).map_or(1, |x| x + 1))
                    .max()
                    .unwrap_or(0);
                if level.get(room) != Some(&l) {
                    level.insert(room.clone(), l);
                    changed = true;
                }
            }
        }
        writeln!(out, "[{krate}]").unwrap();
        let top = level.values().copied().max().unwrap_or(0);
        for f in (0..=top).rev() {
            let rooms: Vec<&str> = level
                .iter()
                .filter(|(_, l)| **l == f)
                .map(|(r, _)| r.as_str())
                .collect();
            if !rooms.is_empty() {
                writeln!(out, "{f}: {}", rooms.join(" ")).unwrap();
            }
        }
        for (room, ts) in &g.rooms {
            if !ts.is_empty() {
                let ts: Vec<&str> = ts.iter().map(String::as_str).collect();
                writeln!(out, "#   {room} -> {}", ts.join(" ")).unwrap();
            }
        }
        for ((folder, file), ts) in &g.siblings {
            if !ts.is_empty() {
                let ts: Vec<&str> = ts.iter().map(String::as_str).collect();
                writeln!(out, "#   {folder}/{file} -> {}", ts.join(" ")).unwrap();
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    #[test]
    fn the_checkout_keeps_its_floors() {
        let breaches = check(&root()).unwrap();
        assert!(
            breaches.is_empty(),
            "the import rule of docs/architecture.md is broken:\n  {}\n(`cargo run -p \
             xtask -- layers` shows the rooms and what each imports)",
            breaches.join("\n  ")
        );
    }

    #[test]
    fn paths_are_read_from_code_only() {
        let code = code_only(
            "use crate::{a::X, b, c::{d, e}};\n// crate::f\nlet s = \"crate::g\";\n\
             let t = r#\"crate::h\"#; let c = '\"'; crate::i::j();\n/* crate::k */ $crate::l",
        );
        let mut got = first_segments(&code, "crate");
        got.sort();
        assert_eq!(got, ["a", "b", "c", "i"]);
    }

    #[test]
    fn test_modules_are_not_read() {
        let t = without_tests(
            "use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b;\n}\nuse crate::c;",
        );
        let mut got = first_segments(&t, "crate");
        got.sort();
        assert_eq!(got, ["a", "c"]);
    }

    #[test]
    fn a_circle_and_a_floor_breach_are_found() {
        let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        e.entry("a".into()).or_default().insert("b".into());
        e.entry("b".into()).or_default().insert("c".into());
        e.entry("c".into()).or_default().insert("a".into());
        e.entry("d".into()).or_default().insert("a".into());
        assert_eq!(
            circles(&e),
            vec![vec!["a".to_string(), "b".into(), "c".into()]]
        );
        let f = floors("x\n```layers\n[k]\n2: a\n1: b c\n```\n").unwrap();
        assert_eq!(f["k"]["a"], 2);
        assert_eq!(f["k"]["c"], 1);
        assert!(floors("```layers\n[k]\n1: a\n0: a\n```").is_err());
    }
}
