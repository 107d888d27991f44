//! The command-line parser (`pmix_cmd_line_parse`), its two classes and the tool identity
//! strings (`pmix_tool_*`) that the parser prints in help and version output.
//!
//! PRRTE's schizo components call the parser with their own `struct option` table and
//! short-option string, then read the result through inline code of `pmix_cmd_line.h`
//! (`pmix_cmd_line_get_param`, `is_taken`, `get_ninsts`, `PMIX_CLI_REMOVE_DEPRECATED`): a list
//! of `pmix_cli_item_t` (one per option, its values a NULL-terminated libc argv) and the
//! `tail`, what follows the options (the program and its arguments).
//!
//! How it behaves (OpenPMIx 5.0.11's behaviour, checked against its library in
//! `tests/tests/internals_cli.rs`):
//! - glibc's `getopt_long` does the scanning, restarted for every parse (`optind` 0), on a copy
//!   of the argument vector (glibc permutes the vector it is given).
//! - Scanning stops at the first argument that does not start with '-'; that argument and the
//!   rest become the tail (an "&" there means "run in the background" and gives no tail).
//! - A long option with no short letter whose name ends in "mca" (`--mca`, `--prtemca`, ...)
//!   takes two arguments, stored as one value "key=value"; `--prepend-env` and `--append-env`
//!   take two, stored as two values.
//! - A short letter is stored under the first long option that has that letter as `val`;
//!   `-np N` (seen by getopt as `-n` with argument "p") stores N under "np".
//! - A `-v` cluster is stored, once complete, as its number of letters ("-vvv" gives "3"),
//!   under the name of the long option getopt reported last (the table's first entry when
//!   none was), as OpenPMIx does.
//! - `-h`/`--help` prints help (the tool's "usage" topic, or one option's topic) and `-V`/
//!   `--version` the tool's "version" topic, both to stdout, and answer
//!   `PMIX_OPERATION_SUCCEEDED`; an error prints a message from `help-cli.txt` to stderr and
//!   answers `PMIX_ERR_SILENT` (the caller prints nothing more).
//! - "--" ends the options: what follows is the tail.
//! - A line of the program name alone is not scanned: the name itself becomes the tail.
//!
//! Where OpenPMIx reads past the end of the vector (a two-argument option missing its second
//! argument, `-np` last on the line) we stop at the end instead: a two-argument option missing
//! its second argument is reported as a missing argument, `-np` last stores "np" without a value.

use crate::list::{self, List, ListItem};
use crate::object::{self, Object, pmix_object_t_class};
use core::ffi::{CStr, c_char, c_int};
use core::ptr;

/// `PMIX_SUCCESS`.
pub const PMIX_SUCCESS: c_int = 0;
/// `PMIX_ERR_SILENT`: an error already reported to the user.
pub const PMIX_ERR_SILENT: c_int = -2;
/// `PMIX_ERR_BAD_PARAM`.
pub const PMIX_ERR_BAD_PARAM: c_int = -27;
/// `PMIX_OPERATION_SUCCEEDED`: help or version was printed; the caller should just exit.
pub const PMIX_OPERATION_SUCCEEDED: c_int = -157;

/// glibc's `no_argument`, `required_argument`, `optional_argument` (`PMIX_ARG_*`).
pub const NO_ARGUMENT: c_int = 0;
pub const REQUIRED_ARGUMENT: c_int = 1;
pub const OPTIONAL_ARGUMENT: c_int = 2;

/// `pmix_cli_item_t` (160 bytes): one option given on the command line.
#[repr(C)]
#[derive(Debug)]
pub struct CliItem {
    pub super_: ListItem,
    /// The option's long name (libc string).
    pub key: *mut c_char,
    /// Its values in the order given, a NULL-terminated libc argv; NULL when it had none.
    pub values: *mut *mut c_char,
}

/// `pmix_cli_result_t` (400 bytes): the parse's result.
#[repr(C)]
#[derive(Debug)]
pub struct CliResult {
    pub super_: Object,
    /// The `CliItem`s, in the order their options first appeared.
    pub instances: List,
    /// What follows the options, a NULL-terminated libc argv, or NULL.
    pub tail: *mut *mut c_char,
}

/// `pmix_cmd_line_store_fn_t`: stores `option` (NULL for a flag) under `name`.
pub type StoreFn = Option<unsafe extern "C" fn(*const c_char, *const c_char, *mut CliResult)>;

unsafe extern "C" fn item_construct(o: *mut Object) {
    let item = o as *mut CliItem;
    // SAFETY: called on an item being constructed.
    unsafe {
        (*item).key = ptr::null_mut();
        (*item).values = ptr::null_mut();
    }
}

unsafe extern "C" fn item_destruct(o: *mut Object) {
    let item = o as *mut CliItem;
    // SAFETY: called on a constructed item, whose strings are libc's.
    unsafe {
        libc::free((*item).key.cast());
        argv_free((*item).values);
    }
}

unsafe extern "C" fn result_construct(o: *mut Object) {
    let r = o as *mut CliResult;
    // SAFETY: called on a result being constructed; the list is embedded.
    unsafe {
        object::construct((&raw mut (*r).instances).cast(), list::list_class());
        (*r).tail = ptr::null_mut();
    }
}

unsafe extern "C" fn result_destruct(o: *mut Object) {
    let r = o as *mut CliResult;
    // SAFETY: called on a constructed result: its items were made by `new`.
    unsafe {
        let l = &raw mut (*r).instances;
        list::release_all(l);
        object::destruct(l.cast());
        argv_free((*r).tail);
    }
}

crate::class!(
    pmix_cli_item_t_class,
    CliItem,
    list::item_class(),
    Some(item_construct),
    Some(item_destruct)
);
crate::class!(
    pmix_cli_result_t_class,
    CliResult,
    &raw mut pmix_object_t_class,
    Some(result_construct),
    Some(result_destruct)
);

/// The tool's name in help and error messages; NULL until the tool sets it.
#[unsafe(no_mangle)]
pub static mut pmix_tool_basename: *const c_char = ptr::null();
/// The organization named in version output.
#[unsafe(no_mangle)]
pub static mut pmix_tool_org: *const c_char = c"PMIx".as_ptr();
/// The version named in version output: this library's (`PMIX_VERSION` of our headers; OpenPMIx
/// 5.0.11rc1 says "5.0.11rc1").
#[unsafe(no_mangle)]
pub static mut pmix_tool_version: *const c_char = c"5.0.11".as_ptr();
/// Where to report bugs, in version and help output.
#[unsafe(no_mangle)]
pub static mut pmix_tool_msg: *const c_char = c"https://github.com/openpmix/openpmix".as_ptr();

unsafe extern "C" {
    static mut optind: c_int;
    static mut opterr: c_int;
    static mut optopt: c_int;
    static mut optarg: *mut c_char;
    static mut stdout: *mut libc::FILE;
    static mut stderr: *mut libc::FILE;

    // The help family's functions (src/output.rs), with OpenPMIx's prototypes.
    fn pmix_show_help_string(
        filename: *const c_char,
        topic: *const c_char,
        want_error_header: c_int,
        ...
    ) -> *mut c_char;
    fn pmix_output(output_id: c_int, format: *const c_char, ...);
}

// ---- libc argv arrays (NULL-terminated, each string and the array from malloc) ----

/// Number of strings in `argv` (0 for NULL).
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array.
pub unsafe fn argv_count(argv: *const *mut c_char) -> usize {
    let mut n = 0;
    if argv.is_null() {
        return 0;
    }
    // SAFETY: per the contract.
    unsafe {
        while !(*argv.add(n)).is_null() {
            n += 1;
        }
    }
    n
}

/// Appends a copy of `s` to `*argv` (creating the array when NULL). False when out of memory.
///
/// # Safety
/// `*argv` is NULL or a libc argv; `s` a C string.
unsafe fn argv_append(argv: *mut *mut *mut c_char, s: *const c_char) -> bool {
    // SAFETY: per the contract; the array grows by one slot plus its terminator.
    unsafe {
        let n = argv_count(*argv);
        let grown = libc::realloc((*argv).cast(), (n + 2) * size_of::<*mut c_char>());
        if grown.is_null() {
            return false;
        }
        let a = grown as *mut *mut c_char;
        *argv = a;
        let d = libc::strdup(s);
        if d.is_null() {
            *a.add(n) = ptr::null_mut();
            return false;
        }
        *a.add(n) = d;
        *a.add(n + 1) = ptr::null_mut();
        true
    }
}

/// A libc copy of `argv` (an empty array for an empty one), NULL for NULL.
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings.
unsafe fn argv_copy(argv: *const *mut c_char) -> *mut *mut c_char {
    if argv.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: per the contract.
    unsafe {
        let out = libc::calloc(1, size_of::<*mut c_char>()) as *mut *mut c_char;
        if out.is_null() {
            return out;
        }
        let mut copy = out;
        let mut i = 0;
        while !(*argv.add(i)).is_null() {
            if !argv_append(&mut copy, *argv.add(i)) {
                argv_free(copy);
                return ptr::null_mut();
            }
            i += 1;
        }
        copy
    }
}

/// Frees a libc argv and its strings.
///
/// # Safety
/// `argv` is NULL or a libc argv no longer used.
unsafe fn argv_free(argv: *mut *mut c_char) {
    if argv.is_null() {
        return;
    }
    // SAFETY: per the contract.
    unsafe {
        let mut i = 0;
        while !(*argv.add(i)).is_null() {
            libc::free((*argv.add(i)).cast());
            i += 1;
        }
        libc::free(argv.cast());
    }
}

// ---- the default store ----

/// The first item of `results` whose key is `key` (`pmix_cmd_line_get_param`), or NULL.
///
/// # Safety
/// `results` is a constructed result.
pub unsafe fn get_param(results: *mut CliResult, key: &CStr) -> *mut CliItem {
    // SAFETY: per the contract: the list holds CliItems with C-string keys.
    unsafe {
        for i in list::items(&raw mut (*results).instances) {
            let item = i as *mut CliItem;
            let k = (*item).key;
            if !k.is_null() && CStr::from_ptr(k) == key {
                return item;
            }
        }
    }
    ptr::null_mut()
}

/// Whether `key` was given (`pmix_cmd_line_is_taken`).
///
/// # Safety
/// As `get_param`.
pub unsafe fn is_taken(results: *mut CliResult, key: &CStr) -> bool {
    // SAFETY: forwarded contract.
    !unsafe { get_param(results, key) }.is_null()
}

/// The values stored under `key`, in order (empty when absent or a flag).
///
/// # Safety
/// As `get_param`.
pub unsafe fn values(results: *mut CliResult, key: &CStr) -> Vec<String> {
    // SAFETY: forwarded contract; values is a C argv.
    unsafe {
        let item = get_param(results, key);
        if item.is_null() {
            return Vec::new();
        }
        strings((*item).values)
    }
}

/// The tail (program and arguments), empty when none.
///
/// # Safety
/// `results` is a constructed result.
pub unsafe fn tail(results: *mut CliResult) -> Vec<String> {
    // SAFETY: per the contract.
    unsafe { strings((*results).tail) }
}

/// The strings of a C argv (lossy UTF-8).
///
/// # Safety
/// `argv` is NULL or a NULL-terminated array of C strings.
unsafe fn strings(argv: *const *mut c_char) -> Vec<String> {
    // SAFETY: per the contract.
    unsafe {
        (0..argv_count(argv))
            .map(|i| CStr::from_ptr(*argv.add(i)).to_string_lossy().into_owned())
            .collect()
    }
}

/// The default store: adds `option` (if not NULL) to the item `name`, creating it first.
unsafe extern "C" fn store_default(
    name: *const c_char,
    option: *const c_char,
    results: *mut CliResult,
) {
    if name.is_null() || results.is_null() {
        return;
    }
    // SAFETY: called by the parser with a constructed result and C strings.
    unsafe {
        let mut item = get_param(results, CStr::from_ptr(name));
        if item.is_null() {
            item = object::new(&raw mut pmix_cli_item_t_class) as *mut CliItem;
            if item.is_null() {
                return;
            }
            (*item).key = libc::strdup(name);
            list::append(&raw mut (*results).instances, item.cast());
        }
        if !option.is_null() {
            argv_append(&raw mut (*item).values, option);
        }
    }
}

// ---- the parser ----

/// What one step of the scan decided.
enum Step {
    /// Scan the next argument.
    Next,
    /// The options are over: the rest from `optind` is the tail.
    Done,
    /// Return this code now (the tail, if any, is already set).
    Return(c_int),
}

/// A table entry with no name: where PRRTE's tables end (`PMIX_OPTION_END`).
const END: libc::option = libc::option {
    name: ptr::null(),
    has_arg: 0,
    flag: ptr::null_mut(),
    val: 0,
};

struct Parser {
    /// The copy getopt scans (and permutes), NULL-terminated; its strings are the caller's.
    argv: Vec<*mut c_char>,
    argc: c_int,
    shorts: *const c_char,
    longs: *const libc::option,
    nlongs: usize,
    store: unsafe extern "C" fn(*const c_char, *const c_char, *mut CliResult),
    results: *mut CliResult,
    helpfile: *const c_char,
    /// Where getopt_long reports the long option it matched.
    option_index: c_int,
}

/// The string at `s`, or an empty one for NULL.
///
/// # Safety
/// `s` is NULL or a C string.
unsafe fn bytes<'a>(s: *const c_char) -> &'a [u8] {
    if s.is_null() {
        return b"";
    }
    // SAFETY: per the contract.
    unsafe { CStr::from_ptr(s) }.to_bytes()
}

/// `s` past its first `n` bytes, or its terminator when it is shorter.
///
/// # Safety
/// `s` is a C string.
unsafe fn skip(s: *mut c_char, n: usize) -> *mut c_char {
    // SAFETY: per the contract; never past the terminator.
    unsafe { s.add(n.min(bytes(s).len())) }
}

fn global_optind() -> c_int {
    // SAFETY: glibc's int; parsing is single-threaded by nature (getopt has global state).
    unsafe { ptr::read_volatile(&raw const optind) }
}

fn set_global_optind(v: c_int) {
    // SAFETY: as above.
    unsafe { ptr::write_volatile(&raw mut optind, v) }
}

fn global_optarg() -> *mut c_char {
    // SAFETY: as above.
    unsafe { ptr::read_volatile(&raw const optarg) }
}

fn tool(s: *const *const c_char) -> *const c_char {
    // SAFETY: one of our exported pointers (its canonical copy may be the executable's).
    unsafe { ptr::read_volatile(s) }
}

fn basename() -> *const c_char {
    tool(&raw const pmix_tool_basename)
}

/// Writes `s` (and a newline when asked) to C's stdout or stderr and frees it.
///
/// # Safety
/// `s` is NULL or a malloc'd C string.
unsafe fn emit(s: *mut c_char, to_stdout: bool) {
    if s.is_null() {
        return;
    }
    // SAFETY: glibc's streams; `s` is the show_help string handed to us.
    unsafe {
        let f = if to_stdout {
            ptr::read_volatile(&raw const stdout)
        } else {
            ptr::read_volatile(&raw const stderr)
        };
        libc::fputs(s, f);
        if to_stdout {
            libc::fputc(b'\n' as c_int, f);
        }
        libc::fflush(f);
        libc::free(s.cast());
    }
}

impl Parser {
    /// `argv[i]`, NULL outside the vector.
    fn arg(&self, i: c_int) -> *mut c_char {
        if i < 0 || i >= self.argc {
            return ptr::null_mut();
        }
        self.argv[i as usize]
    }

    fn long(&self, i: usize) -> &libc::option {
        // SAFETY: i < nlongs, counted up to the table's terminator.
        unsafe { &*self.longs.add(i) }
    }

    /// Stores `value` under `name` through the caller's store or ours.
    ///
    /// # Safety
    /// `name` is a C string, `value` NULL or one.
    unsafe fn put(&self, name: *const c_char, value: *const c_char) {
        if name.is_null() {
            return;
        }
        // SAFETY: per the contract; the result is the caller's constructed one.
        unsafe { (self.store)(name, value, self.results) }
    }

    fn run(&mut self) -> c_int {
        // Restart glibc's scanner: a previous parse must leave nothing behind.
        set_global_optind(0);
        // SAFETY: glibc's getopt globals.
        unsafe {
            ptr::write_volatile(&raw mut opterr, 0);
            ptr::write_volatile(&raw mut optopt, 0);
            ptr::write_volatile(&raw mut optarg, ptr::null_mut());
        }
        if self.argc != 1 {
            loop {
                let argind = global_optind();
                if argind >= self.argc
                    || (argind > 0 && bytes_at(self.arg(argind)).first() != Some(&b'-'))
                {
                    break;
                }
                // SAFETY: a NULL-terminated vector, the caller's option string and table.
                let opt = unsafe {
                    libc::getopt_long(
                        self.argc,
                        self.argv.as_ptr(),
                        self.shorts,
                        self.longs,
                        &mut self.option_index,
                    )
                };
                let step = match opt {
                    0 => self.long_only(),
                    _ if opt == b'h' as c_int => Step::Return(self.help()),
                    _ if opt == b'V' as c_int => Step::Return(self.version()),
                    _ if opt == b'v' as c_int => self.verbose(),
                    _ => self.other(opt, argind),
                };
                match step {
                    Step::Next => {}
                    Step::Done => break,
                    Step::Return(rc) => return rc,
                }
            }
        }
        // The rest is the program and its arguments, unless it is a lone "&".
        let ind = global_optind();
        if ind >= 0 && ind < self.argc && bytes_at(self.argv[ind as usize]) != b"&" {
            // SAFETY: a NULL-terminated suffix of the vector.
            unsafe { (*self.results).tail = argv_copy(self.argv.as_ptr().add(ind as usize)) };
        }
        PMIX_SUCCESS
    }

    /// A long option without a short letter (getopt answered 0).
    fn long_only(&mut self) -> Step {
        let idx = self.option_index;
        if idx < 0 || idx as usize >= self.nlongs {
            return Step::Next;
        }
        let name = self.long(idx as usize).name;
        // SAFETY: a name from the caller's table.
        let n = unsafe { bytes(name) };
        let ind = global_optind();
        if n.ends_with(b"mca") || n == b"prepend-env" || n == b"append-env" {
            // Two arguments: getopt took the first; the second is at optind.
            let first = self.arg(ind - 1);
            let second = self.arg(ind);
            if first.is_null() || second.is_null() {
                return Step::Return(self.missing_second(name));
            }
            // SAFETY: C strings of the vector and the table.
            unsafe {
                if n.ends_with(b"mca") {
                    let mut kv = bytes(first).to_vec();
                    kv.push(b'=');
                    kv.extend_from_slice(bytes(second));
                    kv.push(0);
                    self.put(name, kv.as_ptr().cast());
                } else {
                    self.put(name, first);
                    self.put(name, second);
                }
            }
            set_global_optind(ind + 1);
            return Step::Next;
        }
        // SAFETY: as above; optarg is getopt's.
        unsafe { self.put(name, global_optarg()) };
        Step::Next
    }

    /// A two-argument option at the end of the line (OpenPMIx reads past the vector there).
    fn missing_second(&self, name: *const c_char) -> c_int {
        // SAFETY: our strings and the table's name.
        unsafe {
            let mut opt = b"--".to_vec();
            opt.extend_from_slice(bytes(name));
            opt.push(0);
            let b = basename();
            emit(
                pmix_show_help_string(
                    c"help-cli.txt".as_ptr(),
                    c"missing-argument".as_ptr(),
                    1,
                    b,
                    opt.as_ptr().cast::<c_char>(),
                    b,
                    name,
                ),
                false,
            );
        }
        PMIX_ERR_SILENT
    }

    /// `-h`/`--help`, optionally about one option.
    fn help(&self) -> c_int {
        let arg = global_optarg();
        let next = self.arg(global_optind());
        let b = basename();
        // SAFETY: our strings, the caller's helpfile and vector, the tool strings.
        unsafe {
            if !arg.is_null() {
                // "--help=X" is not a form the help system knows.
                emit(
                    pmix_show_help_string(
                        c"help-cli.txt".as_ptr(),
                        c"unrecognized-option".as_ptr(),
                        1,
                        b,
                        arg,
                    ),
                    false,
                );
                return PMIX_ERR_SILENT;
            }
            if next.is_null() {
                emit(
                    pmix_show_help_string(
                        self.helpfile,
                        c"usage".as_ptr(),
                        0,
                        b,
                        tool(&raw const pmix_tool_org),
                        tool(&raw const pmix_tool_version),
                        b,
                        tool(&raw const pmix_tool_msg),
                    ),
                    true,
                );
                return PMIX_OPERATION_SUCCEEDED;
            }
            // Help about the option that follows, named with or without its dashes.
            let mut topic = next;
            while *topic == b'-' as c_char {
                topic = topic.add(1);
            }
            let cli = c"help-cli.txt".as_ptr();
            match bytes(topic) {
                b"version" | b"V" => {
                    let s = pmix_show_help_string(cli, c"version".as_ptr(), 0);
                    pmix_output(0, c"HELP VERSION".as_ptr());
                    emit(s, true);
                }
                b"verbose" | b"v" => emit(pmix_show_help_string(cli, c"verbose".as_ptr(), 0), true),
                b"help" | b"h" => emit(
                    pmix_show_help_string(cli, c"help".as_ptr(), 0, b, b, b, b, b, b, b, b),
                    true,
                ),
                _ => {
                    let s = pmix_show_help_string(self.helpfile, topic, 0);
                    if s.is_null() {
                        emit(
                            pmix_show_help_string(cli, c"unknown-option".as_ptr(), 1, topic, b),
                            false,
                        );
                    } else {
                        emit(s, true);
                    }
                }
            }
        }
        PMIX_OPERATION_SUCCEEDED
    }

    /// `-V`/`--version`.
    fn version(&self) -> c_int {
        // SAFETY: the caller's helpfile and the tool strings.
        unsafe {
            emit(
                pmix_show_help_string(
                    self.helpfile,
                    c"version".as_ptr(),
                    0,
                    basename(),
                    tool(&raw const pmix_tool_org),
                    tool(&raw const pmix_tool_version),
                    tool(&raw const pmix_tool_msg),
                ),
                true,
            );
        }
        PMIX_OPERATION_SUCCEEDED
    }

    /// One 'v': counted once getopt has finished the "-v..." argument that holds it.
    fn verbose(&self) -> Step {
        let done = self.arg(global_optind() - 1);
        // SAFETY: a string of the vector.
        let s = unsafe { bytes(done) };
        if !s.starts_with(b"-v") {
            return Step::Next;
        }
        let idx = self.option_index;
        if idx < 0 || idx as usize >= self.nlongs {
            return Step::Next;
        }
        let mut count = (s.len() - 1).to_string().into_bytes();
        count.push(0);
        // SAFETY: the table's name and our string.
        unsafe { self.put(self.long(idx as usize).name, count.as_ptr().cast()) };
        Step::Next
    }

    /// Any other answer of getopt: a short letter, '?' (unknown or missing argument) or -1.
    fn other(&mut self, opt: c_int, argind: c_int) -> Step {
        // SAFETY: the caller's option string.
        let shorts = unsafe { bytes(self.shorts) };
        let b = basename();
        // The letter as C sees a plain char (signed on x86-64).
        if let Some(n) = shorts.iter().position(|&c| c as c_char as c_int == opt) {
            let ind = global_optind();
            let value = match (shorts.get(n + 1), shorts.get(n + 2)) {
                // "x::": an optional argument can only be attached ("-xfoo").
                (Some(b':'), Some(b':')) => {
                    let cur = self.arg(ind - 1);
                    if cur.is_null() {
                        ptr::null_mut()
                    } else {
                        // SAFETY: a string of the vector.
                        unsafe { skip(cur, 2) }
                    }
                }
                (Some(b':'), _) => global_optarg(),
                _ => ptr::null_mut(),
            };
            for m in 0..self.nlongs {
                let o = self.long(m);
                if o.val != opt {
                    continue;
                }
                let mut value = value;
                if o.has_arg == NO_ARGUMENT {
                    if !value.is_null() {
                        // SAFETY: our strings and the vector's.
                        unsafe {
                            emit(
                                pmix_show_help_string(
                                    c"help-cli.txt".as_ptr(),
                                    c"short-arg-error".as_ptr(),
                                    1,
                                    b,
                                    opt,
                                    value,
                                ),
                                false,
                            );
                        }
                        return Step::Return(PMIX_ERR_SILENT);
                    }
                    // SAFETY: the table's name.
                } else if unsafe { bytes(o.name) } == b"np"
                    // SAFETY: getopt's argument.
                    && unsafe { bytes(global_optarg()) } == b"p"
                    && !global_optarg().is_null()
                {
                    // "-np N": getopt saw "-n" with argument "p"; N is the next word.
                    value = self.arg(ind);
                    set_global_optind((ind + 1).min(self.argc));
                }
                // SAFETY: the table's name and a string of the vector, or NULL.
                unsafe { self.put(o.name, value) };
                return Step::Next;
            }
            // A letter of the string that no long option carries.
            if argind != 0 && bytes_at(self.arg(argind)).first() != Some(&b'-') {
                return Step::Done;
            }
            // SAFETY: a string of the vector.
            if unsafe { bytes(self.arg(ind - 1)) } == b"--" {
                // SAFETY: a NULL-terminated suffix of the vector (ind <= argc).
                unsafe {
                    (*self.results).tail = argv_copy(self.argv.as_ptr().add(ind as usize));
                }
                return Step::Return(PMIX_SUCCESS);
            }
            // SAFETY: our strings.
            unsafe {
                emit(
                    pmix_show_help_string(
                        c"help-cli.txt".as_ptr(),
                        c"short-no-long".as_ptr(),
                        1,
                        b,
                        opt,
                    ),
                    false,
                );
            }
            return Step::Return(PMIX_ERR_SILENT);
        }
        let ind = global_optind();
        let last = self.arg(ind - 1);
        // SAFETY: a string of the vector.
        let last_bytes = unsafe { bytes(last) };
        // An option of the table that getopt refused: its argument is missing.
        if last_bytes.len() >= 2 {
            let name = &last_bytes[2..];
            for m in 0..self.nlongs {
                let o = self.long(m);
                // SAFETY: the table's name.
                if unsafe { bytes(o.name) } == name {
                    // SAFETY: our strings and the vector's.
                    unsafe {
                        emit(
                            pmix_show_help_string(
                                c"help-cli.txt".as_ptr(),
                                c"missing-argument".as_ptr(),
                                1,
                                b,
                                last,
                                b,
                                last.add(2),
                            ),
                            false,
                        );
                    }
                    return Step::Return(PMIX_ERR_SILENT);
                }
            }
        }
        if last_bytes == b"--" || ind == 1 {
            // "--" ends the options; or the line has none, only a program.
            return Step::Done;
        }
        // SAFETY: our strings and the vector's.
        unsafe {
            emit(
                pmix_show_help_string(
                    c"help-cli.txt".as_ptr(),
                    c"unregistered-option".as_ptr(),
                    1,
                    b,
                    last,
                    b,
                ),
                false,
            );
        }
        Step::Return(PMIX_ERR_SILENT)
    }
}

/// The bytes of a string of the vector (empty for NULL).
fn bytes_at<'a>(s: *mut c_char) -> &'a [u8] {
    // SAFETY: NULL or a string of the vector being parsed.
    unsafe { bytes(s) }
}

/// `pmix_cmd_line_parse`: parses `argv` (program name first) with the option letters
/// `shorts` and the table `myoptions` into `results`, storing each option through `storefn`
/// (ours when NULL).
///
/// Answers `PMIX_SUCCESS`; `PMIX_OPERATION_SUCCEEDED` after printing help or the version;
/// `PMIX_ERR_SILENT` after printing an error about the line; `PMIX_ERR_BAD_PARAM` for a NULL
/// `results` (where OpenPMIx would crash).
///
/// # Safety
/// `argv` is NULL or NULL-terminated; `shorts` NULL or a C string; `myoptions` NULL or a
/// table ended by an entry with a NULL name; `results` a constructed `pmix_cli_result_t`;
/// `helpfile` a C string. Not thread-safe: glibc's `getopt_long` keeps global state.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_cmd_line_parse(
    argv: *mut *mut c_char,
    shorts: *mut c_char,
    myoptions: *mut libc::option,
    storefn: StoreFn,
    results: *mut CliResult,
    helpfile: *mut c_char,
) -> c_int {
    if results.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let argc = argv_count(argv);
        let mut copy: Vec<*mut c_char> = (0..argc).map(|i| *argv.add(i)).collect();
        copy.push(ptr::null_mut());
        let empty = [END];
        let longs: *const libc::option = if myoptions.is_null() {
            empty.as_ptr()
        } else {
            myoptions
        };
        let mut nlongs = 0;
        while !(*longs.add(nlongs)).name.is_null() {
            nlongs += 1;
        }
        let mut p = Parser {
            argv: copy,
            argc: c_int::try_from(argc).unwrap_or(c_int::MAX),
            shorts: if shorts.is_null() {
                c"".as_ptr()
            } else {
                shorts
            },
            longs,
            nlongs,
            store: storefn.unwrap_or(store_default),
            results,
            helpfile,
            option_index: 0,
        };
        p.run()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};
    use std::ffi::CString;
    use std::sync::Mutex;

    const FACTS: &str = include_str!("../facts/layouts-cli.txt");

    /// getopt's state is global: one parse at a time.
    static GETOPT: Mutex<()> = Mutex::new(());

    #[test]
    fn layouts_match_openpmix() {
        use crate::facts::layout;
        layout(
            FACTS,
            "pmix_cli_item_t",
            size_of::<CliItem>(),
            &[
                ("super", offset_of!(CliItem, super_)),
                ("key", offset_of!(CliItem, key)),
                ("values", offset_of!(CliItem, values)),
            ],
        );
        layout(
            FACTS,
            "pmix_cli_result_t",
            size_of::<CliResult>(),
            &[
                ("super", offset_of!(CliResult, super_)),
                ("instances", offset_of!(CliResult, instances)),
                ("tail", offset_of!(CliResult, tail)),
            ],
        );
        layout(
            FACTS,
            "option",
            size_of::<libc::option>(),
            &[
                ("name", offset_of!(libc::option, name)),
                ("has_arg", offset_of!(libc::option, has_arg)),
                ("flag", offset_of!(libc::option, flag)),
                ("val", offset_of!(libc::option, val)),
            ],
        );
    }

    /// An option table in the way PRRTE's prterun builds its own (a subset).
    struct Table {
        _names: Vec<CString>,
        opts: Vec<libc::option>,
    }

    fn table(entries: &[(&str, c_int, u8)]) -> Table {
        let names: Vec<CString> = entries
            .iter()
            .map(|(n, _, _)| CString::new(*n).unwrap())
            .collect();
        let mut opts: Vec<libc::option> = entries
            .iter()
            .zip(&names)
            .map(|((_, a, v), n)| libc::option {
                name: n.as_ptr(),
                has_arg: *a,
                flag: ptr::null_mut(),
                val: c_int::from(*v),
            })
            .collect();
        opts.push(END);
        Table {
            _names: names,
            opts,
        }
    }

    fn prterun_table() -> Table {
        table(&[
            ("help", OPTIONAL_ARGUMENT, b'h'),
            ("version", NO_ARGUMENT, b'V'),
            ("verbose", NO_ARGUMENT, b'v'),
            ("prtemca", REQUIRED_ARGUMENT, 0),
            ("pmixmca", REQUIRED_ARGUMENT, 0),
            ("np", REQUIRED_ARGUMENT, b'n'),
            ("np", REQUIRED_ARGUMENT, b'c'),
            ("host", REQUIRED_ARGUMENT, b'H'),
            ("hostfile", REQUIRED_ARGUMENT, 0),
            ("x", REQUIRED_ARGUMENT, b'x'),
            ("prepend-env", REQUIRED_ARGUMENT, 0),
            ("mca", REQUIRED_ARGUMENT, 0),
            ("oversubscribe", NO_ARGUMENT, 0),
            ("map-by", REQUIRED_ARGUMENT, 0),
        ])
    }

    /// Parses `line` with the prterun-like table: (rc, [(key, values)], tail or None).
    type Parsed = (c_int, Vec<(String, Vec<String>)>, Option<Vec<String>>);

    fn parse(line: &[&str]) -> Parsed {
        let _g = GETOPT.lock().unwrap_or_else(|e| e.into_inner());
        let t = prterun_table();
        let args: Vec<CString> = line.iter().map(|s| CString::new(*s).unwrap()).collect();
        let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr().cast_mut()).collect();
        argv.push(ptr::null_mut());
        let shorts = CString::new("h::vVn:c:N:sH:x:").unwrap();
        // SAFETY: a result of our class, parsed and released here.
        unsafe {
            let r = object::new(&raw mut pmix_cli_result_t_class) as *mut CliResult;
            let rc = pmix_cmd_line_parse(
                argv.as_mut_ptr(),
                shorts.as_ptr().cast_mut(),
                t.opts.as_ptr().cast_mut(),
                None,
                r,
                c"help-prterun.txt".as_ptr().cast_mut(),
            );
            let items = list::items(&raw mut (*r).instances)
                .into_iter()
                .map(|i| {
                    let i = i as *mut CliItem;
                    (
                        CStr::from_ptr((*i).key).to_string_lossy().into_owned(),
                        strings((*i).values),
                    )
                })
                .collect();
            let tail = if (*r).tail.is_null() {
                None
            } else {
                Some(strings((*r).tail))
            };
            object::release(r.cast());
            (rc, items, tail)
        }
    }

    fn kv(k: &str, v: &[&str]) -> (String, Vec<String>) {
        (k.into(), v.iter().map(|s| s.to_string()).collect())
    }

    fn words(v: &[&str]) -> Option<Vec<String>> {
        Some(v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn np_in_its_three_spellings_lands_under_np() {
        for line in [
            &["prterun", "--np", "2", "hostname"][..],
            &["prterun", "-n", "2", "hostname"],
            &["prterun", "-np", "2", "hostname"],
            &["prterun", "-c", "2", "hostname"],
        ] {
            assert_eq!(
                parse(line),
                (0, vec![kv("np", &["2"])], words(&["hostname"])),
                "{line:?}"
            );
        }
    }

    #[test]
    fn mca_options_store_key_equals_value_and_repeat() {
        assert_eq!(
            parse(&[
                "prterun",
                "--mca",
                "a",
                "b",
                "--prtemca",
                "x",
                "y",
                "--mca",
                "c",
                "d",
                "ls",
                "-l"
            ]),
            (
                0,
                vec![kv("mca", &["a=b", "c=d"]), kv("prtemca", &["x=y"])],
                words(&["ls", "-l"])
            )
        );
        assert_eq!(
            parse(&["prterun", "--prepend-env", "PATH", "/opt", "a"]),
            (0, vec![kv("prepend-env", &["PATH", "/opt"])], words(&["a"]))
        );
    }

    #[test]
    fn v_clusters_count_under_the_last_reported_long_option() {
        // No long option reported yet: the table's first entry, as OpenPMIx.
        assert_eq!(
            parse(&["prterun", "-vvv", "a"]),
            (0, vec![kv("help", &["3"])], words(&["a"]))
        );
        assert_eq!(
            parse(&["prterun", "-v", "-v", "a"]),
            (0, vec![kv("help", &["1", "1"])], words(&["a"]))
        );
        // After a long option, its name: "--oversubscribe -v" counts under "oversubscribe".
        assert_eq!(
            parse(&["prterun", "--oversubscribe", "-v", "a"]),
            (0, vec![kv("oversubscribe", &["1"])], words(&["a"]))
        );
        // "--verbose" itself is reported as 'v' but is not a "-v" word: nothing stored.
        assert_eq!(
            parse(&["prterun", "--verbose", "a"]),
            (0, vec![], words(&["a"]))
        );
    }

    #[test]
    fn host_flag_and_tail_after_double_dash() {
        assert_eq!(
            parse(&[
                "prterun",
                "--host",
                "a,b",
                "--oversubscribe",
                "--",
                "x",
                "-y"
            ]),
            (
                0,
                vec![kv("host", &["a,b"]), kv("oversubscribe", &[])],
                words(&["x", "-y"])
            )
        );
        assert_eq!(
            parse(&["prterun", "-H", "a", "-x", "FOO", "prog", "&"]),
            (
                0,
                vec![kv("host", &["a"]), kv("x", &["FOO"])],
                words(&["prog", "&"])
            )
        );
        assert_eq!(parse(&["prterun", "&"]), (0, vec![], None));
        // The program name alone is not scanned at all: it becomes the tail, as in OpenPMIx.
        assert_eq!(parse(&["prterun"]), (0, vec![], words(&["prterun"])));
        assert_eq!(
            parse(&["prterun", "hostname"]),
            (0, vec![], words(&["hostname"]))
        );
        assert_eq!(
            parse(&["prterun", "--map-by=core", "a"]).1,
            vec![kv("map-by", &["core"])]
        );
    }

    #[test]
    fn np_last_on_the_line_stores_a_flag() {
        assert_eq!(parse(&["prterun", "-np"]), (0, vec![kv("np", &[])], None));
    }

    #[test]
    fn the_result_class_frees_what_it_holds() {
        // SAFETY: objects of our classes, made and released here.
        unsafe {
            let r = object::new(&raw mut pmix_cli_result_t_class) as *mut CliResult;
            assert!((*r).tail.is_null());
            assert_eq!((*r).instances.pmix_list_length, 0);
            store_default(c"a".as_ptr(), c"1".as_ptr(), r);
            store_default(c"a".as_ptr(), c"2".as_ptr(), r);
            store_default(c"b".as_ptr(), ptr::null(), r);
            assert_eq!(values(r, c"a"), ["1", "2"]);
            assert!(is_taken(r, c"b"));
            assert!(!is_taken(r, c"c"));
            assert!(values(r, c"b").is_empty());
            let argv = [c"x".as_ptr().cast_mut(), ptr::null_mut()];
            (*r).tail = argv_copy(argv.as_ptr());
            assert_eq!(tail(r), ["x"]);
            assert!(object::release(r.cast()));
        }
    }

    #[test]
    fn tool_strings_start_as_openpmix_s() {
        // SAFETY: reading our exported pointers.
        unsafe {
            assert!(basename().is_null());
            assert_eq!(CStr::from_ptr(tool(&raw const pmix_tool_org)), c"PMIx");
            assert_eq!(
                CStr::from_ptr(tool(&raw const pmix_tool_version)),
                c"5.0.11"
            );
            assert_eq!(
                CStr::from_ptr(tool(&raw const pmix_tool_msg)),
                c"https://github.com/openpmix/openpmix"
            );
        }
    }

    #[test]
    fn a_null_result_is_refused() {
        // SAFETY: NULL result: nothing is read.
        let rc = unsafe {
            pmix_cmd_line_parse(
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, PMIX_ERR_BAD_PARAM);
    }
}
