//! Why a command on a library document is refused. Each message is shown as is; the server maps
//! each kind to its HTTP status.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    /// 404
    #[error("Library document not found")]
    NotFound,
    /// 409: the id is taken (a creator racing for the same id tries the next one).
    #[error("This library document already exists")]
    AlreadyExists,
    /// 400
    #[error("The title is required")]
    TitleRequired,
    /// 400
    #[error("The title must be at most 200 characters")]
    TitleTooLong,
    /// 415
    #[error("Only PDF and XLS files can be uploaded")]
    UnsupportedType,
    /// 403: four eyes.
    #[error("You cannot approve a version you wrote: another approver must.")]
    OwnVersion,
    /// 409
    #[error("Only a draft can be submitted for review.")]
    NotDraft,
    /// 409
    #[error("Only a version in review can be approved or rejected.")]
    NotInReview,
    /// 409
    #[error("Only an approved version can be released.")]
    NotApproved,
    /// 409
    #[error("This version cannot be released before its release time.")]
    TooEarly,
    /// 409
    #[error("A version in review or approved cannot be replaced: reject it or release it first.")]
    VersionPending,
    /// 409
    #[error("Only a released document can expire.")]
    NotReleased,
    /// 400
    #[error("The expiry must be after the release time and in the future.")]
    ExpiryBeforeRelease,
    /// 400
    #[error("A reason is required to withdraw a document.")]
    ReasonRequired,
    /// 400
    #[error("A document cannot replace itself.")]
    ReplacementIsSelf,
    /// 400
    #[error("The replacement must be a released library document.")]
    ReplacementNotReleased,
    /// 409
    #[error("This document was withdrawn.")]
    Withdrawn,
    /// 409
    #[error("This document has expired.")]
    Expired,
}
