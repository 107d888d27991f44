//! Generates Rust bindings of the reference headers with bindgen, so that
//! `tests/layout_bindgen.rs` can compare our `pmix-sys` layouts with what the C compiler sees
//! in OpenPMIx's own headers. The headers come from `PMIX_REF_INC` or Debian's location.
fn main() {
    let inc = std::env::var("PMIX_REF_INC")
        .unwrap_or_else(|_| "/usr/lib/x86_64-linux-gnu/pmix2/include".into());
    println!("cargo:rerun-if-env-changed=PMIX_REF_INC");
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let bindings = bindgen::Builder::default()
        .header_contents(
            "ref.h",
            "#include <pmix.h>\n#include <pmix_server.h>\n#include <pmix_tool.h>\n",
        )
        .clang_arg(format!("-I{inc}"))
        .allowlist_type("pmix_.*")
        .layout_tests(false)
        .derive_default(false)
        .generate()
        .unwrap_or_else(|e| panic!("bindgen on the reference headers in {inc}: {e}"));
    bindings
        .write_to_file(out.join("ref_bindings.rs"))
        .expect("write bindings");
}
