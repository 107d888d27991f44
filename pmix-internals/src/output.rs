//! Output streams (`pmix_output*`) and the help messages (`pmix_show_help*`).
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_output_info: [u8; 4608] = [0; 4608];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_output_stream_t_class: [u8; 64] = [0; 64];

crate::not_yet!(
    pmix_output,
    pmix_show_help,
    pmix_show_help_string,
    pmix_os_path,
    pmix_output_init,
    pmix_output_open,
    pmix_output_close,
    pmix_output_set_verbosity,
    pmix_output_get_verbosity,
    pmix_output_set_output_file_info,
    pmix_output_finalize,
    pmix_show_help_vstring,
    pmix_show_help_norender,
    pmix_show_help_add_dir
);
