//! Gives the shared library the reference's SONAME, so that programs linked against
//! OpenPMIx's `libpmix.so.2` load this one.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpmix.so.2");
}
