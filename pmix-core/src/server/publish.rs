//! Publish, lookup and unpublish: the requests go to the host with the requester's
//! verified ids.

use pmix_sys::*;

use super::{Peer, Shared, requester_info};
use crate::Result;
use crate::host::Upcall;
use crate::progress::{ConnId, Reactor};
use crate::values::Pdata;
use crate::wire::msg::{Pack, Unpack};

impl Shared {
    /// The command PUBLISHNB: `PMIx_Publish`.
    pub(super) fn on_publish(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        // The uid the request states is not used: the verified one is.
        let _claimed_uid = u.u32()?;
        let info = requester_info(peer, u.infos()?);
        self.require(Upcall::Publish)?;
        let done = self.status_done(id, tag, mode);
        self.host.publish(me, &info, done);
        Ok(())
    }

    /// The command LOOKUPNB: `PMIx_Lookup`.
    pub(super) fn on_lookup(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let _claimed_uid = u.u32()?;
        let n = u.size()?;
        let keys = u.strings(n)?;
        let info = requester_info(peer, u.infos()?);
        self.require(Upcall::Lookup)?;
        let done = self.later(move |_, r, res: Result<Vec<Pdata>>| {
            let mut p = Pack::new(mode);
            match res {
                Ok(d) => p.status(PMIX_SUCCESS).pdata(&d),
                Err(e) => p.status(e.status()),
            };
            Self::reply(r, id, tag, p.into_bytes());
        });
        self.host.lookup(me, &keys, &info, done);
        Ok(())
    }

    /// The command UNPUBLISHNB: `PMIx_Unpublish`.
    pub(super) fn on_unpublish(
        &self,
        _r: &mut Reactor,
        id: ConnId,
        tag: u32,
        peer: &Peer,
        u: &mut Unpack<'_>,
    ) -> Result<()> {
        let mode = peer.mode;
        let me = &peer.proc;
        let _claimed_uid = u.u32()?;
        let n = u.size()?;
        let keys = u.strings(n)?;
        let info = requester_info(peer, u.infos()?);
        self.require(Upcall::Unpublish)?;
        let done = self.status_done(id, tag, mode);
        self.host.unpublish(me, &keys, &info, done);
        Ok(())
    }
}
