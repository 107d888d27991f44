//! Address helpers (`pmix_net_*`): numeric-address test, same-network test, port and
//! numeric host of a `sockaddr`, link-local and public-address tests.

use super::output0;
use core::ffi::{c_char, c_int};
use core::ptr;
use std::sync::OnceLock;

/// `pmix_net_private_ipv4`'s default (RFC 1918 and RFC 3330's link-local block).
pub const DEFAULT_PRIVATE_IPV4: &str = "10.0.0.0/8;172.16.0.0/12;192.168.0.0/16;169.254.0.0/16";

/// `NI_MAXHOST` (glibc).
const NI_MAXHOST: usize = 1025;

/// One private network: its address (network byte order) and prefix length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Private {
    addr: u32,
    bits: u32,
}

/// The private networks, read once by `net_init`.
static PRIVATE: OnceLock<Vec<Private>> = OnceLock::new();

/// A netmask in network byte order from a prefix length, with the shift counts taken modulo
/// 32 as OpenPMIx's compiled code does on x86-64: prefix 0 and 32 both give an empty mask
/// (so a /32 matches every address), 33 gives 0x80000000.
pub fn prefix2netmask(prefixlen: u32) -> u32 {
    let ones = 1i32.wrapping_shl(prefixlen).wrapping_sub(1);
    (ones.wrapping_shl(32u32.wrapping_sub(prefixlen)) as u32).to_be()
}

/// One `%u` of `sscanf`: optional blanks, an optional sign, digits (a minus sign makes it
/// huge); None without a digit.
fn scan_u32(s: &str) -> Option<(u64, &str)> {
    let s = s.trim_start();
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let v = s[..n].bytes().fold(0u64, |a, d| {
        a.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    Some((if neg && v != 0 { u64::MAX } else { v }, &s[n..]))
}

/// `a.b.c.d/bits`, each field a `%u`; None when a field or separator is missing.
fn scan_cidr(s: &str) -> Option<[u64; 5]> {
    let mut out = [0u64; 5];
    let mut rest = s;
    for (i, sep) in [".", ".", ".", "/", ""].iter().enumerate() {
        let (v, r) = scan_u32(rest)?;
        out[i] = v;
        rest = r.strip_prefix(sep)?;
    }
    Some(out)
}

/// Parses a `;`-separated list of private networks; the first malformed entry is reported
/// with the `malformed net_private_ipv4` help message, every malformed one is skipped.
fn parse_private(list: &str) -> Vec<Private> {
    let mut out = Vec::new();
    let mut reported = false;
    for entry in list.split(';').filter(|e| !e.is_empty()) {
        match scan_cidr(entry) {
            Some([a, b, c, d, bits])
                if a <= 255 && b <= 255 && c <= 255 && d <= 255 && bits <= 32 =>
            {
                let host = ((a as u32) << 24) | ((b as u32) << 16) | ((c as u32) << 8) | d as u32;
                out.push(Private {
                    addr: host.to_be(),
                    bits: bits as u32,
                });
            }
            _ => {
                if !reported {
                    super::show_help(&format!(
                        "PMIx has detected at least one malformed IP address or netmask in\n\
                         the value of the opal_net_private_ipv4 MCA parameter.  The\n\
                         opal_net_private_ipv4 MCA parameter accepts a semicolon-delimited list\n\
                         of Classless Inter-Domain Routing (CIDR) notation specifications, each\n\
                         of the form <ipaddress>/<mask>.  For example:\n\n     \
                         10.0.0.0/8;172.16.0.0/12;192.168.0.0/16;169.254.0.0/16\n\n\
                         The first detected malformed entry was {entry}."
                    ));
                    reported = true;
                }
            }
        }
    }
    out
}

/// `pmix_net_init`: reads the private IPv4 networks, once: the MCA parameter
/// `pmix_net_private_ipv4` from the environment (`PMIX_MCA_pmix_net_private_ipv4`), else
/// its default.
pub fn net_init() {
    PRIVATE.get_or_init(|| {
        let list = std::env::var("PMIX_MCA_pmix_net_private_ipv4")
            .unwrap_or_else(|_| DEFAULT_PRIVATE_IPV4.to_string());
        parse_private(&list)
    });
}

/// The address family at the head of a `sockaddr`.
///
/// # Safety
/// `p` points to a readable `sockaddr`.
unsafe fn family(p: *const libc::sockaddr) -> c_int {
    // SAFETY: per the contract.
    c_int::from(unsafe { ptr::read_unaligned(ptr::addr_of!((*p).sa_family)) })
}

/// The IPv4 address (network byte order) of a `sockaddr_in`.
///
/// # Safety
/// `p` points to a readable `sockaddr_in`.
unsafe fn in4(p: *const libc::sockaddr) -> u32 {
    let sin = p as *const libc::sockaddr_in;
    // SAFETY: per the contract.
    unsafe { ptr::read_unaligned(ptr::addr_of!((*sin).sin_addr.s_addr)) }
}

/// The first 64 bits of the address of a `sockaddr_in6`.
///
/// # Safety
/// `p` points to a readable `sockaddr_in6`.
unsafe fn in6_prefix64(p: *const libc::sockaddr) -> [u8; 8] {
    let sin6 = p as *const libc::sockaddr_in6;
    // SAFETY: per the contract.
    let a: [u8; 16] = unsafe { ptr::read_unaligned(ptr::addr_of!((*sin6).sin6_addr.s6_addr)) };
    let mut out = [0; 8];
    out.copy_from_slice(&a[..8]);
    out
}

/// `pmix_net_samenetwork` on Rust references.
pub fn samenetwork(a: &libc::sockaddr_storage, b: &libc::sockaddr_storage, plen: u32) -> bool {
    // SAFETY: storages hold any sockaddr.
    unsafe { same_network(ptr::from_ref(a).cast(), ptr::from_ref(b).cast(), plen) }
}

/// Whether two addresses of one family share their first `plen` bits. IPv4: a `plen` of 0
/// means 32 (and, as in OpenPMIx, 32 then masks nothing: see `prefix2netmask`). IPv6: 0
/// means 64, and only 64 is compared (any other prefix answers false).
///
/// # Safety
/// `a` and `b` point to readable `sockaddr`s of the size their family implies.
unsafe fn same_network(a: *const libc::sockaddr, b: *const libc::sockaddr, plen: u32) -> bool {
    // SAFETY: per the contract.
    unsafe {
        let fam = family(a);
        if fam != family(b) {
            return false;
        }
        match fam {
            libc::AF_INET => {
                let mask = prefix2netmask(if plen == 0 { 32 } else { plen });
                in4(a) & mask == in4(b) & mask
            }
            libc::AF_INET6 => {
                let plen = if plen == 0 { 64 } else { plen };
                plen == 64 && in6_prefix64(a) == in6_prefix64(b)
            }
            _ => {
                output0(&format!(
                    "unhandled sa_family {fam} passed to pmix_samenetwork"
                ));
                false
            }
        }
    }
}

/// Whether `name` is a numeric IPv4 or IPv6 address.
///
/// # Safety
/// `name` is a C string or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_isaddr(name: *const c_char) -> bool {
    // SAFETY: a zeroed addrinfo is a valid hint.
    let mut hint: libc::addrinfo = unsafe { core::mem::zeroed() };
    hint.ai_family = libc::AF_UNSPEC;
    hint.ai_flags = libc::AI_NUMERICHOST;
    let mut res: *mut libc::addrinfo = ptr::null_mut();
    // SAFETY: the caller's string; the result is freed below.
    if unsafe { libc::getaddrinfo(name, ptr::null(), &hint, &mut res) } != 0 {
        return false;
    }
    if !res.is_null() {
        // SAFETY: returned by getaddrinfo.
        unsafe { libc::freeaddrinfo(res) };
    }
    true
}

/// Whether two addresses are on one network of prefix `prefixlen` (see `same_network`).
///
/// # Safety
/// Both point to readable socket addresses (NULL answers false).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_samenetwork(
    addr1: *const libc::sockaddr_storage,
    addr2: *const libc::sockaddr_storage,
    prefixlen: u32,
) -> bool {
    if addr1.is_null() || addr2.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    unsafe { same_network(addr1.cast(), addr2.cast(), prefixlen) }
}

/// Whether `addr` is an IPv6 address in fe80::/64 (IPv4: false).
///
/// # Safety
/// `addr` points to a readable socket address (NULL answers false).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_addr_isipv6linklocal(addr: *const libc::sockaddr) -> bool {
    if addr.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    match unsafe { family(addr) } {
        // SAFETY: an IPv6 address.
        libc::AF_INET6 => (unsafe { in6_prefix64(addr) }) == [0xfe, 0x80, 0, 0, 0, 0, 0, 0],
        libc::AF_INET => false,
        fam => {
            output0(&format!(
                "unhandled sa_family {fam} passed to pmix_net_addr_isipv6linklocal\n"
            ));
            false
        }
    }
}

/// Whether an IPv4 address is outside every private network (IPv6: false). The networks
/// are read on first use if `net_init` has not run (OpenPMIx counts every address public
/// until `pmix_init_util`).
///
/// # Safety
/// `addr` points to a readable socket address (NULL answers false).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_addr_isipv4public(addr: *const libc::sockaddr) -> bool {
    if addr.is_null() {
        return false;
    }
    // SAFETY: per the contract.
    match unsafe { family(addr) } {
        libc::AF_INET6 => false,
        libc::AF_INET => {
            net_init();
            let Some(private) = PRIVATE.get() else {
                return true;
            };
            // SAFETY: an IPv4 address.
            let a = unsafe { in4(addr) };
            // A network 0.0.0.0 ends the list, as OpenPMIx's zero-terminated table does.
            !private
                .iter()
                .take_while(|p| p.addr != 0)
                .any(|p| p.addr == a & prefix2netmask(p.bits))
        }
        fam => {
            output0(&format!(
                "unhandled sa_family {fam} passed to pmix_net_addr_isipv4public\n"
            ));
            false
        }
    }
}

/// The calling thread's buffer for `pmix_net_get_hostname`, freed when the thread ends.
struct HostBuf(*mut c_char);

impl Drop for HostBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by calloc below; the thread no longer uses it.
        unsafe { libc::free(self.0.cast()) }
    }
}

thread_local! {
    // SAFETY: a plain allocation.
    static HOSTBUF: HostBuf = HostBuf(unsafe { libc::calloc(NI_MAXHOST + 1, 1) }.cast());
}

/// The numeric host of an IPv4 or IPv6 address, without any `%scope`: in a buffer of the
/// calling thread, overwritten by its next call (the caller neither frees nor keeps it).
/// NULL for another family or on failure.
///
/// # Safety
/// `addr` points to a readable socket address of its family's size (NULL answers NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_get_hostname(addr: *const libc::sockaddr) -> *mut c_char {
    if addr.is_null() {
        return ptr::null_mut();
    }
    let name = HOSTBUF.try_with(|b| b.0).unwrap_or(ptr::null_mut());
    if name.is_null() {
        output0("pmix_sockaddr2str: malloc() failed\n");
        return ptr::null_mut();
    }
    // SAFETY: per the contract.
    let len = match unsafe { family(addr) } {
        libc::AF_INET => size_of::<libc::sockaddr_in>(),
        libc::AF_INET6 => size_of::<libc::sockaddr_in6>(),
        _ => return ptr::null_mut(),
    };
    // SAFETY: `name` holds NI_MAXHOST + 1 bytes; `addr` is `len` bytes per the contract.
    unsafe {
        *name = 0;
        let rc = libc::getnameinfo(
            addr,
            len as libc::socklen_t,
            name,
            NI_MAXHOST as libc::socklen_t,
            ptr::null_mut(),
            0,
            libc::NI_NUMERICHOST,
        );
        if rc != 0 {
            let why = core::ffi::CStr::from_ptr(libc::gai_strerror(rc)).to_string_lossy();
            output0(&format!(
                "pmix_sockaddr2str failed:{why} (return code {rc})\n"
            ));
            return ptr::null_mut();
        }
        let pct = libc::strrchr(name, c_int::from(b'%'));
        if !pct.is_null() {
            *pct = 0;
        }
    }
    name
}

/// The port (host byte order) of an IPv4 or IPv6 address; -1 for another family.
///
/// # Safety
/// `addr` points to a readable socket address (NULL answers -1).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_net_get_port(addr: *const libc::sockaddr) -> c_int {
    if addr.is_null() {
        return -1;
    }
    // SAFETY: per the contract; both families keep the port at the same offset.
    unsafe {
        match family(addr) {
            libc::AF_INET | libc::AF_INET6 => {
                let sin = addr as *const libc::sockaddr_in;
                c_int::from(u16::from_be(ptr::read_unaligned(ptr::addr_of!(
                    (*sin).sin_port
                ))))
            }
            _ => -1,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::ffi::CStr;
    use std::net::{Ipv4Addr, Ipv6Addr};

    pub(crate) fn v4(a: &str, port: u16) -> libc::sockaddr_storage {
        // SAFETY: zeroed storage is valid.
        let mut ss: libc::sockaddr_storage = unsafe { core::mem::zeroed() };
        let sin = &mut ss as *mut _ as *mut libc::sockaddr_in;
        let ip: Ipv4Addr = a.parse().unwrap();
        // SAFETY: a sockaddr_in fits in the storage.
        unsafe {
            (*sin).sin_family = libc::AF_INET as u16;
            (*sin).sin_port = port.to_be();
            (*sin).sin_addr.s_addr = u32::from(ip).to_be();
        }
        ss
    }

    pub(crate) fn v6(a: &str, port: u16, scope: u32) -> libc::sockaddr_storage {
        // SAFETY: zeroed storage is valid.
        let mut ss: libc::sockaddr_storage = unsafe { core::mem::zeroed() };
        let sin6 = &mut ss as *mut _ as *mut libc::sockaddr_in6;
        let ip: Ipv6Addr = a.parse().unwrap();
        // SAFETY: a sockaddr_in6 fits in the storage.
        unsafe {
            (*sin6).sin6_family = libc::AF_INET6 as u16;
            (*sin6).sin6_port = port.to_be();
            (*sin6).sin6_addr.s6_addr = ip.octets();
            (*sin6).sin6_scope_id = scope;
        }
        ss
    }

    fn sa(ss: &libc::sockaddr_storage) -> *const libc::sockaddr {
        ptr::from_ref(ss).cast()
    }

    #[test]
    fn masks_take_shift_counts_modulo_32() {
        assert_eq!(prefix2netmask(24), 0xffff_ff00u32.to_be());
        assert_eq!(prefix2netmask(8), 0xff00_0000u32.to_be());
        assert_eq!(prefix2netmask(31), 0xffff_fffeu32.to_be());
        assert_eq!(prefix2netmask(0), 0);
        assert_eq!(prefix2netmask(32), 0);
        assert_eq!(prefix2netmask(33), 0x8000_0000u32.to_be());
        assert_eq!(prefix2netmask(100), 0xf000_0000u32.to_be());
    }

    #[test]
    fn samenetwork_compares_prefixes_of_one_family() {
        let a = v4("10.1.2.3", 0);
        assert!(samenetwork(&a, &v4("10.1.2.200", 0), 24));
        assert!(!samenetwork(&a, &v4("10.1.3.3", 0), 24));
        assert!(samenetwork(&a, &v4("10.9.9.9", 0), 8));
        // 0 means 32, which masks nothing.
        assert!(samenetwork(&a, &v4("200.1.1.1", 0), 0));
        assert!(!samenetwork(&a, &v6("::1", 0, 0), 8));
        let b = v6("fd00::2", 0, 0);
        assert!(samenetwork(&b, &v6("fd00::ffff:1", 0, 0), 64));
        assert!(samenetwork(&b, &v6("fd00::ffff:1", 0, 0), 0));
        assert!(!samenetwork(&b, &v6("fd00:0:0:1::2", 0, 0), 64));
        assert!(!samenetwork(&b, &b, 48), "only /64 is compared");
    }

    #[test]
    fn link_local_public_and_port() {
        // SAFETY: storages built here.
        unsafe {
            assert!(pmix_net_addr_isipv6linklocal(sa(&v6("fe80::1", 0, 2))));
            assert!(!pmix_net_addr_isipv6linklocal(sa(&v6(
                "fe80:0:0:1::1",
                0,
                0
            ))));
            assert!(!pmix_net_addr_isipv6linklocal(sa(&v4("169.254.1.1", 0))));
            net_init();
            for (a, public) in [
                ("10.1.2.3", false),
                ("172.31.255.1", false),
                ("172.32.0.1", true),
                ("192.168.7.7", false),
                ("169.254.3.3", false),
                ("8.8.8.8", true),
                ("127.0.0.1", true),
            ] {
                assert_eq!(pmix_net_addr_isipv4public(sa(&v4(a, 0))), public, "{a}");
            }
            assert!(!pmix_net_addr_isipv4public(sa(&v6("2001:db8::1", 0, 0))));
            assert_eq!(pmix_net_get_port(sa(&v4("1.2.3.4", 4242))), 4242);
            assert_eq!(pmix_net_get_port(sa(&v6("::1", 65535, 0))), 65535);
            // SAFETY: zeroed storage (AF_UNSPEC).
            let none: libc::sockaddr_storage = core::mem::zeroed();
            assert_eq!(pmix_net_get_port(sa(&none)), -1);
        }
    }

    #[test]
    fn private_lists_skip_malformed_entries() {
        let p = parse_private("10.0.0.0/8;;300.0.0.0/8;1.2.3.4;192.168.0.0/16 ");
        assert_eq!(
            p,
            [
                Private {
                    addr: 0x0a00_0000u32.to_be(),
                    bits: 8
                },
                Private {
                    addr: 0xc0a8_0000u32.to_be(),
                    bits: 16
                }
            ]
        );
        assert!(parse_private("1.2.3.4/33").is_empty());
        assert!(parse_private("-1.2.3.4/8").is_empty());
    }

    #[test]
    fn hostnames_are_numeric_in_a_per_thread_buffer() {
        // SAFETY: storages built here; the buffer is read before the next call.
        unsafe {
            let h = pmix_net_get_hostname(sa(&v4("192.0.2.7", 80)));
            assert_eq!(CStr::from_ptr(h).to_str().unwrap(), "192.0.2.7");
            let h2 = pmix_net_get_hostname(sa(&v6("fe80::1", 0, 1)));
            assert_eq!(h, h2, "one buffer per thread");
            assert_eq!(CStr::from_ptr(h2).to_str().unwrap(), "fe80::1");
            let none: libc::sockaddr_storage = core::mem::zeroed();
            assert!(pmix_net_get_hostname(sa(&none)).is_null());
            let other =
                std::thread::spawn(|| pmix_net_get_hostname(sa(&v4("1.1.1.1", 0))) as usize)
                    .join()
                    .unwrap();
            assert_ne!(other, h as usize);
        }
    }

    #[test]
    fn isaddr_accepts_numeric_addresses_only() {
        for (s, ok) in [
            (c"10.0.0.1", true),
            (c"::1", true),
            (c"fe80::1%lo", true),
            (c"localhost", false),
            (c"", false),
            (c"1.2.3.4.5", false),
        ] {
            // SAFETY: C strings.
            assert_eq!(unsafe { pmix_net_isaddr(s.as_ptr()) }, ok, "{s:?}");
        }
    }
}
