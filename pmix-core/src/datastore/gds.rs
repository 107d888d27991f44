//! The job-data protocol between our server and our clients beyond OpenPMIx's: the gds
//! name a client declares to get its job data as a segment to map, and the keys of the REQ
//! reply that names the segments (`segment`, `docs/notes/datastore.md`). Server and client
//! both take them from here.

/// The gds name our clients declare when their server offered it (`PMIX_GDS_MODULE`): the
/// job data comes as a segment to map (see `datastore::segment`).
pub const GDS_SHM: &str = "rsshm";

/// The key of the REQ reply KVAL naming the segment file (STRING), for "rsshm" peers.
pub const SEG_PATH_KEY: &[u8] = b"pmix.rsshm.seg";
/// The key of the REQ reply KVAL giving the segment's generation (UINT64).
pub const SEG_GEN_KEY: &[u8] = b"pmix.rsshm.gen";
/// The key of the REQ reply KVAL naming the modex segment file (STRING), for "rsshm" peers;
/// optional (after the job segment's two).
pub const MSEG_PATH_KEY: &[u8] = b"pmix.rsshm.mseg";
/// The key of the REQ reply KVAL giving the modex segment's generation (UINT64).
pub const MSEG_GEN_KEY: &[u8] = b"pmix.rsshm.mgen";
/// What an "rsshm" peer that cannot map the segment sends after the REQ command to get the
/// job data inline, as a "hash" peer does.
pub const REQ_INLINE: &[u8] = b"hash";
