//! Network interfaces (`pmix_if_list` of `pmix_pif_t`, the `pmix_if*` lookups) and address
//! helpers (`pmix_net_*`).
//!
//! The list holds what OpenPMIx's two Linux `pif` components find, in their order: first
//! every global-scope IPv6 address of `/proc/net/if_inet6` (`linux_ipv6`), then every IPv4
//! address the kernel lists for `SIOCGIFCONF` on an interface that is up and not a bonding
//! slave (`posix_ipv4`). Each entry gets the next `if_index` (from 1) and its kernel index;
//! `if_mask` holds the prefix length. PRRTE's oob/tcp walks the list itself.
//!
//! `load_interfaces` fills it once (`pmix_init_util` calls it); it also reads the private
//! IPv4 networks (`pmix_net_private_ipv4`, see `addr.rs`), as `pmix_net_init` does there.
//! The exported `pmix_if*` lookups call it first, so that they answer as after
//! `pmix_init_util` even before it (OpenPMIx's would walk an unlinked list).

mod addr;
mod iface;
mod load;

use crate::list::{List, ListItem, pmix_list_item_t_class, pmix_list_t_class};
use crate::object::{Object, pmix_object_t_class};
use core::ffi::{c_char, c_int};
use core::ptr;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

pub use addr::{net_init, prefix2netmask, samenetwork};
pub use iface::{ifislocal, iftupletoaddr};

/// `PMIX_IF_NAMESIZE`: `if_name` holds one more byte.
pub const IF_NAMESIZE: usize = 256;

/// `PMIX_ERR_FABRIC_NOT_PARSEABLE` (src/util/pmix_error.h).
pub const ERR_FABRIC_NOT_PARSEABLE: c_int = -1363;
/// `PMIX_ERR_NOT_FOUND`.
pub const ERR_NOT_FOUND: c_int = -46;
/// `PMIX_ERROR`.
pub const ERROR: c_int = -1;
/// `PMIX_SUCCESS`.
pub const SUCCESS: c_int = 0;

/// `pmix_pif_t` (576 bytes): one address of one interface.
#[repr(C)]
pub struct Pif {
    pub super_: ListItem,
    pub if_name: [c_char; IF_NAMESIZE + 1],
    /// Our own numbering: position in the list, from 1.
    pub if_index: c_int,
    /// The kernel's interface index.
    pub if_kernel_index: u16,
    pub af_family: u16,
    pub if_flags: c_int,
    pub if_speed: c_int,
    pub if_addr: libc::sockaddr_storage,
    /// Prefix length (CIDR), not a mask.
    pub if_mask: u32,
    pub if_bandwidth: u32,
    pub if_mac: [u8; 6],
    pub ifmtu: c_int,
}

unsafe extern "C" fn pif_construct(o: *mut Object) {
    let p = o as *mut Pif;
    // SAFETY: called on a pmix_pif_t being constructed (its memory is at least 576 bytes);
    // the list item part was set up by the parent's constructor and is left alone.
    unsafe {
        let body = &raw mut (*p).if_name as *mut u8;
        let end = (p as *mut u8).add(size_of::<Pif>());
        ptr::write_bytes(body, 0, end.offset_from(body) as usize);
        (*p).if_index = -1;
        (*p).if_kernel_index = u16::MAX;
        (*p).af_family = libc::AF_UNSPEC as u16;
    }
}

crate::class!(
    pmix_pif_t_class,
    Pif,
    &raw mut pmix_list_item_t_class,
    Some(pif_construct),
    None
);

/// The interfaces of this host, empty until `load_interfaces`. Unlike OpenPMIx's (whose
/// sentinel is unlinked until its pif framework opens), it is an empty list from the start:
/// its sentinel points to itself. Should a program hold a copy of it (a copy relocation in
/// an executable), the copy is relinked by `load_interfaces` before anything goes in.
#[unsafe(no_mangle)]
pub static mut pmix_if_list: List = List {
    super_: Object::static_init(&raw mut pmix_list_t_class),
    pmix_list_sentinel: ListItem {
        super_: Object::static_init(&raw mut pmix_object_t_class),
        // SAFETY: the address of the static's own sentinel, nothing read.
        pmix_list_next: unsafe { &raw mut pmix_if_list.pmix_list_sentinel },
        // SAFETY: as above.
        pmix_list_prev: unsafe { &raw mut pmix_if_list.pmix_list_sentinel },
        item_free: 0,
    },
    pmix_list_length: 0,
};

/// The list, through its symbol.
pub fn if_list() -> *mut List {
    &raw mut pmix_if_list
}

/// The entries of the list, head first (none if it was never linked).
///
/// # Safety
/// Nothing changes the list meanwhile (it is filled once, by `load_interfaces`).
pub(crate) unsafe fn entries() -> impl Iterator<Item = *mut Pif> {
    let list = if_list();
    // SAFETY: the list is a static; per the contract, its links are stable.
    let sentinel = unsafe { &raw mut (*list).pmix_list_sentinel };
    // SAFETY: as above.
    let mut next = unsafe { (*sentinel).pmix_list_next };
    core::iter::from_fn(move || {
        if next.is_null() || next == sentinel {
            return None;
        }
        let cur = next;
        // SAFETY: `cur` is an item of the list.
        next = unsafe { (*cur).pmix_list_next };
        Some(cur as *mut Pif)
    })
}

static LOADED: std::sync::Once = std::sync::Once::new();

/// Fills `pmix_if_list` with this host's interfaces, once (`pmix_init_util` calls it), and
/// reads the private IPv4 networks (`pmix_net_init`). Later calls do nothing.
///
/// The `pif` framework's selection (`PMIX_MCA_pif`, e.g. `^linux_ipv6`) and
/// `PMIX_MCA_pif_base_do_not_resolve` are read from the environment only (not from MCA
/// parameter files).
pub fn load_interfaces() {
    LOADED.call_once(|| {
        net_init();
        // SAFETY: the list is filled here only, once, before anything reads it.
        unsafe { load::load_all() }
    });
}

/// One entry of the list, for the Rust side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    pub name: String,
    pub index: i32,
    pub kernel_index: u16,
    pub addr: IpAddr,
    /// Prefix length.
    pub prefix: u32,
    pub flags: i32,
    pub mac: [u8; 6],
    pub mtu: i32,
}

/// The address held in a `sockaddr_storage`, if IPv4 or IPv6.
pub fn sockaddr_ip(ss: &libc::sockaddr_storage) -> Option<IpAddr> {
    match ss.ss_family as c_int {
        libc::AF_INET => {
            // SAFETY: a sockaddr_in fits in a sockaddr_storage.
            let sin = unsafe { &*(ss as *const _ as *const libc::sockaddr_in) };
            Some(IpAddr::V4(Ipv4Addr::from(u32::from_be(
                sin.sin_addr.s_addr,
            ))))
        }
        libc::AF_INET6 => {
            // SAFETY: a sockaddr_in6 fits in a sockaddr_storage.
            let sin6 = unsafe { &*(ss as *const _ as *const libc::sockaddr_in6) };
            Some(IpAddr::V6(Ipv6Addr::from(sin6.sin6_addr.s6_addr)))
        }
        _ => None,
    }
}

/// This host's interfaces (loading them first), in list order.
pub fn interfaces() -> Vec<Interface> {
    load_interfaces();
    let mut out = Vec::new();
    // SAFETY: the list is loaded and no longer changes.
    unsafe {
        for p in entries() {
            let Some(addr) = sockaddr_ip(&(*p).if_addr) else {
                continue;
            };
            let name = core::ffi::CStr::from_ptr((*p).if_name.as_ptr());
            out.push(Interface {
                name: name.to_string_lossy().into_owned(),
                index: (*p).if_index,
                kernel_index: (*p).if_kernel_index,
                addr,
                prefix: (*p).if_mask,
                flags: (*p).if_flags,
                mac: (*p).if_mac,
                mtu: (*p).ifmtu,
            });
        }
    }
    out
}

/// A diagnostic on stderr as `pmix_output(0, ...)` prints it: `[host:pid] text`.
pub(crate) fn output0(text: &str) {
    let mut host = [0 as c_char; 256];
    // SAFETY: a buffer of its stated size, NUL-terminated below.
    unsafe { libc::gethostname(host.as_mut_ptr(), host.len() - 1) };
    host[255] = 0;
    // SAFETY: NUL-terminated above.
    let host = unsafe { core::ffi::CStr::from_ptr(host.as_ptr()) }.to_string_lossy();
    let mut msg = format!("[{host}:{}] {text}", std::process::id());
    if !msg.ends_with('\n') {
        msg.push('\n');
    }
    // SAFETY: writing a buffer to stderr.
    unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
}

/// A help message of `help-pmix-util.txt` on stderr, framed as `pmix_show_help` frames it.
/// (Printed here until the output family's `pmix_show_help` is written.)
pub(crate) fn show_help(text: &str) {
    let rule = "-".repeat(74);
    let msg = format!("{rule}\n{text}\n{rule}\n");
    // SAFETY: writing a buffer to stderr.
    unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::offset_of;

    const FACTS: &str = include_str!("../../facts/layouts-net.txt");

    #[test]
    fn layouts_match_openpmix() {
        crate::facts::layout(
            FACTS,
            "pmix_pif_t",
            size_of::<Pif>(),
            &[
                ("if_name", offset_of!(Pif, if_name)),
                ("if_index", offset_of!(Pif, if_index)),
                ("if_kernel_index", offset_of!(Pif, if_kernel_index)),
                ("af_family", offset_of!(Pif, af_family)),
                ("if_flags", offset_of!(Pif, if_flags)),
                ("if_speed", offset_of!(Pif, if_speed)),
                ("if_addr", offset_of!(Pif, if_addr)),
                ("if_mask", offset_of!(Pif, if_mask)),
                ("if_bandwidth", offset_of!(Pif, if_bandwidth)),
                ("if_mac", offset_of!(Pif, if_mac)),
                ("ifmtu", offset_of!(Pif, ifmtu)),
            ],
        );
        assert_eq!(size_of::<List>(), 272);
    }

    #[test]
    fn the_list_is_linked_before_loading_and_filled_after() {
        // SAFETY: reading the static list's links.
        unsafe {
            let l = if_list();
            let s = &raw mut (*l).pmix_list_sentinel;
            assert!(!(*s).pmix_list_next.is_null());
            assert!(!(*s).pmix_list_prev.is_null());
        }
        load_interfaces();
        load_interfaces();
        let all = interfaces();
        // SAFETY: as above.
        unsafe {
            let l = if_list();
            assert_eq!((*l).pmix_list_length, all.len());
            assert_eq!((*l).super_.obj_class, &raw mut pmix_list_t_class);
            for p in entries() {
                assert_eq!((*p).super_.super_.obj_class, &raw mut pmix_pif_t_class);
                assert_eq!((*p).super_.super_.obj_reference_count, 1);
            }
        }
        for (i, e) in all.iter().enumerate() {
            assert_eq!(e.index, i as i32 + 1, "{e:?}");
            // SAFETY: a NUL-terminated name.
            let k = unsafe { libc::if_nametoindex(format!("{}\0", e.name).as_ptr().cast()) };
            assert_eq!(u32::from(e.kernel_index), k, "{e:?}");
        }
        // The IPv6 entries come first; then the IPv4 ones, loopback among them.
        let first4 = all.iter().position(|e| e.addr.is_ipv4());
        if let Some(f) = first4 {
            assert!(all[f..].iter().all(|e| e.addr.is_ipv4()));
        }
        assert!(
            all.iter()
                .any(|e| e.addr == IpAddr::V4(Ipv4Addr::LOCALHOST) && e.prefix == 8),
            "{all:?}"
        );
    }
}
