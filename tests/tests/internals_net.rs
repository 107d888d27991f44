//! The network helpers of OpenPMIx's internal layer (`pmix_net_*`, `pmix_if*`,
//! `pmix_if_list`) on OpenPMIx 5.0.11 and on ours, with the same inputs.
//!
//! The functions of explicit arguments are compared in this process on the uninitialized
//! reference. The interface list and what depends on it are compared in child processes
//! (this test binary run again on one test), so that the reference's global state stays
//! there: one child calls the reference's `pmix_init_util(NULL, 0, NULL)`, which fills its
//! list, the other uses ours (whose `pmix_if*` lookups fill it on first use); both print
//! the same report. Our list is also checked against `getifaddrs` and `ip -o -6 addr`.

use std::ffi::{CStr, CString, c_char, c_int, c_uint};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::process::Command;

use pmix_abi_tests::{Pmix, ours, reference5_uninitialized};

type IsAddr = unsafe extern "C" fn(*const c_char) -> bool;
type SameNet =
    unsafe extern "C" fn(*const libc::sockaddr_storage, *const libc::sockaddr_storage, u32) -> bool;
type SaBool = unsafe extern "C" fn(*const libc::sockaddr) -> bool;
type SaInt = unsafe extern "C" fn(*const libc::sockaddr) -> c_int;
type SaStr = unsafe extern "C" fn(*const libc::sockaddr) -> *mut c_char;
type KToAddr = unsafe extern "C" fn(c_int, *mut libc::sockaddr, c_uint) -> c_int;
type KToName = unsafe extern "C" fn(c_int, *mut c_char, c_int) -> c_int;
type IsLocal = unsafe extern "C" fn(*const c_char) -> bool;
type Matches = unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int;
type Aliases = unsafe extern "C" fn(*mut *mut *mut c_char);
type InitUtil = unsafe extern "C" fn(*mut libc::c_void, usize, *mut c_char) -> c_int;

fn f<T: Copy>(l: &Pmix, name: &str) -> T {
    // SAFETY: each caller names the type of the function's C prototype.
    unsafe { l.sym(name) }
}

fn v4(a: &str, port: u16) -> libc::sockaddr_storage {
    // SAFETY: zeroed storage is valid.
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let ip: Ipv4Addr = a.parse().unwrap();
    let sin = (&raw mut ss).cast::<libc::sockaddr_in>();
    // SAFETY: a sockaddr_in fits in the storage.
    unsafe {
        (*sin).sin_family = libc::AF_INET as u16;
        (*sin).sin_port = port.to_be();
        (*sin).sin_addr.s_addr = u32::from(ip).to_be();
    }
    ss
}

fn v6(a: &str, port: u16, scope: u32) -> libc::sockaddr_storage {
    // SAFETY: zeroed storage is valid.
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let ip: Ipv6Addr = a.parse().unwrap();
    let sin6 = (&raw mut ss).cast::<libc::sockaddr_in6>();
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
    std::ptr::from_ref(ss).cast()
}

fn both() -> [&'static Pmix; 2] {
    [reference5_uninitialized(), ours()]
}

#[test]
fn isaddr_agrees() {
    let inputs = [
        "10.0.0.1",
        "::1",
        "fe80::1%lo",
        "fe80::1%nosuchif",
        "::ffff:1.2.3.4",
        "localhost",
        "",
        "1.2.3",
        "1.2.3.4.5",
        "0x7f.1",
        "256.1.1.1",
        " 1.2.3.4",
        "host.example",
        "2001:db8::/64",
    ];
    for s in inputs {
        let c = CString::new(s).unwrap();
        // SAFETY: C strings.
        let [r, o] = both().map(|l| unsafe { f::<IsAddr>(l, "pmix_net_isaddr")(c.as_ptr()) });
        assert_eq!(r, o, "pmix_net_isaddr({s:?})");
    }
}

#[test]
fn samenetwork_agrees_even_on_odd_prefixes() {
    let pairs = [
        (v4("10.1.2.3", 0), v4("10.1.2.4", 0)),
        (v4("10.1.2.3", 0), v4("10.1.3.4", 0)),
        (v4("10.1.2.3", 0), v4("200.1.2.4", 0)),
        (v4("192.168.0.1", 1), v4("192.168.255.254", 2)),
        (v4("10.1.2.3", 0), v6("::a01:203", 0, 0)),
        (v6("fd00::2", 0, 0), v6("fd00::3", 0, 0)),
        (v6("fd00::2", 0, 0), v6("fd00:0:0:1::2", 0, 0)),
        (v6("fe80::1", 0, 1), v6("fe80::2", 0, 2)),
        (v6("2001:db8::1", 0, 0), v6("2001:db8::1", 0, 0)),
    ];
    let plens = [0, 1, 8, 12, 16, 24, 31, 32, 33, 48, 63, 64, 100, u32::MAX];
    for (a, b) in &pairs {
        for p in plens {
            // SAFETY: storages built here.
            let [r, o] =
                both().map(|l| unsafe { f::<SameNet>(l, "pmix_net_samenetwork")(a, b, p) });
            assert_eq!(r, o, "samenetwork({:?}, {:?}, {p})", addr_of(a), addr_of(b));
        }
    }
}

fn addr_of(ss: &libc::sockaddr_storage) -> Option<IpAddr> {
    match ss.ss_family as c_int {
        libc::AF_INET => {
            // SAFETY: an IPv4 storage.
            let sin = unsafe { &*std::ptr::from_ref(ss).cast::<libc::sockaddr_in>() };
            Some(IpAddr::V4(Ipv4Addr::from(u32::from_be(
                sin.sin_addr.s_addr,
            ))))
        }
        libc::AF_INET6 => {
            // SAFETY: an IPv6 storage.
            let sin6 = unsafe { &*std::ptr::from_ref(ss).cast::<libc::sockaddr_in6>() };
            Some(IpAddr::V6(Ipv6Addr::from(sin6.sin6_addr.s6_addr)))
        }
        _ => None,
    }
}

#[test]
fn port_linklocal_and_hostname_agree() {
    let addrs = [
        v4("192.0.2.7", 80),
        v4("0.0.0.0", 65535),
        v4("255.255.255.255", 1),
        v6("fe80::1", 4242, 0),
        v6("fe80::1", 4242, 1),
        v6("fe80:0:0:1::1", 0, 0),
        v6("febf::1", 0, 0),
        v6("::ffff:10.1.2.3", 7, 0),
        v6("::1.2.3.4", 7, 0),
        v6("2001:db8::1:0:0:1", 9, 0),
        v6("::", 0, 0),
    ];
    for a in &addrs {
        let who = addr_of(a);
        // SAFETY: storages built here; the hostname buffers are read before the next call.
        unsafe {
            let [r, o] = both().map(|l| f::<SaInt>(l, "pmix_net_get_port")(sa(a)));
            assert_eq!(r, o, "get_port({who:?})");
            let [r, o] = both().map(|l| f::<SaBool>(l, "pmix_net_addr_isipv6linklocal")(sa(a)));
            assert_eq!(r, o, "isipv6linklocal({who:?})");
            let [r, o] = both().map(|l| {
                let p = f::<SaStr>(l, "pmix_net_get_hostname")(sa(a));
                assert!(!p.is_null(), "{l:?}: get_hostname({who:?})");
                CStr::from_ptr(p).to_string_lossy().into_owned()
            });
            assert_eq!(r, o, "get_hostname({who:?})");
        }
    }
    // The port of another family is -1 on both.
    // SAFETY: a zeroed storage (AF_UNSPEC).
    let none: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let [r, o] = both().map(|l| unsafe { f::<SaInt>(l, "pmix_net_get_port")(sa(&none)) });
    assert_eq!((r, o), (-1, -1));
}

#[test]
fn hostname_buffer_is_one_per_thread() {
    let l = ours();
    let get: SaStr = f(l, "pmix_net_get_hostname");
    let a = v4("10.0.0.1", 0);
    let b = v6("fd00::1", 0, 0);
    // SAFETY: storages built here.
    unsafe {
        let p = get(sa(&a));
        let q = get(sa(&b));
        assert_eq!(p, q);
        assert_eq!(CStr::from_ptr(q).to_str().unwrap(), "fd00::1");
    }
    let (pa, pb) = (a, b);
    let other = std::thread::spawn(move || {
        // SAFETY: as above.
        unsafe { (get(sa(&pa)) as usize, get(sa(&pb)) as usize) }
    })
    .join()
    .unwrap();
    assert_eq!(other.0, other.1);
    // SAFETY: as above.
    assert_ne!(other.0, unsafe { get(sa(&a)) } as usize);
}

/// `pmix_pif_t`'s fields, by offset (facts/layouts-net.txt).
const IF_NAME: usize = 144;
const IF_INDEX: usize = 404;
const IF_KINDEX: usize = 408;
const AF_FAMILY: usize = 410;
const IF_FLAGS: usize = 412;
const IF_SPEED: usize = 416;
const IF_ADDR: usize = 424;
const IF_MASK: usize = 552;
const IF_BW: usize = 556;
const IF_MAC: usize = 560;
const IFMTU: usize = 568;

/// One entry of a library's `pmix_if_list`.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    index: i32,
    kindex: u16,
    family: u16,
    flags: i32,
    addr: IpAddr,
    mask: u32,
    mac: [u8; 6],
    mtu: i32,
}

/// Reads a library's interface list through its symbol, printing every field of each entry
/// (all but the object header) into `out`.
fn read_list(l: &Pmix, out: &mut String) -> Vec<Entry> {
    let list: *mut u8 = f(l, "pmix_if_list");
    let mut v = Vec::new();
    // SAFETY: a pmix_list_t (sentinel at 120, length at 264) of pmix_pif_t.
    unsafe {
        let sentinel = list.add(120);
        let len = *list.add(264).cast::<usize>();
        let mut item = *sentinel.add(120).cast::<*mut u8>();
        assert!(!item.is_null(), "{l:?}: the list is linked");
        while item != sentinel {
            let rd = |off: usize| item.add(off);
            let name = CStr::from_ptr(rd(IF_NAME).cast())
                .to_string_lossy()
                .into_owned();
            let ss = &*rd(IF_ADDR).cast::<libc::sockaddr_storage>();
            let raw = std::slice::from_raw_parts(rd(IF_ADDR), 128);
            let e = Entry {
                name,
                index: *rd(IF_INDEX).cast::<i32>(),
                kindex: *rd(IF_KINDEX).cast::<u16>(),
                family: *rd(AF_FAMILY).cast::<u16>(),
                flags: *rd(IF_FLAGS).cast::<i32>(),
                addr: addr_of(ss).expect("an IP address"),
                mask: *rd(IF_MASK).cast::<u32>(),
                mac: *rd(IF_MAC).cast::<[u8; 6]>(),
                mtu: *rd(IFMTU).cast::<i32>(),
            };
            out.push_str(&format!(
                "entry {e:?} speed {} bandwidth {} item_free {} refcount {} storage {raw:?}\n",
                *rd(IF_SPEED).cast::<i32>(),
                *rd(IF_BW).cast::<u32>(),
                *rd(136).cast::<i32>(),
                *rd(48).cast::<i32>(),
            ));
            v.push(e);
            item = *item.add(120).cast::<*mut u8>();
        }
        assert_eq!(len, v.len(), "{l:?}: list length");
        out.push_str(&format!("length {len}\n"));
    }
    v
}

/// Everything that depends on the list (and the private networks), as text.
fn report(l: &Pmix) -> String {
    let mut out = String::new();
    let islocal: IsLocal = f(l, "pmix_ifislocal");
    // On ours this loads the list; the reference's was loaded by pmix_init_util.
    // SAFETY: a C string.
    out.push_str(&format!("islocal 127.0.0.1 {}\n", unsafe {
        islocal(c"127.0.0.1".as_ptr())
    }));
    let entries = read_list(l, &mut out);
    let mut hosts: Vec<String> = [
        "localhost",
        "::1",
        "0.0.0.0",
        "::",
        "192.0.2.255",
        "8.8.8.8",
    ]
    .map(String::from)
    .to_vec();
    hosts.extend(entries.iter().map(|e| e.addr.to_string()));
    for h in &hosts {
        let c = CString::new(h.as_str()).unwrap();
        // SAFETY: a C string.
        out.push_str(&format!("islocal {h} {}\n", unsafe { islocal(c.as_ptr()) }));
    }
    let toaddr: KToAddr = f(l, "pmix_ifkindextoaddr");
    let toname: KToName = f(l, "pmix_ifkindextoname");
    let maxk = entries
        .iter()
        .map(|e| c_int::from(e.kindex))
        .max()
        .unwrap_or(0);
    for k in -1..=maxk + 1 {
        // SAFETY: buffers of the sizes given.
        unsafe {
            let mut ss: libc::sockaddr_storage = std::mem::zeroed();
            let rc = toaddr(k, (&raw mut ss).cast(), 128);
            let mut small: libc::sockaddr_storage = std::mem::zeroed();
            let rc2 = toaddr(k, (&raw mut small).cast(), 4);
            let raw = std::slice::from_raw_parts((&raw const small).cast::<u8>(), 8);
            out.push_str(&format!(
                "kindextoaddr {k} {rc} {:?} {rc2} {raw:?}\n",
                addr_of(&ss)
            ));
            let mut name = [0x55 as c_char; 300];
            let rc = toname(k, name.as_mut_ptr(), 300);
            let mut short = [0x55 as c_char; 4];
            let rc2 = toname(k, short.as_mut_ptr(), 3);
            out.push_str(&format!(
                "kindextoname {k} {rc} {:?} {rc2} {:?}\n",
                CStr::from_ptr(name.as_ptr()),
                short
            ));
        }
    }
    let matches: Matches = f(l, "pmix_ifmatches");
    let mut names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    names.dedup();
    let mut nets: Vec<Vec<String>> = vec![
        vec!["127.0.0.0/8".into()],
        vec!["127".into()],
        vec!["10.0.0.0/8".into(), "192.0.2".into()],
        vec!["192.0.2.0/255.255.255.0".into()],
        vec!["0.0.0.0/1".into()],
        vec!["nosuchif0".into(), "172.16/12".into()],
        // Unparseable: the invalid-net-mask help, PMIX_ERR_FABRIC_NOT_PARSEABLE.
        vec!["300.1".into()],
        vec!["10.0.0.0/0".into()],
    ];
    nets.extend(names.iter().map(|n| vec![n.clone()]));
    nets.extend(
        entries
            .iter()
            .filter(|e| e.addr.is_ipv4())
            .map(|e| vec![format!("{}/{}", e.addr, e.mask.clamp(1, 31))]),
    );
    for k in -1..=maxk + 1 {
        for set in &nets {
            let cs: Vec<CString> = set
                .iter()
                .map(|s| CString::new(s.as_str()).unwrap())
                .collect();
            let mut ptrs: Vec<*mut c_char> = cs.iter().map(|c| c.as_ptr().cast_mut()).collect();
            ptrs.push(std::ptr::null_mut());
            // SAFETY: a NULL-terminated array of C strings.
            let rc = unsafe { matches(k, ptrs.as_mut_ptr()) };
            out.push_str(&format!("ifmatches {k} {set:?} {rc}\n"));
        }
    }
    let aliases: Aliases = f(l, "pmix_ifgetaliases");
    let mut argv: *mut *mut c_char = std::ptr::null_mut();
    // SAFETY: a libc argv, read and freed here (both libraries allocate with malloc).
    unsafe {
        aliases(&mut argv);
        let mut got = Vec::new();
        if !argv.is_null() {
            let mut i = 0;
            while !(*argv.add(i)).is_null() {
                got.push(CStr::from_ptr(*argv.add(i)).to_string_lossy().into_owned());
                libc::free((*argv.add(i)).cast());
                i += 1;
            }
            libc::free(argv.cast());
        }
        out.push_str(&format!("aliases {got:?}\n"));
    }
    let public: SaBool = f(l, "pmix_net_addr_isipv4public");
    for a in [
        "10.1.2.3",
        "11.0.0.1",
        "172.15.255.255",
        "172.16.0.0",
        "172.31.255.255",
        "172.32.0.0",
        "192.168.1.1",
        "192.169.0.1",
        "169.254.0.1",
        "127.0.0.1",
        "0.0.0.0",
        "8.8.8.8",
    ] {
        // SAFETY: a storage built here.
        out.push_str(&format!("isipv4public {a} {}\n", unsafe {
            public(sa(&v4(a, 0)))
        }));
    }
    // SAFETY: as above.
    out.push_str(&format!("isipv4public v6 {}\n", unsafe {
        public(sa(&v6("2001:db8::1", 0, 0)))
    }));
    out
}

const CHILD: &str = "PMIX_INTERNALS_NET_CHILD";

/// In a child (`PMIX_INTERNALS_NET_CHILD` = `ref` or `ours`), prints the report of one
/// library between markers; elsewhere, does nothing.
#[test]
fn child_report() {
    let Ok(which) = std::env::var(CHILD) else {
        return;
    };
    let text = if which == "ref" {
        let l = reference5_uninitialized();
        let init: InitUtil = f(l, "pmix_init_util");
        // SAFETY: pmix_init_util(NULL, 0, NULL) as PRRTE's prototype allows.
        let rc = unsafe { init(std::ptr::null_mut(), 0, std::ptr::null_mut()) };
        assert_eq!(rc, 0, "reference pmix_init_util");
        report(l)
    } else {
        report(ours())
    };
    println!("<<<REPORT\n{text}REPORT>>>");
}

/// The report of `which` library, made in a child process.
fn child(which: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_report", "--nocapture", "--test-threads=1"])
        .env(CHILD, which)
        .env_remove("PMIX_MCA_pif")
        .env_remove("PMIX_MCA_pif_base_do_not_resolve")
        .env_remove("PMIX_MCA_pmix_net_private_ipv4")
        .output()
        .expect("run the child");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{which} child failed: {}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let start = text.find("<<<REPORT\n").expect("report start") + "<<<REPORT\n".len();
    let end = text.find("REPORT>>>").expect("report end");
    text[start..end].to_string()
}

#[test]
fn interface_list_and_lookups_agree_with_the_reference() {
    let r = child("ref");
    let o = child("ours");
    for (i, (a, b)) in r.lines().zip(o.lines()).enumerate() {
        assert_eq!(a, b, "line {i} differs (ref, ours)");
    }
    assert_eq!(
        r.lines().count(),
        o.lines().count(),
        "ref:\n{r}\nours:\n{o}"
    );
    assert!(r.contains("entry "), "an interface at least:\n{r}");
}

/// `ip -o -6 addr show scope global`: (kernel index, name, address, prefix).
fn ip6_global() -> Vec<(u16, String, Ipv6Addr, u32)> {
    let out = Command::new("ip")
        .args(["-o", "-6", "addr", "show", "scope", "global"])
        .output()
        .expect("ip");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let k = w.first()?.trim_end_matches(':').parse().ok()?;
            let (a, p) = w.get(3)?.split_once('/')?;
            Some((k, w.get(1)?.to_string(), a.parse().ok()?, p.parse().ok()?))
        })
        .collect()
}

/// `getifaddrs`' IPv4 addresses of interfaces up and not slaves: (name, address, prefix).
fn ifaddrs4() -> Vec<(String, Ipv4Addr, u32)> {
    let mut v = Vec::new();
    // SAFETY: getifaddrs' list, read and freed here.
    unsafe {
        let mut head: *mut libc::ifaddrs = std::ptr::null_mut();
        assert_eq!(libc::getifaddrs(&mut head), 0);
        let mut p = head;
        while !p.is_null() {
            let a = (*p).ifa_addr;
            let flags = (*p).ifa_flags as c_int;
            if !a.is_null()
                && c_int::from((*a).sa_family) == libc::AF_INET
                && flags & libc::IFF_UP != 0
                && flags & libc::IFF_SLAVE == 0
            {
                let sin = &*a.cast::<libc::sockaddr_in>();
                let m = &*(*p).ifa_netmask.cast::<libc::sockaddr_in>();
                v.push((
                    CStr::from_ptr((*p).ifa_name).to_string_lossy().into_owned(),
                    Ipv4Addr::from(u32::from_be(sin.sin_addr.s_addr)),
                    u32::from_be(m.sin_addr.s_addr).count_ones(),
                ));
            }
            p = (*p).ifa_next;
        }
        libc::freeifaddrs(head);
    }
    v
}

#[test]
fn our_list_is_what_the_kernel_reports() {
    let text = child("ours");
    let l = ours();
    let mut sink = String::new();
    // The list of this process is empty until a lookup loads it.
    let islocal: IsLocal = f(l, "pmix_ifislocal");
    // SAFETY: a C string.
    assert!(unsafe { islocal(c"127.0.0.1".as_ptr()) });
    let entries = read_list(l, &mut sink);
    assert!(
        text.contains(&sink),
        "same list in the child:\n{text}\n{sink}"
    );
    let v6: Vec<&Entry> = entries.iter().filter(|e| e.addr.is_ipv6()).collect();
    let v4: Vec<&Entry> = entries.iter().filter(|e| e.addr.is_ipv4()).collect();
    // IPv6 first, then IPv4; numbered from 1.
    assert_eq!(
        entries.iter().map(|e| e.addr.is_ipv4()).collect::<Vec<_>>(),
        v6.iter()
            .map(|_| false)
            .chain(v4.iter().map(|_| true))
            .collect::<Vec<_>>()
    );
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.index, i as i32 + 1, "{e:?}");
        let c = CString::new(e.name.as_str()).unwrap();
        // SAFETY: a C string.
        let k = unsafe { libc::if_nametoindex(c.as_ptr()) };
        assert_eq!(u32::from(e.kindex), k, "{e:?}");
    }
    let want6: Vec<(u16, String, IpAddr, u32)> = ip6_global()
        .into_iter()
        .map(|(k, n, a, p)| (k, n, IpAddr::V6(a), p))
        .collect();
    let got6: Vec<(u16, String, IpAddr, u32)> = v6
        .iter()
        .map(|e| (e.kindex, e.name.clone(), e.addr, e.mask))
        .collect();
    let mut w = want6.clone();
    let mut g = got6.clone();
    w.sort();
    g.sort();
    assert_eq!(g, w, "IPv6 global addresses");
    for e in &v6 {
        assert_eq!(
            (e.family, e.flags, e.mtu, e.mac),
            (libc::AF_INET6 as u16, libc::IFF_UP, 0, [0; 6])
        );
    }
    // Each IPv4 entry is an address getifaddrs reports under that name (OpenPMIx reads the
    // interface's primary address and netmask, so a secondary address without a label shows
    // as the primary one again: compare names and counts, and addresses as a set).
    let want4 = ifaddrs4();
    assert_eq!(v4.len(), want4.len(), "{v4:?} vs {want4:?}");
    for e in &v4 {
        assert!(
            want4
                .iter()
                .any(|(n, a, p)| *n == e.name && IpAddr::V4(*a) == e.addr && *p == e.mask),
            "{e:?} not in {want4:?}"
        );
        assert_eq!(e.family, libc::AF_INET as u16);
        assert_ne!(e.flags & libc::IFF_UP, 0);
        assert!(e.mtu > 0, "{e:?}");
    }
}
