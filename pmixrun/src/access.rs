//! Who may use pmixrun's server: its own user, and the users and groups its command line
//! names (`--allow-user`, `--allow-group`). Tools of anyone else are refused when they
//! connect, and every request that acts (spawn, job control, stdin, publish and lookup,
//! log, allocation, monitoring, credentials) is checked again against the requester's
//! verified ids, which the server library puts in the request (`PMIX_USERID`,
//! `PMIX_GRPID`; `docs/security.md`).

use pmix_core::Error;
use pmix_core::values::{Info, Value};
use pmix_sys::{PMIX_ERR_NO_PERMISSIONS, PMIX_GRPID, PMIX_USERID};

/// The users and groups pmixrun serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    uids: Vec<u32>,
    gids: Vec<u32>,
}

impl Access {
    /// pmixrun's own user (`own`), plus the users and groups named (names or numbers,
    /// each argument a comma-separated list).
    pub fn new(own: u32, users: &[String], groups: &[String]) -> Result<Access, String> {
        // Each name (or number) of the comma-separated lists `args`, resolved by `lookup`.
        let ids = |args: &[String], lookup: fn(&str) -> Option<u32>, what: &str| {
            args.iter()
                .flat_map(|a| a.split(','))
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| {
                    n.parse::<u32>()
                        .ok()
                        .or_else(|| lookup(n))
                        .ok_or_else(|| format!("--allow-{what}: no {what} '{n}'"))
                })
                .collect::<Result<Vec<u32>, String>>()
        };
        let mut uids = ids(users, pmix_core::security::uid_by_name, "user")?;
        uids.push(own);
        let mut gids = ids(groups, pmix_core::security::gid_by_name, "group")?;
        uids.sort_unstable();
        uids.dedup();
        gids.sort_unstable();
        gids.dedup();
        Ok(Access { uids, gids })
    }

    /// Whether a peer with these ids is served: an allowed user, or a member of an allowed
    /// group (its own gid, or by the group database).
    pub fn permits(&self, uid: u32, gid: u32) -> bool {
        self.uids.contains(&uid)
            || self
                .gids
                .iter()
                .any(|&g| g == gid || pmix_core::security::in_group(uid, g))
    }

    /// The requester's ids as the server library states them in `info`.
    pub fn requester(info: &[Info]) -> Option<(u32, u32)> {
        let id = |k| match pmix_core::values::info_value(info, k) {
            Some(Value::Uint32(v)) => Some(*v),
            _ => None,
        };
        Some((id(PMIX_USERID)?, id(PMIX_GRPID)?))
    }

    /// `Ok` when the request's requester is served; `PMIX_ERR_NO_PERMISSIONS` when it is not,
    /// or the request does not say who made it.
    pub fn check(&self, info: &[Info]) -> Result<(), Error> {
        match Self::requester(info) {
            Some((u, g)) if self.permits(u, g) => Ok(()),
            _ => Err(Error::Status(PMIX_ERR_NO_PERMISSIONS)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(uid: u32, gid: u32) -> Vec<Info> {
        vec![
            Info::new(PMIX_USERID.to_bytes(), Value::Uint32(uid)),
            Info::new(PMIX_GRPID.to_bytes(), Value::Uint32(gid)),
        ]
    }

    #[test]
    fn only_the_own_user_by_default() {
        let a = Access::new(1000, &[], &[]).unwrap();
        assert!(a.permits(1000, 1000));
        assert!(a.check(&ids(1000, 5)).is_ok());
        assert!(!a.permits(0, 0));
        assert!(!a.permits(65534, 65534));
        let e = a.check(&ids(65534, 65534)).unwrap_err();
        assert_eq!(e.status(), PMIX_ERR_NO_PERMISSIONS);
        // A request that does not say who made it is refused.
        assert!(a.check(&[]).is_err());
        assert!(a.check(&ids(1000, 1)[..1]).is_err());
    }

    #[test]
    fn named_users_and_groups() {
        let a = Access::new(0, &["nobody,1234".into()], &["5678".into()]).unwrap();
        assert!(a.permits(0, 0));
        assert!(a.permits(65534, 65534));
        assert!(a.permits(1234, 1));
        assert!(a.permits(999, 5678));
        assert!(!a.permits(999, 999));
        // Root is a member of the root group by the group database.
        let g = Access::new(1000, &[], &["root".into()]).unwrap();
        assert!(g.permits(0, 12345));
        assert!(Access::new(0, &["no such user, surely".into()], &[]).is_err());
        assert!(Access::new(0, &[], &["no such group, surely".into()]).is_err());
    }
}
