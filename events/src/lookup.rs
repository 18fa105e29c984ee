//! Why a service an aggregate relies on could not answer.

/// A lookup outside the aggregate (a user by e-mail, a publication, a course) failed. The cause
/// is kept for the log and never shown to the user: `backend/src/error.rs` maps it to a 500.
/// It holds the cause as text so that aggregate errors stay comparable in tests.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LookupError(String);

impl LookupError {
    pub fn new(cause: impl std::fmt::Display) -> Self {
        LookupError(cause.to_string())
    }
}

impl From<&str> for LookupError {
    fn from(cause: &str) -> Self {
        LookupError(cause.to_string())
    }
}
