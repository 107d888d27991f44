//! Publish, lookup and unpublish.

use super::{Client, Done, status_result};
use crate::Result;
use crate::codec::BufferType;
use crate::values::{Info, Pdata};
use crate::wire::cmd;
use crate::wire::msg::{Pack, Unpack};

impl Client {
    pub(super) fn publish_payload(&self, info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, cmd::PUBLISHNB);
        p.u32(crate::wire::own_ids().0).infos(info);
        p.into_bytes()
    }

    pub(super) fn keys_payload(&self, c: u8, keys: &[Vec<u8>], info: &[Info]) -> Vec<u8> {
        let mut p = Pack::cmd(self.mode, c);
        p.u32(crate::wire::own_ids().0).size(keys.len());
        for k in keys {
            p.string(Some(k));
        }
        p.infos(info);
        p.into_bytes()
    }

    pub fn publish(&self, info: &[Info]) -> Result<()> {
        self.status_request(self.publish_payload(info), Self::timeout_of(info))
    }

    pub fn publish_nb(&self, info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.publish_payload(info), done)
    }

    pub(super) fn parse_lookup(mode: BufferType, b: &[u8]) -> Result<Vec<Pdata>> {
        let mut u = Unpack::new(mode, b);
        status_result(u.status()?)?;
        if u.at_end() {
            return Ok(Vec::new());
        }
        u.pdata()
    }

    pub fn lookup(&self, keys: &[Vec<u8>], info: &[Info]) -> Result<Vec<Pdata>> {
        let reply = self.request(
            self.keys_payload(cmd::LOOKUPNB, keys, info),
            Self::timeout_of(info),
        )?;
        Self::parse_lookup(self.mode, &reply)
    }

    pub fn lookup_nb(&self, keys: &[Vec<u8>], info: &[Info], done: Done<Vec<Pdata>>) -> Result<()> {
        let mode = self.mode;
        self.request_nb(self.keys_payload(cmd::LOOKUPNB, keys, info), move |r| {
            done(r.and_then(|b| Self::parse_lookup(mode, &b)))
        })
    }

    pub fn unpublish(&self, keys: &[Vec<u8>], info: &[Info]) -> Result<()> {
        self.status_request(
            self.keys_payload(cmd::UNPUBLISHNB, keys, info),
            Self::timeout_of(info),
        )
    }

    pub fn unpublish_nb(&self, keys: &[Vec<u8>], info: &[Info], done: Done<()>) -> Result<()> {
        self.status_request_nb(self.keys_payload(cmd::UNPUBLISHNB, keys, info), done)
    }
}
