//! Parameter files: the key/value scanner (OpenPMIx's `keyval` lexer, rule for rule) and
//! `pmix_mca_base_parse_paramfile`, which turns a file into `pmix_mca_base_var_file_value_t`
//! items on a list.
//!
//! What a file may hold, line by line: `name = value` (the value runs to the end of the line,
//! trailing blanks dropped, quotes kept), `name =` (no value), blank lines, `#` and `//`
//! comments ending in a newline, `/* ... */` blocks, and the command-line forms `--mca name
//! value` / `-mca name 'quoted value' ` (quotes dropped) and `-x NAME=value` / `-x NAME`
//! (collected into one `mca_base_env_list_internal` value). A name repeated in the same list
//! keeps its first position and takes the last value read.

use super::{ERR_NOT_FOUND, Notice, PMIX_ERROR, SUCCESS};
use crate::list::{self, List, ListItem};
use crate::object::{self, Object};
use core::ffi::{CStr, c_char, c_int};
use core::ptr;
use std::os::unix::ffi::OsStrExt;
use std::sync::Mutex;

/// `pmix_mca_base_var_file_value_t` (176 bytes): one `name = value` read from a file.
#[repr(C)]
#[derive(Debug)]
pub struct FileValue {
    pub super_: ListItem,
    pub mbvfv_var: *mut c_char,
    pub mbvfv_value: *mut c_char,
    /// Not owned: the file name the caller passed (or the registry's copy).
    pub mbvfv_file: *mut c_char,
    pub mbvfv_lineno: c_int,
}

unsafe extern "C" fn fv_construct(o: *mut Object) {
    let f = o as *mut FileValue;
    // SAFETY: called on a file value being constructed.
    unsafe {
        (*f).mbvfv_var = ptr::null_mut();
        (*f).mbvfv_value = ptr::null_mut();
        (*f).mbvfv_file = ptr::null_mut();
        (*f).mbvfv_lineno = 0;
    }
}

unsafe extern "C" fn fv_destruct(o: *mut Object) {
    let f = o as *mut FileValue;
    // SAFETY: called on a constructed file value; its name and value are libc strings.
    unsafe {
        libc::free((*f).mbvfv_var.cast());
        libc::free((*f).mbvfv_value.cast());
        fv_construct(o);
    }
}

crate::class!(
    pmix_mca_base_var_file_value_t_class,
    FileValue,
    crate::list::item_class(),
    Some(fv_construct),
    Some(fv_destruct)
);

// Token codes (keyval_lex.h).
const DONE: i32 = 0;
const ERROR: i32 = 1;
const NEWLINE: i32 = 2;
const EQUAL: i32 = 3;
const SINGLE_WORD: i32 = 4;
const VALUE: i32 = 5;
const MCAVAR: i32 = 6;
const ENVVAR: i32 = 7;
const ENVEQL: i32 = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Initial,
    Value,
    Comment,
    McaValue,
}

fn white(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | 0x0b | 0x0c)
}

fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

fn count(s: &[u8], f: impl Fn(u8) -> bool) -> usize {
    s.iter().take_while(|&&c| f(c)).count()
}

/// The scanner: longest match among the rules active in the current state, the earlier rule
/// on a tie; a rule with trailing context is compared by its whole length but consumes only
/// its head. `lineno` counts the newlines consumed, from 1, as flex's `yylineno`.
struct Lexer {
    buf: Vec<u8>,
    pos: usize,
    state: State,
    lineno: c_int,
    newlines: c_int,
    text: Vec<u8>,
    done: bool,
}

impl Lexer {
    fn new(buf: Vec<u8>) -> Lexer {
        Lexer {
            buf,
            pos: 0,
            state: State::Initial,
            lineno: 1,
            newlines: 1,
            text: Vec::new(),
            done: false,
        }
    }

    /// `-x NAME` (with an optional second dash) followed by blanks; answers (head, CHAR+
    /// length, trailing blanks) where head ends after those blanks.
    fn dash_x(s: &[u8]) -> Option<(usize, usize, usize)> {
        let d = usize::from(s.starts_with(b"--"));
        if !s[d..].starts_with(b"-x") {
            return None;
        }
        let mut i = d + 2;
        let w = count(&s[i..], white);
        if w == 0 {
            return None;
        }
        i += w;
        let c = count(&s[i..], word);
        if c == 0 {
            return None;
        }
        i += c;
        let w2 = count(&s[i..], white);
        Some((i + w2, c, w2))
    }

    /// The rules of the INITIAL state: (rule number, total length, consumed length).
    fn initial(s: &[u8]) -> Vec<(u8, usize, usize)> {
        let mut m = Vec::new();
        let w = count(s, white);
        if s.get(w) == Some(&b'\n') {
            m.push((1, w + 1, w + 1));
        }
        let to_eol = |k: usize| s[k..].iter().position(|&c| c == b'\n').map(|p| k + p + 1);
        if s[0] == b'#' {
            if let Some(n) = to_eol(1) {
                m.push((2, n, n));
            }
        }
        if s.starts_with(b"//") {
            if let Some(n) = to_eol(2) {
                m.push((3, n, n));
            }
        }
        if s.starts_with(b"/*") {
            m.push((4, 2, 2));
        }
        if s.get(w) == Some(&b'=') {
            let n = w + 1 + count(&s[w + 1..], white);
            m.push((5, n, n));
        }
        if w > 0 {
            m.push((6, w, w));
        }
        let c = count(s, word);
        if c > 0 {
            m.push((7, c, c));
        }
        // "-"?"-mca"{WHITE}+{CHAR}+{WHITE}+
        let d = usize::from(s.starts_with(b"--"));
        if s[d..].starts_with(b"-mca") {
            let mut i = d + 4;
            let w1 = count(&s[i..], white);
            i += w1;
            let c1 = count(&s[i..], word);
            i += c1;
            let w2 = count(&s[i..], white);
            if w1 > 0 && c1 > 0 && w2 > 0 {
                m.push((8, i + w2, i + w2));
            }
        }
        if let Some((head, chars, blanks)) = Self::dash_x(s) {
            // "-"?"-x"{WHITE}+{CHAR}+{WHITE}*"="{WHITE}*
            if s.get(head) == Some(&b'=') {
                let n = head + 1 + count(&s[head + 1..], white);
                m.push((9, n, n));
            }
            // "-"?"-x"{WHITE}+{CHAR}+{WHITE}*/[^=]
            match s.get(head) {
                Some(&c) if c != b'=' => m.push((10, head + 1, head)),
                // The context char must come from the head itself.
                _ if blanks > 0 || chars > 1 => m.push((10, head, head - 1)),
                _ => {}
            }
        }
        if s[0] != b'\n' {
            m.push((11, 1, 1));
        }
        m
    }

    fn value_rules(s: &[u8]) -> Vec<(u8, usize, usize)> {
        let mut m = Vec::new();
        let w = count(s, white);
        if s.get(w) == Some(&b'\n') {
            m.push((1, w + 1, w + 1));
        }
        // [^\n]*[^\t \n]/[\t ]*: the rest of the line, trailing tabs and spaces as context.
        let line = s.iter().position(|&c| c == b'\n').unwrap_or(s.len());
        if let Some(last) = s[..line].iter().rposition(|&c| c != b' ' && c != b'\t') {
            m.push((2, line, last + 1));
        }
        m
    }

    fn mca_value_rules(s: &[u8]) -> Vec<(u8, usize, usize)> {
        let mut m = Vec::new();
        let c = count(s, |c| !matches!(c, b'\n' | b' ' | b'\t'));
        if c > 0 {
            m.push((1, c, c));
        }
        let line = s.iter().position(|&c| c == b'\n').unwrap_or(s.len());
        for (rule, q) in [(2u8, b'\''), (3, b'"')] {
            if s[0] != q {
                continue;
            }
            // The last closing quote followed by a blank gives the longest match.
            let best = (1..line).rev().filter(|&i| s[i] == q).find_map(|i| {
                let w = count(&s[i + 1..], white);
                (w > 0).then_some(i + 1 + w)
            });
            if let Some(n) = best {
                m.push((rule, n, n));
            }
        }
        let w = count(s, white);
        if s.get(w) == Some(&b'\n') {
            m.push((4, w + 1, w + 1));
        }
        m
    }

    fn comment_rules(s: &[u8]) -> Vec<(u8, usize, usize)> {
        let mut m = Vec::new();
        let c = count(s, |c| c != b'*' && c != b'\n');
        if c > 0 {
            m.push((1, c, c));
        }
        let stars = count(s, |c| c == b'*');
        if stars > 0 {
            let n = stars + count(&s[stars..], |c| !matches!(c, b'*' | b'/' | b'\n'));
            m.push((2, n, n));
            if s.get(stars) == Some(&b'/') {
                m.push((4, stars + 1, stars + 1));
            }
        }
        if s[0] == b'\n' {
            m.push((3, 1, 1));
        }
        m
    }

    /// `yylex`: the next token, its text in `self.text`.
    fn lex(&mut self) -> i32 {
        loop {
            if self.pos >= self.buf.len() {
                self.done = true;
                return DONE;
            }
            let s = &self.buf[self.pos..];
            let rules = match self.state {
                State::Initial => Self::initial(s),
                State::Value => Self::value_rules(s),
                State::McaValue => Self::mca_value_rules(s),
                State::Comment => Self::comment_rules(s),
            };
            // Longest total length; the first rule listed wins a tie.
            let best = rules
                .iter()
                .fold(None::<(u8, usize, usize)>, |b, &r| match b {
                    Some(b) if b.1 >= r.1 => Some(b),
                    _ => Some(r),
                });
            let Some((rule, _, take)) = best else {
                // flex's default rule copies an unmatched character to stdout.
                use std::io::Write;
                let _ = std::io::stdout().write_all(&s[..1]);
                self.pos += 1;
                continue;
            };
            self.text = s[..take].to_vec();
            self.pos += take;
            self.lineno += self.text.iter().filter(|&&c| c == b'\n').count() as c_int;
            match (self.state, rule) {
                (State::Initial, 1..=3) => {
                    self.newlines += 1;
                    return NEWLINE;
                }
                (State::Initial, 4) => {
                    self.state = State::Comment;
                    return NEWLINE;
                }
                (State::Initial, 5) => {
                    self.state = State::Value;
                    return EQUAL;
                }
                (State::Initial, 6) => continue,
                (State::Initial, 7) => return SINGLE_WORD,
                (State::Initial, 8) => {
                    self.state = State::McaValue;
                    return MCAVAR;
                }
                (State::Initial, 9) => {
                    self.state = State::McaValue;
                    return ENVEQL;
                }
                (State::Initial, 10) => return ENVVAR,
                (State::Initial, _) => return ERROR,
                (State::Value, 1) => {
                    self.state = State::Initial;
                    return NEWLINE;
                }
                (State::Value, _) => return VALUE,
                (State::McaValue, 4) => {
                    self.state = State::Initial;
                    return NEWLINE;
                }
                (State::McaValue, _) => {
                    self.state = State::Initial;
                    return VALUE;
                }
                (State::Comment, 3) => {
                    self.newlines += 1;
                    return NEWLINE;
                }
                (State::Comment, 4) => {
                    self.state = State::Initial;
                    return NEWLINE;
                }
                (State::Comment, _) => continue,
            }
        }
    }
}

/// What the parser hands to its callback: the name, the value (none for `name =`), and the
/// line number of the last `name = value` line read (the `-mca` forms do not update it).
pub(crate) type Sink<'a> = dyn FnMut(&[u8], Option<&[u8]>, c_int) + 'a;

/// The parser's state that lives across files, as OpenPMIx's globals do.
struct Keyval {
    /// `pmix_util_keyval_parse_lineno`.
    lineno: c_int,
    /// The `-x` settings seen so far, `;`-separated.
    env: Vec<u8>,
    /// `pmix_mca_base_parse_paramfile`'s current file and list, for the `-x` store.
    file: *mut c_char,
    list: *mut List,
}

// SAFETY: the raw pointers are only used under the mutex, on the caller's objects.
unsafe impl Send for Keyval {}

static KEYVAL: Mutex<Keyval> = Mutex::new(Keyval {
    lineno: 0,
    env: Vec::new(),
    file: ptr::null_mut(),
    list: ptr::null_mut(),
});

fn isspace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Removes an optional `prefix`, surrounding white space, and an optional `suffix` with the
/// white space before it, as OpenPMIx's `trim_name` does on a C string.
fn trim_name(s: &[u8], prefix: Option<&[u8]>, suffix: Option<&[u8]>) -> Vec<u8> {
    let mut b = s.to_vec();
    b.push(0);
    let len = s.len();
    let mut p = 0;
    if let Some(pre) = prefix {
        if s.starts_with(pre) {
            p += pre.len();
        }
    }
    while isspace(b[p]) {
        p += 1;
    }
    let mut e = len;
    while e > 0 && isspace(b[e - 1]) {
        e -= 1;
    }
    b[e] = 0;
    if let Some(suf) = suffix {
        if e > suf.len() {
            e -= suf.len();
            if b[e..].starts_with(suf) {
                loop {
                    e -= 1;
                    if e == 0 || !isspace(b[e]) {
                        break;
                    }
                }
                b[e + 1] = 0;
            }
        }
    }
    let end = b[p..]
        .iter()
        .position(|&c| c == 0)
        .map_or(b.len(), |q| p + q);
    b[p..end].to_vec()
}

fn parse_error(out: &mut Vec<Notice>, num: i32, file: &[u8], lx: &Lexer) {
    let msg = format!(
        "keyval parser: error {num} reading file {} at line {}:\n  {}\n",
        String::from_utf8_lossy(file),
        lx.newlines,
        String::from_utf8_lossy(&lx.text)
    );
    out.push(Notice::Output(msg));
}

/// `pmix_util_keyval_parse`: reads `filename` and calls `sink` for each setting; parse
/// errors become notices. `PMIX_ERR_NOT_FOUND` if the file cannot be opened.
pub(crate) fn parse(filename: &[u8], sink: &mut Sink<'_>, out: &mut Vec<Notice>) -> c_int {
    let mut kv = KEYVAL.lock().unwrap_or_else(|e| e.into_inner());
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(filename));
    let Ok(buf) = std::fs::read(path) else {
        return ERR_NOT_FOUND;
    };
    let mut lx = Lexer::new(buf);
    while !lx.done {
        match lx.lex() {
            DONE | NEWLINE => {}
            SINGLE_WORD => {
                parse_line(&mut kv, &mut lx, filename, sink, out);
            }
            v @ (MCAVAR | ENVVAR | ENVEQL) => {
                parse_line_new(&mut kv, &mut lx, v, filename, sink, out);
            }
            _ => parse_error(out, 1, filename, &lx),
        }
    }
    SUCCESS
}

fn parse_line(
    kv: &mut Keyval,
    lx: &mut Lexer,
    file: &[u8],
    sink: &mut Sink<'_>,
    out: &mut Vec<Notice>,
) -> c_int {
    kv.lineno = lx.lineno;
    let key = lx.text.clone();
    let v = lx.lex();
    if lx.done || v != EQUAL {
        parse_error(out, 2, file, lx);
        return PMIX_ERROR;
    }
    let v = lx.lex();
    if v == SINGLE_WORD || v == VALUE {
        let text = lx.text.clone();
        sink(&key, Some(&text), kv.lineno);
        let v = lx.lex();
        if v == NEWLINE || v == DONE {
            return SUCCESS;
        }
    } else if v == DONE || v == NEWLINE {
        sink(&key, None, kv.lineno);
        return SUCCESS;
    }
    parse_error(out, 3, file, lx);
    PMIX_ERROR
}

fn add_to_env(kv: &mut Keyval, var: &[u8], val: Option<&[u8]>) {
    if !kv.env.is_empty() {
        kv.env.push(b';');
    }
    kv.env.extend_from_slice(var);
    if let Some(v) = val {
        kv.env.push(b'=');
        kv.env.extend_from_slice(v);
    }
}

fn parse_line_new(
    kv: &mut Keyval,
    lx: &mut Lexer,
    first: i32,
    file: &[u8],
    sink: &mut Sink<'_>,
    out: &mut Vec<Notice>,
) -> c_int {
    let mut v = first;
    while v != NEWLINE && v != DONE {
        let key = lx.text.clone();
        match v {
            MCAVAR => {
                let key = trim_name(&key, Some(b"-mca"), None);
                let key = trim_name(&key, Some(b"--mca"), None);
                if lx.lex() != VALUE {
                    parse_error(out, 4, file, lx);
                    return PMIX_ERROR;
                }
                let mut val = lx.text.clone();
                if matches!(val.first(), Some(b'\'' | b'"')) {
                    val = trim_name(&val, Some(b"'"), Some(b"'"));
                    val = trim_name(&val, Some(b"\""), Some(b"\""));
                }
                sink(&key, Some(&val), kv.lineno);
            }
            ENVEQL => {
                let key = trim_name(&key, Some(b"-x"), Some(b"="));
                let key = trim_name(&key, Some(b"--x"), None);
                if lx.lex() != VALUE {
                    parse_error(out, 5, file, lx);
                    return PMIX_ERROR;
                }
                let val = lx.text.clone();
                add_to_env(kv, &key, Some(&val));
            }
            ENVVAR => {
                let key = trim_name(&key, Some(b"-x"), Some(b"="));
                let key = trim_name(&key, Some(b"--x"), None);
                add_to_env(kv, &key, None);
            }
            _ => {
                parse_error(out, 6, file, lx);
                return PMIX_ERROR;
            }
        }
        v = lx.lex();
    }
    SUCCESS
}

/// The `save_value` of the parameter-file reader: a name already on `list` takes the new
/// value, file and line in place; a new name is appended.
///
/// # Safety
/// `list` is a constructed list of file values; `file` outlives the items.
unsafe fn save_value(
    list: *mut List,
    file: *mut c_char,
    name: &[u8],
    value: Option<&[u8]>,
    lineno: c_int,
) {
    // SAFETY: per the contract; strings are made with libc.
    unsafe {
        let mut fv: *mut FileValue = ptr::null_mut();
        for it in list::items(list) {
            let f = it as *mut FileValue;
            if !(*f).mbvfv_var.is_null() && CStr::from_ptr((*f).mbvfv_var).to_bytes() == name {
                libc::free((*f).mbvfv_value.cast());
                fv = f;
                break;
            }
        }
        if fv.is_null() {
            fv = object::new(&raw mut pmix_mca_base_var_file_value_t_class) as *mut FileValue;
            if fv.is_null() {
                return;
            }
            (*fv).mbvfv_var = super::dup(name);
            list::append(list, fv as *mut ListItem);
        }
        (*fv).mbvfv_value = value.map_or(ptr::null_mut(), super::dup);
        (*fv).mbvfv_file = file;
        (*fv).mbvfv_lineno = lineno;
    }
}

/// Parses `paramfile` onto `list` (the registry's reader and the export share it).
///
/// # Safety
/// `paramfile` is a C string that outlives the items; `list` a constructed list of file
/// values.
pub(crate) unsafe fn parse_paramfile(
    paramfile: *const c_char,
    list: *mut List,
    out: &mut Vec<Notice>,
) -> c_int {
    if paramfile.is_null() || list.is_null() {
        return ERR_NOT_FOUND;
    }
    // SAFETY: per the contract.
    let name = unsafe { CStr::from_ptr(paramfile) }.to_bytes().to_vec();
    {
        let mut kv = KEYVAL.lock().unwrap_or_else(|e| e.into_inner());
        kv.file = paramfile.cast_mut();
        kv.list = list;
    }
    let file = paramfile.cast_mut();
    // SAFETY: per the contract.
    let mut sink =
        |k: &[u8], v: Option<&[u8]>, line: c_int| unsafe { save_value(list, file, k, v, line) };
    parse(&name, &mut sink, out)
}

/// `pmix_mca_base_internal_env_store`: the `-x` settings read so far become one value
/// named `mca_base_env_list_internal` on the last list read into.
pub(crate) fn env_store() {
    let mut kv = KEYVAL.lock().unwrap_or_else(|e| e.into_inner());
    if kv.env.is_empty() || kv.list.is_null() {
        return;
    }
    let env = std::mem::take(&mut kv.env);
    let (list, file, line) = (kv.list, kv.file, kv.lineno);
    drop(kv);
    // SAFETY: the list and file the last parse was given, still alive in the registry.
    unsafe { save_value(list, file, b"mca_base_env_list_internal", Some(&env), line) }
}

/// `pmix_mca_base_parse_paramfile(paramfile, list)`: appends (or updates) one
/// `pmix_mca_base_var_file_value_t` per setting in the file; each item's `mbvfv_file` is
/// `paramfile` itself. `PMIX_ERR_NOT_FOUND` if the file cannot be read.
///
/// # Safety
/// `paramfile` is a C string that outlives the items; `list` a constructed `pmix_list_t`
/// whose items are file values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_parse_paramfile(
    paramfile: *const c_char,
    list: *mut List,
) -> c_int {
    let mut out = Vec::new();
    // SAFETY: per the contract.
    let rc = unsafe { parse_paramfile(paramfile, list, &mut out) };
    super::emit(out);
    rc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_all(s: &str) -> Vec<(i32, String)> {
        let mut lx = Lexer::new(s.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            let t = lx.lex();
            out.push((t, String::from_utf8_lossy(&lx.text).into_owned()));
            if t == DONE {
                return out;
            }
        }
    }

    fn parse_str(s: &str) -> Vec<(String, Option<String>, c_int)> {
        let dir = std::env::temp_dir().join(format!("mcavar-kv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(format!(
            "{:x}.conf",
            s.len() * 31 + s.bytes().map(usize::from).sum::<usize>()
        ));
        std::fs::write(&f, s).unwrap();
        let mut got = Vec::new();
        let mut sink = |k: &[u8], v: Option<&[u8]>, l: c_int| {
            got.push((
                String::from_utf8_lossy(k).into_owned(),
                v.map(|v| String::from_utf8_lossy(v).into_owned()),
                l,
            ))
        };
        let mut out = Vec::new();
        let rc = parse(f.to_str().unwrap().as_bytes(), &mut sink, &mut out);
        assert_eq!(rc, SUCCESS);
        assert!(out.is_empty(), "no parse error");
        got
    }

    #[test]
    fn a_setting_is_a_word_an_equal_sign_and_the_rest_of_the_line() {
        assert_eq!(
            lex_all("a = x y  \n"),
            [
                (SINGLE_WORD, "a".into()),
                (EQUAL, " = ".into()),
                (VALUE, "x y".into()),
                (NEWLINE, "  \n".into()),
                (DONE, "  \n".into())
            ]
        );
    }

    #[test]
    fn settings_comments_and_mca_forms_parse_as_openpmix_does() {
        let got = parse_str(
            "a = 1\nb=2   \n  c   =   x y z  \t \n# comment\n\nd = \"quoted\"\n// c2\n\
             /* block\n comment */\ne =\n--mca i 5\n-mca j \"q v\" \nf = last",
        );
        let want: Vec<(String, Option<String>, c_int)> = vec![
            ("a".into(), Some("1".into()), 1),
            ("b".into(), Some("2".into()), 2),
            ("c".into(), Some("x y z".into()), 3),
            ("d".into(), Some("\"quoted\"".into()), 6),
            ("e".into(), None, 10),
            ("i".into(), Some("5".into()), 10),
            ("j".into(), Some("q v".into()), 10),
            ("f".into(), Some("last".into()), 13),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn trim_name_drops_prefix_blanks_and_suffix() {
        assert_eq!(trim_name(b"-x FOO=", Some(b"-x"), Some(b"=")), b"FOO");
        assert_eq!(trim_name(b"--mca i ", Some(b"-mca"), None), b"--mca i");
        assert_eq!(trim_name(b"\"q v\" ", Some(b"\""), Some(b"\"")), b"q v");
        assert_eq!(trim_name(b"  ", None, None), b"");
    }
}
