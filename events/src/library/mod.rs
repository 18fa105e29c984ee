//! Library documents of the company (catalogues, IFUs, brochures), event-sourced: one
//! [`LibraryDocument`] stream per document, from its first draft through review, approval,
//! release, new versions, and its end (expired or withdrawn).
//!
//! - [`model`] - statuses, audience, metadata, versions, endings.
//! - [`commands`], [`events`], [`error`] - what is asked, what happened, why it was refused.
//! - [`aggregate`] - the rules: four eyes, the order of the steps, time, withdrawal.
//!
//! Reads, offline pins and purge confirmations of devices are recorded on the same stream,
//! each at most once (per user, version and kind; per device), so the stream stays bounded
//! while the withdrawal report can prove who held what.

pub mod aggregate;
pub mod commands;
pub mod error;
pub mod events;
pub mod model;

#[cfg(test)]
mod tests;

pub use aggregate::{LibraryDocument, LIBRARY_TYPE};
pub use commands::LibraryCommand;
pub use error::LibraryError;
pub use events::{CascadeStep, LibraryEvent};
pub use model::{Audience, DocMetadata, EndState, Ending, Status, Version, VersionFile};
