//! What is asked of a library document. Every command carries its time (`at`, ms): the server's
//! clock, so the rules and the events never read a clock of their own.

use serde::Deserialize;

use super::model::{DocMetadata, VersionFile};
use crate::documents::UserRef;

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum LibraryCommand {
    /// A publisher creates the document with its first version, as a draft.
    Create {
        id: i64,
        by: UserRef,
        metadata: DocMetadata,
        file: VersionFile,
        note: Option<String>,
        at: i64,
    },
    /// A new version (a draft); the released one stays released until it is replaced.
    AddVersion {
        by: UserRef,
        file: VersionFile,
        note: Option<String>,
        at: i64,
    },
    /// New metadata (the whole of it; the server merges a partial change first).
    ChangeMetadata {
        by: UserRef,
        metadata: DocMetadata,
        at: i64,
    },
    Submit {
        by: UserRef,
        at: i64,
    },
    Approve {
        by: UserRef,
        comment: Option<String>,
        at: i64,
    },
    Reject {
        by: UserRef,
        comment: Option<String>,
        at: i64,
    },
    /// The scheduler releases an approved version at its time; a repeat records nothing.
    Release {
        at: i64,
    },
    /// The scheduler records the expiry at its time; a repeat records nothing.
    Expire {
        at: i64,
    },
    Withdraw {
        by: UserRef,
        reason: String,
        /// The replacement's id and whether it is released now (read by the server).
        replacement: Option<(i64, bool)>,
        at: i64,
    },
    /// A document of the content folder, released as it is there by the importing operator:
    /// created, or a new released version when its file or metadata changed, else nothing.
    Import {
        id: i64,
        by: UserRef,
        metadata: DocMetadata,
        file: VersionFile,
        at: i64,
    },
    /// A user opened (or downloaded) the released version.
    RecordRead {
        by: String,
        download: bool,
        at: i64,
    },
    RecordPin {
        by: String,
        device: String,
        at: i64,
    },
    ConfirmPurge {
        by: String,
        device: String,
        at: i64,
    },
    /// The cascade of the last release or of the end ran to completion.
    CompleteCascade {
        items: Vec<String>,
        holders: Vec<String>,
        at: i64,
    },
}
