//! The command-line parser (`pmix_cmd_line_parse`) and the tool identity strings.
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_cli_item_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_cli_result_t_class: [u8; 64] = [0; 64];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_tool_basename: [u8; 8] = [0; 8];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_tool_org: [u8; 8] = [0; 8];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_tool_version: [u8; 8] = [0; 8];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_tool_msg: [u8; 8] = [0; 8];

crate::not_yet!(pmix_cmd_line_parse);
