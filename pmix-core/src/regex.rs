//! Node and process maps ("regexes"): the compact strings a host hands to
//! `PMIx_server_register_nspace` as `PMIX_NODE_MAP` and `PMIX_PROC_MAP`.
//!
//! This module exists because the two maps travel between different PMIx implementations:
//! a host may build them with one library (`PMIx_generate_regex`, `PMIx_generate_ppn`) and
//! a server of another may expand them. So we write the forms OpenPMIx 4.2 writes, and read
//! every form it writes or reads. The forms, as observed by running OpenPMIx 4.2.2:
//!
//! * **native node map** `pmix[ENTRY,ENTRY,...]`. An entry is either a host name written
//!   as is, or a group `PREFIX[WIDTH:RANGES]SUFFIX` standing for the names
//!   `PREFIX` + number zero-padded to `WIDTH` digits + `SUFFIX`, one per number of
//!   `RANGES` (`a`, or `a-b` with `a <= b`, separated by commas), in order. Example:
//!   `node01,node02,node03,login` is `pmix[node[2:1-3],login]`.
//! * **native process map** `pmix[RANKS;RANKS;...]`: one field per node of the node map,
//!   in the same order, each a comma-separated list of ranks and rank ranges
//!   (`pmix[0-3;4-7]`).
//! * **raw** `raw:TEXT`: the plain list after a tag (`raw:n1,n2`, `raw:0,1;2,3`). OpenPMIx
//!   writes it for an empty node list and for process maps whose native form would be
//!   longer than the input.
//! * **plain** `TEXT` with no tag: what OpenPMIx returns when no method applies; readers
//!   take untagged text as the plain list.
//! * **blob** `blob:\0component=zlib:\0size=N:\0` followed by `N` bytes of compressed
//!   plain list (the `PMIx_Data_compress` layout: a 4-byte little-endian length of the
//!   text, then a zlib stream). The headers of OpenPMIx describe it; its 4.2 build never
//!   produces it and does not read it back correctly, so we read it and never write it.
//!
//! Generation follows OpenPMIx byte for byte where its output describes the input
//! faithfully, and differs where it does not (see `docs/notes/regex.md`): host lists whose
//! native form OpenPMIx reorders, numbers beyond `i32`, names holding brackets, empty
//! names, and process maps with ranges that OpenPMIx would pass on as `raw:` text it cannot
//! itself read back.

use std::io::Read;

use crate::{Error, PStr, Result};

/// A rank in a process map. Ranks above `i32::MAX` are refused: OpenPMIx stores them in
/// an `int`.
pub type Rank = u32;

/// The largest rank or host-name number written in compressed form (OpenPMIx reads them
/// as `int`).
const MAX_NUMBER: u64 = i32::MAX as u64;

/// Upper bounds on what a map may expand to, so that a short hostile string cannot make
/// the parser allocate without limit.
const MAX_NODES: usize = 1 << 22;
const MAX_RANKS: usize = 1 << 26;
/// Upper bound on the decompressed text of a `blob:` map.
const MAX_BLOB_TEXT: u64 = 1 << 28;

const NATIVE: &[u8] = b"pmix[";
const RAW: &[u8] = b"raw:";
const BLOB: &[u8] = b"blob:";

// ---------------------------------------------------------------------------------------
// Node maps
// ---------------------------------------------------------------------------------------

/// The host names of a comma-separated node list, as `PMIx_generate_regex` takes it.
///
/// One trailing comma is allowed (OpenPMIx ignores it); the empty string is the empty
/// list. Any other empty name is an error.
pub fn split_node_list(input: &[u8]) -> Result<Vec<PStr>> {
    let mut parts: Vec<&[u8]> = input.split(|&c| c == b',').collect();
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    if parts.iter().any(|p| p.is_empty()) {
        return Err(Error::BadParam);
    }
    Ok(parts.into_iter().map(PStr::from).collect())
}

/// The node map (`PMIX_NODE_MAP`) of a comma-separated list of host names, as
/// `PMIx_generate_regex` returns it (without the C terminator).
///
/// # Errors
/// `BadParam` for an empty name (other than one trailing comma).
#[doc(alias = "PMIx_generate_regex")]
pub fn generate_node_map(input: &[u8]) -> Result<Vec<u8>> {
    node_map_of(&split_node_list(input)?)
}

/// The node map of a list of host names. The empty list gives `raw:`; a list in which
/// some name holds `[` or `]` gives the raw form, which keeps such names intact; any
/// other list gives the native form.
///
/// # Errors
/// `BadParam` for an empty name, or one holding a comma or NUL.
pub fn node_map_of(nodes: &[PStr]) -> Result<Vec<u8>> {
    if nodes
        .iter()
        .any(|n| n.is_empty() || n.as_bytes().iter().any(|&c| c == b',' || c == 0))
    {
        return Err(Error::BadParam);
    }
    if nodes.is_empty() {
        return Ok(RAW.to_vec());
    }
    if nodes
        .iter()
        .any(|n| n.as_bytes().iter().any(|&c| c == b'[' || c == b']'))
    {
        let mut out = RAW.to_vec();
        join_into(&mut out, nodes.iter().map(PStr::as_bytes), b",");
        return Ok(out);
    }
    let mut entries: Vec<NodeEntry<'_>> = Vec::new();
    for n in nodes {
        match numbered(n.as_bytes()) {
            Some(num) => match entries.last_mut() {
                // Only the entry just before may take the name, so that the map keeps the
                // order of the list (OpenPMIx also reaches back past names written as is,
                // which reorders the hosts).
                Some(NodeEntry::Group(g)) if g.takes(&num) => g.values.push(num.value),
                _ => entries.push(NodeEntry::Group(Group {
                    prefix: num.prefix,
                    width: num.width,
                    suffix: num.suffix,
                    values: vec![num.value],
                })),
            },
            None => entries.push(NodeEntry::Name(n.as_bytes())),
        }
    }
    let mut out = NATIVE.to_vec();
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match e {
            NodeEntry::Name(n) => out.extend_from_slice(n),
            NodeEntry::Group(g) => {
                out.extend_from_slice(g.prefix);
                out.extend_from_slice(format!("[{}:", g.width).as_bytes());
                write_runs(&mut out, &g.values);
                out.push(b']');
                out.extend_from_slice(g.suffix);
            }
        }
    }
    out.push(b']');
    Ok(out)
}

enum NodeEntry<'a> {
    /// A name written as is.
    Name(&'a [u8]),
    Group(Group<'a>),
}

struct Group<'a> {
    prefix: &'a [u8],
    width: usize,
    suffix: &'a [u8],
    values: Vec<u64>,
}

impl Group<'_> {
    fn takes(&self, n: &Numbered<'_>) -> bool {
        self.prefix == n.prefix && self.width == n.width && self.suffix == n.suffix
    }
}

/// A host name split around its first run of digits.
struct Numbered<'a> {
    prefix: &'a [u8],
    width: usize,
    value: u64,
    suffix: &'a [u8],
}

/// The parts of a name that can join a group: ASCII letters and digits only, with at least
/// one digit, whose first run of digits has a value that fits an `i32`. Other names are
/// written as they are.
fn numbered(name: &[u8]) -> Option<Numbered<'_>> {
    if !name.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    let start = name.iter().position(u8::is_ascii_digit)?;
    let len = name[start..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(name.len() - start);
    let digits = &name[start..start + len];
    let value = number(digits).filter(|&v| v <= MAX_NUMBER)?;
    Some(Numbered {
        prefix: &name[..start],
        width: len,
        value,
        suffix: &name[start + len..],
    })
}

/// The value of a run of ASCII digits; `None` when empty, not all digits or beyond `u64`.
fn number(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &d| {
        acc.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// Writes `values` as comma-separated runs: `a` for a lone value, `a-b` for `a, a+1, ..., b`.
fn write_runs(out: &mut Vec<u8>, values: &[u64]) {
    let mut i = 0;
    let mut first = true;
    while i < values.len() {
        let start = values[i];
        let mut end = start;
        while i + 1 < values.len() && values[i + 1] == end + 1 {
            end += 1;
            i += 1;
        }
        write_range(out, &mut first, start, end);
        i += 1;
    }
}

fn write_range(out: &mut Vec<u8>, first: &mut bool, start: u64, end: u64) {
    if !*first {
        out.push(b',');
    }
    *first = false;
    if start == end {
        out.extend_from_slice(start.to_string().as_bytes());
    } else {
        out.extend_from_slice(format!("{start}-{end}").as_bytes());
    }
}

fn join_into<'a>(out: &mut Vec<u8>, parts: impl Iterator<Item = &'a [u8]>, sep: &[u8]) {
    for (i, p) in parts.enumerate() {
        if i > 0 {
            out.extend_from_slice(sep);
        }
        out.extend_from_slice(p);
    }
}

/// The host names a node map stands for, in order. Reads the native, raw, plain and blob
/// forms. `map` may carry the C terminator (and, for a blob, the bytes after it).
///
/// # Errors
/// `BadParam` for a malformed map or an empty host name; `NoMem` when the map would expand
/// beyond the parser's limits.
pub fn parse_node_map(map: &[u8]) -> Result<Vec<PStr>> {
    match classify(map)? {
        Form::Native(body) => parse_native_nodes(body),
        Form::Text(text) => parse_plain_nodes(text),
        Form::Blob(text) => match classify(&text)? {
            Form::Native(body) => parse_native_nodes(body),
            Form::Text(t) => parse_plain_nodes(t),
            Form::Blob(_) => Err(Error::BadParam),
        },
    }
}

fn parse_plain_nodes(text: &[u8]) -> Result<Vec<PStr>> {
    let nodes = split_node_list(text)?;
    if nodes.len() > MAX_NODES {
        return Err(Error::NoMem);
    }
    Ok(nodes)
}

fn parse_native_nodes(body: &[u8]) -> Result<Vec<PStr>> {
    // Read every entry first and count the names, so that nothing is allocated for a map
    // that expands beyond the limit.
    let mut entries = Vec::new();
    let mut count = 0usize;
    for item in split_outside_brackets(body)? {
        let entry = parse_node_entry(item)?;
        count = count.saturating_add(match &entry {
            ParsedEntry::Name(_) => 1,
            ParsedEntry::Group { ranges, .. } => ranges
                .iter()
                .map(|&(a, b)| usize::try_from(b - a + 1).unwrap_or(usize::MAX))
                .fold(0usize, usize::saturating_add),
        });
        if count > MAX_NODES {
            return Err(Error::NoMem);
        }
        entries.push(entry);
    }
    if count == 0 {
        return Err(Error::BadParam);
    }
    let mut nodes = Vec::with_capacity(count);
    for e in entries {
        match e {
            ParsedEntry::Name(n) => nodes.push(PStr::from(n)),
            ParsedEntry::Group {
                prefix,
                width,
                ranges,
                suffix,
            } => {
                for (start, end) in ranges {
                    for v in start..=end {
                        let mut name = prefix.to_vec();
                        name.extend_from_slice(format!("{v:0width$}").as_bytes());
                        name.extend_from_slice(suffix);
                        nodes.push(PStr::from(name));
                    }
                }
            }
        }
    }
    Ok(nodes)
}

enum ParsedEntry<'a> {
    Name(&'a [u8]),
    Group {
        prefix: &'a [u8],
        width: usize,
        ranges: Vec<(u64, u64)>,
        suffix: &'a [u8],
    },
}

/// One entry of a native node map: a name, or `PREFIX[WIDTH:RANGES]SUFFIX`.
fn parse_node_entry(item: &[u8]) -> Result<ParsedEntry<'_>> {
    let Some(open) = item.iter().position(|&c| c == b'[') else {
        if item.is_empty() || item.contains(&b']') {
            return Err(Error::BadParam);
        }
        return Ok(ParsedEntry::Name(item));
    };
    let prefix = &item[..open];
    let rest = &item[open + 1..];
    let close = rest
        .iter()
        .position(|&c| c == b']')
        .ok_or(Error::BadParam)?;
    let (inner, suffix) = (&rest[..close], &rest[close + 1..]);
    if prefix.contains(&b']') || suffix.iter().any(|&c| c == b'[' || c == b']') {
        return Err(Error::BadParam);
    }
    let colon = inner
        .iter()
        .position(|&c| c == b':')
        .ok_or(Error::BadParam)?;
    let width = number(&inner[..colon])
        .filter(|&w| w <= 64)
        .ok_or(Error::BadParam)?;
    Ok(ParsedEntry::Group {
        prefix,
        width: usize::try_from(width).map_err(|_| Error::BadParam)?,
        ranges: parse_ranges(&inner[colon + 1..], false)?,
        suffix,
    })
}

/// Splits at the commas that are not inside `[...]`.
fn split_outside_brackets(body: &[u8]) -> Result<Vec<&[u8]>> {
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut start = 0;
    for (i, &c) in body.iter().enumerate() {
        match c {
            b'[' => {
                if depth > 0 {
                    return Err(Error::BadParam);
                }
                depth = 1;
            }
            b']' => {
                if depth == 0 {
                    return Err(Error::BadParam);
                }
                depth = 0;
            }
            b',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(Error::BadParam);
    }
    out.push(&body[start..]);
    Ok(out)
}

/// Parses comma-separated `a` / `a-b` items (`a <= b`, both at most `i32::MAX`). With
/// `skip_empty`, empty items are ignored (as OpenPMIx does in process maps); otherwise
/// they are errors.
fn parse_ranges(text: &[u8], skip_empty: bool) -> Result<Vec<(u64, u64)>> {
    let mut out = Vec::new();
    for item in text.split(|&c| c == b',') {
        if item.is_empty() {
            if skip_empty {
                continue;
            }
            return Err(Error::BadParam);
        }
        let (a, b) = match item.iter().position(|&c| c == b'-') {
            Some(d) => (&item[..d], &item[d + 1..]),
            None => (item, item),
        };
        let start = number(a)
            .filter(|&v| v <= MAX_NUMBER)
            .ok_or(Error::BadParam)?;
        let end = number(b)
            .filter(|&v| v <= MAX_NUMBER)
            .ok_or(Error::BadParam)?;
        if start > end {
            return Err(Error::BadParam);
        }
        out.push((start, end));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Process maps
// ---------------------------------------------------------------------------------------

/// The rank ranges of each node of a "ppn" description, as `PMIx_generate_ppn` takes it:
/// one field per node separated by `;`, each a comma-separated list of ranks `r` and
/// ranges `a-b` (`a <= b`). One trailing `;` is allowed; the empty string is the empty
/// list. Ranges are kept as written (not expanded).
///
/// # Errors
/// `BadParam` for an empty field or item, a non-decimal rank, a rank above `i32::MAX`, or
/// a range whose end is below its start.
pub fn split_ppn(input: &[u8]) -> Result<Vec<Vec<(Rank, Rank)>>> {
    let mut fields: Vec<&[u8]> = input.split(|&c| c == b';').collect();
    if fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    fields
        .into_iter()
        .map(|f| {
            if f.is_empty() {
                return Err(Error::BadParam);
            }
            Ok(parse_ranges(f, false)?
                .into_iter()
                .map(|(a, b)| (to_rank(a), to_rank(b)))
                .collect())
        })
        .collect()
}

fn to_rank(v: u64) -> Rank {
    // Values were checked against MAX_NUMBER, which fits a u32.
    Rank::try_from(v).unwrap_or(Rank::MAX)
}

/// The process map (`PMIX_PROC_MAP`) of a "ppn" description, as `PMIx_generate_ppn`
/// returns it (without the C terminator).
///
/// Like OpenPMIx, this writes the native form when it is no longer than the input and
/// `raw:` + the input otherwise; unlike OpenPMIx, an input that uses ranges always gets the
/// native form, because readers take raw text as lists of single ranks.
///
/// # Errors
/// As for [`split_ppn`].
#[doc(alias = "PMIx_generate_ppn")]
pub fn generate_proc_map(input: &[u8]) -> Result<Vec<u8>> {
    let nodes = split_ppn(input)?;
    if nodes.is_empty() {
        return Ok(RAW.to_vec());
    }
    let native = native_proc_map(&nodes);
    if native.len() <= input.len() || input.contains(&b'-') {
        Ok(native)
    } else {
        let mut out = RAW.to_vec();
        out.extend_from_slice(input);
        Ok(out)
    }
}

/// The native process map of per-node rank lists (always the native form).
///
/// # Errors
/// `BadParam` for an empty node or a rank above `i32::MAX`.
pub fn proc_map_of(nodes: &[Vec<Rank>]) -> Result<Vec<u8>> {
    let ranges: Vec<Vec<(Rank, Rank)>> = nodes
        .iter()
        .map(|ranks| {
            if ranks.is_empty() || ranks.iter().any(|&r| u64::from(r) > MAX_NUMBER) {
                return Err(Error::BadParam);
            }
            Ok(ranks.iter().map(|&r| (r, r)).collect())
        })
        .collect::<Result<_>>()?;
    if ranges.is_empty() {
        return Ok(RAW.to_vec());
    }
    Ok(native_proc_map(&ranges))
}

fn native_proc_map(nodes: &[Vec<(Rank, Rank)>]) -> Vec<u8> {
    let mut out = NATIVE.to_vec();
    for (i, node) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        // Join each item to the run before it when it starts right after that run's end.
        let mut runs: Vec<(Rank, Rank)> = Vec::new();
        for &(a, b) in node {
            match runs.last_mut() {
                Some(last) if u64::from(a) == u64::from(last.1) + 1 => last.1 = b,
                _ => runs.push((a, b)),
            }
        }
        let mut first = true;
        for (a, b) in runs {
            write_range(&mut out, &mut first, a.into(), b.into());
        }
    }
    out.push(b']');
    out
}

/// The ranks on each node of a process map, in order. Reads the native, raw, plain and
/// blob forms. `map` may carry the C terminator (and, for a blob, the bytes after it).
///
/// As OpenPMIx does, empty fields and empty items are skipped. Unlike OpenPMIx, ranges
/// `a-b` are also expanded in raw and plain text (OpenPMIx writes them there but reads
/// only the first number).
///
/// # Errors
/// `BadParam` for a malformed map; `NoMem` when it would expand beyond the parser's limits.
pub fn parse_proc_map(map: &[u8]) -> Result<Vec<Vec<Rank>>> {
    let text = match classify(map)? {
        Form::Native(body) => return parse_ppn_text(body),
        Form::Text(text) => text.to_vec(),
        Form::Blob(text) => match classify(&text)? {
            Form::Native(body) => return parse_ppn_text(body),
            Form::Text(t) => t.to_vec(),
            Form::Blob(_) => return Err(Error::BadParam),
        },
    };
    parse_ppn_text(&text)
}

fn parse_ppn_text(text: &[u8]) -> Result<Vec<Vec<Rank>>> {
    let mut total = 0usize;
    let mut nodes = Vec::new();
    for field in text.split(|&c| c == b';') {
        let mut ranks = Vec::new();
        for (a, b) in parse_ranges(field, true)? {
            let n = usize::try_from(b - a + 1).map_err(|_| Error::NoMem)?;
            total = total.saturating_add(n);
            if total > MAX_RANKS {
                return Err(Error::NoMem);
            }
            ranks.extend((a..=b).map(to_rank));
        }
        if !ranks.is_empty() {
            nodes.push(ranks);
        }
    }
    Ok(nodes)
}

// ---------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------

enum Form<'a> {
    /// The text between `pmix[` and the closing `]`.
    Native(&'a [u8]),
    /// Raw or plain text.
    Text(&'a [u8]),
    /// The decompressed text of a blob.
    Blob(Vec<u8>),
}

/// Which form a map has. A native or text map ends at its first NUL.
fn classify(map: &[u8]) -> Result<Form<'_>> {
    if map.starts_with(BLOB) && map.get(BLOB.len()) == Some(&0) {
        return blob_text(&map[BLOB.len() + 1..]).map(Form::Blob);
    }
    let text = match map.iter().position(|&c| c == 0) {
        Some(n) => &map[..n],
        None => map,
    };
    if let Some(body) = text.strip_prefix(NATIVE) {
        return body
            .strip_suffix(b"]")
            .map(Form::Native)
            .ok_or(Error::BadParam);
    }
    Ok(Form::Text(text.strip_prefix(RAW).unwrap_or(text)))
}

/// The length of the map at the start of `bytes`, as a `PMIX_REGEX` value carries it: the
/// C string up to and including its NUL, or for a blob the header and the `N` compressed
/// bytes. `None` when `bytes` ends first.
pub fn map_len(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(BLOB) && bytes.get(BLOB.len()) == Some(&0) {
        let (hdr, n) = blob_header(&bytes[BLOB.len() + 1..]).ok()?;
        let total = (BLOB.len() + 1).checked_add(hdr)?.checked_add(n)?;
        return (total <= bytes.len()).then_some(total);
    }
    bytes.iter().position(|&c| c == 0).map(|n| n + 1)
}

/// Reads `component=zlib:\0size=N:\0` and returns (header length, N).
fn blob_header(rest: &[u8]) -> Result<(usize, usize)> {
    let comp_end = rest.iter().position(|&c| c == 0).ok_or(Error::BadParam)?;
    if &rest[..comp_end] != b"component=zlib:" {
        return Err(Error::BadParam);
    }
    let after = &rest[comp_end + 1..];
    let size_end = after.iter().position(|&c| c == 0).ok_or(Error::BadParam)?;
    let n = after[..size_end]
        .strip_prefix(b"size=")
        .and_then(|s| s.strip_suffix(b":"))
        .and_then(number)
        .ok_or(Error::BadParam)?;
    let n = usize::try_from(n).map_err(|_| Error::BadParam)?;
    Ok((comp_end + 1 + size_end + 1, n))
}

/// The text inside a blob (after `blob:\0`).
fn blob_text(rest: &[u8]) -> Result<Vec<u8>> {
    let (hdr, n) = blob_header(rest)?;
    let data = rest.get(hdr..hdr + n).ok_or(Error::BadParam)?;
    let mut text = decompress_with_length(data).or_else(|_| inflate(data, None))?;
    while text.last() == Some(&0) {
        text.pop();
    }
    if text.contains(&0) {
        return Err(Error::BadParam);
    }
    Ok(text)
}

/// The `PMIx_Data_compress` layout: a little-endian `u32` length, then a zlib stream that
/// inflates to exactly that many bytes.
fn decompress_with_length(data: &[u8]) -> Result<Vec<u8>> {
    let (len, z) = data.split_first_chunk::<4>().ok_or(Error::BadParam)?;
    let len = u64::from(u32::from_le_bytes(*len));
    if len > MAX_BLOB_TEXT {
        return Err(Error::NoMem);
    }
    inflate(z, Some(len))
}

fn inflate(z: &[u8], expect: Option<u64>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut dec = flate2::read::ZlibDecoder::new(z).take(MAX_BLOB_TEXT + 1);
    dec.read_to_end(&mut out).map_err(|_| Error::BadParam)?;
    if out.len() as u64 > MAX_BLOB_TEXT {
        return Err(Error::NoMem);
    }
    if expect.is_some_and(|n| n != out.len() as u64) {
        return Err(Error::BadParam);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
