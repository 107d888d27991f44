//! The one error type of the core. Each variant maps to exactly one PMIx status code at the
//! C boundary (`Error::status`); codes received from peers that have no variant of their own
//! travel as `Error::Status`.

use pmix_sys::*;

/// An error of a PMIx operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("bad parameter")]
    BadParam,
    #[error("out of memory")]
    NoMem,
    #[error("not found")]
    NotFound,
    #[error("not supported")]
    NotSupported,
    #[error("unknown data type {0}")]
    UnknownDataType(pmix_data_type_t),
    #[error("type mismatch")]
    TypeMismatch,
    #[error("pack failure")]
    PackFailure,
    #[error("unpack failure")]
    UnpackFailure,
    #[error("unpack: inadequate space")]
    UnpackInadequateSpace,
    #[error("unpack: read past end of buffer")]
    ReadPastEnd,
    #[error("not initialized")]
    Init,
    #[error("timeout")]
    Timeout,
    #[error("unreachable")]
    Unreach,
    #[error("would block")]
    WouldBlock,
    /// Any other status code.
    #[error("status {0}")]
    Status(pmix_status_t),
}

impl Error {
    /// The PMIx status code of this error.
    pub fn status(&self) -> pmix_status_t {
        match self {
            Error::BadParam => PMIX_ERR_BAD_PARAM,
            Error::NoMem => PMIX_ERR_NOMEM,
            Error::NotFound => PMIX_ERR_NOT_FOUND,
            Error::NotSupported => PMIX_ERR_NOT_SUPPORTED,
            Error::UnknownDataType(_) => PMIX_ERR_UNKNOWN_DATA_TYPE,
            Error::TypeMismatch => PMIX_ERR_TYPE_MISMATCH,
            Error::PackFailure => PMIX_ERR_PACK_FAILURE,
            Error::UnpackFailure => PMIX_ERR_UNPACK_FAILURE,
            Error::UnpackInadequateSpace => PMIX_ERR_UNPACK_INADEQUATE_SPACE,
            Error::ReadPastEnd => PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER,
            Error::Init => PMIX_ERR_INIT,
            Error::Timeout => PMIX_ERR_TIMEOUT,
            Error::Unreach => PMIX_ERR_UNREACH,
            Error::WouldBlock => PMIX_ERR_WOULD_BLOCK,
            Error::Status(s) => *s,
        }
    }

    /// The error for a status code; `None` for `PMIX_SUCCESS`.
    pub fn from_status(status: pmix_status_t) -> Option<Error> {
        Some(match status {
            PMIX_SUCCESS => return None,
            PMIX_ERR_BAD_PARAM => Error::BadParam,
            PMIX_ERR_NOMEM => Error::NoMem,
            PMIX_ERR_NOT_FOUND => Error::NotFound,
            PMIX_ERR_NOT_SUPPORTED => Error::NotSupported,
            PMIX_ERR_TYPE_MISMATCH => Error::TypeMismatch,
            PMIX_ERR_PACK_FAILURE => Error::PackFailure,
            PMIX_ERR_UNPACK_FAILURE => Error::UnpackFailure,
            PMIX_ERR_UNPACK_INADEQUATE_SPACE => Error::UnpackInadequateSpace,
            PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER => Error::ReadPastEnd,
            PMIX_ERR_INIT => Error::Init,
            PMIX_ERR_TIMEOUT => Error::Timeout,
            PMIX_ERR_UNREACH => Error::Unreach,
            PMIX_ERR_WOULD_BLOCK => Error::WouldBlock,
            other => Error::Status(other),
        })
    }
}

/// Result of a core operation.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// The status for a result: `PMIX_SUCCESS` or the error's code.
pub fn status_of<T>(r: &Result<T>) -> pmix_status_t {
    match r {
        Ok(_) => PMIX_SUCCESS,
        Err(e) => e.status(),
    }
}
