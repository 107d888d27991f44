//! Lookups in the interface list (`pmix_if*`).

use super::{ERR_FABRIC_NOT_PARSEABLE, ERR_NOT_FOUND, ERROR, IF_NAMESIZE, Pif, SUCCESS, entries};
use core::ffi::{CStr, c_char, c_int, c_uint, c_void};
use core::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::util::fd::inet_ntop;

/// `pmix_if_do_not_resolve` (MCA `pif_base_do_not_resolve`): `ifislocal` answers false
/// without resolving anything.
pub(crate) static DO_NOT_RESOLVE: AtomicBool = AtomicBool::new(false);

/// The name of an entry.
///
/// # Safety
/// `p` is an entry of the list.
unsafe fn name_of<'a>(p: *const Pif) -> &'a [u8] {
    // SAFETY: per the contract; names are NUL-terminated within the array.
    unsafe {
        let n = &(*p).if_name;
        let len = n.iter().position(|&c| c == 0).unwrap_or(n.len());
        core::slice::from_raw_parts(n.as_ptr().cast(), len)
    }
}

/// Whether an entry's name is `name` (the first 255 bytes compared, as `strncmp` does).
///
/// # Safety
/// `p` is an entry of the list.
unsafe fn name_is(p: *const Pif, name: &[u8]) -> bool {
    // SAFETY: per the contract.
    let ours = unsafe { name_of(p) };
    let cut = |s: &[u8]| s[..s.len().min(IF_NAMESIZE - 1)].to_vec();
    !ours.is_empty() && cut(ours) == cut(name)
}

/// `pmix_ifnametoindex`: the `if_index` of the first entry named `name`, or -1.
pub fn ifnametoindex(name: &[u8]) -> c_int {
    // SAFETY: the list is stable once loaded.
    unsafe {
        entries()
            .find(|&p| name_is(p, name))
            .map_or(-1, |p| (*p).if_index)
    }
}

/// `pmix_ifnametokindex`: the kernel index of the first entry named `name` (as a signed
/// 16-bit number), or -1.
pub fn ifnametokindex(name: &[u8]) -> i16 {
    // SAFETY: the list is stable once loaded.
    unsafe {
        entries()
            .find(|&p| name_is(p, name))
            .map_or(-1, |p| (*p).if_kernel_index as i16)
    }
}

/// `pmix_ifindextoflags`: the flags of the entry numbered `index`.
pub fn ifindextoflags(index: c_int) -> Option<c_int> {
    // SAFETY: the list is stable once loaded.
    unsafe {
        entries()
            .find(|&p| (*p).if_index == index)
            .map(|p| (*p).if_flags)
    }
}

/// The first entry with kernel index `kindex`.
fn by_kindex(kindex: c_int) -> Option<*mut Pif> {
    // SAFETY: the list is stable once loaded.
    unsafe { entries().find(|&p| c_int::from((*p).if_kernel_index) == kindex) }
}

/// `pmix_ifaddrtoname` reduced to its answer: whether `host` (a name or an address)
/// resolves to an address of one of our entries. An IPv4 result is compared with the IPv4
/// address field of every entry, any other result with the IPv6 address field, as OpenPMIx
/// does (so `0.0.0.0` and `::` count as local).
pub fn ifislocal(host: &CStr) -> bool {
    super::load_interfaces();
    if DO_NOT_RESOLVE.load(Ordering::Relaxed) {
        return false;
    }
    // SAFETY: a zeroed addrinfo is a valid hint.
    let mut hints: libc::addrinfo = unsafe { core::mem::zeroed() };
    hints.ai_family = libc::AF_UNSPEC;
    hints.ai_socktype = libc::SOCK_STREAM;
    let mut res: *mut libc::addrinfo = ptr::null_mut();
    // SAFETY: a C string; the result is freed below.
    if unsafe { libc::getaddrinfo(host.as_ptr(), ptr::null(), &hints, &mut res) } != 0 {
        if !res.is_null() {
            // SAFETY: returned by getaddrinfo.
            unsafe { libc::freeaddrinfo(res) };
        }
        return false;
    }
    let mut found = false;
    let mut r = res;
    // SAFETY: walking getaddrinfo's list, reading each address per its family's size; the
    // entries' storages hold 128 bytes.
    unsafe {
        while !r.is_null() && !found {
            let a = (*r).ai_addr as *const u8;
            let (off, len) = if (*r).ai_family == libc::AF_INET {
                (4, 4)
            } else {
                (8, 16)
            };
            if !a.is_null() && (*r).ai_addrlen as usize >= off + len {
                let want = core::slice::from_raw_parts(a.add(off), len);
                found = entries().any(|p| {
                    let s = &raw const (*p).if_addr as *const u8;
                    core::slice::from_raw_parts(s.add(off), len) == want
                });
            }
            r = (*r).ai_next;
        }
        libc::freeaddrinfo(res);
    }
    found
}

/// Parses up to four dot-separated decimal fields (`strtoul` each, so blanks and signs as
/// it takes them), stopping at the first that has no digit: `192.168` gives 192.168.0.0.
fn parse_dots(s: &CStr) -> Result<u32, c_int> {
    let mut n = [0u32; 4];
    let mut start = s.as_ptr();
    for f in n.iter_mut() {
        let mut end: *mut c_char = ptr::null_mut();
        // SAFETY: `start` is within the C string.
        let v = unsafe { libc::strtoul(start, &mut end, 10) } as u32;
        if end.cast_const() == start {
            break;
        }
        if v > 255 {
            return Err(ERR_FABRIC_NOT_PARSEABLE);
        }
        *f = v;
        start = end;
        // SAFETY: stays within the C string (stops at its NUL).
        unsafe {
            while *start == b'.' as c_char {
                start = start.add(1);
            }
        }
    }
    Ok((n[0] << 24) | (n[1] << 16) | (n[2] << 8) | n[3])
}

/// `pmix_iftupletoaddr`: the network (host byte order) and netmask of `a.b.c.d[/bits]`,
/// `a.b.c.d/m.m.m.m` or a partial address (`10.1`: the mask follows the number of dots).
/// Answers `PMIX_SUCCESS` or `PMIX_ERR_FABRIC_NOT_PARSEABLE`; as in OpenPMIx, when the
/// network is asked for, its parse decides the answer even if a dotted mask failed.
pub fn iftupletoaddr(addr: &CStr, net: Option<&mut u32>, mask: Option<&mut u32>) -> c_int {
    let mut rc = SUCCESS;
    let bytes = addr.to_bytes();
    if let Some(mask) = mask {
        *mask = 0xFFFF_FFFF;
        if let Some(slash) = bytes.iter().position(|&c| c == b'/') {
            let tail = &addr[slash + 1..];
            if tail.to_bytes().contains(&b'.') {
                match parse_dots(tail) {
                    Ok(m) => *mask = m,
                    Err(e) => rc = e,
                }
            } else {
                // SAFETY: a C string; truncated to int as OpenPMIx stores it.
                let bits = unsafe { libc::strtol(tail.as_ptr(), ptr::null_mut(), 10) } as c_int;
                if !(1..=31).contains(&bits) {
                    super::output0("pmix_iftupletoaddr: unknown mask");
                    return ERR_FABRIC_NOT_PARSEABLE;
                }
                *mask = 0xFFFF_FFFF << (32 - bits);
            }
        } else {
            *mask = match bytes.iter().filter(|&&c| c == b'.').count() {
                3 => 0xFFFF_FFFF,
                2 => 0xFFFF_FF00,
                1 => 0xFFFF_0000,
                0 => 0xFF00_0000,
                _ => {
                    super::output0("pmix_iftupletoaddr: unknown mask");
                    return ERR_FABRIC_NOT_PARSEABLE;
                }
            };
        }
    }
    if let Some(net) = net {
        rc = match parse_dots(addr) {
            Ok(n) => {
                *net = n;
                SUCCESS
            }
            Err(e) => e,
        };
    }
    rc
}

/// Appends a copy of `s` to a NULL-terminated libc argv (`PMIx_Argv_append_nosize`).
///
/// # Safety
/// `argv` points to NULL or to such an array.
unsafe fn argv_append(argv: *mut *mut *mut c_char, s: *const c_char) {
    // SAFETY: per the contract.
    unsafe {
        let mut n = 0;
        if !(*argv).is_null() {
            while !(*(*argv).add(n)).is_null() {
                n += 1;
            }
        }
        let grown =
            libc::realloc((*argv).cast(), (n + 2) * size_of::<*mut c_char>()) as *mut *mut c_char;
        if grown.is_null() {
            return;
        }
        *grown.add(n) = libc::strdup(s);
        *grown.add(n + 1) = ptr::null_mut();
        *argv = grown;
    }
}

/// Appends to `*aliases` the numeric address of every entry that is not a loopback
/// interface, but `127.0.0.1`.
///
/// # Safety
/// `aliases` points to NULL or to a NULL-terminated libc argv (NULL `aliases`: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_ifgetaliases(aliases: *mut *mut *mut c_char) {
    if aliases.is_null() {
        return;
    }
    super::load_interfaces();
    let mut buf = [0 as c_char; 64];
    // SAFETY: the list is stable once loaded; the buffer is larger than INET6_ADDRSTRLEN.
    unsafe {
        for p in entries() {
            if (*p).if_flags & libc::IFF_LOOPBACK != 0 {
                continue;
            }
            let ss = &raw const (*p).if_addr;
            let (af, src) = if c_int::from((*ss).ss_family) == libc::AF_INET {
                let sin = ss as *const libc::sockaddr_in;
                (libc::AF_INET, &raw const (*sin).sin_addr as *const c_void)
            } else {
                let sin6 = ss as *const libc::sockaddr_in6;
                (
                    libc::AF_INET6,
                    &raw const (*sin6).sin6_addr as *const c_void,
                )
            };
            if inet_ntop(af, src, buf.as_mut_ptr(), buf.len() as libc::socklen_t).is_null() {
                continue;
            }
            if af == libc::AF_INET && CStr::from_ptr(buf.as_ptr()) == c"127.0.0.1" {
                continue;
            }
            argv_append(aliases, buf.as_ptr());
        }
    }
}

/// Whether `hostname` (a name or a numeric address) is one of this host's addresses.
///
/// # Safety
/// `hostname` is a C string (NULL answers false).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_ifislocal(hostname: *const c_char) -> bool {
    if hostname.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    ifislocal(unsafe { CStr::from_ptr(hostname) })
}

/// Copies into `if_addr` (at most `length` bytes) the address of the first entry whose
/// kernel index is `if_kindex`: `PMIX_SUCCESS`, or `PMIX_ERROR` if there is none.
///
/// # Safety
/// `if_addr` is writable for `length` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_ifkindextoaddr(
    if_kindex: c_int,
    if_addr: *mut libc::sockaddr,
    length: c_uint,
) -> c_int {
    super::load_interfaces();
    let Some(p) = by_kindex(if_kindex) else {
        return ERROR;
    };
    let n = (length as usize).min(size_of::<libc::sockaddr_storage>());
    if n > 0 && !if_addr.is_null() {
        // SAFETY: per the contract; the entry's storage holds 128 bytes.
        unsafe {
            ptr::copy_nonoverlapping(&raw const (*p).if_addr as *const u8, if_addr.cast(), n)
        };
    }
    SUCCESS
}

/// Writes into `if_name` (`length` bytes, cleared first, always terminated) the name of the
/// first entry whose kernel index is `if_kindex`: `PMIX_SUCCESS`, or `PMIX_ERROR` if there
/// is none.
///
/// # Safety
/// `if_name` is writable for `length` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_ifkindextoname(
    if_kindex: c_int,
    if_name: *mut c_char,
    length: c_int,
) -> c_int {
    super::load_interfaces();
    let len = if if_name.is_null() {
        0
    } else {
        length.max(0) as usize
    };
    if len > 0 {
        // SAFETY: per the contract.
        unsafe { ptr::write_bytes(if_name, 0, len) };
    }
    let Some(p) = by_kindex(if_kindex) else {
        return ERROR;
    };
    if len > 0 {
        // SAFETY: an entry of the list; at most len - 1 bytes and the cleared NUL after.
        unsafe {
            let name = name_of(p);
            let n = name.len().min(len - 1);
            ptr::copy_nonoverlapping(name.as_ptr(), if_name.cast(), n);
        }
    }
    SUCCESS
}

/// Whether the interface of kernel index `kidx` matches one of `nets`: interface names
/// (an entry with a letter in it) or IPv4 networks (`10.1.0.0/16`, `10.1`, ...) compared
/// with the IPv4 address field of the first entry of that kernel index. `PMIX_SUCCESS`,
/// `PMIX_ERR_NOT_FOUND`, `PMIX_ERROR` for an unknown `kidx`, or
/// `PMIX_ERR_FABRIC_NOT_PARSEABLE` (with the `invalid-net-mask` help message) for a network
/// it cannot parse.
///
/// # Safety
/// `nets` is a NULL-terminated array of C strings (NULL: no entry).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_ifmatches(kidx: c_int, nets: *mut *mut c_char) -> c_int {
    // SAFETY: a zeroed sockaddr_in is valid.
    let mut sin: libc::sockaddr_in = unsafe { core::mem::zeroed() };
    // SAFETY: a local of the size given.
    let rc = unsafe {
        pmix_ifkindextoaddr(
            kidx,
            (&raw mut sin).cast(),
            size_of::<libc::sockaddr_in>() as c_uint,
        )
    };
    if rc != SUCCESS {
        return rc;
    }
    let addr = u32::from_be(sin.sin_addr.s_addr);
    if nets.is_null() {
        return ERR_NOT_FOUND;
    }
    let mut i = 0;
    loop {
        // SAFETY: per the contract, up to the NULL.
        let net = unsafe { *nets.add(i) };
        if net.is_null() {
            break;
        }
        i += 1;
        // SAFETY: per the contract.
        let net = unsafe { CStr::from_ptr(net) };
        if net.to_bytes().iter().any(u8::is_ascii_alphabetic) {
            let k = ifnametokindex(net.to_bytes());
            if k >= 0 && c_int::from(k) == kidx {
                return SUCCESS;
            }
        } else {
            let (mut netaddr, mut netmask) = (0u32, 0u32);
            let rc = iftupletoaddr(net, Some(&mut netaddr), Some(&mut netmask));
            if rc != SUCCESS {
                super::show_help(&format!(
                    "PMIx has detected a malformed IPv4 address or netmask:\n\n  \
                     Value provided: {}\n\n\
                     Accepted values follow the Classless Inter-Domain\n\
                     Routing (CIDR) notation specifications. For example:\n\n     \
                     10.0.0.0/8\n     172.16/12\n     192.168\n     169.254.0.0/16",
                    net.to_string_lossy()
                ));
                return rc;
            }
            if netaddr == addr & netmask {
                return SUCCESS;
            }
        }
    }
    ERR_NOT_FOUND
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuple(s: &CStr) -> (c_int, u32, u32) {
        let (mut n, mut m) = (0, 0);
        let rc = iftupletoaddr(s, Some(&mut n), Some(&mut m));
        (rc, n, m)
    }

    #[test]
    fn tuples_give_network_and_mask() {
        assert_eq!(tuple(c"10.1.2.3"), (0, 0x0a01_0203, 0xffff_ffff));
        assert_eq!(tuple(c"192.168"), (0, 0xc0a8_0000, 0xffff_0000));
        assert_eq!(tuple(c"10"), (0, 0x0a00_0000, 0xff00_0000));
        assert_eq!(tuple(c"172.16/12"), (0, 0xac10_0000, 0xfff0_0000));
        assert_eq!(
            tuple(c"10.0.0.0/255.255.0.0"),
            (0, 0x0a00_0000, 0xffff_0000)
        );
        assert_eq!(tuple(c"10.0.0.0/32").0, ERR_FABRIC_NOT_PARSEABLE);
        assert_eq!(tuple(c"10.0.0.0/0").0, ERR_FABRIC_NOT_PARSEABLE);
        assert_eq!(tuple(c"10.0.0.256").0, ERR_FABRIC_NOT_PARSEABLE);
        assert_eq!(tuple(c"1.2.3.4.5").0, ERR_FABRIC_NOT_PARSEABLE);
        // A bad dotted mask is forgotten when the network parses.
        assert_eq!(tuple(c"10.0.0.0/255.999.0.0").0, SUCCESS);
    }

    #[test]
    fn lookups_follow_the_loaded_list() {
        super::super::load_interfaces();
        let all = super::super::interfaces();
        let lo = all
            .iter()
            .find(|e| e.addr == std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST))
            .expect("lo has 127.0.0.1");
        let k = c_int::from(lo.kernel_index);
        let mut name = [0x55 as c_char; 8];
        // SAFETY: buffers of the sizes given.
        unsafe {
            assert_eq!(pmix_ifkindextoname(k, name.as_mut_ptr(), 8), SUCCESS);
            assert_eq!(CStr::from_ptr(name.as_ptr()).to_bytes(), lo.name.as_bytes());
            assert_eq!(pmix_ifkindextoname(9999, name.as_mut_ptr(), 8), ERROR);
            assert_eq!(name[0], 0);
            let mut ss: libc::sockaddr_storage = core::mem::zeroed();
            assert_eq!(pmix_ifkindextoaddr(9999, (&raw mut ss).cast(), 128), ERROR);
            assert_eq!(pmix_ifkindextoaddr(k, (&raw mut ss).cast(), 128), SUCCESS);
            assert!(pmix_ifislocal(c"127.0.0.1".as_ptr()));
            assert!(
                !pmix_ifislocal(c"192.0.2.255".as_ptr())
                    || all.iter().any(|e| e.addr.to_string() == "192.0.2.255")
            );
            assert!(!pmix_ifislocal(c"no.such.host.invalid".as_ptr()));
            let mut al: *mut *mut c_char = ptr::null_mut();
            pmix_ifgetaliases(&mut al);
            let mut got = Vec::new();
            if !al.is_null() {
                let mut i = 0;
                while !(*al.add(i)).is_null() {
                    got.push(CStr::from_ptr(*al.add(i)).to_string_lossy().into_owned());
                    libc::free((*al.add(i)).cast());
                    i += 1;
                }
                libc::free(al.cast());
            }
            let want: Vec<String> = all
                .iter()
                .filter(|e| e.flags & libc::IFF_LOOPBACK == 0 && e.addr.to_string() != "127.0.0.1")
                .map(|e| e.addr.to_string())
                .collect();
            assert_eq!(got, want);
        }
        let lo_name = std::ffi::CString::new(lo.name.clone()).unwrap();
        let mut nets = [lo_name.into_raw(), ptr::null_mut()];
        let mut nets2 = [
            c"8.0.0.0/8".as_ptr().cast_mut(),
            c"127".as_ptr().cast_mut(),
            ptr::null_mut(),
        ];
        let mut other = [c"8.0.0.0/8".as_ptr().cast_mut(), ptr::null_mut()];
        let mut bad = [c"300.1".as_ptr().cast_mut(), ptr::null_mut()];
        // SAFETY: NULL-terminated arrays of C strings.
        unsafe {
            assert_eq!(pmix_ifmatches(9999, nets.as_mut_ptr()), ERROR);
            if by_kindex(k).is_some_and(|p| (*p).af_family == libc::AF_INET as u16) {
                assert_eq!(pmix_ifmatches(k, nets.as_mut_ptr()), SUCCESS);
                assert_eq!(pmix_ifmatches(k, nets2.as_mut_ptr()), SUCCESS);
                assert_eq!(pmix_ifmatches(k, other.as_mut_ptr()), ERR_NOT_FOUND);
                assert_eq!(
                    pmix_ifmatches(k, bad.as_mut_ptr()),
                    ERR_FABRIC_NOT_PARSEABLE
                );
            }
            drop(std::ffi::CString::from_raw(nets[0]));
        }
    }
}
