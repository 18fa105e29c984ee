//! Documents and folders (spec 2.16, 3, 4, 5, 6 and 7 "Documents and folders"), event-sourced.
//!
//! Every change to a document or folder is a command on one [`Item`] aggregate and is recorded
//! as an [`ItemEvent`]; the lists, trees, badges and history are built from those events.
//!
//! - [`model`] - kinds, spaces, labels, file facts, name and e-mail checks.
//! - [`access`] - the rule table: which actions a user may take on an item, and which lines of
//!   its history a user reads.
//! - [`commands`], [`events`], [`error`] - what is asked, what happened, why it was refused.
//! - [`services`] - what the aggregate needs to know from outside.
//! - [`aggregate`] - the rules themselves.

pub mod access;
pub mod aggregate;
pub mod commands;
pub mod error;
pub mod events;
pub mod model;
pub mod services;

#[cfg(test)]
mod tests;

pub use access::{Access, Action, HistoryScope, PRIVATE_FOLDER};
pub use aggregate::{is_safe_blob_name, Item, ITEM_TYPE};
pub use commands::{CopyReason, Creator, ItemCommand, ShareVia, Upload};
pub use error::{DocumentError, ServiceError, MAX_DEPTH_REACHED, RECIPIENT_NOT_FOUND};
pub use events::ItemEvent;
pub use model::{
    is_valid_email, valid_name, FileFacts, FileFormat, ItemId, ItemRef, Kind, Labels,
    ReplacementRef, Space, UserRef, WithdrawalFacts, WithdrawnState, DEFAULT_MAX_FOLDER_DEPTH,
    MAX_NAME_LEN,
};
pub use services::{DocumentServices, ItemInfo, ItemServices, SourceItem};
