//! Why a command on a document or folder is refused. Each message is shown to the user as is;
//! the server maps each kind to its HTTP status.

use super::access::Action;
use super::model::WithdrawalFacts;

/// The spec's text for a share to an e-mail nobody uses (section 8).
pub const RECIPIENT_NOT_FOUND: &str = "The user associated with that e-mail was not found. Check again the e-mail or try an external share.";

/// The spec's text for the folder depth limit (section 5).
pub const MAX_DEPTH_REACHED: &str =
    "You cannot create further folders, you have reached max depth level";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// 404: no such item, or none this user can see.
    #[error("The folder or file was not found")]
    NotFound,
    /// 404: the folder to put something in does not exist (or cannot be seen).
    #[error("The destination folder was not found")]
    DestinationNotFound,
    /// 400
    #[error("The name is required")]
    NameRequired,
    /// 400
    #[error("The name must be at most 200 characters")]
    NameTooLong,
    /// 400
    #[error("The name cannot contain control characters")]
    NameInvalid,
    /// 400: spec section 5.
    #[error("{}", MAX_DEPTH_REACHED)]
    MaxDepth,
    /// 400
    #[error("The folder cannot be moved there: it would go past the max depth level")]
    MoveTooDeep,
    /// 400
    #[error("A folder cannot be moved into itself or into one of its subfolders")]
    MoveIntoItself,
    /// 400
    #[error("Items can only be placed in a folder")]
    NotAFolder,
    /// 400: folders are opened, not downloaded.
    #[error("Only files can be downloaded")]
    NotAFile,
    /// 403: shared and US folders are read-only for the receiver.
    #[error("Folders and files can be added only in My Docs")]
    ReadOnly,
    /// 403: the action is not in this user's `actions` list for the item.
    #[error("You are not allowed to {} this item", .0.verb())]
    NotAllowed(Action),
    /// 403
    #[error("Documents for internal use cannot be shared externally")]
    InternalUseOnly,
    /// 403: 'Controlled release' and 'Upon request' documents.
    #[error("This document can be shared only internally")]
    InternalShareOnly,
    /// 400
    #[error("You cannot share an item with yourself")]
    ShareWithSelf,
    /// 404: spec section 8.
    #[error("{}", RECIPIENT_NOT_FOUND)]
    RecipientNotFound,
    /// 400
    #[error("Enter a valid e-mail address")]
    InvalidEmail,
    /// 415: the content is neither PDF nor XLS, or the name's extension does not match it.
    #[error("Only PDF and XLS files can be uploaded")]
    UnsupportedType,
    /// 409: the id is taken (a retried creation).
    #[error("This item already exists")]
    AlreadyExists,
    /// 410: the company withdrew the document (or it expired); only its owner may still
    /// delete a copy.
    #[error("{}", .0.state.message())]
    Withdrawn(Box<WithdrawalFacts>),
    /// 403: only the company's own files get new versions.
    #[error("Only the company's documents can be replaced by a new version")]
    NotACompanyFile,
    /// 500: what the aggregate asked of the outside could not be read.
    #[error("documents lookup failed: {0}")]
    Services(String),
}

/// A failed lookup through [`super::DocumentServices`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ServiceError(pub String);

impl From<ServiceError> for DocumentError {
    fn from(e: ServiceError) -> Self {
        DocumentError::Services(e.0)
    }
}
