//! What happened to an item. Events carry the resulting state (names, places, facts), so read
//! models and the history need nothing else.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use super::commands::{CopyReason, ShareVia};
use super::model::{
    FileFacts, ItemId, ItemRef, Kind, ReplacementRef, Space, UserRef, WithdrawnState,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemEvent {
    FolderCreated {
        id: ItemId,
        space: Space,
        /// `None` for the company's US set.
        owner: Option<UserRef>,
        parent: Option<ItemRef>,
        name: String,
        seed_key: Option<String>,
    },
    FileUploaded {
        id: ItemId,
        space: Space,
        owner: Option<UserRef>,
        parent: Option<ItemRef>,
        file: FileFacts,
        seed_key: Option<String>,
    },
    /// The item was created as a copy of `source` in `owner`'s My Docs.
    Copied {
        id: ItemId,
        kind: Kind,
        owner: UserRef,
        parent: Option<ItemRef>,
        source: ItemRef,
        reason: CopyReason,
        /// Folder name, or the file's title.
        name: String,
        file: Option<FileFacts>,
    },
    Renamed {
        from: String,
        to: String,
        /// Files: the new download name.
        file_name: Option<String>,
    },
    /// `None` is the root 'My docs'.
    Moved {
        from: Option<ItemRef>,
        to: Option<ItemRef>,
    },
    /// The folder and everything in it (`removed`, every level) are gone.
    FolderDeleted {
        by: String,
        removed: Vec<ItemId>,
    },
    FileRemoved {
        by: String,
    },
    DeletedWithFolder {
        folder: ItemRef,
    },
    Shared {
        by: UserRef,
        with: UserRef,
        via: ShareVia,
    },
    SharedExternally {
        by: String,
        email: String,
        token_hash: String,
        expires_at: i64,
        /// The share's id: its engagement is the stream of [`crate::share_link::ShareLink`]
        /// with this id. Shares recorded before it existed are known by their token's hash.
        #[serde(default)]
        share: String,
        /// The recipient may download the file, not only view it.
        #[serde(default = "crate::share_link::default_allow_download")]
        allow_download: bool,
        /// Opens after which the link answers 410; none: no limit.
        #[serde(default)]
        max_opens: Option<u32>,
        /// The item's title when it was shared (what the sender's notices name).
        #[serde(default)]
        title: String,
        /// The item's owner when it was shared (they see the share's engagement too).
        #[serde(default)]
        owner: Option<String>,
    },
    SavedToMyDocs {
        by: String,
        copy: ItemId,
    },
    MovedToMyDocs {
        by: String,
        copy: ItemId,
    },
    Opened {
        by: String,
    },
    Downloaded {
        by: String,
    },
    /// The company's file was replaced in place by a new version of the document.
    FileReplaced {
        by: UserRef,
        file: FileFacts,
        version: u32,
        #[serde(default)]
        note: Option<String>,
    },
    /// The company withdrew the document (or it expired); `replacement` is what replaces it.
    Withdrawn {
        by: String,
        state: WithdrawnState,
        reason: String,
        at: i64,
        replacement: Option<ReplacementRef>,
    },
}

impl DomainEvent for ItemEvent {
    fn event_type(&self) -> String {
        match self {
            ItemEvent::FolderCreated { .. } => "FolderCreated",
            ItemEvent::FileUploaded { .. } => "FileUploaded",
            ItemEvent::Copied { .. } => "Copied",
            ItemEvent::Renamed { .. } => "Renamed",
            ItemEvent::Moved { .. } => "Moved",
            ItemEvent::FolderDeleted { .. } => "FolderDeleted",
            ItemEvent::FileRemoved { .. } => "FileRemoved",
            ItemEvent::DeletedWithFolder { .. } => "DeletedWithFolder",
            ItemEvent::Shared { .. } => "Shared",
            ItemEvent::SharedExternally { .. } => "SharedExternally",
            ItemEvent::SavedToMyDocs { .. } => "SavedToMyDocs",
            ItemEvent::MovedToMyDocs { .. } => "MovedToMyDocs",
            ItemEvent::Opened { .. } => "Opened",
            ItemEvent::Downloaded { .. } => "Downloaded",
            ItemEvent::FileReplaced { .. } => "FileReplaced",
            ItemEvent::Withdrawn { .. } => "Withdrawn",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}
