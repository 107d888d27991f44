//! Discovery of this host's interfaces, as OpenPMIx's Linux `pif` components do it:
//! `linux_ipv6` from `/proc/net/if_inet6`, then `posix_ipv4` through the `SIOC*` ioctls.

use super::iface::{DO_NOT_RESOLVE, ifindextoflags, ifnametoindex};
use super::{IF_NAMESIZE, Pif, if_list, output0, pmix_pif_t_class};
use crate::list::{self, List, ListItem};
use crate::object::{self, Object};
use core::ffi::{c_char, c_int, c_short, c_ulong};
use core::ptr;
use std::sync::atomic::Ordering;

/// Fills the list: links it if it is not (a program's copy of the static), reads the
/// framework's parameters, then runs the selected components in OpenPMIx's order.
///
/// # Safety
/// Nothing else uses the list meanwhile.
pub(super) unsafe fn load_all() {
    let l = if_list();
    // SAFETY: per the contract.
    unsafe {
        if (*l).pmix_list_length == 0 {
            object::construct(l as *mut Object, list::list_class());
        }
    }
    DO_NOT_RESOLVE.store(
        std::env::var("PMIX_MCA_pif_base_do_not_resolve").is_ok_and(|v| mca_bool(&v)),
        Ordering::Relaxed,
    );
    let select = std::env::var("PMIX_MCA_pif").unwrap_or_default();
    if selected(&select, "linux_ipv6") {
        // SAFETY: per the contract.
        unsafe { load_ipv6(l) };
    }
    if selected(&select, "posix_ipv4") {
        // SAFETY: per the contract.
        unsafe { load_ipv4(l) };
    }
}

/// An MCA boolean: a nonzero number, or true/yes/enabled in any case.
fn mca_bool(v: &str) -> bool {
    let v = v.trim();
    match v.parse::<i64>() {
        Ok(n) => n != 0,
        Err(_) => ["true", "yes", "enabled"]
            .iter()
            .any(|t| v.eq_ignore_ascii_case(t)),
    }
}

/// Whether a framework selection (`a,b` to include, `^a,b` to exclude, empty for all)
/// selects `component`.
fn selected(select: &str, component: &str) -> bool {
    let select = select.trim();
    if select.is_empty() {
        return true;
    }
    let (exclude, names) = match select.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, select),
    };
    names.split(',').any(|n| n.trim() == component) != exclude
}

/// A new entry, constructed (`PMIX_NEW(pmix_pif_t)`), or null.
fn new_pif() -> *mut Pif {
    // SAFETY: our class, whose size is that of Pif.
    unsafe { object::new(&raw mut pmix_pif_t_class) as *mut Pif }
}

/// Copies `name` (at most `IF_NAMESIZE - 1` bytes) into an entry's cleared name.
fn set_name(p: &mut Pif, name: &[u8]) {
    for (d, s) in p.if_name.iter_mut().zip(name.iter().take(IF_NAMESIZE - 1)) {
        *d = *s as c_char;
    }
}

/// Appends an entry, numbered after those already there.
///
/// # Safety
/// `l` is the constructed list, `p` a new entry.
unsafe fn add(l: *mut List, p: *mut Pif) {
    // SAFETY: per the contract.
    unsafe { list::append(l, p as *mut ListItem) }
}

/// The list's length plus one: the `if_index` of the next entry.
///
/// # Safety
/// `l` is the constructed list.
unsafe fn next_index(l: *mut List) -> c_int {
    // SAFETY: per the contract.
    unsafe { (*l).pmix_list_length as c_int + 1 }
}

/// One line of `/proc/net/if_inet6`: address, kernel index, prefix length, scope, name
/// (at most 20 bytes, as read there).
fn parse_inet6_line(line: &str) -> Option<([u8; 16], u32, u32, u32, &str)> {
    let mut f = line.split_whitespace();
    let hex = f.next()?;
    if hex.len() != 32 {
        return None;
    }
    let mut a = [0u8; 16];
    for (i, b) in a.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let mut num = || u32::from_str_radix(f.next()?, 16).ok();
    let (idx, plen, scope, _dad) = (num()?, num()?, num()?, num()?);
    let name = f.next()?;
    let name = name.get(..name.len().min(20)).unwrap_or(name);
    Some((a, idx, plen, scope, name))
}

/// `linux_ipv6`: every global-scope (scope 0) address, its prefix length as mask, no MAC
/// or MTU; flags those of an entry of the same name already listed, else `IFF_UP`.
///
/// # Safety
/// `l` is the constructed list, used by nothing else.
unsafe fn load_ipv6(l: *mut List) {
    let Ok(text) = std::fs::read_to_string("/proc/net/if_inet6") else {
        return;
    };
    for (addr, idx, plen, scope, name) in text.lines().filter_map(parse_inet6_line) {
        if scope != 0 {
            continue;
        }
        let p = new_pif();
        if p.is_null() {
            output0(&format!(
                "pmix_ifinit: unable to allocate {} bytes\n",
                size_of::<Pif>()
            ));
            return;
        }
        // SAFETY: a new entry; the list per the contract.
        unsafe {
            let e = &mut *p;
            e.af_family = libc::AF_INET6 as u16;
            set_name(e, name.as_bytes());
            e.if_index = next_index(l);
            e.if_kernel_index = idx as u16;
            let sin6 = &raw mut e.if_addr as *mut libc::sockaddr_in6;
            (*sin6).sin6_family = libc::AF_INET6 as u16;
            (*sin6).sin6_addr.s6_addr = addr;
            (*sin6).sin6_scope_id = scope;
            e.if_mask = plen;
            e.if_flags = ifindextoflags(ifnametoindex(name.as_bytes())).unwrap_or(libc::IFF_UP);
            add(l, p);
        }
    }
}

/// `struct ifreq` (40 bytes on x86-64): a name and a union of what the ioctls answer.
#[repr(C)]
#[derive(Clone, Copy)]
struct IfReq {
    name: [c_char; libc::IFNAMSIZ],
    u: IfReqU,
}

#[repr(C)]
#[derive(Clone, Copy)]
union IfReqU {
    addr: libc::sockaddr,
    flags: c_short,
    index: c_int,
    mtu: c_int,
    _size: [u64; 3],
}

/// `struct ifconf`.
#[repr(C)]
struct IfConf {
    len: c_int,
    buf: *mut IfReq,
}

/// Most that the configuration list may take (10 MiB, as OpenPMIx).
const MAX_IFCONF: usize = 10 * 1024 * 1024;

/// The kernel's IPv4 configuration list (one request per address), or None.
///
/// # Safety
/// `sd` is an AF_INET socket.
unsafe fn ifconf(sd: c_int) -> Option<Vec<IfReq>> {
    let mut cap = 10;
    while cap * size_of::<IfReq>() < MAX_IFCONF {
        // SAFETY: all-zero requests are valid.
        let mut v: Vec<IfReq> = vec![unsafe { core::mem::zeroed() }; cap];
        let mut conf = IfConf {
            len: (cap * size_of::<IfReq>()) as c_int,
            buf: v.as_mut_ptr(),
        };
        // SAFETY: the buffer is as long as `conf.len` says.
        let rc = unsafe { libc::ioctl(sd, libc::SIOCGIFCONF as c_ulong, &mut conf) };
        if rc < 0 {
            let err = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            if err != libc::EINVAL {
                output0(&format!(
                    "pmix_ifinit: ioctl(SIOCGIFCONF) failed with errno={err}"
                ));
                return None;
            }
        } else {
            let used = conf.len.max(0) as usize / size_of::<IfReq>();
            // Room to spare: the kernel listed everything.
            if used < cap {
                v.truncate(used);
                return Some(v);
            }
        }
        cap *= 2;
    }
    output0("pmix_ifinit: unable to find network interfaces.");
    None
}

/// The flags of a prefix-length netmask (network byte order): its length in bits, 0 for 0.
fn mask_to_prefix(netmask_be: u32) -> u32 {
    let m = u32::from_be(netmask_be);
    if m == 0 { 0 } else { 32 - m.trailing_zeros() }
}

/// `posix_ipv4`: every IPv4 address of an interface that is up and not a bonding slave,
/// with the interface's kernel index, primary address, netmask (as a prefix length), MAC
/// and MTU. A failure to read the address, MAC or MTU ends the walk, as in OpenPMIx.
///
/// # Safety
/// `l` is the constructed list, used by nothing else.
unsafe fn load_ipv4(l: *mut List) {
    // SAFETY: a plain socket, closed below.
    let sd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) };
    if sd < 0 {
        let err = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        output0(&format!("pmix_ifinit: socket() failed with errno={err}\n"));
        return;
    }
    // SAFETY: `sd` is an AF_INET socket.
    if let Some(reqs) = unsafe { ifconf(sd) } {
        // SAFETY: per the contract.
        unsafe { walk_ipv4(l, sd, &reqs) };
    }
    // SAFETY: our socket.
    unsafe { libc::close(sd) };
}

/// The body of `load_ipv4` over the configuration list.
///
/// # Safety
/// As `load_ipv4`; `sd` an AF_INET socket.
unsafe fn walk_ipv4(l: *mut List, sd: c_int, reqs: &[IfReq]) {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    for conf in reqs {
        // SAFETY: the configuration list holds addresses.
        if c_int::from(unsafe { conf.u.addr.sa_family }) != libc::AF_INET {
            continue;
        }
        let mut r = *conf;
        let ioctl = |r: &mut IfReq, req: c_ulong| {
            // SAFETY: a request naming an interface; the kernel writes within it.
            unsafe { libc::ioctl(sd, req, r as *mut IfReq) }
        };
        if ioctl(&mut r, libc::SIOCGIFFLAGS as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFFLAGS) failed with errno={}",
                errno()
            ));
            continue;
        }
        // SAFETY: SIOCGIFFLAGS answered the flags.
        let flags = c_int::from(unsafe { r.u.flags });
        if flags & libc::IFF_UP == 0 || flags & libc::IFF_SLAVE != 0 {
            continue;
        }
        let p = new_pif();
        if p.is_null() {
            output0(&format!(
                "pmix_ifinit: unable to allocated {} bytes\n",
                size_of::<Pif>()
            ));
            return;
        }
        // SAFETY: a new entry, ours until appended or released.
        let e = unsafe { &mut *p };
        let release = || {
            // SAFETY: the new entry, on no list.
            unsafe { object::release(p as *mut Object) };
        };
        e.af_family = libc::AF_INET as u16;
        let name: Vec<u8> = r
            .name
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        set_name(e, &name);
        e.if_flags = flags;
        // SAFETY: per the contract.
        e.if_index = unsafe { next_index(l) };
        if ioctl(&mut r, libc::SIOCGIFINDEX as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFINDEX) failed with errno={}",
                errno()
            ));
            release();
            continue;
        }
        // SAFETY: SIOCGIFINDEX answered the index.
        e.if_kernel_index = unsafe { r.u.index } as u16;
        if ioctl(&mut r, libc::SIOCGIFADDR as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFADDR) failed with errno={}",
                errno()
            ));
            release();
            return;
        }
        // SAFETY: SIOCGIFADDR answered an address.
        let a = unsafe { r.u.addr };
        if c_int::from(a.sa_family) != libc::AF_INET {
            release();
            continue;
        }
        // SAFETY: a sockaddr_in (16 bytes) into the 128-byte storage.
        unsafe {
            ptr::copy_nonoverlapping(
                &raw const a as *const u8,
                &raw mut e.if_addr as *mut u8,
                size_of::<libc::sockaddr_in>(),
            )
        };
        if ioctl(&mut r, libc::SIOCGIFNETMASK as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFNETMASK) failed with errno={}",
                errno()
            ));
            release();
            continue;
        }
        // SAFETY: SIOCGIFNETMASK answered a sockaddr_in.
        let mask = unsafe {
            (*(&raw const r.u.addr as *const libc::sockaddr_in))
                .sin_addr
                .s_addr
        };
        e.if_mask = mask_to_prefix(mask);
        if ioctl(&mut r, libc::SIOCGIFHWADDR as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFHWADDR) failed with errno={}",
                errno()
            ));
            release();
            return;
        }
        // SAFETY: SIOCGIFHWADDR answered a hardware address in sa_data.
        let hw = unsafe { r.u.addr.sa_data };
        for (d, s) in e.if_mac.iter_mut().zip(hw.iter()) {
            *d = *s as u8;
        }
        if ioctl(&mut r, libc::SIOCGIFMTU as c_ulong) < 0 {
            output0(&format!(
                "pmix_ifinit: ioctl(SIOCGIFMTU) failed with errno={}",
                errno()
            ));
            release();
            return;
        }
        // SAFETY: SIOCGIFMTU answered the MTU.
        e.ifmtu = unsafe { r.u.mtu };
        // SAFETY: per the contract.
        unsafe { add(l, p) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_inet6_lines_parse() {
        let l = "fd000000000000000000000000000002 04 40 00 82     eth0";
        let (a, idx, plen, scope, name) = parse_inet6_line(l).unwrap();
        assert_eq!(a[0], 0xfd);
        assert_eq!(a[15], 2);
        assert_eq!((idx, plen, scope, name), (4, 64, 0, "eth0"));
        assert!(parse_inet6_line("zz").is_none());
        assert_eq!(size_of::<IfReq>(), 40);
    }

    #[test]
    fn selections_and_masks() {
        assert!(selected("", "posix_ipv4"));
        assert!(!selected("^linux_ipv6", "linux_ipv6"));
        assert!(selected("^linux_ipv6", "posix_ipv4"));
        assert!(selected("posix_ipv4", "posix_ipv4"));
        assert!(!selected("posix_ipv4", "linux_ipv6"));
        assert_eq!(mask_to_prefix(0xffff_ff00u32.to_be()), 24);
        assert_eq!(mask_to_prefix(0xff00_0000u32.to_be()), 8);
        assert_eq!(mask_to_prefix(0xffff_ffffu32.to_be()), 32);
        assert_eq!(mask_to_prefix(0), 0);
        assert!(mca_bool("1") && mca_bool("Yes") && !mca_bool("0") && !mca_bool("no"));
    }
}
