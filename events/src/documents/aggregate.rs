//! Over 600 lines: one handler per rule of the `Item` aggregate; split, the rules would scatter.
//!
//! The `Item` aggregate: one folder or one file.
//!
//! Why one aggregate for both, rather than `Folder` and `Document`: the app treats them alike.
//! Rename, move, delete, share and open are the same commands with the same rules on either
//! (the API even renames both through `POST /folders/{id}`), and both sit in the same tree.
//! What differs — files carry stored content and labels, folders have depth and contents — is
//! a field of the state and a branch in a few rules. One stream per item also gives each item
//! its own history (`GET /documents/{id}/history`) straight from the event store, and keeps
//! optimistic concurrency per item: two people working on different items never conflict.
//!
//! What an item cannot know from its own events — the folders around it, who reaches it
//! through a shared folder, a user's US certificate, whether a recipient exists — comes through
//! [`DocumentServices`]. Structural commands on one owner's tree (create, upload, move, delete,
//! copy) are serialised by the server, so those answers cannot change while a command runs.

use std::collections::BTreeSet;

use cqrs_es::event_sink::EventSink;
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use super::access::{Access, Action};
use super::commands::{CopyReason, Creator, ItemCommand, ShareVia, Upload};
use super::error::DocumentError;
use super::events::ItemEvent;
use super::model::{
    is_valid_email, valid_name, FileFacts, FileFormat, ItemId, ItemRef, Kind, Labels, Space,
    UserRef, WithdrawalFacts,
};
use super::services::{ItemInfo, ItemServices};

/// One folder or file: what its own events say about it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: Option<ItemId>,
    /// `None` until the item is created.
    pub kind: Option<Kind>,
    pub space: Space,
    /// The owning user (`None` for the company's US set).
    pub owner: Option<String>,
    pub parent: Option<ItemRef>,
    /// Folder name or file title.
    pub name: String,
    pub file: Option<FileFacts>,
    /// Users the item itself was shared with (not through a folder above it).
    pub shared_with: BTreeSet<String>,
    pub deleted: bool,
    /// The company's version of its file (0 until a new version replaced the first).
    #[serde(default)]
    pub version: u32,
    /// Set once the company withdrew the item (or it expired).
    #[serde(default)]
    pub withdrawn: Option<WithdrawalFacts>,
}

/// The aggregate type in the event store.
pub const ITEM_TYPE: &str = "document_item";

impl Item {
    /// The kind of a live item; `NotFound` before creation and after deletion.
    fn live(&self) -> Result<Kind, DocumentError> {
        match (self.kind, self.deleted) {
            (Some(kind), false) => Ok(kind),
            _ => Err(DocumentError::NotFound),
        }
    }

    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or_default()
    }

    fn labels(&self) -> Labels {
        self.file.as_ref().map(|f| f.labels).unwrap_or_default()
    }

    fn ensure_new(&self) -> Result<(), DocumentError> {
        if self.kind.is_some() {
            Err(DocumentError::AlreadyExists)
        } else {
            Ok(())
        }
    }

    /// How `user` reaches this item.
    async fn access(&self, user: &str, services: &ItemServices) -> Result<Access, DocumentError> {
        let owner = self.space == Space::My && self.owner.as_deref() == Some(user);
        if owner {
            // Nobody shares with themselves, so the other ways cannot add anything.
            return Ok(Access {
                owner,
                ..Access::default()
            });
        }
        let inside = match &self.parent {
            Some(parent) => services.shared_through(user, &parent.id).await?,
            None => false,
        };
        let us = self.space == Space::Us && services.sees_us(user).await?;
        Ok(Access {
            owner,
            direct: self.shared_with.contains(user),
            inside,
            us,
        })
    }

    /// Refuses unless `action` is in `user`'s actions list: 404 when the user cannot see the
    /// item at all, 403 when they can but may not do this.
    async fn require(
        &self,
        user: &str,
        action: Action,
        services: &ItemServices,
    ) -> Result<(Kind, Access), DocumentError> {
        let kind = self.live()?;
        let access = self.access(user, services).await?;
        if !access.sees() {
            return Err(DocumentError::NotFound);
        }
        if !access.allows(action, kind, &self.labels()) {
            return Err(DocumentError::NotAllowed(action));
        }
        Ok((kind, access))
    }

    /// The folder a new item goes into: one of the creator's own My Docs folders (users) or a
    /// US folder (the company); `None` is the root.
    async fn place(
        by: &Creator,
        parent: Option<ItemId>,
        services: &ItemServices,
    ) -> Result<Option<ItemInfo>, DocumentError> {
        let Some(parent) = parent else {
            return Ok(None);
        };
        let info = services.item(&parent).await?;
        let expected = match by {
            Creator::User(user) => info
                .as_ref()
                .is_some_and(|i| i.space == Space::My && i.owner.as_deref() == Some(&user.id)),
            Creator::Company => info.as_ref().is_some_and(|i| i.space == Space::Us),
        };
        match info {
            Some(info) if expected => {
                if info.kind != Kind::Folder {
                    return Err(DocumentError::NotAFolder);
                }
                Ok(Some(info))
            }
            Some(_) => {
                let sees = match by {
                    Creator::User(user) => services.access(&user.id, &parent).await?.sees(),
                    Creator::Company => true,
                };
                Err(if sees {
                    DocumentError::ReadOnly
                } else {
                    DocumentError::DestinationNotFound
                })
            }
            None => Err(DocumentError::DestinationNotFound),
        }
    }

    fn owner_of(by: Creator) -> (Space, Option<UserRef>) {
        match by {
            Creator::User(user) => (Space::My, Some(user)),
            Creator::Company => (Space::Us, None),
        }
    }

    fn folder_ref(info: ItemInfo) -> ItemRef {
        ItemRef {
            id: info.id,
            name: info.name,
        }
    }

    fn check_folder_depth(
        parent: Option<&ItemInfo>,
        services: &ItemServices,
    ) -> Result<(), DocumentError> {
        let depth = parent.map_or(0, |p| p.depth) + 1;
        if depth > services.max_folder_depth() {
            return Err(DocumentError::MaxDepth);
        }
        Ok(())
    }

    fn file_facts(upload: Upload) -> Result<FileFacts, DocumentError> {
        let title = valid_name(&upload.title)?;
        let format = upload.sniffed.ok_or(DocumentError::UnsupportedType)?;
        if FileFormat::from_file_name(&upload.original_name) != Some(format) {
            return Err(DocumentError::UnsupportedType);
        }
        if !is_safe_blob_name(&upload.blob) || upload.size < 0 {
            return Err(DocumentError::Services(format!(
                "refusing stored file {:?}",
                upload.blob
            )));
        }
        let name = match upload.file_name {
            Some(name) => valid_name(&name)?,
            None => format.file_name_for(&title),
        };
        let text = |t: Option<String>| t.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        Ok(FileFacts {
            title,
            name,
            blob: upload.blob,
            size: upload.size,
            sha256: upload.sha256,
            format,
            subtitle: text(upload.subtitle),
            languages_in_file: text(upload.languages_in_file),
            code_points: text(upload.code_points),
            labels: upload.labels,
        })
    }

    async fn handle_move(
        &self,
        by: String,
        destination: Option<ItemId>,
        services: &ItemServices,
    ) -> Result<Option<ItemEvent>, DocumentError> {
        let (kind, _) = self.require(&by, Action::Move, services).await?;
        let id = self.id().to_string();
        let to = match destination {
            None => None,
            Some(dest) => {
                let info = services.item(&dest).await?;
                let Some(info) = info
                    .filter(|i| i.space == Space::My && i.owner.as_deref() == Some(by.as_str()))
                else {
                    return Err(if services.access(&by, &dest).await?.sees() {
                        DocumentError::ReadOnly
                    } else {
                        DocumentError::DestinationNotFound
                    });
                };
                if kind == Kind::Folder && (info.id == id || info.ancestors.contains(&id)) {
                    return Err(DocumentError::MoveIntoItself);
                }
                if info.kind != Kind::Folder {
                    return Err(DocumentError::NotAFolder);
                }
                Some(info)
            }
        };
        if to.as_ref().map(|t| &t.id) == self.parent.as_ref().map(|p| &p.id) {
            return Ok(None);
        }
        if kind == Kind::Folder {
            let height = services.subtree_height(&id).await?;
            if to.as_ref().map_or(0, |t| t.depth) + height > services.max_folder_depth() {
                return Err(DocumentError::MoveTooDeep);
            }
        }
        // The folder it leaves, under its current name.
        let from = match &self.parent {
            Some(parent) => Some(ItemRef {
                id: parent.id.clone(),
                name: services
                    .item(&parent.id)
                    .await?
                    .map_or_else(|| parent.name.clone(), |i| i.name),
            }),
            None => None,
        };
        Ok(Some(ItemEvent::Moved {
            from,
            to: to.map(Self::folder_ref),
        }))
    }

    async fn handle_copy(
        &self,
        command: ItemCommand,
        services: &ItemServices,
    ) -> Result<ItemEvent, DocumentError> {
        let ItemCommand::Copy {
            id,
            by,
            source,
            parent,
            reason,
            part_of,
        } = command
        else {
            unreachable!("handle_copy is called with Copy commands only")
        };
        self.ensure_new()?;
        let src = services
            .source(&source)
            .await?
            .ok_or(DocumentError::NotFound)?;
        if let Some(withdrawn) = src.withdrawn {
            return Err(DocumentError::Withdrawn(Box::new(withdrawn)));
        }
        let access = services.access(&by.id, &source).await?;
        if !access.sees() {
            return Err(DocumentError::NotFound);
        }
        let action = match reason {
            CopyReason::Save => Action::SaveToMydocs,
            CopyReason::Move => Action::MoveToMydocs,
        };
        let labels = src.file.as_ref().map(|f| f.labels).unwrap_or_default();
        match &part_of {
            None => {
                if !access.allows(action, src.info.kind, &labels) {
                    return Err(DocumentError::NotAllowed(action));
                }
            }
            // One of the contents of a shared folder being moved: the user must be allowed to
            // move that folder, and this item must be in it.
            Some(root) => {
                let root_kind = services
                    .item(root)
                    .await?
                    .ok_or(DocumentError::NotFound)?
                    .kind;
                let root_access = services.access(&by.id, root).await?;
                if !src.info.ancestors.contains(root)
                    || !root_access.allows(action, root_kind, &Labels::default())
                {
                    return Err(DocumentError::NotAllowed(action));
                }
            }
        }
        let parent = Self::place(&Creator::User(by.clone()), parent, services).await?;
        if src.info.kind == Kind::Folder {
            Self::check_folder_depth(parent.as_ref(), services)?;
        }
        Ok(ItemEvent::Copied {
            id,
            kind: src.info.kind,
            owner: by,
            parent: parent.map(Self::folder_ref),
            source: ItemRef {
                id: src.info.id,
                name: src.info.name.clone(),
            },
            reason,
            name: src.info.name,
            file: src.file,
        })
    }

    async fn handle_external_share(
        &self,
        share: ExternalShareTerms,
        services: &ItemServices,
    ) -> Result<ItemEvent, DocumentError> {
        let ExternalShareTerms {
            by,
            email,
            token_hash,
            expires_at,
            share,
            allow_download,
            max_opens,
        } = share;
        let kind = self.live()?;
        let access = self.access(&by, services).await?;
        if !access.sees() {
            return Err(DocumentError::NotFound);
        }
        let labels = self.labels();
        if !access.allows(Action::ExternalShare, kind, &labels) {
            if access.allows_ignoring_labels(Action::ExternalShare, kind) {
                return Err(if labels.for_internal_use {
                    DocumentError::InternalUseOnly
                } else {
                    DocumentError::InternalShareOnly
                });
            }
            return Err(DocumentError::NotAllowed(Action::ExternalShare));
        }
        let email = email.trim().to_lowercase();
        if !is_valid_email(&email) {
            return Err(DocumentError::InvalidEmail);
        }
        if token_hash.is_empty() || share.is_empty() || expires_at <= 0 {
            return Err(DocumentError::Services(
                "external link without token".into(),
            ));
        }
        Ok(ItemEvent::SharedExternally {
            by,
            email,
            token_hash,
            expires_at,
            share,
            allow_download,
            max_opens,
            title: self.name.clone(),
            owner: self.owner.clone(),
        })
    }
}

impl Item {
    /// A new version of a company file: only on the company's own files; an older version than
    /// the recorded one, or the same file again, records nothing (a re-run release).
    fn handle_replace(
        &self,
        by: UserRef,
        upload: Upload,
        version: u32,
        note: Option<String>,
    ) -> Result<Option<ItemEvent>, DocumentError> {
        let kind = self.live()?;
        if kind != Kind::File || self.space != Space::Us || self.owner.is_some() {
            return Err(DocumentError::NotACompanyFile);
        }
        let file = Self::file_facts(upload)?;
        // An older version arriving late, or the file it already has (a re-run release).
        if version < self.version || self.file.as_ref() == Some(&file) {
            return Ok(None);
        }
        let note = note.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
        Ok(Some(ItemEvent::FileReplaced {
            by,
            file,
            version,
            note,
        }))
    }
}

/// What an external share command carries.
struct ExternalShareTerms {
    by: String,
    email: String,
    token_hash: String,
    expires_at: i64,
    share: String,
    allow_download: bool,
    max_opens: Option<u32>,
}

/// A stored file's name: server-made, one plain path segment, so it can never point outside
/// the storage folder.
pub fn is_safe_blob_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !name.contains("..")
}

impl Aggregate for Item {
    const TYPE: &'static str = ITEM_TYPE;
    type Command = ItemCommand;
    type Event = ItemEvent;
    type Error = DocumentError;
    type Services = ItemServices;

    async fn handle(
        &mut self,
        command: ItemCommand,
        services: &ItemServices,
        sink: &EventSink<Self>,
    ) -> Result<(), DocumentError> {
        if let Some(withdrawn) = &self.withdrawn {
            match &command {
                // Repeated by a re-run cascade: nothing more to record.
                ItemCommand::Withdraw { .. } => return Ok(()),
                // A withdrawn copy may still leave its owner's My Docs (the rules below check
                // that it is theirs), alone or with its folder.
                ItemCommand::Delete { .. } | ItemCommand::DeleteWithFolder { .. }
                    if self.space == Space::My => {}
                _ if self.deleted => return Err(DocumentError::NotFound),
                _ => return Err(DocumentError::Withdrawn(Box::new(withdrawn.clone()))),
            }
        }
        let event = match command {
            ItemCommand::CreateFolder {
                id,
                by,
                parent,
                name,
                seed_key,
            } => {
                self.ensure_new()?;
                let name = valid_name(&name)?;
                let parent = Self::place(&by, parent, services).await?;
                Self::check_folder_depth(parent.as_ref(), services)?;
                let (space, owner) = Self::owner_of(by);
                ItemEvent::FolderCreated {
                    id,
                    space,
                    owner,
                    parent: parent.map(Self::folder_ref),
                    name,
                    seed_key,
                }
            }
            ItemCommand::UploadFile {
                id,
                by,
                parent,
                upload,
                seed_key,
            } => {
                self.ensure_new()?;
                let file = Self::file_facts(upload)?;
                let parent = Self::place(&by, parent, services).await?;
                let (space, owner) = Self::owner_of(by);
                ItemEvent::FileUploaded {
                    id,
                    space,
                    owner,
                    parent: parent.map(Self::folder_ref),
                    file,
                    seed_key,
                }
            }
            command @ ItemCommand::Copy { .. } => self.handle_copy(command, services).await?,
            ItemCommand::Rename { by, name } => {
                self.require(&by, Action::Rename, services).await?;
                let name = valid_name(&name)?;
                if name == self.name {
                    return Ok(());
                }
                ItemEvent::Renamed {
                    from: self.name.clone(),
                    file_name: self.file.as_ref().map(|f| f.format.file_name_for(&name)),
                    to: name,
                }
            }
            ItemCommand::Move { by, destination } => {
                match self.handle_move(by, destination, services).await? {
                    Some(event) => event,
                    None => return Ok(()),
                }
            }
            ItemCommand::Delete { by } => {
                let (kind, _) = self.require(&by, Action::Delete, services).await?;
                match kind {
                    Kind::Folder => ItemEvent::FolderDeleted {
                        removed: services.descendants(self.id()).await?,
                        by,
                    },
                    Kind::File => ItemEvent::FileRemoved { by },
                }
            }
            ItemCommand::DeleteWithFolder { folder } => {
                if self.kind.is_none() {
                    return Err(DocumentError::NotFound);
                }
                if self.deleted {
                    return Ok(());
                }
                ItemEvent::DeletedWithFolder { folder }
            }
            ItemCommand::Share { by, with, via } => {
                let action = match via {
                    ShareVia::Internal => Action::InternalShare,
                    ShareVia::Storage => Action::StorageInternalShare,
                };
                self.require(&by.id, action, services).await?;
                let with = with.ok_or(DocumentError::RecipientNotFound)?;
                if with.id == by.id {
                    return Err(DocumentError::ShareWithSelf);
                }
                ItemEvent::Shared { by, with, via }
            }
            ItemCommand::ShareExternally {
                by,
                email,
                token_hash,
                expires_at,
                share,
                allow_download,
                max_opens,
            } => {
                let terms = ExternalShareTerms {
                    by,
                    email,
                    token_hash,
                    expires_at,
                    share,
                    allow_download,
                    max_opens,
                };
                self.handle_external_share(terms, services).await?
            }
            ItemCommand::RecordCopy { by, copy, reason } => {
                let action = match reason {
                    CopyReason::Save => Action::SaveToMydocs,
                    CopyReason::Move => Action::MoveToMydocs,
                };
                self.require(&by, action, services).await?;
                match reason {
                    CopyReason::Save => ItemEvent::SavedToMyDocs { by, copy },
                    CopyReason::Move => ItemEvent::MovedToMyDocs { by, copy },
                }
            }
            ItemCommand::ReplaceFile {
                by,
                upload,
                version,
                note,
            } => match self.handle_replace(by, upload, version, note)? {
                Some(event) => event,
                None => return Ok(()),
            },
            ItemCommand::Withdraw {
                by,
                state,
                reason,
                at,
                replacement,
            } => {
                if self.kind.is_none() {
                    return Err(DocumentError::NotFound);
                }
                // A copy its owner removed before the withdrawal has nothing left to withdraw.
                if self.deleted {
                    return Ok(());
                }
                ItemEvent::Withdrawn {
                    by,
                    state,
                    reason: reason.trim().to_string(),
                    at,
                    replacement,
                }
            }
            ItemCommand::Open { by, download } => {
                let kind = self.live()?;
                if !self.access(&by, services).await?.sees() {
                    return Err(DocumentError::NotFound);
                }
                if download {
                    if kind != Kind::File {
                        return Err(DocumentError::NotAFile);
                    }
                    ItemEvent::Downloaded { by }
                } else {
                    ItemEvent::Opened { by }
                }
            }
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: ItemEvent) {
        match event {
            ItemEvent::FolderCreated {
                id,
                space,
                owner,
                parent,
                name,
                ..
            } => {
                self.id = Some(id);
                self.kind = Some(Kind::Folder);
                self.space = space;
                self.owner = owner.map(|o| o.id);
                self.parent = parent;
                self.name = name;
            }
            ItemEvent::FileUploaded {
                id,
                space,
                owner,
                parent,
                file,
                ..
            } => {
                self.id = Some(id);
                self.kind = Some(Kind::File);
                self.space = space;
                self.owner = owner.map(|o| o.id);
                self.parent = parent;
                self.name = file.title.clone();
                self.file = Some(file);
            }
            ItemEvent::Copied {
                id,
                kind,
                owner,
                parent,
                name,
                file,
                ..
            } => {
                self.id = Some(id);
                self.kind = Some(kind);
                self.space = Space::My;
                self.owner = Some(owner.id);
                self.parent = parent;
                self.name = name;
                self.file = file;
            }
            ItemEvent::Renamed { to, file_name, .. } => {
                if let (Some(file), Some(name)) = (self.file.as_mut(), file_name) {
                    file.title = to.clone();
                    file.name = name;
                }
                self.name = to;
            }
            ItemEvent::Moved { to, .. } => self.parent = to,
            ItemEvent::FolderDeleted { .. }
            | ItemEvent::FileRemoved { .. }
            | ItemEvent::DeletedWithFolder { .. } => self.deleted = true,
            ItemEvent::Shared { with, .. } => {
                self.shared_with.insert(with.id);
            }
            // The original leaves the mover's Shared with me.
            ItemEvent::MovedToMyDocs { by, .. } => {
                self.shared_with.remove(&by);
            }
            ItemEvent::FileReplaced { file, version, .. } => {
                self.name = file.title.clone();
                self.file = Some(file);
                self.version = version;
            }
            ItemEvent::Withdrawn {
                state,
                reason,
                at,
                replacement,
                ..
            } => {
                self.withdrawn = Some(WithdrawalFacts {
                    state,
                    reason,
                    at,
                    replacement,
                });
            }
            ItemEvent::SharedExternally { .. }
            | ItemEvent::SavedToMyDocs { .. }
            | ItemEvent::Opened { .. }
            | ItemEvent::Downloaded { .. } => {}
        }
    }
}
