//! The ABI check: compares what a set of PMIx headers (and a library) presents to C
//! against the facts of a reference, item by item: every `PMIX_*` integer constant and
//! attribute string, the size and alignment of every `pmix_*_t` type, the offset and size of
//! every struct member, every `PMIx_*` prototype as the compiler sees it, and the exported
//! `PMIx_*` symbols.
//!
//! `abi dump INCLUDE_DIR [LIB]` writes the facts of a reference header set (and library) as
//! JSON on stdout; `abi check FACTS INCLUDE_DIR [LIB]` prints every mismatch and a last line
//! `abi: N of M items match`, and fails unless all match.
//!
//! The facts files in `docs/abi/` were written by the tool this one replaces (the shared
//! `abi_probe.py`), and this one reads and writes the same format: the strings compared are
//! exactly what that tool produced (`size=56 align=8`, `offset=8 size=8`, prototypes in
//! clang's spelling without `struct`).
//!
//! How: small C programs compiled against the headers with the C compiler (`CC_PROBE`, else
//! clang, else cc) print the values; prototypes come from clang's JSON AST; symbols from
//! `nm -D --defined-only`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};

type Res<T> = Result<T, String>;

const HEADERS: &[&str] = &["pmix.h", "pmix_server.h", "pmix_tool.h"];

fn compiler() -> String {
    if let Ok(c) = std::env::var("CC_PROBE") {
        return c;
    }
    for c in ["clang-14", "clang", "gcc", "cc"] {
        if Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return c.into();
        }
    }
    "cc".into()
}

fn is_clang(cc: &str) -> bool {
    Path::new(cc)
        .file_name()
        .is_some_and(|n| n.to_string_lossy().contains("clang"))
}

fn prelude() -> String {
    let mut s = String::from("#include <stdio.h>\n#include <stddef.h>\n#include <stdint.h>\n");
    for h in HEADERS {
        let _ = writeln!(s, "#include <{h}>");
    }
    s
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Res<Scratch> {
        let base = std::env::temp_dir();
        for i in 0..1000 {
            let p = base.join(format!("xtask-abi.{}.{i}", std::process::id()));
            if std::fs::create_dir(&p).is_ok() {
                return Ok(Scratch(p));
            }
        }
        Err("cannot create a scratch directory".into())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Probe {
    cc: String,
    tmp: Scratch,
}

struct Compiled {
    ok: bool,
    stderr: String,
    exe: PathBuf,
}

impl Probe {
    fn new() -> Res<Probe> {
        Ok(Probe {
            cc: compiler(),
            tmp: Scratch::new()?,
        })
    }

    /// Compiles `src` against `inc` into an executable (or only an object, `link: false`).
    fn compile(&self, src: &str, inc: &Path, tag: &str, extra: &[&str]) -> Res<Compiled> {
        let c = self.tmp.0.join(format!("{tag}.c"));
        let exe = self.tmp.0.join(tag);
        std::fs::write(&c, src).map_err(|e| format!("{}: {e}", c.display()))?;
        let out = Command::new(&self.cc)
            .arg("-w")
            .args(extra)
            .arg("-I")
            .arg(inc)
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .output()
            .map_err(|e| format!("{}: {e}", self.cc))?;
        Ok(Compiled {
            ok: out.status.success(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            exe,
        })
    }

    fn run(exe: &Path) -> Res<String> {
        let out = Command::new(exe)
            .output()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Compiles and runs `src`; `None` when it does not compile.
    fn output(&self, src: &str, inc: &Path, tag: &str) -> Res<Option<String>> {
        let c = self.compile(src, inc, tag, &[])?;
        if !c.ok {
            return Ok(None);
        }
        Probe::run(&c.exe).map(Some)
    }
}

// ---- reading header text ----------------------------------------------------------------

fn headers_of(inc: &Path) -> Res<Vec<(String, String)>> {
    let mut out = Vec::new();
    let dir = std::fs::read_dir(inc).map_err(|e| format!("{}: {e}", inc.display()))?;
    for e in dir.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("pmix") && name.ends_with(".h") {
            let bytes = std::fs::read(e.path()).map_err(|e| format!("{name}: {e}"))?;
            out.push((name, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    out.sort();
    Ok(out)
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `#define PMIX_NAME body` lines (not include guards), the body without a trailing comment.
fn macro_bodies(headers: &[(String, String)]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (_, text) in headers {
        for line in text.lines() {
            let l = line.trim_start();
            let Some(rest) = l.strip_prefix('#') else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix("define") else {
                continue;
            };
            if !rest.starts_with([' ', '\t']) {
                continue;
            }
            let rest = rest.trim_start();
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            let (name, body) = rest.split_at(end);
            if !name.starts_with("PMIX_")
                || name.ends_with("_H")
                || !name[5..]
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                || !body.starts_with([' ', '\t'])
            {
                continue;
            }
            let mut body = body.trim();
            for marker in ["//", "/*"] {
                if let Some(i) = body.find(marker) {
                    body = body[..i].trim_end();
                }
            }
            if !body.is_empty() {
                names.insert(name.to_string(), body.to_string());
            }
        }
    }
    names
}

/// The kind of a macro's value: "s" (a string literal), "i" (an integer expression), or
/// neither.
fn kind_of(body: &str) -> Option<&'static str> {
    if body.starts_with('"') {
        Some("s")
    } else if !body.is_empty() && body.chars().all(|c| is_ident(c) || "-() +|<>~".contains(c)) {
        Some("i")
    } else {
        None
    }
}

fn strip_block_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        match rest[i + 2..].find("*/") {
            Some(j) => rest = &rest[i + 2 + j + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Identifiers `pmix_..._t` that close a typedef: `} NAME ;` and `typedef words NAME ;`.
fn type_names(headers: &[(String, String)]) -> BTreeSet<String> {
    let mut types = BTreeSet::new();
    let valid = |n: &str| {
        n.starts_with("pmix_")
            && n.ends_with("_t")
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    for (_, text) in headers {
        // `} NAME ;`
        let mut rest = text.as_str();
        while let Some(i) = rest.find('}') {
            rest = &rest[i + 1..];
            let t = rest.trim_start();
            let end = t.find(|c: char| !is_ident(c)).unwrap_or(t.len());
            let (name, after) = t.split_at(end);
            if valid(name) && after.trim_start().starts_with(';') {
                types.insert(name.to_string());
            }
        }
        // `typedef words NAME ;` on one line
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("typedef") else {
                continue;
            };
            let Some(body) = rest.trim_end().strip_suffix(';') else {
                continue;
            };
            let words: Vec<&str> = body.split_whitespace().collect();
            if words.len() >= 2
                && body.starts_with([' ', '\t'])
                && words.iter().all(|w| {
                    w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                })
                && valid(words[words.len() - 1])
            {
                types.insert(words[words.len() - 1].to_string());
            }
        }
    }
    types
}

/// Member names of every `typedef struct [tag] { ... } pmix_x_t;`, from the header text:
/// unions count as one member, function pointers by their name, arrays by theirs.
fn struct_members(headers: &[(String, String)]) -> BTreeMap<String, Vec<String>> {
    let mut members = BTreeMap::new();
    for (_, text) in headers {
        let text = strip_block_comments(text);
        let mut rest = text.as_str();
        while let Some(i) = rest.find("typedef") {
            rest = &rest[i + 7..];
            let t = rest.trim_start();
            let Some(after_struct) = t.strip_prefix("struct") else {
                continue;
            };
            if !after_struct.starts_with(|c: char| c.is_whitespace() || c == '{') {
                continue;
            }
            let head = after_struct.trim_start();
            let tag_end = head.find(|c: char| !is_ident(c)).unwrap_or(head.len());
            let Some(body_start) = head[tag_end..].trim_start().strip_prefix('{') else {
                continue;
            };
            // The body ends at the first `}` followed by `pmix_..._t ;` (nested braces are
            // only the unions).
            let mut depth = 1usize;
            let mut end = None;
            for (j, c) in body_start.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(j);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else {
                continue;
            };
            let body = &body_start[..end];
            let tail = body_start[end + 1..].trim_start();
            let name_end = tail.find(|c: char| !is_ident(c)).unwrap_or(tail.len());
            let name = &tail[..name_end];
            if !(name.starts_with("pmix_")
                && name.ends_with("_t")
                && tail[name_end..].trim_start().starts_with(';'))
            {
                continue;
            }
            members.insert(name.to_string(), member_names(body));
        }
    }
    members
}

fn member_names(body: &str) -> Vec<String> {
    let body = strip_block_comments(body);
    // unions (one level) become `UNION name;`
    let mut flat = String::new();
    let mut rest = body.as_str();
    while let Some(i) = rest.find("union") {
        let after = &rest[i + 5..];
        let open = after.trim_start();
        if !open.starts_with('{') {
            flat.push_str(&rest[..i + 5]);
            rest = after;
            continue;
        }
        let Some(close) = open.find('}') else {
            break;
        };
        flat.push_str(&rest[..i]);
        flat.push_str("UNION ");
        rest = &open[close + 1..];
    }
    flat.push_str(rest);
    let mut names = Vec::new();
    for decl in flat.split(';') {
        let decl = decl.trim();
        if decl.is_empty() || decl.starts_with('#') {
            continue;
        }
        // a function pointer: `( * name ) (`
        if let Some(p) = decl.find('(') {
            let inner = decl[p + 1..].trim_start();
            if let Some(inner) = inner.strip_prefix('*') {
                let inner = inner.trim_start();
                let end = inner.find(|c: char| !is_ident(c)).unwrap_or(inner.len());
                if end > 0 && inner[end..].trim_start().starts_with(')') {
                    names.push(inner[..end].to_string());
                    continue;
                }
            }
        }
        // the last identifier, before an optional `[...]`
        let d = match decl.rfind('[') {
            Some(b) if decl.ends_with(']') => decl[..b].trim_end(),
            _ => decl,
        };
        let start = d.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
        if start < d.len() {
            names.push(d[start..].to_string());
        }
    }
    names
}

// ---- probes -----------------------------------------------------------------------------

fn constants_src(items: &[(String, String)]) -> String {
    let mut src = prelude() + "int main(void){\n";
    for (n, k) in items {
        let print = if k == "s" {
            format!("printf(\"%s=%s\\n\", \"{n}\", {n});")
        } else {
            format!("printf(\"%s=%lld\\n\", \"{n}\", (long long)({n}));")
        };
        let _ = writeln!(
            src,
            "#ifdef {n}\n{print}\n#else\nprintf(\"{n}=<missing>\\n\");\n#endif"
        );
    }
    src + "return 0;}\n"
}

/// The reference's macros that are constants and compile (strings and integer expressions).
fn probe_constants(
    p: &Probe,
    inc: &Path,
    headers: &[(String, String)],
) -> Res<Vec<(String, String)>> {
    let mut items: Vec<(String, String)> = macro_bodies(headers)
        .into_iter()
        .filter_map(|(n, b)| kind_of(&b).map(|k| (n, k.to_string())))
        .collect();
    let limit = if is_clang(&p.cc) {
        "-ferror-limit=0"
    } else {
        "-fmax-errors=0"
    };
    for _ in 0..20 {
        let mut src = prelude() + "int main(void){\n";
        let mut line_of = Vec::new();
        for (n, k) in &items {
            line_of.push(src.lines().count() + 1);
            if k == "s" {
                let _ = writeln!(src, "printf(\"%s=%s\\n\", \"{n}\", {n});");
            } else {
                let _ = writeln!(src, "printf(\"%s=%lld\\n\", \"{n}\", (long long)({n}));");
            }
        }
        src.push_str("return 0;}\n");
        let c = p.compile(&src, inc, "filter", &["-c", limit])?;
        if c.ok {
            return Ok(items);
        }
        let bad: BTreeSet<usize> = c
            .stderr
            .lines()
            .filter_map(|l| {
                let rest = &l[l.find("filter.c:")? + 9..];
                let (num, after) = rest.split_once(':')?;
                let (_, after) = after.split_once(':')?;
                after
                    .trim_start()
                    .starts_with("error")
                    .then(|| num.parse().ok())?
            })
            .collect();
        let keep: Vec<_> = items
            .iter()
            .zip(&line_of)
            .filter(|(_, l)| !bad.contains(l))
            .map(|(it, _)| it.clone())
            .collect();
        if keep.len() == items.len() {
            return Err(format!(
                "cannot filter the reference's constants:\n{}",
                c.stderr.chars().take(2000).collect::<String>()
            ));
        }
        items = keep;
    }
    Ok(items)
}

fn constant_values(
    p: &Probe,
    inc: &Path,
    items: &[(String, String)],
) -> Res<Option<BTreeMap<String, String>>> {
    Ok(p.output(&constants_src(items), inc, "const")?.map(|out| {
        out.lines()
            .filter_map(|l| l.split_once('='))
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }))
}

/// Runs one `printf` statement per item (`stmt`) in one program, or, when that program does
/// not compile (some item is missing), each in a program of its own; reads every output line
/// with `parse` into (item, value). Items no program printed are `<missing>`.
fn probe_each(
    p: &Probe,
    inc: &Path,
    items: &[String],
    tag: &str,
    stmt: impl Fn(&str) -> String,
    parse: impl Fn(&str) -> Option<(String, String)>,
) -> Res<BTreeMap<String, String>> {
    let program = |body: String| prelude() + "int main(void){\n" + &body + "return 0;}\n";
    let outputs = match p.output(&program(items.iter().map(|i| stmt(i)).collect()), inc, tag)? {
        Some(o) => vec![o],
        None => {
            let mut v = Vec::new();
            for i in items {
                if let Some(o) = p.output(&program(stmt(i)), inc, &format!("{tag}1"))? {
                    v.push(o);
                }
            }
            v
        }
    };
    let mut out: BTreeMap<String, String> = items
        .iter()
        .map(|i| (i.clone(), "<missing>".into()))
        .collect();
    out.extend(outputs.iter().flat_map(|o| o.lines().filter_map(&parse)));
    Ok(out)
}

/// `size=S align=A` of every type, `<missing>` where it does not compile.
fn layouts(p: &Probe, inc: &Path, types: &[String]) -> Res<BTreeMap<String, String>> {
    probe_each(
        p,
        inc,
        types,
        "sizes",
        |t| format!("printf(\"%s size=%zu align=%zu\\n\", \"{t}\", sizeof({t}), _Alignof({t}));\n"),
        |line| {
            line.split_once(' ')
                .map(|(t, rest)| (t.to_string(), rest.to_string()))
        },
    )
}

/// `offset=O size=S` of every `type.member` key; `<missing>` where it does not compile.
fn offsets(p: &Probe, inc: &Path, keys: &[String]) -> Res<BTreeMap<String, String>> {
    probe_each(
        p,
        inc,
        keys,
        "offsets",
        |k| {
            let (t, n) = k.split_once('.').unwrap_or((k, ""));
            format!(
                "printf(\"%s %zu %zu\\n\", \"{k}\", offsetof({t},{n}), sizeof((({t}*)0)->{n}));\n"
            )
        },
        |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [k, a, b] => Some((k.to_string(), format!("offset={a} size={b}"))),
            _ => None,
        },
    )
}

/// Collapses runs of whitespace into one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `pmix_x` for `struct pmix_x` (a typedef spelled through its tag).
fn drop_struct(s: &str) -> String {
    s.replace("struct pmix_", "pmix_")
}

/// Every `PMIx_*` function's type as clang sees it (its JSON AST).
fn prototypes(p: &Probe, inc: &Path) -> Res<BTreeMap<String, String>> {
    let c = p.tmp.0.join("proto.c");
    std::fs::write(&c, prelude()).map_err(|e| e.to_string())?;
    let clang = if is_clang(&p.cc) {
        p.cc.clone()
    } else {
        "clang".into()
    };
    let out = Command::new(&clang)
        .args([
            "-w",
            "-fsyntax-only",
            "-Xclang",
            "-ast-dump=json",
            "-Xclang",
            "-ast-dump-filter",
            "-Xclang",
            "PMIx_",
            "-I",
        ])
        .arg(inc)
        .arg(&c)
        .output()
        .map_err(|e| format!("{clang} (prototypes need clang): {e}"))?;
    let mut protos = BTreeMap::new();
    // The filter prints one JSON object per matching declaration, one after the other.
    for v in serde_json::Deserializer::from_slice(&out.stdout).into_iter::<Value>() {
        let Ok(v) = v else {
            break;
        };
        if v["kind"] != "FunctionDecl" {
            continue;
        }
        let (Some(name), Some(ty)) = (v["name"].as_str(), v["type"]["qualType"].as_str()) else {
            continue;
        };
        if name.starts_with("PMIx_") {
            protos.insert(name.to_string(), squash(&drop_struct(ty)));
        }
    }
    if protos.is_empty() {
        return Err(format!(
            "no PMIx_ prototype found in clang's AST of {}: {}",
            inc.display(),
            String::from_utf8_lossy(&out.stderr)
                .chars()
                .take(1000)
                .collect::<String>()
        ));
    }
    Ok(protos)
}

fn exported(lib: &Path) -> Res<BTreeSet<String>> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
        .map_err(|e| format!("nm: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "nm {}: {}",
            lib.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f[..] {
                [_, kind, name] if (kind == "T" || kind == "W") && name.starts_with("PMIx_") => {
                    Some(name.to_string())
                }
                _ => None,
            }
        })
        .collect())
}

// ---- dump and check ---------------------------------------------------------------------

/// The facts of a reference header set (and library), as the facts files hold them.
pub fn dump(inc: &Path, lib: Option<&Path>) -> Res<Value> {
    let p = Probe::new()?;
    let headers = headers_of(inc)?;
    let items = probe_constants(&p, inc, &headers)?;
    let vals = constant_values(&p, inc, &items)?
        .ok_or("the constants probe does not compile against the reference headers")?;
    let types: Vec<String> = type_names(&headers).into_iter().collect();
    let keys: Vec<String> = struct_members(&headers)
        .into_iter()
        .flat_map(|(t, ms)| ms.into_iter().map(move |m| format!("{t}.{m}")))
        .collect();
    let mut constants = Map::new();
    let mut kinds = Map::new();
    for (n, k) in &items {
        constants.insert(n.clone(), vals.get(n).map_or(Value::Null, |v| json!(v)));
        kinds.insert(n.clone(), json!(k));
    }
    Ok(json!({
        "constants": constants,
        "constant_kinds": kinds,
        "types": layouts(&p, inc, &types)?,
        "members": offsets(&p, inc, &keys)?,
        "prototypes": prototypes(&p, inc)?,
        "symbols": match lib { Some(l) => json!(exported(l)?), None => Value::Null },
    }))
}

/// Every item of `facts` compared with what `inc` (and `lib`) present: the mismatch lines,
/// and the number of items compared.
pub fn check(facts: &Value, inc: &Path, lib: Option<&Path>) -> Res<(Vec<String>, usize)> {
    let p = Probe::new()?;
    let obj = |k: &str| -> Res<&Map<String, Value>> {
        facts[k]
            .as_object()
            .ok_or_else(|| format!("facts: no \"{k}\" object"))
    };
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "None".into(),
        Some(other) => other.to_string(),
    };
    let mut bad = Vec::new();
    let mut total = 0;

    let items: Vec<(String, String)> = obj("constant_kinds")?
        .iter()
        .map(|(n, k)| (n.clone(), k.as_str().unwrap_or("i").to_string()))
        .collect();
    let ours = match constant_values(&p, inc, &items)? {
        Some(v) => v,
        None => {
            bad.push("constants: the probe does not compile against these headers".into());
            BTreeMap::new()
        }
    };
    let want = obj("constants")?;
    for (n, _) in &items {
        total += 1;
        let a = text(want.get(n));
        let b = ours.get(n).cloned().unwrap_or_else(|| "<no probe>".into());
        if a != b {
            bad.push(format!("constant {n}: reference {a:?}, ours {b:?}"));
        }
    }

    // Layouts and member offsets: the same comparison, item by item.
    for (section, label, probe) in [
        (
            "types",
            "type",
            layouts as fn(&Probe, &Path, &[String]) -> Res<BTreeMap<String, String>>,
        ),
        ("members", "member", offsets),
    ] {
        let want = obj(section)?;
        let items: Vec<String> = want.keys().cloned().collect();
        let got = probe(&p, inc, &items)?;
        for i in &items {
            total += 1;
            let a = text(want.get(i));
            if got.get(i) != Some(&a) {
                bad.push(format!(
                    "{label} {i}: reference {a}, ours {}",
                    got.get(i).map_or("?", String::as_str)
                ));
            }
        }
    }

    let want = obj("prototypes")?;
    let got = prototypes(&p, inc)?;
    let norm = |s: &str| s.replace("_Bool", "bool");
    for (f, a) in want {
        total += 1;
        let a = text(Some(a));
        let b = got.get(f).cloned().unwrap_or_else(|| "<missing>".into());
        if norm(&a) != norm(&b) {
            bad.push(format!("prototype {f}: reference '{a}', ours '{b}'"));
        }
    }

    if let (Some(syms), Some(lib)) = (facts["symbols"].as_array(), lib) {
        let ours = exported(lib)?;
        for s in syms.iter().filter_map(Value::as_str) {
            total += 1;
            if !ours.contains(s) {
                bad.push(format!(
                    "symbol {s}: exported by the reference library, not by ours"
                ));
            }
        }
    }
    Ok((bad, total))
}

/// Where two facts objects differ: one line per item that is in one only or differs.
pub fn differences(want: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for section in [
        "constants",
        "constant_kinds",
        "types",
        "members",
        "prototypes",
    ] {
        let empty = Map::new();
        let a = want[section].as_object().unwrap_or(&empty);
        let b = got[section].as_object().unwrap_or(&empty);
        for (k, v) in a {
            match b.get(k) {
                None => out.push(format!("{section} {k}: only in the facts file")),
                Some(w) if w != v => out.push(format!("{section} {k}: facts file {v}, dump {w}")),
                _ => {}
            }
        }
        for k in b.keys().filter(|k| !a.contains_key(*k)) {
            out.push(format!("{section} {k}: only in the dump"));
        }
    }
    if want["symbols"] != got["symbols"] {
        out.push("symbols: the exported PMIx_* symbols differ".into());
    }
    out
}

/// Whether a line of `check`'s report is about one of `names` (a constant, type, member of
/// that type, prototype or symbol of that name).
pub fn names_item(line: &str, names: &[&str]) -> bool {
    let Some((_, rest)) = line.split_once(' ') else {
        return false;
    };
    let item = rest.split([':', ' ']).next().unwrap_or("");
    names
        .iter()
        .any(|n| item == *n || item.strip_prefix(n).is_some_and(|r| r.starts_with('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(text: &str) -> Vec<(String, String)> {
        vec![("pmix_x.h".into(), text.into())]
    }

    #[test]
    fn macros_keep_constants_and_drop_guards_and_comments() {
        let m = macro_bodies(&h(
            "#ifndef PMIX_X_H\n#define PMIX_X_H\n#define PMIX_A \"pmix.a\"   // a key\n\
             #  define PMIX_B  (1 << 3) /* bits */\n#define PMIX_F(x) x\n#define PMIX_E\n#define pmix_low 1\n",
        ));
        assert_eq!(m.get("PMIX_A").map(String::as_str), Some("\"pmix.a\""));
        assert_eq!(m.get("PMIX_B").map(String::as_str), Some("(1 << 3)"));
        assert!(
            !m.contains_key("PMIX_X_H") && !m.contains_key("PMIX_E") && !m.contains_key("PMIX_F")
        );
        assert_eq!(kind_of("\"pmix.a\""), Some("s"));
        assert_eq!(kind_of("(1 << 3)"), Some("i"));
        assert_eq!(kind_of("0x10UL"), Some("i"));
        assert_eq!(kind_of("sizeof(int) * 2"), None);
    }

    #[test]
    fn types_and_members_from_header_text() {
        let text = "typedef uint8_t pmix_a_t;\ntypedef struct pmix_b {\n  char *cmd; /* the } command */\n\
                    pmix_info_t *(*fn)(int x);\n  union {\n  int i;\n  double d;\n  } data;\n  char key[512];\n} pmix_b_t;\n\
                    typedef void (*pmix_cb_t)(int);\n";
        let t = type_names(&h(text));
        assert!(t.contains("pmix_a_t") && t.contains("pmix_b_t"), "{t:?}");
        let m = struct_members(&h(text));
        assert_eq!(m["pmix_b_t"], ["cmd", "fn", "data", "key"]);
    }

    #[test]
    fn names_item_matches_constants_types_and_members() {
        let n = ["PMIX_VERSION_MAJOR", "pmix_server_module_t"];
        assert!(super::names_item(
            "constant PMIX_VERSION_MAJOR: reference \"5\", ours \"4\"",
            &n
        ));
        assert!(super::names_item(
            "type pmix_server_module_t: reference size=232",
            &n
        ));
        assert!(super::names_item(
            "member pmix_server_module_t.session_control: x",
            &n
        ));
        assert!(!super::names_item("constant PMIX_VERSION_MAJORX: x", &n));
        assert!(!super::names_item("type pmix_proc_t: x", &n));
    }
}
