//! Server URIs: `"<nspace>.<rank>;tcp4://<ipv4>:<port>"` (or `tcp6://[addr]:port`).

use std::net::{IpAddr, SocketAddr};

use crate::values::PStr;
use crate::{Error, Result};

/// Where a server listens and who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUri {
    pub nspace: PStr,
    pub rank: u32,
    pub addr: SocketAddr,
    /// The abstract name of the Unix socket our server offers beside `addr` (never part of
    /// the URI text: reference peers do not know of it; see `crate::net`).
    pub unix: Option<String>,
}

impl ServerUri {
    /// Parses a URI as a client does: the **last** `.` of the first part separates nspace
    /// and rank.
    pub fn parse(s: &str) -> Result<ServerUri> {
        Self::parse_with(s, false)
    }

    /// Parses a URI as a tool given `PMIX_SERVER_URI` does: the **first** `.` separates
    /// nspace and rank (the reference's tool quirk); if what follows it is not a rank (a
    /// namespace with dots, as pmixrun's "run.<pid>"), the last `.` does.
    pub fn parse_tool(s: &str) -> Result<ServerUri> {
        Self::parse_with(s, true).or_else(|_| Self::parse_with(s, false))
    }

    fn parse_with(s: &str, first_dot: bool) -> Result<ServerUri> {
        let s = s.trim_end_matches(['\n', '\0']);
        let mut parts = s.split(';');
        let (Some(id), Some(addr), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(Error::BadParam);
        };
        let dot = if first_dot {
            id.find('.')
        } else {
            id.rfind('.')
        };
        let dot = dot.ok_or(Error::BadParam)?;
        let nspace = &id[..dot];
        let rank: u32 = id[dot + 1..].parse().map_err(|_| Error::BadParam)?;
        let addr = parse_addr(addr)?;
        Ok(ServerUri {
            nspace: PStr::from(nspace),
            rank,
            addr,
            unix: None,
        })
    }

    /// The same server, reachable through the Unix socket `unix` too (when it names one).
    pub fn with_unix(mut self, unix: Option<String>) -> ServerUri {
        self.unix = unix.filter(|u| !u.is_empty());
        self
    }

    /// The URI text.
    pub fn to_uri(&self) -> String {
        let a = match self.addr {
            SocketAddr::V4(v4) => format!("tcp4://{}:{}", v4.ip(), v4.port()),
            SocketAddr::V6(v6) => format!("tcp6://[{}]:{}", v6.ip(), v6.port()),
        };
        format!("{}.{};{}", self.nspace, self.rank, a)
    }
}

fn parse_addr(a: &str) -> Result<SocketAddr> {
    let rest = a
        .strip_prefix("tcp4://")
        .or_else(|| a.strip_prefix("tcp6://"))
        .ok_or(Error::BadParam)?;
    let colon = rest.rfind(':').ok_or(Error::BadParam)?;
    let host = rest[..colon].trim_start_matches('[').trim_end_matches(']');
    let port: u16 = rest[colon + 1..].parse().map_err(|_| Error::BadParam)?;
    let ip: IpAddr = host.parse().map_err(|_| Error::BadParam)?;
    Ok(SocketAddr::new(ip, port))
}

/// The URI variables a server exports, best first (section 4).
pub const URI_VARS: [&str; 5] = [
    "PMIX_SERVER_URI41",
    "PMIX_SERVER_URI4",
    "PMIX_SERVER_URI3",
    "PMIX_SERVER_URI21",
    "PMIX_SERVER_URI2",
];

/// The URI variables a server names when it reports its URI to a pipe
/// (`PMIX_TCP_REPORT_URI`), in OpenPMIx's order.
pub const URI_VARS_REPORTED: &str =
    "PMIX_SERVER_URI41:PMIX_SERVER_URI4:PMIX_SERVER_URI3:PMIX_SERVER_URI2:PMIX_SERVER_URI21";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_uris_with_and_without_dots_in_the_nspace() {
        let u = ServerUri::parse_tool("prterun-h-1@0.0;tcp4://127.0.0.1:5").unwrap();
        assert_eq!((u.nspace.to_string(), u.rank), ("prterun-h-1@0".into(), 0));
        let u = ServerUri::parse_tool("run.123.0;tcp4://127.0.0.1:5").unwrap();
        assert_eq!((u.nspace.to_string(), u.rank), ("run.123".into(), 0));
        assert!(ServerUri::parse_tool("run;tcp4://127.0.0.1:5").is_err());
    }
}
