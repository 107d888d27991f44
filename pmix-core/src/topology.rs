//! Hardware topology and cpusets: the logic behind `PMIx_Load_topology`, `PMIx_Get_cpuset`,
//! `PMIx_Parse_cpuset_string`, `PMIx_Get_relative_locality` and the server's locality and
//! cpuset strings.
//!
//! The module exists so that the string formats and the locality rules live in safe Rust,
//! next to the rest of the data model, and `pmix-ffi` only moves hwloc objects across the C
//! boundary. It uses hwloc through `hwlocality`:
//!
//! * A cpuset travels through the core as hwloc's *list syntax* ("0-3,8", "0-" for an
//!   infinite set, "" for the empty set), the text `hwloc_bitmap_list_asprintf` prints.
//!   [`parse_list`] reads it back with the rules of `hwloc_bitmap_list_sscanf`, so strings
//!   written by other programs mean what they mean to hwloc.
//! * A cpuset *string* is the list prefixed with its source: "hwloc:0-3,8".
//! * A *locality string* names, for each level of the topology that PMIx cares about, the
//!   logical indices of the objects a cpuset overlaps: "SK0:L30:L20-1:L10-1:CR0-1:HT0-1:NM0"
//!   (package, L3, L2, L1, core, hardware thread, then NUMA node). Two such strings give the
//!   relative locality of two processes ([`relative_locality`]).
//! * The process's own topology ([`LocalTopology`]) is discovered once, or read from the XML
//!   file named by `PMIX_MCA_pmix_hwloc_topo_file` (the MCA parameter the reference reads for
//!   the same purpose). `pmix-ffi` builds the `hwloc_topology_t` it hands to C from its XML.
//!
//! docs/notes/topology.md records the measured behaviour of the reference and where we differ.

use std::borrow::Borrow;
use std::sync::OnceLock;

use hwlocality::Topology as HwTopology;
use hwlocality::bitmap::Bitmap;
use hwlocality::cpu::binding::CpuBindingFlags;
use hwlocality::cpu::cpuset::CpuSet;
use hwlocality::object::depth::Depth;
use hwlocality::object::types::ObjectType;
use hwlocality::topology::builder::{BuildFlags, TypeFilter};
use hwlocality::topology::export::xml::XMLExportFlags;
use pmix_sys::*;

use crate::values::{Cpuset, DeviceDistance, PStr};
use crate::{Error, Result};

/// The source name of everything this module produces.
pub const HWLOC: &str = "hwloc";

/// The environment variable (an MCA parameter of the reference) naming an hwloc XML file to
/// use as the process's topology instead of discovering it.
pub const TOPO_FILE_ENV: &str = "PMIX_MCA_pmix_hwloc_topo_file";

/// Largest CPU index a list may name. hwloc itself accepts up to 2^31-1 and allocates the
/// bitmap for it (256 MiB at the top); we refuse indices past this bound, as a parse error.
/// Linux supports at most 8192 CPUs.
pub const MAX_CPU_INDEX: u64 = 1 << 20;

/// The reference's answer when a source or string belongs to another topology library: its
/// internal status `PMIX_ERR_TAKE_NEXT_OPTION` (`PMIX_INTERNAL_ERR_BASE - 36`), which is not in
/// the public headers but is what its topology calls return.
pub const PMIX_ERR_TAKE_NEXT_OPTION: pmix_status_t = -1366;

fn not_ours() -> Error {
    Error::Status(PMIX_ERR_TAKE_NEXT_OPTION)
}

/// Whether `source` names hwloc: its first five bytes are "hwloc", in any case (how the
/// reference tests sources, so "hwloc:2.9.0" and "HWLOC" qualify).
pub fn is_hwloc_source(source: &[u8]) -> bool {
    source.len() >= 5 && source[..5].eq_ignore_ascii_case(b"hwloc")
}

// ---------------------------------------------------------------------------------------
// Bitmaps in list syntax

/// `strtoul(s, &end, 0)` of glibc: the value (saturated, negated for a leading '-') and the
/// number of bytes consumed, 0 when there are no digits.
fn strtoul(s: &[u8]) -> (u64, usize) {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    let mut radix = 10;
    if s.get(i) == Some(&b'0') {
        if matches!(s.get(i + 1), Some(b'x' | b'X'))
            && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            radix = 16;
            i += 2;
        } else {
            radix = 8;
        }
    }
    let start = i;
    let mut value: u64 = 0;
    let mut overflow = false;
    while let Some(d) = s.get(i).and_then(|&c| (c as char).to_digit(radix)) {
        match value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start {
        return (0, 0);
    }
    if overflow {
        value = u64::MAX;
    } else if negative {
        value = value.wrapping_neg();
    }
    (value, i)
}

/// Reads hwloc's list syntax with the rules of `hwloc_bitmap_list_sscanf`: comma- or
/// space-separated indices and `a-b` ranges, a trailing `a-` for an infinite range, numbers
/// in C syntax (`0x` hexadecimal, leading-zero octal). `None` where hwloc fails (a token
/// without digits) and where an index exceeds [`MAX_CPU_INDEX`].
pub fn try_parse_list(s: &[u8]) -> Option<Bitmap> {
    let idx = |v: u64| (v <= MAX_CPU_INDEX).then_some(v as usize);
    let mut set = Bitmap::new();
    let mut cur = 0;
    let mut begin: Option<usize> = None;
    while cur < s.len() {
        while cur < s.len() && (s[cur] == b',' || s[cur] == b' ') {
            cur += 1;
        }
        let (val, used) = strtoul(&s[cur..]);
        if used == 0 {
            return None;
        }
        let next = cur + used;
        let after = s.get(next).copied();
        if let Some(b) = begin.take() {
            let end = idx(val)?;
            if end >= b {
                set.set_range(b..=end);
            }
        } else if after == Some(b'-') {
            let v = idx(val)?;
            if next + 1 >= s.len() {
                set.set_range(v..);
                break;
            }
            begin = Some(v);
        } else if matches!(after, None | Some(b',') | Some(b' ')) {
            set.set(idx(val)?);
        }
        if after.is_none() {
            break;
        }
        cur = next + 1;
    }
    Some(set)
}

/// Like [`try_parse_list`], with a failure read as the empty set (what callers of
/// `hwloc_bitmap_list_sscanf` that ignore its status get).
pub fn parse_list(s: &[u8]) -> Bitmap {
    try_parse_list(s).unwrap_or_default()
}

/// A bitmap in list syntax, as `hwloc_bitmap_list_asprintf` prints it.
pub fn format_list(b: &Bitmap) -> PStr {
    PStr::from(b.to_string())
}

/// A cpuset in list syntax (the `Display` of `CpuSet` wraps the list in "CpuSet(...)").
fn cpuset_list(c: &CpuSet) -> PStr {
    format_list(c.borrow())
}

// ---------------------------------------------------------------------------------------
// Cpuset strings

/// Parses a cpuset string `"<source>:<list>"` (`PMIx_Parse_cpuset_string`). The part before
/// the first ':' must start with "hwloc" (any case); the list is read as
/// `hwloc_bitmap_list_sscanf` reads it, an unreadable list giving the empty set.
///
/// Errors: `BadParam` without a ':'; `PMIX_ERR_TAKE_NEXT_OPTION` for another source.
#[doc(alias = "PMIx_Parse_cpuset_string")]
pub fn parse_cpuset_string(s: &[u8]) -> Result<Cpuset> {
    let colon = s.iter().position(|&c| c == b':').ok_or(Error::BadParam)?;
    if !is_hwloc_source(&s[..colon]) {
        return Err(not_ours());
    }
    Ok(Cpuset {
        source: Some(PStr::from(HWLOC)),
        bitmap: Some(format_list(&parse_list(&s[colon + 1..]))),
    })
}

/// The cpuset string of `c`: `"hwloc:<list>"` (`PMIx_server_generate_cpuset_string`).
///
/// Errors: `BadParam` without a source or a bitmap; `PMIX_ERR_TAKE_NEXT_OPTION` for another
/// source.
#[doc(alias = "PMIx_server_generate_cpuset_string")]
pub fn cpuset_string(c: &Cpuset) -> Result<PStr> {
    let source = c.source.as_ref().ok_or(Error::BadParam)?;
    if !is_hwloc_source(source.as_bytes()) {
        return Err(not_ours());
    }
    let list = c.bitmap.as_ref().ok_or(Error::BadParam)?;
    let mut out = b"hwloc:".to_vec();
    out.extend_from_slice(format_list(&parse_list(list.as_bytes())).as_bytes());
    Ok(PStr::from(out))
}

// ---------------------------------------------------------------------------------------
// Locality

/// The levels of a locality string, by two-letter code, with the locality bit two
/// processes sharing an object of that level have.
const LEVELS: [(&[u8; 2], pmix_locality_t); 7] = [
    (b"NM", PMIX_LOCALITY_SHARE_NUMA),
    (b"SK", PMIX_LOCALITY_SHARE_PACKAGE),
    (b"L3", PMIX_LOCALITY_SHARE_L3CACHE),
    (b"L2", PMIX_LOCALITY_SHARE_L2CACHE),
    (b"L1", PMIX_LOCALITY_SHARE_L1CACHE),
    (b"CR", PMIX_LOCALITY_SHARE_CORE),
    (b"HT", PMIX_LOCALITY_SHARE_HWTHREAD),
];

/// The code of the level an object type has in locality strings, if it has one.
fn level_code(ty: ObjectType) -> Option<&'static str> {
    Some(match ty {
        ObjectType::NUMANode => "NM",
        ObjectType::Package => "SK",
        ObjectType::L3Cache => "L3",
        ObjectType::L2Cache => "L2",
        ObjectType::L1Cache => "L1",
        ObjectType::Core => "CR",
        ObjectType::PU => "HT",
        _ => return None,
    })
}

/// The tokens of a locality string, without its optional "hwloc:" prefix; `None` when the
/// string is not a locality string of ours (neither prefixed nor starting with a level code).
fn locality_tokens(s: &[u8]) -> Option<Vec<&[u8]>> {
    let body = if s.len() >= 6 && s[..6].eq_ignore_ascii_case(b"hwloc:") {
        &s[6..]
    } else if s.len() >= 2
        && LEVELS
            .iter()
            .any(|(code, _)| s[..2].eq_ignore_ascii_case(*code))
    {
        s
    } else {
        return None;
    };
    Some(
        body.split(|&c| c == b':')
            .filter(|t| !t.is_empty())
            .collect(),
    )
}

/// The level code of a token (its first two bytes, or fewer when it is shorter) and its list.
fn split_token(t: &[u8]) -> (&[u8], &[u8]) {
    t.split_at(t.len().min(2))
}

/// The relative locality of two processes from their locality strings
/// (`PMIx_Get_relative_locality`): `PMIX_LOCALITY_SHARE_NODE`, plus the bit of every level
/// at which the two strings name overlapping objects. For each token of `a`, the first token
/// of `b` with the same (case-sensitive) code is compared. Both the bare strings of
/// [`LocalTopology::locality_string`] and "hwloc:"-prefixed ones are accepted.
///
/// Errors: `PMIX_ERR_TAKE_NEXT_OPTION` when a string is not a locality string of ours;
/// `PMIX_ERROR` when overlapping tokens carry a code that is not a level.
#[doc(alias = "PMIx_Get_relative_locality")]
pub fn relative_locality(a: &[u8], b: &[u8]) -> Result<pmix_locality_t> {
    let (set1, set2) = match (locality_tokens(a), locality_tokens(b)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(not_ours()),
    };
    let mut locality = PMIX_LOCALITY_SHARE_NODE;
    let mut unknown = false;
    for t1 in &set1 {
        let (code, list1) = split_token(t1);
        let Some(t2) = set2.iter().find(|t2| split_token(t2).0 == code) else {
            continue;
        };
        if !parse_list(list1).intersects(&parse_list(split_token(t2).1)) {
            continue;
        }
        match LEVELS.iter().find(|(c, _)| c.as_slice() == code) {
            Some((_, bit)) => locality |= bit,
            None => unknown = true,
        }
    }
    if unknown {
        Err(Error::Status(PMIX_ERROR))
    } else {
        Ok(locality)
    }
}

/// Which binding `PMIx_Get_cpuset` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindEnvelope {
    /// The binding of the whole process (`PMIX_CPUBIND_PROCESS`).
    Process,
    /// The binding of the calling thread (`PMIX_CPUBIND_THREAD`).
    Thread,
}

impl BindEnvelope {
    /// The envelope for a `pmix_bind_envelope_t`; `BadParam` for other values.
    pub fn from_raw(v: pmix_bind_envelope_t) -> Result<BindEnvelope> {
        match v {
            PMIX_CPUBIND_PROCESS => Ok(BindEnvelope::Process),
            PMIX_CPUBIND_THREAD => Ok(BindEnvelope::Thread),
            _ => Err(Error::BadParam),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The process's topology

/// A loaded topology and the source name reported for it.
#[derive(Debug)]
pub struct LocalTopology {
    topo: HwTopology,
    source: PStr,
}

fn hwloc_err(_: impl std::fmt::Debug) -> Error {
    Error::NotSupported
}

impl LocalTopology {
    /// The topology of this machine: read from the file named by [`TOPO_FILE_ENV`] when it is
    /// set (source "hwloc"), else discovered (source "hwloc:<hwloc version>"). I/O objects are
    /// kept when important (PCI bridges and devices of interest, OS devices), as in the
    /// reference.
    pub fn load() -> Result<LocalTopology> {
        match std::env::var_os(TOPO_FILE_ENV) {
            Some(path) if !path.is_empty() => {
                // Read here rather than with `from_xml_file`: hwlocality panics on any hwloc
                // error but EINVAL, and a missing file is ENOENT.
                let xml = std::fs::read_to_string(&path).map_err(hwloc_err)?;
                let topo = HwTopology::builder()
                    .from_xml(&xml)
                    .map_err(hwloc_err)?
                    .with_flags(BuildFlags::ASSUME_THIS_SYSTEM)
                    .map_err(hwloc_err)?
                    .with_io_type_filter(TypeFilter::KeepImportant)
                    .map_err(hwloc_err)?
                    .build()
                    .map_err(hwloc_err)?;
                Ok(LocalTopology {
                    topo,
                    source: PStr::from(HWLOC),
                })
            }
            _ => {
                let topo = HwTopology::builder()
                    .with_io_type_filter(TypeFilter::KeepImportant)
                    .map_err(hwloc_err)?
                    .build()
                    .map_err(hwloc_err)?;
                let version = topo
                    .root_object()
                    .info("hwlocVersion")
                    .map(|v| v.to_string_lossy().into_owned());
                let source = match version {
                    Some(v) => format!("{HWLOC}:{v}"),
                    None => HWLOC.to_string(),
                };
                Ok(LocalTopology {
                    topo,
                    source: PStr::from(source),
                })
            }
        }
    }

    /// A topology from hwloc XML (source "hwloc"), for topologies received from elsewhere.
    pub fn from_xml(xml: &str) -> Result<LocalTopology> {
        let topo = HwTopology::builder()
            .from_xml(xml)
            .map_err(hwloc_err)?
            .with_io_type_filter(TypeFilter::KeepImportant)
            .map_err(hwloc_err)?
            .build()
            .map_err(hwloc_err)?;
        Ok(LocalTopology {
            topo,
            source: PStr::from(HWLOC),
        })
    }

    /// A synthetic topology (hwloc's synthetic description, such as "pack:2 core:2 pu:2"),
    /// for tests.
    pub fn from_synthetic(description: &str) -> Result<LocalTopology> {
        let topo = HwTopology::builder()
            .from_synthetic(description)
            .map_err(hwloc_err)?
            .build()
            .map_err(hwloc_err)?;
        Ok(LocalTopology {
            topo,
            source: PStr::from(HWLOC),
        })
    }

    /// The source name reported for this topology ("hwloc:2.9.0", or "hwloc" when it was read
    /// from a file).
    pub fn source(&self) -> &PStr {
        &self.source
    }

    /// The topology as hwloc XML (the v2 format).
    pub fn xml(&self) -> Result<String> {
        let xml = self
            .topo
            .export_xml(XMLExportFlags::empty())
            .map_err(hwloc_err)?;
        Ok(xml.as_str().to_owned())
    }

    /// Whether this topology satisfies a caller that asks for `requested`
    /// (`PMIx_Load_topology` with a source set): `requested` must name hwloc and be a
    /// case-insensitive prefix of our source ("hwloc" and "HWLOC:2.9" match "hwloc:2.9.0").
    pub fn check_source(&self, requested: &[u8]) -> Result<()> {
        let ours = self.source.as_bytes();
        if is_hwloc_source(requested)
            && requested.len() <= ours.len()
            && ours[..requested.len()].eq_ignore_ascii_case(requested)
        {
            Ok(())
        } else {
            Err(not_ours())
        }
    }

    /// The locality string of a cpuset (`PMIx_server_generate_locality_string`): for each
    /// level of the topology that is a package, an L3, L2 or L1 data cache, a core or a PU,
    /// in topology order, then for the NUMA nodes, the code of the level followed by the
    /// logical indices of the objects whose cpuset overlaps `c`; levels the cpuset does not
    /// overlap are left out. `None` for an unbound process (no bitmap, or a full one) and
    /// for a cpuset that overlaps nothing.
    ///
    /// Errors: `BadParam` without a source; `PMIX_ERR_TAKE_NEXT_OPTION` for another source.
    #[doc(alias = "PMIx_server_generate_locality_string")]
    pub fn locality_string(&self, c: &Cpuset) -> Result<Option<PStr>> {
        let source = c.source.as_ref().ok_or(Error::BadParam)?;
        if !is_hwloc_source(source.as_bytes()) {
            return Err(not_ours());
        }
        let Some(list) = &c.bitmap else {
            return Ok(None);
        };
        let set = CpuSet::from(parse_list(list.as_bytes()));
        if set.is_full() {
            return Ok(None);
        }
        let mut out: Vec<String> = Vec::new();
        let mut level = |code: &str, depth: Depth| {
            let mut hit = Bitmap::new();
            for (i, obj) in self.topo.objects_at_depth(depth).enumerate() {
                if obj.cpuset().is_some_and(|cs| cs.intersects(&set)) {
                    hit.set(i);
                }
            }
            if !hit.is_empty() {
                out.push(format!("{code}{hit}"));
            }
        };
        for d in 1..usize::from(self.topo.depth()) {
            let Ok(depth) = Depth::try_from(d) else {
                continue;
            };
            if let Some(code) = self.topo.type_at_depth(depth).and_then(level_code) {
                level(code, depth);
            }
        }
        level("NM", Depth::NUMANode);
        Ok((!out.is_empty()).then(|| PStr::from(out.join(":"))))
    }

    /// The distances from the CPUs of `c` to this machine's I/O devices of the given
    /// `types` (a mask of `PMIX_DEVTYPE_*`; 0: network, OpenFabrics, GPU and coprocessor
    /// devices), optionally only those named in `ids` (OS name or uuid), as the reference
    /// computes them (`PMIx_Compute_distances`): with `obj` the deepest object that covers
    /// the whole cpuset and `anc` its first common ancestor with the device's first non-I/O
    /// ancestor, the distance is `depth - anc.depth`, or `obj.depth + depth` when they share
    /// only the machine (`depth` is the number of levels of the topology). The reference
    /// gives 9 for this machine's `eth0` from an unbound process, and so do we.
    ///
    /// Errors: `PMIX_ERR_TAKE_NEXT_OPTION` for another source; `NotFound` when no device
    /// matches; `PMIX_ERR_NOT_AVAILABLE` when no object below the machine covers the cpuset.
    #[doc(alias = "PMIx_Compute_distances")]
    pub fn device_distances(
        &self,
        c: &Cpuset,
        types: pmix_device_type_t,
        ids: &[PStr],
        hostname: &str,
    ) -> Result<Vec<DeviceDistance>> {
        use hwlocality::object::attributes::ObjectAttributes;
        use hwlocality::object::types::OSDeviceType;
        let source = c.source.as_ref().ok_or(Error::BadParam)?;
        if !is_hwloc_source(source.as_bytes()) {
            return Err(not_ours());
        }
        let set = match &c.bitmap {
            Some(l) => CpuSet::from(parse_list(l.as_bytes())),
            None => self.topo.cpuset().clone_target(),
        };
        let types = if types == 0 {
            PMIX_DEVTYPE_NETWORK | PMIX_DEVTYPE_OPENFABRICS | PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_COPROC
        } else {
            types
        };
        let depth = usize::from(self.topo.depth());
        // The deepest object that covers the whole cpuset (below the machine).
        let mut obj = None;
        for d in 1..depth {
            let Ok(dd) = Depth::try_from(d) else { break };
            match self.topo.objects_at_depth(dd).find(|o| {
                o.cpuset()
                    .is_some_and(|cs| set.iter_set().all(|i| cs.is_set(i)))
            }) {
                Some(o) => obj = Some(o),
                None => break,
            }
        }
        let obj = obj.ok_or(Error::Status(PMIX_ERR_NOT_AVAILABLE))?;
        let obj_depth = usize::from(obj.depth().expect_normal());
        let mut out = Vec::new();
        for dev in self.topo.objects_with_type(ObjectType::OSDevice) {
            let Some(ObjectAttributes::OSDevice(a)) = dev.attributes() else {
                continue;
            };
            let ty = match a.device_type() {
                OSDeviceType::Network => PMIX_DEVTYPE_NETWORK,
                OSDeviceType::OpenFabrics => PMIX_DEVTYPE_OPENFABRICS,
                OSDeviceType::GPU => PMIX_DEVTYPE_GPU,
                OSDeviceType::CoProcessor => PMIX_DEVTYPE_COPROC,
                _ => continue,
            };
            if types & ty == 0 {
                continue;
            }
            let osname = dev
                .name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let info = |k: &str| dev.info(k).map(|v| v.to_string_lossy().into_owned());
            let uuid = match ty {
                PMIX_DEVTYPE_NETWORK => info("Address").map(|a| format!("ipv4://{a}")),
                PMIX_DEVTYPE_OPENFABRICS => {
                    info("NodeGUID").map(|g| format!("fab://{g}::{hostname}"))
                }
                _ => None,
            }
            .unwrap_or_else(|| {
                format!(
                    "{}::{hostname}::{osname}",
                    if ty == PMIX_DEVTYPE_NETWORK {
                        "net"
                    } else {
                        "dev"
                    }
                )
            });
            if !ids.is_empty()
                && !ids.iter().any(|i| {
                    i.as_bytes().eq_ignore_ascii_case(osname.as_bytes())
                        || i.as_bytes().eq_ignore_ascii_case(uuid.as_bytes())
                })
            {
                continue;
            }
            // The deepest object that is (or contains) both `obj` and the device's place.
            let common = dev.first_non_io_ancestor().and_then(|t| {
                let mut mine: Vec<_> = vec![obj];
                mine.extend(obj.ancestors());
                std::iter::once(t)
                    .chain(t.ancestors())
                    .find(|a| mine.iter().any(|m| std::ptr::eq(*m, *a)))
            });
            let dist = match common {
                Some(anc) => {
                    let ad = usize::from(anc.depth().expect_normal());
                    if ad == 0 {
                        obj_depth + depth
                    } else {
                        depth - ad
                    }
                }
                None => usize::from(u16::MAX),
            };
            let dist = u16::try_from(dist).unwrap_or(u16::MAX);
            out.push(DeviceDistance {
                uuid: Some(PStr::from(uuid)),
                osname: Some(PStr::from(osname)),
                ty,
                mindist: dist,
                maxdist: dist,
            });
        }
        if out.is_empty() {
            return Err(Error::NotFound);
        }
        Ok(out)
    }

    /// The CPUs the process, or the calling thread, is bound to, in list syntax
    /// (`PMIx_Get_cpuset`). For the process, hwloc reports the union of its threads' bindings.
    ///
    /// Errors: `NotFound` when the operating system does not tell.
    #[doc(alias = "PMIx_Get_cpuset")]
    pub fn cpu_binding(&self, envelope: BindEnvelope) -> Result<PStr> {
        let flags = match envelope {
            BindEnvelope::Process => CpuBindingFlags::PROCESS,
            BindEnvelope::Thread => CpuBindingFlags::THREAD,
        };
        let set = self.topo.cpu_binding(flags).map_err(|_| Error::NotFound)?;
        Ok(cpuset_list(&set))
    }

    /// The number of objects of a type (for tests and diagnostics).
    pub fn count(&self, ty: ObjectType) -> usize {
        self.topo.objects_with_type(ty).count()
    }

    /// The cpusets, in list syntax, of the objects at every level a locality string names
    /// (packages, caches, cores, PUs, NUMA nodes), for tests that derive cpusets from real
    /// objects.
    pub fn object_cpusets(&self) -> Vec<PStr> {
        let mut out = Vec::new();
        for ty in [
            ObjectType::NUMANode,
            ObjectType::Package,
            ObjectType::L3Cache,
            ObjectType::L2Cache,
            ObjectType::L1Cache,
            ObjectType::Core,
            ObjectType::PU,
        ] {
            for obj in self.topo.objects_with_type(ty) {
                if let Some(cs) = obj.cpuset() {
                    out.push(cpuset_list(&cs));
                }
            }
        }
        out
    }
}

/// What a distance request's directives select: the device types of `PMIX_DEVICE_TYPE`
/// (OR'ed together; 0 means the default set) and the ids of `PMIX_DEVICE_ID`.
pub fn distance_selection(directives: &[crate::values::Info]) -> (pmix_device_type_t, Vec<PStr>) {
    let mut types = 0;
    let mut ids = Vec::new();
    for x in directives {
        if x.is(PMIX_DEVICE_TYPE) {
            types |= x.value.as_u64().unwrap_or(0);
        } else if x.is(PMIX_DEVICE_ID)
            && let Some(id) = x.value.as_str()
        {
            ids.push(id.clone());
        }
    }
    (types, ids)
}

/// The hwloc cpuset of the calling process's binding (`PMIx_Get_cpuset` of the process).
pub fn own_cpuset() -> Result<Cpuset> {
    Ok(Cpuset {
        source: Some(PStr::from("hwloc")),
        bitmap: Some(local()?.cpu_binding(BindEnvelope::Process)?),
    })
}

/// The process's topology, loaded on first use and kept for the life of the process.
pub fn local() -> Result<&'static LocalTopology> {
    static LOCAL: OnceLock<Result<LocalTopology>> = OnceLock::new();
    LOCAL
        .get_or_init(LocalTopology::load)
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests;
