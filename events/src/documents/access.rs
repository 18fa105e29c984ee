//! Who may do what with an item: the one rule table behind every item's `actions` list.
//!
//! The aggregate refuses any command whose action is not in this list for the caller, and the
//! read side shows exactly this list, so the app never offers what the server would refuse.
//!
//! | how the user reaches the item            | folder                               | file |
//! |------------------------------------------|--------------------------------------|------|
//! | owner (in their My Docs)                 | rename, internal_share, move, delete | rename, internal_share, external_share¹, move, delete |
//! | shared with them (root of Shared with me)| move_to_mydocs                       | save_to_mydocs, move_to_mydocs |
//! | inside a folder shared with them         | —                                    | save_to_mydocs |
//! | US set (certificate US)                  | —                                    | storage_internal_share, external_share¹, save_to_mydocs |
//!
//! ¹ only when the labels allow it ([`Labels::allow_external_share`]): never for 'For internal
//! use'; 'Controlled release' and 'Upon request' only with `external_release`.
//!
//! Shared and US items are read-only for the receiver: no rename, move, delete or add.
//! A user who reaches an item several ways gets the union.
//!
//! An item's history follows [`HistoryScope`]: auditors and the owner read every line; anyone
//! else who sees the item reads its own facts and their own actions, never other people's
//! reads, other recipients, external addresses, or the names of folders they cannot see.

use serde::{Deserialize, Serialize};

use super::events::ItemEvent;
use super::model::{ItemRef, Kind, Labels};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Rename,
    InternalShare,
    StorageInternalShare,
    ExternalShare,
    SaveToMydocs,
    MoveToMydocs,
    Move,
    Delete,
}

impl Action {
    /// Every action in the order the action menu shows them (spec 4).
    pub const ALL: [Action; 8] = [
        Action::Rename,
        Action::InternalShare,
        Action::StorageInternalShare,
        Action::ExternalShare,
        Action::SaveToMydocs,
        Action::MoveToMydocs,
        Action::Move,
        Action::Delete,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Rename => "rename",
            Action::InternalShare => "internal_share",
            Action::StorageInternalShare => "storage_internal_share",
            Action::ExternalShare => "external_share",
            Action::SaveToMydocs => "save_to_mydocs",
            Action::MoveToMydocs => "move_to_mydocs",
            Action::Move => "move",
            Action::Delete => "delete",
        }
    }

    /// How a refusal names the action.
    pub fn verb(self) -> &'static str {
        match self {
            Action::Rename => "rename",
            Action::InternalShare | Action::StorageInternalShare => "share",
            Action::ExternalShare => "share externally",
            Action::SaveToMydocs => "save to My Docs",
            Action::MoveToMydocs => "move to My Docs",
            Action::Move => "move",
            Action::Delete => "delete",
        }
    }
}

/// How one user reaches one item. All false: the user cannot see it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Access {
    /// The item is in the user's own My Docs.
    pub owner: bool,
    /// The item itself was shared with the user (it sits at the root of their Shared with me).
    pub direct: bool,
    /// The item lies inside a folder shared with the user.
    pub inside: bool,
    /// The item belongs to the US set and the user's certificate is US.
    pub us: bool,
}

impl Access {
    pub fn sees(&self) -> bool {
        self.owner || self.direct || self.inside || self.us
    }

    /// Exactly what this user may do with an item of this kind and these labels, in menu order.
    pub fn actions(&self, kind: Kind, labels: &Labels) -> Vec<Action> {
        Action::ALL
            .into_iter()
            .filter(|a| self.allows(*a, kind, labels))
            .collect()
    }

    pub fn allows(&self, action: Action, kind: Kind, labels: &Labels) -> bool {
        let file = kind == Kind::File;
        match action {
            Action::Rename | Action::Move | Action::Delete | Action::InternalShare => self.owner,
            Action::ExternalShare => {
                file && (self.owner || self.us) && labels.allow_external_share()
            }
            Action::StorageInternalShare => file && self.us,
            Action::SaveToMydocs => file && (self.direct || self.inside || self.us),
            Action::MoveToMydocs => self.direct,
        }
    }

    /// What the user could do if labels did not matter (tells a label refusal from others).
    pub fn allows_ignoring_labels(&self, action: Action, kind: Kind) -> bool {
        let open = Labels {
            external_release: true,
            ..Labels::default()
        };
        self.allows(action, kind, &open)
    }
}

/// How much of an item's history a reader is told (the table of `docs/security.md`, "History:
/// who sees what").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryScope {
    /// Every line as recorded: auditors, and the owner of an item in their own My Docs.
    Full,
    /// The item's own facts (created, uploaded, renamed, moved, versions, removed, deleted),
    /// shares made to the reader, and the reader's own actions.
    Own,
}

/// What a folder the reader cannot see is called in their history.
pub const PRIVATE_FOLDER: &str = "a private folder";

impl HistoryScope {
    pub fn of(auditor: bool, access: &Access) -> HistoryScope {
        if auditor || access.owner {
            HistoryScope::Full
        } else {
            HistoryScope::Own
        }
    }

    /// Whether `reader` is told of `event`, done by `actor` (the user id in its metadata).
    pub fn shows(self, reader: &str, actor: &str, event: &ItemEvent) -> bool {
        if self == HistoryScope::Full || actor == reader {
            return true;
        }
        match event {
            ItemEvent::FolderCreated { .. }
            | ItemEvent::FileUploaded { .. }
            | ItemEvent::Copied { .. }
            | ItemEvent::Renamed { .. }
            | ItemEvent::Moved { .. }
            | ItemEvent::FolderDeleted { .. }
            | ItemEvent::FileRemoved { .. }
            | ItemEvent::DeletedWithFolder { .. }
            | ItemEvent::FileReplaced { .. }
            | ItemEvent::Withdrawn { .. } => true,
            // Shared with them, by whom; never who else received it.
            ItemEvent::Shared { with, .. } => with.id == reader,
            // Other people's reads, copies and external recipients are theirs.
            ItemEvent::SharedExternally { .. }
            | ItemEvent::SavedToMyDocs { .. }
            | ItemEvent::MovedToMyDocs { .. }
            | ItemEvent::Opened { .. }
            | ItemEvent::Downloaded { .. } => false,
        }
    }

    /// The folders `event` names (where it was created, moved from and to, deleted with).
    pub fn folders_named(event: &ItemEvent) -> Vec<&str> {
        folder_refs(event)
            .into_iter()
            .flatten()
            .map(|f| f.id.as_str())
            .collect()
    }

    /// `event` as the reader is told it: under [`HistoryScope::Own`], a folder for which `sees`
    /// is false is named [`PRIVATE_FOLDER`].
    pub fn redact(self, mut event: ItemEvent, sees: impl Fn(&str) -> bool) -> ItemEvent {
        if self == HistoryScope::Own {
            for folder in folder_refs_mut(&mut event).into_iter().flatten() {
                if !sees(&folder.id) {
                    folder.name = PRIVATE_FOLDER.to_string();
                }
            }
        }
        event
    }
}

fn folder_refs(event: &ItemEvent) -> [Option<&ItemRef>; 2] {
    match event {
        ItemEvent::FolderCreated { parent, .. }
        | ItemEvent::FileUploaded { parent, .. }
        | ItemEvent::Copied { parent, .. } => [parent.as_ref(), None],
        ItemEvent::Moved { from, to } => [from.as_ref(), to.as_ref()],
        ItemEvent::DeletedWithFolder { folder } => [Some(folder), None],
        _ => [None, None],
    }
}

fn folder_refs_mut(event: &mut ItemEvent) -> [Option<&mut ItemRef>; 2] {
    match event {
        ItemEvent::FolderCreated { parent, .. }
        | ItemEvent::FileUploaded { parent, .. }
        | ItemEvent::Copied { parent, .. } => [parent.as_mut(), None],
        ItemEvent::Moved { from, to } => [from.as_mut(), to.as_mut()],
        ItemEvent::DeletedWithFolder { folder } => [Some(folder), None],
        _ => [None, None],
    }
}

#[cfg(test)]
mod history_tests {
    use super::*;
    use crate::documents::{ShareVia, UserRef};

    fn user(id: &str) -> UserRef {
        UserRef {
            id: id.into(),
            name: id.into(),
        }
    }

    #[test]
    fn others_read_the_items_facts_their_shares_and_their_own_actions() {
        let own = HistoryScope::of(
            false,
            &Access {
                direct: true,
                ..Access::default()
            },
        );
        assert_eq!(own, HistoryScope::Own);
        let opened = ItemEvent::Opened { by: "carl".into() };
        assert!(!own.shows("bea", "carl", &opened));
        assert!(own.shows("carl", "carl", &opened));
        let share = |with: &str| ItemEvent::Shared {
            by: user("ann"),
            with: user(with),
            via: ShareVia::Internal,
        };
        assert!(own.shows("bea", "ann", &share("bea")));
        assert!(!own.shows("bea", "ann", &share("carl")));
        let external = ItemEvent::SharedExternally {
            by: "ann".into(),
            email: "dr@clinic.example".into(),
            token_hash: String::new(),
            expires_at: 0,
            share: String::new(),
            allow_download: true,
            max_opens: None,
            title: String::new(),
            owner: None,
        };
        assert!(!own.shows("bea", "ann", &external));
        let renamed = ItemEvent::Renamed {
            from: "a".into(),
            to: "b".into(),
            file_name: None,
        };
        assert!(own.shows("bea", "ann", &renamed));
    }

    #[test]
    fn auditors_and_owners_read_everything() {
        let external = ItemEvent::SharedExternally {
            by: "ann".into(),
            email: "dr@clinic.example".into(),
            token_hash: String::new(),
            expires_at: 0,
            share: String::new(),
            allow_download: true,
            max_opens: None,
            title: String::new(),
            owner: None,
        };
        for scope in [
            HistoryScope::of(true, &Access::default()),
            HistoryScope::of(
                false,
                &Access {
                    owner: true,
                    ..Access::default()
                },
            ),
        ] {
            assert_eq!(scope, HistoryScope::Full);
            assert!(scope.shows("x", "ann", &external));
            assert!(scope.shows("x", "carl", &ItemEvent::Opened { by: "carl".into() }));
        }
    }

    #[test]
    fn folders_the_reader_cannot_see_are_not_named() {
        let folder = |id: &str, name: &str| {
            Some(ItemRef {
                id: id.into(),
                name: name.into(),
            })
        };
        let moved = ItemEvent::Moved {
            from: folder("secret", "Salaries"),
            to: folder("open", "Shared work"),
        };
        assert_eq!(HistoryScope::folders_named(&moved), ["secret", "open"]);
        let told = HistoryScope::Own.redact(moved.clone(), |id| id == "open");
        assert_eq!(
            told,
            ItemEvent::Moved {
                from: folder("secret", PRIVATE_FOLDER),
                to: folder("open", "Shared work"),
            }
        );
        assert_eq!(HistoryScope::Full.redact(moved.clone(), |_| false), moved);
    }
}
