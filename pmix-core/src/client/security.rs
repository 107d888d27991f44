//! Security: credentials, got and validated by the host.

use pmix_sys::*;

use super::{Client, Done, status_result};
use crate::Result;
use crate::values::Info;
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};

impl Client {
    pub fn get_credential_nb(
        &self,
        directives: &[Info],
        done: Done<(Vec<u8>, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::GET_CREDENTIAL);
        p.infos(directives);
        let mode = self.mode;
        self.request_nb(p.into_bytes(), move |r| {
            done(r.and_then(|b| {
                let mut u = Unpack::new(mode, &b);
                status_result(u.status()?)?;
                let cred = u.bytes()?;
                let info = if u.at_end() { Vec::new() } else { u.infos()? };
                Ok((cred, info))
            }))
        })
    }

    pub fn validate_credential_nb(
        &self,
        cred: &[u8],
        directives: &[Info],
        done: Done<(pmix_status_t, Vec<Info>)>,
    ) -> Result<()> {
        let mut p = Pack::cmd(self.mode, cmd::VALIDATE_CRED);
        p.bytes(cred).infos(directives);
        self.infos_request_nb(p.into_bytes(), done)
    }
}
