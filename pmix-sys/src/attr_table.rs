//! The storage of the attribute tables (`attribute_table!`): every macro name in one byte
//! string, every key in another, and per entry the offsets and lengths of both, so that an
//! entry holds no pointer. A table of `&CStr` pairs needs two relocations per entry when
//! the library is loaded, which makes its pages private to every process that loads it.

use core::ffi::CStr;

use crate::AttrDef;
use crate::types::pmix_data_type_t;

/// Where one attribute's name and key are in their table's byte strings.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct AttrEntry {
    name: u32,
    key: u32,
    /// Lengths with the terminating NUL.
    name_len: u16,
    key_len: u16,
    ty: pmix_data_type_t,
}

/// An attribute table: [`AttrDef`]s in header order, made on the fly from the stored entries.
#[derive(Debug, Clone, Copy)]
pub struct AttrTable {
    names: &'static [u8],
    keys: &'static [u8],
    entries: &'static [AttrEntry],
}

impl AttrTable {
    /// Checks, at compile time where the table is a static, that every entry names one C
    /// string (one NUL, at its end) in each byte string: what [`AttrTable::get`] relies on.
    #[doc(hidden)]
    pub const fn new(
        names: &'static [u8],
        keys: &'static [u8],
        entries: &'static [AttrEntry],
    ) -> AttrTable {
        let mut i = 0;
        while i < entries.len() {
            let e = &entries[i];
            assert!(one_c_string(names, e.name as usize, e.name_len as usize));
            assert!(one_c_string(keys, e.key as usize, e.key_len as usize));
            i += 1;
        }
        AttrTable {
            names,
            keys,
            entries,
        }
    }

    /// The number of attributes.
    pub const fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no attribute.
    pub const fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`-th attribute, in header order.
    pub fn get(&self, i: usize) -> Option<AttrDef> {
        self.entries.get(i).map(|e| self.def(e))
    }

    /// Every attribute, in header order.
    pub fn iter(&self) -> AttrIter {
        AttrIter {
            table: *self,
            next: 0,
        }
    }

    fn def(&self, e: &AttrEntry) -> AttrDef {
        let name = &self.names[e.name as usize..][..e.name_len as usize];
        let key = &self.keys[e.key as usize..][..e.key_len as usize];
        // SAFETY: `new` checked that each of these ranges holds exactly one NUL, its last
        // byte; the fields cannot change after `new`.
        let (name, key) = unsafe {
            (
                CStr::from_bytes_with_nul_unchecked(name),
                CStr::from_bytes_with_nul_unchecked(key),
            )
        };
        AttrDef {
            name,
            key,
            ty: e.ty,
        }
    }
}

/// Iterator over an [`AttrTable`].
#[derive(Debug, Clone)]
pub struct AttrIter {
    table: AttrTable,
    next: usize,
}

impl Iterator for AttrIter {
    type Item = AttrDef;

    fn next(&mut self) -> Option<AttrDef> {
        let d = self.table.get(self.next)?;
        self.next += 1;
        Some(d)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.table.len() - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for AttrIter {}

impl IntoIterator for AttrTable {
    type Item = AttrDef;
    type IntoIter = AttrIter;

    fn into_iter(self) -> AttrIter {
        self.iter()
    }
}

impl IntoIterator for &AttrTable {
    type Item = AttrDef;
    type IntoIter = AttrIter;

    fn into_iter(self) -> AttrIter {
        self.iter()
    }
}

/// Whether `bytes[at..at + len]` is in range and holds one NUL, as its last byte.
const fn one_c_string(bytes: &[u8], at: usize, len: usize) -> bool {
    if len == 0 || at + len > bytes.len() {
        return false;
    }
    let mut i = at;
    while i < at + len - 1 {
        if bytes[i] == 0 {
            return false;
        }
        i += 1;
    }
    bytes[at + len - 1] == 0
}

/// The length of `keys` joined, NULs included.
#[doc(hidden)]
pub const fn joined_len(keys: &[&CStr]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < keys.len() {
        n += keys[i].to_bytes_with_nul().len();
        i += 1;
    }
    n
}

/// `keys` joined, each with its NUL; `L` is [`joined_len`] of them.
#[doc(hidden)]
pub const fn join<const L: usize>(keys: &[&CStr]) -> [u8; L] {
    let mut out = [0u8; L];
    let mut at = 0;
    let mut i = 0;
    while i < keys.len() {
        let b = keys[i].to_bytes_with_nul();
        let mut j = 0;
        while j < b.len() {
            out[at] = b[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(at == L);
    out
}

/// The entries of a table whose names are the NUL-terminated strings of `names`, in order,
/// and whose keys are `keys` joined by [`join`].
#[doc(hidden)]
pub const fn entries<const N: usize>(
    names: &[u8],
    keys: &[&CStr],
    types: &[pmix_data_type_t],
) -> [AttrEntry; N] {
    assert!(keys.len() == N && types.len() == N);
    let mut out = [AttrEntry {
        name: 0,
        key: 0,
        name_len: 0,
        key_len: 0,
        ty: 0,
    }; N];
    let mut name_at = 0;
    let mut key_at = 0;
    let mut i = 0;
    while i < N {
        let mut end = name_at;
        while names[end] != 0 {
            end += 1;
        }
        let name_len = end + 1 - name_at;
        let key_len = keys[i].to_bytes_with_nul().len();
        assert!(name_len <= u16::MAX as usize && key_len <= u16::MAX as usize);
        assert!(end < u32::MAX as usize && key_at + key_len < u32::MAX as usize);
        out[i] = AttrEntry {
            name: name_at as u32,
            key: key_at as u32,
            name_len: name_len as u16,
            key_len: key_len as u16,
            ty: types[i],
        };
        name_at = end + 1;
        key_at += key_len;
        i += 1;
    }
    assert!(name_at == names.len());
    out
}

#[cfg(test)]
mod tests {
    use crate::{ATTRIBUTES, DEPRECATED_ATTRIBUTES};

    #[test]
    fn entries_match_the_constants() {
        assert_eq!(ATTRIBUTES.len(), ATTRIBUTES.iter().count());
        let first = ATTRIBUTES.get(0).unwrap();
        assert_eq!(first.name, c"PMIX_LAUNCHER_RNDZ_URI");
        assert_eq!(first.key, crate::PMIX_LAUNCHER_RNDZ_URI);
        let rank = ATTRIBUTES.iter().find(|a| a.name == c"PMIX_RANK").unwrap();
        assert_eq!(rank.key, crate::PMIX_RANK);
        assert_eq!(rank.ty, crate::PMIX_PROC_RANK);
        let last = ATTRIBUTES.get(ATTRIBUTES.len() - 1).unwrap();
        assert_eq!(last.name, c"PMIX_QUERY_PROVISIONAL_ABI_VERSION");
        assert_eq!(last.key, crate::PMIX_QUERY_PROVISIONAL_ABI_VERSION);
        assert!(ATTRIBUTES.get(ATTRIBUTES.len()).is_none());
        let evbase = DEPRECATED_ATTRIBUTES.iter().next().unwrap();
        assert_eq!(
            (evbase.name, evbase.key),
            (c"PMIX_EVENT_BASE", c"pmix.evbase")
        );
        assert_eq!(
            ATTRIBUTES.iter().chain(DEPRECATED_ATTRIBUTES).count(),
            ATTRIBUTES.len() + DEPRECATED_ATTRIBUTES.len()
        );
    }

    #[test]
    fn one_c_string_each() {
        let t = super::AttrTable::new(b"A\0BC\0", b"a\0", &[]);
        assert!(t.is_empty());
        assert!(super::one_c_string(b"A\0BC\0", 2, 3));
        assert!(!super::one_c_string(b"A\0BC\0", 0, 3));
        assert!(!super::one_c_string(b"A\0BC\0", 2, 4));
        assert!(!super::one_c_string(b"A\0BC\0", 0, 0));
    }
}
