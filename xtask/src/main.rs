//! Developer tasks.
//!
//! `cargo run -p xtask -- headers` writes the installed headers in `include/` from the Rust
//! definitions: cbindgen (pinned in the workspace) prints the types, constants and prototypes
//! of `pmix-sys` and `pmix-ffi`; the attribute-key `#define`s come from the tables in
//! `pmix-sys` (cbindgen skips `&CStr` constants); hand-written macro and static-inline parts
//! come from `include/fragments/`. `headers --check` regenerates into memory and fails if any
//! committed header differs.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod abi;
mod layers;

use cbindgen::{Builder, Config, DocumentationStyle, ItemType, Language, SortKey, Style};

/// Functions declared in `pmix_server.h`.
const SERVER_FNS: &[&str] = &[
    "PMIx_server_init",
    "PMIx_server_finalize",
    "PMIx_generate_regex",
    "PMIx_generate_ppn",
    "PMIx_server_register_nspace",
    "PMIx_server_deregister_nspace",
    "PMIx_server_register_client",
    "PMIx_server_deregister_client",
    "PMIx_server_setup_fork",
    "PMIx_server_dmodex_request",
    "PMIx_server_setup_application",
    "PMIx_server_setup_local_support",
    "PMIx_server_IOF_deliver",
    "PMIx_server_collect_inventory",
    "PMIx_server_deliver_inventory",
    "PMIx_Register_attributes",
    "PMIx_server_generate_locality_string",
    "PMIx_server_generate_cpuset_string",
    "PMIx_server_define_process_set",
    "PMIx_server_delete_process_set",
    "PMIx_server_register_resources",
    "PMIx_server_deregister_resources",
];

/// Functions declared in `pmix_tool.h`.
const TOOL_FNS: &[&str] = &[
    "PMIx_tool_init",
    "PMIx_tool_finalize",
    "PMIx_tool_attach_to_server",
    "PMIx_tool_disconnect",
    "PMIx_tool_get_servers",
    "PMIx_tool_set_server",
    "PMIx_IOF_pull",
    "PMIx_IOF_deregister",
    "PMIx_IOF_push",
    "PMIx_tool_is_connected",
    "PMIx_tool_set_server_module",
];

/// Functions declared in `pmix_deprecated.h` (which `pmix_common.h` includes, so that server
/// hosts that include only `pmix_server.h` get them too).
const DEPRECATED_FNS: &[&str] = &[
    "PMIx_tool_connect_to_server",
    "PMIx_Value_load",
    "PMIx_Value_unload",
    "PMIx_Value_destruct",
    "PMIx_Value_xfer",
    "PMIx_Value_compare",
    "PMIx_Data_array_destruct",
    "PMIx_Info_load",
    "PMIx_Info_xfer",
    "PMIx_Info_list_start",
    "PMIx_Info_list_add",
    "PMIx_Info_list_insert",
    "PMIx_Info_list_xfer",
    "PMIx_Info_list_convert",
    "PMIx_Info_list_release",
];

/// The folder of the exported functions (`pmix-ffi`'s `api` module), from the workspace root.
const API_DIR: &str = "pmix-ffi/src/api";

/// Files of `API_DIR` (paths relative to it) whose functions all go to `pmix_deprecated.h`:
/// the functions OpenPMIx 5.0 made of 4.2's header macros (lifecycle of each type, keys and
/// IDs, argv and env helpers, info flags), declared there in 5.0.
const DEPRECATED_FILES: &[&str] = &["argv.rs", "ids.rs", "info.rs", "objects.rs"];

/// Whether `name`, defined in the API file `file` (a path relative to `API_DIR`), is declared
/// in `pmix_deprecated.h`.
fn in_deprecated(name: &str, file: &Path) -> bool {
    DEPRECATED_FNS.contains(&name) || DEPRECATED_FILES.iter().any(|f| file == Path::new(f))
}

/// The API source files: every `.rs` file of `API_DIR` and of its subfolders, as paths
/// relative to `API_DIR`, sorted. The `mod.rs` files are left out: they declare modules and
/// define no exports, and cbindgen follows `mod` items, so a `mod.rs` would bring its files
/// in twice.
fn api_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let api = root.join(API_DIR);
    // Sorted by full path, so also by the path below `api`.
    Ok(layers::rust_files(&api)?
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "mod.rs"))
        .map(|p| p.strip_prefix(&api).unwrap().to_path_buf())
        .collect())
}

/// Struct tag names of the reference (`typedef struct TAG {...} NAME;`); structs not listed
/// are anonymous there.
const STRUCT_TAGS: &[(&str, &str)] = &[
    ("pmix_coord_t", "pmix_coord"),
    ("pmix_geometry_t", "pmix_geometry"),
    ("pmix_device_distance_t", "pmix_device_distance"),
    ("pmix_byte_object_t", "pmix_byte_object"),
    ("pmix_endpoint_t", "pmix_endpoint"),
    ("pmix_proc_t", "pmix_proc"),
    ("pmix_proc_info_t", "pmix_proc_info"),
    ("pmix_data_array_t", "pmix_data_array"),
    ("pmix_data_buffer_t", "pmix_data_buffer"),
    ("pmix_proc_stats_t", "pmix_proc_stats"),
    ("pmix_value_t", "pmix_value"),
    ("pmix_info_t", "pmix_info"),
    ("pmix_pdata_t", "pmix_pdata"),
    ("pmix_app_t", "pmix_app"),
    ("pmix_query_t", "pmix_query"),
    ("pmix_regattr_t", "pmix_regattr_t"),
    ("pmix_fabric_t", "pmix_fabric_s"),
    ("pmix_server_module_t", "pmix_server_module_4_0_0_t"),
];

/// Rust helper constants that are not part of the C API.
const RUST_ONLY: &[&str] = &["PMIX_NSPACE_BUFLEN", "PMIX_KEY_BUFLEN"];

/// The API source files, the names of every exported function, and those of them that go to
/// `pmix_deprecated.h`.
type ApiSources = (Vec<String>, BTreeSet<String>, BTreeSet<String>);

struct Gen {
    root: PathBuf,
}

impl Gen {
    fn config(&self, items: &[ItemType], exclude: Vec<String>) -> Config {
        let mut c = Config {
            language: Language::C,
            style: Style::Type,
            usize_is_size_t: true,
            no_includes: true,
            cpp_compat: false,
            sort_by: SortKey::None,
            documentation: true,
            documentation_style: DocumentationStyle::C,
            ..Config::default()
        };
        c.export.item_types = items.to_vec();
        c.export.exclude = exclude;
        c.export
            .exclude
            .extend(RUST_ONLY.iter().map(|s| s.to_string()));
        c.export
            .rename
            .insert("timeval".into(), "struct timeval".into());
        c.function.prefix = Some("PMIX_EXPORT".into());
        c
    }

    /// cbindgen output for the given source files and item kinds.
    fn cbindgen(
        &self,
        srcs: &[&str],
        items: &[ItemType],
        exclude: Vec<String>,
    ) -> Result<String, String> {
        let mut config = self.config(items, exclude);
        // cbindgen prints only types that some function uses, unless they are listed.
        for s in srcs {
            let text =
                std::fs::read_to_string(self.root.join(s)).map_err(|e| format!("{s}: {e}"))?;
            config.export.include.extend(declared_types(&text));
        }
        let mut b = Builder::new().with_config(config);
        for s in srcs {
            b = b.with_src(self.root.join(s));
        }
        let bindings = b.generate().map_err(|e| format!("cbindgen: {e}"))?;
        let mut out = Vec::new();
        bindings.write(&mut out);
        let text = String::from_utf8(out).map_err(|e| e.to_string())?;
        Ok(tidy(&text))
    }

    fn fragment(&self, name: &str) -> Result<String, String> {
        let p = self.root.join("include/fragments").join(name);
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    }

    /// Every exported function name in the API sources, for the exclusion lists.
    fn api_sources(&self) -> Result<ApiSources, String> {
        let mut files = Vec::new();
        let mut names = BTreeSet::new();
        let mut deprecated = BTreeSet::new();
        for rel in api_files(&self.root)? {
            let p = Path::new(API_DIR).join(&rel);
            let text = std::fs::read_to_string(self.root.join(&p)).map_err(|e| e.to_string())?;
            for line in text.lines() {
                if let Some(rest) = line
                    .trim_start()
                    .strip_prefix("pub unsafe extern \"C\" fn ")
                    .or_else(|| line.trim_start().strip_prefix("pub extern \"C\" fn "))
                {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if in_deprecated(&name, &rel) {
                        deprecated.insert(name.clone());
                    }
                    names.insert(name);
                }
            }
            files.push(p.to_string_lossy().into_owned());
        }
        Ok((files, names, deprecated))
    }

    /// The declarations of the exported functions for which `keep(name, deprecated)` holds,
    /// where `deprecated` says whether the function belongs in `pmix_deprecated.h`.
    fn functions(&self, keep: &dyn Fn(&str, bool) -> bool) -> Result<String, String> {
        let (files, names, deprecated) = self.api_sources()?;
        let exclude = names
            .iter()
            .filter(|n| !keep(n, deprecated.contains(*n)))
            .cloned()
            .collect();
        let srcs: Vec<&str> = files.iter().map(String::as_str).collect();
        self.cbindgen(&srcs, &[ItemType::Functions], exclude)
    }

    fn attr_defines(table: pmix_sys::AttrTable) -> String {
        let mut s = String::new();
        for a in table {
            let key = a.key.to_str().expect("attribute keys are ASCII");
            writeln!(
                s,
                "#define {} {:?}",
                a.name.to_str().expect("ASCII name"),
                key
            )
            .unwrap();
        }
        s
    }

    fn common(&self) -> Result<String, String> {
        let consts = self.cbindgen(
            &["pmix-sys/src/limits.rs", "pmix-sys/src/consts.rs"],
            &[ItemType::Constants],
            RUST_ONLY.iter().map(|s| s.to_string()).collect(),
        )?;
        let types = self.cbindgen(
            &["pmix-sys/src/types.rs", "pmix-sys/src/callbacks.rs"],
            &[ItemType::Structs, ItemType::Unions, ItemType::Typedefs],
            vec![],
        )?;
        let types = inline_value_union(&tag_structs(&types));
        Ok(wrap(
            "PMIx_COMMON_H",
            &[
                self.fragment("common_prelude.h")?,
                section("Constants", &consts),
                section("Attribute keys", &Self::attr_defines(pmix_sys::ATTRIBUTES)),
                section(
                    "Attribute keys new in OpenPMIx 5.0",
                    &Self::attr_defines(pmix_sys::ATTRIBUTES_V5),
                ),
                self.fragment("common_typedefs.h")?,
                section("Types", &types),
                self.fragment("common_macros.h")?,
                "#include <pmix_deprecated.h>\n".to_string(),
                self.fragment("common_tail.h")?,
                self.fragment("common_epilogue.h")?,
            ],
        ))
    }

    fn deprecated(&self) -> Result<String, String> {
        let consts = self.cbindgen(
            &["pmix-sys/src/deprecated.rs"],
            &[ItemType::Constants],
            vec![],
        )?;
        let fns = self.functions(&|_, deprecated| deprecated)?;
        Ok(wrap(
            "PMIx_DEPRECATED_H",
            &[
                CPP_OPEN.to_string(),
                section("Deprecated constants", &consts),
                section(
                    "Deprecated attribute keys",
                    &Self::attr_defines(pmix_sys::DEPRECATED_ATTRIBUTES),
                ),
                section("Functions", &fns),
                self.fragment("deprecated_macros.h")?,
                CPP_CLOSE.to_string(),
            ],
        ))
    }

    fn pmix(&self) -> Result<String, String> {
        let fns = self.functions(&|n, deprecated| {
            !SERVER_FNS.contains(&n) && !TOOL_FNS.contains(&n) && !deprecated
        })?;
        Ok(wrap(
            "PMIx_H",
            &[
                "#include <pmix_common.h>\n".to_string(),
                CPP_OPEN.to_string(),
                section("Functions", &fns),
                self.fragment("pmix_macros.h")?,
                CPP_CLOSE.to_string(),
            ],
        ))
    }

    fn server(&self) -> Result<String, String> {
        let types = self.cbindgen(
            &["pmix-sys/src/server.rs"],
            &[ItemType::Structs, ItemType::Typedefs],
            vec![],
        )?;
        let fns = self.functions(&|n, _| SERVER_FNS.contains(&n))?;
        Ok(wrap(
            "PMIx_SERVER_API_H",
            &[
                "#include <pmix_common.h>\n".to_string(),
                CPP_OPEN.to_string(),
                section("Types", &tag_structs(&types)),
                section("Functions", &fns),
                CPP_CLOSE.to_string(),
            ],
        ))
    }

    fn tool(&self) -> Result<String, String> {
        let types = self.cbindgen(&["pmix-sys/src/tool.rs"], &[ItemType::Typedefs], vec![])?;
        let fns = self.functions(&|n, _| TOOL_FNS.contains(&n))?;
        Ok(wrap(
            "PMIx_TOOL_API_H",
            &[
                // pmix_server.h for PMIx_tool_set_server_module, as OpenPMIx 5.0's header does
                "#include <pmix.h>\n#include <pmix_server.h>\n".to_string(),
                CPP_OPEN.to_string(),
                section("Types", &types),
                section("Functions", &fns),
                CPP_CLOSE.to_string(),
            ],
        ))
    }

    fn version(&self) -> String {
        let v = env!("CARGO_PKG_VERSION");
        let mut parts = v
            .split('.')
            .map(|p| p.parse::<u32>().expect("numeric version"));
        let (major, minor, release) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        wrap(
            "PMIx_VERSION_H",
            &[format!(
                "/* The OpenPMIx release whose ABI this library provides. */\n\
                 #define PMIX_VERSION_MAJOR {major}L\n\
                 #define PMIX_VERSION_MINOR {minor}L\n\
                 #define PMIX_VERSION_RELEASE {release}L\n\n\
                 #define PMIX_NUMERIC_VERSION 0x{:08x}\n\n\
                 /* Capabilities of the 5.0 generation's ABI. */\n\
                 #define PMIX_CAP_BASE 1\n\
                 #define PMIX_CAPABILITIES (PMIX_CAP_BASE)\n",
                (major << 16) | (minor << 8) | release
            )],
        )
    }

    fn all(&self) -> Result<Vec<(&'static str, String)>, String> {
        Ok(vec![
            ("pmix_version.h", self.version()),
            ("pmix_common.h", self.common()?),
            ("pmix_deprecated.h", self.deprecated()?),
            ("pmix.h", self.pmix()?),
            ("pmix_server.h", self.server()?),
            ("pmix_tool.h", self.tool()?),
        ])
    }
}

const CPP_OPEN: &str = "#if defined(c_plusplus) || defined(__cplusplus)\nextern \"C\" {\n#endif\n";
const CPP_CLOSE: &str = "#if defined(c_plusplus) || defined(__cplusplus)\n}\n#endif\n";

fn section(title: &str, body: &str) -> String {
    format!("/* ---- {title} ---- */\n\n{}\n", body.trim())
}

fn wrap(guard: &str, parts: &[String]) -> String {
    let mut s = format!(
        "/*\n * Generated by `cargo run -p xtask -- headers` from the Rust definitions and\n \
         * include/fragments/. Do not edit by hand.\n */\n\n#ifndef {guard}\n#define {guard}\n\n"
    );
    for p in parts {
        s.push_str(p.trim_end());
        s.push_str("\n\n");
    }
    s.push_str(&format!("#endif /* {guard} */\n"));
    s
}

/// Names of the structs, unions and type aliases a Rust source file declares.
fn declared_types(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("pub struct ")
                .or_else(|| l.strip_prefix("pub union "))
                .or_else(|| l.strip_prefix("pub type "))
        })
        .map(|r| {
            r.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Removes cbindgen's own preamble lines and collapses runs of blank lines.
fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim().to_string() + "\n"
}

/// Gives structs the reference's tags and prints fixed-size name buffers with the
/// reference's typedefs.
fn tag_structs(text: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == "typedef struct {" {
            // Find the name at the closing line of this struct (column 0).
            let name = lines[i + 1..]
                .iter()
                .find_map(|l| l.strip_prefix("} ").and_then(|r| r.strip_suffix(';')))
                .unwrap_or("");
            match STRUCT_TAGS.iter().find(|(n, _)| *n == name) {
                Some((_, tag)) => out.push_str(&format!("typedef struct {tag} {{\n")),
                None => out.push_str("typedef struct {\n"),
            }
        } else {
            let l = line
                .replace(
                    "char (*nspace)[PMIX_NSPACE_BUFLEN]",
                    "pmix_nspace_t *nspace",
                )
                .replace("char nspace[PMIX_NSPACE_BUFLEN]", "pmix_nspace_t nspace")
                .replace("char key[PMIX_KEY_BUFLEN]", "pmix_key_t key")
                .replace("char string[PMIX_KEY_BUFLEN]", "pmix_key_t string");
            out.push_str(&l);
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// Prints the payload union of `pmix_value_t` inline and anonymous, as the reference does.
fn inline_value_union(text: &str) -> String {
    let start = text.find("typedef union {").expect("value union present");
    let end_marker = "} pmix_value_data_t;\n";
    let end = text[start..].find(end_marker).expect("value union end") + start;
    let body = &text[start + "typedef union {\n".len()..end];
    let mut rest = String::new();
    rest.push_str(&text[..start]);
    rest.push_str(text[end + end_marker.len()..].trim_start_matches('\n'));
    let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
    rest.replace(
        "  pmix_value_data_t data;\n",
        &format!("  union {{\n{indented}  }} data;\n"),
    )
}

/// One row of docs/MATRIX.md.
struct MatrixRow {
    name: String,
    header: &'static str,
    status: &'static str,
    tests: Vec<String>,
}

/// The state of every export, read from its doc comment, and the tests that name it.
fn matrix(root: &Path) -> Result<String, String> {
    let api = root.join(API_DIR);
    let mut rows = Vec::new();
    for f in &api_files(root)? {
        let text = std::fs::read_to_string(api.join(f)).map_err(|e| e.to_string())?;
        let mut doc = String::new();
        for line in text.lines() {
            let t = line.trim_start();
            if let Some(d) = t.strip_prefix("///") {
                doc.push_str(d);
                doc.push('\n');
                continue;
            }
            if let Some(rest) = t.strip_prefix("pub unsafe extern \"C\" fn ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let status = if doc.contains("NOT IMPLEMENTED") {
                    "not implemented"
                } else if doc.contains("Not available yet") {
                    "pre-init answers only"
                } else {
                    "implemented"
                };
                let header = if SERVER_FNS.contains(&name.as_str()) {
                    "pmix_server.h"
                } else if TOOL_FNS.contains(&name.as_str()) {
                    "pmix_tool.h"
                } else if in_deprecated(&name, f) {
                    "pmix_deprecated.h"
                } else {
                    "pmix.h"
                };
                rows.push(MatrixRow {
                    name,
                    header,
                    status,
                    tests: Vec::new(),
                });
            }
            if !t.starts_with("#[") {
                doc.clear();
            }
        }
    }
    // Tests that call a function by name (Rust tests and C tests); the bad-input table calls all.
    let mut test_files = Vec::new();
    for dir in ["tests/tests", "ctests", "ctests/v5"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "rs" || x == "c") {
                    test_files.push(p);
                }
            }
        }
    }
    test_files.sort();
    for p in &test_files {
        let text = std::fs::read_to_string(p).map_err(|e| e.to_string())?;
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        for r in rows.iter_mut() {
            let called = text.match_indices(r.name.as_str()).any(|(i, _)| {
                !text[i + r.name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    && !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if called {
                r.tests.push(rel.clone());
            }
        }
    }
    rows.sort_by(|a, b| a.header.cmp(b.header).then(a.name.cmp(&b.name)));
    let count = |s: &str| rows.iter().filter(|r| r.status == s).count();
    let mut out = String::new();
    writeln!(out, "# Export matrix").unwrap();
    writeln!(out).unwrap();
    writeln!(out, "Generated by `cargo run -p xtask -- matrix` from the doc comments of `pmix-ffi/src/api/` and").unwrap();
    writeln!(
        out,
        "the tests that call each function; CI checks it is current (`matrix --check`)."
    )
    .unwrap();
    writeln!(out).unwrap();
    writeln!(
        out,
        "{} exports: {} implemented, {} answer as the reference does before init (they need the \
         client, server or tool role), {} not implemented. Every export is also called by \
         `tests/tests/bad_input.rs` with NULL, `(NULL, n)`, unterminated and valid arguments.",
        rows.len(),
        count("implemented"),
        count("pre-init answers only"),
        count("not implemented")
    )
    .unwrap();
    writeln!(out).unwrap();
    writeln!(out, "| function | header | status | tests |").unwrap();
    writeln!(out, "|---|---|---|---|").unwrap();
    for r in &rows {
        let tests: Vec<&str> = r
            .tests
            .iter()
            .map(String::as_str)
            .filter(|t| !t.ends_with("bad_input/table.rs"))
            .collect();
        writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            r.name,
            r.header,
            r.status,
            tests.join(", ")
        )
        .unwrap();
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let g = Gen { root: root.clone() };
    match args.first().map(String::as_str) {
        Some("headers") => {
            let check = args.iter().any(|a| a == "--check");
            let headers = match g.all() {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("xtask: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut stale = Vec::new();
            for (name, text) in headers {
                let path = root.join("include").join(name);
                if check {
                    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                        stale.push(name);
                    }
                } else if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("xtask: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
            if !stale.is_empty() {
                eprintln!(
                    "xtask: headers out of date: {}; run `cargo run -p xtask -- headers`",
                    stale.join(", ")
                );
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Some("abi") => abi_command(&args[1..]),
        Some("matrix") => {
            let check = args.iter().any(|a| a == "--check");
            let text = match matrix(&root) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("xtask: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let path = root.join("docs/MATRIX.md");
            if check {
                if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    eprintln!(
                        "xtask: docs/MATRIX.md is out of date; run `cargo run -p xtask -- matrix`"
                    );
                    return ExitCode::FAILURE;
                }
            } else if let Err(e) = std::fs::write(&path, text) {
                eprintln!("xtask: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Some("layers") => layers_command(&root, args.iter().any(|a| a == "--check")),
        _ => {
            eprintln!(
                "usage: cargo run -p xtask -- headers [--check] | matrix [--check] | layers [--check]"
            );
            ExitCode::from(2)
        }
    }
}

/// `layers`: the rooms of each crate with rules, on the floors their imports put them, and
/// what each imports; `layers --check`: every breach of the rule of `docs/architecture.md`.
fn layers_command(root: &Path, check: bool) -> ExitCode {
    let res = if check {
        layers::check(root).map(|b| {
            for x in &b {
                eprintln!("xtask: {x}");
            }
            b.is_empty()
        })
    } else {
        layers::describe(root).map(|d| {
            print!("{d}");
            true
        })
    };
    match res {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `abi dump INCLUDE_DIR [LIB] [--same-as FACTS]` and `abi check FACTS INCLUDE_DIR [LIB]`
/// (see `abi.rs`).
fn abi_command(args: &[String]) -> ExitCode {
    let path = |i: usize| args.get(i).map(Path::new);
    let res = match (args.first().map(String::as_str), path(1)) {
        (Some("dump"), Some(inc)) => {
            // `--same-as FACTS`: compare the dump with a facts file instead of printing it.
            let same_as = args.iter().position(|a| a == "--same-as");
            let lib = path(2).filter(|_| same_as != Some(2));
            abi::dump(inc, lib).and_then(|facts| match same_as.and_then(|i| path(i + 1)) {
                None => {
                    println!("{facts:#}");
                    Ok(true)
                }
                Some(f) => {
                    let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
                    let want: serde_json::Value =
                        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", f.display()))?;
                    let diffs = abi::differences(&want, &facts);
                    for d in &diffs {
                        println!("{d}");
                    }
                    println!(
                        "abi: the facts of {} {} {}",
                        inc.display(),
                        if diffs.is_empty() { "equal" } else { "differ from" },
                        f.display()
                    );
                    Ok(diffs.is_empty())
                }
            })
        }
        (Some("check"), Some(facts)) => match (std::fs::read_to_string(facts), path(2)) {
            (Ok(text), Some(inc)) => {
                // `--differs NAME...`: items that must differ (those that tell the two
                // OpenPMIx generations apart); each must really differ, the rest must match.
                let split = args.iter().position(|a| a == "--differs").unwrap_or(args.len());
                let differs: Vec<&str> = args.iter().skip(split + 1).map(String::as_str).collect();
                let lib = path(3).filter(|_| split > 3);
                serde_json::from_str(&text)
                    .map_err(|e| format!("{}: {e}", facts.display()))
                    .and_then(|f| abi::check(&f, inc, lib))
                    .map(|(bad, total)| {
                        let (expected, bad): (Vec<String>, Vec<String>) =
                            bad.into_iter().partition(|b| abi::names_item(b, &differs));
                        for b in &bad {
                            println!("{b}");
                        }
                        let missing: Vec<&&str> = differs
                            .iter()
                            .filter(|n| !expected.iter().any(|e| abi::names_item(e, &[n])))
                            .collect();
                        for n in &missing {
                            println!("{n}: expected to differ from {}, but matches", facts.display());
                        }
                        if expected.is_empty() {
                            println!("abi: {} of {total} items match", total - bad.len());
                        } else {
                            println!(
                                "abi: {} of {total} items match; {} differ as expected ({})",
                                total - bad.len() - expected.len(),
                                expected.len(),
                                differs.join(", ")
                            );
                        }
                        bad.is_empty() && missing.is_empty()
                    })
            }
            (Err(e), _) => Err(format!("{}: {e}", facts.display())),
            (_, None) => Err("usage: abi check FACTS INCLUDE_DIR [LIB] [--differs NAME...]".into()),
        },
        _ => Err("usage: abi dump INCLUDE_DIR [LIB] [--same-as FACTS] | abi check FACTS INCLUDE_DIR [LIB]".into()),
    };
    match res {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask abi: {e}");
            ExitCode::FAILURE
        }
    }
}
