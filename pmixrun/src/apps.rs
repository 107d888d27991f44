//! From what a user or a spawn request asks to run to what pmixrun starts: programs found
//! in `PATH` as a shell finds them, environments, and the applications of a spawn request
//! (`PMIx_Spawn`) made into [`AppSpec`]s. No session state: the callers pass what they know.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use pmix_core::values::Info;
use pmix_core::{App, Error};
use pmix_sys::*;

use crate::job::{AppSpec, find};
use crate::sys;

/// Why a program cannot be started.
#[derive(Debug)]
pub enum ResolveError {
    NotFound(String),
    NotExecutable(String),
}

impl ResolveError {
    /// The shell's status for it.
    pub fn status(&self) -> i32 {
        match self {
            ResolveError::NotFound(_) => 127,
            ResolveError::NotExecutable(_) => 126,
        }
    }

    pub fn pmix_status(&self) -> pmix_status_t {
        match self {
            ResolveError::NotFound(_) => PMIX_ERR_JOB_EXE_NOT_FOUND,
            ResolveError::NotExecutable(_) => PMIX_ERR_JOB_APP_NOT_EXECUTABLE,
        }
    }
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveError::NotFound(m) | ResolveError::NotExecutable(m) => f.write_str(m),
        }
    }
}

/// Finds the program file of `prog` as execvp would in a process whose working directory is
/// `cwd` and whose PATH is `path`: a name with a '/' is a path (relative to `cwd`), any other
/// name is searched in PATH.
pub fn resolve(prog: &OsStr, cwd: &Path, path: Option<&OsStr>) -> Result<PathBuf, ResolveError> {
    let shown = prog.to_string_lossy();
    if prog.is_empty() {
        return Err(ResolveError::NotFound(
            "an empty program name was given".into(),
        ));
    }
    if prog.as_bytes().contains(&b'/') {
        // cwd + "./a" without the "." components, for readable messages.
        let p: PathBuf = cwd
            .join(prog)
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        if !p.exists() {
            return Err(ResolveError::NotFound(format!(
                "executable '{shown}' not found (no such file: {})",
                p.display()
            )));
        }
        if !sys::is_executable(&p) {
            return Err(ResolveError::NotExecutable(format!(
                "'{shown}' is not an executable file ({})",
                p.display()
            )));
        }
        return Ok(p);
    }
    let path = path.map_or_else(
        || OsString::from("/usr/local/bin:/usr/bin:/bin"),
        OsStr::to_os_string,
    );
    let mut found_not_exec = None;
    for dir in path.as_bytes().split(|&b| b == b':') {
        let dir = if dir.is_empty() {
            cwd.to_path_buf()
        } else {
            cwd.join(OsStr::from_bytes(dir))
        };
        let cand = dir.join(prog);
        if sys::is_executable(&cand) {
            return Ok(cand);
        }
        if cand.is_file() && found_not_exec.is_none() {
            found_not_exec = Some(cand);
        }
    }
    match found_not_exec {
        Some(p) => Err(ResolveError::NotExecutable(format!(
            "'{shown}' is not executable ({})",
            p.display()
        ))),
        None => Err(ResolveError::NotFound(format!(
            "executable '{shown}' not found in PATH"
        ))),
    }
}

/// The value of `name` in an environment given as pairs (the last setting wins).
pub fn env_lookup<'a>(env: &'a [(OsString, OsString)], name: &str) -> Option<&'a OsStr> {
    env.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_os_str())
}

/// Sets `name=value` in `env`, replacing an earlier setting.
pub fn env_set(env: &mut Vec<(OsString, OsString)>, name: OsString, value: OsString) {
    if let Some(e) = env.iter_mut().find(|(k, _)| *k == name) {
        e.1 = value;
    } else {
        env.push((name, value));
    }
}

/// Converts the apps of a spawn request: `cwd` is the requester's default directory.
pub fn apps_of_request(
    apps: &[App],
    job_info: &[Info],
    base_env: &[(OsString, OsString)],
) -> Result<Vec<AppSpec>, Error> {
    if apps.is_empty() {
        return Err(Error::BadParam);
    }
    let job_wdir = find(job_info, PMIX_WDIR).and_then(|v| v.as_str().cloned());
    let mut out = Vec::new();
    for a in apps {
        let cmd = a.cmd.clone().ok_or(Error::BadParam)?;
        if a.maxprocs < 1 {
            return Err(Error::BadParam);
        }
        let wdir = a
            .cwd
            .clone()
            .or_else(|| find(&a.info, PMIX_WDIR).and_then(|v| v.as_str().cloned()));
        let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let cwd = wdir
            .or_else(|| job_wdir.clone())
            .filter(|w| !w.is_empty())
            .map(|w| here.join(OsStr::from_bytes(w.as_bytes())));
        let mut env = Vec::new();
        for e in &a.env {
            let b = e.as_bytes();
            let (k, v) = match b.iter().position(|&c| c == b'=') {
                Some(i) => (&b[..i], &b[i + 1..]),
                None => (b, &b""[..]),
            };
            env.push((
                OsString::from_vec(k.to_vec()),
                OsString::from_vec(v.to_vec()),
            ));
        }
        let path = env_lookup(&env, "PATH").or_else(|| env_lookup(base_env, "PATH"));
        let dir = cwd.clone().unwrap_or(here);
        let prog = OsString::from_vec(cmd.as_bytes().to_vec());
        // As PRRTE does for a spawn request: a plain name not found in PATH is looked for
        // in the working directory last.
        let exe = resolve(&prog, &dir, path)
            .or_else(|e| match e {
                ResolveError::NotFound(_) if !prog.as_bytes().contains(&b'/') => {
                    let mut p = OsString::from("./");
                    p.push(&prog);
                    resolve(&p, &dir, None).map_err(|_| e)
                }
                e => Err(e),
            })
            .map_err(|e| Error::Status(e.pmix_status()))?;
        let argv = if a.argv.is_empty() {
            vec![prog]
        } else {
            a.argv
                .iter()
                .map(|s| OsString::from_vec(s.as_bytes().to_vec()))
                .collect()
        };
        out.push(AppSpec {
            exe,
            argv,
            env,
            cwd,
            np: a.maxprocs as u32,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_programs() {
        let here = std::env::current_dir().unwrap();
        let p = resolve(
            OsStr::new("sh"),
            &here,
            Some(OsStr::new("/nonexistent:/bin:/usr/bin")),
        )
        .unwrap();
        assert!(p.ends_with("sh"));
        assert!(matches!(
            resolve(
                OsStr::new("no-such-program-xyz"),
                &here,
                Some(OsStr::new("/bin"))
            ),
            Err(ResolveError::NotFound(_))
        ));
        assert!(matches!(
            resolve(OsStr::new("./no-such-file"), &here, None),
            Err(ResolveError::NotFound(_))
        ));
        let plain = std::env::temp_dir().join(format!("pmixrun-plain-{}", std::process::id()));
        std::fs::write(&plain, b"data").unwrap();
        let r = resolve(plain.as_os_str(), &here, None);
        let _ = std::fs::remove_file(&plain);
        assert!(matches!(r, Err(ResolveError::NotExecutable(_))), "{r:?}");
    }

    #[test]
    fn env_handling() {
        let mut env = vec![("A".into(), "1".into())];
        env_set(&mut env, "A".into(), "2".into());
        env_set(&mut env, "B".into(), "3".into());
        assert_eq!(env_lookup(&env, "A"), Some(OsStr::new("2")));
        assert_eq!(env_lookup(&env, "B"), Some(OsStr::new("3")));
        assert_eq!(env.len(), 2);
    }
}
