//! Compiles the C-variadic functions of the layer (`pmix_asprintf`, `pmix_output`,
//! `pmix_show_help`, ...): stable Rust cannot define a C-variadic function, so each is a few
//! lines of C that turn the arguments into a `va_list` or a string and call Rust.
fn main() {
    println!("cargo:rerun-if-changed=csrc/variadic.c");
    cc::Build::new()
        .file("csrc/variadic.c")
        .flag_if_supported("-fvisibility=default")
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .cargo_metadata(false)
        .compile("pmix_internals_variadic");
    // Whole: nothing in Rust calls most of these, and they must be in the library anyway.
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static:+whole-archive=pmix_internals_variadic");
}
