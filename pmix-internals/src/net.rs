//! Network interfaces (`pmix_if*`, the `pmix_if_list` of `pmix_pif_t`) and address helpers (`pmix_net_*`).
//!
//! Not written yet: every function below aborts with its name (issue 16).

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_if_list: [u8; 272] = [0; 272];

/// Placeholder of the exported object's exact size (not written yet).
#[unsafe(no_mangle)]
pub static mut pmix_pif_t_class: [u8; 64] = [0; 64];

crate::not_yet!(
    pmix_net_isaddr,
    pmix_net_get_hostname,
    pmix_net_samenetwork,
    pmix_net_get_port,
    pmix_net_addr_isipv4public,
    pmix_net_addr_isipv6linklocal,
    pmix_ifgetaliases,
    pmix_ifislocal,
    pmix_ifkindextoaddr,
    pmix_ifkindextoname,
    pmix_ifmatches
);

/// Fills `pmix_if_list` with this host's interfaces, once (`pmix_init_util` calls it).
/// Not written yet: it does nothing.
pub fn load_interfaces() {}
