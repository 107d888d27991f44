//! `pmix_framework_names`: the one data object of OpenPMIx 5.0's ABI that its consumers bind.
//!
//! Open MPI 5's `libopen-pal.so.80` imports it with a `GLOB_DAT` relocation, so the dynamic
//! loader needs it before any code runs: without it every Open MPI 5 process fails to load
//! ("undefined symbol: pmix_framework_names"). Open MPI walks it to tell OpenPMIx's MCA
//! framework names from its own when it reads `OMPI_MCA_*`/`PMIX_MCA_*` parameters. OpenPMIx
//! 5.0.11 generates it from its `src/mca` directories; the same 16 names and terminator, in a
//! `char *[17]` of 136 bytes, are exported here (the size is what a copy relocation of it would
//! need; `docs/abi/openpmix-5.0.11.abi.json` records the names, `docs/notes/abi-5.0.md` why).

use core::ffi::c_char;

/// A table of C strings that can live in a `static` (the pointers are to constants).
#[repr(transparent)]
pub struct Names(pub [*const c_char; 17]);

// SAFETY: the table and the strings it points to are immutable constants.
unsafe impl Sync for Names {}

/// The names, NULL-terminated.
#[unsafe(no_mangle)]
#[used]
pub static pmix_framework_names: Names = Names([
    c"bfrops".as_ptr(),
    c"gds".as_ptr(),
    c"pcompress".as_ptr(),
    c"pdl".as_ptr(),
    c"pif".as_ptr(),
    c"pinstalldirs".as_ptr(),
    c"plog".as_ptr(),
    c"pmdl".as_ptr(),
    c"pnet".as_ptr(),
    c"preg".as_ptr(),
    c"psec".as_ptr(),
    c"psensor".as_ptr(),
    c"psquash".as_ptr(),
    c"pstat".as_ptr(),
    c"ptl".as_ptr(),
    c"mca".as_ptr(),
    core::ptr::null(),
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_core_names_the_same_frameworks() {
        let names: Vec<&str> = pmix_framework_names
            .0
            .iter()
            .take_while(|p| !p.is_null())
            // SAFETY: the table's entries are C string literals.
            .map(|&p| unsafe { core::ffi::CStr::from_ptr(p) }.to_str().unwrap())
            .collect();
        assert_eq!(names, pmix_core::pmdl::PMIX_FRAMEWORKS);
    }

    #[test]
    fn the_table_is_136_bytes_and_terminated() {
        assert_eq!(core::mem::size_of_val(&pmix_framework_names), 136);
        let t = &pmix_framework_names.0;
        assert!(t[16].is_null());
        // SAFETY: entries 0..16 are C string constants.
        let names: Vec<_> = t[..16]
            .iter()
            .map(|p| unsafe { core::ffi::CStr::from_ptr(*p) })
            .collect();
        assert_eq!(names[0], c"bfrops");
        assert_eq!(names[15], c"mca");
    }
}
