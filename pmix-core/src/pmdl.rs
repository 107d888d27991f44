//! Programming-model support (OpenPMIx's `pmdl` framework and its `ompi` component): the
//! environment a launcher gives an application's processes.
//!
//! - [`harvest_envars`]: what `PMIx_server_setup_application` (in a server or a launcher
//!   tool) returns for `PMIX_SETUP_APP_ENVARS`, as `PMIX_SET_ENVAR` (and `PMIX_PREPEND_ENVAR`)
//!   entries the host applies to every process of the job: OpenPMIx's own MCA parameters
//!   from its parameter files and from the environment (`PMIX_MCA_*`), and, for an Open MPI
//!   job (`PMIX_PERSONALITY` or `PMIX_PROGRAMMING_MODEL` naming "ompi"), the user's
//!   `~/.openmpi/mca-params.conf`, the `OMPI_*` and `OPAL_*` variables (or those OpenPMIx's
//!   parameters `pmdl_ompi_include_envars` and `_exclude_envars` name) and the library path
//!   `OPAL_PREFIX` implies.
//! - [`ompi_fork_env`]: what `PMIx_server_setup_fork` adds for each process of such a job:
//!   `OMPI_COMM_WORLD_RANK`, `_SIZE`, `_LOCAL_RANK`, `_LOCAL_SIZE`, `_NODE_RANK`,
//!   `OMPI_UNIVERSE_SIZE`, the command and its arguments, ... from the job's registered data.
//!   Open MPI's users rely on them (a GPU per `OMPI_COMM_WORLD_LOCAL_RANK`, say).
//!
//! Names, values and order are OpenPMIx 5.0.11's; where we differ it is said at the item
//! (`docs/notes/server.md`, "Programming models").

use std::path::PathBuf;

use pmix_sys::*;

use crate::datastore::JobRecord;
use crate::values::{Envar, Info, PStr, Value};

/// OpenPMIx 5.0.11's frameworks, whose parameters a parameter file gives as `PMIX_MCA_*`:
/// the names of `pmix_framework_names` (pmix-ffi's `frameworks.rs`, whose test checks that
/// the two lists agree).
pub const PMIX_FRAMEWORKS: &[&str] = &[
    "bfrops",
    "gds",
    "pcompress",
    "pdl",
    "pif",
    "pinstalldirs",
    "plog",
    "pmdl",
    "pnet",
    "preg",
    "psec",
    "psensor",
    "psquash",
    "pstat",
    "ptl",
    "mca",
];

/// PRRTE 3.0's frameworks (and its prefix), whose parameters a parameter file gives as
/// `PRTE_MCA_*`; `PRTE_MCA_PREFIXES` in the environment replaces the list, as in OpenPMIx.
const PRTE_FRAMEWORKS: &[&str] = &[
    "errmgr",
    "ess",
    "filem",
    "grpcomm",
    "iof",
    "odls",
    "oob",
    "plm",
    "prtebacktrace",
    "prtedl",
    "prteinstalldirs",
    "prtereachable",
    "ras",
    "rmaps",
    "rml",
    "routed",
    "rtc",
    "schizo",
    "state",
    "hwloc",
    "if",
    "reachable",
];

/// The `name = value` lines of an MCA parameter file (`#` comments and blank lines
/// skipped); nothing when it cannot be read.
pub fn param_file(path: &std::path::Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            let (k, v) = l.split_once('=')?;
            let k = k.trim();
            (!k.is_empty()).then(|| (k.to_string(), v.trim().to_string()))
        })
        .collect()
}

/// OpenPMIx's parameter files, as it reads them for a process: the user's
/// `$HOME/.pmix/mca-params.conf`, then the installation's
/// `$PMIX_PREFIX/etc/pmix-mca-params.conf`.
pub fn pmix_param_files() -> Vec<PathBuf> {
    [
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pmix/mca-params.conf")),
        std::env::var_os("PMIX_PREFIX").map(|p| PathBuf::from(p).join("etc/pmix-mca-params.conf")),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The value of OpenPMIx's MCA parameter `name` as the reference reads it for a process:
/// `PMIX_MCA_<name>` in the environment, else a `name = value` line of
/// `$HOME/.pmix/mca-params.conf`, else of `$PMIX_PREFIX/etc/pmix-mca-params.conf` (where
/// an installation that moved, such as PyPI's Open MPI, says its files are).
pub fn mca_param(name: &str) -> Option<String> {
    if let Ok(v) = std::env::var(format!("PMIX_MCA_{name}")) {
        return Some(v);
    }
    pmix_param_files().into_iter().find_map(|f| {
        param_file(&f)
            .into_iter()
            .find_map(|(k, v)| (k == name).then_some(v))
    })
}

/// The parameters OpenPMIx's parameter files set, each once (the first file that sets it
/// wins).
fn pmix_file_values() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for f in pmix_param_files() {
        for (k, v) in param_file(&f) {
            if !out.iter().any(|(n, _)| *n == k) {
                out.push((k, v));
            }
        }
    }
    out
}

/// The part of a parameter name before its first `_`, matched against `list` (or the
/// prefix `own`).
fn names_framework(param: &str, own: &str, list: &[&str]) -> bool {
    let head = param.split('_').next().unwrap_or(param);
    head == own || list.contains(&head)
}

fn is_prte_param(param: &str) -> bool {
    match std::env::var("PRTE_MCA_PREFIXES") {
        Ok(l) => names_framework(param, "prte", &l.split(',').collect::<Vec<_>>()),
        Err(_) => names_framework(param, "prte", PRTE_FRAMEWORKS),
    }
}

/// Whether a personality or programming-model value names "ompi" anywhere (OpenPMIx's
/// `strstr`).
fn mentions_ompi(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.as_bytes().windows(4).any(|w| w == b"ompi"))
}

/// Whether `info` asks for Open MPI's support (`PMIX_PERSONALITY` or
/// `PMIX_PROGRAMMING_MODEL` naming "ompi").
pub fn is_ompi(info: &[Info]) -> bool {
    info.iter().any(|i| {
        (i.is(PMIX_PERSONALITY) || i.is(PMIX_PROGRAMMING_MODEL)) && mentions_ompi(&i.value)
    })
}

/// Whether a registered job asks for Open MPI's support, as OpenPMIx's `ompi` component
/// decides at registration (a daemon that never set the job up, such as a `prted`, learns
/// it so): a job-level `PMIX_PERSONALITY` or `PMIX_PROGRAMMING_MODEL` naming "ompi", or an
/// app's listing "ompi" (or "ompiN", N at least 5) among its comma-separated models.
pub fn job_is_ompi(job: &JobRecord) -> bool {
    let keys = [PMIX_PERSONALITY, PMIX_PROGRAMMING_MODEL];
    let text = |v: Option<Value>| v.and_then(|v| v.as_str().map(|s| s.to_string()));
    let job_level = keys.iter().any(|k| {
        job.get(PMIX_RANK_WILDCARD, k.to_bytes())
            .is_some_and(|v| mentions_ompi(&v))
    });
    let napps = num(job.get(PMIX_RANK_WILDCARD, PMIX_JOB_NUM_APPS.to_bytes())).unwrap_or(1);
    job_level
        || (0..u32::try_from(napps).unwrap_or(0)).any(|a| {
            keys.iter().any(|k| {
                text(job.app_get(a, k.to_bytes())).is_some_and(|s| {
                    s.split(',').any(|m| {
                        m == "ompi"
                            || m.strip_prefix("ompi")
                                .and_then(|v| v.parse::<u32>().ok())
                                .is_some_and(|v| v >= 5)
                    })
                })
            })
        })
}

/// The envars a setup adds, in order, with OpenPMIx's rule for names seen twice: the later
/// value replaces the earlier one in place.
#[derive(Default)]
struct Envars(Vec<(&'static core::ffi::CStr, String, String)>);

impl Envars {
    fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((PMIX_SET_ENVAR, name.into(), value.into()));
    }

    fn prepend(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((PMIX_PREPEND_ENVAR, name.into(), value.into()));
    }

    /// The variables of this process's environment that start with one of `prefixes` (a
    /// trailing `*` is ignored, as OpenPMIx ignores it).
    fn harvest(&mut self, prefixes: &[&str]) {
        for p in prefixes {
            let p = p.strip_suffix('*').unwrap_or(p);
            for (k, v) in std::env::vars() {
                if !k.starts_with(p) {
                    continue;
                }
                match self.0.iter_mut().find(|(_, n, _)| *n == k) {
                    Some(e) => e.2 = v,
                    None => self.set(k, v),
                }
            }
        }
    }

    /// Drops the entries so far whose name starts with one of `prefixes` (a trailing `*`
    /// ignored), as OpenPMIx's `ompi` component applies `pmdl_ompi_exclude_envars`: to
    /// everything harvested before it, parameter files included.
    fn exclude(&mut self, prefixes: &[&str]) {
        for p in prefixes {
            let p = p.strip_suffix('*').unwrap_or(p);
            self.0.retain(|(_, n, _)| !n.starts_with(p));
        }
    }

    /// A parameter file's values, as OpenPMIx's `ompi` component names them: a parameter of
    /// OpenPMIx's frameworks `PMIX_MCA_*`, of PRRTE's `PRTE_MCA_*`, any other `OMPI_MCA_*`.
    fn ompi_param_file(&mut self, path: &std::path::Path) {
        for (k, v) in param_file(path) {
            let prefix = if names_framework(&k, "pmix", PMIX_FRAMEWORKS) {
                "PMIX_MCA_"
            } else if is_prte_param(&k) {
                "PRTE_MCA_"
            } else {
                "OMPI_MCA_"
            };
            self.set(format!("{prefix}{k}"), v);
        }
    }

    fn into_infos(self) -> Vec<Info> {
        self.0
            .into_iter()
            .map(|(key, name, value)| {
                Info::new(
                    key.to_bytes(),
                    Value::Envar(Envar {
                        envar: Some(PStr::from(name)),
                        value: Some(PStr::from(value)),
                        separator: b':',
                    }),
                )
            })
            .collect()
    }
}

/// The patterns of a comma-separated list, empty ones left out (an empty list harvests
/// nothing) and spaces kept, as OpenPMIx splits it.
fn patterns(list: &str) -> Vec<&str> {
    list.split(',').filter(|p| !p.is_empty()).collect()
}

/// The user's home directory: `$HOME` for this process's user, else the user database's.
fn home_of(uid: Option<u32>) -> Option<PathBuf> {
    let me = crate::wire::own_ids().0;
    if uid.is_none_or(|u| u == me)
        && let Some(h) = std::env::var_os("HOME")
    {
        return Some(PathBuf::from(h));
    }
    crate::security::home_dir(uid.unwrap_or(me))
}

/// `PMIx_server_setup_application`'s envars for `PMIX_SETUP_APP_ENVARS` (nothing when
/// `info` does not ask for them), as OpenPMIx 5.0.11 harvests them.
pub fn harvest_envars(info: &[Info]) -> Vec<Info> {
    if !info.iter().any(|i| i.is(PMIX_SETUP_APP_ENVARS)) {
        return Vec::new();
    }
    let mut e = Envars::default();
    for (k, v) in pmix_file_values() {
        e.set(format!("PMIX_MCA_{k}"), v);
    }
    if is_ompi(info) {
        if let Some(home) = std::env::var_os("OMPIHOME") {
            e.ompi_param_file(&PathBuf::from(home).join("etc/openmpi-mca-params.conf"));
            e.set("OPAL_SYS_PARAMS_GIVEN", "1");
        }
        let uid = crate::values::info_value(info, PMIX_USERID).and_then(|v| v.as_u64());
        if let Some(home) = home_of(uid.and_then(|u| u32::try_from(u).ok())) {
            e.ompi_param_file(&home.join(".openmpi/mca-params.conf"));
            e.set("OPAL_USER_PARAMS_GIVEN", "1");
        }
        // OpenPMIx's parameters pmdl_ompi_include_envars (default "OMPI_*,OPAL_*") and
        // pmdl_ompi_exclude_envars (default none): comma-separated name prefixes
        let include = mca_param("pmdl_ompi_include_envars");
        e.harvest(&patterns(include.as_deref().unwrap_or("OMPI_*,OPAL_*")));
        if let Some(exclude) = mca_param("pmdl_ompi_exclude_envars") {
            e.exclude(&patterns(&exclude));
        }
        // OPAL_PREFIX moves Open MPI's libraries: its lib directory goes first in the
        // library path (the directory's name is assumed to be "lib", as ours is).
        if let Some(prefix) =
            e.0.iter()
                .find(|(k, n, _)| *k == PMIX_SET_ENVAR && n == "OPAL_PREFIX")
                .map(|(_, _, v)| v.clone())
        {
            e.prepend("LD_LIBRARY_PATH", format!("{prefix}/lib"));
        }
    }
    e.harvest(&["PMIX_MCA_"]);
    e.set("PMIX_PARAM_FILE_PASSED", "1");
    e.into_infos()
}

fn num(v: Option<Value>) -> Option<u64> {
    v.and_then(|v| v.as_u64())
}

fn text(v: Option<Value>) -> Option<String> {
    v.and_then(|v| v.as_str().map(|s| s.to_string()))
}

/// The variables OpenPMIx's `ompi` component adds to the environment of `rank` of an Open MPI
/// job, from what its host registered. A value the job data lacks leaves its variable out
/// (OpenPMIx fails the process's setup instead). `OMPI_MCA_initial_wdir`, `OMPI_COMMAND` and
/// `OMPI_ARGV` come from the process's own app, where OpenPMIx takes app 0's for every
/// process.
pub fn ompi_fork_env(job: &JobRecord, rank: u32) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            env.push((k.to_string(), v));
        }
    };
    let w = |key: &core::ffi::CStr| job.get(PMIX_RANK_WILDCARD, key.to_bytes());
    let mine = |key: &core::ffi::CStr| job.get(rank, key.to_bytes());
    let s = |n: Option<u64>| n.map(|n| n.to_string());
    put("OMPI_UNIVERSE_SIZE", s(num(w(PMIX_UNIV_SIZE))));
    let size = Some(job.job_size().to_string());
    put("OMPI_COMM_WORLD_SIZE", size.clone());
    put("OMPI_WORLD_SIZE", size.clone());
    put("OMPI_MCA_num_procs", size);
    let local = s(num(w(PMIX_LOCAL_SIZE)));
    put("OMPI_COMM_WORLD_LOCAL_SIZE", local.clone());
    put("OMPI_WORLD_LOCAL_SIZE", local);
    let napps = num(w(PMIX_JOB_NUM_APPS)).unwrap_or(1);
    put("OMPI_NUM_APP_CTX", Some(napps.to_string()));
    put("OMPI_FILE_LOCATION", text(mine(PMIX_PROCDIR)));
    let app = num(mine(PMIX_APPNUM))
        .and_then(|a| u32::try_from(a).ok())
        .unwrap_or(0);
    put(
        "OMPI_MCA_initial_wdir",
        text(job.app_get(app, PMIX_WDIR.to_bytes())),
    );
    if let Some(argv) = text(job.app_get(app, PMIX_APP_ARGV.to_bytes())) {
        let mut words = argv.split(' ');
        put("OMPI_COMMAND", words.next().map(str::to_string));
        put("OMPI_ARGV", Some(words.collect::<Vec<_>>().join(" ")));
    }
    // uname's machine name, as OpenPMIx gives it ("x86_64", "aarch64", ...)
    put(
        "OMPI_MCA_cpu_type",
        Some(std::env::consts::ARCH.to_string()),
    );
    put("OMPI_COMM_WORLD_RANK", Some(rank.to_string()));
    put("OMPI_COMM_WORLD_LOCAL_RANK", s(num(mine(PMIX_LOCAL_RANK))));
    put("OMPI_COMM_WORLD_NODE_RANK", s(num(mine(PMIX_NODE_RANK))));
    if napps > 1 {
        let per_app = |key: &core::ffi::CStr| -> Option<String> {
            (0..napps)
                .map(|a| {
                    num(job.app_get(u32::try_from(a).ok()?, key.to_bytes())).map(|n| n.to_string())
                })
                .collect::<Option<Vec<_>>>()
                .map(|v| v.join(" "))
        };
        put("OMPI_APP_CTX_NUM_PROCS", per_app(PMIX_APP_SIZE));
        put("OMPI_FIRST_RANKS", per_app(PMIX_APPLDR));
        put("OMPI_MCA_num_restarts", s(num(mine(PMIX_REINCARNATION))));
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exclusions_drop_what_was_harvested_before_them() {
        assert_eq!(patterns("OMPI_*,,OPAL_X"), ["OMPI_*", "OPAL_X"]);
        assert!(patterns("").is_empty());
        let mut e = Envars::default();
        e.set("PMIX_MCA_gds", "hash");
        e.set("OMPI_MCA_btl", "self");
        e.set("OMPI_COMMAND", "a");
        e.set("OPAL_PREFIX", "/p");
        // a prefix, with or without its star
        e.exclude(&patterns("OMPI_MCA_*,OPAL"));
        let names: Vec<&str> = e.0.iter().map(|(_, n, _)| n.as_str()).collect();
        assert_eq!(names, ["PMIX_MCA_gds", "OMPI_COMMAND"]);
        e.exclude(&patterns("*"));
        assert!(e.0.is_empty());
    }

    #[test]
    fn parameters_are_named_by_their_framework() {
        assert!(names_framework("gds_base_verbose", "pmix", PMIX_FRAMEWORKS));
        assert!(names_framework("pmix_foo", "pmix", PMIX_FRAMEWORKS));
        assert!(!names_framework(
            "btl_tcp_if_include",
            "pmix",
            PMIX_FRAMEWORKS
        ));
        assert!(names_framework("plm_base_verbose", "prte", PRTE_FRAMEWORKS));
        assert!(!names_framework("pml", "prte", PRTE_FRAMEWORKS));
    }

    #[test]
    fn ompi_is_asked_by_personality_or_model() {
        let p = |k: &core::ffi::CStr, v: &str| {
            Info::new(k.to_bytes(), Value::String(Some(PStr::from(v))))
        };
        assert!(is_ompi(&[p(PMIX_PERSONALITY, "ompi")]));
        assert!(is_ompi(&[p(PMIX_PROGRAMMING_MODEL, "prte,ompi")]));
        assert!(!is_ompi(&[p(PMIX_PERSONALITY, "prte")]));
        assert!(!is_ompi(&[]));
    }
}

#[cfg(test)]
mod fork_env_tests {
    use super::*;
    use crate::datastore::JobRecord;

    fn info(k: &core::ffi::CStr, v: Value) -> Info {
        Info::new(k.to_bytes(), v)
    }

    fn s(v: &str) -> Value {
        Value::String(Some(PStr::from(v)))
    }

    fn arr(items: Vec<Info>) -> Value {
        crate::datastore::realm_info_array(items)
    }

    /// A job of two apps: rank 0 runs app 0 ("a.out x" in /w0), ranks 1 and 2 app 1
    /// ("b.out y z" in /w1).
    fn two_apps() -> JobRecord {
        let mut all = vec![
            info(PMIX_JOB_SIZE, Value::Uint32(3)),
            info(PMIX_UNIV_SIZE, Value::Uint32(4)),
            info(PMIX_LOCAL_SIZE, Value::Uint32(3)),
            info(PMIX_JOB_NUM_APPS, Value::Uint32(2)),
        ];
        for (n, argv, wdir, size, ldr) in
            [(0, "a.out x", "/w0", 1, 0), (1, "b.out y z", "/w1", 2, 1)]
        {
            all.push(info(
                PMIX_APP_INFO_ARRAY,
                arr(vec![
                    info(PMIX_APPNUM, Value::Uint32(n)),
                    info(PMIX_APP_ARGV, s(argv)),
                    info(PMIX_WDIR, s(wdir)),
                    info(PMIX_APP_SIZE, Value::Uint32(size)),
                    info(PMIX_APPLDR, Value::ProcRank(ldr)),
                ]),
            ));
        }
        for r in 0..3u32 {
            all.push(info(
                PMIX_PROC_DATA,
                arr(vec![
                    info(PMIX_RANK, Value::ProcRank(r)),
                    info(PMIX_APPNUM, Value::Uint32(u32::from(r > 0))),
                    info(PMIX_LOCAL_RANK, Value::Uint16(r as u16)),
                    info(PMIX_NODE_RANK, Value::Uint16(r as u16 + 10)),
                    info(PMIX_PROCDIR, s(&format!("/tmp/s/{r}"))),
                    info(PMIX_REINCARNATION, Value::Uint32(0)),
                ]),
            ));
        }
        JobRecord::from_register(&PStr::from("ns"), 3, &all, &PStr::from("node")).unwrap()
    }

    #[test]
    fn each_rank_gets_open_mpis_variables_from_its_own_app() {
        let job = two_apps();
        let env = ompi_fork_env(&job, 2);
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("OMPI_COMM_WORLD_RANK"), Some("2"));
        assert_eq!(get("OMPI_COMM_WORLD_SIZE"), Some("3"));
        assert_eq!(get("OMPI_MCA_num_procs"), Some("3"));
        assert_eq!(get("OMPI_UNIVERSE_SIZE"), Some("4"));
        assert_eq!(get("OMPI_COMM_WORLD_LOCAL_RANK"), Some("2"));
        assert_eq!(get("OMPI_COMM_WORLD_LOCAL_SIZE"), Some("3"));
        assert_eq!(get("OMPI_COMM_WORLD_NODE_RANK"), Some("12"));
        assert_eq!(get("OMPI_FILE_LOCATION"), Some("/tmp/s/2"));
        assert_eq!(get("OMPI_NUM_APP_CTX"), Some("2"));
        // the rank's own app, where OpenPMIx gives app 0's
        assert_eq!(get("OMPI_COMMAND"), Some("b.out"));
        assert_eq!(get("OMPI_ARGV"), Some("y z"));
        assert_eq!(get("OMPI_MCA_initial_wdir"), Some("/w1"));
        assert_eq!(get("OMPI_APP_CTX_NUM_PROCS"), Some("1 2"));
        assert_eq!(get("OMPI_FIRST_RANKS"), Some("0 1"));
        assert_eq!(get("OMPI_MCA_num_restarts"), Some("0"));
    }

    #[test]
    fn a_job_is_open_mpis_by_its_personality_or_an_apps_model() {
        let reg = |info: Vec<Info>| {
            JobRecord::from_register(&PStr::from("ns"), 1, &info, &PStr::from("node")).unwrap()
        };
        assert!(job_is_ompi(&reg(vec![info(PMIX_PERSONALITY, s("ompi"))])));
        assert!(!job_is_ompi(&reg(vec![info(PMIX_PERSONALITY, s("prte"))])));
        let app = |model: &str| {
            reg(vec![
                info(PMIX_JOB_NUM_APPS, Value::Uint32(1)),
                info(
                    PMIX_APP_INFO_ARRAY,
                    arr(vec![
                        info(PMIX_APPNUM, Value::Uint32(0)),
                        info(PMIX_PROGRAMMING_MODEL, s(model)),
                    ]),
                ),
            ])
        };
        assert!(job_is_ompi(&app("prte,ompi")));
        assert!(job_is_ompi(&app("ompi5")));
        assert!(!job_is_ompi(&app("ompi4")));
        assert!(!job_is_ompi(&app("mpich")));
    }

    #[test]
    fn one_app_leaves_out_the_per_app_lists() {
        let job = JobRecord::from_register(
            &PStr::from("ns"),
            1,
            &[info(PMIX_JOB_SIZE, Value::Uint32(1))],
            &PStr::from("node"),
        )
        .unwrap();
        let env = ompi_fork_env(&job, 0);
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"OMPI_COMM_WORLD_RANK"));
        assert!(!names.contains(&"OMPI_APP_CTX_NUM_PROCS"));
        // what the job data lacks is left out
        assert!(!names.contains(&"OMPI_COMM_WORLD_LOCAL_RANK"));
        assert!(!names.contains(&"OMPI_COMMAND"));
    }
}
