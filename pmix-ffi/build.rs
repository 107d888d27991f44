//! Gives the shared library the reference's SONAME, so that programs linked against
//! OpenPMIx's `libpmix.so.2` load this one.
//!
//! With `PMIX_TEXT_ORDER` naming a file of symbol names (the Makefile's `lib` target sets it to
//! `pmix-ffi/client-text.order`), the linker places those functions first in `.text`: the ones
//! a client runs, then those a host runs besides (`bench/profile.sh text-order` lists them).
//! A client then maps that first part of the text and not the whole of it (the kernel maps the
//! page-cache folio, or 64 kB, around every page fault of a file mapping). The flag is LLD's,
//! the linker Rust uses on x86_64 Linux since 1.90. The same build moves the PLT before
//! `.text` (`text-layout.ld`), beside those functions.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpmix.so.2");
    println!("cargo:rerun-if-env-changed=PMIX_TEXT_ORDER");
    if let Some(order) = std::env::var_os("PMIX_TEXT_ORDER").filter(|v| !v.is_empty()) {
        let order = std::path::PathBuf::from(order);
        println!("cargo:rerun-if-changed={}", order.display());
        println!(
            "cargo:rustc-cdylib-link-arg=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        // Names missing from this build (a function inlined away, or renamed since the list
        // was made) only lose their place; `bench/profile.sh text-order-check` counts them.
        println!("cargo:rustc-cdylib-link-arg=-Wl,--no-warn-symbol-ordering");
        let layout = concat!(env!("CARGO_MANIFEST_DIR"), "/text-layout.ld");
        println!("cargo:rerun-if-changed={layout}");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-T,{layout}");
    }
}
