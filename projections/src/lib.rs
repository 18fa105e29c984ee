//! The read side of the companion app: read models built from the global event stream, and the
//! database handle shared by the whole server.
//!
//! - [`documents`] - the documents and folders read model.
//! - [`db`] - one handle over SQLite and PostgreSQL, and the `on_db!` / `on_tx!` macros.
//! - [`stream`] - reading the global event stream in commit order without ever skipping an event.
//! - [`projector`] - running projections with per-projection checkpoints.
//! - [`dead_letters`] - events a projection cannot apply: recorded, then stop or skip.
//! - [`catch_up`] - each projection's speed and its estimated time to be current, for `/metrics`.
//! - [`lease`] - the projector lease with its fencing number (several nodes on PostgreSQL).
//! - [`feed`] - users' numbered feeds of live messages, written by projections.
//! - [`notifications`] - notifications and app updates: read models, unread counts, feed messages.
//! - [`course_registrations`] - who registered to which day of a course.
//! - [`terms`] - which user accepted which version of the terms.
//! - [`stored_files`] - stored files, the live items naming each, and each user's storage usage.
//! - [`item_reads`] - how often each reader opened and downloaded each document.
//! - [`share_engagement`] - tracked external links: each share's terms, opens, pages, downloads.
//! - [`library`] - library documents: state, versions, history, holders and purges.
//! - [`replay`] - rebuilding projections from position 0 and comparing them with the live tables.
//! - [`rebuild_progress`] - how far the rebuilds running beside the server are, for `/metrics`.
//! - [`swap`] - putting a rebuilt projection in place of the live one (blue/green).

pub mod catch_up;
pub mod content;
pub mod course_registrations;
pub mod db;
pub mod dead_letters;
pub mod documents;
pub mod feed;
pub mod item_reads;
pub mod lease;
pub mod library;
pub mod notifications;
pub mod projector;
pub mod rebuild_progress;
pub mod replay;
pub mod share_engagement;
pub mod stored_files;
pub mod stream;
pub mod swap;
pub mod terms;

pub use db::{now_ms, Bound, Db, DbKind, Deleted, Tx, DELETE_BATCH_ROWS};
pub use dead_letters::PoisonPolicy;
pub use projector::{
    BatchFailure, CheckpointState, Projection, ProjectionError, Projector, ProjectorHandle,
    TableSpec, WaitOutcome,
};
pub use stream::{Position, StoredEvent};
