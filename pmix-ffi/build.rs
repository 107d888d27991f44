//! Gives the shared library the reference's SONAME, so that programs linked against
//! OpenPMIx's `libpmix.so.2` load this one.
//!
//! With `PMIX_TEXT_ORDER` naming a file of symbol names (the Makefile's `lib` target sets it to
//! `pmix-ffi/client-text.order`), the linker places those functions first in `.text`: the ones
//! a client runs, then those a host runs besides (`bench/profile.sh text-order` lists them).
//! A client then maps that first part of the text and not the whole of it (the kernel maps the
//! page-cache folio, or 64 kB, around every page fault of a file mapping). The flag is LLD's,
//! the linker Rust uses on x86_64 Linux since 1.90 (elsewhere the list is ignored, with a
//! warning). The same build moves the PLT before `.text` (`text-layout.ld`), beside those
//! functions.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpmix.so.2");
    // pmix-internals' C-variadic functions are C, which rustc's export list does not name.
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/internals.map");
    println!("cargo:rerun-if-changed={map}");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={map}");
    println!("cargo:rerun-if-env-changed=PMIX_TEXT_ORDER");
    let order = std::env::var_os("PMIX_TEXT_ORDER").filter(|v| !v.is_empty());
    if order.is_some() && !linker_is_rust_lld() {
        println!(
            "cargo:warning=PMIX_TEXT_ORDER ignored: the link order needs rust-lld, the default \
             linker of Rust >= 1.90 on x86_64-unknown-linux-gnu"
        );
    } else if let Some(order) = order {
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

/// Whether rustc links this crate with its own LLD: on x86_64-unknown-linux-gnu from Rust 1.90
/// on, unless the flags choose another linker. A linker set in a Cargo config file is not seen
/// here; `make lib` uses the default.
fn linker_is_rust_lld() -> bool {
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    if env("TARGET") != "x86_64-unknown-linux-gnu"
        || env("CARGO_ENCODED_RUSTFLAGS").contains("linker")
        || std::env::var_os("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_some()
    {
        return false;
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = std::process::Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let version = String::from_utf8_lossy(&out.stdout);
    let mut parts = version
        .split_whitespace()
        .nth(1)
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    major > 1 || (major == 1 && minor >= 90)
}
