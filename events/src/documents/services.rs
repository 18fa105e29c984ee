//! What the item aggregate needs to know from outside its own events: the tree around it,
//! who reaches it through shares, users' US certificate, recipients. The server answers from
//! the read model (under a per-tree lock, so answers cannot go stale during a structural
//! command); tests answer from maps.

use std::sync::Arc;

use async_trait::async_trait;

use super::access::Access;
use super::error::ServiceError;
use super::model::{FileFacts, ItemId, Kind, Space, WithdrawalFacts};

/// An item as seen from outside, with its place in the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInfo {
    pub id: ItemId,
    pub kind: Kind,
    /// Folder name or file title.
    pub name: String,
    pub space: Space,
    pub owner: Option<String>,
    /// Folders: 1 at the root, +1 per level. Files: their folder's depth (0 at the root).
    pub depth: u32,
    /// The folders above the item, root first.
    pub ancestors: Vec<ItemId>,
}

/// What a copy needs of the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceItem {
    pub info: ItemInfo,
    pub file: Option<FileFacts>,
    /// Set when the company withdrew it: no copy may be made of it.
    pub withdrawn: Option<WithdrawalFacts>,
}

#[async_trait]
pub trait DocumentServices: Send + Sync {
    /// How deep folders may nest (`MAX_FOLDER_DEPTH`).
    fn max_folder_depth(&self) -> u32;
    /// The live item with this id.
    async fn item(&self, id: &str) -> Result<Option<ItemInfo>, ServiceError>;
    /// Everything needed to copy an item.
    async fn source(&self, id: &str) -> Result<Option<SourceItem>, ServiceError>;
    /// How `user` reaches item `id`.
    async fn access(&self, user: &str, id: &str) -> Result<Access, ServiceError>;
    /// Whether `folder` or a folder above it is shared with `user`.
    async fn shared_through(&self, user: &str, folder: &str) -> Result<bool, ServiceError>;
    /// Whether `user` sees the US set (certificate US).
    async fn sees_us(&self, user: &str) -> Result<bool, ServiceError>;
    /// Every item below `folder`, at every level, parents before children.
    async fn descendants(&self, folder: &str) -> Result<Vec<ItemId>, ServiceError>;
    /// Levels of folders from `folder` down to its deepest subfolder (1: no subfolders).
    async fn subtree_height(&self, folder: &str) -> Result<u32, ServiceError>;
}

/// The aggregate's `Services`: any implementation of [`DocumentServices`].
#[derive(Clone)]
pub struct ItemServices(pub Arc<dyn DocumentServices>);

impl ItemServices {
    pub fn new(services: impl DocumentServices + 'static) -> Self {
        Self(Arc::new(services))
    }
}

impl std::ops::Deref for ItemServices {
    type Target = dyn DocumentServices;
    fn deref(&self) -> &Self::Target {
        self.0.as_ref()
    }
}
