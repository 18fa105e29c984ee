//! What a user (or the server on the company's behalf) asks of one item.

use serde::{Deserialize, Serialize};

use super::model::{FileFormat, ItemId, ItemRef, Labels, ReplacementRef, UserRef, WithdrawnState};

/// Who creates an item: a user in their My Docs, or the company in the US set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Creator {
    User(UserRef),
    Company,
}

/// A file as it arrives: what the server read and stored, and what the user typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The name the user gave the file (shown in lists).
    pub title: String,
    /// The file name on download; derived from the title and the format when not given.
    pub file_name: Option<String>,
    /// The name the file had on the user's device; its extension must match the content.
    pub original_name: String,
    /// The format the content's first bytes show (`None`: neither PDF nor XLS).
    pub sniffed: Option<FileFormat>,
    /// The stored file's server-chosen name.
    pub blob: String,
    pub size: i64,
    /// Lower-case hex SHA-256 of the content, as stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    pub subtitle: Option<String>,
    pub languages_in_file: Option<String>,
    pub code_points: Option<String>,
    pub labels: Labels,
}

/// Why a copy of someone else's item lands in a user's My Docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CopyReason {
    /// `save_to_mydocs`: a copy of a file; the original stays where it was.
    Save,
    /// `move_to_mydocs`: a copy of a shared item (a folder with its contents); the original
    /// leaves the user's Shared with me.
    Move,
}

/// How an internal share reached the colleague.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShareVia {
    /// `internal_share`: the owner shares from their My Docs.
    Internal,
    /// `storage_internal_share`: a user shares a document of the company's storage (US set).
    Storage,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemCommand {
    /// Creates a folder at the root (`parent: None`) or inside a folder.
    CreateFolder {
        id: ItemId,
        by: Creator,
        parent: Option<ItemId>,
        name: String,
        /// The demo content's key, when the item comes from the seed.
        seed_key: Option<String>,
    },
    UploadFile {
        id: ItemId,
        by: Creator,
        parent: Option<ItemId>,
        upload: Upload,
        seed_key: Option<String>,
    },
    /// Creates this item as a copy of `source` in `by`'s My Docs. `part_of` names the shared
    /// folder being moved when this is one of its contents.
    Copy {
        id: ItemId,
        by: UserRef,
        source: ItemId,
        parent: Option<ItemId>,
        reason: CopyReason,
        part_of: Option<ItemId>,
    },
    Rename {
        by: String,
        name: String,
    },
    /// Moves the item into a folder, or to the root 'My docs' (`None`).
    Move {
        by: String,
        destination: Option<ItemId>,
    },
    /// Deletes a folder with everything in it, or removes a file from My Docs.
    Delete {
        by: String,
    },
    /// Records that the item went with a deleted folder (issued by the server after the
    /// folder's deletion, so every item's own history ends with it).
    DeleteWithFolder {
        folder: ItemRef,
    },
    /// Shares the item with a colleague; `with` is the account the caller found for the
    /// address given (`None`: nobody uses it), so the handler reads no account again.
    Share {
        by: UserRef,
        with: Option<UserRef>,
        via: ShareVia,
    },
    /// Sends a colleague outside the app an expiring link. The token itself never enters the
    /// event store, only its SHA-256.
    ShareExternally {
        by: String,
        email: String,
        token_hash: String,
        expires_at: i64,
        /// The new share's id (its engagement stream).
        share: String,
        allow_download: bool,
        max_opens: Option<u32>,
    },
    /// Records on the original that `by` saved or moved a copy of it into their My Docs.
    RecordCopy {
        by: String,
        copy: ItemId,
        reason: CopyReason,
    },
    /// The user opened (or downloaded) the item.
    Open {
        by: String,
        download: bool,
    },
    /// The company replaces the file of one of its items with a new version of the document
    /// (same item, same links). A version older than the one recorded, or the same file again,
    /// changes nothing.
    ReplaceFile {
        by: UserRef,
        upload: Upload,
        version: u32,
        note: Option<String>,
    },
    /// The company withdraws the item (or it expired): it leaves every list but its owner's
    /// My Docs, and every command but a delete by that owner is refused from then on. A
    /// repeated withdrawal changes nothing.
    Withdraw {
        by: String,
        state: WithdrawnState,
        reason: String,
        at: i64,
        replacement: Option<ReplacementRef>,
    },
}
