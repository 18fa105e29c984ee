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

use serde::{Deserialize, Serialize};

use super::model::{Kind, Labels};

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
